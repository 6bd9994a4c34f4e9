//! The sandbox through the real `take6` binary: what a bot can see, the limits of its whole
//! tree, the CPU clock under a busy neighbour, and that nothing of a bot outlives its game or
//! a SIGKILLed controller. These need bubblewrap and writable cgroups (CI installs the one and
//! runs as root); on a machine without them each test says so and checks nothing.

mod common;

use common::{series_cmd, series_dir};

use std::fs;
use std::io::BufReader;
use std::os::unix::fs::PermissionsExt;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Output, Stdio};
use std::time::{Duration, Instant};

use take6::record::{GameRecord, read_games_jsonl};
use tempfile::TempDir;

/// The `first` fixture: a well-behaved awk bot.
fn first_launch() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/bots/first/launch")
}

/// Adds bot `name` to `dir/bots`: `launch` runs `prelude` (shell) and then plays as `first`.
fn bot(dir: &Path, name: &str, prelude: &str) {
    let folder = dir.join("bots").join(name);
    fs::create_dir_all(&folder).unwrap();
    fs::copy(first_launch(), folder.join("play")).unwrap();
    let launch = folder.join("launch");
    fs::write(&launch, format!("#!/bin/sh\n{prelude}\nexec ./play\n")).unwrap();
    fs::set_permissions(&launch, fs::Permissions::from_mode(0o755)).unwrap();
}

fn series(dir: &Path) -> Command {
    series_cmd(dir, 3_000, 1_000)
}

fn run(dir: &Path, args: &[&str]) -> Output {
    let out = series(dir).args(args).output().unwrap();
    assert!(
        out.status.success(),
        "take6 failed ({}):\n{}",
        out.status,
        String::from_utf8_lossy(&out.stderr)
    );
    out
}

fn games(dir: &Path) -> Vec<GameRecord> {
    let file = fs::File::open(series_dir(dir).join("games.jsonl")).unwrap();
    read_games_jsonl(BufReader::new(file)).unwrap()
}

/// The (kind, reason) of each fault of `bot` over all games.
fn faults(games: &[GameRecord], bot: &str) -> Vec<(String, String)> {
    games
        .iter()
        .flat_map(|g| {
            let seat = g.players.iter().position(|p| p == bot).unwrap();
            g.rounds[0]
                .invalid
                .iter()
                .filter(move |f| f.seat == seat)
                .map(|f| (f.kind.clone(), f.reason.clone()))
        })
        .collect()
}

/// Whether this machine gives the full sandbox (else the test is skipped with a note).
fn sandboxed(dir: &Path) -> bool {
    let out = series(dir)
        .args(["--sandbox", "strict", "--games", "1"])
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    if err.contains("--sandbox strict: not enforced") {
        common::skipped(&format!("not fully sandboxed here: {err}"));
        return false;
    }
    true
}

/// Pids of processes whose command line contains `marker`.
fn processes(marker: &str) -> Vec<String> {
    let out = Command::new("pgrep").args(["-f", marker]).output().unwrap();
    String::from_utf8_lossy(&out.stdout)
        .lines()
        .map(str::to_string)
        .collect()
}

/// Waits (up to a generous bound) for every process with `marker` to be gone; returns those
/// left.
fn gone(marker: &str) -> Vec<String> {
    let deadline = Instant::now() + Duration::from_secs(20);
    loop {
        let left = processes(marker);
        if left.is_empty() || Instant::now() > deadline {
            return left;
        }
        std::thread::sleep(Duration::from_millis(100));
    }
}

