//! Kingdomino through the real `take6` binary: strict readers of the CodinGame wire at 2, 3
//! and 4 players, faults that end a player's game, `take6 verify` on forged lines, `--resume`
//! after `kill -9`, and shards merged.

mod common;

use std::fs;
use std::path::Path;
use std::process::{Child, Command, Output, Stdio};
use std::time::{Duration, Instant};

use take6::games::kingdomino::GameLog;
use take6::games::kingdomino::game::Game;
use take6::record::GameRecord;

use common::{
    arena_as, assert_forgery_named, assert_ok, fixtures, records_in, series_dir, take6_cmd, text,
};

/// The flags of every Kingdomino series here: limits far above what the fixtures need (a
/// loaded machine must not turn a well-behaved bot into a fault).
fn series_flags(players: &str, games: &str, seed: &str) -> Vec<String> {
    [
        "run",
        "--game",
        "kingdomino",
        "--players",
        players,
        "--games",
        games,
        "--seed",
        seed,
        "--jobs",
        "2",
        "--first-reply-ms",
        "10000",
        "--reply-ms",
        "5000",
        "--grace-ms",
        "300",
    ]
    .map(String::from)
    .to_vec()
}

fn run(dir: &Path, players: &str, games: &str, seed: &str, extra: &[&str]) -> Output {
    take6_cmd(dir)
        .args(series_flags(players, games, seed))
        .args(extra)
        .output()
        .unwrap()
}

/// A record without what differs between two runs of the same game (times).
fn comparable(mut g: GameRecord) -> GameRecord {
    g.ms = 0;
    g.replies.clear();
    g
}

fn seat_of(game: &GameRecord, bot: &str) -> usize {
    game.players.iter().position(|p| p == bot).unwrap()
}

/// What a strict reader wrote in its working copy: one verdict per game it read to the end.
fn verdicts(series: &Path, bot: &str) -> Vec<String> {
    fs::read_to_string(series.join("work").join(bot).join("verdicts.txt"))
        .unwrap_or_default()
        .lines()
        .map(str::to_string)
        .collect()
}

/// Each seat's kingdom value without tie-break points, replayed from the record.
fn base_scores(g: &GameRecord) -> Vec<u32> {
    let moves = &GameLog::of(g).expect("a Kingdomino record").moves;
    Game::replay(g.seed, g.players.len(), moves)
        .unwrap()
        .base_scores()
}

/// Strict readers of the CodinGame Kingdomino wire (every line's shape and range,
/// their own kingdom against the grid they are sent, turn order and tile owners) play 100
/// games at each table size without a fault or a failed check, and the score each computes
/// of its own kingdom is the one the controller recorded.
#[test]
fn strict_readers_play_100_games_at_2_3_and_4_players_without_a_fault() {
    for players in ["2", "3", "4"] {
        let tmp = arena_as(&[
            ("strict-a", "strict-kingdomino"),
            ("strict-b", "strict-kingdomino"),
        ]);
        let out = run(tmp.path(), players, "100", "2211", &[]);
        assert_ok(&out);
        let series = series_dir(tmp.path());
        let games = records_in(&series);
        assert_eq!(games.len(), 100, "{players} players");
        for g in &games {
            g.check().unwrap_or_else(|e| panic!("game {}: {e}", g.game));
            assert_eq!(
                g.rounds[0].invalid,
                [],
                "{players} players, game {}",
                g.game
            );
            assert_eq!(g.players.len(), players.parse::<usize>().unwrap());
        }
        for bot in ["strict-a", "strict-b"] {
            let mut said: Vec<String> = verdicts(&series, bot);
            let mut recorded: Vec<String> = games
                .iter()
                .map(|g| format!("ok {}", base_scores(g)[seat_of(g, bot)]))
                .collect();
            said.sort();
            recorded.sort();
            assert_eq!(said, recorded, "{bot} at {players} players");
        }
        // The PICK messages are kept in the record.
        let log = GameLog::of(&games[0]).unwrap();
        let messages = log.moves.iter();
        assert!(
            messages
                .filter_map(|m| m.message.as_deref())
                .any(|m| m.starts_with("hello from strict")),
            "messages kept"
        );
        let verify = take6_cmd(tmp.path()).args(["verify"]).output().unwrap();
        assert_ok(&verify);
        // Higher is better: the leaderboard's first row has the highest mean.
        let board = fs::read_to_string(series.join("leaderboard.csv")).unwrap();
        let means: Vec<f64> = board
            .lines()
            .skip(1)
            .map(|l| l.split(',').nth(5).unwrap().parse().unwrap())
            .collect();
        assert!(means.windows(2).all(|w| w[0] >= w[1]), "{board}");
    }
}

