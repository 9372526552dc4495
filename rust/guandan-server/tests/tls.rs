//! The server's listener over TLS (issue 36, item 2): real rustls clients trusting a test CA made
//! at run time, the real binary on loopback. Certificate reloads (file change, SIGHUP, bad files)
//! under open WebSockets; hostile connections (plain text, silence, a trickled ClientHello, too
//! many from one address); startup refusals. Every loop is bounded and every wait has a deadline.

mod common;
use common::*;
use futures_util::{SinkExt, StreamExt};
use guandan_core::game::Seat;
use guandan_proto::http::{
    HEALTH_PATH, METRICS_PATH, NewPlayer, NewPlayerReply, PLAYERS_PATH, RoomDirectoryEntry, WS_PATH, read_reply,
};
use guandan_proto::{ClientMsg, PROTOCOL_VERSION, ServerMsg};
use rcgen::{BasicConstraints, CertificateParams, DnType, IsCa, Issuer, KeyPair, SerialNumber};
use rustls::pki_types::{CertificateDer, ServerName};
use std::net::SocketAddr;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::Arc;
use std::time::{Duration, Instant};
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpStream;
use tokio_rustls::TlsConnector;
use tokio_rustls::client::TlsStream;
use tokio_tungstenite::WebSocketStream;
use tokio_tungstenite::tungstenite::Message;

// ---- a certificate authority for the tests --------------------------------------------------

/// A CA the test clients trust, and the folder its server certificates are written to.
struct Pki {
    issuer: Issuer<'static, KeyPair>,
    ca: CertificateDer<'static>,
    dir: PathBuf,
}

/// One server certificate (for localhost and 127.0.0.1) and its key.
struct Leaf {
    chain_pem: String,
    key_pem: String,
    der: CertificateDer<'static>,
    not_after: i64,
}

impl Pki {
    fn new(name: &str) -> Pki {
        let mut params = CertificateParams::new(Vec::<String>::new()).unwrap();
        params.is_ca = IsCa::Ca(BasicConstraints::Unconstrained);
        params.distinguished_name.push(DnType::CommonName, "Guandan test CA");
        let key = KeyPair::generate().unwrap();
        let ca = params.self_signed(&key).unwrap();
        let dir = std::env::temp_dir().join(format!("guandan-tls-{}-{name}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        Pki { issuer: Issuer::new(params, key), ca: ca.der().clone(), dir }
    }

    /// A server certificate named `cn` with serial `serial`, valid until `year`-01-01; the file
    /// holds the whole chain (server certificate, then the CA).
    fn leaf(&self, cn: &str, serial: u64, year: i32) -> Leaf {
        let mut params = CertificateParams::new(vec!["localhost".to_string(), "127.0.0.1".to_string()]).unwrap();
        params.distinguished_name.push(DnType::CommonName, cn);
        params.serial_number = Some(SerialNumber::from(serial));
        params.not_after = rcgen::date_time_ymd(year, 1, 1);
        let key = KeyPair::generate().unwrap();
        let cert = params.signed_by(&key, &self.issuer).unwrap();
        let ca_pem = pem::encode(&pem::Pem::new("CERTIFICATE", self.ca.to_vec()));
        Leaf {
            chain_pem: format!("{}{ca_pem}", cert.pem()),
            key_pem: key.serialize_pem(),
            der: cert.der().clone(),
            not_after: params.not_after.unix_timestamp(),
        }
    }

    fn cert_path(&self) -> PathBuf {
        self.dir.join("fullchain.pem")
    }
    fn key_path(&self) -> PathBuf {
        self.dir.join("privkey.pem")
    }

    /// Puts `leaf` in place as a renewal tool does: each file written aside, then renamed over.
    fn install(&self, leaf: &Leaf) {
        replace(&self.cert_path(), &leaf.chain_pem);
        replace(&self.key_path(), &leaf.key_pem);
    }

    /// A client configuration trusting this CA only, offering X25519 first.
    fn client(&self) -> Arc<rustls::ClientConfig> {
        use rustls::crypto::ring::kx_group::{SECP256R1, SECP384R1, X25519};
        self.client_with(&[X25519, SECP256R1, SECP384R1])
    }

    /// The same with the key exchange groups `kx`, in this order.
    fn client_with(&self, kx: &[&'static dyn rustls::crypto::SupportedKxGroup]) -> Arc<rustls::ClientConfig> {
        let mut roots = rustls::RootCertStore::empty();
        roots.add(self.ca.clone()).unwrap();
        let mut provider = guandan_server::tls::ring_provider();
        provider.kx_groups = kx.to_vec();
        let mut cfg = rustls::ClientConfig::builder_with_provider(Arc::new(provider))
            .with_safe_default_protocol_versions()
            .unwrap()
            .with_root_certificates(roots)
            .with_no_client_auth();
        cfg.alpn_protocols = vec![b"http/1.1".to_vec()];
        Arc::new(cfg)
    }
}

impl Drop for Pki {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.dir);
    }
}

fn replace(path: &Path, text: &str) {
    let aside = path.with_extension("new");
    std::fs::write(&aside, text).unwrap();
    std::fs::rename(&aside, path).unwrap();
}

// ---- clients --------------------------------------------------------------------------------

/// A TLS connection to the server from loopback address `source`, checked against the CA.
async fn tls_from(source: [u8; 4], addr: SocketAddr, cfg: &Arc<rustls::ClientConfig>) -> std::io::Result<Tls> {
    let tcp = tcp_from(source, addr).await?;
    let name = ServerName::try_from("localhost").unwrap();
    tokio::time::timeout(WAIT, TlsConnector::from(cfg.clone()).connect(name, tcp))
        .await
        .map_err(|_| std::io::Error::new(std::io::ErrorKind::TimedOut, "TLS handshake"))?
}

type Tls = TlsStream<TcpStream>;

async fn tls(addr: SocketAddr, cfg: &Arc<rustls::ClientConfig>) -> Tls {
    tls_from([127, 0, 0, 1], addr, cfg).await.expect("TLS connection")
}

/// The certificate the server presented.
fn served(stream: &Tls) -> CertificateDer<'static> {
    stream.get_ref().1.peer_certificates().expect("a certificate")[0].clone().into_owned()
}

