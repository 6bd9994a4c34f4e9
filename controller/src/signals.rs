//! Stopping the controller on Ctrl-C, SIGTERM or SIGHUP, whatever a bot, a build or a template
//! is doing at the time.
//!
//! The stop signals are blocked in every thread and taken by one dedicated thread (`sigwait`),
//! so their handling never depends on the async runtime having a free thread. The first signal
//! asks the series to stop cleanly ([`Stop::requested`] resolves: bots are killed, finished
//! games kept, the leaderboard written), and is acknowledged on stderr. Signals that arrive
//! with it (within [`TOGETHER`]: GNU `timeout` signals the process and then its process group,
//! a terminal's Ctrl-C reaches every process of a pipeline) are the same request. If the
//! process is still there [`GRACE`] later, or at a stop request after the acknowledgement, it
//! exits at once with 128 + the signal's number, after killing the process groups of its
//! children (bots and builds) and marking the series `interrupted` in its `series.toml`, best
//! effort: it stays resumable (`--resume` mounts again the disk images it could not copy
//! back). Children do not inherit the blocked signals: the standard library empties the signal
//! mask of every process it starts.

use std::fs;
use std::time::Duration;

use nix::sys::signal::{SigSet, Signal, kill, killpg};
use nix::unistd::{Pid, getpgrp, getpid};
use tokio::sync::watch;

pub use crate::stop_clock::{GRACE, stopped_at};

/// Stop signals this close after the first are the same request.
pub const TOGETHER: Duration = Duration::from_millis(500);

/// The folder of the series being played, to mark it `interrupted` on a stop at once.
static SERIES: std::sync::Mutex<Option<std::path::PathBuf>> = std::sync::Mutex::new(None);

/// Tells the signal thread which series folder a stop at once must mark `interrupted`.
pub fn playing(series: &std::path::Path) {
    if let Ok(mut slot) = SERIES.lock() {
        *slot = Some(series.to_path_buf());
    }
}

/// The signals that stop a series: Ctrl-C, `kill` and a closed terminal.
const STOP_SIGNALS: [Signal; 3] = [Signal::SIGINT, Signal::SIGTERM, Signal::SIGHUP];

/// The stop signals, taken by their own thread once installed.
#[derive(Debug, Clone)]
pub struct Stop {
    first: watch::Receiver<Option<Signal>>,
}

/// The exit code of a process ended by `signal`, as shells report it (SIGINT 130, SIGTERM
/// 143, SIGHUP 129).
pub fn exit_code(signal: Signal) -> u8 {
    128 + signal as u8
}

impl Stop {
    /// Blocks the stop signals and starts the thread that takes them. Call it before any other
    /// thread starts (the async runtime's included): threads inherit the blocked set, and a
    /// thread that did not block them would die of them.
    pub fn install() -> nix::Result<Stop> {
        let mut set = SigSet::empty();
        for signal in STOP_SIGNALS {
            set.add(signal);
        }
        set.thread_block()?;
        let (tx, first) = watch::channel(None);
        std::thread::Builder::new()
            .name("take6-signals".into())
            .spawn(move || {
                let Ok(signal) = set.wait() else { return };
                crate::stop_clock::begin();
                tx.send_replace(Some(signal));
                let first = std::time::Instant::now();
                // Said from a thread of its own: a stderr nobody reads must not hold this one.
                std::thread::spawn(move || {
                    eprintln!(
                        "take6: {signal}: stopping; finished games are kept and the rest can be \
                         played with --resume (a second stop request ends it at once)"
                    );
                });
                std::thread::spawn(move || {
                    std::thread::sleep(GRACE);
                    exit_now(signal);
                });
                while let Ok(second) = set.wait() {
                    if first.elapsed() >= TOGETHER {
                        exit_now(second);
                    }
                }
            })
            .map_err(|e| nix::Error::try_from(e).unwrap_or(nix::Error::EAGAIN))?;
        Ok(Stop { first })
    }

    /// Resolves at the first stop signal.
    pub async fn requested(&self) {
        let mut first = self.first.clone();
        // An error means the signal thread is gone: never stop early then.
        if first.wait_for(Option::is_some).await.is_err() {
            std::future::pending::<()>().await;
        }
    }

    /// The first stop signal received, if any.
    pub fn received(&self) -> Option<Signal> {
        *self.first.borrow()
    }
}

/// Kills the children's process groups and exits with `signal`'s code, without running
/// destructors or flushing anything: whatever is stuck (a full pipe, a blocked thread) must
/// not keep the process alive.
fn exit_now(signal: Signal) -> ! {
    kill_children();
    mark_interrupted();
    // SAFETY: `_exit` ends the process at once; it touches no memory of this program.
    unsafe { nix::libc::_exit(i32::from(exit_code(signal))) }
}

/// Marks the series being played `interrupted` in its `series.toml` (replaced atomically), so
/// that it says what happened; it is resumable either way.
fn mark_interrupted() {
    let Some(dir) = SERIES.try_lock().ok().and_then(|s| s.clone()) else {
        return;
    };
    let path = dir.join(crate::series::MANIFEST);
    let series = crate::series::dir::read_file(&dir, crate::series::MANIFEST, 64 << 20);
    let Some(text) = series.ok().and_then(|b| String::from_utf8(b).ok()) else {
        return;
    };
    if !text.contains("status = \"running\"") {
        return;
    }
    let marked = text.replacen("status = \"running\"", "status = \"interrupted\"", 1);
    // Through the door: a fresh file under a name no one can guess, renamed over.
    let _ = crate::series::dir::replace_file(&path, marked.as_bytes(), false);
}

