//! Accounts that follow the player (issue 36): claim, login on a second device, transfer codes,
//! rotation and expiry of session tokens, log out (everywhere), old guest tokens after the
//! migration, the limits on guessing, and no secret in logs, records or /metrics. Servers run in
//! this process (the library's `Server::start`) so the tests move the accounts' clock instead of
//! waiting days, and read every log line the server writes. Real sockets on loopback, real
//! databases (SQLite, and PostgreSQL when `GUANDAN_TEST_POSTGRES` is set).

mod common;

use clap::Parser;
use common::{databases, ws_from};
use futures_util::{SinkExt, StreamExt};
use guandan_proto::http::{
    ACCOUNT_PATH, AccountInfo, CLAIM_PATH, HttpError, LOGIN_PATH, LOGOUT_EVERYWHERE_PATH, LOGOUT_PATH, METRICS_PATH,
    NewPlayer, NewPlayerReply, PLAYERS_PATH, PlayerProfile, SessionReply, TRANSFER_CODE_PATH, TRANSFER_PATH,
    TransferCodeReply, player_path, read_reply,
};
use guandan_proto::{ClientMsg, ErrorCode, PROTOCOL_VERSION, Secret, ServerMsg};
use guandan_server::Server;
use guandan_server::config::Config;
use guandan_server::ratings::{Ending, RatedSeat, rate_match, verdicts};
use std::net::SocketAddr;
use std::sync::{Arc, Mutex, OnceLock};
use std::time::Duration;
use tokio_tungstenite::tungstenite::Message;

const DAY: Duration = Duration::from_secs(86_400);
const MINUTE: Duration = Duration::from_secs(60);

// ---------------------------------------------------------------------------------------------
// Every log line of this process, at every level (the servers run here).

#[derive(Clone, Default)]
struct Capture(Arc<Mutex<Vec<u8>>>);

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
fn logs() -> &'static Capture {
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

fn log_text() -> String {
    String::from_utf8_lossy(&logs().0.lock().unwrap()).into_owned()
}

// ---------------------------------------------------------------------------------------------
// Servers, requests, hellos.

fn unique(tag: &str) -> String {
    use std::sync::atomic::{AtomicU64, Ordering};
    static N: AtomicU64 = AtomicU64::new(0);
    let nanos = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).unwrap().as_nanos();
    format!("{tag}{:x}{:x}{}", std::process::id(), nanos % 1_000_000_007, N.fetch_add(1, Ordering::Relaxed))
}

