//! What a bot, its folder or its build controls reaches the host only as
//! inert text. Hostile fixtures (`tests/bots/hostile-escapes`, `tests/bots/hostile-names`,
//! `tests/bots/kd-escapes`, `tests/bots/bz-escapes` of the Botzone test game, and folders this
//! file writes: a `bot.toml` line, a FIFO's name and a source file's name carrying escapes) run
//! through the real binary inside the sandbox as bots do; every byte of the output of `run`,
//! `check`, `replay`, `leaderboard` and `verify`, and of every file under `logs/`, is checked. Names that hide characters or pass for another bot are refused with
//! the rule they broke; the CSVs read back with the `csv` crate, and the report keeps a bot
//! whose name has `,` and `"`.

mod common;
#[path = "hostile/zoo.rs"]
mod zoo;

use std::fs;
use std::os::unix::ffi::OsStrExt;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use common::{copy_dir, fixtures, take6, text};
use zoo::{Zoo, sandbox_available};

/// What no output of take6 may hold: a C0 control but the line feed and the tab (kept in text
/// of several lines such as a stderr; it only moves to the next tab stop), CR included,
/// DEL, a C1 control, a byte that is not UTF-8 (a raw 8-bit CSI), and the invisible or
/// reordering characters of the payload (bidi overrides and isolates, zero-width, line and
/// paragraph separators, BOM, blanks).
#[track_caller]
fn assert_inert(what: &str, bytes: &[u8]) {
    let shown = String::from_utf8(bytes.to_vec())
        .unwrap_or_else(|e| panic!("{what} is not UTF-8 (a raw byte got through): {e}"));
    for (i, c) in shown.char_indices() {
        let bad = (c.is_control() && !matches!(c, '\n' | '\t'))
            || matches!(
                c,
                '\u{200B}'..='\u{200F}'
                    | '\u{2028}'..='\u{202E}'
                    | '\u{2066}'..='\u{2069}'
                    | '\u{FEFF}'
                    | '\u{2800}'
                    | '\u{3164}'
            );
        assert!(
            !bad,
            "{what} holds U+{:04X} raw at byte {i}:\n{}",
            c as u32,
            &shown[shown[..i].char_indices().nth_back(80).map_or(0, |(j, _)| j)..]
                .chars()
                .take(200)
                .collect::<String>()
        );
    }
}

/// Every file under `dir` (the series' `logs/`), checked with [`assert_inert`].
fn assert_logs_inert(dir: &Path) -> usize {
    let mut n = 0;
    for entry in fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        assert_inert(&path.display().to_string(), &fs::read(&path).unwrap());
        n += 1;
    }
    n
}

/// Checks both outputs of a command, naming it in the message.
#[track_caller]
fn assert_output_inert(what: &str, out: &Output) {
    assert_inert(&format!("{what} stdout"), &out.stdout);
    assert_inert(&format!("{what} stderr"), &out.stderr);
}

/// Escapes for a file name: no NUL, no `/`, no line feed.
const NAME_ESCAPES: &[u8] = b"\x1b]0;PWNED-TITLE\x07\x1b[2J\x1b[1A\x1b[2K\xc2\x9b31m\xe2\x80\xae";

/// A file name carrying [`NAME_ESCAPES`] around `stem`.
fn hostile_name(stem: &str, ext: &str) -> PathBuf {
    let mut bytes = stem.as_bytes().to_vec();
    bytes.extend_from_slice(NAME_ESCAPES);
    bytes.extend_from_slice(ext.as_bytes());
    PathBuf::from(std::ffi::OsStr::from_bytes(&bytes))
}

/// The bots of the Take 6 attack beside `honest`: `hostile-escapes` (replies and stderr),
/// `hostile-names` (a FIFO and a file it makes at run time in its working copy, their names
/// carrying CR, ESC, U+202E, SO, VT and a line feed), a copy whose `bot.toml` has an invalid
/// line carrying escapes, and a folder holding a FIFO whose name carries them (both skipped
/// with a reason quoting the bytes).
fn escapes_zoo() -> Zoo {
    let zoo = Zoo::new("escapes", &["hostile-escapes", "hostile-names"]);
    let toml = zoo.bots().join("hostile-toml");
    copy_dir(&fixtures().join("hostile-escapes"), &toml);
    let mut line = b"template = \"x".to_vec();
    line.extend_from_slice(
        b"\x1b]0;PWNED-TITLE\x07\x1b[2J\x1b]52;c;cHduZWQ=\x07\x1b[31mFAKE\xe2\x80\xae\xc2\x9b\"\n",
    );
    fs::write(toml.join("bot.toml"), line).unwrap();
    let fifo = zoo.bots().join("hostile-fifo");
    copy_dir(&fixtures().join("first"), &fifo);
    fs::create_dir_all(fifo.join("sub")).unwrap();
    nix::unistd::mkfifo(
        &fifo.join("sub").join(hostile_name("pipe", "")),
        nix::sys::stat::Mode::from_bits_truncate(0o644),
    )
    .unwrap();
    zoo
}

