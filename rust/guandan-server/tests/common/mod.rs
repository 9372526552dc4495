//! Test harness: the real `guandan-server` binary on loopback, real WebSocket clients, and the
//! checks every test shares (hidden cards, hashes, action continuity). Every wait is bounded.
#![allow(dead_code)]

use futures_util::{SinkExt, StreamExt};
use guandan_ai::Agent;
use guandan_core::card::CardSet;
use guandan_core::game::{ActionKind, Match, Seat};
use guandan_core::log::MatchLog;
use guandan_proto::http::{
    FinishedMatch, METRICS_PATH, NewPlayer, NewPlayerReply, PLAYERS_PATH, WS_PATH, match_path, read_reply,
};
use guandan_proto::{ClientMsg, Event, ServerMsg, Session, SessionConfig, TableView, WireOut};
use rand_chacha::ChaCha8Rng;
use rand_core::SeedableRng;
use std::io::{BufRead, BufReader};
use std::net::SocketAddr;
use std::process::{Child, Command, Stdio};
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Duration;
use tokio::net::TcpStream as TokioTcp;
use tokio_tungstenite::tungstenite::Message;
use tokio_tungstenite::{MaybeTlsStream, WebSocketStream};

mod client;
pub use client::*;

pub const WAIT: Duration = Duration::from_secs(20);
/// Longest wait for one expected message among others (a whole match can pass meanwhile).
pub const UNTIL: Duration = Duration::from_secs(300);

/// The databases the tests run against: SQLite always; PostgreSQL when `GUANDAN_TEST_POSTGRES`
/// holds a URL (tools/test starts a private cluster and sets it).
pub fn databases() -> Vec<String> {
    let mut v = vec!["sqlite".to_string()];
    if let Ok(pg) = std::env::var("GUANDAN_TEST_POSTGRES")
        && !pg.is_empty()
    {
        v.push(pg);
    }
    v
}

static NEXT: AtomicU64 = AtomicU64::new(0);

fn unique() -> String {
    format!("{}-{}", std::process::id(), NEXT.fetch_add(1, Ordering::Relaxed))
}

/// A database for one test: a fresh SQLite file, or the shared PostgreSQL database (tests keep
/// apart through unique instance names, room codes and players).
pub fn database_url(db: &str) -> String {
    if db == "sqlite" {
        static SWEEP: std::sync::Once = std::sync::Once::new();
        SWEEP.call_once(sweep_dead_test_databases);
        let dir = std::env::temp_dir().join(format!("guandan-server-test-{}", unique()));
        format!("sqlite://{}/server.db", dir.display())
    } else {
        db.to_string()
    }
}

/// Removes the SQLite folders of test processes that are gone. A folder outlives its test (a
/// test may start a second server on the same database after the first is dropped), so each
/// test binary sweeps the folders whose process (the number in the name) no longer runs.
fn sweep_dead_test_databases() {
    let Ok(entries) = std::fs::read_dir(std::env::temp_dir()) else { return };
    for e in entries.flatten() {
        let name = e.file_name();
        let Some(rest) = name.to_str().and_then(|n| n.strip_prefix("guandan-server-test-")) else { continue };
        let Some(pid) = rest.split('-').next().and_then(|p| p.parse::<u32>().ok()) else { continue };
        if pid != std::process::id() && !std::path::Path::new(&format!("/proc/{pid}")).exists() {
            let _ = std::fs::remove_dir_all(e.path());
        }
    }
}

pub struct ServerProc {
    child: Child,
    pub addr: SocketAddr,
    pub args: Vec<String>,
}

/// What the functional tests add to every server they start (a test's own flags come after and
/// win): rooms dealt from the test's seed (deterministic matches) and limits no test reaches. The
/// hostile suite starts servers without them ([`ServerProc::start_strict`]).
pub const TEST_DEFAULTS: &[&str] = &[
    "--practice-seeds",
    "--max-conns-per-ip",
    "10000",
    "--accounts-per-ip-per-minute",
    "10000",
    "--rooms-per-account",
    "1000",
    // AI seats act at once, and the next deal follows a deal's end at once (the pacing tests set
    // their own).
    "--ai-pace-ms",
    "0",
    "--deal-break-ms",
    "0",
];

