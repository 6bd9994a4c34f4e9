//! Channels between bots: two bots at one table, each in its own sandbox with a uid of
//! its own and the seccomp filter, try to pass a message through the kernel keyring, inotify,
//! flock on a shared system file and the lock table that lists it (`/proc/locks`, frozen)
//! (`hostile-talker`, a sender and a receiver), and to make user
//! namespaces and io_uring; nothing gets through. Without the sandbox the same pair talks. A bot
//! that keeps an SQLite database (WAL) in its working copy still works (`sqlite-user`). The
//! machine-wide counters of `/proc` (`hostile-counter`, a sender and a receiver) never move
//! for a bot, whatever another does (`/proc/net/softnet_stat`, which cannot be covered, is
//! measured); without the sandbox the same pair passes its hand.

#[path = "hostile/checks.rs"]
mod checks;
mod common;
#[path = "hostile/zoo.rs"]
mod zoo;

use std::fs;
use std::path::Path;

use checks::faults_of;
use zoo::{HONEST, Zoo, sandbox_available};

/// A zoo with two copies of `hostile-talker`, `talker-a` sending and `talker-b` receiving.
fn talkers(test: &str) -> Zoo {
    let zoo = Zoo::new(test, &[]);
    let from = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/bots/hostile-talker");
    for (name, role) in [("talker-a", "send"), ("talker-b", "receive")] {
        let to = zoo.bots().join(name);
        fs::create_dir_all(&to).unwrap();
        for file in ["launch", "talk.py"] {
            let text = fs::read_to_string(from.join(file)).unwrap();
            fs::write(to.join(file), text.replace("@MARKER@", &zoo.marker)).unwrap();
        }
        fs::set_permissions(
            to.join("launch"),
            fs::metadata(from.join("launch")).unwrap().permissions(),
        )
        .unwrap();
        fs::write(to.join("role"), role).unwrap();
    }
    zoo
}

const ARGS: [&str; 8] = [
    "--players",
    "3",
    "--games",
    "1",
    "--jobs",
    "1",
    "--first-reply-ms",
    "20000",
];

#[test]
fn two_bots_cannot_talk_through_the_kernel() {
    if !sandbox_available("talk") {
        return;
    }
    let zoo = talkers("talk");
    zoo::assert_ok(&zoo.run("strict", &ARGS));
    let game = &zoo.games()[0];
    for bot in ["talker-a", "talker-b", HONEST] {
        assert_eq!(faults_of(game, bot), vec![], "{bot}");
    }
    let received = zoo.work_file("talker-b", "received.txt");
    for channel in ["keyring", "inotify", "flock", "lock table"] {
        assert!(
            !received.contains(channel),
            "{channel} got through:\n{received}"
        );
    }
    let sender = zoo.work_file("talker-a", "tried.txt");
    for call in ["add_key", "unshare user namespace", "io_uring_setup"] {
        assert!(
            sender.contains(&format!("{call}: refused (EPERM)")),
            "{call}:\n{sender}"
        );
    }
    let receiver = zoo.work_file("talker-b", "tried.txt");
    assert!(
        receiver.contains("inotify_init1: refused (ENOSYS)"),
        "{receiver}"
    );
    // Two bots, two users, neither of them nobody.
    let uid = |tried: &str| -> u32 {
        let line = tried.lines().find(|l| l.starts_with("uid ")).unwrap();
        line[4..].parse().unwrap()
    };
    let (a, b) = (uid(&sender), uid(&receiver));
    assert!(a != b && a >= take6::sandbox::UID_BASE && b >= take6::sandbox::UID_BASE);
    // What POSIX record locks on shared files still carry is measured in the README.
    eprintln!("received through the sandbox:\n{received}");
}

#[test]
fn two_bots_talk_through_the_kernel_without_the_sandbox() {
    let zoo = talkers("talk-none");
    zoo::assert_ok(&zoo.run("none", &ARGS));
    let received = zoo.work_file("talker-b", "received.txt");
    for channel in [
        "keyring: cards 1 2 3 from A",
        "inotify",
        "flock",
        "lock table",
    ] {
        assert!(received.contains(channel), "{channel}:\n{received}");
    }
}

/// The counter tests one at a time: the counters are machine-wide, so the sandboxed test's
/// sender (5 pseudo-terminals a 1-bit, loopback packets) moves what the test without the
/// sandbox reads (pty-nr read 10 where its own sender held 5), and the other way round.
static COUNTER_TESTS: std::sync::Mutex<()> = std::sync::Mutex::new(());

fn one_counter_test_at_a_time() -> std::sync::MutexGuard<'static, ()> {
    COUNTER_TESTS.lock().unwrap_or_else(|e| e.into_inner())
}

/// A zoo with two copies of `hostile-counter`, `counter-a` sending and `counter-b` receiving.
fn counters(test: &str) -> Zoo {
    let zoo = Zoo::new(test, &[]);
    let from = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/bots/hostile-counter");
    for (name, role) in [("counter-a", "send"), ("counter-b", "receive")] {
        let to = zoo.bots().join(name);
        common::copy_dir(&from, &to);
        let launch = fs::read_to_string(to.join("launch")).unwrap();
        fs::write(to.join("launch"), launch.replace("@MARKER@", &zoo.marker)).unwrap();
        fs::write(to.join("role"), role).unwrap();
        // Slots of 200 ms: clear of the noise of a busy machine (other tests' included).
        fs::write(to.join("slot_ms"), "200").unwrap();
    }
    zoo
}

/// The 32 bits `hostile-counter` sends.
const HAND: &str = "10110010011101001100101101100010";

