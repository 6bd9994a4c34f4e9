//! The game as a state machine: draws, turn order, sequences (one PUT + PICK of one king),
//! faults and final scores. Deterministic from a `u64` seed; no I/O.
//!
//! The caller loops: [`Game::next`] says who plays, [`Game::view`] is what that seat is told,
//! [`Game::apply`] plays its reply (or [`Game::eliminate`] ends its game on a fault), until
//! [`Game::is_over`]. Choices where the CodinGame referee could not be read are explained in
//! `/work/notes/kingdomino-referee.md`.

use super::kingdom::{Illegal, Kingdom, Placement};
use super::tiles::{TILE_COUNT, Tile, tile};
use rand::SeedableRng;
use rand::rngs::ChaCha8Rng;
use rand::seq::SliceRandom;
use serde::{Deserialize, Serialize};

/// Fewest seats.
pub const MIN_PLAYERS: usize = 2;
/// Most seats.
pub const MAX_PLAYERS: usize = 4;
/// Reply time for a seat's very first sequence, in milliseconds.
pub const FIRST_TIMEOUT_MS: u64 = 1000;
/// Reply time for every later sequence, in milliseconds.
pub const TIMEOUT_MS: u64 = 50;

/// Tiles offered per turn (`nbTiles`): 3 with 3 players, 4 otherwise.
pub fn tiles_per_turn(players: usize) -> usize {
    if players == 3 { 3 } else { 4 }
}

/// Turns in a game: 7 with 2 players, 13 otherwise. Turn 1 only picks, the last only places.
pub fn turns(players: usize) -> u8 {
    if players == 2 { 7 } else { 13 }
}

/// Kings (sequences per turn) of each seat: 2 with 2 players, 1 otherwise.
pub fn kings_per_seat(players: usize) -> u8 {
    if players == 2 { 2 } else { 1 }
}

/// Tiles drawn in a whole game: 24, 36 or 48.
pub fn tiles_in_game(players: usize) -> usize {
    tiles_per_turn(players) * (usize::from(turns(players)) - 1)
}

/// A tile of the current turn or of the offer, and the king who picked it, if any.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Slot {
    tile: u8,
    /// (seat, king) that picked it.
    owner: Option<(usize, u8)>,
    /// Its placing sequence was played (placed or discarded).
    used: bool,
}

impl Slot {
    fn free(tile: u8) -> Slot {
        Slot {
            tile,
            owner: None,
            used: false,
        }
    }
}

/// The next sequence to play.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct Turn {
    /// 1-based turn number.
    pub turn: u8,
    /// Who plays.
    pub seat: usize,
    /// Which of its kings (0, or 0 and 1 with 2 players).
    pub king: u8,
    /// The tile this sequence places; None on turn 1.
    pub tile: Option<u8>,
    /// False on the last turn: the PICK line is read but its value ignored.
    pub expects_pick: bool,
    /// This is the seat's very first sequence (it gets the longer timeout).
    pub first_for_seat: bool,
}

impl Turn {
    /// How long the seat has to reply.
    pub fn timeout_ms(&self) -> u64 {
        if self.first_for_seat {
            FIRST_TIMEOUT_MS
        } else {
            TIMEOUT_MS
        }
    }
}

/// One tile line of a view. `player` is relative to the viewer (0 = the viewer).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct TileLine {
    /// The tile.
    pub tile: Tile,
    /// Relative id of the player who picked it; None (-1 on the wire) when nobody did.
    pub player: Option<usize>,
    /// Only in the in-play lines: the tile this sequence places.
    pub current: bool,
}

/// Everything a seat is told before a sequence; the wire block renders from it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct View {
    /// The viewer's seat (absolute).
    pub seat: usize,
    /// Number of players.
    pub players: usize,
    /// Tiles per turn (`nbTiles`).
    pub nb_tiles: usize,
    /// 1-based turn number.
    pub turn: u8,
    /// Kingdoms, the viewer's first, then the following seats, wrapping.
    pub kingdoms: Vec<Kingdom>,
    /// Tiles placed this turn, ascending id; empty on turn 1.
    pub in_play: Vec<TileLine>,
    /// Tiles to pick for the next turn, ascending id; empty on the last turn.
    pub to_pick: Vec<TileLine>,
    /// The tile the viewer places now, if it is its sequence and there is one.
    pub to_place: Option<u8>,
    /// Whether its PICK value counts (false on the last turn).
    pub expects_pick: bool,
}

