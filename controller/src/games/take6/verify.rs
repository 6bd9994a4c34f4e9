//! What `take6 verify` checks of a Take 6 record beyond its rules ([`super::check`]): that
//! its cards are the ones its seed deals, and that a summary record of built-ins is what its
//! seed and built-ins play.

use super::builtin::Strategy;
use super::check::RuleBreach;
use super::game::MAX_PLAYERS;
use super::table::{self, builtins};
use crate::record::GameRecord;
use crate::table::{Occupant, TableGame, TableSeat};

/// Whether every round of `record` holds the cards its seed deals (a summary holds none).
pub fn check_deal(record: &GameRecord) -> Result<(), RuleBreach> {
    if record.is_summary() {
        return Ok(());
    }
    for (i, round) in record.rounds.iter().enumerate() {
        let deal = table::deal(record.seed, record.players.len(), i as u32, record.rotation);
        if deal.hands != round.hands || deal.rows != round.rows {
            return Err(RuleBreach(format!(
                "was not dealt the cards its seed deals (round {})",
                i + 1
            )));
        }
    }
    Ok(())
}

/// Checks a summary record of built-ins by playing its game again from its seed: the
/// built-ins' choices are a pure function of it, so the seats, faults and scores must come out
/// exactly as recorded.
pub fn check_summary(record: &GameRecord) -> Result<(), RuleBreach> {
    let seats = record
        .players
        .iter()
        .zip(&record.builtin)
        .map(|(name, &builtin)| {
            let kind = name
                .split_once('#')
                .and_then(|(s, _)| super::builtin::BUILTINS.iter().find(|b| b.name == s))
                .filter(|_| builtin)
                .ok_or_else(|| RuleBreach(format!("seat {name} is not a built-in")))?;
            debug_assert_eq!(Strategy::of(*kind).name(), kind.name);
            Ok(TableSeat {
                name: name.clone(),
                occupant: Occupant::Builtin(*kind),
            })
        })
        .collect::<Result<Vec<_>, RuleBreach>>()?;
    if !(super::MIN_TABLE..=MAX_PLAYERS).contains(&seats.len()) {
        return Err(RuleBreach(format!("{} seats", seats.len())));
    }
    let game = TableGame {
        rules: crate::record::GameName::new(super::NAME),
        game: record.game,
        seed: record.seed,
        subset: record.subset,
        rotation: record.rotation,
        rounds: record.round_count() as u32,
        seats,
    };
    let again = builtins::play(&game, false);
    if (GameRecord {
        ms: record.ms,
        ..again
    }) != *record
    {
        return Err(RuleBreach(
            "its scores are not what its seed and built-ins play".into(),
        ));
    }
    Ok(())
}
