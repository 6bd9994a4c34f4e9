// NAME: a Kingdomino bot for take6 (CodinGame's protocol: docs/kingdomino.md), written by
// `take6 new`. It puts its tile at the first legal place it finds and picks the lowest free
// tile. Both lines are sent on every turn: `PUT 0 0 0` on turn 1 (nothing to place) and
// `PICK -1` on the last (nothing to pick). Put your strategy in choose_put and choose_pick.
use std::io::{BufRead, Write};

/// Rotation 0-3: the second square right, below, left, above the first.
const STEPS: [(i32, i32); 4] = [(1, 0), (0, 1), (-1, 0), (0, -1)];

/// Its own kingdom: each square's terrain, `_` empty, `*` castle.
type Grid = [[u8; 9]; 9];

fn at(g: &Grid, x: i32, y: i32) -> Option<u8> {
    ((0..9).contains(&x) && (0..9).contains(&y)).then(|| g[y as usize][x as usize])
}

/// Whether terrains `t` fit at x, y with rotation r: on empty squares, the kingdom within
/// 5x5 (castle included), touching the castle or its own terrain.
fn legal(g: &Grid, t: [u8; 2], x: i32, y: i32, r: usize) -> bool {
    let cells = [(x, y, t[0]), (x + STEPS[r].0, y + STEPS[r].1, t[1])];
    if !cells.iter().all(|&(cx, cy, _)| at(g, cx, cy) == Some(b'_')) {
        return false;
    }
    let mut used: Vec<(i32, i32)> = cells.iter().map(|&(cx, cy, _)| (cx, cy)).collect();
    for y in 0..9 {
        for x in 0..9 {
            if g[y as usize][x as usize] != b'_' {
                used.push((x, y));
            }
        }
    }
    let span = |f: fn(&(i32, i32)) -> i32| {
        used.iter().map(f).max().unwrap() - used.iter().map(f).min().unwrap()
    };
    if span(|c| c.0) >= 5 || span(|c| c.1) >= 5 {
        return false;
    }
    cells.iter().any(|&(cx, cy, terrain)| {
        STEPS.iter().any(|&(dx, dy)| {
            matches!(at(g, cx + dx, cy + dy), Some(s) if s == b'*' || s == terrain)
        })
    })
}

/// Where to put the tile of terrains `t`: the first legal place.
fn choose_put(g: &Grid, t: [u8; 2]) -> (i32, i32, usize) {
    for y in 0..9 {
        for x in 0..9 {
            for r in 0..4 {
                if legal(g, t, x, y, r) {
                    return (x, y, r);
                }
            }
        }
    }
    (0, 0, 0) // it fits nowhere: discarded, the values are ignored
}

/// The tile to pick among the free ids of the offer.
fn choose_pick(free: &[i32]) -> i32 {
    *free.iter().min().unwrap()
}

fn main() {
    let stdin = std::io::stdin();
    let mut lines = stdin.lock().lines().map(|l| l.unwrap().trim().to_string());
    let stdout = std::io::stdout();
    let mut out = stdout.lock();
    let players: usize = lines.next().unwrap().parse().unwrap();
    let nb: usize = lines.next().unwrap().parse().unwrap();
    while let Some(first) = lines.next() {
        let mut g: Grid = [[b'_'; 9]; 9];
        for row in 0..9 * players {
            let line = if row == 0 { first.clone() } else { lines.next().unwrap() };
            if row < 9 {
                for i in 0..9 {
                    g[row][i] = line.as_bytes()[2 * i];
                }
            }
        }
        let mut tile = None; // the tile this turn places (none on turn 1)
        for _ in 0..nb {
            let line = lines.next().unwrap();
            let t: Vec<&str> = line.split(' ').collect();
            if t[4] == "1" {
                tile = Some([t[1].as_bytes()[0], t[2].as_bytes()[0]]);
            }
        }
        let mut free = Vec::new();
        for _ in 0..nb {
            let line = lines.next().unwrap();
            let t: Vec<&str> = line.split(' ').collect();
            if t[3] == "-1" && t[0] != "0" {
                free.push(t[0].parse().unwrap());
            }
        }
        let (x, y, r) = tile.map_or((0, 0, 0), |t| choose_put(&g, t));
        let pick = if free.is_empty() { -1 } else { choose_pick(&free) }; // -1: the last turn
        writeln!(out, "PUT {x} {y} {r}\nPICK {pick}").unwrap();
        out.flush().unwrap();
    }
}
