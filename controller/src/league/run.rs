//! `take6 league`: one run on a league folder. The series machinery does the work (the
//! launcher, the bots' builds, the tables on their lanes, the reporter with its `games.jsonl`
//! chain, bot logs and console lines); the league adds the versions, the batches and their
//! choice, and its outputs after every batch.

use std::future::Future;
use std::path::PathBuf;
use std::sync::{Arc, Mutex};

use tokio::sync::mpsc;

use super::manifest::{Benched, Field, LeagueManifest};
use super::outputs;
use super::plan::{self, Planned, Rules, Seat, Version};
use super::settle;
use crate::config::Settings;
use crate::record::GameRecord;
use crate::schedule::{Entrant, GamePlan};
use crate::series::continued::{Continued, Kept, Refusal, Why, same_game, unchanged};
use crate::series::dir::{GAMES, SeriesDir};
use crate::series::lineup::Lineup;
use crate::series::reporter::{Event, Reporter, Sink, SinkError, Start, State};
use crate::series::sinks::progress::BarSlot;
use crate::series::sinks::{self, games::GamesFile};
use crate::series::start::{Log, Setup};
use crate::series::{SeriesError, Status};
use crate::table::TableSeat;

/// What a run of `take6 league` is asked beyond a series' settings.
#[derive(Debug, Clone)]
pub struct Options {
    /// The league's folder.
    pub dir: PathBuf,
    /// Games per batch, when the league is made (default 8).
    pub batch: Option<usize>,
    /// Games a new version plays first, when the league is made (default 10).
    pub min_games: Option<u64>,
    /// Play at most this many games in this run.
    pub games: Option<u64>,
    /// Keep playing once settled.
    pub forever: bool,
    /// `--players`, `--rounds` and `--top` when given (a league keeps its own otherwise).
    pub players: Option<usize>,
    pub rounds: Option<u32>,
    pub top: Option<usize>,
    /// Where the bots came from, as league.toml records it (see [`LeagueManifest::bots`]).
    pub bots: String,
    /// `--withdraw`: bots of the league whose folders are gone may leave it.
    pub withdraw: bool,
}

/// `--bots` as a league records it: a repository as given, a folder by its absolute path.
pub fn bots_source(bots: &std::path::Path) -> String {
    match crate::repo::parse(bots) {
        Some(_) => bots.display().to_string(),
        None => std::path::absolute(bots)
            .unwrap_or_else(|_| bots.to_path_buf())
            .display()
            .to_string(),
    }
}

/// The bots a league records, for a run that gives no `--bots`: `None` for a new league or
/// one made before leagues recorded them.
pub fn recorded_bots(dir: &std::path::Path) -> Result<Option<String>, SeriesError> {
    Ok(LeagueManifest::read(dir)?.and_then(|m| m.bots))
}

/// How a run ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Ended {
    /// The top K are settled: nothing to play.
    Settled,
    /// `--games N` played.
    Budget,
    /// Ctrl-C or another stop signal.
    Interrupted,
    /// Fewer than two bots to rank.
    TooFew,
}

impl Ended {
    fn word(self) -> &'static str {
        match self {
            Ended::Settled => "settled",
            Ended::Budget => "budget",
            Ended::Interrupted => "interrupted",
            Ended::TooFew => "too-few-bots",
        }
    }
}

#[derive(Debug)]
pub struct LeagueOutcome {
    pub dir: PathBuf,
    pub ended: Ended,
    /// Games played by this run.
    pub played: u64,
}

/// What the league's sinks share with its run: every record (played or read back),
/// summarised, for its choices; the versions, to key each game's players; and what its report
/// gathers from every game under those keys.
#[derive(Clone, Default)]
struct Shared {
    records: Arc<Mutex<Vec<GameRecord>>>,
    versions: Arc<Mutex<Vec<Version>>>,
    gathered: Arc<Mutex<outputs::Gathered>>,
}

impl Shared {
    /// The versions the records' players are keyed by from now on.
    fn set_versions(&self, versions: &[Version]) {
        *self.versions.lock().expect("not poisoned") = versions.to_vec();
    }
}

