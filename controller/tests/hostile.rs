//! The hostile-bot zoo of issue #7, isolation: the real `take6` binary with one attacker from
//! `tests/bots/hostile-*` and the strict `honest` bot at a table (built-ins pad), under
//! `--sandbox strict`. Each test checks that the attack had no effect (see
//! `checks::assert_no_effect`); where it is cheap and safe, a sibling `*_without_the_sandbox` test
//! runs the same table under `--sandbox none` and shows the attack is real, so the sandboxed test
//! can fail. Resource limits are in `tests/hostile_limits.rs`.

#[path = "hostile/checks.rs"]
mod checks;
mod common;
#[path = "hostile/zoo.rs"]
mod zoo;

use std::fs;
use std::os::fd::OwnedFd;
use std::os::unix::fs::PermissionsExt;
use std::os::unix::process::ExitStatusExt;
use std::process::Stdio;
use std::time::{Duration, Instant};

use nix::fcntl::{FcntlArg, FdFlag, fcntl};
use nix::sys::signal::{Signal, kill};
use nix::unistd::Pid;

use checks::{assert_clean, contained, faults_of, snapshot};
use common::git;
use zoo::{HONEST, Zoo, sandbox_available, text};

const SEED: &str = "8128812881";

#[test]
fn a_bot_cannot_read_the_seed_the_results_or_other_bots() {
    let Some(zoo) = contained("peek", "hostile-peek", 2, &["--seed", SEED]) else {
        return;
    };
    assert_clean(&zoo, "hostile-peek");
    for file in ["leak.txt", "build-leak.txt"] {
        let leak = zoo.work_file("hostile-peek", file);
        assert!(leak.contains("== ../../series.toml"), "ran:\n{leak}");
        for secret in [
            SEED,
            "games_planned",
            "protocol violation",
            "TAKE6_ZOO_CANARY",
        ] {
            assert!(!leak.contains(secret), "{secret} leaked in {file}:\n{leak}");
        }
    }
}

#[test]
fn a_bot_reads_the_seed_without_the_sandbox() {
    let zoo = Zoo::new("peek-none", &["hostile-peek"]);
    zoo::assert_ok(&zoo.run("none", &["--seed", SEED]));
    let leak = zoo.work_file("hostile-peek", "leak.txt");
    assert!(leak.contains(&format!("seed = {SEED}")), "{leak}");
    assert!(leak.contains("TAKE6_ZOO_CANARY"), "{leak}");
}

#[test]
fn a_bot_cannot_kill_or_write_into_its_neighbours() {
    for attacker in ["hostile-kill", "hostile-stdout"] {
        let Some(zoo) = contained("kill", attacker, 2, &[]) else {
            return;
        };
        assert_clean(&zoo, attacker);
        for log in ["kills.txt", "writes.txt"] {
            assert_eq!(
                zoo.work_file(attacker, log),
                "",
                "{attacker} reached the honest bot"
            );
        }
        // It searched all the time it had (60 rounds), seeing only its own game's processes.
        let search = zoo.work_file(attacker, "search.txt");
        assert!(search.starts_with("searched 60 times"), "{search}");
    }
}

#[test]
fn a_bot_kills_and_writes_into_its_neighbours_without_the_sandbox() {
    for (attacker, log) in [
        ("hostile-kill", "kills.txt"),
        ("hostile-stdout", "writes.txt"),
    ] {
        let zoo = Zoo::new("kill-none", &[attacker]);
        zoo::assert_ok(&zoo.run("none", &[]));
        assert_ne!(
            zoo.work_file(attacker, log),
            "",
            "{attacker} found no victim"
        );
        let faults: usize = zoo.games().iter().map(|g| faults_of(g, HONEST).len()).sum();
        assert!(faults > 0, "{attacker}: the honest bot was not hurt");
    }
}

#[test]
fn a_bot_cannot_overwrite_other_bots_or_the_bots_folder() {
    let Some(zoo) = contained("overwrite", "hostile-overwrite", 2, &[]) else {
        return;
    };
    assert_clean(&zoo, "hostile-overwrite");
    assert_eq!(zoo.work_file("hostile-overwrite", "overwrite.txt"), "");
}

