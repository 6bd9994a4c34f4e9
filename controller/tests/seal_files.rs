//! Files and folders are untrusted too. Hostile fixtures run as bots do (inside the
//! sandbox, as their own users) or forged folders are handed to take6, and each test fails if
//! the attack works: links to a root-only canary file (read, written, through temporary names,
//! through `/proc/self/cwd`, committed in a git repository), FIFOs and `/dev/zero` where the
//! controller opens a file. Every take6 run here is bounded in time: a file that would make the
//! controller wait ends the test with a failure, never a hang.

mod common;

use std::fs;
use std::os::unix::fs::PermissionsExt;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};
use std::time::{Duration, Instant};

use tempfile::TempDir;

use common::{copy_dir, fixtures, git, take6_cmd, text};

/// What the canary file holds; found anywhere a bot or a results folder reaches, the attack
/// worked.
const SECRET: &str = "TAKE6_HOST_CANARY_35";

/// Whether bubblewrap is here (the sandboxed tests need it; CI must have it).
fn sandbox_available() -> bool {
    let found = Command::new("bwrap")
        .arg("--version")
        .output()
        .is_ok_and(|o| o.status.success());
    if !found {
        assert!(
            std::env::var_os("CI").is_none(),
            "bubblewrap is missing in CI"
        );
        common::skipped("no bubblewrap on this machine (apt-get install bubblewrap)");
    }
    found
}

/// Runs take6 with `args` in `dir`, killed if it outlives `limit`: the test then fails, naming
/// the command (a file made the controller wait).
fn bounded(dir: &Path, args: &[&str], limit: Duration) -> Output {
    let mut child = take6_cmd(dir)
        .args(args)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let started = Instant::now();
    while child.try_wait().unwrap().is_none() {
        if started.elapsed() > limit {
            let _ = child.kill();
            let out = child.wait_with_output().unwrap();
            panic!(
                "take6 {args:?} still ran after {limit:?} (a file made it wait):\n{}",
                text(&out.stderr)
            );
        }
        std::thread::sleep(Duration::from_millis(50));
    }
    child.wait_with_output().unwrap()
}

/// A root-only host file holding [`SECRET`], outside anything a bot or a series sees.
fn canary(tmp: &Path) -> PathBuf {
    let dir = tmp.join("host");
    fs::create_dir_all(&dir).unwrap();
    let canary = dir.join("canary");
    fs::write(&canary, SECRET).unwrap();
    fs::set_permissions(&canary, fs::Permissions::from_mode(0o600)).unwrap();
    canary
}

/// A scratch folder with `game/` (the duel test game, limits 10x what its bots need) and
/// `bots/` with copies of `fixtures` by name.
fn duel_arena(bots: &[(&str, &str)]) -> TempDir {
    let tmp = tempfile::tempdir().unwrap();
    copy_dir(
        &Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/games/duel"),
        &tmp.path().join("game"),
    );
    let toml = tmp.path().join("game/game.toml");
    let extra = "\n[limits]\nfirst_turn_ms = 20000\nturn_ms = 20000\nkept_running_ms = 20000\n";
    fs::write(&toml, fs::read_to_string(&toml).unwrap() + extra).unwrap();
    for (name, fixture) in bots {
        copy_dir(
            &fixtures().join(fixture),
            &tmp.path().join("bots").join(name),
        );
    }
    tmp
}

fn series(tmp: &Path) -> PathBuf {
    fs::canonicalize(tmp.join("results/latest")).unwrap()
}

/// The faults of every game, as `bot: reason` lines.
fn faults(series: &Path) -> Vec<String> {
    let file = fs::File::open(series.join("games.jsonl")).unwrap();
    let games = take6::record::read_games_jsonl(std::io::BufReader::new(file)).unwrap();
    games
        .iter()
        .flat_map(|g| {
            g.rounds
                .iter()
                .flat_map(|r| r.invalid.iter())
                .map(|f| format!("{}: {}", g.players[f.seat], f.reason))
        })
        .collect()
}

