//! The running aggregate behind the leaderboard: integer sums per player, so the standings are
//! the same whatever order games are added in (finishing order, replay, merged shards).

use std::collections::BTreeMap;

use serde::Serialize;

use super::GameRecord;

/// Wins are kept as integer multiples of `1 / WIN_UNITS`, so that a win shared by up to ten
/// tied seats is exact and the sum does not depend on the order games are added in.
/// 2520 is the least common multiple of 1..=10 (a game seats at most 10 players).
const WIN_UNITS: u64 = 2520;

/// What the tally knows about one player, summed over the games it played.
///
/// Every field is an integer so that adding games in any order gives the same numbers; the
/// floating-point figures of a [`Standing`] are computed from these at the end.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
struct PlayerTally {
    builtin: bool,
    games: u64,
    total_score: u64,
    /// Sum of squared scores, for the sample variance behind `ci95`.
    total_sq: u128,
    /// Wins in units of `1 / WIN_UNITS`.
    win_units: u64,
    /// Games in which the player faulted.
    faults: u64,
    /// Fault records per `InvalidRecord::kind`.
    fault_kinds: BTreeMap<String, u64>,
}

/// The running aggregate behind the leaderboard, updated by the single reporter task as each
/// game finishes.
///
/// It is keyed by player name (a bot keeps its name across games, whatever its seat) and holds
/// only integer sums, so the standings it yields are the same whatever order games finish in.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Tally {
    games: u64,
    players: BTreeMap<String, PlayerTally>,
}

impl Tally {
    /// Adds one finished game. The lowest score wins; tied seats share the win equally.
    ///
    /// The record is trusted (see [`check_record`] for tests); its per-seat vectors must be as
    /// long as `players`.
    pub fn add(&mut self, record: &GameRecord) {
        self.games += 1;
        let best = record.scores.iter().copied().min();
        let winners = record.scores.iter().filter(|&&s| Some(s) == best).count() as u64;
        for (seat, name) in record.players.iter().enumerate() {
            let p = self.players.entry(name.clone()).or_default();
            p.builtin |= record.builtin.get(seat).copied().unwrap_or(false);
            let score = u64::from(record.scores[seat]);
            p.games += 1;
            p.total_score += score;
            p.total_sq += u128::from(score) * u128::from(score);
            if Some(record.scores[seat]) == best {
                p.win_units += WIN_UNITS / winners;
            }
            let mut faulted = false;
            for fault in record.invalid.iter().filter(|f| f.seat == seat) {
                faulted = true;
                *p.fault_kinds.entry(fault.kind.clone()).or_default() += 1;
            }
            if faulted {
                p.faults += 1;
            }
        }
    }

    /// How many games have been added.
    pub fn games(&self) -> u64 {
        self.games
    }

    /// The leaderboard: one row per player that played, by mean score ascending (lower is
    /// better), then name; equal means share a rank (standard competition ranking, "1224").
    pub fn standings(&self) -> Vec<Standing> {
        let mut players: Vec<(&String, &PlayerTally)> =
            self.players.iter().filter(|(_, p)| p.games > 0).collect();
        // Compare means exactly, as fractions, so equal means tie whatever their float value.
        let cmp_mean = |a: &PlayerTally, b: &PlayerTally| {
            (u128::from(a.total_score) * u128::from(b.games))
                .cmp(&(u128::from(b.total_score) * u128::from(a.games)))
        };
        players.sort_by(|(an, a), (bn, b)| cmp_mean(a, b).then_with(|| an.cmp(bn)));
        let mut out: Vec<Standing> = Vec::with_capacity(players.len());
        for (i, &(name, p)) in players.iter().enumerate() {
            let rank = match i.checked_sub(1) {
                Some(prev) if cmp_mean(players[prev].1, p).is_eq() => out[prev].rank,
                _ => i + 1,
            };
            out.push(Standing {
                rank,
                bot: name.clone(),
                builtin: p.builtin,
                games: p.games,
                total_score: p.total_score,
                mean_score: p.total_score as f64 / p.games as f64,
                ci95: ci95(p.games, p.total_score, p.total_sq),
                wins: p.win_units as f64 / WIN_UNITS as f64,
                faults: p.faults,
                fault_kinds: p.fault_kinds.clone(),
            });
        }
        out
    }
}

