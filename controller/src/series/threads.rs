//! Playing a series of built-ins only on `jobs` plain threads: no task, future or channel
//! message per game. A producer thread cuts the schedule's plans into chunks and hands chunk
//! *k* to worker *k* mod `jobs`; each worker plays its chunks in order with the game's
//! synchronous table ([`crate::game::Game::fast_builtins`]), serializes each record to its JSON line (everything but
//! the chain, which runs in line order) and sends the batch back on its own bounded channel;
//! the reporter takes chunk *k* from worker *k* mod `jobs`. So records reach the sinks in game
//! order, and at most a few chunks per worker are ever in memory, however long the series.
//! The reporter hands each batch back to the worker that made it, whose next games are played
//! into its records and strings: a summary game allocates nothing, and memory is freed by the
//! thread that allocated it.

use std::borrow::Cow;
use std::future::Future;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{Receiver, SyncSender, channel, sync_channel};

use super::reporter::{GameSet, Reporter, SinkError};
use crate::game::{FastGame, GameRef};
use crate::record::interner::FastMap;
use crate::record::{GameRecord, Level};
use crate::schedule::{Entrant, GamePlan, Schedule};
use crate::shard::Shard;
use crate::table::BuiltinKind;

/// Games per chunk: big enough that channel traffic and the sinks' flush are per thousands of
/// games at full speed, small enough that a stop is seen within milliseconds.
const CHUNK: usize = 64;

/// Chunks a worker may have waiting, each way.
const QUEUE: usize = 1;

/// A chunk of games played: their records and, back to back, their JSON lines.
#[derive(Default)]
struct Batch {
    /// The first `len` are this chunk's; the rest are spare, to be played into.
    records: Vec<GameRecord>,
    len: usize,
    json: Vec<u8>,
    /// Where each record's JSON ends in `json`.
    ends: Vec<usize>,
}

/// What the threads need of the series, owned so they outlive no borrow.
pub struct Plan {
    /// A game with a synchronous table of built-ins ([`crate::game::Game::fast_builtins`]).
    pub game: GameRef,
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
    let rounds = plan.rounds;
    // Each built-in's kind and name, made once rather than formatted per seat per game.
    let seats: FastMap<Entrant, (BuiltinKind, String)> = plan
        .schedule
        .builtins()
        .into_iter()
        .filter_map(|e| match e {
            Entrant::Builtin(strategy, _) => Some((e, (strategy, e.name(&[])))),
            Entrant::Bot(_) => None,
        })
        .collect();
    let seats = &seats;
    let fast = plan
        .game
        .fast_builtins()
        .expect("the series plays threads only for a game with a synchronous table");
    std::thread::scope(|scope| {
        let mut to_workers = Vec::with_capacity(jobs);
        let mut from_workers = Vec::with_capacity(jobs);
        let mut back_to_workers = Vec::with_capacity(jobs);
        for _ in 0..jobs {
            let (tables_tx, tables_rx) = sync_channel::<Vec<GamePlan>>(QUEUE);
            let (batches_tx, batches_rx) = sync_channel::<Batch>(QUEUE);
            let (spent_tx, spent_rx) = channel::<Batch>();
            let table = fast.table();
            scope.spawn(move || {
                work(
                    table,
                    tables_rx,
                    &batches_tx,
                    &spent_rx,
                    seats,
                    rounds,
                    turns,
                );
            });
            to_workers.push(tables_tx);
            from_workers.push(batches_rx);
            back_to_workers.push(spent_tx);
        }
        scope.spawn(move || produce(plan, jobs, &to_workers, stop));
        // Dropping the receivers on an error makes the workers, then the producer, stop.
        for w in (0..jobs).cycle() {
            let Ok(batch) = from_workers[w].recv() else {
                break;
            };
            let mut start = 0;
            for (record, &end) in batch.records[..batch.len].iter().zip(&batch.ends) {
                if let Err(e) = reporter.played_json(record, &batch.json[start..end]) {
                    stop.store(true, Ordering::Relaxed);
                    return Err(e);
                }
                start = end;
            }
            // A worker gone has nothing more to play into it.
            let _ = back_to_workers[w].send(batch);
            reporter.burst_done()?;
        }
        reporter.flush()
    })
}

/// The producer: the plans to play, in chunks, to the workers in turn.
fn produce(plan: &Plan, jobs: usize, to_workers: &[SyncSender<Vec<GamePlan>>], stop: &AtomicBool) {
    let mut plans = plan
        .schedule
        .plans()
        .filter(|p| plan.shard.holds(p.game) && !plan.done.contains(p.game));
    for w in (0..jobs).cycle() {
        if stop.load(Ordering::Relaxed) || plan.enough.load(Ordering::Relaxed) {
            break;
        }
        let chunk: Vec<GamePlan> = plans.by_ref().take(CHUNK).collect();
        // A worker gone means the reporter stopped taking records.
        if chunk.is_empty() || to_workers[w].send(chunk).is_err() {
            break;
        }
    }
    // Dropping the senders ends each worker after its last chunk.
}

/// A worker: plays each chunk it is sent into a batch (a spent one when the reporter has
/// handed one back) and sends the batch on.
fn work(
    mut table: Box<dyn crate::game::FastTable>,
    chunks: Receiver<Vec<GamePlan>>,
    batches: &SyncSender<Batch>,
    spent: &Receiver<Batch>,
    seats: &FastMap<Entrant, (BuiltinKind, String)>,
    rounds: u32,
    turns: bool,
) {
    let mut strategies = Vec::new();
    for chunk in chunks {
        let mut batch = spent.try_recv().unwrap_or_default();
        batch.len = 0;
        batch.json.clear();
        batch.ends.clear();
        for p in &chunk {
            if batch.records.len() == batch.len {
                batch.records.push(table.blank_record());
            }
            let record = &mut batch.records[batch.len];
            batch.len += 1;
            strategies.clear();
            record.players.truncate(p.seats.len());
            for (seat, e) in p.seats.iter().enumerate() {
                let (strategy, name) = match (seats.get(e), e) {
                    (Some((strategy, name)), _) => (*strategy, Cow::Borrowed(name)),
                    (None, Entrant::Builtin(strategy, _)) => (*strategy, Cow::Owned(e.name(&[]))),
                    (None, Entrant::Bot(_)) => unreachable!("a series of built-ins has no bot"),
                };
                strategies.push(strategy);
                match record.players.get_mut(seat) {
                    Some(old) => old.clone_from(&name),
                    None => record.players.push(name.into_owned()),
                }
            }
            let game = FastGame {
                game: p.game,
                seed: p.seed,
                subset: p.subset,
                rotation: p.rotation,
                rounds,
                seats: &strategies,
            };
            table.play_into(&game, turns, record);
            table.write_record(record, &mut batch.json);
            batch.ends.push(batch.json.len());
        }
        if batches.send(batch).is_err() {
            break;
        }
    }
}
