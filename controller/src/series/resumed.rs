//! `take6 run --resume`: a stopped series continued where it stopped.

use std::future::Future;
use std::sync::Arc;

use super::manifest::Manifest;
use crate::bots::Skipped;
use crate::config::{RunArgs, Settings};
use crate::sandbox::Sandbox;
use crate::schedule::Schedule;

use super::continued::{Continued, Why, same_game};
use super::dir::SeriesDir;
use super::lineup::{Entrant, Lineup};
use super::play::{play, reporter};
use super::replay::verify;
use super::resume as accept;
use super::sinks::progress::BarSlot;
use super::start::{Log, Setup};
use super::{SeriesError, SeriesOutcome, Status};

/// Continues the series in `dir` after an interruption, a `kill -9`, a crash or a full disk:
/// checks that nothing that makes the games changed, replays `games.jsonl` into the outputs
/// (dropping a torn last line) and plays the games it does not hold.
pub async fn resume(
    dir: &SeriesDir,
    args: &RunArgs,
    stop: impl Future<Output = ()>,
    bar: BarSlot,
) -> Result<SeriesOutcome, SeriesError> {
    let _lock = dir.lock()?;
    let mut manifest = resumable_manifest(dir)?;
    let origin = accept::origin(&manifest, &dir.path);
    let settings = accept::settings(args, &manifest, origin.as_deref())?;
    restore_repository(&settings, origin.as_deref())?;
    let mut start = Setup::open(&settings)?;
    let bots = same_bots_and_game(&mut start, &mut manifest, dir, &settings)?;
    // After the checks of what was asked (a flag that would change the games is said first).
    if manifest.status == Status::Complete {
        return Err(SeriesError::NothingToResume {
            dir: dir.path.clone(),
            games: manifest.games_played,
        });
    }
    // Only for a series that plays on: a complete one's error comes alone.
    for warning in &manifest.warnings {
        eprintln!("take6: warning: {warning}");
    }
    let names: Vec<String> = bots.iter().map(|(b, _)| b.name.clone()).collect();
    let schedule = if settings.builtins_only {
        Schedule::builtins_only(settings.schedule_request(0))?
    } else {
        Schedule::new(settings.schedule_request(names.len()))?
    };

    // The log must be sound before more is added to it.
    sound_log(dir)?;

    // Built-ins that are programs of the game (a game folder's padding bots) are built and
    // run through the sandbox as bots are.
    let mut stop = std::pin::pin!(stop);
    if !settings.builtins_only || settings.game.code().is_some() {
        start.launch(&settings)?;
        let sources: Vec<&std::path::Path> = bots.iter().map(|(b, _)| b.source.as_path()).collect();
        crate::bots::room::check_resumed(
            &dir.path,
            &sources,
            start.sandbox(),
            (settings.jobs, settings.players),
            settings.max_bot_bytes(),
        )?;
        take_back(&settings, start.sandbox(), &bots)?;
        start
            .game_code(&settings, dir, bots.len(), &mut stop)
            .await?;
    }
    manifest.sandbox = start.sandbox.as_ref().map(|s| s.report().into());
    manifest.attempts += 1;
    let skipped = manifest
        .skipped
        .iter()
        .map(|s| Skipped {
            name: s.name.clone(),
            reason: s.reason.clone(),
        })
        .collect();
    let lineup = Lineup::of(bots, names, skipped);
    let mut reporter = reporter(&settings, dir, manifest, &lineup, bar);
    Setup::read_back(&mut reporter, dir, &[], Log::Continued)?;
    tracing::info!(games = reporter.state().lines, "series {} resumed", dir.id);
    let sandbox = start.sandbox.clone();
    play(
        &settings,
        dir,
        &lineup,
        &schedule,
        sandbox.as_ref(),
        reporter,
        stop,
    )
    .await
}

