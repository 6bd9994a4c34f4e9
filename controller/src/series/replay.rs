//! The replays of a finished or stopped series: `take6 leaderboard` and `take6 verify` read
//! `games.jsonl` back through the reporter into sinks, the same path games take when played.

use std::io::Write;
use std::path::Path;

use super::dir::{self, GAMES, LEADERBOARD, SeriesDir};
use super::manifest::Manifest;
use super::reporter::{Event, Reporter, Sink};
use super::sinks::{self, Footer};
use super::verify::{self, Verification};
use super::{SeriesError, Status};
use crate::games::JudgePermit;
use crate::record::GameRecord;

/// Replays a series' `games.jsonl` into a fresh verification: see [`verify`].
fn replay_verified(
    dir: &SeriesDir,
    mut extra: Vec<Box<dyn Sink>>,
    permit: &JudgePermit,
) -> Result<Verification, SeriesError> {
    let manifest = Manifest::read(&dir.path);
    let unreadable = match &manifest {
        Err(SeriesError::Read { error, .. }) if error.kind() == std::io::ErrorKind::NotFound => {
            None
        }
        Err(e) => Some(e.to_string()),
        Ok(_) => None,
    };
    let rule = manifest.as_ref().ok().and_then(until_separated);
    let (verify, report) = verify::Verify::new(&dir.id, manifest.ok(), permit.clone());
    if let Some(why) = unreadable {
        // Said as it is (a FIFO, a link, not TOML): not merely "no series.toml".
        report.lock().expect("not poisoned").push(None, why);
    }
    extra.insert(0, Box::new(verify));
    let mut reporter = Reporter::new(&dir.id, extra).until_separated(rule, &Default::default());
    let games = dir.file(GAMES);
    let torn = match reporter.replay(&games, &dir.id) {
        Ok(torn) => torn,
        Err(e @ SeriesError::Games { .. }) => {
            let mut v = report.lock().expect("not poisoned").clone();
            v.push_unreadable(e.to_string());
            return Ok(v);
        }
        Err(e) => return Err(e),
    };
    reporter.handle(&Event::Finished(Status::Complete))?;
    let mut v = report.lock().expect("not poisoned").clone();
    if let Some(torn) = torn {
        v.torn(torn);
    }
    Ok(v)
}

/// The `--top` a series stopped at under `--until-separated`, as its settings recorded it (a
/// merged series has none: each shard stopped by its own standings).
fn until_separated(manifest: &Manifest) -> Option<usize> {
    let on = manifest.settings.get("until_separated")?.as_bool()?;
    let top = manifest.settings.get("top")?.as_u64()?;
    (on && manifest.merged_from.is_empty()).then_some(top as usize)
}

/// `take6 verify`: replays every game of the series in `dir` through the independent rules
/// checker, checks the chain, seeds, deals and the counts in `series.toml`; a game folder's
/// judge runs only as `permit` allows.
pub fn verify(dir: &Path, permit: &JudgePermit) -> Result<Verification, SeriesError> {
    let dir = SeriesDir::open(dir)?;
    if !dir.file(GAMES).exists() {
        return Err(SeriesError::Read {
            path: dir.file(GAMES),
            error: std::io::ErrorKind::NotFound.into(),
        });
    }
    replay_verified(&dir, Vec::new(), permit)
}

/// `take6 leaderboard`: recomputes the standings of a series folder from its `games.jsonl`
/// (for a series that was killed, or to check one), rewrites `leaderboard.csv` and writes the
/// summary to `out`. A torn last line is left out. Returns the verification, which the caller
/// warns about when it fails; a line that is not a record is an error.
pub fn rebuild_leaderboard(
    dir: &Path,
    out: Box<dyn Write + Send>,
    permit: &JudgePermit,
) -> Result<Verification, SeriesError> {
    let dir = SeriesDir::open(dir)?;
    let games = dir.file(GAMES);
    // Read once for the error a damaged line deserves.
    crate::door::open_path(&games).map_err(dir::read_err(&games))?;
    let skipped = Manifest::read(&dir.path)
        .map(|m| m.skipped.into_iter().map(|s| (s.name, s.reason)).collect())
        .unwrap_or_default();
    let csv = dir.file(LEADERBOARD);
    let sinks: Vec<Box<dyn Sink>> = vec![
        Box::new(sinks::Leaderboard::new(dir.path.clone())),
        Box::new(sinks::report::Report::new(dir.path.clone())),
        Box::new(sinks::Summary::new(out, skipped, Footer::Rebuilt { csv })),
    ];
    let v = replay_verified(&dir, sinks, permit)?;
    if let Some(p) = v.problems.iter().find(|p| p.unreadable) {
        return Err(SeriesError::Games {
            path: games,
            reason: p.what.clone(),
        });
    }
    Ok(v)
}

/// `take6 replay`: one game of a series folder.
pub fn find_game(dir: &Path, game: u64) -> Result<GameRecord, SeriesError> {
    // A game loaded from a folder is known by name once its series' settings have loaded it.
    if let Ok(manifest) = Manifest::read(dir) {
        // Loaded, never run: replay checks nothing.
        let _ = manifest.game(&JudgePermit::none());
    }
    let path = dir.join(GAMES);
    let file = crate::door::open_path(&path).map_err(dir::read_err(&path))?;
    let games = crate::record::read_games_jsonl(std::io::BufReader::new(file)).map_err(|e| {
        SeriesError::Games {
            path: path.clone(),
            reason: e.to_string(),
        }
    })?;
    let count = games.len();
    games
        .into_iter()
        .find(|g| g.game == game)
        .ok_or_else(|| SeriesError::Games {
            path,
            reason: format!(
                "no game {game} ({} recorded, numbered from 0; see report.html)",
                crate::names::count(count as u64, "game")
            ),
        })
}
