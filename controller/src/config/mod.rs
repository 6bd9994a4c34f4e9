//! Settings of a series, from `take6.toml` and command-line flags, validated once.
//!
//! Flags win over the file; the file wins over built-in defaults. Paths in the file are relative
//! to the file's folder, paths in flags to the current directory. Nothing here knows a game
//! but through [`crate::game::Game`] (its seats, default limits, what it supports).
//!
//! One job per file: `flags` the command line, `file` `take6.toml`'s keys, this file the
//! settings and their resolution, `bounds` each number's range, `machine` what this
//! machine cannot give.

use std::path::{Path, PathBuf};
use std::time::Duration;

use serde::Serialize;

use crate::game::GameRef;
use crate::player::Limits;
use crate::sandbox::{self, Clock, Mode};
use crate::schedule::{Request, ScheduleKind};
use crate::shard::Shard;

mod bounds;
mod file;
mod file_errors;
mod flags;
pub mod game_limits;
mod layers;
mod machine;

use file::{FileConfig, read_file};
pub use flags::{
    CheckArgs, CleanArgs, Cli, Command, CompareArgs, LeagueArgs, MergeArgs, PlayArgs, RunArgs,
    TableArgs,
};
use layers::{Layers, duplicate_of, seed_of};

/// The name of the settings file looked for in the current directory.
pub const CONFIG_FILE: &str = "take6.toml";

/// Games in a row with a fault that bench a bot by default (`--bench-after`; a league benches
/// a version after as many).
pub const BENCH_AFTER: u64 = 3;

/// The settings of one series, after defaults, the file and the flags.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Settings {
    /// The game every table plays; left out of `series.toml` for Take 6, so older series
    /// read as what they are.
    #[serde(
        skip_serializing_if = "GameRef::is_default",
        serialize_with = "crate::game::serialize_spec"
    )]
    pub game: GameRef,
    pub bots: PathBuf,
    pub results: PathBuf,
    pub games: u64,
    /// Seats at every table.
    pub players: usize,
    pub schedule: ScheduleKind,
    /// Duplicate deals: `None` for on when the budget allows.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub duplicate: Option<bool>,
    /// Rounds per game.
    pub rounds: u32,
    /// Stop once the top `top` ranks are separated at 95 %.
    pub until_separated: bool,
    pub top: usize,
    pub seed: crate::seed::Seed,
    /// Whether the seed was chosen by the user (else drawn at random).
    pub seed_given: bool,
    pub jobs: usize,
    pub first_reply_ms: u64,
    pub reply_ms: u64,
    /// Whether a flag or the settings file set the reply limits (else they are the game's
    /// defaults): a Botzone game then plays every bot under them rather than each bot's own
    /// (its language's, or `game.toml`'s). Recorded so that `--resume` plays as the series
    /// began; left out of `series.toml` when false.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub limits_given: bool,
    pub build_timeout_s: u64,
    pub grace_ms: u64,
    /// A bot that faults in this many games in a row sits out the rest (0: never).
    pub bench_after: u64,
    /// The sandbox mode asked for (what it enforced is in `series.toml`'s `[sandbox]`).
    pub sandbox: Mode,
    /// Memory of a bot's whole tree in MiB.
    pub memory_mib: u64,
    pub max_procs: u64,
    pub disk_mib: u64,
    pub max_files: u64,
    pub clock: Clock,
    pub wall_factor: u32,
    /// Whether a bot's sandbox is kept across its games (where the sandbox is complete).
    pub warm_sandboxes: bool,
    /// Whether tables are pinned to processors where `jobs` allows (see `crate::affinity`).
    pub pin_tables: bool,
    /// Largest bot folder in MiB of data; a larger one is skipped.
    pub max_bot_mib: u64,
    /// The template folder, when there is one; built-in sets are always available.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub templates: Option<PathBuf>,
    pub stderr_cap_kib: usize,
    pub line_cap_bytes: usize,
    /// A series of built-ins only (`--builtins-only`); left out of `series.toml` when false.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub builtins_only: bool,
    /// How much of each game `games.jsonl` keeps; left out when full.
    #[serde(skip_serializing_if = "crate::record::Level::is_full")]
    pub record: crate::record::Level,
    /// Whether a series that skipped bots still exits 0 (`--allow-skips`); left out of
    /// `series.toml` when false. It changes no game.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub allow_skips: bool,
    /// Built-ins on the async tables rather than threads (a hidden flag, for tests); it does
    /// not change any game.
    #[serde(skip)]
    pub async_tables: bool,
    /// The name of the person playing at the keyboard (`take6 play`), if any.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub human: Option<String>,
    /// The opponents the person chose (`take6 play --against`), if any.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub against: Option<Vec<String>>,
    /// The git repository the bots came from (`--bots URL[@REV]`), with the commit played.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub bots_repository: Option<crate::repo::BotsRepository>,
    /// Where the bots' messages and replies are recorded (`take6 check`), if anywhere.
    #[serde(skip)]
    pub transcript: Option<crate::player::transcript::Transcript>,
    /// The settings file that was read, if any.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub config: Option<PathBuf>,
    /// This folder's share of the series' games (`--shard`), if it is not the whole series.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub shard: Option<Shard>,
    /// Where the reply limits came from (flag, `[limits.<game>]`, top-level key, default).
    #[serde(skip)]
    pub limits_from: [game_limits::Source; 2],
    /// `--standings-every N`: the standings on stderr every N games; changes no game.
    #[serde(skip)]
    pub standings_every: Option<u64>,
}

