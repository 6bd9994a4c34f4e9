//! One player's kingdom: a 9x9 grid with the castle at (4,4), the placement rules, the zones
//! and the score. x is the column (0 left), y the row (0 top), as on the wire.

use super::tiles::{Square, Terrain, Tile};
use serde::{Deserialize, Serialize, Serializer};
use std::fmt;

/// Width and height of the grid sent on the wire.
pub const SIZE: usize = 9;
/// Column and row of the castle.
pub const CENTER: usize = 4;
/// Largest width and height the territory (castle included) may span.
pub const MAX_EXTENT: usize = 5;

/// Offsets of the second square for rotations 0 (right), 1 (below), 2 (left), 3 (above).
const ROTATIONS: [(i32, i32); 4] = [(1, 0), (0, 1), (-1, 0), (0, -1)];
/// The four orthogonal neighbours.
const NEIGHBOURS: [(i32, i32); 4] = ROTATIONS;

/// Where a tile goes: its first square at (x, y), the second one step in `rotation`'s
/// direction. Coordinates are signed because replies may name anything; legality is checked.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub struct Placement {
    /// Column of the first square.
    pub x: i32,
    /// Row of the first square.
    pub y: i32,
    /// 0: second square on the right, 1: below, 2: on the left, 3: above.
    pub rotation: u8,
}

impl Placement {
    /// A placement from its three wire numbers.
    pub const fn new(x: i32, y: i32, rotation: u8) -> Placement {
        Placement { x, y, rotation }
    }

    /// Both squares' (x, y), first then second; None for a rotation above 3.
    pub fn cells(&self) -> Option<[(i32, i32); 2]> {
        let (dx, dy) = *ROTATIONS.get(usize::from(self.rotation))?;
        Some([(self.x, self.y), (self.x + dx, self.y + dy)])
    }
}

/// Why a placement is refused, one variant per rule, checked in this order.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, thiserror::Error)]
pub enum Illegal {
    /// Only rotations 0 to 3 exist.
    #[error("rotation {0} is not 0, 1, 2 or 3")]
    Rotation(u8),
    /// A square would fall outside the 9x9 grid.
    #[error("square ({0}, {1}) is outside the 9x9 grid")]
    OutOfGrid(i32, i32),
    /// A square would cover the castle.
    #[error("square ({0}, {1}) overlaps the castle")]
    OverlapsCastle(i32, i32),
    /// A square would cover a placed tile.
    #[error("square ({0}, {1}) overlaps a placed tile")]
    OverlapsTile(i32, i32),
    /// The territory would span more than 5 columns or 5 rows.
    #[error("the territory would span {0}x{1} squares, more than 5x5")]
    TooLarge(usize, usize),
    /// Neither square touches the castle or a square of its own terrain.
    #[error("neither square touches the castle or a square of its own terrain")]
    NotConnected,
}

impl Illegal {
    /// The rule broken, in a few words (`the connection rule`).
    pub fn rule(&self) -> &'static str {
        match self {
            Illegal::Rotation(_) => "rotations are 0 to 3",
            Illegal::OutOfGrid(..) => "the 9x9 grid",
            Illegal::OverlapsCastle(..) | Illegal::OverlapsTile(..) => "no overlap",
            Illegal::TooLarge(..) => "the 5x5 territory",
            Illegal::NotConnected => "the connection rule",
        }
    }
}

/// A connected area of one terrain.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Zone {
    /// Its terrain (never castle or empty).
    pub terrain: Terrain,
    /// Number of squares.
    pub size: u32,
    /// Crowns on its squares.
    pub crowns: u32,
}

impl Zone {
    /// What the zone is worth: size x crowns (0 without crowns).
    pub fn score(&self) -> u32 {
        self.size * self.crowns
    }
}

/// A player's grid. Starts with the castle alone at (4,4).
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Kingdom {
    /// Row-major: `cells[y][x]`.
    cells: [[Square; SIZE]; SIZE],
    /// The bounding box of the castle and every placed square, `[min x, max x, min y, max y]`,
    /// kept as squares are placed: a placement's extent is then checked without a scan of the
    /// grid (the built-ins check every placement of every tile they consider).
    bounds: [i32; 4],
}

impl Default for Kingdom {
    fn default() -> Self {
        Kingdom::new()
    }
}

/// Why wire rows do not make a kingdom.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum BadGrid {
    /// Not 9 rows of 18 chars.
    #[error("a grid is 9 rows of 18 chars")]
    Shape,
    /// A pair of chars is not a square.
    #[error("bad square {0:?}")]
    Square(String),
    /// The castle is missing from (4,4) or found elsewhere.
    #[error("the castle must be at (4,4) and only there")]
    Castle,
}

