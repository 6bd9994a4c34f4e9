//! Small-sample statistics for the leaderboard: Student's t quantile behind the 95 %
//! confidence intervals, so that a handful of games does not claim more certainty than it has.

/// `t` such that 95 % of Student's t distribution with `df` degrees of freedom lies within
/// ±t (the 0.975 quantile). Exact to four decimals from a table up to 30 degrees of freedom,
/// then the Cornish–Fisher expansion around the normal quantile (error below 1e-4), which
/// tends to 1.96 as `df` grows.
pub fn t975(df: u64) -> f64 {
    const TABLE: [f64; 30] = [
        12.7062, 4.3027, 3.1824, 2.7764, 2.5706, 2.4469, 2.3646, 2.3060, 2.2622, 2.2281, 2.2010,
        2.1788, 2.1604, 2.1448, 2.1314, 2.1199, 2.1098, 2.1009, 2.0930, 2.0860, 2.0796, 2.0739,
        2.0687, 2.0639, 2.0595, 2.0555, 2.0518, 2.0484, 2.0452, 2.0423,
    ];
    match df {
        0 => f64::INFINITY,
        1..=30 => TABLE[df as usize - 1],
        _ => {
            let z: f64 = 1.959_963_985;
            let n = df as f64;
            let g1 = (z.powi(3) + z) / 4.0;
            let g2 = (5.0 * z.powi(5) + 16.0 * z.powi(3) + 3.0 * z) / 96.0;
            let g3 = (3.0 * z.powi(7) + 19.0 * z.powi(5) + 17.0 * z.powi(3) - 15.0 * z) / 384.0;
            z + g1 / n + g2 / (n * n) + g3 / (n * n * n)
        }
    }
}

/// Half-width of the 95 % confidence interval of a mean from `n` samples with sample
/// variance `variance`: `t975(n − 1) · s / √n`. `None` below two samples.
pub fn ci95_half_width(n: u64, variance: f64) -> Option<f64> {
    (n >= 2).then(|| t975(n - 1) * variance.max(0.0).sqrt() / (n as f64).sqrt())
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::rngs::ChaCha8Rng;
    use rand::{RngExt, SeedableRng};

    #[test]
    fn the_quantile_matches_published_values_and_tends_to_the_normal_one() {
        assert_eq!(t975(1), 12.7062);
        assert_eq!(t975(10), 2.2281);
        // Beyond the table: 40, 60 and 120 degrees of freedom from published tables.
        for (df, t) in [(31, 2.0395), (40, 2.0211), (60, 2.0003), (120, 1.9799)] {
            assert!((t975(df) - t).abs() < 1e-4, "df {df}: {}", t975(df));
        }
        assert!((t975(1_000_000) - 1.96).abs() < 1e-3);
        assert!((1..200).all(|df| t975(df) > t975(df + 1)), "decreasing");
    }

    /// Samples of a known normal distribution (Box–Muller from a seeded stream): the interval
    /// must cover the true mean about 95 % of the time even for five samples, where 1.96
    /// would cover only about 88 %.
    #[test]
    fn intervals_of_five_samples_cover_a_known_mean_95_percent_of_the_time() {
        let mut rng = ChaCha8Rng::seed_from_u64(2024);
        let mut normal = move || {
            let (u, v): (f64, f64) = (rng.random(), rng.random());
            (-2.0 * (1.0 - u).ln()).sqrt() * (std::f64::consts::TAU * v).cos()
        };
        let (trials, n, mean, sd) = (4000, 5u64, 12.0, 4.0);
        let mut covered = 0;
        let mut covered_normal = 0;
        for _ in 0..trials {
            let xs: Vec<f64> = (0..n).map(|_| mean + sd * normal()).collect();
            let m = xs.iter().sum::<f64>() / n as f64;
            let var = xs.iter().map(|x| (x - m).powi(2)).sum::<f64>() / (n - 1) as f64;
            let h = ci95_half_width(n, var).unwrap();
            covered += usize::from((m - mean).abs() <= h);
            let h_normal = 1.96 * var.sqrt() / (n as f64).sqrt();
            covered_normal += usize::from((m - mean).abs() <= h_normal);
        }
        let rate = covered as f64 / trials as f64;
        let rate_normal = covered_normal as f64 / trials as f64;
        assert!((0.935..=0.965).contains(&rate), "coverage {rate}");
        assert!(rate_normal < 0.91, "1.96 undercovers: {rate_normal}");
        assert_eq!(ci95_half_width(1, 3.0), None);
    }
}
