//! What `take6 run --resume` accepts: the recorded settings with only harmless flags changed,
//! and every bot's folder unchanged since the series began (its working copy is kept).

use std::path::Path;

use super::SeriesError;
use super::continued::{Continued, Kept, Refusal, Why, unchanged};
use super::manifest::Manifest;
use crate::bots::Bot;
use crate::config::{RunArgs, Settings};

/// A resume refused for `why`.
pub(super) fn refused(why: Why) -> Refusal {
    Refusal {
        run: Continued::Series,
        why,
    }
}

/// Settings a resume may change: they do not change any game.
const MAY_CHANGE: [&str; 9] = [
    // Its sets' content is what matters, and `same_wires` checks it bot by bot.
    "templates",
    "allow_skips",
    "jobs",
    "pin_tables",
    "build_timeout_s",
    "max_bot_mib",
    "results",
    "config",
    "seed_given",
];

/// The settings of the resumed series: the recorded ones, with the flags given now; refused
/// when a flag would change the games.
pub fn settings(
    args: &RunArgs,
    manifest: &Manifest,
    origin: Option<&Path>,
) -> Result<Settings, SeriesError> {
    // A templates folder recorded relative to where the series began is not this working
    // directory's: left out when it is not here, the sets are found as a new series would
    // find them, and their content is checked against the recorded fingerprints.
    let mut recorded = manifest.settings.clone();
    if let Some(t) = recorded
        .get("templates")
        .and_then(serde_json::Value::as_str)
    {
        let t = Path::new(t);
        match origin.filter(|_| t.is_relative()).map(|o| o.join(t)) {
            Some(there) if there.is_dir() => {
                recorded.insert("templates".into(), there.to_string_lossy().into());
            }
            _ if !t.is_dir() => {
                recorded.remove("templates");
            }
            _ => {}
        }
    }
    let args = same_repository(args, &recorded)?;
    let settings = Settings::resolve_recorded(&args, &recorded)
        .map_err(|e| refused(Why::Record(e.to_string())))?;
    let now = super::manifest::settings_map(&settings);
    let mut keys: Vec<&String> = manifest.settings.keys().chain(now.keys()).collect();
    keys.sort();
    keys.dedup();
    let show = |v: Option<&serde_json::Value>| v.map(|v| v.to_string());
    let kept: Vec<Kept> = keys
        .into_iter()
        .filter(|k| !MAY_CHANGE.contains(&k.as_str()))
        .map(|k| Kept {
            key: k.clone(),
            flag: None,
            was: show(manifest.settings.get(k)),
            now: show(now.get(k)),
        })
        .collect();
    unchanged(Continued::Series, &kept)?;
    Ok(settings)
}

/// The flags of a resume of a series whose bots came from a git repository: `--bots` naming
/// that repository at the revision recorded (as the series was begun) is the series' own
/// setting and is dropped; naming another repository or revision is refused, naming both.
fn same_repository(
    args: &RunArgs,
    recorded: &serde_json::Map<String, serde_json::Value>,
) -> Result<RunArgs, SeriesError> {
    let mut args = args.clone();
    let Some(repository) = recorded
        .get("bots_repository")
        .and_then(|v| serde_json::from_value::<crate::repo::BotsRepository>(v.clone()).ok())
    else {
        return Ok(args);
    };
    let Some(given) = args.table.bots.as_deref() else {
        return Ok(args);
    };
    let same = crate::repo::parse(given).is_some_and(|(source, rev)| {
        crate::repo::same_source(&source, &repository.source)
            && (rev == repository.rev
                || rev.is_some_and(|r| r.len() >= 7 && repository.commit.starts_with(&r)))
    });
    if !same {
        return Err(refused(Why::OtherRepository {
            shown: crate::repo::shown(&repository),
            commit: repository.commit,
            given: given.to_path_buf(),
        })
        .into());
    }
    args.table.bots = None;
    Ok(args)
}

/// The working directory the series began in, when its paths were recorded relative to it:
/// the folder whose recorded `results` (e.g. `results`) is the series folder's parent (or, for
/// a check's or a play's series, its grandparent). `--resume` from another working directory
/// finds the bots and templates there.
pub fn origin(manifest: &Manifest, dir: &Path) -> Option<std::path::PathBuf> {
    let results = Path::new(manifest.settings.get("results")?.as_str()?);
    if results.is_absolute() {
        return None;
    }
    let depth = results.components().count();
    let dir = std::fs::canonicalize(dir).ok()?;
    dir.ancestors().skip(1).take(2).find_map(|holder| {
        let base = holder.ancestors().nth(depth)?;
        let same = std::fs::canonicalize(base.join(results)).ok()? == holder;
        same.then(|| base.to_path_buf())
    })
}

