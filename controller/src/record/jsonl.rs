//! `games.jsonl`: one game record per line, each line carrying a running SHA-256 chain.
//!
//! A line is the record's JSON with one more field at the end, `"chain":"<64 hex>"`, the
//! SHA-256 of the previous line's chain (as hex text) followed by the exact bytes of the record's
//! JSON without that field. The chain of the first line starts from [`Chain::start`] of the
//! series id. So an edited, inserted or deleted line breaks the chain at that line, while a
//! reader that does not care (`serde` ignores the extra field) reads the record as before.
//!
//! Reading is streamed ([`LogReader`]): a series of a million games is never held in memory. A
//! last line without its newline is a torn write (a full disk, a power loss): the reader stops
//! before it and says where it starts, so it can be dropped and its game played again.

use std::io::{self, BufRead};

use sha2::{Digest, Sha256};

use super::GameRecord;

/// The chain field as it ends every line: `,"chain":"` + 64 hex digits + `"}`.
const CHAIN_KEY: &[u8] = b",\"chain\":\"";
/// Length of the chain's suffix on a line (without the newline).
const SUFFIX: usize = CHAIN_KEY.len() + 64 + 2;

/// The running SHA-256 chain of a `games.jsonl`: the hex head after the lines so far.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Chain {
    head: [u8; 64],
}

impl Chain {
    /// The chain before the first line of the series `series` (its id), so lines cannot be
    /// moved unnoticed from one series to another.
    pub fn start(series: &str) -> Chain {
        let digest = Sha256::new()
            .chain_update(b"take6 games.jsonl\n")
            .chain_update(series.as_bytes())
            .finalize();
        Chain { head: hex(&digest) }
    }

    /// A chain continuing from a recorded head (64 hex digits), e.g. from `series.toml`.
    pub fn from_head(head: &str) -> Option<Chain> {
        let bytes: [u8; 64] = head.as_bytes().try_into().ok()?;
        bytes
            .iter()
            .all(|b| b.is_ascii_digit() || (b'a'..=b'f').contains(b))
            .then_some(Chain { head: bytes })
    }

    /// The head as hex text.
    pub fn head(&self) -> &str {
        std::str::from_utf8(&self.head).expect("hex digits are ASCII")
    }

    /// The link after a line whose record JSON is `body`.
    fn next(&self, body: &[u8]) -> [u8; 64] {
        hex(&Sha256::new()
            .chain_update(self.head)
            .chain_update(body)
            .finalize())
    }

    /// Appends `record`'s whole line, newline included, to `out` and advances the chain.
    pub fn append_line(&mut self, record: &GameRecord, out: &mut Vec<u8>) {
        let start = out.len();
        // The record holds only strings, numbers, vectors and unit enums: it always serializes.
        serde_json::to_writer(&mut *out, record).expect("a GameRecord always serializes");
        self.head = self.next(&out[start..]);
        self.end_line(out);
    }

    /// [`Chain::append_line`] for a record already serialized (`json`, as
    /// [`games_jsonl_line`] makes it), so that threads playing games can serialize them and
    /// leave only the chain, which runs in line order, to the one thread writing the file.
    pub fn append_json(&mut self, json: &[u8], out: &mut Vec<u8>) {
        self.head = self.next(json);
        out.extend_from_slice(json);
        self.end_line(out);
    }

    /// Replaces the closing brace of the record just appended to `out` by the chain field.
    fn end_line(&self, out: &mut Vec<u8>) {
        debug_assert_eq!(out.last(), Some(&b'}'));
        out.pop();
        out.extend_from_slice(CHAIN_KEY);
        out.extend_from_slice(&self.head);
        out.extend_from_slice(b"\"}\n");
    }
}

fn hex(digest: &[u8]) -> [u8; 64] {
    const DIGITS: &[u8; 16] = b"0123456789abcdef";
    let mut out = [0u8; 64];
    for (i, b) in digest.iter().enumerate() {
        out[2 * i] = DIGITS[usize::from(b >> 4)];
        out[2 * i + 1] = DIGITS[usize::from(b & 15)];
    }
    out
}

/// One game as its line of `games.jsonl` (without chain or newline), for tools and tests.
pub fn games_jsonl_line(record: &GameRecord) -> String {
    serde_json::to_string(record).expect("a GameRecord always serializes")
}

