//! Bots from a git repository: `--bots URL[@REV]` or `--bots PATH[@REV]` (a repository's top
//! folder). The repository is cloned once into a cache under the results folder and updated
//! there with the `git` command; its top-level folders are the bots. The repository itself is
//! only read, and the commit played is recorded in `series.toml`.

use std::path::{Path, PathBuf};
use std::process::Command;

use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};

/// Where a series' bots came from, recorded in `series.toml` as `[settings.bots_repository]`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct BotsRepository {
    /// The URL or path given.
    pub source: String,
    /// The revision asked for, if any (else the repository's default branch).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub rev: Option<String>,
    /// The commit whose folders were played.
    pub commit: String,
}

/// The repository could not be had.
#[derive(Debug, thiserror::Error)]
pub enum RepoError {
    #[error(
        "cannot run git ({0}); install git (apt-get install git) to take bots from a repository"
    )]
    NoGit(std::io::Error),
    #[error("git {what} failed for {repo}:\n{stderr}")]
    Git {
        what: &'static str,
        repo: String,
        stderr: String,
    },
    #[error("{repo} has no revision {rev}; give a branch, tag or commit that exists")]
    NoRev { repo: String, rev: String },
}

/// Splits `URL@REV` (the revision is what follows the last `@`, if it holds no `/` or `:`).
fn split_rev(spec: &str) -> (&str, Option<&str>) {
    match spec.rsplit_once('@') {
        Some((head, rev)) if !head.is_empty() && !rev.is_empty() && !rev.contains(['/', ':']) => {
            (head, Some(rev))
        }
        _ => (spec, None),
    }
}

fn is_url(s: &str) -> bool {
    s.contains("://") || (s.starts_with("git@") && s.contains(':'))
}

/// The repository and revision `bots` names, when it names one: a URL, or a folder that is a
/// repository's top folder (holds `.git`), either optionally followed by `@REV`.
pub fn parse(bots: &Path) -> Option<(String, Option<String>)> {
    let spec = bots.to_str()?;
    // No bots folder at all (`take6 check --game FOLDER`, the judge only): "" joined with
    // `.git` would name the current folder's repository.
    if spec.is_empty() {
        return None;
    }
    let (source, rev) = split_rev(spec);
    let is_repo = is_url(source) || Path::new(source).join(".git").exists();
    // A plain folder of bots stays one, even with an `@` in its name.
    if !is_repo || (rev.is_some() && Path::new(spec).is_dir() && !is_url(source)) {
        return None;
    }
    Some((source.to_string(), rev.map(str::to_string)))
}

fn git(
    dir: Option<&Path>,
    args: &[&str],
    what: &'static str,
    source: &str,
) -> Result<String, RepoError> {
    let mut command = Command::new("git");
    if let Some(dir) = dir {
        command.arg("-C").arg(dir);
    }
    let out = command
        .args(args)
        .env("GIT_TERMINAL_PROMPT", "0")
        .output()
        .map_err(RepoError::NoGit)?;
    if !out.status.success() {
        return Err(RepoError::Git {
            what,
            repo: source.to_string(),
            stderr: String::from_utf8_lossy(&out.stderr).trim().to_string(),
        });
    }
    Ok(String::from_utf8_lossy(&out.stdout).trim().to_string())
}

/// Clones or updates `source` into the cache under `results` and checks out `rev` (default:
/// the repository's HEAD) there. Returns the folder of bots and what was played.
pub fn fetch(
    source: &str,
    rev: Option<&str>,
    results: &Path,
) -> Result<(PathBuf, BotsRepository), RepoError> {
    let remote = remote_of(source);
    let cache = results.join(".repos").join(cache_name(&remote));
    clone_or_update(source, &remote, &cache)?;
    let commit = resolve(source, rev, &cache)?;
    git(
        Some(&cache),
        &["checkout", "--quiet", "--force", "--detach", &commit],
        "checkout",
        source,
    )?;
    git(
        Some(&cache),
        &["clean", "--quiet", "-ffdx"],
        "clean",
        source,
    )?;
    Ok((
        cache,
        BotsRepository {
            source: source.to_string(),
            rev: rev.map(str::to_string),
            commit,
        },
    ))
}

/// Puts the cache `cache` back at the commit `repository` recorded (a resumed series plays
/// the bots it began with, whatever a later series checked out there), fetching it again from
/// the repository when the cache lacks the commit or is gone.
pub fn restore(cache: &Path, repository: &BotsRepository) -> Result<(), RepoError> {
    let source = repository.source.as_str();
    let checkout = || {
        git(
            Some(cache),
            &[
                "checkout",
                "--quiet",
                "--force",
                "--detach",
                &repository.commit,
            ],
            "checkout",
            source,
        )?;
        git(Some(cache), &["clean", "--quiet", "-ffdx"], "clean", source).map(drop)
    };
    if cache.join(".git").is_dir() && checkout().is_ok() {
        return Ok(());
    }
    clone_or_update(source, &remote_of(source), cache)?;
    checkout()
}

