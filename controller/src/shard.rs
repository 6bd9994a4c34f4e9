//! A shard: one machine's share of a series' game numbers, so a long series can be spread over a
//! batch system's nodes (a Slurm job array, a Kubernetes Indexed Job) and merged back exactly.
//!
//! Shard `I/N` plays the games `n` with `n % N == I`: every shard gets the same number of games
//! (±1), interleaved over the whole series, so a shard that runs slowly does not hold one part of
//! the schedule (one subset of bots) back. Game `n` is a pure function of the seed, the settings
//! and `n`, so a game played by a shard is the game a one-machine run plays.

use std::fmt;
use std::str::FromStr;

use serde::{Deserialize, Deserializer, Serialize, Serializer};

/// Shard `index` of `count` (0-based, as `SLURM_ARRAY_TASK_ID` and `JOB_COMPLETION_INDEX`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Shard {
    pub index: u64,
    pub count: u64,
}

impl Shard {
    /// The whole series: what a series without `--shard` is.
    pub const WHOLE: Shard = Shard { index: 0, count: 1 };

    /// Whether game number `game` is this shard's.
    pub fn holds(&self, game: u64) -> bool {
        game % self.count == self.index
    }

    /// How many of a series' `total` games are this shard's.
    pub fn games_of(&self, total: u64) -> u64 {
        total.saturating_sub(self.index).div_ceil(self.count)
    }

    /// The shard that holds game `game`, in a split of `count`.
    pub fn of_game(game: u64, count: u64) -> Shard {
        Shard {
            index: game % count,
            count,
        }
    }
}

impl fmt::Display for Shard {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}/{}", self.index, self.count)
    }
}

/// Why a `--shard` value is not one.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("--shard {value}: {fix}")]
pub struct ShardError {
    value: String,
    fix: &'static str,
}

impl FromStr for Shard {
    type Err = ShardError;

    fn from_str(s: &str) -> Result<Shard, ShardError> {
        let err = |fix| ShardError {
            value: s.to_string(),
            fix,
        };
        let (i, n) = s
            .split_once('/')
            .ok_or_else(|| err("write it as I/N, e.g. 0/4 for the first of four shards"))?;
        let (Ok(index), Ok(count)) = (i.trim().parse::<u64>(), n.trim().parse::<u64>()) else {
            return Err(err("I and N are whole numbers, e.g. 0/4"));
        };
        if count == 0 {
            return Err(err("N, the number of shards, is at least 1"));
        }
        if index >= count {
            return Err(err(
                "I counts from 0 and is below N (the shards of 4 are 0/4, 1/4, 2/4 and 3/4)",
            ));
        }
        Ok(Shard { index, count })
    }
}

impl Serialize for Shard {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_str(self)
    }
}

impl<'de> Deserialize<'de> for Shard {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Shard, D::Error> {
        let text = String::deserialize(d)?;
        text.parse().map_err(serde::de::Error::custom)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shards_split_the_games_evenly_interleaved_and_exactly_once() {
        for total in [0u64, 1, 2, 7, 100, 101] {
            for count in 1..=5 {
                let mut seen = vec![0u32; total as usize];
                for index in 0..count {
                    let shard = Shard { index, count };
                    let mine: Vec<u64> = (0..total).filter(|&g| shard.holds(g)).collect();
                    assert_eq!(
                        mine.len() as u64,
                        shard.games_of(total),
                        "{shard} of {total}"
                    );
                    assert!(
                        mine.len() as u64 >= total / count
                            && mine.len() as u64 <= total.div_ceil(count)
                    );
                    for g in mine {
                        seen[g as usize] += 1;
                        assert_eq!(Shard::of_game(g, count), shard);
                    }
                }
                assert!(seen.iter().all(|&s| s == 1), "{total} games in {count}");
            }
        }
    }

    #[test]
    fn shards_read_as_i_of_n_and_bad_ones_say_how_to_write_them() {
        assert_eq!("2/3".parse(), Ok(Shard { index: 2, count: 3 }));
        assert_eq!(Shard { index: 2, count: 3 }.to_string(), "2/3");
        for (bad, says) in [
            ("3/3", "below N"),
            ("1/0", "at least 1"),
            ("2", "I/N"),
            ("a/3", "whole numbers"),
            ("-1/3", "whole numbers"),
        ] {
            let err = bad.parse::<Shard>().unwrap_err().to_string();
            assert!(err.contains(bad) && err.contains(says), "{err}");
        }
    }
}
