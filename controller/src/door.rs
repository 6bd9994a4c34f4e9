//! The one door for files in folders that others control: a bot's working copy (the bot
//! writes there while it runs), a repository's checkout, a results folder handed over by
//! someone else, a game folder. Every file take6 opens, reads, writes, renames or removes in
//! such a folder goes through a [`Folder`], the folder opened once, and then:
//!
//! - **no link is followed**: paths below it are resolved with `openat2(RESOLVE_BENEATH |
//!   RESOLVE_NO_SYMLINKS | RESOLVE_NO_MAGICLINKS)`, or, where the kernel has no `openat2`
//!   (before Linux 5.6, or a seccomp filter that hides it), one name at a time with
//!   `O_NOFOLLOW`; `..` and absolute paths are refused before anything is opened;
//! - **nothing blocks**: every file is opened `O_NONBLOCK` and then `fstat`ed: anything but a
//!   regular file (a FIFO, a socket, a device) is refused with what it is;
//! - **nothing is read past a cap** the caller states;
//! - **nothing is written in place but a file of one name**: a file take6 writes whole is
//!   created fresh (`O_CREAT | O_EXCL | O_NOFOLLOW`) under a name no bot can predict (128
//!   random bits) and renamed over the old one; a file appended to (a log) must be a regular
//!   file with no other name (a hard link is refused).
//!
//! A refusal is an [`std::io::Error`] whose message says why (what the file is, or that a link
//! was met), so callers keep their own error types, which name the file.

use std::ffi::{OsStr, OsString};
use std::fs::File;
use std::io::{self, Read, Write};
use std::os::fd::{AsFd, AsRawFd, OwnedFd};
use std::path::{Component, Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};

use nix::errno::Errno;
use nix::fcntl::{AtFlags, OFlag, OpenHow, ResolveFlag, openat, openat2, renameat};
use nix::sys::stat::{FileStat, Mode, SFlag, fstat, fstatat, mkdirat};
use nix::unistd::{UnlinkatFlags, unlinkat};

/// Set once `openat2` answered `ENOSYS` (or refused as a seccomp filter does): every later
/// open walks one name at a time instead.
static NO_OPENAT2: AtomicBool = AtomicBool::new(false);

/// A folder opened once; every path below it is resolved relative to its descriptor.
#[derive(Debug)]
pub struct Folder {
    fd: OwnedFd,
    path: PathBuf,
}

/// Why a file is refused, in words (the caller names the file: its own errors say which
/// path they could not read or write).
fn refused(why: impl std::fmt::Display) -> io::Error {
    io::Error::new(io::ErrorKind::InvalidData, why.to_string())
}

/// What a file's type is, in words, for a refusal.
fn kind_name(st: &FileStat) -> &'static str {
    match SFlag::from_bits_truncate(st.st_mode & SFlag::S_IFMT.bits()) {
        SFlag::S_IFREG => "a regular file",
        SFlag::S_IFDIR => "a folder",
        SFlag::S_IFIFO => "a FIFO (named pipe)",
        SFlag::S_IFSOCK => "a socket",
        SFlag::S_IFCHR => "a character device",
        SFlag::S_IFBLK => "a block device",
        SFlag::S_IFLNK => "a symbolic link",
        _ => "a special file",
    }
}

fn is_regular(st: &FileStat) -> bool {
    st.st_mode & SFlag::S_IFMT.bits() == SFlag::S_IFREG.bits()
}

/// The names of a relative path, refusing `..`, an absolute path and an empty one.
fn names(rel: &Path) -> io::Result<Vec<&OsStr>> {
    let mut out = Vec::new();
    for c in rel.components() {
        match c {
            Component::Normal(n) => out.push(n),
            Component::CurDir => {}
            _ => {
                return Err(refused(
                    "take6 opens only paths below the folder (no '..', not absolute)",
                ));
            }
        }
    }
    if out.is_empty() {
        return Err(refused("an empty path names no file"));
    }
    Ok(out)
}