impl View {
    /// The viewer's own kingdom.
    pub fn own(&self) -> &Kingdom {
        &self.kingdoms[0]
    }

    /// Ids still free in the offer.
    pub fn free_picks(&self) -> Vec<u8> {
        self.to_pick
            .iter()
            .filter(|l| l.player.is_none())
            .map(|l| l.tile.id)
            .collect()
    }
}

/// What became of a sequence's PUT.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum PutOutcome {
    /// Turn 1: nothing to place, the PUT values are ignored.
    NothingToPlace,
    /// The tile was placed where asked.
    Placed,
    /// The tile fits nowhere: discarded, the PUT values ignored.
    Unplaceable,
    /// The tile fits somewhere but not where asked (or no PUT was given): discarded.
    Illegal(Option<Illegal>),
}

/// The effect of an accepted sequence.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct Applied {
    /// What the PUT did.
    pub put: PutOutcome,
    /// The tile picked, when picks count this turn.
    pub pick: Option<u8>,
}

/// A reply the game refuses; the caller records a fault and calls [`Game::eliminate`].
/// The refused sequence has no effect at all.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error, Serialize, Deserialize)]
pub enum IllegalMove {
    /// Nothing is left to play.
    #[error("the game is over")]
    GameOver,
    /// Another seat is to play.
    #[error("seat {got} played but seat {expected} is to play")]
    NotYourTurn {
        /// The seat whose sequence is due.
        expected: usize,
        /// The seat that tried to play.
        got: usize,
    },
    /// A pick was due and none was given.
    #[error("no tile picked")]
    NoPick,
    /// The id is not in the offer, or another king took it.
    #[error("tile {0} is not available to pick")]
    Unavailable(u8),
}

/// One line of the move log: a played sequence or an elimination. Enough to replay a game
/// from its seed.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct MoveRecord {
    /// 1-based turn.
    pub turn: u8,
    /// Seat that played or was eliminated.
    pub seat: usize,
    /// Its king whose sequence this was (for an elimination: the one due, if any).
    pub king: Option<u8>,
    /// The tile it had to place.
    pub tile: Option<u8>,
    /// The PUT as given.
    pub put: Option<Placement>,
    /// What the PUT did; None for an elimination.
    pub outcome: Option<PutOutcome>,
    /// The PICK as accepted.
    pub pick: Option<u8>,
    /// The PICK line's message, verbatim.
    pub message: Option<String>,
    /// This line records the seat's elimination.
    pub eliminated: bool,
}

/// A whole game's state.
#[derive(Debug, Clone)]
pub struct Game {
    players: usize,
    /// Tiles still to be offered, in draw order.
    deck: Vec<u8>,
    kingdoms: Vec<Kingdom>,
    turn: u8,
    in_play: Vec<Slot>,
    offer: Vec<Slot>,
    /// (seat, king) sequences of this turn, in play order.
    order: Vec<(usize, u8)>,
    pos: usize,
    eliminated: Vec<bool>,
    played: Vec<bool>,
    discarded: Vec<u8>,
    log: Vec<MoveRecord>,
    over: bool,
}