#[test]
fn nothing_a_bot_writes_reaches_a_terminal_or_a_log_raw() {
    if !sandbox_available("nothing_a_bot_writes_reaches_a_terminal_or_a_log_raw") {
        return;
    }
    let zoo = escapes_zoo();
    let out = zoo.run("strict", &["--games", "2"]);
    zoo::assert_ok(&out);
    assert_output_inert("take6 run", &out);
    let series = zoo.series();
    // The attack is real: the records keep the raw bytes (JSON escapes them), and the lines
    // that quote them were printed.
    let games = zoo.games();
    let reasons: Vec<&str> = games
        .iter()
        .flat_map(|g| g.rounds[0].invalid.iter().map(|f| f.reason.as_str()))
        .collect();
    assert!(
        reasons.iter().any(|r| r.contains("\x1b]0;PWNED-TITLE")),
        "no fault quotes the reply: {reasons:?}"
    );
    let stderr = text(&out.stderr);
    assert!(
        stderr.contains("hostile-escapes faulted") && stderr.contains("\\x1b]0;PWNED-TITLE\\x07"),
        "{stderr}"
    );
    assert!(
        stderr.contains("hostile-toml: skipped: ") && stderr.contains("\\x1b[31mFAKE\\u{202e}"),
        "{stderr}"
    );
    assert!(
        stderr.contains("hostile-fifo: skipped: ") && stderr.contains("pipe\\x1b]0;PWNED"),
        "{stderr}"
    );
    let summary = text(&out.stdout);
    assert!(
        summary.contains("Skipped:") && summary.contains("\\x1b[2J"),
        "{summary}"
    );
    let manifest = fs::read_to_string(series.join("series.toml")).unwrap();
    let parsed: toml::Table = manifest.parse().unwrap();
    assert!(
        parsed["skipped"]
            .as_array()
            .unwrap()
            .iter()
            .any(|s| s["reason"].as_str().unwrap().contains('\x1b')),
        "series.toml keeps the raw reason (TOML escapes it): {manifest}"
    );
    let logs = assert_logs_inert(&series.join("logs"));
    assert!(logs >= 2, "controller.log and hostile-escapes.games.log");
    // The FIFO hostile-names made at run time was left out when its working copy was copied
    // back out of its disk image, and the warning naming it is inert on stderr and in the
    // controller's log (tracing's own escaping lets CR, SO, VT and U+202E through).
    let made = zoo.work("hostile-names").join(std::ffi::OsStr::from_bytes(
        b"file\r\x1b[2J\xe2\x80\xae\x0e\x0b\nend",
    ));
    assert!(made.exists(), "hostile-names did not make its files");
    let fifo = "'pipe\\r\\x1b[2J\\u{202e}\\x0e\\x0b\\nend' is a FIFO (named pipe); left out";
    assert!(stderr.contains(fifo), "{stderr}");
    let controller_log = fs::read_to_string(series.join("logs/controller.log")).unwrap();
    assert!(controller_log.contains(fifo), "{controller_log}");
    let log = fs::read_to_string(series.join("logs/hostile-escapes.games.log")).unwrap();
    assert!(
        log.contains("second line evil:\\x1b]0;PWNED-TITLE\\x07") && log.contains(":end\\x9b2J\n"),
        "{log}"
    );

    let folder = series.display().to_string();
    for args in [
        vec!["leaderboard", folder.as_str()],
        vec!["verify", folder.as_str()],
        vec!["replay", folder.as_str(), "0"],
        vec!["replay", folder.as_str(), "1"],
    ] {
        let out = take6(zoo.dir(), &args);
        assert!(out.status.success(), "{args:?}: {}", text(&out.stderr));
        assert_output_inert(&format!("take6 {}", args[0]), &out);
    }
    let replay = text(&take6(zoo.dir(), &["replay", &folder, "0"]).stdout);
    assert!(replay.contains("FAULT hostile-escapes: "), "{replay}");
    assert!(replay.contains("\\x1b[2J"), "{replay}");

    // A forged record (a name and a fault carrying escapes) is refused by verify and shown inert.
    let id = series.file_name().unwrap().to_str().unwrap().to_string();
    common::forge(&series.join("games.jsonl"), &id, 1, |g| {
        g.players[0] = "forged\x1b]0;T\x07\u{202e}".into();
    });
    for verb in ["verify", "leaderboard"] {
        let out = take6(zoo.dir(), &[verb, &folder]);
        assert_output_inert(&format!("take6 {verb} of a forged series"), &out);
    }
}

