//! Running a bot's `build` in its working copy, through the sandbox and limits its games
//! have, and keeping its log inert.

use std::path::Path;
use std::process::Stdio;
use std::time::Duration;

use super::Unusable;
use crate::folder;
use crate::sandbox::Sandbox;

/// The most of a build log kept, rewritten as inert text.
const BUILD_LOG_CAP: u64 = 8 << 20;

/// Rewrites the build log at `log` through [`crate::untrusted::log_bytes`] (hosts `cat` it),
/// keeping its first [`BUILD_LOG_CAP`] bytes. A log that cannot be rewritten is removed: it
/// is never left raw.
fn inert_log(log: &Path) {
    use std::io::Read;
    let mut raw = Vec::new();
    // Through the door: a log left a link (a league folder handed over) is not read through.
    let opened = crate::door::open_path(log);
    let total = opened
        .as_ref()
        .ok()
        .and_then(|f| f.metadata().ok())
        .map_or(0, |m| m.len());
    let read = opened.and_then(|f| f.take(BUILD_LOG_CAP).read_to_end(&mut raw));
    let mut text = crate::untrusted::log_bytes(&raw);
    if total > BUILD_LOG_CAP {
        text.push_str(&format!(
            "[{} more bytes of build output dropped]\n",
            total - BUILD_LOG_CAP
        ));
    }
    // A new file renamed over the old (through the door: made fresh under a name no one can
    // guess): a straggler of the build writes to the old one.
    let written = read.is_ok()
        && log
            .parent()
            .zip(log.file_name())
            .is_some_and(|(dir, name)| {
                crate::door::Folder::open(dir)
                    .and_then(|f| f.replace(Path::new(name), text.as_bytes(), false))
                    .is_ok()
            });
    if !written {
        let _ = crate::door::remove_path(log);
    }
}

/// Runs `./build` in `workdir` through the launcher (the same sandbox and limits as a game),
/// stdout and stderr to `log`, killing its whole tree if it outlives `limit`.
pub(super) async fn run_build(
    sandbox: &Sandbox,
    workdir: &Path,
    log: &Path,
    limit: Duration,
) -> Result<(), Unusable> {
    // Made afresh through the door: whatever had its name (a link to a host file, in a
    // folder handed over) is removed, never written through.
    let out = crate::door::create_path(log)
        .map_err(|e| Unusable(format!("cannot create build log: {e}")))?;
    let err = out
        .try_clone()
        .map_err(|e| Unusable(format!("cannot create build log: {e}")))?;
    // Whatever the build leaves running goes when the tree is dropped, even if the series is
    // abandoned.
    let (mut child, tree) = sandbox
        .spawn("build", workdir, [Stdio::null(), out.into(), err.into()])
        .map_err(|e| Unusable(format!("build could not start: {e}")))?;
    let status = tokio::time::timeout(limit, child.wait()).await;
    // A limit the build ran into explains its failure, with the flag that raises it.
    let breach = || match tree.breach() {
        Some(breach) => format!(" ({breach}; {} raises it)", raised_by(&breach)),
        None => out_of_memory(sandbox, log),
    };
    let outcome = match status {
        Err(_) => Err(format!(
            "build timed out after {} s (--build-timeout-s raises it)",
            limit.as_secs()
        )),
        Ok(Err(e)) => Err(format!("build could not be waited for: {e}")),
        Ok(Ok(status)) if status.success() => Ok(()),
        Ok(Ok(status)) => Err(match status.code() {
            Some(code) => format!("build exited with status {code}{}", breach()),
            None => format!("build ended by {status}{}", breach()),
        }),
    };
    // The build's tree is gone before its log is rewritten (a straggler writes to the old file).
    drop(child);
    drop(tree);
    inert_log(log);
    outcome.map_err(Unusable)
}

/// The flag that raises the limit `breach` names.
fn raised_by(breach: &crate::sandbox::Breach) -> &'static str {
    match breach {
        crate::sandbox::Breach::Memory { .. } => "--memory-mib",
        crate::sandbox::Breach::Processes { .. } => "--max-procs",
        crate::sandbox::Breach::Disk { .. } => "--disk-mib",
    }
}

/// What the last lines of a failed build's `log` say when it ran out of memory without a
/// cgroup to tell (an address-space limit makes allocations fail, and the build then exits
/// with a status of its own): the limit and the flag that raises it; empty otherwise.
fn out_of_memory(sandbox: &Sandbox, log: &Path) -> String {
    const SIGNS: [&str; 6] = [
        "insufficient memory",
        "could not allocate",
        "cannot allocate memory",
        "out of memory",
        "std::bad_alloc",
        "memoryerror",
    ];
    let text = log
        .parent()
        .zip(log.file_name())
        .and_then(|(logs, name)| folder::read_text(logs, Path::new(name), 1 << 20).ok())
        .unwrap_or_default();
    let tail: String = text
        .lines()
        .rev()
        .take(40)
        .collect::<Vec<_>>()
        .join("\n")
        .to_lowercase();
    if !SIGNS.iter().any(|s| tail.contains(s)) {
        return String::new();
    }
    let (mib, per_process) = if sandbox.report().enforced.contains(&"address-space") {
        (
            sandbox.build_address_space_mib(),
            " of address space per process",
        )
    } else {
        (sandbox.limits().memory_mib, "")
    };
    format!(
        " (it ran out of memory: a build may use {mib} MiB{per_process}; --memory-mib raises it)"
    )
}
