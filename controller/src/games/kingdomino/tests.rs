//! Tests of the Kingdomino rules: tile data, hand-worked kingdoms, placement rules, the game
//! state machine, the wire format, and properties of whole random games.

use super::builtins::{Builtin, Greedy, Random, Reply};
use super::game::{
    Game, IllegalMove, MoveRecord, PutOutcome, View, ranks_of, tie_break, tiles_in_game, turns,
};
use super::kingdom::{Illegal, Kingdom, Placement, SIZE};
use super::tiles::{Square, TILE_COUNT, Terrain, all_tiles, tile};
use super::wire::{BadReply, init_lines, parse_pick, parse_put, turn_block};
use proptest::prelude::*;
use rand::rngs::ChaCha8Rng;
use rand::seq::IndexedRandom;
use rand::{RngExt, SeedableRng};
use std::collections::{BTreeMap, BTreeSet};

/// A kingdom from (x, y, "t<crowns>") squares around the castle.
fn kingdom(squares: &[(usize, usize, &str)]) -> Kingdom {
    let mut rows = vec![vec!["_0"; SIZE]; SIZE];
    rows[4][4] = "*0";
    for &(x, y, s) in squares {
        rows[y][x] = s;
    }
    let rows: Vec<String> = rows.iter().map(|r| r.concat()).collect();
    Kingdom::from_rows(&rows).expect("a valid grid")
}

mod tiles {
    use super::*;

    #[test]
    fn there_are_48_tiles_with_ids_1_to_48() {
        assert_eq!(all_tiles().len(), TILE_COUNT);
        for (i, t) in all_tiles().iter().enumerate() {
            assert_eq!(usize::from(t.id), i + 1);
            assert_eq!(tile(t.id), t);
        }
    }

    #[test]
    fn squares_and_crowns_per_terrain_match_the_published_set() {
        let mut squares = BTreeMap::new();
        let mut crowns = BTreeMap::new();
        for s in all_tiles().iter().flat_map(|t| t.squares) {
            *squares.entry(s.terrain.wire()).or_insert(0) += 1;
            *crowns.entry(s.terrain.wire()).or_insert(0) += u32::from(s.crowns);
        }
        let expected = |v: [(char, u32); 6]| v.into_iter().collect::<BTreeMap<_, _>>();
        assert_eq!(
            squares,
            expected([
                ('c', 26),
                ('f', 22),
                ('g', 14),
                ('l', 18),
                ('w', 10),
                ('m', 6)
            ])
        );
        assert_eq!(
            crowns,
            expected([('c', 5), ('f', 6), ('g', 6), ('l', 6), ('w', 6), ('m', 10)])
        );
        assert_eq!(squares.values().sum::<u32>(), 96);
    }

    #[test]
    fn a_few_tiles_are_as_printed() {
        assert_eq!(tile(1).squares, [Square::new(Terrain::Corn, 0); 2]);
        assert_eq!(
            tile(13).squares,
            [
                Square::new(Terrain::Corn, 0),
                Square::new(Terrain::Forest, 0)
            ]
        );
        assert_eq!(
            tile(48).squares,
            [Square::new(Terrain::Corn, 0), Square::new(Terrain::Mine, 3)]
        );
    }

    #[test]
    fn wire_chars_round_trip() {
        for t in Terrain::LAND
            .into_iter()
            .chain([Terrain::Castle, Terrain::Empty])
        {
            assert_eq!(Terrain::from_wire(t.wire()), Some(t));
        }
        assert_eq!(Square::from_wire("m3"), Some(Square::new(Terrain::Mine, 3)));
        assert_eq!(Square::new(Terrain::Lake, 2).to_string(), "l2");
        for bad in ["m4", "x1", "m", "m11", ""] {
            assert_eq!(Square::from_wire(bad), None, "{bad}");
        }
    }
}

mod scoring {
    use super::*;

    /// corn 3 squares 1 crown (3), mine 1x2 (2), forest 2 no crown (0), lake 3x3 (9), two
    /// separate 1-crown grass squares (1 + 1): 16.
    fn worked() -> Kingdom {
        kingdom(&[
            (2, 4, "c1"),
            (3, 4, "c0"),
            (3, 3, "c0"),
            (2, 2, "m2"),
            (5, 4, "f0"),
            (6, 4, "f0"),
            (4, 5, "l2"),
            (4, 6, "l1"),
            (5, 5, "l0"),
            (6, 2, "g1"),
            (6, 6, "g1"),
        ])
    }

