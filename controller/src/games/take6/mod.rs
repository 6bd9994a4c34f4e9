//! Take 6! (6 nimmt!): everything that knows the game, and its [`Game`] implementation.
//! [`game`] holds the rules as pure functions and plain data, [`protocol`] the words on the
//! wire (template sets, reply patterns), [`check`] the independent rules checker `take6
//! verify` runs ([`verify`]: the deal and summary checks), [`replay`] a game turn by turn for
//! people, [`table`] one game with bots, built-ins and a person (and games of built-ins only,
//! synchronously), [`seat`] the game's questions and who answers them ([`bot`] a bot through
//! its template set, [`builtin`] its built-in players, [`human`] a person at the keyboard),
//! [`viewer`] its board in report.html, [`advice`] what `take6 check` says of a fault.

pub mod advice;
pub mod bot;
pub mod builtin;
pub mod check;
#[cfg(test)]
pub(crate) mod fixtures;
pub mod game;
pub mod human;
pub mod player;
pub mod protocol;
pub mod replay;
pub mod seat;
pub mod table;
pub mod verify;
pub mod viewer;

use std::path::Path;
use std::sync::LazyLock;

use crate::game::{
    Advice, DefaultLimits, FastBuiltins, FastGame, FastTable, Game, GameFacts, GameFuture,
    SeatRange, Supports, Viewer, Wires,
};
use crate::player::Limits;
use crate::record::{Direction, FaultPhase, GameRecord, InvalidRecord, Model};
use crate::table::OnFault;
use crate::table::TableGame;

/// The game's name on the command line and in records (which leave it out: the default).
pub const NAME: &str = "take6";

/// The fault phase of a seat asked for a card.
pub const CARD: FaultPhase = FaultPhase::named("card");
/// The fault phase of a seat asked for a row.
pub const ROW: FaultPhase = FaultPhase::named("row");

/// The fewest players at a table.
pub const MIN_TABLE: usize = 2;

/// Take 6!: 2 to 10 players, lower scores win, a built-in takes a faulted seat.
pub struct Take6;

/// Take 6!'s facts.
pub(crate) static FACTS: LazyLock<GameFacts> = LazyLock::new(|| GameFacts {
    name: NAME.to_string(),
    title: "Take 6!".to_string(),
    seats: SeatRange {
        fewest: MIN_TABLE,
        most: game::MAX_PLAYERS,
        default: game::MAX_PLAYERS,
    },
    default_limits: DefaultLimits {
        first_reply_ms: 3000,
        reply_ms: 1000,
    },
    direction: Direction::Lower,
    model: Model::Points,
    supports: Supports {
        rounds: true,
        duplicate_deals: true,
        summary_records: true,
        templates: true,
    },
    on_fault: OnFault::Substitute(builtin::SUBSTITUTE),
    builtins: builtin::BUILTINS.to_vec(),
    builtin_label: "built-in",
    wire_label: "the game's one wire",
    dealt_by_seed: true,
    arena_clock: crate::game::ArenaClock::WALL,
});

impl Game for Take6 {
    fn facts(&self) -> &GameFacts {
        &FACTS
    }

    fn wires(&self, folder: Option<&Path>) -> Result<Option<Box<dyn Wires>>, String> {
        let library = protocol::TemplateLibrary::load(folder).map_err(|e| e.to_string())?;
        Ok(Some(Box::new(library)))
    }

    fn play(&self, table: TableGame, limits: Limits) -> GameFuture {
        Box::pin(table::play(table, limits))
    }

    fn check(
        &self,
        record: &GameRecord,
        _: &crate::game::JudgePermit,
    ) -> Result<(), crate::game::Flaw> {
        check::check_record(record).map_err(|e| crate::game::Flaw(e.0))
    }

    fn check_deal(&self, record: &GameRecord) -> Result<(), crate::game::Flaw> {
        verify::check_deal(record).map_err(|e| crate::game::Flaw(e.0))
    }

    fn check_summary(&self, record: &GameRecord) -> Result<(), crate::game::Flaw> {
        verify::check_summary(record).map_err(|e| crate::game::Flaw(e.0))
    }

    fn replay_text(&self, record: &GameRecord) -> String {
        replay::replay_text(record)
    }

    fn viewer(&self) -> Viewer {
        Viewer {
            script: viewer::SCRIPT.to_string(),
            board_html: viewer::BOARD_HTML.to_string(),
            shared: serde_json::Map::new(),
        }
    }

    fn viewer_data(&self, record: &GameRecord) -> serde_json::Value {
        serde_json::to_value(viewer::ViewerTake6::of(record)).expect("plain data")
    }

    fn advice(&self, record: &GameRecord, fault: &InvalidRecord, reply: Option<&str>) -> Advice {
        advice::advice(record, fault, reply)
    }

    fn fast_builtins(&self) -> Option<&dyn FastBuiltins> {
        Some(self)
    }

    fn starter(&self, lang: &str) -> Option<(&'static str, &'static str)> {
        Some(match lang {
            "python" => ("bot.py", include_str!("starters/bot.py")),
            "c" => ("bot.c", include_str!("starters/bot.c")),
            "cpp" => ("bot.cpp", include_str!("starters/bot.cpp")),
            "java" => ("Bot.java", include_str!("starters/Bot.java")),
            "js" => ("bot.js", include_str!("starters/bot.js")),
            "rust" => ("main.rs", include_str!("starters/main.rs")),
            "go" => ("main.go", include_str!("starters/main.go")),
            _ => return None,
        })
    }
}

impl FastBuiltins for Take6 {
    fn table(&self) -> Box<dyn FastTable> {
        Box::new(Fast::default())
    }
}

/// One thread's synchronous table of Take 6 built-ins ([`table::builtins`]).
#[derive(Default)]
struct Fast {
    scratch: table::builtins::Scratch,
    strategies: Vec<builtin::Strategy>,
}

impl FastTable for Fast {
    fn blank_record(&self) -> GameRecord {
        table::builtins::blank_record()
    }

    fn play_into(&mut self, game: &FastGame<'_>, turns: bool, record: &mut GameRecord) {
        self.strategies.clear();
        self.strategies
            .extend(game.seats.iter().map(|&k| builtin::Strategy::of(k)));
        let table = table::builtins::BuiltinTable {
            game: game.game,
            seed: game.seed,
            subset: game.subset,
            rotation: game.rotation,
            rounds: game.rounds,
            seats: &self.strategies,
        };
        table::builtins::play_into(&table, turns, &mut self.scratch, record);
    }

    fn write_record(&self, record: &GameRecord, out: &mut Vec<u8>) {
        table::builtins::write_record(record, out);
    }
}
