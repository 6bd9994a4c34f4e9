//! `take6 compare`: one run on a compare folder. The series machinery does the work (the
//! launcher, the bots' builds, the tables on their lanes, the reporter with its `games.jsonl`
//! chain and bot logs); the compare adds the pairs, the test read after every game, and its
//! outputs.
//!
//! Private storage: every bot plays with two working copies, one for the first game of every
//! pair and one for the second, so that no copy ever sees a deal twice: a bot that remembers
//! the deals it was dealt learns nothing of the pair's other game (`work/NAME` and
//! `second/work/NAME`, the second a copy of the first as built: [`super::copies`]).

use std::future::Future;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};

use tokio::sync::mpsc;

use super::manifest::{CompareManifest, Side, Test};
use super::sprt::Verdict;
use super::{Rules, Tracker, Unit};
use crate::bots::Bot;
use crate::config::Settings;
use crate::schedule::paired::Role;
use crate::schedule::{Entrant, GamePlan};
use crate::series::dir::{GAMES, SeriesDir};
use crate::series::lineup::{Entrant as Prepared, Lineup};
use crate::series::reporter::{Event, Reporter, Sink, SinkError, Start, State};
use crate::series::sinks::progress::BarSlot;
use crate::series::sinks::{self, games::GamesFile};
use crate::series::start::Setup;
use crate::series::{SeriesError, Status};
use crate::untrusted::terminal;

/// What a run of `take6 compare` is asked beyond a series' settings.
#[derive(Debug, Clone)]
pub struct Options {
    pub new: PathBuf,
    pub old: PathBuf,
    /// The folder of bots that fill the other seats (else the game's built-ins).
    pub field: Option<PathBuf>,
    /// A stopped compare to continue, else a new folder under the results folder.
    pub resume: Option<PathBuf>,
    pub margin: Option<f64>,
    pub alpha: f64,
    pub beta: f64,
    /// At most this many games (whole pairs).
    pub games: u64,
}

/// How a run ended: the test's verdict (`Undecided`: the budget ran out), or a stop.
#[derive(Debug)]
pub struct CompareOutcome {
    pub dir: PathBuf,
    pub verdict: Verdict,
    pub interrupted: bool,
}

/// Plays the compare `opts` asks for with `settings`' game, limits and sandbox.
pub async fn run(
    settings: &Settings,
    opts: &Options,
    stop: impl Future<Output = ()>,
    bar: BarSlot,
) -> Result<CompareOutcome, SeriesError> {
    // NEW's, OLD's and the field's folders, refused before a folder is made.
    let found = folders(opts)?;
    let dir = match &opts.resume {
        Some(path) => SeriesDir {
            id: CompareManifest::read(path)?
                .ok_or_else(|| SeriesError::NotASeries(path.clone()))?
                .compare,
            path: path.clone(),
        },
        None => SeriesDir::create(&settings.results.join("compare"))?,
    };
    let _lock = dir.lock()?;
    let mut setup = Setup::open(settings)?;
    setup.launch(settings)?;
    let mut stop = std::pin::pin!(stop);
    let (lineup, sides) = prepare(settings, found, &dir, (&mut setup, &bar), &mut stop).await?;
    let sandbox = Arc::clone(setup.sandbox());
    let mut manifest = match CompareManifest::read(&dir.path)? {
        Some(m) => {
            let mut m = accept(m, settings, &sides)?;
            // A continued compare's budget: the one asked now, never below what it played.
            m.max_pairs = (opts.games / 2).max(m.games_played.div_ceil(2));
            m
        }
        None => fresh(settings, opts, &dir, &sides),
    };
    let rules = manifest.rules(&settings.game);
    manifest.status = "playing".into();
    manifest.write(&dir.path)?;
    let tracker = Arc::new(Mutex::new(Tracker::new(rules.clone())));
    let gathered = Arc::new(Mutex::new(super::report::Gathered::default()));
    let sinks = outputs(
        settings,
        (&manifest, &dir),
        (&tracker, &gathered),
        &lineup,
        &bar,
    );
    let mut reporter = Reporter::new(&dir.id, sinks);
    for s in &lineup.skipped {
        eprintln!("take6: {}", s.line(&settings.place()));
    }
    let games = dir.file(GAMES);
    if let Some(torn) = reporter.replay(&games, &dir.id)? {
        crate::series::reporter::cut_torn(&games, torn)?;
    }
    reporter.handle(&Event::Started(&Start {
        line: start_line(&manifest, &dir),
        planned: 2 * manifest.max_pairs,
    }))?;
    let seats = crate::series::play::seats_of(settings, &lineup, Some(&sandbox));
    let plans = plans(&rules, manifest.max_pairs, &lineup, &reporter.state().done);
    let (reporter, interrupted) = if lineup.enough.load(Ordering::Relaxed) {
        (reporter, false)
    } else {
        play(settings, plans, &seats, &lineup, reporter, stop.as_mut()).await?
    };
    let reading = tracker.lock().expect("not poisoned").reading().clone();
    let ended = Ended {
        interrupted,
        gathered: &gathered.lock().expect("not poisoned"),
        game: &settings.game,
        skipped: &lineup.skipped,
    };
    finish(&mut manifest, (&rules, &reading), reporter, &dir, ended)?;
    Ok(CompareOutcome {
        dir: dir.path.clone(),
        verdict: reading.verdict,
        interrupted: interrupted && reading.verdict == Verdict::Undecided,
    })
}

