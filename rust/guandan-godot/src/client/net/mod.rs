//! The online client's network thread: guest registration (`POST /v1/players`, ureq) and the
//! WebSocket (protocol v1, sync tungstenite on one plain thread), over TLS for an `https://` or
//! `wss://` server (`guandan_proto::tls`: the handshake and the certificate check end before the
//! hello is written; a refused certificate ends the thread, it is never retried in plain text).
//! What the protocol asks of a client (hello, the rejoin with the room and last action seq, a
//! resync on a gap, heartbeats, when to reconnect) is `guandan_proto::Session`'s; this thread
//! only moves its messages. It sees plain Rust data only; the node talks to it through two
//! channels and drains the events in `process()` on the main thread.

use std::collections::BTreeSet;
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

use crossbeam_channel::{Receiver, Sender, TryRecvError, unbounded};
use guandan_core::error::ErrorCode;
use guandan_proto::http::{NewPlayer, NewPlayerReply, PLAYERS_PATH, read_reply};
use guandan_proto::tls::stream::{Stream, connect};
use guandan_proto::tls::{Failure, Trust, explain_http};
use guandan_proto::{ClientMsg, Endpoint, Event, Order, Reconnect, Refusal, ServerMsg, Session, SessionConfig};
use tungstenite::{Message, WebSocket};

/// A heartbeat after this long without sending: the protocol asks for one at least every 5 s
/// (the server hands a silent seat to its AI after 15 s); more often keeps the latency figure
/// fresh and tolerates shorter server timeouts.
const HEARTBEAT: Duration = Duration::from_millis(2500);
/// How long one read may block, so commands are sent promptly.
const POLL: Duration = Duration::from_millis(15);
const CONNECT_TIMEOUT: Duration = Duration::from_secs(5);
/// A heartbeat unanswered this long: the connection is unstable (a live server answers in
/// milliseconds; with a heartbeat every 2.5 s of quiet, a stall shows within about 4 s).
const UNSTABLE: Duration = Duration::from_millis(1500);
/// A heartbeat unanswered this long: the connection is given up and made again. Longer than a
/// stall a machine comes back from (the end-to-end test stops its server for 12 s and the
/// player keeps the connection), shorter than a player would wait.
const SILENT_GIVE_UP: Duration = Duration::from_secs(20);

/// From the node to the thread.
#[derive(Debug)]
pub enum Cmd {
    Send(ClientMsg),
    /// Tests: cut the connection without a word (as a lost network would) and stay away this
    /// long before reconnecting.
    DropForTest(Duration),
    Close,
}

/// From the thread to the node.
#[derive(Debug)]
pub enum NetEvent {
    Connecting {
        attempt: u32,
    },
    /// A guest account was made (keep it to come back as the same player).
    Registered {
        player_id: String,
        token: String,
    },
    /// The server rotated the session's token (in its `welcome`): keep this one in place of the
    /// old (said before the `Connected` of that welcome).
    TokenRotated {
        token: guandan_proto::Secret,
    },
    Connected {
        player_id: String,
        reconnect: bool,
    },
    /// A server message and its place in the action sequence (a gap has already asked for the
    /// whole state).
    Message(Box<ServerMsg>, Order),
    /// The room the session rejoined after a drop closed while it was away (the session holds no
    /// room any more).
    RoomGone {
        code: String,
        message: String,
    },
    /// Round trip of the last heartbeat, ms.
    Latency(f64),
    /// The server left a heartbeat unanswered for [`UNSTABLE`] (`true`), or answered again.
    Unstable(bool),
    /// The connection dropped; reconnecting (attempt n).
    Lost {
        attempt: u32,
    },
    /// The server will not take this client (too old a protocol on either side, a bad
    /// account): the thread has ended.
    Refused(Refusal),
    /// Gone for good: the thread has ended.
    Failed {
        code: ErrorCode,
        message: String,
    },
}

/// Where and who.
#[derive(Clone, Debug)]
pub struct NetConfig {
    /// The server (a redirect moves the thread to another instance of it).
    pub server: Endpoint,
    /// Whom TLS connections trust.
    pub trust: Trust,
    /// Public hosts the player allowed plain text to (a redirect to another such host without
    /// TLS is refused; a private one is fine).
    pub plaintext_allowed: BTreeSet<String>,
    pub nickname: String,
    /// A guest account from an earlier `Registered`; `None` registers a new one.
    pub credentials: Option<(String, String)>,
}

