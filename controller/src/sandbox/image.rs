//! The disk cap (`disk-cap`): while a series runs, each working copy is an ext4 file system in
//! a sparse image file, loop-mounted on `work/<name>`, so that what a bot writes there (in any
//! number of files, builds included) cannot take more of the host's disk than the image holds:
//! its size when prepared plus the disk limit, plus room for the file system's own records.
//!
//! The mounts live in the controller's own mount namespace (see [`enter_private_mounts`]): the
//! host never sees them, and when the controller dies, SIGKILL included, the kernel unmounts them
//! and frees their loop devices (mounted with autoclear). At an orderly end the image's content
//! is copied back into `work/<name>` and the image deleted; after a crash the image
//! (`work/.images/<name>.ext4`) holds the working copy, and `take6 run --resume` mounts it again.
//!
//! The file systems are made and checked by the tools that do it well (`mkfs.ext4`, `e2fsck`,
//! `losetup`, from e2fsprogs and util-linux); mounting and unmounting are two system calls each
//! ([`super::loopdev`]), with `mount` as the fallback where those are refused. This module
//! decides sizes and order.

use std::collections::{HashMap, HashSet};
use std::fs;
use std::io;
use std::os::unix::fs::{MetadataExt, PermissionsExt};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Mutex, PoisonError, RwLock};

use super::{Unavailable, find_program};

/// Whether this process has a mount namespace of its own, with nothing propagated to the host.
static PRIVATE: AtomicBool = AtomicBool::new(false);

const MIB: u64 = 1 << 20;

/// The folder of the images, next to the working copies. Its name starts with a dot, as no
/// bot's does (such folders are not bots), so that it cannot be any bot's working copy.
const IMAGES: &str = ".images";

/// Gives the controller a mount namespace of its own, every mount in it private, when it is
/// root: the working copies' mounts are then invisible to the host and cannot outlive the
/// controller. Must be called before any thread starts (a namespace is per thread until then;
/// threads started later share it). Returns whether it worked; if not, the disk cap is missing.
pub fn enter_private_mounts() -> bool {
    use nix::mount::{MsFlags, mount};
    use nix::sched::{CloneFlags, unshare};
    if !nix::unistd::geteuid().is_root() {
        return false;
    }
    let private = unshare(CloneFlags::CLONE_NEWNS).is_ok()
        && mount(
            None::<&str>,
            "/",
            None::<&str>,
            MsFlags::MS_REC | MsFlags::MS_PRIVATE,
            None::<&str>,
        )
        .is_ok();
    PRIVATE.store(private, Ordering::SeqCst);
    private
}

/// The image file that holds the working copy `workdir` (`work/<name>`) while a series runs:
/// `work/.images/<name>.ext4`.
pub fn image_of(workdir: &Path) -> PathBuf {
    in_images(workdir, "ext4")
}

/// `work/.images/<name>.<ext>`.
fn in_images(workdir: &Path, ext: &str) -> PathBuf {
    let name = workdir.file_name().unwrap_or_default().to_string_lossy();
    let parent = workdir.parent().unwrap_or(Path::new("."));
    parent.join(IMAGES).join(format!("{name}.{ext}"))
}

/// Bytes used in the file system mounted at `dir` (O(1), unlike a walk).
pub(super) fn used(dir: &Path) -> Option<u64> {
    let s = nix::sys::statvfs::statvfs(dir).ok()?;
    Some(s.blocks().saturating_sub(s.blocks_free()) * s.fragment_size())
}

/// The tools, and the working copies mounted now.
#[derive(Debug)]
pub(super) struct Images {
    mkfs: PathBuf,
    /// The fallback of [`super::loopdev::mount`].
    mount: PathBuf,
    e2fsck: Option<PathBuf>,
    losetup: Option<PathBuf>,
    /// The disk limit, room each image has beyond its working copy.
    disk_bytes: u64,
    /// Set when the series ends: no image is mounted after that. Held (shared) while one is
    /// made, so that the end waits for images being made.
    closed: RwLock<bool>,
    mounted: Mutex<HashSet<PathBuf>>,
    /// The working copies whose image is parked: unmounted, its free blocks given back to the
    /// host (see [`Images::park`]).
    parked: Mutex<HashSet<PathBuf>>,
    /// What each mounted working copy may hold over its life: its bot's own files and the disk
    /// limit. Its copy back writes no more than that to the host.
    rooms: Mutex<HashMap<PathBuf, u64>>,
}