/// A Botzone bot links `.botzone-globaldata` to a root-only host file, through
/// `/proc/self/cwd` to the other bot's globaldata, to `/dev/zero`, makes it a FIFO, and links
/// every temporary name the controller once wrote globaldata through to host paths (one new,
/// one existing). The series ends (no wait on the FIFO, no read of /dev/zero), the bot never
/// gets the canary's content or the other bot's globaldata, no host file is written or made,
/// and the honest strict bot (which checks its globaldata) has no fault.
#[test]
fn a_botzone_bot_cannot_make_the_controller_read_or_write_host_files_through_globaldata() {
    if !sandbox_available() {
        return;
    }
    let tmp = duel_arena(&[("filer", "bz-filer"), ("py", "bz-py")]);
    let canary = canary(tmp.path());
    let victim = tmp.path().join("host/victim");
    let targets = serde_json::json!({
        "canary": canary,
        "victim": victim,
        "other": "/proc/self/cwd/results/latest/work/py/.botzone-globaldata",
    });
    fs::write(
        tmp.path().join("bots/filer/targets.json"),
        targets.to_string(),
    )
    .unwrap();
    let out = bounded(
        tmp.path(),
        &[
            "run",
            "--game",
            "game",
            "--games",
            "8",
            "--seed",
            "35",
            "--jobs",
            "1",
            "--sandbox",
            "strict",
        ],
        Duration::from_secs(300),
    );
    common::assert_ok(&out);
    let series = series(tmp.path());
    let work = series.join("work/filer");
    // The attack was armed: the controller's pid found, every trap set.
    let pid = fs::read_to_string(work.join("pid.txt")).unwrap_or_default();
    assert!(!pid.is_empty(), "the bot found no pid to aim at");
    let traps = fs::read_to_string(work.join("traps.txt")).unwrap();
    for trap in ["canary", "proc-cwd", "fifo", "dev-zero"] {
        assert!(traps.contains(trap), "{trap} never set:\n{traps}");
    }
    assert_eq!(
        fs::read_to_string(&canary).unwrap(),
        SECRET,
        "the canary was written"
    );
    assert!(
        !victim.exists(),
        "the controller made a host file through a link"
    );
    let seen = fs::read_to_string(work.join("seen.txt")).unwrap();
    for line in seen.lines() {
        let value: serde_json::Value = serde_json::from_str(line).unwrap();
        let value = value.as_str().unwrap_or_default();
        assert!(
            value.is_empty() || value.starts_with("filer "),
            "the bot was given {value:?} as its globaldata"
        );
    }
    assert!(
        seen.contains("filer "),
        "its own globaldata never came back:\n{seen}"
    );
    let faults = faults(&series);
    assert!(
        !faults.iter().any(|f| f.starts_with("py:")),
        "the honest bot faulted: {faults:?}"
    );
    let kept = fs::read_to_string(series.join("work/py/.botzone-globaldata")).unwrap();
    assert!(kept.contains("games "), "{kept}");
}

/// `series.toml`'s skipped bots: (name, reason).
fn skipped(series: &Path) -> Vec<(String, String)> {
    let manifest: toml::Table =
        toml::from_str(&fs::read_to_string(series.join("series.toml")).unwrap()).unwrap();
    manifest
        .get("skipped")
        .and_then(|s| s.as_array())
        .into_iter()
        .flatten()
        .map(|s| {
            let get = |k: &str| s[k].as_str().unwrap().to_string();
            (get("name"), get("reason"))
        })
        .collect()
}

/// A `.botzone-globaldata` committed as a link to a host file in a repository of bots
/// (`--bots REPO@TAG`) is never read: the strict bot, which checks its globaldata, starts
/// from none and has no fault (it is never handed the canary).
#[test]
fn a_globaldata_link_committed_in_a_repository_is_never_read() {
    if !sandbox_available() {
        return;
    }
    let tmp = duel_arena(&[("py", "bz-py"), ("py2", "bz-py")]);
    let canary = canary(tmp.path());
    let repo = tmp.path().join("bots");
    std::os::unix::fs::symlink(&canary, repo.join("py/.botzone-globaldata")).unwrap();
    git(&repo, &["init", "--quiet", "--initial-branch=main"]);
    git(&repo, &["add", "."]);
    git(&repo, &["commit", "--quiet", "-m", "bots and a link"]);
    git(&repo, &["tag", "v1"]);
    let at_tag = format!("{}@v1", repo.display());
    let out = bounded(
        tmp.path(),
        &[
            "run",
            "--game",
            "game",
            "--bots",
            &at_tag,
            "--games",
            "2",
            "--seed",
            "35",
            "--jobs",
            "1",
            "--sandbox",
            "strict",
        ],
        Duration::from_secs(300),
    );
    common::assert_ok(&out);
    let series = series(tmp.path());
    assert_eq!(faults(&series), Vec::<String>::new());
    let kept = fs::read_to_string(series.join("work/py/.botzone-globaldata")).unwrap();
    assert!(!kept.contains(SECRET) && kept.contains("games "), "{kept}");
    assert_eq!(fs::read_to_string(&canary).unwrap(), SECRET);
}

