//! "mistakes explain themselves": one test per row of the table of what a
//! new bot author did and got, each through the real binary, showing the message they get now.
//! Launch scripts that cannot start (no `#!`, CRLF, an interpreter in a home folder) are
//! written by the tests themselves: a CRLF file kept in git could be converted on checkout.

mod common;

use common::{arena, assert_ok, copy_dir, fixtures, take6, take6_cmd, text};

use std::fs;
use std::io::{BufReader, Write as _};
use std::os::unix::fs::PermissionsExt;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};

use take6::record::{GameRecord, read_games_jsonl};

/// Writes an executable `launch` with `text` into `bots/<bot>/` of `dir`.
fn write_launch(dir: &Path, bot: &str, text: &str) {
    let folder = dir.join("bots").join(bot);
    fs::create_dir_all(&folder).unwrap();
    fs::write(folder.join("launch"), text).unwrap();
    fs::set_permissions(folder.join("launch"), fs::Permissions::from_mode(0o755)).unwrap();
}

/// `take6 run` in `dir` with a small table, generous limits and `args`.
fn run(dir: &Path, args: &[&str]) -> Output {
    let mut all = vec!["run", "--jobs", "2", "--players", "4", "--grace-ms", "300"];
    all.extend(["--first-reply-ms", "10000", "--reply-ms", "5000"]);
    all.extend(args);
    take6(dir, &all)
}

/// `take6 check DIR` in `dir` with `args`.
fn check(dir: &Path, bot: &str, args: &[&str]) -> Output {
    let mut all = vec!["check", bot];
    all.extend(args);
    take6(dir, &all)
}

/// Everything the command printed, stdout then stderr.
fn said(out: &Output) -> String {
    format!("{}{}", text(&out.stdout), text(&out.stderr))
}

fn series(dir: &Path) -> PathBuf {
    fs::canonicalize(dir.join("results/latest")).unwrap()
}

fn games(dir: &Path) -> Vec<GameRecord> {
    games_of(&series(dir))
}

/// The series of the last `take6 play` in `dir`: under results/plays/, so that it never
/// replaces the host's latest series.
fn played(dir: &Path) -> PathBuf {
    fs::canonicalize(dir.join("results/plays/latest")).unwrap()
}

fn games_of(series: &Path) -> Vec<GameRecord> {
    let file = fs::File::open(series.join("games.jsonl")).unwrap();
    let mut games = read_games_jsonl(BufReader::new(file)).unwrap();
    games.sort_by_key(|g| g.game);
    games
}

/// Whether this machine runs bots in bubblewrap (root, bwrap present), where home folders
/// are hidden from them.
fn sandboxed_here() -> bool {
    nix::unistd::geteuid().is_root()
        && Command::new("bwrap")
            .arg("--version")
            .output()
            .is_ok_and(|o| o.status.success())
}

/// Row "followed `take6 check …`": the subcommand checks a good bot, says OK, exits 0, and
/// never shows a temporary folder of its own.
#[test]
fn check_passes_a_good_bot_and_shows_no_temporary_folder() {
    let tmp = arena(&["strict-default"]);
    let out = check(tmp.path(), "bots/strict-default", &["--games", "2"]);
    assert_ok(&out);
    let all = said(&out);
    assert!(all.contains("OK: no fault in 2 games."), "{all}");
    assert!(!all.contains("take6-check-"), "{all}");
}

/// A bot that never replies but keeps using a little CPU time (as one
/// starved of a processor on a loaded machine does) is told it was starved, not that it may
/// not be flushing: at the wall-clock net it was still using CPU time.
#[test]
fn a_bot_still_running_at_the_wall_clock_net_is_told_it_was_starved() {
    let tmp = arena(&["starved"]);
    let out = check(
        tmp.path(),
        "bots/starved",
        &[
            "--games",
            "1",
            "--reply-ms",
            "300",
            "--first-reply-ms",
            "300",
        ],
    );
    assert!(!out.status.success());
    let shown = text(&out.stdout);
    assert!(shown.contains("it was starved of a processor"), "{shown}");
    assert!(!shown.contains("may not be flushing"), "{shown}");
}

