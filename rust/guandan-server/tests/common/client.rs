//! The test's client: a player over a real WebSocket (hello, intents, the session's nonces),
//! and the rooms it drives (create, seat four, start, play to the stored log).

use super::*;

pub type Ws = WebSocketStream<MaybeTlsStream<TokioTcp>>;

pub struct Client {
    pub ws: Ws,
    pub name: String,
    pub player_id: String,
    pub token: String,
    pub seat: Option<Seat>,
    /// Every message received, in order.
    pub log: Vec<ServerMsg>,
    pub last_seq: u64,
    pub prompt: Option<TableView>,
    /// The handshake and the intents' nonces (the tests drive rejoins and resyncs themselves).
    pub session: Session,
    last_sent: std::time::Instant,
    agent: guandan_ai::l1::L1,
    rng: ChaCha8Rng,
}

pub async fn connect_ws(addr: SocketAddr) -> Ws {
    let (ws, _) = tokio_tungstenite::connect_async(format!("ws://{addr}{WS_PATH}")).await.expect("ws connect");
    ws
}

impl Client {
    /// The state hash the server gives on a resync.
    pub async fn resync_hash(&mut self) -> String {
        self.send(&ClientMsg::Resync).await;
        match self.until("state", |m| matches!(m, ServerMsg::State { .. })).await {
            ServerMsg::State { state_hash, .. } => state_hash,
            _ => unreachable!(),
        }
    }

    /// Waits for the next error and requires its code.
    pub async fn expect_error(&mut self, code: guandan_proto::ErrorCode) {
        let m = self.until("an error", |m| matches!(m, ServerMsg::Error { .. })).await;
        assert!(
            matches!(&m, ServerMsg::Error { code: got, .. } if *got == code.code()),
            "{}: {code:?} expected, got {m:?}",
            self.name
        );
    }

    /// Registers, connects and says hello.
    pub async fn new(addr: SocketAddr, name: &str) -> Client {
        let (player_id, token) = register(addr, name);
        Self::login(addr, name, player_id, token).await
    }

    pub async fn login(addr: SocketAddr, name: &str, player_id: String, token: String) -> Client {
        Self::over(connect_ws(addr).await, name, player_id, token).await
    }

    /// Says hello over a WebSocket the test opened itself.
    pub async fn over(ws: Ws, name: &str, player_id: String, token: String) -> Client {
        let mut c = Client {
            ws,
            name: name.into(),
            player_id: player_id.clone(),
            token: token.clone(),
            seat: None,
            log: Vec::new(),
            last_seq: 0,
            prompt: None,
            session: Session::new(player_id, token, SessionConfig::default()),
            last_sent: std::time::Instant::now(),
            agent: guandan_ai::l1::L1,
            rng: ChaCha8Rng::seed_from_u64(name.len() as u64),
        };
        c.hello().await;
        c
    }

    /// `hello`, and the welcome. What the session would send after it (the rejoin) is the
    /// tests' to send.
    async fn hello(&mut self) {
        let hello = self.session.opened(std::time::Instant::now());
        self.send(&hello).await;
        let w = self.recv().await;
        let (event, _) = self.session.received(w.clone(), std::time::Instant::now());
        assert!(matches!(event, Event::Welcomed { .. }), "{w:?}");
    }

    /// A new connection for the same player (reconnect), keeping what was received so far.
    pub async fn reconnect(&mut self, addr: SocketAddr) {
        let ws = connect_ws(addr).await;
        let _ = std::mem::replace(&mut self.ws, ws);
        self.hello().await;
    }

    pub async fn send(&mut self, m: &ClientMsg) {
        self.session.sending(m, std::time::Instant::now());
        self.send_text(serde_json::to_string(m).unwrap()).await;
    }

    pub async fn send_text(&mut self, t: String) {
        self.last_sent = std::time::Instant::now();
        self.ws.send(Message::Text(t.into())).await.expect("ws send");
    }

    /// Next message (bounded wait); records it.
    pub async fn recv(&mut self) -> ServerMsg {
        self.try_recv(WAIT).await.unwrap_or_else(|| panic!("{}: no message within {WAIT:?}", self.name))
    }

