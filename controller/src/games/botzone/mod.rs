//! Any game whose judge speaks Botzone's protocol (botzone.org.cn, and its public
//! `ailab-pku/botzone-local`): a game is a folder with a `game.toml`, a judge program and
//! optionally padding bots ([`manifest`]); the judge and the bots speak Botzone's JSON
//! protocols ([`wire`]); one game is played by [`table`]; [`record`] is what `games.jsonl`
//! keeps of it (the log as Botzone keeps it) and how `take6 verify` runs the judge again.

mod advice;
pub mod boards;
mod globaldata;
pub mod manifest;
pub mod record;
mod reply;
pub mod screen;
pub mod simpleio;
pub mod table;
pub mod viewer;
pub mod wire;

use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex, OnceLock};
use std::time::Instant;

use serde_json::Value;

pub use manifest::{BotLimits, JudgeLimits, Manifest, ManifestError};

use crate::bots::generate::{Dialect, Language};
use crate::game::{
    Advice, DefaultLimits, Game, GameCode, GameFacts, GameFuture, GameRef, Prepare, PrepareFuture,
    ReplyLimits, SeatRange, Supports, Viewer,
};
use crate::player::Limits;
use crate::record::{Direction, GameRecord, InvalidRecord};
use crate::table::OnFault;
use crate::table::{BuiltinKind, GameOutcome, Occupant, SeatLog, TableGame};

/// The defaults a series' limits have; unless flags or take6.toml set them, `game.toml`'s or
/// Botzone's per-language limits apply instead.
const DEFAULT_MS: u64 = 1000;

/// A game loaded from a folder whose judge speaks Botzone's protocol.
pub struct Botzone {
    manifest: Manifest,
    facts: GameFacts,
    /// What [`GameCode::prepare`] built for this series.
    prepared: Mutex<Option<Arc<Prepared>>>,
    /// The judge built for `take6 verify` (and leaderboard, merge, resume), in the sandbox
    /// it runs in: as a series runs it.
    verifier: OnceLock<Result<Verifier, BuildError>>,
    /// What verify took as the judge's own draw rather than re-derived.
    draws: Arc<Mutex<record::Draws>>,
}

/// The judge built to verify with: its working copy, the sandbox it runs in (its warm
/// sandboxes kept across games, as a series keeps them), and the thread every call of it is
/// made from (a warm sandbox ends with the thread that started it).
struct Verifier {
    judge: PathBuf,
    sandbox: Arc<crate::sandbox::Sandbox>,
    runtime: tokio::runtime::Handle,
}