    #[test]
    fn zones_of_a_hand_worked_kingdom() {
        let zones = worked().zones();
        let summary: Vec<(char, u32, u32)> = zones
            .iter()
            .map(|z| (z.terrain.wire(), z.size, z.crowns))
            .collect();
        let expected = [
            ('m', 1, 2),
            ('g', 1, 1),
            ('c', 3, 1),
            ('f', 2, 0),
            ('l', 3, 3),
            ('g', 1, 1),
        ];
        assert_eq!(summary, expected);
        assert_eq!(worked().score(), 16); // 3 + 2 + 0 + 9 + 1 + 1
        assert_eq!(worked().territory_size(), 11);
        assert_eq!(worked().crowns(), 8);
    }

    #[test]
    fn a_zone_without_crowns_is_worth_nothing() {
        let k = kingdom(&[(2, 4, "f0"), (3, 4, "f0"), (3, 3, "f0"), (5, 4, "l0")]);
        assert_eq!(k.zones().len(), 2);
        assert_eq!(k.score(), 0);
    }

    #[test]
    fn the_castle_is_not_a_zone_and_does_not_join_zones() {
        assert!(Kingdom::new().zones().is_empty());
        assert_eq!(Kingdom::new().score(), 0);
        let k = kingdom(&[(3, 4, "c1"), (5, 4, "c1")]);
        assert_eq!(k.zones().len(), 2);
        assert_eq!(k.score(), 2);
    }

    #[test]
    fn rows_round_trip_and_are_18_chars() {
        let rows = worked().render_rows();
        assert_eq!(rows.len(), 9);
        assert!(rows.iter().all(|r| r.len() == 18));
        assert_eq!(rows[4], "_0_0c1c0*0f0f0_0_0");
        assert_eq!(Kingdom::from_rows(&rows), Ok(worked()));
    }

    #[test]
    fn ties_go_to_the_largest_territory_then_the_most_crowns() {
        // (score, territory, crowns)
        assert_eq!(tie_break(&[(10, 5, 3), (10, 6, 2)]), [10, 11]);
        assert_eq!(tie_break(&[(10, 5, 3), (10, 5, 4)]), [10, 11]);
        assert_eq!(tie_break(&[(10, 5, 3), (10, 5, 3)]), [10, 10]);
        assert_eq!(tie_break(&[(12, 1, 1), (10, 5, 3)]), [12, 10]);
        // Territory ties between the best two, crowns decide; the third is not involved.
        assert_eq!(tie_break(&[(10, 6, 1), (10, 6, 9), (9, 9, 9)]), [10, 11, 9]);
        // Three tied, two share the largest territory, crowns split them.
        assert_eq!(tie_break(&[(7, 6, 1), (7, 6, 2), (7, 5, 9)]), [8, 9, 7]);
        // Only the tie at the top is broken.
        assert_eq!(
            tie_break(&[(8, 3, 0), (8, 4, 0), (5, 2, 2), (5, 2, 1)]),
            [8, 9, 5, 5]
        );
    }

    #[test]
    fn ranks_share_places_on_ties() {
        assert_eq!(ranks_of(&[11, 10, 11]), [1, 3, 1]);
        assert_eq!(ranks_of(&[3, 9, 5, 5]), [4, 1, 2, 2]);
    }

    #[test]
    fn game_scores_apply_tie_breaks() {
        let mut game = Game::new(1, 3);
        *game.kingdom_mut(0) = kingdom(&[(3, 4, "c1"), (2, 4, "c0"), (5, 4, "f0"), (6, 4, "f0")]); // 2, 4 sq
        *game.kingdom_mut(1) = kingdom(&[(3, 4, "l1"), (2, 4, "l0")]); // 2, 2 sq
        *game.kingdom_mut(2) = kingdom(&[(3, 4, "w2"), (5, 4, "c0"), (6, 4, "f0")]); // 2, 3 sq
        assert_eq!(game.base_scores(), [2, 2, 2]);
        // seat 0 has the largest territory; seats 1 and 2 stay tied below it.
        assert_eq!(game.scores(), [3, 2, 2]);
        assert_eq!(game.ranks(), [1, 2, 2]);
    }
}

mod placement {
    use super::*;

    #[test]
    fn rotations_put_the_second_square_right_below_left_above() {
        let expected = [(5, 3), (4, 4), (3, 3), (4, 2)];
        for (r, second) in expected.into_iter().enumerate() {
            assert_eq!(
                Placement::new(4, 3, r as u8).cells(),
                Some([(4, 3), second])
            );
        }
        assert_eq!(Placement::new(4, 3, 4).cells(), None);
    }

