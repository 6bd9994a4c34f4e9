//! Kingdomino for people at a terminal: kingdoms drawn with terrain letters and crowns, tiles
//! as text, and a recorded game turn by turn (`take6 replay`). Pure functions of the rules'
//! values, so they are tested without a terminal; the person at the keyboard reads the same
//! drawings ([`super::human`]).

use std::fmt::Write;

use super::game::{Game, MoveRecord, PutOutcome};
use super::kingdom::{CENTER, Kingdom, SIZE};
use super::tiles::{Square, Terrain, Tile, tile};
use crate::record::GameRecord;

/// A square in four characters: its terrain letter and one `*` per crown (`c   `, `f*  `,
/// `m***`), `[#] ` for the castle, ` .  ` for an empty square.
pub fn square_text(square: Square) -> String {
    match square.terrain {
        Terrain::Castle => "[#] ".into(),
        Terrain::Empty => " .  ".into(),
        t => format!(
            "{}{:<3}",
            t.wire(),
            "*".repeat(usize::from(square.crowns.min(3)))
        ),
    }
}

/// A tile as text: its id and its two squares, e.g. `17 [c*  |f   ]`.
pub fn tile_text(t: &Tile) -> String {
    let [a, b] = t.squares;
    format!("{:>2} [{}|{}]", t.id, square_text(a), square_text(b))
}

/// The kingdom's drawing: the rows and columns that hold land, the castle, or could still
/// (one square around them), with x above and y beside, as `PUT x y rotation` counts them.
pub fn kingdom_lines(k: &Kingdom) -> Vec<String> {
    let size = SIZE as i32;
    let (mut lo_x, mut hi_x, mut lo_y, mut hi_y) =
        (CENTER as i32, CENTER as i32, CENTER as i32, CENTER as i32);
    for y in 0..size {
        for x in 0..size {
            if k.get(x, y).is_some_and(|s| s.terrain != Terrain::Empty) {
                (lo_x, hi_x) = (lo_x.min(x), hi_x.max(x));
                (lo_y, hi_y) = (lo_y.min(y), hi_y.max(y));
            }
        }
    }
    let (lo_x, hi_x) = ((lo_x - 1).max(0), (hi_x + 1).min(size - 1));
    let (lo_y, hi_y) = ((lo_y - 1).max(0), (hi_y + 1).min(size - 1));
    let mut lines = vec![format!(
        "   {}",
        (lo_x..=hi_x).map(|x| format!(" {x}  ")).collect::<String>()
    )];
    for y in lo_y..=hi_y {
        let row: String = (lo_x..=hi_x)
            .map(|x| square_text(k.get(x, y).unwrap_or(Square::EMPTY)))
            .collect();
        lines.push(format!("{y:>2} {row}"));
    }
    lines
}

/// Blocks of lines side by side, each padded to its widest line, with a title above each.
pub fn side_by_side(titles: &[String], blocks: &[Vec<String>]) -> String {
    let widths: Vec<usize> = titles
        .iter()
        .zip(blocks)
        .map(|(t, b)| {
            b.iter()
                .chain(std::iter::once(t))
                .map(|l| l.chars().count())
                .max()
                .unwrap_or(0)
        })
        .collect();
    let height = blocks.iter().map(Vec::len).max().unwrap_or(0);
    let mut out = String::new();
    let row = |cells: Vec<&str>, out: &mut String| {
        let line: Vec<String> = cells
            .iter()
            .zip(&widths)
            .map(|(c, w)| format!("{c:<w$}"))
            .collect();
        out.push_str(line.join("   ").trim_end());
        out.push('\n');
    };
    row(titles.iter().map(String::as_str).collect(), &mut out);
    for i in 0..height {
        row(
            blocks
                .iter()
                .map(|b| b.get(i).map_or("", String::as_str))
                .collect(),
            &mut out,
        );
    }
    out
}