impl Kingdom {
    /// An empty grid with the castle in the middle.
    pub fn new() -> Kingdom {
        let mut cells = [[Square::EMPTY; SIZE]; SIZE];
        cells[CENTER][CENTER] = Square::CASTLE;
        let c = CENTER as i32;
        Kingdom {
            cells,
            bounds: [c, c, c, c],
        }
    }

    /// The square at (x, y); None outside the grid.
    pub fn get(&self, x: i32, y: i32) -> Option<Square> {
        let (x, y) = (usize::try_from(x).ok()?, usize::try_from(y).ok()?);
        self.cells.get(y)?.get(x).copied()
    }

    /// Checks every placement rule; the first one broken is the error.
    pub fn can_place(&self, tile: &Tile, placement: Placement) -> Result<(), Illegal> {
        let cells = placement
            .cells()
            .ok_or(Illegal::Rotation(placement.rotation))?;
        for (x, y) in cells {
            match self.get(x, y).map(|s| s.terrain) {
                None => return Err(Illegal::OutOfGrid(x, y)),
                Some(Terrain::Castle) => return Err(Illegal::OverlapsCastle(x, y)),
                Some(Terrain::Empty) => {}
                Some(_) => return Err(Illegal::OverlapsTile(x, y)),
            }
        }
        let (width, height) = self.extent_with(&cells);
        if width > MAX_EXTENT || height > MAX_EXTENT {
            return Err(Illegal::TooLarge(width, height));
        }
        let connects = |i: usize| self.touches(cells[i], tile.squares[i].terrain);
        if connects(0) || connects(1) {
            Ok(())
        } else {
            Err(Illegal::NotConnected)
        }
    }

    /// Every legal placement, by row, then column, then rotation.
    pub fn legal_placements(&self, tile: &Tile) -> Vec<Placement> {
        all_placements()
            .filter(|&p| self.can_place(tile, p).is_ok())
            .collect()
    }

    /// True when the tile fits somewhere; a tile that does not is discarded.
    pub fn can_place_anywhere(&self, tile: &Tile) -> bool {
        all_placements().any(|p| self.can_place(tile, p).is_ok())
    }

    /// Appends the 9 wire lines, each ending in a newline, to `out`: what a block sends of a
    /// kingdom, written without a string per square (a block holds up to four kingdoms, and
    /// a game sends one per sequence).
    pub fn write_rows(&self, out: &mut String) {
        for row in &self.cells {
            for square in row {
                out.push(square.terrain.wire());
                out.push(char::from(b'0' + square.crowns.min(9)));
            }
            out.push('\n');
        }
    }

    /// Puts the tile down if the placement is legal; the kingdom is unchanged otherwise.
    pub fn place(&mut self, tile: &Tile, placement: Placement) -> Result<(), Illegal> {
        self.can_place(tile, placement)?;
        let cells = placement.cells().expect("checked");
        for ((x, y), square) in cells.into_iter().zip(tile.squares) {
            self.cells[y as usize][x as usize] = square;
            self.bounds = grown(self.bounds, (x, y));
        }
        Ok(())
    }

    /// The connected zones of land, in row-major order of their first square.
    pub fn zones(&self) -> Vec<Zone> {
        let mut seen = [[false; SIZE]; SIZE];
        let mut zones = Vec::new();
        for (x, y) in all_coords() {
            if !seen[y][x] && self.cells[y][x].terrain.is_land() {
                zones.push(self.flood(x, y, &mut seen));
            }
        }
        zones
    }

    /// Sum of the zones' scores (without tie-break points). The same flood fill as
    /// [`Kingdom::zones`], without a list: the built-ins score every placement they consider.
    pub fn score(&self) -> u32 {
        let mut seen = [[false; SIZE]; SIZE];
        let mut stack = [(0u8, 0u8); SIZE * SIZE];
        let mut total = 0;
        for (x, y) in all_coords() {
            let terrain = self.cells[y][x].terrain;
            if seen[y][x] || !terrain.is_land() {
                continue;
            }
            let (mut size, mut crowns, mut top) = (0, 0, 1);
            stack[0] = (x as u8, y as u8);
            seen[y][x] = true;
            while top > 0 {
                top -= 1;
                let (cx, cy) = (i32::from(stack[top].0), i32::from(stack[top].1));
                size += 1;
                crowns += u32::from(self.cells[cy as usize][cx as usize].crowns);
                for (dx, dy) in NEIGHBOURS {
                    let (nx, ny) = (cx + dx, cy + dy);
                    if self.get(nx, ny).is_some_and(|s| s.terrain == terrain)
                        && !seen[ny as usize][nx as usize]
                    {
                        seen[ny as usize][nx as usize] = true;
                        stack[top] = (nx as u8, ny as u8);
                        top += 1;
                    }
                }
            }
            total += size * crowns;
        }
        total
    }