/// Adds bot `name` to `dir/bots`: an awk bot that plays its cards in dealt order (row 0 when
/// asked for a row), running the awk statements `before` each reply and `after` it.
fn awk_bot(dir: &Path, name: &str, before: &str, after: &str) {
    let folder = dir.join("bots").join(name);
    fs::create_dir_all(&folder).unwrap();
    let launch = format!(
        r#"#!/bin/sh
case $(awk -W version 2>&1) in *mawk*) set -- -W interactive ;; *) set -- ;; esac
exec awk "$@" '
$1 == "cards"   {{ n = 0; for (i = 2; i <= NF; i++) hand[++n] = $i; next }}
$1 == "pickrow" {{ picking = 1; next }}
$1 == "top" {{
    {before}
    if (picking) {{ picking = 0; print 0 }}
    else {{ c = 0; for (i = 1; i <= n; i++) if (hand[i] != "") {{ c = hand[i]; hand[i] = ""; break }}; print c }}
    fflush()
    {after}
    next
}}
$1 == "invalid" {{ exit }}
'
"#
    );
    fs::write(folder.join("launch"), launch).unwrap();
    fs::set_permissions(folder.join("launch"), fs::Permissions::from_mode(0o755)).unwrap();
}

fn honest_arena() -> TempDir {
    let tmp = tempfile::tempdir().unwrap();
    bot(tmp.path(), "honest", "");
    tmp
}

#[test]
fn limits_of_the_whole_tree_are_named_faults_and_the_honest_bot_plays_on() {
    let tmp = honest_arena();
    if !sandboxed(tmp.path()) {
        return;
    }
    // Children do the damage; the bot itself would play on.
    bot(
        tmp.path(),
        "hog",
        "for i in 1 2 3 4; do python3 -c 'x = bytearray(40 << 20); import time; time.sleep(60)' & done; sleep 1",
    );
    bot(
        tmp.path(),
        "forker",
        "for i in $(seq 30); do sleep 6161 & done",
    );
    bot(
        tmp.path(),
        "filler",
        "for i in 1 2 3; do head -c 5000000 /dev/zero > fill$i; done",
    );
    // In a sandbox kept across games and in a fresh one per game alike.
    for warm in ["true", "false"] {
        run(
            tmp.path(),
            &[
                "--games",
                "2",
                "--seed",
                "5",
                "--memory-mib",
                "100",
                "--max-procs",
                "16",
                "--disk-mib",
                "8",
                "--warm-sandboxes",
                warm,
            ],
        );
        let games = games(tmp.path());
        assert_eq!(games.len(), 2);
        assert!(faults(&games, "honest").is_empty(), "{games:?}");
        let kinds = |bot| {
            let f = faults(&games, bot);
            assert_eq!(f.len(), 2, "{bot}: one fault per game: {f:?}");
            f
        };
        for (kind, reason) in kinds("hog") {
            assert_eq!(kind, "memory_limit");
            assert!(reason.contains("memory limit of 100 MiB"), "{reason}");
        }
        for (kind, reason) in kinds("forker") {
            assert_eq!(kind, "process_limit");
            assert!(reason.contains("process limit of 16"), "{reason}");
        }
        for (kind, reason) in kinds("filler") {
            assert_eq!(kind, "disk_limit");
            assert!(reason.contains("disk limit of 8 MiB"), "{reason}");
        }
        assert!(
            gone("sleep 6161").is_empty(),
            "a forker's child outlived its game"
        );
    }
    let manifest = fs::read_to_string(series_dir(tmp.path()).join("series.toml")).unwrap();
    assert!(manifest.contains("[sandbox]"), "{manifest}");
    assert!(manifest.contains("mode = \"auto\""), "{manifest}");
    assert!(manifest.contains("missing = []"), "{manifest}");
}

