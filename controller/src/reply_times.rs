//! `reply_times.csv`: per bot, how long its replies took (median, 99th percentile, maximum; CPU
//! time of its tree and wall time), from the reply times in the game records, so the same
//! file can be made again from `games.jsonl`.

use std::collections::BTreeMap;

use crate::record::GameRecord;
use crate::report::ReplyRow;

/// The file name in a series folder.
pub const REPLY_TIMES: &str = "reply_times.csv";

/// Every reply time of every bot so far, in microseconds.
#[derive(Debug, Default, Clone)]
pub struct ReplyStats {
    /// Per bot: wall times and CPU times (CPU only where it was measured).
    bots: BTreeMap<String, (Vec<u64>, Vec<u64>)>,
}

impl ReplyStats {
    /// Adds the reply times of one game's bots.
    pub fn add(&mut self, record: &GameRecord) {
        for times in &record.replies {
            let Some(name) = record.players.get(times.seat) else {
                continue;
            };
            let (wall, cpu) = self.bots.entry(name.clone()).or_default();
            wall.extend(&times.wall_us);
            cpu.extend(&times.cpu_us);
        }
    }

    /// Per bot (by name), how many replies and the `[p50, p99, max]` of CPU time (absent where
    /// it was not measured) and of wall time, in milliseconds: what the CSV and the report show.
    pub fn rows(&self) -> Vec<ReplyRow> {
        self.bots
            .iter()
            .map(|(name, (wall, cpu))| ReplyRow {
                bot: name.clone(),
                replies: wall.len() as u64,
                cpu: summary(cpu),
                wall: summary(wall),
            })
            .collect()
    }

    /// The CSV, written by the `csv` crate (a name with `,` or `"` is quoted):
    /// `bot,replies,cpu_p50_ms,cpu_p99_ms,cpu_max_ms,wall_p50_ms,wall_p99_ms,wall_max_ms`; CPU
    /// columns are empty for a bot whose CPU time was not measured.
    pub fn csv(&self) -> Vec<u8> {
        let mut w = csv::Writer::from_writer(Vec::new());
        // Writing to a Vec cannot fail: the only errors csv can report here are I/O errors.
        w.write_record([
            "bot",
            "replies",
            "cpu_p50_ms",
            "cpu_p99_ms",
            "cpu_max_ms",
            "wall_p50_ms",
            "wall_p99_ms",
            "wall_max_ms",
        ])
        .expect("writing CSV to memory");
        for row in self.rows() {
            let ms = |v: Option<[f64; 3]>| match v {
                Some(v) => v.map(|x| format!("{x:.3}")),
                None => Default::default(),
            };
            let [c50, c99, cmax] = ms(row.cpu);
            let [w50, w99, wmax] = ms(row.wall);
            w.write_record([
                crate::untrusted::csv_cell(&row.bot).into_owned(),
                row.replies.to_string(),
                c50,
                c99,
                cmax,
                w50,
                w99,
                wmax,
            ])
            .expect("writing CSV to memory");
        }
        w.into_inner().expect("flushing CSV to memory")
    }
}

/// `[p50, p99, max]` in milliseconds (nearest rank), or nothing for no values.
fn summary(values: &[u64]) -> Option<[f64; 3]> {
    if values.is_empty() {
        return None;
    }
    let mut sorted = values.to_vec();
    sorted.sort_unstable();
    let rank =
        |p: f64| sorted[((p * sorted.len() as f64).ceil() as usize).clamp(1, sorted.len()) - 1];
    let ms = |us: u64| us as f64 / 1000.0;
    Some([
        ms(rank(0.5)),
        ms(rank(0.99)),
        ms(*sorted.last().expect("not empty")),
    ])
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::record::ReplyTimes;

    #[test]
    fn percentiles_are_nearest_rank_in_milliseconds() {
        let values: Vec<u64> = (1..=100).map(|i| i * 1000).collect();
        assert_eq!(summary(&values), Some([50.0, 99.0, 100.0]));
        assert_eq!(summary(&[1500]), Some([1.5, 1.5, 1.5]));
        assert_eq!(summary(&[]), None);
    }

    #[test]
    fn reply_times_are_gathered_per_bot_across_games() {
        let record = |wall: Vec<u64>, cpu: Vec<u64>| GameRecord {
            players: vec!["a".into(), "b".into()],
            builtin: vec![false, true],
            rounds: vec![crate::record::RoundRecord {
                rows: [1, 2, 3, 4],
                ..Default::default()
            }],
            replies: vec![ReplyTimes {
                seat: 0,
                wall_us: wall,
                cpu_us: cpu,
            }],
            ..GameRecord::default()
        };
        let mut stats = ReplyStats::default();
        stats.add(&record(vec![2000, 4000], vec![1000, 3000]));
        stats.add(&record(vec![6000], vec![5000]));
        let csv = String::from_utf8(stats.csv()).unwrap();
        let lines: Vec<&str> = csv.lines().collect();
        assert_eq!(lines.len(), 2, "{csv}");
        assert_eq!(lines[1], "a,3,3.000,5.000,5.000,4.000,6.000,6.000");
        let mut wall_only = ReplyStats::default();
        wall_only.add(&record(vec![1000], vec![]));
        assert!(
            String::from_utf8(wall_only.csv())
                .unwrap()
                .ends_with("a,1,,,,1.000,1.000,1.000\n")
        );
    }
}

#[cfg(test)]
mod csv_tests {
    use super::*;

    #[test]
    fn names_with_commas_and_quotes_keep_their_row() {
        let mut stats = ReplyStats::default();
        for name in ["a,b", "say \"hi\"", "=cmd"] {
            stats
                .bots
                .insert(name.into(), (vec![1000, 2000], vec![500]));
        }
        let csv = stats.csv();
        let mut reader = csv::Reader::from_reader(&csv[..]);
        let rows: Vec<csv::StringRecord> = reader.records().map(Result::unwrap).collect();
        assert_eq!(rows.len(), 3);
        assert!(rows.iter().all(|r| r.len() == 8), "{rows:?}");
        let names: Vec<&str> = rows.iter().map(|r| &r[0]).collect();
        assert_eq!(names, ["'=cmd", "a,b", "say \"hi\""]);
    }
}
