//! The disk cap against names and time: hard links cannot multiply what a copy back writes to
//! the host (`hostile-amplifier`), names left in kept storage cannot make the next run's image
//! cost their square (`hostile-namer`), and a bot that fills its limit in every run of a league
//! keeps no more than the limit over its version's life (`hostile-filler`). Each bot runs as a
//! bot does, inside the sandbox as its own user, with the disk cap (else the test says it
//! skipped).

mod common;
#[path = "hostile/zoo.rs"]
mod zoo;

use std::collections::{BTreeSet, HashSet};
use std::fs;
use std::os::unix::fs::{MetadataExt, PermissionsExt};
use std::path::{Path, PathBuf};
use std::process::Output;
use std::time::Duration;

use assert_cmd::Command;
use zoo::{Zoo, assert_ok, sandbox_available};

const MIB: u64 = 1 << 20;

/// The disk limit of these tests.
const DISK_MIB: &str = "16";

/// What a bot's own files (`launch` and `play`) take, with room to spare: the cap is counted
/// on top of them.
const OWN: u64 = MIB;

/// Bytes allocated under `dir` on the host's disk, each file counted once whatever its number
/// of names (as `du` counts them).
fn stored(dir: &Path) -> u64 {
    fn add(dir: &Path, seen: &mut HashSet<(u64, u64)>, total: &mut u64) {
        for entry in fs::read_dir(dir).unwrap() {
            let path = entry.unwrap().path();
            let meta = fs::symlink_metadata(&path).unwrap();
            if seen.insert((meta.dev(), meta.ino())) {
                *total += meta.blocks() * 512;
            }
            if meta.is_dir() {
                add(&path, seen, total);
            }
        }
    }
    let mut total = 0;
    add(dir, &mut HashSet::new(), &mut total);
    total
}

/// Whether the series `series` ran with the disk cap (read from its `series.toml`); says it
/// skipped when not.
fn disk_capped(series: &Path, test: &str) -> bool {
    let manifest: toml::Table = fs::read_to_string(series.join("series.toml"))
        .unwrap()
        .parse()
        .unwrap();
    let enforced = manifest["sandbox"]["enforced"].as_array().unwrap();
    let capped = enforced.iter().any(|e| e.as_str() == Some("disk-cap"));
    said_skipped(capped, test)
}

/// Whether the zoo's league ran with the disk cap (its log says each working copy is a disk
/// image); says it skipped when not.
fn league_capped(zoo: &Zoo, test: &str) -> bool {
    let log = controller_logs(&zoo.dir().join("results/league"));
    said_skipped(log.contains("is a disk image of"), test)
}

/// `capped`, saying the test skipped when not (never in CI as root).
fn said_skipped(capped: bool, test: &str) -> bool {
    if std::env::var_os("CI").is_some() && nix::unistd::geteuid().is_root() {
        assert!(capped, "{test}: no disk cap in CI as root");
    }
    if !capped {
        common::skipped(&format!(
            "{test}: no disk cap here (run as root with loop devices)"
        ));
    }
    capped
}

/// `take6 league` in the zoo, 4 more games at tables of 2, one at a time, with the disk limit.
fn league(zoo: &Zoo) -> Output {
    Command::cargo_bin("take6")
        .unwrap()
        .current_dir(zoo.dir())
        .args(["league", "--bots", "bots", "--seed", "1234567890123456789"])
        .args(["--players", "2", "--batch", "4", "--games", "4"])
        .args(["--jobs", "1", "--sandbox", "auto", "--disk-mib", DISK_MIB])
        .args(["--first-reply-ms", "5000", "--reply-ms", "2000"])
        .args(["--grace-ms", "300", "--build-timeout-s", "60"])
        .env_remove("RUST_LOG")
        .timeout(Duration::from_secs(400))
        .output()
        .unwrap()
}

/// A bot's kept storage in the zoo's league.
fn kept(zoo: &Zoo, bot: &str) -> PathBuf {
    zoo.dir().join("results/league/take6/work").join(bot)
}

/// The text of every `controller.log` under `dir`.
fn controller_logs(dir: &Path) -> String {
    let mut text = String::new();
    for entry in fs::read_dir(dir).into_iter().flatten().flatten() {
        let path = entry.path();
        if fs::symlink_metadata(&path).is_ok_and(|m| m.is_dir()) {
            text.push_str(&controller_logs(&path));
        } else if path.file_name().is_some_and(|n| n == "controller.log") {
            text.push_str(&fs::read_to_string(&path).unwrap_or_default());
        }
    }
    text
}