    #[test]
    fn each_rotation_places_the_second_square_where_it_says() {
        // tile 13: corn then forest; first square above the castle.
        for (r, (fx, fy)) in [(0u8, (5, 3)), (2, (3, 3)), (3, (4, 2))] {
            let mut k = Kingdom::new();
            k.place(tile(13), Placement::new(4, 3, r)).unwrap();
            assert_eq!(k.get(4, 3).unwrap().terrain, Terrain::Corn);
            assert_eq!(
                k.get(fx, fy).unwrap().terrain,
                Terrain::Forest,
                "rotation {r}"
            );
        }
        let mut k = Kingdom::new();
        k.place(tile(13), Placement::new(3, 4, 1)).unwrap();
        assert_eq!(k.get(3, 5).unwrap().terrain, Terrain::Forest);
    }

    #[test]
    fn a_tile_may_not_overlap_the_castle() {
        let k = Kingdom::new();
        assert_eq!(
            k.can_place(tile(1), Placement::new(4, 4, 0)),
            Err(Illegal::OverlapsCastle(4, 4))
        );
        assert_eq!(
            k.can_place(tile(1), Placement::new(4, 3, 1)),
            Err(Illegal::OverlapsCastle(4, 4))
        );
    }

    #[test]
    fn a_tile_may_not_overlap_a_tile() {
        let mut k = Kingdom::new();
        k.place(tile(1), Placement::new(5, 4, 0)).unwrap();
        assert_eq!(
            k.can_place(tile(2), Placement::new(6, 3, 1)),
            Err(Illegal::OverlapsTile(6, 4))
        );
        assert_eq!(
            k.can_place(tile(2), Placement::new(5, 4, 3)),
            Err(Illegal::OverlapsTile(5, 4))
        );
    }

    #[test]
    fn a_tile_must_stay_in_the_grid_and_use_a_real_rotation() {
        let k = Kingdom::new();
        assert_eq!(
            k.can_place(tile(1), Placement::new(8, 0, 0)),
            Err(Illegal::OutOfGrid(9, 0))
        );
        assert_eq!(
            k.can_place(tile(1), Placement::new(-1, 4, 0)),
            Err(Illegal::OutOfGrid(-1, 4))
        );
        assert_eq!(
            k.can_place(tile(1), Placement::new(3, 4, 4)),
            Err(Illegal::Rotation(4))
        );
    }

    #[test]
    fn the_territory_may_not_exceed_5_by_5() {
        let mut k = Kingdom::new();
        k.place(tile(1), Placement::new(5, 4, 0)).unwrap();
        k.place(tile(2), Placement::new(7, 4, 0)).unwrap(); // columns 4..=8: 5 wide
        assert_eq!(
            k.can_place(tile(14), Placement::new(3, 4, 2)),
            Err(Illegal::TooLarge(7, 1))
        );
        assert_eq!(
            k.can_place(tile(14), Placement::new(3, 4, 1)),
            Err(Illegal::TooLarge(6, 2))
        );
        k.place(tile(19), Placement::new(8, 3, 3)).unwrap(); // rows 2..=4
        assert_eq!(k.can_place(tile(20), Placement::new(4, 5, 1)), Ok(())); // rows 2..=6: 5 tall
        assert_eq!(
            k.can_place(tile(20), Placement::new(4, 6, 1)),
            Err(Illegal::TooLarge(5, 6))
        );
    }

    #[test]
    fn a_tile_must_touch_the_castle_or_its_own_terrain() {
        let mut k = Kingdom::new();
        assert_eq!(
            k.can_place(tile(1), Placement::new(1, 4, 0)),
            Err(Illegal::NotConnected)
        );
        k.place(tile(1), Placement::new(2, 4, 0)).unwrap(); // corn at (2,4), (3,4)
        // forest next to corn: no
        assert_eq!(
            k.can_place(tile(3), Placement::new(1, 4, 1)),
            Err(Illegal::NotConnected)
        );
        // corn+forest, the corn square next to corn: yes
        assert_eq!(k.can_place(tile(13), Placement::new(1, 4, 1)), Ok(()));
        // corn+forest with only the forest square next to corn: no
        assert_eq!(
            k.can_place(tile(13), Placement::new(0, 4, 0)),
            Err(Illegal::NotConnected)
        );
        // diagonal contact does not count
        assert_eq!(
            k.can_place(tile(1), Placement::new(1, 3, 3)),
            Err(Illegal::NotConnected)
        );
        // any terrain next to the castle
        assert_eq!(k.can_place(tile(48), Placement::new(4, 3, 3)), Ok(()));
    }