    /// Squares covered by tiles (the castle is not counted).
    pub fn territory_size(&self) -> u32 {
        self.land().count() as u32
    }

    /// Crowns on all placed squares.
    pub fn crowns(&self) -> u32 {
        self.land().map(|s| u32::from(s.crowns)).sum()
    }

    /// The 9 wire lines, top row first, 18 chars each.
    pub fn render_rows(&self) -> Vec<String> {
        self.cells
            .iter()
            .map(|row| row.iter().map(Square::to_string).collect())
            .collect()
    }

    /// Reads the 9 wire lines back (for tests and bots).
    pub fn from_rows<S: AsRef<str>>(rows: &[S]) -> Result<Kingdom, BadGrid> {
        if rows.len() != SIZE || rows.iter().any(|r| r.as_ref().len() != 2 * SIZE) {
            return Err(BadGrid::Shape);
        }
        let mut kingdom = Kingdom::new();
        for (y, row) in rows.iter().enumerate() {
            for x in 0..SIZE {
                let pair = row.as_ref().get(2 * x..2 * x + 2).ok_or(BadGrid::Shape)?;
                let square = Square::from_wire(pair).ok_or(BadGrid::Square(pair.into()))?;
                let castle_here = (x, y) == (CENTER, CENTER);
                if (square.terrain == Terrain::Castle) != castle_here {
                    return Err(BadGrid::Castle);
                }
                kingdom.cells[y][x] = square;
                if square.terrain != Terrain::Empty {
                    kingdom.bounds = grown(kingdom.bounds, (x as i32, y as i32));
                }
            }
        }
        Ok(kingdom)
    }

    /// Placed squares.
    fn land(&self) -> impl Iterator<Item = &Square> {
        self.cells.iter().flatten().filter(|s| s.terrain.is_land())
    }

    /// Width and height of the bounding box of everything placed plus `extra`.
    fn extent_with(&self, extra: &[(i32, i32)]) -> (usize, usize) {
        let [lo_x, hi_x, lo_y, hi_y] = extra.iter().fold(self.bounds, |b, &c| grown(b, c));
        ((hi_x - lo_x + 1) as usize, (hi_y - lo_y + 1) as usize)
    }

    /// True when (x, y) has an orthogonal neighbour that is the castle or of `terrain`.
    fn touches(&self, (x, y): (i32, i32), terrain: Terrain) -> bool {
        NEIGHBOURS.iter().any(|(dx, dy)| {
            self.get(x + dx, y + dy)
                .is_some_and(|s| s.terrain == Terrain::Castle || s.terrain == terrain)
        })
    }

    /// Iterative flood fill of the zone containing (x, y), marking it seen.
    fn flood(&self, x: usize, y: usize, seen: &mut [[bool; SIZE]; SIZE]) -> Zone {
        let terrain = self.cells[y][x].terrain;
        let mut zone = Zone {
            terrain,
            size: 0,
            crowns: 0,
        };
        let mut stack = vec![(x as i32, y as i32)];
        seen[y][x] = true;
        while let Some((cx, cy)) = stack.pop() {
            zone.size += 1;
            zone.crowns += u32::from(self.cells[cy as usize][cx as usize].crowns);
            for (dx, dy) in NEIGHBOURS {
                let (nx, ny) = (cx + dx, cy + dy);
                if self.get(nx, ny).is_some_and(|s| s.terrain == terrain)
                    && !seen[ny as usize][nx as usize]
                {
                    seen[ny as usize][nx as usize] = true;
                    stack.push((nx, ny));
                }
            }
        }
        zone
    }
}

/// Every placement on the grid, by row, then column, then rotation.
fn all_placements() -> impl Iterator<Item = Placement> {
    let size = SIZE as i32;
    (0..size).flat_map(move |y| {
        (0..size).flat_map(move |x| (0..4).map(move |r| Placement::new(x, y, r)))
    })
}

/// The bounding box `[min x, max x, min y, max y]` grown to hold (x, y).
fn grown([lo_x, hi_x, lo_y, hi_y]: [i32; 4], (x, y): (i32, i32)) -> [i32; 4] {
    [lo_x.min(x), hi_x.max(x), lo_y.min(y), hi_y.max(y)]
}

/// Serialised as its 9 wire rows, the form a record or a view shows.
impl Serialize for Kingdom {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_seq(self.render_rows())
    }
}

/// The grid as its wire rows, one per line.
impl fmt::Display for Kingdom {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.render_rows()
            .iter()
            .try_for_each(|row| writeln!(f, "{row}"))
    }
}

/// Every (x, y) of the grid, row-major.
fn all_coords() -> impl Iterator<Item = (usize, usize)> {
    (0..SIZE).flat_map(|y| (0..SIZE).map(move |x| (x, y)))
}
