//! The sequential test of `take6 compare`: a generalized sequential probability ratio test
//! (GSPRT) on the pairs' results, as fishtest and fastchess run theirs, kept apart from which
//! games are played. Pure functions of the pairs so far.
//!
//! Each pair gives one sample: for a game with scores, NEW's score less OLD's per game, averaged
//! over the pair's two games and turned so that more is better; for a game that only ranks,
//! NEW's score against OLD (1 above, ½ level, 0 below) averaged over the two games: one of five
//! values, the pentanomial of fastchess. H0: the samples' mean is `mu0` (NEW not better); H1:
//! it is `mu1` (better by the margin). With the samples' variance estimated (divided by n − 1),
//! the log-likelihood
//! ratio of the normal approximation is `n (mu1 − mu0) (2 x̄ − mu0 − mu1) / (2 σ²)`; the test
//! ends at the first pair where it leaves `(ln(β / (1 − α)), ln((1 − β) / α))`.

use serde::{Deserialize, Serialize};

/// Pairs before which no verdict is given, however far the ratio has gone: the variance of a
/// handful of pairs is no estimate to stop on.
pub const MIN_PAIRS: u64 = 20;

/// The two bounds of the log-likelihood ratio for error rates `alpha` (a "better" when NEW is
/// not better) and `beta` (a "not better" when it is better by the margin).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Bounds {
    pub lower: f64,
    pub upper: f64,
}

impl Bounds {
    pub fn new(alpha: f64, beta: f64) -> Bounds {
        Bounds {
            lower: (beta / (1.0 - alpha)).ln(),
            upper: ((1.0 - beta) / alpha).ln(),
        }
    }
}

/// What the test says.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Verdict {
    /// H1: better by at least the margin.
    Better,
    /// H0: not better.
    NotBetter,
    /// Neither bound reached.
    Undecided,
}

impl Verdict {
    pub fn word(self) -> &'static str {
        match self {
            Verdict::Better => "better",
            Verdict::NotBetter => "not better",
            Verdict::Undecided => "undecided",
        }
    }
}

/// The running sums of the pairs' samples.
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub struct Samples {
    pub n: u64,
    sum: f64,
    sum_sq: f64,
}

impl Samples {
    pub fn push(&mut self, x: f64) {
        self.n += 1;
        self.sum += x;
        self.sum_sq += x * x;
    }

    pub fn mean(&self) -> f64 {
        if self.n == 0 {
            0.0
        } else {
            self.sum / self.n as f64
        }
    }

    /// The samples' variance, divided by n.
    pub fn variance(&self) -> f64 {
        if self.n == 0 {
            return 0.0;
        }
        let m = self.mean();
        (self.sum_sq / self.n as f64 - m * m).max(0.0)
    }
}

/// The test's two hypotheses: the samples' mean under H0 and under H1 (`mu1 > mu0`).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Hypotheses {
    pub mu0: f64,
    pub mu1: f64,
}

impl Hypotheses {
    /// Games with scores: a difference of 0 against one of `margin` (per game).
    pub fn points(margin: f64) -> Hypotheses {
        Hypotheses {
            mu0: 0.0,
            mu1: margin,
        }
    }

    /// Games that only rank: a score of ½ against the score of `elo` in the logistic model.
    pub fn elo(elo: f64) -> Hypotheses {
        Hypotheses {
            mu0: 0.5,
            mu1: score_of_elo(elo),
        }
    }

    /// The least variance the ratio is computed with: `((mu1 − mu0) / 2)²`. Two bots that play
    /// alike give pairs of one value (no variance), and a ratio divided by none is no ratio; a
    /// larger variance than the true one only makes the test slower, never its errors larger.
    fn variance_floor(self) -> f64 {
        ((self.mu1 - self.mu0) / 2.0).powi(2)
    }
}

