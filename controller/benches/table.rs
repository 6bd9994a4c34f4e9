//! How fast the controller plays games when players cost nothing: ten built-ins per table, so
//! the figure is the rules, the table logic and the views alone (no processes, no rendering).
//!
//! Run with `cargo bench --bench table`. A plain `Instant` loop, no harness.

use std::time::Instant;

use take6::games::take6::builtin::BUILTINS;
use take6::games::take6::table::builtins;
use take6::player::Limits;
use take6::table::{Occupant, TableGame, TableSeat};

fn table_of_builtins(game: u64) -> TableGame {
    TableGame {
        rules: take6::record::GameName::default(),
        game,
        seed: game,
        subset: 0,
        rotation: 0,
        rounds: 1,
        seats: (0..10)
            .map(|i| {
                let kind = BUILTINS[i % BUILTINS.len()];
                TableSeat {
                    name: format!("{}#{i}", kind.name),
                    occupant: Occupant::Builtin(kind),
                }
            })
            .collect(),
    }
}

fn main() {
    let runtime = tokio::runtime::Builder::new_current_thread()
        .build()
        .expect("a runtime");
    let games = 20_000u64;
    let started = Instant::now();
    let cows: u64 = runtime.block_on(async {
        let mut cows = 0u64;
        for game in 0..games {
            let table = table_of_builtins(game);
            let outcome = take6::game::GameRef::default_game()
                .play(table, Limits::default())
                .await;
            if game < 100 {
                outcome.record.check().expect("valid record");
            }
            cows += outcome.record.rounds[0]
                .cows
                .iter()
                .map(|&c| u64::from(c))
                .sum::<u64>();
        }
        cows
    });
    let secs = started.elapsed().as_secs_f64();
    println!(
        "table (10 built-ins, one thread): {games} games in {secs:.2} s = {:.0} games/s ({cows} cows taken)",
        games as f64 / secs
    );

    // The synchronous table of built-ins (`take6 run --builtins-only`), same games.
    for (label, turns) in [("full record", true), ("summary", false)] {
        let games = 100_000u64;
        let started = Instant::now();
        let mut sync_cows = 0u64;
        let mut scratch = builtins::Scratch::default();
        for game in 0..games {
            let mut t = table_of_builtins(game);
            let names = t.seats.iter_mut().map(|s| std::mem::take(&mut s.name));
            let names = names.collect();
            let record = builtins::play_with(&t, names, turns, &mut scratch);
            sync_cows += record.rounds[0]
                .cows
                .iter()
                .map(|&c| u64::from(c))
                .sum::<u64>();
        }
        let secs = started.elapsed().as_secs_f64();
        println!(
            "synchronous table, {label} (10 built-ins, one thread): {games} games in {secs:.2} s = {:.0} games/s ({sync_cows} cows taken)",
            games as f64 / secs
        );
    }
}
