//! The real `take6` binary on input that must never hang or break it: special files, big and
//! sparse bot folders, templates that do too much work, unprintable names, absurd settings,
//! and the stop signals while a build hangs or the controller is stuck writing its output.

mod common;

use common::{series_cmd, series_dir, take6_cmd, text};

use std::fs;
use std::io::Read;
use std::os::unix::fs::{FileExt, MetadataExt, PermissionsExt};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Output, Stdio};
use std::time::{Duration, Instant};

use nix::sys::signal::{Signal, kill};
use nix::unistd::Pid;
use take6::record::read_games_jsonl;
use tempfile::TempDir;

/// How long any run here may take before the test gives up on it: only a hang gets near it.
const HANG: Duration = Duration::from_secs(120);

fn fixtures() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/bots")
}

/// A bot folder at `bots/<name>` that plays as the `first` fixture.
fn first_bot(dir: &Path, name: &str) -> PathBuf {
    let bot = dir.join("bots").join(name);
    fs::create_dir_all(&bot).unwrap();
    fs::copy(fixtures().join("first/launch"), bot.join("launch")).unwrap();
    fs::set_permissions(bot.join("launch"), fs::Permissions::from_mode(0o755)).unwrap();
    bot
}

fn series_command(dir: &Path, args: &[&str]) -> Command {
    let mut command = series_cmd(dir, 5_000, 2_000);
    command.args(args);
    command
}

/// Waits for `child` to end, killing it and failing the test if it hangs.
fn wait_or_fail(mut child: Child) -> std::process::ExitStatus {
    let deadline = Instant::now() + HANG;
    loop {
        if let Some(status) = child.try_wait().unwrap() {
            return status;
        }
        if Instant::now() > deadline {
            let _ = child.kill();
            panic!("take6 hung");
        }
        std::thread::sleep(Duration::from_millis(20));
    }
}

/// Runs `take6 run` in `dir` with `args`, failing the test if it hangs.
fn run_series(dir: &Path, args: &[&str]) -> Output {
    let mut child = series_command(dir, args)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    // Read both pipes on threads so that a full pipe never stalls the controller.
    let mut out = child.stdout.take().unwrap();
    let mut err = child.stderr.take().unwrap();
    let out = std::thread::spawn(move || {
        let mut v = Vec::new();
        out.read_to_end(&mut v).unwrap();
        v
    });
    let err = std::thread::spawn(move || {
        let mut v = Vec::new();
        err.read_to_end(&mut v).unwrap();
        v
    });
    let status = wait_or_fail(child);
    Output {
        status,
        stdout: out.join().unwrap(),
        stderr: err.join().unwrap(),
    }
}

/// The line of stderr saying why `bot` was skipped.
fn skip_line(stderr: &str, bot: &str) -> String {
    stderr
        .lines()
        .find(|l| l.contains(&format!("bots/{bot}: skipped:")))
        .unwrap_or_else(|| panic!("no skip line for {bot}:\n{stderr}"))
        .to_string()
}

/// Pids of the processes whose arguments include `marker`.
fn with_marker(marker: &str) -> Vec<String> {
    fs::read_dir("/proc")
        .unwrap()
        .flatten()
        .filter(|p| {
            fs::read(p.path().join("cmdline"))
                .is_ok_and(|c| c.split(|&b| b == 0).any(|arg| arg == marker.as_bytes()))
        })
        .map(|p| p.file_name().to_string_lossy().into_owned())
        .collect()
}

/// Polls `done` until it holds, failing the test if it never does.
fn wait_until(what: &str, mut done: impl FnMut() -> bool) {
    let deadline = Instant::now() + HANG;
    while !done() {
        assert!(Instant::now() < deadline, "never: {what}");
        std::thread::sleep(Duration::from_millis(20));
    }
}

