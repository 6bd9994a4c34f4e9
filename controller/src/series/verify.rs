//! Verification of a series' results, as a sink fed by the replay of `games.jsonl`: every
//! line's chain, every game through the independent rules checker, each game's seed and deal
//! against the series' seed, no game twice, and the counts and chain head `series.toml`
//! recorded.

use std::sync::{Arc, Mutex};

use super::Status;
use super::manifest::Manifest;
use super::reporter::{Event, GameSet, Origin, Sink, SinkError, State};
use crate::games::JudgePermit;
use crate::record::jsonl::{Link, Torn};
use crate::record::{Chain, GameRecord};
use crate::schedule::Schedule;
use crate::shard::Shard;

/// Problems kept in a report; more are only counted.
const KEEP: usize = 20;

/// One thing wrong with a series' results.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Problem {
    /// The 1-based line of `games.jsonl` it is on, when it is on one.
    pub line: Option<u64>,
    pub what: String,
    /// A half-written last line, which resume drops rather than refuses.
    pub torn: bool,
    /// A line that is not a game record at all (reading stopped there).
    pub unreadable: bool,
}

impl std::fmt::Display for Problem {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self.line {
            Some(line) => write!(f, "games.jsonl line {line}: {}", self.what),
            None => f.write_str(&self.what),
        }
    }
}

/// The outcome of a verification.
#[derive(Debug, Clone, Default)]
pub struct Verification {
    /// Game records read.
    pub games: u64,
    /// The first problems found, in file order (line problems first).
    pub problems: Vec<Problem>,
    /// Problems beyond those kept.
    pub more: u64,
    /// Whether the games' seating was checked against the schedule (not for `take6 play`).
    pub seating: bool,
    /// What the games' checks took as recorded rather than re-derived (not a problem).
    pub unchecked: Vec<String>,
    /// Games whose judge was not run again for want of `--game` (said once).
    pub judge_not_run: u64,
}

impl Verification {
    pub fn ok(&self) -> bool {
        self.problems.is_empty()
    }

    /// The first problem on a line, else the first problem.
    pub fn first(&self) -> Option<&Problem> {
        self.problems
            .iter()
            .find(|p| p.line.is_some())
            .or(self.problems.first())
    }

    pub(crate) fn push(&mut self, line: Option<u64>, what: String) {
        if what.contains(crate::games::JUDGE_NOT_RUN) {
            // One cause, one fix: said once, for every game, when the verification ends.
            self.judge_not_run += 1;
            if self.judge_not_run > 1 {
                return;
            }
            let why = what
                .split_once(crate::games::JUDGE_NOT_RUN)
                .map_or("", |(_, w)| w);
            self.problems.push(Problem {
                line: None,
                what: format!("{}{why}", crate::games::JUDGE_NOT_RUN),
                torn: false,
                unreadable: false,
            });
            return;
        }
        if self.problems.len() < KEEP {
            self.problems.push(Problem {
                line,
                what,
                torn: false,
                unreadable: false,
            });
        } else {
            self.more += 1;
        }
    }

    /// Notes a line that is not a game record; reading stopped there.
    pub fn push_unreadable(&mut self, what: String) {
        self.problems.push(Problem {
            line: None,
            what,
            torn: false,
            unreadable: true,
        });
    }

    /// Notes a torn last line (resume drops it and plays its game again).
    pub fn torn(&mut self, torn: Torn) {
        self.problems.push(Problem {
            line: Some(torn.line),
            what: format!(
                "half-written last line ({} bytes, a torn write); `take6 run --resume` drops it \
                 and plays its game again",
                torn.bytes
            ),
            torn: true,
            unreadable: false,
        });
    }
}

/// A shared handle on the report a [`Verify`] sink fills.
pub type Report = Arc<Mutex<Verification>>;