/// One HTTPS request: (status, body).
async fn https(stream: Tls, method: &str, path: &str, body: &str) -> (u16, String) {
    use http_body_util::{BodyExt, Full};
    let (mut sender, conn) =
        hyper::client::conn::http1::handshake(hyper_util::rt::TokioIo::new(stream)).await.expect("HTTP over TLS");
    tokio::spawn(async move {
        let _ = conn.await;
    });
    let req = hyper::Request::builder()
        .method(method)
        .uri(path)
        .header("host", "localhost")
        .header("content-type", "application/json")
        .body(Full::new(hyper::body::Bytes::from(body.to_string())))
        .unwrap();
    let answer = tokio::time::timeout(WAIT, sender.send_request(req)).await.expect("answer in time").expect("answer");
    let status = answer.status().as_u16();
    let bytes = tokio::time::timeout(WAIT, answer.into_body().collect()).await.unwrap().unwrap().to_bytes();
    (status, String::from_utf8_lossy(&bytes).into_owned())
}

/// A `/metrics` series over HTTPS (0 when absent: a labelled counter not counted yet).
async fn tls_metric(addr: SocketAddr, cfg: &Arc<rustls::ClientConfig>, name: &str) -> f64 {
    let (status, body) = https(tls(addr, cfg).await, "GET", METRICS_PATH, "").await;
    assert_eq!(status, 200, "{body}");
    body.lines().find_map(|l| l.strip_prefix(name)?.strip_prefix(' ')?.trim().parse().ok()).unwrap_or(0.0)
}

