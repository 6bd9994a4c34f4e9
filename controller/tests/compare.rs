//! `take6 compare NEW OLD` through the real binary with real bot processes: a true tie ends
//! "not better", a clear gain "better" (and the loss, the other way, "not better"), a budget cut
//! "undecided"; every deal is played twice with NEW and OLD swapped; Ctrl-C and `--resume`
//! play every pair once; `take6 verify` re-derives every pair and the verdict and catches a
//! forged one; a bot that remembers deals never sees a pair's deal twice; Kingdomino and a
//! Botzone game.

mod common;

use common::{copy_dir, fixtures, forge, records_in, take6, take6_cmd, text};

use std::collections::BTreeMap;
use std::fs;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};
use std::time::{Duration, Instant};

use assert_cmd::cargo::CommandCargoExt;
use take6::record::{GameRecord, read_games_jsonl};
use tempfile::TempDir;

const SEED: &str = "5";

/// A scratch folder holding copies of fixtures as `(folder name, fixture)`, each with the
/// `mode.txt` given, if any.
fn mode_arena(bots: &[(&str, &str, Option<&str>)]) -> TempDir {
    let tmp = tempfile::tempdir().unwrap();
    for (name, fixture, mode) in bots {
        let dir = tmp.path().join(name);
        copy_dir(&fixtures().join(fixture), &dir);
        if let Some(mode) = mode {
            fs::write(dir.join("mode.txt"), mode).unwrap();
        }
    }
    tmp
}

/// `take6 compare` in `cwd` with the test's seed, generous limits and `args`.
fn compare(cwd: &Path, args: &[&str]) -> Output {
    take6_cmd(cwd)
        .args(["compare", "--seed", SEED, "--first-reply-ms", "10000"])
        .args(["--reply-ms", "5000", "--jobs", "2"])
        .args(args)
        .output()
        .unwrap()
}

