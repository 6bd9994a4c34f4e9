//! One running bot tree: its CPU clock, the limits it passed, and its end.

use std::fmt;
use std::path::{Path, PathBuf};

use std::collections::HashMap;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use nix::sys::signal::{Signal, killpg};
use nix::unistd::Pid;
use tokio::process::Child;

use super::Limits;
use super::cgroup::Group;
use super::warm::Warm;

/// Idle warm sandboxes by working copy and processor (when tables are pinned).
pub(super) type Pool = Arc<Mutex<HashMap<(PathBuf, Option<usize>), Vec<Warm>>>>;

/// How the tree's end is seen and brought about.
#[derive(Debug)]
enum Handle {
    /// A fresh sandbox (or none): the leader is our child.
    Fresh(Option<Child>),
    /// A game in a warm sandbox; it goes back to the pool once the game has ended cleanly.
    Warm {
        warm: Option<Warm>,
        pool: Pool,
        ended: bool,
    },
}

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
    handle: Handle,
    /// The group's counters when the game started (a warm sandbox's group outlives games).
    base: Counters,
    /// Whether reply times are CPU times (a CPU-accounting cgroup exists and `--clock cpu`).
    cpu_clock: bool,
    workdir: PathBuf,
    /// Working-copy size before its first game, when its growth is watched.
    disk_base: Option<DiskBase>,
    limits: Limits,
    killed: bool,
    /// Its bot's seat, which keeps its working copy's disk image mounted until the tree is
    /// gone (see [`super::seats`]).
    seat: Option<super::seats::Seat>,
}

impl Tree {
    pub(super) fn new(
        leader: u32,
        group: Option<Group>,
        cpu: bool,
        workdir: &Path,
        disk_base: Option<DiskBase>,
        limits: Limits,
    ) -> Tree {
        let cpu_clock = cpu && group.as_ref().is_some_and(|g| g.cpu_us().is_some());
        Tree {
            leader: Pid::from_raw(leader as i32),
            group,
            handle: Handle::Fresh(None),
            base: Counters::default(),
            cpu_clock,
            workdir: workdir.to_path_buf(),
            disk_base,
            limits,
            killed: false,
            seat: None,
        }
    }

    /// The tree's leader is `child`, awaited for its exit status.
    /// The tree, holding its bot's seat until it is gone.
    pub(super) fn seated(mut self, seat: super::seats::Seat) -> Tree {
        self.seat = Some(seat);
        self
    }

    pub(super) fn with_child(mut self, child: Child) -> Tree {
        self.handle = Handle::Fresh(Some(child));
        self
    }

    /// A game in the warm sandbox `warm`, which goes back to `pool` when the game has ended.
    /// `base` holds the group's counters from before the launch.
    pub(super) fn in_warm(
        warm: Warm,
        pool: Pool,
        base: Counters,
        cpu: bool,
        workdir: &Path,
        disk_base: Option<DiskBase>,
        limits: Limits,
    ) -> Tree {
        let cpu_clock = cpu && warm.group().is_some_and(|g| g.cpu_us().is_some());
        Tree {
            leader: Pid::from_raw(0),
            group: None,
            handle: Handle::Warm {
                warm: Some(warm),
                pool,
                ended: false,
            },
            base,
            cpu_clock,
            workdir: workdir.to_path_buf(),
            disk_base,
            limits,
            killed: true,
            seat: None,
        }
    }

    fn group(&self) -> Option<&Group> {
        match &self.handle {
            Handle::Warm { warm: Some(w), .. } => w.group(),
            _ => self.group.as_ref(),
        }
    }

    /// Waits up to `limit` for the leader to exit; its exit status when known.
    pub async fn wait_exit(&mut self, limit: Duration) -> Option<String> {
        match &mut self.handle {
            Handle::Fresh(Some(child)) => tokio::time::timeout(limit, child.wait())
                .await
                .ok()
                .and_then(Result::ok)
                .map(|s| s.to_string()),
            // The warm sandbox's init is its parent and is asked (a fault's rare path: the
            // short wait blocks this thread, so other tasks are moved off it first).
            Handle::Warm {
                warm: Some(warm),
                ended: false,
                ..
            } => {
                use tokio::runtime::{Handle, RuntimeFlavor};
                let multi = Handle::try_current()
                    .is_ok_and(|h| h.runtime_flavor() == RuntimeFlavor::MultiThread);
                if multi {
                    tokio::task::block_in_place(|| warm.exit_status(limit))
                } else {
                    warm.exit_status(limit)
                }
            }
            _ => None,
        }
    }

