//! Finding the bot folders of a bots folder: which entries may be bots (folders, links that
//! stay inside it), how many may play a game, and which are left out by design.

use std::fs;
use std::io;
use std::path::{Path, PathBuf};

use super::manifest::{BOT_TOML, Manifest};
use super::{NOT_A_BOT, Skipped, Unusable, generate};
use crate::names::name_problem;

/// A folder of the bots folder: where it is named, and the folder it resolves to (its
/// recorded source) or why it is not used.
pub type Found = (PathBuf, Result<PathBuf, Unusable>);

/// Marks the skipped folders of a git repository that hold no bot at all (a `docs/` beside the
/// bots: no `launch`, no `build`, no `bot.toml`, no source take6 knows) as left out by design.
pub fn left_out_of_repository(bots: &Path, skipped: &mut [Skipped]) {
    for s in skipped.iter_mut() {
        let folder = bots.join(&s.name);
        let holds = |f: &str| fs::symlink_metadata(folder.join(f)).is_ok();
        let is_dir = fs::symlink_metadata(&folder).is_ok_and(|m| m.is_dir());
        if is_dir
            && s.reason.starts_with(generate::NO_SOURCE)
            && !["launch", "build", BOT_TOML].iter().any(|f| holds(f))
        {
            s.reason = format!(
                "{NOT_A_BOT}no launch, build or bot.toml, and no source of a language take6 \
                 builds"
            );
        }
    }
}

/// The bot folders of `bots_dir`, sorted: `bots_dir` itself when it is one bot's folder
/// (`--bots mybots/mybot`, which then plays the built-ins), else its subfolders whose names do
/// not begin with a dot.
///
/// Each comes with the folder it resolves to (its recorded source), or the reason it is
/// skipped: a link that leads out of the bots folder (`inside`).
pub fn folders(bots_dir: &Path) -> io::Result<Vec<Found>> {
    if is_bot_folder(bots_dir) {
        let own = own_folder(bots_dir);
        let resolved = own.canonicalize().unwrap_or_else(|_| own.clone());
        return Ok(vec![(own, Ok(resolved))]);
    }
    let root = bots_dir.canonicalize()?;
    let mut folders: Vec<Found> = fs::read_dir(bots_dir)?
        .collect::<Result<Vec<_>, _>>()?
        .into_iter()
        .map(|e| e.path())
        .filter(|p| !file_name(p).starts_with('.'))
        .filter_map(|p| inside(&root, p))
        .collect();
    folders.sort_by(|a, b| a.0.cmp(&b.0));
    Ok(folders)
}

/// How many bots of `bots_dir` may play `game` at most, read before anything is copied or
/// built: its folders that look like bots (a `launch`, a `build` or source take6 knows) less
/// those whose `bot.toml` names other games. A series whose settings cannot seat that many is
/// refused at once, not after the builds.
pub fn entrants_at_most(bots_dir: &Path, game: &str) -> usize {
    let Ok(folders) = folders(bots_dir) else {
        return 0;
    };
    // Names refused for themselves or for looking like another take no seat either.
    let alike = lookalikes(&folders);
    folders
        .iter()
        .filter(|(_, source)| source.is_ok())
        .map(|(folder, _)| folder)
        .filter(|folder| is_bot_folder(folder))
        .filter(|folder| {
            let name = file_name(folder);
            name_problem(&name).is_none() && !alike.contains_key(&name)
        })
        .filter(|folder| Manifest::peek(folder).is_none_or(|m| m.plays(game)))
        .count()
}

/// Whether the `bot.toml` of the bot folder `folder` says which games the bot plays (its
/// `games` key); an absent, unreadable or invalid one does not.
pub fn names_its_games(folder: &Path) -> bool {
    Manifest::peek(folder).is_some_and(|m| m.games.is_some())
}

