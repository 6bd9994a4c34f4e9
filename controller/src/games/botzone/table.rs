//! One game of a Botzone game: the judge is called, step after step, with the log; each
//! step's request goes to the players it names, whose responses (or verdicts) join the log;
//! until the judge finishes with the scores, or fails and the game is void.
//!
//! Every program here (the judge, each bot) is a [`Process`] from its working copy through
//! the series' sandbox, under the CPU clock: started afresh for each call, or kept running
//! when it prints [`wire::KEEP_RUNNING`] after its output (a judge only when `game.toml`
//! allows it).

use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::{Duration, Instant};

use futures::future::join_all;
use serde_json::Value;

use super::globaldata;
use super::manifest::{BotLimits, JudgeLimits};
use super::reply::{self, BotIo};
use super::simpleio;
use super::wire::{self, Command, JudgeOutput};
use crate::player::transcript::Transcript;
use crate::player::{Console, Fault, Finished, Limits, Process, ReplyTime, StderrLog};
use crate::sandbox::Sandbox;

/// Who plays a seat.
pub enum SeatKind {
    /// A program speaking Botzone's bot protocol (a bot, or a padding bot of the game folder).
    Bot {
        workdir: PathBuf,
        sandbox: Arc<Sandbox>,
        limits: BotLimits,
        /// Where its lines are recorded (`take6 check`), with the game's number.
        transcript: Option<(Transcript, u64)>,
        /// JSON, or the game's simple interaction.
        io: BotIo,
    },
    /// The person at the keyboard: types each response.
    Human(Arc<Console>),
}

/// Why a bot that chose simple interaction cannot play a game without it.
const NO_SIMPLE: &str = "its bot.toml says simple_io = true (Botzone's simple interaction), and \
    this game's game.toml has no [simpleio] table (request_from_json, response_to_json, \
    response_from_json: the game's functions, as Botzone's games.py has them): add it, or \
    remove simple_io from the bot's bot.toml if the bot speaks JSON";

/// The judge of a game: its working copy and limits.
#[derive(Clone)]
pub struct JudgeSpec {
    pub workdir: PathBuf,
    pub sandbox: Arc<Sandbox>,
    pub limits: JudgeLimits,
}

/// A fault of a seat, with the judge's step it happened in (1 = the first request).
#[derive(Debug, Clone)]
pub struct SeatFault {
    pub seat: usize,
    pub step: usize,
    pub fault: Fault,
}

/// A game played.
#[derive(Debug, Clone)]
pub struct Played {
    /// The initdata of the judge's first call.
    pub initdata: Value,
    /// The log as the judge last read it, with its last output: its outputs and the
    /// responses, alternately.
    pub log: Vec<Value>,
    /// The scores by seat, or why the judge failed.
    pub scores: Result<Vec<f64>, String>,
    /// The seats whose new responses the judge's failing call was the first to read, in seat
    /// order: the game is their fault, not void. Empty when the judge finished, or failed on
    /// a call that read no new response (its first, or after faults only): the game is void.
    pub blamed: Vec<usize>,
    pub faults: Vec<SeatFault>,
    /// Each bot seat's reply times and stderr, by seat.
    pub seats: Vec<(usize, Vec<ReplyTime>, StderrLog)>,
    /// The judge's stderr over the game.
    pub judge_stderr: StderrLog,
    /// The seats whose bots speak simple interaction (`bot.toml` `simple_io`), in seat order.
    pub simple: Vec<usize>,
}

/// The game's players as it goes on.
struct Seat {
    kind: SeatKind,
    requests: Vec<Value>,
    responses: Vec<Value>,
    /// Simple interaction: its requests as lines, and its responses as it wrote them.
    lines: Vec<String>,
    said: Vec<String>,
    /// Why the game is void, found at this seat's turn (the game's own transform failed).
    void: Option<String>,
    /// Its last turn's debug, as the log keeps it.
    debug: Value,
    data: Value,
    /// A bot kept running since its last turn.
    kept: Option<Process>,
    replies: Vec<ReplyTime>,
    stderr: StderrLog,
    /// The bytes of its responses so far in this game (capped: [`wire::GAME_RESPONSES_CAP`]).
    responded: usize,
}

