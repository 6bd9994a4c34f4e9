//! Which players sit at which table in game *n*, and each game's seed.
//!
//! Plans are streamed, never collected. A field no bigger than a table plays at one table,
//! padded with built-ins; a bigger one plays either every subset of table size (`all`) or a
//! balanced design of exactly the games budget (`balanced`, see [`balanced`]). With duplicate
//! deals each table plays one deal once per rotation of the hands among its seats. Everything
//! about game *n* derives from the master seed, the settings and *n* alone, so a game is the
//! same whatever `--jobs` is and whatever order games finish in. The schedule works on
//! entrants and seats only; it knows nothing of cards.

pub mod balanced;
pub mod paired;

use itertools::Itertools;
use rand::rngs::ChaCha8Rng;
use rand::seq::SliceRandom;
use rand::{Rng, SeedableRng};
use serde::{Deserialize, Serialize};

use crate::game::GameRef;
use crate::seed::Seed;
use crate::table::BuiltinKind;
use balanced::Balancer;

/// A series longer than this is refused rather than started: at a thousand games a second it
/// would take more than a day, and the subsets of more bots grow by orders of magnitude.
pub const MAX_GAMES: u64 = 100_000_000;

/// How tables are chosen when there are more entrants than seats (`--schedule`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize, clap::ValueEnum)]
#[serde(rename_all = "lowercase")]
pub enum ScheduleKind {
    /// Every subset of table size, each the same number of times.
    All,
    /// Exactly the games budget, balanced in games per entrant and in pairs.
    Balanced,
    /// `all` when every subset fits the budget, otherwise `balanced`.
    #[default]
    Auto,
}

/// What the schedule is asked for.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Request {
    /// The game: its built-ins pad the tables, its seats bound the table size.
    pub game: GameRef,
    /// Entrants that are not built-ins: the bots (and the person at the keyboard, if any).
    pub entrants: usize,
    /// Seats at every table.
    pub players: usize,
    /// The games budget.
    pub games: u64,
    pub kind: ScheduleKind,
    /// Duplicate deals: on only when asked for (`Some(true)`); `None` is off (see
    /// [`Schedule::new`]).
    pub duplicate: Option<bool>,
    pub seed: Seed,
}

/// How the tables of a series are laid out, once resolved.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Layout {
    /// All entrants at one table, padded with built-ins.
    Single,
    /// Every subset of table size, `per_subset` tables each.
    All { subsets: u64, per_subset: u64 },
    /// The greedy balanced design.
    Balanced,
}

impl Layout {
    pub fn name(&self) -> &'static str {
        match self {
            Layout::Single => "single",
            Layout::All { .. } => "all",
            Layout::Balanced => "balanced",
        }
    }
}

/// One seat's occupant in a plan.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Entrant {
    /// The usable bot with this index (in the series' sorted bot list).
    Bot(usize),
    /// A padding built-in: which of its game's built-ins, and its 1-based number among players
    /// of that kind, which makes its name (`random#2`).
    Builtin(BuiltinKind, usize),
}

impl Entrant {
    /// The name shown in results, given the bots' names.
    pub fn name(&self, bots: &[String]) -> String {
        match self {
            Entrant::Bot(i) => bots[*i].clone(),
            Entrant::Builtin(s, n) => format!("{}#{n}", s.name),
        }
    }
}

/// One game to play.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct GamePlan {
    /// The game's number, from 0.
    pub game: u64,
    /// The seed of every random choice in the game (deal, built-ins); shared by the games of
    /// one duplicate deal.
    pub seed: u64,
    /// The number of the table's set of entrants among all subsets of table size, in
    /// `combinations` (lexicographic) order; 0 at a single table; saturates at `u64::MAX`.
    pub subset: u64,
    /// Under duplicate deals, how far the hands are rotated: seat `s` plays the hand dealt to
    /// seat `(s + rotation) % players`. Always 0 otherwise.
    pub rotation: usize,
    /// The players in seat order.
    pub seats: Vec<Entrant>,
}

