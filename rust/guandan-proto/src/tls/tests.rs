//! The clients' trust against a real rustls server on loopback, with certificates made at run
//! time: a good one connects; a self-signed, expired or wrong-host one is refused with its
//! message and the server gets no application byte.

use std::io::{Read, Write};
use std::net::TcpListener;
use std::time::Duration;

use super::stream::connect;
use super::test_pki::{Leaf, Pki, Served, TempFile, self_signed, serve_once};
use super::*;
use crate::Endpoint;

const T: Duration = Duration::from_secs(10);

fn listener() -> (TcpListener, u16) {
    let l = TcpListener::bind("127.0.0.1:0").expect("a loopback port");
    let port = l.local_addr().unwrap().port();
    (l, port)
}

/// Connects to a one-shot server presenting `leaf`; after the handshake the server echoes one
/// line. Returns the client's result and what the server saw.
fn try_leaf(leaf: Leaf, host: &str, trust: &Trust) -> (Result<String, Failure>, Served<Vec<u8>>) {
    let (l, port) = listener();
    let server = serve_once(l, leaf, |mut s| {
        let mut got = [0u8; 5];
        s.read_exact(&mut got).expect("the client's bytes");
        s.write_all(b"pong\n").expect("answered");
        s.flush().unwrap();
        got.to_vec()
    });
    let ep = Endpoint::parse(&format!("wss://{host}:{port}")).unwrap();
    let client = connect(&ep, trust, T).map(|mut s| {
        assert!(s.is_tls());
        s.write_all(b"ping\n").expect("sent");
        s.flush().unwrap();
        let mut back = [0u8; 5];
        s.read_exact(&mut back).expect("the answer");
        String::from_utf8_lossy(&back).into_owned()
    });
    (client, server.join().expect("the server thread"))
}

fn refused(leaf: Leaf, host: &str, trust: &Trust) -> Failure {
    let (client, served) = try_leaf(leaf, host, trust);
    let f = client.expect_err("the certificate is refused");
    match served {
        Served::Refused { app_bytes, .. } => assert_eq!(app_bytes, 0, "nothing of the application was sent"),
        Served::Done(got) => panic!("the handshake completed and the server got {got:?}"),
    }
    f
}

#[test]
fn a_certificate_of_the_private_ca_is_trusted_with_the_ca_file() {
    let pki = Pki::new();
    let ca = pki.ca_file();
    let trust = Trust::with_ca_file(ca.path()).expect("the CA file");
    assert_eq!(trust.ca_file(), ca.path());
    let (client, served) = try_leaf(pki.leaf(&["localhost"]), "localhost", &trust);
    assert_eq!(client.expect("connected"), "pong\n");
    assert!(matches!(served, Served::Done(ref got) if got == b"ping\n"), "{served:?}");
    // An IP address in the certificate works as a name does.
    let (client, _) = try_leaf(pki.leaf(&["127.0.0.1"]), "127.0.0.1", &trust);
    assert_eq!(client.expect("connected by IP"), "pong\n");
}

#[test]
fn a_bad_certificate_is_refused_with_its_reason_and_nothing_is_sent() {
    let pki = Pki::new();
    let ca = pki.ca_file();
    let trust = Trust::with_ca_file(ca.path()).unwrap();
    let cases: [(Leaf, &str, &Trust, &str); 4] = [
        (self_signed(&["localhost"]), "localhost", &trust, "not signed by an authority this game trusts"),
        (pki.expired_leaf(&["localhost"]), "localhost", &trust, "has expired"),
        (pki.leaf(&["guandan.example.com"]), "localhost", &trust, "not valid for localhost"),
        // The private CA's certificate without its file: Mozilla's roots do not know it.
        (pki.leaf(&["localhost"]), "localhost", &Trust::mozilla(), "not signed by an authority this game trusts"),
    ];
    for (leaf, host, trust, says) in cases {
        let f = refused(leaf, host, trust);
        assert_eq!(f.code, ErrorCode::CertificateRefused, "{f:?}");
        assert!(f.message.contains(says), "{:?} should say {says:?}", f.message);
    }
}