/// A bot's seat as one turn uses it (its [`SeatKind::Bot`]).
struct BotSeat {
    workdir: PathBuf,
    sandbox: Arc<Sandbox>,
    limits: BotLimits,
    transcript: Option<(Transcript, u64)>,
    io: BotIo,
}

/// The most steps in a row a judge may ask no player (each is a call of the judge that runs
/// no bot): beyond, the game is void, not a hang.
pub const IDLE_STEPS: usize = 200;

/// The most of a program's stderr kept per game.
const STDERR_CAP: usize = 64 * 1024;

pub use super::globaldata::GLOBALDATA;

/// Plays one game of the game called `name` between `seats` (seat order) under `base`
/// limits (the series' clock, wall factor, grace; the times are the seats' own). Never fails:
/// a judge that fails voids the game. A person at the table sees each display (as a board
/// when take6 knows the game) and why the game ended (super::screen).
pub async fn play(
    name: &str,
    judge: &JudgeSpec,
    initdata: &Value,
    seats: Vec<SeatKind>,
    base: Limits,
) -> Played {
    let players = seats.len();
    let person = seats.iter().position(|s| matches!(s, SeatKind::Human(_)));
    let simple = (seats.iter().enumerate())
        .filter(|(_, s)| matches!(s, SeatKind::Bot { io, .. } if !matches!(io, BotIo::Json)))
        .map(|(seat, _)| seat)
        .collect();
    if let Some(me) = person {
        show(&super::screen::seat_text(name, me, players));
    }
    let mut seats: Vec<Seat> = seats.into_iter().map(Seat::new).collect();
    let mut runner = Judge {
        spec: judge.clone(),
        base,
        kept: None,
        stderr: StderrLog::default(),
    };
    let shown = person.map(|_| name);
    let Steps {
        log,
        scores,
        blamed,
        mut faults,
    } = steps(&mut runner, &mut seats, initdata, base, shown).await;
    runner.finish().await;
    if person.is_some() {
        show(&super::screen::end_text(&log, &scores, person));
    }
    let ended = end(&mut seats).await;
    faults.sort_by_key(|f| (f.step, f.seat));
    Played {
        initdata: initdata.clone(),
        log,
        scores,
        blamed,
        faults,
        seats: ended,
        judge_stderr: runner.stderr,
        simple,
    }
}

/// What the judge's steps came to.
struct Steps {
    log: Vec<Value>,
    scores: Result<Vec<f64>, String>,
    blamed: Vec<usize>,
    faults: Vec<SeatFault>,
}

/// The judge called, step after step, each step's requests asked of its seats, until it
/// finishes or fails; each step shown (`shown`: the game's name) when a person plays.
async fn steps(
    runner: &mut Judge,
    seats: &mut [Seat],
    initdata: &Value,
    base: Limits,
    shown: Option<&str>,
) -> Steps {
    let players = seats.len();
    let mut log: Vec<Value> = Vec::new();
    let mut current = initdata.clone();
    let mut faults = Vec::new();
    let mut responses: Option<Value> = None;
    let mut blamed = Vec::new();
    let mut idle = 0;
    let scores = loop {
        let step = log.len() / 2;
        let (entry, output) = match runner
            .call(&log, &current, responses.as_ref(), players)
            .await
        {
            Ok(output) => output,
            Err(failed) => {
                if failed.ran {
                    blamed = responses.as_ref().map_or_else(Vec::new, answered);
                }
                break Err(failed.why);
            }
        };
        if step == 0
            && let Some(given) = &output.initdata
        {
            current = given.clone();
        }
        log.push(entry);
        if let Some(name) = shown {
            show(&super::screen::step_text(name, &log));
        }
        let asked = match output.command {
            Command::Finish(scores) => break Ok(scores),
            Command::Request(asked) => asked,
        };
        // As botzone-local's runner: a request of no player runs no one, its responses `{}`.
        idle = if asked.is_empty() { idle + 1 } else { 0 };
        if idle > IDLE_STEPS {
            break Err(format!(
                "the judge asked no player in more than {IDLE_STEPS} steps in a row (a judge that never \
                 asks anyone again cannot finish)"
            ));
        }
        let step_responses = match ask(seats, asked, base, step + 1, &mut faults).await {
            Ok(responses) => responses,
            Err(why) => break Err(why),
        };
        log.push(step_responses.clone());
        responses = Some(step_responses);
    };
    Steps {
        log,
        scores,
        blamed,
        faults,
    }
}

