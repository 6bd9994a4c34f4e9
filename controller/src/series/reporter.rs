//! The reporter: the single owner of a series' outputs. It turns what happens into typed
//! [`Event`]s and hands each to every [`Sink`] in order; a new output is a new sink.
//!
//! Games played now and games read back from `games.jsonl` (resume, `take6 leaderboard`,
//! `take6 verify`) go through the same [`Reporter::game`] path, so every output is a replay of
//! the records. Game tasks send their outcomes over a channel; the reporter takes every outcome
//! waiting, then flushes the sinks once ([`Sink::flush`]): one write for a burst of fast games,
//! one write per game when games are slow, and never a partial line.

use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use tokio::sync::mpsc;

use super::{SeriesError, Status};
use crate::bots::Skipped;
use crate::record::jsonl::{Link, LogReader, Torn};
use crate::record::{Chain, GameRecord, Tally};
use crate::table::{GameOutcome, SeatLog};

/// What a series tells its sinks, in order: `BotSkipped`*, `Started`, then `GameFinished`*
/// with `Checkpoint`s between them, then `Interrupted`?, `Finished`.
#[derive(Debug)]
pub enum Event<'a> {
    /// A bot folder that will not play, and why.
    BotSkipped(&'a Skipped),
    /// Games are about to be played (after any replay of recorded ones).
    Started(&'a Start),
    /// A game's record, played now or read back.
    GameFinished(&'a GameRecord, Origin<'a>),
    /// Every few seconds while games run: make the outputs current and durable.
    Checkpoint,
    /// A stop signal cut the series short.
    Interrupted,
    /// The end: write the final outputs.
    Finished(Status),
}

/// Where a game's record comes from.
#[derive(Debug)]
pub enum Origin<'a> {
    /// Just played: its line of `games.jsonl` (chain and newline included) and its bots'
    /// stderr.
    Played { line: &'a [u8], logs: &'a [SeatLog] },
    /// Read back from line `line` of `games.jsonl`, with how its chain compared and the
    /// chain head after it.
    Replayed {
        line: u64,
        link: &'a Link,
        head: &'a Chain,
    },
}

/// What `Started` says about the games to come.
#[derive(Debug, Clone)]
pub struct Start {
    /// The line people read first: bots, built-ins, games, seed, folder.
    pub line: String,
    /// Games this folder holds when complete: the whole series, or a shard's share of it.
    pub planned: u64,
}

/// What every sink may read: the running tally and the state of `games.jsonl`.
#[derive(Debug)]
pub struct State {
    pub tally: Tally,
    /// Complete lines in `games.jsonl` (replayed and played).
    pub lines: u64,
    /// Games played by this process (not replayed).
    pub played: u64,
    /// The chain head after the last line.
    pub chain: Chain,
    /// Game numbers recorded so far.
    pub done: GameSet,
    /// Games this folder holds when complete (a shard's share), once `Started`.
    pub planned: u64,
    /// Faults in games played by this process.
    pub faults: u64,
    /// Under `--until-separated`: the number of lines of `games.jsonl` after which the top
    /// ranks were first separated, the point the series stopped dispatching games.
    pub separated_after: Option<u64>,
}

impl State {
    /// The leaderboard so far, ranked by the fit to every game.
    pub fn standings(&self) -> Vec<crate::record::Standing> {
        self.tally.standings()
    }
}

/// A set of game numbers (a bit set: a hundred million games take 12 MB).
#[derive(Debug, Clone, Default)]
pub struct GameSet {
    bits: Vec<u64>,
}

impl GameSet {
    /// Adds `game`; false when it was there already.
    pub fn insert(&mut self, game: u64) -> bool {
        let (word, bit) = ((game / 64) as usize, game % 64);
        if word >= self.bits.len() {
            self.bits.resize(word + 1, 0);
        }
        let had = self.bits[word] & (1 << bit) != 0;
        self.bits[word] |= 1 << bit;
        !had
    }

    pub fn contains(&self, game: u64) -> bool {
        self.bits
            .get((game / 64) as usize)
            .is_some_and(|w| w & (1 << (game % 64)) != 0)
    }
}

