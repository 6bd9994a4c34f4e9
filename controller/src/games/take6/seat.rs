//! A Take 6 seat's player: the questions of the game ([`Player`]: which card, which row) and
//! who answers them — a built-in, a bot ([`BotPlayer`]: its process and the template set it
//! speaks) or the person at the keyboard — so a table holds a plain `Vec<Seat>`.
//!
//! A player answers two questions and is told everything else. It never judges its own
//! answers: the table checks them against the rules.

use std::future::Future;

use super::bot::BotPlayer;
use super::builtin::{Builtin, Strategy};
use super::game::View;
use super::human::Human;
use crate::player::{Fault, Finished};
use crate::table::BuiltinKind;
use crate::table::seats::SeatPlayer;

/// Something that can play a seat of Take 6.
///
/// The futures are `Send` so that a table can run on any worker thread.
pub trait Player: Send {
    /// Delivers a message that needs no answer. Delivery problems are not reported here: they
    /// surface as a fault at the next question, where the rules say what a fault costs.
    fn tell(&mut self, view: &View) -> impl Future<Output = ()> + Send;

    /// Asks for a card; the answer is checked by the table.
    fn choose_card(&mut self, view: &View) -> impl Future<Output = Result<i64, Fault>> + Send;

    /// Asks for a row to take; the answer is checked by the table.
    fn choose_row(&mut self, view: &View) -> impl Future<Output = Result<i64, Fault>> + Send;
}

/// A seat's player: one of the kinds, so a table holds a plain `Vec<Seat>`.
// A table holds ten of these for a whole game; the size of a built-in's RNG state does not matter.
#[allow(clippy::large_enum_variant)]
pub enum Seat {
    Builtin(Builtin),
    Bot(BotPlayer),
    Human(Human),
}

impl Player for Seat {
    async fn tell(&mut self, view: &View) {
        match self {
            Seat::Builtin(p) => p.tell(view).await,
            Seat::Bot(p) => p.tell(view).await,
            Seat::Human(p) => p.tell(view).await,
        }
    }

    async fn choose_card(&mut self, view: &View) -> Result<i64, Fault> {
        match self {
            Seat::Builtin(p) => p.choose_card(view).await,
            Seat::Bot(p) => p.choose_card(view).await,
            Seat::Human(p) => p.choose_card(view).await,
        }
    }

    async fn choose_row(&mut self, view: &View) -> Result<i64, Fault> {
        match self {
            Seat::Builtin(p) => p.choose_row(view).await,
            Seat::Bot(p) => p.choose_row(view).await,
            Seat::Human(p) => p.choose_row(view).await,
        }
    }
}

/// How the table's seat holder ([`crate::table::seats::Seats`]) makes a built-in and ends a
/// bot: sent its last message (`invalid` or `score`, the view given), then shut down.
impl SeatPlayer for Seat {
    type Farewell = View;

    fn builtin(kind: BuiltinKind, seed: u64, seat: usize) -> Seat {
        Seat::Builtin(Builtin::new(Strategy::of(kind), seed, seat))
    }

    fn is_bot(&self) -> bool {
        matches!(self, Seat::Bot(_))
    }

    fn end(self, farewell: View) -> Option<impl Future<Output = Finished> + Send + 'static> {
        match self {
            Seat::Bot(p) => Some(p.finish(Some(farewell))),
            Seat::Builtin(_) | Seat::Human(_) => None,
        }
    }
}
