//! A seat's life, written once for every game: starting a bot's process with its transcript,
//! a built-in's own random stream, a fault as the record keeps it, a faulted bot shut down in
//! the background, and the end of the game — every bot's input closed, a limit passed or CPU
//! used after the last reply found as a fault, reply times and stderr by seat. A game's table
//! decides what to ask; what a fault does to the seat is its game's word
//! ([`crate::game::Game::on_fault`], read through `OnFault::successor`), which the table carries out
//! with its own players; how a seat lives and ends is here.

use std::future::Future;

use futures::future::join_all;
use rand::SeedableRng;
use rand::rngs::ChaCha8Rng;
use tokio::task::JoinHandle;

use super::{Occupant, SeatLog};
use crate::player::{Fault, Finished, Limits, Process};
use crate::record::{FaultPhase, InvalidRecord, ReplyTimes};

/// Starts the bot of `occupant` for game `game` under `limits`, its messages and replies
/// recorded when the series keeps a transcript (`take6 check`). `None` when the occupant is
/// not a bot; a bot that cannot be started is its first fault.
pub fn spawn_bot(occupant: &Occupant, game: u64, limits: Limits) -> Option<Result<Process, Fault>> {
    let Occupant::Bot {
        workdir,
        sandbox,
        transcript,
        ..
    } = occupant
    else {
        return None;
    };
    Some(
        Process::spawn(sandbox, workdir, limits).map(|p| match transcript {
            Some(t) => p.with_transcript(t.game(game)),
            None => p,
        }),
    )
}

/// The random stream of the built-in at `seat` of the game whose seed is `seed`: ChaCha8 from
/// the seed, stream `1 + seat` (stream 0 is the game's own: the deal, the draw). So a
/// built-in's choices never depend on timing, on other seats or on other games.
pub fn builtin_rng(seed: u64, seat: usize) -> ChaCha8Rng {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    rng.set_stream(1 + seat as u64);
    rng
}

/// `fault` of the player `name` at `seat`, in `turn` while asked for `phase`, as the record
/// keeps it (and said in the log).
pub fn fault_record(
    name: &str,
    seat: usize,
    turn: u8,
    phase: FaultPhase,
    fault: &Fault,
) -> InvalidRecord {
    tracing::info!(
        seat,
        bot = %crate::untrusted::log(name),
        turn,
        "fault: {}",
        crate::untrusted::log(&fault.to_string())
    );
    InvalidRecord {
        seat,
        turn,
        phase,
        kind: fault.kind().to_string(),
        reason: fault.to_string(),
    }
}

/// The bots of one game as they end: the faulted ones shutting down in the background (so
/// their grace period delays no one) and, at the end, everyone's.
#[derive(Default)]
pub struct Endings {
    background: Vec<(usize, JoinHandle<Finished>)>,
}

/// What the bots of a game left when it ended, by seat.
pub struct Ended {
    /// Faults found only as the bots ended (a limit passed, CPU used after the last reply),
    /// in seat order: the game's table records them as it records any.
    pub faults: Vec<(usize, Fault)>,
    /// Each bot's reply times, seat order.
    pub replies: Vec<ReplyTimes>,
    /// Each bot's stderr, seat order.
    pub logs: Vec<SeatLog>,
}

impl Endings {
    /// Shuts down `seat`'s bot in the background (`ending` is its process's `finish`).
    pub fn retire(&mut self, seat: usize, ending: impl Future<Output = Finished> + Send + 'static) {
        self.background.push((seat, tokio::spawn(ending)));
    }

    /// The end of the game: waits for `finishing` (the bots still playing, each its seat and
    /// its process's `finish`) and then for the ones retired earlier. `names` by seat.
    pub async fn finish<F>(self, finishing: Vec<F>, names: &[String]) -> Ended
    where
        F: Future<Output = (usize, Finished)>,
    {
        let mut finished: Vec<(usize, Finished)> = join_all(finishing).await;
        let faults = finished
            .iter()
            .filter_map(|(seat, ended)| {
                let fault = ended.breach.map(Fault::Limit).or(ended.overrun.clone());
                fault.map(|f| (*seat, f))
            })
            .collect();
        for (seat, task) in self.background {
            if let Ok(ended) = task.await {
                finished.push((seat, ended));
            }
        }
        finished.sort_by_key(|(seat, _)| *seat);
        let replies = finished
            .iter()
            .map(|(seat, ended)| ReplyTimes::new(*seat, &ended.replies))
            .collect();
        let logs = finished
            .into_iter()
            .map(|(seat, ended)| SeatLog {
                seat,
                name: names[seat].clone(),
                stderr: ended.stderr,
            })
            .collect();
        Ended {
            faults,
            replies,
            logs,
        }
    }
}
