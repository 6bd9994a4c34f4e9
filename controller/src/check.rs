//! `take6 check DIR`: a bot author's test run. The bot is copied (its folder is only read),
//! built and played against the built-ins through the normal series path, with its messages
//! and replies recorded; then [`report`] says what it was sent, what it answered and when,
//! each fault with what a correct reply would have been, its reply times against the limits
//! and its mean score against the built-ins.

use crate::untrusted;
use itertools::Itertools;
use std::fmt::Write;
use std::path::{Path, PathBuf};

use crate::config::Settings;
use crate::player::transcript::{Said, Speaker};
use crate::record::{GameRecord, Standing};
use crate::report::SeriesFacts;

/// The bot cannot be checked.
#[derive(Debug, thiserror::Error)]
pub enum CheckError {
    #[error("{0} does not exist; give the path of a bot folder")]
    Missing(PathBuf),
    #[error(
        "{0} is not a bot folder: it has no 'launch' (a bot folder holds an executable \
         'launch', or source take6 writes one for: see the README, Source folders without \
         launch)"
    )]
    NotAFolder(PathBuf),
    #[error("{0} is a file, not a folder; give the bot's folder (the one holding 'launch')")]
    NotADirectory(PathBuf),
    #[error(
        "the game {0} has no judge of its own to check; give a bot's folder to check a bot \
         (take6 check --game GAME DIR), or --game a game folder to check its judge"
    )]
    NoJudge(String),
}

/// The bot folders directly in `dir` when `dir` is not a bot folder itself but holds some (a
/// course's `submissions/`): each subfolder, sorted by name, hidden ones left out. `None` when
/// `dir` is a bot folder, or holds none.
pub fn folders_of_bots(dir: &Path) -> Option<Vec<PathBuf>> {
    if crate::bots::is_bot_folder(dir) {
        return None;
    }
    let mut folders: Vec<PathBuf> = std::fs::read_dir(dir)
        .ok()?
        .flatten()
        .filter(|e| !e.file_name().to_string_lossy().starts_with('.'))
        .filter(|e| e.file_type().is_ok_and(|t| t.is_dir()))
        .map(|e| e.path())
        .collect();
    folders.sort();
    folders
        .iter()
        .any(|f| crate::bots::is_bot_folder(f))
        .then_some(folders)
}

/// What one bot's `take6 check` said, in a line: whether it passed, and else the first thing
/// to fix (its first fault with the turn, why it stopped, or the error that kept it from
/// playing), taken from what the check printed. `passed` is its exit status's word.
pub fn verdict_line(passed: bool, stdout: &str, stderr: &str) -> String {
    let first = |text: &str, prefix: &str| {
        text.lines()
            .find_map(|l| l.strip_prefix(prefix))
            .map(str::to_string)
    };
    if passed {
        return first(stdout, "OK").map_or("OK".into(), |rest| format!("OK{rest}"));
    }
    let parts: Vec<String> = [
        Some(first(stdout, "FAILED").map_or("FAILED".into(), |rest| format!("FAILED{rest}"))),
        first(stdout, "FAULT in ").map(|f| format!("first fault in {f}")),
        first(stderr, "error: "),
    ]
    .into_iter()
    .flatten()
    .map(|p| p.trim_end_matches('.').to_string())
    .collect();
    parts.join("; ").chars().take(400).collect()
}

/// Whether `game` has a judge `take6 check --game FOLDER` can check (a game folder's).
pub fn judge_checkable(game: &crate::game::GameRef) -> Result<(), CheckError> {
    if game.code().is_some() {
        Ok(())
    } else {
        Err(CheckError::NoJudge(game.name().to_string()))
    }
}

/// The fault kind of a seat whose response a Botzone judge failed on.
const JUDGE_FAILED: &str = "judge_failed";

