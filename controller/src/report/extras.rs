//! What the report shows beside the games: the reply times (the figures of `reply_times.csv`,
//! computed from the same records, never read back from the CSV) and the first lines a
//! faulting bot wrote on stderr, from its `logs/<bot>.games.log`. The report sink hands them
//! here, so the page stays a pure function of what it is given.

use std::io::BufRead;

/// One bot's reply times (a line of `reply_times.csv`), in milliseconds: `[p50, p99, max]` of CPU time (absent
/// where it was not measured) and of wall time.
#[derive(Debug, Clone, PartialEq)]
pub struct ReplyRow {
    pub bot: String,
    /// How many replies the figures are over.
    pub replies: u64,
    pub cpu: Option<[f64; 3]>,
    pub wall: Option<[f64; 3]>,
}

/// How many lines of a bot's stderr the report quotes.
pub const STDERR_LINES: usize = 8;
/// The longest line quoted, in characters.
const LINE_CHARS: usize = 200;

/// The first lines of a bot's stderr in one game, and where the whole log is.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct StderrExcerpt {
    /// The log's path relative to the series folder, `logs/<bot>.games.log`.
    pub path: String,
    /// The game the lines are from (the bot's first faulted game).
    pub game: u64,
    /// Up to [`STDERR_LINES`] lines, each cut at 200 characters; empty when the bot wrote
    /// nothing on stderr in that game.
    pub lines: Vec<String>,
}

/// The stderr the log `reader` (a `logs/<bot>.games.log`) holds for `game`: the lines of that
/// game's section that are not its header or its fault lines. Reads only up to the end of that
/// section; `None` when the log has no section for the game.
pub fn stderr_of_game(reader: impl BufRead, path: String, game: u64) -> Option<StderrExcerpt> {
    let header = format!("=== game {game} (seat ");
    let mut lines = reader.lines().map_while(Result::ok);
    lines.by_ref().find(|l| l.starts_with(&header))?;
    let kept = lines
        .take_while(|l| !l.starts_with("=== game "))
        .filter(|l| !l.starts_with("fault in "))
        .take(STDERR_LINES)
        .map(|l| match l.char_indices().nth(LINE_CHARS) {
            Some((cut, _)) => format!("{}…", &l[..cut]),
            None => l,
        })
        .collect();
    Some(StderrExcerpt {
        path,
        game,
        lines: kept,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_stderr_of_one_game_is_cut_out_of_the_log() {
        let log = "=== game 1 (seat 0) ===\nnoise of game 1\n\
                   === game 4 (seat 2) ===\nfault in turn 3 (card): exited\n\
                   Traceback (most recent call last):\nValueError: x\n\
                   === game 5 (seat 2) ===\nlater\n";
        let e = stderr_of_game(log.as_bytes(), "logs/b.games.log".into(), 4).unwrap();
        assert_eq!(
            e.lines,
            ["Traceback (most recent call last):", "ValueError: x"]
        );
        assert!(stderr_of_game(log.as_bytes(), String::new(), 40).is_none());
        let long = format!("=== game 0 (seat 0) ===\n{}\n", "é".repeat(300));
        let e = stderr_of_game(long.as_bytes(), String::new(), 0).unwrap();
        assert_eq!(e.lines[0].chars().count(), LINE_CHARS + 1);
    }
}
