//! What the report needs from the games, gathered one record at a time in bounded memory:
//! score counts per player, head-to-head results, each player's best and worst game, and a
//! sample of games for the viewer. Like the tally, the result does not depend on the order
//! games are added in.

use std::collections::BTreeMap;
use std::sync::Arc;

use serde::Serialize;

use crate::game::GameRef;
use crate::player::ABSENT;
use crate::record::interner::{Interner, PairMap, pair_key};
use crate::record::{Direction, Score};
use crate::record::{FaultPhase, GameRecord};

/// How many games the viewer embeds besides each player's best and worst game: the ones with
/// the lowest numbers. Keeps the page small (a game is about 2 KB) for series of any size.
pub const VIEWER_SAMPLE: usize = 200;

/// The most of the games' own data the page holds (a page of tens of MiB opens slowly, and
/// one of hundreds not at all), and the most one game may bring: a game over it is left out
/// (`take6 replay` shows it), the rest are kept in number order while they fit.
pub const VIEWER_BYTES: usize = 16 << 20;
pub const VIEWER_GAME_BYTES: usize = 1 << 20;

/// A game as the viewer needs it: who sat where, the scores and faults, and the play itself
/// in the form of the game's viewer.
#[derive(Debug, Clone, PartialEq)]
pub struct ViewerGame {
    pub n: u64,
    pub seed: u64,
    pub players: Vec<String>,
    pub builtin: Vec<bool>,
    pub scores: Vec<Score>,
    /// `[seat, turn, phase (as its game names it), kind, reason]`.
    pub faults: Vec<(usize, u8, String, String, String)>,
    /// The game's own fields ([`crate::game::Game::viewer_data`]), side by side with the
    /// common ones in the page's JSON. Kept as JSON text: a kept game is a few kilobytes so,
    /// where a `serde_json::Value` of it is ten times that.
    pub play: String,
}

impl Serialize for ViewerGame {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        use serde::ser::{Error, SerializeMap};
        let play: serde_json::Map<String, serde_json::Value> =
            serde_json::from_str(&self.play).map_err(S::Error::custom)?;
        let mut map = s.serialize_map(Some(6 + play.len()))?;
        map.serialize_entry("n", &self.n)?;
        map.serialize_entry("seed", &self.seed)?;
        map.serialize_entry("players", &self.players)?;
        map.serialize_entry("builtin", &self.builtin)?;
        map.serialize_entry("scores", &self.scores)?;
        map.serialize_entry("faults", &self.faults)?;
        for (key, value) in &play {
            map.serialize_entry(key, value)?;
        }
        map.end()
    }
}

impl ViewerGame {
    fn of(r: &GameRecord, rules: &GameRef) -> ViewerGame {
        let play = rules.viewer_data(r).to_string();
        ViewerGame {
            n: r.game,
            seed: r.seed,
            players: r.players.clone(),
            builtin: r.builtin.clone(),
            scores: r.first().scores.clone(),
            faults: (r.first().invalid.iter())
                .map(|f| {
                    (
                        f.seat,
                        f.turn,
                        f.phase.as_str().to_string(),
                        f.kind.clone(),
                        f.reason.clone(),
                    )
                })
                .collect(),
            play,
        }
    }
}

/// How many faults the report quotes per player: its first ones (by game, round and turn).
pub const FAULT_NOTES: usize = 3;

/// One fault as the report quotes it.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
pub struct FaultNote {
    /// The game's number, which the page links to.
    pub game: u64,
    /// 1-based; 1 in a game of one round.
    pub round: usize,
    /// The turn of the fault, where the link opens the viewer.
    pub turn: u8,
    /// What the player was asked for, as its game names it (`card`, `row`, `move`).
    pub phase: FaultPhase,
    /// The short kind (`timeout`, `illegal_pick`, …) and the reason for people.
    pub kind: String,
    pub reason: String,
}

/// A player's extreme game: its score there and the game's number (lowest number on ties).
#[derive(Debug, Clone)]
struct Extreme {
    /// The score as [`ReportStats::badness`]: lower is better whatever the game.
    score: u64,
    game: Arc<ViewerGame>,
}