/// A strict reader given a grid that is not its kingdom fails: the test above would catch a
/// controller that sent the wrong grid.
#[test]
fn the_strict_reader_fails_on_a_grid_that_is_not_its_own() {
    let tmp = tempfile::tempdir().unwrap();
    let launch = fixtures().join("strict-kingdomino/launch");
    // Init, then a turn-1 block of two players whose own grid lacks the castle.
    let empty = "_0".repeat(9);
    let mut block = String::from("2\n4\n");
    for y in 0..18 {
        block.push_str(&empty);
        block.push('\n');
        let _ = y;
    }
    for _ in 0..4 {
        block.push_str("0 _0 _0 -1 0\n");
    }
    for id in [3, 9, 20, 31] {
        block.push_str(&format!("{id} c0 c0 -1\n"));
    }
    let mut child = Command::new(launch)
        .current_dir(tmp.path())
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    use std::io::Write;
    child
        .stdin
        .take()
        .unwrap()
        .write_all(block.as_bytes())
        .unwrap();
    let out = child.wait_with_output().unwrap();
    assert_eq!(out.status.code(), Some(3), "{}", text(&out.stderr));
    let verdict = fs::read_to_string(tmp.path().join("verdicts.txt")).unwrap();
    assert!(verdict.starts_with("FAIL"), "{verdict}");
}

/// A bad PICK and a malformed PUT end that player's game, as the statement says: recorded as
/// faults with their reasons, the player is asked nothing more, its kingdom still scores, and
/// the rating ranks it last in that game.
#[test]
fn a_bad_pick_and_a_malformed_put_end_the_players_game() {
    let tmp = arena_as(&[
        ("bad-pick", "kd-bad-pick"),
        ("garbage", "kd-garbage"),
        ("strict", "strict-kingdomino"),
    ]);
    // Each game's own fault is the subject: no bot sits out (--bench-after 0).
    let out = run(tmp.path(), "4", "6", "77", &["--bench-after", "0"]);
    assert_ok(&out);
    let series = series_dir(tmp.path());
    let games = records_in(&series);
    assert_eq!(games.len(), 6);
    for g in &games {
        g.check().unwrap();
        let faults = |bot: &str| -> Vec<(u8, String)> {
            let seat = seat_of(g, bot);
            g.rounds[0]
                .invalid
                .iter()
                .filter(|f| f.seat == seat)
                .map(|f| (f.turn, f.kind.clone()))
                .collect()
        };
        assert_eq!(faults("bad-pick"), [(3, "illegal_pick".to_string())]);
        assert_eq!(faults("garbage"), [(2, "bad_reply".to_string())]);
        assert_eq!(faults("strict"), []);
        let moves = &GameLog::of(g).unwrap().moves;
        let seat = seat_of(g, "garbage");
        let after = moves
            .iter()
            .skip_while(|m| !(m.eliminated && m.seat == seat));
        assert_eq!(
            after.filter(|m| m.seat == seat).count(),
            1,
            "never asked again"
        );
        let reason = &g.rounds[0]
            .invalid
            .iter()
            .find(|f| f.kind == "illegal_pick")
            .unwrap()
            .reason;
        assert!(reason.contains("not free to pick"), "{reason}");
    }
    let summary = text(&out.stdout);
    assert!(summary.contains("garbage"), "{summary}");
    assert_eq!(verdicts(&series, "strict").len(), 6);
}

/// An edit of a record, for the forgery test.
type Forgery = Box<dyn Fn(&mut GameRecord)>;

