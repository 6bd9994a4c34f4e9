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

use std::sync::LazyLock;

use crate::game::{
    Advice, DefaultLimits, Game, GameFacts, GameFuture, Refusal, Refusals, SeatRange, Supports,
    Viewer,
};
use crate::player::Limits;
use crate::record::{Direction, FaultPhase, GameRecord, InvalidRecord, Model};
use crate::table::OnFault;
use crate::table::{BuiltinKind, TableGame};

/// The game's name on the command line, in `bot.toml` and in records.
pub const NAME: &str = "kingdomino";

/// The fault phase of a seat asked for its sequence (its `PUT` and `PICK` are one reply).
pub const MOVE: FaultPhase = FaultPhase::named("move");

/// The built-in that plays the placement scoring most now ([`builtins::Greedy`]).
pub const GREEDY: BuiltinKind = BuiltinKind {
    index: 0,
    name: "greedy",
};

/// The built-in that plays any legal sequence ([`builtins::Random`]).
pub const RANDOM: BuiltinKind = BuiltinKind {
    index: 1,
    name: "random",
};

/// The built-ins, in padding order.
const BUILTINS: [BuiltinKind; 2] = [GREEDY, RANDOM];

/// Kingdomino as the CodinGame arena plays it: 2 to 4 players, higher scores win, a faulted
/// player is out (its kingdom still scores).
pub struct Kingdomino;

/// Kingdomino's facts: the CodinGame arena's limits (1000 ms for the first turn, 50 ms
/// after); a game is one game (no rounds), there are no hands to rotate, and a game is
/// recorded in full.
pub(crate) static FACTS: LazyLock<GameFacts> = LazyLock::new(|| GameFacts {
    name: NAME.to_string(),
    title: "Kingdomino".to_string(),
    seats: SeatRange {
        fewest: game::MIN_PLAYERS,
        most: game::MAX_PLAYERS,
        default: game::MAX_PLAYERS,
    },
    default_limits: DefaultLimits {
        first_reply_ms: 1000,
        reply_ms: 50,
    },
    direction: Direction::Higher,
    model: Model::Points,
    supports: Supports {
        rounds: false,
        duplicate_deals: false,
        summary_records: false,
        templates: false,
    },
    on_fault: OnFault::Eliminate,
    builtins: BUILTINS.to_vec(),
    builtin_label: "built-in",
    wire_label: "CodinGame's wire",
    dealt_by_seed: true,
    arena_clock: crate::game::ArenaClock::WALL,
});

impl Game for Kingdomino {
    fn facts(&self) -> &GameFacts {
        &FACTS
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

    fn replay_text(&self, record: &GameRecord) -> String {
        screen::replay_text(record)
    }

    fn viewer(&self) -> Viewer {
        let mut shared = serde_json::Map::new();
        shared.insert("tiles".into(), viewer::tiles_json());
        Viewer {
            script: viewer::SCRIPT.to_string(),
            board_html: viewer::BOARD_HTML.to_string(),
            shared,
        }
    }

    fn viewer_data(&self, record: &GameRecord) -> serde_json::Value {
        serde_json::json!({ "kingdomino": viewer::ViewerKingdomino::of(record) })
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

    fn advice(&self, record: &GameRecord, fault: &InvalidRecord, _: Option<&str>) -> Advice {
        Advice {
            asked: "putting and picking a tile".into(),
            correct: wire::correct_reply(fault.turn, record.players.len()),
        }
    }

    /// Every PUT that broke a placement rule (its tile discarded); a tile that fits nowhere
    /// is not the bot's doing and is not judged.
    fn refusals(&self, record: &GameRecord, seat: usize) -> Refusals {
        use game::PutOutcome;
        let mut out = Refusals {
            what: "placements",
            ..Refusals::default()
        };
        let Ok(log) = GameLog::of(record) else {
            return out;
        };
        for m in log.moves.iter().filter(|m| m.seat == seat && !m.eliminated) {
            let Some(PutOutcome::Placed | PutOutcome::Illegal(_)) = m.outcome else {
                continue;
            };
            out.judged += 1;
            if let Some(PutOutcome::Illegal(illegal)) = m.outcome {
                let shown = match (m.put, m.tile) {
                    (Some(p), Some(t)) => format!("PUT {} {} {} (tile {t})", p.x, p.y, p.rotation),
                    (Some(p), None) => format!("PUT {} {} {}", p.x, p.y, p.rotation),
                    (None, _) => "no PUT".to_string(),
                };
                out.refused.push(Refusal {
                    turn: u32::from(m.turn),
                    shown,
                    rule: illegal.map_or("a PUT is due", |i| i.rule()).to_string(),
                    why: illegal.map_or("no PUT was given".to_string(), |i| i.to_string()),
                });
            }
        }
        out
    }
}

#[cfg(test)]
mod tests;
