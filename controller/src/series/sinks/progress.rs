//! The progress bar on a terminal, and the stderr writer that prints log lines above it.
//!
//! The bar lives in a [`BarSlot`] the command line makes and shares between the logger and
//! the series: no global state, and two series in one process (tests) do not meet.

use std::io::{self, IsTerminal, Write};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};

use crate::series::reporter::{Event, Origin, Sink, SinkError, State};

/// Where the running series' progress bar is, if any, so that other output can be printed
/// above it instead of through it.
#[derive(Debug, Clone, Default)]
pub struct BarSlot(Arc<Mutex<Option<ProgressBar>>>);

impl BarSlot {
    pub(crate) fn set(&self, bar: Option<ProgressBar>) {
        if let Ok(mut slot) = self.0.lock() {
            *slot = bar;
        }
    }

    fn get(&self) -> Option<ProgressBar> {
        self.0.lock().map(|b| b.clone()).unwrap_or(None)
    }

    /// Runs `print` with the bar (if any) out of the way.
    pub fn above<T>(&self, print: impl FnOnce() -> T) -> T {
        match self.get() {
            Some(bar) => bar.suspend(print),
            None => print(),
        }
    }
}

/// A `tracing` writer for stderr that never garbles the progress bar.
#[derive(Debug, Clone, Default)]
pub struct StderrAboveBar(pub BarSlot);

impl Write for StderrAboveBar {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        self.0.above(|| io::stderr().write_all(buf))?;
        Ok(buf.len())
    }

    fn flush(&mut self) -> io::Result<()> {
        io::stderr().flush()
    }
}

impl<'a> tracing_subscriber::fmt::MakeWriter<'a> for StderrAboveBar {
    type Writer = StderrAboveBar;
    fn make_writer(&'a self) -> Self::Writer {
        self.clone()
    }
}

/// How often a progress line is printed when stderr is not a terminal (CI, nohup, a log
/// file); `TAKE6_PROGRESS_SECONDS` changes it.
const LINE_EVERY: Duration = Duration::from_secs(10);

/// How often a progress line is printed: every [`LINE_EVERY`], or `TAKE6_PROGRESS_SECONDS`.
pub fn line_every() -> Duration {
    std::env::var("TAKE6_PROGRESS_SECONDS")
        .ok()
        .and_then(|s| s.parse::<f64>().ok())
        .filter(|s| *s > 0.0)
        .map_or(LINE_EVERY, Duration::from_secs_f64)
}

/// The progress sink: on a terminal, a bar with games done of planned, elapsed time, rate, ETA,
/// the current leader and faults so far; elsewhere (a log, a pipe), a line with the same every
/// few seconds, so that a run off a terminal is never silent until its end. With `--standings-every N`, the standings
/// every N games.
pub struct Progress {
    slot: BarSlot,
    /// Whether to draw at all (not for a person playing at the keyboard).
    show: bool,
    bar: Option<ProgressBar>,
    faults: u64,
    /// Without a terminal: when the series started and when the last line was printed.
    lines: Option<(std::time::Instant, std::time::Instant, Duration)>,
    /// Games done when this process started playing (a resume's replayed ones).
    replayed: u64,
    standings_every: Option<u64>,
    /// What the series' game calls its built-in players (from its records).
    builtin: &'static str,
    /// When the bar's leader was last worked out.
    leader_at: Option<std::time::Instant>,
    /// No number of games is planned (a league plays until its ranking is settled): the bar
    /// counts the games, with no length or ETA.
    open: bool,
}

impl Progress {
    pub fn new(slot: BarSlot, show: bool) -> Progress {
        Progress {
            slot,
            show,
            bar: None,
            faults: 0,
            lines: None,
            replayed: 0,
            standings_every: None,
            leader_at: None,
            builtin: "built-in",
            open: false,
        }
    }

    /// A progress with no planned number of games (`take6 league` without `--games`): the
    /// games played, elapsed time and rate, without a length or an ETA.
    pub fn open_ended(mut self, open: bool) -> Progress {
        self.open = open;
        self
    }

    /// `--standings-every N`.
    pub fn standings_every(mut self, n: Option<u64>) -> Progress {
        self.standings_every = n;
        self
    }

    fn clear(&mut self) {
        if let Some(bar) = self.bar.take() {
            bar.finish_and_clear();
            self.slot.set(None);
        }
    }

    /// The leader so far and faults, for the bar's message and the lines.
    fn message(state: &State) -> String {
        let mut parts = Vec::new();
        if let Some(top) = state.tally.standings().first() {
            parts.push(format!(
                "leader {} ({:.2})",
                crate::untrusted::terminal(&top.bot),
                top.rating.unwrap_or(top.mean_score)
            ));
        }
        if state.faults > 0 {
            parts.push(crate::names::count(state.faults, "fault"));
        }
        parts.join(", ")
    }

