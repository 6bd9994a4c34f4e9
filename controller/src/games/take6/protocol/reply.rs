//! Reply patterns: what a bot's reply to `turn` or `pickrow` must look like, and reading the
//! number out of it.

use super::TemplateError;
use super::load::Entry;

/// Longest part of a bad reply quoted back in a [`ReplyError`].
const REPLY_SHOWN: usize = 80;

/// A bot's reply that does not fit the set's reply pattern. The caller turns it into a fault;
/// [`ReplyError::kind`] is the short tag for records and the message says what was expected
/// (the pattern with an example number in place of its placeholder, and what the number is),
/// what arrived, and, when what arrived is no reply at all, the likely cause.
#[derive(thiserror::Error, Debug, Clone, PartialEq, Eq)]
pub enum ReplyError {
    /// Nothing but whitespace arrived.
    #[error("expected a reply like {}, got an empty line", like(expected))]
    Empty { expected: String },
    /// The literal words of the pattern did not match.
    #[error(
        "expected a reply like {}, got '{got}'{}",
        like(expected),
        debug_hint(expected, got)
    )]
    BadReply { expected: String, got: String },
    /// The words matched but the number is not a whole number that fits in 64 bits.
    #[error(
        "expected a reply like {}, got '{got}'{}",
        like(expected),
        debug_hint(expected, got)
    )]
    NotANumber {
        expected: String,
        placeholder: String,
        got: String,
    },
}

/// The placeholders a reply pattern holds, an example number for each, and what it stands for.
const EXAMPLES: [(&str, &str, &str); 2] = [
    ("{card}", "42", "the number of a card in its hand"),
    ("{row}", "2", "the number of a row, 0 to 3"),
];

/// `pattern` as a reply would read, with what its number stands for: `'PLAY 42' (42: the
/// number of a card in its hand)`.
fn like(pattern: &str) -> String {
    match EXAMPLES.iter().find(|(p, _, _)| pattern.contains(p)) {
        Some((placeholder, example, what)) => format!(
            "'{}' ({example}: {what})",
            pattern.replace(placeholder, example)
        ),
        None => format!("'{pattern}'"),
    }
}

/// When `got` is no reply at all (more words than the pattern, or a word the pattern does not
/// hold), the likely cause: a line the bot printed for itself on stdout, which is read as its
/// reply.
fn debug_hint(pattern: &str, got: &str) -> &'static str {
    let known: Vec<String> = pattern.split_whitespace().map(str::to_lowercase).collect();
    let words: Vec<&str> = got.split_whitespace().collect();
    let stranger = |w: &&str| {
        w.chars().filter(char::is_ascii_alphabetic).count() >= 2
            && !known.contains(&w.to_lowercase())
    };
    if words.len() > known.len() || words.iter().any(stranger) {
        "; it is not a reply at all: a line printed on stdout (a debug line?) is read as the \
         bot's reply, so write anything that is not a reply to stderr"
    } else {
        ""
    }
}

impl ReplyError {
    /// A stable short tag for records and tallies: `empty_reply`, `bad_reply`, `not_a_number`.
    pub fn kind(&self) -> &'static str {
        match self {
            ReplyError::Empty { .. } => "empty_reply",
            ReplyError::BadReply { .. } => "bad_reply",
            ReplyError::NotANumber { .. } => "not_a_number",
        }
    }
}

impl From<ReplyError> for crate::player::Fault {
    fn from(e: ReplyError) -> Self {
        crate::player::Fault::BadReply(e.to_string(), e.kind())
    }
}

/// One piece of a reply pattern.
#[derive(Debug, Clone, PartialEq, Eq)]
enum Piece {
    Word(String),
    Space,
}

/// A compiled reply pattern: literal pieces before and after the number.
#[derive(Debug, Clone)]
pub(super) struct ReplyPattern {
    pub(super) pattern: String,
    pub(super) placeholder: &'static str,
    before: Vec<Piece>,
    after: Vec<Piece>,
}

