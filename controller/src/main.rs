//! The `take6` command line: parse, call the library, map errors to exit codes.

use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::Context;
use clap::Parser;
use take6::config::{Cli, Command, Settings};
use take6::games::JudgePermit;
use take6::series::{self, BarSlot, SeriesDir, SeriesError, Status, StderrAboveBar};
use take6::signals::{self, Stop};
use take6::untrusted;
use tracing_subscriber::EnvFilter;
use tracing_subscriber::layer::{Layer, SubscriberExt};
use tracing_subscriber::util::SubscriberInitExt;

/// Exit code of a series stopped by Ctrl-C (128 + SIGINT), as shells expect; a series stopped
/// by another signal exits with 128 + its number.
const INTERRUPTED: u8 = 130;

/// Exit code of a new series that played its games but skipped bots (without
/// `--allow-skips`): distinct from 1 (the controller failed) and from the signals' 128 + N, so
/// that a script or CI job notices that not every bot played.
const SKIPPED_BOTS: u8 = 3;

/// Exit code of a series or league stopped because the disk filled while it played (or made
/// a bot's disk image): every finished game is kept, and it can go on once there is room.
const DISK_FULL: u8 = 4;

/// Whether `e` is a disk that ran out of room while the games were played.
fn disk_full(e: &SeriesError) -> bool {
    match e {
        SeriesError::DiskFull(_) => true,
        SeriesError::Write { error, .. } => {
            error.kind() == std::io::ErrorKind::StorageFull
                || error.kind() == std::io::ErrorKind::QuotaExceeded
        }
        _ => false,
    }
}

/// Says that a run stopped on a full disk, what was kept and how to go on (`again`).
fn said_disk_full(e: &SeriesError, again: &str) -> ExitCode {
    eprintln!("take6: {e}");
    eprintln!(
        "take6: every finished game is kept and the working copies are copied back out of \
         their disk images; free space on that disk (or give a smaller --disk-mib, fewer \
         --jobs, or a folder on another disk), then play the rest with: {again}"
    );
    ExitCode::from(DISK_FULL)
}

fn main() -> ExitCode {
    // A warm sandbox's PID 1 (hidden: started by the controller itself, never by people).
    let args: Vec<String> = std::env::args().collect();
    if args.get(1).map(String::as_str) == Some(take6::sandbox::warm::INIT_ARG) {
        return ExitCode::from(take6::sandbox::warm::init_main(&args[2..]));
    }
    // Before any thread starts (the async runtime is built later): as root, a mount namespace
    // of the controller's own for the working copies' disk images, so that no mount is seen by
    // the host or outlives the controller. Without it the disk cap is reported missing.
    take6::sandbox::image::enter_private_mounts();
    // Nothing the controller inherited may reach a bot (a sandbox's socket is handed on purpose).
    take6::sandbox::close_inherited_on_exec();
    let cli = Cli::parse();
    take6::sandbox::list_protections(cli.verbose);
    match run(cli) {
        Ok(code) => code,
        Err(e) => {
            // Errors may name bots and quote what they wrote: never printed raw.
            eprintln!("error: {}", untrusted::terminal_text(&format!("{e:#}")));
            ExitCode::FAILURE
        }
    }
}

/// Prints `text` (lines that quote what bots wrote) on stdout, each line through
/// [`untrusted::terminal`]: text built with the untrusted parts already escaped is unchanged.
fn print_untrusted(text: &str) {
    for line in untrusted::terminal_lines(text.as_bytes()) {
        println!("{line}");
    }
}

/// What a command that plays games starts from: new settings (`take6 run`, `check`, `play`)
/// or a series to resume, and for `take6 check` the bot's staged folder.
struct Start {
    settings: Option<Settings>,
    resume: Option<(SeriesDir, take6::config::RunArgs)>,
    checked: Option<Checked>,
}

/// What `take6 check` checks: a bot, or a game folder's judge.
enum Checked {
    Bot(take6::check::Staged),
    Judge,
}

