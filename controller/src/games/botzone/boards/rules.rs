//! The rules a board needs, as botzone-local's judges apply them: where the pieces start,
//! and what a move does (Reversi's flips, Go's captures, Ataxx's infections, an Amazon's move
//! and arrow, a stone placed). Whether a move is legal is the judge's to say; these only
//! refuse a move they cannot draw (off the board, onto a taken square, not the player's
//! piece), so that a board never shows what no rule allows.

use serde_json::Value;

use super::{ARROW, EMPTY, FIRST, Kind, SECOND};

/// The board as the game goes on.
pub struct State {
    pub kind: Kind,
    pub cells: Vec<u8>,
    /// Moves played so far (Renju's swap is white's second move).
    moves: usize,
}

/// What a move did: the squares it changed and how to say it.
pub struct Played {
    pub marks: Vec<usize>,
    pub words: String,
}

/// The eight directions.
const EIGHT: [(i64, i64); 8] = [
    (-1, -1),
    (0, -1),
    (1, -1),
    (-1, 0),
    (1, 0),
    (-1, 1),
    (0, 1),
    (1, 1),
];

/// The four directions along the lines.
const FOUR: [(i64, i64); 4] = [(0, -1), (-1, 0), (1, 0), (0, 1)];

fn piece(seat: usize) -> u8 {
    if seat == 0 { FIRST } else { SECOND }
}

fn other(p: u8) -> u8 {
    if p == FIRST { SECOND } else { FIRST }
}

/// Where Go's judge (botzone-local's `Go.py3`) places a stone at `(x, y)`: its board is one
/// string of rows `n + 2` wide (a border column each side, counted from 1) indexed by
/// `y * (n + 2) + x`, so a move off the board by its coordinates lands wherever that index
/// falls (`(x + n + 2, y - 1)` is `(x, y)`). The square's own coordinates, or nothing when the
/// index is outside the string.
fn go_square(n: i64, x: i64, y: i64) -> Option<(i64, i64)> {
    let w = n + 2;
    let l = y.checked_mul(w)?.checked_add(x)?;
    (0..w * w).contains(&l).then_some((l % w, l / w))
}

impl State {
    /// The board before the first move.
    pub fn start(kind: Kind) -> State {
        let n = kind.size();
        let mut s = State {
            kind,
            cells: vec![EMPTY; n * n],
            moves: 0,
        };
        let mut put = |x: usize, y: usize, p: u8| s.cells[y * n + x] = p;
        match kind {
            // Reversi.cpp: gridInfo[3][4] = gridInfo[4][3] = black, [3][3] = [4][4] = white.
            Kind::Reversi => {
                put(3, 4, FIRST);
                put(4, 3, FIRST);
                put(3, 3, SECOND);
                put(4, 4, SECOND);
            }
            Kind::Amazons => {
                for (x, y) in [(0, 2), (2, 0), (5, 0), (7, 2)] {
                    put(x, y, FIRST);
                }
                for (x, y) in [(0, 5), (2, 7), (5, 7), (7, 5)] {
                    put(x, y, SECOND);
                }
            }
            Kind::Ataxx => {
                put(0, 0, FIRST);
                put(6, 6, FIRST);
                put(6, 0, SECOND);
                put(0, 6, SECOND);
            }
            _ => {}
        }
        s
    }

    /// The square at the judge's coordinates, if on the board.
    fn at(&self, x: i64, y: i64) -> Option<usize> {
        let n = self.kind.size() as i64;
        let base = self.kind.base();
        let (x, y) = if self.kind == Kind::Go {
            go_square(n, x, y)?
        } else {
            (x, y)
        };
        let (x, y) = (x.saturating_sub(base), y.saturating_sub(base));
        (0..n).contains(&x).then_some(())?;
        (0..n).contains(&y).then_some(())?;
        Some((y * n + x) as usize)
    }

    /// The square `d` away from `i`, if on the board.
    fn step(&self, i: usize, (dx, dy): (i64, i64)) -> Option<usize> {
        let n = self.kind.size() as i64;
        let (x, y) = ((i as i64 % n) + dx, (i as i64 / n) + dy);
        ((0..n).contains(&x) && (0..n).contains(&y)).then(|| (y * n + x) as usize)
    }

