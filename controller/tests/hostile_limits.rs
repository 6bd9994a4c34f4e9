//! The hostile-bot zoo of issue #7, resource limits: CPU spinners, a memory hog with children, a
//! disk filler and a fork storm at a table with the strict `honest` bot under `--sandbox strict`:
//! the limit is the attacker's fault naming it, and the attack had no effect on anyone else (see
//! `checks::assert_no_effect`). Each `*_without_the_sandbox` sibling shows the attack is real.

#[path = "hostile/checks.rs"]
mod checks;
mod common;
#[path = "hostile/zoo.rs"]
mod zoo;

use std::fs;

use checks::{assert_limit_fault, assert_no_effect, contained, faults_of, snapshot};
use zoo::{HONEST, Zoo, sandbox_available};

/// The honest bot burns 250 ms of CPU per reply (its first 4 replies) with a reply limit of 1 s.
const SPIN_ARGS: [&str; 5] = ["--reply-ms", "1000", "--first-reply-ms", "1000", "--seed"];

#[test]
fn cpu_spinners_at_the_table_do_not_make_an_honest_bot_time_out() {
    if !sandbox_available("spin") {
        return;
    }
    let zoo = Zoo::new("spin", &["hostile-spin"]);
    zoo.honest_thinks(250, 4);
    let before = snapshot(&zoo.bots(), &[]);
    let out = zoo.run("strict", &[&SPIN_ARGS[..], &["3", "--games", "1"]].concat());
    assert_no_effect(&zoo, &out, "hostile-spin", 1, &before);
    let clock = zoo.manifest()["settings"]["clock"].clone();
    assert_eq!(clock.as_str(), Some("cpu"), "the default clock");
    let times = fs::read_to_string(zoo.series().join("reply_times.csv")).unwrap();
    assert!(times.contains(HONEST), "{times}");
}

#[test]
fn cpu_spinners_make_an_honest_bot_time_out_on_the_wall_clock_without_the_sandbox() {
    let zoo = Zoo::new("spin-none", &["hostile-spin"]);
    zoo.honest_thinks(250, 4);
    let args = [&SPIN_ARGS[..], &["3", "--games", "1", "--clock", "wall"]].concat();
    zoo::assert_ok(&zoo.run_on_one_cpu("none", &args));
    let faults = faults_of(&zoo.games()[0], HONEST);
    assert!(faults.iter().any(|(k, _)| k == "timeout"), "{faults:?}");
}

#[test]
fn a_memory_hog_with_children_is_stopped_at_the_limit_of_its_tree() {
    let args = ["--memory-mib", "512", "--first-reply-ms", "20000"];
    let Some(zoo) = contained("memory", "hostile-memory", 1, &args) else {
        return;
    };
    assert_limit_fault(&zoo, "hostile-memory", "memory_limit", "512");
    let log = zoo.work_file("hostile-memory", "memory.txt");
    for line in log.lines().filter(|l| l.starts_with("alive")) {
        assert!(line == "alive 0" || line == "alive 1", "{log}");
    }
}

#[test]
fn a_memory_hog_with_children_takes_gigabytes_without_the_sandbox() {
    // The wall clock (no cgroup without the sandbox): room for a loaded machine.
    let zoo = Zoo::new("memory-none", &["hostile-memory"]);
    // 4 children (1.9 GiB) are enough to show it, and quicker on a loaded machine.
    fs::write(zoo.bots().join("hostile-memory/children"), "4").unwrap();
    let args = [
        "--memory-mib",
        "512",
        "--first-reply-ms",
        "60000",
        "--games",
        "1",
    ];
    zoo::assert_ok(&zoo.run("none", &args));
    let log = zoo.work_file("hostile-memory", "memory.txt");
    let faults = faults_of(&zoo.games()[0], "hostile-memory");
    assert!(log.contains("alive 4"), "{log}{faults:?}");
}

#[test]
fn a_disk_filler_is_stopped_at_the_limit_and_leaves_nothing_in_tmp() {
    let args = ["--disk-mib", "64", "--first-reply-ms", "20000"];
    let Some(zoo) = contained("disk", "hostile-disk", 1, &args) else {
        return;
    };
    assert_limit_fault(&zoo, "hostile-disk", "disk_limit", "64");
    // Its private /tmp was usable, up to the limit.
    let log = zoo.work_file("hostile-disk", "disk.txt");
    let tmp: u64 = log
        .lines()
        .next()
        .unwrap()
        .rsplit(' ')
        .next()
        .unwrap()
        .parse()
        .unwrap();
    assert!(tmp > 0 && tmp <= 64 << 20, "{log}");
}

#[test]
fn a_disk_filler_cannot_put_more_than_its_limit_on_the_host_disk() {
    // Each file is capped (a file-size rlimit) and so is the total (the working copy is a disk
    // image while the series runs): many files within the limit each cannot add up past it.
    let args = ["--disk-mib", "64", "--first-reply-ms", "20000"];
    let Some(zoo) = contained("disk-total", "hostile-disk", 1, &args) else {
        return;
    };
    // Twice the limit, for the bot's own files and any delay in noticing.
    assert_limit_fault(&zoo, "hostile-disk", "disk_limit", "64");
    let kept = checks::folder_bytes(&zoo.work("hostile-disk"));
    let log = zoo.work_file("hostile-disk", "disk.txt");
    assert!(
        kept <= 128 << 20,
        "{kept} bytes kept in the working copy:\n{log}"
    );
    // The cap stopped writes while they were made: the last chunk's dd failed (disk full).
    assert!(log.contains("chunk7 1\n"), "{log}");
}

#[test]
fn a_disk_filler_fills_the_disk_and_tmp_without_the_sandbox() {
    // The wall clock (no cgroup without the sandbox): room for a loaded machine.
    let zoo = Zoo::new("disk-none", &["hostile-disk"]);
    let args = [
        "--disk-mib",
        "64",
        "--first-reply-ms",
        "60000",
        "--games",
        "1",
    ];
    zoo::assert_ok(&zoo.run("none", &args));
    let log = zoo.work_file("hostile-disk", "disk.txt");
    let faults = faults_of(&zoo.games()[0], "hostile-disk");
    assert!(
        log.contains(&format!("big 0 {}", 1 << 30)),
        "{log}{faults:?}"
    );
    let left = std::path::PathBuf::from(format!("/tmp/{}-tmp", zoo.marker));
    assert!(
        zoo.tmp_files().contains(&left),
        "nothing left in /tmp: {log}"
    );
}

#[test]
fn a_fork_storm_is_stopped_at_the_process_limit() {
    let args = ["--max-procs", "32", "--first-reply-ms", "20000"];
    let Some(zoo) = contained("storm", "hostile-forkstorm", 2, &args) else {
        return;
    };
    assert_limit_fault(&zoo, "hostile-forkstorm", "process_limit", "32");
    let log = zoo.work_file("hostile-forkstorm", "storm.txt");
    assert!(!log.contains("forked 200"), "{log}");
}

#[test]
fn a_fork_storm_forks_freely_without_the_sandbox() {
    let zoo = Zoo::new("storm-none", &["hostile-forkstorm"]);
    let args = [
        "--max-procs",
        "32",
        "--first-reply-ms",
        "20000",
        "--games",
        "1",
    ];
    zoo::assert_ok(&zoo.run("none", &args));
    let log = zoo.work_file("hostile-forkstorm", "storm.txt");
    assert_eq!(log, "forked 200\n");
}
