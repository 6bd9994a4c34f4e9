//! What the machinery knows of a game: the [`Game`] trait, which every game implements and
//! nothing else does, and the few plain types it answers with. The games themselves live in
//! [`crate::games`], one folder each; [`crate::games::find`] is the one place that maps a
//! name (or a game folder's path) to one of them.
//!
//! The machinery (bots, sandbox, clock, schedule, records, tally, ratings, sinks, resume,
//! verify, merge, shards, `check`, `replay`, `play`, the report's frame) holds a [`GameRef`]
//! and asks it; it never names a game.

use std::fmt;
use std::future::Future;
use std::path::Path;
use std::pin::Pin;
use std::sync::Arc;

use serde::{Serialize, Serializer};

use crate::bots::TemplateChoice;
use crate::player::Limits;
use crate::record::{Direction, GameRecord, InvalidRecord, Model};
use crate::table::{BuiltinKind, GameOutcome, OnFault, TableGame, Wire};

/// A bot's CPU time limits in ms ([`GameRef::reply_limits`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ReplyLimits {
    /// The first reply of a game.
    pub first_ms: u64,
    /// A later reply (of a bot started afresh, where the game starts bots afresh).
    pub later_ms: u64,
    /// A reply of a bot kept running since its last, where the game keeps bots running and
    /// gives them their own limit.
    pub kept_running_ms: Option<u64>,
}

/// What the arena a game's bots are written for counts against their time limits, for
/// `take6 check`'s advice: its name, and whether it counts CPU time (Botzone) or wall-clock
/// time (CodinGame).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ArenaClock {
    pub arena: &'static str,
    pub counts_cpu: bool,
}

impl ArenaClock {
    /// An arena that times wall-clock time, as CodinGame does.
    pub const WALL: ArenaClock = ArenaClock {
        arena: "an arena that times wall-clock time (CodinGame)",
        counts_cpu: false,
    };
}

/// What a game is, as data: the constants the machinery reads (OpenSpiel's `GameType`, a
/// kaggle-environments spec). A game holds one and answers [`Game::facts`] with it.
#[derive(Debug, Clone)]
pub struct GameFacts {
    /// The name used on the command line, in `take6.toml`, `bot.toml` and records
    /// (`take6`, `kingdomino`; a loaded game's `game.toml` name).
    pub name: String,
    /// The game's name for people (`Take 6!`).
    pub title: String,
    /// How many players a table seats.
    pub seats: SeatRange,
    /// Default time limits of a bot's replies.
    pub default_limits: DefaultLimits,
    /// Which way scores point.
    pub direction: Direction,
    /// How the ranking is fitted to its games: points or, for a game whose scores only rank
    /// its seats, ranks ([`crate::record::fit`]).
    pub model: Model,
    /// Which settings mean something in this game (the others are refused).
    pub supports: Supports,
    /// What a bot's fault does to its seat.
    pub on_fault: OnFault,
    /// The built-in players that pad this game's tables, in padding order (each with its
    /// index in this list).
    pub builtins: Vec<BuiltinKind>,
    /// What this game's built-ins are called for people (`run`'s start line, the report):
    /// take6's own players (`built-in`), or a game folder's padding bots.
    pub builtin_label: &'static str,
    /// What every bot of this game speaks, for the report's Bots table, when the game has no
    /// template sets ([`Supports::templates`]).
    pub wire_label: &'static str,
    /// Whether the series' seed deals the game (a bot that finds a small seed then knows
    /// every hand). A game whose judge draws its own randomness is not dealt by it.
    pub dealt_by_seed: bool,
    /// How the arena its bots are written for times them (`take6 check`'s advice).
    pub arena_clock: ArenaClock,
}

