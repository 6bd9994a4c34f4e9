//! Walking a working copy by descriptors, whatever its depth: copying it out of its disk image,
//! handing it to its bot's user, measuring it, removing it.
//!
//! A bot may make folders thousands deep; their paths pass the kernel's 4,096 bytes, so every
//! call that takes a whole path (and `cp -a`) fails with "File name too long". Here every call is
//! relative to an open folder (`openat`, `mkdirat`, `fstatat`, …) and takes one name. Only the
//! folder being worked on is open: going down opens the child and closes the parent, coming
//! back opens `..` again, so a tree 100,000 deep needs four descriptors, not one per level (the
//! usual limit is 1,024). Nothing else may change the tree meanwhile: it is a working copy whose
//! bot has been stopped (its processes killed), so `..` is the folder it came from.

use std::ffi::{OsStr, OsString};
use std::fs::File;
use std::os::fd::{AsFd, OwnedFd};
use std::os::unix::ffi::OsStrExt;
use std::path::{Path, PathBuf};

use nix::dir::Dir;
use nix::errno::Errno;
use nix::fcntl::{AtFlags, OFlag, openat, readlinkat};
use nix::sys::stat::{FchmodatFlags, FileStat, Mode, SFlag, fchmod, fchmodat, fstatat, mkdirat};
use nix::unistd::{Gid, Uid, UnlinkatFlags, fchownat, linkat, symlinkat, unlinkat};

/// How many bytes of paths the copy remembers, of files with several names whose other names it
/// has not met yet, to link those names to the first copy instead of copying the data again. A
/// path is forgotten once the file's last name is linked, so the memory is bounded whatever the
/// number of names; the names of a file met when the memory was full are copied as files of
/// their own, each counted against the copy's budget.
const LINKED_BYTES: usize = 4 << 20;

/// The longest path remembered for linking (linked by its path from the copy's root, well
/// within the kernel's 4,096 bytes).
const LINKED_PATH_MAX: usize = 2048;

/// A folder with more names than this, or a tree with more names of files with several names,
/// is copied into a new image by descriptors through a mount: `mkfs.ext4 -d` takes time in the
/// square of a folder's names (10,000 names in one folder 3 s, 20,000 10 s) and of the names of
/// linked files, the kernel's indexed folders do not.
pub const WIDE: u64 = 2000;

