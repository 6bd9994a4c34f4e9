//! `report.html`: gathers what the page needs as games arrive (played or replayed) and writes
//! the page at the end, with the facts of the folder's `series.toml`.

use std::path::{Path, PathBuf};

use super::super::dir::{self, MANIFEST};
use super::super::reporter::{Event, Sink, SinkError, State};
use super::super::{SeriesError, Status};
use super::sink_err;
use crate::record::Standing;
use crate::record::report::{self, REPORT, ReportStats, SeriesFacts};

/// The report sink. Listed after the manifest's, so the facts it reads are final.
pub struct Report {
    dir: PathBuf,
    stats: ReportStats,
}

impl Report {
    pub fn new(dir: PathBuf) -> Report {
        Report {
            dir,
            stats: ReportStats::default(),
        }
    }
}

impl Sink for Report {
    fn event(&mut self, event: &Event<'_>, state: &State) -> Result<(), SinkError> {
        match event {
            Event::GameFinished(record, _) => self.stats.add(record),
            Event::Finished(status) if *status != Status::Failed => {
                write_report(&self.dir, &state.tally.standings(), &self.stats).map_err(sink_err)?;
            }
            _ => {}
        }
        Ok(())
    }
}

/// Writes `report.html` in `dir` atomically.
pub fn write_report(
    dir: &Path,
    standings: &[Standing],
    stats: &ReportStats,
) -> Result<(), SeriesError> {
    let manifest = std::fs::read_to_string(dir.join(MANIFEST)).unwrap_or_default();
    let facts = SeriesFacts::from_manifest(&manifest);
    let html = report::report_html(&report::Report {
        standings,
        stats,
        facts: &facts,
        ratings: None,
    });
    dir::replace_file(&dir.join(REPORT), html.as_bytes(), false)
}
