//! Playing one game: starts the players, asks them for cards and rows, applies their answers to
//! the pure rules in [`crate::game`], turns bad answers into faults and substitutes, and returns
//! the game's record. Where the record goes is not its business.

use std::path::PathBuf;
use std::sync::Arc;
use std::time::Instant;

use futures::future::join_all;
use rand::SeedableRng;
use rand::rngs::ChaCha8Rng;
use tokio::task::JoinHandle;

use crate::game::{Card, Deal, Game, HIGHEST_CARD, LOWEST_CARD, Phase, Placement, ROWS, View};
use crate::player::{
    Builtin, Console, Fault, Finished, Human, Limits, Player, Process, Seat, StderrLog, Strategy,
};
use crate::protocol::TemplateSet;
use crate::record::{
    FaultPhase, GameRecord, InvalidRecord, PlacementRecord, ReplyTimes, RowChoice, TurnRecord,
};
use crate::sandbox::Sandbox;

/// Who plays a seat.
#[derive(Clone)]
pub enum Occupant {
    Builtin(Strategy),
    /// An external bot, started from its working copy by the series' launcher.
    Bot {
        workdir: PathBuf,
        templates: Arc<TemplateSet>,
        sandbox: Arc<Sandbox>,
    },
    /// The person at the keyboard (`take6 play`).
    Human(Arc<Console>),
}

/// One seat of a game about to be played.
#[derive(Clone)]
pub struct TableSeat {
    pub name: String,
    pub occupant: Occupant,
}

/// A game to play: what the schedule planned, with its players resolved.
pub struct TableGame {
    pub game: u64,
    pub seed: u64,
    pub subset: u64,
    pub seats: Vec<TableSeat>,
}

/// A bot's stderr in one game.
#[derive(Debug, Clone)]
pub struct SeatLog {
    pub seat: usize,
    pub name: String,
    pub stderr: StderrLog,
}

/// A finished game: its record and what its bots wrote to stderr.
#[derive(Debug, Clone)]
pub struct GameOutcome {
    pub record: GameRecord,
    pub logs: Vec<SeatLog>,
}

/// Plays one whole game. Never fails: whatever a bot does becomes part of the record.
pub async fn play(table: TableGame, limits: Limits) -> GameOutcome {
    let started = Instant::now();
    let n = table.seats.len();
    let names: Vec<String> = table.seats.iter().map(|s| s.name.clone()).collect();
    let deal = Deal::shuffled(n, &mut ChaCha8Rng::seed_from_u64(table.seed));
    let mut game = Game::new(&deal);
    let mut state = Table {
        seed: table.seed,
        names,
        players: Vec::with_capacity(n),
        invalid: Vec::new(),
        start_faults: vec![None; n],
        logs: Vec::new(),
        replies: Vec::new(),
    };
    for (seat, s) in table.seats.iter().enumerate() {
        let player = match &s.occupant {
            Occupant::Builtin(strategy) => Seat::Builtin(Builtin::new(*strategy, table.seed, seat)),
            Occupant::Human(console) => Seat::Human(Human::new(Arc::clone(console))),
            Occupant::Bot {
                workdir,
                templates,
                sandbox,
            } => match Process::spawn(sandbox, workdir, Arc::clone(templates), limits) {
                Ok(p) => Seat::Process(p),
                Err(fault) => {
                    state.start_faults[seat] = Some(fault);
                    Seat::Builtin(Builtin::new(Strategy::SUBSTITUTE, table.seed, seat))
                }
            },
        };
        state.players.push(player);
    }

    state.tell_all(&game, Phase::Start).await;
    state.tell_all(&game, Phase::Cards).await;

    let mut turns = Vec::with_capacity(deal.hands[0].len());
    while !game.is_over() {
        turns.push(state.play_turn(&mut game).await);
    }
    let logs = state.finish(&mut game).await;

    let record = GameRecord {
        game: table.game,
        seed: table.seed,
        subset: table.subset,
        players: state.names,
        builtin: table
            .seats
            .iter()
            .map(|s| matches!(s.occupant, Occupant::Builtin(_)))
            .collect(),
        hands: deal.hands.clone(),
        rows: deal.rows,
        turns,
        invalid: state.invalid,
        cows: (0..n).map(|s| game.cows(s)).collect(),
        penalty: (0..n).map(|s| game.penalty(s)).collect(),
        scores: game.scores(),
        ms: started.elapsed().as_millis() as u64,
        replies: state.replies,
    };
    GameOutcome { record, logs }
}

