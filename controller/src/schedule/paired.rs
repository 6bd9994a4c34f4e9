//! Paired games (`take6 compare`): two versions, NEW and OLD, at every table. Pair `k` is
//! games `2k` and `2k + 1`, one deal (one game seed) played twice: the second game seats
//! everyone as the first except NEW and OLD, who swap seats, and with them the hands the deal
//! gives those seats, so the luck of the deal and of the seat falls on both alike. The other
//! seats are filled from the field (chosen by the pair's seed when it has more bots than
//! seats) and then the game's built-ins. Everything about pair `k` derives from the master
//! seed, the table size, the field's size and `k` alone.

use rand::Rng;
use rand::seq::{IndexedRandom, SliceRandom};

use crate::seed::Seed;
use crate::table::BuiltinKind;

/// Who sits in a seat of a paired game.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Role {
    New,
    Old,
    /// The field's bot with this index.
    Field(usize),
    /// A padding built-in and its 1-based number among its kind (`random#2`).
    Builtin(BuiltinKind, usize),
}

/// One pair: its number, the deal's seed and the first game's seats.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Pair {
    pub pair: u64,
    pub seed: u64,
    pub seats: Vec<Role>,
}

impl Pair {
    /// The pair of a game number.
    pub fn of_game(game: u64) -> u64 {
        game / 2
    }

    /// Game `which` (0 or 1) of the pair: its number and its seats (NEW and OLD swapped in
    /// the second).
    pub fn game(&self, which: u64) -> (u64, Vec<Role>) {
        let seats = if which == 0 {
            self.seats.clone()
        } else {
            self.seats
                .iter()
                .map(|r| match r {
                    Role::New => Role::Old,
                    Role::Old => Role::New,
                    other => *other,
                })
                .collect()
        };
        (2 * self.pair + which, seats)
    }
}

/// The deal's seed of pair `k`: the master seed's ChaCha stream `k`.
fn pair_seed(seed: Seed, k: u64) -> u64 {
    let mut rng = seed.rng();
    rng.set_stream(k);
    rng.next_u64()
}

/// Pair `k` of a compare at tables of `players` (at least 2) with a field of `field` bots and
/// the game's `builtins` (padding order).
pub fn pair(seed: Seed, k: u64, players: usize, field: usize, builtins: &[BuiltinKind]) -> Pair {
    let deal = pair_seed(seed, k);
    let mut rng = super::seat_rng(deal);
    let others = players.saturating_sub(2);
    let all: Vec<usize> = (0..field).collect();
    let mut chosen: Vec<usize> = all.sample(&mut rng, others.min(field)).copied().collect();
    chosen.sort_unstable();
    let mut count = vec![0usize; builtins.len()];
    let padding = others - chosen.len();
    let mut seats: Vec<Role> = [Role::New, Role::Old]
        .into_iter()
        .chain(chosen.into_iter().map(Role::Field))
        .chain((0..padding).map(|i| {
            let kind = i % builtins.len().max(1);
            count[kind] += 1;
            Role::Builtin(builtins[kind], count[kind])
        }))
        .collect();
    seats.shuffle(&mut rng);
    Pair {
        pair: k,
        seed: deal,
        seats,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    const KINDS: [BuiltinKind; 2] = [
        BuiltinKind {
            index: 0,
            name: "random",
        },
        BuiltinKind {
            index: 1,
            name: "gap",
        },
    ];

    proptest! {
        /// Both games of a pair: one seed, NEW and OLD swapped, everyone else where they were;
        /// the table full, no field bot twice.
        #[test]
        fn a_pair_swaps_only_new_and_old(seed in any::<u64>(), k in 0u64..1000,
                                          players in 2usize..=10, field in 0usize..12) {
            let p = pair(Seed::from(seed), k, players, field, &KINDS);
            prop_assert_eq!(p.seats.len(), players);
            let (g0, a) = p.game(0);
            let (g1, b) = p.game(1);
            prop_assert_eq!((g0, g1), (2 * k, 2 * k + 1));
            prop_assert_eq!((Pair::of_game(g0), Pair::of_game(g1)), (k, k));
            let new = a.iter().position(|r| *r == Role::New).unwrap();
            let old = a.iter().position(|r| *r == Role::Old).unwrap();
            prop_assert_eq!(b[new], Role::Old);
            prop_assert_eq!(b[old], Role::New);
            for (i, (x, y)) in a.iter().zip(&b).enumerate() {
                if i != new && i != old {
                    prop_assert_eq!(x, y);
                }
            }
            let fielded: Vec<usize> = a.iter().filter_map(|r| match r {
                Role::Field(i) => Some(*i),
                _ => None,
            }).collect();
            prop_assert_eq!(fielded.len(), (players - 2).min(field));
            let mut unique = fielded.clone();
            unique.sort_unstable();
            unique.dedup();
            prop_assert_eq!(unique.len(), fielded.len());
            // A pair is the same whenever it is asked for.
            prop_assert_eq!(pair(Seed::from(seed), k, players, field, &KINDS), p);
        }
    }

    #[test]
    fn pairs_deal_apart_and_seat_new_everywhere() {
        let seed = Seed::from(7);
        let pairs: Vec<Pair> = (0..200).map(|k| pair(seed, k, 4, 0, &KINDS)).collect();
        let seeds: std::collections::BTreeSet<u64> = pairs.iter().map(|p| p.seed).collect();
        assert_eq!(seeds.len(), 200);
        let mut at = [0; 4];
        for p in &pairs {
            at[p.seats.iter().position(|r| *r == Role::New).unwrap()] += 1;
        }
        assert!(at.iter().all(|&n| n > 20), "{at:?}");
    }
}
