//! An external bot: one child process per game, spoken to line by line, whatever the game.
//!
//! [`Process`] is the one connection type for a bot (after mini-redis's `Connection`): it owns
//! the framing (bounded line reads), the time limits, the stderr drain and its cap, and the
//! shutdown. Starting, sandboxing, resource limits and killing the whole tree belong to the
//! [`Sandbox`] launcher. Nothing a bot does can block the controller for longer than the bot's
//! own time limits. What is said is the game's: it writes its messages as text
//! ([`Process::queue_text`]) or straight into the pending buffer ([`Process::queue_with`]),
//! and reads the reply lines it gets back.

use std::time::{Duration, Instant};

use futures::StreamExt;
use tokio::io::{AsyncRead, AsyncReadExt, AsyncWriteExt};
use tokio::task::JoinHandle;
use tokio::time::timeout;
use tokio_util::codec::{FramedRead, LinesCodec, LinesCodecError};

use super::Fault;
use super::transcript::GameTranscript;
use crate::sandbox::{Clock, Launched, Sandbox, SpawnError, Tree};

/// The bot's end of a pipe, as the launcher hands it over.
type Writer = Box<dyn tokio::io::AsyncWrite + Send + Unpin>;
type Reader = Box<dyn AsyncRead + Send + Unpin>;

/// The limits a bot plays under.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Limits {
    /// For the first reply of a game, which includes the bot's start-up.
    pub first_reply: Duration,
    /// For every later reply.
    pub reply: Duration,
    /// How long a bot may take to exit once its input is closed, before its process group is
    /// killed.
    pub grace: Duration,
    /// The longest reply line accepted, in bytes.
    pub line_cap: usize,
    /// How much of a bot's stderr is kept per game, in bytes; the rest is drained and counted.
    pub stderr_cap: usize,
    /// What the reply limits measure; CPU time only where the sandbox can account it.
    pub clock: Clock,
    /// Under the CPU clock, a reply also fails after this many times its limit of wall time
    /// (a bot that blocks uses no CPU).
    pub wall_factor: u32,
    /// Whether the reply limits were set for this series (a flag, `take6.toml`) rather than
    /// left at the game's defaults: a game whose defaults differ per bot (a Botzone game's,
    /// per language) applies its own only when they were not.
    pub reply_given: bool,
}

impl Default for Limits {
    fn default() -> Self {
        Limits {
            first_reply: Duration::from_millis(3000),
            reply: Duration::from_millis(1000),
            grace: Duration::from_millis(1000),
            line_cap: 1024,
            stderr_cap: 64 * 1024,
            clock: Clock::Cpu,
            wall_factor: 10,
            reply_given: false,
        }
    }
}

/// What a bot wrote to stderr during one game, capped.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct StderrLog {
    /// The first `stderr_cap` bytes.
    pub kept: Vec<u8>,
    /// How many bytes past the cap were read and thrown away.
    pub dropped: u64,
}

/// How long one reply took, from the message written to the line read.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ReplyTime {
    /// CPU time of the bot's whole tree, when the sandbox accounts it.
    pub cpu_us: Option<u64>,
    pub wall_us: u64,
}

/// A bot's game, once it has ended.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Finished {
    pub stderr: StderrLog,
    /// A limit its tree passed (e.g. its working copy grew past the disk limit), found at the end.
    pub breach: Option<crate::sandbox::Breach>,
    /// Each reply's time, in order.
    pub replies: Vec<ReplyTime>,
    /// More CPU time after its last reply than a reply may use (see [`Fault::CpuOverrun`]).
    pub overrun: Option<Fault>,
}

/// Where a reply ends.
#[derive(Clone, Copy)]
enum End<'a> {
    /// After this many lines.
    Lines(usize),
    /// At a line equal to this marker, or at the end of the output when the bot exits cleanly.
    Marker(&'a str),
}

/// The clock of one reply (see [`Process::reply_clock`]).
#[derive(Clone, Copy)]
struct ReplyClock {
    /// The reply's time limit.
    limit: Duration,
    /// The tree's CPU counter the reply's CPU time counts from, under the CPU clock.
    cpu_start: Option<u64>,
    /// When reading the reply began.
    started: Instant,
    /// The controller's CPU time, in µs, charged to the reply.
    charged: u64,
    /// When the reply is late.
    deadline: tokio::time::Instant,
}

/// How often, at most, the CPU clock of a waiting bot is read.
const CPU_POLL: Duration = Duration::from_millis(5);

