//! Per-tree control groups: one group per running bot tree (a game's bot or a build), so that
//! memory, process count and CPU time are limited and measured for the whole tree, children and
//! daemons included, however they were started.
//!
//! Both layouts are supported: cgroup v1 (a hierarchy per controller, as on this project's
//! machines) and cgroup v2 (one unified hierarchy, where it is delegated to us). Groups are made
//! below the controller's own group, in a `take6` folder, named `<controller pid>-<n>` so that
//! parallel series never collide and a later controller can remove what a killed one left.

use std::fs::{self, File, OpenOptions};
use std::io::{self, Write};
use std::path::{Path, PathBuf};
use std::sync::Mutex;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{Duration, Instant};

use nix::sys::signal::{Signal, kill};
use nix::unistd::Pid;

/// The folder, below the controller's own group, that holds its per-tree groups.
const FOLDER: &str = "take6";

/// Where per-tree groups can be made, per controller. A missing one is not enforced.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Cgroups {
    /// True for the unified (v2) hierarchy, where all three folders are the same.
    pub v2: bool,
    pub memory: Option<PathBuf>,
    pub pids: Option<PathBuf>,
    pub cpu: Option<PathBuf>,
    /// Where a tree's share of the processors is set: v1's `cpu` hierarchy (`cpu.shares`,
    /// `cpu.cfs_quota_us`), v2's `cpu` controller (`cpu.weight`, `cpu.max`).
    pub share: Option<PathBuf>,
}

/// The limits a group is made with.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct GroupLimits {
    pub memory_bytes: u64,
    pub max_procs: u64,
    /// Whether the tree gets the quota of [`CPU_QUOTA_PROCESSORS`] besides its equal weight:
    /// a game's bot does; a build, which runs before the games and whose compiler may use
    /// every processor, does not.
    pub cpu_quota: bool,
}

/// Every tree's weight against the others (v1 `cpu.shares`; v2's `cpu.weight` is this / 1024
/// × 100): all equal, so that when trees compete for a processor each gets the same part of
/// it, whatever number of processes or threads it runs. Resetting a process's affinity does not
/// escape it: the weight is the group's, on every processor.
pub const CPU_SHARES: u64 = 1024;

/// The scheduler's period for the quota, in µs.
const CPU_PERIOD_US: u64 = 100_000;

/// How many processors' worth of time a tree may use at most, per period: one. A tree of 40
/// spinners spread over every processor then still leaves the others all but one processor,
/// and no bot needs more: its clock counts the CPU time of all its processes anyway, so more
/// processors only ever bought it wall time.
pub const CPU_QUOTA_PROCESSORS: u64 = 1;

impl Cgroups {
    /// Finds writable hierarchies for the memory, pids and CPU-accounting controllers, and
    /// removes groups left by controllers that are no longer running.
    pub fn detect() -> Cgroups {
        let mounts = fs::read_to_string("/proc/self/mounts").unwrap_or_default();
        let own = fs::read_to_string("/proc/self/cgroup").unwrap_or_default();
        let found = match v2_mount(&mounts) {
            Some(root) if root.join("cgroup.controllers").exists() => detect_v2(&root, &own),
            _ => Cgroups {
                v2: false,
                memory: v1_base(&mounts, &own, "memory"),
                pids: v1_base(&mounts, &own, "pids"),
                cpu: v1_base(&mounts, &own, "cpuacct"),
                share: v1_base(&mounts, &own, "cpu"),
            },
        };
        for base in found.bases() {
            clean_stale(base);
        }
        if let Some(share) = &found.share {
            // Best effort: where the weight cannot be written the bots still share fairly
            // among themselves, only less against the host's other work.
            let _ = set_base_weight(share, found.v2, processors());
        }
        found
    }

    fn bases(&self) -> Vec<&PathBuf> {
        let mut bases: Vec<&PathBuf> = [&self.memory, &self.pids, &self.cpu, &self.share]
            .into_iter()
            .flatten()
            .collect();
        bases.dedup();
        bases
    }