/// The check of a game folder's judge, once its padding bots played it in the series in
/// `dir`: the first game's log step by step (requests, responses, displays, the finish),
/// each game's end (scores, or why it was void, with the judge's stderr) and the padding
/// bots' faults; and whether it passed (the judge failed in no game).
pub fn judge_report(dir: &Path) -> (String, bool) {
    let mut out = String::new();
    let games: Vec<GameRecord> = crate::door::open_path(&dir.join("games.jsonl"))
        .ok()
        .and_then(|f| crate::record::read_games_jsonl(std::io::BufReader::new(f)).ok())
        .unwrap_or_default();
    let mut games: Vec<&GameRecord> = games.iter().collect();
    games.sort_by_key(|g| g.game);
    let Some(first) = games.first() else {
        out.push_str("\nFAILED: no game was played.\n");
        return (out, false);
    };
    let _ = writeln!(
        out,
        "\nThe judge's log of game {} ({}):",
        first.game,
        first.players.join(", ")
    );
    match first.game_ref() {
        Ok(game) => out.push_str(&game.replay_text(first)),
        Err(e) => {
            let _ = writeln!(out, "{e}");
        }
    }
    out.push_str("\nEvery game:\n");
    let mut void = 0;
    for g in &games {
        // A judge that failed on a response is the responding bot's fault in a series; here,
        // where the judge is checked, it failed all the same.
        let judge_failed = g.faults().any(|(_, f)| f.kind == JUDGE_FAILED);
        let end = match &g.void {
            Some(why) => {
                void += 1;
                format!("VOID: {why}")
            }
            None if judge_failed => {
                void += 1;
                "JUDGE FAILED on the responses of the step its fault names (the responding bot's \
                 fault in a series)"
                    .to_string()
            }
            None => format!("scores {}", shown_scores(&g.total_scores())),
        };
        let _ = writeln!(out, "  game {} ({}): {end}", g.game, g.players.join(", "));
        for (_, f) in g.faults() {
            let who = g.players.get(f.seat).map_or("?", String::as_str);
            let _ = writeln!(
                out,
                "    fault of {who} at step {}: {} ({})",
                f.turn, f.reason, f.kind
            );
        }
    }
    let played = crate::names::count(games.len() as u64, "game");
    if void == 0 {
        let _ = writeln!(out, "\nOK: the judge finished every one of {played}.");
    } else {
        let _ = writeln!(
            out,
            "\nFAILED: the judge failed in {} of {played} (void, or on a response).",
            void
        );
    }
    (out, void == 0)
}

/// The bot to check: its own folder, which the series takes as its `--bots` (a bot folder
/// stands for a series of that one bot). Nothing is copied here: the series copies the folder
/// into its working copy as for any bot, so no temporary folder of the check's own is ever
/// shown to the author.
#[derive(Debug)]
pub struct Staged {
    /// The bot's own folder.
    pub bots: PathBuf,
    /// The bot's name: its folder's name.
    pub name: String,
}

impl Staged {
    /// Checks that `bot` is a bot folder (reading it only) and names the bot.
    pub fn new(bot: &Path) -> Result<Staged, CheckError> {
        if !bot.exists() {
            return Err(CheckError::Missing(bot.to_path_buf()));
        }
        if !bot.is_dir() {
            return Err(CheckError::NotADirectory(bot.to_path_buf()));
        }
        if !crate::bots::is_bot_folder(bot) {
            return Err(CheckError::NotAFolder(bot.to_path_buf()));
        }
        let name = crate::bots::own_folder(bot)
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .ok_or_else(|| CheckError::NotAFolder(bot.to_path_buf()))?;
        Ok(Staged {
            bots: bot.to_path_buf(),
            name,
        })
    }
}

/// The value at quantile `q` of sorted `values`.
fn quantile(values: &[f64], q: f64) -> f64 {
    let i = ((values.len() - 1) as f64 * q).round() as usize;
    values[i]
}

/// A message or reply as a transcript line: time since start, direction, text.
fn said_lines(s: &Said) -> String {
    said_lines_since(None, s)
}

