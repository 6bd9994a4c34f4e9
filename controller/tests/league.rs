//! `take6 league` through the real binary with real bot processes: the same games
//! whatever `--jobs`, new, changed and removed bots between runs, Ctrl-C and a rerun playing
//! every game once, a bot benched after three faults in a row, a settled league that plays
//! nothing, and `take6 verify` re-deriving every batch's choice.

mod common;

use common::{arena, assert_ok, copy_dir, fixtures, records_in, take6, take6_cmd, text};

use std::collections::BTreeMap;
use std::fs;
use std::path::{Path, PathBuf};
use std::process::{Output, Stdio};
use std::time::{Duration, Instant};

use take6::record::{GameRecord, read_games_jsonl};

const SEED: &str = "1234567890123456789";

/// A small league's flags: tables of 3, batches of 4, 4 games, two tables at once.
const SMALL: [&str; 8] = [
    "--players",
    "3",
    "--batch",
    "4",
    "--games",
    "4",
    "--jobs",
    "2",
];

/// `take6 league` with the test's seed, generous limits and `extra`.
fn league(cwd: &Path, extra: &[&str]) -> Output {
    let mut args = vec![
        "league",
        "--bots",
        "bots",
        "--seed",
        SEED,
        "--first-reply-ms",
        "10000",
        "--reply-ms",
        "5000",
    ];
    args.extend_from_slice(extra);
    take6(cwd, &args)
}

fn folder(cwd: &Path) -> PathBuf {
    cwd.join("results/league/take6")
}

/// The league's records, by game number.
fn records(cwd: &Path) -> Vec<GameRecord> {
    records_in(&folder(cwd))
}

/// Each game by number: its seed, its players in seat order, their scores.
fn games(cwd: &Path) -> BTreeMap<u64, (u64, Vec<String>, Vec<take6::record::Score>)> {
    records(cwd)
        .into_iter()
        .map(|r| {
            let scores = r.total_scores().to_vec();
            (r.game, (r.seed, r.players, scores))
        })
        .collect()
}

#[track_caller]
fn assert_verifies(cwd: &Path) {
    let out = take6(cwd, &["verify", folder(cwd).to_str().unwrap()]);
    assert_ok(&out);
    assert!(
        text(&out.stdout).contains("every batch seats what the league's choice gives"),
        "{}",
        text(&out.stdout)
    );
}

fn manifest(cwd: &Path) -> toml::Value {
    toml::from_str(&fs::read_to_string(folder(cwd).join("league.toml")).unwrap()).unwrap()
}

/// Batches are chosen from the results of the batches before them only: `--jobs 1` and
/// `--jobs 2` play the same games, and both verify.
#[test]
fn the_same_seed_plays_the_same_games_whatever_jobs() {
    let bots = ["first", "lowest", "honest", "strict-default", "cg-first"];
    let (one, two) = (arena(&bots), arena(&bots));
    let flags = [
        "--players",
        "3",
        "--batch",
        "4",
        "--games",
        "20",
        "--min-games",
        "3",
    ];
    assert_ok(&league(
        one.path(),
        &[&flags[..], &["--jobs", "1"]].concat(),
    ));
    assert_ok(&league(
        two.path(),
        &[&flags[..], &["--jobs", "2"]].concat(),
    ));
    let (a, b) = (games(one.path()), games(two.path()));
    assert_eq!(a.len(), 20);
    assert_eq!(a, b);
    // Five bots at tables of three: the choice varies the tables.
    let tables: std::collections::BTreeSet<Vec<String>> = a
        .values()
        .map(|(_, p, _)| {
            let mut p = p.clone();
            p.sort();
            p
        })
        .collect();
    assert!(tables.len() > 1, "{tables:?}");
    assert_verifies(one.path());
    assert_verifies(two.path());
    let md = fs::read_to_string(folder(one.path()).join("leaderboard.md")).unwrap();
    assert!(
        md.starts_with("| rank | bot | games | score ± 95 % | faults | status |"),
        "{md}"
    );
    assert_eq!(
        md.lines().filter(|l| l.starts_with("| ")).count(),
        1 + 5,
        "{md}"
    );
}