/// Row "a Python bot that prints without flushing": its reply never arrives; check says it
/// used almost no CPU and may not be flushing, within a few seconds rather than 30.
#[test]
fn a_bot_that_never_flushes_is_told_it_may_not_be_flushing() {
    let tmp = arena(&["unflushed"]);
    let started = std::time::Instant::now();
    let out = check(
        tmp.path(),
        "bots/unflushed",
        &[
            "--games",
            "1",
            "--reply-ms",
            "100",
            "--first-reply-ms",
            "200",
        ],
    );
    assert!(!out.status.success());
    let shown = text(&out.stdout);
    assert!(
        shown.contains("it may not be flushing its output"),
        "{shown}"
    );
    assert!(shown.contains("ms of CPU time"), "{shown}");
    assert!(shown.contains("flush=True"), "{shown}");
    assert!(
        started.elapsed() < std::time::Duration::from_secs(30),
        "{:?}",
        started.elapsed()
    );
}

/// Row "launch without a shebang": refused before any game, in plain words, without colour
/// codes in a pipe.
#[test]
fn a_launch_without_a_shebang_is_refused_in_plain_words() {
    let tmp = arena(&[]);
    write_launch(tmp.path(), "noshebang", "echo hello\nread x\necho 1\n");
    let out = check(tmp.path(), "bots/noshebang", &["--games", "1"]);
    assert!(!out.status.success());
    let all = said(&out);
    assert!(
        all.contains("noshebang did not play: launch has no '#!' first line"),
        "{all}"
    );
    assert!(all.contains("#!/usr/bin/env python3"), "{all}");
    assert!(!all.contains('\u{1b}'), "colour codes in a pipe: {all:?}");
}

/// Row "a shebang naming a pyenv shim in the home folder": check says the sandbox hides it
/// and which folders it shows (or, without a sandbox, that the interpreter does not exist).
#[test]
fn an_interpreter_in_a_home_folder_is_said_to_be_outside_the_sandbox() {
    let tmp = arena(&[]);
    write_launch(
        tmp.path(),
        "pyenv",
        "#!/root/.pyenv/shims/python3\nprint(1)\n",
    );
    let out = check(tmp.path(), "bots/pyenv", &["--games", "1"]);
    assert!(!out.status.success());
    let all = said(&out);
    if sandboxed_here() {
        assert!(all.contains("is not inside the sandbox"), "{all}");
        assert!(
            all.contains("/usr") && all.contains("home folders are hidden"),
            "{all}"
        );
    } else {
        assert!(
            all.contains("/root/.pyenv/shims/python3 of launch's '#!' line does not exist"),
            "{all}"
        );
    }
}

/// Row "launch with Windows line endings": said, with the command that fixes it.
#[test]
fn a_launch_with_windows_line_endings_is_said_with_the_fix() {
    let tmp = arena(&[]);
    write_launch(tmp.path(), "crlf", "#!/bin/sh\r\nread x\r\necho 1\r\n");
    let out = check(tmp.path(), "bots/crlf", &["--games", "1"]);
    assert!(!out.status.success());
    let all = said(&out);
    assert!(all.contains("launch has Windows line endings"), "{all}");
    assert!(all.contains("sed -i 's/\\r$//' launch"), "{all}");
}

/// Row "a bot that faults in every game": `run` says so once, with the log's path, as it
/// happens; the summary names the log; `check` shows the bot's stderr inline.
#[test]
fn a_bot_that_faults_in_every_game_is_said_once_with_its_log() {
    let tmp = arena(&["crash-at-start", "first"]);
    let out = run(tmp.path(), &["--games", "3"]);
    assert_ok(&out);
    let stderr = text(&out.stderr);
    let lines: Vec<&str> = stderr
        .lines()
        .filter(|l| l.starts_with("take6: crash-at-start faulted in game"))
        .collect();
    assert_eq!(lines.len(), 1, "once per bot per series: {stderr}");
    assert!(
        lines[0].contains("logs/crash-at-start.games.log") && lines[0].contains("(exited"),
        "{stderr}"
    );
    let stdout = text(&out.stdout);
    assert!(
        stdout.contains("crash-at-start: 3 faults in ")
            && stdout.contains("logs/crash-at-start.games.log"),
        "{stdout}"
    );
    assert!(!stderr.contains("first faulted"), "{stderr}");

    let out = check(tmp.path(), "bots/crash-at-start", &["--games", "1"]);
    assert!(!out.status.success());
    let shown = text(&out.stdout);
    assert!(shown.contains("its stderr in that game"), "{shown}");
    assert!(
        shown.contains("| crash-at-start: deliberately crashing before reading anything"),
        "{shown}"
    );
    assert!(shown.contains("logs/crash-at-start.games.log"), "{shown}");
}

