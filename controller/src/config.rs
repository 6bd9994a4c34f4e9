//! Settings of a series, from `take6.toml` and command-line flags, validated once.
//!
//! Flags win over the file; the file wins over built-in defaults. Paths in the file are relative
//! to the file's folder, paths in flags to the current directory. Nothing here knows about
//! games or processes.

use std::path::{Path, PathBuf};
use std::time::Duration;

use clap::{Args, Parser, Subcommand};
use serde::{Deserialize, Serialize};

use crate::player::Limits;
use crate::sandbox::{self, Clock, Mode};

/// The name of the settings file looked for in the current directory.
pub const CONFIG_FILE: &str = "take6.toml";

/// take6: a King-of-the-Hill tournament controller for Take 6! (6 nimmt!) bots.
///
/// Drop each bot's folder (with an executable `launch`, optionally a `build`) into `bots/` and
/// run a series; results go to `results/<series-id>/` (`results/latest` is the newest).
#[derive(Debug, Parser)]
#[command(version, about, long_about, args_override_self = true)]
pub struct Cli {
    #[command(subcommand)]
    pub command: Command,
}

#[derive(Debug, Subcommand)]
pub enum Command {
    /// Run a series: build every bot, play the games, write games.jsonl, leaderboard.csv,
    /// series.toml and logs under the results folder. A flag given twice takes its last value.
    #[command(args_override_self = true)]
    Run(RunArgs),
    /// Play yourself, at the keyboard, against the bots (at most 9; built-ins fill the table).
    /// Games are recorded under the results folder like any series.
    #[command(args_override_self = true)]
    Play(PlayArgs),
    /// Recompute a series' leaderboard from its games.jsonl (e.g. after the controller was
    /// killed), rewrite its leaderboard.csv and print the summary.
    Leaderboard {
        /// The series folder [default: results/latest]
        #[arg(value_name = "SERIES_DIR", default_value = "results/latest")]
        dir: PathBuf,
    },
}

/// Flags of `take6 run`. Each overrides the same key of `take6.toml`.
#[derive(Debug, Default, Clone, Args)]
pub struct RunArgs {
    /// Folder holding one subfolder per bot [default: bots]
    #[arg(long, value_name = "DIR")]
    pub bots: Option<PathBuf>,
    /// Folder the series' results folder is made in [default: results]
    #[arg(long, value_name = "DIR")]
    pub results: Option<PathBuf>,
    /// Games to play; with more than 10 bots, every 10-bot subset plays ceil(N / subsets) games
    /// [default: 100]
    #[arg(long, value_name = "N")]
    pub games: Option<u64>,
    /// Master seed of all randomness (deals, seats, built-ins) [default: random, recorded in
    /// series.toml]
    #[arg(long, value_name = "N")]
    pub seed: Option<u64>,
    /// Games played at once [default: the number of CPUs]
    #[arg(long, value_name = "N")]
    pub jobs: Option<usize>,
    /// Time limit for a bot's first reply of a game, start-up included [default: 3000]
    #[arg(long, value_name = "MS")]
    pub first_reply_ms: Option<u64>,
    /// Time limit for every later reply [default: 1000]
    #[arg(long, value_name = "MS")]
    pub reply_ms: Option<u64>,
    /// Time limit for a bot's build script [default: 300]
    #[arg(long, value_name = "SECONDS")]
    pub build_timeout_s: Option<u64>,
    /// How long a bot may take to exit after its last message before its process group is
    /// killed [default: 1000]
    #[arg(long, value_name = "MS")]
    pub grace_ms: Option<u64>,
    /// How much isolation bots get: auto (what this machine allows, reported), strict (refuse
    /// to start without full isolation), none (process group and rlimits only) [default: auto]
    #[arg(long, value_name = "MODE")]
    pub sandbox: Option<Mode>,
    /// Memory of a bot's whole process tree, per game and per build (cgroup; the
    /// address-space rlimit of each process where no cgroup can be had) [default: 1024]
    #[arg(long, value_name = "MIB")]
    pub memory_mib: Option<u64>,
    /// Processes and threads of a bot's whole tree (pids cgroup) [default: 64]
    #[arg(long, value_name = "N")]
    pub max_procs: Option<u64>,
    /// Bytes a bot may write: growth of its working copy plus its private /tmp [default: 256]
    #[arg(long, value_name = "MIB")]
    pub disk_mib: Option<u64>,
    /// Open files per bot process (RLIMIT_NOFILE) [default: 256]
    #[arg(long, value_name = "N")]
    pub max_files: Option<u64>,
    /// What reply limits measure: cpu (CPU time of the bot's whole tree since the message) or
    /// wall [default: cpu]
    #[arg(long, value_name = "CLOCK")]
    pub clock: Option<Clock>,
    /// Under the CPU clock, a reply also fails after this many times its limit of wall time
    /// (a bot that blocks uses no CPU) [default: 10]
    #[arg(long, value_name = "N")]
    pub wall_factor: Option<u32>,
    /// Keep each bot's sandbox across its games (true), or make a fresh one per game (false)
    /// [default: true]
    #[arg(long, value_name = "BOOL")]
    pub warm_sandboxes: Option<bool>,
    /// Folder of message template sets [default: templates, when it exists]
    #[arg(long, value_name = "DIR")]
    pub templates: Option<PathBuf>,
    /// Settings file [default: take6.toml in the current directory, when it exists]
    #[arg(long, value_name = "FILE")]
    pub config: Option<PathBuf>,
}

