//! Botzone's simple interaction (简单交互): a bot that chose it (`bot.toml` `simple_io = true`)
//! reads and writes plain lines instead of JSON, and the game converts between the two with
//! three JavaScript function bodies, as Botzone defines them per game (botzone-local's
//! `games.py`, `transform_code`): `request_from_json(request)` makes the line a bot reads from
//! the judge's request, `response_to_json(response)` the judge's JSON from the line a bot
//! answers, `response_from_json(response)` the reverse (for people). A game folder carries
//! them in `game.toml`'s `[simpleio]` table, verbatim.
//!
//! What a bot reads and answers, as `bot.py` builds and reads it:
//! - started afresh, its input is the turn number `n`, then its requests and its own
//!   responses alternately (`n` requests, `n - 1` responses, each one line), then its `data`
//!   and its `globaldata`, each only when it holds something;
//! - kept running, only the new request, one line;
//! - its output: the response on its first line, then optionally its debug, its data, and its
//!   globaldata (the rest of its lines).
//!
//! The functions run in QuickJS embedded in take6 (`rquickjs`), a fresh runtime for every
//! call, with no host functions at all (no files, no network, no processes: ECMAScript's own
//! objects only), at most [`MEMORY`] bytes of memory and [`STACK`] of stack. A conversion for a
//! bot runs on the bot's time: it may use what is left of the bot's turn limit in CPU time of
//! the thread that runs it (and [`WALL_FACTOR`] times that in wall time), the caller counts
//! what it used against the bot's limit, and one that runs over is interrupted. See
//! docs/botzone.md (Simple interaction) for why here and not in the sandbox.

use std::time::{Duration, Instant};

use rquickjs::{Context, Ctx, Function, Runtime};
use serde::Deserialize;
use serde_json::Value;

/// The most memory one call's runtime may allocate.
const MEMORY: usize = 64 << 20;
/// The most stack one call may use.
const STACK: usize = 1 << 20;
/// The longest a call made for no bot may run (compiling the functions, a person's response
/// shown as a line).
const TIME: Duration = Duration::from_secs(2);
/// How much more wall time than its CPU budget a call may take (a loaded machine).
const WALL_FACTOR: u32 = 3;

/// Why a conversion gave nothing.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum Failure {
    /// It ran over its budget of CPU time (`budget`, on the bot's time): interrupted, or
    /// finished too late.
    #[error(
        "ran over the {} ms of CPU time it had (it used {} ms)",
        budget.as_millis(),
        used.as_millis()
    )]
    Over { budget: Duration, used: Duration },
    /// A function returned a line feed in a line (it would shift every line after it).
    #[error("{name} returned several lines: {excerpt}")]
    SeveralLines { name: &'static str, excerpt: String },
    /// The function failed (a syntax error, an exception, a value that cannot be used).
    #[error("{0}")]
    Failed(String),
}

/// A simple-interaction bot printed nothing.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error(
    "printed nothing before it ended; a simple-interaction response is one line (then \
     optionally debug, data and globaldata lines)"
)]
pub struct NothingPrinted;

/// What one conversion gave, and the CPU time it used.
pub struct Converted<T> {
    pub value: Result<T, Failure>,
    pub cpu: Duration,
}
/// The longest text a call may return.
const RESULT_CAP: usize = 1 << 20;

/// The three function bodies of `game.toml`'s `[simpleio]`, as written.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SimpleIo {
    pub request_from_json: String,
    pub response_to_json: String,
    pub response_from_json: String,
}

/// The three functions' parameter names, as `game.py` declares them.
const PARAMS: [(&str, &str); 3] = [
    ("request_from_json", "request"),
    ("response_to_json", "response"),
    ("response_from_json", "response"),
];

impl SimpleIo {
    /// Compiles the three bodies once: the first syntax error, named by its key.
    pub fn check(&self) -> Result<(), Failure> {
        for (name, _) in PARAMS {
            run(self, name, None, TIME).value?;
        }
        Ok(())
    }

    /// The line a bot reads for the judge's `request`, within `budget` of CPU time.
    pub fn request_line(&self, request: &Value, budget: Duration) -> Converted<String> {
        let ran = run(
            self,
            "request_from_json",
            Some(&request.to_string()),
            budget,
        );
        Converted {
            value: ran
                .value
                .and_then(|text| one_line("request_from_json", text)),
            cpu: ran.cpu,
        }
    }

    /// The judge's JSON for the line `response` a bot answered, within `budget` of CPU time.
    pub fn response_value(&self, response: &str, budget: Duration) -> Converted<Value> {
        let arg = Value::String(response.to_string()).to_string();
        let ran = run(self, "response_to_json", Some(&arg), budget);
        Converted {
            value: ran.value.and_then(|json| {
                serde_json::from_str(&json)
                    .map_err(|e| Failure::Failed(format!("response_to_json's value: {e}")))
            }),
            cpu: ran.cpu,
        }
    }

