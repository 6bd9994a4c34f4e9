//! The one launcher of bot code: every `build` and every game's `launch` starts here, in a
//! sandbox (bubblewrap namespaces, a read-only system, the working copy at `/bot`, a private
//! size-capped `/tmp`, an unprivileged user, a scrubbed environment) with limits that cover the
//! whole process tree (a cgroup per tree for memory, processes and CPU time; rlimits for open
//! files and file size). The launcher owns start-up, limits and clean-up; a caller gets the
//! child's pipes and a [`Tree`] to measure CPU time and ask whether a limit was passed.

pub mod bwrap;
pub mod cgroup;
pub mod counters;
pub mod deep;
pub mod image;
mod launch;
mod loopdev;
mod probe;
mod report;
mod run;
mod seats;
pub mod seccomp;
mod spawn;
mod tree;
mod uids;
pub mod warm;

use std::collections::HashMap;
use std::fmt;
use std::io;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};

use serde::{Deserialize, Serialize};

use bwrap::Identity;
pub use bwrap::UID_BASE;
use cgroup::Cgroups;
pub use image::{image_bytes, image_of};
use probe::Unavailable;
use probe::{Bwrap, find_program};
pub use report::{Report, list_protections, unsandboxed_user};
pub use seats::Seat;
pub use tree::{Breach, Tree};
pub use uids::Uids;

/// A started game's bot: its pipes and its tree.
pub struct Launched {
    pub stdin: Box<dyn tokio::io::AsyncWrite + Send + Unpin>,
    pub stdout: Box<dyn tokio::io::AsyncRead + Send + Unpin>,
    pub stderr: Box<dyn tokio::io::AsyncRead + Send + Unpin>,
    pub tree: Tree,
}

/// How much isolation a series insists on (`--sandbox`).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize, clap::ValueEnum)]
#[serde(rename_all = "lowercase")]
pub enum Mode {
    /// Use what this machine allows and say what is missing.
    #[default]
    Auto,
    /// Refuse to start unless everything is enforced.
    Strict,
    /// No isolation: a process group and rlimits only (the behaviour before sandboxes).
    None,
}

/// What a reply's time limit measures (`--clock`).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize, clap::ValueEnum)]
#[serde(rename_all = "lowercase")]
pub enum Clock {
    /// CPU time of the bot's whole tree since the message, so busy neighbours cost it nothing.
    #[default]
    Cpu,
    /// Time on the wall clock.
    Wall,
}

impl fmt::Display for Clock {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Clock::Cpu => "CPU",
            Clock::Wall => "wall",
        })
    }
}

/// The limits of one bot tree (a game's bot, or a build).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Limits {
    pub memory_mib: u64,
    pub max_procs: u64,
    /// Bytes written: working-copy growth since the build, and the size of `/tmp`.
    pub disk_mib: u64,
    /// Open files per process.
    pub max_files: u64,
}

impl Default for Limits {
    fn default() -> Self {
        Limits {
            memory_mib: 1024,
            max_procs: 64,
            disk_mib: 256,
            max_files: 256,
        }
    }
}

/// The least address space a build's process may have under an address-space limit (see
/// [`Sandbox::build_address_space_mib`]): `tsc` on node reserves about 2 GiB.
pub const BUILD_ADDRESS_SPACE_MIB: u64 = 4096;

/// The sandbox cannot give what `--sandbox strict` asks for.
#[derive(Debug, thiserror::Error)]
#[error(
    "--sandbox strict: not enforced on this machine: {missing} ({why}); fix that, or use --sandbox auto to run with what is available"
)]
pub struct SandboxError {
    pub missing: String,
    pub why: String,
}

