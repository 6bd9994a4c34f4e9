//! How much of each game `games.jsonl` keeps (`--record`).

use serde::{Deserialize, Serialize};

/// How much of each game a line of `games.jsonl` holds.
///
/// A full line (~6.5 KB at ten players) holds every card and turn: at a hundred thousand games a
/// second that is more bytes and serialization than the games themselves cost. A series of
/// built-ins only is a pure function of its seed, so its lines may be summaries: the seats,
/// faults and scores, checked by `take6 verify` against a replay of the built-ins.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize, clap::ValueEnum)]
#[serde(rename_all = "lowercase")]
pub enum Level {
    /// Every card and turn of every game.
    #[default]
    Full,
    /// Seats, faults and scores only (with `--builtins-only`).
    Summary,
}

impl Level {
    /// Whether this is the default, so the setting is left out of `series.toml` and older
    /// series resume unchanged.
    pub fn is_full(&self) -> bool {
        *self == Level::Full
    }
}
