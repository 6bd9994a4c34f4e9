//! A person playing Kingdomino at the keyboard (`take6 play --game kingdomino`): before each of
//! their sequences they see every kingdom (theirs first), the tiles in play and who holds
//! them, the offer, the tile to place with its legal placements numbered, and type a
//! placement and a pick. A bad answer is asked again with the reason; only the end of input
//! (Ctrl-D) gives the seat up, which ends the person's game like a bot's fault.

use std::fmt::Write;
use std::sync::Arc;

use super::game::{TileLine, View};
use super::kingdom::Placement;
use super::screen::{kingdom_lines, side_by_side, tile_text};
use super::tiles::tile;
use crate::player::{Console, Fault};

/// The person at the keyboard, with the names of the table (seat order).
pub struct Human {
    console: Arc<Console>,
    names: Vec<String>,
}

/// What a person typed that is not an answer, and why; asked again.
type Refusal = String;

impl Human {
    /// The person at `console`, at a table seating `names` in seat order.
    pub fn new(console: Arc<Console>, names: Vec<String>) -> Human {
        Human { console, names }
    }

    /// The person's sequence: a placement (when there is a tile that fits) and a pick (when
    /// one is due). `Err` only when they left the game (end of input).
    pub async fn reply(&mut self, view: &View) -> Result<(Placement, u8), Fault> {
        say(&self.screen(view));
        let options = view
            .to_place
            .map(|id| view.own().legal_placements(tile(id)))
            .unwrap_or_default();
        let put = match (view.to_place, options.is_empty()) {
            (None, _) => Placement::new(0, 0, 0),
            (Some(id), true) => {
                say(&format!(
                    "Tile {} fits nowhere in your kingdom: it is discarded.\n",
                    tile_text(tile(id))
                ));
                Placement::new(0, 0, 0)
            }
            (Some(id), false) => {
                let question = "Place it: a number from the list, or x y rotation: ";
                self.ask(question, |a| placement(a, &options, view, id))
                    .await?
            }
        };
        let free = view.free_picks();
        let pick = if view.expects_pick && !free.is_empty() {
            let question = format!("Pick a tile for next turn ({}): ", ids(&free));
            self.ask(&question, |a| pick(a, &free)).await?
        } else {
            0
        };
        Ok((put, pick))
    }

    /// The end of the game: every kingdom and the final scores.
    pub fn game_over(&self, game: &super::game::Game) {
        say(&format!(
            "\n== The end ==\n{}Final scores (tie-break points included): {}\n",
            super::screen::kingdoms_text(game, &self.names),
            self.names
                .iter()
                .zip(game.scores())
                .map(|(n, s)| format!("{n} {s}"))
                .collect::<Vec<_>>()
                .join(", ")
        ));
    }

    /// Asks `question` until `accept` takes the answer, saying why it did not.
    async fn ask<T>(
        &self,
        question: &str,
        accept: impl Fn(&str) -> Result<T, Refusal>,
    ) -> Result<T, Fault> {
        loop {
            say(question);
            let Some(line) = self.console.read_line().await else {
                say("\nYou left the game (end of input, Ctrl-D); your kingdom still scores.\n");
                return Err(Fault::Left);
            };
            match accept(line.trim()) {
                Ok(answer) => return Ok(answer),
                Err(why) => say(&format!("  {why}\n")),
            }
        }
    }

    /// What the person sees before a sequence.
    fn screen(&self, view: &View) -> String {
        let n = view.players;
        let name = |relative: usize| self.names[(view.seat + relative) % n].clone();
        let titles: Vec<String> = (0..n)
            .map(|i| {
                let who = match (i, name(i)) {
                    (0, me) if me != "you" => format!("{me} (you)"),
                    (_, who) => who,
                };
                format!("{who}: {}", view.kingdoms[i].score())
            })
            .collect();
        let blocks: Vec<Vec<String>> = view.kingdoms.iter().map(kingdom_lines).collect();
        let mut out = format!("\n== Turn {} ==\n", view.turn);
        out.push_str(&side_by_side(&titles, &blocks));
        let holder = |l: &TileLine| l.player.map_or("nobody".to_string(), name);
        if !view.in_play.is_empty() {
            out.push_str("Tiles in play this turn:\n");
            for l in &view.in_play {
                let mark = if l.current {
                    "   <- yours to place now"
                } else {
                    ""
                };
                let _ = writeln!(out, "  {}  held by {}{mark}", tile_text(&l.tile), holder(l));
            }
        }
        if !view.to_pick.is_empty() {
            out.push_str("Tiles for next turn:\n");
            for l in &view.to_pick {
                let taken = l
                    .player
                    .map_or("free".to_string(), |_| format!("taken by {}", holder(l)));
                let _ = writeln!(out, "  {}  {taken}", tile_text(&l.tile));
            }
        }
        if let Some(id) = view.to_place {
            let options = view.own().legal_placements(tile(id));
            if !options.is_empty() {
                let _ = writeln!(
                    out,
                    "Your tile {}: first square at x y, the second to its right (rotation 0), \
                     below (1), left (2) or above (3). Legal placements (score after):",
                    tile_text(tile(id))
                );
                let listed: Vec<String> = options
                    .iter()
                    .enumerate()
                    .map(|(i, p)| {
                        let mut k = view.own().clone();
                        let score = k.place(tile(id), *p).map(|()| k.score()).unwrap_or(0);
                        format!("{:>3}: {} {} {} ({score})", i + 1, p.x, p.y, p.rotation)
                    })
                    .collect();
                for chunk in listed.chunks(4) {
                    let _ = writeln!(out, "  {}", chunk.join("   "));
                }
            }
        }
        out
    }
}