/// An entry left out of a copy: its path, and why (a clause after its name: "is a FIFO (named
/// pipe)").
pub type LeftOut = (PathBuf, &'static str);

/// Why an entry was left out of a copy back.
pub const PAST_THE_CAP: &str = "would take the working copy past the disk limit (its bot's own \
                                files and --disk-mib)";

fn io(e: Errno) -> std::io::Error {
    std::io::Error::from(e)
}

/// Opens folder `name` of `dir`, never through a symlink.
fn open_dir<Fd: AsFd>(dir: Fd, name: &std::ffi::OsStr) -> std::io::Result<OwnedFd> {
    openat(
        dir,
        name,
        OFlag::O_RDONLY | OFlag::O_DIRECTORY | OFlag::O_NOFOLLOW | OFlag::O_CLOEXEC,
        Mode::empty(),
    )
    .map_err(io)
}

/// The names in the folder `dir` (without `.` and `..`), sorted.
fn names(dir: &OwnedFd) -> std::io::Result<Vec<OsString>> {
    let mut listing = Dir::from_fd(open_dir(dir, std::ffi::OsStr::new("."))?).map_err(io)?;
    let mut names: Vec<OsString> = listing
        .iter()
        .filter_map(Result::ok)
        .map(|e| std::ffi::OsStr::from_bytes(e.file_name().to_bytes()).to_owned())
        .filter(|n| n != "." && n != "..")
        .collect();
    names.sort();
    Ok(names)
}

fn stat<Fd: AsFd>(dir: Fd, name: &std::ffi::OsStr) -> std::io::Result<FileStat> {
    fstatat(dir, name, AtFlags::AT_SYMLINK_NOFOLLOW).map_err(io)
}

fn kind(st: &FileStat) -> SFlag {
    SFlag::from_bits_truncate(st.st_mode & SFlag::S_IFMT.bits())
}

/// One folder being walked: what is left of its names, and where it is.
struct Level {
    names: std::vec::IntoIter<OsString>,
    rel: PathBuf,
    /// Its mode, set on the copy once the folder is filled.
    mode: u32,
}

/// A file with several names copied already: where its copy is (relative to the copy's root)
/// and how many of its names are still to be met.
struct Linked {
    path: PathBuf,
    left: u64,
}

/// How [`copy_into`] copies regular files: their owner, the files with several names copied
/// so far (to link their other names), the bytes the copy may still write, a buffer.
struct Files {
    uid: Option<Uid>,
    gid: Option<Gid>,
    /// The copy's root, which remembered paths are relative to.
    root: OwnedFd,
    linked: std::collections::HashMap<(u64, u64), Linked>,
    /// Bytes of the paths in `linked`.
    linked_bytes: usize,
    /// Bytes the copy may still write (allocated, as [`measure`] counts them); `None`: any.
    budget: Option<u64>,
    buf: Vec<u8>,
}

/// What an entry takes on a disk, as [`measure`] counts it.
fn cost(st: &FileStat) -> u64 {
    u64::try_from(st.st_blocks).unwrap_or(0) * 512
}

impl Files {
    /// Copies into the folder `root` as `uid` and `gid`, at most `budget` bytes.
    fn new(
        uid: Option<Uid>,
        gid: Option<Gid>,
        root: &OwnedFd,
        budget: Option<u64>,
    ) -> std::io::Result<Files> {
        Ok(Files {
            uid,
            gid,
            root: open_dir(root, std::ffi::OsStr::new("."))?,
            linked: Default::default(),
            linked_bytes: 0,
            budget,
            buf: vec![0u8; 1 << 16],
        })
    }

    /// Takes what the entry `st` costs from the budget; false (and nothing taken) if it does
    /// not fit.
    fn charge(&mut self, st: &FileStat) -> bool {
        match &mut self.budget {
            None => true,
            Some(left) => match left.checked_sub(cost(st)) {
                Some(rest) => {
                    *left = rest;
                    true
                }
                None => false,
            },
        }
    }

    /// Copies the regular file `name` of `src` (`st` its status, `rel` its path from the root)
    /// into `dst`, its mode kept, owned by the copy's owner: its data, holes kept, or, for a
    /// file with several names one of which was copied already, a link to that copy. Returns
    /// why it was left out instead, if it was.
    fn copy(
        &mut self,
        src: &OwnedFd,
        dst: &OwnedFd,
        name: &std::ffi::OsStr,
        st: &FileStat,
        rel: &Path,
    ) -> std::io::Result<Option<&'static str>> {
        let key = (st.st_dev, st.st_ino);
        if st.st_nlink > 1
            && let Some(first) = self.linked.get_mut(&key)
        {
            // Another name of a file copied already: linked by the first copy's path,
            // through folders this copy made (no link of the bot's among them).
            linkat(&self.root, &first.path, dst, name, AtFlags::empty()).map_err(io)?;
            first.left = first.left.saturating_sub(1);
            if first.left == 0 {
                let done = self.linked.remove(&key).expect("there");
                self.linked_bytes -= done.path.as_os_str().len();
            }
            return Ok(None);
        }
        if !self.charge(st) {
            return Ok(Some(PAST_THE_CAP));
        }
        let input = openat(
            src,
            name,
            OFlag::O_RDONLY | OFlag::O_NOFOLLOW | OFlag::O_CLOEXEC,
            Mode::empty(),
        )
        .map_err(io)?;
        let output = openat(
            dst,
            name,
            OFlag::O_WRONLY | OFlag::O_CREAT | OFlag::O_EXCL | OFlag::O_CLOEXEC,
            Mode::from_bits_truncate(0o600),
        )
        .map_err(io)?;
        let (input, output) = (File::from(input), File::from(output));
        // Holes stay holes: a sparse file of the bot's stays sparse.
        let size = u64::try_from(st.st_size).unwrap_or(0);
        crate::folder::copy_data(&input, &output, size, &mut self.buf, rel)?;
        fchmod(&output, Mode::from_bits_truncate(st.st_mode & 0o7777)).map_err(io)?;
        nix::unistd::fchown(&output, self.uid, self.gid).map_err(io)?;
        if st.st_nlink > 1 {
            self.remember(key, rel, st.st_nlink - 1);
        }
        Ok(None)
    }

    /// Remembers where the first name of a file with several names was copied, if the memory
    /// allows (if not, its other names are copied as files of their own, each counted).
    fn remember(&mut self, key: (u64, u64), rel: &Path, left: u64) {
        let len = rel.as_os_str().len();
        if len <= LINKED_PATH_MAX && self.linked_bytes + len <= LINKED_BYTES {
            self.linked_bytes += len;
            let path = rel.to_path_buf();
            self.linked.insert(key, Linked { path, left });
        }
    }
}

