//! The command line: `take6`'s commands and each one's flags (clap). What they mean once
//! combined with `take6.toml` and the defaults is [`super::Settings`]'s business.

use std::path::PathBuf;

use clap::{Args, Parser, Subcommand};

use crate::sandbox::{Clock, Mode};
use crate::schedule::ScheduleKind;
use crate::shard::Shard;

/// take6: a King-of-the-Hill tournament controller for bot games: Take 6! (6 nimmt!), with
/// --game kingdomino CodinGame's Kingdomino, and with --game FOLDER any game whose judge
/// program speaks Botzone's protocol (a game folder: its judge and game.toml).
///
/// Drop each bot's folder (with an executable `launch`, optionally a `build`) into `bots/` and
/// run a series; results go to `results/<series-id>/` (`results/latest` is the newest).
#[derive(Debug, Parser)]
#[command(version, about, long_about, args_override_self = true)]
pub struct Cli {
    #[command(subcommand)]
    pub command: Command,
    /// Say more: the sandbox line lists every protection enforced
    #[arg(short, long, global = true)]
    pub verbose: bool,
}

#[derive(Debug, Subcommand)]
pub enum Command {
    /// Run a series: build every bot, play the games, write games.jsonl, leaderboard.csv,
    /// series.toml and logs under the results folder. A flag given twice takes its last value.
    #[command(args_override_self = true)]
    Run(RunArgs),
    /// Play yourself, at the keyboard, against the bots (Take 6 or, with --game kingdomino,
    /// Kingdomino; built-ins fill the table).
    /// Games are recorded under the results folder like any series.
    #[command(args_override_self = true)]
    Play(PlayArgs),
    /// Recompute a series' leaderboard from its games.jsonl (e.g. after the controller was
    /// killed), rewrite its leaderboard.csv and report.html and print the summary.
    Leaderboard {
        /// The series folder
        #[arg(value_name = "SERIES_DIR", default_value = "results/latest")]
        dir: PathBuf,
        /// The game folder whose judge verifies the games (a series of a game folder: the
        /// folder series.toml names is never run)
        #[arg(long, value_name = "PATH")]
        game: Option<String>,
    },
    /// Check a bot before submitting it: build it, play a few games against the built-ins
    /// and print the transcript of the first game, each fault with what a correct reply would
    /// have been, reply times against the limits and the mean score. Exits 0 only when the bot
    /// never faulted. The bot's folder is only read (a copy is built and played). Without a
    /// bot, `take6 check --game FOLDER` checks a game folder's judge: its padding bots play
    /// it and its log is printed; exits 0 only when no game was void.
    Check(CheckArgs),
    /// Print one recorded game turn by turn: the rows after each turn, where every card went,
    /// who took what, and the running cows (what report.html's game viewer shows).
    Replay {
        /// The series folder, e.g. results/latest
        #[arg(value_name = "SERIES_DIR")]
        dir: PathBuf,
        /// The game's number (the `game` field of games.jsonl, from 0)
        #[arg(value_name = "GAME")]
        game: u64,
    },
    /// Check a series' results: replay every game in its games.jsonl through an independent
    /// rules checker, check each line's SHA-256 chain and the counts in series.toml, and name
    /// the first bad line. Exits 1 when anything fails.
    Verify {
        /// The series folder
        #[arg(value_name = "SERIES_DIR", default_value = "results/latest")]
        dir: PathBuf,
        /// The game folder whose judge runs again over the logs (a series of a game folder:
        /// the folder series.toml names is never run; refused unless it is the code played)
        #[arg(long, value_name = "PATH")]
        game: Option<String>,
    },
    /// Merge the shards of one series (each a folder of `take6 run --shard I/N`) into a new
    /// series folder equal to a one-machine run with the same seed and settings. Each shard is
    /// verified first; shards of different series, overlapping or missing games are refused.
    Merge(MergeArgs),
    /// Remove old checks and plays (and with --series old series of `take6 run`), keeping the
    /// newest of each kind and whatever `latest` names or a running take6 holds. --dry-run
    /// lists them first.
    Clean(CleanArgs),
    /// Write a bot folder to start from: source in --lang that reads the protocol, plays a
    /// legal move and flushes; take6 writes its build and launch. Check it with take6 check.
    New(crate::starter::NewArgs),
    /// A hill that lives across runs: new and changed bots join the league's games (a changed
    /// folder is a new version), the next games are chosen to settle the top K, and it stops
    /// when their order is settled with a 5 % error rate under repeated looks. Writes
    /// leaderboard.csv, leaderboard.md, games.jsonl and league.toml after every batch.
    // A league refuses duplicate deals (private storage across runs would recognise a deal):
    // the shared table flags' --duplicate is not offered.
    #[command(
        args_override_self = true,
        mut_arg("duplicate", |a| a.hide(true)),
        mut_arg("no_duplicate", |a| a.hide(true))
    )]
    League(LeagueArgs),
    /// Is NEW better than OLD? Paired games (each deal played twice, NEW and OLD swapping
    /// seats and hands; the other seats from --field or the built-ins) and a sequential test
    /// that stops at a verdict, better, not better or undecided (--games ran out), with error
    /// rates alpha and beta. Exits 0 for better, 3 for not better, 4 for undecided.
    #[command(
        args_override_self = true,
        mut_arg("bots", |a| a.hide(true)),
        mut_arg("duplicate", |a| a.hide(true)),
        mut_arg("no_duplicate", |a| a.hide(true))
    )]
    Compare(CompareArgs),
}

