//! A person at the keyboard (`take6 play`): the board and hand are printed on stdout, cards and
//! rows are typed on stdin. A person is never faulted for a typo: a bad answer is asked again.
//! Only the end of input (Ctrl-D) gives the seat up: recorded as the person leaving (kind
//! `left`), a built-in finishes the game. A refused answer is told why (not a number, not in
//! the hand, not a row).
//!
//! What is printed is made by the pure functions of [`screen`], so it is tested without a
//! terminal; colours are used only on a terminal, and never when `NO_COLOR` is set.

pub mod screen;

use std::io::{IsTerminal, Write};
use std::sync::Arc;

use super::game::{Card, Phase, ROWS, View};
use super::player::Player;
use crate::player::{Console, Fault};
use screen::Screen;

/// Why a line typed is not an answer to the question asked, said back to the person.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{0}")]
struct NotAnAnswer(String);

/// The player at the keyboard.
pub struct Human {
    console: Arc<Console>,
    screen: Screen,
    /// The rows when this turn's cards were chosen, and the cards revealed: what is needed to
    /// show where every card went once the next board is known.
    pending: Option<([Vec<Card>; ROWS], Vec<Card>)>,
    rows: [Vec<Card>; ROWS],
}

impl Human {
    pub fn new(console: Arc<Console>) -> Human {
        let colour = std::io::stdout().is_terminal() && std::env::var_os("NO_COLOR").is_none();
        Human {
            console,
            screen: Screen { colour },
            pending: None,
            rows: Default::default(),
        }
    }

    /// Asks `question` until the answer passes `accept`, saying why each refused one is not
    /// an answer (the error of `accept`). The end of input is the person leaving.
    async fn ask<T>(
        &self,
        question: &str,
        accept: impl Fn(&str) -> Result<T, NotAnAnswer>,
    ) -> Result<T, Fault> {
        loop {
            say(question);
            let Some(line) = self.console.read_line().await else {
                say("\n  You left the game (end of input); a built-in plays your seat.\n");
                return Err(Fault::Left);
            };
            match accept(line.trim()) {
                Ok(answer) => return Ok(answer),
                Err(why) => say(&format!("  '{}' {why}\n", line.trim())),
            }
        }
    }

    /// Prints where last turn's cards went, now that the board after them is known.
    fn settle(&mut self, view: &View) {
        if let Some((before, used)) = self.pending.take() {
            let after: Vec<Vec<Card>> = view.rows.iter().map(|r| r.cards.clone()).collect();
            let placed = screen::placements(&before, &used, &after);
            say(&self.screen.turn_summary(view, &placed));
        }
    }
}

/// Prints to stdout at once (prompts have no newline).
fn say(text: &str) {
    let mut out = std::io::stdout().lock();
    let _ = out.write_all(text.as_bytes());
    let _ = out.flush();
}

impl Player for Human {
    async fn tell(&mut self, view: &View) {
        match view.phase {
            Phase::Cards => say(&screen::greeting(view)),
            Phase::Used => {
                // What a bot sees, in its order: the turn's cards before any row is asked for.
                say(&self.screen.revealed(view));
                self.pending = Some((self.rows.clone(), view.used.to_vec()));
            }
            Phase::Score => {
                self.settle(view);
                say(&self.screen.final_scores(view));
            }
            Phase::Start | Phase::Turn | Phase::Pickrow | Phase::Cardgain | Phase::Invalid => {}
        }
    }

    async fn choose_card(&mut self, view: &View) -> Result<i64, Fault> {
        self.settle(view);
        for (row, r) in self.rows.iter_mut().zip(view.rows.iter()) {
            *row = r.cards.clone();
        }
        say(&self.screen.board(view));
        let mut hand = view.hand.clone();
        hand.sort_unstable();
        let listed = hand
            .iter()
            .map(Card::to_string)
            .collect::<Vec<_>>()
            .join(" ");
        self.ask(
            "Your card (Ctrl-D leaves the game): ",
            |answer| match answer.parse::<i64>() {
                Ok(n) if hand.iter().any(|&c| i64::from(c) == n) => Ok(n),
                Ok(_) => Err(NotAnAnswer(format!(
                    "is not in your hand; type one of {listed}"
                ))),
                Err(_) => Err(NotAnAnswer(format!(
                    "is not a card number; type one of {listed}"
                ))),
            },
        )
        .await
    }

    async fn choose_row(&mut self, view: &View) -> Result<i64, Fault> {
        let rows = view.rows.len();
        say(&self.screen.row_question(view));
        let last = rows.saturating_sub(1);
        self.ask(
            &format!("Row to take (0-{last}; Ctrl-D leaves the game): "),
            |answer| match answer.parse::<usize>() {
                Ok(r) if r < rows => Ok(r as i64),
                _ => Err(NotAnAnswer(format!(
                    "is not a row; type a row number from 0 to {last}"
                ))),
            },
        )
        .await
    }
}
