//! The scaffolding of the hostile-bot tests: a scratch folder named after a unique marker with
//! copies of the fixture bots, the real binary run in it with finite limits, and the processes
//! of a test found by the marker. Shared by `tests/hostile.rs` and `tests/hostile_limits.rs`.
#![allow(dead_code)]

use std::fs;
use std::io::BufReader;
use std::os::unix::fs::PermissionsExt;
use std::path::{Path, PathBuf};
use std::process::Output;
use std::sync::atomic::{AtomicU32, Ordering};
use std::time::{Duration, Instant, SystemTime, UNIX_EPOCH};

use assert_cmd::Command;
use nix::sys::signal::{Signal, kill};
use nix::unistd::Pid;

use take6::record::{GameRecord, read_games_jsonl};

pub use crate::common::{assert_ok, text};
use tempfile::TempDir;

/// The player every hostile bot execs once its attack is started (`./play MARKER`): the `first`
/// fixture's awk, with the marker as an awk assignment operand so it stays in the command line.
const PLAY: &str = r#"#!/bin/sh
# play: plays the first remaining card in dealt order, pickrow -> 0. "$1" is a marker that stays in
# awk's command line (an assignment operand) so the test finds this process.
marker=$1
case $(awk -W version 2>&1) in *mawk*) set -- -W interactive ;; *) set -- ;; esac
exec awk "$@" '
$1 == "cards"   { n = 0; for (i = 2; i <= NF; i++) hand[++n] = $i; next }
$1 == "pickrow" { picking = 1; next }
$1 == "top" {
    if (picking) { picking = 0; print 0 }
    else { c = 0; for (i = 1; i <= n; i++) if (hand[i] != "") { c = hand[i]; hand[i] = ""; break }; print c }
    fflush(); next
}
$1 == "invalid" { exit }
' "zoo=$marker"
"#;

/// The honest bot's folder name; it sits at every hostile table.
pub const HONEST: &str = "honest";

/// Whether the machine can run the sandbox (bubblewrap). In CI (`CI` set) a missing sandbox is a
/// failure, never a silent skip; elsewhere the test says it skipped.
pub fn sandbox_available(test: &str) -> bool {
    let found = std::process::Command::new("bwrap")
        .arg("--version")
        .output()
        .is_ok_and(|o| o.status.success());
    if !found {
        assert!(
            std::env::var_os("CI").is_none(),
            "{test}: bubblewrap (bwrap) is missing in CI; .ci/run installs it"
        );
        crate::common::skipped(&format!(
            "{test}: no bubblewrap on this machine (apt-get install bubblewrap)"
        ));
    }
    found
}

/// One test's scratch folder: `bots/` with copies of the named fixtures plus `honest`, every
/// `@MARKER@` in them replaced by a marker unique to this test run. The folder's own name holds
/// the marker too (`hostile-rmrf` deletes only what is under it). Dropping it kills what is left
/// of the test's processes and removes its files from `/tmp`.
pub struct Zoo {
    pub marker: String,
    pub tmp: TempDir,
}

impl Zoo {
    /// A scratch folder with `honest` and the given fixture bots (`hostile-*` ones get `./play`).
    pub fn new(test: &str, attackers: &[&str]) -> Zoo {
        static COUNT: AtomicU32 = AtomicU32::new(0);
        let nanos = SystemTime::now()
            .duration_since(UNIX_EPOCH)
            .unwrap()
            .subsec_nanos();
        let marker = format!(
            "take6-zoo-marker-{test}-{}-{}-{nanos}",
            std::process::id(),
            COUNT.fetch_add(1, Ordering::Relaxed)
        );
        let tmp = tempfile::Builder::new()
            .prefix(&format!("{marker}-"))
            .tempdir()
            .unwrap();
        let zoo = Zoo { marker, tmp };
        for name in std::iter::once(&HONEST).chain(attackers) {
            let dst = zoo.bots().join(name);
            zoo.copy_fixture(&fixtures().join(name), &dst);
            if name.starts_with("hostile-") {
                fs::write(dst.join("play"), PLAY).unwrap();
                fs::set_permissions(dst.join("play"), fs::Permissions::from_mode(0o755)).unwrap();
            }
        }
        zoo
    }

    /// Copies a fixture folder, keeping modes, with the marker filled in.
    fn copy_fixture(&self, from: &Path, to: &Path) {
        fs::create_dir_all(to).unwrap();
        for entry in fs::read_dir(from).unwrap() {
            let entry = entry.unwrap();
            let dst = to.join(entry.file_name());
            let text = fs::read_to_string(entry.path()).unwrap();
            fs::write(&dst, text.replace("@MARKER@", &self.marker)).unwrap();
            fs::set_permissions(&dst, entry.metadata().unwrap().permissions()).unwrap();
        }
    }

    /// The scratch folder (the controller's current directory).
    pub fn dir(&self) -> &Path {
        self.tmp.path()
    }

    /// The scratch folder's `bots/`.
    pub fn bots(&self) -> PathBuf {
        self.dir().join("bots")
    }

    /// Makes the honest bot burn `ms` of CPU before each of its first `replies` replies.
    pub fn honest_thinks(&self, ms: u32, replies: u32) {
        fs::write(
            self.bots().join(HONEST).join("cpu-ms"),
            format!("{ms} {replies}"),
        )
        .unwrap();
    }

    /// `take6 run` with the sandbox `mode`, finite limits (generous unless `args` say otherwise)
    /// and a test-level timeout, so that a broken sandbox fails the test instead of hanging it.
    pub fn run(&self, mode: &str, args: &[&str]) -> Output {
        self.run_for(mode, args, Duration::from_secs(120))
    }

