//! Playing one game whose every seat is a built-in, synchronously: no tasks, no futures, no
//! [`crate::games::take6::game::View`] per decision (a built-in decides from a borrowed
//! [`Sight`] of the game). It makes exactly the record [`super::play`] makes for the same table
//! (a test plays both), so a series of built-ins can run on plain threads.
//!
//! Built-ins never fault, so there is no substitute, no fault and no log here.

mod json;
mod round;

use std::time::Instant;

use super::TableGame;
use crate::games::take6::builtin::{Builtin, Strategy};
use crate::record::{GameRecord, RoundRecord, Score};
use crate::table::Occupant;
pub use json::write_record;
use round::Round;

/// What a thread playing many games reuses from one game to the next, so that a game
/// allocates nothing beyond its record (and nothing at all into a reused summary record).
#[derive(Default)]
pub struct Scratch {
    players: Vec<Builtin>,
    strategies: Vec<Strategy>,
}

/// A game whose every seat is a built-in: a [`TableGame`] with each seat's strategy and no
/// names (the caller puts them in the record, reusing its strings).
#[derive(Debug, Clone, Copy)]
pub struct BuiltinTable<'a> {
    pub game: u64,
    pub seed: u64,
    pub subset: u64,
    pub rotation: usize,
    /// At least 1.
    pub rounds: u32,
    /// Seat order.
    pub seats: &'a [Strategy],
}

/// Plays `table`, whose seats must all be built-ins. With `turns` false the record is the
/// summary ([`GameRecord::summary`]): the cards and turns are not even collected.
///
/// # Panics
/// If a seat is not a built-in: the caller only sends tables of built-ins here.
pub fn play(table: &TableGame, turns: bool) -> GameRecord {
    let names = table.seats.iter().map(|s| s.name.clone()).collect();
    play_with(table, names, turns, &mut Scratch::default())
}

/// [`play`] with the seats' names given (moved into the record) and `scratch` reused.
pub fn play_with(
    table: &TableGame,
    names: Vec<String>,
    turns: bool,
    scratch: &mut Scratch,
) -> GameRecord {
    let mut strategies = std::mem::take(&mut scratch.strategies);
    strategies.clear();
    for (seat, s) in table.seats.iter().enumerate() {
        match s.occupant {
            Occupant::Builtin(kind) => strategies.push(Strategy::of(kind)),
            _ => panic!("seat {seat} of game {} is not a built-in", table.game),
        }
    }
    let mut record = blank_record();
    record.players = names;
    let builtins = BuiltinTable {
        game: table.game,
        seed: table.seed,
        subset: table.subset,
        rotation: table.rotation,
        rounds: table.rounds,
        seats: &strategies,
    };
    play_into(&builtins, turns, scratch, &mut record);
    scratch.strategies = strategies;
    record
}

/// A record with nothing in it, for [`play_into`] to fill.
pub fn blank_record() -> GameRecord {
    GameRecord::default()
}

/// Plays `table` into `record`, overwriting every field but `players` (the caller's, one
/// name per seat) and reusing the record's vectors, its rounds' included: a summary record of
/// a game played into a record of the same table size and rounds allocates nothing.
pub fn play_into(
    table: &BuiltinTable<'_>,
    turns: bool,
    scratch: &mut Scratch,
    record: &mut GameRecord,
) {
    let started = Instant::now();
    let n = table.seats.len();
    scratch.players.truncate(n);
    for (seat, &s) in table.seats.iter().enumerate() {
        match scratch.players.get_mut(seat) {
            Some(player) => player.reset(s, table.seed, seat),
            None => scratch.players.push(Builtin::new(s, table.seed, seat)),
        }
    }
    record.game = table.game;
    record.seed = table.seed;
    record.subset = table.subset;
    record.rotation = table.rotation;
    record.builtin.clear();
    record.builtin.resize(n, true);
    record.replies.clear();
    let rounds = table.rounds.max(1) as usize;
    record.rounds.resize_with(rounds, RoundRecord::default);
    for (i, kept) in record.rounds.iter_mut().enumerate() {
        let mut r = Round::deal(table.seed, n, i as u32, table.rotation);
        match turns {
            true => (kept.hands, kept.rows) = (r.hands(), r.starts),
            false => {
                kept.hands.clear();
                kept.rows = [0; crate::games::take6::game::ROWS];
            }
        }
        kept.turns.clear();
        r.play(&mut scratch.players, turns.then_some(&mut kept.turns));
        let cows = &r.cows[..n];
        kept.invalid.clear();
        kept.cows.clear();
        kept.cows.extend_from_slice(cows);
        kept.scores.clear();
        kept.scores.extend(cows.iter().map(|&c| Score::from(c)));
        kept.penalty.clear();
        kept.penalty.resize(n, 0);
    }
    record.ms = started.elapsed().as_millis() as u64;
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::player::Limits;
    use crate::table::TableSeat;

    fn table(game: u64, seed: u64, players: usize, rounds: u32, rotation: usize) -> TableGame {
        TableGame {
            rules: crate::record::GameName::default(),
            game,
            seed,
            subset: 0,
            rotation,
            rounds,
            seats: crate::games::take6::builtin::BUILTINS
                .iter()
                .cycle()
                .take(players)
                .enumerate()
                .map(|(i, s)| TableSeat {
                    name: format!("{}#{i}", s.name),
                    occupant: Occupant::Builtin(*s),
                })
                .collect(),
        }
    }

    /// The synchronous table and the async one make the same record, line for line, at every
    /// table size, with rounds and rotations; the summary is the full record's summary.
    #[tokio::test]
    async fn the_synchronous_table_plays_the_games_of_the_async_one() {
        for seed in 0..400u64 {
            let players = 2 + (seed as usize % 9);
            let rounds = 1 + (seed % 3) as u32;
            let t = table(seed, seed * 7919, players, rounds, seed as usize % players);
            let sync = play(&t, true);
            let again = table(seed, seed * 7919, players, rounds, seed as usize % players);
            let async_ = super::super::play(again, Limits::default()).await.record;
            let line = |r: &GameRecord| {
                crate::record::games_jsonl_line(&GameRecord { ms: 0, ..r.clone() })
            };
            assert_eq!(line(&sync), line(&async_), "seed {seed}");
            crate::games::take6::check::check_record(&sync).unwrap();
            assert_eq!(
                line(&play(&t, false)),
                line(&sync.summary()),
                "seed {seed}: the summary"
            );
        }
    }
}
