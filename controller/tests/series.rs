//! The real `take6` binary on real bot processes: the fixture bots in `tests/bots/` (a few
//! well-behaved ones and a zoo of misbehaving ones) and the sample bots in `bots/`.

mod common;

use common::{
    arena_of, assert_ok, copy_dir, fixtures, git, series_cmd, series_dir, take6_cmd, text,
};

/// `take6 run` in `dir` with two jobs and generous reply limits, then `args`.
fn run_series(dir: &Path, args: &[&str]) -> Output {
    series_cmd(dir, 10_000, 5_000).args(args).output().unwrap()
}

use std::collections::BTreeMap;
use std::fs;
use std::io::BufReader;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};
use std::time::{Duration, Instant};

use take6::record::{GameRecord, read_games_jsonl};
use tempfile::TempDir;

#[path = "series/report.rs"]
mod report;

/// A copy of the committed sample bots (never the user's `bots/`, which may hold their own).
fn samples() -> PathBuf {
    static COPY: std::sync::OnceLock<TempDir> = std::sync::OnceLock::new();
    COPY.get_or_init(|| {
        let tmp = tempfile::tempdir().unwrap();
        common::copy_samples(tmp.path());
        tmp
    })
    .path()
    .to_path_buf()
}

fn fixture(name: &str) -> (&str, PathBuf) {
    (name, fixtures().join(name))
}

/// `take6 verify` of the latest series in `dir` passes.
fn assert_verifies(dir: &Path) {
    let out = take6_cmd(dir)
        .arg("verify")
        .env_remove("RUST_LOG")
        .output()
        .unwrap();
    assert_ok(&out);
}

fn games(dir: &Path) -> Vec<GameRecord> {
    games_in(dir, "results/latest")
}

/// The games of the last `take6 check` in `dir` (under results/checks/: a check never moves
/// the host's results/latest).
fn checked_games(dir: &Path) -> Vec<GameRecord> {
    games_in(dir, "results/checks/latest")
}

/// The games of the last `take6 play` in `dir` (under results/plays/).
fn played_games(dir: &Path) -> Vec<GameRecord> {
    games_in(dir, "results/plays/latest")
}

fn games_in(dir: &Path, latest: &str) -> Vec<GameRecord> {
    let series = fs::canonicalize(dir.join(latest)).unwrap();
    let file = fs::File::open(series.join("games.jsonl")).unwrap();
    let mut games = read_games_jsonl(BufReader::new(file)).unwrap();
    games.sort_by_key(|g| g.game);
    games
}

fn leaderboard(dir: &Path) -> Vec<BTreeMap<String, String>> {
    let mut reader = csv::Reader::from_path(series_dir(dir).join("leaderboard.csv")).unwrap();
    reader.deserialize().map(Result::unwrap).collect()
}

/// The faults of `bot` in `game`, as (turn, phase, kind).
fn faults_of(game: &GameRecord, bot: &str) -> Vec<(u8, String, String)> {
    let seat = game.players.iter().position(|p| p == bot).unwrap();
    game.rounds[0]
        .invalid
        .iter()
        .filter(|f| f.seat == seat)
        .map(|f| (f.turn, f.phase.as_str().to_string(), f.kind.clone()))
        .collect()
}

#[test]
fn sample_bots_play_a_clean_series_and_the_leaderboard_agrees_with_the_games() {
    let names: Vec<String> = fs::read_dir(samples())
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|n| !n.starts_with('.'))
        .collect();
    assert!(names.len() >= 3, "at least three sample bots: {names:?}");
    let bots: Vec<(&str, PathBuf)> = names
        .iter()
        .map(|n| (n.as_str(), samples().join(n)))
        .collect();
    let tmp = arena_of(&bots);
    let out = run_series(tmp.path(), &["--games", "12", "--seed", "5"]);
    assert_ok(&out);

    let games = games(tmp.path());
    assert_eq!(games.len(), 12);
    for g in &games {
        g.check().unwrap_or_else(|e| panic!("game {}: {e}", g.game));
        assert!(
            g.rounds[0].invalid.is_empty(),
            "game {}: {:?}",
            g.game,
            g.rounds[0].invalid
        );
        assert_eq!(g.players.len(), 10, "padded to ten");
        for n in &names {
            assert!(g.players.contains(n), "{n} plays every game");
        }
    }

    // The leaderboard is what the games say: totals, means, wins.
    let board = leaderboard(tmp.path());
    assert_eq!(board.len(), 10);
    for row in &board {
        let bot = &row["bot"];
        let scores: Vec<u32> = games
            .iter()
            .map(|g| {
                g.rounds[0].scores[g.players.iter().position(|p| p == bot).unwrap()].get() as u32
            })
            .collect();
        let total: u32 = scores.iter().sum();
        assert_eq!(row["games"], "12");
        assert_eq!(row["total_score"], total.to_string(), "{bot}");
        let mean: f64 = row["mean_score"].parse().unwrap();
        assert!((mean - f64::from(total) / 12.0).abs() < 0.001, "{bot}");
        assert_eq!(row["builtin"], (!names.contains(bot)).to_string(), "{bot}");
        assert_eq!(row["faults"], "0");
    }
    let means: Vec<f64> = board
        .iter()
        .map(|r| r["mean_score"].parse().unwrap())
        .collect();
    assert!(
        means.windows(2).all(|w| w[0] <= w[1]),
        "sorted by mean score"
    );
    let wins: f64 = board
        .iter()
        .map(|r| r["wins"].parse::<f64>().unwrap())
        .sum();
    assert!(
        (wins - 12.0).abs() < 0.05,
        "one win per game, shared on ties: {wins}"
    );

    let stdout = text(&out.stdout);
    for n in &names {
        assert!(stdout.contains(n.as_str()), "summary names {n}:\n{stdout}");
    }
    let manifest = fs::read_to_string(series_dir(tmp.path()).join("series.toml")).unwrap();
    assert!(manifest.contains("seed = 5"));
    assert!(manifest.contains("status = \"complete\""));
    for n in &names {
        assert!(manifest.contains(&format!("name = \"{n}\"")), "{manifest}");
    }
    // The bots folder is never written; builds happen in the working copies.
    for n in &names {
        let copy = series_dir(tmp.path()).join("work").join(n);
        assert!(copy.join("launch").exists());
    }
    assert_eq!(
        fs::read_dir(tmp.path().join("bots/cgap"))
            .map(|d| d.count())
            .ok(),
        fs::read_dir(samples().join("cgap")).map(|d| d.count()).ok(),
        "no build output in the bots folder"
    );
}

#[test]
fn every_misbehaving_bot_is_a_recorded_fault_and_the_others_play_on() {
    let tmp = arena_of(&[
        fixture("first"),
        fixture("lowest"),
        fixture("silent"),
        fixture("crash-at-start"),
        fixture("words"),
        fixture("not-held"),
        fixture("row-seven"),
        fixture("flood"),
        fixture("quits-midgame"),
    ]);
    let started = Instant::now();
    // The silent bot blocks, using no CPU: the wall-clock safety net (here 1x the limit)
    // ends its wait.
    let out = run_series(
        tmp.path(),
        &[
            "--games",
            "4",
            "--seed",
            "3",
            "--first-reply-ms",
            "2000",
            "--wall-factor",
            "1",
        ],
    );
    assert_ok(&out);
    // Four games, two at a time, each waiting 2 s at most for the silent bot: far less than
    // any bot could stall the series if faults were not bounded.
    assert!(started.elapsed() < Duration::from_secs(60));

    let games = games(tmp.path());
    assert_eq!(games.len(), 4);
    let mut row_faults = 0;
    for g in &games {
        g.check().unwrap_or_else(|e| panic!("game {}: {e}", g.game));
        let one = |bot: &str, turn: u8, phase: &str, kind: &str| {
            assert_eq!(
                faults_of(g, bot),
                vec![(turn, phase.to_string(), kind.to_string())],
                "{bot} in game {}",
                g.game
            );
            let seat = g.players.iter().position(|p| p == bot).unwrap();
            assert_eq!(g.rounds[0].penalty[seat], 100);
            assert_eq!(g.rounds[0].scores[seat], g.rounds[0].cows[seat] + 100);
        };
        one("silent", 1, "card", "timeout");
        one("crash-at-start", 1, "card", "exited");
        one("words", 1, "card", "not_a_number");
        one("not-held", 2, "card", "not_in_hand");
        one("flood", 1, "card", "line_too_long");
        one("quits-midgame", 4, "card", "exited");
        match faults_of(g, "row-seven").as_slice() {
            [] => {}
            [(_, phase, kind)] => {
                assert_eq!((phase.as_str(), kind.as_str()), ("row", "no_such_row"));
                row_faults += 1;
            }
            more => panic!("row-seven faulted twice: {more:?}"),
        }
        for clean in ["first", "lowest"] {
            assert!(faults_of(g, clean).is_empty(), "{clean} in game {}", g.game);
        }
        assert!(g.rounds[0].invalid.iter().all(|f| !f.reason.is_empty()));
    }
    assert!(row_faults > 0, "row-seven had to pick a row at least once");

    let board = leaderboard(tmp.path());
    let row = |bot: &str| board.iter().find(|r| r["bot"] == bot).unwrap().clone();
    assert_eq!(row("silent")["faults"], "4");
    assert_eq!(row("first")["faults"], "0");
    let log = fs::read_to_string(series_dir(tmp.path()).join("logs/silent.games.log")).unwrap();
    assert!(log.contains("no reply within 2000 ms"), "{log}");
    let log =
        fs::read_to_string(series_dir(tmp.path()).join("logs/crash-at-start.games.log")).unwrap();
    assert!(log.contains("fault in turn 1"), "{log}");
}

