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

use std::collections::{BTreeMap, BTreeSet, HashSet};
use std::path::Path;
use std::sync::{Arc, OnceLock};

use minijinja::value::{Serde, Value};
use minijinja::{AutoEscape, Environment, UndefinedBehavior};
use rand::seq::IndexedRandom;
use rand::{RngExt, SeedableRng};
use toml::Spanned;

use crate::game::{Deal, Game, Phase, View};

/// The message keys of a template set, in [`Phase::ALL`] order.
pub const MESSAGE_KEYS: [&str; 8] = [
    "start", "cards", "turn", "used", "pickrow", "cardgain", "score", "invalid",
];

/// The reply-pattern keys of a template set.
pub const REPLY_KEYS: [&str; 2] = ["card_reply", "row_reply"];

/// Every variable a template may use: the fields of [`View`], all always defined. Kept in one
/// place so that error messages and the static check agree (a test compares it with `View`).
pub const VARIABLES: [&str; 15] = [
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
];

/// Where the built-in sets live in the repository; used in their error messages.
const BUILTIN_DIR: &str = "templates";

/// The built-in sets, compiled into the binary: `(name, source)`.
const BUILTIN: [(&str, &str); 4] = [
    ("default", include_str!("../../templates/default.toml")),
    ("named", include_str!("../../templates/named.toml")),
    ("codingame", include_str!("../../templates/codingame.toml")),
    (
        "codingame-statement",
        include_str!("../../templates/codingame-statement.toml"),
    ),
];

/// Longest part of a bad reply quoted back in a [`ReplyError`].
const REPLY_SHOWN: usize = 80;

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

/// A bot's reply that does not fit the set's reply pattern. The caller turns it into a fault;
/// [`ReplyError::kind`] is the short tag for records and the message says what was expected
/// and what arrived.
#[derive(thiserror::Error, Debug, Clone, PartialEq, Eq)]
pub enum ReplyError {
    /// Nothing but whitespace arrived.
    #[error("expected a reply like '{expected}', got an empty line")]
    Empty { expected: String },
    /// The literal words of the pattern did not match.
    #[error("expected a reply like '{expected}', got '{got}'")]
    BadReply { expected: String, got: String },
    /// The words matched but the number is not a whole number that fits in 64 bits.
    #[error(
        "expected a reply like '{expected}' with a whole number for {placeholder}, got '{got}'"
    )]
    NotANumber {
        expected: String,
        placeholder: String,
        got: String,
    },
}

impl ReplyError {
    /// A stable short tag for records and tallies: `empty_reply`, `bad_reply`, `not_a_number`.
    pub fn kind(&self) -> &'static str {
        match self {
            ReplyError::Empty { .. } => "empty_reply",
            ReplyError::BadReply { .. } => "bad_reply",
            ReplyError::NotANumber { .. } => "not_a_number",
        }
    }
}

/// Where one template entry sits in its file, to turn template lines into file lines.
#[derive(Debug, Clone)]
struct Entry {
    source: String,
    /// Path of the file the entry came from (the built-in default for keys a set leaves out).
    path: Arc<str>,
    /// Line of the key.
    key_line: usize,
    /// File line of the template's first line.
    first_line: usize,
    /// Whether the value is a `"""`/`'''` string, whose lines are file lines.
    multiline: bool,
}

impl Entry {
    /// The file line of line `template_line` (1-based) of the template.
    fn file_line(&self, template_line: usize) -> usize {
        if self.multiline {
            self.first_line + template_line.saturating_sub(1)
        } else {
            self.first_line
        }
    }
}

/// The entries of a file as written, before any defaults are filled in.
type RawEntries = BTreeMap<String, Entry>;

/// 1-based line of byte `offset` in `text`.
fn line_of(text: &str, offset: usize) -> usize {
    let offset = offset.min(text.len());
    text.as_bytes()[..offset]
        .iter()
        .filter(|&&b| b == b'\n')
        .count()
        + 1
}

/// Edit distance, for "did you mean" hints on unknown keys.
fn distance(a: &str, b: &str) -> usize {
    let b: Vec<char> = b.chars().collect();
    let mut prev: Vec<usize> = (0..=b.len()).collect();
    for (i, ca) in a.chars().enumerate() {
        let mut cur = vec![i + 1];
        for (j, &cb) in b.iter().enumerate() {
            let sub = prev[j] + usize::from(ca != cb);
            cur.push(sub.min(prev[j + 1] + 1).min(cur[j] + 1));
        }
        prev = cur;
    }
    prev[b.len()]
}

/// Parses a TOML template file into its entries, checking the keys.
fn parse_entries(path: &str, text: &str) -> Result<RawEntries, TemplateError> {
    let table: BTreeMap<Spanned<String>, Spanned<String>> =
        toml::from_str(text).map_err(|e| TemplateError::Toml {
            path: path.to_string(),
            line: e.span().map_or(1, |s| line_of(text, s.start)),
            reason: e.message().trim().to_string(),
        })?;
    let path: Arc<str> = Arc::from(path);
    let mut entries = RawEntries::new();
    for (key, value) in table {
        let key_line = line_of(text, key.span().start);
        let name = key.into_inner();
        if !MESSAGE_KEYS.contains(&name.as_str()) && !REPLY_KEYS.contains(&name.as_str()) {
            let best = MESSAGE_KEYS
                .iter()
                .chain(REPLY_KEYS.iter())
                .min_by_key(|k| distance(&name, k))
                .expect("there are keys");
            let hint = if distance(&name, best) <= 2 {
                format!(" (did you mean '{best}'?)")
            } else {
                String::new()
            };
            return Err(TemplateError::UnknownKey {
                path: path.to_string(),
                line: key_line,
                key: name,
                hint,
            });
        }
        let start = value.span().start;
        let raw = &text[start.min(text.len())..];
        let multiline = raw.starts_with("\"\"\"") || raw.starts_with("'''");
        let after = if multiline { &raw[3..] } else { "" };
        let skip = usize::from(after.starts_with('\n') || after.starts_with("\r\n"));
        entries.insert(
            name,
            Entry {
                source: value.into_inner(),
                path: path.clone(),
                key_line,
                first_line: line_of(text, start) + skip,
                multiline,
            },
        );
    }
    Ok(entries)
}

