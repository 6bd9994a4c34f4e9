//! Warm sandboxes (issue 12), the building block: one long-lived sandbox whose PID 1 is this
//! binary (`take6 sandbox-init`). Per game it is handed three pipe ends over a unix socket
//! (SCM_RIGHTS) and starts `/bot/launch` on them as `nobody`; at the game's end it kills
//! everything else in its PID namespace, reaps it, empties `/tmp` and says so. Making the
//! namespaces once instead of per launch is what a warm sandbox saves.
//!
//! Not yet used by series (they start a fresh sandbox per launch); `benches/sandbox.rs`
//! measures it against a fresh sandbox.

use std::fs::File;
use std::io::{self, BufRead, BufReader, IoSlice, IoSliceMut, Write};
use std::os::fd::{AsRawFd, FromRawFd, OwnedFd, RawFd};
use std::os::unix::net::UnixStream;
use std::os::unix::process::CommandExt;
use std::path::Path;
use std::process::{Child, Command, Stdio};

use nix::fcntl::{FcntlArg, FdFlag};
use nix::sys::signal::{Signal, kill};
use nix::sys::socket::{ControlMessage, ControlMessageOwned, MsgFlags, recvmsg, sendmsg};
use nix::sys::wait::waitpid;
use nix::unistd::Pid;

use super::bwrap::{self, BOT_DIR, NOBODY};
use super::cgroup::{Group, GroupLimits};
use super::{Identity, Sandbox};

/// The hidden subcommand that runs as a warm sandbox's PID 1.
pub const INIT_ARG: &str = "sandbox-init";
/// Where this binary appears inside a warm sandbox.
const INIT_PATH: &str = "/.take6-init";

/// A running warm sandbox for one working copy, seen from the controller.
#[derive(Debug)]
pub struct Warm {
    bwrap: Child,
    control: BufReader<UnixStream>,
    /// The whole sandbox's cgroup (one game at a time runs in it).
    group: Option<Group>,
}

impl Warm {
    /// Starts a warm sandbox for `workdir` with `sandbox`'s view and rlimits; `init` is the
    /// `take6` binary.
    pub fn start(sandbox: &Sandbox, init: &Path, workdir: &Path) -> io::Result<Warm> {
        let Some((path, identity, system)) = &sandbox.bwrap else {
            return Err(io::Error::other("no bubblewrap"));
        };
        if !matches!(identity, Identity::Setpriv(_)) {
            return Err(io::Error::other("warm sandboxes need a root controller"));
        }
        let mut args = bwrap::args(
            &Identity::UserNamespace,
            system,
            workdir,
            sandbox.limits.disk_mib << 20,
            INIT_PATH,
        );
        // Run privileged (root inside, so it can make the bot `nobody`), as PID 1 itself.
        args.retain(|a| a != "--unshare-user");
        let program = args.pop().expect("the program is last");
        args.pop(); // "--"
        args.extend([
            "--ro-bind".into(),
            init.as_os_str().to_owned(),
            INIT_PATH.into(),
            "--as-pid-1".into(),
            "--".into(),
            program,
            INIT_ARG.into(),
        ]);
        let (ours, theirs) = UnixStream::pair()?;
        let theirs: OwnedFd = theirs.into();
        // The init finds its end of the control socket at this descriptor.
        args.push(theirs.as_raw_fd().to_string().into());
        let group = if sandbox.cgroups == super::Cgroups::default() {
            None
        } else {
            Some(sandbox.cgroups.create(GroupLimits {
                memory_bytes: sandbox.limits.memory_mib << 20,
                max_procs: sandbox.limits.max_procs,
            })?)
        };
        let procs = match &group {
            Some(g) => g.procs_files()?,
            None => Vec::new(),
        };
        let rlimits = sandbox.rlimits(group.as_ref());
        let mut command = Command::new(path);
        command
            .args(&args)
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .process_group(0);
        // SAFETY: fcntl and setrlimit only; nothing is allocated in the child.
        unsafe {
            command.pre_exec(move || {
                Group::join_self(&procs)?;
                // Inherited through bubblewrap to the init.
                nix::fcntl::fcntl(&theirs, FcntlArg::F_SETFD(FdFlag::empty()))?;
                for &(resource, value) in &rlimits {
                    nix::sys::resource::setrlimit(resource, value, value)?;
                }
                Ok(())
            });
        }
        let bwrap = command.spawn()?;
        Ok(Warm {
            bwrap,
            control: BufReader::new(ours),
            group,
        })
    }

    /// The sandbox's cgroup, if cgroups are enforced.
    pub fn group(&self) -> Option<&Group> {
        self.group.as_ref()
    }

    /// Starts `launch` on the given stdin, stdout and stderr; returns its pid inside.
    pub fn launch(&mut self, stdio: [OwnedFd; 3]) -> io::Result<u32> {
        let fds = stdio.each_ref().map(AsRawFd::as_raw_fd);
        let socket = self.control.get_ref().as_raw_fd();
        sendmsg::<()>(
            socket,
            &[IoSlice::new(b"L")],
            &[ControlMessage::ScmRights(&fds)],
            MsgFlags::empty(),
            None,
        )?;
        drop(stdio);
        let reply = self.reply()?;
        match reply.strip_prefix('P') {
            Some(pid) => pid.parse().map_err(io::Error::other),
            None => Err(io::Error::other(reply)),
        }
    }

