//! `series.toml`: everything needed to know what was run, to run it again, to resume it and to
//! verify its results. Always replaced atomically.

use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};

use super::dir::{self, MANIFEST, SeriesDir};
use super::lineup::Entrant;
use super::{SeriesError, Status};
use crate::bots::{Generated, Skipped, TemplateChoice};
use crate::config::Settings;
use crate::games::JudgePermit;
use crate::schedule::{Balance, Request, Schedule, ScheduleKind};
use crate::seed::Seed;
use crate::shard::Shard;

/// The manifest of a series, as written to and read from `series.toml`.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct Manifest {
    /// The series id (the folder's name when it was made); it also starts the chain.
    pub series: String,
    pub controller_version: String,
    pub status: Status,
    pub started: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub finished: Option<String>,
    /// How many times the series was started (1) or resumed (more).
    #[serde(default)]
    pub attempts: u32,
    pub seed: Seed,
    pub games_planned: u64,
    /// Lines in `games.jsonl` at the last checkpoint; all of them once the series has ended.
    pub games_played: u64,
    /// The SHA-256 chain head after those lines (see `record::jsonl`).
    #[serde(default)]
    pub chain: String,
    /// Under `--until-separated`: the lines of `games.jsonl` after which the top ranks were
    /// first separated at 95 %; no game started after that point (games already under way
    /// were finished and recorded). `take6 verify` re-derives it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub separated_after: Option<u64>,
    /// `single`, `all` or `balanced`: the layout the schedule resolved to.
    #[serde(default)]
    pub schedule: String,
    /// Whether deals are played once per rotation of the hands.
    #[serde(default)]
    pub duplicate: bool,
    /// Distinct tables (deals under duplicate deals).
    #[serde(default)]
    pub tables: u64,
    /// Under `all`: the subsets and the games each plays.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub subsets: Option<u64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub games_per_subset: Option<u64>,
    /// Games per bot and per pair of bots, min and max.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub balance: Option<Balance>,
    /// What the settings let bots exploit (a searchable seed, duplicate deals), as said on
    /// stderr when the series started.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub warnings: Vec<String>,
    /// The settings as resolved, as a map so resume can compare them key by key (JSON values,
    /// which, unlike `toml::Value`, hold any `u64` seed).
    pub settings: serde_json::Map<String, serde_json::Value>,
    /// What the bots' sandbox enforced and what it could not (the latest attempt's).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub sandbox: Option<SandboxRecord>,
    /// The tools a bot's generated scripts may run, each with its path or how to install it
    /// (looked up once per series; see `bots::generate`).
    #[serde(default, skip_serializing_if = "std::collections::BTreeMap::is_empty")]
    pub toolchains: std::collections::BTreeMap<String, String>,
    pub bots: Vec<ManifestBot>,
    pub builtins: Vec<String>,
    #[serde(default)]
    pub skipped: Vec<SkippedBot>,
    /// The SHA-256 of the code its game runs (a game folder's judge and `game.toml`,
    /// [`crate::game::GameCode::content_hash`]): verify, leaderboard and merge run the judge of
    /// the game folder given with `--game` only when it has this hash.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub game_hash: Option<String>,
    /// For a series made by `take6 merge`: the shards it was made from.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub merged_from: Vec<MergedShard>,
    /// For a partial merge: the game numbers no shard held.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub missing: Vec<u64>,
}

/// One shard a merged series was made from.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct MergedShard {
    pub shard: String,
    /// Its series folder and id when it was merged.
    pub path: PathBuf,
    pub series: String,
    /// The lines its `games.jsonl` held, and their chain head.
    pub games: u64,
    pub chain: String,
}

/// A bot that plays, with the hash of its folder's content.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct ManifestBot {
    pub name: String,
    pub hash: String,
    pub source: PathBuf,
    /// The template set it speaks, or its own template file.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub template: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub template_file: Option<PathBuf>,
    /// What the bot's words on the wire say, as a hash ([`crate::game::Wire::fingerprint`]:
    /// its template set's): a resume refuses a set that changed since. Absent in series begun
    /// before it was kept, and in a game whose wire is its own.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub template_hash: Option<String>,
    /// The `build` and `launch` take6 wrote into its working copy, its folder having no
    /// `launch` (`[bots.generated]`: the language, the files, the commands).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub generated: Option<Generated>,
    /// What its `bot.toml` says of it (`author`, `description`, `url`, `version`).
    #[serde(flatten)]
    pub about: crate::bots::About,
}

/// `[sandbox]`: the mode and what it enforced on this machine.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct SandboxRecord {
    pub mode: crate::sandbox::Mode,
    pub enforced: Vec<String>,
    pub missing: Vec<String>,
}

impl From<&crate::sandbox::Report> for SandboxRecord {
    fn from(report: &crate::sandbox::Report) -> SandboxRecord {
        let owned = |v: &[&str]| v.iter().map(ToString::to_string).collect();
        SandboxRecord {
            mode: report.mode,
            enforced: owned(&report.enforced),
            missing: owned(&report.missing),
        }
    }
}