/// Waits (bounded) until `name` reaches `at_least`.
async fn metric_reaches(addr: SocketAddr, cfg: &Arc<rustls::ClientConfig>, name: &str, at_least: f64) -> f64 {
    for _ in 0..200 {
        let v = tls_metric(addr, cfg, name).await;
        if v >= at_least {
            return v;
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    panic!("{name} did not reach {at_least} within 20 s");
}

async fn register_tls(addr: SocketAddr, cfg: &Arc<rustls::ClientConfig>, nickname: &str) -> (String, String) {
    let body = serde_json::to_string(&NewPlayer { nickname: nickname.into() }).unwrap();
    let (status, text) = https(tls(addr, cfg).await, "POST", PLAYERS_PATH, &body).await;
    let reply: NewPlayerReply = read_reply(status, text.as_bytes()).unwrap_or_else(|e| panic!("register: {e:?}"));
    (reply.player_id, reply.token)
}

type Wss = WebSocketStream<Tls>;

/// A WebSocket over TLS that said hello with a new guest account and got its welcome.
async fn wss_player(addr: SocketAddr, cfg: &Arc<rustls::ClientConfig>, nickname: &str) -> Wss {
    let (player_id, token) = register_tls(addr, cfg, nickname).await;
    let stream = tls(addr, cfg).await;
    let url = format!("wss://localhost:{}{WS_PATH}", addr.port());
    let (mut ws, _) = tokio_tungstenite::client_async(url, stream).await.expect("wss handshake");
    send(&mut ws, &ClientMsg::Hello { protocol_version: PROTOCOL_VERSION, player_id, token: token.into() }).await;
    let m = next(&mut ws).await.expect("welcome");
    assert!(matches!(m, ServerMsg::Welcome { .. }), "{m:?}");
    ws
}

async fn send(ws: &mut Wss, m: &ClientMsg) {
    ws.send(Message::Text(serde_json::to_string(m).unwrap().into())).await.expect("wss send");
}

/// The next protocol message; `None` when the connection ended or nothing came within [`WAIT`].
async fn next(ws: &mut Wss) -> Option<ServerMsg> {
    let until = tokio::time::Instant::now() + WAIT;
    loop {
        match tokio::time::timeout_at(until, ws.next()).await.ok()?? {
            Ok(Message::Text(t)) => return Some(serde_json::from_str(t.as_str()).expect("server json")),
            Ok(Message::Close(_)) | Err(_) => return None,
            Ok(_) => continue,
        }
    }
}

/// The next message that `pred` accepts (bounded in messages and by [`WAIT`] each).
async fn until(ws: &mut Wss, what: &str, pred: impl Fn(&ServerMsg) -> bool) -> ServerMsg {
    for _ in 0..1000 {
        let m = next(ws).await.unwrap_or_else(|| panic!("connection ended waiting for {what}"));
        if pred(&m) {
            return m;
        }
    }
    panic!("no {what}");
}

/// A heartbeat answered: the connection still carries messages both ways.
async fn still_talks(ws: &mut Wss) {
    send(ws, &ClientMsg::Heartbeat).await;
    until(ws, "pong", |m| matches!(m, ServerMsg::Pong)).await;
}

// ---- servers --------------------------------------------------------------------------------

/// The binary over TLS with `pki`'s files (installed first from `leaf`); `extra` flags last.
fn tls_server(pki: &Pki, leaf: &Leaf, extra: &[&str]) -> ServerProc {
    pki.install(leaf);
    let (cert, key) = (pki.cert_path(), pki.key_path());
    let mut args = vec![
        "--tls-cert",
        cert.to_str().unwrap(),
        "--tls-key",
        key.to_str().unwrap(),
        "--public-rate",
        "10000",
        "--public-burst",
        "10000",
    ];
    args.extend_from_slice(extra);
    let instance = format!("tls-{}", pki.dir.file_name().unwrap().to_string_lossy());
    ServerProc::start(&database_url("sqlite"), &instance, "127.0.0.1:0", &args)
}

/// New connections until one is served `want` (a reload is asynchronous); panics after 20 s.
async fn serves_soon(addr: SocketAddr, cfg: &Arc<rustls::ClientConfig>, want: &CertificateDer<'_>) {
    for _ in 0..200 {
        if served(&tls(addr, cfg).await) == *want {
            return;
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    panic!("the new certificate was not served within 20 s");
}

const RELOAD_OK: &str = "guandan_tls_certificate_reloads_total{result=\"ok\"}";
const RELOAD_FAILED: &str = "guandan_tls_certificate_reloads_total{result=\"failed\"}";
const NOT_AFTER: &str = "guandan_tls_certificate_not_after_seconds";

// ---- the tests ------------------------------------------------------------------------------

/// A guest registers over HTTPS, says hello over WSS and creates a room; the room directory
/// advertises the instance as https://, or as the `--public-url` given (wss:// taken as is).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_guest_registers_over_https_and_plays_over_wss() {
    let pki = Pki::new("play");
    let leaf = pki.leaf("guandan server", 1, 2040);
    let server = tls_server(&pki, &leaf, &[]);
    let cfg = pki.client();
    let first = tls(server.addr, &cfg).await;
    assert_eq!(served(&first), leaf.der);
    assert_eq!(first.get_ref().1.alpn_protocol(), Some(&b"http/1.1"[..]), "ALPN http/1.1");
    let kx = first.get_ref().1.negotiated_key_exchange_group().map(|g| g.name());
    assert_eq!(kx, Some(rustls::NamedGroup::X25519), "the test client offers X25519 first");
    let (status, body) = https(first, "GET", HEALTH_PATH, "").await;
    assert_eq!(status, 200, "{body}");
    // A client offering P-384 first (rustls' ring provider's order) is asked to retry with one
    // the server takes (P-384 costs the server ~9x the CPU of X25519).
    let p384 = tls(
        server.addr,
        &pki.client_with(&[rustls::crypto::ring::kx_group::SECP384R1, rustls::crypto::ring::kx_group::X25519]),
    )
    .await;
    assert_eq!(p384.get_ref().1.negotiated_key_exchange_group().map(|g| g.name()), Some(rustls::NamedGroup::X25519));
    assert_eq!(p384.get_ref().1.handshake_kind(), Some(rustls::HandshakeKind::FullWithHelloRetryRequest));
    let only_p384 =
        tls_from([127, 0, 0, 1], server.addr, &pki.client_with(&[rustls::crypto::ring::kx_group::SECP384R1])).await;
    assert!(only_p384.is_err(), "P-384 alone is refused");

    let mut ws = wss_player(server.addr, &cfg, "tls-host").await;
    send(&mut ws, &ClientMsg::CreateRoom { rules: None, spectator_delay: None, seed: Some(7), spectator_hands: None })
        .await;
    let code = match until(&mut ws, "joined", |m| matches!(m, ServerMsg::Joined { .. })).await {
        ServerMsg::Joined { code, seat, .. } => {
            assert_eq!(seat, Some(Seat::ZERO));
            code
        }
        _ => unreachable!(),
    };
    still_talks(&mut ws).await;
    let (status, body) = https(tls(server.addr, &cfg).await, "GET", &format!("/v1/rooms/{code}"), "").await;
    assert_eq!(status, 200, "{body}");
    let entry: RoomDirectoryEntry = serde_json::from_str(&body).unwrap();
    assert_eq!(entry.url, format!("https://{}", server.addr), "TLS's default public URL");
    assert_eq!(tls_metric(server.addr, &cfg, NOT_AFTER).await, leaf.not_after as f64);
    assert!(tls_metric(server.addr, &cfg, "guandan_tls_handshake_ms_count").await >= 4.0);

    // An operator's public URL is advertised as given.
    let named = tls_server(&pki, &leaf, &["--public-url", "wss://game.example.test"]);
    let mut ws = wss_player(named.addr, &cfg, "tls-host-2").await;
    send(&mut ws, &ClientMsg::CreateRoom { rules: None, spectator_delay: None, seed: Some(8), spectator_hands: None })
        .await;
    let code = match until(&mut ws, "joined", |m| matches!(m, ServerMsg::Joined { .. })).await {
        ServerMsg::Joined { code, .. } => code,
        _ => unreachable!(),
    };
    let (_, body) = https(tls(named.addr, &cfg).await, "GET", &format!("/v1/rooms/{code}"), "").await;
    let entry: RoomDirectoryEntry = serde_json::from_str(&body).unwrap();
    assert_eq!(entry.url, "wss://game.example.test");
}

/// New certificate files are picked up by polling; a WebSocket opened before keeps talking, and
/// its room is still there to change.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_changed_certificate_is_served_to_new_connections_and_old_ones_go_on() {
    let pki = Pki::new("poll");
    let (a, b) = (pki.leaf("guandan server A", 10, 2040), pki.leaf("guandan server B", 11, 2041));
    let server = tls_server(&pki, &a, &["--tls-poll-ms", "100"]);
    let cfg = pki.client();
    let mut ws = wss_player(server.addr, &cfg, "before").await;
    send(&mut ws, &ClientMsg::CreateRoom { rules: None, spectator_delay: None, seed: Some(9), spectator_hands: None })
        .await;
    until(&mut ws, "joined", |m| matches!(m, ServerMsg::Joined { .. })).await;
    let held = tls(server.addr, &cfg).await;
    assert_eq!(served(&held), a.der);

    pki.install(&b);
    serves_soon(server.addr, &cfg, &b.der).await;
    assert_eq!(tls_metric(server.addr, &cfg, RELOAD_OK).await, 1.0);
    assert_eq!(tls_metric(server.addr, &cfg, RELOAD_FAILED).await, 0.0);
    assert_eq!(tls_metric(server.addr, &cfg, NOT_AFTER).await, b.not_after as f64);
    // Opened before the reload: the WebSocket still talks, and a TLS connection that finished
    // its handshake with A then makes requests.
    still_talks(&mut ws).await;
    send(&mut ws, &ClientMsg::SetSeat { seat: Seat::ONE, setting: guandan_proto::SeatSetting::Ai { level: 1 } }).await;
    until(&mut ws, "an AI seated", |m| matches!(m, ServerMsg::Room { room } if room.seats[1].ai.is_some())).await;
    let (status, _) = https(held, "GET", HEALTH_PATH, "").await;
    assert_eq!(status, 200);
}

/// SIGHUP reloads at once (the poll here is an hour), and does not end the process.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn sighup_reloads_the_certificate() {
    let pki = Pki::new("hup");
    let (a, b) = (pki.leaf("guandan server A", 20, 2040), pki.leaf("guandan server B", 21, 2042));
    let server = tls_server(&pki, &a, &["--tls-poll-ms", "3600000"]);
    let cfg = pki.client();
    let mut ws = wss_player(server.addr, &cfg, "hup").await;
    pki.install(&b);
    tokio::time::sleep(Duration::from_millis(300)).await;
    assert_eq!(served(&tls(server.addr, &cfg).await), a.der, "no reload before the signal");
    let hup = Command::new("kill").args(["-HUP", &server.pid().to_string()]).status().unwrap();
    assert!(hup.success());
    serves_soon(server.addr, &cfg, &b.der).await;
    assert_eq!(tls_metric(server.addr, &cfg, RELOAD_OK).await, 1.0);
    still_talks(&mut ws).await;
}

/// A garbage key keeps the certificate in use, counted as a failed reload; good files later are
/// served again.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_bad_reload_keeps_serving_the_old_certificate() {
    let pki = Pki::new("bad");
    let (a, b) = (pki.leaf("guandan server A", 30, 2040), pki.leaf("guandan server B", 31, 2043));
    let server = tls_server(&pki, &a, &["--tls-poll-ms", "100"]);
    let cfg = pki.client();
    let mut ws = wss_player(server.addr, &cfg, "bad").await;
    replace(&pki.key_path(), "-----BEGIN PRIVATE KEY-----\nAAAA\n-----END PRIVATE KEY-----\n");
    metric_reaches(server.addr, &cfg, RELOAD_FAILED, 1.0).await;
    assert_eq!(served(&tls(server.addr, &cfg).await), a.der, "the old certificate is still served");
    assert_eq!(tls_metric(server.addr, &cfg, RELOAD_OK).await, 0.0);
    assert_eq!(tls_metric(server.addr, &cfg, NOT_AFTER).await, a.not_after as f64);
    still_talks(&mut ws).await;
    // A key that is not the certificate's is refused the same way.
    replace(&pki.key_path(), &b.key_pem);
    metric_reaches(server.addr, &cfg, RELOAD_FAILED, 2.0).await;
    assert_eq!(served(&tls(server.addr, &cfg).await), a.der);
    pki.install(&b);
    serves_soon(server.addr, &cfg, &b.der).await;
    still_talks(&mut ws).await;
}

