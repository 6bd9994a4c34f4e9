//! A run continued from its folder: a series resumed (`take6 run --resume`), a league's next
//! run, a compare continued. One rule of what such a run may not change (the settings that
//! make its games, the game's code, its bots' folders), and each refusal as a value with the
//! fix it tells.

use std::path::PathBuf;

/// Which kind of run is continued: it names the run and its record in a refusal, and the fix.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Continued {
    Series,
    League,
    Compare,
}

impl Continued {
    /// What is refused: "resume", "continue the league".
    fn verb(self) -> &'static str {
        match self {
            Continued::Series => "resume",
            Continued::League => "continue the league",
            Continued::Compare => "continue the compare",
        }
    }

    /// The run, as a noun.
    fn noun(self) -> &'static str {
        match self {
            Continued::Series => "series",
            Continued::League => "league",
            Continued::Compare => "compare",
        }
    }

    /// The file that records it.
    fn record(self) -> &'static str {
        match self {
            Continued::Series => "series.toml",
            Continued::League => "league.toml",
            Continued::Compare => "compare.toml",
        }
    }

    /// The way out that always works.
    fn fresh(self) -> &'static str {
        match self {
            Continued::Series => "start a new series",
            Continued::League => "begin another league with --league DIR",
            Continued::Compare => "begin a new compare",
        }
    }
}

/// A continued run refused before anything is played, and why.
#[derive(Debug, thiserror::Error)]
#[error("cannot {}: {}", .run.verb(), .why.text(*.run))]
pub struct Refusal {
    pub run: Continued,
    pub why: Why,
}

/// Why a continued run is refused.
#[derive(Debug)]
pub enum Why {
    /// Settings that would make other games than the recorded ones, each said as
    /// `KEY is WAS in the RUN, NOW now` (with the flag that cannot change it, where one
    /// does).
    Changed(Vec<String>),
    /// The game folder's judge or `game.toml` is not what the run began with.
    GameChanged {
        spec: String,
        now: String,
        was: String,
    },
    /// The game's own code cannot be read or prepared.
    Game(String),
    /// A bot's folder changed since the run began.
    BotChanged { name: String, folder: PathBuf },
    /// A bot cannot play on as it did (its folder unreadable, its working copy gone or not
    /// usable, its words on the wire changed).
    Bot { name: String, reason: String },
    /// The run's record cannot be read or its settings not resolved.
    Record(String),
    /// The series had no usable bot: nothing was played.
    NoUsableBot,
    /// A game at the keyboard (`take6 play`).
    AtTheKeyboard,
    /// Its `games.jsonl` does not verify: nothing more may be added to it.
    UnsoundLog { problem: String, dir: PathBuf },
    /// The bots came from a git repository at a revision, and another is named now.
    OtherRepository {
        shown: String,
        commit: String,
        given: PathBuf,
    },
    /// The bots' repository cannot be checked out again at the recorded commit.
    Repository(String),
    /// Bots of a league whose folders are not in the bots folder given.
    BotsLeft {
        bots: Vec<String>,
        folder: PathBuf,
        league: PathBuf,
    },
    /// A league whose batches were chosen by a chooser this take6 does not have.
    Chooser {
        chooser: String,
        version: String,
        known: String,
    },
}

impl Why {
    fn text(&self, run: Continued) -> String {
        let (noun, fresh) = (run.noun(), run.fresh());
        match self {
            Why::Changed(changes) => format!(
                "these settings would change the games: {}; continue without them, or {fresh}",
                changes.join("; ")
            ),
            Why::GameChanged { spec, now, was } => format!(
                "the game folder {spec} changed since the {noun} began (its judge and game.toml: \
                 SHA-256 {now}, {} records {was}); put it back as it was, or {fresh}",
                run.record()
            ),
            Why::Game(why) => format!("the game folder cannot be used: {why}"),
            // A bot's name and folder come from the run's record, a file in a results
            // folder: shown through the terminal's door.
            Why::BotChanged { name, folder } => format!(
                "bot {} changed since the {noun} began ({} has other content); put it back \
                 as it was, or {fresh}",
                crate::untrusted::terminal(name),
                crate::untrusted::terminal(&folder.display().to_string())
            ),
            Why::Bot { name, reason } => format!(
                "bot {}: {}",
                crate::untrusted::terminal(name),
                crate::untrusted::terminal_text(reason)
            ),
            Why::Record(why) => why.clone(),
            Why::NoUsableBot => format!("the {noun} had no usable bot; {fresh}"),
            Why::AtTheKeyboard => "a game at the keyboard (take6 play) cannot be resumed".into(),
            Why::UnsoundLog { problem, dir } => {
                format!("{problem} (see take6 verify {})", dir.display())
            }
            Why::OtherRepository {
                shown,
                commit,
                given,
            } => format!(
                "the {noun} plays the bots of {shown} (commit {commit}), and --bots names {}; \
                 continue without --bots, or {fresh}",
                given.display()
            ),
            Why::Repository(why) => why.clone(),
            Why::BotsLeft {
                bots,
                folder,
                league,
            } => format!(
                "{} of the league {} not in {}: {}; they would leave the league (and their \
                 private storage be wiped). Give --bots with the folder that holds them, or \
                 --withdraw to let them leave (league {})",
                crate::names::count(bots.len() as u64, "bot"),
                if bots.len() == 1 { "is" } else { "are" },
                folder.display(),
                bots.join(", "),
                league.display()
            ),
            Why::Chooser {
                chooser,
                version,
                known,
            } => format!(
                "the league's batches were chosen by take6's chooser {chooser} (take6 {version}), \
                 this take6 chooses by choosers {known} only: its next batches would not follow \
                 from the rules of its earlier ones; continue it with the take6 that made it, or \
                 {fresh}"
            ),
        }
    }
}