/// The sink that fills [`Shared`].
struct Collector(Shared);

impl Sink for Collector {
    fn event(&mut self, event: &Event<'_>, _: &State) -> Result<(), SinkError> {
        if let Event::GameFinished(record, _) = event {
            let mut keyed = (*record).clone();
            {
                let versions = self.0.versions.lock().expect("not poisoned");
                for p in &mut keyed.players {
                    *p = plan::key_at(&versions, p, record.game);
                }
            }
            self.0.gathered.lock().expect("not poisoned").add(&keyed);
            self.0
                .records
                .lock()
                .expect("not poisoned")
                .push((*record).clone().summary());
        }
        Ok(())
    }
}

/// Plays the league in `opts.dir` with `settings`' game, bots, limits and sandbox.
pub async fn run(
    settings: &Settings,
    opts: &Options,
    stop: impl Future<Output = ()>,
    bar: BarSlot,
) -> Result<LeagueOutcome, SeriesError> {
    let (mut manifest, own) = open(settings, opts)?;
    let settings = &own;
    let dir = SeriesDir {
        id: manifest.league.clone(),
        path: opts.dir.clone(),
    };
    let _lock = dir.lock()?;
    let rules = rules_of(&manifest, settings);
    let mut start = Setup::open(settings)?;
    start.launch(settings)?;
    let mut stop = std::pin::pin!(stop);
    // Each version's private storage: its working copy, kept from the run before.
    let kept = Arc::new(manifest.kept_copies());
    let (bots, skipped) = start
        .entrants(settings, &dir, (&bar, kept), None, &mut stop)
        .await?;
    let names = bots.iter().map(|(b, _)| b.name.clone()).collect();
    let lineup = Lineup::of(bots, names, skipped);
    let shared = Shared::default();
    shared.set_versions(&manifest.versions);
    let mut reporter = Reporter::new(
        &dir.id,
        league_sinks((settings, opts), &dir, &shared, bar.clone()),
    );
    Setup::read_back(&mut reporter, &dir, &lineup.skipped, Log::League)?;
    let mut records = std::mem::take(&mut *shared.records.lock().expect("not poisoned"));
    let first = admit(
        &mut manifest,
        &lineup,
        &reporter.state().done,
        (settings, opts),
        &dir,
    )?;
    shared.set_versions(&manifest.versions);
    let so_far = reporter.state().lines;
    reporter.handle(&Event::Started(&Start {
        line: start_line(&manifest, &lineup, &dir),
        // With --games N the bar's length; otherwise it counts games with none.
        planned: so_far + opts.games.unwrap_or(0),
    }))?;
    let seats = crate::series::play::seats_of(settings, &lineup, start.sandbox.as_ref());
    let ctx = Ctx {
        settings,
        opts,
        rules: &rules,
        lineup: &lineup,
        seats: &seats,
        dir: &dir,
        bar: &bar,
        shared: &shared,
    };
    let (reporter, ended, played, pairs) = batches(
        &ctx,
        &mut manifest,
        reporter,
        &mut records,
        first,
        stop.as_mut(),
    )
    .await?;
    finish(&ctx, &mut manifest, reporter, &records, ended, &pairs)?;
    if let Some(why) = start.sandbox().host_trouble() {
        return Err(SeriesError::DiskFull(why));
    }
    Ok(LeagueOutcome {
        dir: dir.path.clone(),
        ended,
        played,
    })
}