/// A Take 6 bot whose `build` leaves `launch` a FIFO, a link to `/dev/zero` or a link to a
/// host file is skipped with the reason; the others play (a FIFO
/// never keeps the series from starting and /dev/zero is never read until memory runs out).
#[test]
fn a_launch_its_build_left_a_fifo_or_a_link_is_skipped_with_the_reason() {
    if !sandbox_available() {
        return;
    }
    let tmp = tempfile::tempdir().unwrap();
    let canary = canary(tmp.path());
    let bots = tmp.path().join("bots");
    for name in ["a", "b"] {
        copy_dir(&fixtures().join("first"), &bots.join(name));
    }
    let builds = [
        ("fifo", "rm launch && mkfifo launch".to_string()),
        ("zero", "rm launch && ln -s /dev/zero launch".to_string()),
        (
            "host",
            format!("rm launch && ln -s {} launch", canary.display()),
        ),
    ];
    for (name, build) in &builds {
        let dir = bots.join(name);
        copy_dir(&fixtures().join("first"), &dir);
        fs::write(dir.join("build"), format!("#!/bin/sh\nset -e\n{build}\n")).unwrap();
        fs::set_permissions(dir.join("build"), fs::Permissions::from_mode(0o755)).unwrap();
    }
    let out = bounded(
        tmp.path(),
        &[
            "run",
            "--games",
            "2",
            "--seed",
            "35",
            "--sandbox",
            "strict",
            "--allow-skips",
        ],
        Duration::from_secs(300),
    );
    common::assert_ok(&out);
    let skips = skipped(&series(tmp.path()));
    for (name, kind) in [
        ("fifo", "FIFO"),
        ("zero", "symbolic link"),
        ("host", "symbolic link"),
    ] {
        let reason = skips
            .iter()
            .find(|(n, _)| n == name)
            .map(|(_, r)| r.clone())
            .unwrap_or_else(|| panic!("{name} not skipped: {skips:?}"));
        assert!(
            reason.contains("launch") && reason.contains(kind),
            "{name}: {reason}"
        );
    }
    assert_eq!(fs::read_to_string(&canary).unwrap(), SECRET);
}

/// A bot's own `launch` that carries take6's comment for generated Python launches ("holds
/// Python 3 source") gets the game's default limits for a launch of its own (Botzone's
/// C/C++ 1000 ms, 2000 ms on a game's first turn), not Python's 6000 ms (12000 ms): a turn of
/// 2.5 s of CPU is its timeout. A comment line never grants it Python's limits.
#[test]
fn a_launch_that_claims_a_language_in_a_comment_gets_no_more_time() {
    if !sandbox_available() {
        return;
    }
    let tmp = tempfile::tempdir().unwrap();
    copy_dir(
        &Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/games/duel"),
        &tmp.path().join("game"),
    );
    let bots = tmp.path().join("bots");
    copy_dir(&fixtures().join("bz-py"), &bots.join("py"));
    let dir = bots.join("spoof");
    fs::create_dir_all(&dir).unwrap();
    fs::write(
        dir.join("launch"),
        "#!/usr/bin/env python3\n\
         # Written by take6: the bot's folder holds Python 3 source and no launch.\n\
         import sys, time\n\
         sys.stdin.readline()\n\
         t = time.process_time()\n\
         while time.process_time() - t < 2.5:\n    pass\n\
         print('{\"response\": {\"n\": 2}}', flush=True)\n",
    )
    .unwrap();
    fs::set_permissions(dir.join("launch"), fs::Permissions::from_mode(0o755)).unwrap();
    let out = bounded(
        tmp.path(),
        &[
            "run",
            "--game",
            "game",
            "--games",
            "1",
            "--seed",
            "35",
            "--sandbox",
            "strict",
        ],
        Duration::from_secs(300),
    );
    common::assert_ok(&out);
    let faults = faults(&series(tmp.path()));
    assert!(
        faults
            .iter()
            // Its first turn's CPU limit (2000 ms), or on a loaded machine the wall-clock net
            // it sets (6 times it at a table of 2); Python's would be 12000 ms and 72000 ms.
            .any(|f| f.starts_with("spoof:")
                && (f.contains(" 2000 ms") || f.contains(" 12000 ms of wall time"))),
        "{faults:?}"
    );
}

