//! A league's outputs, replaced atomically after every batch: `leaderboard.csv` and
//! `leaderboard.md` of the current versions (Markdown to paste into a README or an answer:
//! rank, bot, games, score with its interval, separation mark, faults, status), `report.html`
//! (the board and each bot's version history) and `league.toml`. Each is a pure function of the records and the manifest.

use std::fmt::Write as _;

use super::manifest::LeagueManifest;
use super::plan::{self, Rules, Version};
use crate::record::{self, GameRecord, Standing, Tally};
use crate::series::SeriesError;
use crate::series::dir::{SeriesDir, replace_file};
use crate::untrusted::markdown_cell;

/// The Markdown leaderboard's file name.
pub const MARKDOWN: &str = "leaderboard.md";

/// The standings of the current versions (the last field's) over every game, ranked by the
/// fit; older versions stay in the fit (their games inform the others') but not on the board.
pub fn current(manifest: &LeagueManifest, tally: &Tally) -> Vec<Standing> {
    let field = manifest.field_of(u64::MAX);
    let mut board: Vec<Standing> = tally
        .standings()
        .into_iter()
        .filter(|s| field.iter().any(|(k, _)| *k == s.bot))
        .collect();
    // Ranks and separation marks among the board's rows.
    let fitted = tally.fitted();
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

/// Writes `leaderboard.csv`, `leaderboard.md` and `report.html` from `tally` (every game so
/// far, kept by the caller: a long league does not refit its whole record at every batch);
/// returns the board.
pub fn write(
    dir: &SeriesDir,
    manifest: &LeagueManifest,
    tally: &Tally,
) -> Result<Vec<Standing>, SeriesError> {
    let board = current(manifest, tally);
    replace_file(
        &dir.file(crate::series::dir::LEADERBOARD),
        &record::leaderboard_csv(&board),
        false,
    )?;
    let md = markdown(manifest, &board);
    replace_file(&dir.file(MARKDOWN), md.as_bytes(), false)?;
    let all = tally.standings();
    replace_file(
        &dir.file(crate::report::REPORT),
        report_html(manifest, &board, &all, tally.games()).as_bytes(),
        false,
    )?;
    Ok(board)
}

/// The board as a person reads it on a terminal: the series' table (Markdown only in
/// leaderboard.md), whether the league is settled, and who is benched and why.
pub fn terminal(manifest: &LeagueManifest, board: &[Standing]) -> String {
    let mut text = record::summary_table(board, &[], "built-in");
    let _ = writeln!(text, "{}", state_sentence(manifest, board.len()));
    for b in &manifest.benched {
        let _ = writeln!(
            text,
            "{}: benched: {}",
            crate::untrusted::terminal(&b.name),
            crate::untrusted::terminal(&b.reason)
        );
    }
    text
}

/// `leaderboard.md`: the table, then what `?` means and each benched bot with its reason.
pub fn markdown(manifest: &LeagueManifest, board: &[Standing]) -> String {
    let mut md = String::from(
        "| rank | bot | games | score ± 95 % | faults | status |\n|---:|---|---:|---:|---:|---|\n",
    );
    for s in board {
        let mark = if s.separated_from_above == Some(false) {
            record::NOT_SEPARATED
        } else {
            ""
        };
        let score = score_text(s);
        let benched = manifest.benched.iter().find(|b| b.name == s.bot);
        let status = match benched {
            Some(b) => format!("benched: {}", markdown_cell(&b.reason)),
            None if s.games < manifest.min_games => {
                format!("new: {} of its first {} games", s.games, manifest.min_games)
            }
            None => "playing".into(),
        };
        let _ = writeln!(
            md,
            "| {}{mark} | {} | {} | {score} | {}{} | {status} |",
            s.rank,
            markdown_cell(&s.bot),
            s.games,
            s.faults,
            s.void_text()
        );
    }
    md.push_str(
        "\n`?`: not separated at 95 % from the rank above. The score is fitted to all games \
         (a term per game and per bot); a bot's later versions are named `name~2`, `name~3`.\n",
    );
    let _ = writeln!(md, "\n{}", state_sentence(manifest, board.len()));
    for b in &manifest.benched {
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

/// `report.html` of a league: one self-contained page (no script, nothing fetched) with the
/// board, each bot's version history (every version with its folder's SHA-256, the games it
/// played and its span of game numbers, and its fitted score while it played, old versions
/// included), the benched and skipped bots with why. Every name and reason through
/// [`crate::untrusted::html`].
pub fn report_html(
    manifest: &LeagueManifest,
    board: &[Standing],
    all: &[Standing],
    games: u64,
) -> String {
    use crate::untrusted::html;
    let mut page = String::from(
        "<!DOCTYPE html><html><head><meta charset=\"utf-8\"><title>take6 league</title>\
         <style>body{font-family:sans-serif;margin:2em}table{border-collapse:collapse}\
         td,th{border:1px solid #ccc;padding:.2em .6em}td.num{text-align:right}\
         code{font-size:.85em}</style></head><body>",
    );
    let _ = write!(
        page,
        "<h1>League of {}</h1><p>Seed {}, tables of {}, batches of {} games, top {} settled \
         at a 5 % error rate under repeated looks; {} games in {} runs.</p><p><b>{}</b></p>",
        html(&manifest.game),
        manifest.seed,
        manifest.players,
        manifest.batch,
        manifest.top,
        games,
        manifest.runs,
        html(&state_sentence(manifest, board.len()))
    );
    page.push_str(
        "<h2>Leaderboard</h2><table><tr><th>rank</th><th>bot</th><th>games</th>\
         <th>score ± 95 %</th><th>faults</th><th>status</th></tr>",
    );
    for s in board {
        let mark = if s.separated_from_above == Some(false) {
            record::NOT_SEPARATED
        } else {
            ""
        };
        let status = manifest
            .benched
            .iter()
            .find(|b| b.name == s.bot)
            .map_or_else(
                || "playing".to_string(),
                |b| format!("benched: {}", html(&b.reason)),
            );
        let _ = write!(
            page,
            "<tr><td class=\"num\">{}{mark}</td><td>{}</td><td class=\"num\">{}</td>\
             <td class=\"num\">{}</td><td class=\"num\">{}{}</td><td>{status}</td></tr>",
            s.rank,
            html(&s.bot),
            s.games,
            score_text(s),
            s.faults,
            s.void_text()
        );
    }
    page.push_str(
        "</table><h2>Versions</h2><table><tr><th>bot</th><th>version</th><th>games</th>\
         <th>game numbers</th><th>score ± 95 %</th><th>SHA-256 of its folder</th></tr>",
    );
    for v in &manifest.versions {
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
    for (title, list) in [
        ("Benched", &manifest.benched),
        ("Skipped this run", &manifest.skipped),
    ] {
        if !list.is_empty() {
            let _ = write!(page, "<h2>{title}</h2><ul>");
            for b in list {
                let _ = write!(page, "<li>{}: {}</li>", html(&b.name), html(&b.reason));
            }
            page.push_str("</ul>");
        }
    }
    page.push_str("</body></html>\n");
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

    fn board(name: &str) -> Vec<Standing> {
        let mut t = crate::record::Tally::default();
        for i in 0..4u32 {
            t.add(&GameRecord {
                players: vec![name.to_string(), "b".into()],
                builtin: vec![false, false],
                rounds: vec![crate::record::RoundRecord {
                    cows: vec![i, 9],
                    penalty: vec![0, 0],
                    scores: crate::record::score::whole(&[i, 9]),
                    ..Default::default()
                }],
                ..GameRecord::default()
            });
        }
        t.standings()
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
        let b = board(name);
        let md = markdown(&manifest(), &b);
        let row = md.lines().find(|l| l.contains("x\\|y")).unwrap();
        assert_eq!(row.matches(" | ").count() + 2, 7, "six cells: {row}");
        for bad in ["](", "![", "<script>", "`*", "\u{202e}"] {
            assert!(!row.contains(bad), "{bad} in {row}");
        }
        assert!(
            row.contains("&lt;script&gt;") && row.contains("\\u{202e}"),
            "{row}"
        );
        let page = report_html(&manifest(), &b, &b, 0);
        assert!(!page.contains("<script>") && page.contains("&lt;script&gt;"));
        assert!(!page.contains('\u{202e}'));
    }
}