impl Folder {
    /// Opens the folder at `path`, a path the person at the keyboard gave or take6 made (it
    /// may pass through links: only what is below it is resolved without them).
    pub fn open(path: &Path) -> io::Result<Folder> {
        let fd = nix::fcntl::open(
            path,
            OFlag::O_RDONLY | OFlag::O_DIRECTORY | OFlag::O_CLOEXEC | OFlag::O_NONBLOCK,
            Mode::empty(),
        )
        .map_err(|e| {
            io::Error::new(
                io::Error::from(e).kind(),
                format!("{}: {e}", path.display()),
            )
        })?;
        Ok(Folder {
            fd,
            path: path.to_path_buf(),
        })
    }

    /// The path it was opened at, for messages.
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// The folder `rel` below this one, opened without following a link.
    pub fn folder(&self, rel: &Path) -> io::Result<Folder> {
        let fd = match self.open_at(rel, OFlag::O_RDONLY | OFlag::O_DIRECTORY, Mode::empty()) {
            // A link as the last name is "not a folder" to `O_NOFOLLOW | O_DIRECTORY`: said as
            // the link it is.
            Err(e)
                if e.raw_os_error() == Some(Errno::ENOTDIR as i32)
                    && self.kind_of(rel).ok().flatten() == Some("a symbolic link") =>
            {
                return Err(Folder::explain(Errno::ELOOP));
            }
            other => other?,
        };
        Ok(Folder {
            fd,
            path: self.path.join(rel),
        })
    }

    /// Opens `rel` below this folder with `flags` (`O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK |
    /// O_NOCTTY` added), no link followed on the way. A link is refused with the reason.
    fn open_at(&self, rel: &Path, flags: OFlag, mode: Mode) -> io::Result<OwnedFd> {
        let names = names(rel)?;
        let flags =
            flags | OFlag::O_CLOEXEC | OFlag::O_NOFOLLOW | OFlag::O_NONBLOCK | OFlag::O_NOCTTY;
        let opened = if NO_OPENAT2.load(Ordering::Relaxed) {
            Err(Errno::ENOSYS)
        } else {
            let how = OpenHow::new().flags(flags).mode(mode).resolve(
                ResolveFlag::RESOLVE_BENEATH
                    | ResolveFlag::RESOLVE_NO_SYMLINKS
                    | ResolveFlag::RESOLVE_NO_MAGICLINKS,
            );
            openat2(&self.fd, rel, how)
        };
        let opened = match opened {
            Err(Errno::ENOSYS | Errno::EPERM) if !NO_OPENAT2.load(Ordering::Relaxed) => {
                NO_OPENAT2.store(true, Ordering::Relaxed);
                walk(&self.fd, &names, flags, mode)
            }
            Err(Errno::ENOSYS) => walk(&self.fd, &names, flags, mode),
            other => other,
        };
        opened.map_err(Folder::explain)
    }

    /// An error of opening a file in words: a link, a way out, a FIFO with no reader.
    fn explain(e: Errno) -> io::Error {
        match e {
            Errno::ELOOP => refused(
                "a symbolic link (or a path through one): take6 follows no link in a folder a \
                 bot, a repository or a results folder controls",
            ),
            Errno::EXDEV => refused("leads out of the folder: refused"),
            Errno::ENXIO => refused(
                "a FIFO or socket, not a regular file: take6 opens only regular files there",
            ),
            e => io::Error::from(e),
        }
    }

    /// Opens `rel` for reading: a regular file, or refused with what it is.
    pub fn open_read(&self, rel: &Path) -> io::Result<File> {
        let fd = self.open_at(rel, OFlag::O_RDONLY, Mode::empty())?;
        regular(fd)
    }

    /// The whole of `rel`, refused when larger than `cap` bytes.
    pub fn read(&self, rel: &Path, cap: u64) -> io::Result<Vec<u8>> {
        let file = self.open_read(rel)?;
        let mut bytes = Vec::new();
        file.take(cap.saturating_add(1)).read_to_end(&mut bytes)?;
        if bytes.len() as u64 > cap {
            return Err(refused(format!(
                "larger than the {cap} bytes take6 reads of it"
            )));
        }
        Ok(bytes)
    }

