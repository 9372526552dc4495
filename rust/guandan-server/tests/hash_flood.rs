//! A password-hash flood (issue 57): many addresses send logins with random names and wrong
//! passwords, enough to keep the one hasher busy with a full queue. The honest owner of an
//! account still logs in, from home and from an address never seen, ahead of the flood (the
//! hashes done while it waited are counted, not timed); an attacker's request past the queue is
//! refused as busy with a code, a message and `Retry-After`, and loses nothing (each address
//! gets exactly its limit of answered tries). Real sockets on loopback, the server in this
//! process, SQLite and PostgreSQL.

mod common;

use clap::Parser;
use common::databases;
use guandan_proto::ErrorCode;
use guandan_proto::http::{CLAIM_PATH, HttpError, LOGIN_PATH, NewPlayer, NewPlayerReply, PLAYERS_PATH, read_reply};
use guandan_server::Server;
use guandan_server::config::Config;
use std::collections::HashMap;
use std::net::SocketAddr;
use std::sync::Arc;
use std::sync::atomic::Ordering;

/// Attacking addresses, logins each may try an hour (the per-address limit), requests each
/// keeps in flight.
const ATTACKERS: u8 = 24;
const TRIES: u32 = 6;
const LANES: usize = 3;
/// The rest lane's length (`--password-queue`).
const QUEUE: usize = 8;

fn unique(tag: &str) -> String {
    use std::sync::atomic::AtomicU64;
    static N: AtomicU64 = AtomicU64::new(0);
    format!("{tag}{}x{}", std::process::id(), N.fetch_add(1, Ordering::Relaxed))
}

async fn post(source: [u8; 4], addr: SocketAddr, path: &str, token: Option<&str>, body: String) -> (u16, String) {
    use http_body_util::{BodyExt, Full};
    let tcp = common::tcp_from(source, addr).await.expect("connect");
    let (mut sender, conn) =
        hyper::client::conn::http1::handshake(hyper_util::rt::TokioIo::new(tcp)).await.expect("handshake");
    tokio::spawn(async move {
        let _ = conn.await;
    });
    let mut req = hyper::Request::builder().method("POST").uri(path).header("host", addr.to_string());
    if let Some(t) = token {
        req = req.header("authorization", format!("Bearer {t}"));
    }
    let req = req.body(Full::new(hyper::body::Bytes::from(body))).expect("request");
    // Generous: a login may wait behind the queue's hashes on a loaded machine.
    let wait = common::UNTIL;
    let answer = tokio::time::timeout(wait, sender.send_request(req)).await.expect("in time").expect("answer");
    let status = answer.status().as_u16();
    let retry = answer.headers().get("retry-after").and_then(|v| v.to_str().ok()).map(str::to_string);
    let bytes = tokio::time::timeout(wait, answer.into_body().collect()).await.expect("in time").unwrap().to_bytes();
    let mut text = String::from_utf8_lossy(&bytes).into_owned();
    if let Some(r) = retry {
        text.push_str(&format!(" retry-after={r}"));
    }
    (status, text)
}

fn login_body(name: &str, password: &str) -> String {
    serde_json::json!({"name": name, "password": password}).to_string()
}

/// What one attacking address got: answers by kind.
#[derive(Default, Debug)]
struct Tally {
    wrong: u32,
    busy: u32,
    address_limit: u32,
}

/// Requests one lane of an attacker may send (busy refusals included) before the test fails.
const MAX_SENT: u32 = 100_000;

/// One attacking address: `LANES` requests at a time with random names, a busy refusal sent
/// again, until the address's limit refuses it.
async fn attacker(addr: SocketAddr, source: [u8; 4]) -> Tally {
    let tally = Arc::new(parking_lot::Mutex::new(Tally::default()));
    let mut lanes = Vec::new();
    for lane in 0..LANES {
        let tally = tally.clone();
        lanes.push(tokio::spawn(async move {
            for n in 0..MAX_SENT {
                let name = format!("flood{}x{}x{lane}x{n}", source[3], source[2]);
                let (status, text) = post(source, addr, LOGIN_PATH, None, login_body(&name, "a wrong guess")).await;
                let e: HttpError = serde_json::from_str(text.split(" retry-after=").next().unwrap())
                    .unwrap_or_else(|_| panic!("a refusal: {status} {text}"));
                match (status, e.error_code()) {
                    (401, Some(ErrorCode::AuthFailed)) => tally.lock().wrong += 1,
                    (429, Some(ErrorCode::RateLimited)) if e.message.contains("too many logins from this address") => {
                        tally.lock().address_limit += 1;
                        return;
                    }
                    (429, Some(ErrorCode::RateLimited)) => {
                        assert!(e.message.contains("checking many passwords"), "{text}");
                        assert!(text.contains(" retry-after="), "busy says when to come back: {text}");
                        tally.lock().busy += 1;
                        tokio::task::yield_now().await;
                    }
                    _ => panic!("unexpected answer to a flood login: {status} {text}"),
                }
            }
            panic!("{MAX_SENT} requests and the address's limit never came");
        }));
    }
    for l in lanes {
        l.await.expect("lane");
    }
    Arc::try_unwrap(tally).expect("lanes done").into_inner()
}

