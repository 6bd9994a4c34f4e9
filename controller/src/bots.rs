//! Finding bot folders, making each bot's working copy, building it, and saying why a folder is
//! skipped. Knows nothing about rules or scheduling.
//!
//! A bot is a subfolder of the bots folder with an executable `launch` (or source that
//! [`generate`] writes `build` and `launch` scripts for, in the working copy); its name is the
//! folder's name. Each series runs every bot from a fresh copy under `<series>/work/<name>/`, so what a
//! bot writes there persists across its games of one series and nothing is ever written to the
//! bots folder itself.

use std::fs;
use std::io;
use std::path::{Path, PathBuf};
use std::process::Stdio;
use std::sync::Arc;
use std::time::Duration;

use serde::{Deserialize, Serialize};
use tokio::sync::Semaphore;

use crate::folder::{self, Kind, Listing};
use crate::names::name_problem;
use crate::sandbox::Sandbox;

pub mod generate;
pub mod room;

pub use generate::{Generated, Toolchains};

/// The optional per-bot settings file.
pub const BOT_TOML: &str = "bot.toml";
/// A bot's own template set, used when its `bot.toml` names none.
pub const BOT_TEMPLATE: &str = "template.toml";

/// Which message templates a bot speaks.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum TemplateChoice {
    /// A set from the template folder or built in, by name.
    Set(String),
    /// The bot's own `template.toml`, in its folder (where its author would fix an error).
    File(PathBuf),
}

/// A usable bot, copied and built.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Bot {
    pub name: String,
    /// The folder it was found in, resolved (an absolute path without links; where a link in
    /// the bots folder leads, inside it).
    pub source: PathBuf,
    /// Its working copy for this series.
    pub workdir: PathBuf,
    /// SHA-256 of the folder's contents (relative paths, executable bits, bytes), so a result
    /// can be tied to the exact bot that produced it.
    pub hash: String,
    pub template: TemplateChoice,
    /// The scripts take6 wrote into its working copy, its folder having no `launch`.
    pub generated: Option<Generated>,
    /// What its `bot.toml` says of it (author, description, url, version).
    pub about: About,
    /// The modes its `bot.toml` chose, read once as it was prepared.
    pub modes: Modes,
    /// What is worth saying of its folder before the series (a `bot.toml` key take6 does not
    /// know), said on stderr.
    pub warnings: Vec<String>,
}

/// A folder that is not a usable bot, and why.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Skipped {
    pub name: String,
    pub reason: String,
}

/// How the reason of a bot skipped for playing another game begins (`bot.toml` `games`):
/// such a skip is by design, so it does not make `take6 run` exit non-zero.
pub const FOR_ANOTHER_GAME: &str = "for another game: ";

/// How the reason of a folder of a git repository that holds no bot at all begins (no
/// `launch`, no `build`, no `bot.toml`, no source take6 knows: `docs/`): it is left out with
/// a note, by design, so it does not make `take6 run` exit non-zero.
pub const NOT_A_BOT: &str = "holds no bot: ";

impl Skipped {
    /// The line that says so on a terminal: `<folder>: skipped: <reason>` (a folder that holds
    /// no bot: `note: <folder> left out: …`), the folder as `place` names it and the reason
    /// through [`crate::untrusted`] (a reason's lines indented).
    pub fn line(&self, place: &Place) -> String {
        let folder = crate::untrusted::terminal(&place.of(&self.name));
        let reason = crate::untrusted::terminal_text(&self.reason).replace('\n', "\n    ");
        match reason.strip_prefix(NOT_A_BOT) {
            Some(why) => format!("take6: note: {folder} left out: it holds no bot ({why})"),
            None => format!("{folder}: skipped: {reason}"),
        }
    }

    /// Whether the bot was left out because its `bot.toml` names other games.
    pub fn is_for_another_game(&self) -> bool {
        self.reason.starts_with(FOR_ANOTHER_GAME)
    }

    /// Whether the folder was left out by design, not for a fault: a bot of another game, or a
    /// folder of a repository that holds no bot at all.
    pub fn is_left_out(&self) -> bool {
        self.is_for_another_game() || self.reason.starts_with(NOT_A_BOT)
    }
}

/// Where the bot folders of a series are, as people name them: under the bots folder
/// (`bots/alice`), or in a git repository at a revision (`../koth-bots@v2:alice`), never the
/// cache the repository is checked out in.
#[derive(Debug, Clone, Default)]
pub struct Place {
    /// The bots folder (a repository's cache, for one).
    pub bots: PathBuf,
    /// The repository and revision, as given (`../koth-bots@v2`), when the bots came from one.
    pub repository: Option<String>,
}

impl Place {
    /// Where the folder of the bot `name` is, as people name it.
    pub fn of(&self, name: &str) -> String {
        match &self.repository {
            Some(repo) => format!("{repo}:{name}"),
            None => folder_of(&self.bots, name).display().to_string(),
        }
    }
}

/// Marks the skipped folders of a git repository that hold no bot at all (a `docs/` beside the
/// bots: no `launch`, no `build`, no `bot.toml`, no source take6 knows) as left out by design.
pub fn left_out_of_repository(bots: &Path, skipped: &mut [Skipped]) {
    for s in skipped.iter_mut() {
        let folder = bots.join(&s.name);
        let holds = |f: &str| fs::symlink_metadata(folder.join(f)).is_ok();
        let is_dir = fs::symlink_metadata(&folder).is_ok_and(|m| m.is_dir());
        if is_dir
            && s.reason.starts_with(generate::NO_SOURCE)
            && !["launch", "build", BOT_TOML].iter().any(|f| holds(f))
        {
            s.reason = format!(
                "{NOT_A_BOT}no launch, build or bot.toml, and no source of a language take6 \
                 builds"
            );
        }
    }
}

/// The bots folder itself cannot be used.
#[derive(Debug, thiserror::Error)]
pub enum BotsError {
    #[error(
        "bots folder {0} does not exist; create it with one subfolder per bot, or pass --bots DIR"
    )]
    Missing(PathBuf),
    #[error("cannot read bots folder {path}: {error}")]
    Read { path: PathBuf, error: io::Error },
    #[error("cannot create {path}: {error}")]
    Write { path: PathBuf, error: io::Error },
    /// The disk where the run writes has less room than it needs at most.
    #[error("{0}")]
    NoRoom(String),
}

/// `bot.toml`: per-bot settings, and what its author says of it. A key it does not know is
/// a warning (an entrant's own metadata), not a reason to skip the bot.
#[derive(Debug, Default, Deserialize)]
struct BotToml {
    /// The template set the bot speaks, e.g. `codingame`.
    template: Option<String>,
    /// The games the bot plays, e.g. `["kingdomino"]`; absent: whatever the series plays.
    games: Option<Vec<String>>,
    /// A Botzone bot's "keep running" option: it may ask to be kept running between its
    /// turns (its input then stays open after each request). Absent: false, as on Botzone.
    keep_running: Option<bool>,
    /// A Botzone bot's "simple interaction" option: it reads and writes plain lines, which the
    /// game's `[simpleio]` functions convert. Absent: false (JSON), as on Botzone.
    simple_io: Option<bool>,
    /// Who wrote it; shown in the report, changes nothing.
    author: Option<String>,
    /// What it does, in a line; shown in the report.
    description: Option<String>,
    /// Where to read more (its repository, a write-up); shown in the report.
    url: Option<String>,
    /// Its version; shown in the report.
    version: Option<String>,
    /// Any other key: said in a warning, otherwise ignored.
    #[serde(flatten)]
    unknown: std::collections::BTreeMap<String, toml::Value>,
}

/// The keys `bot.toml` knows, for its messages.
const BOT_TOML_KEYS: &str =
    "template, games, keep_running, simple_io, author, description, url, version";

/// What a bot's author says of it in its `bot.toml` (`author`, `description`, `url`,
/// `version`): recorded in `series.toml` and shown in the report; it changes no game.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct About {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub author: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub description: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub url: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub version: Option<String>,
}

