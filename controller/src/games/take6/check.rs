//! The independent rules checker: replays a game record with a second, minimal implementation
//! of the rules, so `take6 verify` and the tests catch a bug (or an edit) in either.

use super::ROW;
use crate::player::ABSENT;
use crate::record::{GameRecord, RoundRecord, RowChoice, Score};

/// The first inconsistency a record's replay finds (and its round, with several): what the
/// record does that the rules do not allow.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{0}")]
pub struct RuleBreach(pub String);

/// Checks that a game record is internally consistent by replaying it with a second, minimal
/// implementation of the rules written here on purpose (it does not use `crate::games::take6::game`), so
/// whole-program tests catch a bug in the rules as well as in the recording.
///
/// Verified: per-seat vectors have one entry per player and names are unique; each seat was
/// dealt 10 distinct cards in 1..=104, disjoint from each other and the 4 row starts; there are
/// 10 turns; each turn every seat plays a card it still holds; events cover every seat once,
/// in ascending card order, each card the one its seat played; every placement follows the
/// rules (the row whose top is the highest below the card, the 6th card taking the 5 before
/// it; a card below every top carries a reason, `forced` only for a seat that has faulted by
/// then and only on the cheapest row, lowest index on ties, and takes the row it names; a card
/// that fits carries no reason); `took` and `cows` match the board; a `row`-phase fault comes
/// with that seat's forced placement in that turn; every dealt card ends on the board or in a
/// pile; faults name valid seats and turns in non-decreasing turn order, no seat twice; and per
/// seat, `cows` are those taken in turns before its fault turn (all turns without a fault),
/// `penalty` is 100 exactly when it faulted, and `scores = cows + penalty`.
///
/// A game of several rounds is checked round by round as above, and across rounds: a seat
/// whose bot faulted is recorded `absent` at turn 1 of every later round and never faults
/// otherwise again; `absent` appears nowhere else. (A line's `totals`, the sums of the rounds'
/// scores, are checked as it is read: `crate::record`.)
///
/// Returns a message naming the first inconsistency found (and its round, with several).
pub fn check_record(r: &GameRecord) -> Result<(), RuleBreach> {
    let rounds = r.round_count();
    if rounds == 0 {
        return Err(RuleBreach("a record of no rounds".into()));
    }
    let n = r.players.len();
    // Per seat, whether its bot is gone (faulted in an earlier round).
    let mut gone = vec![false; n];
    for (i, round) in r.rounds.iter().enumerate() {
        let at = |e: String| {
            RuleBreach(if rounds > 1 {
                format!("round {}: {e}", i + 1)
            } else {
                e
            })
        };
        check_round(r, round).map_err(|e| at(e.0))?;
        let mut absent = vec![false; n];
        for f in &round.invalid {
            match (gone[f.seat], f.kind == ABSENT) {
                (true, true) if f.turn == 1 => absent[f.seat] = true,
                (true, true) => return Err(at(format!("seat {} is absent after turn 1", f.seat))),
                (false, true) => {
                    return Err(at(format!(
                        "seat {} is absent without a fault in an earlier round",
                        f.seat
                    )));
                }
                (true, false) => {
                    return Err(at(format!(
                        "seat {} faults again after its bot was gone",
                        f.seat
                    )));
                }
                (false, false) => {}
            }
        }
        if let Some(seat) = (0..n).find(|&s| gone[s] && !absent[s]) {
            return Err(at(format!(
                "seat {seat} faulted in an earlier round but is not recorded absent"
            )));
        }
        for f in &round.invalid {
            gone[f.seat] = true;
        }
    }
    Ok(())
}

/// Checks round `d` of `r` on its own.
fn check_round(r: &GameRecord, d: &RoundRecord) -> Result<(), RuleBreach> {
    let n = check_shape(r, d)?;
    let dealt = check_dealt(d)?;
    let fault_turn = check_faults(d, n)?;
    let (board, piles, counted) = replay(d, n, &fault_turn)?;
    // Every card dealt is on the board or in a pile, once.
    let mut end: Vec<u8> = board.concat();
    end.extend(piles.concat());
    end.sort_unstable();
    if end != dealt {
        return Err(RuleBreach(
            "the cards on the board and in the piles are not the cards dealt".into(),
        ));
    }

    check_scores(d, n, &fault_turn, &counted)
}