/// Half-width of the 95% confidence interval of a mean: `1.96 * s / sqrt(n)`, with `s` the
/// sample standard deviation (n − 1). `None` below two games, where `s` is undefined.
fn ci95(n: u64, sum: u64, sum_sq: u128) -> Option<f64> {
    if n < 2 {
        return None;
    }
    let n128 = u128::from(n);
    // n·Σx² − (Σx)² = n·(n − 1)·s², exact in integers (never negative).
    let spread = n128 * sum_sq - u128::from(sum) * u128::from(sum);
    let variance = spread as f64 / (n as f64 * (n - 1) as f64);
    Some(1.96 * variance.sqrt() / (n as f64).sqrt())
}

/// One row of the leaderboard, for the CSV export, the summary table and reports.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Standing {
    /// 1-based; players with equal mean scores share a rank and the next rank skips.
    pub rank: usize,
    /// The player's name.
    pub bot: String,
    /// Whether the player is one of the controller's built-in players.
    pub builtin: bool,
    /// Games the player took part in.
    pub games: u64,
    /// Sum of the player's scores (cows that counted plus penalties).
    pub total_score: u64,
    /// `total_score / games`; lower is better.
    pub mean_score: f64,
    /// Half-width of the 95% confidence interval of `mean_score`; `None` below two games.
    pub ci95: Option<f64>,
    /// Games won, a tie sharing the win equally (so possibly fractional).
    pub wins: f64,
    /// Games in which the player faulted.
    pub faults: u64,
    /// How many faults of each kind (`InvalidRecord::kind`) the player made.
    pub fault_kinds: BTreeMap<String, u64>,
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::record::export::{leaderboard_csv, summary_table};
    use crate::record::fixtures::{result, series, tally};
    use proptest::prelude::*;

    #[test]
    fn standings_of_the_series_by_hand() {
        let t = tally(&series());
        assert_eq!(t.games(), 3);
        let s = t.standings();
        let rows: Vec<(usize, &str, u64, u64)> = s
            .iter()
            .map(|s| (s.rank, s.bot.as_str(), s.games, s.total_score))
            .collect();
        assert_eq!(
            rows,
            vec![
                (1, "alice", 3, 36),
                (1, "bob", 2, 24),
                (3, "carol", 2, 26),
                (4, "random#1", 3, 75),
                (5, "dave", 1, 105),
            ]
        );
        assert!((s[0].wins - (0.5 + 1.0 / 3.0 + 0.5)).abs() < 1e-12);
        assert!(s[3].builtin && !s[0].builtin);
        assert_eq!(s[4].ci95, None);
        assert_eq!(s[4].faults, 1);
        assert_eq!(
            s[4].fault_kinds,
            BTreeMap::from([("timeout".to_string(), 1)])
        );
        assert_eq!(s[0].faults, 0);
    }

    #[test]
    fn competition_ranking_skips_after_ties() {
        let t = tally(&[result(
            &["a", "b", "c", "d", "e", "f"],
            &[8, 5, 9, 5, 7, 8],
            &[],
        )]);
        let ranks: Vec<(usize, String)> =
            t.standings().into_iter().map(|s| (s.rank, s.bot)).collect();
        let want = [(1, "b"), (1, "d"), (3, "e"), (4, "a"), (4, "f"), (6, "c")];
        assert_eq!(
            ranks,
            want.map(|(r, b)| (r, b.to_string())).to_vec(),
            "equal means share a rank, ordered by name"
        );
    }

    #[test]
    fn equal_means_over_different_game_counts_tie() {
        // 10/1 and 30/3: equal as fractions, whatever floating point says.
        let t = tally(&[
            result(&["x", "y"], &[10, 10], &[]),
            result(&["y", "z"], &[10, 40], &[]),
            result(&["y"], &[10], &[]),
        ]);
        let s = t.standings();
        assert_eq!((s[0].rank, s[0].bot.as_str()), (1, "x"));
        assert_eq!((s[1].rank, s[1].bot.as_str()), (1, "y"));
        assert_eq!((s[2].rank, s[2].bot.as_str()), (3, "z"));
    }

    #[test]
    fn ci95_against_a_hand_computation() {
        // 3 and 7: mean 5, s² = (4 + 4) / 1 = 8, ci = 1.96 · √8 / √2 = 1.96 · 2 = 3.92.
        let s = tally(&[result(&["a"], &[3], &[]), result(&["a"], &[7], &[])]).standings();
        assert_eq!(s[0].mean_score, 5.0);
        assert!((s[0].ci95.unwrap() - 3.92).abs() < 1e-12);
        // 10, 20, 30: mean 20, s = 10, ci = 19.6 / √3 = 11.31607...
        let s = tally(&[
            result(&["a"], &[10], &[]),
            result(&["a"], &[20], &[]),
            result(&["a"], &[30], &[]),
        ])
        .standings();
        assert!((s[0].ci95.unwrap() - 11.316_065).abs() < 1e-6);
        // Constant scores: no spread at all.
        let s = tally(&[result(&["a"], &[4], &[]), result(&["a"], &[4], &[])]).standings();
        assert_eq!(s[0].ci95, Some(0.0));
        // One game: undefined.
        let s = tally(&[result(&["a"], &[4], &[])]).standings();
        assert_eq!(s[0].ci95, None);
    }

    #[test]
    fn a_ten_way_tie_shares_the_win_exactly() {
        let names: Vec<String> = (0..10).map(|i| format!("p{i}")).collect();
        let names: Vec<&str> = names.iter().map(String::as_str).collect();
        let t = tally(&[result(&names, &[7; 10], &[])]);
        let total: u64 = t.players.values().map(|p| p.win_units).sum();
        assert_eq!(total, WIN_UNITS);
        assert!(t.standings().iter().all(|s| s.wins == 0.1));
    }

    /// Names the generated games draw from; `random#1` is the built-in.
    const POOL: [&str; 6] = ["ann", "ben", "cat", "dan", "eve", "random#1"];

    /// A game of 1 to 6 players from the pool with small scores (so ties are common) and
    /// occasional faults.
    fn arb_result() -> impl Strategy<Value = GameRecord> {
        (
            proptest::sample::subsequence(POOL.to_vec(), 1..=POOL.len()).prop_shuffle(),
            proptest::collection::vec(
                (0u32..=8, proptest::option::weighted(0.2, 0usize..2)),
                POOL.len(),
            ),
        )
            .prop_map(|(names, seats)| {
                let seats = &seats[..names.len()];
                let scores: Vec<u32> = seats
                    .iter()
                    .map(|&(s, f)| s + if f.is_some() { 100 } else { 0 })
                    .collect();
                let faults: Vec<(usize, &str)> = seats
                    .iter()
                    .enumerate()
                    .filter_map(|(seat, &(_, f))| f.map(|k| (seat, ["timeout", "exited"][k])))
                    .collect();
                result(&names, &scores, &faults)
            })
    }

    proptest! {
        #[test]
        fn wins_of_each_game_sum_to_one(game in arb_result()) {
            let t = tally(std::slice::from_ref(&game));
            let units: u64 = t.players.values().map(|p| p.win_units).sum();
            prop_assert_eq!(units, WIN_UNITS);
            let wins: f64 = t.standings().iter().map(|s| s.wins).sum();
            prop_assert!((wins - 1.0).abs() < 1e-12, "wins sum to {}", wins);
        }

        #[test]
        fn add_order_does_not_change_the_results(
            (games, shuffled) in proptest::collection::vec(arb_result(), 0..24)
                .prop_flat_map(|g| (Just(g.clone()), Just(g).prop_shuffle()))
        ) {
            let a = tally(&games);
            let b = tally(&shuffled);
            prop_assert_eq!(&a, &b);
            let (sa, sb) = (a.standings(), b.standings());
            prop_assert_eq!(&sa, &sb);
            prop_assert_eq!(leaderboard_csv(&sa), leaderboard_csv(&sb));
            prop_assert_eq!(summary_table(&sa, &[]), summary_table(&sb, &[]));
            let wins: f64 = sa.iter().map(|s| s.wins).sum();
            prop_assert!((wins - games.len() as f64).abs() < 1e-9);
        }
    }
}