/// What the `bot.toml` of the working copy `workdir` says of the bot, and a warning for each
/// key it does not know (the key shown through [`crate::untrusted`]). A `bot.toml` that
/// cannot be read says nothing (it was checked when the bot was staged).
pub fn about(workdir: &Path) -> (About, Vec<String>) {
    let Some(toml) = copy_toml(workdir) else {
        return (About::default(), Vec::new());
    };
    let warnings = toml
        .unknown
        .keys()
        .map(|k| {
            format!(
                "bot.toml: unknown key {} ignored (its keys are {BOT_TOML_KEYS})",
                crate::untrusted::terminal(k)
            )
        })
        .collect();
    let about = About {
        author: toml.author,
        description: toml.description,
        url: toml.url,
        version: toml.version,
    };
    (about, warnings)
}

/// The modes the `bot.toml` of the bot folder `folder` chooses (its source: the working copy
/// may be in a parked image), read through the door.
pub fn folder_modes(folder: &Path) -> Modes {
    let toml = folder::read_text(folder, Path::new(BOT_TOML), BOT_TOML_CAP)
        .ok()
        .and_then(|text| toml::from_str::<BotToml>(&text).ok());
    Modes {
        keep_running: toml.as_ref().and_then(|t| t.keep_running).unwrap_or(false),
        simple_io: toml.as_ref().and_then(|t| t.simple_io).unwrap_or(false),
    }
}

/// What a bot's `bot.toml` chose of the modes a game may offer (Botzone's bot settings):
/// read once, as the bot is prepared, and carried to its tables; a `bot.toml` that cannot be
/// read chooses none.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Modes {
    /// `keep_running = true`: kept running between its turns, where the game allows it.
    pub keep_running: bool,
    /// `simple_io = true`: the game's simple interaction instead of JSON.
    pub simple_io: bool,
}

/// The `bot.toml` of the working copy `workdir`, read through the door from its series
/// folder (no link followed in `work`, in the copy or at `bot.toml`); `None` when it cannot be
/// read or is not valid.
fn copy_toml(workdir: &Path) -> Option<BotToml> {
    let bytes = crate::door::working_copy(workdir)
        .and_then(|copy| copy.head(Path::new(BOT_TOML), BOT_TOML_CAP))
        .ok()?;
    toml::from_str(std::str::from_utf8(&bytes).ok()?).ok()
}

/// Largest `bot.toml` read: it holds one short key.
const BOT_TOML_CAP: u64 = 64 * 1024;

/// How a run's bots are prepared: one plain value, handed whole to [`prepare`]. Made with
/// [`BuildPlan::new`] (no watcher, no kept copies, one build at a time, a 5-minute build
/// timeout, 1 GiB of file data) and its fields set where a run wants otherwise.
pub struct BuildPlan<'a> {
    /// The folder of bot folders.
    pub bots_dir: &'a Path,
    /// The series' (or league's) folder: working copies go to `work/<name>`, build logs to
    /// `logs/`.
    pub series_dir: &'a Path,
    /// How long a bot's `build` may run.
    pub build_timeout: Duration,
    /// Builds at once (`--jobs`).
    pub jobs: usize,
    /// The most file data a bot folder may hold; a larger one is skipped.
    pub max_data: u64,
    /// The launcher every build runs through.
    pub sandbox: &'a Arc<Sandbox>,
    /// Warm sandboxes started for each bot before the games.
    pub prewarm: Prewarm,
    /// What the sandbox can run, looked up once per series, for folders without `launch`.
    pub tools: &'a Toolchains,
    /// The game played and the names a `bot.toml` may give.
    pub games: GameNames,
    /// Told of each build as it starts and ends.
    pub watch: Arc<dyn BuildWatch>,
    /// Working copies kept from an earlier run, by bot name.
    pub kept: Arc<KeptCopies>,
}

/// The games a bot folder is prepared with in mind: the one played (a bot whose `bot.toml`
/// names other games is skipped) and every game's name (said when a `bot.toml`'s `games` is
/// not a list of names). The bots stage knows no game but by these names.
#[derive(Debug, Clone, Default)]
pub struct GameNames {
    pub playing: String,
    pub known: Vec<String>,
}

impl<'a> BuildPlan<'a> {
    /// A plan for the bots in `bots_dir`, prepared under `series_dir` through `sandbox` for
    /// `game`, with the defaults above.
    pub fn new(
        (bots_dir, series_dir): (&'a Path, &'a Path),
        sandbox: &'a Arc<Sandbox>,
        tools: &'a Toolchains,
        games: GameNames,
    ) -> BuildPlan<'a> {
        BuildPlan {
            bots_dir,
            series_dir,
            build_timeout: Duration::from_secs(300),
            jobs: 1,
            max_data: 1 << 30,
            sandbox,
            prewarm: Prewarm::NONE,
            tools,
            games,
            watch: Arc::new(()),
            kept: Arc::new(KeptCopies::new()),
        }
    }
}

/// Who is told of each bot's build as it starts and as it ends (`take6 run`'s progress:
/// a bar on a terminal, lines elsewhere). `()` is told nothing.
pub trait BuildWatch: Send + Sync {
    /// The build of `name` starts now.
    fn started(&self, name: &str);
    /// The build of `name` ended after `took`; `ok` when it succeeded.
    fn finished(&self, name: &str, took: Duration, ok: bool);
}

impl BuildWatch for () {
    fn started(&self, _: &str) {}
    fn finished(&self, _: &str, _: Duration, _: bool) {}
}

/// A working copy kept from an earlier run for a bot whose folder has not changed since (a
/// league keeps each version's private storage): it is used as it is, neither copied nor built
/// again, as `take6 run --resume` uses a series' working copies.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct KeptCopy {
    /// The hash of the folder the copy was made from: a folder whose content differs now is
    /// copied afresh (its storage wiped).
    pub hash: String,
    pub template: TemplateChoice,
    pub generated: Option<Generated>,
    pub about: About,
}

/// The kept working copies, by bot name.
pub type KeptCopies = std::collections::BTreeMap<String, KeptCopy>;

/// Finds the bots in the plan's bots folder, copies each to `<series_dir>/work/<name>` (or
/// uses its kept copy when the folder still has its hash; every other bot's working copy, a
/// kept one included, is removed and made afresh) and runs its `build` there (up to `jobs`
/// copies or builds at once) through the plan's sandbox. A folder with more than `max_data`
/// bytes of file data is skipped. A folder without `launch` whose source is recognised gets
/// scripts written into its working copy, if `tools` has its language's. Returns the usable
/// bots sorted by name and the skipped folders with their reasons.
pub async fn prepare(plan: BuildPlan<'_>) -> Result<(Vec<Bot>, Vec<Skipped>), BotsError> {
    let bots_dir = plan.bots_dir;
    if !bots_dir.is_dir() {
        return Err(BotsError::Missing(bots_dir.to_path_buf()));
    }
    let read_err = |error| BotsError::Read {
        path: bots_dir.to_path_buf(),
        error,
    };
    let folders = folders(bots_dir).map_err(read_err)?;
    prepare_folders(folders, plan).await
}