/// The thread and its channels; dropping it closes the connection and joins the thread.
pub struct Net {
    tx: Sender<Cmd>,
    rx: Receiver<NetEvent>,
    handle: Option<JoinHandle<()>>,
}

impl Net {
    pub fn start(cfg: NetConfig) -> Net {
        let (tx, cmd_rx) = unbounded();
        let (ev_tx, rx) = unbounded();
        let handle = std::thread::Builder::new()
            .name("guandan-net".into())
            .spawn(move || {
                Worker {
                    cfg,
                    cmds: cmd_rx,
                    events: ev_tx,
                    hold: Duration::ZERO,
                    first: None,
                    redirects: 0,
                    unstable: false,
                }
                .run()
            })
            .ok();
        Net { tx, rx, handle }
    }

    pub fn send(&self, m: ClientMsg) {
        let _ = self.tx.send(Cmd::Send(m));
    }

    /// A handle that sends on this connection (the match source's intents).
    pub fn outbox(&self) -> Outbox {
        Outbox(self.tx.clone())
    }

    pub fn drop_for_test(&self, offline: Duration) {
        let _ = self.tx.send(Cmd::DropForTest(offline));
    }

    pub fn poll(&self) -> Option<NetEvent> {
        self.rx.try_recv().ok()
    }

    /// Whether the thread is still running.
    pub fn alive(&self) -> bool {
        self.handle.as_ref().is_some_and(|h| !h.is_finished())
    }
}

/// Sends messages on a connection's thread; a message sent after the thread ended is dropped
/// (the session has already said the connection is gone).
#[derive(Clone)]
pub struct Outbox(Sender<Cmd>);

impl Outbox {
    pub fn send(&self, m: ClientMsg) {
        let _ = self.0.send(Cmd::Send(m));
    }

    /// Tests: an outbox whose messages land in the returned channel instead of a connection.
    #[cfg(test)]
    pub fn for_test() -> (Outbox, Receiver<Cmd>) {
        let (tx, rx) = unbounded();
        (Outbox(tx), rx)
    }
}

impl Drop for Net {
    fn drop(&mut self) {
        let _ = self.tx.send(Cmd::Close);
        if let Some(h) = self.handle.take() {
            let _ = h.join();
        }
    }
}

/// The wait before the next reconnection attempt: the session's (the clients' shared schedule,
/// exponential backoff with jitter for at least a minute), or longer when a test holds the
/// connection down; `None` to give up.
fn reconnect_wait(session: &mut Session, now: Instant, hold: Duration) -> Option<Duration> {
    match session.dropped(now, random_u64()) {
        Reconnect::After(w) => Some(w.max(hold)),
        Reconnect::GiveUp => None,
    }
}

/// A random number for the jitter (std's per-process random hash keys; nothing to add).
fn random_u64() -> u64 {
    use std::hash::{BuildHasher, Hasher};
    let mut h = std::collections::hash_map::RandomState::new().build_hasher();
    h.write_u128(Instant::now().elapsed().as_nanos());
    h.finish()
}

/// Whether plain text may go to `ep` without asking: TLS, a private host, or a host the player
/// allowed. Otherwise the game asks first (`PlaintextNotAllowed`: nothing was sent).
pub fn plaintext_check(ep: &Endpoint, allowed: &BTreeSet<String>) -> Result<(), Failure> {
    if !ep.plain_to_public() || allowed.contains(&ep.host) {
        return Ok(());
    }
    Err(Failure::new(
        ErrorCode::PlaintextNotAllowed,
        format!(
            "{} is a public server and the address is not encrypted (http:// or ws://): anyone on the network could read the game; use https:// or confirm",
            ep.host
        ),
    ))
}