/// Head-to-head between two players: games where both sat, and the first one's points (1 for
/// a better score, 1/2 for a tie) counted in halves so sums stay integers.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Meeting {
    pub games: u64,
    pub half_points: u64,
}

/// The report's view of a series, fed one game at a time.
#[derive(Debug, Clone, Default)]
pub struct ReportStats {
    games: u64,
    /// The game the records are of (the first record's, found by its name; a series plays
    /// one game). `None` before the first game.
    rules: Option<GameRef>,
    /// Players numbered as first seen: the per-game update compares no strings.
    names: Interner,
    /// By player number, how many games ended with each score.
    scores: Vec<ScoreCounts>,
    /// Keyed by player numbers, lower first; points are the lower number's.
    meetings: PairMap<Meeting>,
    /// The first game's players' numbers, sorted, to tell whether the line-up ever changed.
    first_lineup: Option<Vec<u32>>,
    /// The numbers of the seats of the game being added, and the same sorted (reused).
    seats: Vec<u32>,
    lineup: Vec<u32>,
    varied_lineups: bool,
    /// By player number.
    best: Vec<Extreme>,
    worst: Vec<Extreme>,
    /// The `VIEWER_SAMPLE` lowest-numbered games.
    sample: BTreeMap<u64, Arc<ViewerGame>>,
    /// By player number: its first [`FAULT_NOTES`] faults, in order.
    fault_notes: Vec<Vec<FaultNote>>,
    /// The numbers of players the games were played at (a handful of values).
    table_sizes: std::collections::BTreeSet<usize>,
    /// The players that speak Botzone's simple interaction, as their first game records it.
    simple_io: std::collections::BTreeSet<String>,
}

/// A score turned so that lower is better whatever the game: the best and worst games and
/// the head-to-head points compare these.
fn badness(direction: Direction, score: Score) -> u64 {
    match direction {
        Direction::Lower => score.key(),
        Direction::Higher => u64::MAX - score.key(),
    }
}

/// How many games ended with each score: a counter per score up to [`ScoreCounts::DIRECT`]
/// (a round scores at most a few hundred; this runs ten times per game) and a tree beyond.
#[derive(Debug, Clone, Default)]
struct ScoreCounts {
    direct: Vec<u64>,
    beyond: BTreeMap<Score, u64>,
}

impl ScoreCounts {
    const DIRECT: f64 = 1024.0;

    fn add(&mut self, score: Score) {
        if score.is_whole() && (0.0..Self::DIRECT).contains(&score.get()) {
            let i = score.get() as usize;
            if self.direct.len() <= i {
                self.direct.resize(i + 1, 0);
            }
            self.direct[i] += 1;
        } else {
            *self.beyond.entry(score).or_default() += 1;
        }
    }

    /// (score, games) for each score that happened, lowest first.
    fn iter(&self) -> impl Iterator<Item = (Score, u64)> + '_ {
        let direct = self.direct.iter().enumerate();
        let direct = direct.filter(|&(_, &n)| n > 0);
        let direct = direct.map(|(s, &n)| (Score::from(s as u32), n));
        let mut all: Vec<(Score, u64)> = direct.collect();
        all.extend(self.beyond.iter().map(|(&s, &n)| (s, n)));
        all.sort_unstable_by_key(|&(s, _)| s);
        all.into_iter()
    }
}

/// A player's score distribution, summarised for a box plot.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Distribution {
    pub min: Score,
    pub q1: Score,
    pub median: Score,
    pub q3: Score,
    pub max: Score,
    pub games: u64,
}

impl ReportStats {
    /// Whether `player` speaks Botzone's simple interaction (its `bot.toml` `simple_io`).
    pub fn speaks_simple(&self, player: &str) -> bool {
        self.simple_io.contains(player)
    }

