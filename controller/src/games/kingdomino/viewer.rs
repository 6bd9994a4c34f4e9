//! What the viewer needs of a Kingdomino game, and the tile set it draws from.
//!
//! A record holds the moves but not the tiles offered each turn: those come from the game's
//! seed through the game's own shuffle, which the browser cannot repeat. So the offers are
//! re-derived here, by replaying the moves with the game's rules, and embedded with the moves;
//! the kingdoms, their scores and who took what are rebuilt from them in the browser.

use serde::Serialize;

use crate::games::kingdomino::game::{Game, MoveRecord, PutOutcome};
use crate::games::kingdomino::tiles::all_tiles;
use crate::record::GameRecord;

/// How a sequence's PUT ended, as the viewer's one-digit code (compact in the page).
pub const NOTHING_TO_PLACE: u8 = 0;
/// The tile went where the PUT said.
pub const PLACED: u8 = 1;
/// The tile fitted nowhere and was discarded.
pub const UNPLACEABLE: u8 = 2;
/// The PUT was illegal for a tile that fitted somewhere: discarded.
pub const ILLEGAL: u8 = 3;
/// The line records the seat's elimination after a fault.
pub const ELIMINATED: u8 = 4;

/// One move as the viewer reads it, serialised as an array:
/// `[turn, seat, king, tile, x, y, rotation, outcome, pick, message, why]`, with 0 for "no
/// tile" and "no pick" (tile ids start at 1), `message` the PICK line's text and `why` the
/// reason an illegal PUT was refused (both `null` when absent).
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct ViewerMove(
    pub u8,
    pub usize,
    pub u8,
    pub u8,
    pub i32,
    pub i32,
    pub u8,
    pub u8,
    pub u8,
    pub Option<String>,
    pub Option<String>,
);

impl ViewerMove {
    /// The compact form of a recorded move.
    fn of(m: &MoveRecord) -> ViewerMove {
        let (outcome, why) = match (&m.outcome, m.eliminated) {
            (_, true) | (None, _) => (ELIMINATED, None),
            (Some(PutOutcome::NothingToPlace), _) => (NOTHING_TO_PLACE, None),
            (Some(PutOutcome::Placed), _) => (PLACED, None),
            (Some(PutOutcome::Unplaceable), _) => (UNPLACEABLE, None),
            (Some(PutOutcome::Illegal(why)), _) => (
                ILLEGAL,
                Some(why.map_or_else(|| "no PUT given".to_string(), |w| w.to_string())),
            ),
        };
        let (x, y, rotation) = m.put.map_or((0, 0, 0), |p| (p.x, p.y, p.rotation));
        ViewerMove(
            m.turn,
            m.seat,
            m.king.unwrap_or(0),
            m.tile.unwrap_or(0),
            x,
            y,
            rotation,
            outcome,
            m.pick.unwrap_or(0),
            m.message.as_deref().map(crate::untrusted::page_text),
            why,
        )
    }
}

/// A Kingdomino game for the viewer: its moves, and for each turn the tiles offered to pick
/// (ascending ids, empty on the last turn), as the game's seed drew them.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct ViewerKingdomino {
    /// Turns in the game (7 with 2 players, 13 otherwise), whether or not all were played.
    pub turns: u8,
    /// `offers[t]`: the tiles offered in turn `t + 1`.
    pub offers: Vec<Vec<u8>>,
    /// Every sequence and elimination in play order, as far as the rules could replay them.
    pub moves: Vec<ViewerMove>,
}

impl ViewerKingdomino {
    /// The viewer's form of `r`'s moves; a summary record (no moves) gives an empty game. A
    /// move the rules refuse (a record that does not verify) ends the replay there: the viewer
    /// shows what could be replayed rather than nothing.
    pub fn of(r: &GameRecord) -> ViewerKingdomino {
        let players = r.players.len();
        let log = super::GameLog::of(r).ok();
        let moves: &[MoveRecord] = log.as_ref().map_or(&[], |k| &k.moves);
        let playable = (2..=4).contains(&players);
        let turns = if playable {
            crate::games::kingdomino::game::turns(players)
        } else {
            0
        };
        let mut offers: Vec<Vec<u8>> = Vec::new();
        let mut kept = Vec::with_capacity(moves.len());
        if playable {
            let mut game = Game::new(r.seed, players);
            for m in moves {
                let offer_of =
                    |g: &Game| -> Vec<u8> { g.view(0).to_pick.iter().map(|l| l.tile.id).collect() };
                while offers.len() < usize::from(game.turn()) {
                    offers.push(offer_of(&game));
                }
                if m.eliminated {
                    game.eliminate(m.seat);
                } else if game
                    .apply_with_message(m.seat, m.put, m.pick, m.message.clone())
                    .is_err()
                {
                    break;
                }
                kept.push(ViewerMove::of(m));
            }
        }
        ViewerKingdomino {
            turns,
            offers,
            moves: kept,
        }
    }
}

/// The 48 tiles for the page: `[id, terrain, crowns, terrain, crowns]`, terrains as the
/// wire's letters (`c f g l w m`), so the page knows the tiles without a copy of its own.
pub fn tiles_json() -> serde_json::Value {
    all_tiles()
        .iter()
        .map(|t| {
            let [a, b] = t.squares;
            serde_json::json!([
                t.id,
                a.terrain.wire().to_string(),
                a.crowns,
                b.terrain.wire().to_string(),
                b.crowns
            ])
        })
        .collect()
}

/// The elements the board script draws into.
pub const BOARD_HTML: &str = "<div class=\"kd-view\"><div id=\"kingdoms\"></div><div \
                              class=\"kd-side\"><div id=\"offer\"></div><div \
                              id=\"turn-info\"></div></div></div>";

/// The board script: the kingdoms, the tiles offered and who took them, the running scores.
pub const SCRIPT: &str = include_str!("viewer.js");
