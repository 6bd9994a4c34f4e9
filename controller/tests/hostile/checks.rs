//! The checks of the hostile-bot tests: snapshots of folders, faults, and what "the attack had
//! no effect" means. Shared by `tests/hostile.rs` and `tests/hostile_limits.rs`; each uses a part.
#![allow(dead_code)]

use std::collections::BTreeMap;
use std::fs;
use std::os::unix::fs::PermissionsExt;
use std::path::{Path, PathBuf};
use std::process::Output;

use sha2::{Digest, Sha256};
use take6::record::GameRecord;

use crate::zoo::{HONEST, Zoo, assert_ok, sandbox_available};

/// Every file under `dir` (relative path → mode and SHA-256), skipping the relative paths in `skip`.
pub fn snapshot(dir: &Path, skip: &[&str]) -> BTreeMap<String, (u32, String)> {
    let mut files = BTreeMap::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        for entry in fs::read_dir(&d).unwrap() {
            let path = entry.unwrap().path();
            let rel = path
                .strip_prefix(dir)
                .unwrap()
                .to_string_lossy()
                .into_owned();
            if skip.contains(&rel.as_str()) {
                continue;
            }
            let meta = fs::symlink_metadata(&path).unwrap();
            if meta.is_dir() {
                stack.push(path);
            } else if meta.is_file() {
                let digest = Sha256::digest(fs::read(&path).unwrap());
                let hex = digest.iter().map(|b| format!("{b:02x}")).collect();
                files.insert(rel, (meta.permissions().mode(), hex));
            } else {
                files.insert(rel, (meta.permissions().mode(), "special".into()));
            }
        }
    }
    files
}

/// The bytes of the files under `dir` (symbolic links not followed).
pub fn folder_bytes(dir: &Path) -> u64 {
    let mut total = 0;
    for entry in fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        let meta = fs::symlink_metadata(&path).unwrap();
        total += if meta.is_dir() {
            folder_bytes(&path)
        } else {
            meta.len()
        };
    }
    total
}

/// The faults of `bot` in `game`, as (kind, reason).
pub fn faults_of(game: &GameRecord, bot: &str) -> Vec<(String, String)> {
    let Some(seat) = game.players.iter().position(|p| p == bot) else {
        return Vec::new();
    };
    game.rounds[0]
        .invalid
        .iter()
        .filter(|f| f.seat == seat)
        .map(|f| (f.kind.clone(), f.reason.clone()))
        .collect()
}

/// The checks of every hostile test after a sandboxed series of `games` games with `attacker`:
/// the series is complete and consistent, the honest bot has no fault and its working copy is its
/// source, the bots folder is unchanged (`bots_before`), the results stay as they were while any
/// leftover process could still act, and no process of the test remains. Returns the games.
pub fn assert_no_effect(
    zoo: &Zoo,
    out: &Output,
    attacker: &str,
    games: usize,
    bots_before: &BTreeMap<String, (u32, String)>,
) -> Vec<GameRecord> {
    assert_ok(out);
    let manifest = zoo.manifest();
    assert_eq!(manifest["status"].as_str(), Some("complete"), "{manifest}");
    let planned = manifest["games_planned"].as_integer();
    assert_eq!(planned, Some(games as i64), "{manifest}");
    assert_eq!(manifest["games_played"].as_integer(), planned, "{manifest}");
    assert_eq!(
        manifest["sandbox"]["mode"].as_str(),
        Some("strict"),
        "{manifest}"
    );
    let missing = manifest["sandbox"]["missing"].as_array().map(Vec::len);
    assert_eq!(missing, Some(0), "{manifest}");
    let names: Vec<&str> = manifest["bots"]
        .as_array()
        .unwrap()
        .iter()
        .filter_map(|b| b["name"].as_str())
        .collect();
    assert!(
        names.contains(&HONEST) && names.contains(&attacker),
        "{manifest}"
    );

    let records = zoo.games();
    let numbers: Vec<u64> = records.iter().map(|g| g.game).collect();
    assert_eq!(
        numbers,
        (0..games as u64).collect::<Vec<_>>(),
        "every game once"
    );
    for g in &records {
        g.check().unwrap_or_else(|e| panic!("game {}: {e}", g.game));
        assert!(g.players.iter().any(|p| p == attacker), "game {}", g.game);
        assert_eq!(
            faults_of(g, HONEST),
            vec![],
            "honest bot in game {}",
            g.game
        );
    }

    assert_eq!(&snapshot(&zoo.bots(), &[]), bots_before, "bots/ changed");
    assert_eq!(
        snapshot(&zoo.work(HONEST), &[]),
        snapshot(&zoo.bots().join(HONEST), &[]),
        "the honest bot's working copy is not its source"
    );
    let work = format!("work/{attacker}");
    let results = snapshot(&zoo.series(), &[&work]);
    zoo.assert_no_process_left();
    assert_eq!(
        snapshot(&zoo.series(), &[&work]),
        results,
        "results changed"
    );
    assert_eq!(zoo.tmp_files(), Vec::<PathBuf>::new(), "files left in /tmp");
    records
}

/// Runs `attacker` and the honest bot under `--sandbox strict` with `args` and checks that the
/// attack had no effect; `None` when the machine has no sandbox (outside CI).
pub fn contained(test: &str, attacker: &str, games: usize, args: &[&str]) -> Option<Zoo> {
    if !sandbox_available(test) {
        return None;
    }
    let zoo = Zoo::new(test, &[attacker]);
    let before = snapshot(&zoo.bots(), &[]);
    let count = games.to_string();
    let out = zoo.run("strict", &[&["--games", count.as_str()], args].concat());
    assert_no_effect(&zoo, &out, attacker, games, &before);
    Some(zoo)
}

/// Asserts that `bot` played every game without a fault.
pub fn assert_clean(zoo: &Zoo, bot: &str) {
    for g in zoo.games() {
        assert_eq!(faults_of(&g, bot), vec![], "{bot} in game {}", g.game);
    }
}

/// Asserts that `bot` faulted with `kind` in some game, with a reason naming `limit`.
pub fn assert_limit_fault(zoo: &Zoo, bot: &str, kind: &str, limit: &str) {
    let faults: Vec<(String, String)> =
        zoo.games().iter().flat_map(|g| faults_of(g, bot)).collect();
    assert!(
        faults.iter().any(|(k, r)| k == kind && r.contains(limit)),
        "{bot}: expected a {kind} fault naming {limit}, got {faults:?}"
    );
}
