//! The independent checker of a Kingdomino record, as `take6 verify` runs it: the game is
//! replayed from its seed and its moves through the rules, and every placement and every
//! kingdom's value are checked again by a second, minimal implementation written here (its
//! own grid, its own placement test, its own flood fill), so that a bug in either, or an
//! edited record, is caught: a forged score, a tile put where it cannot go, a pick of a taken
//! tile, a fault without an elimination.

use super::game::{Game, IllegalMove, MoveRecord, PutOutcome, tie_break};
use super::kingdom::Placement;
use super::record::BadRecord;
use super::tiles::{Terrain, tile};
use crate::record::{GameRecord, Score};

/// The grid side and the castle's square, restated.
const SIDE: i32 = 9;
const CASTLE: (i32, i32) = (4, 4);

/// Checks a Kingdomino record. Returns a message naming the first inconsistency found.
pub fn check_record(r: &GameRecord) -> Result<(), BadRecord> {
    let n = r.players.len();
    if !(2..=4).contains(&n) {
        return Err(BadRecord(format!(
            "{n} players; a Kingdomino table seats 2 to 4"
        )));
    }
    let [round] = r.rounds.as_slice() else {
        return Err(BadRecord(format!(
            "{} rounds; a Kingdomino game is one",
            r.rounds.len()
        )));
    };
    for (what, len) in [("builtin", r.builtin.len()), ("scores", round.scores.len())] {
        if len != n {
            return Err(BadRecord(format!(
                "{what} has {len} entries for {n} players"
            )));
        }
    }
    let log = super::GameLog::of(r)?;
    let mut game = Game::new(r.seed, n);
    let mut grids = vec![Grid::new(); n];
    for (i, m) in log.moves.iter().enumerate() {
        replay_move(&mut game, &mut grids, m)
            .map_err(|e| BadRecord(format!("move {}: {e}", i + 1)))?;
    }
    if !game.is_over() {
        return Err(BadRecord("the moves end before the game does".into()));
    }
    check_faults(r, &log.moves)?;
    let stats: Vec<(u32, u32, u32)> = grids.iter().map(Grid::stats).collect();
    let scores = tie_break(&stats);
    if !scores
        .iter()
        .copied()
        .map(Score::from)
        .eq(round.scores.iter().copied())
    {
        return Err(BadRecord(format!(
            "scores are {:?}, but the kingdoms are worth {scores:?}",
            round.scores
        )));
    }
    if scores != game.scores() {
        return Err(BadRecord(format!(
            "the rules score the kingdoms {:?}, the checker {scores:?}",
            game.scores()
        )));
    }
    Ok(())
}

/// Applies one recorded move to the rules and to the checker's own grids, checking that it is
/// the move due, that its tile is the one the seat holds, and that what its PUT did is what
/// both implementations say it does.
fn replay_move(game: &mut Game, grids: &mut [Grid], m: &MoveRecord) -> Result<(), BadRecord> {
    if m.seat >= grids.len() {
        return Err(BadRecord(format!("seat {} does not exist", m.seat)));
    }
    if m.eliminated {
        game.eliminate(m.seat);
        return Ok(());
    }
    let due = (game.next()).ok_or_else(|| BadRecord("a move after the end of the game".into()))?;
    if due.seat != m.seat || m.tile != due.tile {
        return Err(BadRecord(format!(
            "seat {} with tile {:?} played, but seat {} with tile {:?} was due",
            m.seat, m.tile, due.seat, due.tile
        )));
    }
    let grid = &mut grids[m.seat];
    let fits = due.tile.is_some_and(|id| grid.fits_anywhere(id));
    let applied = game
        .apply_with_message(m.seat, m.put, m.pick, m.message.clone())
        .map_err(|e| {
            BadRecord(match e {
                IllegalMove::Unavailable(id) => {
                    format!("seat {} picked tile {id}, which was not free", m.seat)
                }
                e => e.to_string(),
            })
        })?;
    if Some(applied.put) != m.outcome {
        return Err(BadRecord(format!(
            "the PUT is recorded as {:?}, but the rules make it {:?}",
            m.outcome, applied.put
        )));
    }
    let mine = match (due.tile, m.put) {
        (None, _) => PutOutcome::NothingToPlace,
        (Some(_), _) if !fits => PutOutcome::Unplaceable,
        (Some(id), Some(p)) if grid.fits(id, p) => {
            grid.put(id, p);
            PutOutcome::Placed
        }
        (Some(_), _) => match applied.put {
            PutOutcome::Illegal(why) => PutOutcome::Illegal(why),
            _ => PutOutcome::Illegal(None),
        },
    };
    if mine != applied.put {
        return Err(BadRecord(format!(
            "seat {}'s PUT {:?} of tile {:?}: the rules say {:?}, the checker {:?}",
            m.seat, m.put, due.tile, applied.put, mine
        )));
    }
    Ok(())
}