#[test]
fn a_bot_that_faults_in_game_after_game_sits_out_the_rest() {
    // silent never answers: each of its games costs the wall-clock safety net, until it is
    // benched after three in a row; then its seats are its fault at once, never started.
    let tmp = arena_of(&[fixture("first"), fixture("silent")]);
    let silent_series = |games: &str, extra: &[&str]| {
        let mut args = vec!["--players", "2", "--games", games, "--seed", "5"];
        args.extend(["--first-reply-ms", "1500", "--wall-factor", "1"]);
        args.extend_from_slice(extra);
        run_series(tmp.path(), &args)
    };
    let out = silent_series("12", &[]);
    assert_ok(&out);
    // The benched seats' records pass the independent checker.
    assert_verifies(tmp.path());
    let games = games(tmp.path());
    assert_eq!(games.len(), 12);
    let kinds: Vec<String> = games
        .iter()
        .map(|g| {
            g.check().unwrap_or_else(|e| panic!("game {}: {e}", g.game));
            let faults = faults_of(g, "silent");
            assert_eq!(faults.len(), 1, "game {}: {faults:?}", g.game);
            assert!(faults_of(g, "first").is_empty());
            let seat = g.players.iter().position(|p| p == "silent").unwrap();
            assert_eq!(g.rounds[0].penalty[seat], 100, "scored as its fault");
            faults[0].2.clone()
        })
        .collect();
    let timeouts = kinds.iter().filter(|k| *k == "timeout").count();
    let benched = kinds.iter().filter(|k| *k == "benched").count();
    // Three in a row bench it; with two tables, one more game may have started already.
    assert!((3..=4).contains(&timeouts), "{kinds:?}");
    assert_eq!(timeouts + benched, 12, "{kinds:?}");
    let benched_game = games
        .iter()
        .find(|g| faults_of(g, "silent")[0].2 == "benched")
        .unwrap();
    let reason = &benched_game.rounds[0].invalid[0].reason;
    assert!(
        reason.contains("benched after faults in 3 games in a row") && reason.contains("timeout"),
        "{reason}"
    );
    let stdout = text(&out.stdout);
    assert!(
        stdout.contains(&format!("silent sat out {benched} games: benched")),
        "{stdout}"
    );
    // --bench-after 0: never benched, every game its own timeout.
    let out = silent_series("5", &["--bench-after", "0"]);
    assert_ok(&out);
    let never: Vec<String> = games_in(tmp.path(), "results/latest")
        .iter()
        .map(|g| faults_of(g, "silent")[0].2.clone())
        .collect();
    assert_eq!(never, vec!["timeout"; 5], "{never:?}");
    assert_verifies(tmp.path());
}

/// Pids of the processes whose command line contains `pattern`.
fn processes_matching(pattern: &str) -> Vec<String> {
    let out = Command::new("pgrep")
        .args(["-f", pattern])
        .output()
        .unwrap();
    text(&out.stdout).lines().map(str::to_string).collect()
}

/// Pids of the `orphan` fixture's background child.
fn orphans() -> Vec<String> {
    processes_matching("sleep 7777")
}

#[test]
fn chatty_slow_and_child_leaving_bots_are_contained_without_faults() {
    let tmp = arena_of(&[
        fixture("first"),
        fixture("orphan"),
        fixture("chatty"),
        fixture("slow-start"),
        fixture("slow-reply"),
    ]);
    // Only this run's processes count: a killed run elsewhere may have left its own.
    let before = orphans();
    let out = run_series(
        tmp.path(),
        &[
            "--games",
            "2",
            "--seed",
            "8",
            "--reply-ms",
            "1500",
            "--first-reply-ms",
            "4000",
        ],
    );
    assert_ok(&out);
    let games = games(tmp.path());
    assert_eq!(games.len(), 2);
    for g in &games {
        g.check().unwrap();
        assert!(
            g.rounds[0].invalid.is_empty(),
            "game {}: {:?}",
            g.game,
            g.rounds[0].invalid
        );
    }
    // The orphan's child and the orphan itself are gone with its process group.
    let left: Vec<String> = orphans()
        .into_iter()
        .filter(|p| !before.contains(p))
        .collect();
    assert!(left.is_empty(), "processes left behind: {left:?}");
    // stderr is drained and capped: 64 KiB kept per game, the rest counted.
    let log = fs::read_to_string(series_dir(tmp.path()).join("logs/chatty.games.log")).unwrap();
    assert!(
        log.len() < 2 * (64 * 1024 + 1024),
        "capped: {} bytes",
        log.len()
    );
    assert!(log.contains("more bytes of stderr dropped"));
}

#[test]
fn unusable_folders_are_skipped_with_reasons_and_the_series_goes_on() {
    let tmp = arena_of(&[
        fixture("first"),
        fixture("build-fails"),
        fixture("build-hangs"),
        fixture("no-launch"),
        fixture("not-executable"),
        fixture("bad-template"),
    ]);
    // Git keeps the executable bit, but make sure the fixture is what it claims.
    let launch = tmp.path().join("bots/not-executable/launch");
    let mut perms = fs::metadata(&launch).unwrap().permissions();
    std::os::unix::fs::PermissionsExt::set_mode(&mut perms, 0o644);
    fs::set_permissions(&launch, perms).unwrap();

    let out = run_series(tmp.path(), &["--games", "2", "--build-timeout-s", "2"]);
    assert_ok(&out);
    let stderr = text(&out.stderr);
    let expect = [
        ("build-fails", "build exited with status 1"),
        ("build-hangs", "build timed out after 2 s"),
        ("no-launch", "no launch script"),
        ("not-executable", "chmod +x launch"),
        ("bad-template", "no-such-set"),
    ];
    for (bot, reason) in expect {
        let line = stderr
            .lines()
            .find(|l| l.contains(&format!("bots/{bot}: skipped:")))
            .unwrap_or_else(|| panic!("no skip line for {bot}:\n{stderr}"));
        assert!(line.contains(reason), "{line}");
    }
    assert!(stderr.contains("build-fails.build.log"));
    let manifest = fs::read_to_string(series_dir(tmp.path()).join("series.toml")).unwrap();
    for (bot, _) in expect {
        assert!(
            manifest.contains(&format!("name = \"{bot}\"")),
            "{manifest}"
        );
    }
    let stdout = text(&out.stdout);
    assert!(stdout.contains("Skipped"), "{stdout}");
    assert_eq!(games(tmp.path()).len(), 2);
}

#[test]
fn no_usable_bot_is_an_error_listing_the_reasons() {
    let tmp = arena_of(&[fixture("no-launch"), fixture("build-fails")]);
    let out = run_series(tmp.path(), &["--games", "1"]);
    assert!(!out.status.success());
    let stderr = text(&out.stderr);
    assert!(stderr.contains("no usable bot"), "{stderr}");
    assert!(
        stderr.contains("no-launch") && stderr.contains("build-fails"),
        "{stderr}"
    );

    let empty = tempfile::tempdir().unwrap();
    let out = run_series(empty.path(), &["--bots", "nowhere"]);
    assert!(!out.status.success());
    assert!(
        text(&out.stderr).contains("nowhere"),
        "{}",
        text(&out.stderr)
    );
}

#[test]
fn the_same_seed_gives_the_same_games_whatever_jobs_is() {
    let bots = [fixture("first"), fixture("lowest"), fixture("cg-first")];
    let run = |jobs: &str| {
        let tmp = arena_of(&bots);
        let out = run_series(
            tmp.path(),
            &["--games", "6", "--seed", "11", "--jobs", jobs],
        );
        assert_ok(&out);
        games(tmp.path())
            .into_iter()
            .map(|g| GameRecord {
                ms: 0,
                replies: Vec::new(),
                ..g
            })
            .collect::<Vec<_>>()
    };
    let one = run("1");
    let three = run("3");
    assert_eq!(one.len(), 6);
    assert_eq!(one, three);
    for g in &one {
        g.check().unwrap();
        assert!(
            g.rounds[0].invalid.is_empty(),
            "a CodinGame bot shares the table: {:?}",
            g.rounds[0].invalid
        );
    }
    let other_seed = {
        let tmp = arena_of(&bots);
        assert_ok(&run_series(tmp.path(), &["--games", "1", "--seed", "12"]));
        games(tmp.path()).remove(0)
    };
    assert_ne!(other_seed.rounds[0].hands, one[0].rounds[0].hands);
}