const TURNS: usize = 10;
const HAND: usize = 10;
const NROWS: usize = 4;
const ROW_FULL: usize = 5;
const PENALTY: u32 = 100;
fn cows(card: u8) -> u32 {
    if card == 55 {
        7
    } else if card.is_multiple_of(11) {
        5
    } else if card.is_multiple_of(10) {
        3
    } else if card.is_multiple_of(5) {
        2
    } else {
        1
    }
}
fn sum_cows(cards: &[u8]) -> u32 {
    cards.iter().map(|&c| cows(c)).sum()
}

/// Shape: one entry per player in every per-seat vector, unique names. Returns the players.
fn check_shape(r: &GameRecord, d: &RoundRecord) -> Result<usize, RuleBreach> {
    let n = r.players.len();
    if n == 0 || n > 10 {
        return Err(RuleBreach(format!("{n} players; a game seats 1 to 10")));
    }
    for (what, len) in [
        ("builtin", r.builtin.len()),
        ("hands", d.hands.len()),
        ("cows", d.cows.len()),
        ("penalty", d.penalty.len()),
        ("scores", d.scores.len()),
    ] {
        if len != n {
            return Err(RuleBreach(format!(
                "{what} has {len} entries for {n} players"
            )));
        }
    }
    let mut names: Vec<&String> = r.players.iter().collect();
    names.sort();
    if let Some(w) = names.windows(2).find(|w| w[0] == w[1]) {
        return Err(RuleBreach(format!("player name {:?} appears twice", w[0])));
    }
    Ok(n)
}

/// The deal: 10 cards a seat, all in the deck, none twice. Returns every card dealt, sorted.
fn check_dealt(d: &RoundRecord) -> Result<Vec<u8>, RuleBreach> {
    let mut dealt: Vec<u8> = d.rows.to_vec();
    for (seat, hand) in d.hands.iter().enumerate() {
        if hand.len() != HAND {
            return Err(RuleBreach(format!(
                "seat {seat} was dealt {} cards, not 10",
                hand.len()
            )));
        }
        dealt.extend_from_slice(hand);
    }
    if let Some(c) = dealt.iter().find(|&&c| !(1..=104).contains(&c)) {
        return Err(RuleBreach(format!("card {c} is not in the deck")));
    }
    dealt.sort_unstable();
    if let Some(w) = dealt.windows(2).find(|w| w[0] == w[1]) {
        return Err(RuleBreach(format!("card {} was dealt twice", w[0])));
    }
    Ok(dealt)
}

/// Faults: valid seats and turns, in turn order, no seat twice. Returns each seat's fault turn.
fn check_faults(d: &RoundRecord, n: usize) -> Result<Vec<Option<u8>>, RuleBreach> {
    let mut fault_turn: Vec<Option<u8>> = vec![None; n];
    let mut last_turn = 0;
    for f in &d.invalid {
        if f.seat >= n {
            return Err(RuleBreach(format!(
                "fault of seat {}, which does not exist",
                f.seat
            )));
        }
        if !(1..=TURNS as u8).contains(&f.turn) {
            return Err(RuleBreach(format!(
                "fault of seat {} in turn {}",
                f.seat, f.turn
            )));
        }
        if f.turn < last_turn {
            return Err(RuleBreach(format!(
                "fault of seat {} in turn {} is recorded after one in turn {last_turn}",
                f.seat, f.turn
            )));
        }
        last_turn = f.turn;
        if fault_turn[f.seat].replace(f.turn).is_some() {
            return Err(RuleBreach(format!("seat {} faults twice", f.seat)));
        }
    }
    Ok(fault_turn)
}

/// The board, the piles and each seat's cows that count, replayed turn by turn.
type Replayed = (Vec<Vec<u8>>, Vec<Vec<u8>>, Vec<u32>);

