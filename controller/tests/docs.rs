//! The documentation holds together: every relative link of the README, of `docs/*.md` and of
//! `templates/README.md` names a file that exists and, with `#anchor`, a heading of that file
//! (GitHub's anchors); every page of `docs/` is linked from the README; the README's test
//! command is the one `.ci/run` runs; and the README's first bot passes `take6 check`.

mod common;

use common::{assert_ok, take6_cmd, text};
use std::collections::BTreeMap;
use std::fs;
use std::path::{Path, PathBuf};

/// The repository's root (the workspace above `controller/`).
fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .unwrap()
        .to_path_buf()
}

/// The Markdown files whose links are checked: the README, every `docs/*.md`, and the
/// template sets' reference.
fn documents() -> Vec<PathBuf> {
    let root = root();
    let mut files = vec![root.join("README.md"), root.join("templates/README.md")];
    let mut pages: Vec<PathBuf> = fs::read_dir(root.join("docs"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|x| x == "md"))
        .collect();
    pages.sort();
    files.extend(pages);
    files
}

/// Whether `line` opens or closes a fenced code block.
fn is_fence(line: &str) -> bool {
    let trimmed = line.trim_start();
    line.len() - trimmed.len() <= 3 && (trimmed.starts_with("```") || trimmed.starts_with("~~~"))
}

/// The document without its fenced code blocks (their lines left empty, so line numbers
/// stay), as lines.
fn prose(markdown: &str) -> Vec<&str> {
    let mut fenced = false;
    markdown
        .lines()
        .map(|line| {
            if is_fence(line) {
                fenced = !fenced;
                ""
            } else if fenced {
                ""
            } else {
                line
            }
        })
        .collect()
}

/// `text` without its inline code spans (a run of backticks up to the next run of as many).
fn without_code_spans(text: &str) -> String {
    let mut out = String::new();
    let mut rest = text;
    while let Some(start) = rest.find('`') {
        out.push_str(&rest[..start]);
        let after = &rest[start..];
        let ticks = after.len() - after.trim_start_matches('`').len();
        let body = &after[ticks..];
        let fence = "`".repeat(ticks);
        // The closing run must be exactly as long as the opening one.
        let mut search = 0;
        let mut close = None;
        while let Some(i) = body[search..].find(&fence) {
            let at = search + i;
            let run = body[at..].len() - body[at..].trim_start_matches('`').len();
            if run == ticks {
                close = Some(at);
                break;
            }
            search = at + run;
        }
        match close {
            Some(at) => rest = &body[at + ticks..],
            None => {
                // An unmatched run is literal text.
                out.push_str(&fence);
                rest = body;
            }
        }
    }
    out.push_str(rest);
    out
}

/// The targets of the Markdown links and images in `markdown`, with their line numbers
/// (1-based): every `](target)` outside code.
fn links(markdown: &str) -> Vec<(usize, String)> {
    let mut found = Vec::new();
    // Code spans may not cross a paragraph, and links in this repository do cross lines:
    // scan paragraph by paragraph.
    let lines = prose(markdown);
    let mut start = 0;
    while start < lines.len() {
        let mut end = start;
        while end < lines.len() && !lines[end].trim().is_empty() {
            end += 1;
        }
        if end > start {
            let paragraph = without_code_spans(&lines[start..end].join("\n"));
            let mut rest = paragraph.as_str();
            let mut consumed = 0;
            while let Some(i) = rest.find("](") {
                let after = &rest[i + 2..];
                if let Some(close) = after.find(')') {
                    let target = after[..close].trim().to_string();
                    let line = start + 1 + paragraph[..consumed + i].matches('\n').count();
                    found.push((line, target));
                }
                consumed += i + 2;
                rest = after;
            }
        }
        start = end + 1;
    }
    found
}