/// The verification sink.
pub struct Verify {
    manifest: Option<Manifest>,
    schedule: Option<Schedule>,
    seen: GameSet,
    report: Report,
    /// The chain head after each record so far, to compare with the manifest's checkpoint.
    chain: Chain,
    checkpoint_ok: Option<bool>,
    /// Per game read: its line and a digest of who sat where (players, subset, rotation),
    /// compared with the schedule's plan at the end (records come in finishing order, the
    /// plans in game order).
    seating: std::collections::HashMap<u64, (u64, u64)>,
    /// The games whose checkers checked records, each once.
    checkers: Vec<crate::game::GameRef>,
    /// Which game folder's judge the checkers may run.
    permit: JudgePermit,
}

impl Verify {
    /// A verifier for the series `series` with its manifest, if it has one, whose checkers
    /// run a game folder's judge only as `permit` allows.
    pub fn new(series: &str, manifest: Option<Manifest>, permit: JudgePermit) -> (Verify, Report) {
        let report = Report::default();
        let schedule = manifest.as_ref().and_then(|m| m.schedule(&permit));
        let verify = Verify {
            manifest,
            schedule,
            seen: GameSet::default(),
            report: Arc::clone(&report),
            chain: Chain::start(series),
            checkpoint_ok: None,
            seating: Default::default(),
            checkers: Vec::new(),
            permit,
        };
        (verify, report)
    }

    /// What is wrong with one record (on line `line`) beyond its chain, if anything.
    fn check(&mut self, record: &GameRecord, line: u64) -> Option<String> {
        let g = record.game;
        if !self.seen.insert(g) {
            return Some(format!("game {g} is recorded twice"));
        }
        self.seating.insert(
            g,
            (
                line,
                seating_digest(&record.players, record.subset, record.rotation),
            ),
        );
        // The record names its game: the series' game, which verify resolved from its
        // settings, and else the game of that name this take6 knows.
        let manifest_game = self.manifest.as_ref().map(|m| m.game(&self.permit));
        let rules = match &manifest_game {
            Some(Ok(game)) if game.name() == record.rules.as_str() => game.clone(),
            _ => match record.game_ref() {
                Ok(game) => game,
                Err(e) => return Some(format!("game {g}: {e}")),
            },
        };
        if let Some(e) = self.check_rules(record, &rules) {
            return Some(e);
        }
        let manifest = self.manifest.as_ref()?;
        match manifest_game {
            Some(Ok(game)) if game != rules => {
                return Some(format!(
                    "game {g} is a game of {}, but the series plays {game}",
                    record.rules,
                ));
            }
            Some(Err(e)) => return Some(e.to_string()),
            _ => {}
        }
        if g >= manifest.games_planned {
            return Some(format!(
                "game {g} is not one of the series' {} games",
                manifest.games_planned
            ));
        }
        let shard = manifest.shard().unwrap_or(Shard::WHOLE);
        if !shard.holds(g) {
            return Some(format!(
                "game {g} is shard {}'s, not this folder's (shard {shard})",
                Shard::of_game(g, shard.count)
            ));
        }
        let schedule = self.schedule.as_ref()?;
        let table = if schedule.duplicate() {
            g / schedule.players() as u64
        } else {
            g
        };
        if record.seed != schedule.game_seed(table) {
            return Some(format!(
                "game {g} has seed {}, not the one the series' seed gives it",
                record.seed
            ));
        }
        // Cards dealt from the seed are the game's to check (a game whose checker drew them
        // from the seed above has nothing more to check).
        if let Err(e) = rules.check_deal(record) {
            return Some(format!("game {g} {e}"));
        }
        None
    }

    /// What is wrong with one record by its game's rules: a summary only a series of
    /// built-ins may record, or turns its game's checker refuses.
    fn check_rules(&mut self, record: &GameRecord, rules: &crate::game::GameRef) -> Option<String> {
        let g = record.game;
        if record.is_summary() {
            if !self.manifest.as_ref().is_some_and(Manifest::builtins_only) {
                return Some(format!(
                    "game {g} is a summary without its turns, which only a series of built-ins \
                     may record"
                ));
            }
            if let Err(e) = rules.check_summary(record) {
                return Some(format!("game {g}: {e}"));
            }
        } else {
            if !self.checkers.contains(rules) {
                self.checkers.push(rules.clone());
            }
            if let Err(e) = rules.check(record, &self.permit) {
                return Some(format!("game {g} breaks the rules: {e}"));
            }
        }
        None
    }