#[test]
fn take6_check_shows_replies_stderr_and_file_names_inert() {
    if !sandbox_available("take6_check_shows_replies_stderr_and_file_names_inert") {
        return;
    }
    let zoo = escapes_zoo();
    let out = take6(zoo.dir(), &["check", "bots/hostile-escapes"]);
    assert_output_inert("take6 check bots/hostile-escapes", &out);
    let said = text(&out.stdout);
    assert!(
        said.contains("< evil:\\x1b]0;PWNED-TITLE\\x07"),
        "the reply in the transcript:\n{said}"
    );
    assert!(said.contains("| second line evil:"), "its stderr:\n{said}");
    assert!(said.contains("FAULT in game"), "{said}");
    for bot in ["hostile-toml", "hostile-fifo"] {
        let out = take6(zoo.dir(), &["check", &format!("bots/{bot}")]);
        assert_output_inert(&format!("take6 check bots/{bot}"), &out);
        assert!(
            text(&out.stdout).contains("did not play"),
            "{}",
            text(&out.stdout)
        );
    }
    // A source folder (no launch) whose only source file's name carries escapes.
    let src = zoo.bots().join("hostile-source");
    copy_dir(&fixtures().join("src-python"), &src);
    fs::rename(src.join("bot.py"), src.join(hostile_name("bot", ".py"))).unwrap();
    let out = take6(zoo.dir(), &["check", "bots/hostile-source"]);
    assert_output_inert("take6 check bots/hostile-source", &out);
    let said = format!("{}{}", text(&out.stdout), text(&out.stderr));
    assert!(said.contains("bot\\x1b]0;PWNED-TITLE\\x07"), "{said}");
}

/// `take6 check` of a folder whose name is refused (here for a zero-width space) says the rule
/// it broke and the fix, inert, not "no game was played" (the skip is recorded under the name
/// as shown, escaped).
#[test]
fn take6_check_of_a_refused_name_says_the_rule() {
    let tmp = tempfile::tempdir().unwrap();
    let name = "victim\u{200B}";
    copy_dir(
        &fixtures().join("first"),
        &tmp.path().join("bots").join(name),
    );
    let out = take6(
        tmp.path(),
        &["check", "--games", "1", &format!("bots/{name}")],
    );
    assert_output_inert("take6 check of a refused name", &out);
    let said = text(&out.stdout);
    assert!(
        said.contains("victim\\u{200b} did not play: ") && said.contains("U+200B"),
        "{said}"
    );
    assert!(said.contains("rename"), "no fix: {said}");
    assert!(!said.contains("no game was played"), "{said}");
    assert!(!out.status.success());
}

