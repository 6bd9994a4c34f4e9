//! A league's outputs, replaced atomically after every batch: `leaderboard.csv` and
//! `leaderboard.md` of the current versions (Markdown to paste into a README or an answer:
//! rank, bot, games, score with its interval, separation mark, faults, status), and
//! `league.toml`. Each is a pure function of the records and the manifest.

use std::fmt::Write as _;

use super::manifest::LeagueManifest;
use super::plan::{self, Rules, Version};
use crate::record::{self, GameRecord, Standing};
use crate::series::SeriesError;
use crate::series::dir::{SeriesDir, replace_file};
use crate::untrusted::markdown_cell;

/// The Markdown leaderboard's file name.
pub const MARKDOWN: &str = "leaderboard.md";

/// The standings of the current versions (the last field's) over every game, ranked by the
/// fit; older versions stay in the fit (their games inform the others') but not on the board.
pub fn current(
    manifest: &LeagueManifest,
    rules: &Rules,
    versions: &[Version],
    records: &[GameRecord],
) -> Vec<Standing> {
    let field = manifest.field_of(u64::MAX);
    let tally = plan::tally(rules, versions, records, u64::MAX);
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

/// Writes `leaderboard.csv` and `leaderboard.md`; returns the Markdown.
pub fn write(
    dir: &SeriesDir,
    manifest: &LeagueManifest,
    rules: &Rules,
    versions: &[Version],
    records: &[GameRecord],
) -> Result<String, SeriesError> {
    let board = current(manifest, rules, versions, records);
    replace_file(
        &dir.file(crate::series::dir::LEADERBOARD),
        &record::leaderboard_csv(&board),
        false,
    )?;
    let md = markdown(manifest, &board);
    replace_file(&dir.file(MARKDOWN), md.as_bytes(), false)?;
    Ok(md)
}

/// `leaderboard.md`: the table, then what `~` means and each benched bot with its reason.
pub fn markdown(manifest: &LeagueManifest, board: &[Standing]) -> String {
    let mut md = String::from(
        "| rank | bot | games | score ± 95 % | faults | status |\n|---:|---|---:|---:|---:|---|\n",
    );
    for s in board {
        let mark = if s.separated_from_above == Some(false) {
            "~"
        } else {
            ""
        };
        let score = match (s.rating, s.rating_ci95) {
            (Some(r), Some(c)) => format!("{r:.2} ± {c:.2}"),
            (Some(r), None) => format!("{r:.2}"),
            _ => String::new(),
        };
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
            "| {}{mark} | {} | {} | {score} | {} | {status} |",
            s.rank,
            markdown_cell(&s.bot),
            s.games,
            s.faults
        );
    }
    md.push_str(
        "\n`~`: not separated at 95 % from the rank above. The score is fitted to all games \
         (a term per game and per bot); a bot's later versions are named `name~2`, `name~3`.\n",
    );
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