    /// Ends the current game: every process but the init is killed and reaped, `/tmp` emptied.
    pub fn end(&mut self) -> io::Result<()> {
        self.control.get_mut().write_all(b"E")?;
        match self.reply()?.as_str() {
            "E" => Ok(()),
            other => Err(io::Error::other(other.to_string())),
        }
    }

    fn reply(&mut self) -> io::Result<String> {
        let mut line = String::new();
        if self.control.read_line(&mut line)? == 0 {
            return Err(io::Error::other("the warm sandbox is gone"));
        }
        Ok(line.trim_end().to_string())
    }
}

impl Drop for Warm {
    /// Closing the socket ends the init, and with it the namespace (so its CPU time is
    /// accounted to the controller's children); the kill makes sure.
    fn drop(&mut self) {
        let _ = self.control.get_ref().shutdown(std::net::Shutdown::Both);
        for _ in 0..100 {
            if let Ok(Some(_)) = self.bwrap.try_wait() {
                return;
            }
            std::thread::sleep(std::time::Duration::from_millis(1));
        }
        let _ = self.bwrap.kill();
        let _ = self.bwrap.wait();
    }
}

/// The init of a warm sandbox (PID 1 inside it): serves launch and end requests on the
/// control socket (descriptor `fd`, from its command line) until the controller closes it.
/// Returns the exit code.
pub fn init_main(fd: &str) -> u8 {
    let Ok(fd) = fd.parse::<RawFd>() else {
        eprintln!("take6 sandbox-init: no control descriptor");
        return 2;
    };
    // SAFETY: the controller passed this socket down for the init alone.
    let control = unsafe { UnixStream::from_raw_fd(fd) };
    // The bots it starts must not inherit it.
    let _ = nix::fcntl::fcntl(&control, FcntlArg::F_SETFD(FdFlag::FD_CLOEXEC));
    match serve(&control) {
        Ok(()) => 0,
        Err(e) => {
            eprintln!("take6 sandbox-init: {e}");
            1
        }
    }
}

fn serve(control: &UnixStream) -> io::Result<()> {
    let mut writer = control;
    loop {
        let mut byte = [0u8; 1];
        let mut iov = [IoSliceMut::new(&mut byte)];
        let mut space = nix::cmsg_space!([RawFd; 3]);
        let msg = recvmsg::<()>(
            control.as_raw_fd(),
            &mut iov,
            Some(space.as_mut_slice()),
            MsgFlags::MSG_CMSG_CLOEXEC,
        )?;
        if msg.bytes == 0 {
            return Ok(());
        }
        let mut fds = Vec::new();
        for cmsg in msg.cmsgs()? {
            if let ControlMessageOwned::ScmRights(received) = cmsg {
                // SAFETY: the kernel just gave us these descriptors.
                fds.extend(
                    received
                        .into_iter()
                        .map(|fd| unsafe { File::from_raw_fd(fd) }),
                );
            }
        }
        match byte[0] {
            b'L' => {
                let reply = match start_bot(fds) {
                    Ok(child) => format!("P{}\n", child.id()),
                    Err(e) => format!("F{e}\n"),
                };
                writer.write_all(reply.as_bytes())?;
            }
            b'E' => {
                end_game();
                writer.write_all(b"E\n")?;
            }
            _ => writer.write_all(b"Funknown request\n")?,
        }
    }
}

/// Starts `/bot/launch` as `nobody` in a new session on the three descriptors.
fn start_bot(fds: Vec<File>) -> io::Result<Child> {
    let [stdin, stdout, stderr]: [File; 3] = fds
        .try_into()
        .map_err(|_| io::Error::other("expected three descriptors"))?;
    let mut command = Command::new(format!("{BOT_DIR}/launch"));
    command
        .current_dir(BOT_DIR)
        .env_clear()
        .envs(bwrap::ENV)
        .uid(NOBODY)
        .gid(NOBODY)
        .stdin(stdin)
        .stdout(stdout)
        .stderr(stderr);
    // SAFETY: setsid only.
    unsafe {
        command.pre_exec(|| {
            nix::unistd::setsid()?;
            Ok(())
        });
    }
    command.spawn()
}

/// Kills every other process of the namespace (the init is PID 1, which `kill(-1)` spares),
/// reaps them all, and empties `/tmp`.
fn end_game() {
    let _ = kill(Pid::from_raw(-1), Signal::SIGKILL);
    while waitpid(Pid::from_raw(-1), None).is_ok() {}
    if let Ok(entries) = std::fs::read_dir("/tmp") {
        for entry in entries.flatten() {
            let path = entry.path();
            let _ = std::fs::remove_dir_all(&path).or_else(|_| std::fs::remove_file(&path));
        }
    }
}
