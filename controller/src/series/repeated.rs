//! Under `take6 check`: raises `enough` once a bot has the same fault (kind and phase) in two
//! games in a row, so that no more games are started (a bot that never flushes
//! would otherwise cost every game of the check its wall limit and repeat one fault block). `check` plays its
//! games one at a time and each game is seen here before its table is free for the next
//! (see [`super::dispatch`]), so the check stops after exactly the second of them. `check`'s
//! report then says it stopped and why.

use std::collections::HashMap;
use std::sync::Arc;
use std::sync::Mutex;
use std::sync::atomic::{AtomicBool, Ordering};

use crate::record::GameRecord;

/// A seat's first fault in a game: its kind and phase.
pub fn signature(game: &GameRecord, seat: usize) -> Option<(String, String)> {
    (game.first().invalid.iter())
        .find(|f| f.seat == seat)
        .map(|f| (f.kind.clone(), f.phase.as_str().to_string()))
}

/// Watches each bot's faults game after game.
pub struct RepeatedFault {
    last: Mutex<HashMap<String, Option<(String, String)>>>,
    enough: Arc<AtomicBool>,
}

impl RepeatedFault {
    pub fn new(enough: Arc<AtomicBool>) -> RepeatedFault {
        RepeatedFault {
            last: Mutex::default(),
            enough,
        }
    }

    /// A game just played, in the order the games are played: raises `enough` when one of
    /// its bots had the same first fault as in its game before.
    pub fn see(&self, game: &GameRecord) {
        let mut last = self.last.lock().unwrap_or_else(|e| e.into_inner());
        for (seat, bot) in game.players.iter().enumerate() {
            if game.builtin.get(seat).copied().unwrap_or(true) {
                continue;
            }
            let now = signature(game, seat);
            let before = last.insert(bot.clone(), now.clone());
            if now.is_some() && before.flatten() == now {
                self.enough.store(true, Ordering::Relaxed);
            }
        }
    }
}
