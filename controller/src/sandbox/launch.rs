//! Starting a game's `launch`: seated on its disk image, in a warm sandbox when they are kept,
//! else in a fresh one.

use std::io;
use std::path::Path;
use std::process::Stdio;
use std::sync::Arc;

use super::tree::DiskBase;
use super::{Breach, Clock, Launched, Mode, Sandbox, SpawnError, Tree, seats, tree, warm};

impl Sandbox {
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
    pub(super) fn disk_base(&self, workdir: &Path) -> Result<Option<DiskBase>, SpawnError> {
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
}
