//! The figures of docs/tournament.md's "Is my change better?" section (issue 49): the error
//! rates and games of `take6 compare`'s sequential test (`take6::compare::sprt`, the code the
//! command runs) on models of paired results with known truth, against a fixed-size test of
//! the same α and power; and what pairing removes in real Take 6 (the game's built-ins played
//! through its fast path, seated by the real pairing, `take6::schedule::paired`).
//!
//! Run: `cargo run --release --example compare_sim -- [TESTS] [models]` (default 1000;
//! `models`: the models only, not real Take 6), or
//! `scripts/compare-figures`.

use rand::rngs::ChaCha8Rng;
use rand::{RngExt, SeedableRng};

use take6::compare::sprt::{self, Bounds, Hypotheses, Verdict};
use take6::schedule::paired::{self, Role};
use take6::seed::Seed;

const ALPHA: f64 = 0.05;
const BETA: f64 = 0.05;
/// The one-sided normal quantile of 0.95.
const Z95: f64 = 1.644_853_627;
const CAP: u64 = 1_000_000;

fn normal(rng: &mut ChaCha8Rng) -> f64 {
    let (u, v): (f64, f64) = (rng.random::<f64>().max(1e-300), rng.random());
    (-2.0 * u.ln()).sqrt() * (std::f64::consts::TAU * v).cos()
}

/// Games (two per pair) of a fixed-size one-sided z-test of the same α and power 1 − β
/// against a difference `delta`, for pairs of standard deviation `sd`.
fn fixed_games(sd: f64, delta: f64) -> f64 {
    2.0 * ((2.0 * Z95 * sd / delta).powi(2)).ceil()
}

/// `tests` sequential tests on pairs drawn by `draw`: the share of each verdict and the
/// games' mean, median and 90th percentile.
fn simulate(
    tests: usize,
    h: Hypotheses,
    seed: u64,
    mut draw: impl FnMut(&mut ChaCha8Rng) -> f64,
) -> ([f64; 3], f64, u64, u64) {
    let bounds = Bounds::new(ALPHA, BETA);
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut counts = [0usize; 3];
    let mut games = Vec::with_capacity(tests);
    for _ in 0..tests {
        let stream = std::iter::repeat_with(|| draw(&mut rng));
        let (v, n) = sprt::run(stream, h, bounds, CAP);
        counts[match v {
            Verdict::Better => 0,
            Verdict::NotBetter => 1,
            Verdict::Undecided => 2,
        }] += 1;
        games.push(2 * n);
    }
    games.sort_unstable();
    let share = counts.map(|c| c as f64 / tests as f64);
    let mean = games.iter().sum::<u64>() as f64 / tests as f64;
    (share, mean, games[tests / 2], games[tests * 9 / 10])
}

fn header(what: &str) {
    println!("\n{what}");
    println!(
        "| truth | better | not better | undecided | mean games | median | p90 | fixed test | mean / fixed |"
    );
    println!("|---|---|---|---|---|---|---|---|---|");
}

fn line(truth: &str, r: ([f64; 3], f64, u64, u64), fixed: f64) {
    let ([b, nb, u], mean, median, p90) = r;
    println!(
        "| {truth} | {:.1} % | {:.1} % | {:.1} % | {mean:.0} | {median} | {p90} | {fixed:.0} | {:.2} |",
        b * 100.0,
        nb * 100.0,
        u * 100.0,
        mean / fixed
    );
}

/// Games with scores: each pair's difference normal, sd `sd` margins.
fn points(tests: usize, sd: f64) {
    header(&format!(
        "Scores: pairs N(truth, ({sd} M)²), margin M = 1, alpha = beta = 5 %, {tests} tests per line"
    ));
    let h = Hypotheses::points(1.0);
    let fixed = fixed_games(sd, 1.0);
    for (name, truth) in [("0", 0.0), ("M/2", 0.5), ("M", 1.0)] {
        let r = simulate(tests, h, 1, |rng| truth + sd * normal(rng));
        line(name, r, fixed);
    }
}

