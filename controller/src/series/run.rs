//! `take6 run`: a new series — the launcher, the bots, the schedule, the manifest — and a
//! series of built-ins only.

use std::future::Future;
use std::sync::Arc;

use super::manifest::Manifest;
use super::start::{Log, Setup};
use crate::bots::{self, Skipped};
use crate::config::Settings;
use crate::schedule::Schedule;

use super::dir;
use super::dir::SeriesDir;
use super::lineup::{Entrant, Lineup, choose};
use super::play::{play, reporter};
use super::sinks::progress::BarSlot;
use super::{SeriesError, SeriesOutcome, Status};

/// Runs a whole new series into `dir`. `stop` resolving (e.g. on Ctrl-C) ends it early:
/// running games are abandoned (their processes killed), finished ones are all kept and the
/// leaderboard is written from them. The summary goes to stdout.
pub async fn run(
    settings: &Settings,
    dir: &SeriesDir,
    stop: impl Future<Output = ()>,
    bar: BarSlot,
) -> Result<SeriesOutcome, SeriesError> {
    let _lock = dir.lock()?;
    if settings.builtins_only {
        return run_builtins(settings, dir, stop, bar).await;
    }
    refuse_unseatable(settings)?;
    for warning in settings.warnings() {
        eprintln!("take6: warning: {warning}");
    }
    let mut start = Setup::open(settings)?;
    start.launch(settings)?;
    // Watch for a stop from the start: builds can take minutes.
    let mut stop = std::pin::pin!(stop);
    let (mut bots, mut skipped) = start
        .entrants(settings, dir, (&bar, Arc::default()), None, &mut stop)
        .await?;
    let place = settings.place();
    for (bot, _) in &bots {
        for warning in &bot.warnings {
            eprintln!(
                "take6: warning: {}: {warning}",
                crate::untrusted::terminal(&place.of(&bot.name))
            );
        }
    }
    let chosen = match &settings.against {
        Some(against) => choose(
            against,
            &settings.game,
            &mut bots,
            &mut skipped,
            &settings.bots,
        )?,
        None => None,
    };
    seat_the_person(settings, &mut bots, &mut skipped)?;
    skipped.sort_by(|a, b| a.name.cmp(&b.name));
    // Everyone who is not a built-in, in schedule order: the bots, then the person if any.
    let names: Vec<String> = bots
        .iter()
        .map(|(b, _)| b.name.clone())
        .chain(settings.human.clone())
        .collect();
    if names.is_empty() {
        return Err(no_usable_bot(
            settings, dir, &start, &bots, &names, &skipped,
        )?);
    }
    let schedule = schedule_of(settings, names.len(), chosen.as_deref())?;
    let mut manifest = Manifest::new(dir, settings, &bots, &names, &skipped, Some(&schedule));
    manifest.sandbox = Some(start.sandbox().report().into());
    manifest.toolchains = start.tools.record();
    let lineup = Lineup::of(bots, names, skipped);
    dir.make_latest();
    let mut reporter = reporter(settings, dir, manifest, &lineup, bar);
    Setup::read_back(&mut reporter, dir, &lineup.skipped, Log::New)?;
    let sandbox = start.sandbox.clone();
    play(
        settings,
        dir,
        &lineup,
        &schedule,
        sandbox.as_ref(),
        reporter,
        stop,
    )
    .await
}

/// Settings that cannot seat the bots found are refused before any is copied or built (a
/// build can take minutes; a schedule that cannot be made is known at once).
fn refuse_unseatable(settings: &Settings) -> Result<(), SeriesError> {
    if settings.human.is_none() && settings.against.is_none() {
        let at_most = bots::entrants_at_most(&settings.bots, settings.game.name());
        if at_most > 0 {
            Schedule::new(settings.schedule_request(at_most))?;
        }
    }
    Ok(())
}

