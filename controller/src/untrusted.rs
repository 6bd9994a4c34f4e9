//! The one door for untrusted text: everything a bot, a bot's folder or a bot's build controls
//! (its name, replies, stderr, `bot.toml`, file names, Kingdomino PICK messages, the fault
//! reasons quoting them) reaches a terminal, a log, a CSV or an HTML page only through the
//! function for that medium here. Records (`games.jsonl`) and `series.toml` keep the raw text
//! (JSON and TOML escape it); whoever prints it passes it through this module.
//!
//! - [`terminal`] (one line), [`terminal_lines`] and [`terminal_text`] (a text of lines), and
//!   [`terminal_bytes`] for bytes that may not be UTF-8:
//!   control characters (C0, DEL, C1), format characters (bidirectional overrides and
//!   isolates, zero-width characters), other characters that show as nothing (default
//!   ignorable code points, Unicode blanks such as U+2800), separators other than the space,
//!   private-use and unassigned code points are shown as visible escapes (`\x1b`, `\u{202e}`),
//!   so no escape sequence, title, clipboard write, hyperlink or reordering reaches the host's
//!   terminal; a line is capped at [`LINE_CHARS`] characters with a visible marker. Text of
//!   several lines keeps its tabs (Java's stack traces indent with them).
//! - [`log`] and [`log_bytes`]: the same, for `logs/*.log`, which hosts `cat`.
//! - [`csv_cell`]: a cell a spreadsheet would evaluate (`=`, `+`, `-`, `@`, tab, CR first) is
//!   neutralised by a leading `'`; write it with the `csv` crate, which quotes.
//! - [`markdown_cell`]: a cell of a Markdown table (`leaderboard.md`): invisible characters
//!   shown, Markdown's punctuation backslash-escaped and `<`, `>`, `&` as entities, so a name
//!   neither breaks the table nor becomes a link, an image or a tag.
//! - [`html`]: escaped for HTML content and attribute values, invisible characters shown;
//!   [`page_text`] for text the report's scripts show (Kingdomino PICK messages).

use std::borrow::Cow;
use std::fmt::Write as _;

use unicode_properties::{GeneralCategory, UnicodeGeneralCategory};

/// The longest line [`terminal`] and [`log`] give, in characters, the marker included.
pub const LINE_CHARS: usize = 1000;

/// Whether `c` must not reach a person as itself: it is a control, format, separator (other
/// than the space: line and paragraph separators, other widths of space), surrogate,
/// private-use or unassigned code point, a default ignorable code point (its UTS #39 skeleton
/// is empty: variation selectors, Hangul fillers, tags, …), or a blank that is none of these
/// (U+2800 BRAILLE PATTERN BLANK, U+FFFC, U+FFFD, which stands for bytes that were not UTF-8).
pub fn invisible(c: char) -> bool {
    if c.is_ascii() {
        return !(' '..='~').contains(&c);
    }
    use GeneralCategory::*;
    if matches!(
        c.general_category(),
        Control
            | Format
            | SpaceSeparator
            | LineSeparator
            | ParagraphSeparator
            | Surrogate
            | PrivateUse
            | Unassigned
    ) || matches!(c, '\u{2800}' | '\u{FFFC}' | '\u{FFFD}')
    {
        return true;
    }
    let mut buf = [0; 4];
    unicode_security::skeleton(c.encode_utf8(&mut buf))
        .next()
        .is_none()
}

/// `c` as a visible escape: `\xNN` up to U+00FF, else `\u{N}`, and the usual `\t`, `\n`, `\r`.
fn push_escape(out: &mut String, c: char) {
    match c {
        '\t' => out.push_str("\\t"),
        '\n' => out.push_str("\\n"),
        '\r' => out.push_str("\\r"),
        c if (c as u32) < 0x100 => {
            let _ = write!(out, "\\x{:02x}", c as u32);
        }
        c => {
            let _ = write!(out, "\\u{{{:x}}}", c as u32);
        }
    }
}

/// `text` with every [`invisible`] character shown as its escape, uncapped.
fn visible(text: &str, out: &mut String) {
    visible_but(text, out, false);
}

/// [`visible`], keeping tabs as they are when `tabs` (in text of several lines: a tab only
/// moves to the next tab stop, and Java's stack traces indent with it).
fn visible_but(text: &str, out: &mut String, tabs: bool) {
    for c in text.chars() {
        if invisible(c) && !(tabs && c == '\t') {
            push_escape(out, c);
        } else {
            out.push(c);
        }
    }
}

/// `bytes` as text with every [`invisible`] character escaped (tabs kept when `tabs`) and
/// each byte that is not UTF-8 shown as `\xNN`.
fn visible_bytes(bytes: &[u8], out: &mut String, tabs: bool) {
    for chunk in bytes.utf8_chunks() {
        visible_but(chunk.valid(), out, tabs);
        for b in chunk.invalid() {
            let _ = write!(out, "\\x{b:02x}");
        }
    }
}