    /// Adds one finished game.
    pub fn add(&mut self, r: &GameRecord) {
        if !r.scored() {
            return;
        }
        if self.games == 0 {
            // The records that reach the report are of its series' game, which the registry
            // holds (a game loaded from a folder, once its series' settings loaded it).
            self.rules = Some(r.game_ref().unwrap_or_default());
        }
        if !self.table_sizes.contains(&r.players.len()) {
            self.table_sizes.insert(r.players.len());
        }
        self.games += 1;
        // Out of `self` while the game is added (the view borrows it), put back at the end.
        let rules = self.rules.take().unwrap_or_default();
        let direction = rules.direction();
        // Hot at a hundred thousand games a second: names are cloned only the first time they
        // are seen, and the game's view is made only when a sink keeps it.
        let mut game: Option<Arc<ViewerGame>> = None;
        let mut view =
            || Arc::clone(game.get_or_insert_with(|| Arc::new(ViewerGame::of(r, &rules))));
        let mut ids = std::mem::take(&mut self.seats);
        ids.clear();
        ids.extend(r.players.iter().map(|name| self.names.id(name)));
        self.note_lineup(&ids);
        for (seat, &id) in ids.iter().enumerate() {
            let i = id as usize;
            self.scores
                .resize_with(self.scores.len().max(i + 1), Default::default);
            self.scores[i].add(r.first().scores[seat]);
            let score = badness(direction, r.first().scores[seat]);
            if i == self.best.len() {
                if crate::games::botzone::record::speaks_simple(r, seat) {
                    self.simple_io.insert(r.players[seat].clone());
                }
                self.fault_notes.push(Vec::new());
                let extreme = Extreme {
                    score,
                    game: view(),
                };
                self.best.push(extreme.clone());
                self.worst.push(extreme);
            }
            let best = &self.best[i];
            if (score, r.game) < (best.score, best.game.n) {
                self.best[i] = Extreme {
                    score,
                    game: view(),
                };
            }
            let worst = &self.worst[i];
            if (score, u64::MAX - r.game) > (worst.score, u64::MAX - worst.game.n) {
                self.worst[i] = Extreme {
                    score,
                    game: view(),
                };
            }
            self.meet(&ids, seat, score, direction, r);
        }
        self.keep_sample(r, &mut view);
        self.note_faults(r, &ids);
        self.seats = ids;
        self.rules = Some(rules);
    }

    /// Whether the games so far all had the same players (the same set of numbers: numbers
    /// stand for names one to one); once they vary, no more is checked.
    fn note_lineup(&mut self, ids: &[u32]) {
        if self.varied_lineups {
            return;
        }
        let mut lineup = std::mem::take(&mut self.lineup);
        lineup.clear();
        lineup.extend_from_slice(ids);
        lineup.sort_unstable();
        match &self.first_lineup {
            None => self.first_lineup = Some(lineup.clone()),
            Some(first) if *first != lineup => self.varied_lineups = true,
            Some(_) => {}
        }
        self.lineup = lineup;
    }

    /// The meetings of seat `seat` with each later seat of the game: who did better, in half
    /// points (2 a win, 1 a tie), by pair of players.
    fn meet(&mut self, ids: &[u32], seat: usize, score: u64, direction: Direction, r: &GameRecord) {
        for (other_seat, &other) in ids.iter().enumerate().skip(seat + 1) {
            let (key, flip) = pair_key(ids[seat], other);
            let other_score = badness(direction, r.first().scores[other_seat]);
            let (sa, sb) = if flip {
                (other_score, score)
            } else {
                (score, other_score)
            };
            let m = self.meetings.entry(key);
            m.games += 1;
            m.half_points += match sa.cmp(&sb) {
                std::cmp::Ordering::Less => 2,
                std::cmp::Ordering::Equal => 1,
                std::cmp::Ordering::Greater => 0,
            };
        }
    }

