//! The games, one folder each, and the one registry that maps a name (or a game folder's
//! path) to a [`Game`](crate::game::Game): the only `match` on a game in the crate.
//!
//! Everything that knows a game's rules lives in its own folder: [`take6`] (its rules, wire,
//! table, built-ins, person at the keyboard, checker, replay and viewer) and [`kingdomino`]
//! (the same for it). Each implements [`Game`](crate::game::Game) in its `mod.rs`. A new game is a new folder
//! plus one line in `built_in` (see docs/development.md, "Adding a game").

pub mod botzone;
pub mod kingdomino;
pub mod take6;

use std::path::Path;
use std::sync::{Arc, LazyLock, Mutex};

use serde::{Deserialize, Deserializer};

use crate::game::GameRef;
pub use crate::game::JudgePermit;
use crate::record::{GameName, GameRecord};

/// The game of every record and setting that names none (all older series).
pub const DEFAULT: &str = GameName::DEFAULT;

/// The games built into take6, by name.
fn built_in() -> &'static [GameRef] {
    static GAMES: LazyLock<Vec<GameRef>> = LazyLock::new(|| {
        vec![
            GameRef(Arc::new(take6::Take6)),
            GameRef(Arc::new(kingdomino::Kingdomino)),
        ]
    });
    &GAMES
}

/// Games loaded from a folder in this process, found again by name when their records are
/// read.
static LOADED: Mutex<Vec<GameRef>> = Mutex::new(Vec::new());

/// A game that cannot be had.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum GameError {
    #[error(
        "no game called '{name}': the games are {known}; give one of them to --game (or game \
         = \"…\" in take6.toml), or the path of a game folder holding a game.toml"
    )]
    Unknown { name: String, known: String },
    #[error("cannot load the game in {path}: {why}")]
    Load { path: String, why: String },
}

/// The game `--game` names: a built-in game's name, or the path of a game folder (one with a
/// `game.toml`), which is loaded.
pub fn find(name_or_path: &str) -> Result<GameRef, GameError> {
    let path = Path::new(name_or_path);
    if name_or_path.contains('/') || path.join("game.toml").is_file() {
        // A folder loaded earlier in this process is the same game (its judge built once).
        let folder = std::path::absolute(path)
            .ok()
            .map(|p| p.display().to_string());
        if let Some(game) = LOADED
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
            .iter()
            .find(|g| Some(g.spec()) == folder)
        {
            return Ok(game.clone());
        }
        let game = load(path)?;
        let mut loaded = LOADED
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        loaded.retain(|g| g.name() != game.name());
        loaded.push(game.clone());
        return Ok(game);
    }
    by_name(name_or_path)
}

/// What a check says when it may not run a game folder's judge (verify without `--game`).
pub const JUDGE_NOT_RUN: &str = crate::game::JUDGE_NOT_RUN;

impl JudgePermit {
    /// The permit of `verify`, `leaderboard` and `merge`: the judge of `game` (`--game`, a
    /// game folder's path or a built-in's name) and no other.
    pub fn from_keyboard(game: Option<&str>) -> Result<JudgePermit, GameError> {
        Ok(JudgePermit::given(game.map(find).transpose()?))
    }

    /// Whether a game folder's judge was given to run (`--game PATH`): its checks re-run it.
    pub fn runs_a_judge(&self) -> bool {
        self.given_game()
            .is_some_and(|game| !built_in().contains(game))
    }
}

/// The game a series' `series.toml` names by `spec`, whose code had `hash` (if recorded): a
/// built-in game by name; a game folder from the path recorded, unless `permit` is for a game
/// folder given at the keyboard with `--game` (then that one, refused if its code differs):
/// a results folder chooses no code.
pub fn recorded(
    spec: &str,
    hash: Option<&str>,
    permit: &JudgePermit,
) -> Result<GameRef, GameError> {
    let given = permit.given_game();
    if let Some(game) = given.filter(|_| built_in().iter().all(|g| g.name() != spec)) {
        let now = game.content_hash().map_err(|why| GameError::Load {
            path: game.spec(),
            why,
        })?;
        if let (Some(recorded), Some(now)) = (hash, now.as_deref())
            && recorded != now
        {
            return Err(GameError::Load {
                path: game.spec(),
                why: format!(
                    "its judge and game.toml (SHA-256 {now}) are not the code this series \
                     played ({recorded}, in its series.toml); give the game folder it played"
                ),
            });
        }
        return Ok(game.clone());
    }
    find(spec)
}

/// Loads the game in a folder: a judge speaking Botzone's protocol and its game.toml.
fn load(path: &Path) -> Result<GameRef, GameError> {
    botzone::load(path)
}

/// The game called `name`: built in, or loaded from a folder earlier in this process (a
/// record names its game; its series' settings say where it was loaded from).
pub fn by_name(name: &str) -> Result<GameRef, GameError> {
    if let Some(g) = built_in().iter().find(|g| g.name() == name) {
        return Ok(g.clone());
    }
    let loaded = LOADED
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner);
    loaded
        .iter()
        .find(|g| g.name() == name)
        .cloned()
        .ok_or_else(|| GameError::Unknown {
            name: name.to_string(),
            known: known().join(", "),
        })
}

/// The names of the games built in, the default first.
pub fn known() -> Vec<String> {
    built_in().iter().map(|g| g.name().to_string()).collect()
}