/// How evenly a schedule spreads games: games per entrant and games each pair of entrants
/// shares, min and max (recorded in `series.toml`, printed at the start).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct Balance {
    pub games_min: u64,
    pub games_max: u64,
    /// `None` with a single entrant (no pairs).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub pairs_min: Option<u64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub pairs_max: Option<u64>,
}

/// The shape of a series: entrants, table size, layout, duplicate deals and the master seed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Schedule {
    entrants: usize,
    players: usize,
    master_seed: Seed,
    layout: Layout,
    /// Distinct tables (deals under duplicate deals).
    tables: u64,
    /// Games per table: the table size under duplicate deals, else 1.
    rotations: u64,
    /// The built-ins at every table, when chosen (`take6 play --against`) rather than padding.
    chosen: Option<Vec<Entrant>>,
    /// The game's built-ins, in padding order.
    builtins: Vec<BuiltinKind>,
}

/// The schedule cannot be made. Each message names the setting to change.
#[derive(Debug, thiserror::Error, PartialEq, Eq)]
pub enum ScheduleError {
    #[error("no usable bot to schedule")]
    NoBots,
    #[error(
        "players = {players} is not allowed: a table seats {fewest} to {most} players (--players)"
    )]
    Players {
        players: usize,
        fewest: usize,
        most: usize,
    },
    #[error(
        "{entrants} bots make {subsets} subsets of {players}, more games than the limit of {MAX_GAMES}; use --schedule balanced (or auto), or remove bots"
    )]
    TooManySubsets {
        entrants: usize,
        players: usize,
        subsets: u128,
    },
    #[error(
        "--games {games} is more than the limit of {MAX_GAMES} games; split the series or play fewer"
    )]
    TooManyGames { games: u64 },
    #[error(
        "--games {games} is too few for {entrants} bots at tables of {players}: every bot needs a seat, which takes at least {needed} games; raise --games or --players"
    )]
    TooFewGames {
        games: u64,
        entrants: usize,
        players: usize,
        needed: u64,
    },
    #[error(
        "the game {game} has no padding bots, and {} cannot fill its {players} seats; add padding bots to the game folder (bot folders inside it, or padding = [...] in its game.toml; a copy of a bot's folder is one), or play more bots",
        if *entrants == 1 { "1 bot".to_string() } else { format!("{entrants} bots") }
    )]
    NoPadding {
        /// The game as `--game` names it (a game folder's path).
        game: String,
        entrants: usize,
        players: usize,
    },
}

impl Schedule {
    /// The schedule for `request`. A field no bigger than the table plays at one table. A
    /// bigger one plays every subset (`all`, each `max(1, ceil(games / subsets))` times) or a
    /// balanced design of exactly `games` games; `auto` picks `all` when the subsets are no
    /// more than `games`. Duplicate deals are off unless asked for: a bot that keeps its hand
    /// in its working copy recognises a replayed deal and then knows every other hand (issue
    /// 21), and no layout avoids that when a table's bots play every rotation. Asked for, they
    /// round the budget up to whole deals.
    pub fn new(request: Request) -> Result<Schedule, ScheduleError> {
        let Request {
            game,
            entrants,
            players,
            games,
            kind,
            duplicate,
            seed,
        } = request;
        check_request(&game, entrants, players, games)?;
        let layout = choose_layout(entrants, players, games, kind)?;
        let duplicate = duplicate.unwrap_or(false);
        let rotations = if duplicate { players as u64 } else { 1 };
        let (layout, tables) = size_layout(layout, entrants, players, games, rotations)?;
        let total = tables.saturating_mul(rotations);
        if total > MAX_GAMES {
            return Err(ScheduleError::TooManyGames { games: total });
        }
        Ok(Schedule {
            entrants,
            players,
            master_seed: seed,
            layout,
            tables,
            rotations,
            chosen: None,
            builtins: game.builtins().to_vec(),
        })
    }