impl ServerProc {
    /// Starts the binary with [`TEST_DEFAULTS`]; waits for `listening on ADDR`.
    pub fn start(db_url: &str, instance: &str, listen: &str, extra: &[&str]) -> ServerProc {
        let mut all: Vec<&str> = TEST_DEFAULTS.to_vec();
        all.extend_from_slice(extra);
        Self::start_strict(db_url, instance, listen, &all)
    }

    /// Starts the binary with the production defaults and only `extra` flags.
    pub fn start_strict(db_url: &str, instance: &str, listen: &str, extra: &[&str]) -> ServerProc {
        let mut args: Vec<String> = vec![
            "--listen".into(),
            listen.into(),
            "--database-url".into(),
            db_url.into(),
            "--instance".into(),
            instance.into(),
        ];
        args.extend(extra.iter().map(|s| s.to_string()));
        Self::spawn(args)
    }

    fn spawn(args: Vec<String>) -> ServerProc {
        let mut child = Command::new(env!("CARGO_BIN_EXE_guandan-server"))
            .args(&args)
            .env("RUST_LOG", std::env::var("GUANDAN_TEST_SERVER_LOG").unwrap_or_else(|_| "warn".into()))
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit())
            .spawn()
            .expect("start guandan-server");
        let stdout = child.stdout.take().expect("stdout");
        let mut line = String::new();
        BufReader::new(stdout).read_line(&mut line).expect("read stdout");
        let addr = line
            .trim()
            .strip_prefix("listening on ")
            .unwrap_or_else(|| panic!("unexpected first line {line:?}"))
            .parse()
            .expect("address");
        ServerProc { child, addr, args }
    }

    /// kill -9, then start again with the same arguments on the same address.
    pub fn kill_and_restart(&mut self) {
        self.child.kill().expect("kill -9");
        let _ = self.child.wait();
        let mut args = self.args.clone();
        let i = args.iter().position(|a| a == "--listen").expect("listen") + 1;
        args[i] = self.addr.to_string();
        // The port may take a moment to be free again.
        for _ in 0..50 {
            if std::net::TcpListener::bind(self.addr).is_ok() {
                break;
            }
            std::thread::sleep(Duration::from_millis(100));
        }
        let fresh = Self::spawn(args);
        let old = std::mem::replace(self, fresh);
        std::mem::forget(old);
    }

    /// kill -9, no restart (the instance is dead for good).
    pub fn kill(&mut self) {
        self.child.kill().expect("kill -9");
        let _ = self.child.wait();
    }

    /// SIGTERM and wait (graceful shutdown).
    pub fn terminate(&mut self) -> std::process::ExitStatus {
        let _ = Command::new("kill").arg("-TERM").arg(self.child.id().to_string()).status();
        for _ in 0..100 {
            if let Ok(Some(st)) = self.child.try_wait() {
                return st;
            }
            std::thread::sleep(Duration::from_millis(100));
        }
        self.child.kill().ok();
        self.child.wait().expect("wait")
    }

    pub fn url(&self) -> String {
        format!("http://{}", self.addr)
    }

    pub fn pid(&self) -> u32 {
        self.child.id()
    }

    /// File descriptors the server process holds open (sockets, database files, …).
    pub fn open_fds(&self) -> usize {
        std::fs::read_dir(format!("/proc/{}/fd", self.child.id())).map_or(0, |d| d.count())
    }
}

/// A TCP connection to `addr` from the loopback address `source` (e.g. 127.0.0.2: another
/// "machine" as far as per-address limits go, still on loopback).
pub async fn tcp_from(source: [u8; 4], addr: SocketAddr) -> std::io::Result<TokioTcp> {
    let sock = tokio::net::TcpSocket::new_v4()?;
    sock.bind(SocketAddr::from((source, 0)))?;
    sock.connect(addr).await
}

