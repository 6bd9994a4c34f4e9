//! Big fields (issue 9): table size, balanced schedules, rounds and duplicate deals, through
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
    arena(&bots)
}

fn manifest(dir: &Path) -> toml::Table {
    let text = fs::read_to_string(series_dir(dir).join("series.toml")).unwrap();
    text.parse().unwrap()
}

#[test]
fn four_players_pad_two_bots_with_two_builtins() {
    let tmp = arena(&[fixture("first"), fixture("lowest")]);
    let out = take6(
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
        check_record(g).unwrap();
        let mut players = g.players.clone();
        players.sort();
        assert_eq!(players, ["first", "first#1", "lowest", "random#1"]);
        assert_eq!(g.builtin.iter().filter(|&&b| b).count(), 2);
        assert!(g.hands.iter().all(|h| h.len() == 10));
    }
    let board = leaderboard(tmp.path());
    assert_eq!(board.len(), 4);
    assert!(board.iter().all(|row| row["games"] == "8"));
}

#[test]
fn a_balanced_field_plays_exactly_the_budget_and_records_its_balance() {
    let tmp = firsts(12);
    let out = take6(
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
        let out = take6(tmp.path(), &["--players", players]);
        assert!(!out.status.success());
        let stderr = text(&out.stderr);
        assert!(
            stderr.contains(&format!("players = {players}")) && stderr.contains("2 to 10"),
            "{stderr}"
        );
    }
    let out = take6(tmp.path(), &["--players", "4", "--games", "2"]);
    assert!(!out.status.success());
    let stderr = text(&out.stderr);
    assert!(
        stderr.contains("--games 2 is too few for 12 bots at tables of 4")
            && stderr.contains("at least 3 games"),
        "{stderr}"
    );
}