/// The share of one processor a tree used in the last poll before the wall-clock net that
/// says it was still running (starved of a processor) rather than waiting: a waiting process
/// uses none.
const RUNNING_SHARE: f64 = 0.02;

/// The least span over which [`RUNNING_SHARE`] is measured (a bot that computes in bursts
/// between short waits is running; one poll's span may be too short to see a burst).
const RUNNING_SPAN: Duration = Duration::from_millis(250);

/// After part of a reply, a tree that uses less than [`IDLE_CPU_US`] of CPU time in this much
/// wall time is waiting for input (a process runnable on a loaded machine still gets far
/// more), so the partial reply is a fault at once.
const IDLE: Duration = Duration::from_millis(1000);
const IDLE_CPU_US: u64 = 2_000;

/// Under the CPU clock, a reply reads the tree's memory and process counters (a limit its
/// tree ran into, whether or not the bot survived it) once the tree has used this much CPU
/// time since they were last read, instead of at every reply: running into either limit
/// takes work (touching the pages, forking up to the limit), and what is not seen at a reply
/// is seen at the next one that is checked, at a fault, or at the end of the game, where every
/// limit is checked. Two reads fewer per reply: reading the cgroup counters was the largest
/// single part of what a sandboxed seat costs the controller (docs/performance.md, "A
/// sandboxed seat").
const BREACH_CPU_US: u64 = 1_000;

/// A running bot.
pub struct Process {
    /// The bot's process tree: its clock, its limits, its end.
    tree: Tree,
    stdin: Option<Writer>,
    stdout: FramedRead<Reader, LinesCodec>,
    stderr: Option<JoinHandle<StderrLog>>,
    limits: Limits,
    /// Whether the controller's CPU time spent on the bot's behalf ([`Process::queue_with`],
    /// [`Process::on_behalf`]) is the bot's own (see [`Process::charging`]).
    charging: bool,
    replied: bool,
    /// Set when a message could not be delivered; reported at the next question.
    broken: Option<Fault>,
    replies: Vec<ReplyTime>,
    /// Where messages and replies are recorded (`take6 check`), if anywhere.
    transcript: Option<GameTranscript>,
    /// The tree's CPU counter at the last reply, where the next reply's time starts.
    last_cpu: Option<u64>,
    /// The tree's CPU counter when its memory and process counters were last read (see
    /// [`BREACH_CPU_US`]).
    breach_read_at: u64,
    /// The controller's CPU time, in µs, spent on the bot's behalf since the last reply
    /// (rendering and parsing through its own templates): added to the next reply's time (zero
    /// unless [`Process::charging`]).
    charged_us: u64,
    /// Messages written and not yet sent, end to end (see [`Process::flush`]); the buffer is
    /// kept between writes.
    pending: String,
    /// Where each message in `pending` ends, kept only for a transcript.
    ends: Vec<usize>,
}

impl Process {
    /// Starts the `launch` of the working copy `workdir` through the launcher. A failure to
    /// start is the bot's fault, returned as such.
    pub fn spawn(
        sandbox: &std::sync::Arc<Sandbox>,
        workdir: &std::path::Path,
        limits: Limits,
    ) -> Result<Process, Fault> {
        if let Some(why) = sandbox.benched(workdir) {
            return Err(Fault::Benched(why));
        }
        let launch = workdir.join("launch");
        let Launched {
            stdin,
            stdout,
            stderr,
            tree,
        } = sandbox.launch_game(workdir).map_err(|e| match e {
            SpawnError::Breach(breach) => Fault::Limit(breach),
            e => Fault::CouldNotStart(format!("{}: {e}", launch.display())),
        })?;
        let cap = limits.stderr_cap;
        Ok(Process {
            tree,
            stdin: Some(stdin),
            stdout: FramedRead::new(stdout, LinesCodec::new_with_max_length(limits.line_cap)),
            stderr: Some(tokio::spawn(drain(stderr, cap))),
            limits,
            charging: false,
            replied: false,
            broken: None,
            replies: Vec::new(),
            transcript: None,
            last_cpu: None,
            breach_read_at: 0,
            charged_us: 0,
            pending: String::new(),
            ends: Vec::new(),
        })
    }

    /// Records every message and reply of this bot in `transcript`.
    pub fn with_transcript(mut self, transcript: GameTranscript) -> Process {
        self.transcript = Some(transcript);
        self
    }

    /// Makes the controller's CPU time spent on this bot's behalf (`charging`: its game says
    /// the work is the bot's own, e.g. rendering and parsing through the bot's own templates)
    /// count against the bot: added to its next reply's time, or to the time after its last
    /// reply (see [`Fault::CpuOverrun`]). Otherwise a bot could compute its move in code the
    /// controller runs for it, on nobody's clock.
    pub fn charging(mut self, charging: bool) -> Process {
        self.charging = charging;
        self
    }