#[test]
fn special_files_big_folders_and_unprintable_names_skip_their_bots_and_sparse_files_stay_sparse() {
    let tmp = tempfile::tempdir().unwrap();
    first_bot(tmp.path(), "first");
    for n in 1..=3 {
        let bot = first_bot(tmp.path(), &format!("fifo{n}"));
        fs::create_dir_all(bot.join("data")).unwrap();
        nix::unistd::mkfifo(&bot.join("data/in"), nix::sys::stat::Mode::S_IRWXU).unwrap();
    }
    let big = first_bot(tmp.path(), "big");
    fs::write(big.join("weights"), vec![1u8; 3 << 20]).unwrap();
    first_bot(tmp.path(), "esc\x1b[2Jape");
    // 1 GiB long, a few KiB of data: within a 2 MiB limit.
    let sparse = first_bot(tmp.path(), "sparse");
    let file = fs::File::create(sparse.join("table")).unwrap();
    file.set_len(1 << 30).unwrap();
    file.write_all_at(b"data", 1 << 29).unwrap();

    let out = run_series(tmp.path(), &["--games", "2", "--max-bot-mib", "2"]);
    let stderr = text(&out.stderr);
    assert!(out.status.success(), "{stderr}");
    for n in 1..=3 {
        let line = skip_line(&stderr, &format!("fifo{n}"));
        assert!(line.contains("'data/in' is a FIFO"), "{line}");
    }
    let line = skip_line(&stderr, "big");
    assert!(
        line.contains("3.0 MiB") && line.contains("--max-bot-mib 2"),
        "{line}"
    );
    let line = skip_line(&stderr, "esc\\x1b[2Jape");
    assert!(line.contains("U+001B"), "{line}");
    assert!(
        !out.stderr.contains(&0x1b) && !out.stdout.contains(&0x1b),
        "no raw escape reaches the terminal"
    );
    let copy = series_dir(tmp.path()).join("work/sparse/table");
    let meta = fs::metadata(&copy).unwrap();
    assert_eq!(meta.len(), 1 << 30);
    assert!(
        meta.blocks() * 512 <= 1 << 20,
        "the working copy stays sparse"
    );
    let file = fs::File::open(series_dir(tmp.path()).join("games.jsonl")).unwrap();
    let games = read_games_jsonl(std::io::BufReader::new(file)).unwrap();
    assert_eq!(games.len(), 2);
    assert!(
        games
            .iter()
            .all(|g| g.players.contains(&"sparse".to_string()))
    );
}

/// A `turn` template that loops 10^10 times, only in real games when `when` holds.
fn spin_turn(when: &str) -> String {
    format!(
        "turn = \"\"\"\n{{% if {when} %}}{{% for i in range(100000) %}}{{% for j in range(100000) %}}\
         x{{% endfor %}}{{% endfor %}}{{% endif %}}count{{% for r in rows %}} {{{{ r.count }}}}\
         {{% endfor %}}\ntop{{% for r in rows %}} {{{{ r.top }}}}{{% endfor %}}\n\"\"\"\n"
    )
}

#[test]
fn templates_doing_too_much_work_are_refused_at_load_or_a_template_fault_mid_game() {
    let tmp = tempfile::tempdir().unwrap();
    first_bot(tmp.path(), "first");
    let always = first_bot(tmp.path(), "always");
    fs::write(always.join("template.toml"), spin_turn("true")).unwrap();
    // The sample views at load name their players bot0…bot9: only a real game spins.
    let later = first_bot(tmp.path(), "later");
    fs::write(later.join("template.toml"), spin_turn("\"later\" in names")).unwrap();

    let out = run_series(tmp.path(), &["--games", "2"]);
    let stderr = text(&out.stderr);
    assert!(out.status.success(), "{stderr}");
    let line = skip_line(&stderr, "always");
    assert!(
        line.contains("always/template.toml:2")
            && line.contains(&format!(
                "limit of {} steps",
                take6::games::take6::protocol::RENDER_FUEL
            )),
        "{line}"
    );
    let file = fs::File::open(series_dir(tmp.path()).join("games.jsonl")).unwrap();
    let games = read_games_jsonl(std::io::BufReader::new(file)).unwrap();
    assert_eq!(games.len(), 2);
    for g in &games {
        let seat = g.players.iter().position(|p| p == "later").unwrap();
        assert_eq!(g.rounds[0].invalid.len(), 1, "{:?}", g.rounds[0].invalid);
        let fault = &g.rounds[0].invalid[0];
        assert_eq!(
            (fault.seat, fault.turn, fault.kind.as_str()),
            (seat, 1, "template")
        );
        assert!(fault.reason.contains("too much work"), "{}", fault.reason);
    }
}

/// Starts a series whose only usable bot's build hangs (in a child process carrying `marker`),
/// beside three folders holding a FIFO, waits for the build to run, and sends `signals` to the
/// controller.
fn stop_during_a_hanging_build(marker: &str, signals: &[Signal]) -> (TempDir, i32) {
    let tmp = tempfile::tempdir().unwrap();
    for n in 1..=3 {
        let bot = first_bot(tmp.path(), &format!("fifo{n}"));
        nix::unistd::mkfifo(&bot.join("pipe"), nix::sys::stat::Mode::S_IRWXU).unwrap();
    }
    let bot = first_bot(tmp.path(), "builder");
    fs::write(
        bot.join("build"),
        format!("#!/bin/sh\nsleep {marker} &\nwait\n"),
    )
    .unwrap();
    fs::set_permissions(bot.join("build"), fs::Permissions::from_mode(0o755)).unwrap();
    let child = series_command(tmp.path(), &["--build-timeout-s", "3000"])
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    wait_until("the build runs", || !with_marker(marker).is_empty());
    let pid = Pid::from_raw(child.id() as i32);
    for &signal in signals {
        kill(pid, signal).unwrap();
    }
    let status = wait_or_fail(child);
    wait_until("the build is killed", || with_marker(marker).is_empty());
    (tmp, status.code().unwrap_or(-1))
}