/// A server in this process on `db_url`, with limits no test meets unless it sets them.
async fn server(db_url: &str, flags: &[&str]) -> Server {
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

struct Reply {
    status: u16,
    body: String,
    retry_after: Option<u64>,
}

impl Reply {
    fn ok<T: serde::de::DeserializeOwned>(&self) -> T {
        read_reply(self.status, self.body.as_bytes()).unwrap_or_else(|e| panic!("{} {e:?}", self.status))
    }

    /// The refusal (panics on a 200).
    fn refused(&self) -> (u16, ErrorCode, String) {
        assert_ne!(self.status, 200, "expected a refusal: {}", self.body);
        let e: HttpError = serde_json::from_str(&self.body).unwrap_or_else(|_| panic!("not a refusal: {}", self.body));
        (self.status, e.error_code().expect("a known code"), e.message)
    }
}

/// One HTTP request from loopback address `source`, with a session token if given.
async fn call(
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

const HOME: [u8; 4] = [127, 0, 0, 1];

/// A new guest: (player id, token).
async fn guest(addr: SocketAddr, nickname: &str) -> (String, Secret) {
    let body = serde_json::to_string(&NewPlayer { nickname: nickname.into() }).unwrap();
    let r: NewPlayerReply = call(HOME, addr, "POST", PLAYERS_PATH, None, &body).await.ok();
    (r.player_id, Secret::from(r.token))
}

fn json(v: serde_json::Value) -> String {
    v.to_string()
}

async fn claim(addr: SocketAddr, token: &Secret, name: &str, password: &str) -> Reply {
    call(HOME, addr, "POST", CLAIM_PATH, Some(token), &json(serde_json::json!({"name": name, "password": password})))
        .await
}

async fn login(source: [u8; 4], addr: SocketAddr, name: &str, password: &str) -> Reply {
    let body = json(serde_json::json!({"name": name, "password": password, "device": "phone"}));
    call(source, addr, "POST", LOGIN_PATH, None, &body).await
}

async fn redeem(source: [u8; 4], addr: SocketAddr, code: &str) -> Reply {
    call(source, addr, "POST", TRANSFER_PATH, None, &json(serde_json::json!({"code": code}))).await
}

async fn new_code(addr: SocketAddr, token: &Secret) -> TransferCodeReply {
    call(HOME, addr, "POST", TRANSFER_CODE_PATH, Some(token), "{}").await.ok()
}

/// A WebSocket's `hello` and the server's first answer; the socket stays open.
async fn hello(addr: SocketAddr, player_id: &str, token: &Secret) -> (ServerMsg, common::Ws) {
    let mut ws = ws_from(HOME, addr).await.expect("ws");
    let hello =
        ClientMsg::Hello { protocol_version: PROTOCOL_VERSION, player_id: player_id.into(), token: token.clone() };
    ws.send(Message::Text(serde_json::to_string(&hello).unwrap().into())).await.unwrap();
    let first = next_msg(&mut ws).await.expect("an answer to hello");
    (first, ws)
}

/// The next server message (`None`: the connection closed), bounded in time.
async fn next_msg(ws: &mut common::Ws) -> Option<ServerMsg> {
    loop {
        match tokio::time::timeout(common::WAIT, ws.next()).await.expect("no silence") {
            Some(Ok(Message::Text(t))) => return Some(serde_json::from_str(t.as_str()).expect("server json")),
            Some(Ok(Message::Close(_))) | None | Some(Err(_)) => return None,
            Some(Ok(_)) => continue,
        }
    }
}

/// Whether a hello with this token is welcomed; the welcome's new token, if any.
async fn welcomed(addr: SocketAddr, player_id: &str, token: &Secret) -> Result<Option<Secret>, (ErrorCode, String)> {
    match hello(addr, player_id, token).await.0 {
        ServerMsg::Welcome { player_id: p, token, .. } => {
            assert_eq!(p, player_id);
            Ok(token)
        }
        ServerMsg::Error { code, message, .. } => Err((ErrorCode::from_code(code).expect("known"), message)),
        other => panic!("{other:?}"),
    }
}

async fn info(addr: SocketAddr, token: &Secret) -> Reply {
    call(HOME, addr, "GET", ACCOUNT_PATH, Some(token), "").await
}

// ---------------------------------------------------------------------------------------------

/// A guest claims its account (the rules of names and passwords refused first, each with its
/// code), then logs in on a second device with the name in another case: the same player id, so
/// the same rating; the first device stays logged in. A name is one account's, without case.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn claim_then_login_on_a_second_device_keeps_the_player_and_its_rating() {
    for db in databases() {
        let (url, dropped) = fresh_database(&db).await;
        let s = server(&url, &[]).await;
        let addr = s.addr;
        let (id, token) = guest(addr, "Ann").await;
        // A rating of its own (a ranked win beside the hard AI).
        let seats = [RatedSeat::Human(id.clone()), RatedSeat::Ai(3), RatedSeat::Ai(3), RatedSeat::Ai(3)];
        let v = verdicts(Ending::Won(0), [true, false, false, false], [false; 4]);
        let rated = rate_match(s.app.db(), "huaian", &unique("R"), 0, &seats, v).await.unwrap();
        let rating = rated[0].rating;
        assert_ne!(rating, 1000, "{db}: the win moved it");

        let before: AccountInfo = info(addr, &token).await.ok();
        assert_eq!((before.player_id.as_str(), before.name.as_deref(), before.sessions), (id.as_str(), None, 1));
        let name = unique("Ann.");
        // Refused, each with its code, and nothing claimed.
        assert_eq!(claim(addr, &token, "x", "long enough pw").await.refused().1, ErrorCode::BadLoginName);
        assert_eq!(claim(addr, &token, "Ann Lee", "long enough pw").await.refused().1, ErrorCode::BadLoginName);
        assert_eq!(claim(addr, &token, &name, "short").await.refused().1, ErrorCode::BadPassword);
        assert_eq!(claim(addr, &token, &name, &"p".repeat(129)).await.refused().1, ErrorCode::BadPassword);
        assert_eq!(claim(addr, &token, &name, &name.to_uppercase()).await.refused().1, ErrorCode::BadPassword);
        let body = json(serde_json::json!({"name": name, "password": "long enough pw"}));
        let anonymous = call(HOME, addr, "POST", CLAIM_PATH, None, &body).await.refused();
        assert_eq!((anonymous.0, anonymous.1), (401, ErrorCode::Unauthenticated));
        let forged = Secret::from("ab".repeat(32));
        assert_eq!(claim(addr, &forged, &name, "long enough pw").await.refused().1, ErrorCode::AuthFailed);
        let not_json = call(HOME, addr, "POST", CLAIM_PATH, Some(&token), "{\"name\":").await.refused();
        assert_eq!((not_json.0, not_json.1), (400, ErrorCode::MalformedMessage));
        let huge = format!("{{\"name\":\"{name}\",\"password\":\"{}\"}}", "p".repeat(5000));
        assert_eq!(call(HOME, addr, "POST", CLAIM_PATH, Some(&token), &huge).await.refused().0, 413);
        let still: AccountInfo = info(addr, &token).await.ok();
        assert_eq!(still.name, None, "{db}: nothing claimed by a refused claim");

        let claimed: AccountInfo = claim(addr, &token, &name, "correct horse battery").await.ok();
        assert_eq!((claimed.player_id.as_str(), claimed.name.as_deref()), (id.as_str(), Some(name.as_str())));
        assert_eq!(
            claim(addr, &token, &unique("other"), "correct horse battery").await.refused().1,
            ErrorCode::AlreadyClaimed
        );
        let (_, other) = guest(addr, "Bob").await;
        let taken = claim(addr, &other, &name.to_lowercase(), "another password").await.refused();
        assert_eq!((taken.0, taken.1), (409, ErrorCode::NameTaken), "{db}: names are one account's, without case");

        let odd_device = json(serde_json::json!({"name": name, "password": "x", "device": "a\u{202E}b"}));
        let refused = call(HOME, addr, "POST", LOGIN_PATH, None, &odd_device).await.refused();
        assert_eq!((refused.0, refused.1), (400, ErrorCode::BadArgument), "{db}: a device label is a nickname");
        // The second device: another address, the name in upper case.
        let phone: SessionReply = login([127, 0, 0, 2], addr, &name.to_uppercase(), "correct horse battery").await.ok();
        assert_eq!((phone.player_id.as_str(), phone.nickname.as_str()), (id.as_str(), "Ann"));
        assert_ne!(phone.token, token, "a session of its own");
        assert_eq!(welcomed(addr, &id, &phone.token).await, Ok(None), "{db}: the phone plays as the same player");
        assert_eq!(welcomed(addr, &id, &token).await, Ok(None), "{db}: the first device too");
        let now: AccountInfo = info(addr, &phone.token).await.ok();
        assert_eq!((now.name.as_deref(), now.sessions), (Some(name.as_str()), 2));
        // What follows the player id: its public profile shows the rating it had.
        let profile: PlayerProfile = call(HOME, addr, "GET", &player_path(&id), None, "").await.ok();
        let huaian = profile.ratings.iter().find(|r| r.rules == "huaian").expect("rated");
        assert_eq!((huaian.rating, huaian.matches), (rating, 1), "{db}");
        s.shutdown().await;
        dropped.await;
    }
}

/// A wrong password and a name nobody has get the same answer (status, code, message), and each
/// costs one password check: an unknown name is checked against a dummy hash.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn wrong_password_and_unknown_name_get_one_answer_for_the_same_work() {
    for db in databases() {
        let (url, dropped) = fresh_database(&db).await;
        let s = server(&url, &[]).await;
        let addr = s.addr;
        let (_, token) = guest(addr, "Cy").await;
        let name = unique("cy");
        let _: AccountInfo = claim(addr, &token, &name, "the right one!").await.ok();
        let checks = s.app.accounts().password_checks();
        let wrong = login(HOME, addr, &name, "the wrong one!").await;
        let after_wrong = s.app.accounts().password_checks();
        let unknown = login(HOME, addr, &unique("nobody"), "the wrong one!").await;
        let after_unknown = s.app.accounts().password_checks();
        assert_eq!((wrong.status, wrong.body.as_str()), (unknown.status, unknown.body.as_str()), "{db}");
        assert_eq!(wrong.refused().1, ErrorCode::AuthFailed);
        assert_eq!((after_wrong - checks, after_unknown - after_wrong), (1, 1), "{db}: one check each");
        let ok: SessionReply = login(HOME, addr, &name, "the right one!").await.ok();
        assert_eq!(welcomed(addr, &ok.player_id, &ok.token).await, Ok(None));
        s.shutdown().await;
        dropped.await;
    }
}

