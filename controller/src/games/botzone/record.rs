//! What `games.jsonl` keeps of a Botzone game, and how `take6 verify` checks it.
//!
//! The record's body is the log as Botzone keeps it: `{"initdata": <the first call's>,
//! "log": [judge output, responses, judge output, ..., judge output], "scores": [...]}`, each
//! judge output wrapped as the judge read it (with its `display`), each step's responses keyed
//! by player with their verdicts. A void game (the judge failed) keeps the log up to the
//! failure, and its `void` reason holds the judge's stderr; `simple_io` lists the seats whose
//! bots speak simple interaction, when any do. The envelope's `scores` are the
//! judge's numbers as it gave them (fractions and negatives included; after `[scores]`' map,
//! when game.toml gives one); the body keeps the judge's exactly.
//!
//! Verify runs the judge again, afresh, over every prefix of the log: each output must be the
//! recorded one (twice the same answer that differs from the record: the record was changed;
//! two different answers: the judge is not deterministic), the last one must finish with the
//! recorded scores, and every verdict in the log must be a recorded fault. The first call is
//! given the initdata the judge saved in its first answer (Botzone passes that to every
//! later call), so a judge that drew its game and saved the draw draws it again; a judge
//! that answers its first call at random all the same (it saved no draw, or not all of it:
//! Kingz, Snake, Tetris) has its recorded first answer taken as its draw ([`Draws`], which
//! `take6 verify` reports), and every later call is re-checked against it.

use crate::game::Flaw;
use std::path::Path;
use std::time::{Duration, Instant};

use serde_json::{Value, json};

use super::manifest::{JudgeLimits, Manifest};
use super::table::{self, JudgeSpec, Played};
use super::wire::{self, Command};
use crate::player::Limits;
use crate::record::{Body, FaultPhase, GameRecord, ReplyTimes, RoundRecord, Score};
use crate::table::seats;
use crate::table::{GameOutcome, TableGame};

/// The body's list of the seats whose bots speak simple interaction (absent: none do).
pub const SIMPLE_IO: &str = "simple_io";

/// Whether the bot at `seat` spoke simple interaction in the game of `record`.
pub fn speaks_simple(record: &GameRecord, seat: usize) -> bool {
    body(record).is_ok_and(|b| {
        b[SIMPLE_IO]
            .as_array()
            .is_some_and(|seats| seats.contains(&json!(seat)))
    })
}

/// The fault phase of a seat asked for a step's response.
pub const MOVE: FaultPhase = FaultPhase::named("move");
/// The fault phase of a seat whose response the judge failed on: the judge's call that first
/// read it failed.
pub const JUDGED: FaultPhase = FaultPhase::named("judge");

/// The scores take6 gives a game whose judge failed on responses (the machinery's): the
/// seats it blames lose, the others tie above them.
fn blamed_scores(players: usize, blamed: &[usize]) -> Vec<Score> {
    (0..players)
        .map(|s| Score::from(u32::from(!blamed.contains(&s))))
        .collect()
}

