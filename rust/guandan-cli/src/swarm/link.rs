//! A swarm client's connection: the guest account it registers, the WebSocket and the protocol
//! session every message goes through, coming back after a drop or a redirect, and the HTTP
//! calls (registration, stored matches). A `https://` / `wss://` server is spoken to over TLS
//! (tokio-rustls; one rustls config and one HTTP agent shared by every client of the process);
//! a plain one stays plain, at the cost it had.

use futures_util::{SinkExt, StreamExt};
use guandan_core::log::MatchLog;
use guandan_proto::Endpoint;
use guandan_proto::http::{FinishedMatch, NewPlayer, NewPlayerReply, PLAYERS_PATH, match_path, read_reply};
use guandan_proto::tls::{Trust, explain, explain_http, tls_error};
use guandan_proto::{ClientMsg, Event, Order, Reconnect, ServerMsg, Session, SessionConfig};
use rand_chacha::ChaCha8Rng;
use rand_core::Rng;
use std::pin::Pin;
use std::sync::Arc;
use std::task::{Context, Poll};
use std::time::{Duration, Instant};
use tokio::io::{AsyncRead, AsyncWrite, ReadBuf};
use tokio::net::TcpStream;
use tokio_tungstenite::tungstenite::Message;
use tokio_tungstenite::tungstenite::protocol::WebSocketConfig;

/// A heartbeat when nothing was sent for this long, and the quiet-table tick.
pub(crate) const HEARTBEAT: Duration = Duration::from_secs(4);

/// A server and how to reach it: its address, and for TLS the trust (Mozilla's roots and the
/// `--ca-file` CA). Cheap to clone: every client of the swarm shares one.
#[derive(Clone)]
pub(crate) struct Server(Arc<Reach>);

struct Reach {
    ep: Endpoint,
    trust: Trust,
    tls: tokio_rustls::TlsConnector,
    /// HTTP calls (pooled connections; its TLS settings are made once).
    agent: ureq::Agent,
}

impl Server {
    pub(crate) fn new(ep: Endpoint, trust: Trust) -> Server {
        let tls = tokio_rustls::TlsConnector::from(trust.client_config());
        let agent = trust.http_agent(Duration::from_secs(60));
        Server(Arc::new(Reach { ep, trust, tls, agent }))
    }

    /// Another instance of the same deployment (a redirect): trusted the same way, and never a
    /// step down from TLS to plain text.
    pub(crate) fn moved(&self, url: &str) -> Result<Server, String> {
        let ep = Endpoint::parse(url).map_err(|e| format!("redirect to {url:?}: {e}"))?;
        if self.0.ep.tls && !ep.tls {
            return Err(format!("redirect to {url:?}: refused, it leaves TLS"));
        }
        Ok(Server::new(ep, self.0.trust.clone()))
    }
}

impl std::fmt::Debug for Server {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Server({}, {:?})", self.0.ep, self.0.trust)
    }
}

impl std::fmt::Display for Server {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        self.0.ep.fmt(f)
    }
}

/// A server as given to `flag` (`https://HOST`, `wss://HOST:PORT`, `http://HOST:PORT`,
/// `HOST:PORT`), reached with `trust`.
pub(crate) fn server_addr(flag: &str, server: &str, trust: &Trust) -> Result<Server, String> {
    let ep = Endpoint::parse(server).map_err(|e| format!("{flag}: {e}"))?;
    Ok(Server::new(ep, trust.clone()))
}

/// The trust of `--ca-file` (none: Mozilla's roots only).
pub(crate) fn trust(ca_file: Option<&str>) -> Result<Trust, String> {
    Trust::with_ca_file(ca_file.unwrap_or_default()).map_err(|f| format!("--ca-file: {f}"))
}