/// The processors a process may run on, from a `Cpus_allowed_list` ("0-3,6").
fn cpu_list(list: &str) -> Vec<usize> {
    let mut cpus = Vec::new();
    for part in list.trim().split(',') {
        match part.split_once('-') {
            Some((a, b)) => cpus.extend(a.parse::<usize>().unwrap()..=b.parse().unwrap()),
            None => cpus.push(part.parse().unwrap()),
        }
    }
    cpus
}

/// Per game, the processors each bot of `bots` said at its start it may run on (the `pinned`
/// bots write their `Cpus_allowed_list` to stderr, which `logs/<bot>.games.log` keeps per game).
fn cpus_by_game(dir: &Path, bots: &[&str]) -> BTreeMap<u64, Vec<Vec<usize>>> {
    let mut by_game: BTreeMap<u64, Vec<Vec<usize>>> = BTreeMap::new();
    for bot in bots {
        let log =
            fs::read_to_string(series_dir(dir).join(format!("logs/{bot}.games.log"))).unwrap();
        let mut game = None;
        for line in log.lines() {
            if let Some(rest) = line.strip_prefix("=== game ") {
                game = rest.split(' ').next().map(|n| n.parse::<u64>().unwrap());
            } else if let Some(list) = line.strip_prefix("Cpus_allowed_list:") {
                let game = game.expect("a game header first");
                by_game.entry(game).or_default().push(cpu_list(list));
            }
        }
    }
    by_game
}

/// Tables pinned to processors: with --jobs a multiple of the processors, every bot
/// of a game runs on its table's one processor, and the tables use every processor; with
/// --pin-tables false (or --jobs that is no multiple) a bot may run on all of them. The games
/// are the same either way, and strict readers read every line they are promised.
#[test]
fn tables_are_pinned_to_processors_with_their_bots_and_play_the_same_games() {
    let own = fs::read_to_string("/proc/self/status").unwrap();
    let allowed = cpu_list(
        own.lines()
            .find_map(|l| l.strip_prefix("Cpus_allowed_list:"))
            .unwrap(),
    );
    let jobs = allowed.len().to_string();
    let bots = ["pinned-a", "pinned-b", "pinned-c"];
    let run = |pin: &str, jobs: &str| {
        let tmp = tempfile::tempdir().unwrap();
        for bot in bots {
            let dir = tmp.path().join("bots").join(bot);
            fs::create_dir_all(&dir).unwrap();
            fs::copy(
                fixtures().join("strict-default/launch"),
                dir.join("strict.py"),
            )
            .unwrap();
            let launch = dir.join("launch");
            fs::write(
                &launch,
                "#!/bin/sh\ngrep Cpus_allowed_list /proc/$$/status >&2\nexec python3 strict.py\n",
            )
            .unwrap();
            use std::os::unix::fs::PermissionsExt;
            fs::set_permissions(&launch, fs::Permissions::from_mode(0o755)).unwrap();
        }
        let out = run_series(
            tmp.path(),
            &[
                "--games",
                "8",
                "--players",
                "4",
                "--seed",
                "5",
                "--jobs",
                jobs,
                "--pin-tables",
                pin,
            ],
        );
        assert_ok(&out);
        for bot in bots {
            let verdicts = verdicts(tmp.path(), bot);
            assert_eq!(verdicts.len(), 8, "{bot}: {verdicts:?}");
            assert!(verdicts.iter().all(|v| v == "ok"), "{bot}: {verdicts:?}");
        }
        let played: Vec<GameRecord> = games(tmp.path())
            .into_iter()
            .map(|g| GameRecord {
                ms: 0,
                replies: Vec::new(),
                ..g
            })
            .collect();
        (cpus_by_game(tmp.path(), &bots), played)
    };

    let (pinned, pinned_games) = run("true", &jobs);
    assert_eq!(pinned.len(), 8, "every game's bots said where they run");
    let mut used = Vec::new();
    for (game, cpus) in &pinned {
        assert_eq!(cpus.len(), bots.len(), "game {game}: {cpus:?}");
        if allowed.len() > 1 {
            assert_eq!(
                cpus[0].len(),
                1,
                "game {game} is on one processor: {cpus:?}"
            );
            assert!(cpus.iter().all(|c| c == &cpus[0]), "game {game}: {cpus:?}");
        }
        used.extend(cpus[0].iter().copied());
    }
    used.sort();
    used.dedup();
    assert_eq!(
        used, allowed,
        "the tables use every processor, and only those"
    );

    let (free, free_games) = run("false", &jobs);
    for (game, cpus) in &free {
        assert!(cpus.iter().all(|c| c == &allowed), "game {game}: {cpus:?}");
    }
    assert_eq!(pinned_games, free_games, "pinning changes no game");
    if allowed.len() > 1 {
        // One table on several processors: its bots think on all of them.
        let (one, _) = run("true", "1");
        for (game, cpus) in &one {
            assert!(cpus.iter().all(|c| c == &allowed), "game {game}: {cpus:?}");
        }
    }
}

#[test]
fn more_than_ten_bots_play_every_ten_bot_subset() {
    let names: Vec<String> = (0..11).map(|i| format!("first{i:02}")).collect();
    let bots: Vec<(&str, PathBuf)> = names
        .iter()
        .map(|n| (n.as_str(), fixtures().join("first")))
        .collect();
    let tmp = arena_of(&bots);
    let out = run_series(
        tmp.path(),
        &["--games", "5", "--seed", "2", "--schedule", "all"],
    );
    assert_ok(&out);
    let games = games(tmp.path());
    assert_eq!(games.len(), 11, "11 subsets, at least one game each");
    let mut subsets: Vec<Vec<String>> = games
        .iter()
        .map(|g| {
            assert!(g.builtin.iter().all(|b| !b), "no padding");
            let mut p = g.players.clone();
            p.sort();
            p
        })
        .collect();
    subsets.sort();
    subsets.dedup();
    assert_eq!(subsets.len(), 11);
    for row in leaderboard(tmp.path()) {
        assert_eq!(row["games"], "10", "each bot sits out one subset");
    }
}

#[test]
fn bad_settings_are_errors_that_name_the_setting() {
    let tmp = arena_of(&[fixture("first")]);
    fs::write(tmp.path().join("take6.toml"), "gmaes = 3\n").unwrap();
    let out = run_series(tmp.path(), &[]);
    assert!(!out.status.success());
    let stderr = text(&out.stderr);
    assert!(
        stderr.contains("take6.toml") && stderr.contains("gmaes"),
        "{stderr}"
    );

    fs::write(tmp.path().join("take6.toml"), "games = 0\n").unwrap();
    let out = run_series(tmp.path(), &[]);
    assert!(!out.status.success());
    assert!(text(&out.stderr).contains("games = 0"));

    fs::write(tmp.path().join("take6.toml"), "games = 2\nseed = 4\n").unwrap();
    assert_ok(&run_series(tmp.path(), &[]));
    assert_eq!(games(tmp.path()).len(), 2);
    assert_eq!(games(tmp.path())[0].seed, {
        let s = take6::schedule::Schedule::new(take6::schedule::Request {
            game: take6::game::GameRef::default_game(),
            entrants: 1,
            players: 10,
            games: 2,
            kind: take6::schedule::ScheduleKind::Auto,
            duplicate: None,
            seed: 4.into(),
        })
        .unwrap();
        s.game_seed(0)
    });
}

#[test]
fn a_broken_template_skips_only_its_bot_naming_file_and_line() {
    let tmp = arena_of(&[fixture("first"), ("typo", fixtures().join("first"))]);
    fs::write(
        tmp.path().join("bots/typo/template.toml"),
        "turn = \"\"\"\ncount {{ rows | length }}\nhand {{ hnd }}\n\"\"\"\n",
    )
    .unwrap();
    let out = run_series(tmp.path(), &["--games", "1"]);
    assert_ok(&out);
    let stderr = text(&out.stderr);
    let line = stderr
        .lines()
        .find(|l| l.contains("bots/typo: skipped:"))
        .unwrap_or_else(|| panic!("{stderr}"));
    assert!(
        line.contains("template.toml:") && line.contains("hnd"),
        "{line}"
    );
    assert_eq!(
        games(tmp.path())[0]
            .players
            .iter()
            .filter(|p| *p == "first")
            .count(),
        1
    );
}