    #[test]
    fn an_empty_kingdom_has_24_placements_in_row_column_rotation_order() {
        let all = Kingdom::new().legal_placements(tile(1));
        assert_eq!(all.len(), 24);
        let mut sorted = all.clone();
        sorted.sort_by_key(|p| (p.y, p.x, p.rotation));
        assert_eq!(all, sorted);
    }

    #[test]
    fn an_illegal_place_leaves_the_kingdom_unchanged() {
        let mut k = Kingdom::new();
        assert!(k.place(tile(1), Placement::new(0, 0, 0)).is_err());
        assert_eq!(k, Kingdom::new());
    }
}

mod game {
    use super::*;

    /// The offer's ids, ascending.
    fn offer(game: &Game) -> Vec<u8> {
        game.view(0).to_pick.iter().map(|l| l.tile.id).collect()
    }

    fn seq(game: &Game) -> (usize, u8) {
        let t = game.next().unwrap();
        (t.seat, t.king)
    }

    #[test]
    fn sizes_per_player_count() {
        for (players, nb, turns_, tiles) in [(2, 4, 7, 24), (3, 3, 13, 36), (4, 4, 13, 48)] {
            let game = Game::new(5, players);
            assert_eq!(game.view(0).nb_tiles, nb);
            assert_eq!(turns(players), turns_);
            assert_eq!(tiles_in_game(players), tiles);
            assert_eq!(offer(&game).len(), nb);
            assert!(offer(&game).is_sorted());
        }
    }

    #[test]
    fn two_players_alternate_on_turn_1_then_follow_the_picked_ids() {
        let mut game = Game::new(9, 2);
        let o = offer(&game);
        assert_eq!(game.next().unwrap().timeout_ms(), 1000);
        assert_eq!(seq(&game), (0, 0));
        game.apply(0, None, Some(o[3])).unwrap();
        assert_eq!(seq(&game), (1, 0));
        assert_eq!(game.next().unwrap().timeout_ms(), 1000);
        game.apply(1, None, Some(o[0])).unwrap();
        assert_eq!(seq(&game), (0, 1));
        assert_eq!(game.next().unwrap().timeout_ms(), 50);
        game.apply(0, None, Some(o[2])).unwrap();
        assert_eq!(seq(&game), (1, 1));
        game.apply(1, None, Some(o[1])).unwrap();
        let turn = game.next().unwrap();
        assert_eq!(
            (turn.turn, turn.seat, turn.king, turn.tile),
            (2, 1, 0, Some(o[0]))
        );
        let order: Vec<_> = std::iter::from_fn(|| {
            let t = game.next().filter(|t| t.turn == 2)?;
            let pick = game.view(t.seat).free_picks()[0];
            game.apply(t.seat, None, Some(pick)).unwrap();
            Some((t.seat, t.king, t.tile.unwrap()))
        })
        .collect();
        assert_eq!(
            order,
            [(1, 0, o[0]), (1, 1, o[1]), (0, 1, o[2]), (0, 0, o[3])]
        );
    }

    #[test]
    fn the_view_marks_the_current_tile_and_relative_players() {
        let mut game = Game::new(3, 3);
        let o = offer(&game);
        for (seat, pick) in [(0, o[2]), (1, o[0]), (2, o[1])] {
            game.apply(seat, None, Some(pick)).unwrap();
        }
        let view = game.view(1);
        assert_eq!(view.to_place, Some(o[0]));
        let lines: Vec<_> = view
            .in_play
            .iter()
            .map(|l| (l.tile.id, l.player, l.current))
            .collect();
        assert_eq!(
            lines,
            [
                (o[0], Some(0), true),
                (o[1], Some(1), false),
                (o[2], Some(2), false)
            ]
        );
        let other = game.view(2);
        assert_eq!(other.to_place, None);
        assert!(other.in_play.iter().all(|l| !l.current));
        assert_eq!(other.in_play[2].player, Some(1));
        assert_eq!(other.kingdoms.len(), 3);
    }

    #[test]
    fn an_illegal_put_of_a_placeable_tile_discards_it() {
        let mut game = Game::new(4, 4);
        let o = offer(&game);
        for (seat, &id) in o.iter().enumerate() {
            game.apply(seat, None, Some(id)).unwrap();
        }
        let turn = game.next().unwrap();
        let free = game.view(turn.seat).free_picks()[0];
        let applied = game
            .apply(turn.seat, Some(Placement::new(0, 0, 0)), Some(free))
            .unwrap();
        assert_eq!(
            applied.put,
            PutOutcome::Illegal(Some(Illegal::NotConnected))
        );
        assert_eq!(game.kingdom(turn.seat), &Kingdom::new());
        assert_eq!(game.discarded(), [turn.tile.unwrap()]);
        assert!(!game.is_eliminated(turn.seat));
    }

