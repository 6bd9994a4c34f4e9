//! Issue 21, channels between bots: two bots at one table, each in its own sandbox with a uid of
//! its own and the seccomp filter, try to pass a message through the kernel keyring, inotify and
//! flock on a shared system file (`hostile-talker`, a sender and a receiver), and to make user
//! namespaces and io_uring; nothing gets through. Without the sandbox the same pair talks. A bot
//! that keeps an SQLite database (WAL) in its working copy still works (`sqlite-user`).

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
    for channel in ["keyring", "inotify", "flock"] {
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
    for channel in ["keyring: cards 1 2 3 from A", "inotify", "flock"] {
        assert!(received.contains(channel), "{channel}:\n{received}");
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