    /// Where a game folder's judge runs again over every game (seconds a game, where the
    /// rest of verify takes microseconds): after each tenth of the games, how many are
    /// verified, on stderr.
    fn progress(&self, done: u64) {
        let Some(total) = self.manifest.as_ref().map(|m| m.games_played) else {
            return;
        };
        if !self.permit.runs_a_judge() || total < 2 {
            return;
        }
        let step = total.div_ceil(10);
        if done.is_multiple_of(step) || done == total {
            eprintln!(
                "take6: verify: {done} of {total} games checked, the judge run again over each"
            );
        }
    }

    /// Whether every game read sits who the series' schedule seats at it, in its seats, with
    /// its subset and rotation: a record re-chained after its players were swapped or renamed
    /// is caught here. Not checked for `take6 play` (the person's table is chosen, not
    /// scheduled) nor where the recorded built-ins are not the schedule's.
    fn check_seating(&self, report: &mut Verification) {
        let (Some(manifest), Some(schedule)) = (&self.manifest, &self.schedule) else {
            return;
        };
        let bots: Vec<String> = manifest.bots.iter().map(|b| b.name.clone()).collect();
        let padding: Vec<String> = schedule.builtins().iter().map(|e| e.name(&bots)).collect();
        if manifest.human().is_some() || padding != manifest.builtins {
            return;
        }
        report.seating = true;
        let mut left = self.seating.len();
        for plan in schedule.plans() {
            if left == 0 {
                break;
            }
            let Some(&(line, digest)) = self.seating.get(&plan.game) else {
                continue;
            };
            left -= 1;
            let names: Vec<String> = plan.seats.iter().map(|e| e.name(&bots)).collect();
            if seating_digest(&names, plan.subset, plan.rotation) != digest {
                report.push(
                    Some(line),
                    format!(
                        "game {} is not seated as the series' schedule seats it: {} (subset {}, \
                         rotation {})",
                        plan.game,
                        names.join(", "),
                        plan.subset,
                        plan.rotation
                    ),
                );
            }
        }
    }

    fn finish(&mut self, state: &State) {
        let mut report = self.report.lock().expect("not poisoned");
        self.check_seating(&mut report);
        report.games = state.lines;
        report.unchecked = self
            .checkers
            .iter()
            .filter_map(|g| g.code().and_then(|c| c.unchecked()))
            .collect();
        name_judge_not_run(&mut report);
        let Some(m) = &self.manifest else {
            report.push(
                None,
                "no series.toml: the counts, seeds and chain head cannot be checked".into(),
            );
            return;
        };
        check_counts(m, state, &mut report, self.checkpoint_ok);
        let shard = m.shard().unwrap_or(Shard::WHOLE);
        // Under --until-separated a series is complete once the top are separated: the games
        // not started after that point are not missing.
        if m.status == Status::Complete && m.separated_after.is_none() {
            if state.lines != m.games_played {
                report.push(
                    None,
                    format!(
                        "the series is complete with {} games but games.jsonl has {}",
                        m.games_played, state.lines
                    ),
                );
            }
            if let Some(g) =
                (0..m.games_planned).find(|&g| shard.holds(g) && !self.seen.contains(g))
            {
                report.push(
                    None,
                    format!("the series is complete but game {g} is not in games.jsonl"),
                );
            }
        }
    }
}

/// Names how many games the judge did not run for in the first problem that says so.
fn name_judge_not_run(report: &mut Verification) {
    let not_run = report.judge_not_run;
    if let Some(p) =
        (report.problems.iter_mut()).find(|p| p.what.starts_with(crate::games::JUDGE_NOT_RUN))
    {
        p.what = p.what.replacen(
            crate::games::JUDGE_NOT_RUN,
            &format!(
                "{} for {}",
                crate::games::JUDGE_NOT_RUN,
                if not_run == 1 {
                    "its game".to_string()
                } else {
                    format!("any of its {not_run} games")
                }
            ),
            1,
        );
    }
}