/// The inodes of the names in `dir` whose names start with `prefix`.
fn inodes(dir: &Path, prefix: &str) -> (usize, BTreeSet<u64>) {
    let mut names = 0;
    let mut inodes = BTreeSet::new();
    for entry in fs::read_dir(dir).unwrap() {
        let entry = entry.unwrap();
        if entry.file_name().to_string_lossy().starts_with(prefix) {
            names += 1;
            inodes.insert(entry.metadata().unwrap().ino());
        }
    }
    (names, inodes)
}

/// 300 files of two names and an 8 MiB file of 61 names: the copy back writes each file's data
/// once and links its other names, so the host holds no more than the cap.
#[test]
fn hard_links_come_back_as_links_and_the_host_holds_no_more_than_the_cap() {
    const BOT: &str = "hostile-amplifier";
    if !sandbox_available("amplifier") {
        return;
    }
    let zoo = Zoo::new("amplifier", &[BOT]);
    let out = zoo.run("auto", &["--games", "1", "--disk-mib", DISK_MIB]);
    assert_ok(&out);
    if !disk_capped(&zoo.series(), "amplifier") {
        return;
    }
    let work = zoo.work(BOT);
    assert_eq!(zoo.work_file(BOT, "made.txt"), "done\n", "the attack ran");
    let held = stored(&work);
    assert!(
        held <= 16 * MIB + OWN,
        "{held} bytes on the host from a {DISK_MIB} MiB cap"
    );
    // Every name is there, each file's names one file.
    let big = fs::metadata(work.join("big")).unwrap();
    assert_eq!(big.len(), 8 * MIB);
    assert_eq!(big.nlink(), 61);
    for i in 1..=60 {
        let other = fs::metadata(work.join(format!("big.{i}"))).unwrap();
        assert_eq!(other.ino(), big.ino(), "big.{i}");
    }
    for i in 0..300 {
        let (a, b) = (work.join(format!("a/{i}")), work.join(format!("b/{i}")));
        let (a, b) = (fs::metadata(a).unwrap(), fs::metadata(b).unwrap());
        assert_eq!((a.ino(), a.nlink()), (b.ino(), 2), "a/{i} and b/{i}");
    }
}

/// 40,005 names of 5 files in one folder of kept storage: the next run makes the image by
/// descriptors through a mount (linear: the kernel's indexed folders), not by `mkfs.ext4 -d`
/// (quadratic in a folder's names), and the names come back as the same 5 files.
#[test]
fn names_left_in_kept_storage_do_not_make_the_next_image_quadratic() {
    const BOT: &str = "hostile-namer";
    if !sandbox_available("namer") {
        return;
    }
    let zoo = Zoo::new("namer", &[BOT]);
    assert_ok(&league(&zoo));
    let league_dir = zoo.dir().join("results/league");
    if !league_capped(&zoo, "namer") {
        return;
    }
    let names = kept(&zoo, BOT).join("names");
    assert_eq!(inodes(&names, "n").0, 40_000, "the attack ran");
    assert_ok(&league(&zoo));
    let logs = controller_logs(&league_dir);
    let line = logs
        .lines()
        .find(|l| l.contains(BOT) && l.contains("filling the image by descriptors"))
        .unwrap_or_else(|| panic!("the image was made by mkfs.ext4 -d:\n{logs}"));
    assert!(line.contains("a folder of 40006 names"), "{line}");
    let (count, files) = inodes(&names, "");
    assert_eq!((count, files.len()), (40_006, 6), "names and files kept");
}

/// A bot writing 12 MiB in each run of a league, with a limit of 16 MiB: its kept storage never
/// holds more than the limit, whatever the number of runs.
#[test]
fn kept_storage_stays_within_the_cap_over_three_league_runs() {
    const BOT: &str = "hostile-filler";
    if !sandbox_available("filler") {
        return;
    }
    let zoo = Zoo::new("filler", &[BOT]);
    for run in 1..=3 {
        let out = league(&zoo);
        assert_ok(&out);
        if run == 1 && !league_capped(&zoo, "filler") {
            return;
        }
        let storage = kept(&zoo, BOT);
        let fills = fs::read_to_string(storage.join("fills.txt")).unwrap_or_default();
        assert!(fills.starts_with("fill-1 0\n"), "run {run}: {fills}");
        let held = stored(&storage);
        assert!(
            held <= 16 * MIB + OWN,
            "run {run}: {held} bytes kept with a {DISK_MIB} MiB limit; fills:\n{fills}"
        );
    }
}