/// The record of a game played at `table`.
pub fn of(table: &TableGame, played: &Played, started: Instant, map: (f64, f64)) -> GameRecord {
    let players = table.seats.len();
    let mut body = json!({"initdata": played.initdata, "log": played.log});
    if !played.simple.is_empty() {
        body[SIMPLE_IO] = json!(played.simple);
    }
    let (scores, void) = match &played.scores {
        Ok(scores) => {
            body["scores"] = json!(scores);
            match mapped(scores, map) {
                Some(s) => (s, None),
                None => (
                    vec![Score::default(); players],
                    Some(format!(
                        "the judge's scores {} are not finite numbers after game.toml's \
                         [scores] offset {} and scale {}: make the scale smaller",
                        json!(scores),
                        map.0,
                        map.1
                    )),
                ),
            }
        }
        Err(why) => {
            let stderr = String::from_utf8_lossy(&played.judge_stderr.kept).into_owned();
            let why = if stderr.trim().is_empty() {
                why.clone()
            } else {
                // Kept raw in the record (JSON escapes it); printers show it through
                // crate::untrusted.
                format!("{why}; its stderr: {}", wire::excerpt(stderr.trim()))
            };
            if played.blamed.is_empty() {
                (vec![Score::default(); players], Some(why))
            } else {
                // The judge failed on the step that first read these seats' responses: their
                // fault, not a void game.
                body["failed"] = json!(why);
                (blamed_scores(players, &played.blamed), None)
            }
        }
    };
    // Recorded as every game's table records a fault (its seats are Botzone's own: the judge
    // was told the verdict and decided what it costs).
    let mut invalid: Vec<_> = played
        .faults
        .iter()
        .map(|f| {
            let turn = f.step.min(u8::MAX as usize) as u8;
            let name = &table.seats[f.seat].name;
            seats::fault_record(name, f.seat, turn, MOVE, &f.fault)
        })
        .collect();
    if let (Some(why), Err(_)) = (body.get("failed").and_then(Value::as_str), &played.scores) {
        let turn = (played.log.len() / 2).min(u8::MAX as usize) as u8;
        let fault = judged(why);
        for &seat in &played.blamed {
            let name = &table.seats[seat].name;
            invalid.push(seats::fault_record(name, seat, turn, JUDGED, &fault));
        }
    }
    GameRecord {
        replies: played
            .seats
            .iter()
            .filter(|(_, replies, _)| !replies.is_empty())
            .map(|(seat, replies, _)| ReplyTimes::new(*seat, replies))
            .collect(),
        body: Some(Body::new(&body)),
        void,
        rounds: vec![RoundRecord {
            invalid,
            scores,
            ..RoundRecord::default()
        }],
        ms: started.elapsed().as_millis() as u64,
        ..blank(table)
    }
}

/// The fault of a seat whose response the judge failed on (`why`: the judge's failure).
fn judged(why: &str) -> crate::player::Fault {
    crate::player::Fault::BadReply(
        format!("the judge failed on the step that first read its response: {why}"),
        "judge_failed",
    )
}

/// The record of a game that could not be played at all.
pub fn void_outcome(table: &TableGame, why: String, started: Instant) -> GameOutcome {
    let players = table.seats.len();
    GameOutcome {
        record: GameRecord {
            body: Some(Body::new(&json!({"initdata": "", "log": []}))),
            void: Some(why),
            rounds: vec![RoundRecord {
                scores: vec![Score::default(); players],
                ..RoundRecord::default()
            }],
            ms: started.elapsed().as_millis() as u64,
            ..blank(table)
        },
        logs: Vec::new(),
    }
}

/// A record of `table` with nothing played (rotation 0: no duplicate deals here).
fn blank(table: &TableGame) -> GameRecord {
    GameRecord {
        rotation: 0,
        ..table.blank_record()
    }
}

/// The scores as the machinery's: the judge's own, or with game.toml's `[scores]`,
/// `(score + offset) * scale` (a whole number when within a float's rounding of one), when
/// each is finite.
fn mapped(scores: &[f64], (offset, scale): (f64, f64)) -> Option<Vec<Score>> {
    scores
        .iter()
        .map(|&s| {
            if (offset, scale) == (0.0, 1.0) {
                return Score::new(s);
            }
            let v = (s + offset) * scale;
            let r = v.round();
            Score::new(if (v - r).abs() < 1e-6 { r } else { v })
        })
        .collect()
}

/// Why a record holds no Botzone log.
#[derive(Debug, thiserror::Error)]
pub enum BodyError {
    #[error("no body: not a Botzone game's record")]
    None,
    #[error("the body: {0}")]
    Unreadable(String),
    #[error("the body has no log")]
    NoLog,
}

impl From<BodyError> for String {
    fn from(e: BodyError) -> String {
        e.to_string()
    }
}

/// The record's body.
fn body(record: &GameRecord) -> Result<Value, BodyError> {
    let body = (record.body.as_ref()).ok_or(BodyError::None)?;
    body.read()
        .map_err(|e| BodyError::Unreadable(e.to_string()))
}

/// The body's log and initdata.
fn parts(body: &Value) -> Result<(&Vec<Value>, &Value), BodyError> {
    let log = body["log"].as_array().ok_or(BodyError::NoLog)?;
    Ok((log, &body["initdata"]))
}

