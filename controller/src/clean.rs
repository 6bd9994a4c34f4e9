//! `take6 clean`: housekeeping of the results folder. Checks (`results/checks/`)
//! and games at the keyboard (`results/plays/`) pile up with every `take6 check`; series of
//! `take6 run` too, more slowly. `clean` removes all but the newest `--keep` of each kind
//! (checks and plays by default, run series with `--series`), optionally only those older than
//! `--older-than`, never a series `latest` names and never one a running take6 holds.
//! `--dry-run` lists what would go and how much space it would free, removing nothing.

use std::fs;
use std::path::{Path, PathBuf};
use std::time::SystemTime;

use crate::series::{MANIFEST, SeriesDir};

use crate::config::CleanArgs;

/// One series folder `clean` would remove.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Doomed {
    pub path: PathBuf,
    /// Bytes of its files.
    pub bytes: u64,
}

/// The folders of one kind: `results` itself (run series), its `checks/` or its `plays/`.
fn kinds(args: &CleanArgs) -> Vec<PathBuf> {
    let mut kinds = vec![
        SeriesDir::side_folder(&args.results, true, false),
        SeriesDir::side_folder(&args.results, false, true),
    ];
    if args.series {
        kinds.push(args.results.clone());
    }
    kinds
}

/// What `args` would remove, oldest first within each kind.
pub fn plan(args: &CleanArgs) -> std::io::Result<Vec<Doomed>> {
    let now = SystemTime::now();
    let mut doomed = Vec::new();
    for folder in kinds(args) {
        let Ok(entries) = fs::read_dir(&folder) else {
            continue;
        };
        let latest = fs::canonicalize(folder.join("latest")).ok();
        let mut series: Vec<PathBuf> = entries
            .flatten()
            .filter(|e| e.file_type().is_ok_and(|t| t.is_dir()))
            .map(|e| e.path())
            .filter(|p| p.join(MANIFEST).is_file() || p.join("games.jsonl").is_file())
            .collect();
        // Series ids are their UTC start times: the name order is the age order.
        series.sort();
        let removable = series.len().saturating_sub(args.keep);
        for path in series.into_iter().take(removable) {
            if latest.as_deref() == fs::canonicalize(&path).ok().as_deref() || busy(&path) {
                continue;
            }
            let age = fs::metadata(&path)
                .and_then(|m| m.modified())
                .ok()
                .and_then(|t| now.duration_since(t).ok())
                .unwrap_or_default();
            if args.older_than.is_some_and(|min| age < min) {
                continue;
            }
            doomed.push(Doomed {
                bytes: size(&path),
                path,
            });
        }
    }
    Ok(doomed)
}

/// Removes what `plan` chose. Returns the bytes freed.
pub fn apply(doomed: &[Doomed]) -> std::io::Result<u64> {
    let mut freed = 0;
    for d in doomed {
        remove_series(&d.path)
            .map_err(|e| std::io::Error::new(e.kind(), format!("{}: {e}", d.path.display())))?;
        freed += d.bytes;
    }
    Ok(freed)
}

/// The files that make a folder a series for [`plan`]: removed last.
const MARKERS: [&str; 2] = [MANIFEST, "games.jsonl"];

/// Removes the series folder `path`, whatever the depth of the working copies a bot left in
/// it (by descriptors, one folder open at a time: `fs::remove_dir_all` holds one per level and
/// ran out of them 1,000 deep). Everything but the files that make it a series goes first, so
/// that a removal that fails half-way leaves a folder the next `clean` lists and finishes.
fn remove_series(path: &Path) -> std::io::Result<()> {
    let mut names: Vec<_> = fs::read_dir(path)?
        .map(|e| e.map(|e| e.file_name()))
        .collect::<Result<_, _>>()?;
    names.sort_by_key(|n| MARKERS.iter().any(|m| n == m));
    let series = crate::door::Folder::open(path)?;
    for name in names {
        crate::sandbox::deep::remove_tree(&series, &name)?;
    }
    fs::remove_dir(path)
}

/// Whether a running take6 holds the series' lock (it is being played or resumed now).
fn busy(path: &Path) -> bool {
    // Through the door: a lock left a FIFO is refused at once (it would block the open), a
    // link is not followed. Such a folder is no series a take6 plays.
    let Ok(file) = crate::door::Folder::open(path)
        .and_then(|f| f.open_read(std::path::Path::new("series.lock")))
    else {
        return false;
    };
    match file.try_lock() {
        Ok(()) => {
            let _ = file.unlock();
            false
        }
        Err(_) => true,
    }
}

/// Bytes of the files under `path` (links not followed), whatever the depth of its folders
/// (walked by descriptors: a path 2,500 folders deep is past the kernel's 4,096 bytes).
fn size(path: &Path) -> u64 {
    let mut bytes = 0;
    let Ok(folder) = crate::door::Folder::open(path) else {
        return 0;
    };
    let _ = crate::sandbox::deep::walk(&folder, |_, _, st| {
        use nix::sys::stat::SFlag;
        if st.st_mode & SFlag::S_IFMT.bits() != SFlag::S_IFDIR.bits() {
            bytes += st.st_size as u64;
        }
        Ok(())
    });
    bytes
}

/// Bytes for people: `1.5 MiB`.
pub fn bytes(n: u64) -> String {
    const UNITS: [&str; 4] = ["bytes", "KiB", "MiB", "GiB"];
    let mut value = n as f64;
    let mut unit = 0;
    while value >= 1024.0 && unit + 1 < UNITS.len() {
        value /= 1024.0;
        unit += 1;
    }
    if unit == 0 {
        format!("{n} bytes")
    } else {
        format!("{value:.1} {}", UNITS[unit])
    }
}
