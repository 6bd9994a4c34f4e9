//! A league's outputs, replaced atomically after every batch: `leaderboard.csv` and
//! `leaderboard.md` of the current versions (Markdown to paste into a README or an answer:
//! rank, bot, games, score with its interval, separation mark, faults, status),
//! `reply_times.csv`, `report.html` (the series' page with the league's section: each bot's
//! status and version history) and `league.toml`. Each is a pure function of one
//! [`Snapshot`] of the league: the records, the manifest and the reporter's counts.

use std::collections::BTreeMap;
use std::fmt::Write as _;

use super::manifest::LeagueManifest;
use super::plan::{self, Rules, Version};
use crate::game::GameRef;
use crate::record::{self, GameRecord, Standing, Tally};
use crate::reply_times::{REPLY_TIMES, ReplyStats};
use crate::report::{FactBot, FactSkipped, LeaguePart, ReportStats, SeriesFacts};
use crate::series::SeriesError;
use crate::series::dir::{SeriesDir, replace_file};
use crate::untrusted::markdown_cell;

/// The Markdown leaderboard's file name.
pub const MARKDOWN: &str = "leaderboard.md";

/// The standings of the current versions (the last field's) over every game, ranked by the
/// fit; older versions stay in the fit (their games inform the others') but not on the board.
pub fn current(manifest: &LeagueManifest, tally: &Tally) -> Vec<Standing> {
    let fitted = fitted(manifest, tally);
    board_of(manifest, tally, &fitted, tally.standings_with(&fitted))
}

/// The fit of every game, the retired versions frozen ([`Tally::fitted_frozen`]).
pub fn fitted(manifest: &LeagueManifest, tally: &Tally) -> record::Fitted {
    let retired: Vec<String> = manifest
        .versions
        .iter()
        .filter(|v| v.until_game.is_some())
        .map(Version::key)
        .collect();
    tally.fitted_frozen(retired.iter().map(String::as_str))
}

/// The board of the current versions from the standings of every version, `all`.
fn board_of(
    manifest: &LeagueManifest,
    tally: &Tally,
    fitted: &record::Fitted,
    all: Vec<Standing>,
) -> Vec<Standing> {
    let field = manifest.field_of(u64::MAX);
    let mut board: Vec<Standing> = all
        .into_iter()
        .filter(|s| field.iter().any(|(k, _)| *k == s.bot))
        .collect();
    // Ranks and separation marks among the board's rows.
    for i in 0..board.len() {
        board[i].rank = match i.checked_sub(1) {
            Some(p) if board[p].rating == board[i].rating => board[p].rank,
            _ => i + 1,
        };
        board[i].separated_from_above = i.checked_sub(1).map(|p| {
            let (a, b) = (tally.id(&board[p].bot), tally.id(&board[i].bot));
            a.zip(b).is_some_and(|(a, b)| fitted.separated(a, b))
        });
    }
    board
}

/// The tally of every record, each player under its version's key: what the outputs show.
pub fn tally_of(rules: &Rules, versions: &[Version], records: &[GameRecord]) -> Tally {
    plan::tally(rules, versions, records, u64::MAX)
}

/// What the league's report gathers from every game, played or read back, each player under
/// its version's key: the series report's statistics (faults with their reasons, scores, the
/// games to view) and reply times.
#[derive(Default)]
pub struct Gathered {
    pub stats: ReportStats,
    pub replies: ReplyStats,
}

impl Gathered {
    /// Adds `record`, its players already under their versions' keys.
    pub fn add(&mut self, keyed: &GameRecord) {
        self.stats.add(keyed);
        self.replies.add(keyed);
    }
}

/// The league at one moment, the one source of every output (`leaderboard.csv` and `.md`,
/// `report.html`, `reply_times.csv`, the terminal's board): its counts are the reporter's,
/// which the progress bar shows.
pub struct Snapshot<'a> {
    pub manifest: &'a LeagueManifest,
    /// Every game so far, each player under its version's key.
    pub tally: &'a Tally,
    /// Games in `games.jsonl`.
    pub games: u64,
    pub gathered: &'a Gathered,
    pub game: GameRef,
}

/// A current version's status on the board.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Status<'a> {
    /// Still in its first `min_games`: it has played `games`.
    New {
        games: u64,
        of: u64,
    },
    Playing,
    /// Benched, with the reason.
    Benched(&'a str),
}

impl Status<'_> {
    /// The status as text, `reason` the benched reason made fit for the medium.
    fn text(&self, reason: impl Fn(&str) -> String) -> String {
        match self {
            Status::New { games, of } => format!("new: {games} of its first {of} games"),
            Status::Playing => "playing".into(),
            Status::Benched(why) => format!("benched: {}", reason(why)),
        }
    }
}

