//! A compiled template set: every template checked at load (syntax, variables, a trial render
//! against sample views), then rendering a message per view.

use std::collections::HashSet;
use std::path::Path;

use minijinja::{AutoEscape, Environment, UndefinedBehavior};

use super::context::{Recent, Uses};
use super::load::{Entry, RawEntries, default_entries, parse_entries};
use super::native;
use super::reply::ReplyPattern;
use super::samples::{phase_index, sample_views};
use super::{MESSAGE_KEYS, RENDER_FUEL, REPLY_KEYS, ReplyError, TemplateError, VARIABLES};
use crate::games::take6::game::{Phase, View};

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
    /// Per phase: the variables its template uses, the only ones made into template values
    /// (turning the whole view into values took much of a message's rendering time).
    uses: [Uses; 8],
    /// Per phase: the last text of a message every seat gets alike, for the next seat.
    recent: [Recent; 8],
    /// Per phase: whether the template is the default's, written out in Rust ([`native`]).
    native: [bool; 8],
    card_reply: ReplyPattern,
    row_reply: ReplyPattern,
    /// SHA-256 of every message template and reply pattern (see [`TemplateSet::fingerprint`]).
    fingerprint: String,
    /// Whether the CPU time spent rendering and parsing through this set is the bot's own
    /// (a bot's own `template.toml`): otherwise a bot could compute its move in its template,
    /// inside the controller, on nobody's clock. The host's sets are not charged.
    charged: bool,
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
    if err.kind() == minijinja::ErrorKind::OutOfFuel {
        return format!(
            "too much work: the message took more than the limit of {RENDER_FUEL} steps \
             (minijinja fuel) to render; simplify the template"
        );
    }
    match err.detail() {
        Some(d) => format!("{}: {d}", err.kind()),
        None => err.kind().to_string(),
    }
}

/// What each message's template uses. A set whose templates include or import one another
/// gives every message what any of them uses (an included template's variables are not its
/// includer's undeclared variables).
fn uses_of(read: [HashSet<String>; 8], entries: &RawEntries) -> [Uses; 8] {
    let composed = entries.values().any(|e| {
        ["include", "import", "extends"]
            .iter()
            .any(|w| e.source.contains(w))
    });
    if composed {
        let all: HashSet<&String> = read.iter().flatten().collect();
        let uses = Uses::of(|v| all.iter().any(|a| a.as_str() == v));
        return std::array::from_fn(|_| uses.clone());
    }
    read.map(|names| Uses::of(|v| names.contains(v)))
}

