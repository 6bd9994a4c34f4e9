//! What a template is rendered with: only the view's fields its message uses, and the last
//! text of a message that every seat of the same moment receives alike, so that a table renders
//! `turn` once instead of once per seat. Rendering was the controller's largest cost per game
//! after starting processes.

use std::sync::Mutex;

use minijinja::value::{Serde, Value};

use super::VARIABLES;
use crate::games::take6::game::View;

/// The variables every seat sees alike at one moment. A message that uses no others renders
/// the same text for every seat.
const SHARED: [&str; 10] = [
    "phase",
    "n_players",
    "names",
    "rows",
    "turn",
    "last_played",
    "used",
    "scores",
    "round",
    "rounds",
];

/// The variables one message uses, in [`VARIABLES`] order, and whether they are all shared.
#[derive(Debug, Clone, Default)]
pub(super) struct Uses {
    names: Vec<&'static str>,
    shared: bool,
}

impl Uses {
    /// From the names a template reads (minijinja's undeclared variables).
    pub(super) fn of(read: impl Fn(&str) -> bool) -> Uses {
        let names: Vec<&'static str> = VARIABLES.into_iter().filter(|v| read(v)).collect();
        let shared = names.iter().all(|v| SHARED.contains(v));
        Uses { names, shared }
    }

    /// The template context: the used fields of `view`, each exactly as in the whole view
    /// serialized.
    pub(super) fn context(&self, view: &View) -> Value {
        Value::from_pairs(self.names.iter().map(|&name| (name, variable(view, name))))
    }

    /// Whether `a` and `b` agree on every used field.
    fn same(&self, a: &View, b: &View) -> bool {
        self.names.iter().all(|&name| variable_eq(a, b, name))
    }
}

/// The last rendering of a shared message, with the view it was made from.
#[derive(Debug, Default)]
pub(super) struct Recent(Mutex<Option<(View, Option<String>)>>);

impl Recent {
    /// The text rendered last for a view that agrees with `view` on what `uses` reads, else
    /// `render`'s result (kept for the next seat when it succeeds). Messages that read a seat's
    /// own fields are always rendered.
    pub(super) fn get_or_render<E>(
        &self,
        uses: &Uses,
        view: &View,
        render: impl FnOnce() -> Result<Option<String>, E>,
    ) -> Result<Option<String>, E> {
        if !uses.shared {
            return render();
        }
        if let Ok(last) = self.0.lock()
            && let Some((seen, text)) = last.as_ref()
            && uses.same(seen, view)
        {
            return Ok(text.clone());
        }
        let text = render()?;
        if let Ok(mut last) = self.0.lock() {
            *last = Some((view.clone(), text.clone()));
        }
        Ok(text)
    }
}

/// The template value of the view's field `name` (one of [`VARIABLES`]).
fn variable(view: &View, name: &str) -> Value {
    match name {
        "phase" => Value::from(Serde(view.phase)),
        "seat" => Value::from(view.seat),
        "n_players" => Value::from(view.n_players),
        "names" => Value::from(Serde(&view.names)),
        "hand" => Value::from(Serde(&view.hand)),
        "dealt" => Value::from(Serde(&view.dealt)),
        "rows" => Value::from(Serde(&view.rows)),
        "turn" => Value::from(view.turn),
        "last_played" => Value::from(Serde(&view.last_played)),
        "used" => Value::from(Serde(&view.used)),
        "scores" => Value::from(Serde(&view.scores)),
        "gained" => Value::from(Serde(&view.gained)),
        "gained_cows" => Value::from(view.gained_cows),
        "score" => Value::from(view.score),
        "others" => Value::from(Serde(&view.others)),
        "round" => Value::from(view.round),
        "rounds" => Value::from(view.rounds),
        _ => Value::UNDEFINED,
    }
}

/// Whether two views agree on the field `name`.
fn variable_eq(a: &View, b: &View, name: &str) -> bool {
    match name {
        "phase" => a.phase == b.phase,
        "seat" => a.seat == b.seat,
        "n_players" => a.n_players == b.n_players,
        "names" => a.names == b.names,
        "hand" => a.hand == b.hand,
        "dealt" => a.dealt == b.dealt,
        "rows" => a.rows == b.rows,
        "turn" => a.turn == b.turn,
        "last_played" => a.last_played == b.last_played,
        "used" => a.used == b.used,
        "scores" => a.scores == b.scores,
        "gained" => a.gained == b.gained,
        "gained_cows" => a.gained_cows == b.gained_cows,
        "score" => a.score == b.score,
        "others" => a.others == b.others,
        "round" => a.round == b.round,
        "rounds" => a.rounds == b.rounds,
        _ => false,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::take6::protocol::samples::sample_views;

    #[test]
    fn only_messages_of_shared_fields_are_shared_and_a_changed_field_renders_anew() {
        let views: Vec<View> = sample_views()
            .iter()
            .flatten()
            .map(|(_, v)| v.clone())
            .collect();
        let rows = Uses::of(|v| v == "rows");
        let hand = Uses::of(|v| v == "rows" || v == "hand");
        assert!(rows.shared && !hand.shared);
        let recent = Recent::default();
        let mut renders = 0;
        let mut render = |view: &View| {
            recent.get_or_render::<()>(&rows, view, || {
                renders += 1;
                Ok(Some(format!("{:?}", view.rows)))
            })
        };
        for view in &views {
            let text = render(view).unwrap();
            assert_eq!(text, Some(format!("{:?}", view.rows)));
        }
        let distinct = views.windows(2).filter(|w| w[0].rows != w[1].rows).count();
        assert_eq!(renders, distinct + 1);
    }
}