/// Every fault ends its seat's game: each faulted seat is eliminated in the moves, and only
/// faulted seats are.
fn check_faults(r: &GameRecord, moves: &[MoveRecord]) -> Result<(), BadRecord> {
    for seat in 0..r.players.len() {
        let faulted = r.faults().any(|(_, f)| f.seat == seat);
        let eliminated = moves.iter().any(|m| m.eliminated && m.seat == seat);
        if faulted != eliminated {
            return Err(BadRecord(format!(
                "seat {seat} {} but {}",
                if faulted { "faulted" } else { "never faulted" },
                if eliminated {
                    "was eliminated"
                } else {
                    "was never eliminated"
                }
            )));
        }
    }
    Ok(())
}

/// The checker's own kingdom: terrain and crowns per square, the castle at the centre.
#[derive(Clone)]
struct Grid {
    squares: [[Option<(Terrain, u8)>; 9]; 9],
}

impl Grid {
    fn new() -> Grid {
        let mut squares = [[None; 9]; 9];
        squares[CASTLE.1 as usize][CASTLE.0 as usize] = Some((Terrain::Castle, 0));
        Grid { squares }
    }

    fn at(&self, x: i32, y: i32) -> Option<(Terrain, u8)> {
        if (0..SIDE).contains(&x) && (0..SIDE).contains(&y) {
            self.squares[y as usize][x as usize]
        } else {
            None
        }
    }

    /// The two squares `p` covers, if its rotation exists.
    fn cells(p: Placement) -> Option<[(i32, i32); 2]> {
        let (dx, dy) = match p.rotation {
            0 => (1, 0),
            1 => (0, 1),
            2 => (-1, 0),
            3 => (0, -1),
            _ => return None,
        };
        Some([(p.x, p.y), (p.x + dx, p.y + dy)])
    }

    /// The board game's rules: inside the grid, on empty squares, within 5 × 5 with the
    /// castle, and one square next to the castle or to its own terrain.
    fn fits(&self, id: u8, p: Placement) -> bool {
        let Some(cells) = Grid::cells(p) else {
            return false;
        };
        let inside = |(x, y): (i32, i32)| (0..SIDE).contains(&x) && (0..SIDE).contains(&y);
        if !cells
            .iter()
            .all(|&c| inside(c) && self.at(c.0, c.1).is_none())
        {
            return false;
        }
        let (mut lo_x, mut hi_x, mut lo_y, mut hi_y) =
            (cells[0].0, cells[0].0, cells[0].1, cells[0].1);
        for y in 0..SIDE {
            for x in 0..SIDE {
                if self.at(x, y).is_some() || cells.contains(&(x, y)) {
                    (lo_x, hi_x) = (lo_x.min(x), hi_x.max(x));
                    (lo_y, hi_y) = (lo_y.min(y), hi_y.max(y));
                }
            }
        }
        if hi_x - lo_x >= 5 || hi_y - lo_y >= 5 {
            return false;
        }
        let squares = tile(id).squares;
        cells.iter().zip(squares).any(|(&(x, y), square)| {
            [(1, 0), (-1, 0), (0, 1), (0, -1)].iter().any(|(dx, dy)| {
                matches!(self.at(x + dx, y + dy), Some((t, _)) if t == Terrain::Castle || t == square.terrain)
            })
        })
    }

    fn fits_anywhere(&self, id: u8) -> bool {
        (0..SIDE).any(|y| (0..SIDE).any(|x| (0..4).any(|r| self.fits(id, Placement::new(x, y, r)))))
    }

    fn put(&mut self, id: u8, p: Placement) {
        let cells = Grid::cells(p).expect("a fitting placement");
        for ((x, y), square) in cells.into_iter().zip(tile(id).squares) {
            self.squares[y as usize][x as usize] = Some((square.terrain, square.crowns));
        }
    }

    /// The kingdom's value (each zone's squares times its crowns), its squares and its crowns
    /// (castle not counted), by a recursive flood fill.
    fn stats(&self) -> (u32, u32, u32) {
        let mut seen = [[false; 9]; 9];
        let (mut value, mut size, mut crowns) = (0, 0, 0);
        for y in 0..SIDE {
            for x in 0..SIDE {
                match self.at(x, y) {
                    Some((t, c)) if t != Terrain::Castle => {
                        size += 1;
                        crowns += u32::from(c);
                        if !seen[y as usize][x as usize] {
                            let (squares, zone_crowns) = self.zone(x, y, t, &mut seen);
                            value += squares * zone_crowns;
                        }
                    }
                    _ => {}
                }
            }
        }
        (value, size, crowns)
    }

