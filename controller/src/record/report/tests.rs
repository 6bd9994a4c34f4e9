//! The report as a pure function: what the page holds for a small hand-made series.

use super::*;
use crate::record::GameRecord;
use crate::record::fixtures::{sample, series, tally};

fn stats_of(games: &[GameRecord]) -> ReportStats {
    let mut s = ReportStats::default();
    for g in games {
        s.add(g);
    }
    s
}

fn page(games: &[GameRecord], ratings: Option<&BTreeMap<String, f64>>) -> String {
    let facts = SeriesFacts::from_manifest(
        "series = \"20260101T000000Z\"\nseed = 99\nstatus = \"complete\"\n\
         [[bots]]\nname = \"alice\"\nhash = \"abc123\"\nsource = \"bots/alice\"\n\
         [[skipped]]\nname = \"<evil>\"\nreason = \"no launch & no hope\"\n",
    );
    report_html(&Report {
        standings: &tally(games).standings(),
        stats: &stats_of(games),
        facts: &facts,
        ratings,
        reply_times: None,
        stderr: &BTreeMap::new(),
    })
}

fn numbered(mut games: Vec<GameRecord>) -> Vec<GameRecord> {
    for (i, g) in games.iter_mut().enumerate() {
        g.game = i as u64;
    }
    games
}

#[test]
fn the_page_holds_every_standing_the_facts_and_parseable_game_data() {
    let games = numbered(series());
    let html = page(&games, None);
    let standings = tally(&games).standings();
    assert_eq!(
        html.matches("<tr class=\"standing").count(),
        standings.len()
    );
    for s in &standings {
        assert!(
            html.contains(&format!("data-bot=\"{}\"", s.bot)),
            "{}",
            s.bot
        );
    }
    assert!(html.contains("data-bot=\"random#1\" data-builtin=\"true\""));
    assert!(html.contains("abc123") && html.contains("seed 99"));
    assert!(html.contains("&lt;evil&gt;") && html.contains("no launch &amp; no hope"));
    assert!(!html.contains("<evil>"));
    assert!(!html.contains("<th>rating</th>"), "no ratings, no column");
    // Three line-ups: a heat map; links to each player's best and worst game.
    assert!(html.contains("<table class=\"heat\">"));
    assert!(html.contains("href=\"#game=0\" class=\"best\""));
    // Nothing is fetched.
    for needle in ["http://", "https://", "src=", "<link"] {
        assert!(!html.contains(needle), "{needle}");
    }
    let start = html.find("id=\"data\">").unwrap() + "id=\"data\">".len();
    let end = start + html[start..].find("</script>").unwrap();
    let data: serde_json::Value = serde_json::from_str(&html[start..end]).unwrap();
    assert_eq!(data["games"].as_array().unwrap().len(), 3);
    assert_eq!(data["total"], 3);
}

#[test]
fn ratings_get_a_column_and_names_cannot_end_the_data_script() {
    let mut game = sample();
    game.players[1] = "</script><b>".into();
    let ratings: BTreeMap<String, f64> = [("p0".to_string(), 1512.0)].into();
    let html = page(&[game], Some(&ratings));
    assert!(html.contains("<th>rating</th>") && html.contains(">1512.0<"));
    assert_eq!(
        html.matches("</script>").count(),
        4,
        "only the page's own scripts end (its error catcher, the board, the frame)"
    );
    assert!(html.contains("Every game had the same players"));
}
