//! Game records for the tests of the record modules: hand-made ones, ones played by the main
//! rules implementation, and minimal ones for the tally.

use super::*;
use crate::games::take6::game::{Deal, Game, cows_in};
use rand::SeedableRng;
use rand::rngs::ChaCha8Rng;

/// A finished game with just the fields the tally reads. `faults` are (seat, kind).
pub(crate) fn result(players: &[&str], scores: &[u32], faults: &[(usize, &str)]) -> GameRecord {
    let n = players.len();
    GameRecord {
        rules: crate::game::GameRef::default_game(),
        kingdomino: None,
        body: None,
        void: None,
        game: 0,
        seed: 0,
        subset: 0,
        rotation: 0,
        players: players.iter().map(|p| p.to_string()).collect(),
        builtin: players.iter().map(|p| p.starts_with("random#")).collect(),
        hands: vec![Vec::new(); n],
        rows: [1, 2, 3, 4],
        turns: Vec::new(),
        invalid: faults
            .iter()
            .map(|&(seat, kind)| InvalidRecord {
                seat,
                turn: 1,
                phase: FaultPhase::Card,
                kind: kind.to_string(),
                reason: format!("{kind} in turn 1"),
            })
            .collect(),
        cows: scores.to_vec(),
        penalty: vec![0; n],
        scores: scores.to_vec(),
        rounds: Vec::new(),
        totals: None,
        ms: 0,
        replies: Vec::new(),
    }
}

/// Ties for first, a three-way shared win, a built-in, a faulted one-game bot.
pub(crate) fn series() -> Vec<GameRecord> {
    vec![
        result(&["alice", "bob", "random#1"], &[10, 10, 20], &[]),
        result(
            &["bob", "carol", "random#1", "alice"],
            &[14, 14, 30, 14],
            &[],
        ),
        result(
            &["alice", "carol", "random#1", "dave"],
            &[12, 12, 25, 105],
            &[(3, "timeout")],
        ),
    ]
}

pub(crate) fn tally(games: &[GameRecord]) -> Tally {
    let mut t = Tally::default();
    for g in games {
        t.add(g);
    }
    t
}

pub(crate) fn ev(seat: usize, card: Card, row: usize, took: &[Card], cows: u32) -> PlacementRecord {
    PlacementRecord {
        seat,
        card,
        row,
        took: took.to_vec(),
        cows,
        reason: None,
    }
}

pub(crate) fn turn(card: Card, event: PlacementRecord) -> TurnRecord {
    TurnRecord {
        played: vec![card],
        events: vec![event],
    }
}

/// A one-player game worked out by hand, without any rules code.
pub(crate) fn hand_made() -> GameRecord {
    let pick = |mut e: PlacementRecord| {
        e.reason = Some(RowChoice::Pick);
        e
    };
    GameRecord {
        rules: crate::game::GameRef::default_game(),
        kingdomino: None,
        body: None,
        void: None,
        game: 7,
        seed: 42,
        subset: 0,
        rotation: 0,
        players: vec!["solo".into()],
        builtin: vec![false],
        hands: vec![vec![41, 42, 43, 44, 45, 46, 5, 50, 51, 1]],
        rows: [10, 20, 30, 40],
        turns: vec![
            turn(41, ev(0, 41, 3, &[], 0)),
            turn(42, ev(0, 42, 3, &[], 0)),
            turn(43, ev(0, 43, 3, &[], 0)),
            turn(44, ev(0, 44, 3, &[], 0)), // the row's 5th card
            // 6th card: takes 40 (3) 41 42 43 (1 each) 44 (5).
            turn(45, ev(0, 45, 3, &[40, 41, 42, 43, 44], 11)),
            turn(46, ev(0, 46, 3, &[], 0)),
            // Below 10, 20, 30, 46: picks row 0 and its 10 (3 cows).
            turn(5, pick(ev(0, 5, 0, &[10], 3))),
            turn(50, ev(0, 50, 3, &[], 0)),
            turn(51, ev(0, 51, 3, &[], 0)),
            // Below 5, 20, 30, 51: picks row 1 and its 20 (3 cows).
            turn(1, pick(ev(0, 1, 1, &[20], 3))),
        ],
        invalid: Vec::new(),
        cows: vec![17],
        penalty: vec![0],
        scores: vec![17],
        rounds: Vec::new(),
        totals: None,
        ms: 3,
        replies: Vec::new(),
    }
}

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
                invalid.push(fault(seat, t, FaultPhase::Card, "timeout"));
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
                        invalid.push(fault(seat, t, FaultPhase::Row, "bad_row"));
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
        rules: crate::game::GameRef::default_game(),
        kingdomino: None,
        body: None,
        void: None,
        game: 0,
        seed: 0,
        subset: 0,
        rotation: 0,
        players: (0..n).map(|s| format!("p{s}")).collect(),
        builtin: vec![false; n],
        hands: deal.hands.clone(),
        rows: deal.rows,
        turns,
        invalid,
        cows: (0..n).map(|s| game.cows(s)).collect(),
        penalty: (0..n).map(|s| game.penalty(s)).collect(),
        scores: game.scores(),
        rounds: Vec::new(),
        totals: None,
        ms: 0,
        replies: Vec::new(),
    }
}

pub(crate) fn events(r: &GameRecord) -> impl Iterator<Item = (usize, usize, &PlacementRecord)> {
    r.turns
        .iter()
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
            let row_fault = r.invalid.iter().any(|f| f.phase == FaultPhase::Row);
            sixth && pick && forced && late && row_fault
        })
        .expect("some seed below 1000 has every feature")
}
