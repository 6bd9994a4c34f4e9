//! A whole series, wired together: bots → schedule → up to `jobs` tables at once → one reporter.
//!
//! Game tasks send their outcomes over a channel to a single reporter task, which owns the
//! progress bar, the `games.jsonl` writer, the per-bot logs and the running tally. Nothing else
//! writes results or prints while games run, and every finished game is on disk (flushed)
//! before the next outcome is taken, so an interrupted or failed series loses no finished game.

use std::collections::HashMap;
use std::fs::{self, File};
use std::future::Future;
use std::io::{self, BufWriter, IsTerminal, Write};
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};
use std::time::{Duration, SystemTime};

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use serde::Serialize;
use tokio::sync::mpsc;
use tokio::task::JoinSet;

use crate::bots::{self, Bot, BotsError, Skipped, TemplateChoice};
use crate::config::Settings;
use crate::player::Console;
use crate::protocol::{TemplateLibrary, TemplateSet};
use crate::record::{self, GameRecord, Standing, Tally};
use crate::reply_times::{REPLY_TIMES, ReplyStats};
use crate::sandbox::{Report, Sandbox, SandboxError};
use crate::schedule::{Entrant, Schedule, ScheduleError, TABLE_SIZE};
use crate::table::{self, GameOutcome, Occupant, TableGame, TableSeat};

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
    #[error("interrupted while preparing the bots; no game was played")]
    InterruptedBeforeGames,
    #[error("template folder: {0}")]
    Templates(String),
    #[error("cannot write {path}: {error}")]
    Write { path: PathBuf, error: io::Error },
    #[error("cannot read {path}: {error}")]
    Read { path: PathBuf, error: io::Error },
    #[error("{path}: {reason}")]
    Games { path: PathBuf, reason: String },
}

fn write_err(path: &Path) -> impl FnOnce(io::Error) -> SeriesError + '_ {
    move |error| SeriesError::Write {
        path: path.to_path_buf(),
        error,
    }
}

/// The folder of one series' results: `<results>/<id>/`, the id made from the UTC start time.
#[derive(Debug, Clone)]
pub struct SeriesDir {
    pub id: String,
    pub path: PathBuf,
}

impl SeriesDir {
    /// Makes a new, empty series folder under `results` and points `results/latest` at it.
    pub fn create(results: &Path) -> Result<SeriesDir, SeriesError> {
        fs::create_dir_all(results).map_err(write_err(results))?;
        let stamp = humantime::format_rfc3339_seconds(SystemTime::now())
            .to_string()
            .replace([':', '-'], "");
        let mut id = stamp.clone();
        let mut n = 1;
        loop {
            let path = results.join(&id);
            match fs::create_dir(&path) {
                Ok(()) => {
                    fs::create_dir_all(path.join("logs")).map_err(write_err(&path))?;
                    let latest = results.join("latest");
                    let _ = fs::remove_file(&latest);
                    // Best effort: a results folder on a file system without symlinks still works.
                    let _ = std::os::unix::fs::symlink(&id, &latest);
                    return Ok(SeriesDir { id, path });
                }
                Err(e) if e.kind() == io::ErrorKind::AlreadyExists => {
                    n += 1;
                    id = format!("{stamp}-{n}");
                }
                Err(e) => return Err(write_err(&path)(e)),
            }
        }
    }

    pub fn log_file(&self) -> PathBuf {
        self.path.join("logs").join("controller.log")
    }
}

/// How a series ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Status {
    Running,
    Complete,
    /// Stopped early (Ctrl-C); the finished games are all recorded.
    Interrupted,
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
    pub games_played: u64,
    /// The master seed, to run the same series again.
    pub seed: u64,
}

impl SeriesOutcome {
    /// The end-of-series summary for people.
    pub fn summary(&self) -> String {
        let skipped: Vec<(String, String)> = self
            .skipped
            .iter()
            .map(|s| (s.name.clone(), s.reason.clone()))
            .collect();
        let mut text = record::summary_table(&self.standings, &skipped);
        let status = match self.status {
            Status::Interrupted => " (interrupted)",
            _ => "",
        };
        text.push_str(&format!(
            "\n{} of {} games played{status} (seed {}); results in {}\n",
            self.games_played,
            self.games_planned,
            self.seed,
            self.dir.path.display()
        ));
        text
    }
}