/// A sink failed to write: the series stops, naming the file.
#[derive(Debug)]
pub struct SinkError {
    pub path: PathBuf,
    pub error: std::io::Error,
}

impl From<SinkError> for SeriesError {
    fn from(e: SinkError) -> SeriesError {
        SeriesError::Write {
            path: e.path,
            error: e.error,
        }
    }
}

/// One output of a series.
pub trait Sink: Send {
    /// Takes one event; `state` already includes it (a finished game is in the tally).
    fn event(&mut self, event: &Event<'_>, state: &State) -> Result<(), SinkError>;

    /// Called when no more events are waiting: write out whatever is buffered.
    fn flush(&mut self) -> Result<(), SinkError> {
        Ok(())
    }
}

/// How often the outputs are made current and durable while games run: the leaderboard is
/// rewritten, `games.jsonl` synced to disk and `series.toml` records the checkpoint.
const CHECKPOINT_EVERY: Duration = Duration::from_secs(2);

/// The single owner of a series' outputs.
pub struct Reporter {
    state: State,
    sinks: Vec<Box<dyn Sink>>,
    checkpoint_at: Instant,
    /// Reused for each line of `games.jsonl`.
    line: Vec<u8>,
    /// `--until-separated`: the top ranks to separate, and the flag that stops dispatching.
    until_separated: Option<(usize, Arc<AtomicBool>)>,
}

impl Reporter {
    /// A reporter for the series `series` (its id starts the chain) feeding `sinks` in order.
    pub fn new(series: &str, sinks: Vec<Box<dyn Sink>>) -> Reporter {
        Reporter {
            state: State {
                tally: Tally::default(),
                lines: 0,
                played: 0,
                chain: Chain::start(series),
                done: GameSet::default(),
                planned: 0,
                faults: 0,
                separated_after: None,
            },
            sinks,
            checkpoint_at: Instant::now(),
            line: Vec::new(),
            until_separated: None,
        }
    }

    /// The series stops once the top `top` ranks are separated at 95 %: checked after every
    /// game, played or read back, in the order of `games.jsonl` (so `take6 verify` re-derives
    /// the same point); `enough` tells the dispatcher to start no more games.
    pub fn until_separated(mut self, top: Option<usize>, enough: &Arc<AtomicBool>) -> Reporter {
        self.until_separated = top.map(|top| (top, Arc::clone(enough)));
        self
    }

    pub fn state(&self) -> &State {
        &self.state
    }

    /// Hands `event` to every sink, first error wins.
    pub fn handle(&mut self, event: &Event<'_>) -> Result<(), SinkError> {
        match event {
            Event::Started(start) => self.state.planned = start.planned,
            Event::Checkpoint => self.checkpoint_at = Instant::now(),
            _ => {}
        }
        for sink in &mut self.sinks {
            sink.event(event, &self.state)?;
        }
        Ok(())
    }

    /// Flushes every sink.
    pub fn flush(&mut self) -> Result<(), SinkError> {
        self.sinks.iter_mut().try_for_each(|s| s.flush())
    }

    /// A game played now: chains its line and hands it to the sinks.
    pub fn played(&mut self, outcome: &GameOutcome) -> Result<(), SinkError> {
        self.played_as(&outcome.record, None, &outcome.logs)
    }

    /// [`Reporter::played`] for a game of built-ins (no logs) whose record the thread that
    /// played it already serialized into `json` ([`crate::record::games_jsonl_line`]).
    pub fn played_json(&mut self, record: &GameRecord, json: &[u8]) -> Result<(), SinkError> {
        self.played_as(record, Some(json), &[])
    }

    fn played_as(
        &mut self,
        record: &GameRecord,
        json: Option<&[u8]>,
        logs: &[SeatLog],
    ) -> Result<(), SinkError> {
        let mut line = std::mem::take(&mut self.line);
        line.clear();
        match json {
            Some(json) => self.state.chain.append_json(json, &mut line),
            None => self.state.chain.append_line(record, &mut line),
        }
        self.state.played += 1;
        self.state.faults += record
            .faults()
            .filter(|(_, f)| f.kind != crate::player::ABSENT)
            .count() as u64;
        let origin = Origin::Played { line: &line, logs };
        let result = self.game(record, origin);
        self.line = line;
        result
    }

