//! Sample views: every message a table could send in seeded random games, for the trial
//! renders at load and the rendering benchmark.

use std::collections::BTreeSet;
use std::sync::OnceLock;

use rand::seq::IndexedRandom;
use rand::{RngExt, SeedableRng};

use crate::games::take6::game::{Deal, Game, Phase, View};

/// Views a table could send for each phase ([`Phase::ALL`] order), each with a short label,
/// from seeded games of 2, 3 and 10 players: the trial renders that catch runtime template
/// errors at load. Built once per process.
pub(super) fn sample_views() -> &'static [Vec<(String, View)>; 8] {
    static SAMPLES: OnceLock<[Vec<(String, View)>; 8]> = OnceLock::new();
    SAMPLES.get_or_init(|| {
        let mut out: [Vec<(String, View)>; 8] = Default::default();
        for (seed, players) in [(1u64, 2usize), (2, 3), (3, 10)] {
            let mut all: [Vec<View>; 8] = Default::default();
            for view in random_game_views(seed, players) {
                all[phase_index(view.phase)].push(view);
            }
            for (i, views) in all.into_iter().enumerate() {
                // Keep at most 6 per phase and game, always the first and the last.
                let n = views.len();
                let keep: BTreeSet<usize> = (0..6.min(n))
                    .map(|k| if n <= 6 { k } else { k * (n - 1) / 5 })
                    .collect();
                for k in keep {
                    let v = &views[k];
                    let label = format!(
                        "{players} players, seat {}, turn {}, {} cards in hand",
                        v.seat,
                        v.turn,
                        v.hand.len()
                    );
                    out[i].push((label, v.clone()));
                }
            }
        }
        out
    })
}

/// Every view a table would send in one game of `players` with random choices, in order (plus
/// an `invalid` view each turn): the sample views checked at load, and the workload of the
/// rendering benchmark.
pub fn random_game_views(seed: u64, players: usize) -> Vec<View> {
    let mut rng = rand::rngs::ChaCha8Rng::seed_from_u64(seed);
    let deal = Deal::shuffled(players, &mut rng);
    let names: std::sync::Arc<[String]> = (0..players).map(|s| format!("bot{s}")).collect();
    let mut game = Game::new(&deal);
    let mut out = Vec::new();
    let all = |game: &Game, phase, out: &mut Vec<View>| {
        out.extend((0..players).map(|s| game.view(s, phase, &names)));
    };
    all(&game, Phase::Start, &mut out);
    all(&game, Phase::Cards, &mut out);
    while !game.is_over() {
        game.begin_turn();
        all(&game, Phase::Turn, &mut out);
        let cards: Vec<_> = (0..players)
            .map(|s| *game.hand(s).choose(&mut rng).expect("cards left"))
            .collect();
        out.push(game.view(0, Phase::Invalid, &names));
        let order = game.reveal(&cards);
        all(&game, Phase::Used, &mut out);
        for seat in order {
            let placement = match game.place(seat) {
                Some(p) => p,
                None => {
                    out.push(game.view(seat, Phase::Pickrow, &names));
                    out.push(game.view(seat, Phase::Invalid, &names));
                    game.take_row(seat, rng.random_range(0..4))
                }
            };
            if !placement.took.is_empty() {
                let mut view = game.view(seat, Phase::Cardgain, &names);
                view.gained = placement.took;
                view.gained_cows = placement.cows;
                out.push(view);
            }
        }
    }
    all(&game, Phase::Score, &mut out);
    out
}

/// A phase's place in [`Phase::ALL`]: the index of its template in a set. Here, beside the
/// sample views it sorts, so that the set imports the samples and not the other way round.
pub(super) fn phase_index(phase: Phase) -> usize {
    Phase::ALL
        .iter()
        .position(|&p| p == phase)
        .expect("every phase is in ALL")
}