    /// Makes a fresh group for one tree, with `limits` set. Fails only if a folder that was
    /// writable at start no longer is.
    pub fn create(&self, limits: GroupLimits) -> io::Result<Group> {
        static NEXT: AtomicU64 = AtomicU64::new(0);
        // A name is only taken twice by a controller of another PID namespace with our pid.
        let name = loop {
            let name = format!(
                "{}-{}",
                std::process::id(),
                NEXT.fetch_add(1, Ordering::Relaxed)
            );
            if !self.bases().iter().any(|b| b.join(&name).exists()) {
                break name;
            }
        };
        let mut group = Group {
            v2: self.v2,
            dirs: Vec::new(),
            joins: Vec::new(),
            memory: None,
            pids: None,
            cpu: None,
            memory_limit: None,
        };
        let events = if self.v2 {
            "memory.events"
        } else {
            "memory.oom_control"
        };
        let cpu = if self.v2 { "cpu.stat" } else { "cpuacct.usage" };
        for base in self.bases() {
            let dir = base.join(&name);
            fs::create_dir(&dir)?;
            group.dirs.push(dir.clone());
            if self.memory.as_ref() == Some(base) {
                set_memory(&dir, self.v2, limits.memory_bytes)?;
                group.memory = Some(File::open(dir.join(events))?);
                group.memory_limit = Some((dir.clone(), AtomicU64::new(limits.memory_bytes)));
            }
            if self.pids.as_ref() == Some(base) {
                fs::write(dir.join("pids.max"), limits.max_procs.to_string())?;
                group.pids = Some(File::open(dir.join("pids.events"))?);
            }
            if self.cpu.as_ref() == Some(base) {
                group.cpu = Some(File::open(dir.join(cpu))?);
            }
            if self.share.as_ref() == Some(base) {
                set_share(&dir, self.v2, limits.cpu_quota)?;
            }
            // v1: the folder's `tasks`, see [`Group::join_self`]; v2 has no such file.
            let join = if self.v2 { "cgroup.procs" } else { "tasks" };
            group
                .joins
                .push(OpenOptions::new().write(true).open(dir.join(join))?);
        }
        Ok(group)
    }
}

/// The weight of the folder that holds every tree (`take6`) against its siblings, the host's
/// other processes and groups: as many ordinary processes' worth as there are processors
/// (v1 `cpu.shares` 1024 × processors; v2 `cpu.weight` 100 × processors, at most 10 000).
///
/// Why: the trees' equal weights only share what their common parent gets. Left at the
/// default, that parent weighs as much as one ordinary process, so on a busy host all the
/// bots of every table together got one process's share, while the same bots unsandboxed
/// compete as the processes they are: a sandboxed series of 10 `cgap` bots at `--jobs 2`,
/// load average 20 to 30 from other builds, took 8.6 to 12.3 s against 2.7 to 3.0 s without
/// the sandbox, its CPU time only 1.17 × (docs/performance.md). A series uses at most one
/// table per processor (`--jobs`), so this is what its bots would weigh unsandboxed, and the
/// fairness between bots (equal weights below it) is unchanged.
pub fn base_weight(v2: bool, processors: u64) -> u64 {
    let processors = processors.max(1);
    if v2 {
        (CPU_SHARES * 100 / 1024 * processors).min(10_000)
    } else {
        CPU_SHARES * processors
    }
}

fn set_base_weight(base: &Path, v2: bool, processors: u64) -> io::Result<()> {
    let file = if v2 { "cpu.weight" } else { "cpu.shares" };
    fs::write(base.join(file), base_weight(v2, processors).to_string())
}

fn processors() -> u64 {
    std::thread::available_parallelism().map_or(1, |n| n.get() as u64)
}

/// Gives the group at `dir` the weight every tree gets, and the quota if `quota`.
fn set_share(dir: &Path, v2: bool, quota: bool) -> io::Result<()> {
    let limit = CPU_QUOTA_PROCESSORS * CPU_PERIOD_US;
    if v2 {
        fs::write(
            dir.join("cpu.weight"),
            (CPU_SHARES * 100 / 1024).to_string(),
        )?;
        if quota {
            fs::write(dir.join("cpu.max"), format!("{limit} {CPU_PERIOD_US}"))?;
        }
    } else {
        fs::write(dir.join("cpu.shares"), CPU_SHARES.to_string())?;
        if quota {
            fs::write(dir.join("cpu.cfs_period_us"), CPU_PERIOD_US.to_string())?;
            fs::write(dir.join("cpu.cfs_quota_us"), limit.to_string())?;
        }
    }
    Ok(())
}

