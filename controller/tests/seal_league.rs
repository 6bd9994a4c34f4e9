//! A league's private storage: each bot's working copy lives as long as its version
//! in the league (kept across `take6 league` runs) and is wiped for a new version. Attacked as
//! a bot would, inside the sandbox as its own user: `hostile-spy` remembers every deal it is
//! dealt across runs and must never see one again; `hostile-hoarder` leaves links in its kept
//! storage to another bot's storage, a host folder and a host file, and must reach none of them,
//! nor make the controller follow one when it keeps, hands over, copies back or wipes the copy.

#[path = "hostile/checks.rs"]
mod checks;
mod common;
#[path = "hostile/zoo.rs"]
mod zoo;

use std::fs;
use std::os::unix::fs::MetadataExt;
use std::path::{Path, PathBuf};
use std::process::Output;
use std::time::Duration;

use assert_cmd::Command;
use zoo::{Zoo, assert_ok, sandbox_available, text};

const SPY: &str = "hostile-spy";
const HOARDER: &str = "hostile-hoarder";

/// `take6 league` in the zoo with the sandbox `mode`, 8 more games at tables of 3.
fn league(zoo: &Zoo, mode: &str) -> Output {
    Command::cargo_bin("take6")
        .unwrap()
        .current_dir(zoo.dir())
        .args(["league", "--bots", "bots", "--seed", "1234567890123456789"])
        .args(["--players", "3", "--batch", "4", "--games", "8"])
        .args(["--jobs", "2", "--sandbox", mode])
        .args(["--first-reply-ms", "5000", "--reply-ms", "2000"])
        .args(["--grace-ms", "300", "--build-timeout-s", "60"])
        .env_remove("RUST_LOG")
        .timeout(Duration::from_secs(180))
        .output()
        .unwrap()
}

fn work(zoo: &Zoo, bot: &str) -> PathBuf {
    zoo.dir().join("results/league/take6/work").join(bot)
}

fn lines(path: &Path) -> Vec<String> {
    fs::read_to_string(path)
        .unwrap_or_default()
        .lines()
        .map(str::to_string)
        .collect()
}

/// The spy's lines of `learned.txt` that say it recognised a deal.
fn recognised(zoo: &Zoo) -> Vec<String> {
    let learned = lines(&work(zoo, SPY).join("learned.txt"));
    assert!(!learned.iter().any(|l| l.contains("FAIL")), "{learned:?}");
    learned
        .into_iter()
        .filter(|l| l.contains("recognised yes"))
        .collect()
}

/// The host's things the hoarder aims at: a folder with `data` and a file, both root's.
fn bait(zoo: &Zoo) -> (PathBuf, PathBuf) {
    let dir = zoo.dir().join("host-dir");
    fs::create_dir_all(&dir).unwrap();
    fs::write(dir.join("data"), "host folder secret\n").unwrap();
    let file = zoo.dir().join("host-file.txt");
    fs::write(&file, "host file secret\n").unwrap();
    (dir, file)
}

/// The bait is as the test made it: not removed, not written, still root's.
#[track_caller]
fn assert_bait_untouched(dir: &Path, file: &Path) {
    assert_eq!(
        fs::read_to_string(dir.join("data")).unwrap(),
        "host folder secret\n"
    );
    assert_eq!(fs::read_to_string(file).unwrap(), "host file secret\n");
    for p in [dir, &dir.join("data"), file] {
        let meta = fs::symlink_metadata(p).unwrap();
        assert_eq!(
            (meta.uid(), meta.gid()),
            (0, 0),
            "{} changed owner",
            p.display()
        );
    }
}

/// Nothing the hoarder read through its links was anyone's secret.
#[track_caller]
fn assert_nothing_reached(zoo: &Zoo) {
    let tries = lines(&work(zoo, HOARDER).join("tries.txt"));
    assert!(!tries.is_empty(), "the hoarder never tried");
    for t in &tries {
        assert!(t.ends_with(": unreadable"), "the hoarder reached it: {t}");
    }
}

/// The host's bait, and the hoarder aimed at the spy's storage and at the bait.
fn aimed_bait(zoo: &Zoo) -> (PathBuf, PathBuf) {
    let (host_dir, host_file) = bait(zoo);
    let targets = format!(
        "{}\n{}\n{}\n",
        work(zoo, SPY).display(),
        host_dir.display(),
        host_file.display()
    );
    fs::write(zoo.bots().join(HOARDER).join("targets"), targets).unwrap();
    (host_dir, host_file)
}