    /// A calibration series of built-ins only (`take6 run --builtins-only`): no bots, every
    /// seat a built-in, the game's strategies cycled in order and numbered (Take 6:
    /// `random#1`, `first#1`, …, `random#2` from the sixth seat). Laid out like a single table
    /// of `request.players` entrants (so duplicate deals follow the same rule), its seats
    /// shuffled per table from the game seed as always.
    pub fn builtins_only(request: Request) -> Result<Schedule, ScheduleError> {
        if request.game.builtins().is_empty() {
            return Err(ScheduleError::NoPadding {
                game: request.game.spec(),
                entrants: 0,
                players: request.players,
            });
        }
        let schedule = Schedule::new(Request {
            entrants: request.players,
            ..request
        })?;
        let chosen = Self::padding_with(&schedule.builtins, 0, schedule.players);
        Ok(Schedule {
            entrants: 0,
            chosen: Some(chosen),
            ..schedule
        })
    }

    pub fn layout(&self) -> Layout {
        self.layout
    }

    /// Seats at every table.
    pub fn players(&self) -> usize {
        self.players
    }

    /// Whether each deal is played once per rotation of the hands.
    pub fn duplicate(&self) -> bool {
        self.rotations > 1
    }

    /// Distinct tables: deals under duplicate deals, games otherwise.
    pub fn tables(&self) -> u64 {
        self.tables
    }

    /// Subsets of table size (1 at a single table, 0 when balanced: they are not enumerated).
    pub fn subsets(&self) -> u64 {
        match self.layout {
            Layout::Single => 1,
            Layout::All { subsets, .. } => subsets,
            Layout::Balanced => 0,
        }
    }

    /// Games each subset plays under `all` (each table's deal counted once per rotation).
    pub fn games_per_subset(&self) -> u64 {
        match self.layout {
            Layout::Single => self.total_games(),
            Layout::All { per_subset, .. } => per_subset * self.rotations,
            Layout::Balanced => 0,
        }
    }

    pub fn total_games(&self) -> u64 {
        self.tables * self.rotations
    }

    /// The same schedule with exactly these built-ins at the table instead of the padding: the
    /// table a person chose with `take6 play --against`. Same-strategy ones are numbered.
    pub fn with_builtins(mut self, strategies: &[BuiltinKind]) -> Schedule {
        let mut count = vec![0usize; self.builtins.len()];
        let chosen = strategies
            .iter()
            .map(|&s| {
                let k = self
                    .builtins
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
            .unwrap_or_else(|| Self::padding_with(&self.builtins, self.entrants, self.players))
    }

    /// The built-ins of `strategies` that pad a table of `entrants` entrants to `players`
    /// seats, cycling through them in order (none when there are none: [`Schedule::new`]
    /// refuses a table they cannot fill).
    pub fn padding_with(
        strategies: &[BuiltinKind],
        entrants: usize,
        players: usize,
    ) -> Vec<Entrant> {
        let mut count = vec![0usize; strategies.len()];
        if strategies.is_empty() {
            return Vec::new();
        }
        (0..players.saturating_sub(entrants))
            .map(|i| {
                let k = i % strategies.len();
                count[k] += 1;
                Entrant::Builtin(strategies[k], count[k])
            })
            .collect()
    }

    /// The seed of table `table`: the first word of the master seed's ChaCha stream `table`.
    /// Without duplicate deals tables are games, so this is game `table`'s seed.
    pub fn game_seed(&self, table: u64) -> u64 {
        let mut rng = self.master_seed.rng();
        rng.set_stream(table);
        rng.next_u64()
    }

    /// Every table's members (entrant indices, ascending) and subset number, in order.
    fn table_members(&self) -> Box<dyn Iterator<Item = (u64, Vec<usize>)> + Send + '_> {
        let (e, p) = (self.entrants, self.players);
        match self.layout {
            Layout::Single => Box::new((0..self.tables).map(move |_| (0, (0..e).collect()))),
            Layout::All { per_subset, .. } => Box::new(
                (0..e)
                    .combinations(p)
                    .enumerate()
                    .flat_map(move |(subset, members)| {
                        (0..per_subset).map(move |_| (subset as u64, members.clone()))
                    }),
            ),
            Layout::Balanced => {
                let mut balancer = Balancer::new(e, p, self.master_seed);
                Box::new((0..self.tables).map(move |_| {
                    let members = balancer.next_table();
                    (lex_rank(&members, e), members)
                }))
            }
        }
    }

    /// Every game of the series in order, generated lazily: each table's games are
    /// consecutive, one per rotation of the hands under duplicate deals.
    pub fn plans(&self) -> impl Iterator<Item = GamePlan> + Send + '_ {
        let padding = self.builtins();
        let rotations = self.rotations;
        self.table_members()
            .enumerate()
            .flat_map(move |(table, (subset, members))| {
                let table = table as u64;
                let seed = self.game_seed(table);
                let mut seats: Vec<Entrant> = members
                    .iter()
                    .map(|&b| Entrant::Bot(b))
                    .chain(padding.iter().copied())
                    .collect();
                seats.shuffle(&mut seat_rng(seed));
                (0..rotations).map(move |j| GamePlan {
                    game: table * rotations + j,
                    seed,
                    subset,
                    rotation: j as usize,
                    seats: seats.clone(),
                })
            })
    }

