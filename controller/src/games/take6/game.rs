//! The rules of Take 6!, as pure functions and plain data: no async, no I/O, no players.
//!
//! The table (`crate::table`) drives a [`Game`] turn by turn: it deals, reveals the cards the
//! players chose, places them lowest first, and asks for a row only when [`Game::place`] says
//! the card is lower than every row's top. Everything a player may see is a [`View`].

use rand::Rng;
use rand::seq::SliceRandom;
use serde::Serialize;
use std::sync::Arc;

/// A card's number, 1 to 104.
pub type Card = u8;

/// The lowest and highest card numbers of the deck.
pub const LOWEST_CARD: Card = 1;
pub const HIGHEST_CARD: Card = 104;
/// Rows on the board.
pub const ROWS: usize = 4;
/// Cards dealt to each player, and so turns per game.
pub const HAND_SIZE: usize = 10;
/// At most this many players fit: 10 hands of 10 plus 4 row starts is the whole deck.
pub const MAX_PLAYERS: usize = 10;
/// A row holds at most this many cards; the next card takes them all.
pub const ROW_LIMIT: usize = 5;
/// Cows of the whole deck.
pub const DECK_COWS: u32 = 171;
/// Penalty added to the score of a seat whose player faulted.
pub const FAULT_PENALTY: u32 = 100;

/// Cows on a card: 55 has 7, other multiples of 11 have 5, multiples of 10 have 3, other
/// multiples of 5 have 2, every other card 1.
pub fn cows_of(card: Card) -> u32 {
    match card {
        55 => 7,
        c if c % 11 == 0 => 5,
        c if c % 10 == 0 => 3,
        c if c % 5 == 0 => 2,
        _ => 1,
    }
}

/// Cows of several cards together.
pub fn cows_in(cards: &[Card]) -> u32 {
    cards.iter().copied().map(cows_of).sum()
}

/// The cards of one game: each seat's hand in dealt order and the four row starts.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Deal {
    pub hands: Vec<Vec<Card>>,
    pub rows: [Card; ROWS],
}

impl Deal {
    /// Shuffles the deck with `rng` and deals `players` hands, then the four row starts.
    ///
    /// # Panics
    /// If `players` is 0 or more than [`MAX_PLAYERS`]; the schedule never asks for that.
    pub fn shuffled(players: usize, rng: &mut impl Rng) -> Deal {
        assert!(
            (1..=MAX_PLAYERS).contains(&players),
            "a table seats 1 to {MAX_PLAYERS} players, not {players}"
        );
        let mut deck: Vec<Card> = (LOWEST_CARD..=HIGHEST_CARD).collect();
        deck.shuffle(rng);
        let hands: Vec<Vec<Card>> = deck
            .chunks(HAND_SIZE)
            .take(players)
            .map(<[Card]>::to_vec)
            .collect();
        let start = players * HAND_SIZE;
        let rows = [
            deck[start],
            deck[start + 1],
            deck[start + 2],
            deck[start + 3],
        ];
        Deal { hands, rows }
    }
}

/// The four rows. A row's index never changes during a game: a taken row is restarted in place.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Board {
    rows: [Vec<Card>; ROWS],
}

/// What placing one card did.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Placement {
    /// The row the card now lies in.
    pub row: usize,
    /// The cards the card's owner took, in row order (empty when none).
    pub took: Vec<Card>,
    /// Cows on `took`.
    pub cows: u32,
}

impl Board {
    /// A board whose rows start with `starts`, in that order.
    pub fn new(starts: [Card; ROWS]) -> Board {
        Board {
            rows: starts.map(|c| vec![c]),
        }
    }

    /// A board with the given rows, for examples and tests. Each row must be non-empty.
    pub fn from_rows(rows: [Vec<Card>; ROWS]) -> Board {
        assert!(rows.iter().all(|r| !r.is_empty()), "every row needs a card");
        Board { rows }
    }

    /// The cards of each row, oldest first.
    pub fn rows(&self) -> &[Vec<Card>; ROWS] {
        &self.rows
    }

    /// The last card of row `row`.
    pub fn top(&self, row: usize) -> Card {
        *self.rows[row].last().expect("rows are never empty")
    }

