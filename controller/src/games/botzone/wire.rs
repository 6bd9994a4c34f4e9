//! Botzone's two protocols, as `botzone-local` (`botzone/online/game.py` and `bot.py`) runs
//! them: what the judge reads and answers, how its answers and the bots' responses are kept
//! in the log the judge reads next, what a bot reads and answers. Pure functions of JSON.
//!
//! **The judge**, each call: one line `{"log": [...], "initdata": ...}` in; one JSON value
//! out: `{"command": "request" | "finish", "content": {"0": ..., ...}, "display": ...,
//! "initdata": ...}`. The log alternates the judge's outputs as Botzone wraps them
//! (`{"keep_running", "memory", "time", "verdict": "OK", "output": {...}}`) and the bots'
//! responses keyed by player, with the fields of Botzone's log (`{"0": {"verdict": "OK",
//! "response": ..., "time": 0, "memory": 0, "keep_running": false, "debug": ...}}`; a bot
//! that faulted has its verdict and a null response). A judge kept running gets only the responses.
//!
//! **A bot**, started afresh each turn: one line `{"requests": [...], "responses": [...],
//! "data": ..., "globaldata": ..., "time_limit": ..., "memory_limit": ...}` in; its output
//! out: `{"response": ..., "debug": ..., "data": ..., "globaldata": ...}` (any other JSON value
//! is the response itself). A bot that prints [`KEEP_RUNNING`] after its output stays alive
//! and next gets only the next request, one line of JSON.

use std::collections::BTreeMap;

use serde_json::{Map, Value, json};

use crate::player::Fault;

/// The line after which a bot (or a judge allowed to) stays alive for the next call.
pub const KEEP_RUNNING: &str = ">>>BOTZONE_REQUEST_KEEP_RUNNING<<<";

/// The most a bot's or the judge's output may hold in one call (Botzone's wrapper: 1 MiB).
pub const OUTPUT_CAP: usize = 1 << 20;

/// The most each field of a bot's answer may hold, as its JSON text: going over is the bot's
/// fault, `OLE` to the judge (as Botzone's output limit is), never a larger record. `data` and
/// `globaldata` are Botzone's ("with a maximum size of 100 KB" each, its wiki's page "Bot"),
/// so a bot that keeps within take6's keeps within Botzone's; Botzone publishes none for the
/// response, so that one is take6's, far above what a board game's move needs; `debug` is cut
/// at Botzone's published 1 KB instead ([`DEBUG_CAP`]).
pub const RESPONSE_CAP: usize = 64 << 10;
pub const DATA_CAP: usize = 100 << 10;
pub const GLOBALDATA_CAP: usize = 100 << 10;
/// The most a bot's responses in one game may hold together (what its game's record keeps of
/// it): a game's record stays a few MiB at most whatever its bots answer.
pub const GAME_RESPONSES_CAP: usize = 1 << 20;
/// The fault kind of an answer over one of these caps (verdict `OLE`).
pub const OUTPUT_LIMIT: &str = "output_limit";

/// Why a bot's answer is over a cap (its fault [`OUTPUT_LIMIT`]).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum OverCap {
    /// One field of the answer, as its JSON text.
    #[error("its {field} is {bytes} bytes, over the {cap} bytes a {field} may hold")]
    Field {
        field: &'static str,
        bytes: usize,
        cap: usize,
    },
    /// The bot's responses in the game together.
    #[error(
        "its responses in this game come to {bytes} bytes, over the {GAME_RESPONSES_CAP} bytes \
         a bot's responses in one game may hold"
    )]
    Game { bytes: usize },
}

/// Checks each field of an answer (its `response`, `data` and `globaldata`) against its cap,
/// and its response against what is left of the game's (`so_far`: the bytes of the bot's
/// responses earlier in the game). Returns the response's size, or why the answer is over a
/// cap.
pub fn within_caps(
    response: &Value,
    data: &Value,
    globaldata: Option<&Value>,
    so_far: usize,
) -> Result<usize, OverCap> {
    let response = response.to_string().len();
    for (field, bytes, cap) in [
        ("response", response, RESPONSE_CAP),
        ("data", data.to_string().len(), DATA_CAP),
        (
            "globaldata",
            globaldata.map_or(0, |g| g.to_string().len()),
            GLOBALDATA_CAP,
        ),
    ] {
        if bytes > cap {
            return Err(OverCap::Field { field, bytes, cap });
        }
    }
    if so_far + response > GAME_RESPONSES_CAP {
        return Err(OverCap::Game {
            bytes: so_far + response,
        });
    }
    Ok(response)
}

