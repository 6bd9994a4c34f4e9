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
        for chunk in bytes.chunks(8) {
            let mut word = [0u8; 8];
            word[..chunk.len()].copy_from_slice(chunk);
            self.write_u64(u64::from_le_bytes(word));
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
