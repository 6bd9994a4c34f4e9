//! Boards drawn from logs of real games (testdata/README.md): every move the judge took is
//! one the board draws, the board agrees with what the judge said (Go's captures, Reversi's
//! and Ataxx's winner by count, TicTacToe's line, Renju's exchange), and the text is
//! snapshot-tested.

use serde_json::Value;

use super::*;

fn log(name: &str) -> Value {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("src/games/botzone/boards/testdata")
        .join(format!("{name}.json"));
    serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap()
}

/// The board of a log, with every frame's note checked: no move the judge took is one the
/// board could not draw.
fn board(kind: Kind, name: &str) -> (Board, Value) {
    let body = log(name);
    let board = Board::of(kind, &body);
    let steps = body["log"].as_array().unwrap().len() / 2;
    assert_eq!(board.frames.len(), steps + 1, "{name}");
    for (t, f) in board.frames.iter().enumerate() {
        assert!(
            !f.note.contains("leaves it out"),
            "{name} step {t}: {}",
            f.note
        );
    }
    (board, body)
}

fn count(f: &Frame, p: u8) -> usize {
    f.cells.iter().filter(|&&c| c == p).count()
}

/// Frames 0, 1, 2, the middle one and the last two, as `take6 replay` prints them.
fn some_frames(b: &Board) -> String {
    let last = b.frames.len() - 1;
    let mut picked = vec![0, 1, 2, last / 2, last - 1, last];
    picked.dedup();
    picked
        .into_iter()
        .map(|t| format!("step {t}\n{}", b.text(t)))
        .collect::<Vec<_>>()
        .join("\n")
}

#[test]
fn names_are_botzone_locals_whatever_their_case() {
    for (name, kind) in [
        ("Reversi", Kind::Reversi),
        ("reversi", Kind::Reversi),
        ("Gomoku", Kind::Gomoku),
        ("Renju", Kind::Renju),
        ("Go", Kind::Go),
        ("NoGo", Kind::NoGo),
        ("no-go", Kind::NoGo),
        ("Amazons", Kind::Amazons),
        ("ATAXX", Kind::Ataxx),
        ("TicTacToe", Kind::TicTacToe),
        ("tic_tac_toe", Kind::TicTacToe),
    ] {
        assert_eq!(Kind::of(name), Some(kind), "{name}");
    }
    for name in ["duel", "FightTheLandlord", "gomoku2", "", "go!x"] {
        assert_eq!(Kind::of(name), None, "{name}");
    }
}

#[test]
fn tictactoe_step_by_step() {
    let (b, _) = board(Kind::TicTacToe, "tictactoe");
    // X won on the judge's word: three X in a line on the last frame.
    let last = b.frames.last().unwrap();
    assert!(last.note.contains("X (player 0) wins"), "{}", last.note);
    let all: String = (0..b.frames.len())
        .map(|t| format!("step {t}\n{}", b.text(t)))
        .collect::<Vec<_>>()
        .join("\n");
    insta::assert_snapshot!(all);
}

#[test]
fn a_refused_move_leaves_the_board_and_says_why() {
    for (kind, name, said) in [
        (Kind::TicTacToe, "tictactoe-invalid", "INVALIDMOVE"),
        (Kind::Reversi, "reversi-invalid", "INVALID_MOVE"),
    ] {
        let (b, _) = board(kind, name);
        let n = b.frames.len();
        let (before, last) = (&b.frames[n - 2], &b.frames[n - 1]);
        assert_eq!(before.cells, last.cells, "{name}");
        assert!(
            last.note.contains("which the judge refused"),
            "{}",
            last.note
        );
        assert!(last.note.contains(said), "{}", last.note);
        insta::assert_snapshot!(name, some_frames(&b));
    }
}

#[test]
fn reversi_flips_passes_and_counts_as_the_judge() {
    let (b, body) = board(Kind::Reversi, "reversi");
    assert!(b.frames.iter().any(|f| f.note.contains("passed")));
    let last = b.frames.last().unwrap();
    let (black, white) = (count(last, FIRST), count(last, SECOND));
    // The judge gives the game to the one with more pieces.
    let scores = &body["scores"];
    assert_eq!(black > white, scores[0].as_f64() > scores[1].as_f64());
    // Every move adds one piece.
    for (t, f) in b.frames.iter().enumerate().skip(1) {
        let before = &b.frames[t - 1];
        let placed =
            count(f, FIRST) + count(f, SECOND) - count(before, FIRST) - count(before, SECOND);
        assert_eq!(placed, usize::from(!f.note.contains("passed")), "step {t}");
    }
    insta::assert_snapshot!(some_frames(&b));
}

