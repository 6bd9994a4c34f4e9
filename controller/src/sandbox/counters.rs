//! Counters every process of the machine can read, frozen for bots: two bots could otherwise
//! pass bits through them (a sender forks or opens files, a receiver watches `/proc/stat`'s
//! `processes`, `/proc/loadavg`'s task count or `/proc/sys/fs/file-nr` move), at one table or at
//! two. A bot's `/proc` is a fresh one of its PID namespace, but these files are the whole
//! machine's. As LXCFS does for containers, each is covered inside the sandbox by a read-only
//! file bound over it; here its content is the host's, read once when the series starts (the
//! lock table's excepted: an empty one), so it never moves: what a bot reads there is the same
//! whatever any other bot does. Programs that size their pools by them keep working:
//! `/proc/stat` keeps the host's `cpuN` lines (the processors a bot may use; glibc counts them
//! for `sysconf(_SC_NPROCESSORS_ONLN)` where `/sys` is absent, as in the sandbox),
//! `/proc/meminfo` the host's `MemTotal`.
//!
//! What cannot be closed this way is measured in docs/sandbox.md: `sysinfo(2)` (a system call,
//! not a file: its process count and free memory are the machine's) and the free blocks of a
//! shared file system (`statvfs`).

use std::io;
use std::os::unix::fs::{DirBuilderExt, OpenOptionsExt};
use std::path::{Path, PathBuf};

/// The files covered: each the machine's, moving with every process's activity (process and
/// task counts, context switches, interrupts, open files, memory, disk and pressure figures,
/// idle time, the lock table: covered by an empty one, see [`frozen_text`]).
pub const FROZEN: [&str; 23] = [
    "/proc/stat",
    "/proc/loadavg",
    "/proc/uptime",
    "/proc/meminfo",
    "/proc/vmstat",
    "/proc/diskstats",
    "/proc/interrupts",
    "/proc/softirqs",
    "/proc/schedstat",
    "/proc/locks",
    "/proc/buddyinfo",
    "/proc/zoneinfo",
    "/proc/pagetypeinfo",
    "/proc/pressure/cpu",
    "/proc/pressure/memory",
    "/proc/pressure/io",
    "/proc/sys/fs/file-nr",
    "/proc/sys/fs/inode-nr",
    "/proc/sys/fs/inode-state",
    "/proc/sys/fs/dentry-state",
    "/proc/sys/fs/aio-nr",
    "/proc/sys/kernel/random/entropy_avail",
    // The machine's count of pseudo-terminals: every sandbox's own devpts counts in it.
    "/proc/sys/kernel/pty/nr",
];

/// The frozen copies, in a folder of the controller's own (readable by the bots' users, whose
/// sandboxes bind them), removed when the series' sandbox is dropped.
#[derive(Debug)]
pub struct Views {
    dir: PathBuf,
    /// Each copy and the file it covers.
    files: Vec<(PathBuf, &'static str)>,
}

impl Views {
    /// Reads each of [`FROZEN`] that this machine has into a new folder under `parent`.
    pub fn make(parent: &Path) -> io::Result<Views> {
        remove_stale(parent, "take6-counters-");
        let dir = fresh_dir(parent)?;
        let mut views = Views {
            dir,
            files: Vec::new(),
        };
        // Some take the kernel milliseconds to write (`/proc/pagetypeinfo` 19 ms on the
        // development machine, but a bot cannot read it: not copied): read side by side.
        let texts: Vec<Option<Vec<u8>>> = std::thread::scope(|s| {
            let reads: Vec<_> = FROZEN
                .map(|covered| s.spawn(move || frozen_text(covered)))
                .into();
            reads.into_iter().map(|r| r.join().ok().flatten()).collect()
        });
        for (i, (covered, text)) in FROZEN.into_iter().zip(texts).enumerate() {
            let Some(text) = text else {
                continue;
            };
            let copy = views.dir.join(format!("{i:02}"));
            write_new(&copy, &text)?;
            views.files.push((copy, covered));
        }
        Ok(views)
    }

    /// `(copy, covered file)` pairs, for bubblewrap's `--ro-bind` after its `--proc`.
    pub fn binds(&self) -> impl Iterator<Item = (&Path, &'static str)> {
        self.files
            .iter()
            .map(|(copy, covered)| (copy.as_path(), *covered))
    }
}

impl Drop for Views {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.dir);
    }
}

/// The file covering `covered` in the sandbox: its content as [`readable`] gives it, except the
/// lock table, covered by an empty one. Reading `/proc/locks` makes the kernel take its file
/// locks' lock for writing, which waits for an RCU grace period (10 to 12 ms here, on every
/// series' start path) and stalls every file lock of the machine meanwhile. The host's table
/// is not what a bot would read anyway: a bot's own `/proc` lists only the locks of processes
/// its PID namespace sees (tests/seal_channels.rs: another sandbox's lock on a shared file never
/// shows), and the host's copy, read before any bot runs, holds none of those. An empty table
/// is what a bot would see in a machine of its own.
fn frozen_text(covered: &str) -> Option<Vec<u8>> {
    match covered {
        "/proc/locks" => Path::new(covered).exists().then(Vec::new),
        _ => readable(covered),
    }
}

