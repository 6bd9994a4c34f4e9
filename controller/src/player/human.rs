//! A person at the keyboard (`take6 play`): the board and hand are printed on stdout, cards and
//! rows are typed on stdin. A person is never faulted for a typo: a bad answer is asked again.
//! Only the end of input (Ctrl-D) gives the seat up, like a bot that exits.
//!
//! What is printed is made by the pure functions of [`screen`], so it is tested without a
//! terminal; colours are used only on a terminal, and never when `NO_COLOR` is set.

pub mod screen;

use std::io::{IsTerminal, Write};
use std::sync::Arc;

use tokio::io::{AsyncBufReadExt, BufReader, Lines, Stdin};
use tokio::sync::Mutex;

use super::{Fault, Player};
use crate::game::{Card, Phase, ROWS, View};
use screen::Screen;

/// The terminal, shared by every game of a `take6 play` series so that no typed line is lost
/// between games.
pub struct Console {
    lines: Mutex<Lines<BufReader<Stdin>>>,
}

impl Console {
    pub fn new() -> Arc<Console> {
        Arc::new(Console {
            lines: Mutex::new(BufReader::new(tokio::io::stdin()).lines()),
        })
    }

    /// The next line typed, or `None` at the end of input.
    pub(crate) async fn read_line(&self) -> Option<String> {
        self.lines.lock().await.next_line().await.ok().flatten()
    }
}

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

    /// Asks `question` until the answer passes `accept`.
    async fn ask<T>(&self, question: &str, accept: impl Fn(&str) -> Option<T>) -> Result<T, Fault> {
        loop {
            say(question);
            let Some(line) = self.console.read_line().await else {
                return Err(Fault::Exited { status: None });
            };
            match accept(line.trim()) {
                Some(answer) => return Ok(answer),
                None => say(&format!("  '{}' is not an answer here.\n", line.trim())),
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
            Phase::Cards => say(&format!(
                "\nNew game: you are {} at a table of {}: {}.\n",
                view.names[view.seat],
                view.n_players,
                view.names.join(", ")
            )),
            Phase::Used => {
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
        let hand = view.hand.clone();
        self.ask("Your card: ", |answer| {
            answer
                .parse::<Card>()
                .ok()
                .filter(|c| hand.contains(c))
                .map(i64::from)
        })
        .await
    }

    async fn choose_row(&mut self, view: &View) -> Result<i64, Fault> {
        let rows = view.rows.len();
        say(&self.screen.row_question(view));
        self.ask("Row to take (0-3): ", |answer| {
            answer
                .parse::<usize>()
                .ok()
                .filter(|&r| r < rows)
                .map(|r| r as i64)
        })
        .await
    }
}