/// A message or reply as [`said_lines`] prints it; a message that resends the lines of the one
/// before it, `before` (Botzone's simple interaction: a bot started afresh reads its turn
/// number, then its whole history, every turn), shown by its turn number, how many lines it
/// repeats, and the new ones.
fn said_lines_since(before: Option<&Said>, s: &Said) -> String {
    let arrow = match s.speaker {
        Speaker::Controller => '>',
        Speaker::Bot => '<',
    };
    let lines: Vec<&str> = s.text.lines().collect();
    // Its turn number is the one before's plus one.
    let turn = |t: &str| t.lines().next().and_then(|l| l.parse::<u64>().ok());
    let repeated = match before {
        Some(b)
            if s.speaker == Speaker::Controller
                && turn(&b.text)
                    .zip(turn(&s.text))
                    .is_some_and(|(a, n)| a + 1 == n) =>
        {
            let old = b.text.lines().skip(1);
            old.zip(lines.iter().skip(1))
                .take_while(|(a, b)| a == *b)
                .count()
        }
        _ => 0,
    };
    let mut out = String::new();
    for (i, line) in lines.iter().enumerate() {
        if repeated > 0 && (1..=repeated).contains(&i) {
            if i == 1 {
                let _ = writeln!(
                    out,
                    "  {}  {arrow} ({} as in its last input, not shown)",
                    " ".repeat(12),
                    crate::names::count(repeated as u64, "line")
                );
            }
            continue;
        }
        let time = if i == 0 {
            format!("{:>9.1} ms", s.at_ms)
        } else {
            " ".repeat(12)
        };
        let took = match (i, s.reply_ms) {
            (0, Some(ms)) => format!("   (replied in {ms:.1} ms)"),
            _ => String::new(),
        };
        let line = untrusted::terminal(line);
        let _ = writeln!(out, "  {time}  {arrow} {line}{took}");
    }
    out
}

/// The check's verdict for `bot` in the series in `dir`: the text to print and whether it
/// passed (it played and never faulted).
pub fn report(dir: &Path, bot: &str, settings: &Settings, said: &[Said]) -> (String, bool) {
    let mut out = String::new();
    let facts = SeriesFacts::from_manifest(
        &crate::series::dir::read_file(dir, "series.toml", crate::series::dir::MANIFEST_CAP)
            .ok()
            .and_then(|b| String::from_utf8(b).ok())
            .unwrap_or_default(),
    );
    let games: Vec<GameRecord> = crate::door::open_path(&dir.join("games.jsonl"))
        .ok()
        .and_then(|f| crate::record::read_games_jsonl(std::io::BufReader::new(f)).ok())
        .unwrap_or_default();
    let mut mine: Vec<(&GameRecord, usize)> = games
        .iter()
        .filter_map(|g| Some((g, g.players.iter().position(|p| p == bot)?)))
        .collect();
    mine.sort_by_key(|(g, _)| g.game);
    out.push_str(&generated(dir, bot));
    // A name refused for what it holds (an invisible character, say) is recorded as shown.
    let shown = untrusted::terminal(bot);
    if let Some(skip) = facts
        .skipped
        .iter()
        .find(|s| s.name == bot || s.name == shown)
    {
        out.push_str(&did_not_play(dir, bot, &shown, &skip.reason));
        return (out, false);
    }
    if mine.is_empty() {
        out.push_str("\nFAILED: no game was played.\n");
        return (out, false);
    }

    let first = mine.iter().map(|(g, _)| g.game).min().unwrap_or(0);
    let _ = writeln!(
        out,
        "\nTranscript of game {first} (> sent to {bot}, < its replies; times since it started):"
    );
    let mut before = None;
    for s in said.iter().filter(|s| s.game == first) {
        out.push_str(&said_lines_since(before, s));
        if s.speaker == Speaker::Controller {
            before = Some(s);
        }
    }

    let mut faults = 0;
    for (g, seat) in &mine {
        for f in g.first().invalid.iter().filter(|f| f.seat == *seat) {
            faults += 1;
            out.push_str(&fault_text(dir, bot, settings, said, g, f));
        }
    }

    let (ended, last_words) = judge_ends(settings, &mine);
    out.push_str(&last_words);
    if let Some(hint) = another_game(settings, &mine) {
        out.push_str(&hint);
    }
    let refused = refusals(settings, &mine);
    out.push_str(&refused.text);
    out.push_str(&reply_times(
        &mine,
        settings,
        &limits_of(dir, bot, settings),
    ));
    out.push_str(&scores(&games, bot, &settings.game));
    if let Some(stop) = stopped_early(&mine, settings.games) {
        out.push_str(&stop);
    }
    out.push_str(&void_games(&mine));
    let (last, passed) = verdict(&mine, faults, ended, &refused);
    out.push_str(&last);
    (out, passed)
}