/// HTTP from a given loopback source address (hyper's client over our own socket): (status,
/// body); `None` if the server closed the connection without an answer or none came within
/// [`WAIT`].
pub async fn http_from(
    source: [u8; 4],
    addr: SocketAddr,
    method: &str,
    path: &str,
    body: &str,
) -> Option<(u16, String)> {
    use http_body_util::{BodyExt, Full};
    let tcp = tcp_from(source, addr).await.ok()?;
    let (mut sender, conn) = hyper::client::conn::http1::handshake(hyper_util::rt::TokioIo::new(tcp)).await.ok()?;
    tokio::spawn(async move {
        let _ = conn.await;
    });
    let req = hyper::Request::builder()
        .method(method)
        .uri(path)
        .header("host", addr.to_string())
        .header("content-type", "application/json")
        .body(Full::new(hyper::body::Bytes::from(body.to_string())))
        .ok()?;
    let answer = tokio::time::timeout(WAIT, sender.send_request(req)).await.ok()?.ok()?;
    let status = answer.status().as_u16();
    let bytes = tokio::time::timeout(WAIT, answer.into_body().collect()).await.ok()?.ok()?.to_bytes();
    Some((status, String::from_utf8_lossy(&bytes).into_owned()))
}

/// A WebSocket from a given loopback source address.
pub async fn ws_from(source: [u8; 4], addr: SocketAddr) -> Option<Ws> {
    let tcp = tcp_from(source, addr).await.ok()?;
    let (ws, _) =
        tokio_tungstenite::client_async(format!("ws://{addr}{WS_PATH}"), MaybeTlsStream::Plain(tcp)).await.ok()?;
    Some(ws)
}

