//! `take6 merge`: the shards of one series (`take6 run --shard I/N` folders) joined into a new
//! series folder equal to a one-machine run with the same seed and settings.
//!
//! The shards are checked before anything is written: each is a series folder nobody is
//! playing, of the same series as the first (seed, settings that change games, bot content
//! hashes, controller version, number of shards), no shard twice, each verifying (chain and
//! rules checker), and no game missing unless `--partial`. The games are then fed, in game
//! number order, through the same reporter and sinks a series plays into, so `games.jsonl`
//! (with its chain recomputed from the new series id), `leaderboard.csv`, the summary and
//! `series.toml` are made exactly as a series makes them.

use std::fs::File;
use std::io::{BufRead, BufReader, Read, Seek, SeekFrom, Write};
use std::path::{Path, PathBuf};

use super::dir::{self, GAMES, SeriesDir};
use super::manifest::{Manifest, MergedShard};
use super::reporter::{Event, Reporter, Sink, Start};
use super::sinks::{self, Footer, games::GamesFile};
use super::{SeriesError, Status};
use crate::record::{Chain, GameRecord, Standing};
use crate::shard::Shard;
use crate::table::GameOutcome;

/// Settings that may differ between shards: they do not change any game (`bots` is a path;
/// the bots themselves are compared by content hash).
const MAY_DIFFER: [&str; 7] = [
    "jobs",
    "build_timeout_s",
    "results",
    "config",
    "seed_given",
    "shard",
    "bots",
];

/// Missing game numbers listed in a message; more are counted.
const LIST: usize = 12;

/// What a merge made.
#[derive(Debug)]
pub struct Merged {
    pub dir: SeriesDir,
    pub planned: u64,
    pub games: u64,
    /// Game numbers no shard held (only with `partial`).
    pub missing: Vec<u64>,
    pub standings: Vec<Standing>,
}

/// One shard folder, checked and indexed.
struct Part {
    dir: SeriesDir,
    manifest: Manifest,
    shard: Shard,
    /// Held while merging, so no take6 adds games to it meanwhile.
    _lock: File,
    /// Byte offset and length of game `shard.index + k * shard.count`'s line, by `k`.
    lines: Vec<Option<(u64, usize)>>,
    /// Complete lines of `games.jsonl` and the chain head after them.
    count: u64,
    chain: String,
}

/// Merges the shard folders `shards` into a new series folder under `results`; `partial`
/// allows missing games. The summary goes to `out`.
pub fn merge(
    shards: &[PathBuf],
    results: &Path,
    partial: bool,
    out: Box<dyn Write + Send>,
) -> Result<Merged, SeriesError> {
    let mut parts: Vec<Part> = Vec::new();
    for path in shards {
        let real = std::fs::canonicalize(path).map_err(dir::read_err(path))?;
        if parts.iter().any(|p| p.dir.path == real) {
            return Err(refused(format!(
                "{} is given twice: its games would be merged twice; give each shard once",
                real.display()
            )));
        }
        parts.push(open(path)?);
    }
    let first = &parts[0];
    for other in &parts[1..] {
        let diffs = differences(&first.manifest, &other.manifest);
        if !diffs.is_empty() {
            return Err(refused(format!(
                "{} is not a shard of the same series as {}: {}; every shard needs the same \
                 seed, settings, bots and take6 version",
                other.dir.path.display(),
                first.dir.path.display(),
                diffs.join("; ")
            )));
        }
    }
    for (i, a) in parts.iter().enumerate() {
        if let Some(b) = parts[i + 1..].iter().find(|b| b.shard == a.shard) {
            return Err(refused(format!(
                "shard {} is given twice, {} and {}: their games overlap; give each shard once",
                a.shard,
                a.dir.path.display(),
                b.dir.path.display()
            )));
        }
    }
    for part in &mut parts {
        check(part, partial)?;
        index(part)?;
    }
    let planned = parts[0].manifest.games_planned;
    let count = parts[0].shard.count;
    let missing: Vec<u64> = (0..planned)
        .filter(|&g| {
            let shard = Shard::of_game(g, count);
            !parts
                .iter()
                .any(|p| p.shard == shard && p.lines[(g / count) as usize].is_some())
        })
        .collect();
    if !missing.is_empty() && !partial {
        return Err(refused(format!(
            "{} of the series' {planned} games are missing ({}){}; play them (resume an \
             unfinished shard with take6 run --resume SHARD_DIR) or merge with --partial",
            missing.len(),
            list(&missing),
            absent(&parts)
        )));
    }
    write(parts, results, planned, missing, out)
}

