//! A bot's answer read as its way of speaking says (Botzone's JSON, or simple interaction's
//! lines converted by the game's functions, [`super::simpleio`]), and the conversions run off
//! the async threads on the bot's time.

use std::sync::Arc;
use std::time::Duration;

use serde_json::Value;

use super::simpleio::{self, SimpleIo};
use super::wire;
use crate::player::Fault;

/// What a bot answered in one turn, whichever way it speaks.
pub struct Reply {
    /// The response, as the judge reads it.
    pub response: Value,
    /// Simple interaction: the response as the bot wrote it (its history keeps that).
    pub said: Option<String>,
    pub debug: Option<Value>,
    /// Kept for its next turn of this game ("" for none).
    pub data: Value,
    pub globaldata: Option<Value>,
}

/// The fault of a bot whose conversion (`function`, converting `what`) ran over what was left
/// of its turn's limit.
pub fn conversion_over(function: &str, what: &str, over: &simpleio::Failure) -> Fault {
    Fault::BadReply(
        format!(
            "the game's [simpleio] {function}, converting {what}, {over}: a simple-interaction \
             bot's conversions run on its own time, within its turn's limit"
        ),
        "timeout",
    )
}

/// How a bot speaks, as it chose on Botzone (`bot.toml` `simple_io`).
#[derive(Clone)]
pub enum BotIo {
    /// Botzone's JSON protocol.
    Json,
    /// Simple interaction (plain lines), through the game's `[simpleio]` functions.
    Simple(Arc<SimpleIo>),
    /// It chose simple interaction and the game has none: each of its turns faults, saying so.
    NoSimple,
}

/// Reads a bot's output `lines` (before the keep-running marker) as its way of speaking says:
/// JSON, or simple interaction's lines with the response converted by the game's function
/// within `left` of CPU time (what is left of the bot's turn). The bot's fault when it cannot.
pub async fn read(io: &BotIo, lines: Vec<String>, left: Duration) -> Result<Reply, Fault> {
    let bad = |why: String| Fault::BadReply(why, "bad_reply");
    match io {
        BotIo::Simple(simple) => {
            let answer = simpleio::answer(&lines).map_err(|e| bad(e.to_string()))?;
            let said = answer.response.clone();
            let converted = convert(simple, move |io| io.response_value(&said, left)).await;
            let response = match converted.value {
                Ok(response) => response,
                Err(over @ simpleio::Failure::Over { .. }) => {
                    let what = format!("its response line {:?}", wire::excerpt(&answer.response));
                    return Err(conversion_over("response_to_json", &what, &over));
                }
                Err(why) => {
                    return Err(bad(format!(
                        "its response line {:?} cannot be read by the game: {why}",
                        wire::excerpt(&answer.response)
                    )));
                }
            };
            Ok(Reply {
                response,
                said: Some(answer.response),
                debug: answer.debug.map(Value::String),
                data: Value::String(answer.data.unwrap_or_default()),
                globaldata: answer.globaldata.map(Value::String),
            })
        }
        _ => {
            let answer = wire::parse_bot(&lines).map_err(|e| bad(e.to_string()))?;
            Ok(Reply {
                response: answer.response,
                said: None,
                debug: answer.debug,
                data: answer.data.unwrap_or_else(|| Value::String(String::new())),
                globaldata: answer.globaldata,
            })
        }
    }
}

/// Runs one of the game's simple-interaction functions off the async threads (it may run up
/// to its budget).
pub async fn convert<T: Send + 'static>(
    simple: &Arc<SimpleIo>,
    call: impl FnOnce(&SimpleIo) -> simpleio::Converted<T> + Send + 'static,
) -> simpleio::Converted<T> {
    let io = Arc::clone(simple);
    tokio::task::spawn_blocking(move || call(&io))
        .await
        .unwrap_or_else(|e| simpleio::Converted {
            value: Err(simpleio::Failure::Failed(format!(
                "the conversion failed: {e}"
            ))),
            cpu: Duration::ZERO,
        })
}

/// A value as one line of a simple-interaction bot's input: a string as it is, nothing for
/// an empty value, anything else as JSON.
pub fn line(value: &Value) -> String {
    match value {
        Value::String(s) => s.clone(),
        v if !wire::truthy(v) => String::new(),
        v => v.to_string(),
    }
}
