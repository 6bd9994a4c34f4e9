//! The built-in `default` set's messages written out in Rust. Rendering through the
//! template engine was a fifth of the controller's CPU per game with external bots, most of it
//! for messages whose templates are the default's. A message whose template source is exactly
//! one of the sources below is written by these functions instead: the same bytes (a test
//! renders every phase of many games both ways), without building template values. Any other
//! template, a set's own or a changed default, goes through the engine as before.

use crate::decimal::decimal;
use crate::games::take6::game::{Phase, RowView, View};

/// The template sources written out here, by phase (in [`Phase::ALL`] order); `None` where
/// the default sends nothing. They must stay equal to `templates/default.toml` for the default
/// set to be fast, which a test checks.
const SOURCES: [Option<&str>; 8] = [
    None,
    Some("cards{% for c in dealt %} {{ c }}{% endfor %}"),
    Some(
        "count{% for r in rows %} {{ r.count }}{% endfor %}\n\
         cows{% for r in rows %} {{ r.cows }}{% endfor %}\n\
         top{% for r in rows %} {{ r.top }}{% endfor %}\n",
    ),
    Some("used{% for c in used %} {{ c }}{% endfor %}"),
    Some(
        "pickrow\n\
         count{% for r in rows %} {{ r.count }}{% endfor %}\n\
         cows{% for r in rows %} {{ r.cows }}{% endfor %}\n\
         top{% for r in rows %} {{ r.top }}{% endfor %}\n",
    ),
    Some(
        "cardgain{% for c in gained %} {{ c }}{% endfor %}\n\
         cowgain {{ gained_cows }}\n",
    ),
    Some(
        "score {{ score }}\n\
         others{% for s in others %} {{ s }}{% endfor %}\n",
    ),
    Some("invalid"),
];

/// Whether the message of phase number `index` with template `source` is written here.
pub(super) fn covers(index: usize, source: &str) -> bool {
    SOURCES[index] == Some(source)
}

/// Appends the message of `view.phase` to `out`, exactly as the engine renders its source in
/// [`SOURCES`] (every line ending with `\n`). Only called where [`covers`] said so.
pub(super) fn render(view: &View, out: &mut String) {
    match view.phase {
        Phase::Start => {}
        Phase::Cards => line(out, "cards", &view.dealt),
        Phase::Turn => board(out, &view.rows),
        Phase::Used => line(out, "used", &view.used),
        Phase::Pickrow => {
            out.push_str("pickrow\n");
            board(out, &view.rows);
        }
        Phase::Cardgain => {
            line(out, "cardgain", &view.gained);
            line(out, "cowgain", &[view.gained_cows]);
        }
        Phase::Score => {
            line(out, "score", &[view.score]);
            line(out, "others", &view.others);
        }
        Phase::Invalid => out.push_str("invalid\n"),
    }
}

/// `word`, then each item after a space, then a newline.
fn line<T: Copy + Into<u64>>(out: &mut String, word: &str, items: &[T]) {
    out.push_str(word);
    for &item in items {
        number(out, item.into());
    }
    out.push('\n');
}

/// A space and the digits of `n`: what `write!(out, " {n}")` writes, without the formatting
/// machinery (which was most of this file's cost).
fn number(out: &mut String, n: u64) {
    out.push(' ');
    let mut digits = [0; 20];
    out.push_str(std::str::from_utf8(decimal(n, &mut digits)).expect("ASCII digits"));
}

/// The `count`, `cows` and `top` lines of the rows.
fn board(out: &mut String, rows: &[RowView]) {
    out.push_str("count");
    for r in rows {
        number(out, r.count as u64);
    }
    out.push_str("\ncows");
    for r in rows {
        number(out, r.cows.into());
    }
    out.push_str("\ntop");
    for r in rows {
        number(out, r.top.into());
    }
    out.push('\n');
}
