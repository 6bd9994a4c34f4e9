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
mod loopdev;
mod seats;
pub mod seccomp;
mod spawn;
mod tree;
pub mod warm;

use std::collections::HashMap;
use std::ffi::OsString;
use std::fmt;
use std::io;
use std::os::fd::{AsRawFd, OwnedFd};
use std::path::{Path, PathBuf};
use std::process::Stdio;
use std::sync::{Arc, Mutex};

use nix::sys::resource::{Resource, setrlimit};
use serde::{Deserialize, Serialize};
use tokio::process::{Child, Command};

pub use bwrap::UID_BASE;
use bwrap::{Identity, SystemDir};
use cgroup::{Cgroups, Group, GroupLimits};
pub use image::{image_bytes, image_of};
pub use seats::Seat;
use tree::DiskBase;
pub use tree::{Breach, Tree};

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

/// What a series' sandbox enforces, for stderr and `series.toml`'s `[sandbox]` table.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Report {
    pub mode: Mode,
    pub enforced: Vec<&'static str>,
    pub missing: Vec<&'static str>,
    /// Why each missing part is missing and how to get it.
    #[serde(skip)]
    pub why: Vec<String>,
}

/// Whether the sandbox line lists every protection (`take6 -v`); by default it is short.
static LIST_PROTECTIONS: std::sync::atomic::AtomicBool = std::sync::atomic::AtomicBool::new(false);

/// `take6 -v`: the sandbox line lists every protection enforced.
pub fn list_protections(on: bool) {
    LIST_PROTECTIONS.store(on, std::sync::atomic::Ordering::Relaxed);
}

impl Report {
    /// The line said on stderr: short (a line said on every command),
    /// what is enforced in a word and what is not in full; the whole list with `take6 -v`.
    pub fn stderr_line(&self) -> String {
        if LIST_PROTECTIONS.load(std::sync::atomic::Ordering::Relaxed) {
            return self.line();
        }
        let mode = match self.mode {
            Mode::Auto => "auto",
            Mode::Strict => "strict",
            Mode::None => "none",
        };
        let total = self.enforced.len() + self.missing.len();
        if self.mode == Mode::None {
            // Nothing isolates the bots: said in words, not as protections "all enforced".
            return format!(
                "sandbox none: {}; kept: {} (take6 -v lists them, as does series.toml)",
                unsandboxed_user(),
                plural(self.enforced.len(), "safeguard")
            );
        }
        if self.missing.is_empty() {
            return format!(
                "sandbox {mode}: all {total} protections enforced (take6 -v lists them, as does \
                 series.toml)"
            );
        }
        format!(
            "sandbox {mode}: {} of {total} protections enforced; NOT enforced: {} ({}) (take6 -v \
             lists what is)",
            self.enforced.len(),
            self.missing.join(", "),
            self.why.join("; ")
        )
    }

    /// The stderr line, e.g. `sandbox: auto: enforced ...; missing ... (why)`.
    pub fn line(&self) -> String {
        let mode = match self.mode {
            Mode::Auto => "auto",
            Mode::Strict => "strict",
            Mode::None => "none",
        };
        let mut line = format!("sandbox: {mode}: enforced {}", list(&self.enforced));
        if !self.missing.is_empty() {
            line.push_str(&format!(
                "; NOT enforced: {} ({})",
                self.missing.join(", "),
                self.why.join("; ")
            ));
        }
        if self.mode == Mode::None {
            line.push_str(&format!("; {}", unsandboxed_user()));
        }
        line
    }
}

/// What `--sandbox none` means, in words for the start line: whose rights builds and bots get.
pub fn unsandboxed_user() -> String {
    let uid = nix::unistd::getuid();
    let name = nix::unistd::User::from_uid(uid).ok().flatten().map_or_else(
        || format!("uid {uid}"),
        |u| format!("{} (uid {uid})", u.name),
    );
    format!(
        "builds and bots run as the controller's own user, {name}, with no sandbox: they can \
         read, change and delete whatever that user can"
    )
}

/// `n` and `word`, plural unless one.
fn plural(n: usize, word: &str) -> String {
    if n == 1 {
        format!("1 {word}")
    } else {
        format!("{n} {word}s")
    }
}