    #[test]
    fn an_unplaceable_tile_is_discarded_whatever_the_put() {
        let mut game = Game::new(4, 4);
        let o = offer(&game);
        for (seat, &id) in o.iter().enumerate() {
            game.apply(seat, None, Some(id)).unwrap();
        }
        let turn = game.next().unwrap();
        // A full 5x5 territory: nothing fits.
        let full: Vec<(usize, usize, &str)> = (2..7)
            .flat_map(|y| (2..7).map(move |x| (x, y, "w0")))
            .filter(|&(x, y, _)| (x, y) != (4, 4))
            .collect();
        *game.kingdom_mut(turn.seat) = kingdom(&full);
        let free = game.view(turn.seat).free_picks()[0];
        let applied = game
            .apply(turn.seat, Some(Placement::new(0, 0, 0)), Some(free))
            .unwrap();
        assert_eq!(applied.put, PutOutcome::Unplaceable);
    }

    #[test]
    fn a_bad_pick_is_refused_without_effect_and_elimination_skips_the_seat() {
        let mut game = Game::new(11, 2);
        let o = offer(&game);
        game.apply(0, None, Some(o[1])).unwrap();
        let before = game.view(1);
        assert_eq!(
            game.apply(1, None, Some(o[1])),
            Err(IllegalMove::Unavailable(o[1]))
        );
        assert_eq!(game.apply(1, None, None), Err(IllegalMove::NoPick));
        assert_eq!(
            game.apply(0, None, Some(o[0])),
            Err(IllegalMove::NotYourTurn {
                expected: 1,
                got: 0
            })
        );
        assert_eq!(game.view(1), before);
        game.eliminate(1);
        assert!(game.is_eliminated(1));
        assert_eq!(seq(&game), (0, 1));
        game.apply(0, None, Some(o[3])).unwrap();
        // Turn 2: only seat 0 plays; the tiles nobody picked show -1 and are discarded.
        let view = game.view(0);
        let lines: Vec<_> = view.in_play.iter().map(|l| (l.tile.id, l.player)).collect();
        assert_eq!(
            lines,
            [(o[0], None), (o[1], Some(0)), (o[2], None), (o[3], Some(0))]
        );
        let order: Vec<_> = std::iter::from_fn(|| {
            let t = game.next().filter(|t| t.turn == 2)?;
            let pick = game.view(t.seat).free_picks()[0];
            game.apply(t.seat, None, Some(pick)).unwrap();
            Some(t.seat)
        })
        .collect();
        assert_eq!(order, [0, 0]);
        assert!(game.discarded().contains(&o[0]) && game.discarded().contains(&o[2]));
        assert!(game.log().iter().any(|r| r.eliminated && r.seat == 1));
    }

    #[test]
    fn an_eliminated_seat_holding_picks_never_places_them() {
        let mut game = Game::new(12, 3);
        let o = offer(&game);
        for (seat, pick) in [(0, o[0]), (1, o[1]), (2, o[2])] {
            game.apply(seat, None, Some(pick)).unwrap();
        }
        game.eliminate(2);
        let view = game.view(0);
        assert_eq!(view.in_play[2].player, Some(2));
        game.apply(0, None, Some(view.to_pick[0].tile.id)).unwrap();
        let t = game.next().unwrap();
        game.apply(t.seat, None, Some(game.view(t.seat).free_picks()[0]))
            .unwrap();
        assert_eq!(game.next().unwrap().turn, 3);
        assert!(game.discarded().contains(&o[2]));
    }

    #[test]
    fn the_last_turn_ignores_the_pick_and_ends_the_game() {
        let mut game = Game::new(2, 2);
        let mut rng = ChaCha8Rng::seed_from_u64(2);
        while game.next().is_some_and(|t| t.expects_pick) {
            let t = game.next().unwrap();
            let reply = Greedy.reply(&game.view(t.seat), &mut rng);
            game.apply(t.seat, Some(reply.put), Some(reply.pick))
                .unwrap();
        }
        assert_eq!(game.turn(), 7);
        assert!(game.view(game.next().unwrap().seat).to_pick.is_empty());
        while let Some(t) = game.next() {
            let reply = Greedy.reply(&game.view(t.seat), &mut rng);
            let applied = game.apply(t.seat, Some(reply.put), Some(200)).unwrap();
            assert_eq!(applied.pick, None);
        }
        assert!(game.is_over());
        assert_eq!(game.apply(0, None, None), Err(IllegalMove::GameOver));
    }

