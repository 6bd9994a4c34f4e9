//! Reply limits belong to a game: `take6.toml` may hold one table per game,
//! `[limits.kingdomino]` or `[limits.take6]`, whose `first_reply_ms` and `reply_ms` apply to
//! that game only. A flag wins over them, they win over the file's top-level keys (which apply
//! to every game), and those over the game's own defaults. `run` and `check` print the limits
//! in force and where each came from.

use std::collections::BTreeMap;

use serde::Deserialize;

use crate::game::GameRef;

/// One game's table of limits in `take6.toml`.
#[derive(Debug, Default, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct GameLimits {
    pub first_reply_ms: Option<u64>,
    pub reply_ms: Option<u64>,
}

/// The `[limits.<game>]` tables of a settings file, by game name.
pub type LimitsTables = BTreeMap<String, GameLimits>;

/// A `[limits.GAME]` table of a settings file that names no game this take6 knows.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("[limits.{table}] names no game; the games are {}", games.join(", "))]
pub struct UnknownTable {
    pub table: String,
    /// The games a table may name.
    pub games: Vec<String>,
}

/// `game`'s table of `tables`, after checking that every table names a game: one built in,
/// or `game` itself (a game loaded from its folder is known by its `game.toml` name).
pub fn for_game(tables: Option<&LimitsTables>, game: &GameRef) -> Result<GameLimits, UnknownTable> {
    let Some(tables) = tables else {
        return Ok(GameLimits::default());
    };
    let mut names = crate::games::known();
    if !names.iter().any(|n| n == game.name()) {
        names.push(game.name().to_string());
    }
    if let Some(unknown) = tables.keys().find(|k| !names.contains(k)) {
        return Err(UnknownTable {
            table: unknown.clone(),
            games: names,
        });
    }
    Ok(tables.get(game.name()).cloned().unwrap_or_default())
}

/// Where a limit's value came from, as the limits line says it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Source {
    Flag(&'static str),
    GameTable,
    TopLevel(&'static str),
    Default,
    /// A resumed series' own, from its `series.toml`.
    Recorded,
}

/// Where the value of one limit comes from: its flag, then the game's table, then the
/// file's top-level key, then the game's default.
pub fn source(
    flag: Option<u64>,
    table: Option<u64>,
    top: Option<u64>,
    names: (&'static str, &'static str),
) -> Source {
    match (flag, table, top) {
        (Some(_), _, _) => Source::Flag(names.0),
        (None, Some(_), _) => Source::GameTable,
        (None, None, Some(_)) => Source::TopLevel(names.1),
        (None, None, None) => Source::Default,
    }
}

/// The line `run` and `check` print: the reply limits in force, their clock, and where each
/// came from, e.g. `limits: first reply 1000 ms, later replies 50 ms of CPU time (Kingdomino's
/// defaults)`.
pub fn line(
    game: &GameRef,
    (first_ms, later_ms): (u64, u64),
    clock: crate::sandbox::Clock,
    sources: [Source; 2],
    config: Option<&std::path::Path>,
) -> String {
    let file = config.map_or_else(
        || "the settings file".to_string(),
        |p| p.display().to_string(),
    );
    let said = |s: Source| match s {
        Source::Flag(flag) => flag.to_string(),
        Source::GameTable => format!("{file} [limits.{}]", game.name()),
        Source::TopLevel(key) => format!("{file} {key} (every game's)"),
        Source::Default => format!("{}'s default", game.title()),
        Source::Recorded => "as the series recorded them in its series.toml".to_string(),
    };
    if sources == [Source::Default; 2]
        && let Some(note) = game.limits_note()
    {
        return format!("limits: {note}, of {clock} time");
    }
    let from = if sources[0] == sources[1] {
        match sources[0] {
            Source::Default => format!("{}'s defaults", game.title()),
            Source::TopLevel(_) => format!("{file}, top-level keys that apply to every game"),
            s => said(s),
        }
    } else {
        format!(
            "first reply: {}; later: {}",
            said(sources[0]),
            said(sources[1])
        )
    };
    format!(
        "limits: first reply {first_ms} ms, later replies {later_ms} ms of {clock} time ({from})"
    )
}