/// [`prepare`] of the bot folders given (the plan's `bots_dir` unused), each with the folder
/// it resolves to or the reason it is skipped (`take6 compare`'s NEW, OLD and field): copied
/// into the plan's `series_dir`'s `work` and built.
pub async fn prepare_folders(
    folders: Vec<(PathBuf, Result<PathBuf, String>)>,
    plan: BuildPlan<'_>,
) -> Result<(Vec<Bot>, Vec<Skipped>), BotsError> {
    let BuildPlan {
        series_dir,
        build_timeout,
        jobs,
        max_data,
        sandbox,
        prewarm,
        tools,
        games,
        watch,
        kept,
        ..
    } = plan;
    let (logs, work) = logs_and_work(series_dir)?;

    let builds = Arc::new(Semaphore::new(jobs.max(1)));
    // Copying a folder and making its disk image is short file work, whatever `--jobs`, and
    // mostly waiting (on `mkfs.ext4`'s start and writes, the loop device, the mount): four
    // per processor at once, so that a series (at `--jobs 1` too) starts sooner.
    let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
    let slots = jobs.max(4 * cores);
    let copies = Arc::new(Semaphore::new(slots));
    // The disk the run needs at most, before anything is written (bots/room.rs).
    let shape = room::Shape {
        slots: slots + jobs,
        tables: prewarm.games_at_once.max(jobs),
        seats: prewarm.seats,
    };
    let (found, keeping) = (folders.clone(), Arc::clone(&kept));
    let probe = Arc::clone(sandbox);
    let need =
        tokio::task::spawn_blocking(move || room::need(&found, &keeping, &probe, shape, max_data))
            .await
            .map_err(|e| BotsError::NoRoom(format!("cannot measure the bots' folders: {e}")))?;
    room::check(series_dir, need, sandbox.limits().disk_mib)?;
    let alike = lookalikes(&folders);
    // A bot whose image is parked between its games would only lose its warm sandboxes.
    let warm = match sandbox.imaged() && need.images < folders.len() {
        true => 0,
        false => prewarm.per_bot(folders.len()),
    };
    let tools = Arc::new(tools.clone());
    let games = Arc::new(games);
    let mut tasks = tokio::task::JoinSet::new();
    for (i, (folder, source)) in folders.into_iter().enumerate() {
        let (work, logs, builds) = (work.clone(), logs.clone(), Arc::clone(&builds));
        let copies = Arc::clone(&copies);
        let sandbox = Arc::clone(sandbox);
        let tools = Arc::clone(&tools);
        let looks_alike = alike.get(&file_name(&folder)).cloned();
        let games = Arc::clone(&games);
        let watch = Arc::clone(&watch);
        let kept = Arc::clone(&kept);
        tasks.spawn(async move {
            let name = file_name(&folder);
            if let Some(reason) = looks_alike {
                return (i, Err(Skipped { name, reason }));
            }
            let outcome = prepare_one(
                &folder,
                source,
                (&work, &logs),
                Slots {
                    copies: &copies,
                    builds: &builds,
                    warm,
                    tools: &tools,
                    games: &games,
                    watch: &*watch,
                    kept: &kept,
                    build_timeout,
                    max_data,
                    sandbox: &sandbox,
                },
            );
            let outcome = outcome.await.map_err(|reason| Skipped {
                // A name that cannot be shown as it is (control characters…) is kept escaped.
                name: if name_problem(&name).is_some() {
                    crate::untrusted::terminal(&name)
                } else {
                    name
                },
                reason,
            });
            (i, outcome)
        });
    }
    Ok(in_folder_order(tasks).await)
}

/// The series' `logs` (build logs) and `work` (working copies) folders, made. Bots run with
/// their working copy as current directory, so `work` is absolute.
fn logs_and_work(series_dir: &Path) -> Result<(PathBuf, PathBuf), BotsError> {
    let logs = series_dir.join("logs");
    let work = std::path::absolute(series_dir.join("work")).map_err(|error| BotsError::Write {
        path: series_dir.join("work"),
        error,
    })?;
    // The series folder is made (or named) by path; `logs` and `work` beneath it by its
    // descriptor: a league or results folder whose `work` is a link to a host folder is
    // refused, never written through.
    fs::create_dir_all(series_dir).map_err(|error| BotsError::Write {
        path: series_dir.to_path_buf(),
        error,
    })?;
    let series = crate::door::Folder::open(series_dir).map_err(|error| BotsError::Write {
        path: series_dir.to_path_buf(),
        error,
    })?;
    let make = |dir: &PathBuf| {
        let name = Path::new(dir.file_name().expect("logs and work have names"));
        series.make_folder(name).map_err(|error| BotsError::Write {
            path: dir.clone(),
            error,
        })
    };
    make(&logs)?;
    let work_folder = make(&work)?;
    // The disk images' folder (`work/.images`), where images are made and removed by path: a
    // folder or nothing, never a link.
    let image = crate::sandbox::image_of(&work.join("_"));
    if let Some(images) = image.parent().and_then(Path::file_name) {
        let path = work.join(images);
        match work_folder.kind_of(Path::new(images)) {
            Ok(None | Some("a folder")) => {}
            Ok(Some(other)) => {
                return Err(BotsError::Write {
                    path,
                    error: io::Error::new(
                        io::ErrorKind::InvalidData,
                        format!(
                            "{other}, not a folder: take6 follows no link in a results or \
                             league folder"
                        ),
                    ),
                });
            }
            Err(error) => return Err(BotsError::Write { path, error }),
        }
    }
    Ok((logs, work))
}

/// The bots prepared and those skipped, in folder order whatever order they finished in (the
/// tasks are numbered by folder), so that a series' bots do not depend on build times.
async fn in_folder_order(
    mut tasks: tokio::task::JoinSet<(usize, Result<Bot, Skipped>)>,
) -> (Vec<Bot>, Vec<Skipped>) {
    let mut outcomes = Vec::new();
    while let Some(joined) = tasks.join_next().await {
        outcomes.push(joined.expect("bot preparation does not panic"));
    }
    outcomes.sort_by_key(|(i, _)| *i);
    let mut bots = Vec::new();
    let mut skipped = Vec::new();
    for (_, outcome) in outcomes {
        match outcome {
            Ok(bot) => bots.push(bot),
            Err(s) => skipped.push(s),
        }
    }
    (bots, skipped)
}

/// The bot folders of `bots_dir`, sorted: `bots_dir` itself when it is one bot's folder
/// (`--bots mybots/mybot`, which then plays the built-ins), else its subfolders whose names do
/// not begin with a dot.
///
/// Each comes with the folder it resolves to (its recorded source), or the reason it is
/// skipped: a link that leads out of the bots folder ([`inside`]).
pub fn folders(bots_dir: &Path) -> io::Result<Vec<(PathBuf, Result<PathBuf, String>)>> {
    if is_bot_folder(bots_dir) {
        let own = own_folder(bots_dir);
        let resolved = own.canonicalize().unwrap_or_else(|_| own.clone());
        return Ok(vec![(own, Ok(resolved))]);
    }
    let root = bots_dir.canonicalize()?;
    let mut folders: Vec<(PathBuf, Result<PathBuf, String>)> = fs::read_dir(bots_dir)?
        .collect::<Result<Vec<_>, _>>()?
        .into_iter()
        .map(|e| e.path())
        .filter(|p| !file_name(p).starts_with('.'))
        .filter_map(|p| inside(&root, p))
        .collect();
    folders.sort_by(|a, b| a.0.cmp(&b.0));
    Ok(folders)
}

/// How many bots of `bots_dir` may play `game` at most, read before anything is copied or
/// built: its folders that look like bots (a `launch`, a `build` or source take6 knows) less
/// those whose `bot.toml` names other games. A series whose settings cannot seat that many is
/// refused at once, not after the builds.
pub fn entrants_at_most(bots_dir: &Path, game: &str) -> usize {
    let Ok(folders) = folders(bots_dir) else {
        return 0;
    };
    // Names refused for themselves or for looking like another take no seat either.
    let alike = lookalikes(&folders);
    folders
        .iter()
        .filter(|(_, source)| source.is_ok())
        .map(|(folder, _)| folder)
        .filter(|folder| is_bot_folder(folder))
        .filter(|folder| {
            let name = file_name(folder);
            name_problem(&name).is_none() && !alike.contains_key(&name)
        })
        .filter(|folder| {
            let Ok(text) = folder::read_text(folder, Path::new(BOT_TOML), BOT_TOML_CAP) else {
                return true;
            };
            toml::from_str::<BotToml>(&text)
                .ok()
                .and_then(|t| t.games)
                .is_none_or(|games| games.iter().any(|n| n == game))
        })
        .count()
}

