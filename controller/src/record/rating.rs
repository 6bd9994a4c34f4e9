//! A skill rating beside the mean score: Weng-Lin (OpenSkill) from each game's order of finish,
//! via the `skillratings` crate. Unlike the tally's sums a rating depends on the order games
//! are rated in, so games are rated in game-number order whatever order they finish in: a
//! game that arrives early waits until the games before it are in, and [`Ratings::current`]
//! rates any still waiting (after a gap, e.g. an interrupted series) in order too.

use std::collections::BTreeMap;

use skillratings::weng_lin::{WengLinConfig, WengLinRating};

use super::interner::Interner;
use super::{GameRecord, Standing};

/// One game as the rating sees it: each player's number and total score.
type Finish = Vec<(u32, u32)>;

/// The most players of a game rated on the stack by the pairwise shortcut
/// ([`multi_team_of_one`]); a bigger table (a game may seat more) takes the crate's own
/// computation, which gives the same ratings.
const FAST_SEATS: usize = 10;

/// Weng-Lin ratings of every player, rated in game-number order.
#[derive(Debug, Clone, Default)]
pub struct Ratings {
    /// The next game number to rate.
    next: u64,
    /// Games that finished before some game with a lower number.
    waiting: BTreeMap<u64, Finish>,
    /// Players numbered as first seen: a game's update compares and clones no names.
    names: Interner,
    /// By player number; `None` until the player's first game is rated.
    rated: Vec<Option<WengLinRating>>,
    /// The game being rated (reused).
    finish: Finish,
    /// Which way the games' scores point (every game of a series is of one game).
    direction: super::Direction,
}

impl Ratings {
    /// Ratings of games whose scores point `direction`; [`Ratings::default`] rates
    /// lower-is-better games.
    pub fn new(direction: super::Direction) -> Ratings {
        Ratings {
            direction,
            ..Ratings::default()
        }
    }

    /// Adds a finished game; rates it, and those waiting for it, once every lower game is in.
    pub fn add(&mut self, record: &GameRecord) {
        if !record.scored() {
            return;
        }
        let mut finish = std::mem::take(&mut self.finish);
        finish.clear();
        let higher = self.direction == super::Direction::Higher;
        for (seat, (name, &total)) in record
            .players
            .iter()
            .zip(&*record.total_scores())
            .enumerate()
        {
            // Ranked by a key where lower is better: Take 6's score itself; a higher-is-better
            // score turned around, and a seat that faulted last whatever its score.
            let key = match higher {
                false => total,
                true if record.faults().any(|(_, f)| f.seat == seat) => u32::MAX,
                true => u32::MAX - 1 - total,
            };
            finish.push((self.names.id(name), key));
        }
        if record.game == self.next && self.waiting.is_empty() {
            // In order, as nearly every game is: rated at once, nothing stored.
            self.rate(&finish);
            self.next += 1;
            self.finish = finish;
            return;
        }
        self.waiting.insert(record.game, finish);
        while let Some(finish) = self.waiting.remove(&self.next) {
            self.rate(&finish);
            self.next += 1;
        }
    }

    /// Each player's conservative rating, μ − 3σ (OpenSkill's ordinal: new players start at 0
    /// and rise as their skill becomes both high and certain), waiting games rated in order.
    pub fn current(&self) -> BTreeMap<String, f64> {
        let mut all = self.clone();
        for finish in std::mem::take(&mut all.waiting).into_values() {
            all.rate(&finish);
        }
        all.rated
            .iter()
            .enumerate()
            .filter_map(|(id, r)| {
                let r = r.as_ref()?;
                let name = all.names.name(id as u32).clone();
                Some((name, r.rating - 3.0 * r.uncertainty))
            })
            .collect()
    }

    /// Sets the `rating` of each standing.
    pub fn fill(&self, standings: &mut [Standing]) {
        let current = self.current();
        for s in standings {
            s.rating = current.get(&s.bot).copied();
        }
    }

    /// One game: every player a team of one, ranked by total score (ties share a rank).
    fn rate(&mut self, finish: &Finish) {
        if self.rated.len() < self.names.len() {
            self.rated.resize(self.names.len(), None);
        }
        let n = finish.len();
        if n > FAST_SEATS {
            return self.rate_many(finish);
        }
        let mut before = [WengLinRating::default(); FAST_SEATS];
        let mut ranks = [0usize; FAST_SEATS];
        for (i, &(id, score)) in finish.iter().enumerate() {
            before[i] = self.rated[id as usize].unwrap_or_default();
            ranks[i] = 1 + finish.iter().filter(|(_, s)| *s < score).count();
        }
        let after = multi_team_of_one(&before[..n], &ranks[..n]);
        for (&(id, _), rating) in finish.iter().zip(after) {
            self.rated[id as usize] = Some(rating);
        }
    }