/// GitHub's anchor for a heading's text: inline links reduced to their text, lowercase,
/// every character that is not a letter, a digit, `-`, `_` or a space dropped, spaces `-`.
fn slug(heading: &str) -> String {
    let mut plain = String::new();
    let mut rest = heading;
    // [text](target) -> text
    while let Some(open) = rest.find('[') {
        plain.push_str(&rest[..open]);
        let after = &rest[open + 1..];
        match after.find("](").and_then(|mid| {
            after[mid + 2..]
                .find(')')
                .map(|close| (mid, mid + 2 + close + 1))
        }) {
            Some((mid, end)) => {
                plain.push_str(&after[..mid]);
                rest = &after[end..];
            }
            None => {
                plain.push('[');
                rest = after;
            }
        }
    }
    plain.push_str(rest);
    plain
        .trim()
        .to_lowercase()
        .chars()
        .filter(|c| c.is_alphanumeric() || matches!(c, '-' | '_' | ' '))
        .map(|c| if c == ' ' { '-' } else { c })
        .collect()
}

/// The anchors of a document's headings, as GitHub makes them (a repeated one gets `-1`,
/// `-2`, …).
fn anchors(markdown: &str) -> Vec<String> {
    let mut seen: BTreeMap<String, usize> = BTreeMap::new();
    let mut out = Vec::new();
    for line in prose(markdown) {
        let hashes = line.len() - line.trim_start_matches('#').len();
        if !(1..=6).contains(&hashes) || !line[hashes..].starts_with(' ') {
            continue;
        }
        let text = line[hashes..].trim().trim_end_matches('#').trim();
        let base = slug(text);
        let n = seen.entry(base.clone()).or_insert(0);
        out.push(if *n == 0 {
            base.clone()
        } else {
            format!("{base}-{n}")
        });
        *n += 1;
    }
    out
}

fn is_external(target: &str) -> bool {
    target.contains("://") || target.starts_with("mailto:")
}

#[test]
fn slugs_follow_githubs_rules() {
    assert_eq!(slug("The sandbox"), "the-sandbox");
    assert_eq!(
        slug("Built-ins only: `take6 run --builtins-only`"),
        "built-ins-only-take6-run---builtins-only"
    );
    assert_eq!(
        slug("Checking a bot: `take6 check DIR`"),
        "checking-a-bot-take6-check-dir"
    );
    assert_eq!(
        slug("The controller's own CPU per game"),
        "the-controllers-own-cpu-per-game"
    );
    assert_eq!(slug("Modes: auto, strict, none"), "modes-auto-strict-none");
    assert_eq!(
        slug("snake_case and [a link](x.md)"),
        "snake_case-and-a-link"
    );
    assert_eq!(
        anchors("# A\n## B\n```\n# not a heading\n```\n## B\n#nope\n"),
        ["a", "b", "b-1"]
    );
    assert_eq!(
        links("a [x](y.md#z) `[no](code.md)` [two\nlines](w.md)\n\n```\n[no](n.md)\n```\n"),
        [(1, "y.md#z".to_string()), (2, "w.md".to_string())]
    );
}

#[test]
fn every_relative_link_names_a_file_and_a_heading_that_exist() {
    let root = root();
    let mut problems = Vec::new();
    let mut checked = 0;
    for doc in documents() {
        let source = fs::read_to_string(&doc).unwrap();
        let shown = doc.strip_prefix(&root).unwrap().display().to_string();
        for (line, target) in links(&source) {
            if is_external(&target) {
                continue;
            }
            checked += 1;
            let (path, anchor) = match target.split_once('#') {
                Some((path, anchor)) => (path, Some(anchor)),
                None => (target.as_str(), None),
            };
            let file = if path.is_empty() {
                doc.clone()
            } else {
                doc.parent().unwrap().join(path)
            };
            if !file.exists() {
                problems.push(format!(
                    "{shown}:{line}: ({target}): {} does not exist",
                    file.display()
                ));
                continue;
            }
            let Some(anchor) = anchor else { continue };
            if file.extension().is_none_or(|x| x != "md") {
                problems.push(format!(
                    "{shown}:{line}: ({target}): an anchor into a file that is not Markdown"
                ));
                continue;
            }
            let headings = anchors(&fs::read_to_string(&file).unwrap());
            if !headings.iter().any(|h| h == anchor) {
                problems.push(format!(
                    "{shown}:{line}: ({target}): no heading with the anchor #{anchor}; \
                     the anchors there are {}",
                    headings.join(", ")
                ));
            }
        }
    }
    assert!(
        problems.is_empty(),
        "broken links:\n{}",
        problems.join("\n")
    );
    assert!(checked > 50, "only {checked} relative links found");
}

