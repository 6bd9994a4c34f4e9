//! `report.html`: one self-contained page (inline CSS, script and SVG, nothing fetched) for
//! people to look at a series: the leaderboard with confidence intervals, score distributions,
//! a head-to-head heat map, faults with their reasons, reply times, a game viewer (one per
//! game: Take 6's rows, Kingdomino's kingdoms) and the series facts.
//!
//! A pure exporter: [`report_html`] is a function of the standings, the [`ReportStats`]
//! gathered from the games (bounded, whatever the series' size), the [`SeriesFacts`] and what
//! the sink read of the series' other files ([`extras`]).

mod extras;
mod facts;
mod stats;
mod svg;

use std::collections::BTreeMap;
use std::fmt::Write;
use std::path::Path;

pub use extras::{ReplyRow, STDERR_LINES, StderrExcerpt, stderr_of_game};
pub use facts::{FactBalance, FactBot, FactSkipped, SeriesFacts};
pub use stats::{Distribution, FAULT_NOTES, FaultNote, ReportStats, VIEWER_SAMPLE, ViewerGame};

use crate::game::GameRef;
use crate::record::Direction;
use crate::record::Standing;

/// The file name of the report in a series folder.
pub const REPORT: &str = "report.html";

const CSS: &str = include_str!("page.css");
/// The viewer's frame, the same for every game: the game list, the turn buttons and keys, the
/// address (`#game=N&turn=T`) and scrolling to the viewer when a link names a game.
const SHELL: &str = include_str!("viewer.js");

/// Text for HTML content and attribute values: the one door for untrusted text into HTML.
pub(crate) use crate::untrusted::html as escape;

/// Everything the page is made from.
pub struct Report<'a> {
    pub standings: &'a [Standing],
    pub stats: &'a ReportStats,
    pub facts: &'a SeriesFacts,
    /// Each player's rating, when the series computed ratings: a column of its own then.
    pub ratings: Option<&'a BTreeMap<String, f64>>,
    /// The rows of `reply_times.csv`, when the series wrote it.
    pub reply_times: Option<&'a [ReplyRow]>,
    /// By bot, the first lines of its stderr in the game of its first fault.
    pub stderr: &'a BTreeMap<String, StderrExcerpt>,
    /// A league's page: its line under the title and its own section.
    pub league: Option<&'a LeaguePart>,
}

/// What a league's page says beyond a series': the line under its title (the games it holds,
/// its runs, whether it is settled) and its section (each bot's status, its versions, who is
/// benched or skipped), HTML whose untrusted text the league escaped. A compare's page says
/// its own in the same shape ([`compare_html`]).
#[derive(Debug, Clone, Default)]
pub struct LeaguePart {
    pub headline: String,
    pub section: String,
}

impl Report<'_> {
    /// The game the series played: as `series.toml` says ([`SeriesFacts::game`]), else as
    /// the records do. A game the settings name that this take6 does not know is the records'
    /// game (a series' records name their game), never silently the default.
    fn game(&self) -> GameRef {
        self.facts
            .game
            .clone()
            .unwrap_or_else(|| self.stats.rules())
    }

    /// "lower" or "higher": which scores are better.
    fn better(&self) -> &'static str {
        match self.game().direction() {
            Direction::Lower => "lower",
            Direction::Higher => "higher",
        }
    }
}

/// A page's own part beyond a series' pages: its kind in the title, its link in the
/// navigation, its line under the title and its section.
struct Part<'a> {
    kind: &'static str,
    nav: &'static str,
    headline: &'a str,
    section: &'a str,
}

/// The whole page.
pub fn report_html(report: &Report<'_>) -> String {
    let part = report.league.map(|league| Part {
        kind: "league",
        nav: "<a href=\"#league\">League</a> ",
        headline: &league.headline,
        section: &league.section,
    });
    whole_page(report, part.as_ref())
}