/// Settings that cannot be used. Each message names the setting and the fix.
#[derive(Debug, thiserror::Error)]
pub enum ConfigError {
    #[error("{}", match error.kind() {
        std::io::ErrorKind::NotFound => format!("settings file {} does not exist", path.display()),
        _ => format!("cannot read settings file {}: {error}", path.display()),
    })]
    Read {
        path: PathBuf,
        error: std::io::Error,
    },
    #[error("settings file {path} is not valid: {message}")]
    Parse { path: PathBuf, message: String },
    #[error("{setting} = {value} is not allowed: {fix}")]
    Invalid {
        setting: &'static str,
        value: String,
        fix: String,
    },
    /// A numeric setting outside its range; `setting` is the flag or key with its value.
    #[error("{setting} is out of range: use a value from {min} to {max}")]
    OutOfRange { setting: String, min: u64, max: u64 },
    #[error(
        "template folder {0} does not exist; create it or leave --templates out to use the built-in sets"
    )]
    NoTemplates(PathBuf),
    #[error(transparent)]
    Game(#[from] crate::games::GameError),
}

impl Settings {
    /// Resolves the settings of `take6 run`: defaults, then the settings file (the one given, or
    /// `take6.toml` in the current directory when present), then the flags.
    pub fn resolve(args: &RunArgs) -> Result<Settings, ConfigError> {
        let (file, config_path) = match &args.table.config {
            Some(path) => (read_file(path)?, Some(path.clone())),
            None if Path::new(CONFIG_FILE).is_file() => {
                let path = PathBuf::from(CONFIG_FILE);
                (read_file(&path)?, Some(path))
            }
            None => (FileConfig::default(), None),
        };
        Settings::resolve_from(args, file, config_path)
    }

    /// Resolves the settings of a resumed series: the settings it recorded (`series.toml`'s
    /// `[settings]`) stand in for the settings file, and the flags given now win over them.
    /// Whether the result may be used (it must not change the games) is for the caller.
    pub fn resolve_recorded(
        args: &RunArgs,
        recorded: &serde_json::Map<String, serde_json::Value>,
    ) -> Result<Settings, ConfigError> {
        let mut table = recorded.clone();
        // Recorded, but not keys of a settings file.
        for key in [
            "seed_given",
            "limits_given",
            "human",
            "against",
            "bots_repository",
            "config",
            "shard",
        ] {
            table.remove(key);
        }
        let file: FileConfig =
            serde_json::from_value(serde_json::Value::Object(table)).map_err(|e| {
                ConfigError::Parse {
                    path: PathBuf::from("series.toml"),
                    message: e.to_string(),
                }
            })?;
        let mut settings = Settings::resolve_from(args, file, None)?;
        // Whether the series' limits were given is what it recorded (a series recorded
        // before take6 kept it had its limits given only where a Botzone game's did not
        // matter), or a flag given now (which, if it changes the games, the caller refuses).
        settings.limits_given = recorded
            .get("limits_given")
            .and_then(serde_json::Value::as_bool)
            .unwrap_or(false)
            || args.table.first_reply_ms.is_some()
            || args.table.reply_ms.is_some();
        // A game whose bots each have their own limits (a Botzone game's) says so, as the
        // series said when it began; others say the limits are the recorded ones.
        settings.limits_from = if !settings.limits_given && settings.game.limits_note().is_some() {
            [game_limits::Source::Default; 2]
        } else {
            [game_limits::Source::Recorded; 2]
        };
        settings.seed_given = recorded
            .get("seed_given")
            .and_then(serde_json::Value::as_bool)
            .unwrap_or(true);
        // Where the bots came from: the series plays on from that repository's commit.
        settings.bots_repository = recorded
            .get("bots_repository")
            .and_then(|v| serde_json::from_value(v.clone()).ok());
        settings.config = recorded
            .get("config")
            .and_then(serde_json::Value::as_str)
            .map(PathBuf::from);
        // A resumed shard stays the shard it was unless a flag says otherwise (which the
        // caller refuses: it would change the games).
        let recorded_shard =
            match recorded.get("shard").and_then(serde_json::Value::as_str) {
                Some(text) => Some(text.parse().map_err(|e: crate::shard::ShardError| {
                    ConfigError::Parse {
                        path: PathBuf::from("series.toml"),
                        message: e.to_string(),
                    }
                })?),
                None => None,
            };
        settings.shard = args.shard.or(recorded_shard).filter(|s| *s != Shard::WHOLE);
        Ok(settings)
    }