#[test]
fn a_bot_sees_only_its_own_processes_files_and_four_variables() {
    let tmp = honest_arena();
    if !sandboxed(tmp.path()) {
        return;
    }
    let host = tmp.path().display().to_string();
    let spy = format!(
        "{{ echo \"uid=$(id -u)\"; env | cut -d= -f1 | sort | tr '\\n' ' '; echo; \
           for p in /proc/[0-9]*; do echo \"proc $(tr '\\0' ' ' < $p/cmdline)\"; done; \
           ls {host}/bots && echo SAW-BOTS; ls {host}/results && echo SAW-RESULTS; \
           ls /root /home 2>/dev/null | grep -q . && echo SAW-HOMES; \
           echo x > {host}/bots/honest/launch && echo WROTE-BOTS; \
           echo done; }} >&2 2>/dev/null"
    );
    bot(tmp.path(), "spy", &spy);
    let out = series(tmp.path())
        .args(["--games", "1", "--seed", "1"])
        .env("TAKE6_CANARY", "secret")
        .output()
        .unwrap();
    assert!(out.status.success());
    let log = fs::read_to_string(series_dir(tmp.path()).join("logs/spy.games.log")).unwrap();
    assert!(log.contains("done"), "{log}");
    let uid: u32 = log
        .split("uid=")
        .nth(1)
        .and_then(|rest| rest.split(|c: char| !c.is_ascii_digit()).next())
        .and_then(|u| u.parse().ok())
        .unwrap_or_else(|| panic!("{log}"));
    assert!(
        uid >= take6::sandbox::UID_BASE,
        "not root, nor nobody, inside: {log}"
    );
    let names = log.lines().nth(2).unwrap_or_default();
    for name in names.split_whitespace() {
        assert!(
            [
                "HOME", "LANG", "PATH", "PWD", "TMPDIR", "SHLVL", "OLDPWD", "_"
            ]
            .contains(&name),
            "{name} leaked into the environment: {log}"
        );
    }
    assert!(!log.contains("TAKE6_CANARY"), "{log}");
    for seen in ["SAW-BOTS", "SAW-RESULTS", "SAW-HOMES", "WROTE-BOTS"] {
        assert!(!log.contains(seen), "{seen}: {log}");
    }
    let procs: Vec<&str> = log.lines().filter(|l| l.starts_with("proc ")).collect();
    assert!(
        procs.len() <= 6,
        "only its own few processes are visible: {procs:?}"
    );
    for p in &procs {
        assert!(!p.contains("awk") && !p.contains("run --jobs"), "{p}");
    }
    assert_eq!(
        fs::read_to_string(tmp.path().join("bots/honest/launch")).unwrap(),
        format!("#!/bin/sh\n\nexec ./play\n")
    );
}

/// CPU spinners outside every sandbox, killed when dropped.
struct Spinners(Vec<Child>);

impl Spinners {
    fn start(n: usize) -> Spinners {
        Spinners(
            (0..n)
                .map(|_| {
                    Command::new("sh")
                        .args(["-c", "while :; do :; done", "spinner-4242"])
                        .stdout(Stdio::null())
                        .spawn()
                        .unwrap()
                })
                .collect(),
        )
    }
}

impl Drop for Spinners {
    fn drop(&mut self) {
        for child in &mut self.0 {
            let _ = child.kill();
            let _ = child.wait();
        }
    }
}

#[test]
fn under_the_cpu_clock_a_busy_neighbour_does_not_make_an_honest_bot_time_out() {
    let tmp = tempfile::tempdir().unwrap();
    if !sandboxed(tmp.path()) {
        return;
    }
    // Each reply costs about 100 ms of CPU; the limit is 1000 ms of it, and the machine is
    // crowded with spinners (and games at once above its cores) that take most of the wall time.
    awk_bot(
        tmp.path(),
        "thinker",
        "for (k = 0; k < 1500000; k++) x += k",
        "",
    );
    let _spinners = Spinners::start(6);
    run(
        tmp.path(),
        &[
            "--games", "4", "--seed", "2", "--jobs", "4", "--clock", "cpu",
        ],
    );
    let games = games(tmp.path());
    assert!(faults(&games, "thinker").is_empty(), "{games:?}");
    let times = fs::read_to_string(series_dir(tmp.path()).join("reply_times.csv")).unwrap();
    let row = times
        .lines()
        .find(|l| l.starts_with("thinker,"))
        .unwrap_or_else(|| panic!("{times}"));
    let fields: Vec<&str> = row.split(',').collect();
    assert!(fields[1].parse::<u32>().unwrap() >= 40, "{row}");
    assert!(
        fields[2..].iter().all(|f| f.parse::<f64>().is_ok()),
        "{row}"
    );
    let recorded: usize = games
        .iter()
        .flat_map(|g| &g.replies)
        .map(|r| r.cpu_us.len())
        .sum();
    assert_eq!(
        recorded.to_string(),
        fields[1],
        "the CSV follows games.jsonl"
    );
}

