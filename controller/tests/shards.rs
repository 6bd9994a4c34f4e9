//! The real `take6` binary and `scripts/local-shards`: a series split with `--shard I/N` and
//! joined with `take6 merge` equals a one-machine run; merge refuses shards of different
//! series, overlapping and missing ones; a shard interrupted and resumed still merges exactly.
//! And the Kubernetes manifests have what an Indexed Job needs.

mod common;

use common::{assert_ok, patient_launch, played_in, take6_cmd, text};

use std::fs;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Output, Stdio};
use std::time::{Duration, Instant};

use nix::sys::signal::{Signal, kill};
use nix::unistd::Pid;
use take6::record::GameRecord;
use tempfile::TempDir;

const SEED: &str = "77";
const GAMES: u64 = 12;

fn repo() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..")
}

/// A scratch folder with `bots/` holding the `first` and `lowest` fixtures, and with
/// `patient`, a slow copy of `first`.
fn shard_arena(patient: bool) -> TempDir {
    let tmp = tempfile::tempdir().unwrap();
    let fixtures = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/bots");
    let mut bots = vec![
        (
            "first",
            fs::read_to_string(fixtures.join("first/launch")).unwrap(),
        ),
        (
            "lowest",
            fs::read_to_string(fixtures.join("lowest/launch")).unwrap(),
        ),
    ];
    if patient {
        bots.push(("patient", patient_launch()));
    }
    for (name, launch) in bots {
        let dir = tmp.path().join("bots").join(name);
        fs::create_dir_all(&dir).unwrap();
        fs::write(dir.join("launch"), launch).unwrap();
        use std::os::unix::fs::PermissionsExt;
        fs::set_permissions(dir.join("launch"), fs::Permissions::from_mode(0o755)).unwrap();
    }
    tmp
}

/// The flags every run of a test shares: seed, games and generous limits.
fn series_flags() -> Vec<&'static str> {
    vec![
        "--seed",
        SEED,
        "--games",
        "12",
        "--first-reply-ms",
        "5000",
        "--reply-ms",
        "3000",
        "--grace-ms",
        "300",
    ]
}

/// `take6 <args>` in `dir`.
/// take6 with `args` in `dir`, its output piped (see `common::take6_cmd`).
fn take6_piped(dir: &Path, args: &[&str]) -> Command {
    let mut cmd = take6_cmd(dir);
    cmd.args(args).stdout(Stdio::piped()).stderr(Stdio::piped());
    cmd
}

/// `take6 run` of the test series into `results`, with `extra` flags.
fn run(dir: &Path, results: &str, extra: &[&str]) -> Command {
    let mut args = vec!["run", "--results", results, "--jobs", "2"];
    args.extend(series_flags());
    args.extend(extra);
    take6_piped(dir, &args)
}

#[track_caller]
fn refused(out: &Output, says: &[&str]) -> String {
    let err = text(&out.stderr);
    assert!(!out.status.success(), "expected a refusal:\n{err}");
    for s in says {
        assert!(err.contains(s), "expected {s:?} in:\n{err}");
    }
    err
}

/// The summary table a run or merge prints, without its last line (which names the folder).
fn table(stdout: &[u8]) -> String {
    let text = text(stdout);
    let end = text.rfind("games played").expect("a summary footer");
    text[..end].to_string()
}

/// A one-machine run: its folder, records, leaderboard and summary table.
struct Reference {
    records: Vec<GameRecord>,
    board: String,
    table: String,
}

fn reference(dir: &Path) -> Reference {
    let out = run(dir, "single", &[]).output().unwrap();
    assert_ok(&out);
    let series = dir.join("single/latest");
    let records = played_in(&series);
    assert_eq!(records.len() as u64, GAMES);
    Reference {
        records,
        board: fs::read_to_string(series.join("leaderboard.csv")).unwrap(),
        table: table(&out.stdout),
    }
}