/// Whether the `bot.toml` of the bot folder `folder` says which games the bot plays (its
/// `games` key); an absent, unreadable or invalid one does not.
pub fn names_its_games(folder: &Path) -> bool {
    folder::read_text(folder, Path::new(BOT_TOML), BOT_TOML_CAP)
        .ok()
        .and_then(|text| toml::from_str::<BotToml>(&text).ok())
        .is_some_and(|t| t.games.is_some())
}

/// The folders' names that look alike (case folding, Unicode confusables), each with the
/// reason it is refused: all of them, since any could otherwise pass for another on every
/// screen, CSV and page. Names refused for themselves ([`name_problem`]) are left out.
fn lookalikes<S>(folders: &[(PathBuf, S)]) -> std::collections::BTreeMap<String, String> {
    let names: Vec<String> = folders.iter().map(|(f, _)| file_name(f)).collect();
    crate::names::lookalikes(
        names
            .iter()
            .filter(|n| name_problem(n).is_none())
            .map(String::as_str),
    )
    .into_iter()
    .map(|(name, others)| (name.to_string(), crate::names::lookalike_problem(&others)))
    .collect()
}

/// An entry `path` of the bots folder (whose resolved path is `root`) that may be a bot, with
/// the folder it resolves to (recorded as its source): a folder, or a symlink (through any
/// number of links, absolute or relative) to a folder inside the bots folder; a symlink that leads anywhere else
/// (`stolen -> /root`, `up -> ../../..`, the bots folder itself) with the reason it is skipped.
/// Nothing else (files, links to files, dangling links) is a bot. Nothing in the bots folder,
/// a repository's checkout or a host's own folder alike, is followed out of it: a folder
/// unpacked from a stranger's archive may hold such a link.
fn inside(root: &Path, path: PathBuf) -> Option<(PathBuf, Result<PathBuf, String>)> {
    let meta = fs::symlink_metadata(&path).ok()?;
    if meta.is_dir() {
        // Where it is, whatever links lead to the bots folder.
        let resolved = path.canonicalize().unwrap_or_else(|_| path.clone());
        return Some((path, Ok(resolved)));
    }
    if !meta.is_symlink() {
        return None;
    }
    let resolved = path.canonicalize().ok().filter(|t| t.is_dir())?;
    if resolved.starts_with(root) && resolved != root {
        return Some((path, Ok(resolved)));
    }
    let text = fs::read_link(&path).unwrap_or_default();
    let reason = format!(
        "it is a symlink ({}) to {}, outside the bots folder {}; a bot must be a folder in it, \
         and links out of it are never followed (copy the folder in instead)",
        crate::untrusted::terminal(&text.to_string_lossy()),
        crate::untrusted::terminal(&resolved.to_string_lossy()),
        crate::untrusted::terminal(&root.to_string_lossy())
    );
    Some((path, Err(reason)))
}

/// Whether `dir` is one bot's own folder rather than a folder of bots: it holds a `launch` or
/// a `build` (whatever their kind: a bad one is skipped with its reason), or source take6
/// writes scripts for while no subfolder holds a `launch`. `--bots` and `take6 check` take
/// such a folder as a series of that one bot.
pub fn is_bot_folder(dir: &Path) -> bool {
    let has = |d: &Path, name: &str| fs::symlink_metadata(d.join(name)).is_ok();
    if has(dir, "launch") || has(dir, "build") {
        return true;
    }
    generate::has_source(dir)
        && !fs::read_dir(dir).is_ok_and(|entries| {
            entries
                .flatten()
                .any(|e| e.path().is_dir() && has(&e.path(), "launch"))
        })
}

/// A bot folder named by itself, as a path whose last part is the bot's name: `.` or `..`
/// become the folder they stand for (the path is made absolute, links are not followed
/// unless the name can be had no other way).
pub fn own_folder(dir: &Path) -> PathBuf {
    std::path::absolute(dir)
        .ok()
        .filter(|p| p.file_name().is_some())
        .or_else(|| dir.canonicalize().ok())
        .unwrap_or_else(|| dir.to_path_buf())
}

/// Where the folder of the bot `name` is: `bots` itself when it is one bot's folder, else its
/// subfolder `name` (for the lines that name a skipped bot's folder).
pub fn folder_of(bots: &Path, name: &str) -> PathBuf {
    if is_bot_folder(bots) {
        bots.to_path_buf()
    } else {
        bots.join(name)
    }
}

fn file_name(path: &Path) -> String {
    path.file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default()
}

/// How many warm sandboxes to start for each bot before the first game: as many as the games
/// it may be in at once.
#[derive(Debug, Clone, Copy)]
pub struct Prewarm {
    /// Games played at once (`--jobs`, or fewer if the series is shorter).
    pub games_at_once: usize,
    /// Seats at a table.
    pub seats: usize,
}

impl Prewarm {
    /// No warm sandbox before the games (each starts with the bot's first game).
    pub const NONE: Prewarm = Prewarm {
        games_at_once: 0,
        seats: 0,
    };

    /// Per bot among `bots`: each game seats `seats` of them, so a bot is in about
    /// `games_at_once * seats / bots` of the games at once (all of them when it is always
    /// seated).
    fn per_bot(self, bots: usize) -> usize {
        (self.games_at_once * self.seats)
            .div_ceil(bots.max(1))
            .min(self.games_at_once)
    }
}

/// What every folder's preparation shares: how many folders may be copied, and how many
/// built, at once; how many warm sandboxes each bot gets before the games; the toolchains.
#[derive(Clone, Copy)]
struct Slots<'a> {
    copies: &'a Semaphore,
    builds: &'a Semaphore,
    warm: usize,
    /// The toolchains the series' bots can run, for folders without `launch`.
    tools: &'a Arc<Toolchains>,
    /// The game the series plays and the games there are.
    games: &'a Arc<GameNames>,
    /// Told of each build as it starts and ends.
    watch: &'a dyn BuildWatch,
    /// The working copies kept from an earlier run, by bot name.
    kept: &'a KeptCopies,
    /// How long a bot's `build` may run.
    build_timeout: Duration,
    /// The most file data a bot folder may hold.
    max_data: u64,
    /// The launcher every build runs through.
    sandbox: &'a Arc<Sandbox>,
}