    /// The line a bot would answer for the judge's JSON `response` (a person's response, shown
    /// as a simple-interaction bot would print it).
    pub fn response_line(&self, response: &Value) -> Result<String, Failure> {
        let text = run(
            self,
            "response_from_json",
            Some(&response.to_string()),
            TIME,
        )
        .value?;
        one_line("response_from_json", text)
    }

    fn body(&self, name: &str) -> &str {
        match name {
            "request_from_json" => &self.request_from_json,
            "response_to_json" => &self.response_to_json,
            _ => &self.response_from_json,
        }
    }
}

/// A line as a bot reads it: what a function returned, one line (a line feed would shift
/// every line after it).
fn one_line(name: &'static str, text: String) -> Result<String, Failure> {
    if text.contains('\n') {
        return Err(Failure::SeveralLines {
            name,
            excerpt: super::wire::excerpt(&text),
        });
    }
    Ok(text)
}

/// Calls the function `name` of `io` in a fresh runtime with the JSON text `arg` as its one
/// argument (none: only compiled), within `budget` of this thread's CPU time (and
/// [`WALL_FACTOR`] times that of wall time): its text and the CPU time the call used, runtime
/// and all. A function that turns JSON into a line returns its result as a string
/// (`String(result)`); `response_to_json` as JSON text (`undefined`: `null`).
fn run(io: &SimpleIo, name: &str, arg: Option<&str>, budget: Duration) -> Converted<String> {
    let cpu = crate::player::process::thread_cpu_us;
    let start = cpu();
    let value = run_within(io, name, arg, budget, start);
    let used = Duration::from_micros(cpu().saturating_sub(start));
    let value = match value {
        _ if used > budget => Err(Failure::Over { budget, used }),
        Err(Failure::Over { .. }) => Err(Failure::Over { budget, used }),
        other => other,
    };
    Converted { value, cpu: used }
}

fn run_within(
    io: &SimpleIo,
    name: &str,
    arg: Option<&str>,
    budget: Duration,
    start_cpu_us: u64,
) -> Result<String, Failure> {
    let failed = Failure::Failed;
    let runtime = Runtime::new().map_err(|e| failed(format!("cannot start JavaScript: {e}")))?;
    runtime.set_memory_limit(MEMORY);
    runtime.set_max_stack_size(STACK);
    let wall = Instant::now() + budget * WALL_FACTOR;
    let budget_us = budget.as_micros() as u64;
    let over = move || {
        crate::player::process::thread_cpu_us().saturating_sub(start_cpu_us) > budget_us
            || Instant::now() > wall
    };
    runtime.set_interrupt_handler(Some(Box::new(over)));
    let context =
        Context::full(&runtime).map_err(|e| failed(format!("cannot start JavaScript: {e}")))?;
    let param = PARAMS.iter().find(|(n, _)| *n == name).map_or("x", |p| p.1);
    context.with(|ctx| {
        let source = format!("(function({param}){{{}\n}})", io.body(name));
        let function: Function = ctx
            .eval(source)
            .map_err(|e| failed(format!("[simpleio] {name}: {}", caught(&ctx, e))))?;
        let Some(arg) = arg else {
            return Ok(String::new());
        };
        let arg = ctx
            .json_parse(arg)
            .map_err(|e| failed(format!("{name}'s argument: {}", caught(&ctx, e))))?;
        let result: rquickjs::Value = function.call((arg,)).map_err(|e| {
            let why = caught(&ctx, e);
            if over() {
                Failure::Over {
                    budget,
                    used: Duration::ZERO,
                }
            } else {
                failed(format!("{name} failed: {why}"))
            }
        })?;
        let text = if name == "response_to_json" {
            match ctx.json_stringify(result) {
                Ok(Some(s)) => s.to_string(),
                Ok(None) => Ok("null".to_string()),
                Err(e) => Err(e),
            }
        } else {
            let string: Function = (ctx.globals().get("String"))
                .map_err(|e: rquickjs::Error| failed(e.to_string()))?;
            string.call::<_, String>((result,))
        }
        .map_err(|e| failed(format!("{name}'s value: {}", caught(&ctx, e))))?;
        if text.len() > RESULT_CAP {
            return Err(failed(format!("{name} returned over {RESULT_CAP} bytes")));
        }
        Ok(text)
    })
}

/// The JavaScript exception behind `error`, as text.
fn caught(ctx: &Ctx<'_>, error: rquickjs::Error) -> String {
    if error.is_exception() {
        let exception = ctx.catch();
        if let Some(e) = exception.as_exception() {
            return format!("{}", e).trim().to_string();
        }
        if let Ok(s) = exception.get::<String>() {
            return s;
        }
    }
    error.to_string()
}

/// A simple-interaction bot's input for a turn that starts it: the turn number, its requests
/// (as lines) and its responses (as it wrote them) alternately, then its data and its
/// globaldata when they hold something (`bot.py`).
pub fn input(requests: &[String], responses: &[String], data: &str, globaldata: &str) -> String {
    let mut lines = vec![requests.len().to_string()];
    for (i, request) in requests.iter().enumerate() {
        lines.push(request.clone());
        if let Some(response) = responses.get(i).filter(|_| i + 1 < requests.len()) {
            lines.push(response.clone());
        }
    }
    for extra in [data, globaldata] {
        if !extra.is_empty() {
            lines.push(extra.to_string());
        }
    }
    lines.join("\n")
}

