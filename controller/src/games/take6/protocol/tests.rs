//! Rendering: snapshots of every built-in set, the default set against the core protocol
//! written by hand, and the checks every set gets.

use std::collections::BTreeSet;
use std::sync::Arc;

use super::load::default_entries;
use super::samples::phase_index;
use super::*;
use crate::games::take6::game::{Deal, Game, Phase, View};
use rand::SeedableRng;
use rand::rngs::ChaCha8Rng;
use std::fmt::Write as _;

/// A transcript of `set`'s messages for `seat` over `views`, labelled, for snapshots.
fn transcript(set: &TemplateSet, views: &[View]) -> String {
    let mut out = String::new();
    for view in views {
        let label = format!(
            "--- {} (seat {}, turn {})",
            view.phase.name(),
            view.seat,
            view.turn
        );
        match set.render(view).unwrap() {
            Some(text) => write!(out, "{label}\n{text}").unwrap(),
            None => writeln!(out, "{label}: not sent").unwrap(),
        }
    }
    out
}

/// The fixed game of the snapshots: 3 players, everyone plays their lowest card, so a
/// pickrow (and its cardgain) comes early; first three turns in full, then the end.
fn fixed_game() -> Vec<View> {
    let mut rng = ChaCha8Rng::seed_from_u64(6);
    let deal = Deal::shuffled(3, &mut rng);
    let names: std::sync::Arc<[String]> = ["alice", "bob", "carol"].map(String::from).into();
    let mut game = Game::new(&deal);
    let mut out = Vec::new();
    for phase in [Phase::Start, Phase::Cards] {
        out.extend((0..3).map(|s| game.view(s, phase, &names)));
    }
    let (mut pickrows, mut cardgains) = (0, 0);
    while !game.is_over() {
        game.begin_turn();
        let shown = game.turn() <= 3;
        if shown {
            out.extend((0..3).map(|s| game.view(s, Phase::Turn, &names)));
        }
        let cards: Vec<_> = (0..3)
            .map(|s| *game.hand(s).iter().min().unwrap())
            .collect();
        let order = game.reveal(&cards);
        if shown {
            out.extend((0..3).map(|s| game.view(s, Phase::Used, &names)));
        }
        for seat in order {
            let placement = match game.place(seat) {
                Some(p) => p,
                None => {
                    pickrows += 1;
                    if shown {
                        out.push(game.view(seat, Phase::Pickrow, &names));
                    }
                    let row = game.board().cheapest_row();
                    game.take_row(seat, row)
                }
            };
            if !placement.took.is_empty() {
                cardgains += 1;
                let mut view = game.view(seat, Phase::Cardgain, &names);
                view.gained = placement.took;
                view.gained_cows = placement.cows;
                if shown {
                    out.push(view);
                }
            }
        }
    }
    assert!(
        pickrows > 0 && cardgains > 0,
        "the fixed game must show both"
    );
    out.push(game.view(1, Phase::Invalid, &names));
    out.extend((0..3).map(|s| game.view(s, Phase::Score, &names)));
    for phase in [Phase::Pickrow, Phase::Cardgain] {
        assert!(out.iter().any(|v| v.phase == phase), "no {phase:?} shown");
    }
    out
}

#[test]
fn snapshot_default() {
    let lib = TemplateLibrary::load(None).unwrap();
    insta::assert_snapshot!(transcript(&lib.get("default").unwrap(), &fixed_game()));
}

#[test]
fn snapshot_named() {
    let lib = TemplateLibrary::load(None).unwrap();
    insta::assert_snapshot!(transcript(&lib.get("named").unwrap(), &fixed_game()));
}

#[test]
fn snapshot_codingame() {
    let lib = TemplateLibrary::load(None).unwrap();
    insta::assert_snapshot!(transcript(&lib.get("codingame").unwrap(), &fixed_game()));
}

#[test]
fn snapshot_codingame_statement() {
    let lib = TemplateLibrary::load(None).unwrap();
    insta::assert_snapshot!(transcript(
        &lib.get("codingame-statement").unwrap(),
        &fixed_game()
    ));
}