/// The bots of this run admitted to the league ([`join`]: who joined, changed, came back or
/// left, said on stderr; leaving refused without `--withdraw`), their storage kept, the run
/// counted: the batch to play first.
fn admit(
    manifest: &mut LeagueManifest,
    lineup: &Lineup,
    done: &crate::series::reporter::GameSet,
    (settings, opts): (&Settings, &Options),
    dir: &SeriesDir,
) -> Result<u64, SeriesError> {
    let (first, changes) = join(manifest, lineup, done);
    if !changes.left.is_empty() && !opts.withdraw {
        return Err(refused(Why::BotsLeft {
            bots: changes.left,
            folder: settings.bots.clone(),
            league: dir.path.clone(),
        })
        .into());
    }
    if let Some(line) = changes.line() {
        eprintln!("take6: {line}");
    }
    keep_storage(manifest, lineup, dir)?;
    manifest.runs += 1;
    manifest.status = "playing".into();
    manifest.skipped = lineup
        .skipped
        .iter()
        .map(|s| Benched {
            name: s.name.clone(),
            reason: s.reason.clone(),
        })
        .collect();
    Ok(first)
}

/// The league in `opts.dir` (made when there is none, else continued if nothing that fixes
/// its choices changed) and the settings it plays with: its own table size and top K,
/// whatever the defaults say.
fn open(settings: &Settings, opts: &Options) -> Result<(LeagueManifest, Settings), SeriesError> {
    std::fs::create_dir_all(&opts.dir).map_err(crate::series::dir::write_err(&opts.dir))?;
    let manifest = match LeagueManifest::read(&opts.dir)? {
        Some(m) => accept(m, settings, opts)?,
        None => fresh(settings, opts),
    };
    let mut own = settings.clone();
    own.players = manifest.players;
    own.rounds = manifest.rounds;
    own.top = manifest.top;
    Ok((manifest, own))
}

/// What every batch is played with.
struct Ctx<'a> {
    settings: &'a Settings,
    opts: &'a Options,
    rules: &'a Rules,
    lineup: &'a Lineup,
    seats: &'a [TableSeat],
    dir: &'a SeriesDir,
    bar: &'a BarSlot,
    shared: &'a Shared,
}

/// Each top pair's progress, as the last batch chosen saw it.
type Pairs = Vec<(String, String, settle::Progress)>;

/// How far the top pairs are after `games`, one line each, for people.
fn pair_lines(pairs: &Pairs, games: u64) -> Vec<String> {
    pairs
        .iter()
        .map(|(upper, lower, p)| {
            let (upper, lower) = (
                crate::untrusted::terminal(upper),
                crate::untrusted::terminal(lower),
            );
            match p {
                settle::Progress::Settled => format!("{upper} above {lower}: settled"),
                settle::Progress::Early => {
                    format!("{upper} and {lower}: too few games together to say yet")
                }
                settle::Progress::Tied { z } => format!(
                    "{upper} and {lower} look tied (z {z:.1} after {games} games): at this rate \
                     they may never separate; stop with Ctrl-C or --games N, or begin a league \
                     with a smaller --top"
                ),
                settle::Progress::Under { ratio, factor } => format!(
                    "{upper} above {lower}: {:.0} % of the way, about {} more games at this rate",
                    ratio * 100.0,
                    more_games(*factor, games)
                ),
            }
        })
        .collect()
}

/// The games still needed when `factor` times the information so far settles a pair.
fn more_games(factor: f64, games: u64) -> u64 {
    ((factor - 1.0) * games as f64).ceil().max(1.0) as u64
}

/// The line said every so often while a league plays: each unsettled top pair in short, and
/// the games the slowest needs.
fn progress_line(pairs: &Pairs, games: u64) -> String {
    let mut parts = Vec::new();
    let mut most: Option<u64> = Some(0);
    for (upper, lower, p) in pairs {
        let (upper, lower) = (
            crate::untrusted::terminal(upper),
            crate::untrusted::terminal(lower),
        );
        match p {
            settle::Progress::Settled => {}
            settle::Progress::Early => parts.push(format!("{upper} / {lower}: early")),
            settle::Progress::Tied { .. } => {
                parts.push(format!("{upper} / {lower}: look tied"));
                most = None;
            }
            settle::Progress::Under { ratio, factor } => {
                parts.push(format!("{upper} / {lower}: {:.0} %", ratio * 100.0));
                most = most.map(|m| m.max(more_games(*factor, games)));
            }
        }
    }
    let end = match most {
        _ if parts.is_empty() => "settled".to_string(),
        Some(0) => "too early for an estimate".to_string(),
        Some(n) => format!("about {n} more games"),
        None => "no end in sight for a tied pair (Ctrl-C or --games N to stop)".to_string(),
    };
    format!(
        "take6: after {games} games, the top pairs: {}; {end}",
        parts.join(", ")
    )
}

