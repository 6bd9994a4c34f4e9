//! A whole series, wired together: bots → schedule → up to `jobs` tables at once → one
//! reporter → sinks.
//!
//! | file | job |
//! |---|---|
//! | `mod.rs` | the stages in order: `run` (a new series), `resume`, and the replays `leaderboard` and `verify` |
//! | `dir.rs` | the series folder, atomic file replacement, the lock |
//! | `manifest.rs` | `series.toml` |
//! | `dispatch.rs` | up to `jobs` games at once |
//! | `reporter.rs` | events, the `Sink` trait, the reporter, the replay of `games.jsonl` |
//! | `sinks/` | one output each: `games.jsonl`, leaderboard, manifest, progress bar, bot logs, console lines, summary |
//! | `replay.rs` | `take6 leaderboard` and `take6 verify`: `games.jsonl` replayed into sinks |
//! | `verify.rs` | the verification sink |
//! | `resume.rs` | what a resume accepts |
//! | `merge/` | `take6 merge`: the shards checked and indexed (`shards.rs`), then fed in game order into the sinks (`mod.rs`) |
//!
//! Every finished game goes through the reporter's one path into the sinks, whether it was just
//! played or read back from `games.jsonl`, so a resumed series, a rebuilt leaderboard and a
//! verification see the records exactly as an uninterrupted series did.

mod dir;
mod dispatch;
mod lanes;
pub mod manifest;
pub mod merge;
mod replay;
pub mod reporter;
mod resume;
pub mod sinks;
mod threads;
pub mod verify;

use std::future::Future;
use std::path::PathBuf;
use std::sync::Arc;
use std::time::Duration;

use serde::{Deserialize, Serialize};
use tokio::sync::mpsc;

pub use dir::{GAMES, LEADERBOARD, MANIFEST, SeriesDir};
pub use replay::{find_game, rebuild_leaderboard, verify};
pub use sinks::progress::{BarSlot, StderrAboveBar};
pub use sinks::write_leaderboard;
pub use verify::Verification;

use crate::bots::{self, Bot, BotsError, Skipped, TemplateChoice};
use crate::config::{RunArgs, Settings};
use crate::game::BuiltinKind;
use crate::games::take6::protocol::{TemplateLibrary, TemplateSet};
use crate::player::Console as Keyboard;
use crate::record::Standing;
use crate::sandbox::{Release, Sandbox, SandboxError};
use crate::schedule::{Schedule, ScheduleError};
use crate::shard::Shard;
use crate::table::{Occupant, TableSeat};
use manifest::Manifest;
use reporter::{Event, Reporter, Sink, Start};
use sinks::{Footer, games::GamesFile};

/// The controller's own failures (never a bot's).
#[derive(Debug, thiserror::Error)]
pub enum SeriesError {
    #[error(transparent)]
    Bots(#[from] BotsError),
    #[error("no usable bot in {folder}:\n{reasons}")]
    NoUsableBots { folder: PathBuf, reasons: String },
    #[error(transparent)]
    Schedule(#[from] ScheduleError),
    #[error(transparent)]
    Sandbox(#[from] SandboxError),
    #[error("a bot is named {0} too; choose another name with --name")]
    NameTaken(String),
    #[error("the game cannot be prepared: {0}")]
    Game(String),
    #[error(
        "--against {name}: no bot of that name in {folder} and no such built-in; there are: {known}"
    )]
    UnknownOpponent {
        name: String,
        folder: PathBuf,
        known: String,
    },
    #[error("interrupted while preparing the bots; no game was played")]
    InterruptedBeforeGames,
    #[error("template folder: {0}")]
    Templates(String),
    #[error("cannot write {path}: {error}")]
    Write {
        path: PathBuf,
        error: std::io::Error,
    },
    #[error("{}", crate::names::cannot_read(path, error))]
    Read {
        path: PathBuf,
        error: std::io::Error,
    },
    #[error("{path}: {reason}")]
    Games { path: PathBuf, reason: String },
    #[error("{path} is not valid: {reason}")]
    Manifest { path: PathBuf, reason: String },
    #[error("{0} is not a series folder")]
    NotASeries(PathBuf),
    #[error("another take6 is playing the series in {0}")]
    Busy(PathBuf),
    #[error("cannot resume: {0}")]
    Refused(String),
    #[error("cannot merge: {0}")]
    MergeRefused(String),
}

/// How a series ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Status {
    Running,
    Complete,
    /// Stopped early (Ctrl-C); the finished games are all recorded.
    Interrupted,
    /// Stopped by the controller's own error (e.g. a full disk); resumable.
    Failed,
    NoUsableBot,
}