fn set_memory(dir: &Path, v2: bool, bytes: u64) -> io::Result<()> {
    if v2 {
        fs::write(dir.join("memory.max"), bytes.to_string())?;
        // No swap: the limit is the memory the tree may use, not a slower way to exceed it.
        let _ = fs::write(dir.join("memory.swap.max"), "0");
    } else {
        fs::write(dir.join("memory.limit_in_bytes"), bytes.to_string())?;
        let _ = fs::write(dir.join("memory.memsw.limit_in_bytes"), bytes.to_string());
    }
    Ok(())
}

/// One tree's group, in every hierarchy that has one of our controllers.
#[derive(Debug)]
pub struct Group {
    v2: bool,
    dirs: Vec<PathBuf>,
    /// Where the child joins each folder (`tasks` in v1, `cgroup.procs` in v2), opened before
    /// the fork so the child only has to write.
    joins: Vec<File>,
    /// The counters read during a game (per reply), opened once: reopening them per read cost
    /// more than the rest of a reply's bookkeeping. `memory.events` or `memory.oom_control`.
    memory: Option<File>,
    /// `pids.events`.
    pids: Option<File>,
    /// `cpu.stat` or `cpuacct.usage`.
    cpu: Option<File>,
    /// The memory controller's folder and the limit it holds now, in bytes.
    memory_limit: Option<(PathBuf, AtomicU64)>,
}

impl Group {
    /// Sets the memory the tree may use to `bytes`, where the group has the memory
    /// controller (a warm sandbox's group, made before the game said its bot's limit).
    pub fn set_memory_limit(&self, bytes: u64) -> io::Result<()> {
        let Some((dir, now)) = &self.memory_limit else {
            return Ok(());
        };
        if now.load(Ordering::Relaxed) != bytes {
            set_memory(dir, self.v2, bytes)?;
            now.store(bytes, Ordering::Relaxed);
        }
        Ok(())
    }

    /// Moves the calling process into the group. Runs in the forked child before `exec`, so it
    /// allocates nothing: `0` (the caller) is written to files opened earlier.
    ///
    /// In v1 the child moves its one thread through `tasks`, not its process through
    /// `cgroup.procs`: moving another process, or a whole one, takes the kernel's machine-wide
    /// thread-group lock for writing, which first waits for an RCU grace period whenever no
    /// move came just before (6 to 19 ms here, longer on a busier host: the length of a grace
    /// period is the host's). A thread moving itself takes no such lock (0.3 to 0.5 ms). The
    /// child has one thread between fork and exec, so the whole process moves, and everything
    /// it starts is born in the group (item 29 of docs/performance.md).
    pub fn join_self(joins: &[File]) -> io::Result<()> {
        for mut file in joins {
            file.write_all(b"0")?;
        }
        Ok(())
    }

    /// Handles on the files the child joins by, for [`Group::join_self`].
    pub fn join_files(&self) -> io::Result<Vec<File>> {
        self.joins.iter().map(File::try_clone).collect()
    }

    /// CPU time used by the whole tree so far, in microseconds.
    pub fn cpu_us(&self) -> Option<u64> {
        let mut buf = [0u8; 512];
        let text = read_fresh(self.cpu.as_ref()?, &mut buf)?;
        if self.v2 {
            keyed(text, "usage_usec")
        } else {
            let ns: u64 = text.trim().parse().ok()?;
            Some(ns / 1000)
        }
    }

    /// How many times the kernel killed a process of the tree for want of memory.
    pub fn oom_kills(&self) -> u64 {
        let mut buf = [0u8; 512];
        self.memory
            .as_ref()
            .and_then(|file| read_fresh(file, &mut buf))
            .and_then(|t| keyed(t, "oom_kill"))
            .unwrap_or(0)
    }

    /// How many times a fork or thread was refused because the tree had `max_procs` already.
    pub fn pids_refused(&self) -> u64 {
        let mut buf = [0u8; 128];
        self.pids
            .as_ref()
            .and_then(|file| read_fresh(file, &mut buf))
            .and_then(|t| keyed(t, "max"))
            .unwrap_or(0)
    }

