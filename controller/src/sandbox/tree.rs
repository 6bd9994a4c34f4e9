//! One running bot tree: its CPU clock, the limits it passed, and its end.

use std::fmt;
use std::path::{Path, PathBuf};

use nix::sys::signal::{Signal, killpg};
use nix::unistd::Pid;

use super::Limits;
use super::cgroup::Group;

/// A limit that a bot tree went past.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Breach {
    Memory { mib: u64 },
    Processes { max: u64 },
    Disk { mib: u64 },
}

impl Breach {
    /// The fault kind recorded in `games.jsonl`.
    pub fn kind(&self) -> &'static str {
        match self {
            Breach::Memory { .. } => "memory_limit",
            Breach::Processes { .. } => "process_limit",
            Breach::Disk { .. } => "disk_limit",
        }
    }
}

impl fmt::Display for Breach {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Breach::Memory { mib } => write!(f, "memory limit of {mib} MiB reached"),
            Breach::Processes { max } => write!(
                f,
                "process limit of {max} reached (processes and threads of the whole tree)"
            ),
            Breach::Disk { mib } => write!(
                f,
                "disk limit of {mib} MiB reached (written to the working copy and /tmp)"
            ),
        }
    }
}

/// A started bot tree. Dropping it kills whatever of the tree is left and removes its cgroup.
#[derive(Debug)]
pub struct Tree {
    /// The leader's process group (bubblewrap, or the program itself without it).
    leader: Pid,
    group: Option<Group>,
    /// Whether reply times are CPU times (a CPU-accounting cgroup exists and `--clock cpu`).
    cpu_clock: bool,
    workdir: PathBuf,
    /// Working-copy size before its first game, when its growth is watched.
    disk_base: Option<u64>,
    limits: Limits,
    killed: bool,
}

impl Tree {
    pub(super) fn new(
        leader: u32,
        group: Option<Group>,
        cpu: bool,
        workdir: &Path,
        disk_base: Option<u64>,
        limits: Limits,
    ) -> Tree {
        let cpu_clock = cpu && group.as_ref().is_some_and(|g| g.cpu_us().is_some());
        Tree {
            leader: Pid::from_raw(leader as i32),
            group,
            cpu_clock,
            workdir: workdir.to_path_buf(),
            disk_base,
            limits,
            killed: false,
        }
    }

    /// Whether reply times are measured in CPU time of the tree.
    pub fn cpu_clock(&self) -> bool {
        self.cpu_clock
    }

    /// CPU time of the whole tree so far, in microseconds, if it is measured.
    pub fn cpu_us(&self) -> Option<u64> {
        self.group.as_ref()?.cpu_us()
    }

    /// A memory or process limit the tree has run into so far (cheap: two small reads).
    pub fn counted_breach(&self) -> Option<Breach> {
        let group = self.group.as_ref()?;
        if group.oom_kills() > 0 {
            return Some(Breach::Memory {
                mib: self.limits.memory_mib,
            });
        }
        if group.pids_refused() > 0 {
            return Some(Breach::Processes {
                max: self.limits.max_procs,
            });
        }
        None
    }

    /// Any limit passed, the working copy's growth included (walks the working copy).
    pub fn breach(&self) -> Option<Breach> {
        self.counted_breach().or_else(|| {
            let grown = disk_usage(&self.workdir).saturating_sub(self.disk_base?);
            (grown > self.limits.disk_mib << 20).then_some(Breach::Disk {
                mib: self.limits.disk_mib,
            })
        })
    }

    /// Kills the whole tree: the leader's group (bubblewrap's death takes its PID namespace
    /// with it) and every process in the cgroup.
    pub fn kill(&mut self) {
        if !self.killed {
            self.killed = true;
            // ESRCH (already gone) is fine.
            let _ = killpg(self.leader, Signal::SIGKILL);
        }
        if let Some(group) = &self.group {
            group.kill_all();
        }
    }
}

impl Drop for Tree {
    fn drop(&mut self) {
        self.kill();
        // The group's folders go now, or at a later `settle` once the killed processes exited.
        self.group.take();
    }
}

/// Bytes a folder takes on disk (allocated blocks, so sparse files count as what they use).
pub fn disk_usage(dir: &Path) -> u64 {
    use std::os::unix::fs::MetadataExt;
    let Ok(entries) = std::fs::read_dir(dir) else {
        return 0;
    };
    let mut total = 0;
    for entry in entries.flatten() {
        let Ok(meta) = entry.metadata() else { continue };
        total += meta.blocks() * 512;
        if meta.is_dir() {
            total += disk_usage(&entry.path());
        }
    }
    total
}
