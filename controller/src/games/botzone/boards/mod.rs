//! Boards of Botzone's own games, drawn from a record's log: take6 knows Reversi, Gomoku,
//! Renju, Go, NoGo, Amazons, Ataxx and TicTacToe as botzone-local's judges play them (their
//! board sizes, coordinates, first player and pass moves), and recognises one by its
//! `game.toml` name ([`Kind::of`], case and punctuation aside).
//!
//! A board is a list of frames, one per step of the log: frame 0 the start, frame `t` the
//! board after step `t`'s responses as the judge took them. Each step's move is the response
//! of the player asked, applied by the game's rules ([`rules`]); a move the judge refused (it
//! finished the game with an `err` or `error` in its display) leaves the board as it was and
//! says why. These pure functions give `take6 replay` and `take6 play` their text board
//! ([`Board::text`]) and report.html's viewer its frames ([`Board::page`]), so that the
//! terminal and the page show the same board.

mod rules;

use serde_json::{Value, json};

/// A Botzone game whose board take6 draws.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    Reversi,
    Gomoku,
    Renju,
    Go,
    NoGo,
    Amazons,
    Ataxx,
    TicTacToe,
}

impl Kind {
    /// Every kind, in the order docs/botzone.md lists them.
    pub const ALL: [Kind; 8] = [
        Kind::Reversi,
        Kind::Gomoku,
        Kind::Renju,
        Kind::Go,
        Kind::NoGo,
        Kind::Amazons,
        Kind::Ataxx,
        Kind::TicTacToe,
    ];

    /// The game a `game.toml` name means, as botzone-local names its games ("Reversi",
    /// "TicTacToe", …), whatever its case, spaces, `-` or `_` ("tic-tac-toe", "no_go").
    pub fn of(name: &str) -> Option<Kind> {
        let plain: String = name
            .chars()
            .filter(|c| c.is_alphanumeric())
            .flat_map(char::to_lowercase)
            .collect();
        Kind::ALL.into_iter().find(|k| k.key() == plain)
    }

    /// The name the page and the tests use.
    pub fn key(self) -> &'static str {
        match self {
            Kind::Reversi => "reversi",
            Kind::Gomoku => "gomoku",
            Kind::Renju => "renju",
            Kind::Go => "go",
            Kind::NoGo => "nogo",
            Kind::Amazons => "amazons",
            Kind::Ataxx => "ataxx",
            Kind::TicTacToe => "tictactoe",
        }
    }

    /// Squares on a side.
    pub fn size(self) -> usize {
        match self {
            Kind::Reversi | Kind::Go | Kind::Amazons => 8,
            Kind::Gomoku | Kind::Renju => 15,
            Kind::NoGo => 9,
            Kind::Ataxx => 7,
            Kind::TicTacToe => 3,
        }
    }

    /// The coordinate of the first square (Go's judge counts from 1, the others from 0).
    pub fn base(self) -> i64 {
        if self == Kind::Go { 1 } else { 0 }
    }
}

/// What a square holds.
pub const EMPTY: u8 = 0;
/// Player 0's piece (black; X at TicTacToe).
pub const FIRST: u8 = 1;
/// Player 1's piece (white; O at TicTacToe).
pub const SECOND: u8 = 2;
/// An Amazons arrow.
pub const ARROW: u8 = 3;

/// The board after one step.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Frame {
    /// Row by row (`y`), each square by `x`: [`EMPTY`], [`FIRST`], [`SECOND`], [`ARROW`].
    pub cells: Vec<u8>,
    /// The squares the step changed: where the move went (from, to, arrow).
    pub marks: Vec<usize>,
    /// What happened, in words: the move, a pass, the judge's refusal or the winner.
    pub note: String,
}

/// A game's board step by step.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Board {
    pub kind: Kind,
    pub frames: Vec<Frame>,
}

