//! `take6 new NAME --lang LANG [--game kingdomino]`: a bot folder to start from, in
//! one of seven languages, for either game. Each starter reads the whole protocol, plays a
//! legal move (Take 6: its lowest card, the row with the fewest cows; Kingdomino: the first
//! legal place for its tile, the lowest free tile, the fillers on the first and last turns),
//! flushes after each reply and passes `take6 check` (tested for every language whose
//! toolchain the bots can run). The folder holds source only: take6 writes its `build` and
//! `launch` (docs/bots.md, Source folders without launch), and `take6 check` shows them.

use std::fs;
use std::path::{Path, PathBuf};

/// The languages a starter is written in.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum Lang {
    Python,
    C,
    Cpp,
    Java,
    Js,
    Rust,
    Go,
}

impl Lang {
    /// The language's name on the command line, as games know their starters by.
    pub fn name(self) -> &'static str {
        match self {
            Lang::Python => "python",
            Lang::C => "c",
            Lang::Cpp => "cpp",
            Lang::Java => "java",
            Lang::Js => "js",
            Lang::Rust => "rust",
            Lang::Go => "go",
        }
    }

    /// The language's name for people.
    pub fn title(self) -> &'static str {
        match self {
            Lang::Python => "Python",
            Lang::C => "C",
            Lang::Cpp => "C++",
            Lang::Java => "Java",
            Lang::Js => "JavaScript",
            Lang::Rust => "Rust",
            Lang::Go => "Go",
        }
    }
}

/// Flags of `take6 new`.
#[derive(Debug, Clone, clap::Args)]
pub struct NewArgs {
    /// The bot's name: its folder's name under --bots
    #[arg(value_name = "NAME")]
    pub name: String,
    /// The language: python, c, cpp, java, js, rust or go
    #[arg(long, value_name = "LANG")]
    pub lang: Lang,
    /// The game it plays: take6 or kingdomino (a game with starters) [default: take6]
    #[arg(long, value_name = "GAME")]
    pub game: Option<String>,
    /// The folder of bot folders it is written into [default: bots, for another game than
    /// Take 6 bots-GAME: bots-kingdomino]
    #[arg(long, value_name = "DIR")]
    pub bots: Option<PathBuf>,
}

/// The starter cannot be written.
#[derive(Debug, thiserror::Error)]
pub enum StarterError {
    #[error("{0}")]
    Game(String),
    #[error("{game} has no {lang} starter; take6 new --help lists the languages")]
    NoStarter { game: String, lang: &'static str },
    #[error("NAME {name:?} cannot be a bot's name: {why}")]
    Name { name: String, why: String },
    #[error("{0} already exists; choose another name, or remove it first")]
    Exists(PathBuf),
    #[error("cannot write {path}: {error}")]
    Write {
        path: PathBuf,
        error: std::io::Error,
    },
}

/// What `take6 new` wrote: the folder, its files and the game the bot plays.
pub type Written = (PathBuf, Vec<PathBuf>, crate::game::GameRef);

/// Writes the starter `args` asks for; returns the folder, the files written and the game.
pub fn write(args: &NewArgs) -> Result<Written, StarterError> {
    if let Some(why) = crate::names::name_problem(&args.name) {
        return Err(StarterError::Name {
            name: args.name.clone(),
            why,
        });
    }
    let game = match &args.game {
        Some(name) => crate::games::find(name).map_err(|e| StarterError::Game(e.to_string()))?,
        None => crate::games::default_game(),
    };
    let Some((file, text)) = game.starter(args.lang.name()) else {
        return Err(StarterError::NoStarter {
            game: game.title().to_string(),
            lang: args.lang.title(),
        });
    };
    // A game's bots live apart from Take 6's (`bots-kingdomino/`, as the README runs them), so
    // that neither game's series lists the other's bots as left out.
    let bots = match &args.bots {
        Some(bots) => bots.clone(),
        None if game.is_default() => PathBuf::from("bots"),
        None => PathBuf::from(format!("bots-{}", game.name())),
    };
    let folder = bots.join(&args.name);
    if fs::symlink_metadata(&folder).is_ok() {
        return Err(StarterError::Exists(folder));
    }
    let write_err = |path: &Path| {
        let path = path.to_path_buf();
        move |error| StarterError::Write { path, error }
    };
    fs::create_dir_all(&folder).map_err(write_err(&folder))?;
    // Every starter says which game it plays, so a series of another game leaves it out by
    // design (and `take6 check` says to add --game) instead of seating it where it can only
    // fault: a Take 6 bot at a Kingdomino table waits for lines that never come.
    let files = [
        (folder.join(file), text.replace("NAME", &args.name)),
        (
            folder.join("bot.toml"),
            format!(
                "# The games this bot plays: a series of another game leaves it out.\n\
                 games = [\"{}\"]\n",
                game.name()
            ),
        ),
    ];
    for (path, text) in &files {
        fs::write(path, text).map_err(write_err(path))?;
    }
    Ok((folder, files.into_iter().map(|(p, _)| p).collect(), game))
}