impl Images {
    /// Finds the tools and checks with a trial image that loop mounts work here; the error
    /// says what is missing and how to get it.
    pub(super) fn probe(disk_bytes: u64) -> Result<Images, Unavailable> {
        if !PRIVATE.load(Ordering::SeqCst) {
            let why = "the controller has no private mount namespace (run as root, with \
                       CAP_SYS_ADMIN)";
            return Err(Unavailable(why.into()));
        }
        let need = |name: &str, package: &str| {
            find_program(name)
                .ok_or_else(|| Unavailable(format!("{name} not found (apt-get install {package})")))
        };
        let mut images = Images {
            mkfs: need("mkfs.ext4", "e2fsprogs")?,
            mount: need("mount", "mount")?,
            e2fsck: find_program("e2fsck"),
            losetup: find_program("losetup"),
            // The trial's: small whatever the limit (a limit too large is a bot's error).
            disk_bytes: MIB,
            closed: RwLock::new(false),
            mounted: Mutex::new(HashSet::new()),
            parked: Mutex::default(),
            rooms: Mutex::default(),
        };
        let trial = std::env::temp_dir().join(format!("take6-disk-probe-{}", std::process::id()));
        let dir = trial.join("work");
        let probe = dir.join("probe");
        // Made, mounted and unmounted: what needs the machine's support. Copying back is
        // plain copies and renames, not tried (it took as long again, before every series).
        let result = fs::create_dir_all(&probe)
            .and_then(|_| images.make(&probe, 0))
            .and_then(|_| super::loopdev::unmount(&probe));
        let _ = fs::remove_dir_all(&trial);
        images.mounted = Mutex::default();
        images.rooms = Mutex::default();
        images.disk_bytes = disk_bytes;
        result.map_err(|e| {
            Unavailable(format!(
                "cannot loop-mount a disk image here ({e}): run as root with /dev/loop-control \
                 and e2fsprogs installed"
            ))
        })?;
        Ok(images)
    }

    /// Whether `workdir` is a mounted image now.
    pub(super) fn is_mounted(&self, workdir: &Path) -> bool {
        self.mounted
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .contains(workdir)
    }