fn refused(why: String) -> SeriesError {
    SeriesError::MergeRefused(why)
}

/// Opens, locks and reads one shard folder.
fn open(path: &Path) -> Result<Part, SeriesError> {
    let dir = SeriesDir::open(path)?;
    let lock = dir.lock()?;
    let manifest = Manifest::read(&dir.path)?;
    let why = match manifest.status {
        Status::NoUsableBot => Some("it had no usable bot and played no game"),
        _ if manifest.human().is_some() => Some("it is a game at the keyboard (take6 play)"),
        _ => None,
    };
    if let Some(why) = why {
        return Err(refused(format!("{}: {why}", dir.path.display())));
    }
    let shard = manifest.shard().ok_or_else(|| {
        refused(format!(
            "{}: its series.toml records a shard that is not I/N",
            dir.path.display()
        ))
    })?;
    Ok(Part {
        dir,
        manifest,
        shard,
        _lock: lock,
        lines: Vec::new(),
        count: 0,
        chain: String::new(),
    })
}

/// What makes `b` another series than `a`, in words.
fn differences(a: &Manifest, b: &Manifest) -> Vec<String> {
    let mut out = Vec::new();
    let mut differ = |what: &str, x: String, y: String| {
        if x != y {
            out.push(format!("{what} {x} here, {y} there"));
        }
    };
    differ(
        "take6 version",
        a.controller_version.clone(),
        b.controller_version.clone(),
    );
    differ("seed", a.seed.to_string(), b.seed.to_string());
    differ(
        "games",
        a.games_planned.to_string(),
        b.games_planned.to_string(),
    );
    let shards = |m: &Manifest| m.shard().map_or(0, |s| s.count);
    differ(
        "number of shards",
        shards(a).to_string(),
        shards(b).to_string(),
    );
    let mut keys: Vec<&String> = a.settings.keys().chain(b.settings.keys()).collect();
    keys.sort();
    keys.dedup();
    for k in keys
        .into_iter()
        .filter(|k| !MAY_DIFFER.contains(&k.as_str()))
    {
        let show = |m: &Manifest| m.settings.get(k).map_or("(none)".into(), |v| v.to_string());
        differ(k, show(a), show(b));
    }
    let names = |m: &Manifest| m.bots.iter().map(|b| b.name.clone()).collect::<Vec<_>>();
    differ("bots", names(a).join(","), names(b).join(","));
    for x in &a.bots {
        let Some(y) = b.bots.iter().find(|y| y.name == x.name) else {
            continue;
        };
        if x.hash != y.hash {
            out.push(format!(
                "bot {} has other content (hash {} here, {} there)",
                x.name,
                &x.hash[..x.hash.len().min(12)],
                &y.hash[..y.hash.len().min(12)]
            ));
        }
        let t = |m: &super::manifest::ManifestBot| format!("{:?}", Manifest::template_of(m));
        if t(x) != t(y) {
            out.push(format!(
                "bot {} speaks template {} here, {} there",
                x.name,
                t(x),
                t(y)
            ));
        }
    }
    out
}

