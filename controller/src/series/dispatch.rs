//! Playing the games: up to `jobs` tables at once, each game's outcome sent to the reporter.

use std::future::Future;
use std::sync::atomic::Ordering;

use tokio::sync::mpsc;
use tokio::task::JoinSet;

use super::reporter::GameSet;
use crate::config::Settings;
use crate::record::Level;
use crate::schedule::{Entrant, Schedule};
use crate::shard::Shard;
use crate::table::{self, GameOutcome, Occupant, TableGame, TableSeat};

/// Plays every planned game of this folder's shard not in `done`, at most `jobs` at once, sending each outcome to the
/// reporter. Returns whether `stop` cut the series short.
pub async fn dispatch(
    schedule: &Schedule,
    done: &GameSet,
    seats: &[TableSeat],
    lineup: &super::Lineup,
    settings: &Settings,
    tx: mpsc::Sender<Box<GameOutcome>>,
    stop: impl Future<Output = ()>,
) -> bool {
    let limits = settings.limits();
    let level = settings.record;
    let names = &lineup.names;
    let mut running = JoinSet::new();
    // A shard plays only its own game numbers; the others are other machines'.
    let shard = settings.shard.unwrap_or(Shard::WHOLE);
    let mut plans = schedule
        .plans()
        .filter(|p| shard.holds(p.game) && !done.contains(p.game));
    let work = async {
        loop {
            // A closed channel means the reporter failed (it reports why): play no more.
            // Under --until-separated, a known answer also means no more games.
            while running.len() < settings.jobs
                && !tx.is_closed()
                && !lineup.enough.load(Ordering::Relaxed)
            {
                let Some(plan) = plans.next() else { break };
                let table = TableGame {
                    game: plan.game,
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
                };
                let tx = tx.clone();
                running.spawn(async move {
                    let mut outcome = table::play(table, limits).await;
                    if level == Level::Summary {
                        outcome.record = outcome.record.summary();
                    }
                    // The reporter only goes away if it failed; that error is reported there.
                    let _ = tx.send(Box::new(outcome)).await;
                });
            }
            if running.join_next().await.is_none() {
                break;
            }
        }
    };
    let interrupted = tokio::select! {
        () = work => false,
        () = stop => true,
    };
    // Dropping a game's task drops its processes, which kills their process groups.
    running.shutdown().await;
    interrupted
}