/// A new folder joins, a changed folder is a new version whose earlier games leave the board
/// (kept in the record and the fit), a removed folder leaves; each run verifies.
#[test]
fn new_changed_and_removed_bots_between_runs() {
    let tmp = arena(&["first", "lowest", "honest"]);
    let cwd = tmp.path();
    let flags = [
        "--players",
        "3",
        "--batch",
        "4",
        "--games",
        "8",
        "--jobs",
        "2",
    ];
    assert_ok(&league(cwd, &flags));
    assert_eq!(games(cwd).len(), 8);
    // A newcomer, and lowest changed (its content, not its name).
    copy_dir(
        &fixtures().join("strict-default"),
        &cwd.join("bots/strict-default"),
    );
    let launch = cwd.join("bots/lowest/launch");
    let mut script = fs::read_to_string(&launch).unwrap();
    script.push_str("# version 2\n");
    fs::write(&launch, script).unwrap();
    let out = league(cwd, &flags);
    assert_ok(&out);
    let stderr = text(&out.stderr);
    assert!(stderr.contains("joined: strict-default"), "{stderr}");
    assert!(stderr.contains("new versions: lowest"), "{stderr}");
    let m = manifest(cwd);
    let versions = m["versions"].as_array().unwrap();
    let find = |name: &str, v: i64| {
        versions
            .iter()
            .find(|x| x["name"].as_str() == Some(name) && x["version"].as_integer() == Some(v))
            .unwrap_or_else(|| panic!("{name} v{v} in {versions:?}"))
            .clone()
    };
    assert_eq!(find("lowest", 1)["until_game"].as_integer(), Some(8));
    assert_eq!(find("lowest", 2)["from_game"].as_integer(), Some(8));
    assert_eq!(find("strict-default", 1)["from_game"].as_integer(), Some(8));
    let md = fs::read_to_string(folder(cwd).join("leaderboard.md")).unwrap();
    assert!(md.contains("lowest\\~2"), "{md}");
    assert!(
        !md.contains("| lowest |"),
        "the old version left the board: {md}"
    );
    assert!(
        md.contains("new: "),
        "the newcomer is still in its first games: {md}"
    );
    assert_verifies(cwd);
    // The newcomer and the new version played first.
    let later: Vec<Vec<String>> = games(cwd)
        .into_iter()
        .filter(|(g, _)| *g >= 8)
        .map(|(_, (_, p, _))| p)
        .collect();
    assert!(
        later
            .iter()
            .all(|p| p.contains(&"strict-default".to_string()))
    );
    // Removed: the run is refused, naming it, until --withdraw says it is meant.
    let kept = cwd.join("honest-kept");
    copy_dir(&cwd.join("bots/honest"), &kept);
    fs::remove_dir_all(cwd.join("bots/honest")).unwrap();
    let before = fs::read_to_string(folder(cwd).join("league.toml")).unwrap();
    let out = league(cwd, &flags);
    assert!(!out.status.success());
    let stderr = text(&out.stderr);
    assert!(
        stderr.contains("honest") && stderr.contains("--withdraw"),
        "{stderr}"
    );
    assert_eq!(
        fs::read_to_string(folder(cwd).join("league.toml")).unwrap(),
        before
    );
    assert!(folder(cwd).join("work/honest").exists(), "nothing wiped");
    let mut withdraw = flags.to_vec();
    withdraw.push("--withdraw");
    let out = league(cwd, &withdraw);
    assert_ok(&out);
    assert!(
        text(&out.stderr).contains("left: honest"),
        "{}",
        text(&out.stderr)
    );
    let m = manifest(cwd);
    let honest = m["versions"]
        .as_array()
        .unwrap()
        .iter()
        .find(|x| x["name"].as_str() == Some("honest"))
        .unwrap()
        .clone();
    assert_eq!(honest["until_game"].as_integer(), Some(16));
    let md = fs::read_to_string(folder(cwd).join("leaderboard.md")).unwrap();
    assert!(!md.contains("honest"), "{md}");
    // Its private storage left with it; the others' stays.
    assert!(!folder(cwd).join("work/honest").exists());
    assert!(folder(cwd).join("work/first/launch").exists());
    assert!(
        games(cwd)
            .iter()
            .filter(|(g, _)| **g >= 16)
            .all(|(_, (_, p, _))| !p.contains(&"honest".to_string()))
    );
    assert_verifies(cwd);
    // Back with the content it had: the same version plays on, no second one. Run from
    // elsewhere without --bots, as the interrupted line says: the league's own bots play.
    copy_dir(&kept, &cwd.join("bots/honest"));
    let elsewhere = tempfile::tempdir().unwrap();
    fs::create_dir(elsewhere.path().join("bots")).unwrap();
    let league_dir = folder(cwd);
    let out = take6(
        elsewhere.path(),
        &[
            &["league", "--league", league_dir.to_str().unwrap()][..],
            &[
                "--seed",
                SEED,
                "--first-reply-ms",
                "10000",
                "--reply-ms",
                "5000",
            ],
            &flags,
        ]
        .concat(),
    );
    assert_ok(&out);
    assert!(
        text(&out.stderr).contains("back as they were: honest"),
        "{}",
        text(&out.stderr)
    );
    let m = manifest(cwd);
    let honest: Vec<_> = m["versions"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|x| x["name"].as_str() == Some("honest"))
        .cloned()
        .collect();
    assert_eq!(honest.len(), 1, "{honest:?}");
    assert!(honest[0].get("until_game").is_none(), "{honest:?}");
    assert!(
        games(cwd)
            .iter()
            .filter(|(g, _)| **g >= 24)
            .any(|(_, (_, p, _))| p.contains(&"honest".to_string()))
    );
    assert_verifies(cwd);
}

/// Ctrl-C part-way, then a plain rerun: every game number once, the same games as a league
/// never stopped, and it verifies.
#[test]
fn interrupted_and_rerun_plays_every_game_once() {
    let bots = ["first", "lowest", "patient"];
    let tmp = arena(&bots);
    let cwd = tmp.path();
    let flags = [
        "--players",
        "3",
        "--batch",
        "4",
        "--games",
        "12",
        "--jobs",
        "2",
    ];
    let mut child = take6_cmd(cwd)
        .args([
            "league",
            "--bots",
            "bots",
            "--seed",
            SEED,
            "--first-reply-ms",
            "10000",
            "--reply-ms",
            "5000",
        ])
        .args(flags)
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let jsonl = folder(cwd).join("games.jsonl");
    let deadline = Instant::now() + Duration::from_secs(120);
    while fs::read_to_string(&jsonl).map_or(0, |t| t.lines().count()) < 3 {
        assert!(Instant::now() < deadline, "no games played");
        std::thread::sleep(Duration::from_millis(20));
    }
    nix::sys::signal::kill(
        nix::unistd::Pid::from_raw(child.id() as i32),
        nix::sys::signal::Signal::SIGINT,
    )
    .unwrap();
    let status = child.wait().unwrap();
    assert_eq!(status.code(), Some(130));
    let partial = games(cwd).len();
    assert!(partial < 12, "{partial} played before the stop");
    assert_ok(&league(cwd, &flags));
    let numbers: Vec<u64> = records(cwd).iter().map(|r| r.game).collect();
    let mut sorted = numbers.clone();
    sorted.sort_unstable();
    sorted.dedup();
    assert_eq!(sorted.len(), numbers.len(), "a game twice: {numbers:?}");
    assert!(sorted.len() >= 12);
    assert_eq!(sorted, (0..sorted.len() as u64).collect::<Vec<_>>());
    assert_verifies(cwd);
    // The same games as a league never stopped (the budget counted from the first run's
    // start: the first 12).
    let straight = arena(&bots);
    assert_ok(&league(straight.path(), &flags));
    let (a, b) = (games(cwd), games(straight.path()));
    for (g, game) in &b {
        assert_eq!(a.get(g), Some(game), "game {g}");
    }
}

