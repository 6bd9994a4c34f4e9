//! Exporters: the leaderboard CSV and the end-of-series summary, pure functions of the
//! standings so they are snapshot-tested without running games.

use super::Standing;
use super::tally::HeadToHead;
use crate::untrusted;

/// Formats wins with at most two decimals and no trailing zeros: `3`, `2.5`, `0.33`.
pub(crate) fn format_wins(wins: f64) -> String {
    let s = format!("{wins:.2}");
    let s = s.trim_end_matches('0').trim_end_matches('.');
    s.to_string()
}

/// The leaderboard as CSV (`leaderboard.csv`), a pure function of the standings so it can be
/// rewritten after every game and snapshot-tested. Columns:
/// `rank,bot,builtin,games,total_score,mean_score,ci95,wins,faults,rating,rating_ci95,void`
/// (`void`: the void games the player sat at, not in `games`); means
/// and CIs with three decimals, `ci95` empty below two games, wins with at most two decimals;
/// `rating` the fitted score that ranks ([`super::fit`]) and `rating_ci95` its interval's
/// half-width, with three decimals.
pub fn leaderboard_csv(standings: &[Standing]) -> Vec<u8> {
    let mut w = csv::Writer::from_writer(Vec::new());
    let header = [
        "rank",
        "bot",
        "builtin",
        "games",
        "total_score",
        "mean_score",
        "ci95",
        "wins",
        "faults",
        "rating",
        "rating_ci95",
        "void",
    ];
    // Writing to a Vec cannot fail: the only errors csv can report here are I/O errors.
    w.write_record(header).expect("writing CSV to memory");
    for s in standings {
        w.write_record([
            s.rank.to_string(),
            untrusted::csv_cell(&s.bot).into_owned(),
            s.builtin.to_string(),
            s.games.to_string(),
            s.total_score.to_string(),
            format!("{:.3}", s.mean_score),
            s.ci95.map(|c| format!("{c:.3}")).unwrap_or_default(),
            format_wins(s.wins),
            s.faults.to_string(),
            s.rating.map(|r| format!("{r:.3}")).unwrap_or_default(),
            s.rating_ci95.map(|c| format!("{c:.3}")).unwrap_or_default(),
            s.void.to_string(),
        ])
        .expect("writing CSV to memory");
    }
    w.into_inner().expect("flushing CSV to memory")
}

/// `headtohead.csv`: one row per pair of players that shared tables, by name. Columns:
/// `bot_a,bot_b,games,mean_diff,ci95,separated,a_ahead,b_ahead`; `mean_diff` is the mean of
/// `bot_a`'s score minus `bot_b`'s at their shared tables (negative: `bot_a` did better),
/// `ci95` its half-width (Student's t, empty below two games), `separated` whether that
/// interval excludes zero, and `a_ahead`/`b_ahead` the games each finished strictly ahead.
pub fn headtohead_csv(pairs: &[HeadToHead]) -> Vec<u8> {
    let mut w = csv::Writer::from_writer(Vec::new());
    w.write_record([
        "bot_a",
        "bot_b",
        "games",
        "mean_diff",
        "ci95",
        "separated",
        "a_ahead",
        "b_ahead",
    ])
    .expect("writing CSV to memory");
    for p in pairs {
        w.write_record([
            untrusted::csv_cell(&p.bot_a).into_owned(),
            untrusted::csv_cell(&p.bot_b).into_owned(),
            p.games.to_string(),
            format!("{:.3}", p.mean_diff),
            p.ci95.map(|c| format!("{c:.3}")).unwrap_or_default(),
            p.separated().to_string(),
            p.a_ahead.to_string(),
            p.b_ahead.to_string(),
        ])
        .expect("writing CSV to memory");
    }
    w.into_inner().expect("flushing CSV to memory")
}

/// Marks a rank not separated at 95 % from the one above it, wherever ranks are shown (the
/// summary, leaderboard.md, report.html): one sign of its own (a version is `name~2`).
pub const NOT_SEPARATED: &str = "?";

/// The end-of-series table printed to stdout: rank (`?` when not separated from the rank above),
/// bot (built-ins marked with `builtin`, what the game calls them: "built-in", "padding
/// bot"), games, mean score
/// ± ci95, wins and faults (with their kinds, and the void games the bot sat at, when any) in
/// aligned columns, then a `Skipped:` section
/// listing `name: reason` for every bot that could not take part, if any.
pub fn summary_table(
    standings: &[Standing],
    skipped: &[(String, String)],
    builtin: &str,
) -> String {
    let header = [
        "rank",
        "bot",
        "games",
        "mean score",
        "wins",
        "rating",
        "vs above",
        "faults",
    ];
    let rows = summary_rows(standings, builtin);
    let mut out = aligned(&header.map(String::from), &rows);
    if standings
        .iter()
        .any(|s| s.separated_from_above == Some(false))
    {
        out.push_str(&format!(
            "{NOT_SEPARATED}: not separated at 95 % from the rank above by the fitted rating\n"
        ));
    }
    if standings.iter().any(|s| s.gap_ci95.is_some()) {
        out.push_str(VS_ABOVE_NOTE);
    }
    if let Some(note) = top_disagreement(standings) {
        out.push_str(&note);
    }
    if !skipped.is_empty() {
        out.push_str("\nSkipped:\n");
        for (name, reason) in skipped {
            out.push_str(&format!(
                "  {}: {}\n",
                untrusted::terminal(name),
                untrusted::terminal_text(reason).replace('\n', "\n    ")
            ));
        }
    }
    out
}