/// The checks that need no judge: the log alternates outputs and responses, the responses
/// answer the players asked, every verdict other than OK is a recorded fault, and a finished
/// game's scores are the judge's.
pub fn check_shape(record: &GameRecord, players: usize, map: (f64, f64)) -> Result<(), Flaw> {
    let body = body(record).map_err(|e| Flaw(e.to_string()))?;
    let (log, _) = parts(&body).map_err(|e| Flaw(e.to_string()))?;
    let [round] = record.rounds.as_slice() else {
        return Err(format!("{} rounds; a game is one", record.rounds.len()).into());
    };
    if record.players.len() != players || round.scores.len() != players {
        return Err(format!(
            "the game has {players} players; the record has {}",
            record.players.len()
        )
        .into());
    }
    let failed = body.get("failed");
    if failed.is_some() && (record.void.is_some() || !log.len().is_multiple_of(2)) {
        return Err(
            "the record says the judge failed on responses, but the game is void or its log \
             does not end with responses"
                .into(),
        );
    }
    if log.len().is_multiple_of(2) && record.void.is_none() && failed.is_none() {
        return Err("the log ends with responses but the game is not void".into());
    }
    check_entries(log, round)?;
    let blames: Vec<(usize, u8)> = (round.invalid.iter())
        .filter(|f| f.phase == JUDGED)
        .map(|f| (f.seat, f.turn))
        .collect();
    if let Some(why) = failed {
        return check_failed(log, round, players, why, &blames);
    }
    if !blames.is_empty() {
        return Err(format!(
            "the record blames seats {blames:?} for a judge failure it does not record"
        )
        .into());
    }
    if record.void.is_some() {
        return check_void_shape(record, &body, log, players, map);
    }
    check_finish(&body, log, round, players, map)
}

/// Each entry of the log: the judge's outputs where they should be, the responses of the
/// players each step asked, and a recorded fault for every verdict other than `OK`.
fn check_entries(log: &[Value], round: &RoundRecord) -> Result<(), Flaw> {
    for (i, entry) in log.iter().enumerate() {
        if i % 2 == 0 {
            let output = &entry["output"];
            if entry["verdict"] != "OK" || !output.is_object() {
                return Err(format!("log[{i}] is not a judge's output").into());
            }
            continue;
        }
        let asked = log[i - 1]["output"]["content"].as_object();
        let answered = entry
            .as_object()
            .ok_or(format!("log[{i}] is not the responses"))?;
        let asked_keys: Vec<&String> = asked.map(|m| m.keys().collect()).unwrap_or_default();
        let answered_keys: Vec<&String> = answered.keys().collect();
        if asked_keys != answered_keys {
            return Err(format!(
                "log[{i}] answers players {answered_keys:?}; the judge asked {asked_keys:?}"
            )
            .into());
        }
        for (key, answer) in answered {
            let verdict = answer["verdict"].as_str().unwrap_or("");
            let seat: usize = key
                .parse()
                .map_err(|_| format!("log[{i}]: player {key:?}"))?;
            let step = (i / 2 + 1).min(u8::MAX as usize) as u8;
            let faulted =
                (round.invalid.iter()).any(|f| f.seat == seat && f.turn == step && f.phase == MOVE);
            if (verdict != "OK") != faulted {
                return Err(format!(
                    "log[{i}]: player {key}'s verdict is {verdict:?}, but the record {} a fault \
                     of seat {seat} at step {step}",
                    if faulted { "has" } else { "has no" }
                )
                .into());
            }
        }
    }
    Ok(())
}