    /// Makes the image of the prepared working copy `workdir` (its files, modes and owner),
    /// with room for what is left of the disk limit over the copy's life (`own`: its bot's own
    /// files, which the limit comes on top of), and mounts it there in place of the folder's
    /// content. Returns the bytes the copy holds; a copy holding more than `own` and the limit
    /// already is refused ([`super::within_cap`]). `mkfs.ext4 -d` copies the folder into the
    /// image, with no mount; a folder it cannot copy (it aborts on a tree a few thousand
    /// folders deep, which a bot may have left before a `--resume`), or would copy in time
    /// past linear (a folder of more than [`super::deep::WIDE`] names, or as many names of
    /// files with several names), goes into an empty image mounted beside it, by descriptors.
    /// Only a filled image gets its name, so a controller killed meanwhile leaves the folder
    /// the truth.
    pub(super) fn make(&self, workdir: &Path, own: u64) -> io::Result<u64> {
        let closed = self.closed.read().unwrap_or_else(PoisonError::into_inner);
        if *closed {
            return Err(io::Error::other("the series is ending"));
        }
        let start = std::time::Instant::now();
        let root = fs::symlink_metadata(workdir)?;
        // Seen from the series folder's descriptor: a working copy that is a link is refused.
        drop(crate::door::working_copy(workdir)?);
        let shape = super::deep::shape(workdir)?;
        let room = own.saturating_add(self.disk_bytes);
        super::within_cap(workdir, shape.bytes, own, self.disk_bytes)?;
        let (size, inodes) = geometry(shape.bytes, shape.entries, room - shape.bytes);
        let image = image_of(workdir);
        let (part, staging) = (in_images(workdir, "part"), in_images(workdir, "in"));
        fs::create_dir_all(image.parent().expect("in a folder"))?;
        let _ = fs::remove_file(&image);
        let _ = fs::remove_file(&part);
        super::deep::remove_path(&staging)?;
        fs::File::create(&part)?.set_len(size)?;
        let filled = self.fill_image(workdir, &part, &staging, &shape, inodes, &root);
        let _ = fs::remove_dir(&staging);
        if let Err(e) = filled
            .and_then(|()| allocate(&part, size))
            .and_then(|()| fs::rename(&part, &image))
        {
            let _ = fs::remove_file(&part);
            return Err(e);
        }
        // The image holds the copy now: the folder becomes its empty mount point.
        super::deep::remove_path(workdir)?;
        fs::create_dir(workdir)?;
        if let Err(e) = self.mount(&image, workdir) {
            let _ = fs::remove_file(&image);
            return Err(e);
        }
        self.rooms
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .insert(workdir.to_path_buf(), room);
        // The mounted root as the folder was.
        std::os::unix::fs::lchown(workdir, Some(root.uid()), Some(root.gid()))?;
        fs::set_permissions(workdir, fs::Permissions::from_mode(root.mode() & 0o7777))?;
        tracing::info!(
            "{} is a disk image of {} MiB ({inodes} inodes), made and mounted in {} ms",
            workdir.display(),
            size / MIB,
            start.elapsed().as_millis()
        );
        Ok(shape.bytes)
    }

    /// Makes the file system of the image `part` and copies the folder `workdir` into it:
    /// by mkfs itself where it can, else through a mount on `staging`, by descriptors.
    fn fill_image(
        &self,
        workdir: &Path,
        part: &Path,
        staging: &Path,
        shape: &super::deep::Shape,
        inodes: u64,
        root: &fs::Metadata,
    ) -> io::Result<()> {
        // `nodiscard`: mkfs would otherwise punch the allocated image full of holes again.
        let owner = format!("root_owner={}:{},nodiscard", root.uid(), root.gid());
        let mkfs = |from: Option<&Path>| {
            let mut mkfs = Command::new(&self.mkfs);
            mkfs.args(["-q", "-F", "-b", "4096", "-I", "256", "-m", "0"])
                .args(["-N", &inodes.to_string()])
                .args(["-O", "^has_journal,^resize_inode", "-E", &owner]);
            if let Some(from) = from {
                mkfs.arg("-d").arg(from);
            }
            run(mkfs.arg(part))
        };
        // mkfs copies the folder in itself, with no mount: a mount of the image made while a
        // sandbox starts elsewhere in the series would be copied into that sandbox's mount
        // namespace, keep its file system alive there unwritten, and the image mounted next
        // would be found empty. Only a tree mkfs cannot copy (`-d` aborts a few thousand
        // folders deep) is filled through a mount, synced to the image before it is unmounted.
        let wide = shape.widest.max(shape.linked) > super::deep::WIDE;
        let by_mkfs = if wide {
            tracing::info!(
                "{}: a folder of {} names, {} names of files with several names: filling the \
                 image by descriptors",
                workdir.display(),
                shape.widest,
                shape.linked
            );
            Err(io::Error::other("too many names for mkfs.ext4 -d"))
        } else {
            mkfs(Some(workdir))
        };
        by_mkfs.or_else(|e| {
            // mkfs's error may name the bot's files: untrusted text.
            tracing::info!(
                "{}: mkfs.ext4 -d could not copy the folder ({}); filling the image by \
                 descriptors",
                workdir.display(),
                crate::untrusted::log(&e.to_string())
            );
            mkfs(None)
                .and_then(|()| fs::create_dir(staging))
                .and_then(|()| self.fill(part, staging, workdir, root.uid()))
        })
    }

