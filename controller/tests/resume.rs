//! The real `take6` binary stopped in every way a series can stop (Ctrl-C, `kill -9`, a full
//! disk, a torn last line) and resumed: the result equals an uninterrupted run. And `take6
//! verify` on damaged results.

mod common;

use common::{assert_ok, forge, git, patient_launch, played_in, series_dir, text};

use std::fs;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Output, Stdio};
use std::time::{Duration, Instant};

use assert_cmd::cargo::CommandCargoExt;
use nix::sys::signal::{Signal, kill};
use nix::unistd::Pid;
use take6::record::GameRecord;
use tempfile::TempDir;

const SEED: &str = "21";
const GAMES: usize = 10;

/// A scratch folder with `bots/` holding two copies of the patient bot.
fn patients() -> TempDir {
    let tmp = tempfile::tempdir().unwrap();
    for name in ["patient", "steady"] {
        let bot = tmp.path().join("bots").join(name);
        fs::create_dir_all(&bot).unwrap();
        fs::write(bot.join("launch"), patient_launch()).unwrap();
        use std::os::unix::fs::PermissionsExt;
        fs::set_permissions(bot.join("launch"), fs::Permissions::from_mode(0o755)).unwrap();
    }
    tmp
}

/// `take6 <args>` in `dir`, with generous limits for a loaded machine.
fn command(dir: &Path, args: &[&str]) -> Command {
    let mut cmd = Command::cargo_bin("take6").unwrap();
    cmd.current_dir(dir)
        .args(args)
        .env_remove("RUST_LOG")
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    cmd
}

/// The series run (or resume) flags: seed, games, limits and `jobs`.
fn run_args(jobs: &str) -> Vec<&str> {
    vec![
        "--seed",
        SEED,
        "--games",
        "10",
        "--jobs",
        jobs,
        "--first-reply-ms",
        "3000",
        "--reply-ms",
        "2000",
        "--grace-ms",
        "300",
    ]
}

fn start(dir: &Path, jobs: &str) -> Child {
    let mut args = vec!["run"];
    args.extend(run_args(jobs));
    command(dir, &args).spawn().unwrap()
}

fn lines(dir: &Path) -> usize {
    fs::read(dir.join("results/latest/games.jsonl"))
        .map_or(0, |t| t.iter().filter(|&&b| b == b'\n').count())
}

/// Waits until `games.jsonl` has at least `n` lines (and `series.toml` exists).
fn wait_for_lines(dir: &Path, n: usize) {
    let deadline = Instant::now() + Duration::from_secs(120);
    while !(dir.join("results/latest/series.toml").exists() && lines(dir) >= n) {
        assert!(Instant::now() < deadline, "{n} games never finished");
        std::thread::sleep(Duration::from_millis(20));
    }
}

/// The records and leaderboard of an uninterrupted run with `--jobs 3`.
fn reference() -> (Vec<GameRecord>, String) {
    let tmp = patients();
    let out = start(tmp.path(), "3").wait_with_output().unwrap();
    assert_ok(&out);
    let games = played_in(&series_dir(tmp.path()));
    assert_eq!(games.len(), GAMES);
    let board = fs::read_to_string(series_dir(tmp.path()).join("leaderboard.csv")).unwrap();
    (games, board)
}

/// `take6 run --resume` of the latest series with `--jobs jobs`.
fn resume(dir: &Path, jobs: &str) -> Output {
    command(dir, &["run", "--resume", "--jobs", jobs])
        .output()
        .unwrap()
}

fn verify(dir: &Path) -> Output {
    command(dir, &["verify"]).output().unwrap()
}

/// The resumed series equals the uninterrupted one, verifies, and says it is complete.
#[track_caller]
fn assert_same_as(dir: &Path, reference: &(Vec<GameRecord>, String)) {
    assert_eq!(
        played_in(&series_dir(dir)),
        reference.0,
        "the same games, each exactly once"
    );
    let board = fs::read_to_string(series_dir(dir).join("leaderboard.csv")).unwrap();
    assert_eq!(board, reference.1);
    assert_ok(&verify(dir));
    let manifest = fs::read_to_string(series_dir(dir).join("series.toml")).unwrap();
    assert!(manifest.contains("status = \"complete\""), "{manifest}");
    assert!(manifest.contains(&format!("games_played = {GAMES}")));
    assert_no_image_left(&series_dir(dir));
}

