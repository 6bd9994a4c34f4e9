//! Playing the games: up to `jobs` tables at once, each on a lane of its own (a thread with its
//! own runtime, see [`super::lanes`]), each game's outcome sent to the reporter.

use std::future::Future;
use std::sync::Arc;
use std::sync::atomic::Ordering;

use tokio::sync::mpsc;
use tokio::task::JoinSet;

use super::bench::Bench;
use super::reporter::GameSet;
use crate::config::Settings;
use crate::record::{GameName, Level};
use crate::schedule::{Entrant, GamePlan, Schedule};
use crate::shard::Shard;
use crate::table::{GameOutcome, Occupant, TableGame, TableSeat};

/// Plays every planned game of this folder's shard not in `done`, at most `jobs` at once, sending each outcome to the
/// reporter. Returns whether `stop` cut the series short.
pub async fn dispatch(
    schedule: &Schedule,
    done: &GameSet,
    seats: &[TableSeat],
    lineup: &super::lineup::Lineup,
    settings: &Settings,
    tx: mpsc::Sender<Box<GameOutcome>>,
    stop: impl Future<Output = ()>,
) -> bool {
    // A shard plays only its own game numbers; the others are other machines'.
    let shard = settings.shard.unwrap_or(Shard::WHOLE);
    let plans = schedule
        .plans()
        .filter(|p| shard.holds(p.game) && !done.contains(p.game));
    dispatch_plans(plans, seats, lineup, settings, tx, stop).await
}

/// Plays `plans` (a series' schedule, or a league's batch), at most `jobs` at once, sending
/// each outcome to the reporter. Returns whether `stop` cut the games short.
pub async fn dispatch_plans(
    mut plans: impl Iterator<Item = GamePlan>,
    seats: &[TableSeat],
    lineup: &super::lineup::Lineup,
    settings: &Settings,
    tx: mpsc::Sender<Box<GameOutcome>>,
    stop: impl Future<Output = ()>,
) -> bool {
    let limits = settings.limits();
    let names = &lineup.names;
    let mut running = JoinSet::new();
    // The lanes free for a table, and the lane of each game being played.
    let mut free: Vec<usize> = (0..settings.jobs).rev().collect();
    let mut lane_of = std::collections::HashMap::new();
    let mut lanes_failed = false;
    // The processor of each lane, when tables are pinned (see crate::affinity).
    let cpus = crate::affinity::plan(settings.pin_tables, settings.jobs);
    // `take6 check` (one game at a time): the same fault twice in a row is enough to explain,
    // seen before the game's table is free, so that no later game starts.
    let repeated = settings.transcript.is_some().then(|| {
        Arc::new(super::repeated::RepeatedFault::new(Arc::clone(
            &lineup.enough,
        )))
    });
    // The game's name, for each table's record: made once, cloned without allocating.
    let name = settings.game.record_name();
    // The bots' launcher: a bot that cannot be seated for want of the host's disk stops the
    // series (see `host_trouble`).
    let launcher = seats.iter().find_map(|seat| match &seat.occupant {
        Occupant::Bot { sandbox, .. } => Some(Arc::clone(sandbox)),
        _ => None,
    });
    let host_ok = move || launcher.as_ref().is_none_or(|s| s.host_trouble().is_none());
    let work = async {
        loop {
            // A closed channel means the reporter failed (it reports why): play no more.
            // Under --until-separated, a known answer also means no more games.
            while running.len() < settings.jobs
                && !tx.is_closed()
                && !lineup.enough.load(Ordering::Relaxed)
                && host_ok()
            {
                let Some(plan) = plans.next() else { break };
                let table = table_of(&plan, settings, &name, seats, names);
                let game = game_task(
                    table,
                    limits,
                    settings,
                    lineup,
                    repeated.clone(),
                    host_ok.clone(),
                    tx.clone(),
                );
                let number = free.pop().expect("fewer games than jobs are running");
                let cpu = cpus.get(number).copied();
                let task = on_lane(&mut running, number, cpu, game, &mut lanes_failed);
                lane_of.insert(task, number);
            }
            let id = match running.join_next_with_id().await {
                None => break,
                Some(Ok((id, ()))) => id,
                Some(Err(e)) => e.id(),
            };
            free.extend(lane_of.remove(&id));
        }
    };
    let interrupted = tokio::select! {
        () = work => false,
        () = stop => true,
    };
    // Dropping a game's task drops its processes, which kills their process groups.
    running.shutdown().await;
    interrupted || !host_ok()
}

