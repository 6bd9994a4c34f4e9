//! A bot folder's `bot.toml`, read into one typed [`Manifest`]: the template set it speaks,
//! the games it plays, the modes it chooses of those a game offers, and what its author says
//! of it. Read through the door, from the bot's folder, once as the bot is staged; discovery
//! peeks at a folder's games the same way.

use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};

use super::Unusable;
use crate::folder::{self, Kind, Listing};

/// The optional per-bot settings file.
pub const BOT_TOML: &str = "bot.toml";
/// A bot's own template set, used when its `bot.toml` names none.
pub const BOT_TEMPLATE: &str = "template.toml";

/// Largest `bot.toml` read: it holds a few short keys.
pub(super) const BOT_TOML_CAP: u64 = 64 * 1024;

/// The keys `bot.toml` knows, for its messages.
const BOT_TOML_KEYS: &str =
    "template, games, keep_running, simple_io, author, description, url, version";

/// Which message templates a bot speaks.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum TemplateChoice {
    /// A set from the template folder or built in, by name.
    Set(String),
    /// The bot's own `template.toml`, in its folder (where its author would fix an error).
    File(PathBuf),
}

/// `bot.toml` as written: per-bot settings, and what its author says of it. A key it does
/// not know is a warning (an entrant's own metadata), not a reason to skip the bot.
#[derive(Debug, Default, Deserialize)]
struct BotToml {
    /// The template set the bot speaks, e.g. `codingame`.
    template: Option<String>,
    /// The games the bot plays, e.g. `["kingdomino"]`; absent: whatever the series plays.
    games: Option<Vec<String>>,
    /// A Botzone bot's "keep running" option: it may ask to be kept running between its
    /// turns (its input then stays open after each request). Absent: false, as on Botzone.
    keep_running: Option<bool>,
    /// A Botzone bot's "simple interaction" option: it reads and writes plain lines, which the
    /// game's `[simpleio]` functions convert. Absent: false (JSON), as on Botzone.
    simple_io: Option<bool>,
    /// Who wrote it; shown in the report, changes nothing.
    author: Option<String>,
    /// What it does, in a line; shown in the report.
    description: Option<String>,
    /// Where to read more (its repository, a write-up); shown in the report.
    url: Option<String>,
    /// Its version; shown in the report.
    version: Option<String>,
    /// Any other key: said in a warning, otherwise ignored.
    #[serde(flatten)]
    unknown: std::collections::BTreeMap<String, toml::Value>,
}

/// What a bot's author says of it in its `bot.toml` (`author`, `description`, `url`,
/// `version`): recorded in `series.toml` and shown in the report; it changes no game.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct About {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub author: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub description: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub url: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub version: Option<String>,
}

/// What a bot's `bot.toml` chose of the modes a game may offer (Botzone's bot settings):
/// read once, as the bot is prepared, and carried to its tables; a bot without `bot.toml`
/// chooses none.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Modes {
    /// `keep_running = true`: kept running between its turns, where the game allows it.
    pub keep_running: bool,
    /// `simple_io = true`: the game's simple interaction instead of JSON.
    pub simple_io: bool,
}

/// A bot folder's `bot.toml`, typed: every key take6 reads, and those it does not know.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Manifest {
    /// The template set it names.
    pub template: Option<String>,
    /// The games it plays; `None`: whatever the series plays.
    pub games: Option<Vec<String>>,
    /// The modes it chooses.
    pub modes: Modes,
    /// What its author says of it.
    pub about: About,
    /// The keys take6 does not know, as written (untrusted).
    pub unknown: Vec<String>,
}

impl From<BotToml> for Manifest {
    fn from(t: BotToml) -> Manifest {
        Manifest {
            template: t.template,
            games: t.games,
            modes: Modes {
                keep_running: t.keep_running.unwrap_or(false),
                simple_io: t.simple_io.unwrap_or(false),
            },
            about: About {
                author: t.author,
                description: t.description,
                url: t.url,
                version: t.version,
            },
            unknown: t.unknown.into_keys().collect(),
        }
    }
}

