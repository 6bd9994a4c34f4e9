//! `take6 run --builtins-only` through the real binary: the threaded table plays the games the
//! async tables play, a summary series verifies (and a forged score is caught by replaying the
//! built-ins), and a series killed with `kill -9` resumes to each game exactly once.

mod common;

use common::{assert_ok, forge, played_in, take6_cmd, text};

use std::fs;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};
use std::time::{Duration, Instant};

use take6::record::GameRecord;

/// `take6 <args>` in `dir`, with no bot folder there at all.
/// take6 with `args` in `dir`, its output piped (see `common::take6_cmd`).
fn take6_piped(dir: &Path, args: &[&str]) -> Command {
    let mut cmd = take6_cmd(dir);
    cmd.args(args).stdout(Stdio::piped()).stderr(Stdio::piped());
    cmd
}

fn run(dir: &Path, results: &str, extra: &[&str]) -> PathBuf {
    let mut args = vec!["run", "--builtins-only", "--results", results];
    args.extend(extra);
    let out = take6_piped(dir, &args).output().unwrap();
    assert_ok(&out);
    fs::canonicalize(dir.join(results).join("latest")).unwrap()
}

fn verify(dir: &Path, series: &Path) -> Output {
    take6_piped(dir, &["verify", series.to_str().unwrap()])
        .output()
        .unwrap()
}

#[test]
fn the_threaded_tables_play_the_games_of_the_async_ones() {
    let tmp = tempfile::tempdir().unwrap();
    for (i, flags) in [
        &["--games", "60", "--seed", "5"][..],
        &[
            "--games",
            "24",
            "--seed",
            "6",
            "--players",
            "6",
            "--rounds",
            "2",
        ][..],
        &[
            "--games",
            "30",
            "--seed",
            "7",
            "--players",
            "3",
            "--no-duplicate",
        ][..],
    ]
    .into_iter()
    .enumerate()
    {
        let mut threaded = flags.to_vec();
        threaded.extend(["--jobs", "2"]);
        let a = run(tmp.path(), &format!("threads{i}"), &threaded);
        let mut tasks = flags.to_vec();
        tasks.extend(["--jobs", "3", "--async-tables"]);
        let b = run(tmp.path(), &format!("tasks{i}"), &tasks);
        let threaded = played_in(&a);
        let numbers: Vec<u64> = threaded.iter().map(|g| g.game).collect();
        let in_order: Vec<u64> = (0..threaded.len() as u64).collect();
        assert_eq!(numbers, in_order, "{flags:?}: written in game order");
        let mut tasks = played_in(&b);
        tasks.sort_by_key(|g| g.game);
        assert_eq!(threaded, tasks, "{flags:?}: the same games");
        let board = |d: &Path| fs::read_to_string(d.join("leaderboard.csv")).unwrap();
        assert_eq!(board(&a), board(&b), "{flags:?}");
        assert!(board(&a).contains("random#1"), "{}", board(&a));
        assert_ok(&verify(tmp.path(), &a));
    }
}

#[test]
fn no_bot_folder_is_needed_and_summary_is_refused_for_bots() {
    let tmp = tempfile::tempdir().unwrap();
    let series = run(tmp.path(), "r", &["--games", "10", "--seed", "1"]);
    let manifest = fs::read_to_string(series.join("series.toml")).unwrap();
    assert!(manifest.contains("builtins_only = true"), "{manifest}");
    assert!(!tmp.path().join("bots").exists());
    let out = take6_piped(tmp.path(), &["run", "--record", "summary", "--games", "1"])
        .output()
        .unwrap();
    assert!(!out.status.success());
    assert!(
        text(&out.stderr).contains("--builtins-only"),
        "{}",
        text(&out.stderr)
    );
}