    /// [`Folder::read`], with a file that is not there as `None`.
    pub fn read_if_any(&self, rel: &Path, cap: u64) -> io::Result<Option<Vec<u8>>> {
        match self.read(rel, cap) {
            Ok(bytes) => Ok(Some(bytes)),
            Err(e) if e.kind() == io::ErrorKind::NotFound => Ok(None),
            Err(e) => Err(e),
        }
    }

    /// `rel`'s first `cap` bytes (no error when it is longer).
    pub fn head(&self, rel: &Path, cap: u64) -> io::Result<Vec<u8>> {
        let mut bytes = Vec::new();
        self.open_read(rel)?.take(cap).read_to_end(&mut bytes)?;
        Ok(bytes)
    }

    /// Opens `rel` for appending, made if absent: a regular file with one name (a hard link
    /// could name a file elsewhere), or refused.
    pub fn open_append(&self, rel: &Path) -> io::Result<File> {
        let fd = self.open_at(
            rel,
            OFlag::O_WRONLY | OFlag::O_APPEND | OFlag::O_CREAT,
            Mode::from_bits_truncate(0o644),
        )?;
        one_name(regular(fd)?)
    }

    /// Opens `rel` for writing, made if absent, without truncating it: a regular file with one
    /// name, or refused (a lock file).
    pub fn open_write(&self, rel: &Path) -> io::Result<File> {
        let fd = self.open_at(
            rel,
            OFlag::O_WRONLY | OFlag::O_CREAT,
            Mode::from_bits_truncate(0o644),
        )?;
        one_name(regular(fd)?)
    }

    /// Creates `rel` afresh: refused if anything (a link included) has that name.
    pub fn create_new(&self, rel: &Path, mode: u32) -> io::Result<File> {
        let fd = self.open_at(
            rel,
            OFlag::O_WRONLY | OFlag::O_CREAT | OFlag::O_EXCL,
            Mode::from_bits_truncate(mode),
        )?;
        let file = File::from(fd);
        clear_nonblock(&file)?;
        Ok(file)
    }

    /// Replaces `rel` with `bytes`: written into a file made fresh under a name no one can
    /// guess, beside it, then renamed over it (whatever it was, a link included, is replaced,
    /// never followed). A reader sees the old file or the new one; with `durable` the data is
    /// on disk before the rename. The new file belongs to the folder's owner.
    pub fn replace(&self, rel: &Path, bytes: &[u8], durable: bool) -> io::Result<()> {
        let (parent, name) = self.parent_of(rel)?;
        let temp = temp_name(name);
        let write = || -> io::Result<()> {
            let mut file = parent.create_new(Path::new(&temp), 0o644)?;
            // Owned as the folder is, so a bot's working copy stays all its own.
            let st = fstat(&parent.fd).map_err(io::Error::from)?;
            if nix::unistd::geteuid().is_root() {
                let _ = nix::unistd::fchown(
                    &file,
                    Some(nix::unistd::Uid::from_raw(st.st_uid)),
                    Some(nix::unistd::Gid::from_raw(st.st_gid)),
                );
            }
            file.write_all(bytes)?;
            if durable {
                file.sync_data()?;
            }
            renameat(&parent.fd, temp.as_os_str(), &parent.fd, name).map_err(io::Error::from)
        };
        write().inspect_err(|_| {
            let _ = unlinkat(&parent.fd, temp.as_os_str(), UnlinkatFlags::NoRemoveDir);
        })
    }

    /// Removes the file (or link: never followed) `rel`.
    pub fn remove(&self, rel: &Path) -> io::Result<()> {
        let (parent, name) = self.parent_of(rel)?;
        unlinkat(&parent.fd, name, UnlinkatFlags::NoRemoveDir).map_err(Folder::explain)
    }