/// A bot that faults in 3 games in a row is benched with the reason until its folder changes;
/// its games stay in the record.
#[test]
fn a_bot_that_faults_three_times_in_a_row_is_benched() {
    let tmp = arena(&["first", "lowest", "crash-at-start"]);
    let cwd = tmp.path();
    let out = league(
        cwd,
        &[
            "--players",
            "3",
            "--batch",
            "4",
            "--games",
            "8",
            "--jobs",
            "2",
        ],
    );
    assert_ok(&out);
    let md = fs::read_to_string(folder(cwd).join("leaderboard.md")).unwrap();
    let row = md
        .lines()
        .find(|l| l.contains("crash\\-at\\-start") || l.contains("crash-at-start"));
    let row = row.unwrap_or_else(|| panic!("{md}"));
    assert!(row.contains("benched: faulted in 3 games in a row"), "{md}");
    // With the first fault's reason and what to do about it.
    assert!(
        row.contains("the first: ") && row.contains("fix what the first fault says"),
        "{md}"
    );
    let all = games(cwd);
    assert!(
        all.range(..4)
            .all(|(_, (_, p, _))| p.contains(&"crash-at-start".to_string()))
    );
    assert!(
        all.range(4..)
            .all(|(_, (_, p, _))| !p.contains(&"crash-at-start".to_string()))
    );
    let m = manifest(cwd);
    assert_eq!(m["benched"][0]["name"].as_str(), Some("crash-at-start"));
    assert_verifies(cwd);
    // Still benched at the next run while its folder is the same.
    let flags = SMALL;
    assert_ok(&league(cwd, &flags));
    assert!(
        games(cwd)
            .range(8..)
            .all(|(_, (_, p, _))| !p.contains(&"crash-at-start".to_string()))
    );
    // Its folder changed (fixed): a new version, no longer benched, back at the tables.
    fs::copy(
        fixtures().join("first/launch"),
        cwd.join("bots/crash-at-start/launch"),
    )
    .unwrap();
    assert_ok(&league(cwd, &flags));
    let m = manifest(cwd);
    assert!(m.get("benched").is_none(), "{m:?}");
    let later = games(cwd);
    assert!(
        later
            .range(12..)
            .all(|(_, (_, p, _))| p.contains(&"crash-at-start".to_string())),
        "{later:?}"
    );
    // The old version's games stay in the record.
    assert!(later.range(..4).count() == 4);
    let md = fs::read_to_string(folder(cwd).join("leaderboard.md")).unwrap();
    assert!(!md.contains("benched"), "{md}");
    assert_verifies(cwd);
}

/// A league whose top is settled says so, and a rerun with nothing new plays nothing.
#[test]
fn a_settled_league_says_so_and_plays_nothing() {
    let tmp = arena(&["first", "lowest"]);
    let cwd = tmp.path();
    let flags = [
        "--players",
        "2",
        "--top",
        "1",
        "--min-games",
        "4",
        "--batch",
        "8",
        "--jobs",
        "2",
    ];
    let out = league(cwd, &[&flags[..], &["--games", "1000"]].concat());
    assert_ok(&out);
    let said = text(&out.stdout);
    assert!(said.contains("the top 1 are settled"), "{said}");
    let played = games(cwd).len();
    assert!(played < 1000, "{played}");
    let again = league(cwd, &flags);
    assert_ok(&again);
    assert!(
        text(&again.stdout).contains("0 this run; the top 1 are settled"),
        "{}",
        text(&again.stdout)
    );
    assert_eq!(games(cwd).len(), played);
    // --forever keeps the hill playing (here for one batch, --games bounding the run).
    let more = league(cwd, &[&flags[..], &["--forever", "--games", "8"]].concat());
    assert_ok(&more);
    assert_eq!(games(cwd).len(), played + 8);
    assert_verifies(cwd);
    let refused = league(cwd, &[&flags[..], &["--rounds", "3"]].concat());
    assert!(
        text(&refused.stderr).contains("--rounds cannot change it"),
        "{}",
        text(&refused.stderr)
    );
    // Duplicate deals are refused, saying why (kept storage would recognise them).
    let refused = league(cwd, &[&flags[..], &["--duplicate"]].concat());
    assert!(!refused.status.success());
    assert!(
        text(&refused.stderr).contains("would recognise a replayed deal"),
        "{}",
        text(&refused.stderr)
    );
    // What fixes the choices cannot change.
    let refused = league(cwd, &[&flags[..1], &["3", "--top", "1"]].concat());
    assert!(!refused.status.success());
    assert!(
        text(&refused.stderr).contains("--players cannot change it"),
        "{}",
        text(&refused.stderr)
    );
}