/// `take6 verify` re-derives every Kingdomino game: a forged score, a tile put on the castle
/// and a pick of a taken tile are each caught, naming the line; so is a record that names a
/// game this take6 does not know (a record holds its game's name, read as it is).
#[test]
fn verify_catches_forged_kingdomino_lines() {
    let tmp = tempfile::tempdir().unwrap();
    assert_ok(
        &take6_cmd(tmp.path())
            .args(series_flags("3", "10", "5150"))
            .arg("--builtins-only")
            .output()
            .unwrap(),
    );
    let series = series_dir(tmp.path());
    let jsonl = series.join("games.jsonl");
    let original = fs::read(&jsonl).unwrap();
    let id = series.file_name().unwrap().to_str().unwrap().to_string();
    let edits: [(&str, Forgery); 4] = [
        ("scores are", Box::new(|g| g.rounds[0].scores[1] += 2u32)),
        (
            "the PUT is recorded as",
            Box::new(|g| {
                let mut log = GameLog::of(g).unwrap();
                let placed = (log.moves.iter_mut())
                    .filter(|m| {
                        m.outcome == Some(take6::games::kingdomino::game::PutOutcome::Placed)
                    })
                    .nth(3)
                    .unwrap();
                placed.put = Some(take6::games::kingdomino::kingdom::Placement::new(4, 4, 1));
                g.body = Some(log.into_body());
            }),
        ),
        (
            "which was not free",
            Box::new(|g| {
                let mut log = GameLog::of(g).unwrap();
                let first = log.moves[0].pick;
                log.moves[1].pick = first;
                g.body = Some(log.into_body());
            }),
        ),
        (
            "no game called 'chess'",
            Box::new(|g| g.rules = take6::record::GameName::new("chess")),
        ),
    ];
    for (says, edit) in edits {
        assert_forgery_named(&jsonl, &original, &id, 4, edit, says, || {
            take6_cmd(tmp.path()).args(["verify"]).output().unwrap()
        });
    }
}

/// A Kingdomino series killed with `kill -9` and resumed plays every game once, and its games
/// are those of an uninterrupted run with the same seed; `--resume --game take6` is refused.
#[test]
fn kill_9_then_resume_equals_an_uninterrupted_run() {
    let bots = [
        ("strict-a", "strict-kingdomino"),
        ("strict-b", "strict-kingdomino"),
    ];
    let whole = arena_as(&bots);
    assert_ok(&run(whole.path(), "3", "40", "4242", &[]));
    let reference: Vec<GameRecord> = records_in(&series_dir(whole.path()))
        .into_iter()
        .map(comparable)
        .collect();

    let tmp = arena_as(&bots);
    let mut child: Child = take6_cmd(tmp.path())
        .args(series_flags("3", "40", "4242"))
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let started = Instant::now();
    loop {
        let lines = fs::read_to_string(tmp.path().join("results/latest/games.jsonl"))
            .map(|s| s.lines().count())
            .unwrap_or(0);
        if lines >= 5 || started.elapsed() > Duration::from_secs(120) {
            break;
        }
        std::thread::sleep(Duration::from_millis(20));
    }
    child.kill().unwrap();
    child.wait().unwrap();
    let series = series_dir(tmp.path());
    let before = records_in(&series).len();
    assert!(before < 40, "killed part-way ({before} games)");

    let refused = take6_cmd(tmp.path())
        .args(["run", "--resume", "--game", "take6"])
        .output()
        .unwrap();
    assert!(!refused.status.success());
    assert!(
        text(&refused.stderr).contains("game"),
        "{}",
        text(&refused.stderr)
    );

    let resumed = take6_cmd(tmp.path())
        .args(["run", "--resume"])
        .output()
        .unwrap();
    assert_ok(&resumed);
    let after: Vec<GameRecord> = records_in(&series).into_iter().map(comparable).collect();
    assert_eq!(after, reference);
    assert_ok(&take6_cmd(tmp.path()).args(["verify"]).output().unwrap());
}

