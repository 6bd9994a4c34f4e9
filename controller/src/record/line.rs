//! A [`GameRecord`]'s line of `games.jsonl`, byte for byte as every earlier version wrote it:
//! round 1's fields at the top level, the later rounds under `rounds` and each seat's sum
//! over all of them in `totals` (both absent for one round). The chain hashes the bytes as
//! written, and the built-ins' own writer (`games/take6/table/builtins/json.rs`) matches
//! these bytes, so this form does not change; in memory a round is a round, one list.
//!
//! Read back, `totals` is checked against the rounds' scores (and then derived, never kept),
//! and the body of a Kingdomino line of an earlier version, which named it `kingdomino`,
//! reads as the body.

use serde::de::Error as _;
use serde::ser::{SerializeSeq, SerializeStruct};
use serde::{Deserialize, Deserializer, Serialize, Serializer};

use serde_json::value::RawValue;

use super::{Body, Card, GameRecord, InvalidRecord, ReplyTimes, RoundRecord, TurnRecord};
use super::{GameName, Score};

impl Serialize for GameRecord {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let first = self.first();
        let later = self.rounds.get(1..).unwrap_or(&[]);
        let mut line = s.serialize_struct("GameRecord", 20)?;
        line.serialize_field("game", &self.game)?;
        if !self.rules.is_default() {
            line.serialize_field("rules", &self.rules)?;
        }
        line.serialize_field("seed", &self.seed)?;
        line.serialize_field("subset", &self.subset)?;
        if self.rotation != 0 {
            line.serialize_field("rotation", &self.rotation)?;
        }
        line.serialize_field("players", &self.players)?;
        line.serialize_field("builtin", &self.builtin)?;
        if !first.hands.is_empty() {
            line.serialize_field("hands", &first.hands)?;
        }
        if !super::no_rows(&first.rows) {
            line.serialize_field("rows", &first.rows)?;
        }
        if !first.turns.is_empty() {
            line.serialize_field("turns", &first.turns)?;
        }
        line.serialize_field("invalid", &first.invalid)?;
        if !first.cows.is_empty() {
            line.serialize_field("cows", &first.cows)?;
        }
        if !first.penalty.is_empty() {
            line.serialize_field("penalty", &first.penalty)?;
        }
        line.serialize_field("scores", &first.scores)?;
        if !later.is_empty() {
            line.serialize_field("rounds", later)?;
            line.serialize_field("totals", &Sums(&self.rounds))?;
        }
        line.serialize_field("ms", &self.ms)?;
        if !self.replies.is_empty() {
            line.serialize_field("replies", &self.replies)?;
        }
        if let Some(body) = &self.body {
            let key = if body.legacy { "kingdomino" } else { "body" };
            line.serialize_field(key, &body.json)?;
        }
        if let Some(void) = &self.void {
            line.serialize_field("void", void)?;
        }
        line.end()
    }
}

/// Per seat of round 1, the sum of its scores over `rounds`, written without collecting it.
struct Sums<'a>(&'a [RoundRecord]);

impl Serialize for Sums<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let seats = self.0.first().map_or(0, |r| r.scores.len());
        let mut seq = s.serialize_seq(Some(seats))?;
        for seat in 0..seats {
            let sum: Score = self.0.iter().filter_map(|r| r.scores.get(seat)).sum();
            seq.serialize_element(&sum)?;
        }
        seq.end()
    }
}

/// A line as read: the fields of every version's lines.
#[derive(Deserialize)]
struct Line {
    game: u64,
    #[serde(default)]
    rules: GameName,
    seed: u64,
    subset: u64,
    #[serde(default)]
    rotation: usize,
    players: Vec<String>,
    builtin: Vec<bool>,
    #[serde(default)]
    hands: Vec<Vec<Card>>,
    #[serde(default)]
    rows: [Card; 4],
    #[serde(default)]
    turns: Vec<TurnRecord>,
    invalid: Vec<InvalidRecord>,
    #[serde(default)]
    cows: Vec<u32>,
    #[serde(default)]
    penalty: Vec<u32>,
    scores: Vec<Score>,
    #[serde(default)]
    rounds: Vec<RoundRecord>,
    #[serde(default)]
    totals: Option<Vec<Score>>,
    ms: u64,
    #[serde(default)]
    replies: Vec<ReplyTimes>,
    #[serde(default)]
    body: Option<Box<RawValue>>,
    /// The body of a Kingdomino line of an earlier version.
    #[serde(default)]
    kingdomino: Option<Box<RawValue>>,
    #[serde(default)]
    void: Option<String>,
}

