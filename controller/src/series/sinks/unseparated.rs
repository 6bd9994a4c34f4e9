//! `--until-separated` that ran out of its budget: which of the top ranks stayed
//! unseparated from the rank below, and an estimate of how many more games would separate
//! them. A pair's 95 % interval narrows as one over the square root of its games, so a
//! difference `d` with half-width `w` over `n` games needs about `n · (w / d)²` of them.

use crate::record::{HeadToHead, Standing, Tally};

/// The note for the summary, or `None` when the top `top` ranks are separated.
pub fn note(tally: &Tally, standings: &[Standing], top: usize, played: u64) -> Option<String> {
    let pairs = tally.head_to_head();
    let upto = top.min(standings.len().saturating_sub(1));
    let mut lines = Vec::new();
    let mut more: Option<u64> = Some(0);
    for i in 1..=upto {
        let (upper, lower) = (&standings[i - 1], &standings[i]);
        if lower.separated_from_above != Some(false) {
            continue;
        }
        let pair = pairs.iter().find(|p| {
            (p.bot_a == upper.bot && p.bot_b == lower.bot)
                || (p.bot_a == lower.bot && p.bot_b == upper.bot)
        });
        let (text, need) = describe(upper, lower, pair, played);
        lines.push(text);
        more = more.zip(need).map(|(a, b)| a.max(b));
    }
    if lines.is_empty() {
        return None;
    }
    let estimate = match more {
        Some(n) => format!(
            "By the spread so far, about {n} more game{} would separate them (--games {}).",
            if n == 1 { "" } else { "s" },
            played + n
        ),
        None => "A pair tied so far gives no estimate of the games that would separate it.".into(),
    };
    Some(format!(
        "The budget ran out before the top {top} were separated at 95 %:\n  {}\n{estimate}\n",
        lines.join("\n  ")
    ))
}

/// `rank 2 (a) and rank 3 (b): 0.40 ± 1.20 apart over 50 games together`, and the games the
/// whole series would need more for that pair (`None` when the difference is 0).
fn describe(
    upper: &Standing,
    lower: &Standing,
    pair: Option<&HeadToHead>,
    played: u64,
) -> (String, Option<u64>) {
    let names = format!(
        "rank {} ({}) and rank {} ({})",
        upper.rank,
        crate::untrusted::terminal(&upper.bot),
        lower.rank,
        crate::untrusted::terminal(&lower.bot)
    );
    // The fitted ratings' difference and its interval (the test behind the `~`), over the
    // games the two played together.
    let games = pair.map_or(0, |p| p.games);
    let diff = upper
        .rating
        .zip(lower.rating)
        .map_or(0.0, |(a, b)| (a - b).abs());
    let ci = lower.gap_ci95;
    let Some(ci) = ci else {
        return (format!("{names}: too few games to compare"), None);
    };
    let text = format!("{names}: {diff:.2} ± {ci:.2} apart over {games} games together");
    if diff <= 0.0 {
        return (text, None);
    }
    let factor = (ci / diff).powi(2);
    let need = (played as f64 * factor).ceil() as u64;
    (text, Some(need.saturating_sub(played).max(1)))
}
