//! The disk a run writes on, made small for the test (an ext4 file system in a loop-mounted
//! file): a run that cannot fit is refused before it copies anything, naming what it needs,
//! what is free and the ways out; a disk that fills while the games are played stops the run
//! cleanly (exit status 4), every finished game kept, and `--resume` plays the rest once there
//! is room. Each needs root and loop devices; elsewhere the test says it skipped.

mod common;

use std::fs;
use std::os::unix::fs::PermissionsExt;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};
use std::time::{Duration, Instant};

use common::{take6_cmd, text};

/// An ext4 file system of a few MiB mounted on a scratch folder, unmounted when dropped.
struct SmallDisk {
    tmp: tempfile::TempDir,
    mounted: PathBuf,
}

impl SmallDisk {
    /// `mib` MiB, or `None` (said skipped) where this machine cannot make one.
    fn new(mib: u64, test: &str) -> Option<SmallDisk> {
        let tmp = tempfile::tempdir().unwrap();
        let (image, mounted) = (tmp.path().join("disk.ext4"), tmp.path().join("disk"));
        fs::create_dir(&mounted).unwrap();
        fs::File::create(&image)
            .unwrap()
            .set_len(mib << 20)
            .unwrap();
        let made = nix::unistd::geteuid().is_root()
            && run_ok(Command::new("mkfs.ext4").args(["-q", "-F"]).arg(&image))
            && run_ok(
                Command::new("mount")
                    .args(["-o", "loop"])
                    .arg(&image)
                    .arg(&mounted),
            );
        if !made {
            common::skipped(&format!(
                "{test}: cannot make a small file system here (root, e2fsprogs and loop devices)"
            ));
            return None;
        }
        Some(SmallDisk { tmp, mounted })
    }

    /// The mounted file system's folder.
    fn path(&self) -> &Path {
        &self.mounted
    }

    /// Fills the file system to the last block with a file of its own.
    fn fill(&self) {
        use std::io::Write;
        let mut file = fs::File::create(self.mounted.join("filler")).unwrap();
        let block = vec![0x5a; 1 << 16];
        while file.write_all(&block).is_ok() {}
        let _ = file.sync_all();
        while file.write_all(&block[..4096]).is_ok() {}
        let _ = file.sync_all();
    }

    /// Frees what [`SmallDisk::fill`] took.
    fn free(&self) {
        fs::remove_file(self.mounted.join("filler")).unwrap();
    }
}

impl Drop for SmallDisk {
    fn drop(&mut self) {
        let _ = Command::new("umount").arg("-l").arg(&self.mounted).status();
        let _ = self.tmp.path();
    }
}

/// Whether `command` ran and succeeded.
fn run_ok(command: &mut Command) -> bool {
    command
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .status()
        .is_ok_and(|s| s.success())
}

/// `n` copies of the strict `patient` bot in `dir/bots`.
fn patients(dir: &Path, n: usize) {
    for i in 0..n {
        let bot = dir.join(format!("bots/p{i}"));
        fs::create_dir_all(&bot).unwrap();
        fs::write(bot.join("launch"), common::patient_launch()).unwrap();
        fs::set_permissions(bot.join("launch"), fs::Permissions::from_mode(0o755)).unwrap();
    }
}

/// `take6 ARGS` in `dir`.
fn take6_args(dir: &Path, args: &[&str]) -> Command {
    let mut command = take6_cmd(dir);
    command.args(args);
    command
}

/// The output of `command`, which must end within 300 s.
fn output(command: &mut Command) -> Output {
    let child = command
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    child.wait_with_output().unwrap()
}