    /// Defaults, then `file` (read from `config_path`, if any), then the flags. Each step is a
    /// function of its own ([`Layers`]); they run in the order of the fields, so that of two bad
    /// settings the same one is reported first.
    fn resolve_from(
        args: &RunArgs,
        file: FileConfig,
        config_path: Option<PathBuf>,
    ) -> Result<Settings, ConfigError> {
        let layers = Layers::new(args, &file, config_path.as_deref());
        let (seed, seed_given) = seed_of(args, &file);
        let templates = layers.templates()?;
        let game = match args.game.as_deref().or(file.game.as_deref()) {
            Some(name) => crate::games::find(name)?,
            None => GameRef::default_game(),
        };
        let (table, limits_from) = layers.game_limits(&game)?;
        let shape = layers.shape(&game)?;
        let allowed = layers.allowances(&game, &table)?;
        let mut settings = Settings {
            game: game.clone(),
            bots: layers.folder(&args.table.bots, &file.bots, "bots"),
            results: layers.folder(&args.table.results, &file.results, "results"),
            games: shape.games,
            players: shape.players,
            schedule: args.schedule.or(file.schedule).unwrap_or_default(),
            duplicate: duplicate_of(args, &file),
            rounds: shape.rounds,
            until_separated: args.until_separated || file.until_separated.unwrap_or(false),
            top: shape.top,
            seed,
            seed_given,
            jobs: shape.jobs,
            first_reply_ms: allowed.first_reply_ms,
            reply_ms: allowed.reply_ms,
            limits_given: limits_from
                .iter()
                .any(|s| *s != game_limits::Source::Default),
            build_timeout_s: allowed.build_timeout_s,
            grace_ms: allowed.grace_ms,
            bench_after: allowed.bench_after,
            max_bot_mib: allowed.max_bot_mib,
            sandbox: args.table.sandbox.or(file.sandbox).unwrap_or_default(),
            memory_mib: allowed.memory_mib,
            max_procs: allowed.max_procs,
            disk_mib: allowed.disk_mib,
            max_files: allowed.max_files,
            clock: args.table.clock.or(file.clock).unwrap_or_default(),
            wall_factor: allowed.wall_factor,
            warm_sandboxes: args
                .table
                .warm_sandboxes
                .or(file.warm_sandboxes)
                .unwrap_or(true),
            pin_tables: args.table.pin_tables.or(file.pin_tables).unwrap_or(true),
            templates,
            stderr_cap_kib: allowed.stderr_cap_kib,
            line_cap_bytes: allowed.line_cap_bytes,
            builtins_only: args.builtins_only || file.builtins_only.unwrap_or(false),
            record: args.record.or(file.record).unwrap_or_default(),
            allow_skips: args.allow_skips || file.allow_skips.unwrap_or(false),
            async_tables: args.async_tables,
            human: None,
            against: None,
            bots_repository: None,
            transcript: None,
            config: config_path.clone(),
            shard: args.shard.filter(|s| *s != Shard::WHOLE),
            limits_from,
            standings_every: args.standings_every,
        };
        settings.refuse_contradictions()?;
        if !layers.wall_given() {
            settings.wall_factor = default_wall_factor(settings.players as u64) as u32;
        }
        settings.check_machine()?;
        Ok(settings)
    }

