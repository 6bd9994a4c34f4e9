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

use std::collections::BTreeMap;
use std::fs;
use std::io;
use std::os::unix::fs::PermissionsExt;
use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};

use crate::folder::{self, Kind, Listing};
use crate::sandbox::{Mode, Sandbox, bwrap};

/// Largest Java source read to find its `main` method and package.
const JAVA_CAP: u64 = 1 << 20;

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
    fn claims(self, name: &str) -> bool {
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
    found: Vec<(Tool, Option<PathBuf>)>,
    /// The `PATH` searched.
    path: String,
    /// Whether a tool must lie inside the sandbox's system folders.
    sandboxed: bool,
    /// How the series' game compiles C and C++.
    dialect: Dialect,
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
    fn get(&self, tool: &str) -> Option<&Path> {
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
    fn missing(&self, tool: &str) -> String {
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
fn locate(name: &str, path: &str, sandboxed: bool) -> Option<PathBuf> {
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

/// The JVM's options, for `java` and (with `-J`) `javac`: the serial collector (one GC thread,
/// the least memory), a heap of 32 MiB growing to at most 512 MiB, and 64 MiB each of class
/// space and code cache instead of the 1 GiB and 240 MiB the JVM reserves by default. Without
/// them the JVM does not start where the memory limit is an address-space limit (no memory
/// cgroup, e.g. `take6 check` as a user): "Could not allocate compressed class space"; and
/// with the cgroup it would size its heap from the host's memory (it sees no cgroup, the
/// sandbox having no `/sys`) and could outgrow the bot's limit before it first collects.
///
/// The maximum heap is `$heap` MiB, which [`JVM_SIZING`] sets before the command: 512, or
/// under an address-space limit (`--sandbox none`, or no memory cgroup) that limit less
/// 576 MiB, between 64 and 512. The JVM reserves about 400 MiB of address space besides its
/// heap, and glibc 64 MiB per malloc arena, one per thread up to 8 per processor: with a
/// 512 MiB heap a 1 GiB limit failed 2 builds of 5 on a many-core machine, so the
/// arenas are held to 2 (`MALLOC_ARENA_MAX`); then a 512 MiB heap needs 940 MiB (measured).
pub const JVM_OPTIONS: [&str; 5] = [
    "-XX:+UseSerialGC",
    "-Xms32m",
    "-Xmx${heap}m",
    "-XX:CompressedClassSpaceSize=64m",
    "-XX:ReservedCodeCacheSize=64m",
];

/// The shell lines before a JVM's command in take6's scripts: the heap that fits the limits
/// (see [`JVM_OPTIONS`]) and at most 2 malloc arenas.
pub const JVM_SIZING: &str = "heap=512\n\
    limit=$(ulimit -v)\n\
    if [ \"$limit\" != unlimited ]; then heap=$((limit / 1024 - 576)); fi\n\
    if [ \"$heap\" -gt 512 ]; then heap=512; fi\n\
    if [ \"$heap\" -lt 64 ]; then heap=64; fi\n\
    export MALLOC_ARENA_MAX=2\n";
/// Debian's jsoncpp header (libjsoncpp-dev), which a Botzone C++ bot's build includes.
const JSONCPP_HEADER: &str = "/usr/include/jsoncpp/json/json.h";

/// Where a C++ build that includes Botzone's `"jsoncpp/json.h"` finds it: a folder of the
/// working copy holding `jsoncpp/json.h`, which includes Debian's `<json/json.h>`
/// (libjsoncpp-dev), so that the source builds unchanged and links `-ljsoncpp`.
pub const JSONCPP_DIR: &str = ".take6-include";

/// Which jsoncpp header one of the C++ `files` includes, if any: Botzone's `"jsoncpp/json.h"`
/// (its C++ environment provides it), or Debian's own `<json/json.h>`. Read as bytes, whatever
/// the source's encoding (GBK, Visual Studio's default on Chinese Windows, is common among
/// Botzone's sources): the compiler takes the bytes as they are, and so does the detector.
fn includes_jsoncpp(folder: &Path, files: &[String]) -> bool {
    files.iter().any(|file| {
        folder::read_bytes(folder, Path::new(file), SOURCE_CAP).is_ok_and(|bytes| {
            bytes.split(|&b| b == b'\n').any(|line| {
                let line = line.trim_ascii_start();
                let has = |needle: &[u8]| line.windows(needle.len()).any(|w| w == needle);
                line.starts_with(b"#")
                    && has(b"include")
                    && (has(b"jsoncpp/json.h") || has(b"json/json.h"))
            })
        })
    })
}

/// How the reason of a folder without `launch` and with no source take6 knows begins.
pub const NO_SOURCE: &str =
    "no launch script (add an executable file named 'launch'), and no source take6";
/// Largest C++ source read to find its includes.
const SOURCE_CAP: u64 = 16 << 20;

/// The C++ compiler's command for `files` in `dialect` (`jsoncpp`: one of them includes it).
fn cpp_build(dialect: Dialect, files: &[String], jsoncpp: bool) -> String {
    let mut build = String::new();
    let mut flags = match dialect {
        Dialect::Iso => "-O2 -std=c++20".to_string(),
        Dialect::Botzone => {
            let avx = if has_avx() { " -mavx" } else { "" };
            // Eigen's headers are under eigen3/ (libeigen3-dev); nlohmann/json.hpp
            // (nlohmann-json3-dev) is on the default path.
            format!("-D_BOTZONE_ONLINE -O2 -std=gnu++17{avx} -I/usr/include/eigen3")
        }
    };
    let mut libs = String::new();
    if jsoncpp {
        build.push_str(&format!(
            "mkdir -p {JSONCPP_DIR}/jsoncpp\n\
             echo '#include <json/json.h>' > {JSONCPP_DIR}/jsoncpp/json.h\n"
        ));
        if dialect == Dialect::Botzone {
            build.push_str(&size_t_index());
        }
        flags.push_str(&format!(" -I{JSONCPP_DIR} -I/usr/include/jsoncpp"));
        libs.push_str(" -ljsoncpp");
    }
    if dialect == Dialect::Botzone {
        libs.push_str(" -lpthread");
    }
    build.push_str(&format!("g++ {flags} -o bot {}{libs}", words(files)));
    build
}

/// The build's lines that let Botzone's sources index a `Json::Value` with a `size_t`
/// (`requests[i]`, `i` a `size_t`: botzone-local's Tank judges and many bots), which Botzone's
/// build accepts and Debian's jsoncpp refuses as ambiguous (its `operator[]` takes an
/// `ArrayIndex` or an `int`): a copy of Debian's headers in the build's include folder, its
/// `value.h` given inline overloads for `unsigned long` that call the `ArrayIndex` one (no
/// change to the library's layout or symbols). Headers of another layout are copied as they
/// are.
fn size_t_index() -> String {
    let overload = |constness: &str| {
        format!(
            "s/^\\( *\\){constness}Value\\& operator\\[\\](int index){tail};$/&\\n\\1{constness}Value\\& \\
             operator[](unsigned long index){tail} {{ return (*this)[ArrayIndex(index)]; }}/",
            tail = if constness.is_empty() { "" } else { " const" }
        )
    };
    format!(
        "mkdir -p {JSONCPP_DIR}/json\n\
         cp /usr/include/jsoncpp/json/*.h {JSONCPP_DIR}/json/\n\
         sed -i -e '{}' -e '{}' {JSONCPP_DIR}/json/value.h\n",
        overload(""),
        overload("const ")
    )
}

/// Whether this machine's processor has AVX (Botzone compiles with `-mavx`; a program built
/// so would not run on one without it).
fn has_avx() -> bool {
    cfg!(target_arch = "x86_64")
        && fs::read_to_string("/proc/cpuinfo").is_ok_and(|info| {
            info.lines()
                .find(|l| l.starts_with("flags"))
                .is_some_and(|l| l.split_whitespace().any(|f| f == "avx"))
        })
}

/// What a folder without `launch` is, or why it is skipped: recognised by its top-level files
/// (`listing` of `folder`), its language's tools looked up in `tools`.
pub fn recognise(
    folder: &Path,
    listing: &Listing,
    tools: &Toolchains,
) -> Result<Generated, String> {
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
        0 => Err(format!(
            "{NO_SOURCE} writes one for ({})",
            Language::ALL.map(Language::name).join(", ")
        )),
        1 => {
            let (lang, claimed) = found.remove(0);
            let generated = plan(lang, &claimed, folder, tools.dialect)?;
            for tool in needs(&generated) {
                if tools.get(tool).is_none() {
                    return Err(format!(
                        "no launch script; the folder holds {} source ({}), but {}",
                        lang.name(),
                        generated.from.join(", "),
                        tools.missing(tool)
                    ));
                }
            }
            Ok(generated)
        }
        _ => Err(format!(
            "no launch script, and source of several languages: {}; take6 cannot tell which \
             to build: write a launch (and build) script",
            found
                .iter()
                .map(|(lang, files)| format!("{} ({})", lang.name(), files.join(", ")))
                .collect::<Vec<_>>()
                .join(", ")
        )),
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

/// A file name as a shell word: as it is when it holds nothing the shell reads specially,
/// single-quoted otherwise.
fn shell_word(name: &str) -> String {
    let plain = name
        .chars()
        .all(|c| c.is_ascii_alphanumeric() || "._+-/=".contains(c));
    if plain && !name.starts_with('-') {
        name.to_string()
    } else {
        format!("'{}'", name.replace('\'', r"'\''"))
    }
}

/// File names as shell words, one space apart, for a command line.
fn words(files: &[String]) -> String {
    files
        .iter()
        .map(|f| shell_word(f))
        .collect::<Vec<_>>()
        .join(" ")
}

/// The one entry point among `files` of an interpreted language: the only file, or else the
/// one of `names` present; several are ambiguous.
fn entry_point(lang: Language, files: &[String], names: &[&str]) -> Result<String, String> {
    if let [only] = files {
        return Ok(only.clone());
    }
    let mains: Vec<&String> = files
        .iter()
        .filter(|f| names.contains(&f.as_str()))
        .collect();
    match mains.as_slice() {
        [main] => Ok((*main).clone()),
        _ => Err(format!(
            "no launch script, and several {} files ({}) with {} of {} to start: write a \
             launch script",
            lang.name(),
            files.join(", "),
            if mains.is_empty() {
                "none"
            } else {
                "more than one"
            },
            names.join(", ")
        )),
    }
}

/// The scripts for `lang`, recognised by `files` (its top-level files in `folder`).
fn plan(
    lang: Language,
    files: &[String],
    folder: &Path,
    dialect: Dialect,
) -> Result<Generated, String> {
    let made = |from: Vec<String>, build: Option<String>, launch: String| Generated {
        language: lang,
        from,
        build,
        launch,
    };
    Ok(match lang {
        Language::C => {
            let define = match dialect {
                Dialect::Iso => "",
                Dialect::Botzone => "-D_BOTZONE_ONLINE ",
            };
            made(
                files.to_vec(),
                Some(format!("gcc {define}-O2 -o bot {} -lm", words(files))),
                "./bot".into(),
            )
        }
        Language::Cpp => made(
            files.to_vec(),
            Some(cpp_build(dialect, files, includes_jsoncpp(folder, files))),
            "./bot".into(),
        ),
        Language::Python => {
            let main = entry_point(lang, files, &["main.py", "bot.py"])?;
            made(
                vec![main.clone()],
                None,
                format!("python3 -u {}", shell_word(&main)),
            )
        }
        Language::JavaScript => {
            let main = entry_point(lang, files, &["main.js", "bot.js", "index.js"])?;
            made(
                vec![main.clone()],
                None,
                format!("node {}", shell_word(&main)),
            )
        }
        Language::TypeScript => {
            let (main, build, launch) = typescript(files)?;
            made(vec![main], Some(build), launch)
        }
        Language::Java => {
            let (build, launch) = java(folder, files)?;
            made(files.to_vec(), Some(build), launch)
        }
        Language::Rust if files.iter().any(|f| f == "Cargo.toml") => {
            let bin = cargo_binary(folder)?;
            made(
                vec!["Cargo.toml".into()],
                Some("cargo build --release --offline".into()),
                format!("./target/release/{}", shell_word(&bin)),
            )
        }
        Language::Rust => {
            let main = entry_point(lang, files, &["main.rs"])?;
            made(
                vec![main.clone()],
                Some(format!("rustc -O -o bot {}", shell_word(&main))),
                "./bot".into(),
            )
        }
        Language::Go => {
            let target = if files.iter().any(|f| f == "go.mod") {
                ".".to_string()
            } else {
                words(files)
            };
            made(
                files.to_vec(),
                Some(format!("GOTOOLCHAIN=local go build -o bot {target}")),
                "./bot".into(),
            )
        }
    })
}

/// A TypeScript bot's entry point, its build (compiled to JavaScript beside it) and its launch.
fn typescript(files: &[String]) -> Result<(String, String, String), String> {
    let main = entry_point(
        Language::TypeScript,
        files,
        &["main.ts", "bot.ts", "index.ts"],
    )?;
    let js = format!("{}.js", main.trim_end_matches(".ts"));
    // tsc writes the JavaScript even when it finds type errors (a bot that uses node's
    // `require` without @types/node): those are the author's to see in the build log, not a
    // reason to refuse the bot.
    let build = format!(
        "tsc --target es2020 --module commonjs --outDir . {} || test -f {}",
        shell_word(&main),
        shell_word(&js)
    );
    let launch = format!("node {}", shell_word(&js));
    Ok((main, build, launch))
}

/// A Java bot's build (every file compiled, the JVM sized for the sandbox) and its launch (the
/// class with `main`).
fn java(folder: &Path, files: &[String]) -> Result<(String, String), String> {
    let class = java_main(folder, files)?;
    let javac_jvm = JVM_OPTIONS.map(|o| format!("-J{o}")).join(" ");
    let build = format!(
        "{JVM_SIZING}javac {javac_jvm} -encoding UTF-8 -d . {}",
        words(files)
    );
    let jvm = JVM_OPTIONS.join(" ");
    Ok((build, format!("java {jvm} -cp . {class}")))
}

/// The class to run among the Java `files` of `folder`: the one whose source has a
/// `static void main(`, named by its file and its package.
fn java_main(folder: &Path, files: &[String]) -> Result<String, String> {
    let mut mains = Vec::new();
    for file in files {
        let text =
            folder::read_text(folder, Path::new(file), JAVA_CAP).map_err(|e| e.to_string())?;
        // Whitespace as one space, so that the declaration is found however it is laid out.
        let flat = text.split_whitespace().collect::<Vec<_>>().join(" ");
        if flat.contains("static void main(") || flat.contains("static void main (") {
            let package = text.lines().find_map(|l| {
                let rest = l.trim().strip_prefix("package ")?;
                Some(rest.trim_end_matches(';').trim().to_string())
            });
            let stem = file.trim_end_matches(".java");
            mains.push((
                file.clone(),
                match package {
                    Some(p) => format!("{p}.{stem}"),
                    None => stem.to_string(),
                },
            ));
        }
    }
    match mains.as_slice() {
        [(_, class)] => Ok(class.clone()),
        [] => Err(format!(
            "no launch script, and none of the Java files ({}) has a public static void \
             main: add one, or write a launch script",
            files.join(", ")
        )),
        _ => Err(format!(
            "no launch script, and several Java classes with a main method ({}): take6 cannot \
             tell which to run; write a launch script",
            mains
                .iter()
                .map(|(f, _)| f.as_str())
                .collect::<Vec<_>>()
                .join(", ")
        )),
    }
}

/// The binary `cargo build` makes for the `Cargo.toml` in `folder`: its only `[[bin]]`, or
/// else the package's name.
fn cargo_binary(folder: &Path) -> Result<String, String> {
    #[derive(Deserialize)]
    struct Manifest {
        package: Option<Package>,
        #[serde(default)]
        bin: Vec<Package>,
    }
    #[derive(Deserialize)]
    struct Package {
        name: Option<String>,
    }
    let text =
        folder::read_text(folder, Path::new("Cargo.toml"), JAVA_CAP).map_err(|e| e.to_string())?;
    let manifest: Manifest = toml::from_str(&text)
        .map_err(|e| format!("no launch script, and Cargo.toml is not valid: {e}"))?;
    let bins: Vec<String> = manifest.bin.into_iter().filter_map(|b| b.name).collect();
    match (bins.as_slice(), manifest.package.and_then(|p| p.name)) {
        ([bin], _) => Ok(bin.clone()),
        ([], Some(name)) => Ok(name),
        ([], None) => Err("no launch script, and Cargo.toml names no package".into()),
        (bins, _) => Err(format!(
            "no launch script, and Cargo.toml has several binaries ({}): write a launch script",
            bins.join(", ")
        )),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_toolchain_the_sandbox_hides_names_both_ways_out() {
        // sh is on the controller's PATH, not on this one: as rustup's cargo in ~/.cargo/bin.
        let hidden = Toolchains::detect("/nonexistent-take6-path", true).missing("sh");
        for part in [
            "inside the sandbox",
            "install it system-wide (apt-get install sh)",
            "--sandbox none, where builds and bots run as your own user with no sandbox",
        ] {
            assert!(hidden.contains(part), "{part} missing in {hidden}");
        }
        let plain = Toolchains::detect("/nonexistent-take6-path", false).missing("sh");
        assert!(!plain.contains("--sandbox none"), "{plain}");
    }

    /// Every tool present, as if on the sandbox's PATH.
    fn all_tools() -> Toolchains {
        Toolchains {
            found: TOOLS
                .iter()
                .map(|&t| (t, Some(PathBuf::from("/usr/bin").join(t.name))))
                .collect(),
            path: "/usr/bin".into(),
            sandboxed: true,
            dialect: Dialect::Iso,
        }
    }

    /// The scripts for a folder holding `files` (name, content).
    fn recognised(files: &[(&str, &str)], tools: &Toolchains) -> Result<Generated, String> {
        let dir = tempfile::tempdir().unwrap();
        for (name, text) in files {
            let path = dir.path().join(name);
            fs::create_dir_all(path.parent().unwrap()).unwrap();
            fs::write(path, text).unwrap();
        }
        let listing = folder::scan(dir.path(), 1 << 20).unwrap();
        recognise(dir.path(), &listing, tools)
    }

    #[test]
    fn cpp_that_includes_botzones_jsoncpp_builds_unchanged() {
        let t = all_tools();
        let src = "#include <iostream>\n  #include \"jsoncpp/json.h\"\nint main() {}\n";
        let g = recognised(&[("judge.cpp", src)], &t).unwrap();
        let build = g.build.unwrap();
        assert!(build.contains("echo '#include <json/json.h>' > .take6-include/jsoncpp/json.h"));
        assert!(build.ends_with(
            "g++ -O2 -std=c++20 -I.take6-include -I/usr/include/jsoncpp -o bot judge.cpp -ljsoncpp"
        ));
        // The build itself, where libjsoncpp-dev is installed.
        if Path::new("/usr/include/jsoncpp/json/json.h").exists() {
            let dir = tempfile::tempdir().unwrap();
            let main = "#include \"jsoncpp/json.h\"\nint main() { Json::Value v; v[\"a\"] = 1; \
                        return v[\"a\"].asInt() - 1; }\n";
            fs::write(dir.path().join("judge.cpp"), main).unwrap();
            let script = format!("set -e\n{build}\n./bot\n");
            let out = std::process::Command::new("sh")
                .args(["-c", &script])
                .current_dir(dir.path())
                .output()
                .unwrap();
            assert!(
                out.status.success(),
                "{}",
                String::from_utf8_lossy(&out.stderr)
            );
        }
    }

    #[test]
    fn botzones_dialect_builds_as_its_compiler_whatever_the_encoding() {
        let botzone = all_tools().in_dialect(Dialect::Botzone);
        // GBK bytes (not UTF-8) around the include: found all the same.
        let mut gbk =
            b"// \xc4\xe3\xba\xc3\n#include \"jsoncpp/json.h\" // \xc4\xe3\nint main() {}\n"
                .to_vec();
        gbk.push(b'\n');
        let dir = tempfile::tempdir().unwrap();
        fs::write(dir.path().join("bot.cpp"), &gbk).unwrap();
        let listing = folder::scan(dir.path(), 1 << 20).unwrap();
        let build = recognise(dir.path(), &listing, &botzone)
            .unwrap()
            .build
            .unwrap();
        let avx = if has_avx() { " -mavx" } else { "" };
        assert!(
            build.ends_with(&format!(
                "g++ -D_BOTZONE_ONLINE -O2 -std=gnu++17{avx} -I/usr/include/eigen3 \
                 -I.take6-include -I/usr/include/jsoncpp -o bot bot.cpp -ljsoncpp -lpthread"
            )),
            "{build}"
        );
        let g = recognised(&[("a.c", "")], &botzone).unwrap();
        assert_eq!(
            g.build.as_deref(),
            Some("gcc -D_BOTZONE_ONLINE -O2 -o bot a.c -lm")
        );
        let g = recognised(&[("a.cpp", "#include <json/json.h>\n")], &botzone).unwrap();
        assert!(g.build.unwrap().contains("-ljsoncpp"));
        // take6's own dialect is unchanged.
        let g = recognised(&[("a.cpp", "")], &all_tools()).unwrap();
        assert_eq!(g.build.as_deref(), Some("g++ -O2 -std=c++20 -o bot a.cpp"));
    }

    /// Botzone's sources index a `Json::Value` with a `size_t` (botzone-local's Tank judges),
    /// GNU C++ and `_BOTZONE_ONLINE`: built and run, where libjsoncpp-dev is installed.
    #[test]
    fn botzones_sources_build_with_debians_jsoncpp() {
        if !Path::new("/usr/include/jsoncpp/json/value.h").exists() {
            return;
        }
        let src = "#include \"jsoncpp/json.h\"\n#include <cstddef>\n\
                   int main() {\n#ifndef _BOTZONE_ONLINE\n  return 3;\n#endif\n\
                   Json::Value v; v[0u] = 1; v[1] = 2; size_t i = 1; const Json::Value &c = v;\n\
                   typeof(i) j = 0;\n\
                   return v[i].asInt() + c[j].asInt() - 3; }\n";
        let dir = tempfile::tempdir().unwrap();
        fs::write(dir.path().join("bot.cpp"), src).unwrap();
        let listing = folder::scan(dir.path(), 1 << 20).unwrap();
        let botzone = all_tools().in_dialect(Dialect::Botzone);
        let build = recognise(dir.path(), &listing, &botzone)
            .unwrap()
            .build
            .unwrap();
        let out = std::process::Command::new("sh")
            .args(["-c", &format!("set -e\n{build}\n./bot\n")])
            .current_dir(dir.path())
            .output()
            .unwrap();
        assert!(
            out.status.success(),
            "{build}\n{}",
            String::from_utf8_lossy(&out.stderr)
        );
    }

    #[test]
    fn each_language_is_recognised_with_its_commands() {
        let t = all_tools();
        let g = recognised(&[("b.c", ""), ("a.c", ""), ("README.md", "")], &t).unwrap();
        assert_eq!(g.language, Language::C);
        assert_eq!(g.build.as_deref(), Some("gcc -O2 -o bot a.c b.c -lm"));
        assert_eq!(g.launch, "./bot");
        let g = recognised(&[("x.cc", ""), ("util.h", "")], &t).unwrap();
        assert_eq!(g.build.as_deref(), Some("g++ -O2 -std=c++20 -o bot x.cc"));
        let g = recognised(&[("helper.py", ""), ("bot.py", "")], &t).unwrap();
        assert_eq!(g.launch, "python3 -u bot.py");
        assert_eq!(g.build, None);
        let g = recognised(&[("my bot.js", "")], &t).unwrap();
        assert_eq!(g.launch, "node 'my bot.js'");
        let g = recognised(&[("bot.ts", "")], &t).unwrap();
        assert_eq!(g.launch, "node bot.js");
        let java = [
            ("Util.java", "class Util {}"),
            (
                "Main.java",
                "package p.q;\npublic class Main {\n public   static void\n main(String[] a) {} }",
            ),
        ];
        let g = recognised(&java, &t).unwrap();
        assert!(g.launch.ends_with("-cp . p.q.Main"), "{}", g.launch);
        assert!(g.build.unwrap().contains("-d . Main.java Util.java"));
        let cargo = [
            ("Cargo.toml", "[package]\nname = \"crab\"\n"),
            ("src/main.rs", ""),
        ];
        let g = recognised(&cargo, &t).unwrap();
        assert_eq!(g.launch, "./target/release/crab");
        assert_eq!(g.build.as_deref(), Some("cargo build --release --offline"));
        let g = recognised(&[("main.rs", ""), ("util.rs", "")], &t).unwrap();
        assert_eq!(g.build.as_deref(), Some("rustc -O -o bot main.rs"));
        let g = recognised(&[("go.mod", ""), ("main.go", "")], &t).unwrap();
        assert_eq!(
            g.build.as_deref(),
            Some("GOTOOLCHAIN=local go build -o bot .")
        );
        let script = g.launch_script();
        assert!(script.starts_with("#!/bin/sh\n") && script.ends_with("set -e\nexec ./bot\n"));
    }

    #[test]
    fn ambiguous_and_unknown_folders_are_skipped_naming_the_candidates() {
        let t = all_tools();
        let why = recognised(&[("bot.c", ""), ("gen.py", "")], &t).unwrap_err();
        assert!(why.contains("C (bot.c), Python 3 (gen.py)"), "{why}");
        let why = recognised(&[("a.py", ""), ("b.py", "")], &t).unwrap_err();
        assert!(
            why.contains("a.py, b.py") && why.contains("main.py"),
            "{why}"
        );
        let two = "class A { public static void main(String[] a) {} }";
        let why = recognised(&[("A.java", two), ("B.java", two)], &t).unwrap_err();
        assert!(why.contains("A.java, B.java"), "{why}");
        let why = recognised(&[("notes.txt", "")], &t).unwrap_err();
        assert!(why.starts_with("no launch script"), "{why}");
    }

    #[test]
    fn a_missing_toolchain_is_named_with_its_package() {
        let none = Toolchains::detect("/nonexistent", true);
        let why = recognised(&[("bot.go", "")], &none).unwrap_err();
        assert!(
            why.contains("go is not on the bots' PATH")
                && why.contains("apt-get install golang-go"),
            "{why}"
        );
        assert!(none.record()["tsc"].contains("node-typescript"));
        // jsoncpp, a library Botzone's C++ bots include, is listed with the tools.
        let jsoncpp = &none.record()["jsoncpp"];
        match Path::new(JSONCPP_HEADER).is_file() {
            true => assert_eq!(jsoncpp, JSONCPP_HEADER),
            false => assert!(jsoncpp.contains("libjsoncpp-dev"), "{jsoncpp}"),
        }
    }

    #[test]
    fn a_tool_outside_the_system_folders_is_not_seen_by_the_sandbox() {
        let dir = tempfile::tempdir().unwrap();
        let tool = dir.path().join("gcc");
        fs::write(&tool, "").unwrap();
        fs::set_permissions(&tool, fs::Permissions::from_mode(0o755)).unwrap();
        let path = dir.path().to_str().unwrap();
        assert_eq!(locate("gcc", path, false), Some(tool));
        assert_eq!(locate("gcc", path, true), None);
    }
}
