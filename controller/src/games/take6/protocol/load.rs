//! Reading template files (their keys, and the file lines errors point at) and the library
//! of every set a series may use.

use std::collections::BTreeMap;
use std::path::Path;
use std::sync::{Arc, OnceLock};

use toml::Spanned;

use super::{BUILTIN, BUILTIN_DIR, MESSAGE_KEYS, REPLY_KEYS, TemplateError, TemplateSet};

/// Where one template entry sits in its file, to turn template lines into file lines.
#[derive(Debug, Clone)]
pub(super) struct Entry {
    pub(super) source: String,
    /// Path of the file the entry came from (the built-in default for keys a set leaves out).
    pub(super) path: Arc<str>,
    /// Line of the key.
    pub(super) key_line: usize,
    /// File line of the template's first line.
    pub(super) first_line: usize,
    /// Whether the value is a `"""`/`'''` string, whose lines are file lines.
    pub(super) multiline: bool,
}

impl Entry {
    /// The file line of line `template_line` (1-based) of the template.
    pub(super) fn file_line(&self, template_line: usize) -> usize {
        if self.multiline {
            self.first_line + template_line.saturating_sub(1)
        } else {
            self.first_line
        }
    }
}

/// The entries of a file as written, before any defaults are filled in.
pub(super) type RawEntries = BTreeMap<String, Entry>;

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
pub(super) fn parse_entries(path: &str, text: &str) -> Result<RawEntries, TemplateError> {
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
pub(super) fn default_entries() -> &'static RawEntries {
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

/// The built-in `default` set, compiled once per process; cheap to call repeatedly.
pub fn default_set() -> Arc<TemplateSet> {
    static DEFAULT: OnceLock<Arc<TemplateSet>> = OnceLock::new();
    DEFAULT
        .get_or_init(|| Arc::new(builtin(0).expect("the built-in default set compiles (tested)")))
        .clone()
}

pub(super) fn builtin(i: usize) -> Result<TemplateSet, TemplateError> {
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

/// A Take 6 bot's words on the wire: the set its `bot.toml` names from this library, or its
/// own `template.toml` (compiled and trial-rendered here, its time the bot's own in games).
impl crate::game::Wires for TemplateLibrary {
    fn wire(&self, choice: &crate::bots::TemplateChoice) -> Result<crate::table::Wire, String> {
        use crate::bots::TemplateChoice;
        let set = match choice {
            TemplateChoice::Set(name) => self.get(name),
            TemplateChoice::File(path) => {
                TemplateSet::from_file(path).map(|set| Arc::new(set.charged_to_bot()))
            }
        }
        .map_err(|e| e.to_string())?;
        Ok(crate::table::Wire {
            fingerprint: set.fingerprint().into(),
            shown: format!("template set '{}' ({})", set.name(), set.path()).into(),
            value: set,
        })
    }
}

#[cfg(test)]
mod tests {
    use std::path::Path;

    use crate::games::take6::game::Phase;
    use crate::games::take6::protocol::*;

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
    fn too_much_work_is_refused_at_load_or_an_error_mid_game_never_a_hang() {
        let spin =
            "{% for i in range(100000) %}{% for j in range(100000) %}x{% endfor %}{% endfor %}";
        let msg = load_err(&format!("cards = \"x\"\nturn = \"{spin}\"\n"));
        assert!(
            msg.starts_with("templates/foo.toml:2: message 'turn'")
                && msg.contains(&format!("limit of {RENDER_FUEL} steps")),
            "{msg}"
        );
        // Cheap on the sample views (2, 3 and 10 players), too much work with 4 players.
        let text = format!("turn = \"{{% if n_players == 4 %}}{spin}{{% endif %}}ok\"\n");
        let set = TemplateSet::from_source("foo", "foo.toml", &text).unwrap();
        let view = random_game_views(1, 4)
            .into_iter()
            .find(|v| v.phase == Phase::Turn)
            .unwrap();
        let err = set.render(&view).unwrap_err();
        assert!(
            matches!(&err, TemplateError::Render { reason, .. } if reason.contains("too much work")),
            "{err}"
        );
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
}