/// Where a server's redirect sends the player: refused if it would leave TLS, or go in plain
/// text to a public host the player did not allow.
fn redirect_target(from: &Endpoint, url: &str, allowed: &BTreeSet<String>) -> Result<Endpoint, Failure> {
    let to = Endpoint::parse(url).map_err(|why| {
        Failure::new(ErrorCode::Io, format!("the server sent this game to an unusable address: {why}"))
    })?;
    if from.tls && !to.tls {
        return Err(Failure::new(
            ErrorCode::PlaintextNotAllowed,
            format!("the server sent this game to {to} without encryption: refused (the connection was encrypted)"),
        ));
    }
    plaintext_check(&to, allowed)?;
    Ok(to)
}

enum End {
    /// The node asked to close.
    Closed,
    /// The server seated us (a quick-match table) on another instance of its deployment: go
    /// there and take the seat in room `code`.
    Moved { to: Endpoint, code: String },
    /// The connection dropped (or never came up).
    Lost(String),
    /// The server will not take this client.
    Refused(Refusal),
    /// Not to be tried again: a refused certificate, a redirect that would leave TLS.
    Failed(Failure),
}

struct Worker {
    cfg: NetConfig,
    cmds: Receiver<Cmd>,
    events: Sender<NetEvent>,
    /// Tests: how long to stay away after a dropped connection.
    hold: Duration,
    /// Sent first once the next connection is welcomed (the seat a redirect sent us to).
    first: Option<ClientMsg>,
    /// Redirects followed since the player last joined a room.
    redirects: u32,
    /// Whether `Unstable(true)` was the last word on the current connection.
    unstable: bool,
}

/// Redirects followed in a row without staying anywhere: more is a misconfigured deployment
/// (instances sending a player round in circles).
const MAX_REDIRECTS: u32 = 3;

type Ws = WebSocket<Stream>;

impl Worker {
    fn run(mut self) {
        if let Err(e) = self.run_inner() {
            let _ = self.events.send(e);
        }
    }

    fn emit(&self, e: NetEvent) {
        let _ = self.events.send(e);
    }

    /// Registers if needed, then connections until closed; the error is the thread's last word.
    fn run_inner(&mut self) -> Result<(), NetEvent> {
        let failed = |code, message| NetEvent::Failed { code, message };
        let mut server = self.cfg.server.clone();
        plaintext_check(&server, &self.cfg.plaintext_allowed).map_err(|f| failed(f.code, f.message))?;
        self.emit(NetEvent::Connecting { attempt: 0 });
        let (id, token) = match self.cfg.credentials.clone() {
            Some(c) => c,
            None => {
                let c = register(&server, &self.cfg.trust, &self.cfg.nickname)
                    .map_err(|(code, message)| failed(code, message))?;
                self.emit(NetEvent::Registered { player_id: c.0.clone(), token: c.1.clone() });
                c
            }
        };
        let cfg = SessionConfig { heartbeat: HEARTBEAT, hello_timeout: CONNECT_TIMEOUT, resync_on_rejoin: true };
        let mut session = Session::new(id, token, cfg);
        loop {
            match self.connection(&server, &mut session) {
                End::Closed => return Ok(()),
                End::Failed(f) => return Err(failed(f.code, f.message)),
                End::Moved { to: there, code } => {
                    self.redirects += 1;
                    if self.redirects > MAX_REDIRECTS {
                        let message = format!("redirected {} times in a row (last to {there})", self.redirects);
                        return Err(failed(ErrorCode::Io, message));
                    }
                    // The account is the deployment's: the same session says hello there, and
                    // the seat is taken like a returning player's.
                    server = there;
                    self.first = Some(ClientMsg::JoinRoom { code, last_action_seq: None });
                    continue;
                }
                End::Refused(r) => return Err(NetEvent::Refused(r)),
                End::Lost(why) => {
                    let hold = std::mem::take(&mut self.hold);
                    let Some(wait) = reconnect_wait(&mut session, Instant::now(), hold) else {
                        let message = if session.welcomed_before() {
                            format!("the connection was lost and could not be restored: {why}")
                        } else {
                            format!("cannot reach the server at {}: {why}", server.authority())
                        };
                        return Err(failed(ErrorCode::Io, message));
                    };
                    self.emit(NetEvent::Lost { attempt: session.attempts() });
                    if self.wait_or_close(&mut session, wait) {
                        return Ok(());
                    }
                }
            }
        }
    }

