//! A record's JSON (its line of `games.jsonl` before the chain), written by hand for the
//! record a series of built-ins makes a hundred thousand times a second — a one-round summary
//! whose names need no escaping — and by `serde_json` for every other. The bytes are exactly
//! `serde_json`'s (a test compares them over many games), so a reader cannot tell.

use crate::record::{GameRecord, RoundRecord};

/// Appends `record`'s JSON, as [`crate::record::games_jsonl_line`] makes it, to `out`.
pub fn write_record(record: &GameRecord, out: &mut Vec<u8>) {
    let [round] = record.rounds.as_slice() else {
        // The record holds only strings, numbers, vectors and unit enums: it always serializes.
        serde_json::to_writer(&mut *out, record).expect("a GameRecord always serializes");
        return;
    };
    if !plain(record, round) {
        serde_json::to_writer(&mut *out, record).expect("a GameRecord always serializes");
        return;
    }
    out.extend_from_slice(b"{\"game\":");
    number(out, record.game);
    out.extend_from_slice(b",\"seed\":");
    number(out, record.seed);
    out.extend_from_slice(b",\"subset\":");
    number(out, record.subset);
    if record.rotation != 0 {
        out.extend_from_slice(b",\"rotation\":");
        number(out, record.rotation as u64);
    }
    out.extend_from_slice(b",\"players\":[");
    for (i, name) in record.players.iter().enumerate() {
        if i > 0 {
            out.push(b',');
        }
        out.push(b'"');
        out.extend_from_slice(name.as_bytes());
        out.push(b'"');
    }
    out.extend_from_slice(b"],\"builtin\":[");
    for (i, &b) in record.builtin.iter().enumerate() {
        if i > 0 {
            out.push(b',');
        }
        out.extend_from_slice(if b { b"true" } else { b"false" });
    }
    out.extend_from_slice(b"],\"invalid\":[]");
    let scores = round.scores.iter().map(|s| s.get() as u64);
    for (key, values) in [
        (
            &b",\"cows\":["[..],
            &mut round.cows.iter().map(|&v| u64::from(v)) as &mut dyn Iterator<Item = u64>,
        ),
        (
            b",\"penalty\":[",
            &mut round.penalty.iter().map(|&v| u64::from(v)),
        ),
        (b",\"scores\":[", &mut { scores }),
    ] {
        out.extend_from_slice(key);
        for (i, v) in values.enumerate() {
            if i > 0 {
                out.push(b',');
            }
            number(out, v);
        }
        out.push(b']');
    }
    out.extend_from_slice(b",\"ms\":");
    number(out, record.ms);
    out.push(b'}');
}

/// Whether the hand-written form applies to `r`, whose only round is `round`: every optional
/// field absent or empty, as in a one-round summary of built-ins, and no name that JSON would
/// escape.
fn plain(r: &GameRecord, round: &RoundRecord) -> bool {
    round.hands.is_empty()
        && round.scores.iter().all(|s| s.is_whole() && s.get() >= 0.0)
        && round.rows == [0; crate::games::take6::game::ROWS]
        && round.turns.is_empty()
        && round.invalid.is_empty()
        && !round.cows.is_empty()
        && !round.penalty.is_empty()
        && r.replies.is_empty()
        && r.body.is_none()
        && r.void.is_none()
        && r.rules.is_default()
        && r.players.iter().all(|name| {
            name.bytes()
                .all(|b| b >= 0x20 && b != b'"' && b != b'\\' && b != 0x7f)
        })
}

/// `n` in decimal.
fn number(out: &mut Vec<u8>, n: u64) {
    out.extend_from_slice(crate::decimal::decimal(n, &mut [0; 20]));
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::take6::builtin::Strategy;
    use crate::games::take6::table::builtins::{BuiltinTable, Scratch, blank_record, play_into};

    fn serde_bytes(r: &GameRecord) -> Vec<u8> {
        serde_json::to_vec(r).unwrap()
    }

    /// Summaries and full records of many tables, odd names and extreme numbers: the bytes
    /// are serde_json's every time.
    #[test]
    fn the_bytes_are_serde_jsons_for_every_kind_of_record() {
        let mut scratch = Scratch::default();
        let mut by_hand = 0;
        let names = [
            "gap#1",
            "ünïcödé",
            "quote\"d",
            "back\\slash",
            "tab\t",
            "del\u{7f}",
            "",
        ];
        for game in 0..600u64 {
            let n = 2 + (game % 9) as usize;
            let seats: Vec<Strategy> = (0..n).map(|i| Strategy::ALL[i % 5]).collect();
            let table = BuiltinTable {
                game: game * 7_919_000_000_001,
                seed: game.wrapping_mul(0x9e37_79b9_7f4a_7c15),
                subset: if game % 3 == 0 { u64::MAX } else { game },
                rotation: game as usize % n,
                rounds: 1 + (game % 4 == 0) as u32,
                seats: &seats,
            };
            let mut r = blank_record();
            // Half the games with names as a series of built-ins has them (the hand-written
            // path), half with names from the odd list (mostly serde's path).
            r.players = (0..n)
                .map(|i| match game % 2 {
                    0 => format!("{}#{i}", seats[i].name()),
                    _ => format!("{}{i}", names[(game as usize + i) % names.len()]),
                })
                .collect();
            play_into(&table, game % 5 == 0, &mut scratch, &mut r);
            r.ms = if game % 7 == 0 { u64::MAX } else { game };
            by_hand += usize::from(matches!(r.rounds.as_slice(), [one] if plain(&r, one)));
            let mut ours = Vec::new();
            write_record(&r, &mut ours);
            assert_eq!(
                String::from_utf8_lossy(&ours),
                String::from_utf8_lossy(&serde_bytes(&r)),
                "game {game}"
            );
        }
        assert!(
            by_hand > 100,
            "{by_hand} records took the hand-written path"
        );
    }
}