/// A command: those that play games go through [`play_series`], the others are done here.
fn run(cli: Cli) -> anyhow::Result<ExitCode> {
    let start = match cli.command {
        Command::Check(args) => {
            if let Some(dir) = &args.dir
                && let Some(folders) = take6::check::folders_of_bots(dir)
            {
                return check_many(dir, &folders);
            }
            let mut settings = Settings::resolve_check(&args, PathBuf::new())?;
            match &args.dir {
                Some(dir) => {
                    let staged = take6::check::Staged::new(dir)?;
                    settings.bots = staged.bots.clone();
                    Start {
                        settings: Some(settings),
                        resume: None,
                        checked: Some(Checked::Bot(staged)),
                    }
                }
                None => {
                    take6::check::judge_checkable(&settings.game)?;
                    settings.builtins_only = true;
                    settings.transcript = None;
                    Start {
                        settings: Some(settings),
                        resume: None,
                        checked: Some(Checked::Judge),
                    }
                }
            }
        }
        Command::Run(args) => match &args.resume {
            Some(dir) => Start {
                settings: None,
                resume: Some((SeriesDir::open(dir)?, args)),
                checked: None,
            },
            None => Start {
                settings: Some(Settings::resolve(&args)?),
                resume: None,
                checked: None,
            },
        },
        Command::Play(args) => Start {
            settings: Some(Settings::resolve_play(&args)?),
            resume: None,
            checked: None,
        },
        // A results folder chooses no code: the only judge these run is the one given here.
        Command::Leaderboard { dir, game } => {
            let permit = JudgePermit::from_keyboard(game.as_deref())?;
            return leaderboard(&dir, &permit).map_err(|e| latest_hint(&dir, "leaderboard", e));
        }
        Command::Verify { dir, game } => {
            let permit = JudgePermit::from_keyboard(game.as_deref())?;
            return verify(&dir, &permit).map_err(|e| latest_hint(&dir, "verify", e));
        }
        Command::Replay { dir, game } => {
            let record = series::find_game(&dir, game)
                .map_err(|e| latest_hint(&dir, &format!("replay {game}"), e.into()))?;
            // The replay quotes what bots wrote (PICK messages, responses, fault reasons).
            let rules = record
                .game_ref()
                .map_err(|e| latest_hint(&dir, &format!("replay {game}"), e.into()))?;
            print_untrusted(&rules.replay_text(&record));
            return Ok(ExitCode::SUCCESS);
        }
        Command::Merge(args) => {
            let permit = JudgePermit::from_keyboard(args.game.as_deref())?;
            return merge(&args, &permit);
        }
        Command::Clean(args) => return clean(&args),
        Command::New(args) => return new_bot(&args),
        Command::League(args) => return league(&args),
        Command::Compare(args) => return compare(&args),
    };
    play_series(start)
}

/// `e`, an error of a command given `dir`: when `dir` is a `latest` that is not there (no
/// `take6 run` here yet) but a check's or a play's `latest` is, the error says where those are
/// and how to give one to `command` (a new user's first results are often a check's).
fn latest_hint(dir: &std::path::Path, command: &str, e: anyhow::Error) -> anyhow::Error {
    if dir.exists() || dir.file_name() != Some("latest".as_ref()) {
        return e;
    }
    let results = dir.parent().unwrap_or(std::path::Path::new(""));
    let found: Vec<(&str, PathBuf)> = [("check", "checks"), ("play", "plays")]
        .into_iter()
        .map(|(what, folder)| (what, results.join(folder).join("latest")))
        .filter(|(_, latest)| latest.exists())
        .collect();
    let Some((_, first)) = found.first() else {
        return e;
    };
    let said: Vec<String> = found
        .iter()
        .map(|(what, latest)| format!("the last {what} is {}", latest.display()))
        .collect();
    anyhow::anyhow!(
        "{e}: it is the last series of take6 run, and none was run here; {} (take6 {command} {})",
        said.join(", "),
        first.display()
    )
}

