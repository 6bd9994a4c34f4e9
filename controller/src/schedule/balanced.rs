//! Balanced tables for a field too big to play every subset: a deterministic greedy design,
//! built one table at a time from the master seed.
//!
//! Two rules make it balanced. Games per entrant never differ by more than one: a table takes
//! every entrant with the fewest games when they fit, and fills the other seats from those
//! with one game more. And pairs meet nearly equally often: each seat goes to the candidate
//! that has shared the fewest tables with the entrants already seated, ties broken by a
//! seeded shuffle. The state is the games per entrant and the pair counts (entrants², never a
//! list of subsets), so 30 entrants schedule a thousand tables in a few milliseconds; table
//! *t* is a pure function of (seed, entrants, seats, *t*), computed by replaying tables 0..*t*.

use crate::seed::Seed;
use rand::rngs::ChaCha8Rng;
use rand::seq::SliceRandom;

/// The ChaCha stream of the master seed the balancer draws its tie-breaks from; game seeds use
/// streams 0, 1, 2, … (the game or table number), so this one is far away from all of them.
const BALANCER_STREAM: u64 = u64::MAX - 1;

/// The greedy balancer's state: everything needed to choose the next table.
#[derive(Debug)]
pub struct Balancer {
    seats: usize,
    /// Tables each entrant has sat at so far.
    games: Vec<u64>,
    /// `pairs[a * n + b]`: tables `a` and `b` have shared so far (symmetric).
    pairs: Vec<u32>,
    rng: ChaCha8Rng,
    /// Scratch: entrants in this table's random tie-break order.
    order: Vec<usize>,
}

impl Balancer {
    /// A balancer seating `seats` of `entrants` (more entrants than seats) per table.
    pub fn new(entrants: usize, seats: usize, master_seed: Seed) -> Balancer {
        debug_assert!(entrants > seats && seats >= 1);
        let mut rng = master_seed.rng();
        rng.set_stream(BALANCER_STREAM);
        Balancer {
            seats,
            games: vec![0; entrants],
            pairs: vec![0; entrants * entrants],
            rng,
            order: (0..entrants).collect(),
        }
    }

    /// The members of the next table, ascending.
    pub fn next_table(&mut self) -> Vec<usize> {
        let n = self.games.len();
        let fewest = self.games.iter().copied().min().unwrap_or(0);
        self.order.shuffle(&mut self.rng);
        let due = self.games.iter().filter(|&&g| g == fewest).count();
        let mut chosen: Vec<usize> = Vec::with_capacity(self.seats);
        // Everyone with the fewest games sits if they fit; the pool fills the other seats.
        let pool_games = if due <= self.seats {
            chosen.extend(
                self.order
                    .iter()
                    .copied()
                    .filter(|&e| self.games[e] == fewest),
            );
            fewest + 1
        } else {
            fewest
        };
        let mut pool: Vec<usize> = self
            .order
            .iter()
            .copied()
            .filter(|&e| self.games[e] == pool_games)
            .collect();
        // The score of a candidate: tables shared with those already seated, kept up to date.
        let mut shared: Vec<u64> = vec![0; n];
        for &c in &chosen {
            self.add_shared(&mut shared, c);
        }
        while chosen.len() < self.seats {
            let (at, _) = pool
                .iter()
                .enumerate()
                .min_by_key(|&(i, &e)| (shared[e], i))
                .expect("the pool holds enough entrants to fill the table");
            let pick = pool.remove(at);
            self.add_shared(&mut shared, pick);
            chosen.push(pick);
        }
        chosen.sort_unstable();
        for (i, &a) in chosen.iter().enumerate() {
            self.games[a] += 1;
            for &b in &chosen[i + 1..] {
                self.pairs[a * n + b] += 1;
                self.pairs[b * n + a] += 1;
            }
        }
        chosen
    }

    /// Games per entrant and tables per pair so far: `(games min, games max, pairs min,
    /// pairs max)`.
    pub fn spread(&self) -> (u64, u64, u64, u64) {
        let n = self.games.len();
        let games = || self.games.iter().copied();
        let pairs =
            || (0..n).flat_map(move |a| (a + 1..n).map(move |b| u64::from(self.pairs[a * n + b])));
        (
            games().min().unwrap_or(0),
            games().max().unwrap_or(0),
            pairs().min().unwrap_or(0),
            pairs().max().unwrap_or(0),
        )
    }

    fn add_shared(&self, shared: &mut [u64], seated: usize) {
        let n = self.games.len();
        for (e, s) in shared.iter_mut().enumerate() {
            *s += u64::from(self.pairs[seated * n + e]);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_table_has_distinct_members_and_games_never_differ_by_more_than_one() {
        for (entrants, seats) in [(11, 10), (12, 4), (7, 2), (25, 10), (19, 6)] {
            let mut b = Balancer::new(entrants, seats, 3.into());
            for _ in 0..200 {
                let t = b.next_table();
                assert_eq!(t.len(), seats);
                assert!(t.windows(2).all(|w| w[0] < w[1]), "distinct, ascending");
                let (lo, hi) = (b.games.iter().min(), b.games.iter().max());
                assert!(hi.unwrap() - lo.unwrap() <= 1, "{entrants}/{seats}");
            }
        }
    }

    #[test]
    fn the_same_seed_gives_the_same_tables() {
        let tables = |seed: u64| {
            let mut b = Balancer::new(15, 10, seed.into());
            (0..50).map(|_| b.next_table()).collect::<Vec<_>>()
        };
        assert_eq!(tables(5), tables(5));
        assert_ne!(tables(5), tables(6));
    }
}
