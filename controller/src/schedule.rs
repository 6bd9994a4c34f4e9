//! Which players sit at which table in game *n*, and each game's seed.
//!
//! Plans are streamed: with more than ten bots every 10-bot subset is played, and the subsets
//! are generated one by one as games are dispatched, never collected. Everything about game
//! *n* derives from the master seed and *n* alone, so a game is the same whatever `--jobs` is
//! and whatever order games finish in.

use itertools::Itertools;
use rand::rngs::ChaCha8Rng;
use rand::seq::SliceRandom;
use rand::{Rng, SeedableRng};

use crate::game::MAX_PLAYERS;
use crate::player::Strategy;

/// Players at every table.
pub const TABLE_SIZE: usize = MAX_PLAYERS;

/// A series longer than this is refused rather than started: at a thousand games a second it
/// would take more than a day, and the subsets of more bots grow by orders of magnitude.
pub const MAX_GAMES: u64 = 100_000_000;

/// One seat's occupant in a plan.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Entrant {
    /// The usable bot with this index (in the series' sorted bot list).
    Bot(usize),
    /// A padding built-in: its strategy and its 1-based number among players of that strategy,
    /// which makes its name (`random#2`).
    Builtin(Strategy, usize),
}

impl Entrant {
    /// The name shown in results, given the bots' names.
    pub fn name(&self, bots: &[String]) -> String {
        match self {
            Entrant::Bot(i) => bots[*i].clone(),
            Entrant::Builtin(s, n) => format!("{}#{n}", s.name()),
        }
    }
}

/// One game to play.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct GamePlan {
    /// The game's number, from 0.
    pub game: u64,
    /// The seed of every random choice in the game (deal, built-ins).
    pub seed: u64,
    /// The subset's number, in `combinations` order.
    pub subset: u64,
    /// The players in seat order.
    pub seats: Vec<Entrant>,
}

/// The shape of a series: how many bots, how many games per subset, and the master seed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Schedule {
    bots: usize,
    master_seed: u64,
    games_per_subset: u64,
    subsets: u64,
    /// The built-ins at every table, when chosen (`take6 play --against`) rather than padding.
    chosen: Option<Vec<Entrant>>,
}

/// The schedule cannot be made.
#[derive(Debug, thiserror::Error, PartialEq, Eq)]
pub enum ScheduleError {
    #[error("no usable bot to schedule")]
    NoBots,
    #[error(
        "{bots} bots make {subsets} ten-bot subsets, more games than the limit of {MAX_GAMES}; remove bots or split them into groups"
    )]
    TooManySubsets { bots: usize, subsets: u128 },
}

impl Schedule {
    /// A schedule for `bots` usable bots aiming at `games` games: with ≤ 10 bots, `games` games
    /// at one table (padded with built-ins); with more, every subset plays
    /// `max(1, ceil(games / subsets))` games.
    pub fn new(bots: usize, games: u64, master_seed: u64) -> Result<Schedule, ScheduleError> {
        if bots == 0 {
            return Err(ScheduleError::NoBots);
        }
        let subsets = binomial(bots as u128, TABLE_SIZE.min(bots) as u128);
        let subsets = u64::try_from(subsets)
            .ok()
            .filter(|&s| s <= MAX_GAMES)
            .ok_or(ScheduleError::TooManySubsets { bots, subsets })?;
        let games_per_subset = games.div_ceil(subsets).max(1);
        Ok(Schedule {
            bots,
            master_seed,
            games_per_subset,
            subsets,
            chosen: None,
        })
    }

    /// The same schedule with exactly these built-ins at the table (no padding to ten): the
    /// table a person chose with `take6 play --against`. Same-strategy ones are numbered.
    pub fn with_builtins(mut self, strategies: &[Strategy]) -> Schedule {
        let mut count = [0usize; Strategy::ALL.len()];
        let chosen = strategies
            .iter()
            .map(|&s| {
                let k = Strategy::ALL
                    .iter()
                    .position(|&a| a == s)
                    .expect("a strategy");
                count[k] += 1;
                Entrant::Builtin(s, count[k])
            })
            .collect();
        self.chosen = Some(chosen);
        self
    }

    /// The built-ins at every table of this schedule.
    pub fn builtins(&self) -> Vec<Entrant> {
        self.chosen
            .clone()
            .unwrap_or_else(|| Self::padding(self.bots))
    }

    pub fn subsets(&self) -> u64 {
        self.subsets
    }

    pub fn games_per_subset(&self) -> u64 {
        self.games_per_subset
    }

    pub fn total_games(&self) -> u64 {
        self.subsets * self.games_per_subset
    }

    /// The built-ins that pad a table of `bots` bots to ten, cycling through the strategies.
    pub fn padding(bots: usize) -> Vec<Entrant> {
        let mut count = [0usize; Strategy::ALL.len()];
        (0..TABLE_SIZE.saturating_sub(bots))
            .map(|i| {
                let k = i % Strategy::ALL.len();
                count[k] += 1;
                Entrant::Builtin(Strategy::ALL[k], count[k])
            })
            .collect()
    }