/// What the judge asked for.
#[derive(Debug, Clone, PartialEq)]
pub enum Command {
    /// The players to ask, by seat, each with its request.
    Request(BTreeMap<usize, Value>),
    /// Every player's score, by seat (higher is better; ties are shared).
    Finish(Vec<f64>),
}

/// One answer of the judge, read and checked.
#[derive(Debug, Clone, PartialEq)]
pub struct JudgeOutput {
    pub command: Command,
    /// What the judge said of the game so far, for viewers.
    pub display: Option<Value>,
    /// On the first call, the initdata every later call gets instead of the one it was given.
    pub initdata: Option<Value>,
    /// The answer as the judge wrote it (kept in the log).
    pub raw: Value,
}

/// Why a judge's answer cannot be used: the game is void.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum BadJudge {
    #[error("its output is not JSON ({0})")]
    Malformed(String),
    #[error("its output is not a JSON object with a \"command\"")]
    NoCommand,
    #[error("unknown command {0:?} (Botzone's judges answer \"request\" or \"finish\")")]
    UnknownCommand(String),
    #[error("{0}")]
    BadContent(String),
}

/// The judge's input for a call: the whole log and the initdata.
pub fn judge_input(log: &[Value], initdata: &Value) -> String {
    json!({"log": log, "initdata": initdata}).to_string()
}

/// Reads the judge's output `text` for a game of `players` seats.
pub fn parse_judge(text: &str, players: usize) -> Result<JudgeOutput, BadJudge> {
    let raw: Value = serde_json::from_str(text.trim())
        .map_err(|e| BadJudge::Malformed(format!("{e}: {}", excerpt(text))))?;
    let object = raw.as_object().ok_or(BadJudge::NoCommand)?;
    let command = object
        .get("command")
        .and_then(Value::as_str)
        .ok_or(BadJudge::NoCommand)?;
    let empty = Map::new();
    let content = match object.get("content") {
        Some(Value::Object(m)) => m,
        None | Some(Value::Null) => &empty,
        Some(other) => {
            return Err(BadJudge::BadContent(format!(
                "\"content\" is not an object keyed by player: {}",
                excerpt(&other.to_string())
            )));
        }
    };
    let seat = |key: &String| -> Result<usize, BadJudge> {
        key.parse::<usize>()
            .ok()
            .filter(|&s| s < players && s.to_string() == *key)
            .ok_or_else(|| {
                BadJudge::BadContent(format!(
                    "\"content\" names player {key:?}; this game's players are \"0\" to \"{}\"",
                    players - 1
                ))
            })
    };
    let command = match command {
        "request" => {
            let mut asked = BTreeMap::new();
            for (key, request) in content {
                asked.insert(seat(key)?, request.clone());
            }
            Command::Request(asked)
        }
        "finish" => {
            let mut scores = vec![None; players];
            for (key, score) in content {
                let s = seat(key)?;
                scores[s] = Some(score_of(score).ok_or_else(|| {
                    BadJudge::BadContent(format!(
                        "player {key}'s score is {}, not a number",
                        excerpt(&score.to_string())
                    ))
                })?);
            }
            let missing: Vec<String> = (0..players)
                .filter(|&s| scores[s].is_none())
                .map(|s| s.to_string())
                .collect();
            if !missing.is_empty() {
                return Err(BadJudge::BadContent(format!(
                    "\"finish\" gives no score to player {}",
                    missing.join(", ")
                )));
            }
            Command::Finish(scores.into_iter().map(|s| s.expect("checked")).collect())
        }
        other => return Err(BadJudge::UnknownCommand(other.to_string())),
    };
    Ok(JudgeOutput {
        command,
        display: object.get("display").cloned(),
        initdata: object.get("initdata").cloned(),
        raw,
    })
}

/// A score: a JSON number, or a string holding one (some judges write `"2"`).
fn score_of(v: &Value) -> Option<f64> {
    match v {
        Value::Number(n) => n.as_f64(),
        Value::String(s) => s.trim().parse::<f64>().ok(),
        _ => None,
    }
    .filter(|f| f.is_finite())
}