#[test]
fn a_plain_server_behind_a_tls_address_is_said_and_not_used() {
    let (l, port) = listener();
    let server = std::thread::spawn(move || {
        let (mut s, _) = l.accept().unwrap();
        s.set_read_timeout(Some(T)).unwrap();
        let mut buf = [0u8; 512];
        let _ = s.read(&mut buf);
        let _ = s.write_all(b"HTTP/1.1 400 Bad Request\r\ncontent-length: 0\r\n\r\n");
    });
    let ep = Endpoint::parse(&format!("https://127.0.0.1:{port}")).unwrap();
    let f = connect(&ep, &Trust::mozilla(), T).expect_err("not TLS");
    assert_eq!(f.code, ErrorCode::Io);
    assert!(f.message.contains("does not speak TLS"), "{}", f.message);
    server.join().unwrap();
}

#[test]
fn a_ca_file_that_is_missing_or_not_certificates_is_refused() {
    let missing = std::env::temp_dir().join("guandan-no-such-ca.pem");
    let f = Trust::with_ca_file(missing.to_str().unwrap()).unwrap_err();
    assert_eq!(f.code, ErrorCode::BadArgument);
    assert!(f.message.contains("cannot read"), "{}", f.message);
    let garbage = TempFile::with(b"hello, not a certificate\n");
    let f = Trust::with_ca_file(garbage.path()).unwrap_err();
    assert!(f.message.contains("no certificate"), "{}", f.message);
    let broken = TempFile::with(b"-----BEGIN CERTIFICATE-----\n!!!!\n-----END CERTIFICATE-----\n");
    let f = Trust::with_ca_file(broken.path()).unwrap_err();
    assert_eq!(f.code, ErrorCode::BadArgument);
    assert!(f.message.contains(broken.path()), "{}", f.message);
    // A key is not a certificate either.
    let key = TempFile::with(b"-----BEGIN PRIVATE KEY-----\nMC4CAQAwBQYDK2VwBCIEIA==\n-----END PRIVATE KEY-----\n");
    assert!(Trust::with_ca_file(key.path()).unwrap_err().message.contains("no certificate"));
    // No file: Mozilla's roots.
    assert_eq!(Trust::with_ca_file("").unwrap().ca_file(), "");
}

/// A one-request HTTPS server: answers any request with `body`.
fn https_once(leaf: Leaf, body: &'static str) -> (u16, std::thread::JoinHandle<Served<()>>) {
    let (l, port) = listener();
    let h = serve_once(l, leaf, move |mut s| {
        let mut req = Vec::new();
        let mut b = [0u8; 1];
        while !req.ends_with(b"\r\n\r\n") && s.read(&mut b).unwrap_or(0) == 1 {
            req.push(b[0]);
        }
        let answer = format!(
            "HTTP/1.1 200 OK\r\ncontent-type: application/json\r\ncontent-length: {}\r\nconnection: close\r\n\r\n{body}",
            body.len()
        );
        s.write_all(answer.as_bytes()).unwrap();
        s.flush().unwrap();
        s.conn.send_close_notify();
        let _ = s.flush();
    });
    (port, h)
}

#[test]
fn https_calls_trust_what_the_websocket_trusts() {
    let pki = Pki::new();
    let ca = pki.ca_file();
    let trust = Trust::with_ca_file(ca.path()).unwrap();
    let (port, server) = https_once(pki.leaf(&["localhost"]), "{\"ok\":true}");
    let ep = Endpoint::parse(&format!("https://localhost:{port}")).unwrap();
    let mut answer = trust.http_agent(T).get(ep.http_url("/healthz")).call().expect("an answer");
    assert_eq!(answer.status().as_u16(), 200);
    assert_eq!(answer.body_mut().read_to_string().unwrap(), "{\"ok\":true}");
    assert!(matches!(server.join().unwrap(), Served::Done(())));

    let (port, server) = https_once(pki.expired_leaf(&["localhost"]), "{}");
    let ep = Endpoint::parse(&format!("https://localhost:{port}")).unwrap();
    let e = trust.http_agent(T).get(ep.http_url("/healthz")).call().expect_err("refused");
    let f = explain_http(&e, &ep);
    assert_eq!(f.code, ErrorCode::CertificateRefused, "{e}");
    assert!(f.message.contains("has expired"), "{}", f.message);
    assert!(matches!(server.join().unwrap(), Served::Refused { app_bytes: 0, .. }));
}