/// Copies the folder `from` (its files, folders and symlinks, modes kept) into the new folder
/// `to`, every entry owned by `owner`, files with several names linked once copied. Special
/// files are left out and returned, and so is every entry that would take what the copy writes
/// (counted as [`measure`] counts it) past `budget`, when there is one.
pub fn copy_tree(
    from: &Path,
    to: &Path,
    owner: u32,
    budget: Option<u64>,
) -> std::io::Result<Vec<LeftOut>> {
    std::fs::create_dir(to)?;
    copy_into(from, to, owner, budget)
}

/// [`copy_tree`] into the existing folder `to` (the root of a new file system, say), which
/// takes `from`'s mode and `owner`; `to` must not hold any of `from`'s names.
pub fn copy_into(
    from: &Path,
    to: &Path,
    owner: u32,
    budget: Option<u64>,
) -> std::io::Result<Vec<LeftOut>> {
    let (uid, gid) = (Some(Uid::from_raw(owner)), Some(Gid::from_raw(owner)));
    let root_mode = std::fs::symlink_metadata(from)?.permissions();
    let mut src = open_dir(nix::fcntl::AT_FDCWD, from.as_os_str())?;
    let mut dst = open_dir(nix::fcntl::AT_FDCWD, to.as_os_str())?;
    nix::unistd::fchown(&dst, uid, gid).map_err(io)?;
    let mut left_out = Vec::new();
    let mut files = Files::new(uid, gid, &dst, budget)?;
    let mut stack = vec![Level {
        names: names(&src)?.into_iter(),
        rel: PathBuf::new(),
        mode: std::os::unix::fs::PermissionsExt::mode(&root_mode),
    }];
    loop {
        let Some(name) = stack.last_mut().and_then(|l| l.names.next()) else {
            // This folder is done: its mode, then back up.
            let done = stack.pop().expect("not empty");
            fchmod(&dst, Mode::from_bits_truncate(done.mode & 0o7777)).map_err(io)?;
            if stack.is_empty() {
                break;
            }
            src = open_dir(&src, std::ffi::OsStr::new(".."))?;
            dst = open_dir(&dst, std::ffi::OsStr::new(".."))?;
            continue;
        };
        let st = stat(&src, &name)?;
        let rel = stack.last().expect("not empty").rel.join(&name);
        let chown = |dst: &OwnedFd| {
            fchownat(
                dst,
                name.as_os_str(),
                uid,
                gid,
                AtFlags::AT_SYMLINK_NOFOLLOW,
            )
            .map_err(io)
        };
        match kind(&st) {
            SFlag::S_IFDIR if !files.charge(&st) => left_out.push((rel, PAST_THE_CAP)),
            SFlag::S_IFDIR => {
                mkdirat(&dst, name.as_os_str(), Mode::from_bits_truncate(0o700)).map_err(io)?;
                chown(&dst)?;
                let child_src = open_dir(&src, &name)?;
                let child_dst = open_dir(&dst, &name)?;
                stack.push(Level {
                    names: names(&child_src)?.into_iter(),
                    rel,
                    mode: st.st_mode,
                });
                // Only the folder worked on stays open.
                src = child_src;
                dst = child_dst;
            }
            SFlag::S_IFREG => {
                if let Some(why) = files.copy(&src, &dst, &name, &st, &rel)? {
                    left_out.push((rel, why));
                }
            }
            SFlag::S_IFLNK if !files.charge(&st) => left_out.push((rel, PAST_THE_CAP)),
            SFlag::S_IFLNK => {
                let target = readlinkat(&src, name.as_os_str()).map_err(io)?;
                symlinkat(target.as_os_str(), &dst, name.as_os_str()).map_err(io)?;
                chown(&dst)?;
            }
            other => left_out.push((rel, special(other))),
        }
    }
    Ok(left_out)
}