impl<'de> Deserialize<'de> for GameRecord {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<GameRecord, D::Error> {
        let line = Line::deserialize(d)?;
        let mut rounds = Vec::with_capacity(1 + line.rounds.len());
        rounds.push(RoundRecord {
            hands: line.hands,
            rows: line.rows,
            turns: line.turns,
            invalid: line.invalid,
            cows: line.cows,
            penalty: line.penalty,
            scores: line.scores,
        });
        rounds.extend(line.rounds);
        check_totals(line.players.len(), &rounds, line.totals.as_deref())
            .map_err(D::Error::custom)?;
        let body = match (line.body, line.kingdomino) {
            (Some(_), Some(_)) => return Err(D::Error::duplicate_field("body")),
            (Some(json), None) => Some(Body {
                json,
                legacy: false,
            }),
            (None, Some(json)) => Some(Body { json, legacy: true }),
            (None, None) => None,
        };
        Ok(GameRecord {
            game: line.game,
            rules: line.rules,
            seed: line.seed,
            subset: line.subset,
            rotation: line.rotation,
            players: line.players,
            builtin: line.builtin,
            rounds,
            ms: line.ms,
            replies: line.replies,
            body,
            void: line.void,
        })
    }
}

/// Why a line's `totals` are not what it would write.
#[derive(Debug, thiserror::Error)]
#[error("{0}")]
struct BadTotals(String);

/// That a line's `totals` are what it would write: absent for one round, else per seat the
/// sum of the rounds' scores.
fn check_totals(
    seats: usize,
    rounds: &[RoundRecord],
    totals: Option<&[Score]>,
) -> Result<(), BadTotals> {
    let mut sums = vec![Score::default(); seats];
    for round in rounds {
        for (sum, &s) in sums.iter_mut().zip(&round.scores) {
            *sum += s;
        }
    }
    let n = rounds.len();
    match totals {
        None if n == 1 => Ok(()),
        Some(t) if n > 1 && t == sums => Ok(()),
        Some(t) if n > 1 => Err(BadTotals(format!(
            "totals {t:?} are not the sums of the rounds' scores {sums:?}"
        ))),
        None => Err(BadTotals(format!("{n} rounds but no totals"))),
        Some(_) => Err(BadTotals("totals in a game of one round".into())),
    }
}

#[cfg(test)]
mod tests {
    use super::super::NO_ROUND;
    use super::*;

    /// A record of no rounds is written as one empty round, and reads back as one.
    #[test]
    fn a_record_of_no_rounds_writes_one_empty_round() {
        let mut r = crate::record::fixtures::result(&["a", "b"], &[1, 2], &[]);
        r.rounds.clear();
        let json = serde_json::to_string(&r).unwrap();
        assert!(
            json.contains("\"invalid\":[],\"scores\":[],\"ms\""),
            "{json}"
        );
        let back: GameRecord = serde_json::from_str(&json).unwrap();
        assert_eq!(back.rounds, vec![NO_ROUND.clone()]);
    }

    /// A body is written as `body` byte for byte; one read from a line of an earlier version
    /// under its game's name (`kingdomino`) reads the same and is written back under that
    /// name, so the older line stays what it was.
    #[test]
    fn a_body_keeps_its_bytes_and_an_older_lines_name() {
        let mut r = crate::record::fixtures::result(&["a", "b"], &[1, 2], &[]);
        r.body = Some(Body::new(
            &serde_json::json!({"moves": [{"turn": 1, "seat": 0}]}),
        ));
        let json = serde_json::to_string(&r).unwrap();
        assert!(
            json.contains(r#","body":{"moves":[{"seat":0,"turn":1}]}}"#),
            "{json}"
        );
        let back: GameRecord = serde_json::from_str(&json).unwrap();
        assert_eq!(back, r);

        let older = r#"{"game":0,"seed":1,"subset":0,"players":["a","b"],"builtin":[false,false],"invalid":[],"scores":[1,2],"ms":3,"kingdomino":{"moves":[{"turn":1,"seat":0}]}}"#;
        let read: GameRecord = serde_json::from_str(older).unwrap();
        let body = read.body.as_ref().unwrap();
        assert_eq!(
            body.json(),
            r#"{"moves":[{"turn":1,"seat":0}]}"#,
            "its bytes kept"
        );
        assert_eq!(
            body.value(),
            serde_json::json!({"moves": [{"seat": 0, "turn": 1}]})
        );
        assert_eq!(serde_json::to_string(&read).unwrap(), older);

        let both = older.replace(r#""ms":3,"#, r#""ms":3,"body":{},"#);
        let e = serde_json::from_str::<GameRecord>(&both).unwrap_err();
        assert!(e.to_string().contains("duplicate field `body`"), "{e}");
    }
}
