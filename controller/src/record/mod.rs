//! What a series produces, one job per file: the record of each game (here, the schema: an
//! envelope every game shares, its rounds, and the game's own body; its line as every version
//! wrote it, `line.rs`), its line in `games.jsonl` with the running SHA-256 chain ([`jsonl`]), the running tally behind
//! the leaderboard ([`tally`]), exporters that are pure functions of the standings
//! ([`export`]) and ratings ([`rating`]); the HTML report is [`crate::report`]'s. Checking a
//! record against its rules, replaying it for people and drawing its board are its game's
//! ([`crate::game::Game`]).
//!
//! Everything here depends only on game records, never on how the games were played, nor on
//! the games themselves: a record holds its game's name ([`GameName`]), and whoever needs the
//! game (which way scores point, its checker) has it already or finds it by that name.

use std::borrow::Cow;

use serde::{Deserialize, Serialize};

use std::sync::{Arc, LazyLock};

/// A Take 6 card as its records write it (1..=104): a plain number, so that the record names
/// no game's types (Take 6's own `Card` is the same `u8`).
pub type Card = u8;

/// Which way a game's scores point.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub enum Direction {
    /// Lower is better (Take 6's cows): the default.
    #[default]
    Lower,
    /// Higher is better (Kingdomino's crowns times squares).
    Higher,
}

impl Direction {
    /// Whether score `a` is strictly better than `b`.
    pub fn better(self, a: Score, b: Score) -> bool {
        match self {
            Direction::Lower => a < b,
            Direction::Higher => a > b,
        }
    }

    /// The best of `scores`.
    pub fn best(self, scores: &[Score]) -> Option<Score> {
        match self {
            Direction::Lower => scores.iter().copied().min(),
            Direction::Higher => scores.iter().copied().max(),
        }
    }
}

pub mod export;
pub mod fit;
#[cfg(test)]
pub(crate) mod fixtures;
pub mod interner;
pub mod jsonl;
pub mod level;
mod line;
mod reduced;
pub mod score;
pub mod stats;
pub mod tally;

pub use export::{NOT_SEPARATED, headtohead_csv, leaderboard_csv, summary_table};
pub use fit::{Fitted, Model};
pub use jsonl::{Chain, LogReader, RecordError, games_jsonl_line, read_games_jsonl};
pub use level::Level;
pub use score::Score;
pub use tally::{HeadToHead, Standing, Tally, top_separated};

/// The name of the game a record is of (`take6`, `kingdomino`, a loaded game's name): the
/// record only names its game; the machinery finds the game itself by this name in the
/// registry (`crate::games`) or holds it already (the series' game). Cheap to clone: the
/// default game's name is shared, so a Take 6 record allocates nothing for it.
#[derive(Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct GameName(Arc<str>);

impl GameName {
    /// The game of every record that names none (all older series): Take 6.
    pub const DEFAULT: &'static str = "take6";

    /// The game called `name`.
    pub fn new(name: &str) -> GameName {
        if name == Self::DEFAULT {
            GameName::default()
        } else {
            GameName(Arc::from(name))
        }
    }

    /// The name, as records write it.
    pub fn as_str(&self) -> &str {
        &self.0
    }

    /// Whether this is the default game, which records leave out.
    pub fn is_default(&self) -> bool {
        &*self.0 == Self::DEFAULT
    }
}

impl Default for GameName {
    fn default() -> Self {
        static DEFAULT: LazyLock<Arc<str>> = LazyLock::new(|| Arc::from(GameName::DEFAULT));
        GameName(Arc::clone(&DEFAULT))
    }
}

impl std::fmt::Debug for GameName {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "GameName({})", self.as_str())
    }
}

impl std::fmt::Display for GameName {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}

impl Serialize for GameName {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(self.as_str())
    }
}

impl<'de> Deserialize<'de> for GameName {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let name = Cow::<'de, str>::deserialize(d)?;
        Ok(GameName::new(&name))
    }
}

