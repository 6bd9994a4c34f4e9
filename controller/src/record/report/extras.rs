//! What the report shows beside the games: the reply times of `reply_times.csv` and the first
//! lines a faulting bot wrote on stderr, from its `logs/<bot>.games.log`. Both are files the
//! series' other sinks write; the report sink reads them and hands the text here to parse, so
//! the page stays a pure function of what it is given.

use std::io::BufRead;

/// One bot's line of `reply_times.csv`, in milliseconds: `[p50, p99, max]` of CPU time (absent
/// where it was not measured) and of wall time.
#[derive(Debug, Clone, PartialEq)]
pub struct ReplyRow {
    pub bot: String,
    /// How many replies the figures are over.
    pub replies: u64,
    pub cpu: Option<[f64; 3]>,
    pub wall: Option<[f64; 3]>,
}

/// The rows of a `reply_times.csv` (its header skipped); a line that does not read is left out
/// rather than failing the report.
pub fn parse_reply_times(csv: &str) -> Vec<ReplyRow> {
    csv.lines()
        .skip(1)
        .filter_map(|line| {
            let f: Vec<&str> = line.split(',').collect();
            let [bot, replies, rest @ ..] = &f[..] else {
                return None;
            };
            let three = |fields: &[&str]| -> Option<[f64; 3]> {
                let v: Vec<f64> = fields
                    .iter()
                    .map(|x| x.parse().ok())
                    .collect::<Option<_>>()?;
                v.try_into().ok()
            };
            if rest.len() != 6 {
                return None;
            }
            Some(ReplyRow {
                bot: (*bot).to_string(),
                replies: replies.parse().ok()?,
                cpu: three(&rest[..3]),
                wall: three(&rest[3..]),
            })
        })
        .collect()
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
    fn reply_times_are_read_with_or_without_cpu() {
        let rows = parse_reply_times(
            "bot,replies,cpu_p50_ms,cpu_p99_ms,cpu_max_ms,wall_p50_ms,wall_p99_ms,wall_max_ms\n\
             a,3,3.000,5.000,5.000,4.000,6.000,6.000\nb,1,,,,1.500,1.500,1.500\nbroken\n",
        );
        assert_eq!(rows.len(), 2);
        assert_eq!(rows[0].cpu, Some([3.0, 5.0, 5.0]));
        assert_eq!(rows[1].cpu, None);
        assert_eq!(rows[1].wall, Some([1.5, 1.5, 1.5]));
    }

    #[test]
    fn the_stderr_of_one_game_is_cut_out_of_the_log() {
        let log = "=== game 1 (seat 0) ===\nnoise of game 1\n\
                   === game 4 (seat 2) ===\nfault in turn 3 (Card): exited\n\
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
