//! `take6.toml`: the keys it may hold, read once; each overrides its default and is overridden
//! by its flag.

use std::path::{Path, PathBuf};

use serde::Deserialize;

use super::ConfigError;
use crate::sandbox::{Clock, Mode};
use crate::schedule::ScheduleKind;

/// The keys `take6.toml` may hold; all optional.
#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct FileConfig {
    pub(super) game: Option<String>,
    pub(super) bots: Option<PathBuf>,
    pub(super) results: Option<PathBuf>,
    pub(super) games: Option<u64>,
    pub(super) players: Option<usize>,
    pub(super) schedule: Option<ScheduleKind>,
    pub(super) duplicate: Option<bool>,
    pub(super) rounds: Option<u32>,
    pub(super) until_separated: Option<bool>,
    pub(super) top: Option<usize>,
    pub(super) seed: Option<crate::seed::Seed>,
    pub(super) jobs: Option<usize>,
    pub(super) first_reply_ms: Option<u64>,
    pub(super) reply_ms: Option<u64>,
    pub(super) build_timeout_s: Option<u64>,
    pub(super) grace_ms: Option<u64>,
    pub(super) bench_after: Option<u64>,
    pub(super) memory_mib: Option<u64>,
    pub(super) sandbox: Option<Mode>,
    pub(super) max_procs: Option<u64>,
    pub(super) disk_mib: Option<u64>,
    pub(super) max_files: Option<u64>,
    pub(super) clock: Option<Clock>,
    pub(super) wall_factor: Option<u32>,
    pub(super) warm_sandboxes: Option<bool>,
    pub(super) pin_tables: Option<bool>,
    pub(super) max_bot_mib: Option<u64>,
    pub(super) templates: Option<PathBuf>,
    pub(super) stderr_cap_kib: Option<usize>,
    pub(super) line_cap_bytes: Option<usize>,
    pub(super) builtins_only: Option<bool>,
    pub(super) record: Option<crate::record::Level>,
    pub(super) allow_skips: Option<bool>,
    /// `[limits.<game>]`: reply limits of one game (see [`super::game_limits`]).
    pub(super) limits: Option<super::game_limits::LimitsTables>,
}

/// The keys of the settings file at `path`.
pub(super) fn read_file(path: &Path) -> Result<FileConfig, ConfigError> {
    let text = std::fs::read_to_string(path).map_err(|error| ConfigError::Read {
        path: path.to_path_buf(),
        error,
    })?;
    toml::from_str(&text).map_err(|e| ConfigError::Parse {
        path: path.to_path_buf(),
        message: super::file_errors::explain(&text, &e, &words_of),
    })
}

/// The words a key that takes one may have (`sandbox`: auto, strict, none), as serde lists
/// them when given none of them; none for other keys.
fn words_of(key: &str) -> Vec<String> {
    let probe = format!("{key} = \"\"\n");
    match toml::from_str::<FileConfig>(&probe) {
        Err(e) => super::file_errors::unknown_variant(e.message())
            .map(|(_, words)| words)
            .unwrap_or_default(),
        Ok(_) => Vec::new(),
    }
}
