//! One WebSocket connection: handshake and authentication, rate limit, frame limit, heartbeat
//! watch, and routing of room messages to the room's task. Everything sent to the client goes
//! through one bounded queue ([`Outbox`]); a client that cannot keep up is disconnected with
//! `slow_consumer`, never waited for.

use crate::App;
use crate::accounts::{self, AuthError};
use crate::lease::{self, Entry};
use crate::limiter::TokenBucket;
use crate::listener::Peer;
use crate::outbox::Outbox;
use crate::queue::QueueEvent;
use crate::room::{self, ConnId, PlayerRef, RoomCmd};
use crate::ws_guard::{GuardSignal, Refusal, WsGuard};
use futures_util::{SinkExt, StreamExt};
use guandan_proto::{
    ClientMsg, ErrorCode, MIN_COMPATIBLE_PROTOCOL, PROTOCOL_VERSION, ServerMsg, decode_client, encode_server,
};
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

struct Queued {
    rules: String,
    events: mpsc::Receiver<QueueEvent>,
}

/// The next event of the queue the connection waits in (never, when it waits in none).
async fn next_queue_event(q: &mut Option<Queued>) -> QueueEvent {
    match q {
        Some(q) => match q.events.recv().await {
            Some(e) => e,
            None => std::future::pending().await,
        },
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

    async fn leave_room(&mut self) {
        if let Some((_, tx)) = self.room.take() {
            // Wait until the room has let the seat go (and closed, if that emptied it): the next
            // room this player creates must not find the last one still counted.
            let (done, handled) = tokio::sync::oneshot::channel();
            let gone = RoomCmd::Gone { conn: self.id, silent_since: Instant::now(), left: true, done: Some(done) };
            if tx.send(gone).await.is_ok() {
                let _ = tokio::time::timeout(Duration::from_secs(5), handled).await;
            }
        }
    }

    async fn handle(&mut self, msg: ClientMsg) {
        let Some(player) = self.player.clone() else {
            return self.hello(msg).await;
        };
        // A room that closed by itself (a finished quick match's) is no longer this connection's:
        // the player may queue or sit elsewhere without leaving it first.
        if self.room.as_ref().is_some_and(|(_, tx)| tx.is_closed()) {
            self.room = None;
        }
        match msg {
            ClientMsg::Hello { .. } => self.refuse(ErrorCode::BadRoomState, "already authenticated"),
            ClientMsg::Heartbeat => {
                let _ = self.out.send(PONG.clone());
            }
            ClientMsg::QueueJoin { rules } => self.queue_join(&player, rules).await,
            ClientMsg::QueueLeave => {
                if self.leave_queue().await {
                    self.send_queue_status(false, 0, 0);
                } else {
                    self.refuse(ErrorCode::BadRoomState, "not in the quick-match queue");
                }
            }
            ClientMsg::CreateRoom { rules, spectator_delay, seed, spectator_hands } => {
                self.create_room(player, rules, spectator_delay, seed, spectator_hands).await
            }
            ClientMsg::JoinRoom { code, last_action_seq } => {
                if self.seated_elsewhere(&player, Some(&code)).await {
                    return;
                }
                self.leave_queue().await;
                self.enter(code, |conn, out| RoomCmd::Join { conn, player: Box::new(player), out, last_action_seq })
                    .await
            }
            ClientMsg::Spectate { code } => {
                self.leave_queue().await;
                self.enter(code, |conn, out| RoomCmd::Spectate { conn, out }).await
            }
            // Waits until the room has let the seat go: what the client sends next (a seat
            // elsewhere, the queue) finds the account free (one seat per account).
            ClientMsg::Leave if self.room.is_some() => self.leave_room().await,
            // Nothing to leave (the room closed by itself): the client's goodbye to it is not an
            // error, so a refusal cannot land on what the client asks next.
            ClientMsg::Leave => {}
            other => match &self.room {
                Some((_, tx)) => {
                    let leaving = matches!(other, ClientMsg::Leave);
                    if tx
                        .send(RoomCmd::Msg {
                            conn: self.id,
                            out: self.out.clone(),
                            msg: Box::new(other),
                            received: Instant::now(),
                        })
                        .await
                        .is_err()
                    {
                        self.room = None;
                        self.refuse(ErrorCode::RoomNotFound, "the room is closed");
                    } else if leaving {
                        self.room = None;
                    }
                }
                None => self.refuse(ErrorCode::RoomNotFound, "join a room first"),
            },
        }
    }

    /// A room of the player's own (leaving the queue and the room it is in, if it may).
    async fn create_room(
        &mut self,
        player: PlayerRef,
        rules: Option<String>,
        spectator_delay: Option<u32>,
        seed: Option<u64>,
        spectator_hands: Option<u8>,
    ) {
        if self.seated_elsewhere(&player, None).await {
            return;
        }
        // Choosing a room of one's own ends the wait for a quick match.
        self.leave_queue().await;
        self.leave_room().await;
        // Still seated: the room just left holds the seat while its match runs.
        if let Some(code) = self.app.seats().room_of(&player.id).await {
            self.app.metrics().seats_refused.inc();
            return self.refuse(ErrorCode::AlreadySeated, crate::seats::already_seated(&code));
        }
        match room::create(&self.app, &player, rules, spectator_delay, seed, spectator_hands).await {
            Ok((code, tx)) => {
                let cmd = RoomCmd::Join {
                    conn: self.id,
                    player: Box::new(player),
                    out: self.out.clone(),
                    last_action_seq: None,
                };
                if tx.send(cmd).await.is_ok() {
                    self.room = Some((code, tx));
                }
            }
            Err((code, message)) => self.refuse(code, message),
        }
    }

    /// Quick match: waits for a table of `rules` (default competition) in the shared queue.
    async fn queue_join(&mut self, player: &PlayerRef, rules: Option<String>) {
        let rules = rules.unwrap_or_else(|| "competition".into());
        if guandan_core::rules::RuleConfig::preset(&rules).is_none() {
            let shown: String = rules.chars().take(32).collect();
            return self.refuse(ErrorCode::BadArgument, format!("unknown rule preset {shown:?}"));
        }
        if self.room.is_some() {
            return self.refuse(ErrorCode::BadRoomState, "leave your room before the quick-match queue");
        }
        if self.queue.is_some() {
            return self.refuse(ErrorCode::BadRoomState, "already in the quick-match queue");
        }
        // One seat per account: not while another connection's seat (or a match this one left)
        // holds the account.
        if let Some(code) = self.app.seats().room_of(&player.id).await {
            self.app.metrics().seats_refused.inc();
            return self.refuse(ErrorCode::AlreadySeated, crate::seats::already_seated(&code));
        }
        let rating =
            self.app.db().matchmaking_rating(&player.id, &rules).await.unwrap_or(crate::queue::NEW_PLAYER_RATING);
        let source = crate::listener::source_key(self.peer.ip()).to_string();
        let (pool, instance) = (&self.app.cfg().queue_pool, &self.app.cfg().instance);
        match self.app.db().queue_join(&player.id, pool, &rules, rating, instance, &source).await {
            Ok(true) => {
                let events = self.app.waiters().add(&player.id);
                self.app.metrics().queued.inc();
                self.queue = Some(Queued { rules, events });
                self.send_queue_status(true, 0, 1);
            }
            Ok(false) => self.refuse(ErrorCode::BadRoomState, "already in the quick-match queue (another connection)"),
            Err(e) => self.refuse(ErrorCode::Internal, e.to_string()),
        }
    }

    /// One seat per account: refuses (true) a seat in a room other than `target` while the
    /// account holds one in a room other than this connection's own, or waits in the quick-match
    /// queue from another connection. (The room claims the seat again when it seats the player.)
    async fn seated_elsewhere(&self, player: &PlayerRef, target: Option<&str>) -> bool {
        let own = self.room.as_ref().map(|(c, _)| c.as_str());
        let why = match self.app.seats().room_of(&player.id).await {
            Some(code) if Some(code.as_str()) != own && Some(code.as_str()) != target => {
                crate::seats::already_seated(&code)
            }
            _ if self.queue.is_none()
                && (self.app.waiters().contains(&player.id) || self.app.seats().queued_elsewhere(&player.id).await) =>
            {
                "you wait in the quick-match queue on another connection: leave it (queue_leave there) first".into()
            }
            _ => return false,
        };
        self.app.metrics().seats_refused.inc();
        self.refuse(ErrorCode::AlreadySeated, why);
        true
    }

    /// Leaves the queue if waiting in it; true when it was.
    async fn leave_queue(&mut self) -> bool {
        let Some(_) = self.queue.take() else { return false };
        self.app.metrics().queued.dec();
        if let Some(p) = &self.player {
            self.app.waiters().remove(&p.id);
            if let Err(e) = self.app.db().queue_leave(&p.id).await {
                tracing::warn!(error = %e, "queue row not removed");
            }
        }
        true
    }

    fn send_queue_status(&self, queued: bool, waited_ms: u64, found: u8) {
        let rules = self.queue.as_ref().map(|q| q.rules.clone()).unwrap_or_default();
        self.send(&ServerMsg::QueueStatus { rules, queued, waited_ms, found });
    }

    /// What the matchmaker said: the wait so far, or the table to join.
    async fn on_queue(&mut self, e: QueueEvent) {
        match e {
            QueueEvent::Status { waited_ms, found } => self.send_queue_status(true, waited_ms, found),
            QueueEvent::Seated { code } => {
                let rules = self.queue.take().map(|q| q.rules).unwrap_or_default();
                self.app.metrics().queued.dec();
                self.send(&ServerMsg::QueueStatus { rules, queued: false, waited_ms: 0, found: 4 });
                let Some(player) = self.player.clone() else { return };
                self.enter(code, |conn, out| RoomCmd::Join {
                    conn,
                    player: Box::new(player),
                    out,
                    last_action_seq: None,
                })
                .await;
            }
        }
    }

    /// Joins or spectates a room on this instance, or redirects to the instance that owns it. A
    /// room whose owner's lease ran out is taken over here first; one of this instance's rooms
    /// that stopped after a refused write is rebuilt from its log.
    async fn enter(&mut self, code: String, cmd: impl FnOnce(ConnId, Outbox) -> RoomCmd) {
        if !guandan_proto::valid_room_code(&code) {
            return self.refuse(ErrorCode::RoomNotFound, "not a room code");
        }
        let local = self.app.rooms().lock().get(&code).cloned();
        let entry = match local {
            Some(tx) => Entry::Here(tx),
            None => match self.app.db().room(&code).await {
                Ok(Some(row)) => {
                    let entry = if row.instance != self.app.cfg().instance {
                        lease::take_over(&self.app, row).await
                    } else {
                        lease::revive(&self.app, row).await
                    };
                    match entry {
                        Ok(entry) => entry,
                        Err(e) => return self.refuse(ErrorCode::Internal, e.to_string()),
                    }
                }
                Ok(None) => Entry::Gone,
                Err(e) => return self.refuse(ErrorCode::Internal, e.to_string()),
            },
        };
        match entry {
            Entry::Here(tx) => {
                // Only a room that exists replaces the current one.
                if self.room.as_ref().is_some_and(|(c, _)| *c != code) {
                    self.leave_room().await;
                }
                if tx.send(cmd(self.id, self.out.clone())).await.is_ok() {
                    self.room = Some((code, tx));
                } else {
                    self.refuse(ErrorCode::RoomNotFound, "the room is closed");
                }
            }
            Entry::Owner(row) => {
                self.app.metrics().protocol_errors.inc();
                self.send(&ServerMsg::Redirect { code, instance: row.instance, url: row.url });
            }
            Entry::Gone => self.refuse(ErrorCode::RoomNotFound, "no such room"),
        }
    }

    async fn hello(&mut self, msg: ClientMsg) {
        let ClientMsg::Hello { protocol_version, player_id, token } = msg else {
            return self.refuse(ErrorCode::Unauthenticated, "say hello first");
        };
        if protocol_version < MIN_COMPATIBLE_PROTOCOL {
            return self.refuse(
                ErrorCode::ProtocolTooOld,
                format!(
                    "protocol {protocol_version} is too old: this server needs at least {MIN_COMPATIBLE_PROTOCOL}; please update the game"
                ),
            );
        }
        match accounts::authenticate(&self.app, Some(&player_id), token.expose(), true).await {
            Ok(me) => {
                self.peer.authenticated();
                self.kick = Some(self.app.accounts().live.add(&player_id, self.id, &me.session));
                // Accounts made before the nickname rule are shown without what it refuses.
                let nickname = guandan_proto::displayable_nickname(&me.nickname);
                self.player = Some(PlayerRef { id: player_id.clone(), nickname });
                self.send(&ServerMsg::Welcome {
                    protocol_version: PROTOCOL_VERSION.min(protocol_version),
                    player_id,
                    instance: self.app.cfg().instance.clone(),
                    token: me.new_token,
                });
            }
            // One answer: an expired session is soon deleted (then unknown like a wrong token).
            Err(AuthError::Unknown | AuthError::Expired) => self.refuse(
                ErrorCode::AuthFailed,
                "unknown player or wrong token (the session may have expired or been logged out: log in again)",
            ),
            Err(AuthError::Db(e)) => self.refuse(ErrorCode::Internal, e.to_string()),
        }
    }
}

async fn session(socket: WebSocket, guard: GuardSignal, app: Arc<App>, id: ConnId, peer: Peer) {
    let (sink, mut stream) = socket.split();
    let (out, inbox) = Outbox::new(app.cfg().outbox);
    let writer = tokio::spawn(write(sink, inbox));
    let mut s = Session { app: app.clone(), id, peer, out, player: None, room: None, queue: None, kick: None };
    let cfg = &app.cfg();
    let opened = Instant::now();
    let mut pace = Pace { last_heard: Instant::now(), rate: TokenBucket::new(cfg.rate, cfg.burst), strikes: 0 };
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
            // The deadline passed. After a stall of the server (paused, an overloaded machine)
            // its timers are due while the client's frames wait unread in the socket: the client
            // did nothing wrong. The reactor learns of them only once the task yields: look again.
            None => match tokio::time::timeout(STALL_LOOK, stream.next()).await {
                Ok(f) => f,
                Err(_) => break s.timed_out(),
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

/// The connection's writer: everything queued goes out with one flush; a client too slow to
/// read gets `slow_consumer` and the close.
async fn write(mut sink: futures_util::stream::SplitSink<WebSocket, Message>, mut inbox: crate::outbox::Inbox) {
    let mut batch = Vec::new();
    'write: while inbox.recv_all(&mut batch).await {
        if inbox.overflowed() {
            // The backlog is dropped: the client reconnects and catches up from its last action.
            let bye = ServerMsg::error(ErrorCode::SlowConsumer, "too slow to receive; reconnect and rejoin");
            let _ = sink.send(Message::Text(encode_server(&bye).into())).await;
            break;
        }
        // Everything queued goes out with one flush (one write when it fits the buffer).
        for text in batch.drain(..) {
            if sink.feed(Message::Text(text.as_ref().into())).await.is_err() {
                break 'write;
            }
        }
        if sink.flush().await.is_err() {
            break;
        }
    }
    let _ = sink.close().await;
}

/// The end of a connection: what is queued (a final error or bye) goes out, the client's
/// close is read.
async fn close(mut stream: futures_util::stream::SplitStream<WebSocket>, writer: tokio::task::JoinHandle<()>) {
    // Let queued messages (a final error or bye) go out, but never wait on a stuck client: a
    // writer blocked on a client that does not read is stopped, closing the socket. Meanwhile
    // what the client still sends is read and dropped: closing a socket with unread input
    // resets the connection, and the client would lose the final message.
    let stop = writer.abort_handle();
    let grace = tokio::time::sleep(Duration::from_secs(2));
    tokio::pin!(grace, writer);
    // The closing handshake: the writer's last frame is a Close; the client answers with its own.
    // Reading waits until that Close is out: the WebSocket layer answers each ping it reads until
    // then, and a client flooding pings must get no answers while its connection closes. After it,
    // everything is read and dropped up to the client's Close — stopping earlier would leave
    // input unread, and the reset that follows would destroy the final messages before the
    // client reads them.
    let (mut writing, mut open) = (true, true);
    while writing || open {
        tokio::select! {
            _ = &mut writer, if writing => writing = false,
            _ = &mut grace => {
                stop.abort();
                break;
            }
            f = stream.next(), if open && !writing => {
                open = matches!(f, Some(Ok(ref m)) if !matches!(m, Message::Close(_)));
            }
        }
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