/// `take6 verify` re-derives each batch's choice: a game whose seats were swapped (and the
/// chain recomputed) does not verify.
#[test]
fn verify_catches_a_game_that_is_not_the_choice() {
    let tmp = arena(&["first", "lowest", "honest", "strict-default"]);
    let cwd = tmp.path();
    assert_ok(&league(
        cwd,
        &[
            "--players",
            "3",
            "--batch",
            "4",
            "--games",
            "8",
            "--jobs",
            "2",
        ],
    ));
    assert_verifies(cwd);
    let m = manifest(cwd);
    let id = m["league"].as_str().unwrap().to_string();
    let jsonl = folder(cwd).join("games.jsonl");
    common::forge(&jsonl, &id, 6, |g| {
        g.players.swap(0, 1);
    });
    let out = take6(cwd, &["verify", folder(cwd).to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(1), "{}", text(&out.stdout));
    assert!(
        text(&out.stdout).contains("is not what batch"),
        "{}",
        text(&out.stdout)
    );
}

/// A league whose batches were chosen by other rules (a league.toml from take6 before the
/// chooser was recorded) is neither continued nor have its choices passed as re-derived.
#[test]
fn a_league_chosen_by_another_chooser_is_not_continued_nor_its_choices_passed() {
    let tmp = arena(&["first", "lowest", "honest"]);
    let cwd = tmp.path();
    let args = ["--players", "3", "--batch", "4", "--games", "4"];
    assert_ok(&league(cwd, &args));
    assert_verifies(cwd);
    let path = folder(cwd).join("league.toml");
    let toml = fs::read_to_string(&path).unwrap();
    assert!(toml.contains("chooser = 3"), "{toml}");
    // A league of chooser 2, which this take6 knows too, goes on by its rules and verifies.
    fs::write(&path, toml.replace("chooser = 3", "chooser = 2")).unwrap();
    assert_ok(&league(cwd, &args));
    assert_verifies(cwd);
    let toml = fs::read_to_string(&path).unwrap();
    assert!(toml.contains("chooser = 2"), "{toml}");
    let older: String = toml
        .lines()
        .filter(|l| !l.starts_with("chooser ="))
        .map(|l| format!("{l}\n"))
        .collect();
    fs::write(&path, older).unwrap();
    let before = records(cwd).len();
    let out = league(cwd, &args);
    assert!(!out.status.success(), "{}", text(&out.stdout));
    let err = text(&out.stderr);
    assert!(
        err.contains("chooser 1") && err.contains("--league"),
        "{err}"
    );
    assert_eq!(records(cwd).len(), before, "no game played");
    let out = take6(cwd, &["verify", folder(cwd).to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(1), "{}", text(&out.stdout));
    let said = text(&out.stdout);
    assert!(said.contains("chosen by take6's chooser 1"), "{said}");
    assert!(!said.contains("every batch seats"), "{said}");
}

/// A league of a judge that draws its game at random on its first call (as Botzone's Kingz,
/// Snake and Tetris judges do) verifies as a series of it does, and says what it took as
/// recorded: the judge's draws.
#[test]
fn a_league_of_a_judge_that_draws_says_what_verify_took_as_recorded() {
    let draw = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/games/draw");
    let tmp = tempfile::tempdir().unwrap();
    let cwd = tmp.path();
    copy_dir(&draw, &cwd.join("game"));
    for (name, offset) in [("a", None), ("b", Some("3"))] {
        let dir = cwd.join("bots").join(name);
        copy_dir(&draw.join("near"), &dir);
        if let Some(offset) = offset {
            fs::write(dir.join("offset"), offset).unwrap();
        }
    }
    let out = league(
        cwd,
        &[
            "--game",
            "game",
            "--players",
            "2",
            "--batch",
            "4",
            "--games",
            "4",
        ],
    );
    assert_ok(&out);
    let dir = cwd.join("results/league/draw");
    let verified = take6(cwd, &["verify", "--game", "game", dir.to_str().unwrap()]);
    assert_ok(&verified);
    let said = text(&verified.stdout);
    assert!(said.contains("every batch seats"), "{said}");
    assert!(said.contains("not re-checked: "), "{said}");
}

/// Every game plays a league: Kingdomino (points, higher is better) and a Botzone game folder
/// (verdicts, ranked by Bradley–Terry), each verifying, each with its report's version table.
#[test]
fn kingdomino_and_a_botzone_folder_play_leagues_that_verify() {
    let kd = arena(&["kd-filler", "strict-kingdomino"]);
    copy_dir(
        &fixtures().join("kd-filler"),
        &kd.path().join("bots/kd-two"),
    );
    let out = take6(
        kd.path(),
        &[
            "league",
            "--game",
            "kingdomino",
            "--bots",
            "bots",
            "--seed",
            SEED,
            "--players",
            "2",
            "--batch",
            "4",
            "--games",
            "8",
            "--jobs",
            "2",
            "--first-reply-ms",
            "10000",
            "--reply-ms",
            "5000",
        ],
    );
    assert_ok(&out);
    let dir = kd.path().join("results/league/kingdomino");
    let verified = take6(kd.path(), &["verify", dir.to_str().unwrap()]);
    assert_ok(&verified);
    let page = fs::read_to_string(dir.join("report.html")).unwrap();
    assert!(page.contains("<h3>Versions</h3>") && page.contains("strict-kingdomino"));

    let duel = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/games/duel");
    let bz = arena(&["bz-py", "bz-c"]);
    copy_dir(&fixtures().join("bz-py"), &bz.path().join("bots/bz-py2"));
    let out = take6(
        bz.path(),
        &[
            "league",
            "--game",
            duel.to_str().unwrap(),
            "--bots",
            "bots",
            "--seed",
            SEED,
            "--players",
            "2",
            "--batch",
            "4",
            "--games",
            "8",
            "--jobs",
            "2",
        ],
    );
    assert_ok(&out);
    let dir = bz.path().join("results/league/duel");
    // Without --game the league folder chooses no judge: every game is unverified.
    let refused = take6(bz.path(), &["verify", dir.to_str().unwrap()]);
    assert!(!refused.status.success());
    assert!(
        String::from_utf8_lossy(&refused.stdout).contains("give the game folder with --game"),
        "{}",
        String::from_utf8_lossy(&refused.stdout)
    );
    let verified = take6(
        bz.path(),
        &[
            "verify",
            "--game",
            duel.to_str().unwrap(),
            dir.to_str().unwrap(),
        ],
    );
    assert_ok(&verified);
    assert_eq!(
        read_games_jsonl(std::io::BufReader::new(
            fs::File::open(dir.join("games.jsonl")).unwrap()
        ))
        .unwrap()
        .len(),
        8
    );
}

/// A bot skipped for a run (its launch cannot start) sits that run out and keeps its version:
/// back as it was, it is the same bot, not a new version.
#[test]
fn a_bot_skipped_for_a_run_keeps_its_version() {
    use std::os::unix::fs::PermissionsExt;
    let tmp = arena(&["first", "lowest", "honest"]);
    let cwd = tmp.path();
    let flags = SMALL;
    assert_ok(&league(cwd, &flags));
    let launch = cwd.join("bots/honest/launch");
    fs::set_permissions(&launch, fs::Permissions::from_mode(0o644)).unwrap();
    let out = league(cwd, &flags);
    assert!(
        text(&out.stderr).contains("honest"),
        "{}",
        text(&out.stderr)
    );
    assert!(
        games(cwd)
            .range(4..)
            .all(|(_, (_, p, _))| !p.contains(&"honest".to_string()))
    );
    fs::set_permissions(&launch, fs::Permissions::from_mode(0o755)).unwrap();
    assert_ok(&league(cwd, &flags));
    let m = manifest(cwd);
    let honest: Vec<&toml::Value> = m["versions"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|v| v["name"].as_str() == Some("honest"))
        .collect();
    assert_eq!(honest.len(), 1, "{honest:?}");
    assert!(honest[0].get("until_game").is_none());
    assert!(
        games(cwd)
            .range(8..)
            .any(|(_, (_, p, _))| p.contains(&"honest".to_string()))
    );
    assert_verifies(cwd);
}

/// A folder named after another bot's second version (`champ~2`, a bot that exits at once)
/// is refused at discovery, naming the rule and the fix: it takes neither the board row nor
/// the bench of champ's real second version, which plays on with no fault, and verify passes.
#[test]
fn a_folder_named_like_another_bots_version_is_refused_and_benches_no_one() {
    let tmp = arena(&["first", "lowest"]);
    let cwd = tmp.path();
    copy_dir(&fixtures().join("first"), &cwd.join("bots/champ"));
    assert_ok(&league(cwd, &SMALL));
    // champ changed once: its second version is `champ~2`.
    let launch = cwd.join("bots/champ/launch");
    let mut script = fs::read_to_string(&launch).unwrap();
    script.push_str("# version 2\n");
    fs::write(&launch, script).unwrap();
    copy_dir(
        &fixtures().join("hostile-impostor"),
        &cwd.join("bots/champ~2"),
    );
    let flags = [
        "--players",
        "3",
        "--batch",
        "4",
        "--games",
        "12",
        "--jobs",
        "2",
    ];
    let out = league(cwd, &flags);
    let said = format!("{}{}", text(&out.stdout), text(&out.stderr));
    let m = manifest(cwd);
    assert!(m.get("benched").is_none(), "champ v2 benched: {m:?}");
    let all = games(cwd);
    assert_eq!(all.len(), 16, "{said}");
    assert!(
        all.values()
            .all(|(_, p, _)| !p.contains(&"champ~2".to_string())),
        "the impostor played: {all:?}"
    );
    assert!(
        said.contains("champ~2") && said.contains("use a name without '~'"),
        "{said}"
    );
    let versions = m["versions"].as_array().unwrap();
    assert!(
        versions
            .iter()
            .all(|v| v["name"].as_str() != Some("champ~2")),
        "{versions:?}"
    );
    let champ2 = versions
        .iter()
        .find(|v| v["name"].as_str() == Some("champ") && v["version"].as_integer() == Some(2))
        .unwrap_or_else(|| panic!("{versions:?}"));
    assert!(champ2.get("until_game").is_none(), "{champ2:?}");
    // champ v2 sat at the later tables, faultless.
    let later: Vec<GameRecord> = records(cwd).into_iter().filter(|r| r.game >= 4).collect();
    assert!(
        later
            .iter()
            .all(|r| r.players.contains(&"champ".to_string()))
    );
    assert!(
        later.iter().all(|r| r.faults().next().is_none()),
        "{later:?}"
    );
    let md = fs::read_to_string(folder(cwd).join("leaderboard.md")).unwrap();
    assert!(md.contains("champ\\~2"), "{md}");
    assert!(!md.contains("benched"), "{md}");
    assert_verifies(cwd);
}

/// A league says how far its top pairs are: every few seconds while it plays, and at the end
/// of a run that did not settle them, each pair's progress and the games still needed; a pair
/// of identical bots looks tied. leaderboard.md and report.html say whether it is settled.
#[test]
fn a_league_says_how_far_its_top_pairs_are_and_whether_it_is_settled() {
    let tmp = arena(&["first"]);
    let cwd = tmp.path();
    copy_dir(&fixtures().join("first"), &cwd.join("bots/twin"));
    let out = take6_cmd(cwd)
        .args(["league", "--bots", "bots", "--seed", SEED, "--top", "1"])
        .args([
            "--players",
            "2",
            "--batch",
            "4",
            "--jobs",
            "2",
            "--games",
            "80",
        ])
        .args(["--first-reply-ms", "10000", "--reply-ms", "5000"])
        .env("TAKE6_PROGRESS_SECONDS", "0.01")
        .env_remove("RUST_LOG")
        .output()
        .unwrap();
    assert_ok(&out);
    let stderr = text(&out.stderr);
    assert!(
        stderr.contains("games, the top pairs: "),
        "a line while it plays: {stderr}"
    );
    let stdout = text(&out.stdout);
    assert!(stdout.contains("The top pairs after 80 games:"), "{stdout}");
    assert!(
        stdout.contains("look tied") && stdout.contains("twin") && stdout.contains("first"),
        "the twins: {stdout}"
    );
    let md = fs::read_to_string(folder(cwd).join("leaderboard.md")).unwrap();
    assert!(
        md.contains("Not settled yet: the last run's --games budget ran out"),
        "{md}"
    );
    let html = fs::read_to_string(folder(cwd).join("report.html")).unwrap();
    assert!(html.contains("Not settled yet") && html.contains("80 games in 1 run."));
}

/// A league of two bots speaks of its one pair, not of "the top 3"; its terminal board is the
/// series' table (no Markdown escapes), and `league --help` offers no `--duplicate`, which a
/// league refuses.
#[test]
fn a_two_bot_league_speaks_of_its_one_pair_in_plain_text() {
    let tmp = arena(&["first", "lowest"]);
    let cwd = tmp.path();
    let out = league(cwd, &["--players", "2", "--batch", "4", "--games", "8"]);
    assert_ok(&out);
    let (stdout, stderr) = (text(&out.stdout), text(&out.stderr));
    assert!(
        !stdout.contains("top 3") && !stderr.contains("top 3"),
        "{stderr}{stdout}"
    );
    assert!(stderr.contains("top 1 (seed"), "{stderr}");
    assert!(stdout.contains("rank  bot"), "the series' table: {stdout}");
    assert!(
        !stdout.contains("|---"),
        "no Markdown on the terminal: {stdout}"
    );
    let md = fs::read_to_string(folder(cwd).join("leaderboard.md")).unwrap();
    assert!(md.contains("|---") && md.contains("the top 1 "), "{md}");
    let help = take6(cwd, &["league", "--help"]);
    assert_ok(&help);
    assert!(!text(&help.stdout).contains("--duplicate"));
    let help = take6(cwd, &["--help"]);
    assert!(
        text(&help.stdout).contains("Botzone"),
        "{}",
        text(&help.stdout)
    );
}

/// A league shows its progress as `take6 run` does: without a terminal, a line every few
/// seconds (here every 0.05 s); with no `--games` it counts games with no length or ETA, with
/// `--games N` it counts towards the run's N.
#[test]
fn a_league_says_its_progress() {
    let (one, two) = (arena(&["first", "lowest"]), arena(&["first", "lowest"]));
    let progress = |cwd: &Path, extra: &[&str]| {
        let out = take6_cmd(cwd)
            .args(["league", "--bots", "bots", "--seed", SEED])
            .args(["--players", "2", "--batch", "4", "--jobs", "1"])
            .args(["--first-reply-ms", "10000", "--reply-ms", "5000"])
            .args(extra)
            .env("TAKE6_PROGRESS_SECONDS", "0.05")
            .env_remove("RUST_LOG")
            .stdin(Stdio::null())
            .output()
            .unwrap();
        assert_ok(&out);
        let stderr = text(&out.stderr);
        stderr
            .lines()
            .find(|l| l.starts_with("take6: ") && l.contains(" games/s, elapsed "))
            .unwrap_or_else(|| panic!("no progress line: {stderr}"))
            .to_string()
    };
    let budget = progress(one.path(), &["--games", "12"]);
    assert!(
        budget.contains("/12 games, ") && budget.contains(", ETA "),
        "{budget}"
    );
    // Open-ended: until settled (the two are far apart: a few dozen games).
    let open = progress(two.path(), &["--min-games", "2", "--top", "1"]);
    let count = open.split(' ').nth(1).unwrap();
    assert!(
        count.parse::<u64>().is_ok() && open.contains(" games, ") && !open.contains("ETA"),
        "{open}"
    );
}

/// A league of 32 bots (copies of one fixture under 32 names) for each game: Take 6 at tables
/// of 10, Kingdomino at tables of 4, a Botzone game folder at tables of 2; each plays whole
/// batches that seat every bot first (its minimum of games) and verifies, choice included.
#[test]
fn leagues_of_thirty_two_bots_play_and_verify_for_every_game() {
    let duel = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/games/duel");
    let duel = duel.to_str().unwrap().to_string();
    for (fixture, game, players, folder) in [
        ("first", "take6", "10", "take6"),
        ("kd-filler", "kingdomino", "4", "kingdomino"),
        ("bz-py", duel.as_str(), "2", "duel"),
    ] {
        let tmp = tempfile::tempdir().unwrap();
        for i in 0..32 {
            copy_dir(
                &fixtures().join(fixture),
                &tmp.path().join(format!("bots/{fixture}{i:02}")),
            );
        }
        let out = take6(
            tmp.path(),
            &[
                "league",
                "--game",
                game,
                "--bots",
                "bots",
                "--seed",
                SEED,
                "--players",
                players,
                "--batch",
                "8",
                "--games",
                "16",
                "--min-games",
                "1",
                "--jobs",
                "2",
                "--first-reply-ms",
                "10000",
                "--reply-ms",
                "5000",
            ],
        );
        assert_ok(&out);
        let dir = tmp.path().join("results/league").join(folder);
        let played = read_games_jsonl(std::io::BufReader::new(
            fs::File::open(dir.join("games.jsonl")).unwrap(),
        ))
        .unwrap();
        assert_eq!(played.len(), 16, "{game}");
        // New versions play first: the first games seat every one of the 32 at least once
        // where 16 tables have the seats for them.
        let seated: std::collections::BTreeSet<&String> =
            played.iter().flat_map(|r| &r.players).collect();
        let seats = 16 * players.parse::<usize>().unwrap();
        assert!(seated.len() >= 32.min(seats), "{game}: {}", seated.len());
        let md = fs::read_to_string(dir.join("leaderboard.md")).unwrap();
        assert_eq!(md.lines().filter(|l| l.starts_with("| ")).count(), 1 + 32);
        let verified = take6(
            tmp.path(),
            &["verify", "--game", game, dir.to_str().unwrap()],
        );
        assert_ok(&verified);
    }
}

/// The text of the first element after `start` in `html`, up to `end`.
fn between<'a>(html: &'a str, start: &str, end: &str) -> &'a str {
    let from = html
        .find(start)
        .unwrap_or_else(|| panic!("no {start} in the page"));
    let rest = &html[from..];
    &rest[..rest.find(end).unwrap_or(rest.len())]
}