/// Refuses a shard that does not verify; a torn last line only with `partial`.
fn check(part: &Part, partial: bool) -> Result<(), SeriesError> {
    let v = super::verify(&part.dir.path)?;
    let path = part.dir.path.display();
    if let Some(p) = v.problems.iter().find(|p| !p.torn) {
        return Err(refused(format!(
            "shard {} ({path}) does not verify: {p} (see take6 verify {path})",
            part.shard
        )));
    }
    if let Some(p) = v.problems.first().filter(|_| !partial) {
        return Err(refused(format!(
            "shard {} ({path}): {p}; resume it first (take6 run --resume {path}) or merge \
             with --partial",
            part.shard
        )));
    }
    Ok(())
}

/// Finds where each game's line is in the shard's `games.jsonl` (complete lines only).
fn index(part: &mut Part) -> Result<(), SeriesError> {
    let path = part.dir.file(GAMES);
    let games = part.shard.games_of(part.manifest.games_planned) as usize;
    part.lines = vec![None; games];
    let mut reader = match File::open(&path) {
        Ok(f) => BufReader::with_capacity(1 << 16, f),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(()),
        Err(e) => return Err(dir::read_err(&path)(e)),
    };
    let mut chain = Chain::start(&part.dir.id);
    let (mut offset, mut line) = (0u64, Vec::new());
    loop {
        line.clear();
        let n = reader
            .read_until(b'\n', &mut line)
            .map_err(dir::read_err(&path))?;
        if n == 0 || line.last() != Some(&b'\n') {
            break;
        }
        let bad = |e: serde_json::Error| SeriesError::Games {
            path: path.clone(),
            reason: format!("line {}: {e}", part.count + 1),
        };
        let record: GameRecord = serde_json::from_slice(&line).map_err(bad)?;
        // Verified: every game is the shard's and within the series.
        let slot = (part.shard.holds(record.game))
            .then(|| {
                part.lines
                    .get_mut((record.game / part.shard.count) as usize)
            })
            .flatten()
            .ok_or_else(|| SeriesError::Games {
                path: path.clone(),
                reason: format!("game {} is not shard {}'s", record.game, part.shard),
            })?;
        *slot = Some((offset, n));
        chain.append_line(&record, &mut Vec::new());
        part.count += 1;
        offset += n as u64;
    }
    part.chain = chain.head().to_string();
    Ok(())
}

/// "3, 7, 11 and 5 more", or "game 3".
fn list(games: &[u64]) -> String {
    let shown: Vec<String> = games.iter().take(LIST).map(u64::to_string).collect();
    let more = games.len().saturating_sub(LIST);
    let games = if games.len() == 1 { "game" } else { "games" };
    match more {
        0 => format!("{games} {}", shown.join(", ")),
        n => format!("{games} {} and {n} more", shown.join(", ")),
    }
}

/// Which shards were not given or are not finished, e.g. "; shard 2/3 was not given".
fn absent(parts: &[Part]) -> String {
    let count = parts[0].shard.count;
    let mut out = String::new();
    for index in 0..count {
        let shard = Shard { index, count };
        match parts.iter().find(|p| p.shard == shard) {
            None => out.push_str(&format!("; shard {shard} was not given")),
            Some(p) if p.count < shard.games_of(p.manifest.games_planned) => {
                out.push_str(&format!(
                    "; shard {shard} ({}) holds {} of its {} games (status {:?})",
                    p.dir.path.display(),
                    p.count,
                    shard.games_of(p.manifest.games_planned),
                    p.manifest.status
                ));
            }
            Some(_) => {}
        }
    }
    out
}

