//! The online client's network thread: guest registration (`POST /v1/players`), the WebSocket
//! (protocol v1, sync tungstenite on one plain thread), heartbeats, and reconnection with the
//! room and the last action seq. It sees plain Rust data only; the node talks to it through two
//! channels and drains the events in `process()` on the main thread.

use std::io::{Read, Write};
use std::net::{SocketAddr, TcpStream, ToSocketAddrs};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

use crossbeam_channel::{Receiver, Sender, TryRecvError, unbounded};
use guandan_core::error::ErrorCode;
use guandan_core::game::Seat;
use guandan_proto::{Backoff, ClientMsg, MIN_COMPATIBLE_PROTOCOL, PROTOCOL_VERSION, ServerMsg};
use tungstenite::{Message, WebSocket};

/// The protocol asks for a heartbeat at least every 5 s (the server hands a silent seat to its AI
/// after 15 s); more often keeps the latency figure fresh and tolerates shorter server timeouts.
const HEARTBEAT: Duration = Duration::from_millis(2500);
/// How long one read may block, so commands are sent promptly.
const POLL: Duration = Duration::from_millis(15);
const CONNECT_TIMEOUT: Duration = Duration::from_secs(5);

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
    Connected {
        player_id: String,
        reconnect: bool,
    },
    Message(Box<ServerMsg>),
    /// Round trip of the last heartbeat, ms.
    Latency(f64),
    /// The connection dropped; reconnecting (attempt n).
    Lost {
        attempt: u32,
    },
    /// Gone for good: the thread has ended.
    Failed {
        code: ErrorCode,
        message: String,
    },
}