#[test]
fn bots_keep_private_files_across_games_of_a_series_but_not_across_series() {
    let tmp = arena_of(&[fixture("first")]);
    let bot = tmp.path().join("bots/counter");
    fs::create_dir_all(&bot).unwrap();
    let launch = bot.join("launch");
    fs::write(
        &launch,
        "#!/bin/sh\necho x >> games.txt\nulimit -c > core-limit.txt\nexec ./play\n",
    )
    .unwrap();
    fs::copy(fixtures().join("first/launch"), bot.join("play")).unwrap();
    let mut perms = fs::metadata(bot.join("play")).unwrap().permissions();
    std::os::unix::fs::PermissionsExt::set_mode(&mut perms, 0o755);
    fs::set_permissions(&launch, perms.clone()).unwrap();

    // Unisolated first (the plain warm init forbids core dumps to itself and so to its bots),
    // then with the machine's sandbox.
    for mode in ["none", "auto"] {
        assert_ok(&run_series(
            tmp.path(),
            &["--games", "3", "--seed", "1", "--sandbox", mode],
        ));
        let counted =
            fs::read_to_string(series_dir(tmp.path()).join("work/counter/games.txt")).unwrap();
        assert_eq!(
            counted.lines().count(),
            3,
            "a fresh copy each series, kept within it"
        );
        let core = series_dir(tmp.path()).join("work/counter/core-limit.txt");
        assert_eq!(
            fs::read_to_string(core).unwrap(),
            "0\n",
            "no core dumps (--sandbox {mode})"
        );
        assert!(
            games(tmp.path())
                .iter()
                .all(|g| g.rounds[0].invalid.is_empty())
        );
    }
    assert!(!bot.join("games.txt").exists());
}

#[test]
fn an_interrupted_series_keeps_every_finished_game() {
    let tmp = arena_of(&[fixture("first"), fixture("slow-reply")]);
    let child = take6_cmd(tmp.path())
        .args(["run", "--games", "50", "--jobs", "2", "--seed", "6"])
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    // slow-reply takes ~5 s a game: wait for the first games to finish, then Ctrl-C.
    let jsonl = tmp.path().join("results/latest/games.jsonl");
    let deadline = Instant::now() + Duration::from_secs(60);
    while fs::read_to_string(&jsonl).map_or(0, |t| t.lines().count()) < 2 {
        assert!(Instant::now() < deadline, "no game finished");
        std::thread::sleep(Duration::from_millis(100));
    }
    nix::sys::signal::kill(
        nix::unistd::Pid::from_raw(child.id() as i32),
        nix::sys::signal::Signal::SIGINT,
    )
    .unwrap();
    let out = child.wait_with_output().unwrap();
    assert_eq!(out.status.code(), Some(130), "{}", text(&out.stderr));
    let played = games(tmp.path());
    assert!(played.len() >= 2 && played.len() < 50);
    let manifest = fs::read_to_string(series_dir(tmp.path()).join("series.toml")).unwrap();
    assert!(manifest.contains("status = \"interrupted\""), "{manifest}");
    assert!(manifest.contains(&format!("games_played = {}", played.len())));
    let board = leaderboard(tmp.path());
    let first = board.iter().find(|r| r["bot"] == "first").unwrap();
    assert_eq!(first["games"], played.len().to_string());
    assert!(text(&out.stdout).contains("interrupted"));
    let left = processes_matching(&tmp.path().to_string_lossy());
    assert!(left.is_empty(), "bots left running: {left:?}");
}

/// A bot folder that records everything it is sent in `input.txt`, then plays as `player`.
fn recording_bot(dir: &Path, name: &str, player: &str, template: &str) {
    let bot = dir.join("bots").join(name);
    fs::create_dir_all(&bot).unwrap();
    fs::copy(fixtures().join(player).join("launch"), bot.join("play")).unwrap();
    fs::write(bot.join("launch"), "#!/bin/sh\ntee input.txt | ./play\n").unwrap();
    let exec = fs::metadata(bot.join("play")).unwrap().permissions();
    fs::set_permissions(bot.join("launch"), exec).unwrap();
    fs::write(bot.join("bot.toml"), format!("template = \"{template}\"\n")).unwrap();
}

#[test]
fn named_and_codingame_bots_receive_their_own_wire_format_at_a_shared_table() {
    let tmp = arena_of(&[fixture("first")]);
    recording_bot(tmp.path(), "named", "first", "named");
    recording_bot(tmp.path(), "arena", "cg-first", "codingame");
    assert_ok(&run_series(tmp.path(), &["--games", "1", "--seed", "4"]));
    let game = games(tmp.path()).remove(0);
    game.check().unwrap();
    assert!(
        game.rounds[0].invalid.is_empty(),
        "{:?}",
        game.rounds[0].invalid
    );
    let input = |bot: &str| {
        fs::read_to_string(
            series_dir(tmp.path())
                .join("work")
                .join(bot)
                .join("input.txt"),
        )
        .unwrap()
    };
    let seat = |bot: &str| game.players.iter().position(|p| p == bot).unwrap();
    let join = |cards: &[u8]| {
        cards
            .iter()
            .map(u8::to_string)
            .collect::<Vec<_>>()
            .join(" ")
    };

    let named = input("named");
    let lines: Vec<&str> = named.lines().collect();
    assert_eq!(lines[0], format!("players {}", game.players.join(" ")));
    assert_eq!(
        lines[1],
        format!("cards {}", join(&game.rounds[0].hands[seat("named")]))
    );
    assert_eq!(lines[2], "count 1 1 1 1");
    assert_eq!(
        *lines.last().unwrap(),
        format!("others {}", {
            let s = seat("named");
            let others: Vec<String> = (0..10)
                .filter(|&i| i != s)
                .map(|i| game.rounds[0].scores[i].to_string())
                .collect();
            others.join(" ")
        })
    );

    let arena = input("arena");
    let lines: Vec<&str> = arena.lines().collect();
    assert_eq!(lines[0], format!("10 {}", seat("arena")));
    // The live arena's order: 12 lines of state, the hand, then the phase word.
    assert_eq!(lines[1], ["-1"; 10].join(" "));
    for (row, &start) in game.rounds[0].rows.iter().enumerate() {
        assert_eq!(lines[2 + 2 * row], "1");
        assert_eq!(lines[3 + 2 * row], start.to_string());
    }
    assert_eq!(lines[10], ["0"; 10].join(" "), "scores");
    assert_eq!(lines[11], "10");
    assert_eq!(lines[12], join(&game.rounds[0].hands[seat("arena")]));
    assert_eq!(lines[13], "CHOOSE_CARD_TO_PLAY");
    // Turn 2 shows every seat's turn-1 card, on the line after turn 1's last block.
    let blocks: Vec<usize> = lines
        .iter()
        .enumerate()
        .filter(|(_, l)| l.starts_with("CHOOSE_"))
        .map(|(i, _)| i)
        .collect();
    let second = blocks
        .iter()
        .position(|&i| lines[i] == "CHOOSE_CARD_TO_PLAY" && i > 13)
        .unwrap();
    assert_eq!(
        lines[blocks[second - 1] + 1],
        join(&game.rounds[0].turns[0].played)
    );
    assert!(
        lines
            .iter()
            .all(|l| !l.starts_with("used") && !l.starts_with("cards")),
        "nothing of the default protocol reaches a CodinGame bot"
    );
    let picks = lines
        .iter()
        .filter(|l| **l == "CHOOSE_LINE_TO_PICK")
        .count();
    let seat_picks = game.rounds[0]
        .turns
        .iter()
        .flat_map(|t| &t.events)
        .filter(|e| e.seat == seat("arena") && e.reason.is_some())
        .count();
    assert_eq!(picks, seat_picks);
}

/// `take6 leaderboard` in `dir`.
fn rebuild(dir: &Path) -> Output {
    take6_cmd(dir).arg("leaderboard").output().unwrap()
}

#[test]
fn the_leaderboard_can_be_rebuilt_from_games_jsonl() {
    let tmp = arena_of(&[fixture("first"), fixture("lowest")]);
    assert_ok(&run_series(tmp.path(), &["--games", "5", "--seed", "9"]));
    let path = series_dir(tmp.path()).join("leaderboard.csv");
    let report = series_dir(tmp.path()).join("report.html");
    let written = fs::read_to_string(&path).unwrap();
    let page = fs::read_to_string(&report).unwrap();
    fs::remove_file(&path).unwrap();
    fs::remove_file(&report).unwrap();
    let out = rebuild(tmp.path());
    assert_ok(&out);
    assert_eq!(fs::read_to_string(&path).unwrap(), written);
    assert_eq!(fs::read_to_string(&report).unwrap(), page);
    assert!(
        text(&out.stdout).contains("5 games"),
        "{}",
        text(&out.stdout)
    );

    // A damaged log is an error naming the file and the line, not a silent partial result.
    let jsonl = series_dir(tmp.path()).join("games.jsonl");
    let mut log = fs::read_to_string(&jsonl).unwrap();
    log.push_str("{\"game\": 99, \"trunc\n");
    fs::write(&jsonl, log).unwrap();
    let out = rebuild(tmp.path());
    assert!(!out.status.success());
    let stderr = text(&out.stderr);
    assert!(
        stderr.contains("games.jsonl") && stderr.contains("line 6"),
        "{stderr}"
    );
}