/// Whether the series in `series` ran with the disk cap (its working copies were disk images
/// while it ran). In CI, as root, it must have.
fn disk_capped(series: &Path) -> bool {
    let manifest: toml::Table = fs::read_to_string(series.join("series.toml"))
        .unwrap()
        .parse()
        .unwrap();
    let enforced = manifest["sandbox"]["enforced"].as_array().unwrap();
    let capped = enforced.iter().any(|e| e.as_str() == Some("disk-cap"));
    if std::env::var_os("CI").is_some() && nix::unistd::geteuid().is_root() {
        assert!(capped, "no disk cap in CI as root: {manifest}");
    }
    capped
}

/// The loop devices (`losetup -a`) and host mounts (`/proc/mounts`) that name `series`.
fn images_in_use(series: &Path) -> Vec<String> {
    let series = series.to_string_lossy();
    let loops = Command::new("losetup")
        .arg("-a")
        .output()
        .map_or(Vec::new(), |o| o.stdout);
    let mounts = fs::read("/proc/mounts").unwrap();
    [loops, mounts]
        .iter()
        .flat_map(|t| text(t).lines().map(str::to_string).collect::<Vec<_>>())
        .filter(|l| l.contains(&*series))
        .collect()
}

/// Nothing of the working copies' disk images is left: no image file, no mount the host sees,
/// no loop device holding one (a killed controller's are freed by the kernel, which may take a
/// moment after its processes are gone).
#[track_caller]
fn assert_no_image_left(series: &Path) {
    assert!(!series.join("work/.images").exists(), "images left");
    let deadline = Instant::now() + Duration::from_secs(10);
    while !images_in_use(series).is_empty() && Instant::now() < deadline {
        std::thread::sleep(Duration::from_millis(100));
    }
    assert_eq!(images_in_use(series), Vec::<String>::new(), "left in use");
}

#[test]
fn a_completed_series_leaves_its_working_copies_as_folders_and_no_disk_image() {
    let tmp = patients();
    assert_ok(&start(tmp.path(), "2").wait_with_output().unwrap());
    let dir = series_dir(tmp.path());
    if disk_capped(&dir) {
        // Mounted by system calls, not by the slower `mount` tool they fall back to.
        let log = fs::read_to_string(dir.join("logs/controller.log")).unwrap();
        assert!(log.contains("is a disk image of"), "{log}");
        assert!(!log.contains("mounted by the mount tool"), "{log}");
    }
    for bot in ["patient", "steady"] {
        let work = dir.join("work").join(bot);
        // What the bot wrote (a line per game) and what it was given.
        let counted = fs::read_to_string(work.join("games.txt")).unwrap();
        assert_eq!(counted.lines().count(), GAMES, "{counted}");
        assert_eq!(
            fs::read_to_string(work.join("launch")).unwrap(),
            patient_launch()
        );
    }
    assert_no_image_left(&dir);
}

#[test]
fn a_working_copy_survives_kill_9_in_its_disk_image_and_is_back_after_the_resume() {
    let tmp = patients();
    let mut child = start(tmp.path(), "2");
    wait_for_lines(tmp.path(), 2);
    child.kill().unwrap();
    child.wait().unwrap();
    let dir = series_dir(tmp.path());
    if disk_capped(&dir) {
        // The image holds the working copy; its folder was only the mount point.
        assert!(dir.join("work/.images/patient.ext4").is_file());
        assert!(!dir.join("work/patient/games.txt").exists());
    }
    let out = resume(tmp.path(), "2");
    assert_ok(&out);
    let manifest = fs::read_to_string(dir.join("series.toml")).unwrap();
    assert!(manifest.contains("status = \"complete\""), "{manifest}");
    // The games before the kill are counted too: the working copy was kept.
    let counted = fs::read_to_string(dir.join("work/patient/games.txt")).unwrap();
    assert!(counted.lines().count() >= GAMES, "{counted}");
    assert_no_image_left(&dir);
}

