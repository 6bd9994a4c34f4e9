//! `take6 verify` of a league folder: the chain and every game's rules and seed as for a
//! series (the same verification sink), and, for every batch, that its games seat exactly what
//! the league's choice gives from the records of the batches before it.

use std::path::Path;
use std::sync::{Arc, Mutex};

use super::manifest::{CHOOSERS, LEAGUE, LeagueManifest};
use super::plan::{self, Rules};
use crate::record::{GameRecord, Tally};
use crate::series::dir::GAMES;
use crate::series::reporter::{Event, Reporter, Sink};
use crate::series::verify::{Lines, Verification, Verify};
use crate::series::{SeriesError, Status};

/// Whether `dir` is a league's folder.
pub fn is_league(dir: &Path) -> bool {
    // Seen through the door: a `league.toml` that is a link makes no league.
    crate::door::Folder::open(dir)
        .and_then(|f| f.kind_of(Path::new(LEAGUE)))
        .is_ok_and(|k| k == Some("a regular file"))
}

/// Verifies the league in `dir`, a game folder's judge run only as `permit` allows.
pub fn verify(dir: &Path, permit: &crate::games::JudgePermit) -> Result<Verification, SeriesError> {
    let manifest = LeagueManifest::read(dir)?.ok_or_else(|| SeriesError::NotASeries(dir.into()))?;
    // A league folder chooses no code: a game folder's judge runs only from `--game`.
    let game = crate::games::recorded(&manifest.game, manifest.game_hash.as_deref(), permit)
        .map_err(|why| SeriesError::RecordedGame {
            what: "league",
            why,
        })?;
    let rules = Rules {
        chooser: manifest.chooser,
        seed: manifest.seed,
        players: manifest.players,
        batch: manifest.batch,
        top: manifest.top,
        min_games: manifest.min_games,
        alpha: manifest.alpha,
        direction: game.direction(),
        model: game.model(),
        builtins: game.builtins().to_vec(),
    };
    let (sink, report) = Verify::new(&manifest.league, None, permit.clone());
    let lines = Arc::new(Mutex::new(Vec::new()));
    let sinks: Vec<Box<dyn Sink>> = vec![Box::new(sink), Box::new(Lines(Arc::clone(&lines)))];
    let mut reporter = Reporter::new(&manifest.league, sinks);
    let torn = reporter.replay(&dir.join(GAMES), &manifest.league)?;
    reporter.handle(&Event::Finished(Status::Complete))?;
    let mut v = report.lock().expect("not poisoned").clone();
    // A league keeps its counts in league.toml, checked below, not in a series.toml.
    v.problems.retain(|p| !p.what.starts_with("no series.toml"));
    if let Some(torn) = torn {
        v.torn(torn);
    }
    let mut lines = std::mem::take(&mut *lines.lock().expect("not poisoned"));
    lines.sort_by_key(|(_, r)| r.game);
    if CHOOSERS.contains(&manifest.chooser) {
        choices(&manifest, &rules, &lines, &mut v);
    } else {
        v.push(
            None,
            format!(
                "the league's batches were chosen by take6's chooser {} (take6 {}); this take6 \
                 re-derives the choices of choosers {} only, so they are not checked: verify it \
                 with the take6 that made it (the chain, rules and seeds above were checked)",
                manifest.chooser,
                manifest.controller_version,
                super::run::choosers()
            ),
        );
    }
    let state = reporter.state();
    if manifest.games_played > state.lines {
        v.push(
            None,
            format!(
                "league.toml counts {} games but games.jsonl holds {}",
                manifest.games_played, state.lines
            ),
        );
    } else if manifest.games_played == state.lines && manifest.chain != state.chain.head() {
        v.push(None, "league.toml's chain head is not games.jsonl's".into());
    }
    Ok(v)
}

/// Every batch's games against the league's choice from the batches before it.
fn choices(
    manifest: &LeagueManifest,
    rules: &Rules,
    lines: &[(u64, GameRecord)],
    v: &mut Verification,
) {
    let size = manifest.batch as u64;
    let records: Vec<GameRecord> = lines.iter().map(|(_, r)| r.clone()).collect();
    let mut tally = Tally::with_model(rules.direction, rules.model);
    let mut next = 0; // the first line not yet in the tally
    for b in 0..manifest.batches {
        let start = b * size;
        while next < lines.len() && lines[next].1.game < start {
            plan::add_keyed(&mut tally, &manifest.versions, &lines[next].1);
            next += 1;
        }
        let field = manifest.field_of(b);
        let batch = plan::batch_from(rules, &manifest.versions, field, &tally, &records, b);
        let mut found = 0;
        for (line, r) in lines
            .iter()
            .filter(|(_, r)| (start..start + size).contains(&r.game))
        {
            found += 1;
            let want = &batch.games[(r.game - start) as usize];
            let names: Vec<String> = want.seats.iter().map(plan::Seat::name).collect();
            if r.seed != want.seed || r.players != names {
                v.push(
                    Some(*line),
                    format!(
                        "game {} is not what batch {b}'s choice gives: {} (seed {})",
                        r.game,
                        names.join(", "),
                        want.seed
                    ),
                );
            }
        }
        let last = b + 1 == manifest.batches;
        if found < size && !last && !manifest.closed.contains(&b) {
            v.push(
                None,
                format!("batch {b} holds {found} of its {size} games and was not closed"),
            );
        }
    }
    let end = manifest.batches * size;
    for (line, r) in lines.iter().filter(|(_, r)| r.game >= end) {
        v.push(
            Some(*line),
            format!(
                "game {} is beyond the league's {} batches",
                r.game, manifest.batches
            ),
        );
    }
}