/// Why the game's programs (its judge, its padding bots) could not be staged or built.
#[derive(Debug, thiserror::Error)]
pub enum BuildError {
    /// A file or folder of the game or of the series could not be read or written.
    #[error("cannot {what} {}: {source}", path.display())]
    Io {
        what: &'static str,
        path: PathBuf,
        source: std::io::Error,
    },
    /// The judge did not build: why, and the last lines of its build's log.
    #[error("the judge in {}: {reason}{tail}", folder.display())]
    Judge {
        folder: PathBuf,
        reason: String,
        tail: String,
    },
    /// A padding bot did not build: why, and the last lines of its build's log.
    #[error("padding bot {name}: {reason}{tail}")]
    Padding {
        name: String,
        reason: String,
        tail: String,
    },
    /// The builder, the sandbox or the verifier's thread failed (their own words).
    #[error("{0}")]
    Builder(String),
    /// The build gave nothing for a program.
    #[error("{0} was not built")]
    NotBuilt(&'static str),
}

impl BuildError {
    fn io(what: &'static str, path: &Path) -> impl FnOnce(std::io::Error) -> BuildError {
        let path = path.to_path_buf();
        move |source| BuildError::Io { what, path, source }
    }
}

/// The verifier's thread ended before its task did (the task panicked).
#[derive(Debug, thiserror::Error)]
#[error("the verifier's task panicked")]
struct VerifierGone;

impl From<VerifierGone> for crate::game::Flaw {
    fn from(gone: VerifierGone) -> crate::game::Flaw {
        crate::game::Flaw(gone.to_string())
    }
}

impl From<VerifierGone> for BuildError {
    fn from(gone: VerifierGone) -> BuildError {
        BuildError::Builder(gone.to_string())
    }
}

impl From<VerifierGone> for String {
    fn from(gone: VerifierGone) -> String {
        gone.to_string()
    }
}

/// A thread of its own, for the life of the process, running the tasks given to the handle.
fn verifier_thread() -> Result<tokio::runtime::Handle, BuildError> {
    let (tx, rx) = std::sync::mpsc::channel();
    std::thread::Builder::new()
        .name("take6-verify".into())
        .spawn(move || {
            match tokio::runtime::Builder::new_current_thread()
                .enable_all()
                .build()
            {
                Ok(runtime) => {
                    let _ = tx.send(Ok(runtime.handle().clone()));
                    runtime.block_on(std::future::pending::<()>());
                }
                Err(e) => {
                    let _ = tx.send(Err(BuildError::Builder(e.to_string())));
                }
            }
        })
        .map_err(|e| BuildError::Builder(e.to_string()))?;
    rx.recv().map_err(|e| BuildError::Builder(e.to_string()))?
}

/// Runs `task` on the verifier's thread and waits for its result.
fn on_verifier<T: Send + 'static, E: From<VerifierGone> + Send + 'static>(
    runtime: &tokio::runtime::Handle,
    task: impl std::future::Future<Output = Result<T, E>> + Send + 'static,
) -> Result<T, E> {
    let (tx, rx) = std::sync::mpsc::channel();
    runtime.spawn(async move {
        let _ = tx.send(task.await);
    });
    rx.recv().unwrap_or_else(|_| Err(VerifierGone.into()))
}

/// The game's programs, built in a series' folder.
struct Prepared {
    judge: table::JudgeSpec,
    /// Each padding bot's working copy and language, in padding order (none when the
    /// series' bots fill every seat: they are not built then).
    padding: Vec<(PathBuf, Option<Language>, crate::bots::Modes)>,
}

/// Loads the game in `folder` (the registry's line for a path).
pub fn load(folder: &Path) -> Result<GameRef, crate::games::GameError> {
    let manifest = Manifest::load(folder).map_err(|e| crate::games::GameError::Load {
        path: folder.display().to_string(),
        why: e.problem,
    })?;
    Ok(GameRef(Arc::new(Botzone::new(manifest))))
}

impl Botzone {
    /// The game of a loaded `manifest`, its facts read from it.
    fn new(manifest: Manifest) -> Botzone {
        let builtins = manifest
            .padding
            .iter()
            .enumerate()
            .map(|(i, (name, _))| BuiltinKind {
                index: i as u8,
                // Loaded once per process: the names live as long as the game.
                name: Box::leak(name.clone().into_boxed_str()),
            })
            .collect();
        let players = manifest.players;
        let facts = GameFacts {
            name: manifest.name.clone(),
            title: manifest.title.clone(),
            seats: SeatRange {
                fewest: players,
                most: players,
                default: players,
            },
            default_limits: DefaultLimits {
                first_reply_ms: DEFAULT_MS,
                reply_ms: DEFAULT_MS,
            },
            direction: Direction::Higher,
            // A judge's scores are verdicts (a win, a draw, a loss), not points to average.
            model: crate::record::Model::Ranks,
            supports: Supports {
                rounds: false,
                duplicate_deals: false,
                summary_records: false,
                templates: false,
            },
            // The judge decides what a fault costs; nobody takes the seat.
            on_fault: OnFault::Eliminate,
            builtins,
            builtin_label: "padding bot",
            wire_label: "Botzone's protocol (JSON, or simple interaction)",
            // The judge draws its own randomness (take6 passes it game.toml's initdata, no seed).
            dealt_by_seed: false,
            // Botzone counts CPU time (its wiki's page "Bot"), not wall-clock time.
            arena_clock: crate::game::ArenaClock {
                arena: "Botzone",
                counts_cpu: true,
            },
        };
        Botzone {
            manifest,
            facts,
            prepared: Mutex::new(None),
            verifier: OnceLock::new(),
            draws: Arc::default(),
        }
    }

    fn prepared(&self) -> Option<Arc<Prepared>> {
        self.prepared
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
            .clone()
    }

