//! `games.jsonl`: one game record per line.

use std::io::BufRead;

use super::GameRecord;

/// One game as its line of `games.jsonl`, without the trailing newline.
pub fn games_jsonl_line(record: &GameRecord) -> String {
    // The record holds only strings, numbers, vectors and unit enums: it always serializes.
    serde_json::to_string(record).expect("a GameRecord always serializes")
}

/// Why `games.jsonl` could not be read back.
#[derive(Debug, thiserror::Error)]
pub enum RecordError {
    /// The reader failed.
    #[error("reading games.jsonl line {line}: {error}")]
    Io {
        /// 1-based line number.
        line: usize,
        error: std::io::Error,
    },
    /// A line is not the JSON of a [`GameRecord`].
    #[error("games.jsonl line {line} is not a game record: {error}")]
    Json {
        /// 1-based line number.
        line: usize,
        error: serde_json::Error,
    },
}

/// Reads every game of a `games.jsonl` (blank lines are skipped), for tests and reports.
pub fn read_games_jsonl(reader: impl BufRead) -> Result<Vec<GameRecord>, RecordError> {
    let mut games = Vec::new();
    for (i, line) in reader.lines().enumerate() {
        let line_no = i + 1;
        let line = line.map_err(|error| RecordError::Io {
            line: line_no,
            error,
        })?;
        if line.trim().is_empty() {
            continue;
        }
        let record = serde_json::from_str(&line).map_err(|error| RecordError::Json {
            line: line_no,
            error,
        })?;
        games.push(record);
    }
    Ok(games)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::record::fixtures::{hand_made, sample};

    #[test]
    fn jsonl_round_trip_and_line_numbers_in_errors() {
        let games = vec![sample(), hand_made()];
        let mut text = String::new();
        for g in &games {
            let line = games_jsonl_line(g);
            assert!(!line.contains('\n'));
            text.push_str(&line);
            text.push('\n');
        }
        text.push('\n'); // a trailing blank line is fine
        assert_eq!(read_games_jsonl(text.as_bytes()).unwrap(), games);

        let bad = format!("{}\n{{\"game\": 1}}\n", games_jsonl_line(&games[0]));
        let err = read_games_jsonl(bad.as_bytes()).unwrap_err();
        assert!(matches!(err, RecordError::Json { line: 2, .. }), "{err:?}");
        assert!(err.to_string().contains("line 2"), "{err}");
    }

    #[test]
    fn reason_is_left_out_of_the_json_when_none() {
        let line = games_jsonl_line(&hand_made());
        assert_eq!(line.matches("\"reason\":\"pick\"").count(), 2);
        assert!(!line.contains("null"));
    }
}
