//! Which tables a league plays next: a pure function of what the batches before taught it, so
//! the same seed, bots and batch size give the same games whatever `--jobs` is, and `take6
//! verify` can check every choice.
//!
//! Each table of a batch is filled in turn: first the versions still short of their minimum
//! of games (new and changed bots play first), then the bots whose order among the top K is
//! least settled ([`needs`]: the more unsettled, the more they need), then the bots with the
//! fewest games, so that nobody is starved and every pair of contenders keeps meeting. A bot
//! seated in the batch has its need halved for the next table, so a batch spreads over the
//! contenders. Ties are broken by a shuffle from the batch's seed. Under chooser 3 a table
//! with a new version seats, beside it, those it has met least in the batch, the leader first
//! among equals: a newcomer meets the whole field, the leader included, within its first games.

use rand::SeedableRng;
use rand::rngs::ChaCha8Rng;
use rand::seq::SliceRandom;

use super::settle;
use crate::record::Fitted;

/// How much each entrant needs games now: for each adjacent pair among the top `top + 1`
/// (`ranked`: entrant indices, best first, with `ids` their numbers in the fit) that is not
/// yet settled, both get `1 − settledness`; so does each bot below that could still reach the
/// top `top` (not settled below the `top`-th).
pub fn needs(
    fit: &Fitted,
    ids: &[Option<u32>],
    ranked: &[usize],
    top: usize,
    alpha: f64,
) -> Vec<f64> {
    let mut need = vec![0.0; ids.len()];
    let pairs = top.min(ranked.len().saturating_sub(1));
    if pairs == 0 {
        return need;
    }
    let each = alpha / pairs as f64;
    let settled = |a: usize, b: usize| match (ids[a], ids[b]) {
        (Some(x), Some(y)) => settle::settledness(fit, x, y, each),
        _ => 0.0,
    };
    for r in 0..pairs {
        let (a, b) = (ranked[r], ranked[r + 1]);
        let gap = (1.0 - settled(a, b)).max(0.0);
        need[a] += gap;
        need[b] += gap;
    }
    // Below the first `top + 1`: whoever could still reach the top `top`.
    let last = ranked[pairs - 1];
    for &j in &ranked[pairs + 1..] {
        let gap = (1.0 - settled(last, j)).max(0.0);
        need[j] += gap;
        need[last] += gap / 4.0;
    }
    need
}

/// The entrants of the top `top` adjacent pairs not yet settled (as [`needs`] takes them),
/// the least settled pair first, each entrant once: [`choose`] seats them at every table of a
/// batch, up to half its seats, so that the pairs that decide whether the ranking is settled
/// meet at every table while the other seats go round the contenders.
pub fn pinned(
    fit: &Fitted,
    ids: &[Option<u32>],
    ranked: &[usize],
    top: usize,
    alpha: f64,
) -> Vec<usize> {
    let pairs = top.min(ranked.len().saturating_sub(1));
    if pairs == 0 {
        return Vec::new();
    }
    let each = alpha / pairs as f64;
    let mut open: Vec<(f64, usize)> = (0..pairs)
        .map(|r| {
            let s = match (ids[ranked[r]], ids[ranked[r + 1]]) {
                (Some(x), Some(y)) => settle::settledness(fit, x, y, each),
                _ => 0.0,
            };
            (s, r)
        })
        .filter(|&(s, _)| s < 1.0)
        .collect();
    open.sort_by(|a, b| a.0.total_cmp(&b.0).then(a.1.cmp(&b.1)));
    let mut out = Vec::new();
    for (_, r) in open {
        for i in [ranked[r], ranked[r + 1]] {
            if !out.contains(&i) {
                out.push(i);
            }
        }
    }
    out
}

/// What the chooser knows of the field.
#[derive(Debug, Clone)]
pub struct Field {
    /// Games each entrant's current version has played.
    pub games: Vec<u64>,
    /// Each entrant's need ([`needs`]).
    pub need: Vec<f64>,
    /// New versions play first until they have this many games.
    pub min_games: u64,
    /// Entrants that may not play (benched): never seated.
    pub benched: Vec<bool>,
    /// The entrants of the least settled top pairs ([`pinned`]), seated at every table after
    /// the new versions, up to half the seats.
    pub pinned: Vec<usize>,
    /// The entrant ranked first by the fit, if any.
    pub leader: Option<usize>,
    /// Chooser 3: a table with a new version seats the others it has met least in the batch
    /// (the leader first among equals), instead of the pinned pairs and the needy.
    pub varied: bool,
}