/// Flags of `take6 compare`.
#[derive(Debug, Default, Clone, Args)]
pub struct CompareArgs {
    /// The new version's bot folder
    #[arg(value_name = "NEW")]
    pub new: PathBuf,
    /// The old version's bot folder (a folder of another name)
    #[arg(value_name = "OLD")]
    pub old: PathBuf,
    /// The flags `take6 run` shares (table, seed, limits, sandbox).
    #[command(flatten)]
    pub table: TableArgs,
    /// The game: take6, kingdomino or a game folder [default: take6]
    #[arg(long, value_name = "GAME")]
    pub game: Option<String>,
    /// A folder of bots for the other seats (say a league's) [default: the game's built-ins]
    #[arg(long, value_name = "DIR")]
    pub field: Option<PathBuf>,
    /// H1: NEW better by at least M, in the game's score per game (cows, points), or in Elo
    /// for a game that only ranks [default: 1 point, or 20 Elo]
    #[arg(long, value_name = "M")]
    pub margin: Option<f64>,
    /// The error rate of a "better" when NEW is not better [default: 0.05]
    #[arg(long, value_name = "A")]
    pub alpha: Option<f64>,
    /// The error rate of a "not better" when NEW is better by the margin [default: 0.05]
    #[arg(long, value_name = "B")]
    pub beta: Option<f64>,
    /// Play at most N games in all (whole pairs); the verdict is undecided when they run out
    /// [default: 10000; with --resume, the compare's own budget]
    #[arg(long, value_name = "N")]
    pub games: Option<u64>,
    /// Games played at once (the games and the verdict do not depend on it) [default: the
    /// number of CPUs]
    #[arg(long, value_name = "N")]
    pub jobs: Option<usize>,
    /// Continue a stopped or undecided compare in its folder (the same NEW, OLD and field;
    /// a larger --games plays on past its budget)
    #[arg(long, value_name = "DIR")]
    pub resume: Option<PathBuf>,
}

/// Flags of `take6 league`.
#[derive(Debug, Default, Clone, Args)]
pub struct LeagueArgs {
    /// The flags `take6 run` shares (bots, table, seed, limits, sandbox).
    #[command(flatten)]
    pub table: TableArgs,
    /// The game: take6, kingdomino or a game folder [default: take6]
    #[arg(long, value_name = "GAME")]
    pub game: Option<String>,
    /// The league's folder [default: results/league/GAME]
    #[arg(long, value_name = "DIR")]
    pub league: Option<PathBuf>,
    /// How many leading ranks must be settled [default: 3]
    #[arg(long, value_name = "K")]
    pub top: Option<usize>,
    /// Games played at once (the games do not depend on it) [default: the number of CPUs]
    #[arg(long, value_name = "N")]
    pub jobs: Option<usize>,
    /// Play at most N more games in this run (whole batches)
    #[arg(long, value_name = "N")]
    pub games: Option<u64>,
    /// Keep playing and re-ranking once the ranking is settled (until Ctrl-C or --games)
    #[arg(long)]
    pub forever: bool,
    /// Let the league's bots whose folders are gone leave it (their private storage is
    /// wiped); without it such a run is refused, naming them
    #[arg(long)]
    pub withdraw: bool,
    /// Games per batch, fixed when the league is made [default: 8]
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u64).range(1..=10_000))]
    pub batch: Option<u64>,
    /// Games a new version plays first, before the choice looks at the ranking [default: 10]
    #[arg(long, value_name = "N")]
    pub min_games: Option<u64>,
}

