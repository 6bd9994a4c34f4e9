//! What `take6 check` tells a Take 6 bot's author about a fault: what it was asked and what a
//! correct reply would have been.

use super::game::Card;
use crate::game::Advice;
use crate::record::{GameRecord, InvalidRecord};

/// The advice for `fault`, to which the bot had replied `reply`.
pub fn advice(record: &GameRecord, fault: &InvalidRecord, reply: Option<&str>) -> Advice {
    let (asked, correct) = match fault.phase == super::ROW {
        true => ("choosing a row", "a row number from 0 to 3".to_string()),
        false => {
            let hand = hand_at(record, fault.seat, fault.turn);
            let replied = reply.and_then(|r| r.trim().parse::<i64>().ok());
            let correct = match replied {
                Some(n) if fault.kind == "not_in_hand" => format!(
                    "one of the cards in its hand {} ({n} is not in its hand)",
                    cards(&hand)
                ),
                _ => format!("one of the cards in its hand: {}", cards(&hand)),
            };
            ("choosing a card", correct)
        }
    };
    Advice {
        asked: asked.to_string(),
        correct: format!("{correct}, alone on a line"),
    }
}

/// The seat's hand at the start of `turn` (1-based), sorted.
fn hand_at(record: &GameRecord, seat: usize, turn: u8) -> Vec<Card> {
    let played: Vec<Card> = record
        .first()
        .turns
        .iter()
        .take(usize::from(turn.saturating_sub(1)))
        .map(|t| t.played[seat])
        .collect();
    let mut hand: Vec<Card> = record
        .first()
        .hands
        .get(seat)
        .into_iter()
        .flatten()
        .copied()
        .filter(|c| !played.contains(c))
        .collect();
    hand.sort_unstable();
    hand
}

fn cards(list: &[Card]) -> String {
    list.iter()
        .map(Card::to_string)
        .collect::<Vec<_>>()
        .join(" ")
}