impl<'a> Snapshot<'a> {
    /// The status of the board's row `s`.
    pub fn status(&self, s: &Standing) -> Status<'a> {
        let m = self.manifest;
        match m.benched.iter().find(|b| b.name == s.bot) {
            Some(b) => Status::Benched(&b.reason),
            None if s.games < m.min_games => Status::New {
                games: s.games,
                of: m.min_games,
            },
            None => Status::Playing,
        }
    }

    /// How many games the league holds and over how many runs, then whether it is settled.
    pub fn counts(&self, field: usize) -> String {
        format!(
            "{} in {}. {}",
            crate::names::count(self.games, "game"),
            crate::names::count(u64::from(self.manifest.runs), "run"),
            state_sentence(self.manifest, field)
        )
    }

    /// The bot whose log holds version `key`'s games.
    fn bot_of(&self, key: &str) -> String {
        self.manifest
            .versions
            .iter()
            .find(|v| v.key() == key)
            .map_or_else(|| key.to_string(), |v| v.name.clone())
    }
}

/// Writes `leaderboard.csv`, `leaderboard.md`, `reply_times.csv` and `report.html` from
/// `snap` (every game so far, kept by the caller: a long league does not refit its whole
/// record at every batch); returns the board.
pub fn write(dir: &SeriesDir, snap: &Snapshot<'_>) -> Result<Vec<Standing>, SeriesError> {
    let fitted = fitted(snap.manifest, snap.tally);
    let all = snap.tally.standings_with(&fitted);
    let board = board_of(snap.manifest, snap.tally, &fitted, all.clone());
    replace_file(
        &dir.file(crate::series::dir::LEADERBOARD),
        &record::leaderboard_csv(&board),
        false,
    )?;
    let md = markdown(snap, &board);
    replace_file(&dir.file(MARKDOWN), md.as_bytes(), false)?;
    replace_file(&dir.file(REPLY_TIMES), &snap.gathered.replies.csv(), false)?;
    let stderr = crate::series::sinks::report::stderr_excerpts(
        &dir.path,
        &board,
        &snap.gathered.stats,
        |key| snap.bot_of(key),
    );
    replace_file(
        &dir.file(crate::report::REPORT),
        league_page(snap, &board, &all, &stderr).as_bytes(),
        false,
    )?;
    Ok(board)
}

/// The board as a person reads it on a terminal: the series' table (Markdown only in
/// leaderboard.md), the games so far and whether the league is settled, and who is benched
/// and why.
pub fn terminal(snap: &Snapshot<'_>, board: &[Standing]) -> String {
    let mut text = record::summary_table(board, &[], snap.game.builtin_label());
    let _ = writeln!(text, "{}", snap.counts(board.len()));
    for b in &snap.manifest.benched {
        let _ = writeln!(
            text,
            "{}: benched: {}",
            crate::untrusted::terminal(&b.name),
            crate::untrusted::terminal(&b.reason)
        );
    }
    text
}

/// `leaderboard.md`: the table, then what `?` means, the games so far and whether the league
/// is settled, and each benched bot off the board with its reason.
pub fn markdown(snap: &Snapshot<'_>, board: &[Standing]) -> String {
    let mut md = String::from(
        "| rank | bot | games | score ± 95 % | faults | status |\n|---:|---|---:|---:|---:|---|\n",
    );
    for s in board {
        let mark = if s.separated_from_above == Some(false) {
            record::NOT_SEPARATED
        } else {
            ""
        };
        let _ = writeln!(
            md,
            "| {}{mark} | {} | {} | {} | {}{} | {} |",
            s.rank,
            markdown_cell(&s.bot),
            s.games,
            score_text(s),
            s.faults,
            s.void_text(),
            snap.status(s).text(markdown_cell)
        );
    }
    let _ = writeln!(
        md,
        "\n`?`: not separated at 95 % from the rank above. The score is fitted to all games \
         (a term per game and per bot; {} is better); a bot's later versions are named \
         `name~2`, `name~3`.",
        better(&snap.game)
    );
    let _ = writeln!(md, "\n{}", snap.counts(board.len()));
    for b in &snap.manifest.benched {
        if !board.iter().any(|s| s.bot == b.name) {
            let _ = writeln!(
                md,
                "\n{}: benched: {}",
                markdown_cell(&b.name),
                markdown_cell(&b.reason)
            );
        }
    }
    md
}

/// "lower" or "higher": which scores are better in the league's game.
fn better(game: &GameRef) -> &'static str {
    match game.direction() {
        record::Direction::Lower => "lower",
        record::Direction::Higher => "higher",
    }
}

