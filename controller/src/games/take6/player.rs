//! A Take 6 player: the questions of the game (which card, which row), answered by whoever
//! sits at a seat ([`super::seat::Seat`]).
//!
//! A player answers two questions and is told everything else. It never judges its own
//! answers: the table checks them against the rules.

use std::future::Future;

use super::game::View;
use crate::player::Fault;

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
