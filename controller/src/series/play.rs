//! Playing a series' games into its outputs: the sinks, then the games on the async tables
//! or, for built-ins only, on plain threads.

use std::future::Future;
use std::sync::Arc;
use std::time::Duration;

use tokio::sync::mpsc;

use super::manifest::Manifest;
use super::reporter::{Event, Reporter, Sink, Start};
use super::sinks::{self, Footer, games::GamesFile};
use crate::config::Settings;
use crate::player::Console as Keyboard;
use crate::sandbox::Sandbox;
use crate::schedule::Schedule;
use crate::shard::Shard;
use crate::table::{Occupant, TableSeat};

use super::dir::{GAMES, SeriesDir};
use super::lineup::{Lineup, start_line};
use super::sinks::progress::BarSlot;
use super::{SeriesError, SeriesOutcome, Status};
use super::{dispatch, threads};

/// The reporter of a series that plays: its outputs ([`sinks`]) and, under
/// `--until-separated`, the rule that stops it.
pub(super) fn reporter(
    settings: &Settings,
    dir: &SeriesDir,
    manifest: Manifest,
    lineup: &Lineup,
    bar: BarSlot,
) -> Reporter {
    Reporter::new(&dir.id, sinks(settings, dir, manifest, lineup, bar)).until_separated(
        settings.until_separated.then_some(settings.top),
        &lineup.enough,
    )
}

/// The outputs of a series that plays, in the order they see each event: `games.jsonl` before
/// `series.toml` (a checkpoint is on disk before it is recorded), the bar cleared before the
/// last lines are printed.
fn sinks(
    settings: &Settings,
    dir: &SeriesDir,
    manifest: Manifest,
    lineup: &Lineup,
    bar: BarSlot,
) -> Vec<Box<dyn Sink>> {
    // A repository's folder that holds no bot was a note on stderr, not a skip to list.
    let skipped = lineup
        .skipped
        .iter()
        .filter(|s| !s.reason.starts_with(crate::bots::NOT_A_BOT))
        .map(|s| (s.name.clone(), s.reason.clone()))
        .collect();
    let sinks: Vec<Box<dyn Sink>> = vec![
        Box::new(GamesFile::new(dir.file(GAMES))),
        Box::new(sinks::bot_logs::BotLogs::new(dir.path.join("logs"))),
        // A progress bar would only get in the way of a person reading the board.
        Box::new(
            sinks::progress::Progress::new(bar.clone(), settings.human.is_none())
                .standings_every(settings.standings_every),
        ),
        Box::new(
            sinks::Console::new(bar, settings.place(), dir.path.clone())
                .person(settings.human.clone()),
        ),
        Box::new(sinks::Leaderboard::new(dir.path.clone())),
        Box::new(sinks::reply_times::ReplyTimesFile::new(dir.path.clone())),
        Box::new(sinks::ManifestFile::new(dir.path.clone(), manifest)),
        Box::new(sinks::report::Report::new(dir.path.clone())),
        Box::new(
            sinks::Summary::new(
                Box::new(std::io::stdout()),
                skipped,
                Footer::Series {
                    seed: settings.seed,
                    dir: dir.path.clone(),
                },
            )
            .until_separated(settings.until_separated.then_some(settings.top))
            .person(settings.human.clone()),
        ),
    ];
    sinks
}

