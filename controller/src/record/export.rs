//! Exporters: the leaderboard CSV and the end-of-series summary, pure functions of the
//! standings so they are snapshot-tested without running games.

use super::Standing;

/// Formats wins with at most two decimals and no trailing zeros: `3`, `2.5`, `0.33`.
fn format_wins(wins: f64) -> String {
    let s = format!("{wins:.2}");
    let s = s.trim_end_matches('0').trim_end_matches('.');
    s.to_string()
}

/// The leaderboard as CSV (`leaderboard.csv`), a pure function of the standings so it can be
/// rewritten after every game and snapshot-tested. Columns:
/// `rank,bot,builtin,games,total_score,mean_score,ci95,wins,faults`; means and CIs with three
/// decimals, `ci95` empty below two games, wins with at most two decimals.
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
    ];
    // Writing to a Vec cannot fail: the only errors csv can report here are I/O errors.
    w.write_record(header).expect("writing CSV to memory");
    for s in standings {
        w.write_record([
            s.rank.to_string(),
            s.bot.clone(),
            s.builtin.to_string(),
            s.games.to_string(),
            s.total_score.to_string(),
            format!("{:.3}", s.mean_score),
            s.ci95.map(|c| format!("{c:.3}")).unwrap_or_default(),
            format_wins(s.wins),
            s.faults.to_string(),
        ])
        .expect("writing CSV to memory");
    }
    w.into_inner().expect("flushing CSV to memory")
}

/// The end-of-series table printed to stdout: rank, bot (built-ins marked), games, mean score
/// ± ci95, wins and faults (with their kinds) in aligned columns, then a `Skipped:` section
/// listing `name: reason` for every bot that could not take part, if any.
pub fn summary_table(standings: &[Standing], skipped: &[(String, String)]) -> String {
    let header = ["rank", "bot", "games", "mean score", "wins", "faults"];
    // Means and CIs right-aligned within the mean-score column, so decimal points line up.
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
    let rows: Vec<[String; 6]> = standings
        .iter()
        .zip(means.iter().zip(&cis))
        .map(|(s, (mean, ci))| {
            let bot = if s.builtin {
                format!("{} (built-in)", s.bot)
            } else {
                s.bot.clone()
            };
            let mean = match ci {
                Some(ci) => format!("{mean:>mean_w$} ± {ci:>ci_w$}"),
                None => format!("{mean:>mean_w$}"),
            };
            let faults = if s.fault_kinds.is_empty() {
                s.faults.to_string()
            } else {
                let kinds: Vec<String> = s
                    .fault_kinds
                    .iter()
                    .map(|(kind, n)| format!("{kind} {n}"))
                    .collect();
                format!("{} ({})", s.faults, kinds.join(", "))
            };
            [
                s.rank.to_string(),
                bot,
                s.games.to_string(),
                mean,
                format_wins(s.wins),
                faults,
            ]
        })
        .collect();
    let mut widths = header.map(|h| h.chars().count());
    for row in &rows {
        for (w, cell) in widths.iter_mut().zip(row) {
            *w = (*w).max(cell.chars().count());
        }
    }
    // Text columns (bot, mean score, faults) are left-aligned, counts right-aligned.
    let left = [false, true, false, true, false, true];
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
    out.push_str(&line(&header.map(String::from)));
    out.push('\n');
    for row in &rows {
        out.push_str(&line(row));
        out.push('\n');
    }
    if !skipped.is_empty() {
        out.push_str("\nSkipped:\n");
        for (name, reason) in skipped {
            out.push_str(&format!("  {name}: {reason}\n"));
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::record::fixtures::{series, tally};

    #[test]
    fn leaderboard_csv_snapshot() {
        let csv = leaderboard_csv(&tally(&series()).standings());
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
        let table = summary_table(&tally(&series()).standings(), &skipped);
        insta::assert_snapshot!("summary_table", table);
    }

    #[test]
    fn summary_table_without_skipped_has_no_skipped_section() {
        let table = summary_table(&tally(&series()).standings(), &[]);
        assert!(!table.contains("Skipped"));
        assert_eq!(table.lines().count(), 1 + 5);
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
