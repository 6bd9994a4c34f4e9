//! The bubblewrap command line of a sandboxed bot: what it sees, and as whom it runs.
//!
//! Pure argument building, so that it is unit-tested without starting anything.

use std::ffi::OsString;
use std::path::Path;

/// Where a bot's working copy appears inside its sandbox (its current and home folder).
pub const BOT_DIR: &str = "/bot";

/// `nobody`: the uid and gid of the bubblewrap probe, never of a bot.
pub const NOBODY: u32 = 65534;

/// Where the controller's range of bot uids starts when it is root: each bot of a series runs
/// as a uid (and gid) of its own from here on, skipping any uid a host user has and any range
/// in `/etc/subuid` or `/etc/subgid` (see [`crate::sandbox::Uids`]), so that no two bots, and no
/// bot and anyone else, share a kernel keyring, a signal permission or a file.
pub const UID_BASE: u32 = 100_000;

/// The only environment a sandboxed bot gets, documented in the README.
pub const ENV: [(&str, &str); 4] = [
    ("PATH", "/usr/local/bin:/usr/bin:/bin"),
    ("HOME", BOT_DIR),
    ("TMPDIR", "/tmp"),
    ("LANG", "C.UTF-8"),
];

/// System folders bound read-only (when present): programs, libraries, interpreters,
/// compilers and their settings. Home folders, `/root`, `/work`, `/var` and `/srv` are absent.
pub const SYSTEM_DIRS: [&str; 9] = [
    "/usr", "/bin", "/sbin", "/lib", "/lib32", "/lib64", "/libx32", "/etc", "/opt",
];

/// How the sandbox makes the bot unprivileged.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Identity {
    /// The controller is root: bubblewrap runs privileged and `setpriv` (at this path) drops
    /// the bot to `nobody` with no capabilities, so it is not root anywhere.
    Setpriv(String),
    /// The controller is not root: a user namespace, the bot keeps the controller's own uid.
    UserNamespace,
}

/// How a system folder appears on this machine.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum SystemDir {
    /// A real folder: bound read-only.
    Dir(String),
    /// A symlink (e.g. `/bin -> usr/bin` on merged-/usr systems): recreated as such.
    Link(String, String),
    /// A frozen copy of a machine-wide counter (see [`super::counters`]), bound read-only over
    /// the file of the sandbox's own `/proc` it covers.
    Frozen(std::path::PathBuf, &'static str),
}

/// The system folders of this machine, as they should appear in the sandbox.
pub fn system_dirs() -> Vec<SystemDir> {
    SYSTEM_DIRS
        .iter()
        .filter_map(|dir| {
            let meta = std::fs::symlink_metadata(dir).ok()?;
            if meta.file_type().is_symlink() {
                let target = std::fs::read_link(dir).ok()?;
                Some(SystemDir::Link(
                    target.to_string_lossy().into_owned(),
                    dir.to_string(),
                ))
            } else {
                meta.is_dir().then(|| SystemDir::Dir(dir.to_string()))
            }
        })
        .collect()
}