    /// Games per entrant and per pair of entrants, min and max. Counted, not estimated: a
    /// balanced schedule is replayed (milliseconds for thousands of tables).
    pub fn balance(&self) -> Balance {
        let (e, p, r) = (self.entrants as u128, self.players as u128, self.rotations);
        let (games, pairs) = match self.layout {
            Layout::Single => (self.total_games(), self.total_games()),
            Layout::All { per_subset, .. } => {
                let k = per_subset * r;
                let g = binomial(e - 1, p - 1) as u64 * k;
                let pairs = if e >= 2 {
                    binomial(e - 2, p.saturating_sub(2)) as u64 * k
                } else {
                    0
                };
                (g, pairs)
            }
            Layout::Balanced => {
                let mut balancer = Balancer::new(self.entrants, self.players, self.master_seed);
                for _ in 0..self.tables {
                    balancer.next_table();
                }
                let (gmin, gmax, pmin, pmax) = balancer.spread();
                return Balance {
                    games_min: gmin * r,
                    games_max: gmax * r,
                    pairs_min: Some(pmin * r),
                    pairs_max: Some(pmax * r),
                };
            }
        };
        let pairs = (self.entrants >= 2).then_some(pairs);
        Balance {
            games_min: games,
            games_max: games,
            pairs_min: pairs,
            pairs_max: pairs,
        }
    }

    /// What the schedule will play, for the start line: e.g. `66 subsets of 10 x 2`,
    /// `balanced tables of 10`, with duplicate deals and the balance achieved.
    pub fn describe(&self, balance: &Balance) -> String {
        let mut parts = Vec::new();
        match self.layout {
            Layout::Single => {}
            Layout::All {
                subsets,
                per_subset,
            } => parts.push(format!(
                "every subset of {}: {subsets} x {}",
                self.players,
                per_subset * self.rotations
            )),
            Layout::Balanced => parts.push(format!("balanced tables of {}", self.players)),
        }
        if self.duplicate() {
            parts.push(format!(
                "duplicate deals: {} deal{} x {} rotations",
                self.tables,
                if self.tables == 1 { "" } else { "s" },
                self.rotations
            ));
        }
        if self.entrants > self.players {
            let range = |lo: u64, hi: u64| {
                if lo == hi {
                    lo.to_string()
                } else {
                    format!("{lo}-{hi}")
                }
            };
            parts.push(format!(
                "{} games per bot",
                range(balance.games_min, balance.games_max)
            ));
            if let (Some(lo), Some(hi)) = (balance.pairs_min, balance.pairs_max) {
                parts.push(format!("{} together per pair", range(lo, hi)));
            }
        }
        parts.join(", ")
    }
}

