//! What a bot may learn of the deals: a bot that remembers every deal it was dealt
//! (`hostile-spy`) never sees one again by default, and a bot that searches the master seed
//! (`hostile-seeker`) finds neither a controller binary to search with nor a seed worth
//! searching. Each sandboxed test has a sibling that shows the attack works where the defence is
//! off (`--duplicate`, `--sandbox none`), so the defence is what the test measures.

#[path = "hostile/checks.rs"]
mod checks;
mod common;
#[path = "hostile/zoo.rs"]
mod zoo;

use assert_cmd::Command;
use checks::{assert_clean, contained};
use zoo::{Zoo, sandbox_available, text};

const SPY: &str = "hostile-spy";
const SEEKER: &str = "hostile-seeker";

/// The spy's lines of `learned.txt`: (recognised, cards it knew, of them right).
fn learned(zoo: &Zoo) -> Vec<(bool, usize, usize)> {
    let text = zoo.work_file(SPY, "learned.txt");
    assert!(!text.contains("FAIL"), "the spy failed to read:\n{text}");
    text.lines()
        .map(|l| {
            let numbers: Vec<usize> = l.split([' ', ',']).filter_map(|w| w.parse().ok()).collect();
            let n = numbers.len();
            (l.contains("recognised yes"), numbers[n - 2], numbers[n - 1])
        })
        .collect()
}

#[test]
fn a_bot_that_remembers_deals_never_sees_one_again_by_default() {
    // 20 games at tables of 4 (the spy, the honest bot, two built-ins): whole deals, which
    // could mean duplicate deals (5 deals x 4 rotations, the spy knowing up to 30 of the 30
    // opponent cards) if deals were reused. Two tables at once (--jobs 2) share the spy's working copy live.
    let Some(zoo) = contained("spy", SPY, 20, &["--players", "4"]) else {
        return;
    };
    assert_clean(&zoo, SPY);
    assert_eq!(zoo.manifest()["duplicate"].as_bool(), Some(false));
    let learned = learned(&zoo);
    assert_eq!(learned.len(), 20, "one line per game");
    assert_eq!(
        learned
            .iter()
            .filter(|(recognised, ..)| *recognised)
            .count(),
        0,
        "the spy recognised a deal: {learned:?}"
    );
    // Every game is a deal of its own.
    let seeds: std::collections::BTreeSet<u64> = zoo.games().iter().map(|g| g.seed).collect();
    assert_eq!(seeds.len(), 20);
}

#[test]
fn a_bot_that_remembers_deals_knows_every_hand_under_duplicate_deals() {
    if !sandbox_available("spy-duplicate") {
        return;
    }
    // Asked for, duplicate deals are exploitable, inside the sandbox too: hence the warning.
    let zoo = Zoo::new("spy-duplicate", &[SPY]);
    let args = [
        "--games",
        "8",
        "--players",
        "4",
        "--duplicate",
        "--jobs",
        "1",
    ];
    let out = zoo.run("strict", &args);
    zoo::assert_ok(&out);
    let stderr = text(&out.stderr);
    assert!(
        stderr.contains("take6: warning: duplicate deals replay each deal"),
        "{stderr}"
    );
    let warnings = zoo.manifest()["warnings"].to_string();
    assert!(warnings.contains("recognises the deal"), "{warnings}");
    let learned = learned(&zoo);
    assert_eq!(learned.len(), 8);
    // Rotations 1, 2 and 3 of each of the two deals: 10, 20 and 30 opponent cards, all right.
    let known: Vec<(usize, usize)> = learned
        .iter()
        .filter(|(recognised, ..)| *recognised)
        .map(|&(_, knew, right)| (knew, right))
        .collect();
    assert_eq!(
        known,
        [(10, 10), (20, 20), (30, 30), (10, 10), (20, 20), (30, 30)],
        "{learned:?}"
    );
}

#[test]
fn a_bot_cannot_search_the_seed_with_the_controller() {
    // The zoo's seed is 7: searchable, so warned about. The seeker tries every controller binary
    // it can reach; none may run for it.
    let Some(zoo) = contained("seeker", SEEKER, 2, &["--players", "4"]) else {
        return;
    };
    assert_clean(&zoo, SEEKER);
    let warnings = zoo.manifest()["warnings"].to_string();
    assert!(warnings.contains("seed 7 is small enough"), "{warnings}");
    let tried = zoo.work_file(SEEKER, "tried.txt");
    for path in ["/.take6/init", "/proc/1/exe"] {
        assert!(tried.contains(path), "it did not try {path}:\n{tried}");
    }
    assert!(
        !tried.contains("ran seed"),
        "a controller ran for the bot:\n{tried}"
    );
    assert_eq!(zoo.work_file(SEEKER, "found.txt"), "");
}

#[test]
fn a_bot_finds_a_small_seed_with_the_controller_without_the_sandbox() {
    let zoo = Zoo::new("seeker-none", &[SEEKER]);
    zoo::assert_ok(&zoo.run("none", &["--players", "4"]));
    let found = zoo.work_file(SEEKER, "found.txt");
    assert!(found.contains("seed 7 "), "{found}");
}

#[test]
fn the_default_seed_has_128_bits_and_replays() {
    // Built-ins only: no bot to warn, no sandbox needed.
    let tmp = tempfile::tempdir().unwrap();
    let run = |args: &[&str]| {
        let out = Command::cargo_bin("take6")
            .unwrap()
            .current_dir(tmp.path())
            .args(["run", "--builtins-only", "--games", "3", "--jobs", "1"])
            .args(args)
            .output()
            .unwrap();
        zoo::assert_ok(&out);
        assert!(
            !text(&out.stderr).contains("warning"),
            "{}",
            text(&out.stderr)
        );
        let series = std::fs::canonicalize(tmp.path().join("results/latest")).unwrap();
        let manifest: toml::Table = std::fs::read_to_string(series.join("series.toml"))
            .unwrap()
            .parse()
            .unwrap();
        let file = std::fs::File::open(series.join("games.jsonl")).unwrap();
        let games = take6::record::read_games_jsonl(std::io::BufReader::new(file)).unwrap();
        (manifest, games, series)
    };
    let (manifest, games, series) = run(&[]);
    let seed: u128 = manifest["seed"]
        .as_str()
        .expect("a string")
        .parse()
        .unwrap();
    assert!(seed > u128::from(u64::MAX), "seed {seed}");
    let verify = Command::cargo_bin("take6")
        .unwrap()
        .args(["verify"])
        .arg(&series)
        .output()
        .unwrap();
    zoo::assert_ok(&verify);
    // The recorded seed gives the same games again.
    let (again, replayed, _) = run(&["--seed", &seed.to_string()]);
    assert_eq!(again["seed"].as_str(), Some(seed.to_string().as_str()));
    let deals = |g: &[take6::record::GameRecord]| -> Vec<_> {
        g.iter()
            .map(|g| (g.seed, g.rounds[0].hands.clone(), g.rounds[0].rows))
            .collect()
    };
    assert_eq!(deals(&games), deals(&replayed));
}