impl Manifest {
    /// The `bot.toml` of the bot folder `folder`, read through the door, for a look before
    /// the bot is staged (which games it plays) or after (its modes, for a kept working
    /// copy); `None` when it is absent, unreadable or not valid (staging says why).
    pub fn peek(folder: &Path) -> Option<Manifest> {
        let text = folder::read_text(folder, Path::new(BOT_TOML), BOT_TOML_CAP).ok()?;
        toml::from_str::<BotToml>(&text).ok().map(Manifest::from)
    }

    /// The bot's `bot.toml` as it is staged (`listing` is its folder's), or the defaults when
    /// it has none; `known` are the game names its `games` may give (said when they are not
    /// a list of names). One that is not valid makes the folder unusable, saying why.
    pub(super) fn staged(
        folder: &Path,
        listing: &Listing,
        known: &[String],
    ) -> Result<Manifest, Unusable> {
        if !own_file(listing, BOT_TOML)? {
            return Ok(Manifest::default());
        }
        let text = folder::read_text(folder, Path::new(BOT_TOML), BOT_TOML_CAP)
            .map_err(|e| Unusable(e.to_string()))?;
        let raw: BotToml = toml::from_str(&text).map_err(|e| {
            let names: String = known.iter().map(|g| format!("\"{g}\", ")).collect();
            Unusable(format!(
                "bot.toml is not valid (its keys are template = \"<set name>\", games = \
                 [{names}or a game folder's name (the name in its game.toml), ...], for a \
                 Botzone game keep_running = true and simple_io = true, and author, \
                 description, url and version, each a string): {}",
                toml_problem(&text, &e)
            ))
        })?;
        Ok(raw.into())
    }

    /// Whether the bot plays `game`: its `games` name it, or it names none.
    pub fn plays(&self, game: &str) -> bool {
        self.games
            .as_ref()
            .is_none_or(|games| games.iter().any(|n| n == game))
    }

    /// A warning for each key take6 does not know (the key shown through
    /// [`crate::untrusted`]).
    pub fn warnings(&self) -> Vec<String> {
        self.unknown
            .iter()
            .map(|k| {
                format!(
                    "bot.toml: unknown key {} ignored (its keys are {BOT_TOML_KEYS})",
                    crate::untrusted::terminal(k)
                )
            })
            .collect()
    }

    /// The template set the bot speaks: the one its `bot.toml` names, its own
    /// `template.toml` (in `folder`, listed in `listing`), or `default`.
    pub(super) fn template_choice(
        &self,
        folder: &Path,
        listing: &Listing,
    ) -> Result<TemplateChoice, Unusable> {
        let own = folder.join(BOT_TEMPLATE);
        match (&self.template, own_file(listing, BOT_TEMPLATE)?) {
            (Some(set), true) => Err(Unusable(format!(
                "bot.toml names template set '{set}' but the folder also has its own \
                 template.toml; keep one"
            ))),
            (Some(set), false) => Ok(TemplateChoice::Set(set.clone())),
            (None, true) => Ok(TemplateChoice::File(own)),
            (None, false) => Ok(TemplateChoice::Set("default".into())),
        }
    }
}

/// A settings file of the bot's own (`bot.toml`, `template.toml`): absent, or a regular file.
fn own_file(listing: &Listing, name: &str) -> Result<bool, Unusable> {
    match listing.kind_of(name) {
        None => Ok(false),
        Some(Kind::File { size, .. }) if name == BOT_TOML && *size > BOT_TOML_CAP => {
            Err(Unusable(format!(
                "{name} is larger than {} KiB; its only key is template = \"<set name>\"",
                BOT_TOML_CAP / 1024
            )))
        }
        Some(Kind::File { .. }) => Ok(true),
        Some(_) => Err(Unusable(format!(
            "{name} is not a regular file; make it one (links in a bot folder are never followed)"
        ))),
    }
}