#[test]
fn stop_signals_end_a_hanging_build_with_their_exit_codes() {
    let id = std::process::id();
    for (n, signal, code) in [
        (1, Signal::SIGTERM, 143),
        (2, Signal::SIGINT, 130),
        (3, Signal::SIGHUP, 129),
    ] {
        let marker = format!("3001.{id}{n}");
        let (tmp, status) = stop_during_a_hanging_build(&marker, &[signal]);
        assert_eq!(status, code, "{signal}");
        // Stopped before its first game: nothing is left to keep, and `latest` is untouched.
        assert!(!tmp.path().join("results/latest").exists(), "{signal}");
        let left = fs::read_dir(tmp.path().join("results")).map_or(0, |d| d.count());
        assert_eq!(left, 0, "{signal}: a series folder was left");
    }
}

/// A controller whose stderr nobody reads: it blocks writing the skip lines of 400 folders.
fn stuck_on_stderr(signals: &[Signal]) -> Option<i32> {
    let tmp = tempfile::tempdir().unwrap();
    first_bot(tmp.path(), "first");
    for n in 0..400 {
        fs::create_dir_all(tmp.path().join(format!("bots/{}{n}", "x".repeat(200)))).unwrap();
    }
    let mut child = series_command(tmp.path(), &["--games", "2"])
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let stderr = child.stderr.take().unwrap();
    let pid = child.id();
    wait_until("take6 blocks writing to stderr", || {
        let wchan = fs::read_to_string(format!("/proc/{pid}/wchan")).unwrap_or_default();
        let syscall = fs::read_to_string(format!("/proc/{pid}/syscall")).unwrap_or_default();
        wchan.contains("pipe_write") || syscall.starts_with("1 0x2 ")
    });
    for (n, &signal) in signals.iter().enumerate() {
        if n > 0 {
            // Signals that arrive together are one request (take6::signals::TOGETHER).
            std::thread::sleep(std::time::Duration::from_millis(800));
        }
        kill(Pid::from_raw(pid as i32), signal).unwrap();
    }
    let status = wait_or_fail(child);
    drop(stderr);
    status.code()
}

#[test]
fn a_controller_stuck_writing_its_output_still_stops_at_a_signal_and_at_once_at_a_second() {
    // The clean stop cannot get through; the process exits anyway, a few seconds later.
    assert_eq!(stuck_on_stderr(&[Signal::SIGTERM]), Some(143));
    // A second Ctrl-C does not wait.
    assert_eq!(
        stuck_on_stderr(&[Signal::SIGINT, Signal::SIGINT]),
        Some(130)
    );
}

#[test]
fn absurd_numbers_are_refused_naming_the_flag_or_key_its_range_and_the_value() {
    let tmp = tempfile::tempdir().unwrap();
    first_bot(tmp.path(), "first");
    for (args, expect) in [
        (
            &["--games", "18446744073709551615"][..],
            "--games 18446744073709551615 is out of range: use a value from 1 to 100000000",
        ),
        (
            &["--memory-mib", "17592186044416"],
            "--memory-mib 17592186044416 is out of range: use a value from 16 to 1048576",
        ),
        (
            &["--jobs", "99999999999"],
            "--jobs 99999999999 is out of range: use a value from 1 to 1024",
        ),
    ] {
        let out = run_series(tmp.path(), args);
        assert_eq!(out.status.code(), Some(1));
        assert!(text(&out.stderr).contains(expect), "{}", text(&out.stderr));
    }
    fs::write(tmp.path().join("take6.toml"), "jobs = 100000\n").unwrap();
    let out = take6_cmd(tmp.path()).args(["run"]).output().unwrap();
    assert_eq!(out.status.code(), Some(1));
    let stderr = text(&out.stderr);
    assert!(
        stderr.contains("jobs = 100000 in take6.toml is out of range: use a value from 1 to 1024"),
        "{stderr}"
    );
    assert!(!tmp.path().join("results").exists(), "nothing was started");
}

#[test]
fn limits_beyond_what_the_machine_has_are_refused_before_any_bot_is_skipped() {
    // 16 TiB of disk per bot passes the range; the machine cannot give it, and the run is refused
    // before any bot is skipped with "File too large". The same for more memory than the machine has.
    let tmp = tempfile::tempdir().unwrap();
    first_bot(tmp.path(), "first");
    for (args, expect) in [
        (["--disk-mib", "16777216"], "MiB free"),
        (["--memory-mib", "1048576"], "MiB of memory"),
    ] {
        let out = series_command(tmp.path(), &args).output().unwrap();
        assert!(!out.status.success(), "{args:?}");
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert!(
            stderr.contains(args[0]) && stderr.contains(expect) && stderr.contains("use at most"),
            "{stderr}"
        );
        assert!(
            !tmp.path().join("results").exists(),
            "{args:?}: a folder was made"
        );
    }
}
