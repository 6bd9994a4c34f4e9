//! How long a league takes to choose a batch (issue 38: "a few milliseconds at 30+ bots"):
//! `take6::league::plan::batch_from`, the function `take6 league` and `take6 verify` call at
//! every batch (the fit from the kept tally, the standings, who is benched, the needs, the
//! pinned pairs and the tables), for 32 bots at tables of 10 after 1,000, 10,000 and 100,000
//! games, and the cost of adding a batch's records to the tally. The records are real Take 6
//! games of built-ins (the game's fast path) seated under the bots' names.
//!
//! Then a course's league (`course`): 300 entrants at tables of 10, with 300 versions (none
//! resubmitted) or 1,000 (a third of them resubmitted seven times, spread over the games),
//! after 10,000 and 100,000 games: the batch chosen at the end (the fit with the retired versions
//! frozen and the tables), the first time after the last resubmission (what the frozen set fixes
//! made) and then as every further batch is, and the dense fit of every version for comparison.
//!
//! Run with `cargo bench --bench league` (`-- course` for the course only). A plain `Instant`
//! loop, no harness.

use std::time::Instant;

use rand::SeedableRng;
use rand::rngs::ChaCha8Rng;
use rand::seq::SliceRandom;

use take6::game::FastGame;
use take6::league::plan::{self, Rules, Version};
use take6::record::{GameRecord, Tally};
use take6::seed::Seed;

const BOTS: usize = 32;
const PLAYERS: usize = 10;

fn records(n: u64) -> Vec<GameRecord> {
    records_of(n, BOTS)
}

/// `n` games of `bots` bots named `b000`..., ten at a table.
fn records_of(n: u64, bots: usize) -> Vec<GameRecord> {
    let game = take6::games::default_game();
    let kinds = game.builtins().to_vec();
    let mut table = game.0.fast_builtins().expect("a fast path").table();
    let mut rng = ChaCha8Rng::seed_from_u64(38);
    let names: Vec<String> = (0..bots).map(|i| format!("b{i:03}")).collect();
    let mut order: Vec<usize> = (0..bots).collect();
    (0..n)
        .map(|g| {
            order.shuffle(&mut rng);
            let seats: Vec<_> = (0..PLAYERS)
                .map(|s| kinds[order[s] % kinds.len()])
                .collect();
            let mut record = table.blank_record();
            record.players = order[..PLAYERS].iter().map(|&i| names[i].clone()).collect();
            table.play_into(
                &FastGame {
                    game: g,
                    seed: g.wrapping_mul(0x9e37_79b9_7f4a_7c15),
                    subset: 0,
                    rotation: 0,
                    rounds: 1,
                    seats: &seats,
                },
                false,
                &mut record,
            );
            record.game = g;
            record
        })
        .collect()
}

fn rules() -> Rules {
    let game = take6::games::default_game();
    Rules {
        chooser: take6::league::manifest::CHOOSER,
        seed: Seed(38),
        players: PLAYERS,
        batch: 8,
        top: 3,
        min_games: 10,
        alpha: 0.05,
        direction: game.direction(),
        model: game.model(),
        builtins: game.builtins().to_vec(),
    }
}

fn main() {
    if std::env::args().any(|a| a == "course") {
        return course();
    }
    let rules = rules();
    let versions: Vec<Version> = (0..BOTS)
        .map(|i| Version {
            name: format!("b{i:03}"),
            version: 1,
            hash: String::new(),
            from_game: 0,
            until_game: None,
        })
        .collect();
    let field: Vec<(String, String)> = versions.iter().map(|v| (v.key(), v.name.clone())).collect();
    for n in [1_000u64, 10_000, 100_000] {
        let all = records(n);
        let mut tally = Tally::with_model(rules.direction, rules.model);
        let started = Instant::now();
        for r in &all {
            plan::add_keyed(&mut tally, &versions, r);
        }
        let per_record = started.elapsed().as_secs_f64() / n as f64;
        let b = n / rules.batch as u64;
        let rounds = 20;
        let started = Instant::now();
        for _ in 0..rounds {
            std::hint::black_box(plan::batch_from(&rules, &versions, &field, &tally, &all, b));
        }
        let ms = started.elapsed().as_secs_f64() * 1000.0 / f64::from(rounds);
        println!(
            "league, {BOTS} bots at tables of {PLAYERS} after {n} games: a batch chosen in \
             {ms:.2} ms; a record added to the tally in {:.1} µs",
            per_record * 1e6
        );
    }
}

/// The versions of `bots` entrants over `n` games, every third resubmitted `resubmitted` times
/// at even steps of the games.
fn course_versions(bots: usize, resubmitted: u32, n: u64) -> Vec<Version> {
    let step = n / (u64::from(resubmitted) + 1);
    let mut out = Vec::new();
    for i in 0..bots {
        let times = if i % 3 == 0 { resubmitted } else { 0 };
        for v in 0..=times {
            out.push(Version {
                name: format!("b{i:03}"),
                version: v + 1,
                hash: String::new(),
                from_game: u64::from(v) * step,
                until_game: (v < times).then(|| u64::from(v + 1) * step),
            });
        }
    }
    out
}

fn course() {
    const ENTRANTS: usize = 300;
    let rules = rules();
    for n in [10_000u64, 100_000] {
        let all = records_of(n, ENTRANTS);
        for resubmitted in [0u32, 7] {
            let versions = course_versions(ENTRANTS, resubmitted, n);
            let b = n / rules.batch as u64;
            let field: Vec<(String, String)> = versions
                .iter()
                .filter(|v| v.until_game.is_none())
                .map(|v| (v.key(), v.name.clone()))
                .collect();
            let mut tally = Tally::with_model(rules.direction, rules.model);
            for r in &all {
                plan::add_keyed(&mut tally, &versions, r);
            }
            let started = Instant::now();
            std::hint::black_box(plan::batch_from(&rules, &versions, &field, &tally, &all, b));
            let first = started.elapsed().as_secs_f64() * 1000.0;
            let rounds = 10;
            let started = Instant::now();
            for _ in 0..rounds {
                std::hint::black_box(plan::batch_from(&rules, &versions, &field, &tally, &all, b));
            }
            let ms = started.elapsed().as_secs_f64() * 1000.0 / f64::from(rounds);
            let started = Instant::now();
            std::hint::black_box(tally.fitted());
            let dense = started.elapsed().as_secs_f64() * 1000.0;
            println!(
                "course, {ENTRANTS} entrants, {} versions, after {n} games: a batch chosen in \
                 {ms:.1} ms ({first:.1} ms the first time after a resubmission); the dense fit \
                 of every version {dense:.1} ms",
                versions.len()
            );
        }
    }
}