/// The page of a compare (`take6 compare`): the series' pages of its games, with the
/// compare's line under the title and its section (`part`, HTML whose untrusted text the
/// compare escaped, with the anchor `compare`) after the leaderboard.
pub fn compare_html(report: &Report<'_>, part: &LeaguePart) -> String {
    let part = Part {
        kind: "compare",
        nav: "<a href=\"#compare\">Compare</a> ",
        headline: &part.headline,
        section: &part.section,
    };
    whole_page(report, Some(&part))
}

fn whole_page(report: &Report<'_>, part: Option<&Part<'_>>) -> String {
    let facts = report.facts;
    let game = report.game();
    let kind = part.map_or("series", |p| p.kind);
    let mut title = if facts.series.is_empty() {
        format!("take6 {kind}")
    } else {
        format!("take6 {kind} {}", escape(&facts.series))
    };
    if !game.is_default() {
        title.push_str(&format!(" ({})", game.title()));
    }
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
         <nav><a href=\"#leaderboard\">Leaderboard</a> {}<a href=\"#scores\">Scores</a> \
         <a href=\"#headtohead\">Head to head</a> <a href=\"#faults\">Faults</a> \
         <a href=\"#replytimes\">Reply times</a> <a href=\"#viewer\">Games</a> \
         <a href=\"#facts\">Series</a></nav></header>\n",
        escape(&part.map_or_else(|| headline(report), |p| p.headline.to_string())),
        part.map_or("", |p| p.nav)
    );
    leaderboard(&mut page, report);
    if let Some(part) = part {
        page.push_str(part.section);
    }
    scores(&mut page, report);
    head_to_head(&mut page, report);
    faults(&mut page, report);
    reply_times(&mut page, report);
    viewer(&mut page, report);
    facts_section(&mut page, report);
    let games = report.stats.viewer_games();
    let games: Vec<&ViewerGame> = games.iter().map(AsRef::as_ref).collect();
    let mut data = serde_json::json!({
        "games": games,
        "total": report.stats.games(),
        "rules": game.name(),
        "higher": game.direction() == Direction::Higher,
    });
    let board = game.viewer();
    for (key, value) in board.shared {
        data[key] = value;
    }
    // `<` only occurs inside JSON strings, where \u003c means the same: no `</script>` early.
    let data = data.to_string().replace('<', "\\u003c");
    let board = board.script;
    let _ = write!(
        page,
        "<script type=\"application/json\" id=\"data\">{data}</script>\n\
         <script>{board}</script>\n<script>{SHELL}</script>\n</body></html>\n"
    );
    page
}

/// The line under the title: `complete · 100 of 100 games · seed 7 · started …`.
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
    let game = report.game();
    if !game.is_default() {
        parts.insert(0, game.title().to_string());
    }
    parts.join(" · ")
}

/// The leaderboard: one row per player, with its interval on a scale zoomed to the intervals
/// and the `?` of a rank not separated from the one above, as the summary marks it.
fn leaderboard(page: &mut String, report: &Report<'_>) {
    let outlying = outliers(report.standings);
    let field = || {
        report
            .standings
            .iter()
            .zip(&outlying)
            .filter(|(_, out)| !**out)
            .map(|(s, _)| s)
    };
    let lo = field()
        .map(|s| s.mean_score - s.ci95.unwrap_or(0.0))
        .fold(f64::INFINITY, f64::min);
    let hi = field()
        .map(|s| s.mean_score + s.ci95.unwrap_or(0.0))
        .fold(f64::NEG_INFINITY, f64::max);
    let axis = svg::Axis::around(lo, hi);
    leaderboard_head(page, report, &axis, outlying.contains(&true));
    for s in report.standings {
        standing_row(page, report, s, &axis);
    }
    page.push_str("</tbody></table></section>\n");
}

