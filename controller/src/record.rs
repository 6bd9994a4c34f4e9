//! What a series produces: the record of each game (one line of `games.jsonl`), the running
//! tally behind the leaderboard, and exporters that are pure functions of the results.

use std::collections::BTreeMap;
use std::io::BufRead;

use serde::{Deserialize, Serialize};

use crate::game::Card;

/// One finished game, as written to `games.jsonl`. Seats are in the game's seat order.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct GameRecord {
    /// The game's number in the series, from 0.
    pub game: u64,
    /// The seed every random choice of this game derives from.
    pub seed: u64,
    /// Which 10-bot subset (in `combinations` order) this game belongs to; 0 with ≤ 10 bots.
    pub subset: u64,
    /// Player names in seat order, unique within the game.
    pub players: Vec<String>,
    /// Whether each seat is a built-in player.
    pub builtin: Vec<bool>,
    /// Each seat's ten cards in dealt order.
    pub hands: Vec<Vec<Card>>,
    /// The four row starts.
    pub rows: [Card; 4],
    pub turns: Vec<TurnRecord>,
    /// Every fault, in the order they happened.
    pub invalid: Vec<InvalidRecord>,
    /// Cows that count, per seat.
    pub cows: Vec<u32>,
    /// 0 or 100 per seat.
    pub penalty: Vec<u32>,
    /// `cows + penalty`, per seat; lower is better.
    pub scores: Vec<u32>,
    /// Wall-clock duration of the game in milliseconds.
    pub ms: u64,
    /// Each external bot's reply times, by seat (absent in records of older versions).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub replies: Vec<ReplyTimes>,
}

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

/// What the faulting player was asked for.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum FaultPhase {
    Card,
    Row,
}

// ---------------------------------------------------------------------------------------------
// Aggregation
// ---------------------------------------------------------------------------------------------

/// Wins are kept as integer multiples of `1 / WIN_UNITS`, so that a win shared by up to ten
/// tied seats is exact and the sum does not depend on the order games are added in.
/// 2520 is the least common multiple of 1..=10 (a game seats at most 10 players).
const WIN_UNITS: u64 = 2520;

/// What the tally knows about one player, summed over the games it played.
///
/// Every field is an integer so that adding games in any order gives the same numbers; the
/// floating-point figures of a [`Standing`] are computed from these at the end.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
struct PlayerTally {
    builtin: bool,
    games: u64,
    total_score: u64,
    /// Sum of squared scores, for the sample variance behind `ci95`.
    total_sq: u128,
    /// Wins in units of `1 / WIN_UNITS`.
    win_units: u64,
    /// Games in which the player faulted.
    faults: u64,
    /// Fault records per `InvalidRecord::kind`.
    fault_kinds: BTreeMap<String, u64>,
}

/// The running aggregate behind the leaderboard, updated by the single reporter task as each
/// game finishes.
///
/// It is keyed by player name (a bot keeps its name across games, whatever its seat) and holds
/// only integer sums, so the standings it yields are the same whatever order games finish in.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Tally {
    games: u64,
    players: BTreeMap<String, PlayerTally>,
}

impl Tally {
    /// Adds one finished game. The lowest score wins; tied seats share the win equally.
    ///
    /// The record is trusted (see [`check_record`] for tests); its per-seat vectors must be as
    /// long as `players`.
    pub fn add(&mut self, record: &GameRecord) {
        self.games += 1;
        let best = record.scores.iter().copied().min();
        let winners = record.scores.iter().filter(|&&s| Some(s) == best).count() as u64;
        for (seat, name) in record.players.iter().enumerate() {
            let p = self.players.entry(name.clone()).or_default();
            p.builtin |= record.builtin.get(seat).copied().unwrap_or(false);
            let score = u64::from(record.scores[seat]);
            p.games += 1;
            p.total_score += score;
            p.total_sq += u128::from(score) * u128::from(score);
            if Some(record.scores[seat]) == best {
                p.win_units += WIN_UNITS / winners;
            }
            let mut faulted = false;
            for fault in record.invalid.iter().filter(|f| f.seat == seat) {
                faulted = true;
                *p.fault_kinds.entry(fault.kind.clone()).or_default() += 1;
            }
            if faulted {
                p.faults += 1;
            }
        }
    }

    /// How many games have been added.
    pub fn games(&self) -> u64 {
        self.games
    }

    /// The leaderboard: one row per player that played, by mean score ascending (lower is
    /// better), then name; equal means share a rank (standard competition ranking, "1224").
    pub fn standings(&self) -> Vec<Standing> {
        let mut players: Vec<(&String, &PlayerTally)> =
            self.players.iter().filter(|(_, p)| p.games > 0).collect();
        // Compare means exactly, as fractions, so equal means tie whatever their float value.
        let cmp_mean = |a: &PlayerTally, b: &PlayerTally| {
            (u128::from(a.total_score) * u128::from(b.games))
                .cmp(&(u128::from(b.total_score) * u128::from(a.games)))
        };
        players.sort_by(|(an, a), (bn, b)| cmp_mean(a, b).then_with(|| an.cmp(bn)));
        let mut out: Vec<Standing> = Vec::with_capacity(players.len());
        for (i, &(name, p)) in players.iter().enumerate() {
            let rank = match i.checked_sub(1) {
                Some(prev) if cmp_mean(players[prev].1, p).is_eq() => out[prev].rank,
                _ => i + 1,
            };
            out.push(Standing {
                rank,
                bot: name.clone(),
                builtin: p.builtin,
                games: p.games,
                total_score: p.total_score,
                mean_score: p.total_score as f64 / p.games as f64,
                ci95: ci95(p.games, p.total_score, p.total_sq),
                wins: p.win_units as f64 / WIN_UNITS as f64,
                faults: p.faults,
                fault_kinds: p.fault_kinds.clone(),
            });
        }
        out
    }
}

/// Half-width of the 95% confidence interval of a mean: `1.96 * s / sqrt(n)`, with `s` the
/// sample standard deviation (n − 1). `None` below two games, where `s` is undefined.
fn ci95(n: u64, sum: u64, sum_sq: u128) -> Option<f64> {
    if n < 2 {
        return None;
    }
    let n128 = u128::from(n);
    // n·Σx² − (Σx)² = n·(n − 1)·s², exact in integers (never negative).
    let spread = n128 * sum_sq - u128::from(sum) * u128::from(sum);
    let variance = spread as f64 / (n as f64 * (n - 1) as f64);
    Some(1.96 * variance.sqrt() / (n as f64).sqrt())
}

