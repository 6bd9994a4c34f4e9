//! The series facts the report shows, read back from `series.toml`, so `take6 leaderboard` can
//! rebuild the report of any series folder. Keys this version does not know (a sandbox table,
//! a bot repository's commit, …) are kept and shown as they are.

use std::collections::BTreeMap;
use std::path::Path;

use serde::Deserialize;

/// What `series.toml` says about a series; every field is optional so an older or partial
/// manifest still gives a report.
#[derive(Debug, Clone, Default, Deserialize)]
#[serde(default)]
pub struct SeriesFacts {
    pub series: String,
    pub controller_version: String,
    pub status: String,
    pub started: String,
    pub finished: Option<String>,
    /// A number up to 64 bits, a string above (see [`crate::seed::Seed`]).
    pub seed: Option<crate::seed::Seed>,
    pub games_planned: u64,
    pub games_played: u64,
    pub subsets: u64,
    pub games_per_subset: u64,
    /// `single`, `all` or `balanced` (empty in manifests older than schedules).
    pub schedule: String,
    /// Whether deals were played in every rotation of the seats.
    pub duplicate: bool,
    /// Distinct tables (deals under duplicate deals).
    pub tables: u64,
    /// Under `balanced`: how many games each bot and each pair got.
    pub balance: Option<FactBalance>,
    /// As JSON values, which hold any `u64` (the seed is among them, a string when larger).
    pub settings: BTreeMap<String, serde_json::Value>,
    pub bots: Vec<FactBot>,
    pub builtins: Vec<String>,
    pub skipped: Vec<FactSkipped>,
    /// Everything else, shown under "More".
    #[serde(flatten)]
    pub other: BTreeMap<String, toml::Value>,
    /// The game `settings` names, when this take6 knows it: found by whoever reads the facts
    /// (the registry is above the records), `None` otherwise (the records' game is used).
    #[serde(skip)]
    pub game: Option<crate::game::GameRef>,
}

/// How even a balanced schedule came out: games per bot, and games per pair of bots.
#[derive(Debug, Clone, Default, Deserialize)]
#[serde(default)]
pub struct FactBalance {
    /// The fewest and most games a bot plays.
    pub games_min: u64,
    pub games_max: u64,
    /// The fewest and most games two bots share (absent when not computed).
    pub pairs_min: Option<u64>,
    pub pairs_max: Option<u64>,
}

/// A bot that took part, with the SHA-256 of its folder.
#[derive(Debug, Clone, Default, Deserialize)]
#[serde(default)]
pub struct FactBot {
    pub name: String,
    pub hash: String,
    pub source: String,
    pub template: String,
    /// The language take6 wrote its launch for, if it did.
    pub generated: Option<FactGenerated>,
    /// What its `bot.toml` says of it.
    #[serde(flatten)]
    pub about: crate::bots::About,
}

/// The launch take6 wrote for a bot: its language.
#[derive(Debug, Clone, Default, Deserialize)]
#[serde(default)]
pub struct FactGenerated {
    pub language: Option<crate::bots::generate::Language>,
}

/// A bot that could not take part, and why.
#[derive(Debug, Clone, Default, Deserialize)]
#[serde(default)]
pub struct FactSkipped {
    pub name: String,
    pub reason: String,
}

impl SeriesFacts {
    /// The repository the bots came from, as given with its revision (`../koth-bots@v2`),
    /// and the commit played, if they came from one.
    fn repository(&self) -> Option<(String, String)> {
        let r = self.settings.get("bots_repository")?;
        let source = r.get("source")?.as_str()?;
        let shown = match r.get("rev").and_then(serde_json::Value::as_str) {
            Some(rev) => format!("{source}@{rev}"),
            None => source.to_string(),
        };
        let commit = r.get("commit").and_then(serde_json::Value::as_str);
        Some((shown, commit.unwrap_or_default().to_string()))
    }

