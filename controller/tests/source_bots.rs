//! Bot folders of source only: the real `take6` binary writes their `build` and
//! `launch` into the working copy and plays them. Each fixture `tests/bots/src-*` is a strict
//! player of the `default` protocol (it fails on any line it was not promised, and writes one
//! `ok` per game read to its end into `verdicts.txt`) with no script of its own.

mod common;

use common::{arena, assert_ok, copy_dir, fixtures, series_cmd, take6_cmd, text};

use std::fs;
use std::io::BufReader;
use std::path::{Path, PathBuf};
use std::process::Output;

use take6::bots::generate::Language;
use take6::record::read_games_jsonl;
use take6::series::manifest::Manifest;

/// Games per series: enough to read every kind of message, short on 2 cores.
const GAMES: usize = 3;

/// Every path below `dir` with its bytes (folders as empty), sorted: any write shows.
fn snapshot(dir: &Path) -> Vec<(PathBuf, Vec<u8>)> {
    let mut out = Vec::new();
    for entry in fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() {
            out.push((path.clone(), Vec::new()));
            out.extend(snapshot(&path));
        } else {
            out.push((path.clone(), fs::read(&path).unwrap()));
        }
    }
    out.sort();
    out
}

/// `take6 run` in `dir` with generous limits (a JVM's start is the first reply) and `args`.
fn run_series(dir: &Path, args: &[&str]) -> Output {
    series_cmd(dir, 10_000, 5_000)
        .args(["--seed", "23"])
        .args(["--games", &GAMES.to_string()])
        .args(args)
        .output()
        .unwrap()
}

fn manifest(dir: &Path) -> Manifest {
    Manifest::read(&fs::canonicalize(dir.join("results/latest")).unwrap()).unwrap()
}

/// The reason `name` was skipped, if it was.
fn skipped(dir: &Path, name: &str) -> Option<String> {
    let m = manifest(dir);
    m.skipped
        .iter()
        .find(|s| s.name == name)
        .map(|s| s.reason.clone())
}

/// Plays the source-only fixture `name` through the real binary and checks that take6 wrote
/// scripts for `language`, that the bot read every game to its end without a fault, and that
/// its folder in `bots/` was not written. `optional`: a language CI need not have (Rust, Go,
/// TypeScript); when the sandbox lacks its tool the series is tried without the sandbox (the
/// controller's own PATH, where rustup's cargo is), and the test says SKIPPED when that lacks
/// it too.
fn plays_clean(name: &str, language: Language, optional: bool) {
    let tmp = arena(&[name]);
    let folder = tmp.path().join("bots").join(name);
    let before = snapshot(&folder);
    let mut out = run_series(tmp.path(), &[]);
    // A series with no usable bot keeps no folder: its reasons are on stderr.
    let missing = |out: &Output| {
        let said = text(&out.stderr);
        said.lines()
            .find(|l| l.contains(&format!("{name}: skipped: ")) && l.contains("bots' PATH"))
            .map(str::to_string)
    };
    if optional && let Some(why) = missing(&out) {
        eprintln!("{why}; trying --sandbox none");
        out = run_series(tmp.path(), &["--sandbox", "none"]);
        if let Some(why) = missing(&out) {
            common::skipped(&format!(
                "{name}: no {} toolchain here: {why}",
                language.name()
            ));
            return;
        }
    }
    assert_ok(&out);
    let series = fs::canonicalize(tmp.path().join("results/latest")).unwrap();
    let m = manifest(tmp.path());
    assert_eq!(m.bots.len(), 1, "{:?}", m.skipped);
    let generated = m.bots[0]
        .generated
        .as_ref()
        .expect("scripts were generated");
    assert_eq!(generated.language, language);
    let games = read_games_jsonl(BufReader::new(
        fs::File::open(series.join("games.jsonl")).unwrap(),
    ))
    .unwrap();
    assert_eq!(games.len(), GAMES);
    for g in &games {
        assert!(
            g.rounds[0].invalid.is_empty(),
            "game {}: {:?}",
            g.game,
            g.rounds[0].invalid
        );
    }
    let work = series.join("work").join(name);
    let verdicts = fs::read_to_string(work.join("verdicts.txt")).unwrap();
    assert_eq!(verdicts, "ok\n".repeat(GAMES), "{name} read every game");
    let launch = fs::read_to_string(work.join("launch")).unwrap();
    assert!(
        launch.starts_with("#!/bin/sh\n")
            && launch.contains("set -e\n")
            && launch.contains("\nexec "),
        "{launch}"
    );
    assert_eq!(snapshot(&folder), before, "bots/{name} was not written");
}

