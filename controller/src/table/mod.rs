//! A table: one game about to be played (its seats and who sits in them) and what it leaves
//! (its record and its bots' stderr), whatever the game. [`crate::game::Game::play`] plays
//! it by its game's rules: it starts the players, asks them, applies their answers to the rules, turns bad answers
//! into faults and returns the game's record. Where the record goes is not its business.

pub mod seats;

use std::path::PathBuf;
use std::sync::Arc;

use crate::game::{GameRef, Wire};
use crate::player::transcript::Transcript;
use crate::player::{Console, StderrLog};
use crate::record::GameRecord;
use crate::sandbox::Sandbox;

/// A built-in player as the machinery knows it: its index in its game's
/// [`crate::game::Game::builtins`] (which the game maps to its own player) and its name (`random`, which
/// makes the seat's name `random#2`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct BuiltinKind {
    pub index: u8,
    pub name: &'static str,
}

/// Who plays a seat.
#[derive(Clone)]
pub enum Occupant {
    /// One of the game's built-ins ([`crate::game::Game::builtins`]).
    Builtin(BuiltinKind),
    /// An external bot, started from its working copy by the series' launcher.
    Bot {
        workdir: PathBuf,
        /// Its words on the wire, as its game made them ([`crate::game::Game::wires`]); `None`
        /// in a game whose wire is its own.
        wire: Option<Wire>,
        sandbox: Arc<Sandbox>,
        /// Where its messages and replies are recorded (`take6 check`), if anywhere.
        transcript: Option<Transcript>,
    },
    /// The person at the keyboard (`take6 play`).
    Human(Arc<Console>),
}

/// One seat of a game about to be played.
#[derive(Clone)]
pub struct TableSeat {
    pub name: String,
    pub occupant: Occupant,
}

/// A game to play: what the schedule planned, with its players resolved.
pub struct TableGame {
    pub game: u64,
    /// The game played at this table.
    pub rules: GameRef,
    pub seed: u64,
    pub subset: u64,
    /// Duplicate deals: seat `s` plays the hand dealt to seat `(s + rotation) % seats`.
    pub rotation: usize,
    /// Rounds of the game (at least 1): fresh deals played by the same players.
    pub rounds: u32,
    pub seats: Vec<TableSeat>,
}

/// A bot's stderr in one game.
#[derive(Debug, Clone)]
pub struct SeatLog {
    pub seat: usize,
    pub name: String,
    pub stderr: StderrLog,
}

/// A finished game: its record and what its bots wrote to stderr.
#[derive(Debug, Clone)]
pub struct GameOutcome {
    pub record: GameRecord,
    pub logs: Vec<SeatLog>,
}