impl Game {
    /// A new game: shuffles the 48 tiles with `ChaCha8Rng::seed_from_u64(seed)`, keeps the
    /// first 24/36/48 and offers the first `nbTiles` of them. Panics outside 2..=4 players.
    pub fn new(seed: u64, players: usize) -> Game {
        assert!(
            (MIN_PLAYERS..=MAX_PLAYERS).contains(&players),
            "2 to 4 players"
        );
        let mut ids: Vec<u8> = (1..=TILE_COUNT as u8).collect();
        ids.shuffle(&mut ChaCha8Rng::seed_from_u64(seed));
        ids.truncate(tiles_in_game(players));
        let kings = kings_per_seat(players);
        let mut game = Game {
            players,
            deck: ids,
            kingdoms: vec![Kingdom::new(); players],
            turn: 1,
            in_play: Vec::new(),
            offer: Vec::new(),
            order: (0..kings)
                .flat_map(|k| (0..players).map(move |s| (s, k)))
                .collect(),
            pos: 0,
            eliminated: vec![false; players],
            played: vec![false; players],
            discarded: Vec::new(),
            log: Vec::new(),
            over: false,
        };
        game.offer = game.draw();
        game
    }

    /// Rebuilds a game from its seed, seat count and move log (as [`Game::log`] gives it).
    pub fn replay(seed: u64, players: usize, log: &[MoveRecord]) -> Result<Game, IllegalMove> {
        let mut game = Game::new(seed, players);
        for r in log {
            if r.eliminated {
                game.eliminate(r.seat);
            } else {
                game.apply_with_message(r.seat, r.put, r.pick, r.message.clone())?;
            }
        }
        Ok(game)
    }

    /// Number of seats.
    pub fn players(&self) -> usize {
        self.players
    }

    /// Current 1-based turn.
    pub fn turn(&self) -> u8 {
        self.turn
    }

    /// The seat's kingdom.
    pub fn kingdom(&self, seat: usize) -> &Kingdom {
        &self.kingdoms[seat]
    }

    /// Direct access to a kingdom, for tests that need a hand-built position.
    #[cfg(test)]
    pub(super) fn kingdom_mut(&mut self, seat: usize) -> &mut Kingdom {
        &mut self.kingdoms[seat]
    }

    /// Whether the seat's game was ended by a fault.
    pub fn is_eliminated(&self, seat: usize) -> bool {
        self.eliminated[seat]
    }

    /// Tiles taken out of the game unplaced (unplaceable, illegal PUT, never picked, or held
    /// by an eliminated seat).
    pub fn discarded(&self) -> &[u8] {
        &self.discarded
    }

    /// Every sequence and elimination so far.
    pub fn log(&self) -> &[MoveRecord] {
        &self.log
    }

    /// True when nothing is left to play.
    pub fn is_over(&self) -> bool {
        self.over
    }

    /// The sequence to play now, or None when the game is over.
    pub fn next(&self) -> Option<Turn> {
        let &(seat, king) = self.order.get(self.pos).filter(|_| !self.over)?;
        Some(Turn {
            turn: self.turn,
            seat,
            king,
            tile: self.slot_of(seat, king).map(|i| self.in_play[i].tile),
            expects_pick: !self.offer.is_empty(),
            first_for_seat: !self.played[seat],
        })
    }

    /// What `seat` is told if asked now; the current tile is marked only on its own sequence.
    pub fn view(&self, seat: usize) -> View {
        let next = self.next().filter(|t| t.seat == seat);
        let current = next.and_then(|t| t.tile);
        let line = |s: &Slot, is_current: bool| TileLine {
            tile: *tile(s.tile),
            player: s.owner.map(|(owner, _)| self.relative(seat, owner)),
            current: is_current,
        };
        View {
            seat,
            players: self.players,
            nb_tiles: tiles_per_turn(self.players),
            turn: self.turn,
            kingdoms: (0..self.players)
                .map(|i| self.kingdoms[(seat + i) % self.players].clone())
                .collect(),
            in_play: self
                .in_play
                .iter()
                .map(|s| line(s, Some(s.tile) == current && !s.used))
                .collect(),
            to_pick: self.offer.iter().map(|s| line(s, false)).collect(),
            to_place: current,
            expects_pick: next.is_some_and(|t| t.expects_pick),
        }
    }

    /// Plays the next sequence of `seat`: see [`Game::apply_with_message`].
    pub fn apply(
        &mut self,
        seat: usize,
        put: Option<Placement>,
        pick: Option<u8>,
    ) -> Result<Applied, IllegalMove> {
        self.apply_with_message(seat, put, pick, None)
    }