fn list(items: &[&str]) -> String {
    if items.is_empty() {
        "nothing".into()
    } else {
        items.join(", ")
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
        bwrap: Result<(Bwrap, bool), String>,
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
                self.report.why.push(why);
            }
        }
    }

    /// The disk cap: a loop-mounted image per working copy, when its trial ran and the sandbox
    /// runs as root, or why not.
    fn take_images(&mut self, images: Option<Result<image::Images, String>>) {
        // Loop mounts need root, which also means the bot runs as `nobody` (it cannot unmount).
        let root = matches!(&self.bwrap, Some((_, Identity::Setpriv(_), _)));
        let images = match images {
            Some(images) if root => images,
            _ => Err("it needs the sandbox run as root (bubblewrap and setpriv)".into()),
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

    /// Starts a game's `launch` in `workdir`: in a warm sandbox when they are kept (a fresh
    /// one if the warm sandbox fails), else in a fresh one.
    pub fn launch_game(self: &Arc<Self>, workdir: &Path) -> Result<Launched, SpawnError> {
        // Its disk image, made now if its bot had none, stays until its tree is gone.
        let seat = seats::Seat::playing(self, workdir).map_err(|e| self.seat_failed(workdir, e))?;
        let mut launched = self.launch_seated(workdir)?;
        launched.tree = launched.tree.seated(seat);
        Ok(launched)
    }

    /// [`Sandbox::launch_game`] once its bot is seated.
    fn launch_seated(&self, workdir: &Path) -> Result<Launched, SpawnError> {
        if let Some((init, pool)) = &self.warm {
            match self.launch_warm(init, pool, workdir) {
                Ok(launched) => return Ok(launched),
                Err(SpawnError::Start(e)) => {
                    tracing::warn!("warm sandbox for {}: {e}", workdir.display());
                }
                Err(e) => return Err(e),
            }
        }
        let stdio = [Stdio::piped(), Stdio::piped(), Stdio::piped()];
        let (mut child, tree) = self.spawn("launch", workdir, stdio)?;
        let stdin = child.stdin.take().expect("piped");
        let stdout = child.stdout.take().expect("piped");
        let stderr = child.stderr.take().expect("piped");
        Ok(Launched {
            stdin: Box::new(stdin),
            stdout: Box::new(stdout),
            stderr: Box::new(stderr),
            tree: tree.with_child(child),
        })
    }

    /// Starts `count` warm sandboxes for `workdir` now and keeps them idle for its first games
    /// (when sandboxes are kept warm). A sandbox that cannot start is logged; the game that
    /// needs one tries again and says why it failed.
    pub fn prewarm(&self, workdir: &Path, count: usize) {
        let Some((init, pool)) = &self.warm else {
            return;
        };
        for k in 0..count {
            // The k-th is table k's: on its processor when tables are pinned.
            let cpu = self.table_cpus.get(k).copied();
            match self.start_warm(init, workdir, cpu) {
                Ok(warm) => pool
                    .lock()
                    .expect("not poisoned")
                    .entry((workdir.to_path_buf(), warm.cpu()))
                    .or_default()
                    .push(warm),
                Err(e) => {
                    tracing::warn!("warm sandbox for {}: {e}", workdir.display());
                    return;
                }
            }
        }
    }

    /// A new warm sandbox for `workdir`, on processor `cpu` if given: a plain init under
    /// `none`, else a sandboxed one.
    fn start_warm(
        &self,
        init: &Path,
        workdir: &Path,
        cpu: Option<usize>,
    ) -> io::Result<warm::Warm> {
        let mut warm = match self.mode {
            Mode::None => warm::Warm::start_plain(self, init, workdir, cpu),
            _ => warm::Warm::start(self, init, workdir, cpu),
        }?;
        warm.image = self.image_number(workdir);
        Ok(warm)
    }

    /// Starts a game's `launch` in an idle warm sandbox of `workdir`, or a new one.
    fn launch_warm(
        &self,
        init: &Path,
        pool: &tree::Pool,
        workdir: &Path,
    ) -> Result<Launched, SpawnError> {
        let base = self.disk_base(workdir)?;
        // A pinned table's game uses its processor's warm sandboxes (see crate::affinity).
        let processor = crate::affinity::current();
        let key = (workdir.to_path_buf(), processor);
        let idle = pool
            .lock()
            .expect("not poisoned")
            .get_mut(&key)
            .and_then(Vec::pop);
        // One started on an image since copied back holds no working copy.
        let image = self.image_number(workdir);
        let (idle, stale): (Vec<_>, Vec<_>) = idle.into_iter().partition(|w| w.image == image);
        warm::Warm::end_all(stale);
        let mut warm = match idle.into_iter().next() {
            Some(warm) => warm,
            None => self
                .start_warm(init, workdir, processor)
                .map_err(SpawnError::Start)?,
        };
        // The sandbox's group outlives games: this game counts from here, before its launch
        // and after the last game's end is done (its processes killed and reaped).
        warm.settle().map_err(SpawnError::Start)?;
        let limits = self.limits_of(workdir);
        if let Some(group) = warm.group() {
            group
                .set_memory_limit(limits.memory_mib << 20)
                .map_err(SpawnError::Start)?;
        }
        let counters = warm.group().map(tree::Counters::of).unwrap_or_default();
        let (in_read, in_write) = io::pipe().map_err(SpawnError::Start)?;
        let (out_read, out_write) = io::pipe().map_err(SpawnError::Start)?;
        let (err_read, err_write) = io::pipe().map_err(SpawnError::Start)?;
        warm.launch([in_read.into(), out_write.into(), err_write.into()])
            .map_err(SpawnError::Start)?;
        use tokio::net::unix::pipe;
        // Our ends of pipes just made: non-blocking with one call each, and handed to the
        // runtime without the checks (a stat and a flags read each) that they are pipes.
        let ours = |end: std::os::fd::OwnedFd| {
            nix::fcntl::fcntl(
                &end,
                nix::fcntl::FcntlArg::F_SETFL(nix::fcntl::OFlag::O_NONBLOCK),
            )
            .map_err(|e| SpawnError::Start(e.into()))
            .map(|_| end)
        };
        let stdin = pipe::Sender::from_owned_fd_unchecked(ours(in_write.into())?)
            .map_err(SpawnError::Start)?;
        let stdout = pipe::Receiver::from_owned_fd_unchecked(ours(out_read.into())?)
            .map_err(SpawnError::Start)?;
        let stderr = pipe::Receiver::from_owned_fd_unchecked(ours(err_read.into())?)
            .map_err(SpawnError::Start)?;
        let cpu = self.clock == Clock::Cpu;
        Ok(Launched {
            stdin: Box::new(stdin),
            stdout: Box::new(stdout),
            stderr: Box::new(stderr),
            tree: Tree::in_warm(warm, Arc::clone(pool), counters, cpu, workdir, base, limits),
        })
    }

    /// The working copy's size at its first launch (to measure its growth), or the disk fault
    /// of a working copy that has grown too much already; `None` under `none`.
    fn disk_base(&self, workdir: &Path) -> Result<Option<DiskBase>, SpawnError> {
        if self.mode == Mode::None {
            return Ok(None);
        }
        self.unseated(workdir)?;
        // A mounted image is measured in O(1); a folder is walked.
        let image = self.images.as_ref().is_some_and(|i| i.is_mounted(workdir));
        let used = tree::used_bytes(workdir, image);
        let spent = self
            .spent
            .lock()
            .expect("not poisoned")
            .get(workdir)
            .copied()
            .unwrap_or(0);
        let base = *self
            .baselines
            .lock()
            .expect("not poisoned")
            .entry(workdir.to_path_buf())
            .or_insert(used.saturating_sub(spent));
        if used > base + (self.limits.disk_mib << 20) {
            return Err(SpawnError::Breach(Breach::Disk {
                mib: self.limits.disk_mib,
            }));
        }
        Ok(Some(DiskBase { bytes: base, image }))
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

    /// Starts `program` (`launch` or `build`, a file in `workdir`) in the sandbox, with the
    /// given standard streams, in a new process group that is killed when the child is dropped.
    pub fn spawn(
        &self,
        program: &str,
        workdir: &Path,
        stdio: [Stdio; 3],
    ) -> Result<(Child, Tree), SpawnError> {
        let base = self.disk_base(workdir)?;
        let limits = self.limits_of(workdir);
        // Groups of games that ended since the last start, without waiting.
        cgroup::settle(std::time::Duration::ZERO);
        let group = self.group_for(program, limits.memory_mib)?;
        // The filters go to bubblewrap through pipes it reads before it starts the program.
        let filters = self.filter_pipes()?;
        let mut command = self.command(program, workdir, &filters);
        let [stdin, stdout, stderr] = stdio;
        command
            .current_dir(workdir)
            .stdin(stdin)
            .stdout(stdout)
            .stderr(stderr)
            .process_group(0)
            .kill_on_drop(true);
        let joins = match &group {
            Some(g) => g.join_files().map_err(SpawnError::Cgroup)?,
            None => Vec::new(),
        };
        let rlimits = self.rlimits(group.as_ref(), program == "build");
        // SAFETY: the closure only makes system calls (write to open files, setrlimit,
        // sched_setscheduler); it allocates nothing and touches no lock of the parent.
        let filter_fds: Vec<i32> = filters.iter().map(AsRawFd::as_raw_fd).collect();
        unsafe {
            command.pre_exec(move || {
                // Inherited by bubblewrap alone: close-on-exec is cleared in this child only.
                for &fd in &filter_fds {
                    if nix::libc::fcntl(fd, nix::libc::F_SETFD, 0) == -1 {
                        return Err(io::Error::last_os_error());
                    }
                }
                Group::join_self(&joins)?;
                for &(resource, value) in &rlimits {
                    setrlimit(resource, value, value)?;
                }
                spawn::run_as_batch()
            });
        }
        let child = command.spawn().map_err(SpawnError::Start)?;
        drop(filters);
        let leader = child.id().ok_or(SpawnError::ExitedAtOnce)?;
        let cpu = self.clock == Clock::Cpu;
        let tree = Tree::new(leader, group, cpu, workdir, base, limits);
        Ok((child, tree))
    }

    /// The cgroup of a tree about to start `program`, where cgroups are used: its memory
    /// (`memory_mib`, the tree's own: [`Sandbox::limit_memory`]) and process limits, and a CPU
    /// quota except for a build.
    fn group_for(&self, program: &str, memory_mib: u64) -> Result<Option<Group>, SpawnError> {
        if self.cgroups == Cgroups::default() {
            return Ok(None);
        }
        self.cgroups
            .create(GroupLimits {
                memory_bytes: memory_mib << 20,
                max_procs: self.limits.max_procs,
                cpu_quota: program != "build",
            })
            .map(Some)
            .map_err(SpawnError::Cgroup)
    }

    /// Under bubblewrap, a pipe per seccomp filter, holding it, for bubblewrap to read before
    /// it starts the program (`--add-seccomp-fd`); none otherwise.
    fn filter_pipes(&self) -> Result<Vec<OwnedFd>, SpawnError> {
        let mut filters = Vec::new();
        if self.bwrap.is_some() {
            for program in &self.seccomp {
                let (read, mut write) = io::pipe().map_err(SpawnError::Start)?;
                io::Write::write_all(&mut write, program).map_err(SpawnError::Start)?;
                filters.push(OwnedFd::from(read));
            }
        }
        Ok(filters)
    }

    /// The command that runs `program` in `workdir`: through bubblewrap with the `filters`,
    /// or, without it, the program itself with the sandbox's environment (unless the mode is
    /// `none`).
    fn command(&self, program: &str, workdir: &Path, filters: &[OwnedFd]) -> Command {
        match &self.bwrap {
            Some((path, identity, system)) => {
                let mut c = Command::new(path);
                for fd in filters {
                    c.arg("--add-seccomp-fd").arg(fd.as_raw_fd().to_string());
                }
                c.args(bwrap::args(
                    identity,
                    self.uids.of(workdir),
                    system,
                    workdir,
                    self.limits.disk_mib << 20,
                    &format!("./{program}"),
                ));
                c
            }
            None => {
                let mut c = Command::new(workdir.join(program));
                if self.mode != Mode::None {
                    c.env_clear();
                    for (key, value) in bwrap::ENV {
                        let value: OsString = if key == "HOME" {
                            workdir.as_os_str().to_owned()
                        } else {
                            value.into()
                        };
                        c.env(key, value);
                    }
                }
                c
            }
        }
    }

    /// The address space each process of a build may have where memory is held by an
    /// address-space limit (no memory cgroup: `--sandbox none`, `take6 check` as a user):
    /// the series' `--memory-mib`, but at least [`BUILD_ADDRESS_SPACE_MIB`], since compilers
    /// on runtimes that reserve address space ahead (`tsc` on node, javac) need more than a
    /// bot's 1 GiB while using far less.
    pub fn build_address_space_mib(&self) -> u64 {
        self.limits.memory_mib.max(BUILD_ADDRESS_SPACE_MIB)
    }

    /// The rlimits of every process of a tree (a `build`'s when `build`).
    fn rlimits(&self, group: Option<&Group>, build: bool) -> Vec<(Resource, u64)> {
        let l = &self.limits;
        // A crashing bot must not fill its working copy with core dumps, game after game.
        let mut r = vec![(Resource::RLIMIT_CORE, 0)];
        let memory_cgroup = group.is_some() && self.cgroups.memory.is_some();
        if !memory_cgroup {
            let mib = if build {
                self.build_address_space_mib()
            } else {
                l.memory_mib
            };
            r.push((Resource::RLIMIT_AS, mib << 20));
        }
        if self.mode != Mode::None {
            r.push((Resource::RLIMIT_NOFILE, l.max_files));
            r.push((Resource::RLIMIT_FSIZE, l.disk_mib << 20));
        }
        // Never above what the controller itself may have: raising a hard limit is refused.
        for (resource, value) in &mut r {
            if let Ok((_, hard)) = nix::sys::resource::getrlimit(*resource) {
                *value = (*value).min(hard);
            }
        }
        r
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

/// Finds bubblewrap and checks that it can make its namespaces here, with a trial run.
/// bubblewrap's path, how the bot is made unprivileged, and the system folders to bind.
type Bwrap = (PathBuf, Identity, Vec<SystemDir>);

/// Finds bubblewrap and tries a sandbox with the system folders and the `frozen` counters
/// bound (without them if that fails): the launcher, and whether the counters are bound.
fn probe_bwrap(frozen: &[SystemDir]) -> Result<(Bwrap, bool), String> {
    let Some(path) = find_program("bwrap") else {
        return Err("bubblewrap not found (apt-get install bubblewrap)".into());
    };
    let root = nix::unistd::geteuid().is_root();
    let identity = match find_program("setpriv") {
        Some(setpriv) if root => Identity::Setpriv(setpriv.to_string_lossy().into_owned()),
        _ => Identity::UserNamespace,
    };
    let system = bwrap::system_dirs();
    let probe = std::env::temp_dir().join(format!("take6-probe-{}", std::process::id()));
    std::fs::create_dir_all(&probe).map_err(|e| format!("cannot make {}: {e}", probe.display()))?;
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
        Ok(o) => Err(format!(
            "bubblewrap cannot make a sandbox here ({}): allow user namespaces or run as root",
            String::from_utf8_lossy(&o.stderr).trim()
        )),
        Err(e) => Err(format!("bubblewrap cannot start: {e}")),
    }
}

/// `name` in `PATH` or the usual system folders.
fn find_program(name: &str) -> Option<PathBuf> {
    let path = std::env::var_os("PATH").unwrap_or_default();
    std::env::split_paths(&path)
        .chain(["/usr/bin", "/bin", "/usr/sbin", "/sbin"].map(PathBuf::from))
        .map(|dir| dir.join(name))
        .find(|p| p.is_file())
}

/// The uids of a series' bots: one per working copy, from [`bwrap::UID_BASE`] up, skipping
/// uids that belong to someone on this machine. Two games of one bot at once share its working
/// copy and so its uid; two bots never share one.
#[derive(Debug, Default)]
pub struct Uids {
    given: Mutex<(HashMap<PathBuf, u32>, u32)>,
}

impl Uids {
    /// The uid of the bot whose working copy is `workdir`, given on first use.
    pub fn of(&self, workdir: &Path) -> u32 {
        let mut given = self.given.lock().unwrap_or_else(|e| e.into_inner());
        if let Some(&uid) = given.0.get(workdir) {
            return uid;
        }
        let mut uid = given.1.max(bwrap::UID_BASE);
        while taken(uid) {
            uid += 1;
        }
        given.0.insert(workdir.to_path_buf(), uid);
        given.1 = uid + 1;
        uid
    }
}

/// Whether `uid` (as a uid or a gid) belongs to someone: a user or group of this machine, or a
/// subordinate range of `/etc/subuid` or `/etc/subgid` (user namespaces of host users map
/// them).
fn taken(uid: u32) -> bool {
    use nix::unistd::{Gid, Group, Uid, User};
    static RANGES: std::sync::OnceLock<Vec<(u64, u64)>> = std::sync::OnceLock::new();
    let ranges = RANGES.get_or_init(|| {
        ["/etc/subuid", "/etc/subgid"]
            .iter()
            .filter_map(|f| std::fs::read_to_string(f).ok())
            .flat_map(|text| {
                text.lines()
                    .filter_map(|line| {
                        let mut f = line.split(':').skip(1);
                        let start: u64 = f.next()?.trim().parse().ok()?;
                        let count: u64 = f.next()?.trim().parse().ok()?;
                        Some((start, start + count))
                    })
                    .collect::<Vec<_>>()
            })
            .collect()
    });
    let id = u64::from(uid);
    ranges
        .iter()
        .any(|&(start, end)| (start..end).contains(&id))
        || User::from_uid(Uid::from_raw(uid)).ok().flatten().is_some()
        || Group::from_gid(Gid::from_raw(uid)).ok().flatten().is_some()
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
