use super::*;
use guandan_core::seat::Seat;
use guandan_proto::tls::test_pki::{Pki, Served, TlsServerStream, self_signed, serve_once};
use std::net::TcpStream;

/// A server that stays down: the client goes on trying for at least a minute (it gave up
/// after 16 attempts, 55.5 s, before), waiting longer and longer, never in lockstep with
/// another client.
/// A session the server welcomed once (so a drop is come back from).
fn welcomed() -> Session {
    let mut s = Session::new("p", "t", SessionConfig::default());
    s.opened(Instant::now());
    let welcome = ServerMsg::Welcome {
        protocol_version: guandan_proto::PROTOCOL_VERSION,
        player_id: "p".into(),
        instance: "main".into(),
        token: None,
    };
    s.received(welcome, Instant::now());
    s
}

#[test]
fn reconnection_keeps_trying_for_a_minute_with_jitter() {
    let schedule = || {
        let mut session = welcomed();
        let t0 = Instant::now();
        let mut now = t0;
        let mut waits = Vec::new();
        // Each attempt fails at once (connection refused).
        while let Some(w) = reconnect_wait(&mut session, now, Duration::ZERO) {
            waits.push(w);
            now += w;
            assert!(waits.len() < 1000);
        }
        (now - t0, waits)
    };
    let (total, a) = schedule();
    let (_, b) = schedule();
    assert!(total >= Duration::from_secs(60), "gave up after {total:?}");
    assert!(a[8] > a[0] * 4, "backs off: {a:?}");
    assert_ne!(a, b, "two clients wait the same times");
    // A test's hold is honoured.
    let mut session = welcomed();
    assert_eq!(reconnect_wait(&mut session, Instant::now(), Duration::from_secs(8)), Some(Duration::from_secs(8)));
    // A server never reached is not waited for.
    let mut never = Session::new("p", "t", SessionConfig::default());
    assert_eq!(reconnect_wait(&mut never, Instant::now(), Duration::ZERO), None);
}

/// A stand-in instance on loopback: accepts one WebSocket, reads the hello, welcomes it.
fn instance(listener: std::net::TcpListener, name: &str) -> (WebSocket<TcpStream>, ClientMsg) {
    let (stream, _) = listener.accept().expect("the client connects");
    stream.set_read_timeout(Some(Duration::from_secs(10))).expect("timeout");
    let mut ws = tungstenite::accept(stream).expect("a WebSocket");
    let hello = next_msg(&mut ws);
    let welcome = ServerMsg::Welcome {
        protocol_version: guandan_proto::PROTOCOL_VERSION,
        player_id: "p".into(),
        instance: name.into(),
        token: None,
    };
    ws.send(Message::text(serde_json::to_string(&welcome).unwrap())).expect("welcome sent");
    (ws, hello)
}

/// The client's next message other than a heartbeat.
fn next_msg(ws: &mut WebSocket<TcpStream>) -> ClientMsg {
    loop {
        match ws.read().expect("a message from the client") {
            Message::Text(t) => match serde_json::from_str(t.as_str()).expect("a protocol message") {
                ClientMsg::Heartbeat => continue,
                m => return m,
            },
            _ => continue,
        }
    }
}

/// A quick-match table on another instance: the client goes there with the same account
/// and takes its seat (it said nothing of it before and stayed queued forever).
#[test]
fn a_redirect_is_followed_to_the_other_instance() {
    let a = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let b = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let (a_addr, b_addr) = (a.local_addr().unwrap(), b.local_addr().unwrap());
    let first = std::thread::spawn(move || {
        let (mut ws, hello) = instance(a, "a");
        let redirect =
            ServerMsg::Redirect { code: "K7QX2M".into(), instance: "b".into(), url: format!("http://{b_addr}") };
        ws.send(Message::text(serde_json::to_string(&redirect).unwrap())).unwrap();
        // The client lets this connection go.
        let closed = loop {
            match ws.read() {
                Ok(Message::Close(_)) | Err(_) => break true,
                Ok(_) => continue,
            }
        };
        (hello, closed)
    });
    let second = std::thread::spawn(move || {
        let (mut ws, hello) = instance(b, "b");
        let join = next_msg(&mut ws);
        let joined = ServerMsg::Joined { code: "K7QX2M".into(), seat: Some(Seat::TWO) };
        ws.send(Message::text(serde_json::to_string(&joined).unwrap())).unwrap();
        // Held open until the client closes (its Leave, then the close frame).
        let _ = next_msg(&mut ws);
        (hello, join)
    });
    let net = Net::start(plain(a_addr));
    let mut joined = false;
    let deadline = Instant::now() + Duration::from_secs(10);
    while !joined && Instant::now() < deadline {
        match net.poll() {
            Some(NetEvent::Message(m, _)) => joined = matches!(*m, ServerMsg::Joined { seat: Some(Seat::TWO), .. }),
            Some(NetEvent::Failed { message, .. }) => panic!("the client gave up: {message}"),
            _ => std::thread::sleep(Duration::from_millis(5)),
        }
    }
    assert!(joined, "the seat on the other instance was taken");
    drop(net);
    let (hello_a, closed) = first.join().unwrap();
    let (hello_b, join) = second.join().unwrap();
    assert!(closed, "the first instance's connection was closed");
    for h in [hello_a, hello_b] {
        assert!(matches!(h, ClientMsg::Hello { ref player_id, .. } if player_id == "p"), "the same account: {h:?}");
    }
    assert_eq!(join, ClientMsg::JoinRoom { code: "K7QX2M".into(), last_action_seq: None });
}