/// The folders' names that look alike (case folding, Unicode confusables), each with the
/// reason it is refused: all of them, since any could otherwise pass for another on every
/// screen, CSV and page. Names refused for themselves ([`name_problem`]) are left out.
pub(super) fn lookalikes<S>(
    folders: &[(PathBuf, S)],
) -> std::collections::BTreeMap<String, String> {
    let names: Vec<String> = folders.iter().map(|(f, _)| file_name(f)).collect();
    crate::names::lookalikes(
        names
            .iter()
            .filter(|n| name_problem(n).is_none())
            .map(String::as_str),
    )
    .into_iter()
    .map(|(name, others)| (name.to_string(), crate::names::lookalike_problem(&others)))
    .collect()
}

/// An entry `path` of the bots folder (whose resolved path is `root`) that may be a bot, with
/// the folder it resolves to (recorded as its source): a folder, or a symlink (through any
/// number of links, absolute or relative) to a folder inside the bots folder; a symlink that leads anywhere else
/// (`stolen -> /root`, `up -> ../../..`, the bots folder itself) with the reason it is skipped.
/// Nothing else (files, links to files, dangling links) is a bot. Nothing in the bots folder,
/// a repository's checkout or a host's own folder alike, is followed out of it: a folder
/// unpacked from a stranger's archive may hold such a link.
fn inside(root: &Path, path: PathBuf) -> Option<Found> {
    let meta = fs::symlink_metadata(&path).ok()?;
    if meta.is_dir() {
        // Where it is, whatever links lead to the bots folder.
        let resolved = path.canonicalize().unwrap_or_else(|_| path.clone());
        return Some((path, Ok(resolved)));
    }
    if !meta.is_symlink() {
        return None;
    }
    let resolved = path.canonicalize().ok().filter(|t| t.is_dir())?;
    if resolved.starts_with(root) && resolved != root {
        return Some((path, Ok(resolved)));
    }
    let text = fs::read_link(&path).unwrap_or_default();
    let reason = format!(
        "it is a symlink ({}) to {}, outside the bots folder {}; a bot must be a folder in it, \
         and links out of it are never followed (copy the folder in instead)",
        crate::untrusted::terminal(&text.to_string_lossy()),
        crate::untrusted::terminal(&resolved.to_string_lossy()),
        crate::untrusted::terminal(&root.to_string_lossy())
    );
    Some((path, Err(Unusable(reason))))
}

/// Whether `dir` is one bot's own folder rather than a folder of bots: it holds a `launch` or
/// a `build` (whatever their kind: a bad one is skipped with its reason), or source take6
/// writes scripts for while no subfolder holds a `launch`. `--bots` and `take6 check` take
/// such a folder as a series of that one bot.
pub fn is_bot_folder(dir: &Path) -> bool {
    let has = |d: &Path, name: &str| fs::symlink_metadata(d.join(name)).is_ok();
    if has(dir, "launch") || has(dir, "build") {
        return true;
    }
    generate::has_source(dir)
        && !fs::read_dir(dir).is_ok_and(|entries| {
            entries
                .flatten()
                .any(|e| e.path().is_dir() && has(&e.path(), "launch"))
        })
}

/// A bot folder named by itself, as a path whose last part is the bot's name: `.` or `..`
/// become the folder they stand for (the path is made absolute, links are not followed
/// unless the name can be had no other way).
pub fn own_folder(dir: &Path) -> PathBuf {
    std::path::absolute(dir)
        .ok()
        .filter(|p| p.file_name().is_some())
        .or_else(|| dir.canonicalize().ok())
        .unwrap_or_else(|| dir.to_path_buf())
}

/// Where the folder of the bot `name` is: `bots` itself when it is one bot's folder, else its
/// subfolder `name` (for the lines that name a skipped bot's folder).
pub fn folder_of(bots: &Path, name: &str) -> PathBuf {
    if is_bot_folder(bots) {
        bots.to_path_buf()
    } else {
        bots.join(name)
    }
}

pub(super) fn file_name(path: &Path) -> String {
    path.file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default()
}
