//! The bench of a series: a bot that faults in `--bench-after` games in a row
//! ([`crate::config::BENCH_AFTER`] by default) sits out the rest of the series, so that one
//! broken entry (a bot that never flushes costs the reply's wall-clock safety net in every game
//! it sits in) cannot hold a run hostage. Its later seats are started
//! no more: the launcher refuses them with [`crate::player::Fault::Benched`], so each game
//! records the seat as that fault and plays it on as any fault says (a built-in stand-in, or
//! the player out), and its scores are its faults'.
//!
//! Games are seen as they finish, before the next game starts on their table, so the bench
//! acts at once: a crash-every-game entry plays three games, not a batch. Which of a faulting
//! bot's games come after the bench follows the order in which games finish, which can vary
//! with `--jobs`; a series without a fault is never touched.

use std::collections::HashMap;
use std::path::PathBuf;
use std::sync::{Arc, Mutex};

use crate::player::{ABSENT, BENCHED};
use crate::record::GameRecord;
use crate::sandbox::Sandbox;
use crate::table::{Occupant, TableSeat};

/// A bot's faulted games in a row so far: game numbers, fault kinds and the first reason.
#[derive(Default)]
struct Streak {
    games: Vec<u64>,
    kinds: Vec<String>,
    first: String,
}

/// The series' bench: each bot's current streak of faulted games (the launcher holds who is
/// benched, and refuses them).
#[derive(Default)]
pub struct Bench {
    streaks: Mutex<HashMap<String, Streak>>,
}

/// The bots of a table about to be played: seat, name, working copy.
pub type TableBots = Vec<(usize, String, PathBuf)>;

impl Bench {
    /// The bots seated at `seats` and their launcher, to see their game once it is played.
    pub fn bots_of(seats: &[TableSeat]) -> Option<(TableBots, Arc<Sandbox>)> {
        let sandbox = seats.iter().find_map(|s| match &s.occupant {
            Occupant::Bot { sandbox, .. } => Some(Arc::clone(sandbox)),
            _ => None,
        })?;
        let bots = seats
            .iter()
            .enumerate()
            .filter_map(|(seat, s)| match &s.occupant {
                Occupant::Bot { workdir, .. } => Some((seat, s.name.clone(), workdir.clone())),
                _ => None,
            })
            .collect();
        Some((bots, sandbox))
    }

    /// A game just played with `bots` at its table: a fault extends each faulting bot's
    /// streak, a clean game ends it; a streak of `in_a_row` (at least 1) benches the bot.
    pub fn see(
        &self,
        record: &GameRecord,
        (bots, sandbox): &(TableBots, Arc<Sandbox>),
        in_a_row: u64,
    ) {
        let mut streaks = self.streaks.lock().expect("not poisoned");
        for (seat, name, workdir) in bots {
            let fault = record
                .faults()
                .map(|(_, f)| f)
                .find(|f| f.seat == *seat && f.kind != ABSENT);
            let Some(fault) = fault else {
                streaks.remove(name);
                continue;
            };
            if fault.kind == BENCHED {
                continue;
            }
            let streak = streaks.entry(name.clone()).or_default();
            if streak.games.is_empty() {
                streak.first = fault.reason.clone();
            }
            streak.games.push(record.game);
            streak.kinds.push(fault.kind.clone());
            if streak.games.len() as u64 == in_a_row {
                let games: Vec<String> = streak.games.iter().map(u64::to_string).collect();
                sandbox.bench(
                    workdir,
                    format!(
                        "benched after faults in {in_a_row} games in a row (games {}: {}); the \
                         first: {}. Its later seats are played as this fault: fix what the \
                         first fault says (take6 check shows it) and run again",
                        games.join(", "),
                        streak.kinds.join(", "),
                        streak.first
                    ),
                );
            }
        }
    }
}