/// A game: how one game of it is played over the machinery's seats, and how its records are
/// checked and shown; its constants are data ([`Game::facts`]), and what only a game whose
/// folder runs programs does is one capability the machinery asks for ([`Game::code`]).
/// Object safe: the machinery holds an `Arc<dyn Game>` ([`GameRef`]), so a game loaded at run
/// time from a folder fits as well as a built-in one.
pub trait Game: Send + Sync + 'static {
    /// The game's constants.
    fn facts(&self) -> &GameFacts;

    /// How this game's bots choose their words on the wire ([`Supports::templates`]), made
    /// once per series (new or resumed) before its bots are prepared, from the series'
    /// template folder (`--templates`, when there is one): an error (a folder that cannot be
    /// read) stops the series with its reason. `None` (the default): the game's wire is its
    /// own, and a bot's `template` means nothing.
    fn wires(&self, folder: Option<&Path>) -> Result<Option<Box<dyn Wires>>, String> {
        let _ = folder;
        Ok(None)
    }

    /// Plays one whole game at `table` under `limits`. Never fails: whatever a bot does
    /// becomes part of the record (a game whose rules fail is recorded void).
    fn play(&self, table: TableGame, limits: Limits) -> GameFuture;

    /// The independent checker: replays `record` with a second, minimal implementation of
    /// the rules and names the first inconsistency (`take6 verify`, the tests). A game whose
    /// checker runs its folder's judge runs it only as `permit` allows.
    fn check(&self, record: &GameRecord, permit: &JudgePermit) -> Result<(), Flaw>;

    /// `take6 verify`'s check that `record` was dealt what its seed deals (a game whose
    /// checker already re-derives the deal from the seed has nothing more to check).
    fn check_deal(&self, record: &GameRecord) -> Result<(), Flaw> {
        let _ = record;
        Ok(())
    }

    /// `take6 verify` of a summary record (`--record summary`, built-ins only): plays the
    /// game again from its seed and compares. Only for a game that supports summaries.
    fn check_summary(&self, record: &GameRecord) -> Result<(), Flaw> {
        let _ = record;
        Err(Flaw(format!("{} records no summaries", self.facts().title)))
    }

    /// `take6 replay`: the game turn by turn for people.
    fn replay_text(&self, record: &GameRecord) -> String;

    /// The report's board for this game: its script, the HTML the script draws into and the
    /// data every game of the page shares.
    fn viewer(&self) -> Viewer;

    /// One record as the game's viewer script reads it: a JSON object whose fields sit beside
    /// the common ones (number, seed, players, scores, faults) in the page's data.
    fn viewer_data(&self, record: &GameRecord) -> serde_json::Value;

    /// What `take6 check` tells a bot's author about `fault` in `record`, to which the bot
    /// had replied `reply` (its last line, if any): what it was asked and what a correct
    /// reply would have been.
    fn advice(&self, record: &GameRecord, fault: &InvalidRecord, reply: Option<&str>) -> Advice;

    /// What the rules refused of the moves of `seat` in `record` without it being a fault
    /// (a Kingdomino PUT that breaks a placement rule discards its tile, and the game goes
    /// on): `take6 check` says how many, why and the first, and does not pass a bot whose
    /// every move was refused. The default: the game refuses nothing short of a fault.
    fn refusals(&self, record: &GameRecord, seat: usize) -> Refusals {
        let _ = (record, seat);
        Refusals::default()
    }

    /// An optional fast path for a series of built-ins only (`--builtins-only`): a
    /// synchronous table per thread, no futures. `None`: the series plays such games as any.
    fn fast_builtins(&self) -> Option<&dyn FastBuiltins> {
        None
    }

    /// The source of a bot to start from in language `lang` (`python`, `c`, `cpp`, `java`,
    /// `js`, `rust`, `go`; `take6 new`): its file's name and text, `NAME` standing for the
    /// bot's name. `None`: no starter in that language.
    fn starter(&self, lang: &str) -> Option<(&'static str, &'static str)> {
        let _ = lang;
        None
    }

    /// What the game's folder runs (its judge, its padding bots), for a game loaded from a
    /// folder; `None` (the default) for a game whose rules are take6's own code.
    fn code(&self) -> Option<&dyn GameCode> {
        None
    }
}