/// The core protocol, written out by hand from its specification.
fn core_protocol(view: &View) -> Option<String> {
    fn line(word: &str, items: impl IntoIterator<Item = String>) -> String {
        let mut s = word.to_string();
        for item in items {
            s.push(' ');
            s.push_str(&item);
        }
        s.push('\n');
        s
    }
    let board = |v: &View| {
        line("count", v.rows.iter().map(|r| r.cards.len().to_string()))
            + &line(
                "cows",
                v.rows
                    .iter()
                    .map(|r| crate::games::take6::game::cows_in(&r.cards).to_string()),
            )
            + &line(
                "top",
                v.rows.iter().map(|r| r.cards.last().unwrap().to_string()),
            )
    };
    let num = |xs: &[u8]| xs.iter().map(|x| x.to_string()).collect::<Vec<_>>();
    match view.phase {
        Phase::Start => None,
        Phase::Cards => Some(line("cards", num(&view.dealt))),
        Phase::Turn => Some(board(view)),
        Phase::Used => Some(line("used", num(&view.used))),
        Phase::Pickrow => Some("pickrow\n".to_string() + &board(view)),
        Phase::Cardgain => Some(
            line("cardgain", num(&view.gained))
                + &format!(
                    "cowgain {}\n",
                    crate::games::take6::game::cows_in(&view.gained)
                ),
        ),
        Phase::Score => {
            let others = view
                .scores
                .iter()
                .enumerate()
                .filter(|&(s, _)| s != view.seat)
                .map(|(_, x)| x.to_string());
            Some(format!("score {}\n", view.scores[view.seat]) + &line("others", others))
        }
        Phase::Invalid => Some("invalid\n".to_string()),
    }
}

#[test]
fn default_is_the_core_protocol_byte_for_byte() {
    let set = default_set();
    let mut count = [0usize; 8];
    for seed in 0..150u64 {
        let players = 1 + (seed as usize % 10);
        for view in random_game_views(1000 + seed, players) {
            count[phase_index(view.phase)] += 1;
            assert_eq!(
                set.render(&view).unwrap(),
                core_protocol(&view),
                "{players} players, {view:?}"
            );
        }
    }
    assert!(
        count.iter().all(|&c| c > 0),
        "every phase checked: {count:?}"
    );
}

/// The default set's messages are written out in Rust (for speed): every one of them, and
/// byte for byte what the template engine renders from the same templates, in games of every
/// size. A set that leaves a message out gets the fast default for it; its own template, even
/// one differing only in a space, goes through the engine.
#[test]
fn the_default_written_out_in_rust_is_the_engine_byte_for_byte() {
    let set = default_set();
    for phase in Phase::ALL {
        assert_eq!(set.is_native(phase), set.sends(phase), "{phase:?}");
    }
    let mut count = [0usize; 8];
    let mut appended = String::from("kept ");
    for seed in 0..150u64 {
        let players = 1 + (seed as usize % 10);
        for view in random_game_views(2000 + seed, players) {
            count[phase_index(view.phase)] += 1;
            let engine = set.render_by_engine(&view).unwrap();
            assert_eq!(
                set.render(&view).unwrap(),
                engine,
                "{players} players, {view:?}"
            );
            // Appending leaves what was there and appends exactly the message.
            let before = appended.len();
            let sent = set.render_into(&view, &mut appended).unwrap();
            assert_eq!(sent, engine.is_some());
            assert_eq!(&appended[before..], engine.as_deref().unwrap_or(""));
        }
    }
    assert!(appended.starts_with("kept "));
    assert!(
        count.iter().all(|&c| c > 0),
        "every phase checked: {count:?}"
    );

    let own = TemplateSet::from_source(
        "own",
        "own.toml",
        "used = \"used{% for c in used %}  {{ c }}{% endfor %}\"\n",
    )
    .unwrap();
    assert!(!own.is_native(Phase::Used));
    assert!(own.is_native(Phase::Turn));
    let used = random_game_views(3, 4)
        .into_iter()
        .find(|v| v.phase == Phase::Used)
        .unwrap();
    let text = own.render(&used).unwrap().unwrap();
    assert!(text.starts_with("used  "), "{text:?}");
}

