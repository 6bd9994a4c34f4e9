//! Continuing a compare (`take6 compare NEW OLD --resume DIR`): after a stop, or with a
//! larger `--games` once its budget ran out. It plays on with what it began with: the same
//! seed, table size, rounds, margin, error rates and field (and the same bots, content and
//! all, checked once they are prepared); a flag that asks otherwise is refused, naming it and
//! the fix. A compare that has its verdict has nothing left to play.

use std::path::{Path, PathBuf};

use super::manifest::CompareManifest;
use super::sprt::Verdict;
use crate::seed::Seed;
use crate::series::SeriesError;
use crate::untrusted::terminal;

/// What the command line asks of a continued compare, each `None` when its flag was not given.
#[derive(Debug, Default, Clone)]
pub struct Asked {
    pub seed: Option<Seed>,
    pub players: Option<usize>,
    pub rounds: Option<u32>,
    pub margin: Option<f64>,
    pub alpha: Option<f64>,
    pub beta: Option<f64>,
    pub field: Option<PathBuf>,
    pub games: Option<u64>,
}

/// Whether the compare has its verdict (nothing left to play).
pub fn decided(m: &CompareManifest) -> bool {
    m.test.verdict != Verdict::Undecided.word()
}

/// Refuses to continue the compare `m` in `dir` as `asked` when a flag asks for another seed,
/// table size, number of rounds, margin, error rate or field than it began with, or for fewer
/// games than it played: the error names the flag, what the compare has and the fix.
pub fn check(m: &CompareManifest, dir: &Path, asked: &Asked) -> Result<(), SeriesError> {
    use crate::series::continued::{Continued, Kept, unchanged};
    unchanged(
        Continued::Compare,
        &[
            Kept::flag("seed", "--seed", m.seed, asked.seed),
            Kept::flag("players", "--players", m.players, asked.players),
            Kept::flag("rounds", "--rounds", m.rounds, asked.rounds),
            Kept::flag(
                "margin",
                "--margin",
                m.margin,
                number(asked.margin, m.margin),
            ),
            Kept::flag("alpha", "--alpha", m.alpha, number(asked.alpha, m.alpha)),
            Kept::flag("beta", "--beta", m.beta, number(asked.beta, m.beta)),
        ],
    )?;
    field(m, dir, asked.field.as_deref())?;
    let played = m.games_played;
    if let Some(games) = asked.games.filter(|g| g / 2 < played.div_ceil(2)) {
        return Err(SeriesError::CompareRefused(format!(
            "--games {games}: the compare in {} has played {played} games already; --games is \
             the compare's whole budget: give more than {played} to play on",
            dir.display()
        )));
    }
    Ok(())
}

/// `asked` as text when it differs from `then` (a number read back from compare.toml may
/// differ from the flag's in its last bits only).
fn number(asked: Option<f64>, then: f64) -> Option<String> {
    asked
        .filter(|a| (a - then).abs() > 1e-12 * then.abs().max(1.0))
        .map(|a| a.to_string())
}

/// The field asked for against the field the compare began with: the same folder, or none.
fn field(m: &CompareManifest, dir: &Path, asked: Option<&Path>) -> Result<(), SeriesError> {
    let then = m
        .field
        .first()
        .and_then(|s| Path::new(&s.folder).parent().map(Path::to_path_buf));
    // compare.toml is the results folder's: its paths are shown through the terminal's door.
    let shown = |p: &Path| terminal(&p.display().to_string());
    let names = || {
        m.field
            .iter()
            .map(|s| terminal(&s.name))
            .collect::<Vec<_>>()
            .join(", ")
    };
    let refused = match (asked, &then) {
        (None, None) => return Ok(()),
        (Some(now), Some(then)) if now.canonicalize().ok().as_ref() == Some(then) => {
            return Ok(());
        }
        (None, Some(then)) => format!(
            "the compare in {} was begun with the field in {} ({}): give --field {} to \
             continue it",
            dir.display(),
            shown(then),
            names(),
            shown(then)
        ),
        (Some(now), Some(then)) => format!(
            "--field {}: the compare in {} was begun with the field in {} ({}): give --field \
             {} to continue it, or begin a new compare (without --resume) with this field",
            now.display(),
            dir.display(),
            shown(then),
            names(),
            shown(then)
        ),
        (Some(now), None) => format!(
            "--field {}: the compare in {} was begun without a field (the game's built-ins \
             fill the other seats): leave --field out to continue it, or begin a new compare \
             (without --resume) with this field",
            now.display(),
            dir.display()
        ),
    };
    Err(SeriesError::CompareRefused(refused))
}