/// The log-likelihood ratio of H1 against H0 after `s`, with the variance divided by n − 1
/// (the estimate divided by n makes early stops too eager: more than α wrong "better"s).
pub fn llr(s: &Samples, h: Hypotheses) -> f64 {
    if s.n == 0 {
        return 0.0;
    }
    let unbiased = s.variance() * s.n as f64 / (s.n.max(2) - 1) as f64;
    let var = unbiased.max(h.variance_floor());
    s.n as f64 * (h.mu1 - h.mu0) * (2.0 * s.mean() - h.mu0 - h.mu1) / (2.0 * var)
}

/// The verdict at a ratio of `llr` after `pairs` pairs: a bound reached (from
/// [`MIN_PAIRS`] on) or none.
pub fn decide(llr: f64, pairs: u64, bounds: Bounds) -> Verdict {
    if pairs < MIN_PAIRS {
        Verdict::Undecided
    } else if llr >= bounds.upper {
        Verdict::Better
    } else if llr <= bounds.lower {
        Verdict::NotBetter
    } else {
        Verdict::Undecided
    }
}

/// The expected score of a side `elo` points stronger, in the logistic model.
pub fn score_of_elo(elo: f64) -> f64 {
    1.0 / (1.0 + 10f64.powf(-elo / 400.0))
}

/// The Elo difference of an expected score (±∞ at 1 and 0).
pub fn elo_of_score(score: f64) -> f64 {
    -400.0 * (1.0 / score - 1.0).log10()
}

/// The mean of the samples and its 95 % interval (Student's t).
pub fn estimate(s: &Samples) -> (f64, f64, f64) {
    let m = s.mean();
    let n = s.n;
    // The sample variance (n − 1) for the interval.
    let var = if n >= 2 {
        s.variance() * n as f64 / (n - 1) as f64
    } else {
        0.0
    };
    let half = crate::record::stats::ci95_half_width(n, var).unwrap_or(f64::INFINITY);
    (m, m - half, m + half)
}

/// The pentanomial counts of pair scores 0, ¼, ½, ¾ and 1 (for people and compare.toml).
pub fn pentanomial(scores: impl IntoIterator<Item = f64>) -> [u64; 5] {
    let mut counts = [0u64; 5];
    for s in scores {
        counts[((s * 4.0).round() as usize).min(4)] += 1;
    }
    counts
}