/// Row "`run --bots mybots/mybot` (the bot folder itself)": a series of that bot against
/// built-ins, said so on the start line.
#[test]
fn bots_may_name_one_bot_folder() {
    let tmp = tempfile::tempdir().unwrap();
    copy_dir(&fixtures().join("first"), &tmp.path().join("mybots/mybot"));
    let out = run(tmp.path(), &["--bots", "mybots/mybot", "--games", "2"]);
    assert_ok(&out);
    let stderr = text(&out.stderr);
    assert!(
        stderr.contains("the bot folder mybots/mybot (one bot against built-ins) + 3 built-ins"),
        "{stderr}"
    );
    for g in games(tmp.path()) {
        assert!(g.players.contains(&"mybot".to_string()), "{:?}", g.players);
    }
}

/// Row "`check nonexistent`": "does not exist", and nothing of a temporary folder.
#[test]
fn check_of_a_missing_path_says_it_does_not_exist() {
    let tmp = arena(&[]);
    let out = check(tmp.path(), "nonexistent", &[]);
    assert!(!out.status.success());
    let all = said(&out);
    assert!(all.contains("nonexistent does not exist"), "{all}");
    assert!(!all.contains("take6-check-"), "{all}");
    // A file is not a folder, and a folder of nothing is not a bot.
    let out = check(tmp.path(), "bots/../bots", &[]);
    assert!(said(&out).contains("is not a bot folder"), "{}", said(&out));
    fs::write(tmp.path().join("notes.txt"), "x").unwrap();
    let out = check(tmp.path(), "notes.txt", &[]);
    assert!(
        said(&out).contains("notes.txt is a file, not a folder"),
        "{}",
        said(&out)
    );
    // The other commands that take a path say the same of a missing one.
    for args in [
        &["verify", "nowhere"][..],
        &["leaderboard", "nowhere"],
        &["run", "--resume", "nowhere"],
        &["run", "--config", "nowhere"],
    ] {
        let out = take6(tmp.path(), args);
        assert!(!out.status.success());
        assert!(
            said(&out).contains("nowhere does not exist"),
            "{args:?}: {}",
            said(&out)
        );
    }
    // A launch that is not an executable file is said with the fix.
    copy_dir(
        &fixtures().join("not-executable"),
        &tmp.path().join("bots/not-executable"),
    );
    let out = check(tmp.path(), "bots/not-executable", &["--games", "1"]);
    assert!(
        said(&out).contains("'launch' is not an executable file (chmod +x launch)"),
        "{}",
        said(&out)
    );
}

/// Row "an invalid bot.toml": the error shows the offending line and a caret under it.
#[test]
fn an_invalid_bot_toml_shows_its_line() {
    let tmp = arena(&["first"]);
    copy_dir(&fixtures().join("first"), &tmp.path().join("bots/badtoml"));
    fs::write(
        tmp.path().join("bots/badtoml/bot.toml"),
        "template = \"default\"\ntemplate = 3\n",
    )
    .unwrap();
    let out = run(tmp.path(), &["--games", "1", "--allow-skips"]);
    assert_ok(&out);
    let stderr = text(&out.stderr);
    assert!(
        stderr.contains("bot.toml is not valid") && stderr.contains("line 2, column 1"),
        "{stderr}"
    );
    assert!(stderr.contains("  2 | template = 3\n"), "{stderr}");
    assert!(stderr.contains("    | ^^^^^^^^"), "{stderr}");
    // The message names every game a bot.toml's `games` may give.
    assert!(
        stderr.contains("games = [\"take6\", \"kingdomino\", or a game folder's name"),
        "{stderr}"
    );
}

/// Row "`play --help`": only play's flags, its own default for --games; and no default is
/// printed twice by leaderboard, verify or merge.
#[test]
fn each_help_lists_its_own_flags_and_each_default_once() {
    let tmp = arena(&[]);
    let out = take6(tmp.path(), &["play", "--help"]);
    assert_ok(&out);
    let help = text(&out.stdout);
    for flag in [
        "--resume",
        "--shard",
        "--record",
        "--builtins-only",
        "--jobs",
        "--schedule",
        "--until-separated",
        "--allow-skips",
    ] {
        assert!(
            !help.lines().any(|l| l.trim_start().starts_with(flag)),
            "play --help lists {flag}:\n{help}"
        );
    }
    let games = help.split("--games <N>").nth(1).unwrap_or_default();
    assert!(
        games
            .split("--")
            .next()
            .unwrap_or_default()
            .contains("[default: 1]"),
        "{help}"
    );
    assert!(
        help.contains("--name") && help.contains("--against"),
        "{help}"
    );
    let run_help = text(&take6(tmp.path(), &["run", "--help"]).stdout);
    assert!(
        run_help.contains("--allow-skips") && run_help.contains("--resume"),
        "{run_help}"
    );
    for command in ["leaderboard", "verify", "merge"] {
        let help = text(&take6(tmp.path(), &[command, "--help"]).stdout);
        for default in ["[default: results/latest]", "[default: results]"] {
            assert!(
                help.matches(default).count() <= 1,
                "{command} --help says {default} twice:\n{help}"
            );
        }
    }
}