/// The built-in `default` set's entries, which fill the keys other sets leave out.
fn default_entries() -> &'static RawEntries {
    static DEFAULT: OnceLock<RawEntries> = OnceLock::new();
    DEFAULT.get_or_init(|| {
        let entries = parse_entries(&format!("{BUILTIN_DIR}/default.toml"), BUILTIN[0].1)
            .expect("the built-in default set parses (tested)");
        for key in MESSAGE_KEYS.iter().chain(REPLY_KEYS.iter()) {
            assert!(entries.contains_key(*key), "default.toml lacks '{key}'");
        }
        entries
    })
}

/// One piece of a reply pattern.
#[derive(Debug, Clone, PartialEq, Eq)]
enum Piece {
    Word(String),
    Space,
}

/// A compiled reply pattern: literal pieces before and after the number.
#[derive(Debug, Clone)]
struct ReplyPattern {
    pattern: String,
    placeholder: &'static str,
    before: Vec<Piece>,
    after: Vec<Piece>,
}

fn pieces(literal: &str) -> Vec<Piece> {
    let mut out = Vec::new();
    let mut word = String::new();
    for c in literal.chars() {
        if c.is_whitespace() {
            if !word.is_empty() {
                out.push(Piece::Word(std::mem::take(&mut word)));
            }
            if out.last() != Some(&Piece::Space) {
                out.push(Piece::Space);
            }
        } else {
            word.push(c);
        }
    }
    if !word.is_empty() {
        out.push(Piece::Word(word));
    }
    out
}

/// Matches `pieces` at the start of `s`; returns the rest.
fn match_pieces<'a>(pieces: &[Piece], mut s: &'a str) -> Option<&'a str> {
    for piece in pieces {
        match piece {
            Piece::Word(w) => s = s.strip_prefix(w.as_str())?,
            Piece::Space => {
                let rest = s.trim_start();
                if rest.len() == s.len() {
                    return None;
                }
                s = rest;
            }
        }
    }
    Some(s)
}

impl ReplyPattern {
    fn new(entry: &Entry, key: &str, placeholder: &'static str) -> Result<Self, TemplateError> {
        let pattern = entry.source.trim();
        let mut parts = pattern.split(placeholder);
        let (Some(before), Some(after), None) = (parts.next(), parts.next(), parts.next()) else {
            return Err(TemplateError::ReplyPattern {
                path: entry.path.to_string(),
                line: entry.key_line,
                key: key.to_string(),
                pattern: entry.source.clone(),
                placeholder: placeholder.to_string(),
            });
        };
        Ok(ReplyPattern {
            pattern: pattern.to_string(),
            placeholder,
            before: pieces(before),
            after: pieces(after),
        })
    }

    fn parse(&self, reply: &str) -> Result<i64, ReplyError> {
        let reply = reply.trim();
        let shown = || {
            let mut s: String = reply.chars().take(REPLY_SHOWN).collect();
            if reply.chars().count() > REPLY_SHOWN {
                s.push('…');
            }
            s
        };
        if reply.is_empty() {
            return Err(ReplyError::Empty {
                expected: self.pattern.clone(),
            });
        }
        let bad = || ReplyError::BadReply {
            expected: self.pattern.clone(),
            got: shown(),
        };
        let rest = match_pieces(&self.before, reply).ok_or_else(bad)?;
        // The number runs up to where the literal after it starts.
        let end = match self.after.first() {
            None => rest.len(),
            Some(Piece::Space) => rest.find(char::is_whitespace).unwrap_or(rest.len()),
            Some(Piece::Word(w)) => rest.find(w.as_str()).ok_or_else(bad)?,
        };
        let (number, tail) = rest.split_at(end);
        if match_pieces(&self.after, tail) != Some("") {
            return Err(bad());
        }
        number.parse::<i64>().map_err(|_| ReplyError::NotANumber {
            expected: self.pattern.clone(),
            placeholder: self.placeholder.to_string(),
            got: shown(),
        })
    }
}

/// One compiled template set: a template per message and a pattern per reply. Compiled and
/// checked once at load (never per message), immutable afterwards, so it is shared between
/// tables as an `Arc<TemplateSet>` (`Send + Sync`).
#[derive(Debug)]
pub struct TemplateSet {
    name: String,
    path: String,
    env: Environment<'static>,
    /// Per phase: the entry, or `None` when the template is blank and the message never sent.
    messages: [Option<Entry>; 8],
    card_reply: ReplyPattern,
    row_reply: ReplyPattern,
}

fn phase_index(phase: Phase) -> usize {
    Phase::ALL
        .iter()
        .position(|&p| p == phase)
        .expect("every phase is in ALL")
}

/// Turns a rendered message into what is sent: `None` when it holds nothing but whitespace (how
/// a template says "send nothing"), else every line of the template as a line on the wire, empty
/// ones included, each ending with `\n`. The engine keeps a template's last newline, so a
/// template written as lines ends with one; one written without gets it here, even when its
/// last line rendered empty (an empty hand), which must not merge into the line before.
fn finish(mut text: String, source: &str) -> Option<String> {
    if text.trim().is_empty() {
        return None;
    }
    if !source.ends_with('\n') || !text.ends_with('\n') {
        text.push('\n');
    }
    Some(text)
}