/// Plays the games of `schedule` the reporter has not seen, then ends the series.
pub(super) async fn play(
    settings: &Settings,
    dir: &SeriesDir,
    lineup: &Lineup,
    schedule: &Schedule,
    sandbox: Option<&Arc<Sandbox>>,
    mut reporter: Reporter,
    stop: impl Future<Output = ()>,
) -> Result<SeriesOutcome, SeriesError> {
    let start = Start {
        line: start_line(
            schedule,
            lineup.names.len(),
            reporter.state().lines,
            settings,
            dir,
        ),
        planned: settings
            .shard
            .unwrap_or(Shard::WHOLE)
            .games_of(schedule.total_games()),
    };
    reporter.handle(&Event::Started(&start))?;
    tracing::info!(
        bots = lineup.bots.len(),
        games = schedule.total_games(),
        seed = %settings.seed,
        "series {} starting",
        dir.id
    );
    // Plain threads play built-ins only where the game has a synchronous table
    // ([`crate::game::Game::fast_builtins`]); other games take the async tables.
    let threads =
        settings.builtins_only && !settings.async_tables && settings.game.fast_builtins().is_some();
    let (mut reporter, result, interrupted) = match threads {
        false => on_tables(settings, lineup, schedule, sandbox, reporter, stop).await,
        // Built-ins only: plain threads, no launcher.
        true => {
            let plan = threads::Plan {
                game: settings.game.clone(),
                schedule: schedule.clone(),
                done: reporter.state().done.clone(),
                shard: settings.shard.unwrap_or(Shard::WHOLE),
                jobs: settings.jobs,
                rounds: settings.rounds,
                level: settings.record,
                enough: Arc::clone(&lineup.enough),
            };
            threads::dispatch(plan, reporter, stop).await
        }
    };
    if let Err(e) = result {
        // Best effort: the manifest says the series failed; its last checkpoint stays.
        let _ = reporter.handle(&Event::Finished(Status::Failed));
        return Err(e.into());
    }
    if interrupted {
        reporter.handle(&Event::Interrupted)?;
    }
    let status = if interrupted {
        Status::Interrupted
    } else {
        Status::Complete
    };
    reporter.handle(&Event::Finished(status))?;
    if let Some(why) = sandbox.and_then(|s| s.host_trouble()) {
        return Err(SeriesError::DiskFull(why));
    }
    let state = reporter.state();
    tracing::info!(games = state.lines, "series {} {status:?}", dir.id);
    Ok(SeriesOutcome {
        dir: dir.clone(),
        status,
        standings: state.standings(),
        skipped: lineup.skipped.clone(),
        games_planned: state.planned,
        games_played: state.lines,
        seed: settings.seed,
    })
}

/// The async tables (every game that is not built-ins only on plain threads): the games go
/// to [`dispatch::dispatch`], their outcomes to the reporter on a task of its own. The
/// reporter back, how it ended and whether `stop` cut the series short.
async fn on_tables(
    settings: &Settings,
    lineup: &Lineup,
    schedule: &Schedule,
    sandbox: Option<&Arc<Sandbox>>,
    mut reporter: Reporter,
    stop: impl Future<Output = ()>,
) -> (Reporter, Result<(), super::reporter::SinkError>, bool) {
    let seats = seats_of(settings, lineup, sandbox);
    let (tx, rx) = mpsc::channel(settings.jobs * 2);
    let done = reporter.state().done.clone();
    let task = tokio::spawn(async move {
        let result = reporter.run(rx).await;
        (reporter, result)
    });
    let interrupted = dispatch::dispatch(schedule, &done, &seats, lineup, settings, tx, stop).await;
    let (reporter, result) = task.await.expect("the reporter does not panic");
    // Every game's tree is killed by now; wait for its last processes to exit (a loaded
    // machine may take a while to run a killed process) and its cgroups to go.
    if let Some(settling) = sandbox.cloned() {
        let _ = tokio::task::spawn_blocking(move || {
            settling.settle(Duration::from_secs(10));
        })
        .await;
    }
    (reporter, result, interrupted)
}

/// The seats of the series' entrants: each bot from its working copy in the series' sandbox,
/// with its words on the wire, then the person at the keyboard if any.
pub(crate) fn seats_of(
    settings: &Settings,
    lineup: &Lineup,
    sandbox: Option<&Arc<Sandbox>>,
) -> Vec<TableSeat> {
    lineup
        .bots
        .iter()
        .map(|(bot, wire)| TableSeat {
            name: bot.name.clone(),
            occupant: Occupant::Bot {
                workdir: bot.workdir.clone(),
                wire: wire.clone(),
                language: bot.generated.as_ref().map(|g| g.language),
                modes: bot.modes,
                sandbox: Arc::clone(sandbox.expect("a series of bots has a launcher")),
                transcript: settings.transcript.clone(),
            },
        })
        .chain(settings.human.iter().map(|name| TableSeat {
            name: name.clone(),
            occupant: Occupant::Human(Keyboard::new()),
        }))
        .collect()
}
