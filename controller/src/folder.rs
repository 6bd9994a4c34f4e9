//! A bot's folder as a list of entries, walked once without following a symlink or opening
//! anything but a regular file, so that a stranger's folder can neither hang the controller (a
//! FIFO, socket or device is never opened: the bot is skipped, naming it), nor make it read
//! outside the folder (symlinks are copied and hashed as links, never followed), nor fill its
//! memory or the disk (files are streamed, holes of sparse files stay holes, data is capped).

use std::fs::{self, File};
use std::io;
use std::os::unix::fs::{FileExt, FileTypeExt, MetadataExt, OpenOptionsExt, PermissionsExt};
use std::path::{Path, PathBuf};

use nix::errno::Errno;
use nix::unistd::{Whence, lseek};
use sha2::{Digest, Sha256};

/// Most entries (files, folders, links) a bot folder may hold: walking more would take long
/// for no bot's benefit.
pub const MAX_ENTRIES: usize = 100_000;

/// Bytes read or written at a time while hashing and copying: memory stays small whatever the
/// size of a file.
const CHUNK: usize = 128 * 1024;

const MIB: f64 = 1024.0 * 1024.0;

/// What an entry of a bot folder is.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Kind {
    Dir {
        mode: u32,
    },
    File {
        mode: u32,
        size: u64,
    },
    /// A link, by its text; never followed.
    Symlink {
        target: PathBuf,
    },
}

/// One entry, by its path relative to the folder.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Entry {
    pub rel: PathBuf,
    pub kind: Kind,
}

/// Every entry below a folder, parents before children.
#[derive(Debug)]
pub struct Listing {
    root: PathBuf,
    root_mode: u32,
    entries: Vec<Entry>,
    data: u64,
    /// Further names of a file listed already (path, the first path), kept as hard links by
    /// [`Listing::copy_to`]: only in a bot's own folder ([`scan_own`]), where a file with a
    /// million names must not become a million copies.
    links: Vec<(PathBuf, PathBuf)>,
}

/// Why a folder cannot be used as a bot; each message says what to change.
#[derive(Debug, thiserror::Error)]
pub enum FolderError {
    #[error(
        "'{}' is a {kind}; a bot folder may hold only files, folders and symlinks (remove it)",
        path.display()
    )]
    Special { path: PathBuf, kind: &'static str },
    #[error(
        "the folder holds {:.1} MiB of data, more than --max-bot-mib {limit_mib} \
         (max_bot_mib in take6.toml); slim it down or raise the limit",
        *bytes as f64 / MIB
    )]
    TooLarge { bytes: u64, limit_mib: u64 },
    #[error("the folder holds more than {MAX_ENTRIES} files and folders; slim it down")]
    TooMany,
    #[error("'{}' changed while it was read; do not change bots/ during a series", path.display())]
    Changed { path: PathBuf },
    #[error("cannot read {}: {error}", path.display())]
    Read { path: PathBuf, error: io::Error },
    #[error("cannot write {}: {error}", path.display())]
    Write { path: PathBuf, error: io::Error },
}

fn read_err(path: &Path) -> impl FnOnce(io::Error) -> FolderError + '_ {
    move |error| FolderError::Read {
        path: path.to_path_buf(),
        error,
    }
}

fn write_err(path: &Path) -> impl FnOnce(io::Error) -> FolderError + '_ {
    move |error| FolderError::Write {
        path: path.to_path_buf(),
        error,
    }
}

/// The name of a special file's kind, for people.
fn special_kind(kind: fs::FileType) -> &'static str {
    if kind.is_fifo() {
        "FIFO (named pipe)"
    } else if kind.is_socket() {
        "socket"
    } else if kind.is_block_device() {
        "block device"
    } else if kind.is_char_device() {
        "character device"
    } else {
        "special file"
    }
}

/// Lists `root` (which may itself be a symlink to a folder) without opening any file. Special
/// files are refused, as is a folder holding more than `max_data` bytes of file data (counted
/// as allocated, so holes of sparse files do not count) or more than [`MAX_ENTRIES`] entries.
pub fn scan(root: &Path, max_data: u64) -> Result<Listing, FolderError> {
    walk(root, max_data, MAX_ENTRIES, None)
}