#[test]
fn under_the_cpu_clock_thinking_on_after_a_reply_counts_toward_the_next() {
    let tmp = honest_arena();
    if !sandboxed(tmp.path()) {
        return;
    }
    // `ponderer` replies at once, then spins half a second of CPU while `sleeper` takes 1.5 s
    // of wall time (no CPU) per reply: the spin is over before the next question, which it
    // answers at once, yet each later reply's CPU time holds the spin before it. The spin is
    // measured by its own CPU time (/proc/self/stat, in clock ticks), not by a count of
    // iterations, whose time depends on the machine.
    awk_bot(
        tmp.path(),
        "ponderer",
        "",
        r#"stat = "/proc/self/stat"; getline s < stat; close(stat); split(s, f, " ")
    t0 = f[14] + f[15]
    do {
        for (k = 0; k < 100000; k++) x += k
        getline s < stat; close(stat); split(s, f, " ")
    } while (f[14] + f[15] - t0 < 50)"#,
    );
    awk_bot(tmp.path(), "sleeper", "system(\"sleep 1.5\")", "");
    run(
        tmp.path(),
        &[
            "--games",
            "1",
            "--seed",
            "3",
            "--clock",
            "cpu",
            "--reply-ms",
            "3000",
        ],
    );
    let games = games(tmp.path());
    for bot in ["honest", "sleeper", "ponderer"] {
        assert!(faults(&games, bot).is_empty(), "{bot}: {games:?}");
    }
    let seat = games[0]
        .players
        .iter()
        .position(|p| p == "ponderer")
        .unwrap();
    let times = &games[0]
        .replies
        .iter()
        .find(|r| r.seat == seat)
        .unwrap()
        .cpu_us;
    // The first reply is before any spin; most later ones follow a whole spin.
    let mut later = times[1..].to_vec();
    later.sort_unstable();
    assert!(later[later.len() / 2] >= 300_000, "{times:?}");
}

#[test]
fn a_sigkilled_controller_leaves_no_bot_process_behind() {
    let tmp = honest_arena();
    if !sandboxed(tmp.path()) {
        return;
    }
    // Daemons of every kind, each carrying the marker; the bot then thinks for a long while
    // (blocked, so only the wall-clock safety net, 30 s, would end its game).
    bot(
        tmp.path(),
        "daemons",
        "setsid sleep 5151 & (sleep 5151 &) ; nohup sleep 5151 >/dev/null 2>&1 & sleep 30",
    );
    for warm in ["true", "false"] {
        let mut controller = series(tmp.path())
            .args(["--games", "100000", "--jobs", "1", "--warm-sandboxes", warm])
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .unwrap();
        let deadline = Instant::now() + Duration::from_secs(60);
        while processes("sleep 5151").len() < 3 && Instant::now() < deadline {
            std::thread::sleep(Duration::from_millis(50));
        }
        assert!(
            !processes("sleep 5151").is_empty(),
            "the bot's daemons started"
        );
        controller.kill().unwrap(); // SIGKILL
        controller.wait().unwrap();
        assert!(
            gone("sleep 5151").is_empty(),
            "daemons outlived the controller"
        );
    }
    assert!(gone("tests/bots/first").is_empty());
}

#[test]
fn a_bot_may_fill_its_working_copy_up_to_the_disk_limit_without_a_fault() {
    let tmp = honest_arena();
    // 60 MiB in 15 files under --disk-mib 64: every write succeeds, the cap is above the limit.
    // The bot also notes how its working copy is mounted.
    bot(
        tmp.path(),
        "writer",
        "grep ' /bot ' /proc/self/mountinfo > mounted; \
         i=0; while [ $i -lt 15 ]; do head -c 4194304 /dev/zero > f$i || echo \"f$i failed\" >> log; \
         i=$((i + 1)); done; echo done >> log",
    );
    if !sandboxed(tmp.path()) {
        return;
    }
    run(
        tmp.path(),
        &["--games", "1", "--sandbox", "strict", "--disk-mib", "64"],
    );
    assert_eq!(faults(&games(tmp.path()), "writer"), vec![]);
    let work = series_dir(tmp.path()).join("work/writer");
    assert_eq!(fs::read_to_string(work.join("log")).unwrap(), "done\n");
    assert_eq!(fs::metadata(work.join("f14")).unwrap().len(), 4 << 20);
    // Its image is mounted so that ext4 does not zero its inode tables in the background
    // during the games (they read as zeros already: the image is a new sparse file).
    let mounted = fs::read_to_string(work.join("mounted")).unwrap();
    assert!(
        mounted.contains(" ext4 ") && mounted.contains("noinit_itable"),
        "{mounted}"
    );
}