/// A league's report.html is the series' page with the league's section: the Faults section
/// names a crashing bot's fault reason and quotes its stderr, the reply times are there (and
/// in reply_times.csv), the game viewer, which way is better. When the bot changes between
/// runs, its games.log says which version played each game, and the report quotes the new
/// version's stderr under the new version's key.
#[test]
fn a_leagues_report_has_what_a_series_has_and_its_log_names_versions() {
    let tmp = arena(&["first", "lowest", "crash-at-start"]);
    let cwd = tmp.path();
    let flags = [
        "--players",
        "3",
        "--batch",
        "4",
        "--games",
        "4",
        "--jobs",
        "2",
    ];
    assert_ok(&league(cwd, &flags));
    let html = fs::read_to_string(folder(cwd).join("report.html")).unwrap();
    let faults = between(&html, "<section id=\"faults\">", "</section>");
    assert!(
        faults.contains("data-bot=\"crash-at-start\"")
            // Its exit status, or its closed output if that is seen before the exit.
            && (faults.contains("exited (exit status: 3) before replying")
                || faults.contains("closed its output before replying"))
            && faults.contains("crash-at-start: deliberately crashing before reading anything"),
        "{faults}"
    );
    assert!(html.contains("lower is better"), "the game's direction");
    assert!(html.contains("<section id=\"viewer\">") && html.contains("\"games\":[{"));
    let replies = between(&html, "<section id=\"replytimes\">", "</section>");
    let csv = fs::read_to_string(folder(cwd).join("reply_times.csv")).unwrap();
    for bot in ["first", "lowest"] {
        assert!(
            replies.contains(&format!("data-bot=\"{bot}\"")),
            "{replies}"
        );
        let row = csv
            .lines()
            .find(|l| l.starts_with(&format!("{bot},")))
            .unwrap_or_else(|| panic!("{csv}"));
        let count: u64 = row.split(',').nth(1).unwrap().parse().unwrap();
        assert!(count > 0, "{row}");
    }
    // A new version of the crashing bot: it crashes saying so.
    fs::write(
        cwd.join("bots/crash-at-start/launch"),
        "#!/bin/sh\necho \"crash-at-start v2: still crashing\" >&2\nexit 3\n",
    )
    .unwrap();
    assert_ok(&league(cwd, &flags));
    let m = manifest(cwd);
    let from = m["versions"]
        .as_array()
        .unwrap()
        .iter()
        .find(|v| {
            v["name"].as_str() == Some("crash-at-start") && v["version"].as_integer() == Some(2)
        })
        .and_then(|v| v["from_game"].as_integer())
        .expect("a second version") as u64;
    let log = fs::read_to_string(folder(cwd).join("logs/crash-at-start.games.log")).unwrap();
    let headers: Vec<&str> = log.lines().filter(|l| l.starts_with("=== game ")).collect();
    let played: Vec<u64> = records(cwd)
        .iter()
        .filter(|r| r.players.iter().any(|p| p == "crash-at-start"))
        .map(|r| r.game)
        .collect();
    assert_eq!(headers.len(), played.len(), "{log}");
    assert!(played.iter().any(|&g| g >= from), "{played:?}");
    for g in played {
        let want = if g < from {
            "version crash-at-start) ==="
        } else {
            "version crash-at-start~2) ==="
        };
        assert!(
            headers
                .iter()
                .any(|h| h.starts_with(&format!("=== game {g} (seat ")) && h.ends_with(want)),
            "game {g}: {want} in {headers:?}"
        );
    }
    let html = fs::read_to_string(folder(cwd).join("report.html")).unwrap();
    let faults = between(&html, "<section id=\"faults\">", "</section>");
    assert!(
        faults.contains("data-bot=\"crash-at-start~2\"")
            && faults.contains("crash-at-start v2: still crashing"),
        "{faults}"
    );
    assert_verifies(cwd);
}