/// The batches of this run, from `first`: each chosen from the records before it, its
/// outputs written after it. The reporter back, how the run ended, the games it played and
/// the top pairs' progress at the last batch chosen.
async fn batches(
    ctx: &Ctx<'_>,
    manifest: &mut LeagueManifest,
    mut reporter: Reporter,
    records: &mut Vec<GameRecord>,
    first: u64,
    mut stop: std::pin::Pin<&mut impl Future<Output = ()>>,
) -> Result<(Reporter, Ended, u64, Pairs), SeriesError> {
    let mut played = 0u64;
    let mut said_at = std::time::Instant::now();
    let mut b = first;
    // The tally of the games before batch b, kept as batches end (records in game order).
    let mut tally = crate::record::Tally::with_model(ctx.rules.direction, ctx.rules.model);
    let mut counted = 0;
    loop {
        records.sort_by_key(|r| r.game);
        let start = b * ctx.rules.batch as u64;
        while counted < records.len() && records[counted].game < start {
            plan::add_keyed(&mut tally, &manifest.versions, &records[counted]);
            counted += 1;
        }
        let field = manifest.field_of(b).to_vec();
        let chose = std::time::Instant::now();
        let batch = plan::batch_from(ctx.rules, &manifest.versions, &field, &tally, records, b);
        tracing::info!(
            "batch {b} chosen (the fit and the tables) after {} games of {} versions in {} ms",
            records.len(),
            manifest.versions.len(),
            chose.elapsed().as_millis()
        );
        manifest.benched = batch
            .benched
            .iter()
            .map(|(name, reason)| Benched {
                name: name.clone(),
                reason: reason.clone(),
            })
            .collect();
        write_outputs(
            ctx,
            manifest,
            (&tally, &records[counted..]),
            reporter.state().lines,
        )?;
        let fresh = b >= manifest.batches;
        if fresh {
            let playing = field.len() - batch.benched.len();
            let stop_now = if playing < 2 {
                Some(Ended::TooFew)
            } else if batch.settled && !ctx.opts.forever {
                Some(Ended::Settled)
            } else if ctx.opts.games.is_some_and(|n| played >= n) {
                Some(Ended::Budget)
            } else {
                None
            };
            if let Some(ended) = stop_now {
                return Ok((reporter, ended, played, batch.pairs));
            }
            if said_at.elapsed() >= sinks::progress::line_every() {
                said_at = std::time::Instant::now();
                let line = progress_line(&batch.pairs, start);
                ctx.bar.above(|| eprintln!("{line}"));
            }
            manifest.batches = b + 1;
            manifest.write(&ctx.dir.path)?;
        }
        let plans = to_play(ctx, &batch.games, &reporter.state().done, played);
        let before = reporter.state().lines;
        let (back, result, interrupted) = play_batch(ctx, plans, reporter, stop.as_mut()).await;
        reporter = back;
        played += reporter.state().lines - before;
        records.append(&mut ctx.shared.records.lock().expect("not poisoned"));
        result?;
        if interrupted {
            return Ok((reporter, Ended::Interrupted, played, batch.pairs));
        }
        b += 1;
    }
}

/// Writes the league's outputs from one snapshot: the tally of the games before a batch and
/// the records of that batch played so far (a batch under way when the league stopped), each
/// player under its version's key; the `games` of `games.jsonl` and what the report gathered.
fn write_outputs(
    ctx: &Ctx<'_>,
    manifest: &LeagueManifest,
    (tally, under_way): (&crate::record::Tally, &[GameRecord]),
    games: u64,
) -> Result<Vec<crate::record::Standing>, SeriesError> {
    let mut shown = None;
    if !under_way.is_empty() {
        let all = shown.insert(tally.clone());
        for r in under_way {
            plan::add_keyed(all, &manifest.versions, r);
        }
    }
    let gathered = ctx.shared.gathered.lock().expect("not poisoned");
    let snap = outputs::Snapshot {
        manifest,
        tally: shown.as_ref().unwrap_or(tally),
        games,
        gathered: &gathered,
        game: ctx.settings.game.clone(),
    };
    outputs::write(ctx.dir, &snap)
}

