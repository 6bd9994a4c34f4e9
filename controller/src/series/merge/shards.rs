//! The shards a merge is given: each opened and locked, compared with the first, verified and
//! indexed (where each game's line is), before anything is written.

use std::fs::File;
use std::io::{BufRead, BufReader};
use std::path::Path;

use crate::record::{Chain, GameRecord};
use crate::series::dir::{self, GAMES, SeriesDir};
use crate::series::manifest::{Manifest, ManifestBot};
use crate::series::{SeriesError, Status};
use crate::shard::Shard;

/// Settings that may differ between shards: they do not change any game (`bots` is a path;
/// the bots themselves are compared by content hash).
const MAY_DIFFER: [&str; 7] = [
    "jobs",
    "build_timeout_s",
    "results",
    "config",
    "seed_given",
    "shard",
    "bots",
];

/// The offset of a game a shard does not hold.
const ABSENT: u64 = u64::MAX;

/// Missing game numbers listed in a message; more are counted.
const LIST: usize = 12;

/// One shard folder, checked and indexed.
pub(super) struct Part {
    pub(super) dir: SeriesDir,
    pub(super) manifest: Manifest,
    pub(super) shard: Shard,
    /// Held while merging, so no take6 adds games to it meanwhile.
    _lock: File,
    /// Byte offset of game `shard.index + k * shard.count`'s line, by `k` ([`ABSENT`] when the
    /// shard does not hold it): 8 bytes a game, so a hundred million games index in 800 MB.
    pub(super) lines: Vec<u64>,
    /// Complete lines of `games.jsonl` and the chain head after them.
    pub(super) count: u64,
    pub(super) chain: String,
}

pub(super) fn refused(why: String) -> SeriesError {
    SeriesError::MergeRefused(why)
}

impl Part {
    /// Where game `game`'s line starts in the shard's `games.jsonl`, if the shard holds it.
    pub(super) fn offset(&self, game: u64) -> Option<u64> {
        if !self.shard.holds(game) {
            return None;
        }
        let at = *self.lines.get((game / self.shard.count) as usize)?;
        (at != ABSENT).then_some(at)
    }
}

/// Opens, locks and reads one shard folder.
pub(super) fn open(path: &Path) -> Result<Part, SeriesError> {
    let dir = SeriesDir::open(path)?;
    let lock = dir.lock()?;
    let manifest = Manifest::read(&dir.path)?;
    let why = match manifest.status {
        Status::NoUsableBot => Some("it had no usable bot and played no game"),
        _ if manifest.human().is_some() => Some("it is a game at the keyboard (take6 play)"),
        _ => None,
    };
    if let Some(why) = why {
        return Err(refused(format!("{}: {why}", dir.path.display())));
    }
    let shard = manifest.shard().ok_or_else(|| {
        refused(format!(
            "{}: its series.toml records a shard that is not I/N",
            dir.path.display()
        ))
    })?;
    Ok(Part {
        dir,
        manifest,
        shard,
        _lock: lock,
        lines: Vec::new(),
        count: 0,
        chain: String::new(),
    })
}

/// What makes `b` another series than `a`, in words.
pub(super) fn differences(a: &Manifest, b: &Manifest) -> Vec<String> {
    let mut out = Vec::new();
    let mut differ = |what: &str, x: String, y: String| {
        if x != y {
            out.push(format!("{what} {x} here, {y} there"));
        }
    };
    differ(
        "take6 version",
        a.controller_version.clone(),
        b.controller_version.clone(),
    );
    differ("seed", a.seed.to_string(), b.seed.to_string());
    differ(
        "games",
        a.games_planned.to_string(),
        b.games_planned.to_string(),
    );
    let shards = |m: &Manifest| m.shard().map_or(0, |s| s.count);
    differ(
        "number of shards",
        shards(a).to_string(),
        shards(b).to_string(),
    );
    let mut keys: Vec<&String> = a.settings.keys().chain(b.settings.keys()).collect();
    keys.sort();
    keys.dedup();
    for k in keys
        .into_iter()
        .filter(|k| !MAY_DIFFER.contains(&k.as_str()))
    {
        let show = |m: &Manifest| m.settings.get(k).map_or("(none)".into(), |v| v.to_string());
        differ(k, show(a), show(b));
    }
    let names = |m: &Manifest| m.bots.iter().map(|b| b.name.clone()).collect::<Vec<_>>();
    differ("bots", names(a).join(","), names(b).join(","));
    for x in &a.bots {
        let Some(y) = b.bots.iter().find(|y| y.name == x.name) else {
            continue;
        };
        if x.hash != y.hash {
            out.push(format!(
                "bot {} has other content (hash {} here, {} there)",
                x.name,
                &x.hash[..x.hash.len().min(12)],
                &y.hash[..y.hash.len().min(12)]
            ));
        }
        let t = |m: &ManifestBot| format!("{:?}", Manifest::template_of(m));
        if t(x) != t(y) {
            out.push(format!(
                "bot {} speaks template {} here, {} there",
                x.name,
                t(x),
                t(y)
            ));
        }
    }
    out
}

