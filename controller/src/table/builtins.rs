//! Playing one game whose every seat is a built-in, synchronously: no tasks, no futures, no
//! [`crate::game::View`] per decision (a built-in decides from a borrowed
//! [`Sight`] of the game). It makes exactly the record [`super::play`] makes for the same table
//! (a test plays both), so a series of built-ins can run on plain threads.
//!
//! Built-ins never fault, so there is no substitute, no fault and no log here.

use std::time::Instant;

use super::{TableGame, deal};
use crate::game::{Board, Card, Game, ROWS, cows_in};
use crate::player::{Builtin, RowSight, Sight};
use crate::record::{GameRecord, PlacementRecord, RoundRecord, RowChoice, TurnRecord};
use crate::table::Occupant;

/// What a thread playing many games reuses from one game to the next, so that a game
/// allocates little beyond its record (a table's players alone are kilobytes of RNG state).
#[derive(Default)]
pub struct Scratch {
    players: Vec<Builtin>,
    cards: Vec<Card>,
    order: Vec<usize>,
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
    let started = Instant::now();
    let n = table.seats.len();
    scratch.players.clear();
    for (seat, s) in table.seats.iter().enumerate() {
        match s.occupant {
            Occupant::Builtin(strategy) => scratch
                .players
                .push(Builtin::new(strategy, table.seed, seat)),
            _ => panic!("seat {seat} of game {} is not a built-in", table.game),
        }
    }
    let rounds = table.rounds.max(1);
    let mut played: Vec<RoundRecord> = (1..=rounds)
        .map(|round| play_round(table, scratch, round - 1, turns))
        .collect();
    let totals = (rounds > 1).then(|| {
        (0..n)
            .map(|seat| played.iter().map(|r| r.scores[seat]).sum())
            .collect()
    });
    let later = played.split_off(1);
    let first = played.pop().expect("at least one round");
    GameRecord {
        game: table.game,
        seed: table.seed,
        subset: table.subset,
        rotation: table.rotation,
        players: names,
        builtin: vec![true; n],
        hands: first.hands,
        rows: first.rows,
        turns: first.turns,
        invalid: Vec::new(),
        cows: first.cows,
        penalty: first.penalty,
        scores: first.scores,
        totals,
        rounds: later,
        ms: started.elapsed().as_millis() as u64,
        replies: Vec::new(),
    }
}

/// One round (0-based `round`), as the async table plays it: every seat chooses from the same
/// board, the cards are revealed and placed lowest first, a card below every top takes the
/// row its player picks.
fn play_round(table: &TableGame, scratch: &mut Scratch, round: u32, keep: bool) -> RoundRecord {
    let Scratch {
        players,
        cards,
        order,
    } = scratch;
    let n = players.len();
    let deal = deal(table.seed, n, round, table.rotation);
    let start = keep.then(|| (deal.hands.clone(), deal.rows));
    let mut game = Game::from_deal(deal);
    let mut turns = Vec::with_capacity(if keep { crate::game::HAND_SIZE } else { 0 });
    while !game.is_over() {
        game.begin_turn();
        let rows = sight_rows(game.board());
        cards.clear();
        for (seat, player) in players.iter_mut().enumerate() {
            let sight = Sight {
                hand: game.hand(seat),
                rows: &rows,
            };
            cards.push(player.card_in(&sight));
        }
        game.reveal_into(cards, order);
        let mut events = Vec::with_capacity(if keep { n } else { 0 });
        for &seat in order.iter() {
            let (placement, reason) = match game.place(seat) {
                Some(p) => (p, None),
                None => {
                    let rows = sight_rows(game.board());
                    let sight = Sight {
                        hand: game.hand(seat),
                        rows: &rows,
                    };
                    let row = players[seat].row_in(&sight);
                    (game.take_row(seat, row), Some(RowChoice::Pick))
                }
            };
            if keep {
                events.push(PlacementRecord {
                    seat,
                    card: cards[seat],
                    row: placement.row,
                    took: placement.took,
                    cows: placement.cows,
                    reason,
                });
            }
        }
        if keep {
            turns.push(TurnRecord {
                played: cards.clone(),
                events,
            });
        }
    }
    let (hands, rows) = start.unwrap_or((Vec::new(), [0; ROWS]));
    RoundRecord {
        hands,
        rows,
        turns,
        invalid: Vec::new(),
        cows: (0..n).map(|s| game.cows(s)).collect(),
        penalty: (0..n).map(|s| game.penalty(s)).collect(),
        scores: game.scores(),
    }
}

/// The rows as a built-in sees them.
fn sight_rows(board: &Board) -> [RowSight; ROWS] {
    std::array::from_fn(|r| {
        let cards = &board.rows()[r];
        RowSight {
            top: board.top(r),
            count: cards.len() as u8,
            cows: cows_in(cards),
        }
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::player::{Limits, Strategy};
    use crate::table::TableSeat;

    fn table(game: u64, seed: u64, players: usize, rounds: u32, rotation: usize) -> TableGame {
        TableGame {
            game,
            seed,
            subset: 0,
            rotation,
            rounds,
            seats: Strategy::ALL
                .iter()
                .cycle()
                .take(players)
                .enumerate()
                .map(|(i, s)| TableSeat {
                    name: format!("{}#{i}", s.name()),
                    occupant: Occupant::Builtin(*s),
                })
                .collect(),
        }
    }

    /// The synchronous table and the async one make the same record, line for line, at every
    /// table size, with rounds and rotations; the summary is the full record's summary.
    #[tokio::test]
    async fn the_synchronous_table_plays_the_games_of_the_async_one() {
        for seed in 0..40u64 {
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
            crate::record::check_record(&sync).unwrap();
            assert_eq!(
                line(&play(&t, false)),
                line(&sync.summary()),
                "seed {seed}: the summary"
            );
        }
    }
}