/// The capability of a game whose folder holds programs that take6 builds and runs (a judge,
/// padding bots): the machinery asks [`Game::code`] for it where programs are built, timed,
/// hashed or heard.
pub trait GameCode: Send + Sync {
    /// The game's folder: what `--game` takes to find it again (`series.toml`, resume,
    /// verify).
    fn folder(&self) -> &Path;

    /// The SHA-256 of the code the game runs (its judge and `game.toml`), which `series.toml`
    /// records so that `verify` runs only that code again.
    fn content_hash(&self) -> Result<String, String>;

    /// How C and C++ source of this game's bots (and its own programs) is compiled.
    fn build_dialect(&self) -> crate::bots::generate::Dialect;

    /// Prepares the programs the game runs, once per series before its first game (a new
    /// series and a resumed one): copied into the series' folder and built through the
    /// series' sandbox as bots are. An error stops the series with its reason.
    fn prepare<'a>(&'a self, ctx: &'a Prepare) -> PrepareFuture<'a>;

    /// The CPU time limits a bot has under the series' `limits`, for a bot whose source take6
    /// built as `language` (`None`: its own launch), when the game sets them per bot (by
    /// language, the first turn of a game twice the others, a kept-running bot's own).
    fn reply_limits(
        &self,
        language: Option<crate::bots::generate::Language>,
        limits: &Limits,
    ) -> ReplyLimits;

    /// How the game times each bot when the series leaves the reply limits at the game's
    /// defaults: said on `run`'s and `check`'s limits line.
    fn limits_note(&self) -> String;

    /// What the game's judge said at the end of `record` of the player at `seat`, for
    /// `take6 check` to show a bot's author in each game it lost.
    fn judge_end(&self, record: &GameRecord, seat: usize) -> Option<JudgeEnd>;

    /// What [`Game::check`] took as recorded rather than re-derived, over the records it
    /// checked so far, in words (a judge's own random draw), if anything: `take6 verify` says
    /// it beside its verdict.
    fn unchecked(&self) -> Option<String>;
}

/// A game's way of making each bot's [`Wire`] for one series ([`Game::wires`]).
pub trait Wires: Send + Sync {
    /// The wire of a bot whose `bot.toml` (or own `template.toml`) chose `choice`; the error
    /// is why the bot is skipped. May be CPU work (a template set compiled and
    /// trial-rendered): called off the async threads.
    fn wire(&self, choice: &TemplateChoice) -> Result<Wire, String>;
}

/// What a game's [`GameCode::prepare`] gets: where and how the series builds programs.
pub struct Prepare {
    /// The series' folder: the game's programs go under it, beside the bots' working copies.
    pub series_dir: std::path::PathBuf,
    pub sandbox: Arc<crate::sandbox::Sandbox>,
    pub tools: crate::bots::Toolchains,
    pub build_timeout: std::time::Duration,
    pub jobs: usize,
    pub max_data: u64,
    /// Whether a table may need the game's built-ins (fewer bots than seats, `--against`, a
    /// person, built-ins only): a game whose built-ins are programs builds them only then.
    pub needs_builtins: bool,
}

/// The future of [`GameCode::prepare`].
pub type PrepareFuture<'a> = Pin<Box<dyn Future<Output = Result<(), String>> + Send + 'a>>;

/// A game's board in report.html ([`Game::viewer`]).
#[derive(Debug, Clone, Default)]
pub struct Viewer {
    /// The script that defines the board the report's frame calls (see `viewer.js`).
    pub script: String,
    /// The HTML elements the script draws into.
    pub board_html: String,
    /// Data every game of the page shares (e.g. a tile set), beside `games` in the page.
    pub shared: serde_json::Map<String, serde_json::Value>,
}

/// What `take6 check` says of a fault ([`Game::advice`]).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Advice {
    /// What the bot was asked for, e.g. `choosing a card`.
    pub asked: String,
    /// What a correct reply would have been, e.g. `one of the cards in its hand: 3 17 …`.
    pub correct: String,
}

