//! A Botzone game's folder: `game.toml`, its judge and its padding bots.
//!
//! ```toml
//! name = "tictactoe"        # required: the game's name in records, take6.toml, bot.toml
//! players = 2               # required: the seats of every table
//! title = "Tic-tac-toe"     # optional, for people
//! initdata = ""             # optional: the judge's first initdata (any value), default ""
//! padding = ["random"]      # optional: bot folders in this folder, in padding order
//!
//! [limits]                  # optional: a bot's limits, on the CPU clock (default: Botzone's
//! first_turn_ms = 2000      #   per language: C/C++ 1000, Java 3000 / 2000 kept running,
//! turn_ms = 1000            #   Python 6000 / 4000, JavaScript 2000; each game's first
//! kept_running_ms = 1000    #   turn twice the language's)
//! memory_mb = 256
//! keep_running = true       #   whether bots may ask to be kept running (their input stays
//!                           #   open after each request; false: closed, as Botzone does)
//!
//! [scores]                  # optional: take6 ranks whole scores of at least 0; a judge
//! offset = 1                #   whose scores are not (FightTheLandlord: -1, 2.145) has them
//! scale = 1000              #   mapped: (score + offset) * scale (the record keeps both)
//!
//! [judge]                   # optional: the judge's own limits, per call
//! time_ms = 5000
//! memory_mb = 1024
//! keep_running = false      # whether the judge may keep running between calls
//! ```
//!
//! The judge is an executable file `judge` in the folder, or the folder's source (one
//! language's, built as a bot's source is: see [`crate::bots::generate`]).

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use serde::Deserialize;

use crate::bots::generate::Language;

/// The most players a table seats (the machinery's ratings hold ten).
const MOST_PLAYERS: usize = 10;

/// The largest `game.toml` read.
const GAME_TOML_CAP: u64 = 64 * 1024;

/// A `game.toml`, as written.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
struct GameToml {
    name: String,
    players: usize,
    title: Option<String>,
    initdata: Option<toml::Value>,
    padding: Option<Vec<String>>,
    #[serde(default)]
    limits: LimitsToml,
    #[serde(default)]
    judge: JudgeToml,
    #[serde(default)]
    scores: ScoresToml,
    simpleio: Option<super::simpleio::SimpleIo>,
}

#[derive(Debug, Clone, Default, Deserialize)]
#[serde(deny_unknown_fields)]
struct ScoresToml {
    offset: Option<f64>,
    scale: Option<f64>,
}

#[derive(Debug, Clone, Default, Deserialize)]
#[serde(deny_unknown_fields)]
struct LimitsToml {
    first_turn_ms: Option<u64>,
    turn_ms: Option<u64>,
    kept_running_ms: Option<u64>,
    memory_mb: Option<u64>,
    keep_running: Option<bool>,
}

#[derive(Debug, Clone, Default, Deserialize)]
#[serde(deny_unknown_fields)]
struct JudgeToml {
    time_ms: Option<u64>,
    memory_mb: Option<u64>,
    keep_running: Option<bool>,
}

/// A bot's limits in a Botzone game, in ms of CPU time and MB.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct BotLimits {
    /// A turn that starts the bot, the first of its game.
    pub first_turn_ms: u64,
    /// A later turn that starts the bot afresh.
    pub turn_ms: u64,
    /// A turn of a bot kept running since its last.
    pub kept_running_ms: u64,
    pub memory_mb: u64,
    /// Whether a bot may ask to be kept running (the game allows it, `[limits] keep_running`,
    /// and the bot enabled it, `bot.toml` `keep_running = true`): its input then stays open
    /// after each request; otherwise it is closed after the request, as Botzone does for a
    /// bot that did not enable keep-running (a bot that reads its input to the end then sees
    /// the end), and a bot that asks all the same has faulted, saying why.
    pub keep_running: bool,
}

impl BotLimits {
    /// Botzone's limits for a bot written in `language`, as its wiki's page "Bot" gives them
    /// (资源和时间限制): 1 s of CPU a run times the language's factor (C and C++, and a
    /// `launch` of unknown language, 1; JavaScript 2; Java 3; Python 6); **the first turn of
    /// each game twice that**; a turn of a bot kept running since its last, its upload page's
    /// limit (botzone-local's compiler.py `sub_time_limit`: Java 2 s, Python 4 s, else as a
    /// run); 256 MB.
    pub fn botzone(language: Option<Language>) -> BotLimits {
        let (run, kept) = match language {
            Some(Language::Java) => (3000, 2000),
            Some(Language::Python) => (6000, 4000),
            Some(Language::JavaScript | Language::TypeScript) => (2000, 2000),
            _ => (1000, 1000),
        };
        BotLimits {
            first_turn_ms: 2 * run,
            turn_ms: run,
            kept_running_ms: kept,
            memory_mb: 256,
            keep_running: true,
        }
    }
}