/// Flags of `take6 merge`.
#[derive(Debug, Clone, Args)]
pub struct MergeArgs {
    /// Folder the merged series' folder is made in
    #[arg(long, value_name = "DIR", default_value = "results")]
    pub results: PathBuf,
    /// Merge even when games are missing (shards not given or not finished), and list them
    #[arg(long)]
    pub partial: bool,
    /// The game folder whose judge verifies the shards (a series of a game folder: the
    /// folder their series.toml names is never run)
    #[arg(long, value_name = "PATH")]
    pub game: Option<String>,
    /// The shards' series folders (e.g. shard-*/latest)
    #[arg(value_name = "SHARD_DIR", required = true)]
    pub shards: Vec<PathBuf>,
}

/// Flags of `take6 run`. Each overrides the same key of `take6.toml`.
#[derive(Debug, Default, Clone, Args)]
pub struct RunArgs {
    /// The flags `take6 play` shares.
    #[command(flatten)]
    pub table: TableArgs,
    /// The game: take6 (Take 6!, 2 to 10 players, lower scores win), kingdomino
    /// (CodinGame's Kingdomino, 2 to 4 players, higher scores win), or a game folder (a
    /// game.toml and a judge speaking Botzone's protocol: see docs/botzone.md)
    /// [default: take6]
    #[arg(long, value_name = "GAME")]
    pub game: Option<String>,
    /// Games to play (the budget); see --schedule for more bots than seats [default: 100]
    #[arg(long, value_name = "N")]
    pub games: Option<u64>,
    /// With more bots than seats: `all` plays every subset max(1, ceil(games / subsets))
    /// times, `balanced` exactly the budget with games per bot and pairs balanced, `auto`
    /// `all` when the subsets fit the budget, else `balanced` [default: auto]
    #[arg(long, value_name = "KIND")]
    pub schedule: Option<ScheduleKind>,
    /// Stop, within the --games budget, as soon as each of the top K ranks (--top) is
    /// separated at 95 % from the next
    #[arg(long)]
    pub until_separated: bool,
    /// How many leading ranks --until-separated waits for [default: 3]
    #[arg(long, value_name = "K")]
    pub top: Option<usize>,
    /// Games played at once [default: the number of CPUs]
    #[arg(long, value_name = "N")]
    pub jobs: Option<usize>,
    /// Continue an interrupted series in its folder [default: results/latest]: plays only
    /// the games not yet in its games.jsonl, with its recorded settings (flags may change
    /// --jobs, --build-timeout-s and --max-bot-mib, nothing that changes the games; take6.toml is not read)
    #[arg(
        long,
        value_name = "SERIES_DIR",
        num_args = 0..=1,
        default_missing_value = "results/latest"
    )]
    pub resume: Option<PathBuf>,
    /// A calibration series of the built-in strategies only (random, first, lowest, highest,
    /// gap, cycled; `random#2` from the sixth seat): no bot folder is read. Played on --jobs
    /// plain threads
    #[arg(long)]
    pub builtins_only: bool,
    /// How much of each game games.jsonl keeps: full (every card and turn) or summary (seats,
    /// faults and scores; only with --builtins-only, whose games `take6 verify` re-derives
    /// from the seed) [default: full]
    #[arg(long, value_name = "LEVEL")]
    pub record: Option<crate::record::Level>,
    /// Play a series of built-ins on the async tables (as bots' games are) instead of plain
    /// threads: for the test that both make the same games
    #[arg(long, hide = true)]
    pub async_tables: bool,
    /// Play only shard I of N of the series: the game numbers n with n % N == I (0 <= I < N),
    /// into its own series folder; `take6 merge` joins the N folders into the whole series.
    /// Every shard needs the same seed, bots and settings
    #[arg(long, value_name = "I/N")]
    pub shard: Option<Shard>,
    /// Exit 0 even when bots were skipped (without it a series that skipped a bot exits with
    /// status 3 once its games are played, so that a script notices)
    #[arg(long)]
    pub allow_skips: bool,
    /// Print the standings on stderr every N games while the series plays
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u64).range(1..))]
    pub standings_every: Option<u64>,
}