fn reason_of(err: &minijinja::Error) -> String {
    match err.detail() {
        Some(d) => format!("{}: {d}", err.kind()),
        None => err.kind().to_string(),
    }
}

/// The first template line mentioning `word` as a whole identifier, else 1.
fn line_mentioning(source: &str, word: &str) -> usize {
    let ident = |c: char| c.is_alphanumeric() || c == '_';
    for (i, line) in source.lines().enumerate() {
        for (at, _) in line.match_indices(word) {
            let before = line[..at].chars().next_back();
            let after = line[at + word.len()..].chars().next();
            if !before.is_some_and(ident) && !after.is_some_and(ident) {
                return i + 1;
            }
        }
    }
    1
}

impl TemplateSet {
    /// Loads a set from a TOML file (a bot's own `template.toml` or a file of the templates
    /// folder); the set is named after the file stem. Keys the file leaves out take the
    /// built-in `default` set's value.
    pub fn from_file(path: &Path) -> Result<TemplateSet, TemplateError> {
        let shown = path.display().to_string();
        let text = std::fs::read_to_string(path).map_err(|e| TemplateError::Io {
            path: shown.clone(),
            reason: e.to_string(),
        })?;
        let name = path
            .file_stem()
            .map_or_else(|| shown.clone(), |s| s.to_string_lossy().into_owned());
        TemplateSet::from_source(&name, &shown, &text)
    }

    /// Compiles a set from TOML text; `path` is only used in error messages. Keys the text
    /// leaves out take the built-in `default` set's value.
    pub fn from_source(name: &str, path: &str, text: &str) -> Result<TemplateSet, TemplateError> {
        let mut entries = parse_entries(path, text)?;
        for (key, entry) in default_entries() {
            entries.entry(key.clone()).or_insert_with(|| entry.clone());
        }
        TemplateSet::compile(name, path, entries)
    }

    fn compile(name: &str, path: &str, entries: RawEntries) -> Result<TemplateSet, TemplateError> {
        let mut env = Environment::new();
        env.set_undefined_behavior(UndefinedBehavior::Strict);
        // Otherwise Jinja drops the last newline, and with it a last line that renders empty.
        env.set_syntax(
            minijinja::syntax::SyntaxConfig::builder()
                .keep_trailing_newline(true)
                .build()
                .expect("the default delimiters are valid"),
        );
        env.set_auto_escape_callback(|_| AutoEscape::None);
        let globals: HashSet<String> = env.globals().map(|(k, _)| k.to_string()).collect();

        let card_reply = ReplyPattern::new(&entries["card_reply"], "card_reply", "{card}")?;
        let row_reply = ReplyPattern::new(&entries["row_reply"], "row_reply", "{row}")?;

        let mut messages: [Option<Entry>; 8] = Default::default();
        for (i, key) in MESSAGE_KEYS.iter().enumerate() {
            let entry = &entries[*key];
            if entry.source.trim().is_empty() {
                continue;
            }
            env.add_template_owned(*key, entry.source.clone())
                .map_err(|e| {
                    let template_line = e.line().unwrap_or(1);
                    TemplateError::Syntax {
                        path: entry.path.to_string(),
                        line: entry.file_line(template_line),
                        message: key.to_string(),
                        template_line,
                        reason: reason_of(&e),
                    }
                })?;
            let template = env.get_template(key).expect("just added");
            let mut unknown: Vec<String> = template
                .undeclared_variables(false)
                .into_iter()
                .filter(|v| !VARIABLES.contains(&v.as_str()) && !globals.contains(v))
                .collect();
            unknown.sort_by_key(|v| (line_mentioning(&entry.source, v), v.clone()));
            if let Some(variable) = unknown.into_iter().next() {
                return Err(TemplateError::UnknownVariable {
                    path: entry.path.to_string(),
                    line: entry.file_line(line_mentioning(&entry.source, &variable)),
                    message: key.to_string(),
                    variable,
                });
            }
            messages[i] = Some(entry.clone());
        }

        let set = TemplateSet {
            name: name.to_string(),
            path: path.to_string(),
            env,
            messages,
            card_reply,
            row_reply,
        };
        for (i, phase) in Phase::ALL.into_iter().enumerate() {
            for (sample, view) in &sample_views()[i] {
                if let Err(TemplateError::Render {
                    path,
                    line,
                    template_line,
                    reason,
                    ..
                }) = set.render(view)
                {
                    return Err(TemplateError::SampleRender {
                        path,
                        line,
                        message: phase.name().to_string(),
                        template_line,
                        sample: sample.clone(),
                        reason,
                    });
                }
            }
        }
        Ok(set)
    }

    /// The set's name: the file stem, or the built-in name.
    pub fn name(&self) -> &str {
        &self.name
    }

    /// The file the set was loaded from, as shown in messages.
    pub fn path(&self) -> &str {
        &self.path
    }

