//! Playing one Kingdomino game at a table: starts the bots, sends each its block before each of
//! its sequences (the CodinGame wire of [`super::wire`]), reads its `PUT` and `PICK` lines as
//! one reply, applies them to the pure rules in [`super::game`], and turns bad replies into
//! faults. As the statement says, a fault (a badly formatted line, an invalid PICK, a timeout,
//! an exit) ends that player's game and its kingdom still scores; nobody takes its seat.
//! Returns the game's record; where it goes is not its business.

use std::future::Future;
use std::sync::Arc;
use std::time::Instant;

use rand::rngs::ChaCha8Rng;

use super::builtins::{Builtin as _, Greedy, Random};
use super::game::{Game, IllegalMove, Turn};
use super::kingdom::Placement;
use super::record::GameLog;
use super::wire;
use crate::player::{Fault, Finished, Limits, Process};
use crate::record::score;
use crate::record::{GameRecord, ReplyTimes, RoundRecord};
use crate::table::BuiltinKind;
use crate::table::OnFault;
use crate::table::seats::{self, Arrival, SeatPlayer, Seats};
use crate::table::{GameOutcome, SeatLog, TableGame};

/// Who plays a seat, as the game goes on (a seat whose player is out has none: the seat
/// holder's). At most four per table, so the size of a built-in's random stream does not
/// matter.
#[allow(clippy::large_enum_variant)]
enum Player {
    /// An in-process player with its own random stream.
    Builtin(BuiltinKind, ChaCha8Rng),
    /// An external bot.
    Process(Process),
    /// The person at the keyboard.
    Human(super::human::Human),
}

/// How the seat holder makes a built-in and ends a bot (its input closed; it is sent
/// nothing more).
impl SeatPlayer for Player {
    type Farewell = ();

    fn builtin(kind: BuiltinKind, seed: u64, seat: usize) -> Player {
        // Stream 0 is the draw's; each seat's player draws from a stream of its own.
        Player::Builtin(kind, seats::builtin_rng(seed, seat))
    }

    fn is_bot(&self) -> bool {
        matches!(self, Player::Process(_))
    }

    fn end(self, (): ()) -> Option<impl Future<Output = Finished> + Send + 'static> {
        match self {
            Player::Process(p) => Some(p.finish_text(None)),
            Player::Builtin(..) | Player::Human(_) => None,
        }
    }
}

/// Plays one whole game. Never fails: whatever a bot does becomes part of the record.
pub async fn play(table: TableGame, limits: Limits) -> GameOutcome {
    let started = Instant::now();
    let n = table.seats.len();
    let mut game = Game::new(table.seed, n);
    let init = wire::init_lines(n, super::game::tiles_per_turn(n));
    let on_fault = super::FACTS.on_fault;
    let seats = Seats::start(&table, limits, on_fault, |_, arrival| match arrival {
        Arrival::Bot(mut p, _) => {
            p.queue_text(&init);
            Player::Process(p)
        }
        Arrival::Human(console) => Player::Human(super::human::Human::new(
            Arc::clone(console),
            table.seats.iter().map(|s| s.name.clone()).collect(),
        )),
    });
    let mut state = Table { seats };
    for (seat, fault) in state.seats.start_faults() {
        state.fault(&mut game, seat, &fault);
    }
    while let Some(turn) = game.next() {
        state.play_sequence(&mut game, turn).await;
    }
    let (replies, logs) = state.finish(&mut game).await;
    let round = RoundRecord {
        invalid: state.seats.take_invalid(),
        scores: score::whole(&game.scores()),
        ..RoundRecord::default()
    };
    let body = GameLog {
        moves: game.log().to_vec(),
    };
    let record = GameRecord {
        rotation: 0,
        rounds: vec![round],
        ms: started.elapsed().as_millis() as u64,
        replies,
        body: Some(body.into_body()),
        ..table.blank_record()
    };
    GameOutcome { record, logs }
}