#[test]
fn a_bot_overwrites_the_bots_folder_without_the_sandbox() {
    let zoo = Zoo::new("overwrite-none", &["hostile-overwrite"]);
    let before = snapshot(&zoo.bots(), &[]);
    zoo::assert_ok(&zoo.run("none", &[]));
    assert_ne!(snapshot(&zoo.bots(), &[]), before);
    assert!(zoo.bots().join(HONEST).join("pwned").exists());
}

#[test]
fn a_bot_cannot_stop_or_terminate_the_controller() {
    // The attacker may freeze or end its own game (its own loss); the others' games go on.
    for attacker in ["hostile-stop", "hostile-term"] {
        if contained("signal", attacker, 2, &[]).is_none() {
            return;
        }
    }
}

#[test]
fn a_bot_stops_and_terminates_the_controller_without_the_sandbox() {
    let zoo = Zoo::new("term-none", &["hostile-term"]);
    let out = zoo.run("none", &[]);
    assert!(!out.status.success(), "{}", text(&out.stderr));
    // Interrupted, or (a second signal from the other game stops at once) left running.
    let status = zoo.manifest()["status"].to_string();
    assert_ne!(
        status,
        "\"complete\"",
        "{}: {}",
        out.status,
        text(&out.stderr)
    );

    // A stopped controller never finishes: the test's timeout kills it.
    let zoo = Zoo::new("stop-none", &["hostile-stop"]);
    let out = zoo.run_for("none", &[], Duration::from_secs(8));
    assert_eq!(out.status.signal(), Some(9), "{}", text(&out.stderr));
}

#[test]
fn daemons_from_launch_and_build_die_with_their_game() {
    let Some(zoo) = contained("daemon", "hostile-daemon", 4, &[]) else {
        return;
    };
    assert_clean(&zoo, "hostile-daemon");
    // They did start (and are gone).
    let log = zoo.work_file("hostile-daemon", "daemons.txt");
    for daemon in ["setsid", "double", "build-setsid", "build-double"] {
        let line = format!("started {}-daemon-{daemon}\n", zoo.marker);
        assert!(log.contains(&line), "{daemon}:\n{log}");
    }
    // Four games on two tables: a sandbox kept for a later game holds nothing of an earlier one.
    let leftovers: Vec<&str> = log.lines().filter(|l| l.starts_with("leftover")).collect();
    assert_eq!(leftovers, ["leftover 0"; 4], "{log}");
}

#[test]
fn daemons_of_builds_outlive_the_series_without_the_sandbox() {
    let zoo = Zoo::new("daemon-none", &["hostile-daemon"]);
    zoo::assert_ok(&zoo.run("none", &[]));
    let left = zoo.processes().join("\n");
    assert!(left.contains("-daemon-build-setsid"), "{left}");
    // A game's daemons die with it even so: the plain warm init that starts the games'
    // processes is their subreaper and kills what they left.
    assert!(!left.contains("-daemon-setsid"), "{left}");
    let log = zoo.work_file("hostile-daemon", "daemons.txt");
    assert!(log.contains("-daemon-setsid\n"), "{log}");
}

#[test]
fn an_escaped_daemon_cannot_tamper_with_the_results() {
    let Some(zoo) = contained("tamper", "hostile-tamper", 2, &[]) else {
        return;
    };
    assert_clean(&zoo, "hostile-tamper");
    assert_eq!(
        zoo.work_file("hostile-tamper", "tamper.txt"),
        "waiting\nwaiting\n"
    );
}

#[test]
fn an_escaped_daemon_tampers_with_the_results_without_the_sandbox() {
    let zoo = Zoo::new("tamper-none", &["hostile-tamper"]);
    // Without the sandbox a game's daemons still die with it (see above), a build's do not:
    // the attacker starts its daemon from a build too.
    let bot = zoo.bots().join("hostile-tamper");
    let launch = fs::read_to_string(bot.join("launch")).unwrap();
    let build = launch.replace("exec ./play", "sleep 1; echo built #");
    fs::write(bot.join("build"), build).unwrap();
    fs::set_permissions(bot.join("build"), fs::Permissions::from_mode(0o755)).unwrap();
    zoo::assert_ok(&zoo.run("none", &[]));
    let games = zoo.series().join("games.jsonl");
    let deadline = Instant::now() + Duration::from_secs(20);
    while fs::metadata(&games).unwrap().len() > 0 && Instant::now() < deadline {
        std::thread::sleep(Duration::from_millis(100));
    }
    assert_eq!(
        fs::metadata(&games).unwrap().len(),
        0,
        "games.jsonl was not emptied"
    );
}

