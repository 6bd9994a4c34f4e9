//! `report.html` in a real browser: headless Chromium loads the page a series wrote, with no
//! console message and no script error; its leaderboard rows are the CSV's, its scales hold the
//! data closely and are labelled, its `~` marks are the summary's, its reply times are
//! `reply_times.csv`'s, its faults carry their reasons and the bot's stderr, and stepping the
//! game viewer (through the URL hash, as a link does, which scrolls to the viewer) shows the
//! board the record says: Take 6's rows as `take6 replay` does, Kingdomino's kingdoms with the
//! record's scores, the tiles offered with who took them, and the PICK messages; a Botzone
//! game's requests, responses and displays step by step.

use std::path::Path;
use std::process::Command;

use take6::games::take6::replay::frames;

use super::*;

/// Chromium's command, or `None` when it is not installed and not required (`.ci/run` sets
/// `TAKE6_REQUIRE_BROWSER=1`, so CI never skips).
fn chromium() -> Option<&'static str> {
    let found = ["chromium", "chromium-browser"].into_iter().find(|c| {
        Command::new(c)
            .arg("--version")
            .output()
            .is_ok_and(|o| o.status.success())
    });
    if found.is_none() {
        assert!(
            std::env::var_os("TAKE6_REQUIRE_BROWSER").is_none(),
            "chromium is required (apt-get install chromium)"
        );
        crate::common::skipped("no chromium on this machine (apt-get install chromium)");
    }
    found
}

/// The page's DOM after its scripts ran, and what Chromium logged on stderr.
fn dump_dom(browser: &str, page: &Path, hash: &str) -> (String, String) {
    let profile = tempfile::tempdir().unwrap();
    let out = Command::new(browser)
        .args([
            "--headless",
            "--no-sandbox",
            "--disable-gpu",
            "--disable-background-networking",
            "--no-first-run",
            "--disable-component-update",
            "--disable-sync",
            "--enable-logging=stderr",
            "--v=0",
        ])
        .arg(format!("--user-data-dir={}", profile.path().display()))
        .arg("--dump-dom")
        .arg(format!("file://{}{hash}", page.display()))
        .output()
        .unwrap();
    assert!(out.status.success(), "chromium: {}", text(&out.stderr));
    (text(&out.stdout), text(&out.stderr))
}

/// The value of `attr="…"` in `tag`.
fn attr<'a>(tag: &'a str, attr: &str) -> &'a str {
    let key = format!(" {attr}=\"");
    let start = tag.find(&key).unwrap_or_else(|| panic!("{attr} in {tag}")) + key.len();
    &tag[start..start + tag[start..].find('"').unwrap()]
}

/// The opening tags of elements whose start is `prefix`.
fn tags<'a>(dom: &'a str, prefix: &str) -> Vec<&'a str> {
    dom.match_indices(prefix)
        .map(|(i, _)| &dom[i..i + dom[i..].find('>').unwrap()])
        .collect()
}

/// The board the viewer shows: the cards of each `data-row` element, in order.
fn board(dom: &str) -> Vec<Vec<u8>> {
    let start = dom.find("id=\"board\"").expect("the viewer's board");
    let end = start + dom[start..].find("id=\"turn-info\"").unwrap();
    dom[start..end]
        .split("data-row=")
        .skip(1)
        .map(|row| {
            tags(row, "<span class=\"card")
                .iter()
                .map(|t| attr(t, "data-card").parse().unwrap())
                .collect()
        })
        .collect()
}