    /// Keeps the game for the viewer when it is among the [`VIEWER_SAMPLE`] lowest-numbered
    /// games so far (the same sample whatever order the games finished in).
    fn keep_sample(&mut self, r: &GameRecord, view: &mut impl FnMut() -> Arc<ViewerGame>) {
        let full = self.sample.len() >= VIEWER_SAMPLE;
        if !full
            || self
                .sample
                .last_key_value()
                .is_some_and(|(&n, _)| r.game < n)
        {
            self.sample.insert(r.game, view());
            if self.sample.len() > VIEWER_SAMPLE {
                self.sample.pop_last();
            }
        }
    }

    /// The game's faults in each player's notes: the [`FAULT_NOTES`] first in game order (a
    /// seat absent after an earlier round's fault is not a new fault).
    fn note_faults(&mut self, r: &GameRecord, ids: &[u32]) {
        for (round, f) in r.faults() {
            let Some(&id) = ids.get(f.seat) else { continue };
            if f.kind == ABSENT {
                continue;
            }
            let note = FaultNote {
                game: r.game,
                round: round + 1,
                turn: f.turn,
                phase: f.phase.clone(),
                kind: f.kind.clone(),
                reason: f.reason.clone(),
            };
            let notes = &mut self.fault_notes[id as usize];
            if notes.len() < FAULT_NOTES || notes.last().is_some_and(|last| note < *last) {
                let at = notes.partition_point(|n| *n < note);
                notes.insert(at, note);
                notes.truncate(FAULT_NOTES);
            }
        }
    }

    /// The numbers of players the games were played at, fewest first.
    pub fn table_sizes(&self) -> Vec<usize> {
        self.table_sizes.iter().copied().collect()
    }

    /// The game the records are of.
    pub fn rules(&self) -> GameRef {
        self.rules.clone().unwrap_or_default()
    }

    /// `name`'s first faults (at most [`FAULT_NOTES`]), by game, round and turn.
    pub fn fault_notes(&self, name: &str) -> &[FaultNote] {
        self.names
            .get(name)
            .and_then(|i| self.fault_notes.get(i as usize))
            .map_or(&[], Vec::as_slice)
    }

    pub fn games(&self) -> u64 {
        self.games
    }

    /// Whether some games had other players than others (more than 10 bots, or a person
    /// who left): only then does a head-to-head table say more than the leaderboard.
    pub fn varied_lineups(&self) -> bool {
        self.varied_lineups
    }

    /// `name`'s score distribution, if it played.
    pub fn distribution(&self, name: &str) -> Option<Distribution> {
        let counts = &self.scores[self.names.get(name)? as usize];
        let seen = || counts.iter();
        let games: u64 = seen().map(|(_, n)| n).sum();
        let min = seen().next()?.0;
        let max = seen().last()?.0;
        let quantile = |q: f64| {
            let rank = (q * (games - 1) as f64).round() as u64;
            let mut so_far = 0;
            for (score, n) in seen() {
                so_far += n;
                if so_far > rank {
                    return score;
                }
            }
            max
        };
        Some(Distribution {
            min,
            q1: quantile(0.25),
            median: quantile(0.5),
            q3: quantile(0.75),
            max,
            games,
        })
    }

    /// Head-to-head of `a` against `b`: games both played and `a`'s share of points.
    pub fn meeting(&self, a: &str, b: &str) -> Option<(u64, f64)> {
        let (key, flip) = pair_key(self.names.get(a)?, self.names.get(b)?);
        let m = self.meetings.get(key)?;
        let share = m.half_points as f64 / (2 * m.games) as f64;
        Some((m.games, if flip { 1.0 - share } else { share }))
    }

    /// The game number of `name`'s best and worst score (lowest and highest for Take 6).
    pub fn best_and_worst(&self, name: &str) -> Option<(u64, u64)> {
        let i = self.names.get(name)? as usize;
        Some((self.best[i].game.n, self.worst[i].game.n))
    }