/// The seats of a step's `responses` (keyed by seat, as the log keeps them) that answered
/// with a response of their own (verdict `OK`), in seat order.
pub fn answered(responses: &Value) -> Vec<usize> {
    let mut seats: Vec<usize> = (responses.as_object().into_iter().flatten())
        .filter(|(_, entry)| entry["verdict"] == "OK")
        .filter_map(|(key, _)| key.parse().ok())
        .collect();
    seats.sort_unstable();
    seats
}

/// One step's turns: the seats `asked` answer their requests at once; the responses keyed by
/// seat as the judge's log keeps them (a faulted seat's verdict, its fault noted at `step`),
/// or why the game is void (the game's own simple-interaction transform failed).
async fn ask(
    seats: &mut [Seat],
    mut asked: std::collections::BTreeMap<usize, Value>,
    base: Limits,
    step: usize,
    faults: &mut Vec<SeatFault>,
) -> Result<Value, String> {
    let turns = seats.iter_mut().enumerate().filter_map(|(seat, s)| {
        let request = asked.remove(&seat)?;
        Some(async move { (seat, s.turn(request, base).await) })
    });
    let answers = join_all(turns).await;
    if let Some(why) = seats.iter_mut().find_map(|s| s.void.take()) {
        return Err(why);
    }
    let mut responses = serde_json::Map::new();
    for (seat, answer) in answers {
        let s = &mut seats[seat];
        let (kept, debug) = (s.kept.is_some(), std::mem::take(&mut s.debug));
        let entry = match answer {
            Ok(response) => wire::bot_entry(&Ok(response), kept, &debug),
            Err(fault) => {
                let entry = wire::bot_entry(&Err(wire::verdict(&fault)), false, &debug);
                faults.push(SeatFault { seat, step, fault });
                entry
            }
        };
        responses.insert(seat.to_string(), entry);
    }
    Ok(Value::Object(responses))
}

/// The end of a game: bots still running are killed, as Botzone kills them when the game
/// ends; what they do after their last reply is not their fault (the judge has scored the
/// game). Each bot seat's reply times and stderr, in seat order.
async fn end(seats: &mut [Seat]) -> Vec<(usize, Vec<ReplyTime>, StderrLog)> {
    let mut ended = Vec::new();
    for (seat, s) in seats.iter_mut().enumerate() {
        if let Some(p) = s.kept.take() {
            s.absorb(p.kill().await);
        }
        if let SeatKind::Bot { .. } = &s.kind {
            ended.push((
                seat,
                std::mem::take(&mut s.replies),
                std::mem::take(&mut s.stderr),
            ));
        }
    }
    ended
}

impl Seat {
    /// A seat of `kind` before the game's first step.
    fn new(kind: SeatKind) -> Seat {
        Seat {
            kind,
            requests: Vec::new(),
            responses: Vec::new(),
            lines: Vec::new(),
            said: Vec::new(),
            void: None,
            debug: Value::String(String::new()),
            data: Value::String(String::new()),
            kept: None,
            replies: Vec::new(),
            stderr: StderrLog::default(),
            responded: 0,
        }
    }

