//! The report as a pure function: what the page holds for a small hand-made series.

use super::*;
use crate::games::kingdomino::viewer::{self as kingdomino, ViewerKingdomino};
use crate::games::take6::fixtures::sample;
use crate::record::GameRecord;
use crate::record::fixtures::{series, tally};

fn stats_of(games: &[GameRecord]) -> ReportStats {
    let mut s = ReportStats::default();
    for g in games {
        s.add(g);
    }
    s
}

fn page(games: &[GameRecord], ratings: Option<&BTreeMap<String, f64>>) -> String {
    let facts = SeriesFacts::from_manifest(
        "series = \"20260101T000000Z\"\nseed = 99\nstatus = \"complete\"\n\
         [[bots]]\nname = \"alice\"\nhash = \"abc123\"\nsource = \"bots/alice\"\n\
         [[skipped]]\nname = \"<evil>\"\nreason = \"no launch & no hope\"\n",
    );
    report_html(&Report {
        standings: &tally(games).standings(),
        stats: &stats_of(games),
        facts: &facts,
        ratings,
        reply_times: None,
        stderr: &BTreeMap::new(),
        league: None,
    })
}

fn numbered(mut games: Vec<GameRecord>) -> Vec<GameRecord> {
    for (i, g) in games.iter_mut().enumerate() {
        g.game = i as u64;
    }
    games
}

#[test]
fn the_page_holds_every_standing_the_facts_and_parseable_game_data() {
    let games = numbered(series());
    let html = page(&games, None);
    let standings = tally(&games).standings();
    assert_eq!(
        html.matches("<tr class=\"standing").count(),
        standings.len()
    );
    for s in &standings {
        assert!(
            html.contains(&format!("data-bot=\"{}\"", s.bot)),
            "{}",
            s.bot
        );
    }
    assert!(html.contains("data-bot=\"random#1\" data-builtin=\"true\""));
    assert!(html.contains("abc123") && html.contains("seed 99"));
    assert!(html.contains("&lt;evil&gt;") && html.contains("no launch &amp; no hope"));
    assert!(!html.contains("<evil>"));
    assert!(!html.contains("<th>rating</th>"), "no ratings, no column");
    // Three line-ups: a heat map; links to each player's best and worst game.
    assert!(html.contains("<table class=\"heat\">"));
    assert!(html.contains("href=\"#game=0\" class=\"best\""));
    // Nothing is fetched.
    for needle in ["http://", "https://", "src=", "<link"] {
        assert!(!html.contains(needle), "{needle}");
    }
    let start = html.find("id=\"data\">").unwrap() + "id=\"data\">".len();
    let end = start + html[start..].find("</script>").unwrap();
    let data: serde_json::Value = serde_json::from_str(&html[start..end]).unwrap();
    assert_eq!(data["games"].as_array().unwrap().len(), 3);
    assert_eq!(data["total"], 3);
}

#[test]
fn ratings_get_a_column_and_names_cannot_end_the_data_script() {
    let mut game = sample();
    game.players[1] = "</script><b>".into();
    let ratings: BTreeMap<String, f64> = [("p0".to_string(), 1512.0)].into();
    let html = page(&[game], Some(&ratings));
    assert!(html.contains("<th>rating</th>") && html.contains(">1512.0<"));
    assert_eq!(
        html.matches("</script>").count(),
        4,
        "only the page's own scripts end (its error catcher, the board, the frame)"
    );
    assert!(html.contains("Every game had the same players"));
}