/// Password guessing: a name gets `--login-failures-per-name-per-hour` failures, from any
/// number of addresses, whether it exists or not; then even the right password waits (429,
/// the wait said and in Retry-After) until the bucket refills. An address gets
/// `--logins-per-ip-per-hour` attempts of any kind; other addresses are not held up by it.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn login_attempts_are_limited_per_name_and_per_address() {
    for db in databases() {
        let flags = ["--login-failures-per-name-per-hour", "3", "--logins-per-ip-per-hour", "5"];
        let (url, dropped) = fresh_database(&db).await;
        let s = server(&url, &flags).await;
        let addr = s.addr;
        let (id, token) = guest(addr, "Di").await;
        let name = unique("di");
        let _: AccountInfo = claim(addr, &token, &name, "the right one!").await.ok();
        for k in 0..3 {
            let r = login([127, 0, 1, 10 + k], addr, &name, "a guess at it").await;
            assert_eq!(r.refused().1, ErrorCode::AuthFailed, "{db}");
        }
        // The fourth, from yet another address, with the right password: the name waits.
        let held = login([127, 0, 1, 20], addr, &name, "the right one!").await;
        let (status, code, message) = held.refused();
        assert_eq!((status, code), (429, ErrorCode::RateLimited), "{db}");
        assert!(message.contains("try again in 20 minutes"), "{message}");
        // 1,200 s, less the wall time since the first failure (the bucket refills meanwhile: on
        // a loaded machine three argon2 checks can take over a second).
        assert!(held.retry_after.is_some_and(|s| (1140..=1200).contains(&s)), "{:?}", held.retry_after);
        // A name nobody has is held the same way (the limit tells nothing about existence).
        let ghost = unique("ghost");
        for k in 0..3 {
            assert_eq!(login([127, 0, 1, 30 + k], addr, &ghost, "x-guess-x").await.refused().1, ErrorCode::AuthFailed);
        }
        assert_eq!(login([127, 0, 1, 40], addr, &ghost, "x-guess-x").await.refused().1, ErrorCode::RateLimited);
        // The bucket refills: one attempt every 20 minutes.
        s.app.accounts().clock.advance(20 * MINUTE);
        let back: SessionReply = login([127, 0, 1, 21], addr, &name, "the right one!").await.ok();
        assert_eq!(back.player_id, id);
        // A successful login gives its attempt back: the owner is not counted as a guesser.
        let again: SessionReply = login([127, 0, 1, 22], addr, &name, "the right one!").await.ok();
        assert_eq!(again.player_id, id);

        // Per address: five attempts of any kind, then 429; another address goes on.
        let crowd = [127, 0, 1, 50];
        for k in 0..5 {
            assert_eq!(
                login(crowd, addr, &unique(&format!("n{k}x")), "x-guess-x").await.refused().1,
                ErrorCode::AuthFailed
            );
        }
        let (status, code, message) = login(crowd, addr, &name, "the right one!").await.refused();
        assert_eq!((status, code), (429, ErrorCode::RateLimited), "{db}");
        assert!(message.contains("from this address") && message.contains("try again in 12 minutes"), "{message}");
        let elsewhere: SessionReply = login([127, 0, 1, 51], addr, &name, "the right one!").await.ok();
        assert_eq!(elsewhere.player_id, id);
        s.shutdown().await;
        dropped.await;
    }
}