/// Checks, copies and builds one folder (`folder` names it, `source` is where it is, or why it
/// is not used); the error is the reason it is skipped.
async fn prepare_one(
    folder: &Path,
    source: Result<PathBuf, String>,
    (work, logs): (&Path, &Path),
    slots: Slots<'_>,
) -> Result<Bot, String> {
    let (build_timeout, max_data, sandbox) = (slots.build_timeout, slots.max_data, slots.sandbox);
    let Some(name) = folder.file_name().and_then(|n| n.to_str()) else {
        return Err("the folder name is not valid UTF-8; rename the folder".into());
    };
    if let Some(problem) = name_problem(name) {
        return Err(format!("{problem} (rename the folder)"));
    }
    let name = name.to_string();
    let source = source?;
    let workdir = work.join(&name);
    if let Some(kept) = slots.kept.get(&name) {
        // Behind the copy slots too: its disk image is made whole while it is taken back.
        let slot = slots.copies.acquire().await.expect("never closed");
        let reused = reuse(&name, (&source, &workdir), kept, max_data, sandbox).await?;
        drop(slot);
        if let Some(bot) = reused {
            sandbox.prewarm(&bot.workdir, slots.warm);
            return Ok(bot);
        }
    }
    // Walking, hashing and copying a folder is blocking file work: off the async threads, so
    // that nothing a folder holds can stall the series or its signal handling.
    let (found, copy) = (source.clone(), workdir.clone());
    let slot = slots.copies.acquire().await.expect("never closed");
    let handover = Arc::clone(sandbox);
    let tools = Arc::clone(slots.tools);
    let games = Arc::clone(slots.games);
    let (hash, template, has_build, generated) = tokio::task::spawn_blocking(move || {
        let (staged, own) = stage(&found, &copy, max_data, &tools, &games)?;
        // The copy becomes the sandboxed bot's own (it runs as an unprivileged user).
        handover
            .prepare_workdir(&copy, own)
            .map_err(|e| format!("cannot hand {} to the sandbox: {e}", copy.display()))?;
        Ok::<_, String>(staged)
    })
    .await
    .map_err(|e| format!("preparing the folder failed: {e}"))??;
    // Seated with its disk image while it is prepared, holding its copy slot, so that at most
    // as many images as slots are whole at once; idle images past what the series keeps are
    // parked as the others are made (sandbox/seats.rs).
    let mut seat = Some(crate::sandbox::Seat::held(sandbox, &workdir));
    if has_build {
        drop(seat.take());
        let _slot = slots.builds.acquire().await.expect("never closed");
        seat = Some(crate::sandbox::Seat::take(sandbox, &workdir).map_err(|e| {
            format!(
                "cannot make the disk image of {} for its build: {e}",
                workdir.display()
            )
        })?);
        let log = logs.join(format!("{name}.build.log"));
        let began = std::time::Instant::now();
        slots.watch.started(&name);
        let built = run_build(sandbox, &workdir, &log, build_timeout).await;
        slots.watch.finished(&name, began.elapsed(), built.is_ok());
        built.map_err(|why| format!("{why} (see {})", log.display()))?;
    }
    // A launch that cannot start is refused now, with its cause, rather than faulted in
    // every game as a bot that "closed its output".
    if let Some(problem) = launch_problem(&workdir.join("launch"), sandbox.isolated()) {
        return Err(problem);
    }
    // Its warm sandboxes start now, alongside the other bots' preparation, instead of one
    // after another as the first games begin. On this async thread, not a blocking one: a
    // sandbox dies with the thread that started it, and blocking threads come and go. Not
    // behind the copy slots: bubblewrap's setup is processor work and `mkfs` mostly waits on
    // writes, so the sandboxes start while the other bots' images are made (queued behind
    // every image, they would start only once the last one was done).
    sandbox.prewarm(&workdir, slots.warm);
    // Read while the bot is seated: a parked image holds no readable working copy.
    let (about, warnings) = about(&workdir);
    let modes = folder_modes(&source);
    drop(seat);
    drop(slot);
    Ok(Bot {
        name,
        source,
        workdir,
        hash,
        template,
        generated,
        about,
        modes,
        warnings,
    })
}

/// The bot `name` with the working copy `workdir` kept from an earlier run (`kept`), when its
/// folder `source` still has the content the copy was made from: the sandbox takes the copy
/// back (its disk image made or mounted again, handed to the bot's user of this run) and its
/// `launch` is checked again (the bot may have changed it). `None` when the folder changed or
/// the copy is gone: it is made afresh. An error is the reason the bot is skipped this run.
async fn reuse(
    name: &str,
    (source, workdir): (&Path, &Path),
    kept: &KeptCopy,
    max_data: u64,
    sandbox: &Arc<Sandbox>,
) -> Result<Option<Bot>, String> {
    let (found, copy) = (source.to_path_buf(), workdir.to_path_buf());
    let handover = Arc::clone(sandbox);
    let hash = kept.hash.clone();
    let taken = tokio::task::spawn_blocking(move || {
        let (now, own) = folder::scan(&found, max_data)
            .and_then(|listing| Ok((listing.hash()?, listing.footprint())))
            .map_err(|e| e.to_string())?;
        let there = crate::door::working_copy_there(&copy, &crate::sandbox::image_of(&copy))
            .map_err(|e| e.to_string())?
            .any();
        if now != hash || !there {
            return Ok(false);
        }
        match handover.resume_workdir(&copy, own) {
            Ok(()) => Ok::<_, String>(true),
            // Storage past the disk limit (kept by an older take6): a fresh copy instead.
            Err(e) if e.kind() == io::ErrorKind::QuotaExceeded => {
                tracing::warn!("{e}; a fresh copy is made instead (its storage is wiped)");
                Ok(false)
            }
            Err(e) => Err(format!(
                "its working copy {} (its private storage, kept for this version) cannot be \
                 used: {e}",
                copy.display()
            )),
        }
    })
    .await
    .map_err(|e| format!("preparing the folder failed: {e}"))??;
    if !taken {
        return Ok(None);
    }
    // Seated with its image while it is taken back (sandbox/seats.rs).
    let _seat = crate::sandbox::Seat::held(sandbox, workdir);
    if let Some(problem) = launch_problem(&workdir.join("launch"), sandbox.isolated()) {
        return Err(problem);
    }
    Ok(Some(Bot {
        name: name.to_string(),
        source: source.to_path_buf(),
        workdir: workdir.to_path_buf(),
        hash: kept.hash.clone(),
        template: kept.template.clone(),
        generated: kept.generated.clone(),
        about: kept.about.clone(),
        modes: folder_modes(source),
        warnings: Vec::new(),
    }))
}

/// Removes the working copy `workdir` and any disk image of it, by descriptors and following
/// no link the bot left in it, whatever its depth.
///
/// Both are reached from the series (or league) folder's descriptor: its `work` being a link
/// is refused, and nothing outside it is removed.
pub fn wipe(workdir: &Path) -> io::Result<()> {
    let (work, name) = match crate::door::work_of(workdir) {
        Err(e) if e.kind() == io::ErrorKind::NotFound => return Ok(()),
        other => other?,
    };
    crate::sandbox::deep::remove_tree(&work, &name)?;
    let image = crate::sandbox::image_of(workdir);
    let Ok(image) = image.strip_prefix(work.path()) else {
        return Ok(());
    };
    match work.remove(image) {
        Err(e) if e.kind() != io::ErrorKind::NotFound => Err(e),
        _ => Ok(()),
    }
}

/// The file work of preparing a bot: lists the folder (refusing special files and folders too
/// large), checks its scripts and settings, hashes it and copies it to `workdir`, where it
/// writes `build` and `launch` for a folder with recognised source and neither script (the
/// folder itself is only read). Returns the hash, the template choice, whether there is a
/// build script and the scripts written.
fn stage(
    folder: &Path,
    workdir: &Path,
    max_data: u64,
    tools: &Toolchains,
    games: &GameNames,
) -> Result<(Staged, u64), String> {
    let game = games.playing.as_str();
    let listing = folder::scan(folder, max_data).map_err(|e| e.to_string())?;
    // A bot for another game is skipped before anything is copied or built for it.
    let settings = bot_toml(folder, &listing, &games.known)?;
    if let Some(games) = settings
        .games
        .as_ref()
        .filter(|g| !g.iter().any(|n| n == game))
    {
        // The names come from the bot's bot.toml: shown through the terminal's door.
        let names: Vec<String> = games
            .iter()
            .map(|n| crate::untrusted::terminal(n))
            .collect();
        return Err(format!(
            "{FOR_ANOTHER_GAME}it plays {} (bot.toml: games = {names:?}), and this series plays \
             {game}; run it \
             with --game {}, or add \"{game}\" to its games",
            names.join(" and "),
            names.first().map_or("GAME", String::as_str),
        ));
    }
    let generated = match (listing.kind_of("launch"), listing.kind_of("build")) {
        (Some(kind), _) => {
            script(kind, "launch")?;
            None
        }
        // The author's own build is never paired with a launch of take6's guessing.
        (None, Some(_)) => {
            return Err(
                "no launch script (add an executable file named 'launch'); the folder has a \
                 build script, so take6 writes none for it"
                    .into(),
            );
        }
        (None, None) => Some(generate::recognise(folder, &listing, tools)?),
    };
    let has_build = match listing.kind_of("build") {
        None => generated.as_ref().is_some_and(|g| g.build.is_some()),
        Some(kind) => {
            script(kind, "build")?;
            true
        }
    };
    let template = template_choice(folder, &listing, settings)?;
    // A copy left there (a league's storage of an earlier version) goes, its links unfollowed.
    wipe(workdir).map_err(|e| format!("cannot clear {}: {e}", workdir.display()))?;
    // The hash of the bytes copied, read once: what is recorded is what plays.
    let hash = listing.copy_to(workdir).map_err(|e| e.to_string())?;
    if let Some(g) = &generated {
        g.write(workdir)
            .map_err(|e| format!("cannot write the generated scripts: {e}"))?;
    }
    Ok(((hash, template, has_build, generated), listing.footprint()))
}