/// Cuts `line` to [`LINE_CHARS`] characters, the last of them a marker saying how many
/// characters were left out. A line within the cap is left as it is, so capping twice is
/// capping once.
fn cap(mut line: String) -> String {
    let chars = line.chars().count();
    if chars <= LINE_CHARS {
        return line;
    }
    // The marker's length depends on the count it names; "99999999999" digits is the most.
    let keep = LINE_CHARS - " […cut 99999999999 characters]".chars().count();
    let cut = line.char_indices().nth(keep).map_or(line.len(), |(i, _)| i);
    line.truncate(cut);
    let _ = write!(line, " […cut {} characters]", chars - keep);
    line
}

/// One line of untrusted text for a terminal: every [`invisible`] character (newlines too)
/// shown as a visible escape, capped at [`LINE_CHARS`] characters.
pub fn terminal(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    visible(text, &mut out);
    cap(out)
}

/// [`terminal`] for bytes that may not be UTF-8 (each such byte shown as `\xNN`).
pub fn terminal_bytes(bytes: &[u8]) -> String {
    let mut out = String::with_capacity(bytes.len());
    visible_bytes(bytes, &mut out, false);
    cap(out)
}

/// A text of lines (a stderr tail) for a terminal: split at `\n` (a `\r\n` ending counts as
/// one), each line as by [`terminal_bytes`] but for tabs, which are kept. No line break is in
/// any of the lines.
pub fn terminal_lines(bytes: &[u8]) -> Vec<String> {
    let mut lines: Vec<&[u8]> = bytes.split(|&b| b == b'\n').collect();
    if lines.last().is_some_and(|l| l.is_empty()) {
        lines.pop();
    }
    lines
        .into_iter()
        .map(|l| {
            let mut out = String::with_capacity(l.len());
            visible_bytes(l.strip_suffix(b"\r").unwrap_or(l), &mut out, true);
            cap(out)
        })
        .collect()
}

/// A text of lines that holds untrusted parts (a skip reason quoting a `bot.toml` line, an
/// error naming a bot) for a terminal: each line through [`terminal`], joined by `\n`.
pub fn terminal_text(text: &str) -> String {
    terminal_lines(text.as_bytes()).join("\n")
}

/// One line of untrusted text for a log file (hosts `cat` them): as on a terminal.
pub fn log(text: &str) -> String {
    terminal(text)
}

/// Untrusted bytes (a stderr) for a log file: each line as on a terminal, each ended by `\n`.
pub fn log_bytes(bytes: &[u8]) -> String {
    let mut out = String::with_capacity(bytes.len());
    for line in terminal_lines(bytes) {
        out.push_str(&line);
        out.push('\n');
    }
    out
}

/// An untrusted cell for a CSV written with the `csv` crate (which quotes `,`, `"` and line
/// breaks): invisible characters shown as escapes, and a cell a spreadsheet would evaluate as
/// a formula (its first character `=`, `+`, `-`, `@`, tab or CR) prefixed with `'`, which
/// spreadsheets show as text. Bot names never start so (they are refused), this is the second
/// line of defence.
pub fn csv_cell(text: &str) -> Cow<'_, str> {
    let formula = text.starts_with(['=', '+', '-', '@', '\t', '\r']);
    if !formula && !text.chars().any(invisible) {
        return Cow::Borrowed(text);
    }
    let mut out = String::with_capacity(text.len() + 1);
    if formula {
        out.push('\'');
    }
    visible(text, &mut out);
    Cow::Owned(out)
}

/// Untrusted text for a cell of a Markdown table (`leaderboard.md`, pasted into a README or a
/// Stack Exchange answer): invisible characters shown as escapes, every ASCII punctuation
/// character Markdown could read as syntax backslash-escaped (a `|` never starts a new cell),
/// `<`, `>` and `&` written as entities (no tag, no HTML entity), line breaks as spaces: a
/// name is shown as itself and never becomes a link, an image, a tag or a new cell.
pub fn markdown_cell(text: &str) -> String {
    let mut visible_text = String::with_capacity(text.len());
    visible(text, &mut visible_text);
    let mut out = String::with_capacity(visible_text.len() + 8);
    for c in visible_text.chars() {
        match c {
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '&' => out.push_str("&amp;"),
            '\\' | '`' | '*' | '_' | '[' | ']' | '(' | ')' | '|' | '!' | '~' => {
                out.push('\\');
                out.push(c);
            }
            '\n' | '\r' => out.push(' '),
            c => out.push(c),
        }
    }
    out
}

/// Untrusted text for a page's script to show with `textContent` (the JSON data of
/// report.html's viewer, which JSON-escapes it): every invisible character shown as its
/// escape, so that no bidirectional override reorders the page; uncapped.
pub fn page_text(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    visible(text, &mut out);
    out
}