    /// Whether this bot's reply limits measure CPU time.
    fn cpu_clock(&self) -> bool {
        self.limits.clock == Clock::Cpu && self.tree.cpu_clock()
    }

    /// Queues the message `write` appends to the pending buffer (nothing: no message) for
    /// the next write, unless an earlier message could not be delivered: the game writes its
    /// message in place, with no copy. A fault `write` returns (a template that failed) is the
    /// bot's, as if the message could not be delivered. Its CPU time is the bot's when
    /// [`Process::charging`].
    pub fn queue_with(
        &mut self,
        write: impl FnOnce(&mut String) -> Result<(), Fault>,
    ) -> Result<(), Fault> {
        if let Some(fault) = &self.broken {
            return Err(fault.clone());
        }
        self.write_into_queue(write)
    }

    /// Appends the message `write` writes to the queue, whether or not the bot faulted.
    fn write_into_queue(
        &mut self,
        write: impl FnOnce(&mut String) -> Result<(), Fault>,
    ) -> Result<(), Fault> {
        let before = self.pending.len();
        let started = self.charging.then(thread_cpu_us);
        let written = write(&mut self.pending);
        if let Some(started) = started {
            self.charged_us += thread_cpu_us().saturating_sub(started);
        }
        match written {
            Ok(()) => {
                if self.pending.len() > before && self.transcript.is_some() {
                    self.ends.push(self.pending.len());
                }
                Ok(())
            }
            Err(fault) => {
                self.pending.truncate(before);
                Err(self.mark_broken(fault))
            }
        }
    }

    /// Counts `cpu_us` of the controller's CPU time spent on the bot's behalf on another
    /// thread (a game's conversion of its next input) with the bot's next reply, when
    /// [`Process::charging`].
    pub fn charge(&mut self, cpu_us: u64) {
        if self.charging {
            self.charged_us += cpu_us;
        }
    }

    /// The time of the bot's last reply, if it replied.
    pub fn last_reply(&self) -> Option<ReplyTime> {
        self.replies.last().copied()
    }

    /// Runs `work`, the controller's work on the bot's behalf (parsing its reply through its
    /// own reply pattern): its CPU time is counted with the bot's next reply when
    /// [`Process::charging`].
    pub fn on_behalf<T>(&mut self, work: impl FnOnce() -> T) -> T {
        if !self.charging {
            return work();
        }
        let started = thread_cpu_us();
        let done = work();
        self.charged_us += thread_cpu_us().saturating_sub(started);
        done
    }

    /// Notes `fault`, found by the game in a reply it cannot use (not a number, a card not
    /// held): the bot has faulted, and it is told so by its game's last message, if any, not
    /// by the news queued before (see [`Process::finish_with`]). Returns the fault (a limit the
    /// bot's tree ran into is the fault, if there is one).
    pub fn faulted(&mut self, fault: Fault) -> Fault {
        self.mark_broken(fault)
    }

    /// Forgets the messages not yet written.
    fn clear_queue(&mut self) {
        self.pending.clear();
        self.ends.clear();
    }

    /// Writes the queued messages in one write: news (`used`, `cardgain`, ...) waits for the
    /// next question or the last message, so a bot wakes once per turn instead of once per
    /// message, and reads the same lines in the same order.
    async fn flush(&mut self) -> Result<(), Fault> {
        if self.pending.is_empty() {
            return Ok(());
        }
        // A bot that stops reading could fill the pipe; it gets as long as for a reply (of wall
        // time, with the safety net's margin under the CPU clock).
        let limit = if self.cpu_clock() {
            self.limits.reply * self.limits.wall_factor
        } else {
            self.limits.reply
        };
        let Some(stdin) = self.stdin.as_mut() else {
            self.clear_queue();
            return Err(self.mark_broken(Fault::Exited { status: None }));
        };
        // Almost every write fits in the pipe at once: only one that has to wait gets a timer
        // (registering one can wake the runtime's timer thread).
        let write = stdin.write_all(self.pending.as_bytes());
        tokio::pin!(write);
        let written = match futures::poll!(write.as_mut()) {
            std::task::Poll::Ready(done) => Ok(done),
            std::task::Poll::Pending => timeout(limit, write).await,
        };
        if let (Ok(Ok(())), Some(t)) = (&written, &mut self.transcript) {
            let mut start = 0;
            for &end in &self.ends {
                t.sent(&self.pending[start..end]);
                start = end;
            }
        }
        self.clear_queue();
        match written {
            Ok(Ok(())) => Ok(()),
            Ok(Err(_)) => {
                let status = self.exit_status();
                Err(self.mark_broken(Fault::Exited { status }))
            }
            Err(_) => Err(self.mark_broken(Fault::Timeout {
                ms: limit.as_millis() as u64,
                clock: Clock::Wall,
            })),
        }
    }

