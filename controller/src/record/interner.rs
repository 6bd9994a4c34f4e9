//! Player names numbered in the order they are first seen, so the per-game tallies (run for
//! every game, a hundred thousand a second for built-ins) index vectors and hash pairs of small
//! numbers instead of comparing and cloning strings.

use std::collections::HashMap;

/// Names and their numbers, from 0.
#[derive(Debug, Clone, Default)]
pub struct Interner {
    ids: HashMap<String, u32>,
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