/// One HTTP request to the server (ureq, blocking, on tokio's blocking pool): the reply, or
/// the server's refusal as text.
async fn http<T: serde::de::DeserializeOwned + Send + 'static>(
    server: Server,
    path: String,
    post: Option<String>,
) -> Result<T, String> {
    let call = move || {
        // A refusal's body says why: the agent hands it back rather than stop at the status.
        let agent = &server.0.agent;
        let url = server.0.ep.http_url(&path);
        let answer = match post {
            Some(body) => agent.post(&url).content_type("application/json").send(body.as_str()),
            None => agent.get(&url).call(),
        };
        let mut answer = answer.map_err(|e| format!("{path}: {}", explain_http(&e, &server.0.ep)))?;
        let status = answer.status().as_u16();
        // Stored matches run to a few hundred KB; ureq's default cap (10 MB) is kept.
        let body = answer.body_mut().read_to_vec().map_err(|e| format!("{path}: {e}"))?;
        read_reply(status, &body).map_err(|e| format!("{path}: HTTP {status} {} {}", e.name, e.message))
    };
    tokio::task::spawn_blocking(call).await.map_err(|e| e.to_string())?
}

/// A page of plain text (`/metrics`): an error unless the status is 200.
pub(crate) async fn text(server: Server, path: &'static str) -> Result<String, String> {
    let call = move || {
        let url = server.0.ep.http_url(path);
        let mut answer =
            server.0.agent.get(&url).call().map_err(|e| format!("{url}: {}", explain_http(&e, &server.0.ep)))?;
        if answer.status().as_u16() != 200 {
            return Err(format!("{url}: HTTP {}", answer.status()));
        }
        answer.body_mut().read_to_string().map_err(|e| format!("{url}: {e}"))
    };
    tokio::task::spawn_blocking(call).await.map_err(|e| e.to_string())?
}

/// A finished match as the server stored it.
pub(crate) async fn finished_match(addr: Server, code: &str, match_no: u32) -> Result<MatchLog, String> {
    let m: FinishedMatch = http(addr, match_path(code, match_no), None).await?;
    MatchLog::parse(&m.log).map_err(|e| format!("stored log: {e}"))
}

/// A connection to the server, plain or TLS.
pub(crate) enum Conn {
    Plain(TcpStream),
    Tls(Box<tokio_rustls::client::TlsStream<TcpStream>>),
}

impl AsyncRead for Conn {
    fn poll_read(self: Pin<&mut Self>, cx: &mut Context<'_>, buf: &mut ReadBuf<'_>) -> Poll<std::io::Result<()>> {
        match self.get_mut() {
            Conn::Plain(s) => Pin::new(s).poll_read(cx, buf),
            Conn::Tls(s) => Pin::new(s.as_mut()).poll_read(cx, buf),
        }
    }
}

impl AsyncWrite for Conn {
    fn poll_write(self: Pin<&mut Self>, cx: &mut Context<'_>, buf: &[u8]) -> Poll<std::io::Result<usize>> {
        match self.get_mut() {
            Conn::Plain(s) => Pin::new(s).poll_write(cx, buf),
            Conn::Tls(s) => Pin::new(s.as_mut()).poll_write(cx, buf),
        }
    }