#[test]
fn special_files_a_bot_made_are_left_out_when_its_working_copy_is_copied_back() {
    let tmp = honest_arena();
    bot(
        tmp.path(),
        "fifo",
        "mkfifo pipe; mkdir -p d; mkfifo d/pipe; echo kept > d/kept.txt",
    );
    if !sandboxed(tmp.path()) {
        return;
    }
    let out = run(tmp.path(), &["--games", "1", "--sandbox", "strict"]);
    let err = String::from_utf8_lossy(&out.stderr);
    let work = series_dir(tmp.path()).join("work/fifo");
    assert_eq!(
        fs::read_to_string(work.join("d/kept.txt")).unwrap(),
        "kept\n"
    );
    for pipe in ["pipe", "d/pipe"] {
        assert!(
            fs::symlink_metadata(work.join(pipe)).is_err(),
            "{pipe} copied"
        );
        assert!(
            err.contains(&format!("'{pipe}' is a FIFO (named pipe); left out")),
            "{err}"
        );
    }
    assert!(!work.parent().unwrap().join(".images").exists());
}

#[test]
fn the_mode_and_what_it_enforces_are_reported_and_bad_limits_are_refused() {
    let tmp = honest_arena();
    // What `none` means, in words, on the start line: the default (short) one and
    // the long one of `-v`.
    let user = nix::unistd::User::from_uid(nix::unistd::getuid())
        .unwrap()
        .unwrap()
        .name;
    let in_words = format!(
        "builds and bots run as the controller's own user, {user} (uid {}), with no sandbox: \
         they can read, change and delete whatever that user can",
        nix::unistd::getuid()
    );
    let short = run(tmp.path(), &["--games", "1", "--sandbox", "none"]);
    let err = String::from_utf8_lossy(&short.stderr);
    let line = err
        .lines()
        .find(|l| l.starts_with("take6: sandbox none: "))
        .unwrap_or_else(|| panic!("no sandbox line:\n{err}"));
    assert!(line.contains(&in_words), "{line}");
    assert!(!line.contains("protections enforced"), "{line}");
    let none = run(tmp.path(), &["--games", "1", "--sandbox", "none", "-v"]);
    let err = String::from_utf8_lossy(&none.stderr);
    assert!(
        err.contains("take6: sandbox: none: enforced process-group"),
        "{err}"
    );
    assert!(err.contains(&in_words), "{err}");
    let manifest = fs::read_to_string(series_dir(tmp.path()).join("series.toml")).unwrap();
    assert!(
        manifest.contains("[sandbox]\nmode = \"none\""),
        "{manifest}"
    );
    let games = games(tmp.path());
    assert!(
        games[0].replies.iter().all(|r| r.cpu_us.is_empty()),
        "no CPU clock without cgroups"
    );

    if sandboxed(tmp.path()) {
        run(tmp.path(), &["--games", "1", "--sandbox", "strict"]);
        let manifest = fs::read_to_string(series_dir(tmp.path()).join("series.toml")).unwrap();
        assert!(manifest.contains("mode = \"strict\""), "{manifest}");
        assert!(manifest.contains("missing = []"), "{manifest}");
        assert!(manifest.contains("\"pid-namespace\""), "{manifest}");
        assert!(manifest.contains("\"disk-cap\""), "{manifest}");
    }

    for (flag, value) in [
        ("--max-procs", "0"),
        ("--memory-mib", "17592186044416"),
        ("--disk-mib", "0"),
        ("--max-files", "3"),
        ("--wall-factor", "0"),
    ] {
        let out = series(tmp.path()).args([flag, value]).output().unwrap();
        assert!(!out.status.success(), "{flag} {value} was accepted");
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(
            err.contains(&format!("{flag} {value} is out of range")),
            "{err}"
        );
    }
    let out = series(tmp.path())
        .args(["--sandbox", "sometimes"])
        .output()
        .unwrap();
    assert!(!out.status.success());
    assert!(
        String::from_utf8_lossy(&out.stderr).contains("auto"),
        "the choices are named"
    );
}

