//! What the controller says to a bot and how it reads the bot's replies.
//!
//! Bots speak many dialects of the same game, so the words on the wire are not hard-coded: a
//! *template set* (a TOML file, see `templates/README.md`) holds one Jinja template per message
//! ([`Phase`]) and one reply pattern per prompt (`card_reply`, `row_reply`). A set is checked
//! and compiled once, when it is loaded — TOML, keys, Jinja syntax, variable names, reply
//! patterns, and a trial render of every template against sample views of its phase — so a
//! mistake in a template is reported with its file and line before any game starts, never in
//! the middle of one.
//!
//! Four sets ship inside the binary (`default`, `named`, `codingame`, `codingame-statement`, from `templates/`); a
//! [`TemplateLibrary`] adds the `*.toml` files of a folder to them, and a bot may bring its own
//! `template.toml` ([`TemplateSet::from_file`]).
//!
//! | file | job |
//! |---|---|
//! | `mod.rs` | the keys, variables and built-in sets; template errors |
//! | `load.rs` | reading template files (keys, lines for errors) and the library of sets |
//! | `set.rs` | a compiled set: checks at load, rendering a message |
//! | `native.rs` | the default set's messages written out in Rust (the same bytes, faster) |
//! | `reply.rs` | reply patterns: reading a bot's reply |
//! | `samples.rs` | the sample views every template is trial-rendered against |

mod context;
mod load;
mod native;
mod reply;
mod samples;
mod set;
#[cfg(test)]
mod tests;

pub use load::{TemplateLibrary, default_set};
pub use reply::ReplyError;
pub use samples::random_game_views;
pub use set::TemplateSet;

/// The message keys of a template set, in [`Phase::ALL`] order.
pub const MESSAGE_KEYS: [&str; 8] = [
    "start", "cards", "turn", "used", "pickrow", "cardgain", "score", "invalid",
];

/// The reply-pattern keys of a template set.
pub const REPLY_KEYS: [&str; 2] = ["card_reply", "row_reply"];

/// Every variable a template may use: the fields of [`View`], all always defined. Kept in one
/// place so that error messages and the static check agree (a test compares it with `View`).
pub const VARIABLES: [&str; 17] = [
    "phase",
    "seat",
    "n_players",
    "names",
    "hand",
    "dealt",
    "rows",
    "turn",
    "last_played",
    "used",
    "scores",
    "gained",
    "gained_cows",
    "score",
    "others",
    "round",
    "rounds",
];

/// Where the built-in sets live in the repository; used in their error messages.
const BUILTIN_DIR: &str = "templates";

/// The built-in sets, compiled into the binary: `(name, source)`.
const BUILTIN: [(&str, &str); 4] = [
    (
        "default",
        include_str!("../../../../../templates/default.toml"),
    ),
    ("named", include_str!("../../../../../templates/named.toml")),
    (
        "codingame",
        include_str!("../../../../../templates/codingame.toml"),
    ),
    (
        "codingame-statement",
        include_str!("../../../../../templates/codingame-statement.toml"),
    ),
];

/// The work one render of a message may do, in minijinja fuel (about one instruction, or 64
/// bytes of text made). The built-in sets need under 200 per message; a bot's template that
/// needs more (say, nested loops over `range`) is refused at load or faults mid-game instead
/// of stalling the series. Also bounds a render's memory to a few MiB.
pub const RENDER_FUEL: u64 = 100_000;

/// A template set that cannot be used, or a set name that does not exist. Every variant that
/// comes from a file names the file and line and says how to fix it, because whoever reads it
/// is a bot author looking at their `template.toml`. `Clone` so that a library can hand the
/// same load error to every bot that uses the broken set.
#[derive(thiserror::Error, Debug, Clone, PartialEq, Eq)]
pub enum TemplateError {
    /// A file or folder could not be read.
    #[error("{path}: cannot read it: {reason}; check that it exists and is readable")]
    Io { path: String, reason: String },
    /// The file is not valid TOML, or an entry is not a string.
    #[error(
        "{path}:{line}: not a valid template set: {reason}; each entry is `name = \"template\"` \
         (use \"\"\"...\"\"\" for several lines, see templates/README.md)"
    )]
    Toml {
        path: String,
        line: usize,
        reason: String,
    },
    /// A key that is neither a message nor a reply pattern (most likely a typo).
    #[error(
        "{path}:{line}: unknown key '{key}'{hint}; the keys are {}, {} (see templates/README.md)",
        MESSAGE_KEYS.join(", "),
        REPLY_KEYS.join(", ")
    )]
    UnknownKey {
        path: String,
        line: usize,
        key: String,
        /// ` (did you mean 'turn'?)` or empty.
        hint: String,
    },
    /// A template that is not valid Jinja.
    #[error(
        "{path}:{line}: message '{message}' (template line {template_line}) does not parse: \
         {reason}; fix the Jinja syntax (see templates/README.md)"
    )]
    Syntax {
        path: String,
        line: usize,
        message: String,
        template_line: usize,
        reason: String,
    },
    /// A template that names a variable a view does not have.
    #[error(
        "{path}:{line}: message '{message}' uses unknown variable '{variable}'; the variables \
         are {} (see templates/README.md)",
        VARIABLES.join(", ")
    )]
    UnknownVariable {
        path: String,
        line: usize,
        message: String,
        variable: String,
    },
    /// A template that parses but fails when rendered against a sample view of its phase.
    #[error(
        "{path}:{line}: message '{message}' (template line {template_line}) fails on a sample \
         view ({sample}): {reason}; lists may be empty (guard indexing with {{% if %}}) and a \
         row has only cards, count, cows and top (see templates/README.md)"
    )]
    SampleRender {
        path: String,
        line: usize,
        message: String,
        template_line: usize,
        sample: String,
        reason: String,
    },
    /// A reply pattern without its placeholder exactly once.
    #[error(
        "{path}:{line}: reply pattern '{key}' = {pattern:?} must contain {placeholder} exactly \
         once, where the number goes; e.g. {key} = \"{placeholder}\" or \"PLAY {placeholder}\""
    )]
    ReplyPattern {
        path: String,
        line: usize,
        key: String,
        pattern: String,
        placeholder: String,
    },
    /// A set name that is neither built in nor in the templates folder.
    #[error(
        "unknown template set '{name}'; the available sets are {available} (add {name}.toml to \
         the --templates folder, or fix the name in bot.toml)"
    )]
    UnknownSet { name: String, available: String },
    /// A render that failed during a game although the set passed its load checks.
    #[error(
        "{path}:{line}: message '{message}' of set '{set}' (template line {template_line}) \
         failed: {reason}"
    )]
    Render {
        set: String,
        path: String,
        line: usize,
        message: String,
        template_line: usize,
        reason: String,
    },
}
