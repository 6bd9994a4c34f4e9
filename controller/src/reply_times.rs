//! `reply_times.csv`: per bot, how long its replies took (median, 99th percentile, maximum; CPU
//! time of its tree and wall time), from the reply times in the game records, so the same
//! file can be made again from `games.jsonl`.

use std::collections::BTreeMap;

use crate::record::GameRecord;

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

    /// The CSV: `bot,replies,cpu_p50_ms,cpu_p99_ms,cpu_max_ms,wall_p50_ms,wall_p99_ms,wall_max_ms`;
    /// CPU columns are empty for a bot whose CPU time was not measured.
    pub fn csv(&self) -> String {
        let mut out = String::from(
            "bot,replies,cpu_p50_ms,cpu_p99_ms,cpu_max_ms,wall_p50_ms,wall_p99_ms,wall_max_ms\n",
        );
        for (name, (wall, cpu)) in &self.bots {
            out.push_str(&format!(
                "{name},{},{},{}\n",
                wall.len(),
                summary(cpu),
                summary(wall)
            ));
        }
        out
    }
}

/// `p50,p99,max` in milliseconds (nearest rank), or three empty fields.
fn summary(values: &[u64]) -> String {
    if values.is_empty() {
        return ",,".into();
    }
    let mut sorted = values.to_vec();
    sorted.sort_unstable();
    let rank =
        |p: f64| sorted[((p * sorted.len() as f64).ceil() as usize).clamp(1, sorted.len()) - 1];
    let ms = |us: u64| format!("{:.3}", us as f64 / 1000.0);
    format!(
        "{},{},{}",
        ms(rank(0.5)),
        ms(rank(0.99)),
        ms(*sorted.last().expect("not empty"))
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::record::ReplyTimes;

    #[test]
    fn percentiles_are_nearest_rank_in_milliseconds() {
        let values: Vec<u64> = (1..=100).map(|i| i * 1000).collect();
        assert_eq!(summary(&values), "50.000,99.000,100.000");
        assert_eq!(summary(&[1500]), "1.500,1.500,1.500");
        assert_eq!(summary(&[]), ",,");
    }

    #[test]
    fn reply_times_are_gathered_per_bot_across_games() {
        let record = |wall: Vec<u64>, cpu: Vec<u64>| GameRecord {
            rules: crate::game::GameRef::default_game(),
            kingdomino: None,
            body: None,
            void: None,
            game: 0,
            seed: 0,
            subset: 0,
            rotation: 0,
            players: vec!["a".into(), "b".into()],
            builtin: vec![false, true],
            hands: vec![],
            rows: [1, 2, 3, 4],
            turns: vec![],
            invalid: vec![],
            cows: vec![],
            penalty: vec![],
            scores: vec![],
            rounds: vec![],
            totals: None,
            ms: 0,
            replies: vec![ReplyTimes {
                seat: 0,
                wall_us: wall,
                cpu_us: cpu,
            }],
        };
        let mut stats = ReplyStats::default();
        stats.add(&record(vec![2000, 4000], vec![1000, 3000]));
        stats.add(&record(vec![6000], vec![5000]));
        let csv = stats.csv();
        let lines: Vec<&str> = csv.lines().collect();
        assert_eq!(lines.len(), 2, "{csv}");
        assert_eq!(lines[1], "a,3,3.000,5.000,5.000,4.000,6.000,6.000");
        let mut wall_only = ReplyStats::default();
        wall_only.add(&record(vec![1000], vec![]));
        assert!(wall_only.csv().ends_with("a,1,,,,1.000,1.000,1.000\n"));
    }
}
