//! The allowed range of every numeric setting, checked alike for flags and `take6.toml`, so an
//! absurd value is a clear error naming the flag or key, the range and the value, instead of a
//! wrapped count, a zero limit or a panic far from where it was typed.

use std::path::Path;

use super::ConfigError;

/// A numeric setting: its flag (if it has one), its key in `take6.toml`, and its range.
#[derive(Debug, Clone, Copy)]
pub struct Bounds {
    pub flag: Option<&'static str>,
    pub key: &'static str,
    pub min: u64,
    pub max: u64,
}

impl Bounds {
    /// The value the flag gives, else the one the file (`config`) gives, checked against the
    /// range; `None` when neither gives one.
    pub fn pick(
        &self,
        flag: Option<u64>,
        file: Option<u64>,
        config: Option<&Path>,
    ) -> Result<Option<u64>, ConfigError> {
        let (value, setting) = match (flag, file) {
            (Some(v), _) => (v, format!("{} {v}", self.flag.unwrap_or(self.key))),
            (None, Some(v)) => {
                let file = config.map_or_else(String::new, |p| format!(" in {}", p.display()));
                (v, format!("{} = {v}{file}", self.key))
            }
            (None, None) => return Ok(None),
        };
        if (self.min..=self.max).contains(&value) {
            Ok(Some(value))
        } else {
            Err(ConfigError::OutOfRange {
                setting,
                min: self.min,
                max: self.max,
            })
        }
    }

    /// As [`Bounds::pick`], falling back to `default` (which must be in range).
    pub fn pick_or(
        &self,
        flag: Option<u64>,
        file: Option<u64>,
        config: Option<&Path>,
        default: u64,
    ) -> Result<u64, ConfigError> {
        debug_assert!((self.min..=self.max).contains(&default), "{}", self.key);
        Ok(self.pick(flag, file, config)?.unwrap_or(default))
    }
}

/// An hour: the longest any single time limit may be.
const HOUR_MS: u64 = 3_600_000;

const fn flagged(flag: &'static str, key: &'static str, min: u64, max: u64) -> Bounds {
    Bounds {
        flag: Some(flag),
        key,
        min,
        max,
    }
}

/// A series of more games than this would take months; a larger count is a typo.
pub const GAMES: Bounds = flagged("--games", "games", 1, 100_000_000);
/// Players at a table: 10 hands of 10 and 4 row starts are the whole deck.
pub const PLAYERS: Bounds = flagged("--players", "players", 2, 10);
/// Rounds per game; the CodinGame arena plays 5.
pub const ROUNDS: Bounds = flagged("--rounds", "rounds", 1, 1000);
/// The leading ranks `--until-separated` waits for.
pub const TOP: Bounds = flagged("--top", "top", 1, 1000);
/// More games at once than any machine has cores for; also bounds the channels sized from it.
pub const JOBS: Bounds = flagged("--jobs", "jobs", 1, 1024);
pub const FIRST_REPLY_MS: Bounds = flagged("--first-reply-ms", "first_reply_ms", 1, HOUR_MS);
pub const REPLY_MS: Bounds = flagged("--reply-ms", "reply_ms", 1, HOUR_MS);
/// A day.
pub const BUILD_TIMEOUT_S: Bounds = flagged("--build-timeout-s", "build_timeout_s", 1, 86_400);
/// 0 is allowed: kill at once after the last message.
pub const GRACE_MS: Bounds = flagged("--grace-ms", "grace_ms", 0, HOUR_MS);
/// 0: never benched.
pub const BENCH_AFTER: Bounds = flagged("--bench-after", "bench_after", 0, 1_000_000);
/// Memory of a bot's tree. Below 16 MiB not even a shell starts; 1 TiB is beyond any machine
/// this runs on, and keeps the byte count far from overflowing.
pub const MEMORY_MIB: Bounds = flagged("--memory-mib", "memory_mib", 16, 1 << 20);
/// Processes and threads of a bot's tree: a shell, bubblewrap and the bot need a few.
pub const MAX_PROCS: Bounds = flagged("--max-procs", "max_procs", 4, 1 << 22);
/// Bytes a bot may write, in MiB; 16 TiB keeps the byte count far from overflowing.
pub const DISK_MIB: Bounds = flagged("--disk-mib", "disk_mib", 1, 1 << 24);
/// Open files per bot process: below 16 not even an interpreter starts.
pub const MAX_FILES: Bounds = flagged("--max-files", "max_files", 16, 1 << 20);
/// The wall-clock safety net under the CPU clock, in multiples of the reply limit.
pub const WALL_FACTOR: Bounds = flagged("--wall-factor", "wall_factor", 1, 1000);
/// A bot folder is copied once per series; 64 GiB is far past any sensible bot.
pub const MAX_BOT_MIB: Bounds = flagged("--max-bot-mib", "max_bot_mib", 1, 1 << 16);
/// Kept in memory per bot per game: at most 64 MiB.
pub const STDERR_CAP_KIB: Bounds = Bounds {
    flag: None,
    key: "stderr_cap_kib",
    min: 0,
    max: 1 << 16,
};
/// The longest reply line: room for `PLAY 104` and a carriage return at least, 1 MiB at most.
pub const LINE_CAP_BYTES: Bounds = Bounds {
    flag: None,
    key: "line_cap_bytes",
    min: 16,
    max: 1 << 20,
};