/// `series.toml`: everything needed to know what was run and to run it again.
#[derive(Debug, Serialize)]
struct Manifest<'a> {
    series: &'a str,
    controller_version: &'static str,
    status: Status,
    started: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    finished: Option<String>,
    seed: u64,
    games_planned: u64,
    games_played: u64,
    subsets: u64,
    games_per_subset: u64,
    settings: &'a Settings,
    /// What the sandbox enforced and what it could not.
    sandbox: &'a Report,
    bots: Vec<ManifestBot<'a>>,
    builtins: Vec<String>,
    skipped: &'a [Skipped],
}

impl<'a> Manifest<'a> {
    /// The manifest of a series about to start (status `running`, no games yet).
    fn new(
        dir: &'a SeriesDir,
        settings: &'a Settings,
        bots: &'a [(Bot, Arc<TemplateSet>)],
        names: &[String],
        skipped: &'a [Skipped],
        started: String,
        sandbox: &'a Report,
    ) -> Manifest<'a> {
        Manifest {
            series: &dir.id,
            controller_version: env!("CARGO_PKG_VERSION"),
            status: Status::Running,
            started,
            finished: None,
            seed: settings.seed,
            games_planned: 0,
            games_played: 0,
            subsets: 0,
            games_per_subset: 0,
            settings,
            sandbox,
            bots: bots
                .iter()
                .map(|(b, _)| ManifestBot {
                    name: &b.name,
                    hash: &b.hash,
                    source: &b.source,
                    template: match &b.template {
                        TemplateChoice::Set(name) => name.clone(),
                        TemplateChoice::File(path) => path.display().to_string(),
                    },
                })
                .collect(),
            builtins: Schedule::padding(names.len())
                .iter()
                .map(|e| e.name(names))
                .collect(),
            skipped,
        }
    }
}

#[derive(Debug, Serialize)]
struct ManifestBot<'a> {
    name: &'a str,
    hash: &'a str,
    source: &'a Path,
    template: String,
}

/// Messages from game tasks to the reporter.
enum Event {
    Finished(Box<GameOutcome>),
}

/// The progress bar of the running series, if any, so that log lines can be printed above it
/// instead of through it.
static BAR: Mutex<Option<ProgressBar>> = Mutex::new(None);

/// A `tracing` writer for stderr that never garbles the progress bar.
#[derive(Debug, Clone, Copy, Default)]
pub struct StderrAboveBar;

impl Write for StderrAboveBar {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        let bar = BAR.lock().map(|b| b.clone()).unwrap_or(None);
        match bar {
            Some(bar) => bar.suspend(|| io::stderr().write_all(buf))?,
            None => io::stderr().write_all(buf)?,
        }
        Ok(buf.len())
    }

    fn flush(&mut self) -> io::Result<()> {
        io::stderr().flush()
    }
}

impl<'a> tracing_subscriber::fmt::MakeWriter<'a> for StderrAboveBar {
    type Writer = StderrAboveBar;
    fn make_writer(&'a self) -> Self::Writer {
        *self
    }
}