/// The judge's answer as the log keeps it: Botzone's wrapper around its parsed output.
pub fn judge_entry(output: &Value, kept_running: bool, time_ms: u64, memory_mb: u64) -> Value {
    json!({
        "keep_running": kept_running,
        "memory": memory_mb,
        "time": time_ms,
        "verdict": "OK",
        "output": output,
    })
}

/// One bot's turn in the log, with the fields of Botzone's own log: `verdict` (`OK`, or the
/// fault's), `response` (`null` after a fault: a judge that reads it finds it), `time` and
/// `memory` (written as 0, as the judge's are: the log is the same however loaded the
/// machine was), `keep_running` (it asked to be kept running) and `debug` (what it said for
/// the game's log, within [`DEBUG_CAP`]; `""` for none).
pub fn bot_entry(answer: &Result<Value, &'static str>, keep_running: bool, debug: &Value) -> Value {
    let (verdict, response) = match answer {
        Ok(response) => ("OK", response.clone()),
        Err(verdict) => (*verdict, Value::Null),
    };
    json!({
        "verdict": verdict,
        "response": response,
        "time": 0,
        "memory": 0,
        "keep_running": keep_running,
        "debug": debug,
    })
}

/// The most of a bot's `debug` kept per turn, in characters of its text: Botzone's published
/// limit (1 KB). More is cut and marked, not a fault: the game goes on as on Botzone.
pub const DEBUG_CAP: usize = 1 << 10;

/// A bot's `debug` as the log keeps it: `""` for none, a text over [`DEBUG_CAP`] characters
/// (or any other value whose JSON is) cut there and marked.
pub fn capped_debug(debug: Option<Value>) -> Value {
    let text = match debug {
        None | Some(Value::Null) => return Value::String(String::new()),
        Some(Value::String(s)) => s,
        Some(other) => {
            let json = other.to_string();
            if json.chars().count() <= DEBUG_CAP {
                return other;
            }
            json
        }
    };
    if text.chars().count() <= DEBUG_CAP {
        return Value::String(text);
    }
    let kept: String = text.chars().take(DEBUG_CAP).collect();
    Value::String(format!("{kept}… (debug cut at {DEBUG_CAP} characters)"))
}

/// Botzone's verdict for a bot's fault: `TLE`, `MLE`, `OLE`, `NJ` (not JSON), `RE`.
pub fn verdict(fault: &Fault) -> &'static str {
    match fault {
        Fault::Timeout { .. } | Fault::Blocked { .. } | Fault::CpuOverrun { .. } => "TLE",
        Fault::Limit(crate::sandbox::Breach::Memory { .. }) => "MLE",
        Fault::LineTooLong { .. } => "OLE",
        Fault::BadReply(_, kind) if *kind == OUTPUT_LIMIT => "OLE",
        Fault::BadReply(..) => "NJ",
        _ => "RE",
    }
}

/// What a bot answered in one turn.
#[derive(Debug, Clone, PartialEq)]
pub struct BotAnswer {
    pub response: Value,
    pub debug: Option<Value>,
    /// Kept for its next turn of this game (absent: none).
    pub data: Option<Value>,
    /// Kept for its next game (absent or empty: unchanged).
    pub globaldata: Option<Value>,
}

/// Why a bot's output is no answer.
#[derive(Debug, thiserror::Error)]
pub enum NotAnswer {
    #[error("printed nothing before it ended; a response is one line of JSON")]
    Nothing,
    #[error(
        "its output is not JSON ({error}): {excerpt}; a response is one line of JSON such as \
         {{\"response\": ...}}"
    )]
    NotJson {
        error: serde_json::Error,
        excerpt: String,
    },
}

/// Reads a bot's output (its lines before [`KEEP_RUNNING`], or all of them), as `bot.py` does:
/// an object with `response` is the full answer, any other JSON value is the response.
pub fn parse_bot(lines: &[String]) -> Result<BotAnswer, NotAnswer> {
    let text = lines.join("\n");
    let value: Value = serde_json::from_str(text.trim()).map_err(|error| {
        if text.trim().is_empty() {
            NotAnswer::Nothing
        } else {
            NotAnswer::NotJson {
                error,
                excerpt: excerpt(&text),
            }
        }
    })?;
    Ok(match value {
        Value::Object(mut m) if m.contains_key("response") => BotAnswer {
            response: m.remove("response").unwrap_or(Value::Null),
            debug: m.remove("debug"),
            data: m.remove("data"),
            globaldata: m.remove("globaldata"),
        },
        other => BotAnswer {
            response: other,
            debug: None,
            data: None,
            globaldata: None,
        },
    })
}