#[test]
fn a_bot_cannot_delete_the_series() {
    let Some(zoo) = contained("rmrf", "hostile-rmrf", 2, &[]) else {
        return;
    };
    assert_clean(&zoo, "hostile-rmrf");
    assert_eq!(zoo.work_file("hostile-rmrf", "rmrf.txt"), "");
}

#[test]
fn a_bot_deletes_the_series_without_the_sandbox() {
    let zoo = Zoo::new("rmrf-none", &["hostile-rmrf"]);
    let out = zoo.run("none", &[]);
    assert!(
        !zoo.dir().join("results").exists()
            || !zoo.dir().join("results/latest/games.jsonl").exists(),
        "the series survived:\n{}",
        text(&out.stderr)
    );
}

/// The variables a shell adds by itself, besides those the sandbox sets.
const SHELL_VARIABLES: [&str; 4] = ["PWD", "OLDPWD", "SHLVL", "_"];

#[test]
fn a_bot_and_its_build_get_exactly_the_documented_environment() {
    let Some(zoo) = contained("env", "hostile-env", 2, &[]) else {
        return;
    };
    assert_clean(&zoo, "hostile-env");
    for file in ["env.txt", "build-env.txt"] {
        let env = zoo.work_file("hostile-env", file);
        let mut vars: Vec<&str> = env
            .lines()
            .filter(|l| !SHELL_VARIABLES.contains(&l.split('=').next().unwrap()))
            .collect();
        vars.sort_unstable();
        let expected = [
            "HOME=/bot",
            "LANG=C.UTF-8",
            "PATH=/usr/local/bin:/usr/bin:/bin",
            "TMPDIR=/tmp",
        ];
        assert_eq!(vars, expected, "{file}:\n{env}");
    }
    // Not root, nor nobody: a user of its own from the controller's range, the same for its
    // build; no new privileges, no network but loopback.
    let ident = zoo.work_file("hostile-env", "ident.txt");
    let uid: u32 = ident
        .split_whitespace()
        .nth(1)
        .and_then(|u| u.parse().ok())
        .unwrap_or_else(|| panic!("{ident}"));
    assert!(uid >= take6::sandbox::UID_BASE, "{ident}");
    let expected = format!("uid {uid} gid {uid}\nNoNewPrivs:\t1\ninterface lo\n");
    assert_eq!(ident, expected, "{ident}");
    let build = zoo.work_file("hostile-env", "build-ident.txt");
    assert_eq!(build, format!("uid {uid} gid {uid}\n"));
}

/// A pipe open in the test process without close-on-exec, so that the controller started next
/// inherits it, as it inherits whatever its own parent left open; its inode names it in
/// `/proc/PID/fd`.
fn inherited_pipe() -> (String, (OwnedFd, OwnedFd)) {
    let (read, write) = nix::unistd::pipe().unwrap();
    fcntl(&write, FcntlArg::F_SETFD(FdFlag::empty())).unwrap();
    let inode = nix::sys::stat::fstat(&write).unwrap().st_ino;
    (format!("pipe:[{inode}]"), (read, write))
}

#[test]
fn a_bot_inherits_no_descriptor_of_the_controller() {
    if !sandbox_available("fds") {
        return;
    }
    let (pipe, _ends) = inherited_pipe();
    let zoo = Zoo::new("fds", &["hostile-env"]);
    zoo::assert_ok(&zoo.run("strict", &[]));
    let fds = zoo.work_file("hostile-env", "fds.txt");
    assert!(fds.contains("0 pipe:["), "{fds}");
    assert!(!fds.contains(&pipe), "{pipe} reached the bot:\n{fds}");
}

