//! The languages take6 writes scripts for, the tools those scripts run, and which of them a
//! bot's sandbox can see.

use std::collections::BTreeMap;
use std::fs;
use std::os::unix::fs::PermissionsExt;
use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};

use super::scripts::JSONCPP_HEADER;
use crate::sandbox::{Mode, Sandbox, bwrap};

/// A language take6 writes scripts for.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Language {
    C,
    Cpp,
    Java,
    Python,
    JavaScript,
    TypeScript,
    Rust,
    Go,
}

impl Language {
    /// Every language, in the order reasons list them.
    pub const ALL: [Language; 8] = [
        Language::C,
        Language::Cpp,
        Language::Java,
        Language::Python,
        Language::JavaScript,
        Language::TypeScript,
        Language::Rust,
        Language::Go,
    ];

    /// The language's name for people.
    pub fn name(self) -> &'static str {
        match self {
            Language::C => "C",
            Language::Cpp => "C++",
            Language::Java => "Java",
            Language::Python => "Python 3",
            Language::JavaScript => "JavaScript",
            Language::TypeScript => "TypeScript",
            Language::Rust => "Rust",
            Language::Go => "Go",
        }
    }

    /// Whether a top-level file named `name` is this language's source or project file.
    pub(super) fn claims(self, name: &str) -> bool {
        let ext = Path::new(name)
            .extension()
            .and_then(|e| e.to_str())
            .unwrap_or("");
        match self {
            Language::C => ext == "c",
            Language::Cpp => matches!(ext, "cpp" | "cc" | "cxx"),
            Language::Java => ext == "java",
            Language::Python => ext == "py",
            Language::JavaScript => ext == "js",
            Language::TypeScript => ext == "ts",
            Language::Rust => ext == "rs" || name == "Cargo.toml",
            Language::Go => ext == "go" || name == "go.mod",
        }
    }
}

/// A tool a generated script runs, and the Debian package that installs it system-wide.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Tool {
    /// The command, as looked up on the bots' `PATH`.
    pub name: &'static str,
    /// The Debian package to install, named in the reason when it is missing.
    pub package: &'static str,
}

/// Every tool a generated script may run: what the toolchain check looks for.
pub const TOOLS: [Tool; 10] = [
    Tool {
        name: "gcc",
        package: "gcc",
    },
    Tool {
        name: "g++",
        package: "g++",
    },
    Tool {
        name: "javac",
        package: "default-jdk-headless",
    },
    Tool {
        name: "java",
        package: "default-jdk-headless",
    },
    Tool {
        name: "python3",
        package: "python3",
    },
    Tool {
        name: "node",
        package: "nodejs",
    },
    Tool {
        name: "tsc",
        package: "node-typescript",
    },
    Tool {
        name: "cargo",
        package: "cargo",
    },
    Tool {
        name: "rustc",
        package: "rustc",
    },
    Tool {
        name: "go",
        package: "golang-go",
    },
];

/// How C and C++ source is compiled: the game's choice
/// ([`crate::game::GameCode::build_dialect`]).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub enum Dialect {
    /// take6's own: ISO C++20, C as gcc's default.
    #[default]
    Iso,
    /// As Botzone's compiler builds (botzone-local's `compiler.py`): `-D_BOTZONE_ONLINE` (bots
    /// read a local test file unless it is defined), the GNU dialect of C++17 (Botzone's g++
    /// default and `c++1z`: GNU extensions such as `typeof` compile), AVX where the processor
    /// has it (`-mavx`), `-lpthread`, and the libraries Botzone provides to C++ programs
    /// where installed: jsoncpp, nlohmann/json and Eigen.
    Botzone,
}

/// Which of [`TOOLS`] a bot's `build` and `launch` can run: looked for once per series on the
/// `PATH` they get, and, in the sandbox, only where it can see them (the system folders: a
/// `cargo` that resolves into a home folder, as rustup's does, is not there for a bot).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Toolchains {
    /// Each tool's path as found, or `None`.
    pub(super) found: Vec<(Tool, Option<PathBuf>)>,
    /// The `PATH` searched.
    pub(super) path: String,
    /// Whether a tool must lie inside the sandbox's system folders.
    pub(super) sandboxed: bool,
    /// How the series' game compiles C and C++.
    pub(super) dialect: Dialect,
}