    /// Squares and crowns of the zone of terrain `t` holding (x, y), marking it seen.
    fn zone(&self, x: i32, y: i32, t: Terrain, seen: &mut [[bool; 9]; 9]) -> (u32, u32) {
        match self.at(x, y) {
            Some((here, c)) if here == t && !seen[y as usize][x as usize] => {
                seen[y as usize][x as usize] = true;
                [(1, 0), (-1, 0), (0, 1), (0, -1)]
                    .iter()
                    .map(|(dx, dy)| self.zone(x + dx, y + dy, t, seen))
                    .fold((1, u32::from(c)), |(s, k), (s2, k2)| (s + s2, k + k2))
            }
            _ => (0, 0),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::player::Limits;
    use crate::table::{Occupant, TableGame, TableSeat};

    /// A game of built-ins at a table of `n`, played by the real table.
    async fn played(seed: u64, n: usize) -> GameRecord {
        let seats = (0..n)
            .map(|i| TableSeat {
                name: format!("p{i}"),
                occupant: Occupant::Builtin(if i % 2 == 0 {
                    crate::games::kingdomino::GREEDY
                } else {
                    crate::games::kingdomino::RANDOM
                }),
            })
            .collect();
        let table = TableGame {
            game: 0,
            rules: crate::record::GameName::new("kingdomino"),
            seed,
            subset: 0,
            rotation: 0,
            rounds: 1,
            seats,
        };
        let game = crate::games::by_name("kingdomino").unwrap();
        game.play(table, Limits::default()).await.record
    }

    #[tokio::test]
    async fn played_games_check_and_forged_ones_are_caught() {
        for (seed, n) in [(1, 2), (2, 3), (3, 4), (4, 4)] {
            let r = played(seed, n).await;
            assert_eq!(check_record(&r), Ok(()), "seed {seed}");

            let mut forged = r.clone();
            forged.rounds[0].scores[0] += 1;
            let e = check_record(&forged).unwrap_err().0;
            assert!(e.contains("scores are"), "{e}");

            // A tile put where it cannot go: onto the castle.
            let mut forged = r.clone();
            let mut log = super::super::GameLog::of(&forged).unwrap();
            let m = (log.moves)
                .iter_mut()
                .find(|m| m.outcome == Some(PutOutcome::Placed))
                .unwrap();
            m.put = Some(Placement::new(4, 4, 0));
            forged.body = Some(log.into_body());
            let e = check_record(&forged).unwrap_err().0;
            assert!(e.contains("the PUT is recorded as Some(Placed)"), "{e}");

            // A pick of a tile another king took this turn.
            let mut forged = r.clone();
            let mut log = super::super::GameLog::of(&forged).unwrap();
            let moves = &mut log.moves;
            let (a, b) = (0..moves.len())
                .flat_map(|i| (i + 1..moves.len()).map(move |j| (i, j)))
                .find(|&(i, j)| {
                    moves[i].turn == moves[j].turn
                        && moves[i].pick.is_some()
                        && moves[j].pick.is_some()
                })
                .unwrap();
            moves[b].pick = moves[a].pick;
            forged.body = Some(log.into_body());
            let e = check_record(&forged).unwrap_err().0;
            assert!(e.contains("which was not free"), "{e}");

            // A fault without the elimination it means.
            let mut forged = r.clone();
            forged.rounds[0].invalid.push(crate::record::InvalidRecord {
                seat: 1,
                turn: 3,
                phase: crate::games::kingdomino::MOVE,
                kind: "timeout".into(),
                reason: "forged".into(),
            });
            let e = check_record(&forged).unwrap_err().0;
            assert!(e.contains("seat 1 faulted but was never eliminated"), "{e}");
        }
    }

    #[test]
    fn the_checkers_grid_scores_a_hand_worked_kingdom() {
        // Tile 1 is two corn squares without crowns; tile 19 is corn with a crown and forest.
        let mut g = Grid::new();
        assert!(g.fits(1, Placement::new(5, 4, 0)));
        g.put(1, Placement::new(5, 4, 0));
        assert!(!g.fits(1, Placement::new(4, 4, 1)), "onto the castle");
        assert!(!g.fits(1, Placement::new(0, 0, 0)), "touching nothing");
        let first = tile(19).squares[0];
        assert_eq!(first.terrain, Terrain::Corn, "tile 19 starts with corn");
        g.put(19, Placement::new(5, 5, 0));
        // Corn zone: (5,4) (6,4) (5,5) = 3 squares, 1 crown -> 3; forest (6,5) alone, no crown.
        assert_eq!(g.stats(), (3, 4, 1));
    }
}
