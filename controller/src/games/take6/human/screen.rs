//! What a person at the keyboard reads: the board with each card's cows, the hand, the
//! scores, the cost of each row, and after each turn where every card went. Pure functions of
//! the views, so they are tested without a terminal.

use crate::games::take6::game::{Board, Card, ROWS, View, cows_of};
use crate::games::take6::replay::{Placed, cows_text, placement_lines};
use crate::record::RowChoice;

/// How text is printed: with ANSI colours or plain.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Screen {
    pub colour: bool,
}

impl Screen {
    /// `text` in the ANSI style `code` when colours are on.
    fn paint(&self, code: &str, text: &str) -> String {
        if self.colour {
            format!("\x1b[{code}m{text}\x1b[0m")
        } else {
            text.to_string()
        }
    }

    /// A card with its cows, e.g. `55(7)`; the more cows, the louder.
    fn card(&self, c: Card) -> String {
        let text = format!("{c}({})", cows_of(c));
        match cows_of(c) {
            1 => text,
            2 | 3 => self.paint("33", &text),
            _ => self.paint("1;31", &text),
        }
    }

    fn cards(&self, cards: &[Card]) -> String {
        cards
            .iter()
            .map(|&c| self.card(c))
            .collect::<Vec<_>>()
            .join(" ")
    }

    /// The rows, each card with its cows and each row's total.
    fn rows(&self, view: &View) -> String {
        let mut text = String::new();
        for (i, row) in view.rows.iter().enumerate() {
            let pad = " ".repeat(34usize.saturating_sub(visible_len(&row.cards)));
            text.push_str(&format!(
                "  row {i}: {}{pad} {}\n",
                self.cards(&row.cards),
                cows_text(row.cows)
            ));
        }
        text
    }

    /// Everyone's score so far, `name=score`, the person's own in bold.
    fn scores(&self, view: &View) -> String {
        view.names
            .iter()
            .zip(view.scores.iter())
            .enumerate()
            .map(|(seat, (name, score))| {
                let s = format!("{name}={score}");
                if seat == view.seat {
                    self.paint("1", &s)
                } else {
                    s
                }
            })
            .collect::<Vec<_>>()
            .join(", ")
    }

    /// The board before choosing a card: turn, rows, hand (sorted, as a person holds cards)
    /// and scores.
    pub fn board(&self, view: &View) -> String {
        let mut hand = view.hand.clone();
        hand.sort_unstable();
        format!(
            "\n{}\n{}  your hand: {}\n  scores: {}\n",
            self.paint("1", &format!("Turn {} of 10", view.turn)),
            self.rows(view),
            self.cards(&hand),
            self.scores(view)
        )
    }

    /// The cards of the turn, as soon as they are revealed (what a bot gets in `used`, and
    /// before any row is asked for): each with whose it is, lowest first, the order they are
    /// placed in.
    pub fn revealed(&self, view: &View) -> String {
        let mut order: Vec<usize> = (0..view.used.len()).collect();
        order.sort_by_key(|&s| view.used[s]);
        let cards: Vec<String> = order
            .iter()
            .map(|&s| {
                let who = if s == view.seat {
                    "you".to_string()
                } else {
                    crate::untrusted::terminal(&view.names[s])
                };
                let text = format!("{} {who}", view.used[s]);
                if s == view.seat {
                    self.paint("1", &text)
                } else {
                    text
                }
            })
            .collect();
        format!("  cards this turn, lowest first: {}\n", cards.join(", "))
    }

    /// The question when the person's card is lower than every row: what each row costs.
    pub fn row_question(&self, view: &View) -> String {
        let card = view.used.get(view.seat).copied().unwrap_or_default();
        let mut text =
            format!("\nYour {card} is lower than every row: you take a row of your choice.\n");
        for (i, row) in view.rows.iter().enumerate() {
            text.push_str(&format!(
                "  row {i} costs {}: {}\n",
                self.paint(
                    if row.cows > 3 { "1;31" } else { "1" },
                    &cows_text(row.cows)
                ),
                self.cards(&row.cards)
            ));
        }
        text
    }

    /// After a turn: the cards played, where each went and who took what, the new scores.
    pub fn turn_summary(&self, view: &View, placed: &[Placed]) -> String {
        let mut text = String::from("  where the cards went:\n");
        let names = &view.names;
        for (p, line) in placed.iter().zip(placement_lines(names, placed)) {
            let line = if p.seat == view.seat {
                self.paint("1", &line)
            } else {
                line
            };
            let line = if p.took.is_empty() {
                line
            } else {
                self.paint("31", &line)
            };
            text.push_str(&format!("    {line}\n"));
        }
        text
    }