/// A bot folder that does not play, and why.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct SkippedBot {
    pub name: String,
    pub reason: String,
}

/// Opening a series folder reads its manifest for the id, so it is written here, beside the
/// manifest, and the folder's own file (`dir.rs`) needs no manifest.
impl SeriesDir {
    /// An existing series folder (to resume, verify or rebuild): `results/latest` is followed
    /// to the folder it names. The id is the one `series.toml` records, when it can be read.
    pub fn open(path: &Path) -> Result<SeriesDir, SeriesError> {
        let path = std::fs::canonicalize(path).map_err(dir::read_err(path))?;
        if !path.is_dir() {
            return Err(SeriesError::NotASeries(path));
        }
        let id = Manifest::read(&path).map(|m| m.series).unwrap_or_else(|_| {
            path.file_name()
                .map(|n| n.to_string_lossy().into_owned())
                .unwrap_or_default()
        });
        Ok(SeriesDir { id, path })
    }
}

impl Manifest {
    /// The manifest of a series about to start (status `running`, no games yet).
    pub fn new(
        dir: &SeriesDir,
        settings: &Settings,
        bots: &[Entrant],
        names: &[String],
        skipped: &[Skipped],
        schedule: Option<&Schedule>,
    ) -> Manifest {
        let warnings = settings.warnings();
        let game = settings.game.clone();
        let settings = settings_map(settings);
        Manifest {
            warnings,
            series: dir.id.clone(),
            controller_version: env!("CARGO_PKG_VERSION").to_string(),
            status: Status::Running,
            started: dir::now(),
            finished: None,
            attempts: 1,
            seed: settings
                .get("seed")
                .and_then(|v| serde_json::from_value(v.clone()).ok())
                .unwrap_or_default(),
            games_planned: schedule.map_or(0, Schedule::total_games),
            games_played: 0,
            chain: crate::record::Chain::start(&dir.id).head().to_string(),
            separated_after: None,
            schedule: schedule.map_or("", |s| s.layout().name()).to_string(),
            duplicate: schedule.is_some_and(Schedule::duplicate),
            tables: schedule.map_or(0, Schedule::tables),
            subsets: schedule
                .filter(|s| s.layout().name() == "all")
                .map(Schedule::subsets),
            games_per_subset: schedule
                .filter(|s| s.layout().name() == "all")
                .map(Schedule::games_per_subset),
            balance: schedule.map(Schedule::balance),
            settings,
            game_hash: game.content_hash().ok().flatten(),
            sandbox: None,
            toolchains: Default::default(),
            bots: bots
                .iter()
                .map(|(b, wire)| ManifestBot {
                    name: b.name.clone(),
                    hash: b.hash.clone(),
                    source: b.source.clone(),
                    template: match &b.template {
                        TemplateChoice::Set(name) => Some(name.clone()),
                        TemplateChoice::File(_) => None,
                    },
                    template_file: match &b.template {
                        TemplateChoice::Set(_) => None,
                        TemplateChoice::File(path) => Some(path.clone()),
                    },
                    template_hash: wire.as_ref().map(|w| w.fingerprint.to_string()),
                    generated: b.generated.clone(),
                    about: b.about.clone(),
                })
                .collect(),
            builtins: schedule
                .map_or_else(
                    || Schedule::padding_with(game.builtins(), names.len(), game.seats().default),
                    Schedule::builtins,
                )
                .iter()
                .map(|e| e.name(names))
                .collect(),
            skipped: skipped
                .iter()
                .map(|s| SkippedBot {
                    name: s.name.clone(),
                    reason: s.reason.clone(),
                })
                .collect(),
            merged_from: Vec::new(),
            missing: Vec::new(),
        }
    }

    /// The share of the series' games this folder plays (`--shard`); the whole series when it
    /// is not a shard. `None` when the recorded shard cannot be read.
    pub fn shard(&self) -> Option<Shard> {
        match self.settings.get("shard") {
            None => Some(Shard::WHOLE),
            Some(v) => v.as_str()?.parse().ok(),
        }
    }

    /// Reads `series.toml` of the series folder `dir`.
    pub fn read(dir: &Path) -> Result<Manifest, SeriesError> {
        let path = dir.join(MANIFEST);
        let bytes = dir::read_file(dir, MANIFEST, dir::MANIFEST_CAP)?;
        let text = String::from_utf8(bytes).map_err(|e| SeriesError::Manifest {
            path: path.clone(),
            reason: e.to_string(),
        })?;
        toml::from_str(&text).map_err(|e| SeriesError::Manifest {
            path,
            reason: e.to_string(),
        })
    }

    /// Replaces `series.toml` in `dir` atomically and durably.
    pub fn write(&self, dir: &Path) -> Result<(), SeriesError> {
        let text = toml::to_string_pretty(self).expect("the manifest serializes");
        dir::replace_file(&dir.join(MANIFEST), text.as_bytes(), true)
    }