/// Checks a merged series folder against the one-machine run, and that it verifies.
#[track_caller]
fn assert_same_as(reference: &Reference, merged: &Path, merge_stdout: &[u8]) {
    assert_eq!(played_in(merged), reference.records);
    let board = fs::read_to_string(merged.join("leaderboard.csv")).unwrap();
    assert_eq!(board, reference.board);
    assert_eq!(table(merge_stdout), reference.table);
    let games: Vec<u64> = fs::read_to_string(merged.join("games.jsonl"))
        .unwrap()
        .lines()
        .map(|l| {
            serde_json::from_str::<serde_json::Value>(l).unwrap()["game"]
                .as_u64()
                .unwrap()
        })
        .collect();
    assert_eq!(
        games,
        (0..GAMES).collect::<Vec<_>>(),
        "sorted by game number"
    );
    let out = take6_piped(Path::new("."), &["verify", merged.to_str().unwrap()])
        .output()
        .unwrap();
    assert_ok(&out);
}

#[test]
fn one_two_and_three_local_shards_merged_equal_a_single_run() {
    let tmp = shard_arena(false);
    let reference = reference(tmp.path());
    for n in 1..=3u64 {
        let out_dir = tmp.path().join(format!("split{n}"));
        let mut args = vec![n.to_string(), "--jobs".into(), "1".into()];
        args.extend(series_flags().iter().map(|s| s.to_string()));
        let out = Command::new(repo().join("scripts/local-shards"))
            .current_dir(tmp.path())
            .args(&args)
            .env("TAKE6_BIN", assert_cmd::cargo::cargo_bin("take6"))
            .env("TAKE6_OUT", &out_dir)
            .env_remove("RUST_LOG")
            .output()
            .unwrap();
        assert_ok(&out);
        assert_same_as(&reference, &out_dir.join("merged/latest"), &out.stdout);
        for i in 0..n {
            let shard = played_in(&out_dir.join(format!("shard-{i}/latest")));
            let games: Vec<u64> = shard.iter().map(|g| g.game).collect();
            let mine: Vec<u64> = (0..GAMES).filter(|g| g % n == i).collect();
            assert_eq!(games, mine, "shard {i}/{n} plays its own game numbers");
            let manifest =
                fs::read_to_string(out_dir.join(format!("shard-{i}/latest/series.toml"))).unwrap();
            assert!(
                manifest.contains(&format!("shard = \"{i}/{n}\"")) || n == 1,
                "{manifest}"
            );
        }
    }
}

/// Plays shard `shard` of the test series into `results`.
fn shard(dir: &Path, results: &str, shard: &str, extra: &[&str]) {
    let mut flags = vec!["--shard", shard];
    flags.extend(extra);
    assert_ok(&run(dir, results, &flags).output().unwrap());
}

fn merge(dir: &Path, extra: &[&str], shards: &[&str]) -> Output {
    let mut args = vec!["merge", "--results", "merged"];
    args.extend(extra);
    let paths: Vec<String> = shards.iter().map(|s| format!("{s}/latest")).collect();
    args.extend(paths.iter().map(String::as_str));
    take6_piped(dir, &args).output().unwrap()
}