/// Which players' means lie far from the field's on its worse side (a bot that faulted in
/// every game, its mean 100 points away): more than 3 times the spread of the middle half of
/// the means (or of a typical interval, when wider) beyond it. Their intervals are left out of
/// the scale, which would otherwise squeeze every other interval into a few pixels; their bars
/// are marked at its edge. The better side is never left out, however far: when most of a
/// field faults, the few good bots are what the scale is for. `standings` are ranked best
/// first, which says which side is better. Under 4 players nothing is an outlier.
fn outliers(standings: &[Standing]) -> Vec<bool> {
    if standings.len() < 4 {
        return vec![false; standings.len()];
    }
    let sorted = |values: Vec<f64>| {
        let mut v = values;
        v.sort_by(f64::total_cmp);
        v
    };
    let means = sorted(standings.iter().map(|s| s.mean_score).collect());
    let at = |q: f64| means[((means.len() - 1) as f64 * q).round() as usize];
    let (q1, q3) = (at(0.25), at(0.75));
    let cis = sorted(standings.iter().filter_map(|s| s.ci95).collect());
    let typical = cis.get(cis.len() / 2).copied().unwrap_or(0.0);
    let fence = 3.0 * (q3 - q1).max(typical).max(f64::EPSILON);
    let median = at(0.5);
    let lower_is_better = standings[0].mean_score <= median;
    standings
        .iter()
        .map(|s| match lower_is_better {
            true => s.mean_score > q3 + fence,
            false => s.mean_score < q1 - fence,
        })
        .collect()
}

/// The leaderboard's heading, its note (which way is better, the scale, what decides the rank,
/// the `?`) and its table's header row.
fn leaderboard_head(page: &mut String, report: &Report<'_>, axis: &svg::Axis, outliers: bool) {
    let rating_head = if report.ratings.is_some() {
        "<th>rating</th>"
    } else {
        ""
    };
    let any_tilde = report
        .standings
        .iter()
        .any(|s| s.separated_from_above == Some(false));
    let tilde_note = if any_tilde {
        " <b>?</b> marks a rank not separated at 95 % from the rank above (by the fitted \
         rating's interval of their difference)."
    } else {
        ""
    };
    let disagree = crate::record::export::top_disagreement(report.standings)
        .map(|line| format!(" {}", escape(line.trim())))
        .unwrap_or_default();
    // The scale holds the field's intervals; it starts at 0 only where the data does.
    let holds = if outliers {
        "every interval but those of the players far from the field, whose means are marked \
         ▸ at its edge"
    } else {
        "every interval"
    };
    let zoomed = if axis.lo == 0.0 {
        ""
    } else {
        " (it does not start at 0, so that differences show)"
    };
    let builtins = builtins_title(report.game().builtin_label());
    let _ = write!(
        page,
        "<section id=\"leaderboard\"><h2>Leaderboard</h2>\
         <p class=\"note\">Mean score per game ({} is better) with its 95 % confidence \
         interval, drawn on a scale from {} to {} that holds {holds}{zoomed}. <b>The rating \
         fitted to all games decides the rank</b> (a term per game, so a player who met only \
         weak tables is not favoured; see docs/results.md); the mean score and wins are shown \
         beside it and may order the players otherwise.{disagree}\
         {tilde_note} {builtins} are marked.</p>\
         <table class=\"standings\"><thead><tr><th>rank</th><th>player</th><th>games</th>\
         <th>mean score</th><th>± 95 %</th><th class=\"scale\">{}</th>{rating_head}\
         <th>wins</th><th>faults</th><th>games to watch</th></tr></thead><tbody>",
        report.better(),
        svg::tick_label(axis.lo, axis.step),
        svg::tick_label(axis.hi, axis.step),
        svg::ci_axis(axis)
    );
}