/// Refuses a request no schedule can serve: a table size the game does not seat, no bots,
/// too many games, or too few bots for a game without built-ins to pad its tables.
fn check_request(
    game: &GameRef,
    entrants: usize,
    players: usize,
    games: u64,
) -> Result<(), ScheduleError> {
    let seats = game.seats();
    if !(seats.fewest..=seats.most).contains(&players) {
        return Err(ScheduleError::Players {
            players,
            fewest: seats.fewest,
            most: seats.most,
        });
    }
    if entrants == 0 {
        return Err(ScheduleError::NoBots);
    }
    if games > MAX_GAMES {
        return Err(ScheduleError::TooManyGames { games });
    }
    // A table short of bots is padded with the game's built-ins: a game with none (a
    // game folder without padding bots) needs a bot in every seat.
    if entrants < players && game.builtins().is_empty() {
        return Err(ScheduleError::NoPadding {
            game: game.spec(),
            entrants,
            players,
        });
    }
    Ok(())
}

/// The layout of `entrants` at tables of `players` for `kind`, before it is sized.
fn choose_layout(
    entrants: usize,
    players: usize,
    games: u64,
    kind: ScheduleKind,
) -> Result<Layout, ScheduleError> {
    Ok(if entrants <= players {
        Layout::Single
    } else {
        let subsets = binomial(entrants as u128, players as u128);
        let fits = subsets <= u128::from(games);
        match kind {
            ScheduleKind::All if subsets > u128::from(MAX_GAMES) => {
                return Err(ScheduleError::TooManySubsets {
                    entrants,
                    players,
                    subsets,
                });
            }
            ScheduleKind::All => Layout::All {
                subsets: subsets as u64,
                per_subset: 0,
            },
            ScheduleKind::Auto if fits => Layout::All {
                subsets: subsets as u64,
                per_subset: 0,
            },
            ScheduleKind::Auto | ScheduleKind::Balanced => Layout::Balanced,
        }
    })
}

/// `layout` sized for a budget of `games` (`rotations` games a table): the layout with its
/// tables per subset, and how many tables in all.
fn size_layout(
    layout: Layout,
    entrants: usize,
    players: usize,
    games: u64,
    rotations: u64,
) -> Result<(Layout, u64), ScheduleError> {
    let e = entrants as u64;
    let p = players as u64;
    Ok(match layout {
        Layout::Single => (layout, games.div_ceil(rotations)),
        Layout::All { subsets, .. } => {
            let per_subset = games.div_ceil(subsets * rotations).max(1);
            let layout = Layout::All {
                subsets,
                per_subset,
            };
            (layout, subsets * per_subset)
        }
        Layout::Balanced => {
            let tables = games.div_ceil(rotations);
            let needed = e.div_ceil(p);
            if tables < needed {
                return Err(ScheduleError::TooFewGames {
                    games,
                    entrants,
                    players,
                    needed: needed * rotations,
                });
            }
            (layout, tables)
        }
    })
}

/// Seats are shuffled from a stream of the game seed that nothing else uses.
pub(crate) fn seat_rng(game_seed: u64) -> ChaCha8Rng {
    let mut rng = ChaCha8Rng::seed_from_u64(game_seed);
    rng.set_stream(u64::MAX);
    rng
}

fn binomial(n: u128, k: u128) -> u128 {
    if k > n {
        return 0;
    }
    (0..k).fold(1u128, |acc, i| acc.saturating_mul(n - i) / (i + 1))
}

/// The position of the ascending combination `members` of `0..n` in lexicographic order (the
/// order of `combinations`), saturating at `u64::MAX` for very large fields.
fn lex_rank(members: &[usize], n: usize) -> u64 {
    let k = members.len();
    let mut rank: u128 = 0;
    let mut next = 0;
    for (i, &c) in members.iter().enumerate() {
        for j in next..c {
            rank = rank.saturating_add(binomial((n - 1 - j) as u128, (k - 1 - i) as u128));
        }
        next = c + 1;
    }
    u64::try_from(rank).unwrap_or(u64::MAX)
}
#[cfg(test)]
mod tests {
    use std::collections::{HashMap, HashSet};

