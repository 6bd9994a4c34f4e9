//! A skill rating beside the mean score: Weng-Lin (OpenSkill) from each game's order of finish,
//! via the `skillratings` crate. Unlike the tally's sums a rating depends on the order games
//! are rated in, so games are rated in game-number order whatever order they finish in: a
//! game that arrives early waits until the games before it are in, and [`Ratings::current`]
//! rates any still waiting (after a gap, e.g. an interrupted series) in order too.

use std::collections::BTreeMap;

use skillratings::MultiTeamOutcome;
use skillratings::weng_lin::{WengLinConfig, WengLinRating, weng_lin_multi_team};

use super::{GameRecord, Standing};

/// One game as the rating sees it: each player's name and total score.
type Finish = Vec<(String, u32)>;

/// Weng-Lin ratings of every player, rated in game-number order.
#[derive(Debug, Clone, Default)]
pub struct Ratings {
    /// The next game number to rate.
    next: u64,
    /// Games that finished before some game with a lower number.
    waiting: BTreeMap<u64, Finish>,
    rated: BTreeMap<String, WengLinRating>,
}

impl Ratings {
    /// Adds a finished game; rates it, and those waiting for it, once every lower game is in.
    pub fn add(&mut self, record: &GameRecord) {
        let finish = record
            .players
            .iter()
            .cloned()
            .zip(record.totals())
            .collect();
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
            .into_iter()
            .map(|(name, r)| (name, r.rating - 3.0 * r.uncertainty))
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
        let before: Vec<[WengLinRating; 1]> = finish
            .iter()
            .map(|(name, _)| [self.rated.get(name).copied().unwrap_or_default()])
            .collect();
        let teams: Vec<(&[WengLinRating], MultiTeamOutcome)> = finish
            .iter()
            .zip(&before)
            .map(|((_, score), rating)| {
                let rank = 1 + finish.iter().filter(|(_, s)| s < score).count();
                (&rating[..], MultiTeamOutcome::new(rank))
            })
            .collect();
        let after = weng_lin_multi_team(&teams, &WengLinConfig::new());
        for ((name, _), rating) in finish.iter().zip(after) {
            self.rated.insert(name.clone(), rating[0]);
        }
    }
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
}
