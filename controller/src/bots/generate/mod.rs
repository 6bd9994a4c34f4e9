//! Build and launch scripts for a bot folder that holds source but no `launch` ("bots
//! that need a compilation script but don't have one will be given one", as the KOTH post says).
//!
//! A folder is recognised by its top-level files: one language's source (several C or C++
//! files are compiled together; Java, Python, JavaScript and TypeScript need one entry point),
//! or a project file (`Cargo.toml`, `go.mod`). The scripts are written into the bot's working
//! copy only, never into the bots folder, and recorded in `series.toml`. A folder with source of
//! two languages, several entry points, or a language whose toolchain the sandbox cannot see is
//! skipped with a reason that names the candidates or the missing tool. A folder with its own
//! `launch` (or `build`) is never given one: authors override by writing their own.

mod scripts;
#[cfg(test)]
mod tests;
mod toolchains;

use std::fs;
use std::io;
use std::os::unix::fs::PermissionsExt;
use std::path::Path;

use serde::{Deserialize, Serialize};

use crate::folder::{Kind, Listing};
pub use scripts::{JSONCPP_DIR, JVM_OPTIONS, JVM_SIZING};
pub use toolchains::{Dialect, Language, TOOLS, Tool, Toolchains};

/// Why take6 writes no scripts for a folder without `launch`: the reason its bot is skipped
/// with, naming the candidates or the missing tool.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{0}")]
pub struct NoScripts(pub String);

/// The scripts take6 wrote for a folder without `launch`, as `series.toml` records them under
/// the bot's `generated` table (`language`, the files it was recognised by, the commands).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Generated {
    pub language: Language,
    /// The files it was recognised by (the sources compiled, or the entry point).
    pub from: Vec<String>,
    /// The build's commands, one a line; none for interpreted languages.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub build: Option<String>,
    /// The command `launch` replaces itself with (`exec`).
    pub launch: String,
}

impl Generated {
    /// The `build` script: the commands, stopping at the first that fails.
    pub fn build_script(&self) -> Option<String> {
        self.build.as_ref().map(|commands| {
            format!(
                "#!/bin/sh\n# Written by take6: the bot's folder holds {} source and no launch.\nset -e\n{commands}\n",
                self.language.name()
            )
        })
    }

    /// The `launch` script: it `exec`s the program, so that the bot's time and limits are the
    /// program's own and no shell stays in between.
    pub fn launch_script(&self) -> String {
        let sizing = if self.language == Language::Java {
            JVM_SIZING
        } else {
            ""
        };
        format!(
            "#!/bin/sh\n# Written by take6: the bot's folder holds {} source and no launch.\nset -e\n{sizing}exec {}\n",
            self.language.name(),
            self.launch
        )
    }

    /// Writes `launch` (and `build`) into the working copy `workdir`, executable.
    pub fn write(&self, workdir: &Path) -> io::Result<()> {
        let scripts = [
            ("launch", Some(self.launch_script())),
            ("build", self.build_script()),
        ];
        // Through the door, from the series folder: made fresh, never written through a link.
        let copy = crate::door::working_copy(workdir)?;
        for (name, text) in scripts {
            if let Some(text) = text {
                copy.replace(Path::new(name), text.as_bytes(), false)?;
                let file = copy.open_read(Path::new(name))?;
                file.set_permissions(fs::Permissions::from_mode(0o755))?;
            }
        }
        Ok(())
    }
}

/// How the reason of a folder without `launch` and with no source take6 knows begins.
pub const NO_SOURCE: &str =
    "no launch script (add an executable file named 'launch'), and no source take6";

/// What a folder without `launch` is, or why it is skipped: recognised by its top-level files
/// (`listing` of `folder`), its language's tools looked up in `tools`.
pub fn recognise(
    folder: &Path,
    listing: &Listing,
    tools: &Toolchains,
) -> Result<Generated, NoScripts> {
    let files = top_files(listing);
    let mut found: Vec<(Language, Vec<String>)> = Language::ALL
        .iter()
        .map(|&lang| {
            let claimed = files.iter().filter(|f| lang.claims(f)).cloned();
            (lang, claimed.collect::<Vec<_>>())
        })
        .filter(|(_, claimed)| !claimed.is_empty())
        .collect();
    match found.len() {
        0 => Err(NoScripts(format!(
            "{NO_SOURCE} writes one for ({})",
            Language::ALL.map(Language::name).join(", ")
        ))),
        1 => {
            let (lang, claimed) = found.remove(0);
            let generated = scripts::plan(lang, &claimed, folder, tools.dialect)?;
            for tool in needs(&generated) {
                if tools.get(tool).is_none() {
                    return Err(NoScripts(format!(
                        "no launch script; the folder holds {} source ({}), but {}",
                        lang.name(),
                        generated.from.join(", "),
                        tools.missing(tool)
                    )));
                }
            }
            Ok(generated)
        }
        _ => Err(NoScripts(format!(
            "no launch script, and source of several languages: {}; take6 cannot tell which \
             to build: write a launch (and build) script",
            found
                .iter()
                .map(|(lang, files)| format!("{} ({})", lang.name(), files.join(", ")))
                .collect::<Vec<_>>()
                .join(", ")
        ))),
    }
}

/// Whether `folder` holds a top-level file take6 may write scripts for (read without opening
/// any file): `take6 check` accepts such a folder without `launch`.
pub fn has_source(folder: &Path) -> bool {
    fs::read_dir(folder).is_ok_and(|entries| {
        entries.flatten().any(|e| {
            let name = e.file_name().to_string_lossy().into_owned();
            e.file_type().is_ok_and(|t| t.is_file())
                && !name.starts_with('.')
                && Language::ALL.iter().any(|l| l.claims(&name))
        })
    })
}

/// The top-level regular files of a listing, sorted, hidden ones left out.
fn top_files(listing: &Listing) -> Vec<String> {
    let mut files: Vec<String> = listing
        .entries()
        .iter()
        .filter(|e| matches!(e.kind, Kind::File { .. }) && e.rel.components().count() == 1)
        .filter_map(|e| e.rel.to_str().map(str::to_string))
        .filter(|name| !name.starts_with('.'))
        .collect();
    files.sort();
    files
}

/// The tools the scripts run.
fn needs(generated: &Generated) -> Vec<&'static str> {
    match generated.language {
        Language::C => vec!["gcc"],
        Language::Cpp => vec!["g++"],
        Language::Java => vec!["javac", "java"],
        Language::Python => vec!["python3"],
        Language::JavaScript => vec!["node"],
        Language::TypeScript => vec!["tsc", "node"],
        Language::Rust if generated.from == ["Cargo.toml"] => vec!["cargo"],
        Language::Rust => vec!["rustc"],
        Language::Go => vec!["go"],
    }
}
