//! The 48 Kingdomino tiles. The data of record is `tiles.csv` beside this file (its header
//! names its source); it is parsed once, on first use.

use serde::{Deserialize, Serialize};
use std::fmt;
use std::sync::OnceLock;

/// How many tiles the game has; ids run from 1 to this.
pub const TILE_COUNT: usize = 48;

/// What a grid square holds. Each variant has the one-char code the CodinGame wire uses.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub enum Terrain {
    /// The player's castle, at the centre of the grid; connects to every terrain, scores nothing.
    Castle,
    /// Corn (wheat) field, `c`.
    Corn,
    /// Forest, `f`.
    Forest,
    /// Grassland, `g`.
    Grass,
    /// Lake, `l`.
    Lake,
    /// Wetland (swamp), `w`.
    Wetland,
    /// Mine, `m`.
    Mine,
    /// Nothing placed yet, `_`.
    Empty,
}

impl Terrain {
    /// The six terrains a tile square can have, in wire-char order of the statement.
    pub const LAND: [Terrain; 6] = [
        Terrain::Corn,
        Terrain::Forest,
        Terrain::Grass,
        Terrain::Lake,
        Terrain::Wetland,
        Terrain::Mine,
    ];

    /// The char CodinGame uses for this terrain in grids and tile lines.
    pub fn wire(self) -> char {
        match self {
            Terrain::Castle => '*',
            Terrain::Corn => 'c',
            Terrain::Forest => 'f',
            Terrain::Grass => 'g',
            Terrain::Lake => 'l',
            Terrain::Wetland => 'w',
            Terrain::Mine => 'm',
            Terrain::Empty => '_',
        }
    }

    /// The terrain of a wire char, if it is one.
    pub fn from_wire(c: char) -> Option<Terrain> {
        [Terrain::Castle, Terrain::Empty]
            .into_iter()
            .chain(Terrain::LAND)
            .find(|t| t.wire() == c)
    }

    /// True for the six terrains that form scoring zones.
    pub fn is_land(self) -> bool {
        !matches!(self, Terrain::Castle | Terrain::Empty)
    }
}

/// One square: a terrain and 0 to 3 crowns.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Square {
    /// What the square is.
    pub terrain: Terrain,
    /// Crowns on it (0 to 3); they multiply the size of the zone containing the square.
    pub crowns: u8,
}

impl Square {
    /// A square nothing was placed on.
    pub const EMPTY: Square = Square {
        terrain: Terrain::Empty,
        crowns: 0,
    };
    /// The castle square.
    pub const CASTLE: Square = Square {
        terrain: Terrain::Castle,
        crowns: 0,
    };

    /// A land square with crowns.
    pub const fn new(terrain: Terrain, crowns: u8) -> Square {
        Square { terrain, crowns }
    }

    /// Parses the two-char wire form (`c1`, `_0`, `*0`).
    pub fn from_wire(s: &str) -> Option<Square> {
        let mut chars = s.chars();
        let terrain = Terrain::from_wire(chars.next()?)?;
        let crowns = chars.next()?.to_digit(10)?;
        (chars.next().is_none() && crowns <= 3).then_some(Square {
            terrain,
            crowns: crowns as u8,
        })
    }
}

/// The two-char wire form: terrain char then crown digit.
impl fmt::Display for Square {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}", self.terrain.wire(), self.crowns)
    }
}

/// A domino: its id (1 to 48, roughly its value) and its two squares, first then second.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Tile {
    /// 1 to 48; turn order follows ascending ids.
    pub id: u8,
    /// The first square is the one `PUT x y` names; the second follows the rotation.
    pub squares: [Square; 2],
}

/// The data file, compiled in.
const TILES_CSV: &str = include_str!("tiles.csv");

/// All 48 tiles, index = id - 1.
pub fn all_tiles() -> &'static [Tile] {
    static TILES: OnceLock<Vec<Tile>> = OnceLock::new();
    TILES.get_or_init(|| parse_csv(TILES_CSV).expect("tiles.csv is well formed"))
}

/// The tile with this id. Panics outside 1..=48: ids come from our own draws.
pub fn tile(id: u8) -> &'static Tile {
    try_tile(id).unwrap_or_else(|| panic!("no tile {id}"))
}

/// The tile with this id, if there is one.
pub fn try_tile(id: u8) -> Option<&'static Tile> {
    all_tiles().get(usize::from(id).checked_sub(1)?)
}

/// What is wrong with the tile list.
#[derive(Debug, thiserror::Error)]
#[error("{0}")]
struct BadTiles(String);

/// Parses the tile list: `#` comments, one header line, then `id,t1,c1,t2,c2` lines in id order.
fn parse_csv(text: &str) -> Result<Vec<Tile>, BadTiles> {
    let mut lines = text
        .lines()
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty());
    lines.next().ok_or(BadTiles("no header".into()))?;
    let tiles = lines.map(parse_line).collect::<Result<Vec<_>, _>>()?;
    let in_order = tiles
        .iter()
        .enumerate()
        .all(|(i, t)| usize::from(t.id) == i + 1);
    if tiles.len() != TILE_COUNT || !in_order {
        return Err(BadTiles(format!("expected ids 1..={TILE_COUNT} in order")));
    }
    Ok(tiles)
}

/// One CSV line to a tile.
fn parse_line(line: &str) -> Result<Tile, BadTiles> {
    let f: Vec<&str> = line.trim().split(',').collect();
    let [id, t1, c1, t2, c2] = f[..] else {
        return Err(BadTiles(format!("not 5 fields: {line}")));
    };
    let square = |t: &str, c: &str| {
        Square::from_wire(&format!("{t}{c}"))
            .filter(|s| s.terrain.is_land())
            .ok_or_else(|| BadTiles(format!("bad square {t}{c} in {line}")))
    };
    Ok(Tile {
        id: (id.parse()).map_err(|_| BadTiles(format!("bad id in {line}")))?,
        squares: [square(t1, c1)?, square(t2, c2)?],
    })
}