    /// The row `card` must go on: the one whose top is the highest card below it. `None` when
    /// the card is lower than every top, and its owner has to take a row.
    pub fn row_for(&self, card: Card) -> Option<usize> {
        (0..ROWS)
            .filter(|&r| self.top(r) < card)
            .max_by_key(|&r| self.top(r))
    }

    /// The row with the fewest cows, the lowest index on ties: what a faulted player is made
    /// to take.
    pub fn cheapest_row(&self) -> usize {
        (0..ROWS)
            .min_by_key(|&r| (cows_in(&self.rows[r]), r))
            .expect("there are rows")
    }

    /// Places `card` by the rules if it fits on a row (taking the row when it is the 6th card).
    /// Returns `None`, changing nothing, when the card is lower than every top.
    pub fn place(&mut self, card: Card) -> Option<Placement> {
        let row = self.row_for(card)?;
        if self.rows[row].len() >= ROW_LIMIT {
            Some(self.take_row(row, card))
        } else {
            self.rows[row].push(card);
            Some(Placement {
                row,
                took: Vec::new(),
                cows: 0,
            })
        }
    }

    /// Takes all of row `row` and starts it again with `card`.
    pub fn take_row(&mut self, row: usize, card: Card) -> Placement {
        let took = std::mem::replace(&mut self.rows[row], vec![card]);
        let cows = cows_in(&took);
        Placement { row, took, cows }
    }
}

/// One game in progress: the board, what each seat holds and has taken, and who has faulted.
///
/// Seats are numbered 0.. in the game's seat order. The game does not know who plays a seat.
#[derive(Debug, Clone)]
pub struct Game {
    board: Board,
    dealt: Vec<Vec<Card>>,
    hands: Vec<Vec<Card>>,
    piles: Vec<Vec<Card>>,
    /// Cows that count for each seat: those taken before the seat's fault, if any.
    counted: Vec<u32>,
    /// The turn (1-based) in which each seat faulted.
    faulted: Vec<Option<u8>>,
    /// The turn being played, 1..=10; 0 before the first.
    turn: u8,
    /// The cards revealed in the latest reveal, seat order.
    used: Vec<Card>,
    /// Whether this turn's cards are revealed yet.
    revealed: bool,
}

impl Game {
    pub fn new(deal: &Deal) -> Game {
        Game::from_deal(deal.clone())
    }

    /// [`Game::new`] taking the deal, so its hands are not copied twice.
    pub fn from_deal(deal: Deal) -> Game {
        let n = deal.hands.len();
        Game {
            board: Board::new(deal.rows),
            dealt: deal.hands.clone(),
            hands: deal.hands,
            piles: vec![Vec::new(); n],
            counted: vec![0; n],
            faulted: vec![None; n],
            turn: 0,
            used: Vec::new(),
            revealed: false,
        }
    }

    pub fn players(&self) -> usize {
        self.hands.len()
    }

    pub fn board(&self) -> &Board {
        &self.board
    }

    pub fn hand(&self, seat: usize) -> &[Card] {
        &self.hands[seat]
    }

    pub fn dealt(&self, seat: usize) -> &[Card] {
        &self.dealt[seat]
    }

    /// Every card a seat has taken, whether it counts or not.
    pub fn pile(&self, seat: usize) -> &[Card] {
        &self.piles[seat]
    }

    pub fn turn(&self) -> u8 {
        self.turn
    }

    /// The cards of the latest reveal, in seat order (empty before the first).
    pub fn used(&self) -> &[Card] {
        &self.used
    }

    /// Starts the next turn: players now choose cards.
    pub fn begin_turn(&mut self) {
        assert!((self.turn as usize) < HAND_SIZE, "all turns are played");
        self.turn += 1;
        self.revealed = false;
    }

    /// Whether `card` may be played by `seat` now.
    pub fn holds(&self, seat: usize, card: Card) -> bool {
        self.hands[seat].contains(&card)
    }

    /// Reveals this turn's cards (seat order), taking them out of the hands. Returns the seats
    /// in placement order: lowest card first.
    ///
    /// # Panics
    /// If a seat does not hold its card; the table checks with [`Game::holds`] first.
    pub fn reveal(&mut self, cards: &[Card]) -> Vec<usize> {
        let mut order = Vec::with_capacity(cards.len());
        self.reveal_into(cards, &mut order);
        order
    }