    /// Remembers `fault`; a bot that died, went silent or stopped reading because its tree
    /// ran into a limit faulted for that limit.
    fn mark_broken(&mut self, fault: Fault) -> Fault {
        let fault = match (&fault, self.tree.breach()) {
            (Fault::Limit(_), _) | (_, None) => fault,
            (_, Some(breach)) => Fault::Limit(breach),
        };
        self.broken = Some(fault.clone());
        fault
    }

    fn exit_status(&mut self) -> Option<String> {
        self.tree.exit_status()
    }

    /// Sends the question `write` appends to the pending buffer (after whatever news is
    /// queued; see [`Process::queue_with`]) and reads one reply line within the time limit.
    pub async fn ask_with(
        &mut self,
        write: impl FnOnce(&mut String) -> Result<(), Fault>,
    ) -> Result<String, Fault> {
        self.queue_with(write)?;
        self.flush().await?;
        let mut reply = None;
        self.read_reply(End::Lines(1), |line| reply = Some(line))
            .await?;
        Ok(reply.expect("one line read"))
    }

    /// Queues `text`, a message written by a game's own wire code, for the next write: news
    /// waits for the next question, so a bot wakes once per turn.
    pub fn queue_text(&mut self, text: &str) {
        if self.broken.is_none() {
            self.pending.push_str(text);
            if self.transcript.is_some() {
                self.ends.push(self.pending.len());
            }
        }
    }

    /// Sends `text` (after whatever news is queued) and reads `lines` reply lines as one reply:
    /// one time limit, one CPU count and one reply time for all of them (a Kingdomino turn is
    /// answered by `PUT` and `PICK` together).
    pub async fn ask_lines(&mut self, text: &str, lines: usize) -> Result<Vec<String>, Fault> {
        if let Some(fault) = &self.broken {
            return Err(fault.clone());
        }
        self.queue_text(text);
        self.flush().await?;
        let mut reply = Vec::with_capacity(lines);
        self.read_reply(End::Lines(lines), |line| reply.push(line))
            .await?;
        Ok(reply)
    }

    /// Sends `text` (after whatever news is queued), closing the bot's input after it when
    /// `close` (a program that reads its input to the end), and reads the reply as every line
    /// up to a line equal to `marker` (not kept), or up to the end of the bot's output: one time
    /// limit, one CPU count and one reply time for all of them, at most `max_bytes` in all. A
    /// bot that ends its output by exiting with a failure (a non-zero status, a signal) has
    /// faulted; one that exits cleanly has replied. Returns the lines and whether the marker
    /// ended them (the bot then runs on for the next question).
    pub async fn ask_until(
        &mut self,
        text: &str,
        marker: &str,
        max_bytes: usize,
        close: bool,
    ) -> Result<(Vec<String>, bool), Fault> {
        if let Some(fault) = &self.broken {
            return Err(fault.clone());
        }
        self.queue_text(text);
        if let Err(fault) = self.flush().await {
            // A program that exits without reading all its input may still have answered:
            // what it printed decides.
            if !matches!(fault, Fault::Exited { .. }) {
                return Err(fault);
            }
            self.broken = None;
        }
        if close {
            drop(self.stdin.take());
        }
        let mut reply = Vec::new();
        let mut bytes = 0usize;
        let mut too_long = false;
        let marked = self
            .read_reply(End::Marker(marker), |line| {
                bytes += line.len() + 1;
                too_long |= bytes > max_bytes;
                if !too_long {
                    reply.push(line);
                }
            })
            .await?;
        if too_long {
            return Err(self.mark_broken(Fault::LineTooLong { cap: max_bytes }));
        }
        Ok((reply, marked))
    }