/// A special file left out of a listing: its path relative to the folder, and its kind.
pub type LeftOut = (PathBuf, &'static str);

/// Lists a folder a bot wrote itself (its working copy, to copy it back out of its disk image):
/// without a data or entry limit (the image bounded both), and with the special files the bot
/// made (a FIFO, a socket) left out and returned, instead of refusing the folder.
pub fn scan_own(root: &Path) -> Result<(Listing, Vec<LeftOut>), FolderError> {
    let mut left_out = Vec::new();
    let listing = walk(root, u64::MAX, usize::MAX, Some(&mut left_out))?;
    Ok((listing, left_out))
}

/// [`scan`] with its limits; special files are refused, or left out into `left_out`.
fn walk(
    root: &Path,
    max_data: u64,
    max_entries: usize,
    mut left_out: Option<&mut Vec<LeftOut>>,
) -> Result<Listing, FolderError> {
    let root_mode = fs::metadata(root).map_err(read_err(root))?.mode();
    let mut entries = Vec::new();
    let mut data = 0u64;
    let mut links = Vec::new();
    let mut first_names = std::collections::HashMap::new();
    let mut folders = vec![PathBuf::new()];
    while let Some(folder) = folders.pop() {
        let path = root.join(&folder);
        let mut items = Vec::new();
        for item in fs::read_dir(&path).map_err(read_err(&path))? {
            let item = item.map_err(read_err(&path))?;
            // `DirEntry::metadata` does not follow a symlink.
            let meta = item.metadata().map_err(read_err(&item.path()))?;
            items.push((folder.join(item.file_name()), meta));
        }
        items.sort_by(|a, b| a.0.cmp(&b.0));
        for (rel, meta) in items {
            let kind = meta.file_type();
            let kind = if kind.is_dir() {
                folders.push(rel.clone());
                Kind::Dir { mode: meta.mode() }
            } else if kind.is_file() && left_out.is_some() && meta.nlink() > 1 {
                if let Some(first) = first_names.get(&(meta.dev(), meta.ino())) {
                    links.push((rel, PathBuf::clone(first)));
                    continue;
                }
                first_names.insert((meta.dev(), meta.ino()), rel.clone());
                Kind::File {
                    mode: meta.mode(),
                    size: meta.len(),
                }
            } else if kind.is_file() {
                data = data.saturating_add(meta.len().min(meta.blocks().saturating_mul(512)));
                Kind::File {
                    mode: meta.mode(),
                    size: meta.len(),
                }
            } else if kind.is_symlink() {
                let target = fs::read_link(root.join(&rel)).map_err(read_err(&rel))?;
                Kind::Symlink { target }
            } else if let Some(left_out) = left_out.as_deref_mut() {
                left_out.push((rel, special_kind(kind)));
                continue;
            } else {
                return Err(FolderError::Special {
                    path: rel,
                    kind: special_kind(kind),
                });
            };
            entries.push(Entry { rel, kind });
            if entries.len() > max_entries {
                return Err(FolderError::TooMany);
            }
        }
    }
    if data > max_data {
        return Err(FolderError::TooLarge {
            bytes: data,
            limit_mib: max_data / (1024 * 1024),
        });
    }
    Ok(Listing {
        root: root.to_path_buf(),
        root_mode,
        entries,
        data,
        links,
    })
}

/// Opens a file that was listed as regular, refusing it if it is now anything else (a symlink
/// or a FIFO swapped in): `O_NOFOLLOW` and `O_NONBLOCK` make sure the open itself cannot
/// follow a link or wait for a writer.
fn open_regular(path: &Path) -> Result<File, FolderError> {
    let file = File::options()
        .read(true)
        .custom_flags(nix::libc::O_NOFOLLOW | nix::libc::O_NONBLOCK | nix::libc::O_NOCTTY)
        .open(path)
        .map_err(read_err(path))?;
    let meta = file.metadata().map_err(read_err(path))?;
    if !meta.is_file() {
        return Err(FolderError::Changed {
            path: path.to_path_buf(),
        });
    }
    Ok(file)
}

/// The text of a small regular file `rel` of the folder `folder` (`bot.toml`), read through
/// the door ([`crate::door::Folder`]: beneath the folder, no link followed, nothing but a
/// regular file) to at most `cap` bytes.
pub fn read_text(folder: &Path, rel: &Path, cap: u64) -> Result<String, FolderError> {
    let path = folder.join(rel);
    String::from_utf8(read_bytes(folder, rel, cap)?).map_err(|e| FolderError::Read {
        path,
        error: io::Error::new(io::ErrorKind::InvalidData, e.utf8_error()),
    })
}

/// The bytes of a small regular file `rel` of the folder `folder` (a source whose encoding is
/// unknown), read through the door as [`read_text`] does, to at most `cap` bytes.
pub fn read_bytes(folder: &Path, rel: &Path, cap: u64) -> Result<Vec<u8>, FolderError> {
    let path = folder.join(rel);
    crate::door::Folder::open(folder)
        .and_then(|f| f.head(rel, cap))
        .map_err(read_err(&path))
}

/// The `(offset, length)` runs of a file's first `size` bytes that hold data; the rest are
/// holes (read as zeros). A file system that cannot tell reports the whole file as data.
fn data_runs(file: &File, size: u64) -> io::Result<Vec<(u64, u64)>> {
    let size = i64::try_from(size).unwrap_or(i64::MAX);
    let mut runs = Vec::new();
    let mut at = 0i64;
    while at < size {
        let start = match lseek(file, at, Whence::SeekData) {
            Ok(start) => start,
            // No data after `at`: the rest is a hole.
            Err(Errno::ENXIO) => break,
            Err(Errno::EINVAL) if at == 0 => return Ok(vec![(0, size as u64)]),
            Err(e) => return Err(e.into()),
        };
        if start >= size {
            break;
        }
        let end = lseek(file, start, Whence::SeekHole)?.min(size);
        runs.push((start as u64, (end - start) as u64));
        at = end;
    }
    Ok(runs)
}

/// Calls `each` with consecutive chunks of the `len` bytes at `offset` of `file`.
fn read_run(
    file: &File,
    path: &Path,
    offset: u64,
    len: u64,
    buf: &mut [u8],
    mut each: impl FnMut(&[u8]) -> Result<(), FolderError>,
) -> Result<(), FolderError> {
    let mut done = 0u64;
    while done < len {
        let want = (len - done).min(buf.len() as u64) as usize;
        let n = file
            .read_at(&mut buf[..want], offset + done)
            .map_err(read_err(path))?;
        if n == 0 {
            return Err(FolderError::Changed {
                path: path.to_path_buf(),
            });
        }
        each(&buf[..n])?;
        done += n as u64;
    }
    Ok(())
}

impl Listing {
    /// Every entry, parents before children: what a folder without `launch` is recognised by
    /// (see `bots::generate`).
    pub fn entries(&self) -> &[Entry] {
        &self.entries
    }

    /// The kind of the entry at `rel` (e.g. `launch`), if there is one.
    pub fn kind_of(&self, rel: &str) -> Option<&Kind> {
        let rel = Path::new(rel);
        self.entries.iter().find(|e| e.rel == rel).map(|e| &e.kind)
    }

    /// Bytes of file data in the folder (holes not counted).
    pub fn data(&self) -> u64 {
        self.data
    }

    /// What the folder's working copy takes on a disk, at most: each entry a 4 KiB block, each
    /// file's data in whole blocks, and 64 KiB for the scripts take6 may write into the copy.
    /// The disk limit (`disk_mib`) is what a working copy may hold beyond this, over its life.
    pub fn footprint(&self) -> u64 {
        const BLOCK: u64 = 4096;
        let entries = self.entries.len() as u64 + self.links.len() as u64;
        let data: u64 = self
            .entries
            .iter()
            .map(|e| match e.kind {
                Kind::File { size, .. } => size.div_ceil(BLOCK) * BLOCK,
                _ => 0,
            })
            .sum();
        entries * BLOCK + data + 64 * 1024
    }

    /// SHA-256 over every file and symlink, in path order: its relative path, whether it is
    /// executable, and its bytes (a link: its text). A file with holes is hashed as its size
    /// and its data runs with their offsets, so a sparse file costs what its data costs.
    pub fn hash(&self) -> Result<String, FolderError> {
        self.read_each(None)
    }

    /// Copies the folder to `to` (created; its parent must exist): folders and files with
    /// their permission bits (set-user-ID and the like dropped), files by their data runs so
    /// holes stay holes, symlinks as links with the same text. Returns the [`Listing::hash`]
    /// of what was copied, hashed from the very bytes written as they are read (each file is
    /// read once): a file changed while the folder is read cannot be hashed as one content and
    /// copied as another.
    pub fn copy_to(&self, to: &Path) -> Result<String, FolderError> {
        fs::create_dir(to).map_err(write_err(to))?;
        for entry in &self.entries {
            if let Kind::Dir { .. } = entry.kind {
                let dst = to.join(&entry.rel);
                fs::create_dir(&dst).map_err(write_err(&dst))?;
            }
        }
        let hash = self.read_each(Some(to))?;
        for (link, first) in &self.links {
            let dst = to.join(link);
            fs::hard_link(to.join(first), &dst).map_err(write_err(&dst))?;
        }
        // Folder modes last, so a read-only folder of the bot's can still be filled.
        let folders = self.entries.iter().rev().filter_map(|e| match e.kind {
            Kind::Dir { mode } => Some((to.join(&e.rel), mode)),
            _ => None,
        });
        for (dst, mode) in folders.chain([(to.to_path_buf(), self.root_mode)]) {
            fs::set_permissions(&dst, fs::Permissions::from_mode(mode & 0o777))
                .map_err(write_err(&dst))?;
        }
        Ok(hash)
    }

    /// Reads every file and symlink once, in path order, hashing it as [`Listing::hash`]
    /// says and, with `to` (whose folders exist), writing it there as [`Listing::copy_to`]
    /// says, from the same bytes.
    fn read_each(&self, to: Option<&Path>) -> Result<String, FolderError> {
        let mut items: Vec<&Entry> = self
            .entries
            .iter()
            .filter(|e| !matches!(e.kind, Kind::Dir { .. }))
            .collect();
        items.sort_by(|a, b| a.rel.cmp(&b.rel));
        let mut hasher = Sha256::new();
        let mut buf = vec![0u8; CHUNK];
        for entry in items {
            hasher.update(entry.rel.to_string_lossy().as_bytes());
            let dst = to.map(|to| to.join(&entry.rel));
            match &entry.kind {
                Kind::Symlink { target } => {
                    hasher.update([0, 1]);
                    hasher.update(target.to_string_lossy().as_bytes());
                    if let Some(dst) = &dst {
                        std::os::unix::fs::symlink(target, dst).map_err(write_err(dst))?;
                    }
                }
                Kind::File { mode, size } => {
                    let path = self.root.join(&entry.rel);
                    let file = open_regular(&path)?;
                    let copy = dst.as_deref().map(create_file).transpose()?;
                    let runs = data_runs(&file, *size).map_err(read_err(&path))?;
                    let exec = u8::from(mode & 0o111 != 0);
                    let dense = runs.is_empty() && *size == 0 || runs == [(0, *size)];
                    if dense {
                        hasher.update([0, exec]);
                    } else {
                        hasher.update([0, 2 | exec]);
                        hasher.update(size.to_le_bytes());
                    }
                    for (offset, len) in runs {
                        if !dense {
                            hasher.update(offset.to_le_bytes());
                            hasher.update(len.to_le_bytes());
                        }
                        let mut at = offset;
                        read_run(&file, &path, offset, len, &mut buf, |chunk| {
                            hasher.update(chunk);
                            if let (Some(copy), Some(dst)) = (&copy, &dst) {
                                copy.write_all_at(chunk, at).map_err(write_err(dst))?;
                            }
                            at += chunk.len() as u64;
                            Ok(())
                        })?;
                    }
                    if let (Some(copy), Some(dst)) = (&copy, &dst) {
                        // Trailing holes.
                        copy.set_len(*size).map_err(write_err(dst))?;
                        fs::set_permissions(dst, fs::Permissions::from_mode(mode & 0o777))
                            .map_err(write_err(dst))?;
                    }
                }
                Kind::Dir { .. } => unreachable!("folders are filtered out"),
            }
            hasher.update([0]);
        }
        Ok(hasher
            .finalize()
            .iter()
            .map(|b| format!("{b:02x}"))
            .collect())
    }
}

/// Copies the `size` bytes of the open file `from` into the open, empty file `to`, holes kept
/// as holes (a sparse file stays sparse); `shown` names `from` in errors.
pub fn copy_data(
    from: &File,
    to: &File,
    size: u64,
    buf: &mut [u8],
    shown: &Path,
) -> io::Result<()> {
    for (offset, len) in data_runs(from, size)? {
        let mut at = offset;
        read_run(from, shown, offset, len, buf, |chunk| {
            to.write_all_at(chunk, at).map_err(write_err(shown))?;
            at += chunk.len() as u64;
            Ok(())
        })
        .map_err(io::Error::other)?;
    }
    // Trailing holes.
    to.set_len(size)
}

/// A new, empty file `dst` to copy into, readable and writable by take6 only until its mode
/// is set.
fn create_file(dst: &Path) -> Result<File, FolderError> {
    File::options()
        .write(true)
        .create_new(true)
        .mode(0o600)
        .custom_flags(nix::libc::O_NOFOLLOW)
        .open(dst)
        .map_err(write_err(dst))
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::os::unix::fs::symlink;

    fn write_mode(path: &Path, bytes: &[u8], mode: u32) {
        fs::write(path, bytes).unwrap();
        fs::set_permissions(path, fs::Permissions::from_mode(mode)).unwrap();
    }

    #[test]
    fn a_plain_folder_hashes_as_path_exec_bit_and_bytes_and_copies_with_modes_and_links() {
        let tmp = tempfile::tempdir().unwrap();
        let bot = tmp.path().join("bot");
        fs::create_dir_all(bot.join("sub")).unwrap();
        write_mode(&bot.join("launch"), b"#!/bin/sh\n", 0o4755);
        write_mode(&bot.join("sub/data"), b"xyz", 0o644);
        symlink("../launch", bot.join("sub/link")).unwrap();
        symlink("/etc/passwd", bot.join("outside")).unwrap();

        let listing = scan(&bot, 1 << 20).unwrap();
        assert_eq!(listing.data(), 13);
        let mut expect = Sha256::new();
        for (rel, flag, bytes) in [
            ("launch", 1u8, &b"#!/bin/sh\n"[..]),
            ("outside", 1, b"/etc/passwd"),
            ("sub/data", 0, b"xyz"),
            ("sub/link", 1, b"../launch"),
        ] {
            expect.update(rel.as_bytes());
            expect.update([0, flag]);
            expect.update(bytes);
            expect.update([0]);
        }
        let expect: String = expect
            .finalize()
            .iter()
            .map(|b| format!("{b:02x}"))
            .collect();
        assert_eq!(listing.hash().unwrap(), expect);

        let copy = tmp.path().join("copy");
        listing.copy_to(&copy).unwrap();
        let mode = |p: &str| fs::metadata(copy.join(p)).unwrap().mode() & 0o7777;
        assert_eq!(mode("launch"), 0o755, "set-user-ID dropped");
        assert_eq!(mode("sub/data"), 0o644);
        assert_eq!(
            fs::read_link(copy.join("outside")).unwrap(),
            Path::new("/etc/passwd"),
            "links are copied as links, never followed"
        );
        assert_eq!(fs::read(copy.join("sub/link")).unwrap(), b"#!/bin/sh\n");
        assert_eq!(scan(&copy, 1 << 20).unwrap().hash().unwrap(), expect);
    }

    #[test]
    fn a_file_swapped_between_the_listing_and_the_copy_is_hashed_as_copied() {
        let tmp = tempfile::tempdir().unwrap();
        let bot = tmp.path().join("bot");
        fs::create_dir_all(&bot).unwrap();
        fs::write(bot.join("data"), b"listed").unwrap();
        let listing = scan(&bot, 1 << 20).unwrap();
        let listed = listing.hash().unwrap();
        // Another content of the same size, renamed over the listed file.
        fs::write(tmp.path().join("other"), b"played").unwrap();
        fs::rename(tmp.path().join("other"), bot.join("data")).unwrap();
        let copy = tmp.path().join("copy");
        let hash = listing.copy_to(&copy).unwrap();
        assert_eq!(fs::read(copy.join("data")).unwrap(), b"played");
        assert_eq!(hash, scan(&copy, 1 << 20).unwrap().hash().unwrap());
        assert_ne!(hash, listed);
    }

    #[test]
    fn special_files_anywhere_are_refused_by_name_without_being_opened() {
        let tmp = tempfile::tempdir().unwrap();
        let bot = tmp.path().join("bot");
        fs::create_dir_all(bot.join("deep/er")).unwrap();
        fs::write(bot.join("launch"), "").unwrap();
        nix::unistd::mkfifo(&bot.join("deep/er/pipe"), nix::sys::stat::Mode::S_IRWXU).unwrap();
        let err = scan(&bot, 1 << 20).unwrap_err().to_string();
        assert!(err.contains("'deep/er/pipe' is a FIFO"), "{err}");

        let bot = tmp.path().join("sock");
        fs::create_dir_all(&bot).unwrap();
        let _socket = std::os::unix::net::UnixListener::bind(bot.join("s")).unwrap();
        let err = scan(&bot, 1 << 20).unwrap_err().to_string();
        assert!(err.contains("'s' is a socket"), "{err}");
    }

    #[test]
    fn a_bots_own_folder_is_listed_without_limits_and_its_special_files_left_out() {
        let tmp = tempfile::tempdir().unwrap();
        let own = tmp.path().join("own");
        fs::create_dir_all(own.join("deep")).unwrap();
        fs::write(own.join("deep/data"), vec![1u8; 3 << 20]).unwrap();
        nix::unistd::mkfifo(&own.join("deep/pipe"), nix::sys::stat::Mode::S_IRWXU).unwrap();
        let _socket = std::os::unix::net::UnixListener::bind(own.join("s")).unwrap();
        for i in 0..50 {
            fs::hard_link(own.join("deep/data"), own.join(format!("link{i}"))).unwrap();
        }
        let (listing, left_out) = scan_own(&own).unwrap();
        assert_eq!(
            left_out,
            [
                (PathBuf::from("s"), "socket"),
                (PathBuf::from("deep/pipe"), "FIFO (named pipe)")
            ]
        );
        let copy = tmp.path().join("copy");
        listing.copy_to(&copy).unwrap();
        assert_eq!(fs::read(copy.join("deep/data")).unwrap().len(), 3 << 20);
        // 50 more names of the file, not 50 more copies.
        let ino = |p: &str| fs::metadata(copy.join(p)).unwrap().ino();
        assert_eq!(ino("link7"), ino("deep/data"));
        assert_eq!(fs::metadata(copy.join("link49")).unwrap().nlink(), 51);
        assert!(fs::symlink_metadata(copy.join("deep/pipe")).is_err());
        assert!(fs::symlink_metadata(copy.join("s")).is_err());
    }

    #[test]
    fn data_over_the_limit_is_refused_naming_the_size_and_the_flag() {
        let tmp = tempfile::tempdir().unwrap();
        fs::write(tmp.path().join("big"), vec![7u8; 3 << 20]).unwrap();
        let err = scan(tmp.path(), 2 << 20).unwrap_err().to_string();
        assert!(
            err.contains("3.0 MiB") && err.contains("--max-bot-mib 2"),
            "{err}"
        );
        assert!(scan(tmp.path(), 4 << 20).is_ok());
    }

    #[test]
    fn a_sparse_file_is_counted_hashed_and_copied_by_its_data_and_stays_sparse() {
        const GIB: u64 = 1 << 30;
        let tmp = tempfile::tempdir().unwrap();
        let bot = tmp.path().join("bot");
        fs::create_dir_all(&bot).unwrap();
        let file = File::create(bot.join("sparse")).unwrap();
        file.set_len(GIB).unwrap();
        file.write_all_at(b"middle", GIB / 2).unwrap();
        drop(file);
        let allocated = |p: &Path| fs::metadata(p).unwrap().blocks() * 512;
        assert!(
            allocated(&bot.join("sparse")) <= 1 << 20,
            "the test file is sparse"
        );

        // 1 GiB apparent size, but within a 1 MiB limit: holes do not count.
        let listing = scan(&bot, 1 << 20).unwrap();
        assert!(listing.data() <= 1 << 20);
        let hash = listing.hash().unwrap();
        let copy = tmp.path().join("copy");
        listing.copy_to(&copy).unwrap();
        let copied = copy.join("sparse");
        assert_eq!(fs::metadata(&copied).unwrap().len(), GIB);
        assert!(
            allocated(&copied) <= 1 << 20,
            "holes stay holes: {} bytes allocated",
            allocated(&copied)
        );
        let mut middle = [0u8; 8];
        File::open(&copied)
            .unwrap()
            .read_exact_at(&mut middle, GIB / 2 - 1)
            .unwrap();
        assert_eq!(&middle, b"\0middle\0");
        assert_eq!(scan(&copy, 1 << 20).unwrap().hash().unwrap(), hash);

        // Different data at the same place is a different hash.
        File::options()
            .write(true)
            .open(&copied)
            .unwrap()
            .write_all_at(b"MIDDLE", GIB / 2)
            .unwrap();
        assert_ne!(scan(&copy, 1 << 20).unwrap().hash().unwrap(), hash);
    }
}
