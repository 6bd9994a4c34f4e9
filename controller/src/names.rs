//! What may name a bot or a player. Names appear in records, logs, CSV files, file names, the
//! report and on terminals, so a name is visible, printable text that reads as itself: see
//! [`name_problem`] for one name and [`lookalikes`] for the names of one series.

use std::collections::BTreeMap;

use unicode_normalization::{UnicodeNormalization, is_nfc};
use unicode_properties::{GeneralCategoryGroup, UnicodeGeneralCategory};

use crate::untrusted;

/// The sign between a bot's name and its version number in a league's keys (`champ~2`): no
/// name may hold it ([`name_problem`]), so no folder can take a version's key.
pub const VERSION_SIGN: char = '~';

/// Why `name` cannot name a bot or a player, if it cannot, with the fix. A name is visible,
/// printable text: no control, format (bidirectional, zero-width), default ignorable,
/// blank (U+2800, U+3164, …) or whitespace character, no combining mark with nothing to
/// combine with at its start, not starting with a character a spreadsheet would read as a
/// formula (`=`, `+`, `-`, `@`), in Unicode NFC, no `#` (built-ins are `name#n`), no `/`, and
/// no `~` nor anything that looks like one ([`look`]): a league's later versions are
/// `name~2`, `name~3`, …, keys no folder can spell.
pub fn name_problem(name: &str) -> Option<String> {
    if name.is_empty() {
        return Some("the name is empty".into());
    }
    if let Some(c) = name.chars().find(|&c| untrusted::invisible(c) && c != ' ') {
        let what = if c.is_whitespace() {
            "whitespace"
        } else {
            "an invisible or control"
        };
        return Some(format!(
            "the name has {what} character U+{:04X} (it shows as '{}'); use visible characters \
             only",
            c as u32,
            untrusted::terminal(name)
        ));
    }
    if name.chars().any(char::is_whitespace) {
        return Some("the name has whitespace; use a single word".into());
    }
    if let Some(c) = name.chars().find(|c| matches!(c, '#' | '/')) {
        return Some(format!("the name has '{c}'; use a name without '#' or '/'"));
    }
    if let Some(c) = name
        .chars()
        .find(|&c| look(&c.to_string()).contains(VERSION_SIGN))
    {
        return Some(format!(
            "the name has '{}', which marks a bot's version in a league (its second version is \
             'name{VERSION_SIGN}2'); use a name without '{VERSION_SIGN}'",
            untrusted::terminal(&c.to_string())
        ));
    }
    if let Some(c) = name
        .chars()
        .next()
        .filter(|c| matches!(c, '=' | '+' | '-' | '@'))
    {
        return Some(format!(
            "the name starts with '{c}', which a spreadsheet reads as a formula; start it with \
             a letter or a digit"
        ));
    }
    if name
        .chars()
        .next()
        .is_some_and(|c| c.general_category_group() == GeneralCategoryGroup::Mark)
    {
        return Some(
            "the name starts with a combining mark, which has nothing to combine with; start \
             it with a letter or a digit"
                .into(),
        );
    }
    if !is_nfc(name) {
        return Some(format!(
            "the name is not in Unicode normal form NFC; rename it to its NFC form '{}'",
            untrusted::terminal(&name.nfc().collect::<String>())
        ));
    }
    None
}

/// What a name looks like, for telling names apart: its UTS #39 confusable skeleton after
/// full Unicode case folding (not only lowercasing: `straße` folds to `strasse`, `ﬃ` to
/// `ffi`), so `vIctim`, `Victim` and Cyrillic `vісtim` all look like `victim`, and `STRASSE`
/// like `straße`.
pub fn look(name: &str) -> String {
    let skeleton: String =
        unicode_security::skeleton(&caseless::default_case_fold_str(name)).collect();
    caseless::default_case_fold_str(&skeleton)
}

/// The names among `names` that look like another of them ([`look`]), each with the names it
/// looks like. All of a group are refused: none can claim to be the original.
pub fn lookalikes<'a>(names: impl IntoIterator<Item = &'a str>) -> BTreeMap<&'a str, Vec<&'a str>> {
    let mut by_look: BTreeMap<String, Vec<&'a str>> = BTreeMap::new();
    for name in names {
        by_look.entry(look(name)).or_default().push(name);
    }
    let mut out = BTreeMap::new();
    for group in by_look.into_values().filter(|g| g.len() > 1) {
        for &name in &group {
            let others = group.iter().copied().filter(|&o| o != name).collect();
            out.insert(name, others);
        }
    }
    out
}