    /// Reads reply lines until `end` within the reply's time limit, handing each to `take`:
    /// under the CPU clock the whole tree's CPU time since the previous reply (the first: since
    /// it started) is checked when the reply is complete, however fast it came. Returns
    /// whether a marker ended the reply.
    async fn read_reply(
        &mut self,
        end: End<'_>,
        mut take: impl FnMut(String),
    ) -> Result<bool, Fault> {
        let clock = self.reply_clock();
        let ReplyClock {
            limit,
            cpu_start,
            started,
            charged,
            ..
        } = clock;
        let mut read = 0usize;
        loop {
            let line = self.next_line(&clock, end, read).await;
            let fault = match line {
                Err(timeout) => timeout,
                Ok(Some(Ok(line))) => {
                    if let Some(t) = &mut self.transcript {
                        t.reply(&line);
                    }
                    read += 1;
                    let marked = match end {
                        End::Lines(lines) if read < lines => {
                            take(line);
                            continue;
                        }
                        End::Lines(_) => {
                            take(line);
                            false
                        }
                        End::Marker(marker) if line == marker => true,
                        End::Marker(_) => {
                            take(line);
                            continue;
                        }
                    };
                    match self.complete_reply(cpu_start, started, charged, limit) {
                        Some(fault) => fault,
                        None => return Ok(marked),
                    }
                }
                Ok(None) if matches!(end, End::Marker(_)) => {
                    // The end of its output ends the reply, when the bot exits cleanly.
                    let status = self.tree.wait_exit(self.limits.grace).await;
                    match status {
                        Some(s) if !s.ends_with("status: 0") => Fault::Exited { status: Some(s) },
                        _ => match self.complete_reply(cpu_start, started, charged, limit) {
                            Some(fault) => fault,
                            None => return Ok(false),
                        },
                    }
                }
                Ok(Some(Err(LinesCodecError::MaxLineLengthExceeded))) => Fault::LineTooLong {
                    cap: self.limits.line_cap,
                },
                Ok(Some(Err(LinesCodecError::Io(e))))
                    if e.kind() == std::io::ErrorKind::InvalidData =>
                {
                    Fault::BadReply("reply is not UTF-8 text".into(), "bad_reply")
                }
                Ok(Some(Err(LinesCodecError::Io(_)))) | Ok(None) => {
                    // Give the exit status a moment to be reaped so the reason can name it.
                    let status = self.tree.wait_exit(Duration::from_millis(50)).await;
                    Fault::Exited { status }
                }
            };
            return Err(self.mark_broken(fault));
        }
    }

    /// The clock of the reply about to be read: its limit, where its CPU time counts from
    /// (under the CPU clock), when it started, the time charged to it and its deadline.
    fn reply_clock(&mut self) -> ReplyClock {
        let limit = if self.replied {
            self.limits.reply
        } else {
            self.limits.first_reply
        };
        // The first reply's CPU time includes the start-up: the tree's cgroup is new. A later
        // one counts from the last reply: what the tree did since (its news, or thinking on
        // while the others think) is its own time too, and the counter is not read again.
        let cpu_start = match (self.cpu_clock(), self.replied) {
            (false, _) => None,
            (true, false) => Some(0),
            (true, true) => self.last_cpu.or_else(|| self.tree.cpu_us()),
        };
        let started = Instant::now();
        let charged = std::mem::take(&mut self.charged_us);
        let deadline = tokio::time::Instant::now()
            + match cpu_start {
                Some(_) => limit * self.limits.wall_factor,
                None => limit,
            };
        ReplyClock {
            limit,
            cpu_start,
            started,
            charged,
            deadline,
        }
    }

    /// The next line of a reply by `clock`'s deadline, `read` lines of it read so far.
    async fn next_line(
        &mut self,
        clock: &ReplyClock,
        end: End<'_>,
        read: usize,
    ) -> Result<Option<Result<String, LinesCodecError>>, Fault> {
        let ReplyClock {
            limit,
            cpu_start,
            charged,
            deadline,
            ..
        } = *clock;
        // Part of a reply of several lines came: the rest comes soon, or the bot is
        // waiting for input (a reply ended by a marker or an exit has no count).
        let partial = match end {
            End::Lines(lines) if read > 0 => Some(lines),
            _ => None,
        };
        match cpu_start {
            _ if let Some(lines) = partial => self.read_rest(read, lines, deadline).await,
            Some(start) => self.read_line_cpu(limit, start, charged, deadline).await,
            None => tokio::time::timeout_at(deadline, self.stdout.next())
                .await
                .map_err(|_| Fault::Timeout {
                    ms: limit.as_millis() as u64,
                    clock: Clock::Wall,
                }),
        }
    }