    /// Sleeps `d`, dropping messages meant for the lost connection; true when asked to close.
    fn wait_or_close(&mut self, session: &mut Session, d: Duration) -> bool {
        let until = Instant::now() + d;
        loop {
            let left = until.saturating_duration_since(Instant::now());
            if left.is_zero() {
                return false;
            }
            match self.cmds.recv_timeout(left) {
                Ok(Cmd::Close) => return true,
                // Not sent, but what it changes stands (a room left stays left).
                Ok(Cmd::Send(m)) => session.sending(&m, Instant::now()),
                Ok(Cmd::DropForTest(_)) => {}
                Err(crossbeam_channel::RecvTimeoutError::Timeout) => return false,
                Err(crossbeam_channel::RecvTimeoutError::Disconnected) => return true,
            }
        }
    }

    /// One connection: hello, then messages both ways until it ends. The session answers the
    /// welcome with the rejoin, and a gap with a resync.
    /// Says when the connection turns unstable or steady again (only the changes).
    fn set_unstable(&mut self, unstable: bool) {
        if unstable != self.unstable {
            self.unstable = unstable;
            self.emit(NetEvent::Unstable(unstable));
        }
    }

    fn connection(&mut self, server: &Endpoint, session: &mut Session) -> End {
        // A new connection starts steady (a lost one is said by `Lost`).
        self.unstable = false;
        if session.welcomed_before() {
            self.emit(NetEvent::Connecting { attempt: 1 });
        }
        let mut ws = match open(server, &self.cfg.trust) {
            Ok(ws) => ws,
            // A certificate refused now is refused next time too (or someone is in the middle).
            Err(f) if f.code == ErrorCode::CertificateRefused => return End::Failed(f),
            Err(f) => return End::Lost(f.message),
        };
        let hello = session.opened(Instant::now());
        if let Err(why) = send(&mut ws, &hello) {
            return End::Lost(why);
        }
        loop {
            if session.is_up()
                && let Some(m) = self.first.take()
            {
                session.sending(&m, Instant::now());
                if let Err(why) = send(&mut ws, &m) {
                    return End::Lost(why);
                }
            }
            // The node's messages wait until the welcome.
            while session.is_up() {
                match self.cmds.try_recv() {
                    Ok(Cmd::Send(m)) => {
                        session.sending(&m, Instant::now());
                        if let Err(why) = send(&mut ws, &m) {
                            return End::Lost(why);
                        }
                    }
                    Ok(Cmd::DropForTest(hold)) => {
                        // Gone without a close frame, as a lost network would be.
                        self.hold = hold;
                        let _ = ws.get_mut().shutdown();
                        return End::Lost("dropped (test)".into());
                    }
                    Ok(Cmd::Close) | Err(TryRecvError::Disconnected) => {
                        let _ = send(&mut ws, &ClientMsg::Leave);
                        let _ = ws.close(None);
                        let _ = ws.flush();
                        return End::Closed;
                    }
                    Err(TryRecvError::Empty) => break,
                }
            }
            match session.tick(Instant::now()) {
                Ok(Some(beat)) => {
                    session.sending(&beat, Instant::now());
                    if let Err(why) = send(&mut ws, &beat) {
                        return End::Lost(why);
                    }
                }
                Ok(None) => {}
                Err(why) => return End::Lost(why),
            }
            let waited = session.unanswered(Instant::now());
            if waited.is_some_and(|w| w >= SILENT_GIVE_UP) {
                return End::Lost(format!("the server answered nothing for {} s", SILENT_GIVE_UP.as_secs()));
            }
            self.set_unstable(waited.is_some_and(|w| w >= UNSTABLE));
            let m = match read(&mut ws) {
                Ok(None) => continue,
                Ok(Some(m)) => m,
                Err(why) => return End::Lost(why),
            };
            let bye = matches!(m, ServerMsg::Bye { .. });
            let moved = match &m {
                ServerMsg::Redirect { code, url, .. } => {
                    Some((code.clone(), redirect_target(server, url, &self.cfg.plaintext_allowed)))
                }
                ServerMsg::Joined { .. } => {
                    self.redirects = 0;
                    None
                }
                _ => None,
            };
            let (event, answers) = session.received(m, Instant::now());
            match event {
                Event::Refused(r) => return End::Refused(r),
                Event::Welcomed { player_id, reconnect } => {
                    // The game stores its account when connected: the rotated token comes first.
                    if let Some(token) = session.take_new_token() {
                        self.emit(NetEvent::TokenRotated { token });
                    }
                    self.emit(NetEvent::Connected { player_id, reconnect })
                }
                Event::Latency(rtt) => self.emit(NetEvent::Latency(rtt.as_secs_f64() * 1000.0)),
                Event::Message(m, order) => self.emit(NetEvent::Message(m, order)),
                Event::RoomGone { code, message } => self.emit(NetEvent::RoomGone { code, message }),
            }
            for a in answers {
                session.sending(&a, Instant::now());
                if let Err(why) = send(&mut ws, &a) {
                    return End::Lost(why);
                }
            }
            if bye {
                return End::Lost("the server is shutting down".into());
            }
            match moved {
                Some((code, Ok(to))) => {
                    let _ = ws.close(None);
                    let _ = ws.flush();
                    return End::Moved { to, code };
                }
                Some((_, Err(f))) => {
                    // The seat is on the other instance: staying here would wait forever.
                    let _ = ws.close(None);
                    let _ = ws.flush();
                    return End::Failed(f);
                }
                None => {}
            }
        }
    }
}