/// A stalled server (stopped, a frozen machine) keeps the socket and answers nothing: the
/// client says the connection is unstable within a few seconds, and steady again when the
/// server answers (before, nothing showed for as long as the stall lasted).
#[test]
fn a_silent_server_makes_the_connection_unstable_until_it_answers() {
    let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let addr = listener.local_addr().unwrap();
    let (answer, answer_rx) = crossbeam_channel::bounded::<()>(1);
    let server = std::thread::spawn(move || {
        let (mut ws, _) = instance(listener, "a");
        // Heartbeats come and go unanswered until the test says to answer.
        answer_rx.recv_timeout(Duration::from_secs(20)).expect("told to answer");
        ws.send(Message::text(serde_json::to_string(&ServerMsg::Pong).unwrap())).unwrap();
        let _ = next_msg(&mut ws);
    });
    let net = Net::start(plain(addr));
    let next_unstable = |want: bool| {
        let deadline = Instant::now() + Duration::from_secs(15);
        while Instant::now() < deadline {
            match net.poll() {
                Some(NetEvent::Unstable(u)) => return Some(u == want),
                Some(NetEvent::Failed { message, .. }) => panic!("the client gave up: {message}"),
                _ => std::thread::sleep(Duration::from_millis(5)),
            }
        }
        None
    };
    let started = Instant::now();
    assert_eq!(next_unstable(true), Some(true), "the silence is said");
    let said_after = started.elapsed();
    assert!(said_after >= HEARTBEAT + UNSTABLE, "not before a heartbeat waited: {said_after:?}");
    answer.send(()).unwrap();
    assert_eq!(next_unstable(false), Some(true), "the answer ends it");
    drop(net);
    server.join().unwrap();
}

/// A welcome that rotates the token: the client says so before `Connected` (the game saves
/// its account then) and presents the new token at the next hello. Before, the rotated token
/// was dropped and the game kept the old one until it expired.
#[test]
fn a_rotated_token_is_handed_to_the_node_before_connected() {
    let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let addr = listener.local_addr().unwrap();
    let server = std::thread::spawn(move || {
        let mut hellos = Vec::new();
        for rotate in [true, false] {
            let (stream, _) = listener.accept().expect("the client connects");
            stream.set_read_timeout(Some(Duration::from_secs(10))).expect("timeout");
            let mut ws = tungstenite::accept(stream).expect("a WebSocket");
            hellos.push(next_msg(&mut ws));
            let welcome = ServerMsg::Welcome {
                protocol_version: guandan_proto::PROTOCOL_VERSION,
                player_id: "p".into(),
                instance: "a".into(),
                token: rotate.then(|| "t-rotated".into()),
            };
            ws.send(Message::text(serde_json::to_string(&welcome).unwrap())).expect("welcome sent");
            if rotate {
                // Dropped without a word: the client comes back by itself.
                drop(ws);
            } else {
                let _ = ws.read();
            }
        }
        hellos
    });
    let net = Net::start(plain(addr));
    let mut seen = Vec::new();
    let deadline = Instant::now() + Duration::from_secs(20);
    while seen.iter().filter(|e: &&String| e.starts_with("connected")).count() < 2 && Instant::now() < deadline {
        match net.poll() {
            Some(NetEvent::TokenRotated { token }) => seen.push(format!("rotated {}", token.expose())),
            Some(NetEvent::Connected { .. }) => seen.push("connected".into()),
            Some(NetEvent::Failed { message, .. }) => panic!("the client gave up: {message}"),
            Some(_) => {}
            None => std::thread::sleep(Duration::from_millis(5)),
        }
    }
    assert_eq!(seen, ["rotated t-rotated", "connected", "connected"], "the new token before its welcome's connected");
    drop(net);
    let hellos = server.join().unwrap();
    let tokens: Vec<&str> = hellos
        .iter()
        .map(|h| match h {
            ClientMsg::Hello { token, .. } => token.expose(),
            other => panic!("not a hello: {other:?}"),
        })
        .collect();
    assert_eq!(tokens, ["t", "t-rotated"], "the next hello presents the rotated token");
}

