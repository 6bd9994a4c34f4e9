//! `take6 verify` of a compare folder: the chain and every game's rules and seed as for a
//! series (the same verification sink), then every game against its pair (the deal's seed,
//! NEW and OLD swapped, everyone else in place), and the
//! test's verdict re-derived from the records.

use std::path::Path;
use std::sync::{Arc, Mutex};

use super::manifest::{COMPARE, CompareManifest, Test};
use crate::record::GameRecord;
use crate::series::dir::GAMES;
use crate::series::reporter::{Event, Reporter, Sink};
use crate::series::verify::{Lines, Verification, Verify};
use crate::series::{SeriesError, Status};

/// Whether `dir` is a compare's folder.
pub fn is_compare(dir: &Path) -> bool {
    crate::door::Folder::open(dir)
        .and_then(|f| f.kind_of(Path::new(COMPARE)))
        .is_ok_and(|k| k == Some("a regular file"))
}

/// Verifies the compare in `dir`, a game folder's judge run only as `permit` allows.
pub fn verify(dir: &Path, permit: &crate::games::JudgePermit) -> Result<Verification, SeriesError> {
    let manifest =
        CompareManifest::read(dir)?.ok_or_else(|| SeriesError::NotASeries(dir.into()))?;
    let game = crate::games::recorded(&manifest.game, manifest.game_hash.as_deref(), permit)
        .map_err(|why| SeriesError::RecordedGame {
            what: "compare",
            why,
        })?;
    let rules = manifest.rules(&game);
    let (sink, report) = Verify::new(&manifest.compare, None, permit.clone());
    let lines = Arc::new(Mutex::new(Vec::new()));
    let sinks: Vec<Box<dyn Sink>> = vec![Box::new(sink), Box::new(Lines(Arc::clone(&lines)))];
    let mut reporter = Reporter::new(&manifest.compare, sinks);
    let torn = reporter.replay(&dir.join(GAMES), &manifest.compare)?;
    reporter.handle(&Event::Finished(Status::Complete))?;
    let mut v = report.lock().expect("not poisoned").clone();
    v.problems.retain(|p| !p.what.starts_with("no series.toml"));
    if let Some(torn) = torn {
        v.torn(torn);
    }
    let mut lines = std::mem::take(&mut *lines.lock().expect("not poisoned"));
    lines.sort_by_key(|(_, r)| r.game);
    pairs(&rules, &manifest, &lines, &mut v);
    let records: Vec<GameRecord> = lines.into_iter().map(|(_, r)| r).collect();
    let reading = super::reading(&rules, &records);
    let test = Test::of(&rules, &reading);
    if manifest.status == "finished" && !same_test(&test, &manifest.test) {
        v.push(
            None,
            format!(
                "compare.toml says {} after {} pairs (LLR {:.4}); the records give {} after {} \
                 pairs (LLR {:.4})",
                manifest.test.verdict,
                manifest.test.pairs,
                manifest.test.llr,
                test.verdict,
                test.pairs,
                test.llr
            ),
        );
    }
    let state = reporter.state();
    if manifest.games_played > state.lines {
        v.push(
            None,
            format!(
                "compare.toml counts {} games but games.jsonl holds {}",
                manifest.games_played, state.lines
            ),
        );
    } else if manifest.games_played == state.lines && manifest.chain != state.chain.head() {
        v.push(
            None,
            "compare.toml's chain head is not games.jsonl's".into(),
        );
    }
    Ok(v)
}

fn same_test(a: &Test, b: &Test) -> bool {
    a.verdict == b.verdict
        && a.pairs == b.pairs
        && (a.llr - b.llr).abs() <= 1e-9 * (1.0 + a.llr.abs())
}

/// Every game against its pair, and every pair but those at the end whole.
fn pairs(
    rules: &super::Rules,
    manifest: &CompareManifest,
    lines: &[(u64, GameRecord)],
    v: &mut Verification,
) {
    for (line, r) in lines {
        if r.game >= 2 * manifest.max_pairs {
            v.push(
                Some(*line),
                format!(
                    "game {} is beyond the compare's {} pairs",
                    r.game, manifest.max_pairs
                ),
            );
            continue;
        }
        let (seed, names) = rules.game(r.game);
        if r.seed != seed || r.players != names {
            v.push(
                Some(*line),
                format!(
                    "game {} is not game {} of pair {}: it seats {} (seed {}), the pair gives {} \
                     (seed {seed})",
                    r.game,
                    r.game % 2 + 1,
                    r.game / 2,
                    crate::untrusted::terminal(&r.players.join(", ")),
                    r.seed,
                    crate::untrusted::terminal(&names.join(", "))
                ),
            );
        }
    }
}
