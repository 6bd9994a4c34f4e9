//! The CodinGame text protocol: the two init lines, the per-sequence block, and the parsing of
//! the two reply lines (`PUT x y rotation`, `PICK tileId [message]`).
//!
//! Strictness (the referee's own patterns could not be read): each line is trimmed; `PUT` and
//! `PICK` must be upper case and separated from their numbers by whitespace; PUT takes exactly
//! three decimal integers (optional `-`, fitting an i32 — their range is a rule question, not
//! a format one); PICK takes an unsigned decimal id up to 255, then optionally a message, the
//! rest of the line trimmed and kept verbatim.

use super::game::{TileLine, View};
use super::kingdom::Placement;
use std::fmt::Write;

/// Filler sent in place of an in-play line when no tile is in play (turn 1).
pub const NO_TILE_IN_PLAY: &str = "0 _0 _0 -1 0";
/// Filler sent in place of an offer line when nothing is offered (last turn).
pub const NO_TILE_TO_PICK: &str = "0 _0 _0 -1";

/// What a correct reply to turn `turn` (1-based) of a game of `players` is, for `take6
/// check`: both lines on every turn, with the filler to send where a value is ignored.
pub fn correct_reply(turn: u8, players: usize) -> String {
    let last = super::game::turns(players);
    let (put, pick) = (
        if turn <= 1 {
            "`PUT 0 0 0` (turn 1 has nothing to place: any three integers, ignored, but the \
             line is required)"
        } else {
            "`PUT x y rotation` (a legal placement of the tile in play)"
        },
        if turn >= last {
            "`PICK -1` (the last turn has nothing to pick: any integer, ignored, but the line \
             is required)"
        } else {
            "`PICK tileId` (a free tile of the offer)"
        },
    );
    format!("two lines, {put} then {pick}, flushed after the second")
}

/// Why a reply line is badly formatted (a fault: the player's game ends).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum BadReply {
    /// The line does not start with the expected command word (when it starts with no
    /// command word at all, the likely cause is said: a debug line on stdout).
    #[error("expected `{expected} ...`, got {got:?}{}", debug_hint(got))]
    Command {
        /// `PUT` or `PICK`.
        expected: &'static str,
        /// The line as read, trimmed.
        got: String,
    },
    /// Wrong number of values after the command.
    #[error("`{0}` takes {1} values: {2:?}")]
    Arity(&'static str, usize, String),
    /// A value is not a number of the right kind.
    #[error("{0:?} is not a valid {1}")]
    Number(String, &'static str),
}

/// For a line that starts with no command word at all, the likely cause.
fn debug_hint(got: &str) -> &'static str {
    let first = got.split_whitespace().next().unwrap_or("");
    if first.is_empty()
        || ["PUT", "PICK"]
            .iter()
            .any(|w| w.eq_ignore_ascii_case(first))
    {
        ""
    } else {
        "; it is not a reply at all: a line printed on stdout (a debug line?) is read as the \
         bot's reply, so write anything that is not a reply to stderr"
    }
}

/// The init lines: `nbPlayers` then `nbTiles`, each ending in a newline.
pub fn init_lines(players: usize, nb_tiles: usize) -> String {
    format!("{players}\n{nb_tiles}\n")
}

/// The block a seat reads before a sequence: the grids (own first), `nbTiles` in-play lines
/// and `nbTiles` offer lines (fillers when there are none), each ending in a newline.
pub fn turn_block(view: &View) -> String {
    let mut out = String::with_capacity(view.kingdoms.len() * 171 + view.nb_tiles * 40);
    for kingdom in &view.kingdoms {
        kingdom.write_rows(&mut out);
    }
    push_lines(
        &mut out,
        &view.in_play,
        view.nb_tiles,
        NO_TILE_IN_PLAY,
        true,
    );
    push_lines(
        &mut out,
        &view.to_pick,
        view.nb_tiles,
        NO_TILE_TO_PICK,
        false,
    );
    out
}

