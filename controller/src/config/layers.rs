//! The layers a run's settings come from (the flags, `take6.toml`, the defaults), asked in
//! that order, one method per group of settings.

use std::path::{Path, PathBuf};

use super::bounds::{self, Bounds};
use super::file::FileConfig;
use super::{BENCH_AFTER, ConfigError, RunArgs, game_limits};
use crate::game::GameRef;

/// The layers a run's settings come from, highest first: the flags, `take6.toml` (read from
/// `config`, if any; its paths are relative to its folder, `base`), the defaults. Resolving a
/// setting is asking them in that order, so each group of settings is a method here.
pub(super) struct Layers<'a> {
    args: &'a RunArgs,
    file: &'a FileConfig,
    config: Option<&'a Path>,
    base: PathBuf,
}

/// How many games of what shape: each from the flag, the file or its default, in bounds.
pub(super) struct Shape {
    pub(super) games: u64,
    pub(super) players: usize,
    pub(super) rounds: u32,
    pub(super) top: usize,
    pub(super) jobs: usize,
}

/// What a bot may use (time, memory, files…): each from the flag, the file (for the reply
/// limits: the game's `[limits.GAME]` table first) or its default, in bounds.
pub(super) struct Allowances {
    pub(super) first_reply_ms: u64,
    pub(super) reply_ms: u64,
    pub(super) build_timeout_s: u64,
    pub(super) grace_ms: u64,
    pub(super) bench_after: u64,
    pub(super) max_bot_mib: u64,
    pub(super) memory_mib: u64,
    pub(super) max_procs: u64,
    pub(super) disk_mib: u64,
    pub(super) max_files: u64,
    pub(super) wall_factor: u32,
    pub(super) stderr_cap_kib: usize,
    pub(super) line_cap_bytes: usize,
}