#[test]
fn ctrl_c_then_resume_equals_an_uninterrupted_run_and_keeps_working_copies() {
    let reference = reference();
    let tmp = patients();
    let child = start(tmp.path(), "2");
    wait_for_lines(tmp.path(), 3);
    kill(Pid::from_raw(child.id() as i32), Signal::SIGINT).unwrap();
    let out = child.wait_with_output().unwrap();
    assert_eq!(out.status.code(), Some(130), "{}", text(&out.stderr));
    let dir = series_dir(tmp.path());
    let id = dir.file_name().unwrap().to_string_lossy().into_owned();
    assert!(
        text(&out.stderr).contains(&format!("take6 run --resume results/{id}")),
        "{}",
        text(&out.stderr)
    );
    let before = lines(tmp.path());
    assert!(before < GAMES, "interrupted too late to test anything");
    // A stopped series leaves its working copies as folders, as a complete one does.
    assert!(dir.join("work/patient/games.txt").is_file());
    assert_no_image_left(&dir);

    let out = resume(tmp.path(), "1");
    assert_ok(&out);
    assert!(text(&out.stderr).contains(&format!("({before} already recorded)")));
    assert!(text(&out.stdout).contains(&format!("{GAMES} of {GAMES} games played")));
    assert_same_as(tmp.path(), &reference);
    // The working copy was kept: it counted the games of both attempts.
    let counted = fs::read_to_string(dir.join("work/patient/games.txt")).unwrap();
    assert!(counted.lines().count() >= GAMES, "{counted}");
}

#[test]
fn kill_9_at_several_points_then_resume_equals_an_uninterrupted_run() {
    let reference = reference();
    for (at, jobs) in [(0, "1"), (1, "2"), (5, "3")] {
        let tmp = patients();
        let mut child = start(tmp.path(), "2");
        wait_for_lines(tmp.path(), at);
        child.kill().unwrap();
        child.wait().unwrap();
        let out = resume(tmp.path(), jobs);
        assert_ok(&out);
        assert_same_as(tmp.path(), &reference);
    }
}

#[test]
fn a_torn_last_line_is_dropped_and_its_game_played_again() {
    let reference = reference();
    let tmp = patients();
    let child = start(tmp.path(), "2");
    wait_for_lines(tmp.path(), 3);
    kill(Pid::from_raw(child.id() as i32), Signal::SIGINT).unwrap();
    child.wait_with_output().unwrap();
    let jsonl = series_dir(tmp.path()).join("games.jsonl");
    let mut log = fs::read(&jsonl).unwrap();
    let complete = log.iter().filter(|&&b| b == b'\n').count();
    // Half of a line, as a full disk or a power loss leaves it.
    let half = log[..log.len() / 2].to_vec();
    let start = half.iter().rposition(|&b| b == b'\n').unwrap() + 1;
    log.extend_from_slice(&half[start..]);
    fs::write(&jsonl, &log).unwrap();

    let out = command(tmp.path(), &["leaderboard"]).output().unwrap();
    assert_ok(&out);
    assert!(
        text(&out.stdout).contains(&format!("{complete} games;")),
        "{}",
        text(&out.stdout)
    );
    assert!(text(&out.stderr).contains("does not verify"));
    let out = verify(tmp.path());
    assert_eq!(out.status.code(), Some(1));
    assert!(
        text(&out.stdout).contains(&format!("line {}: half-written", complete + 1)),
        "{}",
        text(&out.stdout)
    );

    let out = resume(tmp.path(), "2");
    assert_ok(&out);
    assert!(text(&out.stderr).contains("dropped the half-written last line"));
    assert_same_as(tmp.path(), &reference);
}