    /// The message for `view.phase`, ready to write: `Ok(None)` when the template renders to
    /// nothing but whitespace (the message is not sent), otherwise text ending with `\n`.
    /// Errors only for failures the load-time checks could not foresee.
    pub fn render(&self, view: &View) -> Result<Option<String>, TemplateError> {
        let key = view.phase.name();
        let Some(entry) = &self.messages[phase_index(view.phase)] else {
            return Ok(None);
        };
        let template = self.env.get_template(key).expect("compiled at load");
        match template.render(Value::from(Serde(view))) {
            Ok(text) => Ok(finish(text, &entry.source)),
            Err(e) => {
                let template_line = e.line().unwrap_or(1);
                Err(TemplateError::Render {
                    set: self.name.clone(),
                    path: entry.path.to_string(),
                    line: entry.file_line(template_line),
                    message: key.to_string(),
                    template_line,
                    reason: reason_of(&e),
                })
            }
        }
    }

    /// Whether the set sends anything at all for `phase` (a blank template never does).
    pub fn sends(&self, phase: Phase) -> bool {
        self.messages[phase_index(phase)].is_some()
    }

    /// The card reply pattern, e.g. `PLAY {card}`.
    pub fn card_pattern(&self) -> &str {
        &self.card_reply.pattern
    }

    /// The row reply pattern, e.g. `PICK {row}`.
    pub fn row_pattern(&self) -> &str {
        &self.row_reply.pattern
    }

    /// Reads a reply to `turn`: the card number. Range and hand are the caller's to check.
    pub fn parse_card(&self, reply: &str) -> Result<i64, ReplyError> {
        self.card_reply.parse(reply)
    }

    /// Reads a reply to `pickrow`: the row index. Range is the caller's to check.
    pub fn parse_row(&self, reply: &str) -> Result<i64, ReplyError> {
        self.row_reply.parse(reply)
    }
}

/// The built-in `default` set, compiled once per process; cheap to call repeatedly.
pub fn default_set() -> Arc<TemplateSet> {
    static DEFAULT: OnceLock<Arc<TemplateSet>> = OnceLock::new();
    DEFAULT
        .get_or_init(|| Arc::new(builtin(0).expect("the built-in default set compiles (tested)")))
        .clone()
}

fn builtin(i: usize) -> Result<TemplateSet, TemplateError> {
    let (name, text) = BUILTIN[i];
    TemplateSet::from_source(name, &format!("{BUILTIN_DIR}/{name}.toml"), text)
}

/// Every template set a series may use, by name: the built-in ones and those of the
/// `--templates` folder. A set that fails to load is kept with its error, so that only the
/// bots using it are skipped, never the whole series.
#[derive(Debug, Default)]
pub struct TemplateLibrary {
    sets: BTreeMap<String, Result<Arc<TemplateSet>, TemplateError>>,
}

impl TemplateLibrary {
    /// The built-in sets (`default`, `named`, `codingame`, `codingame-statement`), then every `*.toml` in `dir` (when
    /// given and existing), which adds a set or replaces a built-in one of the same file stem.
    /// Errs only when `dir` exists but cannot be listed; broken files are kept as errors.
    pub fn load(dir: Option<&Path>) -> Result<TemplateLibrary, TemplateError> {
        let mut sets = BTreeMap::new();
        for (i, (name, _)) in BUILTIN.iter().enumerate() {
            let set = if i == 0 {
                Ok(default_set())
            } else {
                builtin(i).map(Arc::new)
            };
            sets.insert(name.to_string(), set);
        }
        if let Some(dir) = dir.filter(|d| d.exists()) {
            let io = |e: std::io::Error| TemplateError::Io {
                path: dir.display().to_string(),
                reason: e.to_string(),
            };
            let mut files = Vec::new();
            for item in std::fs::read_dir(dir).map_err(io)? {
                let path = item.map_err(io)?.path();
                if path.extension().is_some_and(|e| e == "toml") && !path.is_dir() {
                    files.push(path);
                }
            }
            files.sort();
            for path in files {
                let set = TemplateSet::from_file(&path).map(Arc::new);
                let name = path
                    .file_stem()
                    .expect("a .toml file has a stem")
                    .to_string_lossy()
                    .into_owned();
                sets.insert(name, set);
            }
        }
        Ok(TemplateLibrary { sets })
    }

    /// The set called `name`; its load error if it is broken; an error listing the available
    /// sets if there is none of that name.
    pub fn get(&self, name: &str) -> Result<Arc<TemplateSet>, TemplateError> {
        match self.sets.get(name) {
            Some(set) => set.clone(),
            None => Err(TemplateError::UnknownSet {
                name: name.to_string(),
                available: self.names().join(", "),
            }),
        }
    }

    /// The names of all sets, usable or not, sorted.
    pub fn names(&self) -> Vec<String> {
        self.sets.keys().cloned().collect()
    }

    /// The sets that failed to load, with their errors, to report them up front.
    pub fn broken(&self) -> Vec<(String, TemplateError)> {
        self.sets
            .iter()
            .filter_map(|(n, s)| s.as_ref().err().map(|e| (n.clone(), e.clone())))
            .collect()
    }
}

/// Views a table could send for each phase ([`Phase::ALL`] order), each with a short label,
/// from seeded games of 2, 3 and 10 players: the trial renders that catch runtime template
/// errors at load. Built once per process.
fn sample_views() -> &'static [Vec<(String, View)>; 8] {
    static SAMPLES: OnceLock<[Vec<(String, View)>; 8]> = OnceLock::new();
    SAMPLES.get_or_init(|| {
        let mut out: [Vec<(String, View)>; 8] = Default::default();
        for (seed, players) in [(1u64, 2usize), (2, 3), (3, 10)] {
            let mut all: [Vec<View>; 8] = Default::default();
            for view in random_game_views(seed, players) {
                all[phase_index(view.phase)].push(view);
            }
            for (i, views) in all.into_iter().enumerate() {
                // Keep at most 6 per phase and game, always the first and the last.
                let n = views.len();
                let keep: BTreeSet<usize> = (0..6.min(n))
                    .map(|k| if n <= 6 { k } else { k * (n - 1) / 5 })
                    .collect();
                for k in keep {
                    let v = &views[k];
                    let label = format!(
                        "{players} players, seat {}, turn {}, {} cards in hand",
                        v.seat,
                        v.turn,
                        v.hand.len()
                    );
                    out[i].push((label, v.clone()));
                }
            }
        }
        out
    })
}