/// Replays the turns: every card played from its seat's hand, placed by the rules.
fn replay(d: &RoundRecord, n: usize, fault_turn: &[Option<u8>]) -> Result<Replayed, RuleBreach> {
    if d.turns.len() != TURNS {
        return Err(RuleBreach(format!("{} turns, not 10", d.turns.len())));
    }
    let mut board: Vec<Vec<u8>> = d.rows.iter().map(|&c| vec![c]).collect();
    let mut held: Vec<Vec<u8>> = d.hands.clone();
    let mut piles: Vec<Vec<u8>> = vec![Vec::new(); n];
    let mut counted = vec![0u32; n];
    for (i, turn) in d.turns.iter().enumerate() {
        let t = i + 1;
        check_played(t, turn, n, &mut held)?;
        for ev in &turn.events {
            let took = place(t, ev, &mut board, fault_turn)?;
            let got = sum_cows(&took);
            if ev.cows != got {
                return Err(RuleBreach(format!(
                    "turn {t}: card {} recorded {} cows, took {got}",
                    ev.card, ev.cows
                )));
            }
            if fault_turn[ev.seat].is_none_or(|f| t < usize::from(f)) {
                counted[ev.seat] += got;
            }
            piles[ev.seat].extend(took);
        }
        for f in d.invalid.iter().filter(|f| usize::from(f.turn) == t) {
            if f.phase == ROW
                && !turn
                    .events
                    .iter()
                    .any(|e| e.seat == f.seat && e.reason == Some(RowChoice::Forced))
            {
                return Err(RuleBreach(format!(
                    "turn {t}: seat {} faulted choosing a row but was not forced to take one",
                    f.seat
                )));
            }
        }
    }
    Ok((board, piles, counted))
}

/// Turn `t`'s cards: one a seat, each from its hand (taken out of `held`); one placement a
/// seat, in ascending card order, each of the card its seat played.
fn check_played(
    t: usize,
    turn: &crate::record::TurnRecord,
    n: usize,
    held: &mut [Vec<u8>],
) -> Result<(), RuleBreach> {
    if turn.played.len() != n {
        return Err(RuleBreach(format!(
            "turn {t}: {} cards played by {n} players",
            turn.played.len()
        )));
    }
    for (seat, &card) in turn.played.iter().enumerate() {
        let Some(at) = held[seat].iter().position(|&c| c == card) else {
            return Err(RuleBreach(format!(
                "turn {t}: seat {seat} played {card}, which it does not hold"
            )));
        };
        held[seat].remove(at);
    }
    if turn.events.len() != n {
        return Err(RuleBreach(format!(
            "turn {t}: {} placements for {n} cards",
            turn.events.len()
        )));
    }
    let mut placed = vec![false; n];
    let mut previous: Option<u8> = None;
    for ev in &turn.events {
        let seat = ev.seat;
        if seat >= n || std::mem::replace(&mut placed[seat], true) {
            return Err(RuleBreach(format!(
                "turn {t}: seat {seat} placed twice or does not exist"
            )));
        }
        if ev.card != turn.played[seat] {
            return Err(RuleBreach(format!(
                "turn {t}: seat {seat} placed {} but played {}",
                ev.card, turn.played[seat]
            )));
        }
        if previous.is_some_and(|p| p >= ev.card) {
            return Err(RuleBreach(format!(
                "turn {t}: card {} placed out of order",
                ev.card
            )));
        }
        previous = Some(ev.card);
    }
    Ok(())
}