/// The counts of one league agree everywhere: stopped by SIGINT after some games, then rerun
/// with `--games 5` (not a whole batch), the rerun plays exactly 5 games; its progress lines
/// never count past their length, which is the games before it plus 5; leaderboard.md,
/// report.html and the terminal say the same number of games and runs, and each bot's status
/// is the same in leaderboard.md and report.html.
#[test]
fn a_reruns_budget_counts_its_own_games_and_every_output_says_the_same_counts() {
    let tmp = arena(&["first", "lowest", "patient", "honest"]);
    let cwd = tmp.path();
    let flags = ["--players", "3", "--batch", "4", "--jobs", "2"];
    let mut child = take6_cmd(cwd)
        .args(["league", "--bots", "bots", "--seed", SEED])
        .args([
            "--first-reply-ms",
            "10000",
            "--reply-ms",
            "5000",
            "--games",
            "40",
        ])
        .args(flags)
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let jsonl = folder(cwd).join("games.jsonl");
    let deadline = Instant::now() + Duration::from_secs(120);
    while fs::read_to_string(&jsonl).map_or(0, |t| t.lines().count()) < 6 {
        assert!(Instant::now() < deadline, "no games played");
        std::thread::sleep(Duration::from_millis(20));
    }
    nix::sys::signal::kill(
        nix::unistd::Pid::from_raw(child.id() as i32),
        nix::sys::signal::Signal::SIGINT,
    )
    .unwrap();
    assert_eq!(child.wait().unwrap().code(), Some(130));
    let before = records(cwd).len() as u64;
    assert!(before < 40, "{before} played before the stop");
    assert_counts_agree(cwd, before, 1, None);
    let out = take6_cmd(cwd)
        .args(["league", "--bots", "bots", "--seed", SEED])
        .args([
            "--first-reply-ms",
            "10000",
            "--reply-ms",
            "5000",
            "--games",
            "5",
        ])
        .args(flags)
        .env("TAKE6_PROGRESS_SECONDS", "0.001")
        .output()
        .unwrap();
    assert_ok(&out);
    let after = records(cwd).len() as u64;
    assert_eq!(after, before + 5, "the rerun played its budget exactly");
    let progress: Vec<(u64, u64)> = text(&out.stderr)
        .lines()
        .filter(|l| l.contains(" games/s, elapsed "))
        .filter_map(|l| {
            let (pos, len) = l
                .strip_prefix("take6: ")?
                .split(' ')
                .next()?
                .split_once('/')?;
            Some((pos.parse().ok()?, len.parse().ok()?))
        })
        .collect();
    assert!(!progress.is_empty(), "{}", text(&out.stderr));
    assert!(
        progress
            .iter()
            .all(|&(pos, len)| pos <= len && len == after),
        "{progress:?}"
    );
    assert_counts_agree(cwd, after, 2, Some(&text(&out.stdout)));
    assert_verifies(cwd);
}

