//! Built-in primitive players: they pad a table to ten seats and take over the seat of a bot
//! that faulted. They run in-process and decide from the [`View`] alone, so a substitute needs
//! no history to join a game midway.

use rand::RngExt;
use rand::rngs::ChaCha8Rng;
use serde::{Deserialize, Serialize};

use super::game::{Card, ROW_LIMIT, ROWS, View};
use super::player::Player;
use crate::player::Fault;
use crate::table::BuiltinKind;

/// How a built-in player chooses.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Strategy {
    /// Any remaining card, uniformly; any row.
    Random,
    /// Cards in dealt order; the cheapest row.
    First,
    /// The lowest card; the cheapest row.
    Lowest,
    /// The highest card; the cheapest row.
    Highest,
    /// The card that lands closest above a row's top without being its 6th card; when none
    /// does, the card that costs fewest cows. The cheapest row.
    Gap,
}

impl Strategy {
    /// The order padding cycles through.
    pub const ALL: [Strategy; 5] = [
        Strategy::Random,
        Strategy::First,
        Strategy::Lowest,
        Strategy::Highest,
        Strategy::Gap,
    ];

    pub fn name(self) -> &'static str {
        match self {
            Strategy::Random => "random",
            Strategy::First => "first",
            Strategy::Lowest => "lowest",
            Strategy::Highest => "highest",
            Strategy::Gap => "gap",
        }
    }

    /// The strategy of the machinery's built-in `kind` (one of [`BUILTINS`]).
    pub fn of(kind: BuiltinKind) -> Strategy {
        Strategy::ALL[usize::from(kind.index)]
    }

    /// The Take 6 strategy of this name, if there is one.
    pub fn from_name(name: &str) -> Option<Strategy> {
        Strategy::ALL.into_iter().find(|s| s.name() == name)
    }
}

/// The built-in that takes over a faulted seat (the game's [`crate::table::OnFault`]): a
/// sensible one, `gap`, so that the other players' game stays close to what it would have
/// been.
pub const SUBSTITUTE: BuiltinKind = BUILTINS[4];

/// The built-ins as the machinery knows them: [`Strategy::ALL`]'s, in padding order.
pub const BUILTINS: [BuiltinKind; 5] = [
    BuiltinKind {
        index: 0,
        name: "random",
    },
    BuiltinKind {
        index: 1,
        name: "first",
    },
    BuiltinKind {
        index: 2,
        name: "lowest",
    },
    BuiltinKind {
        index: 3,
        name: "highest",
    },
    BuiltinKind {
        index: 4,
        name: "gap",
    },
];

/// An in-process player. Its random choices come from its own ChaCha stream, seeded from the
/// game's seed and its seat, so they never depend on timing or on other games.
pub struct Builtin {
    strategy: Strategy,
    /// Only `random` draws: the others are deterministic and are spared seeding a stream
    /// (a table of built-ins seats ten players per game, a hundred thousand games a second).
    rng: Option<ChaCha8Rng>,
}

impl Builtin {
    /// A player for `seat` of the game whose seed is `game_seed`.
    pub fn new(strategy: Strategy, game_seed: u64, seat: usize) -> Builtin {
        let rng = (strategy == Strategy::Random).then(|| {
            // Stream 0 deals; each seat's player draws from a stream of its own.
            crate::table::seats::builtin_rng(game_seed, seat)
        });
        Builtin { strategy, rng }
    }

    /// Makes this player what [`Builtin::new`] makes, in place: a thread playing many games
    /// reuses its players, and a player is a few hundred bytes of RNG state to move.
    pub fn reset(&mut self, strategy: Strategy, game_seed: u64, seat: usize) {
        self.strategy = strategy;
        if strategy == Strategy::Random {
            *self = Builtin::new(strategy, game_seed, seat);
        } else {
            self.rng = None;
        }
    }

    /// The random stream; only a `random` player has one.
    fn rng(&mut self) -> &mut ChaCha8Rng {
        self.rng.as_mut().expect("a random player has its stream")
    }

    pub fn strategy(&self) -> Strategy {
        self.strategy
    }

    /// The card this player plays now.
    pub fn card(&mut self, view: &View) -> Card {
        let rows = RowSight::of(view);
        self.card_in(&Sight {
            hand: &view.hand,
            rows: &rows,
        })
    }

    /// The row this player takes when its card is lower than every top.
    pub fn row(&mut self, view: &View) -> usize {
        let rows = RowSight::of(view);
        self.row_in(&Sight {
            hand: &view.hand,
            rows: &rows,
        })
    }

    /// The card this player plays now, from what it sees (the one decision both the async
    /// table and the synchronous built-in table use, so both play the same games).
    pub fn card_in(&mut self, sight: &Sight<'_>) -> Card {
        let hand = sight.hand;
        assert!(!hand.is_empty(), "asked for a card with an empty hand");
        match self.strategy {
            Strategy::Random => hand[self.rng().random_range(0..hand.len())],
            Strategy::First => hand[0],
            Strategy::Lowest => *hand.iter().min().expect("non-empty"),
            Strategy::Highest => *hand.iter().max().expect("non-empty"),
            Strategy::Gap => gap_card(sight),
        }
    }

    /// The row this player takes, from what it sees.
    pub fn row_in(&mut self, sight: &Sight<'_>) -> usize {
        match self.strategy {
            Strategy::Random => self.rng().random_range(0..ROWS),
            _ => cheapest_row(sight),
        }
    }
}