/// A bot's input for a turn that starts it: every request and response of its game so far,
/// its `data` and `globaldata` only when they hold something (as `bot.py` builds it: a bot
/// that deserialises `data` whenever the key is present gets none on its first turn).
pub fn bot_input(
    requests: &[Value],
    responses: &[Value],
    data: &Value,
    globaldata: &Value,
    time_limit_ms: u64,
    memory_mb: u64,
) -> String {
    let mut input = json!({
        "requests": requests,
        "responses": responses,
        "time_limit": seconds(time_limit_ms),
        "memory_limit": memory_mb,
    });
    for (key, value) in [("data", data), ("globaldata", globaldata)] {
        if truthy(value) {
            input[key] = value.clone();
        }
    }
    input.to_string()
}

/// Whether a value holds something, as Python's `if value:` in `bot.py` tells: not null,
/// false, 0, "", [] or {}.
pub fn truthy(value: &Value) -> bool {
    match value {
        Value::Null => false,
        Value::Bool(b) => *b,
        Value::Number(n) => n.as_f64().is_some_and(|f| f != 0.0),
        Value::String(s) => !s.is_empty(),
        Value::Array(a) => !a.is_empty(),
        Value::Object(o) => !o.is_empty(),
    }
}

/// A limit in seconds, as Botzone writes it: a whole number when it is one.
fn seconds(ms: u64) -> Value {
    if ms.is_multiple_of(1000) {
        json!(ms / 1000)
    } else {
        json!(ms as f64 / 1000.0)
    }
}

