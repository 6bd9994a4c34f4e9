//! A Take 6 seat: who answers the game's questions ([`Player`]) — a built-in, a bot
//! ([`BotPlayer`]: its process and the template set it speaks) or the person at the keyboard —
//! so a table holds a plain `Vec<Seat>`.

use std::future::Future;

use super::bot::BotPlayer;
use super::builtin::{Builtin, Strategy};
use super::game::View;
use super::human::Human;
use super::player::Player;
use crate::player::{Fault, Finished};
use crate::table::BuiltinKind;
use crate::table::seats::SeatPlayer;

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
