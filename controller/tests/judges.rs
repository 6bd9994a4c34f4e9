//! Botzone's judges as students meet them, through the real `take6` binary, on the
//! test game `tests/games/ledger` (a Python judge strict about the log, whose scores are
//! fractions and negatives and which asks no player for some steps after each round) with its
//! strict players `high` and `low`: scores ranked as the judge gave them and carried exactly
//! through the record, the leaderboard, verify and the report; steps that ask no one played as
//! botzone-local's runner plays them, and a judge that asks no one for ever voids its game;
//! `take6 check` fails over a void game; verify says how far it is when it runs the judge
//! again, and what it needs (`--game`) once.

mod common;

use std::collections::BTreeMap;
use std::fs;
use std::path::{Path, PathBuf};

use take6::record::{GameRecord, Score};
use tempfile::TempDir;

use common::{assert_ok, copy_dir, records_in, series_dir, take6, text};

/// The test game's folder.
fn ledger() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/games/ledger")
}

/// A scratch folder with `game/` (a copy of the ledger, its initdata's `idle` as given) and
/// `bots/` holding copies of its players `high` (answers 3) and `low` (answers 1).
fn ledger_arena(idle: i64) -> TempDir {
    let tmp = tempfile::tempdir().unwrap();
    let game = tmp.path().join("game");
    copy_dir(&ledger(), &game);
    let toml = fs::read_to_string(game.join("game.toml")).unwrap();
    let toml = toml.replace("idle = 2 }", &format!("idle = {idle} }}"));
    fs::write(game.join("game.toml"), toml).unwrap();
    for bot in ["high", "low"] {
        copy_dir(&game.join(bot), &tmp.path().join("bots").join(bot));
    }
    tmp
}

fn records(series: &Path) -> Vec<GameRecord> {
    take6::games::find(ledger().to_str().unwrap()).unwrap();
    records_in(series)
}

fn leaderboard(series: &Path) -> BTreeMap<String, BTreeMap<String, String>> {
    let mut reader = csv::Reader::from_path(series.join("leaderboard.csv")).unwrap();
    reader
        .deserialize::<BTreeMap<String, String>>()
        .map(Result::unwrap)
        .map(|row| (row["bot"].clone(), row))
        .collect()
}

/// A judge's scores are ranked as it gave them (1.38 and -1.12, as
/// Python prints `3 * 1.25 - 2.37` and `1.25 - 2.37`), never a void game; the envelope, the
/// leaderboard, verify and the report carry them exactly. Each round is followed by two steps
/// that ask no player, answered `{}` (the judge fails on anything else), and the series
/// verifies.
#[test]
fn fractional_and_negative_scores_rank_as_the_judge_gave_them() {
    let tmp = ledger_arena(2);
    let out = take6(
        tmp.path(),
        &["run", "--game", "game", "--games", "4", "--seed", "3"],
    );
    assert_ok(&out);
    let series = series_dir(tmp.path());
    let games = records(&series);
    assert_eq!(games.len(), 4);
    let mut sums: BTreeMap<String, Score> = BTreeMap::new();
    for g in &games {
        assert_eq!(g.void, None, "game {} is void", g.game);
        let body = g.body.as_ref().unwrap().value();
        let envelope = serde_json::to_string(&g.rounds[0].scores).unwrap();
        assert_eq!(envelope, body["scores"].to_string(), "game {}", g.game);
        for (seat, name) in g.players.iter().enumerate() {
            let want = if name == "high" { "1.38" } else { "-1.12" };
            assert_eq!(g.rounds[0].scores[seat].to_string(), want);
            *sums.entry(name.clone()).or_default() += g.rounds[0].scores[seat];
        }
        // The steps that asked no one: logged as `{}`, as botzone-local's runner logs them.
        let log = body["log"].as_array().unwrap();
        let idle: Vec<&serde_json::Value> = (1..log.len())
            .step_by(2)
            .map(|i| &log[i])
            .filter(|r| r.as_object().is_some_and(|m| m.is_empty()))
            .collect();
        assert_eq!(idle.len(), 2, "game {}: {}", g.game, body["log"]);
    }
    let board = leaderboard(&series);
    assert_eq!(board["high"]["rank"], "1");
    assert_eq!(board["low"]["rank"], "2");
    for bot in ["high", "low"] {
        assert_eq!(board[bot]["total_score"], sums[bot].to_string(), "{bot}");
        assert_eq!(board[bot]["void"], "0");
    }
    assert_eq!(board["high"]["mean_score"], "1.380");
    assert_eq!(board["low"]["mean_score"], "-1.120");
    let report = fs::read_to_string(series.join("report.html")).unwrap();
    assert!(
        report.contains("\"scores\":[1.38,-1.12]") || report.contains("\"scores\":[-1.12,1.38]"),
        "the report's games carry the judge's scores"
    );
    // Item 8: the report's settings name the game folder, never this machine's path to it.
    let folder = fs::canonicalize(tmp.path().join("game")).unwrap();
    assert!(!report.contains(folder.to_str().unwrap()));
    assert!(report.contains("game (a game folder)"));
    // Item 10: replay begins with the players and the result.
    let g = &games[0];
    let n = g.game.to_string();
    let replay = take6(tmp.path(), &["replay", "results/latest", &n]);
    assert_ok(&replay);
    let shown = text(&replay.stdout);
    let head = format!(
        "game {n} of ledger: player 0 {}, player 1 {}",
        g.players[0], g.players[1]
    );
    assert!(shown.contains(&head), "{shown}");
    let result = format!(
        "result: scores {} {}, {} {}",
        g.players[0], g.rounds[0].scores[0], g.players[1], g.rounds[0].scores[1]
    );
    assert!(shown.contains(&result), "{shown}");
    let verify = take6(tmp.path(), &["verify", "--game", "game", "results/latest"]);
    assert_ok(&verify);
    // Item 7: the judge run again over every game says how far it is.
    let said = text(&verify.stderr);
    for done in 1..=4 {
        let line =
            format!("take6: verify: {done} of 4 games checked, the judge run again over each");
        assert!(said.contains(&line), "{said}");
    }
    // Without --game, the one cause and its fix are said once, not once per game.
    let verify = take6(tmp.path(), &["verify", "results/latest"]);
    assert_eq!(verify.status.code(), Some(1));
    let said = text(&verify.stdout);
    assert_eq!(
        said.matches("the judge was not run again").count(),
        1,
        "{said}"
    );
    assert!(said.contains("the judge was not run again for any of its 4 games: a results folder chooses no code to run; give the game folder with --game PATH"), "{said}");
    assert!(!text(&verify.stderr).contains("games checked"));
    // A forged score, a fraction away from the judge's, is caught.
    let jsonl = series.join("games.jsonl");
    let pristine = fs::read(&jsonl).unwrap();
    let name = series.file_name().unwrap().to_string_lossy().into_owned();
    common::assert_forgery_named(
        &jsonl,
        &pristine,
        &name,
        2,
        |g| g.rounds[0].scores[0] = Score::new(g.rounds[0].scores[0].get() + 0.01).unwrap(),
        "are not the judge's",
        || take6(tmp.path(), &["verify", "--game", "game", "results/latest"]),
    );
}