#[test]
fn merge_refuses_other_seeds_a_changed_bot_overlaps_and_missing_games() {
    let tmp = shard_arena(false);
    let dir = tmp.path();
    shard(dir, "a0", "0/2", &[]);
    shard(dir, "a1", "1/2", &[]);
    shard(dir, "other-seed", "1/2", &["--seed", "78"]);
    shard(dir, "three", "1/3", &[]);

    let out = merge(dir, &[], &["a0", "other-seed"]);
    refused(
        &out,
        &["not a shard of the same series", "seed 77 here, 78 there"],
    );
    let out = merge(dir, &[], &["a0", "three"]);
    refused(&out, &["number of shards 2 here, 3 there"]);
    let out = merge(dir, &[], &["a0", "a1", "a0"]);
    refused(&out, &["a0/", "is given twice"]);
    shard(dir, "again", "0/2", &[]);
    let out = merge(dir, &[], &["a0", "a1", "again"]);
    refused(&out, &["shard 0/2 is given twice", "overlap"]);
    let out = merge(dir, &[], &["a0"]);
    refused(
        &out,
        &[
            "6 of the series' 12 games are missing",
            "games 1, 3, 5",
            "shard 1/2 was not given",
            "--partial",
        ],
    );
    assert!(
        !dir.join("merged").exists(),
        "nothing is written when refused"
    );

    let launch = dir.join("bots/first/launch");
    let mut changed = fs::read_to_string(&launch).unwrap();
    changed.push_str("# a new version\n");
    fs::write(&launch, changed).unwrap();
    shard(dir, "changed", "1/2", &[]);
    let out = merge(dir, &[], &["a0", "changed"]);
    refused(&out, &["bot first has other content"]);

    // A partial set with --partial: the games there are, and which are missing.
    let out = merge(dir, &["--partial"], &["a0"]);
    assert_ok(&out);
    let err = text(&out.stderr);
    assert!(
        err.contains("6 of 12 games are missing: 1, 3, 5, 7, 9, 11"),
        "{err}"
    );
    let merged = dir.join("merged/latest");
    let games: Vec<u64> = played_in(&merged).iter().map(|g| g.game).collect();
    assert_eq!(games, [0, 2, 4, 6, 8, 10]);
    let manifest = fs::read_to_string(merged.join("series.toml")).unwrap();
    assert!(manifest.contains("status = \"interrupted\""), "{manifest}");
    assert_ok(
        &take6_piped(dir, &["verify", "merged/latest"])
            .output()
            .unwrap(),
    );

    // The two good halves still merge.
    assert_ok(&merge(dir, &[], &["a0", "a1"]));
}

#[test]
fn a_tampered_shard_is_refused_before_merging() {
    let tmp = shard_arena(false);
    let dir = tmp.path();
    shard(dir, "a0", "0/2", &[]);
    shard(dir, "a1", "1/2", &[]);
    let games = dir.join("a1/latest/games.jsonl");
    let text_before = fs::read_to_string(&games).unwrap();
    let edited = text_before.replacen("\"scores\":[", "\"scores\":[1", 1);
    assert_ne!(edited, text_before);
    fs::write(&games, edited).unwrap();
    let out = merge(dir, &[], &["a0", "a1"]);
    refused(
        &out,
        &["shard 1/2", "does not verify", "games.jsonl line 1"],
    );
}

#[test]
fn shard_flags_are_checked_and_kept_on_resume() {
    let tmp = shard_arena(false);
    let dir = tmp.path();
    let out = run(dir, "r", &["--shard", "2/2"]).output().unwrap();
    refused(&out, &["--shard 2/2", "below N"]);
    let out = take6_piped(dir, &["run", "--games", "4", "--shard", "0/2"])
        .output()
        .unwrap();
    refused(&out, &["--shard = 0/2", "same seed", "--seed N"]);
    shard(dir, "r", "0/2", &[]);
    let series = fs::canonicalize(dir.join("r/latest")).unwrap();
    let out = take6_piped(
        dir,
        &[
            "run",
            "--resume",
            series.to_str().unwrap(),
            "--shard",
            "1/2",
        ],
    )
    .output()
    .unwrap();
    refused(&out, &["shard is \"0/2\" in the series, \"1/2\" now"]);
}

fn lines(series: &Path) -> usize {
    fs::read(series.join("games.jsonl")).map_or(0, |t| t.iter().filter(|&&b| b == b'\n').count())
}