/// Two Kingdomino bots at a table: the strict reader and `kd-escapes`.
#[test]
fn kingdomino_pick_messages_and_faults_are_inert_in_replay() {
    if !sandbox_available("kingdomino_pick_messages_and_faults_are_inert_in_replay") {
        return;
    }
    let tmp = tempfile::tempdir().unwrap();
    for (name, fixture) in [
        ("strict", "strict-kingdomino"),
        ("kd-escapes", "kd-escapes"),
    ] {
        copy_dir(
            &fixtures().join(fixture),
            &tmp.path().join("bots").join(name),
        );
    }
    let out = take6(
        tmp.path(),
        &[
            "run",
            "--game",
            "kingdomino",
            "--players",
            "2",
            "--games",
            "2",
            "--seed",
            "5",
            "--sandbox",
            "strict",
            "--first-reply-ms",
            "10000",
            "--reply-ms",
            "5000",
        ],
    );
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert_output_inert("take6 run --game kingdomino", &out);
    let series = fs::canonicalize(tmp.path().join("results/latest")).unwrap();
    assert_logs_inert(&series.join("logs"));
    let jsonl = fs::read_to_string(series.join("games.jsonl")).unwrap();
    assert!(
        jsonl.contains("PWNED-TITLE"),
        "the messages are recorded: {jsonl}"
    );
    let folder = series.display().to_string();
    let mut shown = String::new();
    for game in ["0", "1"] {
        let out = take6(tmp.path(), &["replay", &folder, game]);
        assert!(out.status.success(), "{}", text(&out.stderr));
        assert_output_inert("take6 replay (Kingdomino)", &out);
        shown.push_str(&text(&out.stdout));
    }
    assert!(shown.contains("\\x1b]0;PWNED-TITLE\\x07"), "{shown}");
    for verb in ["verify", "leaderboard"] {
        assert_output_inert(verb, &take6(tmp.path(), &[verb, &folder]));
    }
}

/// `take6 check` of `kd-escapes`: its PICK messages in the transcript, the fault quoting its
/// reply and its stderr, all inert.
#[test]
fn take6_check_of_kingdomino_escapes_is_inert() {
    if !sandbox_available("take6_check_of_kingdomino_escapes_is_inert") {
        return;
    }
    let tmp = tempfile::tempdir().unwrap();
    copy_dir(
        &fixtures().join("kd-escapes"),
        &tmp.path().join("bots/kd-escapes"),
    );
    let out = take6(
        tmp.path(),
        &[
            "check",
            "--game",
            "kingdomino",
            "--games",
            "2",
            "--first-reply-ms",
            "10000",
            "--reply-ms",
            "5000",
            "bots/kd-escapes",
        ],
    );
    assert_output_inert("take6 check --game kingdomino bots/kd-escapes", &out);
    let said = text(&out.stdout);
    // The attack is real: the PICK messages and the reply the fault quotes are shown, escaped.
    assert!(said.contains("PICK "), "{said}");
    assert!(said.contains("\\x1b]0;PWNED-TITLE\\x07"), "{said}");
    assert!(said.contains("\\u{202e}"), "{said}");
    assert!(said.contains("FAULT in game"), "{said}");
    let series = fs::canonicalize(tmp.path().join("results/checks/latest")).unwrap();
    assert_logs_inert(&series.join("logs"));
}