    /// Mounts the new, empty image `part` on `staging`, copies the folder `workdir` into it
    /// (every entry owned by `owner`) and unmounts it.
    fn fill(&self, part: &Path, staging: &Path, workdir: &Path, owner: u32) -> io::Result<()> {
        self.attach(part, staging)?;
        let copied = super::deep::copy_into(workdir, staging, owner, None);
        // Everything on the image before the mount goes, wherever else the mount is held.
        let synced = fs::File::open(staging).and_then(|d| {
            nix::unistd::syncfs(std::os::fd::AsFd::as_fd(&d)).map_err(io::Error::from)
        });
        super::loopdev::unmount(staging)?;
        synced?;
        warn_left_out(workdir, copied?);
        Ok(())
    }

    /// Mounts the image of `workdir` again after the controller died (it holds the working
    /// copy then), checking it first unless it is in use. `own` as for [`Images::make`];
    /// returns the bytes the copy holds.
    pub(super) fn reopen(&self, workdir: &Path, own: u64) -> io::Result<u64> {
        let image = image_of(workdir);
        let closed = self.closed.read().unwrap_or_else(PoisonError::into_inner);
        if *closed {
            return Err(io::Error::other("the series is ending"));
        }
        let staging = in_images(workdir, "out");
        super::deep::remove_path(&staging)?;
        if let (Some(e2fsck), false) = (&self.e2fsck, self.attached(&image)) {
            // 0: clean, 1: fixed, 2: fixed (reboot asked for a root file system); more: not all.
            let status = Command::new(e2fsck)
                .arg("-p")
                .arg(&image)
                .stdin(Stdio::null())
                .output()?;
            if status.status.code().is_none_or(|c| c > 2) {
                // Its output names the bot's files: untrusted text.
                tracing::warn!(
                    "{}: e2fsck -p found problems it did not fix ({}): mounting it anyway",
                    image.display(),
                    crate::untrusted::terminal_bytes(status.stdout.trim_ascii())
                );
            }
        }
        // What a half-finished copy back left in the folder: the image is the truth.
        super::deep::remove_path(workdir)?;
        fs::create_dir(workdir)?;
        self.mount(&image, workdir)?;
        self.rooms
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .insert(workdir.to_path_buf(), own.saturating_add(self.disk_bytes));
        Ok(super::deep::shape(workdir)?.bytes)
    }

    /// Whether a loop device still holds `image` (a dying controller's mount, not yet gone).
    fn attached(&self, image: &Path) -> bool {
        let Some(losetup) = &self.losetup else {
            return false;
        };
        Command::new(losetup)
            .arg("-j")
            .arg(image)
            .stdin(Stdio::null())
            .output()
            .is_ok_and(|o| !o.stdout.is_empty())
    }

    /// `mount -t ext4 -o loop,nosuid,nodev,noatime,nobarrier,noinit_itable IMAGE DIR`, by system
    /// calls or else by the tool (whose error then says why); remembered for the end.
    fn mount(&self, image: &Path, dir: &Path) -> io::Result<()> {
        self.attach(image, dir)?;
        self.mounted
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .insert(dir.to_path_buf());
        Ok(())
    }

    /// [`Images::mount`] without remembering it.
    fn attach(&self, image: &Path, dir: &Path) -> io::Result<()> {
        if let Err(e) = super::loopdev::mount(image, dir) {
            run(Command::new(&self.mount)
                .args(["-t", "ext4", "-o"])
                .arg(format!(
                    "loop,nosuid,nodev,noatime,{}",
                    super::loopdev::OPTIONS
                ))
                .arg(image)
                .arg(dir))?;
            tracing::info!(
                "{}: mounted by the mount tool (the loop mount by system calls failed: {e})",
                dir.display()
            );
        }
        Ok(())
    }

    /// How many working copies are mounted images now.
    pub(super) fn count(&self) -> usize {
        self.mounted
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .len()
    }