/// The launcher of a series: what this machine allows, probed once, and the limits.
#[derive(Debug)]
pub struct Sandbox {
    mode: Mode,
    limits: Limits,
    clock: Clock,
    /// bubblewrap's path, how the bot is made unprivileged, and the system folders to bind.
    bwrap: Option<Bwrap>,
    cgroups: Cgroups,
    report: Report,
    /// Size of each working copy when it was first launched, less what it had written in
    /// earlier runs (`spent`), to measure its growth over its life.
    baselines: Mutex<HashMap<PathBuf, u64>>,
    /// What each working copy held beyond its bot's own files when this run took it: the part
    /// of the disk limit spent in earlier runs of its version.
    spent: Mutex<HashMap<PathBuf, u64>>,
    /// The uid each working copy's bot runs as (when the controller is root).
    uids: Uids,
    /// The bots' seccomp filters as bubblewrap reads them (empty without bubblewrap).
    seccomp: Vec<Vec<u8>>,
    /// With warm sandboxes: the `take6` binary (their init) and the idle ones.
    warm: Option<(PathBuf, tree::Pool)>,
    /// With the disk cap: the working copies' disk images.
    images: Option<image::Images>,
    /// Which working copies have an image now, and which bots are seated.
    seating: seats::Seating,
    /// The frozen machine-wide counters bound over the bots' `/proc` files.
    _counters: Option<counters::Views>,
    /// The processor of each table played at once, when tables are pinned (see
    /// [`crate::affinity`]): the `k`-th warm sandbox a bot gets before the games is table
    /// `k`'s.
    table_cpus: Vec<usize>,
    /// Memory limits of some working copies' trees, in MiB, lower than `limits`' (a Botzone
    /// game's per bot and judge, [`Sandbox::limit_memory`]).
    memory_of: Mutex<HashMap<PathBuf, u64>>,
    /// The working copies whose bots sit out the rest of the series, and why (see
    /// [`Sandbox::bench`]): their seats are their faults, no process is started.
    benched: Mutex<HashMap<PathBuf, String>>,
}

/// The report's name of the frozen machine-wide counters (see [`counters`]).
pub const COUNTERS: &str = "frozen-counters";

/// The report's name of the disk cap (a loop-mounted image per working copy).
pub const DISK_CAP: &str = "disk-cap";

impl Sandbox {
    /// Keeps a warm sandbox per bot (and per game of it at once) across its games, its init
    /// being `init` (this binary's `sandbox-init`): under `--sandbox none` a plain one, else
    /// when this machine gives full isolation and the controller is root. Returns whether it
    /// does.
    pub fn keep_warm(&mut self, init: PathBuf) -> bool {
        // Everything but the disk cap (the working copy's, not the sandbox's) and the frozen
        // counters (a channel, not an isolation warm sandboxes rely on).
        let full = self
            .report
            .missing
            .iter()
            .all(|m| [DISK_CAP, COUNTERS].contains(m))
            && self.mode != Mode::None;
        let root = matches!(&self.bwrap, Some((_, Identity::Setpriv(_), _)));
        if (full && root) || self.mode == Mode::None {
            self.warm = Some((init, tree::Pool::default()));
        }
        self.warm.is_some()
    }

    /// Benches the bot of `workdir` for the rest of the series, with the reason its seats
    /// record: every later launch of it is refused with [`crate::player::Fault::Benched`].
    pub fn bench(&self, workdir: &Path, why: String) {
        self.benched
            .lock()
            .expect("not poisoned")
            .entry(workdir.to_path_buf())
            .or_insert(why);
    }

    /// Why the bot of `workdir` sits out, if it was benched: it is launched no more.
    pub fn benched(&self, workdir: &Path) -> Option<String> {
        self.benched
            .lock()
            .expect("not poisoned")
            .get(workdir)
            .cloned()
    }

    /// Holds the trees started in `workdir` to `mib` of memory (at most the series' own
    /// limit), where the memory cgroup holds each tree; returns whether it does (without it,
    /// every tree keeps the series' address-space limit, which a lower one would break for
    /// runtimes that reserve address space: Java, Go, JavaScript).
    pub fn limit_memory(&self, workdir: &Path, mib: u64) -> bool {
        if !self.memory_cgroup() {
            return false;
        }
        let mib = mib.min(self.limits.memory_mib);
        let mut memory_of = self.memory_of.lock().expect("not poisoned");
        if memory_of.get(workdir) != Some(&mib) {
            memory_of.insert(workdir.to_path_buf(), mib);
        }
        true
    }