    /// Any finished game, played or replayed: the one path into the tally and the sinks.
    fn game(&mut self, record: &GameRecord, origin: Origin<'_>) -> Result<(), SinkError> {
        if self.state.lines == 0 {
            // The series' games all are of one game, which says which way scores point: the
            // first record's, found by the name it holds (a game loaded from a folder is
            // known once its series' settings loaded it; verify refuses a record of another).
            let game = record.game_ref();
            let direction = game.as_ref().map(|g| g.direction()).unwrap_or_default();
            let model = game.as_ref().map(|g| g.model()).unwrap_or_default();
            self.state.tally = Tally::with_model(direction, model);
        }
        self.state.tally.add(record);
        self.state.lines += 1;
        self.state.done.insert(record.game);
        if let Some((top, enough)) = &self.until_separated
            && self.state.separated_after.is_none()
            && crate::record::top_separated(&self.state.standings(), *top)
        {
            self.state.separated_after = Some(self.state.lines);
            enough.store(true, Ordering::Relaxed);
        }
        self.handle(&Event::GameFinished(record, origin))
    }

    /// Reads `games.jsonl` at `path` back into the sinks. Returns the torn last line, if any
    /// (left in the file; see [`cut_torn`]). A line that is not a record is an error.
    pub fn replay(&mut self, path: &Path, series: &str) -> Result<Option<Torn>, SeriesError> {
        let file = match crate::door::open_path(path) {
            Ok(f) => f,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(None),
            Err(e) => return Err(super::dir::read_err(path)(e)),
        };
        let mut reader = LogReader::new(std::io::BufReader::with_capacity(1 << 16, file), series);
        while let Some(line) = reader.next() {
            let line = line.map_err(|e| SeriesError::Games {
                path: path.to_path_buf(),
                reason: e.to_string(),
            })?;
            let origin = Origin::Replayed {
                line: line.number,
                link: &line.link,
                head: reader.chain_so_far(),
            };
            self.game(&line.record, origin)?;
        }
        self.state.chain = reader.chain_so_far().clone();
        Ok(reader.torn())
    }

    /// Takes every outcome sent until the channel closes, flushing after each burst and
    /// checkpointing every few seconds. On a sink's error it stops taking outcomes (dropping
    /// the receiver tells the game tasks to stop) and returns the error.
    pub async fn run(&mut self, mut rx: mpsc::Receiver<Box<GameOutcome>>) -> Result<(), SinkError> {
        while let Some(outcome) = rx.recv().await {
            self.played(&outcome)?;
            while let Ok(outcome) = rx.try_recv() {
                self.played(&outcome)?;
            }
            self.burst_done()?;
        }
        self.flush()
    }

    /// After a burst of games: flushes the sinks, and checkpoints when one is due.
    pub fn burst_done(&mut self) -> Result<(), SinkError> {
        self.flush()?;
        if self.checkpoint_at.elapsed() >= CHECKPOINT_EVERY {
            self.handle(&Event::Checkpoint)?;
        }
        Ok(())
    }
}

/// Cuts `games.jsonl` back to its complete lines, dropping a torn last line so its game is
/// played again.
pub fn cut_torn(path: &Path, torn: Torn) -> Result<(), SeriesError> {
    let file = crate::door::write_path(path).map_err(super::dir::write_err(path))?;
    file.set_len(torn.offset)
        .and_then(|()| file.sync_all())
        .map_err(super::dir::write_err(path))
}

#[cfg(test)]
mod tests {
    use std::sync::{Arc, Mutex};

    use super::*;
    use crate::games::take6::fixtures::sample;
    use crate::record::fixtures::hand_made;
    use crate::series::sinks::Leaderboard;
    use crate::series::sinks::games::GamesFile;

    /// Records the events it sees; fails on the `fail_at`-th finished game.
    struct Probe {
        seen: Arc<Mutex<Vec<String>>>,
        fail_at: Option<u64>,
    }

