//! A game whose judge speaks Botzone's protocol, through the real `take6` binary: the test game
//! `tests/games/duel` (a Python judge strict about the log) with strict bots in C and Python in
//! both of Botzone's modes (started afresh each turn, kept running), faults of every kind
//! reaching the judge as Botzone's verdicts, judges that fail voiding their games, `take6
//! verify` re-running the judge (a forged score, a forged response, a judge that is not
//! deterministic), `kill -9` then `--resume`, shards merged, `bot.toml` `games`, `take6 check`
//! and `take6 play`.

mod common;

use std::collections::BTreeMap;
use std::fs;
use std::io::BufReader;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};
use std::time::{Duration, Instant};

use serde_json::json;
use take6::record::{Body, GameRecord, read_games_jsonl};
use tempfile::TempDir;

use common::{
    assert_forgery_named, assert_ok, copy_dir, fixtures, records_in, series_dir, take6_cmd, text,
};

/// The test game's folder.
fn duel() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/games/duel")
}

/// Limits far above what the fixtures need (10x Python's), for every bot.
const GENEROUS: &str =
    "\n[limits]\nfirst_turn_ms = 20000\nturn_ms = 20000\nkept_running_ms = 20000\n";

/// A scratch folder with `game/` (a copy of the duel, its `game.toml` with `extra` appended)
/// and `bots/` holding copies of fixtures: `(name, fixture, kept running)`.
fn duel_arena(bots: &[(&str, &str, bool)], extra: &str) -> TempDir {
    let tmp = tempfile::tempdir().unwrap();
    copy_dir(&duel(), &tmp.path().join("game"));
    fs::create_dir_all(tmp.path().join("bots")).unwrap();
    let toml = tmp.path().join("game/game.toml");
    let text = fs::read_to_string(&toml).unwrap() + extra;
    fs::write(&toml, text).unwrap();
    for (name, fixture, keep) in bots {
        let dir = tmp.path().join("bots").join(name);
        copy_dir(&fixtures().join(fixture), &dir);
        if *keep {
            // The fixture asks to be kept running; Botzone's bot setting allows it.
            fs::write(dir.join("keep"), "").unwrap();
            fs::write(dir.join("bot.toml"), "keep_running = true\n").unwrap();
        }
    }
    tmp
}

/// A game folder `game/` of the duel with `rounds` rounds and this `[limits]` table, its
/// padding bot kept or not.
fn duel_toml(tmp: &Path, rounds: u32, limits: &str, padding: bool) {
    let padding = if padding {
        "padding = [\"cycler\"]\n"
    } else {
        ""
    };
    fs::write(
        tmp.join("game/game.toml"),
        format!(
            "name = \"duel\"\nplayers = 2\ninitdata = {{ rounds = {rounds} }}\n{padding}\
             [judge]\ntime_ms = 5000\n[limits]\n{limits}\n"
        ),
    )
    .unwrap();
    if !padding.is_empty() {
        return;
    }
    fs::remove_dir_all(tmp.join("game/cycler")).unwrap();
}

/// A bot folder `bots/NAME` whose `launch` is the shell script `body`.
fn script_bot(tmp: &Path, name: &str, body: &str) {
    use std::os::unix::fs::PermissionsExt;
    let dir = tmp.join("bots").join(name);
    fs::create_dir_all(&dir).unwrap();
    let launch = dir.join("launch");
    fs::write(&launch, format!("#!/bin/sh\n{body}\n")).unwrap();
    fs::set_permissions(&launch, fs::Permissions::from_mode(0o755)).unwrap();
}

fn series_flags(games: &str, seed: &str) -> Vec<String> {
    [
        "run",
        "--game",
        "game",
        "--games",
        games,
        "--seed",
        seed,
        "--grace-ms",
        "500",
    ]
    .map(String::from)
    .to_vec()
}

fn run(dir: &Path, games: &str, seed: &str, extra: &[&str]) -> Output {
    take6_cmd(dir)
        .args(series_flags(games, seed))
        .args(extra)
        .output()
        .unwrap()
}

fn records(series: &Path) -> Vec<GameRecord> {
    // Records name their game; a loaded game is known by name once loaded.
    take6::games::find(duel().to_str().unwrap()).unwrap();
    records_in(series)
}

/// A record without what differs between two runs of the same game (times).
fn comparable(mut g: GameRecord) -> GameRecord {
    g.ms = 0;
    g.replies.clear();
    g
}

/// Every bot's stderr in the series, for failure messages.
fn logs(series: &Path) -> String {
    let mut all = String::new();
    for entry in fs::read_dir(series.join("logs"))
        .into_iter()
        .flatten()
        .flatten()
    {
        all.push_str(&fs::read_to_string(entry.path()).unwrap_or_default());
    }
    all
}

/// Strict bots in C and Python, each started afresh per turn and kept running,
/// play the strict judge (started afresh per call, and kept running) without a fault: every
/// field of every input is what Botzone sends, `data` comes back turn after turn and
/// `globaldata` game after game (kept in the working copy); the series verifies by running
/// the judge again, replays, and its report holds the generic viewer.
/// A faulted bot's entry in the log, with Botzone's fields: its verdict, a null response.
fn fault_entry(verdict: &str) -> serde_json::Value {
    json!({"verdict": verdict, "response": null, "time": 0, "memory": 0,
           "keep_running": false, "debug": ""})
}

/// Starts `command` (a series), waits until `results/latest/games.jsonl` holds `games` lines
/// (two minutes at most), then kills it with SIGKILL and reaps it.
fn kill_9_after(command: &mut Command, root: &Path, games: usize) {
    let mut child = command
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let started = Instant::now();
    loop {
        let lines = fs::read_to_string(root.join("results/latest/games.jsonl"))
            .map(|s| s.lines().count())
            .unwrap_or(0);
        if lines >= games || started.elapsed() > Duration::from_secs(120) {
            break;
        }
        std::thread::sleep(Duration::from_millis(20));
    }
    child.kill().unwrap();
    child.wait().unwrap();
}

#[test]
fn strict_bots_in_both_modes_play_the_strict_judge_and_verify() {
    let bots = [
        ("c", "bz-c", false),
        ("c-keep", "bz-c", true),
        ("py", "bz-py", false),
        ("py-keep", "bz-py", true),
    ];
    for judge_keeps in [false, true] {
        let tmp = duel_arena(&bots, GENEROUS);
        if judge_keeps {
            fs::write(
                tmp.path().join("game/game.toml"),
                format!(
                    "name = \"duel\"\nplayers = 2\ninitdata = {{ rounds = 5, keep = true }}\n\
                     [judge]\nkeep_running = true\n{GENEROUS}"
                ),
            )
            .unwrap();
        }
        let out = run(tmp.path(), "6", "77", &["--jobs", "1"]);
        assert_ok(&out);
        let series = series_dir(tmp.path());
        let games = records(&series);
        assert_eq!(games.len(), 6);
        for g in &games {
            assert_eq!(g.rounds[0].invalid, [], "{}", logs(&series));
            assert_eq!(g.void, None);
            // Every bot plays the same numbers: every round is a tie.
            assert_eq!(g.rounds[0].scores, [1, 1]);
            let log = g.body.as_ref().unwrap().value()["log"]
                .as_array()
                .unwrap()
                .clone();
            assert_eq!(log.len(), 11);
            assert_eq!(log[0]["output"]["initdata"]["keep"], json!(judge_keeps));
            assert_eq!(
                log.iter()
                    .step_by(2)
                    .skip(1)
                    .filter(|e| e["keep_running"] == json!(true))
                    .count(),
                if judge_keeps { 4 } else { 0 }
            );
        }
        for (name, _, _) in bots {
            let played = games
                .iter()
                .filter(|g| g.players.iter().any(|p| p == name))
                .count();
            let kept =
                fs::read_to_string(series.join("work").join(name).join(".botzone-globaldata"))
                    .unwrap();
            assert_eq!(kept, format!("\"games {played}\""), "{name}");
        }
        assert_ok(
            &take6_cmd(tmp.path())
                .args(["verify", "--game", "game"])
                .output()
                .unwrap(),
        );
        let replay = take6_cmd(tmp.path())
            .args(["replay", "results/latest", "3"])
            .output()
            .unwrap();
        assert_ok(&replay);
        assert!(
            text(&replay.stdout).contains("request to"),
            "{}",
            text(&replay.stdout)
        );
        let report = fs::read_to_string(series.join("report.html")).unwrap();
        assert!(report.contains("bz-display") && report.contains("\"botzone\""));
    }
}

