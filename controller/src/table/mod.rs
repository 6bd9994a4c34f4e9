//! A table: one game about to be played (its seats and who sits in them) and what it leaves
//! (its record and its bots' stderr), whatever the game. [`crate::game::Game::play`] plays
//! it by its game's rules: it starts the players, asks them, applies their answers to the
//! rules, turns bad answers into faults and returns the game's record. Where the record goes is not its business.

pub mod seats;

use std::any::Any;
use std::fmt;
use std::path::PathBuf;
use std::sync::Arc;

use crate::player::transcript::Transcript;
use crate::player::{Console, StderrLog};
use crate::record::{GameName, GameRecord, RoundRecord};
use crate::sandbox::Sandbox;

/// A built-in player as the machinery knows it: its index in its game's
/// [`crate::game::GameFacts::builtins`] (which the game maps to its own player) and its name
/// (`random`, which makes the seat's name `random#2`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct BuiltinKind {
    pub index: u8,
    pub name: &'static str,
}

/// Who plays a seat.
#[derive(Clone)]
pub enum Occupant {
    /// One of the game's built-ins ([`crate::game::GameFacts::builtins`]).
    Builtin(BuiltinKind),
    /// An external bot, started from its working copy by the series' launcher.
    Bot {
        workdir: PathBuf,
        /// Its words on the wire, as its game made them ([`crate::game::Game::wires`]); `None`
        /// in a game whose wire is its own.
        wire: Option<Wire>,
        /// The language take6 recognised its source as and built, from what take6 found when
        /// it prepared the bot (`None`: a `launch` of the bot's own, whatever it holds). A
        /// game's limits per language follow this, never text the bot wrote.
        language: Option<crate::bots::generate::Language>,
        /// The modes its `bot.toml` chose, as read when it was prepared.
        modes: crate::bots::Modes,
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
    /// The name of the game played at this table, for its record (the game itself is the
    /// one whose [`crate::game::Game::play`] the table is handed to).
    pub rules: GameName,
    pub seed: u64,
    pub subset: u64,
    /// Duplicate deals: seat `s` plays the hand dealt to seat `(s + rotation) % seats`.
    pub rotation: usize,
    /// Rounds of the game (at least 1): fresh deals played by the same players.
    pub rounds: u32,
    pub seats: Vec<TableSeat>,
}

impl TableGame {
    /// The record of this table's game with nothing played yet: the envelope from the table
    /// (number, game, seed, subset, rotation, players, which seats are built-ins) and one
    /// empty round. A game's table fills in what its game records.
    pub fn blank_record(&self) -> GameRecord {
        GameRecord {
            game: self.game,
            rules: self.rules.clone(),
            seed: self.seed,
            subset: self.subset,
            rotation: self.rotation,
            players: self.seats.iter().map(|s| s.name.clone()).collect(),
            builtin: self
                .seats
                .iter()
                .map(|s| matches!(s.occupant, Occupant::Builtin(_)))
                .collect(),
            rounds: vec![RoundRecord::default()],
            ..GameRecord::default()
        }
    }
}

/// One bot's words on the wire, as its game made them from the bot's choice for a series
/// ([`Wires::wire`]). The machinery keeps it with the bot, writes its fingerprint in
/// `series.toml` and hands it back with each of the bot's seats
/// ([`Occupant::Bot`]); what it holds is the game's own. Cloned with every game's
/// seats, so a clone allocates nothing.
#[derive(Clone)]
pub struct Wire {
    /// What the wire says, as a hash: a resume refuses a bot whose wire changed since its
    /// series began.
    pub fingerprint: Arc<str>,
    /// The wire as that refusal names it, e.g. `template set 'mine' (templates/mine.toml)`.
    pub shown: Arc<str>,
    /// The game's own value (Take 6: the compiled template set), taken back by its table
    /// with [`Wire::get`], once per seat and game.
    pub value: Arc<dyn Any + Send + Sync>,
}

impl Wire {
    /// The game's own value, if it is a `T`.
    pub fn get<T: Any + Send + Sync>(&self) -> Option<Arc<T>> {
        Arc::clone(&self.value).downcast().ok()
    }
}

impl fmt::Debug for Wire {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Wire({})", self.shown)
    }
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

/// What a bot's fault does to its seat, carried out by [`crate::table::seats::Seats::fault`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum OnFault {
    /// This built-in (one of [`crate::game::GameFacts::builtins`]) takes the seat over and
    /// plays the game to its end.
    Substitute(BuiltinKind),
    /// The player is out of the game; its score stands as the rules say.
    Eliminate,
}

impl OnFault {
    /// Who plays a seat on once its bot faulted: the built-in that takes it over, or `None`:
    /// the player is out and nobody plays the seat.
    pub fn successor(self) -> Option<BuiltinKind> {
        match self {
            OnFault::Substitute(kind) => Some(kind),
            OnFault::Eliminate => None,
        }
    }
}