    /// Notes a complete reply: its time, and the fault of a tree that ran into its memory or
    /// process limit (even if the bot itself survived to reply; read once the tree has worked
    /// [`BREACH_CPU_US`] since the last read) or used more than its CPU time (in background
    /// processes, or between two reads of its clock), however fast it came.
    fn complete_reply(
        &mut self,
        cpu_start: Option<u64>,
        started: Instant,
        charged: u64,
        limit: Duration,
    ) -> Option<Fault> {
        self.replied = true;
        let cpu_now = cpu_start.and_then(|_| self.tree.cpu_us());
        self.last_cpu = cpu_now;
        let used = cpu_now
            .zip(cpu_start)
            .map(|(now, start)| now.saturating_sub(start) + charged);
        self.replies.push(ReplyTime {
            cpu_us: used,
            wall_us: started.elapsed().as_micros() as u64,
        });
        let breach = match cpu_now {
            Some(now) if now.saturating_sub(self.breach_read_at) < BREACH_CPU_US => None,
            _ => {
                self.breach_read_at = cpu_now.unwrap_or(0);
                self.tree.counted_breach()
            }
        };
        match (breach, used) {
            (Some(breach), _) => Some(Fault::Limit(breach)),
            (None, Some(used)) if used > limit.as_micros() as u64 => {
                Some(overrun(used, limit, charged, false))
            }
            (None, _) => None,
        }
    }

    /// Reads a later line of a reply of `want` lines, `got` of them read: a bot whose tree
    /// then uses no CPU time for [`IDLE`] is waiting for input, which is said at once as a
    /// partial reply; so is a reply still short at `deadline`. The reply's CPU time is checked
    /// once it is complete.
    async fn read_rest(
        &mut self,
        got: usize,
        want: usize,
        deadline: tokio::time::Instant,
    ) -> Result<Option<Result<String, LinesCodecError>>, Fault> {
        loop {
            let before = self.tree.cpu_us();
            let wake = deadline.min(tokio::time::Instant::now() + IDLE);
            tokio::select! {
                line = self.stdout.next() => return Ok(line),
                () = tokio::time::sleep_until(wake) => {}
            }
            let idle = before
                .zip(self.tree.cpu_us())
                .is_some_and(|(before, now)| now.saturating_sub(before) < IDLE_CPU_US);
            if idle || tokio::time::Instant::now() >= deadline {
                return Err(Fault::Partial {
                    got,
                    want,
                    idle_ms: idle.then(|| IDLE.as_millis() as u64),
                });
            }
        }
    }

    /// Reads one line under the CPU clock: the tree may use `limit` of CPU time since the
    /// tree's CPU counter read `start`, of which `charged` µs are already spent (the
    /// controller's work on the bot's behalf, see [`Process::charging`]), until `deadline` (`wall_factor`
    /// times `limit` of wall time after the question).
    async fn read_line_cpu(
        &mut self,
        limit: Duration,
        start: u64,
        charged: u64,
        deadline: tokio::time::Instant,
    ) -> Result<Option<Result<String, LinesCodecError>>, Fault> {
        let net = limit * self.limits.wall_factor;
        let limit_us = limit.as_micros() as u64;
        let cpus = cpu_count();
        let mut used = charged;
        if used >= limit_us {
            return Err(overrun(used, limit, charged, false));
        }
        // The CPU time at two polls at least RUNNING_SPAN apart (the older, the newer), and
        // when: whether the tree was still using CPU time when the wall-clock net came.
        let mut marks = [(tokio::time::Instant::now(), used); 2];
        loop {
            // The tree cannot use its remaining CPU time faster than on every CPU at once.
            let nap = (Duration::from_micros(limit_us - used) / cpus).max(CPU_POLL);
            let wake = deadline.min(tokio::time::Instant::now() + nap);
            tokio::select! {
                line = self.stdout.next() => return Ok(line),
                () = tokio::time::sleep_until(wake) => {}
            }
            used = self.tree.cpu_us().unwrap_or(start).saturating_sub(start) + charged;
            if used >= limit_us {
                return Err(Fault::Timeout {
                    ms: limit.as_millis() as u64,
                    clock: Clock::Cpu,
                });
            }
            let now = tokio::time::Instant::now();
            if now >= deadline {
                let recent = now.duration_since(marks[1].0) >= RUNNING_SPAN;
                let mark = marks[usize::from(recent)];
                let span = now.duration_since(mark.0).as_micros().max(1) as f64;
                let share = used.saturating_sub(mark.1) as f64 / span;
                return Err(Fault::Blocked {
                    wall_ms: net.as_millis() as u64,
                    cpu_ms: used.saturating_sub(charged) / 1000,
                    running: share >= RUNNING_SHARE,
                });
            }
            if now.duration_since(marks[1].0) >= RUNNING_SPAN {
                marks = [marks[1], (now, used)];
            }
        }
    }