    fn poll_flush(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<std::io::Result<()>> {
        match self.get_mut() {
            Conn::Plain(s) => Pin::new(s).poll_flush(cx),
            Conn::Tls(s) => Pin::new(s.as_mut()).poll_flush(cx),
        }
    }

    fn poll_shutdown(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<std::io::Result<()>> {
        match self.get_mut() {
            Conn::Plain(s) => Pin::new(s).poll_shutdown(cx),
            Conn::Tls(s) => Pin::new(s.as_mut()).poll_shutdown(cx),
        }
    }
}

pub(crate) type Ws = tokio_tungstenite::WebSocketStream<Conn>;

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
                Event::RoomGone { code, message } => return Err(format!("room {code} is gone: {message}")),
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
pub(crate) async fn login(addr: Server, name: &str) -> Result<Link, String> {
    let (id, token) = register(addr.clone(), name).await?;
    let cfg = SessionConfig { heartbeat: HEARTBEAT, resync_on_rejoin: false, ..SessionConfig::default() };
    let mut session = Session::new(id, token, cfg);
    let (ws, answers) = connect(addr, &mut session).await?;
    Link::over(ws, session, answers).await.map_err(|(e, _)| e)
}

/// A TCP connection to the server, and for TLS its handshake (the certificate checked).
async fn open(addr: &Server) -> Result<Conn, String> {
    let ep = &addr.0.ep;
    let tcp = TcpStream::connect(ep.authority()).await.map_err(|e| format!("ws connect to {}: {e}", ep.authority()))?;
    let _ = tcp.set_nodelay(true);
    if !ep.tls {
        return Ok(Conn::Plain(tcp));
    }
    // The handshake (and the certificate check) ends before the upgrade request is sent.
    let name = rustls_pki_types::ServerName::try_from(ep.host.clone()).map_err(|e| format!("{}: {e}", ep.host))?;
    let tls = addr.0.tls.connect(name, tcp).await.map_err(|e| match tls_error(&e) {
        Some(t) => format!("wss connect: {}", explain(t, &ep.host)),
        None => format!("wss connect: {e}"),
    })?;
    Ok(Conn::Tls(Box::new(tls)))
}

/// Whether the server can be reached at all (a connection, and for TLS a handshake whose
/// certificate this swarm trusts), within 10 s: checked once before the run, so a refused
/// connection or an untrusted certificate ends the swarm at once with that error instead of
/// failing every room one by one.
pub(crate) async fn reachable(addr: &Server) -> Result<(), String> {
    match tokio::time::timeout(Duration::from_secs(10), open(addr)).await {
        Ok(r) => r.map(drop),
        Err(_) => Err(format!("{}: no answer in 10 s", addr.0.ep.authority())),
    }
}

/// Connects and says hello: the socket and what the session answers the welcome with (the
/// rejoin, when it was welcomed before).
async fn connect(addr: Server, session: &mut Session) -> Result<(Ws, Vec<ClientMsg>), String> {
    // Small buffers (thousands of clients in one process) and no Nagle delay on small writes.
    let config = WebSocketConfig::default().read_buffer_size(4096).write_buffer_size(0);
    let ep = &addr.0.ep;
    let conn = open(&addr).await?;
    let (mut ws, _) = tokio_tungstenite::client_async_with_config(ep.ws_url(), conn, Some(config))
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
pub(crate) async fn move_to(addr: Server, link: Link) -> Result<Link, String> {
    let Link { mut ws, mut session } = link;
    let _ = ws.close(None).await;
    let (ws, answers) = connect(addr, &mut session).await?;
    Link::over(ws, session, answers).await.map_err(|(e, _)| e)
}

/// Comes back after a lost connection: logs in again and rejoins the room with the last action
/// seq seen (the server then sends what was missed). Tries at once, then with the session's
/// backoff (exponential with jitter, for at least a minute): the server may be restarting.
pub(crate) async fn rejoin(addr: Server, link: Link, jitter: &mut ChaCha8Rng) -> Result<Link, String> {
    let Link { ws, mut session } = link;
    drop(ws);
    loop {
        let e = match tokio::time::timeout(Duration::from_secs(10), connect(addr.clone(), &mut session)).await {
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

pub(crate) async fn register(addr: Server, name: &str) -> Result<(String, String), String> {
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

#[cfg(test)]
mod tests {
    use super::*;
    use guandan_proto::http::NewPlayerReply;
    use guandan_proto::tls::test_pki::{Pki, Served, serve_once};
    use std::io::{Read, Write};
    use tokio_tungstenite::tungstenite;

    fn rt() -> tokio::runtime::Runtime {
        tokio::runtime::Builder::new_current_thread().enable_all().build().unwrap()
    }

    /// `wss://` with `--ca-file`: the registration (HTTPS), then the WebSocket's hello, welcome
    /// and a message each way, through the swarm's own connector.
    #[test]
    fn a_wss_server_of_the_private_ca_is_played_with() {
        let pki = Pki::new();
        let ca = pki.ca_file();
        let trust = trust(Some(ca.path())).expect("the CA file");
        let leaf = pki.leaf(&["localhost"]);
        let l = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
        let port = l.local_addr().unwrap().port();
        let server = server_addr("--server", &format!("https://localhost:{port}"), &trust).unwrap();
        // The HTTPS registration, then the WebSocket on a second connection of the same port.
        let served = std::thread::spawn(move || {
            let http = serve_once(l.try_clone().unwrap(), leaf.clone(), |mut s| {
                let mut req = Vec::new();
                let mut b = [0u8; 1];
                while !req.ends_with(b"\r\n\r\n") && s.read(&mut b).unwrap_or(0) == 1 {
                    req.push(b[0]);
                }
                let body = serde_json::to_string(&NewPlayerReply { player_id: "p1".into(), token: "t1".into() }).unwrap();
                let answer = format!(
                    "HTTP/1.1 200 OK\r\ncontent-type: application/json\r\ncontent-length: {}\r\nconnection: close\r\n\r\n{body}",
                    body.len()
                );
                s.write_all(answer.as_bytes()).unwrap();
                s.flush().unwrap();
                String::from_utf8_lossy(&req).lines().next().unwrap_or_default().to_string()
            })
            .join()
            .unwrap();
            let ws = serve_once(l, leaf, |s| {
                let mut ws = tungstenite::accept(s).expect("a WebSocket over TLS");
                let hello = ws.read().expect("the hello").into_text().unwrap().to_string();
                let welcome = ServerMsg::Welcome {
                    protocol_version: guandan_proto::PROTOCOL_VERSION,
                    player_id: "p1".into(),
                    instance: "tls".into(),
                    token: None,
                };
                ws.send(tungstenite::Message::text(serde_json::to_string(&welcome).unwrap())).unwrap();
                let next = ws.read().expect("a message").into_text().unwrap().to_string();
                ws.send(tungstenite::Message::text(serde_json::to_string(&ServerMsg::Pong).unwrap())).unwrap();
                (hello, next)
            })
            .join()
            .unwrap();
            (http, ws)
        });
        let pong = rt().block_on(async {
            let mut link = login(server, "Ann").await.expect("registered and welcomed over TLS");
            link.send(&ClientMsg::Heartbeat).await.unwrap();
            let pong = link.recv().await.unwrap().0;
            link.close().await;
            pong
        });
        assert_eq!(pong, ServerMsg::Pong);
        let (http, ws) = served.join().unwrap();
        let Served::Done(request) = http else { panic!("the registration's handshake failed") };
        assert_eq!(request, "POST /v1/players HTTP/1.1");
        let Served::Done((hello, next)) = ws else { panic!("the WebSocket's handshake failed") };
        assert!(hello.contains("\"type\":\"hello\"") && hello.contains("\"p1\""), "{hello}");
        assert_eq!(next, "{\"type\":\"heartbeat\"}");
    }

    /// An expired certificate: the swarm client says so and sends nothing.
    #[test]
    fn an_expired_certificate_is_refused_by_the_swarm() {
        let pki = Pki::new();
        let ca = pki.ca_file();
        let trust = trust(Some(ca.path())).unwrap();
        let l = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
        let port = l.local_addr().unwrap().port();
        let served = serve_once(l, pki.expired_leaf(&["localhost"]), |_| ());
        let server = server_addr("--server", &format!("wss://localhost:{port}"), &trust).unwrap();
        let mut session = Session::new("p", "t", SessionConfig::default());
        let e = rt().block_on(connect(server, &mut session)).err().expect("refused");
        assert!(e.contains("has expired"), "{e}");
        assert!(matches!(served.join().unwrap(), Served::Refused { app_bytes: 0, .. }));
        // A CA file that is not one is said before anything starts.
        assert!(trust_err("/nonexistent/ca.pem").contains("--ca-file: CA file /nonexistent/ca.pem: cannot read it"));
    }

    fn trust_err(path: &str) -> String {
        trust(Some(path)).expect_err("refused")
    }

    #[test]
    fn a_redirect_never_leaves_tls() {
        let t = Trust::mozilla();
        let s = server_addr("--server", "https://a.example.org", &t).unwrap();
        assert!(s.moved("wss://b.example.org:8443").is_ok());
        assert!(s.moved("http://b.example.org:7878").unwrap_err().contains("leaves TLS"));
        let p = server_addr("--server", "127.0.0.1:7878", &t).unwrap();
        assert_eq!(p.moved("http://127.0.0.1:7879").unwrap().to_string(), "http://127.0.0.1:7879");
        assert!(server_addr("--server", "ftp://x", &t).unwrap_err().starts_with("--server: unknown scheme"));
    }
}
