//! `guandan arena --journal FILE`: a stopped arena goes on where it was and reports what an
//! uninterrupted run reports; a journal of another arena or a damaged one is refused and left as
//! it was.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

fn temp_dir(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("guandan-cli-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("temp dir");
    dir
}

fn arena(extra: &[&str], journal: Option<&Path>) -> Output {
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_guandan"));
    cmd.args(["arena", "--a", "L2", "--b", "L1", "--seed", "7", "--threads", "2", "--json"]).args(extra);
    if let Some(j) = journal {
        cmd.arg("--journal").arg(j);
    }
    cmd.output().expect("run guandan")
}

/// The report without what depends on the clock.
fn outcome(out: &Output) -> serde_json::Value {
    assert!(out.status.success(), "arena failed: {}", String::from_utf8_lossy(&out.stderr));
    let mut v: serde_json::Value = serde_json::from_slice(&out.stdout).expect("JSON report");
    let m = v.as_object_mut().expect("an object");
    m.retain(|k, _| !k.contains("_ms_"));
    v
}

#[test]
fn a_stopped_arena_resumes_from_its_journal_and_reports_the_same() {
    let dir = temp_dir("arena-journal");
    let journal = dir.join("arena.jsonl");
    let whole = outcome(&arena(&["--deals", "5"], None));
    let first = outcome(&arena(&["--deals", "5"], Some(&journal)));
    assert_eq!(first, whole, "with a journal, the same report");
    let text = std::fs::read_to_string(&journal).unwrap();
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines.len(), 1 + 10, "a header and the 10 games");
    // Stopped after 6 games, the 7th cut off mid-write.
    let cut = format!("{}\n{}", lines[..7].join("\n"), &lines[7][..lines[7].len() / 2]);
    std::fs::write(&journal, &cut).unwrap();
    let out = arena(&["--deals", "5"], Some(&journal));
    assert!(
        String::from_utf8_lossy(&out.stderr).contains("holds 6 of the 10 games"),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert_eq!(outcome(&out), whole, "resumed: the same report");
    let resumed = std::fs::read_to_string(&journal).unwrap();
    assert_eq!(resumed.lines().count(), 11, "the cut line replaced, not kept: {resumed}");
    assert!(resumed.lines().all(|l| serde_json::from_str::<serde_json::Value>(l).is_ok()), "every line whole");
    // More deals extend the same journal: its 10 games are reused.
    let more = arena(&["--deals", "7"], Some(&journal));
    assert!(String::from_utf8_lossy(&more.stderr).contains("holds 10 of the 14 games"));
    assert_eq!(outcome(&more), outcome(&arena(&["--deals", "7"], None)));
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_journal_of_another_arena_or_a_damaged_one_is_refused_and_kept() {
    let dir = temp_dir("arena-journal-bad");
    let journal = dir.join("arena.jsonl");
    outcome(&arena(&["--deals", "2"], Some(&journal)));
    let before = std::fs::read(&journal).unwrap();
    // Another seed: another arena.
    let out = Command::new(env!("CARGO_BIN_EXE_guandan"))
        .args(["arena", "--a", "L2", "--b", "L1", "--seed", "8", "--deals", "2", "--journal"])
        .arg(&journal)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(
        String::from_utf8_lossy(&out.stderr).contains("made for another arena"),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert_eq!(std::fs::read(&journal).unwrap(), before, "the journal is untouched");
    // A damaged line in the middle (not a cut-off last line).
    let text = String::from_utf8(before).unwrap();
    let mut lines: Vec<String> = text.lines().map(String::from).collect();
    lines[2] = "{\"g\": 1, \"game\": ".into();
    let damaged = lines.join("\n") + "\n";
    std::fs::write(&journal, &damaged).unwrap();
    let out = arena(&["--deals", "2"], Some(&journal));
    assert_eq!(out.status.code(), Some(2));
    assert!(
        String::from_utf8_lossy(&out.stderr).contains("line 3 is damaged"),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert_eq!(std::fs::read_to_string(&journal).unwrap(), damaged, "left as it was");
    // Not a journal at all, and --matches with a journal.
    std::fs::write(&journal, "hello\n").unwrap();
    let out = arena(&["--deals", "2"], Some(&journal));
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("not an arena journal"));
    let out = arena(&["--deals", "2", "--matches", "1"], Some(&dir.join("other.jsonl")));
    assert_eq!(out.status.code(), Some(2));
    assert!(!dir.join("other.jsonl").exists(), "nothing written for a refused run");
    let _ = std::fs::remove_dir_all(&dir);
}

/// `--untimed` (no decision cut at the 3 s limit) is another arena for the journal: a timed
/// journal is refused by an untimed run and the other way round. On fast agents nothing reaches
/// the limit, so it plays the very games a timed arena plays.
#[test]
fn an_untimed_arena_plays_the_same_games_and_keeps_its_own_journal() {
    let dir = temp_dir("arena-journal-untimed");
    let (timed, untimed) = (dir.join("timed.jsonl"), dir.join("untimed.jsonl"));
    let whole = outcome(&arena(&["--deals", "3"], Some(&timed)));
    assert_eq!(outcome(&arena(&["--deals", "3", "--untimed"], Some(&untimed))), whole);
    for (journal, extra) in [(&timed, &["--deals", "3", "--untimed"][..]), (&untimed, &["--deals", "3"][..])] {
        let before = std::fs::read(journal).unwrap();
        let out = arena(extra, Some(journal));
        assert_eq!(out.status.code(), Some(2), "{extra:?}");
        assert!(String::from_utf8_lossy(&out.stderr).contains("made for another arena"));
        assert_eq!(std::fs::read(journal).unwrap(), before, "the journal is untouched");
    }
    let out = arena(&["--deals", "1", "--untimed", "--budget-ms", "50"], None);
    assert_eq!(out.status.code(), Some(2), "a time budget and --untimed contradict each other");
    let _ = std::fs::remove_dir_all(&dir);
}
