//! One round of built-ins on fixed arrays: the rules of [`crate::games::take6::game`] (which the async table
//! plays), restated for a table that only ever seats built-ins, so that a round allocates
//! nothing unless its turns are recorded. The rows keep what a built-in sees of them (top,
//! count, cows) up to date as cards land, instead of recounting them for every decision.
//!
//! The test in [`super`] plays the same tables through the async table and compares the
//! records line for line, so the two cannot drift apart.

use rand::rngs::ChaCha8Rng;
use rand::{RngExt, SeedableRng};

use crate::games::take6::builtin::{Builtin, RowSight, Sight};
use crate::games::take6::game::{
    Card, HAND_SIZE, HIGHEST_CARD, MAX_PLAYERS, ROW_LIMIT, ROWS, cows_of,
};
use crate::record::{PlacementRecord, RowChoice, TurnRecord};

/// The state of one round: hands, rows and the cows each seat took.
pub struct Round {
    n: usize,
    /// Each seat's cards still held, in dealt order: the first `held[seat]` bytes (16 bytes
    /// so that a card is taken out with shifts of one `u128`, not a `memmove` call).
    hands: [[Card; 16]; MAX_PLAYERS],
    held: [usize; MAX_PLAYERS],
    /// Each row's cards, oldest first: the first `sight[row].count`.
    rows: [[Card; ROW_LIMIT]; ROWS],
    sight: [RowSight; ROWS],
    /// Cows each seat took (built-ins never fault, so they all count).
    pub cows: [u32; MAX_PLAYERS],
    /// The row starts, as dealt.
    pub starts: [Card; ROWS],
}

impl Round {
    /// Deals round `round` (0-based) of the game with seed `seed` to `n` seats, hands rotated
    /// by `rotation`: the cards of [`crate::games::take6::table::deal`], shuffled the same way.
    pub fn deal(seed: u64, n: usize, round: u32, rotation: usize) -> Round {
        assert!(
            (1..=MAX_PLAYERS).contains(&n),
            "a table seats 1 to {MAX_PLAYERS} players, not {n}"
        );
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        rng.set_stream(u64::from(round));
        let mut deck: [Card; DECK] = std::array::from_fn(|i| i as Card + 1);
        shuffle(&mut deck, &mut rng);
        let mut hands = [[0; 16]; MAX_PLAYERS];
        for (seat, hand) in hands.iter_mut().take(n).enumerate() {
            let from = (seat + rotation) % n * HAND_SIZE;
            hand[..HAND_SIZE].copy_from_slice(&deck[from..from + HAND_SIZE]);
        }
        let start = n * HAND_SIZE;
        let starts: [Card; ROWS] = std::array::from_fn(|r| deck[start + r]);
        let mut rows = [[0; ROW_LIMIT]; ROWS];
        for (row, &card) in rows.iter_mut().zip(&starts) {
            row[0] = card;
        }
        Round {
            n,
            hands,
            held: [HAND_SIZE; MAX_PLAYERS],
            rows,
            sight: starts.map(|card| RowSight {
                top: card,
                count: 1,
                cows: cows_of(card),
            }),
            cows: [0; MAX_PLAYERS],
            starts,
        }
    }

    /// Each seat's ten cards as dealt (call before the first turn).
    pub fn hands(&self) -> Vec<Vec<Card>> {
        self.hands[..self.n]
            .iter()
            .map(|h| h[..HAND_SIZE].to_vec())
            .collect()
    }

