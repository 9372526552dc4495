//! Behind a reverse proxy (`--trusted-proxy`, docs/server.md "Behind a proxy"): the per-address
//! limits apply to the player's address from `X-Forwarded-For` when — and only when — the
//! connection comes from a trusted proxy, and a client cannot pick its address by writing the
//! header itself. Loopback addresses stand in for machines: 127.0.0.31 is the proxy.

mod common;

use common::{ServerProc, WAIT, database_url, tcp_from};
use guandan_proto::http::{PLAYERS_PATH, WS_PATH};
use std::net::SocketAddr;
use std::time::Duration;
use tokio_tungstenite::tungstenite::client::IntoClientRequest;

const PROXY: [u8; 4] = [127, 0, 0, 31];
const ELSEWHERE: [u8; 4] = [127, 0, 0, 32];

fn server(extra: &[&str]) -> ServerProc {
    let instance = format!("proxy{}{}", std::process::id(), extra.len());
    let mut args = vec!["--trusted-proxy", "127.0.0.31/32"];
    args.extend_from_slice(extra);
    ServerProc::start_strict(&database_url("sqlite"), &instance, "127.0.0.1:0", &args)
}

/// A guest account asked for from `source`, with `forwarded` as its `X-Forwarded-For`: the status.
async fn new_account(source: [u8; 4], addr: SocketAddr, forwarded: Option<&str>) -> u16 {
    use http_body_util::{BodyExt, Full};
    let tcp = tcp_from(source, addr).await.expect("connect");
    let (mut sender, conn) =
        hyper::client::conn::http1::handshake(hyper_util::rt::TokioIo::new(tcp)).await.expect("handshake");
    tokio::spawn(conn);
    let mut req = hyper::Request::builder()
        .method("POST")
        .uri(PLAYERS_PATH)
        .header("host", addr.to_string())
        .header("content-type", "application/json");
    if let Some(f) = forwarded {
        req = req.header("x-forwarded-for", f);
    }
    let req = req.body(Full::new(hyper::body::Bytes::from(r#"{"nickname":"Behind"}"#))).unwrap();
    let answer = tokio::time::timeout(WAIT, sender.send_request(req)).await.expect("in time").expect("answer");
    let status = answer.status().as_u16();
    let _ = answer.into_body().collect().await;
    status
}

/// A WebSocket upgrade from `source` with `forwarded` as its `X-Forwarded-For`: the socket, or
/// the HTTP status that refused it.
async fn upgrade(source: [u8; 4], addr: SocketAddr, forwarded: &str) -> Result<common::Ws, u16> {
    let tcp = tcp_from(source, addr).await.expect("connect");
    let mut req = format!("ws://{addr}{WS_PATH}").into_client_request().unwrap();
    req.headers_mut().insert("x-forwarded-for", forwarded.parse().unwrap());
    let stream = tokio_tungstenite::MaybeTlsStream::Plain(tcp);
    match tokio::time::timeout(WAIT, tokio_tungstenite::client_async(req, stream)).await.expect("in time") {
        Ok((ws, _)) => Ok(ws),
        Err(tokio_tungstenite::tungstenite::Error::Http(r)) => Err(r.status().as_u16()),
        Err(e) => panic!("upgrade failed otherwise: {e}"),
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_proxys_players_are_limited_each_by_their_own_address() {
    let s = server(&["--max-conns-per-ip", "2"]);
    let a1 = upgrade(PROXY, s.addr, "203.0.113.7").await.expect("first of 203.0.113.7");
    let a2 = upgrade(PROXY, s.addr, "203.0.113.7").await.expect("second of 203.0.113.7");
    assert_eq!(upgrade(PROXY, s.addr, "203.0.113.7").await.err(), Some(429), "a third of one player's address");
    // Another player behind the same proxy, though the proxy itself holds more than 2.
    let b1 = upgrade(PROXY, s.addr, "203.0.113.8").await.expect("203.0.113.8");
    // Writing a different address to the left of the proxy's entry changes nothing.
    assert_eq!(upgrade(PROXY, s.addr, "198.51.100.1, 203.0.113.7").await.err(), Some(429));
    // The count follows the session: once one of them is closed, its place is free again.
    drop(a1);
    let mut again = None;
    for _ in 0..50 {
        if let Ok(ws) = upgrade(PROXY, s.addr, "203.0.113.7").await {
            again = Some(ws);
            break;
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    assert!(again.is_some(), "the closed session's place was not given back");
    drop((a2, b1));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn accounts_are_counted_for_the_forwarded_address() {
    let s = server(&["--accounts-per-ip-per-minute", "2"]);
    assert_eq!(new_account(PROXY, s.addr, Some("198.51.100.1")).await, 200);
    assert_eq!(new_account(PROXY, s.addr, Some("198.51.100.1")).await, 200);
    assert_eq!(new_account(PROXY, s.addr, Some("198.51.100.1")).await, 429);
    assert_eq!(new_account(PROXY, s.addr, Some("198.51.100.9, 198.51.100.1")).await, 429, "forged left entry");
    assert_eq!(new_account(PROXY, s.addr, Some("198.51.100.2")).await, 200, "another player");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_client_that_is_not_a_trusted_proxy_cannot_choose_its_address() {
    let s = server(&["--accounts-per-ip-per-minute", "2", "--max-conns-per-ip", "2"]);
    for (i, forged) in ["198.51.100.3", "198.51.100.4", "198.51.100.5"].iter().enumerate() {
        let want = if i < 2 { 200 } else { 429 };
        assert_eq!(new_account(ELSEWHERE, s.addr, Some(forged)).await, want, "forged {forged}");
    }
    // Connections too: counted for 127.0.0.32 whatever it claims. The accounts' connections are
    // closed by now on this side; the server counts each until it reads its close.
    until_only_the_asker_is_connected(s.addr);
    let _c1 = upgrade(ELSEWHERE, s.addr, "198.51.100.6").await.expect("first");
    let _c2 = upgrade(ELSEWHERE, s.addr, "198.51.100.7").await.expect("second");
    let third = tcp_from(ELSEWHERE, s.addr).await.expect("connect");
    let mut buf = [0u8; 1];
    let read = tokio::time::timeout(WAIT, async {
        use tokio::io::AsyncReadExt;
        let mut t = third;
        t.read(&mut buf).await
    })
    .await
    .expect("closed in time");
    assert!(matches!(read, Ok(0) | Err(_)), "a third connection from one address is closed at once");
}

/// Waits (bounded) until the server holds no connection but the one asking for its metrics.
fn until_only_the_asker_is_connected(addr: SocketAddr) {
    let deadline = std::time::Instant::now() + WAIT;
    loop {
        let (_, metrics) = common::http(addr, "GET", "/metrics", "");
        let open = metrics
            .lines()
            .find_map(|l| l.strip_prefix("guandan_tcp_connections "))
            .and_then(|v| v.trim().parse::<f64>().ok());
        if open == Some(1.0) {
            return;
        }
        assert!(std::time::Instant::now() < deadline, "connections still open: {open:?}");
        std::thread::sleep(Duration::from_millis(20));
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_proxy_that_sends_no_address_is_limited_as_one_address_and_it_shows() {
    let s = server(&["--accounts-per-ip-per-minute", "2"]);
    assert_eq!(new_account(PROXY, s.addr, None).await, 200);
    assert_eq!(new_account(PROXY, s.addr, Some("not an address")).await, 200);
    assert_eq!(new_account(PROXY, s.addr, None).await, 429, "all of them count as the proxy");
    let (status, metrics) = common::http(s.addr, "GET", "/metrics", "");
    assert_eq!(status, 200);
    let missing = metrics
        .lines()
        .find_map(|l| l.strip_prefix("guandan_forwarded_missing_total "))
        .and_then(|v| v.trim().parse::<f64>().ok())
        .expect("the metric is exposed");
    assert!(missing >= 3.0, "{missing}");
}
