//! A compare's `report.html`: the series' pages of its games (leaderboard, scores, head to
//! head, faults with their stderr, reply times, the game viewer, the facts) with the compare's
//! own section: the verdict, the estimate with its 95 % interval, and the log-likelihood
//! ratio's path over the pairs between its two bounds (an inline SVG drawn here, no script).
//! Every name and reason through [`crate::untrusted::html`].

use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::path::Path;
use std::sync::{Arc, Mutex};

use super::Reading;
use super::manifest::{CompareManifest, Side};
use crate::game::GameRef;
use crate::record::Standing;
use crate::reply_times::ReplyStats;
use crate::report::{FactBot, FactSkipped, LeaguePart, REPORT, ReportStats, SeriesFacts};
use crate::series::SeriesError;
use crate::series::reporter::{Event, Sink, SinkError, State};
use crate::untrusted::html;

/// What the page gathers from the games as they arrive, played or read back.
#[derive(Debug, Default)]
pub struct Gathered {
    pub stats: ReportStats,
    pub replies: ReplyStats,
}

/// The sink that gathers the page's figures from every game.
pub struct Gather(pub Arc<Mutex<Gathered>>);

impl Sink for Gather {
    fn event(&mut self, event: &Event<'_>, _: &State) -> Result<(), SinkError> {
        if let Event::GameFinished(record, _) = event {
            let mut g = self.0.lock().expect("not poisoned");
            g.stats.add(record);
            g.replies.add(record);
        }
        Ok(())
    }
}

/// What the page is made of beyond the compare's manifest and its test.
pub struct Page<'a> {
    pub game: &'a GameRef,
    pub standings: &'a [Standing],
    pub gathered: &'a Gathered,
    /// The folders that sat out, and why.
    pub skipped: &'a [crate::bots::Skipped],
}

/// Writes `report.html` into `dir`.
pub fn write(
    dir: &Path,
    m: &CompareManifest,
    reading: &Reading,
    page: &Page<'_>,
) -> Result<(), SeriesError> {
    let stderr = crate::series::sinks::report::stderr_excerpts(
        dir,
        page.standings,
        &page.gathered.stats,
        str::to_string,
    );
    let ratings: BTreeMap<String, f64> = page
        .standings
        .iter()
        .filter_map(|s| Some((s.bot.clone(), s.rating?)))
        .collect();
    let replies = page.gathered.replies.rows();
    let html = crate::report::compare_html(
        &crate::report::Report {
            standings: page.standings,
            stats: &page.gathered.stats,
            facts: &facts(m, page),
            ratings: (!ratings.is_empty()).then_some(&ratings),
            reply_times: (!replies.is_empty()).then_some(&replies[..]),
            stderr: &stderr,
            league: None,
        },
        &part(m, reading, page.game),
    );
    crate::series::dir::replace_file(&dir.join(REPORT), html.as_bytes(), false)
}

/// The facts section's content: the compare's id, seed, status, games, bots with their
/// hashes, and its settings (table size, rounds, margin, error rates).
fn facts(m: &CompareManifest, page: &Page<'_>) -> SeriesFacts {
    let bot = |s: &Side| FactBot {
        name: s.name.clone(),
        hash: s.hash.clone(),
        source: s.folder.clone(),
        ..FactBot::default()
    };
    let settings = [
        ("game", serde_json::json!(m.game)),
        ("players", serde_json::json!(m.players)),
        ("rounds", serde_json::json!(m.rounds)),
        ("unit", serde_json::json!(m.unit.word())),
        ("margin", serde_json::json!(m.margin)),
        ("alpha", serde_json::json!(m.alpha)),
        ("beta", serde_json::json!(m.beta)),
        ("max_games", serde_json::json!(2 * m.max_pairs)),
    ]
    .into_iter()
    .map(|(k, v)| (k.to_string(), v))
    .collect();
    SeriesFacts {
        series: m.compare.clone(),
        controller_version: m.controller_version.clone(),
        status: m.status.clone(),
        seed: Some(m.seed),
        games_planned: 2 * m.max_pairs,
        games_played: m.games_played,
        settings,
        bots: [&m.new, &m.old]
            .into_iter()
            .chain(&m.field)
            .map(bot)
            .collect(),
        builtins: page.game.builtins().iter().map(|k| k.name.into()).collect(),
        skipped: page
            .skipped
            .iter()
            .map(|s| FactSkipped {
                name: s.name.clone(),
                reason: s.reason.clone(),
            })
            .collect(),
        game: Some(page.game.clone()),
        ..SeriesFacts::default()
    }
}

