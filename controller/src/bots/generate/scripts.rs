//! The scripts' commands: how each language's source is built and launched, and how its entry
//! point (a Java class, a Cargo binary, one of several files) is found.

use std::fs;
use std::path::Path;

use serde::Deserialize;

use super::{Dialect, Generated, Language, NoScripts};
use crate::folder;

/// Largest Java source read to find its `main` method and package.
const JAVA_CAP: u64 = 1 << 20;
/// Largest C++ source read to find its includes.
const SOURCE_CAP: u64 = 16 << 20;

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
pub(super) const JSONCPP_HEADER: &str = "/usr/include/jsoncpp/json/json.h";

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
pub(super) fn has_avx() -> bool {
    cfg!(target_arch = "x86_64")
        && fs::read_to_string("/proc/cpuinfo").is_ok_and(|info| {
            info.lines()
                .find(|l| l.starts_with("flags"))
                .is_some_and(|l| l.split_whitespace().any(|f| f == "avx"))
        })
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
fn entry_point(lang: Language, files: &[String], names: &[&str]) -> Result<String, NoScripts> {
    if let [only] = files {
        return Ok(only.clone());
    }
    let mains: Vec<&String> = files
        .iter()
        .filter(|f| names.contains(&f.as_str()))
        .collect();
    match mains.as_slice() {
        [main] => Ok((*main).clone()),
        _ => Err(NoScripts(format!(
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
        ))),
    }
}

/// The scripts for `lang`, recognised by `files` (its top-level files in `folder`).
pub(super) fn plan(
    lang: Language,
    files: &[String],
    folder: &Path,
    dialect: Dialect,
) -> Result<Generated, NoScripts> {
    let made = |from: Vec<String>, build: Option<String>, launch: String| Generated {
        language: lang,
        from,
        build,
        launch,
    };
    Ok(match lang {
        Language::C => made(
            files.to_vec(),
            Some(c_build(dialect, files)),
            "./bot".into(),
        ),
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
        Language::Go => made(files.to_vec(), Some(go_build(files)), "./bot".into()),
    })
}

/// The C compiler's command for `files` in `dialect`.
fn c_build(dialect: Dialect, files: &[String]) -> String {
    let define = match dialect {
        Dialect::Iso => "",
        Dialect::Botzone => "-D_BOTZONE_ONLINE ",
    };
    format!("gcc {define}-O2 -o bot {} -lm", words(files))
}

/// Go's build of `files`: the module, when they hold a `go.mod`, else the files themselves.
fn go_build(files: &[String]) -> String {
    let target = if files.iter().any(|f| f == "go.mod") {
        ".".to_string()
    } else {
        words(files)
    };
    format!("GOTOOLCHAIN=local go build -o bot {target}")
}

/// A TypeScript bot's entry point, its build (compiled to JavaScript beside it) and its launch.
fn typescript(files: &[String]) -> Result<(String, String, String), NoScripts> {
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
fn java(folder: &Path, files: &[String]) -> Result<(String, String), NoScripts> {
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
fn java_main(folder: &Path, files: &[String]) -> Result<String, NoScripts> {
    let mut mains = Vec::new();
    for file in files {
        let text = folder::read_text(folder, Path::new(file), JAVA_CAP)
            .map_err(|e| NoScripts(e.to_string()))?;
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
        [] => Err(NoScripts(format!(
            "no launch script, and none of the Java files ({}) has a public static void \
             main: add one, or write a launch script",
            files.join(", ")
        ))),
        _ => Err(NoScripts(format!(
            "no launch script, and several Java classes with a main method ({}): take6 cannot \
             tell which to run; write a launch script",
            mains
                .iter()
                .map(|(f, _)| f.as_str())
                .collect::<Vec<_>>()
                .join(", ")
        ))),
    }
}

/// The binary `cargo build` makes for the `Cargo.toml` in `folder`: its only `[[bin]]`, or
/// else the package's name.
fn cargo_binary(folder: &Path) -> Result<String, NoScripts> {
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
    let text = folder::read_text(folder, Path::new("Cargo.toml"), JAVA_CAP)
        .map_err(|e| NoScripts(e.to_string()))?;
    let manifest: Manifest = toml::from_str(&text).map_err(|e| {
        NoScripts(format!(
            "no launch script, and Cargo.toml is not valid: {e}"
        ))
    })?;
    let bins: Vec<String> = manifest.bin.into_iter().filter_map(|b| b.name).collect();
    match (bins.as_slice(), manifest.package.and_then(|p| p.name)) {
        ([bin], _) => Ok(bin.clone()),
        ([], Some(name)) => Ok(name),
        ([], None) => Err(NoScripts(
            "no launch script, and Cargo.toml names no package".into(),
        )),
        (bins, _) => Err(NoScripts(format!(
            "no launch script, and Cargo.toml has several binaries ({}): write a launch script",
            bins.join(", ")
        ))),
    }
}
