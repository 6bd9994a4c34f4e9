//! report.html's board for a Botzone game: a generic viewer of the log, step by step (each
//! player's request and response with its verdict and its `debug` when the record keeps one,
//! the judge's `display`), with the board of a game take6 knows drawn above it
//! ([`super::boards`]: Reversi, Gomoku, Renju, Go, NoGo, Amazons, Ataxx, TicTacToe, by the
//! `game.toml` name). A game folder with its own `viewer.js` replaces the script (the same
//! contract: it sets `window.reportBoard = {turns(game), render(game, turn)}`; `game.botzone`
//! is the record's body: `{initdata, log, scores}`).

use serde_json::{Map, Value};

use super::boards::{Board, Kind};

/// The HTML the script draws into.
pub const BOARD_HTML: &str = "<div class=\"table-view\"><div id=\"bz-step\"></div>\
                              <table id=\"bz-seats\"></table><pre id=\"bz-display\"></pre></div>";

/// The HTML of a game with a board: the board and its note beside the generic view.
pub const KNOWN_HTML: &str = "<div class=\"bz-view\"><div><div id=\"bz-board\"></div>\
                              <p id=\"bz-note\"></p></div><div><div id=\"bz-step\"></div>\
                              <table id=\"bz-seats\"></table><pre id=\"bz-display\"></pre></div>\
                              </div>";

/// The generic board script.
pub const SCRIPT: &str = include_str!("viewer.js");

/// The script that draws a known game's board (before [`SCRIPT`]).
pub const BOARD_SCRIPT: &str = include_str!("boards/viewer.js");

/// The script and HTML for a game called `name` (its `game.toml` name) without a viewer of
/// its own: the generic viewer, with the board when take6 knows the game.
pub fn for_game(name: &str) -> (String, &'static str) {
    match Kind::of(name) {
        Some(_) => (format!("{BOARD_SCRIPT}\n{SCRIPT}"), KNOWN_HTML),
        None => (SCRIPT.to_string(), BOARD_HTML),
    }
}

/// One record's data for the viewer: its body as `botzone`; the board's frames as `board`
/// when `board` is asked for and take6 knows the game; and as `debug`, when any response
/// of the log has one, each step's `{seat: debug}` (a string as it is, any other value as
/// JSON), its text made visible through crate::untrusted::page_text.
pub fn data(name: &str, body: Value, board: bool) -> Value {
    let mut data = Map::new();
    if board && let Some(b) = Board::of_game(name, &body) {
        data.insert("board".into(), b.page());
    }
    if let Some(debug) = debug(&body) {
        data.insert("debug".into(), debug);
    }
    data.insert("botzone".into(), body);
    Value::Object(data)
}

/// Each step's `debug` by seat, or `None` when no response has one.
fn debug(body: &Value) -> Option<Value> {
    let log = body["log"].as_array()?;
    let mut any = false;
    let steps: Vec<Value> = log
        .iter()
        .skip(1)
        .step_by(2)
        .map(|answers| {
            let mut said = Map::new();
            for (seat, answer) in answers.as_object().into_iter().flatten() {
                let Some(d) = answer.get("debug").filter(|d| !d.is_null()) else {
                    continue;
                };
                let text = d.as_str().map_or_else(|| d.to_string(), str::to_string);
                // Its lines kept (a bot's debug often has several), each made visible.
                let lines: Vec<String> =
                    text.split('\n').map(crate::untrusted::page_text).collect();
                said.insert(seat.clone(), Value::String(lines.join("\n")));
                any = true;
            }
            Value::Object(said)
        })
        .collect();
    any.then_some(Value::Array(steps))
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    #[test]
    fn debug_is_kept_per_step_and_seat_only_when_there_is_some() {
        let log = |d0: Value| {
            json!({"log": [
                {"output": {"command": "request", "content": {"0": 1}}},
                {"0": {"response": 1, "verdict": "OK", "debug": d0}},
                {"output": {"command": "request", "content": {"1": 1}}},
                {"1": {"verdict": "TLE"}},
                {"output": {"command": "finish", "content": {"0": 1, "1": 0}}},
            ]})
        };
        let d = data("duel", log(json!("thinking\u{202e}\ndepth 3\r")), true);
        assert_eq!(
            d["debug"],
            json!([{"0": "thinking\\u{202e}\ndepth 3\\r"}, {}])
        );
        assert!(d.get("board").is_none());
        let d = data("duel", log(json!({"depth": 3})), true);
        assert_eq!(d["debug"][0]["0"], "{\"depth\":3}");
        let d = data("duel", log(Value::Null), true);
        assert!(d.get("debug").is_none());
        assert_eq!(d["botzone"]["log"].as_array().unwrap().len(), 5);
    }

    /// The game as loaded from a folder: a known name gets the board; a `viewer.js` of the
    /// folder's own replaces it (its script as it is, the generic HTML, no board data).
    #[test]
    fn a_folders_own_viewer_replaces_the_board() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(dir.path().join("judge.py"), "").unwrap();
        std::fs::write(
            dir.path().join("game.toml"),
            "name = \"Reversi\"\nplayers = 2\n",
        )
        .unwrap();
        let record = crate::record::GameRecord {
            body: Some(crate::record::Body::new(&json!({"log": []}))),
            ..Default::default()
        };
        let game = super::super::load(dir.path()).unwrap();
        assert!(game.viewer().script.contains("window.botzoneBoard = "));
        assert_eq!(game.viewer().board_html, KNOWN_HTML);
        assert_eq!(game.viewer_data(&record)["board"]["kind"], "reversi");
        let own = "window.reportBoard = {turns: function () { return 0; }};";
        std::fs::write(dir.path().join("viewer.js"), own).unwrap();
        let game = super::super::load(dir.path()).unwrap();
        assert_eq!(game.viewer().script, own);
        assert_eq!(game.viewer().board_html, BOARD_HTML);
        assert!(game.viewer_data(&record).get("board").is_none());
    }

    #[test]
    fn a_known_game_gets_its_board_unless_the_folder_has_a_viewer() {
        let body = json!({"log": [{"output": {"command": "request", "content": {"0": {}}}}]});
        assert_eq!(
            data("Reversi", body.clone(), true)["board"]["kind"],
            "reversi"
        );
        assert!(data("reversi", body, false).get("board").is_none());
        assert!(for_game("TicTacToe").0.contains("window.botzoneBoard = "));
        assert!(!for_game("duel").0.contains("window.botzoneBoard = "));
    }
}