/// The Botzone test game (`tests/games/duel`) with `bz-escapes` against the strict `bz-py`:
/// its responses (a JSON string the judge's display quotes, a line that is not JSON and is
/// faulted), debug, data and stderr carry every C0/C1 control, ESC/CSI/OSC sequences and bidi
/// overrides; `run`, `leaderboard`, `verify`, `replay`, `check` and the logs show them inert.
#[test]
fn botzone_responses_debug_and_stderr_are_inert() {
    if !sandbox_available("botzone_responses_debug_and_stderr_are_inert") {
        return;
    }
    let tmp = tempfile::tempdir().unwrap();
    let duel = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/games/duel");
    copy_dir(&duel, &tmp.path().join("game"));
    // Limits far above what the fixtures need, for every bot.
    let toml = tmp.path().join("game/game.toml");
    let generous = "\n[limits]\nfirst_turn_ms = 20000\nturn_ms = 20000\nkept_running_ms = 20000\n";
    fs::write(&toml, fs::read_to_string(&toml).unwrap() + generous).unwrap();
    let bot = tmp.path().join("bots/bz-escapes");
    copy_dir(&fixtures().join("bz-escapes"), &bot);
    fs::copy(
        fixtures().join("hostile-escapes/payload.py"),
        bot.join("payload.py"),
    )
    .unwrap();
    copy_dir(&fixtures().join("bz-py"), &tmp.path().join("bots/bz-py"));
    let out = take6(
        tmp.path(),
        &[
            "run",
            "--game",
            "game",
            "--games",
            "4",
            "--jobs",
            "1",
            "--seed",
            "3",
            "--sandbox",
            "strict",
        ],
    );
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert_output_inert("take6 run (Botzone)", &out);
    let series = fs::canonicalize(tmp.path().join("results/latest")).unwrap();
    // The attack is real: the records keep the raw text (JSON escapes it), a fault quotes it.
    let jsonl = fs::read_to_string(series.join("games.jsonl")).unwrap();
    assert!(
        jsonl.contains("PWNED-TITLE") && jsonl.contains('\u{202e}'),
        "{jsonl}"
    );
    let stderr = text(&out.stderr);
    assert!(
        stderr.contains("bz-escapes faulted") && stderr.contains("\\u{202e}"),
        "{stderr}"
    );
    assert_logs_inert(&series.join("logs"));
    let log = fs::read_to_string(series.join("logs/bz-escapes.games.log")).unwrap();
    assert!(
        log.contains("second line evil:\\x1b]0;PWNED-TITLE\\x07") && log.contains(":end\\x9b2J\n"),
        "{log}"
    );

    let folder = series.display().to_string();
    for args in [
        vec!["leaderboard", folder.as_str(), "--game", "game"],
        vec!["verify", folder.as_str(), "--game", "game"],
    ] {
        let out = take6(tmp.path(), &args);
        assert!(out.status.success(), "{args:?}: {}", text(&out.stderr));
        assert_output_inert(&format!("take6 {} (Botzone)", args[0]), &out);
    }
    let mut shown = String::new();
    for game in ["0", "1", "2", "3"] {
        let out = take6(tmp.path(), &["replay", &folder, game]);
        assert!(out.status.success(), "{}", text(&out.stderr));
        assert_output_inert("take6 replay (Botzone)", &out);
        shown.push_str(&text(&out.stdout));
    }
    // The response the judge's display quotes, and the faulted turn's verdict.
    assert!(
        shown.contains("response of bz-escapes") && shown.contains("\\u{202e}\\u{202d}"),
        "{shown}"
    );
    assert!(
        shown.contains("bz-escapes (1): NJ") || shown.contains("bz-escapes (0): NJ"),
        "{shown}"
    );

    let out = take6(
        tmp.path(),
        &["check", "--game", "game", "--games", "1", "bots/bz-escapes"],
    );
    assert_output_inert("take6 check (Botzone)", &out);
    let said = text(&out.stdout);
    assert!(
        said.contains("\"debug\": \"evil:"),
        "the reply in the transcript:\n{said}"
    );
    assert!(said.contains("| second line evil:"), "its stderr:\n{said}");
    assert!(said.contains("FAULT in game 0, turn 2"), "{said}");
    let checked = fs::canonicalize(tmp.path().join("results/checks/latest")).unwrap();
    assert_logs_inert(&checked.join("logs"));
}

/// The folders of the names test, as `first` copies: `(folder name, the rule it breaks)`.
const NAMES: &[(&str, &str)] = &[
    ("victim\u{2800}", "U+2800"),
    ("victim\u{3164}", "U+3164"),
    ("victim\u{1D173}", "U+1D173"),
    ("victim\u{200B}", "U+200B"),
    ("=cmd", "formula"),
    ("+sum", "formula"),
    ("-x", "formula"),
    ("@at", "formula"),
    ("e\u{301}lan", "NFC"),
    ("victim", "looks like"),
    ("vIctim", "looks like"),
    ("v\u{456}\u{441}tim", "looks like"),
];

/// The name with `,` and `"` that plays, and the bot beside it.
const COMMA: &str = "a,b\"c";