/// A record of a judge that failed on the last responses (`why`): the seats that answered in
/// them are at fault at that step (`blames` as recorded), and lose.
fn check_failed(
    log: &[Value],
    round: &RoundRecord,
    players: usize,
    why: &Value,
    blames: &[(usize, u8)],
) -> Result<(), Flaw> {
    // The judge failed on the last responses: the seats that answered in them are at
    // fault at that step, and lose.
    let step = (log.len() / 2).min(u8::MAX as usize) as u8;
    let blamed = table::answered(&log[log.len() - 1]);
    let want: Vec<(usize, u8)> = blamed.iter().map(|&s| (s, step)).collect();
    let reason = judged(why.as_str().unwrap_or_default()).to_string();
    let reasons = (round.invalid.iter())
        .filter(|f| f.phase == JUDGED)
        .all(|f| f.reason == reason);
    if blamed.is_empty() || blames != want.as_slice() || !reasons {
        return Err(format!(
            "the judge failed on the responses of step {step}, which seats {blamed:?} \
             answered; the record blames {blames:?}"
        )
        .into());
    }
    if round.scores != blamed_scores(players, &blamed) {
        return Err(format!(
            "the judge failed on the responses of seats {blamed:?}: they lose; the record \
             scores {:?}",
            round.scores
        )
        .into());
    }
    Ok(())
}

/// A finished game: the judge's last output finishes it, with the scores the record has
/// (exactly in the body, after game.toml's `[scores]` in the envelope).
fn check_finish(
    body: &Value,
    log: &[Value],
    round: &RoundRecord,
    players: usize,
    map: (f64, f64),
) -> Result<(), Flaw> {
    let exact = body.get("scores");
    let last = &log[log.len() - 1]["output"];
    if last["command"] != "finish" {
        return Err("the game is not void, but the judge's last output is no finish".into());
    }
    let given = wire::parse_judge(&last.to_string(), players).map_err(|e| e.to_string())?;
    let Command::Finish(scores) = given.command else {
        unreachable!("a finish");
    };
    if exact != Some(&json!(scores)) || mapped(&scores, map).as_deref() != Some(&round.scores[..]) {
        return Err(format!(
            "the scores {:?} are not the judge's {}",
            round.scores,
            json!(scores)
        )
        .into());
    }
    Ok(())
}

/// How many of the judge's last outputs in a row asked no player.
fn idle_steps(log: &[Value]) -> usize {
    (log.iter().rev().step_by(2))
        .take_while(|e| {
            e["output"]["command"] == "request"
                && e["output"]["content"]
                    .as_object()
                    .is_none_or(|m| m.is_empty())
        })
        .count()
}

/// Why a game was void when take6 could not run its judge at all (no log).
pub const NOT_PREPARED: &str = "the game's judge was not prepared for this series";

/// A void game as take6 records one: no scores, and either a log that ends with responses
/// (the judge failed on it: [`check_with_judge`] runs it again to see it fail), or one that
/// ends with a `finish` whose scores take6 cannot rank after `[scores]`.
fn check_void_shape(
    record: &GameRecord,
    body: &Value,
    log: &[Value],
    players: usize,
    map: (f64, f64),
) -> Result<(), Flaw> {
    let scores = record.total_scores();
    if scores.iter().any(|&s| s != Score::default()) {
        return Err(format!(
            "the game is void, but the record gives it scores {scores:?} (a void game's are 0)"
        )
        .into());
    }
    if record.void.as_deref() == Some(NOT_PREPARED) && !log.is_empty() {
        return Err("the game is void as never played, but its log holds steps".into());
    }
    if log.len().is_multiple_of(2) {
        // The judge failed on this log: check_with_judge sees it fail again.
        return Ok(());
    }
    let last = &log[log.len() - 1]["output"];
    let given = wire::parse_judge(&last.to_string(), players).map_err(|e| e.to_string())?;
    let Command::Finish(scores) = given.command else {
        if idle_steps(log) > table::IDLE_STEPS {
            // The judge asked no one for too long: the steps are re-checked as any.
            return Ok(());
        }
        return Err(
            "the game is void, but its log ends with a request of the judge, not with the \
             responses the judge failed on"
                .into(),
        );
    };
    let exact = body.get("scores");
    if exact != Some(&json!(scores)) {
        return Err(format!(
            "the game is void, but its judge finished it with scores {} (the record says {})",
            json!(scores),
            exact.map_or("none".to_string(), Value::to_string)
        )
        .into());
    }
    if mapped(&scores, map).is_some() {
        return Err(format!(
            "the game is void, but its judge finished it with scores {} that take6 ranks",
            json!(scores)
        )
        .into());
    }
    Ok(())
}

