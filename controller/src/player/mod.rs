//! What any game's seat is made of, whatever the game: an external bot's [`process`], the
//! terminal a person types at ([`console`]), the transcript of messages and replies
//! ([`transcript`]), a [`Fault`]. What a seat is asked, and its built-ins and person at the
//! keyboard, are each game's own (`crate::games::*`).
//!
//! A bot never judges its own answers: its game's table checks them against the rules, so a
//! bot's bad answer and a bot's crash end up as the same kind of value, a [`Fault`].

pub mod console;
pub mod process;
pub mod transcript;

use std::fmt;

use crate::sandbox::{Breach, Clock};

pub use console::Console;

/// The fault kind recorded, at turn 1 of each later round, for a seat whose bot faulted in an
/// earlier round: the bot is gone, so the seat scores the fault penalty again every round.
pub const ABSENT: &str = "absent";
/// The fault kind recorded for a seat whose bot was benched ([`Fault::Benched`]).
pub const BENCHED: &str = "benched";
pub use process::{Finished, Limits, Process, ReplyTime, StderrLog};

/// Why a player lost its seat. Faults are data recorded in the game, never controller errors.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Fault {
    /// The bot could not be started at all.
    CouldNotStart(String),
    /// No reply within the time limit, measured on `clock` (CPU time of the bot's tree, or the
    /// wall clock: the limit itself, or the safety net for a bot that blocks).
    Timeout { ms: u64, clock: Clock },
    /// Under the CPU clock, no reply within the wall-clock safety net (`wall_ms`), the tree
    /// having used only `cpu_ms` of CPU time, under its limit. Not `running` at the end: it
    /// was waiting, not thinking, and the commonest cause is a reply left in the bot's output
    /// buffer (Python's `print` into a pipe), so the reason says so. Still `running`: it was
    /// starved of a processor (a loaded machine), and the reason says that. Recorded as a
    /// `timeout`.
    Blocked {
        wall_ms: u64,
        cpu_ms: u64,
        running: bool,
    },
    /// The bot sent `got` of the `want` lines a reply is, then no more: it went idle (its
    /// tree used no CPU time for `idle_ms` of wall time, waiting for input), or the reply's
    /// time ran out. Said at once, not as a flushing problem. Recorded as a
    /// `bad_reply`.
    Partial {
        got: usize,
        want: usize,
        idle_ms: Option<u64>,
    },
    /// The bot's tree went past a limit of its sandbox (memory, processes, disk).
    Limit(Breach),
    /// A reply came, but the bot's whole tree (background processes included), with the
    /// controller's time on its behalf (its own templates, see [`Process::charging`]), used
    /// more CPU time since its previous reply than the limit; or, `after_last`, that much after its last reply, found when the
    /// game ended. Recorded as a `timeout`: the time is the same clock's.
    CpuOverrun {
        used_ms: u64,
        limit_ms: u64,
        /// Of `used_ms`, the controller's rendering and parsing through the bot's own templates.
        template_ms: u64,
        after_last: bool,
    },
    /// The person at the keyboard left the game (the end of input: Ctrl-D). Their seat is
    /// played on by a built-in as for a bot's fault, but the record says what happened.
    Left,
    /// The bot exited or closed its output; `status` is its exit status when known.
    Exited { status: Option<String> },
    /// A reply line longer than the cap (the rest is never buffered).
    LineTooLong { cap: usize },
    /// A reply its game cannot use, and why: it did not match the expected pattern, was not
    /// a number, or is against the rules. The kind is the record's (`not_a_number`,
    /// `not_in_hand`, `illegal_move`, …), the game's to name.
    BadReply(String, &'static str),
    /// The seat's bot faulted in an earlier round of the game and plays no more rounds.
    Absent { round: u32 },
    /// The bot's template could not render a message. Templates are checked at series start,
    /// so this only happens for data-dependent template errors.
    Template(String),
    /// The bot sits out the rest of the series after faulting in game after game (the
    /// reason says which and how to fix them): it is not started, its seat is its fault.
    Benched(String),
}

impl Fault {
    /// A short, stable name for the kind of fault, used in records and tallies.
    pub fn kind(&self) -> &'static str {
        match self {
            Fault::CouldNotStart(_) => "could_not_start",
            Fault::Timeout { .. } | Fault::Blocked { .. } | Fault::CpuOverrun { .. } => "timeout",
            Fault::Exited { .. } => "exited",
            Fault::Left => "left",
            Fault::LineTooLong { .. } => "line_too_long",
            Fault::Partial { .. } => "bad_reply",
            Fault::BadReply(_, kind) => kind,
            Fault::Template(_) => "template",
            Fault::Benched(_) => BENCHED,
            Fault::Absent { .. } => ABSENT,
            Fault::Limit(breach) => breach.kind(),
        }
    }
}

impl fmt::Display for Fault {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Fault::CouldNotStart(why) => write!(f, "could not start: {why}"),
            Fault::Benched(why) => write!(f, "sat out: {why}"),
            Fault::Timeout { ms, clock } => write!(f, "no reply within {ms} ms of {clock} time"),
            Fault::Blocked {
                wall_ms,
                cpu_ms,
                running: true,
            } => write!(
                f,
                "no reply within {wall_ms} ms of wall time, in which it used only {cpu_ms} ms of \
                 CPU time and was still using it: it was starved of a processor (the machine \
                 was loaded: run fewer --jobs, or on a quieter machine), not waiting; its CPU \
                 limit was not reached"
            ),
            Fault::Blocked {
                wall_ms, cpu_ms, ..
            } => write!(
                f,
                "no reply within {wall_ms} ms of wall time, in which it used {cpu_ms} ms of CPU \
                 time: it was waiting, not thinking; it may not be flushing its output (a \
                 printed reply stays in the output buffer until flushed: print(..., \
                 flush=True), fflush(stdout), System.out.flush())"
            ),
            Fault::Partial { got, want, idle_ms } => {
                write!(f, "got {got} of {want} lines")?;
                match idle_ms {
                    Some(ms) => write!(
                        f,
                        ", then it waited for input ({ms} ms without using CPU time)"
                    )?,
                    None => write!(f, " within the reply's time")?,
                }
                write!(
                    f,
                    ": a reply is {want} lines, every one of them on every turn, even where \
                     its values are ignored"
                )
            }
            Fault::Limit(breach) => write!(f, "{breach}"),
            Fault::CpuOverrun {
                used_ms,
                limit_ms,
                template_ms,
                after_last,
            } => {
                let when = if *after_last {
                    "after its last reply"
                } else {
                    "for one reply"
                };
                write!(
                    f,
                    "used {used_ms} ms of CPU time {when} (its whole process tree, background \
                     processes included), over the limit of {limit_ms} ms"
                )?;
                if *template_ms > 0 {
                    write!(
                        f,
                        "; {template_ms} ms of it the controller's rendering of its own templates"
                    )?;
                }
                Ok(())
            }
            Fault::Exited { status: Some(s) } => write!(f, "exited ({s}) before replying"),
            Fault::Exited { status: None } => write!(f, "closed its output before replying"),
            Fault::Left => write!(f, "left the game (end of input: Ctrl-D)"),
            Fault::LineTooLong { cap } => write!(f, "reply line longer than {cap} bytes"),
            Fault::BadReply(why, _) => write!(f, "{why}"),
            Fault::Template(why) => write!(f, "template error: {why}"),
            Fault::Absent { round } => {
                write!(
                    f,
                    "its bot faulted in round {round} and plays no more rounds"
                )
            }
        }
    }
}