/// Bytes allocated on the host by the images in `images` (`work/.images`), and how many of
/// them are allocated whole (at least 90 % of their size): the images of bots that may play.
fn images_allocated(images: &Path) -> (u64, usize, u64) {
    let (mut total, mut whole, mut size) = (0, 0, 0);
    for entry in fs::read_dir(images).into_iter().flatten().flatten() {
        let Ok(meta) = entry.metadata() else { continue };
        if !entry.file_name().to_string_lossy().ends_with(".ext4") {
            continue;
        }
        let held = meta.blocks() * 512;
        total += held;
        size = size.max(meta.len());
        if meta.len() > 0 && held * 10 >= meta.len() * 9 {
            whole += 1;
        }
    }
    (total, whole, size)
}

/// Ten copies of the strict `patient` bot (which counts its games in its working copy, its
/// private storage) at tables of two, one table at a time: while the games are played, at most
/// the images of the two seated bots, the two idle ones the series keeps and the two it may be
/// parking are allocated whole on the host, never the ten; the others hold only what their bot
/// stored. Each bot's count of games survives every park: it equals the games it played.
#[test]
fn only_the_bots_at_the_tables_have_whole_images_and_their_storage_survives_parking() {
    if !sandbox_available("parking") {
        return;
    }
    let tmp = tempfile::tempdir().unwrap();
    for i in 0..10 {
        let bot = tmp.path().join(format!("bots/p{i}"));
        fs::create_dir_all(&bot).unwrap();
        fs::write(bot.join("launch"), common::patient_launch()).unwrap();
        fs::set_permissions(bot.join("launch"), fs::Permissions::from_mode(0o755)).unwrap();
    }
    let stderr = fs::File::create(tmp.path().join("stderr")).unwrap();
    let mut child = std::process::Command::new(assert_cmd::cargo::cargo_bin("take6"))
        .current_dir(tmp.path())
        .args([
            "run",
            "--bots",
            "bots",
            "--results",
            "results",
            "--games",
            "24",
        ])
        .args([
            "--players",
            "2",
            "--jobs",
            "1",
            "--seed",
            "7",
            "--sandbox",
            "auto",
        ])
        .args([
            "--disk-mib",
            DISK_MIB,
            "--first-reply-ms",
            "5000",
            "--reply-ms",
            "2000",
        ])
        .env_remove("RUST_LOG")
        .stdout(std::process::Stdio::null())
        .stderr(stderr)
        .spawn()
        .unwrap();
    // The most images allocated whole at once while games were played, sampled.
    let (mut most, mut samples, mut size) = (0, 0, 0);
    let until = std::time::Instant::now() + Duration::from_secs(400);
    while child.try_wait().unwrap().is_none() {
        assert!(std::time::Instant::now() < until, "the series hangs");
        for series in fs::read_dir(tmp.path().join("results"))
            .into_iter()
            .flatten()
        {
            let series = series.unwrap().path();
            let playing = fs::metadata(series.join("games.jsonl")).is_ok_and(|m| m.len() > 0);
            let (_, whole, len) = images_allocated(&series.join("work/.images"));
            if playing && len > 0 {
                (most, samples, size) = (most.max(whole), samples + 1, len);
            }
        }
        std::thread::sleep(Duration::from_millis(2));
    }
    let log = fs::read_to_string(tmp.path().join("stderr")).unwrap();
    assert!(child.wait().unwrap().success(), "{log}");
    let series = fs::canonicalize(tmp.path().join("results/latest")).unwrap();
    if !disk_capped(&series, "parking") {
        return;
    }
    assert!(
        samples > 0 && size > 0,
        "the images were seen while games were played"
    );
    assert!(
        most <= 6,
        "{most} of ten images of {size} bytes allocated whole at once"
    );
    let logs = controller_logs(&series);
    assert!(logs.contains("parked"), "images were parked:\n{logs}");
    // Every game counted in each bot's storage, across parks; the images are gone.
    let file = fs::File::open(series.join("games.jsonl")).unwrap();
    let games = take6::record::read_games_jsonl(std::io::BufReader::new(file)).unwrap();
    assert_eq!(games.len(), 24);
    for i in 0..10 {
        let bot = format!("p{i}");
        let played = games.iter().filter(|g| g.players.contains(&bot)).count();
        let counted = fs::read_to_string(series.join("work").join(&bot).join("games.txt"))
            .unwrap_or_default()
            .lines()
            .count();
        assert_eq!(counted, played, "{bot}'s storage counted its games");
    }
    assert!(!series.join("work/.images").exists(), "no image is left");
}