/// Whether the league is settled, in one sentence (from how its last run ended), for a board
/// of `field` bots (the top K is at most the pairs there are).
pub fn state_sentence(manifest: &LeagueManifest, field: usize) -> String {
    let top = shown_top(manifest.top, field);
    match manifest.status.as_str() {
        "settled" => format!("Settled: the top {top} are in order at a 5 % error rate."),
        "budget" => format!(
            "Not settled yet: the last run's --games budget ran out before the top {top} were \
             in order; the next run goes on."
        ),
        "interrupted" => format!(
            "Not settled yet: the last run was interrupted before the top {top} were in \
             order; the next run goes on."
        ),
        "too-few-bots" => "Not settled: fewer than two bots could play.".to_string(),
        _ => format!("Playing: the top {top} are not in order yet."),
    }
}

/// The top K as said to people: at most one less than the bots on the board (K adjacent pairs).
pub fn shown_top(top: usize, field: usize) -> usize {
    top.min(field.saturating_sub(1)).max(1)
}

/// `report.html` of a league: the series' page (leaderboard, scores, head to head, faults
/// with their reasons and stderr, reply times, the game viewer, facts) of the current
/// versions, with the league's section: each bot's status, its version history (every
/// version with its folder's SHA-256, the games it played and its span of game numbers, and
/// its fitted score while it played, old versions included), the benched and skipped bots
/// with why. Every name and reason through [`crate::untrusted::html`].
pub fn report_html(
    snap: &Snapshot<'_>,
    board: &[Standing],
    stderr: &BTreeMap<String, crate::report::StderrExcerpt>,
) -> String {
    let all = snap
        .tally
        .standings_with(&fitted(snap.manifest, snap.tally));
    league_page(snap, board, &all, stderr)
}

/// [`report_html`] from the standings of every version, `all`.
fn league_page(
    snap: &Snapshot<'_>,
    board: &[Standing],
    all: &[Standing],
    stderr: &BTreeMap<String, crate::report::StderrExcerpt>,
) -> String {
    let part = LeaguePart {
        headline: format!(
            "{} · {} · seed {}",
            snap.game.title(),
            snap.counts(board.len()),
            snap.manifest.seed
        ),
        section: league_section(snap, board, all),
    };
    let ratings: BTreeMap<String, f64> = board
        .iter()
        .filter_map(|s| Some((s.bot.clone(), s.rating?)))
        .collect();
    let replies: Vec<_> = snap
        .gathered
        .replies
        .rows()
        .into_iter()
        .filter(|r| board.iter().any(|s| s.bot == r.bot))
        .collect();
    crate::report::report_html(&crate::report::Report {
        standings: board,
        stats: &snap.gathered.stats,
        facts: &facts(snap, board),
        ratings: (!ratings.is_empty()).then_some(&ratings),
        reply_times: (!replies.is_empty()).then_some(&replies[..]),
        stderr,
        league: Some(&part),
    })
}

/// The facts section of a league's page: its settings and current versions.
fn facts(snap: &Snapshot<'_>, board: &[Standing]) -> SeriesFacts {
    let m = snap.manifest;
    let settings = [
        ("players", serde_json::json!(m.players)),
        ("rounds", serde_json::json!(m.rounds)),
        ("batch", serde_json::json!(m.batch)),
        ("top", serde_json::json!(m.top)),
        ("min_games", serde_json::json!(m.min_games)),
        ("alpha", serde_json::json!(m.alpha)),
        ("game", serde_json::json!(m.game)),
    ];
    SeriesFacts {
        series: m.league.clone(),
        controller_version: m.controller_version.clone(),
        status: m.status.clone(),
        seed: Some(m.seed),
        games_played: snap.games,
        settings: settings
            .into_iter()
            .map(|(k, v)| (k.to_string(), v))
            .collect(),
        bots: m
            .versions
            .iter()
            .filter(|v| board.iter().any(|s| s.bot == v.key()))
            .map(|v| FactBot {
                name: v.key(),
                hash: v.hash.clone(),
                ..FactBot::default()
            })
            .collect(),
        skipped: m
            .skipped
            .iter()
            .map(|b| FactSkipped {
                name: b.name.clone(),
                reason: b.reason.clone(),
            })
            .collect(),
        game: Some(snap.game.clone()),
        ..SeriesFacts::default()
    }
}