    /// The end of a game: the last board and everyone's score, lowest first.
    pub fn final_scores(&self, view: &View) -> String {
        let mut order: Vec<usize> = (0..view.names.len()).collect();
        order.sort_by_key(|&s| (view.scores[s], s));
        let table: Vec<String> = order
            .iter()
            .map(|&s| {
                let line = format!(
                    "  {:>3}  {}",
                    view.scores[s],
                    crate::untrusted::terminal(&view.names[s])
                );
                if s == view.seat {
                    self.paint("1", &line)
                } else {
                    line
                }
            })
            .collect();
        format!(
            "\n{}\n{}\nGame over: your score is {} (lower is better).\n{}\n",
            self.paint("1", "Final board"),
            self.rows(view),
            view.score,
            table.join("\n")
        )
    }
}

/// The first lines of a game: who sits at the table (with a name of one's own, which one is
/// the person's; "you are you" said nothing) and how to leave.
pub fn greeting(view: &View) -> String {
    let me = crate::untrusted::terminal(&view.names[view.seat]);
    let who = if me == "you" {
        String::new()
    } else {
        format!(" (you are {me})")
    };
    format!(
        "\nNew game at a table of {}{who}: {}.\nType a card's number at each turn; Ctrl-D leaves \
         the game (a built-in plays your seat, and you score 100 more).\n",
        view.n_players,
        view.names
            .iter()
            .map(|n| crate::untrusted::terminal(n))
            .collect::<Vec<_>>()
            .join(", ")
    )
}

/// How many characters the rows' plain text takes, for alignment whatever the colours.
fn visible_len(cards: &[Card]) -> usize {
    cards
        .iter()
        .map(|c| format!("{c}({})", cows_of(*c)).len() + 1)
        .sum::<usize>()
        .saturating_sub(1)
}

/// Where this turn's cards went, worked out from the rows before, the cards revealed (seat
/// order) and the rows after: cards go by the rules, lowest first; a card lower than every row
/// took the row that now starts with it (the board after says which one its owner chose).
pub fn placements(before: &[Vec<Card>; ROWS], used: &[Card], after: &[Vec<Card>]) -> Vec<Placed> {
    if before.iter().any(Vec::is_empty) {
        return Vec::new();
    }
    let mut board = Board::from_rows(before.clone());
    let mut order: Vec<usize> = (0..used.len()).collect();
    order.sort_by_key(|&s| used[s]);
    order
        .into_iter()
        .map(|seat| {
            let card = used[seat];
            let (p, reason) = match board.place(card) {
                Some(p) => (p, None),
                None => {
                    let row = after
                        .iter()
                        .position(|r| r.first() == Some(&card))
                        .unwrap_or_else(|| board.cheapest_row());
                    (board.take_row(row, card), Some(RowChoice::Pick))
                }
            };
            Placed {
                seat,
                card,
                row: p.row,
                took: p.took,
                cows: p.cows,
                reason,
            }
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::take6::fixtures::sample;
    use crate::games::take6::game::{Deal, Game, Phase};
    use crate::games::take6::replay::frames;

    #[test]
    fn placements_are_rebuilt_from_the_boards_as_recorded() {
        let record = sample();
        let frames = frames(&record);
        for (t, turn) in record.first().turns.iter().enumerate() {
            let after: Vec<Vec<Card>> = frames[t + 1].rows.to_vec();
            let placed = placements(&frames[t].rows, &turn.played, &after);
            let expected: Vec<(usize, Card, usize, Vec<Card>)> = turn
                .events
                .iter()
                .map(|e| (e.seat, e.card, e.row, e.took.clone()))
                .collect();
            let got: Vec<(usize, Card, usize, Vec<Card>)> = placed
                .iter()
                .map(|p| (p.seat, p.card, p.row, p.took.clone()))
                .collect();
            assert_eq!(got, expected, "turn {}", t + 1);
        }
    }

    #[test]
    fn colours_only_when_asked_and_every_row_has_its_cost() {
        let deal = Deal {
            hands: vec![(1..=10).collect(), (11..=20).collect()],
            rows: [30, 55, 50, 60],
        };
        let mut game = Game::new(&deal);
        game.begin_turn();
        let view = game.view(
            0,
            Phase::Turn,
            &["you".to_string(), "bot".to_string()].into(),
        );
        let plain = Screen { colour: false }.board(&view);
        assert!(!plain.contains('\x1b'));
        assert!(
            plain.contains("row 1: 55(7)") && plain.contains("7 cows"),
            "{plain}"
        );
        assert!(plain.contains("your hand: 1(1) 2(1)") && plain.contains("10(3)"));
        assert!(plain.contains("scores: you=0, bot=0"));
        let coloured = Screen { colour: true }.board(&view);
        assert!(coloured.contains("\x1b[1;31m55(7)\x1b[0m"));
        let question = Screen { colour: false }.row_question(&view);
        for (i, cows) in [(0, 3), (1, 7), (2, 3), (3, 3)] {
            assert!(
                question.contains(&format!("row {i} costs {cows} cows")),
                "{question}"
            );
        }
    }
}
