//! Kingdomino as played on CodinGame ("Coders of the Realm", 2 to 4 players).
//!
//! [`tiles`] is the 48-tile set, [`kingdom`] one player's 9x9 grid (placement rules, zones,
//! score), [`game`] the turn state machine (draws, turn order, faults, tie-breaks),
//! [`wire`] the CodinGame text format and [`builtins`] two reference players. What the
//! CodinGame referee does, and what we chose where it could not be established, is written
//! down in `/work/notes/kingdomino-referee.md`.

#![warn(missing_docs)]

pub mod builtins;
pub mod check;
pub mod game;
pub mod human;
pub mod kingdom;
pub mod record;
pub mod screen;
pub mod table;
pub mod tiles;
pub mod viewer;
pub mod wire;

pub use record::GameLog;

#[cfg(test)]
mod tests;