/// What a series produced.
#[derive(Debug, Clone)]
pub struct SeriesOutcome {
    pub dir: SeriesDir,
    pub status: Status,
    pub standings: Vec<Standing>,
    pub skipped: Vec<Skipped>,
    pub games_planned: u64,
    /// Games recorded, over every attempt.
    pub games_played: u64,
    /// The master seed, to run the same series again.
    pub seed: crate::seed::Seed,
}

/// The bots that play, each with the template set it speaks, and the everyone-but-built-ins
/// names in schedule order.
struct Lineup {
    bots: Vec<(Bot, Arc<TemplateSet>)>,
    names: Vec<String>,
    skipped: Vec<Skipped>,
    /// Set (under `--until-separated`) once the answer is known: start no more games.
    enough: Arc<std::sync::atomic::AtomicBool>,
}

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
    for warning in settings.warnings() {
        eprintln!("take6: warning: {warning}");
    }
    let library = TemplateLibrary::load(settings.templates.as_deref())
        .map_err(|e| SeriesError::Templates(e.to_string()))?;
    let sandbox = launcher(settings)?;
    // Whatever the end, the working copies are copied back out of their disk images.
    let _release = Release(Arc::clone(&sandbox));
    // Watch for a stop from the start: builds can take minutes.
    let mut stop = std::pin::pin!(stop);
    // What a folder without `launch` can be built with, looked up once for the series.
    let tools = bots::Toolchains::for_sandbox(&sandbox);
    let (found, mut skipped) = tokio::select! {
        prepared = bots::prepare(
            &settings.bots,
            &dir.path,
            settings.build_timeout(),
            settings.jobs,
            settings.max_bot_bytes(),
            &sandbox,
            bots::Prewarm {
                games_at_once: settings.jobs.min(usize::try_from(settings.games).unwrap_or(usize::MAX)),
                seats: settings.players,
            },
            &tools,
            &settings.game,
        ) => prepared?,
        () = &mut stop => return Err(SeriesError::InterruptedBeforeGames),
    };
    // The game's own programs (a loaded game's judge and padding bots), built as the bots are.
    let ctx = game_context(settings, dir, &sandbox, &tools);
    tokio::select! {
        ready = settings.game.prepare(&ctx) => ready.map_err(SeriesError::Game)?,
        () = &mut stop => return Err(SeriesError::InterruptedBeforeGames),
    };
    // Compiling and trial-rendering the bots' own template sets is CPU work, bounded per render
    // but not in total: off the async threads, and given up at a stop.
    let compiled = tokio::task::spawn_blocking(move || {
        let bots = with_templates(&library, found, &mut skipped);
        (bots, skipped)
    });
    let (mut bots, mut skipped) = tokio::select! {
        compiled = compiled => compiled.expect("compiling templates does not panic"),
        () = &mut stop => return Err(SeriesError::InterruptedBeforeGames),
    };
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
    if let Some(human) = &settings.human {
        if bots.iter().any(|(b, _)| &b.name == human) {
            return Err(SeriesError::NameTaken(human.clone()));
        }
        // The person always plays: the other seats are the most bots that sit with them.
        while bots.len() >= settings.players {
            let (bot, _) = bots.pop().expect("more than nine");
            skipped.push(Skipped {
                name: bot.name,
                reason: format!(
                    "the table is full: {human} plays with at most {} (choose them with --bots DIR)",
                    crate::names::count(settings.players as u64 - 1, "bot")
                ),
            });
        }
    }
    skipped.sort_by(|a, b| a.name.cmp(&b.name));
    // Everyone who is not a built-in, in schedule order: the bots, then the person if any.
    let names: Vec<String> = bots
        .iter()
        .map(|(b, _)| b.name.clone())
        .chain(settings.human.clone())
        .collect();

    if names.is_empty() {
        for s in &skipped {
            eprintln!(
                "{}: skipped: {}",
                bots::folder_of(&settings.bots, &s.name).display(),
                s.reason
            );
        }
        let mut manifest = Manifest::new(dir, settings, &bots, &names, &skipped, None);
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
                .map(|s| format!("  {}: {}", s.name, s.reason))
                .collect::<Vec<_>>()
                .join("\n")
        };
        return Err(SeriesError::NoUsableBots {
            folder: settings.bots.clone(),
            reasons,
        });
    }

    let mut request = settings.schedule_request(names.len());
    if let Some(strategies) = &chosen {
        // take6 play --against: exactly these players, at one table.
        request.players = names.len() + strategies.len();
    }
    let mut schedule = Schedule::new(request)?;
    if let Some(strategies) = &chosen {
        schedule = schedule.with_builtins(strategies);
    }
    let mut manifest = Manifest::new(dir, settings, &bots, &names, &skipped, Some(&schedule));
    manifest.sandbox = Some(sandbox.report().into());
    manifest.toolchains = tools.record();
    let lineup = Lineup {
        bots,
        names,
        skipped,
        enough: Arc::default(),
    };
    dir.make_latest();
    let mut reporter = Reporter::new(&dir.id, sinks(settings, dir, manifest, &lineup, bar));
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