    /// The seed of game `game`: the first word of the master seed's ChaCha stream `game`.
    pub fn game_seed(&self, game: u64) -> u64 {
        let mut rng = ChaCha8Rng::seed_from_u64(self.master_seed);
        rng.set_stream(game);
        rng.next_u64()
    }

    /// Every game of the series in order, generated lazily.
    pub fn plans(&self) -> impl Iterator<Item = GamePlan> + Send + '_ {
        let k = self.games_per_subset;
        let padding = self.builtins();
        (0..self.bots)
            .combinations(TABLE_SIZE.min(self.bots))
            .enumerate()
            .flat_map(move |(subset, members)| {
                let padding = padding.clone();
                (0..k).map(move |j| {
                    let game = subset as u64 * k + j;
                    let seed = self.game_seed(game);
                    let mut seats: Vec<Entrant> = members
                        .iter()
                        .map(|&b| Entrant::Bot(b))
                        .chain(padding.iter().copied())
                        .collect();
                    seats.shuffle(&mut seat_rng(seed));
                    GamePlan {
                        game,
                        seed,
                        subset: subset as u64,
                        seats,
                    }
                })
            })
    }
}

/// Seats are shuffled from a stream of the game seed that nothing else uses.
fn seat_rng(game_seed: u64) -> ChaCha8Rng {
    let mut rng = ChaCha8Rng::seed_from_u64(game_seed);
    rng.set_stream(u64::MAX);
    rng
}

fn binomial(n: u128, k: u128) -> u128 {
    (0..k).fold(1u128, |acc, i| acc.saturating_mul(n - i) / (i + 1))
}

#[cfg(test)]
mod tests {
    use std::collections::HashSet;

    use super::*;

    #[test]
    fn few_bots_are_padded_to_ten_with_unique_builtin_names() {
        let s = Schedule::new(3, 7, 1).unwrap();
        assert_eq!((s.subsets(), s.total_games()), (1, 7));
        let plans: Vec<GamePlan> = s.plans().collect();
        assert_eq!(plans.len(), 7);
        let bots = vec!["a".to_string(), "b".into(), "c".into()];
        for p in &plans {
            assert_eq!(p.seats.len(), 10);
            let names: HashSet<String> = p.seats.iter().map(|e| e.name(&bots)).collect();
            assert_eq!(names.len(), 10, "names unique within a game");
            for b in &bots {
                assert!(names.contains(b));
            }
            assert!(names.contains("random#1") && names.contains("random#2"));
            assert!(names.contains("gap#1") && !names.contains("gap#2"));
        }
        assert!(
            plans.windows(2).any(|w| w[0].seats != w[1].seats),
            "seats are shuffled per game"
        );
    }

    #[test]
    fn more_than_ten_bots_play_every_subset_equally() {
        let s = Schedule::new(12, 100, 9).unwrap();
        assert_eq!(s.subsets(), 66);
        assert_eq!(s.games_per_subset(), 2);
        let plans: Vec<GamePlan> = s.plans().collect();
        assert_eq!(plans.len(), 132);
        let mut subsets = HashSet::new();
        let mut appearances = [0u32; 12];
        for p in &plans {
            assert!(p.seats.iter().all(|e| matches!(e, Entrant::Bot(_))));
            let mut members: Vec<usize> = p
                .seats
                .iter()
                .map(|e| match e {
                    Entrant::Bot(i) => *i,
                    _ => unreachable!(),
                })
                .collect();
            members.sort();
            members.dedup();
            assert_eq!(members.len(), 10);
            for &m in &members {
                appearances[m] += 1;
            }
            subsets.insert(members);
        }
        assert_eq!(subsets.len(), 66);
        // Every bot sits out of C(11,1)... every bot is in C(11,9) = 55 subsets, twice each.
        assert!(appearances.iter().all(|&a| a == 110));
    }

    #[test]
    fn exactly_ten_bots_is_one_table_and_few_games_still_play_each_subset() {
        let s = Schedule::new(10, 5, 0).unwrap();
        assert_eq!((s.subsets(), s.total_games()), (1, 5));
        let s = Schedule::new(11, 3, 0).unwrap();
        assert_eq!(
            (s.subsets(), s.games_per_subset(), s.total_games()),
            (11, 1, 11)
        );
    }

    #[test]
    fn game_n_depends_only_on_the_master_seed_and_n() {
        let a: Vec<GamePlan> = Schedule::new(12, 100, 42).unwrap().plans().collect();
        let b = Schedule::new(12, 100, 42).unwrap();
        // Game 77 generated on its own equals game 77 of the full stream.
        assert_eq!(b.plans().nth(77).unwrap(), a[77]);
        let seeds: HashSet<u64> = a.iter().map(|p| p.seed).collect();
        assert_eq!(seeds.len(), a.len(), "games get distinct seeds");
        let c: Vec<GamePlan> = Schedule::new(12, 100, 43).unwrap().plans().collect();
        assert_ne!(a[0].seed, c[0].seed);
    }

    #[test]
    fn no_bots_and_absurd_subset_counts_are_errors() {
        assert_eq!(Schedule::new(0, 10, 0), Err(ScheduleError::NoBots));
        assert!(matches!(
            Schedule::new(200, 10, 0),
            Err(ScheduleError::TooManySubsets { .. })
        ));
    }
}
