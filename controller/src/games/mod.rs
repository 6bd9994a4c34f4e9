//! The games a series can be played in, and what the tournament machinery asks of each.
//!
//! Everything that knows a game's rules lives in its own module: [`take6`] (its rules, wire,
//! table, built-ins, person at the keyboard, checker, replay and viewer) and [`kingdomino`]
//! (the same for it). The machinery (bots, sandbox, clock,
//! schedule, records as a stream, tally, ratings, sinks, resume, verify, merge, shards) asks a
//! [`GameId`] the few things that differ between games: table sizes, default time limits, the
//! direction of scores, the built-in players, and where one game is played and checked. Those
//! questions are answered here, in one place, so that a third game is one more variant.

pub mod botzone;
pub mod kingdomino;
pub mod take6;

use serde::{Deserialize, Serialize};

use crate::player::Strategy;

/// Which game a series plays. Recorded in `series.toml` (absent there and in `games.jsonl`
/// for Take 6, so older series read as Take 6 series).
#[derive(
    Debug, Clone, Copy, Default, PartialEq, Eq, Hash, Serialize, Deserialize, clap::ValueEnum,
)]
#[serde(rename_all = "lowercase")]
pub enum GameId {
    /// *Take 6!* (6 nimmt!): 2 to 10 players, lower scores win.
    #[default]
    Take6,
    /// *Kingdomino*, as the CodinGame arena plays it: 2 to 4 players, higher scores win.
    Kingdomino,
}

/// Which way a game's scores point.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Direction {
    /// Lower is better (Take 6's cows).
    Lower,
    /// Higher is better (Kingdomino's crowns times squares).
    Higher,
}

impl Direction {
    /// Whether score `a` is strictly better than `b`.
    pub fn better(self, a: u32, b: u32) -> bool {
        match self {
            Direction::Lower => a < b,
            Direction::Higher => a > b,
        }
    }

    /// The best of `scores`.
    pub fn best(self, scores: &[u32]) -> Option<u32> {
        match self {
            Direction::Lower => scores.iter().copied().min(),
            Direction::Higher => scores.iter().copied().max(),
        }
    }
}

/// Kingdomino's built-in players, in padding order.
const KINGDOMINO_BUILTINS: [Strategy; 2] = [Strategy::Greedy, Strategy::Random];

impl GameId {
    /// The name used on the command line, in `take6.toml`, `bot.toml` and records.
    pub fn name(self) -> &'static str {
        match self {
            GameId::Take6 => "take6",
            GameId::Kingdomino => "kingdomino",
        }
    }

    /// The game's name for people.
    pub fn title(self) -> &'static str {
        match self {
            GameId::Take6 => "Take 6!",
            GameId::Kingdomino => "Kingdomino",
        }
    }

    /// Whether this is Take 6 (records and settings leave the game out then).
    pub fn is_take6(&self) -> bool {
        *self == GameId::Take6
    }

    /// Which way scores point.
    pub fn direction(self) -> Direction {
        match self {
            GameId::Take6 => Direction::Lower,
            GameId::Kingdomino => Direction::Higher,
        }
    }

    /// The fewest and most players a table of this game seats.
    pub fn seats(self) -> (usize, usize) {
        match self {
            GameId::Take6 => (crate::schedule::MIN_TABLE, crate::schedule::TABLE_SIZE),
            GameId::Kingdomino => (2, 4),
        }
    }

    /// The table size when `--players` is not given.
    pub fn default_players(self) -> usize {
        match self {
            GameId::Take6 => crate::schedule::TABLE_SIZE,
            GameId::Kingdomino => 4,
        }
    }

    /// Default limits of a bot's first reply and of every later one, in ms (Kingdomino's are
    /// the CodinGame arena's: 1000 ms for the first turn, 50 ms after).
    pub fn default_reply_ms(self) -> (u64, u64) {
        match self {
            GameId::Take6 => (3000, 1000),
            GameId::Kingdomino => (1000, 50),
        }
    }

    /// The built-in players that pad this game's tables, in padding order.
    pub fn builtins(self) -> &'static [Strategy] {
        match self {
            GameId::Take6 => &Strategy::ALL,
            GameId::Kingdomino => &KINGDOMINO_BUILTINS,
        }
    }

    /// The built-in of this game called `name`, if there is one.
    pub fn builtin(self, name: &str) -> Option<Strategy> {
        self.builtins().iter().copied().find(|s| s.name() == name)
    }
}

/// Plays one whole game at `table` under `limits`, by its game's rules. Never fails: whatever a
/// bot does becomes part of the record.
pub async fn play(
    table: crate::table::TableGame,
    limits: crate::player::Limits,
) -> crate::table::GameOutcome {
    match table.rules {
        GameId::Take6 => take6::table::play(table, limits).await,
        GameId::Kingdomino => kingdomino::table::play(table, limits).await,
    }
}

/// The independent rules checker of a record, whichever game it is of (`take6 verify`, the
/// tests): replays the game with a second, minimal implementation of its rules and names the
/// first inconsistency.
pub fn check_record(r: &crate::record::GameRecord) -> Result<(), String> {
    match r.rules {
        GameId::Take6 => take6::check::check_record(r),
        GameId::Kingdomino => kingdomino::check::check_record(r),
    }
}

impl std::fmt::Display for GameId {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}