/// leaderboard.md, report.html (and the terminal's board, when given) count `games` games in
/// `runs` runs, and give each bot the same status.
#[track_caller]
fn assert_counts_agree(cwd: &Path, games: u64, runs: u64, terminal: Option<&str>) {
    let said = format!(
        "{games} game{} in {runs} run{}.",
        if games == 1 { "" } else { "s" },
        if runs == 1 { "" } else { "s" }
    );
    let md = fs::read_to_string(folder(cwd).join("leaderboard.md")).unwrap();
    let html = fs::read_to_string(folder(cwd).join("report.html")).unwrap();
    assert!(md.contains(&said), "{said} in {md}");
    let header = between(&html, "<header>", "</header>");
    assert!(header.contains(&said), "{said} in {header}");
    if let Some(t) = terminal {
        assert!(t.contains(&said), "{said} in {t}");
    }
    let rows: Vec<&str> = md
        .lines()
        .filter(|l| l.starts_with("| ") && !l.starts_with("| rank"))
        .collect();
    assert!(rows.len() >= 2, "{md}");
    for row in rows {
        let cells: Vec<&str> = row.split(" | ").collect();
        let (bot, status) = (cells[1], cells[5].trim_end_matches(" |"));
        let bot = bot.replace('\\', "");
        let cell = between(
            &html,
            &format!("<tr data-bot=\"{bot}\"><td>{bot}</td><td class=\"status\">"),
            "</td></tr>",
        );
        assert!(cell.ends_with(status), "{bot}: md {status}, html {cell}");
    }
}

