//! A password-hash flood (issue 57): many addresses send logins with random names and wrong
//! passwords, enough to keep the one hasher busy with a full queue. The honest owner of an
//! account still logs in, from home and from an address never seen, ahead of the flood (the
//! hashes done while it waited are counted, not timed); an attacker's request past the queue is
//! refused as busy with a code, a message and `Retry-After`, and loses nothing (each address
//! gets exactly its limit of answered tries). When the flood starts, every attacking address's
//! first try has a clean record: the owner from home goes ahead of those too. Real sockets on
//! loopback, the server in this process, SQLite and PostgreSQL.

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
        if s.app.accounts().hash_queue().waiting.rest >= QUEUE {
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

/// A server with one hasher, a rest lane of `QUEUE` and `TRIES` logins an address an hour, and
/// the honest account claimed from home: the server, the account's login name.
async fn start(db: &str) -> (Server, String) {
    let url = common::database_url(db);
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
    let nick = serde_json::to_string(&NewPlayer { nickname: "Honest".into() }).unwrap();
    let (status, text) = post(HOME, s.addr, PLAYERS_PATH, None, nick).await;
    let guest: NewPlayerReply = read_reply(status, text.as_bytes()).expect("a guest");
    let name = unique("honest");
    let body = login_body(&name, "the honest one!");
    let (status, text) = post(HOME, s.addr, CLAIM_PATH, Some(&guest.token), body).await;
    assert_eq!(status, 200, "{text}");
    (s, name)
}

/// The honest account's home (where it was claimed).
const HOME: [u8; 4] = [127, 0, 0, 1];

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_honest_login_goes_ahead_of_a_hash_flood_and_busy_refusals_lose_nothing() {
    for db in databases() {
        let (s, name) = start(&db).await;
        let addr = s.addr;
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
        honest_login(&s, HOME, &name).await;
        honest_login(&s, [127, 0, 9, 1], &name).await;
        let q = s.app.accounts().hash_queue();
        assert_eq!((q.known_passed_over, q.clean_passed_over), (0, 0), "{db}: flood hashes went ahead of the owner");

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
        let (status, text) = post(HOME, addr, LOGIN_PATH, None, login_body(&name, "the honest one!")).await;
        assert_eq!(status, 200, "{db}: {text}");
        s.shutdown().await;
    }
}

/// Until the clean lane holds `n` waiters (bounded: the flood's first tries fill it or the test
/// fails).
async fn until_clean_waiting(s: &Server, n: usize) {
    for _ in 0..20_000 {
        if s.app.accounts().hash_queue().waiting.clean >= n {
            return;
        }
        tokio::time::sleep(std::time::Duration::from_millis(1)).await;
    }
    panic!("the flood's first tries never queued: {:?}", s.app.accounts().hash_queue());
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_owner_from_home_goes_ahead_of_the_first_tries_of_a_flood_that_just_started() {
    for db in databases() {
        let (s, name) = start(&db).await;
        // The owner logs in from home once alone: the name is known there.
        let (status, text) = post(HOME, s.addr, LOGIN_PATH, None, login_body(&name, "the honest one!")).await;
        assert_eq!(status, 200, "{db}: {text}");
        // No warm-up: every attacking address starts with a clean record, so its first try waits
        // in the clean lane (its others, in doubt, in the rest lane).
        let sources: Vec<[u8; 4]> = (1..=ATTACKERS).map(|i| [127, 0, 4, i]).collect();
        let flood: Vec<_> = sources.iter().map(|&src| tokio::spawn(attacker(s.addr, src))).collect();
        let ahead = usize::from(ATTACKERS) * 2 / 3;
        until_clean_waiting(&s, ahead).await;
        let (status, text) = post(HOME, s.addr, LOGIN_PATH, None, login_body(&name, "the honest one!")).await;
        assert_eq!(status, 200, "{db}: the owner under the flood: {text}");
        let q = s.app.accounts().hash_queue();
        // One hash a turn: in one line with the first tries the owner would have waited for
        // every one that stood before it, and none of them would be left when it was answered.
        assert_eq!(q.known_passed_over, 0, "{db}: flood hashes went ahead of the owner: {q:?}");
        assert!(q.waiting.clean > 0, "{db}: the owner went before the flood's first tries, which still wait: {q:?}");
        for (src, f) in sources.iter().zip(flood) {
            let t = f.await.expect("attacker");
            assert_eq!(t.wrong, TRIES, "{db}: address {src:?} answered {t:?}");
        }
        s.shutdown().await;
    }
}
