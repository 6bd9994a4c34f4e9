//! A recorded game, turn by turn: the board and running cows after each turn, rebuilt from the
//! record alone. `take6 replay` prints it; the report's game viewer does the same steps in the
//! browser, and the browser test compares the two.

use crate::games::take6::game::{Card, ROWS, cows_of};

use crate::record::{GameRecord, RowChoice};

/// One card's placement in a turn, with the cards its owner took.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Placed {
    pub seat: usize,
    pub card: Card,
    pub row: usize,
    pub took: Vec<Card>,
    pub cows: u32,
    pub reason: Option<RowChoice>,
}

/// The game after `turn` turns (0: the starting rows).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Frame {
    pub turn: usize,
    pub rows: [Vec<Card>; ROWS],
    /// Cows that count so far, per seat: none from a faulted seat's fault turn on (its
    /// substitute's takes do not count); the 100-point penalty is only in the final scores.
    pub cows: Vec<u32>,
    /// This turn's placements, lowest card first (empty in frame 0).
    pub placed: Vec<Placed>,
}

/// Every frame of a game: the start, then one per turn.
pub fn frames(record: &GameRecord) -> Vec<Frame> {
    let mut frame = Frame {
        turn: 0,
        rows: record.first().rows.map(|c| vec![c]),
        cows: vec![0; record.players.len()],
        placed: Vec::new(),
    };
    let mut fault_turn = vec![usize::MAX; record.players.len()];
    for f in &record.first().invalid {
        if let Some(t) = fault_turn.get_mut(f.seat) {
            *t = (*t).min(usize::from(f.turn));
        }
    }
    let mut out = vec![frame.clone()];
    for (i, turn) in record.first().turns.iter().enumerate() {
        frame.turn = i + 1;
        frame.placed.clear();
        for e in &turn.events {
            let row = e.row.min(ROWS - 1);
            if e.took.is_empty() {
                frame.rows[row].push(e.card);
            } else {
                frame.rows[row] = vec![e.card];
            }
            if fault_turn.get(e.seat).is_some_and(|&t| frame.turn < t) {
                frame.cows[e.seat] += e.cows;
            }
            frame.placed.push(Placed {
                seat: e.seat,
                card: e.card,
                row,
                took: e.took.clone(),
                cows: e.cows,
                reason: e.reason,
            });
        }
        out.push(frame.clone());
    }
    out
}

fn cards(list: &[Card]) -> String {
    list.iter()
        .map(Card::to_string)
        .collect::<Vec<_>>()
        .join(" ")
}

/// `n cow(s)`.
pub fn cows_text(n: u32) -> String {
    format!("{n} cow{}", if n == 1 { "" } else { "s" })
}

/// A row as a person reads it: each card with its cows, e.g. `12(1) 55(7)   8 cows`.
pub fn row_text(row: &[Card]) -> String {
    let cards: Vec<String> = row
        .iter()
        .map(|&c| format!("{c}({})", cows_of(c)))
        .collect();
    let total: u32 = row.iter().map(|&c| cows_of(c)).sum();
    format!("{:<34} {}", cards.join(" "), cows_text(total))
}

/// One line per placement: where each card went and who took what.
pub fn placement_lines(names: &[String], placed: &[Placed]) -> Vec<String> {
    placed
        .iter()
        .map(|p| {
            let who = names.get(p.seat).map_or("?", String::as_str);
            let how = match p.reason {
                Some(RowChoice::Pick) => " (chosen: lower than every row)",
                Some(RowChoice::Forced) => " (forced: the cheapest row, after a fault)",
                None => "",
            };
            if p.took.is_empty() {
                format!("{who} {} -> row {}", p.card, p.row)
            } else {
                format!(
                    "{who} {} -> row {}, takes {} ({}){how}",
                    p.card,
                    p.row,
                    cards(&p.took),
                    cows_text(p.cows)
                )
            }
        })
        .collect()
}

