//! The folder of one series' results and the file operations every sink relies on: atomic
//! replacement of whole files and the lock that keeps two runs out of one folder.

use std::fs::{self, File};
use std::io;
use std::path::{Path, PathBuf};
use std::time::SystemTime;

use super::SeriesError;
use crate::door::Folder;

/// The file name of the game log in a series folder.
pub const GAMES: &str = "games.jsonl";
/// The file name of the leaderboard in a series folder.
pub const LEADERBOARD: &str = "leaderboard.csv";
/// The file name of the manifest in a series folder.
pub const MANIFEST: &str = "series.toml";
/// The folder under the results folder that holds `take6 check`'s series.
pub const CHECKS: &str = "checks";
/// The folder under the results folder that holds `take6 play`'s series.
pub const PLAYS: &str = "plays";
/// Held (flock) by the one process playing a series, so a second `--resume` cannot play the
/// same games at the same time.
const LOCK: &str = "series.lock";
/// How long a held lock is waited for before the folder counts as busy.
const LOCK_PATIENCE: std::time::Duration = std::time::Duration::from_secs(3);

pub(crate) fn write_err(path: &Path) -> impl FnOnce(io::Error) -> SeriesError + '_ {
    move |error| SeriesError::Write {
        path: path.to_path_buf(),
        error,
    }
}

pub(crate) fn read_err(path: &Path) -> impl FnOnce(io::Error) -> SeriesError + '_ {
    move |error| SeriesError::Read {
        path: path.to_path_buf(),
        error,
    }
}

/// The folder of one series' results: `<results>/<id>/`, the id made from the UTC start time.
#[derive(Debug, Clone)]
pub struct SeriesDir {
    pub id: String,
    pub path: PathBuf,
}

impl SeriesDir {
    /// Makes a new, empty series folder under `results`. `results/latest` is left alone until
    /// the series is about to play (see [`SeriesDir::make_latest`]), so that a run refused
    /// before any game leaves the last series where `leaderboard` and `verify` find it.
    pub fn create(results: &Path) -> Result<SeriesDir, SeriesError> {
        fs::create_dir_all(results).map_err(write_err(results))?;
        let stamp = humantime::format_rfc3339_seconds(SystemTime::now())
            .to_string()
            .replace([':', '-'], "");
        let mut id = stamp.clone();
        let mut n = 1;
        loop {
            let path = results.join(&id);
            match fs::create_dir(&path) {
                Ok(()) => {
                    fs::create_dir_all(path.join("logs")).map_err(write_err(&path))?;
                    return Ok(SeriesDir { id, path });
                }
                Err(e) if e.kind() == io::ErrorKind::AlreadyExists => {
                    n += 1;
                    id = format!("{stamp}-{n}");
                }
                Err(e) => return Err(write_err(&path)(e)),
            }
        }
    }

    /// Where a new series' folder is made: `results` for `take6 run`, `results/checks` for
    /// `take6 check` and `results/plays` for `take6 play`, so that neither moves the host's
    /// `results/latest` (which `--resume`, `verify` and `leaderboard` default to).
    pub fn side_folder(results: &Path, check: bool, play: bool) -> PathBuf {
        match (check, play) {
            (true, _) => results.join(CHECKS),
            (_, true) => results.join(PLAYS),
            _ => results.to_path_buf(),
        }
    }

    /// Points `results/latest` at this folder: its first game is about to be played.
    pub fn make_latest(&self) {
        let Some(results) = self.path.parent() else {
            return;
        };
        let latest = results.join("latest");
        let _ = fs::remove_file(&latest);
        // Best effort: a results folder on a file system without symlinks still works.
        let _ = std::os::unix::fs::symlink(&self.id, &latest);
    }

    /// Removes the folder of a new series that was refused before it wrote anything worth
    /// keeping (no `series.toml`: its settings, sandbox or bots folder were refused).
    pub fn discard_if_unused(&self) {
        if !self.file(MANIFEST).exists() {
            let _ = fs::remove_dir_all(&self.path);
        }
    }

    pub fn log_file(&self) -> PathBuf {
        self.path.join("logs").join("controller.log")
    }

    pub fn file(&self, name: &str) -> PathBuf {
        self.path.join(name)
    }