    /// [`Game::reveal`], the placement order written into `order` (cleared first), so a
    /// caller playing many games allocates nothing per turn.
    pub fn reveal_into(&mut self, cards: &[Card], order: &mut Vec<usize>) {
        assert_eq!(cards.len(), self.players());
        for (seat, &card) in cards.iter().enumerate() {
            let at = self.hands[seat]
                .iter()
                .position(|&c| c == card)
                .unwrap_or_else(|| panic!("seat {seat} does not hold card {card}"));
            self.hands[seat].remove(at);
        }
        self.used.clear();
        self.used.extend_from_slice(cards);
        self.revealed = true;
        order.clear();
        order.extend(0..cards.len());
        order.sort_unstable_by_key(|&s| cards[s]);
    }

    /// Places `seat`'s revealed card by the rules; `None` when the seat must choose a row.
    pub fn place(&mut self, seat: usize) -> Option<Placement> {
        let placement = self.board.place(self.used[seat])?;
        self.credit(seat, &placement);
        Some(placement)
    }

    /// `seat` takes row `row` with its revealed card, which starts the row again.
    pub fn take_row(&mut self, seat: usize, row: usize) -> Placement {
        let placement = self.board.take_row(row, self.used[seat]);
        self.credit(seat, &placement);
        placement
    }

    fn credit(&mut self, seat: usize, placement: &Placement) {
        self.piles[seat].extend_from_slice(&placement.took);
        if self.faulted[seat].is_none() {
            self.counted[seat] += placement.cows;
        }
    }

    /// Marks `seat` as faulted in the current turn: from now on its cows count for nobody and
    /// its score carries the penalty. A second fault of the same seat changes nothing.
    pub fn fault(&mut self, seat: usize) {
        if self.faulted[seat].is_none() {
            self.faulted[seat] = Some(self.turn);
        }
    }

    /// The turn in which `seat` faulted, if it did.
    pub fn faulted(&self, seat: usize) -> Option<u8> {
        self.faulted[seat]
    }

    /// Cows that count for `seat`.
    pub fn cows(&self, seat: usize) -> u32 {
        self.counted[seat]
    }

    pub fn penalty(&self, seat: usize) -> u32 {
        if self.faulted[seat].is_some() {
            FAULT_PENALTY
        } else {
            0
        }
    }

    /// Cows that count plus penalty: lower is better.
    pub fn score(&self, seat: usize) -> u32 {
        self.counted[seat] + self.penalty(seat)
    }

    pub fn scores(&self) -> Vec<u32> {
        (0..self.players()).map(|s| self.score(s)).collect()
    }

    /// Whether all turns have been played.
    pub fn is_over(&self) -> bool {
        self.turn as usize == HAND_SIZE && self.hands.iter().all(Vec::is_empty)
    }
}

/// Which message a [`View`] is made for; templates see it as `phase`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Phase {
    Start,
    Cards,
    Turn,
    Used,
    Pickrow,
    Cardgain,
    Score,
    Invalid,
}

impl Phase {
    pub const ALL: [Phase; 8] = [
        Phase::Start,
        Phase::Cards,
        Phase::Turn,
        Phase::Used,
        Phase::Pickrow,
        Phase::Cardgain,
        Phase::Score,
        Phase::Invalid,
    ];

    /// The message's name, as in template files.
    pub fn name(self) -> &'static str {
        match self {
            Phase::Start => "start",
            Phase::Cards => "cards",
            Phase::Turn => "turn",
            Phase::Used => "used",
            Phase::Pickrow => "pickrow",
            Phase::Cardgain => "cardgain",
            Phase::Score => "score",
            Phase::Invalid => "invalid",
        }
    }
}

/// One row as a seat sees it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct RowView {
    pub cards: Vec<Card>,
    pub count: usize,
    pub cows: u32,
    pub top: Card,
}

