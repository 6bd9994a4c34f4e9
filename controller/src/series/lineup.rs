//! Who plays: the bots with the words each speaks on the wire, `take6 play --against`'s
//! choice, and the line that says what is about to be played.

use std::sync::Arc;

use crate::bots::{self, Bot, Skipped};
use crate::config::Settings;
use crate::game::Wires;
use crate::schedule::Schedule;
use crate::table::BuiltinKind;
use crate::table::Wire;

use super::SeriesError;
use super::dir::SeriesDir;

/// A bot that plays, with its words on the wire as its game made them (`None` in a game
/// whose wire is its own).
pub(crate) type Entrant = (Bot, Option<Wire>);

/// The bots that play, each with the words it speaks, and the everyone-but-built-ins names in
/// schedule order.
pub(crate) struct Lineup {
    pub(crate) bots: Vec<Entrant>,
    pub(crate) names: Vec<String>,
    pub(crate) skipped: Vec<Skipped>,
    /// Set (under `--until-separated`) once the answer is known: start no more games.
    pub(crate) enough: Arc<std::sync::atomic::AtomicBool>,
    /// Who faulted in game after game, to sit out the rest (see [`super::bench`]).
    pub(crate) bench: Arc<super::bench::Bench>,
}

impl Lineup {
    /// The lineup of `bots` (with their wires), `names` in schedule order and the folders
    /// `skipped`, before any game.
    pub fn of(bots: Vec<Entrant>, names: Vec<String>, skipped: Vec<Skipped>) -> Lineup {
        Lineup {
            bots,
            names,
            skipped,
            enough: Arc::default(),
            bench: Arc::default(),
        }
    }
}

/// `take6 play --against NAME…`: keeps only the named bots (the others are left out without
/// a word) and returns the named built-ins, which then sit at the table instead of padding.
/// A name that is neither is an error listing what there is.
pub(super) fn choose(
    against: &[String],
    game: &crate::game::GameRef,
    bots: &mut Vec<Entrant>,
    skipped: &mut Vec<Skipped>,
    folder: &std::path::Path,
) -> Result<Option<Vec<BuiltinKind>>, SeriesError> {
    let mut strategies = Vec::new();
    for name in against {
        if bots.iter().any(|(b, _)| &b.name == name) {
            continue;
        }
        match game.builtin(name) {
            Some(s) => strategies.push(s),
            None => {
                let mut known: Vec<String> = bots.iter().map(|(b, _)| b.name.clone()).collect();
                known.extend(
                    game.builtins()
                        .iter()
                        .map(|s| format!("{} ({})", s.name, game.builtin_label())),
                );
                return Err(SeriesError::UnknownOpponent {
                    name: name.clone(),
                    folder: folder.to_path_buf(),
                    known: known.join(", "),
                });
            }
        }
    }
    let (kept, left): (Vec<_>, Vec<_>) = std::mem::take(bots)
        .into_iter()
        .partition(|(b, _)| against.contains(&b.name));
    *bots = kept;
    // The bots not chosen were not asked to play: nothing to say about them, nor
    // about the bots of another game.
    drop(left);
    skipped.retain(|s| !s.is_left_out());
    Ok(Some(strategies))
}

/// Pairs each bot with the words it speaks as its game makes them from its choice
/// ([`crate::game::Game::wires`]; a template set compiled and trial-rendered: CPU work); a
/// bot whose wire cannot be had is moved to `skipped` with the reason. Without `wires` (a game
/// whose wire is its own) every bot plays, with no wire.
pub(crate) fn with_wires(
    wires: Option<&dyn Wires>,
    found: Vec<Bot>,
    skipped: &mut Vec<Skipped>,
) -> Vec<Entrant> {
    let mut bots = Vec::new();
    for bot in found {
        match wires.map(|w| w.wire(&bot.template)).transpose() {
            Ok(wire) => bots.push((bot, wire)),
            Err(reason) => skipped.push(Skipped {
                name: bot.name.clone(),
                reason,
            }),
        }
    }
    bots
}

/// The line that says what is about to be played, e.g. `3 bots + 7 built-ins, 100 games, seed 1,
/// results in results/…`, with how many are already recorded when resuming.
pub(super) fn start_line(
    schedule: &Schedule,
    entrants: usize,
    recorded: u64,
    settings: &Settings,
    dir: &SeriesDir,
) -> String {
    if settings.builtins_only {
        let label = settings.game.builtin_label();
        return format!(
            "{} only, {} game{}, seed {}, results in {}",
            crate::names::count(schedule.builtins().len() as u64, label),
            schedule.total_games(),
            if schedule.total_games() == 1 { "" } else { "s" },
            settings.seed,
            dir.path.display()
        );
    }
    let bots = entrants - usize::from(settings.human.is_some());
    // `--bots mybots/mybot`: one bot's own folder, said as such.
    let who = match (bots, bots::is_bot_folder(&settings.bots)) {
        (1, true) => format!(
            "the bot folder {} (one bot against {}s)",
            settings.bots.display(),
            settings.game.builtin_label()
        ),
        _ => format!("{bots} bot{}", if bots == 1 { "" } else { "s" }),
    };
    // Bots from a git repository: which commit is played.
    let who = match &settings.bots_repository {
        Some(r) => format!(
            "{who} ({}, commit {})",
            crate::repo::shown(r),
            &r.commit[..r.commit.len().min(12)]
        ),
        None => who,
    };
    let human = match &settings.human {
        Some(name) => format!(" + {name}"),
        None => String::new(),
    };
    let padding = match schedule.builtins().len() {
        0 => String::new(),
        n => format!(
            " + {}",
            crate::names::count(n as u64, settings.game.builtin_label())
        ),
    };
    let subsets = match schedule.describe(&schedule.balance()) {
        d if d.is_empty() => String::new(),
        d => format!(" ({d})"),
    };
    let resumed = match recorded {
        0 => String::new(),
        n => format!(" ({n} already recorded)"),
    };
    let shard = match settings.shard {
        Some(s) => format!(
            ", shard {s} plays {} of them",
            s.games_of(schedule.total_games())
        ),
        None => String::new(),
    };
    format!(
        "{who}{human}{padding}, {} game{}{subsets}{shard}{resumed}, seed {}, results in {}",
        schedule.total_games(),
        if schedule.total_games() == 1 { "" } else { "s" },
        settings.seed,
        dir.path.display()
    )
}