/// The judge's limits per call.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct JudgeLimits {
    pub time_ms: u64,
    pub memory_mb: u64,
    pub keep_running: bool,
}

/// A Botzone game folder, read and checked.
#[derive(Debug, Clone)]
pub struct Manifest {
    /// The folder, absolute.
    pub folder: PathBuf,
    pub name: String,
    pub title: String,
    pub players: usize,
    /// The judge's `initdata` on its first call.
    pub initdata: serde_json::Value,
    /// The padding bots' folders, in padding order, by name.
    pub padding: Vec<(String, PathBuf)>,
    /// Limits `game.toml` sets for every bot (each field: `None` for the language's default).
    limits: LimitsToml,
    pub judge: JudgeLimits,
    /// How the judge's scores become take6's (whole numbers of at least 0): `(score + offset)
    /// * scale` (`[scores]`; default offset 0, scale 1).
    pub score_map: (f64, f64),
    /// The game's own viewer script for report.html (`viewer.js`), if the folder has one.
    pub viewer: Option<PathBuf>,
    /// Botzone's simple interaction for bots that choose it (`[simpleio]`), if the game has it.
    pub simpleio: Option<std::sync::Arc<super::simpleio::SimpleIo>>,
}

/// The game folder cannot be used: the path, and what is wrong with the fix.
#[derive(Debug, thiserror::Error)]
#[error("game folder {folder}: {problem}")]
pub struct ManifestError {
    pub folder: PathBuf,
    pub problem: String,
}

/// `game.toml`'s name, its number of players and each limit it sets, each within its bounds.
fn check_numbers(toml: &GameToml) -> Result<(), String> {
    if let Some(problem) = crate::names::name_problem(&toml.name) {
        return Err(format!(
            "game.toml: name = {:?}: {problem}; use one word such as \"tictactoe\"",
            toml.name
        ));
    }
    if !(1..=MOST_PLAYERS).contains(&toml.players) {
        return Err(format!(
            "game.toml: players = {}: a table seats 1 to {} players; set players to the \
             judge's number of players",
            toml.players, MOST_PLAYERS
        ));
    }
    for (key, value) in [
        ("limits.first_turn_ms", toml.limits.first_turn_ms),
        ("limits.turn_ms", toml.limits.turn_ms),
        ("limits.kept_running_ms", toml.limits.kept_running_ms),
        ("limits.memory_mb", toml.limits.memory_mb),
        ("judge.time_ms", toml.judge.time_ms),
        ("judge.memory_mb", toml.judge.memory_mb),
    ] {
        if let Some(v) = value
            && !(1..=3_600_000).contains(&v)
        {
            return Err(format!(
                "game.toml: {key} = {v}: must be 1 to 3600000; leave it out for the default"
            ));
        }
    }
    Ok(())
}

impl Manifest {
    /// Reads the game folder `folder`: its `game.toml`, the padding bots it names, whether
    /// there is a judge.
    pub fn load(folder: &Path) -> Result<Manifest, ManifestError> {
        let error = |problem: String| ManifestError {
            folder: folder.to_path_buf(),
            problem,
        };
        if !folder.is_dir() {
            return Err(error(
                "does not exist or is not a folder; a game folder holds game.toml and its judge"
                    .into(),
            ));
        }
        if crate::door::Folder::open(folder)
            .and_then(|f| f.kind_of(Path::new("game.toml")))
            .ok()
            .flatten()
            .is_none()
        {
            return Err(error(
                "has no game.toml; write one with at least name = \"mygame\" and players = 2"
                    .into(),
            ));
        }
        let text = crate::folder::read_text(folder, Path::new("game.toml"), GAME_TOML_CAP)
            .map_err(|e| error(format!("game.toml: {e}")))?;
        let toml: GameToml = toml::from_str(&text).map_err(|e| {
            error(format!(
                "game.toml: {}\n(keys: name, players, title, initdata, padding, \
                 [limits] first_turn_ms turn_ms kept_running_ms memory_mb keep_running, \
                 [judge] time_ms memory_mb keep_running, [scores] offset scale, \
                 [simpleio] request_from_json response_to_json response_from_json)",
                crate::bots::toml_problem(&text, &e)
            ))
        })?;
        Manifest::check(folder, toml).map_err(error)
    }