/// The content of `covered`, if a bot could read it in its own `/proc`: not where the file is
/// absent on this kernel, nor where only its owner may read it (`/proc/pagetypeinfo` is
/// root's alone: a bot, never root, is refused it there as here, so it needs no copy).
fn readable(covered: &str) -> Option<Vec<u8>> {
    use std::os::unix::fs::PermissionsExt;
    let mode = std::fs::metadata(covered).ok()?.permissions().mode();
    if mode & 0o004 == 0 {
        return None;
    }
    std::fs::read(covered).ok()
}

/// Removes what a controller that is gone left under `parent` (a copy of the counters after a
/// SIGKILL, a judge built for `take6 verify`): folders of this user named `<prefix><pid>-…`
/// whose process is gone.
pub(crate) fn remove_stale(parent: &Path, prefix: &str) {
    use std::os::unix::fs::MetadataExt;
    let Ok(entries) = std::fs::read_dir(parent) else {
        return;
    };
    let me = nix::unistd::geteuid().as_raw();
    for entry in entries.flatten() {
        let name = entry.file_name();
        let Some(pid) = name
            .to_str()
            .and_then(|n| n.strip_prefix(prefix))
            .and_then(|rest| rest.split('-').next())
            .and_then(|pid| pid.parse::<u32>().ok())
        else {
            continue;
        };
        let ours = entry.metadata().is_ok_and(|m| m.is_dir() && m.uid() == me);
        if ours && !Path::new(&format!("/proc/{pid}")).exists() {
            let _ = std::fs::remove_dir_all(entry.path());
        }
    }
}

/// A new folder `take6-counters-<pid>-<n>` under `parent`, made by this call (never one that
/// was there: the name may be guessed by others where `parent` is `/tmp`), mode 0755.
fn fresh_dir(parent: &Path) -> io::Result<PathBuf> {
    let mut last = io::Error::other("no free name");
    for n in 0..100u32 {
        let nanos = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0, |d| d.subsec_nanos());
        let dir = parent.join(format!(
            "take6-counters-{}-{}",
            std::process::id(),
            nanos.wrapping_add(n)
        ));
        match std::fs::DirBuilder::new().mode(0o755).create(&dir) {
            Ok(()) => {
                // The umask may have taken bits off.
                std::fs::set_permissions(
                    &dir,
                    std::os::unix::fs::PermissionsExt::from_mode(0o755),
                )?;
                return Ok(dir);
            }
            Err(e) if e.kind() == io::ErrorKind::AlreadyExists => last = e,
            Err(e) => return Err(e),
        }
    }
    Err(last)
}

/// Writes a new file, readable by everyone, never through a link.
fn write_new(path: &Path, bytes: &[u8]) -> io::Result<()> {
    use std::io::Write as _;
    let mut file = std::fs::File::options()
        .write(true)
        .create_new(true)
        .mode(0o444)
        .custom_flags(nix::libc::O_NOFOLLOW)
        .open(path)?;
    file.write_all(bytes)?;
    std::fs::set_permissions(path, std::os::unix::fs::PermissionsExt::from_mode(0o444))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_counters_are_copied_once_and_removed_with_the_views() {
        let tmp = tempfile::tempdir().unwrap();
        let views = Views::make(tmp.path()).unwrap();
        let binds: Vec<_> = views.binds().map(|(c, f)| (c.to_path_buf(), f)).collect();
        for wanted in [
            "/proc/stat",
            "/proc/loadavg",
            "/proc/sys/fs/file-nr",
            "/proc/sys/kernel/pty/nr",
        ] {
            assert!(
                binds.iter().any(|(_, f)| *f == wanted),
                "{wanted}: {binds:?}"
            );
        }
        let stat = std::fs::read_to_string(&binds[0].0).unwrap();
        assert!(
            stat.contains("\nprocesses ") && stat.contains("\ncpu0 "),
            "{stat}"
        );
        // The lock table is covered by an empty one, never read (a read waits for an RCU
        // grace period).
        let (locks, _) = binds
            .iter()
            .find(|(_, f)| *f == "/proc/locks")
            .expect("/proc/locks is covered");
        assert_eq!(std::fs::read(locks).unwrap(), b"");
        let dir = views.dir.clone();
        drop(views);
        assert!(!dir.exists());

        // What a SIGKILLed controller left (its pid gone) is removed by the next one.
        let stale = tmp.path().join("take6-counters-999999999-1");
        std::fs::create_dir(&stale).unwrap();
        std::fs::write(stale.join("00"), "x").unwrap();
        let _views = Views::make(tmp.path()).unwrap();
        assert!(!stale.exists());
    }
}