/// Until the rest lane of the hash queue is full (bounded: the flood fills it or the test fails).
async fn until_queue_full(s: &Server) {
    for _ in 0..20_000 {
        if s.app.accounts().hash_queue().1 >= QUEUE {
            return;
        }
        tokio::time::sleep(std::time::Duration::from_millis(5)).await;
    }
    panic!("the flood never filled the queue: {:?}", s.app.accounts().hash_queue());
}

/// Logs in as the honest owner while the flood fills the queue.
async fn honest_login(s: &Server, source: [u8; 4], name: &str) {
    until_queue_full(s).await;
    let (status, text) = post(source, s.addr, LOGIN_PATH, None, login_body(name, "the honest one!")).await;
    assert_eq!(status, 200, "the honest login under the flood: {text}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_honest_login_goes_ahead_of_a_hash_flood_and_busy_refusals_lose_nothing() {
    for db in databases() {
        let url = common::database_url(&db);
        let instance = unique("flood");
        let tries = TRIES.to_string();
        let queue = QUEUE.to_string();
        let args = [
            "guandan-server",
            "--listen",
            "127.0.0.1:0",
            "--database-url",
            &url,
            "--instance",
            &instance,
            "--password-hashers",
            "1",
            "--password-queue",
            &queue,
            "--logins-per-ip-per-hour",
            &tries,
            // The listener's limit on requests an address is not what this test is about.
            "--public-rate",
            "1000000",
            "--public-burst",
            "1000000",
        ];
        let s = Server::start(Config::parse_from(args)).await.expect("server starts");
        let addr = s.addr;
        // The honest account, claimed from home.
        let home = [127, 0, 0, 1];
        let nick = serde_json::to_string(&NewPlayer { nickname: "Honest".into() }).unwrap();
        let (status, text) = post(home, addr, PLAYERS_PATH, None, nick).await;
        let guest: NewPlayerReply = read_reply(status, text.as_bytes()).expect("a guest");
        let name = unique("honest");
        let body = login_body(&name, "the honest one!");
        let (status, text) = post(home, addr, CLAIM_PATH, Some(&guest.token), body).await;
        assert_eq!(status, 200, "{text}");

        // Every attacking address fails once alone first (each one's only clean try), then
        // the flood.
        let sources: Vec<[u8; 4]> = (1..=ATTACKERS).map(|i| [127, 0, 3, i]).collect();
        for &src in &sources {
            let (status, _) = post(src, addr, LOGIN_PATH, None, login_body(&unique("warm"), "a wrong guess")).await;
            assert_eq!(status, 401);
        }
        let flood: Vec<_> = sources.iter().map(|&src| tokio::spawn(attacker(addr, src))).collect();

        // The owner from home (known there), then from an address never seen (a clean record),
        // each sent while the queue is full (so it waits for the hash under way): no flood hash
        // is given a turn while it waits, where waiting in line would be behind the queue's 8.
        honest_login(&s, home, &name).await;
        honest_login(&s, [127, 0, 9, 1], &name).await;
        let passed_over = s.app.accounts().hash_queue().2;
        assert_eq!(passed_over, 0, "{db}: flood hashes went ahead of the owner's logins");

        let mut tallies = HashMap::new();
        for (src, f) in sources.iter().zip(flood) {
            tallies.insert(src[3], f.await.expect("attacker"));
        }
        let busy: u32 = tallies.values().map(|t| t.busy).sum();
        assert!(busy > 0, "{db}: the queue was full, so some tries were refused as busy: {tallies:?}");
        for (src, t) in &tallies {
            // The warm-up try and TRIES - 1 in the flood: a busy refusal spent nothing.
            assert_eq!(t.wrong + 1, TRIES, "{db}: address {src} answered {t:?}");
            assert!(t.address_limit >= 1, "{db}: address {src} ends at its limit: {t:?}");
        }
        // A flood's names lock nothing of the owner's: one more login from home goes through.
        let (status, text) = post(home, addr, LOGIN_PATH, None, login_body(&name, "the honest one!")).await;
        assert_eq!(status, 200, "{db}: {text}");
        s.shutdown().await;
    }
}
