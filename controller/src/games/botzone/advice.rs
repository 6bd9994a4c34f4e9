//! What `take6 check` says of a bot's fault in a Botzone game ([`crate::game::Game::advice`]):
//! the judge's request it was answering, and what a correct reply is in the way the bot speaks
//! (JSON, or the game's simple interaction: [`super::simpleio`]).

use serde_json::Value;

use super::record;
use super::simpleio::SimpleIo;
use super::wire;
use crate::game::Advice;
use crate::record::{GameRecord, InvalidRecord};

/// The advice for `fault` of the game in `record`, `reply` the bot's last line if any, `simple`
/// the game's simple interaction if it has one. Untrusted text: `take6 check` shows it through
/// crate::untrusted::terminal.
pub fn of(
    record: &GameRecord,
    fault: &InvalidRecord,
    reply: Option<&str>,
    simple: Option<&SimpleIo>,
) -> Advice {
    let step = fault.turn as usize;
    let printed = reply.map_or(String::new(), |r| {
        format!("; it printed {:?}", wire::excerpt(r))
    });
    let simple = simple.filter(|_| record::speaks_simple(record, fault.seat));
    let request = record::request_of(record, fault.seat, step);
    let asked = match (&request, simple) {
        (Some((request, n)), Some(io)) => format!(
            "answering the judge's request at step {step}, its request {n} of the game: {} \
             (the line {:?} in simple interaction)",
            wire::excerpt(&request.to_string()),
            line_of(io, request)
        ),
        (Some((request, n)), None) => format!(
            "answering the judge's request at step {step}, its request {n} of the game: {}",
            wire::excerpt(&request.to_string())
        ),
        (None, _) => format!("answering the judge's request at step {step} (not in the record)"),
    };
    let correct = match simple {
        Some(io) => format!(
            "in Botzone's simple interaction, the response as one line (not JSON){}, then \
             optionally a debug line, a data line and globaldata lines, printed before it \
             exits, or followed by {} to be kept running{printed}",
            example(io, record, fault.seat),
            wire::KEEP_RUNNING
        ),
        None => format!(
            "one line of JSON, {{\"response\": ...}} (or the response itself), printed before \
             it exits, or followed by {} to be kept running{printed}",
            wire::KEEP_RUNNING
        ),
    };
    Advice { asked, correct }
}

/// The line a simple-interaction bot reads for `request` (the game's `request_from_json`),
/// or why there is none.
fn line_of(io: &SimpleIo, request: &Value) -> String {
    let converted = io.request_line(request, std::time::Duration::from_secs(2));
    match converted.value {
        Ok(line) => wire::excerpt(&line),
        Err(why) => format!("none: {why}"),
    }
}

/// An example of a correct response line: a response of the game's log the judge accepted
/// (the seat's own first, else any seat's), as the game's `response_from_json` writes it.
fn example(io: &SimpleIo, record: &GameRecord, seat: usize) -> String {
    let Some(response) = record::accepted_response(record, seat) else {
        return String::new();
    };
    match io.response_line(&response) {
        Ok(line) => format!(", e.g. {:?}", wire::excerpt(&line)),
        Err(_) => String::new(),
    }
}