    #[test]
    fn seeds_change_the_draw_and_the_same_seed_repeats_it() {
        assert_eq!(offer(&Game::new(1, 4)), offer(&Game::new(1, 4)));
        let draws: BTreeSet<Vec<u8>> = (0..10).map(|s| offer(&Game::new(s, 4))).collect();
        assert!(draws.len() > 5);
    }

    #[test]
    fn greedy_beats_random_more_often_than_not() {
        let mut rng = ChaCha8Rng::seed_from_u64(99);
        let wins = (0..20)
            .filter(|&seed| {
                let mut game = Game::new(seed, 2);
                while let Some(t) = game.next() {
                    let view = game.view(t.seat);
                    let reply = if t.seat == 0 {
                        Greedy.reply(&view, &mut rng)
                    } else {
                        Random.reply(&view, &mut rng)
                    };
                    game.apply(t.seat, Some(reply.put), Some(reply.pick))
                        .unwrap();
                }
                game.ranks()[0] == 1
            })
            .count();
        assert!(wins >= 14, "greedy won {wins} of 20");
    }

    #[test]
    fn everyone_eliminated_ends_the_game() {
        let mut game = Game::new(1, 2);
        game.eliminate(0);
        assert_eq!(seq(&game), (1, 0));
        game.eliminate(1);
        assert!(game.is_over());
        assert_eq!(game.next(), None);
        assert_eq!(game.scores(), [0, 0]);
    }
}

mod wire {
    use super::*;

    /// A fixed 2-player game after the first turn and one sequence of turn 2.
    fn fixed_view() -> View {
        let mut game = Game::new(2024, 2);
        let mut rng = ChaCha8Rng::seed_from_u64(1);
        for _ in 0..5 {
            let t = game.next().unwrap();
            let reply = Greedy.reply(&game.view(t.seat), &mut rng);
            game.apply(t.seat, Some(reply.put), Some(reply.pick))
                .unwrap();
        }
        game.view(game.next().unwrap().seat)
    }

    #[test]
    fn init_lines_are_players_then_tiles() {
        assert_eq!(init_lines(3, 3), "3\n3\n");
    }

    #[test]
    fn a_block_has_9_lines_per_player_and_2_per_tile() {
        for players in 2..=4 {
            let game = Game::new(8, players);
            let view = game.view(0);
            let block = turn_block(&view);
            let lines: Vec<&str> = block.lines().collect();
            assert_eq!(lines.len(), 9 * players + 2 * view.nb_tiles);
            assert!(lines[..9 * players].iter().all(|l| l.len() == 18));
            let (in_play, to_pick) = lines[9 * players..].split_at(view.nb_tiles);
            assert!(
                in_play.iter().all(|l| *l == "0 _0 _0 -1 0"),
                "turn 1 fillers"
            );
            assert!(
                to_pick
                    .iter()
                    .all(|l| l.split(' ').count() == 4 && l.ends_with(" -1"))
            );
        }
    }

    #[test]
    fn the_last_turn_sends_filler_offer_lines() {
        let mut game = Game::new(8, 2);
        let mut rng = ChaCha8Rng::seed_from_u64(8);
        while game.next().is_some_and(|t| t.expects_pick) {
            let t = game.next().unwrap();
            let reply = Random.reply(&game.view(t.seat), &mut rng);
            game.apply(t.seat, Some(reply.put), Some(reply.pick))
                .unwrap();
        }
        let block = turn_block(&game.view(game.next().unwrap().seat));
        let lines: Vec<&str> = block.lines().collect();
        assert_eq!(lines.len(), 18 + 8);
        assert!(
            lines[18..22]
                .iter()
                .all(|l| l.split(' ').count() == 5 && !l.starts_with("0 "))
        );
        assert!(lines[22..].iter().all(|l| *l == "0 _0 _0 -1"));
    }

    #[test]
    fn snapshot_of_a_block() {
        insta::assert_snapshot!(turn_block(&fixed_view()));
    }

