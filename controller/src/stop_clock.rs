//! When a stop (Ctrl-C, SIGTERM) began and how long a clean stop may take: set by
//! [`crate::signals`], read by whatever must finish within it (the copy-back of the working
//! copies out of their disk images). A leaf: it knows nothing of who stops or why.

use std::sync::OnceLock;
use std::time::{Duration, Instant};

/// How long a clean stop may take before the process exits regardless.
pub const GRACE: Duration = Duration::from_secs(5);

/// When the first stop signal was received.
static STOPPED_AT: OnceLock<Instant> = OnceLock::new();

/// Notes that a stop begins now (the first call counts).
pub fn begin() {
    let _ = STOPPED_AT.set(Instant::now());
}

/// When the first stop signal was received, if one was: what is left to do must fit in
/// [`GRACE`] from then.
pub fn stopped_at() -> Option<Instant> {
    STOPPED_AT.get().copied()
}