#[test]
fn a_c_folder_of_source_only_is_built_with_gcc_and_plays() {
    plays_clean("src-c", Language::C, false);
}

#[test]
fn a_cpp_folder_of_source_only_is_built_with_gpp_and_plays() {
    plays_clean("src-cpp", Language::Cpp, false);
}

#[test]
fn a_java_folder_of_source_only_is_built_with_javac_and_plays() {
    plays_clean("src-java", Language::Java, false);
}

#[test]
fn a_python_file_alone_is_launched_unbuffered_and_plays() {
    plays_clean("src-python", Language::Python, false);
}

#[test]
fn a_javascript_file_alone_is_launched_with_node_and_plays() {
    plays_clean("src-js", Language::JavaScript, false);
}

#[test]
fn a_typescript_file_is_built_with_tsc_and_plays_where_tsc_is_installed() {
    plays_clean("src-ts", Language::TypeScript, true);
}

#[test]
fn a_cargo_project_is_built_with_cargo_and_plays_where_cargo_is_installed() {
    plays_clean("src-rust", Language::Rust, true);
}

#[test]
fn a_go_file_is_built_with_go_and_plays_where_go_is_installed() {
    plays_clean("src-go", Language::Go, true);
}

/// Writes `files` (name, content) into a new folder `bots/<name>`.
fn folder(dir: &Path, name: &str, files: &[(&str, &str)]) {
    let folder = dir.join("bots").join(name);
    fs::create_dir_all(&folder).unwrap();
    for (file, content) in files {
        fs::write(folder.join(file), content).unwrap();
    }
}

#[test]
fn ambiguous_folders_are_skipped_naming_the_candidates_and_an_own_launch_is_kept() {
    let tmp = arena(&["src-python"]);
    let main = "public class X { public static void main(String[] a) {} }";
    folder(
        tmp.path(),
        "two-languages",
        &[("bot.c", ""), ("bot.py", "")],
    );
    folder(tmp.path(), "two-pythons", &[("a.py", ""), ("b.py", "")]);
    folder(
        tmp.path(),
        "two-mains",
        &[("A.java", main), ("B.java", main)],
    );
    folder(tmp.path(), "own-build", &[("bot.c", "")]);
    let build = tmp.path().join("bots/own-build/build");
    fs::write(&build, "#!/bin/sh\n").unwrap();
    // Its own launch wins over the source beside it: the C file is never compiled.
    copy_dir(
        &fixtures().join("first"),
        &tmp.path().join("bots/own-launch"),
    );
    fs::write(tmp.path().join("bots/own-launch/broken.c"), "not C").unwrap();
    let before = snapshot(&tmp.path().join("bots"));
    let out = run_series(tmp.path(), &[]);
    assert_ok(&out);
    let reason = |name| skipped(tmp.path(), name).unwrap_or_else(|| panic!("{name} played"));
    let why = reason("two-languages");
    assert!(why.contains("C (bot.c), Python 3 (bot.py)"), "{why}");
    let why = reason("two-pythons");
    assert!(
        why.contains("a.py, b.py") && why.contains("main.py, bot.py"),
        "{why}"
    );
    let why = reason("two-mains");
    assert!(why.contains("A.java, B.java"), "{why}");
    let why = reason("own-build");
    assert!(why.contains("has a build script"), "{why}");
    let m = manifest(tmp.path());
    let own = m.bots.iter().find(|b| b.name == "own-launch").unwrap();
    assert!(own.generated.is_none());
    assert!(
        text(&out.stderr).contains("two-languages: skipped: no launch script"),
        "{}",
        text(&out.stderr)
    );
    assert_eq!(
        snapshot(&tmp.path().join("bots")),
        before,
        "bots/ was not written"
    );
}