/// The run's outputs, one sink each: `games.jsonl`, the bots' logs, the lines people read
/// (a bot's first fault, the start, how to go on), the report's figures and the test.
fn outputs(
    settings: &Settings,
    (manifest, dir): (&CompareManifest, &SeriesDir),
    (tracker, gathered): (&Arc<Mutex<Tracker>>, &Arc<Mutex<super::report::Gathered>>),
    lineup: &Lineup,
    bar: &BarSlot,
) -> Vec<Box<dyn Sink>> {
    let go_on = format!(
        "take6 compare {} {} --resume {}",
        terminal(&manifest.new.folder),
        terminal(&manifest.old.folder),
        dir.path.display()
    );
    let console = sinks::Console::new(bar.clone(), settings.place(), dir.path.clone());
    vec![
        Box::new(GamesFile::new(dir.file(GAMES))),
        Box::new(sinks::bot_logs::BotLogs::new(dir.path.join("logs"))),
        Box::new(console.go_on(go_on)),
        Box::new(super::report::Gather(Arc::clone(gathered))),
        Box::new(Watch {
            tracker: Arc::clone(tracker),
            enough: Arc::clone(&lineup.enough),
            said_at: std::time::Instant::now(),
        }),
    ]
}

/// The games of pairs 0 … `max_pairs − 1` not yet in `done`, in order, each seat by its index
/// in the lineup: the first working copies for a pair's first game, the second for its second.
fn plans(
    rules: &Rules,
    max_pairs: u64,
    lineup: &Lineup,
    done: &crate::series::reporter::GameSet,
) -> Vec<GamePlan> {
    let half = lineup.bots.len() / 2;
    let index = |name: &str, which: u64| {
        let i = lineup.bots[..half]
            .iter()
            .position(|(b, _)| b.name == name)
            .expect("the compare's bots are in the lineup");
        i + half * which as usize
    };
    (0..2 * max_pairs)
        .filter(|g| !done.contains(*g))
        .map(|g| {
            let pair = rules.pair(g / 2);
            let (game, seats) = pair.game(g % 2);
            GamePlan {
                game,
                seed: pair.seed,
                subset: 0,
                rotation: 0,
                seats: seats
                    .iter()
                    .map(|r| match r {
                        Role::New => Entrant::Bot(index(&rules.new, g % 2)),
                        Role::Old => Entrant::Bot(index(&rules.old, g % 2)),
                        Role::Field(i) => Entrant::Bot(index(&rules.field[*i], g % 2)),
                        Role::Builtin(kind, n) => Entrant::Builtin(*kind, *n),
                    })
                    .collect(),
            }
        })
        .collect()
}

/// The games on the series' tables, their outcomes to the reporter on a task of its own; the
/// reporter back and whether a stop cut them short.
async fn play(
    settings: &Settings,
    plans: Vec<GamePlan>,
    seats: &[crate::table::TableSeat],
    lineup: &Lineup,
    mut reporter: Reporter,
    stop: std::pin::Pin<&mut impl Future<Output = ()>>,
) -> Result<(Reporter, bool), SeriesError> {
    let (tx, rx) = mpsc::channel(settings.jobs * 2);
    let task = tokio::spawn(async move {
        let result = reporter.run(rx).await;
        (reporter, result)
    });
    let interrupted = crate::series::dispatch::dispatch_plans(
        plans.into_iter(),
        seats,
        lineup,
        settings,
        tx,
        stop,
    )
    .await;
    let (reporter, result) = task.await.expect("the reporter does not panic");
    result?;
    Ok((reporter, interrupted))
}