    /// SIGKILLs every process still in the group.
    pub fn kill_all(&self) {
        if let Some(dir) = self.dirs.first() {
            if self.v2 && fs::write(dir.join("cgroup.kill"), "1").is_ok() {
                return;
            }
            kill_listed(dir);
        }
    }
}

impl Drop for Group {
    /// Kills what is left and removes the folders; a folder whose processes are still dying is
    /// removed by a later [`settle`] (or, if the controller dies first, by [`clean_stale`] of
    /// the next one: its name carries our pid).
    fn drop(&mut self) {
        self.kill_all();
        let mut pending = PENDING
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        for dir in &self.dirs {
            if fs::remove_dir(dir).is_err() && dir.exists() {
                pending.push(dir.clone());
            }
        }
    }
}

/// The current contents of a cgroup file opened earlier: each read from offset 0 is made anew
/// by the kernel. `None` if it does not fit `buf` or cannot be read.
fn read_fresh<'b>(file: &File, buf: &'b mut [u8]) -> Option<&'b str> {
    use std::os::unix::fs::FileExt;
    let n = file.read_at(buf, 0).ok()?;
    (n < buf.len()).then_some(())?;
    std::str::from_utf8(&buf[..n]).ok()
}

/// Groups whose processes were killed but had not yet exited when the group was dropped.
static PENDING: Mutex<Vec<PathBuf>> = Mutex::new(Vec::new());

/// Removes the dropped groups whose processes have exited since, waiting up to `patience`
/// for the others (zero: one try, never blocks).
pub fn settle(patience: Duration) {
    let deadline = Instant::now() + patience;
    loop {
        let left = {
            let mut pending = PENDING
                .lock()
                .unwrap_or_else(std::sync::PoisonError::into_inner);
            pending.retain(|dir| {
                kill_listed(dir);
                fs::remove_dir(dir).is_err() && dir.exists()
            });
            pending.len()
        };
        if left == 0 || Instant::now() >= deadline {
            return;
        }
        std::thread::sleep(Duration::from_millis(5));
    }
}

/// SIGKILLs every process listed in `dir/cgroup.procs`.
fn kill_listed(dir: &Path) {
    if let Ok(text) = fs::read_to_string(dir.join("cgroup.procs")) {
        for pid in text.lines().filter_map(|l| l.trim().parse::<i32>().ok()) {
            let _ = kill(Pid::from_raw(pid), Signal::SIGKILL);
        }
    }
}

/// Removes the empty groups in `base` whose controller (the pid before `-` in the name) is
/// gone. Their bots died with that controller (bubblewrap's `--die-with-parent`); a group that
/// still holds processes is left alone, since a pid from another PID namespace may look gone.
fn clean_stale(base: &Path) {
    let Ok(entries) = fs::read_dir(base) else {
        return;
    };
    for entry in entries.flatten() {
        let name = entry.file_name().to_string_lossy().into_owned();
        let Some(pid) = name.split('-').next().and_then(|p| p.parse::<u32>().ok()) else {
            continue;
        };
        if pid != std::process::id() && !Path::new(&format!("/proc/{pid}")).exists() {
            let _ = fs::remove_dir(entry.path());
        }
    }
}

/// The value of `key` in a `key value` per line file (`memory.events`, `pids.events`, ...).
pub fn keyed(text: &str, key: &str) -> Option<u64> {
    text.lines().find_map(|line| {
        let (k, v) = line.split_once(' ')?;
        (k == key).then(|| v.trim().parse().ok()).flatten()
    })
}

/// The mount point of the unified (v2) hierarchy, from `/proc/self/mounts`, if it is the
/// main one at `/sys/fs/cgroup` (a hybrid system's `unified` mount holds no controllers).
fn v2_mount(mounts: &str) -> Option<PathBuf> {
    mounts.lines().find_map(|line| {
        let f: Vec<&str> = line.split_whitespace().collect();
        (f.len() > 2 && f[2] == "cgroup2" && f[1] == "/sys/fs/cgroup").then(|| PathBuf::from(f[1]))
    })
}