    /// One turn: `request` in, the response (or the fault) out.
    async fn turn(&mut self, request: Value, base: Limits) -> Result<Value, Fault> {
        self.requests.push(request.clone());
        self.debug = Value::String(String::new());
        let bot = match &self.kind {
            SeatKind::Human(console) => {
                let console = Arc::clone(console);
                let response = human_turn(&console, &self.requests, &self.responses).await?;
                self.responses.push(response.clone());
                return Ok(response);
            }
            SeatKind::Bot {
                workdir,
                sandbox,
                limits,
                transcript,
                io,
            } => BotSeat {
                workdir: workdir.clone(),
                sandbox: Arc::clone(sandbox),
                limits: *limits,
                transcript: transcript.clone(),
                io: io.clone(),
            },
        };
        let limit = Duration::from_millis(self.turn_limit_ms(bot.limits));
        let converting = self.request_line(&bot.io, request, limit).await?;
        // A turn that starts the bot reads its globaldata as it is now and keeps what it
        // answers before the next such turn of the bot, in this game or another, reads it:
        // once the bot uses globaldata, those turns take its working copy's lock.
        let mut _globaldata_lock = None;
        let (mut process, input) = match self.kept.take() {
            Some(p) => (p, self.next_request(&bot.io)),
            None => {
                _globaldata_lock = globaldata::lock(&bot.workdir).await;
                self.start(&bot, base)?
            }
        };
        process.charge(converting.as_micros() as u64);
        let (reply, kept) = match self
            .answer(&mut process, &input, &bot, limit, converting)
            .await
        {
            Ok(answered) => answered,
            Err(fault) => return Err(self.ended(process, fault).await),
        };
        let response = reply.response.clone();
        self.keep(reply, &bot.workdir);
        drop(_globaldata_lock);
        self.after_reply(process, kept).await?;
        Ok(response)
    }

    /// The limit of this turn: a bot kept running has its kept-running one, a bot started
    /// afresh its first turn's or a later turn's. A simple-interaction bot's conversions run on
    /// it.
    fn turn_limit_ms(&self, limits: BotLimits) -> u64 {
        if self.kept.is_some() {
            limits.kept_running_ms
        } else if self.requests.len() == 1 {
            limits.first_turn_ms
        } else {
            limits.turn_ms
        }
    }

    /// For a simple-interaction bot, the line of `request` (kept for its input) and the CPU
    /// time its conversion took (none for a JSON bot); the bot's fault when it cannot have
    /// one, or (the game's own function failing) [`Fault::Left`] with the seat's `void` set.
    async fn request_line(
        &mut self,
        io: &BotIo,
        request: Value,
        limit: Duration,
    ) -> Result<Duration, Fault> {
        let simple = match io {
            BotIo::Json => return Ok(Duration::ZERO),
            BotIo::NoSimple => return Err(Fault::BadReply(NO_SIMPLE.into(), "bad_reply")),
            BotIo::Simple(simple) => simple,
        };
        let line = reply::convert(simple, move |io| io.request_line(&request, limit)).await;
        match line.value {
            Ok(text) => {
                self.lines.push(text);
                Ok(line.cpu)
            }
            Err(over @ simpleio::Failure::Over { .. }) => {
                let fault = reply::conversion_over("request_from_json", "its request", &over);
                Err(match self.kept.take() {
                    Some(p) => self.ended(p, fault).await,
                    None => fault,
                })
            }
            Err(why) => {
                self.void = Some(format!("the game's [simpleio] {why}"));
                Err(Fault::Left)
            }
        }
    }

    /// Asks the bot's `process` for its answer to `input` and reads it as its way of speaking
    /// says, within what is left of its turn's `limit` (`converting`: what its request's
    /// conversion took), each field within its cap: the reply, and whether it asked to be
    /// kept running.
    async fn answer(
        &mut self,
        process: &mut Process,
        input: &str,
        bot: &BotSeat,
        limit: Duration,
        converting: Duration,
    ) -> Result<(reply::Reply, bool), Fault> {
        let (lines, kept) = process
            .ask_until(
                &format!("{input}\n"),
                wire::KEEP_RUNNING,
                wire::OUTPUT_CAP,
                !bot.limits.keep_running,
            )
            .await?;
        if kept && !bot.limits.keep_running {
            return Err(not_kept());
        }
        // What is left of the turn's limit after the reply (its conversion included), for
        // converting the reply.
        let spent = process.last_reply().map_or(converting, |r| match r.cpu_us {
            Some(cpu) => Duration::from_micros(cpu),
            None => Duration::from_micros(r.wall_us) + converting,
        });
        let reply = reply::read(&bot.io, lines, limit.saturating_sub(spent)).await?;
        // Each field within its cap, and the game's responses within theirs: over is OLE.
        let bytes = wire::within_caps(
            &reply.response,
            &reply.data,
            reply.globaldata.as_ref(),
            self.responded,
        )
        .map_err(|why| Fault::BadReply(why.to_string(), wire::OUTPUT_LIMIT))?;
        self.responded += bytes;
        Ok((reply, kept))
    }

