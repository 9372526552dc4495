//! One WebSocket connection: its life (this file: the loop that reads frames, the rate limit,
//! the heartbeat watch, the reasons it ends), its messages (`messages.rs`: hello and one handler
//! a kind), its room (`rooms.rs`), its place in the quick-match queue (`queue.rs`) and the
//! socket's writer and close (`socket.rs`). Everything sent to the client goes through one
//! bounded queue ([`Outbox`]); a client that cannot keep up is disconnected with
//! `slow_consumer`, never waited for.

mod messages;
mod queue;
mod rooms;
mod socket;

use crate::App;
use crate::limiter::TokenBucket;
use crate::listener::Peer;
use crate::outbox::Outbox;
use crate::room::{ConnId, PlayerRef, RoomCmd};
use crate::ws_guard::{GuardSignal, Refusal, WsGuard};
use futures_util::StreamExt;
use guandan_proto::{ClientMsg, ErrorCode, ServerMsg, decode_client, encode_server};
use queue::{Queued, next_queue_event};
use socket::{close, write};
use std::sync::Arc;
use std::sync::atomic::Ordering::Relaxed;
use std::time::Duration;
use tokio::sync::mpsc;
use tokio::time::Instant;
use tokio_tungstenite::WebSocketStream;
use tokio_tungstenite::tungstenite::Message;
use tracing::Instrument;

/// A client's WebSocket: the upgraded HTTP connection, read through the frame guard.
pub type WebSocket = WebSocketStream<WsGuard<hyper_util::rt::TokioIo<hyper::upgrade::Upgraded>>>;

/// How long a connection whose deadline passed is still read before it counts as silent.
const STALL_LOOK: Duration = Duration::from_millis(250);
/// The answer to every heartbeat (a player's client sends one every few seconds: more of them
/// than actions), encoded once.
static PONG: std::sync::LazyLock<Arc<str>> = std::sync::LazyLock::new(|| Arc::from(encode_server(&ServerMsg::Pong)));
/// A heartbeat as the clients encode it, recognised without parsing (any other spelling is
/// parsed as usual).
const HEARTBEAT_TEXT: &str = r#"{"type":"heartbeat"}"#;
/// Refusals for flooding before the connection is closed.
const MAX_RATE_STRIKES: u32 = 100;

pub async fn run(socket: WebSocket, guard: GuardSignal, app: Arc<App>, peer: Peer) {
    let id: ConnId = app.next_conn().fetch_add(1, Relaxed);
    app.metrics().connections.inc();
    let span = tracing::info_span!("conn", id);
    session(socket, guard, app.clone(), id, peer).instrument(span).await;
    app.metrics().connections.dec();
}

struct Session {
    app: Arc<App>,
    id: ConnId,
    peer: Peer,
    out: Outbox,
    player: Option<PlayerRef>,
    room: Option<(String, mpsc::Sender<RoomCmd>)>,
    /// Waiting in the quick-match queue.
    queue: Option<Queued>,
    /// Notified when the session this connection authenticated with ends (a log out).
    kick: Option<Arc<tokio::sync::Notify>>,
}

/// Resolves when the connection's session was ended (never before a hello).
async fn kicked(kick: &Option<Arc<tokio::sync::Notify>>) {
    match kick {
        Some(k) => k.notified().await,
        None => std::future::pending().await,
    }
}

impl Session {
    fn send(&self, msg: &ServerMsg) {
        let _ = self.out.send(Arc::from(encode_server(msg)));
    }

    fn refuse(&self, code: ErrorCode, message: impl Into<String>) {
        self.app.metrics().protocol_errors.inc();
        self.send(&ServerMsg::error(code, message));
    }
}

async fn session(socket: WebSocket, guard: GuardSignal, app: Arc<App>, id: ConnId, peer: Peer) {
    let (sink, mut stream) = socket.split();
    let (out, inbox) = Outbox::new(app.cfg().outbox);
    let writer = tokio::spawn(write(sink, inbox));
    let mut s = Session { app: app.clone(), id, peer, out, player: None, room: None, queue: None, kick: None };
    let cfg = &app.cfg();
    let opened = Instant::now();
    let mut pace = Pace { last_heard: opened, rate: TokenBucket::new(cfg.rate, cfg.burst), strikes: 0 };
    let mut shutdown = app.shutdown().clone();
    // One timer for the connection's life, moved only when the deadline comes earlier: a later
    // deadline (every frame moves it) is seen when the timer fires. Re-arming it for each frame
    // would cost the timer wheel an insert and a removal per message.
    let timer = tokio::time::sleep_until(opened + cfg.auth_timeout());
    tokio::pin!(timer);
    loop {
        let deadline =
            if s.player.is_none() { opened + cfg.auth_timeout() } else { pace.last_heard + cfg.heartbeat_timeout() };
        if deadline < timer.deadline() {
            timer.as_mut().reset(deadline);
        }
        // Handled after the select (its other futures hold borrows that must not live across it).
        let mut queue_event = None;
        // Biased with the frame first: when a frame is ready, none of the other futures is polled
        // (each would register with its Notify and leave it again, for every message).
        let frame = tokio::select! {
            biased;
            f = stream.next() => Some(f),
            _ = s.out.ended() => {
                // The room queued the reason (`session_replaced`) before.
                tracing::info!("a newer connection of the account took the seat: closed");
                break;
            }
            _ = &mut timer => {
                if Instant::now() < deadline {
                    timer.as_mut().reset(deadline);
                    continue;
                }
                None
            }
            _ = kicked(&s.kick) => break s.logged_out(),
            _ = s.peer.evicted(), if s.player.is_none() => {
                s.refuse(ErrorCode::Unauthenticated, "too many connections wait for their hello: closed");
                break;
            }
            _ = s.out.overflow() => {
                app.metrics().protocol_errors.inc();
                tracing::info!("too slow to receive: disconnected");
                break;
            }
            r = guard.refused() => break s.refused_below(r),
            e = next_queue_event(&mut s.queue) => {
                queue_event = Some(e);
                None
            }
            _ = shutdown.wait_for(|v| *v) => break s.shutting_down(),
        };
        if let Some(e) = queue_event {
            Box::pin(s.on_queue(e)).await;
            continue;
        }
        let frame = match frame {
            Some(f) => f,
            None => match look_again(&mut stream).await {
                Some(f) => f,
                None => break s.timed_out(),
            },
        };
        let Some(Ok(frame)) = frame else { break };
        if !s.on_frame(frame, &mut pace).await {
            break;
        }
    }
    s.gone(pace.last_heard).await;
    drop(s);
    close(stream, writer).await;
}

