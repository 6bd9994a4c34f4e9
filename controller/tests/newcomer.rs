//! Issue 30, "what a new host and a new bot author tripped on": each item through the real
//! binary where it is user-facing (items 1 and 2 live in tests/authors.rs and
//! tests/kingdomino.rs beside their neighbours).

mod common;

use common::{copy_dir, fixtures, text};

use std::fs;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};

use assert_cmd::cargo::CommandCargoExt;
use tempfile::TempDir;

/// `take6 ARGS…` in `dir`, stdin closed.
fn take6(dir: &Path, args: &[&str]) -> Output {
    Command::cargo_bin("take6")
        .unwrap()
        .current_dir(dir)
        .args(args)
        .env_remove("RUST_LOG")
        .stdin(Stdio::null())
        .output()
        .unwrap()
}

/// Everything the command printed, stdout then stderr.
fn said(out: &Output) -> String {
    format!("{}{}", text(&out.stdout), text(&out.stderr))
}

/// A scratch folder with `bots/` holding copies of the named fixtures.
fn arena(bots: &[&str]) -> TempDir {
    let tmp = tempfile::tempdir().unwrap();
    fs::create_dir_all(tmp.path().join("bots")).unwrap();
    for name in bots {
        copy_dir(&fixtures().join(name), &tmp.path().join("bots").join(name));
    }
    tmp
}

/// The repository's own `take6.toml`.
fn shipped_config() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../take6.toml")
}

/// The one `take6: limits: …` line of a command's stderr.
fn limits_line(out: &Output) -> String {
    text(&out.stderr)
        .lines()
        .find(|l| l.starts_with("take6: limits:"))
        .unwrap_or_else(|| panic!("no limits line: {}", said(out)))
        .to_string()
}

/// Item 3: limits belong to a game. The shipped `take6.toml` leaves each game its own
/// defaults (Kingdomino's check from the repository root tests CodinGame's 1000 / 50 ms);
/// `[limits.kingdomino]` sets Kingdomino's only, the top-level keys every game's, a flag wins;
/// the line printed says which limits are in force and where each came from.
#[test]
fn limits_belong_to_a_game_and_the_line_says_where_they_came_from() {
    let tmp = arena(&["first", "kd-filler"]);
    fs::copy(shipped_config(), tmp.path().join("take6.toml")).unwrap();
    let kd = ["check", "--game", "kingdomino", "--games", "1"];
    let out = take6(tmp.path(), &[&kd[..], &["bots/kd-filler"]].concat());
    assert_eq!(
        limits_line(&out),
        "take6: limits: first reply 1000 ms, later replies 50 ms of CPU time \
         (Kingdomino's defaults)"
    );
    let out = take6(tmp.path(), &["check", "--games", "1", "bots/first"]);
    assert_eq!(
        limits_line(&out),
        "take6: limits: first reply 3000 ms, later replies 1000 ms of CPU time \
         (Take 6!'s defaults)"
    );

    let config = "reply_ms = 900\n[limits.kingdomino]\nreply_ms = 70\n";
    fs::write(tmp.path().join("take6.toml"), config).unwrap();
    let out = take6(tmp.path(), &[&kd[..], &["bots/kd-filler"]].concat());
    assert_eq!(
        limits_line(&out),
        "take6: limits: first reply 1000 ms, later replies 70 ms of CPU time (first reply: \
         Kingdomino's default; later: take6.toml [limits.kingdomino])"
    );
    let out = take6(tmp.path(), &["check", "--games", "1", "bots/first"]);
    assert!(
        limits_line(&out).contains(
            "later replies 900 ms of CPU time (first reply: Take 6!'s \
         default; later: take6.toml reply_ms (every game's))"
        ),
        "{}",
        limits_line(&out)
    );
    let out = take6(
        tmp.path(),
        &[&kd[..], &["--reply-ms", "80", "bots/kd-filler"]].concat(),
    );
    assert!(
        limits_line(&out).contains("later: --reply-ms"),
        "{}",
        said(&out)
    );

    fs::write(
        tmp.path().join("take6.toml"),
        "[limits.chess]\nreply_ms = 5\n",
    )
    .unwrap();
    let out = take6(tmp.path(), &["check", "--games", "1", "bots/first"]);
    assert_eq!(out.status.code(), Some(1));
    assert!(
        said(&out).contains("[limits.chess] names no game; the games are take6, kingdomino"),
        "{}",
        said(&out)
    );
}