/// Plain HTTP (and a plain WebSocket) on the TLS port gets no plain-text answer and is closed;
/// the server keeps serving TLS clients.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn plain_text_on_the_tls_port_is_closed() {
    let pki = Pki::new("plain");
    let leaf = pki.leaf("guandan server", 40, 2040);
    let server = tls_server(&pki, &leaf, &[]);
    let cfg = pki.client();
    for _ in 0..3 {
        let mut tcp = TcpStream::connect(server.addr).await.unwrap();
        tcp.write_all(b"GET /healthz HTTP/1.1\r\nHost: localhost\r\n\r\n").await.unwrap();
        let got = read_to_end(&mut tcp).await.expect("closed in time");
        assert!(!got.starts_with(b"HTTP/"), "a plain-text answer: {:?}", String::from_utf8_lossy(&got));
    }
    let plain_ws = tokio_tungstenite::connect_async(format!("ws://{}{WS_PATH}", server.addr)).await;
    assert!(plain_ws.is_err(), "a ws:// handshake on the TLS port");
    let (status, _) = https(tls(server.addr, &cfg).await, "GET", HEALTH_PATH, "").await;
    assert_eq!(status, 200);
    let failures = tls_metric(server.addr, &cfg, "guandan_tls_handshake_failures_total{reason=\"error\"}").await;
    assert!(failures >= 4.0, "{failures}");
}

