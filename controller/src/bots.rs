//! Finding bot folders, making each bot's working copy, building it, and saying why a folder is
//! skipped. Knows nothing about rules or scheduling.
//!
//! A bot is a subfolder of the bots folder with an executable `launch`; its name is the folder's
//! name. Each series runs every bot from a fresh copy under `<series>/work/<name>/`, so what a
//! bot writes there persists across its games of one series and nothing is ever written to the
//! bots folder itself.

use std::fmt::Write as _;
use std::fs;
use std::io;
use std::os::unix::fs::PermissionsExt;
use std::path::{Path, PathBuf};
use std::process::Stdio;
use std::sync::Arc;
use std::time::Duration;

use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};
use tokio::sync::Semaphore;

use crate::sandbox::Sandbox;

/// The optional per-bot settings file.
pub const BOT_TOML: &str = "bot.toml";
/// A bot's own template set, used when its `bot.toml` names none.
pub const BOT_TEMPLATE: &str = "template.toml";

/// Which message templates a bot speaks.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum TemplateChoice {
    /// A set from the template folder or built in, by name.
    Set(String),
    /// The bot's own `template.toml`, in its folder (where its author would fix an error).
    File(PathBuf),
}

/// A usable bot, copied and built.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Bot {
    pub name: String,
    /// The folder it was found in.
    pub source: PathBuf,
    /// Its working copy for this series.
    pub workdir: PathBuf,
    /// SHA-256 of the folder's contents (relative paths, executable bits, bytes), so a result
    /// can be tied to the exact bot that produced it.
    pub hash: String,
    pub template: TemplateChoice,
}

/// A folder that is not a usable bot, and why.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Skipped {
    pub name: String,
    pub reason: String,
}

/// The bots folder itself cannot be used.
#[derive(Debug, thiserror::Error)]
pub enum BotsError {
    #[error(
        "bots folder {0} does not exist; create it with one subfolder per bot, or pass --bots DIR"
    )]
    Missing(PathBuf),
    #[error("cannot read bots folder {path}: {error}")]
    Read { path: PathBuf, error: io::Error },
    #[error("cannot create {path}: {error}")]
    Write { path: PathBuf, error: io::Error },
}

/// `bot.toml`: per-bot settings.
#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
struct BotToml {
    /// The template set the bot speaks, e.g. `codingame`.
    template: Option<String>,
}

/// Finds the bots in `bots_dir`, copies each to `<series_dir>/work/<name>` and runs its `build`
/// there (up to `jobs` builds at once) through the launcher `sandbox`. Returns the usable bots
/// sorted by name and the skipped folders with their reasons.
pub async fn prepare(
    bots_dir: &Path,
    series_dir: &Path,
    build_timeout: Duration,
    jobs: usize,
    sandbox: &Arc<Sandbox>,
) -> Result<(Vec<Bot>, Vec<Skipped>), BotsError> {
    if !bots_dir.is_dir() {
        return Err(BotsError::Missing(bots_dir.to_path_buf()));
    }
    let read_err = |error| BotsError::Read {
        path: bots_dir.to_path_buf(),
        error,
    };
    let mut folders: Vec<PathBuf> = fs::read_dir(bots_dir)
        .map_err(read_err)?
        .collect::<Result<Vec<_>, _>>()
        .map_err(read_err)?
        .into_iter()
        .map(|e| e.path())
        .filter(|p| p.is_dir() && !file_name(p).starts_with('.'))
        .collect();
    folders.sort();

    let logs = series_dir.join("logs");
    // Bots run with their working copy as current directory, so it must not be relative.
    let work = std::path::absolute(series_dir.join("work")).map_err(|error| BotsError::Write {
        path: series_dir.join("work"),
        error,
    })?;
    for dir in [&logs, &work] {
        fs::create_dir_all(dir).map_err(|error| BotsError::Write {
            path: dir.clone(),
            error,
        })?;
    }

    let builds = Arc::new(Semaphore::new(jobs.max(1)));
    let mut tasks = tokio::task::JoinSet::new();
    for (i, folder) in folders.into_iter().enumerate() {
        let (work, logs, builds) = (work.clone(), logs.clone(), Arc::clone(&builds));
        let sandbox = Arc::clone(sandbox);
        tasks.spawn(async move {
            let name = file_name(&folder);
            let outcome =
                prepare_one(&folder, &work, &logs, build_timeout, &builds, &sandbox).await;
            (i, outcome.map_err(|reason| Skipped { name, reason }))
        });
    }
    let mut outcomes = Vec::new();
    while let Some(joined) = tasks.join_next().await {
        outcomes.push(joined.expect("bot preparation does not panic"));
    }
    outcomes.sort_by_key(|(i, _)| *i);
    let mut bots = Vec::new();
    let mut skipped = Vec::new();
    for (_, outcome) in outcomes {
        match outcome {
            Ok(bot) => bots.push(bot),
            Err(s) => skipped.push(s),
        }
    }
    Ok((bots, skipped))
}

