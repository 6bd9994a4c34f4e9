//! The disk a run needs at most, said before anything is copied: the bots' working copies and
//! the disk images allocated at once (see `sandbox/seats.rs`), against the room free where the
//! run writes. A run that cannot fit is refused with the ways out.

use std::path::Path;

use super::BotsError;
use crate::sandbox::Sandbox;

const MIB: u64 = 1 << 20;

/// What the records of a run (games.jsonl, the logs, report.html) are given on top: a run of
/// 3,000 games of 300 bots writes about 22 MiB of games.jsonl.
const RECORDS: u64 = 64 * MIB;

/// What a run needs, part by part.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Need {
    /// Disk images allocated whole at once, and the size of the largest.
    pub images: usize,
    pub image: u64,
    /// The working copies made afresh (the bots' own files).
    pub copies: u64,
}

impl Need {
    /// The bytes in all.
    pub fn bytes(&self) -> u64 {
        (self.images as u64)
            .saturating_mul(self.image)
            .saturating_add(self.copies)
            .saturating_add(RECORDS)
    }
}

/// Where the run plays: `field` bots, `slots` of them prepared at once, `tables` tables of
/// `seats` at once.
#[derive(Debug, Clone, Copy)]
pub struct Shape {
    pub slots: usize,
    pub tables: usize,
    pub seats: usize,
}

/// What the bots in `folders` (those not in `kept`, whose working copies exist already) need
/// with `sandbox`'s disk limit, playing as `shape` says. A folder that cannot be read counts as
/// nothing: it is skipped later with its reason.
pub fn need(
    folders: &[crate::bots::Found],
    kept: &super::KeptCopies,
    sandbox: &Sandbox,
    shape: Shape,
    max_data: u64,
) -> Need {
    let sources = folders.iter().filter_map(|(folder, source)| {
        let fresh = !kept.contains_key(&super::file_name(folder));
        Some((source.as_deref().ok()?, fresh))
    });
    measure(sources, folders.len(), sandbox, shape, max_data)
}

/// What `sources` (each a bot's folder and whether its working copy is made afresh) need, of
/// `field` bots in all.
fn measure<'a>(
    sources: impl Iterator<Item = (&'a Path, bool)>,
    field: usize,
    sandbox: &Sandbox,
    shape: Shape,
    max_data: u64,
) -> Need {
    let (mut copies, mut own, mut entries) = (0u64, 0u64, 0u64);
    for (source, fresh) in sources {
        let Ok(listing) = crate::folder::scan(source, max_data) else {
            continue;
        };
        own = own.max(listing.footprint());
        entries = entries.max(listing.entries().len() as u64);
        if fresh {
            copies = copies.saturating_add(listing.footprint());
        }
    }
    let images = sandbox.images_at_once(field, shape.slots, shape.tables, shape.seats);
    let disk = sandbox.limits().disk_mib.saturating_mul(MIB);
    Need {
        images,
        image: crate::sandbox::image_bytes(own, entries, disk),
        copies,
    }
}

/// Refuses a resumed run (its working copies kept, their images made again as its bots
/// play, one bot taken back at a time) that cannot fit where it writes, `dir`, as
/// [`check`] refuses a new one. `sources`: the bots' folders.
pub fn check_resumed(
    dir: &Path,
    sources: &[&Path],
    sandbox: &Sandbox,
    (jobs, seats): (usize, usize),
    max_data: u64,
) -> Result<(), BotsError> {
    let shape = Shape {
        slots: 1 + jobs,
        tables: jobs,
        seats,
    };
    let need = measure(
        sources.iter().map(|s| (*s, false)),
        sources.len(),
        sandbox,
        shape,
        max_data,
    );
    check(dir, need, sandbox.limits().disk_mib)
}

/// Refuses a run whose `need` is more than the room free on the file system of `dir` (where it
/// writes), naming both and the ways out.
pub fn check(dir: &Path, need: Need, disk_mib: u64) -> Result<(), BotsError> {
    let Ok(fs) = nix::sys::statvfs::statvfs(dir) else {
        return Ok(());
    };
    let free = fs.blocks_available().saturating_mul(fs.fragment_size());
    if need.bytes() <= free {
        return Ok(());
    }
    let mib = |b: u64| b.div_ceil(MIB);
    Err(BotsError::NoRoom(format!(
        "this run needs up to {} MiB on the disk of {} and {} MiB are free: {} disk images of \
         {} MiB at once (the bots at the tables, the idle ones kept and the ones being made \
         or parked; each holds --disk-mib {disk_mib} and the bot's files), {} MiB of working \
         copies and {} MiB for the records. Give a smaller --disk-mib, fewer --jobs (fewer \
         bots at once), or results in a folder on a disk with more room",
        mib(need.bytes()),
        dir.display(),
        mib(free),
        need.images,
        mib(need.image),
        mib(need.copies),
        mib(RECORDS)
    )))
}