/// Untrusted text for HTML content and attribute values: `& < > " '` as entities and every
/// invisible character shown as its escape (no bidirectional override reorders the page).
pub fn html(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            // A line break in a `<pre>` of stderr lines stays one.
            '\n' => out.push('\n'),
            c if invisible(c) => push_escape(&mut out, c),
            c => out.push(c),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    /// Every character [`terminal`] must never let through.
    fn dangerous(c: char) -> bool {
        c.is_control()
            || matches!(
                c.general_category(),
                GeneralCategory::Format
                    | GeneralCategory::LineSeparator
                    | GeneralCategory::ParagraphSeparator
            )
            || matches!(
                c,
                '\u{2800}' | '\u{3164}' | '\u{115F}' | '\u{1160}' | '\u{FFA0}'
            )
    }

    #[test]
    fn controls_sequences_and_bidi_are_shown_as_escapes() {
        assert_eq!(
            terminal("a\x1b[2Jb\x07\u{9b}c\u{202e}d\u{200b}e\u{7f}\n"),
            "a\\x1b[2Jb\\x07\\x9bc\\u{202e}d\\u{200b}e\\x7f\\n"
        );
        assert_eq!(
            terminal("\x1b]8;;http://x\x1b\\link\x1b]8;;\x1b\\"),
            "\\x1b]8;;http://x\\x1b\\link\\x1b]8;;\\x1b\\"
        );
        assert_eq!(terminal("victim\u{2800}"), "victim\\u{2800}");
        assert_eq!(terminal("victim\u{3164}"), "victim\\u{3164}");
        assert_eq!(terminal("x\u{1d173}"), "x\\u{1d173}");
        assert_eq!(terminal("x\u{fe0f}\u{e0041}"), "x\\u{fe0f}\\u{e0041}");
        // Visible text, letters of every script and emoji stay.
        for keep in ["pyheur c++ bot-2", "élan 日本 vісtim", "naïve ✓ 🎲", "a\\b"] {
            assert_eq!(terminal(keep), keep);
        }
    }

    #[test]
    fn bytes_that_are_not_utf8_are_shown_as_hex() {
        assert_eq!(terminal_bytes(b"a\xff\x1bb\xc3"), "a\\xff\\x1bb\\xc3");
        assert_eq!(
            terminal_lines(b"one\r\ntwo\x1b[1A\x1b[2K\n\n\tthree\r"),
            ["one", "two\\x1b[1A\\x1b[2K", "", "\tthree"]
        );
        assert_eq!(log_bytes(b"x\ry\n"), "x\\ry\n");
    }

    #[test]
    fn long_lines_are_capped_with_a_marker() {
        let long = "\x1b".repeat(2000);
        let shown = terminal(&long);
        assert!(shown.chars().count() <= LINE_CHARS);
        assert!(shown.chars().count() > LINE_CHARS - 20);
        assert!(shown.ends_with(" characters]"), "{shown}");
        assert!(shown.contains("[…cut "), "{shown}");
        assert_eq!(terminal(&shown), shown);
    }

    #[test]
    fn formulas_are_neutralised_in_csv_cells() {
        for (cell, want) in [
            ("=cmd|' /C calc'!A0", "'=cmd|' /C calc'!A0"),
            ("+1", "'+1"),
            ("-1", "'-1"),
            ("@SUM(A1)", "'@SUM(A1)"),
            ("\tx", "'\\tx"),
            ("a,b\"c", "a,b\"c"),
            ("ok", "ok"),
        ] {
            assert_eq!(csv_cell(cell), want);
        }
    }

    #[test]
    fn html_escapes_markup_and_shows_invisibles() {
        assert_eq!(
            html("<b a='1'>&\"\u{202e}</b>"),
            "&lt;b a=&#39;1&#39;&gt;&amp;&quot;\\u{202e}&lt;/b&gt;"
        );
    }

    proptest! {
        #[test]
        fn terminal_output_never_holds_a_dangerous_character(text in any::<String>()) {
            let shown = terminal(&text);
            prop_assert!(!shown.chars().any(dangerous), "{shown:?}");
            prop_assert!(!shown.chars().any(invisible), "{shown:?}");
            prop_assert!(shown.chars().count() <= LINE_CHARS);
            prop_assert_eq!(terminal(&shown), shown.clone(), "idempotent");
        }

        #[test]
        fn bytes_and_lines_never_hold_one_either(bytes in proptest::collection::vec(any::<u8>(), 0..300)) {
            let all = terminal_bytes(&bytes);
            prop_assert!(!all.chars().any(dangerous));
            for line in terminal_lines(&bytes) {
                prop_assert!(!line.chars().any(|c| dangerous(c) && c != '\t'));
            }
            let logged = log_bytes(&bytes);
            prop_assert!(!logged.chars().any(|c| dangerous(c) && !matches!(c, '\n' | '\t')));
        }

        #[test]
        fn csv_cells_and_html_never_hold_one(text in any::<String>()) {
            let cell = csv_cell(&text);
            prop_assert!(!cell.chars().any(dangerous));
            prop_assert!(!cell.starts_with(['=', '+', '-', '@']));
            prop_assert_eq!(csv_cell(&cell), cell.clone(), "idempotent");
            prop_assert!(!page_text(&text).chars().any(dangerous));
            let page = html(&text);
            prop_assert!(!page.chars().any(|c| dangerous(c) && c != '\n'));
            prop_assert!(!page.contains(['<', '>', '"', '\'']));
        }
    }
}
