//! Series written by older versions still read: Take 6 series of commit e439eb0 (before the
//! game boundary: no `rules` in their lines) and Kingdomino series of commit 586f755 (before
//! the `Game` trait: `tests/data/kingdomino-586f755`). `take6 verify` accepts them, `take6
//! leaderboard` rebuilds the same leaderboard.csv, `take6 replay` prints their games, and
//! every line reads and writes back byte for byte (the chain hashes the bytes as written).

mod common;

use std::fs;
use std::path::{Path, PathBuf};

use common::{assert_ok, copy_dir, take6, text};

/// A copy of the old series `name` (the test writes into it).
fn old_series(name: &str) -> (tempfile::TempDir, PathBuf) {
    old_series_of("take6-e439eb0", name)
}

/// A copy of the old series `name` of the version `version` in tests/data.
fn old_series_of(version: &str, name: &str) -> (tempfile::TempDir, PathBuf) {
    let tmp = tempfile::tempdir().unwrap();
    let from = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/data")
        .join(version)
        .join(name);
    let dir = tmp.path().join(name);
    copy_dir(&from, &dir);
    (tmp, dir)
}

/// Each player's row of a `leaderboard.csv` by name, without the columns that come from the
/// fit to all games (`rank`, `rating`, `rating_ci95`), which the recorded versions computed
/// otherwise or lacked: the tallies themselves must match.
fn same_columns(csv: &str) -> Vec<String> {
    let mut rows: Vec<String> = csv
        .lines()
        .skip(1)
        .map(|line| {
            let cells: Vec<&str> = line.split(',').collect();
            cells[1..9].join(",")
        })
        .collect();
    rows.sort();
    assert!(!rows.is_empty());
    rows
}

#[test]
fn older_series_verify_and_rebuild_the_same_leaderboard() {
    for name in ["bots", "rounds", "summary"] {
        let (_tmp, dir) = old_series(name);
        let path = dir.to_str().unwrap();
        let verified = take6(Path::new("."), &["verify", path]);
        assert_ok(&verified);
        assert!(text(&verified.stdout).contains("verified"), "{name}");
        let old = fs::read_to_string(dir.join("leaderboard.csv")).unwrap();
        fs::remove_file(dir.join("leaderboard.csv")).unwrap();
        assert_ok(&take6(Path::new("."), &["leaderboard", path]));
        let new = fs::read_to_string(dir.join("leaderboard.csv")).unwrap();
        assert_eq!(same_columns(&new), same_columns(&old), "{name}");
        if name != "summary" {
            let replay = take6(Path::new("."), &["replay", path, "0"]);
            assert_ok(&replay);
            assert!(
                text(&replay.stdout).contains("Final"),
                "{}",
                text(&replay.stdout)
            );
        }
    }
}

#[test]
fn kingdomino_series_of_before_the_game_trait_verify_rebuild_and_replay() {
    for name in ["bots", "builtins"] {
        let (_tmp, dir) = old_series_of("kingdomino-586f755", name);
        let path = dir.to_str().unwrap();
        let verified = take6(Path::new("."), &["verify", path]);
        assert_ok(&verified);
        assert!(text(&verified.stdout).contains("verified"), "{name}");
        let old = fs::read_to_string(dir.join("leaderboard.csv")).unwrap();
        fs::remove_file(dir.join("leaderboard.csv")).unwrap();
        assert_ok(&take6(Path::new("."), &["leaderboard", path]));
        let new = fs::read_to_string(dir.join("leaderboard.csv")).unwrap();
        assert_eq!(same_columns(&new), same_columns(&old), "{name}");
        let replay = take6(Path::new("."), &["replay", path, "0"]);
        assert_ok(&replay);
        assert!(
            text(&replay.stdout).contains("Final"),
            "{}",
            text(&replay.stdout)
        );
    }
}

#[test]
fn every_older_line_reads_and_writes_back_byte_for_byte() {
    let data = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data");
    let mut lines = 0;
    for (version, name) in [
        ("take6-e439eb0", "bots"),
        ("take6-e439eb0", "rounds"),
        ("take6-e439eb0", "summary"),
        ("kingdomino-586f755", "bots"),
        ("kingdomino-586f755", "builtins"),
    ] {
        let file = data.join(version).join(name).join("games.jsonl");
        for line in fs::read_to_string(&file).unwrap().lines() {
            let record: take6::record::GameRecord = serde_json::from_str(line).unwrap();
            // The line is the record's JSON with the chain field in place of its closing brace.
            let chain = line.rfind(",\"chain\":").expect("a chain field");
            assert_eq!(
                take6::record::games_jsonl_line(&record),
                format!("{}}}", &line[..chain]),
                "{version}/{name}"
            );
            lines += 1;
        }
    }
    assert!(lines > 60, "{lines} lines");
}