/// Games that only rank, two players: each game NEW wins with the logistic score of the
/// truth's Elo (draws with probability `draw`), the pair's score its two games' mean.
fn elo(tests: usize, margin: f64, draw: f64) {
    header(&format!(
        "Ranks: two-player games, draws {:.0} %, margin {margin} Elo, alpha = beta = 5 %, {tests} tests per line",
        draw * 100.0
    ));
    let h = Hypotheses::elo(margin);
    let s1 = sprt::score_of_elo(margin);
    // A pair's sd at a score of ½: two independent games.
    let game_var = (1.0 - draw) * 0.25;
    let fixed = fixed_games((game_var / 2.0).sqrt(), s1 - 0.5);
    for (name, truth) in [("0", 0.0), ("M/2", margin / 2.0), ("M", margin)] {
        let s = sprt::score_of_elo(truth);
        let win = s - draw / 2.0;
        let game = move |rng: &mut ChaCha8Rng| {
            let u: f64 = rng.random();
            if u < win {
                1.0
            } else if u < win + draw {
                0.5
            } else {
                0.0
            }
        };
        let r = simulate(tests, h, 2, |rng| (game(rng) + game(rng)) / 2.0);
        line(name, r, fixed);
    }
}

/// Real Take 6: NEW `gap` and OLD `lowest` (the game's built-ins) at tables of `players`,
/// the other seats its built-ins, seated by the real pairing. The variance of a pair's mean
/// difference against the same two bots in two unpaired games (the first game of pair k and
/// the second of pair k + 1: two deals, two seatings).
fn pairing_worth(pairs: u64, players: usize) {
    let game = take6::games::default_game();
    let kinds = game.builtins().to_vec();
    let kind = |name: &str| *kinds.iter().find(|k| k.name == name).unwrap();
    let (new, old) = (kind("gap"), kind("lowest"));
    let mut table = game
        .0
        .fast_builtins()
        .expect("Take 6 has a fast path")
        .table();
    let mut record = table.blank_record();
    let seed = Seed::from(49);
    let mut diffs = Vec::new();
    for k in 0..=pairs {
        let p = paired::pair(seed, k, players, 0, &kinds);
        for which in 0..2 {
            let (n, roles) = p.game(which);
            let seats: Vec<_> = roles
                .iter()
                .map(|r| match r {
                    Role::New => new,
                    Role::Old => old,
                    Role::Builtin(b, _) => *b,
                    Role::Field(_) => unreachable!("no field"),
                })
                .collect();
            let fast = take6::game::FastGame {
                game: n,
                seed: p.seed,
                subset: 0,
                rotation: 0,
                rounds: 1,
                seats: &seats,
            };
            table.play_into(&fast, false, &mut record);
            let cows = record.total_scores();
            let at = |r: Role| roles.iter().position(|x| *x == r).unwrap();
            diffs.push(f64::from(cows[at(Role::Old)]) - f64::from(cows[at(Role::New)]));
        }
    }
    let var = |xs: &[f64]| {
        let m = xs.iter().sum::<f64>() / xs.len() as f64;
        xs.iter().map(|x| (x - m).powi(2)).sum::<f64>() / (xs.len() - 1) as f64
    };
    let k = pairs as usize;
    let paired: Vec<f64> = (0..k)
        .map(|i| (diffs[2 * i] + diffs[2 * i + 1]) / 2.0)
        .collect();
    let unpaired: Vec<f64> = (0..k)
        .map(|i| (diffs[2 * i] + diffs[2 * i + 3]) / 2.0)
        .collect();
    let (vp, vu) = (var(&paired), var(&unpaired));
    let mean = paired.iter().sum::<f64>() / k as f64;
    println!(
        "| {players} | {pairs} | {mean:+.2} | {vp:.2} | {vu:.2} | {:.2} |",
        vp / vu
    );
}

fn main() {
    let tests: usize = std::env::args()
        .nth(1)
        .map(|a| a.parse().expect("TESTS is a number"))
        .unwrap_or(1000);
    let started = std::time::Instant::now();
    let models_only = std::env::args().nth(2).as_deref() == Some("models");
    points(tests, 5.0);
    points(tests, 2.0);
    elo(tests, 20.0, 0.0);
    elo(tests, 20.0, 0.5);
    if models_only {
        return;
    }
    println!(
        "\nReal Take 6, NEW gap against OLD lowest (built-ins), the rest built-ins: variance of \
         a pair's mean difference (cows per game, OLD's less NEW's), paired against unpaired"
    );
    println!("| players | pairs | mean | paired | unpaired | paired / unpaired |");
    println!("|---|---|---|---|---|---|");
    pairing_worth(20_000, 4);
    pairing_worth(20_000, 10);
    eprintln!("({:.1} s)", started.elapsed().as_secs_f64());
}