fn plain(server: std::net::SocketAddr) -> NetConfig {
    NetConfig {
        server: Endpoint::parse(&server.to_string()).unwrap(),
        trust: Trust::mozilla(),
        plaintext_allowed: BTreeSet::new(),
        nickname: "Ann".into(),
        credentials: Some(("p".into(), "t".into())),
    }
}

/// The next event that ends the wait: `Connected`, `Failed` or `Refused` (others skipped).
fn next_outcome(net: &Net) -> Option<NetEvent> {
    let deadline = Instant::now() + Duration::from_secs(15);
    while Instant::now() < deadline {
        match net.poll() {
            Some(e @ (NetEvent::Connected { .. } | NetEvent::Failed { .. } | NetEvent::Refused(_))) => {
                return Some(e);
            }
            Some(_) => {}
            None => std::thread::sleep(Duration::from_millis(5)),
        }
    }
    None
}

#[test]
fn redirects_never_leave_tls_nor_go_plain_to_a_public_host_unasked() {
    let tls = Endpoint::parse("wss://a.example.org").unwrap();
    let lan = Endpoint::parse("10.0.0.1:7878").unwrap();
    let none = BTreeSet::new();
    assert_eq!(redirect_target(&tls, "https://b.example.org", &none).unwrap().host, "b.example.org");
    let down = redirect_target(&tls, "http://b.example.org:7878", &none).unwrap_err();
    assert_eq!(down.code, ErrorCode::PlaintextNotAllowed);
    assert!(down.message.contains("without encryption"), "{}", down.message);
    // Even to a private address: the player chose TLS.
    assert_eq!(redirect_target(&tls, "http://10.0.0.2:7878", &none).unwrap_err().code, ErrorCode::PlaintextNotAllowed);
    assert_eq!(redirect_target(&lan, "http://10.0.0.2:7879", &none).unwrap().port, 7879);
    assert_eq!(redirect_target(&lan, "http://b.example.org", &none).unwrap_err().code, ErrorCode::PlaintextNotAllowed);
    let allowed = BTreeSet::from(["b.example.org".to_string()]);
    assert!(redirect_target(&lan, "http://b.example.org", &allowed).is_ok());
    assert_eq!(redirect_target(&lan, "ftp://x", &none).unwrap_err().code, ErrorCode::Io);
    assert!(plaintext_check(&Endpoint::parse("ws://example.org").unwrap(), &none).is_err());
    assert!(plaintext_check(&Endpoint::parse("localhost:1").unwrap(), &none).is_ok());
}

/// A public host in plain text, not allowed: the thread ends before it connects anywhere.
#[test]
fn plain_text_to_a_public_host_waits_for_the_player() {
    // TEST-NET-1: public, and nothing answers there.
    let mut cfg = plain("192.0.2.1:7878".parse().unwrap());
    cfg.credentials = None;
    let net = Net::start(cfg);
    let first = {
        let deadline = Instant::now() + Duration::from_secs(5);
        loop {
            match net.poll() {
                Some(e) => break Some(e),
                None if Instant::now() > deadline => break None,
                None => std::thread::sleep(Duration::from_millis(2)),
            }
        }
    };
    match first {
        Some(NetEvent::Failed { code, message }) => {
            assert_eq!(code, ErrorCode::PlaintextNotAllowed);
            assert!(message.contains("192.0.2.1"), "{message}");
        }
        other => panic!("not asked first: {other:?}"),
    }
}