/// Why a bot that never played was skipped, with its build output when there is one.
fn did_not_play(dir: &Path, bot: &str, shown: &str, reason: &str) -> String {
    let mut out = String::new();
    let _ = writeln!(
        out,
        "\n{shown} did not play: {}",
        untrusted::terminal_text(reason)
    );
    let log = dir.join("logs").join(format!("{bot}.build.log"));
    if let Ok(text) = crate::door::open_path(&log).and_then(|mut f| {
        let mut text = Vec::new();
        std::io::Read::read_to_end(&mut f, &mut text).map(|_| text)
    }) {
        let _ = writeln!(out, "\nBuild output ({}):", log.display());
        for line in untrusted::terminal_lines(&text) {
            let _ = writeln!(out, "{line}");
        }
    }
    out.push_str("\nFAILED: the bot could not play.\n");
    out
}

/// The closing line of a check over the games the bot played, and whether it passed:
/// void games, early ends by the judge and refusals of every move fail it as faults do.
fn verdict(
    mine: &[(&GameRecord, usize)],
    faults: u64,
    ended: u64,
    refused: &Refused,
) -> (String, bool) {
    let mut out = String::new();
    let games = crate::names::count(mine.len() as u64, "game");
    let void = mine.iter().filter(|(g, _)| !g.scored()).count() as u64;
    if void > 0 {
        let _ = writeln!(
            out,
            "\nFAILED: {} of {games} void: the judge failed (its reasons above), so {} says \
             nothing of the bot. Fix the game folder's judge (take6 check --game FOLDER checks \
             it alone) and check again.",
            void,
            if void == 1 {
                "that game"
            } else {
                "those games"
            }
        );
        return (out, false);
    }
    if faults == 0 && ended > 0 {
        let _ = writeln!(
            out,
            "\nFAILED: no fault, but the judge ended {ended} of {games} early for it (its last \
             words above say why)."
        );
        return (out, false);
    }
    if faults == 0 && refused.all {
        let _ = writeln!(
            out,
            "\nFAILED: no fault in {games}, but the rules refused every one of its {}.",
            refused.what
        );
        return (out, false);
    }
    if faults == 0 {
        let _ = writeln!(out, "\nOK: no fault in {games}{}.", refused.note);
    } else {
        let _ = writeln!(
            out,
            "\nFAILED: {} in {}.",
            crate::names::count(faults, "fault"),
            games
        );
    }
    (out, faults == 0)
}

/// The games of `mine` that were void (their judge failed: not scored), each with why.
fn void_games(mine: &[(&GameRecord, usize)]) -> String {
    let mut out = String::new();
    for (g, _) in mine {
        if let Some(why) = &g.void {
            if out.is_empty() {
                out.push_str("\nVoid games (the judge failed; not scored):\n");
            }
            let _ = writeln!(out, "  game {}: {}", g.game, untrusted::terminal(why));
        }
    }
    out
}

/// What the game's judge said at the end of each game the bot lost ([`crate::game::Game::
/// judge_end`]), and how many it ended early for the bot (an invalid move the judge saw, which
/// take6 cannot: no fault of the bot's, but a lost game).
fn judge_ends(settings: &Settings, mine: &[(&GameRecord, usize)]) -> (u64, String) {
    let mut out = String::new();
    let mut ended = 0;
    for (g, seat) in mine {
        let scores = g.total_scores();
        let best = scores.iter().copied().max().unwrap_or_default();
        if g.void.is_some() || scores.get(*seat).is_none_or(|&s| s >= best) {
            continue;
        }
        let Some(end) = settings.game.code().and_then(|c| c.judge_end(g, *seat)) else {
            continue;
        };
        if out.is_empty() {
            out.push_str("\nThe judge's last words in each game the bot lost:\n");
        }
        ended += u64::from(end.ended_for_it);
        let _ = writeln!(
            out,
            "  game {} (scores {}){}: {}",
            g.game,
            shown_scores(&scores),
            if end.ended_for_it {
                ", ENDED EARLY for it"
            } else {
                ""
            },
            untrusted::terminal(&end.said)
        );
    }
    (ended, out)
}

