//! A Take 6 seat's player: a built-in, a bot's process or the person at the keyboard, so a
//! table holds a plain `Vec<Seat>`.

use super::builtin::Builtin;
use super::game::View;
use super::human::Human;
use crate::player::{Fault, Player, Process};

/// A seat's player: one of the kinds, so a table holds a plain `Vec<Seat>`.
// A table holds ten of these for a whole game; the size of a built-in's RNG state does not matter.
#[allow(clippy::large_enum_variant)]
pub enum Seat {
    Builtin(Builtin),
    Process(Process),
    Human(Human),
}

impl Player for Seat {
    async fn tell(&mut self, view: &View) {
        match self {
            Seat::Builtin(p) => p.tell(view).await,
            Seat::Process(p) => p.tell(view).await,
            Seat::Human(p) => p.tell(view).await,
        }
    }

    async fn choose_card(&mut self, view: &View) -> Result<i64, Fault> {
        match self {
            Seat::Builtin(p) => p.choose_card(view).await,
            Seat::Process(p) => p.choose_card(view).await,
            Seat::Human(p) => p.choose_card(view).await,
        }
    }

    async fn choose_row(&mut self, view: &View) -> Result<i64, Fault> {
        match self {
            Seat::Builtin(p) => p.choose_row(view).await,
            Seat::Process(p) => p.choose_row(view).await,
            Seat::Human(p) => p.choose_row(view).await,
        }
    }
}