/// Everything after `bwrap` to run `program` (relative to the working copy, e.g. `./launch`)
/// with `workdir` at [`BOT_DIR`] and a private `/tmp` of at most `tmp_bytes`, as `uid` (and the
/// same gid) when the controller is root.
pub fn args(
    identity: &Identity,
    uid: u32,
    system: &[SystemDir],
    workdir: &Path,
    tmp_bytes: u64,
    program: &str,
) -> Vec<OsString> {
    let mut a: Vec<OsString> = Vec::with_capacity(64);
    let mut push = |items: &[&str]| a.extend(items.iter().map(OsString::from));
    // Own processes, network (loopback only), IPC and host name; killed with its parent; no
    // terminal to inject keystrokes into.
    push(&[
        "--unshare-pid",
        "--unshare-net",
        "--unshare-ipc",
        "--unshare-uts",
        "--unshare-cgroup-try",
        "--die-with-parent",
        "--new-session",
    ]);
    if *identity == Identity::UserNamespace {
        push(&["--unshare-user"]);
    }
    for dir in system {
        match dir {
            SystemDir::Dir(d) => push(&["--ro-bind", d, d]),
            SystemDir::Link(target, d) => push(&["--symlink", target, d]),
            SystemDir::Frozen(..) => {}
        }
    }
    let size = tmp_bytes.to_string();
    push(&["--proc", "/proc", "--dev", "/dev"]);
    for dir in system {
        if let SystemDir::Frozen(copy, covered) = dir {
            a.push("--ro-bind".into());
            a.push(copy.as_os_str().to_owned());
            a.push(covered.into());
        }
    }
    let mut push = |items: &[&str]| a.extend(items.iter().map(OsString::from));
    push(&["--perms", "1777", "--size", &size, "--tmpfs", "/tmp"]);
    a.push("--bind".into());
    a.push(workdir.as_os_str().to_owned());
    a.push(BOT_DIR.into());
    let mut push = |items: &[&str]| a.extend(items.iter().map(OsString::from));
    push(&["--chdir", BOT_DIR, "--clearenv"]);
    for (key, value) in ENV {
        push(&["--setenv", key, value]);
    }
    push(&["--"]);
    if let Identity::Setpriv(setpriv) = identity {
        let (uid, gid) = (uid.to_string(), uid.to_string());
        push(&[
            setpriv,
            "--reuid",
            &uid,
            "--regid",
            &gid,
            "--clear-groups",
            "--inh-caps=-all",
            "--bounding-set=-all",
            "--",
        ]);
    }
    push(&[program]);
    a
}

#[cfg(test)]
mod tests {
    use super::*;

    fn joined(a: &[OsString]) -> String {
        a.iter()
            .map(|s| s.to_string_lossy().into_owned())
            .collect::<Vec<_>>()
            .join(" ")
    }

    #[test]
    fn a_root_controller_drops_the_bot_to_nobody_after_the_namespaces_are_made() {
        let system = [
            SystemDir::Dir("/usr".into()),
            SystemDir::Link("usr/bin".into(), "/bin".into()),
            SystemDir::Frozen("/run/c/00".into(), "/proc/stat"),
        ];
        let a = joined(&args(
            &Identity::Setpriv("/usr/bin/setpriv".into()),
            NOBODY,
            &system,
            Path::new("/r/s/work/pyheur"),
            1 << 20,
            "./launch",
        ));
        for part in [
            "--unshare-pid",
            "--unshare-net",
            "--die-with-parent",
            "--new-session",
            "--ro-bind /usr /usr",
            "--symlink usr/bin /bin",
            "--proc /proc --dev /dev --ro-bind /run/c/00 /proc/stat",
            "--size 1048576 --tmpfs /tmp",
            "--bind /r/s/work/pyheur /bot",
            "--chdir /bot --clearenv",
            "--setenv HOME /bot",
            "--setenv PATH /usr/local/bin:/usr/bin:/bin",
            "-- /usr/bin/setpriv --reuid 65534 --regid 65534 --clear-groups",
        ] {
            assert!(a.contains(part), "{part:?} missing in {a}");
        }
        assert!(a.ends_with("-- ./launch"), "{a}");
        assert!(!a.contains("--unshare-user"), "{a}");
        assert_eq!(a.matches("--setenv").count(), 4, "{a}");
    }

    #[test]
    fn an_unprivileged_controller_uses_a_user_namespace() {
        let a = joined(&args(
            &Identity::UserNamespace,
            NOBODY,
            &[],
            Path::new("/w"),
            10,
            "./build",
        ));
        assert!(a.contains("--unshare-user"), "{a}");
        assert!(!a.contains("setpriv"), "{a}");
        assert!(a.ends_with("--setenv LANG C.UTF-8 -- ./build"), "{a}");
    }

    #[test]
    fn only_system_folders_of_this_machine_are_bound() {
        let dirs = system_dirs();
        assert!(dirs.contains(&SystemDir::Dir("/usr".into())), "{dirs:?}");
        for d in &dirs {
            let path = match d {
                SystemDir::Dir(p) | SystemDir::Link(_, p) => p,
                SystemDir::Frozen(..) => unreachable!("not a system folder"),
            };
            assert!(SYSTEM_DIRS.contains(&path.as_str()));
        }
    }
}