/// One setting a continued run keeps as it began: its key, the flag that sets it (when one
/// does), and its value then and now (`None`: unset), as people read them.
pub struct Kept {
    pub key: String,
    pub flag: Option<&'static str>,
    pub was: Option<String>,
    pub now: Option<String>,
}

impl Kept {
    /// The setting `key`, set by `flag`, recorded as `was`: changed when `now` is given and
    /// differs.
    pub fn flag(
        key: &str,
        flag: &'static str,
        was: impl ToString,
        now: Option<impl ToString>,
    ) -> Kept {
        Kept {
            key: key.to_string(),
            flag: Some(flag),
            was: Some(was.to_string()),
            now: now.map(|n| n.to_string()),
        }
    }
}

/// The one rule of a continued run: every setting in `kept` whose value now differs from the
/// recorded one is said (`KEY is WAS in the RUN, NOW now`), all at once, and the run refused.
pub fn unchanged(run: Continued, kept: &[Kept]) -> Result<(), Refusal> {
    let shown = |v: &Option<String>| v.clone().unwrap_or_else(|| "(none)".into());
    let changes: Vec<String> = kept
        .iter()
        .filter(|k| k.now.is_some() || k.flag.is_none())
        .filter(|k| k.was != k.now)
        .map(|k| {
            let line = format!(
                "{} is {} in the {}, {} now",
                k.key,
                shown(&k.was),
                run.noun(),
                shown(&k.now)
            );
            match k.flag {
                Some(flag) => format!("{line} ({flag} cannot change it)"),
                None => line,
            }
        })
        .collect();
    if changes.is_empty() {
        return Ok(());
    }
    Err(Refusal {
        run,
        why: Why::Changed(changes),
    })
}

/// The game's code (a game folder's judge and `game.toml`) is what the run began with, as a
/// bot's folder must be: refused when its hash differs from the recorded `was`; the hash now
/// (recorded by a run from before the hash was kept).
pub fn same_game(
    run: Continued,
    game: &crate::game::GameRef,
    was: Option<&str>,
) -> Result<Option<String>, Refusal> {
    let now = game.content_hash().map_err(|e| Refusal {
        run,
        why: Why::Game(e),
    })?;
    match (was, &now) {
        (Some(was), Some(now)) if was != now => Err(Refusal {
            run,
            why: Why::GameChanged {
                spec: game.spec(),
                now: now.clone(),
                was: was.to_string(),
            },
        }),
        _ => Ok(now),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_changed_setting_is_said_with_its_flag_and_the_fix() {
        let kept = [
            Kept::flag("rounds", "--rounds", 3, Some(5)),
            Kept::flag("players", "--players", 4, None::<u32>),
            Kept::flag("batch", "--batch", 8, Some(8)),
            Kept {
                key: "games".into(),
                flag: None,
                was: Some("30".into()),
                now: Some("31".into()),
            },
        ];
        let err = unchanged(Continued::League, &kept).unwrap_err().to_string();
        assert!(
            err.starts_with("cannot continue the league: these settings would change the games"),
            "{err}"
        );
        assert!(
            err.contains("rounds is 3 in the league, 5 now (--rounds cannot change it)"),
            "{err}"
        );
        assert!(err.contains("games is 30 in the league, 31 now"), "{err}");
        // A flag not given keeps the recorded value; one given as it was changes nothing.
        assert!(!err.contains("players") && !err.contains("batch"), "{err}");
        assert!(
            err.ends_with("or begin another league with --league DIR"),
            "{err}"
        );
        assert!(unchanged(Continued::Series, &kept[1..3]).is_ok());
    }

    #[test]
    fn a_setting_without_a_flag_that_appears_or_goes_is_a_change() {
        let gone = Kept {
            key: "templates".into(),
            flag: None,
            was: Some("t".into()),
            now: None,
        };
        let err = unchanged(Continued::Series, &[gone])
            .unwrap_err()
            .to_string();
        assert!(
            err.contains("templates is t in the series, (none) now")
                && err.starts_with("cannot resume: "),
            "{err}"
        );
    }
}
