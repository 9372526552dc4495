//! `guandan swarm` against a server it cannot play with ends at once, non-zero, with the reason:
//! nothing listening on the port, or a certificate it does not trust (before, it printed the
//! error and then waited until killed). Real processes on loopback.

use guandan_proto::tls::test_pki::{self_signed, serve_once};
use std::net::TcpListener;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

/// Runs the swarm with `server` and returns (exit code, stderr); a swarm still running after
/// 60 s is killed and the test fails.
fn swarm(server: &str, extra: &[&str]) -> (Option<i32>, String) {
    let mut child = Command::new(env!("CARGO_BIN_EXE_guandan"))
        .args(["swarm", "--server", server, "--rooms", "20", "--ai", "L1", "--timeout-s", "600"])
        .args(extra)
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .expect("run guandan swarm");
    let begun = Instant::now();
    let status = loop {
        if let Some(s) = child.try_wait().expect("wait") {
            break s;
        }
        if begun.elapsed() > Duration::from_secs(60) {
            let _ = child.kill();
            let _ = child.wait();
            panic!("the swarm against {server} was still running after 60 s");
        }
        std::thread::sleep(Duration::from_millis(50));
    };
    let mut err = String::new();
    std::io::Read::read_to_string(&mut child.stderr.take().expect("stderr"), &mut err).expect("stderr");
    (status.code(), err)
}

#[test]
fn a_port_where_nothing_listens_ends_the_swarm_at_once() {
    let port = TcpListener::bind("127.0.0.1:0").unwrap().local_addr().unwrap().port();
    let (code, err) = swarm(&format!("http://127.0.0.1:{port}"), &[]);
    assert!(code.is_some_and(|c| c != 0), "exit {code:?}: {err}");
    assert!(err.contains(&format!("127.0.0.1:{port}")) && err.to_lowercase().contains("refused"), "{err}");
    // The same with quick match.
    let (code, err) = swarm(&format!("http://127.0.0.1:{port}"), &["--quick-match", "--players", "8"]);
    assert!(code.is_some_and(|c| c != 0), "exit {code:?}: {err}");
}

#[test]
fn an_untrusted_certificate_ends_the_swarm_at_once() {
    let l = TcpListener::bind("127.0.0.1:0").unwrap();
    let port = l.local_addr().unwrap().port();
    let leaf = self_signed(&["localhost"]);
    // Answers every handshake with a certificate nobody trusts, for as long as the test runs.
    std::thread::spawn(move || {
        loop {
            let Ok(again) = l.try_clone() else { return };
            let _ = serve_once(again, leaf.clone(), |_| ()).join();
        }
    });
    let (code, err) = swarm(&format!("https://localhost:{port}"), &[]);
    assert!(code.is_some_and(|c| c != 0), "exit {code:?}: {err}");
    assert!(err.to_lowercase().contains("certificate"), "{err}");
}