/// The player a seat key is, in words (`black (0)`).
fn who(kind: Kind, seat: usize) -> String {
    let colour = match (kind, seat) {
        (Kind::TicTacToe, 0) => "X",
        (Kind::TicTacToe, _) => "O",
        (_, 0) => "black",
        _ => "white",
    };
    format!("{colour} (player {seat})")
}

/// The judge's refusal of a step's move: it finished the game with an error in its display.
fn refusal(output: &Value) -> Option<String> {
    if output["command"] != "finish" {
        return None;
    }
    let display = &output["display"];
    let said = ["err", "error"]
        .iter()
        .find_map(|k| display.get(k))
        .map(text)?;
    let info = display.get("error_info").map(text);
    Some(match info {
        Some(info) => format!("{said}: {info}"),
        None => said,
    })
}

/// A JSON value as words: a string as it is, anything else as JSON.
fn text(v: &Value) -> String {
    v.as_str().map_or_else(|| v.to_string(), str::to_string)
}

/// How a finish ends in words: the winner the display names, or the scores.
fn ending(kind: Kind, output: &Value) -> String {
    let winner = output["display"]
        .get("winner")
        .and_then(Value::as_u64)
        .filter(|&w| w < 2);
    let scores = output["content"].to_string();
    match winner {
        Some(w) => format!(
            "the judge finished: {} wins; scores {scores}",
            who(kind, w as usize)
        ),
        None => format!("the judge finished: scores {scores}"),
    }
}

/// A response as the judges read it: an object, or a string holding one.
fn move_of(response: &Value) -> Value {
    match response {
        Value::String(s) => serde_json::from_str(s).unwrap_or(Value::Null),
        v => v.clone(),
    }
}

impl Board {
    /// The board of a Botzone record's body (`{initdata, log, scores}`) for a game of `kind`.
    pub fn of(kind: Kind, body: &Value) -> Board {
        let empty = Vec::new();
        let log = body["log"].as_array().unwrap_or(&empty);
        let mut state = rules::State::start(kind);
        let mut frames = vec![Frame {
            cells: state.cells.clone(),
            marks: Vec::new(),
            note: "start".into(),
        }];
        // The step from which on the board is not the judge's position: the judge took a move
        // the board could not draw.
        let mut lost: Option<usize> = None;
        for (i, answers) in log.iter().enumerate().skip(1).step_by(2) {
            let after = &log.get(i + 1).map_or(&Value::Null, |e| &e["output"]);
            let (mut frame, undrawn) = step(&mut state, answers, after);
            let t = frames.len();
            if undrawn && lost.is_none() {
                lost = Some(t);
            }
            if let Some(from) = lost {
                frame.note.push_str(&format!(
                    "; NOT THE JUDGE'S POSITION from step {from} on: the judge took a move this \
                     board cannot draw"
                ));
            }
            frames.push(frame);
        }
        Board { kind, frames }
    }

    /// The board of a record's body, when `name` is a game take6 knows.
    pub fn of_game(name: &str, body: &Value) -> Option<Board> {
        Kind::of(name).map(|kind| Board::of(kind, body))
    }

    /// Frame `t` as text: column numbers on top, row numbers on the left (the judge's own
    /// coordinates: x across, y down), `X` for black (or TicTacToe's X), `O` for white, `#`
    /// for an arrow, the squares the step changed in brackets; then its note.
    pub fn text(&self, t: usize) -> String {
        let Some(frame) = self.frames.get(t) else {
            return String::new();
        };
        let size = self.kind.size();
        let base = self.kind.base();
        let label = |i: usize| i as i64 + base;
        let mut out = String::from("   ");
        for x in 0..size {
            out.push_str(&format!("{:^3}", label(x)));
        }
        out.truncate(out.trim_end().len());
        out.push('\n');
        for y in 0..size {
            out.push_str(&format!("{:>2} ", label(y)));
            for x in 0..size {
                let i = y * size + x;
                let piece = match frame.cells[i] {
                    FIRST => 'X',
                    SECOND => 'O',
                    ARROW => '#',
                    _ => '.',
                };
                if frame.marks.contains(&i) {
                    out.push_str(&format!("[{piece}]"));
                } else {
                    out.push_str(&format!(" {piece} "));
                }
            }
            out.truncate(out.trim_end().len());
            out.push('\n');
        }
        let count = |p: u8| frame.cells.iter().filter(|&&c| c == p).count();
        let (x, o) = if self.kind == Kind::TicTacToe {
            ("X", "O")
        } else {
            ("X black", "O white")
        };
        out.push_str(&format!(
            "{x} {}, {o} {}: {}\n",
            count(FIRST),
            count(SECOND),
            frame.note
        ));
        out
    }