/// Everything one seat may know at one moment: the context of every message and the input of
/// built-in players. All fields are always present (empty or zero where they do not apply), so
/// a template may use any of them in any message.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct View {
    pub phase: Phase,
    pub seat: usize,
    pub n_players: usize,
    /// Player names in seat order (shared by every view of a game: no copy per message).
    pub names: Arc<[String]>,
    /// Cards still held, in dealt order.
    pub hand: Vec<Card>,
    /// The ten cards dealt, in dealt order.
    pub dealt: Vec<Card>,
    pub rows: Arc<[RowView]>,
    /// The turn, 1..=10; 0 before the first.
    pub turn: u8,
    /// Each seat's most recently revealed card; -1 before the first reveal.
    pub last_played: Arc<[i32]>,
    /// This turn's revealed cards in seat order, once revealed (empty before).
    pub used: Arc<[Card]>,
    /// Each seat's score so far: cows that count plus any penalty.
    pub scores: Arc<[u32]>,
    /// Cards this seat just took (cardgain), else empty.
    pub gained: Vec<Card>,
    /// Cows on `gained`.
    pub gained_cows: u32,
    /// This seat's score (final at `score`).
    pub score: u32,
    /// The other seats' scores, seat order, this seat left out.
    pub others: Vec<u32>,
    /// The round of the game, from 1 (`--rounds`; scores above are this round's).
    pub round: u32,
    /// Rounds in the game.
    pub rounds: u32,
}

/// What every seat sees alike at one moment of a game: made once per moment and shared by the
/// views of all seats (making it per view was most of the allocations of a game).
#[derive(Debug, Clone)]
pub struct Moment {
    rows: Arc<[RowView]>,
    used: Arc<[Card]>,
    last_played: Arc<[i32]>,
    scores: Arc<[u32]>,
}

impl Game {
    /// What every seat sees alike now; valid until the game moves on.
    pub fn moment(&self) -> Moment {
        let rows = self
            .board
            .rows()
            .iter()
            .map(|cards| RowView {
                cards: cards.clone(),
                count: cards.len(),
                cows: cows_in(cards),
                top: *cards.last().expect("rows are never empty"),
            })
            .collect();
        let used = if self.revealed {
            self.used.as_slice().into()
        } else {
            Arc::from([])
        };
        let last_played = if self.used.is_empty() {
            vec![-1; self.players()].into()
        } else {
            self.used.iter().map(|&c| i32::from(c)).collect()
        };
        Moment {
            rows,
            used,
            last_played,
            scores: self.scores().into(),
        }
    }

    /// What `seat` sees now, for a message of `phase`. `names` are the players in seat order.
    pub fn view(&self, seat: usize, phase: Phase, names: &Arc<[String]>) -> View {
        self.view_at(&self.moment(), seat, phase, names)
    }

