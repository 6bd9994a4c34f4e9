//! How a warm init starts a game's `launch`, and the leader it keeps of it.
//!
//! glibc's `posix_spawn` (what the standard library uses when nothing runs between fork and
//! exec) resets every signal's disposition in the child, one `sigaction` call each (64 per
//! launch), asks the descriptor limit once per file action and maps a stack per call: in a
//! profile of a series that was a fifth of the inits' own CPU. A [`Launcher`] does only what a
//! launch needs: a `clone(CLONE_VM | CLONE_VFORK)` (no page tables copied, the init waits for
//! the exec) on a stack kept for the init's life, whose child joins a process group of its own,
//! moves the three descriptors into place, resets `SIGPIPE` (which the init ignores, as every
//! Rust program does) and execs. Everything it needs is made before the clone, so the child
//! allocates nothing and calls nothing but system calls.

use std::ffi::{CString, OsStr};
use std::fs::File;
use std::io;
use std::os::fd::AsRawFd;
use std::os::unix::ffi::OsStrExt;
use std::os::unix::process::ExitStatusExt;
use std::process::ExitStatus;
use std::sync::atomic::{AtomicI32, Ordering};

use nix::libc;
use nix::sched::{CloneFlags, clone};

/// The child's stack: it runs a few system calls, nothing else.
const STACK_BYTES: usize = 64 * 1024;

/// Starts one program again and again, with a fixed environment and folder.
pub struct Launcher {
    program: CString,
    /// Where the child changes to first, if anywhere.
    dir: Option<CString>,
    /// Kept alive for `envp`, which points into them.
    _env: Vec<CString>,
    envp: Vec<*const libc::c_char>,
    stack: Vec<u8>,
}

impl Launcher {
    /// A launcher of `program` (run from `dir`, if given) with exactly `env`.
    pub fn new<K: AsRef<OsStr>, V: AsRef<OsStr>>(
        program: &str,
        dir: Option<&str>,
        env: impl IntoIterator<Item = (K, V)>,
    ) -> io::Result<Launcher> {
        let c = |s: &[u8]| CString::new(s).map_err(|_| io::Error::other("a NUL byte"));
        let env = env
            .into_iter()
            .map(|(k, v)| {
                let mut pair = k.as_ref().as_bytes().to_vec();
                pair.push(b'=');
                pair.extend_from_slice(v.as_ref().as_bytes());
                c(&pair)
            })
            .collect::<io::Result<Vec<_>>>()?;
        let envp = env
            .iter()
            .map(|e| e.as_ptr())
            .chain(std::iter::once(std::ptr::null()))
            .collect();
        Ok(Launcher {
            program: c(program.as_bytes())?,
            dir: dir.map(|d| c(d.as_bytes())).transpose()?,
            _env: env,
            envp,
            stack: vec![0; STACK_BYTES],
        })
    }

    /// Starts the program on `stdio` (stdin, stdout, stderr) in a new process group and
    /// returns once it has been exec'd (or failed to be, which is the error).
    pub fn spawn(&mut self, stdio: &[File; 3]) -> io::Result<Leader> {
        let fds = stdio.each_ref().map(AsRawFd::as_raw_fd);
        let program = self.program.as_ptr();
        let argv = [program, std::ptr::null()];
        let argv = argv.as_ptr();
        let envp = self.envp.as_ptr();
        let dir = self.dir.as_ref().map(|d| d.as_ptr());
        // Written by the child, read by the init once the child has exec'd or exited (the
        // clone shares memory and the init waits for either).
        let failed = AtomicI32::new(0);
        let failed_ref = &failed;
        let child = Box::new(move || -> isize {
            // SAFETY: system calls only, on memory made before the clone and alive until the
            // init resumes; nothing is allocated or locked.
            unsafe {
                let ok = libc::setpgid(0, 0) == 0
                    && fds
                        .iter()
                        .zip(0..)
                        .all(|(&fd, target)| libc::dup2(fd, target) == target)
                    && dir.is_none_or(|d| libc::chdir(d) == 0)
                    && libc::signal(libc::SIGPIPE, libc::SIG_DFL) != libc::SIG_ERR;
                if ok {
                    libc::execve(program, argv, envp);
                }
                failed_ref.store(nix::errno::Errno::last_raw().max(1), Ordering::Relaxed);
                libc::_exit(127)
            }
        });
        // SAFETY: the child runs on its own stack and only the closure above, which makes
        // system calls; CLONE_VFORK keeps the init (single-threaded) still until the exec, so
        // nothing the child reads changes under it, and the stack is free again afterwards.
        let pid = unsafe {
            clone(
                child,
                &mut self.stack,
                CloneFlags::CLONE_VM | CloneFlags::CLONE_VFORK,
                Some(libc::SIGCHLD),
            )
        }?;
        let mut leader = Leader {
            pid: pid.as_raw(),
            status: None,
        };
        match failed.load(Ordering::Relaxed) {
            0 => Ok(leader),
            errno => {
                leader.wait();
                Err(io::Error::from_raw_os_error(errno))
            }
        }
    }
}

/// Makes the calling process a batch task (`SCHED_BATCH`), as every bot process is, with
/// what it starts: a bot woken by a message (or a warm init by a request) then waits for the
/// running task's time slice instead of preempting it. Without this the controller lost the
/// processor to each bot it wrote a question to, in the middle of writing a turn's questions:
/// at `--jobs 1` it was runnable but not running a third of the time (measured). Batch tasks
/// get the same share of the processors as others of their nice value; only the timing of
/// their wakeups changes, alike for every bot. Only a system call, so it may run between fork
/// and exec.
pub fn run_as_batch() -> io::Result<()> {
    let param = libc::sched_param { sched_priority: 0 };
    // SAFETY: a plain system call on this process.
    match unsafe { libc::sched_setscheduler(0, libc::SCHED_BATCH, &param) } {
        0 => Ok(()),
        _ => Err(io::Error::last_os_error()),
    }
}