fn file_name(path: &Path) -> String {
    path.file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default()
}

fn is_executable(path: &Path) -> bool {
    fs::metadata(path).is_ok_and(|m| m.is_file() && m.permissions().mode() & 0o111 != 0)
}

/// Checks, copies and builds one folder; the error is the reason it is skipped.
async fn prepare_one(
    folder: &Path,
    work: &Path,
    logs: &Path,
    build_timeout: Duration,
    builds: &Semaphore,
    sandbox: &Sandbox,
) -> Result<Bot, String> {
    let name = file_name(folder);
    if name.chars().any(char::is_whitespace) || name.contains('#') {
        return Err("the folder name has whitespace or '#'; rename the folder".into());
    }
    let launch = folder.join("launch");
    if !launch.exists() {
        return Err("no launch script (add an executable file named 'launch')".into());
    }
    if !is_executable(&launch) {
        return Err("'launch' is not an executable file (chmod +x launch)".into());
    }
    let build = folder.join("build");
    if build.exists() && !is_executable(&build) {
        return Err("'build' is not an executable file (chmod +x build)".into());
    }
    let template = template_choice(folder)?;
    let hash = content_hash(folder).map_err(|e| format!("cannot read the folder: {e}"))?;

    let workdir = work.join(&name);
    if workdir.exists() {
        fs::remove_dir_all(&workdir)
            .map_err(|e| format!("cannot clear {}: {e}", workdir.display()))?;
    }
    copy_tree(folder, &workdir)
        .map_err(|e| format!("cannot copy to {}: {e}", workdir.display()))?;
    sandbox
        .prepare_workdir(&workdir)
        .map_err(|e| format!("cannot hand {} to the sandbox: {e}", workdir.display()))?;

    if build.exists() {
        let _slot = builds.acquire().await.expect("never closed");
        let log = logs.join(format!("{name}.build.log"));
        run_build(sandbox, &workdir, &log, build_timeout)
            .await
            .map_err(|why| format!("{why} (see {})", log.display()))?;
    }
    Ok(Bot {
        name,
        source: folder.to_path_buf(),
        workdir,
        hash,
        template,
    })
}

fn template_choice(folder: &Path) -> Result<TemplateChoice, String> {
    let toml_path = folder.join(BOT_TOML);
    let settings: BotToml = if toml_path.exists() {
        let text =
            fs::read_to_string(&toml_path).map_err(|e| format!("cannot read bot.toml: {e}"))?;
        toml::from_str(&text).map_err(|e| {
            format!(
                "bot.toml is not valid ({}); the only key is template = \"<set name>\"",
                e.to_string().trim()
            )
        })?
    } else {
        BotToml::default()
    };
    let own = folder.join(BOT_TEMPLATE);
    match (settings.template, own.exists()) {
        (Some(set), true) => Err(format!(
            "bot.toml names template set '{set}' but the folder also has its own template.toml; keep one"
        )),
        (Some(set), false) => Ok(TemplateChoice::Set(set)),
        (None, true) => Ok(TemplateChoice::File(own)),
        (None, false) => Ok(TemplateChoice::Set("default".into())),
    }
}