/// The games of a batch still to play, as the series' tables take them: those not recorded,
/// within this run's budget, which counts this run's `played` games (a batch it would overrun
/// is played in part, in game order; the next run finishes it).
fn to_play(
    ctx: &Ctx<'_>,
    games: &[Planned],
    done: &crate::series::reporter::GameSet,
    played: u64,
) -> Vec<GamePlan> {
    let left = ctx
        .opts
        .games
        .map_or(u64::MAX, |n| n.saturating_sub(played));
    games
        .iter()
        .filter(|g| !done.contains(g.game))
        .take(usize::try_from(left).unwrap_or(usize::MAX))
        .map(|g| game_plan(g, ctx.lineup))
        .collect()
}

/// A planned game as the series' tables take it: each bot by its index in the lineup.
fn game_plan(g: &Planned, lineup: &Lineup) -> GamePlan {
    GamePlan {
        game: g.game,
        seed: g.seed,
        subset: 0,
        rotation: 0,
        seats: g
            .seats
            .iter()
            .map(|s| match s {
                Seat::Bot(name) => Entrant::Bot(
                    lineup
                        .names
                        .iter()
                        .position(|n| n == name)
                        .expect("the field's bots are in the lineup"),
                ),
                Seat::Builtin(kind, n) => Entrant::Builtin(*kind, *n),
            })
            .collect(),
    }
}

/// One batch's games on the series' tables, their outcomes to the reporter on a task of its
/// own; the reporter back, how it ended and whether a stop cut it short.
async fn play_batch(
    ctx: &Ctx<'_>,
    plans: Vec<GamePlan>,
    mut reporter: Reporter,
    stop: std::pin::Pin<&mut impl Future<Output = ()>>,
) -> (Reporter, Result<(), SinkError>, bool) {
    let (tx, rx) = mpsc::channel(ctx.settings.jobs * 2);
    let task = tokio::spawn(async move {
        let result = reporter.run(rx).await;
        (reporter, result)
    });
    let interrupted = crate::series::dispatch::dispatch_plans(
        plans.into_iter(),
        ctx.seats,
        ctx.lineup,
        ctx.settings,
        tx,
        stop,
    )
    .await;
    let (reporter, result) = task.await.expect("the reporter does not panic");
    (reporter, result, interrupted)
}

/// The end of a run: the outputs, the manifest and the summary.
fn finish(
    ctx: &Ctx<'_>,
    manifest: &mut LeagueManifest,
    mut reporter: Reporter,
    records: &[GameRecord],
    ended: Ended,
    pairs: &Pairs,
) -> Result<(), SeriesError> {
    let status = match ended {
        Ended::Interrupted => Status::Interrupted,
        _ => Status::Complete,
    };
    reporter.handle(&Event::Finished(status))?;
    let state = reporter.state();
    manifest.games_played = state.lines;
    manifest.chain = state.chain.head().to_string();
    manifest.status = ended.word().to_string();
    manifest.write(&ctx.dir.path)?;
    let all = outputs::tally_of(ctx.rules, &manifest.versions, records);
    let gathered = ctx.shared.gathered.lock().expect("not poisoned");
    let snap = outputs::Snapshot {
        manifest,
        tally: &all,
        games: state.lines,
        gathered: &gathered,
        game: ctx.settings.game.clone(),
    };
    let board = outputs::write(ctx.dir, &snap)?;
    let said = match ended {
        Ended::Settled => format!(
            "the top {} are settled (each adjacent pair separated, error rate at most {} % \
             under repeated looks); nothing more to play",
            outputs::shown_top(ctx.rules.top, board.len()),
            ctx.rules.alpha * 100.0
        ),
        Ended::Budget => "the --games budget of this run is played".into(),
        Ended::Interrupted => format!(
            "interrupted; to go on: take6 league --league {}",
            ctx.dir.path.display()
        ),
        Ended::TooFew => "fewer than two bots can play: nothing to rank".into(),
    };
    print!("{}", outputs::terminal(&snap, &board));
    if ended != Ended::Settled && ended != Ended::TooFew && !pairs.is_empty() {
        println!(
            "The top pairs after {} games:\n  {}",
            state.lines,
            pair_lines(pairs, state.lines).join("\n  ")
        );
    }
    println!(
        "{} in the league, {} this run; {said}; results in {}",
        crate::names::count(state.lines, "game"),
        state.played,
        ctx.dir.path.display()
    );
    Ok(())
}

