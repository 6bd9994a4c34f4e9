//! Probing the machine once per series: bubblewrap, the frozen counters, seccomp, the disk
//! cap and the cgroups, each enforced or missing with why.

use std::collections::HashMap;
use std::path::PathBuf;
use std::process::Stdio;
use std::sync::Mutex;

use super::bwrap::{self, Identity, SystemDir};
use super::cgroup::Cgroups;
use super::{
    COUNTERS, Clock, DISK_CAP, Limits, Mode, Report, Sandbox, SandboxError, Uids, counters, image,
    seats, seccomp,
};

/// Why a part of the sandbox is not available here, and how to get it: recorded in the
/// sandbox's report.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{0}")]
pub struct Unavailable(pub String);

impl Sandbox {
    /// Probes the machine for `mode`: bubblewrap that can make namespaces, and writable
    /// cgroups. Under `strict`, anything missing is an error.
    pub fn new(mode: Mode, limits: Limits, clock: Clock) -> Result<Sandbox, SandboxError> {
        let mut sandbox = Sandbox {
            mode,
            limits,
            clock,
            bwrap: None,
            cgroups: Cgroups::default(),
            report: Report {
                mode,
                enforced: Vec::new(),
                missing: Vec::new(),
                why: Vec::new(),
            },
            baselines: Mutex::new(HashMap::new()),
            spent: Mutex::default(),
            uids: Uids::default(),
            seccomp: Vec::new(),
            warm: None,
            images: None,
            seating: seats::Seating::default(),
            _counters: None,
            table_cpus: Vec::new(),
            memory_of: Mutex::default(),
            benched: Mutex::default(),
        };
        if mode == Mode::None {
            sandbox.report.enforced = vec!["process-group", "address-space", "no-core-dumps"];
            return Ok(sandbox);
        }
        // The two trials (a sandbox, a disk image) each take tens of milliseconds: at once.
        // The disk cap needs a root controller, so only then is its trial worth making. The
        // sandbox's trial binds the frozen counters, so it waits for them; the disk's does not.
        let (bwrap, images, views) = std::thread::scope(|s| {
            let disk = nix::unistd::geteuid()
                .is_root()
                .then(|| s.spawn(|| image::Images::probe(limits.disk_mib << 20)));
            // Machine-wide counters a bot would otherwise read, frozen (see `counters`).
            let views = counters::Views::make(&std::env::temp_dir());
            let frozen: Vec<SystemDir> = views
                .iter()
                .flat_map(|v| v.binds())
                .map(|(copy, covered)| SystemDir::Frozen(copy.into(), covered))
                .collect();
            let bwrap = probe_bwrap(&frozen);
            let images = disk.map(|trial| trial.join().expect("the disk trial does not panic"));
            (bwrap, images, views)
        });
        sandbox.take_bwrap(bwrap, views);
        sandbox
            .report
            .enforced
            .extend(["environment", "open-files", "file-size", "disk-growth"]);
        sandbox.take_images(images);
        sandbox.take_cgroups();
        let report = &sandbox.report;
        if mode == Mode::Strict && !report.missing.is_empty() {
            return Err(SandboxError {
                missing: report.missing.join(", "),
                why: report.why.join("; "),
            });
        }
        Ok(sandbox)
    }

    /// What bubblewrap gives, when its trial ran (namespaces, the file system, frozen
    /// counters, an unprivileged user, seccomp), or why not: recorded in the report.
    fn take_bwrap(
        &mut self,
        bwrap: Result<(Bwrap, bool), Unavailable>,
        views: std::io::Result<counters::Views>,
    ) {
        match bwrap {
            Ok((found, frozen)) => {
                self.report.enforced.extend([
                    "pid-namespace",
                    "network-namespace",
                    "filesystem",
                    "private-tmp",
                ]);
                match (frozen, views) {
                    (true, Ok(views)) => {
                        self.report.enforced.push(COUNTERS);
                        self._counters = Some(views);
                    }
                    (_, views) => {
                        self.report.missing.push(COUNTERS);
                        self.report.why.push(match views {
                            Err(e) => format!(
                                "cannot freeze the machine-wide counters in {} ({e})",
                                std::env::temp_dir().display()
                            ),
                            Ok(_) => "bubblewrap cannot bind files over /proc here".into(),
                        });
                    }
                }
                if matches!(found.1, Identity::Setpriv(_)) || !nix::unistd::geteuid().is_root() {
                    self.report.enforced.push("unprivileged-user");
                } else {
                    self.report.missing.push("unprivileged-user");
                    self.report
                        .why
                        .push("setpriv not found (apt-get install util-linux)".into());
                }
                self.bwrap = Some(found);
                match seccomp::programs() {
                    Ok(programs) => {
                        self.report.enforced.push("seccomp");
                        self.seccomp = programs.iter().map(seccomp::bytes).collect();
                    }
                    Err(e) => {
                        self.report.missing.push("seccomp");
                        self.report.why.push(e.to_string());
                    }
                }
            }
            Err(why) => {
                self.report.missing.extend([
                    "pid-namespace",
                    "network-namespace",
                    "filesystem",
                    "private-tmp",
                    COUNTERS,
                    "unprivileged-user",
                    "seccomp",
                ]);
                self.report.why.push(why.0);
            }
        }
    }

