//! `take6 run`: a new series — the launcher, the bots, the schedule, the manifest — and a
//! series of built-ins only.

use std::future::Future;
use std::sync::Arc;

use super::manifest::Manifest;
use super::reporter::Event;
use crate::bots::{self, Skipped};
use crate::config::Settings;
use crate::game::Wires;
use crate::sandbox::{Release, Sandbox};
use crate::schedule::Schedule;

use super::dir;
use super::dir::SeriesDir;
use super::lineup::{Entrant, Lineup, choose, with_wires};
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
    eprintln!("take6: {}", settings.limits_line());
    let wires = settings
        .game
        .wires(settings.templates.as_deref())
        .map_err(SeriesError::Templates)?;
    let sandbox = launcher(settings)?;
    // Whatever the end, the working copies are copied back out of their disk images.
    let _release = Release(Arc::clone(&sandbox));
    // Watch for a stop from the start: builds can take minutes.
    let mut stop = std::pin::pin!(stop);
    // What a folder without `launch` can be built with, looked up once for the series.
    let tools = bots::Toolchains::for_sandbox(&sandbox).in_dialect(settings.game.build_dialect());
    let (mut bots, mut skipped) = prepare_entrants(
        settings,
        dir,
        (&sandbox, &bar),
        &tools,
        (wires, Arc::default()),
        &mut stop,
    )
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
            settings, dir, &sandbox, &tools, &bots, &names, &skipped,
        )?);
    }

    let schedule = schedule_of(settings, names.len(), chosen.as_deref())?;
    let mut manifest = Manifest::new(dir, settings, &bots, &names, &skipped, Some(&schedule));
    manifest.sandbox = Some(sandbox.report().into());
    manifest.toolchains = tools.record();
    let lineup = Lineup {
        bots,
        names,
        skipped,
        enough: Arc::default(),
        bench: Arc::default(),
    };
    dir.make_latest();
    let mut reporter = reporter(settings, dir, manifest, &lineup, bar);
    for s in &lineup.skipped {
        reporter.handle(&Event::BotSkipped(s))?;
    }
    play(
        settings,
        dir,
        &lineup,
        &schedule,
        Some(&sandbox),
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

/// Everything made before the first game, each step given up at a stop: the bots copied and
/// built, the game's own programs (a loaded game's judge and padding bots) built as the bots
/// are, and each bot's words on the wire made by the game (a bot's own template set compiled
/// and trial-rendered). The bots with their wires, and those skipped.
pub(crate) async fn prepare_entrants(
    settings: &Settings,
    dir: &SeriesDir,
    (sandbox, bar): (&Arc<Sandbox>, &BarSlot),
    tools: &bots::Toolchains,
    (wires, kept): (Option<Box<dyn Wires>>, Arc<bots::KeptCopies>),
    stop: &mut std::pin::Pin<&mut impl Future<Output = ()>>,
) -> Result<(Vec<Entrant>, Vec<Skipped>), SeriesError> {
    // `take6 play` against built-ins only needs no bots folder.
    if settings.human.is_some() && !settings.bots.exists() {
        let ctx = game_context(settings, dir, sandbox, tools, 0);
        tokio::select! {
            ready = settings.game.prepare_code(&ctx) => ready.map_err(SeriesError::Game)?,
            () = stop.as_mut() => return Err(SeriesError::InterruptedBeforeGames),
        };
        return Ok((Vec::new(), Vec::new()));
    }
    // Each build said as it starts and ends: a dozen bots can take half a minute.
    let progress = Arc::new(super::builds::BuildProgress::new(bar.clone()));
    let prepared = tokio::select! {
        prepared = bots::prepare(bots::BuildPlan {
            build_timeout: settings.build_timeout(),
            jobs: settings.jobs,
            max_data: settings.max_bot_bytes(),
            prewarm: bots::Prewarm {
                games_at_once: settings.jobs.min(usize::try_from(settings.games).unwrap_or(usize::MAX)),
                seats: settings.players,
            },
            watch: progress.clone(),
            kept,
            ..bots::BuildPlan::new((&settings.bots, &dir.path), sandbox, tools, game_names(settings))
        }) => Some(prepared),
        () = stop.as_mut() => None,
    };
    progress.finish();
    let Some(prepared) = prepared else {
        return Err(SeriesError::InterruptedBeforeGames);
    };
    let (found, mut skipped) = prepared?;
    if settings.bots_repository.is_some() {
        bots::left_out_of_repository(&settings.bots, &mut skipped);
    }
    let ctx = game_context(settings, dir, sandbox, tools, found.len());
    tokio::select! {
        ready = settings.game.prepare_code(&ctx) => ready.map_err(SeriesError::Game)?,
        () = stop.as_mut() => return Err(SeriesError::InterruptedBeforeGames),
    };
    // Compiling and trial-rendering the bots' own template sets is CPU work, bounded per render
    // but not in total: off the async threads, and given up at a stop.
    let compiled = tokio::task::spawn_blocking(move || {
        let bots = with_wires(wires.as_deref(), found, &mut skipped);
        (bots, skipped)
    });
    tokio::select! {
        compiled = compiled => Ok(compiled.expect("compiling templates does not panic")),
        () = stop.as_mut() => Err(SeriesError::InterruptedBeforeGames),
    }
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
    sandbox: &Sandbox,
    tools: &bots::Toolchains,
    bots: &[Entrant],
    names: &[String],
    skipped: &[Skipped],
) -> Result<SeriesError, SeriesError> {
    for s in skipped {
        eprintln!("{}", s.line(&settings.place()));
    }
    let mut manifest = Manifest::new(dir, settings, bots, names, skipped, None);
    manifest.sandbox = Some(sandbox.report().into());
    manifest.toolchains = tools.record();
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
    let sandbox = if settings.game.code().is_some() {
        eprintln!("take6: {}", settings.limits_line());
        let sandbox = launcher(settings)?;
        let tools = bots::Toolchains::for_sandbox(&sandbox);
        let ctx = game_context(settings, dir, &sandbox, &tools, 0);
        tokio::select! {
            ready = settings.game.prepare_code(&ctx) => ready.map_err(SeriesError::Game)?,
            () = stop.as_mut() => return Err(SeriesError::InterruptedBeforeGames),
        };
        manifest.sandbox = Some(sandbox.report().into());
        manifest.toolchains = tools.record();
        Some(sandbox)
    } else {
        None
    };
    let _release = sandbox.as_ref().map(|s| Release(Arc::clone(s)));
    let lineup = Lineup {
        bots: Vec::new(),
        names: Vec::new(),
        skipped: Vec::new(),
        enough: Arc::default(),
        bench: Arc::default(),
    };
    dir.make_latest();
    let reporter = reporter(settings, dir, manifest, &lineup, bar);
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

/// The game a series' bots are prepared for, and every game's name (a `bot.toml` that is not
/// valid is told them).
pub(crate) fn game_names(settings: &Settings) -> bots::GameNames {
    bots::GameNames {
        playing: settings.game.name().to_string(),
        known: crate::games::known(),
    }
}

/// What the game's [`crate::game::GameCode::prepare`] builds with: the series' folder, sandbox,
/// toolchains and build limits, and whether its built-ins may play beside the series'
/// `bots` bots.
pub(super) fn game_context(
    settings: &Settings,
    dir: &SeriesDir,
    sandbox: &Arc<Sandbox>,
    tools: &bots::Toolchains,
    bots: usize,
) -> crate::game::Prepare {
    crate::game::Prepare {
        needs_builtins: bots < settings.players
            || settings.against.is_some()
            || settings.human.is_some(),
        series_dir: dir.path.clone(),
        sandbox: Arc::clone(sandbox),
        tools: tools.clone(),
        build_timeout: settings.build_timeout(),
        jobs: settings.jobs,
        max_data: settings.max_bot_bytes(),
    }
}

/// The idle disk images a series keeps mounted beyond the seated bots': as many as the seats
/// of the tables played at once.
pub(crate) fn images_kept(settings: &Settings) -> usize {
    settings.jobs.max(1) * settings.players.max(1)
}

/// The launcher of a series' bots: what this machine allows for `--sandbox`, said on stderr;
/// warm sandboxes when they are asked for and possible.
pub(crate) fn launcher(settings: &Settings) -> Result<Arc<Sandbox>, SeriesError> {
    let mut sandbox = Sandbox::new(settings.sandbox, settings.sandbox_limits(), settings.clock)?;
    sandbox.pin_tables(crate::affinity::plan(settings.pin_tables, settings.jobs));
    // Disk images for the bots at the tables and as many idle ones (sandbox/seats.rs).
    sandbox.keep_images(images_kept(settings));
    if settings.warm_sandboxes {
        // This binary is a warm sandbox's init (`take6 sandbox-init`).
        if let Ok(exe) = std::env::current_exe() {
            sandbox.keep_warm(exe);
        }
    }
    eprintln!("take6: {}", sandbox.report().stderr_line());
    Ok(Arc::new(sandbox))
}
