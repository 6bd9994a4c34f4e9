//! What a series' sandbox enforces, in words: the start line and `series.toml`'s
//! `[sandbox]` table.

use serde::Serialize;

use super::Mode;

/// What a series' sandbox enforces, for stderr and `series.toml`'s `[sandbox]` table.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Report {
    pub mode: Mode,
    pub enforced: Vec<&'static str>,
    pub missing: Vec<&'static str>,
    /// Why each missing part is missing and how to get it.
    #[serde(skip)]
    pub why: Vec<String>,
}

/// Whether the sandbox line lists every protection (`take6 -v`); by default it is short.
static LIST_PROTECTIONS: std::sync::atomic::AtomicBool = std::sync::atomic::AtomicBool::new(false);

/// `take6 -v`: the sandbox line lists every protection enforced.
pub fn list_protections(on: bool) {
    LIST_PROTECTIONS.store(on, std::sync::atomic::Ordering::Relaxed);
}

impl Report {
    /// The line said on stderr: short (a line said on every command),
    /// what is enforced in a word and what is not in full; the whole list with `take6 -v`.
    pub fn stderr_line(&self) -> String {
        if LIST_PROTECTIONS.load(std::sync::atomic::Ordering::Relaxed) {
            return self.line();
        }
        let mode = match self.mode {
            Mode::Auto => "auto",
            Mode::Strict => "strict",
            Mode::None => "none",
        };
        let total = self.enforced.len() + self.missing.len();
        if self.mode == Mode::None {
            // Nothing isolates the bots: said in words, not as protections "all enforced".
            return format!(
                "sandbox none: {}; kept: {} (take6 -v lists them, as does series.toml)",
                unsandboxed_user(),
                plural(self.enforced.len(), "safeguard")
            );
        }
        if self.missing.is_empty() {
            return format!(
                "sandbox {mode}: all {total} protections enforced (take6 -v lists them, as does \
                 series.toml)"
            );
        }
        format!(
            "sandbox {mode}: {} of {total} protections enforced; NOT enforced: {} ({}) (take6 -v \
             lists what is)",
            self.enforced.len(),
            self.missing.join(", "),
            self.why.join("; ")
        )
    }

    /// The stderr line, e.g. `sandbox: auto: enforced ...; missing ... (why)`.
    pub fn line(&self) -> String {
        let mode = match self.mode {
            Mode::Auto => "auto",
            Mode::Strict => "strict",
            Mode::None => "none",
        };
        let mut line = format!("sandbox: {mode}: enforced {}", list(&self.enforced));
        if !self.missing.is_empty() {
            line.push_str(&format!(
                "; NOT enforced: {} ({})",
                self.missing.join(", "),
                self.why.join("; ")
            ));
        }
        if self.mode == Mode::None {
            line.push_str(&format!("; {}", unsandboxed_user()));
        }
        line
    }
}

/// What `--sandbox none` means, in words for the start line: whose rights builds and bots get.
pub fn unsandboxed_user() -> String {
    let uid = nix::unistd::getuid();
    let name = nix::unistd::User::from_uid(uid).ok().flatten().map_or_else(
        || format!("uid {uid}"),
        |u| format!("{} (uid {uid})", u.name),
    );
    format!(
        "builds and bots run as the controller's own user, {name}, with no sandbox: they can \
         read, change and delete whatever that user can"
    )
}

/// `n` and `word`, plural unless one.
fn plural(n: usize, word: &str) -> String {
    if n == 1 {
        format!("1 {word}")
    } else {
        format!("{n} {word}s")
    }
}

fn list(items: &[&str]) -> String {
    if items.is_empty() {
        "nothing".into()
    } else {
        items.join(", ")
    }
}