    /// The board for report.html's viewer, compact (a page holds up to hundreds of games):
    /// `{kind, size, base, start, frames: [{d, m, n}]}`, `start` the first frame's squares as
    /// a string of digits, each frame its changes from the one before as `[square, piece,
    /// ...]` (`d`), its marked squares (`m`) and its note (`n`, shown with textContent; its
    /// text made visible through crate::untrusted::page_text).
    pub fn page(&self) -> Value {
        let digits =
            |cells: &[u8]| -> String { cells.iter().map(|&c| char::from(b'0' + c)).collect() };
        let mut before: &[u8] = &self.frames[0].cells;
        let frames: Vec<Value> = self
            .frames
            .iter()
            .map(|f| {
                let changed: Vec<usize> = (f.cells.iter().zip(before).enumerate())
                    .filter(|(_, (a, b))| a != b)
                    .flat_map(|(i, (&a, _))| [i, usize::from(a)])
                    .collect();
                before = &f.cells;
                json!({"d": changed, "m": f.marks, "n": crate::untrusted::page_text(&f.note)})
            })
            .collect();
        json!({
            "kind": self.kind.key(),
            "size": self.kind.size(),
            "base": self.kind.base(),
            "start": digits(&self.frames[0].cells),
            "frames": frames,
        })
    }
}

/// One step: the responses in `answers`, then the judge's output `after` them; and whether
/// a move the judge took (it did not refuse it) could not be drawn.
fn step(state: &mut rules::State, answers: &Value, after: &Value) -> (Frame, bool) {
    let kind = state.kind;
    let mut notes = Vec::new();
    let mut marks = Vec::new();
    let refused = refusal(after);
    let mut undrawn = false;
    for (key, answer) in answers.as_object().into_iter().flatten() {
        let Ok(seat) = key.parse::<usize>() else {
            continue;
        };
        let verdict = answer["verdict"].as_str().unwrap_or("?");
        if verdict != "OK" {
            notes.push(format!("{}: {verdict}", who(kind, seat)));
            continue;
        }
        let mv = move_of(&answer["response"]);
        if let Some(why) = &refused {
            notes.push(format!(
                "{} played {}, which the judge refused: {why}",
                who(kind, seat),
                text(&answer["response"])
            ));
            continue;
        }
        match state.play(seat, &mv) {
            Ok(played) => {
                marks.extend(played.marks);
                notes.push(format!("{} {}", who(kind, seat), played.words));
            }
            Err(why) => {
                // Taken when the judge answered after it (a void game's judge did not).
                undrawn |= after.is_object();
                notes.push(format!(
                    "{} played {} ({why}; the board leaves it out)",
                    who(kind, seat),
                    text(&answer["response"])
                ))
            }
        }
    }
    if after["command"] == "finish" && refused.is_none() {
        notes.push(ending(kind, after));
    } else if let Some(why) = refused {
        if !notes.iter().any(|n| n.contains("refused")) {
            notes.push(format!("the judge finished: {why}"));
        }
        notes.push(ending(kind, after));
    }
    let frame = Frame {
        cells: state.cells.clone(),
        marks,
        note: notes.join("; "),
    };
    (frame, undrawn)
}

#[cfg(test)]
mod tests;
