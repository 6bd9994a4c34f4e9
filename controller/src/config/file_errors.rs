//! `take6.toml`'s mistakes in words: an unknown key names the nearest known one
//! (`did you mean reply_ms?`) instead of listing every key, and a value of the wrong type says
//! what the key takes and what it got (`games must be a whole number; got the string "20"`;
//! `sandbox must be one of auto, strict, none, in quotes; got "strictt" (did you mean
//! strict?)`), never in serde's or Rust's words (backticks, `usize`, `struct GameLimits`).

/// The message for `e`, an error of reading `text` as `take6.toml`: the key's line, then the
/// mistake in words: the key, what it takes and what it got. `values` gives the values a key
/// that takes a word may have (`sandbox`: auto, strict, none), for a key given something else.
pub fn explain(text: &str, e: &toml::de::Error, values: &dyn Fn(&str) -> Vec<String>) -> String {
    let message = e.message().trim();
    let start = e.span().map(|span| span.start.min(text.len()));
    let at = start
        .map(|start| {
            let line = text[..start].matches('\n').count() + 1;
            format!("line {line}: ")
        })
        .unwrap_or_default();
    let key = start
        .and_then(|start| key_before(text, start))
        .unwrap_or_else(|| "this key".into());
    let section = start.and_then(|start| section_of(text, start));
    if let Some(unknown) = unknown_field(message) {
        let known = backticked(message.split_once("expected ").map_or("", |(_, l)| l));
        return match nearest(&unknown, &known) {
            Some(k) => format!("{at}unknown key {unknown}; did you mean {k}?"),
            None => format!(
                "{at}unknown key {unknown} (docs/settings.md lists every key, and take6.toml \
                 shows each)"
            ),
        };
    }
    if let Some((got, allowed)) = unknown_variant(message) {
        return one_of(&at, &key, &allowed, &format!("\"{got}\""), Some(&got));
    }
    if message == "wanted string or table" {
        // A key that takes a word, given a number or a list: its words, asked of serde.
        let allowed = values(&key);
        let got = start.map_or_else(String::new, |s| value_after(text, s));
        if !allowed.is_empty() {
            return one_of(&at, &key, &allowed, &got, None);
        }
        return format!("{at}{key} must be a word in quotes; got {got}");
    }
    if let Some((got, expected)) = wrong_type(message) {
        // `[limits]` holds one table per game, not limits of its own.
        if section.as_deref() == Some("limits") && expected.starts_with("struct ") {
            let games: Vec<String> = crate::games::known()
                .iter()
                .map(|g| format!("[limits.{g}]"))
                .collect();
            return format!(
                "{at}{key} in [limits] must be a game's table ({}) holding first_reply_ms and \
                 reply_ms; got {}. A limit for every game is a top-level key, written before \
                 any [table]",
                games.join(" or "),
                got.words
            );
        }
        return format!(
            "{at}{key} must be {}; got {}",
            expected_words(&expected, &got),
            got.words
        );
    }
    format!("{at}{message}")
}

/// `{key} must be one of a, b, c; got {got} (did you mean b?)`.
fn one_of(at: &str, key: &str, allowed: &[String], got: &str, word: Option<&str>) -> String {
    let mean = word
        .and_then(|w| nearest(w, allowed))
        .map(|k| format!(" (did you mean {k}?)"))
        .unwrap_or_default();
    let list = match allowed {
        [one, two] => format!("{one} or {two}"),
        _ => format!("one of {}", allowed.join(", ")),
    };
    format!("{at}{key} must be {list}, in quotes; got {got}{mean}")
}

/// The known name nearest `word`, if near enough to be what was meant.
fn nearest<'a>(word: &str, known: &'a [String]) -> Option<&'a String> {
    known
        .iter()
        .map(|k| (strsim::jaro_winkler(word, k), k))
        .filter(|(score, _)| *score >= 0.8)
        .max_by(|a, b| a.0.total_cmp(&b.0))
        .map(|(_, k)| k)
}

