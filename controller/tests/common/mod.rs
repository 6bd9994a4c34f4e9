//! Helpers shared by the integration-test binaries (each includes this file with `mod common;`
//! and uses what it needs, hence the allowance for unused items).
#![allow(dead_code)]

use std::fs;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};

use assert_cmd::cargo::CommandCargoExt;
use take6::record::{Chain, GameRecord, read_games_jsonl};
use tempfile::TempDir;

/// The take6 binary under test, run in `dir` with nothing on stdin and `RUST_LOG` cleared (a
/// developer's logging setting must not change what a test sees).
pub fn take6_cmd(dir: &Path) -> Command {
    let mut cmd = Command::cargo_bin("take6").unwrap();
    cmd.current_dir(dir)
        .stdin(Stdio::null())
        .env_remove("RUST_LOG");
    cmd
}

/// Runs `take6 ARGS` in `dir` to its end (see [`take6_cmd`]).
pub fn take6(dir: &Path, args: &[&str]) -> Output {
    take6_cmd(dir).args(args).output().unwrap()
}

/// `take6 run` in `dir` with two jobs, the given reply limits, a 300 ms grace and skipped bots
/// allowed (their exit status is tests/authors.rs' subject); more flags follow.
pub fn series_cmd(dir: &Path, first_reply_ms: u32, reply_ms: u32) -> Command {
    let mut cmd = take6_cmd(dir);
    cmd.args(["run", "--jobs", "2"])
        .args(["--first-reply-ms", &first_reply_ms.to_string()])
        .args(["--reply-ms", &reply_ms.to_string(), "--grace-ms", "300"])
        .arg("--allow-skips");
    cmd
}

/// A temporary folder whose `bots/` holds a copy of each named fixture bot (`bots/` exists even
/// when the list is empty).
pub fn arena(bots: &[&str]) -> TempDir {
    let pairs: Vec<(&str, &str)> = bots.iter().map(|b| (*b, *b)).collect();
    arena_as(&pairs)
}

/// [`arena`] with other names: `(name, fixture)` puts a copy of the fixture at `bots/<name>`.
pub fn arena_as(bots: &[(&str, &str)]) -> TempDir {
    let from: Vec<(&str, PathBuf)> = bots.iter().map(|(n, f)| (*n, fixtures().join(f))).collect();
    arena_of(&from)
}

/// [`arena`] from any folders: `(name, folder)` puts a copy of the folder at `bots/<name>`.
pub fn arena_of(bots: &[(&str, PathBuf)]) -> TempDir {
    let tmp = tempfile::tempdir().unwrap();
    fs::create_dir_all(tmp.path().join("bots")).unwrap();
    for (name, src) in bots {
        copy_dir(src, &tmp.path().join("bots").join(name));
    }
    tmp
}

/// The series folder `results/latest` of a run in `dir`, as a real path.
pub fn series_dir(dir: &Path) -> PathBuf {
    fs::canonicalize(dir.join("results/latest")).unwrap()
}

/// The records of `games.jsonl` in `folder` (a series or league folder), by game number.
pub fn records_in(folder: &Path) -> Vec<GameRecord> {
    let file = fs::File::open(folder.join("games.jsonl")).unwrap();
    let mut games = read_games_jsonl(std::io::BufReader::new(file)).unwrap();
    games.sort_by_key(|g| g.game);
    games
}

/// The records of the latest series of a run in `dir` (see [`records_in`]).
pub fn records(dir: &Path) -> Vec<GameRecord> {
    records_in(&series_dir(dir))
}

/// [`records_in`] without what is measured rather than played (the duration, the reply
/// times), for comparing two runs of the same games.
pub fn played_in(folder: &Path) -> Vec<GameRecord> {
    let mut games = records_in(folder);
    for g in &mut games {
        g.ms = 0;
        g.replies.clear();
    }
    games
}

/// Runs `git ARGS` in `dir` as a test user, asserting success; its stdout, trimmed.
#[track_caller]
pub fn git(dir: &Path, args: &[&str]) -> String {
    let out = Command::new("git")
        .current_dir(dir)
        .args(["-c", "user.name=t", "-c", "user.email=t@example.org"])
        .args(args)
        .output()
        .unwrap();
    assert!(out.status.success(), "git {args:?}: {}", text(&out.stderr));
    text(&out.stdout).trim().to_string()
}

/// Output bytes as text for messages.
pub fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

/// Asserts that the controller succeeded, showing its output if not.
#[track_caller]
pub fn assert_ok(out: &Output) {
    assert!(
        out.status.success(),
        "take6 failed ({}):\nstdout:\n{}\nstderr:\n{}",
        out.status,
        text(&out.stdout),
        text(&out.stderr)
    );
}