/// Places `ev`'s card on `board` by the rules and checks its row and what it took; returns
/// the cards taken.
fn place(
    t: usize,
    ev: &crate::record::PlacementRecord,
    board: &mut [Vec<u8>],
    fault_turn: &[Option<u8>],
) -> Result<Vec<u8>, RuleBreach> {
    let seat = ev.seat;
    let fits = (0..NROWS)
        .filter(|&row| *board[row].last().unwrap_or(&0) < ev.card)
        .max_by_key(|&row| board[row].last().copied());
    let (row, took) = match (fits, ev.reason) {
        (Some(row), None) => {
            if board[row].len() >= ROW_FULL {
                (row, std::mem::replace(&mut board[row], vec![ev.card]))
            } else {
                board[row].push(ev.card);
                (row, Vec::new())
            }
        }
        (Some(_), Some(reason)) => {
            return Err(RuleBreach(format!(
                "turn {t}: card {} fits a row but has reason {reason:?}",
                ev.card
            )));
        }
        (None, None) => {
            return Err(RuleBreach(format!(
                "turn {t}: card {} is below every row but has no reason",
                ev.card
            )));
        }
        (None, Some(reason)) => {
            if ev.row >= NROWS {
                return Err(RuleBreach(format!(
                    "turn {t}: card {} took row {}",
                    ev.card, ev.row
                )));
            }
            if reason == RowChoice::Forced {
                if fault_turn[seat].is_none_or(|f| usize::from(f) > t) {
                    return Err(RuleBreach(format!(
                        "turn {t}: seat {seat} was forced to take a row without a fault"
                    )));
                }
                let cheapest = (0..NROWS)
                    .min_by_key(|&row| (sum_cows(&board[row]), row))
                    .unwrap_or(0);
                if ev.row != cheapest {
                    return Err(RuleBreach(format!(
                        "turn {t}: seat {seat} was forced to take row {}, not the \
                         cheapest row {cheapest}",
                        ev.row
                    )));
                }
            }
            (ev.row, std::mem::replace(&mut board[ev.row], vec![ev.card]))
        }
    };
    if ev.row != row {
        return Err(RuleBreach(format!(
            "turn {t}: card {} recorded in row {}, belongs in row {row}",
            ev.card, ev.row
        )));
    }
    if ev.took != took {
        return Err(RuleBreach(format!(
            "turn {t}: card {} recorded taking {:?}, takes {took:?}",
            ev.card, ev.took
        )));
    }
    Ok(took)
}