/// What the summary's "vs above" column is.
const VS_ABOVE_NOTE: &str = "vs above: the rating minus the rank above's, with the 95 % interval \
    of that difference, which narrows as the two play (a rating's own interval is against the \
    fit's reference and need not)\n";

/// A standing's rating minus the rank above's, with the interval of the difference.
fn vs_above(above: Option<&Standing>, s: &Standing) -> String {
    match (above.and_then(|a| a.rating), s.rating, s.gap_ci95) {
        (Some(a), Some(r), Some(ci)) => format!("{:+.2} ± {ci:.2}", r - a),
        _ => String::new(),
    }
}

/// The summary's cells, one row per standing. Means and CIs are right-aligned within the
/// mean-score column, so that decimal points line up; names go through the terminal's door.
fn summary_rows(standings: &[Standing], builtin: &str) -> Vec<[String; 8]> {
    let means: Vec<String> = standings
        .iter()
        .map(|s| format!("{:.2}", s.mean_score))
        .collect();
    let cis: Vec<Option<String>> = standings
        .iter()
        .map(|s| s.ci95.map(|c| format!("{c:.2}")))
        .collect();
    let mean_w = means.iter().map(String::len).max().unwrap_or(0);
    let ci_w = cis.iter().flatten().map(String::len).max().unwrap_or(0);
    standings
        .iter()
        .enumerate()
        .zip(means.iter().zip(&cis))
        .map(|((i, s), (mean, ci))| {
            let bot = if s.builtin {
                format!("{} ({builtin})", untrusted::terminal(&s.bot))
            } else {
                untrusted::terminal(&s.bot)
            };
            let mean = match ci {
                Some(ci) => format!("{mean:>mean_w$} ± {ci:>ci_w$}"),
                None => format!("{mean:>mean_w$}"),
            };
            let mut faults = if s.fault_kinds.is_empty() {
                s.faults.to_string()
            } else {
                format!("{} ({})", s.faults, s.fault_kinds_text(untrusted::terminal))
            };
            faults.push_str(&s.void_text());
            let mark = match s.separated_from_above {
                Some(false) => NOT_SEPARATED,
                _ => "",
            };
            [
                format!("{}{mark}", s.rank),
                bot,
                s.games.to_string(),
                mean,
                format_wins(s.wins),
                match (s.rating, s.rating_ci95) {
                    (Some(r), Some(c)) => format!("{r:.2} ± {c:.2}"),
                    (Some(r), None) => format!("{r:.2}"),
                    _ => String::new(),
                },
                vs_above(i.checked_sub(1).map(|a| &standings[a]), s),
                faults,
            ]
        })
        .collect()
}

/// The header and rows as aligned lines: text columns (bot, mean score, faults) left-aligned,
/// counts right-aligned, two spaces between columns, no trailing blanks.
fn aligned(header: &[String; 8], rows: &[[String; 8]]) -> String {
    let mut widths = header.clone().map(|h| h.chars().count());
    for row in rows {
        for (w, cell) in widths.iter_mut().zip(row) {
            *w = (*w).max(cell.chars().count());
        }
    }
    let left = [false, true, false, true, false, true, true, true];
    let line = |cells: &[String]| {
        let parts: Vec<String> = cells
            .iter()
            .enumerate()
            .map(|(i, c)| {
                if left[i] {
                    format!("{c:<w$}", w = widths[i])
                } else {
                    format!("{c:>w$}", w = widths[i])
                }
            })
            .collect();
        let mut l = parts.join("  ");
        l.truncate(l.trim_end().len());
        l
    };
    let mut out = String::new();
    out.push_str(&line(header));
    out.push('\n');
    for row in rows {
        out.push_str(&line(row));
        out.push('\n');
    }
    out
}