#[test]
fn every_bot_process_is_a_batch_task_whatever_starts_it() {
    // Field 41 of /proc/<pid>/stat is the scheduling policy: 3 is SCHED_BATCH (0 is the
    // default, SCHED_OTHER). The launch script and a child of it report theirs on stderr.
    let tmp = honest_arena();
    bot(
        tmp.path(),
        "policy",
        r#"echo "policy $(cut -d' ' -f41 /proc/$$/stat) child $(sh -c 'cut -d" " -f41 /proc/$$/stat')" >&2"#,
    );
    let mut modes = vec![("none", "true"), ("none", "false")];
    if sandboxed(tmp.path()) {
        modes.extend([("auto", "true"), ("auto", "false")]);
    }
    for (mode, warm) in modes {
        run(
            tmp.path(),
            &["--games", "2", "--sandbox", mode, "--warm-sandboxes", warm],
        );
        let log = fs::read_to_string(series_dir(tmp.path()).join("logs/policy.games.log")).unwrap();
        let reports: Vec<&str> = log.lines().filter(|l| l.starts_with("policy")).collect();
        assert_eq!(
            reports, ["policy 3 child 3"; 2],
            "--sandbox {mode} --warm-sandboxes {warm}: {log}"
        );
    }
}

#[test]
fn a_warm_sandbox_starts_each_game_fresh_and_leaves_nothing_of_the_last() {
    use std::io::{BufRead, Write};
    use take6::sandbox::{Clock, Limits, Mode, Sandbox, warm::Warm};
    let sandbox = Sandbox::new(Mode::Auto, Limits::default(), Clock::Cpu).unwrap();
    // The disk cap needs the controller's private mount namespace, which this test process
    // has not made; the warm sandbox does not depend on it.
    let missing = &sandbox.report().missing;
    if missing.iter().any(|&m| m != "disk-cap") || !take6_is_root() {
        common::skipped(&format!(
            "needs root and the full sandbox: {}",
            sandbox.report().line()
        ));
        return;
    }
    let tmp = tempfile::tempdir().unwrap();
    let launch = tmp.path().join("launch");
    fs::write(
        &launch,
        // It also tries to look into the init (PID 1) and locks a folder it leaves in /tmp.
        "#!/bin/sh\nread x\n\
         echo \"got $x $(ls -A /tmp | wc -l) $(id -u) $HOME $(ls /proc/1/fd 2>/dev/null | wc -l)\"\n\
         echo left > /tmp/file; mkdir -p /tmp/locked/deep; echo x > /tmp/locked/deep/f\n\
         chmod 0 /tmp/locked/deep /tmp/locked\n\
         sleep 5252 & setsid sleep 5252 &\ncat >/dev/null\n",
    )
    .unwrap();
    fs::set_permissions(&launch, fs::Permissions::from_mode(0o755)).unwrap();
    sandbox.prepare_workdir(tmp.path(), 0).unwrap();
    let mut warm = Warm::start(
        &sandbox,
        Path::new(env!("CARGO_BIN_EXE_take6")),
        tmp.path(),
        None,
    )
    .unwrap();
    for game in 0..3 {
        let (in_read, mut in_write) = std::io::pipe().unwrap();
        let (out_read, out_write) = std::io::pipe().unwrap();
        let (_err_read, err_write) = std::io::pipe().unwrap();
        warm.launch([in_read.into(), out_write.into(), err_write.into()])
            .unwrap();
        writeln!(in_write, "game{game}").unwrap();
        let mut line = String::new();
        std::io::BufReader::new(out_read)
            .read_line(&mut line)
            .unwrap();
        // A fresh /tmp each game, the bot's own user (from the controller's range), no look
        // into the init.
        let uid: u32 = line.split(' ').nth(3).and_then(|u| u.parse().ok()).unwrap();
        assert!(uid >= take6::sandbox::UID_BASE, "{line}");
        assert_eq!(
            line,
            format!("got game{game} 0 {uid} /bot 0\n"),
            "a fresh /tmp each game, and no look into the init"
        );
        let deadline = Instant::now() + Duration::from_secs(20);
        while processes("sleep 5252").len() < 2 && Instant::now() < deadline {
            std::thread::sleep(Duration::from_millis(20));
        }
        assert_eq!(
            processes("sleep 5252").len(),
            2,
            "the bot's daemons started"
        );
        warm.end().unwrap();
        // Killed, they may take a moment to go on a loaded machine (the series waits for
        // them too: `Sandbox::settle`); what matters is that none survives.
        assert_eq!(
            gone("sleep 5252"),
            Vec::<String>::new(),
            "game {game} left a process"
        );
    }
    drop(warm);
}

