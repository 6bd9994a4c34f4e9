//! `league.toml`: what a league is (its game, seed, table size, batch, top K, minimum games,
//! error rate), every version of every bot with its content hash, the fields it played with
//! and from which batch, who is benched and why, and where `games.jsonl` stands.

use std::path::Path;

use serde::{Deserialize, Serialize};

use super::plan::Version;
use crate::seed::Seed;
use crate::series::SeriesError;

/// The league's file name in its folder.
pub const LEAGUE: &str = "league.toml";

/// The rules by which this take6 chooses a new league's batches from the records before them.
/// A change to those rules (the stopping rule's width, which pairs sit at every table, …) is
/// a new chooser: a league keeps the chooser it began with, and one chosen by a chooser this
/// take6 does not know ([`CHOOSERS`]) cannot be continued or have its choices re-derived.
/// 1: take6 before the league's private storage and pinned pairs; 2: since; 3: a new
/// version's tables go round the field, the leader first.
pub const CHOOSER: u32 = 3;

/// The choosers whose rules this take6 knows: it continues and verifies their leagues.
pub const CHOOSERS: [u32; 2] = [2, 3];

fn first_chooser() -> u32 {
    1
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct LeagueManifest {
    /// The league's id (the chain of `games.jsonl` starts from it).
    pub league: String,
    pub controller_version: String,
    /// The rules that chose its batches ([`CHOOSER`] for a league this take6 makes).
    #[serde(default = "first_chooser")]
    pub chooser: u32,
    /// The game as `--game` finds it again: a name, or a game folder's path.
    pub game: String,
    /// A game folder's SHA-256 of its judge and `game.toml` when the league began: `verify`
    /// runs a judge only from the folder given with `--game`, and only this code.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub game_hash: Option<String>,
    /// Where its bots come from (`--bots` as first given: a folder's absolute path, or a
    /// repository): a later run without `--bots` plays these, wherever it is started from.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub bots: Option<String>,
    pub seed: Seed,
    pub players: usize,
    /// Rounds per game (`--rounds`), fixed when the league is made.
    #[serde(default = "one")]
    pub rounds: u32,
    pub batch: usize,
    pub top: usize,
    pub min_games: u64,
    pub alpha: f64,
    /// Runs of `take6 league` on this folder.
    pub runs: u32,
    /// Batches begun (batch b holds games b·batch … (b+1)·batch − 1).
    pub batches: u64,
    /// Lines of `games.jsonl` and their chain head when last written.
    pub games_played: u64,
    #[serde(default)]
    pub chain: String,
    /// What the last run ended with: `settled`, `budget`, `interrupted`, `forever`, …
    #[serde(default)]
    pub status: String,
    /// Every version of every bot, in the order they joined.
    #[serde(default)]
    pub versions: Vec<Version>,
    /// The field (version keys and bot names) of each batch from `from_batch` on.
    #[serde(default)]
    pub fields: Vec<Field>,
    /// Batches closed before all their games were played (a bot changed while one was
    /// under way): their missing games are never played.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub closed: Vec<u64>,
    /// Versions benched at the last batch, and why.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub benched: Vec<Benched>,
    /// Bot folders skipped at the last run, and why.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub skipped: Vec<Benched>,
    /// The working copies (each version's private storage, `work/<name>`) kept for the next
    /// run, with what they were made from.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub kept: Vec<Kept>,
}

/// A version's working copy, kept across runs while the version plays: used as it is by the
/// next run when the bot's folder still has `hash`, else wiped and made afresh.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Kept {
    pub name: String,
    /// The version it belongs to, and the hash of the folder it was copied from.
    pub version: u32,
    pub hash: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub template: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub template_file: Option<std::path::PathBuf>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub generated: Option<crate::bots::Generated>,
    #[serde(default)]
    pub about: crate::bots::About,
}

impl Kept {
    /// What the bot `bot`, of version `version`, was made from.
    pub fn of(bot: &crate::bots::Bot, version: u32) -> Kept {
        use crate::bots::TemplateChoice;
        let (template, template_file) = match &bot.template {
            TemplateChoice::Set(set) => (Some(set.clone()), None),
            TemplateChoice::File(path) => (None, Some(path.clone())),
        };
        Kept {
            name: bot.name.clone(),
            version,
            hash: bot.hash.clone(),
            template,
            template_file,
            generated: bot.generated.clone(),
            about: bot.about.clone(),
        }
    }

    /// The copy as the bots' preparation takes it.
    pub fn copy(&self) -> crate::bots::KeptCopy {
        use crate::bots::TemplateChoice;
        crate::bots::KeptCopy {
            hash: self.hash.clone(),
            template: match (&self.template_file, &self.template) {
                (Some(path), _) => TemplateChoice::File(path.clone()),
                (None, Some(set)) => TemplateChoice::Set(set.clone()),
                (None, None) => TemplateChoice::Set("default".into()),
            },
            generated: self.generated.clone(),
            about: self.about.clone(),
        }
    }
}

fn one() -> u32 {
    1
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Field {
    pub from_batch: u64,
    /// `(key, bot name)` of each version that may play, sorted by name.
    pub members: Vec<(String, String)>,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Benched {
    pub name: String,
    pub reason: String,
}

impl LeagueManifest {
    /// The kept working copies the next run may use: those of a version still playing, made
    /// from the folder content that version has.
    pub fn kept_copies(&self) -> crate::bots::KeptCopies {
        self.kept
            .iter()
            .filter(|k| crate::names::name_problem(&k.name).is_none())
            .filter(|k| {
                self.versions.iter().any(|v| {
                    v.name == k.name
                        && v.version == k.version
                        && v.hash == k.hash
                        && v.until_game.is_none()
                })
            })
            .map(|k| (k.name.clone(), k.copy()))
            .collect()
    }

    /// The field of batch `b`.
    pub fn field_of(&self, b: u64) -> &[(String, String)] {
        self.fields
            .iter()
            .rev()
            .find(|f| f.from_batch <= b)
            .map_or(&[], |f| &f.members[..])
    }

    pub fn read(dir: &Path) -> Result<Option<LeagueManifest>, SeriesError> {
        let path = dir.join(LEAGUE);
        // Through the door: no link followed, no FIFO waited on, at most the cap read.
        let read = crate::series::dir::open_in(dir, Path::new(LEAGUE), |f, rel| {
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
            path: dir.join(LEAGUE),
            reason: e.to_string(),
        })?;
        crate::series::dir::replace_file(&dir.join(LEAGUE), text.as_bytes(), true)
    }
}