/// One planned game's task: plays `table` under `limits`, then, unless the host failed it,
/// shows its record to the repeated-fault watch and the bench and sends its outcome to the
/// reporter.
fn game_task(
    table: TableGame,
    limits: crate::player::Limits,
    settings: &Settings,
    lineup: &super::lineup::Lineup,
    repeated: Option<Arc<super::repeated::RepeatedFault>>,
    host_ok: impl Fn() -> bool + Send + 'static,
    tx: mpsc::Sender<Box<GameOutcome>>,
) -> impl Future<Output = ()> + Send + 'static {
    let level = settings.record;
    let bench_after = settings.bench_after;
    let rules = settings.game.clone();
    // `take6 check` stops on a repeated fault instead; a person's game is one game.
    let bench = (repeated.is_none() && settings.human.is_none() && bench_after > 0)
        .then(|| Bench::bots_of(&table.seats))
        .flatten()
        .map(|bots| (Arc::clone(&lineup.bench), bots));
    async move {
        let mut outcome = rules.play(table, limits).await;
        // A game in which a bot could not be seated through no fault of its own
        // is not recorded: it is played again at --resume.
        if !host_ok() {
            return;
        }
        if let Some(repeated) = repeated {
            repeated.see(&outcome.record);
        }
        if let Some((bench, bots)) = bench {
            bench.see(&outcome.record, &bots, bench_after);
        }
        if level == Level::Summary {
            outcome.record = outcome.record.summary();
        }
        // The reporter only goes away if it failed; that error is reported there.
        let _ = tx.send(Box::new(outcome)).await;
    }
}

/// The table of a planned game: the series' game and rounds, its bots' seats as the lineup
/// made them, and its built-ins named by their place (`random#2`). `name` is the series'
/// game's.
fn table_of(
    plan: &GamePlan,
    settings: &Settings,
    name: &GameName,
    seats: &[TableSeat],
    names: &[String],
) -> TableGame {
    TableGame {
        game: plan.game,
        rules: name.clone(),
        seed: plan.seed,
        subset: plan.subset,
        rotation: plan.rotation,
        rounds: settings.rounds,
        seats: plan
            .seats
            .iter()
            .map(|e| match e {
                Entrant::Bot(i) => seats[*i].clone(),
                Entrant::Builtin(strategy, _) => TableSeat {
                    name: e.name(names),
                    occupant: Occupant::Builtin(*strategy),
                },
            })
            .collect(),
    }
}

/// Starts a game on lane `number` (a thread of its own, on processor `cpu` when tables are
/// pinned). A lane that cannot start plays its games on the shared runtime: the same games,
/// only slower, said once (`lanes_failed`). The game's task id.
fn on_lane(
    running: &mut JoinSet<()>,
    number: usize,
    cpu: Option<usize>,
    game: impl Future<Output = ()> + Send + 'static,
    lanes_failed: &mut bool,
) -> tokio::task::Id {
    match super::lanes::lane(number) {
        Ok(lane) => {
            let game = async move {
                // The lane's thread (and what it starts) on the table's processor, or,
                // unpinned, wherever the system puts it.
                crate::affinity::pin_thread(cpu);
                game.await
            };
            running.spawn_on(game, &lane).id()
        }
        Err(e) => {
            if !*lanes_failed {
                *lanes_failed = true;
                tracing::warn!(
                    "cannot start a thread for a table ({e}): tables share the runtime's threads"
                );
            }
            running.spawn(game).id()
        }
    }
}
