//! take6: a King-of-the-Hill tournament controller for bot games: Take 6! (6 nimmt!) and
//! Kingdomino.
//!
//! The library is a one-way pipeline, one module per stage:
//! [`config`] → [`bots`] → [`schedule`] → [`table`] (handed by [`games::play`] to its game's
//! own table, which drives that game's pure rules through [`player`]s) → [`record`].
//! Everything that knows a game lives under [`games`] (Take 6's rules are also [`game`], its
//! wire [`protocol`]). [`series`] wires the stages together and owns the single reporter,
//! which hands typed events to sinks (one per output); every output can be rebuilt by
//! replaying `games.jsonl`. `main.rs` is only the command line.

pub mod affinity;
pub mod bots;
pub mod check;
pub mod clean;
pub mod config;
pub mod decimal;
pub mod folder;
pub mod games;
pub mod names;
pub mod player;
pub mod record;
pub mod reply_times;
pub mod repo;
pub mod sandbox;
pub mod schedule;
pub mod seed;
pub mod series;
pub mod shard;
pub mod signals;
pub mod starter;
pub mod table;
pub mod untrusted;

/// Take 6's rules, kept at the paths the rest of the crate and the tests use.
pub use games::take6::game;
/// Take 6's wire: template sets and reply patterns.
pub use games::take6::protocol;