/// One sequential test run on a stream of samples: the verdict and the pairs it took, the
/// stream cut at `max_pairs` (then `Undecided`).
pub fn run(
    samples: impl IntoIterator<Item = f64>,
    h: Hypotheses,
    bounds: Bounds,
    max_pairs: u64,
) -> (Verdict, u64) {
    let mut s = Samples::default();
    for x in samples.into_iter().take(max_pairs as usize) {
        s.push(x);
        let v = decide(llr(&s, h), s.n, bounds);
        if v != Verdict::Undecided {
            return (v, s.n);
        }
    }
    (Verdict::Undecided, s.n)
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;
    use rand::rngs::ChaCha8Rng;
    use rand::{RngExt, SeedableRng};

    /// A normal sample by Box–Muller.
    fn normal(rng: &mut ChaCha8Rng, mean: f64, sd: f64) -> f64 {
        let (u, v): (f64, f64) = (rng.random::<f64>().max(1e-300), rng.random());
        mean + sd * (-2.0 * u.ln()).sqrt() * (std::f64::consts::TAU * v).cos()
    }

    #[test]
    fn bounds_are_walds() {
        let b = Bounds::new(0.05, 0.05);
        assert!((b.upper - 2.944_438_979).abs() < 1e-9);
        assert!((b.lower + 2.944_438_979).abs() < 1e-9);
        let b = Bounds::new(0.05, 0.1);
        assert!((b.upper - (0.9f64 / 0.05).ln()).abs() < 1e-12);
        assert!((b.lower - (0.1f64 / 0.95).ln()).abs() < 1e-12);
    }

    #[test]
    fn identical_pairs_end_not_better_and_a_gain_of_twice_the_margin_better() {
        let h = Hypotheses::points(1.0);
        let b = Bounds::new(0.05, 0.05);
        assert_eq!(
            run(std::iter::repeat(0.0), h, b, 1000),
            (Verdict::NotBetter, MIN_PAIRS)
        );
        assert_eq!(
            run(std::iter::repeat(2.0), h, b, 1000),
            (Verdict::Better, MIN_PAIRS)
        );
        // Exactly halfway the ratio stays at 0: the budget ends it.
        assert_eq!(
            run(std::iter::repeat(0.5), h, b, 50),
            (Verdict::Undecided, 50)
        );
    }

    #[test]
    fn elo_scores_round_trip_and_the_pentanomial_counts_pair_scores() {
        assert!((score_of_elo(0.0) - 0.5).abs() < 1e-12);
        assert!((elo_of_score(score_of_elo(35.0)) - 35.0).abs() < 1e-9);
        assert_eq!(
            pentanomial([0.0, 0.25, 0.5, 0.5, 1.0, 0.75]),
            [1, 1, 2, 1, 1]
        );
    }

    #[test]
    fn error_rates_hold_on_a_model_with_known_truth() {
        // 400 tests per truth, pairs normal with sd 4 margins: at 0 "better" at most α (with
        // the binomial's slack), at the margin "not better" at most β.
        let (h, b) = (Hypotheses::points(1.0), Bounds::new(0.05, 0.05));
        let mut rng = ChaCha8Rng::seed_from_u64(1);
        for (truth, wrong) in [(0.0, Verdict::Better), (1.0, Verdict::NotBetter)] {
            let mut errors = 0;
            for _ in 0..400 {
                let xs: Vec<f64> = (0..5000).map(|_| normal(&mut rng, truth, 4.0)).collect();
                if run(xs, h, b, 5000).0 == wrong {
                    errors += 1;
                }
            }
            assert!(errors <= 32, "truth {truth}: {errors} of 400 wrong");
        }
    }

    proptest! {
        /// The ratio grows with the mean (more for NEW is more evidence that it is better).
        #[test]
        fn the_ratio_grows_with_the_samples(xs in prop::collection::vec(-10.0f64..10.0, 2..60),
                                            shift in 0.01f64..5.0, margin in 0.1f64..5.0) {
            let h = Hypotheses::points(margin);
            let mut a = Samples::default();
            let mut b = Samples::default();
            for x in &xs {
                a.push(*x);
                b.push(*x + shift);
            }
            prop_assert!(llr(&b, h) > llr(&a, h));
        }

        /// A verdict only past the bounds, never before the minimum of pairs, and the
        /// estimate's interval holds the mean.
        #[test]
        fn verdicts_follow_the_bounds(xs in prop::collection::vec(-3.0f64..3.0, 1..80),
                                      alpha in 0.01f64..0.2, beta in 0.01f64..0.2) {
            let (h, bounds) = (Hypotheses::points(1.0), Bounds::new(alpha, beta));
            let mut s = Samples::default();
            for x in &xs {
                s.push(*x);
                let r = llr(&s, h);
                match decide(r, s.n, bounds) {
                    Verdict::Better => prop_assert!(s.n >= MIN_PAIRS && r >= bounds.upper),
                    Verdict::NotBetter => prop_assert!(s.n >= MIN_PAIRS && r <= bounds.lower),
                    Verdict::Undecided => prop_assert!(
                        s.n < MIN_PAIRS || (r > bounds.lower && r < bounds.upper)
                    ),
                }
            }
            let (m, lo, hi) = estimate(&s);
            prop_assert!(lo <= m && m <= hi);
        }

        /// The ratio is the same whatever the order of the pairs.
        #[test]
        fn the_ratio_does_not_depend_on_order(mut xs in prop::collection::vec(0.0f64..1.0, 2..40)) {
            let h = Hypotheses::elo(20.0);
            let mut a = Samples::default();
            xs.iter().for_each(|x| a.push(*x));
            xs.reverse();
            let mut b = Samples::default();
            xs.iter().for_each(|x| b.push(*x));
            prop_assert!((llr(&a, h) - llr(&b, h)).abs() < 1e-9 * (1.0 + llr(&a, h).abs()));
        }
    }
}