impl Toolchains {
    /// The tools a bot of `sandbox` can run: its `PATH` is the sandbox's, except under
    /// `--sandbox none`, where bots inherit the controller's environment.
    pub fn for_sandbox(sandbox: &Sandbox) -> Toolchains {
        let path = if sandbox.report().mode == Mode::None {
            std::env::var("PATH").unwrap_or_default()
        } else {
            bwrap::ENV[0].1.to_string()
        };
        Toolchains::detect(&path, sandbox.isolated())
    }

    /// Looks for every tool on `path`; when `sandboxed`, a tool whose real path is outside the
    /// system folders the sandbox shows counts as missing.
    pub fn detect(path: &str, sandboxed: bool) -> Toolchains {
        let found = TOOLS
            .iter()
            .map(|&tool| (tool, locate(tool.name, path, sandboxed)))
            .collect();
        Toolchains {
            found,
            path: path.to_string(),
            sandboxed,
            dialect: Dialect::Iso,
        }
    }

    /// The same tools, C and C++ compiled in `dialect` (the series' game's).
    pub fn in_dialect(mut self, dialect: Dialect) -> Toolchains {
        self.dialect = dialect;
        self
    }

    /// Where `tool` is, if a bot can run it.
    pub(super) fn get(&self, tool: &str) -> Option<&Path> {
        self.found
            .iter()
            .find(|(t, _)| t.name == tool)
            .and_then(|(_, p)| p.as_deref())
    }

    /// Each tool with its path, or `missing (apt-get install PACKAGE)`: what `series.toml`
    /// keeps under `[toolchains]` and `take6 check` prints.
    pub fn record(&self) -> BTreeMap<String, String> {
        let mut record: BTreeMap<String, String> = self
            .found
            .iter()
            .map(|(tool, path)| {
                let value = match path {
                    Some(p) => p.display().to_string(),
                    None => format!("missing (apt-get install {})", tool.package),
                };
                (tool.name.to_string(), value)
            })
            .collect();
        // Not a program but a library: Botzone's C++ bots include it (see JSONCPP_DIR), from
        // the system folders every sandbox shows.
        let header = Path::new(JSONCPP_HEADER);
        let jsoncpp = if header.is_file() {
            header.display().to_string()
        } else {
            "missing (apt-get install libjsoncpp-dev)".to_string()
        };
        record.insert("jsoncpp".to_string(), jsoncpp);
        record
    }

    /// Why `tool` is missing, and how to install it.
    pub(super) fn missing(&self, tool: &str) -> String {
        let package = TOOLS
            .iter()
            .find(|t| t.name == tool)
            .map_or(tool, |t| t.package);
        let mut why = format!("{tool} is not on the bots' PATH ({})", self.path);
        // Found on the controller's own PATH, but hidden from the sandbox (pyenv, rustup...).
        if self.sandboxed
            && let Some(host) = std::env::var("PATH")
                .ok()
                .and_then(|p| locate(tool, &p, false))
        {
            why.push_str(&format!(
                " inside the sandbox ({} is outside the system folders it sees)",
                host.display()
            ));
            // Both ways out, the second with what it costs.
            return format!(
                "{why}: install it system-wide (apt-get install {package}), or run with \
                 --sandbox none, where builds and bots run as your own user with no sandbox (they \
                 can read, change and delete whatever you can), or write a launch"
            );
        }
        format!("{why}: install it system-wide (apt-get install {package}), or write a launch")
    }
}

/// The first `name` on `path` that is an executable file, by its real path; when `sandboxed`,
/// only one inside the system folders the sandbox binds.
pub(super) fn locate(name: &str, path: &str, sandboxed: bool) -> Option<PathBuf> {
    path.split(':').filter(|d| !d.is_empty()).find_map(|dir| {
        let candidate = Path::new(dir).join(name);
        let real = fs::canonicalize(&candidate).ok()?;
        let meta = fs::metadata(&real).ok()?;
        let runnable = meta.is_file() && meta.permissions().mode() & 0o111 != 0;
        let visible = !sandboxed
            || (bwrap::SYSTEM_DIRS.iter().any(|d| real.starts_with(d))
                && bwrap::SYSTEM_DIRS.iter().any(|d| candidate.starts_with(d)));
        (runnable && visible).then_some(candidate)
    })
}