/// A new league's manifest.
fn fresh(settings: &Settings, opts: &Options) -> LeagueManifest {
    let stamp = crate::series::dir::now().replace([':', '-'], "");
    LeagueManifest {
        league: format!("league-{stamp}"),
        controller_version: env!("CARGO_PKG_VERSION").to_string(),
        chooser: super::manifest::CHOOSER,
        game: settings.game.spec(),
        game_hash: settings.game.content_hash().ok().flatten(),
        bots: Some(opts.bots.clone()),
        seed: settings.seed,
        players: settings.players,
        rounds: settings.rounds,
        batch: opts.batch.unwrap_or(8),
        top: settings.top,
        min_games: opts.min_games.unwrap_or(10),
        alpha: 0.05,
        runs: 0,
        batches: 0,
        games_played: 0,
        chain: String::new(),
        status: String::new(),
        versions: Vec::new(),
        fields: Vec::new(),
        closed: Vec::new(),
        benched: Vec::new(),
        skipped: Vec::new(),
        kept: Vec::new(),
    }
}

/// A league's next run refused for `why`.
fn refused(why: Why) -> Refusal {
    Refusal {
        run: Continued::League,
        why,
    }
}

/// An existing league continued: what fixes its choices may not change.
fn accept(
    mut m: LeagueManifest,
    settings: &Settings,
    opts: &Options,
) -> Result<LeagueManifest, SeriesError> {
    if !super::manifest::CHOOSERS.contains(&m.chooser) {
        return Err(refused(Why::Chooser {
            chooser: m.chooser.to_string(),
            version: m.controller_version.clone(),
            known: choosers(),
        })
        .into());
    }
    unchanged(
        Continued::League,
        &[
            Kept::flag("game", "--game", &m.game, Some(settings.game.name())),
            Kept::flag(
                "seed",
                "--seed",
                m.seed,
                settings.seed_given.then_some(settings.seed),
            ),
            Kept::flag("players", "--players", m.players, opts.players),
            Kept::flag("rounds", "--rounds", m.rounds, opts.rounds),
            Kept::flag("batch", "--batch", m.batch, opts.batch),
            Kept::flag("min_games", "--min-games", m.min_games, opts.min_games),
            Kept::flag("top", "--top", m.top, opts.top),
        ],
    )?;
    // A game folder's code that cannot be read now is not compared (it fails as it is built).
    if let Err(e) = same_game(Continued::League, &settings.game, m.game_hash.as_deref())
        && matches!(e.why, Why::GameChanged { .. })
    {
        return Err(e.into());
    }
    m.bots = Some(opts.bots.clone());
    Ok(m)
}

/// The choosers this take6 knows, for people: "2 and 3".
pub(super) fn choosers() -> String {
    let known = super::manifest::CHOOSERS.map(|c| c.to_string());
    match known.split_last() {
        Some((last, [])) => last.clone(),
        Some((last, rest)) => format!("{} and {last}", rest.join(", ")),
        None => String::new(),
    }
}