#[test]
fn a_summary_series_verifies_ranks_as_in_full_and_a_forged_score_is_caught() {
    let tmp = tempfile::tempdir().unwrap();
    let flags = ["--games", "200", "--seed", "9", "--jobs", "2"];
    let full = run(tmp.path(), "full", &flags);
    let mut summary_flags = flags.to_vec();
    summary_flags.extend(["--record", "summary"]);
    let summary = run(tmp.path(), "summary", &summary_flags);
    let short = played_in(&summary);
    assert!(short.iter().all(GameRecord::is_summary));
    let whole: Vec<GameRecord> = played_in(&full)
        .into_iter()
        .map(GameRecord::summary)
        .collect();
    assert_eq!(
        short, whole,
        "a summary is the full record without its turns"
    );
    let board = |d: &Path| fs::read_to_string(d.join("leaderboard.csv")).unwrap();
    assert_eq!(board(&full), board(&summary));
    assert_ok(&verify(tmp.path(), &summary));
    // The leaderboard is rebuilt from the summaries alone.
    fs::remove_file(summary.join("leaderboard.csv")).unwrap();
    let out = take6_piped(tmp.path(), &["leaderboard", summary.to_str().unwrap()])
        .output()
        .unwrap();
    assert_ok(&out);
    assert_eq!(board(&full), board(&summary));

    let jsonl = summary.join("games.jsonl");
    let good = fs::read(&jsonl).unwrap();
    let id = summary.file_name().unwrap().to_str().unwrap().to_string();
    forge(&jsonl, &id, 3, |g| {
        g.rounds[0].scores.swap(0, 1);
        g.rounds[0].cows.swap(0, 1);
    });
    let out = verify(tmp.path(), &summary);
    assert_eq!(out.status.code(), Some(1), "{}", text(&out.stdout));
    assert!(
        text(&out.stdout).contains("line 3") && text(&out.stdout).contains("seed and built-ins"),
        "{}",
        text(&out.stdout)
    );
    // An edit without re-chaining breaks the chain.
    let mut edited = String::from_utf8(good).unwrap();
    edited = edited.replacen("\"scores\":[", "\"scores\":[1", 1);
    fs::write(&jsonl, edited).unwrap();
    let out = verify(tmp.path(), &summary);
    assert_eq!(out.status.code(), Some(1), "{}", text(&out.stdout));
}

#[test]
fn kill_9_then_resume_records_each_game_exactly_once() {
    let tmp = tempfile::tempdir().unwrap();
    const GAMES: u64 = 20_000;
    let games = GAMES.to_string();
    let args = [
        "run",
        "--builtins-only",
        "--record",
        "summary",
        "--games",
        &games,
        "--seed",
        "3",
        "--jobs",
        "2",
    ];
    let mut child = take6_piped(tmp.path(), &args).spawn().unwrap();
    let jsonl = tmp.path().join("results/latest/games.jsonl");
    let deadline = Instant::now() + Duration::from_secs(120);
    // Killed once some games are written, long before all are.
    while fs::metadata(&jsonl).map_or(0, |m| m.len()) < 10_000 {
        assert!(Instant::now() < deadline, "no game was ever written");
        assert!(
            child.try_wait().unwrap().is_none(),
            "the series ended too soon"
        );
        std::thread::sleep(Duration::from_millis(5));
    }
    child.kill().unwrap();
    child.wait().unwrap();
    let out = take6_piped(tmp.path(), &["run", "--resume", "--jobs", "2"])
        .output()
        .unwrap();
    assert_ok(&out);
    let series = fs::canonicalize(tmp.path().join("results/latest")).unwrap();
    let mut seen = vec![false; GAMES as usize];
    for g in played_in(&series) {
        assert!(
            !std::mem::replace(&mut seen[g.game as usize], true),
            "game {} twice",
            g.game
        );
    }
    assert!(seen.iter().all(|&s| s), "every game recorded");
    assert_ok(&verify(tmp.path(), &series));
}

#[test]
fn two_shards_of_built_ins_merge_into_the_one_machine_series() {
    let tmp = tempfile::tempdir().unwrap();
    let flags = ["--games", "300", "--seed", "4", "--record", "summary"];
    let one = run(tmp.path(), "one", &flags);
    let mut shards = Vec::new();
    for shard in ["0/2", "1/2"] {
        let mut f = flags.to_vec();
        f.extend(["--shard", shard]);
        let name = format!("shard{}", &shard[..1]);
        shards.push(run(tmp.path(), &name, &f));
    }
    let out = take6_piped(
        tmp.path(),
        &[
            "merge",
            shards[0].to_str().unwrap(),
            shards[1].to_str().unwrap(),
        ],
    )
    .output()
    .unwrap();
    assert_ok(&out);
    let merged = fs::canonicalize(tmp.path().join("results/latest")).unwrap();
    assert_eq!(played_in(&merged), played_in(&one));
    let board = |d: &Path| fs::read_to_string(d.join("leaderboard.csv")).unwrap();
    assert_eq!(board(&merged), board(&one));
    assert_ok(&verify(tmp.path(), &merged));
}