/// A judge that asks no player for ever (here after the first round) voids
/// its game, with the reason, instead of hanging the series; verify runs it again and agrees.
#[test]
fn a_judge_that_asks_no_one_for_ever_voids_its_game() {
    let tmp = ledger_arena(-1);
    let out = take6(
        tmp.path(),
        &["run", "--game", "game", "--games", "1", "--seed", "3"],
    );
    assert_ok(&out);
    let series = series_dir(tmp.path());
    let games = records(&series);
    let why = games[0].void.as_deref().unwrap_or_default();
    assert!(
        why.contains("asked no player in more than 200 steps in a row"),
        "{why}"
    );
    let verify = take6(tmp.path(), &["verify", "--game", "game", "results/latest"]);
    assert_ok(&verify);
}

/// `take6 check` of a bot fails when a game of the check was void, and
/// prints the judge's reason; so does the check of the judge alone.
#[test]
fn a_check_with_a_void_game_fails_with_the_judges_reason() {
    let tmp = ledger_arena(-1);
    for args in [
        &["check", "--game", "game", "--games", "1", "bots/high"][..],
        &["check", "--game", "game", "--games", "1"][..],
    ] {
        let out = take6(tmp.path(), args);
        let said = text(&out.stdout);
        assert_eq!(out.status.code(), Some(1), "{args:?}: {said}");
        assert!(
            said.contains("asked no player in more than 200 steps in a row"),
            "{args:?}: {said}"
        );
        assert!(said.contains("FAILED"), "{args:?}: {said}");
        assert!(!said.contains("OK: "), "{args:?}: {said}");
        // Item 10: a Botzone game's built-ins are its padding bots, in every line.
        let all = said + &text(&out.stderr);
        assert!(!all.contains("built-in"), "{args:?}: {all}");
    }
    let out = take6(tmp.path(), &["check", "--game", "game", "--games", "1"]);
    let all = text(&out.stdout) + &text(&out.stderr);
    assert!(all.contains("2 padding bots only"), "{all}");
    // The same check of a judge that finishes passes.
    let tmp = ledger_arena(0);
    let out = take6(
        tmp.path(),
        &["check", "--game", "game", "--games", "1", "bots/high"],
    );
    assert_ok(&out);
    assert!(text(&out.stdout).contains("OK: no fault in 1 game"));
}