fn rules_of(m: &LeagueManifest, settings: &Settings) -> Rules {
    Rules {
        chooser: m.chooser,
        seed: m.seed,
        players: m.players,
        batch: m.batch,
        top: m.top,
        min_games: m.min_games,
        alpha: m.alpha,
        direction: settings.game.direction(),
        model: settings.game.model(),
        builtins: settings.game.builtins().to_vec(),
    }
}

/// Who joined, changed, came back or left at the start of a run (version keys, shown inert).
#[derive(Debug, Default)]
struct Changes {
    joined: Vec<String>,
    changed: Vec<String>,
    back: Vec<String>,
    left: Vec<String>,
}

impl Changes {
    /// The line said at the start of a run, when anything changed.
    fn line(&self) -> Option<String> {
        let parts: Vec<String> = [
            ("joined", &self.joined),
            ("new versions", &self.changed),
            ("back as they were", &self.back),
            ("left", &self.left),
        ]
        .iter()
        .filter(|(_, who)| !who.is_empty())
        .map(|(what, who)| format!("{what}: {}", who.join(", ")))
        .collect();
        (!parts.is_empty()).then(|| parts.join("; "))
    }
}

/// Compares the bots found with the league's versions: a new folder joins as version 1, a
/// changed one becomes a new version, a folder gone leaves, and one back with the content of
/// its last version is that version again. Returns the batch to play first (the one under way
/// when nothing changed, else the next; a batch under way when the field changed is closed)
/// and who joined, changed, came back or left.
fn join(
    manifest: &mut LeagueManifest,
    lineup: &Lineup,
    done: &crate::series::reporter::GameSet,
) -> (u64, Changes) {
    let mut changes = Changes::default();
    let shown = |key: String| crate::untrusted::terminal(&key);
    let b = manifest.batches;
    let size = manifest.batch as u64;
    let under_way = b
        .checked_sub(1)
        .filter(|p| !manifest.closed.contains(p))
        .filter(|p| (p * size..(p + 1) * size).any(|g| !done.contains(g)));
    let start = b * size;
    let mut members = Vec::new();
    for (bot, _) in &lineup.bots {
        let version = version_of(manifest, bot, start, &mut changes);
        members.push((version.key(), bot.name.clone()));
    }
    // A folder gone: its version leaves. One skipped this run (its build failed, say) only
    // sits the run out: its version stays.
    for v in manifest
        .versions
        .iter_mut()
        .filter(|v| v.until_game.is_none())
    {
        let skipped = lineup.skipped.iter().any(|s| s.name == v.name);
        if !skipped && !lineup.bots.iter().any(|(b, _)| b.name == v.name) {
            v.until_game = Some(start);
            changes.left.push(shown(v.key()));
        }
    }
    members.sort();
    if manifest.fields.last().is_some_and(|f| f.members == members) {
        return (under_way.unwrap_or(b), changes);
    }
    if let Some(p) = under_way {
        manifest.closed.push(p);
    }
    manifest.fields.push(Field {
        from_batch: b,
        members,
    });
    (b, changes)
}

/// The version the bot `bot` plays as from game `start`: its current one when its folder is
/// unchanged, else a new version (the current one ends), or its last one again when it comes
/// back as it was; said in `changes` (keys shown inert).
fn version_of(
    manifest: &mut LeagueManifest,
    bot: &crate::bots::Bot,
    start: u64,
    changes: &mut Changes,
) -> Version {
    let shown = |key: String| crate::untrusted::terminal(&key);
    let back_as_it_was = manifest
        .versions
        .iter()
        .rev()
        .find(|v| v.name == bot.name)
        .is_some_and(|v| v.hash == bot.hash);
    let current = manifest
        .versions
        .iter_mut()
        .rev()
        .find(|v| v.name == bot.name && v.until_game.is_none());
    match current {
        Some(v) if v.hash == bot.hash => v.clone(),
        Some(v) => {
            v.until_game = Some(start);
            let next = Version {
                name: bot.name.clone(),
                version: v.version + 1,
                hash: bot.hash.clone(),
                from_game: start,
                until_game: None,
            };
            manifest.versions.push(next.clone());
            changes.changed.push(shown(next.key()));
            next
        }
        // Back with the content its last version had: that version plays on.
        None if back_as_it_was => {
            let v = manifest
                .versions
                .iter_mut()
                .rev()
                .find(|v| v.name == bot.name)
                .expect("found just above");
            v.until_game = None;
            changes.back.push(shown(v.key()));
            v.clone()
        }
        None => {
            let version = 1 + manifest
                .versions
                .iter()
                .filter(|v| v.name == bot.name)
                .count() as u32;
            let next = Version {
                name: bot.name.clone(),
                version,
                hash: bot.hash.clone(),
                from_game: start,
                until_game: None,
            };
            manifest.versions.push(next.clone());
            match version {
                1 => changes.joined.push(shown(next.key())),
                _ => changes.changed.push(shown(next.key())),
            }
            next
        }
    }
}

