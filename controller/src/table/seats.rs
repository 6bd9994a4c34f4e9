//! A seat's life, written once for every game: [`Seats`], the holder of a table's players.
//! It starts every seat (a bot's process with its transcript, the game's built-in, the person
//! at the keyboard), and carries out a fault as the game says
//! ([`crate::game::GameFacts::on_fault`]): the fault recorded as the record keeps it, the faulted
//! bot shut down in the background, and the seat then played by the game's built-in
//! (`Substitute`) or out (`Eliminate`). At the end of the game it ends every bot still
//! playing: a limit passed or CPU used after the last reply found then is a fault recorded the
//! same way; reply times and stderr come back by seat. A game's table decides what to ask and
//! applies the answers to its rules; its players are its own type ([`SeatPlayer`]).

use std::future::Future;
use std::sync::Arc;

use futures::future::join_all;
use rand::SeedableRng;
use rand::rngs::ChaCha8Rng;
use tokio::task::JoinHandle;

use super::{BuiltinKind, Occupant, OnFault, SeatLog, TableGame, Wire};
use crate::player::{Console, Fault, Finished, Limits, Process};
use crate::record::{FaultPhase, InvalidRecord, ReplyTimes};

/// A game's player at one seat, as [`Seats`] needs to know it: the game's built-in made for
/// a seat, and a bot ended. The rest (what it is asked, how it answers) is the game's.
pub trait SeatPlayer: Send + Sized + 'static {
    /// What a bot is sent as it ends, faulted or at the end of the game (Take 6: the view its
    /// `invalid` or `score` message shows); `()` for a game that sends nothing.
    type Farewell;

    /// The game's built-in `kind` at `seat` of the game whose seed is `seed` (its random
    /// stream, if it draws, is [`builtin_rng`]`(seed, seat)`): padding a table, or taking
    /// over a faulted seat when the game substitutes ([`OnFault::Substitute`]).
    fn builtin(kind: BuiltinKind, seed: u64, seat: usize) -> Self;

    /// Whether this player is a bot: a process that [`SeatPlayer::end`] shuts down.
    fn is_bot(&self) -> bool;

    /// A bot's ending: `farewell` sent, then its process shut down (`Process::finish_with`
    /// or `finish_text`). `None` for a player that is not a bot.
    fn end(
        self,
        farewell: Self::Farewell,
    ) -> Option<impl Future<Output = Finished> + Send + 'static>;
}

