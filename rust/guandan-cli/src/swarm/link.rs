//! A swarm client's connection: the guest account it registers, the WebSocket and the protocol
//! session every message goes through, coming back after a drop or a redirect, and the plain
//! HTTP calls (registration, stored matches).

use futures_util::{SinkExt, StreamExt};
use guandan_core::log::MatchLog;
use guandan_proto::http::{FinishedMatch, NewPlayer, NewPlayerReply, PLAYERS_PATH, WS_PATH, match_path, read_reply};
use guandan_proto::{ClientMsg, Event, Order, Reconnect, ServerMsg, Session, SessionConfig};
use rand_chacha::ChaCha8Rng;
use rand_core::Rng;
use std::net::SocketAddr;
use std::time::{Duration, Instant};
use tokio_tungstenite::tungstenite::Message;
use tokio_tungstenite::tungstenite::protocol::WebSocketConfig;

/// A heartbeat when nothing was sent for this long, and the quiet-table tick.
pub(crate) const HEARTBEAT: Duration = Duration::from_secs(4);

/// `http://HOST:PORT` (or `HOST:PORT`) as an address.
pub(crate) fn server_addr(flag: &str, server: &str) -> Result<SocketAddr, String> {
    server
        .trim_start_matches("http://")
        .trim_end_matches('/')
        .parse()
        .map_err(|e| format!("{flag}: expected http://HOST:PORT, not {server:?} ({e})"))
}

/// One plain HTTP request to the server (ureq, blocking, on tokio's blocking pool): the reply, or
/// the server's refusal as text.
async fn http<T: serde::de::DeserializeOwned + Send + 'static>(
    addr: SocketAddr,
    path: String,
    post: Option<String>,
) -> Result<T, String> {
    let call = move || {
        let agent: ureq::Agent = ureq::Agent::config_builder()
            .timeout_global(Some(Duration::from_secs(60)))
            // A refusal's body says why: read it rather than stop at the status.
            .http_status_as_error(false)
            .build()
            .into();
        let url = format!("http://{addr}{path}");
        let answer = match post {
            Some(body) => agent.post(&url).content_type("application/json").send(body.as_str()),
            None => agent.get(&url).call(),
        };
        let mut answer = answer.map_err(|e| format!("{path}: {e}"))?;
        let status = answer.status().as_u16();
        // Stored matches run to a few hundred KB; ureq's default cap (10 MB) is kept.
        let body = answer.body_mut().read_to_vec().map_err(|e| format!("{path}: {e}"))?;
        read_reply(status, &body).map_err(|e| format!("{path}: HTTP {status} {} {}", e.name, e.message))
    };
    tokio::task::spawn_blocking(call).await.map_err(|e| e.to_string())?
}

/// A finished match as the server stored it.
pub(crate) async fn finished_match(addr: SocketAddr, code: &str, match_no: u32) -> Result<MatchLog, String> {
    let m: FinishedMatch = http(addr, match_path(code, match_no), None).await?;
    MatchLog::parse(&m.log).map_err(|e| format!("stored log: {e}"))
}

pub(crate) type Ws = tokio_tungstenite::WebSocketStream<tokio_tungstenite::MaybeTlsStream<tokio::net::TcpStream>>;

/// A connection and the player's protocol session: every message in or out goes through the
/// session (the room and last action seq to come back to, gaps answered with a resync).
pub(crate) struct Link {
    pub(crate) ws: Ws,
    pub(crate) session: Session,
}

impl Link {
    /// A welcomed connection: sends the session's answers to the welcome (the rejoin). On
    /// failure the session is handed back for the next attempt.
    async fn over(ws: Ws, session: Session, answers: Vec<ClientMsg>) -> Result<Link, (String, Session)> {
        let mut link = Link { ws, session };
        for a in &answers {
            if let Err(e) = link.send(a).await {
                return Err((e, link.session));
            }
        }
        Ok(link)
    }

    pub(crate) async fn send(&mut self, m: &ClientMsg) -> Result<(), String> {
        self.session.sending(m, Instant::now());
        send(&mut self.ws, m).await
    }

    /// The next message for the client (answering what the session answers), and its place in
    /// the action sequence.
    pub(crate) async fn recv(&mut self) -> Result<(ServerMsg, Order), String> {
        loop {
            let m = recv(&mut self.ws).await?;
            let (event, answers) = self.session.received(m, Instant::now());
            for a in &answers {
                self.send(a).await?;
            }
            match event {
                Event::Message(m, order) => return Ok((*m, order)),
                // A pong still counts as a sign of life (the quiet-table check).
                Event::Latency(_) => return Ok((ServerMsg::Pong, Order::Next)),
                Event::Welcomed { .. } => {}
                Event::Refused(r) => return Err(format!("refused: {}", r.message())),
            }
        }
    }

    pub(crate) async fn close(&mut self) {
        let _ = self.ws.close(None).await;
    }
}