    /// Without a terminal: a line when the last one is `every` old.
    fn line(&mut self, state: &State) {
        let Some((started, last, every)) = self.lines.as_mut() else {
            return;
        };
        if last.elapsed() < *every {
            return;
        }
        *last = std::time::Instant::now();
        let elapsed = started.elapsed().as_secs_f64();
        let done = state.lines.saturating_sub(self.replayed);
        let rate = done as f64 / elapsed.max(1e-9);
        let left = state.planned.saturating_sub(state.lines);
        let eta = if rate > 0.0 {
            humantime::format_duration(Duration::from_secs((left as f64 / rate).ceil() as u64))
                .to_string()
        } else {
            "unknown".into()
        };
        let message = Progress::message(state);
        if self.open {
            eprintln!(
                "take6: {} games, {rate:.1} games/s, elapsed {}{}{message}",
                state.lines,
                humantime::format_duration(Duration::from_secs(elapsed as u64)),
                if message.is_empty() { "" } else { ", " },
            );
            return;
        }
        eprintln!(
            "take6: {}/{} games, {rate:.1} games/s, elapsed {}, ETA {eta}{}{message}",
            state.lines,
            state.planned,
            humantime::format_duration(Duration::from_secs(elapsed as u64)),
            if message.is_empty() { "" } else { ", " },
        );
    }

    /// Sets up the bar (on a terminal) or the line every few seconds (elsewhere) for a
    /// series of `planned` games.
    fn start(&mut self, planned: u64, state: &State) {
        self.replayed = state.lines;
        // The bar is drawn on stderr: only where stderr is a terminal.
        if self.show && !io::stderr().is_terminal() {
            let every = line_every();
            let now = std::time::Instant::now();
            self.lines = Some((now, now, every));
        }
        let target = if self.show && io::stderr().is_terminal() {
            ProgressDrawTarget::stderr()
        } else {
            ProgressDrawTarget::hidden()
        };
        let (length, template) = if self.open {
            (
                None,
                "{spinner} {pos} games  {elapsed} elapsed  {rate} games/s  {msg}",
            )
        } else {
            (
                Some(planned),
                "{bar:30.cyan/blue} {pos}/{len} games  {elapsed} elapsed  {rate} games/s  \
                 ETA {eta}  {msg}",
            )
        };
        let bar = ProgressBar::with_draw_target(length, target);
        bar.set_style(
            ProgressStyle::with_template(template)
                .expect("the template is valid")
                .with_key(
                    "rate",
                    |state: &indicatif::ProgressState, w: &mut dyn std::fmt::Write| {
                        let _ = write!(w, "{:.1}", state.per_sec());
                    },
                ),
        );
        bar.set_position(state.lines);
        bar.reset_eta();
        bar.enable_steady_tick(Duration::from_millis(200));
        self.slot.set(Some(bar.clone()));
        self.bar = Some(bar);
    }
}

impl Sink for Progress {
    fn event(&mut self, event: &Event<'_>, state: &State) -> Result<(), SinkError> {
        match event {
            Event::Started(start) => self.start(start.planned, state),
            Event::GameFinished(record, Origin::Played { .. }) => {
                self.builtin = super::builtin_label(record);
                if let Some(bar) = &self.bar {
                    bar.inc(1);
                    // The leader (a sort of the standings) at most twice a second.
                    let due = self
                        .leader_at
                        .is_none_or(|at| at.elapsed() >= Duration::from_millis(500));
                    if state.faults != self.faults || due {
                        self.faults = state.faults;
                        self.leader_at = Some(std::time::Instant::now());
                        bar.set_message(Progress::message(state));
                    }
                }
                if let Some(n) = self.standings_every
                    && state.lines.is_multiple_of(n)
                {
                    let table = crate::record::summary_table(&state.standings(), &[], self.builtin);
                    self.slot.above(|| {
                        eprint!(
                            "take6: standings after {}:\n{table}",
                            crate::names::count(state.lines, "game")
                        );
                    });
                }
                self.line(state);
            }
            Event::Checkpoint => {
                // Every few seconds: the leader (a sort of the standings) is not worth more.
                if let Some(bar) = &self.bar {
                    bar.set_message(Progress::message(state));
                }
                self.line(state);
            }
            Event::Finished(_) => self.clear(),
            _ => {}
        }
        Ok(())
    }
}

impl Drop for Progress {
    fn drop(&mut self) {
        self.clear();
    }
}
