//! Boards of Botzone's own games through the real `take6` binary, on two games written again
//! for these tests with the requests, responses and displays of botzone-local's judges
//! (`tests/games/tictactoe`, `tests/games/reversi`: Python judges strict about the log, strict
//! padding bots `first` that replay the game from their input and fail on anything the rules
//! refuse): a series verifies and `take6 replay` shows the board after every step, agreeing
//! with the judge (its winner by count, one piece a move); `take6 play` shows the person the
//! board after each step and why the game ended (the judge's INVALIDMOVE, on the person's
//! move).

mod common;

use std::fs;
use std::io::Write as _;
use std::path::{Path, PathBuf};
use std::process::Stdio;

use take6::record::read_games_jsonl;

use common::{assert_ok, copy_dir, take6_cmd, text};

fn game(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/games")
        .join(name)
}

/// A scratch folder with `game/` (a copy of the test game) and two copies of its padding bot
/// `first` in `bots/`.
fn game_arena(name: &str) -> tempfile::TempDir {
    let tmp = tempfile::tempdir().unwrap();
    copy_dir(&game(name), &tmp.path().join("game"));
    for bot in ["a", "b"] {
        copy_dir(
            &game(name).join("first"),
            &tmp.path().join("bots").join(bot),
        );
    }
    tmp
}

/// The counts line of each board `take6 replay` printed: (black or X, white or O).
fn counts(replay: &str) -> Vec<(usize, usize)> {
    replay
        .lines()
        .filter_map(|l| {
            let l = l.trim_start();
            let rest = l.strip_prefix("X black ").or(l.strip_prefix("X "))?;
            let (x, rest) = rest.split_once(", O ")?;
            let rest = rest.strip_prefix("white ").unwrap_or(rest);
            let (o, _) = rest.split_once(':')?;
            Some((x.parse().ok()?, o.parse().ok()?))
        })
        .collect()
}

#[test]
fn a_series_of_each_game_replays_with_its_board() {
    for (name, start) in [("reversi", 4), ("tictactoe", 0)] {
        let tmp = game_arena(name);
        let out = take6_cmd(tmp.path())
            .args(["run", "--game", "game", "--bots", "bots", "--games", "2"])
            .args(["--seed", "1"])
            .output()
            .unwrap();
        assert_ok(&out);
        assert_ok(
            &take6_cmd(tmp.path())
                .args(["verify", "--game", "game"])
                .output()
                .unwrap(),
        );
        take6::games::find(tmp.path().join("game").to_str().unwrap()).unwrap();
        let series = fs::canonicalize(tmp.path().join("results/latest")).unwrap();
        let file = fs::File::open(series.join("games.jsonl")).unwrap();
        let games = read_games_jsonl(std::io::BufReader::new(file)).unwrap();
        assert_eq!(games.len(), 2);
        for g in games {
            assert_eq!(g.void, None, "{name}");
            let body = g.body.as_ref().unwrap().value();
            let log = body["log"].as_array().unwrap();
            let out = take6_cmd(tmp.path())
                .args(["replay", "results/latest", &g.game.to_string()])
                .output()
                .unwrap();
            assert_ok(&out);
            let replay = text(&out.stdout);
            assert!(!replay.contains("leaves it out"), "{replay}");
            // A board after every output of the judge: the start, then every step.
            let boards = counts(&replay);
            assert_eq!(boards.len(), log.len().div_ceil(2), "{name}: {replay}");
            assert_eq!(boards[0], (start / 2, start / 2));
            for (t, pair) in boards.windows(2).enumerate() {
                let placed = (pair[1].0 + pair[1].1) - (pair[0].0 + pair[0].1);
                let passed = log[2 * t + 1].to_string().contains("\"x\":-1");
                assert_eq!(placed, usize::from(!passed), "{name} step {}", t + 1);
            }
            // The judge's winner has more pieces on the last board (Reversi), or the line
            // (TicTacToe: the winner moved last).
            let (x, o) = *boards.last().unwrap();
            let scores = &body["scores"];
            let first_won = scores[0].as_f64() > scores[1].as_f64();
            if name == "reversi" || scores[0] != scores[1] {
                assert_eq!(x > o, first_won, "{replay}");
            }
        }
    }
}

#[test]
fn a_person_sees_the_board_and_why_the_game_ended() {
    let tmp = game_arena("tictactoe");
    let mut child = take6_cmd(tmp.path())
        .args(["play", "--game", "game", "--name", "ann", "--seed", "3"])
        .args(["--against", "first"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut stdin = child.stdin.take().unwrap();
    // The same square twice: whoever moves first, the person's second (or first) (0, 0) is
    // onto a taken square.
    let _ = stdin.write_all(b"{\"x\":0,\"y\":0}\n{\"x\":0,\"y\":0}\n{\"x\":0,\"y\":0}\n");
    drop(stdin);
    let out = child.wait_with_output().unwrap();
    assert_ok(&out);
    let said = text(&out.stderr);
    // Who the person is, and their colour on the board.
    assert!(
        said.contains("you are player 0 of 2 (black: X on the board)")
            || said.contains("you are player 1 of 2 (white: O on the board)"),
        "{said}"
    );
    // The board, as the judge's coordinates label it, after the bot's or the person's move.
    assert!(said.contains("    0  1  2"), "{said}");
    assert!(said.contains(" 0 [X]") || said.contains(" 0 [O]"), "{said}");
    assert!(said.contains("judge's display: {\"x\":"), "{said}");
    assert!(
        said.contains("which the judge refused: INVALIDMOVE"),
        "{said}"
    );
    assert!(
        said.contains("the game is over: the judge finished it"),
        "{said}"
    );
    assert!(
        said.contains("the judge ended the game early: INVALIDMOVE"),
        "{said}"
    );
    assert!(said.contains("it ended on your move"), "{said}");
}