    #[test]
    fn put_lines() {
        assert_eq!(parse_put("PUT 1 2 3"), Ok(Placement::new(1, 2, 3)));
        assert_eq!(
            parse_put("  PUT\t-1 10  0 \r"),
            Ok(Placement::new(-1, 10, 0))
        );
        assert_eq!(parse_put("PUT 1 2 9").map(|p| p.rotation), Ok(9));
        assert!(matches!(
            parse_put("put 1 2 3"),
            Err(BadReply::Command { .. })
        ));
        assert!(matches!(
            parse_put("PUTS 1 2 3"),
            Err(BadReply::Command { .. })
        ));
        assert!(matches!(parse_put("PICK 1"), Err(BadReply::Command { .. })));
        assert!(matches!(parse_put("PUT 1 2"), Err(BadReply::Arity(..))));
        assert!(matches!(parse_put("PUT 1 2 3 4"), Err(BadReply::Arity(..))));
        assert!(matches!(parse_put("PUT"), Err(BadReply::Arity(..))));
        assert!(matches!(parse_put("PUT a 2 3"), Err(BadReply::Number(..))));
        assert!(matches!(parse_put("PUT +1 2 3"), Err(BadReply::Number(..))));
        assert!(matches!(
            parse_put("PUT 99999999999 2 3"),
            Err(BadReply::Number(..))
        ));
    }

    #[test]
    fn pick_lines() {
        assert_eq!(parse_pick("PICK 12"), Ok((12, None)));
        assert_eq!(
            parse_pick("PICK 12 hello  world \r\n"),
            Ok((12, Some("hello  world".into())))
        );
        assert_eq!(parse_pick("PICK\t5\tmsg"), Ok((5, Some("msg".into()))));
        assert!(matches!(parse_pick("PICK"), Err(BadReply::Arity(..))));
        assert!(matches!(parse_pick("PICK x"), Err(BadReply::Number(..))));
        assert!(matches!(parse_pick("PICK 256"), Err(BadReply::Number(..))));
        assert!(matches!(parse_pick("PICK -1"), Err(BadReply::Number(..))));
        assert!(matches!(parse_pick("PICK +1"), Err(BadReply::Number(..))));
        assert!(matches!(
            parse_pick("pick 1"),
            Err(BadReply::Command { .. })
        ));
        assert!(matches!(parse_pick("PICK1"), Err(BadReply::Command { .. })));
    }

    #[test]
    fn builtin_replies_parse_back() {
        let reply = Reply {
            put: Placement::new(3, 4, 2),
            pick: 17,
        };
        let text = reply.lines();
        let mut lines = text.lines();
        assert_eq!(parse_put(lines.next().unwrap()), Ok(reply.put));
        assert_eq!(parse_pick(lines.next().unwrap()), Ok((17, None)));
    }
}

/// A deliberately plain second scorer over the wire rows: recursive DFS on chars.
fn simple_score(rows: &[String]) -> u32 {
    let grid: Vec<Vec<char>> = rows.iter().map(|r| r.chars().collect()).collect();
    let mut seen = vec![vec![false; 9]; 9];
    fn dfs(grid: &[Vec<char>], seen: &mut [Vec<bool>], x: usize, y: usize, t: char) -> (u32, u32) {
        if seen[y][x] || grid[y][2 * x] != t {
            return (0, 0);
        }
        seen[y][x] = true;
        let mut acc = (1, grid[y][2 * x + 1].to_digit(10).unwrap());
        let mut visit = |nx: usize, ny: usize| {
            let (s, c) = dfs(grid, seen, nx, ny, t);
            acc = (acc.0 + s, acc.1 + c);
        };
        if x > 0 {
            visit(x - 1, y)
        }
        if x < 8 {
            visit(x + 1, y)
        }
        if y > 0 {
            visit(x, y - 1)
        }
        if y < 8 {
            visit(x, y + 1)
        }
        acc
    }
    let mut total = 0;
    for y in 0..9 {
        for x in 0..9 {
            let t = grid[y][2 * x];
            if t != '_' && t != '*' {
                let (size, crowns) = dfs(&grid, &mut seen, x, y, t);
                total += size * crowns;
            }
        }
    }
    total
}

/// A kingdom grown by up to `n` random legal placements of random tiles.
fn random_kingdom(seed: u64, n: usize) -> Kingdom {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut k = Kingdom::new();
    for _ in 0..n {
        let t = tile(rng.random_range(1..=48));
        if let Some(&p) = k.legal_placements(t).choose(&mut rng) {
            k.place(t, p).unwrap();
        }
    }
    k
}

