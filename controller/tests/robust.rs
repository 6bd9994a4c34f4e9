//! What a newcomer's probe found on the way: a working copy thousands of folders deep
//! is copied back out of its disk image at the end of the series, and by `--resume` after a
//! `kill -9`, by descriptors (its paths pass the kernel's 4,096 bytes). After a
//! Ctrl-C (the copy back done, the working copy a plain folder 2,500 deep), `--resume` works,
//! and `take6 clean` measures and removes such a series.

#[path = "hostile/checks.rs"]
mod checks;
mod common;
#[path = "hostile/zoo.rs"]
mod zoo;

use std::ffi::OsStr;
use std::fs::File;
use std::io::Read;
use std::path::Path;

use nix::fcntl::{OFlag, openat};
use nix::sys::stat::Mode;

/// The file at the bottom of the 2,500 folders under `root`, read by descriptors.
fn bottom(root: &Path) -> String {
    let flags = OFlag::O_RDONLY | OFlag::O_DIRECTORY | OFlag::O_NOFOLLOW;
    let mut dir = openat(nix::fcntl::AT_FDCWD, root, flags, Mode::empty()).unwrap();
    for _ in 0..2500 {
        dir = openat(&dir, OsStr::new("d"), flags, Mode::empty()).unwrap();
    }
    let file = openat(&dir, "bottom.txt", OFlag::O_RDONLY, Mode::empty()).unwrap();
    let mut text = String::new();
    File::from(file).read_to_string(&mut text).unwrap();
    text
}

#[test]
fn a_working_copy_2500_folders_deep_is_copied_back_out_of_its_image() {
    if !zoo::sandbox_available("deep") {
        return;
    }
    let zoo = zoo::Zoo::new("deep", &["hostile-deep"]);
    let before = checks::snapshot(&zoo.bots(), &[]);
    let out = zoo.run("strict", &["--games", "2"]);
    checks::assert_no_effect(&zoo, &out, "hostile-deep", 2, &before);
    checks::assert_clean(&zoo, "hostile-deep");
    // The FIFO it made is left out with a warning, in plain text: stderr is a pipe here.
    let stderr = zoo::text(&out.stderr);
    assert!(
        stderr.contains("'pipe' is a FIFO (named pipe); left out"),
        "{stderr}"
    );
    assert!(
        !stderr.contains('\u{1b}'),
        "colour codes in a pipe: {stderr:?}"
    );
    assert_eq!(bottom(&zoo.work("hostile-deep")), "2500 deep\n");
    let images = zoo.series().join("work/.images");
    let left: Vec<_> = std::fs::read_dir(&images)
        .map(|d| d.flatten().map(|e| e.file_name()).collect())
        .unwrap_or_default();
    assert!(left.is_empty(), "images left: {left:?}");
}

/// Starts a slow series of 6 games (the honest bot thinks 300 ms a reply) beside
/// `hostile-deep` and returns once its first game is recorded.
fn start_slow_series(zoo: &zoo::Zoo) -> std::process::Child {
    zoo.honest_thinks(300, 10);
    let child = std::process::Command::new(assert_cmd::cargo::cargo_bin("take6"))
        .current_dir(zoo.dir())
        .args([
            "run",
            "--games",
            "6",
            "--jobs",
            "1",
            "--seed",
            "7",
            "--sandbox",
            "strict",
        ])
        .args(["--first-reply-ms", "5000", "--reply-ms", "2000"])
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .spawn()
        .unwrap();
    let games = zoo.dir().join("results/latest/games.jsonl");
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(60);
    while std::fs::read_to_string(&games).map_or(0, |t| t.lines().count()) < 1 {
        assert!(std::time::Instant::now() < deadline, "no game finished");
        std::thread::sleep(std::time::Duration::from_millis(50));
    }
    child
}

fn resume(zoo: &zoo::Zoo) -> std::process::Output {
    assert_cmd::Command::cargo_bin("take6")
        .unwrap()
        .current_dir(zoo.dir())
        .args(["run", "--resume"])
        .timeout(std::time::Duration::from_secs(120))
        .output()
        .unwrap()
}

#[test]
fn a_working_copy_2500_folders_deep_left_in_its_image_by_kill_9_comes_back_at_resume() {
    if !zoo::sandbox_available("deep-resume") {
        return;
    }
    let zoo = zoo::Zoo::new("deep-resume", &["hostile-deep"]);
    let mut child = start_slow_series(&zoo);
    child.kill().unwrap();
    child.wait().unwrap();
    let series = zoo.series();
    let image = series.join("work/.images/hostile-deep.ext4");
    if !image.is_file() {
        common::skipped("deep-resume: no disk cap here (the working copy is a plain folder)");
        return;
    }
    let out = resume(&zoo);
    zoo::assert_ok(&out);
    assert_eq!(bottom(&zoo.work("hostile-deep")), "2500 deep\n");
    assert!(!image.exists(), "the image stayed");
    zoo.assert_no_process_left();
}