/// `unknown field `x`, expected …` → `x`.
fn unknown_field(message: &str) -> Option<String> {
    let rest = message.strip_prefix("unknown field `")?;
    Some(rest[..rest.find('`')?].to_string())
}

/// `unknown variant `strictt`, expected one of `auto`, `strict`, `none`` (or `expected `full`
/// or `summary``) → (`strictt`, [auto, strict, none]).
pub fn unknown_variant(message: &str) -> Option<(String, Vec<String>)> {
    let rest = message.strip_prefix("unknown variant `")?;
    let (got, rest) = rest.split_once('`')?;
    let (_, list) = rest.split_once("expected ")?;
    Some((got.to_string(), backticked(list)))
}

/// The names between backticks in `list`.
fn backticked(list: &str) -> Vec<String> {
    list.split('`')
        .skip(1)
        .step_by(2)
        .map(str::to_string)
        .collect()
}

/// What a key was given, from serde's `invalid type: …` or `invalid value: …`.
struct Got {
    /// In words: `the integer 3`, `the decimal number 2.5`, `the string "20"`, `a list`.
    words: String,
    /// An integer's value, when it was one.
    integer: Option<i128>,
}

/// `invalid type: string "20", expected u64` → (the string "20", `u64`); the same for
/// `invalid value: integer `-3`, expected u64`.
fn wrong_type(message: &str) -> Option<(Got, String)> {
    let rest = message
        .strip_prefix("invalid type: ")
        .or_else(|| message.strip_prefix("invalid value: "))?;
    let (got, expected) = rest.rsplit_once(", expected ")?;
    // serde's names of what it found, longest first ("floating point" is two words).
    let kinds = [
        ("floating point", "the decimal number"),
        ("integer", "the integer"),
        ("string", "the string"),
        ("boolean", ""),
        ("character", "the character"),
        ("sequence", "a list"),
        ("map", "a table"),
    ];
    let (words, integer) = match kinds.iter().find(|(k, _)| got.starts_with(k)) {
        Some((kind, said)) => {
            // `3`, `300000000000000000000` as i128, "20": the value alone.
            let value = got[kind.len()..].trim();
            let value = match value.strip_prefix('`') {
                Some(quoted) => quoted.split('`').next().unwrap_or_default(),
                None => value,
            };
            let words = match (said.is_empty(), value.is_empty()) {
                (_, true) => said.to_string(),
                (true, false) => value.to_string(),
                (false, false) => format!("{said} {value}"),
            };
            let integer = (*kind == "integer").then(|| value.parse().ok()).flatten();
            (words, integer)
        }
        None => (format!("{} {got}", article(got)), None),
    };
    Some((Got { words, integer }, expected.trim().to_string()))
}

/// What a key expecting serde's `expected` takes, in words; for a whole number given out of
/// its range, the range.
fn expected_words(expected: &str, got: &Got) -> String {
    let max = match expected {
        "u8" => Some(u8::MAX as u128),
        "u16" => Some(u16::MAX as u128),
        "u32" => Some(u32::MAX as u128),
        "u64" | "usize" => Some(u64::MAX as u128),
        "u128" => Some(u128::MAX),
        _ => None,
    };
    if let Some(max) = max {
        return match got.integer {
            Some(n) if n < 0 => "a whole number, 0 or more".to_string(),
            Some(_) => format!("a whole number from 0 to {max}"),
            None => "a whole number".to_string(),
        };
    }
    match expected {
        "i8" | "i16" | "i32" | "i64" | "i128" | "isize" => "a whole number".to_string(),
        "f32" | "f64" => "a number".to_string(),
        "a boolean" => "true or false".to_string(),
        "a string" => "a string in quotes".to_string(),
        "path string" => "a path in quotes".to_string(),
        "a map" => "a table".to_string(),
        "a sequence" => "a list in brackets".to_string(),
        s if s.starts_with("struct ") => "a table".to_string(),
        other => other.to_string(),
    }
}

fn article(word: &str) -> &'static str {
    if word.starts_with(['a', 'e', 'i', 'o', 'u']) {
        "an"
    } else {
        "a"
    }
}