/// Bytes allocated below the folder `path` (a file's once, whatever its number of names), its
/// entries, the most names in one of its folders and the names of its files with several
/// names: what its image holds, and what making it costs.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Shape {
    pub bytes: u64,
    pub entries: u64,
    pub widest: u64,
    pub linked: u64,
}

/// The [`Shape`] of the folder `path`, whatever its depth, without following links.
pub fn shape(path: &Path) -> std::io::Result<Shape> {
    let mut shape = Shape::default();
    // Names per folder, by the folder's inode.
    let mut widths: std::collections::HashMap<(u64, u64), u64> = Default::default();
    // Files with several names met so far: their blocks count once, as a copy writes them.
    let mut linked: std::collections::HashSet<(u64, u64)> = Default::default();
    // The folder itself is no link either: a working copy that is one is refused.
    let top = nix::fcntl::open(
        path,
        OFlag::O_RDONLY | OFlag::O_DIRECTORY | OFlag::O_NOFOLLOW | OFlag::O_CLOEXEC,
        Mode::empty(),
    )
    .map_err(io)?;
    walk(&top, |dir, _, st| {
        shape.entries += 1;
        if kind(st) == SFlag::S_IFREG && st.st_nlink > 1 {
            shape.linked += 1;
            if linked.insert((st.st_dev, st.st_ino)) {
                shape.bytes += cost(st);
            }
        } else {
            shape.bytes += cost(st);
        }
        let own = nix::sys::stat::fstat(dir).map_err(io)?;
        let key = (own.st_dev, own.st_ino);
        let width = widths.entry(key).or_default();
        *width += 1;
        shape.widest = shape.widest.max(*width);
        Ok(())
    })?;
    Ok(shape)
}

fn special(kind: SFlag) -> &'static str {
    match kind {
        SFlag::S_IFIFO => "is a FIFO (named pipe)",
        SFlag::S_IFSOCK => "is a socket",
        SFlag::S_IFCHR => "is a character device",
        SFlag::S_IFBLK => "is a block device",
        _ => "is a special file",
    }
}