/// `wss://` with the private CA: the hello, the welcome, heartbeats through TLS's read
/// timeouts, a server message, the leave.
#[test]
fn a_tls_server_with_a_trusted_certificate_is_played_with() {
    let pki = Pki::new();
    let ca = pki.ca_file();
    let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let port = listener.local_addr().unwrap().port();
    let server = serve_once(listener, pki.leaf(&["localhost"]), |stream| {
        let mut ws = tungstenite::accept(stream).expect("a WebSocket over TLS");
        let hello = next_msg_tls(&mut ws, false);
        let welcome = ServerMsg::Welcome {
            protocol_version: guandan_proto::PROTOCOL_VERSION,
            player_id: "p".into(),
            instance: "tls".into(),
            token: None,
        };
        ws.send(Message::text(serde_json::to_string(&welcome).unwrap())).unwrap();
        // A heartbeat comes after 2.5 s of quiet: the client's polling reads kept working.
        let beat = next_msg_tls(&mut ws, true);
        let joined = ServerMsg::Joined { code: "K7QX2M".into(), seat: Some(Seat::ONE) };
        ws.send(Message::text(serde_json::to_string(&joined).unwrap())).unwrap();
        let leave = next_msg_tls(&mut ws, false);
        (hello, beat, leave)
    });
    let mut cfg = plain("127.0.0.1:1".parse().unwrap());
    cfg.server = Endpoint::parse(&format!("wss://localhost:{port}")).unwrap();
    cfg.trust = Trust::with_ca_file(ca.path()).unwrap();
    let net = Net::start(cfg);
    assert!(matches!(next_outcome(&net), Some(NetEvent::Connected { .. })), "welcomed over TLS");
    let deadline = Instant::now() + Duration::from_secs(15);
    let mut joined = false;
    while !joined && Instant::now() < deadline {
        match net.poll() {
            Some(NetEvent::Message(m, _)) => joined = matches!(*m, ServerMsg::Joined { seat: Some(Seat::ONE), .. }),
            Some(NetEvent::Failed { message, .. }) => panic!("the client gave up: {message}"),
            _ => std::thread::sleep(Duration::from_millis(5)),
        }
    }
    assert!(joined, "the server's message arrived");
    drop(net);
    let Served::Done((hello, beat, leave)) = server.join().unwrap() else { panic!("the handshake failed") };
    assert!(matches!(hello, ClientMsg::Hello { ref player_id, .. } if player_id == "p"), "{hello:?}");
    assert_eq!(beat, ClientMsg::Heartbeat);
    assert_eq!(leave, ClientMsg::Leave);
}

/// A self-signed, expired or wrong-host certificate: the thread ends with the reason, the
/// server got no application byte (no hello, no token; no registration either).
#[test]
fn a_refused_certificate_ends_the_connection_with_its_reason() {
    let pki = Pki::new();
    let ca = pki.ca_file();
    let trust = Trust::with_ca_file(ca.path()).unwrap();
    let cases = [
        (self_signed(&["localhost"]), true, "not signed by an authority this game trusts"),
        (pki.expired_leaf(&["localhost"]), true, "has expired"),
        (pki.leaf(&["guandan.example.com"]), true, "not valid for localhost"),
        // A new player: the registration (HTTPS) is refused the same way.
        (pki.expired_leaf(&["localhost"]), false, "has expired"),
    ];
    for (leaf, registered, says) in cases {
        let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
        let port = listener.local_addr().unwrap().port();
        let server = serve_once(listener, leaf, |_| ());
        let mut cfg = plain("127.0.0.1:1".parse().unwrap());
        cfg.server = Endpoint::parse(&format!("wss://localhost:{port}")).unwrap();
        cfg.trust = trust.clone();
        if !registered {
            cfg.credentials = None;
        }
        let net = Net::start(cfg);
        match next_outcome(&net) {
            Some(NetEvent::Failed { code, message }) => {
                assert_eq!(code, ErrorCode::CertificateRefused, "{message}");
                assert!(message.contains(says), "{message:?} should say {says:?}");
            }
            other => panic!("{says}: {other:?}"),
        }
        match server.join().unwrap() {
            Served::Refused { app_bytes, .. } => assert_eq!(app_bytes, 0, "{says}: nothing was sent"),
            Served::Done(()) => panic!("{says}: the handshake completed"),
        }
        // Not retried: the thread has ended.
        let deadline = Instant::now() + Duration::from_secs(5);
        while net.alive() && Instant::now() < deadline {
            std::thread::sleep(Duration::from_millis(5));
        }
        assert!(!net.alive(), "{says}: the thread ended");
    }
}

/// The client's next message (heartbeats skipped unless `beat`) on a TLS server.
fn next_msg_tls(ws: &mut WebSocket<TlsServerStream>, beat: bool) -> ClientMsg {
    loop {
        if let Message::Text(t) = ws.read().expect("a message from the client") {
            match serde_json::from_str(t.as_str()).expect("a protocol message") {
                ClientMsg::Heartbeat if !beat => continue,
                m => return m,
            }
        }
    }
}