/// Where the page is scrolled after loading `page` + `hash` in a 1000 × 600 frame: the
/// frame's `scrollY` and the top of the viewer section within the frame. Chromium reports it
/// through a wrapper page that reads the frame once everything has loaded.
fn scroll_after_load(browser: &str, page: &Path, hash: &str) -> (f64, f64) {
    let dir = tempfile::tempdir().unwrap();
    let wrapper = dir.path().join("frame.html");
    std::fs::write(
        &wrapper,
        format!(
            "<!doctype html><html><body><iframe id=\"f\" style=\"width:1000px;height:600px\" \
             src=\"file://{}{hash}\"></iframe><script>window.addEventListener('load', function () {{\
             var w = document.getElementById('f').contentWindow;\
             var top = w.document.getElementById('viewer').getBoundingClientRect().top;\
             document.body.setAttribute('data-scroll', w.scrollY + ' ' + top);}});</script>\
             </body></html>",
            page.display()
        ),
    )
    .unwrap();
    let profile = tempfile::tempdir().unwrap();
    let out = Command::new(browser)
        .args([
            "--headless",
            "--no-sandbox",
            "--disable-gpu",
            "--no-first-run",
            "--allow-file-access-from-files",
        ])
        .arg(format!("--user-data-dir={}", profile.path().display()))
        .arg("--dump-dom")
        .arg(format!("file://{}", wrapper.display()))
        .output()
        .unwrap();
    let dom = text(&out.stdout);
    let values = attr(&dom, "data-scroll");
    let (y, top) = values.split_once(' ').expect("two numbers");
    (y.parse().unwrap(), top.parse().unwrap())
}

/// The text inside the element whose opening tag starts at `from`, tags left out.
fn inner_text(dom: &str, from: &str, until: &str) -> String {
    let start = dom
        .find(from)
        .unwrap_or_else(|| panic!("{from} in the page"));
    let end = start + dom[start..].find(until).unwrap();
    let mut out = String::new();
    let mut in_tag = false;
    for c in dom[start..end].chars() {
        match c {
            '<' => in_tag = true,
            '>' => in_tag = false,
            c if !in_tag => out.push(c),
            _ => {}
        }
    }
    out.replace("&amp;", "&")
}

/// The numbers on a scale's ticks in the SVG whose tag starts with `prefix`, and its
/// `data-lo`/`data-hi`.
fn scale(dom: &str, prefix: &str) -> (f64, f64, Vec<f64>) {
    let start = dom
        .find(prefix)
        .unwrap_or_else(|| panic!("{prefix} in the page"));
    let svg = &dom[start..start + dom[start..].find("</svg>").unwrap()];
    let tag = &svg[..svg.find('>').unwrap()];
    let ticks = svg
        .split("class=\"tick\">")
        .skip(1)
        .filter_map(|t| t[..t.find('<').unwrap()].parse().ok())
        .collect();
    (
        attr(tag, "data-lo").parse().unwrap(),
        attr(tag, "data-hi").parse().unwrap(),
        ticks,
    )
}

/// Asserts that a scale from `lo` to `hi` with tick labels `ticks` holds `data_lo..data_hi`
/// without running far past it (not from 0 to a round 50 or 100 for data near 40).
#[track_caller]
fn holds_closely(lo: f64, hi: f64, ticks: &[f64], data_lo: f64, data_hi: f64) {
    assert!(ticks.len() >= 3, "labelled ticks: {ticks:?}");
    assert_eq!((ticks[0], ticks[ticks.len() - 1]), (lo, hi), "{ticks:?}");
    assert!(
        lo <= data_lo + 1e-9 && hi >= data_hi - 1e-9,
        "{lo}..{hi} holds {data_lo}..{data_hi}"
    );
    let span = (data_hi - data_lo).max(1.0);
    assert!(
        hi - lo <= 2.5 * span + 2.0,
        "{lo}..{hi} is close to {data_lo}..{data_hi}"
    );
}

/// The leaderboard rows with `?` in the page, and in the summary the run printed.
fn tildes(dom: &str, summary: &str) -> (Vec<String>, Vec<String>) {
    let page = tags(dom, "<tr class=\"standing")
        .iter()
        .filter(|t| attr(t, "data-separated") == "false")
        .map(|t| attr(t, "data-rank").to_string())
        .collect();
    let printed = summary
        .lines()
        .filter_map(|l| {
            l.split_whitespace()
                .next()?
                .strip_suffix('?')
                .map(String::from)
        })
        .collect();
    (page, printed)
}