/// The hex SHA-256 of the templates and reply patterns of `entries`, key by key in the order of
/// [`MESSAGE_KEYS`] and [`REPLY_KEYS`] (every key is there: a set's file is completed with the
/// default's).
fn fingerprint_of(entries: &RawEntries) -> String {
    use sha2::{Digest, Sha256};
    let mut hasher = Sha256::new();
    for key in MESSAGE_KEYS.iter().chain(REPLY_KEYS.iter()) {
        hasher.update(key.as_bytes());
        hasher.update([0]);
        hasher.update(entries[*key].source.as_bytes());
        hasher.update([0]);
    }
    hasher
        .finalize()
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect()
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

/// The most of a template file read: a set is a few KiB of text.
const TEMPLATE_CAP: u64 = 1 << 20;

impl TemplateSet {
    /// Loads a set from a TOML file (a bot's own `template.toml` or a file of the templates
    /// folder); the set is named after the file stem. Keys the file leaves out take the
    /// built-in `default` set's value.
    pub fn from_file(path: &Path) -> Result<TemplateSet, TemplateError> {
        let shown = path.display().to_string();
        // Through the door: a FIFO or a huge file is refused, never waited on or read whole.
        let io = |e: std::io::Error| TemplateError::Io {
            path: shown.clone(),
            reason: e.to_string(),
        };
        let (folder, file) = match (path.parent(), path.file_name()) {
            (Some(folder), Some(file)) => (folder, Path::new(file)),
            _ => return Err(io(std::io::ErrorKind::NotFound.into())),
        };
        let folder = if folder.as_os_str().is_empty() {
            Path::new(".")
        } else {
            folder
        };
        let bytes = crate::door::Folder::open(folder)
            .and_then(|f| f.read(file, TEMPLATE_CAP))
            .map_err(io)?;
        let text = String::from_utf8(bytes)
            .map_err(|e| io(std::io::Error::new(std::io::ErrorKind::InvalidData, e)))?;
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
        let mut env = environment();
        let globals: HashSet<String> = env.globals().map(|(k, _)| k.to_string()).collect();

        let card_reply = ReplyPattern::new(&entries["card_reply"], "card_reply", "{card}")?;
        let row_reply = ReplyPattern::new(&entries["row_reply"], "row_reply", "{row}")?;

        let mut messages: [Option<Entry>; 8] = Default::default();
        let mut uses: [HashSet<String>; 8] = Default::default();
        for (i, key) in MESSAGE_KEYS.iter().enumerate() {
            let entry = &entries[*key];
            if entry.source.trim().is_empty() {
                continue;
            }
            uses[i] = add_message(&mut env, &globals, key, entry)?;
            messages[i] = Some(entry.clone());
        }

        let native = std::array::from_fn(|i| {
            messages[i]
                .as_ref()
                .is_some_and(|e: &Entry| native::covers(i, &e.source))
        });
        let fingerprint = fingerprint_of(&entries);
        let set = TemplateSet {
            name: name.to_string(),
            path: path.to_string(),
            env,
            messages,
            uses: uses_of(uses, &entries),
            recent: Default::default(),
            native,
            card_reply,
            row_reply,
            fingerprint,
            charged: false,
        };
        set.render_samples()?;
        Ok(set)
    }

    /// Renders every sample view of every phase, so that a set whose template fails on a
    /// view a game can produce is refused as it loads.
    fn render_samples(&self) -> Result<(), TemplateError> {
        for (i, phase) in Phase::ALL.into_iter().enumerate() {
            for (sample, view) in &sample_views()[i] {
                if let Err(TemplateError::Render {
                    path,
                    line,
                    template_line,
                    reason,
                    ..
                }) = self.render(view)
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
        Ok(())
    }

    /// The same set, its rendering and parsing charged to the bot that brought it (a bot's own
    /// `template.toml`).
    pub fn charged_to_bot(mut self) -> TemplateSet {
        self.charged = true;
        self
    }

    /// Whether rendering and parsing through this set is the bot's own time.
    pub fn charged(&self) -> bool {
        self.charged
    }

    /// The set's name: the file stem, or the built-in name.
    pub fn name(&self) -> &str {
        &self.name
    }

    /// What the set says on the wire, as a hex SHA-256 of its message templates and reply
    /// patterns in key order: equal for two sets that send and read the same text whatever their
    /// files' comments, layout or names. A series keeps it per bot, and refuses to resume when
    /// a set changed meanwhile.
    pub fn fingerprint(&self) -> &str {
        &self.fingerprint
    }

    /// The file the set was loaded from, as shown in messages.
    pub fn path(&self) -> &str {
        &self.path
    }

    /// The message for `view.phase`, ready to write: `Ok(None)` when the template renders to
    /// nothing but whitespace (the message is not sent), otherwise text ending with `\n`.
    /// Errors only for failures the load-time checks could not foresee.
    pub fn render(&self, view: &View) -> Result<Option<String>, TemplateError> {
        let mut text = String::new();
        Ok(self.render_into(view, &mut text)?.then_some(text))
    }

    /// Appends the message for `view.phase` to `out`, as [`TemplateSet::render`] makes it;
    /// returns whether there is one (a blank one appends nothing). The default's templates are
    /// written out in Rust ([`native`]), straight into `out`.
    pub fn render_into(&self, view: &View, out: &mut String) -> Result<bool, TemplateError> {
        let i = phase_index(view.phase);
        if self.native[i] {
            native::render(view, out);
            return Ok(true);
        }
        let Some(entry) = &self.messages[i] else {
            return Ok(false);
        };
        let text =
            self.recent[i].get_or_render(&self.uses[i], view, || self.render_now(view, entry))?;
        Ok(text.is_some_and(|text| {
            out.push_str(&text);
            true
        }))
    }

    /// The message for `view.phase` as the template engine renders it, even where the
    /// template is written out in Rust: what the tests compare [`native`] with.
    #[cfg(test)]
    pub(crate) fn render_by_engine(&self, view: &View) -> Result<Option<String>, TemplateError> {
        match &self.messages[phase_index(view.phase)] {
            Some(entry) => self.render_now(view, entry),
            None => Ok(None),
        }
    }

    /// Whether the message of `phase` is written out in Rust rather than rendered.
    #[cfg(test)]
    pub(crate) fn is_native(&self, phase: Phase) -> bool {
        self.native[phase_index(phase)]
    }

    /// Renders `view`'s message (its template is `entry`).
    fn render_now(&self, view: &View, entry: &Entry) -> Result<Option<String>, TemplateError> {
        let key = view.phase.name();
        let template = self.env.get_template(key).expect("compiled at load");
        match template.render(self.uses[phase_index(view.phase)].context(view)) {
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

/// The template environment of a set: undefined variables an error, the last newline kept,
/// nothing escaped, and rendering on a fuel budget.
fn environment() -> Environment<'static> {
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
    env.set_fuel(Some(RENDER_FUEL));
    env
}

/// Adds the message `key`'s template to `env`; returns the variables it uses, every one
/// of them a variable the protocol gives or one of `globals`.
fn add_message(
    env: &mut Environment<'static>,
    globals: &HashSet<String>,
    key: &'static str,
    entry: &Entry,
) -> Result<HashSet<String>, TemplateError> {
    env.add_template_owned(key, entry.source.clone())
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
    let variables = template.undeclared_variables(false);
    let mut unknown: Vec<String> = variables
        .iter()
        .filter(|v| !VARIABLES.contains(&v.as_str()) && !globals.contains(*v))
        .cloned()
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
    Ok(variables)
}