/// What the rules refused of one seat's moves in one game ([`Game::refusals`]).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Refusals {
    /// What the moves are called, plural (`placements`).
    pub what: &'static str,
    /// How many moves the rules judged (refused or not).
    pub judged: usize,
    /// The moves refused, in play order.
    pub refused: Vec<Refusal>,
}

/// One move the rules refused ([`Refusals`]).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Refusal {
    /// The turn it was played in.
    pub turn: u32,
    /// The move as the bot sent it, e.g. `PUT 0 0 0 (tile 17)`.
    pub shown: String,
    /// The rule it broke, short, e.g. `the connection rule`.
    pub rule: String,
    /// Why, in full, e.g. `neither square touches the castle or a square of its own terrain`.
    pub why: String,
}

/// What a game's judge said when it ended a game ([`GameCode::judge_end`]).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct JudgeEnd {
    /// Its last words, e.g. its `display`, at most a line (untrusted: shown through
    /// [`crate::untrusted`]).
    pub said: String,
    /// Whether it ended the game early for this player's move (an invalid move, say) though
    /// the player had no fault take6 saw.
    pub ended_for_it: bool,
}

/// The future of one game played ([`Game::play`]): `Send`, so a table runs on any worker.
pub type GameFuture = Pin<Box<dyn Future<Output = GameOutcome> + Send + 'static>>;

/// A game the machinery holds: cheap to clone, compared, hashed and written by name.
/// Settings hold one and read it back through the registry, which also says which game is the
/// default (`crate::games`: `Default`, `Deserialize`, `is_default`). Records and tables, below
/// this trait, hold only the game's name (`crate::record::GameName`: `GameRef::record_name`,
/// and back with `GameRecord::game_ref`).
#[derive(Clone)]
pub struct GameRef(pub Arc<dyn Game>);

impl GameRef {
    /// The built-in of this game called `name`, if there is one.
    pub fn builtin(&self, name: &str) -> Option<BuiltinKind> {
        self.builtins().iter().copied().find(|b| b.name == name)
    }

    /// [`GameFacts::name`].
    pub fn name(&self) -> &str {
        &self.facts().name
    }

    /// [`GameFacts::title`].
    pub fn title(&self) -> &str {
        &self.facts().title
    }

    /// [`GameFacts::seats`].
    pub fn seats(&self) -> SeatRange {
        self.facts().seats
    }

    /// [`GameFacts::default_limits`].
    pub fn default_limits(&self) -> DefaultLimits {
        self.facts().default_limits
    }

    /// [`GameFacts::direction`].
    pub fn direction(&self) -> Direction {
        self.facts().direction
    }

    /// [`GameFacts::model`].
    pub fn model(&self) -> Model {
        self.facts().model
    }

    /// [`GameFacts::supports`].
    pub fn supports(&self) -> Supports {
        self.facts().supports
    }

    /// [`GameFacts::on_fault`].
    pub fn on_fault(&self) -> OnFault {
        self.facts().on_fault
    }

    /// [`GameFacts::builtins`].
    pub fn builtins(&self) -> &[BuiltinKind] {
        &self.facts().builtins
    }