/// A series of built-ins only in `results` under `tmp` (`--shard` and more in `extra`); its
/// folder.
fn builtins_series(tmp: &Path, results: &str, extra: &[&str]) -> PathBuf {
    let mut args = vec![
        "run",
        "--builtins-only",
        "--games",
        "6",
        "--seed",
        "123456789012345678",
        "--results",
        results,
    ];
    args.extend_from_slice(extra);
    common::assert_ok(&bounded(tmp, &args, Duration::from_secs(120)));
    fs::canonicalize(tmp.join(results).join("latest")).unwrap()
}

fn mkfifo(path: &Path) {
    let _ = fs::remove_file(path);
    nix::unistd::mkfifo(path, nix::sys::stat::Mode::from_bits_truncate(0o644)).unwrap();
}

/// A results folder handed over with `*.partial` names linked to a root-only host file:
/// `take6 leaderboard` rewrites its files without writing through any of them (before issue
/// 35, the fixed `.partial` names made root overwrite the canary).
#[test]
fn partial_links_in_a_forged_results_folder_are_never_written_through() {
    let tmp = tempfile::tempdir().unwrap();
    let canary = canary(tmp.path());
    let series = builtins_series(tmp.path(), "results", &[]);
    for name in [
        "leaderboard.csv.partial",
        "headtohead.csv.partial",
        "series.toml.partial",
        "report.html.partial",
        "reply_times.csv.partial",
        ".series.toml.interrupted",
    ] {
        std::os::unix::fs::symlink(&canary, series.join(name)).unwrap();
    }
    let out = bounded(
        tmp.path(),
        &["leaderboard", series.to_str().unwrap()],
        Duration::from_secs(60),
    );
    common::assert_ok(&out);
    assert_eq!(
        fs::read_to_string(&canary).unwrap(),
        SECRET,
        "written through a link"
    );
    assert!(
        fs::read_to_string(series.join("leaderboard.csv"))
            .unwrap()
            .contains("rank,")
    );
}

/// Files of a results folder left FIFOs (`series.toml`, `games.jsonl`, `series.lock`) make no
/// command wait: `verify`, `leaderboard`, `run --resume` and `clean` end with an error naming
/// the file, or (clean) pass the folder by, each within its time bound.
#[test]
fn fifos_in_a_results_folder_make_no_command_wait() {
    let tmp = tempfile::tempdir().unwrap();
    let series = builtins_series(tmp.path(), "results", &[]);
    let path = series.to_str().unwrap().to_string();
    let limit = Duration::from_secs(60);
    // Stopped, so that --resume reads on.
    let manifest = fs::read_to_string(series.join("series.toml")).unwrap();
    fs::write(
        series.join("series.toml"),
        manifest.replace("status = \"complete\"", "status = \"interrupted\""),
    )
    .unwrap();
    for file in ["games.jsonl", "series.toml"] {
        let saved = fs::read(series.join(file)).unwrap();
        mkfifo(&series.join(file));
        for command in [
            &["verify", &path][..],
            &["leaderboard", &path],
            &["run", "--resume", &path],
        ] {
            let out = bounded(tmp.path(), command, limit);
            // leaderboard rebuilds without a series.toml: it need only end.
            if command[0] == "leaderboard" && file == "series.toml" {
                continue;
            }
            assert!(!out.status.success(), "{command:?} with a FIFO {file}");
            // verify says it in its report, on stdout.
            let err = text(&out.stderr) + &text(&out.stdout);
            assert!(
                err.contains(file) && err.contains("FIFO"),
                "{command:?}: {err}"
            );
        }
        fs::remove_file(series.join(file)).unwrap();
        fs::write(series.join(file), saved).unwrap();
    }
    // A FIFO lock: resume refuses it, clean passes the folder by; neither waits.
    mkfifo(&series.join("series.lock"));
    let out = bounded(tmp.path(), &["run", "--resume", &path], limit);
    assert!(!out.status.success());
    assert!(
        text(&out.stderr).contains("series.lock"),
        "{}",
        text(&out.stderr)
    );
    let out = bounded(
        tmp.path(),
        &["clean", "--series", "--keep", "0", "--dry-run"],
        limit,
    );
    common::assert_ok(&out);
}