/// Why the bot `name` is refused for looking like `others` ([`lookalikes`]), with the fix.
pub fn lookalike_problem(others: &[&str]) -> String {
    let others: Vec<String> = others
        .iter()
        .map(|o| format!("'{}'", untrusted::terminal(o)))
        .collect();
    format!(
        "the name looks like {} (the same after case folding and Unicode confusables, UTS \
         #39); rename the folders so that no two names look alike",
        others.join(" and ")
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_must_be_visible_single_words() {
        for good in ["pyheur", "c++", "bot-2", "élan", "日本", "vісtim", "x=1"] {
            assert_eq!(name_problem(good), None, "{good}");
        }
        for (bad, why) in [
            ("", "empty"),
            ("a b", "whitespace"),
            ("a\u{a0}b", "whitespace"),
            ("a\tb", "U+0009"),
            ("a\u{7f}", "U+007F"),
            ("a\u{9b}", "U+009B"),
            ("a\x1b[2J", "U+001B"),
            ("a\u{202e}b", "U+202E"),
            ("a\u{feff}", "U+FEFF"),
            ("a\u{fffd}", "U+FFFD"),
            ("victim\u{2800}", "U+2800"),
            ("victim\u{3164}", "U+3164"),
            ("victim\u{115f}", "U+115F"),
            ("victim\u{1d173}", "U+1D173"),
            ("victim\u{200b}", "U+200B"),
            ("victim\u{fe0f}", "U+FE0F"),
            ("victim\u{e0041}", "U+E0041"),
            ("a#1", "'#'"),
            ("a/b", "'/'"),
            ("champ~2", "use a name without '~'"),
            ("~", "marks a bot's version"),
            ("champ\u{2dc}2", "'\u{2dc}'"),
            ("champ\u{223c}2", "'\u{223c}'"),
            ("=cmd", "formula"),
            ("+1", "formula"),
            ("-x", "formula"),
            ("@SUM", "formula"),
            ("\u{301}x", "combining mark"),
            ("e\u{301}", "NFC form 'é'"),
        ] {
            let problem = name_problem(bad).unwrap_or_else(|| panic!("{bad:?} accepted"));
            assert!(problem.contains(why), "{bad:?}: {problem}");
            assert_eq!(untrusted::terminal(&problem), problem, "{bad:?}: shown raw");
        }
    }

    #[test]
    fn names_that_look_alike_are_found_in_groups() {
        let found = lookalikes([
            "victim",
            "vIctim",
            "Victim",
            "v\u{456}\u{441}tim",
            "other",
            "rn",
            "m",
        ]);
        assert_eq!(found.len(), 6, "{found:?}");
        assert_eq!(found["victim"].len(), 3);
        assert!(found["m"] == ["rn"]);
        assert!(!found.contains_key("other"));
        assert!(lookalike_problem(&found["m"]).contains("'rn'"));
    }

    #[test]
    fn names_alike_after_full_case_folding_are_found() {
        // Lowercasing leaves `ß` and `ς` as they are; full case folding makes them `ss`, `σ`.
        for (a, b) in [
            ("straße", "STRASSE"),
            ("straße", "strasse"),
            ("ΣΟΦΟΣ", "σοφος"),
            ("ﬃx", "FFIX"),
            ("Ǆemal", "džemal"),
        ] {
            assert_eq!(look(a), look(b), "{a} {b}");
            assert_eq!(lookalikes([a, b]).len(), 2, "{a} {b}");
        }
        assert_ne!(look("strase"), look("strasse"));
    }
}

/// Why `path` could not be read, for people: "PATH does not exist" when it is not there (the
/// commonest case, a typo), else "cannot read PATH: the system's reason".
pub fn cannot_read(path: &std::path::Path, error: &std::io::Error) -> String {
    if error.kind() == std::io::ErrorKind::NotFound {
        format!("{} does not exist", path.display())
    } else {
        format!("cannot read {}: {error}", path.display())
    }
}

/// `n` and `noun`, the noun in the plural unless `n` is 1 ("1 game", "2 games"): people read
/// these counts, and "1 games verified" reads as a bug. `noun` is a regular English noun.
pub fn count(n: u64, noun: &str) -> String {
    if n == 1 {
        format!("1 {noun}")
    } else {
        format!("{n} {noun}s")
    }
}

#[cfg(test)]
mod count_tests {
    #[test]
    fn one_is_singular_and_every_other_count_plural() {
        assert_eq!(super::count(1, "game"), "1 game");
        assert_eq!(super::count(0, "game"), "0 games");
        assert_eq!(super::count(2, "built-in"), "2 built-ins");
    }
}