/// `take6 run --builtins-only`: a calibration series of the built-in strategies, no bot
/// folder read and no sandbox needed, played on plain threads.
async fn run_builtins(
    settings: &Settings,
    dir: &SeriesDir,
    stop: impl Future<Output = ()>,
    bar: BarSlot,
) -> Result<SeriesOutcome, SeriesError> {
    let schedule = Schedule::builtins_only(settings.schedule_request(0))?;
    let manifest = Manifest::new(dir, settings, &[], &[], &[], Some(&schedule));
    let lineup = Lineup {
        bots: Vec::new(),
        names: Vec::new(),
        skipped: Vec::new(),
        enough: Arc::default(),
    };
    dir.make_latest();
    let reporter = Reporter::new(&dir.id, sinks(settings, dir, manifest, &lineup, bar));
    play(settings, dir, &lineup, &schedule, None, reporter, stop).await
}

/// What the game's [`crate::game::Game::prepare`] builds with: the series' folder, sandbox,
/// toolchains and build limits.
fn game_context(
    settings: &Settings,
    dir: &SeriesDir,
    sandbox: &Arc<Sandbox>,
    tools: &bots::Toolchains,
) -> crate::game::Prepare {
    crate::game::Prepare {
        series_dir: dir.path.clone(),
        sandbox: Arc::clone(sandbox),
        tools: tools.clone(),
        build_timeout: settings.build_timeout(),
        jobs: settings.jobs,
        max_data: settings.max_bot_bytes(),
    }
}