    /// Plays `seat`'s move `mv` (the judge's JSON): what it changed, or why it cannot be drawn.
    pub fn play(&mut self, seat: usize, mv: &Value) -> Result<Played, String> {
        let int = |k: &str| mv.get(k).and_then(Value::as_i64);
        let played = match self.kind {
            Kind::Amazons => {
                let [x0, y0, x1, y1, x2, y2] = ["x0", "y0", "x1", "y1", "x2", "y2"].map(int);
                let all = [x0, y0, x1, y1, x2, y2];
                let [Some(x0), Some(y0), Some(x1), Some(y1), Some(x2), Some(y2)] = all else {
                    return Err("not a move {x0, y0, x1, y1, x2, y2}".into());
                };
                self.amazon(seat, (x0, y0), (x1, y1), (x2, y2))
            }
            Kind::Ataxx => {
                let [x0, y0, x1, y1] = ["x0", "y0", "x1", "y1"].map(int);
                let [Some(x0), Some(y0), Some(x1), Some(y1)] = [x0, y0, x1, y1] else {
                    return Err("not a move {x0, y0, x1, y1}".into());
                };
                self.ataxx(seat, (x0, y0), (x1, y1))
            }
            _ => {
                let (Some(x), Some(y)) = (int("x"), int("y")) else {
                    return Err("not a move {x, y}".into());
                };
                self.stone(seat, x, y)
            }
        }?;
        self.moves += 1;
        Ok(played)
    }

    /// A stone placed at `(x, y)`: Reversi flips, Go captures, Renju's swap, passes.
    fn stone(&mut self, seat: usize, x: i64, y: i64) -> Result<Played, String> {
        let pass = x == -1 && (y == -1 || self.kind == Kind::Reversi);
        let swap = self.kind == Kind::Renju && self.moves == 3;
        let Some(i) = self.at(x, y).filter(|&i| self.cells[i] == EMPTY) else {
            if swap {
                // Renju.js: white's second move that is no stone swaps the colours.
                for c in &mut self.cells {
                    if *c != EMPTY {
                        *c = other(*c);
                    }
                }
                return Ok(Played {
                    marks: Vec::new(),
                    words: "swapped the colours (Renju's exchange)".into(),
                });
            }
            if pass && matches!(self.kind, Kind::Reversi | Kind::Go) {
                return Ok(Played {
                    marks: Vec::new(),
                    words: "passed".into(),
                });
            }
            return Err(format!("({x}, {y}) is off the board or taken"));
        };
        let me = piece(seat);
        self.cells[i] = me;
        let mut marks = vec![i];
        match self.kind {
            Kind::Reversi => {
                let flipped = self.flips(i, me);
                if flipped.is_empty() {
                    self.cells[i] = EMPTY;
                    return Err(format!("({x}, {y}) turns no piece"));
                }
                for &f in &flipped {
                    self.cells[f] = me;
                }
                marks.extend(flipped);
            }
            Kind::Go => {
                for d in FOUR {
                    let Some(n) = self.step(i, d) else { continue };
                    if self.cells[n] == other(me) {
                        let group = self.group(n);
                        if !self.breathes(&group) {
                            for &g in &group {
                                self.cells[g] = EMPTY;
                            }
                        }
                    }
                }
            }
            _ => {}
        }
        let words = match self.kind {
            Kind::Go if go_square(self.kind.size() as i64, x, y) != Some((x, y)) => {
                let n = self.kind.size();
                let (gx, gy) = (i % n + 1, i / n + 1);
                format!("played ({x}, {y}), which Go's judge places at ({gx}, {gy})")
            }
            _ => format!("played ({x}, {y})"),
        };
        Ok(Played { marks, words })
    }

    /// The opponent's pieces a Reversi stone at `i` turns.
    fn flips(&self, i: usize, me: u8) -> Vec<usize> {
        let mut all = Vec::new();
        for d in EIGHT {
            let mut line = Vec::new();
            let mut at = self.step(i, d);
            while let Some(j) = at.filter(|&j| self.cells[j] == other(me)) {
                line.push(j);
                at = self.step(j, d);
            }
            if at.is_some_and(|j| self.cells[j] == me) {
                all.extend(line);
            }
        }
        all
    }

