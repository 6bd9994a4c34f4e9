//! Kingdomino (placeholder until the rules land).

/// Placeholder until the rules land.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct GameLog {}