/// How much more time than the game gives it the judge has in `take6 verify` for a step the
/// record shows answered, and at least how many milliseconds.
const VERIFY_ROOM: u64 = 10;
const VERIFY_LEAST_MS: u64 = 10_000;

/// What `take6 verify` took as recorded rather than re-derived, over the games it checked:
/// the first answer of a judge that draws its game at random on its first call and cannot
/// draw it again from the initdata it saved (botzone-local's Kingz, Tetris and Tetris2 save
/// none; Snake saves its size and obstacles, yet draws more). Botzone runs such a judge once
/// per game and keeps its first answer in the log; every later call reads the game from
/// there, and verify re-checks every later call.
#[derive(Debug, Default)]
pub struct Draws {
    /// The first calls (the judge's input: an empty log, the initdata it saved, else the
    /// game's) seen answered at random.
    random: std::collections::HashSet<String>,
    /// Games whose first answer was taken as the judge's draw.
    games: u64,
}

impl Draws {
    /// What verify could not re-check, in words, if anything.
    pub fn note(&self) -> Option<String> {
        (self.games > 0).then(|| {
            format!(
                "the judge draws its game at random on its first call (called again with the \
                 same log and initdata, it answered differently): the first answer of {} is \
                 taken as recorded, as Botzone keeps it (checked only for its command and the \
                 players it asks); every later step was re-checked against it; a first \
                 answer changed, with every later step re-derived from it, cannot be told from \
                 a real one",
                crate::names::count(self.games, "game")
            )
        })
    }
}

/// How many more times verify calls a judge's first call, a second apart, before it takes a
/// judge that answers it alike but not as recorded to contradict the record (a judge seeded
/// with the time in seconds answers alike within one second: Tetris draws one of 7 blocks,
/// so 5 more seconds leave a chance of 7^-5 that its draw is mistaken for a forgery).
const CLOCK_TRIES: usize = 5;

/// Runs the judge built in `judge` afresh over every prefix of the recorded log; for a void
/// game whose judge failed, over the whole log too, where it must fail again. A judge that
/// answers its first call at random has its recorded first answer taken as its draw (noted
/// in `draws`).
pub fn check_with_judge(
    record: GameRecord,
    judge: &Path,
    sandbox: &std::sync::Arc<crate::sandbox::Sandbox>,
    manifest: &Manifest,
    draws: &std::sync::Arc<std::sync::Mutex<Draws>>,
) -> impl std::future::Future<Output = Result<(), Flaw>> + Send + 'static {
    let checked = prepare_rerun(&record, judge, sandbox, manifest, draws);
    async move {
        let Rerunning {
            log,
            effective,
            answered,
            spec,
            base,
            players,
            void_on_failure,
            draws,
        } = checked?;
        let judge = Rerun {
            spec: &answered,
            players,
            base,
        };
        for i in (0..log.len()).step_by(2) {
            judge
                .step(&log[..=i], &effective, &draws)
                .await
                .map_err(|e| format!("step {}: {e}", i / 2))?;
        }
        if void_on_failure {
            let step = log.len() / 2;
            if let Ok(output) = table::call_once(&spec, &log, &effective, players, base).await {
                return Err(format!(
                    "step {step}: the record says the judge failed on the recorded log, but \
                     the judge answers {} to it",
                    wire::excerpt(&output.raw.to_string())
                )
                .into());
            }
        }
        Ok(())
    }
}

/// What a game's re-run needs, taken from its record before the judge is called.
struct Rerunning {
    log: Vec<Value>,
    effective: Value,
    /// The judge with room, for the steps the record shows answered.
    answered: JudgeSpec,
    /// The judge with the game's own limits.
    spec: JudgeSpec,
    base: Limits,
    players: usize,
    void_on_failure: bool,
    draws: std::sync::Arc<std::sync::Mutex<Draws>>,
}