/// A seat's player as it arrives at the table, for the game to make its own
/// ([`Seats::start`]); built-ins are made by [`SeatPlayer::builtin`]. Handed over once per
/// seat and never kept, so a bot's process is moved as it is, not boxed.
#[allow(clippy::large_enum_variant)]
pub enum Arrival<'a> {
    /// A bot, started (with its transcript, if the series keeps one), and its words on the
    /// wire as the series made them ([`crate::game::Game::wires`]).
    Bot(Process, Option<&'a Wire>),
    /// The person at the keyboard.
    Human(&'a Arc<Console>),
}

/// The players of one game, seat by seat, and what their faults left: the holder a game's
/// table keeps its players in. A seat is played by the game's player `P`, or is out (the game
/// eliminated its player). (A game whose bots start afresh for every turn, and whose judge
/// decides what a fault costs, as a Botzone game's, keeps seats of its own and records its
/// faults with [`fault_record`].)
pub struct Seats<P> {
    seed: u64,
    on_fault: OnFault,
    names: Arc<[String]>,
    /// Seat order; `None`: out of the game.
    players: Vec<Option<P>>,
    /// Bots that could not be started, their faults not yet recorded.
    start_faults: Vec<(usize, Fault)>,
    invalid: Vec<InvalidRecord>,
    endings: Endings,
}

impl<P: SeatPlayer> Seats<P> {
    /// Seats the players of `table` for a game whose faults do what `on_fault` says: a bot
    /// started under `limits` (its transcript kept if the series keeps one) and a person are
    /// made the game's own by `arrive` (with their seat); a built-in by
    /// [`SeatPlayer::builtin`]. A bot that cannot be started is at once what its fault makes
    /// it (the substitute, or out); its fault waits for [`Seats::start_faults`].
    pub fn start(
        table: &TableGame,
        limits: Limits,
        on_fault: OnFault,
        mut arrive: impl FnMut(usize, Arrival<'_>) -> P,
    ) -> Seats<P> {
        let mut seats = Seats {
            seed: table.seed,
            on_fault,
            names: table.seats.iter().map(|s| s.name.clone()).collect(),
            players: Vec::with_capacity(table.seats.len()),
            start_faults: Vec::new(),
            invalid: Vec::new(),
            endings: Endings::default(),
        };
        for (seat, s) in table.seats.iter().enumerate() {
            let player = match &s.occupant {
                Occupant::Builtin(kind) => Some(P::builtin(*kind, table.seed, seat)),
                Occupant::Human(console) => Some(arrive(seat, Arrival::Human(console))),
                bot @ Occupant::Bot { wire, .. } => {
                    match spawn_bot(bot, table.game, limits).expect("a bot's seat") {
                        Ok(p) => Some(arrive(seat, Arrival::Bot(p, wire.as_ref()))),
                        Err(fault) => {
                            seats.start_faults.push((seat, fault));
                            seats.successor(seat)
                        }
                    }
                }
            };
            seats.players.push(player);
        }
        seats
    }

    /// The bots that could not be started, with their faults (seat order; once): the table
    /// records each with [`Seats::fault`] when its game says (Take 6 as its first turn
    /// begins, Kingdomino at once). Their seats already are what the faults make them.
    pub fn start_faults(&mut self) -> Vec<(usize, Fault)> {
        std::mem::take(&mut self.start_faults)
    }

    /// The players' names, seat order.
    pub fn names(&self) -> &Arc<[String]> {
        &self.names
    }

    /// The player of `seat`; `None` if it is out.
    pub fn get(&self, seat: usize) -> Option<&P> {
        self.players[seat].as_ref()
    }

    /// The player of `seat`, to ask or tell; `None` if it is out.
    pub fn get_mut(&mut self, seat: usize) -> Option<&mut P> {
        self.players[seat].as_mut()
    }

    /// Whether `seat`'s player is out of the game (its fault eliminated it).
    pub fn is_out(&self, seat: usize) -> bool {
        self.players[seat].is_none()
    }

    /// The players still in the game, each with its seat, seat order.
    pub fn playing_mut(&mut self) -> impl Iterator<Item = (usize, &mut P)> {
        self.players
            .iter_mut()
            .enumerate()
            .filter_map(|(seat, p)| p.as_mut().map(|p| (seat, p)))
    }

    /// `fault` of `seat`'s player, in `turn` while asked for `phase`: recorded; its bot, if
    /// it was still playing, sent `farewell()` and shut down in the background (so its grace
    /// period delays no one); and the seat then what the game says
    /// ([`crate::game::GameFacts::on_fault`]): the game's built-in, made afresh, or out. Returns
    /// what the game said, for its rules (Kingdomino's take the player out of the game).
    pub fn fault(
        &mut self,
        seat: usize,
        turn: u8,
        phase: FaultPhase,
        fault: &Fault,
        farewell: impl FnOnce() -> P::Farewell,
    ) -> OnFault {
        self.record(seat, turn, phase, fault);
        let successor = self.successor(seat);
        if let Some(player) = std::mem::replace(&mut self.players[seat], successor)
            && player.is_bot()
            && let Some(ending) = player.end(farewell())
        {
            self.endings.retire(seat, ending);
        }
        self.on_fault
    }

    /// The faults recorded so far (seat order within a turn), taken: a round's.
    pub fn take_invalid(&mut self) -> Vec<InvalidRecord> {
        std::mem::take(&mut self.invalid)
    }

    /// The end of the game: every bot still playing is sent `farewell(seat)` and shut down,
    /// all at once, and the ones retired earlier are waited for. A fault found only now (a
    /// limit its tree passed, CPU used after its last reply) is recorded in `turn` and
    /// `phase`, and is in [`Ended::faults`] for the game's rules (its seat stays as it is:
    /// the game is over). No seat has a player afterwards.
    pub async fn finish(
        &mut self,
        turn: u8,
        phase: FaultPhase,
        mut farewell: impl FnMut(usize) -> P::Farewell,
    ) -> Ended {
        let finishing: Vec<_> = (self.players.iter_mut().map(Option::take))
            .enumerate()
            .filter_map(|(seat, player)| {
                let ending = player.filter(P::is_bot)?.end(farewell(seat))?;
                Some(async move { (seat, ending.await) })
            })
            .collect();
        let ended = std::mem::take(&mut self.endings)
            .finish(finishing, &self.names)
            .await;
        for (seat, fault) in &ended.faults {
            self.record(*seat, turn, phase.clone(), fault);
        }
        ended
    }

    /// Who plays `seat` once its bot faulted: the game's substitute, made afresh, or nobody.
    fn successor(&self, seat: usize) -> Option<P> {
        let kind = self.on_fault.successor()?;
        Some(P::builtin(kind, self.seed, seat))
    }

    fn record(&mut self, seat: usize, turn: u8, phase: FaultPhase, fault: &Fault) {
        let record = fault_record(&self.names[seat], seat, turn, phase, fault);
        self.invalid.push(record);
    }
}

/// Starts the bot of `occupant` for game `game` under `limits`, its messages and replies
/// recorded when the series keeps a transcript (`take6 check`). `None` when the occupant is
/// not a bot; a bot that cannot be started is its first fault.
fn spawn_bot(occupant: &Occupant, game: u64, limits: Limits) -> Option<Result<Process, Fault>> {
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
struct Endings {
    background: Vec<(usize, JoinHandle<Finished>)>,
}

/// What the bots of a game left when it ended, by seat.
pub struct Ended {
    /// Faults found only as the bots ended (a limit passed, CPU used after the last reply),
    /// in seat order: recorded already ([`Seats::finish`]), here for the game's rules.
    pub faults: Vec<(usize, Fault)>,
    /// Each bot's reply times, seat order.
    pub replies: Vec<ReplyTimes>,
    /// Each bot's stderr, seat order.
    pub logs: Vec<SeatLog>,
}

impl Endings {
    /// Shuts down `seat`'s bot in the background (`ending` is its process's `finish`).
    fn retire(&mut self, seat: usize, ending: impl Future<Output = Finished> + Send + 'static) {
        self.background.push((seat, tokio::spawn(ending)));
    }

    /// The end of the game: waits for `finishing` (the bots still playing, each its seat and
    /// its process's `finish`) and then for the ones retired earlier. `names` by seat.
    async fn finish<F>(self, finishing: Vec<F>, names: &[String]) -> Ended
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

#[cfg(test)]
mod tests {
    use std::os::unix::fs::PermissionsExt;

    use super::*;
    use crate::player::process::test_limits;
    use crate::record::GameName;
    use crate::sandbox::Sandbox;
    use crate::table::TableSeat;

    const SUB: BuiltinKind = BuiltinKind {
        index: 0,
        name: "sub",
    };

    /// A game's player, as plain as can be: a built-in made for its seat, or a bot.
    #[allow(clippy::large_enum_variant)]
    enum Plain {
        Builtin(BuiltinKind, usize),
        Bot(Process),
    }

    impl SeatPlayer for Plain {
        type Farewell = &'static str;

        fn builtin(kind: BuiltinKind, _seed: u64, seat: usize) -> Plain {
            Plain::Builtin(kind, seat)
        }

        fn is_bot(&self) -> bool {
            matches!(self, Plain::Bot(_))
        }

        fn end(self, farewell: &'static str) -> Option<impl Future<Output = Finished> + Send> {
            match self {
                Plain::Bot(p) => Some(p.finish_text(Some(farewell))),
                Plain::Builtin(..) => None,
            }
        }
    }

    /// A bot's folder whose `launch` is `script`.
    fn bot(script: &str) -> tempfile::TempDir {
        let dir = tempfile::tempdir().unwrap();
        let launch = dir.path().join("launch");
        std::fs::write(&launch, format!("#!/bin/sh\n{script}\n")).unwrap();
        std::fs::set_permissions(&launch, std::fs::Permissions::from_mode(0o755)).unwrap();
        dir
    }

    fn seat(name: &str, occupant: Occupant) -> TableSeat {
        TableSeat {
            name: name.into(),
            occupant,
        }
    }

    fn at(dir: &tempfile::TempDir) -> Occupant {
        Occupant::Bot {
            workdir: dir.path().to_path_buf(),
            wire: None,
            language: None,
            modes: crate::bots::Modes::default(),
            sandbox: Arc::new(Sandbox::none()),
            transcript: None,
        }
    }

    /// Asks `seat`'s bot for a number, as a game's table would, and judges it.
    async fn ask(seats: &mut Seats<Plain>, seat: usize) -> Result<i64, Fault> {
        let Some(Plain::Bot(p)) = seats.get_mut(seat) else {
            panic!("seat {seat} is a bot");
        };
        let line = p.ask_lines("go\n", 1).await?.remove(0);
        line.parse()
            .map_err(|_| Fault::BadReply(format!("said {line}"), "bad_reply"))
    }

    /// A table of a built-in and the bots in `dirs` (`good`, `bad`, `broken`).
    fn table(dirs: [&tempfile::TempDir; 3]) -> TableGame {
        let [good, bad, broken] = dirs;
        TableGame {
            game: 1,
            rules: GameName::default(),
            seed: 5,
            subset: 0,
            rotation: 0,
            rounds: 1,
            seats: vec![
                seat("pad", Occupant::Builtin(SUB)),
                seat("good", at(good)),
                seat("bad", at(bad)),
                seat("broken", at(broken)),
            ],
        }
    }

    /// Seats 2 and 3 faulted: each is the substitute made for it, or out, as `on_fault` says.
    fn assert_faulted(seats: &mut Seats<Plain>, on_fault: OnFault) {
        for faulted in [2, 3] {
            match on_fault {
                OnFault::Substitute(_) => {
                    assert!(!seats.is_out(faulted));
                    let made =
                        matches!(seats.get(faulted), Some(Plain::Builtin(SUB, s)) if *s == faulted);
                    assert!(made, "seat {faulted} is the substitute made for it");
                }
                OnFault::Eliminate => assert!(seats.is_out(faulted)),
            }
        }
        let playing: Vec<usize> = seats.playing_mut().map(|(s, _)| s).collect();
        match on_fault {
            OnFault::Substitute(_) => assert_eq!(playing, [0, 1, 2, 3]),
            OnFault::Eliminate => assert_eq!(playing, [0, 1]),
        }
    }

    #[tokio::test]
    async fn a_fault_makes_the_seat_the_games_substitute_or_puts_it_out() {
        for on_fault in [OnFault::Substitute(SUB), OnFault::Eliminate] {
            // Seat 1 answers and then reads its last message; seat 2 answers badly and keeps
            // whatever it is sent next; seat 3 cannot start.
            let good = bot("read q\necho 7\nread last\necho \"$last\" > got.txt");
            let bad = bot("read q\necho seven\ncat > got.txt");
            let broken = bot("");
            std::fs::write(broken.path().join("launch"), "#!/no/such/interpreter\n").unwrap();
            let table = table([&good, &bad, &broken]);
            let mut seats = Seats::start(
                &table,
                test_limits(),
                on_fault,
                |_, arrival| match arrival {
                    Arrival::Bot(p, _) => Plain::Bot(p),
                    Arrival::Human(_) => unreachable!("no person here"),
                },
            );
            assert!(matches!(seats.get(0), Some(Plain::Builtin(SUB, 0))));
            let start = seats.start_faults();
            assert_eq!(start.len(), 1, "{on_fault:?}");
            assert_eq!((start[0].0, start[0].1.kind()), (3, "could_not_start"));
            assert!(seats.start_faults().is_empty(), "taken once");
            assert_eq!(
                seats.fault(3, 0, FaultPhase::named("move"), &start[0].1, || "invalid\n"),
                on_fault
            );

            assert_eq!(ask(&mut seats, 1).await, Ok(7));
            let fault = ask(&mut seats, 2).await.unwrap_err();
            let said = seats.fault(2, 1, FaultPhase::named("move"), &fault, || "invalid\n");
            assert_eq!(said, on_fault);
            assert_faulted(&mut seats, on_fault);

            let ended = seats
                .finish(1, FaultPhase::named("move"), |_| "score\n")
                .await;
            assert!(ended.faults.is_empty());
            // Both bots' ends, the faulted one's (retired in the background) included.
            let logged: Vec<(usize, &str)> = ended
                .logs
                .iter()
                .map(|l| (l.seat, l.name.as_str()))
                .collect();
            assert_eq!(logged, [(1, "good"), (2, "bad")]);
            let replied: Vec<(usize, usize)> = ended
                .replies
                .iter()
                .map(|r| (r.seat, r.wall_us.len()))
                .collect();
            assert_eq!(replied, [(1, 1), (2, 1)]);
            let got = |dir: &tempfile::TempDir| {
                std::fs::read_to_string(dir.path().join("got.txt")).unwrap()
            };
            assert_eq!(got(&good), "score\n");
            assert_eq!(
                got(&bad),
                "invalid\n",
                "the faulted bot was sent its farewell"
            );
            let invalid = seats.take_invalid();
            let recorded: Vec<(usize, u8, &str, &str)> = invalid
                .iter()
                .map(|r| (r.seat, r.turn, r.kind.as_str(), r.reason.as_str()))
                .collect();
            assert_eq!(recorded.len(), 2);
            let (seat, turn, kind, _) = recorded[0];
            assert_eq!((seat, turn, kind), (3, 0, "could_not_start"));
            assert_eq!(recorded[1], (2, 1, "bad_reply", "said seven"));
            assert!(seats.get(1).is_none(), "no seat has a player after the end");
        }
    }
}