    /// The name of the person at the keyboard, for a series of `take6 play`.
    pub fn human(&self) -> Option<&str> {
        self.settings
            .get("human")
            .and_then(serde_json::Value::as_str)
    }

    /// How many players are scheduled besides the built-ins (bots, and a person if any).
    pub fn entrants(&self) -> usize {
        self.bots.len() + usize::from(self.human().is_some())
    }

    /// Whether the series is of built-ins only (`--builtins-only`).
    pub fn builtins_only(&self) -> bool {
        self.settings
            .get("builtins_only")
            .and_then(serde_json::Value::as_bool)
            .unwrap_or(false)
    }

    /// How much of each game its `games.jsonl` keeps.
    pub fn record_level(&self) -> crate::record::Level {
        self.settings
            .get("record")
            .and_then(|v| serde_json::from_value(v.clone()).ok())
            .unwrap_or_default()
    }

    /// The series' schedule, remade from the recorded settings; `None` when it has no
    /// entrants (no usable bot) or cannot be made.
    pub fn schedule(&self, permit: &JudgePermit) -> Option<Schedule> {
        if self.builtins_only() {
            Schedule::builtins_only(self.schedule_request(permit)?).ok()
        } else if self.entrants() > 0 {
            Schedule::new(self.schedule_request(permit)?).ok()
        } else {
            None
        }
    }

    /// The game the series plays (Take 6 when the settings do not say: older series): a game
    /// folder as `permit` says ([`crate::games::recorded`]).
    pub fn game(
        &self,
        permit: &JudgePermit,
    ) -> Result<crate::game::GameRef, crate::games::GameError> {
        match self
            .settings
            .get("game")
            .and_then(serde_json::Value::as_str)
        {
            Some(spec) => crate::games::recorded(spec, self.game_hash.as_deref(), permit),
            None => Ok(crate::game::GameRef::default_game()),
        }
    }

    /// What the series' schedule was asked for, from the recorded settings (a setting missing
    /// from an older manifest takes its default); `None` when its game cannot be had.
    pub fn schedule_request(&self, permit: &JudgePermit) -> Option<Request> {
        let s = &self.settings;
        let int = |key: &str| s.get(key).and_then(serde_json::Value::as_u64);
        let game = self.game(permit).ok()?;
        let players = int("players").map_or(game.seats().default, |p| p as usize);
        Some(Request {
            game,
            entrants: self.entrants(),
            players,
            games: int("games").unwrap_or(self.games_planned),
            kind: s
                .get("schedule")
                .and_then(|v| serde_json::from_value::<ScheduleKind>(v.clone()).ok())
                .unwrap_or_default(),
            // Not given meant "on when the budget allows" before duplicate deals were made
            // opt-in; the resolved choice is recorded beside it.
            duplicate: s
                .get("duplicate")
                .and_then(serde_json::Value::as_bool)
                .or(Some(self.duplicate)),
            seed: self.seed,
        })
    }

    /// The bot's template choice as `bots` makes it.
    pub fn template_of(bot: &ManifestBot) -> TemplateChoice {
        match (&bot.template_file, &bot.template) {
            (Some(path), _) => TemplateChoice::File(path.clone()),
            (None, Some(set)) => TemplateChoice::Set(set.clone()),
            (None, None) => TemplateChoice::Set("default".into()),
        }
    }
}

/// The settings as a map of JSON values, as the manifest keeps them.
pub fn settings_map(settings: &Settings) -> serde_json::Map<String, serde_json::Value> {
    match serde_json::to_value(settings) {
        Ok(serde_json::Value::Object(map)) => map,
        _ => unreachable!("settings serialize to a map"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn any_seed_survives_series_toml() {
        // Up to 64 bits a number, as series recorded before 128-bit seeds have it; above, a
        // string.
        for (seed, written) in [
            (Seed::from(u64::MAX - 1), format!("seed = {}", u64::MAX - 1)),
            (Seed(u128::MAX), format!("seed = \"{}\"", u128::MAX)),
        ] {
            let dir = tempfile::tempdir().unwrap();
            let series = SeriesDir {
                id: "s".into(),
                path: dir.path().to_path_buf(),
            };
            let args = crate::config::RunArgs {
                table: crate::config::TableArgs {
                    seed: Some(seed),
                    config: Some("/dev/null".into()),
                    ..Default::default()
                },
                ..Default::default()
            };
            let settings = Settings::resolve(&args).unwrap();
            Manifest::new(&series, &settings, &[], &[], &[], None)
                .write(dir.path())
                .unwrap();
            let text = std::fs::read_to_string(dir.path().join(MANIFEST)).unwrap();
            assert!(text.contains(&written), "{text}");
            let back = Manifest::read(dir.path()).unwrap();
            assert_eq!(back.seed, seed);
            assert_eq!(back.settings, settings_map(&settings));
        }
    }
}