/// One player's row of the leaderboard: its numbers (also as data attributes, for scripts and
/// tests), its interval on the scale, its rating if any, its faults linked to their section
/// and its best and worst games to watch.
fn standing_row(page: &mut String, report: &Report<'_>, s: &Standing, axis: &svg::Axis) {
    let ci = s.ci95.map(|c| format!("{c:.3}")).unwrap_or_default();
    let rating = match report.ratings {
        Some(r) => match r.get(&s.bot) {
            Some(v) => format!("<td class=\"num\">{v:.1}</td>"),
            None => "<td></td>".into(),
        },
        None => String::new(),
    };
    let mut faults = if s.fault_kinds.is_empty() {
        s.faults.to_string()
    } else {
        format!(
            "<a href=\"#fault-{}\">{}</a> <small>({})</small>",
            escape(&anchor(&s.bot)),
            s.faults,
            s.fault_kinds_text(escape)
        )
    };
    // Numbers only: nothing to escape.
    faults.push_str(&s.void_text());
    let watch = match report.stats.best_and_worst(&s.bot) {
        Some((best, worst)) => format!(
            "<a href=\"#game={best}\" class=\"best\">best</a> · \
             <a href=\"#game={worst}\" class=\"worst\">worst</a>"
        ),
        None => String::new(),
    };
    let name = escape(&s.bot);
    let builtin = if s.builtin {
        format!(
            " <span class=\"tag\">{}</span>",
            escape(report.game().builtin_label())
        )
    } else {
        String::new()
    };
    let (tilde, separated) = match s.separated_from_above {
        Some(false) => (
            "<abbr class=\"tilde\" title=\"not separated at 95 % from the rank above\">?</abbr>",
            "false",
        ),
        Some(true) => ("", "true"),
        None => ("", ""),
    };
    let _ = write!(
        page,
        "<tr class=\"standing{}\" data-rank=\"{}\" data-bot=\"{name}\" data-builtin=\"{}\" \
         data-games=\"{}\" data-mean=\"{:.3}\" data-ci95=\"{ci}\" data-wins=\"{}\" \
         data-faults=\"{}\" data-separated=\"{separated}\"><td class=\"num\">{}{tilde}</td>\
         <td>{name}{builtin}</td><td class=\"num\">{}</td><td class=\"num\">{:.2}</td>\
         <td class=\"num\">{}</td><td>{}</td>{rating}<td class=\"num\">{}</td>\
         <td class=\"num\">{faults}</td><td>{watch}</td></tr>",
        if s.builtin { " builtin" } else { "" },
        s.rank,
        s.builtin,
        s.games,
        s.mean_score,
        crate::record::export::format_wins(s.wins),
        s.faults,
        s.rank,
        s.games,
        s.mean_score,
        s.ci95.map(|c| format!("{c:.2}")).unwrap_or_default(),
        svg::ci_bar(s.mean_score, s.ci95, axis),
        crate::record::export::format_wins(s.wins),
    );
}

/// An element id for a player's name: its characters that may stand in an id as they are,
/// the others as `_` and their code, so that different names stay different ids.
fn anchor(name: &str) -> String {
    name.chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || c == '-' {
                c.to_string()
            } else {
                format!("_{:x}", u32::from(c))
            }
        })
        .collect()
}

/// A box plot of each player's scores per game, on the range the scores cover.
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
         the median and the dot the mean ({} is better); the axis spans the scores' range, \
         not from 0.</p>{}</section>",
        report.better(),
        svg::box_plots(&rows)
    );
}

/// The most players the head-to-head map shows (the first by the leaderboard): a map of a
/// course's 300 is 90,000 cells, more than a browser opens at ease or a person reads.
const HEAD_TO_HEAD_MOST: usize = 40;