/// Starts shard `shard` into `results` and waits until it has recorded `n` games.
fn start_and_wait(dir: &Path, results: &str, shard: &str, n: usize) -> Child {
    let child = run(dir, results, &["--shard", shard, "--jobs", "1"])
        .spawn()
        .unwrap();
    let series = dir.join(results).join("latest");
    let deadline = Instant::now() + Duration::from_secs(120);
    while !(series.join("series.toml").exists() && lines(&series) >= n) {
        assert!(Instant::now() < deadline, "{n} games never finished");
        std::thread::sleep(Duration::from_millis(20));
    }
    child
}

fn resume(dir: &Path, results: &str) {
    let series = fs::canonicalize(dir.join(results).join("latest")).unwrap();
    let out = take6_piped(
        dir,
        &["run", "--resume", series.to_str().unwrap(), "--jobs", "2"],
    )
    .output()
    .unwrap();
    assert_ok(&out);
}

#[test]
fn shards_stopped_by_ctrl_c_and_kill_9_then_resumed_merge_exactly() {
    let tmp = shard_arena(true);
    let dir = tmp.path();
    let reference = reference(dir);

    let ctrl_c = start_and_wait(dir, "s0", "0/2", 2);
    kill(Pid::from_raw(ctrl_c.id() as i32), Signal::SIGINT).unwrap();
    let out = ctrl_c.wait_with_output().unwrap();
    assert_eq!(out.status.code(), Some(130), "{}", text(&out.stderr));

    let mut killed = start_and_wait(dir, "s1", "1/2", 2);
    killed.kill().unwrap();
    killed.wait().unwrap();
    let held = lines(&dir.join("s1/latest"));
    assert!(held < 6, "killed before the shard finished ({held} games)");

    let out = merge(dir, &[], &["s0", "s1"]);
    refused(&out, &["games are missing", "shard 1/2", "holds"]);

    resume(dir, "s0");
    resume(dir, "s1");
    let out = merge(dir, &[], &["s0", "s1"]);
    assert_ok(&out);
    assert_same_as(&reference, &dir.join("merged/latest"), &out.stdout);
}

/// The Kubernetes manifests, parsed by python3's yaml module: what an Indexed Job needs.
#[test]
fn kubernetes_manifests_are_an_indexed_job_and_a_merge_job() {
    let script = repo().join("scripts/k8s/validate");
    let out = Command::new(&script)
        .current_dir(repo())
        .output()
        .unwrap_or_else(|e| panic!("{}: {e}", script.display()));
    assert_ok(&out);
    let said = text(&out.stdout);
    assert!(
        said.contains("shards-job.yaml: Indexed Job of 4 shards"),
        "{said}"
    );

    // Broken copies are caught, naming the field.
    let tmp = tempfile::tempdir().unwrap();
    let good = fs::read_to_string(repo().join("scripts/k8s/shards-job.yaml")).unwrap();
    let merge_job = repo().join("scripts/k8s/merge-job.yaml");
    for (from, to, says) in [
        (
            "parallelism: 4",
            "parallelism: 3",
            "parallelism (3) != completions (4)",
        ),
        (
            "completionMode: Indexed",
            "completionMode: NonIndexed",
            "completionMode must be Indexed",
        ),
        (
            "value: \"4\"",
            "value: \"5\"",
            "--shard's N is 5, completions is 4",
        ),
        (
            "restartPolicy: Never",
            "restartPolicy: Always",
            "restartPolicy must be Never or OnFailure",
        ),
        (
            "completions: 4",
            "completions: [4",
            "cannot be read as YAML",
        ),
    ] {
        assert!(good.contains(from), "{from}");
        let broken = tmp.path().join("shards-job.yaml");
        fs::write(&broken, good.replacen(from, to, 1)).unwrap();
        let out = Command::new(&script)
            .arg(&broken)
            .arg(&merge_job)
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(1), "{to}: {}", text(&out.stdout));
        let err = text(&out.stderr);
        assert!(err.contains(says), "{to}: expected {says:?} in {err}");
    }
}