#[test]
fn a_recorded_game_is_replayed_turn_by_turn() {
    let tmp = arena_of(&[fixture("first"), fixture("not-held")]);
    assert_ok(&run_series(tmp.path(), &["--games", "3", "--seed", "4"]));
    let game = &games(tmp.path())[2];
    let replay = |args: &[&str]| {
        take6_cmd(tmp.path())
            .arg("replay")
            .args(args)
            .output()
            .unwrap()
    };
    let out = replay(&["results/latest", "2"]);
    assert_ok(&out);
    let shown = text(&out.stdout);
    assert_eq!(shown.matches("\nTurn ").count(), 10, "{shown}");
    // After each turn, the row tops are the highest cards placed in them.
    let frames = take6::games::take6::replay::frames(game);
    for (turn, frame) in frames.iter().enumerate().skip(1) {
        let section = shown.split(&format!("\nTurn {turn}\n")).nth(1).unwrap();
        let row0 = section
            .lines()
            .find(|l| l.trim_start().starts_with("row 0:"))
            .unwrap();
        let top = frame.rows[0].last().unwrap();
        assert!(row0.contains(&format!(" {top}(")), "turn {turn}: {row0}");
    }
    // The faulting bot is named with its reason; final scores are the record's.
    assert!(shown.contains("FAULT not-held"), "{shown}");
    for (name, score) in game.players.iter().zip(&game.rounds[0].scores) {
        assert!(
            shown
                .lines()
                .any(|l| l.trim_start().starts_with(name.as_str())
                    && l.contains(&format!(": {score}"))),
            "{name} {score}: {shown}"
        );
    }
    let out = replay(&["results/latest", "17"]);
    assert!(!out.status.success());
    assert!(
        text(&out.stderr).contains("no game 17"),
        "{}",
        text(&out.stderr)
    );
}

/// `take6 check` in `dir` on the bot folder `bot`, with test-friendly limits.
fn check(dir: &Path, bot: &str, args: &[&str]) -> Output {
    take6_cmd(dir)
        .args([
            "check",
            bot,
            "--first-reply-ms",
            "5000",
            "--reply-ms",
            "2000",
        ])
        .args(args)
        .env_remove("RUST_LOG")
        .output()
        .unwrap()
}

/// The content hash of a folder and its entries' modification times: any write shows.
fn fingerprint(dir: &Path) -> (String, Vec<std::time::SystemTime>) {
    let hash = take6::folder::scan(dir, u64::MAX).unwrap().hash().unwrap();
    let mut times = vec![fs::metadata(dir).unwrap().modified().unwrap()];
    for e in fs::read_dir(dir).unwrap() {
        times.push(e.unwrap().metadata().unwrap().modified().unwrap());
    }
    (hash, times)
}

#[test]
fn check_shows_a_bot_author_the_transcript_faults_times_and_scores() {
    let tmp = tempfile::tempdir().unwrap();
    for name in ["first", "not-held", "build-fails"] {
        copy_dir(&fixtures().join(name), &tmp.path().join(name));
    }
    let before = fingerprint(&tmp.path().join("first"));
    let out = check(tmp.path(), "first", &["--games", "3", "--seed", "2"]);
    assert_ok(&out);
    let shown = text(&out.stdout);
    assert!(shown.contains("Transcript of game 0"), "{shown}");
    assert!(
        shown.contains("> cards ") && shown.contains("< "),
        "{shown}"
    );
    assert_eq!(
        shown.matches("> cards ").count(),
        1,
        "one game's transcript"
    );
    assert!(
        shown.contains("replied in") && shown.contains("limit 2000 ms"),
        "{shown}"
    );
    assert!(
        shown.contains("Mean score") && shown.contains("the built-ins"),
        "{shown}"
    );
    assert!(shown.contains("OK: no fault in 3 games"), "{shown}");
    assert!(!shown.contains("FAULT"));
    assert_eq!(
        fingerprint(&tmp.path().join("first")),
        before,
        "the folder is not written"
    );
    assert_eq!(checked_games(tmp.path()).len(), 3);

    // A bot that plays a card it no longer holds: the fault, the message, the reply, and the
    // hand it should have chosen from; exit 1.
    let out = check(tmp.path(), "not-held", &["--games", "2", "--seed", "2"]);
    assert_eq!(out.status.code(), Some(1), "{}", text(&out.stderr));
    let shown = text(&out.stdout);
    let g = &checked_games(tmp.path())[0];
    let seat = g.players.iter().position(|p| p == "not-held").unwrap();
    let hand: Vec<String> = {
        let mut h: Vec<u8> = g.rounds[0].hands[seat][1..].to_vec();
        h.sort_unstable();
        h.iter().map(u8::to_string).collect()
    };
    let fault = "FAULT in game 0, turn 2 (choosing a card)";
    assert!(shown.contains(fault), "{shown}");
    let section = shown.split(fault).nth(1).unwrap();
    assert!(
        section.contains("it was answering:") && section.contains("> top "),
        "{section}"
    );
    assert!(
        section.contains(&format!("< {}", g.rounds[0].hands[seat][0])),
        "{section}"
    );
    assert!(
        section.contains(&format!(
            "one of the cards in its hand {} ({} is not in its hand)",
            hand.join(" "),
            g.rounds[0].hands[seat][0]
        )),
        "{section}"
    );
    assert!(shown.contains("FAILED: 2 faults in 2 games"), "{shown}");

    // A build that fails: its output is shown; exit 1.
    let out = check(tmp.path(), "build-fails", &[]);
    assert_eq!(out.status.code(), Some(1));
    let shown = text(&out.stdout);
    assert!(shown.contains("build-fails did not play"), "{shown}");
    assert!(shown.contains("this build always fails"), "{shown}");
    // A path that is not there, and a folder that is not a bot: each said as it is.
    let out = check(tmp.path(), "nowhere", &[]);
    assert!(!out.status.success());
    assert!(
        text(&out.stderr).contains("nowhere does not exist"),
        "{}",
        text(&out.stderr)
    );
    fs::create_dir_all(tmp.path().join("empty")).unwrap();
    let out = check(tmp.path(), "empty", &[]);
    assert!(!out.status.success());
    assert!(
        text(&out.stderr).contains("empty is not a bot folder: it has no 'launch'"),
        "{}",
        text(&out.stderr)
    );
}

#[test]
fn bots_come_from_a_git_repository_at_a_revision_and_the_commit_is_recorded() {
    let tmp = tempfile::tempdir().unwrap();
    let repo = tmp.path().join("botrepo");
    copy_dir(&fixtures().join("first"), &repo.join("alpha"));
    copy_dir(&fixtures().join("lowest"), &repo.join("beta"));
    git(&repo, &["init", "--quiet", "--initial-branch=main"]);
    git(&repo, &["add", "."]);
    git(&repo, &["commit", "--quiet", "-m", "two bots"]);
    let first = git(&repo, &["rev-parse", "HEAD"]);
    git(&repo, &["tag", "v1"]);
    fs::remove_dir_all(repo.join("beta")).unwrap();
    git(&repo, &["commit", "--quiet", "-a", "-m", "one bot"]);
    let second = git(&repo, &["rev-parse", "HEAD"]);
    // `git status` refreshes the index: run it before taking the fingerprint.
    assert_eq!(git(&repo, &["status", "--porcelain"]), "");
    let before = fingerprint(&repo);

    let recorded = |dir: &Path| {
        let manifest: toml::Table = fs::read_to_string(series_dir(dir).join("series.toml"))
            .unwrap()
            .parse()
            .unwrap();
        manifest["settings"]["bots_repository"]["commit"]
            .as_str()
            .unwrap()
            .to_string()
    };
    let players = |dir: &Path| {
        let mut p: Vec<String> = games(dir)[0]
            .players
            .iter()
            .filter(|p| !p.contains('#'))
            .cloned()
            .collect();
        p.sort();
        p
    };
    let at_tag = format!("{}@v1", repo.display());
    assert_ok(&run_series(
        tmp.path(),
        &["--bots", &at_tag, "--games", "2", "--seed", "1"],
    ));
    assert_eq!(players(tmp.path()), ["alpha", "beta"]);
    assert_eq!(recorded(tmp.path()), first);

    // Without a revision: the repository's current HEAD, fetched into the same cache.
    let head = repo.display().to_string();
    assert_ok(&run_series(
        tmp.path(),
        &["--bots", &head, "--games", "2", "--seed", "1"],
    ));
    assert_eq!(players(tmp.path()), ["alpha"]);
    assert_eq!(recorded(tmp.path()), second);
    assert_eq!(
        fs::read_dir(tmp.path().join("results/.repos"))
            .unwrap()
            .count(),
        1,
        "one cache per repository"
    );
    let at_commit = format!("{}@{}", repo.display(), &first[..10]);
    assert_ok(&run_series(
        tmp.path(),
        &["--bots", &at_commit, "--games", "1", "--seed", "1"],
    ));
    assert_eq!(players(tmp.path()), ["alpha", "beta"]);

    // The repository itself was only read.
    assert_eq!(fingerprint(&repo), before);
    assert_eq!(git(&repo, &["status", "--porcelain"]), "");
    assert_eq!(git(&repo, &["rev-parse", "HEAD"]), second);

    // A revision that does not exist is an error naming it.
    let bad = format!("{}@nosuchrev", repo.display());
    let out = run_series(tmp.path(), &["--bots", &bad, "--games", "1"]);
    assert!(!out.status.success());
    assert!(
        text(&out.stderr).contains("no revision nosuchrev"),
        "{}",
        text(&out.stderr)
    );
}

