//! Helpers shared by the integration-test binaries (each includes this file with `mod common;`
//! and uses what it needs, hence the allowance for unused items).
#![allow(dead_code)]

use std::path::Path;
use std::process::Output;

/// Output bytes as text for messages.
pub fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

/// Asserts that the controller succeeded, showing its output if not.
#[track_caller]
pub fn assert_ok(out: &Output) {
    assert!(
        out.status.success(),
        "take6 failed ({}):\nstdout:\n{}\nstderr:\n{}",
        out.status,
        text(&out.stdout),
        text(&out.stderr)
    );
}

/// The `patient` fixture's launch script: deterministic like `first`, but 20 ms per card, so a
/// series or a shard can be stopped part-way; it counts its games in its working copy.
pub fn patient_launch() -> String {
    std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/bots/patient/launch"))
        .unwrap()
}
