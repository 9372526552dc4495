//! `guandan join` refuses what the server would refuse before it sends anything, and takes a
//! room code as a person types it.

use std::net::TcpListener;
use std::process::{Command, Output};

fn join(code: &str, name: &str, server: &str) -> Output {
    Command::new(env!("CARGO_BIN_EXE_guandan"))
        .args(["join", "--server", server, "--code", code, "--name", name, "--timeout-s", "20"])
        .output()
        .expect("run guandan join")
}

fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

#[test]
fn bad_codes_and_nicknames_are_refused_before_connecting() {
    // Never reached: the arguments are refused first.
    let server = "http://127.0.0.1:9";
    let out = join("K7QX2", "bot", server);
    assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
    assert!(stderr(&out).contains("--code"), "{}", stderr(&out));
    let out = join("K7QX2M", "[b]admin[/b]", server);
    assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
    assert!(stderr(&out).contains("--name"), "{}", stderr(&out));
}

#[test]
fn a_code_typed_in_lower_case_is_taken_and_an_absent_server_reported() {
    let port = TcpListener::bind("127.0.0.1:0").unwrap().local_addr().unwrap().port();
    let out = join(" k7qx2m ", "bot", &format!("http://127.0.0.1:{port}"));
    assert_ne!(out.status.code(), Some(0));
    let err = stderr(&out);
    assert!(!err.contains("--code") && err.contains("register"), "{err}");
}