    /// Where a bot's folder (`source`, recorded absolute) is, as the host named the bots: in
    /// the repository at its revision (`../koth-bots@v2:alice`), or under the bots folder as
    /// given (`bots/alice`); never the machine's absolute path (a report is published).
    pub fn source_shown(&self, source: &str) -> String {
        let folder = Path::new(source)
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_default();
        if let Some((repo, _)) = self.repository() {
            return format!("{repo}:{folder}");
        }
        let Some(bots) = self
            .settings
            .get("bots")
            .and_then(serde_json::Value::as_str)
        else {
            return folder;
        };
        // `--bots path/to/onebot`: the bot's own folder is the bots setting.
        if Path::new(source).ends_with(bots) {
            bots.to_string()
        } else {
            Path::new(bots).join(folder).display().to_string()
        }
    }

    /// A setting as the report shows it: text without JSON's quotes, the bots of a repository
    /// as the repository at its revision (not the cache they were checked out in), the
    /// repository with its commit.
    pub fn setting_shown(&self, key: &str, value: &serde_json::Value) -> String {
        match (key, self.repository()) {
            ("bots", Some((repo, _))) => repo,
            ("bots_repository", Some((repo, commit))) => format!("{repo}, commit {commit}"),
            // A game folder is recorded by its absolute path: the page names the folder only.
            ("game", _) if value.as_str().is_some_and(|t| t.starts_with('/')) => {
                let path = std::path::Path::new(value.as_str().unwrap_or_default());
                let name = path.file_name().map(|n| n.to_string_lossy().into_owned());
                format!("{} (a game folder)", name.unwrap_or_default())
            }
            _ => match value {
                serde_json::Value::String(text) => text.clone(),
                other => other.to_string(),
            },
        }
    }

    /// Whether the series' reply limits were given (flags, take6.toml) rather than left to the
    /// game's per-language ones.
    pub fn limits_given(&self) -> bool {
        (self.settings.get("limits_given")).is_some_and(|v| v.as_bool() == Some(true))
    }

    /// The series' reply limits as recorded (`first_reply_ms`, `reply_ms`).
    pub fn reply_limits(&self) -> crate::player::Limits {
        let ms = |key: &str, default: u64| {
            let v = self.settings.get(key).and_then(serde_json::Value::as_u64);
            std::time::Duration::from_millis(v.unwrap_or(default))
        };
        crate::player::Limits {
            first_reply: ms("first_reply_ms", 1000),
            reply: ms("reply_ms", 1000),
            reply_given: self.limits_given(),
            ..crate::player::Limits::default()
        }
    }

    /// Reads the facts from the text of `series.toml`; a manifest that cannot be read gives a
    /// report that says so rather than no report.
    pub fn from_manifest(text: &str) -> SeriesFacts {
        toml::from_str(text).unwrap_or_else(|e| {
            let mut facts = SeriesFacts::default();
            facts.other.insert(
                "series.toml".into(),
                toml::Value::String(format!("could not be read: {e}")),
            );
            facts
        })
    }

    /// The seed as text.
    pub fn seed_text(&self) -> String {
        self.seed
            .map_or_else(|| "unknown".to_string(), |s| s.to_string())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn seeds_above_i64_max_are_read() {
        let facts = SeriesFacts::from_manifest(
            "seed = 14433897997425576219\n[settings]\nseed = 14433897997425576219\n",
        );
        assert_eq!(facts.seed_text(), "14433897997425576219");
        assert_eq!(facts.settings["seed"], 14433897997425576219u64);
        assert!(facts.other.is_empty());
    }

    #[test]
    fn a_manifest_is_read_with_unknown_tables_kept() {
        let facts = SeriesFacts::from_manifest(
            "series = \"s1\"\nseed = 7\nstatus = \"complete\"\n[settings]\ngames = 3\n\
             [sandbox]\nmode = \"none\"\n[[bots]]\nname = \"a\"\nhash = \"ff\"\n\
             [[skipped]]\nname = \"b\"\nreason = \"no launch\"\n",
        );
        assert_eq!(facts.series, "s1");
        assert_eq!(facts.seed_text(), "7");
        assert_eq!(facts.bots[0].hash, "ff");
        assert_eq!(facts.skipped[0].reason, "no launch");
        assert!(facts.other.contains_key("sandbox"));
        let broken = SeriesFacts::from_manifest("this is = = not toml");
        assert!(
            broken.other["series.toml"]
                .to_string()
                .contains("could not")
        );
    }
}