/// Flags of `take6 play`: those of `run`, and the player's name.
#[derive(Debug, Clone, Args)]
pub struct PlayArgs {
    /// Your name at the table
    #[arg(long, default_value = "you")]
    pub name: String,
    #[command(flatten)]
    pub run: RunArgs,
}

/// The keys `take6.toml` may hold; all optional.
#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
struct FileConfig {
    bots: Option<PathBuf>,
    results: Option<PathBuf>,
    games: Option<u64>,
    seed: Option<u64>,
    jobs: Option<usize>,
    first_reply_ms: Option<u64>,
    reply_ms: Option<u64>,
    build_timeout_s: Option<u64>,
    grace_ms: Option<u64>,
    memory_mib: Option<u64>,
    sandbox: Option<Mode>,
    max_procs: Option<u64>,
    disk_mib: Option<u64>,
    max_files: Option<u64>,
    clock: Option<Clock>,
    wall_factor: Option<u32>,
    warm_sandboxes: Option<bool>,
    templates: Option<PathBuf>,
    stderr_cap_kib: Option<usize>,
    line_cap_bytes: Option<usize>,
}

/// The settings of one series, after defaults, the file and the flags.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Settings {
    pub bots: PathBuf,
    pub results: PathBuf,
    pub games: u64,
    pub seed: u64,
    /// Whether the seed was chosen by the user (else drawn at random).
    pub seed_given: bool,
    pub jobs: usize,
    pub first_reply_ms: u64,
    pub reply_ms: u64,
    pub build_timeout_s: u64,
    pub grace_ms: u64,
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
    /// The template folder, when there is one; built-in sets are always available.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub templates: Option<PathBuf>,
    pub stderr_cap_kib: usize,
    pub line_cap_bytes: usize,
    /// The name of the person playing at the keyboard (`take6 play`), if any.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub human: Option<String>,
    /// The settings file that was read, if any.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub config: Option<PathBuf>,
}

/// Settings that cannot be used. Each message names the setting and the fix.
#[derive(Debug, thiserror::Error)]
pub enum ConfigError {
    #[error("cannot read settings file {path}: {error}")]
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
        fix: &'static str,
    },
    #[error(
        "template folder {0} does not exist; create it or leave --templates out to use the built-in sets"
    )]
    NoTemplates(PathBuf),
}