#[test]
fn a_write_error_stops_the_series_naming_the_file_and_resume_finishes_it() {
    let reference = reference();
    let tmp = patients();
    // A file size limit of 20 KiB stands in for a full disk: games.jsonl (about 6 KiB a game)
    // hits it after a few games, part-way through a line.
    let mut args = vec!["run"];
    args.extend(run_args("2"));
    let out = Command::new("sh")
        .arg("-c")
        .arg("trap '' XFSZ; ulimit -f 40; exec \"$0\" \"$@\"")
        .arg(assert_cmd::cargo::cargo_bin("take6"))
        .args(&args)
        .current_dir(tmp.path())
        .env_remove("RUST_LOG")
        .output()
        .unwrap();
    assert!(!out.status.success());
    let stderr = text(&out.stderr);
    assert!(
        stderr.contains("cannot write") && stderr.contains("games.jsonl"),
        "{stderr}"
    );
    assert!(stderr.contains("take6 run --resume"), "{stderr}");
    let manifest = fs::read_to_string(series_dir(tmp.path()).join("series.toml")).unwrap();
    assert!(manifest.contains("status = \"failed\""), "{manifest}");
    let kept = played_in(&series_dir(tmp.path())).len();
    assert!(kept > 0 && kept < GAMES, "{kept} games kept");

    let out = resume(tmp.path(), "2");
    assert_ok(&out);
    assert_same_as(tmp.path(), &reference);
}

#[test]
fn resume_is_refused_for_a_changed_bot_or_settings_that_change_the_games() {
    let tmp = patients();
    let out = start(tmp.path(), "2").wait_with_output().unwrap();
    assert_ok(&out);
    let launch = tmp.path().join("bots/steady/launch");
    let original = fs::read_to_string(&launch).unwrap();
    fs::write(&launch, format!("{original}# tuned\n")).unwrap();
    let out = resume(tmp.path(), "2");
    assert!(!out.status.success());
    let stderr = text(&out.stderr);
    assert!(stderr.contains("bot steady changed"), "{stderr}");
    fs::write(&launch, original).unwrap();

    for (flag, value, named) in [
        ("--games", "11", "games is 10 in the series, 11 now"),
        ("--seed", "22", "seed"),
        ("--reply-ms", "5", "reply_ms"),
    ] {
        let out = command(tmp.path(), &["run", "--resume", flag, value])
            .output()
            .unwrap();
        assert!(!out.status.success(), "{flag} accepted");
        let stderr = text(&out.stderr);
        assert!(
            stderr.contains("would change the games") && stderr.contains(named),
            "{stderr}"
        );
    }
    // Harmless flags are fine; a complete series has nothing to resume, which is said, with
    // a non-zero exit (never its leaderboard and 0).
    let out = resume(tmp.path(), "1");
    assert_eq!(out.status.code(), Some(1));
    assert!(
        text(&out.stderr).contains(&format!("is complete ({GAMES} games played)")),
        "{}",
        text(&out.stderr)
    );
}

/// A bot's template set is part of what it was playing: a set in the templates folder edited
/// after the series began refuses the resume, naming the bot, the set and its file; an edit
/// that changes nothing on the wire (a comment) does not.
#[test]
fn resume_is_refused_when_a_bots_template_set_changed() {
    let tmp = patients();
    let templates = tmp.path().join("templates");
    fs::create_dir_all(&templates).unwrap();
    let set = templates.join("mine.toml");
    fs::write(&set, "invalid = \"invalid\"\n").unwrap();
    fs::write(
        tmp.path().join("bots/steady/bot.toml"),
        "template = \"mine\"\n",
    )
    .unwrap();
    let out = start(tmp.path(), "2").wait_with_output().unwrap();
    assert_ok(&out);

    // The same words: accepted, and the series being complete there is nothing to resume.
    fs::write(&set, "# the same words\ninvalid = \"invalid\"\n").unwrap();
    let out = resume(tmp.path(), "1");
    let stderr = text(&out.stderr);
    assert!(stderr.contains("nothing to resume"), "{stderr}");
    assert!(!stderr.contains("changed since"), "{stderr}");

    fs::write(&set, "invalid = \"INVALID\"\n").unwrap();
    let out = resume(tmp.path(), "1");
    assert!(!out.status.success(), "a changed set was accepted");
    let stderr = text(&out.stderr);
    assert!(
        stderr.contains("bot steady")
            && stderr.contains("template set 'mine'")
            && stderr.contains("mine.toml")
            && stderr.contains("changed since the series began"),
        "{stderr}"
    );
}

