//! `compare.toml`: what a compare is (its game, NEW and OLD with their content hashes, the
//! field, seed, table size, margin and error rates) and where its test stands (pairs, the
//! ratio and its bounds, the estimate and its 95 % interval, the verdict), for scripts.

use std::path::Path;

use serde::{Deserialize, Serialize};

use super::Unit;
use crate::seed::Seed;
use crate::series::SeriesError;

/// The compare's file name in its folder.
pub const COMPARE: &str = "compare.toml";

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct CompareManifest {
    /// The compare's id (the chain of `games.jsonl` starts from it).
    pub compare: String,
    pub controller_version: String,
    /// The game as `--game` finds it again: a name, or a game folder's path.
    pub game: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub game_hash: Option<String>,
    pub new: Side,
    pub old: Side,
    /// The field's bots by name, in the order the pairs index them.
    #[serde(default)]
    pub field: Vec<Side>,
    pub seed: Seed,
    pub players: usize,
    pub rounds: u32,
    pub unit: Unit,
    pub margin: f64,
    pub alpha: f64,
    pub beta: f64,
    /// The `--games` budget, in pairs.
    pub max_pairs: u64,
    /// `playing`, `interrupted` or `finished`.
    pub status: String,
    /// Lines of `games.jsonl` and their chain head when last written.
    pub games_played: u64,
    #[serde(default)]
    pub chain: String,
    pub test: Test,
}

/// A bot of the compare: its name, the folder it came from and its content's SHA-256.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Side {
    pub name: String,
    pub folder: String,
    pub hash: String,
}

/// Where the test stands.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Test {
    /// `better`, `not better` or `undecided`.
    pub verdict: String,
    /// Pairs counted, and pairs with a void game (played, not counted).
    pub pairs: u64,
    pub void_pairs: u64,
    pub llr: f64,
    pub lower: f64,
    pub upper: f64,
    /// NEW's advantage over OLD in `unit` (more is better), with its 95 % interval.
    pub estimate: f64,
    pub low: f64,
    pub high: f64,
    /// For a game that only ranks: pairs where NEW scored 0, ¼, ½, ¾ and 1 against OLD.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub pentanomial: Option<[u64; 5]>,
}

impl Test {
    /// The test as `reading` has it under `rules`.
    pub fn of(rules: &super::Rules, reading: &super::Reading) -> Test {
        let (estimate, low, high) = reading.estimate(rules);
        let bounds = rules.bounds();
        // TOML has no infinity: an interval not yet known is written as 0.
        let finite = |x: f64| if x.is_finite() { x } else { 0.0 };
        Test {
            verdict: reading.verdict.word().to_string(),
            pairs: reading.pairs,
            void_pairs: reading.void_pairs,
            llr: finite(reading.llr),
            lower: bounds.lower,
            upper: bounds.upper,
            estimate: finite(estimate),
            low: finite(low),
            high: finite(high),
            pentanomial: (rules.unit == Unit::Elo)
                .then(|| super::sprt::pentanomial(reading.scores.iter().copied())),
        }
    }
}

impl CompareManifest {
    pub fn read(dir: &Path) -> Result<Option<CompareManifest>, SeriesError> {
        let path = dir.join(COMPARE);
        let read = crate::series::dir::open_in(dir, Path::new(COMPARE), |f, rel| {
            f.read_if_any(rel, crate::series::dir::MANIFEST_CAP)
        })?;
        let Some(bytes) = read else {
            return Ok(None);
        };
        let text = String::from_utf8(bytes).map_err(|e| SeriesError::Manifest {
            path: path.clone(),
            reason: e.to_string(),
        })?;
        toml::from_str(&text)
            .map(Some)
            .map_err(|e| SeriesError::Manifest {
                path,
                reason: e.to_string(),
            })
    }

    pub fn write(&self, dir: &Path) -> Result<(), SeriesError> {
        let text = toml::to_string(self).map_err(|e| SeriesError::Manifest {
            path: dir.join(COMPARE),
            reason: e.to_string(),
        })?;
        crate::series::dir::replace_file(&dir.join(COMPARE), text.as_bytes(), true)
    }

    /// The rules its games and test follow, with the game's direction and built-ins.
    pub fn rules(&self, game: &crate::game::GameRef) -> super::Rules {
        super::Rules {
            seed: self.seed,
            players: self.players,
            new: self.new.name.clone(),
            old: self.old.name.clone(),
            field: self.field.iter().map(|s| s.name.clone()).collect(),
            builtins: game.builtins().to_vec(),
            direction: game.direction(),
            unit: self.unit,
            margin: self.margin,
            alpha: self.alpha,
            beta: self.beta,
        }
    }
}