    /// Takes the folder's lock for as long as the returned file is open; refuses when another
    /// take6 holds it. A controller that was just killed may leave the lock held for a moment
    /// by a child caught between fork and exec, so a held lock is tried again for a while
    /// before the folder counts as busy.
    pub fn lock(&self) -> Result<File, SeriesError> {
        let path = self.file(LOCK);
        // Through the door: a lock left a FIFO or a link by whoever handed the folder over is
        // refused at once, never waited on or written through.
        let file = open_in(&self.path, Path::new(LOCK), |f, rel| f.open_write(rel))?;
        let patience = std::time::Instant::now() + LOCK_PATIENCE;
        loop {
            match file.try_lock() {
                Ok(()) => return Ok(file),
                Err(fs::TryLockError::WouldBlock) if std::time::Instant::now() < patience => {
                    std::thread::sleep(std::time::Duration::from_millis(50));
                }
                Err(fs::TryLockError::WouldBlock) => {
                    return Err(SeriesError::Busy(self.path.clone()));
                }
                Err(fs::TryLockError::Error(e)) => return Err(write_err(&path)(e)),
            }
        }
    }
}

/// Opens `rel` in the series folder `series` through the door ([`crate::door`]: no link
/// followed below `series`, nothing but a regular file) with `how`; errors name the file.
pub(crate) fn open_in<T>(
    series: &Path,
    rel: &Path,
    how: impl FnOnce(&Folder, &Path) -> io::Result<T>,
) -> Result<T, SeriesError> {
    let path = series.join(rel);
    Folder::open(series)
        .and_then(|f| how(&f, rel))
        .map_err(|error| SeriesError::Read { path, error })
}

/// A file of a series folder (`series.toml`, `games.jsonl`, a log) opened for reading through
/// the door: a regular file below the folder reached by no link, or an error naming why.
pub fn open_file(series: &Path, rel: &str) -> Result<File, SeriesError> {
    open_in(series, Path::new(rel), |f, rel| f.open_read(rel))
}

/// The whole of a series folder's file `rel`, at most `cap` bytes, through the door.
pub fn read_file(series: &Path, rel: &str, cap: u64) -> Result<Vec<u8>, SeriesError> {
    open_in(series, Path::new(rel), |f, rel| f.read(rel, cap))
}

/// The most of `series.toml` read: a manifest of thousands of bots is well under it.
pub const MANIFEST_CAP: u64 = 64 << 20;

/// Replaces `path` with `bytes` atomically: a reader (or a crash) sees the old file or the new
/// one, never half of one. With `durable`, the new content is on the disk before the rename,
/// so a power loss cannot leave an empty file either.
pub(crate) fn replace_file(path: &Path, bytes: &[u8], durable: bool) -> Result<(), SeriesError> {
    // Through the door: written into a file made fresh under a name no one can guess (a
    // `series.toml.partial` link left in a forged folder is never written through), then
    // renamed over whatever has the name.
    crate::door::replace_path(path, bytes, durable).map_err(write_err(path))
}

/// The current UTC time as RFC 3339, seconds precision.
pub(crate) fn now() -> String {
    humantime::format_rfc3339_seconds(SystemTime::now()).to_string()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn one_take6_at_a_time_per_series_folder() {
        let tmp = tempfile::tempdir().unwrap();
        let dir = SeriesDir::create(tmp.path()).unwrap();
        let held = dir.lock().unwrap();
        let err = dir.lock().unwrap_err();
        assert!(matches!(err, SeriesError::Busy(_)), "{err}");
        drop(held);
        assert!(dir.lock().is_ok());
    }

    #[test]
    fn replaced_files_leave_no_partial_behind() {
        let tmp = tempfile::tempdir().unwrap();
        let path = tmp.path().join("series.toml");
        replace_file(&path, b"old", true).unwrap();
        replace_file(&path, b"new", false).unwrap();
        assert_eq!(fs::read(&path).unwrap(), b"new");
        let names: Vec<_> = fs::read_dir(tmp.path()).unwrap().collect();
        assert_eq!(names.len(), 1);
        let err = replace_file(&tmp.path().join("no/such/file"), b"x", true).unwrap_err();
        assert!(err.to_string().contains("no/such/file"), "{err}");
    }
}