/// The series' bots with their kept working copies; refused, naming the bot, when a bot's
/// folder is gone or its content changed.
pub fn bots(manifest: &Manifest, dir: &Path, settings: &Settings) -> Result<Vec<Bot>, SeriesError> {
    let mut out = Vec::new();
    let origin = origin(manifest, dir);
    for b in &manifest.bots {
        // A folder recorded relative to where the series began, resumed from elsewhere.
        let source = match &origin {
            Some(o) if b.source.is_relative() && !b.source.exists() => o.join(&b.source),
            _ => b.source.clone(),
        };
        let hash = crate::folder::scan(&source, settings.max_bot_bytes())
            .and_then(|listing| listing.hash())
            .map_err(|e| {
                refused(Why::Bot {
                    name: b.name.clone(),
                    reason: format!(
                        "cannot read its folder {} ({e}); it must be there, unchanged, to resume",
                        b.source.display()
                    ),
                })
            })?;
        if hash != b.hash {
            return Err(refused(Why::BotChanged {
                name: b.name.clone(),
                folder: b.source.clone(),
            })
            .into());
        }
        let workdir = std::path::absolute(dir.join("work").join(&b.name))
            .map_err(super::dir::read_err(dir))?;
        // After a crash the working copy may be in its disk image only. Both are looked at
        // from the series folder's descriptor: `work`, the copy or the image being a link
        // (to a host folder, say) is refused, and nothing of it is used.
        let there = crate::door::working_copy_there(&workdir, &crate::sandbox::image_of(&workdir))
            .map_err(|e| {
                refused(Why::Bot {
                    name: b.name.clone(),
                    reason: format!(
                        "its working copy cannot be used: {}",
                        crate::untrusted::terminal(&e.to_string())
                    ),
                })
            })?
            .any();
        if !there {
            return Err(refused(Why::Bot {
                name: b.name.clone(),
                reason: format!("its working copy {} is gone", workdir.display()),
            })
            .into());
        }
        let modes = crate::bots::Manifest::peek(&source)
            .map(|m| m.modes)
            .unwrap_or_default();
        out.push(Bot {
            name: b.name.clone(),
            source,
            workdir,
            hash,
            template: Manifest::template_of(b),
            generated: b.generated.clone(),
            about: b.about.clone(),
            modes,
            warnings: Vec::new(),
        });
    }
    Ok(out)
}

/// Refuses, naming the bot and its wire (a template set and the set's file), when a bot's
/// words on the wire no longer say what they said when the series began (its set's file in
/// the templates folder was edited, or this take6 ships another version of a built-in set):
/// the rest of the games would speak another protocol than the first.
pub fn same_wires(manifest: &Manifest, bots: &[super::lineup::Entrant]) -> Result<(), SeriesError> {
    for (bot, wire) in bots {
        let Some(wire) = wire else { continue };
        let kept = manifest
            .bots
            .iter()
            .find(|b| b.name == bot.name)
            .and_then(|b| b.template_hash.as_deref());
        if kept.is_some_and(|hash| hash != &*wire.fingerprint) {
            return Err(refused(Why::Bot {
                name: bot.name.clone(),
                reason: format!(
                    "its {} changed since the series began; put it back as it was, or start \
                     a new series",
                    wire.shown
                ),
            })
            .into());
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn manifest(settings: &Settings) -> Manifest {
        let dir = super::super::SeriesDir {
            id: "s".into(),
            path: "results/s".into(),
        };
        Manifest::new(&dir, settings, &[], &[], &[], None)
    }

    fn recorded() -> Settings {
        let args = RunArgs {
            games: Some(30),
            jobs: Some(2),
            table: crate::config::TableArgs {
                seed: Some(7.into()),
                config: Some("/dev/null".into()),
                ..Default::default()
            },
            ..RunArgs::default()
        };
        Settings::resolve(&args).unwrap()
    }

    #[test]
    fn the_recorded_settings_come_back_and_only_harmless_flags_may_change() {
        let m = manifest(&recorded());
        let mut args = RunArgs {
            jobs: Some(5),
            ..RunArgs::default()
        };
        let s = settings(&args, &m, None).unwrap();
        assert_eq!((s.games, s.seed, s.jobs), (30, 7.into(), 5));
        assert_eq!(s.reply_ms, recorded().reply_ms);

        args.games = Some(31);
        args.table.first_reply_ms = Some(10);
        let err = settings(&args, &m, None).unwrap_err().to_string();
        assert!(
            err.contains("games is 30 in the series, 31 now")
                && err.contains("first_reply_ms is 3000 in the series, 10 now"),
            "{err}"
        );
    }
}