    /// Whether each tree's memory is held by a memory cgroup.
    pub fn memory_cgroup(&self) -> bool {
        self.cgroups.memory.is_some()
    }

    /// The limits of a tree started in `workdir`: the series', with its own memory limit.
    fn limits_of(&self, workdir: &Path) -> Limits {
        let mut limits = self.limits;
        if let Some(&mib) = self.memory_of.lock().expect("not poisoned").get(workdir) {
            limits.memory_mib = mib;
        }
        limits
    }

    /// Pins the tables to processors: `cpus[k]` is table `k`'s (empty: none are pinned).
    pub fn pin_tables(&mut self, cpus: Vec<usize>) {
        self.table_cpus = cpus;
    }

    /// Removes the cgroups of ended trees, waiting up to `patience` for their last processes
    /// to exit: at the end of a series, so that nothing of it is left.
    /// Idle warm sandboxes are ended first (a series calls this at its end).
    pub fn settle(&self, patience: std::time::Duration) {
        if let Some((_, pool)) = &self.warm {
            let idle = std::mem::take(
                &mut *pool
                    .lock()
                    .unwrap_or_else(std::sync::PoisonError::into_inner),
            );
            warm::Warm::end_all(idle.into_values().flatten());
        }
        cgroup::settle(patience);
    }

    /// Whether bots run in a bubblewrap sandbox (and so see only its folders).
    pub fn isolated(&self) -> bool {
        self.bwrap.is_some()
    }

    pub fn report(&self) -> &Report {
        &self.report
    }

    pub fn limits(&self) -> Limits {
        self.limits
    }

    /// Makes a working copy usable by the sandboxed bot: owned by the unprivileged user it runs
    /// as, so that it can write there (and nowhere else); with the disk cap, the copy becomes a
    /// disk image mounted in its place, until [`Sandbox::release_workdirs`]. `own` is what its
    /// bot's own files take ([`crate::folder::Listing::footprint`]): the disk limit holds for
    /// what the copy holds beyond them over its whole life, kept storage included, so a copy
    /// already holding more is refused (an error of kind `QuotaExceeded` saying so).
    pub fn prepare_workdir(&self, dir: &Path, own: u64) -> io::Result<()> {
        if let Some((_, Identity::Setpriv(_), _)) = &self.bwrap {
            deep::chown_tree(crate::door::working_copy(dir)?, self.uids.of(dir))?;
        }
        let held = match &self.images {
            Some(images) => {
                let held = images.make(dir, own)?;
                self.seated_with_image(dir, own);
                held
            }
            None if self.mode != Mode::None => {
                let held = deep::shape(dir)?.bytes;
                within_cap(dir, held, own, self.limits.disk_mib << 20)?;
                held
            }
            None => own,
        };
        self.spend(dir, held, own);
        Ok(())
    }

    /// Remembers what the working copy `dir` holds beyond its bot's own files.
    fn spend(&self, dir: &Path, held: u64, own: u64) {
        self.spent
            .lock()
            .expect("not poisoned")
            .insert(dir.to_path_buf(), held.saturating_sub(own));
    }