    /// Makes the folder `rel` (its parent must exist); one that exists already is fine, a
    /// link or file of that name is refused.
    pub fn make_folder(&self, rel: &Path) -> io::Result<Folder> {
        let (parent, name) = self.parent_of(rel)?;
        match mkdirat(&parent.fd, name, Mode::from_bits_truncate(0o755)) {
            Ok(()) | Err(Errno::EEXIST) => self.folder(rel),
            Err(e) => Err(Folder::explain(e)),
        }
    }

    /// What `rel` is, without following a link; `None` when nothing has that name.
    pub fn kind_of(&self, rel: &Path) -> io::Result<Option<&'static str>> {
        let (parent, name) = self.parent_of(rel)?;
        match fstatat(&parent.fd, name, AtFlags::AT_SYMLINK_NOFOLLOW) {
            Ok(st) => Ok(Some(kind_name(&st))),
            Err(Errno::ENOENT) => Ok(None),
            Err(e) => Err(Folder::explain(e)),
        }
    }

    /// The regular files directly in this folder, by name, sorted (links, folders and special
    /// files are left out: none is followed or opened).
    pub fn files(&self) -> io::Result<Vec<OsString>> {
        use std::os::unix::ffi::OsStrExt;
        let mut listing = nix::dir::Dir::from_fd(self.fd.try_clone()?).map_err(io::Error::from)?;
        let mut names = Vec::new();
        for entry in listing.iter() {
            let entry = entry.map_err(io::Error::from)?;
            let name = OsStr::from_bytes(entry.file_name().to_bytes());
            if name == "." || name == ".." {
                continue;
            }
            if fstatat(&self.fd, name, AtFlags::AT_SYMLINK_NOFOLLOW).is_ok_and(|st| is_regular(&st))
            {
                names.push(name.to_owned());
            }
        }
        names.sort();
        Ok(names)
    }

    /// The folder holding `rel` (opened without links) and `rel`'s last name.
    fn parent_of<'a>(&self, rel: &'a Path) -> io::Result<(Folder, &'a OsStr)> {
        let names = names(rel)?;
        let (name, up) = names.split_last().expect("names() is never empty");
        let parent = if up.is_empty() {
            self.try_clone()?
        } else {
            self.folder(&up.iter().collect::<PathBuf>())?
        };
        Ok((parent, name))
    }

    fn try_clone(&self) -> io::Result<Folder> {
        Ok(Folder {
            fd: self.fd.try_clone()?,
            path: self.path.clone(),
        })
    }
}

/// `path`'s folder and its last name, for the functions that take a file's whole path (the
/// folder is one the caller named or made: it is opened by path, the name beneath it).
fn split(path: &Path) -> io::Result<(&Path, &Path)> {
    let (Some(parent), Some(name)) = (path.parent(), path.file_name()) else {
        return Err(io::Error::other(format!(
            "{}: not a file's path",
            path.display()
        )));
    };
    let parent = if parent.as_os_str().is_empty() {
        Path::new(".")
    } else {
        parent
    };
    Ok((parent, Path::new(name)))
}

/// The file at `path` opened for reading through the door of its folder (a file at the top
/// of a series folder, say): a regular file, not a link.
pub fn open_path(path: &Path) -> io::Result<File> {
    let (folder, name) = split(path)?;
    Folder::open(folder)?.open_read(name)
}

/// The file at `path` opened for appending through the door of its folder
/// ([`Folder::open_append`]).
pub fn append_path(path: &Path) -> io::Result<File> {
    let (folder, name) = split(path)?;
    Folder::open(folder)?.open_append(name)
}

/// The file at `path` opened for writing in place (not truncated) through the door of its
/// folder ([`Folder::open_write`]).
pub fn write_path(path: &Path) -> io::Result<File> {
    let (folder, name) = split(path)?;
    Folder::open(folder)?.open_write(name)
}

