//! What every run assembles before its first game, in one place: `take6 run` (bots or
//! built-ins only), `take6 run --resume`, `take6 league` and `take6 compare` each open a
//! [`Setup`] (the bots' words on the wire) and launch it (the limits said, the launcher and
//! its release, the toolchains), prepare or take back their entrants and the game's own
//! programs through it, and begin their reporter with [`Setup::read_back`]. They differ only
//! in who plays and in what the reporter's sinks are.

use std::future::Future;
use std::pin::Pin;
use std::sync::Arc;

use super::SeriesError;
use super::dir::{GAMES, SeriesDir};
use super::lineup::{Entrant, with_wires};
use super::reporter::{self, Event, Reporter};
use super::sinks::progress::BarSlot;
use crate::bots::{self, KeptCopies, Skipped, Toolchains};
use crate::config::Settings;
use crate::game::Wires;
use crate::sandbox::{Release, Sandbox};

/// A run's machinery, made once before its first game; the bots' working copies are copied
/// back out of their disk images when it is dropped, whatever the run's end.
pub(crate) struct Setup {
    /// The bots' words on the wire, the game's (taken by the first preparation).
    wires: Option<Box<dyn Wires>>,
    /// The launcher of the run's bots and of the game's own programs; none for a run of
    /// built-ins that are not programs.
    pub sandbox: Option<Arc<Sandbox>>,
    /// What a folder without `launch` can be built with, looked up once per run.
    pub tools: Toolchains,
    _release: Option<Release>,
}

impl Setup {
    /// A run's start: the game's words on the wire for its bots (a template folder's sets
    /// read); nothing runs yet.
    pub fn open(settings: &Settings) -> Result<Setup, SeriesError> {
        let wires = settings
            .game
            .wires(settings.templates.as_deref())
            .map_err(SeriesError::Templates)?;
        Ok(Setup {
            wires,
            sandbox: None,
            tools: Toolchains::default(),
            _release: None,
        })
    }

    /// For a run that runs programs (bots, or a game's own): the run's limits said, the
    /// launcher made (and said), the copy-back at its end, and the toolchains in the game's
    /// dialect.
    pub fn launch(&mut self, settings: &Settings) -> Result<(), SeriesError> {
        eprintln!("take6: {}", settings.limits_line());
        let sandbox = launcher(settings)?;
        self.tools = Toolchains::for_sandbox(&sandbox).in_dialect(settings.game.build_dialect());
        self._release = Some(Release(Arc::clone(&sandbox)));
        self.sandbox = Some(sandbox);
        Ok(())
    }

    /// The launcher: only for a run that [`Setup::launch`]ed.
    pub fn sandbox(&self) -> &Arc<Sandbox> {
        self.sandbox
            .as_ref()
            .expect("a run that prepares programs launches")
    }

    /// The bots' words on the wire, for entrants prepared elsewhere (a resumed series' kept
    /// bots): each bot's own template set compiled and trial-rendered; those that fail are
    /// in `failed`.
    pub fn with_wires(&mut self, bots: Vec<bots::Bot>, failed: &mut Vec<Skipped>) -> Vec<Entrant> {
        with_wires(self.wires.take().as_deref(), bots, failed)
    }

