//! A league's batch: its games, a pure function of the league's rules, its field and the
//! records of the batches before it, shared by the league that plays it and `take6 verify`,
//! which checks that every batch was the one its past gave.

use rand::seq::SliceRandom;
use serde::{Deserialize, Serialize};

use super::{choose, settle};
use crate::record::{Direction, Fitted, GameRecord, Model, Tally};
use crate::seed::Seed;
use crate::table::BuiltinKind;

/// What fixes a league's choices, from its creation on.
#[derive(Debug, Clone)]
pub struct Rules {
    pub seed: Seed,
    pub players: usize,
    /// Games per batch.
    pub batch: usize,
    pub top: usize,
    pub min_games: u64,
    pub alpha: f64,
    pub direction: Direction,
    pub model: Model,
    /// The game's built-ins, in padding order.
    pub builtins: Vec<BuiltinKind>,
    /// The chooser whose rules pick the tables ([`super::manifest::CHOOSER`] for a league
    /// this take6 makes; an older league keeps its own).
    pub chooser: u32,
}

/// One version of a bot: its folder's content between two games.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Version {
    pub name: String,
    pub version: u32,
    /// SHA-256 of the folder's contents.
    pub hash: String,
    /// Its first game number (a batch's first).
    pub from_game: u64,
    /// The first game number it no longer plays (a new version, or its folder removed).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub until_game: Option<u64>,
}

impl Version {
    /// The name its games are fitted under: the bot's name for version 1, `name~v` after.
    /// No bot's name holds `~` ([`crate::names::name_problem`]), so no two versions, of one
    /// bot or of two, share a key.
    pub fn key(&self) -> String {
        match self.version {
            1 => self.name.clone(),
            v => format!("{}{}{v}", self.name, crate::names::VERSION_SIGN),
        }
    }

    fn covers(&self, game: u64) -> bool {
        game >= self.from_game && self.until_game.is_none_or(|u| game < u)
    }
}

/// The version key `name` played under in game `game` (a built-in keeps its name).
pub fn key_at(versions: &[Version], name: &str, game: u64) -> String {
    versions
        .iter()
        .find(|v| v.name == name && v.covers(game))
        .map_or_else(|| name.to_string(), Version::key)
}

/// The tally of the games numbered below `upto`, each player under its version's key.
pub fn tally(rules: &Rules, versions: &[Version], records: &[GameRecord], upto: u64) -> Tally {
    let mut tally = Tally::with_model(rules.direction, rules.model);
    for r in records.iter().filter(|r| r.game < upto) {
        add_keyed(&mut tally, versions, r);
    }
    tally
}

/// Adds `record` to `tally`, each player under its version's key.
pub fn add_keyed(tally: &mut Tally, versions: &[Version], record: &GameRecord) {
    let mut keyed = record.clone();
    for p in &mut keyed.players {
        *p = key_at(versions, p, record.game);
    }
    tally.add(&keyed);
}

/// A game of a batch: its number, seed and who sits where (record names: a bot's own name,
/// a built-in's `random#1`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Planned {
    pub game: u64,
    pub seed: u64,
    pub seats: Vec<Seat>,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Seat {
    /// A bot of the field, by name.
    Bot(String),
    /// A padding built-in and its number among its kind.
    Builtin(BuiltinKind, usize),
}

impl Seat {
    pub fn name(&self) -> String {
        match self {
            Seat::Bot(name) => name.clone(),
            Seat::Builtin(kind, n) => format!("{}#{n}", kind.name),
        }
    }
}

/// What a league knows at a batch's start: who is benched and why,
/// whether the ranking is settled, and the batch's games.
#[derive(Debug, Clone)]
pub struct Batch {
    pub number: u64,
    /// Keys benched, with the reason.
    pub benched: Vec<(String, String)>,
    /// Each of the top K adjacent pairs separated by the sequential rule, every version past
    /// its minimum of games.
    pub settled: bool,
    /// Each of the top K adjacent pairs (upper key, lower key) and how far it is from settled.
    pub pairs: Vec<(String, String, settle::Progress)>,
    pub games: Vec<Planned>,
}

/// The game seed of game `game`: the master seed's ChaCha stream `game`, as a series'.
pub fn game_seed(seed: Seed, game: u64) -> u64 {
    let mut rng = seed.rng();
    rng.set_stream(game);
    rand::Rng::next_u64(&mut rng)
}

/// The random stream of batch `b`'s choices, far from the game streams.
fn batch_key(seed: Seed, b: u64) -> u64 {
    let mut rng = seed.rng();
    rng.set_stream((1 << 62) + b);
    rand::Rng::next_u64(&mut rng)
}

