//! `take6 compare NEW OLD`: is NEW better than OLD? Paired games ([`crate::schedule::paired`])
//! played by the series' machinery, and a sequential test on the pairs ([`sprt`]) that ends with
//! a verdict at error rates fixed in advance. [`reading`] is the test's state as a pure function
//! of the records, shared by the run that plays and `take6 verify`, which re-derives it.

pub mod copies;
pub mod manifest;
pub mod report;
pub mod resume;
pub mod run;
pub mod sprt;
pub mod verify;

use serde::{Deserialize, Serialize};

use crate::record::{Direction, GameRecord, Model};
use crate::schedule::paired::{self, Role};
use crate::seed::Seed;
use crate::table::BuiltinKind;
use sprt::{Bounds, Hypotheses, Samples, Verdict};

/// What fixes a compare's games and its test, from its start on.
#[derive(Debug, Clone)]
pub struct Rules {
    pub seed: Seed,
    pub players: usize,
    pub new: String,
    pub old: String,
    /// The field's bots, by name (a pair's `Role::Field(i)` is the `i`th).
    pub field: Vec<String>,
    pub builtins: Vec<BuiltinKind>,
    pub direction: Direction,
    pub unit: Unit,
    /// The margin of H1, in `unit`.
    pub margin: f64,
    pub alpha: f64,
    pub beta: f64,
}

/// What a pair's sample and the margin are measured in.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Unit {
    /// The game's own score per game (cows, points): the paired difference.
    Points,
    /// Elo, from NEW's score against OLD (1 above, ½ level, 0 below): the pentanomial.
    Elo,
}

impl Unit {
    /// The unit of a game fitted by `model`.
    pub fn of(model: Model) -> Unit {
        match model {
            Model::Points => Unit::Points,
            Model::Ranks => Unit::Elo,
        }
    }

    /// The margin when none is given: 1 point per game, or 20 Elo.
    pub fn default_margin(self) -> f64 {
        match self {
            Unit::Points => 1.0,
            Unit::Elo => 20.0,
        }
    }

    pub fn word(self) -> &'static str {
        match self {
            Unit::Points => "points per game",
            Unit::Elo => "Elo",
        }
    }
}

impl Rules {
    pub fn hypotheses(&self) -> Hypotheses {
        match self.unit {
            Unit::Points => Hypotheses::points(self.margin),
            Unit::Elo => Hypotheses::elo(self.margin),
        }
    }

    pub fn bounds(&self) -> Bounds {
        Bounds::new(self.alpha, self.beta)
    }

    /// The players of game `game`, by record name, and its seed.
    pub fn game(&self, game: u64) -> (u64, Vec<String>) {
        let p = self.pair(paired::Pair::of_game(game));
        let (_, seats) = p.game(game % 2);
        let names = seats
            .iter()
            .map(|r| match r {
                Role::New => self.new.clone(),
                Role::Old => self.old.clone(),
                Role::Field(i) => self.field[*i].clone(),
                Role::Builtin(kind, n) => format!("{}#{n}", kind.name),
            })
            .collect();
        (p.seed, names)
    }

    pub fn pair(&self, k: u64) -> paired::Pair {
        paired::pair(self.seed, k, self.players, self.field.len(), &self.builtins)
    }

    /// NEW's result against OLD in one game, turned so that more is better: the difference
    /// of their scores, or 1, ½ or 0; `None` for a void game or one without both.
    fn sample(&self, r: &GameRecord) -> Option<f64> {
        if !r.scored() {
            return None;
        }
        let totals = r.total_scores();
        let at = |name: &str| r.players.iter().position(|p| p == name);
        let (new, old) = (totals.get(at(&self.new)?)?, totals.get(at(&self.old)?)?);
        Some(match self.unit {
            Unit::Points => {
                let d = f64::from(*new) - f64::from(*old);
                if self.direction == Direction::Lower {
                    -d
                } else {
                    d
                }
            }
            Unit::Elo if self.direction.better(*new, *old) => 1.0,
            Unit::Elo if self.direction.better(*old, *new) => 0.0,
            Unit::Elo => 0.5,
        })
    }
}

/// Where the test stands after the complete pairs from pair 0 on.
#[derive(Debug, Clone, PartialEq)]
pub struct Reading {
    /// Pairs counted (both games played, in pair order, up to the verdict's pair).
    pub pairs: u64,
    /// Pairs with a void game: played, not counted.
    pub void_pairs: u64,
    pub samples: Samples,
    pub llr: f64,
    pub verdict: Verdict,
    /// The ratio after each counted pair.
    pub path: Vec<f64>,
    /// Each pair's sample, for the pentanomial of a game that only ranks.
    pub scores: Vec<f64>,
}

impl Reading {
    /// The estimated difference and its 95 % interval, in the rules' unit.
    pub fn estimate(&self, rules: &Rules) -> (f64, f64, f64) {
        let (m, lo, hi) = sprt::estimate(&self.samples);
        match rules.unit {
            Unit::Points => (m, lo, hi),
            Unit::Elo => {
                let elo = |s: f64| sprt::elo_of_score(s.clamp(0.0, 1.0));
                (elo(m), elo(lo), elo(hi))
            }
        }
    }
}

/// The test kept as records arrive, in any order: it counts the complete pairs from pair 0 on,
/// in order, until a verdict (pairs after it are played but not counted) or the first pair
/// not yet complete.
#[derive(Debug, Clone)]
pub struct Tracker {
    rules: Rules,
    /// Each game's sample (`None`: void, or without NEW and OLD) until its pair is counted.
    games: std::collections::BTreeMap<u64, Option<f64>>,
    next: u64,
    reading: Reading,
}

impl Tracker {
    pub fn new(rules: Rules) -> Tracker {
        Tracker {
            rules,
            games: Default::default(),
            next: 0,
            reading: Reading {
                pairs: 0,
                void_pairs: 0,
                samples: Samples::default(),
                llr: 0.0,
                verdict: Verdict::Undecided,
                path: Vec::new(),
                scores: Vec::new(),
            },
        }
    }

    pub fn rules(&self) -> &Rules {
        &self.rules
    }

    pub fn reading(&self) -> &Reading {
        &self.reading
    }

    /// Adds one game's record and counts every pair it completes.
    pub fn add(&mut self, record: &GameRecord) {
        if record.game >= 2 * self.next {
            self.games.insert(record.game, self.rules.sample(record));
        }
        let (h, bounds) = (self.rules.hypotheses(), self.rules.bounds());
        while self.reading.verdict == Verdict::Undecided {
            let (a, b) = (2 * self.next, 2 * self.next + 1);
            let (Some(x), Some(y)) = (self.games.get(&a).copied(), self.games.get(&b).copied())
            else {
                break;
            };
            self.games.remove(&a);
            self.games.remove(&b);
            self.next += 1;
            let r = &mut self.reading;
            let (Some(x), Some(y)) = (x, y) else {
                r.void_pairs += 1;
                continue;
            };
            let s = (x + y) / 2.0;
            r.samples.push(s);
            r.scores.push(s);
            r.pairs += 1;
            r.llr = sprt::llr(&r.samples, h);
            r.path.push(r.llr);
            r.verdict = sprt::decide(r.llr, r.pairs, bounds);
        }
    }
}

/// The test read from `records`, in any order (see [`Tracker`]).
pub fn reading(rules: &Rules, records: &[GameRecord]) -> Reading {
    let mut t = Tracker::new(rules.clone());
    for r in records {
        t.add(r);
    }
    t.reading
}
