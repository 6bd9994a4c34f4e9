//! Playing the games: up to `jobs` tables at once, each game's outcome sent to the reporter.

use std::future::Future;

use tokio::sync::mpsc;
use tokio::task::JoinSet;

use super::reporter::GameSet;
use crate::config::Settings;
use crate::schedule::{Entrant, Schedule};
use crate::table::{self, GameOutcome, Occupant, TableGame, TableSeat};

/// Plays every planned game not in `done`, at most `jobs` at once, sending each outcome to the
/// reporter. Returns whether `stop` cut the series short.
pub async fn dispatch(
    schedule: &Schedule,
    done: &GameSet,
    seats: &[TableSeat],
    names: &[String],
    settings: &Settings,
    tx: mpsc::Sender<Box<GameOutcome>>,
    stop: impl Future<Output = ()>,
) -> bool {
    let limits = settings.limits();
    let mut running = JoinSet::new();
    let mut plans = schedule.plans().filter(|p| !done.contains(p.game));
    let work = async {
        loop {
            // A closed channel means the reporter failed (it reports why): play no more.
            while running.len() < settings.jobs && !tx.is_closed() {
                let Some(plan) = plans.next() else { break };
                let table = TableGame {
                    game: plan.game,
                    seed: plan.seed,
                    subset: plan.subset,
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
                    let outcome = table::play(table, limits).await;
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