/// A Kingdomino game of built-ins played through the rules, as a record: seat 0 plays greedy
/// and writes a message with each pick, the others random; seat `out` (if any) is eliminated
/// in turn 3 with a fault.
fn kingdomino_record(n: u64, seed: u64, players: usize, out: Option<usize>) -> GameRecord {
    use crate::games::kingdomino::builtins::{Builtin, Greedy, Random};
    use crate::games::kingdomino::game::Game;
    use rand::SeedableRng;
    let mut rng = rand::rngs::ChaCha8Rng::seed_from_u64(seed);
    let mut game = Game::new(seed, players);
    let mut invalid = Vec::new();
    while let Some(t) = game.next() {
        if Some(t.seat) == out && t.turn == 3 {
            invalid.push(crate::record::InvalidRecord {
                seat: t.seat,
                turn: t.turn,
                phase: crate::games::kingdomino::MOVE,
                kind: "illegal_pick".into(),
                reason: "picked tile 99, which is not <free>".into(),
            });
            game.eliminate(t.seat);
            continue;
        }
        let view = game.view(t.seat);
        let reply = if t.seat == 0 {
            Greedy.reply(&view, &mut rng)
        } else {
            Random.reply(&view, &mut rng)
        };
        let message = (t.seat == 0).then(|| format!("turn {} </script>", t.turn));
        game.apply_with_message(t.seat, Some(reply.put), Some(reply.pick), message)
            .unwrap();
    }
    let mut record =
        crate::record::fixtures::result(&["p0", "p1", "p2", "p3"][..players], &game.scores(), &[]);
    record.rules = crate::record::GameName::new("kingdomino");
    record.game = n;
    record.seed = seed;
    record.rounds[0] = crate::record::RoundRecord {
        invalid,
        scores: crate::record::score::whole(&game.scores()),
        ..Default::default()
    };
    let log = crate::games::kingdomino::GameLog {
        moves: game.log().to_vec(),
    };
    record.body = Some(log.into_body());
    record
}

/// The JSON of the page's `#data` script.
fn data_of(html: &str) -> serde_json::Value {
    let start = html.find("id=\"data\">").unwrap() + "id=\"data\">".len();
    let end = start + html[start..].find("</script>").unwrap();
    serde_json::from_str(&html[start..end]).unwrap()
}

#[test]
fn a_kingdomino_game_is_embedded_with_the_offers_its_seed_drew_and_every_move() {
    for players in 2..=4 {
        let record = kingdomino_record(0, 7 + players as u64, players, Some(1));
        let view = ViewerKingdomino::of(&record);
        let log = crate::games::kingdomino::GameLog::of(&record).unwrap();
        let moves = &log.moves;
        assert_eq!(view.moves.len(), moves.len());
        let turns = crate::games::kingdomino::game::turns(players);
        assert_eq!(view.turns, turns);
        assert_eq!(view.offers.len(), usize::from(turns), "{players} players");
        let per_turn = crate::games::kingdomino::game::tiles_per_turn(players);
        for (t, offer) in view.offers.iter().enumerate() {
            let t = t as u8 + 1;
            let expected = if t == turns { 0 } else { per_turn };
            assert_eq!(offer.len(), expected, "turn {t}");
            assert!(offer.is_sorted());
            for m in moves.iter().filter(|m| m.turn == t && !m.eliminated) {
                if let Some(pick) = m.pick {
                    assert!(offer.contains(&pick), "turn {t} pick {pick} in {offer:?}");
                }
            }
        }
        // Tiles placed this turn were offered the turn before.
        for m in moves.iter().filter(|m| m.turn > 1 && !m.eliminated) {
            let before = &view.offers[usize::from(m.turn) - 2];
            assert!(before.contains(&m.tile.unwrap()));
        }
        let eliminated = view.moves.iter().filter(|m| m.7 == kingdomino::ELIMINATED);
        assert_eq!(eliminated.count(), 1);
        assert!(
            view.moves
                .iter()
                .any(|m| m.9.as_deref() == Some("turn 2 </script>"))
        );
    }
    // A summary record, or one the rules refuse, still gives a viewer game.
    let mut summary = kingdomino_record(0, 3, 3, None);
    summary.body = None;
    assert!(ViewerKingdomino::of(&summary).moves.is_empty());
    let mut forged = kingdomino_record(0, 3, 3, None);
    let mut log = crate::games::kingdomino::GameLog::of(&forged).unwrap();
    log.moves[5].pick = Some(99);
    forged.body = Some(log.into_body());
    assert_eq!(ViewerKingdomino::of(&forged).moves.len(), 5);
}