/// Counters read as a level (what is held at the reading); the others count up, and the
/// receiver reads what was counted since its last reading.
const LEVELS: [&str; 5] = ["procs_running", "loadavg", "file-nr", "sysinfo", "pty-nr"];

/// What the receiver read, per counter: 33 readings, one before the first slot.
fn readings(zoo: &Zoo) -> Vec<(String, Vec<i64>)> {
    zoo.work_file("counter-b", "received.txt")
        .lines()
        .map(|line| {
            let v: serde_json::Value = serde_json::from_str(line).unwrap();
            let values = v["values"]
                .as_array()
                .unwrap()
                .iter()
                .map(|x| x.as_i64().unwrap())
                .collect();
            (v["counter"].as_str().unwrap().to_string(), values)
        })
        .collect()
}

/// How many of the 32 bits a receiver decodes right from a counter's readings: the slot's
/// level (or what was counted in it) above the median of all 32 is a 1 (the hand has 16 ones).
/// A counter that never moves decodes as all zeros: 16 right, as chance.
fn bits_right(counter: &str, values: &[i64]) -> usize {
    let signal: Vec<i64> = if LEVELS.contains(&counter) {
        values[1..].to_vec()
    } else {
        values.windows(2).map(|w| (w[1] - w[0]).abs()).collect()
    };
    let mut sorted = signal.clone();
    sorted.sort();
    let median = sorted[sorted.len() / 2 - 1];
    signal
        .iter()
        .zip(HAND.chars())
        .filter(|(x, bit)| (**x > median) == (*bit == '1'))
        .count()
}

/// The `/proc` counters, frozen in the sandbox.
const FROZEN: [&str; 7] = [
    "processes",
    "ctxt",
    "intr",
    "procs_running",
    "loadavg",
    "file-nr",
    "pty-nr",
];

#[test]
fn two_bots_cannot_talk_through_machine_wide_counters() {
    let _alone = one_counter_test_at_a_time();
    if !sandbox_available("counters") {
        return;
    }
    // Warm sandboxes (the default as root) and fresh ones bind the same copies.
    for warm in ["true", "false"] {
        let zoo = counters("counters");
        let args = [&ARGS[..], &["--warm-sandboxes", warm]].concat();
        zoo::assert_ok(&zoo.run("strict", &args));
        let game = &zoo.games()[0];
        for bot in ["counter-a", "counter-b", HONEST] {
            assert_eq!(faults_of(game, bot), vec![], "{bot}");
        }
        // Its tries to unmount the frozen copies (bound by the warm init itself, or by
        // bubblewrap) and to reach the folder of copies were all refused.
        let uncover = zoo.work_file("counter-b", "uncover.txt");
        assert_eq!(uncover.lines().count(), 10, "{uncover}");
        assert!(
            uncover.lines().all(|l| l.contains(": refused ")),
            "warm {warm}:\n{uncover}"
        );
        let read = readings(&zoo);
        assert_eq!(read.len(), 10, "{read:?}");
        for (counter, values) in &read {
            assert_eq!(values.len(), 33, "{counter}");
            if FROZEN.contains(&counter.as_str()) {
                assert!(
                    values.iter().all(|v| *v == values[0] && *v >= 0),
                    "{counter} moved (warm {warm}): {values:?}"
                );
            }
            // What is not frozen (sysinfo, statvfs, softnet) is measured in docs/sandbox.md.
            eprintln!("{counter}: {}/32 bits right", bits_right(counter, values));
        }
        // Runtimes still size their pools by the machine: its processors and memory.
        let online = nix::unistd::sysconf(nix::unistd::SysconfVar::_NPROCESSORS_ONLN)
            .unwrap()
            .unwrap();
        let memtotal = fs::read_to_string("/proc/meminfo")
            .unwrap()
            .lines()
            .find_map(|l| l.strip_prefix("MemTotal:"))
            .map(|v| v.split_whitespace().next().unwrap().to_string())
            .unwrap();
        assert_eq!(
            zoo.work_file("counter-b", "sizes.txt"),
            format!("cpu_count {online}\nonline {online}\nmemtotal_kib {memtotal}\n")
        );
    }
}

#[test]
fn two_bots_talk_through_machine_wide_counters_without_the_sandbox() {
    let _alone = one_counter_test_at_a_time();
    let zoo = counters("counters-none");
    zoo::assert_ok(&zoo.run("none", &ARGS));
    let read = readings(&zoo);
    for (counter, values) in &read {
        let right = bits_right(counter, values);
        eprintln!("{counter}: {right}/32 bits right");
        // Chance is 16; 24 or more happens by chance once in 300. `processes` (the forks
        // since boot) and `pty-nr` (the pseudo-terminals open) carry the bits on any
        // machine; loadavg and file-nr pass too on a quiet one, but beside other builds
        // their noise (a load of 20, a thousand files) drowns them, so they only prove the
        // fixture where the machine is quiet.
        if counter == "processes" || counter == "pty-nr" {
            assert!(right >= 24, "{counter}: {right}/32 right: {values:?}");
        }
    }
}

#[test]
fn sqlite_keeps_working_in_the_working_copy() {
    if !sandbox_available("sqlite") {
        return;
    }
    // Two games at once share the working copy, and so the database: the record locks
    // between them must work, inside each sandbox.
    let zoo = Zoo::new("sqlite", &["sqlite-user"]);
    zoo::assert_ok(&zoo.run("strict", &["--games", "2"]));
    let log = zoo.work_file("sqlite-user", "sqlite.txt");
    for g in zoo.games() {
        assert_eq!(faults_of(&g, "sqlite-user"), vec![], "{log}");
    }
    assert_eq!(log.lines().count(), 2, "{log}");
    assert!(
        log.lines().all(|l| l.starts_with("sqlite ok: journal wal")),
        "{log}"
    );
}