/// The folders to prepare (NEW, OLD, then the field's) and the field's folders that sit out.
type Folders = Vec<crate::bots::Found>;

/// NEW's and OLD's folders and the field's: refused when NEW and OLD share a name; a field
/// bot of either's name sits out.
fn folders(opts: &Options) -> Result<(Folders, Vec<crate::bots::Skipped>), SeriesError> {
    let own = |p: &Path| {
        let own = crate::bots::own_folder(p);
        let resolved = own.canonicalize().unwrap_or_else(|_| own.clone());
        (own, Ok(resolved))
    };
    let (new, old) = (own(&opts.new), own(&opts.old));
    let name = |p: &Path| p.file_name().map(|n| n.to_string_lossy().into_owned());
    let (new_name, old_name) = (name(&new.0), name(&old.0));
    if new_name == old_name {
        return Err(SeriesError::CompareRefused(format!(
            "NEW ({}) and OLD ({}) have the same folder name, and the records tell players by \
             name: copy one of them to a folder of another name (say {}-old)",
            opts.new.display(),
            opts.old.display(),
            terminal(&new_name.unwrap_or_default())
        )));
    }
    let mut folders = vec![new, old];
    let mut skipped = Vec::new();
    if let Some(field) = &opts.field {
        let found = crate::bots::folders(field).map_err(|error| {
            SeriesError::CompareRefused(format!(
                "cannot read the field folder {}: {error}",
                field.display()
            ))
        })?;
        for (folder, source) in found {
            if [&new_name, &old_name].contains(&&name(&folder)) {
                skipped.push(crate::bots::Skipped {
                    name: name(&folder).unwrap_or_default(),
                    reason: "it has the name of NEW or OLD, who sit at every table".into(),
                });
            } else {
                folders.push((folder, source));
            }
        }
    }
    Ok((folders, skipped))
}

/// NEW, OLD and the field copied and built once, each built folder copied again (the two
/// working copies), the game's own programs built: the lineup (first copies, then second copies, in one order) and the sides
/// as compare.toml records them (NEW, OLD, then the field's bots that play).
async fn prepare(
    settings: &Settings,
    (folders, mut skipped): (Folders, Vec<crate::bots::Skipped>),
    dir: &SeriesDir,
    (setup, bar): (&mut Setup, &BarSlot),
    stop: &mut std::pin::Pin<&mut impl Future<Output = ()>>,
) -> Result<(Lineup, Vec<Side>), SeriesError> {
    let name_of = |i: usize| {
        folders[i]
            .0
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
    };
    let (new_name, old_name) = (name_of(0), name_of(1));
    let (first, mut skipped_first) = setup
        .entrants(settings, dir, (bar, Arc::default()), Some(folders), stop)
        .await?;
    let copied =
        super::copies::second_copies(&first, &dir.path, setup.sandbox(), settings.max_bot_bytes());
    let (again, skipped_again) = tokio::select! {
        copied = copied => copied?,
        () = stop.as_mut() => return Err(SeriesError::InterruptedBeforeGames),
    };
    skipped_first.extend(skipped_again);
    skipped_first.dedup_by(|a, b| a.name == b.name);
    skipped.extend(skipped_first);
    for (side, name) in [("NEW", &new_name), ("OLD", &old_name)] {
        let name = name.clone().unwrap_or_default();
        let ready = |bots: &[Prepared]| bots.iter().any(|(b, _)| b.name == name);
        if !ready(&first) || !ready(&again) {
            let why = skipped
                .iter()
                .find(|s| s.name == name)
                .map_or_else(|| "it could not be prepared".into(), |s| s.reason.clone());
            return Err(SeriesError::CompareRefused(format!(
                "{side} ({}) cannot play: {why}",
                terminal(&name)
            )));
        }
    }
    // A field bot plays only when both its copies are ready.
    let both = |bots: Vec<Prepared>, other: &[Prepared]| -> Vec<Prepared> {
        bots.into_iter()
            .filter(|(b, _)| other.iter().any(|(o, _)| o.name == b.name))
            .collect()
    };
    let first_kept = both(first, &again);
    let again = both(again, &first_kept);
    let sides = first_kept.iter().map(|(b, _)| side_of(b)).collect();
    let bots: Vec<Prepared> = first_kept.into_iter().chain(again).collect();
    let names = bots.iter().map(|(b, _)| b.name.clone()).collect();
    let lineup = Lineup::of(bots, names, skipped);
    Ok((lineup, sides))
}