    /// Ends the game for this bot: sends the last message `write` appends to the pending
    /// buffer (a score, or the news that it faulted), closes its input, waits up to the grace
    /// period for it to exit, then kills its whole tree (whatever it left behind goes too).
    /// Returns what it wrote to stderr, its reply times, and a limit its tree passed, if any.
    pub async fn finish_with(
        mut self,
        write: impl FnOnce(&mut String) -> Result<(), Fault>,
    ) -> Finished {
        // Best effort even after a fault: the news that it faulted is exactly the message a
        // bot that just faulted should get (and the news queued before the fault is not).
        if self.broken.is_some() {
            self.clear_queue();
        }
        if self.write_into_queue(write).is_ok() {
            let _ = self.flush().await;
        }
        self.shut_down().await
    }

    /// [`Process::finish_with`] with a last message written by a game's own wire code, if
    /// any.
    pub async fn finish_text(self, last: Option<&str>) -> Finished {
        match last {
            Some(text) => {
                self.finish_with(|out| {
                    out.push_str(text);
                    Ok(())
                })
                .await
            }
            None => self.shut_down().await,
        }
    }

    /// Closes the bot's input, gives it the grace period to exit, kills its tree and gathers
    /// what it left: stderr, reply times, a limit passed, CPU used after its last reply.
    async fn shut_down(mut self) -> Finished {
        drop(self.stdin.take());
        let overrun = self.overrun_after_last().await;
        if self.tree.has_child() {
            let _ = self.tree.wait_exit(self.limits.grace).await;
        } else {
            // In a warm sandbox the bot is not our child: its closed output says it is done.
            let stdout = &mut self.stdout;
            let _ = timeout(self.limits.grace, async {
                while let Some(Ok(_)) = stdout.next().await {}
            })
            .await;
        }
        self.tree.kill();
        let _ = self.tree.wait_exit(Duration::from_secs(5)).await;
        Finished {
            stderr: self.stderr_left().await,
            breach: self.tree.breach(),
            replies: std::mem::take(&mut self.replies),
            overrun,
        }
    }

    /// Ends the bot at once, as Botzone ends a bot kept running when its game ends: its tree
    /// is killed without a grace period, and nothing it does after its last reply is its
    /// fault (no CPU counted, no limit checked). Returns its stderr and reply times.
    pub async fn kill(mut self) -> Finished {
        drop(self.stdin.take());
        self.tree.kill();
        let _ = self.tree.wait_exit(Duration::from_secs(5)).await;
        Finished {
            stderr: self.stderr_left().await,
            breach: None,
            replies: std::mem::take(&mut self.replies),
            overrun: None,
        }
    }

    /// What the bot wrote to stderr, once its tree is gone (so that stderr reaches end of
    /// file; not waited for ever all the same).
    async fn stderr_left(&mut self) -> StderrLog {
        match self.stderr.take() {
            Some(task) => match timeout(Duration::from_millis(500), task).await {
                Ok(Ok(log)) => log,
                _ => StderrLog::default(),
            },
            None => StderrLog::default(),
        }
    }

    /// The CPU its tree used after its last reply, checked against the reply limit: once its
    /// input is closed the bot may exit in its own time (up to the grace period), and what its
    /// tree uses meanwhile is counted up to the moment the tree is killed, as one more reply
    /// would be. A bot that faulted earlier is not checked again.
    async fn overrun_after_last(&mut self) -> Option<Fault> {
        if self.broken.is_some() || !self.replied || !self.cpu_clock() {
            return None;
        }
        let start = self.last_cpu?;
        if self.tree.has_child() {
            let _ = self.tree.wait_exit(self.limits.grace).await;
        } else {
            // In a warm sandbox the bot is not our child: its closed output says it is done.
            let stdout = &mut self.stdout;
            let _ = timeout(self.limits.grace, async {
                while let Some(Ok(_)) = stdout.next().await {}
            })
            .await;
        }
        // Whatever is left of the tree (a background thinker) is stopped before it is read.
        self.tree.kill();
        let used = self.tree.cpu_us()?.saturating_sub(start) + self.charged_us;
        (used > self.limits.reply.as_micros() as u64)
            .then(|| overrun(used, self.limits.reply, self.charged_us, true))
    }
}

/// The fault of a tree that used `used` µs of CPU time against `limit`, `charged` µs of them
/// the controller's on its behalf ([`Process::charging`]).
fn overrun(used: u64, limit: Duration, charged: u64, after_last: bool) -> Fault {
    Fault::CpuOverrun {
        used_ms: used / 1000,
        limit_ms: limit.as_millis() as u64,
        template_ms: charged / 1000,
        after_last,
    }
}