/// The fingerprint a series keeps per bot: what is sent and read, nothing else.
#[test]
fn a_sets_fingerprint_changes_with_its_words_and_nothing_else() {
    let set = |text: &str| TemplateSet::from_source("x", "x.toml", text).unwrap();
    let base = set("invalid = \"invalid\"\n");
    assert_eq!(base.fingerprint(), default_set().fingerprint());
    assert_eq!(base.fingerprint().len(), 64);
    let commented = set("# a comment\n\ninvalid = 'invalid'\n");
    assert_eq!(commented.fingerprint(), base.fingerprint());
    for other in [
        "invalid = \"INVALID\"\n",
        "card_reply = \"PLAY {card}\"\n",
        "start = \"hello\"\n",
    ] {
        assert_ne!(set(other).fingerprint(), base.fingerprint(), "{other}");
    }
}

#[test]
fn view_fields_are_the_variables() {
    let view = random_game_views(1, 2).remove(0);
    let json = serde_json::to_value(&view).unwrap();
    let fields: BTreeSet<&str> = json
        .as_object()
        .unwrap()
        .keys()
        .map(|k| k.as_str())
        .collect();
    assert_eq!(fields, VARIABLES.into_iter().collect::<BTreeSet<_>>());
}

#[test]
fn sets_are_send_and_sync() {
    fn check<T: Send + Sync>() {}
    check::<TemplateSet>();
    check::<TemplateLibrary>();
}

#[test]
fn blank_messages_are_not_sent_and_newlines_are_added() {
    let set = TemplateSet::from_source(
        "x",
        "x.toml",
        "start = \"{% if seat > 100 %}x{% endif %}  \\n\"\ncards = \"a\\nb\"\nused = \"u\\n\\n\"\n",
    )
    .unwrap();
    let views = random_game_views(5, 2);
    let get = |phase| {
        let v = views.iter().find(|v| v.phase == phase).unwrap();
        set.render(v).unwrap()
    };
    assert_eq!(get(Phase::Start), None);
    assert_eq!(get(Phase::Cards).as_deref(), Some("a\nb\n"));
    assert_eq!(get(Phase::Used).as_deref(), Some("u\n\n"));
    assert!(!default_set().sends(Phase::Start));
}

/// A last line that renders empty (CodinGame's hand line at the last row choice) is sent as
/// an empty line, in a block written either way round.
#[test]
fn an_empty_last_line_is_still_a_line() {
    let set = TemplateSet::from_source(
        "x",
        "x.toml",
        r#"
pickrow = """
PICK
{{ hand | length }}
{{ hand | join(' ') }}
"""
turn = "{{ hand | length }}\n{{ hand | join(' ') }}"
"#,
    )
    .unwrap();
    let mut view = random_game_views(5, 2)
        .into_iter()
        .find(|v| v.phase == Phase::Pickrow)
        .expect("a row choice");
    view.hand.clear();
    assert_eq!(set.render(&view).unwrap().as_deref(), Some("PICK\n0\n\n"));
    view.phase = Phase::Turn;
    assert_eq!(set.render(&view).unwrap().as_deref(), Some("0\n\n"));
}

/// The README's example file loads, and the filters it mentions exist.
#[test]
fn readme_example_and_filters_work() {
    let readme = include_str!("../../../../../templates/README.md");
    let example = readme
        .split("```toml\n")
        .nth(1)
        .and_then(|rest| rest.split("```").next())
        .expect("the README has a toml example");
    let set = TemplateSet::from_source("example", "README.md", example).unwrap();
    assert_eq!(set.card_pattern(), "PLAY {card}");
    let set = TemplateSet::from_source(
        "filters",
        "filters.toml",
        "turn = \"{{ rows | map(attribute='top') | join(' ') }} {{ hand | length }}\"",
    )
    .unwrap();
    let view = random_game_views(7, 2)
        .into_iter()
        .find(|v| v.phase == Phase::Turn)
        .unwrap();
    let tops: Vec<String> = view.rows.iter().map(|r| r.top.to_string()).collect();
    assert_eq!(
        set.render(&view).unwrap().unwrap(),
        format!("{} 10\n", tops.join(" "))
    );
}

#[test]
fn message_keys_follow_the_phases() {
    let names: Vec<&str> = Phase::ALL.iter().map(|p| p.name()).collect();
    assert_eq!(names, MESSAGE_KEYS);
}

#[test]
fn default_set_has_every_key() {
    let entries = default_entries();
    assert_eq!(entries.len(), MESSAGE_KEYS.len() + REPLY_KEYS.len());
    assert!(Arc::ptr_eq(&default_set(), &default_set()));
}