/// Everything the peer sends until it closes; `None` if it does not close within [`WAIT`].
async fn read_to_end(tcp: &mut TcpStream) -> Option<Vec<u8>> {
    let mut got = Vec::new();
    let until = tokio::time::Instant::now() + WAIT;
    loop {
        let mut buf = [0u8; 1024];
        match tokio::time::timeout_at(until, tcp.read(&mut buf)).await {
            Err(_) => return None,
            Ok(Ok(0)) | Ok(Err(_)) => return Some(got),
            Ok(Ok(n)) => got.extend_from_slice(&buf[..n]),
        }
    }
}

/// A ClientHello as a real client sends it (the bytes of its first flight).
fn client_hello(cfg: &Arc<rustls::ClientConfig>) -> Vec<u8> {
    let mut conn = rustls::ClientConnection::new(cfg.clone(), ServerName::try_from("localhost").unwrap()).unwrap();
    let mut out = Vec::new();
    while conn.wants_write() {
        conn.write_tls(&mut out).unwrap();
    }
    assert!(out.len() > 100 && out[0] == 22, "a handshake record");
    out
}

/// Silence, half a ClientHello, and a ClientHello trickled a byte at a time: each connection is
/// closed once `--header-timeout-ms` has passed since it was accepted, counted as a timeout.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_stalled_handshake_is_closed_after_the_header_timeout() {
    let pki = Pki::new("stall");
    let leaf = pki.leaf("guandan server", 50, 2040);
    let server = tls_server(&pki, &leaf, &["--header-timeout-ms", "500"]);
    let cfg = pki.client();
    let hello = client_hello(&cfg);

    let started = Instant::now();
    let mut silent = TcpStream::connect(server.addr).await.unwrap();
    let mut half = TcpStream::connect(server.addr).await.unwrap();
    half.write_all(&hello[..hello.len() / 2]).await.unwrap();
    for (name, tcp) in [("silent", &mut silent), ("half a hello", &mut half)] {
        let got = read_to_end(tcp).await.unwrap_or_else(|| panic!("{name}: not closed within {WAIT:?}"));
        assert!(started.elapsed() >= Duration::from_millis(500), "{name}: closed before the timeout");
        assert!(!got.starts_with(b"HTTP/"), "{name}");
    }

    // One byte every 50 ms: each byte arrives in time, the whole hello does not.
    let mut trickle = TcpStream::connect(server.addr).await.unwrap();
    let mut sent = 0;
    for b in &hello {
        if trickle.write_all(&[*b]).await.is_err() {
            break;
        }
        sent += 1;
        let mut buf = [0u8; 256];
        match tokio::time::timeout(Duration::from_millis(50), trickle.read(&mut buf)).await {
            Ok(Ok(0)) | Ok(Err(_)) => break,
            _ => {}
        }
    }
    assert!(sent < hello.len(), "the trickled hello ({} bytes) was let finish", hello.len());

    let timeouts =
        metric_reaches(server.addr, &cfg, "guandan_tls_handshake_failures_total{reason=\"timeout\"}", 3.0).await;
    assert!(timeouts >= 3.0);
    let (status, _) = https(tls(server.addr, &cfg).await, "GET", HEALTH_PATH, "").await;
    assert_eq!(status, 200, "others are served meanwhile");
}

