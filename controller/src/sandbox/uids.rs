//! The uids of a series' bots.

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::Mutex;

use super::bwrap;

/// The uids of a series' bots: one per working copy, from [`bwrap::UID_BASE`] up, skipping
/// uids that belong to someone on this machine. Two games of one bot at once share its working
/// copy and so its uid; two bots never share one.
#[derive(Debug, Default)]
pub struct Uids {
    given: Mutex<(HashMap<PathBuf, u32>, u32)>,
}

impl Uids {
    /// The uid of the bot whose working copy is `workdir`, given on first use.
    pub fn of(&self, workdir: &Path) -> u32 {
        let mut given = self.given.lock().unwrap_or_else(|e| e.into_inner());
        if let Some(&uid) = given.0.get(workdir) {
            return uid;
        }
        let mut uid = given.1.max(bwrap::UID_BASE);
        while taken(uid) {
            uid += 1;
        }
        given.0.insert(workdir.to_path_buf(), uid);
        given.1 = uid + 1;
        uid
    }
}

/// Whether `uid` (as a uid or a gid) belongs to someone: a user or group of this machine, or a
/// subordinate range of `/etc/subuid` or `/etc/subgid` (user namespaces of host users map
/// them).
fn taken(uid: u32) -> bool {
    use nix::unistd::{Gid, Group, Uid, User};
    static RANGES: std::sync::OnceLock<Vec<(u64, u64)>> = std::sync::OnceLock::new();
    let ranges = RANGES.get_or_init(|| {
        ["/etc/subuid", "/etc/subgid"]
            .iter()
            .filter_map(|f| std::fs::read_to_string(f).ok())
            .flat_map(|text| {
                text.lines()
                    .filter_map(|line| {
                        let mut f = line.split(':').skip(1);
                        let start: u64 = f.next()?.trim().parse().ok()?;
                        let count: u64 = f.next()?.trim().parse().ok()?;
                        Some((start, start + count))
                    })
                    .collect::<Vec<_>>()
            })
            .collect()
    });
    let id = u64::from(uid);
    ranges
        .iter()
        .any(|&(start, end)| (start..end).contains(&id))
        || User::from_uid(Uid::from_raw(uid)).ok().flatten().is_some()
        || Group::from_gid(Gid::from_raw(uid)).ok().flatten().is_some()
}
