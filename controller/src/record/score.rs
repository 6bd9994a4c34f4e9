//! A seat's score as a record keeps it: any finite number, as a Botzone judge gives it (`1.25`,
//! `-1`, `2.07`), written back as the same JSON number: a whole number as an integer (`12`,
//! every Take 6 and Kingdomino score, so that their lines stay byte for byte what they were),
//! any other as the shortest decimal that reads back as the same `f64` (serde_json's, ryu).
//! The judge's number is an `f64` wherever it was made (C++'s `double`, Python's `float`,
//! JavaScript's number), so an `f64` holds it exactly.

use std::cmp::Ordering;
use std::fmt;
use std::hash::{Hash, Hasher};
use std::iter::Sum;
use std::ops::{Add, AddAssign, Sub, SubAssign};

use serde::de::{self, Visitor};
use serde::{Deserialize, Deserializer, Serialize, Serializer};

/// The largest whole number an `f64` holds exactly with its neighbours (2^53).
const EXACT: f64 = 9_007_199_254_740_992.0;

/// A finite score; `-0` is `0`. Ordered as numbers are.
#[derive(Clone, Copy, Debug, Default)]
pub struct Score(f64);

impl Score {
    /// The score `value`, if it is finite.
    pub fn new(value: f64) -> Option<Score> {
        value.is_finite().then_some(Score(value + 0.0))
    }

    /// Its value.
    pub fn get(self) -> f64 {
        self.0
    }

    /// Whether it is a whole number (and so written as an integer).
    pub fn is_whole(self) -> bool {
        self.0.fract() == 0.0 && self.0.abs() < EXACT
    }

    /// A key of 64 bits whose order is the scores' (for sorting and comparing by integers).
    pub fn key(self) -> u64 {
        let bits = self.0.to_bits();
        if bits >> 63 == 1 {
            !bits
        } else {
            bits | 1 << 63
        }
    }
}

impl From<u32> for Score {
    fn from(n: u32) -> Score {
        Score(f64::from(n))
    }
}

impl From<Score> for f64 {
    fn from(s: Score) -> f64 {
        s.0
    }
}

/// Whole scores as scores (Take 6's cows, Kingdomino's kingdoms).
pub fn whole(scores: &[u32]) -> Vec<Score> {
    scores.iter().map(|&n| Score::from(n)).collect()
}

impl PartialEq<u32> for Score {
    fn eq(&self, other: &u32) -> bool {
        self.0 == f64::from(*other)
    }
}

impl AddAssign<u32> for Score {
    fn add_assign(&mut self, n: u32) {
        self.0 += f64::from(n);
    }
}

impl SubAssign<u32> for Score {
    fn sub_assign(&mut self, n: u32) {
        self.0 -= f64::from(n);
    }
}

impl Add<u32> for Score {
    type Output = Score;
    fn add(self, n: u32) -> Score {
        Score(self.0 + f64::from(n))
    }
}

impl PartialEq for Score {
    fn eq(&self, other: &Score) -> bool {
        self.0 == other.0
    }
}

impl Eq for Score {}

impl PartialOrd for Score {
    fn partial_cmp(&self, other: &Score) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

impl Ord for Score {
    fn cmp(&self, other: &Score) -> Ordering {
        self.0.total_cmp(&other.0)
    }
}

impl Hash for Score {
    fn hash<H: Hasher>(&self, h: &mut H) {
        self.0.to_bits().hash(h);
    }
}

impl Add for Score {
    type Output = Score;
    fn add(self, other: Score) -> Score {
        Score(self.0 + other.0)
    }
}

impl AddAssign for Score {
    fn add_assign(&mut self, other: Score) {
        self.0 += other.0;
    }
}

impl Sub for Score {
    type Output = f64;
    fn sub(self, other: Score) -> f64 {
        self.0 - other.0
    }
}

impl Sum for Score {
    fn sum<I: Iterator<Item = Score>>(iter: I) -> Score {
        iter.fold(Score::default(), Add::add)
    }
}

impl<'a> Sum<&'a Score> for Score {
    fn sum<I: Iterator<Item = &'a Score>>(iter: I) -> Score {
        iter.copied().sum()
    }
}

impl fmt::Display for Score {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.is_whole() {
            write!(f, "{}", self.0 as i64)
        } else {
            write!(f, "{}", self.0)
        }
    }
}

impl Serialize for Score {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        match self.is_whole() {
            true if self.0 >= 0.0 => s.serialize_u64(self.0 as u64),
            true => s.serialize_i64(self.0 as i64),
            false => s.serialize_f64(self.0),
        }
    }
}

impl<'de> Deserialize<'de> for Score {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Score, D::Error> {
        d.deserialize_any(ScoreVisitor)
    }
}

struct ScoreVisitor;

impl Visitor<'_> for ScoreVisitor {
    type Value = Score;

    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("a finite number")
    }

    fn visit_u64<E: de::Error>(self, n: u64) -> Result<Score, E> {
        self.visit_f64(n as f64)
    }

    fn visit_i64<E: de::Error>(self, n: i64) -> Result<Score, E> {
        self.visit_f64(n as f64)
    }

    fn visit_f64<E: de::Error>(self, n: f64) -> Result<Score, E> {
        Score::new(n).ok_or_else(|| E::custom("a score that is not a finite number"))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_score_is_written_back_as_the_number_it_was_read() {
        for text in [
            "0",
            "12",
            "4294967295",
            "-1",
            "1.25",
            "0.37",
            "-0.5",
            "2.07",
            "1e300",
        ] {
            let score: Score = serde_json::from_str(text).unwrap();
            let back = serde_json::to_string(&score).unwrap();
            let again: Score = serde_json::from_str(&back).unwrap();
            assert_eq!(again, score, "{text} -> {back}");
            assert_eq!(again.get().to_bits(), score.get().to_bits(), "{text}");
        }
        assert_eq!(serde_json::to_string(&Score::from(12)).unwrap(), "12");
        assert_eq!(
            serde_json::to_string(&Score::new(-1.0).unwrap()).unwrap(),
            "-1"
        );
        assert_eq!(
            serde_json::to_string(&Score::new(1.25).unwrap()).unwrap(),
            "1.25"
        );
        assert_eq!(Score::new(0.37).unwrap().to_string(), "0.37");
        assert_eq!(Score::new(-0.0).unwrap().to_string(), "0");
        assert!(Score::new(f64::NAN).is_none());
    }

    #[test]
    fn keys_order_as_the_scores() {
        let mut scores: Vec<Score> = [3.0, -1.0, 0.0, 1.25, -2.5, 1e300, -1e300, 0.37]
            .into_iter()
            .filter_map(Score::new)
            .collect();
        let mut by_key = scores.clone();
        scores.sort();
        by_key.sort_by_key(|s| s.key());
        assert_eq!(scores, by_key);
        assert_eq!(scores.first().map(|s| s.get()), Some(-1e300));
    }
}