/// What a simple-interaction bot answered: its output's lines (before the keep-running
/// marker), read as `bot.py` reads them.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Answer {
    /// The first line: the response as the bot wrote it (its history keeps it so).
    pub response: String,
    pub debug: Option<String>,
    pub data: Option<String>,
    /// The rest of its lines, joined.
    pub globaldata: Option<String>,
}

/// Reads a simple-interaction bot's output `lines`.
pub fn answer(lines: &[String]) -> Result<Answer, NothingPrinted> {
    let Some(response) = lines.first() else {
        return Err(NothingPrinted);
    };
    Ok(Answer {
        response: response.clone(),
        debug: lines.get(1).cloned(),
        data: lines.get(2).cloned(),
        globaldata: (lines.len() > 3).then(|| lines[3..].join("\n")),
    })
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    /// Reversi's transform, verbatim from botzone-local's games.py.
    pub fn reversi() -> SimpleIo {
        SimpleIo {
            request_from_json: "return request.x+' '+request.y;".into(),
            response_to_json: "var parts = response.split(' ').map(function (x) { return parseInt(x) });\nreturn {x:parts[0],y:parts[1]};".into(),
            response_from_json: "return response.x+' '+response.y;".into(),
        }
    }

    #[test]
    fn reversis_transform_converts_both_ways() {
        let io = reversi();
        io.check().unwrap();
        assert_eq!(
            io.request_line(&json!({"x": -1, "y": -1}), TIME)
                .value
                .unwrap(),
            "-1 -1"
        );
        assert_eq!(
            io.response_value("2 4", TIME).value.unwrap(),
            json!({"x": 2, "y": 4})
        );
        assert_eq!(io.response_line(&json!({"x": 2, "y": 4})).unwrap(), "2 4");
        // parseInt of nothing is NaN, which JSON writes as null, and y is undefined, which it
        // leaves out: the judge decides.
        assert_eq!(
            io.response_value("", TIME).value.unwrap(),
            json!({"x": null})
        );
    }

    #[test]
    fn a_bad_transform_is_named_and_bounded() {
        let mut io = reversi();
        io.response_to_json = "return {x:".into();
        let why = io.check().unwrap_err();
        assert!(matches!(why, Failure::Failed(_)), "{why}");
        assert!(
            why.to_string().contains("[simpleio] response_to_json"),
            "{why}"
        );
        let mut io = reversi();
        io.request_from_json = "while (true) {}".into();
        let budget = Duration::from_millis(200);
        let line = |io: &SimpleIo| io.request_line(&json!({}), budget).value;
        let ran = io.request_line(&json!({}), budget);
        assert!(
            matches!(ran.value, Err(Failure::Over { .. })),
            "{:?}",
            ran.value
        );
        io.request_from_json = "var a = []; while (true) a.push(new Array(1e6).fill(1));".into();
        let why = io.request_line(&json!({}), TIME).value.unwrap_err();
        assert!(why.to_string().contains("failed"), "{why}");
        io.request_from_json = "throw new Error('no such move');".into();
        let why = line(&io).unwrap_err();
        assert!(why.to_string().contains("no such move"), "{why}");
        io.request_from_json = "return 'a\\nb';".into();
        let why = line(&io).unwrap_err();
        assert!(matches!(why, Failure::SeveralLines { .. }), "{why}");
        assert!(why.to_string().contains("several lines"), "{why}");
        // Nothing of the host is there.
        io.request_from_json = "return typeof require + typeof process + typeof std;".into();
        assert_eq!(line(&io).unwrap(), "undefinedundefinedundefined");
    }

    #[test]
    fn inputs_and_answers_are_bot_pys() {
        let reqs = ["-1 -1".to_string(), "2 3".to_string()];
        let resps = ["4 5".to_string()];
        assert_eq!(input(&reqs[..1], &[], "", ""), "1\n-1 -1");
        assert_eq!(input(&reqs, &resps, "d", ""), "2\n-1 -1\n4 5\n2 3\nd");
        assert_eq!(input(&reqs, &resps, "", "g"), "2\n-1 -1\n4 5\n2 3\ng");
        let lines = |v: &[&str]| v.iter().map(|s| s.to_string()).collect::<Vec<_>>();
        let a = answer(&lines(&["1 2", "dbg", "dat", "g1", "g2"])).unwrap();
        assert_eq!(a.response, "1 2");
        assert_eq!(a.debug.as_deref(), Some("dbg"));
        assert_eq!(a.data.as_deref(), Some("dat"));
        assert_eq!(a.globaldata.as_deref(), Some("g1\ng2"));
        assert_eq!(answer(&lines(&["1 2"])).unwrap().data, None);
        assert!(answer(&[]).is_err());
    }
}