/// Two shards of a Kingdomino series merged are the series one machine plays.
#[test]
fn two_shards_merged_equal_a_single_run() {
    let tmp = tempfile::tempdir().unwrap();
    let flags = |results: &str| {
        let mut f = series_flags("4", "30", "123456789012345678");
        f.extend(["--builtins-only", "--results", results].map(String::from));
        f
    };
    assert_ok(&take6_cmd(tmp.path()).args(flags("whole")).output().unwrap());
    for (i, results) in ["s0", "s1"].iter().enumerate() {
        let shard = format!("{i}/2");
        assert_ok(
            &take6_cmd(tmp.path())
                .args(flags(results))
                .args(["--shard", &shard])
                .output()
                .unwrap(),
        );
    }
    let merged = take6_cmd(tmp.path())
        .args(["merge", "--results", "merged", "s0/latest", "s1/latest"])
        .output()
        .unwrap();
    assert_ok(&merged);
    let whole: Vec<GameRecord> =
        records_in(&fs::canonicalize(tmp.path().join("whole/latest")).unwrap())
            .into_iter()
            .map(comparable)
            .collect();
    let joined: Vec<GameRecord> =
        records_in(&fs::canonicalize(tmp.path().join("merged/latest")).unwrap())
            .into_iter()
            .map(comparable)
            .collect();
    assert_eq!(whole, joined);
    let board =
        |d: &str| fs::read_to_string(tmp.path().join(d).join("latest/leaderboard.csv")).unwrap();
    assert_eq!(board("whole"), board("merged"));
}

/// A bot's `bot.toml` may say which games it plays: a Kingdomino bot is skipped, with the
/// reason and the fix, from a Take 6 series and plays in a Kingdomino one; a bot that does not
/// say plays whatever the series plays.
#[test]
fn bot_toml_games_choose_the_series_a_bot_plays_in() {
    let tmp = arena_as(&[("kd", "strict-kingdomino"), ("t6", "strict-default")]);
    fs::write(
        tmp.path().join("bots/kd/bot.toml"),
        "games = [\"kingdomino\"]\n",
    )
    .unwrap();
    fs::write(tmp.path().join("bots/t6/bot.toml"), "games = [\"take6\"]\n").unwrap();
    let out = take6_cmd(tmp.path())
        .args(["run", "--games", "2", "--seed", "9", "--players", "3"])
        .output()
        .unwrap();
    let said = text(&out.stderr);
    assert!(
        said.contains("kd")
            && said.contains("it plays kingdomino")
            && said.contains("--game kingdomino"),
        "{said}"
    );
    let manifest = fs::read_to_string(series_dir(tmp.path()).join("series.toml")).unwrap();
    assert!(manifest.contains("it plays kingdomino"), "{manifest}");
    assert!(
        records_in(&series_dir(tmp.path()))
            .iter()
            .all(|g| g.players.contains(&"t6".to_string()))
    );

    let out = run(tmp.path(), "2", "2", "9", &[]);
    let said = text(&out.stderr);
    assert!(said.contains("it plays take6"), "{said}");
    let games = records_in(&series_dir(tmp.path()));
    assert_eq!(games.len(), 2);
    for g in &games {
        assert!(g.players.contains(&"kd".to_string()) && g.rounds[0].invalid.is_empty());
    }
}