fn no_errors(dom: &str, log: &str) {
    let console: Vec<&str> = log.lines().filter(|l| l.contains(":CONSOLE")).collect();
    assert!(console.is_empty(), "console messages: {console:#?}");
    assert!(
        dom.contains("<pre id=\"errors\"></pre>"),
        "script errors shown in the page"
    );
}

#[test]
fn the_report_loads_in_a_browser_matches_the_csv_and_its_viewer_steps() {
    let Some(browser) = chromium() else { return };
    // Eleven bots, so line-ups vary (a heat map), and one of them faults.
    let mut bots: Vec<(String, PathBuf)> = (0..10)
        .map(|i| (format!("first{i}"), fixtures().join("first")))
        .collect();
    bots.push(("not-held".into(), fixtures().join("not-held")));
    let named: Vec<(&str, PathBuf)> = bots.iter().map(|(n, p)| (n.as_str(), p.clone())).collect();
    let tmp = arena_of(&named);
    // not-held says something on stderr first, for the report to quote.
    let launch = tmp.path().join("bots/not-held/launch");
    let script = std::fs::read_to_string(&launch).unwrap();
    let (shebang, rest) = script.split_once('\n').unwrap();
    std::fs::write(
        &launch,
        format!("{shebang}\necho 'not-held: I play my first card forever' >&2\n{rest}"),
    )
    .unwrap();
    let out = run_series(tmp.path(), &["--games", "11", "--seed", "5"]);
    assert_ok(&out);
    let summary = text(&out.stdout);
    let page = series_dir(tmp.path()).join("report.html");
    let games = games(tmp.path());
    let game = &games[3];

    let (dom, log) = dump_dom(browser, &page, "");
    no_errors(&dom, &log);
    let rows = tags(&dom, "<tr class=\"standing");
    let csv = leaderboard(tmp.path());
    assert_eq!(rows.len(), csv.len());
    for (row, line) in rows.iter().zip(&csv) {
        for (data, column) in [
            ("data-rank", "rank"),
            ("data-bot", "bot"),
            ("data-builtin", "builtin"),
            ("data-games", "games"),
            ("data-mean", "mean_score"),
            ("data-ci95", "ci95"),
            ("data-wins", "wins"),
            ("data-faults", "faults"),
        ] {
            assert_eq!(attr(row, data), line[column], "{column} of {row}");
        }
    }
    assert!(dom.contains("<table class=\"heat\">"));
    assert!(dom.contains("not_in_hand"), "fault kinds are shown");

    // The interval scale and the box plots' axis hold the data closely, and are labelled.
    let low = |l: &BTreeMap<String, String>| {
        l["mean_score"].parse::<f64>().unwrap() - l["ci95"].parse::<f64>().unwrap_or(0.0)
    };
    let high = |l: &BTreeMap<String, String>| {
        l["mean_score"].parse::<f64>().unwrap() + l["ci95"].parse::<f64>().unwrap_or(0.0)
    };
    // A player far from the field (not-held, 100 a game for its fault) is marked at the
    // scale's edge instead of squeezing every other interval: the scale holds the
    // others'.
    let (lo, hi, ticks) = scale(&dom, "<svg class=\"ciaxis\"");
    let off: Vec<bool> = dom
        .split("<tr class=\"standing")
        .skip(1)
        .map(|row| row[..row.find("</tr>").unwrap()].contains("off the scale"))
        .collect();
    assert_eq!(off.len(), csv.len());
    let field: Vec<&BTreeMap<String, String>> = csv
        .iter()
        .zip(&off)
        .filter(|(_, o)| !**o)
        .map(|(l, _)| l)
        .collect();
    assert!(
        field.len() >= csv.len() - 1,
        "at most the faulty bot is off: {off:?}"
    );
    for (line, _) in csv.iter().zip(&off).filter(|(_, o)| **o) {
        let mean: f64 = line["mean_score"].parse().unwrap();
        assert!(mean > hi || mean < lo, "{} is off {lo}..{hi}", line["bot"]);
    }
    let data_lo = field.iter().map(|l| low(l)).fold(f64::INFINITY, f64::min);
    let data_hi = field
        .iter()
        .map(|l| high(l))
        .fold(f64::NEG_INFINITY, f64::max);
    holds_closely(lo, hi, &ticks, data_lo, data_hi);
    let (lo, hi, ticks) = scale(&dom, "<svg class=\"boxes\"");
    let all: Vec<f64> = games
        .iter()
        .flat_map(|g| g.rounds[0].scores.iter().map(|&s| f64::from(s)))
        .collect();
    let (min, max) = (
        all.iter().copied().fold(f64::INFINITY, f64::min),
        all.iter().copied().fold(f64::NEG_INFINITY, f64::max),
    );
    holds_closely(lo, hi, &ticks, min, max);
    assert!(
        dom.contains("score per game"),
        "the box plots' axis is named"
    );

    // The ~ marks are the summary's.
    let (page_tildes, printed) = tildes(&dom, &summary);
    assert!(
        !printed.is_empty(),
        "ten identical bots are not all separated:\n{summary}"
    );
    assert_eq!(page_tildes, printed);
    assert_eq!(dom.matches("<abbr class=\"tilde\"").count(), printed.len());

    // The reply times are reply_times.csv's, one row per bot.
    let mut reader =
        csv::Reader::from_path(series_dir(tmp.path()).join("reply_times.csv")).unwrap();
    let replies: Vec<BTreeMap<String, String>> = reader.deserialize().map(Result::unwrap).collect();
    assert_eq!(replies.len(), 11);
    let table = &dom[dom
        .find("<table class=\"replies\">")
        .expect("the reply-time table")..];
    let table = &table[..table.find("</table>").unwrap()];
    for r in &replies {
        let row = &table[table
            .find(&format!("<tr data-bot=\"{}\">", r["bot"]))
            .unwrap()..];
        let row = &row[..row.find("</tr>").unwrap()];
        let wall: f64 = r["wall_p50_ms"].parse().unwrap();
        assert!(
            row.contains(&format!(">{wall:.2}<")),
            "wall p50 of {}: {row}",
            r["bot"]
        );
        assert!(row.contains(&format!(">{}<", r["replies"])), "{row}");
    }

    // not-held's faults come with their reasons and its stderr.
    let faults = inner_text(
        &dom,
        "<div class=\"faulted\" id=\"fault-not-held\"",
        "</div>",
    );
    let first = games
        .iter()
        .flat_map(|g| {
            let seat = g.players.iter().position(|p| p == "not-held");
            g.rounds[0]
                .invalid
                .iter()
                .filter(move |f| Some(f.seat) == seat)
                .map(move |f| (g.game, f))
        })
        .next()
        .expect("not-held faults");
    assert!(faults.contains(&first.1.reason), "{faults}");
    assert!(faults.contains(&format!("game {}", first.0)), "{faults}");
    assert!(
        faults.contains("not-held: I play my first card forever"),
        "{faults}"
    );
    assert!(faults.contains("logs/not-held.games.log"), "{faults}");

    // The games line fits the schedule series.toml records.
    let line = inner_text(&dom, "<dd id=\"games-line\">", "</dd>");
    assert!(line.starts_with("11 played of 11 planned"), "{line}");
    let manifest = std::fs::read_to_string(series_dir(tmp.path()).join("series.toml")).unwrap();
    let schedule: toml::Value = toml::from_str(&manifest).unwrap();
    match schedule["schedule"].as_str().unwrap() {
        "balanced" => assert!(line.contains("drawn to balance"), "{line}"),
        "all" => assert!(line.contains("subsets of the bots"), "{line}"),
        other => panic!("11 bots at tables of 10 are not {other}"),
    }
    assert!(!line.contains(" 0 "), "{line}");

    let replayed = frames(game);
    let (start, log) = dump_dom(browser, &page, &format!("#game={}&turn=0", game.game));
    no_errors(&start, &log);
    let (later, log) = dump_dom(browser, &page, &format!("#game={}&turn=5", game.game));
    no_errors(&later, &log);
    let (start, later) = (board(&start), board(&later));
    assert_ne!(start, later, "stepping changes the board");
    assert_eq!(start, replayed[0].rows.to_vec());
    assert_eq!(later, replayed[5].rows.to_vec());
    assert!(dom.contains(&format!("<option value=\"{}\"", game.game)));

    // A link to a game scrolls to the viewer; the page alone stays at its top.
    let (y, top) = scroll_after_load(browser, &page, &format!("#game={}&turn=2", game.game));
    assert!(
        y > 0.0 && (-2.0..600.0).contains(&top),
        "scrolled to {y}, viewer at {top}"
    );
    let (y, _) = scroll_after_load(browser, &page, "");
    assert_eq!(y, 0.0);
}

