//! What a Kingdomino game adds to its line of `games.jsonl`, as the record's body: every
//! sequence and elimination in order. With the game's seed (which draws the tiles) that is the whole game, so `take6
//! verify` re-derives every kingdom and score from it, and a viewer can draw it turn by turn.

use serde::{Deserialize, Serialize};

use super::game::MoveRecord;

/// What is wrong with a Kingdomino record: the first inconsistency found, in words.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{0}")]
pub struct BadRecord(pub String);

/// The moves of one Kingdomino game.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct GameLog {
    /// Every sequence played (its PUT, what the PUT did, its PICK and message) and every
    /// elimination, in the order they happened.
    pub moves: Vec<MoveRecord>,
}

impl GameLog {
    /// The moves of a Kingdomino record, from its body (the `kingdomino` field of a line of
    /// an earlier version reads as the body).
    pub fn of(record: &crate::record::GameRecord) -> Result<GameLog, BadRecord> {
        let body = (record.body.as_ref())
            .ok_or_else(|| BadRecord("a Kingdomino record without its moves".into()))?;
        body.read()
            .map_err(|e| BadRecord(format!("a Kingdomino record's moves: {e}")))
    }

    /// The log as its record's body.
    pub fn into_body(self) -> crate::record::Body {
        crate::record::Body::new(&self)
    }
}