    /// The disk cap: a loop-mounted image per working copy, when its trial ran and the sandbox
    /// runs as root, or why not.
    fn take_images(&mut self, images: Option<Result<image::Images, Unavailable>>) {
        // Loop mounts need root, which also means the bot runs as `nobody` (it cannot unmount).
        let root = matches!(&self.bwrap, Some((_, Identity::Setpriv(_), _)));
        let images = match images {
            Some(images) if root => images,
            _ => Err(Unavailable(
                "it needs the sandbox run as root (bubblewrap and setpriv)".into(),
            )),
        };
        match images {
            Ok(images) => {
                self.report.enforced.push(DISK_CAP);
                self.images = Some(images);
            }
            Err(why) => {
                self.report.missing.push(DISK_CAP);
                self.report.why.push(format!("no disk cap: {why}"));
            }
        }
    }

    /// The cgroups found writable (memory, processes, the CPU clock when it is the clock, the
    /// CPU share), or why not.
    fn take_cgroups(&mut self) {
        self.cgroups = Cgroups::detect();
        let cg = &self.cgroups;
        let mut no_cgroup = Vec::new();
        for (name, present, wanted) in [
            ("memory-cgroup", cg.memory.is_some(), true),
            ("pids-cgroup", cg.pids.is_some(), true),
            ("cpu-clock", cg.cpu.is_some(), self.clock == Clock::Cpu),
            ("cpu-share", cg.share.is_some(), true),
        ] {
            match (wanted, present) {
                (true, true) => self.report.enforced.push(name),
                (true, false) => {
                    self.report.missing.push(name);
                    no_cgroup.push(name);
                }
                (false, _) => {}
            }
        }
        if !no_cgroup.is_empty() {
            self.report.why.push(format!(
                "no writable cgroup for {}: run as root with cgroup v1 memory, pids, cpuacct and \
             cpu hierarchies mounted, or cgroup v2 with the memory, pids and cpu controllers \
             delegated",
                no_cgroup.join(", ")
            ));
        }
    }

    /// A launcher without isolation (process group and rlimits only), for tests of what runs
    /// inside it.
    pub fn none() -> Sandbox {
        Sandbox::new(Mode::None, Limits::default(), Clock::Wall).expect("none always works")
    }
}

/// bubblewrap's path, how the bot is made unprivileged, and the system folders to bind.
pub(super) type Bwrap = (PathBuf, Identity, Vec<SystemDir>);

/// Finds bubblewrap and tries a sandbox with the system folders and the `frozen` counters
/// bound (without them if that fails): the launcher, and whether the counters are bound.
fn probe_bwrap(frozen: &[SystemDir]) -> Result<(Bwrap, bool), Unavailable> {
    let Some(path) = find_program("bwrap") else {
        return Err(Unavailable(
            "bubblewrap not found (apt-get install bubblewrap)".into(),
        ));
    };
    let root = nix::unistd::geteuid().is_root();
    let identity = match find_program("setpriv") {
        Some(setpriv) if root => Identity::Setpriv(setpriv.to_string_lossy().into_owned()),
        _ => Identity::UserNamespace,
    };
    let system = bwrap::system_dirs();
    let probe = std::env::temp_dir().join(format!("take6-probe-{}", std::process::id()));
    std::fs::create_dir_all(&probe)
        .map_err(|e| Unavailable(format!("cannot make {}: {e}", probe.display())))?;
    let trial = |system: &[SystemDir]| {
        let args = bwrap::args(&identity, bwrap::NOBODY, system, &probe, 1 << 20, "true");
        std::process::Command::new(&path)
            .args(&args)
            .stdin(Stdio::null())
            .output()
    };
    let with_frozen: Vec<SystemDir> = system.iter().chain(frozen).cloned().collect();
    let mut out = trial(&with_frozen);
    let frozen_bound = out.as_ref().is_ok_and(|o| o.status.success()) && !frozen.is_empty();
    if !frozen_bound && !frozen.is_empty() {
        out = trial(&system);
    }
    let _ = std::fs::remove_dir(&probe);
    let system = if frozen_bound { with_frozen } else { system };
    match out {
        Ok(o) if o.status.success() => Ok(((path, identity, system), frozen_bound)),
        Ok(o) => Err(Unavailable(format!(
            "bubblewrap cannot make a sandbox here ({}): allow user namespaces or run as root",
            String::from_utf8_lossy(&o.stderr).trim()
        ))),
        Err(e) => Err(Unavailable(format!("bubblewrap cannot start: {e}"))),
    }
}

/// `name` in `PATH` or the usual system folders.
pub(super) fn find_program(name: &str) -> Option<PathBuf> {
    let path = std::env::var_os("PATH").unwrap_or_default();
    std::env::split_paths(&path)
        .chain(["/usr/bin", "/bin", "/usr/sbin", "/sbin"].map(PathBuf::from))
        .map(|dir| dir.join(name))
        .find(|p| p.is_file())
}
