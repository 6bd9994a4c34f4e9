//! `report.html`: one self-contained page (inline CSS, script and SVG, nothing fetched) for
//! people to look at a series: the leaderboard with confidence intervals, score distributions,
//! a head-to-head heat map, a game viewer and the series facts.
//!
//! A pure exporter: [`report_html`] is a function of the standings, the [`ReportStats`]
//! gathered from the games (bounded, whatever the series' size) and the [`SeriesFacts`].

mod facts;
mod stats;
mod svg;

use std::collections::BTreeMap;
use std::fmt::Write;

pub use facts::{FactBot, FactSkipped, SeriesFacts};
pub use stats::{Distribution, ReportStats, VIEWER_SAMPLE, ViewerGame};

use super::Standing;

/// The file name of the report in a series folder.
pub const REPORT: &str = "report.html";

const CSS: &str = include_str!("page.css");
const SCRIPT: &str = include_str!("viewer.js");

/// Escapes text for HTML content and attribute values.
pub(crate) fn escape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            c => out.push(c),
        }
    }
    out
}

/// Everything the page is made from.
pub struct Report<'a> {
    pub standings: &'a [Standing],
    pub stats: &'a ReportStats,
    pub facts: &'a SeriesFacts,
    /// Each player's rating, when the series computed ratings: a column of its own then.
    pub ratings: Option<&'a BTreeMap<String, f64>>,
}

/// The whole page.
pub fn report_html(report: &Report<'_>) -> String {
    let facts = report.facts;
    let title = if facts.series.is_empty() {
        "take6 series".to_string()
    } else {
        format!("take6 series {}", escape(&facts.series))
    };
    let mut page = String::with_capacity(64 * 1024);
    let _ = write!(
        page,
        "<!doctype html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">\
         <meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\
         <title>{title}</title><style>{CSS}</style></head><body>\n\
         <script>window.reportErrors=[];window.addEventListener('error',function(e){{\
         window.reportErrors.push(String(e.message));var p=document.getElementById('errors');\
         if(p){{p.textContent=window.reportErrors.join('\\n');}}}});</script>\n\
         <pre id=\"errors\"></pre>\n<header><h1>{title}</h1><p>{}</p>\
         <nav><a href=\"#leaderboard\">Leaderboard</a> <a href=\"#scores\">Scores</a> \
         <a href=\"#headtohead\">Head to head</a> <a href=\"#viewer\">Games</a> \
         <a href=\"#facts\">Series</a></nav></header>\n",
        escape(&headline(report))
    );
    leaderboard(&mut page, report);
    scores(&mut page, report);
    head_to_head(&mut page, report);
    viewer(&mut page, report);
    facts_section(&mut page, facts);
    let games = report.stats.viewer_games();
    let games: Vec<&ViewerGame> = games.iter().map(AsRef::as_ref).collect();
    let data = serde_json::json!({ "games": games, "total": report.stats.games() });
    // `<` only occurs inside JSON strings, where \u003c means the same: no `</script>` early.
    let data = data.to_string().replace('<', "\\u003c");
    let _ = write!(
        page,
        "<script type=\"application/json\" id=\"data\">{data}</script>\n\
         <script>{SCRIPT}</script>\n</body></html>\n"
    );
    page
}

/// `complete · 100 of 100 games · seed 7 · started …`.
fn headline(report: &Report<'_>) -> String {
    let f = report.facts;
    let mut parts = Vec::new();
    if !f.status.is_empty() {
        parts.push(f.status.clone());
    }
    let played = report.stats.games();
    if f.games_planned > 0 {
        parts.push(format!("{played} of {} games", f.games_planned));
    } else {
        parts.push(format!("{played} games"));
    }
    parts.push(format!("seed {}", f.seed_text()));
    if !f.started.is_empty() {
        parts.push(format!("started {}", f.started));
    }
    parts.join(" · ")
}

