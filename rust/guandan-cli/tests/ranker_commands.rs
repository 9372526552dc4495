//! `guandan distill-labels` and `guandan train-ranker` (issue 40): the label file does not depend
//! on the thread count, a cut-off file resumes to the same bytes, training twice writes the same
//! weights, and bad input is refused with exit code 2.

use std::path::{Path, PathBuf};
use std::process::Command;

fn temp_dir(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("guandan-cli-{name}-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    dir
}

fn guandan(args: &[&str]) -> std::process::Output {
    Command::new(env!("CARGO_BIN_EXE_guandan")).args(args).output().expect("run guandan")
}

fn distill(out: &Path, deals: &str, threads: &str) -> std::process::Output {
    let args = ["distill-labels", "--deals", deals, "--seed", "9", "--iterations", "24", "--threads", threads];
    guandan(&[&args[..], &["--out", out.to_str().unwrap()]].concat())
}

fn ok(out: std::process::Output) -> std::process::Output {
    assert!(out.status.success(), "failed: {}", String::from_utf8_lossy(&out.stderr));
    out
}

#[test]
fn labels_are_thread_independent_and_resume() {
    let dir = temp_dir("distill");
    let (one, two, cut) = (dir.join("one.jsonl"), dir.join("two.jsonl"), dir.join("cut.jsonl"));
    ok(distill(&one, "3", "1"));
    ok(distill(&two, "3", "2"));
    let full = std::fs::read(&one).unwrap();
    assert_eq!(full, std::fs::read(&two).unwrap(), "the threads changed the labels");
    // Cut in the middle of the last deal: the resume drops it and plays it again.
    std::fs::write(&cut, &full[..full.len() * 3 / 4]).unwrap();
    ok(distill(&cut, "3", "2"));
    assert_eq!(std::fs::read(&cut).unwrap(), full);
    // Another seed on the same file is refused.
    let other = guandan(&["distill-labels", "--deals", "4", "--seed", "10", "--out", one.to_str().unwrap()]);
    assert_eq!(other.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&other.stderr).contains("seed 9"));
    // So is another teacher (a later generation's L3, with ranker playouts): the header says so.
    let profile = dir.join("teacher.json");
    std::fs::write(&profile, r#"{"level": "L3", "search": {"rollout_ranker": true, "rollout_ranker_plies": 4}}"#)
        .unwrap();
    let mut args = vec!["distill-labels", "--deals", "4", "--seed", "9", "--iterations", "24"];
    args.extend(["--ai", profile.to_str().unwrap(), "--out", one.to_str().unwrap()]);
    let other = guandan(&args);
    assert_eq!(other.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&other.stderr).contains("\"rollout_ranker\":false"));
    assert_eq!(std::fs::read(&one).unwrap(), full, "a refused resume changed the file");
    let g2 = dir.join("g2.jsonl");
    args.pop();
    args.push(g2.to_str().unwrap());
    args[2] = "1";
    ok(guandan(&args));
    let g2_path = g2.clone();
    let g2 = std::fs::read_to_string(&g2).unwrap();
    assert!(g2.lines().next().unwrap().contains("\"rollout_ranker_plies\":4"));
    // A generation trains on its labels with the earlier ones: the sidecar names both files.
    let both = dir.join("both.bin");
    ok(guandan(&[
        "train-ranker",
        "--labels",
        one.to_str().unwrap(),
        "--labels",
        g2_path.to_str().unwrap(),
        "--out",
        both.to_str().unwrap(),
        "--epochs",
        "2",
    ]));
    let sidecar: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(both.with_extension("json")).unwrap()).unwrap();
    let sources = sidecar["labels"].as_array().unwrap();
    assert_eq!(sources.len(), 2);
    assert_eq!((sources[0]["deals"].as_u64(), sources[1]["deals"].as_u64()), (Some(3), Some(1)));
    assert_eq!(sources[1]["search"]["rollout_ranker_plies"], 4);
    assert_ne!(g2.lines().nth(1), std::str::from_utf8(&full).unwrap().lines().nth(1), "the same labels from L3v3");

    // Training twice gives the same weights; the sidecar names them by SHA-256.
    let train = |name: &str| {
        let out = dir.join(name);
        let labels = one.to_str().unwrap();
        ok(guandan(&[
            "train-ranker",
            "--labels",
            labels,
            "--out",
            out.to_str().unwrap(),
            "--seed",
            "2",
            "--epochs",
            "3",
        ]));
        let sidecar: serde_json::Value =
            serde_json::from_str(&std::fs::read_to_string(out.with_extension("json")).unwrap()).unwrap();
        (std::fs::read(&out).unwrap(), sidecar)
    };
    let (a, side_a) = train("a.bin");
    let (b, side_b) = train("b.bin");
    assert_eq!(a, b);
    // The curve as a chart.
    let png = dir.join("curve.png");
    let labels = one.to_str().unwrap();
    let c = dir.join("c.bin");
    ok(guandan(&[
        "train-ranker",
        "--labels",
        labels,
        "--out",
        c.to_str().unwrap(),
        "--epochs",
        "2",
        "--plot",
        png.to_str().unwrap(),
    ]));
    assert!(std::fs::read(&png).unwrap().starts_with(b"\x89PNG\r\n\x1a\n"));
    assert_eq!(side_a["sha256"], side_b["sha256"]);
    assert_eq!(side_a["sha256"].as_str().unwrap().len(), 64);
    assert_eq!(side_a["curve"].as_array().unwrap().len(), 4, "epoch 0 and three more");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn bad_input_is_refused() {
    let dir = temp_dir("ranker-bad");
    let junk = dir.join("junk.jsonl");
    std::fs::write(&junk, "not json\n").unwrap();
    let junk = junk.to_str().unwrap();
    let out = dir.join("w.bin");
    let out = out.to_str().unwrap();
    for args in [
        vec!["distill-labels", "--deals", "0", "--out", out],
        vec!["distill-labels", "--deals", "2", "--out", junk],
        vec!["distill-labels", "--deals", "2", "--out", out, "--ai", "L2"],
        vec!["distill-labels", "--deals", "2", "--out", out, "--ai", "/nonexistent/teacher.json"],
        vec!["train-ranker", "--labels", junk, "--out", out],
        vec!["arena", "--a", "L2g99", "--b", "L2", "--deals", "2"],
        vec!["train-ranker", "--labels", "/nonexistent/labels.jsonl", "--out", out],
        vec!["train-ranker", "--labels", junk, "--out", out, "--learning-rate", "-1"],
    ] {
        let r = guandan(&args);
        assert_eq!(r.status.code(), Some(2), "{args:?}: {}", String::from_utf8_lossy(&r.stderr));
        assert!(String::from_utf8_lossy(&r.stderr).starts_with("error: "), "{args:?}");
    }
    let _ = std::fs::remove_dir_all(&dir);
}

/// `L2+` is an arena contestant (L2 with the committed ranker).
#[test]
fn the_arena_plays_l2_plus() {
    let out = ok(guandan(&["arena", "--a", "L2+", "--b", "L2v2", "--deals", "3", "--seed", "4", "--json"]));
    let r: serde_json::Value = serde_json::from_slice(&out.stdout).expect("a JSON report");
    assert_eq!((r["a"].as_str(), r["b"].as_str(), r["games"].as_u64()), (Some("L2+"), Some("L2v2"), Some(6)));
}