/// The series' bots with their words on the wire, each as the series began, and its game's
/// code unchanged (a series from before the game's hash was kept records it now).
fn same_bots_and_game(
    start: &mut Setup,
    manifest: &mut Manifest,
    dir: &SeriesDir,
    settings: &Settings,
) -> Result<Vec<Entrant>, SeriesError> {
    let mut failed = Vec::new();
    let bots = start.with_wires(accept::bots(manifest, &dir.path, settings)?, &mut failed);
    if let Some(s) = failed.first() {
        return Err(accept::refused(Why::Bot {
            name: s.name.clone(),
            reason: s.reason.clone(),
        })
        .into());
    }
    accept::same_wires(manifest, &bots)?;
    let now = same_game(
        Continued::Series,
        &settings.game,
        manifest.game_hash.as_deref(),
    )?;
    manifest.game_hash = manifest.game_hash.take().or(now);
    Ok(bots)
}

/// For bots from a git repository: its cache checked out again at the commit the series
/// played (another series may have checked out another one there since).
fn restore_repository(
    settings: &Settings,
    origin: Option<&std::path::Path>,
) -> Result<(), SeriesError> {
    let Some(repository) = &settings.bots_repository else {
        return Ok(());
    };
    let cache = match origin {
        Some(o) if settings.bots.is_relative() && !settings.bots.exists() => o.join(&settings.bots),
        _ => settings.bots.clone(),
    };
    crate::repo::restore(&cache, repository)
        .map_err(|e| accept::refused(Why::Repository(e.to_string())).into())
}

/// The series' manifest, if the series can be resumed: not one stopped before its bots were
/// ready, nor one that had no usable bot, nor a game at the keyboard.
fn resumable_manifest(dir: &SeriesDir) -> Result<Manifest, SeriesError> {
    let manifest = Manifest::read(&dir.path).map_err(|e| {
        accept::refused(Why::Record(format!(
            "{e} (a series stopped before its bots were ready has nothing to resume; start a new one)"
        )))
    })?;
    if manifest.status == Status::NoUsableBot {
        return Err(accept::refused(Why::NoUsableBot).into());
    }
    if manifest.human().is_some() {
        return Err(accept::refused(Why::AtTheKeyboard).into());
    }
    Ok(manifest)
}

/// Refuses a log that does not verify (more must not be added to it), but for a torn last
/// line, which the replay drops.
fn sound_log(dir: &SeriesDir) -> Result<(), SeriesError> {
    // A resumed series plays its game: it checks with the judge it plays.
    let verification = verify(&dir.path, &crate::games::JudgePermit::series())?;
    if let Some(p) = verification.problems.iter().find(|p| !p.torn) {
        return Err(accept::refused(Why::UnsoundLog {
            problem: p.to_string(),
            dir: dir.path.clone(),
        })
        .into());
    }
    Ok(())
}

/// The sandbox takes the bots' working copies back (each must still be usable).
fn take_back(
    settings: &Settings,
    sandbox: &Arc<Sandbox>,
    bots: &[Entrant],
) -> Result<(), SeriesError> {
    for (bot, _) in bots {
        // The disk limit counts from the bot's own files (its folder, unchanged since the
        // series began: checked before).
        let own = crate::folder::scan(&bot.source, settings.max_bot_bytes())
            .map(|listing| listing.footprint())
            .map_err(|e| {
                accept::refused(Why::Bot {
                    name: bot.name.clone(),
                    reason: format!("cannot read its folder {} ({e})", bot.source.display()),
                })
            })?;
        sandbox.resume_workdir(&bot.workdir, own).map_err(|e| {
            accept::refused(Why::Bot {
                name: bot.name.clone(),
                reason: format!(
                    "its working copy {} cannot be used: {e}",
                    bot.workdir.display()
                ),
            })
        })?;
        // Its image goes back into its folder when others need the room (sandbox/seats.rs).
        drop(crate::sandbox::Seat::held(sandbox, &bot.workdir));
    }
    Ok(())
}
