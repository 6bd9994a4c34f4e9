//! A bot's `globaldata`, kept in its working copy between its games (`.botzone-globaldata`):
//! read and written through the door, under a lock per working copy once the bot has some.

use std::path::{Path, PathBuf};
use std::sync::Arc;

use serde_json::Value;

use super::wire;

/// Where a bot keeps its `globaldata` between games, in its working copy.
pub const GLOBALDATA: &str = ".botzone-globaldata";

/// Whether a `globaldata` value says nothing (Botzone keeps the old one then).
pub fn is_empty(v: &Value) -> bool {
    match v {
        Value::Null => true,
        Value::String(s) => s.is_empty(),
        _ => false,
    }
}

/// The lock of a bot's `globaldata`, by working copy: held by a turn that starts the bot, from
/// reading its globaldata to keeping its answer, once the bot has some (a bot that never
/// writes any is never held up). Tables of a series run in one process.
pub async fn lock(workdir: &Path) -> Option<tokio::sync::OwnedMutexGuard<()>> {
    use std::collections::HashMap;
    use std::sync::{Mutex, OnceLock};
    static LOCKS: OnceLock<Mutex<HashMap<PathBuf, Arc<tokio::sync::Mutex<()>>>>> = OnceLock::new();
    if std::fs::symlink_metadata(workdir.join(GLOBALDATA)).is_err() {
        return None;
    }
    let lock = {
        let mut locks = LOCKS
            .get_or_init(Mutex::default)
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        Arc::clone(locks.entry(workdir.to_path_buf()).or_default())
    };
    Some(lock.lock_owned().await)
}

/// A bot's `globaldata` from its working copy (a string, as Botzone keeps it), or "". Read
/// through the door ([`crate::door`]): the bot owns its working copy and may have made the
/// name a link (to a host file, or through `/proc/self/cwd` to another bot's), a FIFO or a huge
/// file; each is refused, logged, and read as none.
pub fn read(workdir: &Path) -> Value {
    let read = crate::door::Folder::open(workdir)
        .and_then(|f| f.read_if_any(Path::new(GLOBALDATA), wire::GLOBALDATA_CAP as u64));
    let text = match read {
        Ok(bytes) => bytes.unwrap_or_default(),
        Err(e) => {
            tracing::warn!(
                "globaldata not read from {}: {}",
                workdir.join(GLOBALDATA).display(),
                crate::untrusted::log(&e.to_string())
            );
            Vec::new()
        }
    };
    let text = String::from_utf8(text).unwrap_or_default();
    serde_json::from_str(&text).unwrap_or(Value::String(String::new()))
}

/// Keeps a bot's `globaldata` for its next game: written into a file made fresh under a name
/// the bot cannot guess and renamed over `.botzone-globaldata` (whatever the bot left there,
/// a link included, is replaced, never written through), owned by the bot's user.
pub fn write(workdir: &Path, value: &Value) {
    if is_empty(value) {
        return;
    }
    let written = crate::door::Folder::open(workdir)
        .and_then(|f| f.replace(Path::new(GLOBALDATA), value.to_string().as_bytes(), false));
    if let Err(e) = written {
        tracing::warn!(
            "cannot keep globaldata in {}: {}",
            workdir.join(GLOBALDATA).display(),
            crate::untrusted::log(&e.to_string())
        );
    }
}
