//! The `take6` command line: parse, call the library, map errors to exit codes.

use std::process::ExitCode;

use anyhow::Context;
use clap::Parser;
use take6::config::{Cli, Command, Settings};
use take6::series::{self, SeriesDir, SeriesError, Status, StderrAboveBar};
use tracing_subscriber::EnvFilter;
use tracing_subscriber::layer::{Layer, SubscriberExt};
use tracing_subscriber::util::SubscriberInitExt;

/// Exit code of a series stopped by Ctrl-C (128 + SIGINT), as shells expect.
const INTERRUPTED: u8 = 130;

fn main() -> ExitCode {
    // A warm sandbox's PID 1 (hidden: started by the controller itself, never by people).
    let mut args = std::env::args();
    if args.nth(1).as_deref() == Some(take6::sandbox::warm::INIT_ARG) {
        return ExitCode::from(take6::sandbox::warm::init_main(
            &args.next().unwrap_or_default(),
        ));
    }
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
    let dir = SeriesDir::create(&settings.results)?;
    init_logging(&dir)?;
    let runtime = tokio::runtime::Runtime::new().context("cannot start the async runtime")?;
    let result = runtime.block_on(series::run(&settings, &dir, stop_signal()));
    // A read of the keyboard (`take6 play`) may still be pending; do not wait for it.
    runtime.shutdown_timeout(std::time::Duration::from_millis(200));
    let outcome = match result {
        Ok(outcome) => outcome,
        Err(e @ SeriesError::InterruptedBeforeGames) => {
            eprintln!("take6: {e}");
            return Ok(ExitCode::from(INTERRUPTED));
        }
        Err(e) => return Err(e.into()),
    };
    print!("{}", outcome.summary());
    Ok(match outcome.status {
        Status::Interrupted => ExitCode::from(INTERRUPTED),
        _ => ExitCode::SUCCESS,
    })
}

/// Resolves on Ctrl-C, SIGTERM or SIGHUP (a closed terminal): the series then stops cleanly,
/// killing its bots and keeping every finished game, instead of dying with bots left behind.
async fn stop_signal() {
    use tokio::signal::unix::{SignalKind, signal};
    let kinds = [
        SignalKind::interrupt(),
        SignalKind::terminate(),
        SignalKind::hangup(),
    ];
    let mut streams: Vec<_> = kinds.into_iter().filter_map(|k| signal(k).ok()).collect();
    if streams.is_empty() {
        // No signal handling available: never stop early.
        std::future::pending::<()>().await;
    }
    futures::future::select_all(streams.iter_mut().map(|s| Box::pin(s.recv()))).await;
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