/// Row "playing as a person": why an answer is refused, the hand sorted, Ctrl-D named and
/// recorded as leaving, no "you are you", and the table's real size in series.toml.
#[test]
fn a_person_is_told_why_and_leaving_is_recorded_as_such() {
    let tmp = arena(&["first"]);
    let mut child = take6_cmd(tmp.path())
        .args(["play", "--seed", "5", "--against", "first", "gap", "gap"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    // Two refused answers, then the end of input: the person leaves in turn 1.
    let mut stdin = child.stdin.take().unwrap();
    stdin.write_all(b"999\nabc\n").unwrap();
    drop(stdin);
    let out = child.wait_with_output().unwrap();
    assert_ok(&out);
    let stdout = text(&out.stdout);
    let g = &games_of(&played(tmp.path()))[0];
    let me = g.players.iter().position(|p| p == "you").unwrap();
    let mut hand = g.rounds[0].hands[me].clone();
    hand.sort_unstable();
    let listed = hand
        .iter()
        .map(ToString::to_string)
        .collect::<Vec<_>>()
        .join(" ");
    assert!(
        stdout.contains(&format!("'999' is not in your hand; type one of {listed}")),
        "{stdout}"
    );
    assert!(stdout.contains("'abc' is not a card number"), "{stdout}");
    // The hand as shown: sorted.
    let shown: Vec<u32> = stdout
        .lines()
        .find_map(|l| l.trim().strip_prefix("your hand: "))
        .unwrap()
        .split(' ')
        .map(|c| c.split('(').next().unwrap().parse().unwrap())
        .collect();
    let mut sorted = shown.clone();
    sorted.sort_unstable();
    assert_eq!(shown, sorted);
    assert!(stdout.contains("Ctrl-D leaves the game"), "{stdout}");
    assert!(!stdout.contains("you are you"), "{stdout}");
    assert!(stdout.contains("New game at a table of 4"), "{stdout}");
    assert_eq!(g.rounds[0].invalid.len(), 1, "{:?}", g.rounds[0].invalid);
    assert_eq!(
        (
            g.rounds[0].invalid[0].seat,
            g.rounds[0].invalid[0].kind.as_str()
        ),
        (me, "left")
    );
    assert!(
        g.rounds[0].invalid[0].reason.contains("Ctrl-D"),
        "{:?}",
        g.rounds[0].invalid[0]
    );
    let manifest = fs::read_to_string(played(tmp.path()).join("series.toml")).unwrap();
    assert!(manifest.contains("\nplayers = 4\n"), "{manifest}");
    // A name of one's own is said once.
    let out = take6_cmd(tmp.path())
        .args(["play", "--seed", "5", "--name", "ann", "--against", "gap"])
        .stdin(Stdio::null())
        .output()
        .unwrap();
    assert_ok(&out);
    assert!(
        text(&out.stdout).contains("(you are ann)"),
        "{}",
        text(&out.stdout)
    );
}

/// Row "reading output": counts of one in the singular; a run that skipped a bot exits 3
/// unless --allow-skips.
#[test]
fn counts_are_singular_for_one_and_skips_exit_non_zero() {
    let tmp = arena(&["first"]);
    let out = run(tmp.path(), &["--games", "4", "--duplicate", "--seed", "3"]);
    assert_ok(&out);
    assert!(
        text(&out.stderr).contains("duplicate deals: 1 deal x 4 rotations"),
        "{}",
        text(&out.stderr)
    );
    let out = run(tmp.path(), &["--games", "1"]);
    assert_ok(&out);
    assert!(
        text(&out.stdout).contains("1 of 1 game played"),
        "{}",
        text(&out.stdout)
    );
    let out = take6(tmp.path(), &["verify"]);
    assert_ok(&out);
    assert!(
        text(&out.stdout).contains(": 1 game verified:"),
        "{}",
        text(&out.stdout)
    );

    // Three of four bots skipped: the games are played, and the exit status says so.
    for bad in ["no-launch", "not-executable", "build-fails"] {
        copy_dir(&fixtures().join(bad), &tmp.path().join("bots").join(bad));
    }
    let out = run(tmp.path(), &["--games", "1"]);
    assert_eq!(out.status.code(), Some(3), "{}", said(&out));
    let stderr = text(&out.stderr);
    assert!(
        stderr.contains("3 bots were skipped") && stderr.contains("--allow-skips"),
        "{stderr}"
    );
    assert_eq!(games(tmp.path()).len(), 1);
    let out = run(tmp.path(), &["--games", "1", "--allow-skips"]);
    assert_ok(&out);
    fs::write(tmp.path().join("take6.toml"), "allow_skips = true\n").unwrap();
    let out = run(tmp.path(), &["--games", "1"]);
    assert_ok(&out);
}

/// The sample bots are never skipped, so `cargo run --release -- run` exits 0.
#[test]
fn the_sample_bots_play_without_a_skip() {
    let tmp = tempfile::tempdir().unwrap();
    common::copy_samples(&tmp.path().join("bots"));
    // A bot of the user's own beside the samples in the repository's bots/ changes nothing.
    let out = run(tmp.path(), &["--games", "1"]);
    assert_ok(&out);
    assert!(
        !text(&out.stderr).contains("skipped"),
        "{}",
        text(&out.stderr)
    );
}

/// A run its settings refuse (five bots, one game at tables of four) is refused
/// before any bot is copied or built: no sandbox line, no build, no series folder left.
#[test]
fn settings_that_cannot_seat_the_bots_are_refused_before_any_build() {
    let tmp = arena(&["first", "lowest"]);
    for name in ["a", "b", "c"] {
        // A build that would leave its mark in the working copy (and take a while).
        write_launch(tmp.path(), name, "#!/bin/sh\nexec cat >/dev/null\n");
        let build = tmp.path().join("bots").join(name).join("build");
        fs::write(&build, "#!/bin/sh\nsleep 5\ntouch built\n").unwrap();
        fs::set_permissions(&build, fs::Permissions::from_mode(0o755)).unwrap();
    }
    let started = std::time::Instant::now();
    let out = run(tmp.path(), &["--games", "1"]);
    assert_eq!(out.status.code(), Some(1), "{}", said(&out));
    let stderr = text(&out.stderr);
    assert!(
        stderr.contains("--games 1 is too few for 5 bots at tables of 4"),
        "{stderr}"
    );
    assert!(
        !stderr.contains("sandbox"),
        "nothing prepared first: {stderr}"
    );
    assert_eq!(stderr.lines().count(), 1, "one line, the refusal: {stderr}");
    assert!(
        started.elapsed() < std::time::Duration::from_secs(4),
        "no build ran"
    );
    let left: Vec<_> = fs::read_dir(tmp.path().join("results"))
        .map(|d| d.flatten().map(|e| e.file_name()).collect())
        .unwrap_or_default();
    assert!(left.is_empty(), "no series folder kept: {left:?}");
}

/// Under the CPU clock a bot that sleeps before each reply passes, but an arena that
/// times wall-clock time would fail it: check warns, naming its longest reply and the limit,
/// and still passes it. A bot that replies at once gets no warning.
#[test]
fn check_warns_of_replies_an_arenas_wall_clock_would_time_out() {
    let tmp = arena(&["sleepy"]);
    // Sleeps 0.4 s before each reply, against a limit of 200 ms of CPU time.
    fs::write(tmp.path().join("bots/sleepy/sleep-s"), "0.4").unwrap();
    let out = check(
        tmp.path(),
        "bots/sleepy",
        &[
            "--games",
            "1",
            "--reply-ms",
            "200",
            "--first-reply-ms",
            "5000",
        ],
    );
    assert_ok(&out);
    let all = said(&out);
    assert!(
        all.contains("WARNING: a later reply took ")
            && all.contains("ms of wall-clock time and ")
            && all.contains("ms of CPU time (limit 200 ms)")
            && all.contains("would time these replies out"),
        "{all}"
    );
    assert!(all.contains("OK: no fault in 1 game."), "{all}");

    fs::write(tmp.path().join("bots/sleepy/sleep-s"), "0").unwrap();
    let out = check(
        tmp.path(),
        "bots/sleepy",
        &[
            "--games",
            "1",
            "--reply-ms",
            "2000",
            "--first-reply-ms",
            "10000",
        ],
    );
    assert_ok(&out);
    assert!(!said(&out).contains("WARNING"), "{}", said(&out));
}