/// Plays a whole game, checking invariants sequence by sequence; returns its log and scores.
fn checked_game(seed: u64, players: usize, greedy: &[bool]) -> (String, Vec<u32>) {
    let mut game = Game::new(seed, players);
    let mut rng = ChaCha8Rng::seed_from_u64(seed ^ 0x5eed);
    let nb = game.view(0).nb_tiles;
    let mut sequences_per_turn = BTreeMap::<u8, usize>::new();
    while let Some(t) = game.next() {
        let view = game.view(t.seat);
        assert_eq!(turn_block(&view).lines().count(), 9 * players + 2 * nb);
        if t.turn > 1 {
            assert_eq!(view.in_play.len(), nb);
        }
        let reply = if greedy[t.seat] {
            Greedy.reply(&view, &mut rng)
        } else {
            Random.reply(&view, &mut rng)
        };
        game.apply(t.seat, Some(reply.put), Some(reply.pick))
            .unwrap();
        *sequences_per_turn.entry(t.turn).or_default() += 1;
    }
    assert_eq!(sequences_per_turn.len(), usize::from(turns(players)));
    assert!(sequences_per_turn.values().all(|&n| n == nb));
    let picks: Vec<u8> = game.log().iter().filter_map(|r| r.pick).collect();
    let unique: BTreeSet<u8> = picks.iter().copied().collect();
    assert_eq!(
        (picks.len(), unique.len()),
        (tiles_in_game(players), tiles_in_game(players))
    );
    let placed: Vec<(usize, u8)> = game
        .log()
        .iter()
        .filter(|r| r.outcome == Some(PutOutcome::Placed))
        .map(|r| (r.seat, r.tile.unwrap()))
        .collect();
    let mut seen: BTreeSet<u8> = game.discarded().iter().copied().collect();
    assert_eq!(seen.len(), game.discarded().len());
    for &(_, id) in &placed {
        assert!(
            seen.insert(id),
            "tile {id} placed twice or placed and discarded"
        );
    }
    assert_eq!(
        seen, unique,
        "every tile in play is placed once or discarded"
    );
    for seat in 0..players {
        let n = placed.iter().filter(|(s, _)| *s == seat).count() as u32;
        assert_eq!(game.kingdom(seat).territory_size(), 2 * n);
    }
    (serde_json::to_string(game.log()).unwrap(), game.scores())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    #[test]
    fn score_matches_a_second_implementation(seed: u64, n in 0usize..30) {
        let k = random_kingdom(seed, n);
        let rows = k.render_rows();
        prop_assert_eq!(k.score(), simple_score(&rows));
        let land = rows.concat().as_bytes().chunks(2).filter(|c| c[0] != b'_' && c[0] != b'*').count();
        prop_assert_eq!(k.territory_size() as usize, land);
        prop_assert_eq!(Kingdom::from_rows(&rows), Ok(k));
    }
}

/// Plays a game where each sequence has a 1 in `fault_odds` chance of a bad pick (then the
/// seat is eliminated); checks eliminated seats never play again and the log replays.
fn faulty_game(seed: u64, players: usize, fault_odds: u32) {
    let mut game = Game::new(seed, players);
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    while let Some(t) = game.next() {
        assert!(!game.is_eliminated(t.seat));
        let reply = Random.reply(&game.view(t.seat), &mut rng);
        if t.expects_pick && rng.random_range(0..fault_odds) == 0 {
            assert!(game.apply(t.seat, Some(reply.put), Some(49)).is_err());
            game.eliminate(t.seat);
        } else {
            game.apply(t.seat, Some(reply.put), Some(reply.pick))
                .unwrap();
        }
    }
    assert!(game.turn() <= turns(players));
    let placed: Vec<u8> = game
        .log()
        .iter()
        .filter(|r| r.outcome == Some(PutOutcome::Placed))
        .map(|r| r.tile.unwrap())
        .collect();
    let all: BTreeSet<u8> = placed.iter().chain(game.discarded()).copied().collect();
    assert_eq!(
        all.len(),
        placed.len() + game.discarded().len(),
        "no tile placed twice or placed and discarded"
    );
    let again = Game::replay(seed, players, game.log()).unwrap();
    assert_eq!((again.log(), again.scores()), (game.log(), game.scores()));
    assert!(again.is_over());
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(12))]

    #[test]
    fn faults_end_only_the_faulty_seat(seed: u64, players in 2usize..=4, odds in 2u32..20) {
        faulty_game(seed, players, odds);
    }

    #[test]
    fn whole_games_follow_the_rules(seed: u64, players in 2usize..=4, greedy in proptest::collection::vec(any::<bool>(), 4)) {
        let first = checked_game(seed, players, &greedy);
        let again = checked_game(seed, players, &greedy);
        prop_assert_eq!(&first, &again);
        let log: Vec<MoveRecord> = serde_json::from_str(&first.0).unwrap();
        let replayed = Game::replay(seed, players, &log).unwrap();
        prop_assert_eq!(replayed.scores(), first.1);
    }
}