/// One fault of the bot in game `g`, for its author: what it was answering, what it replied,
/// what a correct reply would have been ([`crate::game::Game::advice`]), and its stderr.
fn fault_text(
    dir: &Path,
    bot: &str,
    settings: &Settings,
    said: &[Said],
    g: &GameRecord,
    f: &crate::record::InvalidRecord,
) -> String {
    let mut out = String::new();
    let lines: Vec<&Said> = said
        .iter()
        .filter(|s| s.game == g.game && !s.text.starts_with("invalid"))
        .collect();
    // Its reply: the lines it wrote since the last message (a Kingdomino reply is two).
    let replied = lines
        .iter()
        .rev()
        .take_while(|s| s.speaker == Speaker::Bot)
        .count();
    let reply = &lines[lines.len() - replied..];
    let advice = (settings.game).advice(g, f, reply.last().map(|r| r.text.as_str()));
    let _ = writeln!(
        out,
        "\nFAULT in game {}, turn {} ({}): {} [{}]",
        g.game,
        f.turn,
        untrusted::terminal(&advice.asked),
        untrusted::terminal(&f.reason),
        untrusted::terminal(&f.kind)
    );
    let mut asked = (lines.iter().rev().skip(replied)).filter(|s| s.speaker == Speaker::Controller);
    if let Some(q) = asked.next() {
        out.push_str("  it was answering:\n");
        out.push_str(&said_lines_since(asked.next().copied(), q));
    }
    if reply.is_empty() {
        out.push_str("  it did not reply.\n");
    } else {
        out.push_str("  it replied:\n");
        for r in reply {
            out.push_str(&said_lines(r));
        }
    }
    let limit = if f.kind == "timeout" {
        format!(
            ", within {} ms ({} ms for the first reply of a game)",
            settings.reply_ms, settings.first_reply_ms
        )
    } else {
        String::new()
    };
    let _ = writeln!(
        out,
        "  a correct reply: {}{limit}",
        untrusted::terminal(&advice.correct)
    );
    out.push_str(&stderr_of(dir, bot, g.game));
    out
}

/// What the rules refused of the bot's moves over its games ([`crate::game::Game::refusals`]):
/// the text to print, whether every move judged was refused, and a note for the verdict.
struct Refused {
    text: String,
    all: bool,
    what: &'static str,
    note: String,
}

/// How many of the bot's moves the rules refused without a fault, by rule, and the first with
/// its game, turn, move and rule.
fn refusals(settings: &Settings, mine: &[(&GameRecord, usize)]) -> Refused {
    let mut judged = 0;
    let mut what = "moves";
    let mut refused: Vec<(u64, crate::game::Refusal)> = Vec::new();
    for (g, seat) in mine {
        let r = settings.game.refusals(g, *seat);
        judged += r.judged;
        if !r.what.is_empty() {
            what = r.what;
        }
        refused.extend(r.refused.into_iter().map(|f| (g.game, f)));
    }
    let Some((game, first)) = refused.first() else {
        return Refused {
            text: String::new(),
            all: false,
            what,
            note: String::new(),
        };
    };
    let counts = refused.iter().map(|(_, r)| r.rule.as_str()).counts();
    let mut rules: Vec<(&str, usize)> = counts.into_iter().collect();
    rules.sort_by(|a, b| b.1.cmp(&a.1).then(a.0.cmp(b.0)));
    let by_rule: Vec<String> = rules
        .iter()
        .map(|(r, n)| format!("{n} broke {r}"))
        .collect();
    let mut text = format!(
        "\nRefused by the rules (not faults: the game goes on, but the move is lost): {} of {} \
         {what} ({}).\n",
        refused.len(),
        judged,
        by_rule.join(", ")
    );
    let _ = writeln!(
        text,
        "  the first, in game {game}, turn {}: {} broke {}: {}",
        first.turn,
        untrusted::terminal(&first.shown),
        first.rule,
        first.why
    );
    Refused {
        text,
        all: refused.len() == judged,
        what,
        note: format!(
            ", but {} of {judged} {what} refused (see above)",
            refused.len()
        ),
    }
}