/// A TOML error in `text` said with the line it is on: `line L, column C: message`, then the
/// line itself and a caret under the offending part, so that the author sees what to fix
/// without opening the file.
pub fn toml_problem(text: &str, e: &toml::de::Error) -> String {
    let message = e.message().trim();
    let Some(span) = e.span() else {
        return message.to_string();
    };
    let start = span.start.min(text.len());
    let line_start = text[..start].rfind('\n').map_or(0, |i| i + 1);
    let line_end = text[start..].find('\n').map_or(text.len(), |i| start + i);
    let number = text[..start].matches('\n').count() + 1;
    let line = text[line_start..line_end].trim_end_matches('\r');
    let column = text[line_start..start].chars().count();
    let width = text[start..span.end.clamp(start, line_end)]
        .chars()
        .count()
        .max(1);
    let gutter = " ".repeat(number.to_string().len());
    format!(
        "line {number}, column {}: {message}\n  {gutter} |\n  {number} | {line}\n  {gutter} | {}{}",
        column + 1,
        " ".repeat(column),
        "^".repeat(width)
    )
}

#[cfg(test)]
mod tests {
    use std::fs;

    use super::*;

    fn known() -> Vec<String> {
        vec!["take6".into(), "kingdomino".into()]
    }

    /// `bot.toml` in `dir`, as staging reads it, and the template set it chooses.
    fn staged(dir: &Path) -> Result<(Manifest, TemplateChoice), Unusable> {
        let listing = folder::scan(dir, 1 << 20).unwrap();
        let manifest = Manifest::staged(dir, &listing, &known())?;
        let template = manifest.template_choice(dir, &listing)?;
        Ok((manifest, template))
    }

    #[test]
    fn bot_toml_chooses_a_set_and_warns_of_unknown_keys() {
        let tmp = tempfile::tempdir().unwrap();
        fs::write(tmp.path().join(BOT_TOML), "template = \"codingame\"\n").unwrap();
        assert_eq!(
            staged(tmp.path()).map(|(_, t)| t),
            Ok(TemplateChoice::Set("codingame".into()))
        );
        // An unknown key is a warning naming it; the author's metadata is kept.
        fs::write(
            tmp.path().join(BOT_TOML),
            "templat = \"codingame\"\nauthor = \"Alice\"\ndescription = \"lowest card\"\n\
             url = \"https://example.org/alice\"\nversion = \"1.2\"\n",
        )
        .unwrap();
        let (manifest, template) = staged(tmp.path()).unwrap();
        assert_eq!(template, TemplateChoice::Set("default".into()));
        assert_eq!(
            manifest.about,
            About {
                author: Some("Alice".into()),
                description: Some("lowest card".into()),
                url: Some("https://example.org/alice".into()),
                version: Some("1.2".into()),
            }
        );
        let warnings = manifest.warnings();
        assert_eq!(warnings.len(), 1, "{warnings:?}");
        assert!(
            warnings[0].contains("unknown key templat ignored"),
            "{warnings:?}"
        );
        // What discovery peeks at is what staging reads.
        assert_eq!(Manifest::peek(tmp.path()), Some(manifest));
        // A known key of the wrong kind is still an error, naming every game there is.
        fs::write(tmp.path().join(BOT_TOML), "games = 5\n").unwrap();
        let err = staged(tmp.path()).unwrap_err().0;
        assert!(
            err.contains("\"take6\", \"kingdomino\", or a game folder's name"),
            "{err}"
        );
        assert_eq!(Manifest::peek(tmp.path()), None);
        fs::remove_file(tmp.path().join(BOT_TOML)).unwrap();
        fs::write(tmp.path().join(BOT_TEMPLATE), "").unwrap();
        assert_eq!(
            staged(tmp.path()).map(|(_, t)| t),
            Ok(TemplateChoice::File(tmp.path().join(BOT_TEMPLATE)))
        );
    }

    #[test]
    fn modes_and_games_come_from_one_reading() {
        let tmp = tempfile::tempdir().unwrap();
        fs::write(
            tmp.path().join(BOT_TOML),
            "games = [\"kingdomino\"]\nsimple_io = true\n",
        )
        .unwrap();
        let (manifest, _) = staged(tmp.path()).unwrap();
        assert_eq!(
            manifest.modes,
            Modes {
                keep_running: false,
                simple_io: true
            }
        );
        assert!(manifest.plays("kingdomino"));
        assert!(!manifest.plays("take6"));
        assert!(Manifest::default().plays("take6"));
    }
}