/// The controller marks what it inherited close-on-exec at start, so even without the sandbox
/// no descriptor of its parent reaches a bot (before that fix, this and the test above failed).
#[test]
fn a_bot_inherits_no_descriptor_of_the_controller_without_the_sandbox_either() {
    let (pipe, _ends) = inherited_pipe();
    let zoo = Zoo::new("fds-none", &["hostile-env"]);
    zoo::assert_ok(&zoo.run("none", &[]));
    let fds = zoo.work_file("hostile-env", "fds.txt");
    assert!(fds.contains("0 pipe:["), "{fds}");
    assert!(!fds.contains(&pipe), "{pipe} reached the bot:\n{fds}");
}

#[test]
fn a_bot_gets_the_controller_environment_without_the_sandbox() {
    let zoo = Zoo::new("env-none", &["hostile-env"]);
    zoo::assert_ok(&zoo.run("none", &[]));
    let env = zoo.work_file("hostile-env", "env.txt");
    assert!(
        env.contains(&format!("TAKE6_ZOO_CANARY={}", zoo.marker)),
        "{env}"
    );
}

/// Starts a long series with `hostile-daemon` under `--sandbox mode`, waits for its daemon
/// named `daemon` (`setsid` from a game, `build-setsid` from its build) and stops the
/// controller with `signal`; `None` when the sandbox is wanted and the machine has none.
fn stop_controller_mid_series(test: &str, daemon: &str, signal: Signal, mode: &str) -> Option<Zoo> {
    if mode != "none" && !sandbox_available(test) {
        return None;
    }
    let zoo = Zoo::new(test, &["hostile-daemon"]);
    // Games of a second of CPU or more, so that a game's daemon is there long enough to be seen.
    zoo.honest_thinks(100, 10);
    let mut controller = std::process::Command::new(assert_cmd::cargo::cargo_bin("take6"))
        .current_dir(zoo.dir())
        .args([
            "run",
            "--jobs",
            "2",
            "--games",
            "200",
            "--sandbox",
            mode,
            "--allow-skips",
        ])
        .args(["--first-reply-ms", "5000", "--reply-ms", "2000"])
        .stdout(Stdio::null())
        .stderr(fs::File::create(zoo.dir().join("stderr.txt")).unwrap())
        .spawn()
        .unwrap();
    let daemon = format!("{}-daemon-{daemon}", zoo.marker);
    let deadline = Instant::now() + Duration::from_secs(60);
    while !zoo.processes().iter().any(|p| p.contains(&daemon)) && Instant::now() < deadline {
        std::thread::sleep(Duration::from_millis(20));
    }
    let seen = zoo.processes().iter().any(|p| p.contains(&daemon));
    let stderr = fs::read_to_string(zoo.dir().join("stderr.txt")).unwrap();
    assert!(
        seen,
        "no daemon started: {:?}\n{stderr}",
        controller.try_wait()
    );
    assert!(
        controller.try_wait().unwrap().is_none(),
        "the series ended first"
    );
    kill(Pid::from_raw(controller.id() as i32), signal).unwrap();
    // Bounded: a controller that ignores the signal is killed when the wait times out.
    let deadline = Instant::now() + Duration::from_secs(30);
    while controller.try_wait().unwrap().is_none() && Instant::now() < deadline {
        std::thread::sleep(Duration::from_millis(50));
    }
    let status = controller.try_wait().unwrap();
    let _ = controller.kill();
    assert!(status.is_some(), "the controller did not stop on {signal}");
    Some(zoo)
}

#[test]
fn a_sigkilled_controller_takes_every_bot_process_with_it() {
    if let Some(zoo) = stop_controller_mid_series("sigkill", "setsid", Signal::SIGKILL, "strict") {
        zoo.assert_no_process_left();
    }
}

/// Without the sandbox too, a game's processes (its daemons included) end with a SIGKILLed
/// controller: the plain init that started them kills them when its control socket closes.
/// The build's daemons are not the init's and live on (see above).
#[test]
fn without_the_sandbox_a_sigkilled_controller_still_ends_its_games() {
    let zoo = stop_controller_mid_series("sigkill-none", "setsid", Signal::SIGKILL, "none")
        .expect("no sandbox needed");
    zoo.assert_no_process_left_but(|p| p.contains("-daemon-build-"));
    let all = zoo.processes().join("\n");
    assert!(all.contains("-daemon-build-setsid"), "{all}");
}