/// `take6 check DIR` of a folder of bot folders (a course's submissions): each checked by
/// `take6 check` on its own, with the same flags, one after the other; then a line per bot:
/// passed, or the first thing to fix. Exits 0 only when every one passed.
fn check_many(dir: &std::path::Path, folders: &[PathBuf]) -> anyhow::Result<ExitCode> {
    let exe = std::env::current_exe().context("cannot find the take6 binary to run")?;
    let args: Vec<std::ffi::OsString> = std::env::args_os().skip(1).collect();
    let at = args
        .iter()
        .rposition(|a| std::path::Path::new(a) == dir)
        .context("cannot find the folder among the arguments")?;
    eprintln!(
        "take6: {} folders in {}: checking each on its own",
        folders.len(),
        dir.display()
    );
    let mut lines = Vec::new();
    let mut failed = 0;
    for folder in folders {
        let name = folder
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_default();
        let mut each = args.clone();
        each[at] = folder.clone().into_os_string();
        let out = std::process::Command::new(&exe)
            .args(&each)
            .stdin(std::process::Stdio::null())
            .output()
            .with_context(|| format!("cannot run take6 check {}", folder.display()))?;
        if let Some(signal) = std::os::unix::process::ExitStatusExt::signal(&out.status) {
            // Stopped by Ctrl-C (or another signal): no verdict for the rest.
            eprintln!("take6: stopped at {}", untrusted::terminal(&name));
            return Ok(ExitCode::from((128 + signal).clamp(0, 255) as u8));
        }
        let passed = out.status.success();
        failed += usize::from(!passed);
        let verdict = take6::check::verdict_line(
            passed,
            &String::from_utf8_lossy(&out.stdout),
            &String::from_utf8_lossy(&out.stderr),
        );
        let line = format!("{}: {verdict}", untrusted::terminal(&name));
        eprintln!("take6: {line}");
        lines.push(line);
    }
    println!(
        "{} of {} passed (each check's full report: take6 check FOLDER):",
        folders.len() - failed,
        folders.len()
    );
    for line in &lines {
        print_untrusted(&format!("  {line}"));
    }
    Ok(if failed == 0 {
        ExitCode::SUCCESS
    } else {
        ExitCode::FAILURE
    })
}

/// `take6 leaderboard`: rebuilt from the records, with a warning when they do not verify.
fn leaderboard(dir: &std::path::Path, permit: &JudgePermit) -> anyhow::Result<ExitCode> {
    let check = series::rebuild_leaderboard(dir, Box::new(std::io::stdout()), permit)?;
    if let Some(problem) = check.first() {
        eprintln!(
            "warning: this series does not verify: {} (see take6 verify {})",
            untrusted::terminal_text(&problem.to_string()),
            dir.display()
        );
    }
    Ok(ExitCode::SUCCESS)
}

/// `take6 league`: a run on a league folder under the signal watch; 130 (or 128 + the
/// signal) when a stop cut it short.
fn league(args: &take6::config::LeagueArgs) -> anyhow::Result<ExitCode> {
    if args.table.duplicate {
        anyhow::bail!(
            "a league deals every game afresh from its seed: a bot keeps its private storage \
             across runs and would recognise a replayed deal (see docs/tournament.md, Duplicate \
             deals); leave out --duplicate, or play duplicate deals in a series with take6 run"
        );
    }
    let run = take6::config::RunArgs {
        table: args.table.clone(),
        game: args.game.clone(),
        top: args.top,
        jobs: args.jobs,
        ..Default::default()
    };
    let mut settings = Settings::resolve(&run)?;
    let dir = args.league.clone().unwrap_or_else(|| {
        settings
            .results
            .join("league")
            .join(take6::league::folder_name(settings.game.name()))
    });
    // A league plays the bots it recorded unless --bots says otherwise, wherever it is run from.
    let recorded = match args.table.bots {
        Some(_) => None,
        None => take6::league::run::recorded_bots(&dir)?,
    };
    if let Some(bots) = &recorded {
        settings.bots = PathBuf::from(bots);
    }
    let bots_source = take6::league::run::bots_source(&settings.bots);
    settings.fetch_bots()?;
    let opts = take6::league::run::Options {
        dir: dir.clone(),
        batch: args.batch.map(|b| b as usize),
        min_games: args.min_games,
        games: args.games,
        forever: args.forever,
        players: args.table.players,
        rounds: args.table.rounds,
        top: args.top,
        bots: bots_source,
        withdraw: args.withdraw,
    };
    let bar = BarSlot::default();
    let stop = Stop::install().context("cannot watch for Ctrl-C")?;
    std::fs::create_dir_all(dir.join("logs"))
        .with_context(|| format!("cannot make {}", dir.display()))?;
    let series_dir = SeriesDir {
        id: String::new(),
        path: dir.clone(),
    };
    init_logging(&series_dir, bar.clone())?;
    signals::playing(&dir);
    let runtime = tokio::runtime::Runtime::new().context("cannot start the async runtime")?;
    let result = runtime.block_on(take6::league::run::run(
        &settings,
        &opts,
        stop.requested(),
        bar,
    ));
    runtime.shutdown_timeout(std::time::Duration::from_millis(200));
    signals::kill_children();
    let interrupted = ExitCode::from(stop.received().map_or(INTERRUPTED, signals::exit_code));
    match result {
        Ok(outcome) if outcome.ended == take6::league::run::Ended::Interrupted => Ok(interrupted),
        Ok(_) => Ok(ExitCode::SUCCESS),
        Err(e @ SeriesError::InterruptedBeforeGames) => {
            eprintln!("take6: {e}");
            Ok(interrupted)
        }
        Err(e) if disk_full(&e) => Ok(said_disk_full(
            &e,
            &format!("take6 league --league {}", dir.display()),
        )),
        Err(e) => Err(e.into()),
    }
}