    /// [`Ratings::rate`] of a table bigger than [`FAST_SEATS`]: the crate's computation.
    fn rate_many(&mut self, finish: &Finish) {
        use skillratings::MultiTeamOutcome;
        use skillratings::weng_lin::weng_lin_multi_team;
        let teams: Vec<[WengLinRating; 1]> = finish
            .iter()
            .map(|&(id, _)| [self.rated[id as usize].unwrap_or_default()])
            .collect();
        let input: Vec<(&[WengLinRating], MultiTeamOutcome)> = teams
            .iter()
            .zip(finish)
            .map(|(t, &(_, score))| {
                let rank = 1 + finish.iter().filter(|(_, s)| *s < score).count();
                (&t[..], MultiTeamOutcome::new(rank))
            })
            .collect();
        let after = weng_lin_multi_team(&input, &WengLinConfig::new());
        for (&(id, _), rating) in finish.iter().zip(after) {
            self.rated[id as usize] = Some(rating[0]);
        }
    }
}

/// `skillratings::weng_lin::weng_lin_multi_team` (default config) for teams of one player,
/// operation for operation, so every rating is bit for bit the crate's (a test compares them),
/// at half the cost: the pair (i, q) and the pair (q, i) share `c` and the two exponentials
/// (`a + b == b + a` exactly in floating point), so each unordered pair computes them once.
/// `ranks` are 1-based, ties equal.
fn multi_team_of_one(
    players: &[WengLinRating],
    ranks: &[usize],
) -> impl Iterator<Item = WengLinRating> {
    const N: usize = FAST_SEATS;
    let n = players.len();
    assert!(
        n <= N && ranks.len() == n,
        "at most {N} players, one rank each"
    );
    let config = WengLinConfig::new();
    let beta_sq = config.beta.powi(2);
    // A team's rating and squared uncertainty are sums over its (one) player, as the crate
    // sums them.
    let ratings: [f64; N] = std::array::from_fn(|i| {
        players
            .get(i)
            .map_or(0.0, |p| std::iter::once(p.rating).sum())
    });
    let unc_sq: [f64; N] = std::array::from_fn(|i| {
        players
            .get(i)
            .map_or(0.0, |p| std::iter::once(p.uncertainty.powi(2)).sum())
    });
    // For each pair, once: c and its square, and each side's expected score p (the crate's
    // `p_value` from either side: the same exponentials over the same sum).
    let mut c = [[0.0f64; N]; N];
    let mut c_sq = [[0.0f64; N]; N];
    let mut p = [[0.0f64; N]; N];
    for i in 0..n {
        for q in i + 1..n {
            let c_iq = 2.0f64.mul_add(beta_sq, unc_sq[i] + unc_sq[q]).sqrt();
            let (e_i, e_q) = ((ratings[i] / c_iq).exp(), (ratings[q] / c_iq).exp());
            let sum = e_i + e_q;
            (c[i][q], c[q][i]) = (c_iq, c_iq);
            (c_sq[i][q], c_sq[q][i]) = (c_iq.powi(2), c_iq.powi(2));
            (p[i][q], p[q][i]) = (e_i / sum, e_q / sum);
        }
    }
    (0..n).map(move |i| {
        let mut omega = 0.0;
        let mut large_delta = 0.0;
        let unc = unc_sq[i].sqrt();
        for q in (0..n).filter(|&q| q != i) {
            let (c, p) = (c[i][q], p[i][q]);
            let score = match ranks[q].cmp(&ranks[i]) {
                std::cmp::Ordering::Greater => 1.0,
                std::cmp::Ordering::Equal => 0.5,
                std::cmp::Ordering::Less => 0.0,
            };
            let small_delta = (unc_sq[i] / c) * (score - p);
            let gamma = unc / c;
            let eta = gamma * unc_sq[i] / c_sq[i][q] * p * (1.0 - p);
            omega += small_delta;
            large_delta += eta;
        }
        let player = &players[i];
        let player_unc_sq = player.uncertainty.powi(2);
        let rating = (player_unc_sq / unc_sq[i]).mul_add(omega, player.rating);
        let factor = (player_unc_sq / unc_sq[i])
            .mul_add(-large_delta, 1.0)
            .max(config.uncertainty_tolerance);
        WengLinRating {
            rating,
            uncertainty: (player_unc_sq * factor).sqrt(),
        }
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::record::fixtures::result;

    fn numbered(game: u64, players: &[&str], scores: &[u32]) -> GameRecord {
        GameRecord {
            game,
            ..result(players, scores, &[])
        }
    }

    #[test]
    fn the_player_who_finishes_first_most_often_is_rated_highest() {
        let mut r = Ratings::default();
        for g in 0..30 {
            // "ace" always wins; "mid" beats "low" two games in three.
            let (mid, low) = if g % 3 == 0 { (9, 7) } else { (7, 9) };
            r.add(&numbered(g, &["low", "ace", "mid"], &[low, 2, mid]));
        }
        let now = r.current();
        assert!(
            now["ace"] > now["mid"] && now["mid"] > now["low"],
            "{now:?}"
        );
    }

    #[test]
    fn the_order_games_finish_in_does_not_change_the_ratings() {
        let games: Vec<GameRecord> = (0..12)
            .map(|g| numbered(g, &["a", "b", "c"], &[(g % 3) as u32, 5, (g % 5) as u32]))
            .collect();
        let rate = |order: &[usize]| {
            let mut r = Ratings::default();
            for &i in order {
                r.add(&games[i]);
            }
            r.current()
        };
        let in_order: Vec<usize> = (0..12).collect();
        let shuffled = [3, 0, 1, 2, 7, 4, 11, 5, 6, 8, 10, 9];
        assert_eq!(rate(&in_order), rate(&shuffled));
        // A gap (game 4 missing) still rates the later games, in order.
        let gap: Vec<usize> = (0..12).filter(|&i| i != 4).collect();
        assert_eq!(rate(&gap).len(), 3);
    }

    /// A game may seat more than the shortcut's table: it is rated by the crate itself, and
    /// the same whichever path (a 10-seat game through both).
    #[test]
    fn a_table_bigger_than_the_shortcut_is_rated_by_the_crate() {
        let names: Vec<String> = (0..12).map(|i| format!("p{i}")).collect();
        let names: Vec<&str> = names.iter().map(String::as_str).collect();
        let scores: Vec<u32> = (0..12).map(|i| (i * 7) % 5).collect();
        let mut big = Ratings::default();
        big.add(&crate::record::fixtures::result(&names, &scores, &[]));
        let rated = big.current();
        assert_eq!(rated.len(), 12);
        // Ties rate alike; a better score rates higher.
        assert_eq!(rated["p0"], rated["p5"]);
        assert!(rated["p0"] > rated["p1"], "{rated:?}");
        let mut fast = Ratings::default();
        let mut slow = Ratings::default();
        let ten = &crate::record::fixtures::result(&names[..10], &scores[..10], &[]);
        fast.add(ten);
        slow.rated.resize(10, None);
        let finish: Finish = (0..10).map(|i| (i as u32, scores[i])).collect();
        for (i, name) in names[..10].iter().enumerate() {
            assert_eq!(slow.names.id(name), i as u32);
        }
        slow.rate_many(&finish);
        slow.next = 1;
        assert_eq!(fast.current(), slow.current());
    }

    /// The pairwise shortcut gives exactly the crate's ratings: random ratings, uncertainties
    /// and finishes (ties included) at every table size, compared bit for bit.
    #[test]
    fn ratings_are_bit_for_bit_those_of_skillratings() {
        use rand::rngs::ChaCha8Rng;
        use rand::{RngExt, SeedableRng};
        use skillratings::MultiTeamOutcome;
        use skillratings::weng_lin::weng_lin_multi_team;

        let mut rng = ChaCha8Rng::seed_from_u64(7);
        for case in 0..3000 {
            let n = 2 + case % 9;
            let players: Vec<WengLinRating> = (0..n)
                .map(|_| WengLinRating {
                    rating: rng.random_range(-10.0..60.0),
                    uncertainty: rng.random_range(0.01..9.0),
                })
                .collect();
            let ranks: Vec<usize> = (0..n).map(|_| rng.random_range(1..=n)).collect();
            let teams: Vec<[WengLinRating; 1]> = players.iter().map(|&p| [p]).collect();
            let input: Vec<(&[WengLinRating], MultiTeamOutcome)> = teams
                .iter()
                .zip(&ranks)
                .map(|(t, &r)| (&t[..], MultiTeamOutcome::new(r)))
                .collect();
            let want = weng_lin_multi_team(&input, &WengLinConfig::new());
            let got: Vec<WengLinRating> = multi_team_of_one(&players, &ranks).collect();
            for (w, g) in want.iter().zip(&got) {
                assert_eq!(w[0].rating.to_bits(), g.rating.to_bits(), "case {case}");
                assert_eq!(
                    w[0].uncertainty.to_bits(),
                    g.uncertainty.to_bits(),
                    "case {case}"
                );
            }
            assert_eq!(want.len(), got.len());
        }
    }
}
