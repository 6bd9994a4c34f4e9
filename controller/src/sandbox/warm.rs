//! Warm sandboxes: one long-lived process per bot (and per game of it at once)
//! that starts each of the bot's games, so that a game's start costs a message instead of a
//! sandbox. Its init is this binary (`take6 sandbox-init`). Per game it is handed three pipe ends
//! over a unix socket (SCM_RIGHTS) and starts `launch` on them; at the game's end it kills
//! everything the game started, reaps it and says so.
//!
//! Two kinds share the protocol:
//! - **sandboxed**: the init is PID 1 of a bubblewrap sandbox and starts `/bot/launch` as
//!   `nobody`; at a game's end it kills everything else in its PID namespace and empties `/tmp`.
//!   Making the namespaces once instead of per launch is what this saves.
//! - **plain** (`--sandbox none`): the init runs in the working copy without isolation and
//!   starts `./launch` in a process group of its own. It is a child subreaper, so that what a game
//!   left behind comes back to it and is killed at the game's end. This saves forking the large
//!   controller per launch. The init puts the bots' address-space limit on itself, so a launch
//!   needs no code between fork and exec and is a `posix_spawn` (a vfork: no page tables
//!   copied). It ends with the controller through its control socket, killing its game first.
//!
//! Requests never wait for their reply: the replies are read before the next launch, by which
//! time the init has long sent them, so a game's start and end cost the controller two short
//! writes and no round trip.

use std::fs::File;
use std::io::{self, BufRead, BufReader, IoSlice, IoSliceMut, Write};
use std::os::fd::{AsRawFd, FromRawFd, OwnedFd, RawFd};
use std::os::unix::net::UnixStream;
use std::os::unix::process::CommandExt;
use std::path::Path;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use nix::fcntl::{FcntlArg, FdFlag};
use nix::sys::signal::{Signal, kill, killpg};
use nix::sys::socket::{ControlMessage, ControlMessageOwned, MsgFlags, recvmsg, sendmsg};
use nix::sys::wait::waitpid;
use nix::unistd::Pid;

use super::bwrap::{self, BOT_DIR, NOBODY, SystemDir};
use super::cgroup::{Group, GroupLimits};
use super::counters::FROZEN;
use super::spawn::{Launcher, Leader};
use super::{Identity, Sandbox};

/// The hidden subcommand that runs as a warm sandbox's init.
pub const INIT_ARG: &str = "sandbox-init";
/// Where this binary appears inside a sandboxed warm sandbox: in a folder only root may enter
/// (mode 0700), so that once the init has become its bot's user no bot can run it (a bot that
/// runs the controller could search small seeds) or read it; `/proc/1/exe` is closed too, the
/// init being not dumpable.
const INIT_DIR: &str = "/.take6";
const INIT_PATH: &str = "/.take6/init";
/// Where a sandboxed init finds the frozen counters' copies (see [`super::counters`]), named
/// by their index in [`FROZEN`], to bind each over the `/proc` file it covers before it
/// becomes its bot's user; unmounted once they are bound.
const COUNTERS_DIR: &str = "/.take6/counters";
/// The init's second argument in a plain one (its third is the address-space limit in bytes).
const PLAIN: &str = "plain";
/// The init's second argument in a sandboxed one (its third is the uid its bots run as).
const UID: &str = "uid";
/// How long the controller waits for a reply the init owes before it gives the sandbox up.
const PATIENCE: Duration = Duration::from_secs(10);

/// A running warm sandbox for one working copy, seen from the controller.
#[derive(Debug)]
pub struct Warm {
    /// bubblewrap, or the plain init itself.
    child: Child,
    control: BufReader<UnixStream>,
    /// The whole sandbox's cgroup (one game at a time runs in it).
    group: Option<Group>,
    /// Replies the init owes for requests sent: read before the next launch.
    owed: usize,
    /// The last reply read.
    line: String,
    /// The processor it runs on, with its bots, when its table is pinned.
    cpu: Option<usize>,
    /// Which disk image of its working copy it was started on ([`super::seats`]): a sandbox
    /// of an image since unmounted holds no working copy any more and is not used again.
    pub(super) image: u64,
}

