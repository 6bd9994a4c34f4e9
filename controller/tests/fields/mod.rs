//! Big fields: table size, balanced schedules, rounds and duplicate deals, through
//! the real binary on real bot processes. A module of the one integration-test binary, so it
//! shares its helpers.

use super::*;

/// `n` copies of the `first` fixture named `first00`, `first01`, …
fn firsts(n: usize) -> TempDir {
    let names: Vec<String> = (0..n).map(|i| format!("first{i:02}")).collect();
    let bots: Vec<(&str, PathBuf)> = names
        .iter()
        .map(|n| (n.as_str(), fixtures().join("first")))
        .collect();
    arena_of(&bots)
}

fn manifest(dir: &Path) -> toml::Table {
    let text = fs::read_to_string(series_dir(dir).join("series.toml")).unwrap();
    text.parse().unwrap()
}

#[test]
fn four_players_pad_two_bots_with_two_builtins() {
    let tmp = arena_of(&[fixture("first"), fixture("lowest")]);
    let out = run_series(
        tmp.path(),
        &[
            "--players",
            "4",
            "--games",
            "8",
            "--seed",
            "3",
            "--no-duplicate",
        ],
    );
    assert_ok(&out);
    assert!(
        text(&out.stderr).contains("2 bots + 2 built-ins, 8 games"),
        "{}",
        text(&out.stderr)
    );
    let games = games(tmp.path());
    assert_eq!(games.len(), 8);
    for g in &games {
        g.check().unwrap();
        let mut players = g.players.clone();
        players.sort();
        assert_eq!(players, ["first", "first#1", "lowest", "random#1"]);
        assert_eq!(g.builtin.iter().filter(|&&b| b).count(), 2);
        assert!(g.rounds[0].hands.iter().all(|h| h.len() == 10));
    }
    let board = leaderboard(tmp.path());
    assert_eq!(board.len(), 4);
    assert!(board.iter().all(|row| row["games"] == "8"));
}

#[test]
fn a_balanced_field_plays_exactly_the_budget_and_records_its_balance() {
    let tmp = firsts(12);
    let out = run_series(
        tmp.path(),
        &[
            "--players",
            "4",
            "--games",
            "60",
            "--seed",
            "5",
            "--no-duplicate",
        ],
    );
    assert_ok(&out);
    let stderr = text(&out.stderr);
    // 495 subsets of 4 do not fit 60 games: auto balances.
    assert!(
        stderr.contains("12 bots, 60 games (balanced tables of 4, 20 games per bot"),
        "{stderr}"
    );
    let games = games(tmp.path());
    assert_eq!(games.len(), 60);
    assert!(
        games
            .iter()
            .all(|g| g.players.len() == 4 && !g.builtin.contains(&true))
    );
    assert!(
        leaderboard(tmp.path())
            .iter()
            .all(|row| row["games"] == "20")
    );
    let m = manifest(tmp.path());
    assert_eq!(m["schedule"].as_str(), Some("balanced"));
    assert_eq!(m["games_planned"].as_integer(), Some(60));
    let balance = m["balance"].as_table().unwrap();
    assert_eq!(balance["games_min"].as_integer(), Some(20));
    assert_eq!(balance["games_max"].as_integer(), Some(20));
    // Pair counts as recorded are those played.
    let mut pairs: BTreeMap<(String, String), i64> = BTreeMap::new();
    for g in &games {
        for a in &g.players {
            for b in &g.players {
                if a < b {
                    *pairs.entry((a.clone(), b.clone())).or_default() += 1;
                }
            }
        }
    }
    let lo = if pairs.len() == 66 {
        *pairs.values().min().unwrap()
    } else {
        0
    };
    assert_eq!(balance["pairs_min"].as_integer(), Some(lo));
    assert_eq!(
        balance["pairs_max"].as_integer(),
        pairs.values().max().copied()
    );
}

#[test]
fn table_sizes_and_budgets_that_cannot_work_are_refused() {
    let tmp = firsts(12);
    for players in ["1", "11"] {
        let out = run_series(tmp.path(), &["--players", players]);
        assert!(!out.status.success());
        let stderr = text(&out.stderr);
        assert!(
            stderr.contains(&format!("--players {players} is out of range"))
                && stderr.contains("from 2 to 10"),
            "{stderr}"
        );
    }
    let out = run_series(tmp.path(), &["--players", "4", "--games", "2"]);
    assert!(!out.status.success());
    let stderr = text(&out.stderr);
    assert!(
        stderr.contains("--games 2 is too few for 12 bots at tables of 4")
            && stderr.contains("at least 3 games"),
        "{stderr}"
    );
}

/// `take6 verify` of the latest series in `dir`.
fn verify(dir: &Path) -> Output {
    take6_cmd(dir)
        .arg("verify")
        .env_remove("RUST_LOG")
        .output()
        .unwrap()
}