    /// Next message within `wait`; keeps the connection alive with heartbeats while it waits.
    pub async fn try_recv(&mut self, wait: Duration) -> Option<ServerMsg> {
        let until = std::time::Instant::now() + wait;
        loop {
            if self.last_sent.elapsed() > Duration::from_millis(400) {
                let _ = self.ws.send(Message::Text(r#"{"type":"heartbeat"}"#.into())).await;
                self.last_sent = std::time::Instant::now();
            }
            let left = until.saturating_duration_since(std::time::Instant::now());
            let frame = match tokio::time::timeout(left.min(Duration::from_millis(300)), self.ws.next()).await {
                Ok(f) => f?,
                Err(_) if left > Duration::from_millis(300) => continue,
                Err(_) => return None,
            };
            match frame {
                Ok(Message::Text(t)) => {
                    let m: ServerMsg =
                        serde_json::from_str(t.as_str()).unwrap_or_else(|e| panic!("bad server json {e}: {t}"));
                    self.note(&m);
                    self.log.push(m.clone());
                    return Some(m);
                }
                Ok(Message::Close(_)) | Err(_) => return None,
                Ok(_) => continue,
            }
        }
    }

    fn note(&mut self, m: &ServerMsg) {
        match m {
            ServerMsg::Joined { seat, .. } => self.seat = *seat,
            ServerMsg::Applied { action_seq, prompt, .. } => {
                self.last_seq = *action_seq;
                self.prompt = prompt.clone();
            }
            ServerMsg::State { action_seq, view, .. } => {
                self.last_seq = *action_seq;
                self.prompt = view.seat.filter(|s| view.to_act.contains(s)).map(|_| view.clone());
            }
            _ => {}
        }
    }

    /// Receives until `pred` holds for a message; returns it.
    /// Bounded twice: by messages, and by time (pongs to its own heartbeats would otherwise keep
    /// a wait for something that never comes going for ever).
    pub async fn until(&mut self, what: &str, pred: impl Fn(&ServerMsg) -> bool) -> ServerMsg {
        let deadline = std::time::Instant::now() + UNTIL;
        for _ in 0..100_000 {
            let m = self.recv().await;
            if pred(&m) {
                return m;
            }
            assert!(std::time::Instant::now() < deadline, "{}: no {what} within {UNTIL:?}", self.name);
        }
        panic!("{}: never got {what}", self.name)
    }

    /// The match number of the first `match_stored` this client got (waits for it if needed).
    pub async fn stored(&mut self) -> u32 {
        let seen = self.log.iter().find(|m| matches!(m, ServerMsg::MatchStored { .. })).cloned();
        let m = match seen {
            Some(m) => m,
            None => self.until("match stored", |m| matches!(m, ServerMsg::MatchStored { .. })).await,
        };
        match m {
            ServerMsg::MatchStored { match_no, .. } => match_no,
            _ => unreachable!(),
        }
    }

    /// Receives until this client has seen action `n`.
    pub async fn sync_to(&mut self, n: u64) {
        while self.last_seq < n {
            if let ServerMsg::Error { code, message, .. } = self.recv().await {
                panic!("{} waiting for action {n}: error {code} {message}", self.name);
            }
        }
    }

    /// Acts on the current prompt with the L1 agent; returns the seq sent.
    pub async fn act(&mut self) -> Option<u64> {
        let view = self.prompt.take()?;
        let d = self.agent.decide(&view, &mut self.rng, &guandan_ai::Budget::unlimited());
        let seq = view.seq;
        self.intent(seq, d.action).await;
        Some(seq)
    }

    pub async fn intent(&mut self, seq: u64, action: guandan_core::game::ActionKind) {
        let m = self.session.intent(seq, action);
        self.send(&m).await;
    }

    pub fn errors(&self) -> Vec<(i32, String)> {
        self.log
            .iter()
            .filter_map(|m| match m {
                ServerMsg::Error { code, message, .. } => Some((*code, message.clone())),
                _ => None,
            })
            .collect()
    }
}

/// Creates a room with `host` in it; returns the code.
pub async fn create_room(host: &mut Client, seed: u64, delay: Option<u32>) -> String {
    host.send(&ClientMsg::CreateRoom { rules: None, spectator_delay: delay, seed: Some(seed), spectator_hands: None })
        .await;
    joined(host).await
}

/// Creates a room of `rules` dealt by the server (no seed: a match that may be ranked); returns
/// the code.
#[allow(dead_code)] // Not every test file creates one.
pub async fn create_dealt_room(host: &mut Client, rules: &str) -> String {
    host.send(&ClientMsg::CreateRoom {
        rules: Some(rules.into()),
        spectator_delay: None,
        seed: None,
        spectator_hands: None,
    })
    .await;
    joined(host).await
}

/// The code of the room `c` was just told it joined.
async fn joined(c: &mut Client) -> String {
    match c.until("joined", |m| matches!(m, ServerMsg::Joined { .. })).await {
        ServerMsg::Joined { code, .. } => code,
        _ => unreachable!(),
    }
}

/// Four clients seated in a new room, everyone ready, match started.
pub async fn four_player_room(addr: SocketAddr, seed: u64) -> (String, Vec<Client>) {
    let mut host = Client::new(addr, "north").await;
    let code = create_room(&mut host, seed, None).await;
    let mut clients = vec![host];
    for name in ["east", "south", "west"] {
        let mut c = Client::new(addr, name).await;
        c.send(&ClientMsg::JoinRoom { code: code.clone(), last_action_seq: None }).await;
        c.until("joined", |m| matches!(m, ServerMsg::Joined { .. })).await;
        clients.push(c);
    }
    start_when_ready(&mut clients).await;
    (code, clients)
}

/// Everyone ready (one at a time, in order), then the first client (the host) starts.
/// One at a time because the clients' connections are not ordered among themselves: a guest's
/// `ready` could overtake the host's last seat setting, find the room not yet full, and be
/// refused ("no ready check now"); the run then waited for an all-ready that never came.
pub async fn start_when_ready(clients: &mut [Client]) {
    for c in clients.iter_mut() {
        let seat = c.seat.expect("a seated client").index();
        c.send(&ClientMsg::Ready { ready: true }).await;
        let m = c
            .until("its own ready", |m| {
                matches!(m, ServerMsg::Error { .. }) || matches!(m, ServerMsg::Room { room } if room.seats[seat].ready)
            })
            .await;
        assert!(matches!(m, ServerMsg::Room { .. }), "{}: ready refused: {m:?}", c.name);
    }
    // The host hears of the last ready (it may already have).
    let all_ready =
        |m: &ServerMsg| matches!(m, ServerMsg::Room { room } if room.seats.iter().all(|s| s.ready || s.ai.is_some()));
    let host = &mut clients[0];
    if !host.log.iter().rev().find(|m| matches!(m, ServerMsg::Room { .. })).is_some_and(all_ready) {
        host.until("all ready", all_ready).await;
    }
    clients[0].send(&ClientMsg::Start).await;
    for c in clients.iter_mut() {
        c.until("state", |m| matches!(m, ServerMsg::State { .. })).await;
    }
}

/// Plays until the match is stored or `max_actions` were applied; every client is synced after
/// each action. Returns the number of actions seen at the end.
pub async fn play(clients: &mut [Client], max_actions: u64) -> u64 {
    let mut acted = 0;
    let mut idle = 0;
    let mut beat = std::time::Instant::now();
    while acted < max_actions {
        if clients.iter().any(|c| c.log.iter().any(|m| matches!(m, ServerMsg::MatchStored { .. }))) {
            break;
        }
        if beat.elapsed() > Duration::from_secs(1) {
            for c in clients.iter_mut() {
                c.send(&ClientMsg::Heartbeat).await;
            }
            beat = std::time::Instant::now();
        }
        let Some(i) = clients.iter().position(|c| c.prompt.is_some()) else {
            // Someone else (an AI seat) must act: wait for the next action anywhere, keeping
            // every connection alive meanwhile.
            let n = clients[0].last_seq + 1;
            let Some(m) = clients[0].try_recv(Duration::from_millis(300)).await else {
                idle += 1;
                assert!(idle < 100, "{}: nothing happened for 30 s", clients[0].name);
                continue;
            };
            idle = 0;
            if matches!(m, ServerMsg::MatchStored { .. }) {
                break;
            }
            let target = clients[0].last_seq;
            if target >= n {
                for c in clients[1..].iter_mut() {
                    c.sync_to(target).await;
                }
            }
            continue;
        };
        let seq = clients[i].act().await.expect("prompt");
        for c in clients.iter_mut() {
            c.sync_to(seq + 1).await;
        }
        acted += 1;
        for c in clients.iter() {
            assert!(c.errors().is_empty(), "{}: {:?}", c.name, c.errors());
        }
    }
    clients[0].last_seq
}

/// Waits for every client to see the match stored.
pub async fn wait_stored(clients: &mut [Client]) -> u32 {
    let mut no = 0;
    for c in clients.iter_mut() {
        no = c.stored().await;
    }
    no
}
