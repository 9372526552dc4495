//! `guandan arena` contestants: today's agents, the agents before issue 11 (`L2v1`, `L3v1`) and
//! profile files; `guandan tune` writes a profile the arena reads back.

use std::path::PathBuf;
use std::process::Command;

fn temp_dir(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("guandan-cli-{name}-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    dir
}

fn guandan(args: &[&str]) -> std::process::Output {
    Command::new(env!("CARGO_BIN_EXE_guandan")).args(args).output().expect("run guandan")
}

fn report(out: &std::process::Output) -> serde_json::Value {
    assert!(out.status.success(), "failed: {}", String::from_utf8_lossy(&out.stderr));
    serde_json::from_slice(&out.stdout).expect("a JSON report")
}

#[test]
fn the_arena_plays_today_against_v1() {
    let r = report(&guandan(&["arena", "--a", "L2", "--b", "L2v1", "--deals", "3", "--seed", "4", "--json"]));
    assert_eq!(r["a"], "L2");
    assert_eq!(r["b"], "L2v1");
    assert_eq!(r["games"], 6);
}

/// `L2v2` (before issue 25) is a contestant; the duplicate pairs account for every deal and the
/// level margin lies inside its interval.
#[test]
fn the_arena_plays_today_against_v2_and_reports_pairs() {
    let r = report(&guandan(&["arena", "--a", "L2", "--b", "L2v2", "--deals", "20", "--seed", "4", "--json"]));
    assert_eq!((r["a"].as_str(), r["b"].as_str()), (Some("L2"), Some("L2v2")));
    let pairs = ["pairs_a_both", "pairs_b_both", "pairs_split"].map(|k| r[k].as_u64().unwrap());
    assert_eq!(pairs.iter().sum::<u64>(), 20);
    let margin = r["a_level_margin_per_deal"].as_f64().unwrap();
    let ci = r["a_level_margin_ci95"].as_array().unwrap();
    assert!(ci[0].as_f64().unwrap() <= margin && margin <= ci[1].as_f64().unwrap());
}

#[test]
fn tune_writes_a_profile_the_arena_reads() {
    let dir = temp_dir("tune");
    let file = dir.join("tuned.json");
    let path = file.to_str().unwrap();
    let args = ["tune", "--deals", "2", "--generations", "1", "--children", "2", "--seed", "3", "--out", path];
    let out = guandan(&args);
    assert!(out.status.success(), "tune failed: {}", String::from_utf8_lossy(&out.stderr));
    assert!(String::from_utf8_lossy(&out.stderr).contains("generation   0"));
    let profile: serde_json::Value = serde_json::from_str(&std::fs::read_to_string(&file).unwrap()).unwrap();
    assert_eq!(profile["level"], "L2");
    assert!(profile["weights"]["bomb_danger"].as_f64().is_some_and(f64::is_finite));
    let r = report(&guandan(&["arena", "--a", path, "--b", "L2v1", "--deals", "2", "--json"]));
    assert_eq!(r["games"], 4);
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_bad_contestant_is_a_usage_error() {
    let dir = temp_dir("bad-profile");
    let file = dir.join("bad.json");
    std::fs::write(&file, "{\"level\": \"L9\"}").unwrap();
    for a in ["L5", "L3x0", "L3x", "L3xabc", "L3x1e9", "/nonexistent-dir/p.json", file.to_str().unwrap()] {
        let out = guandan(&["arena", "--a", a, "--b", "L1", "--deals", "1"]);
        assert_eq!(out.status.code(), Some(2), "{a}");
        assert!(!String::from_utf8_lossy(&out.stderr).is_empty());
    }
    let _ = std::fs::remove_dir_all(&dir);
}

/// The oracle diagnostic is for an L3 only, and its report says it saw the true hands.
#[test]
fn the_oracle_diagnostic_needs_an_l3_and_names_itself() {
    let out = guandan(&["arena", "--a", "L2", "--b", "L1", "--deals", "1", "--a-oracle"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("--a-oracle"));
    let args = ["arena", "--a", "L3", "--b", "L1", "--deals", "1", "--iterations", "8", "--a-oracle", "--json"];
    let r = report(&guandan(&args));
    assert_eq!(r["a"], "L3 (oracle: true hands)");
    assert_eq!(r["games"], 2);
}

/// The desktop level and a scaled L3 are contestants (budget cut here by `--iterations`: this
/// checks the names, the arena's report measures them).
#[test]
fn the_arena_plays_the_desktop_level_and_scaled_budgets() {
    let args = ["arena", "--a", "L4", "--b", "L3x0.5", "--deals", "1", "--iterations", "8", "--threads", "1", "--json"];
    let r = report(&guandan(&args));
    assert_eq!((r["a"].as_str(), r["b"].as_str()), (Some("L4"), Some("L3x0.5")));
    assert_eq!(r["games"], 2);
}

/// `guandan bench --l3 NAME` times only the L3 profiles named; anything but an L3 is refused.
#[test]
fn bench_times_the_l3_profiles_it_is_given() {
    let out = guandan(&["bench", "--l3-positions", "2", "--l3", "L3x0.1", "--l3", "L4"]);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.contains("2 L3 positions"), "{text}");
    for name in ["L3x0.1", "L4"] {
        assert!(text.lines().any(|l| l.starts_with(name) && l.contains("n=2")), "{name}: {text}");
    }
    assert!(!text.contains("advisor"), "{text}");
    for bad in ["L2", "L9"] {
        let out = guandan(&["bench", "--l3-positions", "2", "--l3", bad]);
        assert_eq!(out.status.code(), Some(2), "{bad}");
    }
}