    use super::*;

    fn request(entrants: usize, players: usize, games: u64, seed: u64) -> Request {
        Request {
            game: crate::game::GameRef::default_game(),
            entrants,
            players,
            games,
            kind: ScheduleKind::Auto,
            duplicate: Some(false),
            seed: seed.into(),
        }
    }

    fn schedule(entrants: usize, games: u64, seed: u64) -> Schedule {
        Schedule::new(request(entrants, 10, games, seed)).unwrap()
    }

    /// Entrant indices of a plan's bots, ascending.
    fn members(p: &GamePlan) -> Vec<usize> {
        let mut m: Vec<usize> = p
            .seats
            .iter()
            .filter_map(|e| match e {
                Entrant::Bot(i) => Some(*i),
                Entrant::Builtin(..) => None,
            })
            .collect();
        m.sort_unstable();
        m
    }

    /// Games per entrant and games per pair, counted from the plans.
    fn counted(s: &Schedule, entrants: usize) -> (Vec<u64>, HashMap<(usize, usize), u64>) {
        let mut games = vec![0; entrants];
        let mut pairs = HashMap::new();
        for p in s.plans() {
            let m = members(&p);
            for (i, &a) in m.iter().enumerate() {
                games[a] += 1;
                for &b in &m[i + 1..] {
                    *pairs.entry((a, b)).or_insert(0) += 1;
                }
            }
        }
        (games, pairs)
    }