#[test]
fn a_working_copy_2500_folders_deep_after_ctrl_c_is_resumed_and_verifies() {
    if !zoo::sandbox_available("deep-sigint") {
        return;
    }
    let zoo = zoo::Zoo::new("deep-sigint", &["hostile-deep"]);
    let child = start_slow_series(&zoo);
    // Ctrl-C: the series stops, copying the working copy back into a plain folder 2,500 deep.
    nix::sys::signal::kill(
        nix::unistd::Pid::from_raw(child.id() as i32),
        nix::sys::signal::Signal::SIGINT,
    )
    .unwrap();
    let stopped = child.wait_with_output().unwrap();
    assert!(!stopped.status.success(), "the stopped series says so");
    let series = zoo.series();
    assert_eq!(bottom(&zoo.work("hostile-deep")), "2500 deep\n");
    let played = |s: &Path| {
        std::fs::read_to_string(s.join("games.jsonl"))
            .unwrap()
            .lines()
            .count()
    };
    assert!(played(&series) < 6, "the Ctrl-C came mid-series");

    let out = resume(&zoo);
    zoo::assert_ok(&out);
    assert_eq!(played(&series), 6, "{}", zoo::text(&out.stderr));
    assert_eq!(bottom(&zoo.work("hostile-deep")), "2500 deep\n");
    assert!(
        !series.join("work/.images/hostile-deep.ext4").exists(),
        "the image stayed"
    );
    // The other commands that read a series with such a working copy.
    for args in [&["verify"][..], &["leaderboard"]] {
        let out = assert_cmd::Command::cargo_bin("take6")
            .unwrap()
            .current_dir(zoo.dir())
            .args(args)
            .timeout(std::time::Duration::from_secs(60))
            .output()
            .unwrap();
        assert!(
            !zoo::text(&out.stderr).contains("File name too long"),
            "{args:?}: {}",
            zoo::text(&out.stderr)
        );
    }
    zoo.assert_no_process_left();
}

/// A chain of 2,500 folders named `d` under `root`, made by descriptors (its path is too long
/// for one call), with `bytes` in a file at the bottom.
fn make_deep(root: &Path, bytes: usize) {
    use nix::sys::stat::mkdirat;
    let flags = OFlag::O_RDONLY | OFlag::O_DIRECTORY | OFlag::O_NOFOLLOW;
    let mut dir = openat(nix::fcntl::AT_FDCWD, root, flags, Mode::empty()).unwrap();
    for _ in 0..2500 {
        mkdirat(&dir, "d", Mode::from_bits_truncate(0o755)).unwrap();
        dir = openat(&dir, OsStr::new("d"), flags, Mode::empty()).unwrap();
    }
    let file = openat(
        &dir,
        "bottom.bin",
        OFlag::O_WRONLY | OFlag::O_CREAT,
        Mode::from_bits_truncate(0o644),
    )
    .unwrap();
    std::io::Write::write_all(&mut File::from(file), &vec![7u8; bytes]).unwrap();
}

/// `take6 clean` removes a series whose working copy is 2,500 folders deep with 256
/// descriptors at most (one per level ran out of them), and counts the bytes at its bottom
/// (walking by paths found none past the kernel's 4,096 bytes).
#[test]
fn take6_clean_removes_a_series_whose_working_copy_is_2500_folders_deep() {
    let tmp = tempfile::tempdir().unwrap();
    common::copy_dir(
        &common::fixtures().join("first"),
        &tmp.path().join("bots/first"),
    );
    for _ in 0..2 {
        let out = std::process::Command::new(assert_cmd::cargo::cargo_bin("take6"))
            .current_dir(tmp.path())
            .args([
                "run",
                "--games",
                "1",
                "--sandbox",
                "none",
                "--reply-ms",
                "5000",
            ])
            .output()
            .unwrap();
        common::assert_ok(&out);
    }
    let results = tmp.path().join("results");
    let latest = std::fs::canonicalize(results.join("latest")).unwrap();
    let old = std::fs::read_dir(&results)
        .unwrap()
        .flatten()
        .map(|e| e.path())
        .find(|p| p.join("series.toml").is_file() && std::fs::canonicalize(p).unwrap() != latest)
        .expect("the older series");
    make_deep(&old.join("work/first"), 3 << 20);
    let clean = |args: &str| {
        std::process::Command::new("sh")
            .current_dir(tmp.path())
            .arg("-c")
            .arg(format!(
                "ulimit -n 256 && exec \"$0\" clean --keep 0 --series {args}"
            ))
            .arg(assert_cmd::cargo::cargo_bin("take6"))
            .output()
            .unwrap()
    };
    let out = clean("--dry-run");
    common::assert_ok(&out);
    let said = common::text(&out.stdout);
    // The size a line says, in MiB (`… (3.2 MiB)`, `… freed 3.2 MiB`).
    let mib = |line: &str| -> f64 {
        let end = line
            .rfind(" MiB")
            .unwrap_or_else(|| panic!("no MiB: {line}"));
        line[..end]
            .rsplit([' ', '('])
            .next()
            .unwrap()
            .parse()
            .unwrap()
    };
    let listed = said
        .lines()
        .find(|l| l.starts_with("would remove "))
        .unwrap_or_else(|| panic!("{said}"));
    assert!(mib(listed) >= 3.0, "the bottom's 3 MiB not counted: {said}");
    let out = clean("");
    common::assert_ok(&out);
    let said = common::text(&out.stdout);
    let freed = said
        .lines()
        .find(|l| l.starts_with("removed 1 folder, freed "))
        .unwrap_or_else(|| panic!("{said}"));
    assert!(mib(freed) >= 3.0, "{said}");
    assert!(!old.exists(), "{} is left", old.display());
    assert!(latest.join("series.toml").is_file(), "latest is kept");
}
