//! `guandan replay verify` gives every record of the shared corpus (tests/replay-corpus/) the
//! verdict its `verdicts.json` states; the Godot suite checks the game against the same file.

use std::path::PathBuf;
use std::process::Command;

fn corpus() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../tests/replay-corpus")
}

#[test]
fn the_cli_agrees_with_the_corpus_verdicts() {
    let verdicts: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(corpus().join("verdicts.json")).unwrap()).unwrap();
    let verdicts = verdicts.as_object().unwrap();
    let files: Vec<_> = std::fs::read_dir(corpus())
        .unwrap()
        .filter_map(|e| e.ok()?.file_name().into_string().ok())
        .filter(|n| n.ends_with(".jsonl"))
        .collect();
    assert_eq!(files.len(), verdicts.len(), "every record has a verdict and every verdict a record");
    for (file, want) in verdicts {
        let out = Command::new(env!("CARGO_BIN_EXE_guandan"))
            .args(["replay", "verify", "--json"])
            .arg(corpus().join(file))
            .output()
            .unwrap();
        let got: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap_or_else(|e| panic!("{file}: {e}"));
        assert_eq!(got["ok"], want["ok"], "{file}: {got}");
        assert_eq!(got["code"], want["code"], "{file}: {got}");
        assert_eq!(out.status.code(), Some(if want["ok"] == true { 0 } else { 1 }), "{file}");
    }
}