/// Transfer codes: the newest replaces the one before; a code moves the account once (any
/// case, with or without its dash); it expires after `--transfer-code-ttl-s` (clock moved, not
/// waited for); wrong codes are limited per address, and at the limit even a right one waits.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn transfer_codes_work_once_expire_and_are_limited() {
    for db in databases() {
        let (url, dropped) = fresh_database(&db).await;
        let s = server(&url, &["--transfers-per-ip-per-hour", "4"]).await;
        let addr = s.addr;
        let (id, token) = guest(addr, "Eve").await;
        let first = new_code(addr, &token).await;
        assert_eq!(first.expires_in_s, 600);
        let shown = first.code.expose();
        assert!(shown.len() == 11 && shown.as_bytes()[5] == b'-', "{shown}");
        let second = new_code(addr, &token).await;
        assert_eq!(redeem([127, 0, 2, 1], addr, first.code.expose()).await.refused().1, ErrorCode::AuthFailed);
        // Typed on a phone: lower case, no dash.
        let typed = second.code.expose().replace('-', "").to_lowercase();
        let moved: SessionReply = redeem([127, 0, 2, 2], addr, &typed).await.ok();
        assert_eq!(moved.player_id, id, "{db}");
        assert_eq!(welcomed(addr, &id, &moved.token).await, Ok(None));
        let used = redeem([127, 0, 2, 3], addr, second.code.expose()).await.refused();
        assert_eq!((used.0, used.1), (401, ErrorCode::AuthFailed), "{db}: a code works once");
        assert!(used.2.contains("wrong, used or expired"), "{}", used.2);

        // Expiry: at 9 min 59 s a code works, at 10 min 1 s it does not.
        let fresh = new_code(addr, &token).await;
        s.app.accounts().clock.advance(Duration::from_secs(599));
        let _: SessionReply = redeem([127, 0, 2, 4], addr, fresh.code.expose()).await.ok();
        let late = new_code(addr, &token).await;
        s.app.accounts().clock.advance(Duration::from_secs(601));
        assert_eq!(redeem([127, 0, 2, 5], addr, late.code.expose()).await.refused().1, ErrorCode::AuthFailed, "{db}");

        // Guessing from one address: four tries, then 429 with the wait, even for a right code.
        let guesser = [127, 0, 2, 9];
        let right = new_code(addr, &token).await;
        for guess in ["AAAAA-AAAAA", "BBBBB-BBBBB", "CCCCCCCCCC", "ddddd ddddd"] {
            assert_eq!(redeem(guesser, addr, guess).await.refused().1, ErrorCode::AuthFailed);
        }
        let held = redeem(guesser, addr, right.code.expose()).await;
        let (status, code, message) = held.refused();
        assert_eq!((status, code), (429, ErrorCode::RateLimited), "{db}");
        assert!(message.contains("try again in 15 minutes"), "{message}");
        assert_eq!(held.retry_after, Some(900));
        // Not a code at all: its own answer (it still counts as a try).
        let shape = redeem([127, 0, 2, 10], addr, "0OIL1-0OIL1").await.refused();
        assert_eq!((shape.0, shape.1), (400, ErrorCode::BadArgument));
        // A try every 15 minutes again (the code guessed at has expired meanwhile: a new one).
        s.app.accounts().clock.advance(15 * MINUTE);
        let again = new_code(addr, &token).await;
        let later: SessionReply = redeem(guesser, addr, again.code.expose()).await.ok();
        assert_eq!(later.player_id, id);
        // Only a session may ask for a code.
        assert_eq!(call(HOME, addr, "POST", TRANSFER_CODE_PATH, None, "{}").await.refused().0, 401);
        s.shutdown().await;
        dropped.await;
    }
}