    /// [`GameFacts::builtin_label`].
    pub fn builtin_label(&self) -> &'static str {
        self.facts().builtin_label
    }

    /// What `--game` takes to find this game again (in `series.toml`, for resume and
    /// verify): its name for a game built into take6, its folder's path for a loaded one.
    pub fn spec(&self) -> String {
        match self.code() {
            Some(code) => code.folder().display().to_string(),
            None => self.name().to_string(),
        }
    }

    /// The CPU time limits a bot has in this game under the series' `limits`, for a bot
    /// whose source take6 built as `language` (`None`: its own launch): the series' own,
    /// unless the game's folder sets them per bot ([`GameCode::reply_limits`]): what `take6
    /// check` compares its replies with.
    pub fn reply_limits(
        &self,
        language: Option<crate::bots::generate::Language>,
        limits: &Limits,
    ) -> ReplyLimits {
        match self.code() {
            Some(code) => code.reply_limits(language, limits),
            None => ReplyLimits {
                first_ms: limits.first_reply.as_millis() as u64,
                later_ms: limits.reply.as_millis() as u64,
                kept_running_ms: None,
            },
        }
    }

    /// [`GameFacts::dealt_by_seed`].
    pub fn dealt_by_seed(&self) -> bool {
        self.facts().dealt_by_seed
    }

    /// The SHA-256 of the code the game's folder runs ([`GameCode::content_hash`]); `None`
    /// for a game whose rules are take6's own code.
    pub fn content_hash(&self) -> Result<Option<String>, String> {
        self.code().map(GameCode::content_hash).transpose()
    }

    /// How the game's folder times each bot ([`GameCode::limits_note`]), if it does.
    pub fn limits_note(&self) -> Option<String> {
        self.code().map(GameCode::limits_note)
    }

    /// The game's programs prepared for a series ([`GameCode::prepare`]); ready at once for
    /// a game whose rules are take6's own code.
    pub fn prepare_code<'a>(&'a self, ctx: &'a Prepare) -> PrepareFuture<'a> {
        match self.code() {
            Some(code) => code.prepare(ctx),
            None => Box::pin(async { Ok(()) }),
        }
    }

    /// How C and C++ source of this game's bots is compiled: take6's ISO dialect unless the
    /// game's folder builds otherwise ([`GameCode::build_dialect`]).
    pub fn build_dialect(&self) -> crate::bots::generate::Dialect {
        self.code()
            .map_or(crate::bots::generate::Dialect::Iso, GameCode::build_dialect)
    }
}

impl std::ops::Deref for GameRef {
    type Target = dyn Game;

    fn deref(&self) -> &(dyn Game + 'static) {
        &*self.0
    }
}

impl PartialEq for GameRef {
    fn eq(&self, other: &Self) -> bool {
        Arc::ptr_eq(&self.0, &other.0) || self.name() == other.name()
    }
}

impl Eq for GameRef {}

impl std::hash::Hash for GameRef {
    fn hash<H: std::hash::Hasher>(&self, state: &mut H) {
        self.name().hash(state);
    }
}

impl fmt::Debug for GameRef {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "GameRef({})", self.name())
    }
}

impl fmt::Display for GameRef {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl Serialize for GameRef {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(self.name())
    }
}

/// Writes a game as `--game` finds it again ([`GameRef::spec`]): for `series.toml`.
pub fn serialize_spec<S: Serializer>(game: &GameRef, s: S) -> Result<S::Ok, S::Error> {
    s.serialize_str(&game.spec())
}

/// How many players a table of a game seats.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct SeatRange {
    pub fewest: usize,
    pub most: usize,
    /// When `--players` is not given.
    pub default: usize,
}

/// Default limits of a bot's replies, in ms.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct DefaultLimits {
    /// The first reply of a game, start-up included.
    pub first_reply_ms: u64,
    /// Every later reply.
    pub reply_ms: u64,
}

/// Which settings mean something in a game; a setting a game does not support is refused,
/// not ignored.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Supports {
    /// `--rounds`: fresh deals played by the same players, scores summed.
    pub rounds: bool,
    /// `--duplicate`: the same deal played from every seat.
    pub duplicate_deals: bool,
    /// `--record summary`: records without turns, re-derived from the seed (built-ins only).
    pub summary_records: bool,
    /// A bot's `template` (`bot.toml`): the words of its wire chosen from template sets.
    pub templates: bool,
}

/// A game of built-ins only, planned: what [`FastTable::play_into`] plays.
#[derive(Debug, Clone, Copy)]
pub struct FastGame<'a> {
    pub game: u64,
    pub seed: u64,
    pub subset: u64,
    pub rotation: usize,
    /// At least 1.
    pub rounds: u32,
    /// Each seat's built-in, seat order.
    pub seats: &'a [BuiltinKind],
}

