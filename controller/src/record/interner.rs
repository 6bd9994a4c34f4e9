//! Player names numbered in the order they are first seen, so the per-game tallies (run for
//! every game, a hundred thousand a second for built-ins) index vectors and hash pairs of small
//! numbers instead of comparing and cloning strings.

use std::collections::HashMap;
use std::hash::{BuildHasherDefault, Hasher};

/// A hash map keyed by small player numbers (or short names), hashed with [`Fx`]: these maps
/// are updated dozens of times per game, and SipHash's protection against chosen keys buys
/// nothing for names the series itself numbered.
pub type FastMap<K, V> = HashMap<K, V, BuildHasherDefault<Fx>>;

/// The multiply-and-rotate hash of rustc (FxHash): a few cycles per word.
#[derive(Debug, Clone, Copy, Default)]
pub struct Fx(u64);

impl Hasher for Fx {
    fn write(&mut self, bytes: &[u8]) {
        // Each 8 bytes as a little-endian word, the last zero-padded; built without a
        // variable-length copy, which would be a `memcpy` call per word.
        let mut words = bytes.chunks_exact(8);
        for word in &mut words {
            self.write_u64(u64::from_le_bytes(word.try_into().expect("8 bytes")));
        }
        let rest = words.remainder();
        if !rest.is_empty() {
            let word = (rest.iter().rev()).fold(0u64, |w, &b| w << 8 | u64::from(b));
            self.write_u64(word);
        }
    }

    fn write_u8(&mut self, n: u8) {
        self.write_u64(u64::from(n));
    }

    fn write_u32(&mut self, n: u32) {
        self.write_u64(u64::from(n));
    }

    fn write_u64(&mut self, n: u64) {
        self.0 = (self.0.rotate_left(5) ^ n).wrapping_mul(0x51_7c_c1_b7_27_22_0a_95);
    }

    fn write_usize(&mut self, n: usize) {
        self.write_u64(n as u64);
    }

    fn finish(&self) -> u64 {
        self.0
    }
}

/// Names and their numbers, from 0.
#[derive(Debug, Clone, Default)]
pub struct Interner {
    ids: FastMap<String, u32>,
    names: Vec<String>,
}

impl Interner {
    /// The number of `name`, given one if it is new.
    pub fn id(&mut self, name: &str) -> u32 {
        if let Some(&id) = self.ids.get(name) {
            return id;
        }
        let id = self.names.len() as u32;
        self.names.push(name.to_string());
        self.ids.insert(name.to_string(), id);
        id
    }

    /// The number of `name`, if it was seen.
    pub fn get(&self, name: &str) -> Option<u32> {
        self.ids.get(name).copied()
    }

    /// The name numbered `id`.
    pub fn name(&self, id: u32) -> &String {
        &self.names[id as usize]
    }

    /// How many names were seen.
    pub fn len(&self) -> usize {
        self.names.len()
    }

    /// Whether no name was seen.
    pub fn is_empty(&self) -> bool {
        self.names.is_empty()
    }
}

/// The key of an unordered pair of numbered players, lower number first, and whether `a` is
/// the second of it.
pub fn pair_key(a: u32, b: u32) -> ((u32, u32), bool) {
    if a < b {
        ((a, b), false)
    } else {
        ((b, a), true)
    }
}

/// Values per unordered pair of numbered players, keyed by [`pair_key`]'s key (lower number
/// first). The pairs of the first [`PairMap::DENSE`] players sit in a triangular array, grown
/// as numbers are handed out (player `k` adds `k` slots), so the tallies' update of every pair
/// at a table indexes instead of hashing; pairs beyond it go to a hash map, so a series of
/// thousands of bots costs memory only for the pairs that met.
#[derive(Debug, Clone)]
pub struct PairMap<V> {
    /// Pair (lo, hi) at `hi * (hi - 1) / 2 + lo`; `None` until the pair first meets.
    dense: Vec<Option<V>>,
    sparse: FastMap<(u32, u32), V>,
}

