//! What the accounts' tests share (issue 36; tests/accounts_*.rs): servers in the test's own
//! process (the library's `Server::start`, so a test moves the accounts' clock instead of waiting
//! days, and reads every log line the server writes), HTTP calls from a chosen loopback address,
//! hellos, and a database of each test's own. Real sockets on loopback, real databases (SQLite,
//! and PostgreSQL when `GUANDAN_TEST_POSTGRES` is set).
#![allow(dead_code)] // Not every test file uses every helper.

use crate::common::{self, ws_from};
use clap::Parser;
use futures_util::{SinkExt, StreamExt};
use guandan_proto::http::{
    ACCOUNT_PATH, CLAIM_PATH, HttpError, LOGIN_PATH, NewPlayer, NewPlayerReply, PLAYERS_PATH, TRANSFER_CODE_PATH,
    TRANSFER_PATH, TransferCodeReply, read_reply,
};
use guandan_proto::{ClientMsg, ErrorCode, PROTOCOL_VERSION, Secret, ServerMsg};
use guandan_server::Server;
use guandan_server::config::Config;
use std::net::SocketAddr;
use std::sync::{Arc, Mutex, OnceLock};
use std::time::Duration;
use tokio_tungstenite::tungstenite::Message;

pub const DAY: Duration = Duration::from_secs(86_400);
pub const MINUTE: Duration = Duration::from_secs(60);

// ---------------------------------------------------------------------------------------------
// Every log line of this process, at every level (the servers run here).

#[derive(Clone, Default)]
pub struct Capture(Arc<Mutex<Vec<u8>>>);

impl std::io::Write for Capture {
    fn write(&mut self, b: &[u8]) -> std::io::Result<usize> {
        self.0.lock().unwrap().extend_from_slice(b);
        Ok(b.len())
    }
    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

/// Installs the capture once (TRACE for every crate: the server's, hyper's, sqlx's…).
pub fn logs() -> &'static Capture {
    static CAPTURE: OnceLock<Capture> = OnceLock::new();
    CAPTURE.get_or_init(|| {
        let c = Capture::default();
        let writer = c.clone();
        tracing_subscriber::fmt()
            .with_env_filter(tracing_subscriber::EnvFilter::new("trace"))
            .with_writer(move || writer.clone())
            .with_ansi(false)
            .init();
        c
    })
}

pub fn log_text() -> String {
    String::from_utf8_lossy(&logs().0.lock().unwrap()).into_owned()
}

// ---------------------------------------------------------------------------------------------
// Servers, requests, hellos.

pub fn unique(tag: &str) -> String {
    use std::sync::atomic::{AtomicU64, Ordering};
    static N: AtomicU64 = AtomicU64::new(0);
    let nanos = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).unwrap().as_nanos();
    format!("{tag}{:x}{:x}{}", std::process::id(), nanos % 1_000_000_007, N.fetch_add(1, Ordering::Relaxed))
}

/// A server in this process on `db_url`, with limits no test meets unless it sets them.
pub async fn server(db_url: &str, flags: &[&str]) -> Server {
    logs();
    let instance = unique("acc");
    let mut args = vec![
        "guandan-server",
        "--listen",
        "127.0.0.1:0",
        "--database-url",
        db_url,
        "--instance",
        &instance,
        "--accounts-per-ip-per-minute",
        "10000",
        "--public-rate",
        "10000",
        "--public-burst",
        "10000",
    ];
    args.extend_from_slice(flags);
    Server::start(Config::parse_from(args)).await.expect("server starts")
}

pub struct Reply {
    pub status: u16,
    pub body: String,
    pub retry_after: Option<u64>,
}

impl Reply {
    pub fn ok<T: serde::de::DeserializeOwned>(&self) -> T {
        read_reply(self.status, self.body.as_bytes()).unwrap_or_else(|e| panic!("{} {e:?}", self.status))
    }

    /// The refusal (panics on a 200).
    pub fn refused(&self) -> (u16, ErrorCode, String) {
        assert_ne!(self.status, 200, "expected a refusal: {}", self.body);
        let e: HttpError = serde_json::from_str(&self.body).unwrap_or_else(|_| panic!("not a refusal: {}", self.body));
        (self.status, e.error_code().expect("a known code"), e.message)
    }
}

/// One HTTP request from loopback address `source`, with a session token if given.
pub async fn call(
    source: [u8; 4],
    addr: SocketAddr,
    method: &str,
    path: &str,
    token: Option<&Secret>,
    body: &str,
) -> Reply {
    use http_body_util::{BodyExt, Full};
    let tcp = common::tcp_from(source, addr).await.expect("connect");
    let (mut sender, conn) =
        hyper::client::conn::http1::handshake(hyper_util::rt::TokioIo::new(tcp)).await.expect("handshake");
    tokio::spawn(async move {
        let _ = conn.await;
    });
    let mut req = hyper::Request::builder()
        .method(method)
        .uri(path)
        .header("host", addr.to_string())
        .header("content-type", "application/json");
    if let Some(t) = token {
        req = req.header("authorization", guandan_proto::http::bearer(t));
    }
    let req = req.body(Full::new(hyper::body::Bytes::from(body.to_string()))).expect("request");
    let answer = tokio::time::timeout(common::WAIT, sender.send_request(req)).await.expect("in time").expect("answer");
    let status = answer.status().as_u16();
    let retry_after =
        answer.headers().get("retry-after").and_then(|v| v.to_str().ok()).and_then(|v| v.parse::<u64>().ok());
    let bytes = tokio::time::timeout(common::WAIT, answer.into_body().collect()).await.expect("in time").unwrap();
    Reply { status, body: String::from_utf8_lossy(&bytes.to_bytes()).into_owned(), retry_after }
}