#[test]
fn go_takes_what_the_judge_removes() {
    let (b, body) = board(Kind::Go, "go");
    let log = body["log"].as_array().unwrap();
    let mut took = 0;
    for t in 1..b.frames.len() {
        let display = &log[2 * t]["output"]["display"];
        let Some(removed) = display.get("remove").and_then(Value::as_array) else {
            continue;
        };
        let (before, after) = (&b.frames[t - 1], &b.frames[t]);
        for r in removed {
            let i = ((r["y"].as_i64().unwrap() - 1) * 8 + r["x"].as_i64().unwrap() - 1) as usize;
            assert_ne!(before.cells[i], EMPTY, "step {t}");
            assert_eq!(after.cells[i], EMPTY, "step {t}");
            took += 1;
        }
        let stones = |f: &Frame| count(f, FIRST) + count(f, SECOND);
        assert_eq!(
            stones(after),
            stones(before) + 1 - removed.len(),
            "step {t}"
        );
    }
    assert!(took > 0, "the log holds a capture");
    insta::assert_snapshot!(some_frames(&b));
}

#[test]
fn renju_swaps_the_colours_at_the_exchange() {
    let (b, _) = board(Kind::Renju, "renju");
    let (before, after) = (&b.frames[3], &b.frames[4]);
    assert!(after.note.contains("exchange"), "{}", after.note);
    assert_eq!((count(before, FIRST), count(before, SECOND)), (2, 1));
    assert_eq!((count(after, FIRST), count(after, SECOND)), (1, 2));
    insta::assert_snapshot!(some_frames(&b));
}

#[test]
fn every_game_of_the_judges_draws_to_its_end() {
    for (kind, name) in [
        (Kind::Gomoku, "gomoku"),
        (Kind::NoGo, "nogo"),
        (Kind::Amazons, "amazons"),
        (Kind::Ataxx, "ataxx"),
    ] {
        let (b, body) = board(kind, name);
        let log = body["log"].as_array().unwrap();
        for t in 1..b.frames.len() {
            let display = &log[2 * t]["output"]["display"];
            // The square the judge says the move went to holds the mover's piece.
            let (x, y) = match kind {
                Kind::Amazons | Kind::Ataxx => ("x1", "y1"),
                _ => ("x", "y"),
            };
            if let (Some(x), Some(y)) = (display[x].as_i64(), display[y].as_i64()) {
                let i = (y * kind.size() as i64 + x) as usize;
                let mover = if t % 2 == 1 { FIRST } else { SECOND };
                assert_eq!(b.frames[t].cells[i], mover, "{name} step {t}");
            }
        }
        if kind == Kind::Amazons {
            // One arrow a move.
            let last = b.frames.last().unwrap();
            assert_eq!(count(last, ARROW), b.frames.len() - 1);
        }
        insta::assert_snapshot!(name, some_frames(&b));
    }
}

#[test]
fn the_page_has_every_frame_as_its_changes() {
    let (b, _) = board(Kind::Reversi, "reversi");
    let page = b.page();
    assert_eq!(page["kind"], "reversi");
    assert_eq!(page["size"], 8);
    let frames = page["frames"].as_array().unwrap();
    assert_eq!(frames.len(), b.frames.len());
    // The start and the changes, applied in turn, are every frame.
    let mut cells: Vec<u8> = page["start"]
        .as_str()
        .unwrap()
        .bytes()
        .map(|c| c - b'0')
        .collect();
    for (f, frame) in frames.iter().zip(&b.frames) {
        let d = f["d"].as_array().unwrap();
        for pair in d.chunks(2) {
            cells[pair[0].as_u64().unwrap() as usize] = pair[1].as_u64().unwrap() as u8;
        }
        assert_eq!(cells, frame.cells);
        assert_eq!(f["n"], frame.note);
    }
}

#[test]
fn a_log_that_is_not_the_games_draws_what_it_can() {
    let body = serde_json::json!({"log": [
        {"output": {"command": "request", "content": {"0": {"x": -1, "y": -1}}}},
        {"0": {"response": "nonsense", "verdict": "OK"}},
        {"output": {"command": "request", "content": {"1": {}}}},
        {"1": {"verdict": "TLE"}},
        {"output": {"command": "finish", "content": {"0": 2, "1": 0},
                    "display": {"err": "INVALID_INPUT_VERDICT_TLE", "winner": 0}}},
    ]});
    let b = Board::of(Kind::Reversi, &body);
    assert_eq!(b.frames.len(), 3);
    assert!(
        b.frames[1].note.contains("not a move"),
        "{}",
        b.frames[1].note
    );
    assert!(
        b.frames[2].note.contains("white (player 1): TLE"),
        "{}",
        b.frames[2].note
    );
    assert!(
        b.frames[2].note.contains("INVALID_INPUT_VERDICT_TLE"),
        "{}",
        b.frames[2].note
    );
    assert_eq!(Board::of(Kind::Go, &serde_json::json!({})).frames.len(), 1);
}