    /// Plays the next sequence: places its tile (an illegal PUT of a placeable tile discards
    /// it), then takes the pick. An invalid pick is refused with no effect at all.
    pub fn apply_with_message(
        &mut self,
        seat: usize,
        put: Option<Placement>,
        pick: Option<u8>,
        message: Option<String>,
    ) -> Result<Applied, IllegalMove> {
        let turn = self.next().ok_or(IllegalMove::GameOver)?;
        if turn.seat != seat {
            return Err(IllegalMove::NotYourTurn {
                expected: turn.seat,
                got: seat,
            });
        }
        let pick_slot = self.check_pick(turn, pick)?;
        let outcome = self.do_put(turn, put);
        if let Some(i) = pick_slot {
            self.offer[i].owner = Some((seat, turn.king));
        }
        let pick = pick_slot.map(|i| self.offer[i].tile);
        self.played[seat] = true;
        self.log.push(MoveRecord {
            turn: turn.turn,
            seat,
            king: Some(turn.king),
            tile: turn.tile,
            put,
            outcome: Some(outcome),
            pick,
            message,
            eliminated: false,
        });
        self.advance();
        Ok(Applied { put: outcome, pick })
    }

    /// Ends `seat`'s game after a fault: it plays no more, its kingdom still scores, the tiles
    /// it picked are never placed. Does nothing if it is already out.
    pub fn eliminate(&mut self, seat: usize) {
        if self.eliminated[seat] {
            return;
        }
        let due = self.next().filter(|t| t.seat == seat);
        self.eliminated[seat] = true;
        self.log.push(MoveRecord {
            turn: self.turn,
            seat,
            king: due.map(|t| t.king),
            tile: due.and_then(|t| t.tile),
            put: None,
            outcome: None,
            pick: None,
            message: None,
            eliminated: true,
        });
        if !self.over {
            self.skip_eliminated();
        }
    }

    /// Kingdom scores without tie-break points.
    pub fn base_scores(&self) -> Vec<u32> {
        self.kingdoms.iter().map(Kingdom::score).collect()
    }

    /// Final scores: kingdom scores plus the tie-break points (see [`tie_break`]).
    pub fn scores(&self) -> Vec<u32> {
        let stats: Vec<_> = self
            .kingdoms
            .iter()
            .map(|k| (k.score(), k.territory_size(), k.crowns()))
            .collect();
        tie_break(&stats)
    }

    /// Rank of each seat by [`Game::scores`]: 1 is best, equal scores share a rank (1, 2, 2, 4).
    pub fn ranks(&self) -> Vec<usize> {
        ranks_of(&self.scores())
    }

    /// The next `nbTiles` ids of the deck, ascending.
    fn draw(&mut self) -> Vec<Slot> {
        let n = tiles_per_turn(self.players).min(self.deck.len());
        let mut ids: Vec<u8> = self.deck.drain(..n).collect();
        ids.sort_unstable();
        ids.into_iter().map(Slot::free).collect()
    }

    /// Relative id of `owner` as seen by `viewer`.
    fn relative(&self, viewer: usize, owner: usize) -> usize {
        (owner + self.players - viewer) % self.players
    }

    /// Index in `in_play` of the tile (seat, king) places this turn.
    fn slot_of(&self, seat: usize, king: u8) -> Option<usize> {
        self.in_play
            .iter()
            .position(|s| s.owner == Some((seat, king)))
    }

    /// Index in `offer` of a valid pick; None when picks do not count this turn.
    fn check_pick(&self, turn: Turn, pick: Option<u8>) -> Result<Option<usize>, IllegalMove> {
        if !turn.expects_pick {
            return Ok(None);
        }
        let id = pick.ok_or(IllegalMove::NoPick)?;
        let i = self
            .offer
            .iter()
            .position(|s| s.tile == id && s.owner.is_none());
        i.map(Some).ok_or(IllegalMove::Unavailable(id))
    }