impl Drop for ServerProc {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// One plain HTTP request on loopback (ureq): (status, body).
pub fn http(addr: SocketAddr, method: &str, path: &str, body: &str) -> (u16, String) {
    let agent: ureq::Agent =
        ureq::Agent::config_builder().timeout_global(Some(WAIT)).http_status_as_error(false).build().into();
    let url = format!("http://{addr}{path}");
    let answer = match method {
        "GET" => agent.get(&url).call(),
        "POST" => agent.post(&url).content_type("application/json").send(body),
        other => panic!("no {other} requests in these tests"),
    };
    let mut answer = answer.unwrap_or_else(|e| panic!("{method} {path}: {e}"));
    let status = answer.status().as_u16();
    let text = answer.body_mut().read_to_string().unwrap_or_else(|e| panic!("{method} {path}: {e}"));
    (status, text)
}

pub fn register(addr: SocketAddr, nickname: &str) -> (String, String) {
    let body = serde_json::to_string(&NewPlayer { nickname: nickname.into() }).expect("json");
    let (status, text) = http(addr, "POST", PLAYERS_PATH, &body);
    let reply: NewPlayerReply = read_reply(status, text.as_bytes()).unwrap_or_else(|e| panic!("register: {e:?}"));
    (reply.player_id, reply.token)
}

/// A finished match's stored log.
pub fn stored_log(addr: SocketAddr, code: &str, match_no: u32) -> (serde_json::Value, MatchLog) {
    let (status, text) = http(addr, "GET", &match_path(code, match_no), "");
    let m: FinishedMatch = read_reply(status, text.as_bytes()).unwrap_or_else(|e| panic!("stored match: {e:?}"));
    let log = MatchLog::parse(&m.log).expect("stored log parses");
    (m.meta, log)
}

/// The states after 0..=n actions of a log.
pub fn states(log: &MatchLog) -> Vec<Match> {
    let (mut m, _) = log.start().expect("start");
    let mut out = vec![m.clone()];
    for a in &log.actions {
        m.apply(a).expect("stored action replays");
        out.push(m.clone());
    }
    out
}

/// Cards a message shows its recipient beyond the plays it announces (which are public; they
/// are checked against the log instead).
pub fn revealed(m: &ServerMsg) -> CardSet {
    let mut s = m.cards();
    if let ServerMsg::Applied { events, .. } = m {
        for e in events {
            if let WireOut::CardsPlayed { play, .. } = e {
                s = s.minus(play.cards);
            }
        }
    }
    s
}

/// The cards an applied action announces as played must be exactly the logged action's cards.
fn check_plays(m: &ServerMsg, log: &MatchLog, who: &str) {
    let ServerMsg::Applied { action_seq, actions, events, .. } = m else { return };
    let covered = &log.actions[(*action_seq - *actions as u64) as usize..*action_seq as usize];
    for e in events {
        if let WireOut::CardsPlayed { seat, play } = e {
            let shown = play.cards;
            // A timeout plays the smallest single: it was in the hand before.
            let logged = covered.iter().any(|a| {
                a.seat == *seat
                    && match &a.kind {
                        ActionKind::Play { cards, .. } => CardSet::from_ids(cards) == shown,
                        ActionKind::Timeout => true,
                        _ => false,
                    }
            });
            assert!(logged, "{who}: action {action_seq} announced a play that is not in the log");
        }
    }
}

/// Cards `viewer` may not know in state `m` (`None` = spectator): every other hand, except cards
/// the viewer itself gave as tribute or return this deal.
pub fn hidden(m: &Match, viewer: Option<Seat>) -> CardSet {
    let mut s = CardSet::EMPTY;
    for t in Seat::ALL {
        if Some(t) != viewer {
            s = s.union(m.hand(t));
        }
    }
    if let Some(v) = viewer {
        for t in m.tributes() {
            if t.payer == v
                && let Some(c) = t.card
            {
                s = s.minus(CardSet::from_ids(&[c]));
            }
            if t.receiver == Some(v)
                && let Some(c) = t.returned
            {
                s = s.minus(CardSet::from_ids(&[c]));
            }
        }
    }
    s
}

/// The scan: no message any client received shows a card hidden from it; every state hash a
/// client saw is the replayed hash; each client saw each action once, in order (from `from`).
/// Returns the number of messages scanned.
pub fn scan(
    client: &Client,
    log: &MatchLog,
    states: &[Match],
    viewer: Option<Seat>,
    contiguous_from: Option<u64>,
) -> usize {
    let mut n = 0;
    let mut expect = contiguous_from;
    for m in &client.log {
        let (seq, hash) = match m {
            ServerMsg::Applied { action_seq, state_hash, .. } | ServerMsg::State { action_seq, state_hash, .. } => {
                (*action_seq, state_hash)
            }
            _ => continue,
        };
        let st = &states[seq as usize];
        assert_eq!(&st.state_hash(), hash, "{}: desync at action {seq}", client.name);
        check_plays(m, log, &client.name);
        let leak = revealed(m).intersect(hidden(st, viewer));
        assert!(leak.is_empty(), "{}: action {seq} shows hidden cards {:?}: {m:?}", client.name, leak.ids());
        match (m, expect.as_mut()) {
            (ServerMsg::Applied { actions, .. }, Some(e)) => {
                assert_eq!(seq - *actions as u64, *e, "{}: actions after {} missing or repeated", client.name, *e);
                *e = seq;
            }
            // A full state stands for everything before it.
            (ServerMsg::State { .. }, Some(e)) => *e = (*e).max(seq),
            _ => {}
        }
        n += 1;
    }
    n
}

/// A value of the server's `/metrics` (Prometheus text), by exact series name.
pub fn metric(addr: SocketAddr, name: &str) -> Option<f64> {
    let (status, body) = http(addr, "GET", METRICS_PATH, "");
    assert_eq!(status, 200, "{body}");
    body.lines().find_map(|l| l.strip_prefix(name)?.strip_prefix(' ')?.trim().parse().ok())
}