/// How a line's chain compares with the lines before it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Link {
    /// The chain field is what the previous line and this record make.
    Intact,
    /// The line has no chain field (written by an older take6, or by hand).
    Missing,
    /// The chain field differs: this line, or one before it, was edited, inserted or deleted.
    Broken,
}

/// One complete line read back.
#[derive(Debug, Clone)]
pub struct LogLine {
    /// 1-based line number in the file.
    pub number: u64,
    pub record: GameRecord,
    pub link: Link,
}

/// A last line without its newline: where it starts, so the file can be cut back to the
/// complete lines before it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Torn {
    /// Its 1-based line number.
    pub line: u64,
    /// The byte offset it starts at (the length of the complete lines).
    pub offset: u64,
    /// How many bytes it has.
    pub bytes: u64,
}

/// Why `games.jsonl` could not be read back.
#[derive(Debug, thiserror::Error)]
pub enum RecordError {
    /// The reader failed.
    #[error("reading games.jsonl line {line}: {error}")]
    Io {
        /// 1-based line number.
        line: usize,
        error: io::Error,
    },
    /// A line is not the JSON of a [`GameRecord`].
    #[error("games.jsonl line {line} is not a game record: {error}")]
    Json {
        /// 1-based line number.
        line: usize,
        error: serde_json::Error,
    },
}

/// Streams the complete lines of a `games.jsonl`, checking the chain as it goes. Blank lines
/// are skipped. Stops at a torn last line, which is then in [`LogReader::torn`].
pub struct LogReader<R> {
    reader: R,
    chain: Chain,
    line: u64,
    offset: u64,
    buf: Vec<u8>,
    torn: Option<Torn>,
    done: bool,
}

impl<R: BufRead> LogReader<R> {
    /// A reader of the log of the series `series` (its id, which starts the chain).
    pub fn new(reader: R, series: &str) -> LogReader<R> {
        LogReader {
            reader,
            chain: Chain::start(series),
            line: 0,
            offset: 0,
            buf: Vec::new(),
            torn: None,
            done: false,
        }
    }

    /// The torn last line, once the reader has reached it.
    pub fn torn(&self) -> Option<Torn> {
        self.torn
    }

    /// The chain after the lines read so far (each line's own field, so one edited line is
    /// reported once, not on every line after it).
    pub fn chain_so_far(&self) -> &Chain {
        &self.chain
    }

    /// The number of the last line read (complete or blank).
    pub fn lines(&self) -> u64 {
        self.line
    }

    fn read_line(&mut self) -> Option<Result<LogLine, RecordError>> {
        loop {
            self.buf.clear();
            let n = match self.reader.read_until(b'\n', &mut self.buf) {
                Ok(0) => return None,
                Ok(n) => n as u64,
                Err(error) => {
                    return Some(Err(RecordError::Io {
                        line: self.line as usize + 1,
                        error,
                    }));
                }
            };
            self.line += 1;
            if self.buf.last() != Some(&b'\n') {
                self.torn = Some(Torn {
                    line: self.line,
                    offset: self.offset,
                    bytes: n,
                });
                return None;
            }
            self.offset += n;
            self.buf.pop();
            if self.buf.iter().all(u8::is_ascii_whitespace) {
                continue;
            }
            let record = match serde_json::from_slice(&self.buf) {
                Ok(r) => r,
                Err(error) => {
                    return Some(Err(RecordError::Json {
                        line: self.line as usize,
                        error,
                    }));
                }
            };
            let link = self.link();
            return Some(Ok(LogLine {
                number: self.line,
                record,
                link,
            }));
        }
    }

    /// Checks the chain field of the line in `buf` and moves the chain on to it.
    fn link(&mut self) -> Link {
        let line = &mut self.buf;
        let Some(at) = line.len().checked_sub(SUFFIX) else {
            return Link::Missing;
        };
        if &line[at..at + CHAIN_KEY.len()] != CHAIN_KEY || !line.ends_with(b"\"}") {
            return Link::Missing;
        }
        let mut stored = [0u8; 64];
        stored.copy_from_slice(&line[at + CHAIN_KEY.len()..at + CHAIN_KEY.len() + 64]);
        line.truncate(at);
        line.push(b'}');
        let expected = self.chain.next(line);
        self.chain = Chain { head: stored };
        if expected == stored {
            Link::Intact
        } else {
            Link::Broken
        }
    }
}