#[test]
fn a_controller_sigkilled_during_builds_takes_every_build_process_with_it() {
    if let Some(zoo) =
        stop_controller_mid_series("sigkill-build", "build-setsid", Signal::SIGKILL, "strict")
    {
        zoo.assert_no_process_left();
    }
}

#[test]
fn an_interrupted_series_takes_every_bot_process_with_it() {
    for (test, signal) in [("sigint", Signal::SIGINT), ("sigterm", Signal::SIGTERM)] {
        if let Some(zoo) = stop_controller_mid_series(test, "setsid", signal, "strict") {
            zoo.assert_no_process_left();
        }
    }
}

/// The skipped bots of the series, by name, with their reasons.
fn skipped(zoo: &Zoo) -> Vec<(String, String)> {
    zoo.manifest()
        .get("skipped")
        .and_then(|s| s.as_array())
        .into_iter()
        .flatten()
        .map(|s| {
            let s = s.as_table().unwrap();
            let get = |k: &str| s[k].as_str().unwrap().to_string();
            (get("name"), get("reason"))
        })
        .collect()
}

/// The recorded source of the bot `name`.
fn source_of(zoo: &Zoo, name: &str) -> String {
    let manifest = zoo.manifest();
    let bot = manifest["bots"]
        .as_array()
        .unwrap()
        .iter()
        .find(|b| b["name"].as_str() == Some(name))
        .unwrap_or_else(|| panic!("{name} not in series.toml"));
    bot["source"].as_str().unwrap().to_string()
}

#[test]
fn links_out_of_a_repository_or_the_bots_folder_are_never_followed() {
    if !sandbox_available("links") {
        return;
    }
    let zoo = Zoo::new("links", &["hostile-linker"]);
    // A folder of the host's, which no bot may read or be played as.
    let secret = zoo.dir().join("secret");
    fs::create_dir_all(&secret).unwrap();
    fs::write(secret.join("data"), "host secret\n").unwrap();
    fs::write(secret.join("launch"), "#!/bin/sh\nexec ./play\n").unwrap();
    fs::set_permissions(secret.join("launch"), fs::Permissions::from_mode(0o755)).unwrap();
    // The repository: the bots, a link inside a bot folder, and links at its top leading out
    // (absolute, relative, through a link nested in a bot folder), and one leading in.
    let repo = zoo.dir().join("repo");
    fs::rename(zoo.bots(), &repo).unwrap();
    let link = |target: &std::path::Path, at: &str| {
        std::os::unix::fs::symlink(target, repo.join(at)).unwrap()
    };
    link(&secret, "hostile-linker/secret");
    link(&secret, "stolen");
    link("../../../../../../../../tmp".as_ref(), "up");
    link("hostile-linker/secret".as_ref(), "nested");
    link(HONEST.as_ref(), "alias");
    git(&repo, &["init", "--quiet", "--initial-branch=main"]);
    git(&repo, &["add", "."]);
    git(&repo, &["commit", "--quiet", "-m", "bots and links"]);
    git(&repo, &["tag", "v1"]);

    let at_tag = format!("{}@v1", repo.display());
    let out = zoo.run("strict", &["--bots", &at_tag]);
    let skips = skipped(&zoo);
    for name in ["stolen", "up", "nested"] {
        let reason = skips
            .iter()
            .find(|(n, _)| n == name)
            .map(|(_, r)| r.as_str())
            .unwrap_or_else(|| panic!("{name} not skipped: {skips:?}\n{}", text(&out.stderr)));
        assert!(
            reason.contains("outside the bots folder") && reason.contains("never followed"),
            "{name}: {reason}"
        );
        assert!(!zoo.work(name).exists(), "{name} was copied");
    }
    let players: Vec<String> = zoo.games().iter().flat_map(|g| g.players.clone()).collect();
    assert!(
        !players
            .iter()
            .any(|p| ["stolen", "up", "nested"].contains(&p.as_str())),
        "{players:?}"
    );
    // The link inside the bot folder stays a link, and dangles in the sandbox.
    let copied = zoo.work("hostile-linker").join("secret");
    assert!(fs::symlink_metadata(&copied).unwrap().is_symlink());
    let peeked = zoo.work_file("hostile-linker", "peeked.txt");
    assert!(
        peeked.contains("unreadable") && !peeked.contains("host secret"),
        "{peeked}"
    );
    // A link inside the checkout is followed, and its resolved source recorded.
    let alias = source_of(&zoo, "alias");
    assert!(
        alias.contains("/.repos/") && alias.ends_with(&format!("/{HONEST}")),
        "{alias}"
    );
    assert!(!source_of(&zoo, "hostile-linker").contains("secret"));

    // A plain bots folder: the same rule.
    let bots = zoo.dir().join("plain");
    fs::create_dir_all(&bots).unwrap();
    common::copy_dir(&zoo::fixtures().join(HONEST), &bots.join(HONEST));
    std::os::unix::fs::symlink(&secret, bots.join("stolen")).unwrap();
    let out = zoo.run("strict", &["--bots", "plain"]);
    let skips = skipped(&zoo);
    assert!(
        skips
            .iter()
            .any(|(n, r)| n == "stolen" && r.contains("outside the bots folder")),
        "{skips:?}\n{}",
        text(&out.stderr)
    );
}