/// `take6 compare`'s exit statuses: better, not better, undecided.
const NOT_BETTER: u8 = 3;
const UNDECIDED: u8 = 4;

/// `take6 compare`: paired games of NEW and OLD under the signal watch, until the test's
/// verdict: 0 better, 3 not better, 4 undecided, 130 (or 128 + the signal) when stopped.
fn compare(args: &take6::config::CompareArgs) -> anyhow::Result<ExitCode> {
    let (alpha, beta) = (args.alpha.unwrap_or(0.05), args.beta.unwrap_or(0.05));
    for (flag, rate) in [("--alpha", alpha), ("--beta", beta)] {
        if !(rate > 0.0 && rate < 0.5) {
            anyhow::bail!("{flag} {rate}: an error rate is above 0 and below 0.5 (say 0.05)");
        }
    }
    if args.margin.is_some_and(|m| !(m.is_finite() && m > 0.0)) {
        anyhow::bail!("--margin must be a positive number (the least gain that counts as better)");
    }
    if let Some(games) = args.games.filter(|g| *g < 2) {
        anyhow::bail!("--games {games}: a compare plays pairs of games, give at least 2");
    }
    let run = take6::config::RunArgs {
        table: args.table.clone(),
        game: args.game.clone(),
        jobs: args.jobs,
        ..Default::default()
    };
    let mut settings = Settings::resolve(&run)?;
    settings.bench_after = 0;
    let mut opts = take6::compare::run::Options {
        new: args.new.clone(),
        old: args.old.clone(),
        field: args.field.clone(),
        resume: args.resume.clone(),
        margin: args.margin,
        alpha,
        beta,
        games: args.games.unwrap_or(10_000),
    };
    if let Some(dir) = &args.resume {
        let Some(m) = take6::compare::manifest::CompareManifest::read(dir)? else {
            anyhow::bail!(
                "{} holds no compare.toml: give --resume the folder of a stopped compare",
                dir.display()
            );
        };
        if let Some(code) = compare_continued(args, dir, &m)? {
            return Ok(code);
        }
        // A compare continues with what it began with.
        settings.seed = m.seed;
        settings.players = m.players;
        settings.rounds = m.rounds;
        opts.games = args.games.unwrap_or(2 * m.max_pairs);
    }
    let bar = BarSlot::default();
    let stop = Stop::install().context("cannot watch for Ctrl-C")?;
    let runtime = tokio::runtime::Runtime::new().context("cannot start the async runtime")?;
    let result = runtime.block_on(take6::compare::run::run(
        &settings,
        &opts,
        stop.requested(),
        bar,
    ));
    runtime.shutdown_timeout(std::time::Duration::from_millis(200));
    signals::kill_children();
    let interrupted = ExitCode::from(stop.received().map_or(INTERRUPTED, signals::exit_code));
    match result {
        Ok(outcome) if outcome.interrupted => Ok(interrupted),
        Ok(outcome) => Ok(match outcome.verdict {
            take6::compare::sprt::Verdict::Better => ExitCode::SUCCESS,
            take6::compare::sprt::Verdict::NotBetter => ExitCode::from(NOT_BETTER),
            take6::compare::sprt::Verdict::Undecided => ExitCode::from(UNDECIDED),
        }),
        Err(e @ SeriesError::InterruptedBeforeGames) => {
            eprintln!("take6: {e}");
            Ok(interrupted)
        }
        Err(e) => Err(e.into()),
    }
}

