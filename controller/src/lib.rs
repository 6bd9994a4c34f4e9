//! take6: a King-of-the-Hill tournament controller for bot games: Take 6! (6 nimmt!),
//! CodinGame's Kingdomino, and any game whose judge speaks Botzone's JSON protocol (a game
//! folder).
//!
//! The library flows one way, one module per stage:
//! [`config`] → [`bots`] → [`schedule`] → [`table`] (handed to its game's [`game::Game::play`],
//! which drives that game's pure rules, asking its bots through the game-blind
//! [`player::Process`], each inside the [`sandbox`]) → [`record`].
//! The machinery knows a game only through the [`game::Game`] trait; everything that knows a
//! game lives in its own folder under [`games`], whose registry ([`games::find`]) is the one
//! place that maps a name to a game. [`series`] wires the stages together for `take6 run`
//! (and `check`), [`league`] for a hill that lives across runs, [`compare`] for two versions'
//! paired games; all three start through one `series::start::Setup` and continue by one rule
//! ([`series::continued`]); each owns a single reporter,
//! which hands typed events to sinks (one per output); every output can be rebuilt by
//! replaying `games.jsonl`. Files in folders others control are opened only through [`door`],
//! untrusted text reaches a terminal, log, CSV or page only through [`untrusted`]. `main.rs`
//! is only the command line.

pub(crate) mod affinity;
pub mod bots;
pub mod check;
pub mod clean;
pub mod compare;
pub mod config;
pub(crate) mod decimal;
pub mod door;
pub mod folder;
pub mod game;
pub mod games;
pub mod league;
pub mod names;
pub mod player;
pub mod record;
pub(crate) mod reply_times;
pub(crate) mod repo;
pub mod report;
pub mod sandbox;
pub mod schedule;
pub mod seed;
pub mod series;
pub(crate) mod shard;
pub mod signals;
pub mod starter;
pub mod stop_clock;
pub mod table;
pub mod untrusted;