#[test]
fn names_that_hide_or_pass_for_another_are_refused_and_csvs_keep_their_rows() {
    if !sandbox_available(
        "names_that_hide_or_pass_for_another_are_refused_and_csvs_keep_their_rows",
    ) {
        return;
    }
    let tmp = tempfile::tempdir().unwrap();
    for name in NAMES.iter().map(|(n, _)| *n).chain([COMMA, "plain"]) {
        copy_dir(
            &fixtures().join("first"),
            &tmp.path().join("bots").join(name),
        );
    }
    let out = take6(
        tmp.path(),
        &[
            "run",
            "--games",
            "3",
            "--players",
            "4",
            "--seed",
            "11",
            "--sandbox",
            "strict",
            "--first-reply-ms",
            "10000",
            "--reply-ms",
            "5000",
        ],
    );
    assert_eq!(out.status.code(), Some(3), "skips: {}", text(&out.stderr));
    assert_output_inert("take6 run", &out);
    let stderr = text(&out.stderr);
    let series = fs::canonicalize(tmp.path().join("results/latest")).unwrap();
    let manifest: toml::Table = fs::read_to_string(series.join("series.toml"))
        .unwrap()
        .parse()
        .unwrap();
    let skipped = manifest["skipped"].as_array().unwrap();
    assert_eq!(skipped.len(), NAMES.len(), "{skipped:?}");
    for (name, rule) in NAMES {
        let shown = take6::untrusted::terminal(name);
        let s = skipped
            .iter()
            .find(|s| s["name"].as_str() == Some(&shown))
            .unwrap_or_else(|| panic!("{shown} not skipped: {skipped:?}"));
        let reason = s["reason"].as_str().unwrap();
        assert!(reason.contains(rule), "{shown}: {reason}");
        assert!(
            reason.contains("rename") || reason.contains("start it with"),
            "{shown}: no fix in {reason}"
        );
        assert!(
            stderr.contains(&format!("{shown}: skipped: ")),
            "{shown} not said:\n{stderr}"
        );
    }
    // The CSVs are written by the csv crate: every row has the header's fields, and the bot
    // whose name has `,` and `"` is in each, whole.
    for file in ["leaderboard.csv", "headtohead.csv", "reply_times.csv"] {
        let bytes = fs::read(series.join(file)).unwrap();
        let mut reader = csv::Reader::from_reader(&bytes[..]);
        let width = reader.headers().unwrap().len();
        let rows: Vec<csv::StringRecord> = reader.records().map(Result::unwrap).collect();
        assert!(rows.iter().all(|r| r.len() == width), "{file}: {rows:?}");
        assert!(
            rows.iter().any(|r| r.iter().any(|cell| cell == COMMA)),
            "{file} lost {COMMA}: {rows:?}"
        );
        assert!(
            rows.iter()
                .all(|r| r.iter().all(|cell| !cell.starts_with(['=', '+', '@']))),
            "{file}: {rows:?}"
        );
    }
    let report = fs::read_to_string(series.join("report.html")).unwrap();
    let escaped = "a,b&quot;c";
    assert!(
        report.contains(&format!("<tr data-bot=\"{escaped}\"><td>{escaped}</td>")),
        "the reply times of {COMMA} are in report.html"
    );
    in_a_browser(&series.join("report.html"), escaped);
    let out = take6(tmp.path(), &["leaderboard", &series.display().to_string()]);
    assert_output_inert("take6 leaderboard", &out);
    let board = text(&out.stdout);
    assert!(
        board.contains(COMMA) && board.contains("Skipped:"),
        "{board}"
    );
    assert!(board.contains("victim\\u{2800}: the name has"), "{board}");
}

/// report.html loaded by headless Chromium (when installed; `TAKE6_REQUIRE_BROWSER=1` makes
/// it required, as in CI): no script error, and the bot whose name is `escaped` (as HTML) is
/// in the leaderboard and in the reply times.
fn in_a_browser(page: &Path, escaped: &str) {
    let Some(browser) = ["chromium", "chromium-browser"].into_iter().find(|c| {
        Command::new(c)
            .arg("--version")
            .output()
            .is_ok_and(|o| o.status.success())
    }) else {
        assert!(
            std::env::var_os("TAKE6_REQUIRE_BROWSER").is_none(),
            "chromium is required (apt-get install chromium)"
        );
        common::skipped("no chromium on this machine (apt-get install chromium)");
        return;
    };
    let profile = tempfile::tempdir().unwrap();
    let out = Command::new(browser)
        .args([
            "--headless",
            "--no-sandbox",
            "--disable-gpu",
            "--no-first-run",
        ])
        .args([
            "--disable-background-networking",
            "--disable-component-update",
        ])
        .arg(format!("--user-data-dir={}", profile.path().display()))
        .arg("--dump-dom")
        .arg(format!("file://{}", page.display()))
        .output()
        .unwrap();
    assert!(out.status.success(), "chromium: {}", text(&out.stderr));
    let dom = text(&out.stdout);
    assert!(
        dom.contains("<pre id=\"errors\"></pre>"),
        "script errors shown in the page"
    );
    let replies = &dom[dom
        .find("<table class=\"replies\">")
        .expect("the reply times")..];
    assert!(
        replies.contains(&format!("<tr data-bot=\"{escaped}\">")),
        "{escaped} is not in the reply times"
    );
    // Text is serialized with `"` as it is, attributes with `&quot;`.
    let shown = escaped.replace("&quot;", "\"");
    assert!(
        dom.matches(&format!(">{shown}<")).count() >= 2,
        "{shown} is not in the leaderboard and the reply times"
    );
}