    /// Parks the mounted working copy `workdir` while its bot plays no game: its image's free
    /// blocks are given back to the host (`FITRIM`: the loop device punches them out of the
    /// file) and it is unmounted. The image keeps the copy; on the host it takes the blocks in
    /// use only, until [`Images::unpark`] allocates it whole again.
    pub(super) fn park(&self, workdir: &Path) -> io::Result<()> {
        let closed = self.closed.read().unwrap_or_else(PoisonError::into_inner);
        if *closed || !self.is_mounted(workdir) {
            return Ok(());
        }
        self.put_away(workdir)
    }

    /// [`Images::park`] of a mounted working copy, whether or not the series is ending.
    fn put_away(&self, workdir: &Path) -> io::Result<()> {
        if let Err(e) = super::loopdev::trim(workdir) {
            tracing::info!("{}: not trimmed ({e})", workdir.display());
        }
        // Everything on the image before the unmount: a sandbox starting elsewhere may hold a
        // copy of the mount for a moment, and must have nothing left to write when it lets go.
        let synced = fs::File::open(workdir).and_then(|d| {
            nix::unistd::syncfs(std::os::fd::AsFd::as_fd(&d)).map_err(io::Error::from)
        });
        synced?;
        super::loopdev::unmount(workdir)?;
        self.lock_mounted().remove(workdir);
        self.lock_parked().insert(workdir.to_path_buf());
        tracing::info!(
            "{} parked: its image takes only the blocks in use until its bot plays again",
            workdir.display()
        );
        Ok(())
    }

    /// Mounts the parked image of `workdir` again, allocated whole on the host's disk first
    /// (the statvfs channel stays closed while its bot plays: see [`allocate`]). An error
    /// (no room on the host) leaves it parked.
    pub(super) fn unpark(&self, workdir: &Path) -> io::Result<()> {
        let closed = self.closed.read().unwrap_or_else(PoisonError::into_inner);
        if *closed {
            return Err(io::Error::other("the series is ending"));
        }
        if !self.lock_parked().contains(workdir) {
            return Ok(());
        }
        let image = image_of(workdir);
        self.let_go(&image);
        allocate(&image, fs::metadata(&image)?.len())?;
        self.mount(&image, workdir)?;
        self.lock_parked().remove(workdir);
        Ok(())
    }

    /// Waits (a few seconds at most) until no loop device holds `image` any more: the file
    /// system of its last mount is gone everywhere (a sandbox that started while it was
    /// mounted held a copy of the mount for a moment), so that only the new mount writes it.
    fn let_go(&self, image: &Path) {
        let until = std::time::Instant::now() + std::time::Duration::from_secs(5);
        while self.attached(image) {
            if std::time::Instant::now() > until {
                tracing::warn!("{}: still held by a loop device", image.display());
                return;
            }
            std::thread::sleep(std::time::Duration::from_millis(5));
        }
    }

    /// Whether `workdir`'s image is parked now.
    pub(super) fn is_parked(&self, workdir: &Path) -> bool {
        self.lock_parked().contains(workdir)
    }