/// The one compare folder under `cwd/results/compare`.
fn folder(cwd: &Path) -> PathBuf {
    let mut found: Vec<PathBuf> = fs::read_dir(cwd.join("results/compare"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    assert_eq!(found.len(), 1, "{found:?}");
    found.pop().unwrap()
}

fn manifest(dir: &Path) -> toml::Table {
    fs::read_to_string(dir.join("compare.toml"))
        .unwrap()
        .parse()
        .unwrap()
}

/// The exit status and the verdict line.
#[track_caller]
fn assert_verdict(out: &Output, code: i32, verdict: &str) {
    let stdout = text(&out.stdout);
    assert_eq!(
        out.status.code(),
        Some(code),
        "stdout:\n{stdout}\nstderr:\n{}",
        text(&out.stderr)
    );
    assert!(
        stdout.starts_with(&format!("verdict: {verdict}\n")),
        "{stdout}"
    );
}

#[track_caller]
fn assert_verifies(dir: &Path) {
    let out = take6(Path::new("."), &["verify", dir.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stdout));
    assert!(
        text(&out.stdout).contains("every game is its pair's"),
        "{}",
        text(&out.stdout)
    );
}

/// Every pair: one seed, NEW and OLD in each other's seats, everyone else where they were.
#[track_caller]
fn assert_paired(games: &[GameRecord], new: &str, old: &str) {
    let by: BTreeMap<u64, &GameRecord> = games.iter().map(|g| (g.game, g)).collect();
    let mut pairs = 0;
    for (g, a) in &by {
        let Some(b) = by.get(&(g + 1)).filter(|_| g % 2 == 0) else {
            continue;
        };
        pairs += 1;
        assert_eq!(a.seed, b.seed, "pair {}", g / 2);
        let swapped: Vec<String> = a
            .players
            .iter()
            .map(|p| match p.as_str() {
                p if p == new => old.to_string(),
                p if p == old => new.to_string(),
                p => p.to_string(),
            })
            .collect();
        assert_eq!(b.players, swapped, "pair {}", g / 2);
        assert!(a.players.iter().any(|p| p == new) && a.players.iter().any(|p| p == old));
    }
    assert!(pairs >= 1);
}

/// Every strict reader read every game to its end.
#[track_caller]
fn assert_strict_ok(dir: &Path, bots: &[&str]) {
    for work in ["work", "second/work"] {
        for bot in bots {
            let verdicts = fs::read_to_string(dir.join(work).join(bot).join("verdicts.txt"))
                .unwrap_or_default();
            assert!(
                !verdicts.is_empty() && verdicts.lines().all(|l| l == "ok"),
                "{work}/{bot}: {verdicts}"
            );
        }
    }
}

#[test]
fn a_true_tie_ends_not_better_and_verifies() {
    let tmp = mode_arena(&[
        ("mine", "strict-default", None),
        ("mine-old", "strict-default", None),
    ]);
    let cwd = tmp.path();
    // A field of three strict readers for two seats, one of them named as NEW (it sits out).
    for bot in ["f1", "f2", "f3", "mine"] {
        copy_dir(
            &fixtures().join("strict-default"),
            &cwd.join("field").join(bot),
        );
    }
    let out = compare(
        cwd,
        &[
            "mine",
            "mine-old",
            "--field",
            "field",
            "--players",
            "4",
            "--games",
            "100",
        ],
    );
    assert_verdict(&out, 3, "not better");
    let dir = folder(cwd);
    let games = records_in(&dir);
    assert_paired(&games, "mine", "mine-old");
    assert_strict_ok(&dir, &["mine", "mine-old", "f1", "f2", "f3"]);
    for g in &games {
        let field = g.players.iter().filter(|p| p.starts_with('f')).count();
        assert_eq!(field, 2, "{:?}", g.players);
        assert_eq!(g.players.iter().filter(|p| *p == "mine").count(), 1);
    }
    let m = manifest(&dir);
    let test = m["test"].as_table().unwrap();
    assert_eq!(test["verdict"].as_str(), Some("not better"));
    assert_eq!(m["status"].as_str(), Some("finished"));
    let pairs = test["pairs"].as_integer().unwrap();
    assert!(pairs >= 10 && (games.len() as i64) < 100, "{m}");
    assert!(test["llr"].as_float().unwrap() <= test["lower"].as_float().unwrap());
    // Identical bots: each pair's two games mirror each other.
    assert_eq!(test["estimate"].as_float(), Some(0.0));
    let report = fs::read_to_string(dir.join("report.html")).unwrap();
    assert!(report.contains("<svg id=\"llr\"") && report.contains("<polyline"));
    assert!(report.contains("not better"));
    assert_verifies(&dir);
}

#[test]
fn a_clear_gain_ends_better_and_the_loss_not_better() {
    let tmp = mode_arena(&[
        ("strong", "strict-default", Some("strong")),
        ("weak", "strict-default", Some("weak")),
    ]);
    let cwd = tmp.path();
    let out = compare(cwd, &["strong", "weak", "--players", "4", "--games", "400"]);
    assert_verdict(&out, 0, "better");
    let dir = folder(cwd);
    assert_paired(&records_in(&dir), "strong", "weak");
    assert_strict_ok(&dir, &["strong", "weak"]);
    let test = manifest(&dir)["test"].as_table().unwrap().clone();
    // More is better: fewer cows for NEW.
    assert!(test["low"].as_float().unwrap() > 0.0, "{test}");
    assert_verifies(&dir);
    fs::remove_dir_all(cwd.join("results")).unwrap();
    let out = compare(cwd, &["weak", "strong", "--players", "4", "--games", "400"]);
    assert_verdict(&out, 3, "not better");
    assert!(text(&out.stdout).contains("weak against strong: -"));
}

#[test]
fn a_budget_cut_ends_undecided() {
    let tmp = mode_arena(&[
        ("strong", "strict-default", Some("strong")),
        ("weak", "strict-default", Some("weak")),
    ]);
    let cwd = tmp.path();
    // A full table of 10, games of 2 rounds (the strict readers read both).
    for bot in ["strong", "weak"] {
        fs::write(cwd.join(bot).join("rounds.txt"), "2").unwrap();
    }
    let out = compare(
        cwd,
        &[
            "strong",
            "weak",
            "--players",
            "10",
            "--rounds",
            "2",
            "--games",
            "6",
        ],
    );
    assert_verdict(&out, 4, "undecided");
    assert!(
        text(&out.stdout).contains("the --games budget ran out"),
        "{}",
        text(&out.stdout)
    );
    let dir = folder(cwd);
    let games = records_in(&dir);
    assert_eq!(games.len(), 6);
    assert!(
        games
            .iter()
            .all(|g| g.players.len() == 10 && g.rounds.len() == 2)
    );
    assert_paired(&games, "strong", "weak");
    assert_strict_ok(&dir, &["strong", "weak"]);
    assert_eq!(
        manifest(&dir)["test"]["verdict"].as_str(),
        Some("undecided")
    );
    assert_verifies(&dir);
}

/// Each game by number: its seed, its players in seat order, their scores (exactly: as bits).
fn games_of(dir: &Path) -> BTreeMap<u64, (u64, Vec<String>, Vec<u64>)> {
    records_in(dir)
        .into_iter()
        .map(|r| {
            let scores = r.totals().into_iter().map(|s| s.get().to_bits()).collect();
            (r.game, (r.seed, r.players, scores))
        })
        .collect()
}

#[test]
fn ctrl_c_then_resume_plays_every_pair_once() {
    let bots = [("slow", "patient", None), ("slow-old", "patient", None)];
    let tmp = mode_arena(&bots);
    let cwd = tmp.path();
    let args = ["slow", "slow-old", "--players", "4", "--games", "60"];
    let mut child = Command::cargo_bin("take6")
        .unwrap()
        .current_dir(cwd)
        .args(["compare", "--seed", SEED, "--first-reply-ms", "10000"])
        .args(["--reply-ms", "5000", "--jobs", "2"])
        .args(args)
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let deadline = Instant::now() + Duration::from_secs(120);
    let jsonl = || {
        fs::read_dir(cwd.join("results/compare"))
            .ok()
            .and_then(|mut d| d.next())
            .map(|e| e.unwrap().path().join("games.jsonl"))
    };
    while jsonl()
        .and_then(|p| fs::read_to_string(p).ok())
        .map_or(0, |t| t.lines().count())
        < 3
    {
        assert!(Instant::now() < deadline, "no games played");
        std::thread::sleep(Duration::from_millis(20));
    }
    nix::sys::signal::kill(
        nix::unistd::Pid::from_raw(child.id() as i32),
        nix::sys::signal::Signal::SIGINT,
    )
    .unwrap();
    assert_eq!(child.wait().unwrap().code(), Some(130));
    let dir = folder(cwd);
    assert_eq!(manifest(&dir)["status"].as_str(), Some("interrupted"));
    let partial = records_in(&dir).len();
    assert!(partial < 20, "{partial} played before the stop");
    let mut resumed = args.to_vec();
    resumed.extend(["--resume", dir.to_str().unwrap()]);
    let out = compare(cwd, &resumed);
    assert_verdict(&out, 3, "not better");
    let numbers: Vec<u64> = records_in(&dir).iter().map(|r| r.game).collect();
    let mut unique = numbers.clone();
    unique.dedup();
    assert_eq!(unique, numbers, "a game twice");
    assert_eq!(numbers, (0..numbers.len() as u64).collect::<Vec<_>>());
    assert_verifies(&dir);
    // The same games as a compare never stopped.
    let straight = mode_arena(&bots);
    let out = compare(straight.path(), &args);
    assert_verdict(&out, 3, "not better");
    let (a, b) = (games_of(&dir), games_of(&folder(straight.path())));
    let counted = 2 * manifest(&dir)["test"]["pairs"].as_integer().unwrap() as u64;
    for g in 0..counted {
        assert_eq!(a.get(&g), b.get(&g), "game {g}");
    }
}

#[test]
fn verify_catches_a_forged_pair_and_a_forged_verdict() {
    let tmp = mode_arena(&[
        ("mine", "strict-default", None),
        ("mine-old", "strict-default", None),
    ]);
    let cwd = tmp.path();
    let out = compare(
        cwd,
        &["mine", "mine-old", "--players", "3", "--games", "40"],
    );
    assert_verdict(&out, 3, "not better");
    let dir = folder(cwd);
    let jsonl = dir.join("games.jsonl");
    let pristine = fs::read(&jsonl).unwrap();
    let id = manifest(&dir)["compare"].as_str().unwrap().to_string();
    // The second game of pair 0 seated as its first (NEW and OLD not swapped).
    let lines = read_games_jsonl(std::io::BufReader::new(&pristine[..])).unwrap();
    let n = lines.iter().position(|g| g.game == 1).unwrap() + 1;
    let first = lines.iter().find(|g| g.game == 0).unwrap().players.clone();
    forge(&jsonl, &id, n, |g| g.players = first);
    let out = take6(cwd, &["verify", dir.to_str().unwrap()]);
    let said = text(&out.stdout);
    assert_eq!(out.status.code(), Some(1), "{said}");
    assert!(
        said.contains(&format!("line {n}")) && said.contains("is not game 2 of pair 0"),
        "{said}"
    );
    // A verdict the records do not give.
    fs::write(&jsonl, &pristine).unwrap();
    let toml = fs::read_to_string(dir.join("compare.toml")).unwrap();
    fs::write(
        dir.join("compare.toml"),
        toml.replace("verdict = \"not better\"", "verdict = \"better\""),
    )
    .unwrap();
    let out = take6(cwd, &["verify", dir.to_str().unwrap()]);
    let said = text(&out.stdout);
    assert_eq!(out.status.code(), Some(1), "{said}");
    assert!(said.contains("compare.toml says better"), "{said}");
}

/// The spy's lines of `learned.txt` in one working copy: whether it recognised the deal.
fn recognised(file: &Path) -> Vec<bool> {
    let text = fs::read_to_string(file).unwrap_or_default();
    assert!(!text.contains("FAIL"), "the spy failed to read:\n{text}");
    text.lines().map(|l| l.contains("recognised yes")).collect()
}

/// The deals (starting rows) a working copy of the spy remembers.
fn remembered(file: &Path) -> std::collections::BTreeSet<String> {
    fs::read_to_string(file)
        .unwrap_or_default()
        .lines()
        .map(|l| l.split(" | ").next().unwrap().to_string())
        .collect()
}

#[test]
fn a_bot_that_remembers_deals_never_sees_a_pairs_deal_twice() {
    let tmp = mode_arena(&[
        ("spy", "hostile-spy", None),
        ("honest", "strict-default", None),
    ]);
    let cwd = tmp.path();
    let out = compare(cwd, &["spy", "honest", "--players", "4", "--games", "24"]);
    assert!(
        [Some(0), Some(3), Some(4)].contains(&out.status.code()),
        "{}",
        text(&out.stderr)
    );
    let dir = folder(cwd);
    let games = records_in(&dir).len();
    let (first, second) = (dir.join("work/spy"), dir.join("second/work/spy"));
    let seen: Vec<bool> = recognised(&first.join("learned.txt"))
        .into_iter()
        .chain(recognised(&second.join("learned.txt")))
        .collect();
    assert_eq!(seen.len(), games, "one line per game");
    assert!(
        seen.iter().all(|r| !r),
        "the spy recognised a deal: {seen:?}"
    );
    // The attack is real: every pair dealt its deal to the spy twice, once in each copy; a
    // single working copy would have recognised it.
    let (a, b) = (
        remembered(&first.join("memory.txt")),
        remembered(&second.join("memory.txt")),
    );
    assert!(a.len() >= games / 2 - 1, "{a:?}");
    assert_eq!(a.intersection(&b).count(), a.len().min(b.len()));
}

#[test]
fn kingdomino_and_a_botzone_game_end_a_tie_not_better() {
    let tmp = mode_arena(&[
        ("kd", "strict-kingdomino", None),
        ("kd-old", "strict-kingdomino", None),
    ]);
    let cwd = tmp.path();
    let out = compare(
        cwd,
        &[
            "kd",
            "kd-old",
            "--game",
            "kingdomino",
            "--players",
            "3",
            "--games",
            "60",
        ],
    );
    assert_verdict(&out, 3, "not better");
    let dir = folder(cwd);
    assert_paired(&records_in(&dir), "kd", "kd-old");
    assert_eq!(manifest(&dir)["unit"].as_str(), Some("points"));
    assert_verifies(&dir);

    let tmp = mode_arena(&[("py", "bz-py", None), ("py-old", "bz-py", None)]);
    let cwd = tmp.path();
    let duel = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/games/duel");
    copy_dir(&duel, &cwd.join("game"));
    let toml = cwd.join("game/game.toml");
    let limits = "\n[limits]\nfirst_turn_ms = 20000\nturn_ms = 20000\nkept_running_ms = 20000\n";
    fs::write(&toml, fs::read_to_string(&toml).unwrap() + limits).unwrap();
    let out = compare(cwd, &["py", "py-old", "--game", "game", "--games", "60"]);
    assert_verdict(&out, 3, "not better");
    let dir = folder(cwd);
    let m = manifest(&dir);
    assert_eq!(m["unit"].as_str(), Some("elo"));
    // Every pair level: the pentanomial's middle.
    let penta = m["test"]["pentanomial"].as_array().unwrap();
    assert_eq!(penta[2].as_integer(), m["test"]["pairs"].as_integer());
    assert!(text(&out.stdout).contains("Elo"));
    let out = take6(cwd, &["verify", dir.to_str().unwrap(), "--game", "game"]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stdout));
}

#[test]
fn the_games_and_the_verdict_do_not_depend_on_jobs() {
    let bots = [
        ("strong", "strict-default", Some("strong")),
        ("weak", "strict-default", Some("weak")),
    ];
    let (one, two) = (mode_arena(&bots), mode_arena(&bots));
    let args = ["strong", "weak", "--players", "5", "--games", "400"];
    let out = compare(one.path(), &[&args[..], &["--jobs", "1"]].concat());
    assert_verdict(&out, 0, "better");
    let out = compare(two.path(), &args);
    assert_verdict(&out, 0, "better");
    let (a, b) = (folder(one.path()), folder(two.path()));
    assert_eq!(manifest(&a)["test"], manifest(&b)["test"]);
    let counted = 2 * manifest(&a)["test"]["pairs"].as_integer().unwrap() as u64;
    let (ga, gb) = (games_of(&a), games_of(&b));
    for g in 0..counted {
        assert_eq!(ga.get(&g), gb.get(&g), "game {g}");
    }
}

#[test]
fn the_report_is_the_series_pages_with_the_ratios_path_and_a_fault_is_said_once() {
    let tmp = mode_arena(&[
        ("esc", "hostile-escapes", None),
        ("mine", "strict-default", None),
    ]);
    let cwd = tmp.path();
    let out = compare(cwd, &["esc", "mine", "--players", "3", "--games", "60"]);
    assert_verdict(&out, 3, "not better");
    // The bot faults in every game: its first fault is said once, while the compare runs,
    // with its log; none of what it wrote reaches the terminal raw.
    let stderr = text(&out.stderr);
    let said: Vec<&str> = stderr
        .lines()
        .filter(|l| l.contains("faulted in game"))
        .collect();
    assert_eq!(said.len(), 1, "{stderr}");
    assert!(
        said[0].starts_with("take6: esc faulted in game ") && said[0].contains("esc.games.log"),
        "{stderr}"
    );
    assert!(!out.stderr.contains(&0x1b) && !stderr.contains('\u{9b}'));
    let dir = folder(cwd);
    let report = fs::read_to_string(dir.join("report.html")).unwrap();
    // The series' pages of the compare's games…
    for part in [
        "id=\"leaderboard\"",
        "id=\"scores\"",
        "id=\"headtohead\"",
        "id=\"faults\"",
        "id=\"viewer\"",
        "id=\"facts\"",
        "id=\"fault-esc\"",
        "<title>take6 compare ",
    ] {
        assert!(report.contains(part), "no {part} in the report");
    }
    // …and the compare's own: the verdict, the estimate, the ratio's path between its bounds.
    let at = report
        .find("<section id=\"compare\">")
        .expect("the compare's section");
    let section = &report[at..];
    assert!(section.contains("verdict: not better"));
    assert!(section.contains("95 % interval"));
    let svg = &section[section.find("<svg id=\"llr\"").unwrap()..];
    let svg = &svg[..svg.find("</svg>").unwrap()];
    assert_eq!(svg.matches("<line ").count(), 3, "two bounds and zero");
    let pairs = manifest(&dir)["test"]["pairs"].as_integer().unwrap() as usize;
    let points = svg.split("points=\"").nth(1).unwrap();
    assert_eq!(
        points.split('"').next().unwrap().split(' ').count(),
        pairs + 1
    );
    // The bot's words reach the page escaped.
    assert!(!report.contains('\u{1b}'));
    assert_verifies(&dir);
}

#[test]
fn each_bot_is_built_once_and_its_built_folder_plays_both_games_of_a_pair() {
    let tmp = mode_arena(&[
        ("strong", "strict-default", None),
        ("weak", "strict-default", None),
    ]);
    let cwd = tmp.path();
    // The bot's mode is what its build makes: a second copy without the build plays otherwise.
    for bot in ["strong", "weak"] {
        fs::write(cwd.join(bot).join("mode.src"), bot).unwrap();
        let build = cwd.join(bot).join("build");
        fs::write(&build, "#!/bin/sh\ncp mode.src mode.txt\n").unwrap();
        use std::os::unix::fs::PermissionsExt;
        fs::set_permissions(&build, fs::Permissions::from_mode(0o755)).unwrap();
    }
    let out = compare(cwd, &["strong", "weak", "--players", "4", "--games", "10"]);
    assert_verdict(&out, 4, "undecided");
    let stderr = text(&out.stderr);
    for bot in ["strong", "weak"] {
        let builds = stderr
            .lines()
            .filter(|l| *l == format!("take6: building {bot}"))
            .count();
        assert_eq!(builds, 1, "{bot} built {builds} times:\n{stderr}");
    }
    assert!(stderr.contains("take6: 2 builds in"), "{stderr}");
    let dir = folder(cwd);
    for (work, bot) in [
        ("work", "strong"),
        ("second/work", "strong"),
        ("second/work", "weak"),
    ] {
        let mode = fs::read_to_string(dir.join(work).join(bot).join("mode.txt")).unwrap();
        assert_eq!(mode, bot, "{work}/{bot}");
    }
    assert!(!dir.join("second/logs").exists());
    assert_strict_ok(&dir, &["strong", "weak"]);
    assert_verifies(&dir);
}

#[test]
fn an_undecided_compare_plays_on_with_more_games_and_keeps_what_it_began_with() {
    let tmp = mode_arena(&[
        ("strong", "strict-default", Some("strong")),
        ("weak", "strict-default", Some("weak")),
    ]);
    let cwd = tmp.path();
    let args = ["strong", "weak", "--players", "4"];
    let out = compare(cwd, &[&args[..], &["--games", "10"]].concat());
    assert_verdict(&out, 4, "undecided");
    let dir = folder(cwd);
    let path = dir.to_str().unwrap();
    let id = dir.file_name().unwrap().to_str().unwrap();
    assert!(
        text(&out.stdout).contains(&format!("{id} --games 20\n")),
        "{}",
        text(&out.stdout)
    );
    assert_eq!(records_in(&dir).len(), 10);
    // What a continued compare may not change is refused, naming the flag and the fix.
    for (flag, value) in [
        ("--seed", "9"),
        ("--players", "5"),
        ("--margin", "3"),
        ("--alpha", "0.1"),
        ("--beta", "0.01"),
    ] {
        let resumed = [&args[..], &["--resume", path, flag, value]].concat();
        let out = compare(cwd, &resumed);
        let said = text(&out.stderr);
        assert_eq!(out.status.code(), Some(1), "{flag}: {said}");
        assert!(
            said.contains("cannot continue the compare: these settings would change the games")
                && said.contains(&format!(", {value} now ({flag} cannot change it)"))
                && said.contains("or begin a new compare"),
            "{said}"
        );
    }
    let out = compare(
        cwd,
        &[&args[..], &["--resume", path, "--field", "."]].concat(),
    );
    assert!(
        text(&out.stderr).contains("--field ."),
        "{}",
        text(&out.stderr)
    );
    let out = compare(
        cwd,
        &[&args[..], &["--resume", path, "--games", "6"]].concat(),
    );
    assert!(text(&out.stderr).contains("played 10 games already"));
    assert_eq!(
        records_in(&dir).len(),
        10,
        "a refused compare plays nothing"
    );
    // A larger budget plays on from where it stopped, to a verdict.
    let more = [&args[..], &["--resume", path, "--games", "400"]].concat();
    let out = compare(cwd, &more);
    assert_verdict(&out, 0, "better");
    let numbers: Vec<u64> = records_in(&dir).iter().map(|r| r.game).collect();
    assert!(numbers.len() > 10 && numbers.len() < 400);
    assert_eq!(numbers, (0..numbers.len() as u64).collect::<Vec<_>>());
    assert_paired(&records_in(&dir), "strong", "weak");
    assert_eq!(manifest(&dir)["max_pairs"].as_integer(), Some(200));
    assert_verifies(&dir);
    // A compare with its verdict has nothing left to play.
    let out = compare(cwd, &more);
    assert_verdict(&out, 0, "better");
    assert!(text(&out.stderr).contains("has its verdict already"));
    assert_eq!(records_in(&dir).len(), numbers.len());
}