#[test]
fn a_missing_toolchain_skips_the_bot_naming_the_tool_and_its_package() {
    let optional = [("src-ts", "tsc"), ("src-go", "go"), ("src-rust", "cargo")];
    let tmp = arena(&["src-python", "src-ts", "src-go", "src-rust"]);
    let out = run_series(tmp.path(), &[]);
    assert_ok(&out);
    let m = manifest(tmp.path());
    // The 10 tools, and jsoncpp (the library Botzone's C++ bots include).
    assert_eq!(m.toolchains.len(), 11, "{:?}", m.toolchains);
    assert!(m.toolchains.contains_key("jsoncpp"), "{:?}", m.toolchains);
    assert!(
        !m.toolchains["python3"].starts_with("missing"),
        "{:?}",
        m.toolchains
    );
    let mut seen = 0;
    for (name, tool) in optional {
        let status = &m.toolchains[tool];
        if let Some(package) = status.strip_prefix("missing (apt-get install ") {
            let package = package.trim_end_matches(')');
            let why = skipped(tmp.path(), name).unwrap_or_else(|| panic!("{name} played"));
            assert!(
                why.contains(&format!("{tool} is not on the bots' PATH"))
                    && why.contains(&format!("apt-get install {package}")),
                "{why}"
            );
            seen += 1;
        }
    }
    if seen == 0 {
        common::skipped("tsc, go and cargo are all installed here; no toolchain is missing");
    }
}

#[test]
fn check_shows_the_scripts_it_wrote_and_the_toolchains() {
    let tmp = arena(&["src-c"]);
    let out = take6_cmd(tmp.path())
        .args(["check", "bots/src-c", "--games", "2"])
        .args(["--first-reply-ms", "10000", "--reply-ms", "5000"])
        .env_remove("RUST_LOG")
        .output()
        .unwrap();
    assert_ok(&out);
    let shown = text(&out.stdout);
    for expected in [
        "src-c has no launch: take6 wrote these scripts for its C source (bot.c)",
        "gcc -O2 -o bot bot.c -lm",
        "exec ./bot",
        "gcc      /usr/bin/gcc",
        "OK: no fault in 2 games.",
    ] {
        assert!(shown.contains(expected), "{expected:?} in:\n{shown}");
    }
    assert_eq!(
        fs::read_dir(tmp.path().join("bots/src-c")).unwrap().count(),
        1,
        "the checked folder is only read"
    );
}

/// Under `--sandbox none` memory is an address-space limit, and the bots' 1 GiB
/// crashed compilers that reserve address space ahead (`tsc` on node). A build gets at least
/// 4 GiB of address space (a build here reserves 1.5 GiB), while the bot itself keeps the
/// series' 1 GiB (its own reservation of 1.5 GiB is refused). And take6's own TypeScript
/// build then plays where tsc is installed.
#[test]
fn builds_get_the_address_space_compilers_reserve_under_sandbox_none() {
    let tmp = arena(&["first"]);
    let bot = tmp.path().join("bots/first");
    let reserve = "import mmap, sys\n\
                   try:\n    mmap.mmap(-1, 1536 << 20); print('reserved')\n\
                   except (OSError, MemoryError):\n    print('refused')\n";
    fs::write(bot.join("reserve.py"), reserve).unwrap();
    fs::write(
        bot.join("build"),
        "#!/bin/sh\nset -e\npython3 reserve.py > build-as.txt\ngrep -qx reserved build-as.txt\n",
    )
    .unwrap();
    let launch = fs::read_to_string(bot.join("launch")).unwrap();
    let launch = launch.replacen(
        "#!/bin/sh\n",
        "#!/bin/sh\npython3 reserve.py > bot-as.txt\n",
        1,
    );
    fs::write(bot.join("launch"), launch).unwrap();
    use std::os::unix::fs::PermissionsExt;
    for script in ["build", "launch"] {
        fs::set_permissions(bot.join(script), fs::Permissions::from_mode(0o755)).unwrap();
    }
    let out = run_series(tmp.path(), &["--sandbox", "none", "--memory-mib", "1024"]);
    assert_ok(&out);
    assert_eq!(skipped(tmp.path(), "first"), None, "{}", text(&out.stderr));
    let work = fs::canonicalize(tmp.path().join("results/latest/work/first")).unwrap();
    assert_eq!(
        fs::read_to_string(work.join("build-as.txt")).unwrap(),
        "reserved\n"
    );
    assert_eq!(
        fs::read_to_string(work.join("bot-as.txt")).unwrap(),
        "refused\n"
    );

    // tsc itself, where it is installed.
    let ts = arena(&["src-ts"]);
    let out = run_series(ts.path(), &["--sandbox", "none", "--memory-mib", "1024"]);
    match skipped(ts.path(), "src-ts") {
        Some(why) if why.contains("bots' PATH") => {
            common::skipped(&format!("no tsc here: {why}"));
        }
        other => {
            assert_ok(&out);
            assert_eq!(other, None, "{}", text(&out.stderr));
        }
    }
}