/// A repository's folder that holds no bot at all (`docs/`) is left out with a note,
/// not a skip that makes the run exit 3; a folder meant as a bot (it has a bot.toml) is still
/// skipped. Both are named as the repository at its revision, never by the cache's path, and
/// the start line says which commit is played.
#[test]
fn a_repositorys_folder_that_holds_no_bot_is_a_note_and_paths_name_the_repository() {
    let tmp = tempfile::tempdir().unwrap();
    let repo = tmp.path().join("koth-bots");
    copy_dir(&fixtures().join("first"), &repo.join("alpha"));
    fs::create_dir_all(repo.join("docs")).unwrap();
    fs::write(repo.join("docs/README.md"), "# How to enter\n").unwrap();
    fs::create_dir_all(repo.join("broken")).unwrap();
    fs::write(repo.join("broken/bot.toml"), "template = \"default\"\n").unwrap();
    git(&repo, &["init", "--quiet", "--initial-branch=main"]);
    git(&repo, &["add", "."]);
    git(
        &repo,
        &["commit", "--quiet", "-m", "a bot, docs, a broken bot"],
    );
    git(&repo, &["tag", "v1"]);
    let v1 = git(&repo, &["rev-parse", "HEAD"]);
    fs::remove_dir_all(repo.join("broken")).unwrap();
    git(&repo, &["commit", "--quiet", "-a", "-m", "no broken bot"]);
    git(&repo, &["tag", "v2"]);

    // Without --allow-skips (which this file's run_series() passes): the exit status counts.
    let run = |bots: &str| {
        take6_cmd(tmp.path())
            .args(["run", "--games", "1", "--reply-ms", "5000", "--bots", bots])
            .env_remove("RUST_LOG")
            .output()
            .unwrap()
    };
    let out = run("koth-bots@v1");
    let said = said_of(&out);
    assert_eq!(out.status.code(), Some(3), "{said}");
    assert!(
        said.contains("take6: note: koth-bots@v1:docs left out: it holds no bot"),
        "{said}"
    );
    assert!(
        said.contains("koth-bots@v1:broken: skipped: no launch"),
        "{said}"
    );
    assert!(said.contains("1 bot was skipped"), "{said}");
    assert!(
        said.contains(&format!("1 bot (koth-bots@v1, commit {})", &v1[..12])),
        "{said}"
    );
    assert!(!said.contains(".repos"), "the cache is named: {said}");

    let out = run("koth-bots@v2");
    assert_ok(&out);
    let said = said_of(&out);
    assert!(said.contains("note: koth-bots@v2:docs left out"), "{said}");
    assert!(!said.contains("Skipped:"), "{said}");
}

/// An entrant's metadata in bot.toml (author, description, url, version) is kept and
/// shown in the report's Bots table; another key is a warning naming it, not a skip.
#[test]
fn bot_toml_metadata_is_shown_in_the_report_and_an_unknown_key_is_a_warning() {
    let tmp = arena_of(&[fixture("first"), fixture("lowest")]);
    fs::write(
        tmp.path().join("bots/first/bot.toml"),
        "author = \"Alice <alice@example.org>\"\ndescription = \"plays its first card\"\n\
         url = \"https://example.org/first\"\nversion = \"1.2\"\ncolour = \"red\"\n",
    )
    .unwrap();
    let out = run_series(tmp.path(), &["--games", "1"]);
    assert_ok(&out);
    let said = said_of(&out);
    assert!(
        said.contains("take6: warning: bots/first: bot.toml: unknown key colour ignored"),
        "{said}"
    );
    assert!(!said.contains("skipped"), "{said}");
    let manifest = fs::read_to_string(series_dir(tmp.path()).join("series.toml")).unwrap();
    assert!(manifest.contains("version = \"1.2\""), "{manifest}");
    let page = fs::read_to_string(series_dir(tmp.path()).join("report.html")).unwrap();
    for part in [
        "<td class=\"version\">1.2</td>",
        "<td class=\"author\">Alice &lt;alice@example.org&gt;</td>",
        "plays its first card <a href=\"https://example.org/first\"",
    ] {
        assert!(page.contains(part), "{part} in the report");
    }
}

/// Off a terminal, each bot's build is said as it starts and as it ends, with its
/// time, and a closing line names the slowest: a run never sits silent while bots build.
#[test]
fn builds_are_said_as_they_start_and_end_and_the_slow_ones_named() {
    let tmp = arena_of(&[fixture("first"), fixture("lowest")]);
    use std::os::unix::fs::PermissionsExt;
    for (bot, script) in [
        ("first", "#!/bin/sh\nsleep 1.5\n"),
        ("lowest", "#!/bin/sh\ntrue\n"),
    ] {
        let build = tmp.path().join("bots").join(bot).join("build");
        fs::write(&build, script).unwrap();
        fs::set_permissions(&build, fs::Permissions::from_mode(0o755)).unwrap();
    }
    let out = run_series(tmp.path(), &["--games", "1"]);
    assert_ok(&out);
    let stderr = text(&out.stderr);
    let at = |needle: &str| {
        stderr
            .find(needle)
            .unwrap_or_else(|| panic!("{needle} in {stderr}"))
    };
    assert!(at("take6: building first\n") < at("take6: built first in 1."));
    assert!(at("take6: building lowest\n") < at("take6: built lowest in 0."));
    let closing = at("take6: 2 builds in ");
    assert!(closing > at("take6: built first in"), "{stderr}");
    assert!(
        stderr[closing..]
            .lines()
            .next()
            .unwrap()
            .contains("; the slowest: first 1."),
        "{stderr}"
    );
    // All of it before the games begin.
    assert!(closing < at("2 bots + 8 built-ins"), "{stderr}");
}

/// A report to publish. Bots are named where the host named them (the repository at
/// its revision), never by this machine's absolute paths; the config by its name; the interval
/// scale holds the field, a faulty bot far from it marked at the edge, and the caption does
/// not call a scale from 0 one that does not start at 0.
#[test]
fn the_report_names_bots_by_repository_and_scales_intervals_to_the_field() {
    let tmp = tempfile::tempdir().unwrap();
    let repo = tmp.path().join("koth-bots");
    copy_dir(&fixtures().join("first"), &repo.join("alpha"));
    copy_dir(&fixtures().join("lowest"), &repo.join("beta"));
    copy_dir(&fixtures().join("crash-at-start"), &repo.join("crasher"));
    git(&repo, &["init", "--quiet", "--initial-branch=main"]);
    git(&repo, &["add", "."]);
    git(&repo, &["commit", "--quiet", "-m", "three bots"]);
    git(&repo, &["tag", "v1"]);
    fs::write(
        tmp.path().join("take6.toml"),
        "games = 4\nseed = 1234567890123456789\n",
    )
    .unwrap();
    let out = run_series(
        tmp.path(),
        &["--bots", "koth-bots@v1", "--config", "take6.toml"],
    );
    assert_ok(&out);
    let page = fs::read_to_string(series_dir(tmp.path()).join("report.html")).unwrap();
    for absolute in [
        tmp.path().display().to_string(),
        fs::canonicalize(tmp.path()).unwrap().display().to_string(),
    ] {
        assert!(!page.contains(&absolute), "{absolute} in the report");
    }
    assert!(!page.contains(".repos"), "the cache in the report");
    for part in [
        "<td>koth-bots@v1:alpha</td>",
        "<td>koth-bots@v1:crasher</td>",
        "<th>bots</th><td><code>koth-bots@v1</code>",
        "<th>config</th><td><code>take6.toml</code>",
    ] {
        assert!(page.contains(part), "{part} in the report");
    }
    // The crasher's mean (100 and more) is off a scale that holds the others' intervals.
    let attr = |from: &str, name: &str| -> f64 {
        let at = page.find(from).unwrap() + from.len();
        let rest = &page[at..];
        let key = format!("{name}=\"");
        let v = &rest[rest.find(&key).unwrap() + key.len()..];
        v[..v.find('"').unwrap()].parse().unwrap()
    };
    let hi = attr("<svg class=\"ciaxis\"", "data-hi");
    let lo = attr("<svg class=\"ciaxis\"", "data-lo");
    let crasher = attr("data-bot=\"crasher\"", "data-mean");
    assert!(
        crasher >= 100.0 && hi < crasher,
        "scale {lo}..{hi}, crasher {crasher}"
    );
    let row = &page[page.find("data-bot=\"crasher\"").unwrap()..];
    let row = &row[..row.find("</tr>").unwrap()];
    assert!(
        row.contains("off the scale") && row.contains("class=\"outlier\""),
        "{row}"
    );
    assert!(page.contains("marked ▸ at its edge"), "the caption says so");
    let from_zero = page.contains("drawn on a scale from 0 to ");
    assert!(
        !(from_zero && page.contains("does not start at 0")),
        "a caption that contradicts itself"
    );
}