    /// The games the viewer embeds, by number: the sample and every best and worst game, each
    /// within [`VIEWER_GAME_BYTES`], all within [`VIEWER_BYTES`].
    pub fn viewer_games(&self) -> Vec<Arc<ViewerGame>> {
        let mut games = self.sample.clone();
        for e in self.best.iter().chain(&self.worst) {
            games.insert(e.game.n, Arc::clone(&e.game));
        }
        let mut room = VIEWER_BYTES;
        games
            .into_values()
            .filter(|g| {
                let fits = g.play.len() <= VIEWER_GAME_BYTES.min(room);
                if fits {
                    room -= g.play.len();
                }
                fits
            })
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::record::fixtures::{result, series};

    /// The page holds no game whose data is over its share, and no more than its budget in
    /// all: a series of bloated games still makes a page a browser opens at once.
    #[test]
    fn the_viewer_keeps_within_its_bytes() {
        let game = |n: u64, bytes: usize| {
            Arc::new(ViewerGame {
                n,
                seed: 0,
                players: Vec::new(),
                builtin: Vec::new(),
                scores: Vec::new(),
                faults: Vec::new(),
                play: format!("{{\"x\":\"{}\"}}", "y".repeat(bytes)),
            })
        };
        let mut s = ReportStats::default();
        s.sample.insert(0, game(0, VIEWER_GAME_BYTES + 1));
        for n in 1..40 {
            s.sample.insert(n, game(n, VIEWER_GAME_BYTES / 2));
        }
        let kept = s.viewer_games();
        assert!(
            kept.iter().all(|g| g.n != 0),
            "a game over its share was kept"
        );
        let bytes: usize = kept.iter().map(|g| g.play.len()).sum();
        assert!(
            bytes <= VIEWER_BYTES && kept.len() >= 30,
            "{bytes} in {}",
            kept.len()
        );
        assert_eq!(kept[0].n, 1, "kept in number order");
    }

    fn stats(games: &[GameRecord]) -> ReportStats {
        let mut s = ReportStats::default();
        for g in games {
            s.add(g);
        }
        s
    }

    #[test]
    fn distributions_meetings_and_extremes() {
        let mut games = series();
        for (i, g) in games.iter_mut().enumerate() {
            g.game = i as u64;
        }
        let s = stats(&games);
        let alice = s.distribution("alice").unwrap();
        assert_eq!(
            (alice.min, alice.median, alice.max, alice.games),
            (10.into(), 12.into(), 14.into(), 3)
        );
        // alice vs bob: 10-10 tie, then 14-14 tie.
        assert_eq!(s.meeting("alice", "bob"), Some((2, 0.5)));
        // alice vs dave: 12 < 105.
        assert_eq!(s.meeting("alice", "dave"), Some((1, 1.0)));
        assert_eq!(s.meeting("dave", "alice"), Some((1, 0.0)));
        assert_eq!(s.meeting("bob", "dave"), None);
        assert_eq!(s.best_and_worst("alice"), Some((0, 1)));
        assert!(s.varied_lineups());
        let same = stats(&[
            result(&["a", "b"], &[1, 2], &[]),
            result(&["b", "a"], &[3, 1], &[]),
        ]);
        assert!(!same.varied_lineups());
    }

    #[test]
    fn the_viewer_keeps_a_bounded_sample_plus_every_extreme_whatever_the_order() {
        let n = VIEWER_SAMPLE as u64 + 50;
        let mut games: Vec<GameRecord> = (0..n)
            .map(|i| {
                let mut g = result(&["a", "b"], &[10, 20], &[]);
                g.game = i;
                g
            })
            .collect();
        // b's best game lies beyond the sample.
        games[(n - 1) as usize].rounds[0].scores = crate::record::score::whole(&[30, 1]);
        let forward = stats(&games);
        games.reverse();
        let backward = stats(&games);
        let numbers =
            |s: &ReportStats| -> Vec<u64> { s.viewer_games().iter().map(|g| g.n).collect() };
        assert_eq!(numbers(&forward), numbers(&backward));
        assert_eq!(forward.viewer_games().len(), VIEWER_SAMPLE + 1);
        assert_eq!(forward.best_and_worst("b"), Some((n - 1, 0)));
        assert!(numbers(&forward).contains(&(n - 1)));
    }
}
