//! `guandan review` on a local record and on a stored online match (the server's `{meta, log}`),
//! the same review both ways; a tampered record and a malformed one are refused with exit 1.

use std::path::PathBuf;
use std::process::{Command, Output};

fn temp_dir(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("guandan-review-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

fn guandan(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_guandan")).args(args).output().expect("run guandan")
}

fn json(out: &Output) -> serde_json::Value {
    serde_json::from_slice(&out.stdout).unwrap_or_else(|e| panic!("{e}: {}", String::from_utf8_lossy(&out.stdout)))
}

#[test]
fn a_local_record_and_the_same_match_stored_online_give_the_same_review() {
    let dir = temp_dir("same");
    let record = dir.join("m.jsonl");
    let record = record.to_str().unwrap();
    assert!(guandan(&["replay", "record", "--seed", "4", record]).status.success());
    let out = guandan(&["review", record, "--seat", "2", "--worlds", "4", "--json"]);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let local = json(&out);
    assert_eq!(local["ok"], true);
    assert_eq!(local["seat"], 2);
    assert!(local["moves"].as_u64().unwrap() > 20, "{}", local["moves"]);
    // Random play: the review finds plenty to mark, and says what was better.
    assert!(local["mistakes"].as_u64().unwrap() > 0);
    let first_mistake = local["deals"]
        .as_array()
        .unwrap()
        .iter()
        .flat_map(|d| d["moves"].as_array().unwrap().clone())
        .find(|m| m["mark"] == "mistake")
        .unwrap();
    assert_ne!(first_mistake["best"]["cards"], first_mistake["played"]["cards"]);
    // The server's stored match: `{meta, log}` as GET /v1/matches/CODE/N serves it.
    let stored = dir.join("stored.json");
    let text = std::fs::read_to_string(record).unwrap();
    std::fs::write(&stored, serde_json::json!({ "meta": { "deals": 1 }, "log": text }).to_string()).unwrap();
    let out = guandan(&["review", stored.to_str().unwrap(), "--seat", "2", "--worlds", "4", "--json"]);
    assert!(out.status.success());
    let mut online = json(&out);
    let mut local = local;
    online["seconds"] = 0.into();
    local["seconds"] = 0.into();
    assert_eq!(online, local, "the same review");
    // Plain text names the deals and the match summary.
    let out = guandan(&["review", record, "--seat", "2", "--worlds", "4"]);
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.contains("deal 1:") && text.contains("match:"), "{text}");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_tampered_or_malformed_record_is_refused_with_a_message() {
    let dir = temp_dir("refused");
    let record = dir.join("m.jsonl");
    assert!(guandan(&["replay", "record", "--seed", "5", record.to_str().unwrap()]).status.success());
    let text = std::fs::read_to_string(&record).unwrap();
    // Tampered: the seed in the header changed, so the recorded actions no longer fit the deal.
    let tampered = dir.join("tampered.jsonl");
    std::fs::write(&tampered, text.replacen("\"seed\":5", "\"seed\":6", 1)).unwrap();
    let malformed = dir.join("malformed.jsonl");
    std::fs::write(&malformed, "{\"version\":1,\n garbage").unwrap();
    for bad in [&tampered, &malformed] {
        let out = guandan(&["review", bad.to_str().unwrap(), "--json"]);
        assert_eq!(out.status.code(), Some(1), "{}", String::from_utf8_lossy(&out.stdout));
        let v = json(&out);
        assert_eq!(v["ok"], false);
        assert!(!v["message"].as_str().unwrap().is_empty());
    }
    let out = guandan(&["review", tampered.to_str().unwrap()]);
    assert!(String::from_utf8_lossy(&out.stderr).contains("refused"));
    // A seat out of range is refused too; a missing file is a usage error (exit 2).
    assert_eq!(guandan(&["review", record.to_str().unwrap(), "--seat", "7"]).status.code(), Some(1));
    assert_eq!(guandan(&["review", "/nonexistent/x.jsonl"]).status.code(), Some(2));
    let _ = std::fs::remove_dir_all(&dir);
}
