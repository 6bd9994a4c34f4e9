//! Series written by an older take6 (commit e439eb0, before the game boundary: no `rules` in
//! its lines) still read: `take6 verify` accepts them, `take6 leaderboard` rebuilds the same
//! leaderboard.csv, and `take6 replay` prints their games.

mod common;

use std::fs;
use std::path::{Path, PathBuf};
use std::process::Command;

use assert_cmd::cargo::CommandCargoExt;

use common::{assert_ok, copy_dir, text};

/// A copy of the old series `name` (the test writes into it).
fn old_series(name: &str) -> (tempfile::TempDir, PathBuf) {
    let tmp = tempfile::tempdir().unwrap();
    let from = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/data/take6-e439eb0")
        .join(name);
    let dir = tmp.path().join(name);
    copy_dir(&from, &dir);
    (tmp, dir)
}

fn take6(args: &[&str]) -> std::process::Output {
    Command::cargo_bin("take6")
        .unwrap()
        .args(args)
        .output()
        .unwrap()
}

#[test]
fn older_series_verify_and_rebuild_the_same_leaderboard() {
    for name in ["bots", "rounds", "summary"] {
        let (_tmp, dir) = old_series(name);
        let path = dir.to_str().unwrap();
        let verified = take6(&["verify", path]);
        assert_ok(&verified);
        assert!(text(&verified.stdout).contains("verified"), "{name}");
        let old = fs::read_to_string(dir.join("leaderboard.csv")).unwrap();
        fs::remove_file(dir.join("leaderboard.csv")).unwrap();
        assert_ok(&take6(&["leaderboard", path]));
        assert_eq!(
            fs::read_to_string(dir.join("leaderboard.csv")).unwrap(),
            old,
            "{name}"
        );
        if name != "summary" {
            let replay = take6(&["replay", path, "0"]);
            assert_ok(&replay);
            assert!(
                text(&replay.stdout).contains("Final"),
                "{}",
                text(&replay.stdout)
            );
        }
    }
}