/// Kingdomino's viewer in the browser: the final kingdoms score what the record says, square
/// for square; each turn's offer shows who took which tile, with the PICK messages; a fault is
/// shown with its reason; a link to a game and turn opens it, scrolled into view.
#[test]
fn a_kingdomino_report_draws_the_kingdoms_offers_and_messages_of_the_record() {
    let Some(browser) = chromium() else { return };
    let tmp = arena_of(&[
        ("strict-a", fixtures().join("strict-kingdomino")),
        ("strict-b", fixtures().join("strict-kingdomino")),
        ("bad-pick", fixtures().join("kd-bad-pick")),
    ]);
    let out = run_series(
        tmp.path(),
        &[
            "--game",
            "kingdomino",
            "--players",
            "4",
            "--games",
            "3",
            "--seed",
            "11",
        ],
    );
    assert_ok(&out);
    let summary = text(&out.stdout);
    let page = series_dir(tmp.path()).join("report.html");
    let games = games(tmp.path());
    let (dom, log) = dump_dom(browser, &page, "");
    no_errors(&dom, &log);
    assert!(
        dom.contains("higher is better"),
        "the leaderboard's direction"
    );
    let rows = tags(&dom, "<tr class=\"standing");
    assert_eq!(rows.len(), leaderboard(tmp.path()).len());
    let (page_tildes, printed) = tildes(&dom, &summary);
    assert_eq!(page_tildes, printed);
    let line = inner_text(&dom, "<dd id=\"games-line\">", "</dd>");
    assert_eq!(line, "3 played of 3 planned, all at one table of 4 players");
    let faults = inner_text(
        &dom,
        "<div class=\"faulted\" id=\"fault-bad-pick\"",
        "</div>",
    );
    assert!(faults.contains("illegal_pick"), "{faults}");

    for game in &games {
        let log = take6::games::kingdomino::GameLog::of(game).expect("a Kingdomino record");
        let moves = &log.moves;
        let turns = moves.iter().map(|m| m.turn).max().unwrap();
        let hash = |t: u8| format!("#game={}&turn={t}", game.game);
        // The end: each kingdom has the squares the record placed, and the record's score.
        let (end, log) = dump_dom(browser, &page, &hash(99));
        no_errors(&end, &log);
        assert!(
            end.contains(&format!(">turn {turns} of {turns}<")),
            "the last turn"
        );
        let kingdoms = tags(&end, "<div class=\"kingdom");
        assert_eq!(kingdoms.len(), game.players.len());
        for k in &kingdoms {
            let seat: usize = attr(k, "data-seat").parse().unwrap();
            let placed = moves
                .iter()
                .filter(|m| m.seat == seat)
                .filter(|m| m.outcome == Some(take6::games::kingdomino::game::PutOutcome::Placed))
                .count();
            assert_eq!(
                attr(k, "data-squares"),
                (2 * placed).to_string(),
                "seat {seat}"
            );
            assert_eq!(
                attr(k, "data-score"),
                game.rounds[0].scores[seat].to_string(),
                "seat {seat}"
            );
            // The drawing is labelled with the coordinates the moves are written
            // in: each placed square's column and row, on the axes of its kingdom.
            let from = end.find(*k).unwrap();
            let drawn = &end[from..];
            let drawn = &drawn[..drawn[1..]
                .find("<div class=\"kingdom")
                .map_or(drawn.len(), |i| i + 1)];
            for m in moves.iter().filter(|m| {
                m.seat == seat
                    && m.outcome == Some(take6::games::kingdomino::game::PutOutcome::Placed)
            }) {
                let p = m.put.unwrap();
                for label in [
                    format!("data-axis-x=\"{}\"", p.x),
                    format!("data-axis-y=\"{}\"", p.y),
                    format!("data-x=\"{}\" data-y=\"{}\"", p.x, p.y),
                ] {
                    assert!(drawn.contains(&label), "seat {seat}: {label} for {p:?}");
                }
            }
        }
        // Turns 1 and 3: the offer shows every pick's taker, and the messages.
        for t in [1, 3] {
            let (dom, log) = dump_dom(browser, &page, &hash(t));
            no_errors(&dom, &log);
            assert!(dom.contains(&format!(">turn {t} of {turns}<")));
            let offer =
                &dom[dom.find("id=\"offer\"").unwrap()..dom.find("id=\"turn-info\"").unwrap()];
            let offered = tags(offer, "<li data-tile=");
            assert_eq!(offered.len(), 4, "four tiles offered at four players");
            for m in moves.iter().filter(|m| m.turn == t && !m.eliminated) {
                if let (Some(p), Some(take6::games::kingdomino::game::PutOutcome::Placed)) =
                    (m.put, m.outcome)
                {
                    let at = format!("at (x {}, y {})", p.x, p.y);
                    assert!(dom.contains(&at), "{at} in turn {t}'s moves");
                }
                let pick = m.pick.expect("turns 1 and 3 pick");
                let li = offered
                    .iter()
                    .find(|l| attr(l, "data-tile") == pick.to_string())
                    .unwrap_or_else(|| panic!("tile {pick} offered in turn {t}"));
                assert_eq!(attr(li, "data-owner"), m.seat.to_string());
                if let Some(text) = &m.message {
                    assert!(
                        dom.contains(&format!("<q class=\"msg\">{text}</q>")),
                        "message {text:?}"
                    );
                }
            }
        }
        assert!(
            moves.iter().any(|m| m.message.is_some()),
            "the strict bots send messages"
        );
    }
    let faulted = games
        .iter()
        .find(|g| !g.rounds[0].invalid.is_empty())
        .expect("bad-pick faults");
    let fault = &faulted.rounds[0].invalid[0];
    let (dom, _) = dump_dom(
        browser,
        &page,
        &format!("#game={}&turn={}", faulted.game, fault.turn),
    );
    assert!(
        dom.contains(&fault.reason.replace('&', "&amp;")),
        "the fault in its turn"
    );
    let (y, top) = scroll_after_load(browser, &page, &format!("#game={}&turn=2", faulted.game));
    assert!(
        y > 0.0 && (-2.0..600.0).contains(&top),
        "scrolled to {y}, viewer at {top}"
    );
}