/// The key of the `key = value` line holding byte `at` of `text`.
fn key_before(text: &str, at: usize) -> Option<String> {
    let at = at.min(text.len());
    let start = text[..at].rfind('\n').map_or(0, |i| i + 1);
    let line = &text[start..];
    let (key, _) = line.split_once('=')?;
    let key = key.trim();
    (!key.is_empty()).then(|| key.to_string())
}

/// The value of the `key = value` line holding byte `at` of `text`, as written.
fn value_after(text: &str, at: usize) -> String {
    let at = at.min(text.len());
    let start = text[..at].rfind('\n').map_or(0, |i| i + 1);
    let line = text[start..].lines().next().unwrap_or_default();
    let value = line.split_once('=').map_or(line, |(_, v)| v);
    value
        .split(" #")
        .next()
        .unwrap_or_default()
        .trim()
        .to_string()
}

/// The `[section]` whose table holds byte `at` of `text`, if any.
fn section_of(text: &str, at: usize) -> Option<String> {
    text[..at.min(text.len())]
        .lines()
        .rev()
        .map(str::trim)
        .find(|l| l.starts_with('['))
        .map(|l| l.trim_matches(['[', ']']).trim().to_string())
}

#[cfg(test)]
mod tests {
    #[derive(Debug, serde::Deserialize)]
    #[serde(deny_unknown_fields)]
    #[allow(dead_code)]
    struct Keys {
        games: Option<u64>,
        reply_ms: Option<u64>,
        first_reply_ms: Option<u64>,
        duplicate: Option<bool>,
        jobs: Option<usize>,
        sandbox: Option<crate::sandbox::Mode>,
        limits: Option<super::super::game_limits::LimitsTables>,
    }

    fn said(text: &str) -> String {
        let e = toml::from_str::<Keys>(text).unwrap_err();
        super::explain(text, &e, &|key| match key {
            "sandbox" => ["auto", "strict", "none"].map(String::from).to_vec(),
            _ => Vec::new(),
        })
    }

    #[test]
    fn an_unknown_key_names_the_nearest_and_a_wrong_type_is_said_in_words() {
        assert_eq!(
            said("games = 3\nreplyms = 5\n"),
            "line 2: unknown key replyms; did you mean reply_ms?"
        );
        assert!(said("zebra = 1\n").starts_with("line 1: unknown key zebra (docs"));
        assert_eq!(
            said("games = \"20\"\n"),
            "line 1: games must be a whole number; got the string \"20\""
        );
        assert_eq!(
            said("duplicate = 1\n"),
            "line 1: duplicate must be true or false; got the integer 1"
        );
    }

    #[test]
    fn numbers_words_and_tables_are_said_without_serde_or_rust_words() {
        assert_eq!(
            said("jobs = 2.5\n"),
            "line 1: jobs must be a whole number; got the decimal number 2.5"
        );
        assert_eq!(
            said("games = 300000000000000000000\n"),
            "line 1: games must be a whole number from 0 to 18446744073709551615; got the \
             integer 300000000000000000000"
        );
        assert_eq!(
            said("games = -1\n"),
            "line 1: games must be a whole number, 0 or more; got the integer -1"
        );
        assert_eq!(
            said("sandbox = \"nne\"\n"),
            "line 1: sandbox must be one of auto, strict, none, in quotes; got \"nne\" (did you \
             mean none?)"
        );
        assert_eq!(
            said("sandbox = \"zzz\"\n"),
            "line 1: sandbox must be one of auto, strict, none, in quotes; got \"zzz\""
        );
        assert_eq!(
            said("sandbox = 2 # two\n"),
            "line 1: sandbox must be one of auto, strict, none, in quotes; got 2"
        );
        assert!(
            said("games = 1\n[limits]\nreply_ms = 3\n").starts_with(
                "line 3: reply_ms in [limits] must be a game's table ([limits.take6] or \
                 [limits.kingdomino]"
            ),
            "{}",
            said("[limits]\nreply_ms = 3\n")
        );
        assert_eq!(
            said("limits = [1]\n"),
            "line 1: limits must be a table; got a list"
        );
    }
}
