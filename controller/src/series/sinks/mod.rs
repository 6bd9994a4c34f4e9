//! The outputs of a series, one sink each. The reporter hands them events in the order they
//! are listed by [`crate::series`]; `games.jsonl` comes before `series.toml` so a checkpoint
//! recorded in the manifest is always on disk in the log.

pub mod bot_logs;
pub mod games;
pub mod progress;
pub mod reply_times;

use std::io::Write;
use std::path::{Path, PathBuf};

use super::dir::{self, LEADERBOARD};
use super::manifest::Manifest;
use super::reporter::{Event, Sink, SinkError, State};
use super::{SeriesError, Status};
use crate::record::{self, Standing};
use progress::BarSlot;

fn sink_err(e: SeriesError) -> SinkError {
    match e {
        SeriesError::Write { path, error } => SinkError { path, error },
        other => SinkError {
            path: PathBuf::new(),
            error: std::io::Error::other(other.to_string()),
        },
    }
}

/// Writes `leaderboard.csv` in `dir` atomically (a reader never sees half a file).
pub fn write_leaderboard(dir: &Path, standings: &[Standing]) -> Result<(), SeriesError> {
    dir::replace_file(
        &dir.join(LEADERBOARD),
        &record::leaderboard_csv(standings),
        false,
    )
}

/// `leaderboard.csv`, rewritten at each checkpoint (so a long series can be watched and a
/// killed one leaves a recent leaderboard) and at the end.
pub struct Leaderboard {
    dir: PathBuf,
}

impl Leaderboard {
    pub fn new(dir: PathBuf) -> Leaderboard {
        Leaderboard { dir }
    }
}

impl Sink for Leaderboard {
    fn event(&mut self, event: &Event<'_>, state: &State) -> Result<(), SinkError> {
        match event {
            Event::Checkpoint | Event::Finished(_) => {
                write_leaderboard(&self.dir, &state.tally.standings()).map_err(sink_err)
            }
            _ => Ok(()),
        }
    }
}

/// `series.toml`: status `running` when games start, the checkpoint (lines of `games.jsonl`
/// and their chain head) every few seconds, and the final status.
pub struct ManifestFile {
    dir: PathBuf,
    manifest: Manifest,
}

impl ManifestFile {
    pub fn new(dir: PathBuf, manifest: Manifest) -> ManifestFile {
        ManifestFile { dir, manifest }
    }

    fn checkpoint(&mut self, state: &State) {
        self.manifest.games_played = state.lines;
        self.manifest.chain = state.chain.head().to_string();
    }
}

impl Sink for ManifestFile {
    fn event(&mut self, event: &Event<'_>, state: &State) -> Result<(), SinkError> {
        match event {
            Event::Started(start) => {
                self.manifest.status = Status::Running;
                self.manifest.finished = None;
                self.manifest.games_planned = start.planned;
                self.checkpoint(state);
            }
            Event::Checkpoint => self.checkpoint(state),
            Event::Finished(status) => {
                self.manifest.status = *status;
                self.manifest.finished = Some(dir::now());
                // After a failed write the log may hold fewer lines than were played: the last
                // checkpoint stays the truth.
                if *status != Status::Failed {
                    self.checkpoint(state);
                }
            }
            _ => return Ok(()),
        }
        self.manifest.write(&self.dir).map_err(sink_err)
    }
}

/// The lines people read on stderr while a series runs: skipped bots, the start line, and how
/// to resume after an interruption.
pub struct Console {
    slot: BarSlot,
    bots: PathBuf,
    dir: PathBuf,
}

impl Console {
    pub fn new(slot: BarSlot, bots: PathBuf, dir: PathBuf) -> Console {
        Console { slot, bots, dir }
    }
}

impl Sink for Console {
    fn event(&mut self, event: &Event<'_>, _: &State) -> Result<(), SinkError> {
        let line = match event {
            Event::BotSkipped(s) => format!(
                "{}: skipped: {}",
                self.bots.join(&s.name).display(),
                s.reason
            ),
            Event::Started(start) => format!("take6: {}", start.line),
            Event::Interrupted => format!(
                "take6: interrupted; to play the remaining games: take6 run --resume {}",
                self.dir.display()
            ),
            _ => return Ok(()),
        };
        self.slot.above(|| eprintln!("{line}"));
        Ok(())
    }
}

/// What the summary says under the table.
pub enum Footer {
    /// After a series: games played of planned, status, seed and folder.
    Series { seed: u64, dir: PathBuf },
    /// After `take6 leaderboard`: the games and where the CSV went.
    Rebuilt { csv: PathBuf },
}

/// The end-of-series summary: the standings table, skipped bots and a footer, on stdout.
pub struct Summary {
    out: Box<dyn Write + Send>,
    skipped: Vec<(String, String)>,
    footer: Footer,
    interrupted: bool,
}

impl Summary {
    pub fn new(
        out: Box<dyn Write + Send>,
        skipped: Vec<(String, String)>,
        footer: Footer,
    ) -> Summary {
        Summary {
            out,
            skipped,
            footer,
            interrupted: false,
        }
    }
}

impl Sink for Summary {
    fn event(&mut self, event: &Event<'_>, state: &State) -> Result<(), SinkError> {
        match event {
            Event::Interrupted => self.interrupted = true,
            Event::Finished(status) if *status != Status::Failed => {
                let mut text = record::summary_table(&state.tally.standings(), &self.skipped);
                match &self.footer {
                    Footer::Series { seed, dir } => text.push_str(&format!(
                        "\n{} of {} games played{} (seed {seed}); results in {}\n",
                        state.lines,
                        state.planned,
                        if self.interrupted {
                            " (interrupted)"
                        } else {
                            ""
                        },
                        dir.display()
                    )),
                    Footer::Rebuilt { csv } => text.push_str(&format!(
                        "\n{} games; leaderboard written to {}\n",
                        state.lines,
                        csv.display()
                    )),
                }
                // stdout closed (e.g. a pipe to `head`) is not a reason to fail the series.
                let _ = self.out.write_all(text.as_bytes());
                let _ = self.out.flush();
            }
            _ => {}
        }
        Ok(())
    }
}