/// A compare continued with `--resume`: refused when a flag asks for another setting than it
/// began with; when it has its verdict already, says so with the verdict lines and plays
/// nothing (the verdict's exit status); `None` when it plays on.
fn compare_continued(
    args: &take6::config::CompareArgs,
    dir: &std::path::Path,
    m: &take6::compare::manifest::CompareManifest,
) -> anyhow::Result<Option<ExitCode>> {
    let asked = take6::compare::resume::Asked {
        seed: args.table.seed,
        players: args.table.players,
        rounds: args.table.rounds,
        margin: args.margin,
        alpha: args.alpha,
        beta: args.beta,
        field: args.field.clone(),
        games: args.games,
    };
    take6::compare::resume::check(m, dir, &asked)?;
    if !take6::compare::resume::decided(m) {
        return Ok(None);
    }
    eprintln!(
        "take6: the compare in {} has its verdict already ({} after {} pairs): nothing to          play; begin a new compare (without --resume) to test again",
        dir.display(),
        take6::untrusted::terminal(&m.test.verdict),
        m.test.pairs
    );
    for line in take6::compare::run::verdict_lines(m, m.games_played) {
        println!("{line}");
    }
    Ok(Some(match m.test.verdict.as_str() {
        "better" => ExitCode::SUCCESS,
        _ => ExitCode::from(NOT_BETTER),
    }))
}

/// `take6 verify` of a compare folder.
fn compare_verify(dir: &std::path::Path, permit: &JudgePermit) -> anyhow::Result<ExitCode> {
    let check = take6::compare::verify::verify(dir, permit)?;
    if check.ok() {
        println!(
            "{}: {} verified: the chain is intact, every game follows the rules and its \
             seed, every game is its pair's, and the records give compare.toml's verdict",
            dir.display(),
            take6::names::count(check.games, "game"),
        );
        return Ok(ExitCode::SUCCESS);
    }
    println!(
        "{}: does NOT verify ({} read)",
        dir.display(),
        take6::names::count(check.games, "game")
    );
    for problem in &check.problems {
        println!("  {}", untrusted::terminal_text(&problem.to_string()));
    }
    Ok(ExitCode::FAILURE)
}

/// `take6 verify` of a league folder.
fn league_verify(dir: &std::path::Path, permit: &JudgePermit) -> anyhow::Result<ExitCode> {
    let check = take6::league::verify::verify(dir, permit)?;
    if check.ok() {
        println!(
            "{}: {} verified: the chain is intact, every game follows the rules and its \
             seed, and every batch seats what the league's choice gives from the batches \
             before it",
            dir.display(),
            take6::names::count(check.games, "game"),
        );
        for note in &check.unchecked {
            println!("not re-checked: {}", untrusted::terminal_text(note));
        }
        return Ok(ExitCode::SUCCESS);
    }
    println!(
        "{}: does NOT verify ({} read)",
        dir.display(),
        take6::names::count(check.games, "game")
    );
    for problem in &check.problems {
        println!("  {}", untrusted::terminal_text(&problem.to_string()));
    }
    Ok(ExitCode::FAILURE)
}