/// The players of a game in progress and what has gone wrong so far.
struct Table {
    seats: Seats<Player>,
}

impl Table {
    /// One PUT + PICK sequence of `turn.seat`.
    async fn play_sequence(&mut self, game: &mut Game, turn: Turn) {
        let seat = turn.seat;
        let view = game.view(seat);
        let Some(player) = self.seats.get_mut(seat) else {
            // A seat whose game is over is skipped by the rules; never asked.
            game.eliminate(seat);
            return;
        };
        let reply = match player {
            Player::Builtin(strategy, rng) => {
                let reply = match *strategy {
                    super::RANDOM => Random.reply(&view, rng),
                    _ => Greedy.reply(&view, rng),
                };
                Ok((reply.put, reply.pick, None))
            }
            Player::Process(p) => match p.ask_lines(&wire::turn_block(&view), 2).await {
                Ok(lines) => parse(&lines[0], &lines[1], turn.expects_pick),
                Err(fault) => Err(fault),
            },
            Player::Human(h) => h.reply(&view).await.map(|(put, pick)| (put, pick, None)),
        };
        let fault = match reply {
            Ok((put, pick, message)) => {
                let pick = turn.expects_pick.then_some(pick);
                match game.apply_with_message(seat, Some(put), pick, message) {
                    Ok(_) => return,
                    Err(IllegalMove::Unavailable(id)) => Fault::BadReply(
                        format!(
                            "picked tile {id}, which is not free to pick (free: {})",
                            free_list(&view.free_picks())
                        ),
                        "illegal_pick",
                    ),
                    Err(e) => Fault::BadReply(e.to_string(), "illegal_move"),
                }
            }
            Err(fault) => fault,
        };
        self.fault(game, seat, &fault);
    }

    /// Records `fault` and does what the game says: as the statement says, the player is out
    /// (its bot shut down, its kingdom still scoring) and the rules skip it from now on.
    fn fault(&mut self, game: &mut Game, seat: usize, fault: &Fault) {
        match self
            .seats
            .fault(seat, game.turn(), super::MOVE, fault, || ())
        {
            OnFault::Eliminate => game.eliminate(seat),
            OnFault::Substitute(_) => {}
        }
    }

    /// The end: every bot still playing has its input closed and is shut down. A bot whose
    /// tree passed a limit, or used more than a reply's CPU time after its last reply, faults
    /// now (its score still counts, as for any fault). Returns each bot's reply times and
    /// stderr, by seat.
    async fn finish(&mut self, game: &mut Game) -> (Vec<ReplyTimes>, Vec<SeatLog>) {
        for (_, player) in self.seats.playing_mut() {
            if let Player::Human(h) = player {
                h.game_over(game);
            }
        }
        let ended = self.seats.finish(game.turn(), super::MOVE, |_| ()).await;
        for (seat, _) in &ended.faults {
            game.eliminate(*seat);
        }
        (ended.replies, ended.logs)
    }
}

/// The reply's two lines as a placement, a pick and the pick's message. On the last turn
/// (`expects_pick` false) the PICK's value is ignored: any well-formed `PICK` integer is
/// accepted (`PICK -1` too) and the pick returned is 0, never applied.
fn parse(
    put: &str,
    pick: &str,
    expects_pick: bool,
) -> Result<(Placement, u8, Option<String>), Fault> {
    let bad = |e: wire::BadReply| Fault::BadReply(e.to_string(), "bad_reply");
    let put = wire::parse_put(put).map_err(bad)?;
    if !expects_pick {
        return Ok((put, 0, wire::parse_ignored_pick(pick).map_err(bad)?));
    }
    let (pick, message) = wire::parse_pick(pick).map_err(bad)?;
    Ok((put, pick, message))
}

/// Tile ids for a fault's reason: `3 17 40`, or `none`.
fn free_list(ids: &[u8]) -> String {
    if ids.is_empty() {
        return "none".into();
    }
    ids.iter().map(u8::to_string).collect::<Vec<_>>().join(" ")
}