/// The controller's own group path in the hierarchy holding `controller` (v1), or in the
/// unified one (`controller` empty), from `/proc/self/cgroup`.
pub fn own_path(cgroup: &str, controller: &str) -> Option<String> {
    cgroup.lines().find_map(|line| {
        let mut parts = line.splitn(3, ':');
        let (_, list, path) = (parts.next()?, parts.next()?, parts.next()?);
        let matches = if controller.is_empty() {
            list.is_empty()
        } else {
            list.split(',').any(|c| c == controller)
        };
        matches.then(|| path.to_string())
    })
}

/// The mount point of the v1 hierarchy holding `controller`, from `/proc/self/mounts`.
pub fn v1_mount(mounts: &str, controller: &str) -> Option<PathBuf> {
    mounts.lines().find_map(|line| {
        let f: Vec<&str> = line.split_whitespace().collect();
        (f.len() > 3 && f[2] == "cgroup" && f[3].split(',').any(|o| o == controller))
            .then(|| PathBuf::from(f[1]))
    })
}

/// `<mount>/<own group>/take6` for a v1 controller, if it can be made and written.
fn v1_base(mounts: &str, own: &str, controller: &str) -> Option<PathBuf> {
    let mount = v1_mount(mounts, controller)?;
    let path = own_path(own, controller)?;
    let base = mount.join(path.trim_start_matches('/')).join(FOLDER);
    fs::create_dir_all(&base).ok()?;
    usable(&base).then_some(base)
}

/// `<root>/<own group>/take6` in the unified hierarchy, with the memory, pids and cpu
/// controllers enabled for it; each controller that cannot be enabled is left out.
fn detect_v2(root: &Path, own: &str) -> Cgroups {
    let none = Cgroups {
        v2: true,
        ..Cgroups::default()
    };
    let Some(path) = own_path(own, "") else {
        return none;
    };
    let parent = root.join(path.trim_start_matches('/'));
    let base = parent.join(FOLDER);
    if fs::create_dir_all(&base).is_err() || !usable(&base) {
        return none;
    }
    let mut found = none;
    for (controller, slot) in [
        ("memory", &mut found.memory),
        ("pids", &mut found.pids),
        ("cpu", &mut found.cpu),
    ] {
        let _ = fs::write(
            parent.join("cgroup.subtree_control"),
            format!("+{controller}"),
        );
        let _ = fs::write(
            base.join("cgroup.subtree_control"),
            format!("+{controller}"),
        );
        let enabled = fs::read_to_string(base.join("cgroup.subtree_control"))
            .is_ok_and(|t| t.split_whitespace().any(|c| c == controller));
        if enabled {
            *slot = Some(base.clone());
        }
    }
    // The v2 `cpu` controller both counts (cpu.stat) and shares (cpu.weight, cpu.max).
    found.share = found.cpu.clone();
    found
}

/// Whether a group can be made in `base` (a read-only or foreign hierarchy cannot be used).
fn usable(base: &Path) -> bool {
    let probe = base.join(format!("{}-probe", std::process::id()));
    let ok = fs::create_dir(&probe).is_ok() && probe.join("cgroup.procs").exists();
    let _ = fs::remove_dir(&probe);
    ok
}

#[cfg(test)]
mod tests {
    use super::*;

    const MOUNTS: &str = "\
tmpfs /sys/fs/cgroup tmpfs rw,relatime,mode=755 0 0
cgroup /sys/fs/cgroup/cpu cgroup rw,relatime,cpu 0 0
cgroup /sys/fs/cgroup/cpuacct cgroup rw,relatime,cpuacct 0 0
cgroup /sys/fs/cgroup/memory cgroup rw,relatime,memory 0 0
cgroup /sys/fs/cgroup/pids cgroup rw,relatime,pids 0 0
cgroup2 /sys/fs/cgroup/unified cgroup2 rw,relatime 0 0
";