/// The launcher of a series' bots: what this machine allows for `--sandbox`, said on stderr;
/// warm sandboxes when they are asked for and possible.
fn launcher(settings: &Settings) -> Result<Arc<Sandbox>, SeriesError> {
    let mut sandbox = Sandbox::new(settings.sandbox, settings.sandbox_limits(), settings.clock)?;
    sandbox.pin_tables(crate::affinity::plan(settings.pin_tables, settings.jobs));
    if settings.warm_sandboxes {
        // This binary is a warm sandbox's init (`take6 sandbox-init`).
        if let Ok(exe) = std::env::current_exe() {
            sandbox.keep_warm(exe);
        }
    }
    eprintln!("take6: {}", sandbox.report().line());
    Ok(Arc::new(sandbox))
}

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
    let mut manifest = Manifest::read(&dir.path).map_err(|e| {
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
    let settings = resume::settings(args, &manifest)?;
    for warning in &manifest.warnings {
        eprintln!("take6: warning: {warning}");
    }
    let library = TemplateLibrary::load(settings.templates.as_deref())
        .map_err(|e| SeriesError::Templates(e.to_string()))?;
    let mut failed = Vec::new();
    let bots = with_templates(
        &library,
        resume::bots(&manifest, &dir.path, &settings)?,
        &mut failed,
    );
    if let Some(s) = failed.first() {
        return Err(SeriesError::Refused(format!(
            "bot {}: {}",
            s.name, s.reason
        )));
    }
    resume::same_templates(&manifest, &bots)?;
    let names: Vec<String> = bots.iter().map(|(b, _)| b.name.clone()).collect();
    let schedule = if settings.builtins_only {
        Schedule::builtins_only(settings.schedule_request(0))?
    } else {
        Schedule::new(settings.schedule_request(names.len()))?
    };

    // The log must be sound before more is added to it.
    let verification = verify(&dir.path)?;
    if let Some(p) = verification.problems.iter().find(|p| !p.torn) {
        return Err(SeriesError::Refused(format!(
            "{p} (see take6 verify {})",
            dir.path.display()
        )));
    }

    let sandbox = if settings.builtins_only {
        None
    } else {
        Some(launcher(&settings)?)
    };
    let _release = sandbox.as_ref().map(|s| Release(Arc::clone(s)));
    if let Some(sandbox) = &sandbox {
        for (bot, _) in &bots {
            sandbox.resume_workdir(&bot.workdir).map_err(|e| {
                SeriesError::Refused(format!(
                    "bot {}: its working copy {} cannot be used: {e}",
                    bot.name,
                    bot.workdir.display()
                ))
            })?;
        }
    }
    if let Some(sandbox) = &sandbox {
        let tools = bots::Toolchains::for_sandbox(sandbox);
        let ctx = game_context(&settings, dir, sandbox, &tools);
        settings
            .game
            .prepare(&ctx)
            .await
            .map_err(SeriesError::Game)?;
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
    };
    let mut reporter = Reporter::new(&dir.id, sinks(&settings, dir, manifest, &lineup, bar));
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
    let skipped = lineup
        .skipped
        .iter()
        .map(|s| (s.name.clone(), s.reason.clone()))
        .collect();
    let mut sinks: Vec<Box<dyn Sink>> = vec![
        Box::new(GamesFile::new(dir.file(GAMES))),
        Box::new(sinks::bot_logs::BotLogs::new(dir.path.join("logs"))),
        // A progress bar would only get in the way of a person reading the board.
        Box::new(sinks::progress::Progress::new(
            bar.clone(),
            settings.human.is_none(),
        )),
        Box::new(
            sinks::Console::new(bar, settings.bots.clone(), dir.path.clone())
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
            .until_separated(settings.until_separated.then_some(settings.top)),
        ),
    ];
    if settings.until_separated {
        sinks.push(Box::new(sinks::Separation::new(
            settings.top,
            Arc::clone(&lineup.enough),
        )));
    }
    sinks
}

/// Plays the games of `schedule` the reporter has not seen, then ends the series.
async fn play(
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
        false => {
            let seats: Vec<TableSeat> = lineup
                .bots
                .iter()
                .map(|(bot, set)| TableSeat {
                    name: bot.name.clone(),
                    occupant: Occupant::Bot {
                        workdir: bot.workdir.clone(),
                        templates: Arc::clone(set),
                        sandbox: Arc::clone(sandbox.expect("a series of bots has a launcher")),
                        transcript: settings.transcript.clone(),
                    },
                })
                .chain(settings.human.iter().map(|name| TableSeat {
                    name: name.clone(),
                    occupant: Occupant::Human(Keyboard::new()),
                }))
                .collect();
            let (tx, rx) = mpsc::channel(settings.jobs * 2);
            let done = reporter.state().done.clone();
            let task = tokio::spawn(async move {
                let result = reporter.run(rx).await;
                (reporter, result)
            });
            let interrupted =
                dispatch::dispatch(schedule, &done, &seats, lineup, settings, tx, stop).await;
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

/// `take6 play --against NAME…`: keeps only the named bots (the others are skipped, saying
/// why) and returns the named built-ins, which then sit at the table instead of padding.
/// A name that is neither is an error listing what there is.
fn choose(
    against: &[String],
    game: &crate::game::GameRef,
    bots: &mut Vec<(Bot, Arc<TemplateSet>)>,
    skipped: &mut Vec<Skipped>,
    folder: &std::path::Path,
) -> Result<Option<Vec<BuiltinKind>>, SeriesError> {
    let mut strategies = Vec::new();
    for name in against {
        if bots.iter().any(|(b, _)| &b.name == name) {
            continue;
        }
        match game.builtin(name) {
            Some(s) => strategies.push(s),
            None => {
                let mut known: Vec<String> = bots.iter().map(|(b, _)| b.name.clone()).collect();
                known.extend(
                    game.builtins()
                        .iter()
                        .map(|s| format!("{} (built-in)", s.name)),
                );
                return Err(SeriesError::UnknownOpponent {
                    name: name.clone(),
                    folder: folder.to_path_buf(),
                    known: known.join(", "),
                });
            }
        }
    }
    let (kept, left): (Vec<_>, Vec<_>) = std::mem::take(bots)
        .into_iter()
        .partition(|(b, _)| against.contains(&b.name));
    *bots = kept;
    skipped.extend(left.into_iter().map(|(b, _)| Skipped {
        name: b.name,
        reason: "not chosen with --against".into(),
    }));
    Ok(Some(strategies))
}

/// Pairs each bot with the compiled template set it speaks; a bot whose set cannot be had is
/// moved to `skipped` with the reason.
fn with_templates(
    library: &TemplateLibrary,
    found: Vec<Bot>,
    skipped: &mut Vec<Skipped>,
) -> Vec<(Bot, Arc<TemplateSet>)> {
    let mut bots = Vec::new();
    for bot in found {
        match templates_of(library, &bot) {
            Ok(set) => bots.push((bot, set)),
            Err(reason) => skipped.push(Skipped {
                name: bot.name.clone(),
                reason,
            }),
        }
    }
    bots
}

/// The line that says what is about to be played, e.g. `3 bots + 7 built-ins, 100 games, seed 1,
/// results in results/…`, with how many are already recorded when resuming.
fn start_line(
    schedule: &Schedule,
    entrants: usize,
    recorded: u64,
    settings: &Settings,
    dir: &SeriesDir,
) -> String {
    if settings.builtins_only {
        return format!(
            "{} built-ins only, {} game{}, seed {}, results in {}",
            schedule.builtins().len(),
            schedule.total_games(),
            if schedule.total_games() == 1 { "" } else { "s" },
            settings.seed,
            dir.path.display()
        );
    }
    let bots = entrants - usize::from(settings.human.is_some());
    // `--bots mybots/mybot`: one bot's own folder, said as such.
    let who = match (bots, bots::is_bot_folder(&settings.bots)) {
        (1, true) => format!(
            "the bot folder {} (one bot against built-ins)",
            settings.bots.display()
        ),
        _ => format!("{bots} bot{}", if bots == 1 { "" } else { "s" }),
    };
    let human = match &settings.human {
        Some(name) => format!(" + {name}"),
        None => String::new(),
    };
    let padding = match schedule.builtins().len() {
        0 => String::new(),
        n => format!(" + {}", crate::names::count(n as u64, "built-in")),
    };
    let subsets = match schedule.describe(&schedule.balance()) {
        d if d.is_empty() => String::new(),
        d => format!(" ({d})"),
    };
    let resumed = match recorded {
        0 => String::new(),
        n => format!(" ({n} already recorded)"),
    };
    let shard = match settings.shard {
        Some(s) => format!(
            ", shard {s} plays {} of them",
            s.games_of(schedule.total_games())
        ),
        None => String::new(),
    };
    format!(
        "{who}{human}{padding}, {} game{}{subsets}{shard}{resumed}, seed {}, results in {}",
        schedule.total_games(),
        if schedule.total_games() == 1 { "" } else { "s" },
        settings.seed,
        dir.path.display()
    )
}

/// The compiled template set a bot speaks; the error is the reason it is skipped.
fn templates_of(library: &TemplateLibrary, bot: &Bot) -> Result<Arc<TemplateSet>, String> {
    match &bot.template {
        TemplateChoice::Set(name) => library.get(name),
        TemplateChoice::File(path) => {
            TemplateSet::from_file(path).map(|set| Arc::new(set.charged_to_bot()))
        }
    }
    .map_err(|e| e.to_string())
}