    /// Places the sequence's tile, or discards it.
    fn do_put(&mut self, turn: Turn, put: Option<Placement>) -> PutOutcome {
        let Some(i) = self.slot_of(turn.seat, turn.king) else {
            return PutOutcome::NothingToPlace;
        };
        self.in_play[i].used = true;
        let id = self.in_play[i].tile;
        let kingdom = &mut self.kingdoms[turn.seat];
        // A legal PUT places the tile (it fits somewhere, there); only a refused one asks
        // whether the tile fits anywhere at all.
        let placed = put.map(|p| kingdom.place(tile(id), p));
        let outcome = if matches!(placed, Some(Ok(()))) {
            PutOutcome::Placed
        } else if !kingdom.can_place_anywhere(tile(id)) {
            PutOutcome::Unplaceable
        } else {
            match placed {
                Some(Ok(())) => PutOutcome::Placed,
                Some(Err(why)) => PutOutcome::Illegal(Some(why)),
                None => PutOutcome::Illegal(None),
            }
        };
        if outcome != PutOutcome::Placed {
            self.discarded.push(id);
        }
        outcome
    }

    /// Moves past the sequence just played.
    fn advance(&mut self) {
        self.pos += 1;
        self.skip_eliminated();
    }

    /// Skips sequences of eliminated seats, ending turns (and the game) as they run out.
    fn skip_eliminated(&mut self) {
        loop {
            while self
                .order
                .get(self.pos)
                .is_some_and(|&(s, _)| self.eliminated[s])
            {
                self.pos += 1;
            }
            if self.pos < self.order.len() {
                return;
            }
            self.end_turn();
            if self.over {
                return;
            }
        }
    }

    /// Closes the turn: unplaced tiles are discarded, the offer becomes the tiles in play.
    fn end_turn(&mut self) {
        let unused = self.in_play.iter().filter(|s| !s.used).map(|s| s.tile);
        self.discarded.extend(unused);
        if self.turn == turns(self.players) || self.eliminated.iter().all(|&e| e) {
            self.in_play.iter_mut().for_each(|s| s.used = true);
            self.over = true;
            return;
        }
        self.turn += 1;
        self.in_play = std::mem::take(&mut self.offer);
        if self.turn < turns(self.players) {
            self.offer = self.draw();
        }
        self.order = self.in_play.iter().filter_map(|s| s.owner).collect();
        self.pos = 0;
    }
}

/// Adds the statement's tie-break points to `(score, territory, crowns)` per seat, for a tie
/// at the top only: if 2+ seats share the best score, +1 to those of them with the largest
/// territory; then, if 2+ seats share the (new) best score, +1 to those with the most crowns.
/// A step where the tied seats are all equal on its criterion gives nothing. Ties below the
/// top stay ties (a +1 there could lift a seat level with one that beat it).
pub fn tie_break(stats: &[(u32, u32, u32)]) -> Vec<u32> {
    let scores: Vec<u32> = stats.iter().map(|s| s.0).collect();
    let scores = bonus(&scores, |i| stats[i].1);
    bonus(&scores, |i| stats[i].2)
}

/// +1 to the seats with the largest `key` among those sharing the best score, when 2+ share
/// it and their keys differ.
fn bonus(scores: &[u32], key: impl Fn(usize) -> u32) -> Vec<u32> {
    let top = scores.iter().copied().max().unwrap_or(0);
    let tied: Vec<usize> = (0..scores.len()).filter(|&i| scores[i] == top).collect();
    let best = tied.iter().map(|&i| key(i)).max().unwrap_or(0);
    let mut out = scores.to_vec();
    if tied.len() > 1 && tied.iter().any(|&i| key(i) != best) {
        tied.iter()
            .filter(|&&i| key(i) == best)
            .for_each(|&i| out[i] += 1);
    }
    out
}

/// Competition ranks (1 best, ties share) of scores where higher is better.
pub fn ranks_of(scores: &[u32]) -> Vec<usize> {
    scores
        .iter()
        .map(|s| 1 + scores.iter().filter(|o| *o > s).count())
        .collect()
}