/// The line under the title (text; the page escapes it) and the compare's section.
fn part(m: &CompareManifest, reading: &Reading, game: &GameRef) -> LeaguePart {
    let t = &m.test;
    let mut headline = format!(
        "verdict: {} · {} (NEW) against {} (OLD) · {} pairs counted · seed {}",
        t.verdict, m.new.name, m.old.name, t.pairs, m.seed
    );
    if !game.is_default() {
        headline = format!("{} · {headline}", game.title());
    }
    LeaguePart {
        headline,
        section: section(m, reading),
    }
}

/// The compare's section: the verdict, the estimate, the test's figures and the ratio's path.
pub fn section(m: &CompareManifest, reading: &Reading) -> String {
    let t = &m.test;
    let mut out = String::from("<section id=\"compare\"><h2>Compare</h2>\n");
    let _ = write!(
        out,
        "<p id=\"verdict\">{} (NEW) against {} (OLD): <b>verdict: {}</b></p>\n<table>\
         <tr><th>estimate</th><td id=\"estimate\">{:+.2} {} (95 % interval {:.2} to {:.2})</td>\
         </tr><tr><th>margin</th><td>{} {}</td></tr>\
         <tr><th>pairs counted</th><td>{} ({} games played, {} void pairs)</td></tr>\
         <tr><th>LLR</th><td>{:.2}, bounds {:.2} (not better) and {:.2} (better); alpha {}, \
         beta {}</td></tr></table>\n",
        html(&m.new.name),
        html(&m.old.name),
        html(&t.verdict),
        t.estimate,
        m.unit.word(),
        t.low,
        t.high,
        m.margin,
        m.unit.word(),
        t.pairs,
        m.games_played,
        t.void_pairs,
        t.llr,
        t.lower,
        t.upper,
        m.alpha,
        m.beta,
    );
    out.push_str(
        "<h3>The log-likelihood ratio after each pair</h3>\n<p>The test stops when the ratio \
         leaves the band between its bounds: above the upper, NEW is better by the margin; \
         below the lower, it is not better.</p>\n",
    );
    out.push_str(&path_svg(&reading.path, t.lower, t.upper));
    out.push_str("\n</section>\n");
    out
}

/// The ratio's path (x: pairs, y: LLR) with its two bounds as lines.
pub fn path_svg(path: &[f64], lower: f64, upper: f64) -> String {
    const W: f64 = 640.0;
    const H: f64 = 240.0;
    let lo = path.iter().copied().fold(lower, f64::min) * 1.1;
    let hi = path.iter().copied().fold(upper, f64::max) * 1.1;
    let y = |v: f64| H - (v - lo) / (hi - lo) * H;
    let x = |i: usize| W * (i + 1) as f64 / path.len().max(1) as f64;
    let mut svg = format!(
        "<svg id=\"llr\" xmlns=\"http://www.w3.org/2000/svg\" width=\"{W}\" height=\"{H}\" \
         viewBox=\"0 0 {W} {H}\">"
    );
    for (v, label) in [(upper, "better"), (lower, "not better"), (0.0, "")] {
        let _ = write!(
            svg,
            "<line x1=\"0\" x2=\"{W}\" y1=\"{0:.1}\" y2=\"{0:.1}\" stroke=\"#999\" \
             stroke-dasharray=\"4\"/><text x=\"4\" y=\"{1:.1}\" font-size=\"11\">{label}</text>",
            y(v),
            y(v) - 3.0
        );
    }
    let points: Vec<String> = std::iter::once(format!("0,{:.1}", y(0.0)))
        .chain(
            path.iter()
                .enumerate()
                .map(|(i, v)| format!("{:.1},{:.1}", x(i), y(*v))),
        )
        .collect();
    let _ = write!(
        svg,
        "<polyline fill=\"none\" stroke=\"#1f77b4\" stroke-width=\"1.5\" points=\"{}\"/></svg>",
        points.join(" ")
    );
    svg
}