/// When the wins or the mean score put another player first than the fitted rating does
/// (which decides the rank), a line that says so; `None` when they agree.
pub fn top_disagreement(standings: &[Standing]) -> Option<String> {
    let first: Vec<&Standing> = standings.iter().filter(|s| s.rank == 1).collect();
    if first.is_empty() {
        return None;
    }
    let mut others = Vec::new();
    let most_wins = standings
        .iter()
        .map(|s| s.wins)
        .fold(f64::NEG_INFINITY, f64::max);
    if let Some(w) = standings
        .iter()
        .find(|s| s.wins == most_wins && first.iter().all(|f| f.wins < s.wins))
    {
        others.push(format!(
            "by wins {} leads ({})",
            untrusted::terminal(&w.bot),
            format_wins(w.wins)
        ));
    }
    // The mean's direction is the rating's for points; which way is better is told by the
    // order of the first two ranks' ratings, or taken as lower (Take 6) by default.
    let lower = is_lower(standings);
    let better = |a: f64, b: f64| if lower { a < b } else { a > b };
    let best_mean = standings
        .iter()
        .map(|s| s.mean_score)
        .reduce(|a, b| if better(b, a) { b } else { a });
    if let Some(best) = best_mean
        && let Some(m) = standings
            .iter()
            .find(|s| s.mean_score == best && first.iter().all(|f| better(best, f.mean_score)))
    {
        others.push(format!(
            "by mean score {} leads ({best:.2})",
            untrusted::terminal(&m.bot)
        ));
    }
    if others.is_empty() {
        return None;
    }
    // Names through the terminal's door: the report escapes this line again for HTML.
    Some(format!(
        "The rank is by the rating fitted to all games, which puts {} first; {}.\n",
        first
            .iter()
            .map(|s| untrusted::terminal(&s.bot))
            .collect::<Vec<_>>()
            .join(" and "),
        others.join("; ")
    ))
}

/// Whether the standings' ratings go lower-is-better: the first rated rank's rating below the
/// last's (Take 6), true when they cannot tell.
fn is_lower(standings: &[Standing]) -> bool {
    let rated: Vec<f64> = standings.iter().filter_map(|s| s.rating).collect();
    match (rated.first(), rated.last()) {
        (Some(a), Some(b)) if a != b => a < b,
        _ => true,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::record::fixtures::{series, tally};

    /// The standings of the fixture series, rated by the fit.
    fn rated() -> Vec<Standing> {
        tally(&series()).standings()
    }

    #[test]
    fn leaderboard_csv_snapshot() {
        let csv = leaderboard_csv(&rated());
        insta::assert_snapshot!("leaderboard_csv", String::from_utf8(csv).unwrap());
    }

    #[test]
    fn summary_table_snapshot() {
        let skipped = vec![
            (
                "broken".to_string(),
                "exited during start-up: status 1".to_string(),
            ),
            (
                "slowpoke".to_string(),
                "no answer to start within 5s".to_string(),
            ),
        ];
        let table = summary_table(&rated(), &skipped, "built-in");
        insta::assert_snapshot!("summary_table", table);
    }

    #[test]
    fn summary_table_without_skipped_has_no_skipped_section() {
        let table = summary_table(&tally(&series()).standings(), &[], "built-in");
        assert!(!table.contains("Skipped"));
        assert_eq!(
            table.lines().count(),
            1 + 5 + 1 + 1 + 1,
            "header, rows, the ~ legend, the vs-above legend, the note that the mean puts alice \
             first"
        );
    }

    /// The summary says when the wins or the rating put another player first.
    #[test]
    fn the_summary_says_when_wins_or_the_mean_disagree_about_the_top() {
        let games: Vec<crate::record::GameRecord> = (0..12u32)
            .map(|i| {
                crate::record::fixtures::result(
                    &["best", "x", "y"],
                    &[2 + i % 3, 8 + i % 2, 9 - i % 2],
                    &[],
                )
            })
            .collect();
        let mut standings = tally(&games).standings();
        assert_eq!(top_disagreement(&standings), None, "they agree here");
        let last = standings.len() - 1;
        standings[last].wins = 99.0;
        standings[last].mean_score = 1.0;
        let name = standings[last].bot.clone();
        let first: Vec<&str> = standings
            .iter()
            .filter(|s| s.rank == 1)
            .map(|s| s.bot.as_str())
            .collect();
        let first = first.join(" and ");
        let note = top_disagreement(&standings).unwrap();
        assert_eq!(
            note,
            format!(
                "The rank is by the rating fitted to all games, which puts {first} first; by \
                 wins {name} leads (99); by mean score {name} leads (1.00).\n"
            )
        );
        assert!(summary_table(&standings, &[], "built-in").ends_with(&note));
    }

    #[test]
    fn headtohead_csv_snapshot() {
        let csv = headtohead_csv(&tally(&series()).head_to_head());
        insta::assert_snapshot!("headtohead_csv", String::from_utf8(csv).unwrap());
    }

    #[test]
    fn wins_format_with_at_most_two_decimals() {
        assert_eq!(format_wins(3.0), "3");
        assert_eq!(format_wins(2.5), "2.5");
        assert_eq!(format_wins(1.0 / 3.0), "0.33");
        assert_eq!(format_wins(0.0), "0");
        assert_eq!(format_wins(10.0), "10");
        assert_eq!(format_wins(1.1), "1.1");
    }
}