    #[test]
    fn few_bots_are_padded_to_ten_with_unique_builtin_names() {
        let s = schedule(3, 7, 1);
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
    fn four_players_pad_two_bots_with_two_builtins_and_seat_every_one_each_game() {
        let s = Schedule::new(request(2, 4, 40, 8)).unwrap();
        assert_eq!(s.total_games(), 40);
        let bots = vec!["a".to_string(), "b".into()];
        let mut seat_of_a = [0u32; 4];
        for p in s.plans() {
            let names: Vec<String> = p.seats.iter().map(|e| e.name(&bots)).collect();
            let mut sorted = names.clone();
            sorted.sort();
            assert_eq!(sorted, ["a", "b", "first#1", "random#1"]);
            seat_of_a[names.iter().position(|n| n == "a").unwrap()] += 1;
        }
        assert!(
            seat_of_a.iter().all(|&n| n > 0),
            "seats rotate: {seat_of_a:?}"
        );
        // Five bots at tables of four: balanced (5 subsets > 3 games would be `all` at 5+).
        let s = Schedule::new(request(5, 4, 50, 8)).unwrap();
        assert_eq!(
            s.layout(),
            Layout::All {
                subsets: 5,
                per_subset: 10
            }
        );
        assert!(
            s.plans()
                .all(|p| p.seats.len() == 4 && members(&p).len() == 4)
        );
    }

    #[test]
    fn twelve_bots_play_each_of_the_66_subsets_k_times() {
        for (games, k) in [(66, 1), (100, 2), (132, 2), (133, 3)] {
            let s = schedule(12, games, 9);
            assert_eq!(
                s.layout(),
                Layout::All {
                    subsets: 66,
                    per_subset: k
                }
            );
            let plans: Vec<GamePlan> = s.plans().collect();
            assert_eq!(plans.len() as u64, 66 * k);
            let mut per_subset: HashMap<Vec<usize>, u64> = HashMap::new();
            for p in &plans {
                assert!(p.seats.iter().all(|e| matches!(e, Entrant::Bot(_))));
                let m = members(p);
                assert_eq!(m.len(), 10);
                assert_eq!(lex_rank(&m, 12), p.subset, "subset numbers are ranks");
                *per_subset.entry(m).or_default() += 1;
            }
            assert_eq!(per_subset.len(), 66);
            assert!(per_subset.values().all(|&n| n == k));
            // Every bot is in C(11, 9) = 55 subsets, every pair in C(10, 8) = 45.
            let (games, pairs) = counted(&s, 12);
            assert!(games.iter().all(|&g| g == 55 * k));
            assert!(pairs.values().all(|&n| n == 45 * k));
            let b = s.balance();
            assert_eq!((b.games_min, b.games_max), (55 * k, 55 * k));
            assert_eq!((b.pairs_min, b.pairs_max), (Some(45 * k), Some(45 * k)));
        }
    }

    /// Checks the balance promised by `balanced`, and that `balance()` reports what was played.
    fn assert_balanced(entrants: usize, players: usize, games: u64) {
        let s = Schedule::new(Request {
            game: crate::game::GameRef::default_game(),
            kind: ScheduleKind::Balanced,
            ..request(entrants, players, games, 77)
        })
        .unwrap();
        assert_eq!(s.layout(), Layout::Balanced);
        assert_eq!(s.total_games(), games, "exactly the budget");
        let (per_bot, pairs) = counted(&s, entrants);
        let (lo, hi) = (per_bot.iter().min().unwrap(), per_bot.iter().max().unwrap());
        assert!(hi - lo <= 1, "games per bot {lo}..{hi}");
        assert_eq!(
            pairs.len(),
            entrants * (entrants - 1) / 2,
            "every pair meets"
        );
        let (plo, phi) = (pairs.values().min().unwrap(), pairs.values().max().unwrap());
        let mean = pairs.values().sum::<u64>() as f64 / pairs.len() as f64;
        assert!(mean >= 20.0, "the promise holds from a mean of 20: {mean}");
        assert!(
            *phi as f64 <= 1.5 * *plo as f64,
            "{entrants} bots, {games} games: pairs {plo}..{phi}"
        );
        let b = s.balance();
        assert_eq!((b.games_min, b.games_max), (*lo, *hi));
        assert_eq!((b.pairs_min, b.pairs_max), (Some(*plo), Some(*phi)));
    }

    #[test]
    fn balanced_25_bots_at_250_games_and_30_at_1000() {
        assert_balanced(25, 10, 250);
        assert_balanced(30, 10, 1000);
        assert_balanced(12, 4, 500);
    }

    #[test]
    fn auto_switches_to_balanced_when_the_subsets_do_not_fit_the_budget() {
        // 25 bots: 3,268,760 subsets; the 250-game budget is played, not 3.27 million games.
        let s = schedule(25, 250, 1);
        assert_eq!((s.layout(), s.total_games()), (Layout::Balanced, 250));
        // 200 bots: more subsets than the limit; auto balances, `all` refuses.
        let s = schedule(200, 1000, 1);
        assert_eq!((s.layout(), s.total_games()), (Layout::Balanced, 1000));
        let all = Schedule::new(Request {
            game: crate::game::GameRef::default_game(),
            kind: ScheduleKind::All,
            ..request(200, 10, 1000, 0)
        });
        let err = all.unwrap_err();
        assert!(matches!(err, ScheduleError::TooManySubsets { .. }));
        assert!(err.to_string().contains("--schedule balanced"), "{err}");
        // `all` keeps today's behaviour of playing every subset at least once.
        let s = Schedule::new(Request {
            game: crate::game::GameRef::default_game(),
            kind: ScheduleKind::All,
            ..request(11, 10, 3, 0)
        })
        .unwrap();
        assert_eq!((s.subsets(), s.total_games()), (11, 11));
    }

    #[test]
    fn nonsense_requests_are_refused_with_the_setting_to_change() {
        assert_eq!(
            Schedule::new(request(0, 10, 10, 0)),
            Err(ScheduleError::NoBots)
        );
        for players in [0, 1, 11] {
            let err = Schedule::new(request(3, players, 10, 0)).unwrap_err();
            assert_eq!(
                err,
                ScheduleError::Players {
                    players,
                    fewest: 2,
                    most: 10
                }
            );
            assert!(err.to_string().contains("--players"), "{err}");
        }
        // 25 bots at tables of 10 need 3 tables before everyone has played.
        let err = Schedule::new(request(25, 10, 2, 0)).unwrap_err();
        assert!(matches!(err, ScheduleError::TooFewGames { needed: 3, .. }));
        assert!(err.to_string().contains("raise --games"), "{err}");
        assert!(Schedule::new(request(25, 10, 3, 0)).is_ok());
        let err = Schedule::new(request(3, 10, MAX_GAMES + 1, 0)).unwrap_err();
        assert!(matches!(err, ScheduleError::TooManyGames { .. }));
    }

    #[test]
    fn game_n_depends_only_on_the_master_seed_and_n() {
        for entrants in [12, 30] {
            let a: Vec<GamePlan> = schedule(entrants, 100, 42).plans().collect();
            let b = schedule(entrants, 100, 42);
            // Game 77 generated on its own equals game 77 of the full stream.
            assert_eq!(b.plans().nth(77).unwrap(), a[77]);
            let seeds: HashSet<u64> = a.iter().map(|p| p.seed).collect();
            assert_eq!(seeds.len(), a.len(), "games get distinct seeds");
            let c: Vec<GamePlan> = schedule(entrants, 100, 43).plans().collect();
            assert_ne!(a[0].seed, c[0].seed);
        }
        // Without duplicate deals, game n's seed is the master seed's stream n, as always.
        let s = schedule(3, 5, 42);
        assert!(s.plans().all(|p| p.seed == s.game_seed(p.game)));
    }

    #[test]
    fn duplicate_deals_rotate_the_hands_of_one_table() {
        let s = Schedule::new(Request {
            game: crate::game::GameRef::default_game(),
            duplicate: Some(true),
            ..request(3, 4, 10, 5)
        })
        .unwrap();
        assert!(s.duplicate());
        assert_eq!(
            (s.tables(), s.total_games()),
            (3, 12),
            "rounded up to whole deals"
        );
        let plans: Vec<GamePlan> = s.plans().collect();
        for (deal, group) in plans.chunks(4).enumerate() {
            for (j, p) in group.iter().enumerate() {
                assert_eq!(p.game, deal as u64 * 4 + j as u64);
                assert_eq!(p.rotation, j);
                assert_eq!((p.seed, &p.seats), (group[0].seed, &group[0].seats));
            }
        }
        assert_ne!(plans[0].seed, plans[4].seed);
    }

    #[test]
    fn no_bot_sees_a_deal_twice_unless_duplicate_deals_are_asked_for() {
        // A bot that writes its hand into its working copy recognises a replayed
        // deal. By default every game of every layout is a deal of its own.
        for (entrants, players, games) in [(4, 10, 100), (2, 4, 12), (11, 10, 110), (25, 10, 1340)]
        {
            for duplicate in [None, Some(false)] {
                let s = Schedule::new(Request {
                    game: crate::game::GameRef::default_game(),
                    duplicate,
                    ..request(entrants, players, games, 9)
                })
                .unwrap();
                assert!(!s.duplicate(), "{entrants} bots, {games} games");
                let seeds: Vec<u64> = s.plans().map(|p| p.seed).collect();
                let distinct: HashSet<u64> = seeds.iter().copied().collect();
                assert_eq!(distinct.len(), seeds.len(), "a deal repeats");
            }
        }
        // Asked for, they are there: one deal per table size of games.
        let s = Schedule::new(Request {
            game: crate::game::GameRef::default_game(),
            duplicate: Some(true),
            ..request(4, 10, 100, 9)
        })
        .unwrap();
        assert!(s.duplicate());
        let distinct: HashSet<u64> = s.plans().map(|p| p.seed).collect();
        assert_eq!(distinct.len(), 10);
    }

    #[test]
    fn a_30_bot_balanced_schedule_is_computed_lazily() {
        // Ten thousand games of 30 bots: the first plan needs one table, not the whole series.
        let s = schedule(30, 10_000, 3);
        let first = s.plans().next().unwrap();
        assert_eq!(members(&first).len(), 10);
        assert_eq!(s.plans().count(), 10_000);
    }
}