/// What [`stage`] found: the folder's hash, its template choice, whether there is a build
/// script, and the scripts take6 wrote.
type Staged = (String, TemplateChoice, bool, Option<Generated>);

/// Why the executable file `launch` could not start, found by reading its first line: no `#!`
/// line in a file that is not a program (exec format error), Windows line endings (the
/// interpreter's name would end in a carriage return), or an interpreter that does not exist,
/// or that the sandbox (`sandboxed`) does not show: it sees the system folders and the bot's
/// own folder (`/bot`), never home folders, where `which python3` often points (pyenv).
pub fn launch_problem(launch: &Path, sandboxed: bool) -> Option<String> {
    // Through the door: the build may have left `launch` a FIFO (an open would wait for a
    // writer forever), a link to /dev/zero or to a host file; each is refused with the reason.
    let (workdir, name) = (launch.parent()?, Path::new(launch.file_name()?));
    let head = match crate::door::working_copy(workdir).and_then(|f| f.head(name, 512)) {
        Ok(head) => head,
        Err(e) => {
            return Some(format!(
                "launch cannot be started: {} (make it an executable regular file)",
                crate::untrusted::terminal(&e.to_string())
            ));
        }
    };
    if head.starts_with(b"\x7fELF") {
        return None;
    }
    if !head.starts_with(b"#!") {
        return Some(
            "launch has no '#!' first line and is not a compiled program, so it cannot be \
             started (exec format error): make its first line e.g. #!/bin/sh or \
             #!/usr/bin/env python3"
                .into(),
        );
    }
    let line = head[2..].split(|&b| b == b'\n').next().unwrap_or_default();
    let line = String::from_utf8_lossy(line);
    if line.ends_with('\r') {
        return Some(
            "launch has Windows line endings (CRLF): its interpreter's name would end in a \
             carriage return and not be found; convert it with sed -i 's/\\r$//' launch (or \
             dos2unix)"
                .into(),
        );
    }
    let mut words = line.split_whitespace();
    let interpreter = words.next()?;
    let on_host = match interpreter.strip_prefix("/bot/") {
        Some(own) if sandboxed => workdir.join(own),
        _ => PathBuf::from(interpreter),
    };
    let visible = |path: &str| {
        path.starts_with("/bot/")
            || crate::sandbox::bwrap::SYSTEM_DIRS
                .iter()
                .any(|dir| Path::new(path).starts_with(dir))
    };
    if sandboxed && !visible(interpreter) {
        return Some(format!(
            "the interpreter {interpreter} of launch's '#!' line is not inside the sandbox, which \
             sees only {} and the bot's own folder at /bot (home folders are hidden): use a \
             system one, e.g. #!/usr/bin/env python3",
            crate::sandbox::bwrap::SYSTEM_DIRS.join(", ")
        ));
    }
    if !on_host.exists() {
        return Some(format!(
            "the interpreter {interpreter} of launch's '#!' line does not exist"
        ));
    }
    // `#!/usr/bin/env NAME`: NAME is looked up in the bot's PATH.
    if sandboxed
        && interpreter.ends_with("/env")
        && let Some(name) = words.next().filter(|w| !w.starts_with('-'))
    {
        let path = crate::sandbox::bwrap::ENV[0].1;
        if !name.contains('/')
            && !path
                .split(':')
                .any(|dir| Path::new(dir).join(name).exists())
        {
            return Some(format!(
                "launch's '#!' line runs {name} through env, and the sandbox's PATH ({path}) \
                 has no {name}: install it system-wide or name its full path"
            ));
        }
    }
    None
}

/// Checks that the script `name` (`launch` or `build`) is an executable regular file.
fn script(kind: &Kind, name: &str) -> Result<(), String> {
    match kind {
        Kind::File { mode, .. } if mode & 0o111 != 0 => Ok(()),
        Kind::File { .. } => Err(format!(
            "'{name}' is not an executable file (chmod +x {name})"
        )),
        Kind::Symlink { .. } => Err(format!(
            "'{name}' is a symlink; make it a regular file (links in a bot folder are copied, \
             never followed)"
        )),
        Kind::Dir { .. } => Err(format!(
            "'{name}' is a folder; it must be an executable file"
        )),
    }
}

/// A settings file of the bot's own (`bot.toml`, `template.toml`): absent, or a regular file.
fn own_file(listing: &Listing, name: &str) -> Result<bool, String> {
    match listing.kind_of(name) {
        None => Ok(false),
        Some(Kind::File { size, .. }) if name == BOT_TOML && *size > BOT_TOML_CAP => Err(format!(
            "{name} is larger than {} KiB; its only key is template = \"<set name>\"",
            BOT_TOML_CAP / 1024
        )),
        Some(Kind::File { .. }) => Ok(true),
        Some(_) => Err(format!(
            "{name} is not a regular file; make it one (links in a bot folder are never followed)"
        )),
    }
}

/// A TOML error in `text` said with the line it is on: `line L, column C: message`, then the
/// line itself and a caret under the offending part, so that the author sees what to fix
/// without opening the file.
pub fn toml_problem(text: &str, e: &toml::de::Error) -> String {
    let message = e.message().trim();
    let Some(span) = e.span() else {
        return message.to_string();
    };
    let start = span.start.min(text.len());
    let line_start = text[..start].rfind('\n').map_or(0, |i| i + 1);
    let line_end = text[start..].find('\n').map_or(text.len(), |i| start + i);
    let number = text[..start].matches('\n').count() + 1;
    let line = text[line_start..line_end].trim_end_matches('\r');
    let column = text[line_start..start].chars().count();
    let width = text[start..span.end.clamp(start, line_end)]
        .chars()
        .count()
        .max(1);
    let gutter = " ".repeat(number.to_string().len());
    format!(
        "line {number}, column {}: {message}\n  {gutter} |\n  {number} | {line}\n  {gutter} | {}{}",
        column + 1,
        " ".repeat(column),
        "^".repeat(width)
    )
}

/// The bot's `bot.toml`, or the defaults when it has none; `known` are the game names its
/// `games` may give (said when they are not a list of names).
fn bot_toml(folder: &Path, listing: &Listing, known: &[String]) -> Result<BotToml, String> {
    if !own_file(listing, BOT_TOML)? {
        return Ok(BotToml::default());
    }
    let text =
        folder::read_text(folder, Path::new(BOT_TOML), BOT_TOML_CAP).map_err(|e| e.to_string())?;
    toml::from_str(&text).map_err(|e| {
        let names: String = known.iter().map(|g| format!("\"{g}\", ")).collect();
        format!(
            "bot.toml is not valid (its keys are template = \"<set name>\", games = [{names}or \
             a game folder's name (the name in its game.toml), ...], for a Botzone game \
             keep_running = true and simple_io = true, and author, description, url and \
             version, each a string): {}",
            toml_problem(&text, &e)
        )
    })
}

/// The template set the bot speaks: the one its `bot.toml` names, its own `template.toml`,
/// or `default`.
fn template_choice(
    folder: &Path,
    listing: &Listing,
    settings: BotToml,
) -> Result<TemplateChoice, String> {
    let own = folder.join(BOT_TEMPLATE);
    match (settings.template, own_file(listing, BOT_TEMPLATE)?) {
        (Some(set), true) => Err(format!(
            "bot.toml names template set '{set}' but the folder also has its own template.toml; keep one"
        )),
        (Some(set), false) => Ok(TemplateChoice::Set(set)),
        (None, true) => Ok(TemplateChoice::File(own)),
        (None, false) => Ok(TemplateChoice::Set("default".into())),
    }
}