    fn check(folder: &Path, toml: GameToml) -> Result<Manifest, String> {
        let folder = std::path::absolute(folder).map_err(|e| e.to_string())?;
        check_numbers(&toml)?;
        let judge_file = folder.join("judge");
        if !judge_file.exists() && !crate::bots::generate::has_source(&folder) {
            return Err(
                "no judge: put an executable file named 'judge' in the folder, or the judge's \
                 source (one language's, e.g. judge.py or judge.cpp)"
                    .into(),
            );
        }
        let padding = padding_of(&folder, toml.padding)?;
        let initdata = match toml.initdata {
            Some(v) => serde_json::to_value(v).map_err(|e| format!("game.toml: initdata: {e}"))?,
            None => serde_json::Value::String(String::new()),
        };
        let viewer_file = folder.join("viewer.js");
        if is_link(&viewer_file) {
            return Err(format!(
                "viewer.js is a symbolic link; links out of a game folder are refused, as a \
                 judge's is: copy the script into {}",
                folder.display()
            ));
        }
        let viewer = Some(viewer_file).filter(|p| p.is_file());
        let score_map = (
            toml.scores.offset.unwrap_or(0.0),
            toml.scores.scale.unwrap_or(1.0),
        );
        if !(score_map.0.is_finite() && score_map.1.is_finite() && score_map.1 > 0.0) {
            return Err(
                "game.toml: [scores] offset must be a number and scale a number above 0".into(),
            );
        }
        if let Some(io) = &toml.simpleio {
            io.check().map_err(|e| {
                format!(
                    "game.toml: {e}; each of [simpleio]'s keys is a JavaScript function's body \
                     (as Botzone's games.py has them)"
                )
            })?;
        }
        Ok(Manifest {
            simpleio: toml.simpleio.map(std::sync::Arc::new),
            name: toml.name.clone(),
            title: toml.title.unwrap_or(toml.name),
            players: toml.players,
            initdata,
            padding,
            limits: toml.limits,
            judge: JudgeLimits {
                time_ms: toml.judge.time_ms.unwrap_or(5000),
                memory_mb: toml.judge.memory_mb.unwrap_or(1024),
                keep_running: toml.judge.keep_running.unwrap_or(false),
            },
            viewer,
            score_map,
            folder,
        })
    }

    /// The limits of a bot written in `language` (when take6 recognised its source): what
    /// `game.toml` sets, else Botzone's default for the language.
    pub fn bot_limits(&self, language: Option<Language>) -> BotLimits {
        let default = BotLimits::botzone(language);
        BotLimits {
            first_turn_ms: self.limits.first_turn_ms.unwrap_or(default.first_turn_ms),
            turn_ms: self.limits.turn_ms.unwrap_or(default.turn_ms),
            kept_running_ms: self
                .limits
                .kept_running_ms
                .unwrap_or(default.kept_running_ms),
            memory_mb: self.limits.memory_mb.unwrap_or(default.memory_mb),
            keep_running: self.limits.keep_running.unwrap_or(default.keep_running),
        }
    }

    /// Whether `game.toml` sets any of a bot's time limits (they then apply to every bot).
    pub fn sets_limits(&self) -> bool {
        let l = &self.limits;
        l.first_turn_ms.is_some() || l.turn_ms.is_some() || l.kept_running_ms.is_some()
    }
}

/// Whether `path` is a symbolic link (never followed out of a game folder).
fn is_link(path: &Path) -> bool {
    std::fs::symlink_metadata(path).is_ok_and(|m| m.file_type().is_symlink())
}

/// The padding bots `game.toml` names (each a bot folder in the game folder, no link), or
/// every bot folder in the game folder when it names none.
fn padding_of(folder: &Path, names: Option<Vec<String>>) -> Result<Vec<(String, PathBuf)>, String> {
    Ok(match names {
        Some(names) => names
            .into_iter()
            .map(|name| {
                let dir = folder.join(&name);
                if is_link(&dir) {
                    return Err(format!(
                        "game.toml: padding names {name:?}, which is a symbolic link; links \
                         out of a game folder are refused, as a judge's is: copy the bot \
                         folder into {}",
                        folder.display()
                    ));
                }
                if name.contains('/') || !crate::bots::is_bot_folder(&dir) {
                    return Err(format!(
                        "game.toml: padding names {name:?}, which is not a bot folder in \
                         the game folder; make {} a bot folder (launch, or source) or take \
                         it out of padding",
                        dir.display()
                    ));
                }
                Ok((name, dir))
            })
            .collect::<Result<Vec<_>, _>>()?,
        None => padding_folders(folder),
    })
}