/// A results folder handed over with `logs/controller.log` linked to a host file (or `logs`
/// itself linked to a host folder): `run --resume` refuses it, naming the file, and appends
/// nothing to the host's file.
#[test]
fn a_log_link_in_a_resumed_folder_is_refused_and_never_appended_to() {
    let tmp = tempfile::tempdir().unwrap();
    let canary = canary(tmp.path());
    let series = builtins_series(tmp.path(), "results", &[]);
    let path = series.to_str().unwrap().to_string();
    let manifest = fs::read_to_string(series.join("series.toml")).unwrap();
    fs::write(
        series.join("series.toml"),
        manifest.replace("status = \"complete\"", "status = \"interrupted\""),
    )
    .unwrap();
    let log = series.join("logs/controller.log");
    fs::remove_file(&log).unwrap();
    std::os::unix::fs::symlink(&canary, &log).unwrap();
    let out = bounded(
        tmp.path(),
        &["run", "--resume", &path],
        Duration::from_secs(60),
    );
    assert!(!out.status.success());
    assert!(
        text(&out.stderr).contains("controller.log"),
        "{}",
        text(&out.stderr)
    );
    assert_eq!(fs::read_to_string(&canary).unwrap(), SECRET);
    // `logs` itself a link to the host's folder.
    fs::remove_dir_all(series.join("logs")).unwrap();
    std::os::unix::fs::symlink(canary.parent().unwrap(), series.join("logs")).unwrap();
    let out = bounded(
        tmp.path(),
        &["run", "--resume", &path],
        Duration::from_secs(60),
    );
    assert!(!out.status.success());
    assert!(!canary.parent().unwrap().join("controller.log").exists());
    assert_eq!(fs::read_to_string(&canary).unwrap(), SECRET);
}

/// A shard handed over with its `logs` linked to a root-only host folder (or a log linked to
/// a host file): `take6 merge` copies none of the host's files into the merged series.
#[test]
fn merge_copies_no_host_file_through_a_shards_log_links() {
    let tmp = tempfile::tempdir().unwrap();
    let canary = canary(tmp.path());
    let a = builtins_series(tmp.path(), "s0", &["--shard", "0/2"]);
    let b = builtins_series(tmp.path(), "s1", &["--shard", "1/2"]);
    fs::remove_dir_all(a.join("logs")).unwrap();
    std::os::unix::fs::symlink(canary.parent().unwrap(), a.join("logs")).unwrap();
    std::os::unix::fs::symlink(&canary, b.join("logs/stolen.log")).unwrap();
    let out = bounded(
        tmp.path(),
        &[
            "merge",
            "--results",
            "merged",
            a.to_str().unwrap(),
            b.to_str().unwrap(),
        ],
        Duration::from_secs(60),
    );
    common::assert_ok(&out);
    let merged = fs::canonicalize(tmp.path().join("merged/latest")).unwrap();
    let grep = Command::new("grep")
        .args(["-r", SECRET])
        .arg(&merged)
        .output()
        .unwrap();
    assert!(grep.stdout.is_empty(), "copied: {}", text(&grep.stdout));
    assert!(merged.join("logs/shard-1-of-2/controller.log").exists());
}