impl Settings {
    /// Resolves the settings of `take6 run`: defaults, then the settings file (the one given, or
    /// `take6.toml` in the current directory when present), then the flags.
    pub fn resolve(args: &RunArgs) -> Result<Settings, ConfigError> {
        let (file, config_path) = match &args.config {
            Some(path) => (read_file(path)?, Some(path.clone())),
            None if Path::new(CONFIG_FILE).is_file() => {
                let path = PathBuf::from(CONFIG_FILE);
                (read_file(&path)?, Some(path))
            }
            None => (FileConfig::default(), None),
        };
        let base = config_path
            .as_deref()
            .and_then(Path::parent)
            .map(Path::to_path_buf)
            .unwrap_or_default();
        let from_file = |p: &Option<PathBuf>| p.as_ref().map(|p| base.join(p));

        let (seed, seed_given) = match args.seed.or(file.seed) {
            Some(seed) => (seed, true),
            None => (rand::random(), false),
        };
        let templates = match args.templates.clone().or(from_file(&file.templates)) {
            Some(dir) if !dir.is_dir() => return Err(ConfigError::NoTemplates(dir)),
            Some(dir) => Some(dir),
            None => Some(base.join("templates")).filter(|d| d.is_dir()),
        };
        let settings = Settings {
            bots: args
                .bots
                .clone()
                .or(from_file(&file.bots))
                .unwrap_or_else(|| base.join("bots")),
            results: args
                .results
                .clone()
                .or(from_file(&file.results))
                .unwrap_or_else(|| base.join("results")),
            games: args.games.or(file.games).unwrap_or(100),
            seed,
            seed_given,
            jobs: args.jobs.or(file.jobs).unwrap_or_else(|| {
                std::thread::available_parallelism().map_or(1, std::num::NonZero::get)
            }),
            first_reply_ms: args.first_reply_ms.or(file.first_reply_ms).unwrap_or(3000),
            reply_ms: args.reply_ms.or(file.reply_ms).unwrap_or(1000),
            build_timeout_s: args.build_timeout_s.or(file.build_timeout_s).unwrap_or(300),
            grace_ms: args.grace_ms.or(file.grace_ms).unwrap_or(1000),
            sandbox: args.sandbox.or(file.sandbox).unwrap_or_default(),
            memory_mib: args.memory_mib.or(file.memory_mib).unwrap_or(1024),
            max_procs: args.max_procs.or(file.max_procs).unwrap_or(64),
            disk_mib: args.disk_mib.or(file.disk_mib).unwrap_or(256),
            max_files: args.max_files.or(file.max_files).unwrap_or(256),
            clock: args.clock.or(file.clock).unwrap_or_default(),
            wall_factor: args.wall_factor.or(file.wall_factor).unwrap_or(10),
            warm_sandboxes: args.warm_sandboxes.or(file.warm_sandboxes).unwrap_or(true),
            templates,
            stderr_cap_kib: file.stderr_cap_kib.unwrap_or(64),
            line_cap_bytes: file.line_cap_bytes.unwrap_or(1024),
            human: None,
            config: config_path,
        };
        settings.validate()?;
        Ok(settings)
    }

    /// Resolves the settings of `take6 play`: as `run`, but one game unless `--games` says
    /// otherwise, one game at a time, and a person in one seat.
    pub fn resolve_play(args: &PlayArgs) -> Result<Settings, ConfigError> {
        let name = &args.name;
        if name.is_empty() || name.chars().any(char::is_whitespace) || name.contains('#') {
            return Err(ConfigError::Invalid {
                setting: "--name",
                value: format!("{name:?}"),
                fix: "use a name without whitespace or '#'",
            });
        }
        let mut settings = Settings::resolve(&args.run)?;
        settings.games = args.run.games.unwrap_or(1);
        settings.jobs = 1;
        settings.human = Some(name.clone());
        settings.validate()?;
        Ok(settings)
    }

    fn validate(&self) -> Result<(), ConfigError> {
        let positive = |setting, value: u64, fix| {
            if value == 0 {
                Err(ConfigError::Invalid {
                    setting,
                    value: value.to_string(),
                    fix,
                })
            } else {
                Ok(())
            }
        };
        positive("games", self.games, "play at least 1 game")?;
        positive("jobs", self.jobs as u64, "run at least 1 game at a time")?;
        positive(
            "first_reply_ms",
            self.first_reply_ms,
            "give bots at least 1 ms",
        )?;
        positive("reply_ms", self.reply_ms, "give bots at least 1 ms")?;
        positive(
            "build_timeout_s",
            self.build_timeout_s,
            "give builds at least 1 s",
        )?;
        positive(
            "line_cap_bytes",
            self.line_cap_bytes as u64,
            "allow at least a few bytes",
        )?;
        self.validate_sandbox()
    }