impl<R: BufRead> Iterator for LogReader<R> {
    type Item = Result<LogLine, RecordError>;

    fn next(&mut self) -> Option<Self::Item> {
        if self.done {
            return None;
        }
        let item = self.read_line();
        self.done = !matches!(item, Some(Ok(_)));
        item
    }
}

/// Reads every game of a `games.jsonl` (blank lines skipped, a torn last line left out, the
/// chain not checked), for tests and tools.
pub fn read_games_jsonl(reader: impl BufRead) -> Result<Vec<GameRecord>, RecordError> {
    LogReader::new(reader, "")
        .map(|l| l.map(|l| l.record))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::take6::fixtures::sample;
    use crate::record::fixtures::hand_made;

    fn log(series: &str, games: &[GameRecord]) -> Vec<u8> {
        let mut chain = Chain::start(series);
        let mut out = Vec::new();
        for g in games {
            chain.append_line(g, &mut out);
        }
        out
    }

    fn links(text: &[u8], series: &str) -> Vec<(u64, Link)> {
        LogReader::new(text, series)
            .map(|l| l.map(|l| (l.number, l.link)).unwrap())
            .collect()
    }

    #[test]
    fn jsonl_round_trip_and_line_numbers_in_errors() {
        let games = vec![sample(), hand_made()];
        let mut text = log("s", &games);
        text.push(b'\n'); // a trailing blank line is fine
        assert_eq!(read_games_jsonl(&text[..]).unwrap(), games);
        assert_eq!(links(&text, "s"), [(1, Link::Intact), (2, Link::Intact)]);

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

    #[test]
    fn the_chain_names_the_edited_deleted_or_foreign_line() {
        let games = vec![sample(), hand_made(), sample(), hand_made()];
        let text = String::from_utf8(log("s", &games)).unwrap();
        let lines: Vec<&str> = text.lines().collect();

        let edited = text.replacen("\"scores\":[17]", "\"scores\":[7]", 1);
        assert_ne!(edited, text);
        let l = links(edited.as_bytes(), "s");
        assert_eq!(l[1], (2, Link::Broken));
        assert!(l.iter().filter(|(_, k)| *k == Link::Broken).count() == 1);

        let deleted = format!("{}\n{}\n{}\n", lines[0], lines[2], lines[3]);
        let l = links(deleted.as_bytes(), "s");
        assert_eq!(
            l.iter().map(|x| x.1.clone()).collect::<Vec<_>>()[1],
            Link::Broken
        );
        assert_eq!(l[2].1, Link::Intact);

        assert_eq!(links(text.as_bytes(), "other")[0].1, Link::Broken);
        let plain = format!("{}\n", games_jsonl_line(&games[0]));
        assert_eq!(links(plain.as_bytes(), "s")[0].1, Link::Missing);
    }

    #[test]
    fn a_torn_last_line_is_reported_not_read() {
        let text = log("s", &[sample(), hand_made()]);
        let first = text.iter().position(|&b| b == b'\n').unwrap() + 1;
        let cut = &text[..text.len() - 10];
        let mut reader = LogReader::new(cut, "s");
        assert_eq!(reader.by_ref().count(), 1);
        let torn = reader.torn().unwrap();
        assert_eq!((torn.line, torn.offset), (2, first as u64));
        assert_eq!(torn.bytes as usize, text.len() - 10 - first);
        assert_eq!(read_games_jsonl(cut).unwrap(), vec![sample()]);
        assert_eq!(reader.chain_so_far(), &{
            let mut c = Chain::start("s");
            c.append_line(&sample(), &mut Vec::new());
            c
        });
    }

    #[test]
    fn heads_parse_only_as_64_lowercase_hex_digits() {
        let c = Chain::start("x");
        assert_eq!(Chain::from_head(c.head()), Some(c.clone()));
        assert_eq!(Chain::from_head(&c.head()[1..]), None);
        assert_eq!(Chain::from_head(&c.head().to_uppercase()), None);
    }
}