    /// The Go group holding `i`.
    fn group(&self, i: usize) -> Vec<usize> {
        let colour = self.cells[i];
        let mut group = vec![i];
        let mut k = 0;
        while k < group.len() {
            for d in FOUR {
                if let Some(n) = self.step(group[k], d)
                    && self.cells[n] == colour
                    && !group.contains(&n)
                {
                    group.push(n);
                }
            }
            k += 1;
        }
        group
    }

    /// Whether a group has a liberty.
    fn breathes(&self, group: &[usize]) -> bool {
        group.iter().any(|&g| {
            FOUR.iter()
                .any(|&d| self.step(g, d).is_some_and(|n| self.cells[n] == EMPTY))
        })
    }

    /// Whether the squares from `a` to `b` (not `a`) lie on one queen's line and are empty.
    fn clear(&self, a: usize, b: usize) -> bool {
        let n = self.kind.size() as i64;
        let (dx, dy) = (
            (b as i64 % n) - (a as i64 % n),
            (b as i64 / n) - (a as i64 / n),
        );
        if (dx, dy) == (0, 0) || (dx != 0 && dy != 0 && dx.abs() != dy.abs()) {
            return false;
        }
        let d = (dx.signum(), dy.signum());
        let mut at = a;
        while at != b {
            match self.step(at, d) {
                Some(next) if self.cells[next] == EMPTY => at = next,
                _ => return false,
            }
        }
        true
    }

    /// An Amazon of `seat` from `from` to `to`, then its arrow.
    fn amazon(
        &mut self,
        seat: usize,
        from: (i64, i64),
        to: (i64, i64),
        arrow: (i64, i64),
    ) -> Result<Played, String> {
        let me = piece(seat);
        let squares = (self.at(from.0, from.1), self.at(to.0, to.1));
        let (Some(a), Some(b), Some(c)) = (squares.0, squares.1, self.at(arrow.0, arrow.1)) else {
            return Err("a square off the board".into());
        };
        if self.cells[a] != me {
            return Err(format!("no amazon of the player's at {from:?}"));
        }
        self.cells[a] = EMPTY;
        if !self.clear(a, b) {
            self.cells[a] = me;
            return Err(format!("no clear line from {from:?} to {to:?}"));
        }
        self.cells[b] = me;
        if !self.clear(b, c) {
            self.cells[b] = EMPTY;
            self.cells[a] = me;
            return Err(format!("no clear line from {to:?} to the arrow {arrow:?}"));
        }
        self.cells[c] = ARROW;
        Ok(Played {
            marks: vec![a, b, c],
            words: format!("moved {from:?} to {to:?}, arrow at {arrow:?}"),
        })
    }

    /// An Ataxx piece of `seat` copied (one square away) or jumping (two) from `from` to `to`,
    /// turning the opponent's pieces around `to`.
    fn ataxx(&mut self, seat: usize, from: (i64, i64), to: (i64, i64)) -> Result<Played, String> {
        let me = piece(seat);
        let (Some(a), Some(b)) = (self.at(from.0, from.1), self.at(to.0, to.1)) else {
            return Err("a square off the board".into());
        };
        let far = (from.0 - to.0).abs().max((from.1 - to.1).abs());
        if self.cells[a] != me || self.cells[b] != EMPTY || !(1..=2).contains(&far) {
            return Err(format!("no move of the player's from {from:?} to {to:?}"));
        }
        if far == 2 {
            self.cells[a] = EMPTY;
        }
        self.cells[b] = me;
        let mut marks = vec![a, b];
        for d in EIGHT {
            if let Some(n) = self.step(b, d)
                && self.cells[n] == other(me)
            {
                self.cells[n] = me;
                marks.push(n);
            }
        }
        let how = if far == 2 { "jumped" } else { "copied" };
        Ok(Played {
            marks,
            words: format!("{how} {from:?} to {to:?}"),
        })
    }
}