#[test]
fn a_kingdomino_page_says_higher_is_better_and_ranks_games_that_way() {
    let games: Vec<GameRecord> = (0..4)
        .map(|i| kingdomino_record(i, 20 + i, 4, (i == 2).then_some(3)))
        .collect();
    let html = page(&games, None);
    assert!(html.contains("(higher is better)") && !html.contains("lower is better"));
    assert!(html.contains("take6 series 20260101T000000Z (Kingdomino)"));
    let data = data_of(&html);
    assert_eq!(data["rules"], "kingdomino");
    assert_eq!(data["higher"], true);
    assert_eq!(data["tiles"].as_array().unwrap().len(), 48);
    assert_eq!(data["tiles"][0], serde_json::json!([1, "c", 0, "c", 0]));
    assert!(data["games"][0]["kingdomino"]["offers"].is_array());
    assert!(data["games"][0].get("rows").is_none(), "no Take 6 fields");
    assert_eq!(
        html.matches("</script>").count(),
        4,
        "messages cannot end a script"
    );
    assert!(html.contains("kingdomino.js") || html.contains("Kingdomino's board"));
    assert!(!html.contains("Take 6's board"));
    // p0's best game is its highest score.
    let stats = stats_of(&games);
    let p0: Vec<(crate::record::Score, u64)> = games
        .iter()
        .map(|g| (g.rounds[0].scores[0], g.game))
        .collect();
    let best = p0
        .iter()
        .max_by_key(|(s, g)| (*s, std::cmp::Reverse(*g)))
        .unwrap()
        .1;
    let worst = p0
        .iter()
        .min_by_key(|(s, g)| (*s, std::cmp::Reverse(*g)))
        .unwrap()
        .1;
    assert_eq!(stats.best_and_worst("p0"), Some((best, worst)));
    // The fault is quoted with its reason, escaped.
    assert!(html.contains("id=\"fault-p3\""));
    assert!(html.contains("picked tile 99, which is not &lt;free&gt;"));
    assert!(html.contains("href=\"#game=2&amp;turn=3\""));
    assert_eq!(stats.fault_notes("p3").len(), 1);
}

#[test]
fn head_to_head_points_follow_the_direction() {
    let mut a = crate::record::fixtures::result(&["a", "b"], &[10, 20], &[]);
    let b = {
        let mut b = crate::record::fixtures::result(&["a", "c"], &[5, 1], &[]);
        b.game = 1;
        b
    };
    let take6 = stats_of(&[a.clone(), b.clone()]);
    assert_eq!(take6.meeting("a", "b"), Some((1, 1.0)));
    a.rules = crate::record::GameName::new("kingdomino");
    let mut b = b;
    b.rules = crate::record::GameName::new("kingdomino");
    let kd = stats_of(&[a, b]);
    assert_eq!(kd.meeting("a", "b"), Some((1, 0.0)));
    assert_eq!(kd.best_and_worst("a"), Some((0, 1)));
}

#[test]
fn the_games_line_fits_the_schedule() {
    let games = numbered(series());
    let line = |manifest: &str| {
        let facts = SeriesFacts::from_manifest(manifest);
        let html = report_html(&Report {
            standings: &tally(&games).standings(),
            stats: &stats_of(&games),
            facts: &facts,
            ratings: None,
            reply_times: None,
            stderr: &BTreeMap::new(),
            league: None,
        });
        let start = html.find("<dd id=\"games-line\">").unwrap() + 20;
        html[start..start + html[start..].find("</dd>").unwrap()].to_string()
    };
    assert_eq!(
        line("games_played = 3\ngames_planned = 3\nschedule = \"single\"\ntables = 3\n"),
        "3 played of 3 planned, all at one table of 3 to 4 players"
    );
    assert_eq!(
        line(
            "games_played = 3\ngames_planned = 4\nschedule = \"single\"\nduplicate = true\n\
             tables = 1\n"
        ),
        "3 played of 4 planned, all at one table of 3 to 4 players; duplicate deals: 1 deal, \
         each played in every rotation of the seats"
    );
    assert_eq!(
        line(
            "games_played = 3\ngames_planned = 3\nschedule = \"all\"\nsubsets = 3\n\
             games_per_subset = 1\n"
        ),
        "3 played of 3 planned: each of the 3 subsets of the bots at a table of 3 to 4 \
         players plays 1 game"
    );
    assert_eq!(
        line(
            "games_played = 3\ngames_planned = 3\nschedule = \"balanced\"\n\
             [balance]\ngames_min = 2\ngames_max = 3\npairs_min = 1\npairs_max = 1\n"
        ),
        "3 played of 3 planned, at tables of 3 to 4 players drawn to balance the games (each \
         bot plays 2–3 games, each pair of bots meets 1)"
    );
    assert_eq!(
        line("games_played = 3\ngames_planned = 3\n"),
        "3 played of 3 planned"
    );
}