/// Links out of a game folder are refused as a `judge` that is a link is: a `viewer.js`
/// linked to a host file (never inlined into report.html) and a padding bot linked
/// to a host folder, each named with the fix; a link among the folder's subfolders is no
/// padding bot.
#[test]
fn links_out_of_a_game_folder_are_refused() {
    let tmp = duel_arena(&[("py", "bz-py"), ("py2", "bz-py")]);
    let canary = canary(tmp.path());
    let game = tmp.path().join("game");
    std::os::unix::fs::symlink(&canary, game.join("viewer.js")).unwrap();
    let args = ["run", "--game", "game", "--games", "1", "--sandbox", "none"];
    let out = bounded(tmp.path(), &args, Duration::from_secs(120));
    assert!(!out.status.success());
    let err = text(&out.stderr);
    assert!(err.contains("viewer.js is a symbolic link"), "{err}");
    fs::remove_file(game.join("viewer.js")).unwrap();
    // A padding bot that is a link to a bot folder outside.
    let host_bot = tmp.path().join("host/bot");
    copy_dir(&game.join("cycler"), &host_bot);
    fs::write(host_bot.join("stolen"), SECRET).unwrap();
    fs::remove_dir_all(game.join("cycler")).unwrap();
    std::os::unix::fs::symlink(&host_bot, game.join("cycler")).unwrap();
    let out = bounded(tmp.path(), &args, Duration::from_secs(120));
    assert!(!out.status.success());
    let err = text(&out.stderr);
    assert!(
        err.contains("padding names \"cycler\", which is a symbolic link"),
        "{err}"
    );
    // Left to be found (no padding = [...]), the link is no padding bot.
    let toml = fs::read_to_string(game.join("game.toml")).unwrap();
    fs::write(
        game.join("game.toml"),
        toml.replace("padding = [\"cycler\"]\n", ""),
    )
    .unwrap();
    let out = bounded(
        tmp.path(),
        &["check", "--game", "game", "--sandbox", "none"],
        Duration::from_secs(120),
    );
    assert!(!out.status.success());
    assert!(
        text(&out.stderr).contains("padding"),
        "{}",
        text(&out.stderr)
    );
    let grep = Command::new("grep")
        .args(["-r", SECRET])
        .arg(tmp.path().join("results"))
        .output()
        .unwrap();
    assert!(grep.stdout.is_empty(), "copied: {}", text(&grep.stdout));
}

/// The duel game with a careless judge: it `eval`s a response that is a string (as a judge
/// parsing "x,y" with eval would), so a bot's response runs as the judge.
fn naive_game(tmp: &Path) {
    let game = tmp.join("game");
    let judge = fs::read_to_string(game.join("judge.py")).unwrap();
    let careless = judge.replacen(
        "                resp = r[\"response\"]\n",
        "                resp = r[\"response\"]\n\
         \x20               if isinstance(resp, str):\n\
         \x20                   try:\n\
         \x20                       eval(resp)\n\
         \x20                   except Exception:\n\
         \x20                       pass\n",
        1,
    );
    assert_ne!(
        careless, judge,
        "the duel judge changed: update the naive patch"
    );
    fs::write(game.join("judge.py"), careless).unwrap();
}

/// A bot whose every response is Python that overwrites `canary` (a root-only host file).
fn payload_bot(tmp: &Path, canary: &Path) {
    let dir = tmp.join("bots/evil");
    fs::create_dir_all(&dir).unwrap();
    let payload = format!(
        "open('{}', 'w').write('pwned by the judge')",
        canary.display()
    );
    let reply = serde_json::json!({ "response": payload }).to_string();
    fs::write(
        dir.join("launch"),
        format!("#!/bin/sh\nread line\ncat <<'EOF'\n{reply}\nEOF\n"),
    )
    .unwrap();
    fs::set_permissions(dir.join("launch"), fs::Permissions::from_mode(0o755)).unwrap();
}