/// At the default disk limit, four bots need more than a disk of 400 MiB holds (though one
/// bot's limit fits): the run is
/// refused before anything is copied, saying the need, the room and the ways out; with a
/// smaller limit the same run fits and plays.
#[test]
fn a_run_that_cannot_fit_the_disk_is_refused_before_it_starts() {
    let Some(disk) = SmallDisk::new(400, "refused") else {
        return;
    };
    patients(disk.path(), 4);
    let args = [
        "run",
        "--bots",
        "bots",
        "--results",
        "results",
        "--games",
        "2",
    ];
    let out = output(take6_args(disk.path(), &args).args(["--players", "2", "--jobs", "1"]));
    let said = text(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{said}");
    assert!(said.contains("this run needs up to"), "{said}");
    assert!(said.contains("MiB are free"), "{said}");
    for way in ["--disk-mib", "--jobs", "a disk with more room"] {
        assert!(said.contains(way), "names {way}: {said}");
    }
    // Nothing copied, no image made.
    let work: Vec<_> = fs::read_dir(disk.path().join("results"))
        .into_iter()
        .flatten()
        .flatten()
        .filter(|e| e.path().join("work").exists())
        .collect();
    assert!(work.is_empty(), "a working copy was made");
    let out = output(take6_args(disk.path(), &args).args([
        "--players",
        "2",
        "--jobs",
        "1",
        "--disk-mib",
        "8",
    ]));
    let said = text(&out.stderr);
    assert!(out.status.success(), "{said}");
    if !said.contains("disk-cap") && !said.contains("all 16 protections") {
        common::skipped("refused: the run had no disk cap here");
    }
}

/// Six bots on a disk of 300 MiB, their images parked and unparked as they take turns at one
/// table of two: the disk is filled to its last block after a few games. The run stops with
/// exit status 4 saying what happened and how to go on; the finished games verify; once the
/// room is back, `--resume` plays the rest and the whole series verifies, with no image left.
#[test]
fn a_disk_that_fills_mid_run_stops_cleanly_and_resume_plays_the_rest() {
    let Some(disk) = SmallDisk::new(300, "filled") else {
        return;
    };
    patients(disk.path(), 6);
    let mut child = take6_args(
        disk.path(),
        &["run", "--bots", "bots", "--results", "results"],
    )
    .args([
        "--games",
        "60",
        "--players",
        "2",
        "--jobs",
        "1",
        "--seed",
        "7",
    ])
    .args([
        "--disk-mib",
        "8",
        "--first-reply-ms",
        "5000",
        "--reply-ms",
        "2000",
    ])
    .stdout(Stdio::null())
    .stderr(Stdio::piped())
    .spawn()
    .unwrap();
    let games = disk.path().join("results/latest/games.jsonl");
    let until = Instant::now() + Duration::from_secs(300);
    while fs::read_to_string(&games).map_or(0, |t| t.lines().count()) < 3 {
        assert!(
            child.try_wait().unwrap().is_none(),
            "ended before it filled"
        );
        assert!(Instant::now() < until, "no game played");
        std::thread::sleep(Duration::from_millis(20));
    }
    disk.fill();
    let out = child.wait_with_output().unwrap();
    let said = text(&out.stderr);
    assert_eq!(out.status.code(), Some(4), "{said}");
    assert!(!said.contains("panicked"), "{said}");
    assert!(
        said.contains("disk is full") || said.contains("No space left"),
        "{said}"
    );
    assert!(said.contains("every finished game is kept"), "{said}");
    assert!(said.contains("take6 run --resume"), "{said}");
    let kept = fs::read_to_string(&games).unwrap();
    let finished = kept.lines().filter(|l| l.ends_with('}')).count();
    assert!(finished >= 3, "{finished} games kept");
    disk.free();
    let series = fs::canonicalize(disk.path().join("results/latest")).unwrap();
    let verify = |what: &str| {
        let out = output(take6_args(disk.path(), &["verify"]).arg(&series));
        let said = format!("{}{}", text(&out.stdout), text(&out.stderr));
        assert!(out.status.success(), "{what}: {:?} {said}", out.status);
    };
    verify("the games kept");
    let out = output(take6_args(disk.path(), &["run", "--resume"]).arg(&series));
    assert!(out.status.success(), "{}", text(&out.stderr));
    verify("the series resumed");
    let all = fs::read_to_string(&games).unwrap();
    assert_eq!(all.lines().count(), 60);
    // The games finished before the disk filled are the first lines, as they were.
    let first: Vec<&str> = kept.lines().take(finished).collect();
    let again: Vec<&str> = all.lines().take(finished).collect();
    assert_eq!(first, again);
    assert!(!series.join("work/.images").exists(), "no image is left");
}

/// A series stopped by Ctrl-C after a few games, on a disk then filled to its last 32 MiB:
/// `--resume` is refused before it takes anything back, with a new run's message (the need,
/// the room, the ways out), the games kept as they were; once the room is back it plays on.
#[test]
fn a_resumed_run_that_cannot_fit_the_disk_is_refused_before_it_starts() {
    let Some(disk) = SmallDisk::new(300, "resume refused") else {
        return;
    };
    patients(disk.path(), 4);
    let mut child = take6_args(
        disk.path(),
        &["run", "--bots", "bots", "--results", "results"],
    )
    .args(["--games", "60", "--players", "2", "--jobs", "1"])
    .args(["--disk-mib", "8", "--seed", "3"])
    .stdout(Stdio::null())
    .stderr(Stdio::piped())
    .spawn()
    .unwrap();
    let games = disk.path().join("results/latest/games.jsonl");
    let until = Instant::now() + Duration::from_secs(300);
    while fs::read_to_string(&games).map_or(0, |t| t.lines().count()) < 2 {
        assert!(child.try_wait().unwrap().is_none(), "ended too soon");
        assert!(Instant::now() < until, "no game played");
        std::thread::sleep(Duration::from_millis(20));
    }
    let pid = nix::unistd::Pid::from_raw(child.id() as i32);
    nix::sys::signal::kill(pid, nix::sys::signal::Signal::SIGINT).unwrap();
    let out = child.wait_with_output().unwrap();
    assert!(!out.status.success(), "{}", text(&out.stderr));
    let kept = fs::read_to_string(&games).unwrap();
    // Room for a bot's limit (8 MiB: the flag is allowed), not for the run.
    disk.fill();
    let filler = fs::File::options()
        .write(true)
        .open(disk.path().join("filler"))
        .unwrap();
    let free = || {
        let fs = nix::sys::statvfs::statvfs(disk.path()).unwrap();
        fs.blocks_available() * fs.fragment_size()
    };
    while free() < 32 << 20 {
        let len = filler.metadata().unwrap().len();
        filler.set_len(len.saturating_sub(1 << 20)).unwrap();
        filler.sync_all().unwrap();
    }
    drop(filler);
    let series = fs::canonicalize(disk.path().join("results/latest")).unwrap();
    let out = output(take6_args(disk.path(), &["run", "--resume"]).arg(&series));
    let said = text(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{said}");
    assert!(!said.contains("panicked"), "{said}");
    assert!(said.contains("this run needs up to"), "{said}");
    assert!(said.contains("MiB are free"), "{said}");
    for way in ["--disk-mib", "--jobs", "a disk with more room"] {
        assert!(said.contains(way), "names {way}: {said}");
    }
    assert_eq!(
        fs::read_to_string(&games).unwrap(),
        kept,
        "the games unchanged"
    );
    disk.free();
    let out = output(take6_args(disk.path(), &["run", "--resume"]).arg(&series));
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert_eq!(fs::read_to_string(&games).unwrap().lines().count(), 60);
}

/// The mounts and loop devices whose path or backing file is under `dir`.
fn held_under(dir: &Path) -> Vec<String> {
    let dir = dir.to_string_lossy().to_string();
    let mut held: Vec<String> = fs::read_to_string("/proc/self/mountinfo")
        .unwrap_or_default()
        .lines()
        .filter(|l| l.split(' ').nth(4).is_some_and(|m| m.starts_with(&dir)))
        .map(|l| format!("mount {l}"))
        .collect();
    for entry in fs::read_dir("/sys/block").into_iter().flatten().flatten() {
        let backing = entry.path().join("loop/backing_file");
        if let Ok(file) = fs::read_to_string(&backing)
            && file.trim().starts_with(&dir)
        {
            held.push(format!(
                "loop device {:?} on {}",
                entry.file_name(),
                file.trim()
            ));
        }
    }
    held
}

/// A league of 8 bots, their images parked and unparked as they take turns, stopped by
/// Ctrl-C while it plays: it ends within the stop's window with no mount and no loop device
/// left, every finished game kept, and says where the working copies were left (in their
/// images, unmounted) and how to go on or free them; the next run of the league takes them
/// back and, once it ends, leaves no image.
#[test]
fn a_league_stopped_by_ctrl_c_leaves_no_mount_and_says_what_it_left() {
    let Some(disk) = SmallDisk::new(600, "league stopped") else {
        return;
    };
    patients(disk.path(), 8);
    let league = disk.path().join("lg");
    let start = |games: &str| {
        take6_args(disk.path(), &["league", "--bots", "bots", "--league", "lg"])
            .args([
                "--players",
                "2",
                "--jobs",
                "2",
                "--disk-mib",
                "8",
                "--seed",
                "5",
            ])
            .args(["--games", games])
            .stdout(Stdio::null())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap()
    };
    let child = start("100000");
    let games = league.join("games.jsonl");
    let until = Instant::now() + Duration::from_secs(300);
    while fs::read_to_string(&games).map_or(0, |t| t.lines().count()) < 12 {
        assert!(Instant::now() < until, "no game played");
        std::thread::sleep(Duration::from_millis(20));
    }
    let pid = nix::unistd::Pid::from_raw(child.id() as i32);
    nix::sys::signal::kill(pid, nix::sys::signal::Signal::SIGINT).unwrap();
    let stopped = Instant::now();
    let out = child.wait_with_output().unwrap();
    let said = text(&out.stderr);
    assert!(stopped.elapsed() < Duration::from_secs(5), "{said}");
    assert!(!said.contains("panicked"), "{said}");
    assert_eq!(held_under(&league), Vec::<String>::new(), "{said}");
    if league.join("work/.images").exists() {
        assert!(said.contains("left in their disk images"), "{said}");
        assert!(said.contains("takes them back"), "{said}");
    }
    let kept = fs::read_to_string(&games).unwrap().lines().count();
    assert!(kept >= 12, "{kept} games kept");
    let out = start("4").wait_with_output().unwrap();
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert!(fs::read_to_string(&games).unwrap().lines().count() >= kept + 4);
    assert!(!league.join("work/.images").exists(), "no image is left");
    assert_eq!(held_under(&league), Vec::<String>::new());
}