/// `take6 play --game kingdomino`: a person at the keyboard sees the kingdoms, the tiles and
/// the legal placements numbered, is asked again with the reason for a bad answer, plays a
/// whole game without a fault and sees the final scores as recorded.
#[test]
fn a_person_plays_kingdomino_at_the_keyboard() {
    use std::io::Write as _;
    let tmp = arena_as(&[("strict", "strict-kingdomino")]);
    // A placement prompt takes "1" (the first legal placement); a pick prompt waits for the
    // first free tile in the count from 1 to 48. Numbers out of the list are refused.
    let input: String = (0..40)
        .map(|_| "1\n".to_string() + &(1..=48).map(|n| format!("{n}\n")).collect::<String>())
        .collect();
    let mut child = take6_cmd(tmp.path())
        .args([
            "play",
            "--game",
            "kingdomino",
            "--name",
            "ann",
            "--seed",
            "31",
            "--against",
        ])
        .args(["strict", "greedy", "random"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut stdin = child.stdin.take().unwrap();
    // The game may end before all the input is read.
    let _ = stdin.write_all(input.as_bytes());
    drop(stdin);
    let out = child.wait_with_output().unwrap();
    assert_ok(&out);
    let stdout = text(&out.stdout);
    let g = &records_in(&fs::canonicalize(tmp.path().join("results/plays/latest")).unwrap())[0];
    let mut players = g.players.clone();
    players.sort();
    assert_eq!(players, ["ann", "greedy#1", "random#1", "strict"]);
    assert_eq!(g.rounds[0].invalid, [], "{stdout}");
    g.check().unwrap();
    assert!(
        stdout.contains("ann (you)") && stdout.contains("Legal placements"),
        "{stdout}"
    );
    assert!(stdout.contains("is not free to pick"), "a refusal says why");
    let finals = g
        .players
        .iter()
        .zip(&g.rounds[0].scores)
        .map(|(p, s)| format!("{p} {s}"))
        .collect::<Vec<_>>()
        .join(", ");
    assert!(
        stdout.contains(&format!(
            "Final scores (tie-break points included): {finals}"
        )),
        "{stdout}"
    );
    let ann = seat_of(g, "ann");
    let log = GameLog::of(g).unwrap();
    let placed = log.moves.iter().filter(|m| {
        m.seat == ann && m.outcome == Some(take6::games::kingdomino::game::PutOutcome::Placed)
    });
    assert!(placed.count() >= 6, "the person placed tiles");
}

/// `take6 check --game kingdomino` plays a bot against the game's built-ins and explains its
/// fault: what it was answering, both lines of its reply, what a correct reply is.
#[test]
fn check_explains_a_kingdomino_fault() {
    let tmp = tempfile::tempdir().unwrap();
    let bot = fixtures().join("kd-garbage");
    let out = take6_cmd(tmp.path())
        .args([
            "check",
            "--game",
            "kingdomino",
            "--games",
            "1",
            "--seed",
            "1234567890123456789",
        ])
        .arg(&bot)
        .output()
        .unwrap();
    assert!(!out.status.success());
    let said = text(&out.stdout);
    for part in [
        "putting and picking a tile",
        "< HELLO",
        "< PICK",
        "`PUT x y rotation`",
        "higher is better",
        "greedy#",
    ] {
        assert!(said.contains(part), "{part} in {said}");
    }
    let good = take6_cmd(tmp.path())
        .args([
            "check",
            "--game",
            "kingdomino",
            "--games",
            "2",
            "--first-reply-ms",
            "10000",
        ])
        .args(["--reply-ms", "5000"])
        .arg(fixtures().join("strict-kingdomino"))
        .output()
        .unwrap();
    assert_ok(&good);
}

/// Both lines are due on every turn, with the statement's fillers where a value is
/// ignored. `PICK -1` on the last turn (any well-formed PICK) is accepted, and the last PUT
/// it comes with still counts: no fault, the last sequence is a move, not an elimination.
#[test]
fn the_last_turns_pick_minus_one_is_accepted_and_its_put_still_counts() {
    let tmp = arena_as(&[("filler", "kd-filler"), ("strict", "strict-kingdomino")]);
    let out = run(tmp.path(), "3", "2", "41", &[]);
    assert_ok(&out);
    let series = series_dir(tmp.path());
    let lasts = verdicts(&series, "filler");
    assert!(!lasts.iter().any(|v| v.starts_with("FAIL")), "{lasts:?}");
    assert_eq!(lasts, ["last -1", "last -1"], "one PICK -1 a game");
    for g in records_in(&series) {
        assert!(
            g.rounds[0].invalid.is_empty(),
            "game {}: {:?}",
            g.game,
            g.rounds[0].invalid
        );
        let seat = seat_of(&g, "filler");
        let moves = &GameLog::of(&g).unwrap().moves;
        let last = moves.iter().rfind(|m| m.seat == seat).unwrap();
        assert_eq!(last.turn, 13);
        assert!(!last.eliminated && last.outcome.is_some(), "{last:?}");
        assert_eq!(last.message.as_deref(), Some("nothing left to pick"));
    }
}

/// A bot that sends one line of the two (only the PICK on turn 1) and then waits for
/// input is told at once that it sent 1 of 2 lines, not that it may not be flushing, and
/// `check`'s correct reply for turn 1 names the filler PUT.
#[test]
fn a_one_line_reply_is_said_at_once_as_one_of_two_lines() {
    let tmp = tempfile::tempdir().unwrap();
    let started = Instant::now();
    let out = take6_cmd(tmp.path())
        .args(["check", "--game", "kingdomino", "--games", "1"])
        .args(["--first-reply-ms", "10000", "--reply-ms", "5000"])
        .arg(fixtures().join("kd-one-line"))
        .output()
        .unwrap();
    assert!(!out.status.success());
    let said = text(&out.stdout);
    assert!(
        said.contains("got 1 of 2 lines, then it waited for input"),
        "{said}"
    );
    assert!(!said.contains("flushing"), "{said}");
    assert!(
        said.contains("`PUT 0 0 0` (turn 1 has nothing to place"),
        "{said}"
    );
    // The wall-clock net of a 10 s first reply is a minute; the idle bot is seen in about 1 s.
    assert!(
        started.elapsed() < Duration::from_secs(20),
        "{:?}",
        started.elapsed()
    );
}

/// A bot whose every PUT breaks the connection rule never faults (each tile is only
/// discarded), and `check` does not call it OK: it says how many placements were refused, by
/// which rule, and the first with its move. A bot that loses only some tiles passes with a note.
#[test]
fn check_fails_a_bot_whose_every_placement_is_refused_and_says_why() {
    let tmp = tempfile::tempdir().unwrap();
    let check = |bot: &str| {
        take6_cmd(tmp.path())
            .args([
                "check",
                "--game",
                "kingdomino",
                "--games",
                "2",
                "--seed",
                "77",
            ])
            .args(["--first-reply-ms", "10000", "--reply-ms", "5000"])
            .arg(fixtures().join(bot))
            .output()
            .unwrap()
    };
    let out = check("kd-disconnected");
    let said = text(&out.stdout);
    assert_eq!(out.status.code(), Some(1), "{said}");
    assert!(!said.contains("OK:"), "{said}");
    // Every tile it had to place, all for the connection rule.
    let refused = refused_counts(&said);
    assert!(said.contains("placements ("), "{said}");
    assert!(
        refused.0 > 0 && refused.0 == refused.1 && refused.0 == refused.2,
        "{said}"
    );
    // Replies, not lines: a PUT and a PICK are one reply, the first of each game apart.
    assert!(said.contains("limit 10000 ms (2 replies)"), "{said}");
    assert!(said.contains("limit 5000 ms (24 replies)"), "{said}");
    for part in [
        "the first, in game 0, turn 2: PUT 0 0 0 (tile ",
        "neither square touches the castle",
        "FAILED: no fault in 2 games, but the rules refused every one of its placements.",
    ] {
        assert!(said.contains(part), "{part} in {said}");
    }
    // kd-filler puts every tile at (4, 3): the first fits, the later ones overlap it.
    let out = check("kd-filler");
    let said = text(&out.stdout);
    assert_ok(&out);
    assert!(said.contains("broke no overlap"), "{said}");
    assert!(said.contains("OK: no fault in 2 games, but "), "{said}");
}

/// The numbers of `check`'s line of refused moves: refused, judged, and refused by the first
/// rule named (`… 24 of 24 placements (24 broke the connection rule).`).
fn refused_counts(said: &str) -> (usize, usize, usize) {
    let line = said
        .lines()
        .find(|l| l.starts_with("Refused by the rules"))
        .unwrap_or_else(|| panic!("no refusals in {said}"));
    let tail = line.split("lost): ").nth(1).unwrap();
    let numbers: Vec<usize> = tail
        .split(|c: char| !c.is_ascii_digit())
        .filter(|w| !w.is_empty())
        .map(|w| w.parse().unwrap())
        .collect();
    (numbers[0], numbers[1], numbers[2])
}

/// A person who ends `take6 play` with Ctrl-D (end of input) is told their kingdom
/// still scores, and the summary lists no fault log for them: leaving is no bot's fault.
#[test]
fn leaving_play_with_ctrl_d_lists_no_fault_of_the_person() {
    let tmp = tempfile::tempdir().unwrap();
    fs::create_dir_all(tmp.path().join("bots")).unwrap();
    let out = take6_cmd(tmp.path())
        .args(["play", "--game", "kingdomino", "--seed", "31", "--against"])
        .args(["greedy", "random"])
        .stdin(Stdio::null())
        .output()
        .unwrap();
    assert_ok(&out);
    let stdout = text(&out.stdout);
    assert!(stdout.contains("You left the game"), "{stdout}");
    assert!(
        !stdout.contains("Faults, with each game's stderr"),
        "{stdout}"
    );
    assert!(!stdout.contains("you: 1 fault"), "{stdout}");
}