/// One row as a built-in sees it: all a built-in needs of a [`crate::games::take6::game::RowView`], copied
/// without the cards.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct RowSight {
    pub top: Card,
    /// Cards in the row, 1 to [`ROW_LIMIT`].
    pub count: u8,
    pub cows: u32,
}

impl RowSight {
    /// The rows of `view` as a built-in sees them.
    pub fn of(view: &View) -> [RowSight; ROWS] {
        assert_eq!(view.rows.len(), ROWS, "a view shows the four rows");
        std::array::from_fn(|r| RowSight {
            top: view.rows[r].top,
            count: view.rows[r].count as u8,
            cows: view.rows[r].cows,
        })
    }
}

/// What a built-in decides from: its hand and the four rows, both borrowed. Made from a
/// [`View`] at a table of external players, or straight from the game by the synchronous table
/// of built-ins, which so makes no view (and allocates or copies nothing) per decision.
#[derive(Debug, Clone, Copy)]
pub struct Sight<'a> {
    /// Cards still held, in dealt order.
    pub hand: &'a [Card],
    pub rows: &'a [RowSight; ROWS],
}

/// The row with the fewest cows, lowest index on ties.
fn cheapest_row(sight: &Sight<'_>) -> usize {
    (0..ROWS)
        .min_by_key(|&r| (sight.rows[r].cows, r))
        .expect("there are rows")
}

fn gap_card(sight: &Sight<'_>) -> Card {
    // (cows it would cost now, gap to the row's top, the card): lower is better on each; the
    // cards are distinct, so there is no tie. A tight loop without branches: it runs for every
    // choice of every `gap` seat (tested against the plain statement of the rule below). The
    // key is packed in one integer: cows (a few dozen at most) above the gap (a card's gap is
    // at most 103; `NO_ROW` when the card is below every top) above the card.
    const NO_ROW: u64 = 0xffff;
    let cheapest = u64::from(sight.rows[cheapest_row(sight)].cows);
    let mut best = u64::MAX;
    for &card in sight.hand {
        // The row it joins is the one with the highest top below it: the smallest gap.
        // Rows above the card wrap to gaps of 153 or more (cards are at most 104 apart).
        let mut target = u32::MAX;
        for (r, row) in sight.rows.iter().enumerate() {
            let gap = u32::from(card.wrapping_sub(row.top));
            target = target.min(gap << 2 | r as u32);
        }
        let gap = u64::from(target >> 2);
        let row = &sight.rows[(target & 3) as usize];
        let key = if gap > 127 {
            cheapest << 24 | NO_ROW << 8
        } else if usize::from(row.count) >= ROW_LIMIT {
            u64::from(row.cows) << 24 | gap << 8
        } else {
            gap << 8
        } | u64::from(card);
        best = best.min(key);
    }
    assert!(best != u64::MAX, "asked for a card with an empty hand");
    best as Card
}

impl Player for Builtin {
    async fn tell(&mut self, _view: &View) {}

    async fn choose_card(&mut self, view: &View) -> Result<i64, Fault> {
        Ok(i64::from(self.card(view)))
    }

    async fn choose_row(&mut self, view: &View) -> Result<i64, Fault> {
        Ok(self.row(view) as i64)
    }
}

#[cfg(test)]
mod tests {
    use rand::RngExt;
    use rand::SeedableRng;
    use rand::rngs::ChaCha8Rng;

    use super::*;
    use crate::games::take6::game::{Deal, Game, cows_in};

    /// The `gap` rule as first written: the card whose row it would join is the highest top
    /// below it; cost (cows now, gap), then the lowest card.
    fn gap_card_as_stated(sight: &Sight<'_>) -> Card {
        let cost = |card: Card| -> (u32, u32) {
            let target = sight
                .rows
                .iter()
                .filter(|r| r.top < card)
                .max_by_key(|r| r.top);
            match target {
                Some(row) if usize::from(row.count) >= ROW_LIMIT => {
                    (row.cows, u32::from(card - row.top))
                }
                Some(row) => (0, u32::from(card - row.top)),
                None => (sight.rows[cheapest_row(sight)].cows, u32::MAX),
            }
        };
        *sight
            .hand
            .iter()
            .min_by_key(|&&c| (cost(c), c))
            .expect("non-empty")
    }

    #[test]
    fn gap_chooses_as_the_rule_is_stated_in_every_position_of_many_games() {
        let mut positions = 0;
        for seed in 0..300u64 {
            let mut rng = ChaCha8Rng::seed_from_u64(seed);
            let players = 2 + (seed as usize % 9);
            let mut game = Game::new(&Deal::shuffled(players, &mut rng));
            while !game.is_over() {
                game.begin_turn();
                let rows: [RowSight; ROWS] = std::array::from_fn(|r| {
                    let cards = &game.board().rows()[r];
                    RowSight {
                        top: game.board().top(r),
                        count: cards.len() as u8,
                        cows: cows_in(cards),
                    }
                });
                let mut cards = Vec::new();
                for seat in 0..players {
                    let sight = Sight {
                        hand: game.hand(seat),
                        rows: &rows,
                    };
                    assert_eq!(gap_card(&sight), gap_card_as_stated(&sight), "seed {seed}");
                    positions += 1;
                    let hand = game.hand(seat);
                    cards.push(hand[rng.random_range(0..hand.len())]);
                }
                for seat in game.reveal(&cards) {
                    if game.place(seat).is_none() {
                        game.take_row(seat, rng.random_range(0..ROWS));
                    }
                }
            }
        }
        assert!(positions > 10_000);
    }
}