/// A Botzone game's report (a game loaded from its folder, whose judge speaks Botzone's
/// protocol): the generic viewer shows, at each step, every player's request and response as
/// the record's log holds them, and the judge's display after them.
#[test]
fn a_botzone_report_shows_each_steps_requests_responses_and_display() {
    let Some(browser) = chromium() else { return };
    let tmp = tempfile::tempdir().unwrap();
    let tests = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests");
    copy_dir(&tests.join("games/duel"), &tmp.path().join("game"));
    copy_dir(&fixtures().join("bz-py"), &tmp.path().join("bots/py"));
    copy_dir(&fixtures().join("bz-c"), &tmp.path().join("bots/c"));
    let out = run_series(
        tmp.path(),
        &["--game", "game", "--games", "2", "--seed", "5"],
    );
    assert_ok(&out);
    let page = series_dir(tmp.path()).join("report.html");
    let (dom, log) = dump_dom(browser, &page, "");
    no_errors(&dom, &log);
    // Records name their game: a loaded one is known once its folder is.
    take6::games::find(tmp.path().join("game").to_str().unwrap()).unwrap();
    for game in games(tmp.path()) {
        let body = game
            .body
            .as_ref()
            .expect("a Botzone record keeps its log")
            .value();
        let steps = body["log"].as_array().unwrap();
        assert!(steps.len() >= 3, "a game of several steps");
        for turn in 1..=(steps.len() - 1) / 2 {
            let (dom, log) = dump_dom(browser, &page, &format!("#game={}&turn={turn}", game.game));
            no_errors(&dom, &log);
            let asked = &steps[2 * (turn - 1)]["output"]["content"];
            let answers = &steps[2 * turn - 1];
            let table = inner_text(&dom, "<table id=\"bz-seats\">", "</table>");
            for (seat, name) in game.players.iter().enumerate() {
                let key = seat.to_string();
                let request = asked[&key].to_string();
                let answer = &answers[&key];
                let response = match answer["verdict"].as_str() {
                    Some("OK") => answer["response"].to_string(),
                    Some(verdict) => verdict.to_string(),
                    None => String::new(),
                };
                assert!(
                    table.contains(&format!("{name}{request}{response}")),
                    "game {} turn {turn}, {name}: {request} then {response} in {table}",
                    game.game
                );
            }
            let shown = inner_text(&dom, "<pre id=\"bz-display\">", "</pre>");
            let display: serde_json::Value =
                serde_json::from_str(shown.trim_start_matches("display: ")).unwrap();
            assert_eq!(display, steps[2 * turn]["output"]["display"], "turn {turn}");
        }
    }
}

