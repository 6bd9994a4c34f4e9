//! A person at the keyboard (`take6 play`): the board and hand are printed on stdout, cards and
//! rows are typed on stdin. A person is never faulted for a typo: a bad answer is asked again.
//! Only the end of input (Ctrl-D) gives the seat up, like a bot that exits.

use std::io::Write;
use std::sync::Arc;

use tokio::io::{AsyncBufReadExt, BufReader, Lines, Stdin};
use tokio::sync::Mutex;

use super::{Fault, Player};
use crate::game::{Card, Phase, View, cows_in};

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
    async fn read_line(&self) -> Option<String> {
        self.lines.lock().await.next_line().await.ok().flatten()
    }
}

/// The player at the keyboard.
pub struct Human {
    console: Arc<Console>,
}

impl Human {
    pub fn new(console: Arc<Console>) -> Human {
        Human { console }
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
}

/// Prints to stdout at once (prompts have no newline).
fn say(text: &str) {
    let mut out = std::io::stdout().lock();
    let _ = out.write_all(text.as_bytes());
    let _ = out.flush();
}

fn cards(list: &[Card]) -> String {
    list.iter()
        .map(Card::to_string)
        .collect::<Vec<_>>()
        .join(" ")
}

/// `name=value` for each seat, seat order.
fn by_name(view: &View, values: &[impl std::fmt::Display]) -> String {
    values
        .iter()
        .zip(&view.names)
        .map(|(v, name)| format!("{name}={v}"))
        .collect::<Vec<_>>()
        .join(", ")
}

fn cows_text(n: u32) -> String {
    format!("{n} cow{}", if n == 1 { "" } else { "s" })
}

/// The board and the hand, as a person reads them.
pub fn describe(view: &View) -> String {
    let mut text = format!("\nTurn {} of 10\n", view.turn);
    for (i, row) in view.rows.iter().enumerate() {
        text.push_str(&format!(
            "  row {i}: {:<20} ({})\n",
            cards(&row.cards),
            cows_text(row.cows)
        ));
    }
    let cows: Vec<String> = view
        .hand
        .iter()
        .map(|&c| format!("{c}({})", cows_in(&[c])))
        .collect();
    text.push_str(&format!("  your hand: {}\n", cows.join(" ")));
    text
}

impl Player for Human {
    async fn tell(&mut self, view: &View) {
        match view.phase {
            Phase::Cards => say(&format!(
                "\nNew game: you are {} at a table of {}.\n",
                view.names[view.seat], view.n_players
            )),
            Phase::Used => say(&format!("  played: {}\n", by_name(view, &view.used))),
            Phase::Cardgain => say(&format!(
                "  you take {} ({})\n",
                cards(&view.gained),
                cows_text(view.gained_cows)
            )),
            Phase::Score => say(&format!(
                "\nGame over: your score is {}. Scores: {}\n",
                view.score,
                by_name(view, &view.scores)
            )),
            Phase::Start | Phase::Turn | Phase::Pickrow | Phase::Invalid => {}
        }
    }

    async fn choose_card(&mut self, view: &View) -> Result<i64, Fault> {
        say(&describe(view));
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
        say(&describe(view));
        let rows = view.rows.len();
        let card = view.used.get(view.seat).copied().unwrap_or_default();
        self.ask(
            &format!("Your {card} is lower than every row: which row do you take (0-3)? "),
            |answer| {
                answer
                    .parse::<usize>()
                    .ok()
                    .filter(|&r| r < rows)
                    .map(|r| r as i64)
            },
        )
        .await
    }
}