/// The most of a build log kept, rewritten as inert text.
const BUILD_LOG_CAP: u64 = 8 << 20;

/// Rewrites the build log at `log` through [`crate::untrusted::log_bytes`] (hosts `cat` it),
/// keeping its first [`BUILD_LOG_CAP`] bytes. A log that cannot be rewritten is removed: it
/// is never left raw.
fn inert_log(log: &Path) {
    use std::io::Read;
    let mut raw = Vec::new();
    // Through the door: a log left a link (a league folder handed over) is not read through.
    let opened = crate::door::open_path(log);
    let total = opened
        .as_ref()
        .ok()
        .and_then(|f| f.metadata().ok())
        .map_or(0, |m| m.len());
    let read = opened.and_then(|f| f.take(BUILD_LOG_CAP).read_to_end(&mut raw));
    let mut text = crate::untrusted::log_bytes(&raw);
    if total > BUILD_LOG_CAP {
        text.push_str(&format!(
            "[{} more bytes of build output dropped]\n",
            total - BUILD_LOG_CAP
        ));
    }
    // A new file renamed over the old (through the door: made fresh under a name no one can
    // guess): a straggler of the build writes to the old one.
    let written = read.is_ok()
        && log
            .parent()
            .zip(log.file_name())
            .is_some_and(|(dir, name)| {
                crate::door::Folder::open(dir)
                    .and_then(|f| f.replace(Path::new(name), text.as_bytes(), false))
                    .is_ok()
            });
    if !written {
        let _ = crate::door::remove_path(log);
    }
}

/// Runs `./build` in `workdir` through the launcher (the same sandbox and limits as a game),
/// stdout and stderr to `log`, killing its whole tree if it outlives `limit`.
async fn run_build(
    sandbox: &Sandbox,
    workdir: &Path,
    log: &Path,
    limit: Duration,
) -> Result<(), String> {
    // Made afresh through the door: whatever had its name (a link to a host file, in a
    // folder handed over) is removed, never written through.
    let out = crate::door::create_path(log).map_err(|e| format!("cannot create build log: {e}"))?;
    let err = out
        .try_clone()
        .map_err(|e| format!("cannot create build log: {e}"))?;
    // Whatever the build leaves running goes when the tree is dropped, even if the series is
    // abandoned.
    let (mut child, tree) = sandbox
        .spawn("build", workdir, [Stdio::null(), out.into(), err.into()])
        .map_err(|e| format!("build could not start: {e}"))?;
    let status = tokio::time::timeout(limit, child.wait()).await;
    // A limit the build ran into explains its failure, with the flag that raises it.
    let breach = || match tree.breach() {
        Some(breach) => format!(" ({breach}; {} raises it)", raised_by(&breach)),
        None => out_of_memory(sandbox, log),
    };
    let outcome = match status {
        Err(_) => Err(format!(
            "build timed out after {} s (--build-timeout-s raises it)",
            limit.as_secs()
        )),
        Ok(Err(e)) => Err(format!("build could not be waited for: {e}")),
        Ok(Ok(status)) if status.success() => Ok(()),
        Ok(Ok(status)) => Err(match status.code() {
            Some(code) => format!("build exited with status {code}{}", breach()),
            None => format!("build ended by {status}{}", breach()),
        }),
    };
    // The build's tree is gone before its log is rewritten (a straggler writes to the old file).
    drop(child);
    drop(tree);
    inert_log(log);
    outcome
}

/// The flag that raises the limit `breach` names.
fn raised_by(breach: &crate::sandbox::Breach) -> &'static str {
    match breach {
        crate::sandbox::Breach::Memory { .. } => "--memory-mib",
        crate::sandbox::Breach::Processes { .. } => "--max-procs",
        crate::sandbox::Breach::Disk { .. } => "--disk-mib",
    }
}

/// What the last lines of a failed build's `log` say when it ran out of memory without a
/// cgroup to tell (an address-space limit makes allocations fail, and the build then exits
/// with a status of its own): the limit and the flag that raises it; empty otherwise.
fn out_of_memory(sandbox: &Sandbox, log: &Path) -> String {
    const SIGNS: [&str; 6] = [
        "insufficient memory",
        "could not allocate",
        "cannot allocate memory",
        "out of memory",
        "std::bad_alloc",
        "memoryerror",
    ];
    let text = log
        .parent()
        .zip(log.file_name())
        .and_then(|(logs, name)| folder::read_text(logs, Path::new(name), 1 << 20).ok())
        .unwrap_or_default();
    let tail: String = text
        .lines()
        .rev()
        .take(40)
        .collect::<Vec<_>>()
        .join("\n")
        .to_lowercase();
    if !SIGNS.iter().any(|s| tail.contains(s)) {
        return String::new();
    }
    let (mib, per_process) = if sandbox.report().enforced.contains(&"address-space") {
        (
            sandbox.build_address_space_mib(),
            " of address space per process",
        )
    } else {
        (sandbox.limits().memory_mib, "")
    };
    format!(
        " (it ran out of memory: a build may use {mib} MiB{per_process}; --memory-mib raises it)"
    )
}

#[cfg(test)]
mod tests {

    #[test]
    fn each_bot_gets_a_warm_sandbox_per_game_it_may_be_in_at_once() {
        let p = |games_at_once, bots| {
            Prewarm {
                games_at_once,
                seats: 10,
            }
            .per_bot(bots)
        };
        // Always seated: in every game at once.
        assert_eq!(p(2, 10), 2);
        assert_eq!(p(1, 3), 1);
        // Twenty bots, ten seats: in half the games.
        assert_eq!(p(4, 20), 2);
        assert_eq!(p(2, 20), 1);
        // At least one, even for many bots.
        assert_eq!(p(1, 100), 1);
        assert_eq!(p(3, 0), 3);
    }
    use super::*;

    /// The games of a Take 6 series.
    fn take6() -> GameNames {
        GameNames {
            playing: "take6".into(),
            known: known(),
        }
    }

    /// The game names a series hands the bots stage.
    fn known() -> Vec<String> {
        vec!["take6".to_string(), "kingdomino".to_string()]
    }
    use std::os::unix::fs::PermissionsExt;

    /// The launcher of a default series (sandboxed where this machine allows).
    fn sandbox() -> Arc<Sandbox> {
        let s = Sandbox::new(
            crate::sandbox::Mode::Auto,
            crate::sandbox::Limits::default(),
            crate::sandbox::Clock::Cpu,
        );
        Arc::new(s.expect("auto always starts"))
    }

    fn write_exec(path: &Path, text: &str) {
        fs::write(path, text).unwrap();
        fs::set_permissions(path, fs::Permissions::from_mode(0o755)).unwrap();
    }