/// Runs `./build` in `workdir` through the launcher (the same sandbox and limits as a game),
/// stdout and stderr to `log`, killing its whole tree if it outlives `limit`.
async fn run_build(
    sandbox: &Sandbox,
    workdir: &Path,
    log: &Path,
    limit: Duration,
) -> Result<(), String> {
    let out = fs::File::create(log).map_err(|e| format!("cannot create build log: {e}"))?;
    let err = out
        .try_clone()
        .map_err(|e| format!("cannot create build log: {e}"))?;
    // Whatever the build leaves running goes when the tree is dropped, even if the series is
    // abandoned.
    let (mut child, tree) = sandbox
        .spawn("build", workdir, [Stdio::null(), out.into(), err.into()])
        .map_err(|e| format!("build could not start: {e}"))?;
    let status = tokio::time::timeout(limit, child.wait()).await;
    // A limit the build ran into explains its failure.
    let breach = || match tree.breach() {
        Some(breach) => format!(" ({breach})"),
        None => String::new(),
    };
    match status {
        Err(_) => Err(format!("build timed out after {} s", limit.as_secs())),
        Ok(Err(e)) => Err(format!("build could not be waited for: {e}")),
        Ok(Ok(status)) if status.success() => Ok(()),
        Ok(Ok(status)) => Err(match status.code() {
            Some(code) => format!("build exited with status {code}{}", breach()),
            None => format!("build ended by {status}{}", breach()),
        }),
    }
}

/// SHA-256 over every file below `dir`: its relative path, whether it is executable, and its
/// bytes, in path order.
pub fn content_hash(dir: &Path) -> io::Result<String> {
    let mut files = Vec::new();
    list_files(dir, Path::new(""), &mut files)?;
    files.sort();
    let mut hasher = Sha256::new();
    for rel in files {
        let path = dir.join(&rel);
        let meta = fs::symlink_metadata(&path)?;
        hasher.update(rel.to_string_lossy().as_bytes());
        hasher.update([0, u8::from(meta.permissions().mode() & 0o111 != 0)]);
        if meta.file_type().is_symlink() {
            hasher.update(fs::read_link(&path)?.to_string_lossy().as_bytes());
        } else {
            hasher.update(fs::read(&path)?);
        }
        hasher.update([0]);
    }
    let mut hex = String::with_capacity(64);
    for byte in hasher.finalize() {
        let _ = write!(hex, "{byte:02x}");
    }
    Ok(hex)
}

fn list_files(root: &Path, rel: &Path, out: &mut Vec<PathBuf>) -> io::Result<()> {
    for entry in fs::read_dir(root.join(rel))? {
        let entry = entry?;
        let rel = rel.join(entry.file_name());
        if entry.file_type()?.is_dir() {
            list_files(root, &rel, out)?;
        } else {
            out.push(rel);
        }
    }
    Ok(())
}