    /// Keeps a reply: its response in the bot's history, its data for its next turn, its
    /// debug for the log, its globaldata in its working copy.
    fn keep(&mut self, reply: reply::Reply, workdir: &Path) {
        self.responses.push(reply.response);
        self.said.extend(reply.said);
        self.data = reply.data;
        self.debug = wire::capped_debug(reply.debug);
        if let Some(g) = reply.globaldata.filter(|g| !globaldata::is_empty(g)) {
            globaldata::write(workdir, &g);
        }
    }

    /// After the reply: the bot kept running, or its process finished (a limit it passed on
    /// its way out is still its fault).
    async fn after_reply(&mut self, process: Process, kept: bool) -> Result<(), Fault> {
        if kept {
            self.kept = Some(process);
            return Ok(());
        }
        let finished = process.finish_text(None).await;
        let fault = finished
            .breach
            .map(Fault::Limit)
            .or(finished.overrun.clone());
        self.absorb(finished);
        fault.map_or(Ok(()), Err)
    }

    /// The bot's process ended on `fault`: what it left is kept, the fault returned.
    async fn ended(&mut self, process: Process, fault: Fault) -> Fault {
        let finished = process.finish_text(None).await;
        self.absorb(finished);
        fault
    }

    /// What a bot kept running reads next: the request alone, as JSON or as its line.
    fn next_request(&self, io: &BotIo) -> String {
        match io {
            BotIo::Simple(_) => self.lines.last().cloned().unwrap_or_default(),
            _ => self
                .requests
                .last()
                .map_or_else(String::new, Value::to_string),
        }
    }

    /// Starts the bot afresh for this turn (its globaldata's lock held by the caller): the
    /// first turn's limit or a later one's, then the kept-running one; its memory limit; and
    /// its input, the whole history with its data and its globaldata as they are now.
    fn start(&self, bot: &BotSeat, base: Limits) -> Result<(Process, String), Fault> {
        let globaldata = globaldata::read(&bot.workdir);
        let limits = bot.limits;
        let turn_ms = if self.requests.len() == 1 {
            limits.first_turn_ms
        } else {
            limits.turn_ms
        };
        let process_limits = Limits {
            first_reply: Duration::from_millis(turn_ms),
            reply: Duration::from_millis(limits.kept_running_ms),
            line_cap: wire::OUTPUT_CAP,
            stderr_cap: STDERR_CAP,
            ..base
        };
        // Botzone's memory limit, the one the bot is told, where the sandbox can hold its tree
        // to it (a memory cgroup); else the series' --memory-mib holds it.
        bot.sandbox.limit_memory(&bot.workdir, limits.memory_mb);
        // A simple-interaction bot's conversions are the controller's work on its behalf.
        let p = Process::spawn(&bot.sandbox, &bot.workdir, process_limits)?
            .charging(matches!(bot.io, BotIo::Simple(_)));
        let p = match &bot.transcript {
            Some((t, game)) => p.with_transcript(t.game(*game)),
            None => p,
        };
        let input = match bot.io {
            BotIo::Simple(_) => simpleio::input(
                &self.lines,
                &self.said,
                &reply::line(&self.data),
                &reply::line(&globaldata),
            ),
            _ => wire::bot_input(
                &self.requests,
                &self.responses,
                &self.data,
                &globaldata,
                turn_ms,
                limits.memory_mb,
            ),
        };
        Ok((p, input))
    }

    /// Keeps what a finished process left: its reply times and stderr.
    fn absorb(&mut self, finished: Finished) {
        self.replies.extend(finished.replies);
        append_stderr(&mut self.stderr, finished.stderr);
    }
}