    /// The leader's exit status, if it has exited.
    pub fn exit_status(&mut self) -> Option<String> {
        match &mut self.handle {
            Handle::Fresh(Some(child)) => match child.try_wait() {
                Ok(Some(status)) => Some(status.to_string()),
                _ => None,
            },
            _ => None,
        }
    }

    /// Whether its leader is a child to wait for (else its stdout closing is its end).
    pub fn has_child(&self) -> bool {
        matches!(self.handle, Handle::Fresh(Some(_)))
    }

    /// Whether reply times are measured in CPU time of the tree.
    pub fn cpu_clock(&self) -> bool {
        self.cpu_clock
    }

    /// CPU time of the whole tree so far, in microseconds, if it is measured.
    pub fn cpu_us(&self) -> Option<u64> {
        Some(self.group()?.cpu_us()?.saturating_sub(self.base.cpu_us))
    }

    /// A memory or process limit the tree has run into so far (cheap: two small reads).
    pub fn counted_breach(&self) -> Option<Breach> {
        let group = self.group()?;
        if group.oom_kills() > self.base.oom_kills {
            return Some(Breach::Memory {
                mib: self.limits.memory_mib,
            });
        }
        if group.pids_refused() > self.base.pids_refused {
            return Some(Breach::Processes {
                max: self.limits.max_procs,
            });
        }
        None
    }

    /// Any limit passed, the working copy's growth included (walks the working copy, or asks
    /// its image's file system).
    pub fn breach(&self) -> Option<Breach> {
        self.counted_breach().or_else(|| {
            let base = self.disk_base?;
            let grown = used_bytes(&self.workdir, base.image).saturating_sub(base.bytes);
            (grown > self.limits.disk_mib << 20).then_some(Breach::Disk {
                mib: self.limits.disk_mib,
            })
        })
    }

    /// Kills the whole tree: the leader's group (bubblewrap's death takes its PID namespace
    /// with it) and every process in the cgroup.
    pub fn kill(&mut self) {
        if let Handle::Warm {
            warm: Some(warm),
            ended,
            ..
        } = &mut self.handle
        {
            if !*ended {
                *ended = true;
                if warm.end().is_err() {
                    // A broken warm sandbox is not reused: dropping it ends its namespace.
                    self.handle = Handle::Fresh(None);
                }
            }
            return;
        }
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
        // A warm sandbox whose game ended cleanly waits in the pool for the bot's next game.
        if let Handle::Warm {
            warm,
            pool,
            ended: true,
        } = &mut self.handle
            && let (Some(warm), Ok(mut idle)) = (warm.take(), pool.lock())
        {
            idle.entry((self.workdir.clone(), warm.cpu()))
                .or_default()
                .push(warm);
        }
        // The group's folders go now, or at a later `settle` once the killed processes exited.
        self.group.take();
    }
}

/// A group's event counters and CPU time at one moment.
#[derive(Debug, Clone, Copy, Default)]
pub(super) struct Counters {
    cpu_us: u64,
    oom_kills: u64,
    pids_refused: u64,
}

impl Counters {
    pub(super) fn of(group: &Group) -> Counters {
        Counters {
            cpu_us: group.cpu_us().unwrap_or(0),
            oom_kills: group.oom_kills(),
            pids_refused: group.pids_refused(),
        }
    }
}

/// A working copy's size when it was first launched, and whether it is a mounted disk image.
#[derive(Debug, Clone, Copy)]
pub(super) struct DiskBase {
    pub bytes: u64,
    pub image: bool,
}

/// Bytes a working copy takes: those used in its image's file system when it is one (O(1)),
/// else a walk of the folder.
pub(super) fn used_bytes(workdir: &Path, image: bool) -> u64 {
    match image {
        true => super::image::used(workdir).unwrap_or_else(|| disk_usage(workdir)),
        false => disk_usage(workdir),
    }
}

/// Bytes a folder takes on disk (allocated blocks, so sparse files count as what they use),
/// walked by descriptors whatever its depth; what cannot be read counts as nothing.
pub fn disk_usage(dir: &Path) -> u64 {
    let mut total = 0u64;
    let Ok(dir) = crate::door::working_copy(dir) else {
        return 0;
    };
    let _ = super::deep::walk(&dir, |_, _, st| {
        total += st.st_blocks as u64 * 512;
        Ok(())
    });
    total
}