#[test]
fn verify_names_a_deleted_line_an_edited_score_and_an_illegal_move() {
    let tmp = patients();
    let out = start(tmp.path(), "2").wait_with_output().unwrap();
    assert_ok(&out);
    let dir = series_dir(tmp.path());
    let jsonl = dir.join("games.jsonl");
    let good = fs::read_to_string(&jsonl).unwrap();
    let out = verify(tmp.path());
    assert_ok(&out);
    assert!(
        text(&out.stdout).contains("is seated as the schedule says"),
        "{}",
        text(&out.stdout)
    );
    let first_problem = |out: &Output| {
        assert_eq!(out.status.code(), Some(1), "{}", text(&out.stdout));
        text(&out.stdout)
            .lines()
            .find(|l| l.starts_with("first problem:"))
            .unwrap_or_default()
            .to_string()
    };

    let lines: Vec<&str> = good.lines().collect();
    let deleted: String = lines
        .iter()
        .enumerate()
        .filter(|&(i, _)| i != 2)
        .map(|(_, l)| format!("{l}\n"))
        .collect();
    fs::write(&jsonl, deleted).unwrap();
    let first = first_problem(&verify(tmp.path()));
    assert!(
        first.contains("line 3:") && first.contains("chain"),
        "{first}"
    );

    let edited = good.replacen("\"scores\":[", "\"scores\":[1", 2).replacen(
        "\"scores\":[1",
        "\"scores\":[",
        1,
    );
    assert_ne!(edited, good);
    fs::write(&jsonl, &edited).unwrap();
    let first = first_problem(&verify(tmp.path()));
    assert!(
        first.contains("line 2:") && first.contains("chain"),
        "{first}"
    );
    let out = command(tmp.path(), &["leaderboard"]).output().unwrap();
    assert_ok(&out);
    assert!(
        text(&out.stderr).contains("warning: this series does not verify: games.jsonl line 2"),
        "{}",
        text(&out.stderr)
    );

    fs::write(&jsonl, &good).unwrap();
    let id = dir.file_name().unwrap().to_string_lossy().into_owned();
    forge(&jsonl, &id, 4, |g| {
        // Seat 0 plays in turn 1 the card it was dealt last, then again in turn 10.
        g.rounds[0].turns[0].played[0] = g.rounds[0].hands[0][9];
    });
    let out = verify(tmp.path());
    let first = first_problem(&out);
    assert!(
        first.contains("line 4:") && first.contains("breaks the rules"),
        "{first}"
    );
    assert!(!text(&out.stdout).contains("chain breaks"), "re-chained");

    // Two players swapped in a re-chained record: every move is still legal, but not the
    // seating the series' schedule gives that game.
    fs::write(&jsonl, &good).unwrap();
    forge(&jsonl, &id, 5, |g| {
        let (a, b) = (0, g.players.len() - 1);
        assert_ne!(g.players[a], g.players[b]);
        g.players.swap(a, b);
        g.builtin.swap(a, b);
    });
    let out = verify(tmp.path());
    let first = first_problem(&out);
    assert!(
        first.contains("line 5:") && first.contains("not seated as the series' schedule"),
        "{first}"
    );
    assert!(!text(&out.stdout).contains("chain breaks"), "re-chained");
}

/// A scratch folder with a git repository `koth-bots/` whose tag `v2` holds two patient bots,
/// and a later commit on `main` that changes one of them.
fn git_arena() -> TempDir {
    let tmp = tempfile::tempdir().unwrap();
    let repo = tmp.path().join("koth-bots");
    for name in ["alice", "bob"] {
        let bot = repo.join(name);
        fs::create_dir_all(&bot).unwrap();
        fs::write(bot.join("launch"), patient_launch()).unwrap();
        use std::os::unix::fs::PermissionsExt;
        fs::set_permissions(bot.join("launch"), fs::Permissions::from_mode(0o755)).unwrap();
    }
    git(&repo, &["init", "--quiet", "--initial-branch=main"]);
    git(&repo, &["add", "."]);
    git(&repo, &["commit", "--quiet", "-m", "two bots"]);
    git(&repo, &["tag", "v2"]);
    fs::write(repo.join("bob/notes.txt"), "a later change").unwrap();
    git(&repo, &["add", "."]);
    git(&repo, &["commit", "--quiet", "-m", "bob changed"]);
    tmp
}