/// The deadline passed. After a stall of the server (paused, an overloaded machine) its timers
/// are due while the client's frames wait unread in the socket: the client did nothing wrong.
/// The reactor learns of them only once the task yields: look again (`None`: nothing came).
async fn look_again(
    stream: &mut futures_util::stream::SplitStream<WebSocket>,
) -> Option<Option<Result<Message, tokio_tungstenite::tungstenite::Error>>> {
    tokio::time::timeout(STALL_LOOK, stream.next()).await.ok()
}

/// What a connection's frames have spent: the time of the last one, the message rate and the
/// refusals for it in a row.
struct Pace {
    last_heard: Instant,
    rate: TokenBucket,
    strikes: u32,
}

impl Session {
    /// Below the WebSocket layer (crate::ws_guard) reading has stopped: the client is told why.
    fn refused_below(&self, r: Refusal) {
        let Refusal::TooManyFragments(n) = r;
        let max = crate::ws_guard::MAX_FRAGMENTS;
        let why = format!("a message sent in {n} frames or more (at most {max}): the connection is closed");
        self.refuse(ErrorCode::FrameTooLarge, why);
    }

    /// The server shuts down: the client is told to come back.
    fn shutting_down(&self) {
        self.send(&ServerMsg::Bye {
            code: ErrorCode::ShuttingDown.code(),
            message: "server shutting down; reconnect and rejoin your room".into(),
        });
    }

    /// The session was ended by a log out (on any of the account's devices).
    fn logged_out(&self) {
        self.refuse(ErrorCode::AuthFailed, "logged out: this session was ended (log in again)");
        tracing::info!("session ended by a log out: closed");
    }

    /// Nothing came before the deadline (looked at once more): the connection ends.
    fn timed_out(&self) {
        if self.player.is_none() {
            self.refuse(ErrorCode::Unauthenticated, "no hello in time");
        } else {
            tracing::info!("heartbeat lost");
        }
    }

    /// The connection is over: its room hears it went silent, its queue place goes.
    async fn gone(&mut self, last_heard: Instant) {
        if let Some((_, tx)) = self.room.take() {
            let _ = tx.send(RoomCmd::Gone { conn: self.id, silent_since: last_heard, left: false, done: None }).await;
        }
        // Gone while waiting: out of the queue (a table formed meanwhile keeps the seat: the AI
        // plays it until the player comes back).
        self.leave_queue().await;
        if let Some(p) = &self.player {
            self.app.accounts().live.remove(&p.id, self.id);
        }
    }

    /// One frame from the client: rate-limited, decoded and handled; false when the
    /// connection ends.
    async fn on_frame(&mut self, frame: Message, pace: &mut Pace) -> bool {
        if self.out.is_ended() {
            // A newer connection took the seat while this frame waited: nothing more is handled.
            tracing::info!("a newer connection of the account took the seat: closed");
            return false;
        }
        let now = Instant::now();
        pace.last_heard = now;
        // Every frame counts against the rate: text, binary, ping and pong alike (the WebSocket
        // layer answers a ping by itself, so a ping flood is ended here, by the strikes).
        let msg = match &frame {
            // A player's client heartbeats every few seconds: more of them than anything else.
            Message::Text(t) if t.as_str() == HEARTBEAT_TEXT => Some(Ok(ClientMsg::Heartbeat)),
            Message::Text(t) => Some(decode_client(t.as_str())),
            Message::Close(_) => return false,
            Message::Binary(_) | Message::Ping(_) | Message::Pong(_) | Message::Frame(_) => None,
        };
        // An intent answering a prompt spends the prompt's credit, not a token.
        let prompted = matches!(msg, Some(Ok(ClientMsg::Intent { .. }))) && self.out.spend_prompt();
        if !prompted && !pace.rate.allow(now) {
            pace.strikes += 1;
            self.refuse(ErrorCode::RateLimited, "too many messages: slow down");
            if pace.strikes >= MAX_RATE_STRIKES {
                return false;
            }
            return true;
        }
        let Some(msg) = msg else {
            if matches!(frame, Message::Binary(_)) {
                self.refuse(ErrorCode::MalformedMessage, "text frames only");
            }
            return true;
        };
        match msg {
            // Boxed: the connection's task then holds only this loop's state between messages,
            // not the largest handler's (a room takeover reads the database).
            Ok(msg) => Box::pin(self.handle(msg)).await,
            Err(e) => self.refuse(e.code, e.message),
        }
        !self.out.is_closed()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_heartbeat_recognised_unparsed_is_the_clients_encoding() {
        assert_eq!(serde_json::to_string(&ClientMsg::Heartbeat).unwrap(), HEARTBEAT_TEXT);
        assert!(matches!(decode_client(HEARTBEAT_TEXT), Ok(ClientMsg::Heartbeat)));
        assert_eq!(PONG.as_ref(), encode_server(&ServerMsg::Pong));
    }
}