fn leaderboard(page: &mut String, report: &Report<'_>) {
    let scale = svg::nice_max(
        report
            .standings
            .iter()
            .map(|s| s.mean_score + s.ci95.unwrap_or(0.0))
            .fold(1.0, f64::max),
    );
    let rating_head = if report.ratings.is_some() {
        "<th>rating</th>"
    } else {
        ""
    };
    let _ = write!(
        page,
        "<section id=\"leaderboard\"><h2>Leaderboard</h2>\
         <p class=\"note\">Mean score per game (lower is better) with its 95 % confidence \
         interval (0 to {scale} on the bars). Built-in players are marked.</p>\
         <table class=\"standings\"><thead><tr><th>rank</th><th>player</th><th>games</th>\
         <th>mean score</th><th>± 95 %</th><th>0 – {scale}</th>{rating_head}<th>wins</th>\
         <th>faults</th><th>games to watch</th></tr></thead><tbody>"
    );
    for s in report.standings {
        let ci = s.ci95.map(|c| format!("{c:.3}")).unwrap_or_default();
        let rating = match report.ratings {
            Some(r) => match r.get(&s.bot) {
                Some(v) => format!("<td class=\"num\">{v:.1}</td>"),
                None => "<td></td>".into(),
            },
            None => String::new(),
        };
        let faults = if s.fault_kinds.is_empty() {
            s.faults.to_string()
        } else {
            let kinds: Vec<String> = s
                .fault_kinds
                .iter()
                .map(|(k, n)| format!("{} {n}", escape(k)))
                .collect();
            format!("{} <small>({})</small>", s.faults, kinds.join(", "))
        };
        let watch = match report.stats.best_and_worst(&s.bot) {
            Some((best, worst)) => format!(
                "<a href=\"#game={best}\" class=\"best\">best</a> · \
                 <a href=\"#game={worst}\" class=\"worst\">worst</a>"
            ),
            None => String::new(),
        };
        let name = escape(&s.bot);
        let builtin = if s.builtin {
            " <span class=\"tag\">built-in</span>"
        } else {
            ""
        };
        let _ = write!(
            page,
            "<tr class=\"standing{}\" data-rank=\"{}\" data-bot=\"{name}\" data-builtin=\"{}\" \
             data-games=\"{}\" data-mean=\"{:.3}\" data-ci95=\"{ci}\" data-wins=\"{}\" \
             data-faults=\"{}\"><td class=\"num\">{}</td><td>{name}{builtin}</td>\
             <td class=\"num\">{}</td><td class=\"num\">{:.2}</td><td class=\"num\">{}</td>\
             <td>{}</td>{rating}<td class=\"num\">{}</td><td class=\"num\">{faults}</td>\
             <td>{watch}</td></tr>",
            if s.builtin { " builtin" } else { "" },
            s.rank,
            s.builtin,
            s.games,
            s.mean_score,
            super::export::format_wins(s.wins),
            s.faults,
            s.rank,
            s.games,
            s.mean_score,
            s.ci95.map(|c| format!("{c:.2}")).unwrap_or_default(),
            svg::ci_bar(s.mean_score, s.ci95, scale),
            super::export::format_wins(s.wins),
        );
    }
    page.push_str("</tbody></table></section>\n");
}

fn scores(page: &mut String, report: &Report<'_>) {
    let rows: Vec<(String, bool, f64, Distribution)> = report
        .standings
        .iter()
        .filter_map(|s| {
            let d = report.stats.distribution(&s.bot)?;
            Some((s.bot.clone(), s.builtin, s.mean_score, d))
        })
        .collect();
    let _ = writeln!(
        page,
        "<section id=\"scores\"><h2>Scores</h2><p class=\"note\">Each player's scores per \
         game: the line spans the lowest to the highest, the box the middle half, the bar is \
         the median and the dot the mean.</p>{}</section>",
        svg::box_plots(&rows)
    );
}

fn head_to_head(page: &mut String, report: &Report<'_>) {
    page.push_str("<section id=\"headtohead\"><h2>Head to head</h2>");
    if !report.stats.varied_lineups() {
        page.push_str(
            "<p class=\"note\">Every game had the same players, so the leaderboard already \
             compares them all directly.</p></section>\n",
        );
        return;
    }
    page.push_str(
        "<p class=\"note\">Share of points of the row's player against the column's in the \
         games both played (1 for a lower score, ½ for a tie); hover for the number of \
         games.</p><div class=\"scroll\"><table class=\"heat\"><thead><tr><th></th>",
    );
    let names: Vec<&str> = report.standings.iter().map(|s| s.bot.as_str()).collect();
    for n in &names {
        let _ = write!(page, "<th class=\"col\"><span>{}</span></th>", escape(n));
    }
    page.push_str("</tr></thead><tbody>");
    for a in &names {
        let _ = write!(page, "<tr><th>{}</th>", escape(a));
        for b in &names {
            match report.stats.meeting(a, b).filter(|_| a != b) {
                Some((games, share)) => {
                    let _ = write!(
                        page,
                        "<td style=\"background:{}\" title=\"{} vs {}: {games} games\">{:.0}</td>",
                        svg::heat_colour(share),
                        escape(a),
                        escape(b),
                        share * 100.0
                    );
                }
                None => page.push_str("<td class=\"none\"></td>"),
            }
        }
        page.push_str("</tr>");
    }
    page.push_str("</tbody></table></div></section>\n");
}