/// Removes `name` of the folder `parent` (a file or link: unlinked, never followed; a folder:
/// it and everything in it, whatever its depth); folders a bot took the permissions off are
/// given them back first (the caller is root or their owner). Nothing of that name is fine.
pub fn remove_tree<Fd: AsFd>(parent: Fd, name: &OsStr) -> std::io::Result<()> {
    let parent = parent.as_fd();
    match stat(parent, name) {
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(()),
        Err(e) => return Err(e),
        Ok(st) if kind(&st) != SFlag::S_IFDIR => {
            return unlinkat(parent, name, UnlinkatFlags::NoRemoveDir).map_err(io);
        }
        Ok(_) => {}
    }
    // Opened up before it is opened (a folder without read or search permission cannot be).
    let open_up = Mode::from_bits_truncate(0o700);
    let _ = fchmodat(parent, name, open_up, FchmodatFlags::FollowSymlink);
    let mut dir = open_dir(parent, name)?;
    // Per level: the names left, and the folder's own name in its parent.
    let mut stack: Vec<(std::vec::IntoIter<OsString>, OsString)> =
        vec![(names(&dir)?.into_iter(), OsString::new())];
    loop {
        let Some(name_below) = stack.last_mut().and_then(|(names, _)| names.next()) else {
            let (_, own) = stack.pop().expect("not empty");
            if stack.is_empty() {
                drop(dir);
                return unlinkat(parent, name, UnlinkatFlags::RemoveDir).map_err(io);
            }
            // Empty now: up, and removed by its name there.
            dir = open_dir(&dir, OsStr::new(".."))?;
            unlinkat(&dir, own.as_os_str(), UnlinkatFlags::RemoveDir).map_err(io)?;
            continue;
        };
        if kind(&stat(&dir, &name_below)?) == SFlag::S_IFDIR {
            // A folder, as it was just seen: nothing else changes the tree meanwhile.
            let _ = fchmodat(
                &dir,
                name_below.as_os_str(),
                open_up,
                FchmodatFlags::FollowSymlink,
            );
            let child = open_dir(&dir, &name_below)?;
            stack.push((names(&child)?.into_iter(), name_below));
            dir = child;
        } else {
            unlinkat(&dir, name_below.as_os_str(), UnlinkatFlags::NoRemoveDir).map_err(io)?;
        }
    }
}

/// [`remove_tree`] of the last name of `path`, a path take6 made itself (a staging folder
/// beside an image, a temporary folder): its parent is opened by path, the rest by
/// descriptors. Nothing there (its parent included) is fine.
pub fn remove_path(path: &Path) -> std::io::Result<()> {
    let Some(name) = path.file_name() else {
        return Err(std::io::Error::other(format!(
            "{}: not a path take6 removes",
            path.display()
        )));
    };
    let parent = match path.parent() {
        Some(p) if !p.as_os_str().is_empty() => p,
        _ => Path::new("."),
    };
    match open_dir(nix::fcntl::AT_FDCWD, parent.as_os_str()) {
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(()),
        Err(e) => Err(e),
        Ok(parent) => remove_tree(&parent, name),
    }
}

/// Calls `each` with every entry below the open folder `dir`, whatever its depth: the open
/// folder it is in, its name and its status (a symlink's own, never followed). Folders are
/// entered after `each` has seen them; an entry gone by the time it is looked at is passed
/// over.
pub fn walk<Fd: AsFd>(
    dir: Fd,
    mut each: impl FnMut(&OwnedFd, &OsStr, &FileStat) -> std::io::Result<()>,
) -> std::io::Result<()> {
    let mut dir = open_dir(dir, OsStr::new("."))?;
    let mut stack = vec![names(&dir)?.into_iter()];
    loop {
        let Some(name) = stack.last_mut().and_then(Iterator::next) else {
            stack.pop();
            if stack.is_empty() {
                return Ok(());
            }
            dir = open_dir(&dir, OsStr::new(".."))?;
            continue;
        };
        let st = match stat(&dir, &name) {
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => continue,
            st => st?,
        };
        each(&dir, &name, &st)?;
        if kind(&st) == SFlag::S_IFDIR {
            let child = match open_dir(&dir, &name) {
                Err(e) if e.kind() == std::io::ErrorKind::NotFound => continue,
                child => child?,
            };
            stack.push(names(&child)?.into_iter());
            dir = child;
        }
    }
}