/// A marked square of a Botzone board: its `data-x`, `data-y` and its piece's class.
type Marked = (String, String, String);

/// The pieces of the board `bz-board` shows: (player 0's, player 1's), and the marked
/// squares.
fn botzone_pieces(dom: &str) -> ((usize, usize), Vec<Marked>) {
    let start = dom.find("id=\"bz-board\"").expect("the board");
    let end = start + dom[start..].find("id=\"bz-note\"").unwrap();
    let board = &dom[start..end];
    let count = |class: &str| {
        board
            .matches(&format!("class=\"bz-piece {class}\""))
            .count()
    };
    let marked = board
        .split("<span class=\"bz-sq")
        .skip(1)
        .filter(|sq| sq[..sq.find('>').unwrap()].contains("bz-mark"))
        .map(|sq| {
            let tag = format!(" {}", &sq[..sq.find('>').unwrap()]);
            let piece = sq
                .find("class=\"bz-piece ")
                .filter(|&i| i < sq.find("</span>").unwrap())
                .map_or(String::new(), |i| sq[i + 16..i + 21].to_string());
            (
                attr(&tag, "data-x").to_string(),
                attr(&tag, "data-y").to_string(),
                piece,
            )
        })
        .collect();
    ((count("bz-p1"), count("bz-p2")), marked)
}

