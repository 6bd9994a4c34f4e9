//! What the person at the keyboard sees of a Botzone game in `take6 play`: after each of the
//! judge's outputs its `display` (as a board when take6 knows the game, [`super::boards`]),
//! and when the game ends, why. Pure functions of the log; the table prints them through
//! crate::untrusted::terminal_lines (the judge's and the bots' text is untrusted).

use serde_json::{Value, json};

use super::boards::Board;

/// After the judge's latest output in `log` (a game called `name`): its display, and the
/// board when take6 knows the game.
pub fn step_text(name: &str, log: &[Value]) -> String {
    let Some(last) = log.last() else {
        return String::new();
    };
    let output = &last["output"];
    let mut out = String::new();
    if let Some(display) = output.get("display").filter(|d| !is_blank(d)) {
        out.push_str(&format!("judge's display: {display}\n"));
    }
    if let Some(board) = Board::of_game(name, &json!({ "log": log })) {
        out.push_str(&board.text(board.frames.len() - 1));
    }
    out
}

/// Who the person is at a table of `players` of the game called `name`: their player
/// number, and on a board take6 draws (Player 0 black, X; player 1 white, O), their colour.
pub fn seat_text(name: &str, me: usize, players: usize) -> String {
    let colour = match (super::boards::Kind::of(name), me) {
        (Some(_), 0) => " (black: X on the board)",
        (Some(_), 1) => " (white: O on the board)",
        _ => "",
    };
    format!(
        "you are player {me} of {players}{colour}: the judge's requests to \"{me}\" are yours\n"
    )
}

/// Why the game ended, for the person playing seat `me`: the judge's scores and what its
/// display says (an `err` or `error` such as INVALID_MOVE, the winner), or why it is void.
pub fn end_text(log: &[Value], scores: &Result<Vec<f64>, String>, me: Option<usize>) -> String {
    let scores = match scores {
        Ok(s) => s,
        Err(why) => return format!("the game is void: {why}\n"),
    };
    let listed: Vec<String> = scores.iter().map(f64::to_string).collect();
    let mut out = format!(
        "the game is over: the judge finished it with scores [{}]",
        listed.join(", ")
    );
    if let Some(me) = me.filter(|&m| m < scores.len()) {
        out.push_str(&format!(" (yours, player {me}: {})", scores[me]));
    }
    out.push('\n');
    let display = log.last().map_or(&Value::Null, |l| &l["output"]["display"]);
    let said = ["err", "error"].iter().find_map(|k| display.get(k));
    if let Some(said) = said {
        let said = said
            .as_str()
            .map_or_else(|| said.to_string(), str::to_string);
        let info = display
            .get("error_info")
            .map_or(String::new(), |i| format!(" ({i})"));
        out.push_str(&format!("the judge ended the game early: {said}{info}\n"));
        let loser = log
            .len()
            .checked_sub(2)
            .and_then(|i| log[i].as_object())
            .and_then(|answers| answers.keys().next().cloned());
        if let (Some(loser), Some(me)) = (loser, me)
            && loser == me.to_string()
        {
            out.push_str("it ended on your move\n");
        }
    }
    match display.get("winner") {
        Some(Value::Number(w)) => out.push_str(&format!(
            "the judge's display names the winner: player {w}\n"
        )),
        Some(w) => out.push_str(&format!("the judge's display names the winner: {w}\n")),
        None => {}
    }
    out
}

/// Whether a display says nothing (Botzone's judges often give `""`).
fn is_blank(v: &Value) -> bool {
    v.is_null() || v.as_str().is_some_and(str::is_empty)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn log() -> Vec<Value> {
        vec![
            json!({"output": {"command": "request", "content": {"0": {"x": -1, "y": -1}}, "display": ""}}),
            json!({"0": {"response": {"x": 1, "y": 1}, "verdict": "OK"}}),
            json!({"output": {"command": "request", "content": {"1": {"x": 1, "y": 1}}, "display": {"x": 1, "y": 1}}}),
            json!({"1": {"response": {"x": 1, "y": 1}, "verdict": "OK"}}),
            json!({"output": {"command": "finish", "content": {"0": 2, "1": 0},
                              "display": {"err": "INVALIDMOVE", "winner": 0}}}),
        ]
    }

    #[test]
    fn each_step_shows_the_display_and_a_known_games_board() {
        let l = log();
        assert_eq!(step_text("duel", &l[..1]), "");
        let text = step_text("duel", &l[..3]);
        assert_eq!(text, "judge's display: {\"x\":1,\"y\":1}\n");
        let text = step_text("tictactoe", &l[..3]);
        assert!(text.contains(" 1  . [X] ."), "{text}");
        let text = step_text("TicTacToe", &l);
        assert!(
            text.contains("which the judge refused: INVALIDMOVE"),
            "{text}"
        );
    }

    #[test]
    fn the_end_says_why_and_whose_move_it_was() {
        let l = log();
        let text = end_text(&l, &Ok(vec![2.0, 0.0]), Some(1));
        assert!(
            text.contains("scores [2, 0] (yours, player 1: 0)"),
            "{text}"
        );
        assert!(text.contains("names the winner: player 0"), "{text}");
        assert!(
            text.contains("ended the game early: INVALIDMOVE\n"),
            "{text}"
        );
        assert!(text.contains("it ended on your move"), "{text}");
        let text = end_text(&l, &Ok(vec![2.0, 0.0]), Some(0));
        assert!(!text.contains("your move"), "{text}");
        let text = end_text(&l, &Err("the judge crashed".into()), Some(0));
        assert_eq!(text, "the game is void: the judge crashed\n");
    }
}
