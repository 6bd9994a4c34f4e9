//! Take 6 records for the tests: games played by the main rules implementation and recorded
//! as a table would record them.

use rand::SeedableRng;
use rand::rngs::ChaCha8Rng;

use super::game::{Deal, Game, cows_in};
use super::{CARD, ROW};
use crate::record::{
    Card, FaultPhase, GameRecord, InvalidRecord, PlacementRecord, RoundRecord, RowChoice,
    TurnRecord,
};

/// How a seat misbehaves in [`play`].
#[derive(Clone, Copy)]
pub(crate) enum Fault {
    /// Faults in the card phase of this turn.
    Card(u8),
    /// Faults the first time it has to choose a row from this turn on (if ever).
    Row(u8),
}

/// Plays a deal with the main rules implementation (`crate::games::take6::game`) and records it the way
/// a table would. Each seat plays its hand in dealt order. A seat choosing a row picks the
/// one with the most cows, highest index on ties (never the cheapest row); a faulted seat
/// is forced onto the cheapest row.
pub(crate) fn play(deal: &Deal, faults: &[(usize, Fault)]) -> GameRecord {
    let n = deal.hands.len();
    let mut game = Game::new(deal);
    let mut turns = Vec::new();
    let mut invalid = Vec::new();
    let fault = |seat: usize, turn: u8, phase: FaultPhase, kind: &str| InvalidRecord {
        seat,
        turn,
        phase,
        kind: kind.to_string(),
        reason: format!("seat {seat} faulted in turn {turn}"),
    };
    for t in 1..=10u8 {
        game.begin_turn();
        for &(seat, f) in faults {
            if matches!(f, Fault::Card(ft) if ft == t) {
                game.fault(seat);
                invalid.push(fault(seat, t, CARD, "timeout"));
            }
        }
        let played: Vec<Card> = (0..n).map(|s| deal.hands[s][usize::from(t) - 1]).collect();
        let mut events = Vec::new();
        for seat in game.reveal(&played) {
            let (p, reason) = match game.place(seat) {
                Some(p) => (p, None),
                None => {
                    let row_fault = faults
                        .iter()
                        .any(|&(s, f)| s == seat && matches!(f, Fault::Row(ft) if ft <= t));
                    if row_fault && game.faulted(seat).is_none() {
                        game.fault(seat);
                        invalid.push(fault(seat, t, ROW, "bad_row"));
                    }
                    if game.faulted(seat).is_some() {
                        let row = game.board().cheapest_row();
                        (game.take_row(seat, row), Some(RowChoice::Forced))
                    } else {
                        let rows = game.board().rows();
                        let row = (0..4).max_by_key(|&r| (cows_in(&rows[r]), r)).unwrap();
                        (game.take_row(seat, row), Some(RowChoice::Pick))
                    }
                }
            };
            events.push(PlacementRecord {
                seat,
                card: played[seat],
                row: p.row,
                took: p.took,
                cows: p.cows,
                reason,
            });
        }
        turns.push(TurnRecord { played, events });
    }
    GameRecord {
        players: (0..n).map(|s| format!("p{s}")).collect(),
        builtin: vec![false; n],
        rounds: vec![RoundRecord {
            hands: deal.hands.clone(),
            rows: deal.rows,
            turns,
            invalid,
            cows: (0..n).map(|s| game.cows(s)).collect(),
            penalty: (0..n).map(|s| game.penalty(s)).collect(),
            scores: crate::record::score::whole(&game.scores()),
        }],
        ..GameRecord::default()
    }
}

pub(crate) fn events(r: &GameRecord) -> impl Iterator<Item = (usize, usize, &PlacementRecord)> {
    (r.first().turns.iter())
        .enumerate()
        .flat_map(|(t, turn)| turn.events.iter().enumerate().map(move |(i, e)| (t, i, e)))
}

/// The first seeded 5-player game (seat 0 faults in turn 3's card phase, seat 1 the first
/// time it picks a row) with every feature the corruption tests need: a 6th-card take, a
/// pick by an unfaulted seat, a forced take, and cows seat 0 took after its fault.
pub(crate) fn sample() -> GameRecord {
    (0..1000u64)
        .map(|seed| {
            let deal = Deal::shuffled(5, &mut ChaCha8Rng::seed_from_u64(seed));
            let mut r = play(&deal, &[(0, Fault::Card(3)), (1, Fault::Row(1))]);
            r.seed = seed;
            r
        })
        .find(|r| {
            let sixth = events(r).any(|(_, _, e)| e.reason.is_none() && !e.took.is_empty());
            let pick = events(r).any(|(_, _, e)| e.reason == Some(RowChoice::Pick) && e.seat > 1);
            let forced = events(r).any(|(_, _, e)| e.reason == Some(RowChoice::Forced));
            let late = events(r).any(|(t, _, e)| e.seat == 0 && t >= 2 && e.cows > 0);
            let row_fault = r.first().invalid.iter().any(|f| f.phase == ROW);
            sixth && pick && forced && late && row_fault
        })
        .expect("some seed below 1000 has every feature")
}