fn side_of(bot: &Bot) -> Side {
    Side {
        name: bot.name.clone(),
        folder: bot.source.display().to_string(),
        hash: bot.hash.clone(),
    }
}

/// A new compare's manifest.
fn fresh(settings: &Settings, opts: &Options, dir: &SeriesDir, sides: &[Side]) -> CompareManifest {
    let unit = Unit::of(settings.game.model());
    let bounds = super::sprt::Bounds::new(opts.alpha, opts.beta);
    CompareManifest {
        compare: dir.id.clone(),
        controller_version: env!("CARGO_PKG_VERSION").to_string(),
        game: settings.game.spec(),
        game_hash: settings.game.content_hash().ok().flatten(),
        new: sides[0].clone(),
        old: sides[1].clone(),
        field: sides[2..].to_vec(),
        seed: settings.seed,
        players: settings.players,
        rounds: settings.rounds,
        unit,
        margin: opts.margin.unwrap_or(unit.default_margin()),
        alpha: opts.alpha,
        beta: opts.beta,
        max_pairs: opts.games / 2,
        status: String::new(),
        games_played: 0,
        chain: String::new(),
        test: Test {
            verdict: Verdict::Undecided.word().into(),
            pairs: 0,
            void_pairs: 0,
            llr: 0.0,
            lower: bounds.lower,
            upper: bounds.upper,
            estimate: 0.0,
            low: 0.0,
            high: 0.0,
            pentanomial: None,
        },
    }
}

/// A stopped compare continued: the same game and the same bots, content and all.
fn accept(
    m: CompareManifest,
    settings: &Settings,
    sides: &[Side],
) -> Result<CompareManifest, SeriesError> {
    let now: Vec<(&str, &str)> = sides
        .iter()
        .map(|s| (s.name.as_str(), s.hash.as_str()))
        .collect();
    let then: Vec<(&str, &str)> = [&m.new, &m.old]
        .into_iter()
        .chain(&m.field)
        .map(|s| (s.name.as_str(), s.hash.as_str()))
        .collect();
    if m.game != settings.game.spec() {
        return Err(SeriesError::CompareRefused(format!(
            "the compare plays {}, not {}: give --game {} to continue it",
            m.game,
            settings.game.spec(),
            m.game
        )));
    }
    if now != then {
        let shown = |v: &[(&str, &str)]| {
            v.iter()
                .map(|(n, h)| format!("{} ({})", terminal(n), &h[..h.len().min(12)]))
                .collect::<Vec<_>>()
                .join(", ")
        };
        return Err(SeriesError::CompareRefused(format!(
            "the compare was begun with {}; these folders hold {}: a compare plays the same \
             bots to its end; put them back as they were, or begin a new compare",
            shown(&then),
            shown(&now)
        )));
    }
    Ok(m)
}

/// Reads the test after every game: the progress line every few seconds, and the stop of
/// new games once there is a verdict.
struct Watch {
    tracker: Arc<Mutex<Tracker>>,
    enough: Arc<AtomicBool>,
    said_at: std::time::Instant,
}

impl Sink for Watch {
    fn event(&mut self, event: &Event<'_>, _: &State) -> Result<(), SinkError> {
        if let Event::GameFinished(record, _) = event {
            let mut t = self.tracker.lock().expect("not poisoned");
            t.add(record);
            let decided = t.reading().verdict != Verdict::Undecided;
            if decided {
                self.enough.store(true, Ordering::Relaxed);
            }
            if self.said_at.elapsed() >= sinks::progress::line_every() {
                self.said_at = std::time::Instant::now();
                eprintln!("take6: {}", progress_line(t.rules(), t.reading()));
            }
        }
        Ok(())
    }
}

