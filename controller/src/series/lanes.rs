//! Lanes: one thread per table played at once, each driving a single-threaded runtime of its
//! own, on which a game's task, its players' pipes and timers all live.
//!
//! On the shared multi-threaded runtime, two tables at once took turns on two worker threads
//! that woke each other (futexes) and passed the game tasks between them, with one reactor for
//! every table's pipes. A lane is what the spawn-and-pipe floor does with a process per job: a
//! table's replies wake its own thread, nothing else does, and the game stays on one processor's
//! caches. Paired runs (10 compiled bots, `--jobs 2`, eight pairs): 2.3 % less wall time
//! without the sandbox, 3.4 % with it (README, Performance, item 19).
//!
//! Lanes are made on first use and kept for the life of the process, never ended: a process a
//! game starts (a warm sandbox made mid-series, kept for later games) is started with a death
//! signal tied to the thread that started it, so that thread must outlive the series. A series
//! run after another in the same process reuses them. A game's task pins its lane's thread to
//! its table's processor first, or lets it go again (`crate::affinity`), so a lane follows the
//! setting of the series it plays for.

use std::io;
use std::sync::Mutex;

use tokio::runtime::{Builder, Handle};

/// Every lane made so far, by number.
static LANES: Mutex<Vec<Handle>> = Mutex::new(Vec::new());

/// The runtime of lane `number`, made (with those before it) if it is not there yet.
pub fn lane(number: usize) -> io::Result<Handle> {
    let mut lanes = LANES.lock().unwrap_or_else(|e| e.into_inner());
    while lanes.len() <= number {
        let runtime = Builder::new_current_thread().enable_all().build()?;
        let handle = runtime.handle().clone();
        std::thread::Builder::new()
            .name(format!("take6-table-{}", lanes.len()))
            // Runs the lane's tasks for as long as the process lives.
            .spawn(move || runtime.block_on(std::future::pending::<()>()))?;
        lanes.push(handle);
    }
    Ok(lanes[number].clone())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_lane_runs_its_tasks_on_its_own_thread_and_is_reused() {
        let name = |h: &Handle| {
            let (tx, rx) = std::sync::mpsc::channel();
            h.spawn(async move {
                let _ = tx.send(std::thread::current().name().map(str::to_string));
            });
            rx.recv().unwrap()
        };
        let (a, b) = (lane(0).unwrap(), lane(1).unwrap());
        assert_eq!(name(&a).as_deref(), Some("take6-table-0"));
        assert_eq!(name(&b).as_deref(), Some("take6-table-1"));
        assert_eq!(name(&lane(0).unwrap()).as_deref(), Some("take6-table-0"));
    }
}