/// `take6 run --bots koth-bots@v2` with the series flags, started in `dir`.
fn start_git(dir: &Path, jobs: &str) -> Child {
    let mut args = vec!["run", "--bots", "koth-bots@v2"];
    args.extend(run_args(jobs));
    command(dir, &args).spawn().unwrap()
}

/// Ctrl-C to `child` once the series in `series` holds `n` games; returns its stderr.
fn interrupt_at(series: &Path, child: Child, n: usize) -> String {
    let count = || {
        fs::read(series.join("games.jsonl"))
            .map_or(0, |t| t.iter().filter(|&&b| b == b'\n').count())
    };
    let deadline = Instant::now() + Duration::from_secs(120);
    while !(series.join("series.toml").exists() && count() >= n) {
        assert!(Instant::now() < deadline, "{n} games never finished");
        std::thread::sleep(Duration::from_millis(20));
    }
    kill(Pid::from_raw(child.id() as i32), Signal::SIGINT).unwrap();
    let out = child.wait_with_output().unwrap();
    assert_eq!(out.status.code(), Some(130), "{}", text(&out.stderr));
    assert!(count() < GAMES, "interrupted too late to test anything");
    text(&out.stderr)
}

#[test]
fn a_series_of_bots_from_a_git_tag_resumes_with_the_printed_command_or_with_its_bots_flag() {
    // The same series uninterrupted.
    let whole = git_arena();
    assert_ok(&start_git(whole.path(), "2").wait_with_output().unwrap());
    let reference = played_in(&series_dir(whole.path()));
    assert_eq!(reference.len(), GAMES);

    let tmp = git_arena();
    let child = start_git(tmp.path(), "2");
    wait_for_lines(tmp.path(), 1);
    let dir = series_dir(tmp.path());
    let stderr = interrupt_at(&dir, child, 2);
    let id = dir.file_name().unwrap().to_string_lossy().into_owned();
    let series = format!("results/{id}");
    let printed = format!("take6 run --resume {series}");
    assert!(stderr.contains(&printed), "{stderr}");
    assert!(stderr.contains("koth-bots@v2, commit "), "{stderr}");

    // Another series checks out main (bob changed) in the same cache meanwhile.
    let head = command(tmp.path(), &["run", "--bots", "koth-bots", "--games", "1"])
        .output()
        .unwrap();
    assert_ok(&head);

    // Another revision is refused, naming both.
    let other = command(
        tmp.path(),
        &["run", "--resume", &series, "--bots", "koth-bots@main"],
    )
    .output()
    .unwrap();
    assert_eq!(other.status.code(), Some(1));
    let said = text(&other.stderr);
    assert!(
        said.contains("plays the bots of koth-bots@v2") && said.contains("names koth-bots@main"),
        "{said}"
    );

    // With the series' own --bots repeated: accepted, and stopped again part-way.
    let played = played_in(&dir).len();
    let resume_with_flag = command(
        tmp.path(),
        &[
            "run",
            "--resume",
            &series,
            "--bots",
            "koth-bots@v2",
            "--jobs",
            "1",
        ],
    )
    .spawn()
    .unwrap();
    interrupt_at(&dir, resume_with_flag, played + 1);

    // The exact command take6 printed finishes it.
    let out = command(tmp.path(), &["run", "--resume", &series])
        .output()
        .unwrap();
    assert_ok(&out);
    assert!(
        text(&out.stdout).contains(&format!("{GAMES} of {GAMES} games played")),
        "{}",
        text(&out.stdout)
    );
    assert_eq!(played_in(&dir), reference, "the same games, each once");
    assert_ok(&command(tmp.path(), &["verify", &series]).output().unwrap());

    // A finished series of bots from git has nothing to resume, with or without --bots.
    for extra in [&[][..], &["--bots", "koth-bots@v2"][..]] {
        let mut args = vec!["run", "--resume", &series];
        args.extend(extra);
        let out = command(tmp.path(), &args).output().unwrap();
        assert_eq!(out.status.code(), Some(1));
        assert!(
            text(&out.stderr).contains("nothing to resume"),
            "{}",
            text(&out.stderr)
        );
    }
}