/// `take6 new`: a starter bot's files, and how to try it.
fn new_bot(args: &take6::starter::NewArgs) -> anyhow::Result<ExitCode> {
    let (folder, files, game) = take6::starter::write(args)?;
    for f in &files {
        println!("wrote {}", f.display());
    }
    let flag = if game.is_default() {
        String::new()
    } else {
        format!(" --game {}", game.name())
    };
    println!(
        "a {} bot for {}: it reads the protocol, plays a legal move and flushes; take6 \
         writes its build and launch. Try it with: take6 check{flag} {}",
        args.lang.title(),
        game.title(),
        folder.display()
    );
    Ok(ExitCode::SUCCESS)
}

/// A series played (new, resumed, a check's or a person's) under the signal watch, and its
/// exit status.
fn play_series(start: Start) -> anyhow::Result<ExitCode> {
    let bar = BarSlot::default();
    let Start {
        settings,
        resume,
        checked,
    } = start;
    // Before any thread starts: Ctrl-C, SIGTERM and SIGHUP stop the series cleanly, and the
    // process within a few seconds whatever it is doing (see take6::signals).
    let stop = Stop::install().context("cannot watch for Ctrl-C")?;
    let mut settings = settings;
    if let Some(s) = settings.as_mut() {
        s.fetch_bots()?;
    }
    let (dir, resume) = series_folder(settings.as_ref(), resume, checked.is_some())?;
    init_logging(&dir, bar.clone())?;
    signals::playing(&dir.path);
    let runtime = tokio::runtime::Runtime::new().context("cannot start the async runtime")?;
    let result = match (&settings, &resume) {
        (Some(settings), _) => runtime.block_on(series::run(settings, &dir, stop.requested(), bar)),
        (None, Some(args)) => runtime.block_on(series::resume(&dir, args, stop.requested(), bar)),
        (None, None) => unreachable!("a command has settings or resumes"),
    };
    // A read of the keyboard (`take6 play`) may still be pending; do not wait for it.
    runtime.shutdown_timeout(std::time::Duration::from_millis(200));
    // Whatever a cancelled task may have left running.
    signals::kill_children();
    let interrupted = ExitCode::from(stop.received().map_or(INTERRUPTED, signals::exit_code));
    if let (Some(checked), Some(settings)) = (&checked, &settings) {
        let passed = match checked {
            Checked::Bot(staged) => check_report(staged, settings, &dir, &result),
            Checked::Judge => result.is_err() || judge_report(&dir),
        };
        if !passed {
            return Ok(ExitCode::FAILURE);
        }
    }
    if result.is_err() && resume.is_none() && checked.is_none() {
        // A new series refused before its first game: nothing worth keeping, and `latest`
        // still names the last series that played.
        dir.discard_if_unused();
    }
    let outcome = match result {
        Ok(outcome) => outcome,
        Err(e @ SeriesError::InterruptedBeforeGames) => {
            eprintln!("take6: {e}");
            return Ok(interrupted);
        }
        Err(e) if disk_full(&e) => {
            return Ok(said_disk_full(
                &e,
                &format!("take6 run --resume {}", dir.path.display()),
            ));
        }
        Err(e @ SeriesError::Write { .. }) => {
            eprintln!(
                "take6: the games recorded so far are kept; once the cause is fixed, play the \
                 rest with: take6 run --resume {}",
                dir.path.display()
            );
            return Err(e.into());
        }
        Err(e) => return Err(e.into()),
    };
    if outcome.status == Status::Interrupted {
        return Ok(interrupted);
    }
    // `take6 run` (a new series of bots, not a person's games): a bot that did not play is
    // worth a non-zero exit, unless the user said skips are expected.
    let skips_matter = resume.is_none()
        && checked.is_none()
        && settings
            .as_ref()
            .is_some_and(|s| s.human.is_none() && !s.allow_skips);
    Ok(skips_exit(&outcome, skips_matter))
}