/// Runs a whole series into `dir`. `stop` resolving (e.g. on Ctrl-C) ends it early: running
/// games are abandoned (their processes killed), finished ones are all kept and the leaderboard
/// is written from them.
pub async fn run(
    settings: &Settings,
    dir: &SeriesDir,
    stop: impl Future<Output = ()>,
) -> Result<SeriesOutcome, SeriesError> {
    let started = now();
    let library = TemplateLibrary::load(settings.templates.as_deref())
        .map_err(|e| SeriesError::Templates(e.to_string()))?;
    let mut sandbox = Sandbox::new(settings.sandbox, settings.sandbox_limits(), settings.clock)?;
    if settings.warm_sandboxes {
        // This binary is a warm sandbox's init (`take6 sandbox-init`).
        if let Ok(exe) = std::env::current_exe() {
            sandbox.keep_warm(exe);
        }
    }
    let sandbox = Arc::new(sandbox);
    eprintln!("take6: {}", sandbox.report().line());
    // Watch for a stop from the start: builds can take minutes.
    let mut stop = std::pin::pin!(stop);
    let (found, mut skipped) = tokio::select! {
        prepared = bots::prepare(
            &settings.bots,
            &dir.path,
            settings.build_timeout(),
            settings.jobs,
            &sandbox,
        ) => prepared?,
        () = &mut stop => return Err(SeriesError::InterruptedBeforeGames),
    };
    let mut bots = with_templates(&library, found, &mut skipped);
    if let Some(human) = &settings.human {
        if bots.iter().any(|(b, _)| &b.name == human) {
            return Err(SeriesError::NameTaken(human.clone()));
        }
        // The person always plays: at most nine bots sit with them.
        while bots.len() >= TABLE_SIZE {
            let (bot, _) = bots.pop().expect("more than nine");
            skipped.push(Skipped {
                name: bot.name,
                reason: format!(
                    "the table is full: {human} plays with at most {} bots (choose them with --bots DIR)",
                    TABLE_SIZE - 1
                ),
            });
        }
    }
    skipped.sort_by(|a, b| a.name.cmp(&b.name));
    for s in &skipped {
        eprintln!(
            "{}: skipped: {}",
            settings.bots.join(&s.name).display(),
            s.reason
        );
    }
    // Everyone who is not a built-in, in schedule order: the bots, then the person if any.
    let names: Vec<String> = bots
        .iter()
        .map(|(b, _)| b.name.clone())
        .chain(settings.human.clone())
        .collect();
    let mut manifest = Manifest::new(
        dir,
        settings,
        &bots,
        &names,
        &skipped,
        started,
        sandbox.report(),
    );
    let manifest_path = dir.path.join("series.toml");

    if names.is_empty() {
        manifest.status = Status::NoUsableBot;
        manifest.finished = Some(now());
        write_manifest(&manifest_path, &manifest)?;
        let reasons = if skipped.is_empty() {
            "  (no bot folders: add a folder with an executable 'launch' script)".to_string()
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

    let schedule = Schedule::new(names.len(), settings.games, settings.seed)?;
    manifest.games_planned = schedule.total_games();
    manifest.subsets = schedule.subsets();
    manifest.games_per_subset = schedule.games_per_subset();
    write_manifest(&manifest_path, &manifest)?;
    tracing::info!(
        bots = bots.len(),
        games = schedule.total_games(),
        seed = settings.seed,
        "series {} starting",
        dir.id
    );

    eprintln!(
        "take6: {}",
        start_line(&schedule, names.len(), settings, dir)
    );
    let seats: Vec<TableSeat> = bots
        .iter()
        .map(|(bot, set)| TableSeat {
            name: bot.name.clone(),
            occupant: Occupant::Bot {
                workdir: bot.workdir.clone(),
                templates: Arc::clone(set),
                sandbox: Arc::clone(&sandbox),
            },
        })
        .chain(settings.human.iter().map(|name| TableSeat {
            name: name.clone(),
            occupant: Occupant::Human(Console::new()),
        }))
        .collect();

    let (tx, rx) = mpsc::channel(settings.jobs * 2);
    // A progress bar would only get in the way of a person reading the board.
    let bar = settings.human.is_none();
    let reporter = Reporter::new(&dir.path, schedule.total_games(), bar)?;
    let reporter = tokio::spawn(reporter.run(rx));

    let interrupted = dispatch(&schedule, &seats, &names, settings, tx, stop).await;
    let tally = reporter.await.expect("the reporter does not panic")?;
    // Every game's tree is killed by now; wait for its last processes to exit (a loaded
    // machine may take a while to run a killed process) and its cgroups to go.
    let settling = Arc::clone(&sandbox);
    let _ = tokio::task::spawn_blocking(move || settling.settle(Duration::from_secs(10))).await;

    let standings = tally.standings();
    write_leaderboard(&dir.path, &standings)?;
    manifest.status = if interrupted {
        Status::Interrupted
    } else {
        Status::Complete
    };
    manifest.games_played = tally.games();
    manifest.finished = Some(now());
    write_manifest(&manifest_path, &manifest)?;
    tracing::info!(
        games = tally.games(),
        "series {} {:?}",
        dir.id,
        manifest.status
    );

    Ok(SeriesOutcome {
        dir: dir.clone(),
        status: manifest.status,
        standings,
        skipped: skipped.clone(),
        games_planned: schedule.total_games(),
        games_played: tally.games(),
        seed: settings.seed,
    })
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
/// results in results/…`.
fn start_line(
    schedule: &Schedule,
    entrants: usize,
    settings: &Settings,
    dir: &SeriesDir,
) -> String {
    let bots = entrants - usize::from(settings.human.is_some());
    let human = match &settings.human {
        Some(name) => format!(" + {name}"),
        None => String::new(),
    };
    let padding = match Schedule::padding(entrants).len() {
        0 => String::new(),
        n => format!(" + {n} built-ins"),
    };
    let subsets = match schedule.subsets() {
        1 => String::new(),
        n => format!(" ({n} ten-bot subsets x {})", schedule.games_per_subset()),
    };
    format!(
        "{bots} bot{}{human}{padding}, {} game{}{subsets}, seed {}, results in {}",
        if bots == 1 { "" } else { "s" },
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
        TemplateChoice::File(path) => TemplateSet::from_file(path).map(Arc::new),
    }
    .map_err(|e| e.to_string())
}

/// Plays every planned game, at most `jobs` at once, sending each outcome to the reporter.
/// Returns whether `stop` cut the series short.
async fn dispatch(
    schedule: &Schedule,
    seats: &[TableSeat],
    names: &[String],
    settings: &Settings,
    tx: mpsc::Sender<Event>,
    stop: impl Future<Output = ()>,
) -> bool {
    let limits = settings.limits();
    let mut running = JoinSet::new();
    let mut plans = schedule.plans();
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
                    let _ = tx.send(Event::Finished(Box::new(outcome))).await;
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

/// The single owner of everything a series writes while it runs.
struct Reporter {
    dir: PathBuf,
    /// When the leaderboard was last rewritten.
    leaderboard_at: std::time::Instant,
    games: BufWriter<File>,
    games_path: PathBuf,
    logs: PathBuf,
    bot_logs: HashMap<String, BufWriter<File>>,
    tally: Tally,
    /// Reply times per bot, for `reply_times.csv`.
    times: ReplyStats,
    /// Faults so far, shown beside the bar.
    faults: u64,
    bar: ProgressBar,
}

impl Reporter {
    fn new(dir: &Path, total: u64, bar: bool) -> Result<Reporter, SeriesError> {
        let games_path = dir.join(GAMES);
        let games = File::create(&games_path).map_err(write_err(&games_path))?;
        let target = if bar && io::stdout().is_terminal() {
            ProgressDrawTarget::stderr()
        } else {
            ProgressDrawTarget::hidden()
        };
        let bar = ProgressBar::with_draw_target(Some(total), target);
        bar.set_style(
            ProgressStyle::with_template(
                "{bar:40.cyan/blue} {pos}/{len} games  {rate} games/s  ETA {eta}  {msg}",
            )
            .expect("the template is valid")
            .with_key(
                "rate",
                |state: &indicatif::ProgressState, w: &mut dyn std::fmt::Write| {
                    let _ = write!(w, "{:.1}", state.per_sec());
                },
            ),
        );
        bar.enable_steady_tick(Duration::from_millis(200));
        if let Ok(mut slot) = BAR.lock() {
            *slot = Some(bar.clone());
        }
        Ok(Reporter {
            dir: dir.to_path_buf(),
            leaderboard_at: std::time::Instant::now(),
            games: BufWriter::new(games),
            games_path,
            logs: dir.join("logs"),
            bot_logs: HashMap::new(),
            tally: Tally::default(),
            times: ReplyStats::default(),
            faults: 0,
            bar,
        })
    }

    async fn run(mut self, mut rx: mpsc::Receiver<Event>) -> Result<Tally, SeriesError> {
        let result = async {
            while let Some(event) = rx.recv().await {
                match event {
                    Event::Finished(outcome) => self.finished(&outcome)?,
                }
            }
            for (name, log) in &mut self.bot_logs {
                log.flush()
                    .map_err(write_err(&bot_log_path(&self.logs, name)))?;
            }
            let path = self.dir.join(REPLY_TIMES);
            fs::write(&path, self.times.csv()).map_err(write_err(&path))?;
            Ok(())
        }
        .await;
        self.bar.finish_and_clear();
        if let Ok(mut slot) = BAR.lock() {
            *slot = None;
        }
        result.map(|()| self.tally)
    }

    fn finished(&mut self, outcome: &GameOutcome) -> Result<(), SeriesError> {
        let record = &outcome.record;
        let line = record::games_jsonl_line(record);
        writeln!(self.games, "{line}")
            .and_then(|()| self.games.flush())
            .map_err(write_err(&self.games_path))?;
        self.tally.add(record);
        self.times.add(record);
        self.bot_log(record, outcome)?;
        if self.leaderboard_at.elapsed() >= LEADERBOARD_EVERY {
            self.leaderboard_at = std::time::Instant::now();
            write_leaderboard(&self.dir, &self.tally.standings())?;
        }
        self.bar.inc(1);
        if !record.invalid.is_empty() {
            self.faults += record.invalid.len() as u64;
            self.bar.set_message(format!("{} faults", self.faults));
        }
        Ok(())
    }

    /// Appends the game's faults and stderr to `logs/<bot>.games.log` for each bot that had either.
    fn bot_log(&mut self, record: &GameRecord, outcome: &GameOutcome) -> Result<(), SeriesError> {
        for (seat, name) in record.players.iter().enumerate() {
            if record.builtin[seat] {
                continue;
            }
            let faults: Vec<_> = record.invalid.iter().filter(|f| f.seat == seat).collect();
            let stderr = outcome.logs.iter().find(|l| l.seat == seat);
            let has_stderr = stderr.is_some_and(|l| !l.stderr.kept.is_empty());
            if faults.is_empty() && !has_stderr {
                continue;
            }
            let path = bot_log_path(&self.logs, name);
            if !self.bot_logs.contains_key(name) {
                let file = File::create(&path).map_err(write_err(&path))?;
                self.bot_logs.insert(name.clone(), BufWriter::new(file));
            }
            let log = self.bot_logs.get_mut(name).expect("just inserted");
            let mut text = format!("=== game {} (seat {seat}) ===\n", record.game);
            for f in faults {
                text.push_str(&format!(
                    "fault in turn {} ({:?}): {}\n",
                    f.turn, f.phase, f.reason
                ));
            }
            log.write_all(text.as_bytes()).map_err(write_err(&path))?;
            if let Some(l) = stderr {
                log.write_all(&l.stderr.kept).map_err(write_err(&path))?;
                if !l.stderr.kept.ends_with(b"\n") && !l.stderr.kept.is_empty() {
                    log.write_all(b"\n").map_err(write_err(&path))?;
                }
                if l.stderr.dropped > 0 {
                    writeln!(log, "[{} more bytes of stderr dropped]", l.stderr.dropped)
                        .map_err(write_err(&path))?;
                }
            }
        }
        Ok(())
    }
}

/// The file name of the leaderboard in a series folder.
pub const LEADERBOARD: &str = "leaderboard.csv";
/// The file name of the game log in a series folder.
pub const GAMES: &str = "games.jsonl";

/// How often the reporter rewrites the leaderboard while games run, so a long series can be
/// watched and a killed one still leaves a recent leaderboard.
const LEADERBOARD_EVERY: Duration = Duration::from_secs(2);

/// Writes `leaderboard.csv` in `dir` atomically (a reader never sees half a file).
pub fn write_leaderboard(dir: &Path, standings: &[Standing]) -> Result<(), SeriesError> {
    let path = dir.join(LEADERBOARD);
    let partial = dir.join(format!("{LEADERBOARD}.partial"));
    fs::write(&partial, record::leaderboard_csv(standings))
        .and_then(|()| fs::rename(&partial, &path))
        .map_err(write_err(&path))
}

/// Recomputes the standings of a series folder from its `games.jsonl`: for a series that was
/// killed before it could write its leaderboard, or to check one. Rewrites `leaderboard.csv`.
pub fn rebuild_leaderboard(dir: &Path) -> Result<(Vec<Standing>, u64), SeriesError> {
    let path = dir.join(GAMES);
    let file = File::open(&path).map_err(|error| SeriesError::Read {
        path: path.clone(),
        error,
    })?;
    let records =
        record::read_games_jsonl(io::BufReader::new(file)).map_err(|e| SeriesError::Games {
            path: path.clone(),
            reason: e.to_string(),
        })?;
    let mut tally = Tally::default();
    for r in &records {
        tally.add(r);
    }
    let standings = tally.standings();
    write_leaderboard(dir, &standings)?;
    Ok((standings, tally.games()))
}

/// `logs/<bot>.games.log`: a name no build log (`<bot>.build.log`) or `controller.log` can take.
fn bot_log_path(logs: &Path, bot: &str) -> PathBuf {
    logs.join(format!("{bot}.games.log"))
}

fn write_manifest(path: &Path, manifest: &Manifest<'_>) -> Result<(), SeriesError> {
    let text = toml::to_string_pretty(manifest).expect("the manifest serializes");
    fs::write(path, text).map_err(write_err(path))
}

fn now() -> String {
    humantime::format_rfc3339_seconds(SystemTime::now()).to_string()
}
