//! Bot folders made into bots: each folder found ([`discover`]), its `bot.toml` read
//! ([`manifest`]), copied into the series' `work` folder and checked ([`stage`]), built
//! ([`build`]), with the scripts take6 writes for recognised source ([`generate`]) and the
//! disk it needs checked first ([`room`]); and why a folder is skipped. Knows no game but by
//! its name, nothing about rules or scheduling.
//!
//! A bot is a subfolder of the bots folder with an executable `launch` (or source that
//! [`generate`] writes `build` and `launch` scripts for, in the working copy); its name is the
//! folder's name. Each series runs every bot from a fresh copy under `<series>/work/<name>/`,
//! so what a bot writes there persists across its games of one series and nothing is ever
//! written to the bots folder itself. Everything a run asks of this module is one
//! [`BuildPlan`], handed whole to [`prepare`].

use std::io;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::Duration;

use serde::Serialize;
use tokio::sync::Semaphore;

use crate::names::name_problem;
use crate::sandbox::{Sandbox, Seat};

pub mod build;
pub mod discover;
pub mod generate;
pub mod manifest;
pub mod room;
pub mod stage;

pub use discover::{
    Found, entrants_at_most, folder_of, folders, is_bot_folder, left_out_of_repository,
    names_its_games, own_folder,
};
pub use generate::{Generated, Toolchains};
pub use manifest::{About, BOT_TEMPLATE, BOT_TOML, Manifest, Modes, TemplateChoice, toml_problem};
pub use stage::{launch_problem, wipe};

use discover::{file_name, lookalikes};

/// Why a folder is not a usable bot: what [`Skipped`] records and says (a bot's fault, data
/// of the run, never a controller error).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{0}")]
pub struct Unusable(pub String);

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
    folders: Vec<Found>,
    plan: BuildPlan<'_>,
) -> Result<(Vec<Bot>, Vec<Skipped>), BotsError> {
    let (logs, work) = stage::logs_and_work(plan.series_dir)?;
    let jobs = plan.jobs.max(1);
    // Copying a folder and making its disk image is short file work, whatever `--jobs`, and
    // mostly waiting (on `mkfs.ext4`'s start and writes, the loop device, the mount): four
    // per processor at once, so that a series (at `--jobs 1` too) starts sooner.
    let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
    let copy_slots = jobs.max(4 * cores);
    let warm = room_for(&folders, &plan, copy_slots).await?;
    let shared = Arc::new(Shared {
        copies: Semaphore::new(copy_slots),
        builds: Semaphore::new(jobs),
        warm,
        tools: plan.tools.clone(),
        games: plan.games,
        watch: plan.watch,
        kept: plan.kept,
        build_timeout: plan.build_timeout,
        max_data: plan.max_data,
        sandbox: Arc::clone(plan.sandbox),
        work,
        logs,
    });
    let alike = lookalikes(&folders);
    let mut tasks = tokio::task::JoinSet::new();
    for (i, (folder, source)) in folders.into_iter().enumerate() {
        let shared = Arc::clone(&shared);
        let looks_alike = alike.get(&file_name(&folder)).cloned();
        tasks.spawn(async move {
            let name = file_name(&folder);
            let outcome = match looks_alike {
                Some(reason) => Err(Unusable(reason)),
                None => prepare_one(&folder, source, &shared).await,
            };
            let outcome = outcome.map_err(|reason| Skipped {
                // A name that cannot be shown as it is (control characters…) is kept escaped.
                name: if name_problem(&name).is_some() {
                    crate::untrusted::terminal(&name)
                } else {
                    name
                },
                reason: reason.0,
            });
            (i, outcome)
        });
    }
    Ok(in_folder_order(tasks).await)
}