/// Scores: each seat's cows that count, its penalty (100 exactly when it faulted) and their sum.
fn check_scores(
    d: &RoundRecord,
    n: usize,
    fault_turn: &[Option<u8>],
    counted: &[u32],
) -> Result<(), RuleBreach> {
    for seat in 0..n {
        let penalty = if fault_turn[seat].is_some() {
            PENALTY
        } else {
            0
        };
        if d.cows[seat] != counted[seat] {
            return Err(RuleBreach(format!(
                "seat {seat} recorded {} cows, took {} that count",
                d.cows[seat], counted[seat]
            )));
        }
        if d.penalty[seat] != penalty {
            return Err(RuleBreach(format!(
                "seat {seat} recorded penalty {}, should be {penalty}",
                d.penalty[seat]
            )));
        }
        if d.scores[seat] != Score::from(counted[seat] + penalty) {
            return Err(RuleBreach(format!(
                "seat {seat} recorded score {}, should be {}",
                d.scores[seat],
                counted[seat] + penalty
            )));
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::take6::CARD;
    use crate::games::take6::fixtures::{Fault, events, play, sample};
    use crate::games::take6::game::Deal;
    use crate::record::fixtures::{ev, hand_made};
    use crate::record::{InvalidRecord, PlacementRecord};
    use proptest::prelude::*;
    use rand::SeedableRng;
    use rand::rngs::ChaCha8Rng;

    #[test]
    fn hand_made_record_passes() {
        assert_eq!(check_record(&hand_made()), Ok(()));
    }

    #[test]
    fn hand_made_record_with_a_last_turn_fault_passes() {
        // Faulting in turn 10's card phase: the 1 is forced onto the cheapest row, row 0
        // ([5]: 2 cows; [20] and [30] have 3, [45 46 50 51] has 7), and counts for nothing.
        let mut r = hand_made();
        r.rounds[0].invalid.push(InvalidRecord {
            seat: 0,
            turn: 10,
            phase: CARD,
            kind: "timeout".into(),
            reason: "no card within 1s".into(),
        });
        r.rounds[0].turns[9].events[0] = PlacementRecord {
            reason: Some(RowChoice::Forced),
            ..ev(0, 1, 0, &[5], 2)
        };
        (r.rounds[0].cows, r.rounds[0].penalty, r.rounds[0].scores) =
            (vec![14], vec![100], vec![114.into()]);
        assert_eq!(check_record(&r), Ok(()));
        // A row-phase fault in that turn is just as consistent.
        r.rounds[0].invalid[0].phase = ROW;
        assert_eq!(check_record(&r), Ok(()));
    }

    #[test]
    fn sample_passes() {
        let r = sample();
        assert_eq!(check_record(&r), Ok(()));
        assert_eq!(r.rounds[0].penalty[..2], [100, 100]);
    }

    proptest! {
        /// The two rules implementations agree on every game: random deals of 1 to 10
        /// players, random faults.
        #[test]
        fn games_played_by_the_rules_pass(
            seed in any::<u64>(),
            players in 1usize..=10,
            faults in proptest::collection::vec((0usize..10, any::<bool>(), 1u8..=10), 0..4),
        ) {
            let deal = Deal::shuffled(players, &mut ChaCha8Rng::seed_from_u64(seed));
            let mut seen = vec![false; players];
            let faults: Vec<(usize, Fault)> = faults
                .into_iter()
                .filter(|&(s, _, _)| s < players && !std::mem::replace(&mut seen[s], true))
                .map(|(s, card, t)| (s, if card { Fault::Card(t) } else { Fault::Row(t) }))
                .collect();
            let r = play(&deal, &faults);
            prop_assert_eq!(check_record(&r), Ok(()));
        }
    }

    /// Applies `corrupt` to a copy of the sample and expects `check_record` to name `expect`.
    #[track_caller]
    fn caught(expect: &str, corrupt: impl FnOnce(&mut GameRecord)) {
        let mut r = sample();
        corrupt(&mut r);
        match check_record(&r) {
            Ok(()) => panic!("corruption not caught (expected {expect:?})"),
            Err(e) => assert!(e.0.contains(expect), "expected {expect:?}, got {e:?}"),
        }
    }

    /// (turn index, event index) of the first event matching `pred`.
    fn find(r: &GameRecord, pred: impl Fn(&PlacementRecord) -> bool) -> (usize, usize) {
        events(r)
            .find(|(_, _, e)| pred(e))
            .map(|(t, i, _)| (t, i))
            .expect("the sample has such an event")
    }

    #[test]
    fn corrupt_shapes_are_caught() {
        caught("builtin has 4 entries", |r| {
            r.builtin.pop();
        });
        caught("scores has 6 entries", |r| {
            r.rounds[0].scores.push(0.into())
        });
        caught("appears twice", |r| r.players[1] = r.players[0].clone());
        caught("9 turns", |r| {
            r.rounds[0].turns.pop();
        });
        caught("seat 2 was dealt 9 cards", |r| {
            r.rounds[0].hands[2].pop();
        });
    }

    #[test]
    fn corrupt_deals_are_caught() {
        caught("dealt twice", |r| {
            r.rounds[0].hands[1][9] = r.rounds[0].hands[0][9]
        });
        caught("dealt twice", |r| {
            r.rounds[0].rows[0] = r.rounds[0].hands[4][0]
        });
        caught("not in the deck", |r| r.rounds[0].hands[3][5] = 105);
    }

    #[test]
    fn cards_not_held_are_caught() {
        // Another seat's card.
        caught("does not hold", |r| {
            r.rounds[0].turns[0].played[0] = r.rounds[0].hands[1][5]
        });
        // A card played before.
        caught("does not hold", |r| {
            r.rounds[0].turns[1].played[2] = r.rounds[0].turns[0].played[2];
        });
    }

    #[test]
    fn corrupt_event_lists_are_caught() {
        caught("out of order", |r| r.rounds[0].turns[4].events.swap(0, 1));
        caught("placed twice", |r| {
            r.rounds[0].turns[4].events[1].seat = r.rounds[0].turns[4].events[0].seat
        });
        caught("placements for", |r| {
            r.rounds[0].turns[6].events.pop();
        });
        caught("but played", |r| {
            // The seat's turn-3 and turn-10 plays swapped: both held, but events disagree.
            let s = r.rounds[0].turns[2].events[0].seat;
            let later = r.rounds[0].turns[9].played[s];
            r.rounds[0].turns[9].played[s] = r.rounds[0].turns[2].played[s];
            r.rounds[0].turns[2].played[s] = later;
        });
    }

    #[test]
    fn wrong_placements_are_caught() {
        caught("belongs in row", |r| {
            let (t, i) = find(r, |e| e.reason.is_none() && e.took.is_empty());
            let e = &mut r.rounds[0].turns[t].events[i];
            e.row = (e.row + 1) % 4;
        });
        caught("recorded taking", |r| {
            // A 6th card that does not take the row.
            let (t, i) = find(r, |e| e.reason.is_none() && !e.took.is_empty());
            let e = &mut r.rounds[0].turns[t].events[i];
            e.took.clear();
            e.cows = 0;
        });
        caught("recorded taking", |r| {
            // A 5th card that takes the row.
            let (t, i) = find(r, |e| e.reason.is_none() && !e.took.is_empty());
            let e = &mut r.rounds[0].turns[t].events[i];
            e.took.pop();
        });
        caught("recorded taking", |r| {
            // A pick that names one row and takes another's cards.
            let (t, i) = find(r, |e| e.reason == Some(RowChoice::Pick));
            let e = &mut r.rounds[0].turns[t].events[i];
            e.row = (e.row + 1) % 4;
        });
        caught("cows, took", |r| {
            let (t, i) = find(r, |e| !e.took.is_empty());
            r.rounds[0].turns[t].events[i].cows += 1;
        });
    }

    #[test]
    fn wrong_reasons_are_caught() {
        caught("has no reason", |r| {
            let (t, i) = find(r, |e| e.reason.is_some());
            r.rounds[0].turns[t].events[i].reason = None;
        });
        caught("fits a row", |r| {
            let (t, i) = find(r, |e| e.reason.is_none());
            r.rounds[0].turns[t].events[i].reason = Some(RowChoice::Pick);
        });
        caught("without a fault", |r| {
            let (t, i) = find(r, |e| e.reason == Some(RowChoice::Pick) && e.seat > 1);
            r.rounds[0].turns[t].events[i].reason = Some(RowChoice::Forced);
        });
        caught("not the cheapest row", |r| {
            let (t, i) = find(r, |e| e.reason == Some(RowChoice::Forced));
            let e = &mut r.rounds[0].turns[t].events[i];
            e.row = (e.row + 1) % 4;
        });
        caught("not forced", |r| {
            let f = (r.rounds[0].invalid.iter())
                .find(|f| f.phase == ROW)
                .unwrap();
            let (seat, t) = (f.seat, usize::from(f.turn) - 1);
            let e = r.rounds[0].turns[t]
                .events
                .iter_mut()
                .find(|e| e.seat == seat)
                .unwrap();
            e.reason = Some(RowChoice::Pick); // same row: a valid pick, but not forced
        });
    }

    #[test]
    fn wrong_faults_are_caught() {
        caught("faults twice", |r| {
            let mut again = r.rounds[0].invalid[0].clone();
            again.turn = 10;
            r.rounds[0].invalid.push(again);
        });
        caught("is recorded after", |r| {
            let mut early = r.rounds[0].invalid[0].clone();
            early.seat = 4;
            early.turn = 1;
            r.rounds[0].invalid.push(early);
        });
        caught("does not exist", |r| r.rounds[0].invalid[0].seat = 5);
        caught("in turn 11", |r| r.rounds[0].invalid[0].turn = 11);
        // Seat 0 faulted in turn 3: counting the cows it took from then on is wrong.
        caught("seat 0 recorded", |r| {
            let all: u32 = events(r)
                .filter(|(_, _, e)| e.seat == 0)
                .map(|(_, _, e)| e.cows)
                .sum();
            assert!(all > r.rounds[0].cows[0]);
            let more = all - r.rounds[0].cows[0];
            r.rounds[0].scores[0] += more;
            r.rounds[0].cows[0] = all;
        });
    }

    #[test]
    fn wrong_scores_are_caught() {
        caught("seat 2 recorded", |r| {
            r.rounds[0].cows[2] += 1;
            r.rounds[0].scores[2] += 1;
        });
        caught("seat 0 recorded penalty 0", |r| {
            r.rounds[0].penalty[0] = 0;
            r.rounds[0].scores[0] -= 100;
        });
        caught("seat 3 recorded penalty 100", |r| {
            r.rounds[0].penalty[3] = 100;
            r.rounds[0].scores[3] += 100;
        });
        caught("seat 4 recorded score", |r| r.rounds[0].scores[4] += 1);
    }

    /// A game of three rounds of five seats: seat 0's bot faults in turn 3 of round 1, so it
    /// is absent in rounds 2 and 3.
    fn three_rounds() -> GameRecord {
        let round = |r: u32, faults: &[(usize, Fault)]| {
            play(&crate::games::take6::table::deal(7, 5, r, 0), faults)
        };
        let mut game = round(0, &[(0, Fault::Card(3))]);
        for r in 1..3 {
            let mut g = round(r, &[(0, Fault::Card(1))]);
            g.rounds[0].invalid[0].kind = ABSENT.to_string();
            game.rounds.append(&mut g.rounds);
        }
        game
    }

    #[test]
    fn every_round_of_a_game_of_rounds_is_checked() {
        let r = three_rounds();
        check_record(&r).unwrap();
        assert_eq!(
            r.totals()[0],
            r.rounds[0].scores[0] + 200u32,
            "100 per round it was gone"
        );
        let caught = |expect: &str, corrupt: &dyn Fn(&mut GameRecord)| {
            let mut bad = three_rounds();
            corrupt(&mut bad);
            match check_record(&bad) {
                Ok(()) => panic!("corruption not caught (expected {expect:?})"),
                Err(e) => assert!(e.0.contains(expect), "expected {expect:?}, got {e:?}"),
            }
        };
        caught("round 3: turn 2: seat 1 played", &|r| {
            r.rounds[2].turns[1].played[1] = r.rounds[2].turns[0].played[1];
        });
        // Its forced rows then have no fault behind them, or it is not recorded absent.
        caught("round 2: ", &|r| r.rounds[1].invalid.clear());
        caught("round 1: seat 0 is absent without", &|r| {
            r.rounds[0].invalid[0].kind = ABSENT.to_string();
        });
        caught("round 2: seat 0 faults again", &|r| {
            r.rounds[1].invalid[0].kind = "timeout".to_string();
        });
    }

    /// A line's `totals` are the sums of its rounds' scores, present exactly with several
    /// rounds: a line that says otherwise does not read (its record derives them).
    #[test]
    fn totals_that_are_not_the_sums_do_not_read() {
        let line = serde_json::to_value(three_rounds()).unwrap();
        assert_eq!(line["totals"], serde_json::json!(three_rounds().totals()));
        let refused = |expect: &str, corrupt: &dyn Fn(&mut serde_json::Value)| {
            let mut bad = line.clone();
            corrupt(&mut bad);
            match serde_json::from_value::<GameRecord>(bad) {
                Ok(_) => panic!("corruption not caught (expected {expect:?})"),
                Err(e) => assert!(
                    e.to_string().contains(expect),
                    "expected {expect:?}, got {e}"
                ),
            }
        };
        refused("are not the sums", &|l| {
            l["totals"][1] = serde_json::json!(l["totals"][1].as_u64().unwrap() + 1);
        });
        refused("no totals", &|l| {
            l.as_object_mut().unwrap().remove("totals");
        });
        refused("totals in a game of one round", &|l| {
            l.as_object_mut().unwrap().remove("rounds");
        });
    }
}