fn prepare_rerun(
    record: &GameRecord,
    judge: &Path,
    sandbox: &std::sync::Arc<crate::sandbox::Sandbox>,
    manifest: &Manifest,
    draws: &std::sync::Arc<std::sync::Mutex<Draws>>,
) -> Result<Rerunning, String> {
    let body = body(record)?;
    let (log, initdata) = parts(&body)?;
    let log = log.clone();
    // The initdata every call after the first got; the first call is given it too, so that
    // a judge that draws its deal when it has none (FightTheLandlord) deals the same again.
    let effective = log
        .first()
        .and_then(|e| e["output"].get("initdata"))
        .cloned()
        .unwrap_or_else(|| initdata.clone());
    let spec = JudgeSpec {
        workdir: judge.to_path_buf(),
        sandbox: std::sync::Arc::clone(sandbox),
        limits: manifest.judge,
    };
    // Verify checks the judge's answers, not its speed: a step the record shows answered is
    // asked again with room (a judge in Python took over its 1000 ms to start on a loaded
    // machine, and verify said the record was wrong). Only the last call of a game voided
    // by its judge keeps the game's own limit, where a judge that hung must fail again.
    let answered = JudgeSpec {
        limits: JudgeLimits {
            time_ms: (manifest.judge.time_ms * VERIFY_ROOM).max(VERIFY_LEAST_MS),
            ..manifest.judge
        },
        ..spec.clone()
    };
    let base = Limits {
        clock: crate::sandbox::Clock::Wall,
        grace: Duration::from_millis(500),
        ..Limits::default()
    };
    // A void game whose log ends with the responses (or is empty) ended when its judge
    // failed on that log.
    let void_on_failure = (record
        .void
        .as_deref()
        .is_some_and(|why| why != NOT_PREPARED)
        || body.get("failed").is_some())
        && log.len().is_multiple_of(2);
    Ok(Rerunning {
        log,
        effective,
        answered,
        spec,
        base,
        players: manifest.players,
        void_on_failure,
        draws: std::sync::Arc::clone(draws),
    })
}

/// The judge as verify calls it again: afresh, with room.
struct Rerun<'a> {
    spec: &'a JudgeSpec,
    players: usize,
    base: Limits,
}

impl Rerun<'_> {
    async fn call(&self, log: &[Value], initdata: &Value) -> Result<wire::JudgeOutput, String> {
        table::call_once(self.spec, log, initdata, self.players, self.base).await
    }

    /// Checks the last judge output of `log` (`log` up to and with it) against the judge's
    /// answer to the log before it: the same, or (on the first call) the judge's own draw.
    async fn step(
        &self,
        log: &[Value],
        effective: &Value,
        draws: &std::sync::Mutex<Draws>,
    ) -> Result<(), Flaw> {
        let (recorded, before) = log.split_last().expect("a judge output");
        let recorded = &recorded["output"];
        let first = self.call(before, effective).await?;
        if &first.raw == recorded {
            return Ok(());
        }
        if before.is_empty() {
            return self.first_draw(&first, recorded, effective, draws).await;
        }
        let second = self.call(before, effective).await?;
        Err(Flaw(if second.raw != first.raw {
            format!(
                "the judge is not deterministic: it answered {} then {} to the same log",
                wire::excerpt(&first.raw.to_string()),
                wire::excerpt(&second.raw.to_string())
            )
        } else {
            contradicts(&first.raw, recorded)
        }))
    }

    /// A first answer `recorded` that the judge's (`answer`, to the first call with
    /// `initdata`) differs from: the judge's own draw when the judge answers that same call
    /// differently when called again (at once, or up to [`CLOCK_TRIES`] seconds later) and
    /// `recorded` has the form of its answer (the same command, the same players asked);
    /// else the record was changed.
    async fn first_draw(
        &self,
        answer: &wire::JudgeOutput,
        recorded: &Value,
        initdata: &Value,
        draws: &std::sync::Mutex<Draws>,
    ) -> Result<(), Flaw> {
        let lock = || {
            draws
                .lock()
                .unwrap_or_else(std::sync::PoisonError::into_inner)
        };
        let input = wire::judge_input(&[], initdata);
        if !lock().random.contains(&input) {
            let mut random = false;
            for attempt in 0..=CLOCK_TRIES {
                if attempt > 0 {
                    tokio::time::sleep(Duration::from_millis(1100)).await;
                }
                if self.call(&[], initdata).await?.raw != answer.raw {
                    random = true;
                    break;
                }
            }
            if !random {
                return Err(Flaw(contradicts(&answer.raw, recorded)));
            }
            lock().random.insert(input);
        }
        let given = wire::parse_judge(&recorded.to_string(), self.players)
            .map_err(|e| format!("the recorded first answer cannot be the judge's: {e}"))?;
        let form = |c: &Command| match c {
            Command::Request(asked) => Ok(asked.keys().copied().collect::<Vec<_>>()),
            Command::Finish(scores) => Err(scores.clone()),
        };
        if form(&given.command) != form(&answer.command) {
            return Err(format!(
                "the judge draws its first answer at random, but the recorded one, {}, is not \
                 of the form of its answers ({})",
                wire::excerpt(&recorded.to_string()),
                wire::excerpt(&answer.raw.to_string())
            )
            .into());
        }
        lock().games += 1;
        Ok(())
    }
}