/// A careless judge (it evals string responses) over a bot whose responses overwrite a
/// root-only host file: neither the series, nor `verify`, `leaderboard`, `merge` (each given
/// the game folder) nor `run --resume` run the judge outside the sandbox, so the host file is
/// never written.
#[test]
fn a_naive_judge_runs_only_in_the_sandbox_under_verify_leaderboard_resume_and_merge() {
    if !sandbox_available() {
        return;
    }
    let tmp = duel_arena(&[("py", "bz-py")]);
    let canary = canary(tmp.path());
    naive_game(tmp.path());
    payload_bot(tmp.path(), &canary);
    let limit = Duration::from_secs(300);
    let run = |extra: &[&str]| {
        let mut args = vec!["run", "--game", "game", "--games", "2", "--seed", "35"];
        args.extend_from_slice(&["--sandbox", "strict"]);
        args.extend_from_slice(extra);
        common::assert_ok(&bounded(tmp.path(), &args, limit));
    };
    run(&[]);
    let series = series(tmp.path());
    let path = series.to_str().unwrap();
    assert_eq!(fs::read_to_string(&canary).unwrap(), SECRET, "the series");
    for command in [
        &["verify", path, "--game", "game"][..],
        &["leaderboard", path, "--game", "game"],
    ] {
        common::assert_ok(&bounded(tmp.path(), command, limit));
        assert_eq!(fs::read_to_string(&canary).unwrap(), SECRET, "{command:?}");
    }
    // --resume: a stopped series' games verified by its judge before it plays on.
    let manifest = fs::read_to_string(series.join("series.toml")).unwrap();
    let stopped = manifest.replace("status = \"complete\"", "status = \"interrupted\"");
    fs::write(series.join("series.toml"), stopped).unwrap();
    common::assert_ok(&bounded(tmp.path(), &["run", "--resume", path], limit));
    assert_eq!(fs::read_to_string(&canary).unwrap(), SECRET, "--resume");
    // merge: two shards, each verified by the judge.
    run(&["--shard", "0/2", "--results", "s0"]);
    run(&["--shard", "1/2", "--results", "s1"]);
    let out = bounded(
        tmp.path(),
        &[
            "merge",
            "--game",
            "game",
            "--results",
            "merged",
            "s0/latest",
            "s1/latest",
        ],
        limit,
    );
    common::assert_ok(&out);
    assert_eq!(fs::read_to_string(&canary).unwrap(), SECRET, "merge");
}

/// The same judge and bot under `--sandbox none`: the payload overwrites the host file, so
/// the attack is real and the sandboxed test can fail.
#[test]
fn a_naive_judge_runs_the_payload_without_the_sandbox() {
    let tmp = duel_arena(&[("py", "bz-py")]);
    let canary = canary(tmp.path());
    naive_game(tmp.path());
    payload_bot(tmp.path(), &canary);
    let args = ["run", "--game", "game", "--games", "1", "--sandbox", "none"];
    common::assert_ok(&bounded(tmp.path(), &args, Duration::from_secs(300)));
    assert_eq!(fs::read_to_string(&canary).unwrap(), "pwned by the judge");
}

/// A results folder chooses no code: `verify` of a game folder's series runs no judge
/// unless the person at the keyboard gives the folder with `--game`, and refuses a folder
/// whose judge differs from the one the series played (the hash series.toml records).
#[test]
fn verify_runs_only_the_judge_given_at_the_keyboard_and_only_the_one_played() {
    let tmp = duel_arena(&[("py", "bz-py"), ("py2", "bz-py")]);
    let args = ["run", "--game", "game", "--games", "1", "--sandbox", "none"];
    common::assert_ok(&bounded(tmp.path(), &args, Duration::from_secs(300)));
    let series = series(tmp.path());
    let manifest = fs::read_to_string(series.join("series.toml")).unwrap();
    assert!(manifest.contains("game_hash = \""), "{manifest}");
    let path = series.to_str().unwrap();
    let limit = Duration::from_secs(120);
    let out = bounded(tmp.path(), &["verify", path], limit);
    assert!(!out.status.success());
    let said = text(&out.stdout) + &text(&out.stderr);
    assert!(said.contains("give the game folder with --game"), "{said}");
    common::assert_ok(&bounded(
        tmp.path(),
        &["verify", path, "--game", "game"],
        limit,
    ));
    // Another judge (one byte more) is not the code the series played.
    let judge = tmp.path().join("game/judge.py");
    fs::write(&judge, fs::read_to_string(&judge).unwrap() + "\n").unwrap();
    let out = bounded(tmp.path(), &["verify", path, "--game", "game"], limit);
    assert!(!out.status.success());
    let said = text(&out.stdout) + &text(&out.stderr);
    assert!(said.contains("not the code this series played"), "{said}");
    // --resume refuses a game folder changed since the series began, as it does a bot's.
    let manifest = fs::read_to_string(series.join("series.toml")).unwrap();
    let stopped = manifest.replace("status = \"complete\"", "status = \"interrupted\"");
    fs::write(series.join("series.toml"), stopped).unwrap();
    let out = bounded(tmp.path(), &["run", "--resume", path], limit);
    assert!(!out.status.success());
    let said = text(&out.stderr);
    assert!(said.contains("changed since the series began"), "{said}");
}