/// The whole game as text, turn by turn: what `take6 replay` prints.
pub fn replay_text(record: &GameRecord) -> String {
    let names = &record.players;
    let mut out = format!(
        "Game {} (seed {}), {} players: {}\n",
        record.game,
        record.seed,
        names.len(),
        names.join(" ")
    );
    for frame in frames(record) {
        if frame.turn == 0 {
            out.push_str("\nStart\n");
        } else {
            out.push_str(&format!("\nTurn {}\n", frame.turn));
            let played: Vec<String> = record.first().turns[frame.turn - 1]
                .played
                .iter()
                .zip(names)
                .map(|(c, n)| format!("{n} {c}"))
                .collect();
            out.push_str(&format!("  played: {}\n", played.join(", ")));
            for line in placement_lines(names, &frame.placed) {
                out.push_str(&format!("  {line}\n"));
            }
            for f in record
                .first()
                .invalid
                .iter()
                .filter(|f| f.turn as usize == frame.turn)
            {
                let who = names.get(f.seat).map_or("?", String::as_str);
                out.push_str(&format!(
                    "  FAULT {}: {} ({})\n",
                    crate::untrusted::terminal(who),
                    crate::untrusted::terminal(&f.reason),
                    crate::untrusted::terminal(&f.kind)
                ));
            }
        }
        for (i, row) in frame.rows.iter().enumerate() {
            out.push_str(&format!("  row {i}: {}\n", row_text(row)));
        }
        let cows: Vec<String> = frame
            .cows
            .iter()
            .zip(names)
            .map(|(c, n)| format!("{n} {c}"))
            .collect();
        out.push_str(&format!("  cows so far: {}\n", cows.join(", ")));
    }
    out.push_str("\nFinal scores (lower is better):\n");
    let mut order: Vec<usize> = (0..names.len()).collect();
    order.sort_by_key(|&s| (record.first().scores.get(s).copied().unwrap_or_default(), s));
    for s in order {
        let penalty = record.first().penalty.get(s).copied().unwrap_or(0);
        let note = if penalty > 0 {
            format!(
                " ({} + {penalty} penalty)",
                cows_text(record.first().cows.get(s).copied().unwrap_or(0))
            )
        } else {
            String::new()
        };
        let builtin = if record.builtin.get(s).copied().unwrap_or(false) {
            " (built-in)"
        } else {
            ""
        };
        out.push_str(&format!(
            "  {}{builtin}: {}{note}\n",
            names[s],
            record.first().scores.get(s).copied().unwrap_or_default()
        ));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::take6::fixtures::sample;

    #[test]
    fn frames_end_with_the_recorded_cows_and_every_card_on_the_board_or_taken() {
        let record = sample();
        let frames = frames(&record);
        assert_eq!(frames.len(), record.first().turns.len() + 1);
        assert_eq!(frames.last().unwrap().cows, record.first().cows);
        for f in &frames {
            let on_board: usize = f.rows.iter().map(Vec::len).sum();
            let taken: usize = frames[..=f.turn]
                .iter()
                .flat_map(|g| &g.placed)
                .map(|p| p.took.len())
                .sum();
            // Four starting cards plus one per placed card, minus what was taken.
            assert_eq!(on_board + taken, 4 + f.turn * record.players.len());
            assert!(f.rows.iter().all(|r| !r.is_empty() && r.len() <= 5));
        }
    }

    #[test]
    fn replay_text_names_every_turn_and_the_final_scores() {
        let record = sample();
        let text = replay_text(&record);
        for t in 1..=10 {
            assert!(text.contains(&format!("\nTurn {t}\n")), "{text}");
        }
        assert!(text.contains("Final scores"));
        assert!(text.contains(&format!("seed {}", record.seed)));
        let takes = record
            .first()
            .turns
            .iter()
            .flat_map(|t| &t.events)
            .filter(|e| !e.took.is_empty())
            .count();
        assert_eq!(text.matches(", takes ").count(), takes);
    }
}