    /// Makes a resumed series' kept working copy usable again: its disk image mounted again
    /// when there is one (it holds the working copy after a crash), else as
    /// [`Sandbox::prepare_workdir`] does.
    pub fn resume_workdir(&self, dir: &Path, own: u64) -> io::Result<()> {
        let image = image_of(dir);
        // Seen from the series folder's descriptor: a link in `work` is refused here.
        let imaged = crate::door::working_copy_there(dir, &image)?.image;
        match &self.images {
            Some(images) if imaged => {
                let held = images.reopen(dir, own)?;
                self.seated_with_image(dir, own);
                self.spend(dir, held, own);
                // Its bot's uid in this run may not be the one of the run that made it.
                match &self.bwrap {
                    Some((_, Identity::Setpriv(_), _)) => {
                        deep::chown_tree(crate::door::working_copy(dir)?, self.uids.of(dir))
                    }
                    _ => Ok(()),
                }
            }
            None if imaged => Err(io::Error::other(format!(
                "it is in the disk image {}, which only a controller with the disk cap can \
                 mount (run as root with /dev/loop-control and e2fsprogs installed)",
                image.display()
            ))),
            _ => self.prepare_workdir(dir, own),
        }
    }

    /// At the end of a series (a [`Release`] guard calls it): each working copy that is a disk
    /// image is copied back into its folder, unmounted and its image deleted; no image is made
    /// after this. What cannot be copied back stays in its image and is said on stderr.
    pub fn release_workdirs(&self) {
        if let Some(images) = &self.images {
            for problem in images.release() {
                tracing::warn!("{problem}");
            }
        }
    }
}

/// Copies the working copies back out of their disk images when dropped: owned by a series
/// from its sandbox's start, so that every end (complete, stopped, failed) does it.
pub struct Release(pub Arc<Sandbox>);

impl Drop for Release {
    fn drop(&mut self) {
        self.0.release_workdirs();
    }
}

/// Why a tree could not be started.
#[derive(Debug, thiserror::Error)]
pub enum SpawnError {
    #[error("{0}")]
    Start(io::Error),
    #[error("exited at once")]
    ExitedAtOnce,
    #[error("cannot make its cgroup: {0}")]
    Cgroup(io::Error),
    #[error("{0}")]
    Breach(Breach),
}

/// Marks every descriptor the controller inherited (from fd 3 up) close-on-exec, so that
/// none of them reaches a bot or a build: a pipe or file the controller's own parent left open
/// would otherwise be inherited through bubblewrap by every process the series starts. Called
/// once at start, before any descriptor of the controller's own is opened; descriptors it opens
/// later are close-on-exec already (the standard library's default), and those a sandbox must
/// have are handed over on purpose.
pub fn close_inherited_on_exec() {
    use nix::fcntl::{FcntlArg, FdFlag, fcntl};
    use std::os::fd::BorrowedFd;
    let Ok(entries) = std::fs::read_dir("/proc/self/fd") else {
        return;
    };
    let fds: Vec<i32> = entries
        .filter_map(|e| e.ok()?.file_name().to_str()?.parse().ok())
        .filter(|&fd| fd > 2)
        .collect();
    for fd in fds {
        // SAFETY: the descriptor is only borrowed for the call; one that was the listing's
        // own and is closed by now makes the call fail with EBADF, which is fine.
        let borrowed = unsafe { BorrowedFd::borrow_raw(fd) };
        let _ = fcntl(borrowed, FcntlArg::F_SETFD(FdFlag::FD_CLOEXEC));
    }
}

/// Refuses the working copy `dir` when it holds (`held` bytes) more than its bot's own files
/// (`own`) and the disk limit (`cap`) together: storage kept from earlier runs counts.
pub(crate) fn within_cap(dir: &Path, held: u64, own: u64, cap: u64) -> io::Result<()> {
    if held <= own.saturating_add(cap) {
        return Ok(());
    }
    let mib = |b: u64| b as f64 / (1 << 20) as f64;
    Err(io::Error::new(
        io::ErrorKind::QuotaExceeded,
        format!(
            "the working copy {} holds {:.1} MiB, more than its bot's own files ({:.1} MiB) and \
             the disk limit ({} MiB) together, which it may hold over its whole life (storage \
             kept by an older take6 may): remove what it does not need from it, or wipe it",
            dir.display(),
            mib(held),
            mib(own),
            cap >> 20
        ),
    ))
}

#[cfg(test)]
mod tests;