/// The players of a game in progress and what has gone wrong so far.
struct Table {
    seed: u64,
    names: Vec<String>,
    players: Vec<Seat>,
    invalid: Vec<InvalidRecord>,
    /// Bots that could not even be started; their fault is recorded when turn 1 begins.
    start_faults: Vec<Option<Fault>>,
    /// Faulted bots shutting down in the background, so their grace period delays no one.
    logs: Vec<(usize, JoinHandle<Finished>)>,
    /// Each bot seat's reply times, in seat order, filled as the bots finish.
    replies: Vec<ReplyTimes>,
}

impl Table {
    /// One turn: every seat chooses a card, all are revealed, then placed lowest first.
    async fn play_turn(&mut self, game: &mut Game) -> TurnRecord {
        game.begin_turn();
        for seat in 0..self.players.len() {
            if let Some(fault) = self.start_faults[seat].take() {
                self.record_fault(game, seat, FaultPhase::Card, fault);
            }
        }
        let cards = self.choose_cards(game).await;
        let order = game.reveal(&cards);
        self.tell_all(game, Phase::Used).await;
        let mut events = Vec::with_capacity(cards.len());
        for seat in order {
            let (placement, reason) = match game.place(seat) {
                Some(p) => (p, None),
                None => self.take_a_row(game, seat).await,
            };
            if !placement.took.is_empty() {
                let mut view = self.view(game, seat, Phase::Cardgain);
                view.gained = placement.took.clone();
                view.gained_cows = placement.cows;
                self.players[seat].tell(&view).await;
            }
            let Placement { row, took, cows } = placement;
            events.push(PlacementRecord {
                seat,
                card: cards[seat],
                row,
                took,
                cows,
                reason,
            });
        }
        TurnRecord {
            played: cards,
            events,
        }
    }

    /// The end: every player still playing gets its score, then all bots shut down at once.
    /// A bot whose tree passed a limit during the game (its working copy grew too much) faults
    /// now. Returns what each bot (faulted ones included) wrote to stderr, by seat.
    async fn finish(&mut self, game: &mut Game) -> Vec<SeatLog> {
        let mut endings = Vec::new();
        for (seat, player) in std::mem::take(&mut self.players).into_iter().enumerate() {
            let view = self.view(game, seat, Phase::Score);
            match player {
                Seat::Process(p) => endings.push(async move { (seat, p.finish(Some(view)).await) }),
                Seat::Human(mut h) => h.tell(&view).await,
                Seat::Builtin(_) => {}
            }
        }
        let mut finished: Vec<(usize, Finished)> = join_all(endings).await;
        for (seat, ended) in &finished {
            if let Some(breach) = ended.breach {
                self.note_fault(game, *seat, FaultPhase::Card, &Fault::Limit(breach));
            }
        }
        for (seat, task) in self.logs.drain(..) {
            if let Ok(ended) = task.await {
                finished.push((seat, ended));
            }
        }
        finished.sort_by_key(|(seat, _)| *seat);
        finished
            .into_iter()
            .map(|(seat, ended)| {
                self.replies.push(ReplyTimes::new(seat, &ended.replies));
                SeatLog {
                    seat,
                    name: self.names[seat].clone(),
                    stderr: ended.stderr,
                }
            })
            .collect()
    }

    fn view(&self, game: &Game, seat: usize, phase: Phase) -> View {
        game.view(seat, phase, &self.names)
    }

    /// Tells every seat about `phase` at once. Built-ins ignore news, so no view is made for
    /// them.
    async fn tell_all(&mut self, game: &Game, phase: Phase) {
        let names = &self.names;
        join_all(
            self.players
                .iter_mut()
                .enumerate()
                .filter(|(_, player)| !matches!(player, Seat::Builtin(_)))
                .map(|(seat, player)| async move {
                    player.tell(&game.view(seat, phase, names)).await;
                }),
        )
        .await;
    }

    /// Asks every seat for a card at once; a seat that faults is taken over by a substitute,
    /// which chooses in its place.
    async fn choose_cards(&mut self, game: &mut Game) -> Vec<Card> {
        let views: Vec<View> = (0..self.players.len())
            .map(|seat| self.view(game, seat, Phase::Turn))
            .collect();
        let answers = join_all(
            self.players
                .iter_mut()
                .zip(&views)
                .map(|(player, view)| player.choose_card(view)),
        )
        .await;
        let mut cards = Vec::with_capacity(answers.len());
        for (seat, answer) in answers.into_iter().enumerate() {
            let card = match answer.and_then(|n| held_card(n, &views[seat].hand)) {
                Ok(card) => card,
                Err(fault) => {
                    self.record_fault(game, seat, FaultPhase::Card, fault);
                    self.substitute(seat).card(&views[seat])
                }
            };
            cards.push(card);
        }
        cards
    }

