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

use std::io::{BufRead, BufReader, Seek, SeekFrom, Write};
use std::path::{Path, PathBuf};

mod shards;

use crate::record::{Chain, GameRecord, Standing};
use crate::series::dir::{self, GAMES, SeriesDir};
use crate::series::manifest::{Manifest, MergedShard};
use crate::series::reporter::{Event, Reporter, Sink, Start};
use crate::series::sinks::{self, Footer, games::GamesFile};
use crate::series::{SeriesError, Status};
use crate::shard::Shard;
use crate::table::GameOutcome;
use shards::{Part, absent, check, differences, index, list, open, refused};

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

/// Merges the shard folders `shards` into a new series folder under `results`; `partial`
/// allows missing games. The summary goes to `out`. Each shard is verified, a game folder's
/// judge run only as `permit` allows.
pub fn merge(
    shards: &[PathBuf],
    results: &Path,
    partial: bool,
    out: Box<dyn Write + Send>,
    permit: &crate::games::JudgePermit,
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
        check(part, partial, permit)?;
        index(part)?;
    }
    let planned = parts[0].manifest.games_planned;
    let count = parts[0].shard.count;
    let missing: Vec<u64> = (0..planned)
        .filter(|&g| {
            let shard = Shard::of_game(g, count);
            !parts
                .iter()
                .any(|p| p.shard == shard && p.offset(g).is_some())
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

/// Makes the merged series: every game in number order through the series' sinks.
fn write(
    parts: Vec<Part>,
    results: &Path,
    planned: u64,
    missing: Vec<u64>,
    out: Box<dyn Write + Send>,
) -> Result<Merged, SeriesError> {
    let dir = SeriesDir::create(results)?;
    dir.make_latest();
    let manifest = merged_manifest(&parts, &dir, &missing);
    let mut reporter = Reporter::new(&dir.id, merged_sinks(&parts, &dir, manifest, out));
    let start = Start {
        line: String::new(),
        planned,
    };
    reporter.handle(&Event::Started(&start))?;
    replay_in_order(&parts, planned, &mut reporter)?;
    reporter.flush()?;
    reporter.handle(&Event::Checkpoint)?;
    for p in &parts {
        copy_logs(&p.dir.path, &dir.path.join("logs"), p.shard)?;
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

/// The merged series' manifest: the first shard's settings and bots (the shards agree on
/// them), as a new whole series (no shard) that says which shards it was made from and which
/// games are missing.
fn merged_manifest(parts: &[Part], dir: &SeriesDir, missing: &[u64]) -> Manifest {
    let mut manifest = parts[0].manifest.clone();
    manifest.series = dir.id.clone();
    manifest.started = dir::now();
    manifest.finished = None;
    manifest.attempts = 1;
    manifest.status = Status::Running;
    manifest.games_played = 0;
    manifest.chain = Chain::start(&dir.id).head().to_string();
    // Each shard stopped by its own standings; the merged series has no stopping point.
    manifest.separated_after = None;
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
    manifest.missing = missing.to_vec();
    manifest
}

/// A merged series' outputs: its games file, leaderboard and manifest, and the summary on
/// `out` (no report or logs per game: the shards made those).
fn merged_sinks(
    parts: &[Part],
    dir: &SeriesDir,
    manifest: Manifest,
    out: Box<dyn Write + Send>,
) -> Vec<Box<dyn Sink>> {
    let first = &parts[0].manifest;
    let skipped = first
        .skipped
        .iter()
        .map(|s| (s.name.clone(), s.reason.clone()))
        .collect();
    vec![
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
    ]
}

/// Hands every game of the shards to `reporter` in number order, reading each from its
/// shard's file at the offset the shard's index gives.
fn replay_in_order(
    parts: &[Part],
    planned: u64,
    reporter: &mut Reporter,
) -> Result<(), SeriesError> {
    // Each shard's file with the position its reader is at: games finish roughly in order, so
    // the next game of a shard is usually the next line and needs no seek.
    let mut files = Vec::new();
    for p in parts {
        let path = p.dir.file(GAMES);
        files.push(match crate::door::open_path(&path) {
            Ok(f) => Some((BufReader::with_capacity(1 << 16, f), 0u64)),
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
        let Some(offset) = parts[i].offset(g) else {
            continue;
        };
        let path = parts[i].dir.file(GAMES);
        let (reader, at) = files[i].as_mut().expect("a shard with games has its file");
        if *at != offset {
            reader
                .seek(SeekFrom::Start(offset))
                .map_err(dir::read_err(&path))?;
        }
        line.clear();
        let n = reader
            .read_until(b'\n', &mut line)
            .map_err(dir::read_err(&path))?;
        *at = offset + n as u64;
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
    Ok(())
}

/// Copies a shard's logs into `logs/shard-I-of-N/` of the merged series.
/// Through the door: the shard's `logs` is opened from its series folder without following a
/// link (a forged shard's `logs` linked to a root-only folder copies nothing), and only its
/// regular files are copied, each into a file made fresh.
fn copy_logs(shard_dir: &Path, to: &Path, shard: Shard) -> Result<(), SeriesError> {
    let from = shard_dir.join("logs");
    let Ok(logs) = crate::door::Folder::open(shard_dir).and_then(|f| f.folder(Path::new("logs")))
    else {
        return Ok(());
    };
    let to = to.join(format!("shard-{}-of-{}", shard.index, shard.count));
    std::fs::create_dir_all(&to).map_err(dir::write_err(&to))?;
    let into = crate::door::Folder::open(&to).map_err(dir::write_err(&to))?;
    for name in logs.files().map_err(dir::read_err(&from))? {
        let target = to.join(&name);
        let mut input = logs
            .open_read(Path::new(&name))
            .map_err(dir::read_err(&from.join(&name)))?;
        let mut output = into
            .create_new(Path::new(&name), 0o644)
            .map_err(dir::write_err(&target))?;
        std::io::copy(&mut input, &mut output).map_err(dir::write_err(&target))?;
    }
    Ok(())
}
