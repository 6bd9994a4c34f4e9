//! What one bot launch costs: no sandbox (forked by the controller, and from a plain warm init
//! as `--sandbox none` series do), a fresh sandbox (bubblewrap namespaces and cgroups) and a
//! warm sandbox (one kept across games: each launch is a request to
//! its PID 1, each game's end a kill of everything else in it). Each launch starts a shell
//! `launch` that echoes one line, reads its reply, and ends the game.
//!
//! Run with `cargo bench --bench sandbox` (as root, with bubblewrap and cgroups). A plain
//! `Instant` loop, no harness; rounds alternate the kinds.

use std::io::{BufRead, BufReader, Write};
use std::os::unix::fs::PermissionsExt;
use std::path::Path;
use std::process::Stdio;
use std::time::Instant;

use take6::sandbox::warm::Warm;
use take6::sandbox::{Clock, Limits, Mode, Sandbox};
use tokio::io::{AsyncBufReadExt, AsyncWriteExt};

const LAUNCHES: u32 = 50;

/// Milliseconds per launch through `sandbox`'s launcher (a fresh process tree each time).
fn fresh(runtime: &tokio::runtime::Runtime, sandbox: &Sandbox, dir: &Path) -> f64 {
    let start = Instant::now();
    runtime.block_on(async {
        for _ in 0..LAUNCHES {
            let stdio = [Stdio::piped(), Stdio::piped(), Stdio::null()];
            let (mut child, mut tree) = sandbox.spawn("launch", dir, stdio).unwrap();
            let mut stdin = child.stdin.take().unwrap();
            let mut stdout = tokio::io::BufReader::new(child.stdout.take().unwrap());
            stdin.write_all(b"ping\n").await.unwrap();
            let mut line = String::new();
            stdout.read_line(&mut line).await.unwrap();
            assert_eq!(line, "ping\n");
            tree.kill();
            child.wait().await.unwrap();
        }
    });
    sandbox.settle(std::time::Duration::from_secs(5));
    start.elapsed().as_secs_f64() * 1000.0 / f64::from(LAUNCHES)
}

/// Milliseconds per launch in one warm sandbox.
fn warm(warm: &mut Warm) -> f64 {
    let start = Instant::now();
    for _ in 0..LAUNCHES {
        let (in_read, mut in_write) = std::io::pipe().unwrap();
        let (out_read, out_write) = std::io::pipe().unwrap();
        let (_, err_write) = std::io::pipe().unwrap();
        warm.launch([in_read.into(), out_write.into(), err_write.into()])
            .unwrap();
        in_write.write_all(b"ping\n").unwrap();
        let mut line = String::new();
        BufReader::new(out_read).read_line(&mut line).unwrap();
        assert_eq!(line, "ping\n");
        warm.end().unwrap();
    }
    start.elapsed().as_secs_f64() * 1000.0 / f64::from(LAUNCHES)
}

fn main() {
    let runtime = tokio::runtime::Runtime::new().unwrap();
    let dir = tempfile::tempdir().unwrap();
    let launch = dir.path().join("launch");
    std::fs::write(&launch, "#!/bin/sh\nread x\necho \"$x\"\ncat >/dev/null\n").unwrap();
    std::fs::set_permissions(&launch, std::fs::Permissions::from_mode(0o755)).unwrap();
    let none = Sandbox::none();
    let auto = Sandbox::new(Mode::Auto, Limits::default(), Clock::Cpu).unwrap();
    auto.prepare_workdir(dir.path(), 0).unwrap();
    eprintln!("{}", auto.report().line());
    let init = Path::new(env!("CARGO_BIN_EXE_take6"));
    let mut kept = Warm::start(&auto, init, dir.path(), None)
        .expect("a warm sandbox (needs root and bubblewrap)");
    let mut plain = Warm::start_plain(&none, init, dir.path(), None).expect("a plain warm init");
    let (mut n, mut p, mut f, mut w) = (Vec::new(), Vec::new(), Vec::new(), Vec::new());
    for _ in 0..3 {
        n.push(fresh(&runtime, &none, dir.path()));
        p.push(warm(&mut plain));
        f.push(fresh(&runtime, &auto, dir.path()));
        w.push(warm(&mut kept));
    }
    let median = |v: &mut Vec<f64>| {
        v.sort_by(f64::total_cmp);
        v[v.len() / 2]
    };
    println!(
        "ms per launch (median of 3 x {LAUNCHES}): none {:.2}, none from a plain warm init {:.2}, \
         fresh sandbox {:.2}, warm sandbox {:.2}",
        median(&mut n),
        median(&mut p),
        median(&mut f),
        median(&mut w)
    );
}
