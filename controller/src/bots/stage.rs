//! Staging a bot: its folder listed and checked (scripts, settings, size), copied into the
//! series' `work` folder and given the scripts take6 writes for recognised source; and what
//! makes a `launch` unable to start.

use std::fs;
use std::io;
use std::path::{Path, PathBuf};

use super::manifest::{Manifest, TemplateChoice};
use super::{BotsError, FOR_ANOTHER_GAME, GameNames, Unusable, generate};
use crate::bots::generate::{Generated, Toolchains};
use crate::folder::{self, Kind};

/// The series' `logs` (build logs) and `work` (working copies) folders, made. Bots run with
/// their working copy as current directory, so `work` is absolute.
pub(super) fn logs_and_work(series_dir: &Path) -> Result<(PathBuf, PathBuf), BotsError> {
    let logs = series_dir.join("logs");
    let work = std::path::absolute(series_dir.join("work")).map_err(|error| BotsError::Write {
        path: series_dir.join("work"),
        error,
    })?;
    // The series folder is made (or named) by path; `logs` and `work` beneath it by its
    // descriptor: a league or results folder whose `work` is a link to a host folder is
    // refused, never written through.
    fs::create_dir_all(series_dir).map_err(|error| BotsError::Write {
        path: series_dir.to_path_buf(),
        error,
    })?;
    let series = crate::door::Folder::open(series_dir).map_err(|error| BotsError::Write {
        path: series_dir.to_path_buf(),
        error,
    })?;
    let make = |dir: &PathBuf| {
        let name = Path::new(dir.file_name().expect("logs and work have names"));
        series.make_folder(name).map_err(|error| BotsError::Write {
            path: dir.clone(),
            error,
        })
    };
    make(&logs)?;
    let work_folder = make(&work)?;
    // The disk images' folder (`work/.images`), where images are made and removed by path: a
    // folder or nothing, never a link.
    let image = crate::sandbox::image_of(&work.join("_"));
    if let Some(images) = image.parent().and_then(Path::file_name) {
        let path = work.join(images);
        match work_folder.kind_of(Path::new(images)) {
            Ok(None | Some("a folder")) => {}
            Ok(Some(other)) => {
                return Err(BotsError::Write {
                    path,
                    error: io::Error::new(
                        io::ErrorKind::InvalidData,
                        format!(
                            "{other}, not a folder: take6 follows no link in a results or \
                             league folder"
                        ),
                    ),
                });
            }
            Err(error) => return Err(BotsError::Write { path, error }),
        }
    }
    Ok((logs, work))
}

/// Removes the working copy `workdir` and any disk image of it, by descriptors and following
/// no link the bot left in it, whatever its depth.
///
/// Both are reached from the series (or league) folder's descriptor: its `work` being a link
/// is refused, and nothing outside it is removed.
pub fn wipe(workdir: &Path) -> io::Result<()> {
    let (work, name) = match crate::door::work_of(workdir) {
        Err(e) if e.kind() == io::ErrorKind::NotFound => return Ok(()),
        other => other?,
    };
    crate::sandbox::deep::remove_tree(&work, &name)?;
    let image = crate::sandbox::image_of(workdir);
    let Ok(image) = image.strip_prefix(work.path()) else {
        return Ok(());
    };
    match work.remove(image) {
        Err(e) if e.kind() != io::ErrorKind::NotFound => Err(e),
        _ => Ok(()),
    }
}

/// What [`stage`] made of a folder: its hash, its `bot.toml`, the template set it speaks,
/// whether it has a build to run, the scripts take6 wrote, and its own files' size (its
/// working copy's disk image counts from it).
pub(super) struct Staged {
    pub hash: String,
    pub manifest: Manifest,
    pub template: TemplateChoice,
    pub has_build: bool,
    pub generated: Option<Generated>,
    pub footprint: u64,
}

/// The file work of preparing a bot: lists the folder (refusing special files and folders too
/// large), reads its `bot.toml`, checks its scripts and settings, hashes it and copies it to
/// `workdir`, where it writes `build` and `launch` for a folder with recognised source and
/// neither script (the folder itself is only read).
pub(super) fn stage(
    folder: &Path,
    workdir: &Path,
    max_data: u64,
    tools: &Toolchains,
    games: &GameNames,
) -> Result<Staged, Unusable> {
    let listing = folder::scan(folder, max_data).map_err(|e| Unusable(e.to_string()))?;
    // A bot for another game is skipped before anything is copied or built for it.
    let manifest = Manifest::staged(folder, &listing, &games.known)?;
    plays_this_game(&manifest, &games.playing)?;
    let generated = match (listing.kind_of("launch"), listing.kind_of("build")) {
        (Some(kind), _) => {
            script(kind, "launch")?;
            None
        }
        // The author's own build is never paired with a launch of take6's guessing.
        (None, Some(_)) => {
            return Err(Unusable(
                "no launch script (add an executable file named 'launch'); the folder has a \
                 build script, so take6 writes none for it"
                    .into(),
            ));
        }
        (None, None) => Some(
            generate::recognise(folder, &listing, tools).map_err(|e| Unusable(e.to_string()))?,
        ),
    };
    let has_build = match listing.kind_of("build") {
        None => generated.as_ref().is_some_and(|g| g.build.is_some()),
        Some(kind) => {
            script(kind, "build")?;
            true
        }
    };
    let template = manifest.template_choice(folder, &listing)?;
    // A copy left there (a league's storage of an earlier version) goes, its links unfollowed.
    wipe(workdir).map_err(|e| Unusable(format!("cannot clear {}: {e}", workdir.display())))?;
    // The hash of the bytes copied, read once: what is recorded is what plays.
    let hash = listing
        .copy_to(workdir)
        .map_err(|e| Unusable(e.to_string()))?;
    if let Some(g) = &generated {
        g.write(workdir)
            .map_err(|e| Unusable(format!("cannot write the generated scripts: {e}")))?;
    }
    Ok(Staged {
        hash,
        manifest,
        template,
        has_build,
        generated,
        footprint: listing.footprint(),
    })
}

