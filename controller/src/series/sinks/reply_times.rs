//! `reply_times.csv`: each bot's reply times summed up, written at the end of a series from
//! every game's record (replayed ones included, so a resumed series counts them all).

use std::path::PathBuf;

use super::super::dir;
use super::super::reporter::{Event, Sink, SinkError, State};
use crate::reply_times::{REPLY_TIMES, ReplyStats};

/// Gathers reply times from every finished game and writes the CSV at the end.
pub struct ReplyTimesFile {
    dir: PathBuf,
    stats: ReplyStats,
}

impl ReplyTimesFile {
    pub fn new(dir: PathBuf) -> ReplyTimesFile {
        ReplyTimesFile {
            dir,
            stats: ReplyStats::default(),
        }
    }
}

impl Sink for ReplyTimesFile {
    fn event(&mut self, event: &Event<'_>, _: &State) -> Result<(), SinkError> {
        match event {
            Event::GameFinished(record, _) => {
                self.stats.add(record);
                Ok(())
            }
            Event::Finished(_) => {
                let path = self.dir.join(REPLY_TIMES);
                dir::replace_file(&path, &self.stats.csv(), false).map_err(super::sink_err)
            }
            _ => Ok(()),
        }
    }
}
