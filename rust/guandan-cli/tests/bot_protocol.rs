//! `guandan bot` against recorded competition-platform conversations (tests/bot/*.jsonl) and a
//! local WebSocket server.

use serde_json::Value;
use std::io::Write;
use std::net::TcpListener;
use std::path::PathBuf;
use std::process::{Command, Output, Stdio};
use std::time::Duration;

fn transcript(name: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../tests/bot").join(name)
}

/// Runs `guandan bot ARGS` with `input` on stdin.
fn bot(args: &[&str], input: &str) -> Output {
    let mut child = Command::new(env!("CARGO_BIN_EXE_guandan"))
        .arg("bot")
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("run guandan bot");
    child.stdin.take().expect("stdin").write_all(input.as_bytes()).expect("write stdin");
    child.wait_with_output().expect("bot output")
}

/// The `act` messages of a transcript (lines that are JSON objects with type "act").
fn acts(input: &str) -> Vec<Value> {
    input
        .lines()
        .filter_map(|l| serde_json::from_str::<Value>(l).ok())
        .filter(|v| v.get("type").and_then(Value::as_str) == Some("act"))
        .collect()
}

fn answers(out: &Output) -> Vec<usize> {
    String::from_utf8_lossy(&out.stdout)
        .lines()
        .map(|l| {
            let v: Value = serde_json::from_str(l).unwrap_or_else(|e| panic!("answer {l:?} is not JSON: {e}"));
            let obj = v.as_object().expect("an answer is an object");
            assert_eq!(obj.len(), 1, "answer {l} has extra fields");
            obj["actIndex"].as_u64().unwrap_or_else(|| panic!("answer {l} has no integer actIndex")) as usize
        })
        .collect()
}

/// Every act got exactly one answer, in order, inside its actionList and indexRange.
fn check_answers(input: &str, out: &Output) -> Vec<(Value, usize)> {
    assert!(out.status.success(), "bot failed: {}", String::from_utf8_lossy(&out.stderr));
    let acts = acts(input);
    let answers = answers(out);
    assert_eq!(answers.len(), acts.len(), "one answer per act; stderr:\n{}", String::from_utf8_lossy(&out.stderr));
    for (act, &i) in acts.iter().zip(&answers) {
        let len = act["actionList"].as_array().map_or(0, Vec::len);
        let range = act["indexRange"].as_u64().or_else(|| act["indexRange"].as_str()?.parse().ok());
        if len > 0 {
            assert!(i < len, "index {i} outside an actionList of {len}: {act}");
        } else {
            assert_eq!(i, 0, "no list: answer 0");
        }
        if let Some(r) = range {
            assert!(i as u64 <= r, "index {i} above indexRange {r}");
        }
    }
    acts.into_iter().zip(answers).collect()
}

#[test]
fn recorded_platform_game_gets_a_legal_answer_for_every_act() {
    let input = std::fs::read_to_string(transcript("platform_game.jsonl")).expect("transcript");
    let out = bot(&["--ai", "L2"], &input);
    let answered = check_answers(&input, &out);
    assert_eq!(answered.len(), 9);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(!stderr.contains("falling back"), "every decision should map onto the list:\n{stderr}");
    for (act, i) in &answered {
        let list = act["actionList"].as_array().unwrap();
        let chosen = &list[*i];
        match act["stage"].as_str() {
            Some("tribute") => assert_eq!(chosen[0], "tribute"),
            Some("back") => assert_eq!(chosen[0], "back"),
            _ => {
                let following = list[0][0] == "PASS";
                if following {
                    // A follow either passes or plays something of the table's type, or a bomb.
                    let table = &act["greaterAction"];
                    let kind = chosen[0].as_str().unwrap();
                    assert!(
                        kind == "PASS" || kind == table[0] || ["Bomb", "StraightFlush", "FourKings"].contains(&kind),
                        "{chosen} does not answer {table}"
                    );
                } else {
                    assert_ne!(chosen[0], "PASS", "a lead cannot pass");
                }
            }
        }
        if list.len() == 1 {
            assert_eq!(*i, 0);
        }
    }
}

#[test]
fn recorded_platform_game_with_l3_and_a_budget() {
    let input = std::fs::read_to_string(transcript("platform_game.jsonl")).expect("transcript");
    let out = bot(&["--ai", "L3", "--budget-ms", "50"], &input);
    check_answers(&input, &out);
}

#[test]
fn quirks_are_tolerated() {
    let input = std::fs::read_to_string(transcript("quirks.jsonl")).expect("transcript");
    let out = bot(&["--ai", "L2"], &input);
    let answered = check_answers(&input, &out);
    let stderr = String::from_utf8_lossy(&out.stderr);
    // Junk lines are logged, not fatal.
    assert!(stderr.contains("not JSON"), "{stderr}");
    assert!(stderr.contains("type hello"), "{stderr}");
    assert!(stderr.contains("stage \"mystery\""), "{stderr}");
    // Integer ranks and a stale greaterPos on a lead: understood as a lead, mapped exactly.
    assert!(stderr.contains("seat 2 leads"), "{stderr}");
    // Four jokers, written either way, beat the bomb of an opponent with one card left.
    let kings: Vec<usize> = answered
        .iter()
        .filter(|(a, _)| a["actionList"].as_array().is_some_and(|l| l.len() == 2 && l[0][0] == "PASS"))
        .map(|(_, i)| *i)
        .collect();
    assert_eq!(kings, [1, 1]);
}