/// What the manifest's counts, chain head and separation point say against the records
/// read (`checkpoint_ok`: whether the chain matched the manifest's checkpoint).
fn check_counts(
    m: &Manifest,
    state: &State,
    report: &mut Verification,
    checkpoint_ok: Option<bool>,
) {
    if state.lines < m.games_played {
        report.push(
            None,
            format!(
                "series.toml records {} games but games.jsonl has {}: games were removed",
                m.games_played, state.lines
            ),
        );
    } else if m.games_played == 0 && m.chain != Chain::start(&m.series).head() {
        report.push(
            None,
            "series.toml's chain head is not the chain's start".into(),
        );
    } else if checkpoint_ok == Some(false) {
        report.push(
            Some(m.games_played),
            format!(
                "the chain after game record {} is not the head series.toml recorded",
                m.games_played
            ),
        );
    }
    // A series separated by its very last game left nothing unplayed for it.
    let at_the_end = m.separated_after.is_none() && state.separated_after == Some(state.lines);
    if m.separated_after != state.separated_after && !at_the_end {
        report.push(
            None,
            match (m.separated_after, state.separated_after) {
                (Some(said), Some(is)) => format!(
                    "series.toml says the top ranks were first separated after {said} games, \
                     but replaying games.jsonl separates them after {is}"
                ),
                (Some(said), None) => format!(
                    "series.toml says the top ranks were separated after {said} games, but \
                     replaying games.jsonl never separates them"
                ),
                (None, Some(is)) => format!(
                    "replaying games.jsonl separates the top ranks after {is} games \
                     (--until-separated), but series.toml records no such stop"
                ),
                (None, None) => unreachable!("they differ"),
            },
        );
    }
}

/// A digest of who sat where in a game: its players in seat order, subset and rotation.
fn seating_digest(players: &[String], subset: u64, rotation: usize) -> u64 {
    use std::hash::{Hash, Hasher};
    let mut hasher = std::hash::DefaultHasher::new();
    (players, subset, rotation).hash(&mut hasher);
    hasher.finish()
}

impl Sink for Verify {
    fn event(&mut self, event: &Event<'_>, state: &State) -> Result<(), SinkError> {
        match event {
            Event::GameFinished(record, Origin::Replayed { line, link, head }) => {
                let chain = match link {
                    Link::Broken => Some(
                        "the SHA-256 chain breaks here: this line, or one just before it, was \
                         edited, inserted or deleted"
                            .to_string(),
                    ),
                    Link::Missing => Some("the line has no chain field".to_string()),
                    Link::Intact => None,
                };
                let rules = self.check(record, *line);
                self.progress(state.lines);
                let mut report = self.report.lock().expect("not poisoned");
                for what in chain.into_iter().chain(rules) {
                    report.push(Some(*line), what);
                }
                drop(report);
                self.chain = (*head).clone();
                if self
                    .manifest
                    .as_ref()
                    .is_some_and(|m| m.games_played == state.lines)
                {
                    self.checkpoint_ok = Some(
                        self.manifest.as_ref().map(|m| m.chain.as_str()) == Some(self.chain.head()),
                    );
                }
            }
            Event::Finished(_) => self.finish(state),
            _ => {}
        }
        Ok(())
    }
}

/// A sink that keeps each record read back from `games.jsonl` (as a summary), with its line:
/// what a league's or a compare's verify checks its choices against.
pub struct Lines(pub Arc<Mutex<Vec<(u64, GameRecord)>>>);

impl Sink for Lines {
    fn event(&mut self, event: &Event<'_>, _: &State) -> Result<(), SinkError> {
        if let Event::GameFinished(record, Origin::Replayed { line, .. }) = event {
            let summary = (*record).clone().summary();
            self.0.lock().expect("not poisoned").push((*line, summary));
        }
        Ok(())
    }
}