/// Everything a command printed, stdout then stderr.
fn said_of(out: &Output) -> String {
    format!("{}{}", text(&out.stdout), text(&out.stderr))
}

/// `take6 play` in `dir` with `input` as the keyboard.
fn play(dir: &Path, input: &str, args: &[&str]) -> Output {
    use std::io::Write as _;
    let mut child = take6_cmd(dir)
        .arg("play")
        .args(args)
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    let mut stdin = child.stdin.take().unwrap();
    stdin.write_all(input.as_bytes()).unwrap();
    drop(stdin);
    child.wait_with_output().unwrap()
}

#[test]
fn a_person_chooses_opponents_and_sees_where_every_card_went() {
    let tmp = arena_of(&[fixture("first"), fixture("lowest")]);
    // Counting up from 0 again and again: a card prompt takes the first number in hand, a row
    // prompt waits for the next 0.
    let input: String = (0..30)
        .flat_map(|_| (0..=104).map(|n| format!("{n}\n")))
        .collect();
    let args = [
        "--seed",
        "3",
        "--name",
        "ann",
        "--against",
        "first",
        "gap",
        "gap",
    ];
    let out = play(tmp.path(), &input, &args);
    assert_ok(&out);
    let stdout = text(&out.stdout);
    let g = &played_games(tmp.path())[0];
    let mut players = g.players.clone();
    players.sort();
    assert_eq!(players, ["ann", "first", "gap#1", "gap#2"]);
    assert!(g.rounds[0].invalid.is_empty(), "{:?}", g.rounds[0].invalid);
    // The bots not chosen were not asked to play: nothing is said of them.
    for other in ["lowest:", "bots/lowest", "skipped", "not chosen"] {
        assert!(!said_of(&out).contains(other), "{other}: {}", said_of(&out));
    }
    // Piped: no colours. Every turn says where every card went, as recorded.
    assert!(!stdout.contains('\x1b'), "{stdout}");
    assert_eq!(stdout.matches("where the cards went:").count(), 10);
    for e in g.rounds[0].turns.iter().flat_map(|t| &t.events) {
        let line = format!("{} {} -> row {}", g.players[e.seat], e.card, e.row);
        assert!(stdout.contains(&line), "{line} in {stdout}");
    }
    assert!(stdout.contains("your hand: ") && stdout.contains("scores: "));
    let ann = g.players.iter().position(|p| p == "ann").unwrap();
    if g.rounds[0]
        .turns
        .iter()
        .flat_map(|t| &t.events)
        .any(|e| e.seat == ann && e.reason.is_some())
    {
        assert!(stdout.contains("row 0 costs "), "{stdout}");
    }
    // The same seed deals the same cards.
    let again = play(tmp.path(), &input, &args);
    assert_ok(&again);
    assert_eq!(
        played_games(tmp.path())[0].rounds[0].hands,
        g.rounds[0].hands
    );
    // A name that is neither a bot nor a built-in is refused, naming what there is.
    let out = play(tmp.path(), "", &["--against", "nobody"]);
    assert!(!out.status.success());
    let stderr = text(&out.stderr);
    assert!(
        stderr.contains("nobody") && stderr.contains("gap (built-in)"),
        "{stderr}"
    );
}

#[test]
fn a_person_can_play_at_the_keyboard_and_typos_are_asked_again() {
    let tmp = arena_of(&[fixture("first")]);
    // Every number from 0 to 104, three times: each prompt rejects what is not in hand (or not
    // a row) and takes the first that is, so the whole game gets played.
    let input: String = (0..3)
        .flat_map(|_| (0..=104).map(|n| format!("{n}\n")))
        .collect::<String>()
        + "typo\n";
    let out = play(
        tmp.path(),
        &format!("typo\n{input}"),
        &["--seed", "5", "--name", "ann"],
    );
    assert_ok(&out);
    let stdout = text(&out.stdout);
    assert!(stdout.contains("Turn 10 of 10"), "{stdout}");
    assert!(stdout.contains("'typo' is not a card number; type one of "));
    assert!(stdout.contains("Game over: your score is"));
    let played = played_games(tmp.path());
    assert_eq!(played.len(), 1);
    let g = &played[0];
    g.check().unwrap();
    assert!(g.rounds[0].invalid.is_empty(), "{:?}", g.rounds[0].invalid);
    let seat = g.players.iter().position(|p| p == "ann").unwrap();
    assert!(!g.builtin[seat]);
    assert!(g.players.contains(&"first".to_string()));
    // The first card accepted each turn is the lowest in hand: typed numbers go up from 0.
    let mut hand = g.rounds[0].hands[seat].clone();
    for t in &g.rounds[0].turns {
        let lowest = *hand.iter().min().unwrap();
        assert_eq!(t.played[seat], lowest);
        hand.retain(|&c| c != lowest);
    }

    // The end of input gives the seat up, recorded as the person leaving.
    let out = play(tmp.path(), "", &["--seed", "5"]);
    assert_ok(&out);
    let g = &played_games(tmp.path())[0];
    let you = g.players.iter().position(|p| p == "you").unwrap();
    assert_eq!(g.rounds[0].invalid.len(), 1);
    assert_eq!(
        (
            g.rounds[0].invalid[0].seat,
            g.rounds[0].invalid[0].kind.as_str()
        ),
        (you, "left")
    );
    assert_eq!(g.rounds[0].penalty[you], 100);

    // A name already taken by a bot is refused.
    let out = play(tmp.path(), "", &["--name", "first"]);
    assert!(!out.status.success());
    assert!(
        text(&out.stderr).contains("--name"),
        "{}",
        text(&out.stderr)
    );
}

#[test]
fn a_memory_limit_turns_a_memory_hog_into_a_fault() {
    let tmp = arena_of(&[fixture("first")]);
    let bot = tmp.path().join("bots/hog");
    fs::create_dir_all(&bot).unwrap();
    fs::copy(fixtures().join("first/launch"), bot.join("play")).unwrap();
    fs::write(
        bot.join("launch"),
        "#!/bin/sh\npython3 -c 'bytearray(300 << 20)' || exit 1\nexec ./play\n",
    )
    .unwrap();
    let exec = fs::metadata(bot.join("play")).unwrap().permissions();
    fs::set_permissions(bot.join("launch"), exec).unwrap();

    assert_ok(&run_series(tmp.path(), &["--games", "1", "--seed", "3"]));
    assert!(
        games(tmp.path())[0].rounds[0].invalid.is_empty(),
        "300 MiB is within the default 1024 MiB"
    );

    assert_ok(&run_series(
        tmp.path(),
        &["--games", "1", "--seed", "3", "--memory-mib", "100"],
    ));
    let g = games(tmp.path()).remove(0);
    assert_eq!(
        faults_of(&g, "hog"),
        vec![(1, "card".into(), "memory_limit".into())]
    );
    assert!(
        g.rounds[0].invalid[0]
            .reason
            .contains("memory limit of 100 MiB"),
        "{:?}",
        g.rounds[0].invalid
    );
    assert!(faults_of(&g, "first").is_empty());
    let manifest = fs::read_to_string(series_dir(tmp.path()).join("series.toml")).unwrap();
    assert!(manifest.contains("memory_mib = 100"), "{manifest}");
}

/// A copy of the fixture `player` named `name` that speaks `template`.
fn bot_speaking(dir: &Path, name: &str, player: &str, template: &str) {
    let bot = dir.join("bots").join(name);
    copy_dir(&fixtures().join(player), &bot);
    fs::write(bot.join("bot.toml"), format!("template = \"{template}\"\n")).unwrap();
}

/// What a strict reader wrote in its working copy: one verdict per game it read to the end.
fn verdicts(dir: &Path, bot: &str) -> Vec<String> {
    let path = series_dir(dir).join("work").join(bot).join("verdicts.txt");
    fs::read_to_string(path)
        .unwrap_or_default()
        .lines()
        .map(str::to_string)
        .collect()
}