    /// Everything made before the first game of a run of bots, each step given up at a stop:
    /// the bots of the bots folder (or the `folders` given: a compare's NEW, OLD and field)
    /// copied and built (or their `kept` copies taken back), the game's own
    /// programs (a loaded game's judge and padding bots) built as the bots are, and each bot's
    /// words on the wire. The bots with their wires, and those skipped.
    pub async fn entrants(
        &mut self,
        settings: &Settings,
        dir: &SeriesDir,
        (bar, kept): (&BarSlot, Arc<KeptCopies>),
        folders: Option<Vec<bots::Found>>,
        stop: &mut Pin<&mut impl Future<Output = ()>>,
    ) -> Result<(Vec<Entrant>, Vec<Skipped>), SeriesError> {
        // `take6 play` against built-ins only needs no bots folder.
        if folders.is_none() && settings.human.is_some() && !settings.bots.exists() {
            self.game_code(settings, dir, 0, stop).await?;
            return Ok((Vec::new(), Vec::new()));
        }
        // Each build said as it starts and ends: a dozen bots can take half a minute.
        let progress = Arc::new(super::builds::BuildProgress::new(bar.clone()));
        let plan = bots::BuildPlan {
            build_timeout: settings.build_timeout(),
            jobs: settings.jobs,
            max_data: settings.max_bot_bytes(),
            prewarm: bots::Prewarm {
                games_at_once: settings
                    .jobs
                    .min(usize::try_from(settings.games).unwrap_or(usize::MAX)),
                seats: settings.players,
            },
            watch: progress.clone(),
            kept,
            ..bots::BuildPlan::new(
                (&settings.bots, &dir.path),
                self.sandbox(),
                &self.tools,
                game_names(settings),
            )
        };
        let prepare = async move {
            match folders {
                Some(folders) => bots::prepare_folders(folders, plan).await,
                None => bots::prepare(plan).await,
            }
        };
        let prepared = tokio::select! {
            prepared = prepare => Some(prepared),
            () = stop.as_mut() => None,
        };
        progress.finish();
        let (found, mut skipped) = prepared.ok_or(SeriesError::InterruptedBeforeGames)??;
        if settings.bots_repository.is_some() {
            bots::left_out_of_repository(&settings.bots, &mut skipped);
        }
        self.game_code(settings, dir, found.len(), stop).await?;
        // Compiling and trial-rendering the bots' own template sets is CPU work, bounded per
        // render but not in total: off the async threads, and given up at a stop.
        let wires = self.wires.take();
        let compiled = tokio::task::spawn_blocking(move || {
            let bots = with_wires(wires.as_deref(), found, &mut skipped);
            (bots, skipped)
        });
        tokio::select! {
            compiled = compiled => Ok(compiled.expect("compiling templates does not panic")),
            () = stop.as_mut() => Err(SeriesError::InterruptedBeforeGames),
        }
    }

    /// The game's own programs (a loaded game's judge and padding bots) built as the bots are,
    /// for a run of `bots` bots; given up at a stop. Nothing for a game without code.
    pub async fn game_code(
        &self,
        settings: &Settings,
        dir: &SeriesDir,
        bots: usize,
        stop: &mut Pin<&mut impl Future<Output = ()>>,
    ) -> Result<(), SeriesError> {
        let Some(sandbox) = &self.sandbox else {
            return Ok(());
        };
        let ctx = game_context(settings, dir, sandbox, &self.tools, bots);
        tokio::select! {
            ready = settings.game.prepare_code(&ctx) => ready.map_err(SeriesError::Game),
            () = stop.as_mut() => Err(SeriesError::InterruptedBeforeGames),
        }
    }

    /// A reporter's first events, the same for every run: each skipped bot said, then, for a
    /// run that continues a log, the games already in `games.jsonl` (a resumed series', a
    /// league's) read back into the sinks, a half-written last line cut (and said, for a
    /// series: its game is played again).
    pub fn read_back(
        reporter: &mut Reporter,
        dir: &SeriesDir,
        skipped: &[Skipped],
        log: Log,
    ) -> Result<(), SeriesError> {
        for s in skipped {
            reporter.handle(&Event::BotSkipped(s))?;
        }
        if log == Log::New {
            return Ok(());
        }
        let games = dir.file(GAMES);
        if let Some(torn) = reporter.replay(&games, &dir.id)? {
            reporter::cut_torn(&games, torn)?;
            if log == Log::Continued {
                eprintln!(
                    "take6: dropped the half-written last line of {} (line {}); its game is \
                     played again",
                    games.display(),
                    torn.line
                );
            }
        }
        Ok(())
    }
}

/// The `games.jsonl` a run writes to.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Log {
    /// A new series': nothing to read back.
    New,
    /// A resumed series': read back, a torn last line said.
    Continued,
    /// A league's: read back, a torn last line cut quietly (its batch is played on).
    League,
}

/// The game a run's bots are prepared for, and every game's name (a `bot.toml` that is not
/// valid is told them).
pub(crate) fn game_names(settings: &Settings) -> bots::GameNames {
    bots::GameNames {
        playing: settings.game.name().to_string(),
        known: crate::games::known(),
    }
}

/// What the game's [`crate::game::GameCode::prepare`] builds with: the run's folder, sandbox,
/// toolchains and build limits, and whether its built-ins may play beside the run's `bots`
/// bots.
fn game_context(
    settings: &Settings,
    dir: &SeriesDir,
    sandbox: &Arc<Sandbox>,
    tools: &Toolchains,
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

/// The idle disk images a run keeps mounted beyond the seated bots': as many as the seats of
/// the tables played at once.
pub(crate) fn images_kept(settings: &Settings) -> usize {
    settings.jobs.max(1) * settings.players.max(1)
}

/// The launcher of a run's bots: what this machine allows for `--sandbox`, said on stderr;
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