impl Warm {
    /// Starts a sandboxed warm sandbox for `workdir` with `sandbox`'s view and rlimits; `init`
    /// is the `take6` binary.
    pub fn start(
        sandbox: &Sandbox,
        init: &Path,
        workdir: &Path,
        cpu: Option<usize>,
    ) -> io::Result<Warm> {
        let Some((path, identity, system)) = &sandbox.bwrap else {
            return Err(io::Error::other("no bubblewrap"));
        };
        if !matches!(identity, Identity::Setpriv(_)) {
            return Err(io::Error::other("warm sandboxes need a root controller"));
        }
        let uid = sandbox.uids.of(workdir);
        // The frozen counters are bound by the init itself (see [`bind_frozen`]): one bind of
        // their folder here instead of one per file, each of which had bubblewrap read the
        // whole mount table again.
        let (frozen, system): (Vec<&SystemDir>, Vec<&SystemDir>) = system
            .iter()
            .partition(|d| matches!(d, SystemDir::Frozen(..)));
        let system: Vec<SystemDir> = system.into_iter().cloned().collect();
        let counters = frozen_folder(&frozen)?;
        let mut args = bwrap::args(
            &Identity::UserNamespace,
            uid,
            &system,
            workdir,
            sandbox.limits.disk_mib << 20,
            INIT_PATH,
        );
        // Run privileged (root inside, so it can make the bot `nobody`), as PID 1 itself.
        args.retain(|a| a != "--unshare-user");
        let program = args.pop().expect("the program is last");
        args.pop(); // "--"
        args.extend([
            "--perms".into(),
            "0700".into(),
            "--dir".into(),
            INIT_DIR.into(),
            "--ro-bind".into(),
            init.as_os_str().to_owned(),
            INIT_PATH.into(),
        ]);
        if let Some(folder) = counters {
            args.extend(["--ro-bind".into(), folder.into(), COUNTERS_DIR.into()]);
        }
        args.extend([
            "--as-pid-1".into(),
            "--".into(),
            program,
            INIT_ARG.into(),
            UID.into(),
            uid.to_string().into(),
        ]);
        let mut command = Command::new(path);
        command.args(&args);
        Warm::spawn(sandbox, command, &[], cpu)
    }

    /// Starts a plain warm "sandbox" (`--sandbox none`): the init runs in `workdir` with the
    /// controller's environment; it gives the bot's processes the address-space limit.
    pub fn start_plain(
        sandbox: &Sandbox,
        init: &Path,
        workdir: &Path,
        cpu: Option<usize>,
    ) -> io::Result<Warm> {
        let mut command = Command::new(init);
        command.arg(INIT_ARG).current_dir(workdir);
        let address_space = (sandbox.limits.memory_mib << 20).to_string();
        Warm::spawn(sandbox, command, &[PLAIN, &address_space], cpu)
    }

    /// Spawns `command` (whose last argument so far is the init's subcommand) with `extra`
    /// arguments after it and the control socket as its standard input, in a cgroup when they
    /// are enforced, on processor `cpu` (with every process it starts) if given.
    fn spawn(
        sandbox: &Sandbox,
        mut command: Command,
        extra: &[&str],
        cpu: Option<usize>,
    ) -> io::Result<Warm> {
        let plain = extra.first() == Some(&PLAIN);
        let (ours, theirs) = UnixStream::pair()?;
        ours.set_read_timeout(Some(PATIENCE))?;
        command.args(extra);
        let group = if sandbox.cgroups == super::Cgroups::default() {
            None
        } else {
            Some(sandbox.cgroups.create(GroupLimits {
                memory_bytes: sandbox.limits.memory_mib << 20,
                max_procs: sandbox.limits.max_procs,
                cpu_quota: true,
            })?)
        };
        let joins = match &group {
            Some(g) => g.join_files()?,
            None => Vec::new(),
        };
        use nix::sys::resource::Resource;
        let mut rlimits = sandbox.rlimits(group.as_ref(), false);
        // A plain init gives its bots the address-space limit itself (it needs more than one),
        // and forbids core dumps to itself and so to them.
        rlimits
            .retain(|(r, _)| *r != Resource::RLIMIT_AS && !(plain && *r == Resource::RLIMIT_CORE));
        // The init finds its end of the control socket on its standard input: handed over so,
        // it needs no code between fork and exec.
        command
            .stdin(Stdio::from(OwnedFd::from(theirs)))
            .stdout(Stdio::null())
            .process_group(0);
        // With nothing to do between fork and exec (a plain init without a cgroup), the
        // standard library starts the init with a vfork (posix_spawn) instead of copying the
        // controller's page tables: a series starts its plain inits in half the time.
        let pin = cpu.and_then(|c| crate::affinity::set_of(Some(c)));
        let pre_exec = !plain || !joins.is_empty() || !rlimits.is_empty();
        if pre_exec {
            // SAFETY: prctl, setrlimit, sched_setaffinity and a write to an open file only;
            // nothing is allocated in the child.
            unsafe {
                command.pre_exec(move || {
                    // Before bubblewrap starts the init, so that the init and its bots inherit it.
                    if let Some(set) = &pin {
                        nix::sched::sched_setaffinity(Pid::from_raw(0), set)?;
                    }
                    Group::join_self(&joins)?;
                    for &(resource, value) in &rlimits {
                        nix::sys::resource::setrlimit(resource, value, value)?;
                    }
                    // Gone with the controller, whatever kills it. A plain init instead ends at
                    // its control socket's end of file (the controller's death closes it) after
                    // killing the game: no signal from outside would let it clean up.
                    if !plain {
                        nix::sys::prctl::set_pdeathsig(Signal::SIGKILL)?;
                    }
                    Ok(())
                });
            }
        }
        let child = command.spawn()?;
        // A plain init started without code before its exec is pinned now: it starts no bot
        // before its first request, so every bot inherits the processor.
        if let (false, Some(cpu)) = (pre_exec, cpu) {
            crate::affinity::pin_process(child.id(), cpu);
        }
        Ok(Warm {
            child,
            control: BufReader::new(ours),
            group,
            owed: 0,
            line: String::new(),
            cpu,
            image: 0,
        })
    }