/// The fault of a bot that asked to be kept running without enabling it.
fn not_kept() -> Fault {
    Fault::BadReply(
        format!(
            "it asked to be kept running ({}), which needs keep_running = true in its \
             bot.toml (Botzone's bot setting) and a game that allows it (game.toml \
             [limits] keep_running, true unless set to false); its input was closed \
             after the request, as Botzone closes it for a bot started afresh",
            wire::KEEP_RUNNING
        ),
        "bad_reply",
    )
}

/// Appends one process's stderr to a seat's, within the cap.
fn append_stderr(into: &mut StderrLog, more: StderrLog) {
    let room = STDERR_CAP
        .saturating_sub(into.kept.len())
        .min(more.kept.len());
    into.kept.extend_from_slice(&more.kept[..room]);
    into.dropped += (more.kept.len() - room) as u64 + more.dropped;
}

/// Shows the person untrusted text (the judge's display, a board with its notes).
fn show(text: &str) {
    for line in crate::untrusted::terminal_lines(text.as_bytes()) {
        eprintln!("{line}");
    }
}

/// The person's turn: shows the request (and the history), reads a JSON response.
async fn human_turn(
    console: &Console,
    requests: &[Value],
    responses: &[Value],
) -> Result<Value, Fault> {
    let turn = requests.len();
    if let Some(last) = responses.last() {
        // The judge's request and the game's history are untrusted text.
        eprintln!(
            "your last response: {}",
            crate::untrusted::terminal(&last.to_string())
        );
    }
    eprintln!(
        "turn {turn}, request: {}",
        crate::untrusted::terminal(&requests.last().unwrap_or(&Value::Null).to_string())
    );
    loop {
        eprint!("your response (JSON, e.g. {{\"x\":1,\"y\":2}}): ");
        let Some(line) = console.read_line().await else {
            return Err(Fault::Left);
        };
        let line = line.trim();
        if line.is_empty() {
            continue;
        }
        match serde_json::from_str::<Value>(line) {
            Ok(v) => return Ok(v),
            Err(e) => eprintln!("not JSON ({e}); type one JSON value"),
        }
    }
}

/// One call of the judge, started afresh with `log` and `initdata` (what `take6 verify` does
/// for every step of a recorded game): its output, checked, or why it cannot be used.
pub async fn call_once(
    spec: &JudgeSpec,
    log: &[Value],
    initdata: &Value,
    players: usize,
    base: Limits,
) -> Result<JudgeOutput, String> {
    let mut judge = Judge {
        spec: spec.clone(),
        base,
        kept: None,
        stderr: StderrLog::default(),
    };
    let called = judge.call(log, initdata, None, players).await;
    judge.finish().await;
    called
        .map(|(_, output)| output)
        .map_err(|JudgeFailed { why, .. }| {
            let stderr = String::from_utf8_lossy(&judge.stderr.kept).into_owned();
            if stderr.trim().is_empty() {
                why
            } else {
                format!("{why}; its stderr: {}", wire::excerpt(&stderr))
            }
        })
}

/// Why a call of the judge gave no output.
struct JudgeFailed {
    why: String,
    /// Whether the judge ran and read its input (it did not fail to start).
    ran: bool,
}

impl From<String> for JudgeFailed {
    fn from(why: String) -> JudgeFailed {
        JudgeFailed { why, ran: true }
    }
}

/// The judge as the game calls it: started afresh each call, or kept running when allowed.
struct Judge {
    spec: JudgeSpec,
    base: Limits,
    kept: Option<Process>,
    stderr: StderrLog,
}

