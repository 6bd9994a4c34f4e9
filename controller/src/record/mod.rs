//! What a series produces, one job per file: the record of each game (here, the schema), its
//! line in `games.jsonl` with the running SHA-256 chain ([`jsonl`]), the running tally behind
//! the leaderboard ([`tally`]), exporters that are pure functions of the standings
//! ([`export`]), and an independent rules checker that replays a record ([`check`]).
//!
//! Everything here depends only on game records, never on how the games were played.

use serde::{Deserialize, Serialize};

use crate::game::Card;

pub mod check;
pub mod export;
#[cfg(test)]
pub(crate) mod fixtures;
pub mod jsonl;
pub mod tally;

pub use check::check_record;
pub use export::{leaderboard_csv, summary_table};
pub use jsonl::{Chain, LogReader, RecordError, games_jsonl_line, read_games_jsonl};
pub use tally::{Standing, Tally};

/// One finished game, as written to `games.jsonl`. Seats are in the game's seat order.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct GameRecord {
    /// The game's number in the series, from 0.
    pub game: u64,
    /// The seed every random choice of this game derives from.
    pub seed: u64,
    /// Which 10-bot subset (in `combinations` order) this game belongs to; 0 with ≤ 10 bots.
    pub subset: u64,
    /// Player names in seat order, unique within the game.
    pub players: Vec<String>,
    /// Whether each seat is a built-in player.
    pub builtin: Vec<bool>,
    /// Each seat's ten cards in dealt order.
    pub hands: Vec<Vec<Card>>,
    /// The four row starts.
    pub rows: [Card; 4],
    pub turns: Vec<TurnRecord>,
    /// Every fault, in the order they happened.
    pub invalid: Vec<InvalidRecord>,
    /// Cows that count, per seat.
    pub cows: Vec<u32>,
    /// 0 or 100 per seat.
    pub penalty: Vec<u32>,
    /// `cows + penalty`, per seat; lower is better.
    pub scores: Vec<u32>,
    /// Wall-clock duration of the game in milliseconds.
    pub ms: u64,
    /// Each external bot's reply times, by seat (absent in records of older versions).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub replies: Vec<ReplyTimes>,
}

/// One bot's reply times in one game, in microseconds, in reply order.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ReplyTimes {
    pub seat: usize,
    /// From the message written to the reply read.
    pub wall_us: Vec<u64>,
    /// CPU time of the bot's whole process tree over the same span (absent where the sandbox
    /// does not account CPU time).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub cpu_us: Vec<u64>,
}

impl ReplyTimes {
    /// The record of `seat`'s replies.
    pub fn new(seat: usize, replies: &[crate::player::ReplyTime]) -> ReplyTimes {
        let cpu: Option<Vec<u64>> = replies.iter().map(|r| r.cpu_us).collect();
        ReplyTimes {
            seat,
            wall_us: replies.iter().map(|r| r.wall_us).collect(),
            cpu_us: cpu.unwrap_or_default(),
        }
    }
}

/// One turn: the cards revealed and their placements.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct TurnRecord {
    /// The card each seat played, seat order.
    pub played: Vec<Card>,
    /// One per card, in placement order (lowest card first).
    pub events: Vec<PlacementRecord>,
}

/// Where one card went and what its owner took.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct PlacementRecord {
    pub seat: usize,
    pub card: Card,
    /// The row the card lies in afterwards.
    pub row: usize,
    /// Cards taken (empty when none).
    pub took: Vec<Card>,
    pub cows: u32,
    /// Set when the row was chosen rather than given by the rules.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub reason: Option<RowChoice>,
}

/// Who chose the row of a card lower than every top.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum RowChoice {
    /// The player chose.
    Pick,
    /// The controller chose the cheapest row because the player had faulted.
    Forced,
}

/// A player's fault.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct InvalidRecord {
    pub seat: usize,
    /// 1..=10.
    pub turn: u8,
    pub phase: FaultPhase,
    /// A short machine-readable kind, e.g. `timeout`, `exited`, `not_in_hand`.
    pub kind: String,
    /// What happened, for people.
    pub reason: String,
}

/// What the faulting player was asked for.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum FaultPhase {
    Card,
    Row,
}