fn pieces(literal: &str) -> Vec<Piece> {
    let mut out = Vec::new();
    let mut word = String::new();
    for c in literal.chars() {
        if c.is_whitespace() {
            if !word.is_empty() {
                out.push(Piece::Word(std::mem::take(&mut word)));
            }
            if out.last() != Some(&Piece::Space) {
                out.push(Piece::Space);
            }
        } else {
            word.push(c);
        }
    }
    if !word.is_empty() {
        out.push(Piece::Word(word));
    }
    out
}

/// Matches `pieces` at the start of `s`; returns the rest.
fn match_pieces<'a>(pieces: &[Piece], mut s: &'a str) -> Option<&'a str> {
    for piece in pieces {
        match piece {
            Piece::Word(w) => s = s.strip_prefix(w.as_str())?,
            Piece::Space => {
                let rest = s.trim_start();
                if rest.len() == s.len() {
                    return None;
                }
                s = rest;
            }
        }
    }
    Some(s)
}

impl ReplyPattern {
    pub(super) fn new(
        entry: &Entry,
        key: &str,
        placeholder: &'static str,
    ) -> Result<Self, TemplateError> {
        let pattern = entry.source.trim();
        let mut parts = pattern.split(placeholder);
        let (Some(before), Some(after), None) = (parts.next(), parts.next(), parts.next()) else {
            return Err(TemplateError::ReplyPattern {
                path: entry.path.to_string(),
                line: entry.key_line,
                key: key.to_string(),
                pattern: entry.source.clone(),
                placeholder: placeholder.to_string(),
            });
        };
        Ok(ReplyPattern {
            pattern: pattern.to_string(),
            placeholder,
            before: pieces(before),
            after: pieces(after),
        })
    }