/// Refuses a shard that does not verify (a game folder's judge run as `permit` allows); a
/// torn last line only with `partial`.
pub(super) fn check(
    part: &Part,
    partial: bool,
    permit: &crate::games::JudgePermit,
) -> Result<(), SeriesError> {
    let v = crate::series::verify(&part.dir.path, permit)?;
    let path = part.dir.path.display();
    if let Some(p) = v.problems.iter().find(|p| !p.torn) {
        return Err(refused(format!(
            "shard {} ({path}) does not verify: {p} (see take6 verify {path})",
            part.shard
        )));
    }
    if let Some(p) = v.problems.first().filter(|_| !partial) {
        return Err(refused(format!(
            "shard {} ({path}): {p}; resume it first (take6 run --resume {path}) or merge \
             with --partial",
            part.shard
        )));
    }
    Ok(())
}

/// Finds where each game's line is in the shard's `games.jsonl` (complete lines only).
pub(super) fn index(part: &mut Part) -> Result<(), SeriesError> {
    let path = part.dir.file(GAMES);
    let games = part.shard.games_of(part.manifest.games_planned) as usize;
    part.lines = vec![ABSENT; games];
    let mut reader = match crate::door::open_path(&path) {
        Ok(f) => BufReader::with_capacity(1 << 16, f),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(()),
        Err(e) => return Err(dir::read_err(&path)(e)),
    };
    let mut chain = Chain::start(&part.dir.id);
    let (mut offset, mut line) = (0u64, Vec::new());
    loop {
        line.clear();
        let n = reader
            .read_until(b'\n', &mut line)
            .map_err(dir::read_err(&path))?;
        if n == 0 || line.last() != Some(&b'\n') {
            break;
        }
        let bad = |e: serde_json::Error| SeriesError::Games {
            path: path.clone(),
            reason: format!("line {}: {e}", part.count + 1),
        };
        let record: GameRecord = serde_json::from_slice(&line).map_err(bad)?;
        // Verified: every game is the shard's and within the series.
        let slot = (part.shard.holds(record.game))
            .then(|| {
                part.lines
                    .get_mut((record.game / part.shard.count) as usize)
            })
            .flatten()
            .ok_or_else(|| SeriesError::Games {
                path: path.clone(),
                reason: format!("game {} is not shard {}'s", record.game, part.shard),
            })?;
        *slot = offset;
        chain.append_line(&record, &mut Vec::new());
        part.count += 1;
        offset += n as u64;
    }
    part.chain = chain.head().to_string();
    Ok(())
}

/// "3, 7, 11 and 5 more", or "game 3".
pub(super) fn list(games: &[u64]) -> String {
    let shown: Vec<String> = games.iter().take(LIST).map(u64::to_string).collect();
    let more = games.len().saturating_sub(LIST);
    let games = if games.len() == 1 { "game" } else { "games" };
    match more {
        0 => format!("{games} {}", shown.join(", ")),
        n => format!("{games} {} and {n} more", shown.join(", ")),
    }
}

/// Which shards were not given or are not finished, e.g. "; shard 2/3 was not given".
pub(super) fn absent(parts: &[Part]) -> String {
    let count = parts[0].shard.count;
    let mut out = String::new();
    for index in 0..count {
        let shard = Shard { index, count };
        match parts.iter().find(|p| p.shard == shard) {
            None => out.push_str(&format!("; shard {shard} was not given")),
            Some(p) if p.count < shard.games_of(p.manifest.games_planned) => {
                out.push_str(&format!(
                    "; shard {shard} ({}) holds {} of its {} games (status {:?})",
                    p.dir.path.display(),
                    p.count,
                    shard.games_of(p.manifest.games_planned),
                    p.manifest.status
                ));
            }
            Some(_) => {}
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::config::{RunArgs, Settings, TableArgs};

    fn manifest(args: RunArgs) -> Manifest {
        let dir = SeriesDir {
            id: "s".into(),
            path: "results/s".into(),
        };
        let args = RunArgs {
            table: TableArgs {
                seed: Some(7.into()),
                config: Some("/dev/null".into()),
                ..args.table.clone()
            },
            games: Some(30),
            ..args
        };
        Manifest::new(
            &dir,
            &Settings::resolve(&args).unwrap(),
            &[],
            &[],
            &[],
            None,
        )
    }

    #[test]
    fn shards_may_differ_in_jobs_paths_and_their_index_but_not_in_what_makes_games() {
        let a = manifest(RunArgs {
            shard: Some("0/2".parse().unwrap()),
            jobs: Some(1),
            ..RunArgs::default()
        });
        let b = manifest(RunArgs {
            shard: Some("1/2".parse().unwrap()),
            jobs: Some(8),
            table: TableArgs {
                bots: Some("/elsewhere/bots".into()),
                results: Some("/elsewhere/results".into()),
                ..TableArgs::default()
            },
            ..RunArgs::default()
        });
        assert_eq!(differences(&a, &b), Vec::<String>::new());

        let mut c = manifest(RunArgs {
            shard: Some("1/3".parse().unwrap()),
            table: TableArgs {
                reply_ms: Some(10),
                ..TableArgs::default()
            },
            ..RunArgs::default()
        });
        c.controller_version = "9.9.9".into();
        let diffs = differences(&a, &c).join("; ");
        for says in [
            "take6 version 0.1.0 here, 9.9.9 there",
            "number of shards 2 here, 3 there",
            "reply_ms 1000 here, 10 there",
        ] {
            assert!(diffs.contains(says), "{says} in {diffs}");
        }
    }

    #[test]
    fn missing_games_are_listed_up_to_a_dozen() {
        assert_eq!(list(&[3]), "game 3");
        assert_eq!(list(&[1, 3]), "games 1, 3");
        let many: Vec<u64> = (0..20).collect();
        assert_eq!(
            list(&many),
            "games 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11 and 8 more"
        );
    }
}