/// `take6 play`: the person at the keyboard always plays, so a bot of their name is refused
/// and the other seats are the most bots that sit with them (the rest are skipped, saying why).
fn seat_the_person(
    settings: &Settings,
    bots: &mut Vec<Entrant>,
    skipped: &mut Vec<Skipped>,
) -> Result<(), SeriesError> {
    if let Some(human) = &settings.human {
        // A person sits at a table of one game: bots of another were never candidates, and
        // are not listed (as with --against).
        skipped.retain(|s| !s.is_left_out());
        // A bot whose name looks like the person's (case folding, confusables) is as taken.
        let look = crate::names::look(human);
        if bots
            .iter()
            .any(|(b, _)| crate::names::look(&b.name) == look)
        {
            return Err(SeriesError::NameTaken(human.clone()));
        }
        // The person always plays: the other seats are the most bots that sit with them.
        while bots.len() >= settings.players {
            let (bot, _) = bots.pop().expect("more than nine");
            skipped.push(Skipped {
                name: bot.name,
                reason: format!(
                    "the table is full: at most {} can sit with {human} (choose which with \
                     --against NAME..., or give a folder of fewer bots with --bots DIR)",
                    crate::names::count(settings.players as u64 - 1, "bot")
                ),
            });
        }
    }
    Ok(())
}

/// A series without a usable bot: each skipped folder said on stderr, `series.toml` written
/// with the status `no-usable-bot`, and the error that names the reasons.
fn no_usable_bot(
    settings: &Settings,
    dir: &SeriesDir,
    start: &Setup,
    bots: &[Entrant],
    names: &[String],
    skipped: &[Skipped],
) -> Result<SeriesError, SeriesError> {
    for s in skipped {
        eprintln!("{}", s.line(&settings.place()));
    }
    let mut manifest = Manifest::new(dir, settings, bots, names, skipped, None);
    manifest.sandbox = Some(start.sandbox().report().into());
    manifest.toolchains = start.tools.record();
    manifest.status = Status::NoUsableBot;
    manifest.finished = Some(dir::now());
    manifest.write(&dir.path)?;
    let reasons = if skipped.is_empty() {
        "  (it holds no bot folder: --bots takes a folder of bot folders, or one bot's \
         folder; a bot folder holds an executable 'launch', or source take6 writes one \
         for)"
            .to_string()
    } else {
        skipped
            .iter()
            .map(|s| {
                format!(
                    "  {}: {}",
                    crate::untrusted::terminal(&s.name),
                    crate::untrusted::terminal_text(&s.reason).replace('\n', "\n    ")
                )
            })
            .collect::<Vec<_>>()
            .join("\n")
    };
    Ok(SeriesError::NoUsableBots {
        folder: settings.bots.clone(),
        reasons,
    })
}

/// The series' schedule: the settings' request for `entrants`, or, with `take6 play
/// --against`, exactly the entrants and the `chosen` built-ins at one table.
fn schedule_of(
    settings: &Settings,
    entrants: usize,
    chosen: Option<&[crate::table::BuiltinKind]>,
) -> Result<Schedule, SeriesError> {
    let mut request = settings.schedule_request(entrants);
    if let Some(strategies) = chosen {
        // take6 play --against: exactly these players, at one table.
        request.players = entrants + strategies.len();
    }
    let mut schedule = Schedule::new(request)?;
    if let Some(strategies) = chosen {
        schedule = schedule.with_builtins(strategies);
    }
    Ok(schedule)
}

/// `take6 run --builtins-only`: a calibration series of the built-in strategies, no bot
/// folder read and no sandbox needed, played on plain threads.
pub(super) async fn run_builtins(
    settings: &Settings,
    dir: &SeriesDir,
    stop: impl Future<Output = ()>,
    bar: BarSlot,
) -> Result<SeriesOutcome, SeriesError> {
    let schedule = Schedule::builtins_only(settings.schedule_request(0))?;
    let mut manifest = Manifest::new(dir, settings, &[], &[], &[], Some(&schedule));
    let mut stop = std::pin::pin!(stop);
    // A game's built-ins that are its own programs (a game folder's padding bots, and its
    // judge) are built as a series of bots builds them, and run through the sandbox.
    let mut start = Setup::open(settings)?;
    if settings.game.code().is_some() {
        start.launch(settings)?;
    }
    start.game_code(settings, dir, 0, &mut stop).await?;
    if let Some(sandbox) = &start.sandbox {
        manifest.sandbox = Some(sandbox.report().into());
        manifest.toolchains = start.tools.record();
    }
    let lineup = Lineup::of(Vec::new(), Vec::new(), Vec::new());
    dir.make_latest();
    let reporter = reporter(settings, dir, manifest, &lineup, bar);
    let sandbox = start.sandbox.clone();
    play(
        settings,
        dir,
        &lineup,
        &schedule,
        sandbox.as_ref(),
        reporter,
        stop,
    )
    .await
}