/// A bot's timeout, crash, garbage, silence, output over 1 MiB and (where the sandbox has a
/// memory cgroup) its memory reach the judge as Botzone's verdict without a response; the judge decides (the
/// duel's: that player loses); the fault is recorded with its reason.
#[test]
fn faults_reach_the_judge_as_botzone_verdicts() {
    let tmp = duel_arena(&[], "\n[limits]\nfirst_turn_ms = 1000\nturn_ms = 1000\n");
    let cases = [
        ("crash", "read x; exit 3", "RE", "exited"),
        ("garbage", "read x; echo hello", "NJ", "bad_reply"),
        ("silent", "read x; exit 0", "NJ", "bad_reply"),
        ("spin", "read x; while :; do :; done", "TLE", "timeout"),
        (
            "flood",
            "read x; head -c 2000000 /dev/zero | tr '\\0' 1; echo",
            "OLE",
            "line_too_long",
        ),
    ];
    for (name, body, _, _) in cases {
        script_bot(tmp.path(), name, body);
    }
    for (name, _, verdict, kind) in cases {
        let bot = format!("bots/{name}");
        let out = run(tmp.path(), "1", "5", &["--bots", &bot]);
        let series = series_dir(tmp.path());
        let g = &records(&series)[0];
        assert_eq!(g.void, None, "{name}: {}", text(&out.stderr));
        let seat = g.players.iter().position(|p| p == name).unwrap();
        assert_eq!(
            g.rounds[0].invalid.len(),
            1,
            "{name}: {:?}",
            g.rounds[0].invalid
        );
        assert_eq!(
            (
                g.rounds[0].invalid[0].seat,
                g.rounds[0].invalid[0].kind.as_str()
            ),
            (seat, kind),
            "{name}"
        );
        let log = g.body.as_ref().unwrap().value()["log"]
            .as_array()
            .unwrap()
            .clone();
        assert_eq!(log[1][seat.to_string()], fault_entry(verdict), "{name}");
        assert_eq!(g.rounds[0].scores[seat], 0, "{name}");
        assert_eq!(g.rounds[0].scores[1 - seat], 2, "{name}");
        assert_ok(
            &take6_cmd(tmp.path())
                .args(["verify", "--game", "game"])
                .output()
                .unwrap(),
        );
    }
    // Memory: the sandbox's memory cgroup stops the bot's tree at the limit.
    script_bot(
        tmp.path(),
        "hog",
        "read x; exec python3 -c 'b = bytearray(400 << 20); import time; time.sleep(5)'",
    );
    let out = run(
        tmp.path(),
        "1",
        "5",
        &["--bots", "bots/hog", "--memory-mib", "128"],
    );
    let Some((g, seat)) = the_hogs_only_fault_is_its_memory(tmp.path(), &out) else {
        return;
    };
    let log = g.body.as_ref().unwrap().value()["log"]
        .as_array()
        .unwrap()
        .clone();
    assert_eq!(log[1][seat.to_string()], fault_entry("MLE"));
}

/// The first game of the series in `root`, whose seat `hog` (its place returned with it)
/// faulted once, for its memory limit; `None`, said as SKIPPED, where the series said on its
/// `take6: memory:` line that no memory cgroup holds a tree.
fn the_hogs_only_fault_is_its_memory(root: &Path, out: &Output) -> Option<(GameRecord, usize)> {
    let said = text(&out.stderr);
    if !said.contains("take6: memory: each bot's process tree is held") {
        assert!(said.contains("has no memory cgroup"), "{said}");
        common::skipped(&format!("no memory cgroup here: {said}"));
        return None;
    }
    let g = records(&series_dir(root)).swap_remove(0);
    let seat = g.players.iter().position(|p| p == "hog").unwrap();
    let faults = &g.rounds[0].invalid;
    assert_eq!(faults.len(), 1, "{said}: {faults:?}");
    assert_eq!(
        (faults[0].seat, faults[0].kind.as_str()),
        (seat, "memory_limit"),
        "{faults:?}"
    );
    Some((g, seat))
}

/// A judge that crashes, hangs, answers what is not JSON, a command it does not know, or
/// scores for the wrong players on its own (at its first call, before any response) voids
/// that game: recorded with the reason and the judge's stderr, not scored; the series goes
/// on, says how many games were void, and verifies.
#[test]
fn a_failing_judge_voids_its_game_and_the_series_goes_on() {
    // The first call fails as each case says.
    let first = r#"import json, sys
full = json.loads(sys.stdin.readline())
"#;
    let cases = [
        (
            "crash",
            "sys.stderr.write('judge blew up\\n'); sys.exit(2)",
            "judge blew up",
        ),
        ("hang", "import time; time.sleep(30)", "judge faulted"),
        ("malformed", "print('{nope')", "not JSON"),
        (
            "unknown",
            "print(json.dumps({'command': 'quit'}))",
            "unknown command",
        ),
        (
            "wrong",
            "print(json.dumps({'command': 'finish', 'content': {'0': 1, '5': 2}}))",
            "\"5\"",
        ),
    ];
    for (name, then, says) in cases {
        let tmp = duel_arena(&[("py", "bz-py", false)], GENEROUS);
        let game = tmp.path().join("game");
        fs::remove_file(game.join("judge.py")).unwrap();
        fs::write(game.join("judge.py"), format!("{first}{then}\n")).unwrap();
        let toml = fs::read_to_string(game.join("game.toml")).unwrap();
        fs::write(
            game.join("game.toml"),
            toml.replace("time_ms = 5000", "time_ms = 1000"),
        )
        .unwrap();
        let out = run(tmp.path(), "3", "8", &[]);
        assert_ok(&out);
        let series = series_dir(tmp.path());
        let games = records(&series);
        assert_eq!(games.len(), 3, "{name}: the series went on");
        for g in &games {
            let why = g
                .void
                .as_deref()
                .unwrap_or_else(|| panic!("{name}: not void"));
            assert!(why.contains(says), "{name}: {why}");
        }
        assert!(
            text(&out.stdout).contains("void"),
            "{name}: {}",
            text(&out.stdout)
        );
        let board = fs::read_to_string(series.join("leaderboard.csv")).unwrap();
        assert!(
            !board.contains(",py,false,3,"),
            "{name}: void games are not scored: {board}"
        );
        assert_ok(
            &take6_cmd(tmp.path())
                .args(["verify", "--game", "game"])
                .output()
                .unwrap(),
        );
    }
}

