//! How long a league takes to choose a batch (issue 38: "a few milliseconds at 30+ bots"):
//! `take6::league::plan::batch_from`, the function `take6 league` and `take6 verify` call at
//! every batch (the fit from the kept tally, the standings, who is benched, the needs, the
//! pinned pairs and the tables), for 32 bots at tables of 10 after 1,000, 10,000 and 100,000
//! games, and the cost of adding a batch's records to the tally. The records are real Take 6
//! games of built-ins (the game's fast path) seated under the bots' names.
//!
//! Run with `cargo bench --bench league`. A plain `Instant` loop, no harness.

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
    let game = take6::games::default_game();
    let kinds = game.builtins().to_vec();
    let mut table = game.0.fast_builtins().expect("a fast path").table();
    let mut rng = ChaCha8Rng::seed_from_u64(38);
    let names: Vec<String> = (0..BOTS).map(|i| format!("b{i:02}")).collect();
    let mut order: Vec<usize> = (0..BOTS).collect();
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

fn main() {
    let game = take6::games::default_game();
    let rules = Rules {
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
    };
    let versions: Vec<Version> = (0..BOTS)
        .map(|i| Version {
            name: format!("b{i:02}"),
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