pub const HOME: [u8; 4] = [127, 0, 0, 1];

/// A new guest: (player id, token).
pub async fn guest(addr: SocketAddr, nickname: &str) -> (String, Secret) {
    let body = serde_json::to_string(&NewPlayer { nickname: nickname.into() }).unwrap();
    let r: NewPlayerReply = call(HOME, addr, "POST", PLAYERS_PATH, None, &body).await.ok();
    (r.player_id, Secret::from(r.token))
}

pub fn json(v: serde_json::Value) -> String {
    v.to_string()
}

pub async fn claim(addr: SocketAddr, token: &Secret, name: &str, password: &str) -> Reply {
    call(HOME, addr, "POST", CLAIM_PATH, Some(token), &json(serde_json::json!({"name": name, "password": password})))
        .await
}

pub async fn login(source: [u8; 4], addr: SocketAddr, name: &str, password: &str) -> Reply {
    let body = json(serde_json::json!({"name": name, "password": password, "device": "phone"}));
    call(source, addr, "POST", LOGIN_PATH, None, &body).await
}

pub async fn redeem(source: [u8; 4], addr: SocketAddr, code: &str) -> Reply {
    call(source, addr, "POST", TRANSFER_PATH, None, &json(serde_json::json!({"code": code}))).await
}

pub async fn new_code(addr: SocketAddr, token: &Secret) -> TransferCodeReply {
    call(HOME, addr, "POST", TRANSFER_CODE_PATH, Some(token), "{}").await.ok()
}

/// A WebSocket's `hello` and the server's first answer; the socket stays open.
pub async fn hello(addr: SocketAddr, player_id: &str, token: &Secret) -> (ServerMsg, common::Ws) {
    let mut ws = ws_from(HOME, addr).await.expect("ws");
    let hello =
        ClientMsg::Hello { protocol_version: PROTOCOL_VERSION, player_id: player_id.into(), token: token.clone() };
    ws.send(Message::Text(serde_json::to_string(&hello).unwrap().into())).await.unwrap();
    let first = next_msg(&mut ws).await.expect("an answer to hello");
    (first, ws)
}

/// The next server message (`None`: the connection closed), bounded in time.
pub async fn next_msg(ws: &mut common::Ws) -> Option<ServerMsg> {
    loop {
        match tokio::time::timeout(common::WAIT, ws.next()).await.expect("no silence") {
            Some(Ok(Message::Text(t))) => return Some(serde_json::from_str(t.as_str()).expect("server json")),
            Some(Ok(Message::Close(_))) | None | Some(Err(_)) => return None,
            Some(Ok(_)) => continue,
        }
    }
}

/// Whether a hello with this token is welcomed; the welcome's new token, if any.
pub async fn welcomed(
    addr: SocketAddr,
    player_id: &str,
    token: &Secret,
) -> Result<Option<Secret>, (ErrorCode, String)> {
    match hello(addr, player_id, token).await.0 {
        ServerMsg::Welcome { player_id: p, token, .. } => {
            assert_eq!(p, player_id);
            Ok(token)
        }
        ServerMsg::Error { code, message, .. } => Err((ErrorCode::from_code(code).expect("known"), message)),
        other => panic!("{other:?}"),
    }
}

pub async fn info(addr: SocketAddr, token: &Secret) -> Reply {
    call(HOME, addr, "GET", ACCOUNT_PATH, Some(token), "").await
}

// ---------------------------------------------------------------------------------------------

/// A database of its own: a fresh SQLite file, or a new PostgreSQL database on the test cluster
/// (dropped by the returned future). Every test here has one: a test that moves its clock by
/// months sweeps expired sessions, and on a shared database it would sweep the others'.
pub async fn fresh_database(db: &str) -> (String, std::pin::Pin<Box<dyn std::future::Future<Output = ()> + Send>>) {
    use sqlx::Connection;
    if db == "sqlite" {
        return (common::database_url(db), Box::pin(async {}));
    }
    let name = unique("mig").to_lowercase();
    let mut admin = sqlx::PgConnection::connect(db).await.expect("postgres");
    sqlx::query(&format!("CREATE DATABASE {name}")).execute(&mut admin).await.expect("create database");
    let (base, _) = db.rsplit_once('/').expect("a database url");
    let url = format!("{base}/{name}");
    let admin_url = db.to_string();
    (
        url,
        Box::pin(async move {
            if let Ok(mut admin) = sqlx::PgConnection::connect(&admin_url).await {
                let _ = sqlx::query(&format!("DROP DATABASE {name} WITH (FORCE)")).execute(&mut admin).await;
            }
        }),
    )
}