/// Rotation: a token older than `--session-rotate-days` is replaced at hello (the welcome
/// carries the new one); the old one works until the new one is used, then never again. A
/// second hello with the old token the same day gets no other token; a day later it does, and
/// the unused one before it ends.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn tokens_rotate_at_hello_and_the_old_one_ends_when_the_new_one_is_used() {
    for db in databases() {
        let (url, dropped) = fresh_database(&db).await;
        let s = server(&url, &[]).await;
        let (addr, clock) = (s.addr, &s.app.accounts().clock);
        let (id, t0) = guest(addr, "Fay").await;
        assert_eq!(welcomed(addr, &id, &t0).await, Ok(None), "{db}: a new token is not rotated");
        clock.advance(8 * DAY);
        let t1 = welcomed(addr, &id, &t0).await.unwrap().expect("rotated after 7 days");
        assert_ne!(t1, t0);
        assert_eq!(welcomed(addr, &id, &t0).await, Ok(None), "{db}: the old one still works, no second token");
        assert_eq!(welcomed(addr, &id, &t1).await, Ok(None), "{db}: the new one works");
        let replay = welcomed(addr, &id, &t0).await.unwrap_err();
        assert_eq!(replay.0, ErrorCode::AuthFailed, "{db}: the old token ended when the new one was used");

        // A successor never used: a day later the old token gets another, and the first ends.
        clock.advance(8 * DAY);
        let t2 = welcomed(addr, &id, &t1).await.unwrap().expect("rotated");
        clock.advance(2 * DAY);
        let t3 = welcomed(addr, &id, &t1).await.unwrap().expect("rotated again");
        assert_eq!(welcomed(addr, &id, &t2).await.unwrap_err().0, ErrorCode::AuthFailed, "{db}: replaced");
        assert_eq!(welcomed(addr, &id, &t3).await, Ok(None));
        assert_eq!(welcomed(addr, &id, &t1).await.unwrap_err().0, ErrorCode::AuthFailed);
        // The HTTP side never rotates, and takes the rotated token.
        let me: AccountInfo = info(addr, &t3).await.ok();
        assert_eq!((me.player_id.as_str(), me.sessions), (id.as_str(), 1), "{db}: one session, one device");
        // A token presented for another player is refused.
        let (other, _) = guest(addr, "Gus").await;
        assert_eq!(welcomed(addr, &other, &t3).await.unwrap_err().0, ErrorCode::AuthFailed);
        s.shutdown().await;
        dropped.await;
    }
}