    /// How a bot speaks: the game's simple interaction when its `bot.toml` chose it
    /// (`simple_io = true`, Botzone's bot setting), else JSON.
    fn bot_io(&self, modes: crate::bots::Modes) -> reply::BotIo {
        if !modes.simple_io {
            return reply::BotIo::Json;
        }
        match &self.manifest.simpleio {
            Some(simple) => reply::BotIo::Simple(Arc::clone(simple)),
            None => reply::BotIo::NoSimple,
        }
    }

    /// A bot's limits: the series' when its flags or take6.toml set them, else `game.toml`'s
    /// or Botzone's for its language.
    fn bot_limits(&self, language: Option<Language>, series: &Limits) -> BotLimits {
        let mut limits = self.manifest.bot_limits(language);
        let first = series.first_reply.as_millis() as u64;
        let later = series.reply.as_millis() as u64;
        if series.reply_given {
            limits.first_turn_ms = first;
            limits.turn_ms = later;
            limits.kept_running_ms = later;
        }
        limits
    }
}

/// A seat's occupant with the limits and the way of speaking it plays with.
type SeatPlan = (Occupant, BotLimits, reply::BotIo);

impl Botzone {
    /// Each seat of `table` with its limits (by its language, as [`Botzone::bot_limits`]) and
    /// its way of speaking (its `bot.toml` modes; a padding bot's as it was built).
    fn seat_plans(
        &self,
        table: &TableGame,
        limits: &Limits,
        prepared: Option<&Prepared>,
    ) -> Vec<SeatPlan> {
        (table.seats.iter())
            .map(|s| {
                let (language, modes) = match (&s.occupant, prepared) {
                    (Occupant::Builtin(kind), Some(p)) => {
                        match p.padding.get(kind.index as usize) {
                            Some((_, language, modes)) => (*language, *modes),
                            None => (None, crate::bots::Modes::default()),
                        }
                    }
                    (
                        Occupant::Bot {
                            language, modes, ..
                        },
                        _,
                    ) => (*language, *modes),
                    _ => (None, crate::bots::Modes::default()),
                };
                let mut bot_limits = self.bot_limits(language, limits);
                // Kept running only where the game allows it and the bot enabled it, as a
                // Botzone bot does in its settings (bot.toml keep_running = true).
                bot_limits.keep_running &= modes.keep_running;
                (s.occupant.clone(), bot_limits, self.bot_io(modes))
            })
            .collect()
    }
}

/// The table's seats as [`table::play`] takes them (a padding bot from the game's built
/// programs, every bot of game `game` with its transcript if any).
fn seat_kinds(seats: Vec<SeatPlan>, prepared: &Prepared, game: u64) -> Vec<table::SeatKind> {
    (seats.into_iter())
        .map(|(occupant, limits, io)| match occupant {
            Occupant::Bot {
                workdir,
                sandbox,
                transcript,
                ..
            } => table::SeatKind::Bot {
                workdir,
                sandbox,
                limits,
                transcript: transcript.map(|t| (t, game)),
                io,
            },
            Occupant::Builtin(kind) => table::SeatKind::Bot {
                workdir: prepared.padding[kind.index as usize].0.clone(),
                sandbox: Arc::clone(&prepared.judge.sandbox),
                limits,
                transcript: None,
                io,
            },
            Occupant::Human(console) => table::SeatKind::Human(console),
        })
        .collect()
}

impl Game for Botzone {
    fn facts(&self) -> &GameFacts {
        &self.facts
    }

    fn play(&self, table: TableGame, limits: Limits) -> GameFuture {
        let prepared = self.prepared();
        let initdata = self.manifest.initdata.clone();
        let score_map = self.manifest.score_map;
        let name = self.manifest.name.clone();
        let seats = self.seat_plans(&table, &limits, prepared.as_deref());
        Box::pin(async move {
            let started = Instant::now();
            let Some(prepared) = prepared else {
                let why = record::NOT_PREPARED.to_string();
                return record::void_outcome(&table, why, started);
            };
            if let Some(missing) = seats.iter().find_map(|(o, _, _)| match o {
                Occupant::Builtin(kind) if prepared.padding.len() <= kind.index as usize => {
                    Some(kind.name)
                }
                _ => None,
            }) {
                let why = format!("padding bot {missing} was not built (not needed, it seemed)");
                return record::void_outcome(&table, why, started);
            }
            let kinds = seat_kinds(seats, &prepared, table.game);
            // Each bot's image stays whole for the whole game: between its turns take6 reads
            // and writes its data and globaldata in its working copy.
            let seated: Vec<crate::sandbox::Seat> = kinds
                .iter()
                .filter_map(|kind| match kind {
                    table::SeatKind::Bot {
                        workdir, sandbox, ..
                    } => crate::sandbox::Seat::take(sandbox, workdir).ok(),
                    table::SeatKind::Human(_) => None,
                })
                .collect();
            let played = table::play(&name, &prepared.judge, &initdata, kinds, limits).await;
            drop(seated);
            let logs = played
                .seats
                .iter()
                .map(|(seat, _, stderr)| SeatLog {
                    seat: *seat,
                    name: table.seats[*seat].name.clone(),
                    stderr: stderr.clone(),
                })
                .collect();
            GameOutcome {
                record: record::of(&table, &played, started, score_map),
                logs,
            }
        })
    }