/// The tables of a batch of `size` games at tables of `players`: entrant indices per table, in
/// ascending order (the seats are shuffled by each game's seed). With no more entrants than
/// seats, every table seats them all. `key` is the batch's own random stream.
pub fn choose(key: u64, size: usize, players: usize, field: &Field) -> Vec<Vec<usize>> {
    let playing: Vec<usize> = (0..field.games.len())
        .filter(|&i| !field.benched[i])
        .collect();
    if playing.len() <= players {
        return vec![playing; size];
    }
    let mut rng = ChaCha8Rng::seed_from_u64(key);
    let mut games = field.games.clone();
    let mut need = field.need.clone();
    let mut met = Met::default();
    (0..size)
        .map(|_| {
            // A fresh tie-break order per table.
            let mut order = playing.clone();
            order.shuffle(&mut rng);
            let priority = |i: usize, games: &[u64], need: &[f64]| {
                if games[i] < field.min_games {
                    1e6 + (field.min_games - games[i]) as f64
                } else {
                    need[i]
                }
            };
            order.sort_by(|&a, &b| {
                let (pa, pb) = (priority(a, &games, &need), priority(b, &games, &need));
                // Those with a need first, most first; then fewest games.
                let needy = (pb > 1e-9).cmp(&(pa > 1e-9));
                needy
                    .then_with(|| {
                        if pa > 1e-9 {
                            pb.total_cmp(&pa)
                        } else {
                            std::cmp::Ordering::Equal
                        }
                    })
                    .then_with(|| games[a].cmp(&games[b]))
            });
            // New versions first, then the least settled pairs (up to half the seats), then
            // the rest in the order above; beside new versions under chooser 3, those they
            // met least.
            let mut table: Vec<usize> = order
                .iter()
                .copied()
                .take_while(|&i| games[i] < field.min_games)
                .take(players)
                .collect();
            if field.varied && !table.is_empty() {
                beside_newcomers(&mut table, &order, players, field.leader, &mut met);
            } else {
                let half = (players / 2).max(2);
                let pins = field.pinned.iter().copied().filter(|&i| !field.benched[i]);
                for i in pins.take(half) {
                    if table.len() < players && !table.contains(&i) {
                        table.push(i);
                    }
                }
            }
            for &i in &order {
                if table.len() == players {
                    break;
                }
                if !table.contains(&i) {
                    table.push(i);
                }
            }
            table.sort_unstable();
            for &i in &table {
                games[i] += 1;
                need[i] *= 0.5;
            }
            table
        })
        .collect()
}

/// How often each pair of entrants sat together in the batch so far: (new version, other).
type Met = std::collections::BTreeMap<(usize, usize), u32>;

