//! Playing a series of built-ins only on `jobs` plain threads: no task, future or channel
//! message per game. A producer thread cuts the schedule's plans into chunks and hands chunk
//! *k* to worker *k* mod `jobs`; each worker plays its chunks in order with the synchronous
//! table ([`crate::table::builtins`]) and sends the records back on its own bounded channel;
//! the reporter takes chunk *k* from worker *k* mod `jobs`. So records reach the sinks in game
//! order, and at most a few chunks per worker are ever in memory, however long the series.

use std::future::Future;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::sync_channel;

use super::reporter::{GameSet, Reporter, SinkError};
use crate::record::{GameRecord, Level};
use crate::schedule::{Entrant, GamePlan, Schedule};
use crate::shard::Shard;
use crate::table::{self, GameOutcome, Occupant, TableGame, TableSeat};

/// Games per chunk: big enough that channel traffic and the sinks' flush are per thousands of
/// games at full speed, small enough that a stop is seen within milliseconds.
const CHUNK: usize = 64;

/// Chunks a worker may have waiting, each way.
const QUEUE: usize = 1;

/// What the threads need of the series, owned so they outlive no borrow.
pub struct Plan {
    pub schedule: Schedule,
    pub done: GameSet,
    pub shard: Shard,
    pub jobs: usize,
    pub rounds: u32,
    pub level: Level,
    /// Set (under `--until-separated`) once the answer is known.
    pub enough: Arc<AtomicBool>,
}

/// Plays every planned game not in `plan.done` into `reporter`. Returns the reporter, the
/// first sink error if any, and whether `stop` cut the series short (games already being
/// played when it came are finished and recorded).
pub async fn dispatch(
    plan: Plan,
    reporter: Reporter,
    stop: impl Future<Output = ()>,
) -> (Reporter, Result<(), SinkError>, bool) {
    let stopped = Arc::new(AtomicBool::new(false));
    let flag = Arc::clone(&stopped);
    let mut work = tokio::task::spawn_blocking(move || {
        let mut reporter = reporter;
        let result = play(&plan, &mut reporter, &flag);
        (reporter, result)
    });
    let (ended, interrupted) = tokio::select! {
        ended = &mut work => (ended, false),
        () = stop => {
            stopped.store(true, Ordering::Relaxed);
            (work.await, true)
        }
    };
    let (reporter, result) = ended.expect("the game threads do not panic");
    (reporter, result, interrupted)
}

/// The producer, the workers and (on this thread) the reporter.
fn play(plan: &Plan, reporter: &mut Reporter, stop: &AtomicBool) -> Result<(), SinkError> {
    let jobs = plan.jobs.max(1);
    let turns = plan.level == Level::Full;
    std::thread::scope(|scope| {
        let mut to_workers = Vec::with_capacity(jobs);
        let mut from_workers = Vec::with_capacity(jobs);
        for _ in 0..jobs {
            let (tables_tx, tables_rx) = sync_channel::<Vec<TableGame>>(QUEUE);
            let (records_tx, records_rx) = sync_channel::<Vec<GameRecord>>(QUEUE);
            scope.spawn(move || {
                let mut scratch = table::builtins::Scratch::default();
                for chunk in tables_rx {
                    let records = chunk
                        .into_iter()
                        .map(|mut t| {
                            let names = t.seats.iter_mut().map(|s| std::mem::take(&mut s.name));
                            let names = names.collect();
                            table::builtins::play_with(&t, names, turns, &mut scratch)
                        })
                        .collect();
                    if records_tx.send(records).is_err() {
                        break;
                    }
                }
            });
            to_workers.push(tables_tx);
            from_workers.push(records_rx);
        }
        scope.spawn(move || {
            // Each built-in's name, made once rather than formatted per seat per game.
            let names: std::collections::HashMap<Entrant, String> = plan
                .schedule
                .builtins()
                .into_iter()
                .map(|e| (e, e.name(&[])))
                .collect();
            let mut plans = plan
                .schedule
                .plans()
                .filter(|p| plan.shard.holds(p.game) && !plan.done.contains(p.game));
            for w in (0..jobs).cycle() {
                if stop.load(Ordering::Relaxed) || plan.enough.load(Ordering::Relaxed) {
                    break;
                }
                let chunk: Vec<TableGame> = plans
                    .by_ref()
                    .take(CHUNK)
                    .map(|p| table_of(p, plan.rounds, &names))
                    .collect();
                // A worker gone means the reporter stopped taking records.
                if chunk.is_empty() || to_workers[w].send(chunk).is_err() {
                    break;
                }
            }
            // Dropping the senders ends each worker after its last chunk.
        });
        // Dropping the receivers on an error makes the workers, then the producer, stop.
        for w in (0..jobs).cycle() {
            let Ok(records) = from_workers[w].recv() else {
                break;
            };
            for record in records {
                let outcome = GameOutcome {
                    record,
                    logs: Vec::new(),
                };
                if let Err(e) = reporter.played(&outcome) {
                    stop.store(true, Ordering::Relaxed);
                    return Err(e);
                }
            }
            reporter.burst_done()?;
        }
        reporter.flush()
    })
}

/// The table of a plan whose seats are all built-ins.
fn table_of(
    plan: GamePlan,
    rounds: u32,
    names: &std::collections::HashMap<Entrant, String>,
) -> TableGame {
    TableGame {
        game: plan.game,
        seed: plan.seed,
        subset: plan.subset,
        rotation: plan.rotation,
        rounds,
        seats: plan
            .seats
            .iter()
            .map(|e| match e {
                Entrant::Builtin(strategy, _) => TableSeat {
                    name: names.get(e).cloned().unwrap_or_else(|| e.name(&[])),
                    occupant: Occupant::Builtin(*strategy),
                },
                Entrant::Bot(_) => unreachable!("a series of built-ins only has no bot"),
            })
            .collect(),
    }
}