    /// The processor it and its bots run on, when its table is pinned (the idle ones wait in
    /// their processor's part of the pool).
    pub fn cpu(&self) -> Option<usize> {
        self.cpu
    }

    /// The sandbox's cgroup, if cgroups are enforced.
    pub fn group(&self) -> Option<&Group> {
        self.group.as_ref()
    }

    /// Starts `launch` on the given stdin, stdout and stderr, after the replies still owed
    /// (the last game's end) are in. Does not wait for the start: a bot that cannot start
    /// closes its output at once, which the game sees; the reason is logged at the next request.
    pub fn launch(&mut self, stdio: [OwnedFd; 3]) -> io::Result<()> {
        self.settle()?;
        let fds = stdio.each_ref().map(AsRawFd::as_raw_fd);
        let socket = self.control.get_ref().as_raw_fd();
        sendmsg::<()>(
            socket,
            &[IoSlice::new(b"L")],
            &[ControlMessage::ScmRights(&fds)],
            MsgFlags::empty(),
            None,
        )?;
        self.owed += 1;
        Ok(())
    }

    /// Ends the current game: every process of it is killed and reaped (and `/tmp` emptied)
    /// by the init before it reads the next request. Does not wait for that to be done.
    pub fn end(&mut self) -> io::Result<()> {
        self.control.get_mut().write_all(b"E")?;
        self.owed += 1;
        Ok(())
    }

    /// The exit status of the game's `launch` once it has exited, waiting up to `limit`.
    pub fn exit_status(&mut self, limit: Duration) -> Option<String> {
        self.settle().ok()?;
        let ms = limit.as_millis().min(u128::from(u16::MAX)) as u16;
        let mut request = vec![b'W'];
        request.extend(ms.to_le_bytes());
        self.control.get_mut().write_all(&request).ok()?;
        self.owed += 1;
        let reply = self.reply().ok()?;
        reply
            .strip_prefix('S')
            .filter(|s| !s.is_empty())
            .map(str::to_string)
    }

    /// Reads the replies owed (so the last game's end is done); a start that failed is logged.
    pub fn settle(&mut self) -> io::Result<()> {
        while self.owed > 0 {
            let reply = self.reply()?;
            if let Some(why) = reply.strip_prefix('F') {
                tracing::warn!("a warm sandbox could not start launch: {why}");
            }
        }
        Ok(())
    }

    /// The next reply the init owes, read into the buffer kept for it.
    fn reply(&mut self) -> io::Result<&str> {
        self.line.clear();
        let read = self.control.read_line(&mut self.line)?;
        self.owed = self.owed.saturating_sub(1);
        if read == 0 {
            return Err(io::Error::other("the warm sandbox is gone"));
        }
        Ok(self.line.trim_end())
    }
}

/// How long an init has to end its game and exit once its socket is closed, before it is
/// killed.
const CLOSING: Duration = Duration::from_millis(100);

