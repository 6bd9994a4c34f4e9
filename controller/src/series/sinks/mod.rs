//! The outputs of a series, one sink each. The reporter hands them events in the order they
//! are listed by [`crate::series`]; `games.jsonl` comes before `series.toml` so a checkpoint
//! recorded in the manifest is always on disk in the log.

pub mod bot_logs;
pub mod games;
pub mod progress;
pub mod reply_times;
pub mod report;
mod unseparated;

use std::io::Write;
use std::path::{Path, PathBuf};

use super::dir::{self, LEADERBOARD};
use super::manifest::Manifest;
use super::reporter::{Event, Sink, SinkError, State};
use super::{SeriesError, Status};
use crate::record::{self, GameRecord, Standing};
use crate::untrusted;
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

/// The file name of the pairwise comparisons in a series folder.
pub const HEADTOHEAD: &str = "headtohead.csv";

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
                write_leaderboard(&self.dir, &state.standings()).map_err(sink_err)?;
                dir::replace_file(
                    &self.dir.join(HEADTOHEAD),
                    &record::headtohead_csv(&state.tally.head_to_head()),
                    false,
                )
                .map_err(sink_err)
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
        self.manifest.separated_after = state.separated_after;
    }
}

impl Sink for ManifestFile {
    fn event(&mut self, event: &Event<'_>, state: &State) -> Result<(), SinkError> {
        match event {
            Event::Started(_) => {
                self.manifest.status = Status::Running;
                self.manifest.finished = None;
                // games_planned stays the whole series' count (a shard's share is derived
                // from it), as the schedule made it.
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

/// The lines people read on stderr while a series runs: skipped bots, the start line, each
/// bot's first fault with its log, and how to resume after an interruption.
pub struct Console {
    slot: BarSlot,
    bots: crate::bots::Place,
    dir: PathBuf,
    /// The bots whose first fault was said (or recorded before a resume): one line per bot
    /// per series, so a bot that faults in every game does not flood the terminal.
    faulted: std::collections::HashSet<String>,
    /// The person at the keyboard (`take6 play`), whose leaving needs no log line.
    person: Option<String>,
    /// What to run to go on after an interruption, if not `take6 run --resume DIR`.
    go_on: Option<String>,
}

impl Console {
    pub fn new(slot: BarSlot, bots: crate::bots::Place, dir: PathBuf) -> Console {
        Console {
            slot,
            bots,
            dir,
            faulted: Default::default(),
            person: None,
            go_on: None,
        }
    }

    /// The command that goes on after an interruption, when it is not `take6 run --resume`
    /// (a league's own).
    pub fn go_on(mut self, command: String) -> Console {
        self.go_on = Some(command);
        self
    }

    /// Names the person at the keyboard, if any: their faults (leaving) are not said.
    pub fn person(mut self, person: Option<String>) -> Console {
        self.person = person;
        self
    }

    /// The line for the first fault of each bot in `record` not yet said: the game, the kind
    /// and reason, and the log holding its stderr. Games read back (`origin` not `Played`)
    /// only mark their bots as said, their faults were said by the run that played them.
    fn first_faults(&mut self, record: &record::GameRecord, played: bool) -> Vec<String> {
        let mut lines = Vec::new();
        for (round, f) in record.faults() {
            let Some(name) = record.players.get(f.seat) else {
                continue;
            };
            if record.builtin.get(f.seat).copied().unwrap_or(true)
                || f.kind == crate::player::ABSENT
                || self.person.as_ref() == Some(name)
                || !self.faulted.insert(name.clone())
            {
                continue;
            }
            if played {
                let round = match record.round_count() {
                    1 => String::new(),
                    _ => format!(", round {}", round + 1),
                };
                lines.push(format!(
                    "take6: {} faulted in game {}{round}, turn {} ({}: {}); see {} (its \
                     faults and stderr; later faults are only counted)",
                    untrusted::terminal(name),
                    record.game,
                    f.turn,
                    untrusted::terminal(&f.kind),
                    untrusted::terminal(&f.reason),
                    untrusted::terminal(
                        &self
                            .dir
                            .join("logs")
                            .join(format!("{name}.games.log"))
                            .display()
                            .to_string()
                    )
                ));
            }
        }
        lines
    }
}

impl Sink for Console {
    fn event(&mut self, event: &Event<'_>, _: &State) -> Result<(), SinkError> {
        let line = match event {
            Event::GameFinished(record, origin) => {
                let played = matches!(origin, super::reporter::Origin::Played { .. });
                let lines = self.first_faults(record, played);
                if !lines.is_empty() {
                    self.slot.above(|| {
                        for line in &lines {
                            eprintln!("{line}");
                        }
                    });
                }
                return Ok(());
            }
            Event::BotSkipped(s) => s.line(&self.bots),
            Event::Started(start) => format!("take6: {}", start.line),
            Event::Interrupted => match &self.go_on {
                Some(command) => format!("take6: interrupted; to go on: {command}"),
                None => format!(
                    "take6: interrupted; to play the remaining games: take6 run --resume {}",
                    self.dir.display()
                ),
            },
            _ => return Ok(()),
        };
        self.slot.above(|| eprintln!("{line}"));
        Ok(())
    }
}

/// Under the table, for bots that faulted: where each one's faults and stderr are
/// (`logs/<bot>.games.log`), so that the fault column leads somewhere. Not the person at the
/// keyboard (`take6 play`): leaving (Ctrl-D) is recorded, but it is no bot's fault to look up.
fn fault_logs(standings: &[Standing], dir: &Path, person: Option<&str>) -> String {
    let faulted: Vec<&Standing> = standings
        .iter()
        .filter(|s| !s.builtin && s.faults > 0 && Some(s.bot.as_str()) != person)
        .collect();
    if faulted.is_empty() {
        return String::new();
    }
    let mut text = String::from("\nFaults, with each game's stderr:");
    for s in faulted {
        text.push_str(&format!(
            "\n  {}: {} in {}",
            untrusted::terminal(&s.bot),
            crate::names::count(s.faults, "fault"),
            untrusted::terminal(
                &dir.join("logs")
                    .join(format!("{}.games.log", s.bot))
                    .display()
                    .to_string()
            )
        ));
    }
    text.push('\n');
    text
}

/// Why a series under `--until-separated` played fewer games than planned: the top `top`
/// were separated after `after` games; `lines` were recorded in all (the games under way then
/// were finished), and whether the top are still separated with them.
fn early_stop(top: usize, after: u64, lines: u64, still: bool) -> String {
    let late = lines - after;
    match (late, still) {
        (0, _) | (_, true) => format!(
            " (stopped early: the top {top} were separated at 95 % after {})",
            crate::names::count(after, "game")
        ),
        (_, false) => format!(
            " (stopped early: the top {top} were separated at 95 % after {}; the {} under way \
             then, recorded too, narrowed a gap below 95 % again)",
            crate::names::count(after, "game"),
            crate::names::count(late, "game"),
        ),
    }
}

/// The bots that sat out games, benched after faulting in game after game: how many games,
/// and that those seats were played as faults.
fn benched(standings: &[record::Standing]) -> String {
    let mut text = String::new();
    for s in standings {
        if let Some(&n) = s.fault_kinds.get(crate::player::BENCHED) {
            text.push_str(&format!(
                "\n{} sat out {}: benched after faulting in game after game (--bench-after), its \
                 seats were played by a stand-in and scored as its faults (the reason, with the \
                 first fault, is in games.jsonl and report.html)",
                untrusted::terminal(&s.bot),
                crate::names::count(n, "game"),
            ));
        }
    }
    text
}

/// What the summary says under the table.
pub enum Footer {
    /// After a series: games played of planned, status, seed and folder.
    Series {
        seed: crate::seed::Seed,
        dir: PathBuf,
    },
    /// After `take6 leaderboard`: the games and where the CSV went.
    Rebuilt { csv: PathBuf },
}

/// The end-of-series summary: the standings table, skipped bots and a footer, on stdout.
pub struct Summary {
    out: Box<dyn Write + Send>,
    skipped: Vec<(String, String)>,
    footer: Footer,
    interrupted: bool,
    /// `--until-separated`'s `--top`, to say why a series stopped early.
    until_top: Option<usize>,
    /// The person at the keyboard (`take6 play`), if any.
    person: Option<String>,
    /// What the series' game calls its built-in players (from its records).
    builtin: &'static str,
}

/// What the game of `record` calls its built-in players: Take 6's "built-in", a Botzone game
/// folder's "padding bot".
pub(crate) fn builtin_label(record: &GameRecord) -> &'static str {
    record.game_ref().map_or("built-in", |g| g.builtin_label())
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
            until_top: None,
            person: None,
            builtin: "built-in",
        }
    }

    /// Names the person at the keyboard, if any: their leaving is not listed among the faults.
    pub fn person(mut self, person: Option<String>) -> Summary {
        self.person = person;
        self
    }

    /// Says, when the series ended before its budget, that the top `top` were separated.
    pub fn until_separated(mut self, top: Option<usize>) -> Summary {
        self.until_top = top;
        self
    }
}

impl Sink for Summary {
    fn event(&mut self, event: &Event<'_>, state: &State) -> Result<(), SinkError> {
        match event {
            Event::Interrupted => self.interrupted = true,
            Event::GameFinished(record, _) => self.builtin = builtin_label(record),
            Event::Finished(status) if *status != Status::Failed => {
                let standings = state.standings();
                let mut text = record::summary_table(&standings, &self.skipped, self.builtin);
                let early = match (self.until_top, state.separated_after) {
                    (Some(top), Some(after))
                        if !self.interrupted && state.lines < state.planned =>
                    {
                        early_stop(
                            top,
                            after,
                            state.lines,
                            record::top_separated(&standings, top),
                        )
                    }
                    _ => String::new(),
                };
                if let Some(top) = self.until_top.filter(|_| !self.interrupted)
                    && state.lines >= state.planned
                    && let Some(note) =
                        unseparated::note(&state.tally, &standings, top, state.lines)
                {
                    text.push_str(&note);
                }
                // A game whose rules failed (a judge program) is recorded, not scored.
                let void = match state.tally.void_games() {
                    0 => String::new(),
                    n => format!(
                        "\n{} void (the game's rules failed; recorded in games.jsonl with why, \
                         not scored)",
                        crate::names::count(n, "game"),
                    ),
                };
                text.push_str(&void);
                text.push_str(&benched(&standings));
                match &self.footer {
                    Footer::Series { seed, dir } => text.push_str(&format!(
                        "{}{}",
                        fault_logs(&standings, dir, self.person.as_deref()),
                        format_args!(
                            "\n{} of {} played{}{early} (seed {seed}); results in {}\n",
                            state.lines,
                            crate::names::count(state.planned, "game"),
                            if self.interrupted {
                                " (interrupted)"
                            } else {
                                ""
                            },
                            dir.display()
                        )
                    )),
                    Footer::Rebuilt { csv } => text.push_str(&format!(
                        "\n{}; leaderboard written to {} (and report.html beside it)\n",
                        crate::names::count(state.lines, "game"),
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