fn viewer(page: &mut String, report: &Report<'_>) {
    let embedded = report.stats.viewer_games().len() as u64;
    let note = if embedded < report.stats.games() {
        format!(
            "This page holds {embedded} of the {} games: the first {VIEWER_SAMPLE} and every \
             player's best and worst. <code>take6 replay SERIES_DIR GAME</code> shows any game.",
            report.stats.games()
        )
    } else {
        "Choose a game; step with the buttons or the ← → keys.".to_string()
    };
    let _ = writeln!(
        page,
        "<section id=\"viewer\"><h2>Games</h2><p class=\"note\" id=\"viewer-note\">{note}</p>\
         <div class=\"controls\"><label>Game <select id=\"game\"></select></label> \
         <button id=\"first\" title=\"start (Home)\">«</button>\
         <button id=\"prev\" title=\"previous turn (←)\">◀</button>\
         <span id=\"turn-label\"></span>\
         <button id=\"next\" title=\"next turn (→)\">▶</button>\
         <button id=\"last\" title=\"end (End)\">»</button></div>\
         <div class=\"table-view\"><div id=\"board\"></div><div id=\"turn-info\"></div>\
         <table id=\"seats\"></table></div></section>"
    );
}

fn facts_section(page: &mut String, f: &SeriesFacts) {
    let _ = write!(
        page,
        "<section id=\"facts\"><h2>Series</h2><dl><dt>series</dt><dd>{}</dd><dt>seed</dt>\
         <dd id=\"seed\">{}</dd><dt>status</dt><dd>{}</dd><dt>controller</dt><dd>take6 {}</dd>\
         <dt>started</dt><dd>{}</dd><dt>finished</dt><dd>{}</dd><dt>games</dt><dd>{} played of \
         {} planned ({} × {} games)</dd></dl>",
        escape(&f.series),
        escape(&f.seed_text()),
        escape(&f.status),
        escape(&f.controller_version),
        escape(&f.started),
        escape(f.finished.as_deref().unwrap_or("")),
        f.games_played,
        f.games_planned,
        match f.subsets {
            1 => "one table".to_string(),
            n => format!("{n} ten-player subsets"),
        },
        f.games_per_subset
    );
    page.push_str("<h3>Bots</h3><table class=\"bots\"><thead><tr><th>bot</th><th>SHA-256 of its folder</th><th>source</th><th>template</th></tr></thead><tbody>");
    for b in &f.bots {
        let _ = write!(
            page,
            "<tr><td>{}</td><td><code>{}</code></td><td>{}</td><td>{}</td></tr>",
            escape(&b.name),
            escape(&b.hash),
            escape(&b.source),
            escape(&b.template)
        );
    }
    page.push_str("</tbody></table>");
    if !f.builtins.is_empty() {
        let _ = write!(
            page,
            "<p>Built-in players: {}</p>",
            escape(&f.builtins.join(", "))
        );
    }
    if !f.skipped.is_empty() {
        page.push_str("<h3>Skipped</h3><ul class=\"skipped\">");
        for s in &f.skipped {
            let _ = write!(
                page,
                "<li><b>{}</b>: {}</li>",
                escape(&s.name),
                escape(&s.reason)
            );
        }
        page.push_str("</ul>");
    }
    page.push_str("<h3>Settings</h3><table class=\"settings\"><tbody>");
    for (k, v) in &f.settings {
        let _ = write!(
            page,
            "<tr><th>{}</th><td><code>{}</code></td></tr>",
            escape(k),
            escape(&v.to_string())
        );
    }
    page.push_str("</tbody></table>");
    for (k, v) in &f.other {
        let _ = write!(
            page,
            "<h3>{}</h3><pre>{}</pre>",
            escape(k),
            escape(&v.to_string())
        );
    }
    page.push_str("</section>\n");
}

#[cfg(test)]
mod tests;
