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
    fn set(&self, bar: Option<ProgressBar>) {
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

/// The progress bar sink: games done of planned, rate, ETA and faults so far.
pub struct Progress {
    slot: BarSlot,
    /// Whether to draw at all (not for a person playing at the keyboard).
    show: bool,
    bar: Option<ProgressBar>,
    faults: u64,
}

impl Progress {
    pub fn new(slot: BarSlot, show: bool) -> Progress {
        Progress {
            slot,
            show,
            bar: None,
            faults: 0,
        }
    }

    fn clear(&mut self) {
        if let Some(bar) = self.bar.take() {
            bar.finish_and_clear();
            self.slot.set(None);
        }
    }
}

impl Sink for Progress {
    fn event(&mut self, event: &Event<'_>, state: &State) -> Result<(), SinkError> {
        match event {
            Event::Started(start) => {
                let target = if self.show && io::stdout().is_terminal() {
                    ProgressDrawTarget::stderr()
                } else {
                    ProgressDrawTarget::hidden()
                };
                let bar = ProgressBar::with_draw_target(Some(start.planned), target);
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
                bar.set_position(state.lines);
                bar.reset_eta();
                bar.enable_steady_tick(Duration::from_millis(200));
                self.slot.set(Some(bar.clone()));
                self.bar = Some(bar);
            }
            Event::GameFinished(_, Origin::Played { .. }) => {
                if let Some(bar) = &self.bar {
                    bar.inc(1);
                    if state.faults != self.faults {
                        self.faults = state.faults;
                        bar.set_message(crate::names::count(state.faults, "fault"));
                    }
                }
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
