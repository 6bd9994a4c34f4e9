//! `take6 run --resume`: a stopped series continued where it stopped.

use std::future::Future;
use std::sync::Arc;

use super::manifest::Manifest;
use crate::bots::Skipped;
use crate::config::{RunArgs, Settings};
use crate::sandbox::{Release, Sandbox};
use crate::schedule::Schedule;

use super::dir::{GAMES, SeriesDir};
use super::lineup::{Entrant, Lineup, with_wires};
use super::play::{play, reporter};
use super::replay::verify;
use super::run::{game_context, launcher};
use super::sinks::progress::BarSlot;
use super::{SeriesError, SeriesOutcome, Status};
use super::{reporter, resume as accept};

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
    let wires = settings
        .game
        .wires(settings.templates.as_deref())
        .map_err(SeriesError::Templates)?;
    restore_repository(&settings, origin.as_deref())?;
    let mut failed = Vec::new();
    let bots = with_wires(
        wires.as_deref(),
        accept::bots(&manifest, &dir.path, &settings)?,
        &mut failed,
    );
    if let Some(s) = failed.first() {
        return Err(SeriesError::Refused(format!(
            "bot {}: {}",
            s.name, s.reason
        )));
    }
    accept::same_wires(&manifest, &bots)?;
    // The game's code (a game folder's judge and game.toml) is what the series played, as a
    // bot's folder must be; a series from before the hash was kept records it now.
    let game_hash = settings.game.content_hash().map_err(SeriesError::Refused)?;
    match (&manifest.game_hash, game_hash) {
        (Some(was), Some(now)) if *was != now => {
            return Err(SeriesError::Refused(format!(
                "the game folder {} changed since the series began (its judge and game.toml: \
                 SHA-256 {now}, series.toml records {was}); restore it, or start a new series",
                settings.game.spec()
            )));
        }
        (None, now) => manifest.game_hash = now,
        _ => {}
    }
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
    eprintln!("take6: {}", settings.limits_line());
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
    let sandbox = if settings.builtins_only && settings.game.code().is_none() {
        None
    } else {
        Some(launcher(&settings)?)
    };
    let _release = sandbox.as_ref().map(|s| Release(Arc::clone(s)));
    if let Some(sandbox) = &sandbox {
        let sources: Vec<&std::path::Path> = bots.iter().map(|(b, _)| b.source.as_path()).collect();
        let shape = (settings.jobs, settings.players);
        crate::bots::room::check_resumed(
            &dir.path,
            &sources,
            sandbox,
            shape,
            settings.max_bot_bytes(),
        )?;
        workdirs_and_game(&settings, dir, sandbox, &bots).await?;
    }
    manifest.sandbox = sandbox.as_ref().map(|s| s.report().into());
    manifest.attempts += 1;
    let skipped = manifest
        .skipped
        .iter()
        .map(|s| Skipped {
            name: s.name.clone(),
            reason: s.reason.clone(),
        })
        .collect();
    let lineup = Lineup {
        bots,
        names,
        skipped,
        enough: Arc::default(),
        bench: Arc::default(),
    };
    let mut reporter = reporter(&settings, dir, manifest, &lineup, bar);
    let games = dir.file(GAMES);
    if let Some(torn) = reporter.replay(&games, &dir.id)? {
        reporter::cut_torn(&games, torn)?;
        eprintln!(
            "take6: dropped the half-written last line of {} (line {}); its game is played again",
            games.display(),
            torn.line
        );
    }
    tracing::info!(games = reporter.state().lines, "series {} resumed", dir.id);
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
    crate::repo::restore(&cache, repository).map_err(|e| SeriesError::Refused(e.to_string()))
}

/// The series' manifest, if the series can be resumed: not one stopped before its bots were
/// ready, nor one that had no usable bot, nor a game at the keyboard.
fn resumable_manifest(dir: &SeriesDir) -> Result<Manifest, SeriesError> {
    let manifest = Manifest::read(&dir.path).map_err(|e| {
        SeriesError::Refused(format!(
            "{e} (a series stopped before its bots were ready has nothing to resume; start a new one)"
        ))
    })?;
    if manifest.status == Status::NoUsableBot {
        return Err(SeriesError::Refused(
            "the series had no usable bot; start a new one".into(),
        ));
    }
    if manifest.human().is_some() {
        return Err(SeriesError::Refused(
            "a game at the keyboard (take6 play) cannot be resumed".into(),
        ));
    }
    Ok(manifest)
}

/// Refuses a log that does not verify (more must not be added to it), but for a torn last
/// line, which the replay drops.
fn sound_log(dir: &SeriesDir) -> Result<(), SeriesError> {
    // A resumed series plays its game: it checks with the judge it plays.
    let verification = verify(&dir.path, &crate::games::JudgePermit::series())?;
    if let Some(p) = verification.problems.iter().find(|p| !p.torn) {
        return Err(SeriesError::Refused(format!(
            "{p} (see take6 verify {})",
            dir.path.display()
        )));
    }
    Ok(())
}

/// The sandbox takes the bots' working copies back (each must still be usable), and the game
/// prepares its own programs again (a loaded game's judge and padding bots).
async fn workdirs_and_game(
    settings: &Settings,
    dir: &SeriesDir,
    sandbox: &Arc<Sandbox>,
    bots: &[Entrant],
) -> Result<(), SeriesError> {
    for (bot, _) in bots {
        // The disk limit counts from the bot's own files (its folder, unchanged since the
        // series began: checked before).
        let own = crate::folder::scan(&bot.source, settings.max_bot_bytes())
            .map(|listing| listing.footprint())
            .map_err(|e| {
                SeriesError::Refused(format!(
                    "bot {}: cannot read its folder {} ({e})",
                    bot.name,
                    bot.source.display()
                ))
            })?;
        sandbox.resume_workdir(&bot.workdir, own).map_err(|e| {
            SeriesError::Refused(format!(
                "bot {}: its working copy {} cannot be used: {e}",
                bot.name,
                bot.workdir.display()
            ))
        })?;
        // Its image goes back into its folder when others need the room (sandbox/seats.rs).
        drop(crate::sandbox::Seat::held(sandbox, &bot.workdir));
    }
    let tools = crate::bots::Toolchains::for_sandbox(sandbox);
    let ctx = game_context(settings, dir, sandbox, &tools, bots.len());
    settings
        .game
        .prepare_code(&ctx)
        .await
        .map_err(SeriesError::Game)
}