/// The series' folder: a new one for new settings, the resumed one otherwise. A check's or a
/// play's series never replaces the host's latest series: it goes under results/checks/ or
/// results/plays/, whose own `latest` it moves.
fn series_folder(
    settings: Option<&Settings>,
    resume: Option<(SeriesDir, take6::config::RunArgs)>,
    check: bool,
) -> anyhow::Result<(SeriesDir, Option<take6::config::RunArgs>)> {
    Ok(match (settings, resume) {
        (Some(settings), _) => (
            SeriesDir::create(&SeriesDir::side_folder(
                &settings.results,
                check,
                settings.human.is_some(),
            ))?,
            None,
        ),
        (None, Some((dir, args))) => (dir, Some(args)),
        (None, None) => unreachable!("a command has settings or resumes"),
    })
}

/// `take6 check`'s report, once its series is over (or found no usable bot): false when the
/// bot failed the check.
fn check_report(
    staged: &take6::check::Staged,
    settings: &Settings,
    dir: &SeriesDir,
    result: &Result<series::SeriesOutcome, SeriesError>,
) -> bool {
    let said = settings
        .transcript
        .as_ref()
        .map(|t| t.lines())
        .unwrap_or_default();
    match result {
        Ok(_) | Err(SeriesError::NoUsableBots { .. }) => {
            let (text, ok) = take6::check::report(&dir.path, &staged.name, settings, &said);
            // The check quotes the bot's replies, stderr, file names and build output.
            print_untrusted(&text);
            println!("Results of the check: {}", dir.path.display());
            ok
        }
        Err(_) => true,
    }
}

/// `take6 check --game FOLDER`'s report, once its series is over: false when a game was void.
fn judge_report(dir: &SeriesDir) -> bool {
    let (text, ok) = take6::check::judge_report(&dir.path);
    // The judge's requests, displays and stderr, and the padding bots' responses.
    print_untrusted(&text);
    println!("Results of the check: {}", dir.path.display());
    ok
}

/// The exit status of a series that played: [`SKIPPED_BOTS`] when skips matter and a bot was
/// skipped for a fault (a bot whose bot.toml names another game, or a folder of a repository
/// that holds no bot, is left out by design).
fn skips_exit(outcome: &series::SeriesOutcome, skips_matter: bool) -> ExitCode {
    let n = outcome.skipped.iter().filter(|s| !s.is_left_out()).count();
    if skips_matter && n > 0 {
        eprintln!(
            "take6: {n} bot{} skipped (see above and series.toml): exit status {SKIPPED_BOTS}; \
             pass --allow-skips (or allow_skips = true in take6.toml) to exit 0",
            if n == 1 { " was" } else { "s were" },
        );
        return ExitCode::from(SKIPPED_BOTS);
    }
    ExitCode::SUCCESS
}

/// `take6 merge`: the merged series' summary on stdout, what is missing on stderr.
fn merge(args: &take6::config::MergeArgs, permit: &JudgePermit) -> anyhow::Result<ExitCode> {
    let merged = series::merge::merge(
        &args.shards,
        &args.results,
        args.partial,
        Box::new(std::io::stdout()),
        permit,
    )?;
    if !merged.missing.is_empty() {
        let shown: Vec<String> = merged.missing.iter().take(20).map(u64::to_string).collect();
        eprintln!(
            "take6: partial merge: {} of {} {} missing: {}{}",
            merged.missing.len(),
            take6::names::count(merged.planned, "game"),
            if merged.missing.len() == 1 {
                "is"
            } else {
                "are"
            },
            shown.join(", "),
            if merged.missing.len() > 20 {
                ", …"
            } else {
                ""
            }
        );
    }
    eprintln!(
        "take6: merged {} into {}",
        take6::names::count(merged.games, "game"),
        merged.dir.path.display()
    );
    Ok(ExitCode::SUCCESS)
}