/// A strict reader of every built-in set, CodinGame's two orders included, reads exactly
/// the lines its protocol promises in 100 games at one table with a bot that faults, and never
/// faults itself, including when its tenth card has to take a row (an empty hand line).
#[test]
fn strict_readers_of_every_built_in_set_play_100_games_without_a_fault() {
    let tmp = arena_of(&[fixture("strict-default"), fixture("not-held")]);
    bot_speaking(tmp.path(), "arena", "strict-cg", "codingame");
    bot_speaking(tmp.path(), "statement", "strict-cg", "codingame-statement");
    bot_speaking(tmp.path(), "named", "strict-default", "named");
    let strict = ["arena", "statement", "named", "strict-default"];
    let out = run_series(tmp.path(), &["--games", "100", "--seed", "6"]);
    assert_ok(&out);
    let played = games(tmp.path());
    assert_eq!(played.len(), 100);
    for game in &played {
        game.check().unwrap();
        for bot in strict {
            assert_eq!(faults_of(game, bot), [], "game {}", game.game);
        }
        assert!(!faults_of(game, "not-held").is_empty(), "a seat faults");
    }
    for bot in strict {
        assert_eq!(verdicts(tmp.path(), bot), vec!["ok"; 100], "{bot}");
    }
    for bot in ["arena", "statement"] {
        let last_card_took_a_row = played.iter().any(|g| {
            let seat = g.players.iter().position(|p| p == bot).unwrap();
            g.rounds[0].turns[9]
                .events
                .iter()
                .any(|e| e.seat == seat && e.reason.is_some())
        });
        assert!(last_card_took_a_row, "{bot} never chose a row in turn 10");
    }
}

/// The strict readers really are strict: a CodinGame reader of one order, given the other, fails
/// at its first block (so the test above would catch a wrong order or a lost line).
#[test]
fn a_strict_reader_fails_on_the_other_codingame_order() {
    let tmp = arena_of(&[]);
    bot_speaking(tmp.path(), "arena", "strict-cg", "codingame");
    // The bot reads its order from bot.toml; the controller is told the other one.
    fs::write(
        tmp.path().join("bots/arena/template.toml"),
        fs::read_to_string(
            Path::new(env!("CARGO_MANIFEST_DIR")).join("../templates/codingame-statement.toml"),
        )
        .unwrap(),
    )
    .unwrap();
    fs::write(tmp.path().join("bots/arena/bot.toml"), "# codingame\n").unwrap();
    assert_ok(&run_series(tmp.path(), &["--games", "2", "--seed", "1"]));
    for game in games(tmp.path()) {
        assert_eq!(
            faults_of(&game, "arena").len(),
            1,
            "{:?}",
            game.rounds[0].invalid
        );
    }
    let seen = verdicts(tmp.path(), "arena");
    assert_eq!(seen.len(), 2);
    assert!(seen.iter().all(|v| v.starts_with("FAIL")), "{seen:?}");
}

mod fields;

/// The folders in `dir/results` (`latest` included), sorted.
fn results_entries(dir: &Path) -> Vec<String> {
    let mut names: Vec<String> = fs::read_dir(dir.join("results"))
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    names
}

#[test]
fn a_run_refused_before_any_game_leaves_the_results_and_latest_alone() {
    let tmp = arena_of(&[fixture("first")]);
    assert_ok(&run_series(tmp.path(), &["--games", "1"]));
    let played = series_dir(tmp.path());
    let before = results_entries(tmp.path());
    // A bots folder that is not there: refused before anything is worth keeping.
    let out = run_series(tmp.path(), &["--bots", "nowhere"]);
    assert!(!out.status.success());
    let stderr = text(&out.stderr);
    assert_eq!(results_entries(tmp.path()), before, "{stderr}");
    assert_eq!(series_dir(tmp.path()), played);
    // No usable bot: the refusal's record (with its bots' build logs) is kept, but `latest`
    // still names the series that played, which `leaderboard` reads.
    copy_dir(
        &fixtures().join("no-launch"),
        &tmp.path().join("only-broken/no-launch"),
    );
    let out = run_series(tmp.path(), &["--bots", "only-broken"]);
    assert!(!out.status.success());
    assert_eq!(series_dir(tmp.path()), played);
    let board = take6_cmd(tmp.path()).arg("leaderboard").output().unwrap();
    assert_ok(&board);
    assert!(
        text(&board.stdout).contains("first"),
        "{}",
        text(&board.stdout)
    );
}

#[test]
fn signals_that_arrive_together_are_one_stop_and_the_series_resumes() {
    // GNU timeout signals take6 and then its whole process group, and `| cat` keeps a pipe on
    // its output: the two SIGTERMs are one request, so the series stops cleanly (interrupted,
    // working copies copied back out of their images), and --resume plays the rest.
    let tmp = arena_of(&[fixture("first"), fixture("sleepy")]);
    fs::write(tmp.path().join("bots/sleepy/sleep-s"), "0.5").unwrap();
    let bin = assert_cmd::cargo::cargo_bin("take6");
    let out = std::process::Command::new("sh")
        .current_dir(tmp.path())
        .arg("-c")
        .arg(format!(
            "timeout 4 {} run --games 4 --jobs 1 --seed 5 --first-reply-ms 10000 \
             --reply-ms 5000 | cat",
            bin.display()
        ))
        .output()
        .unwrap();
    let stderr = text(&out.stderr);
    assert!(stderr.contains("stopping"), "{stderr}");
    let series = series_dir(tmp.path());
    let manifest = fs::read_to_string(series.join("series.toml")).unwrap();
    assert!(
        manifest.contains("status = \"interrupted\""),
        "{manifest}\n{stderr}"
    );
    let images = series.join("work/.images");
    let left: Vec<_> = fs::read_dir(&images)
        .map(|d| d.flatten().map(|e| e.file_name()).collect())
        .unwrap_or_default();
    assert!(left.is_empty(), "images left: {left:?}");
    assert!(
        series.join("work/sleepy/launch").exists(),
        "working copy not copied back"
    );
    let played = games(tmp.path()).len();
    assert!(played < 4, "{played} games before the stop");
    let resumed = take6_cmd(tmp.path())
        .args(["run", "--resume"])
        .output()
        .unwrap();
    assert_ok(&resumed);
    assert_eq!(games(tmp.path()).len(), 4);
}

#[test]
fn a_launch_that_cannot_start_is_refused_with_its_cause_when_the_series_prepares() {
    let tmp = arena_of(&[fixture("first")]);
    let bots = tmp.path().join("bots");
    let body = "read x\necho 1\n";
    for (name, launch) in [
        ("no-shebang", format!("echo hello\n{body}")),
        (
            "crlf",
            format!("#!/bin/sh\r\n{}", body.replace('\n', "\r\n")),
        ),
        (
            "home-interpreter",
            format!("#!/root/.pyenv/shims/python3\n{body}"),
        ),
        ("env-missing", format!("#!/usr/bin/env python9\n{body}")),
    ] {
        fs::create_dir_all(bots.join(name)).unwrap();
        fs::write(bots.join(name).join("launch"), launch).unwrap();
        fs::set_permissions(
            bots.join(name).join("launch"),
            std::os::unix::fs::PermissionsExt::from_mode(0o755),
        )
        .unwrap();
    }
    let out = run_series(tmp.path(), &["--games", "1"]);
    assert_ok(&out);
    let stderr = text(&out.stderr);
    assert!(
        !stderr.contains('\u{1b}'),
        "colour codes in a pipe: {stderr:?}"
    );
    let skipped = |bot: &str| -> String {
        stderr
            .lines()
            .find(|l| l.contains(&format!("bots/{bot}: skipped")))
            .unwrap_or_else(|| panic!("{bot} not skipped:\n{stderr}"))
            .to_string()
    };
    assert!(skipped("no-shebang").contains("exec format error"));
    assert!(skipped("crlf").contains("Windows line endings"));
    // The sandbox (strict or auto with bubblewrap) hides home folders; without it the shim
    // may be there.
    if sandboxed_here() {
        assert!(skipped("home-interpreter").contains("is not inside the sandbox"));
        assert!(skipped("env-missing").contains("has no python9"));
    }
    let board = leaderboard(tmp.path());
    assert_eq!(board.len(), 10, "first and nine built-ins: {board:?}");
}

/// Whether this machine runs bots in bubblewrap (root, bwrap present).
fn sandboxed_here() -> bool {
    nix::unistd::geteuid().is_root()
        && std::process::Command::new("bwrap")
            .arg("--version")
            .output()
            .is_ok_and(|o| o.status.success())
}

#[test]
fn counts_of_one_are_said_in_the_singular() {
    let tmp = arena_of(&[fixture("first")]);
    let out = run_series(
        tmp.path(),
        &["--players", "4", "--games", "4", "--duplicate"],
    );
    assert_ok(&out);
    let stderr = text(&out.stderr);
    assert!(
        stderr.contains("duplicate deals: 1 deal x 4 rotations"),
        "{stderr}"
    );
    let out = run_series(tmp.path(), &["--games", "1"]);
    assert_ok(&out);
    let verified = take6_cmd(tmp.path()).arg("verify").output().unwrap();
    assert_ok(&verified);
    assert!(
        text(&verified.stdout).contains(": 1 game verified:"),
        "{}",
        text(&verified.stdout)
    );
}