    impl Sink for Probe {
        fn event(&mut self, event: &Event<'_>, state: &State) -> Result<(), SinkError> {
            let name = match event {
                Event::GameFinished(r, Origin::Played { .. }) => format!("played {}", r.game),
                Event::GameFinished(r, Origin::Replayed { line, .. }) => {
                    format!("replayed {} from line {line}", r.game)
                }
                other => format!("{other:?}")
                    .split(['(', ' '])
                    .next()
                    .unwrap()
                    .to_string(),
            };
            self.seen.lock().unwrap().push(name);
            if self.fail_at == Some(state.lines) {
                return Err(SinkError {
                    path: "probe.out".into(),
                    error: std::io::Error::other("disk full"),
                });
            }
            Ok(())
        }
    }

    fn outcome(game: u64) -> Box<GameOutcome> {
        let mut record = if game.is_multiple_of(2) {
            sample()
        } else {
            hand_made()
        };
        record.game = game;
        Box::new(GameOutcome {
            record,
            logs: Vec::new(),
        })
    }

    fn start() -> Start {
        Start {
            line: String::new(),
            planned: 5,
        }
    }

    #[tokio::test]
    async fn a_failing_sink_stops_the_reporter_naming_its_file() {
        let seen = Arc::new(Mutex::new(Vec::new()));
        let probe = Probe {
            seen: Arc::clone(&seen),
            fail_at: Some(2),
        };
        let mut reporter = Reporter::new("s", vec![Box::new(probe)]);
        reporter.handle(&Event::Started(&start())).unwrap();
        let (tx, rx) = mpsc::channel(8);
        for game in 0..4 {
            tx.send(outcome(game)).await.unwrap();
        }
        let err = reporter.run(rx).await.unwrap_err();
        assert_eq!(err.path, PathBuf::from("probe.out"));
        assert_eq!(reporter.state().lines, 2, "no game taken after the failure");
        assert!(tx.is_closed(), "the game tasks are told to stop");
        let err = SeriesError::from(err).to_string();
        assert!(
            err.contains("probe.out") && err.contains("disk full"),
            "{err}"
        );
        assert_eq!(*seen.lock().unwrap(), ["Started", "played 0", "played 1"]);
    }

    #[tokio::test]
    async fn games_replayed_from_the_log_reach_the_sinks_as_they_were_played() {
        let tmp = tempfile::tempdir().unwrap();
        let path = tmp.path().join("games.jsonl");
        let (tx, rx) = mpsc::channel(8);
        let mut played = Reporter::new(
            "s",
            vec![
                Box::new(GamesFile::new(path.clone())),
                Box::new(Leaderboard::new(tmp.path().to_path_buf())),
            ],
        );
        played.handle(&Event::Started(&start())).unwrap();
        for game in [3, 0, 4] {
            tx.send(outcome(game)).await.unwrap();
        }
        drop(tx);
        played.run(rx).await.unwrap();
        played.handle(&Event::Finished(Status::Complete)).unwrap();
        let csv = std::fs::read(tmp.path().join("leaderboard.csv")).unwrap();

        let seen = Arc::new(Mutex::new(Vec::new()));
        let probe = Probe {
            seen: Arc::clone(&seen),
            fail_at: None,
        };
        let mut replayed = Reporter::new("s", vec![Box::new(probe)]);
        assert_eq!(replayed.replay(&path, "s").unwrap(), None);
        assert_eq!(
            *seen.lock().unwrap(),
            [
                "replayed 3 from line 1",
                "replayed 0 from line 2",
                "replayed 4 from line 3"
            ]
        );
        let state = replayed.state();
        assert_eq!(state.tally, played.state().tally);
        assert_eq!(
            state.chain,
            played.state().chain,
            "resume continues the chain"
        );
        assert!(state.done.contains(4) && !state.done.contains(1));
        assert_eq!(crate::record::leaderboard_csv(&state.standings()), csv);
    }

    #[test]
    fn game_sets_hold_each_number_once() {
        let mut set = GameSet::default();
        assert!(set.insert(130) && set.insert(0) && !set.insert(130));
        assert!(set.contains(0) && set.contains(130));
        assert!(!set.contains(1) && !set.contains(64) && !set.contains(1 << 40));
    }
}