/// A bot checked at a game other than the default that faulted on its first turn in every
/// game, and whose `bot.toml` does not say which games it plays, may be a bot of the default
/// game (a Take 6 bot at a Kingdomino table waits for lines that never come): said once, with
/// the fix, beside the faults themselves.
fn another_game(settings: &Settings, mine: &[(&GameRecord, usize)]) -> Option<String> {
    if settings.game.is_default() || crate::bots::names_its_games(&settings.bots) {
        return None;
    }
    let on_first_turn = |(g, seat): &(&GameRecord, usize)| {
        g.first()
            .invalid
            .iter()
            .filter(|f| f.seat == *seat)
            .map(|f| f.turn)
            .min()
            .is_some_and(|turn| turn <= 1)
    };
    if mine.is_empty() || !mine.iter().all(on_first_turn) {
        return None;
    }
    let default = crate::games::default_game();
    Some(format!(
        "
It faulted on its first turn in every game, and its bot.toml does not say which \
         games it plays: if it is a {} bot, check it without --game {}. A bot.toml with games = \
         [\"{}\"] (or [\"{}\"]) keeps a bot out of the series of other games.\n",
        default.title(),
        settings.game.name(),
        default.name(),
        settings.game.name()
    ))
}

/// The bot's reply times against their limits: first replies of a game, and the others.
/// The CPU time limits `bot` played under in the series in `dir`: the game's for its language.
fn limits_of(dir: &Path, bot: &str, settings: &Settings) -> crate::game::ReplyLimits {
    let language = crate::series::manifest::Manifest::read(dir)
        .ok()
        .and_then(|m| m.bots.into_iter().find(|b| b.name == bot))
        .and_then(|b| b.generated)
        .map(|g| g.language);
    settings.game.reply_limits(language, &settings.limits())
}

fn reply_times(
    mine: &[(&GameRecord, usize)],
    settings: &Settings,
    limits: &crate::game::ReplyLimits,
) -> String {
    let mut out = String::new();
    let (firsts, later) = replies(mine);
    let cpu = settings.clock == crate::sandbox::Clock::Cpu;
    let _ = writeln!(
        out,
        "\nReply times (from the message to the reply; the limits count {}):",
        if cpu {
            "the CPU time of the bot's whole process tree, not wall-clock time"
        } else {
            "wall-clock time"
        }
    );
    let later_limit = match limits.kept_running_ms {
        Some(kept) if kept != limits.later_ms => {
            format!(
                "{} ms started afresh, {kept} ms kept running",
                limits.later_ms
            )
        }
        _ => format!("{} ms", limits.later_ms),
    };
    for (what, values, limit) in [
        (
            "first reply of a game",
            &firsts,
            format!("{} ms", limits.first_ms),
        ),
        ("other replies", &later, later_limit),
    ] {
        if values.is_empty() {
            let _ = writeln!(out, "  {what}: none (limit {limit})");
            continue;
        }
        let column = |pick: fn(&Reply) -> Option<f64>| -> Option<String> {
            let mut v: Vec<f64> = values.iter().filter_map(pick).collect();
            v.sort_by(f64::total_cmp);
            (!v.is_empty()).then(|| {
                format!(
                    "p50 {:.1} ms, max {:.1} ms",
                    quantile(&v, 0.5),
                    quantile(&v, 1.0)
                )
            })
        };
        let cpu_times = column(|r| r.cpu_ms).map(|c| format!("CPU {c}; "));
        let _ = writeln!(
            out,
            "  {what}: {}wall {}, limit {limit} ({})",
            cpu_times.unwrap_or_default(),
            column(|r| Some(r.wall_ms)).unwrap_or_default(),
            match values.len() {
                1 => "1 reply".to_string(),
                n => format!("{n} replies"),
            }
        );
    }
    out.push_str(&wall_warning(&firsts, &later, settings, limits));
    out
}

/// One reply's times: wall-clock, and the CPU time of the bot's tree where it was counted.
struct Reply {
    wall_ms: f64,
    cpu_ms: Option<f64>,
}

/// The bot's replies in its games, as the records keep them: first replies of a game apart
/// from the others.
fn replies(mine: &[(&GameRecord, usize)]) -> (Vec<Reply>, Vec<Reply>) {
    let (mut firsts, mut later) = (Vec::new(), Vec::new());
    for (g, seat) in mine {
        for times in g.replies.iter().filter(|r| r.seat == *seat) {
            for (i, &wall) in times.wall_us.iter().enumerate() {
                let reply = Reply {
                    wall_ms: wall as f64 / 1000.0,
                    cpu_ms: times.cpu_us.get(i).map(|&c| c as f64 / 1000.0),
                };
                if i == 0 { &mut firsts } else { &mut later }.push(reply);
            }
        }
    }
    (firsts, later)
}

/// Under the CPU clock, replies that took longer in wall-clock time than their limits: in an
/// arena that counts wall-clock time (CodinGame) they would time out, said with the longest
/// and its limit; in one that counts CPU time (Botzone) they would not, and a reply that used
/// little CPU over a long wall time says the machine was loaded (the bot waited for a
/// processor) or the bot waited (sleep, input), neither of which such an arena counts.
fn wall_warning(
    firsts: &[Reply],
    later: &[Reply],
    settings: &Settings,
    limits: &crate::game::ReplyLimits,
) -> String {
    if settings.clock != crate::sandbox::Clock::Cpu {
        return String::new();
    }
    let longest = |v: &[Reply]| {
        v.iter()
            .max_by(|a, b| a.wall_ms.total_cmp(&b.wall_ms))
            .map(|r| (r.wall_ms, r.cpu_ms))
    };
    let over: Vec<(String, bool)> = [
        ("a first reply", longest(firsts), limits.first_ms),
        ("a later reply", longest(later), limits.later_ms),
    ]
    .into_iter()
    .filter_map(|(what, r, limit)| {
        let (wall, cpu) = r?;
        (wall > limit as f64).then(|| {
            let starved = cpu.is_some_and(|c| c * 2.0 < wall);
            let cpu = cpu.map_or(String::new(), |c| format!(" and {c:.0} ms of CPU time"));
            (
                format!("{what} took {wall:.0} ms of wall-clock time{cpu} (limit {limit} ms)"),
                starved,
            )
        })
    })
    .collect();
    if over.is_empty() {
        return String::new();
    }
    let arena = settings.game.facts().arena_clock;
    let starved = over.iter().any(|(_, s)| *s);
    let said: Vec<&str> = over.iter().map(|(t, _)| t.as_str()).collect();
    let why = if starved {
        " It used little CPU time over a long wall time: it was starved of a processor (the \
         machine was loaded: fewer --jobs, or a quieter machine) or it waited (a sleep, its \
         input)."
    } else {
        ""
    };
    if arena.counts_cpu {
        return format!(
            "\nNOTE: {}.{why} {} counts CPU time, as take6 does here: wall-clock time does not \
             count against its limits.\n",
            said.join("; "),
            arena.arena
        );
    }
    format!(
        "\nWARNING: {}.{why} take6 counts CPU time, so waiting costs nothing here (up to \
         --wall-factor {} times the limit in wall-clock time), but {} would time these replies \
         out.\n",
        said.join("; "),
        settings.wall_factor,
        arena.arena
    )
}

/// When the check stopped before its `planned` games because the bot had the same fault in
/// two games in a row (see `series::repeated`): what to say.
fn stopped_early(mine: &[(&GameRecord, usize)], planned: u64) -> Option<String> {
    if mine.len() as u64 >= planned {
        return None;
    }
    let signatures: Vec<_> = mine
        .iter()
        .map(|(g, seat)| crate::series::repeated::signature(g, *seat))
        .collect();
    let repeated = signatures
        .windows(2)
        .find_map(|w| w[0].clone().filter(|s| w[1].as_ref() == Some(s)))?;
    Some(format!(
        "\nStopped after {} of {}: the same fault ({}) twice in a row; the other games would \
         repeat it. Fix it and check again.\n",
        mine.len(),
        crate::names::count(planned, "game"),
        repeated.0
    ))
}

/// How many of the last lines of a bot's stderr in a game `check` shows under a fault.
const STDERR_TAIL: usize = 10;

/// The last lines the bot wrote on stderr in `game`, from `logs/<bot>.games.log` (where the
/// series keeps them), with the log's path: a bot that exits or blocks says why there, and an
/// author should not have to find the file to read it.
fn stderr_of(dir: &Path, bot: &str, game: u64) -> String {
    let log = dir.join("logs").join(format!("{bot}.games.log"));
    let text = crate::door::open_path(&log)
        .and_then(|mut f| {
            let mut text = String::new();
            std::io::Read::read_to_string(&mut f, &mut text).map(|_| text)
        })
        .unwrap_or_default();
    let header = format!("=== game {game} (seat ");
    let lines: Vec<&str> = text
        .lines()
        .skip_while(|l| !l.starts_with(&header))
        .skip(1)
        .take_while(|l| !l.starts_with("=== game "))
        .filter(|l| !l.starts_with("fault in "))
        .collect();
    if lines.is_empty() {
        return format!(
            "  it wrote nothing on stderr in that game (its log: {})\n",
            log.display()
        );
    }
    let shown = &lines[lines.len().saturating_sub(STDERR_TAIL)..];
    let mut out = format!(
        "  its stderr in that game ({}; all of it in {}):\n",
        if shown.len() < lines.len() {
            format!("the last {} of {} lines", shown.len(), lines.len())
        } else {
            crate::names::count(lines.len() as u64, "line")
        },
        log.display()
    );
    for line in shown {
        let _ = writeln!(out, "    | {}", untrusted::terminal(line));
    }
    out
}

/// For a folder without `launch`: the scripts take6 wrote into its working copy (or, when it
/// wrote none, the toolchains it looked for), from `series.toml` and the working copy.
fn generated(dir: &Path, bot: &str) -> String {
    let Ok(manifest) = crate::series::manifest::Manifest::read(dir) else {
        return String::new();
    };
    let mut out = String::new();
    let mine = manifest.bots.iter().find(|b| b.name == bot);
    match mine.and_then(|b| b.generated.as_ref()) {
        Some(g) => {
            let _ = writeln!(
                out,
                "\n{bot} has no launch: take6 wrote these scripts for its {} source ({}) into \
                 its working copy (write your own launch to override them):",
                g.language.name(),
                g.from
                    .iter()
                    .map(|f| untrusted::terminal(f))
                    .collect::<Vec<_>>()
                    .join(", ")
            );
            let work = dir.join("work").join(bot);
            for (name, text) in [
                ("build", g.build_script()),
                ("launch", Some(g.launch_script())),
            ] {
                let Some(text) = text else { continue };
                // What is in the working copy, which is what ran.
                // Through the door: the build may have left it a FIFO or a link.
                let text = crate::door::working_copy(&work)
                    .and_then(|f| f.read(Path::new(name), 1 << 20))
                    .ok()
                    .and_then(|b| String::from_utf8(b).ok())
                    .unwrap_or(text);
                let _ = writeln!(out, "  {name}:");
                for line in text.lines() {
                    let _ = writeln!(out, "    {}", untrusted::terminal(line));
                }
            }
        }
        None => {
            // A bot with its own launch: the toolchains are not its concern.
            let no_launch = manifest
                .skipped
                .iter()
                .any(|s| s.name == bot && s.reason.starts_with("no launch script"));
            if !no_launch {
                return out;
            }
        }
    }
    if !manifest.toolchains.is_empty() {
        out.push_str("Toolchains the bots' build and launch can run:\n");
        for (tool, at) in &manifest.toolchains {
            let _ = writeln!(out, "  {tool:<8} {at}");
        }
    }
    out
}

/// The bot's mean score against the built-ins' (the game's padding bots) at the same tables.
fn scores(games: &[GameRecord], bot: &str, game: &crate::game::GameRef) -> String {
    let direction = game.direction();
    let mut tally = crate::record::Tally::new(direction);
    for g in games {
        tally.add(g);
    }
    let standings: Vec<Standing> = tally.standings();
    let Some(me) = standings.iter().find(|s| s.bot == bot) else {
        return String::new();
    };
    let builtins: Vec<&Standing> = standings.iter().filter(|s| s.builtin).collect();
    let better = match direction {
        crate::record::Direction::Higher => "higher",
        crate::record::Direction::Lower => "lower",
    };
    let mut text = format!(
        "\nMean score ({better} is better): {bot} {:.2} over {}, rank {} of {}",
        me.mean_score,
        crate::names::count(me.games, "game"),
        me.rank,
        standings.len()
    );
    if !builtins.is_empty() {
        let mean = builtins.iter().map(|s| s.mean_score).sum::<f64>() / builtins.len() as f64;
        let best = builtins[0];
        let _ = write!(
            text,
            "; the {}s {mean:.2} on average, the best of them {} {:.2}",
            game.builtin_label(),
            best.bot,
            best.mean_score
        );
    }
    text.push('\n');
    text
}

/// A game's scores as people read them: `[2, 0]`, `[1.25, -0.5]`.
fn shown_scores(scores: &[crate::record::Score]) -> String {
    let shown: Vec<String> = scores.iter().map(ToString::to_string).collect();
    format!("[{}]", shown.join(", "))
}
