//! The master seed of a series: 128 bits, so that no bot can find it by search.
//!
//! A bot sees its own hand and the starting rows; with a seed small enough to enumerate it can
//! replay the controller's dealing over candidate seeds until one deals its hand, and then knows
//! every other hand (half a second for seeds below a million, measured). The default
//! seed is therefore drawn with 128 bits, and a user's seed below [`SEARCHABLE`] is accepted
//! with a warning. Seeds that fit in 64 bits seed the ChaCha generator with `seed_from_u64`, so
//! a series recorded with a 64-bit seed replays, resumes and verifies; a larger seed is the
//! generator's key itself.

use std::fmt;
use std::str::FromStr;

use rand::SeedableRng;
use rand::rngs::ChaCha8Rng;
use serde::{Deserialize, Deserializer, Serialize, Serializer};

/// Seeds below this (2^48) can be searched by a bot in its time budget on ordinary hardware
/// over a series (a probe searched about 2 × 10^6 seeds a second on one core, so
/// 2^48 takes about four years of one core; 2^32 takes half an hour).
pub const SEARCHABLE: u128 = 1 << 48;

/// A series' master seed. Written as a decimal integer; in `series.toml` and JSON as a number
/// when it fits in 64 bits (as before) and as a string otherwise (JSON values and TOML
/// integers stop at 64 bits).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Default)]
pub struct Seed(pub u128);

impl Seed {
    /// A fresh seed with 128 bits from the operating system's generator.
    pub fn random() -> Seed {
        Seed(rand::random())
    }

    /// Whether a bot could find this seed by trying every smaller one (see [`SEARCHABLE`]).
    pub fn is_searchable(self) -> bool {
        self.0 < SEARCHABLE
    }

    /// The generator every random choice of a series starts from. A seed of 64 bits or fewer
    /// gives exactly `ChaCha8Rng::seed_from_u64`, the generator of series recorded before
    /// 128-bit seeds; a larger one is the first half of the key, the second half a fixed tag.
    pub fn rng(self) -> ChaCha8Rng {
        match u64::try_from(self.0) {
            Ok(small) => ChaCha8Rng::seed_from_u64(small),
            Err(_) => {
                let mut key = [0u8; 32];
                key[..16].copy_from_slice(&self.0.to_le_bytes());
                key[16..].copy_from_slice(b"take6 seed, 128b");
                ChaCha8Rng::from_seed(key)
            }
        }
    }

    /// The warning a searchable seed earns (on stderr and in `series.toml`).
    pub fn warning(self) -> Option<String> {
        self.is_searchable().then(|| {
            format!(
                "seed {self} is small enough for a bot to find by trying every smaller seed \
                 against its hand, and then to know every hand; leave --seed out (a random \
                 128-bit seed is drawn and recorded) or give one of at least 16 digits"
            )
        })
    }
}

impl fmt::Display for Seed {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.0.fmt(f)
    }
}

/// A seed that is not a decimal integer below 2^128.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error(
    "{0:?} is not a seed: seeds are non-negative integers; give a decimal integer from 0 to \
     2^128 - 1"
)]
pub struct BadSeed(String);

impl FromStr for Seed {
    type Err = BadSeed;

    fn from_str(s: &str) -> Result<Seed, BadSeed> {
        let digits = s.trim().replace('_', "");
        digits
            .parse::<u128>()
            .map(Seed)
            .map_err(|_| BadSeed(s.to_string()))
    }
}

impl From<u64> for Seed {
    fn from(seed: u64) -> Seed {
        Seed(seed.into())
    }
}

impl Serialize for Seed {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        match u64::try_from(self.0) {
            // Up to 64 bits a number, as always; above, a string (exact in any format).
            Ok(small) => serializer.serialize_u64(small),
            Err(_) => serializer.collect_str(self),
        }
    }
}

impl<'de> Deserialize<'de> for Seed {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Seed, D::Error> {
        struct Visitor;
        impl serde::de::Visitor<'_> for Visitor {
            type Value = Seed;
            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("a seed: an integer from 0 to 2^128 - 1, or one written as a string")
            }
            fn visit_u64<E: serde::de::Error>(self, v: u64) -> Result<Seed, E> {
                Ok(Seed(v.into()))
            }
            fn visit_i64<E: serde::de::Error>(self, v: i64) -> Result<Seed, E> {
                u128::try_from(v)
                    .map(Seed)
                    .map_err(|_| E::custom(format!("seed {v} is negative")))
            }
            fn visit_u128<E: serde::de::Error>(self, v: u128) -> Result<Seed, E> {
                Ok(Seed(v))
            }
            fn visit_str<E: serde::de::Error>(self, v: &str) -> Result<Seed, E> {
                v.parse().map_err(E::custom)
            }
        }
        deserializer.deserialize_any(Visitor)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::Rng;

    #[test]
    fn a_64_bit_seed_gives_the_generator_it_always_gave() {
        for seed in [0u64, 17, 2026, u64::MAX] {
            let mut old = ChaCha8Rng::seed_from_u64(seed);
            let mut new = Seed::from(seed).rng();
            assert_eq!(old.next_u64(), new.next_u64(), "seed {seed}");
        }
    }

    #[test]
    fn large_seeds_differ_in_every_bit() {
        let base = Seed(u128::MAX / 3);
        let first = base.rng().next_u64();
        for bit in 0..128 {
            let other = Seed(base.0 ^ (1 << bit));
            assert_ne!(other.rng().next_u64(), first, "bit {bit}");
        }
    }

    #[test]
    fn random_seeds_use_128_bits_and_are_not_searchable() {
        let seeds: Vec<Seed> = (0..64).map(|_| Seed::random()).collect();
        // Each of 64 draws is above 2^64 with probability 1 - 2^-64.
        assert!(
            seeds.iter().all(|s| s.0 > u128::from(u64::MAX)),
            "{seeds:?}"
        );
        assert!(seeds.iter().all(|s| !s.is_searchable()));
        assert!(Seed(17).is_searchable() && Seed(17).warning().is_some());
        assert!(Seed(SEARCHABLE).warning().is_none());
    }

    #[test]
    fn seeds_survive_toml_and_json_in_either_form() {
        #[derive(Serialize, Deserialize, PartialEq, Debug)]
        struct S {
            seed: Seed,
        }
        for seed in [Seed(5), Seed(i64::MAX as u128 + 1), Seed(u128::MAX)] {
            let toml = toml::to_string(&S { seed }).unwrap();
            assert_eq!(toml::from_str::<S>(&toml).unwrap().seed, seed, "{toml}");
            let json = serde_json::to_string(&S { seed }).unwrap();
            assert_eq!(
                serde_json::from_str::<S>(&json).unwrap().seed,
                seed,
                "{json}"
            );
            let value = serde_json::to_value(S { seed }).unwrap();
            assert_eq!(serde_json::from_value::<S>(value).unwrap().seed, seed);
        }
        assert_eq!(toml::to_string(&S { seed: Seed(5) }).unwrap(), "seed = 5\n");
        let s: S = toml::from_str("seed = \"340282366920938463463374607431768211455\"").unwrap();
        assert_eq!(s.seed, Seed(u128::MAX));
        assert!(toml::from_str::<S>("seed = -1").is_err());
        assert_eq!("1_000".parse::<Seed>().unwrap(), Seed(1000));
        assert!(
            "x".parse::<Seed>()
                .unwrap_err()
                .to_string()
                .contains("\"x\"")
        );
    }
}