/// Expiry: a session unused for `--session-idle-days` ends, and so does one used every day past
/// `--session-max-days` (when the client never took a rotated token); both for hello and HTTP.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn sessions_expire_when_unused_and_at_their_limit() {
    for db in databases() {
        let flags = ["--session-idle-days", "30", "--session-max-days", "60", "--session-rotate-days", "365"];
        let (url, dropped) = fresh_database(&db).await;
        let s = server(&url, &flags).await;
        let (addr, clock) = (s.addr, &s.app.accounts().clock);
        let (idle_id, idle) = guest(addr, "Hal").await;
        let (busy_id, busy) = guest(addr, "Ida").await;
        clock.advance(29 * DAY);
        assert_eq!(welcomed(addr, &busy_id, &busy).await, Ok(None));
        clock.advance(2 * DAY);
        let (code, message) = welcomed(addr, &idle_id, &idle).await.unwrap_err();
        assert_eq!(code, ErrorCode::AuthFailed, "{db}: 31 days unused");
        assert!(message.contains("log in again"), "{message}");
        assert_eq!(info(addr, &idle).await.refused().1, ErrorCode::AuthFailed, "{db}: and over HTTP");
        for _ in 0..28 {
            clock.advance(DAY);
            assert!(welcomed(addr, &busy_id, &busy).await.is_ok(), "{db}: used every day");
        }
        clock.advance(DAY);
        assert_eq!(welcomed(addr, &busy_id, &busy).await.unwrap_err().0, ErrorCode::AuthFailed, "{db}: 60 days");
        // Gone from the database too (deleted when presented, or by the hourly sweep).
        for p in [&idle_id, &busy_id] {
            assert_eq!(s.app.db().sessions_of(p).await.unwrap(), 0, "{db}");
        }
        s.shutdown().await;
        dropped.await;
    }
}

