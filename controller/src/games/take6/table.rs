//! Playing one game of Take 6: starts the players, asks them for cards and rows, applies their
//! answers to the pure rules in [`super::game`], turns bad answers into faults and substitutes,
//! and returns the game's record.

pub mod builtins;

use std::sync::Arc;
use std::time::Instant;

use futures::future::join_all;
use rand::SeedableRng;
use rand::rngs::ChaCha8Rng;

use super::bot::BotPlayer;
use super::builtin::Builtin;
use super::game::{
    Card, Deal, Game, HIGHEST_CARD, LOWEST_CARD, Moment, Phase, Placement, ROWS, View,
};
use super::human::Human;
use super::player::Player;
use super::protocol::{TemplateSet, default_set};
use super::seat::Seat;
use crate::player::{Fault, Limits};
use crate::record::score;
use crate::record::{
    FaultPhase, GameRecord, PlacementRecord, ReplyTimes, RoundRecord, RowChoice, TurnRecord,
};
use crate::table::seats::{Arrival, Seats};
use crate::table::{GameOutcome, SeatLog, TableGame};

/// The cards of round `round` (0-based) of the game with seed `seed` at a table of `players`,
/// the hands rotated by `rotation` (duplicate deals): seat `s` holds the hand dealt to seat
/// `(s + rotation) % players`. Round 0 is dealt from the seed's ChaCha stream 0, round `r`
/// from stream `r`. Public so that `take6 verify` deals the same cards.
pub fn deal(seed: u64, players: usize, round: u32, rotation: usize) -> Deal {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    rng.set_stream(u64::from(round));
    let mut deal = Deal::shuffled(players, &mut rng);
    deal.hands.rotate_left(rotation % players);
    deal
}

/// Plays one whole game of `table.rounds` rounds with the same players. Never fails: whatever
/// a bot does becomes part of the record.
pub async fn play(table: TableGame, limits: Limits) -> GameOutcome {
    let started = Instant::now();
    let n = table.seats.len();
    // The game says who takes a faulted seat over; Take 6's rules play every seat to the end.
    let on_fault = super::FACTS.on_fault;
    assert!(
        on_fault.successor().is_some(),
        "Take 6 substitutes a faulted seat (GameFacts::on_fault)"
    );
    let mut seats = Seats::start(&table, limits, on_fault, |_, arrival| match arrival {
        // The template set the bot speaks, as the series made it (`wires`).
        Arrival::Bot(p, wire) => Seat::Bot(BotPlayer::new(
            p,
            wire.and_then(|w| w.get::<TemplateSet>())
                .unwrap_or_else(default_set),
        )),
        Arrival::Human(console) => Seat::Human(Human::new(Arc::clone(console))),
    });
    let mut pending = vec![None; n];
    for (seat, fault) in seats.start_faults() {
        pending[seat] = Some(fault);
    }
    let mut state = Table {
        sights: Sights {
            names: Arc::clone(seats.names()),
            round: 1,
            rounds: table.rounds.max(1),
        },
        seats,
        pending,
        gone: vec![None; n],
        replies: Vec::new(),
    };

    let rounds = state.sights.rounds;
    let mut played = Vec::with_capacity(rounds as usize);
    let mut logs = Vec::new();
    for round in 1..=rounds {
        state.sights.round = round;
        let deal = deal(table.seed, n, round - 1, table.rotation);
        let (mut game, turns) = state.play_round(&deal).await;
        if round == rounds {
            // A limit found only as the bots end (disk) is a fault of this last round.
            logs = state.finish(&mut game).await;
        } else {
            state.tell_all(&game, Phase::Score).await;
        }
        played.push(RoundRecord {
            hands: deal.hands,
            rows: deal.rows,
            turns,
            invalid: state.seats.take_invalid(),
            cows: (0..n).map(|s| game.cows(s)).collect(),
            penalty: (0..n).map(|s| game.penalty(s)).collect(),
            scores: score::whole(&game.scores()),
        });
    }
    let record = GameRecord {
        rounds: played,
        ms: started.elapsed().as_millis() as u64,
        replies: state.replies,
        ..table.blank_record()
    };
    GameOutcome { record, logs }
}

/// The players of a game in progress (every seat played to the end: a faulted bot's by the
/// game's substitute) and what has gone wrong so far.
struct Table {
    seats: Seats<Seat>,
    /// What every view says beside the game.
    sights: Sights,
    /// Faults to record as the next turn begins: a bot that could not even be started, or
    /// one absent from a later round.
    pending: Vec<Option<Fault>>,
    /// Each bot seat's reply times, in seat order, filled as the bots finish.
    replies: Vec<ReplyTimes>,
    /// Per seat, the round its bot faulted in: it plays no later round.
    gone: Vec<Option<u32>>,
}

/// What a view shows beside the game: the players in seat order (shared with every view),
/// the round being played, from 1, and how many the game has.
struct Sights {
    names: Arc<[String]>,
    round: u32,
    rounds: u32,
}