/// Warm inits made ahead (`Sandbox::prewarm`, while a series prepares its bots) are the ones
/// its first games use, and a finished game's init is kept for the bot's next game: as many
/// inits as games of the bot at once, never one per game. Without the sandbox, so it runs
/// everywhere.
#[tokio::test]
async fn prewarmed_inits_serve_the_first_games_and_are_kept_for_the_next() {
    use take6::sandbox::{Clock, Limits, Mode, Sandbox};
    use tokio::io::{AsyncBufReadExt, AsyncWriteExt};
    let mut sandbox = Sandbox::new(Mode::None, Limits::default(), Clock::Wall).unwrap();
    assert!(sandbox.keep_warm(PathBuf::from(env!("CARGO_BIN_EXE_take6"))));
    let sandbox = std::sync::Arc::new(sandbox);
    let tmp = tempfile::tempdir().unwrap();
    let workdir = fs::canonicalize(tmp.path()).unwrap();
    let launch = workdir.join("launch");
    fs::write(&launch, "#!/bin/sh\nexec cat\n").unwrap();
    fs::set_permissions(&launch, fs::Permissions::from_mode(0o755)).unwrap();
    // The inits of this working copy: `take6 sandbox-init` processes running in it.
    let inits = || -> usize {
        fs::read_dir("/proc")
            .unwrap()
            .flatten()
            .filter(|p| {
                let cmdline = fs::read(p.path().join("cmdline")).unwrap_or_default();
                String::from_utf8_lossy(&cmdline).contains("sandbox-init")
                    && fs::read_link(p.path().join("cwd")).ok().as_deref() == Some(&workdir)
            })
            .count()
    };
    assert_eq!(inits(), 0);
    sandbox.prewarm(&workdir, 2);
    // Started with a vfork, an init may show its command line a moment after the start
    // returns (the kernel lets the parent go on before the new program is set up).
    let deadline = Instant::now() + Duration::from_secs(10);
    while inits() < 2 && Instant::now() < deadline {
        std::thread::sleep(Duration::from_millis(5));
    }
    assert_eq!(inits(), 2, "made ahead of the first game");

    // Three rounds of two games at once: each game answers through its own pipes, and no
    // round starts an init.
    for round in 0..3 {
        let mut games = Vec::new();
        for game in 0..2 {
            let mut launched = sandbox.launch_game(&workdir).unwrap();
            let line = format!("round {round} game {game}\n");
            launched.stdin.write_all(line.as_bytes()).await.unwrap();
            let mut echoed = String::new();
            tokio::io::BufReader::new(&mut launched.stdout)
                .read_line(&mut echoed)
                .await
                .unwrap();
            assert_eq!(echoed, line);
            games.push(launched);
        }
        assert_eq!(
            inits(),
            2,
            "round {round}: the games used the inits made ahead"
        );
        for mut game in games {
            drop(game.stdin);
            game.tree.kill();
        }
    }
    assert_eq!(inits(), 2);
}

fn take6_is_root() -> bool {
    fs::read_to_string("/proc/self/status")
        .unwrap()
        .lines()
        .any(|l| l.starts_with("Uid:") && l.split_whitespace().nth(2) == Some("0"))
}
