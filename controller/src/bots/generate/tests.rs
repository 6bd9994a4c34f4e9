use std::fs;
use std::path::PathBuf;

use super::scripts::*;
use super::toolchains::*;
use super::*;
use crate::folder;

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
fn recognised(files: &[(&str, &str)], tools: &Toolchains) -> Result<Generated, NoScripts> {
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
        b"// \xc4\xe3\xba\xc3\n#include \"jsoncpp/json.h\" // \xc4\xe3\nint main() {}\n".to_vec();
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
    let why = recognised(&[("bot.c", ""), ("gen.py", "")], &t)
        .unwrap_err()
        .0;
    assert!(why.contains("C (bot.c), Python 3 (gen.py)"), "{why}");
    let why = recognised(&[("a.py", ""), ("b.py", "")], &t).unwrap_err().0;
    assert!(
        why.contains("a.py, b.py") && why.contains("main.py"),
        "{why}"
    );
    let two = "class A { public static void main(String[] a) {} }";
    let why = recognised(&[("A.java", two), ("B.java", two)], &t)
        .unwrap_err()
        .0;
    assert!(why.contains("A.java, B.java"), "{why}");
    let why = recognised(&[("notes.txt", "")], &t).unwrap_err().0;
    assert!(why.starts_with("no launch script"), "{why}");
}

#[test]
fn a_missing_toolchain_is_named_with_its_package() {
    let none = Toolchains::detect("/nonexistent", true);
    let why = recognised(&[("bot.go", "")], &none).unwrap_err().0;
    assert!(
        why.contains("go is not on the bots' PATH") && why.contains("apt-get install golang-go"),
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