    pub(super) fn parse(&self, reply: &str) -> Result<i64, ReplyError> {
        let reply = reply.trim();
        let shown = || {
            let mut s: String = reply.chars().take(REPLY_SHOWN).collect();
            if reply.chars().count() > REPLY_SHOWN {
                s.push('…');
            }
            s
        };
        if reply.is_empty() {
            return Err(ReplyError::Empty {
                expected: self.pattern.clone(),
            });
        }
        let bad = || ReplyError::BadReply {
            expected: self.pattern.clone(),
            got: shown(),
        };
        let rest = match_pieces(&self.before, reply).ok_or_else(bad)?;
        // The number runs up to where the literal after it starts.
        let end = match self.after.first() {
            None => rest.len(),
            Some(Piece::Space) => rest.find(char::is_whitespace).unwrap_or(rest.len()),
            Some(Piece::Word(w)) => rest.find(w.as_str()).ok_or_else(bad)?,
        };
        let (number, tail) = rest.split_at(end);
        if match_pieces(&self.after, tail) != Some("") {
            return Err(bad());
        }
        number.parse::<i64>().map_err(|_| ReplyError::NotANumber {
            expected: self.pattern.clone(),
            placeholder: self.placeholder.to_string(),
            got: shown(),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::REPLY_SHOWN;
    use crate::games::take6::protocol::*;

    #[test]
    fn reply_parsing() {
        let def = default_set();
        assert_eq!(def.parse_card("42"), Ok(42));
        assert_eq!(def.parse_card("  42 \r\n"), Ok(42));
        assert_eq!(def.parse_card("-3"), Ok(-3));
        assert_eq!(def.parse_row("3\r"), Ok(3));
        assert_eq!(def.parse_card("").unwrap_err().kind(), "empty_reply");
        assert_eq!(def.parse_card(" \r\n").unwrap_err().kind(), "empty_reply");
        assert_eq!(def.parse_card("abc").unwrap_err().kind(), "not_a_number");
        assert_eq!(def.parse_card("4 2").unwrap_err().kind(), "not_a_number");
        assert_eq!(def.parse_card("1.5").unwrap_err().kind(), "not_a_number");
        assert_eq!(
            def.parse_card("99999999999999999999").unwrap_err().kind(),
            "not_a_number"
        );

        let lib = TemplateLibrary::load(None).unwrap();
        let cg = lib.get("codingame").unwrap();
        assert_eq!(cg.card_pattern(), "PLAY {card}");
        assert_eq!(cg.parse_card("PLAY 17"), Ok(17));
        assert_eq!(cg.parse_card("\tPLAY \t 17  \r\n"), Ok(17));
        assert_eq!(cg.parse_card("PLAY -1"), Ok(-1));
        assert_eq!(cg.parse_row("PICK 0"), Ok(0));
        assert_eq!(cg.parse_card("play 17").unwrap_err().kind(), "bad_reply");
        assert_eq!(cg.parse_card("PLAY17").unwrap_err().kind(), "bad_reply");
        assert_eq!(cg.parse_card("17").unwrap_err().kind(), "bad_reply");
        assert_eq!(cg.parse_card("PICK 1").unwrap_err().kind(), "bad_reply");
        assert_eq!(cg.parse_card("PLAY x").unwrap_err().kind(), "not_a_number");
        assert_eq!(
            cg.parse_card("PLAY 17 thanks").unwrap_err().kind(),
            "not_a_number"
        );
        let err = cg.parse_card("PLAY 17x").unwrap_err();
        assert_eq!(
            err,
            ReplyError::NotANumber {
                expected: "PLAY {card}".into(),
                placeholder: "{card}".into(),
                got: "PLAY 17x".into()
            }
        );
        assert_eq!(
            err.to_string(),
            "expected a reply like 'PLAY 42' (42: the number of a card in its hand), got 'PLAY 17x'"
        );
        // No placeholder left unfilled, and a debug line is named as the likely cause.
        let said = def
            .parse_row("picking row, cows are [9, 8, 7, 9]")
            .unwrap_err()
            .to_string();
        assert_eq!(
            said,
            "expected a reply like '2' (2: the number of a row, 0 to 3), got 'picking row, cows \
             are [9, 8, 7, 9]'; it is not a reply at all: a line printed on stdout (a debug \
             line?) is read as the bot's reply, so write anything that is not a reply to stderr"
        );
        assert!(!said.contains('{'), "{said}");
        assert!(
            cg.parse_card("PLAY 17 thanks")
                .unwrap_err()
                .to_string()
                .contains("a debug line?")
        );
        for near in ["play 17", "PLAY x", "", "17"] {
            let said = cg.parse_card(near).unwrap_err().to_string();
            assert!(!said.contains("debug") && !said.contains('{'), "{said}");
        }

        // Literal after the number, and whitespace runs.
        let set = TemplateSet::from_source(
            "x",
            "x.toml",
            "card_reply = \"card  = {card};\"\nrow_reply = \"row {row} please\"",
        )
        .unwrap();
        assert_eq!(set.parse_card("card = 5;"), Ok(5));
        assert_eq!(set.parse_card("card \t=   -5;"), Ok(-5));
        assert_eq!(set.parse_card("card = 5").unwrap_err().kind(), "bad_reply");
        assert_eq!(
            set.parse_card("card = 5;;").unwrap_err().kind(),
            "bad_reply"
        );
        assert_eq!(set.parse_row("row 2 please"), Ok(2));
        assert_eq!(set.parse_row("row 2  please "), Ok(2));
        assert_eq!(
            set.parse_row("row 2 Please").unwrap_err().kind(),
            "bad_reply"
        );

        // Long junk is shown truncated.
        let junk = "x".repeat(500);
        let ReplyError::NotANumber { got, .. } = def.parse_card(&junk).unwrap_err() else {
            panic!("not a number expected");
        };
        assert_eq!(got.chars().count(), REPLY_SHOWN + 1);
    }
}