/// One finished game, as written to `games.jsonl`. Seats are in the game's seat order.
///
/// The envelope every game shares (number, game, seed, table, players, reply times, duration,
/// void) and its rounds: one for a game of one round (every game but Take 6 plays one), more
/// under `--rounds`. A game other than Take 6 keeps the rest of its record in `body`, which
/// only it reads.
///
/// In its line (`line.rs`) round 1's fields stay at the top level and the later rounds under
/// `rounds`, with each seat's sum in `totals`, exactly as every earlier version wrote them.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct GameRecord {
    /// The game's number in the series, from 0.
    pub game: u64,
    /// The game played: absent for Take 6 (and so in every line older versions wrote), else
    /// its name, e.g. `"kingdomino"`.
    pub rules: GameName,
    /// The seed every random choice of this game derives from.
    pub seed: u64,
    /// The number of the table's set of bots among all subsets of table size, in
    /// `combinations` order; 0 when every bot sits at one table.
    pub subset: u64,
    /// Under duplicate deals, how far the hands are rotated: seat `s` holds the hand dealt to
    /// seat `(s + rotation) % players`. Absent (0) otherwise, so older records read the same.
    pub rotation: usize,
    /// Player names in seat order, unique within the game.
    pub players: Vec<String>,
    /// Whether each seat is a built-in player.
    pub builtin: Vec<bool>,
    /// Every round in the order played: at least one in a record read or played (a record
    /// of no rounds is written as one empty round).
    pub rounds: Vec<RoundRecord>,
    /// Wall-clock duration of the game in milliseconds.
    pub ms: u64,
    /// Each external bot's reply times, by seat (absent in records of older versions).
    pub replies: Vec<ReplyTimes>,
    /// The game's own record, opaque to the machinery, which only its game reads: e.g.
    /// Kingdomino's moves, a judge program's log. Absent for Take 6, whose rounds hold its
    /// cards. (Kingdomino lines of earlier versions name it `kingdomino`.)
    pub body: Option<Body>,
    /// Why the game is void, when it is: its rules failed (a judge program that crashed or
    /// answered nonsense), so it is recorded but not scored (the tally, ratings and report
    /// leave it out; the series says how many at the end). Absent for a game that counts.
    pub void: Option<String>,
}

/// A game's own record in its line ([`GameRecord::body`]): JSON the machinery keeps byte for
/// byte as it was written or read, and which only its game reads (e.g. with [`Body::read`]
/// into its own type).
#[derive(Debug, Clone)]
pub struct Body {
    json: Box<serde_json::value::RawValue>,
    /// Read from a line of an earlier version, which named the body after its game
    /// (Kingdomino's `kingdomino`): written back under that name, so that the line stays
    /// byte for byte what it was.
    legacy: bool,
}

impl Body {
    /// `value` as a body.
    ///
    /// # Panics
    /// If `value` does not serialize to JSON (a map with keys that are not strings): a game's
    /// record is made of its own types, which always do.
    pub fn new<T: Serialize + ?Sized>(value: &T) -> Body {
        Body {
            json: serde_json::value::to_raw_value(value).expect("a game's body serializes"),
            legacy: false,
        }
    }

    /// The body as the game's type `T`.
    pub fn read<T: serde::de::DeserializeOwned>(&self) -> Result<T, serde_json::Error> {
        serde_json::from_str(self.json.get())
    }

    /// The body as a JSON value.
    pub fn value(&self) -> serde_json::Value {
        self.read().expect("a body is valid JSON")
    }

    /// The body's JSON text.
    pub fn json(&self) -> &str {
        self.json.get()
    }
}

/// Bodies are equal when their JSON text is.
impl PartialEq for Body {
    fn eq(&self, other: &Body) -> bool {
        self.json() == other.json()
    }
}

impl Eq for Body {}

/// One bot's reply times in one game, in microseconds, in reply order.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ReplyTimes {
    pub seat: usize,
    /// From the message written to the reply read.
    pub wall_us: Vec<u64>,
    /// CPU time of the bot's whole process tree over the same span (absent where the sandbox
    /// does not account CPU time).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub cpu_us: Vec<u64>,
}

impl ReplyTimes {
    /// The record of `seat`'s replies.
    pub fn new(seat: usize, replies: &[crate::player::ReplyTime]) -> ReplyTimes {
        let cpu: Option<Vec<u64>> = replies.iter().map(|r| r.cpu_us).collect();
        ReplyTimes {
            seat,
            wall_us: replies.iter().map(|r| r.wall_us).collect(),
            cpu_us: cpu.unwrap_or_default(),
        }
    }
}

/// One round: its faults and scores (every game's), and for Take 6 the deal and the turns
/// played (a fresh deal per round, by the same players in the same seats).
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct RoundRecord {
    /// Each seat's ten cards in dealt order. Absent (empty) in a summary record
    /// (`--record summary`), whose cards and turns are re-derived from the seed.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub hands: Vec<Vec<Card>>,
    /// The four row starts (absent, all 0, in a summary record).
    #[serde(default, skip_serializing_if = "no_rows")]
    pub rows: [Card; 4],
    /// Absent (empty) in a summary record.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub turns: Vec<TurnRecord>,
    /// Every fault, in the order they happened.
    pub invalid: Vec<InvalidRecord>,
    /// Cows that count, per seat (Take 6; absent for other games).
    pub cows: Vec<u32>,
    /// 0 or 100 per seat (Take 6; absent for other games).
    pub penalty: Vec<u32>,
    /// Each seat's score: for Take 6 `cows + penalty`, lower is better; for Kingdomino the
    /// kingdom's value with its tie-break points, higher is better (see `rules`); for a
    /// Botzone game the judge's numbers as it gave them.
    pub scores: Vec<Score>,
}