    fn check(
        &self,
        record: &GameRecord,
        permit: &crate::game::JudgePermit,
    ) -> Result<(), crate::game::Flaw> {
        record::check_shape(record, self.manifest.players, self.manifest.score_map)?;
        permit.may_run_judge(&self.manifest.folder.display().to_string())?;
        let verifier = self
            .verifier
            .get_or_init(|| build_for_verify(&self.manifest))
            .as_ref()
            .map_err(|e| format!("cannot build the judge to verify with: {e}"))?;
        let check = record::check_with_judge(
            record.clone(),
            &verifier.judge,
            &verifier.sandbox,
            &self.manifest,
            &self.draws,
        );
        on_verifier(&verifier.runtime, check)
    }

    fn replay_text(&self, record: &GameRecord) -> String {
        record::replay_text(record)
    }

    fn viewer(&self) -> Viewer {
        let own = self.manifest.viewer.as_ref().and_then(|p| {
            // Through the door: no link, no FIFO, at most 4 MiB.
            let read = crate::door::Folder::open(&self.manifest.folder)
                .and_then(|f| f.read(Path::new("viewer.js"), 4 << 20));
            match read {
                Ok(bytes) => String::from_utf8(bytes).ok(),
                Err(e) => {
                    tracing::warn!("{} not used: {e}", p.display());
                    None
                }
            }
        });
        // A game take6 knows by its game.toml name gets its board, unless the folder has a
        // viewer of its own.
        let (script, board_html) = match own {
            Some(own) => (own, viewer::BOARD_HTML),
            None => viewer::for_game(&self.manifest.name),
        };
        Viewer {
            script,
            board_html: board_html.to_string(),
            shared: serde_json::Map::new(),
        }
    }

    fn viewer_data(&self, record: &GameRecord) -> Value {
        let body = record.body.as_ref().map_or(Value::Null, |b| b.value());
        let board = self.manifest.viewer.is_none();
        viewer::data(&self.manifest.name, body, board)
    }

    fn advice(&self, record: &GameRecord, fault: &InvalidRecord, reply: Option<&str>) -> Advice {
        advice::of(record, fault, reply, self.manifest.simpleio.as_deref())
    }

    fn code(&self) -> Option<&dyn GameCode> {
        Some(self)
    }
}

impl GameCode for Botzone {
    fn folder(&self) -> &Path {
        &self.manifest.folder
    }

    fn content_hash(&self) -> Result<String, String> {
        judge_hash(&self.manifest.folder).map_err(|e| e.to_string())
    }

    fn build_dialect(&self) -> Dialect {
        Dialect::Botzone
    }

    fn prepare<'a>(&'a self, ctx: &'a Prepare) -> PrepareFuture<'a> {
        Box::pin(async move {
            let prepared = build(&self.manifest, ctx)
                .await
                .map_err(|e| e.to_string())?;
            *self
                .prepared
                .lock()
                .unwrap_or_else(std::sync::PoisonError::into_inner) = Some(Arc::new(prepared));
            Ok(())
        })
    }

    fn reply_limits(&self, language: Option<Language>, limits: &Limits) -> ReplyLimits {
        let bot = self.bot_limits(language, limits);
        ReplyLimits {
            first_ms: bot.first_turn_ms,
            later_ms: bot.turn_ms,
            kept_running_ms: Some(bot.kept_running_ms),
        }
    }

