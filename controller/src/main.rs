//! The `take6` command line: parse, call the library, map errors to exit codes.

use std::process::ExitCode;

use anyhow::Context;
use clap::Parser;
use take6::config::{Cli, Command, Settings};
use take6::series::{self, SeriesDir, SeriesError, Status, StderrAboveBar};
use take6::signals::{self, Stop};
use tracing_subscriber::EnvFilter;
use tracing_subscriber::layer::{Layer, SubscriberExt};
use tracing_subscriber::util::SubscriberInitExt;

/// Exit code of a series stopped by Ctrl-C (128 + SIGINT), as shells expect; a series stopped
/// by another signal exits with 128 + its number.
const INTERRUPTED: u8 = 130;

fn main() -> ExitCode {
    let cli = Cli::parse();
    match run(cli) {
        Ok(code) => code,
        Err(e) => {
            eprintln!("error: {e:#}");
            ExitCode::FAILURE
        }
    }
}

fn run(cli: Cli) -> anyhow::Result<ExitCode> {
    let settings = match cli.command {
        Command::Run(args) => Settings::resolve(&args)?,
        Command::Play(args) => Settings::resolve_play(&args)?,
        Command::Leaderboard { dir } => {
            let (standings, games) = series::rebuild_leaderboard(&dir)?;
            print!("{}", take6::record::summary_table(&standings, &[]));
            println!(
                "\n{games} games; leaderboard written to {}",
                dir.join(series::LEADERBOARD).display()
            );
            return Ok(ExitCode::SUCCESS);
        }
    };
    // Before any thread starts: Ctrl-C, SIGTERM and SIGHUP stop the series cleanly, and the
    // process within a few seconds whatever it is doing (see take6::signals).
    let stop = Stop::install().context("cannot watch for Ctrl-C")?;
    let dir = SeriesDir::create(&settings.results)?;
    init_logging(&dir)?;
    let runtime = tokio::runtime::Runtime::new().context("cannot start the async runtime")?;
    let result = runtime.block_on(series::run(&settings, &dir, stop.requested()));
    // A read of the keyboard (`take6 play`) may still be pending; do not wait for it.
    runtime.shutdown_timeout(std::time::Duration::from_millis(200));
    // Whatever a cancelled task may have left running.
    signals::kill_children();
    let interrupted = ExitCode::from(stop.received().map_or(INTERRUPTED, signals::exit_code));
    let outcome = match result {
        Ok(outcome) => outcome,
        Err(e @ SeriesError::InterruptedBeforeGames) => {
            eprintln!("take6: {e}");
            return Ok(interrupted);
        }
        Err(e) => return Err(e.into()),
    };
    print!("{}", outcome.summary());
    Ok(match outcome.status {
        Status::Interrupted => interrupted,
        _ => ExitCode::SUCCESS,
    })
}

/// Logs go to the series' `logs/controller.log` (info and up, or RUST_LOG) and to stderr
/// (warnings and up, or RUST_LOG), above the progress bar.
fn init_logging(dir: &SeriesDir) -> anyhow::Result<()> {
    let path = dir.log_file();
    let file = std::fs::File::create(&path)
        .with_context(|| format!("cannot create {}", path.display()))?;
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
                .with_writer(StderrAboveBar)
                .with_filter(filter("warn")),
        )
        .init();
    Ok(())
}