#[test]
fn faults_reply_times_and_stderr_are_shown() {
    let games = numbered(series());
    let facts = SeriesFacts::from_manifest("");
    let rows = [ReplyRow {
        bot: "dave".into(),
        replies: 10,
        cpu: Some([1.0, 2.0, 3.0]),
        wall: Some([4.0, 5.0, 6.0]),
    }];
    let stderr: BTreeMap<String, StderrExcerpt> = [(
        "dave".to_string(),
        StderrExcerpt {
            path: "logs/dave.games.log".into(),
            game: 2,
            lines: vec!["Traceback <oops>".into()],
        },
    )]
    .into();
    let html = report_html(&Report {
        standings: &tally(&games).standings(),
        stats: &stats_of(&games),
        facts: &facts,
        ratings: None,
        reply_times: Some(&rows),
        stderr: &stderr,
        league: None,
    });
    assert!(html.contains("<tr data-bot=\"dave\"><td>dave</td><td class=\"num\">10</td>"));
    assert!(html.contains("<td class=\"num\">6.00</td>"));
    assert!(html.contains("timeout in turn 1"), "dave's fault reason");
    assert!(html.contains("Traceback &lt;oops&gt;") && html.contains("logs/dave.games.log"));
    assert!(html.contains("<a href=\"#fault-dave\">1</a>"));
}

#[test]
fn anchors_are_ids_that_keep_names_apart() {
    assert_eq!(anchor("not-held"), "not-held");
    assert_eq!(anchor("random#1"), "random_231");
    assert_ne!(anchor("a.b"), anchor("a_b"));
}

/// A field where most bots fault in every game (means near 110) and four play well (near
/// 10): the four best stay on the scale, never marked as outliers at its edge; a lone bot far
/// on the worse side still is.
#[test]
fn the_best_bots_are_never_outliers_however_many_fault() {
    let base = tally(&numbered(series())).standings()[0].clone();
    let with = |bot: &str, mean: f64| {
        let mut s = base.clone();
        s.bot = bot.to_string();
        s.mean_score = mean;
        s.ci95 = Some(2.0);
        s
    };
    let mut field: Vec<Standing> = (0..4)
        .map(|i| with(&format!("good{i}"), 10.0 + i as f64))
        .collect();
    field.extend((0..26).map(|i| with(&format!("crash{i}"), 105.0 + (i % 5) as f64)));
    let out = outliers(&field);
    assert!(out.iter().all(|o| !o), "{out:?}");
    // Lower is better and one bot is far worse than the rest: it alone is an outlier.
    let mut field: Vec<Standing> = (0..6)
        .map(|i| with(&format!("b{i}"), 10.0 + i as f64))
        .collect();
    field.push(with("crash", 112.0));
    assert_eq!(
        outliers(&field),
        [false, false, false, false, false, false, true]
    );
    // Higher is better (ranked best first): the far low one is the outlier, not the best.
    let mut field: Vec<Standing> = (0..6)
        .map(|i| with(&format!("b{i}"), 60.0 - i as f64))
        .collect();
    field.push(with("zero", -40.0));
    assert_eq!(
        outliers(&field),
        [false, false, false, false, false, false, true]
    );
}