/// Whether `source` (as `--bots` gives it now) names the repository `recorded` names: the same
/// URL or folder (a folder by its absolute name).
pub fn same_source(source: &str, recorded: &str) -> bool {
    remote_of(source) == remote_of(recorded)
}

/// How `repository` is named to people: `SOURCE@REV` (or `SOURCE` at its HEAD).
pub fn shown(repository: &BotsRepository) -> String {
    match &repository.rev {
        Some(rev) => format!("{}@{rev}", repository.source),
        None => repository.source.clone(),
    }
}

/// What is cloned: a URL as given, a local path by its absolute name, so that the cache does
/// not depend on where take6 was started.
fn remote_of(source: &str) -> String {
    if is_url(source) {
        source.to_string()
    } else {
        std::fs::canonicalize(source)
            .map(|p| p.display().to_string())
            .unwrap_or_else(|_| source.to_string())
    }
}

/// The cache folder's name for `remote`: the repository's last name made safe for a file
/// name (it is the user's text), and a short hash of the whole, so two repositories of the
/// same name do not share a cache.
fn cache_name(remote: &str) -> String {
    let digest = Sha256::digest(remote.as_bytes());
    let short: String = digest.iter().take(6).map(|b| format!("{b:02x}")).collect();
    let stem: String = remote
        .trim_end_matches('/')
        .trim_end_matches(".git")
        .rsplit(['/', ':'])
        .next()
        .unwrap_or("repo")
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || c == '-' || c == '_' {
                c
            } else {
                '_'
            }
        })
        .collect();
    format!("{stem}-{short}")
}

/// Brings the cache up to date with the remote: fetches every branch and tag into a cache
/// already cloned, else clones it afresh (without a checkout: [`fetch`] checks out the
/// commit it resolves).
fn clone_or_update(source: &str, remote: &str, cache: &Path) -> Result<(), RepoError> {
    if cache.join(".git").is_dir() {
        git(
            Some(cache),
            &[
                "fetch",
                "--quiet",
                "--force",
                "--tags",
                "origin",
                "+refs/heads/*:refs/remotes/origin/*",
            ],
            "fetch",
            source,
        )?;
    } else {
        std::fs::create_dir_all(cache.parent().expect("under results")).map_err(|e| {
            RepoError::Git {
                what: "clone",
                repo: source.to_string(),
                stderr: format!("cannot create {}: {e}", cache.display()),
            }
        })?;
        let _ = std::fs::remove_dir_all(cache);
        let target = cache.display().to_string();
        git(
            None,
            &["clone", "--quiet", "--no-checkout", remote, &target],
            "clone",
            source,
        )?;
    }
    Ok(())
}

/// The commit `rev` names in the cache (a commit, a tag, or a branch as the remote has it),
/// or the remote's default branch as it is now when no `rev` is given.
fn resolve(source: &str, rev: Option<&str>, cache: &Path) -> Result<String, RepoError> {
    let wanted = match rev {
        Some(r) => r.to_string(),
        None => {
            git(
                Some(cache),
                &["fetch", "--quiet", "origin", "HEAD"],
                "fetch",
                source,
            )?;
            "FETCH_HEAD".to_string()
        }
    };
    [wanted.clone(), format!("origin/{wanted}")]
        .iter()
        .find_map(|r| {
            git(
                Some(cache),
                &[
                    "rev-parse",
                    "--verify",
                    "--quiet",
                    &format!("{r}^{{commit}}"),
                ],
                "rev-parse",
                source,
            )
            .ok()
        })
        .filter(|c| !c.is_empty())
        .ok_or_else(|| RepoError::NoRev {
            repo: source.to_string(),
            rev: wanted.clone(),
        })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn revisions_follow_the_last_at_sign_of_a_url_or_path() {
        assert_eq!(
            split_rev("https://h/o/r.git@v1"),
            ("https://h/o/r.git", Some("v1"))
        );
        assert_eq!(
            split_rev("git@github.com:o/r.git"),
            ("git@github.com:o/r.git", None)
        );
        assert_eq!(
            split_rev("git@github.com:o/r.git@abc123"),
            ("git@github.com:o/r.git", Some("abc123"))
        );
        assert_eq!(split_rev("/tmp/repo@main"), ("/tmp/repo", Some("main")));
        assert_eq!(split_rev("bots"), ("bots", None));
        assert!(parse(Path::new("bots-that-do-not-exist")).is_none());
        assert_eq!(
            parse(Path::new("https://example.org/bots.git@v2")),
            Some(("https://example.org/bots.git".into(), Some("v2".into())))
        );
    }
}
