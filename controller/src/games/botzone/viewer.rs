//! report.html's board for a Botzone game: a generic viewer of the log, step by step (each
//! player's request and response with its verdict, the judge's `display`). A game folder with
//! its own `viewer.js` replaces the script (the same contract: it sets
//! `window.reportBoard = {turns(game), render(game, turn)}`; `game.botzone` is the record's
//! body: `{initdata, log, scores}`).

/// The HTML the script draws into.
pub const BOARD_HTML: &str = "<div class=\"table-view\"><div id=\"bz-step\"></div>\
                              <table id=\"bz-seats\"></table><pre id=\"bz-display\"></pre></div>";

/// The generic board script.
pub const SCRIPT: &str = include_str!("viewer.js");