#[test]
fn malformed_lines_are_skipped_and_eof_ends_cleanly() {
    let input = "garbage\n{\"type\":\"act\"\n\n{}\n{\"type\":\"notify\"}\n{\"type\":\"act\",\"stage\":\"play\",\"handCards\":[\"S3\"],\"actionList\":[[\"Single\",\"3\",[\"S3\"]]],\"indexRange\":0}\n\u{0}\n";
    let out = bot(&["--ai", "L1"], input);
    assert_eq!(answers(&out), [0]);
    assert!(out.status.success());
    let empty = bot(&["--ai", "L2"], "");
    assert!(empty.status.success() && empty.stdout.is_empty());
}

#[test]
fn bad_arguments_are_usage_errors() {
    let out = bot(&["--ai", "L9"], "");
    assert_eq!(out.status.code(), Some(2));
    let out = bot(&["--rules", "nope"], "");
    assert_eq!(out.status.code(), Some(2));
}

/// A one-connection WebSocket server that plays a short script and collects the answers.
#[test]
fn websocket_transport_answers_each_act() {
    let listener = TcpListener::bind("127.0.0.1:0").expect("bind");
    let port = listener.local_addr().unwrap().port();
    let server = std::thread::spawn(move || -> Vec<String> {
        let (stream, _) = listener.accept().expect("accept");
        stream.set_read_timeout(Some(Duration::from_secs(30))).unwrap();
        let mut ws = tungstenite::accept(stream).expect("handshake");
        let hand = r#"["S3","S4","S5","S6","S7","D9","D9","SK","HR"]"#;
        let script = [
            r#"{"type":"hello","msg":"welcome"}"#.to_string(),
            format!(r#"{{"type":"notify","stage":"beginning","handCards":{hand},"myPos":3}}"#),
            format!(
                r#"{{"type":"act","stage":"play","handCards":{hand},"curRank":"2","selfRank":"2","oppoRank":"2","greaterPos":2,"greaterAction":["Single","8",["C8"]],"actionList":[["PASS","PASS","PASS"],["Single","9",["D9"]],["Single","K",["SK"]],["Single","R",["HR"]],["StraightFlush","3",["S3","S4","S5","S6","S7"]]],"indexRange":4}}"#
            ),
            r#"{"type":"notify","stage":"play","curPos":3,"curAction":["Single","9",["D9"]],"greaterPos":3,"greaterAction":["Single","9",["D9"]]}"#.to_string(),
            // Pretty-printed across lines: still one message.
            "{\"type\": \"act\", \"stage\": \"tribute\",\n \"handCards\": [\"S3\", \"HR\"],\n \"actionList\": [[\"tribute\", \"tribute\", [\"HR\"]]], \"indexRange\": 0}".to_string(),
        ];
        let mut answers = Vec::new();
        for msg in script {
            let is_act = msg.contains("\"act\"");
            ws.send(tungstenite::Message::text(msg)).expect("send");
            if is_act {
                match ws.read().expect("answer") {
                    tungstenite::Message::Text(t) => answers.push(t.as_str().to_string()),
                    other => panic!("unexpected frame {other:?}"),
                }
            }
        }
        ws.close(None).expect("close");
        // Drain until the client acknowledges the close.
        while ws.read().is_ok() {}
        answers
    });
    let out = Command::new(env!("CARGO_BIN_EXE_guandan"))
        .args(["bot", "--ai", "L2", "--ws", &format!("ws://127.0.0.1:{port}/game/test3")])
        .stdin(Stdio::null())
        .output()
        .expect("run bot");
    let answers = server.join().expect("server thread");
    assert!(out.status.success(), "bot failed: {}", String::from_utf8_lossy(&out.stderr));
    assert_eq!(answers.len(), 2, "{answers:?}");
    let idx: Vec<u64> = answers
        .iter()
        .map(|a| serde_json::from_str::<Value>(a).unwrap()["actIndex"].as_u64().expect("actIndex"))
        .collect();
    assert!(idx[0] <= 4, "{idx:?}");
    assert_eq!(idx[1], 0);
}

#[test]
fn websocket_connection_refused_is_an_error() {
    // Bind and drop to find a port nobody listens on.
    let port = TcpListener::bind("127.0.0.1:0").unwrap().local_addr().unwrap().port();
    let out = Command::new(env!("CARGO_BIN_EXE_guandan"))
        .args(["bot", "--ws", &format!("ws://127.0.0.1:{port}/game/x")])
        .output()
        .expect("run bot");
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("cannot connect"));
}