/// One row of the leaderboard, for the CSV export, the summary table and reports.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Standing {
    /// 1-based; players with equal mean scores share a rank and the next rank skips.
    pub rank: usize,
    /// The player's name.
    pub bot: String,
    /// Whether the player is one of the controller's built-in players.
    pub builtin: bool,
    /// Games the player took part in.
    pub games: u64,
    /// Sum of the player's scores (cows that counted plus penalties).
    pub total_score: u64,
    /// `total_score / games`; lower is better.
    pub mean_score: f64,
    /// Half-width of the 95% confidence interval of `mean_score`; `None` below two games.
    pub ci95: Option<f64>,
    /// Games won, a tie sharing the win equally (so possibly fractional).
    pub wins: f64,
    /// Games in which the player faulted.
    pub faults: u64,
    /// How many faults of each kind (`InvalidRecord::kind`) the player made.
    pub fault_kinds: BTreeMap<String, u64>,
}

// ---------------------------------------------------------------------------------------------
// Exporters
// ---------------------------------------------------------------------------------------------

/// Formats wins with at most two decimals and no trailing zeros: `3`, `2.5`, `0.33`.
fn format_wins(wins: f64) -> String {
    let s = format!("{wins:.2}");
    let s = s.trim_end_matches('0').trim_end_matches('.');
    s.to_string()
}

/// The leaderboard as CSV (`leaderboard.csv`), a pure function of the standings so it can be
/// rewritten after every game and snapshot-tested. Columns:
/// `rank,bot,builtin,games,total_score,mean_score,ci95,wins,faults`; means and CIs with three
/// decimals, `ci95` empty below two games, wins with at most two decimals.
pub fn leaderboard_csv(standings: &[Standing]) -> Vec<u8> {
    let mut w = csv::Writer::from_writer(Vec::new());
    let header = [
        "rank",
        "bot",
        "builtin",
        "games",
        "total_score",
        "mean_score",
        "ci95",
        "wins",
        "faults",
    ];
    // Writing to a Vec cannot fail: the only errors csv can report here are I/O errors.
    w.write_record(header).expect("writing CSV to memory");
    for s in standings {
        w.write_record([
            s.rank.to_string(),
            s.bot.clone(),
            s.builtin.to_string(),
            s.games.to_string(),
            s.total_score.to_string(),
            format!("{:.3}", s.mean_score),
            s.ci95.map(|c| format!("{c:.3}")).unwrap_or_default(),
            format_wins(s.wins),
            s.faults.to_string(),
        ])
        .expect("writing CSV to memory");
    }
    w.into_inner().expect("flushing CSV to memory")
}

/// The end-of-series table printed to stdout: rank, bot (built-ins marked), games, mean score
/// ± ci95, wins and faults (with their kinds) in aligned columns, then a `Skipped:` section
/// listing `name: reason` for every bot that could not take part, if any.
pub fn summary_table(standings: &[Standing], skipped: &[(String, String)]) -> String {
    let header = ["rank", "bot", "games", "mean score", "wins", "faults"];
    // Means and CIs right-aligned within the mean-score column, so decimal points line up.
    let means: Vec<String> = standings
        .iter()
        .map(|s| format!("{:.2}", s.mean_score))
        .collect();
    let cis: Vec<Option<String>> = standings
        .iter()
        .map(|s| s.ci95.map(|c| format!("{c:.2}")))
        .collect();
    let mean_w = means.iter().map(String::len).max().unwrap_or(0);
    let ci_w = cis.iter().flatten().map(String::len).max().unwrap_or(0);
    let rows: Vec<[String; 6]> = standings
        .iter()
        .zip(means.iter().zip(&cis))
        .map(|(s, (mean, ci))| {
            let bot = if s.builtin {
                format!("{} (built-in)", s.bot)
            } else {
                s.bot.clone()
            };
            let mean = match ci {
                Some(ci) => format!("{mean:>mean_w$} ± {ci:>ci_w$}"),
                None => format!("{mean:>mean_w$}"),
            };
            let faults = if s.fault_kinds.is_empty() {
                s.faults.to_string()
            } else {
                let kinds: Vec<String> = s
                    .fault_kinds
                    .iter()
                    .map(|(kind, n)| format!("{kind} {n}"))
                    .collect();
                format!("{} ({})", s.faults, kinds.join(", "))
            };
            [
                s.rank.to_string(),
                bot,
                s.games.to_string(),
                mean,
                format_wins(s.wins),
                faults,
            ]
        })
        .collect();
    let mut widths = header.map(|h| h.chars().count());
    for row in &rows {
        for (w, cell) in widths.iter_mut().zip(row) {
            *w = (*w).max(cell.chars().count());
        }
    }
    // Text columns (bot, mean score, faults) are left-aligned, counts right-aligned.
    let left = [false, true, false, true, false, true];
    let line = |cells: &[String]| {
        let parts: Vec<String> = cells
            .iter()
            .enumerate()
            .map(|(i, c)| {
                if left[i] {
                    format!("{c:<w$}", w = widths[i])
                } else {
                    format!("{c:>w$}", w = widths[i])
                }
            })
            .collect();
        let mut l = parts.join("  ");
        l.truncate(l.trim_end().len());
        l
    };
    let mut out = String::new();
    out.push_str(&line(&header.map(String::from)));
    out.push('\n');
    for row in &rows {
        out.push_str(&line(row));
        out.push('\n');
    }
    if !skipped.is_empty() {
        out.push_str("\nSkipped:\n");
        for (name, reason) in skipped {
            out.push_str(&format!("  {name}: {reason}\n"));
        }
    }
    out
}

/// One game as its line of `games.jsonl`, without the trailing newline.
pub fn games_jsonl_line(record: &GameRecord) -> String {
    // The record holds only strings, numbers, vectors and unit enums: it always serializes.
    serde_json::to_string(record).expect("a GameRecord always serializes")
}