#[test]
fn a_game_of_rounds_keeps_its_bot_processes_and_records_every_round() {
    let tmp = arena_of(&[
        fixture("strict-default"),
        fixture("cg-first"),
        fixture("quits-midgame"),
    ]);
    fs::write(tmp.path().join("bots/strict-default/rounds.txt"), "3").unwrap();
    let out = run_series(
        tmp.path(),
        &[
            "--games",
            "2",
            "--rounds",
            "3",
            "--seed",
            "4",
            "--no-duplicate",
        ],
    );
    assert_ok(&out);
    let games = games(tmp.path());
    assert_eq!(games.len(), 2);
    for g in &games {
        g.check().unwrap_or_else(|e| panic!("game {}: {e}", g.game));
        assert_eq!(g.round_count(), 3);
        let hands: Vec<_> = (0..3).map(|i| g.rounds[i].hands.clone()).collect();
        assert!(
            hands[0] != hands[1] && hands[1] != hands[2],
            "a fresh deal each round"
        );
        // The strict reader and the CodinGame bot play all three rounds without a fault.
        for bot in ["strict-default", "cg-first"] {
            let seat = g.players.iter().position(|p| p == bot).unwrap();
            assert!(
                g.faults().all(|(_, f)| f.seat != seat),
                "{bot}: {:?}",
                g.rounds[0].invalid
            );
        }
        // The bot that quits in round 1 is gone: absent, 100 points, in rounds 2 and 3.
        let seat = g.players.iter().position(|p| p == "quits-midgame").unwrap();
        let kinds: Vec<(usize, &str)> = g
            .faults()
            .filter(|(_, f)| f.seat == seat)
            .map(|(round, f)| (round, f.kind.as_str()))
            .collect();
        assert_eq!(kinds, [(0, "exited"), (1, "absent"), (2, "absent")]);
        assert!(g.totals()[seat].get() >= 300.0);
    }
    // One process per game read three rounds to the end of its input.
    assert_eq!(verdicts(tmp.path(), "strict-default"), ["ok", "ok"]);
    for row in leaderboard(tmp.path()) {
        let total: take6::record::Score = games
            .iter()
            .map(|g| g.totals()[g.players.iter().position(|p| *p == row["bot"]).unwrap()])
            .sum();
        assert_eq!(row["total_score"], total.to_string(), "{}", row["bot"]);
        let faults = if row["bot"] == "quits-midgame" {
            "2"
        } else {
            "0"
        };
        assert_eq!(row["faults"], faults, "a fault counts once per game");
    }
    let out = verify(tmp.path());
    assert_ok(&out);
}

#[test]
fn duplicate_deals_give_each_bot_each_hand_of_a_deal_exactly_once() {
    let tmp = arena_of(&[fixture("first"), fixture("lowest"), fixture("cg-first")]);
    // 8 games at tables of 4: two whole deals, asked for; bots that keep memory can exploit
    // them, so they are off by default and warned about when asked for.
    let out = run_series(
        tmp.path(),
        &[
            "--players",
            "4",
            "--games",
            "8",
            "--seed",
            "6",
            "--duplicate",
        ],
    );
    assert_ok(&out);
    let stderr = text(&out.stderr);
    assert!(
        stderr.contains("duplicate deals: 2 deals x 4 rotations"),
        "{stderr}"
    );
    let warning = "take6: warning: duplicate deals replay each deal to the same bots";
    assert!(stderr.contains(warning), "{stderr}");
    assert_eq!(manifest(tmp.path())["duplicate"].as_bool(), Some(true));
    let warnings = manifest(tmp.path())["warnings"].clone();
    assert!(
        warnings.to_string().contains("recognises the deal"),
        "{warnings}"
    );
    let games = games(tmp.path());
    assert_eq!(games.len(), 8);
    for deal in games.chunks(4) {
        let first = &deal[0];
        // The deal's four hands, as rotation 0 dealt them.
        let mut hands = first.rounds[0].hands.clone();
        hands.sort();
        for (r, g) in deal.iter().enumerate() {
            g.check().unwrap();
            assert_eq!(g.rotation, r);
            assert_eq!(
                (g.seed, g.rounds[0].rows),
                (first.seed, first.rounds[0].rows),
                "one deal"
            );
            assert_eq!(g.players, first.players, "the same seats");
            let mut these = g.rounds[0].hands.clone();
            these.sort();
            assert_eq!(these, hands, "the same four hands");
        }
        for seat in 0..4 {
            let mut held: Vec<_> = deal
                .iter()
                .map(|g| g.rounds[0].hands[seat].clone())
                .collect();
            held.sort();
            assert_eq!(
                held, hands,
                "seat {seat} ({}) plays every hand once",
                first.players[seat]
            );
        }
    }
    assert_ne!(
        games[0].seed, games[4].seed,
        "a new deal after four rotations"
    );
    assert_ok(&verify(tmp.path()));
    // By default, and asked off, the same budget plays eight deals, without a warning.
    let out = run_series(
        tmp.path(),
        &["--players", "4", "--games", "8", "--seed", "6"],
    );
    assert_ok(&out);
    let stderr = text(&out.stderr);
    assert!(!stderr.contains("duplicate deals"), "{stderr}");
    assert_eq!(manifest(tmp.path())["duplicate"].as_bool(), Some(false));
    // Only the small seed's warning.
    let warnings = manifest(tmp.path())["warnings"].clone();
    assert_eq!(warnings.as_array().map(Vec::len), Some(1), "{warnings}");
    assert!(
        warnings.to_string().contains("seed 6 is small"),
        "{warnings}"
    );
    let seeds: std::collections::BTreeSet<u64> =
        super::games(tmp.path()).iter().map(|g| g.seed).collect();
    assert_eq!(seeds.len(), 8);
    let out = run_series(
        tmp.path(),
        &[
            "--players",
            "4",
            "--games",
            "8",
            "--seed",
            "6",
            "--no-duplicate",
        ],
    );
    assert_ok(&out);
    let seeds: std::collections::BTreeSet<u64> =
        super::games(tmp.path()).iter().map(|g| g.seed).collect();
    assert_eq!(seeds.len(), 8);
}