/// A game's synchronous table for series of built-ins only ([`Game::fast_builtins`]).
pub trait FastBuiltins: Send + Sync {
    /// A table for one thread, reusing what it can from one game to the next.
    fn table(&self) -> Box<dyn FastTable>;
}

/// One thread's synchronous table of built-ins.
pub trait FastTable: Send {
    /// A record with nothing in it, to be played into.
    fn blank_record(&self) -> GameRecord;

    /// Plays `game` into `record`, overwriting every field but `players` (the caller's). With
    /// `turns` false the record is a summary.
    fn play_into(&mut self, game: &FastGame<'_>, turns: bool, record: &mut GameRecord);

    /// Appends `record`'s `games.jsonl` text (no newline), exactly as serde writes it.
    fn write_record(&self, record: &GameRecord, out: &mut Vec<u8>);
}

/// What a check says when it may not run a game folder's judge (verify without `--game`).
pub const JUDGE_NOT_RUN: &str = "the judge was not run again";

/// Permission to run a game folder's judge: a value made at the binary's edge and passed to
/// whatever may run one ([`recorded`](crate::games::recorded), [`Game::check`]), never a
/// setting of the process. A series ([`JudgePermit::series`]: `run`, `--resume`, `check`,
/// `play`, `league`) plays its game, judge and all. `verify`, `leaderboard` and `merge` read
/// results folders, which choose no code: their permit ([`JudgePermit::from_keyboard`]) runs
/// only the judge of the game folder the person at the keyboard gave with `--game`, if any.
#[derive(Debug, Clone)]
pub struct JudgePermit {
    scope: Scope,
}

#[derive(Debug, Clone)]
enum Scope {
    /// The judge of the game the series plays.
    Series,
    /// Only the judge of this game folder, given with `--game` (none: no judge).
    Given(Option<GameRef>),
}

impl JudgePermit {
    /// The permit of a series, which plays its game: it checks with the judge it plays.
    pub fn series() -> JudgePermit {
        JudgePermit {
            scope: Scope::Series,
        }
    }

    /// No folder's judge: what reads records that choose no code (`replay`, a record
    /// checked on its own).
    pub fn none() -> JudgePermit {
        JudgePermit {
            scope: Scope::Given(None),
        }
    }

    /// Only the judge of `game` (none: no judge), the game given at the keyboard
    /// ([`JudgePermit::from_keyboard`] finds it by name or folder).
    pub fn given(game: Option<GameRef>) -> JudgePermit {
        JudgePermit {
            scope: Scope::Given(game),
        }
    }

    /// The game given at the keyboard, if the permit is for one.
    pub fn given_game(&self) -> Option<&GameRef> {
        match &self.scope {
            Scope::Given(Some(game)) => Some(game),
            _ => None,
        }
    }

    /// Whether the judge of the game folder `folder` (its absolute path, as
    /// [`GameRef::spec`] says it) may run under this permit.
    pub fn may_run_judge(&self, folder: &str) -> Result<(), String> {
        match &self.scope {
            Scope::Series => Ok(()),
            Scope::Given(Some(game)) if game.spec() == folder => Ok(()),
            Scope::Given(_) => Err(format!(
                "{JUDGE_NOT_RUN}: a results folder chooses no code to run; give the game folder \
                 with --game PATH (series.toml names {folder}), and take6 runs its judge if it \
                 is the code the series played"
            )),
        }
    }
}

/// Why a record does not follow its game's rules: the first inconsistency a game's checker
/// finds (what `take6 verify` says of the record).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{0}")]
pub struct Flaw(pub String);

impl From<String> for Flaw {
    fn from(why: String) -> Flaw {
        Flaw(why)
    }
}

impl From<&str> for Flaw {
    fn from(why: &str) -> Flaw {
        Flaw(why.to_string())
    }
}