/// Why `games.jsonl` could not be read back.
#[derive(Debug, thiserror::Error)]
pub enum RecordError {
    /// The reader failed.
    #[error("reading games.jsonl line {line}: {error}")]
    Io {
        /// 1-based line number.
        line: usize,
        error: std::io::Error,
    },
    /// A line is not the JSON of a [`GameRecord`].
    #[error("games.jsonl line {line} is not a game record: {error}")]
    Json {
        /// 1-based line number.
        line: usize,
        error: serde_json::Error,
    },
}

/// Reads every game of a `games.jsonl` (blank lines are skipped), for tests and reports.
pub fn read_games_jsonl(reader: impl BufRead) -> Result<Vec<GameRecord>, RecordError> {
    let mut games = Vec::new();
    for (i, line) in reader.lines().enumerate() {
        let line_no = i + 1;
        let line = line.map_err(|error| RecordError::Io {
            line: line_no,
            error,
        })?;
        if line.trim().is_empty() {
            continue;
        }
        let record = serde_json::from_str(&line).map_err(|error| RecordError::Json {
            line: line_no,
            error,
        })?;
        games.push(record);
    }
    Ok(games)
}

// ---------------------------------------------------------------------------------------------
// Consistency checker
// ---------------------------------------------------------------------------------------------