impl Warm {
    /// Ends every sandbox of `warms` at once: all their sockets are closed first, so that the
    /// inits end their games side by side, then each is waited for (all within [`CLOSING`]).
    /// One after another, a series' end waited for each init in turn, a millisecond or more
    /// each.
    pub fn end_all(warms: impl IntoIterator<Item = Warm>) {
        let mut warms: Vec<Warm> = warms.into_iter().collect();
        for warm in &warms {
            warm.close();
        }
        let until = Instant::now() + CLOSING;
        for warm in &mut warms {
            warm.reap(until);
        }
    }

    /// Closes the control socket: the init ends its game and exits.
    fn close(&self) {
        let _ = self.control.get_ref().shutdown(std::net::Shutdown::Both);
    }

    /// Waits for the init (bubblewrap, for a sandboxed one) to exit until `until`, then kills
    /// it; reaps it either way.
    fn reap(&mut self, until: Instant) {
        loop {
            match self.child.try_wait() {
                Ok(Some(_)) | Err(_) => return,
                Ok(None) if Instant::now() >= until => break,
                Ok(None) => std::thread::sleep(Duration::from_micros(200)),
            }
        }
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

impl Drop for Warm {
    /// Closing the socket ends the init (after the requests it has), and with it the namespace
    /// (so its CPU time is accounted to the controller's children); the kill makes sure. One
    /// reaped already (by [`Warm::end_all`]) is left as it is.
    fn drop(&mut self) {
        self.close();
        self.reap(Instant::now() + CLOSING);
    }
}

/// What kind of init this is, from its command line.
#[derive(Debug, Clone, Copy)]
enum Kind {
    /// PID 1 of a bubblewrap sandbox, its bots running as `uid`; `dropped` once the init has
    /// become that user itself.
    Sandboxed { uid: u32, dropped: bool },
    /// Unisolated (`--sandbox none`), giving its bots this address-space limit in bytes:
    /// `inherited` when the init put it on itself, so that a bot inherits it and needs no
    /// code of its own between fork and exec.
    Plain { address_space: u64, inherited: bool },
}

/// The init of a warm sandbox: serves requests on the control socket (its standard input)
/// until the controller closes it. Returns the exit code.
pub fn init_main(args: &[String]) -> u8 {
    let kind = match (args.first().map(String::as_str), args.get(1)) {
        (Some(UID), Some(uid)) if uid.parse::<u32>().is_ok() => {
            let uid = uid.parse().unwrap_or(NOBODY);
            // While still root: a counter left unfrozen would be a channel between bots.
            if let Err(e) = bind_frozen(Path::new(COUNTERS_DIR)) {
                eprintln!("take6 sandbox-init: cannot bind the frozen counters: {e}");
                return 1;
            }
            Kind::Sandboxed {
                uid,
                dropped: become_user(uid),
            }
        }
        (Some(PLAIN), Some(bytes)) if bytes.parse::<u64>().is_ok() => {
            let address_space = bytes.parse().unwrap_or(u64::MAX);
            // No core dumps, for the init and so for every bot it starts (a crashing bot
            // must not fill its working copy with them, game after game).
            let _ = nix::sys::resource::setrlimit(nix::sys::resource::Resource::RLIMIT_CORE, 0, 0);
            Kind::Plain {
                address_space,
                inherited: limit_self(address_space),
            }
        }
        _ => {
            eprintln!("take6 sandbox-init: unknown arguments {args:?}");
            return 2;
        }
    };
    if let Kind::Sandboxed { .. } = kind {
        // The bots' system call filter, on the init itself and so on every bot it starts.
        if let Err(e) = super::seccomp::programs()
            .map_err(io::Error::other)
            .and_then(|p| super::seccomp::install(&p))
        {
            eprintln!("take6 sandbox-init: cannot install the seccomp filter: {e}");
            return 1;
        }
    }
    // The init's requests and its bots' messages never preempt the controller; the bots
    // inherit this.
    if let Err(e) = super::spawn::run_as_batch() {
        eprintln!("take6 sandbox-init: cannot run as a batch task: {e}");
    }
    // SAFETY: the controller passed this socket down as stdin, for the init alone.
    let control = unsafe { UnixStream::from_raw_fd(nix::libc::STDIN_FILENO) };
    // The bots it starts must not inherit it.
    let _ = nix::fcntl::fcntl(&control, FcntlArg::F_SETFD(FdFlag::FD_CLOEXEC));
    if let Kind::Plain { .. } = kind {
        // What a game's processes leave behind (daemons) is re-parented here, to be killed.
        let _ = nix::sys::prctl::set_child_subreaper(true);
    }
    match serve(&control, kind) {
        Ok(()) => 0,
        Err(e) => {
            eprintln!("take6 sandbox-init: {e}");
            1
        }
    }
}

fn serve(control: &UnixStream, kind: Kind) -> io::Result<()> {
    let mut writer = control;
    // The current game's `launch`, for its exit status and (plain) its process group.
    let mut leader: Option<Leader> = None;
    let mut launcher = launcher(kind)?;
    loop {
        let mut head = [0u8; 3];
        let mut iov = [IoSliceMut::new(&mut head[..1])];
        let mut space = nix::cmsg_space!([RawFd; 3]);
        let msg = match recvmsg::<()>(
            control.as_raw_fd(),
            &mut iov,
            Some(space.as_mut_slice()),
            MsgFlags::MSG_CMSG_CLOEXEC,
        ) {
            Ok(msg) => msg,
            // A controller that died with replies unread resets the socket: the game ends
            // with it all the same, as quietly as at the end of the requests.
            Err(e) => {
                end_game(kind, leader.take());
                return match e {
                    nix::errno::Errno::ECONNRESET => Ok(()),
                    e => Err(e.into()),
                };
            }
        };
        if msg.bytes == 0 {
            end_game(kind, leader.take());
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
        let reply = match head[0] {
            b'L' => match start_bot(fds, kind, launcher.as_mut()) {
                Ok(child) => {
                    let pid = child.id();
                    leader = Some(child);
                    format!("P{pid}\n")
                }
                Err(e) => format!("F{e}\n"),
            },
            b'E' => {
                end_game(kind, leader.take());
                "E\n".to_string()
            }
            b'W' => {
                use std::io::Read;
                (&mut &*control).read_exact(&mut head[1..])?;
                let limit = Duration::from_millis(u16::from_le_bytes([head[1], head[2]]).into());
                let status = leader.as_mut().and_then(|c| wait_for(c, limit));
                format!("S{}\n", status.unwrap_or_default())
            }
            _ => "Funknown request\n".to_string(),
        };
        // The controller closes its end when it is done with the sandbox, perhaps before the
        // last reply: that ends the init as quietly as the end of its requests does.
        if writer.write_all(reply.as_bytes()).is_err() {
            end_game(kind, leader.take());
            return Ok(());
        }
    }
}

/// `child`'s exit status as text, once it has exited, waiting up to `limit`.
fn wait_for(child: &mut Leader, limit: Duration) -> Option<String> {
    let until = Instant::now() + limit;
    loop {
        if let Some(status) = child.try_wait() {
            return Some(status.to_string());
        }
        if Instant::now() >= until {
            return None;
        }
        std::thread::sleep(Duration::from_millis(1));
    }
}

/// Starts `launch` on the three descriptors: sandboxed, `/bot/launch` as `nobody` with the
/// documented environment; plain, `./launch` with the init's own environment. Either way in a
/// new process group (a plain bot stays in the controller's session: a session of its own
/// would also be a scheduling group of its own, autogroup, which changes how bots share the
/// processors without the sandbox).
///
/// When the init already is what its bots must be (sandboxed: `nobody`; plain: under the
/// address-space limit) there is nothing to do between fork and exec, so `launcher` starts
/// `launch` with a vfork of its own: no copy of the init's page tables and no page faults in
/// the child, which were most of a launch's cost, and none of `posix_spawn`'s extra calls.
fn start_bot(fds: Vec<File>, kind: Kind, launcher: Option<&mut Launcher>) -> io::Result<Leader> {
    let stdio: [File; 3] = fds
        .try_into()
        .map_err(|_| io::Error::other("expected three descriptors"))?;
    if let Some(launcher) = launcher {
        return launcher.spawn(&stdio);
    }
    let [stdin, stdout, stderr] = stdio;
    let mut command = match kind {
        Kind::Sandboxed { .. } => {
            let mut c = Command::new(format!("{BOT_DIR}/launch"));
            c.current_dir(BOT_DIR).env_clear().envs(bwrap::ENV);
            c
        }
        Kind::Plain { .. } => Command::new("./launch"),
    };
    command
        .stdin(stdin)
        .stdout(stdout)
        .stderr(stderr)
        .process_group(0);
    match kind {
        Kind::Sandboxed { dropped: true, .. }
        | Kind::Plain {
            inherited: true, ..
        } => {}
        Kind::Sandboxed {
            uid,
            dropped: false,
        } => {
            command.uid(uid).gid(uid);
        }
        Kind::Plain {
            address_space,
            inherited: false,
        } => {
            // SAFETY: setrlimit and prctl only.
            unsafe {
                command.pre_exec(move || {
                    use nix::sys::resource::{Resource, setrlimit};
                    setrlimit(Resource::RLIMIT_AS, address_space, address_space)?;
                    // Killed with the init (and so with the controller).
                    nix::sys::prctl::set_pdeathsig(Signal::SIGKILL)?;
                    Ok(())
                });
            }
        }
    }
    command.spawn().map(Leader::of)
}

/// The fast launcher for an init that already is what its bots must be; `None` where a
/// launch needs more (dropping to `nobody`, or setting the address-space limit).
fn launcher(kind: Kind) -> io::Result<Option<Launcher>> {
    Ok(match kind {
        Kind::Sandboxed { dropped: true, .. } => Some(Launcher::new(
            &format!("{BOT_DIR}/launch"),
            Some(BOT_DIR),
            bwrap::ENV,
        )?),
        Kind::Plain {
            inherited: true, ..
        } => Some(Launcher::new("./launch", None, std::env::vars_os())?),
        Kind::Sandboxed { dropped: false, .. } | Kind::Plain { .. } => None,
    })
}

/// The one folder that holds every frozen copy in `frozen`, each named by the index in
/// [`FROZEN`] of the file it covers (as [`super::counters::Views`] makes them), or `None`
/// without frozen counters. Anything else is refused rather than bound wrongly.
fn frozen_folder(frozen: &[&SystemDir]) -> io::Result<Option<std::path::PathBuf>> {
    let mut folder = None;
    for dir in frozen {
        let SystemDir::Frozen(copy, covered) = dir else {
            continue;
        };
        let named = FROZEN
            .iter()
            .position(|f| f == covered)
            .is_some_and(|i| copy.file_name() == Some(std::ffi::OsStr::new(&format!("{i:02}"))));
        let parent = copy.parent().map(Path::to_path_buf);
        if !named || parent.is_none() || (folder.is_some() && folder != parent) {
            return Err(io::Error::other(format!(
                "unexpected frozen copy {} for {covered}",
                copy.display()
            )));
        }
        folder = parent;
    }
    Ok(folder)
}

/// Binds each frozen copy in `folder` read-only over the `/proc` file it covers, as
/// bubblewrap's `--ro-bind` did (one `mount` and one remount each, where bubblewrap also read
/// the whole mount table per bind: a third of a warm sandbox's start), then unmounts `folder`.
/// Runs as the sandbox's root, before the init becomes its bot's user: the bots cannot undo
/// the binds (no capability in the namespace, and the seccomp filter refuses `mount` and
/// `umount2`). Nothing to do where the sandbox has no frozen counters.
fn bind_frozen(folder: &Path) -> io::Result<()> {
    use nix::mount::{MntFlags, MsFlags, mount, umount2};
    if !folder.is_dir() {
        return Ok(());
    }
    let bind = |copy: &Path, covered: &str| -> nix::Result<()> {
        mount(
            Some(copy),
            covered,
            None::<&str>,
            MsFlags::MS_BIND,
            None::<&str>,
        )?;
        let flags = MsFlags::MS_BIND
            | MsFlags::MS_REMOUNT
            | MsFlags::MS_RDONLY
            | MsFlags::MS_NOSUID
            | MsFlags::MS_NODEV
            | MsFlags::MS_NOEXEC;
        mount(None::<&str>, covered, None::<&str>, flags, None::<&str>)
    };
    for (i, covered) in FROZEN.iter().enumerate() {
        let copy = folder.join(format!("{i:02}"));
        if copy.exists() {
            bind(&copy, covered).map_err(|e| io::Error::other(format!("{covered}: {e}")))?;
        }
    }
    umount2(folder, MntFlags::MNT_DETACH).map_err(io::Error::from)
}

/// Makes the sandboxed init its bots' user (`uid`, the bot's own), so that starting one needs
/// nothing between fork and exec. It still kills every process of its namespace at a game's
/// end (they are all that user's), and its bots cannot touch it: the namespace's PID 1 gets no
/// signal it has no handler for from inside, and it is made not dumpable, so they cannot
/// trace it, open its descriptors or read its memory. Returns whether it did.
fn become_user(uid: u32) -> bool {
    use nix::unistd::{Gid, Uid, setgroups, setresgid, setresuid};
    let (u, g) = (Uid::from_raw(uid), Gid::from_raw(uid));
    let dropped =
        setgroups(&[]).is_ok() && setresgid(g, g, g).is_ok() && setresuid(u, u, u).is_ok();
    // Changing identity already clears the flag; said explicitly, since it is what keeps
    // /proc/1/exe, /proc/1/mem and ptrace closed to the bots.
    let _ = nix::sys::prctl::set_dumpable(false);
    dropped
}

/// The least address-space limit the plain init puts on itself (it needs about 10 MiB).
const SELF_LIMIT_MIN: u64 = 64 << 20;

/// Puts the bots' address-space limit on the plain init itself, when it leaves the init room
/// to work, so that every bot inherits it. Returns whether it did. This relies on the init
/// reserving little address space: glibc's allocator does not reserve ahead, but one that maps
/// large arenas up front (mimalloc's are 1 GiB) would leave the init unable to start a bot.
fn limit_self(bytes: u64) -> bool {
    use nix::sys::resource::{Resource, setrlimit};
    bytes >= SELF_LIMIT_MIN && setrlimit(Resource::RLIMIT_AS, bytes, bytes).is_ok()
}

/// Kills and reaps everything of the game. Sandboxed: every other process of the namespace
/// (the init is PID 1, which `kill(-1)` spares), and `/tmp` is emptied. Plain: the leader's
/// process group, then whatever was re-parented to the init, until no child is left; never
/// `kill(-1)`, which outside a namespace would reach every process of the user.
fn end_game(kind: Kind, leader: Option<Leader>) {
    if let Some(mut leader) = leader {
        let _ = killpg(Pid::from_raw(leader.id()), Signal::SIGKILL);
        // Reaped here unless a `W` request reaped it already (then no pid is waited).
        let _ = leader.wait();
    }
    match kind {
        Kind::Sandboxed { .. } => {
            // Most games leave nothing but their leader, reaped above: an init without
            // children is then alone in its namespace (every other process there descends
            // from it, and an orphan is re-parented to it), so `kill(-1)`, which walks every
            // process of the machine, is needed only when something is left.
            if !childless() {
                let _ = kill(Pid::from_raw(-1), Signal::SIGKILL);
                while waitpid(Pid::from_raw(-1), None).is_ok() {}
            }
            if let Ok(entries) = std::fs::read_dir("/tmp") {
                for entry in entries.flatten() {
                    remove(&entry.path());
                }
            }
        }
        Kind::Plain { .. } => {
            // Killed children are waited for one by one (never "any child", which could be a
            // daemon re-parented meanwhile and not yet killed); then whatever was re-parented
            // since is listed, until nothing is left. Most games leave nothing but their
            // leader: a check that reaps nothing spares them the listing.
            while !childless() {
                let children = own_children();
                if children.is_empty() {
                    break;
                }
                for &pid in &children {
                    let _ = killpg(pid, Signal::SIGKILL);
                    let _ = kill(pid, Signal::SIGKILL);
                }
                for pid in children {
                    let _ = waitpid(pid, None);
                }
            }
        }
    }
}

/// Removes `path` from `/tmp`, by descriptors whatever its depth. A bot may have taken the
/// permissions off its folders; they are its own, so the init (its user) gives them back first.
fn remove(path: &Path) {
    let _ = super::deep::remove_path(path);
}

/// Whether the init has no child at all, running or dead (`ECHILD`); reaps nothing.
fn childless() -> bool {
    use nix::sys::wait::{Id, WaitPidFlag, waitid};
    let flags = WaitPidFlag::WEXITED | WaitPidFlag::WNOHANG | WaitPidFlag::WNOWAIT;
    waitid(Id::All, flags) == Err(nix::errno::Errno::ECHILD)
}

/// The init's children (it is single-threaded, so its one task lists them all).
fn own_children() -> Vec<Pid> {
    let me = std::process::id();
    std::fs::read_to_string(format!("/proc/{me}/task/{me}/children"))
        .unwrap_or_default()
        .split_whitespace()
        .filter_map(|p| p.parse().ok())
        .map(Pid::from_raw)
        .collect()
}
