//! Settings within their ranges that this machine cannot give: checked once, at resolution.

use std::path::Path;

use super::{ConfigError, Settings};

impl Settings {
    /// Limits within their ranges that this machine cannot give: a bot's disk beyond what the
    /// results folder's file system has free (each working copy is an image that may grow by
    /// `disk_mib`; 16 TiB passed the range and then every bot was skipped with "File too
    /// large"), or its memory beyond the machine's.
    pub(super) fn check_machine(&self) -> Result<(), ConfigError> {
        if self.builtins_only {
            return Ok(());
        }
        if let Some(free) = free_mib(&self.results)
            && self.disk_mib > free
        {
            return Err(ConfigError::Invalid {
                setting: "--disk-mib (disk_mib)",
                value: self.disk_mib.to_string(),
                fix: format!(
                    "the file system of {} has {free} MiB free, and each bot's working copy may \
                     grow by this much; use at most {free}",
                    self.results.display()
                ),
            });
        }
        if let Some(total) = memory_mib()
            && self.memory_mib > total
        {
            return Err(ConfigError::Invalid {
                setting: "--memory-mib (memory_mib)",
                value: self.memory_mib.to_string(),
                fix: format!("this machine has {total} MiB of memory; use at most {total}"),
            });
        }
        Ok(())
    }
}

/// MiB free for an unprivileged writer on the file system that holds `path` (or the nearest
/// folder above it that exists).
fn free_mib(path: &Path) -> Option<u64> {
    // A relative path's last ancestor is the empty path: the current folder.
    let existing = path
        .ancestors()
        .map(|p| {
            if p.as_os_str().is_empty() {
                Path::new(".")
            } else {
                p
            }
        })
        .find(|p| p.exists())?;
    let stat = nix::sys::statvfs::statvfs(existing).ok()?;
    Some(stat.blocks_available().saturating_mul(stat.fragment_size()) >> 20)
}

/// The machine's memory in MiB, from `/proc/meminfo`.
fn memory_mib() -> Option<u64> {
    let info = std::fs::read_to_string("/proc/meminfo").ok()?;
    let kib: u64 = info
        .lines()
        .find(|l| l.starts_with("MemTotal:"))?
        .split_whitespace()
        .nth(1)?
        .parse()
        .ok()?;
    Some(kib >> 10)
}