/// Sends SIGKILL to the process group of every child of this process (every bot and build
/// leads its own group), or to the child itself if it shares this process's group. Best
/// effort: a child that is already gone is skipped.
pub fn kill_children() {
    kill_children_of(getpid(), getpgrp());
}

/// Kills the process groups of `parent`'s children, except `spare` (the caller's own group),
/// where it kills the child alone.
fn kill_children_of(parent: Pid, spare: Pid) {
    let children = listed_children(parent).unwrap_or_else(|| scanned_children(parent));
    for (pid, group) in children {
        let _ = if group == spare {
            kill(pid, Signal::SIGKILL)
        } else {
            killpg(group, Signal::SIGKILL)
        };
    }
}

/// `parent`'s children and their process groups, from the kernel's list of each of its
/// threads' children (`/proc/PID/task/TID/children`): a few reads, where [`scanned_children`]
/// reads every process's `stat` (tens of milliseconds at the end of each series on a busy
/// host). `None` where the lists are not there (a kernel without `CONFIG_PROC_CHILDREN`).
fn listed_children(parent: Pid) -> Option<Vec<(Pid, Pid)>> {
    let mut children = Vec::new();
    for task in fs::read_dir(format!("/proc/{parent}/task")).ok()?.flatten() {
        let Ok(list) = fs::read_to_string(task.path().join("children")) else {
            // The thread ended meanwhile; its children went to another of its threads.
            if task.path().exists() {
                return None;
            }
            continue;
        };
        for pid in list.split_whitespace().filter_map(|p| p.parse().ok()) {
            let pid = Pid::from_raw(pid);
            // A child already gone is skipped.
            if let Ok(group) = nix::unistd::getpgid(Some(pid)) {
                children.push((pid, group));
            }
        }
    }
    Some(children)
}

/// `parent`'s children and their process groups, from every process's `stat`.
fn scanned_children(parent: Pid) -> Vec<(Pid, Pid)> {
    let Ok(processes) = fs::read_dir("/proc") else {
        return Vec::new();
    };
    let mut children = Vec::new();
    for process in processes.flatten() {
        let Some(pid) = process.file_name().to_str().and_then(|s| s.parse().ok()) else {
            continue;
        };
        let Ok(stat) = fs::read_to_string(process.path().join("stat")) else {
            continue;
        };
        // `pid (comm) state ppid pgrp …`; `comm` may hold spaces and parentheses.
        let Some((_, rest)) = stat.rsplit_once(')') else {
            continue;
        };
        let mut fields = rest.split_whitespace().skip(1);
        let (Some(of), Some(group)) = (fields.next(), fields.next()) else {
            continue;
        };
        let (Ok(of), Ok(group)) = (of.parse(), group.parse()) else {
            continue;
        };
        if Pid::from_raw(of) == parent {
            children.push((Pid::from_raw(pid), Pid::from_raw(group)));
        }
    }
    children
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn exit_codes_are_128_plus_the_signal() {
        assert_eq!(exit_code(Signal::SIGINT), 130);
        assert_eq!(exit_code(Signal::SIGTERM), 143);
        assert_eq!(exit_code(Signal::SIGHUP), 129);
    }

    /// Pids of the `sleep` processes whose argument is `marker`.
    fn with_marker(marker: &str) -> Vec<String> {
        let marker = format!("sleep\0{marker}\0");
        fs::read_dir("/proc")
            .unwrap()
            .flatten()
            .filter(|p| {
                fs::read(p.path().join("cmdline"))
                    .is_ok_and(|c| String::from_utf8_lossy(&c).contains(&marker))
            })
            .map(|p| p.file_name().to_string_lossy().into_owned())
            .collect()
    }

    #[test]
    fn children_and_their_process_groups_are_killed() {
        // Not this test process's children (other tests have theirs): a shell's. Its child
        // leads its own group (setsid), with a grandchild in that group.
        let marker = format!("1000.{}", std::process::id());
        let mut shell = std::process::Command::new("sh")
            .args([
                "-c",
                &format!("setsid sh -c 'sleep {marker} & wait' & wait"),
            ])
            .spawn()
            .unwrap();
        let shell_pid = Pid::from_raw(shell.id() as i32);
        while with_marker(&marker).is_empty() {
            std::thread::sleep(Duration::from_millis(10));
        }
        // The kernel's lists of children and the scan of every process agree.
        let mut listed = listed_children(shell_pid).expect("the kernel lists children");
        let mut scanned = scanned_children(shell_pid);
        listed.sort();
        scanned.sort();
        assert_eq!(listed.len(), 1, "the shell's one child: {listed:?}");
        assert_eq!(listed, scanned);
        kill_children_of(shell_pid, getpgrp());
        // The shell waits for its child, so it ends only if the child was killed.
        shell.wait().unwrap();
        let mut tries = 0;
        while !with_marker(&marker).is_empty() {
            tries += 1;
            assert!(tries < 1000, "the grandchild outlived its group");
            std::thread::sleep(Duration::from_millis(10));
        }
    }
}
