//! Two reference players, pure functions of a [`View`] (and an rng): `Random` plays any legal
//! move, `Greedy` the move scoring most right now. Both always reply well-formed, legal moves.

use super::game::View;
use super::kingdom::{Kingdom, Placement};
use super::tiles::tile;
use rand::Rng;
use rand::seq::IndexedRandom;

/// A player's two reply lines, as values.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Reply {
    /// Where to put the tile in play (any value when there is none or it fits nowhere).
    pub put: Placement,
    /// The tile to pick (any value on the last turn).
    pub pick: u8,
}

impl Reply {
    /// The two wire lines, each ending in a newline.
    pub fn lines(&self) -> String {
        let Placement { x, y, rotation } = self.put;
        format!("PUT {x} {y} {rotation}\nPICK {}\n", self.pick)
    }
}

/// A built-in player: a pure function of what it is told.
pub trait Builtin {
    /// The reply to `view`.
    fn reply(&self, view: &View, rng: &mut dyn Rng) -> Reply;
}

/// The PUT sent when nothing needs placing: its values are ignored.
const IGNORED_PUT: Placement = Placement::new(0, 0, 0);

/// Uniformly random legal placement and uniformly random free pick.
#[derive(Debug, Clone, Copy, Default)]
pub struct Random;

impl Builtin for Random {
    fn reply(&self, view: &View, rng: &mut dyn Rng) -> Reply {
        let (put, _) = placements(view);
        let put = put.choose(rng).copied().unwrap_or(IGNORED_PUT);
        let pick = view.free_picks().choose(rng).copied().unwrap_or(0);
        Reply { put, pick }
    }
}

/// Places where the kingdom scores most now (first such placement in the rules' order), then
/// picks the free tile whose best placement on the new kingdom scores most (lowest id on ties).
#[derive(Debug, Clone, Copy, Default)]
pub struct Greedy;

impl Builtin for Greedy {
    fn reply(&self, view: &View, _rng: &mut dyn Rng) -> Reply {
        let (options, kingdom) = placements(view);
        let best = best_placement(&kingdom, view.to_place, &options);
        let mut after = kingdom;
        if let (Some((put, _)), Some(id)) = (best, view.to_place) {
            after.place(tile(id), put).expect("a legal placement");
        }
        let pick = best_pick(&after, &view.free_picks()).unwrap_or(0);
        Reply {
            put: best.map_or(IGNORED_PUT, |(p, _)| p),
            pick,
        }
    }
}

/// The legal placements of the tile to place (none when there is no tile) and the own kingdom.
fn placements(view: &View) -> (Vec<Placement>, Kingdom) {
    let kingdom = view.own().clone();
    let options = view
        .to_place
        .map(|id| kingdom.legal_placements(tile(id)))
        .unwrap_or_default();
    (options, kingdom)
}

/// The first placement reaching the highest score, with that score.
fn best_placement(
    kingdom: &Kingdom,
    id: Option<u8>,
    options: &[Placement],
) -> Option<(Placement, u32)> {
    let id = id?;
    let score = |p: &Placement| {
        let mut k = kingdom.clone();
        k.place(tile(id), *p).map(|()| k.score()).unwrap_or(0)
    };
    options
        .iter()
        .map(|p| (*p, score(p)))
        .fold(None, |best, (p, s)| match best {
            Some((_, b)) if b >= s => best,
            _ => Some((p, s)),
        })
}

/// The free id whose best placement scores most (unplaceable tiles count the current score).
fn best_pick(kingdom: &Kingdom, free: &[u8]) -> Option<u8> {
    let value = |id: u8| {
        let options = kingdom.legal_placements(tile(id));
        best_placement(kingdom, Some(id), &options).map_or(kingdom.score(), |(_, s)| s)
    };
    let mut ids = free.to_vec();
    ids.sort_unstable();
    ids.into_iter()
        .map(|id| (id, value(id)))
        .fold(None, |best, (id, v)| match best {
            Some((_, b)) if b >= v => best,
            _ => Some((id, v)),
        })
        .map(|(id, _)| id)
}
