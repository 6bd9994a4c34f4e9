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
pub use jsonl::{RecordError, games_jsonl_line, read_games_jsonl};
pub use tally::{Standing, Tally};

/// One finished game, as written to `games.jsonl`. Seats are in the game's seat order.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct GameRecord {
    /// The game's number in the series, from 0.
    pub game: u64,
    /// The seed every random choice of this game derives from.
    pub seed: u64,
    /// The number of the table's set of bots among all subsets of table size, in
    /// `combinations` order; 0 when every bot sits at one table.
    pub subset: u64,
    /// Under duplicate deals, how far the hands are rotated: seat `s` holds the hand dealt to
    /// seat `(s + rotation) % players`. Absent (0) otherwise, so older records read the same.
    #[serde(default, skip_serializing_if = "is_zero")]
    pub rotation: usize,
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
}

/// Whether a count is zero, so the field is left out of the JSON.
fn is_zero(n: &usize) -> bool {
    *n == 0
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
