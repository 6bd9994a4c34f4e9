//! What a Kingdomino game adds to its line of `games.jsonl`: every sequence and elimination in
//! order. With the game's seed (which draws the tiles) that is the whole game, so `take6
//! verify` re-derives every kingdom and score from it, and a viewer can draw it turn by turn.

use serde::{Deserialize, Serialize};

use super::game::MoveRecord;

/// The moves of one Kingdomino game.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct GameLog {
    /// Every sequence played (its PUT, what the PUT did, its PICK and message) and every
    /// elimination, in the order they happened.
    pub moves: Vec<MoveRecord>,
}