/// Log out ends the token's session and closes its connections; the others go on. Log out
/// everywhere ends every session and the transfer code, and closes every connection of the
/// account here; a login with the password still works after it.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn log_out_and_log_out_everywhere() {
    for db in databases() {
        let (url, dropped) = fresh_database(&db).await;
        let s = server(&url, &[]).await;
        let addr = s.addr;
        let (id, desk) = guest(addr, "Jo").await;
        let name = unique("jo");
        let _: AccountInfo = claim(addr, &desk, &name, "jo's password").await.ok();
        let phone: SessionReply = login(HOME, addr, &name, "jo's password").await.ok();
        let tablet: SessionReply = login(HOME, addr, &name, "jo's password").await.ok();
        let (w, mut phone_ws) = hello(addr, &id, &phone.token).await;
        assert!(matches!(w, ServerMsg::Welcome { .. }), "{w:?}");
        let (w, mut tablet_ws) = hello(addr, &id, &tablet.token).await;
        assert!(matches!(w, ServerMsg::Welcome { .. }), "{w:?}");

        let out: guandan_proto::http::LogoutReply =
            call(HOME, addr, "POST", LOGOUT_PATH, Some(&tablet.token), "{}").await.ok();
        assert_eq!((out.sessions_ended, out.connections_closed), (1, 1), "{db}");
        let told = next_msg(&mut tablet_ws).await.expect("told why");
        assert!(matches!(&told, ServerMsg::Error { code, .. } if *code == ErrorCode::AuthFailed.code()), "{told:?}");
        assert!(next_msg(&mut tablet_ws).await.is_none(), "{db}: and closed");
        assert_eq!(welcomed(addr, &id, &tablet.token).await.unwrap_err().0, ErrorCode::AuthFailed);
        assert_eq!(welcomed(addr, &id, &phone.token).await, Ok(None), "{db}: the phone goes on");

        let code = new_code(addr, &desk).await;
        let all: guandan_proto::http::LogoutReply =
            call(HOME, addr, "POST", LOGOUT_EVERYWHERE_PATH, Some(&desk), "{}").await.ok();
        assert_eq!((all.sessions_ended, all.connections_closed), (2, 1), "{db}: desk and phone; the phone's socket");
        let told = next_msg(&mut phone_ws).await.expect("told why");
        assert!(matches!(&told, ServerMsg::Error { code, .. } if *code == ErrorCode::AuthFailed.code()), "{told:?}");
        assert!(next_msg(&mut phone_ws).await.is_none());
        for t in [&desk, &phone.token] {
            assert_eq!(welcomed(addr, &id, t).await.unwrap_err().0, ErrorCode::AuthFailed, "{db}");
        }
        assert_eq!(redeem(HOME, addr, code.code.expose()).await.refused().1, ErrorCode::AuthFailed, "{db}: code ended");
        assert_eq!(call(HOME, addr, "POST", LOGOUT_PATH, Some(&desk), "{}").await.refused().0, 401);
        let back: SessionReply = login(HOME, addr, &name, "jo's password").await.ok();
        assert_eq!(welcomed(addr, &id, &back.token).await, Ok(None), "{db}: the password still logs in");
        s.shutdown().await;
        dropped.await;
    }
}

/// A database as the server before accounts left it (schema 5, a token hash per player): after
/// the migration each guest's token still says hello (and, 30 days old, is rotated at once),
/// and the players' own token column is gone.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn old_guest_tokens_still_work_after_the_migration() {
    use guandan_server::db::Db;
    for db in databases() {
        let (url, drop_pg) = fresh_database(&db).await;
        let old = Db::connect_at_version(&url, 5).await.unwrap();
        let token = Secret::from(guandan_server::auth::new_token());
        let id = unique("old");
        let month_ago = guandan_server::db::now_ms() - 30 * 86_400_000;
        sqlx::query("INSERT INTO players (id, token_hash, nickname, created_at) VALUES ($1, $2, 'Old Kim', $3)")
            .bind(&id)
            .bind(guandan_server::auth::hash_token(token.expose()))
            .bind(month_ago)
            .execute(&old.pool_for_tests())
            .await
            .unwrap();
        old.close().await;

        let s = server(&url, &[]).await;
        let addr = s.addr;
        let rotated =
            welcomed(addr, &id, &token).await.expect("the old token says hello").expect("rotated: 30 days old");
        assert_eq!(welcomed(addr, &id, &token).await, Ok(None), "{db}: works until the new one is used");
        let me: AccountInfo = info(addr, &rotated).await.ok();
        assert_eq!((me.player_id.as_str(), me.nickname.as_str(), me.sessions), (id.as_str(), "Old Kim", 1), "{db}");
        assert_eq!(welcomed(addr, &id, &token).await.unwrap_err().0, ErrorCode::AuthFailed);
        let column = sqlx::query("SELECT token_hash FROM players").fetch_all(&s.app.db().pool_for_tests()).await;
        assert!(column.is_err(), "{db}: no token hash left beside the player");
        s.shutdown().await;
        drop_pg.await;
    }
}