/// A stopped series (Ctrl-C after 2 games) whose folder is then handed over with `link`
/// (`work` or `work/patient`) a symbolic link to a host folder holding a root-only 0600
/// secret (and, for `work`, the bots' copies of that name). Returns the scratch folder, the
/// host folder and its secret.
fn handed_over_with_a_link(link: &str) -> (TempDir, PathBuf, PathBuf) {
    let tmp = patients();
    let child = start(tmp.path(), "2");
    wait_for_lines(tmp.path(), 2);
    kill(Pid::from_raw(child.id() as i32), Signal::SIGINT).unwrap();
    let out = child.wait_with_output().unwrap();
    assert_eq!(out.status.code(), Some(130), "{}", text(&out.stderr));
    assert!(
        lines(tmp.path()) < GAMES,
        "interrupted too late to test anything"
    );
    let dir = series_dir(tmp.path());
    // The host folder takes the place of the linked folder, with the secret among its files.
    let host = tmp.path().join("host");
    fs::rename(dir.join(link), &host).unwrap();
    let secret = match link {
        "work" => host.join("patient/secret"),
        _ => host.join("secret"),
    };
    fs::write(&secret, "host secret\n").unwrap();
    use std::os::unix::fs::PermissionsExt;
    fs::set_permissions(&secret, fs::Permissions::from_mode(0o600)).unwrap();
    std::os::unix::fs::symlink(&host, dir.join(link)).unwrap();
    (tmp, host, secret)
}

/// Every name below `dir` with its owner, mode and content (folders' content empty).
fn snapshot(dir: &Path) -> Vec<(PathBuf, u32, u32, Vec<u8>)> {
    use std::os::unix::fs::MetadataExt;
    let mut out = Vec::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        for entry in fs::read_dir(&d).unwrap() {
            let path = entry.unwrap().path();
            let meta = fs::symlink_metadata(&path).unwrap();
            let content = if meta.is_file() {
                fs::read(&path).unwrap()
            } else {
                Vec::new()
            };
            if meta.is_dir() {
                stack.push(path.clone());
            }
            out.push((path, meta.uid(), meta.mode(), content));
        }
    }
    out.sort();
    out
}

/// `--resume` of the handed-over folder of [`handed_over_with_a_link`]: refused, naming the
/// link and saying that take6 follows none; the host folder as it was (the secret still
/// root's, 0600, its content; nothing written, chowned or removed beside it).
fn assert_resume_refuses_the_link(link: &str) {
    if !sandbox_here() {
        return;
    }
    let (tmp, host, secret) = handed_over_with_a_link(link);
    let before = snapshot(&host);
    let out = resume(tmp.path(), "2");
    let err = text(&out.stderr);
    use std::os::unix::fs::MetadataExt;
    let meta = fs::metadata(&secret).unwrap();
    assert_eq!(
        (meta.uid(), meta.mode() & 0o7777),
        (0, 0o600),
        "{link}: the secret changed hands\n{err}"
    );
    assert_eq!(fs::read_to_string(&secret).unwrap(), "host secret\n");
    assert_eq!(
        snapshot(&host),
        before,
        "{link}: the host folder changed\n{err}"
    );
    assert!(!out.status.success(), "{link} a link: resumed\n{err}");
    assert!(
        err.contains(link) && err.contains("follows no link"),
        "{link}: {err}"
    );
}

/// Whether bubblewrap is here and take6 runs as root (the bots' own users, the chown); says
/// it skipped otherwise.
fn sandbox_here() -> bool {
    let bwrap = Command::new("bwrap")
        .arg("--version")
        .output()
        .is_ok_and(|o| o.status.success());
    if !bwrap || !nix::unistd::geteuid().is_root() {
        common::skipped("needs bubblewrap (apt-get install bubblewrap) and root");
        return false;
    }
    true
}

#[test]
fn resume_of_a_results_folder_whose_work_is_a_link_touches_no_host_file() {
    assert_resume_refuses_the_link("work");
}

#[test]
fn resume_of_a_results_folder_whose_working_copy_is_a_link_touches_no_host_file() {
    assert_resume_refuses_the_link("work/patient");
}