/// `--max-conns-per-ip` counts TLS connections before their handshake: two silent sockets from
/// one address keep a third from it out, not one from another address.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn per_address_limits_hold_before_the_handshake() {
    let pki = Pki::new("perip");
    let leaf = pki.leaf("guandan server", 60, 2040);
    // The silent sockets must outlive the test: a long header timeout.
    let server = tls_server(&pki, &leaf, &["--max-conns-per-ip", "2", "--header-timeout-ms", "120000"]);
    let cfg = pki.client();
    let held: Vec<TcpStream> = vec![
        tcp_from([127, 0, 0, 1], server.addr).await.unwrap(),
        tcp_from([127, 0, 0, 1], server.addr).await.unwrap(),
    ];
    // The server counts a connection when it accepts it: wait until both are counted.
    let other = [127, 0, 0, 2];
    for _ in 0..200 {
        let (_, body) = https(tls_from(other, server.addr, &cfg).await.unwrap(), "GET", METRICS_PATH, "").await;
        if body.lines().any(|l| l.starts_with("guandan_tcp_connections ") && l.ends_with(" 3")) {
            break;
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    assert!(tls_from([127, 0, 0, 1], server.addr, &cfg).await.is_err(), "a third from the same address");
    let (status, _) = https(tls_from(other, server.addr, &cfg).await.unwrap(), "GET", HEALTH_PATH, "").await;
    assert_eq!(status, 200, "another address is served");
    let refused = {
        let (_, body) = https(tls_from(other, server.addr, &cfg).await.unwrap(), "GET", METRICS_PATH, "").await;
        body.lines()
            .find_map(|l| l.strip_prefix("guandan_connections_refused_per_ip_total ")?.trim().parse::<f64>().ok())
            .unwrap_or(0.0)
    };
    assert!(refused >= 1.0, "{refused}");
    drop(held);
    // Their places are given back once the server sees them closed.
    let mut back = false;
    for _ in 0..100 {
        if tls_from([127, 0, 0, 1], server.addr, &cfg).await.is_ok() {
            back = true;
            break;
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    assert!(back, "the address's places were not given back");
}

/// The binary refuses to start on bad files, naming the file and the reason.
#[test]
fn the_server_refuses_to_start_on_bad_files() {
    let pki = Pki::new("start");
    let (a, b) = (pki.leaf("A", 70, 2040), pki.leaf("B", 71, 2040));
    pki.install(&a);
    let other_key = pki.dir.join("other-key.pem");
    std::fs::write(&other_key, &b.key_pem).unwrap();
    let (cert, key) = (pki.cert_path(), pki.key_path());
    let absent = pki.dir.join("absent.pem");
    let s = |p: &Path| p.to_str().unwrap().to_string();
    let cases: Vec<(Vec<String>, Vec<String>)> = vec![
        (
            vec!["--tls-cert".into(), s(&cert), "--tls-key".into(), s(&other_key)],
            vec![s(&other_key), "does not match the certificate".into()],
        ),
        (vec!["--tls-cert".into(), s(&absent), "--tls-key".into(), s(&key)], vec![s(&absent), "cannot read".into()]),
        (
            vec!["--tls-cert".into(), s(&key), "--tls-key".into(), s(&key)],
            vec![s(&key), "no certificate in the file".into()],
        ),
        (vec!["--tls-cert".into(), s(&cert)], vec!["--tls-key".into()]),
    ];
    for (args, says) in cases {
        let db = database_url("sqlite");
        let mut child = Command::new(env!("CARGO_BIN_EXE_guandan-server"))
            .args(["--listen", "127.0.0.1:0", "--database-url", &db, "--instance", "bad-files"])
            .args(&args)
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        let deadline = Instant::now() + WAIT;
        let status = loop {
            if let Some(st) = child.try_wait().unwrap() {
                break st;
            }
            if Instant::now() > deadline {
                child.kill().unwrap();
                panic!("{args:?}: still running after {WAIT:?}");
            }
            std::thread::sleep(Duration::from_millis(50));
        };
        let mut stderr = String::new();
        std::io::Read::read_to_string(child.stderr.as_mut().unwrap(), &mut stderr).unwrap();
        assert!(!status.success(), "{args:?} started");
        for s in says {
            assert!(stderr.contains(&s), "{args:?}: {stderr:?} should say {s:?}");
        }
    }
}
