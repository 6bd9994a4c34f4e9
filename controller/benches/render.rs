//! How fast template sets render: messages per second for the built-in `default` and
//! `codingame` sets over the views of real games (every message a table sends, in order).
//!
//! Run with `cargo bench --bench render`. A plain `Instant` loop, no harness: the figure only
//! has to show that rendering is far from being what limits a series.

use std::hint::black_box;
use std::time::{Duration, Instant};

use take6::games::take6::game::View;
use take6::games::take6::protocol::{TemplateLibrary, random_game_views};

fn main() {
    let views: Vec<View> = (0..20)
        .flat_map(|g| random_game_views(g, 2 + (g as usize % 9)))
        .collect();
    let library = TemplateLibrary::load(None).expect("built-in sets load");
    println!("{} views from 20 games of 2 to 10 players", views.len());
    for name in ["default", "codingame"] {
        let set = library.get(name).expect("built-in set");
        // Warm up, then run for about two seconds.
        for view in &views {
            black_box(set.render(view).unwrap());
        }
        let (mut rendered, mut sent, mut bytes) = (0u64, 0u64, 0u64);
        let start = Instant::now();
        while start.elapsed() < Duration::from_secs(2) {
            for view in &views {
                if let Some(text) = black_box(set.render(black_box(view)).unwrap()) {
                    sent += 1;
                    bytes += text.len() as u64;
                }
                rendered += 1;
            }
        }
        let secs = start.elapsed().as_secs_f64();
        println!(
            "{name:>10}: {:>9.0} messages/s rendered ({:.0} sent/s, {:.1} MB/s, {:.2} µs per message)",
            rendered as f64 / secs,
            sent as f64 / secs,
            bytes as f64 / secs / 1e6,
            secs * 1e6 / rendered as f64,
        );
    }
}