#[test]
fn a_versions_storage_outlives_runs_reaches_no_one_and_is_wiped_for_a_new_version() {
    if !sandbox_available("league-storage") {
        return;
    }
    let zoo = Zoo::new("league-storage", &[SPY, HOARDER]);
    let (host_dir, host_file) = aimed_bait(&zoo);

    // Run 1: three bots at tables of 3, every bot in each of the 8 games.
    let out = league(&zoo, "strict");
    assert_ok(&out);
    assert_eq!(lines(&work(&zoo, SPY).join("memory.txt")).len(), 8);
    assert_nothing_reached(&zoo);
    assert_bait_untouched(&host_dir, &host_file);

    // Run 2, nothing changed: the storage of every bot is the one it left, links included.
    let out = league(&zoo, "strict");
    assert_ok(&out);
    assert_eq!(
        lines(&work(&zoo, SPY).join("memory.txt")).len(),
        16,
        "the spy's storage did not survive the second run"
    );
    assert_eq!(lines(&work(&zoo, HOARDER).join("games.txt")).len(), 16);
    assert!(
        fs::symlink_metadata(work(&zoo, HOARDER).join("link1"))
            .unwrap()
            .is_symlink()
    );
    // Kept storage does not make a deal seen twice: every game number has its own deal.
    assert_eq!(recognised(&zoo), Vec::<String>::new());
    assert_nothing_reached(&zoo);
    assert_bait_untouched(&host_dir, &host_file);

    // Run 3, the hoarder's folder changed: a new version, whose storage starts empty; the
    // wipe follows none of the links it left (the spy's storage and the bait are intact).
    let launch = zoo.bots().join(HOARDER).join("launch");
    let mut script = fs::read_to_string(&launch).unwrap();
    script.push_str("# version 2\n");
    fs::write(&launch, script).unwrap();
    let out = league(&zoo, "strict");
    assert_ok(&out);
    assert_eq!(lines(&work(&zoo, HOARDER).join("games.txt")).len(), 8);
    assert_eq!(lines(&work(&zoo, SPY).join("memory.txt")).len(), 24);
    assert_eq!(recognised(&zoo), Vec::<String>::new());
    assert_nothing_reached(&zoo);
    assert_bait_untouched(&host_dir, &host_file);
    let manifest = fs::read_to_string(zoo.dir().join("results/league/take6/league.toml")).unwrap();
    assert!(manifest.contains("[[kept]]"), "{manifest}");
    zoo.assert_no_process_left();
}

/// The sibling without the sandbox: the same links reach the other bot's storage and the host's
/// files, so the test above measures the sandbox and the controller, not a broken attacker.
#[test]
fn without_the_sandbox_the_hoarders_links_reach_everything() {
    let zoo = Zoo::new("league-storage-none", &[SPY, HOARDER]);
    aimed_bait(&zoo);
    let out = league(&zoo, "none");
    assert_ok(&out);
    let tries = lines(&work(&zoo, HOARDER).join("tries.txt"));
    for aim in ["link2/data: host folder secret", "link3: host file secret"] {
        assert!(tries.iter().any(|t| t.starts_with(aim)), "{aim}: {tries:?}");
    }
    // The spy's storage, reached once the spy has written it (after its first game).
    assert!(
        tries
            .iter()
            .any(|t| t.starts_with("link1/memory.txt: ") && !t.ends_with("unreadable")),
        "{tries:?}\n{}",
        text(&out.stderr)
    );
}

/// The text of `bottom.txt` 2,500 folders below `root`, opened by descriptors (the path is
/// past the kernel's limit), or why not.
fn bottom(root: &Path) -> Result<String, nix::Error> {
    use nix::fcntl::{OFlag, openat};
    use nix::sys::stat::Mode;
    use std::io::Read as _;
    let flags = OFlag::O_RDONLY | OFlag::O_DIRECTORY | OFlag::O_NOFOLLOW;
    let mut dir = openat(nix::fcntl::AT_FDCWD, root, flags, Mode::empty())?;
    for _ in 0..2500 {
        dir = openat(&dir, std::ffi::OsStr::new("d"), flags, Mode::empty())?;
    }
    let file = openat(&dir, "bottom.txt", OFlag::O_RDONLY, Mode::empty())?;
    let mut text = String::new();
    fs::File::from(file).read_to_string(&mut text).unwrap();
    Ok(text)
}

/// Storage 2,500 folders deep (paths past the kernel's limit) is kept across a league's runs
/// (imaged, handed over, copied back by descriptors) and wiped for a new version.
#[test]
fn storage_2500_folders_deep_is_kept_across_runs_and_wiped_for_a_new_version() {
    if !sandbox_available("league-deep") {
        return;
    }
    let zoo = Zoo::new("league-deep", &["hostile-deep"]);
    let deep = work(&zoo, "hostile-deep");
    assert_ok(&league(&zoo, "strict"));
    assert_eq!(bottom(&deep).unwrap(), "2500 deep\n");
    // Kept: the copy the next run plays from is the one it left (not a fresh copy, where the
    // bot would build the chain again: the marker below would be gone).
    fs::write(deep.join("kept-marker"), "left by the test\n").unwrap();
    assert_ok(&league(&zoo, "strict"));
    assert_eq!(bottom(&deep).unwrap(), "2500 deep\n");
    assert_eq!(
        fs::read_to_string(deep.join("kept-marker")).unwrap(),
        "left by the test\n"
    );
    // A new version: the deep chain is wiped (the bot builds it again in its fresh copy).
    let launch = zoo.bots().join("hostile-deep").join("launch");
    let mut script = fs::read_to_string(&launch).unwrap();
    script.push_str("# version 2\n");
    fs::write(&launch, script).unwrap();
    assert_ok(&league(&zoo, "strict"));
    assert!(!deep.join("kept-marker").exists(), "the old copy was kept");
    assert_eq!(bottom(&deep).unwrap(), "2500 deep\n");
}