/// What one recorded sequence did, in words.
pub fn move_line(names: &[String], m: &MoveRecord, faults: &[(usize, String)]) -> String {
    let name = &names[m.seat];
    if m.eliminated {
        let why = faults
            .iter()
            .find(|(s, _)| *s == m.seat)
            .map_or(String::new(), |(_, r)| format!(": {r}"));
        return format!("{name} is out of the game{why}");
    }
    let mut line = match (m.tile, m.outcome, m.put) {
        (None, _, _) | (_, Some(PutOutcome::NothingToPlace), _) => format!("{name} places nothing"),
        (Some(id), Some(PutOutcome::Placed), Some(p)) => format!(
            "{name} puts {} at x {} y {} rotation {}",
            tile_text(tile(id)),
            p.x,
            p.y,
            p.rotation
        ),
        (Some(id), Some(PutOutcome::Unplaceable), _) => {
            format!("{name} discards {} (it fits nowhere)", tile_text(tile(id)))
        }
        (Some(id), Some(PutOutcome::Illegal(why)), _) => format!(
            "{name} discards {} (illegal PUT{})",
            tile_text(tile(id)),
            why.map_or(String::new(), |w| format!(": {w}"))
        ),
        (Some(id), _, _) => format!("{name} holds {}", tile_text(tile(id))),
    };
    if let Some(pick) = m.pick {
        let _ = write!(line, ", picks {}", tile_text(tile(pick)));
    }
    if let Some(message) = &m.message {
        let _ = write!(line, " \"{}\"", crate::untrusted::terminal(message));
    }
    line
}

/// A recorded Kingdomino game turn by turn: every sequence in words, then each kingdom and the
/// running scores after each turn; the final scores last.
pub fn replay_text(record: &GameRecord) -> String {
    let n = record.players.len();
    let mut out = format!(
        "Kingdomino game {} (seed {}), {} players: {}\n",
        record.game,
        record.seed,
        n,
        record.players.join(", ")
    );
    let Ok(log) = super::GameLog::of(record) else {
        out.push_str("(the record holds no moves)\n");
        return out;
    };
    let faults: Vec<(usize, String)> = (record.faults())
        .map(|(_, f)| f)
        .map(|f| {
            let shown = |text: &str| crate::untrusted::terminal(text);
            (f.seat, format!("{} [{}]", shown(&f.reason), shown(&f.kind)))
        })
        .collect();
    let mut game = Game::new(record.seed, n);
    let mut turn = 0;
    for m in &log.moves {
        if m.turn != turn && !m.eliminated {
            if turn > 0 {
                out.push_str(&kingdoms_text(&game, &record.players));
            }
            turn = m.turn;
            let _ = writeln!(out, "\nTurn {turn}");
        }
        let _ = writeln!(out, "  {}", move_line(&record.players, m, &faults));
        if m.eliminated {
            game.eliminate(m.seat);
        } else if game
            .apply_with_message(m.seat, m.put, m.pick, m.message.clone())
            .is_err()
        {
            out.push_str("  (the rules refuse this move: take6 verify says why)\n");
            return out;
        }
    }
    out.push_str(&kingdoms_text(&game, &record.players));
    let _ = writeln!(
        out,
        "\nFinal scores (tie-break points included): {}",
        record
            .players
            .iter()
            .zip(&*record.total_scores())
            .map(|(p, s)| format!("{p} {s}"))
            .collect::<Vec<_>>()
            .join(", ")
    );
    out
}

/// Each kingdom side by side with its score so far.
pub fn kingdoms_text(game: &Game, names: &[String]) -> String {
    let titles: Vec<String> = names
        .iter()
        .enumerate()
        .map(|(s, name)| format!("{name}: {}", game.kingdom(s).score()))
        .collect();
    let blocks: Vec<Vec<String>> = (0..names.len())
        .map(|s| kingdom_lines(game.kingdom(s)))
        .collect();
    side_by_side(&titles, &blocks)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::kingdomino::kingdom::Placement;

    #[test]
    fn tile_ids_of_one_and_two_digits_line_up() {
        let (one, two) = (tile_text(tile(5)), tile_text(tile(11)));
        assert_eq!(one.find('['), two.find('['), "{one} / {two}");
        assert_eq!(one.len(), two.len(), "{one} / {two}");
    }

    #[test]
    fn squares_and_kingdoms_are_drawn_with_letters_crowns_and_coordinates() {
        assert_eq!(square_text(Square::new(Terrain::Mine, 2)), "m** ");
        assert_eq!(square_text(Square::new(Terrain::Mine, 3)), "m***");
        assert_eq!(square_text(Square::new(Terrain::Forest, 1)), "f*  ");
        assert_eq!(square_text(Square::new(Terrain::Corn, 0)), "c   ");
        assert_eq!(square_text(Square::CASTLE), "[#] ");
        let mut k = Kingdom::new();
        k.place(tile(1), Placement::new(5, 4, 0)).unwrap();
        let lines = kingdom_lines(&k);
        assert_eq!(lines[0], "    3   4   5   6   7  ");
        assert_eq!(lines[2], " 4  .  [#] c   c    .  ");
        assert_eq!(lines.len(), 4, "{lines:?}");
    }
}
