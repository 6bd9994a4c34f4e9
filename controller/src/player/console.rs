//! The terminal of `take6 play`, whatever the game: the lines a person types, shared by every
//! game of the series so that no typed line is lost between games.

use std::sync::Arc;

use tokio::io::{AsyncBufReadExt, BufReader, Lines, Stdin};
use tokio::sync::Mutex;

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