impl Sights {
    /// `seat`'s view at `moment` (the game's now): views of one moment share what all see.
    fn view_at(&self, game: &Game, moment: &Moment, seat: usize, phase: Phase) -> View {
        let mut view = game.view_at(moment, seat, phase, &self.names);
        view.round = self.round;
        view.rounds = self.rounds;
        view
    }
}

impl Table {
    /// One round: the deal, `start` before the first round only, `cards`, then the turns.
    /// A seat whose bot faulted in an earlier round is recorded absent at turn 1 (its
    /// substitute plays the round, and the seat scores the fault penalty).
    async fn play_round(&mut self, deal: &Deal) -> (Game, Vec<TurnRecord>) {
        let mut game = Game::new(deal);
        for seat in 0..self.pending.len() {
            if let Some(round) = self.gone[seat] {
                self.pending[seat] = Some(Fault::Absent { round });
            }
        }
        if self.sights.round == 1 {
            self.tell_all(&game, Phase::Start).await;
        }
        self.tell_all(&game, Phase::Cards).await;
        let mut turns = Vec::with_capacity(deal.hands[0].len());
        while !game.is_over() {
            turns.push(self.play_turn(&mut game).await);
        }
        (game, turns)
    }

    /// One turn: every seat chooses a card, all are revealed, then placed lowest first.
    async fn play_turn(&mut self, game: &mut Game) -> TurnRecord {
        game.begin_turn();
        for seat in 0..self.pending.len() {
            if let Some(fault) = self.pending[seat].take() {
                self.record_fault(game, seat, super::CARD, &fault);
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
                self.player(seat).tell(&view).await;
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

    /// The end: every person still playing gets its score, then all bots (sent theirs) shut
    /// down at once. A bot whose tree passed a limit during the game (its working copy grew
    /// too much) or used more than a reply's CPU time after its last reply faults now.
    /// Returns what each bot (faulted ones included) wrote to stderr, by seat.
    async fn finish(&mut self, game: &mut Game) -> Vec<SeatLog> {
        let moment = game.moment();
        for (seat, player) in self.seats.playing_mut() {
            if let Seat::Human(h) = player {
                h.tell(&self.sights.view_at(game, &moment, seat, Phase::Score))
                    .await;
            }
        }
        let sights = &self.sights;
        let scores = |seat| sights.view_at(game, &moment, seat, Phase::Score);
        let ended = self.seats.finish(game.turn(), super::CARD, scores).await;
        for (seat, _) in &ended.faults {
            game.fault(*seat);
            self.gone[*seat].get_or_insert(self.sights.round);
        }
        self.replies = ended.replies;
        ended.logs
    }

    fn view(&self, game: &Game, seat: usize, phase: Phase) -> View {
        self.sights.view_at(game, &game.moment(), seat, phase)
    }

    /// The player of `seat`: there is one till the end.
    fn player(&mut self, seat: usize) -> &mut Seat {
        self.seats
            .get_mut(seat)
            .expect("Take 6 plays every seat to the end")
    }

    /// Tells every seat about `phase` at once. Built-ins ignore news, so no view is made for
    /// them.
    async fn tell_all(&mut self, game: &Game, phase: Phase) {
        let moment = game.moment();
        let views: Vec<Option<View>> = (0..self.pending.len())
            .map(|seat| {
                let builtin = matches!(self.seats.get(seat), Some(Seat::Builtin(_)) | None);
                (!builtin).then(|| self.sights.view_at(game, &moment, seat, phase))
            })
            .collect();
        join_all(
            self.seats
                .playing_mut()
                .filter_map(|(seat, player)| views[seat].as_ref().map(|v| player.tell(v))),
        )
        .await;
    }

    /// Asks every seat for a card at once; a seat that faults is taken over by a substitute,
    /// which chooses in its place.
    async fn choose_cards(&mut self, game: &mut Game) -> Vec<Card> {
        let moment = game.moment();
        let views: Vec<View> = (0..self.pending.len())
            .map(|seat| self.sights.view_at(game, &moment, seat, Phase::Turn))
            .collect();
        // Every seat plays, so the answers are in seat order.
        let answers = join_all(
            self.seats
                .playing_mut()
                .map(|(seat, player)| player.choose_card(&views[seat])),
        )
        .await;
        debug_assert_eq!(answers.len(), views.len());
        let mut cards = Vec::with_capacity(answers.len());
        for (seat, answer) in answers.into_iter().enumerate() {
            let card = match answer.and_then(|n| held_card(n, &views[seat].hand)) {
                Ok(card) => card,
                Err(fault) => {
                    self.record_fault(game, seat, super::CARD, &fault);
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
            match self
                .player(seat)
                .choose_row(&view)
                .await
                .and_then(row_index)
            {
                Ok(row) => return (game.take_row(seat, row), Some(RowChoice::Pick)),
                Err(fault) => self.record_fault(game, seat, super::ROW, &fault),
            }
        }
        let row = game.board().cheapest_row();
        (game.take_row(seat, row), Some(RowChoice::Forced))
    }

    /// Records `fault` in the game's rules, and through the seats: recorded, the bot sent
    /// `invalid` and shut down, its seat the substitute's.
    fn record_fault(&mut self, game: &mut Game, seat: usize, phase: FaultPhase, fault: &Fault) {
        game.fault(seat);
        self.gone[seat].get_or_insert(self.sights.round);
        let (sights, game) = (&self.sights, &*game);
        let invalid = || sights.view_at(game, &game.moment(), seat, Phase::Invalid);
        self.seats.fault(seat, game.turn(), phase, fault, invalid);
    }

    /// The built-in now playing `seat` (after a fault).
    fn substitute(&mut self, seat: usize) -> &mut Builtin {
        match self.seats.get_mut(seat) {
            Some(Seat::Builtin(b)) => b,
            _ => unreachable!("a faulted seat is played by a built-in"),
        }
    }
}

/// The card `n` if it is a card in `hand`.
fn held_card(n: i64, hand: &[Card]) -> Result<Card, Fault> {
    Card::try_from(n)
        .ok()
        .filter(|c| (LOWEST_CARD..=HIGHEST_CARD).contains(c) && hand.contains(c))
        .ok_or_else(|| not_in_hand(n))
}

fn row_index(n: i64) -> Result<usize, Fault> {
    usize::try_from(n)
        .ok()
        .filter(|&r| r < ROWS)
        .ok_or_else(|| no_such_row(n))
}

/// The fault of a bot that played `card`, a card it does not hold.
fn not_in_hand(card: i64) -> Fault {
    Fault::BadReply(
        format!("played {card}, a card it does not hold"),
        "not_in_hand",
    )
}

/// The fault of a bot that picked row `row`, which is not a row.
fn no_such_row(row: i64) -> Fault {
    Fault::BadReply(
        format!("picked row {row}; rows are 0 to {}", ROWS - 1),
        "no_such_row",
    )
}

#[cfg(test)]
mod tests {
    use super::super::check::check_record;
    use super::*;
    use crate::table::{Occupant, TableSeat};

    fn builtin_table(game: u64, seed: u64) -> TableGame {
        TableGame {
            rules: crate::record::GameName::default(),
            game,
            seed,
            subset: 0,
            rotation: 0,
            rounds: 1,
            seats: crate::games::take6::builtin::BUILTINS
                .iter()
                .cycle()
                .take(10)
                .enumerate()
                .map(|(i, s)| TableSeat {
                    name: format!("{}#{i}", s.name),
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
            assert!(a.record.rounds[0].invalid.is_empty());
            assert_eq!(a.record.rounds[0].turns.len(), 10);
            let total: u32 = a.record.rounds[0].cows.iter().sum();
            assert!(total > 0, "someone takes cows in a game of ten");
            let b = play(builtin_table(seed, seed), Limits::default()).await;
            assert_eq!(
                GameRecord { ms: 0, ..a.record },
                GameRecord { ms: 0, ..b.record }
            );
        }
    }

    #[tokio::test]
    async fn a_game_of_rounds_deals_afresh_each_round_and_sums_the_scores() {
        let one = play(builtin_table(4, 9), Limits::default()).await.record;
        let table = TableGame {
            rules: crate::record::GameName::default(),
            rounds: 3,
            ..builtin_table(4, 9)
        };
        let three = play(table, Limits::default()).await.record;
        check_record(&three).unwrap();
        assert_eq!(three.round_count(), 3);
        // Round 1 is the one-round game of the same seed, so one-round records are unchanged.
        assert_eq!(
            three.round(0).unwrap(),
            GameRecord {
                ms: three.ms,
                ..one.clone()
            }
        );
        assert_ne!(
            three.rounds[0].hands, three.rounds[1].hands,
            "a fresh deal each round"
        );
        assert_ne!(three.rounds[1].hands, three.rounds[2].hands);
        let sums: Vec<crate::record::Score> = (0..10)
            .map(|s| {
                three
                    .rounds
                    .iter()
                    .map(|r| r.scores[s])
                    .sum::<crate::record::Score>()
            })
            .collect();
        assert_eq!(three.totals(), sums);
        let json = crate::record::games_jsonl_line(&one);
        assert!(
            !json.contains("rounds") && !json.contains("totals"),
            "{json}"
        );
    }

    #[test]
    fn answers_are_checked_against_the_hand_and_the_rows() {
        assert_eq!(held_card(7, &[3, 7]), Ok(7));
        assert_eq!(held_card(8, &[3, 7]), Err(not_in_hand(8)));
        assert_eq!(
            held_card(263, &[7]),
            Err(not_in_hand(263)),
            "no wrapping to 7"
        );
        assert_eq!(held_card(-1, &[7]), Err(not_in_hand(-1)));
        assert_eq!(row_index(3), Ok(3));
        assert_eq!(row_index(4), Err(no_such_row(4)));
        assert_eq!(row_index(-1), Err(no_such_row(-1)));
        // As the records have always said them.
        assert_eq!(not_in_hand(8).kind(), "not_in_hand");
        assert_eq!(
            not_in_hand(8).to_string(),
            "played 8, a card it does not hold"
        );
        assert_eq!(no_such_row(4).kind(), "no_such_row");
        assert_eq!(no_such_row(4).to_string(), "picked row 4; rows are 0 to 3");
    }
}