    /// `seat`'s card is lower than every top: asks it for a row. A seat that has faulted (now
    /// or earlier) is made to take the cheapest row.
    async fn take_a_row(&mut self, game: &mut Game, seat: usize) -> (Placement, Option<RowChoice>) {
        if game.faulted(seat).is_none() {
            let view = self.view(game, seat, Phase::Pickrow);
            match self.players[seat]
                .choose_row(&view)
                .await
                .and_then(row_index)
            {
                Ok(row) => return (game.take_row(seat, row), Some(RowChoice::Pick)),
                Err(fault) => self.record_fault(game, seat, FaultPhase::Row, fault),
            }
        }
        let row = game.board().cheapest_row();
        (game.take_row(seat, row), Some(RowChoice::Forced))
    }

    /// Records `fault` and starts shutting the bot down (it is sent `invalid` first).
    fn record_fault(&mut self, game: &mut Game, seat: usize, phase: FaultPhase, fault: Fault) {
        self.note_fault(game, seat, phase, &fault);
        let substitute = Seat::Builtin(Builtin::new(Strategy::SUBSTITUTE, self.seed, seat));
        if let Seat::Process(p) = std::mem::replace(&mut self.players[seat], substitute) {
            let view = self.view(game, seat, Phase::Invalid);
            self.logs.push((
                seat,
                tokio::spawn(async move { p.finish(Some(view)).await }),
            ));
        }
    }

    /// Records `fault` in the game and its record.
    fn note_fault(&mut self, game: &mut Game, seat: usize, phase: FaultPhase, fault: &Fault) {
        game.fault(seat);
        tracing::info!(
            seat,
            bot = %self.names[seat],
            turn = game.turn(),
            "fault: {fault}"
        );
        self.invalid.push(InvalidRecord {
            seat,
            turn: game.turn(),
            phase,
            kind: fault.kind().to_string(),
            reason: fault.to_string(),
        });
    }

    /// The built-in now playing `seat` (after a fault).
    fn substitute(&mut self, seat: usize) -> &mut Builtin {
        match &mut self.players[seat] {
            Seat::Builtin(b) => b,
            Seat::Process(_) | Seat::Human(_) => {
                unreachable!("a faulted seat is played by a built-in")
            }
        }
    }
}

/// The card `n` if it is a card in `hand`.
fn held_card(n: i64, hand: &[Card]) -> Result<Card, Fault> {
    Card::try_from(n)
        .ok()
        .filter(|c| (LOWEST_CARD..=HIGHEST_CARD).contains(c) && hand.contains(c))
        .ok_or(Fault::NotInHand(n))
}

fn row_index(n: i64) -> Result<usize, Fault> {
    usize::try_from(n)
        .ok()
        .filter(|&r| r < ROWS)
        .ok_or(Fault::NoSuchRow(n))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::record::check_record;

    fn builtin_table(game: u64, seed: u64) -> TableGame {
        TableGame {
            game,
            seed,
            subset: 0,
            seats: Strategy::ALL
                .iter()
                .cycle()
                .take(10)
                .enumerate()
                .map(|(i, s)| TableSeat {
                    name: format!("{}#{i}", s.name()),
                    occupant: Occupant::Builtin(*s),
                })
                .collect(),
        }
    }

    #[tokio::test]
    async fn built_in_games_follow_the_rules_and_repeat_from_their_seed() {
        for seed in 0..20 {
            let a = play(builtin_table(seed, seed), Limits::default()).await;
            check_record(&a.record).unwrap_or_else(|e| panic!("seed {seed}: {e}"));
            assert!(a.record.invalid.is_empty());
            assert_eq!(a.record.turns.len(), 10);
            let total: u32 = a.record.cows.iter().sum();
            assert!(total > 0, "someone takes cows in a game of ten");
            let b = play(builtin_table(seed, seed), Limits::default()).await;
            assert_eq!(
                GameRecord { ms: 0, ..a.record },
                GameRecord { ms: 0, ..b.record }
            );
        }
    }

    #[test]
    fn answers_are_checked_against_the_hand_and_the_rows() {
        assert_eq!(held_card(7, &[3, 7]), Ok(7));
        assert_eq!(held_card(8, &[3, 7]), Err(Fault::NotInHand(8)));
        assert_eq!(
            held_card(263, &[7]),
            Err(Fault::NotInHand(263)),
            "no wrapping to 7"
        );
        assert_eq!(held_card(-1, &[7]), Err(Fault::NotInHand(-1)));
        assert_eq!(row_index(3), Ok(3));
        assert_eq!(row_index(4), Err(Fault::NoSuchRow(4)));
        assert_eq!(row_index(-1), Err(Fault::NoSuchRow(-1)));
    }
}