    /// [`Zoo::run`] with another test-level timeout.
    pub fn run_for(&self, mode: &str, args: &[&str], timeout: Duration) -> Output {
        self.run_with(Command::cargo_bin("take6").unwrap(), mode, args, timeout)
    }

    /// [`Zoo::run`] with the controller and every bot on one CPU (`taskset -c 0`), so that
    /// CPU contention is the same whatever the machine's number of cores.
    pub fn run_on_one_cpu(&self, mode: &str, args: &[&str]) -> Output {
        let mut taskset = Command::new("taskset");
        taskset
            .args(["-c", "0"])
            .arg(assert_cmd::cargo::cargo_bin("take6"));
        self.run_with(taskset, mode, args, Duration::from_secs(120))
    }

    /// Runs `command` (the binary, or a wrapper of it) in the scratch folder with the common
    /// arguments, the canary variable and a test-level timeout.
    fn run_with(
        &self,
        mut command: Command,
        mode: &str,
        args: &[&str],
        timeout: Duration,
    ) -> Output {
        command
            .current_dir(self.dir())
            // A fixed seed below 2^63: series.toml writes the seed as a TOML integer, which a
            // TOML reader cannot read beyond i64 (a random seed is above in half the series).
            .args([
                "run",
                "--jobs",
                "2",
                "--games",
                "2",
                "--seed",
                "7",
                "--sandbox",
                mode,
                // Bots skipped on purpose here; the exit status of skips is tests/authors.rs'.
                "--allow-skips",
            ])
            .args(["--first-reply-ms", "5000", "--reply-ms", "2000"])
            .args(["--grace-ms", "300", "--build-timeout-s", "60"])
            .args(args)
            .env_remove("RUST_LOG")
            .env("TAKE6_ZOO_CANARY", format!("{}-canary", self.marker))
            .timeout(timeout)
            .output()
            .unwrap()
    }

    /// The series folder (`results/latest`).
    pub fn series(&self) -> PathBuf {
        fs::canonicalize(self.dir().join("results/latest")).unwrap()
    }

    /// The working copy of `bot`.
    pub fn work(&self, bot: &str) -> PathBuf {
        self.series().join("work").join(bot)
    }

    /// A file of `bot`'s working copy, empty if it is not there.
    pub fn work_file(&self, bot: &str, file: &str) -> String {
        fs::read_to_string(self.work(bot).join(file)).unwrap_or_default()
    }

    /// The games of the series, by number.
    pub fn games(&self) -> Vec<GameRecord> {
        let file = fs::File::open(self.series().join("games.jsonl")).unwrap();
        let mut games = read_games_jsonl(BufReader::new(file)).unwrap();
        games.sort_by_key(|g| g.game);
        games
    }

    /// `series.toml`, parsed.
    pub fn manifest(&self) -> toml::Table {
        let text = fs::read_to_string(self.series().join("series.toml")).unwrap();
        text.parse()
            .unwrap_or_else(|e| panic!("series.toml: {e}\n{text}"))
    }

    /// The test's live processes (`pid command line`), found by the marker.
    pub fn processes(&self) -> Vec<String> {
        let out = std::process::Command::new("pgrep")
            .args(["-a", "-f", &self.marker])
            .output()
            .unwrap();
        text(&out.stdout).lines().map(str::to_string).collect()
    }

    /// Waits (a few seconds at most) for the test's processes to be gone and asserts they are.
    pub fn assert_no_process_left(&self) {
        self.assert_no_process_left_but(|_| false);
    }

    /// As [`Zoo::assert_no_process_left`], for the processes that `may_stay` does not keep.
    pub fn assert_no_process_left_but(&self, may_stay: impl Fn(&str) -> bool) {
        let left = || -> Vec<String> {
            let mut all = self.processes();
            all.retain(|p| !may_stay(p));
            all
        };
        let deadline = Instant::now() + Duration::from_secs(5);
        while !left().is_empty() && Instant::now() < deadline {
            std::thread::sleep(Duration::from_millis(100));
        }
        let left = left();
        assert!(
            left.is_empty(),
            "processes left behind:\n{}",
            left.join("\n")
        );
    }

    /// Files in `/tmp` (and the test's temporary folder) whose name holds the marker, besides the
    /// scratch folder itself.
    pub fn tmp_files(&self) -> Vec<PathBuf> {
        let mut found = Vec::new();
        for dir in [PathBuf::from("/tmp"), std::env::temp_dir()] {
            for entry in fs::read_dir(&dir).into_iter().flatten().flatten() {
                let path = entry.path();
                if entry.file_name().to_string_lossy().contains(&self.marker)
                    && path != self.dir()
                    && !found.contains(&path)
                {
                    found.push(path);
                }
            }
        }
        found
    }
}

impl Drop for Zoo {
    fn drop(&mut self) {
        for line in self.processes() {
            if let Some(pid) = line.split(' ').next().and_then(|p| p.parse().ok()) {
                let _ = kill(Pid::from_raw(pid), Signal::SIGCONT);
                let _ = kill(Pid::from_raw(pid), Signal::SIGKILL);
            }
        }
        for path in self.tmp_files() {
            let _ = fs::remove_file(&path).or_else(|_| fs::remove_dir_all(&path));
        }
    }
}

/// The fixture bots of the repository (copied, never run in place).
pub fn fixtures() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/bots")
}
