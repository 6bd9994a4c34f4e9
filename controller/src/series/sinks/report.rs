//! `report.html`: gathers what the page needs as games arrive (played or replayed) and writes
//! the page at the end, with the facts of the folder's `series.toml`, the reply times of the
//! records (the figures of `reply_times.csv`) and the first stderr lines of each faulting bot's `logs/<bot>.games.log`
//! (the sinks listed before this one have written them by then).

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use super::super::dir::{self, MANIFEST};
use super::super::reporter::{Event, Sink, SinkError, State};
use super::super::{SeriesError, Status};
use super::sink_err;
use crate::record::Standing;
use crate::reply_times::ReplyStats;
use crate::report::{self, REPORT, ReportStats, SeriesFacts, StderrExcerpt};

/// The report sink. Listed after the manifest's, so the facts it reads are final.
pub struct Report {
    dir: PathBuf,
    stats: ReportStats,
    /// The reply times, gathered from the records as `reply_times.csv`'s are (the page shows
    /// the data, it does not read the CSV back).
    replies: ReplyStats,
}

impl Report {
    pub fn new(dir: PathBuf) -> Report {
        Report {
            dir,
            stats: ReportStats::default(),
            replies: ReplyStats::default(),
        }
    }
}

impl Sink for Report {
    fn event(&mut self, event: &Event<'_>, state: &State) -> Result<(), SinkError> {
        match event {
            Event::GameFinished(record, _) => {
                self.stats.add(record);
                self.replies.add(record);
            }
            Event::Finished(status) if *status != Status::Failed => {
                write_report(&self.dir, &state.standings(), &self.stats, &self.replies)
                    .map_err(sink_err)?;
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
    replies: &ReplyStats,
) -> Result<(), SeriesError> {
    let manifest = dir::read_file(dir, MANIFEST, dir::MANIFEST_CAP)
        .ok()
        .and_then(|b| String::from_utf8(b).ok())
        .unwrap_or_default();
    let mut facts = SeriesFacts::from_manifest(&manifest);
    facts.game = facts
        .settings
        .get("game")
        .and_then(|g| g.as_str())
        .and_then(|name| crate::games::by_name(name).ok());
    // Missing files (a series of built-ins only has no timed reply and no bot log) leave
    // their parts of the page saying so.
    let reply_times = replies.rows();
    let stderr = stderr_excerpts(dir, standings, stats, str::to_string);
    let ratings: BTreeMap<String, f64> = standings
        .iter()
        .filter_map(|s| Some((s.bot.clone(), s.rating?)))
        .collect();
    let html = report::report_html(&report::Report {
        standings,
        stats,
        facts: &facts,
        ratings: (!ratings.is_empty()).then_some(&ratings),
        reply_times: (!reply_times.is_empty()).then_some(&reply_times[..]),
        stderr: &stderr,
        league: None,
    });
    dir::replace_file(&dir.join(REPORT), html.as_bytes(), false)
}

/// For each bot that faulted, what its log holds of its stderr in the game of its first
/// fault. Reads each log only up to that game's section. `log_of` names the bot whose log a
/// player's games are in (a league's version key: its bot's).
pub(crate) fn stderr_excerpts(
    dir: &Path,
    standings: &[Standing],
    stats: &ReportStats,
    log_of: impl Fn(&str) -> String,
) -> BTreeMap<String, StderrExcerpt> {
    let mut out = BTreeMap::new();
    for s in standings.iter().filter(|s| s.faults > 0 && !s.builtin) {
        let Some(first) = stats.fault_notes(&s.bot).first() else {
            continue;
        };
        let relative = format!("logs/{}.games.log", log_of(&s.bot));
        let Ok(file) = dir::open_file(dir, &relative) else {
            continue;
        };
        let reader = std::io::BufReader::new(file);
        if let Some(e) = report::stderr_of_game(reader, relative, first.game) {
            out.insert(s.bot.clone(), e);
        }
    }
    out
}