/// The league's own section of its page.
fn league_section(snap: &Snapshot<'_>, board: &[Standing], all: &[Standing]) -> String {
    use crate::untrusted::html;
    let m = snap.manifest;
    let mut page = format!(
        "<section id=\"league\"><h2>League</h2><p>Seed {}, tables of {}, batches of {} games, \
         top {} settled at a 5 % error rate under repeated looks.</p><p><b>{}</b></p>\
         <table class=\"status\"><thead><tr><th>bot</th><th>status</th></tr></thead><tbody>",
        m.seed,
        m.players,
        m.batch,
        shown_top(m.top, board.len()),
        html(&snap.counts(board.len()))
    );
    for s in board {
        let _ = write!(
            page,
            "<tr data-bot=\"{}\"><td>{}</td><td class=\"status\">{}</td></tr>",
            html(&s.bot),
            html(&s.bot),
            snap.status(s).text(html)
        );
    }
    page.push_str(
        "</tbody></table><h3>Versions</h3><table><tr><th>bot</th><th>version</th><th>games</th>\
         <th>game numbers</th><th>score ± 95 %</th><th>SHA-256 of its folder</th></tr>",
    );
    for v in &m.versions {
        let fitted = all.iter().find(|s| s.bot == v.key());
        let span = match v.until_game {
            Some(u) => format!("{} – {}", v.from_game, u.saturating_sub(1)),
            None => format!("{} –", v.from_game),
        };
        let _ = write!(
            page,
            "<tr><td>{}</td><td class=\"num\">{}</td><td class=\"num\">{}</td><td>{span}</td>\
             <td class=\"num\">{}</td><td><code>{}</code></td></tr>",
            html(&v.name),
            v.version,
            fitted.map_or(0, |s| s.games),
            fitted.map(score_text).unwrap_or_default(),
            html(&v.hash)
        );
    }
    page.push_str("</table>");
    for (title, list) in [("Benched", &m.benched), ("Skipped this run", &m.skipped)] {
        if !list.is_empty() {
            let _ = write!(page, "<h3>{title}</h3><ul>");
            for b in list {
                let _ = write!(page, "<li>{}: {}</li>", html(&b.name), html(&b.reason));
            }
            page.push_str("</ul>");
        }
    }
    page.push_str("</section>\n");
    page
}

fn score_text(s: &Standing) -> String {
    match (s.rating, s.rating_ci95) {
        (Some(r), Some(c)) => format!("{r:.2} ± {c:.2}"),
        (Some(r), None) => format!("{r:.2}"),
        _ => String::new(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn records(name: &str) -> Vec<GameRecord> {
        (0..4u32)
            .map(|i| GameRecord {
                game: u64::from(i),
                players: vec![name.to_string(), "b".into()],
                builtin: vec![false, false],
                rounds: vec![crate::record::RoundRecord {
                    cows: vec![i, 9],
                    penalty: vec![0, 0],
                    scores: crate::record::score::whole(&[i, 9]),
                    ..Default::default()
                }],
                ..GameRecord::default()
            })
            .collect()
    }

    fn manifest() -> LeagueManifest {
        toml::from_str(
            "league = \"l\"\ncontroller_version = \"0\"\ngame = \"take6\"\nseed = 1\nplayers = 2\n\
             batch = 4\ntop = 1\nmin_games = 2\nalpha = 0.05\nruns = 1\nbatches = 1\n\
             games_played = 4\n",
        )
        .unwrap()
    }

    /// A name a bot chose cannot add a cell, a link, an image or a tag to the Markdown
    /// table, nor a tag or a script to the page.
    #[test]
    fn hostile_names_stay_text_in_the_markdown_and_the_page() {
        let name = "x|y](http://e.vil)![i](j)<script>`*_~\u{202e}";
        let (m, mut t, mut g) = (manifest(), Tally::default(), Gathered::default());
        for r in records(name) {
            t.add(&r);
            g.add(&r);
        }
        let snap = Snapshot {
            manifest: &m,
            tally: &t,
            games: 4,
            gathered: &g,
            game: GameRef::default(),
        };
        let b = t.standings();
        let md = markdown(&snap, &b);
        let row = md.lines().find(|l| l.contains("x\\|y")).unwrap();
        assert_eq!(row.matches(" | ").count() + 2, 7, "six cells: {row}");
        for bad in ["](", "![", "<script>", "`*", "\u{202e}"] {
            assert!(!row.contains(bad), "{bad} in {row}");
        }
        assert!(
            row.contains("&lt;script&gt;") && row.contains("\\u{202e}"),
            "{row}"
        );
        let page = report_html(&snap, &b, &BTreeMap::new());
        // The page's own scripts aside, the name's tag is text wherever it is shown.
        assert!(!page.contains("(j)<script>") && page.contains("(j)&lt;script&gt;"));
        assert!(
            page.contains("(j)\\u003cscript>"),
            "inert in the viewer's data"
        );
        // Outside the viewer's JSON (read by its script as data, shown as text), no
        // control of the text's direction.
        let data = page.find("<script type=\"application/json\"").unwrap();
        assert!(!page[..data].contains('\u{202e}'));
    }
}