/// The file at `path` made afresh through the door of its folder: whatever had its name (a
/// link included, never followed) is removed first, then a new file is created there.
pub fn create_path(path: &Path) -> io::Result<File> {
    let (folder, name) = split(path)?;
    let folder = Folder::open(folder)?;
    match folder.remove(name) {
        Err(e) if e.kind() != io::ErrorKind::NotFound => return Err(e),
        _ => {}
    }
    folder.create_new(name, 0o644)
}

/// Removes the file (or link: never followed) at `path`, through the door of its folder.
pub fn remove_path(path: &Path) -> io::Result<()> {
    let (folder, name) = split(path)?;
    Folder::open(folder)?.remove(name)
}

/// [`Folder::replace`] of the file at `path`, through the door of its folder.
pub fn replace_path(path: &Path, bytes: &[u8], durable: bool) -> io::Result<()> {
    let (folder, name) = split(path)?;
    Folder::open(folder)?.replace(name, bytes, durable)
}

/// `e` with `path` in front, for an error of a folder opened below another.
fn at(path: &Path, e: io::Error) -> io::Error {
    io::Error::new(e.kind(), format!("{}: {e}", path.display()))
}

/// The folder `work` holding the working copy `workdir` (`<series>/work/<bot>`), opened from
/// its series folder's descriptor with no link followed, and the copy's name in it. The
/// series folder is opened by path (the one take6 made, or the one the person at the
/// keyboard named); `work`, being a link, is refused with the reason: a results or league
/// folder may come from anyone.
pub fn work_of(workdir: &Path) -> io::Result<(Folder, OsString)> {
    let (work, name) = split(workdir)?;
    let (series, work_name) = split(work)?;
    let work = Folder::open(series)?
        .folder(work_name)
        .map_err(|e| at(work, e))?;
    Ok((work, name.as_os_str().to_owned()))
}

/// The working copy `workdir` (`<series>/work/<bot>`) opened from its series folder's
/// descriptor, no link followed on the way ([`work_of`]): a copy that is a link is refused.
pub fn working_copy(workdir: &Path) -> io::Result<Folder> {
    let (work, name) = work_of(workdir)?;
    let copy = work.folder(Path::new(&name)).map_err(|e| at(workdir, e))?;
    Ok(Folder {
        fd: copy.fd,
        path: workdir.to_path_buf(),
    })
}

/// What is there of a working copy: its folder, its disk image (after a crash the copy may
/// be in its image only).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct CopyThere {
    pub folder: bool,
    pub image: bool,
}

impl CopyThere {
    /// Either is there.
    pub fn any(self) -> bool {
        self.folder || self.image
    }
}

/// What is there of the working copy `workdir`, as a folder and as its disk image `image` (a
/// file of `workdir`'s `work` folder, `.images/<bot>.ext4`), seen from the series folder's
/// descriptor with no link followed. A link (or anything but a folder, or a file for the
/// image) in their place is refused with what it is: take6 follows no link in a results or
/// league folder, and uses nothing it would have to.
pub fn working_copy_there(workdir: &Path, image: &Path) -> io::Result<CopyThere> {
    let mut there = CopyThere {
        folder: false,
        image: false,
    };
    let (work, name) = match work_of(workdir) {
        Err(e) if e.kind() == io::ErrorKind::NotFound => return Ok(there),
        other => other?,
    };
    let no_link = |path: &Path, what: &str| {
        at(
            path,
            refused(format!(
                "{what}: take6 follows no link and uses nothing but the folders and files it \
                 makes in a results or league folder (remove it, or start a new series)"
            )),
        )
    };
    match work.kind_of(Path::new(&name))? {
        Some("a folder") => there.folder = true,
        None => {}
        Some(other) => return Err(no_link(workdir, other)),
    }
    let Ok(rel) = image.strip_prefix(work.path()) else {
        return Ok(there);
    };
    match work.kind_of(rel) {
        Ok(Some("a regular file")) => there.image = true,
        Ok(None) => {}
        Err(e) if e.kind() == io::ErrorKind::NotFound => {}
        Ok(Some(other)) => return Err(no_link(image, other)),
        Err(e) => return Err(at(image, e)),
    }
    Ok(there)
}