    /// What `seat` sees at `moment` (made by [`Game::moment`] since the game last moved on),
    /// for a message of `phase`: the views of one moment share what all seats see.
    pub fn view_at(
        &self,
        moment: &Moment,
        seat: usize,
        phase: Phase,
        names: &Arc<[String]>,
    ) -> View {
        let scores = &moment.scores;
        let others = scores
            .iter()
            .enumerate()
            .filter(|&(s, _)| s != seat)
            .map(|(_, &v)| v)
            .collect();
        View {
            phase,
            seat,
            n_players: self.players(),
            names: Arc::clone(names),
            hand: self.hands[seat].clone(),
            dealt: self.dealt[seat].clone(),
            rows: Arc::clone(&moment.rows),
            turn: self.turn,
            last_played: Arc::clone(&moment.last_played),
            used: Arc::clone(&moment.used),
            scores: Arc::clone(scores),
            gained: Vec::new(),
            gained_cows: 0,
            score: scores[seat],
            others,
            round: 1,
            rounds: 1,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cows_of_every_card_matches_the_rules() {
        let count = |n: u32| {
            (LOWEST_CARD..=HIGHEST_CARD)
                .filter(|&c| cows_of(c) == n)
                .count()
        };
        assert_eq!(count(7), 1);
        assert_eq!(count(5), 8);
        assert_eq!(count(3), 10);
        assert_eq!(count(2), 9);
        assert_eq!(count(1), 76);
        assert_eq!(cows_of(55), 7);
        for c in [11, 22, 33, 44, 66, 77, 88, 99] {
            assert_eq!(cows_of(c), 5, "card {c}");
        }
        for c in [10, 20, 30, 40, 50, 60, 70, 80, 90, 100] {
            assert_eq!(cows_of(c), 3, "card {c}");
        }
        for c in [5, 15, 25, 35, 45, 65, 75, 85, 95] {
            assert_eq!(cows_of(c), 2, "card {c}");
        }
        let total: u32 = (LOWEST_CARD..=HIGHEST_CARD).map(cows_of).sum();
        assert_eq!(total, DECK_COWS);
    }

    /// The KOTH post's Python function, written out as it stands, against ours.
    #[test]
    fn cows_of_agrees_with_the_specifications_python() {
        fn koth(card: u32) -> u32 {
            let mut out = 1;
            if card.is_multiple_of(5) {
                out += 1;
            }
            if card.is_multiple_of(10) {
                out += 1;
            }
            if card.is_multiple_of(11) {
                out += 4;
                if card.is_multiple_of(5) {
                    out += 1;
                }
            }
            out
        }
        for c in LOWEST_CARD..=HIGHEST_CARD {
            // The post's combo only adds to 55; its other multiples of 11 are never multiples of 5.
            assert_eq!(cows_of(c), koth(u32::from(c)), "card {c}");
        }
    }

    /// The CodinGame statement's worked example.
    #[test]
    fn worked_example_of_the_statement() {
        let board = Board::from_rows([
            vec![9, 12, 21],
            vec![19, 24],
            vec![33, 42, 50, 57],
            vec![69, 72, 81],
        ]);
        let deal_rows = board.clone();
        // Seats: Alice 23, Bob 88, Celia 7, David 64.
        let mut game = Game {
            board,
            dealt: vec![vec![23], vec![88], vec![7], vec![64]],
            hands: vec![vec![23], vec![88], vec![7], vec![64]],
            piles: vec![Vec::new(); 4],
            counted: vec![0; 4],
            faulted: vec![None; 4],
            turn: 9,
            used: Vec::new(),
            revealed: false,
        };
        game.begin_turn();
        let order = game.reveal(&[23, 88, 7, 64]);
        assert_eq!(order, vec![2, 0, 3, 1], "lowest card first");

        // Celia's 7 is lower than every top: she picks row 3 (69 72 81, 3 cows).
        assert_eq!(game.place(2), None);
        assert_eq!(
            game.board(),
            &deal_rows,
            "a card that needs a row changes nothing"
        );
        let celia = game.take_row(2, 3);
        assert_eq!(celia.took, vec![69, 72, 81]);
        assert_eq!(celia.cows, 3);
        assert_eq!(game.board().rows()[3], vec![7]);

        // Alice's 23 goes after 21 (21 is the highest top below 23; 7 is lower).
        let alice = game.place(0).unwrap();
        assert_eq!((alice.row, alice.cows), (0, 0));
        assert_eq!(game.board().rows()[0], vec![9, 12, 21, 23]);

        // 64 goes after 57 as the row's 5th card.
        let david = game.place(3).unwrap();
        assert_eq!((david.row, david.cows), (2, 0));
        assert_eq!(game.board().rows()[2], vec![33, 42, 50, 57, 64]);

        // 88 is the 6th card of that row and takes 33 42 50 57 64: 11 cows.
        let bob = game.place(1).unwrap();
        assert_eq!(bob.row, 2);
        assert_eq!(bob.took, vec![33, 42, 50, 57, 64]);
        assert_eq!(bob.cows, 11);
        assert_eq!(game.board().rows()[2], vec![88]);

        assert_eq!(game.scores(), vec![0, 11, 3, 0]);
        assert!(game.is_over());
    }

    #[test]
    fn sixth_card_takes_the_row_and_starts_it() {
        let mut board = Board::from_rows([vec![1, 2, 3, 4, 5], vec![50], vec![60], vec![70]]);
        let p = board.place(6).unwrap();
        assert_eq!(p.took, vec![1, 2, 3, 4, 5]);
        assert_eq!(p.cows, 1 + 1 + 1 + 1 + 2);
        assert_eq!(board.rows()[0], vec![6]);
        // A fifth card does not take.
        let mut board = Board::from_rows([vec![1, 2, 3, 4], vec![50], vec![60], vec![70]]);
        assert_eq!(board.place(6).unwrap().took, Vec::<Card>::new());
    }

    #[test]
    fn low_card_needs_a_row_and_cheapest_row_breaks_ties_by_index() {
        let board = Board::from_rows([vec![20, 55], vec![30], vec![40], vec![41]]);
        assert_eq!(board.row_for(10), None);
        assert_eq!(board.row_for(35), Some(1));
        // Rows 2 (40: 3 cows) and 3 (41: 1 cow) -> row 3; rows 1 (30: 3) and 2 tie above it.
        assert_eq!(board.cheapest_row(), 3);
        let board = Board::from_rows([vec![20, 55], vec![31], vec![41], vec![42]]);
        assert_eq!(board.cheapest_row(), 1);
    }

    #[test]
    fn fault_stops_counting_from_its_turn_and_adds_the_penalty() {
        let mut game = Game::new(&Deal {
            hands: vec![vec![1; 10], vec![2; 10]],
            rows: [10, 20, 30, 40],
        });
        game.begin_turn();
        game.counted[0] = 4;
        game.fault(0);
        game.credit(
            0,
            &Placement {
                row: 0,
                took: vec![10],
                cows: 3,
            },
        );
        assert_eq!(game.cows(0), 4);
        assert_eq!(game.pile(0), &[10]);
        assert_eq!(game.score(0), 104);
        assert_eq!(game.faulted(0), Some(1));
    }

    mod properties {
        use proptest::prelude::*;
        use rand::rngs::ChaCha8Rng;
        use rand::{RngExt, SeedableRng};

        use super::super::*;

        proptest! {
            /// Whatever is played, every dealt card ends on the board or in exactly one pile,
            /// rows never exceed five cards, and the cows in the piles are the scores.
            #[test]
            fn every_card_is_accounted_for_and_cows_are_conserved(
                seed: u64,
                players in 1usize..=MAX_PLAYERS,
                fault_at in proptest::option::of((0usize..MAX_PLAYERS, 1u8..=10)),
            ) {
                let mut rng = ChaCha8Rng::seed_from_u64(seed);
                let deal = Deal::shuffled(players, &mut rng);
                let mut game = Game::new(&deal);
                while !game.is_over() {
                    game.begin_turn();
                    if let Some((seat, turn)) = fault_at
                        && seat < players && turn == game.turn() {
                        game.fault(seat);
                    }
                    let cards: Vec<Card> = (0..players)
                        .map(|s| {
                            let hand = game.hand(s);
                            hand[rng.random_range(0..hand.len())]
                        })
                        .collect();
                    for seat in game.reveal(&cards) {
                        if game.place(seat).is_none() {
                            let row = rng.random_range(0..ROWS);
                            game.take_row(seat, row);
                        }
                        prop_assert!(game.board().rows().iter().all(|r| r.len() <= ROW_LIMIT));
                    }
                }
                let mut seen: Vec<Card> = game.board().rows().iter().flatten().copied().collect();
                for s in 0..players {
                    seen.extend_from_slice(game.pile(s));
                }
                let mut dealt: Vec<Card> = deal.hands.concat();
                dealt.extend_from_slice(&deal.rows);
                seen.sort_unstable();
                dealt.sort_unstable();
                prop_assert_eq!(seen, dealt);

                let on_board: u32 = game.board().rows().iter().map(|r| cows_in(r)).sum();
                let in_piles: u32 = (0..players).map(|s| cows_in(game.pile(s))).sum();
                let all: u32 = deal.hands.iter().map(|h| cows_in(h)).sum::<u32>() + cows_in(&deal.rows);
                prop_assert_eq!(on_board + in_piles, all);
                for s in 0..players {
                    match game.faulted(s) {
                        None => {
                            prop_assert_eq!(game.cows(s), cows_in(game.pile(s)));
                            prop_assert_eq!(game.score(s), game.cows(s));
                        }
                        Some(_) => {
                            prop_assert!(game.cows(s) <= cows_in(game.pile(s)));
                            prop_assert_eq!(game.score(s), game.cows(s) + FAULT_PENALTY);
                        }
                    }
                }
                if players == MAX_PLAYERS {
                    prop_assert_eq!(all, DECK_COWS);
                }
            }
        }
    }
}