impl Judge {
    /// One call: the log (or, to a judge kept running, the last responses) in, its output
    /// checked and wrapped as the log keeps it out.
    async fn call(
        &mut self,
        log: &[Value],
        initdata: &Value,
        responses: Option<&Value>,
        players: usize,
    ) -> Result<(Value, JudgeOutput), JudgeFailed> {
        let time = Duration::from_millis(self.spec.limits.time_ms);
        let (mut process, input) = match (self.kept.take(), responses) {
            (Some(p), Some(responses)) => (p, responses.to_string()),
            (kept, _) => {
                if let Some(p) = kept {
                    self.absorb(p.finish_text(None).await);
                }
                let limits = Limits {
                    first_reply: time,
                    reply: time,
                    line_cap: wire::OUTPUT_CAP,
                    stderr_cap: STDERR_CAP,
                    ..self.base
                };
                self.spec
                    .sandbox
                    .limit_memory(&self.spec.workdir, self.spec.limits.memory_mb);
                let p = Process::spawn(&self.spec.sandbox, &self.spec.workdir, limits).map_err(
                    |f| JudgeFailed {
                        why: format!("the judge {f}"),
                        ran: false,
                    },
                )?;
                (p, wire::judge_input(log, initdata))
            }
        };
        let started = Instant::now();
        let asked = process
            .ask_until(
                &format!("{input}\n"),
                wire::KEEP_RUNNING,
                wire::OUTPUT_CAP,
                !self.spec.limits.keep_running,
            )
            .await;
        let (lines, kept) = match asked {
            Ok(reply) => reply,
            Err(fault) => {
                self.absorb(process.finish_text(None).await);
                return Err(format!("the judge faulted: {fault}").into());
            }
        };
        let time_ms = started.elapsed().as_millis() as u64;
        let text = lines.join("\n");
        let output = match wire::parse_judge(&text, players) {
            Ok(output) => output,
            Err(bad) => {
                self.absorb(process.finish_text(None).await);
                return Err(format!("the judge's answer cannot be used: {bad}").into());
            }
        };
        let kept = kept && self.spec.limits.keep_running;
        if kept {
            self.kept = Some(process);
        } else {
            self.absorb(process.finish_text(None).await);
        }
        // Time and memory are written as 0: the log is the game's record, the same however
        // loaded the machine was (the judge's time is in its reply times).
        let _ = time_ms;
        let entry = wire::judge_entry(&output.raw, kept, 0, 0);
        Ok((entry, output))
    }

    fn absorb(&mut self, finished: Finished) {
        append_stderr(&mut self.stderr, finished.stderr);
    }

    async fn finish(&mut self) {
        if let Some(p) = self.kept.take() {
            let finished = p.finish_text(None).await;
            self.absorb(finished);
        }
    }
}

#[cfg(test)]
mod tests {
    use std::os::unix::fs::PermissionsExt;
    use std::path::Path;

    use serde_json::json;

    use super::*;

    fn fixtures() -> PathBuf {
        Path::new(env!("CARGO_MANIFEST_DIR")).join("tests")
    }

    /// A working copy of `from`'s files in a new folder, with `launch` running `command`.
    fn copy(from: &Path, command: &str, keep: bool) -> tempfile::TempDir {
        let dir = tempfile::tempdir().unwrap();
        for entry in std::fs::read_dir(from).into_iter().flatten().flatten() {
            if entry.path().is_file() {
                std::fs::copy(entry.path(), dir.path().join(entry.file_name())).unwrap();
            }
        }
        let launch = dir.path().join("launch");
        std::fs::write(&launch, format!("#!/bin/sh\n{command}\n")).unwrap();
        std::fs::set_permissions(&launch, std::fs::Permissions::from_mode(0o755)).unwrap();
        if keep {
            std::fs::write(dir.path().join("keep"), "").unwrap();
        }
        dir
    }

    fn c_bot(keep: bool) -> tempfile::TempDir {
        let dir = copy(&fixtures().join("bots/bz-c"), "exec ./bot", keep);
        let built = std::process::Command::new("gcc")
            .args(["-O2", "-o", "bot", "bot.c"])
            .current_dir(dir.path())
            .status()
            .unwrap();
        assert!(built.success());
        dir
    }

    fn py_bot(keep: bool) -> tempfile::TempDir {
        copy(
            &fixtures().join("bots/bz-py"),
            "exec python3 -u bot.py",
            keep,
        )
    }

    fn limits() -> BotLimits {
        BotLimits {
            first_turn_ms: 10_000,
            turn_ms: 10_000,
            kept_running_ms: 10_000,
            memory_mb: 256,
            keep_running: true,
        }
    }

    fn seat(dir: &tempfile::TempDir) -> SeatKind {
        SeatKind::Bot {
            workdir: dir.path().to_path_buf(),
            sandbox: Arc::new(Sandbox::none()),
            limits: limits(),
            transcript: None,
            io: BotIo::Json,
        }
    }

