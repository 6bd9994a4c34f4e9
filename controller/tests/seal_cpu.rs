//! Issue 21, processor time: the CPU clock is enforced on every reply (background processes
//! included) and after the last message, a bot's own templates are its own time, and a bot tree
//! that spins cannot starve honest bots at its table or at the other one. Each test runs the real
//! binary with real bots under `--sandbox strict`, the honest bot of the zoo at the table.

#[path = "hostile/checks.rs"]
mod checks;
mod common;
#[path = "hostile/zoo.rs"]
mod zoo;

use std::fs;

use checks::faults_of;
use zoo::{HONEST, Zoo, sandbox_available};

const BACKGROUND: &str = "hostile-background";

/// Every fault of `bot` in the zoo's series, as (kind, reason).
fn faults(zoo: &Zoo, bot: &str) -> Vec<(String, String)> {
    zoo.games().iter().flat_map(|g| faults_of(g, bot)).collect()
}

#[test]
fn a_reply_counts_the_cpu_its_background_processes_used_since_the_last() {
    if !sandbox_available("background") {
        return;
    }
    // hostile-background burns 1.5 s of CPU in a child after each reply (limit 1 s) and answers
    // the next question at once; sleepy's 2.5 s naps give the child time to finish first, so
    // the reply comes long before any periodic look at the clock.
    let zoo = Zoo::new("background", &[BACKGROUND, "sleepy"]);
    let out = zoo.run(
        "strict",
        &[
            "--players",
            "4",
            "--games",
            "1",
            "--jobs",
            "1",
            "--reply-ms",
            "1000",
        ],
    );
    zoo::assert_ok(&out);
    let faults = faults(&zoo, BACKGROUND);
    assert_eq!(faults.len(), 1, "{faults:?}");
    let (kind, reason) = &faults[0];
    assert_eq!(kind, "timeout");
    assert!(
        reason.contains("ms of CPU time for one reply") && reason.contains("limit of 1000 ms"),
        "{reason}"
    );
    let used: u64 = reason
        .split_whitespace()
        .nth(1)
        .and_then(|n| n.parse().ok())
        .unwrap();
    assert!(used >= 1400, "{reason}");
    // It really thought in the background before the reply that faulted.
    let thought = zoo.work_file(BACKGROUND, "thought.txt");
    assert!(thought.contains("burned 1500 ms"), "{thought}");
    for honest in [HONEST, "sleepy"] {
        assert_eq!(faults_of(&zoo.games()[0], honest), vec![], "{honest}");
    }
    zoo.assert_no_process_left();
}

#[test]
fn cpu_used_after_the_last_message_is_counted() {
    if !sandbox_available("after-last") {
        return;
    }
    // 2.5 s of CPU after `others`, within a grace period long enough to spend it.
    let zoo = Zoo::new("after-last", &[BACKGROUND]);
    fs::write(zoo.bots().join(BACKGROUND).join("after-last-ms"), "2500").unwrap();
    let out = zoo.run(
        "strict",
        &[
            "--players",
            "3",
            "--games",
            "1",
            "--jobs",
            "1",
            "--grace-ms",
            "8000",
        ],
    );
    zoo::assert_ok(&out);
    let faults = faults(&zoo, BACKGROUND);
    assert_eq!(faults.len(), 1, "{faults:?}");
    let (kind, reason) = &faults[0];
    assert_eq!(kind, "timeout");
    assert!(reason.contains("after its last reply"), "{reason}");
    let game = &zoo.games()[0];
    // The fault is the game's last event: at the last turn, after the scores were known.
    let last = game.invalid.last().unwrap();
    assert_eq!(last.turn, 10, "{last:?}");
    assert_eq!(faults_of(game, HONEST), vec![]);
    zoo.assert_no_process_left();
}