/// The judge's answer `answer` (the same each time) is not the `recorded` one.
fn contradicts(answer: &Value, recorded: &Value) -> String {
    format!(
        "the judge answers {} to the recorded log, but the record says {}",
        wire::excerpt(&answer.to_string()),
        wire::excerpt(&recorded.to_string())
    )
}

/// The request `seat` was sent at `step` (1-based), if the record holds it, with its number
/// among the requests the seat was sent in the game (1-based: a player asked every other step
/// is at its request 3 at step 6).
pub fn request_of(record: &GameRecord, seat: usize, step: usize) -> Option<(Value, usize)> {
    let body = body(record).ok()?;
    let (log, _) = parts(&body).ok()?;
    let key = seat.to_string();
    let asked = |i: usize| {
        log.get(2 * i)
            .and_then(|e| e["output"]["content"].get(&key))
    };
    let request = asked(step.checked_sub(1)?)?.clone();
    let number = (0..step).filter(|&i| asked(i).is_some()).count();
    Some((request, number))
}

/// A response of the log with verdict `OK`: `seat`'s first, else the first of any seat.
pub fn accepted_response(record: &GameRecord, seat: usize) -> Option<Value> {
    let body = body(record).ok()?;
    let (log, _) = parts(&body).ok()?;
    let answers: Vec<(&String, &Value)> = (log.iter().skip(1).step_by(2))
        .filter_map(Value::as_object)
        .flatten()
        .filter(|(_, a)| a["verdict"] == "OK")
        .collect();
    let key = seat.to_string();
    answers
        .iter()
        .find(|(k, _)| **k == key)
        .or(answers.first())
        .map(|(_, a)| a["response"].clone())
}

/// `take6 replay`: each step's requests, responses and display.
/// The game's number, its players by seat and its result: each player's score, or why the
/// game was void.
fn header(record: &GameRecord) -> String {
    let seats: Vec<String> = (record.players.iter().enumerate())
        .map(|(seat, name)| format!("player {seat} {name}"))
        .collect();
    let result = match &record.void {
        Some(why) => format!("void: {why}"),
        None => {
            let scores: Vec<String> = (record.players.iter().zip(record.total_scores().iter()))
                .map(|(name, score)| format!("{name} {score}"))
                .collect();
            format!("scores {}", scores.join(", "))
        }
    };
    format!(
        "game {} of {}: {}\nresult: {result}\n",
        record.game,
        record.rules.as_str(),
        seats.join(", ")
    )
}