/// Makes the merged series: every game in number order through the series' sinks.
fn write(
    parts: Vec<Part>,
    results: &Path,
    planned: u64,
    missing: Vec<u64>,
    out: Box<dyn Write + Send>,
) -> Result<Merged, SeriesError> {
    let dir = SeriesDir::create(results)?;
    let first = &parts[0].manifest;
    let mut manifest = first.clone();
    manifest.series = dir.id.clone();
    manifest.started = dir::now();
    manifest.finished = None;
    manifest.attempts = 1;
    manifest.status = Status::Running;
    manifest.games_played = 0;
    manifest.chain = Chain::start(&dir.id).head().to_string();
    manifest.settings.remove("shard");
    manifest.merged_from = parts
        .iter()
        .map(|p| MergedShard {
            shard: p.shard.to_string(),
            path: p.dir.path.clone(),
            series: p.dir.id.clone(),
            games: p.count,
            chain: p.chain.clone(),
        })
        .collect();
    manifest.missing = missing.clone();
    let skipped = first
        .skipped
        .iter()
        .map(|s| (s.name.clone(), s.reason.clone()))
        .collect();
    let sinks: Vec<Box<dyn Sink>> = vec![
        Box::new(GamesFile::new(dir.file(GAMES))),
        Box::new(sinks::Leaderboard::new(dir.path.clone())),
        Box::new(sinks::ManifestFile::new(dir.path.clone(), manifest)),
        Box::new(sinks::Summary::new(
            out,
            skipped,
            Footer::Series {
                seed: first.seed,
                dir: dir.path.clone(),
            },
        )),
    ];
    let mut reporter = Reporter::new(&dir.id, sinks);
    let start = Start {
        line: String::new(),
        planned,
    };
    reporter.handle(&Event::Started(&start))?;
    let mut files = Vec::new();
    for p in &parts {
        let path = p.dir.file(GAMES);
        files.push(match File::open(&path) {
            Ok(f) => Some(f),
            Err(_) if p.count == 0 => None,
            Err(e) => return Err(dir::read_err(&path)(e)),
        });
    }
    let count = parts[0].shard.count;
    let mut line = Vec::new();
    for g in 0..planned {
        let shard = Shard::of_game(g, count);
        let Some(i) = parts.iter().position(|p| p.shard == shard) else {
            continue;
        };
        let Some((offset, len)) = parts[i].lines[(g / count) as usize] else {
            continue;
        };
        let path = parts[i].dir.file(GAMES);
        let file = files[i].as_mut().expect("a shard with games has its file");
        line.resize(len, 0);
        file.seek(SeekFrom::Start(offset))
            .and_then(|_| file.read_exact(&mut line))
            .map_err(dir::read_err(&path))?;
        let record: GameRecord = serde_json::from_slice(&line).map_err(|e| SeriesError::Games {
            path: path.clone(),
            reason: format!("game {g}: {e}"),
        })?;
        let outcome = GameOutcome {
            record,
            logs: Vec::new(),
        };
        reporter.played(&outcome)?;
        if reporter.state().lines.is_multiple_of(1024) {
            reporter.flush()?;
        }
    }
    reporter.flush()?;
    reporter.handle(&Event::Checkpoint)?;
    for p in &parts {
        copy_logs(&p.dir.path.join("logs"), &dir.path.join("logs"), p.shard)?;
    }
    let status = if missing.is_empty() {
        Status::Complete
    } else {
        Status::Interrupted
    };
    reporter.handle(&Event::Finished(status))?;
    let state = reporter.state();
    Ok(Merged {
        dir,
        planned,
        games: state.lines,
        missing,
        standings: state.tally.standings(),
    })
}

/// Copies a shard's logs into `logs/shard-I-of-N/` of the merged series.
fn copy_logs(from: &Path, to: &Path, shard: Shard) -> Result<(), SeriesError> {
    let Ok(entries) = std::fs::read_dir(from) else {
        return Ok(());
    };
    let to = to.join(format!("shard-{}-of-{}", shard.index, shard.count));
    std::fs::create_dir_all(&to).map_err(dir::write_err(&to))?;
    for entry in entries.flatten() {
        if entry.file_type().is_ok_and(|t| t.is_file()) {
            let target = to.join(entry.file_name());
            std::fs::copy(entry.path(), &target).map_err(dir::write_err(&target))?;
        }
    }
    Ok(())
}