/// A Botzone game take6 knows by its game.toml name (the test game "Reversi", written again
/// with botzone-local's judge's requests, responses and displays): report.html draws its
/// board at every step of the record, one more piece a move (none for a pass), the square
/// the judge's display names marked and holding the mover's piece, the judge's winner with
/// more pieces at the end; each response's debug is shown when the record keeps one.
#[test]
fn a_known_botzone_games_report_draws_its_board() {
    let Some(browser) = chromium() else { return };
    let tmp = tempfile::tempdir().unwrap();
    let tests = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests");
    copy_dir(&tests.join("games/reversi"), &tmp.path().join("game"));
    for bot in ["a", "b"] {
        copy_dir(
            &tests.join("games/reversi/first"),
            &tmp.path().join("bots").join(bot),
        );
    }
    let out = run_series(
        tmp.path(),
        &["--game", "game", "--games", "1", "--seed", "2"],
    );
    assert_ok(&out);
    let page = series_dir(tmp.path()).join("report.html");
    take6::games::find(tmp.path().join("game").to_str().unwrap()).unwrap();
    let game = &games(tmp.path())[0];
    let body = game.body.as_ref().unwrap().value();
    let log = body["log"].as_array().unwrap();
    let steps = log.len() / 2;
    // One piece a move, none for a pass: the pieces after each step.
    let placed: Vec<usize> = (0..=steps)
        .scan(4, |n, t| {
            let x = &log[2 * t]["output"]["display"]["x"];
            *n += usize::from(t > 0 && x.as_i64().is_some_and(|x| x >= 0));
            Some(*n)
        })
        .collect();
    // Whether the record keeps any response's debug (the viewer's debug column).
    let any_debug = log.iter().skip(1).step_by(2).any(|answers| {
        (answers.as_object().into_iter().flatten()).any(|(_, a)| a.get("debug").is_some())
    });
    let mut last = (0, 0);
    // Chromium once a turn is slow: the start, the first moves, the middle and the end.
    let mut turns = vec![0, 1, 2, 3, steps / 2, steps - 1, steps];
    turns.dedup();
    for turn in turns {
        let pieces = placed[turn];
        let (dom, console) = dump_dom(browser, &page, &format!("#game={}&turn={turn}", game.game));
        no_errors(&dom, &console);
        let ((black, white), marked) = botzone_pieces(&dom);
        let display = &log[2 * turn]["output"]["display"];
        if turn > 0 && display["x"].as_i64().is_some_and(|x| x >= 0) {
            // The mover's piece on the square the judge names, marked.
            let mover = if log[2 * turn - 1].get("0").is_some() {
                "bz-p1"
            } else {
                "bz-p2"
            };
            let square = (
                display["x"].to_string(),
                display["y"].to_string(),
                mover.to_string(),
            );
            assert!(
                marked.contains(&square),
                "turn {turn}: {square:?} in {marked:?}"
            );
        }
        assert_eq!(black + white, pieces, "turn {turn}");
        let answers = if turn > 0 {
            &log[2 * turn - 1]
        } else {
            &serde_json::Value::Null
        };
        let table = inner_text(&dom, "<table id=\"bz-seats\">", "</table>");
        for (seat, answer) in answers.as_object().into_iter().flatten() {
            match answer.get("debug").and_then(|d| d.as_str()) {
                Some(debug) => assert!(table.contains(debug), "turn {turn} seat {seat}: {table}"),
                None => assert!(
                    any_debug || !table.contains("debug"),
                    "turn {turn}: {table}"
                ),
            }
        }
        last = (black, white);
    }
    let scores = &body["scores"];
    assert_eq!(
        last.0 > last.1,
        scores[0].as_f64() > scores[1].as_f64(),
        "{last:?} {scores}"
    );
    assert!(steps > 20, "a whole game: {steps} steps");

    // A record that keeps each response's debug (a string, or any JSON value): the viewer
    // shows it beside the response, as text (markup and a bidirectional override inert), its
    // lines kept.
    let series = series_dir(tmp.path());
    let id = series.file_name().unwrap().to_str().unwrap().to_string();
    crate::common::forge(&series.join("games.jsonl"), &id, 1, |g| {
        let mut body = g.body.as_ref().unwrap().value();
        body["log"][1]["0"]["debug"] = "<b>deep</b>\u{202e}\nline two".into();
        body["log"][3]["1"]["debug"] = serde_json::json!({"depth": 2});
        g.body = Some(take6::record::Body::new(&body));
    });
    let out = take6_cmd(tmp.path())
        .args(["leaderboard", "results/latest"])
        .output()
        .unwrap();
    assert_ok(&out);
    for (turn, said) in [
        (1, "&lt;b&gt;deep&lt;/b&gt;\\u{202e}\nline two"),
        (2, "{\"depth\":2}"),
    ] {
        let (dom, console) = dump_dom(browser, &page, &format!("#game={}&turn={turn}", game.game));
        no_errors(&dom, &console);
        let table = &dom[dom.find("<table id=\"bz-seats\">").unwrap()..];
        let table = &table[..table.find("</table>").unwrap()];
        assert!(table.contains("<th>debug</th>"), "{table}");
        assert!(
            table.contains(&format!("<td class=\"bz-debug\">{said}</td>")),
            "turn {turn}: {said} in {table}"
        );
        assert!(!table.contains("<b>"), "{table}");
    }
}