pub fn replay_text(record: &GameRecord) -> String {
    let body = body(record);
    let Ok((log, initdata)) = body.as_ref().map_err(|_| BodyError::None).and_then(parts) else {
        return "no Botzone log in this record\n".into();
    };
    let mut out = header(record);
    // Requests, responses and displays are the judge's and the bots' text: `take6 replay`
    // prints this through crate::untrusted::terminal_lines.
    out.push_str(&format!("initdata: {initdata}\n"));
    // A game take6 knows by its name: its board after each step (super::boards).
    let board = body
        .as_ref()
        .ok()
        .and_then(|b| super::boards::Board::of_game(record.rules.as_str(), b));
    for (i, entry) in log.iter().enumerate() {
        let step = i / 2 + 1;
        if i % 2 == 0 {
            let output = &entry["output"];
            if let Some(display) = output.get("display") {
                out.push_str(&format!("  display: {display}\n"));
            }
            if let Some(board) = &board {
                for line in board.text(i / 2).lines() {
                    out.push_str(&format!("  {line}\n"));
                }
            }
            match output["command"].as_str() {
                Some("finish") => out.push_str(&format!("finish: {}\n", output["content"])),
                _ => {
                    out.push_str(&format!("step {step}:\n"));
                    if let Some(m) = output["content"].as_object() {
                        for (seat, request) in m {
                            out.push_str(&format!(
                                "  request to {}: {request}\n",
                                name(record, seat)
                            ));
                        }
                    }
                }
            }
        } else if let Some(m) = entry.as_object() {
            for (seat, answer) in m {
                let verdict = answer["verdict"].as_str().unwrap_or("?");
                match answer.get("response") {
                    Some(r) if verdict == "OK" => {
                        out.push_str(&format!("  response of {}: {r}\n", name(record, seat)))
                    }
                    _ => out.push_str(&format!("  {}: {verdict}\n", name(record, seat))),
                }
                if let Some(debug) = debug_text(answer) {
                    out.push_str(&format!("    debug: {debug}\n"));
                }
            }
        }
    }
    if let Some(why) = &record.void {
        out.push_str(&format!("VOID: {why}\n"));
    }
    if let Some(why) = body.as_ref().ok().and_then(|b| b.get("failed")) {
        let blamed: Vec<String> = (log.last().map(table::answered).unwrap_or_default())
            .iter()
            .map(|s| name(record, &s.to_string()))
            .collect();
        out.push_str(&format!(
            "THE JUDGE FAILED on the responses of {}, whose fault it is: {}\n",
            blamed.join(", "),
            why.as_str().unwrap_or_default()
        ));
    }
    out
}

/// What the judge said at the end of `record` (its last display), and whether it ended the
/// game early for the player at `seat`: the game was not void, the player had no recorded
/// fault and did not score the most, and the judge's last display says why in Botzone's
/// way (a key `err`, `error` or `reason`, or a text with "invalid", as botzone-local's
/// judges write `INVALID_MOVE`, `INVALIDMOVE`, `INVALID MOVE`...).
pub fn judge_end(record: &GameRecord, seat: usize) -> Option<crate::game::JudgeEnd> {
    let body = body(record).ok()?;
    let (log, _) = parts(&body).ok()?;
    let output = &log.iter().rev().find(|e| e.get("output").is_some())?["output"];
    let display = output.get("display").cloned().unwrap_or(Value::Null);
    let scores = record.total_scores();
    let best = scores.iter().copied().max().unwrap_or_default();
    let lost = scores.get(seat).is_some_and(|&s| s < best);
    let faulted = record.faults().any(|(_, f)| f.seat == seat);
    let ended_for_it = record.void.is_none() && lost && !faulted && says_why(&display);
    Some(crate::game::JudgeEnd {
        said: wire::excerpt(&format!(
            "{} {}",
            output["command"].as_str().unwrap_or("?"),
            display
        )),
        ended_for_it,
    })
}

/// Whether a judge's display gives a reason for ending the game: a key `err`, `error` or
/// `reason` at any depth, or a text holding "invalid" (any case).
fn says_why(display: &Value) -> bool {
    match display {
        Value::String(s) => s.to_ascii_lowercase().contains("invalid"),
        Value::Array(a) => a.iter().any(says_why),
        Value::Object(m) => m
            .iter()
            .any(|(k, v)| ["err", "error", "reason"].contains(&k.as_str()) || says_why(v)),
        _ => false,
    }
}

/// What a bot said in `debug` at one turn (its log entry `answer`), as text: none when it
/// said nothing.
pub fn debug_text(answer: &Value) -> Option<String> {
    match answer.get("debug")? {
        Value::Null => None,
        Value::String(s) if s.is_empty() => None,
        Value::String(s) => Some(s.clone()),
        other => Some(other.to_string()),
    }
}

/// A seat key's player name.
fn name(record: &GameRecord, seat: &str) -> String {
    seat.parse::<usize>()
        .ok()
        .and_then(|s| record.players.get(s))
        .map_or_else(|| format!("player {seat}"), |n| format!("{n} ({seat})"))
}