    fn lock_mounted(&self) -> std::sync::MutexGuard<'_, HashSet<PathBuf>> {
        self.mounted.lock().unwrap_or_else(PoisonError::into_inner)
    }

    fn lock_parked(&self) -> std::sync::MutexGuard<'_, HashSet<PathBuf>> {
        self.parked.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// At the series' end: no more mounts; each working copy is copied back into its folder,
    /// unmounted and its image deleted. At a stop (a signal), only what fits in its window
    /// ([`crate::stop_clock::GRACE`], less what the rest of the stop takes): the working copies
    /// not copied back by then stay in their images, unmounted (the mounted ones parked as
    /// between games, their loop devices freed), for the series' or league's next run to
    /// mount again. Returns what could not be done and what was left, one line each.
    pub(super) fn release(&self) -> Vec<String> {
        let mut closed = self.closed.write().unwrap_or_else(PoisonError::into_inner);
        *closed = true;
        let until = crate::stop_clock::stopped_at().map(|t| {
            t + crate::stop_clock::GRACE.saturating_sub(std::time::Duration::from_secs(2))
        });
        let in_time = || until.is_none_or(|u| std::time::Instant::now() < u);
        let mut parked: Vec<PathBuf> = self.lock_parked().drain().collect();
        parked.sort();
        let mut mounted: Vec<PathBuf> = self.lock_mounted().drain().collect();
        mounted.sort();
        let mut problems = Vec::new();
        let mut late = Vec::new();
        // A few at once: copying back is mostly waiting on the disk. Parked images are mounted
        // again (not allocated: no bot writes now) to be copied back.
        let copied = each_of(&mounted, |w| in_time().then(|| self.copy_back_or_trim(w)));
        let unparked = each_of(&parked, |w| {
            in_time().then(|| {
                self.mount(&image_of(w), w)?;
                self.copy_back_or_trim(w)
            })
        });
        for (workdir, result) in copied.into_iter().chain(unparked) {
            match result {
                None => late.push(workdir.clone()),
                Some(Ok(())) => {}
                Some(Err(e)) => problems.push(format!(
                    "cannot copy the working copy {} back out of its image {} ({e}); it \
                     stays there: the series' or league's next run takes it back",
                    workdir.display(),
                    image_of(workdir).display()
                )),
            }
        }
        let still: Vec<PathBuf> = late
            .iter()
            .filter(|w| mounted.contains(w))
            .cloned()
            .collect();
        for (workdir, result) in each_of(&still, |w| Some(self.put_away(w))) {
            if let Some(Err(e)) = result {
                problems.push(format!(
                    "cannot unmount the working copy {} ({e}): `umount {}` frees it",
                    workdir.display(),
                    workdir.display()
                ));
            }
        }
        problems.extend(left_in_images(&late));
        problems
    }

    /// [`Images::copy_back`], and where the host's disk has no room for the copy, its image
    /// trimmed (its free blocks given back to the host) and the copy tried again; what is left
    /// of a failed copy is removed, the image keeping the working copy (for `--resume`) and
    /// taking on the host only its blocks in use.
    fn copy_back_or_trim(&self, workdir: &Path) -> io::Result<()> {
        let full = |e: &io::Error| {
            matches!(
                e.kind(),
                io::ErrorKind::StorageFull | io::ErrorKind::QuotaExceeded
            )
        };
        let copied = match self.copy_back(workdir) {
            Err(e) if full(&e) => {
                let _ = super::deep::remove_path(&in_images(workdir, "out"));
                let _ = super::loopdev::trim(workdir);
                self.copy_back(workdir)
            }
            other => other,
        };
        if copied.is_err() {
            let _ = super::deep::remove_path(&in_images(workdir, "out"));
            let _ = super::loopdev::trim(workdir);
        }
        copied
    }

    /// Copies the mounted working copy to a folder beside it, unmounts it, puts the copy in
    /// its place and deletes the image. What it writes to the host is at most the copy's room
    /// (its bot's own files and the disk limit), whatever the names in it: a file's data once
    /// for all its names. Special files the bot made, and what would pass the room, are left
    /// out, with a warning.
    fn copy_back(&self, workdir: &Path) -> io::Result<()> {
        let start = std::time::Instant::now();
        let staging = in_images(workdir, "out");
        super::deep::remove_path(&staging)?;
        let room = self
            .rooms
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .remove(workdir)
            .unwrap_or(self.disk_bytes);
        // By descriptors, whatever the depth of the folders the bot made.
        let owner = fs::symlink_metadata(workdir)?.uid();
        let copied = super::deep::copy_tree(workdir, &staging, owner, Some(room))?;
        warn_left_out(workdir, copied);
        // ext4's own folder, unless something was put there (e2fsck may).
        let _ = fs::remove_dir(staging.join("lost+found"));
        // If busy (a process of the bot not yet gone): detached now, freed when unused.
        super::loopdev::unmount(workdir)?;
        self.mounted
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .remove(workdir);
        super::deep::remove_path(workdir)?;
        fs::rename(&staging, workdir)?;
        fs::remove_file(image_of(workdir))?;
        // The images' folder, once it is empty.
        let _ = fs::remove_dir(staging.parent().expect("in a folder"));
        tracing::info!(
            "{} copied back out of its disk image in {} ms",
            workdir.display(),
            start.elapsed().as_millis()
        );
        Ok(())
    }
}

