//! The scaffolding of the hostile-bot tests: a scratch folder named after a unique marker with
//! copies of the fixture bots, the real binary run in it with finite limits, snapshots of folders,
//! the processes of a test found by the marker, and the checks every hostile test makes.

use std::collections::BTreeMap;
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
use sha2::{Digest, Sha256};
use take6::record::{GameRecord, check_record, read_games_jsonl};
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
        eprintln!("{test}: SKIPPED, no bubblewrap on this machine (apt-get install bubblewrap)");
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

    pub fn dir(&self) -> &Path {
        self.tmp.path()
    }

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
        let deadline = Instant::now() + Duration::from_secs(5);
        while !self.processes().is_empty() && Instant::now() < deadline {
            std::thread::sleep(Duration::from_millis(100));
        }
        let left = self.processes();
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

pub fn fixtures() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/bots")
}

pub fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

pub fn assert_ok(out: &Output) {
    assert!(
        out.status.success(),
        "take6 failed ({}):\nstdout:\n{}\nstderr:\n{}",
        out.status,
        text(&out.stdout),
        text(&out.stderr)
    );
}

/// Every file under `dir` (relative path → mode and SHA-256), skipping the relative paths in `skip`.
pub fn snapshot(dir: &Path, skip: &[&str]) -> BTreeMap<String, (u32, String)> {
    let mut files = BTreeMap::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        for entry in fs::read_dir(&d).unwrap() {
            let path = entry.unwrap().path();
            let rel = path
                .strip_prefix(dir)
                .unwrap()
                .to_string_lossy()
                .into_owned();
            if skip.contains(&rel.as_str()) {
                continue;
            }
            let meta = fs::symlink_metadata(&path).unwrap();
            if meta.is_dir() {
                stack.push(path);
            } else if meta.is_file() {
                let digest = Sha256::digest(fs::read(&path).unwrap());
                let hex = digest.iter().map(|b| format!("{b:02x}")).collect();
                files.insert(rel, (meta.permissions().mode(), hex));
            } else {
                files.insert(rel, (meta.permissions().mode(), "special".into()));
            }
        }
    }
    files
}

/// The bytes of the files under `dir` (symbolic links not followed).
pub fn folder_bytes(dir: &Path) -> u64 {
    let mut total = 0;
    for entry in fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        let meta = fs::symlink_metadata(&path).unwrap();
        total += if meta.is_dir() {
            folder_bytes(&path)
        } else {
            meta.len()
        };
    }
    total
}

/// The faults of `bot` in `game`, as (kind, reason).
pub fn faults_of(game: &GameRecord, bot: &str) -> Vec<(String, String)> {
    let Some(seat) = game.players.iter().position(|p| p == bot) else {
        return Vec::new();
    };
    game.invalid
        .iter()
        .filter(|f| f.seat == seat)
        .map(|f| (f.kind.clone(), f.reason.clone()))
        .collect()
}

/// The checks of every hostile test after a sandboxed series of `games` games with `attacker`:
/// the series is complete and consistent, the honest bot has no fault and its working copy is its
/// source, the bots folder is unchanged (`bots_before`), the results stay as they were while any
/// leftover process could still act, and no process of the test remains. Returns the games.
pub fn assert_no_effect(
    zoo: &Zoo,
    out: &Output,
    attacker: &str,
    games: usize,
    bots_before: &BTreeMap<String, (u32, String)>,
) -> Vec<GameRecord> {
    assert_ok(out);
    let manifest = zoo.manifest();
    assert_eq!(manifest["status"].as_str(), Some("complete"), "{manifest}");
    let planned = manifest["games_planned"].as_integer();
    assert_eq!(planned, Some(games as i64), "{manifest}");
    assert_eq!(manifest["games_played"].as_integer(), planned, "{manifest}");
    assert_eq!(
        manifest["sandbox"]["mode"].as_str(),
        Some("strict"),
        "{manifest}"
    );
    let missing = manifest["sandbox"]["missing"].as_array().map(Vec::len);
    assert_eq!(missing, Some(0), "{manifest}");
    let names: Vec<&str> = manifest["bots"]
        .as_array()
        .unwrap()
        .iter()
        .filter_map(|b| b["name"].as_str())
        .collect();
    assert!(
        names.contains(&HONEST) && names.contains(&attacker),
        "{manifest}"
    );

    let records = zoo.games();
    let numbers: Vec<u64> = records.iter().map(|g| g.game).collect();
    assert_eq!(
        numbers,
        (0..games as u64).collect::<Vec<_>>(),
        "every game once"
    );
    for g in &records {
        check_record(g).unwrap_or_else(|e| panic!("game {}: {e}", g.game));
        assert!(g.players.iter().any(|p| p == attacker), "game {}", g.game);
        assert_eq!(
            faults_of(g, HONEST),
            vec![],
            "honest bot in game {}",
            g.game
        );
    }

    assert_eq!(&snapshot(&zoo.bots(), &[]), bots_before, "bots/ changed");
    assert_eq!(
        snapshot(&zoo.work(HONEST), &[]),
        snapshot(&zoo.bots().join(HONEST), &[]),
        "the honest bot's working copy is not its source"
    );
    let work = format!("work/{attacker}");
    let results = snapshot(&zoo.series(), &[&work]);
    zoo.assert_no_process_left();
    assert_eq!(
        snapshot(&zoo.series(), &[&work]),
        results,
        "results changed"
    );
    assert_eq!(zoo.tmp_files(), Vec::<PathBuf>::new(), "files left in /tmp");
    records
}