/// Every view a table would send in one game of `players` with random choices, in order (plus
/// an `invalid` view each turn): the sample views checked at load, and the workload of the
/// rendering benchmark.
pub fn random_game_views(seed: u64, players: usize) -> Vec<View> {
    let mut rng = rand::rngs::ChaCha8Rng::seed_from_u64(seed);
    let deal = Deal::shuffled(players, &mut rng);
    let names: Vec<String> = (0..players).map(|s| format!("bot{s}")).collect();
    let mut game = Game::new(&deal);
    let mut out = Vec::new();
    let all = |game: &Game, phase, out: &mut Vec<View>| {
        out.extend((0..players).map(|s| game.view(s, phase, &names)));
    };
    all(&game, Phase::Start, &mut out);
    all(&game, Phase::Cards, &mut out);
    while !game.is_over() {
        game.begin_turn();
        all(&game, Phase::Turn, &mut out);
        let cards: Vec<_> = (0..players)
            .map(|s| *game.hand(s).choose(&mut rng).expect("cards left"))
            .collect();
        out.push(game.view(0, Phase::Invalid, &names));
        let order = game.reveal(&cards);
        all(&game, Phase::Used, &mut out);
        for seat in order {
            let placement = match game.place(seat) {
                Some(p) => p,
                None => {
                    out.push(game.view(seat, Phase::Pickrow, &names));
                    out.push(game.view(seat, Phase::Invalid, &names));
                    game.take_row(seat, rng.random_range(0..4))
                }
            };
            if !placement.took.is_empty() {
                let mut view = game.view(seat, Phase::Cardgain, &names);
                view.gained = placement.took;
                view.gained_cows = placement.cows;
                out.push(view);
            }
        }
    }
    all(&game, Phase::Score, &mut out);
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::rngs::ChaCha8Rng;
    use std::fmt::Write as _;

    /// A transcript of `set`'s messages for `seat` over `views`, labelled, for snapshots.
    fn transcript(set: &TemplateSet, views: &[View]) -> String {
        let mut out = String::new();
        for view in views {
            let label = format!(
                "--- {} (seat {}, turn {})",
                view.phase.name(),
                view.seat,
                view.turn
            );
            match set.render(view).unwrap() {
                Some(text) => write!(out, "{label}\n{text}").unwrap(),
                None => writeln!(out, "{label}: not sent").unwrap(),
            }
        }
        out
    }

    /// The fixed game of the snapshots: 3 players, everyone plays their lowest card, so a
    /// pickrow (and its cardgain) comes early; first three turns in full, then the end.
    fn fixed_game() -> Vec<View> {
        let mut rng = ChaCha8Rng::seed_from_u64(6);
        let deal = Deal::shuffled(3, &mut rng);
        let names: Vec<String> = ["alice", "bob", "carol"].map(String::from).to_vec();
        let mut game = Game::new(&deal);
        let mut out = Vec::new();
        for phase in [Phase::Start, Phase::Cards] {
            out.extend((0..3).map(|s| game.view(s, phase, &names)));
        }
        let (mut pickrows, mut cardgains) = (0, 0);
        while !game.is_over() {
            game.begin_turn();
            let shown = game.turn() <= 3;
            if shown {
                out.extend((0..3).map(|s| game.view(s, Phase::Turn, &names)));
            }
            let cards: Vec<_> = (0..3)
                .map(|s| *game.hand(s).iter().min().unwrap())
                .collect();
            let order = game.reveal(&cards);
            if shown {
                out.extend((0..3).map(|s| game.view(s, Phase::Used, &names)));
            }
            for seat in order {
                let placement = match game.place(seat) {
                    Some(p) => p,
                    None => {
                        pickrows += 1;
                        if shown {
                            out.push(game.view(seat, Phase::Pickrow, &names));
                        }
                        let row = game.board().cheapest_row();
                        game.take_row(seat, row)
                    }
                };
                if !placement.took.is_empty() {
                    cardgains += 1;
                    let mut view = game.view(seat, Phase::Cardgain, &names);
                    view.gained = placement.took;
                    view.gained_cows = placement.cows;
                    if shown {
                        out.push(view);
                    }
                }
            }
        }
        assert!(
            pickrows > 0 && cardgains > 0,
            "the fixed game must show both"
        );
        out.push(game.view(1, Phase::Invalid, &names));
        out.extend((0..3).map(|s| game.view(s, Phase::Score, &names)));
        for phase in [Phase::Pickrow, Phase::Cardgain] {
            assert!(out.iter().any(|v| v.phase == phase), "no {phase:?} shown");
        }
        out
    }

    #[test]
    fn snapshot_default() {
        let lib = TemplateLibrary::load(None).unwrap();
        insta::assert_snapshot!(transcript(&lib.get("default").unwrap(), &fixed_game()));
    }

    #[test]
    fn snapshot_named() {
        let lib = TemplateLibrary::load(None).unwrap();
        insta::assert_snapshot!(transcript(&lib.get("named").unwrap(), &fixed_game()));
    }

    #[test]
    fn snapshot_codingame() {
        let lib = TemplateLibrary::load(None).unwrap();
        insta::assert_snapshot!(transcript(&lib.get("codingame").unwrap(), &fixed_game()));
    }

    #[test]
    fn snapshot_codingame_statement() {
        let lib = TemplateLibrary::load(None).unwrap();
        insta::assert_snapshot!(transcript(
            &lib.get("codingame-statement").unwrap(),
            &fixed_game()
        ));
    }

    /// The core protocol, written out by hand from its specification.
    fn core_protocol(view: &View) -> Option<String> {
        fn line(word: &str, items: impl IntoIterator<Item = String>) -> String {
            let mut s = word.to_string();
            for item in items {
                s.push(' ');
                s.push_str(&item);
            }
            s.push('\n');
            s
        }
        let board = |v: &View| {
            line("count", v.rows.iter().map(|r| r.cards.len().to_string()))
                + &line(
                    "cows",
                    v.rows
                        .iter()
                        .map(|r| crate::game::cows_in(&r.cards).to_string()),
                )
                + &line(
                    "top",
                    v.rows.iter().map(|r| r.cards.last().unwrap().to_string()),
                )
        };
        let num = |xs: &[u8]| xs.iter().map(|x| x.to_string()).collect::<Vec<_>>();
        match view.phase {
            Phase::Start => None,
            Phase::Cards => Some(line("cards", num(&view.dealt))),
            Phase::Turn => Some(board(view)),
            Phase::Used => Some(line("used", num(&view.used))),
            Phase::Pickrow => Some("pickrow\n".to_string() + &board(view)),
            Phase::Cardgain => Some(
                line("cardgain", num(&view.gained))
                    + &format!("cowgain {}\n", crate::game::cows_in(&view.gained)),
            ),
            Phase::Score => {
                let others = view
                    .scores
                    .iter()
                    .enumerate()
                    .filter(|&(s, _)| s != view.seat)
                    .map(|(_, x)| x.to_string());
                Some(format!("score {}\n", view.scores[view.seat]) + &line("others", others))
            }
            Phase::Invalid => Some("invalid\n".to_string()),
        }
    }

    #[test]
    fn default_is_the_core_protocol_byte_for_byte() {
        let set = default_set();
        let mut count = [0usize; 8];
        for seed in 0..150u64 {
            let players = 1 + (seed as usize % 10);
            for view in random_game_views(1000 + seed, players) {
                count[phase_index(view.phase)] += 1;
                assert_eq!(
                    set.render(&view).unwrap(),
                    core_protocol(&view),
                    "{players} players, {view:?}"
                );
            }
        }
        assert!(
            count.iter().all(|&c| c > 0),
            "every phase checked: {count:?}"
        );
    }

    #[test]
    fn view_fields_are_the_variables() {
        let view = random_game_views(1, 2).remove(0);
        let json = serde_json::to_value(&view).unwrap();
        let fields: BTreeSet<&str> = json
            .as_object()
            .unwrap()
            .keys()
            .map(|k| k.as_str())
            .collect();
        assert_eq!(fields, VARIABLES.into_iter().collect::<BTreeSet<_>>());
    }

    #[test]
    fn sets_are_send_and_sync() {
        fn check<T: Send + Sync>() {}
        check::<TemplateSet>();
        check::<TemplateLibrary>();
    }

    #[test]
    fn library_lists_builtins_and_reports_unknown_names() {
        let lib = TemplateLibrary::load(None).unwrap();
        assert_eq!(
            lib.names(),
            ["codingame", "codingame-statement", "default", "named"]
        );
        assert!(lib.broken().is_empty());
        let err = lib.get("codngame").unwrap_err();
        let msg = err.to_string();
        assert!(
            msg.contains("'codngame'")
                && msg.contains("codingame, codingame-statement, default, named"),
            "{msg}"
        );
        // Missing dir is fine.
        let lib = TemplateLibrary::load(Some(Path::new("/nonexistent/take6"))).unwrap();
        assert_eq!(lib.names().len(), BUILTIN.len());
    }

    #[test]
    fn library_folder_adds_overrides_and_keeps_broken_sets() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(dir.path().join("loud.toml"), "invalid = \"INVALID!\"\n").unwrap();
        std::fs::write(
            dir.path().join("named.toml"),
            "start = \"hello {{ seat }}\"\n",
        )
        .unwrap();
        std::fs::write(dir.path().join("broken.toml"), "turn = \"{{ hnd }}\"\n").unwrap();
        std::fs::write(dir.path().join("README.md"), "not a set").unwrap();
        let lib = TemplateLibrary::load(Some(dir.path())).unwrap();
        assert_eq!(
            lib.names(),
            [
                "broken",
                "codingame",
                "codingame-statement",
                "default",
                "loud",
                "named"
            ]
        );
        let view = random_game_views(4, 2).remove(0);
        let named = lib.get("named").unwrap();
        assert_eq!(named.render(&view).unwrap().as_deref(), Some("hello 0\n"));
        let loud = lib.get("loud").unwrap();
        let mut invalid = view.clone();
        invalid.phase = Phase::Invalid;
        assert_eq!(
            loud.render(&invalid).unwrap().as_deref(),
            Some("INVALID!\n")
        );
        let mut cards = view.clone();
        cards.phase = Phase::Cards;
        assert_eq!(
            loud.render(&cards).unwrap(),
            default_set().render(&cards).unwrap(),
            "missing keys take the default's value"
        );
        let err = lib.get("broken").unwrap_err().to_string();
        assert!(
            err.contains("broken.toml:1:") && err.contains("'hnd'"),
            "{err}"
        );
        assert_eq!(lib.broken().len(), 1);
    }

    fn load_err(text: &str) -> String {
        TemplateSet::from_source("foo", "templates/foo.toml", text)
            .unwrap_err()
            .to_string()
    }

    #[test]
    fn toml_that_does_not_parse_names_file_and_line() {
        let msg = load_err("cards = \"cards\"\n\nturn = \"unterminated\n");
        assert!(
            msg.starts_with("templates/foo.toml:3: not a valid template set"),
            "{msg}"
        );
        let msg = load_err("cards = \"x\"\nturn = 5\n");
        assert!(msg.starts_with("templates/foo.toml:2: "), "{msg}");
    }

    #[test]
    fn unknown_key_names_file_line_and_suggests() {
        let msg = load_err("cards = \"x\"\n# comment\ntrun = \"y\"\n");
        assert!(
            msg.starts_with("templates/foo.toml:3: unknown key 'trun'"),
            "{msg}"
        );
        assert!(msg.contains("did you mean 'turn'"), "{msg}");
    }

    #[test]
    fn syntax_error_names_file_line_and_template_line() {
        let text = "cards = \"x\"\nturn = \"\"\"\ncount\n{{ rows | }}\n\"\"\"\n";
        let msg = load_err(text);
        assert!(
            msg.starts_with(
                "templates/foo.toml:4: message 'turn' (template line 2) does not parse"
            ),
            "{msg}"
        );
        let msg = load_err("used = \"{% for x in used %}{{ x }}\"\n");
        assert!(
            msg.starts_with("templates/foo.toml:1: message 'used'"),
            "{msg}"
        );
    }

    #[test]
    fn unknown_variable_names_file_line_and_variables() {
        let text = "cards = \"x\"\n\n\nturn = \"\"\"\n{{ seat }}\n{{ hnd|join(' ') }}\n\"\"\"\n";
        let msg = load_err(text);
        assert!(
            msg.starts_with("templates/foo.toml:6: message 'turn' uses unknown variable 'hnd'"),
            "{msg}"
        );
        assert!(msg.contains("seat, n_players, names, hand"), "{msg}");
        // Globals and loop variables are not unknown.
        TemplateSet::from_source(
            "ok",
            "ok.toml",
            "turn = \"{% for i in range(4) %}{{ loop.index }}{{ rows[i].top }}{% endfor %}\"",
        )
        .unwrap();
    }

    #[test]
    fn runtime_error_on_a_sample_view_is_caught_at_load() {
        // `used` is empty before the reveal, so this fails on every turn view.
        let msg = load_err("cards = \"x\"\nturn = \"first {{ used[0] }}\"\n");
        assert!(
            msg.starts_with(
                "templates/foo.toml:2: message 'turn' (template line 1) fails on a sample"
            ),
            "{msg}"
        );
        // An unknown attribute of a row is only found by rendering.
        let msg =
            load_err("pickrow = \"\"\"\n{% for r in rows %}\n{{ r.size }}\n{% endfor %}\"\"\"");
        assert!(
            msg.starts_with("templates/foo.toml:3: message 'pickrow' (template line 2)"),
            "{msg}"
        );
    }

    #[test]
    fn reply_pattern_without_placeholder_names_file_and_line() {
        let msg = load_err("cards = \"x\"\ncard_reply = \"PLAY {crad}\"\n");
        assert!(
            msg.starts_with("templates/foo.toml:2: reply pattern 'card_reply'"),
            "{msg}"
        );
        assert!(msg.contains("{card}"), "{msg}");
        let msg = load_err("row_reply = \"{row} {row}\"\n");
        assert!(
            msg.starts_with("templates/foo.toml:1: reply pattern 'row_reply'"),
            "{msg}"
        );
    }

    #[test]
    fn missing_file_is_an_io_error_naming_it() {
        let msg = TemplateSet::from_file(Path::new("/nonexistent/x.toml"))
            .unwrap_err()
            .to_string();
        assert!(
            msg.starts_with("/nonexistent/x.toml: cannot read it"),
            "{msg}"
        );
    }

    #[test]
    fn from_file_names_the_set_after_the_stem() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("template.toml");
        std::fs::write(&path, "card_reply = \"PLAY {card}\"\n").unwrap();
        let set = TemplateSet::from_file(&path).unwrap();
        assert_eq!(set.name(), "template");
        assert_eq!(set.parse_card("PLAY 7"), Ok(7));
        assert_eq!(set.parse_row("2"), Ok(2));
    }

    #[test]
    fn reply_parsing() {
        let def = default_set();
        assert_eq!(def.parse_card("42"), Ok(42));
        assert_eq!(def.parse_card("  42 \r\n"), Ok(42));
        assert_eq!(def.parse_card("-3"), Ok(-3));
        assert_eq!(def.parse_row("3\r"), Ok(3));
        assert_eq!(def.parse_card("").unwrap_err().kind(), "empty_reply");
        assert_eq!(def.parse_card(" \r\n").unwrap_err().kind(), "empty_reply");
        assert_eq!(def.parse_card("abc").unwrap_err().kind(), "not_a_number");
        assert_eq!(def.parse_card("4 2").unwrap_err().kind(), "not_a_number");
        assert_eq!(def.parse_card("1.5").unwrap_err().kind(), "not_a_number");
        assert_eq!(
            def.parse_card("99999999999999999999").unwrap_err().kind(),
            "not_a_number"
        );

        let lib = TemplateLibrary::load(None).unwrap();
        let cg = lib.get("codingame").unwrap();
        assert_eq!(cg.card_pattern(), "PLAY {card}");
        assert_eq!(cg.parse_card("PLAY 17"), Ok(17));
        assert_eq!(cg.parse_card("\tPLAY \t 17  \r\n"), Ok(17));
        assert_eq!(cg.parse_card("PLAY -1"), Ok(-1));
        assert_eq!(cg.parse_row("PICK 0"), Ok(0));
        assert_eq!(cg.parse_card("play 17").unwrap_err().kind(), "bad_reply");
        assert_eq!(cg.parse_card("PLAY17").unwrap_err().kind(), "bad_reply");
        assert_eq!(cg.parse_card("17").unwrap_err().kind(), "bad_reply");
        assert_eq!(cg.parse_card("PICK 1").unwrap_err().kind(), "bad_reply");
        assert_eq!(cg.parse_card("PLAY x").unwrap_err().kind(), "not_a_number");
        assert_eq!(
            cg.parse_card("PLAY 17 thanks").unwrap_err().kind(),
            "not_a_number"
        );
        let err = cg.parse_card("PLAY 17x").unwrap_err();
        assert_eq!(
            err,
            ReplyError::NotANumber {
                expected: "PLAY {card}".into(),
                placeholder: "{card}".into(),
                got: "PLAY 17x".into()
            }
        );
        assert_eq!(
            err.to_string(),
            "expected a reply like 'PLAY {card}' with a whole number for {card}, got 'PLAY 17x'"
        );

        // Literal after the number, and whitespace runs.
        let set = TemplateSet::from_source(
            "x",
            "x.toml",
            "card_reply = \"card  = {card};\"\nrow_reply = \"row {row} please\"",
        )
        .unwrap();
        assert_eq!(set.parse_card("card = 5;"), Ok(5));
        assert_eq!(set.parse_card("card \t=   -5;"), Ok(-5));
        assert_eq!(set.parse_card("card = 5").unwrap_err().kind(), "bad_reply");
        assert_eq!(
            set.parse_card("card = 5;;").unwrap_err().kind(),
            "bad_reply"
        );
        assert_eq!(set.parse_row("row 2 please"), Ok(2));
        assert_eq!(set.parse_row("row 2  please "), Ok(2));
        assert_eq!(
            set.parse_row("row 2 Please").unwrap_err().kind(),
            "bad_reply"
        );

        // Long junk is shown truncated.
        let junk = "x".repeat(500);
        let ReplyError::NotANumber { got, .. } = def.parse_card(&junk).unwrap_err() else {
            panic!("not a number expected");
        };
        assert_eq!(got.chars().count(), REPLY_SHOWN + 1);
    }

    #[test]
    fn blank_messages_are_not_sent_and_newlines_are_added() {
        let set = TemplateSet::from_source(
            "x",
            "x.toml",
            "start = \"{% if seat > 100 %}x{% endif %}  \\n\"\ncards = \"a\\nb\"\nused = \"u\\n\\n\"\n",
        )
        .unwrap();
        let views = random_game_views(5, 2);
        let get = |phase| {
            let v = views.iter().find(|v| v.phase == phase).unwrap();
            set.render(v).unwrap()
        };
        assert_eq!(get(Phase::Start), None);
        assert_eq!(get(Phase::Cards).as_deref(), Some("a\nb\n"));
        assert_eq!(get(Phase::Used).as_deref(), Some("u\n\n"));
        assert!(!default_set().sends(Phase::Start));
    }

    /// A last line that renders empty (CodinGame's hand line at the last row choice) is sent as
    /// an empty line, in a block written either way round.
    #[test]
    fn an_empty_last_line_is_still_a_line() {
        let set = TemplateSet::from_source(
            "x",
            "x.toml",
            r#"
pickrow = """
PICK
{{ hand | length }}
{{ hand | join(' ') }}
"""
turn = "{{ hand | length }}\n{{ hand | join(' ') }}"
"#,
        )
        .unwrap();
        let mut view = random_game_views(5, 2)
            .into_iter()
            .find(|v| v.phase == Phase::Pickrow)
            .expect("a row choice");
        view.hand.clear();
        assert_eq!(set.render(&view).unwrap().as_deref(), Some("PICK\n0\n\n"));
        view.phase = Phase::Turn;
        assert_eq!(set.render(&view).unwrap().as_deref(), Some("0\n\n"));
    }

    /// The README's example file loads, and the filters it mentions exist.
    #[test]
    fn readme_example_and_filters_work() {
        let readme = include_str!("../../templates/README.md");
        let example = readme
            .split("```toml\n")
            .nth(1)
            .and_then(|rest| rest.split("```").next())
            .expect("the README has a toml example");
        let set = TemplateSet::from_source("example", "README.md", example).unwrap();
        assert_eq!(set.card_pattern(), "PLAY {card}");
        let set = TemplateSet::from_source(
            "filters",
            "filters.toml",
            "turn = \"{{ rows | map(attribute='top') | join(' ') }} {{ hand | length }}\"",
        )
        .unwrap();
        let view = random_game_views(7, 2)
            .into_iter()
            .find(|v| v.phase == Phase::Turn)
            .unwrap();
        let tops: Vec<String> = view.rows.iter().map(|r| r.top.to_string()).collect();
        assert_eq!(
            set.render(&view).unwrap().unwrap(),
            format!("{} 10\n", tops.join(" "))
        );
    }

    #[test]
    fn message_keys_follow_the_phases() {
        let names: Vec<&str> = Phase::ALL.iter().map(|p| p.name()).collect();
        assert_eq!(names, MESSAGE_KEYS);
    }

    #[test]
    fn default_set_has_every_key() {
        let entries = default_entries();
        assert_eq!(entries.len(), MESSAGE_KEYS.len() + REPLY_KEYS.len());
        assert!(Arc::ptr_eq(&default_set(), &default_set()));
    }
}