/// `work` done on each of `dirs` (`None`: not done), eight at a time (each thread takes the next one as it
/// finishes one: the last ones do not wait for the slowest of the first), sorted by folder.
fn each_of(
    dirs: &[PathBuf],
    work: impl Fn(&Path) -> Option<io::Result<()>> + Sync,
) -> Vec<(&PathBuf, Option<io::Result<()>>)> {
    let next = std::sync::atomic::AtomicUsize::new(0);
    let mut done: Vec<(&PathBuf, Option<io::Result<()>>)> = std::thread::scope(|scope| {
        let workers: Vec<_> = (0..dirs.len().min(8))
            .map(|_| {
                scope.spawn(|| {
                    let mut done = Vec::new();
                    while let Some(dir) = dirs.get(next.fetch_add(1, Ordering::SeqCst)) {
                        let result =
                            std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| work(dir)));
                        let result = result
                            .unwrap_or_else(|_| Some(Err(io::Error::other("the work panicked"))));
                        done.push((dir, result));
                    }
                    done
                })
            })
            .collect();
        workers
            .into_iter()
            .flat_map(|w| w.join().unwrap_or_default())
            .collect()
    });
    done.sort_by_key(|(dir, _)| *dir);
    done
}

/// What a stop left in their images, `late` (the working copies not copied back in time), as
/// one line: where, how much, and how to go on or give the room back.
fn left_in_images(late: &[PathBuf]) -> Option<String> {
    let folder = image_of(late.first()?).parent()?.to_path_buf();
    let bytes: u64 = late
        .iter()
        .filter_map(|w| fs::metadata(image_of(w)).ok())
        .map(|m| m.blocks() * 512)
        .sum();
    Some(format!(
        "stopped: {} working copies are left in their disk images in {} ({} MiB on disk, \
         unmounted), as they were; the series' or league's next run (take6 run --resume, \
         take6 league --league DIR) takes them back. To give the room back instead, remove \
         that folder (the bots' stored files go with it)",
        late.len(),
        folder.display(),
        bytes.div_ceil(1 << 20)
    ))
}

/// Warns of each special file left out of the copy of `workdir`, on stderr and in
/// `logs/controller.log`. The file's name is the bot's (made at run time): it is shown through
/// [`crate::untrusted`], as tracing's own escaping lets CR, SO, VT and bidi controls through.
fn warn_left_out(workdir: &Path, left_out: Vec<super::deep::LeftOut>) {
    for (path, kind) in left_out {
        tracing::warn!("{}", left_out_line(workdir, &path, kind));
    }
}

/// The line [`warn_left_out`] says of `path` (relative to `workdir`), inert.
fn left_out_line(workdir: &Path, path: &Path, kind: &str) -> String {
    use std::os::unix::ffi::OsStrExt;
    let mut line = workdir.as_os_str().as_bytes().to_vec();
    line.extend_from_slice(b": '");
    line.extend_from_slice(path.as_os_str().as_bytes());
    line.extend_from_slice(format!("' {kind}; left out of the working copy").as_bytes());
    crate::untrusted::terminal_bytes(&line)
}

/// Allocates the rest of the filled image `part` on the host's disk now, not as the bot writes:
/// a sparse image takes host blocks while the bot writes, which every other bot sees in
/// `statvfs` of a read-only system folder on the same file system (a channel between bots).
/// After the filling, not before: filling an allocated file converts its extents one written
/// block at a time, which took seconds for a tree thousands of folders deep. Where the file
/// system cannot allocate ahead, the image stays sparse; where it has no room, the image is not
/// made (an error).
fn allocate(part: &Path, size: u64) -> io::Result<()> {
    let allocated = fs::File::options().write(true).open(part).and_then(|file| {
        let len = i64::try_from(size).unwrap_or(i64::MAX);
        nix::fcntl::fallocate(&file, nix::fcntl::FallocateFlags::empty(), 0, len)
            .map_err(io::Error::from)
    });
    match allocated {
        Err(e)
            if matches!(
                e.kind(),
                io::ErrorKind::StorageFull | io::ErrorKind::QuotaExceeded
            ) =>
        {
            Err(io::Error::new(
                io::ErrorKind::StorageFull,
                format!("no room for a disk image of {} MiB ({e})", size / MIB),
            ))
        }
        Err(e) => {
            tracing::info!(
                "{}: not allocated ahead ({e}): a sparse image",
                part.display()
            );
            Ok(())
        }
        Ok(()) => Ok(()),
    }
}