/// Copies `from` to `to` recursively, keeping permissions and symlinks.
fn copy_tree(from: &Path, to: &Path) -> io::Result<()> {
    fs::create_dir_all(to)?;
    fs::set_permissions(to, fs::metadata(from)?.permissions())?;
    for entry in fs::read_dir(from)? {
        let entry = entry?;
        let (src, dst) = (entry.path(), to.join(entry.file_name()));
        let kind = entry.file_type()?;
        if kind.is_dir() {
            copy_tree(&src, &dst)?;
        } else if kind.is_symlink() {
            std::os::unix::fs::symlink(fs::read_link(&src)?, &dst)?;
        } else {
            fs::copy(&src, &dst)?;
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The launcher of a default series (sandboxed where this machine allows).
    fn sandbox() -> Arc<Sandbox> {
        let s = crate::sandbox::Sandbox::new(
            crate::sandbox::Mode::Auto,
            crate::sandbox::Limits::default(),
            crate::sandbox::Clock::Cpu,
        );
        Arc::new(s.expect("auto always starts"))
    }

    fn write_exec(path: &Path, text: &str) {
        fs::write(path, text).unwrap();
        fs::set_permissions(path, fs::Permissions::from_mode(0o755)).unwrap();
    }

    #[tokio::test]
    async fn usable_bots_are_copied_and_built_and_the_rest_skipped_with_reasons() {
        let tmp = tempfile::tempdir().unwrap();
        let bots = tmp.path().join("bots");
        let series = tmp.path().join("series");
        for name in [
            "good", "nolaunch", "noexec", "badbuild", ".hidden", "bad toml",
        ] {
            fs::create_dir_all(bots.join(name)).unwrap();
        }
        write_exec(&bots.join("good/launch"), "#!/bin/sh\ncat\n");
        write_exec(
            &bots.join("good/build"),
            "#!/bin/sh\necho built > made.txt\n",
        );
        fs::write(bots.join("noexec/launch"), "#!/bin/sh\n").unwrap();
        write_exec(&bots.join("badbuild/launch"), "#!/bin/sh\n");
        write_exec(
            &bots.join("badbuild/build"),
            "#!/bin/sh\necho oops >&2\nexit 1\n",
        );
        write_exec(&bots.join(".hidden/launch"), "#!/bin/sh\n");

        let (ok, skipped) = prepare(&bots, &series, Duration::from_secs(10), 2, &sandbox())
            .await
            .unwrap();
        assert_eq!(ok.len(), 1);
        let good = &ok[0];
        assert_eq!(good.name, "good");
        assert_eq!(good.template, TemplateChoice::Set("default".into()));
        assert_eq!(
            fs::read_to_string(good.workdir.join("made.txt")).unwrap(),
            "built\n"
        );
        assert!(
            !bots.join("good/made.txt").exists(),
            "the bots folder is never written"
        );
        assert_eq!(good.hash, content_hash(&bots.join("good")).unwrap());

        let reason = |n: &str| {
            skipped
                .iter()
                .find(|s| s.name == n)
                .map(|s| s.reason.clone())
                .unwrap_or_else(|| panic!("{n} not skipped"))
        };
        assert!(reason("nolaunch").contains("no launch"));
        assert!(reason("noexec").contains("chmod +x launch"));
        assert!(reason("badbuild").contains("build exited with status 1"));
        assert!(reason("badbuild").contains("badbuild.build.log"));
        assert!(reason("bad toml").contains("rename"));
        assert_eq!(skipped.len(), 4, "hidden folders are ignored: {skipped:?}");
        let log = fs::read_to_string(series.join("logs/badbuild.build.log")).unwrap();
        assert!(log.contains("oops"));
    }

    #[tokio::test]
    async fn a_build_that_hangs_is_killed_at_its_time_limit() {
        let tmp = tempfile::tempdir().unwrap();
        let bots = tmp.path().join("bots");
        fs::create_dir_all(bots.join("slow")).unwrap();
        write_exec(&bots.join("slow/launch"), "#!/bin/sh\n");
        write_exec(&bots.join("slow/build"), "#!/bin/sh\nsleep 1000\n");
        let started = std::time::Instant::now();
        let (ok, skipped) = prepare(
            &bots,
            &tmp.path().join("s"),
            Duration::from_secs(1),
            1,
            &sandbox(),
        )
        .await
        .unwrap();
        assert!(ok.is_empty());
        assert!(
            skipped[0].reason.contains("timed out after 1 s"),
            "{skipped:?}"
        );
        assert!(started.elapsed() < Duration::from_secs(10));
    }

    #[test]
    fn bot_toml_chooses_a_set_and_rejects_unknown_keys() {
        let tmp = tempfile::tempdir().unwrap();
        fs::write(tmp.path().join(BOT_TOML), "template = \"codingame\"\n").unwrap();
        assert_eq!(
            template_choice(tmp.path()),
            Ok(TemplateChoice::Set("codingame".into()))
        );
        fs::write(tmp.path().join(BOT_TOML), "templat = \"codingame\"\n").unwrap();
        let err = template_choice(tmp.path()).unwrap_err();
        assert!(err.contains("bot.toml") && err.contains("templat"), "{err}");
        fs::remove_file(tmp.path().join(BOT_TOML)).unwrap();
        fs::write(tmp.path().join(BOT_TEMPLATE), "").unwrap();
        assert_eq!(
            template_choice(tmp.path()),
            Ok(TemplateChoice::File(tmp.path().join(BOT_TEMPLATE)))
        );
    }
}