/// Batch `b` of a league whose field (the versions that may play, by key, with their bot's
/// name) is `field`, from the records of the games before it.
pub fn batch(
    rules: &Rules,
    versions: &[Version],
    field: &[(String, String)],
    records: &[GameRecord],
    b: u64,
) -> Batch {
    let start = b * rules.batch as u64;
    batch_from(
        rules,
        versions,
        field,
        &tally(rules, versions, records, start),
        records,
        b,
    )
}

/// [`batch`] from the tally of the games before it, kept by the caller. The versions retired
/// before the batch are fitted as frozen ([`Tally::fitted_frozen`]): the fit is solved on the
/// versions that still play, what the retired ones fix kept from batch to batch.
pub fn batch_from(
    rules: &Rules,
    versions: &[Version],
    field: &[(String, String)],
    tally: &Tally,
    records: &[GameRecord],
    b: u64,
) -> Batch {
    let start = b * rules.batch as u64;
    let retired: Vec<String> = versions
        .iter()
        .filter(|v| v.until_game.is_some_and(|u| u <= start))
        .map(Version::key)
        .collect();
    let fitted = tally.fitted_frozen(retired.iter().map(String::as_str));
    let keys: Vec<&String> = field.iter().map(|(k, _)| k).collect();
    let benched = benched(versions, field, records, start);
    let is_benched: Vec<bool> = keys
        .iter()
        .map(|k| benched.iter().any(|(b, _)| b == *k))
        .collect();
    let ids: Vec<Option<u32>> = keys.iter().map(|k| tally.id(k)).collect();
    let ranked = rank(&fitted, &keys, &ids, &is_benched);
    let games: Vec<u64> = keys.iter().map(|k| tally.games_of(k)).collect();
    let ranked_ids: Vec<u32> = ranked.iter().filter_map(|&i| ids[i]).collect();
    let settled = ranked.iter().all(|&i| games[i] >= rules.min_games)
        && ranked_ids.len() == ranked.len()
        && settle::settled(&fitted, &ranked_ids, rules.top, rules.alpha);
    let count = rules.top.min(ranked.len().saturating_sub(1));
    let pairs = (0..count)
        .map(|r| {
            let (upper, lower) = (ranked[r], ranked[r + 1]);
            let progress = match (ids[upper], ids[lower]) {
                (Some(a), Some(b)) => settle::progress(&fitted, a, b, rules.alpha / count as f64),
                _ => settle::Progress::Early,
            };
            (keys[upper].clone(), keys[lower].clone(), progress)
        })
        .collect();
    let chooser = choose::Field {
        games,
        need: choose::needs(&fitted, &ids, &ranked, rules.top, rules.alpha),
        pinned: choose::pinned(&fitted, &ids, &ranked, rules.top, rules.alpha),
        min_games: rules.min_games,
        benched: is_benched,
        leader: ranked
            .first()
            .copied()
            .filter(|&i| ids[i].is_some_and(|id| fitted.score(id).is_some())),
        varied: rules.chooser >= 3,
    };
    let tables = choose::choose(
        batch_key(rules.seed, b),
        rules.batch,
        rules.players,
        &chooser,
    );
    let games = tables
        .into_iter()
        .enumerate()
        .map(|(k, table)| seat(rules, start + k as u64, &table, field))
        .collect();
    Batch {
        number: b,
        benched,
        settled,
        pairs,
        games,
    }
}

/// The field's entrants that are not benched, ranked by the fit (those not yet fitted last,
/// by key).
fn rank(fitted: &Fitted, keys: &[&String], ids: &[Option<u32>], benched: &[bool]) -> Vec<usize> {
    let mut ranked: Vec<usize> = (0..keys.len()).filter(|&i| !benched[i]).collect();
    let score = |i: usize| ids[i].and_then(|id| fitted.score(id));
    let lower = fitted.direction() == Direction::Lower;
    ranked.sort_by(|&a, &b| match (score(a), score(b)) {
        (Some(x), Some(y)) if lower => x.total_cmp(&y),
        (Some(x), Some(y)) => y.total_cmp(&x),
        (Some(_), None) => std::cmp::Ordering::Less,
        (None, Some(_)) => std::cmp::Ordering::Greater,
        (None, None) => keys[a].cmp(keys[b]),
    });
    ranked
}

/// Game `game` at the table of the field's `members`: padded with built-ins, seats shuffled
/// by its seed as a series' are.
fn seat(rules: &Rules, game: u64, members: &[usize], field: &[(String, String)]) -> Planned {
    let seed = game_seed(rules.seed, game);
    let mut count = vec![0usize; rules.builtins.len()];
    let padding = rules.players.saturating_sub(members.len());
    let mut seats: Vec<Seat> = members
        .iter()
        .map(|&i| Seat::Bot(field[i].1.clone()))
        .chain((0..padding).map(|i| {
            let k = i % rules.builtins.len().max(1);
            count[k] += 1;
            Seat::Builtin(rules.builtins[k], count[k])
        }))
        .collect();
    seats.shuffle(&mut crate::schedule::seat_rng(seed));
    Planned { game, seed, seats }
}