impl<'a> Layers<'a> {
    pub(super) fn new(
        args: &'a RunArgs,
        file: &'a FileConfig,
        config: Option<&'a Path>,
    ) -> Layers<'a> {
        let base = config
            .and_then(Path::parent)
            .map(Path::to_path_buf)
            .unwrap_or_default();
        Layers {
            args,
            file,
            config,
            base,
        }
    }

    /// A path the file gives, relative to the file's folder; a URL (a bots repository) is not
    /// a path relative to the file.
    pub(super) fn file_path(&self, p: &Option<PathBuf>) -> Option<PathBuf> {
        p.as_ref().map(|p| match p.to_str() {
            Some(s) if s.contains("://") || s.starts_with("git@") => p.clone(),
            _ => self.base.join(p),
        })
    }

    /// A folder: the flag's, the file's, else `default` beside the file.
    pub(super) fn folder(
        &self,
        flag: &Option<PathBuf>,
        file: &Option<PathBuf>,
        default: &str,
    ) -> PathBuf {
        flag.clone()
            .or(self.file_path(file))
            .unwrap_or_else(|| self.base.join(default))
    }

    /// One number: the flag's, the file's or `default`, refused outside `bounds`.
    pub(super) fn number(
        &self,
        bounds: &Bounds,
        flag: Option<u64>,
        file: Option<u64>,
        default: u64,
    ) -> Result<u64, ConfigError> {
        bounds.pick_or(flag, file, self.config, default)
    }

    /// The template folder: given (and then it must exist), else `templates` beside the
    /// file when there is one.
    pub(super) fn templates(&self) -> Result<Option<PathBuf>, ConfigError> {
        match self
            .args
            .table
            .templates
            .clone()
            .or(self.file_path(&self.file.templates))
        {
            Some(dir) if !dir.is_dir() => Err(ConfigError::NoTemplates(dir)),
            Some(dir) => Ok(Some(dir)),
            None => Ok(Some(self.base.join("templates")).filter(|d| d.is_dir())),
        }
    }

    /// The game's own `[limits.GAME]` table, and where each reply limit comes from (for the
    /// messages that name the setting to change).
    pub(super) fn game_limits(
        &self,
        game: &GameRef,
    ) -> Result<(game_limits::GameLimits, [game_limits::Source; 2]), ConfigError> {
        let (args, file) = (self.args, self.file);
        let table =
            game_limits::for_game(file.limits.as_ref(), game).map_err(|e| ConfigError::Parse {
                path: self.config.map(Path::to_path_buf).unwrap_or_default(),
                message: e.to_string(),
            })?;
        let limits_from = [
            game_limits::source(
                args.table.first_reply_ms,
                table.first_reply_ms,
                file.first_reply_ms,
                ("--first-reply-ms", "first_reply_ms"),
            ),
            game_limits::source(
                args.table.reply_ms,
                table.reply_ms,
                file.reply_ms,
                ("--reply-ms", "reply_ms"),
            ),
        ];
        Ok((table, limits_from))
    }

    /// Games, players (the game's default table size), rounds, top and jobs (as many as the
    /// processors).
    pub(super) fn shape(&self, game: &GameRef) -> Result<Shape, ConfigError> {
        let (args, file) = (self.args, self.file);
        let cpus = std::thread::available_parallelism().map_or(1, std::num::NonZero::get);
        Ok(Shape {
            games: self.number(&bounds::GAMES, args.games, file.games, 100)?,
            players: self.number(
                &bounds::PLAYERS,
                size(args.table.players),
                size(file.players),
                game.seats().default as u64,
            )? as usize,
            rounds: self.number(
                &bounds::ROUNDS,
                args.table.rounds.map(u64::from),
                file.rounds.map(u64::from),
                1,
            )? as u32,
            top: self.number(&bounds::TOP, size(args.top), size(file.top), 3)? as usize,
            jobs: self.number(
                &bounds::JOBS,
                size(args.jobs),
                size(file.jobs),
                (cpus as u64).min(bounds::JOBS.max),
            )? as usize,
        })
    }

    /// Reply limits (the game's defaults), build timeout, grace, the sandbox's limits, the
    /// wall factor and the caps on what a bot writes.
    pub(super) fn allowances(
        &self,
        game: &GameRef,
        table: &game_limits::GameLimits,
    ) -> Result<Allowances, ConfigError> {
        let (args, file) = (&self.args.table, self.file);
        let defaults = game.default_limits();
        Ok(Allowances {
            first_reply_ms: self.number(
                &bounds::FIRST_REPLY_MS,
                args.first_reply_ms,
                table.first_reply_ms.or(file.first_reply_ms),
                defaults.first_reply_ms,
            )?,
            reply_ms: self.number(
                &bounds::REPLY_MS,
                args.reply_ms,
                table.reply_ms.or(file.reply_ms),
                defaults.reply_ms,
            )?,
            build_timeout_s: self.number(
                &bounds::BUILD_TIMEOUT_S,
                args.build_timeout_s,
                file.build_timeout_s,
                300,
            )?,
            grace_ms: self.number(&bounds::GRACE_MS, args.grace_ms, file.grace_ms, 1000)?,
            bench_after: self.number(
                &bounds::BENCH_AFTER,
                args.bench_after,
                file.bench_after,
                BENCH_AFTER,
            )?,
            max_bot_mib: self.number(
                &bounds::MAX_BOT_MIB,
                args.max_bot_mib,
                file.max_bot_mib,
                256,
            )?,
            memory_mib: self.number(&bounds::MEMORY_MIB, args.memory_mib, file.memory_mib, 1024)?,
            max_procs: self.number(&bounds::MAX_PROCS, args.max_procs, file.max_procs, 64)?,
            disk_mib: self.number(&bounds::DISK_MIB, args.disk_mib, file.disk_mib, 256)?,
            max_files: self.number(&bounds::MAX_FILES, args.max_files, file.max_files, 256)?,
            wall_factor: self.number(
                &bounds::WALL_FACTOR,
                args.wall_factor.map(u64::from),
                file.wall_factor.map(u64::from),
                10,
            )? as u32,
            stderr_cap_kib: self.number(
                &bounds::STDERR_CAP_KIB,
                None,
                size(file.stderr_cap_kib),
                64,
            )? as usize,
            line_cap_bytes: self.number(
                &bounds::LINE_CAP_BYTES,
                None,
                size(file.line_cap_bytes),
                1024,
            )? as usize,
        })
    }

    /// Whether the wall factor was set: otherwise it follows the table size.
    pub(super) fn wall_given(&self) -> bool {
        self.args
            .table
            .wall_factor
            .or(self.file.wall_factor)
            .is_some()
    }
}

/// A count as the bounds take it.
fn size(v: Option<usize>) -> Option<u64> {
    v.map(|v| v as u64)
}

/// The series' seed from the flags or the file, and whether one was given; a random one if not.
pub(super) fn seed_of(args: &RunArgs, file: &FileConfig) -> (crate::seed::Seed, bool) {
    match args.table.seed.or(file.seed) {
        Some(seed) => (seed, true),
        None => (crate::seed::Seed::random(), false),
    }
}

/// Duplicate deals as the flags (`--duplicate`, `--no-duplicate`) or else the file ask.
pub(super) fn duplicate_of(args: &RunArgs, file: &FileConfig) -> Option<bool> {
    match (args.table.duplicate, args.table.no_duplicate) {
        (true, _) => Some(true),
        (_, true) => Some(false),
        _ => file.duplicate,
    }
}
