// NAME: a Take 6! bot for take6 (the default protocol: docs/protocol.md), written by
// `take6 new`. It plays the lowest card of its hand and, asked for a row, takes the one with
// the fewest cows. Put your strategy in choose_card and choose_row; the rest reads the
// protocol.
use std::io::{BufRead, Write};

/// The card to play: one of `hand`. Per row 0-3: its cards, its cows, its last card.
fn choose_card(hand: &[u32], _count: &[u32], _cows: &[u32], _top: &[u32]) -> u32 {
    *hand.iter().min().unwrap()
}

/// The row to take (0-3) when the card played is lower than every row's last card.
fn choose_row(_count: &[u32], cows: &[u32], _top: &[u32]) -> usize {
    (0..4).min_by_key(|&r| cows[r]).unwrap()
}

fn main() {
    let stdout = std::io::stdout();
    let mut out = stdout.lock();
    let (mut hand, mut count, mut cows, mut picking) = (Vec::new(), Vec::new(), Vec::new(), false);
    for line in std::io::stdin().lock().lines() {
        let line = line.unwrap();
        let mut words = line.split_whitespace();
        let Some(word) = words.next() else { continue };
        let numbers: Vec<u32> = words.map(|w| w.parse().unwrap()).collect();
        match word {
            "cards" => hand = numbers,
            "count" => count = numbers,
            "cows" => cows = numbers,
            "pickrow" => picking = true,
            "top" => {
                // The last line of a question: reply, and flush.
                if picking {
                    writeln!(out, "{}", choose_row(&count, &cows, &numbers)).unwrap();
                    picking = false;
                } else {
                    let card = choose_card(&hand, &count, &cows, &numbers);
                    hand.retain(|&c| c != card);
                    writeln!(out, "{card}").unwrap();
                }
                out.flush().unwrap();
            }
            "invalid" => return,
            _ => {} // used, cardgain, cowgain, score, others: news, no reply
        }
    }
}
