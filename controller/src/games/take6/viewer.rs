//! Take 6's board in report.html: the data [`viewer.js`](viewer.js) reads for one game.

use serde::Serialize;

use super::game::Card;
use crate::record::{GameRecord, RowChoice};

/// Take 6's viewer data, compact: each placement of `turns` is
/// `[seat, card, row, cards taken, cows, how the row was chosen (0 rules, 1 pick, 2 forced)]`;
/// the taken cards themselves are rebuilt from the board in the browser.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct ViewerTake6 {
    pub rows: [Card; 4],
    pub turns: Vec<Vec<[u32; 6]>>,
    pub cows: Vec<u32>,
    pub penalty: Vec<u32>,
}

impl ViewerTake6 {
    /// The viewer's data of round 1 of `r`.
    pub fn of(r: &GameRecord) -> ViewerTake6 {
        ViewerTake6 {
            rows: r.first().rows,
            turns: r
                .first()
                .turns
                .iter()
                .map(|t| {
                    t.events
                        .iter()
                        .map(|e| {
                            let how = match e.reason {
                                None => 0,
                                Some(RowChoice::Pick) => 1,
                                Some(RowChoice::Forced) => 2,
                            };
                            [
                                e.seat as u32,
                                u32::from(e.card),
                                e.row as u32,
                                e.took.len() as u32,
                                e.cows,
                                how,
                            ]
                        })
                        .collect()
                })
                .collect(),
            cows: r.first().cows.clone(),
            penalty: r.first().penalty.clone(),
        }
    }
}

/// The elements the board script draws into.
pub const BOARD_HTML: &str = "<div class=\"table-view\"><div id=\"board\"></div><div \
                              id=\"turn-info\"></div><table id=\"seats\"></table></div>";

/// The board script.
pub const SCRIPT: &str = include_str!("viewer.js");