/// This thread's CPU time in µs: what the controller's work on a bot's behalf (rendering its
/// own templates) costs it.
pub fn thread_cpu_us() -> u64 {
    nix::time::clock_gettime(nix::time::ClockId::CLOCK_THREAD_CPUTIME_ID).map_or(0, |t| {
        t.tv_sec() as u64 * 1_000_000 + t.tv_nsec() as u64 / 1000
    })
}

impl Drop for Process {
    /// A table that is dropped midway (an aborted series) still leaves no process behind: the
    /// tree is killed when it is dropped.
    fn drop(&mut self) {
        if let Some(task) = &self.stderr {
            task.abort();
        }
    }
}

/// Reads `stream` to its end, keeping the first `cap` bytes: a chatty bot never blocks on a
/// full pipe, and never fills the controller's memory.
async fn drain(mut stream: impl AsyncRead + Unpin, cap: usize) -> StderrLog {
    let mut log = StderrLog::default();
    let mut buf = vec![0u8; 16 * 1024];
    loop {
        match stream.read(&mut buf).await {
            Ok(0) | Err(_) => return log,
            Ok(n) => {
                let room = cap.saturating_sub(log.kept.len()).min(n);
                log.kept.extend_from_slice(&buf[..room]);
                log.dropped += (n - room) as u64;
            }
        }
    }
}

/// The processors this controller may use, asked once: the standard library reads cgroup
/// quota files for it, which per reply cost as much as the reply's other bookkeeping.
fn cpu_count() -> u32 {
    static CPUS: std::sync::OnceLock<u32> = std::sync::OnceLock::new();
    *CPUS.get_or_init(|| std::thread::available_parallelism().map_or(1, |n| n.get() as u32))
}

/// Short limits on the wall clock for unit tests of a process (here and in the games').
#[cfg(test)]
pub(crate) fn test_limits() -> Limits {
    Limits {
        first_reply: Duration::from_millis(1500),
        reply: Duration::from_millis(300),
        grace: Duration::from_millis(100),
        line_cap: 16,
        stderr_cap: 10,
        clock: Clock::Wall,
        wall_factor: 10,
        reply_given: false,
    }
}

#[cfg(test)]
mod tests {
    use std::os::unix::fs::PermissionsExt;

    use super::*;

    #[tokio::test]
    async fn a_message_its_game_failed_to_write_is_never_sent() {
        // The bot keeps every line it reads in got.txt.
        let dir = tempfile::tempdir().unwrap();
        let launch = dir.path().join("launch");
        std::fs::write(&launch, "#!/bin/sh\ncat > got.txt\n").unwrap();
        std::fs::set_permissions(&launch, std::fs::Permissions::from_mode(0o755)).unwrap();
        // The bot exits by itself once its input closes: a grace a loaded machine never
        // exhausts before the shell has even opened got.txt.
        let limits = Limits {
            grace: Duration::from_secs(10),
            ..test_limits()
        };
        let mut p =
            Process::spawn(&std::sync::Arc::new(Sandbox::none()), dir.path(), limits).unwrap();
        p.queue_with(|out| {
            out.push_str("news\n");
            Ok(())
        })
        .unwrap();
        let fault = Fault::Template("no such variable".into());
        let failed = p.queue_with(|out| {
            out.push_str("half a messa");
            Err(fault.clone())
        });
        assert_eq!(failed, Err(fault.clone()));
        // The bot has faulted: the next question says so, and sends nothing.
        assert_eq!(p.ask_with(|_| Ok(())).await, Err(fault));
        // Its last message is sent alone: neither the news before the fault nor the half.
        p.finish_text(Some("invalid\n")).await;
        let got = std::fs::read_to_string(dir.path().join("got.txt")).unwrap();
        assert_eq!(got, "invalid\n");
    }

    #[tokio::test]
    async fn a_missing_interpreter_is_a_fault_at_start() {
        let dir = tempfile::tempdir().unwrap();
        let launch = dir.path().join("launch");
        std::fs::write(&launch, "#!/no/such/interpreter\n").unwrap();
        std::fs::set_permissions(&launch, std::fs::Permissions::from_mode(0o755)).unwrap();
        let err = Process::spawn(
            &std::sync::Arc::new(Sandbox::none()),
            dir.path(),
            test_limits(),
        )
        .err()
        .expect("cannot start");
        assert_eq!(err.kind(), "could_not_start");
    }
}
