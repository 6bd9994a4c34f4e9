//! Processor time: the CPU clock is enforced on every reply (background processes
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

/// The tests of this file measure processor time: one at a time, so that the kamikaze's
/// spinners never share the machine with another test's thinking.
static ALONE: std::sync::Mutex<()> = std::sync::Mutex::new(());

fn alone() -> std::sync::MutexGuard<'static, ()> {
    ALONE
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner)
}

/// Every fault of `bot` in the zoo's series, as (kind, reason).
fn faults(zoo: &Zoo, bot: &str) -> Vec<(String, String)> {
    zoo.games().iter().flat_map(|g| faults_of(g, bot)).collect()
}

#[test]
fn a_reply_counts_the_cpu_its_background_processes_used_since_the_last() {
    let _alone = alone();
    if !sandbox_available("background") {
        return;
    }
    // hostile-background burns 1.5 s of CPU in a child after each reply (limit 1 s) and answers
    // the next question at once; sleepy's 3 s naps give the child time to finish first, so
    // the reply comes long before any periodic look at the clock.
    let zoo = Zoo::new("background", &[BACKGROUND, "sleepy"]);
    fs::write(zoo.bots().join("sleepy").join("sleep-s"), "3").unwrap();
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
    let _alone = alone();
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
    let last = game.rounds[0].invalid.last().unwrap();
    assert_eq!(last.turn, 10, "{last:?}");
    assert_eq!(faults_of(game, HONEST), vec![]);
    zoo.assert_no_process_left();
}

#[test]
fn forty_spinners_do_not_starve_honest_bots_at_either_table() {
    let _alone = alone();
    if !sandbox_available("kamikaze") {
        return;
    }
    // Two honest bots that use 60 % of their CPU limit on each of their first replies, and a
    // kamikaze whose 40 setsid spinners reset their affinity to every processor, at tables of
    // two, two tables at once: the subsets {honest, honest-b}, {honest, kamikaze},
    // {honest-b, kamikaze}, two games each, so honest bots play beside the kamikaze and at the
    // other table while it spins.
    let zoo = Zoo::new("kamikaze", &["hostile-kamikaze"]);
    common::copy_dir(&zoo.bots().join(HONEST), &zoo.bots().join("honest-b"));
    for bot in [HONEST, "honest-b"] {
        fs::write(zoo.bots().join(bot).join("cpu-ms"), "600 3").unwrap();
    }
    let out = zoo.run(
        "strict",
        &[
            "--players",
            "2",
            "--games",
            "6",
            "--jobs",
            "2",
            "--reply-ms",
            "1000",
        ],
    );
    zoo::assert_ok(&out);
    let spinners = zoo.work_file("hostile-kamikaze", "spinners.txt");
    assert!(spinners.starts_with("40 spinners"), "{spinners}");
    let games = zoo.games();
    assert_eq!(games.len(), 6);
    for g in &games {
        for bot in [HONEST, "honest-b"] {
            assert_eq!(faults_of(g, bot), vec![], "{bot} in game {}", g.game);
        }
    }
    // The figure for the README: the honest bots' slowest thinking reply, in wall time.
    let times = fs::read_to_string(zoo.series().join("reply_times.csv")).unwrap();
    eprintln!("reply times with the kamikaze:\n{times}");
    // Its spinners are its own tree's CPU time (an awk bot alone uses a few ms a game).
    let kamikaze = times
        .lines()
        .find(|l| l.starts_with("hostile-kamikaze,"))
        .unwrap();
    let cpu_max: f64 = kamikaze.split(',').nth(4).unwrap().parse().unwrap();
    assert!(cpu_max > 300.0, "{kamikaze}");
    zoo.assert_no_process_left();
}

#[test]
fn a_bots_own_templates_are_its_own_time() {
    let _alone = alone();
    if !sandbox_available("template-thinker") {
        return;
    }
    // template-thinker's own `turn` template searches its move inside the controller; the bot
    // itself only copies the answer (well under a millisecond of CPU a reply). Rendering is
    // charged to it: against a 5 ms limit, it faults naming the template time; with room, its
    // recorded reply times hold the rendering.
    let zoo = Zoo::new("template-thinker", &["template-thinker"]);
    let out = zoo.run(
        "strict",
        &[
            "--players",
            "3",
            "--games",
            "1",
            "--jobs",
            "1",
            "--reply-ms",
            "5",
        ],
    );
    zoo::assert_ok(&out);
    let faults = faults(&zoo, "template-thinker");
    assert_eq!(faults.len(), 1, "{faults:?}");
    let (kind, reason) = &faults[0];
    assert_eq!(kind, "timeout");
    assert!(
        reason.contains("the controller's rendering of its own templates"),
        "{reason}"
    );

    let zoo = Zoo::new("template-thinker-room", &["template-thinker"]);
    let out = zoo.run(
        "strict",
        &[
            "--players",
            "3",
            "--games",
            "1",
            "--jobs",
            "1",
            "--reply-ms",
            "1000",
        ],
    );
    zoo::assert_ok(&out);
    let game = &zoo.games()[0];
    assert_eq!(faults_of(game, "template-thinker"), vec![]);
    let seat = game
        .players
        .iter()
        .position(|p| p == "template-thinker")
        .unwrap();
    // Each of its ten card replies holds a render of the search (at least a millisecond, a
    // fraction of what it takes here); a `pickrow` reply renders no search.
    let cpu = &game.replies.iter().find(|r| r.seat == seat).unwrap().cpu_us;
    let searched = cpu.iter().filter(|&&us| us >= 1000).count();
    assert_eq!(searched, 10, "{cpu:?}");
}