/// A new bot joining a field past its first games meets the whole field in its first batch,
/// the leader included, not the same few bots at every table; the choice still verifies.
#[test]
fn a_newcomer_meets_the_whole_field_the_leader_included() {
    let tmp = arena(&["first", "lowest", "honest", "strict-default", "cg-first"]);
    let cwd = tmp.path();
    let flags = |games: &'static str| {
        [
            "--players",
            "3",
            "--batch",
            "8",
            "--jobs",
            "2",
            "--games",
            games,
        ]
    };
    assert_ok(&league(cwd, &flags("32")));
    let csv = fs::read_to_string(folder(cwd).join("leaderboard.csv")).unwrap();
    let leader = csv
        .lines()
        .nth(1)
        .unwrap()
        .split(',')
        .nth(1)
        .unwrap()
        .to_string();
    copy_dir(&fixtures().join("first"), &cwd.join("bots/newbie"));
    assert_ok(&league(cwd, &flags("8")));
    let field = ["first", "lowest", "honest", "strict-default", "cg-first"];
    let mut met = BTreeMap::new();
    for (g, (_, players, _)) in games(cwd).range(32..) {
        assert!(
            players.iter().any(|p| p == "newbie"),
            "game {g}: {players:?}"
        );
        for p in players.iter().filter(|p| field.contains(&p.as_str())) {
            *met.entry(p.clone()).or_insert(0) += 1;
        }
    }
    assert_eq!(met.len(), field.len(), "it met everyone: {met:?}");
    assert!(met.contains_key(&leader), "the leader {leader}: {met:?}");
    assert!(met.values().all(|&n| n <= 4), "spread: {met:?}");
    assert_verifies(cwd);
}