/// The disk the run needs at most, checked before anything is written (bots/room.rs), with
/// `copy_slots` folders copied at once; and the warm sandboxes each bot gets before its games
/// (none when its image is parked between games: it would only lose them).
async fn room_for(
    folders: &[Found],
    plan: &BuildPlan<'_>,
    copy_slots: usize,
) -> Result<usize, BotsError> {
    let jobs = plan.jobs.max(1);
    let shape = room::Shape {
        slots: copy_slots + jobs,
        tables: plan.prewarm.games_at_once.max(jobs),
        seats: plan.prewarm.seats,
    };
    let (found, keeping, probe) = (
        folders.to_vec(),
        Arc::clone(&plan.kept),
        Arc::clone(plan.sandbox),
    );
    let max_data = plan.max_data;
    let need =
        tokio::task::spawn_blocking(move || room::need(&found, &keeping, &probe, shape, max_data))
            .await
            .map_err(|e| BotsError::NoRoom(format!("cannot measure the bots' folders: {e}")))?;
    room::check(plan.series_dir, need, plan.sandbox.limits().disk_mib)?;
    Ok(match plan.sandbox.imaged() && need.images < folders.len() {
        true => 0,
        false => plan.prewarm.per_bot(folders.len()),
    })
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
/// built, at once; how many warm sandboxes each bot gets before the games; the rest of the
/// plan; and where working copies and build logs go.
struct Shared {
    copies: Semaphore,
    builds: Semaphore,
    warm: usize,
    /// The toolchains the series' bots can run, for folders without `launch`.
    tools: Toolchains,
    /// The game the series plays and the games there are.
    games: GameNames,
    /// Told of each build as it starts and ends.
    watch: Arc<dyn BuildWatch>,
    /// The working copies kept from an earlier run, by bot name.
    kept: Arc<KeptCopies>,
    /// How long a bot's `build` may run.
    build_timeout: Duration,
    /// The most file data a bot folder may hold.
    max_data: u64,
    /// The launcher every build runs through.
    sandbox: Arc<Sandbox>,
    /// The series' `work` folder (absolute) and `logs` folder.
    work: PathBuf,
    logs: PathBuf,
}

/// Checks, copies and builds one folder (`folder` names it, `source` is where it is, or why it
/// is not used); the error is the reason it is skipped.
async fn prepare_one(
    folder: &Path,
    source: Result<PathBuf, Unusable>,
    shared: &Arc<Shared>,
) -> Result<Bot, Unusable> {
    let Some(name) = folder.file_name().and_then(|n| n.to_str()) else {
        return Err(Unusable(
            "the folder name is not valid UTF-8; rename the folder".into(),
        ));
    };
    if let Some(problem) = name_problem(name) {
        return Err(Unusable(format!("{problem} (rename the folder)")));
    }
    let name = name.to_string();
    let source = source?;
    let workdir = shared.work.join(&name);
    if let Some(kept) = shared.kept.get(&name) {
        // Behind the copy slots too: its disk image is made whole while it is taken back.
        let slot = shared.copies.acquire().await.expect("never closed");
        let reused = reuse(&name, (&source, &workdir), kept, shared).await?;
        drop(slot);
        if let Some(bot) = reused {
            shared.sandbox.prewarm(&bot.workdir, shared.warm);
            return Ok(bot);
        }
    }
    let slot = shared.copies.acquire().await.expect("never closed");
    let staged = copy_in(&source, &workdir, shared).await?;
    // Seated with its disk image while it is prepared, holding its copy slot, so that at most
    // as many images as slots are whole at once; idle images past what the series keeps are
    // parked as the others are made (sandbox/seats.rs).
    let mut seat = Some(Seat::held(&shared.sandbox, &workdir));
    if staged.has_build {
        drop(seat.take());
        seat = Some(build_in(&name, &workdir, shared).await?);
    }
    // A launch that cannot start is refused now, with its cause, rather than faulted in
    // every game as a bot that "closed its output".
    if let Some(problem) = launch_problem(&workdir.join("launch"), shared.sandbox.isolated()) {
        return Err(Unusable(problem));
    }
    // Its warm sandboxes start now, alongside the other bots' preparation, instead of one
    // after another as the first games begin. On this async thread, not a blocking one: a
    // sandbox dies with the thread that started it, and blocking threads come and go. Not
    // behind the copy slots: bubblewrap's setup is processor work and `mkfs` mostly waits on
    // writes, so the sandboxes start while the other bots' images are made (queued behind
    // every image, they would start only once the last one was done).
    shared.sandbox.prewarm(&workdir, shared.warm);
    drop(seat);
    drop(slot);
    let warnings = staged.manifest.warnings();
    Ok(Bot {
        name,
        source,
        workdir,
        hash: staged.hash,
        template: staged.template,
        generated: staged.generated,
        about: staged.manifest.about,
        modes: staged.manifest.modes,
        warnings,
    })
}

/// The folder `source` staged into `workdir` and handed to the sandbox. Walking, hashing and
/// copying a folder is blocking file work: off the async threads, so that nothing a folder
/// holds can stall the series or its signal handling.
async fn copy_in(
    source: &Path,
    workdir: &Path,
    shared: &Arc<Shared>,
) -> Result<stage::Staged, Unusable> {
    let (found, copy, shared) = (
        source.to_path_buf(),
        workdir.to_path_buf(),
        Arc::clone(shared),
    );
    tokio::task::spawn_blocking(move || {
        let staged = stage::stage(&found, &copy, shared.max_data, &shared.tools, &shared.games)?;
        // The copy becomes the sandboxed bot's own (it runs as an unprivileged user).
        shared
            .sandbox
            .prepare_workdir(&copy, staged.footprint)
            .map_err(|e| {
                Unusable(format!(
                    "cannot hand {} to the sandbox: {e}",
                    copy.display()
                ))
            })?;
        Ok(staged)
    })
    .await
    .map_err(|e| Unusable(format!("preparing the folder failed: {e}")))?
}

/// Runs the bot `name`'s build in `workdir` behind a build slot, seated with its disk image
/// (the seat returned), its start and end told to the plan's watcher.
async fn build_in(name: &str, workdir: &Path, shared: &Shared) -> Result<Seat, Unusable> {
    let _slot = shared.builds.acquire().await.expect("never closed");
    let seat = Seat::take(&shared.sandbox, workdir).map_err(|e| {
        Unusable(format!(
            "cannot make the disk image of {} for its build: {e}",
            workdir.display()
        ))
    })?;
    let log = shared.logs.join(format!("{name}.build.log"));
    let began = std::time::Instant::now();
    shared.watch.started(name);
    let built = build::run_build(&shared.sandbox, workdir, &log, shared.build_timeout).await;
    shared.watch.finished(name, began.elapsed(), built.is_ok());
    built.map_err(|why| Unusable(format!("{why} (see {})", log.display())))?;
    Ok(seat)
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
    shared: &Arc<Shared>,
) -> Result<Option<Bot>, Unusable> {
    let (found, copy) = (source.to_path_buf(), workdir.to_path_buf());
    let (handover, max_data) = (Arc::clone(&shared.sandbox), shared.max_data);
    let hash = kept.hash.clone();
    let taken = tokio::task::spawn_blocking(move || {
        let (now, own) = crate::folder::scan(&found, max_data)
            .and_then(|listing| Ok((listing.hash()?, listing.footprint())))
            .map_err(|e| Unusable(e.to_string()))?;
        let there = crate::door::working_copy_there(&copy, &crate::sandbox::image_of(&copy))
            .map_err(|e| Unusable(e.to_string()))?
            .any();
        if now != hash || !there {
            return Ok(false);
        }
        match handover.resume_workdir(&copy, own) {
            Ok(()) => Ok(true),
            // Storage past the disk limit (kept by an older take6): a fresh copy instead.
            Err(e) if e.kind() == std::io::ErrorKind::QuotaExceeded => {
                tracing::warn!("{e}; a fresh copy is made instead (its storage is wiped)");
                Ok(false)
            }
            Err(e) => Err(Unusable(format!(
                "its working copy {} (its private storage, kept for this version) cannot be \
                 used: {e}",
                copy.display()
            ))),
        }
    })
    .await
    .map_err(|e| Unusable(format!("preparing the folder failed: {e}")))??;
    if !taken {
        return Ok(None);
    }
    // Seated with its image while it is taken back (sandbox/seats.rs).
    let _seat = Seat::held(&shared.sandbox, workdir);
    if let Some(problem) = launch_problem(&workdir.join("launch"), shared.sandbox.isolated()) {
        return Err(Unusable(problem));
    }
    Ok(Some(Bot {
        name: name.to_string(),
        source: source.to_path_buf(),
        workdir: workdir.to_path_buf(),
        hash: kept.hash.clone(),
        template: kept.template.clone(),
        generated: kept.generated.clone(),
        about: kept.about.clone(),
        // Its folder is unchanged since the copy was made (the hash above).
        modes: Manifest::peek(source).map(|m| m.modes).unwrap_or_default(),
        warnings: Vec::new(),
    }))
}

#[cfg(test)]
mod tests {
    use std::fs;

    use crate::folder;

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
}