/// The WebSocket, its TLS handshake (if any) finished before the upgrade request is written.
fn open(server: &Endpoint, trust: &Trust) -> Result<Ws, Failure> {
    let stream = connect(server, trust, CONNECT_TIMEOUT)?;
    let io = |e: String| Failure::new(ErrorCode::Io, e);
    let (ws, _) = tungstenite::client::client(server.ws_url(), stream).map_err(|e| io(e.to_string()))?;
    ws.get_ref().set_read_timeout(Some(POLL)).map_err(|e| io(e.to_string()))?;
    Ok(ws)
}

fn send(ws: &mut Ws, m: &ClientMsg) -> Result<(), String> {
    let text = serde_json::to_string(m).map_err(|e| e.to_string())?;
    ws.send(Message::text(text)).map_err(|e| e.to_string())
}

/// One message, `None` when nothing arrived within the poll time.
fn read(ws: &mut Ws) -> Result<Option<ServerMsg>, String> {
    match ws.read() {
        Ok(Message::Text(t)) => match serde_json::from_str::<ServerMsg>(t.as_str()) {
            Ok(m) => Ok(Some(m)),
            // A message of a newer server this client does not know: skip it.
            Err(_) => Ok(None),
        },
        Ok(Message::Close(_)) => Err("closed by the server".into()),
        Ok(_) => Ok(None),
        Err(tungstenite::Error::Io(e))
            if matches!(e.kind(), std::io::ErrorKind::WouldBlock | std::io::ErrorKind::TimedOut) =>
        {
            Ok(None)
        }
        Err(e) => Err(e.to_string()),
    }
}

/// `POST /v1/players` → (player_id, token).
fn register(server: &Endpoint, trust: &Trust, nickname: &str) -> Result<(String, String), (ErrorCode, String)> {
    let unreachable = |e: ureq::Error| {
        let f = explain_http(&e, server);
        (f.code, f.message)
    };
    // A refusal's body says why: the agent hands it back rather than stop at the status.
    let agent = trust.http_agent(CONNECT_TIMEOUT);
    let body = serde_json::to_string(&NewPlayer { nickname: nickname.into() })
        .map_err(|e| (ErrorCode::Internal, e.to_string()))?;
    let mut answer = agent
        .post(server.http_url(PLAYERS_PATH))
        .content_type("application/json")
        .send(body.as_str())
        .map_err(unreachable)?;
    let status = answer.status().as_u16();
    let bytes = answer.body_mut().read_to_vec().map_err(unreachable)?;
    let reply: NewPlayerReply =
        read_reply(status, &bytes).map_err(|e| (e.error_code().unwrap_or(ErrorCode::Io), e.message))?;
    Ok((reply.player_id, reply.token))
}

#[cfg(test)]
mod tests;