/// Records the working copy of every bot in the lineup as its version's private storage, and
/// wipes those of bots whose folder is gone (a bot back later is a new version, copied afresh).
/// A bot skipped this run keeps no record: its copy is made afresh when it next plays.
fn keep_storage(
    manifest: &mut LeagueManifest,
    lineup: &Lineup,
    dir: &SeriesDir,
) -> Result<(), SeriesError> {
    let work = dir.path.join("work");
    for k in &manifest.kept {
        let here = lineup.bots.iter().any(|(b, _)| b.name == k.name)
            || lineup.skipped.iter().any(|s| s.name == k.name);
        // A name of the league's own file, checked before it names a folder to remove.
        if !here && crate::names::name_problem(&k.name).is_none() && !k.name.starts_with('.') {
            crate::bots::wipe(&work.join(&k.name)).map_err(crate::series::dir::write_err(&work))?;
        }
    }
    manifest.kept = lineup
        .bots
        .iter()
        .filter_map(|(bot, _)| {
            let v = manifest
                .versions
                .iter()
                .rev()
                .find(|v| v.name == bot.name && v.until_game.is_none())?;
            Some(super::manifest::Kept::of(bot, v.version))
        })
        .collect();
    Ok(())
}

/// The line people read first.
fn start_line(manifest: &LeagueManifest, lineup: &Lineup, dir: &SeriesDir) -> String {
    format!(
        "league of {} at tables of {}, batches of {} games, top {} (seed {}); {} so far; \
         results in {}",
        crate::names::count(lineup.bots.len() as u64, "bot"),
        manifest.players,
        manifest.batch,
        outputs::shown_top(manifest.top, lineup.bots.len()),
        manifest.seed,
        crate::names::count(manifest.games_played, "game"),
        dir.path.display()
    )
}

/// The series' sinks a league keeps: `games.jsonl`, the bots' logs (each game labelled with
/// the version that played it), the console lines, and the collector of records for its
/// choices and its report.
fn league_sinks(
    (settings, opts): (&Settings, &Options),
    dir: &SeriesDir,
    shared: &Shared,
    bar: BarSlot,
) -> Vec<Box<dyn Sink>> {
    let labels = Arc::clone(&shared.versions);
    let label = move |name: &str, game: u64| {
        let versions = labels.lock().expect("not poisoned");
        let known = versions.iter().any(|v| v.name == name);
        known.then(|| plan::key_at(&versions, name, game))
    };
    // As `take6 run`'s: a bar on a terminal, a line every few seconds elsewhere; with no
    // --games the league plays until settled, so the bar counts games with no length.
    let progress =
        sinks::progress::Progress::new(bar.clone(), true).open_ended(opts.games.is_none());
    vec![
        Box::new(GamesFile::new(dir.file(GAMES))),
        Box::new(sinks::bot_logs::BotLogs::new(dir.path.join("logs")).versions(Box::new(label))),
        Box::new(progress),
        Box::new(
            sinks::Console::new(bar, settings.place(), dir.path.clone())
                .go_on(format!("take6 league --league {}", dir.path.display())),
        ),
        Box::new(Collector(shared.clone())),
    ]
}