/// A name beside `name` that no one can predict: `.<name>.<32 hex digits>.partial`.
fn temp_name(name: &OsStr) -> OsString {
    let mut temp = OsString::from(".");
    temp.push(name);
    temp.push(format!(".{:032x}.partial", rand::random::<u128>()));
    temp
}

/// Opens the names one at a time below `dir`, each with `O_NOFOLLOW` (folders with
/// `O_DIRECTORY`), the last with `flags`: a link anywhere is `ELOOP` (or `ENOTDIR`).
fn walk(dir: &OwnedFd, names: &[&OsStr], flags: OFlag, mode: Mode) -> Result<OwnedFd, Errno> {
    let (last, up) = names.split_last().ok_or(Errno::EINVAL)?;
    let mut at: Option<OwnedFd> = None;
    for name in up {
        let next = openat(
            at.as_ref().map_or(dir.as_fd(), |d| d.as_fd()),
            *name,
            OFlag::O_RDONLY
                | OFlag::O_DIRECTORY
                | OFlag::O_NOFOLLOW
                | OFlag::O_CLOEXEC
                | OFlag::O_NONBLOCK,
            Mode::empty(),
        )
        .map_err(|e| {
            if e == Errno::ENOTDIR {
                link_or(e, &at, dir, name)
            } else {
                e
            }
        })?;
        at = Some(next);
    }
    let parent = at.as_ref().map_or(dir.as_fd(), |d| d.as_fd());
    openat(parent, *last, flags, mode)
}

/// `ENOTDIR` from a name that is a link reads as `ELOOP`, as `openat2` says it.
fn link_or(e: Errno, at: &Option<OwnedFd>, dir: &OwnedFd, name: &OsStr) -> Errno {
    let parent = at.as_ref().map_or(dir.as_fd(), |d| d.as_fd());
    match fstatat(parent, name, AtFlags::AT_SYMLINK_NOFOLLOW) {
        Ok(st) if st.st_mode & SFlag::S_IFMT.bits() == SFlag::S_IFLNK.bits() => Errno::ELOOP,
        _ => e,
    }
}

/// The file `fd` if it is a regular one (blocking again, as regular files never block);
/// refused with what it is otherwise.
fn regular(fd: OwnedFd) -> io::Result<File> {
    let st = fstat(&fd).map_err(io::Error::from)?;
    if !is_regular(&st) {
        return Err(refused(format!(
            "{}, not a regular file: take6 opens only regular files there",
            kind_name(&st)
        )));
    }
    let file = File::from(fd);
    clear_nonblock(&file)?;
    Ok(file)
}

/// A file to write in place must have one name: a second name (a hard link) could be a file
/// of someone else's elsewhere.
fn one_name(file: File) -> io::Result<File> {
    let st = fstat(&file).map_err(io::Error::from)?;
    if st.st_nlink > 1 {
        return Err(refused(
            "has other names (hard links): take6 writes in place only a file of one name",
        ));
    }
    Ok(file)
}

fn clear_nonblock(file: &File) -> io::Result<()> {
    use nix::fcntl::{FcntlArg, fcntl};
    let flags = fcntl(file, FcntlArg::F_GETFL).map_err(io::Error::from)?;
    let flags = OFlag::from_bits_truncate(flags) & !OFlag::O_NONBLOCK;
    fcntl(file, FcntlArg::F_SETFL(flags)).map_err(io::Error::from)?;
    Ok(())
}

/// The raw descriptor, for `flock` and the like.
impl AsFd for Folder {
    fn as_fd(&self) -> std::os::fd::BorrowedFd<'_> {
        self.fd.as_fd()
    }
}

impl AsRawFd for Folder {
    fn as_raw_fd(&self) -> std::os::fd::RawFd {
        self.fd.as_raw_fd()
    }
}

#[cfg(test)]
mod tests;