    /// Plays the ten turns with `players` (one per seat), pushing each turn onto `turns` when
    /// it is given.
    pub fn play(&mut self, players: &mut [Builtin], mut turns: Option<&mut Vec<TurnRecord>>) {
        let n = self.n;
        assert_eq!(players.len(), n, "one player per seat");
        for _ in 0..HAND_SIZE {
            // Every seat chooses from the same board; the cards are then revealed together.
            let mut played = [0 as Card; MAX_PLAYERS];
            // The cards revealed, one bit each, and whose each is: the bits in increasing
            // order are the placement order (cards are distinct), with no sort.
            let mut revealed = 0u128;
            let mut owner = [0u8; HIGHEST_CARD as usize + 1];
            for (seat, player) in players.iter_mut().enumerate() {
                let held = self.held[seat];
                let hand = &mut self.hands[seat];
                let card = player.card_in(&Sight {
                    hand: &hand[..held],
                    rows: &self.sight,
                });
                let at = position_of(*hand, card)
                    .filter(|&at| at < held)
                    .unwrap_or_else(|| panic!("seat {seat} does not hold card {card}"));
                *hand = without_byte(*hand, at);
                self.held[seat] = held - 1;
                played[seat] = card;
                revealed |= 1 << card;
                owner[usize::from(card)] = seat as u8;
            }
            let mut events = turns.as_ref().map(|_| Vec::with_capacity(n));
            while revealed != 0 {
                let card = revealed.trailing_zeros() as Card;
                revealed &= revealed - 1;
                let seat = usize::from(owner[usize::from(card)]);
                let (row, reason, full) = match self.row_for(card) {
                    Some(row) => (row, None, usize::from(self.sight[row].count) >= ROW_LIMIT),
                    None => {
                        let row = players[seat].row_in(&Sight {
                            hand: &self.hands[seat][..self.held[seat]],
                            rows: &self.sight,
                        });
                        (row, Some(RowChoice::Pick), true)
                    }
                };
                let before = self.sight[row];
                // The row's cards before the card lands, and how many of them it takes.
                let taken = self.rows[row];
                let took = self.land(seat, card, row, full);
                if let Some(events) = &mut events {
                    events.push(PlacementRecord {
                        seat,
                        card,
                        row,
                        took: taken[..took].to_vec(),
                        cows: if full { before.cows } else { 0 },
                        reason,
                    });
                }
            }
            if let (Some(turns), Some(events)) = (turns.as_deref_mut(), events) {
                turns.push(TurnRecord {
                    played: played[..n].to_vec(),
                    events,
                });
            }
        }
    }

    /// Lands `card`, played by `seat`, on the row `row`: on top of it, or, when `full`, taking
    /// its cards and cows and starting it again. Returns how many cards it took.
    #[inline]
    fn land(&mut self, seat: usize, card: Card, row: usize, full: bool) -> usize {
        let before = self.sight[row];
        if full {
            // The card takes the row and starts it again.
            self.rows[row][0] = card;
            self.sight[row] = RowSight {
                top: card,
                count: 1,
                cows: cows_of(card),
            };
            self.cows[seat] += before.cows;
            usize::from(before.count)
        } else {
            self.rows[row][usize::from(before.count)] = card;
            self.sight[row] = RowSight {
                top: card,
                count: before.count + 1,
                cows: before.cows + cows_of(card),
            };
            0
        }
    }

    /// The row `card` goes on: the one whose top is the highest below it; `None` when the card
    /// is lower than every top.
    fn row_for(&self, card: Card) -> Option<usize> {
        // The highest top below the card is the smallest gap; a top above the card wraps
        // to a gap of 153 or more (cards are at most 103 apart). No branch per row.
        let mut target = u32::MAX;
        for (row, s) in self.sight.iter().enumerate() {
            let gap = u32::from(card.wrapping_sub(s.top));
            target = target.min(gap << 2 | row as u32);
        }
        (target >> 2 <= 127).then_some((target & 3) as usize)
    }
}

/// Cards in the deck.
const DECK: usize = HIGHEST_CARD as usize;

/// `deck.shuffle(rng)` as rand 0.10 does it for a slice, draw for draw, so the deal is
/// [`crate::games::take6::game::Deal::shuffled`]'s (a test compares them): Fisher–Yates where each draw
/// `random_range(..bound)` yields several indices, `bound` being the product of the next few
/// ranges. What differs is only how the indices are taken out of a draw: by a multiplication
/// with each range's precomputed inverse ([`divide`]) instead of two hardware divisions each,
/// which made the shuffle a tenth of a game's cost.
fn shuffle(deck: &mut [Card; DECK], rng: &mut ChaCha8Rng) {
    let mut chunk = 0u32;
    // The first index (of the range 0..1) is 0 and takes no draw.
    let mut remaining = 1u8;
    for i in 0..DECK {
        let range = i + 1;
        remaining = match remaining.checked_sub(1) {
            Some(r) => r,
            None => {
                let (bound, count) = BOUNDS[range];
                chunk = rng.random_range(..bound);
                count - 1
            }
        };
        let index = if remaining == 0 {
            chunk
        } else {
            let (quotient, index) = divide(chunk, range);
            chunk = quotient;
            index
        };
        deck.swap(i, index as usize);
    }
}

/// For each range size `m` of the shuffle (1..=104): rand's `calculate_bound_u32(m)`, the
/// largest product `m (m + 1) … (m + count − 1)` that fits in a `u32`, and `count`.
const BOUNDS: [(u32, u8); DECK + 1] = {
    let mut table = [(0, 0); DECK + 1];
    let mut m = 1;
    while m <= DECK {
        let mut product = m as u32;
        let mut current = m as u32 + 1;
        while let Some(p) = product.checked_mul(current) {
            product = p;
            current += 1;
        }
        table[m] = (product, (current - m as u32) as u8);
        m += 1;
    }
    table
};