/// Fills the seats beside the new versions in `table` with the entrants they met least in the
/// batch (`met`), the leader first among equals, then in `order`; counts the meetings.
fn beside_newcomers(
    table: &mut Vec<usize>,
    order: &[usize],
    players: usize,
    leader: Option<usize>,
    met: &mut Met,
) {
    let newcomers = table.clone();
    let meetings = |i: usize| -> u32 {
        newcomers
            .iter()
            .map(|&n| met.get(&(n, i)).copied().unwrap_or(0))
            .sum()
    };
    let mut others: Vec<usize> = order
        .iter()
        .copied()
        .filter(|i| !newcomers.contains(i))
        .collect();
    // A stable sort: the order above breaks the remaining ties.
    others.sort_by_key(|&i| (meetings(i), Some(i) != leader));
    table.extend(others.into_iter().take(players.saturating_sub(table.len())));
    for &n in &newcomers {
        for &i in table.iter().filter(|i| !newcomers.contains(i)) {
            *met.entry((n, i)).or_default() += 1;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn field(games: Vec<u64>, need: Vec<f64>) -> Field {
        let n = games.len();
        Field {
            games,
            need,
            min_games: 5,
            benched: vec![false; n],
            pinned: Vec::new(),
            leader: None,
            varied: false,
        }
    }

    /// Chooser 3: a new version's tables go round the whole field, the leader at its first,
    /// the pinned pair no more often than the others; chooser 2 sat it with the pinned pair
    /// at every table.
    #[test]
    fn a_new_version_meets_the_whole_field_the_leader_first() {
        let mut f = field(vec![30, 30, 30, 30, 30, 30, 30, 0], vec![0.9; 8]);
        f.need[0] = 0.0;
        f.min_games = 7;
        f.pinned = vec![3, 4];
        f.leader = Some(0);
        let old = choose(7, 7, 3, &f);
        assert!(old.iter().all(|t| t == &[3, 4, 7]), "{old:?}");
        f.varied = true;
        let tables = choose(7, 7, 3, &f);
        assert!(tables.iter().all(|t| t.contains(&7)), "{tables:?}");
        assert!(tables[0].contains(&0), "the leader first: {tables:?}");
        let mut met = [0; 7];
        for t in &tables {
            for &i in t.iter().filter(|&&i| i != 7) {
                met[i] += 1;
            }
        }
        assert_eq!(met, [2; 7], "every other bot twice: {tables:?}");
        assert_eq!(tables, choose(7, 7, 3, &f), "a function of its inputs");
    }

    #[test]
    fn the_least_settled_pairs_sit_at_every_table_up_to_half_the_seats() {
        let mut f = field(vec![20; 12], vec![0.9; 12]);
        f.pinned = vec![7, 2, 9];
        let tables = choose(4, 6, 4, &f);
        // Half of 4 seats: the least settled pair, at every table; the other seats go round.
        assert!(
            tables.iter().all(|t| t.contains(&7) && t.contains(&2)),
            "{tables:?}"
        );
        assert!(!tables.iter().all(|t| t.contains(&9)), "{tables:?}");
        let others: std::collections::BTreeSet<usize> = tables
            .iter()
            .flatten()
            .copied()
            .filter(|i| ![7, 2].contains(i))
            .collect();
        assert!(others.len() >= 8, "{others:?}");
        // New versions still come first; benched bots never sit, pinned or not.
        f.games[5] = 0;
        f.benched[7] = true;
        // (Five tables bring it to its minimum of 5 games.)
        for (k, t) in choose(4, 6, 4, &f).iter().enumerate() {
            assert!(t.contains(&2) && !t.contains(&7), "{t:?}");
            assert_eq!(t.contains(&5), k < 5, "table {k}: {t:?}");
        }
    }

    #[test]
    fn new_versions_play_first_then_the_needy_then_the_fewest_games() {
        let mut f = field(vec![0, 20, 20, 20, 20, 20, 9, 20], vec![0.0; 8]);
        f.need[3] = 0.9;
        f.need[4] = 0.8;
        let tables = choose(1, 1, 4, &f);
        // 0 is new; 3 and 4 are unsettled; 6 has the fewest games of the rest.
        assert_eq!(tables, [vec![0, 3, 4, 6]]);
        // Benched bots never sit.
        f.benched[0] = true;
        assert!(choose(1, 20, 4, &f).iter().all(|t| !t.contains(&0)));
    }

    #[test]
    fn a_field_no_bigger_than_a_table_sits_whole_and_the_choice_is_a_function_of_its_inputs() {
        let f = field(vec![3; 5], vec![0.5; 5]);
        assert_eq!(choose(9, 3, 5, &f), vec![vec![0, 1, 2, 3, 4]; 3]);
        let g = field(
            (0..20).map(|i| i % 7).collect(),
            (0..20).map(|i| (i % 3) as f64).collect(),
        );
        assert_eq!(choose(5, 8, 4, &g), choose(5, 8, 4, &g));
        // With no need anywhere the batch spreads the games evenly.
        let even = field(vec![10; 20], vec![0.0; 20]);
        let mut count = [0; 20];
        for t in choose(3, 10, 4, &even) {
            for i in t {
                count[i] += 1;
            }
        }
        assert!(count.iter().all(|&c| c == 2), "{count:?}");
    }
}