/// `take6 clean`: each folder removed (or, with --dry-run, that would be) and the space freed.
fn clean(args: &take6::config::CleanArgs) -> anyhow::Result<ExitCode> {
    use take6::clean;
    let doomed =
        clean::plan(args).with_context(|| format!("cannot read {}", args.results.display()))?;
    let total: u64 = doomed.iter().map(|d| d.bytes).sum();
    let verb = if args.dry_run {
        "would remove"
    } else {
        "removing"
    };
    for d in &doomed {
        println!("{verb} {} ({})", d.path.display(), clean::bytes(d.bytes));
    }
    if doomed.is_empty() {
        println!(
            "nothing to remove (keeping the newest {} of each kind{})",
            args.keep,
            if args.series {
                ""
            } else {
                "; --series cleans run series too"
            }
        );
        return Ok(ExitCode::SUCCESS);
    }
    if args.dry_run {
        println!(
            "{} would free {}; run without --dry-run to remove them",
            take6::names::count(doomed.len() as u64, "folder"),
            clean::bytes(total)
        );
        return Ok(ExitCode::SUCCESS);
    }
    let freed = clean::apply(&doomed).context("cannot remove a series folder")?;
    println!(
        "removed {}, freed {}",
        take6::names::count(doomed.len() as u64, "folder"),
        clean::bytes(freed)
    );
    Ok(ExitCode::SUCCESS)
}

/// `take6 verify`: the verdict on stdout, exit 1 when the series does not verify.
fn verify(dir: &std::path::Path, permit: &JudgePermit) -> anyhow::Result<ExitCode> {
    if take6::league::verify::is_league(dir) {
        return league_verify(dir, permit);
    }
    if take6::compare::verify::is_compare(dir) {
        return compare_verify(dir, permit);
    }
    let check = series::verify(dir, permit)?;
    if check.ok() {
        println!(
            "{}: {} verified: the chain is intact, every game follows the rules and \
             its seed{}, and the counts match series.toml",
            dir.display(),
            take6::names::count(check.games, "game"),
            if check.seating {
                " and is seated as the schedule says"
            } else {
                ""
            }
        );
        for note in &check.unchecked {
            // The game's words (a judge's draw), made inert all the same.
            println!("not re-checked: {}", untrusted::terminal_text(note));
        }
        return Ok(ExitCode::SUCCESS);
    }
    println!(
        "{}: does NOT verify ({} read)",
        dir.display(),
        take6::names::count(check.games, "game")
    );
    // Problems quote the records, which hold what bots wrote.
    if let Some(first) = check.first() {
        println!(
            "first problem: {}",
            untrusted::terminal_text(&first.to_string())
        );
    }
    // A single problem is the first: said once.
    let listed = if check.problems.len() + check.more as usize > 1 {
        &check.problems[..]
    } else {
        &[]
    };
    for problem in listed {
        println!("  {}", untrusted::terminal_text(&problem.to_string()));
    }
    if check.more > 0 {
        println!("  … and {} more", check.more);
    }
    Ok(ExitCode::FAILURE)
}

/// Logs go to the series' `logs/controller.log` (info and up, or RUST_LOG) and to stderr
/// (warnings and up, or RUST_LOG), above the progress bar.
fn init_logging(dir: &SeriesDir, bar: BarSlot) -> anyhow::Result<()> {
    let path = dir.log_file();
    // Appended to: a resumed series keeps the log of its earlier attempts.
    // Through the door: `logs` and the log are never links or FIFOs (a resumed folder may have
    // been handed over with logs/controller.log linked to a host file).
    let file = take6::door::Folder::open(&dir.path)
        .and_then(|f| f.open_append(std::path::Path::new("logs/controller.log")))
        .with_context(|| format!("cannot open {}", path.display()))?;
    let filter = |default: &str| {
        EnvFilter::try_from_default_env().unwrap_or_else(|_| EnvFilter::new(default))
    };
    tracing_subscriber::registry()
        .with(
            tracing_subscriber::fmt::layer()
                .with_ansi(false)
                .with_writer(std::sync::Mutex::new(file))
                .with_filter(filter("info")),
        )
        .with(
            tracing_subscriber::fmt::layer()
                // Colour only for a person at a terminal, and never when NO_COLOR is set
                // (https://no-color.org): a file or a pipe gets plain text.
                .with_ansi(
                    std::io::IsTerminal::is_terminal(&std::io::stderr())
                        && std::env::var_os("NO_COLOR").is_none_or(|v| v.is_empty()),
                )
                .with_writer(StderrAboveBar(bar))
                .with_filter(filter("warn")),
        )
        .init();
    Ok(())
}