/// The field's versions benched before game `upto`: those whose last 3 games all had a fault
/// of theirs or were void (the game's rules failed: a player that voids its games is not
/// played on). A new version starts afresh (its games are new). The records are walked from the
/// last game back, only until every version has its last 3 games (or none are left), so a
/// long league's batch costs little more than a young one's.
fn benched(
    versions: &[Version],
    field: &[(String, String)],
    records: &[GameRecord],
    upto: u64,
) -> Vec<(String, String)> {
    const IN_A_ROW: usize = 3;
    let mut order: Vec<usize> = (0..records.len()).collect();
    if !records.is_sorted_by_key(|r| r.game) {
        order.sort_by_key(|&i| records[i].game);
    }
    // Each field member's last games, newest first: (game, its fault's kind and reason, or
    // `void` and why, if any).
    type Fault = Option<(String, String)>;
    let mut last: Vec<Vec<(u64, Fault)>> = vec![Vec::new(); field.len()];
    let mut open = field.len();
    for &i in order.iter().rev() {
        if open == 0 {
            break;
        }
        let r = &records[i];
        if r.game >= upto {
            continue;
        }
        for (seat, player) in r.players.iter().enumerate() {
            let Some(m) = field.iter().position(|(_, name)| name == player) else {
                continue;
            };
            if last[m].len() == IN_A_ROW || key_at(versions, player, r.game) != field[m].0 {
                continue;
            }
            let fault = if r.scored() {
                r.faults()
                    .map(|(_, f)| f)
                    .find(|f| f.seat == seat && f.kind != crate::player::ABSENT)
                    .map(|f| (f.kind.clone(), f.reason.clone()))
            } else {
                let why = r.void.clone().unwrap_or_default();
                Some(("void".to_string(), format!("the game was void: {why}")))
            };
            last[m].push((r.game, fault));
            if last[m].len() == IN_A_ROW {
                open -= 1;
            }
        }
    }
    let mut out = Vec::new();
    for ((key, _), mut tail) in field.iter().zip(last) {
        tail.reverse();
        if tail.len() == IN_A_ROW && tail.iter().all(|(_, f)| f.is_some()) {
            let games: Vec<String> = tail.iter().map(|(g, _)| g.to_string()).collect();
            let kinds: Vec<String> = tail
                .iter()
                .filter_map(|(_, f)| f.as_ref().map(|(kind, _)| kind.clone()))
                .collect();
            let first = tail
                .iter()
                .find_map(|(_, f)| f.as_ref().map(|(_, reason)| reason.clone()))
                .unwrap_or_default();
            let what = if kinds.iter().any(|k| k == "void") {
                "faulted or void"
            } else {
                "faulted"
            };
            out.push((
                key.clone(),
                format!(
                    "{what} in {IN_A_ROW} games in a row (games {}: {}); the first: {first}. \
                     Benched until its folder changes: fix what the first fault says (take6 \
                     check BOT shows it with what the bot was sent) and save the folder, its \
                     next version plays",
                    games.join(", "),
                    kinds.join(", ")
                ),
            ));
        }
    }
    out
}

#[cfg(test)]
mod bench_tests {
    use super::*;
    use crate::record::fixtures::result;

    fn game(n: u64, scores: &[u32], faults: &[(usize, &str)], void: bool) -> GameRecord {
        let mut r = result(&["a", "b"], scores, faults);
        r.game = n;
        if void {
            r.void = Some("the judge exited (status 1)".into());
        }
        r
    }

    /// A void game counts toward the bench for every player in it, as a faulted one does;
    /// a clean game in between resets the count.
    #[test]
    fn void_games_count_toward_the_bench() {
        let versions: Vec<Version> = ["a", "b"]
            .map(|name| Version {
                name: name.into(),
                version: 1,
                hash: String::new(),
                from_game: 0,
                until_game: None,
            })
            .to_vec();
        let field = vec![("a".to_string(), "a".to_string()), ("b".into(), "b".into())];
        let records = vec![
            game(0, &[0, 0], &[], true),
            game(1, &[0, 1], &[(0, "timeout")], false),
            game(2, &[0, 0], &[], true),
        ];
        let out = benched(&versions, &field, &records, 3);
        let keys: Vec<&str> = out.iter().map(|(k, _)| k.as_str()).collect();
        assert_eq!(keys, ["a"], "{out:?}");
        assert!(
            out[0].1.contains("faulted or void in 3 games"),
            "{}",
            out[0].1
        );
        assert!(out[0].1.contains("void, timeout, void"), "{}", out[0].1);
        let records = vec![
            game(0, &[0, 0], &[], true),
            game(1, &[1, 1], &[], false),
            game(2, &[0, 0], &[], true),
            game(3, &[0, 0], &[], true),
        ];
        assert_eq!(benched(&versions, &field, &records, 4), []);
    }
}