    fn limits_note(&self) -> String {
        let botzone = "by its language, as Botzone's: C and C++ (or a launch) 1000 ms, Java \
                       3000 ms (2000 ms kept running), Python 6000 ms (4000 ms kept running), \
                       JavaScript 2000 ms, each game's first turn twice that";
        if self.manifest.sets_limits() {
            format!(
                "each bot's by {}'s [limits] where it sets them, else {botzone}",
                self.manifest.folder.join("game.toml").display()
            )
        } else {
            format!(
                "each bot's {botzone} (game.toml's [limits], or --first-reply-ms and --reply-ms, \
                 set them for every bot)"
            )
        }
    }

    fn judge_end(&self, record: &GameRecord, seat: usize) -> Option<crate::game::JudgeEnd> {
        record::judge_end(record, seat)
    }

    fn unchecked(&self) -> Option<String> {
        self.draws
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
            .note()
    }
}

/// The game a folder's own programs (its judge, its padding bots) are built for: itself.
fn own_names(manifest: &Manifest) -> crate::bots::GameNames {
    crate::bots::GameNames {
        playing: manifest.name.clone(),
        known: Vec::new(),
    }
}

/// The SHA-256 of a game folder's judge: its top-level regular files that [`stage_judge`]
/// copies, and `game.toml`, each by name and content, read through the door (no link, no
/// FIFO).
fn judge_hash(folder: &Path) -> Result<String, BuildError> {
    use sha2::{Digest, Sha256};
    let read = |e: std::io::Error| BuildError::io("read", folder)(e);
    let door = crate::door::Folder::open(folder).map_err(read)?;
    let mut hash = Sha256::new();
    for name in door.files().map_err(read)? {
        let text = name.to_string_lossy();
        if text != "game.toml" && !judge_file(&text) {
            continue;
        }
        let bytes = door.read(Path::new(&name), 1 << 30).map_err(read)?;
        hash.update(name.as_encoded_bytes());
        hash.update([0]);
        hash.update((bytes.len() as u64).to_le_bytes());
        hash.update(&bytes);
    }
    Ok(hash.finalize().iter().map(|b| format!("{b:02x}")).collect())
}

/// Whether a top-level file of a game folder named `name` is the judge's (copied to build it).
fn judge_file(name: &str) -> bool {
    !name.starts_with('.')
        && !["game.toml", "viewer.js", "launch", "build", "bot.toml"].contains(&name)
}

/// Builds the judge and the padding bots in the series' folder (`game/`) through its sandbox.
async fn build(manifest: &Manifest, ctx: &Prepare) -> Result<Prepared, BuildError> {
    let root = ctx.series_dir.join("game");
    if root.exists() {
        std::fs::remove_dir_all(&root).map_err(BuildError::io("clear", &root))?;
    }
    let source = stage_judge(manifest, &root.join("judge-source"))?;
    // Built as Botzone's compiler builds, the judge as its bots.
    let tools = ctx.tools.clone().in_dialect(Dialect::Botzone);
    let (mut built, skipped) = crate::bots::prepare(crate::bots::BuildPlan {
        build_timeout: ctx.build_timeout,
        max_data: ctx.max_data,
        ..crate::bots::BuildPlan::new(
            (&source, &root.join("judge")),
            &ctx.sandbox,
            &tools,
            own_names(manifest),
        )
    })
    .await
    .map_err(|e| BuildError::Builder(e.to_string()))?;
    if let Some(s) = skipped.first() {
        // The series' folder goes when the series cannot start: what the compiler said is
        // shown here, not only named by its log's path.
        let log = root.join("judge/logs/judge.build.log");
        return Err(BuildError::Judge {
            folder: manifest.folder.clone(),
            reason: without_log(&s.reason).to_string(),
            tail: build_tail(&log),
        });
    }
    let judge = built.pop().ok_or(BuildError::NotBuilt("the judge"))?;
    say_memory(&ctx.sandbox);
    let padding = build_padding(manifest, ctx, &root, &tools).await?;
    Ok(Prepared {
        judge: table::JudgeSpec {
            workdir: judge.workdir,
            sandbox: Arc::clone(&ctx.sandbox),
            limits: manifest.judge,
        },
        padding,
    })
}

/// Says on stderr what holds the bots' and the judge's memory in this sandbox.
fn say_memory(sandbox: &crate::sandbox::Sandbox) {
    let limit = sandbox.limits().memory_mib;
    if sandbox.memory_cgroup() {
        eprintln!(
            "take6: memory: each bot's process tree is held to its memory_mb (Botzone's 256 MB \
             unless game.toml's [limits] memory_mb says otherwise), the judge's to [judge] \
             memory_mb, each at most --memory-mib ({limit} MiB)"
        );
    } else {
        eprintln!(
            "take6: memory: this sandbox has no memory cgroup: bots and the judge are held to \
             --memory-mib ({limit} MiB of address space per process), not to the memory_mb \
             bots are told or [judge] memory_mb"
        );
    }
}

/// Builds the padding bots in `root/padding` when a table may need them: each one's working
/// copy, language and modes, in padding order.
async fn build_padding(
    manifest: &Manifest,
    ctx: &Prepare,
    root: &Path,
    tools: &crate::bots::Toolchains,
) -> Result<Vec<(PathBuf, Option<Language>, crate::bots::Modes)>, BuildError> {
    let mut padding = Vec::new();
    // Built only when a table may need them: a padding bot that does not build does not
    // refuse a series whose bots fill every seat.
    let needed = if ctx.needs_builtins {
        manifest.padding.as_slice()
    } else {
        &[]
    };
    for (name, folder) in needed {
        let (mut bots, skipped) = crate::bots::prepare(crate::bots::BuildPlan {
            build_timeout: ctx.build_timeout,
            max_data: ctx.max_data,
            ..crate::bots::BuildPlan::new(
                (folder, &root.join("padding")),
                &ctx.sandbox,
                tools,
                own_names(manifest),
            )
        })
        .await
        .map_err(|e| BuildError::Builder(e.to_string()))?;
        if let Some(s) = skipped.first() {
            let log = root.join(format!("padding/logs/{name}.build.log"));
            return Err(BuildError::Padding {
                name: name.clone(),
                reason: without_log(&s.reason).to_string(),
                tail: build_tail(&log),
            });
        }
        let bot = bots.pop().ok_or(BuildError::NotBuilt("a padding bot"))?;
        let language = bot.generated.as_ref().map(|g| g.language);
        padding.push((bot.workdir, language, bot.modes));
    }
    Ok(padding)
}

/// A failed build's reason without its pointer to its build log (`… (see
/// results/…/NAME.build.log)`): the log is in the series' folder, which a series that cannot
/// start does not keep; [`build_tail`] shows what it said instead.
fn without_log(reason: &str) -> &str {
    match reason.rfind(" (see ") {
        Some(at) if reason.ends_with(".build.log)") => &reason[..at],
        _ => reason,
    }
}

/// How many of the last lines of a failed build's log are shown.
const BUILD_TAIL: usize = 30;
/// The most of a failed build's log read for them, from its end.
const BUILD_TAIL_BYTES: u64 = 64 << 10;

/// The last lines of the build log `log`, as they go to a terminal (the compiler's words on
/// the game folder's source are untrusted), after a line saying what they are; nothing
/// when there is no log.
fn build_tail(log: &Path) -> String {
    use std::io::{Read, Seek, SeekFrom};
    // Through the door (a regular file reached by no link), and only its last 64 KiB.
    let Ok(mut file) = crate::door::open_path(log) else {
        return String::new();
    };
    let size = file.metadata().map_or(0, |m| m.len());
    let mut bytes = Vec::new();
    if file
        .seek(SeekFrom::Start(size.saturating_sub(BUILD_TAIL_BYTES)))
        .is_err()
        || file.take(BUILD_TAIL_BYTES).read_to_end(&mut bytes).is_err()
    {
        return String::new();
    }
    let lines = crate::untrusted::terminal_lines(&bytes);
    let skip = lines.len().saturating_sub(BUILD_TAIL);
    let mut out = format!("\nthe build's output (its last {BUILD_TAIL} lines at most):");
    for line in &lines[skip..] {
        out.push_str("\n  ");
        out.push_str(line);
    }
    out
}

/// A folder `into/judge` holding the judge alone: the game folder's top-level files (not its
/// padding bots, not its viewer), with a `launch` that runs an executable `judge`.
fn stage_judge(manifest: &Manifest, into: &Path) -> Result<PathBuf, BuildError> {
    let dir = into.join("judge");
    std::fs::create_dir_all(&dir).map_err(BuildError::io("create", &dir))?;
    let entries =
        std::fs::read_dir(&manifest.folder).map_err(BuildError::io("read", &manifest.folder))?;
    for entry in entries.flatten() {
        let name = entry.file_name().to_string_lossy().into_owned();
        if !judge_file(&name) || !entry.file_type().is_ok_and(|t| t.is_file()) {
            continue;
        }
        std::fs::copy(entry.path(), dir.join(&name))
            .map_err(BuildError::io("copy", &entry.path()))?;
    }
    if dir.join("judge").is_file() {
        use std::os::unix::fs::PermissionsExt;
        let launch = dir.join("launch");
        std::fs::write(&launch, "#!/bin/sh\nexec ./judge\n")
            .and_then(|()| {
                std::fs::set_permissions(&launch, std::fs::Permissions::from_mode(0o755))
            })
            .map_err(BuildError::io("write", &launch))?;
    }
    Ok(dir)
}

/// The judge built for `take6 verify`, in a folder of its own (kept for the process, removed
/// by the next take6 that verifies such a game once this one is gone), in the sandbox a series
/// runs it in (its own user, seccomp, limits, no network): verify re-runs it over logs whose
/// responses bots wrote, and a judge careless with its input must not run them as root.
fn build_for_verify(manifest: &Manifest) -> Result<Verifier, BuildError> {
    let manifest = manifest.clone();
    let runtime = verifier_thread()?;
    let built = on_verifier(&runtime, async move {
        let nanos = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0, |d| d.as_nanos());
        let temp = std::env::temp_dir();
        crate::sandbox::counters::remove_stale(&temp, "take6-verify-");
        let dir = temp.join(format!(
            "take6-verify-{}-{nanos}-{}",
            std::process::id(),
            manifest.name
        ));
        let mut sandbox = crate::sandbox::Sandbox::new(
            crate::sandbox::Mode::Auto,
            crate::sandbox::Limits::default(),
            crate::sandbox::Clock::Cpu,
        )
        .map_err(|e| BuildError::Builder(e.to_string()))?;
        // A call of the judge costs a message to its warm sandbox, not a new sandbox: as
        // in a series (this binary is their init).
        if let Ok(exe) = std::env::current_exe() {
            sandbox.keep_warm(exe);
        }
        eprintln!(
            "take6: the judge, to verify: {}",
            sandbox.report().stderr_line()
        );
        let sandbox = Arc::new(sandbox);
        let source = stage_judge(&manifest, &dir.join("source"))?;
        let tools = crate::bots::Toolchains::for_sandbox(&sandbox).in_dialect(Dialect::Botzone);
        let (mut built, skipped) = crate::bots::prepare(crate::bots::BuildPlan::new(
            (&source, &dir.join("built")),
            &sandbox,
            &tools,
            own_names(&manifest),
        ))
        .await
        .map_err(|e| BuildError::Builder(e.to_string()))?;
        if let Some(s) = skipped.first() {
            return Err(BuildError::Builder(s.reason.clone()));
        }
        built
            .pop()
            .map(|b| (b.workdir, Arc::clone(&sandbox)))
            .ok_or(BuildError::NotBuilt("the judge"))
    })?;
    Ok(Verifier {
        judge: built.0,
        sandbox: built.1,
        runtime,
    })
}

#[cfg(test)]
mod limits_tests {
    use super::*;

    /// The series' limits win whenever flags or take6.toml set them, even at the value of the
    /// defaults; left at the defaults, Botzone's per-language limits apply.
    #[test]
    fn the_series_limits_win_only_when_given() {
        let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/games/duel");
        let game = Botzone::new(Manifest::load(&dir).unwrap());
        let defaults = Limits {
            first_reply: std::time::Duration::from_millis(DEFAULT_MS),
            reply: std::time::Duration::from_millis(DEFAULT_MS),
            ..Limits::default()
        };
        let python = game.bot_limits(Some(Language::Python), &defaults);
        assert_eq!(
            (python.first_turn_ms, python.turn_ms, python.kept_running_ms),
            (12000, 6000, 4000)
        );
        let given = Limits {
            reply_given: true,
            ..defaults
        };
        let python = game.bot_limits(Some(Language::Python), &given);
        assert_eq!((python.first_turn_ms, python.kept_running_ms), (1000, 1000));
    }
}