    fn base() -> Limits {
        Limits {
            clock: crate::sandbox::Clock::Wall,
            grace: Duration::from_millis(500),
            ..Limits::default()
        }
    }

    async fn duel(a: &tempfile::TempDir, b: &tempfile::TempDir, keep_judge: bool) -> Played {
        let judge = copy(
            &fixtures().join("games/duel"),
            "exec python3 -u judge.py",
            false,
        );
        let spec = JudgeSpec {
            workdir: judge.path().to_path_buf(),
            sandbox: Arc::new(Sandbox::none()),
            limits: JudgeLimits {
                time_ms: 10_000,
                memory_mb: 1024,
                keep_running: keep_judge,
            },
        };
        let initdata = json!({"rounds": 5, "keep": keep_judge});
        play("duel", &spec, &initdata, vec![seat(a), seat(b)], base()).await
    }

    fn stderr(p: &Played) -> String {
        let mut all = String::from_utf8_lossy(&p.judge_stderr.kept).into_owned();
        for (_, _, e) in &p.seats {
            all.push_str(&String::from_utf8_lossy(&e.kept));
        }
        all
    }

    #[tokio::test]
    async fn strict_bots_in_both_modes_play_the_strict_judge() {
        for (keep_a, keep_b, keep_judge) in [
            (false, false, false),
            (true, false, true),
            (false, true, false),
            (true, true, true),
        ] {
            let (a, b) = (c_bot(keep_a), py_bot(keep_b));
            for game in 0..2 {
                let p = duel(&a, &b, keep_judge).await;
                assert!(p.faults.is_empty(), "{:?}\n{}", p.faults, stderr(&p));
                // Both play the same numbers: every round is a tie.
                assert_eq!(p.scores, Ok(vec![1.0, 1.0]), "{}", stderr(&p));
                assert_eq!(p.log.len(), 11);
                let replies: Vec<usize> = p.seats.iter().map(|s| s.1.len()).collect();
                assert_eq!(replies, [5, 5]);
                for dir in [&a, &b] {
                    let kept = std::fs::read_to_string(dir.path().join(GLOBALDATA)).unwrap();
                    assert_eq!(kept, format!("\"games {}\"", game + 1));
                }
            }
        }
    }

    #[tokio::test]
    async fn faults_reach_the_judge_as_verdicts() {
        let good = py_bot(false);
        for (command, verdict, kind) in [
            ("exit 3", "RE", "exited"),
            ("echo hello", "NJ", "bad_reply"),
            ("sleep 30", "TLE", "timeout"),
            ("echo", "NJ", "bad_reply"),
        ] {
            let bad = copy(Path::new("/nonexistent"), command, false);
            let mut spec_limits = limits();
            spec_limits.first_turn_ms = 300;
            let seats = vec![
                SeatKind::Bot {
                    workdir: bad.path().to_path_buf(),
                    sandbox: Arc::new(Sandbox::none()),
                    limits: spec_limits,
                    transcript: None,
                    io: BotIo::Json,
                },
                seat(&good),
            ];
            let judge = copy(
                &fixtures().join("games/duel"),
                "exec python3 -u judge.py",
                false,
            );
            let spec = JudgeSpec {
                workdir: judge.path().to_path_buf(),
                sandbox: Arc::new(Sandbox::none()),
                limits: JudgeLimits {
                    time_ms: 10_000,
                    memory_mb: 1024,
                    keep_running: false,
                },
            };
            let p = play("duel", &spec, &json!({"rounds": 5}), seats, base()).await;
            assert_eq!(p.scores, Ok(vec![0.0, 2.0]), "{command}: {}", stderr(&p));
            assert_eq!(p.faults.len(), 1, "{command}");
            assert_eq!(
                p.faults[0].fault.kind(),
                kind,
                "{command}: {}",
                p.faults[0].fault
            );
            assert_eq!(p.log[1]["0"]["verdict"], json!(verdict), "{command}");
            assert_eq!(p.log[1]["0"]["response"], json!(null), "{command}");
        }
    }
}