    #[tokio::test]
    async fn usable_bots_are_copied_and_built_and_the_rest_skipped_with_reasons() {
        let tmp = tempfile::tempdir().unwrap();
        let bots = tmp.path().join("bots");
        let series = tmp.path().join("series");
        for name in [
            "good", "nolaunch", "noexec", "badbuild", ".hidden", "bad toml",
        ] {
            fs::create_dir_all(bots.join(name)).unwrap();
        }
        write_exec(&bots.join("good/launch"), "#!/bin/sh\ncat\n");
        write_exec(
            &bots.join("good/build"),
            "#!/bin/sh\necho built > made.txt\n",
        );
        fs::write(bots.join("noexec/launch"), "#!/bin/sh\n").unwrap();
        write_exec(&bots.join("badbuild/launch"), "#!/bin/sh\n");
        write_exec(
            &bots.join("badbuild/build"),
            "#!/bin/sh\necho oops >&2\nexit 1\n",
        );
        write_exec(&bots.join(".hidden/launch"), "#!/bin/sh\n");

        let (sandbox, tools) = (sandbox(), Toolchains::default());
        let (ok, skipped) = prepare(BuildPlan {
            build_timeout: Duration::from_secs(10),
            jobs: 2,
            max_data: 1 << 20,
            ..BuildPlan::new((&bots, &series), &sandbox, &tools, take6())
        })
        .await
        .unwrap();
        assert_eq!(ok.len(), 1);
        let good = &ok[0];
        assert_eq!(good.name, "good");
        assert_eq!(good.template, TemplateChoice::Set("default".into()));
        assert_eq!(
            fs::read_to_string(good.workdir.join("made.txt")).unwrap(),
            "built\n"
        );
        assert!(
            !bots.join("good/made.txt").exists(),
            "the bots folder is never written"
        );
        let listing = folder::scan(&bots.join("good"), 1 << 20).unwrap();
        assert_eq!(good.hash, listing.hash().unwrap());

        let reason = |n: &str| {
            skipped
                .iter()
                .find(|s| s.name == n)
                .map(|s| s.reason.clone())
                .unwrap_or_else(|| panic!("{n} not skipped"))
        };
        assert!(reason("nolaunch").contains("no launch"));
        assert!(reason("noexec").contains("chmod +x launch"));
        assert!(reason("badbuild").contains("build exited with status 1"));
        assert!(reason("badbuild").contains("badbuild.build.log"));
        assert!(reason("bad toml").contains("rename"));
        assert_eq!(skipped.len(), 4, "hidden folders are ignored: {skipped:?}");
        let log = fs::read_to_string(series.join("logs/badbuild.build.log")).unwrap();
        assert!(log.contains("oops"));
    }

    #[tokio::test]
    async fn fifos_links_to_scripts_big_folders_and_unprintable_names_are_skipped() {
        let tmp = tempfile::tempdir().unwrap();
        let bots = tmp.path().join("bots");
        let names = [
            "fifo1",
            "fifo2",
            "fifo3",
            "linked",
            "big",
            "bad\x1b[31m",
            "zero\u{200B}",
            "ok",
        ];
        for name in names {
            fs::create_dir_all(bots.join(name).join("sub")).unwrap();
            write_exec(&bots.join(name).join("launch"), "#!/bin/sh\ncat\n");
        }
        for n in 1..=3 {
            let fifo = bots.join(format!("fifo{n}/sub/pipe"));
            nix::unistd::mkfifo(&fifo, nix::sys::stat::Mode::S_IRWXU).unwrap();
        }
        fs::remove_file(bots.join("linked/launch")).unwrap();
        write_exec(&bots.join("linked/real"), "#!/bin/sh\ncat\n");
        std::os::unix::fs::symlink("real", bots.join("linked/launch")).unwrap();
        fs::write(bots.join("big/sub/data"), vec![1u8; 2 << 20]).unwrap();
        std::os::unix::fs::symlink("/etc/passwd", bots.join("ok/sub/passwd")).unwrap();

        let (sandbox, tools) = (sandbox(), Toolchains::default());
        let (ok, skipped) = prepare(BuildPlan {
            build_timeout: Duration::from_secs(9),
            jobs: 2,
            max_data: 1 << 20,
            ..BuildPlan::new((&bots, &tmp.path().join("s")), &sandbox, &tools, take6())
        })
        .await
        .unwrap();
        let reason = |n: &str| {
            let s = skipped.iter().find(|s| s.name == n);
            s.unwrap_or_else(|| panic!("{n} not skipped: {skipped:?}"))
                .reason
                .clone()
        };
        for n in 1..=3 {
            let why = reason(&format!("fifo{n}"));
            assert!(why.contains("'sub/pipe' is a FIFO"), "{why}");
        }
        assert!(reason("linked").contains("'launch' is a symlink"));
        let why = reason("big");
        assert!(
            why.contains("2.0 MiB") && why.contains("--max-bot-mib 1"),
            "{why}"
        );
        // Names are shown escaped, so they cannot drive a terminal.
        assert!(reason("bad\\x1b[31m").contains("U+001B"));
        assert!(reason("zero\\u{200b}").contains("U+200B"));
        assert_eq!(skipped.len(), 7);
        assert_eq!(ok.len(), 1);
        // The link to a file outside is copied as a link, not as the file.
        let copied = ok[0].workdir.join("sub/passwd");
        assert!(
            fs::symlink_metadata(copied)
                .unwrap()
                .file_type()
                .is_symlink()
        );
    }

    #[tokio::test]
    async fn a_build_that_hangs_is_killed_at_its_time_limit() {
        let tmp = tempfile::tempdir().unwrap();
        let bots = tmp.path().join("bots");
        fs::create_dir_all(bots.join("slow")).unwrap();
        write_exec(&bots.join("slow/launch"), "#!/bin/sh\n");
        write_exec(&bots.join("slow/build"), "#!/bin/sh\nsleep 1000\n");
        let started = std::time::Instant::now();
        let limit = Duration::from_secs(1);
        let (sandbox, tools) = (sandbox(), Toolchains::default());
        let (ok, skipped) = prepare(BuildPlan {
            build_timeout: limit,
            jobs: 1,
            max_data: 1 << 20,
            ..BuildPlan::new((&bots, &tmp.path().join("s")), &sandbox, &tools, take6())
        })
        .await
        .unwrap();
        assert!(ok.is_empty());
        assert!(
            skipped[0].reason.contains("timed out after 1 s"),
            "{skipped:?}"
        );
        assert!(started.elapsed() < Duration::from_secs(10));
    }

    #[test]
    fn bot_toml_chooses_a_set_and_warns_of_unknown_keys() {
        let tmp = tempfile::tempdir().unwrap();
        fs::write(tmp.path().join(BOT_TOML), "template = \"codingame\"\n").unwrap();
        assert_eq!(
            bot_toml(
                tmp.path(),
                &folder::scan(tmp.path(), 1 << 20).unwrap(),
                &known()
            )
            .and_then(|t| {
                template_choice(tmp.path(), &folder::scan(tmp.path(), 1 << 20).unwrap(), t)
            }),
            Ok(TemplateChoice::Set("codingame".into()))
        );
        // An unknown key is a warning naming it; the author's metadata is kept.
        fs::write(
            tmp.path().join(BOT_TOML),
            "templat = \"codingame\"\nauthor = \"Alice\"\ndescription = \"lowest card\"\n\
             url = \"https://example.org/alice\"\nversion = \"1.2\"\n",
        )
        .unwrap();
        let listing = folder::scan(tmp.path(), 1 << 20).unwrap();
        assert_eq!(
            bot_toml(tmp.path(), &listing, &known()).and_then(|t| template_choice(
                tmp.path(),
                &listing,
                t
            )),
            Ok(TemplateChoice::Set("default".into()))
        );
        let (about, warnings) = about(tmp.path());
        assert_eq!(
            about,
            About {
                author: Some("Alice".into()),
                description: Some("lowest card".into()),
                url: Some("https://example.org/alice".into()),
                version: Some("1.2".into()),
            }
        );
        assert_eq!(warnings.len(), 1, "{warnings:?}");
        assert!(
            warnings[0].contains("unknown key templat ignored"),
            "{warnings:?}"
        );
        // A known key of the wrong kind is still an error, naming every game there is.
        fs::write(tmp.path().join(BOT_TOML), "games = 5\n").unwrap();
        let err = bot_toml(
            tmp.path(),
            &folder::scan(tmp.path(), 1 << 20).unwrap(),
            &known(),
        )
        .unwrap_err();
        assert!(
            err.contains("\"take6\", \"kingdomino\", or a game folder's name"),
            "{err}"
        );
        fs::remove_file(tmp.path().join(BOT_TOML)).unwrap();
        fs::write(tmp.path().join(BOT_TEMPLATE), "").unwrap();
        assert_eq!(
            bot_toml(
                tmp.path(),
                &folder::scan(tmp.path(), 1 << 20).unwrap(),
                &known()
            )
            .and_then(|t| {
                template_choice(tmp.path(), &folder::scan(tmp.path(), 1 << 20).unwrap(), t)
            }),
            Ok(TemplateChoice::File(tmp.path().join(BOT_TEMPLATE)))
        );
    }
}
