//! Starting a program in the sandbox: its cgroup, its seccomp filters, bubblewrap's command
//! line and its rlimits.

use std::ffi::OsString;
use std::io;
use std::os::fd::{AsRawFd, OwnedFd};
use std::path::Path;
use std::process::Stdio;

use nix::sys::resource::{Resource, setrlimit};
use tokio::process::{Child, Command};

use super::cgroup::{Cgroups, Group, GroupLimits};
use super::{
    BUILD_ADDRESS_SPACE_MIB, Clock, Mode, Sandbox, SpawnError, Tree, bwrap, cgroup, spawn,
};

impl Sandbox {
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
    pub(super) fn rlimits(&self, group: Option<&Group>, build: bool) -> Vec<(Resource, u64)> {
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