    /// Settings that contradict each other or the game: summary records of bots, shards
    /// without a seed, a setting the game does not support, a table size it does not seat.
    fn refuse_contradictions(&self) -> Result<(), ConfigError> {
        if self.record == crate::record::Level::Summary && !self.builtins_only {
            return Err(ConfigError::Invalid {
                setting: "--record",
                value: "summary".into(),
                fix: "only a series of built-ins (--builtins-only) can be re-derived from its \
                      seed; record bots' games in full"
                    .into(),
            });
        }
        if let Some(shard) = self.shard.filter(|_| !self.seed_given) {
            return Err(ConfigError::Invalid {
                setting: "--shard",
                value: shard.to_string(),
                fix: "every shard of a series needs the same seed; give it with --seed N".into(),
            });
        }
        self.refuse_unsupported()?;
        let (fewest, most) = (self.game.seats().fewest, self.game.seats().most);
        if !(fewest..=most).contains(&self.players) {
            return Err(ConfigError::Invalid {
                setting: "--players (players)",
                value: self.players.to_string(),
                fix: format!(
                    "a table of {} seats {fewest} to {most} players",
                    self.game.title()
                ),
            });
        }
        Ok(())
    }

    /// Settings that mean nothing in the series' game ([`crate::game::GameFacts::supports`]),
    /// refused rather than ignored: rounds, duplicate deals, summary records.
    fn refuse_unsupported(&self) -> Result<(), ConfigError> {
        let supports = self.game.supports();
        let title = self.game.title();
        let refuse = |setting: &'static str, value: String, fix: &str| {
            Err(ConfigError::Invalid {
                setting,
                value,
                fix: format!("{fix} in a {title} series"),
            })
        };
        if self.rounds != 1 && !supports.rounds {
            return refuse(
                "--rounds (rounds)",
                self.rounds.to_string(),
                "a game has one round; leave --rounds out",
            );
        }
        if self.duplicate == Some(true) && !supports.duplicate_deals {
            return refuse(
                "--duplicate (duplicate)",
                "true".into(),
                "there are no hands to rotate; leave --duplicate out",
            );
        }
        if self.record != crate::record::Level::Full && !supports.summary_records {
            return refuse("--record", "summary".into(), "games are recorded in full");
        }
        Ok(())
    }

    /// Where the series' bot folders are, as people name them (`bots/alice`, or
    /// `../koth-bots@v2:alice` for a repository's: never its cache).
    pub fn place(&self) -> crate::bots::Place {
        crate::bots::Place {
            bots: self.bots.clone(),
            repository: self.bots_repository.as_ref().map(crate::repo::shown),
        }
    }

    /// When `bots` names a git repository (`URL[@REV]`, or a repository's folder), clones or
    /// updates it in the cache under the results folder and takes its folders as the bots.
    pub fn fetch_bots(&mut self) -> Result<(), crate::repo::RepoError> {
        if let Some((source, rev)) = crate::repo::parse(&self.bots) {
            let (bots, repository) = crate::repo::fetch(&source, rev.as_deref(), &self.results)?;
            self.bots = bots;
            self.bots_repository = Some(repository);
        }
        Ok(())
    }

    /// Resolves the settings of `take6 check`: a series of the bots in `bots` (the check's
    /// copy of the bot) whose messages and replies are recorded, played one game at a time.
    pub fn resolve_check(args: &CheckArgs, bots: PathBuf) -> Result<Settings, ConfigError> {
        let mut settings = Settings::resolve(&RunArgs {
            table: TableArgs {
                bots: Some(bots),
                results: args.results.clone(),
                seed: args.seed,
                first_reply_ms: args.first_reply_ms,
                reply_ms: args.reply_ms,
                sandbox: args.sandbox,
                ..TableArgs::default()
            },
            game: args.game.clone(),
            games: Some(args.games),
            ..RunArgs::default()
        })?;
        settings.transcript = Some(crate::player::transcript::Transcript::default());
        // One game at a time: a bot with the same fault in two games in a row stops the check
        // there (series::repeated), with no other game already under way.
        settings.jobs = 1;
        Ok(settings)
    }

    /// Resolves the settings of `take6 play`: as `run`, but one game unless `--games` says
    /// otherwise, one game at a time, and a person in one seat.
    pub fn resolve_play(args: &PlayArgs) -> Result<Settings, ConfigError> {
        let name = &args.name;
        if let Some(problem) = crate::names::name_problem(name) {
            return Err(ConfigError::Invalid {
                setting: "--name",
                value: format!("{name:?}"),
                fix: problem,
            });
        }
        let mut settings = Settings::resolve(&RunArgs {
            table: args.table.clone(),
            game: args.game.clone(),
            games: Some(args.games),
            ..RunArgs::default()
        })?;
        settings.jobs = 1;
        settings.human = Some(name.clone());
        if !args.against.is_empty() {
            let most = settings.game.seats().most;
            if args.against.len() >= most {
                return Err(ConfigError::Invalid {
                    setting: "--against",
                    value: args.against.join(" "),
                    fix: format!(
                        "a table of {} seats {most}: name at most {} opponents",
                        settings.game.title(),
                        most - 1
                    ),
                });
            }
            settings.against = Some(args.against.clone());
            // Exactly these sit with the person: the table's real size is what series.toml
            // records (a bot named twice sits once; a built-in named twice sits twice).
            let game = settings.game.clone();
            let builtin = |n: &String| game.builtin(n).is_some();
            let mut bots: Vec<&String> = args.against.iter().filter(|n| !builtin(n)).collect();
            bots.sort();
            bots.dedup();
            let seats = 1 + bots.len() + args.against.iter().filter(|n| builtin(n)).count();
            if settings.wall_factor == default_wall_factor(settings.players as u64) as u32 {
                settings.wall_factor = default_wall_factor(seats as u64) as u32;
            }
            settings.players = seats.max(2);
        }
        Ok(settings)
    }

    /// What these settings let a bot exploit, said on stderr and kept in `series.toml`: a seed
    /// a bot can find by search, and duplicate deals, which a bot that keeps memory recognises.
    /// None for built-ins only (no bot plays).
    pub fn warnings(&self) -> Vec<String> {
        if self.builtins_only {
            return Vec::new();
        }
        let mut warnings = Vec::new();
        if self.seed_given && self.game.dealt_by_seed() {
            warnings.extend(self.seed.warning());
        }
        if self.duplicate == Some(true) {
            warnings.push(
                "duplicate deals replay each deal to the same bots: a bot that writes its hand \
                 and the starting rows into its working copy recognises the deal in the next \
                 rotation and knows every other hand; use them only with bots you trust"
                    .to_string(),
            );
        }
        warnings
    }

    /// What the schedule is asked for, for `entrants` bots (and a person).
    pub fn schedule_request(&self, entrants: usize) -> Request {
        Request {
            game: self.game.clone(),
            entrants,
            players: self.players,
            games: self.games,
            kind: self.schedule,
            duplicate: self.duplicate,
            seed: self.seed,
        }
    }

    /// The limits of every bot tree, for the launcher.
    pub fn sandbox_limits(&self) -> sandbox::Limits {
        sandbox::Limits {
            memory_mib: self.memory_mib,
            max_procs: self.max_procs,
            disk_mib: self.disk_mib,
            max_files: self.max_files,
        }
    }

    /// The line `run` and `check` print: the reply limits in force and where they came from.
    pub fn limits_line(&self) -> String {
        game_limits::line(
            &self.game,
            (self.first_reply_ms, self.reply_ms),
            self.clock,
            self.limits_from,
            self.config.as_deref(),
        )
    }

    /// The limits every bot process plays under.
    pub fn limits(&self) -> Limits {
        Limits {
            first_reply: Duration::from_millis(self.first_reply_ms),
            reply: Duration::from_millis(self.reply_ms),
            grace: Duration::from_millis(self.grace_ms),
            clock: self.clock,
            wall_factor: self.wall_factor,
            line_cap: self.line_cap_bytes,
            stderr_cap: self.stderr_cap_kib * 1024,
            reply_given: self.limits_given,
        }
    }

    pub fn build_timeout(&self) -> Duration {
        Duration::from_secs(self.build_timeout_s)
    }

    /// The largest bot folder, in bytes of data.
    pub fn max_bot_bytes(&self) -> u64 {
        self.max_bot_mib * 1024 * 1024
    }
}

/// The default wall-clock safety net under the CPU clock, in multiples of the reply limit. The
/// bots of a table are asked for their cards at once and a pinned table has one processor, so
/// with equal shares an honest bot that uses its whole CPU limit needs up to `players` times it
/// of wall time, plus about one share for a tree of another table (a quota of one processor
/// spreads over every processor) and the rest of the machine: 4 more in all (on a loaded 2-core
/// machine a bot's wall time reached 6.1 times its CPU time at a 2-player table beside a
/// kamikaze). Capped at 10, the factor before fair shares: a bot that blocks holds a 2-player
/// table 6 times its limit per reply instead of 10.
pub fn default_wall_factor(players: u64) -> u64 {
    (players + 4).min(10)
}

#[cfg(test)]
mod tests;