/// The flags of `run` that also make sense at the keyboard (`take6 play`): where the bots are,
/// the table, the seed, the limits and the sandbox. Kept apart so that each subcommand's
/// `--help` lists only the flags it takes.
#[derive(Debug, Default, Clone, Args)]
pub struct TableArgs {
    /// Folder holding one subfolder per bot; or one bot's own folder (with its launch, or
    /// source take6 recognises), which then plays the built-ins; or a git repository whose
    /// top-level folders are the bots: a URL or a repository's folder, optionally with @REV
    /// (branch, tag or commit); it is cloned into results/.repos/ and only read [default: bots]
    #[arg(long, value_name = "DIR|REPO[@REV]")]
    pub bots: Option<PathBuf>,
    /// Folder the series' results folder is made in [default: results]
    #[arg(long, value_name = "DIR")]
    pub results: Option<PathBuf>,
    /// Players at every table: 2 to 10 for take6, 2 to 4 for kingdomino; fewer bots are padded
    /// with built-ins, more play tables of this size [default: 10 for take6, 4 for kingdomino]
    #[arg(long, value_name = "N")]
    pub players: Option<usize>,
    /// Duplicate deals: each deal is played once per rotation of the hands among the table's
    /// seats. A bot that keeps memory can exploit them (it recognises the deal): only for bots
    /// you trust [default: off]
    #[arg(long, overrides_with = "no_duplicate")]
    pub duplicate: bool,
    /// No duplicate deals: a fresh deal every game (the default)
    #[arg(long, overrides_with = "duplicate")]
    pub no_duplicate: bool,
    /// Rounds per game: fresh deals played by the same bot processes, scores summed (the
    /// CodinGame arena plays 5) [default: 1]
    #[arg(long, value_name = "R")]
    pub rounds: Option<u32>,
    /// Master seed of all randomness (deals, seats, built-ins), up to 128 bits; one below 2^48
    /// can be found by a bot and is warned about [default: random 128 bits, recorded in
    /// series.toml]
    #[arg(long, value_name = "N", allow_hyphen_values = true)]
    pub seed: Option<crate::seed::Seed>,
    /// Time limit for a bot's first reply of a game, start-up included [default: 3000 for
    /// take6, 1000 for kingdomino]
    #[arg(long, value_name = "MS")]
    pub first_reply_ms: Option<u64>,
    /// Time limit for every later reply [default: 1000 for take6, 50 for kingdomino]
    #[arg(long, value_name = "MS")]
    pub reply_ms: Option<u64>,
    /// Time limit for a bot's build script [default: 300]
    #[arg(long, value_name = "SECONDS")]
    pub build_timeout_s: Option<u64>,
    /// How long a bot may take to exit after its last message before its process group is
    /// killed [default: 1000]
    #[arg(long, value_name = "MS")]
    pub grace_ms: Option<u64>,
    /// A bot that faults in N games in a row sits out the rest of the run: its seats are
    /// recorded as that fault (kind benched) and played by a stand-in, no process started (0:
    /// never) [default: 3]
    #[arg(long, value_name = "N")]
    pub bench_after: Option<u64>,
    /// How much isolation bots get: auto (what this machine allows, reported), strict (refuse
    /// to start without full isolation), none (process group and rlimits only) [default: auto]
    #[arg(long, value_name = "MODE")]
    pub sandbox: Option<Mode>,
    /// Memory of a bot's whole process tree, per game and per build (cgroup; the
    /// address-space rlimit of each process where no cgroup can be had) [default: 1024]
    #[arg(long, value_name = "MIB")]
    pub memory_mib: Option<u64>,
    /// Processes and threads of a bot's whole tree (pids cgroup) [default: 64]
    #[arg(long, value_name = "N")]
    pub max_procs: Option<u64>,
    /// Bytes a bot may write: growth of its working copy plus its private /tmp [default: 256]
    #[arg(long, value_name = "MIB")]
    pub disk_mib: Option<u64>,
    /// Open files per bot process (RLIMIT_NOFILE) [default: 256]
    #[arg(long, value_name = "N")]
    pub max_files: Option<u64>,
    /// What reply limits measure: cpu (CPU time of the bot's whole tree since the message) or
    /// wall [default: cpu]
    #[arg(long, value_name = "CLOCK")]
    pub clock: Option<Clock>,
    /// Under the CPU clock, a reply also fails after this many times its limit of wall time
    /// (a bot that blocks uses no CPU) [default: players + 4, at most 10]
    #[arg(long, value_name = "N")]
    pub wall_factor: Option<u32>,
    /// Keep each bot's sandbox across its games (true), or make a fresh one per game (false)
    /// [default: true]
    #[arg(long, value_name = "BOOL")]
    pub warm_sandboxes: Option<bool>,
    /// Keep each table played at once on a processor of its own, with its bots, when --jobs
    /// is a multiple of the processors (true), or let the system place them (false)
    /// [default: true]
    #[arg(long, value_name = "BOOL")]
    pub pin_tables: Option<bool>,
    /// Largest bot folder, in MiB of data (holes of sparse files not counted); a larger
    /// folder is skipped [default: 256]
    #[arg(long, value_name = "MIB")]
    pub max_bot_mib: Option<u64>,
    /// Folder of message template sets [default: templates, when it exists]
    #[arg(long, value_name = "DIR")]
    pub templates: Option<PathBuf>,
    /// Settings file [default: take6.toml in the current directory, when it exists]
    #[arg(long, value_name = "FILE")]
    pub config: Option<PathBuf>,
}