/// A folder whose files its author swaps (each `data<i>` renamed over by one of two contents,
/// over and over) all the while `take6 run` reads it: the hash `series.toml` records for the
/// bot is the hash of the working copy that played, in every run. Eight files swapped at
/// random moments: a hash and a copy read apart would disagree on one in almost every run.
#[test]
fn a_folder_swapped_while_it_is_read_records_the_hash_of_what_played() {
    use std::sync::Arc;
    use std::sync::atomic::{AtomicBool, Ordering};
    const SWAPPER: &str = "hostile-swapper";
    const FILES: usize = 8;
    if !sandbox_available("a_folder_swapped_while_it_is_read_records_the_hash_of_what_played") {
        return;
    }
    for run in 0..3 {
        let zoo = Zoo::new("swapped", &[SWAPPER]);
        let folder = zoo.bots().join(SWAPPER);
        let stash = zoo.dir().join("stash");
        fs::create_dir_all(&stash).unwrap();
        for i in 0..FILES {
            for (k, byte) in [b'a', b'b'].into_iter().enumerate() {
                fs::write(stash.join(format!("{i}-{k}")), vec![byte; 1 << 20]).unwrap();
            }
            fs::copy(
                stash.join(format!("{i}-0")),
                folder.join(format!("data{i}")),
            )
            .unwrap();
        }
        let stop = Arc::new(AtomicBool::new(false));
        let swapper = {
            let (stop, folder, stash) = (Arc::clone(&stop), folder.clone(), stash.clone());
            std::thread::spawn(move || {
                let mut k = 0;
                while !stop.load(Ordering::Relaxed) {
                    for i in 0..FILES {
                        let next = stash.join(format!("next{i}"));
                        fs::hard_link(stash.join(format!("{i}-{}", (k + i) % 2)), &next).unwrap();
                        fs::rename(&next, folder.join(format!("data{i}"))).unwrap();
                    }
                    k += 1;
                    std::thread::sleep(Duration::from_micros(300));
                }
                k
            })
        };
        let out = zoo.run("strict", &[]);
        stop.store(true, Ordering::Relaxed);
        let swaps = swapper.join().unwrap();
        zoo::assert_ok(&out);
        assert!(
            swaps > 10,
            "run {run}: the files were swapped {swaps} times"
        );
        let manifest = zoo.manifest();
        let recorded = manifest["bots"]
            .as_array()
            .unwrap()
            .iter()
            .find(|b| b["name"].as_str() == Some(SWAPPER))
            .unwrap_or_else(|| panic!("run {run}: {SWAPPER} did not play: {manifest:?}"))["hash"]
            .as_str()
            .unwrap()
            .to_string();
        let played = take6::folder::scan(&zoo.work(SWAPPER), u64::MAX)
            .unwrap()
            .hash()
            .unwrap();
        assert_eq!(
            recorded, played,
            "run {run}: series.toml records another content than the working copy that played"
        );
    }
}
