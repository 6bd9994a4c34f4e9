//! Table affinity: each table played at once kept on one processor, with its bots.
//!
//! When `--jobs` is a multiple of the processors this process may use, table `k` (the lane
//! that plays it, see `series::lanes`) runs on the `k`-th of them, cyclically, and so do the
//! processes it starts: a warm sandbox is started on its table's processor (its bots inherit
//! that), and a bot started directly inherits it from the lane's thread. A bot's reply then
//! wakes the controller on the processor where it runs, and the controller's next message wakes
//! the bot there: no wakeup crosses processors. On a virtual machine a wakeup that crosses to an
//! idle processor costs tens of microseconds (a ping-pong through two pipes on this 2-core VM:
//! 73 µs per round trip across processors, 2.8 µs on one), and processors sat idle between a
//! game's messages. Every processor has its own tables, so none is left without work.
//!
//! When `--jobs` is not such a multiple (`--jobs 1` on two processors, say) nothing is pinned:
//! a game's bots then think in parallel on every processor, which pinning would take away.

use std::cell::Cell;
use std::sync::OnceLock;

use nix::sched::{CpuSet, sched_getaffinity, sched_setaffinity};
use nix::unistd::Pid;

/// The processors this process may use, as it started (before any thread was pinned).
fn allowed() -> &'static [usize] {
    static ALLOWED: OnceLock<Vec<usize>> = OnceLock::new();
    ALLOWED.get_or_init(|| match sched_getaffinity(Pid::from_raw(0)) {
        Ok(set) => (0..CpuSet::count())
            .filter(|&cpu| set.is_set(cpu).unwrap_or(false))
            .collect(),
        Err(_) => Vec::new(),
    })
}

/// The processor of each lane, `0..jobs` (empty: nothing is pinned). `pin` is the setting
/// (`pin_tables`); tables are pinned only when every processor gets the same number of them.
pub fn plan(pin: bool, jobs: usize) -> Vec<usize> {
    plan_for(pin, jobs, allowed())
}

fn plan_for(pin: bool, jobs: usize, cpus: &[usize]) -> Vec<usize> {
    if !pin || cpus.len() < 2 || jobs == 0 || !jobs.is_multiple_of(cpus.len()) {
        return Vec::new();
    }
    (0..jobs).map(|k| cpus[k % cpus.len()]).collect()
}

thread_local! {
    /// The processor this thread is pinned to, if any.
    static PINNED: Cell<Option<usize>> = const { Cell::new(None) };
}

/// The processor the calling thread is pinned to, if any: a warm sandbox started or reused
/// for a game on this thread is one of that processor's.
pub fn current() -> Option<usize> {
    PINNED.with(Cell::get)
}

/// Pins the calling thread to `cpu`, or lets it run on every allowed processor again
/// (`None`); a system call only when that changes. A lane plays the tables of one series at a
/// time, and a later series (in the same process) may pin differently.
pub fn pin_thread(cpu: Option<usize>) {
    if current() == cpu {
        return;
    }
    if set_affinity(Pid::from_raw(0), cpu) {
        PINNED.with(|p| p.set(cpu));
    }
}

/// Pins process `pid` (a warm sandbox's init, before it starts a bot) to `cpu`.
pub fn pin_process(pid: u32, cpu: usize) -> bool {
    set_affinity(Pid::from_raw(pid as i32), Some(cpu))
}

/// The set for `cpu`, or every allowed processor.
pub fn set_of(cpu: Option<usize>) -> Option<CpuSet> {
    let mut set = CpuSet::new();
    match cpu {
        Some(cpu) => set.set(cpu).ok()?,
        None => {
            for &c in allowed() {
                set.set(c).ok()?;
            }
        }
    }
    Some(set)
}

fn set_affinity(pid: Pid, cpu: Option<usize>) -> bool {
    let done = set_of(cpu).is_some_and(|set| sched_setaffinity(pid, &set).is_ok());
    if !done {
        static WARNED: std::sync::Once = std::sync::Once::new();
        WARNED.call_once(|| {
            tracing::warn!(
                "cannot pin a table to processor {cpu:?}: tables run where the system puts them"
            );
        });
    }
    done
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tables_are_pinned_only_when_every_processor_gets_as_many() {
        let cpus = [0, 1];
        assert_eq!(plan_for(true, 2, &cpus), vec![0, 1]);
        assert_eq!(plan_for(true, 4, &cpus), vec![0, 1, 0, 1]);
        // One table on two processors: its bots think on both.
        assert!(plan_for(true, 1, &cpus).is_empty());
        assert!(plan_for(true, 3, &cpus).is_empty());
        assert!(plan_for(false, 2, &cpus).is_empty());
        assert!(plan_for(true, 1, &[0]).is_empty(), "nothing to gain on one");
        // The processors allowed, whichever they are.
        assert_eq!(plan_for(true, 2, &[3, 5]), vec![3, 5]);
    }

    #[test]
    fn a_thread_is_pinned_and_let_go_again() {
        let cpus = allowed();
        let Some(&last) = cpus.last() else { return };
        std::thread::spawn(move || {
            let now = || sched_getaffinity(Pid::from_raw(0)).unwrap();
            pin_thread(Some(last));
            assert_eq!(current(), Some(last));
            let set = now();
            assert!(set.is_set(last).unwrap());
            assert_eq!(
                (0..CpuSet::count())
                    .filter(|&c| set.is_set(c).unwrap())
                    .count(),
                1
            );
            pin_thread(None);
            assert_eq!(current(), None);
            let set = now();
            assert!(allowed().iter().all(|&c| set.is_set(c).unwrap()));
        })
        .join()
        .unwrap();
    }
}