/// The first 200 characters of `text`, on one line, for a reason.
pub fn excerpt(text: &str) -> String {
    let one: String = text
        .chars()
        .map(|c| if c.is_control() { ' ' } else { c })
        .take(200)
        .collect();
    if text.chars().count() > 200 {
        format!("{one}…")
    } else {
        one
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Each field is held to its cap, and a bot's responses in one game to theirs together;
    /// an answer over any is OLE.
    #[test]
    fn each_field_and_a_games_responses_are_capped() {
        let caps = |response: usize, field: &str, bytes: usize, so_far: usize| {
            let mut out = json!({ "response": "r".repeat(response) });
            if bytes > 0 {
                out[field] = json!("x".repeat(bytes));
            }
            let a = parse_bot(&[out.to_string()]).unwrap();
            let data = a.data.unwrap_or_else(|| json!(""));
            within_caps(&a.response, &data, a.globaldata.as_ref(), so_far)
        };
        assert_eq!(caps(10, "data", 0, 0), Ok(12));
        for (field, cap) in [
            ("response", RESPONSE_CAP),
            ("data", DATA_CAP),
            ("globaldata", GLOBALDATA_CAP),
        ] {
            let (len, pad) = if field == "response" {
                (cap - 2, 0)
            } else {
                (1, cap - 2)
            };
            assert!(caps(len, field, pad, 0).is_ok(), "{field}");
            let (len, pad) = if field == "response" {
                (cap - 1, 0)
            } else {
                (1, cap - 1)
            };
            let why = caps(len, field, pad, 0).unwrap_err();
            assert!(
                matches!(why, OverCap::Field { bytes, .. } if bytes == cap + 1),
                "{why}"
            );
            assert!(
                why.to_string()
                    .contains(&format!("its {field} is {} bytes", cap + 1)),
                "{why}"
            );
        }
        let near = GAME_RESPONSES_CAP - 12;
        assert!(caps(10, "data", 0, near).is_ok());
        let why = caps(11, "data", 0, near).unwrap_err().to_string();
        assert!(why.contains("in this game come to"), "{why}");
        let fault = Fault::BadReply(why, OUTPUT_LIMIT);
        assert_eq!(verdict(&fault), "OLE");
    }

    #[test]
    fn a_request_and_a_finish() {
        let out = parse_judge(
            r#"{"command":"request","content":{"1":{"x":-1}},"display":"d","initdata":{"s":1}}"#,
            2,
        )
        .unwrap();
        assert_eq!(
            out.command,
            Command::Request(BTreeMap::from([(1, json!({"x": -1}))]))
        );
        assert_eq!(out.display, Some(json!("d")));
        assert_eq!(out.initdata, Some(json!({"s": 1})));
        let out = parse_judge(
            r#"{"command":"finish","content":{"0":2.5,"1":-1,"2":"1"}}"#,
            3,
        )
        .unwrap();
        assert_eq!(out.command, Command::Finish(vec![2.5, -1.0, 1.0]));
    }

    #[test]
    fn a_bad_judge_says_why() {
        let bad = |t: &str| parse_judge(t, 2).unwrap_err().to_string();
        assert!(bad("oops").contains("not JSON"));
        assert!(bad("[1]").contains("\"command\""));
        assert!(bad(r#"{"command":"go"}"#).contains("unknown command \"go\""));
        assert!(bad(r#"{"command":"finish","content":{"0":1}}"#).contains("player 1"));
        assert!(bad(r#"{"command":"finish","content":{"0":1,"1":1,"2":0}}"#).contains("\"2\""));
        assert!(bad(r#"{"command":"finish","content":{"0":1,"1":"x"}}"#).contains("not a number"));
        assert!(bad(r#"{"command":"request","content":{"01":1}}"#).contains("\"01\""));
    }

    #[test]
    fn bots_answer_as_bot_py_reads_them() {
        let lines = |s: &str| vec![s.to_string()];
        let a = parse_bot(&lines(r#"{"response":{"x":1},"debug":"d","data":"k"}"#)).unwrap();
        assert_eq!(a.response, json!({"x": 1}));
        assert_eq!(a.data, Some(json!("k")));
        assert_eq!(a.debug, Some(json!("d")));
        assert_eq!(parse_bot(&lines("[3,4]")).unwrap().response, json!([3, 4]));
        let multi = vec![
            "{".to_string(),
            "\"response\": 7".to_string(),
            "}".to_string(),
        ];
        assert_eq!(parse_bot(&multi).unwrap().response, json!(7));
        let not_json = parse_bot(&lines("3 4")).unwrap_err();
        assert!(matches!(not_json, NotAnswer::NotJson { .. }));
        assert!(not_json.to_string().contains("not JSON"), "{not_json}");
        assert!(matches!(parse_bot(&[]), Err(NotAnswer::Nothing)));
    }

    #[test]
    fn inputs_and_entries_have_botzone_shapes() {
        let input = bot_input(&[json!(1)], &[], &json!(""), &json!(""), 6000, 256);
        assert_eq!(
            serde_json::from_str::<Value>(&input).unwrap(),
            json!({"requests":[1],"responses":[],"time_limit":6,"memory_limit":256})
        );
        let input = bot_input(&[json!(1)], &[], &json!({"a": 1}), &json!("g"), 6000, 256);
        assert_eq!(
            serde_json::from_str::<Value>(&input).unwrap(),
            json!({"requests":[1],"responses":[],"data":{"a":1},"globaldata":"g","time_limit":6,"memory_limit":256})
        );
        for empty in [
            json!(null),
            json!(false),
            json!(0),
            json!(""),
            json!([]),
            json!({}),
        ] {
            assert!(!bot_input(&[], &[], &empty, &empty, 1000, 256).contains("data"));
        }
        assert!(
            bot_input(&[], &[], &json!(""), &json!(""), 1500, 256).contains("\"time_limit\":1.5")
        );
        assert_eq!(
            bot_entry(&Err("TLE"), false, &json!("")),
            json!({"verdict": "TLE", "response": null, "time": 0, "memory": 0,
                   "keep_running": false, "debug": ""})
        );
        assert_eq!(
            bot_entry(&Ok(json!({"x": 1})), true, &json!("d")),
            json!({"verdict": "OK", "response": {"x": 1}, "time": 0, "memory": 0,
                   "keep_running": true, "debug": "d"})
        );
        assert_eq!(capped_debug(None), json!(""));
        assert_eq!(capped_debug(Some(json!({"a": 1}))), json!({"a": 1}));
        let long = capped_debug(Some(json!("x".repeat(DEBUG_CAP + 1))));
        assert!(long.as_str().unwrap().starts_with(&"x".repeat(DEBUG_CAP)));
        assert!(
            long.as_str()
                .unwrap()
                .ends_with("(debug cut at 1024 characters)")
        );
        assert_eq!(
            judge_entry(&json!({"command":"finish"}), false, 3, 0),
            json!({"keep_running":false,"memory":0,"time":3,"verdict":"OK","output":{"command":"finish"}})
        );
        assert_eq!(judge_input(&[], &json!("")), r#"{"initdata":"","log":[]}"#);
    }
}