/// `take6 verify` runs the judge again over the recorded log: a forged score, a forged
/// response and a forged request are named; a judge that answers the same log differently
/// is reported as not deterministic.
#[test]
fn verify_catches_forgeries_and_a_judge_that_is_not_deterministic() {
    let tmp = duel_arena(&[("py", "bz-py", false), ("c", "bz-c", false)], GENEROUS);
    assert_ok(&run(tmp.path(), "4", "3", &[]));
    let series = series_dir(tmp.path());
    let id = series.file_name().unwrap().to_str().unwrap().to_string();
    let jsonl = series.join("games.jsonl");
    let pristine = fs::read(&jsonl).unwrap();
    records(&series);
    type Edit = fn(&mut GameRecord);
    let forgeries: [(Edit, &str); 3] = [
        (
            |g| g.rounds[0].scores = take6::record::score::whole(&[2, 0]),
            "are not the judge's",
        ),
        (
            |g| {
                let mut body = g.body.as_ref().unwrap().value();
                body["log"][3]["0"]["response"] = json!({"n": 1});
                g.body = Some(Body::new(&body));
            },
            "the judge answers",
        ),
        (
            |g| {
                let mut body = g.body.as_ref().unwrap().value();
                body["log"][2]["output"]["content"]["1"]["round"] = json!(9);
                g.body = Some(Body::new(&body));
            },
            "the judge answers",
        ),
    ];
    for (edit, says) in forgeries {
        assert_forgery_named(&jsonl, &pristine, &id, 2, edit, says, || {
            take6_cmd(tmp.path())
                .args(["verify", "--game", "game"])
                .output()
                .unwrap()
        });
    }
    fs::write(&jsonl, &pristine).unwrap();
    // The same judge, now drawing a random display after its first call (a first call may
    // draw the game: a_judge_that_draws_at_random_verifies_with_its_draw_as_recorded): the
    // record cannot be re-derived.
    let judge = tmp.path().join("game/judge.py");
    let source = fs::read_to_string(&judge).unwrap().replace(
        "\"display\": {\"round\": self.round, \"won\": self.won[:]}",
        "\"display\": dict({\"round\": self.round, \"won\": self.won[:]}, **({\"noise\": \
         __import__('random').random()} if self.round > 1 else {}))",
    );
    fs::write(&judge, source).unwrap();
    let out = take6_cmd(tmp.path())
        .args(["verify", "--game", "game"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    let said = text(&out.stdout) + &text(&out.stderr);
    assert!(said.contains("not deterministic"), "{said}");
}

/// A series killed with `kill -9` and resumed plays every game once, and its games are those
/// of an uninterrupted run; two shards merged are the same series too.
#[test]
fn kill_9_then_resume_and_shards_merged_equal_one_run() {
    let bots = [
        ("py", "bz-py", false),
        ("py-keep", "bz-py", true),
        ("c", "bz-c", false),
    ];
    let whole = duel_arena(&bots, GENEROUS);
    assert_ok(&run(whole.path(), "18", "4242", &[]));
    let reference: Vec<GameRecord> = records(&series_dir(whole.path()))
        .into_iter()
        .map(comparable)
        .collect();

    let tmp = duel_arena(&bots, GENEROUS);
    kill_9_after(
        take6_cmd(tmp.path()).args(series_flags("18", "4242")),
        tmp.path(),
        3,
    );
    let series = series_dir(tmp.path());
    assert!(records(&series).len() < 18, "killed part-way");
    assert_ok(
        &take6_cmd(tmp.path())
            .args(["run", "--resume"])
            .output()
            .unwrap(),
    );
    let after: Vec<GameRecord> = records(&series).into_iter().map(comparable).collect();
    assert_eq!(after, reference);
    assert_ok(
        &take6_cmd(tmp.path())
            .args(["verify", "--game", "game"])
            .output()
            .unwrap(),
    );

    let shards = duel_arena(&bots, GENEROUS);
    for (i, results) in ["s0", "s1"].iter().enumerate() {
        let shard = format!("{i}/2");
        assert_ok(
            &take6_cmd(shards.path())
                .args(series_flags("18", "4242"))
                .args(["--results", results, "--shard", &shard])
                .output()
                .unwrap(),
        );
    }
    assert_ok(
        &take6_cmd(shards.path())
            .args([
                "merge",
                "--game",
                "game",
                "--results",
                "merged",
                "s0/latest",
                "s1/latest",
            ])
            .output()
            .unwrap(),
    );
    let merged: Vec<GameRecord> =
        records(&fs::canonicalize(shards.path().join("merged/latest")).unwrap())
            .into_iter()
            .map(comparable)
            .collect();
    assert_eq!(merged, reference);
}

/// `bot.toml` `games` names a loaded game by its `game.toml` name; a bot for another game is
/// left out with the reason. A table short of bots is padded with the game folder's padding
/// bots, built and run as any bot.
#[test]
fn bot_toml_names_the_game_and_padding_bots_fill_the_table() {
    let tmp = duel_arena(
        &[("py", "bz-py", false), ("other", "bz-c", false)],
        GENEROUS,
    );
    fs::write(tmp.path().join("bots/py/bot.toml"), "games = [\"duel\"]\n").unwrap();
    fs::write(
        tmp.path().join("bots/other/bot.toml"),
        "games = [\"take6\"]\n",
    )
    .unwrap();
    let out = run(tmp.path(), "2", "1", &["--standings-every", "1"]);
    assert_ok(&out);
    // Seed 1 deals nothing here: the judge draws its own randomness.
    assert!(
        !text(&out.stderr).contains("every hand"),
        "{}",
        text(&out.stderr)
    );
    assert!(
        text(&out.stderr).contains("it plays take6"),
        "{}",
        text(&out.stderr)
    );
    // The limits line says where each bot's limits come from: game.toml here.
    assert!(
        text(&out.stderr).contains("take6: limits: each bot's by ")
            && text(&out.stderr).contains("game.toml's [limits] where it sets them"),
        "{}",
        text(&out.stderr)
    );
    let games = records(&series_dir(tmp.path()));
    for g in &games {
        assert_eq!(
            g.players,
            if g.players[0] == "py" {
                ["py", "cycler#1"]
            } else {
                ["cycler#1", "py"]
            }
        );
        assert_eq!(g.builtin.iter().filter(|b| **b).count(), 1);
        assert_eq!(g.rounds[0].invalid, []);
    }
    // The summary names the padding bot for what it is, with `--standings-every`
    // and `take6 leaderboard` too.
    for said in [text(&out.stdout), text(&out.stderr)] {
        assert!(
            said.contains("cycler#1 (padding bot)") && !said.contains("built-in"),
            "{said}"
        );
    }
    // So does the report, whose Bots table says what the bots speak.
    let report = fs::read_to_string(series_dir(tmp.path()).join("report.html")).unwrap();
    assert!(
        report.contains("Padding bots are marked")
            && report.contains("<p>Padding bots: cycler#1</p>")
            && report.contains("Botzone")
            && !report.contains("Built-in")
            && !report.contains("CodinGame"),
        "the report's labels"
    );
    let rebuilt = take6_cmd(tmp.path())
        .args(["leaderboard", "--game", "game"])
        .output()
        .unwrap();
    assert_ok(&rebuilt);
    let said = text(&rebuilt.stdout);
    assert!(
        said.contains("cycler#1 (padding bot)") && !said.contains("built-in"),
        "{said}"
    );
}

/// `take6 play --game PATH`: the person types each response as JSON (a line that is not JSON
/// is refused with the reason) and plays a whole game against a padding bot.
#[test]
fn a_person_types_the_responses() {
    use std::io::Write as _;
    let tmp = duel_arena(&[], GENEROUS);
    let mut child = take6_cmd(tmp.path())
        .args([
            "play",
            "--game",
            "game",
            "--name",
            "ann",
            "--seed",
            "3",
            "--against",
            "cycler",
        ])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut stdin = child.stdin.take().unwrap();
    let _ = stdin.write_all(b"two\n{\"n\":2}\n{\"n\":2}\n{\"n\":2}\n{\"n\":2}\n{\"n\":2}\n");
    drop(stdin);
    let out = child.wait_with_output().unwrap();
    assert_ok(&out);
    let said = text(&out.stderr);
    assert!(
        said.contains("request") && said.contains("not JSON"),
        "{said}"
    );
    // A play's series goes beside the host's series, never moving results/latest.
    let series = fs::canonicalize(tmp.path().join("results/plays/latest")).unwrap();
    let g = &records(&series)[0];
    assert_eq!(g.rounds[0].invalid, []);
    assert_eq!(g.void, None);
}

/// `take6 verify` builds the judge in a folder of the temporary directory for its own use; the
/// next verify removes what a verify that is gone left, so they never pile up.
#[test]
fn verify_leaves_at_most_the_last_built_judge_behind() {
    let tmp = duel_arena(&[("py", "bz-py", false), ("c", "bz-c", false)], GENEROUS);
    assert_ok(&run(tmp.path(), "2", "5", &[]));
    let temp = tmp.path().join("tmp");
    fs::create_dir(&temp).unwrap();
    let built = || {
        fs::read_dir(&temp)
            .unwrap()
            .flatten()
            .filter(|e| e.file_name().to_string_lossy().starts_with("take6-verify-"))
            .count()
    };
    for _ in 0..3 {
        let out = take6_cmd(tmp.path())
            .env("TMPDIR", &temp)
            .args(["verify", "--game", "game"])
            .output()
            .unwrap();
        assert_ok(&out);
        let names: Vec<_> = fs::read_dir(&temp)
            .unwrap()
            .flatten()
            .map(|e| e.file_name())
            .collect();
        assert_eq!(
            built(),
            1,
            "each verify removes what the one before left: {names:?}"
        );
    }
}

/// A game folder without its two required keys, or without a judge, is refused with the key
/// and the fix.
#[test]
fn a_bad_game_folder_is_refused_with_the_fix() {
    let tmp = duel_arena(&[("py", "bz-py", false)], "");
    fs::write(tmp.path().join("game/game.toml"), "name = \"duel\"\n").unwrap();
    let out = run(tmp.path(), "1", "1", &[]);
    assert!(!out.status.success());
    let said = text(&out.stderr);
    assert!(
        said.contains("players") && said.contains("game.toml"),
        "{said}"
    );
    fs::write(
        tmp.path().join("game/game.toml"),
        "name = \"duel\"\nplayers = 2\n",
    )
    .unwrap();
    fs::remove_file(tmp.path().join("game/judge.py")).unwrap();
    let out = run(tmp.path(), "1", "1", &[]);
    assert!(!out.status.success());
    assert!(
        text(&out.stderr).contains("no judge"),
        "{}",
        text(&out.stderr)
    );
}

/// `--resume` plays each bot under the limits the series began with:
/// here game.toml's 6000 ms, which a bot burning 1.5 s of CPU a turn needs, not the series'
/// 1000 ms defaults; and `run --resume` says so on its limits line.
#[test]
fn resume_keeps_each_bots_own_limits() {
    let tmp = duel_arena(&[("py", "bz-py", false)], "");
    duel_toml(
        tmp.path(),
        1,
        "first_turn_ms = 6000\nturn_ms = 6000\nkept_running_ms = 6000",
        true,
    );
    script_bot(
        tmp.path(),
        "burner",
        r#"exec python3 -c '
import json, sys, time
inp = json.loads(sys.stdin.readline())
if set(inp) != {"requests", "responses", "time_limit", "memory_limit"}:
    sys.exit("burner: input keys %s" % sorted(inp))
if inp["time_limit"] != 6:
    sys.exit("burner: time_limit %r" % inp["time_limit"])
start = time.process_time()
while time.process_time() - start < 1.5:
    pass
print(json.dumps({"response": {"n": 2}}))
'"#,
    );
    kill_9_after(
        take6_cmd(tmp.path())
            .args(series_flags("4", "9"))
            .args(["--jobs", "1"]),
        tmp.path(),
        1,
    );
    let series = series_dir(tmp.path());
    assert!(records(&series).len() < 4, "killed part-way");
    let out = take6_cmd(tmp.path())
        .args(["run", "--resume"])
        .output()
        .unwrap();
    let said = text(&out.stderr);
    let games = records(&series);
    assert_eq!(games.len(), 4, "{said}");
    for g in &games {
        assert_eq!(
            g.rounds[0].invalid,
            [],
            "game {}: {}",
            g.game,
            logs(&series)
        );
        assert_eq!(g.void, None);
    }
    assert_ok(&out);
    assert!(
        said.contains("take6: limits: each bot's by ") && said.contains("game.toml"),
        "{said}"
    );
    assert_ok(
        &take6_cmd(tmp.path())
            .args(["verify", "--game", "game"])
            .output()
            .unwrap(),
    );
}

/// A game folder without padding bots and fewer bots than seats is
/// refused before anything is built, naming the game folder and the fix, by `run`, `check`
/// and `--builtins-only` alike (it was a division by zero).
#[test]
fn a_game_without_padding_bots_and_too_few_bots_is_refused_with_the_fix() {
    let tmp = duel_arena(&[("py", "bz-py", false)], "");
    duel_toml(tmp.path(), 5, "", false);
    let game = fs::canonicalize(tmp.path().join("game")).unwrap();
    for args in [
        vec!["run", "--game", "game", "--games", "2"],
        vec!["check", "--game", "game", "bots/py"],
        vec!["run", "--game", "game", "--builtins-only", "--games", "2"],
        vec!["check", "--game", "game"],
    ] {
        let out = take6_cmd(tmp.path()).args(&args).output().unwrap();
        let said = text(&out.stderr);
        assert_eq!(out.status.code(), Some(1), "{args:?}: {said}");
        assert!(!said.contains("panicked"), "{args:?}: {said}");
        assert!(
            said.contains(&format!("the game {} has no padding bots", game.display()))
                && said.contains("add padding bots to the game folder"),
            "{args:?}: {said}"
        );
        assert!(
            !tmp.path().join("results/latest/work").exists(),
            "{args:?}: nothing was built"
        );
    }
}

/// `take6 check --game FOLDER` without a bot checks the folder's
/// judge: its padding bots play it, and the judge's log (requests, responses, displays, the
/// finish) is printed; a judge that fails is shown failing, with its stderr.
#[test]
fn check_of_a_game_folder_shows_its_judges_log() {
    let tmp = duel_arena(&[], GENEROUS);
    let out = take6_cmd(tmp.path())
        .args(["check", "--game", "game", "--games", "2", "--seed", "4"])
        .output()
        .unwrap();
    assert_ok(&out);
    let said = text(&out.stdout);
    for expected in [
        "The judge's log of game",
        "request to cycler#1 (",
        "request to cycler#2 (",
        "response of cycler#",
        "display:",
        "finish:",
        "OK: the judge finished every one of 2 games",
    ] {
        assert!(said.contains(expected), "{expected}: {said}");
    }
    // A judge that crashes on its second call.
    let game = tmp.path().join("game");
    fs::write(
        game.join("judge.py"),
        "import json, sys\nfull = json.loads(sys.stdin.readline())\nif not full['log']:\n    \
         print(json.dumps({'command': 'request', 'content': {'0': 1, '1': 1}}))\n    \
         sys.exit(0)\nsys.stderr.write('judge blew up\\n')\nsys.exit(2)\n",
    )
    .unwrap();
    let out = take6_cmd(tmp.path())
        .args(["check", "--game", "game", "--games", "1"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1), "{}", text(&out.stderr));
    let said = text(&out.stdout);
    assert!(
        said.contains("JUDGE FAILED") && said.contains("judge blew up") && said.contains("FAILED"),
        "{said}"
    );
    // A game without a judge of its own has none to check.
    let out = take6_cmd(tmp.path())
        .args(["check", "--game", "take6"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    assert!(
        text(&out.stderr).contains("has no judge of its own"),
        "{}",
        text(&out.stderr)
    );
}

/// A finished game forged into a void one is reported by verify:
/// with its finish kept (the judge finished it with scores take6 ranks), and with its finish
/// cut (the judge answers the log it is said to have failed on).
#[test]
fn verify_catches_a_game_forged_into_a_void_one() {
    let tmp = duel_arena(&[("py", "bz-py", false), ("c", "bz-c", false)], GENEROUS);
    assert_ok(&run(tmp.path(), "3", "3", &[]));
    let series = series_dir(tmp.path());
    let id = series.file_name().unwrap().to_str().unwrap().to_string();
    let jsonl = series.join("games.jsonl");
    let pristine = fs::read(&jsonl).unwrap();
    records(&series);
    type Edit = fn(&mut GameRecord);
    let forgeries: [(Edit, &str); 3] = [
        (
            |g| {
                g.void = Some("the judge faulted: timeout".into());
                g.rounds[0].scores = take6::record::score::whole(&[0, 0]);
            },
            "that take6 ranks",
        ),
        (
            |g| {
                g.void = Some("the judge faulted: timeout".into());
                g.rounds[0].scores = take6::record::score::whole(&[0, 0]);
                let mut body = g.body.as_ref().unwrap().value();
                body["log"].as_array_mut().unwrap().pop();
                body.as_object_mut().unwrap().remove("scores");
                g.body = Some(Body::new(&body));
            },
            "but the judge answers",
        ),
        (
            |g| g.void = Some("the judge faulted: timeout".into()),
            "a void game's are 0",
        ),
    ];
    for (edit, says) in forgeries {
        assert_forgery_named(&jsonl, &pristine, &id, 2, edit, says, || {
            take6_cmd(tmp.path())
                .args(["verify", "--game", "game"])
                .output()
                .unwrap()
        });
    }
}

/// A bot's tree is held to Botzone's memory limit, the 256 MB it is
/// told, under the series' default --memory-mib of 1024; the judge to its [judge] memory_mb.
/// Skipped where the sandbox has no memory cgroup (the series' limit holds then, as it says).
#[test]
fn bots_and_the_judge_are_held_to_their_botzone_memory_limits() {
    let tmp = duel_arena(&[("py", "bz-py", false)], GENEROUS);
    script_bot(
        tmp.path(),
        "hog",
        r#"read x; exec python3 -c 'b = bytearray(400 << 20); print("{\"response\": {\"n\": 2}}")'"#,
    );
    let out = run(tmp.path(), "1", "5", &[]);
    let Some((g, _)) = the_hogs_only_fault_is_its_memory(tmp.path(), &out) else {
        return;
    };
    assert!(
        g.rounds[0].invalid[0].reason.contains("256"),
        "{:?}",
        g.rounds[0].invalid
    );
    // The same bot under game.toml's 512 MB plays.
    let toml = tmp.path().join("game/game.toml");
    let text0 = fs::read_to_string(&toml).unwrap();
    fs::write(
        &toml,
        text0.replace("[limits]\n", "[limits]\nmemory_mb = 512\n"),
    )
    .unwrap();
    assert_ok(&run(tmp.path(), "1", "5", &[]));
    let g = &records(&series_dir(tmp.path()))[0];
    assert_eq!(g.rounds[0].invalid, []);
    // A judge over its [judge] memory_mb voids the game.
    fs::write(
        &toml,
        text0.replace("[judge]\n", "[judge]\nmemory_mb = 100\n"),
    )
    .unwrap();
    let judge = tmp.path().join("game/judge.py");
    let source = fs::read_to_string(&judge).unwrap();
    fs::write(
        &judge,
        source.replace("import json\n", "import json\nHOG = bytearray(200 << 20)\n"),
    )
    .unwrap();
    let out = run(tmp.path(), "1", "5", &["--bots", "bots/py"]);
    let g = &records(&series_dir(tmp.path()))[0];
    let why = g.void.as_deref().unwrap_or("");
    assert!(why.contains("memory"), "{why}: {}", text(&out.stderr));
}

/// Memory as Botzone counts it (botzone-local holds a bot's container to a memory cgroup of
/// 256 MB without swap): what a bot's tree touches, not the address space it maps. A bot
/// that maps 3 GiB and touches 8 MiB plays; one that touches 400 MiB faults for its memory,
/// at the same table. Skipped where the sandbox has no memory cgroup (the address-space limit
/// of --memory-mib holds then, as the series says).
#[test]
fn memory_is_what_a_bot_touches_not_what_it_maps() {
    let tmp = duel_arena(&[], GENEROUS);
    script_bot(
        tmp.path(),
        "mapper",
        r#"read x; exec python3 -c '
import mmap
m = mmap.mmap(-1, 3 << 30)
m[0:8 << 20] = b"x" * (8 << 20)
print("{\"response\": {\"n\": 2}}")'"#,
    );
    script_bot(
        tmp.path(),
        "hog",
        r#"read x; exec python3 -c 'b = bytearray(400 << 20); print("{\"response\": {\"n\": 2}}")'"#,
    );
    let out = run(tmp.path(), "1", "5", &[]);
    let Some((g, seat)) = the_hogs_only_fault_is_its_memory(tmp.path(), &out) else {
        return;
    };
    assert_eq!(g.players[1 - seat], "mapper");
    assert!(
        g.rounds[0].invalid[0].reason.contains("256"),
        "{:?}",
        g.rounds[0].invalid
    );
}

/// As on Botzone, a bot started afresh gets its request and then the
/// end of its input (a bot that reads to the end of file plays), and a bot that asks to be
/// kept running without enabling it (bot.toml keep_running) faults, saying why.
#[test]
fn a_bot_started_afresh_sees_the_end_of_its_input() {
    let tmp = duel_arena(
        &[("eof", "bz-eof", false), ("py", "bz-py", false)],
        GENEROUS,
    );
    let out = run(tmp.path(), "2", "6", &["--bots", "bots/eof"]);
    assert_ok(&out);
    for g in records(&series_dir(tmp.path())) {
        assert_eq!(g.rounds[0].invalid, [], "{}", logs(&series_dir(tmp.path())));
    }
    // bz-py with its `keep` file but no bot.toml: it asks, and is not allowed.
    fs::write(tmp.path().join("bots/py/keep"), "").unwrap();
    let out = run(tmp.path(), "1", "6", &["--bots", "bots/py"]);
    assert_ok(&out);
    let g = &records(&series_dir(tmp.path()))[0];
    let seat = g.players.iter().position(|p| p == "py").unwrap();
    assert_eq!(g.rounds[0].invalid.len(), 1, "{:?}", g.rounds[0].invalid);
    assert_eq!(g.rounds[0].invalid[0].seat, seat);
    assert!(
        g.rounds[0].invalid[0]
            .reason
            .contains("asked to be kept running")
            && g.rounds[0].invalid[0]
                .reason
                .contains("keep_running = true in its bot.toml"),
        "{:?}",
        g.rounds[0].invalid
    );
    let log = g.body.as_ref().unwrap().value()["log"]
        .as_array()
        .unwrap()
        .clone();
    assert_eq!(log[1][seat.to_string()], fault_entry("NJ"));
    // Enabled, it is kept running.
    fs::write(tmp.path().join("bots/py/bot.toml"), "keep_running = true\n").unwrap();
    let out = run(tmp.path(), "1", "6", &["--bots", "bots/py"]);
    assert_ok(&out);
    assert_eq!(records(&series_dir(tmp.path()))[0].rounds[0].invalid, []);
}

/// A bot's globaldata, updated at every turn by a bot at two tables
/// at once (`--jobs 2`), loses no update: a turn that starts the bot reads it as it is and
/// keeps what it answers before the next such turn reads it.
#[test]
fn globaldata_loses_no_update_at_two_tables() {
    let tmp = duel_arena(
        &[("counter", "bz-counter", false), ("py", "bz-py", false)],
        GENEROUS,
    );
    fs::write(
        tmp.path().join("bots/counter/.botzone-globaldata"),
        "\"count 0\"",
    )
    .unwrap();
    let out = run(tmp.path(), "6", "2", &["--jobs", "2"]);
    assert_ok(&out);
    let series = series_dir(tmp.path());
    let games = records(&series);
    let mut turns = 0;
    for g in &games {
        assert_eq!(g.rounds[0].invalid, [], "{}", logs(&series));
        let seat = g.players.iter().position(|p| p == "counter").unwrap();
        let log = g.body.as_ref().unwrap().value()["log"]
            .as_array()
            .unwrap()
            .clone();
        turns += log
            .iter()
            .skip(1)
            .step_by(2)
            .filter(|e| e.get(seat.to_string()).is_some())
            .count();
    }
    let kept = fs::read_to_string(series.join("work/counter/.botzone-globaldata")).unwrap();
    assert_eq!(kept, format!("\"count {turns}\""));
}

/// Bots are built as Botzone's compiler builds them and given what `bot.py` gives.
/// `bz-gbk` is a GBK-encoded C++ source that includes Botzone's `"jsoncpp/json.h"` (the
/// include is found in its bytes, and the GBK string reaches the compiler unchanged);
/// `bz-online` fails unless built with `-D_BOTZONE_ONLINE` in GNU C++ (`typeof`) with
/// nlohmann/json and Eigen, and fails if it is sent `data` when it left none (its first
/// turn), or other data than it left. Both play every game without a fault, and verify.
#[test]
fn sources_build_as_botzones_compiler_builds_them() {
    let tmp = duel_arena(
        &[("gbk", "bz-gbk", false), ("online", "bz-online", false)],
        GENEROUS,
    );
    let out = run(tmp.path(), "4", "5", &["--jobs", "1"]);
    assert_ok(&out);
    let series = series_dir(tmp.path());
    let games = records(&series);
    assert_eq!(games.len(), 4);
    for g in &games {
        assert_eq!(g.rounds[0].invalid, [], "{}", logs(&series));
        assert_eq!(g.void, None);
        assert_eq!(g.rounds[0].scores, [1, 1]);
    }
    let manifest = fs::read_to_string(series.join("series.toml")).unwrap();
    assert!(manifest.contains("-D_BOTZONE_ONLINE"), "{manifest}");
    // The report's Bots table names what they speak.
    let report = fs::read_to_string(series.join("report.html")).unwrap();
    assert!(report.contains("Botzone&#39;s protocol") || report.contains("Botzone's protocol"));
    assert!(!report.contains("CodinGame"));
    assert_ok(
        &take6_cmd(tmp.path())
            .args(["verify", "--game", "game"])
            .output()
            .unwrap(),
    );
}

/// A bot kept running is killed when its game ends, as Botzone kills it: `bz-spinner`
/// spins between its turns and for ever once its input ends, under a kept-running limit (300
/// ms) that the grace period's spinning would pass; it is never faulted for what it does after
/// its last reply, and no process of it outlives the series.
#[test]
fn a_bot_kept_running_is_killed_when_its_game_ends() {
    let tmp = duel_arena(
        &[("spinner", "bz-spinner", false), ("py", "bz-py", false)],
        "",
    );
    duel_toml(
        tmp.path(),
        3,
        "first_turn_ms = 20000\nturn_ms = 20000\nkept_running_ms = 300",
        false,
    );
    let out = run(tmp.path(), "4", "3", &["--jobs", "1"]);
    assert_ok(&out);
    let series = series_dir(tmp.path());
    let games = records(&series);
    assert_eq!(games.len(), 4);
    for g in &games {
        assert_eq!(g.rounds[0].invalid, [], "{}", logs(&series));
        assert_eq!(g.void, None);
    }
    let left = Command::new("pgrep")
        .args(["-f", "take6-bz-spinner-marker"])
        .output()
        .unwrap();
    assert!(
        left.stdout.is_empty(),
        "left behind: {}",
        text(&left.stdout)
    );
}

/// The duel's simple interaction, as a Botzone game declares it: a request is the line
/// "ROUND OPPONENT_LAST", a response the line "N".
const SIMPLEIO: &str = r#"
[simpleio]
request_from_json = "return request.round + ' ' + request.opponent_last;"
response_to_json = "return {n: parseInt(response)};"
response_from_json = "return '' + response.n;"
"#;

/// Botzone's simple interaction. `bz-simple` (strict about every line bot.py gives:
/// the turn number, requests and responses alternately, data, globaldata) started afresh,
/// and kept running (only the new request), against the JSON `bz-py`: no fault, the judge sees
/// the responses as JSON, globaldata counts the games, the series verifies. A bot that chose
/// simple interaction in a game without `[simpleio]` faults every game, saying so.
#[test]
fn simple_interaction_bots_play_afresh_and_kept_running() {
    let bots = [
        ("simple", "bz-simple", false),
        ("simple-keep", "bz-simple", true),
        ("py", "bz-py", false),
    ];
    let tmp = duel_arena(&bots, &format!("{GENEROUS}{SIMPLEIO}"));
    fs::write(
        tmp.path().join("bots/simple-keep/bot.toml"),
        "keep_running = true\nsimple_io = true\n",
    )
    .unwrap();
    let out = run(tmp.path(), "6", "11", &["--jobs", "1"]);
    assert_ok(&out);
    let series = series_dir(tmp.path());
    let games = records(&series);
    assert_eq!(games.len(), 6);
    for g in &games {
        assert_eq!(g.rounds[0].invalid, [], "{}", logs(&series));
        assert_eq!(g.void, None);
        assert_eq!(g.rounds[0].scores, [1, 1]);
        let log = &g.body.as_ref().unwrap().value()["log"];
        assert_eq!(log[1]["0"]["response"], json!({"n": 2}));
        assert_eq!(log[1]["0"]["verdict"], "OK");
    }
    let played = games
        .iter()
        .filter(|g| g.players.iter().any(|p| p == "simple"))
        .count();
    let kept = fs::read_to_string(series.join("work/simple/.botzone-globaldata")).unwrap();
    assert_eq!(kept, format!("\"games {played}\""));
    // Its debug line is in the record, turn by turn, and take6 replay shows it.
    let g = games.iter().find(|g| g.players[0] == "simple").unwrap();
    let log = &g.body.as_ref().unwrap().value()["log"];
    assert_eq!(log[1]["0"]["debug"], "round 1");
    assert_eq!(log[3]["0"]["debug"], "round 2");
    let replay = take6_cmd(tmp.path())
        .args(["replay", "results/latest", &g.game.to_string()])
        .output()
        .unwrap();
    assert_ok(&replay);
    let shown = text(&replay.stdout);
    assert!(
        shown.contains("response of simple (0): {\"n\":2}\n    debug: round 1\n"),
        "{shown}"
    );
    assert_ok(
        &take6_cmd(tmp.path())
            .args(["verify", "--game", "game"])
            .output()
            .unwrap(),
    );

    // The same bot where the game has no simple interaction.
    let tmp = duel_arena(
        &[("simple", "bz-simple", false), ("py", "bz-py", false)],
        GENEROUS,
    );
    let out = run(tmp.path(), "2", "11", &["--jobs", "1"]);
    let series = series_dir(tmp.path());
    for g in records(&series) {
        let faults = &g.rounds[0].invalid;
        assert_eq!(faults.len(), 1, "{faults:?}");
        assert!(
            faults[0].reason.contains("no [simpleio] table"),
            "{faults:?}"
        );
    }
    let _ = out;
}

/// The report of a Botzone series: Settings gives each bot's reply limits by its language (as
/// Botzone's), not the series' `first_reply_ms`; the Bots table says which bot speaks simple
/// interaction; and no absolute path of the machine is anywhere on the page.
#[test]
fn the_report_shows_each_bots_limits_and_words_and_no_path() {
    let tmp = duel_arena(
        &[("simple", "bz-simple", false), ("c", "bz-c", false)],
        SIMPLEIO,
    );
    let out = run(tmp.path(), "2", "5", &["--jobs", "1"]);
    assert_ok(&out);
    let html = fs::read_to_string(series_dir(tmp.path()).join("report.html")).unwrap();
    for expected in [
        "<th>reply limits</th>",
        "<code>simple</code> (Python 3): first turn 12000 ms, later turns 6000 ms, kept running \
         4000 ms",
        "<code>c</code> (C): first turn 2000 ms, later turns 1000 ms, kept running 1000 ms",
        "<td class=\"speaks\">simple interaction (Botzone's",
        "<td class=\"speaks\">JSON (Botzone's)",
    ] {
        assert!(html.contains(expected), "{expected}");
    }
    assert!(!html.contains("<th>first_reply_ms</th>"));
    let root = tmp.path().canonicalize().unwrap();
    for path in [
        tmp.path().to_str().unwrap(),
        root.to_str().unwrap(),
        "/usr/",
        "/tmp/",
        "/home/",
        "/root/",
        "/work/",
    ] {
        if let Some(at) = html.find(path) {
            panic!(
                "{path} in the report: {}",
                &html[at.saturating_sub(200)..at + 100]
            );
        }
    }
}

/// A Botzone game's ratings (of wins and losses, fitted against a reference): each rating's
/// own interval hardly narrows with games, so the summary gives the difference between the
/// bots with its interval, which does: after 40 games it is narrower than after 5.
#[test]
fn the_difference_between_two_bots_narrows_with_games() {
    let tmp = duel_arena(&[("py", "bz-py", false), ("c", "bz-c", false)], GENEROUS);
    let gap = |games: &str| -> f64 {
        let out = run(tmp.path(), games, "3", &["--jobs", "2"]);
        assert_ok(&out);
        let said = text(&out.stdout);
        let mut rows = said.lines().skip_while(|l| !l.starts_with("rank "));
        let header = rows.next().expect("the summary table");
        assert!(
            header.contains("  rating  ") && header.contains("vs above"),
            "{said}"
        );
        let second = rows.nth(1).expect("two bots");
        let cell = second
            .split('±')
            .nth(3)
            .expect("a difference and its interval");
        let ci = cell.split_whitespace().next().unwrap().parse().unwrap();
        assert!(
            said.contains("vs above: the rating minus the rank above's"),
            "{said}"
        );
        ci
    };
    let (five, forty) = (gap("5"), gap("40"));
    assert!(
        forty < five * 0.6,
        "after 5 games ± {five}, after 40 ± {forty}"
    );
}

/// `take6 check` of a simple-interaction bot speaks its way: the fault's correct reply is a
/// line, not JSON (with an example the game's `response_from_json` writes), "it was answering:"
/// shows the request as the bot read it, and the transcript shows each turn's new lines only
/// (the whole history is resent every turn), saying how many it repeated.
#[test]
fn check_of_a_simple_interaction_bot_speaks_simple_interaction() {
    let tmp = duel_arena(
        &[("simple", "bz-simple", false)],
        &format!("{GENEROUS}{SIMPLEIO}"),
    );
    // Strict as ever, it exits 3 at its third turn.
    fs::write(tmp.path().join("bots/simple/crash"), "").unwrap();
    let out = take6_cmd(tmp.path())
        .args(["check", "--game", "game", "--games", "1", "--seed", "4"])
        .arg("bots/simple")
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1), "{}", text(&out.stderr));
    let said = text(&out.stdout);
    // Its third input: the turn number, 3 lines as in the second, then the new ones.
    let third = format!(
        "> 3\n{}> (3 lines as in its last input, not shown)\n",
        " ".repeat(16)
    );
    for expected in [
        "in simple interaction)",
        "a correct reply: in Botzone's simple interaction, the response as one line (not JSON), \
         e.g. \"2\"",
        &third,
        "> turn 2\n",
    ] {
        assert!(said.contains(expected), "{expected}: {said}");
    }
    assert!(!said.contains("one line of JSON"), "{said}");
    let answering = &said[said.find("it was answering:").expect("the fault")..];
    let request = answering.lines().nth(4).unwrap_or_default();
    assert!(
        request.trim_start().starts_with("> 3 "),
        "the third request, as a line: {answering}"
    );
}

/// `take6 check` of a Botzone bot. A bot whose moves the judge refuses (no fault
/// take6 sees) is not OK: check shows the judge's last words in each game it lost and counts
/// the games the judge ended early for it. Reply counts are one per turn, the first of each
/// game apart, whether the bot is started afresh or kept running; a fault is labelled with
/// its step and the bot's own request number.
#[test]
fn check_of_a_botzone_bot_shows_what_the_judge_said() {
    let tmp = duel_arena(&[("py", "bz-py", false), ("keep", "bz-py", true)], GENEROUS);
    script_bot(
        tmp.path(),
        "invalid",
        r#"exec python3 -c '
import json, sys
inp = json.loads(sys.stdin.readline())
n = 7 if len(inp["requests"]) == 2 else 2
print(json.dumps({"response": {"n": n}}))
'"#,
    );
    let check = |bot: &str| {
        take6_cmd(tmp.path())
            .args(["check", "--game", "game", "--games", "2", "--seed", "4"])
            .arg(format!("bots/{bot}"))
            .output()
            .unwrap()
    };
    let out = check("invalid");
    assert_eq!(out.status.code(), Some(1), "{}", text(&out.stderr));
    let said = text(&out.stdout);
    for expected in [
        "The judge's last words in each game the bot lost:",
        ", ENDED EARLY for it: finish {\"err\":\"INVALID_MOVE\"",
        "FAILED: no fault, but the judge ended 2 of 2 games early for it",
    ] {
        assert!(said.contains(expected), "{expected}: {said}");
    }
    for (bot, kept) in [("py", false), ("keep", true)] {
        let out = check(bot);
        assert_ok(&out);
        // Padding bots are called so, not built-ins.
        assert!(
            text(&out.stderr).contains("+ 1 padding bot"),
            "{}",
            text(&out.stderr)
        );
        let said = text(&out.stdout);
        // Two games of five turns: 2 first replies and 8 others, kept running or not.
        for expected in ["(2 replies)", "(8 replies)", "OK: no fault in 2 games"] {
            assert!(said.contains(expected), "{bot} {kept}: {expected}: {said}");
        }
    }
    // A bot that crashes at its third turn: the fault's step and its own request number.
    script_bot(
        tmp.path(),
        "third",
        r#"exec python3 -c '
import json, sys
inp = json.loads(sys.stdin.readline())
if len(inp["requests"]) == 3:
    sys.exit(3)
print(json.dumps({"response": {"n": 2}}))
'"#,
    );
    let out = check("third");
    assert_eq!(out.status.code(), Some(1));
    let said = text(&out.stdout);
    assert!(
        said.contains(
            "turn 3 (answering the judge's request at step 3, its request 3 of the game: "
        ),
        "{said}"
    );
    // Without game.toml's [limits], a bot plays under Botzone's for its language, and check
    // compares its replies with those: Python's 6 s, twice that on a game's first turn, 4 s
    // kept running.
    let plain = duel_arena(&[("py", "bz-py", false)], "");
    let out = take6_cmd(plain.path())
        .args(["check", "--game", "game", "--games", "1", "bots/py"])
        .output()
        .unwrap();
    assert_ok(&out);
    let said = text(&out.stdout);
    for expected in [
        "first reply of a game: ",
        "wall p50",
        "limit 12000 ms (1 reply)",
        "limit 6000 ms started afresh, 4000 ms kept running (4 replies)",
    ] {
        assert!(said.contains(expected), "{expected}: {said}");
    }
}

/// Padding bots are built only when a table may need them (a padding bot that does
/// not build does not refuse a series whose bots fill every seat, and refuses one that needs
/// it, with the compiler's words); a judge that does not build says what the compiler said
/// (the series' folder, where its build log was, is gone).
#[test]
fn padding_is_built_when_needed_and_a_failed_build_says_why() {
    let tmp = duel_arena(&[("py", "bz-py", false), ("c", "bz-c", false)], GENEROUS);
    let cycler = tmp.path().join("game/cycler");
    fs::remove_dir_all(&cycler).unwrap();
    fs::create_dir_all(&cycler).unwrap();
    fs::write(
        cycler.join("bot.c"),
        "int main(void) { return missing_padding_x; }\n",
    )
    .unwrap();
    assert_ok(&run(tmp.path(), "2", "1", &[]));
    // One bot: the padding bot is needed.
    let out = take6_cmd(tmp.path())
        .args(series_flags("1", "1"))
        .args(["--bots", "bots/py"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    let said = text(&out.stderr);
    assert!(
        said.contains("padding bot cycler") && said.contains("missing_padding_x"),
        "{said}"
    );
    // No pointer to a build log in a series' folder: the folder is gone.
    assert!(!said.contains("build.log"), "{said}");
    assert_eq!(fs::read_dir(tmp.path().join("results")).unwrap().count(), 2);
    // A judge that does not build.
    fs::remove_file(tmp.path().join("game/judge.py")).unwrap();
    fs::write(
        tmp.path().join("game/judge.cpp"),
        "int main() { return missing_judge_y; }\n",
    )
    .unwrap();
    let out = run(tmp.path(), "1", "1", &[]);
    assert_eq!(out.status.code(), Some(1));
    let said = text(&out.stderr);
    assert!(
        said.contains("the build's output") && said.contains("missing_judge_y"),
        "{said}"
    );
    assert!(!said.contains("build.log"), "{said}");
    assert_eq!(fs::read_dir(tmp.path().join("results")).unwrap().count(), 2);
}

/// `take6 check --game FOLDER` (the judge, no bot) works inside a git repository (it
/// took the repository for a bots folder to clone: "git clone failed for : The empty string is
/// not a valid path").
#[test]
fn check_of_a_judge_works_inside_a_git_repository() {
    let tmp = duel_arena(&[], GENEROUS);
    let init = Command::new("git")
        .args(["init", "-q"])
        .current_dir(tmp.path())
        .status()
        .unwrap();
    assert!(init.success());
    let out = take6_cmd(tmp.path())
        .args(["check", "--game", "game", "--games", "1"])
        .output()
        .unwrap();
    assert_ok(&out);
    assert!(text(&out.stdout).contains("OK: the judge finished every one of 1 game"));
}

/// A judge that draws its game at random on its first call, as Botzone's Kingz,
/// Snake and Tetris judges do (`tests/games/draw`). Saving no initdata, its draw lives only
/// in its first answer: the series verifies with each game's first answer taken as the
/// judge's draw, and verify says so; every later step is re-checked, so a forged draw or a
/// forged later step is caught. Saving its draw in its first answer's initdata (Botzone then
/// passes it to every later call), the judge is given it again and draws the same: the
/// series verifies with nothing taken as recorded, and a forged draw is caught at once.
#[test]
fn a_judge_that_draws_at_random_verifies_with_its_draw_as_recorded() {
    let draw = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/games/draw");
    take6::games::find(draw.to_str().unwrap()).unwrap();
    for save in [false, true] {
        let tmp = tempfile::tempdir().unwrap();
        copy_dir(&draw, &tmp.path().join("game"));
        if save {
            let toml = tmp.path().join("game/game.toml");
            let text = fs::read_to_string(&toml).unwrap().replace(
                "padding = [\"near\"]\n",
                "padding = [\"near\"]\ninitdata = { save = true }\n",
            );
            fs::write(&toml, text).unwrap();
        }
        for (name, offset) in [("a", None), ("b", Some("3"))] {
            let dir = tmp.path().join("bots").join(name);
            copy_dir(&draw.join("near"), &dir);
            if let Some(offset) = offset {
                fs::write(dir.join("offset"), offset).unwrap();
            }
        }
        assert_ok(&run(tmp.path(), "4", "5", &[]));
        let series = series_dir(tmp.path());
        let file = fs::File::open(series.join("games.jsonl")).unwrap();
        let games = read_games_jsonl(BufReader::new(file)).unwrap();
        let targets: std::collections::BTreeSet<i64> = games
            .iter()
            .map(|g| {
                let body = g.body.as_ref().unwrap().value();
                let first = &body["log"][0]["output"];
                let target = first["content"]["0"]["target"].as_i64().unwrap();
                let saved = save.then(|| json!({"target": target, "save": true}));
                assert_eq!(first.get("initdata"), saved.as_ref(), "{first}");
                target
            })
            .collect();
        // Four draws from a million, all alike, would be a broken draw.
        assert!(targets.len() > 1, "{targets:?}");
        let verify = || {
            take6_cmd(tmp.path())
                .args(["verify", "--game", "game"])
                .output()
                .unwrap()
        };
        let out = verify();
        assert_ok(&out);
        let said = text(&out.stdout);
        let note = said.lines().find(|l| l.starts_with("not re-checked:"));
        if save {
            assert!(note.is_none(), "{said}");
        } else {
            let note = note.unwrap_or_else(|| panic!("{said}"));
            assert!(
                note.contains("at random on its first call") && note.contains("of 4 games"),
                "{said}"
            );
        }
        let jsonl = series.join("games.jsonl");
        let pristine = fs::read(&jsonl).unwrap();
        let id = series.file_name().unwrap().to_str().unwrap().to_string();
        type Edit = fn(&mut GameRecord);
        // A first answer asking one player only, its responses forged to match.
        let one_player: Edit = |g| {
            let mut body = g.body.as_ref().unwrap().value();
            body["log"][0]["output"]["content"]
                .as_object_mut()
                .unwrap()
                .remove("1");
            body["log"][1].as_object_mut().unwrap().remove("1");
            g.body = Some(Body::new(&body));
        };
        let form = if save {
            "step 0: the judge answers"
        } else {
            "is not of the form of its answers"
        };
        let forgeries: [(Edit, &str); 3] = [
            (one_player, form),
            // Another draw: player b (3 above the target) is now the nearer.
            (
                |g| {
                    let mut body = g.body.as_ref().unwrap().value();
                    for p in ["0", "1"] {
                        let target = &mut body["log"][0]["output"]["content"][p]["target"];
                        *target = json!(target.as_i64().unwrap() + 3);
                    }
                    g.body = Some(Body::new(&body));
                },
                "the judge answers",
            ),
            (
                |g| {
                    let mut body = g.body.as_ref().unwrap().value();
                    // A round the judge never scored.
                    body["log"][2]["output"]["display"]["won"] = json!([5, 5]);
                    g.body = Some(Body::new(&body));
                },
                "step 1: the judge answers",
            ),
        ];
        for (edit, says) in forgeries {
            assert_forgery_named(&jsonl, &pristine, &id, 2, edit, says, verify);
        }
    }
}

/// The test game `fragile`, whose judge crashes on a response that is a bare JSON string.
fn fragile() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/games/fragile")
}

/// A scratch folder with `game/` (a copy of `fragile`, its initdata `initdata` when given)
/// and `bots/` holding copies of fixtures: `(name, fixture folder)`.
fn fragile_arena(bots: &[(&str, PathBuf)], initdata: Option<&str>) -> TempDir {
    let tmp = tempfile::tempdir().unwrap();
    copy_dir(&fragile(), &tmp.path().join("game"));
    if let Some(initdata) = initdata {
        let toml = tmp.path().join("game/game.toml");
        let text = fs::read_to_string(&toml).unwrap();
        fs::write(&toml, text.replace("initdata = { rounds = 3 }", initdata)).unwrap();
    }
    for (name, fixture) in bots {
        copy_dir(fixture, &tmp.path().join("bots").join(name));
    }
    tmp
}

/// A leaderboard.csv's rows by bot: its cells by column name.
fn leaderboard(series: &Path) -> std::collections::BTreeMap<String, BTreeMap<String, String>> {
    let csv = fs::read_to_string(series.join("leaderboard.csv")).unwrap();
    let mut lines = csv.lines();
    let header: Vec<&str> = lines.next().unwrap().split(',').collect();
    lines
        .map(|line| {
            let row: BTreeMap<String, String> = header
                .iter()
                .zip(line.split(','))
                .map(|(h, c)| (h.to_string(), c.to_string()))
                .collect();
            (row["bot"].clone(), row)
        })
        .collect()
}

/// A bot that answers the bare string "1" when it is losing makes the judge crash on its
/// response: the game is that bot's fault (it loses, the judge's failure its fault's reason),
/// not void; it ranks no better than the same bot playing honestly, and the series verifies.
#[test]
fn a_judge_crashed_by_a_losing_bots_response_is_that_bots_fault() {
    let voider = fixtures().join("hostile-voider");
    let tmp = fragile_arena(
        &[
            ("voider", voider.clone()),
            ("honest", voider),
            ("steady", fragile().join("steady")),
        ],
        None,
    );
    fs::write(tmp.path().join("bots/honest/honest"), "").unwrap();
    let out = run(tmp.path(), "9", "3", &[]);
    assert_ok(&out);
    let series = series_dir(tmp.path());
    let games = records(&series);
    assert_eq!(games.len(), 9);
    let mut crashed = 0;
    for g in &games {
        assert_eq!(g.void, None, "{}", logs(&series));
        let seat = |name: &str| g.players.iter().position(|p| p == name);
        let (Some(v), Some(s)) = (seat("voider"), seat("steady")) else {
            continue;
        };
        crashed += 1;
        let faults = &g.rounds[0].invalid;
        assert_eq!(faults.len(), 1, "{faults:?}");
        assert_eq!(
            (faults[0].seat, faults[0].kind.as_str()),
            (v, "judge_failed")
        );
        assert!(
            faults[0].reason.contains(r#"entry["response"]["n"]"#),
            "the judge's failure is the reason: {}",
            faults[0].reason
        );
        assert_eq!(g.rounds[0].scores[v], 0);
        assert_eq!(g.rounds[0].scores[s], 1);
        let body = g.body.as_ref().unwrap().value();
        assert_eq!(body["log"].as_array().unwrap().len() % 2, 0);
    }
    assert!(crashed > 0, "no game of voider against steady");
    let blamed = games
        .iter()
        .find(|g| g.rounds[0].invalid.iter().any(|f| f.kind == "judge_failed"))
        .unwrap();
    let replay = take6_cmd(tmp.path())
        .args(["replay", "results/latest", &blamed.game.to_string()])
        .output()
        .unwrap();
    assert_ok(&replay);
    let shown = text(&replay.stdout);
    assert!(
        shown.contains("THE JUDGE FAILED on the responses of voider ("),
        "{shown}"
    );
    let board = leaderboard(&series);
    let (voider, honest) = (&board["voider"], &board["honest"]);
    assert_ne!(voider["faults"], "0", "{voider:?}");
    let rank = |r: &BTreeMap<String, String>| r["rank"].parse::<usize>().unwrap();
    assert!(rank(voider) >= rank(honest), "{board:?}");
    let wins = |r: &BTreeMap<String, String>| r["wins"].parse::<f64>().unwrap();
    assert!(wins(voider) <= wins(honest), "{board:?}");
    assert_ok(
        &take6_cmd(tmp.path())
            .args(["verify", "--game", "game"])
            .output()
            .unwrap(),
    );
    // Blaming the other seat, or making the game void, is a forgery verify names.
    let id = series.file_name().unwrap().to_str().unwrap().to_string();
    let jsonl = series.join("games.jsonl");
    let pristine = fs::read(&jsonl).unwrap();
    let n = 1 + String::from_utf8_lossy(&pristine)
        .lines()
        .position(|l| l.contains("judge_failed"))
        .unwrap();
    type Edit = fn(&mut GameRecord);
    let forgeries: [(Edit, &str); 3] = [
        (|g| g.rounds[0].scores.reverse(), "they lose"),
        (
            |g| {
                let f = &mut g.rounds[0].invalid[0];
                f.seat = 1 - f.seat;
            },
            "the record blames",
        ),
        (
            |g| {
                g.rounds[0].invalid.clear();
                g.rounds[0].scores = take6::record::score::whole(&[0, 0]);
                g.void = Some("the judge faulted".into());
            },
            "the record says the judge failed on responses, but the game is void",
        ),
    ];
    for (edit, says) in forgeries {
        assert_forgery_named(&jsonl, &pristine, &id, n, edit, says, || {
            take6_cmd(tmp.path())
                .args(["verify", "--game", "game"])
                .output()
                .unwrap()
        });
    }
}

/// A judge that fails on its own, on a call that reads no new response (its first call, or
/// after a step in which every player faulted), voids the game; the void games show per bot
/// in leaderboard.csv and the summary, and the series verifies.
#[test]
fn a_judge_failing_on_its_own_voids_the_game_counted_per_bot() {
    // Its first call fails: every game void.
    let tmp = fragile_arena(
        &[
            ("voider", fixtures().join("hostile-voider")),
            ("steady", fragile().join("steady")),
        ],
        Some("initdata = { rounds = 3, crash_first = true }"),
    );
    let out = run(tmp.path(), "2", "3", &[]);
    assert_ok(&out);
    let series = series_dir(tmp.path());
    for g in records(&series) {
        let why = g.void.as_deref().expect("void");
        assert!(why.contains("told to fail"), "{why}");
        assert_eq!(g.rounds[0].invalid, []);
    }
    // Both players fault in a step: void for both, counted per bot; their other games are
    // scored.
    let crash = fixtures().join("crash-at-start");
    let tmp = fragile_arena(
        &[
            ("crash-a", crash.clone()),
            ("crash-b", crash),
            ("steady", fragile().join("steady")),
        ],
        None,
    );
    let out = run(tmp.path(), "9", "5", &[]);
    assert_ok(&out);
    let series = series_dir(tmp.path());
    let games = records(&series);
    let void_of = |name: &str| {
        games
            .iter()
            .filter(|g| g.void.is_some() && g.players.iter().any(|p| p == name))
            .count()
    };
    assert!(void_of("crash-a") > 0, "no game of crash-a against crash-b");
    for g in games.iter().filter(|g| g.void.is_some()) {
        assert!(g.players.iter().all(|p| p.starts_with("crash-")), "{g:?}");
        assert!(g.void.as_deref().unwrap().contains("both players faulted"));
    }
    let board = leaderboard(&series);
    for name in ["crash-a", "crash-b", "steady"] {
        assert_eq!(board[name]["void"], void_of(name).to_string(), "{board:?}");
    }
    let summary = text(&out.stdout);
    assert!(
        summary.contains(&format!("; {} void", void_of("crash-a"))),
        "{summary}"
    );
    assert_ok(
        &take6_cmd(tmp.path())
            .args(["verify", "--game", "game"])
            .output()
            .unwrap(),
    );
}

/// A simple-interaction transform runs on the replying bot's time: a game whose
/// `response_to_json` spins on the line "spin" and a bot that sends it: the conversion is
/// interrupted within the bot's limit, the bot faults on time, the series goes on.
#[test]
fn a_transform_that_spins_is_the_bots_time_fault() {
    let spin = r#"
[simpleio]
request_from_json = "return request.round + ' ' + request.opponent_last;"
response_to_json = "if (response == 'spin') { while (true) {} } return {n: parseInt(response)};"
response_from_json = "return '' + response.n;"
"#;
    let limits = "\n[limits]\nfirst_turn_ms = 1500\nturn_ms = 1500\nkept_running_ms = 1500\n";
    let tmp = duel_arena(
        &[
            ("spinner", "hostile-transform", false),
            ("simple", "bz-simple", false),
        ],
        &format!("{limits}{spin}"),
    );
    let started = Instant::now();
    let out = run(tmp.path(), "4", "7", &[]);
    assert_ok(&out);
    let series = series_dir(tmp.path());
    let games = records(&series);
    assert_eq!(games.len(), 4, "the series went on");
    for g in &games {
        assert_eq!(g.void, None);
        let faults = &g.rounds[0].invalid;
        let spinner = g.players.iter().position(|p| p == "spinner").unwrap();
        assert_eq!(faults.len(), 1, "{faults:?}\n{}", logs(&series));
        assert_eq!(
            (faults[0].seat, faults[0].kind.as_str()),
            (spinner, "timeout")
        );
        assert!(
            faults[0].reason.contains("response_to_json")
                && faults[0].reason.contains("its own time"),
            "{}",
            faults[0].reason
        );
    }
    // Each spin stopped at the bot's limit (1.5 s of CPU time, 3 times that of wall time at
    // most), not run on.
    assert!(
        started.elapsed() < Duration::from_secs(60),
        "{:?}",
        started.elapsed()
    );
}
