//! Game records for the tests of the record modules: hand-made ones and minimal ones for the
//! tally (those played by Take 6's rules are its: `crate::games::take6::fixtures`).

use super::*;

/// A finished game with just the fields the tally reads. `faults` are (seat, kind).
pub(crate) fn result(players: &[&str], scores: &[u32], faults: &[(usize, &str)]) -> GameRecord {
    let n = players.len();
    GameRecord {
        players: players.iter().map(|p| p.to_string()).collect(),
        builtin: players.iter().map(|p| p.starts_with("random#")).collect(),
        rounds: vec![RoundRecord {
            hands: vec![Vec::new(); n],
            rows: [1, 2, 3, 4],
            turns: Vec::new(),
            invalid: faults
                .iter()
                .map(|&(seat, kind)| InvalidRecord {
                    seat,
                    turn: 1,
                    phase: FaultPhase::named("card"),
                    kind: kind.to_string(),
                    reason: format!("{kind} in turn 1"),
                })
                .collect(),
            cows: scores.to_vec(),
            penalty: vec![0; n],
            scores: super::score::whole(scores),
        }],
        ..GameRecord::default()
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
        rules: crate::record::GameName::default(),
        body: None,
        void: None,
        game: 7,
        seed: 42,
        subset: 0,
        rotation: 0,
        players: vec!["solo".into()],
        builtin: vec![false],
        rounds: vec![RoundRecord {
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
            scores: vec![17.into()],
        }],
        ms: 3,
        replies: Vec::new(),
    }
}
