//! `take6.toml`'s mistakes in words (issue 30): an unknown key names the nearest known one
//! (`did you mean reply_ms?`) instead of listing every key, and a value of the wrong type says
//! what the key takes and what it got (`games must be a whole number; got the string "20"`).

/// The message for `e`, an error of reading `text` as `take6.toml`: the key's line and column,
/// then the mistake in words; serde's own words for anything else.
pub fn explain(text: &str, e: &toml::de::Error) -> String {
    let message = e.message();
    let at = e
        .span()
        .map(|span| {
            let before = &text[..span.start.min(text.len())];
            let line = before.matches('\n').count() + 1;
            format!("line {line}: ")
        })
        .unwrap_or_default();
    if let Some(unknown) = unknown_field(message) {
        let known = expected_fields(message);
        let nearest = known
            .iter()
            .map(|k| (strsim::jaro_winkler(&unknown, k), k))
            .filter(|(score, _)| *score >= 0.8)
            .max_by(|a, b| a.0.total_cmp(&b.0))
            .map(|(_, k)| k);
        return match nearest {
            Some(k) => format!("{at}unknown key {unknown}; did you mean {k}?"),
            None => format!(
                "{at}unknown key {unknown} (docs/settings.md lists every key, and take6.toml \
                 shows each)"
            ),
        };
    }
    if let Some((got, expected)) = wrong_type(message) {
        let key = e
            .span()
            .and_then(|span| key_before(text, span.start))
            .unwrap_or_else(|| "this key".into());
        return format!("{at}{key} must be {expected}; got {got}");
    }
    format!("{at}{}", message.trim())
}

/// `unknown field `x`, expected …` → `x`.
fn unknown_field(message: &str) -> Option<String> {
    let rest = message.strip_prefix("unknown field `")?;
    Some(rest[..rest.find('`')?].to_string())
}

/// The names serde lists after `expected one of`.
fn expected_fields(message: &str) -> Vec<String> {
    let Some((_, list)) = message.split_once("expected ") else {
        return Vec::new();
    };
    list.split('`')
        .skip(1)
        .step_by(2)
        .map(str::to_string)
        .collect()
}

/// `invalid type: string "20", expected u64` → (`the string "20"`, `a whole number`).
fn wrong_type(message: &str) -> Option<(String, String)> {
    let rest = message.strip_prefix("invalid type: ")?;
    let (got, expected) = rest.rsplit_once(", expected ")?;
    let got = match got.split_once(' ') {
        Some((kind, value)) => format!("the {kind} {}", value.trim_matches('`')),
        None => format!("{} {got}", article(got)),
    };
    let expected = expected.trim();
    let words = match expected {
        "u8" | "u16" | "u32" | "u64" | "usize" | "i64" | "u128" => "a whole number".to_string(),
        "a boolean" => "true or false".to_string(),
        "a string" => "a string in quotes".to_string(),
        other => other.to_string(),
    };
    Some((got, words))
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
    }

    fn said(text: &str) -> String {
        let e = toml::from_str::<Keys>(text).unwrap_err();
        super::explain(text, &e)
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
}