/// A database of its own: a fresh SQLite file, or a new PostgreSQL database on the test cluster
/// (dropped by the returned future). Every test here has one: a test that moves its clock by
/// months sweeps expired sessions, and on a shared database it would sweep the others'.
async fn fresh_database(db: &str) -> (String, std::pin::Pin<Box<dyn std::future::Future<Output = ()> + Send>>) {
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

/// The hostile check: after every account flow (guest, claim, logins right and wrong, codes made,
/// redeemed, guessed and expired, rotation, log out, log out everywhere, refused hellos), no
/// password, token or transfer code is in any log line of the server (every crate, TRACE), in
/// any stored row, in `/metrics`, or in any refusal it sent.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn no_password_token_or_code_in_logs_records_or_metrics() {
    for db in databases() {
        let (url, dropped) = fresh_database(&db).await;
        let s = server(&url, &[]).await;
        let addr = s.addr;
        let mut secrets: Vec<String> = Vec::new();
        let mut answers = String::new();
        let (id, t0) = guest(addr, "Lee").await;
        secrets.push(t0.expose().into());
        let name = unique("lee");
        let password = "Pa55-phrase-Kx9";
        let wrong = "Wr0ng-phrase-Qz7";
        secrets.extend([password.to_string(), wrong.to_string()]);
        let _: AccountInfo = claim(addr, &t0, &name, password).await.ok();
        answers += &login(HOME, addr, &name, wrong).await.body;
        answers += &login(HOME, addr, &unique("nobody"), wrong).await.body;
        let phone: SessionReply = login(HOME, addr, &name, password).await.ok();
        secrets.push(phone.token.expose().into());
        let code = new_code(addr, &phone.token).await;
        let moved: SessionReply = redeem(HOME, addr, code.code.expose()).await.ok();
        secrets.extend([moved.token.expose().to_string(), code.code.expose().to_string()]);
        secrets.push(code.code.expose().replace('-', ""));
        answers += &redeem(HOME, addr, code.code.expose()).await.body;
        let stale = new_code(addr, &phone.token).await;
        secrets.extend([stale.code.expose().to_string(), stale.code.expose().replace('-', "")]);
        s.app.accounts().clock.advance(8 * DAY);
        answers += &redeem(HOME, addr, stale.code.expose()).await.body;
        let rotated = welcomed(addr, &id, &moved.token).await.unwrap().expect("rotated");
        secrets.push(rotated.expose().into());
        assert!(welcomed(addr, &id, &rotated).await.is_ok());
        let (refused, _) = hello(addr, &id, &moved.token).await;
        answers += &format!("{refused:?}");
        let bad_json = format!(r#"{{"type":"hello","protocol_version":"{password}","player_id":"x","token":"y"}}"#);
        let mut ws = ws_from(HOME, addr).await.unwrap();
        ws.send(Message::Text(bad_json.into())).await.unwrap();
        answers += &format!("{:?}", next_msg(&mut ws).await);
        answers += &call(HOME, addr, "POST", LOGOUT_PATH, Some(&phone.token), "{}").await.body;
        answers += &call(HOME, addr, "POST", LOGOUT_EVERYWHERE_PATH, Some(&rotated), "{}").await.body;
        answers += &info(addr, &rotated).await.body;
        let metrics = call(HOME, addr, "GET", METRICS_PATH, None, "").await.body;
        assert!(metrics.contains("guandan_account_logins_total 1"), "{db}: the scrape counts the flows:\n{metrics}");
        assert!(metrics.contains("guandan_account_transfers_total 1"));
        assert!(metrics.contains("guandan_sessions_rotated_total 1"));
        let records = dump_accounts(&s).await;
        assert!(records.contains(&id), "{db}: the dump holds the account's rows");
        s.shutdown().await;
        dropped.await;
        let logs = log_text();
        assert!(logs.contains("account claimed"), "the capture holds the server's lines");
        for secret in &secrets {
            for (place, text) in [("logs", &logs), ("records", &records), ("/metrics", &metrics), ("answers", &answers)]
            {
                assert!(!text.contains(secret.as_str()), "{db}: a secret in the {place}");
            }
        }
    }
}

/// Every stored row of the accounts' tables and the players', as text.
async fn dump_accounts(s: &Server) -> String {
    use sqlx::{Column, Row};
    let pool = s.app.db().pool_for_tests();
    let mut out = String::new();
    for table in ["players", "sessions", "logins", "transfer_codes"] {
        for row in sqlx::query(&format!("SELECT * FROM {table}")).fetch_all(&pool).await.unwrap() {
            for (i, c) in row.columns().iter().enumerate() {
                let v = row
                    .try_get::<Option<String>, _>(i)
                    .map(|v| v.unwrap_or_default())
                    .or_else(|_| row.try_get::<i64, _>(i).map(|v| v.to_string()))
                    .unwrap_or_default();
                out += &format!("{table}.{}={v} ", c.name());
            }
            out.push('\n');
        }
    }
    out
}
