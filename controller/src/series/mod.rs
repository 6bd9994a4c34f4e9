//! A whole series, wired together: bots → schedule → up to `jobs` tables at once → one
//! reporter → sinks.
//!
//! | file | job |
//! |---|---|
//! | `mod.rs` | what a series ends with: its status, its outcome, its errors |
//! | `start.rs` | what every run (new, resumed, a league's) assembles before its first game: wires, launcher, entrants, the game's programs, the log read back |
//! | `run.rs` | `take6 run`: a new series (bots, schedule, manifest), and built-ins only |
//! | `resumed.rs` | `take6 run --resume`: a stopped series continued |
//! | `lineup.rs` | who plays: bots with their words on the wire (the game's `wires`), `take6 play --against`, the start line |
//! | `play.rs` | the series' sinks, then its games on the async tables or the threads |
//! | `dir.rs` | the series folder, atomic file replacement, the lock |
//! | `manifest.rs` | `series.toml` |
//! | `dispatch.rs` | up to `jobs` games at once |
//! | `reporter.rs` | events, the `Sink` trait, the reporter, the replay of `games.jsonl` |
//! | `sinks/` | one output each: `games.jsonl`, leaderboard, manifest, progress bar, bot logs, console lines, summary |
//! | `replay.rs` | `take6 leaderboard` and `take6 verify`: `games.jsonl` replayed into sinks |
//! | `verify.rs` | the verification sink |
//! | `resume.rs` | what a resume accepts |
//! | `continued.rs` | what any continued run (resume, a league's next run) may not change, and its refusals |
//! | `threads.rs`, `lanes.rs` | built-ins only on plain threads; a runtime per table |
//! | `merge/` | `take6 merge`: the shards checked and indexed (`shards.rs`), then fed in game order into the sinks (`mod.rs`) |
//!
//! Every finished game goes through the reporter's one path into the sinks, whether it was just
//! played or read back from `games.jsonl`, so a resumed series, a rebuilt leaderboard and a
//! verification see the records exactly as an uninterrupted series did.

pub(crate) mod bench;
pub(crate) mod builds;
pub mod continued;
pub(crate) mod dir;
pub(crate) mod dispatch;
mod lanes;
pub(crate) mod lineup;
pub mod manifest;
pub mod merge;
pub(crate) mod play;
pub mod repeated;
pub(crate) mod replay;
pub mod reporter;
mod resume;
mod resumed;
pub(crate) mod run;
pub mod sinks;
pub(crate) mod start;
mod threads;
pub mod verify;

use std::path::PathBuf;

use serde::{Deserialize, Serialize};

pub use dir::{GAMES, LEADERBOARD, MANIFEST, SeriesDir};
pub use replay::{find_game, rebuild_leaderboard, verify};
pub use resumed::resume;
pub use run::run;
pub use sinks::progress::{BarSlot, StderrAboveBar};
pub use sinks::write_leaderboard;
pub use verify::Verification;

use crate::bots::{BotsError, Skipped};
use crate::record::Standing;
use crate::sandbox::SandboxError;
use crate::schedule::ScheduleError;

/// The controller's own failures (never a bot's).
#[derive(Debug, thiserror::Error)]
pub enum SeriesError {
    #[error(transparent)]
    Bots(#[from] BotsError),
    #[error("no usable bot in {folder}:\n{reasons}")]
    NoUsableBots { folder: PathBuf, reasons: String },
    #[error(transparent)]
    Schedule(#[from] ScheduleError),
    #[error(transparent)]
    Sandbox(#[from] SandboxError),
    #[error(
        "a bot is named {0} or alike (the same after case folding and Unicode confusables); choose another name with --name"
    )]
    NameTaken(String),
    #[error("the game cannot be prepared: {0}")]
    Game(String),
    #[error(
        "--against {name}: no bot of that name in {folder} and no such built-in; there are: {known}"
    )]
    UnknownOpponent {
        name: String,
        folder: PathBuf,
        known: String,
    },
    #[error("interrupted while preparing the bots; no game was played")]
    InterruptedBeforeGames,
    #[error("template folder: {0}")]
    Templates(String),
    /// The host's disk ran out while the games were played: the series stopped cleanly.
    #[error("stopped: the disk is full ({0})")]
    DiskFull(String),
    #[error("cannot write {path}: {error}")]
    Write {
        path: PathBuf,
        error: std::io::Error,
    },
    #[error("{}", crate::names::cannot_read(path, error))]
    Read {
        path: PathBuf,
        error: std::io::Error,
    },
    #[error("{path}: {reason}")]
    Games { path: PathBuf, reason: String },
    #[error("{path} is not valid: {reason}")]
    Manifest { path: PathBuf, reason: String },
    #[error("{0} is not a series folder")]
    NotASeries(PathBuf),
    #[error("another take6 is playing the series in {0}")]
    Busy(PathBuf),
    /// A continued run (a resumed series, a league's next run) refused before it plays.
    #[error(transparent)]
    Refused(#[from] continued::Refusal),
    #[error(
        "nothing to resume: the series in {shown} is complete ({played} played); see its \
         results with take6 leaderboard {shown}, or start a new series with take6 run",
        shown = dir.display(),
        played = crate::names::count(*games, "game"),
    )]
    NothingToResume { dir: PathBuf, games: u64 },
    /// The game a league's or a compare's record names cannot be had (a game folder's judge
    /// is run only from `--game`).
    #[error("the {what}'s game: {why}")]
    RecordedGame {
        what: &'static str,
        why: crate::games::GameError,
    },
    #[error("cannot merge: {0}")]
    MergeRefused(String),
    #[error("cannot compare: {0}")]
    CompareRefused(String),
}

/// How a series ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Status {
    Running,
    Complete,
    /// Stopped early (Ctrl-C); the finished games are all recorded.
    Interrupted,
    /// Stopped by the controller's own error (e.g. a full disk); resumable.
    Failed,
    NoUsableBot,
}

/// What a series produced.
#[derive(Debug, Clone)]
pub struct SeriesOutcome {
    pub dir: SeriesDir,
    pub status: Status,
    pub standings: Vec<Standing>,
    pub skipped: Vec<Skipped>,
    pub games_planned: u64,
    /// Games recorded, over every attempt.
    pub games_played: u64,
    /// The master seed, to run the same series again.
    pub seed: crate::seed::Seed,
}