/// A number of a move: on the board, near it, or at the ends of the range.
fn number() -> impl proptest::strategy::Strategy<Value = i64> {
    proptest::prop_oneof![
        -2i64..16,
        proptest::strategy::Just(i64::MIN),
        proptest::strategy::Just(i64::MAX),
        proptest::num::i64::ANY,
    ]
}

proptest::proptest! {
    /// A record is untrusted: whatever moves its log holds (any numbers, any shape), every
    /// game's board is drawn without a panic, one frame a step, each the board's size.
    #[test]
    fn any_log_draws_without_a_panic(
        moves in proptest::collection::vec(
            (0usize..2, proptest::collection::vec(number(), 0..7), 0u8..4),
            0..40,
        ),
    ) {
        let keys = ["x", "y", "x0", "y0", "x1", "y1", "x2", "y2"];
        let mut log = vec![serde_json::json!({"output": {"command": "request"}})];
        for (seat, numbers, shape) in &moves {
            // Placement keys, Amazons' and Ataxx's keys, and those on the board.
            let (names, small) = match shape {
                0 | 3 => (&keys[..], false),
                1 => (&keys[2..], false),
                _ => (&keys[2..], true),
            };
            let mv: serde_json::Map<String, Value> = numbers
                .iter()
                .zip(names)
                .map(|(n, k)| (k.to_string(), (if small { n % 8 } else { *n }).into()))
                .collect();
            let answer = if *shape == 3 && numbers.is_empty() {
                serde_json::json!({"verdict": "TLE"})
            } else {
                serde_json::json!({"response": mv, "verdict": "OK"})
            };
            log.push(serde_json::json!({ seat.to_string(): answer }));
            log.push(serde_json::json!({"output": {"command": "request"}}));
        }
        for kind in Kind::ALL {
            let b = Board::of(kind, &serde_json::json!({ "log": log }));
            proptest::prop_assert_eq!(b.frames.len(), moves.len() + 1);
            for t in 0..b.frames.len() {
                proptest::prop_assert_eq!(b.frames[t].cells.len(), kind.size() * kind.size());
                proptest::prop_assert!(b.text(t).lines().count() == kind.size() + 2);
            }
        }
    }
}

/// Go's judge reads a move by its linear index into rows of 10: every move of a real game
/// wrapped to `(x + 10, y - 1)` (or `(x - 10, y + 1)`) is the same stone there, and the board
/// draws the game the judge played, saying where the stone went.
#[test]
fn go_places_a_wrapped_move_where_the_judge_does() {
    let (plain, body) = board(Kind::Go, "go");
    let mut wrapped = body.clone();
    let mut changed = 0;
    for (i, answers) in wrapped["log"]
        .as_array_mut()
        .unwrap()
        .iter_mut()
        .enumerate()
        .skip(1)
        .step_by(2)
    {
        for (_, answer) in answers.as_object_mut().unwrap() {
            let r = &mut answer["response"];
            let (x, y) = (r["x"].as_i64().unwrap(), r["y"].as_i64().unwrap());
            if x < 1 {
                continue;
            }
            let (wx, wy) = if i % 4 == 1 {
                (x + 10, y - 1)
            } else {
                (x - 10, y + 1)
            };
            *r = serde_json::json!({"x": wx, "y": wy});
            changed += 1;
        }
    }
    assert!(changed > 10);
    let b = Board::of(Kind::Go, &wrapped);
    for (t, (a, w)) in plain.frames.iter().zip(&b.frames).enumerate() {
        assert_eq!(a.cells, w.cells, "step {t}: {}", w.note);
        assert!(!w.note.contains("leaves it out"), "step {t}: {}", w.note);
        assert!(!w.note.contains("NOT THE JUDGE'S"), "step {t}: {}", w.note);
    }
    assert!(
        b.frames[1].note.contains("which Go's judge places at"),
        "{}",
        b.frames[1].note
    );
}

/// A move the judge took that the board cannot draw: from that step on, every frame says the
/// board is no longer the judge's position.
#[test]
fn a_board_says_from_which_step_it_is_not_the_judges() {
    let mut body = log("tictactoe");
    body["log"][3]["1"]["response"] = serde_json::json!({"x": 7, "y": 0});
    let b = Board::of(Kind::TicTacToe, &body);
    assert!(
        !b.frames[1].note.contains("NOT THE JUDGE'S"),
        "{}",
        b.frames[1].note
    );
    for f in &b.frames[2..] {
        assert!(
            f.note.contains("NOT THE JUDGE'S POSITION from step 2 on"),
            "{}",
            f.note
        );
    }
    assert!(
        b.text(b.frames.len() - 1)
            .contains("NOT THE JUDGE'S POSITION")
    );
}