/// The size of the image of a working copy whose bot's own files take `own` bytes in
/// `entries` files and folders, with the disk limit `disk_bytes` on top: what it takes on the
/// host's disk while its bot is seated.
pub fn image_bytes(own: u64, entries: u64, disk_bytes: u64) -> u64 {
    geometry(own, entries, disk_bytes).0
}

/// The image's size in bytes and its number of inodes, for a working copy of `bytes` (allocated)
/// in `entries` files and folders, and the disk limit `disk_bytes`.
fn geometry(bytes: u64, entries: u64, disk_bytes: u64) -> (u64, u64) {
    // One inode per 16 KiB of the limit (many small files), capped; each takes 256 bytes.
    let inodes = entries + 1024 + (disk_bytes / (16 << 10)).min(1 << 20);
    // Room for the copy as ext4 lays it out, the limit, and ext4's own records and reserve.
    let payload = bytes + bytes / 16 + disk_bytes + 8 * MIB;
    let size = (payload + payload / 16 + inodes * 256 + 8 * MIB).div_ceil(MIB) * MIB;
    (size, inodes)
}

/// Runs a tool to its end; its error output is the error.
fn run(command: &mut Command) -> io::Result<()> {
    let out = command.stdin(Stdio::null()).output()?;
    if out.status.success() {
        return Ok(());
    }
    let program = command.get_program().to_string_lossy().into_owned();
    Err(io::Error::other(format!(
        "{program} failed ({}): {}",
        out.status,
        String::from_utf8_lossy(&out.stderr).trim()
    )))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn images_are_beside_the_working_copies_where_no_bot_name_can_be() {
        let image = |w: &str| image_of(Path::new(w)).to_string_lossy().into_owned();
        assert_eq!(image("/r/s/work/pyheur"), "/r/s/work/.images/pyheur.ext4");
        assert_ne!(image("/r/s/work/a"), image("/r/s/work/a.ext4"));
    }

    #[test]
    fn an_image_holds_the_copy_and_the_limit_with_room_for_ext4_and_small_files() {
        let (size, inodes) = geometry(10 * MIB, 2000, 256 * MIB);
        assert_eq!(size % MIB, 0);
        assert!(size >= 10 * MIB + 256 * MIB + inodes * 256, "{size}");
        assert!(size <= 2 * (10 * MIB + 256 * MIB), "{size}: not much more");
        assert_eq!(inodes, 2000 + 1024 + 16384);
        // A huge limit does not ask for a huge inode table.
        let (_, inodes) = geometry(0, 0, 1 << 40);
        assert_eq!(inodes, 1024 + (1 << 20));
    }

    #[test]
    fn a_special_file_left_out_is_named_inert() {
        use std::os::unix::ffi::OsStrExt;
        let name = std::ffi::OsStr::from_bytes(b"d/p\r\x1b[2J\xe2\x80\xae\x0e\x0b\n\xff");
        assert_eq!(
            left_out_line(
                Path::new("/r/work/b"),
                Path::new(name),
                "is a FIFO (named pipe)"
            ),
            "/r/work/b: 'd/p\\r\\x1b[2J\\u{202e}\\x0e\\x0b\\n\\xff' is a FIFO (named pipe); left \
             out of the working copy"
        );
    }

    #[test]
    fn without_a_private_mount_namespace_there_is_no_disk_cap() {
        // Test threads never have one (it is made at the start of the take6 binary).
        let why = Images::probe(MIB).unwrap_err().0;
        assert!(why.contains("no private mount namespace"), "{why}");
    }
}