#[test]
fn every_docs_page_is_linked_from_the_readme() {
    let readme = fs::read_to_string(root().join("README.md")).unwrap();
    let targets: Vec<String> = links(&readme)
        .into_iter()
        .map(|(_, t)| t.split('#').next().unwrap().to_string())
        .collect();
    let orphans: Vec<String> = documents()
        .iter()
        .filter(|p| p.parent().unwrap().ends_with("docs"))
        .map(|p| format!("docs/{}", p.file_name().unwrap().to_string_lossy()))
        .filter(|page| !targets.contains(page))
        .collect();
    assert!(
        orphans.is_empty(),
        "not linked from the README: {orphans:?}"
    );
}

/// The commands of the README's first `sh` block, comments dropped.
fn readme_commands() -> Vec<String> {
    let readme = fs::read_to_string(root().join("README.md")).unwrap();
    let block = readme
        .split("```sh\n")
        .nth(1)
        .and_then(|rest| rest.split("```").next())
        .expect("the README has a sh block");
    block
        .lines()
        .map(|l| l.split('#').next().unwrap().trim().to_string())
        .filter(|l| !l.is_empty())
        .collect()
}

#[test]
fn the_readme_gives_the_two_commands_and_ci_runs_its_test_command() {
    let commands = readme_commands();
    assert_eq!(
        commands,
        [
            "cargo run --release -- run",
            "cargo test --workspace --locked"
        ],
        "the README's two commands"
    );
    let ci = fs::read_to_string(root().join(".ci/run")).unwrap();
    let ci_tests: Vec<&str> = ci
        .lines()
        .map(str::trim)
        .filter(|l| l.starts_with("cargo test"))
        .collect();
    assert_eq!(
        ci_tests,
        [commands[1].as_str()],
        ".ci/run must run the README's test command, exactly"
    );
}

#[test]
fn the_readmes_first_bot_passes_take6_check() {
    let readme = fs::read_to_string(root().join("README.md")).unwrap();
    let bot = readme
        .split("```python\n")
        .nth(1)
        .and_then(|rest| rest.split("```").next())
        .expect("the README has a Python bot");
    assert!(bot.starts_with("#!/usr/bin/env python3\n"), "{bot}");
    assert!(bot.contains("flush=True"), "the first bot flushes: {bot}");
    let code_lines = bot.lines().filter(|l| !l.trim().is_empty()).count();
    assert!(code_lines <= 20, "a first bot of {code_lines} lines");

    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().join("bots/mybot");
    fs::create_dir_all(&dir).unwrap();
    let launch = dir.join("launch");
    fs::write(&launch, bot).unwrap();
    use std::os::unix::fs::PermissionsExt;
    fs::set_permissions(&launch, fs::Permissions::from_mode(0o755)).unwrap();
    let out = take6_cmd(tmp.path())
        .args(["check", "bots/mybot", "--games", "3", "--seed", "2024"])
        .args(["--first-reply-ms", "5000", "--reply-ms", "2000"])
        .env_remove("RUST_LOG")
        .output()
        .unwrap();
    assert_ok(&out);
    let shown = text(&out.stdout);
    assert!(shown.contains("< "), "a transcript with replies: {shown}");
}
