//! What may name a bot or a player. Names appear in records, logs, file names and on
//! terminals, so they must be visible single words; a name that is not is shown escaped.

/// Why `name` cannot name a bot or a player, if it cannot. Names appear in records, logs, file
/// names and on terminals, so they must be visible single words: no control, invisible or
/// whitespace characters, no `#` (built-ins are `name#n`), no `/`.
pub fn name_problem(name: &str) -> Option<String> {
    if name.is_empty() {
        return Some("the name is empty".into());
    }
    if let Some(c) = name.chars().find(|&c| unprintable(c)) {
        return Some(format!(
            "the name has the unprintable character U+{:04X}; use visible characters only",
            c as u32
        ));
    }
    if name.chars().any(char::is_whitespace) {
        return Some("the name has whitespace; use a single word".into());
    }
    if let Some(c) = name.chars().find(|c| matches!(c, '#' | '/')) {
        return Some(format!("the name has '{c}'; use a name without '#' or '/'"));
    }
    None
}

/// Control characters, and characters that print as nothing or reorder text (format
/// characters such as bidirectional overrides and zero-width spaces, variation selectors,
/// tags, noncharacters, and U+FFFD, which stands for bytes that are not UTF-8).
fn unprintable(c: char) -> bool {
    c.is_control()
        || matches!(
            c,
            '\u{00AD}'
                | '\u{034F}'
                | '\u{061C}'
                | '\u{115F}'
                | '\u{1160}'
                | '\u{17B4}'
                | '\u{17B5}'
                | '\u{180B}'..='\u{180F}'
                | '\u{200B}'..='\u{200F}'
                | '\u{202A}'..='\u{202E}'
                | '\u{2060}'..='\u{206F}'
                | '\u{3164}'
                | '\u{FE00}'..='\u{FE0F}'
                | '\u{FEFF}'
                | '\u{FFA0}'
                | '\u{FFF0}'..='\u{FFFF}'
                | '\u{E0000}'..='\u{E0FFF}'
        )
}

/// `name` with every unprintable or whitespace character but the space written as `\u{..}`,
/// safe to print.
pub fn escaped(name: &str) -> String {
    name.chars()
        .map(|c| {
            if unprintable(c) || c.is_whitespace() && c != ' ' {
                format!("\\u{{{:x}}}", c as u32)
            } else {
                c.to_string()
            }
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_must_be_visible_single_words() {
        for good in ["pyheur", "c++", "bot-2", "élan", "日本"] {
            assert_eq!(name_problem(good), None, "{good}");
        }
        for (bad, why) in [
            ("", "empty"),
            ("a b", "whitespace"),
            ("a\u{a0}b", "whitespace"),
            ("a\tb", "U+0009"),
            ("a\u{7f}", "U+007F"),
            ("a\u{202e}b", "U+202E"),
            ("a\u{feff}", "U+FEFF"),
            ("a\u{fffd}", "U+FFFD"),
            ("a#1", "'#'"),
            ("a/b", "'/'"),
        ] {
            let problem = name_problem(bad).unwrap_or_else(|| panic!("{bad:?} accepted"));
            assert!(problem.contains(why), "{bad:?}: {problem}");
        }
    }

    #[test]
    fn escaped_names_hold_no_control_or_invisible_character() {
        assert_eq!(escaped("a\x1b[2Jb c\u{202e}"), "a\\u{1b}[2Jb c\\u{202e}");
    }
}

/// Why `path` could not be read, for people: "PATH does not exist" when it is not there (the
/// commonest case, a typo), else "cannot read PATH: the system's reason".
pub fn cannot_read(path: &std::path::Path, error: &std::io::Error) -> String {
    if error.kind() == std::io::ErrorKind::NotFound {
        format!("{} does not exist", path.display())
    } else {
        format!("cannot read {}: {error}", path.display())
    }
}

/// `n` and `noun`, the noun in the plural unless `n` is 1 ("1 game", "2 games"): people read
/// these counts, and "1 games verified" reads as a bug. `noun` is a regular English noun.
pub fn count(n: u64, noun: &str) -> String {
    if n == 1 {
        format!("1 {noun}")
    } else {
        format!("{n} {noun}s")
    }
}

#[cfg(test)]
mod count_tests {
    #[test]
    fn one_is_singular_and_every_other_count_plural() {
        assert_eq!(super::count(1, "game"), "1 game");
        assert_eq!(super::count(0, "game"), "0 games");
        assert_eq!(super::count(2, "built-in"), "2 built-ins");
    }
}