/// A placement from an answer: the number of a listed placement, or `x y rotation` that the
/// rules accept for tile `id`.
fn placement(
    answer: &str,
    options: &[Placement],
    view: &View,
    id: u8,
) -> Result<Placement, Refusal> {
    let numbers: Vec<i32> = answer
        .split_whitespace()
        .map(str::parse)
        .collect::<Result<_, _>>()
        .map_err(|_| format!("'{answer}' is not a number from the list nor x y rotation."))?;
    match numbers[..] {
        [k] => usize::try_from(k)
            .ok()
            .and_then(|k| k.checked_sub(1))
            .and_then(|k| options.get(k).copied())
            .ok_or_else(|| format!("{k} is not in the list (1 to {}).", options.len())),
        [x, y, r] => {
            let p = Placement::new(x, y, u8::try_from(r).unwrap_or(u8::MAX));
            view.own()
                .can_place(tile(id), p)
                .map(|()| p)
                .map_err(|why| format!("x {x} y {y} rotation {r} is not legal: {why}."))
        }
        _ => Err(format!(
            "'{answer}': type one number from the list, or three: x y rotation."
        )),
    }
}

/// A pick from an answer: one of the free tiles.
fn pick(answer: &str, free: &[u8]) -> Result<u8, Refusal> {
    let id: u8 = answer.parse().map_err(|_| {
        format!(
            "'{answer}' is not a tile number; free tiles: {}.",
            ids(free)
        )
    })?;
    if free.contains(&id) {
        Ok(id)
    } else {
        Err(format!(
            "tile {id} is not free to pick; free tiles: {}.",
            ids(free)
        ))
    }
}

fn ids(free: &[u8]) -> String {
    free.iter().map(u8::to_string).collect::<Vec<_>>().join(" ")
}

/// Prints to stdout at once (prompts have no newline).
fn say(text: &str) {
    use std::io::Write as _;
    let mut out = std::io::stdout().lock();
    let _ = out.write_all(text.as_bytes());
    let _ = out.flush();
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::kingdomino::game::Game;

    #[test]
    fn answers_are_checked_and_refusals_say_why() {
        let mut game = Game::new(7, 2);
        // Turn 1: four picks, nothing to place.
        while game.turn() == 1 {
            let t = game.next().unwrap();
            let free = game.view(t.seat).free_picks();
            game.apply(t.seat, None, Some(free[0])).unwrap();
        }
        let t = game.next().unwrap();
        let view = game.view(t.seat);
        let id = view.to_place.unwrap();
        let options = view.own().legal_placements(tile(id));
        assert_eq!(placement("1", &options, &view, id), Ok(options[0]));
        let e = placement("4 4 0", &options, &view, id).unwrap_err();
        assert!(e.contains("castle"), "{e}");
        let e = placement("999", &options, &view, id).unwrap_err();
        assert!(e.contains("not in the list"), "{e}");
        assert!(placement("up", &options, &view, id).is_err());
        let free = view.free_picks();
        assert_eq!(pick(&free[0].to_string(), &free), Ok(free[0]));
        let e = pick("200", &free).unwrap_err();
        assert!(e.contains("not free"), "{e}");
        let human = Human::new(Console::new(), vec!["ann".into(), "bob".into()]);
        let screen = human.screen(&view);
        assert!(
            screen.contains("ann (you)") && screen.contains("<- yours to place now"),
            "{screen}"
        );
        assert!(screen.contains("Legal placements"), "{screen}");
    }
}