/// A bot whose `bot.toml` names other games than `game` is skipped, saying how to play it.
fn plays_this_game(manifest: &Manifest, game: &str) -> Result<(), Unusable> {
    let Some(games) = manifest.games.as_ref().filter(|_| !manifest.plays(game)) else {
        return Ok(());
    };
    // The names come from the bot's bot.toml: shown through the terminal's door.
    let names: Vec<String> = games
        .iter()
        .map(|n| crate::untrusted::terminal(n))
        .collect();
    Err(Unusable(format!(
        "{FOR_ANOTHER_GAME}it plays {} (bot.toml: games = {names:?}), and this series plays \
         {game}; run it \
         with --game {}, or add \"{game}\" to its games",
        names.join(" and "),
        names.first().map_or("GAME", String::as_str),
    )))
}

/// Why the executable file `launch` could not start, found by reading its first line: no `#!`
/// line in a file that is not a program (exec format error), Windows line endings (the
/// interpreter's name would end in a carriage return), or an interpreter that does not exist,
/// or that the sandbox (`sandboxed`) does not show: it sees the system folders and the bot's
/// own folder (`/bot`), never home folders, where `which python3` often points (pyenv).
pub fn launch_problem(launch: &Path, sandboxed: bool) -> Option<String> {
    // Through the door: the build may have left `launch` a FIFO (an open would wait for a
    // writer forever), a link to /dev/zero or to a host file; each is refused with the reason.
    let (workdir, name) = (launch.parent()?, Path::new(launch.file_name()?));
    let head = match crate::door::working_copy(workdir).and_then(|f| f.head(name, 512)) {
        Ok(head) => head,
        Err(e) => {
            return Some(format!(
                "launch cannot be started: {} (make it an executable regular file)",
                crate::untrusted::terminal(&e.to_string())
            ));
        }
    };
    if head.starts_with(b"\x7fELF") {
        return None;
    }
    if !head.starts_with(b"#!") {
        return Some(
            "launch has no '#!' first line and is not a compiled program, so it cannot be \
             started (exec format error): make its first line e.g. #!/bin/sh or \
             #!/usr/bin/env python3"
                .into(),
        );
    }
    let line = head[2..].split(|&b| b == b'\n').next().unwrap_or_default();
    let line = String::from_utf8_lossy(line);
    if line.ends_with('\r') {
        return Some(
            "launch has Windows line endings (CRLF): its interpreter's name would end in a \
             carriage return and not be found; convert it with sed -i 's/\\r$//' launch (or \
             dos2unix)"
                .into(),
        );
    }
    let mut words = line.split_whitespace();
    let interpreter = words.next()?;
    let on_host = match interpreter.strip_prefix("/bot/") {
        Some(own) if sandboxed => workdir.join(own),
        _ => PathBuf::from(interpreter),
    };
    let visible = |path: &str| {
        path.starts_with("/bot/")
            || crate::sandbox::bwrap::SYSTEM_DIRS
                .iter()
                .any(|dir| Path::new(path).starts_with(dir))
    };
    if sandboxed && !visible(interpreter) {
        return Some(format!(
            "the interpreter {interpreter} of launch's '#!' line is not inside the sandbox, which \
             sees only {} and the bot's own folder at /bot (home folders are hidden): use a \
             system one, e.g. #!/usr/bin/env python3",
            crate::sandbox::bwrap::SYSTEM_DIRS.join(", ")
        ));
    }
    if !on_host.exists() {
        return Some(format!(
            "the interpreter {interpreter} of launch's '#!' line does not exist"
        ));
    }
    // `#!/usr/bin/env NAME`: NAME is looked up in the bot's PATH.
    if sandboxed
        && interpreter.ends_with("/env")
        && let Some(name) = words.next().filter(|w| !w.starts_with('-'))
    {
        let path = crate::sandbox::bwrap::ENV[0].1;
        if !name.contains('/')
            && !path
                .split(':')
                .any(|dir| Path::new(dir).join(name).exists())
        {
            return Some(format!(
                "launch's '#!' line runs {name} through env, and the sandbox's PATH ({path}) \
                 has no {name}: install it system-wide or name its full path"
            ));
        }
    }
    None
}

/// Checks that the script `name` (`launch` or `build`) is an executable regular file.
fn script(kind: &Kind, name: &str) -> Result<(), Unusable> {
    match kind {
        Kind::File { mode, .. } if mode & 0o111 != 0 => Ok(()),
        Kind::File { .. } => Err(Unusable(format!(
            "'{name}' is not an executable file (chmod +x {name})"
        ))),
        Kind::Symlink { .. } => Err(Unusable(format!(
            "'{name}' is a symlink; make it a regular file (links in a bot folder are copied, \
             never followed)"
        ))),
        Kind::Dir { .. } => Err(Unusable(format!(
            "'{name}' is a folder; it must be an executable file"
        ))),
    }
}
