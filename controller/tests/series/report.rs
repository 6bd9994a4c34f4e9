//! `report.html` in a real browser: headless Chromium loads the page a series wrote, with no
//! console message and no script error; its leaderboard rows are the CSV's, and stepping the
//! game viewer (through the URL hash, as a link does) shows the board the record says.

use std::path::Path;
use std::process::Command;

use take6::record::replay::frames;

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
    let tmp = arena(&named);
    assert_ok(&take6(tmp.path(), &["--games", "11", "--seed", "5"]));
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
}