/// The bot folders directly inside the game folder, by name.
fn padding_folders(folder: &Path) -> Vec<(String, PathBuf)> {
    let mut found: BTreeMap<String, PathBuf> = BTreeMap::new();
    if let Ok(entries) = std::fs::read_dir(folder) {
        for entry in entries.flatten() {
            let path = entry.path();
            let name = entry.file_name().to_string_lossy().into_owned();
            // A link is never padding: it would lead out of the game folder.
            let folder = entry.file_type().is_ok_and(|t| t.is_dir());
            if folder && !name.starts_with('.') && crate::bots::is_bot_folder(&path) {
                found.insert(name, path);
            }
        }
    }
    found.into_iter().collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn folder(toml: &str, judge: bool) -> tempfile::TempDir {
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(dir.path().join("game.toml"), toml).unwrap();
        if judge {
            std::fs::write(dir.path().join("judge.py"), "print(1)\n").unwrap();
        }
        dir
    }

    fn problem(toml: &str, judge: bool) -> String {
        let dir = folder(toml, judge);
        Manifest::load(dir.path()).unwrap_err().to_string()
    }

    #[test]
    fn the_two_required_keys_and_defaults() {
        let dir = folder("name = \"ttt\"\nplayers = 2\n", true);
        let m = Manifest::load(dir.path()).unwrap();
        assert_eq!(
            (m.name.as_str(), m.title.as_str(), m.players),
            ("ttt", "ttt", 2)
        );
        assert_eq!(m.initdata, serde_json::json!(""));
        assert_eq!(m.bot_limits(None).first_turn_ms, 2000);
        assert_eq!(m.bot_limits(None).turn_ms, 1000);
        assert_eq!(
            m.bot_limits(Some(Language::Python)),
            BotLimits {
                first_turn_ms: 12000,
                turn_ms: 6000,
                kept_running_ms: 4000,
                memory_mb: 256,
                keep_running: true,
            }
        );
        assert_eq!(m.bot_limits(Some(Language::Java)).kept_running_ms, 2000);
        assert_eq!(m.bot_limits(Some(Language::JavaScript)).turn_ms, 2000);
        assert!(!m.judge.keep_running);
        assert!(m.padding.is_empty());
    }

    #[test]
    fn errors_name_the_key_and_the_fix() {
        let p = problem("players = 2\n", true);
        assert!(p.contains("missing field `name`"), "{p}");
        let p = problem("name = \"x\"\nplayers = 0\n", true);
        assert!(
            p.contains("players = 0") && p.contains("set players"),
            "{p}"
        );
        let p = problem("name = \"x\"\nplayers = 2\nplayer = 3\n", true);
        assert!(
            p.contains("unknown field `player`") && p.contains("line 3"),
            "{p}"
        );
        let p = problem("name = \"x\"\nplayers = 2\n[limits]\nturn_ms = 0\n", true);
        assert!(p.contains("limits.turn_ms = 0"), "{p}");
        let p = problem("name = \"x\"\nplayers = 2\n", false);
        assert!(p.contains("no judge") && p.contains("'judge'"), "{p}");
        let p = problem("name = \"x\"\nplayers = 2\npadding = [\"nope\"]\n", true);
        assert!(
            p.contains("\"nope\"") && p.contains("not a bot folder"),
            "{p}"
        );
        let p = problem("name = \"two words\"\nplayers = 2\n", true);
        assert!(p.contains("name = \"two words\""), "{p}");
    }

    #[test]
    fn limits_and_padding_from_the_file() {
        let dir = folder(
            "name = \"g\"\nplayers = 3\ninitdata = { seed = 5 }\n[limits]\nturn_ms = 300\n\
             [judge]\nkeep_running = true\ntime_ms = 100\n",
            true,
        );
        for name in ["b", "a"] {
            let bot = dir.path().join(name);
            std::fs::create_dir(&bot).unwrap();
            std::fs::write(bot.join("bot.py"), "").unwrap();
        }
        let m = Manifest::load(dir.path()).unwrap();
        assert_eq!(m.initdata, serde_json::json!({"seed": 5}));
        assert_eq!(m.bot_limits(Some(Language::Python)).turn_ms, 300);
        assert_eq!(m.bot_limits(Some(Language::Python)).first_turn_ms, 12000);
        assert!(m.judge.keep_running && m.judge.time_ms == 100);
        let names: Vec<&str> = m.padding.iter().map(|(n, _)| n.as_str()).collect();
        assert_eq!(names, ["a", "b"]);
    }
}
