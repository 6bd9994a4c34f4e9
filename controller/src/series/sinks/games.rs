//! `games.jsonl`: the record of every game, the one file every other output can be rebuilt
//! from.
//!
//! Guarantees: the file only ever receives whole lines (a burst of games is one `write` of
//! whole lines), so after `kill -9` or a crash it holds every game whose line was written and
//! nothing of the others (a resume plays those again). Lines are flushed whenever the reporter
//! has nothing else waiting, so a game is in the file within moments of finishing. The file is
//! synced to disk (`fdatasync`) at each checkpoint (every 2 s) before `series.toml` records
//! it, and at the end: after a power loss every game up to the last checkpoint survives, and
//! what came after it is whole lines plus at most one torn last line, which resume drops. A
//! write error (disk full) stops the series naming the file; nothing more is written to it,
//! so a half-written line can only be the last one.

use std::fs::File;
use std::io::Write;
use std::path::PathBuf;

use crate::series::reporter::{Event, Origin, Sink, SinkError, State};

/// Lines are written at the latest when this many bytes are waiting.
const BUFFER: usize = 1 << 16;

/// The `games.jsonl` sink.
pub struct GamesFile {
    path: PathBuf,
    file: Option<File>,
    buf: Vec<u8>,
    /// A write failed: the file may end in part of a line, so nothing more is written.
    broken: bool,
}

impl GamesFile {
    pub fn new(path: PathBuf) -> GamesFile {
        GamesFile {
            path,
            file: None,
            buf: Vec::with_capacity(BUFFER),
            broken: false,
        }
    }

    fn err(&self, error: std::io::Error) -> SinkError {
        SinkError {
            path: self.path.clone(),
            error,
        }
    }

    fn write_out(&mut self) -> Result<(), SinkError> {
        if self.buf.is_empty() || self.broken {
            return Ok(());
        }
        let Some(file) = &mut self.file else {
            return Ok(());
        };
        let result = file.write_all(&self.buf);
        self.buf.clear();
        result.map_err(|e| {
            self.broken = true;
            self.err(e)
        })
    }

    fn sync(&mut self) -> Result<(), SinkError> {
        self.write_out()?;
        match &self.file {
            Some(file) if !self.broken => file.sync_data().map_err(|e| self.err(e)),
            _ => Ok(()),
        }
    }
}

impl Sink for GamesFile {
    fn event(&mut self, event: &Event<'_>, _: &State) -> Result<(), SinkError> {
        match event {
            Event::Started(_) => {
                // Through the door: a games.jsonl left a link or a FIFO is refused.
                let file = crate::door::append_path(&self.path).map_err(|e| self.err(e))?;
                self.file = Some(file);
            }
            Event::GameFinished(_, Origin::Played { line, .. }) => {
                self.buf.extend_from_slice(line);
                if self.buf.len() >= BUFFER {
                    self.write_out()?;
                }
            }
            Event::Checkpoint | Event::Finished(_) => self.sync()?,
            _ => {}
        }
        Ok(())
    }

    fn flush(&mut self) -> Result<(), SinkError> {
        self.write_out()
    }
}
