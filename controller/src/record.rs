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
    let rows: Vec<[String; 6]> = standings
        .iter()
        .map(|s| {
            let bot = if s.builtin {
                format!("{} (built-in)", s.bot)
            } else {
                s.bot.clone()
            };
            let mean = match s.ci95 {
                Some(ci) => format!("{:.2} ± {ci:.2}", s.mean_score),
                None => format!("{:.2}", s.mean_score),
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
    #[error("reading games.jsonl line {line}: {source}")]
    Io {
        /// 1-based line number.
        line: usize,
        source: std::io::Error,
    },
    #[error("games.jsonl line {line} is not a game record: {source}")]
    Json {
        /// 1-based line number.
        line: usize,
        source: serde_json::Error,
    },
}

/// Reads every game of a `games.jsonl` (blank lines are skipped), for tests and reports.
pub fn read_games_jsonl(reader: impl BufRead) -> Result<Vec<GameRecord>, RecordError> {
    let mut games = Vec::new();
    for (i, line) in reader.lines().enumerate() {
        let line_no = i + 1;
        let line = line.map_err(|source| RecordError::Io {
            line: line_no,
            source,
        })?;
        if line.trim().is_empty() {
            continue;
        }
        let record = serde_json::from_str(&line).map_err(|source| RecordError::Json {
            line: line_no,
            source,
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