#[test]
fn an_early_stop_of_builtins_verifies_and_a_forged_stop_does_not() {
    // Plain threads play these (a burst of games may finish after the stop): the recorded
    // point is where the top were first separated, whatever was played after it.
    let tmp = tempfile::tempdir().unwrap();
    let out = take6_cmd(tmp.path())
        .args([
            "run",
            "--builtins-only",
            "--until-separated",
            "--games",
            "2000",
        ])
        .args(["--players", "4", "--seed", "11", "--jobs", "2"])
        .env_remove("RUST_LOG")
        .output()
        .unwrap();
    assert_ok(&out);
    let stdout = text(&out.stdout);
    assert!(
        stdout.contains("of 2000 games played (stopped early: the top 3 were separated"),
        "{stdout}"
    );
    let played = games(tmp.path()).len() as i64;
    assert!(played < 2000, "{played}");
    let after = manifest(tmp.path())["separated_after"]
        .as_integer()
        .unwrap();
    assert!((1..=played).contains(&after), "{after} of {played}");
    assert_verifies(tmp.path());
    // A stop moved to another point, or taken away, is caught.
    let toml = std::fs::canonicalize(tmp.path().join("results/latest"))
        .unwrap()
        .join("series.toml");
    let text_of = std::fs::read_to_string(&toml).unwrap();
    let line = format!("separated_after = {after}\n");
    assert!(text_of.contains(&line), "{text_of}");
    for (forged, says) in [
        (
            format!("separated_after = {}\n", after + 1),
            "replaying games.jsonl separates them after",
        ),
        (String::new(), "is not in games.jsonl"),
    ] {
        std::fs::write(&toml, text_of.replace(&line, &forged)).unwrap();
        let out = take6_cmd(tmp.path())
            .arg("verify")
            .env_remove("RUST_LOG")
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(1), "{}", text(&out.stdout));
        assert!(text(&out.stdout).contains(says), "{}", text(&out.stdout));
    }
}

#[test]
fn until_separated_stops_once_the_best_bot_is_known() {
    // Whoever quits mid-game scores 100 more every game: the order is clear after a few.
    let tmp = arena_of(&[fixture("first"), fixture("quits-midgame")]);
    let out = run_series(
        tmp.path(),
        &[
            "--players",
            "2",
            "--games",
            "60",
            "--seed",
            "8",
            "--until-separated",
            "--top",
            "1",
        ],
    );
    assert_ok(&out);
    let stdout = text(&out.stdout);
    assert!(
        stdout.contains("stopped early: the top 1 were separated at 95 % after"),
        "{stdout}"
    );
    let played = games(tmp.path()).len();
    assert!((2..60).contains(&played), "{played} games");
    let board = leaderboard(tmp.path());
    assert_eq!(board[0]["bot"], "first");
    // The stop is recorded and verify re-derives it: an early stop is a complete series.
    let after = manifest(tmp.path())["separated_after"]
        .as_integer()
        .unwrap();
    assert!((1..=played as i64).contains(&after), "{after} of {played}");
    assert_verifies(tmp.path());
    // Without the flag the whole budget is played.
    let out = run_series(
        tmp.path(),
        &["--players", "2", "--games", "6", "--seed", "8"],
    );
    assert_ok(&out);
    assert_eq!(games(tmp.path()).len(), 6);
}