/// A duel bot whose every response is `{"n": 2, "pad": ...}` with `pad` bytes of padding.
fn padding_bot(tmp: &Path, name: &str, pad: usize) {
    let dir = tmp.join("bots").join(name);
    fs::create_dir_all(&dir).unwrap();
    fs::write(
        dir.join("launch"),
        format!(
            "#!/usr/bin/env python3\nimport json, sys\nsys.stdin.readline()\n\
             print(json.dumps({{\"response\": {{\"n\": 2, \"pad\": \"x\" * {pad}}}}}))\n"
        ),
    )
    .unwrap();
    fs::set_permissions(dir.join("launch"), fs::Permissions::from_mode(0o755)).unwrap();
}

/// Bots that bloat their responses (100 KB each) get Botzone's `OLE`, naming the cap, instead
/// of making a larger record: `games.jsonl` and report.html stay small (the cap of a game's
/// responses together: `wire::tests`; uncapped, 1 MiB responses would make a 65-73 MiB
/// games.jsonl and a report.html as large from 20 games).
#[test]
fn a_bloating_bot_is_faulted_ole_and_the_record_stays_small() {
    let tmp = duel_arena(&[("py", "bz-py")]);
    padding_bot(tmp.path(), "bloat", 100_000);
    padding_bot(tmp.path(), "bloat2", 100_000);
    let args = [
        "run",
        "--game",
        "game",
        "--games",
        "6",
        "--seed",
        "35",
        "--sandbox",
        "none",
    ];
    common::assert_ok(&bounded(tmp.path(), &args, Duration::from_secs(600)));
    let series = series(tmp.path());
    let faults = faults(&series);
    assert!(
        faults
            .iter()
            .any(|f| f.starts_with("bloat:") && f.contains("its response is 100")),
        "{faults:?}"
    );
    let log = fs::read_to_string(series.join("games.jsonl")).unwrap();
    assert!(log.contains("\"OLE\""), "the judge was not told OLE");
    let jsonl = fs::metadata(series.join("games.jsonl")).unwrap().len();
    assert!(jsonl < 8 << 20, "games.jsonl is {jsonl} bytes");
    let report = fs::metadata(series.join("report.html")).unwrap().len();
    assert!(report < 20 << 20, "report.html is {report} bytes");
    common::assert_ok(&bounded(
        tmp.path(),
        &["verify", series.to_str().unwrap(), "--game", "game"],
        Duration::from_secs(300),
    ));
}

/// Botzone bots that, after answering their first turn, replace their own `launch` with a
/// FIFO or a link to `/dev/zero`: their later turns fault (the launch cannot start), the
/// series ends within its bound and the strict bot plays on (the controller never
/// reads `launch` at a turn to learn the bot's language, and never waits on a FIFO).
#[test]
fn a_launch_made_a_fifo_or_a_dev_zero_link_at_run_time_faults_and_never_hangs() {
    if !sandbox_available() {
        return;
    }
    let tmp = duel_arena(&[("py", "bz-py")]);
    for (name, trap) in [
        ("fifo", "os.unlink('launch'); os.mkfifo('launch')"),
        (
            "zero",
            "os.unlink('launch'); os.symlink('/dev/zero', 'launch')",
        ),
    ] {
        let dir = tmp.path().join("bots").join(name);
        fs::create_dir_all(&dir).unwrap();
        fs::write(
            dir.join("launch"),
            format!(
                "#!/usr/bin/env python3\nimport json, os, sys\nsys.stdin.readline()\n\
                 print(json.dumps({{\"response\": {{\"n\": 2}}}}), flush=True)\n{trap}\n"
            ),
        )
        .unwrap();
        fs::set_permissions(dir.join("launch"), fs::Permissions::from_mode(0o755)).unwrap();
    }
    let args = [
        "run",
        "--game",
        "game",
        "--games",
        "6",
        "--seed",
        "35",
        "--sandbox",
        "strict",
    ];
    common::assert_ok(&bounded(tmp.path(), &args, Duration::from_secs(300)));
    let faults = faults(&series(tmp.path()));
    for name in ["fifo", "zero"] {
        assert!(
            faults.iter().any(|f| f.starts_with(&format!("{name}:"))),
            "{name} never faulted: {faults:?}"
        );
    }
    assert!(!faults.iter().any(|f| f.starts_with("py:")), "{faults:?}");
}