impl<V> Default for PairMap<V> {
    fn default() -> PairMap<V> {
        PairMap {
            dense: Vec::new(),
            sparse: FastMap::default(),
        }
    }
}

impl<V: Default> PairMap<V> {
    /// Players numbered below this have their pairs in the array (8,128 slots at most).
    pub const DENSE: u32 = 128;

    /// The array slot of a pair; `None` beyond the array (or for a player paired with itself,
    /// which a caller may ask about and which never meets: the map has no such key).
    #[inline]
    fn slot((lo, hi): (u32, u32)) -> Option<usize> {
        (lo < hi && hi < Self::DENSE).then(|| (hi as usize * (hi as usize - 1)) / 2 + lo as usize)
    }

    /// The value of the pair `key`, a default one if the pair is new.
    #[inline]
    pub fn entry(&mut self, key: (u32, u32)) -> &mut V {
        match Self::slot(key) {
            Some(i) => {
                if i >= self.dense.len() {
                    // Room for every pair of the higher player's number at once.
                    let hi = key.1 as usize;
                    self.dense.resize_with((hi + 1) * hi / 2, || None);
                }
                self.dense[i].get_or_insert_with(V::default)
            }
            None => self.sparse.entry(key).or_default(),
        }
    }

    /// The value of the pair `key`, if the pair met.
    pub fn get(&self, key: (u32, u32)) -> Option<&V> {
        match Self::slot(key) {
            Some(i) => self.dense.get(i)?.as_ref(),
            None => self.sparse.get(&key),
        }
    }

    /// Every pair that met, with its key, in no particular order.
    pub fn iter(&self) -> impl Iterator<Item = ((u32, u32), &V)> {
        let dense = (1..Self::DENSE).flat_map(|hi| (0..hi).map(move |lo| (lo, hi)));
        let dense = dense
            .zip(&self.dense)
            .filter_map(|(key, v)| Some((key, v.as_ref()?)));
        dense.chain(self.sparse.iter().map(|(&key, v)| (key, v)))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The hash reads a name as zero-padded little-endian words, as it always has (tables
    /// keyed by it do not change from one build to the next).
    #[test]
    fn names_hash_as_padded_little_endian_words() {
        for name in [
            "",
            "a",
            "gap#1",
            "highest#2",
            "exactly8",
            "sixteen_bytes_ab",
            "ünï",
        ] {
            let mut fx = Fx::default();
            fx.write(name.as_bytes());
            let mut want = Fx::default();
            for chunk in name.as_bytes().chunks(8) {
                let mut word = [0u8; 8];
                word[..chunk.len()].copy_from_slice(chunk);
                want.write_u64(u64::from_le_bytes(word));
            }
            assert_eq!(fx.finish(), want.finish(), "{name:?}");
        }
    }

    /// The array and the map hold the same pairs as a plain map would, and list each once.
    #[test]
    fn pairs_on_both_sides_of_the_array_are_kept_and_listed_once() {
        let mut pairs: PairMap<u64> = PairMap::default();
        let mut plain: std::collections::BTreeMap<(u32, u32), u64> = Default::default();
        let keys = [
            (0, 1),
            (3, 7),
            (0, 127),
            (126, 127),
            (5, 128),
            (127, 300),
            (0, 1),
        ];
        for (n, &key) in keys.iter().enumerate() {
            *pairs.entry(key) += n as u64 + 1;
            *plain.entry(key).or_default() += n as u64 + 1;
        }
        let listed: std::collections::BTreeMap<(u32, u32), u64> =
            pairs.iter().map(|(k, &v)| (k, v)).collect();
        assert_eq!(listed, plain);
        assert_eq!(pairs.iter().count(), plain.len());
        assert_eq!(pairs.get((0, 1)), Some(&8));
        assert_eq!(pairs.get((1, 2)), None);
        assert_eq!(pairs.get((2, 500)), None);
        assert_eq!(pairs.get((3, 3)), None, "a player never meets itself");
    }
}