/// A league folder handed over with `work` a symbolic link to a host folder, and a `[[kept]]`
/// entry for a bot whose folder is gone since: the host folder holds a folder of that bot's
/// name with a root-only secret. `take6 league` refuses the folder, naming `work` and saying
/// that take6 follows no link; the host folder is as it was (nothing removed, no bot's copy
/// made there, the secret root's, 0600, its content).
#[test]
fn a_league_folder_whose_work_is_a_link_touches_no_host_folder() {
    if !sandbox_available("league-work-link") {
        return;
    }
    use std::os::unix::fs::PermissionsExt;
    const GONE: &str = "row-seven";
    let zoo = Zoo::new("league-work-link", &["first", "lowest", GONE]);
    assert_ok(&league(&zoo, "strict"));
    let folder = zoo.dir().join("results/league/take6");
    let manifest = fs::read_to_string(folder.join("league.toml")).unwrap();
    assert!(
        manifest.contains(&format!("name = \"{GONE}\"")),
        "{manifest}"
    );
    // Withdrawn; the league's `work` replaced by a link to the host's folder.
    fs::remove_dir_all(zoo.bots().join(GONE)).unwrap();
    fs::remove_dir_all(folder.join("work")).unwrap();
    let host = zoo.dir().join("host-work");
    fs::create_dir_all(host.join(GONE)).unwrap();
    let secret = host.join(GONE).join("secret");
    fs::write(&secret, "host secret\n").unwrap();
    fs::set_permissions(&secret, fs::Permissions::from_mode(0o600)).unwrap();
    std::os::unix::fs::symlink(&host, folder.join("work")).unwrap();

    let out = league(&zoo, "strict");
    let err = text(&out.stderr);
    assert!(!out.status.success(), "played through the link:\n{err}");
    assert!(
        err.contains("work") && err.contains("follows no link"),
        "{err}"
    );
    let names = |dir: &Path| {
        let mut names: Vec<String> = fs::read_dir(dir)
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .collect();
        names.sort();
        names
    };
    assert_eq!(names(&host), vec![GONE.to_string()], "a copy made there");
    assert_eq!(names(&host.join(GONE)), vec!["secret".to_string()]);
    assert_eq!(fs::read_to_string(&secret).unwrap(), "host secret\n");
    let meta = fs::metadata(&secret).unwrap();
    assert_eq!((meta.uid(), meta.mode() & 0o7777), (0, 0o600));
    assert_eq!(fs::metadata(&host).unwrap().uid(), 0);
}

/// A league folder handed over with a bot's `logs/<bot>.build.log` a symbolic link to a
/// root-only host file: when the bot's new version is built, its log is made afresh in
/// `logs` (the link replaced, never written through or read); the host file keeps its content,
/// owner and mode.
#[test]
fn a_build_log_link_in_a_league_folder_is_never_written_through() {
    if !sandbox_available("league-build-log-link") {
        return;
    }
    use std::os::unix::fs::PermissionsExt;
    const BUILT: &str = "built";
    let zoo = Zoo::new("league-build-log-link", &["first", "lowest"]);
    let built = zoo.bots().join(BUILT);
    common::copy_dir(&zoo.bots().join("first"), &built);
    fs::write(built.join("build"), "#!/bin/sh\necho built\n").unwrap();
    fs::set_permissions(built.join("build"), fs::Permissions::from_mode(0o755)).unwrap();
    assert_ok(&league(&zoo, "strict"));
    let folder = zoo.dir().join("results/league/take6");
    let log = folder.join(format!("logs/{BUILT}.build.log"));
    assert!(log.is_file(), "no build log");
    let secret = zoo.dir().join("host-secret");
    fs::write(&secret, "host secret\n").unwrap();
    fs::set_permissions(&secret, fs::Permissions::from_mode(0o600)).unwrap();
    fs::remove_file(&log).unwrap();
    std::os::unix::fs::symlink(&secret, &log).unwrap();
    // A new version: built again.
    fs::write(built.join("build"), "#!/bin/sh\necho built again\n").unwrap();

    let out = league(&zoo, "strict");
    assert_eq!(
        fs::read_to_string(&secret).unwrap(),
        "host secret\n",
        "{}",
        text(&out.stderr)
    );
    let meta = fs::metadata(&secret).unwrap();
    assert_eq!((meta.uid(), meta.mode() & 0o7777), (0, 0o600));
    assert_ok(&out);
    assert!(!fs::symlink_metadata(&log).unwrap().is_symlink());
    assert!(fs::read_to_string(&log).unwrap().contains("built again"));
}