/// Gives the open folder `dir` and everything in it, whatever its depth, to `uid` (and the
/// same gid); symlinks themselves, never their targets.
pub fn chown_tree<Fd: AsFd>(dir: Fd, uid: u32) -> std::io::Result<()> {
    let (u, g) = (Some(Uid::from_raw(uid)), Some(Gid::from_raw(uid)));
    let dir = dir.as_fd();
    nix::unistd::fchown(dir, u, g).map_err(io)?;
    walk(dir, |dir, name, _| {
        fchownat(dir, name, u, g, AtFlags::AT_SYMLINK_NOFOLLOW).map_err(io)
    })
}

/// Bytes allocated below the open folder `dir` and the number of its entries, whatever its
/// depth, without following links.
pub fn measure<Fd: AsFd>(dir: Fd) -> std::io::Result<(u64, u64)> {
    let (mut bytes, mut entries) = (0u64, 0u64);
    walk(dir, |_, _, st| {
        bytes += st.st_blocks as u64 * 512;
        entries += 1;
        Ok(())
    })?;
    Ok((bytes, entries))
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::os::unix::fs::{MetadataExt, PermissionsExt};

    /// A chain of `depth` folders named `d` under `root`, a file at the bottom, made by
    /// descriptors (its path is too long for one call).
    fn deep(root: &Path, depth: usize) {
        let mut dir = open_dir(nix::fcntl::AT_FDCWD, root.as_os_str()).unwrap();
        for _ in 0..depth {
            mkdirat(&dir, "d", Mode::from_bits_truncate(0o755)).unwrap();
            dir = open_dir(&dir, std::ffi::OsStr::new("d")).unwrap();
        }
        let f = openat(
            &dir,
            "bottom.txt",
            OFlag::O_WRONLY | OFlag::O_CREAT,
            Mode::from_bits_truncate(0o640),
        )
        .unwrap();
        nix::unistd::write(&f, b"deep").unwrap();
        symlinkat("bottom.txt", &dir, "link").unwrap();
    }

    /// The file at the bottom of the chain under `root`.
    fn bottom(root: &Path, depth: usize) -> (String, u32, String) {
        let mut dir = open_dir(nix::fcntl::AT_FDCWD, root.as_os_str()).unwrap();
        for _ in 0..depth {
            dir = open_dir(&dir, std::ffi::OsStr::new("d")).unwrap();
        }
        let f = openat(&dir, "bottom.txt", OFlag::O_RDONLY, Mode::empty()).unwrap();
        let mut text = String::new();
        std::io::Read::read_to_string(&mut File::from(f), &mut text).unwrap();
        let mode = stat(&dir, std::ffi::OsStr::new("bottom.txt"))
            .unwrap()
            .st_mode
            & 0o777;
        let link = readlinkat(&dir, "link").unwrap();
        (text, mode, link.to_string_lossy().into_owned())
    }

    #[test]
    fn links_come_back_as_links_and_a_copy_writes_no_more_than_its_budget() {
        use std::os::unix::fs::MetadataExt;
        let tmp = tempfile::tempdir().unwrap();
        let (from, to) = (tmp.path().join("from"), tmp.path().join("to"));
        std::fs::create_dir_all(from.join("a")).unwrap();
        std::fs::create_dir_all(from.join("b")).unwrap();
        std::fs::write(from.join("a/one"), vec![1u8; 64 << 10]).unwrap();
        for name in ["b/one", "b/two", "c"] {
            std::fs::hard_link(from.join("a/one"), from.join(name)).unwrap();
        }
        std::fs::write(from.join("z-big"), vec![2u8; 1 << 20]).unwrap();
        let shape = shape(&from).unwrap();
        // The linked file's blocks once: its 64 KiB, the big file and the two folders.
        let blocks = |p: &str| std::fs::symlink_metadata(from.join(p)).unwrap().blocks() * 512;
        let once = blocks("a/one") + blocks("z-big") + blocks("a") + blocks("b");
        assert_eq!((shape.bytes, shape.entries, shape.linked), (once, 7, 4));
        assert_eq!(shape.widest, 4);
        // Room for everything but the big file.
        let left = copy_tree(&from, &to, 4242, Some(once - blocks("z-big"))).unwrap();
        assert_eq!(left, vec![(PathBuf::from("z-big"), PAST_THE_CAP)]);
        let first = std::fs::metadata(to.join("a/one")).unwrap();
        assert_eq!(first.nlink(), 4);
        for name in ["b/one", "b/two", "c"] {
            assert_eq!(std::fs::metadata(to.join(name)).unwrap().ino(), first.ino());
        }
    }

    #[test]
    fn a_tree_3000_deep_is_copied_chowned_and_removed() {
        let tmp = tempfile::tempdir().unwrap();
        let (from, to) = (tmp.path().join("from"), tmp.path().join("to"));
        std::fs::create_dir(&from).unwrap();
        deep(&from, 3000);
        // A FIFO is left out, and said.
        nix::unistd::mkfifo(&from.join("pipe"), Mode::from_bits_truncate(0o600)).unwrap();
        std::fs::set_permissions(&from, std::fs::Permissions::from_mode(0o751)).unwrap();
        let left = copy_tree(&from, &to, 4242, None).unwrap();
        assert_eq!(
            left,
            vec![(PathBuf::from("pipe"), "is a FIFO (named pipe)")]
        );
        assert_eq!(
            bottom(&to, 3000),
            ("deep".into(), 0o640, "bottom.txt".into())
        );
        assert_eq!(std::fs::metadata(&to).unwrap().mode() & 0o777, 0o751);
        assert_eq!(std::fs::metadata(to.join("d")).unwrap().uid(), 4242);
        let opened = open_dir(nix::fcntl::AT_FDCWD, to.as_os_str()).unwrap();
        chown_tree(&opened, 4343).unwrap();
        assert_eq!(std::fs::metadata(to.join("d/d")).unwrap().uid(), 4343);
        // 3,000 folders, the file and the link; at least a block per folder.
        let (bytes, entries) = measure(&opened).unwrap();
        assert_eq!(entries, 3002);
        assert!(bytes >= 3000 * 512, "{bytes}");
        remove_path(&from).unwrap();
        let top = open_dir(nix::fcntl::AT_FDCWD, tmp.path().as_os_str()).unwrap();
        remove_tree(&top, OsStr::new("to")).unwrap();
        assert!(!from.exists() && !to.exists());
    }

    #[test]
    fn a_link_is_removed_as_a_link_and_chown_and_measure_stay_beneath_the_folder() {
        let tmp = tempfile::tempdir().unwrap();
        let host = tmp.path().join("host");
        std::fs::create_dir_all(&host).unwrap();
        std::fs::write(host.join("secret"), "host secret").unwrap();
        let work = tmp.path().join("work");
        std::fs::create_dir_all(work.join("copy")).unwrap();
        std::os::unix::fs::symlink(&host, work.join("link")).unwrap();
        std::os::unix::fs::symlink(&host, work.join("copy/link")).unwrap();
        let opened = open_dir(nix::fcntl::AT_FDCWD, work.as_os_str()).unwrap();
        let copy = open_dir(&opened, OsStr::new("copy")).unwrap();
        // One entry: the link itself, its target not walked.
        assert_eq!(measure(&copy).unwrap().1, 1);
        if nix::unistd::geteuid().is_root() {
            chown_tree(&copy, 4242).unwrap();
            assert_eq!(std::fs::metadata(host.join("secret")).unwrap().uid(), 0);
            assert_eq!(std::fs::metadata(&host).unwrap().uid(), 0);
        }
        remove_tree(&opened, OsStr::new("link")).unwrap();
        remove_tree(&opened, OsStr::new("copy")).unwrap();
        assert_eq!(
            std::fs::read_to_string(host.join("secret")).unwrap(),
            "host secret"
        );
        assert!(!work.join("link").exists() && !work.join("copy").exists());
    }
}