/// Where and who.
#[derive(Clone, Debug)]
pub struct NetConfig {
    /// `host:port` (an `http://` or `ws://` prefix and a path are accepted and dropped).
    pub server: String,
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
                Worker { cfg, cmds: cmd_rx, events: ev_tx, room: None, last_seq: None, hold: Duration::ZERO }.run()
            })
            .ok();
        Net { tx, rx, handle }
    }

    pub fn send(&self, m: ClientMsg) {
        let _ = self.tx.send(Cmd::Send(m));
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

impl Drop for Net {
    fn drop(&mut self) {
        let _ = self.tx.send(Cmd::Close);
        if let Some(h) = self.handle.take() {
            let _ = h.join();
        }
    }
}

/// The wait before the next reconnection attempt: the clients' shared schedule (exponential
/// backoff with jitter, for at least a minute: `guandan_proto::Backoff::reconnect`), or longer
/// when a test holds the connection down; `None` once it gives up.
fn reconnect_wait(retry: &mut Backoff, now: Instant, hold: Duration) -> Option<Duration> {
    retry.next_wait(now, random_u64()).map(|w| w.max(hold))
}

/// A random number for the jitter (std's per-process random hash keys; nothing to add).
fn random_u64() -> u64 {
    use std::hash::{BuildHasher, Hasher};
    let mut h = std::collections::hash_map::RandomState::new().build_hasher();
    h.write_u128(Instant::now().elapsed().as_nanos());
    h.finish()
}

/// `host:port` of a server address as the player typed it.
pub fn host_port(server: &str) -> Result<String, String> {
    let s = server.trim();
    let s = s.strip_prefix("http://").or_else(|| s.strip_prefix("ws://")).unwrap_or(s);
    if s.starts_with("https://") || s.starts_with("wss://") {
        return Err("TLS (https/wss) is not supported by this client: use http://HOST:PORT".into());
    }
    let s = s.split('/').next().unwrap_or_default();
    if s.is_empty() {
        return Err("empty server address".into());
    }
    Ok(if s.contains(':') { s.to_string() } else { format!("{s}:7878") })
}

enum End {
    /// The node asked to close.
    Closed,
    /// The connection dropped (or never came up); `up` when it had been welcomed.
    Lost { why: String, up: bool },
    /// No point retrying.
    Fatal(ErrorCode, String),
}

struct Worker {
    cfg: NetConfig,
    cmds: Receiver<Cmd>,
    events: Sender<NetEvent>,
    /// The room to go back to after a drop: code and seat (`None` = spectator).
    room: Option<(String, Option<Seat>)>,
    /// The last action seq received (for the catch-up when rejoining).
    last_seq: Option<u64>,
    /// Tests: how long to stay away after a dropped connection.
    hold: Duration,
}

type Ws = WebSocket<TcpStream>;

impl Worker {
    fn run(mut self) {
        if let Err((code, message)) = self.run_inner() {
            let _ = self.events.send(NetEvent::Failed { code, message });
        }
    }

    fn emit(&self, e: NetEvent) {
        let _ = self.events.send(e);
    }

    fn run_inner(&mut self) -> Result<(), (ErrorCode, String)> {
        let hp = host_port(&self.cfg.server).map_err(|e| (ErrorCode::BadArgument, e))?;
        self.emit(NetEvent::Connecting { attempt: 0 });
        let (id, token) = match self.cfg.credentials.clone() {
            Some(c) => c,
            None => {
                let c = register(&hp, &self.cfg.nickname)?;
                self.emit(NetEvent::Registered { player_id: c.0.clone(), token: c.1.clone() });
                c
            }
        };
        let mut retry = Backoff::reconnect();
        let mut connected_once = false;
        loop {
            match self.session(&hp, &id, &token, connected_once) {
                End::Closed => return Ok(()),
                End::Fatal(code, message) => return Err((code, message)),
                End::Lost { why, up } => {
                    if up {
                        connected_once = true;
                        retry.reset();
                    }
                    if !connected_once {
                        return Err((ErrorCode::Io, format!("cannot reach the server at {hp}: {why}")));
                    }
                    let Some(wait) = reconnect_wait(&mut retry, Instant::now(), std::mem::take(&mut self.hold)) else {
                        return Err((
                            ErrorCode::Io,
                            format!("the connection was lost and could not be restored: {why}"),
                        ));
                    };
                    self.emit(NetEvent::Lost { attempt: retry.attempts() });
                    if self.wait_or_close(wait) {
                        return Ok(());
                    }
                }
            }
        }
    }

    /// Sleeps `d`, dropping messages meant for the lost connection; true when asked to close.
    fn wait_or_close(&mut self, d: Duration) -> bool {
        let until = Instant::now() + d;
        loop {
            let left = until.saturating_duration_since(Instant::now());
            if left.is_zero() {
                return false;
            }
            match self.cmds.recv_timeout(left) {
                Ok(Cmd::Close) => return true,
                Ok(Cmd::Send(m)) => self.track_sent(&m),
                Ok(Cmd::DropForTest(_)) => {}
                Err(crossbeam_channel::RecvTimeoutError::Timeout) => return false,
                Err(crossbeam_channel::RecvTimeoutError::Disconnected) => return true,
            }
        }
    }

    /// One connection: hello, rejoin the room, then messages both ways until it ends.
    fn session(&mut self, hp: &str, id: &str, token: &str, reconnect: bool) -> End {
        if reconnect {
            self.emit(NetEvent::Connecting { attempt: 1 });
        }
        let mut ws = match open(hp) {
            Ok(ws) => ws,
            Err(why) => return End::Lost { why, up: false },
        };
        let hello = ClientMsg::Hello { protocol_version: PROTOCOL_VERSION, player_id: id.into(), token: token.into() };
        if let Err(why) = send(&mut ws, &hello) {
            return End::Lost { why, up: false };
        }
        // The welcome (or the refusal) within the connect timeout.
        let until = Instant::now() + CONNECT_TIMEOUT;
        loop {
            if Instant::now() > until {
                return End::Lost { why: "no answer to hello".into(), up: false };
            }
            match read(&mut ws) {
                Ok(None) => continue,
                Ok(Some(ServerMsg::Welcome { protocol_version, player_id, .. })) => {
                    if protocol_version < MIN_COMPATIBLE_PROTOCOL {
                        return End::Fatal(
                            ErrorCode::ProtocolTooOld,
                            format!(
                                "the server speaks protocol {protocol_version}, this game needs {MIN_COMPATIBLE_PROTOCOL}: update the server"
                            ),
                        );
                    }
                    self.emit(NetEvent::Connected { player_id, reconnect });
                    break;
                }
                Ok(Some(ServerMsg::Error { code, message, .. })) => {
                    let code = ErrorCode::from_code(code).unwrap_or(ErrorCode::AuthFailed);
                    return End::Fatal(code, message);
                }
                Ok(Some(_)) => continue,
                Err(why) => return End::Lost { why, up: false },
            }
        }
        // Back to the room: the missed actions (or the full state), then a full state to rebuild from.
        if let Some((code, seat)) = self.room.clone() {
            let rejoin = match seat {
                Some(_) => ClientMsg::JoinRoom { code, last_action_seq: self.last_seq },
                None => ClientMsg::Spectate { code },
            };
            let r = send(&mut ws, &rejoin).and_then(|_| send(&mut ws, &ClientMsg::Resync));
            if let Err(why) = r {
                return End::Lost { why, up: true };
            }
        }
        let mut beat = Instant::now();
        let mut ping_at: Option<Instant> = None;
        loop {
            loop {
                match self.cmds.try_recv() {
                    Ok(Cmd::Send(m)) => {
                        self.track_sent(&m);
                        if let Err(why) = send(&mut ws, &m) {
                            return End::Lost { why, up: true };
                        }
                    }
                    Ok(Cmd::DropForTest(hold)) => {
                        // Gone without a close frame, as a lost network would be.
                        self.hold = hold;
                        let _ = ws.get_mut().shutdown(std::net::Shutdown::Both);
                        return End::Lost { why: "dropped (test)".into(), up: true };
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
            if beat.elapsed() >= HEARTBEAT {
                beat = Instant::now();
                if ping_at.is_none() {
                    ping_at = Some(beat);
                }
                if let Err(why) = send(&mut ws, &ClientMsg::Heartbeat) {
                    return End::Lost { why, up: true };
                }
            }
            match read(&mut ws) {
                Ok(None) => {}
                Ok(Some(m)) => {
                    match &m {
                        ServerMsg::Pong => {
                            if let Some(at) = ping_at.take() {
                                self.emit(NetEvent::Latency(at.elapsed().as_secs_f64() * 1000.0));
                            }
                            continue;
                        }
                        ServerMsg::Joined { code, seat } => self.room = Some((code.clone(), *seat)),
                        ServerMsg::Applied { action_seq, .. } | ServerMsg::State { action_seq, .. } => {
                            self.last_seq = Some(*action_seq)
                        }
                        ServerMsg::Room { room } if room.state == guandan_proto::RoomState::Destroyed => {
                            self.room = None;
                        }
                        ServerMsg::Bye { .. } => {
                            self.emit(NetEvent::Message(Box::new(m)));
                            return End::Lost { why: "the server is shutting down".into(), up: true };
                        }
                        _ => {}
                    }
                    self.emit(NetEvent::Message(Box::new(m)));
                }
                Err(why) => return End::Lost { why, up: true },
            }
        }
    }

    fn track_sent(&mut self, m: &ClientMsg) {
        match m {
            ClientMsg::Leave | ClientMsg::Disband => {
                self.room = None;
                self.last_seq = None;
            }
            ClientMsg::CreateRoom { .. } | ClientMsg::JoinRoom { .. } | ClientMsg::Spectate { .. } => {
                self.last_seq = None;
            }
            _ => {}
        }
    }
}

fn resolve(hp: &str) -> Result<SocketAddr, String> {
    hp.to_socket_addrs()
        .map_err(|e| format!("cannot resolve {hp}: {e}"))?
        .next()
        .ok_or_else(|| format!("{hp} has no address"))
}

fn open(hp: &str) -> Result<Ws, String> {
    let addr = resolve(hp)?;
    let stream = TcpStream::connect_timeout(&addr, CONNECT_TIMEOUT).map_err(|e| e.to_string())?;
    let _ = stream.set_nodelay(true);
    stream.set_read_timeout(Some(CONNECT_TIMEOUT)).map_err(|e| e.to_string())?;
    let (ws, _) = tungstenite::client::client(format!("ws://{hp}/v1/ws"), stream).map_err(|e| e.to_string())?;
    ws.get_ref().set_read_timeout(Some(POLL)).map_err(|e| e.to_string())?;
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

/// `POST /v1/players {"nickname"}` → (player_id, token).
fn register(hp: &str, nickname: &str) -> Result<(String, String), (ErrorCode, String)> {
    let unreachable = |e: String| (ErrorCode::Io, format!("cannot reach the server at {hp}: {e}"));
    let addr = resolve(hp).map_err(unreachable)?;
    let mut s = TcpStream::connect_timeout(&addr, CONNECT_TIMEOUT).map_err(|e| unreachable(e.to_string()))?;
    let _ = s.set_read_timeout(Some(CONNECT_TIMEOUT));
    let body = serde_json::json!({ "nickname": nickname }).to_string();
    let req = format!(
        "POST /v1/players HTTP/1.1\r\nHost: {hp}\r\nConnection: close\r\nContent-Type: application/json\r\nContent-Length: {}\r\n\r\n{body}",
        body.len()
    );
    s.write_all(req.as_bytes()).map_err(|e| unreachable(e.to_string()))?;
    let mut raw = Vec::new();
    s.read_to_end(&mut raw).map_err(|e| unreachable(e.to_string()))?;
    let text = String::from_utf8_lossy(&raw);
    let status: u16 = text.split(' ').nth(1).and_then(|c| c.parse().ok()).unwrap_or(0);
    let body = text.split_once("\r\n\r\n").map(|(_, b)| b).unwrap_or_default();
    // The body may be chunked: the JSON object is between the first '{' and the last '}'.
    let json = match (body.find('{'), body.rfind('}')) {
        (Some(a), Some(b)) if b >= a => &body[a..=b],
        _ => "",
    };
    let v: serde_json::Value = serde_json::from_str(json).unwrap_or_default();
    if status != 200 {
        let code = v["code"].as_i64().and_then(|c| ErrorCode::from_code(c as i32)).unwrap_or(ErrorCode::Io);
        let message = v["message"].as_str().map_or_else(|| format!("HTTP {status}"), str::to_string);
        return Err((code, message));
    }
    match (v["player_id"].as_str(), v["token"].as_str()) {
        (Some(id), Some(token)) => Ok((id.to_string(), token.to_string())),
        _ => Err((ErrorCode::Io, "the server's answer to the registration was not understood".into())),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A server that stays down: the client goes on trying for at least a minute (it gave up
    /// after 16 attempts, 55.5 s, before), waiting longer and longer, never in lockstep with
    /// another client.
    #[test]
    fn reconnection_keeps_trying_for_a_minute_with_jitter() {
        let schedule = || {
            let mut retry = Backoff::reconnect();
            let t0 = Instant::now();
            let mut now = t0;
            let mut waits = Vec::new();
            // Each attempt fails at once (connection refused).
            while let Some(w) = reconnect_wait(&mut retry, now, Duration::ZERO) {
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
        let mut retry = Backoff::reconnect();
        assert_eq!(reconnect_wait(&mut retry, Instant::now(), Duration::from_secs(8)), Some(Duration::from_secs(8)));
    }

    #[test]
    fn server_addresses_as_typed() {
        assert_eq!(host_port("127.0.0.1:7878").unwrap(), "127.0.0.1:7878");
        assert_eq!(host_port(" http://10.0.0.5:9000/ ").unwrap(), "10.0.0.5:9000");
        assert_eq!(host_port("ws://example.org:1/v1/ws").unwrap(), "example.org:1");
        assert_eq!(host_port("game.local").unwrap(), "game.local:7878");
        assert!(host_port("").is_err());
        assert!(host_port("wss://x:1").is_err());
    }
}