/// For each divisor `d` of 2..=104, `u64::MAX / d + 1`: with it, `x / d` and `x % d` of any
/// `u32` are two multiplications (Lemire, Kaser and Kurz, "Faster remainder by direct
/// computation", 2019: exact for every 32-bit `x` with a 64-bit inverse).
const INVERSES: [u64; DECK + 1] = {
    let mut table = [0; DECK + 1];
    let mut d = 2;
    while d <= DECK {
        table[d] = u64::MAX / d as u64 + 1;
        d += 1;
    }
    table
};

/// `(x / d, x % d)` for `d` in 1..=104.
fn divide(x: u32, d: usize) -> (u32, u32) {
    if d == 1 {
        return (x, 0);
    }
    let inverse = INVERSES[d];
    let quotient = ((u128::from(inverse) * u128::from(x)) >> 64) as u32;
    let low = inverse.wrapping_mul(u64::from(x));
    let remainder = ((u128::from(low) * d as u128) >> 64) as u32;
    (quotient, remainder)
}

/// `bytes` with the byte at `at` taken out and the bytes after it moved down one place.
fn without_byte(bytes: [u8; 16], at: usize) -> [u8; 16] {
    let x = u128::from_le_bytes(bytes);
    let below = x & ((1u128 << (8 * at)) - 1);
    // `at` is at most 9: the shift is at most 80 bits.
    let above = (x >> (8 * (at + 1))) << (8 * at);
    (below | above).to_le_bytes()
}

/// Where `card` is in `bytes`, with no branch per byte (the byte a seat's choice is at is
/// random, so a search loop mispredicts): the first zero byte of `bytes ^ card…card`. Bytes
/// past a hand's cards are 0, which no card is.
fn position_of(bytes: [u8; 16], card: Card) -> Option<usize> {
    const ONES: u128 = u128::from_le_bytes([1; 16]);
    let v = u128::from_le_bytes(bytes) ^ (ONES * u128::from(card));
    // The classic zero-byte test: exact for the lowest zero byte.
    let zero = v.wrapping_sub(ONES) & !v & (ONES << 7);
    (zero != 0).then(|| zero.trailing_zeros() as usize / 8)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_card_is_found_and_taken_out_at_any_place_of_a_hand() {
        let hand: [u8; 16] = [7, 104, 1, 55, 9, 10, 11, 12, 13, 14, 0, 0, 0, 0, 0, 0];
        for at in 0..10 {
            assert_eq!(position_of(hand, hand[at]), Some(at));
            let mut want = hand.to_vec();
            want.remove(at);
            want.push(0);
            assert_eq!(without_byte(hand, at).to_vec(), want);
        }
        assert_eq!(position_of(hand, 2), None);
        assert_eq!(position_of(hand, 103), None);
    }

    /// The shortcut division is the hardware's for every divisor the shuffle uses, on the
    /// edges and on many values between.
    #[test]
    fn division_by_inverse_is_exact() {
        let mut x = 0x9e37_79b9u32;
        for d in 1..=DECK {
            let dd = d as u32;
            let edges = [
                0,
                1,
                dd - 1,
                dd,
                dd + 1,
                u32::MAX,
                u32::MAX - 1,
                u32::MAX / dd * dd,
            ];
            for &v in edges.iter().chain(&[x, x / 3, x >> 7]) {
                assert_eq!(divide(v, d), (v / dd, v % dd), "{v} / {d}");
            }
            for _ in 0..20_000 {
                x ^= x << 13;
                x ^= x >> 17;
                x ^= x << 5;
                assert_eq!(divide(x, d), (x / dd, x % dd), "{x} / {d}");
            }
        }
    }

    /// The deck comes out as rand's own shuffle leaves it, for many seeds and streams.
    #[test]
    fn the_shuffle_is_rands() {
        for seed in 0..3000u64 {
            let rng = || {
                let mut rng = ChaCha8Rng::seed_from_u64(seed);
                rng.set_stream(seed % 5);
                rng
            };
            let (mut ours, mut theirs) = (rng(), rng());
            let mut deck: [Card; DECK] = std::array::from_fn(|i| i as Card + 1);
            shuffle(&mut deck, &mut ours);
            let mut want: Vec<Card> = (1..=HIGHEST_CARD).collect();
            rand::seq::SliceRandom::shuffle(&mut want[..], &mut theirs);
            assert_eq!(deck.to_vec(), want, "seed {seed}");
            assert_eq!(
                ours.random::<u64>(),
                theirs.random::<u64>(),
                "the same draws"
            );
        }
    }
}