/// Checks that a game record is internally consistent by replaying it with a second, minimal
/// implementation of the rules written here on purpose (it does not use `crate::game`), so
/// whole-program tests catch a bug in the rules as well as in the recording.
///
/// Verified: per-seat vectors have one entry per player and names are unique; each seat was
/// dealt 10 distinct cards in 1..=104, disjoint from each other and the 4 row starts; there are
/// 10 turns; each turn every seat plays a card it still holds; events cover every seat once,
/// in ascending card order, each card the one its seat played; every placement follows the
/// rules (the row whose top is the highest below the card, the 6th card taking the 5 before
/// it; a card below every top carries a reason, `forced` only for a seat that has faulted by
/// then and only on the cheapest row, lowest index on ties, and takes the row it names; a card
/// that fits carries no reason); `took` and `cows` match the board; a `row`-phase fault comes
/// with that seat's forced placement in that turn; every dealt card ends on the board or in a
/// pile; faults name valid seats and turns in non-decreasing turn order, no seat twice; and per
/// seat, `cows` are those taken in turns before its fault turn (all turns without a fault),
/// `penalty` is 100 exactly when it faulted, and `scores = cows + penalty`.
///
/// Returns a message naming the first inconsistency found.
pub fn check_record(r: &GameRecord) -> Result<(), String> {
    const TURNS: usize = 10;
    const HAND: usize = 10;
    const NROWS: usize = 4;
    const ROW_FULL: usize = 5;
    const PENALTY: u32 = 100;
    fn cows(card: u8) -> u32 {
        if card == 55 {
            7
        } else if card.is_multiple_of(11) {
            5
        } else if card.is_multiple_of(10) {
            3
        } else if card.is_multiple_of(5) {
            2
        } else {
            1
        }
    }
    fn sum_cows(cards: &[u8]) -> u32 {
        cards.iter().map(|&c| cows(c)).sum()
    }

    // Shape.
    let n = r.players.len();
    if n == 0 || n > 10 {
        return Err(format!("{n} players; a game seats 1 to 10"));
    }
    for (what, len) in [
        ("builtin", r.builtin.len()),
        ("hands", r.hands.len()),
        ("cows", r.cows.len()),
        ("penalty", r.penalty.len()),
        ("scores", r.scores.len()),
    ] {
        if len != n {
            return Err(format!("{what} has {len} entries for {n} players"));
        }
    }
    let mut names: Vec<&String> = r.players.iter().collect();
    names.sort();
    if let Some(w) = names.windows(2).find(|w| w[0] == w[1]) {
        return Err(format!("player name {:?} appears twice", w[0]));
    }

    // The deal.
    let mut dealt: Vec<u8> = r.rows.to_vec();
    for (seat, hand) in r.hands.iter().enumerate() {
        if hand.len() != HAND {
            return Err(format!(
                "seat {seat} was dealt {} cards, not 10",
                hand.len()
            ));
        }
        dealt.extend_from_slice(hand);
    }
    if let Some(c) = dealt.iter().find(|&&c| !(1..=104).contains(&c)) {
        return Err(format!("card {c} is not in the deck"));
    }
    dealt.sort_unstable();
    if let Some(w) = dealt.windows(2).find(|w| w[0] == w[1]) {
        return Err(format!("card {} was dealt twice", w[0]));
    }

    // Faults.
    let mut fault_turn: Vec<Option<u8>> = vec![None; n];
    let mut last_turn = 0;
    for f in &r.invalid {
        if f.seat >= n {
            return Err(format!("fault of seat {}, which does not exist", f.seat));
        }
        if !(1..=TURNS as u8).contains(&f.turn) {
            return Err(format!("fault of seat {} in turn {}", f.seat, f.turn));
        }
        if f.turn < last_turn {
            return Err(format!(
                "fault of seat {} in turn {} is recorded after one in turn {last_turn}",
                f.seat, f.turn
            ));
        }
        last_turn = f.turn;
        if fault_turn[f.seat].replace(f.turn).is_some() {
            return Err(format!("seat {} faults twice", f.seat));
        }
    }

    // Replay.
    if r.turns.len() != TURNS {
        return Err(format!("{} turns, not 10", r.turns.len()));
    }
    let mut board: Vec<Vec<u8>> = r.rows.iter().map(|&c| vec![c]).collect();
    let mut held: Vec<Vec<u8>> = r.hands.clone();
    let mut piles: Vec<Vec<u8>> = vec![Vec::new(); n];
    let mut counted = vec![0u32; n];
    for (i, turn) in r.turns.iter().enumerate() {
        let t = i + 1;
        if turn.played.len() != n {
            return Err(format!(
                "turn {t}: {} cards played by {n} players",
                turn.played.len()
            ));
        }
        for (seat, &card) in turn.played.iter().enumerate() {
            let Some(at) = held[seat].iter().position(|&c| c == card) else {
                return Err(format!(
                    "turn {t}: seat {seat} played {card}, which it does not hold"
                ));
            };
            held[seat].remove(at);
        }
        if turn.events.len() != n {
            return Err(format!(
                "turn {t}: {} placements for {n} cards",
                turn.events.len()
            ));
        }
        let mut placed = vec![false; n];
        let mut previous: Option<u8> = None;
        for ev in &turn.events {
            let seat = ev.seat;
            if seat >= n || std::mem::replace(&mut placed[seat], true) {
                return Err(format!(
                    "turn {t}: seat {seat} placed twice or does not exist"
                ));
            }
            if ev.card != turn.played[seat] {
                return Err(format!(
                    "turn {t}: seat {seat} placed {} but played {}",
                    ev.card, turn.played[seat]
                ));
            }
            if previous.is_some_and(|p| p >= ev.card) {
                return Err(format!("turn {t}: card {} placed out of order", ev.card));
            }
            previous = Some(ev.card);
        }
        for ev in &turn.events {
            let seat = ev.seat;
            let fits = (0..NROWS)
                .filter(|&row| *board[row].last().unwrap_or(&0) < ev.card)
                .max_by_key(|&row| board[row].last().copied());
            let (row, took) = match (fits, ev.reason) {
                (Some(row), None) => {
                    if board[row].len() >= ROW_FULL {
                        (row, std::mem::replace(&mut board[row], vec![ev.card]))
                    } else {
                        board[row].push(ev.card);
                        (row, Vec::new())
                    }
                }
                (Some(_), Some(reason)) => {
                    return Err(format!(
                        "turn {t}: card {} fits a row but has reason {reason:?}",
                        ev.card
                    ));
                }
                (None, None) => {
                    return Err(format!(
                        "turn {t}: card {} is below every row but has no reason",
                        ev.card
                    ));
                }
                (None, Some(reason)) => {
                    if ev.row >= NROWS {
                        return Err(format!("turn {t}: card {} took row {}", ev.card, ev.row));
                    }
                    if reason == RowChoice::Forced {
                        if fault_turn[seat].is_none_or(|f| usize::from(f) > t) {
                            return Err(format!(
                                "turn {t}: seat {seat} was forced to take a row without a fault"
                            ));
                        }
                        let cheapest = (0..NROWS)
                            .min_by_key(|&row| (sum_cows(&board[row]), row))
                            .unwrap_or(0);
                        if ev.row != cheapest {
                            return Err(format!(
                                "turn {t}: seat {seat} was forced to take row {}, not the \
                                 cheapest row {cheapest}",
                                ev.row
                            ));
                        }
                    }
                    (ev.row, std::mem::replace(&mut board[ev.row], vec![ev.card]))
                }
            };
            if ev.row != row {
                return Err(format!(
                    "turn {t}: card {} recorded in row {}, belongs in row {row}",
                    ev.card, ev.row
                ));
            }
            if ev.took != took {
                return Err(format!(
                    "turn {t}: card {} recorded taking {:?}, takes {took:?}",
                    ev.card, ev.took
                ));
            }
            let got = sum_cows(&took);
            if ev.cows != got {
                return Err(format!(
                    "turn {t}: card {} recorded {} cows, took {got}",
                    ev.card, ev.cows
                ));
            }
            if fault_turn[seat].is_none_or(|f| t < usize::from(f)) {
                counted[seat] += got;
            }
            piles[seat].extend(took);
        }
        for f in r.invalid.iter().filter(|f| usize::from(f.turn) == t) {
            if f.phase == FaultPhase::Row
                && !turn
                    .events
                    .iter()
                    .any(|e| e.seat == f.seat && e.reason == Some(RowChoice::Forced))
            {
                return Err(format!(
                    "turn {t}: seat {} faulted choosing a row but was not forced to take one",
                    f.seat
                ));
            }
        }
    }

    // Every card dealt is on the board or in a pile, once.
    let mut end: Vec<u8> = board.concat();
    end.extend(piles.concat());
    end.sort_unstable();
    if end != dealt {
        return Err("the cards on the board and in the piles are not the cards dealt".into());
    }

    // Scores.
    for seat in 0..n {
        let penalty = if fault_turn[seat].is_some() {
            PENALTY
        } else {
            0
        };
        if r.cows[seat] != counted[seat] {
            return Err(format!(
                "seat {seat} recorded {} cows, took {} that count",
                r.cows[seat], counted[seat]
            ));
        }
        if r.penalty[seat] != penalty {
            return Err(format!(
                "seat {seat} recorded penalty {}, should be {penalty}",
                r.penalty[seat]
            ));
        }
        if r.scores[seat] != counted[seat] + penalty {
            return Err(format!(
                "seat {seat} recorded score {}, should be {}",
                r.scores[seat],
                counted[seat] + penalty
            ));
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::{Deal, Game, cows_in};
    use proptest::prelude::*;
    use rand::SeedableRng;
    use rand::rngs::ChaCha8Rng;

    // -----------------------------------------------------------------------------------------
    // Records for the tally: only players, builtin, invalid and scores matter there.
    // -----------------------------------------------------------------------------------------

    /// A finished game with just the fields the tally reads. `faults` are (seat, kind).
    fn result(players: &[&str], scores: &[u32], faults: &[(usize, &str)]) -> GameRecord {
        let n = players.len();
        GameRecord {
            game: 0,
            seed: 0,
            subset: 0,
            players: players.iter().map(|p| p.to_string()).collect(),
            builtin: players.iter().map(|p| p.starts_with("random#")).collect(),
            hands: vec![Vec::new(); n],
            rows: [1, 2, 3, 4],
            turns: Vec::new(),
            invalid: faults
                .iter()
                .map(|&(seat, kind)| InvalidRecord {
                    seat,
                    turn: 1,
                    phase: FaultPhase::Card,
                    kind: kind.to_string(),
                    reason: format!("{kind} in turn 1"),
                })
                .collect(),
            cows: scores.to_vec(),
            penalty: vec![0; n],
            scores: scores.to_vec(),
            ms: 0,
            replies: Vec::new(),
        }
    }

    /// Ties for first, a three-way shared win, a built-in, a faulted one-game bot.
    fn series() -> Vec<GameRecord> {
        vec![
            result(&["alice", "bob", "random#1"], &[10, 10, 20], &[]),
            result(
                &["bob", "carol", "random#1", "alice"],
                &[14, 14, 30, 14],
                &[],
            ),
            result(
                &["alice", "carol", "random#1", "dave"],
                &[12, 12, 25, 105],
                &[(3, "timeout")],
            ),
        ]
    }

    fn tally(games: &[GameRecord]) -> Tally {
        let mut t = Tally::default();
        for g in games {
            t.add(g);
        }
        t
    }

    #[test]
    fn leaderboard_csv_snapshot() {
        let csv = leaderboard_csv(&tally(&series()).standings());
        insta::assert_snapshot!("leaderboard_csv", String::from_utf8(csv).unwrap());
    }

    #[test]
    fn summary_table_snapshot() {
        let skipped = vec![
            (
                "broken".to_string(),
                "exited during start-up: status 1".to_string(),
            ),
            (
                "slowpoke".to_string(),
                "no answer to start within 5s".to_string(),
            ),
        ];
        let table = summary_table(&tally(&series()).standings(), &skipped);
        insta::assert_snapshot!("summary_table", table);
    }

    #[test]
    fn summary_table_without_skipped_has_no_skipped_section() {
        let table = summary_table(&tally(&series()).standings(), &[]);
        assert!(!table.contains("Skipped"));
        assert_eq!(table.lines().count(), 1 + 5);
    }

    #[test]
    fn standings_of_the_series_by_hand() {
        let t = tally(&series());
        assert_eq!(t.games(), 3);
        let s = t.standings();
        let rows: Vec<(usize, &str, u64, u64)> = s
            .iter()
            .map(|s| (s.rank, s.bot.as_str(), s.games, s.total_score))
            .collect();
        assert_eq!(
            rows,
            vec![
                (1, "alice", 3, 36),
                (1, "bob", 2, 24),
                (3, "carol", 2, 26),
                (4, "random#1", 3, 75),
                (5, "dave", 1, 105),
            ]
        );
        assert!((s[0].wins - (0.5 + 1.0 / 3.0 + 0.5)).abs() < 1e-12);
        assert!(s[3].builtin && !s[0].builtin);
        assert_eq!(s[4].ci95, None);
        assert_eq!(s[4].faults, 1);
        assert_eq!(
            s[4].fault_kinds,
            BTreeMap::from([("timeout".to_string(), 1)])
        );
        assert_eq!(s[0].faults, 0);
    }

    #[test]
    fn competition_ranking_skips_after_ties() {
        let t = tally(&[result(
            &["a", "b", "c", "d", "e", "f"],
            &[8, 5, 9, 5, 7, 8],
            &[],
        )]);
        let ranks: Vec<(usize, String)> =
            t.standings().into_iter().map(|s| (s.rank, s.bot)).collect();
        let want = [(1, "b"), (1, "d"), (3, "e"), (4, "a"), (4, "f"), (6, "c")];
        assert_eq!(
            ranks,
            want.map(|(r, b)| (r, b.to_string())).to_vec(),
            "equal means share a rank, ordered by name"
        );
    }

    #[test]
    fn equal_means_over_different_game_counts_tie() {
        // 10/1 and 30/3: equal as fractions, whatever floating point says.
        let t = tally(&[
            result(&["x", "y"], &[10, 10], &[]),
            result(&["y", "z"], &[10, 40], &[]),
            result(&["y"], &[10], &[]),
        ]);
        let s = t.standings();
        assert_eq!((s[0].rank, s[0].bot.as_str()), (1, "x"));
        assert_eq!((s[1].rank, s[1].bot.as_str()), (1, "y"));
        assert_eq!((s[2].rank, s[2].bot.as_str()), (3, "z"));
    }

    #[test]
    fn ci95_against_a_hand_computation() {
        // 3 and 7: mean 5, s² = (4 + 4) / 1 = 8, ci = 1.96 · √8 / √2 = 1.96 · 2 = 3.92.
        let s = tally(&[result(&["a"], &[3], &[]), result(&["a"], &[7], &[])]).standings();
        assert_eq!(s[0].mean_score, 5.0);
        assert!((s[0].ci95.unwrap() - 3.92).abs() < 1e-12);
        // 10, 20, 30: mean 20, s = 10, ci = 19.6 / √3 = 11.31607...
        let s = tally(&[
            result(&["a"], &[10], &[]),
            result(&["a"], &[20], &[]),
            result(&["a"], &[30], &[]),
        ])
        .standings();
        assert!((s[0].ci95.unwrap() - 11.316_065).abs() < 1e-6);
        // Constant scores: no spread at all.
        let s = tally(&[result(&["a"], &[4], &[]), result(&["a"], &[4], &[])]).standings();
        assert_eq!(s[0].ci95, Some(0.0));
        // One game: undefined.
        let s = tally(&[result(&["a"], &[4], &[])]).standings();
        assert_eq!(s[0].ci95, None);
    }

    #[test]
    fn wins_format_with_at_most_two_decimals() {
        assert_eq!(format_wins(3.0), "3");
        assert_eq!(format_wins(2.5), "2.5");
        assert_eq!(format_wins(1.0 / 3.0), "0.33");
        assert_eq!(format_wins(0.0), "0");
        assert_eq!(format_wins(10.0), "10");
        assert_eq!(format_wins(1.1), "1.1");
    }

    #[test]
    fn a_ten_way_tie_shares_the_win_exactly() {
        let names: Vec<String> = (0..10).map(|i| format!("p{i}")).collect();
        let names: Vec<&str> = names.iter().map(String::as_str).collect();
        let t = tally(&[result(&names, &[7; 10], &[])]);
        let total: u64 = t.players.values().map(|p| p.win_units).sum();
        assert_eq!(total, WIN_UNITS);
        assert!(t.standings().iter().all(|s| s.wins == 0.1));
    }

    /// Names the generated games draw from; `random#1` is the built-in.
    const POOL: [&str; 6] = ["ann", "ben", "cat", "dan", "eve", "random#1"];

    /// A game of 1 to 6 players from the pool with small scores (so ties are common) and
    /// occasional faults.
    fn arb_result() -> impl Strategy<Value = GameRecord> {
        (
            proptest::sample::subsequence(POOL.to_vec(), 1..=POOL.len()).prop_shuffle(),
            proptest::collection::vec(
                (0u32..=8, proptest::option::weighted(0.2, 0usize..2)),
                POOL.len(),
            ),
        )
            .prop_map(|(names, seats)| {
                let seats = &seats[..names.len()];
                let scores: Vec<u32> = seats
                    .iter()
                    .map(|&(s, f)| s + if f.is_some() { 100 } else { 0 })
                    .collect();
                let faults: Vec<(usize, &str)> = seats
                    .iter()
                    .enumerate()
                    .filter_map(|(seat, &(_, f))| f.map(|k| (seat, ["timeout", "exited"][k])))
                    .collect();
                result(&names, &scores, &faults)
            })
    }

    proptest! {
        #[test]
        fn wins_of_each_game_sum_to_one(game in arb_result()) {
            let t = tally(std::slice::from_ref(&game));
            let units: u64 = t.players.values().map(|p| p.win_units).sum();
            prop_assert_eq!(units, WIN_UNITS);
            let wins: f64 = t.standings().iter().map(|s| s.wins).sum();
            prop_assert!((wins - 1.0).abs() < 1e-12, "wins sum to {}", wins);
        }

        #[test]
        fn add_order_does_not_change_the_results(
            (games, shuffled) in proptest::collection::vec(arb_result(), 0..24)
                .prop_flat_map(|g| (Just(g.clone()), Just(g).prop_shuffle()))
        ) {
            let a = tally(&games);
            let b = tally(&shuffled);
            prop_assert_eq!(&a, &b);
            let (sa, sb) = (a.standings(), b.standings());
            prop_assert_eq!(&sa, &sb);
            prop_assert_eq!(leaderboard_csv(&sa), leaderboard_csv(&sb));
            prop_assert_eq!(summary_table(&sa, &[]), summary_table(&sb, &[]));
            let wins: f64 = sa.iter().map(|s| s.wins).sum();
            prop_assert!((wins - games.len() as f64).abs() < 1e-9);
        }
    }

    // -----------------------------------------------------------------------------------------
    // games.jsonl
    // -----------------------------------------------------------------------------------------

    #[test]
    fn jsonl_round_trip_and_line_numbers_in_errors() {
        let games = vec![sample(), hand_made()];
        let mut text = String::new();
        for g in &games {
            let line = games_jsonl_line(g);
            assert!(!line.contains('\n'));
            text.push_str(&line);
            text.push('\n');
        }
        text.push('\n'); // a trailing blank line is fine
        assert_eq!(read_games_jsonl(text.as_bytes()).unwrap(), games);

        let bad = format!("{}\n{{\"game\": 1}}\n", games_jsonl_line(&games[0]));
        let err = read_games_jsonl(bad.as_bytes()).unwrap_err();
        assert!(matches!(err, RecordError::Json { line: 2, .. }), "{err:?}");
        assert!(err.to_string().contains("line 2"), "{err}");
    }

    #[test]
    fn reason_is_left_out_of_the_json_when_none() {
        let line = games_jsonl_line(&hand_made());
        assert_eq!(line.matches("\"reason\":\"pick\"").count(), 2);
        assert!(!line.contains("null"));
    }

    // -----------------------------------------------------------------------------------------
    // check_record
    // -----------------------------------------------------------------------------------------

    fn ev(seat: usize, card: Card, row: usize, took: &[Card], cows: u32) -> PlacementRecord {
        PlacementRecord {
            seat,
            card,
            row,
            took: took.to_vec(),
            cows,
            reason: None,
        }
    }

    fn turn(card: Card, event: PlacementRecord) -> TurnRecord {
        TurnRecord {
            played: vec![card],
            events: vec![event],
        }
    }

    /// A one-player game worked out by hand, without any rules code.
    fn hand_made() -> GameRecord {
        let pick = |mut e: PlacementRecord| {
            e.reason = Some(RowChoice::Pick);
            e
        };
        GameRecord {
            game: 7,
            seed: 42,
            subset: 0,
            players: vec!["solo".into()],
            builtin: vec![false],
            hands: vec![vec![41, 42, 43, 44, 45, 46, 5, 50, 51, 1]],
            rows: [10, 20, 30, 40],
            turns: vec![
                turn(41, ev(0, 41, 3, &[], 0)),
                turn(42, ev(0, 42, 3, &[], 0)),
                turn(43, ev(0, 43, 3, &[], 0)),
                turn(44, ev(0, 44, 3, &[], 0)), // the row's 5th card
                // 6th card: takes 40 (3) 41 42 43 (1 each) 44 (5).
                turn(45, ev(0, 45, 3, &[40, 41, 42, 43, 44], 11)),
                turn(46, ev(0, 46, 3, &[], 0)),
                // Below 10, 20, 30, 46: picks row 0 and its 10 (3 cows).
                turn(5, pick(ev(0, 5, 0, &[10], 3))),
                turn(50, ev(0, 50, 3, &[], 0)),
                turn(51, ev(0, 51, 3, &[], 0)),
                // Below 5, 20, 30, 51: picks row 1 and its 20 (3 cows).
                turn(1, pick(ev(0, 1, 1, &[20], 3))),
            ],
            invalid: Vec::new(),
            cows: vec![17],
            penalty: vec![0],
            scores: vec![17],
            ms: 3,
            replies: Vec::new(),
        }
    }

    #[test]
    fn hand_made_record_passes() {
        assert_eq!(check_record(&hand_made()), Ok(()));
    }

    #[test]
    fn hand_made_record_with_a_last_turn_fault_passes() {
        // Faulting in turn 10's card phase: the 1 is forced onto the cheapest row, row 0
        // ([5]: 2 cows; [20] and [30] have 3, [45 46 50 51] has 7), and counts for nothing.
        let mut r = hand_made();
        r.invalid.push(InvalidRecord {
            seat: 0,
            turn: 10,
            phase: FaultPhase::Card,
            kind: "timeout".into(),
            reason: "no card within 1s".into(),
        });
        r.turns[9].events[0] = PlacementRecord {
            reason: Some(RowChoice::Forced),
            ..ev(0, 1, 0, &[5], 2)
        };
        (r.cows, r.penalty, r.scores) = (vec![14], vec![100], vec![114]);
        assert_eq!(check_record(&r), Ok(()));
        // A row-phase fault in that turn is just as consistent.
        r.invalid[0].phase = FaultPhase::Row;
        assert_eq!(check_record(&r), Ok(()));
    }

    /// How a seat misbehaves in [`play`].
    #[derive(Clone, Copy)]
    enum Fault {
        /// Faults in the card phase of this turn.
        Card(u8),
        /// Faults the first time it has to choose a row from this turn on (if ever).
        Row(u8),
    }

    /// Plays a deal with the main rules implementation (`crate::game`) and records it the way
    /// a table would. Each seat plays its hand in dealt order. A seat choosing a row picks the
    /// one with the most cows, highest index on ties (never the cheapest row); a faulted seat
    /// is forced onto the cheapest row.
    fn play(deal: &Deal, faults: &[(usize, Fault)]) -> GameRecord {
        let n = deal.hands.len();
        let mut game = Game::new(deal);
        let mut turns = Vec::new();
        let mut invalid = Vec::new();
        let fault = |seat: usize, turn: u8, phase: FaultPhase, kind: &str| InvalidRecord {
            seat,
            turn,
            phase,
            kind: kind.to_string(),
            reason: format!("seat {seat} faulted in turn {turn}"),
        };
        for t in 1..=10u8 {
            game.begin_turn();
            for &(seat, f) in faults {
                if matches!(f, Fault::Card(ft) if ft == t) {
                    game.fault(seat);
                    invalid.push(fault(seat, t, FaultPhase::Card, "timeout"));
                }
            }
            let played: Vec<Card> = (0..n).map(|s| deal.hands[s][usize::from(t) - 1]).collect();
            let mut events = Vec::new();
            for seat in game.reveal(&played) {
                let (p, reason) = match game.place(seat) {
                    Some(p) => (p, None),
                    None => {
                        let row_fault = faults
                            .iter()
                            .any(|&(s, f)| s == seat && matches!(f, Fault::Row(ft) if ft <= t));
                        if row_fault && game.faulted(seat).is_none() {
                            game.fault(seat);
                            invalid.push(fault(seat, t, FaultPhase::Row, "bad_row"));
                        }
                        if game.faulted(seat).is_some() {
                            let row = game.board().cheapest_row();
                            (game.take_row(seat, row), Some(RowChoice::Forced))
                        } else {
                            let rows = game.board().rows();
                            let row = (0..4).max_by_key(|&r| (cows_in(&rows[r]), r)).unwrap();
                            (game.take_row(seat, row), Some(RowChoice::Pick))
                        }
                    }
                };
                events.push(PlacementRecord {
                    seat,
                    card: played[seat],
                    row: p.row,
                    took: p.took,
                    cows: p.cows,
                    reason,
                });
            }
            turns.push(TurnRecord { played, events });
        }
        GameRecord {
            game: 0,
            seed: 0,
            subset: 0,
            players: (0..n).map(|s| format!("p{s}")).collect(),
            builtin: vec![false; n],
            hands: deal.hands.clone(),
            rows: deal.rows,
            turns,
            invalid,
            cows: (0..n).map(|s| game.cows(s)).collect(),
            penalty: (0..n).map(|s| game.penalty(s)).collect(),
            scores: game.scores(),
            ms: 0,
            replies: Vec::new(),
        }
    }

    fn events(r: &GameRecord) -> impl Iterator<Item = (usize, usize, &PlacementRecord)> {
        r.turns
            .iter()
            .enumerate()
            .flat_map(|(t, turn)| turn.events.iter().enumerate().map(move |(i, e)| (t, i, e)))
    }

    /// The first seeded 5-player game (seat 0 faults in turn 3's card phase, seat 1 the first
    /// time it picks a row) with every feature the corruption tests need: a 6th-card take, a
    /// pick by an unfaulted seat, a forced take, and cows seat 0 took after its fault.
    fn sample() -> GameRecord {
        (0..1000u64)
            .map(|seed| {
                let deal = Deal::shuffled(5, &mut ChaCha8Rng::seed_from_u64(seed));
                let mut r = play(&deal, &[(0, Fault::Card(3)), (1, Fault::Row(1))]);
                r.seed = seed;
                r
            })
            .find(|r| {
                let sixth = events(r).any(|(_, _, e)| e.reason.is_none() && !e.took.is_empty());
                let pick =
                    events(r).any(|(_, _, e)| e.reason == Some(RowChoice::Pick) && e.seat > 1);
                let forced = events(r).any(|(_, _, e)| e.reason == Some(RowChoice::Forced));
                let late = events(r).any(|(t, _, e)| e.seat == 0 && t >= 2 && e.cows > 0);
                let row_fault = r.invalid.iter().any(|f| f.phase == FaultPhase::Row);
                sixth && pick && forced && late && row_fault
            })
            .expect("some seed below 1000 has every feature")
    }

    #[test]
    fn sample_passes() {
        let r = sample();
        assert_eq!(check_record(&r), Ok(()));
        assert_eq!(r.penalty[..2], [100, 100]);
    }

    proptest! {
        /// The two rules implementations agree on every game: random deals of 1 to 10
        /// players, random faults.
        #[test]
        fn games_played_by_the_rules_pass(
            seed in any::<u64>(),
            players in 1usize..=10,
            faults in proptest::collection::vec((0usize..10, any::<bool>(), 1u8..=10), 0..4),
        ) {
            let deal = Deal::shuffled(players, &mut ChaCha8Rng::seed_from_u64(seed));
            let mut seen = vec![false; players];
            let faults: Vec<(usize, Fault)> = faults
                .into_iter()
                .filter(|&(s, _, _)| s < players && !std::mem::replace(&mut seen[s], true))
                .map(|(s, card, t)| (s, if card { Fault::Card(t) } else { Fault::Row(t) }))
                .collect();
            let r = play(&deal, &faults);
            prop_assert_eq!(check_record(&r), Ok(()));
        }
    }

    /// Applies `corrupt` to a copy of the sample and expects `check_record` to name `expect`.
    #[track_caller]
    fn caught(expect: &str, corrupt: impl FnOnce(&mut GameRecord)) {
        let mut r = sample();
        corrupt(&mut r);
        match check_record(&r) {
            Ok(()) => panic!("corruption not caught (expected {expect:?})"),
            Err(e) => assert!(e.contains(expect), "expected {expect:?}, got {e:?}"),
        }
    }

    /// (turn index, event index) of the first event matching `pred`.
    fn find(r: &GameRecord, pred: impl Fn(&PlacementRecord) -> bool) -> (usize, usize) {
        events(r)
            .find(|(_, _, e)| pred(e))
            .map(|(t, i, _)| (t, i))
            .expect("the sample has such an event")
    }

    #[test]
    fn corrupt_shapes_are_caught() {
        caught("builtin has 4 entries", |r| {
            r.builtin.pop();
        });
        caught("scores has 6 entries", |r| r.scores.push(0));
        caught("appears twice", |r| r.players[1] = r.players[0].clone());
        caught("9 turns", |r| {
            r.turns.pop();
        });
        caught("seat 2 was dealt 9 cards", |r| {
            r.hands[2].pop();
        });
    }

    #[test]
    fn corrupt_deals_are_caught() {
        caught("dealt twice", |r| r.hands[1][9] = r.hands[0][9]);
        caught("dealt twice", |r| r.rows[0] = r.hands[4][0]);
        caught("not in the deck", |r| r.hands[3][5] = 105);
    }

    #[test]
    fn cards_not_held_are_caught() {
        // Another seat's card.
        caught("does not hold", |r| r.turns[0].played[0] = r.hands[1][5]);
        // A card played before.
        caught("does not hold", |r| {
            r.turns[1].played[2] = r.turns[0].played[2];
        });
    }

    #[test]
    fn corrupt_event_lists_are_caught() {
        caught("out of order", |r| r.turns[4].events.swap(0, 1));
        caught("placed twice", |r| {
            r.turns[4].events[1].seat = r.turns[4].events[0].seat
        });
        caught("placements for", |r| {
            r.turns[6].events.pop();
        });
        caught("but played", |r| {
            // The seat's turn-3 and turn-10 plays swapped: both held, but events disagree.
            let s = r.turns[2].events[0].seat;
            let later = r.turns[9].played[s];
            r.turns[9].played[s] = r.turns[2].played[s];
            r.turns[2].played[s] = later;
        });
    }

    #[test]
    fn wrong_placements_are_caught() {
        caught("belongs in row", |r| {
            let (t, i) = find(r, |e| e.reason.is_none() && e.took.is_empty());
            let e = &mut r.turns[t].events[i];
            e.row = (e.row + 1) % 4;
        });
        caught("recorded taking", |r| {
            // A 6th card that does not take the row.
            let (t, i) = find(r, |e| e.reason.is_none() && !e.took.is_empty());
            let e = &mut r.turns[t].events[i];
            e.took.clear();
            e.cows = 0;
        });
        caught("recorded taking", |r| {
            // A 5th card that takes the row.
            let (t, i) = find(r, |e| e.reason.is_none() && !e.took.is_empty());
            let e = &mut r.turns[t].events[i];
            e.took.pop();
        });
        caught("recorded taking", |r| {
            // A pick that names one row and takes another's cards.
            let (t, i) = find(r, |e| e.reason == Some(RowChoice::Pick));
            let e = &mut r.turns[t].events[i];
            e.row = (e.row + 1) % 4;
        });
        caught("cows, took", |r| {
            let (t, i) = find(r, |e| !e.took.is_empty());
            r.turns[t].events[i].cows += 1;
        });
    }

    #[test]
    fn wrong_reasons_are_caught() {
        caught("has no reason", |r| {
            let (t, i) = find(r, |e| e.reason.is_some());
            r.turns[t].events[i].reason = None;
        });
        caught("fits a row", |r| {
            let (t, i) = find(r, |e| e.reason.is_none());
            r.turns[t].events[i].reason = Some(RowChoice::Pick);
        });
        caught("without a fault", |r| {
            let (t, i) = find(r, |e| e.reason == Some(RowChoice::Pick) && e.seat > 1);
            r.turns[t].events[i].reason = Some(RowChoice::Forced);
        });
        caught("not the cheapest row", |r| {
            let (t, i) = find(r, |e| e.reason == Some(RowChoice::Forced));
            let e = &mut r.turns[t].events[i];
            e.row = (e.row + 1) % 4;
        });
        caught("not forced", |r| {
            let f = r
                .invalid
                .iter()
                .find(|f| f.phase == FaultPhase::Row)
                .unwrap();
            let (seat, t) = (f.seat, usize::from(f.turn) - 1);
            let e = r.turns[t]
                .events
                .iter_mut()
                .find(|e| e.seat == seat)
                .unwrap();
            e.reason = Some(RowChoice::Pick); // same row: a valid pick, but not forced
        });
    }

    #[test]
    fn wrong_faults_are_caught() {
        caught("faults twice", |r| {
            let mut again = r.invalid[0].clone();
            again.turn = 10;
            r.invalid.push(again);
        });
        caught("is recorded after", |r| {
            let mut early = r.invalid[0].clone();
            early.seat = 4;
            early.turn = 1;
            r.invalid.push(early);
        });
        caught("does not exist", |r| r.invalid[0].seat = 5);
        caught("in turn 11", |r| r.invalid[0].turn = 11);
        // Seat 0 faulted in turn 3: counting the cows it took from then on is wrong.
        caught("seat 0 recorded", |r| {
            let all: u32 = events(r)
                .filter(|(_, _, e)| e.seat == 0)
                .map(|(_, _, e)| e.cows)
                .sum();
            assert!(all > r.cows[0]);
            r.scores[0] += all - r.cows[0];
            r.cows[0] = all;
        });
    }

    #[test]
    fn wrong_scores_are_caught() {
        caught("seat 2 recorded", |r| {
            r.cows[2] += 1;
            r.scores[2] += 1;
        });
        caught("seat 0 recorded penalty 0", |r| {
            r.penalty[0] = 0;
            r.scores[0] -= 100;
        });
        caught("seat 3 recorded penalty 100", |r| {
            r.penalty[3] = 100;
            r.scores[3] += 100;
        });
        caught("seat 4 recorded score", |r| r.scores[4] += 1);
    }
}