/// Appends `nb` tile lines, fillers when `lines` is empty.
fn push_lines(out: &mut String, lines: &[TileLine], nb: usize, filler: &str, with_current: bool) {
    if lines.is_empty() {
        (0..nb).for_each(|_| {
            out.push_str(filler);
            out.push('\n');
        });
        return;
    }
    for l in lines {
        let player = l.player.map_or(-1, |p| p as i64);
        let [a, b] = l.tile.squares;
        write!(out, "{} {a} {b} {player}", l.tile.id).expect("write to String");
        if with_current {
            write!(out, " {}", u8::from(l.current)).expect("write to String");
        }
        out.push('\n');
    }
}

/// Parses `PUT x y rotation`.
pub fn parse_put(line: &str) -> Result<Placement, BadReply> {
    let rest = strip_command(line, "PUT")?;
    let values: Vec<&str> = rest.split_whitespace().collect();
    let [x, y, r] = values[..] else {
        return Err(BadReply::Arity("PUT", 3, line.trim().into()));
    };
    let int = |s: &str| {
        s.parse::<i32>()
            .ok()
            .filter(|_| is_decimal(s))
            .ok_or(BadReply::Number(s.into(), "integer"))
    };
    let rotation = int(r)?;
    let rotation = u8::try_from(rotation).unwrap_or(u8::MAX);
    Ok(Placement::new(int(x)?, int(y)?, rotation))
}

/// Parses `PICK tileId [message]`; the message is the rest of the line, trimmed.
pub fn parse_pick(line: &str) -> Result<(u8, Option<String>), BadReply> {
    let rest = strip_command(line, "PICK")?;
    let rest = rest.trim_start();
    let (id, message) = rest.split_once(char::is_whitespace).unwrap_or((rest, ""));
    if id.is_empty() {
        return Err(BadReply::Arity("PICK", 1, line.trim().into()));
    }
    let valid = id.bytes().all(|b| b.is_ascii_digit());
    let id = id
        .parse::<u8>()
        .ok()
        .filter(|_| valid)
        .ok_or(BadReply::Number(id.into(), "tile id"))?;
    let message = message.trim();
    Ok((id, (!message.is_empty()).then(|| message.to_string())))
}

/// Parses the last turn's `PICK value [message]`, whose value is ignored: any well-formed
/// integer (`PICK -1` included, as fits "nothing to pick") is accepted; returns the message.
pub fn parse_ignored_pick(line: &str) -> Result<Option<String>, BadReply> {
    let rest = strip_command(line, "PICK")?.trim_start();
    let (value, message) = rest.split_once(char::is_whitespace).unwrap_or((rest, ""));
    if value.is_empty() {
        return Err(BadReply::Arity("PICK", 1, line.trim().into()));
    }
    if !is_decimal(value) || value.parse::<i64>().is_err() {
        return Err(BadReply::Number(value.into(), "integer"));
    }
    let message = message.trim();
    Ok((!message.is_empty()).then(|| message.to_string()))
}

/// The line after `word`, which must be followed by whitespace (or end the line).
fn strip_command<'a>(line: &'a str, word: &'static str) -> Result<&'a str, BadReply> {
    let line = line.trim();
    let rest = line
        .strip_prefix(word)
        .filter(|r| r.is_empty() || r.starts_with(char::is_whitespace));
    rest.ok_or_else(|| BadReply::Command {
        expected: word,
        got: line.into(),
    })
}

/// Digits with an optional leading minus (no `+`, no spaces).
fn is_decimal(s: &str) -> bool {
    let digits = s.strip_prefix('-').unwrap_or(s);
    !digits.is_empty() && digits.bytes().all(|b| b.is_ascii_digit())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_line_that_is_no_command_at_all_is_said_to_be_a_debug_line_on_stdout() {
        let said = parse_put("placing at 3 4").unwrap_err().to_string();
        assert!(
            said.contains("a debug line?") && said.contains("stderr"),
            "{said}"
        );
        for near in ["PICK 3", "put 1 2 3", ""] {
            let said = parse_put(near).unwrap_err().to_string();
            assert!(!said.contains("debug"), "{said}");
        }
    }
}