/// A game's `launch`, started by the init: its pid, and its exit status once reaped.
#[derive(Debug)]
pub struct Leader {
    pid: i32,
    status: Option<ExitStatus>,
}

impl Leader {
    /// The leader of a child the standard library started; it is reaped through this from
    /// now on.
    pub fn of(child: std::process::Child) -> Leader {
        Leader {
            pid: child.id() as i32,
            status: None,
        }
    }

    pub fn id(&self) -> i32 {
        self.pid
    }

    /// Its exit status if it has exited (reaping it), without waiting.
    pub fn try_wait(&mut self) -> Option<ExitStatus> {
        self.reap(libc::WNOHANG)
    }

    /// Waits for it to exit and reaps it, unless that was done already.
    pub fn wait(&mut self) -> Option<ExitStatus> {
        self.reap(0)
    }

    fn reap(&mut self, flags: libc::c_int) -> Option<ExitStatus> {
        if self.status.is_none() {
            let mut raw = 0;
            loop {
                // SAFETY: a plain wait for our own child.
                let got = unsafe { libc::waitpid(self.pid, &mut raw, flags) };
                if got == self.pid {
                    self.status = Some(ExitStatus::from_raw(raw));
                } else if got < 0 && nix::errno::Errno::last() == nix::errno::Errno::EINTR {
                    continue;
                }
                break;
            }
        }
        self.status
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::io::Read;

    fn pipe_files() -> (File, File) {
        let (r, w) = std::io::pipe().unwrap();
        (
            File::from(std::os::fd::OwnedFd::from(r)),
            File::from(std::os::fd::OwnedFd::from(w)),
        )
    }

    #[test]
    fn a_launch_gets_its_descriptors_environment_group_and_default_sigpipe() {
        let dir = tempfile::tempdir().unwrap();
        let script = dir.path().join("launch");
        // Reads a line, then reports it, its environment, whether it leads its process group,
        // and SIGPIPE's disposition (bit 13 of SigIgn, "0...1000" when ignored).
        std::fs::write(
            &script,
            "#!/bin/sh\nread line\necho \"got $line $ONLY\" \n\
             [ \"$(ps -o pgid= -p $$ | tr -d ' ')\" = \"$$\" ] && echo leader\n\
             grep SigIgn /proc/$$/status\necho oops >&2\n",
        )
        .unwrap();
        std::fs::set_permissions(&script, std::os::unix::fs::PermissionsExt::from_mode(0o755))
            .unwrap();
        let path = script.to_str().unwrap();
        let mut launcher = Launcher::new(
            path,
            Some(dir.path().to_str().unwrap()),
            [("ONLY", "this"), ("PATH", "/usr/bin:/bin")],
        )
        .unwrap();
        for round in 0..3 {
            let (in_r, mut in_w) = pipe_files();
            let (mut out_r, out_w) = pipe_files();
            let (mut err_r, err_w) = pipe_files();
            let mut leader = launcher.spawn(&[in_r, out_w, err_w]).unwrap();
            std::io::Write::write_all(&mut in_w, format!("hello{round}\n").as_bytes()).unwrap();
            drop(in_w);
            let mut out = String::new();
            out_r.read_to_string(&mut out).unwrap();
            let mut err = String::new();
            err_r.read_to_string(&mut err).unwrap();
            assert!(leader.wait().unwrap().success());
            assert!(
                out.starts_with(&format!("got hello{round} this\nleader\n")),
                "{out}"
            );
            let ignored = out
                .lines()
                .last()
                .unwrap()
                .split_whitespace()
                .last()
                .unwrap();
            let mask = u64::from_str_radix(ignored, 16).unwrap();
            assert_eq!(mask & (1 << 12), 0, "SIGPIPE is not ignored: {out}");
            assert_eq!(err, "oops\n");
        }
    }

    #[test]
    fn a_launch_that_cannot_start_is_an_error_naming_why() {
        let mut launcher =
            Launcher::new("/no/such/launch", None, std::iter::empty::<(&str, &str)>()).unwrap();
        let (a, _b) = pipe_files();
        let (_c, d) = pipe_files();
        let (_e, f) = pipe_files();
        let err = launcher.spawn(&[a, d, f]).expect_err("cannot start");
        assert_eq!(err.kind(), io::ErrorKind::NotFound, "{err}");
    }

    #[test]
    fn exit_statuses_are_read_once_and_kept() {
        let mut launcher =
            Launcher::new("/bin/sh", None, std::iter::empty::<(&str, &str)>()).unwrap();
        let (in_r, mut in_w) = pipe_files();
        let (_out_r, out_w) = pipe_files();
        let (_err_r, err_w) = pipe_files();
        let mut leader = launcher.spawn(&[in_r, out_w, err_w]).unwrap();
        std::io::Write::write_all(&mut in_w, b"exit 4\n").unwrap();
        drop(in_w);
        let status = leader.wait().unwrap();
        assert_eq!(status.code(), Some(4));
        assert_eq!(leader.try_wait(), Some(status), "kept, not waited again");
        assert_eq!(leader.wait(), Some(status));
    }
}