/// The game of records and settings that name none.
pub fn default_game() -> GameRef {
    built_in()[0].clone()
}

impl GameRef {
    /// The game every record and setting that names none plays (`take6`: older records).
    pub fn default_game() -> GameRef {
        default_game()
    }

    /// Whether this is the default game (records and settings leave the game out then).
    pub fn is_default(&self) -> bool {
        self.name() == DEFAULT
    }
}

impl GameRef {
    /// The game's name as its records hold it ([`GameRecord::rules`]).
    pub fn record_name(&self) -> GameName {
        GameName::new(self.name())
    }
}

/// A record's game, found by the name it holds. Here, above the records, because a record
/// only names its game; where a series' game is at hand, the machinery uses that one (and
/// refuses a record of another game).
impl GameRecord {
    /// The game this record is of, found by its name in the registry: an error names a game
    /// this take6 does not know.
    pub fn game_ref(&self) -> Result<GameRef, GameError> {
        by_name(self.rules.as_str())
    }

    /// Checks this record with its game's independent checker
    /// ([`crate::game::Game::check`]): the first inconsistency with the rules, if any. A
    /// record chooses no code: a game folder's judge does not run for it (its check says so).
    pub fn check(&self) -> Result<(), crate::game::Flaw> {
        self.game_ref()
            .map_err(|e| crate::game::Flaw(e.to_string()))?
            .check(self, &JudgePermit::none())
    }
}

impl Default for GameRef {
    fn default() -> Self {
        GameRef::default_game()
    }
}

impl<'de> Deserialize<'de> for GameRef {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let name = std::borrow::Cow::<'de, str>::deserialize(d)?;
        by_name(&name).map_err(serde::de::Error::custom)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_registry_finds_each_game_by_name_and_says_what_there_is() {
        for name in known() {
            let game = find(&name).unwrap();
            assert_eq!(game.name(), name);
            assert_eq!(by_name(&name).unwrap(), game);
            // Written and read back by name, as records and settings hold it.
            let json = serde_json::to_string(&game).unwrap();
            assert_eq!(serde_json::from_str::<GameRef>(&json).unwrap(), game);
            let seats = game.seats();
            assert!(seats.fewest <= seats.default && seats.default <= seats.most);
            // Built-ins are numbered by their place in the list.
            for (i, b) in game.builtins().iter().enumerate() {
                assert_eq!(usize::from(b.index), i);
                assert_eq!(game.builtin(b.name), Some(*b));
            }
            // A substitute is one of the game's own built-ins.
            if let crate::table::OnFault::Substitute(kind) = game.on_fault() {
                assert_eq!(game.builtin(kind.name), Some(kind));
            }
        }
        assert_eq!(known()[0], DEFAULT);
        assert!(GameRef::default().is_default());
        let err = find("chess").unwrap_err().to_string();
        assert!(err.contains("take6, kingdomino"), "{err}");
        assert!(serde_json::from_str::<GameRef>("\"chess\"").is_err());
    }

    #[test]
    fn a_permit_for_one_game_folder_runs_no_other_folders_judge() {
        let games = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/games");
        let (duel, draw) = (games.join("duel"), games.join("draw"));
        let permit = JudgePermit::from_keyboard(Some(duel.to_str().unwrap())).unwrap();
        let duel_game = find(duel.to_str().unwrap()).unwrap();
        let draw_game = find(draw.to_str().unwrap()).unwrap();
        assert_eq!(permit.may_run_judge(&duel_game.spec()), Ok(()));
        let refused = permit.may_run_judge(&draw_game.spec()).unwrap_err();
        assert!(refused.contains("--game PATH"), "{refused}");
        // A series' records naming the other folder get the given one, checked by hash.
        let played = recorded(&draw_game.spec(), None, &permit).unwrap();
        assert_eq!(played.spec(), duel_game.spec());
        let wrong = recorded(&draw_game.spec(), Some("0000"), &permit).unwrap_err();
        assert!(
            wrong
                .to_string()
                .contains("not the code this series played"),
            "{wrong}"
        );
        // No folder given: no folder's judge; a series runs the judge of what it plays.
        let none = JudgePermit::from_keyboard(None).unwrap();
        assert!(none.may_run_judge(&duel_game.spec()).is_err());
        assert!(
            JudgePermit::none()
                .may_run_judge(&duel_game.spec())
                .is_err()
        );
        assert_eq!(
            JudgePermit::series().may_run_judge(&draw_game.spec()),
            Ok(())
        );
        // Built-ins run no folder's code: a permit leaves them as they are.
        assert_eq!(recorded("take6", None, &permit).unwrap().name(), "take6");
    }

    #[test]
    fn take6s_builtins_are_its_strategies_in_padding_order() {
        let names: Vec<&str> = take6::builtin::Strategy::ALL
            .iter()
            .map(|s| s.name())
            .collect();
        let kinds: Vec<&str> = take6::builtin::BUILTINS.iter().map(|b| b.name).collect();
        assert_eq!(names, kinds);
        for kind in take6::builtin::BUILTINS {
            assert_eq!(take6::builtin::Strategy::of(kind).name(), kind.name);
        }
        // `gap` takes a faulted seat over.
        assert_eq!(
            take6::builtin::Strategy::of(take6::builtin::SUBSTITUTE),
            take6::builtin::Strategy::Gap
        );
    }
}