    #[test]
    fn v1_mounts_and_own_groups_are_read_per_controller() {
        assert_eq!(
            v1_mount(MOUNTS, "memory"),
            Some(PathBuf::from("/sys/fs/cgroup/memory"))
        );
        assert_eq!(
            v1_mount(
                "cgroup /c/cpu,cpuacct cgroup rw,cpu,cpuacct 0 0\n",
                "cpuacct"
            ),
            Some(PathBuf::from("/c/cpu,cpuacct"))
        );
        assert_eq!(v1_mount(MOUNTS, "cpuset"), None);
        assert_eq!(
            v2_mount(MOUNTS),
            None,
            "a hybrid's unified mount has no controllers"
        );
        assert_eq!(
            v2_mount("cgroup2 /sys/fs/cgroup cgroup2 rw 0 0\n"),
            Some(PathBuf::from("/sys/fs/cgroup"))
        );
        let own = "8:pids:/\n4:memory:/jobs/abc\n2:cpu,cpuacct:/x\n0::/user.slice/s\n";
        assert_eq!(own_path(own, "memory").as_deref(), Some("/jobs/abc"));
        assert_eq!(own_path(own, "cpuacct").as_deref(), Some("/x"));
        assert_eq!(own_path(own, "").as_deref(), Some("/user.slice/s"));
        assert_eq!(own_path(own, "blkio"), None);
    }

    #[test]
    fn the_folder_of_every_tree_weighs_as_many_processes_as_there_are_processors() {
        assert_eq!(base_weight(false, 2), 2048);
        assert_eq!(base_weight(true, 2), 200);
        assert_eq!(base_weight(true, 1000), 10_000, "v2's largest weight");
        assert_eq!(base_weight(false, 0), 1024);
        let cgroups = Cgroups::detect();
        let Some(share) = cgroups.share.clone() else {
            eprintln!("no writable cpu hierarchy here; skipping");
            return;
        };
        let file = if cgroups.v2 {
            "cpu.weight"
        } else {
            "cpu.shares"
        };
        let written: u64 = fs::read_to_string(share.join(file))
            .unwrap()
            .trim()
            .parse()
            .unwrap();
        assert_eq!(written, base_weight(cgroups.v2, processors()));
    }

    #[test]
    fn event_counters_are_read_by_key() {
        let oom = "oom_kill_disable 0\nunder_oom 0\noom_kill 3\n";
        assert_eq!(keyed(oom, "oom_kill"), Some(3));
        assert_eq!(
            keyed("low 0\nhigh 0\nmax 7\noom 1\noom_kill 1\n", "max"),
            Some(7)
        );
        assert_eq!(
            keyed("usage_usec 1234\nuser_usec 1000\n", "usage_usec"),
            Some(1234)
        );
        assert_eq!(keyed("max 2\n", "oom_kill"), None);
    }

    #[test]
    fn a_group_holds_its_child_and_is_removed_when_dropped() {
        let cgroups = Cgroups::detect();
        let Some(cpu) = cgroups.cpu.clone() else {
            eprintln!("no writable cgroup hierarchy here; skipping");
            return;
        };
        let group = cgroups
            .create(GroupLimits {
                memory_bytes: 64 << 20,
                max_procs: 8,
                cpu_quota: true,
            })
            .unwrap();
        let files = group.join_files().unwrap();
        let mut command = std::process::Command::new("sh");
        // The shell is the joined process; `cat` is a process it starts afterwards.
        command.args([
            "-c",
            "i=0; while [ $i -lt 200000 ]; do i=$((i+1)); done; cat /proc/self/cgroup",
        ]);
        // SAFETY: join_self only writes to already-open files.
        unsafe {
            std::os::unix::process::CommandExt::pre_exec(&mut command, move || {
                Group::join_self(&files)
            });
        }
        let output = command.output().unwrap();
        assert!(output.status.success());
        assert!(
            group.cpu_us().unwrap() > 0,
            "the child's CPU time is counted"
        );
        let dirs = group.dirs.clone();
        // The joined process's own children are in the group too, in every hierarchy (in v1
        // the child joined by moving its one thread).
        let name = dirs[0].file_name().unwrap().to_str().unwrap();
        let listed = String::from_utf8(output.stdout).unwrap();
        let inside = listed
            .lines()
            .filter(|l| l.ends_with(&format!("/{name}")))
            .count();
        assert_eq!(inside, dirs.len(), "{name} in {listed}");
        assert!(dirs.iter().any(|d| d.parent() == Some(cpu.as_path())));
        assert!(dirs.iter().all(|d| d.exists()));
        drop(group);
        settle(Duration::from_secs(5));
        assert!(dirs.iter().all(|d| !d.exists()), "{dirs:?}");
    }
}