/// The round of a record with none (see [`GameRecord::first`]).
static NO_ROUND: RoundRecord = RoundRecord {
    hands: Vec::new(),
    rows: [0; 4],
    turns: Vec::new(),
    invalid: Vec::new(),
    cows: Vec::new(),
    penalty: Vec::new(),
    scores: Vec::new(),
};

impl GameRecord {
    /// Whether the game counts: not void ([`GameRecord::void`]).
    pub fn scored(&self) -> bool {
        self.void.is_none()
    }

    /// Rounds played.
    pub fn round_count(&self) -> usize {
        self.rounds.len()
    }

    /// Round 1, the only one of a game of one round (an empty round in a record of none).
    pub fn first(&self) -> &RoundRecord {
        self.rounds.first().unwrap_or(&NO_ROUND)
    }

    /// Each seat's score over the whole game: the sum over its rounds.
    pub fn totals(&self) -> Vec<Score> {
        self.total_scores().into_owned()
    }

    /// [`GameRecord::totals`], borrowed for a game of one round (the tallies read it for
    /// every game).
    pub fn total_scores(&self) -> Cow<'_, [Score]> {
        match self.rounds.as_slice() {
            [] => Cow::Borrowed(&[]),
            [one] => Cow::Borrowed(&one.scores),
            [first, later @ ..] => {
                let mut sums = first.scores.clone();
                for round in later {
                    for (sum, &s) in sums.iter_mut().zip(&round.scores) {
                        *sum += s;
                    }
                }
                Cow::Owned(sums)
            }
        }
    }

    /// Whether this is a summary record (`--record summary`): the game's seats, faults and
    /// scores without its turns or body, which only a series of built-ins may write because
    /// replaying the built-ins from the seed re-derives them ([`crate::game::Game::check_summary`]).
    pub fn is_summary(&self) -> bool {
        self.rounds.iter().all(|r| r.turns.is_empty()) && self.body.is_none()
    }

    /// The summary of this record: the same record without cards and turns, in every round.
    pub fn summary(mut self) -> GameRecord {
        for round in &mut self.rounds {
            round.hands = Vec::new();
            round.rows = [0; 4];
            round.turns = Vec::new();
        }
        self
    }

    /// Round `i` (0-based) as a one-round record of the same game, e.g. to check or replay it
    /// on its own. `None` past the last round.
    pub fn round(&self, i: usize) -> Option<GameRecord> {
        let round = self.rounds.get(i)?.clone();
        Some(GameRecord {
            game: self.game,
            rules: self.rules.clone(),
            seed: self.seed,
            subset: self.subset,
            rotation: self.rotation,
            players: self.players.clone(),
            builtin: self.builtin.clone(),
            rounds: vec![round],
            ms: self.ms,
            replies: self.replies.clone(),
            body: self.body.clone(),
            void: self.void.clone(),
        })
    }

    /// Every fault of every round, with its round (0-based); a seat whose bot is gone is
    /// recorded [`crate::player::ABSENT`] in each later round.
    pub fn faults(&self) -> impl Iterator<Item = (usize, &InvalidRecord)> {
        (self.rounds.iter().enumerate()).flat_map(|(i, r)| r.invalid.iter().map(move |f| (i, f)))
    }
}

/// Whether the row starts are left out (a summary record): no deal starts a row with card 0.
fn no_rows(rows: &[Card; 4]) -> bool {
    *rows == [0; 4]
}

/// One turn: the cards revealed and their placements.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct TurnRecord {
    /// The card each seat played, seat order.
    pub played: Vec<Card>,
    /// One per card, in placement order (lowest card first).
    pub events: Vec<PlacementRecord>,
}

/// Where one card went and what its owner took.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct PlacementRecord {
    pub seat: usize,
    pub card: Card,
    /// The row the card lies in afterwards.
    pub row: usize,
    /// Cards taken (empty when none).
    pub took: Vec<Card>,
    pub cows: u32,
    /// Set when the row was chosen rather than given by the rules.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub reason: Option<RowChoice>,
}

/// Who chose the row of a card lower than every top.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum RowChoice {
    /// The player chose.
    Pick,
    /// The controller chose the cheapest row because the player had faulted.
    Forced,
}

/// A player's fault.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct InvalidRecord {
    pub seat: usize,
    /// 1..=10.
    pub turn: u8,
    pub phase: FaultPhase,
    /// A short machine-readable kind, e.g. `timeout`, `exited`, `not_in_hand`.
    pub kind: String,
    /// What happened, for people.
    pub reason: String,
}

/// What the faulting player was asked for, as its game names it (Take 6's `card` and `row`,
/// Kingdomino's and a judge program's `move`): written as the name.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(transparent)]
pub struct FaultPhase(Cow<'static, str>);

impl FaultPhase {
    /// The phase called `name`, for a game's constants.
    pub const fn named(name: &'static str) -> FaultPhase {
        FaultPhase(Cow::Borrowed(name))
    }

    /// Its name, as its records write it.
    pub fn as_str(&self) -> &str {
        &self.0
    }
}