async fn send(ws: &mut Ws, m: &ClientMsg) -> Result<(), String> {
    let t = serde_json::to_string(m).map_err(|e| e.to_string())?;
    ws.send(Message::Text(t.into())).await.map_err(|e| format!("send: {e}"))
}

async fn recv(ws: &mut Ws) -> Result<ServerMsg, String> {
    loop {
        let f = tokio::time::timeout(Duration::from_secs(60), ws.next())
            .await
            .map_err(|_| "no message for 60 s".to_string())?
            .ok_or("connection closed")?
            .map_err(|e| format!("ws: {e}"))?;
        if let Message::Text(t) = f {
            return serde_json::from_str(t.as_str()).map_err(|e| format!("bad server message: {e}"));
        }
    }
}

/// Registers a guest and connects as it.
pub(crate) async fn login(addr: SocketAddr, name: &str) -> Result<Link, String> {
    let (id, token) = register(addr, name).await?;
    let cfg = SessionConfig { heartbeat: HEARTBEAT, resync_on_rejoin: false, ..SessionConfig::default() };
    let mut session = Session::new(id, token, cfg);
    let (ws, answers) = connect(addr, &mut session).await?;
    Link::over(ws, session, answers).await.map_err(|(e, _)| e)
}

/// Connects and says hello: the socket and what the session answers the welcome with (the
/// rejoin, when it was welcomed before).
async fn connect(addr: SocketAddr, session: &mut Session) -> Result<(Ws, Vec<ClientMsg>), String> {
    // Small buffers (thousands of clients in one process) and no Nagle delay on small writes.
    let config = WebSocketConfig::default().read_buffer_size(4096).write_buffer_size(0);
    let (mut ws, _) = tokio_tungstenite::connect_async_with_config(format!("ws://{addr}{WS_PATH}"), Some(config), true)
        .await
        .map_err(|e| format!("ws connect: {e}"))?;
    let hello = session.opened(Instant::now());
    send(&mut ws, &hello).await?;
    match session.received(recv(&mut ws).await?, Instant::now()) {
        (Event::Welcomed { .. }, answers) => Ok((ws, answers)),
        (Event::Refused(r), _) => Err(format!("hello refused: {}", r.message())),
        (other, _) => Err(format!("hello answered with {other:?}")),
    }
}

/// The same account on another instance (the server redirected it there): a new connection
/// with the session's credentials; the old one is closed.
pub(crate) async fn move_to(addr: SocketAddr, link: Link) -> Result<Link, String> {
    let Link { mut ws, mut session } = link;
    let _ = ws.close(None).await;
    let (ws, answers) = connect(addr, &mut session).await?;
    Link::over(ws, session, answers).await.map_err(|(e, _)| e)
}

/// Comes back after a lost connection: logs in again and rejoins the room with the last action
/// seq seen (the server then sends what was missed). Tries at once, then with the session's
/// backoff (exponential with jitter, for at least a minute): the server may be restarting.
pub(crate) async fn rejoin(addr: SocketAddr, link: Link, jitter: &mut ChaCha8Rng) -> Result<Link, String> {
    let Link { ws, mut session } = link;
    drop(ws);
    loop {
        let e = match tokio::time::timeout(Duration::from_secs(10), connect(addr, &mut session)).await {
            Ok(Ok((ws, answers))) => match Link::over(ws, session, answers).await {
                Ok(link) => return Ok(link),
                Err((e, s)) => {
                    session = s;
                    e
                }
            },
            Ok(Err(e)) => e,
            Err(_) => "no answer within 10 s".to_string(),
        };
        match session.dropped(Instant::now(), jitter.next_u64()) {
            Reconnect::After(wait) => tokio::time::sleep(wait).await,
            Reconnect::GiveUp => {
                return Err(format!(
                    "could not reconnect in {:?} ({} attempts), last: {e}",
                    session.patience(),
                    session.attempts()
                ));
            }
        }
    }
}

pub(crate) async fn register(addr: SocketAddr, name: &str) -> Result<(String, String), String> {
    let body = serde_json::to_string(&NewPlayer { nickname: name.into() }).map_err(|e| e.to_string())?;
    let reply: NewPlayerReply =
        http(addr, PLAYERS_PATH.into(), Some(body)).await.map_err(|e| format!("register: {e}"))?;
    Ok((reply.player_id, reply.token))
}

/// Waits for a message matching `pred` (others are ignored).
pub(crate) async fn until(link: &mut Link, what: &str, pred: impl Fn(&ServerMsg) -> bool) -> Result<ServerMsg, String> {
    for _ in 0..10_000 {
        let (m, _) = link.recv().await?;
        if let ServerMsg::Error { code, message, .. } = &m {
            return Err(format!("waiting for {what}: error {code} {message}"));
        }
        if pred(&m) {
            return Ok(m);
        }
    }
    Err(format!("never got {what}"))
}