/// `37 pairs, LLR 1.23 between -2.94 and 2.94, NEW +0.42 points per game [-0.10, 0.94]`.
pub fn progress_line(rules: &Rules, r: &super::Reading) -> String {
    let b = rules.bounds();
    let (m, lo, hi) = r.estimate(rules);
    format!(
        "compare: {} pairs, LLR {:.2} between {:.2} and {:.2}, NEW {m:+.2} {} [{lo:.2}, {hi:.2}]",
        r.pairs,
        r.llr,
        b.lower,
        b.upper,
        rules.unit.word()
    )
}

fn start_line(m: &CompareManifest, dir: &SeriesDir) -> String {
    format!(
        "compare {} (NEW) against {} (OLD) at tables of {}, margin {} {}, alpha {} beta {}, \
         at most {} games (seed {}); results in {}",
        terminal(&m.new.name),
        terminal(&m.old.name),
        m.players,
        m.margin,
        m.unit.word(),
        m.alpha,
        m.beta,
        2 * m.max_pairs,
        m.seed,
        dir.path.display()
    )
}

/// How a run's games ended, and what its page shows of them.
struct Ended<'a> {
    interrupted: bool,
    gathered: &'a super::report::Gathered,
    game: &'a crate::game::GameRef,
    skipped: &'a [crate::bots::Skipped],
}

/// The end of a run: compare.toml, the report and the verdict lines (or, stopped, where the
/// test stands and how to go on).
fn finish(
    manifest: &mut CompareManifest,
    (rules, reading): (&Rules, &super::Reading),
    mut reporter: Reporter,
    dir: &SeriesDir,
    ended: Ended<'_>,
) -> Result<(), SeriesError> {
    let stopped = ended.interrupted && reading.verdict == Verdict::Undecided;
    if stopped {
        eprintln!("take6: {}", progress_line(rules, reading));
        reporter.handle(&Event::Interrupted)?;
    }
    reporter.handle(&Event::Finished(if stopped {
        Status::Interrupted
    } else {
        Status::Complete
    }))?;
    let state = reporter.state();
    manifest.games_played = state.lines;
    manifest.chain = state.chain.head().to_string();
    manifest.status = if stopped { "interrupted" } else { "finished" }.into();
    manifest.test = Test::of(rules, reading);
    manifest.write(&dir.path)?;
    let page = super::report::Page {
        game: ended.game,
        standings: &state.standings(),
        gathered: ended.gathered,
        skipped: ended.skipped,
    };
    super::report::write(&dir.path, manifest, reading, &page)?;
    if stopped {
        return Ok(());
    }
    for line in verdict_lines(manifest, state.lines) {
        println!("{line}");
    }
    if reading.verdict == Verdict::Undecided {
        println!(
            "to play on from here: take6 compare {} {} --resume {} --games {}",
            terminal(&manifest.new.folder),
            terminal(&manifest.old.folder),
            dir.path.display(),
            4 * manifest.max_pairs
        );
    }
    Ok(())
}

/// The verdict line, then the estimate, the games and the bounds (and, when undecided, how far
/// the ratio got).
pub fn verdict_lines(m: &CompareManifest, games: u64) -> Vec<String> {
    let t = &m.test;
    let mut lines = vec![
        format!("verdict: {}", terminal(&t.verdict)),
        format!(
            "{} against {}: {:+.2} {} (95 % interval {:.2} to {:.2}), margin {}; {} pairs \
             counted, {} games played",
            terminal(&m.new.name),
            terminal(&m.old.name),
            t.estimate,
            m.unit.word(),
            t.low,
            t.high,
            m.margin,
            t.pairs,
            games
        ),
        format!(
            "LLR {:.2}, bounds {:.2} (not better) and {:.2} (better): alpha {} beta {}",
            t.llr, t.lower, t.upper, m.alpha, m.beta
        ),
    ];
    if t.verdict == Verdict::Undecided.word() {
        let (towards, part) = if t.llr >= 0.0 {
            ("better", t.llr / t.upper)
        } else {
            ("not better", t.llr / t.lower)
        };
        lines.push(format!(
            "the --games budget ran out: the ratio is {:.0} % of the way to \"{towards}\"; \
             more games would decide (--resume the compare's folder with a larger --games)",
            part * 100.0
        ));
    }
    if let Some(p) = t.pentanomial {
        lines.push(format!(
            "pairs where NEW scored 0, 1/4, 1/2, 3/4, 1 against OLD: {p:?}"
        ));
    }
    lines
}
