//! The launcher on this machine: what a sandboxed program sees, and its limits.

use std::os::unix::fs::PermissionsExt;
use std::process::Stdio;

use super::*;

/// A working copy whose `launch` is the shell script `body`, handed to `sandbox`.
fn workdir(sandbox: &Sandbox, body: &str) -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    let launch = dir.path().join("launch");
    std::fs::write(&launch, format!("#!/bin/sh\n{body}\n")).unwrap();
    std::fs::set_permissions(&launch, std::fs::Permissions::from_mode(0o755)).unwrap();
    sandbox.prepare_workdir(dir.path(), 0).unwrap();
    dir
}

/// Runs `body` as a bot's `launch` and returns its stdout and its tree (ended), with its
/// working copy. Its stderr is dropped, as a bot's goes to its log: inherited, the shell's
/// "Killed" and "./launch: 0: Cannot fork" of the limit tests reached the terminal of a
/// passing `cargo test`.
async fn run(sandbox: &Sandbox, body: &str) -> (String, Tree, tempfile::TempDir) {
    let dir = workdir(sandbox, body);
    let (child, tree) = sandbox
        .spawn(
            "launch",
            dir.path(),
            [Stdio::null(), Stdio::piped(), Stdio::null()],
        )
        .unwrap();
    let out = child.wait_with_output().await.unwrap();
    let out = String::from_utf8_lossy(&out.stdout).into_owned();
    (out, tree, dir)
}

fn auto(limits: Limits) -> Option<Sandbox> {
    let sandbox = Sandbox::new(Mode::Auto, limits, Clock::Cpu).unwrap();
    // The disk cap needs a private mount namespace that only the binary makes (at start,
    // before any thread); nothing tested here depends on it.
    if sandbox.report().missing.iter().all(|&m| m == "disk-cap") {
        Some(sandbox)
    } else {
        // CI installs bubblewrap and runs as root, so this only happens on a bare machine.
        eprintln!("not fully sandboxed here: {}", sandbox.report().line());
        None
    }
}

#[test]
fn the_report_says_what_is_and_is_not_enforced() {
    let report = Report {
        mode: Mode::Auto,
        enforced: vec!["pid-namespace", "filesystem"],
        missing: vec!["memory-cgroup"],
        why: vec!["no writable cgroup".into()],
    };
    assert_eq!(
        report.line(),
        "sandbox: auto: enforced pid-namespace, filesystem; NOT enforced: memory-cgroup (no writable cgroup)"
    );
    let none = Sandbox::none();
    assert_eq!(none.report().mode, Mode::None);
    assert!(none.report().missing.is_empty());
    let toml = toml::to_string(none.report()).unwrap();
    assert!(toml.contains("mode = \"none\""), "{toml}");
}

#[tokio::test]
async fn a_sandboxed_bot_sees_only_itself_its_copy_and_four_variables() {
    let Some(sandbox) = auto(Limits::default()) else {
        return;
    };
    let (out, _, _) = run(
        &sandbox,
        "echo pwd=$(pwd); id -u; env | sort; ls /proc | grep -c '^[0-9]'; \
         ls /; touch /bot/w && echo wrote; touch /usr/x 2>/dev/null || echo ro",
    )
    .await;
    assert!(out.contains("pwd=/bot\n"), "{out}");
    // Not root, nor nobody: a user of its own (as root; else the controller's own, mapped).
    let uid: u32 = out.lines().nth(1).and_then(|l| l.parse().ok()).unwrap();
    assert!(uid != 0 && uid != 65534, "not root inside: {out}");
    if nix::unistd::geteuid().is_root() {
        assert!(uid >= super::bwrap::UID_BASE, "{out}");
    }
    let env: Vec<&str> = out
        .lines()
        .filter(|l| l.contains('=') && !l.starts_with("pwd="))
        .collect();
    assert_eq!(
        env,
        [
            "HOME=/bot",
            "LANG=C.UTF-8",
            "PATH=/usr/local/bin:/usr/bin:/bin",
            "PWD=/bot",
            "TMPDIR=/tmp"
        ],
        "{out}"
    );
    assert!(out.contains("wrote\n") && out.contains("ro\n"), "{out}");
    for absent in ["root\n", "home\n", "work\n"] {
        assert!(!out.contains(absent), "{absent:?} visible: {out}");
    }
    // bubblewrap's init, the shell, ls and grep: nothing of the controller or other bots.
    let procs: u32 = out
        .lines()
        .find_map(|l| l.parse().ok().filter(|&n: &u32| n < 100 && n > 1))
        .unwrap_or(0);
    assert!((2..=6).contains(&procs), "processes seen: {procs}: {out}");
}

#[tokio::test]
async fn the_cpu_clock_counts_the_whole_tree_and_limits_are_breaches() {
    let Some(sandbox) = auto(Limits {
        memory_mib: 64,
        max_procs: 16,
        disk_mib: 4,
        ..Limits::default()
    }) else {
        return;
    };
    let (_, tree, _dir) = run(
        &sandbox,
        "(i=0; while [ $i -lt 100000 ]; do i=$((i+1)); done) & wait",
    )
    .await;
    assert!(tree.cpu_clock());
    assert!(tree.cpu_us().unwrap() > 10_000, "a child's CPU time counts");
    assert_eq!(tree.breach(), None);

    let (_, tree, _dir) = run(&sandbox, "python3 -c 'x = bytearray(200 << 20)'").await;
    assert_eq!(tree.breach(), Some(Breach::Memory { mib: 64 }));

    let (_, tree, _dir) = run(&sandbox, "for i in $(seq 40); do sleep 5 & done; wait").await;
    assert_eq!(tree.breach(), Some(Breach::Processes { max: 16 }));

    let (_, tree, _dir) = run(
        &sandbox,
        "for i in 1 2 3; do head -c 3000000 /dev/zero > f$i; done",
    )
    .await;
    assert_eq!(tree.breach(), Some(Breach::Disk { mib: 4 }));
}