/// Flags of `take6 play`: the table's flags of `run`, the player's name and opponents, and
/// how many games (one unless told).
#[derive(Debug, Clone, Args)]
pub struct PlayArgs {
    /// Your name at the table
    #[arg(long, value_name = "NAME", default_value = "you")]
    pub name: String,
    /// The game: a game's name (take6, kingdomino) or a game folder (a game.toml and a
    /// judge speaking Botzone's protocol) [default: take6]
    #[arg(long, value_name = "GAME")]
    pub game: Option<String>,
    /// Your opponents: bots of the bots folder and built-ins by name (Take 6: random, first,
    /// lowest, highest, gap; Kingdomino: greedy, random), at most one table's seats but yours;
    /// a name may repeat for built-ins [default: every bot, padded with built-ins]
    #[arg(long, value_name = "NAME", num_args = 1..)]
    pub against: Vec<String>,
    /// Games to play, one after the other
    #[arg(long, value_name = "N", default_value_t = 1)]
    pub games: u64,
    #[command(flatten)]
    pub table: TableArgs,
}

/// Flags of `take6 check`.
#[derive(Debug, Clone, Args)]
pub struct CheckArgs {
    /// The bot's folder. Left out with --game FOLDER, the game folder's judge is checked:
    /// its padding bots play each other and the judge's log is shown
    #[arg(value_name = "DIR", required_unless_present = "game")]
    pub dir: Option<PathBuf>,
    /// The game the bot plays: a game's name (take6, kingdomino) or a game folder (a
    /// game.toml and a judge speaking Botzone's protocol) [default: take6]
    #[arg(long, value_name = "GAME")]
    pub game: Option<String>,
    /// Games to play against the built-ins
    #[arg(long, value_name = "N", default_value_t = 5)]
    pub games: u64,
    /// Master seed [default: random]
    #[arg(long, value_name = "N", allow_hyphen_values = true)]
    pub seed: Option<crate::seed::Seed>,
    /// Folder the check's series folder is made in [default: results]
    #[arg(long, value_name = "DIR")]
    pub results: Option<PathBuf>,
    /// Time limit for a bot's first reply of a game, start-up included [default: 3000 for
    /// take6, 1000 for kingdomino]
    #[arg(long, value_name = "MS")]
    pub first_reply_ms: Option<u64>,
    /// Time limit for every later reply [default: 1000 for take6, 50 for kingdomino]
    #[arg(long, value_name = "MS")]
    pub reply_ms: Option<u64>,
    /// How much isolation the bot gets, as for run: auto, strict, or none (no sandbox: its
    /// build and the bot run as your own user, e.g. with a toolchain in your home folder that
    /// the sandbox does not see) [default: auto]
    #[arg(long, value_name = "MODE")]
    pub sandbox: Option<Mode>,
}

/// Flags of `take6 clean` (here with the other commands' flags: what they do is
/// [`crate::clean`]'s).
#[derive(Debug, Clone, Args)]
pub struct CleanArgs {
    /// The results folder to clean
    #[arg(long, value_name = "DIR", default_value = "results")]
    pub results: PathBuf,
    /// Keep this many of the newest of each kind (checks, plays, run series)
    #[arg(long, value_name = "N", default_value_t = 3)]
    pub keep: usize,
    /// Remove only what is older than this (e.g. 7d, 12h) [default: any age]
    #[arg(long, value_name = "AGE", value_parser = humantime::parse_duration)]
    pub older_than: Option<std::time::Duration>,
    /// Also clean the series of `take6 run` (by default only checks and plays)
    #[arg(long)]
    pub series: bool,
    /// List what would be removed and the space it would free; remove nothing
    #[arg(long)]
    pub dry_run: bool,
}