/// The heat map of each pair's share of points, when the line-ups varied: the first
/// [`HEAD_TO_HEAD_MOST`] of the leaderboard.
fn head_to_head(page: &mut String, report: &Report<'_>) {
    page.push_str("<section id=\"headtohead\"><h2>Head to head</h2>");
    if !report.stats.varied_lineups() {
        page.push_str(
            "<p class=\"note\">Every game had the same players, so the leaderboard already \
             compares them all directly.</p></section>\n",
        );
        return;
    }
    let names: Vec<&str> = report
        .standings
        .iter()
        .take(HEAD_TO_HEAD_MOST)
        .map(|s| s.bot.as_str())
        .collect();
    if report.standings.len() > names.len() {
        let _ = write!(
            page,
            "<p class=\"note\">The first {} of the {} on the leaderboard.</p>",
            names.len(),
            report.standings.len()
        );
    }
    page.push_str(&format!(
        "<p class=\"note\">Percentage of the points the row's player won against the \
             column's in the games both played (a point for a {} score, half a point for a tie: \
             100 won every one, 50 even); hover for the number of games.</p><div class=\"scroll\"><table class=\"heat\"><thead><tr><th></th>",
        report.better()
    ));
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

/// Each faulting player's faults: how many of each kind, its first ones with their reasons
/// (each a link to the game's turn), and the first lines of its stderr in its first faulted
/// game, with the log that holds the rest.
fn faults(page: &mut String, report: &Report<'_>) {
    page.push_str("<section id=\"faults\"><h2>Faults</h2>");
    let faulted: Vec<&Standing> = report.standings.iter().filter(|s| s.faults > 0).collect();
    if faulted.is_empty() {
        page.push_str("<p class=\"note\">No player faulted.</p></section>\n");
        return;
    }
    let _ = write!(
        page,
        "<p class=\"note\">A fault ends the player's game (see the README's Faults). Each \
         player's first {FAULT_NOTES} faults with their reasons, and what a bot wrote on stderr \
         in the game of its first fault (the whole of it is in \
         <code>logs/&lt;bot&gt;.games.log</code>).</p>"
    );
    for s in faulted {
        let _ = write!(
            page,
            "<div class=\"faulted\" id=\"fault-{}\" data-bot=\"{}\"><h3>{}</h3><p>{} {} with a \
             fault: {}</p><ul class=\"reasons\">",
            escape(&anchor(&s.bot)),
            escape(&s.bot),
            escape(&s.bot),
            s.faults,
            if s.faults == 1 { "game" } else { "games" },
            s.fault_kinds_text(escape)
        );
        for n in report.stats.fault_notes(&s.bot) {
            let round = if n.round > 1 {
                format!("round {}, ", n.round)
            } else {
                String::new()
            };
            let _ = write!(
                page,
                "<li><a href=\"#game={g}&amp;turn={t}\">game {g}</a>, {round}turn {t} ({}): \
                 <b>{}</b>: <span class=\"reason\">{}</span></li>",
                escape(n.phase.as_str()),
                escape(&n.kind),
                escape(&n.reason),
                g = n.game,
                t = n.turn,
            );
        }
        page.push_str("</ul>");
        if let Some(e) = report.stderr.get(&s.bot) {
            if e.lines.is_empty() {
                let _ = write!(
                    page,
                    "<p class=\"note\">Nothing on stderr in game {} (<code>{}</code>).</p>",
                    e.game,
                    escape(&e.path)
                );
            } else {
                let _ = write!(
                    page,
                    "<p class=\"note\">The first lines of its stderr in game {} \
                     (<code>{}</code>):</p><pre class=\"stderr\">{}</pre>",
                    e.game,
                    escape(&e.path),
                    escape(&e.lines.join("\n"))
                );
            }
        }
        page.push_str("</div>");
    }
    page.push_str("</section>\n");
}

/// The table of `reply_times.csv`: per bot, the median, 99th percentile and longest reply, in
/// CPU time and in wall time.
fn reply_times(page: &mut String, report: &Report<'_>) {
    page.push_str("<section id=\"replytimes\"><h2>Reply times</h2>");
    let rows = report.reply_times.unwrap_or(&[]);
    if rows.is_empty() {
        page.push_str(
            "<p class=\"note\">No bot's reply was timed (built-in players reply inside the \
             controller).</p></section>\n",
        );
        return;
    }
    page.push_str(
        "<p class=\"note\">Per bot, over all its replies: the median (p50), the 99th \
         percentile and the longest, in milliseconds; CPU is the time its whole process tree \
         used (empty where the sandbox does not measure it), wall the time from the message to \
         the reply (from <code>reply_times.csv</code>).</p><table class=\"replies\"><thead>\
         <tr><th rowspan=\"2\">bot</th><th rowspan=\"2\">replies</th>\
         <th colspan=\"3\">CPU ms</th><th colspan=\"3\">wall ms</th></tr><tr><th>p50</th>\
         <th>p99</th><th>max</th><th>p50</th><th>p99</th><th>max</th></tr></thead><tbody>",
    );
    let cells = |v: Option<[f64; 3]>| -> String {
        match v {
            Some(v) => v
                .iter()
                .map(|x| format!("<td class=\"num\">{x:.2}</td>"))
                .collect(),
            None => "<td></td><td></td><td></td>".into(),
        }
    };
    for r in rows {
        let _ = write!(
            page,
            "<tr data-bot=\"{}\"><td>{}</td><td class=\"num\">{}</td>{}{}</tr>",
            escape(&r.bot),
            escape(&r.bot),
            r.replies,
            cells(r.cpu),
            cells(r.wall)
        );
    }
    page.push_str("</tbody></table></section>\n");
}

/// The viewer's frame and the board of the series' game; the scripts fill them.
fn viewer(page: &mut String, report: &Report<'_>) {
    let embedded = report.stats.viewer_games().len() as u64;
    let note = if embedded < report.stats.games() {
        format!(
            "This page holds {embedded} of the {} games: the first {VIEWER_SAMPLE} and every \
             player's best and worst, as many as fit in a page a browser opens at once. \
             <code>take6 replay SERIES_DIR GAME</code> shows any game.",
            report.stats.games()
        )
    } else {
        "Choose a game; step with the buttons or the ← → keys.".to_string()
    };
    let board = report.game().viewer().board_html;
    let _ = writeln!(
        page,
        "<section id=\"viewer\"><h2>Games</h2><p class=\"note\" id=\"viewer-note\">{note}</p>\
         <div class=\"controls\"><label>Game <select id=\"game\"></select></label> \
         <button id=\"first\" title=\"start (Home)\">«</button>\
         <button id=\"prev\" title=\"previous turn (←)\">◀</button>\
         <span id=\"turn-label\"></span>\
         <button id=\"next\" title=\"next turn (→)\">▶</button>\
         <button id=\"last\" title=\"end (End)\">»</button></div>{board}</section>"
    );
}

/// What the series played, in words that fit its schedule: one table, every subset of the
/// bots, or tables drawn to balance the games.
fn games_line(report: &Report<'_>) -> String {
    let f = report.facts;
    let planned = format!("{} played of {} planned", f.games_played, f.games_planned);
    let seats = report.stats.table_sizes();
    let players = match (seats.first(), seats.last()) {
        (Some(a), Some(b)) if a == b => format!("{a} players"),
        (Some(a), Some(b)) => format!("{a} to {b} players"),
        _ => match f
            .settings
            .get("players")
            .and_then(serde_json::Value::as_u64)
        {
            Some(n) => format!("{n} players"),
            None => "players".into(),
        },
    };
    let duplicate = if f.duplicate {
        format!(
            "; duplicate deals: {} {}, each played in every rotation of the seats",
            f.tables,
            if f.tables == 1 { "deal" } else { "deals" }
        )
    } else {
        String::new()
    };
    match f.schedule.as_str() {
        "single" => format!("{planned}, all at one table of {players}{duplicate}"),
        "all" => format!(
            "{planned}: each of the {} subsets of the bots at a table of {players} plays {} {}{duplicate}",
            f.subsets,
            f.games_per_subset,
            if f.games_per_subset == 1 {
                "game"
            } else {
                "games"
            }
        ),
        "balanced" => {
            let balance = match &f.balance {
                Some(b) => {
                    let range = |lo: u64, hi: u64| {
                        if lo == hi {
                            lo.to_string()
                        } else {
                            format!("{lo}–{hi}")
                        }
                    };
                    let mut text =
                        format!(" (each bot plays {} games", range(b.games_min, b.games_max));
                    if let (Some(lo), Some(hi)) = (b.pairs_min, b.pairs_max) {
                        text.push_str(&format!(", each pair of bots meets {}", range(lo, hi)));
                    }
                    text.push(')');
                    text
                }
                None => String::new(),
            };
            format!(
                "{planned}, at tables of {players} drawn to balance the games{balance}{duplicate}"
            )
        }
        _ if f.subsets > 1 => format!(
            "{planned} ({} subsets × {} games)",
            f.subsets, f.games_per_subset
        ),
        _ => planned,
    }
}

/// A bot's description and its `url` (a link only when it is `http://` or `https://`; any
/// other text is shown as text), from its `bot.toml`, escaped for the page.
fn about_cell(about: &crate::bots::About) -> String {
    let mut cell = escape(about.description.as_deref().unwrap_or(""));
    if let Some(url) = &about.url {
        if !cell.is_empty() {
            cell.push(' ');
        }
        let lower = url.to_ascii_lowercase();
        if lower.starts_with("https://") || lower.starts_with("http://") {
            let _ = write!(
                cell,
                "<a href=\"{}\" rel=\"nofollow noopener\">{}</a>",
                escape(url),
                escape(url)
            );
        } else {
            cell.push_str(&escape(url));
        }
    }
    cell
}

/// The series' facts: its settings, bots, built-ins and skipped bots, from `series.toml`.
fn facts_section(page: &mut String, report: &Report<'_>) {
    let f = report.facts;
    let _ = write!(
        page,
        "<section id=\"facts\"><h2>Series</h2><dl><dt>series</dt><dd>{}</dd><dt>game</dt>\
         <dd>{}</dd><dt>seed</dt><dd id=\"seed\">{}</dd><dt>status</dt><dd>{}</dd>\
         <dt>controller</dt><dd>take6 {}</dd><dt>started</dt><dd>{}</dd><dt>finished</dt>\
         <dd>{}</dd><dt>games</dt><dd id=\"games-line\">{}</dd></dl>",
        escape(&f.series),
        report.game().title(),
        escape(&f.seed_text()),
        escape(&f.status),
        escape(&f.controller_version),
        escape(&f.started),
        escape(f.finished.as_deref().unwrap_or("")),
        escape(&games_line(report)),
    );
    bots_table(page, report);
    if !f.builtins.is_empty() {
        let _ = write!(
            page,
            "<p>{}: {}</p>",
            escape(&builtins_title(report.game().builtin_label())),
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
    settings_table(page, report);
    page.push_str("</section>\n");
}

/// The bots that took part: name, `bot.toml`'s facts, folder hash and source, and the words
/// each speaks (Take 6's template; a Botzone bot's JSON or simple interaction).
fn bots_table(page: &mut String, report: &Report<'_>) {
    let f = report.facts;
    // Template sets are Take 6's wire; a bot of another game speaks the game's one wire.
    let templated = report.game().supports().templates;
    let simple = (f.bots.iter()).any(|b| report.stats.speaks_simple(&b.name));
    let _ = write!(
        page,
        "<h3>Bots</h3><table class=\"bots\"><thead><tr><th>bot</th><th>version</th>\
         <th>author</th><th>about</th><th>SHA-256 of its folder</th><th>source</th><th>{}</th>\
         </tr></thead><tbody>",
        if templated { "template" } else { "speaks" }
    );
    for b in &f.bots {
        let speaks = if templated {
            escape(&b.template)
        } else if report.stats.speaks_simple(&b.name) {
            "simple interaction (Botzone's, <code>simple_io</code>)".to_string()
        } else if simple {
            "JSON (Botzone's)".to_string()
        } else {
            format!("— ({})", escape(report.game().facts().wire_label))
        };
        let _ = write!(
            page,
            "<tr><td>{}</td><td class=\"version\">{}</td><td class=\"author\">{}</td>\
             <td class=\"about\">{}</td><td><code>{}</code></td><td>{}</td>\
             <td class=\"speaks\">{speaks}</td></tr>",
            escape(&b.name),
            escape(b.about.version.as_deref().unwrap_or("")),
            escape(b.about.author.as_deref().unwrap_or("")),
            about_cell(&b.about),
            escape(&b.hash),
            escape(&f.source_shown(&b.source)),
        );
    }
    page.push_str("</tbody></table>");
}

/// The series' settings, then the other tables of `series.toml` (no machine's path: a report
/// is published). A game whose bots each have their own reply limits (a Botzone game's, by
/// language, unless the series gave its own) shows each bot's instead of the series'.
fn settings_table(page: &mut String, report: &Report<'_>) {
    let f = report.facts;
    let per_bot = report.game().limits_note().is_some() && !f.limits_given();
    page.push_str("<h3>Settings</h3><table class=\"settings\"><tbody>");
    for (k, v) in &f.settings {
        if per_bot && (k == "first_reply_ms" || k == "reply_ms") {
            continue;
        }
        let _ = write!(
            page,
            "<tr><th>{}</th><td><code>{}</code></td></tr>",
            escape(k),
            escape(&f.setting_shown(k, v))
        );
    }
    if per_bot {
        let _ = write!(
            page,
            "<tr><th>reply limits</th><td class=\"reply-limits\">{}</td></tr>",
            reply_limits_cell(report)
        );
    }
    page.push_str("</tbody></table>");
    for (k, v) in &f.other {
        let _ = write!(
            page,
            "<h3>{}</h3><pre>{}</pre>",
            escape(k),
            escape(&without_paths(v).to_string())
        );
    }
}

/// Each bot's reply limits, as the game gives them for its language (CPU or wall time as the
/// `clock` setting says), then how the game sets them for the others (its padding bots).
fn reply_limits_cell(report: &Report<'_>) -> String {
    let f = report.facts;
    let game = report.game();
    let series = f.reply_limits();
    let mut cell = String::new();
    for b in &f.bots {
        let language = b.generated.as_ref().and_then(|g| g.language);
        let l = game.reply_limits(language, &series);
        let kept = l
            .kept_running_ms
            .map_or(String::new(), |k| format!(", kept running {k} ms"));
        let _ = write!(
            cell,
            "<code>{}</code> ({}): first turn {} ms, later turns {} ms{kept}<br>",
            escape(&b.name),
            language.map_or("its own launch", |l| l.name()),
            l.first_ms,
            l.later_ms
        );
    }
    let note = game.limits_note().unwrap_or_default();
    let _ = write!(cell, "<small>{}</small>", escape(&without_folder(&note)));
    cell
}

/// A note with any absolute path in it cut to its last component.
fn without_folder(text: &str) -> String {
    (text.split(' '))
        .map(|word| match Path::new(word).file_name() {
            Some(name) if word.starts_with('/') => format!("…/{}", name.to_string_lossy()),
            _ => word.to_string(),
        })
        .collect::<Vec<_>>()
        .join(" ")
}

/// A table of `series.toml` with every absolute path in its text cut to its last component
/// (where a toolchain was found, say): a report names no folder of the machine.
fn without_paths(value: &toml::Value) -> toml::Value {
    match value {
        toml::Value::String(s) => toml::Value::String(without_folder(s)),
        toml::Value::Array(a) => toml::Value::Array(a.iter().map(without_paths).collect()),
        toml::Value::Table(t) => toml::Value::Table(
            t.iter()
                .map(|(k, v)| (k.clone(), without_paths(v)))
                .collect(),
        ),
        other => other.clone(),
    }
}

/// What a game calls its built-in players, as a title: "Built-ins", "Padding bots".
fn builtins_title(label: &str) -> String {
    let mut chars = label.chars();
    chars.next().map_or_else(String::new, |c| {
        format!("{}{}s", c.to_uppercase(), chars.as_str())
    })
}

#[cfg(test)]
mod tests;