/// The `patient` fixture's launch script: deterministic like `first`, but 20 ms per card, so a
/// series or a shard can be stopped part-way; it counts its games in its working copy.
pub fn patient_launch() -> String {
    std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/bots/patient/launch"))
        .unwrap()
}

/// Rewrites line `n` (1-based) of `games.jsonl` with `edit` applied to its record, and
/// re-chains every line, so that only a check of the games themselves (the rules checker, or
/// the replay of built-ins) can catch the edit.
pub fn forge(jsonl: &Path, series: &str, n: usize, edit: impl FnOnce(&mut GameRecord)) {
    let file = fs::File::open(jsonl).unwrap();
    let mut games = read_games_jsonl(std::io::BufReader::new(file)).unwrap();
    edit(&mut games[n - 1]);
    let mut chain = Chain::start(series);
    let mut out = Vec::new();
    for g in &games {
        chain.append_line(g, &mut out);
    }
    fs::write(jsonl, out).unwrap();
}

/// Puts `pristine` back in `jsonl`, forges its game on line `n` with `edit` (see [`forge`]),
/// and asserts that `verify` (a `take6 verify` of the series) exits with 1, naming line `n`
/// and saying `says`.
#[track_caller]
pub fn assert_forgery_named(
    jsonl: &Path,
    pristine: impl AsRef<[u8]>,
    series: &str,
    n: usize,
    edit: impl FnOnce(&mut GameRecord),
    says: &str,
    verify: impl FnOnce() -> Output,
) {
    fs::write(jsonl, pristine).unwrap();
    forge(jsonl, series, n, edit);
    let out = verify();
    assert_eq!(out.status.code(), Some(1), "{says}: {}", text(&out.stdout));
    let said = text(&out.stdout) + &text(&out.stderr);
    assert!(
        said.contains(&format!("line {n}")) && said.contains(says),
        "{says}: {said}"
    );
}

/// Says that the running test cannot do its work here (`why`: the tool it needs and how to
/// install it) on the terminal itself: written to the process's stderr, past the test
/// harness's capture, so that a plain `cargo test` shows `SKIPPED <test>: <why>` among the
/// results instead of a silent `ok`. With `TAKE6_NO_SKIP=1` set, a skip fails the test instead
/// (for a machine that must run everything). The caller returns after it.
#[track_caller]
pub fn skipped(why: &str) {
    let thread = std::thread::current();
    let test = thread.name().unwrap_or("a test");
    assert!(
        std::env::var_os("TAKE6_NO_SKIP").is_none_or(|v| v.is_empty()),
        "{test} cannot run here and TAKE6_NO_SKIP is set: {why}"
    );
    use std::io::Write as _;
    let _ = writeln!(std::io::stderr(), "SKIPPED {test}: {why}");
}

/// The fixture bots' folder, `controller/tests/bots`.
pub fn fixtures() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/bots")
}

/// The sample bots committed in `bots/`. Tests play copies of these, never whatever the
/// user's `bots/` holds (their own bots, a build left in a folder): adding the README's first
/// bot must not break `cargo test`.
pub const SAMPLE_BOTS: [&str; 4] = ["awklow", "cgap", "cgpython", "pyheur"];

/// Copies the committed sample bots into `to` (one subfolder each), their files only as git
/// holds them: a file their `.gitignore` names (a build's output) is left out.
pub fn copy_samples(to: &Path) {
    let samples = Path::new(env!("CARGO_MANIFEST_DIR")).join("../bots");
    for name in SAMPLE_BOTS {
        let from = samples.join(name);
        let ignored: Vec<String> = fs::read_to_string(from.join(".gitignore"))
            .map(|t| {
                t.lines()
                    .map(|l| l.trim().trim_start_matches('/').to_string())
                    .collect()
            })
            .unwrap_or_default();
        copy_dir(&from, &to.join(name));
        for file in ignored.iter().filter(|f| !f.is_empty()) {
            let _ = fs::remove_file(to.join(name).join(file));
        }
    }
}

/// Copies a folder, keeping permissions (the executable bits matter).
pub fn copy_dir(from: &Path, to: &Path) {
    fs::create_dir_all(to).unwrap();
    for entry in fs::read_dir(from).unwrap() {
        let entry = entry.unwrap();
        let dst = to.join(entry.file_name());
        if entry.file_type().unwrap().is_dir() {
            copy_dir(&entry.path(), &dst);
        } else {
            fs::copy(entry.path(), &dst).unwrap();
        }
    }
}