    /// Range checks of the sandbox's limits: each must leave a bot room to run, and fit the
    /// arithmetic and the kernel's files it is written to.
    fn validate_sandbox(&self) -> Result<(), ConfigError> {
        let within = |setting, value: u64, range: std::ops::RangeInclusive<u64>, fix| {
            if range.contains(&value) {
                Ok(())
            } else {
                Err(ConfigError::Invalid {
                    setting,
                    value: value.to_string(),
                    fix,
                })
            }
        };
        within(
            "memory_mib",
            self.memory_mib,
            16..=1 << 24,
            "use 16 to 16777216 MiB",
        )?;
        within("max_procs", self.max_procs, 4..=1 << 22, "use 4 to 4194304")?;
        within(
            "disk_mib",
            self.disk_mib,
            1..=1 << 24,
            "use 1 to 16777216 MiB",
        )?;
        within(
            "max_files",
            self.max_files,
            16..=1 << 20,
            "use 16 to 1048576",
        )?;
        within(
            "wall_factor",
            self.wall_factor.into(),
            1..=1000,
            "use 1 to 1000",
        )
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
        }
    }

    pub fn build_timeout(&self) -> Duration {
        Duration::from_secs(self.build_timeout_s)
    }
}

fn read_file(path: &Path) -> Result<FileConfig, ConfigError> {
    let text = std::fs::read_to_string(path).map_err(|error| ConfigError::Read {
        path: path.to_path_buf(),
        error,
    })?;
    toml::from_str(&text).map_err(|e| ConfigError::Parse {
        path: path.to_path_buf(),
        message: e.to_string(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn args_with_config(text: &str) -> (tempfile::TempDir, RunArgs) {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("take6.toml");
        std::fs::write(&path, text).unwrap();
        let args = RunArgs {
            config: Some(path),
            ..RunArgs::default()
        };
        (dir, args)
    }

    #[test]
    fn flags_win_over_the_file_and_file_paths_are_relative_to_it() {
        let (dir, mut args) =
            args_with_config("games = 7\nseed = 5\nreply_ms = 20\nbots = \"b\"\n");
        args.games = Some(9);
        let s = Settings::resolve(&args).unwrap();
        assert_eq!(s.games, 9);
        assert_eq!((s.seed, s.seed_given), (5, true));
        assert_eq!(s.reply_ms, 20);
        assert_eq!(s.first_reply_ms, 3000);
        assert_eq!(s.bots, dir.path().join("b"));
        assert_eq!(s.results, dir.path().join("results"));
    }

    #[test]
    fn unknown_keys_and_zero_values_are_named_in_the_error() {
        let (_dir, args) = args_with_config("gmaes = 7\n");
        let err = Settings::resolve(&args).unwrap_err().to_string();
        assert!(err.contains("take6.toml") && err.contains("gmaes"), "{err}");
        let (_dir, args) = args_with_config("jobs = 0\n");
        let err = Settings::resolve(&args).unwrap_err().to_string();
        assert!(err.contains("jobs = 0"), "{err}");
    }

    #[test]
    fn a_missing_config_file_or_template_folder_is_an_error() {
        let args = RunArgs {
            config: Some("/no/such/take6.toml".into()),
            ..RunArgs::default()
        };
        let err = Settings::resolve(&args).unwrap_err().to_string();
        assert!(err.contains("/no/such/take6.toml"), "{err}");
        let (_dir, mut args) = args_with_config("");
        args.templates = Some("/no/such/templates".into());
        let err = Settings::resolve(&args).unwrap_err().to_string();
        assert!(err.contains("/no/such/templates"), "{err}");
    }
}
