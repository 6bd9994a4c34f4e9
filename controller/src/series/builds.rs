//! The bots' builds as they happen: on a terminal a spinner naming the builds under way and
//! how many are done; elsewhere (CI, a log file) a line as each starts and ends. At the end, a
//! line with the total and the slowest builds, so that a series of a dozen bots in several
//! languages never sits silent for half a minute after its sandbox line.

use std::collections::BTreeSet;
use std::io::IsTerminal;
use std::sync::Mutex;
use std::time::{Duration, Instant};

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};

use super::sinks::progress::BarSlot;
use crate::bots::BuildWatch;
use crate::untrusted;

/// How many of the slowest builds the closing line names.
const SLOWEST: usize = 3;

/// A build shorter than this is not worth naming as slow.
const SLOW: Duration = Duration::from_secs(1);

/// The builds' progress for people (see the module's doc).
pub struct BuildProgress {
    slot: BarSlot,
    /// A spinner on a terminal, else lines.
    bar: Option<ProgressBar>,
    state: Mutex<Builds>,
}

/// When the first build began, the builds under way, and those done.
#[derive(Default)]
struct Builds {
    first: Option<Instant>,
    running: BTreeSet<String>,
    done: Vec<(String, Duration, bool)>,
}

impl BuildProgress {
    /// Progress drawn above `slot`'s output: a spinner when stderr is a terminal (set in the
    /// slot, so log lines print above it), lines otherwise.
    pub fn new(slot: BarSlot) -> BuildProgress {
        let bar = std::io::stderr().is_terminal().then(|| {
            let bar = ProgressBar::with_draw_target(None, ProgressDrawTarget::stderr());
            bar.set_style(
                ProgressStyle::with_template("{spinner} building {elapsed}  {msg}")
                    .expect("the template is valid"),
            );
            bar
        });
        BuildProgress {
            slot,
            bar,
            state: Mutex::new(Builds::default()),
        }
    }

    /// Prints `line` on stderr, above the spinner if there is one.
    fn say(&self, line: &str) {
        match &self.bar {
            Some(bar) => bar.suspend(|| eprintln!("{line}")),
            None => self.slot.above(|| eprintln!("{line}")),
        }
    }

    /// The spinner's message: the builds under way, and how many are done.
    fn redraw(&self, builds: &Builds) {
        let Some(bar) = &self.bar else { return };
        let running: Vec<String> = builds
            .running
            .iter()
            .map(|name| untrusted::terminal(name))
            .collect();
        bar.set_message(format!(
            "{}  ({} done)",
            running.join(", "),
            builds.done.len()
        ));
    }

    /// Ends the progress: the spinner is cleared, and when anything was built, a line says how
    /// many builds took how long, and names the slowest.
    pub fn finish(&self) {
        if let Some(bar) = &self.bar {
            bar.finish_and_clear();
            self.slot.set(None);
        }
        let builds = self.state.lock().expect("not poisoned");
        let Some(first) = builds.first else { return };
        let mut done = builds.done.clone();
        done.sort_by(|a, b| b.1.cmp(&a.1).then(a.0.cmp(&b.0)));
        let slow: Vec<String> = done
            .iter()
            .filter(|(_, took, _)| *took >= SLOW)
            .take(SLOWEST)
            .map(|(name, took, _)| format!("{} {:.1} s", untrusted::terminal(name), secs(*took)))
            .collect();
        let slowest = match slow.len() {
            0 => String::new(),
            1 => format!("; the slowest: {}", slow[0]),
            _ => format!("; the slowest: {}", slow.join(", ")),
        };
        let failed = done.iter().filter(|(_, _, ok)| !ok).count();
        let failed = match failed {
            0 => String::new(),
            n => format!(" ({n} failed)"),
        };
        self.say(&format!(
            "take6: {} in {:.1} s{failed}{slowest}",
            crate::names::count(done.len() as u64, "build"),
            secs(first.elapsed())
        ));
    }
}

fn secs(d: Duration) -> f64 {
    d.as_secs_f64()
}

impl BuildWatch for BuildProgress {
    fn started(&self, name: &str) {
        let mut builds = self.state.lock().expect("not poisoned");
        let now = Instant::now();
        if builds.first.is_none() {
            builds.first = Some(now);
            if let Some(bar) = &self.bar {
                bar.enable_steady_tick(Duration::from_millis(200));
                self.slot.set(Some(bar.clone()));
            }
        }
        builds.running.insert(name.to_string());
        if self.bar.is_some() {
            self.redraw(&builds);
        } else {
            self.say(&format!("take6: building {}", untrusted::terminal(name)));
        }
    }

    fn finished(&self, name: &str, took: Duration, ok: bool) {
        let mut builds = self.state.lock().expect("not poisoned");
        builds.running.remove(name);
        builds.done.push((name.to_string(), took, ok));
        let shown = untrusted::terminal(name);
        let line = if ok {
            format!("take6: built {shown} in {:.1} s", secs(took))
        } else {
            format!(
                "take6: the build of {shown} failed after {:.1} s",
                secs(took)
            )
        };
        self.say(&line);
        self.redraw(&builds);
    }
}
