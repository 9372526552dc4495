//! One room: a tokio task that owns the room's seats, members and match, and handles its
//! commands one at a time. Lifecycle transitions go through [`crate::lifecycle`]; every action is
//! checked by the rules core, written to the journal, and only then sent — filtered — to each
//! member. AI seats and hosted seats are decided on tokio's blocking pool; results come back as
//! commands and are dropped when the state moved on.

use crate::App;
use crate::game::{self, Game};
use crate::lifecycle::{RoomEvent, RoomState, next};
use guandan_ai::service::AiResult;
use guandan_ai::{AiLevel, AiProfile};
use guandan_core::game::{ActionKind, Seat};
use guandan_core::log::MatchLog;
use guandan_core::rules::RuleConfig;
use guandan_proto::{
    ClientMsg, DEFAULT_SPECTATOR_DELAY, ErrorCode, MAX_SPECTATORS, RoomInfo, SeatInfo, SeatSetting, ServerMsg,
    encode_server,
};
use guandan_runtime::{Controller, Notice, RuntimeConfig, Viewer};
use serde::{Deserialize, Serialize};
use std::collections::{BTreeMap, VecDeque};
use std::sync::Arc;
use std::sync::atomic::Ordering::Relaxed;
use tokio::sync::mpsc;
use tokio::time::Instant;
use tracing::Instrument;

mod seating;

pub type ConnId = u64;
pub use crate::outbox::Outbox;

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct PlayerRef {
    pub id: String,
    pub nickname: String,
}

pub enum RoomCmd {
    Join {
        conn: ConnId,
        player: Box<PlayerRef>,
        out: Outbox,
        last_action_seq: Option<u64>,
    },
    Spectate {
        conn: ConnId,
        out: Outbox,
    },
    Msg {
        conn: ConnId,
        out: Outbox,
        /// Boxed: a room's queue holds slots of its largest command.
        msg: Box<ClientMsg>,
        received: Instant,
    },
    /// The connection closed (`left`: by a `leave`), or went silent at `silent_since`.
    Gone {
        conn: ConnId,
        silent_since: Instant,
        left: bool,
    },
    AiDone(Box<AiResult>),
    /// Go on with due AI decisions (after a long run of them).
    DriveAi,
    Shutdown,
}

/// What survives a restart: the room's settings and who sits where (rows of the directory).
#[derive(Clone, Debug, Default, Serialize, Deserialize)]
struct Stored {
    preset: String,
    spectator_delay: u32,
    seed: Option<u64>,
    host: String,
    seats: [(Option<PlayerRef>, Option<u8>); 4],
    match_seed: u64,
    started_ms: i64,
    /// Opponents who must accept a surrender: 1, the spec's online rule, for rooms made now;
    /// rooms stored before this field existed played by the unanimous rule (2).
    #[serde(default = "unanimous_surrender")]
    surrender_opponent_accepts: u8,
}

fn unanimous_surrender() -> u8 {
    guandan_core::rules::UNANIMOUS_SURRENDER
}

/// Online surrender (design spec): the partner agrees, then at least one opponent accepts.
const ONLINE_SURRENDER_OPPONENT_ACCEPTS: u8 = 1;

impl Stored {
    /// The room's rules: its preset with the room's surrender rule.
    fn rules(&self) -> Option<RuleConfig> {
        let rules = RuleConfig::preset(&self.preset)?;
        Some(RuleConfig { surrender_opponent_accepts: self.surrender_opponent_accepts, ..rules })
    }
}

#[derive(Default)]
struct Slot {
    player: Option<PlayerRef>,
    ai: Option<u8>,
    ready: bool,
    conn: Option<ConnId>,
    /// The human is gone since then; hosting starts a heartbeat timeout later.
    lost_at: Option<Instant>,
    hosted: bool,
    /// Intent checks: the last applied intent seq and recent nonces of this seat's connection.
    last_ack: Option<u64>,
    nonces: VecDeque<u64>,
    rematch: Option<bool>,
}

impl Slot {
    fn taken(&self) -> bool {
        self.player.is_some() || self.ai.is_some()
    }
}

struct Member {
    out: Outbox,
    seat: Option<Seat>,
}

/// Spectators see the match this many rounds late.
struct Delay {
    rounds: u32,
    /// Action counts at which a round ended.
    clear_points: Vec<u64>,
    /// Spectator messages not yet released: (action_seq, text).
    held: VecDeque<(u64, Arc<str>)>,
    released: u64,
}

struct Room {
    code: String,
    app: Arc<App>,
    tx: mpsc::Sender<RoomCmd>,
    state: RoomState,
    stored: Stored,
    rules: RuleConfig,
    slots: [Slot; 4],
    members: BTreeMap<ConnId, Member>,
    game: Option<Game>,
    /// The number the next stored match gets; it moves on when a match is stored, while `game`
    /// (the finished match) stays until the rematch vote closes.
    match_no: i64,
    /// The number of the match in `game`: its actions are stored under it.
    game_no: i64,
    delay: Delay,
    /// Bumped when a hosted seat returns: AI decisions asked for before are dropped.
    generation: u64,
    ready_deadline: Option<Instant>,
    vote_deadline: Option<Instant>,
    closing: bool,
}

fn ai_profile(level: u8) -> AiProfile {
    AiProfile::level(match level {
        1 => AiLevel::L1,
        3 => AiLevel::L3,
        _ => AiLevel::L2,
    })
}

/// The runtime's controllers for a room's seats (humans, AI seats at their level).
fn controllers(seats: &[(Option<PlayerRef>, Option<u8>); 4]) -> [Controller; 4] {
    std::array::from_fn(|i| match seats[i].1 {
        Some(level) => Controller::Ai(ai_profile(level)),
        None => Controller::Human,
    })
}

/// Turn clocks run on the server (a present human who does not act times out by the rules).
const CLOCKS: bool = true;
/// Nonces a seat's recent intents carried, refused if seen again (older ones are refused by
/// their seq, which must not go back).
const RECENT_NONCES: usize = 16;
/// How often the room advances the runtime's clocks.
const TICK: std::time::Duration = std::time::Duration::from_millis(500);

fn text(msg: &ServerMsg) -> Arc<str> {
    Arc::from(encode_server(msg))
}

/// Creates a room owned by this instance, with a fresh random code claimed in the directory.
pub async fn create(
    app: &Arc<App>,
    host: &PlayerRef,
    rules: Option<String>,
    spectator_delay: Option<u32>,
    seed: Option<u64>,
) -> Result<(String, mpsc::Sender<RoomCmd>), (ErrorCode, String)> {
    let preset = rules.unwrap_or_else(|| "competition".into());
    let stored = Stored {
        preset: preset.clone(),
        seed,
        host: host.id.clone(),
        surrender_opponent_accepts: ONLINE_SURRENDER_OPPONENT_ACCEPTS,
        ..Stored::default()
    };
    let Some(rule_config) = stored.rules() else {
        return Err((
            ErrorCode::BadArgument,
            format!("unknown rule preset {:?}", preset.chars().take(32).collect::<String>()),
        ));
    };
    let delay = spectator_delay.unwrap_or(DEFAULT_SPECTATOR_DELAY);
    if delay > 50 {
        return Err((ErrorCode::BadArgument, "spectator_delay is at most 50 rounds".into()));
    }
    let stored = Stored { spectator_delay: delay, ..stored };
    for _ in 0..8 {
        let code = crate::auth::new_room_code();
        let row = crate::db::RoomRow {
            code: code.clone(),
            instance: app.cfg.instance.clone(),
            url: app.public_url.lock().clone(),
            state: "idle".into(),
            config: serde_json::to_string(&stored).unwrap_or_default(),
            match_no: 0,
        };
        match app.db.claim_room(&row).await {
            Ok(true) => {
                let tx = spawn(app.clone(), code.clone(), stored, rule_config, RoomState::Idle, 0, None);
                return Ok((code, tx));
            }
            Ok(false) => continue,
            Err(e) => return Err((ErrorCode::Internal, e.to_string())),
        }
    }
    Err((ErrorCode::Internal, "no free room code".into()))
}

fn spawn(
    app: Arc<App>,
    code: String,
    stored: Stored,
    rules: RuleConfig,
    state: RoomState,
    match_no: i64,
    game: Option<Game>,
) -> mpsc::Sender<RoomCmd> {
    let (tx, rx) = mpsc::channel(256);
    let mut slots: [Slot; 4] = Default::default();
    for (slot, (player, ai)) in slots.iter_mut().zip(stored.seats.iter().cloned()) {
        slot.player = player;
        slot.ai = ai;
        // Restored humans are away until they reconnect.
        if slot.player.is_some() && game.is_some() {
            slot.lost_at = Some(Instant::now());
        }
    }
    let delay = Delay { rounds: stored.spectator_delay, clear_points: Vec::new(), held: VecDeque::new(), released: 0 };
    let mut room = Room {
        code: code.clone(),
        app: app.clone(),
        tx: tx.clone(),
        state,
        stored,
        rules,
        slots,
        members: BTreeMap::new(),
        game,
        match_no,
        game_no: match_no,
        delay,
        generation: 0,
        ready_deadline: None,
        vote_deadline: None,
        closing: false,
    };
    if let Some(g) = &mut room.game {
        room.delay.clear_points = round_points(g.rt_ref().log());
        g.forget_record();
        room.release_spectators();
    }
    app.rooms.lock().insert(code.clone(), tx.clone());
    app.metrics.rooms.fetch_add(1, Relaxed);
    let span = tracing::info_span!("room", code = %code);
    tokio::spawn(async move { room.run(rx).await }.instrument(span));
    tx
}

/// Action counts at which a round ended in a logged match (for a restored room's spectators).
fn round_points(log: &MatchLog) -> Vec<u64> {
    let mut points = Vec::new();
    let Ok((mut m, _)) = guandan_core::game::Match::new(log.header.seed, log.header.rules.clone()) else {
        return points;
    };
    for (i, a) in log.actions.iter().enumerate() {
        match m.apply(a) {
            Ok(events)
                if events.iter().any(|e| {
                    matches!(
                        e,
                        guandan_core::game::Event::TableCleared { .. } | guandan_core::game::Event::DealStarted { .. }
                    )
                }) =>
            {
                points.push(i as u64 + 1)
            }
            Ok(_) => {}
            Err(_) => break,
        }
    }
    points
}

/// Rebuilds every room this instance owned from the directory and the stored actions (restart).
pub async fn restore_rooms(app: &Arc<App>) -> Result<(), crate::db::DbError> {
    for row in app.db.rooms_of(&app.cfg.instance).await? {
        restore(app, &row).await?;
    }
    Ok(())
}

/// Rebuilds one room of the directory on this instance from its row and its stored actions: after
/// a restart, or when this instance took the room over from a dead one. A match goes on at the
/// same state hash (verified replay); a lobby comes back empty. `None` when the row cannot be
/// rebuilt (logged).
pub async fn restore(
    app: &Arc<App>,
    row: &crate::db::RoomRow,
) -> Result<Option<mpsc::Sender<RoomCmd>>, crate::db::DbError> {
    let Ok(stored) = serde_json::from_str::<Stored>(&row.config) else {
        tracing::error!(code = %row.code, "unreadable room config; skipped");
        return Ok(None);
    };
    let Some(rules) = stored.rules() else { return Ok(None) };
    let in_game = matches!(row.state.as_str(), "playing" | "hosting" | "reconnecting");
    let game = if in_game {
        let mut log = MatchLog::new(stored.match_seed, rules.clone());
        for a in app.db.actions(&row.code, row.match_no).await? {
            match serde_json::from_str(&a) {
                Ok(action) => log.actions.push(action),
                Err(e) => tracing::error!(code = %row.code, error = %e, "unreadable stored action"),
            }
        }
        match Game::resume(log, controllers(&stored.seats), CLOCKS) {
            Ok(g) => Some(g),
            Err(e) => {
                tracing::error!(code = %row.code, error = %e, "stored match does not replay; room dropped");
                return Ok(None);
            }
        }
    } else {
        None
    };
    // A restored match continues; a lobby comes back empty (its members are gone).
    let (state, stored) = if game.is_some() {
        (RoomState::Playing, stored)
    } else {
        (RoomState::Idle, Stored { seats: Default::default(), ..stored })
    };
    tracing::info!(code = %row.code, in_game = game.is_some(), "room restored");
    Ok(Some(spawn(app.clone(), row.code.clone(), stored, rules, state, row.match_no, game)))
}

impl Room {
    async fn run(&mut self, mut rx: mpsc::Receiver<RoomCmd>) {
        Box::pin(self.drive_ai()).await;
        let mut clock = tokio::time::interval(TICK);
        clock.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
        let mut last_tick = Instant::now();
        loop {
            let deadline = self.next_deadline();
            let cmd = tokio::select! {
                c = rx.recv() => c,
                _ = async { tokio::time::sleep_until(deadline.unwrap_or_else(Instant::now)).await }, if deadline.is_some() => {
                    Box::pin(self.on_timer()).await;
                    Box::pin(self.drive_ai()).await;
                    continue;
                }
                _ = clock.tick(), if self.state.in_game() => {
                    let now = Instant::now();
                    Box::pin(self.tick(now - last_tick)).await;
                    last_tick = now;
                    Box::pin(self.drive_ai()).await;
                    continue;
                }
            };
            let Some(cmd) = cmd else { break };
            match cmd {
                RoomCmd::Join { conn, player, out, last_action_seq } => {
                    Box::pin(self.join(conn, *player, out, last_action_seq)).await
                }
                RoomCmd::Spectate { conn, out } => Box::pin(self.spectate(conn, out)).await,
                RoomCmd::Msg { conn, out, msg, received } => {
                    if self.members.contains_key(&conn) {
                        Box::pin(self.message(conn, *msg, received)).await
                    } else {
                        self.reject_join(conn, out, ErrorCode::RoomNotFound, "you are not in this room");
                    }
                }
                RoomCmd::Gone { conn, silent_since, left } => Box::pin(self.gone(conn, silent_since, left)).await,
                RoomCmd::AiDone(result) => Box::pin(self.ai_done(*result)).await,
                RoomCmd::DriveAi => {}
                RoomCmd::Shutdown => {
                    self.closing = true;
                    break;
                }
            }
            if self.state == RoomState::Destroyed {
                break;
            }
            Box::pin(self.drive_ai()).await;
        }
        self.app.rooms.lock().remove(&self.code);
        self.app.metrics.rooms.fetch_sub(1, Relaxed);
    }

    fn next_deadline(&self) -> Option<Instant> {
        let hb = self.app.cfg.heartbeat_timeout();
        let mut d: Vec<Instant> = Vec::new();
        if self.state.in_game() {
            for s in &self.slots {
                if let (Some(at), false) = (s.lost_at, s.hosted) {
                    d.push(at + hb);
                }
            }
        }
        if self.in_lobby() {
            // A player who dropped out of a lobby keeps the seat for the lobby grace.
            let grace = self.app.cfg.lobby_grace();
            d.extend(
                self.slots
                    .iter()
                    .filter(|s| s.player.is_some() && s.conn.is_none())
                    .filter_map(|s| s.lost_at.map(|at| at + grace)),
            );
        }
        d.extend(self.ready_deadline);
        d.extend(self.vote_deadline);
        d.into_iter().min()
    }

    async fn on_timer(&mut self) {
        let now = Instant::now();
        let hb = self.app.cfg.heartbeat_timeout();
        if self.state.in_game() {
            for seat in 0..4u8 {
                let s = &mut self.slots[seat as usize];
                if s.lost_at.is_some_and(|at| at + hb <= now) && !s.hosted && s.player.is_some() {
                    s.hosted = true;
                    self.transition(RoomEvent::HeartbeatLost);
                    tracing::info!(seat, "seat hosted by the AI");
                    let profile = ai_profile(self.app.cfg.hosting_ai);
                    if let Some(g) = &mut self.game {
                        let notices = g.rt().set_controller(seat, Controller::Ai(profile));
                        self.announce(&notices, 0, seat, None).await;
                    }
                    self.broadcast(&ServerMsg::Hosting { seat, on: true });
                    self.send_room();
                }
            }
        }
        if self.in_lobby() {
            let grace = self.app.cfg.lobby_grace();
            let gone: Vec<Seat> = (0..4u8)
                .filter(|&i| {
                    let s = &self.slots[i as usize];
                    s.player.is_some() && s.conn.is_none() && s.lost_at.is_some_and(|at| at + grace <= now)
                })
                .collect();
            if !gone.is_empty() {
                for seat in gone {
                    tracing::info!(seat, "lobby seat freed: its player stayed away past the grace");
                    self.free_lobby_seat(seat);
                }
                self.send_room();
                self.save_directory().await;
            }
        }
        if self.ready_deadline.is_some_and(|d| d <= now) {
            self.ready_deadline = None;
            if self.transition(RoomEvent::ReadyTimeout) {
                for s in &mut self.slots {
                    s.ready = false;
                }
                self.send_room();
            }
        }
        if self.vote_deadline.is_some_and(|d| d <= now) {
            self.close_vote().await;
        }
    }

    /// Applies a lifecycle event; false (and no change) when the table refuses it.
    fn transition(&mut self, e: RoomEvent) -> bool {
        match next(self.state, e) {
            Some(s) => {
                if s != self.state {
                    tracing::debug!(from = ?self.state, to = ?s, event = ?e, "room state");
                }
                self.state = s;
                true
            }
            None => false,
        }
    }

    fn seat_of(&self, conn: ConnId) -> Option<Seat> {
        self.members.get(&conn).and_then(|m| m.seat)
    }

    fn send_to(&mut self, conn: ConnId, msg: Arc<str>) {
        let full = match self.members.get(&conn) {
            Some(m) => !m.out.send(msg),
            None => false,
        };
        if full {
            // Too slow (its connection closes with `slow_consumer`) or gone: it will rejoin and
            // catch up.
            self.drop_member(conn, Instant::now());
        }
    }

    /// A game message; one that asks its recipient to act grants the connection a prompt credit.
    fn send_game(&mut self, conn: ConnId, msg: &ServerMsg, t: Arc<str>) {
        if game::is_prompt(msg)
            && let Some(m) = self.members.get(&conn)
        {
            m.out.grant_prompt();
        }
        self.send_to(conn, t);
    }

    fn send_msg(&mut self, conn: ConnId, msg: &ServerMsg) {
        self.send_game(conn, msg, text(msg));
    }

    fn refuse(&mut self, conn: ConnId, code: ErrorCode, message: impl Into<String>, seq: Option<u64>) {
        let message = message.into();
        tracing::debug!(conn, ?code, %message, ?seq, "refused");
        self.app.metrics.protocol_errors.fetch_add(1, Relaxed);
        let msg = ServerMsg::Error { code: code.code(), name: code.name().into(), message, seq };
        self.send_msg(conn, &msg);
    }

    /// The same message to every seated member (and spectators when `spectators`).
    fn broadcast(&mut self, msg: &ServerMsg) {
        let t = text(msg);
        let conns: Vec<ConnId> = self.members.keys().copied().collect();
        for c in conns {
            self.send_to(c, t.clone());
        }
    }

    fn info(&self) -> RoomInfo {
        let host_seat =
            self.slots.iter().position(|s| s.player.as_ref().is_some_and(|p| p.id == self.stored.host)).unwrap_or(0)
                as Seat;
        RoomInfo {
            code: self.code.clone(),
            state: self.state,
            host_seat,
            rules: self.stored.preset.clone(),
            spectator_delay: self.stored.spectator_delay,
            seats: (0..4u8)
                .map(|i| {
                    let s = &self.slots[i as usize];
                    SeatInfo {
                        seat: i,
                        player: s.player.as_ref().map(|p| p.nickname.clone()),
                        ai: s.ai,
                        ready: s.ready,
                        connected: s.conn.is_some(),
                        hosted: s.hosted,
                    }
                })
                .collect(),
            spectators: self.members.values().filter(|m| m.seat.is_none()).count() as u32,
            locked: self.state.locked(),
            matches: self.match_no as u32,
            practice: false,
        }
    }

    fn send_room(&mut self) {
        let msg = ServerMsg::Room { room: self.info() };
        self.broadcast(&msg);
    }

    async fn save_directory(&self) {
        let state =
            serde_json::to_value(self.state).ok().and_then(|v| v.as_str().map(String::from)).unwrap_or_default();
        let config = serde_json::to_string(&self.stored).unwrap_or_default();
        match self.app.db.update_room(&self.code, &self.app.cfg.instance, &state, &config, self.match_no).await {
            Ok(true) => {}
            Ok(false) => tracing::warn!("room directory not updated: another instance took the room over"),
            Err(e) => tracing::error!(error = %e, "room directory update failed"),
        }
    }

    fn is_host(&self, conn: ConnId) -> bool {
        self.seat_of(conn)
            .and_then(|s| self.slots[s as usize].player.as_ref())
            .is_some_and(|p| p.id == self.stored.host)
    }

    async fn join(&mut self, conn: ConnId, player: PlayerRef, out: Outbox, last_action_seq: Option<u64>) {
        tracing::debug!(conn, player = %player.id, ?last_action_seq, seq = self.game.as_ref().map(Game::action_seq), "join");
        // Back to one's own seat (reconnect), even while the room is locked.
        if let Some(seat) = self.slots.iter().position(|s| s.player.as_ref().is_some_and(|p| p.id == player.id)) {
            let seat = seat as Seat;
            if let Some(old) = self.slots[seat as usize].conn.take() {
                self.members.remove(&old);
            }
            self.members.insert(conn, Member { out, seat: Some(seat) });
            let was_hosted;
            {
                let s = &mut self.slots[seat as usize];
                s.conn = Some(conn);
                s.lost_at = None;
                was_hosted = s.hosted;
                s.hosted = false;
                s.last_ack = None;
                s.nonces.clear();
            }
            self.send_msg(conn, &ServerMsg::Joined { code: self.code.clone(), seat: Some(seat) });
            if was_hosted {
                self.transition(RoomEvent::Reconnect);
            }
            // What was missed first, then the seat is the human's again.
            self.catch_up(conn, seat, last_action_seq).await;
            if self.state == RoomState::VotePhase {
                // Back after the end: the match was stored (the old connection may have missed it).
                let stored = ServerMsg::MatchStored { code: self.code.clone(), match_no: (self.match_no - 1) as u32 };
                self.send_msg(conn, &stored);
            }
            if was_hosted {
                // An AI decision computed but not applied yet is dropped (the runtime forgets it,
                // and its generation is stale); applied ones stand. The AI never acts for a
                // human seat, so no AI move follows the return (the spec's 2 s grace holds for
                // as long as the human stays).
                self.generation += 1;
                if let Some(g) = &mut self.game {
                    let notices = g.rt().set_controller(seat, Controller::Human);
                    self.announce(&notices, 0, seat, None).await;
                }
                let still = self.slots.iter().any(|s| s.hosted);
                self.transition(if still { RoomEvent::CaughtUpStillHosting } else { RoomEvent::CaughtUp });
                self.broadcast(&ServerMsg::Hosting { seat, on: false });
            }
            self.send_room();
            return;
        }
        if self.state.locked() {
            return self.reject_join(conn, out, ErrorCode::RoomLocked, "the room is locked while a match runs");
        }
        let Some(seat) = self.slots.iter().position(|s| !s.taken()) else {
            return self.reject_join(conn, out, ErrorCode::RoomFull, "every seat is taken");
        };
        if !self.transition(RoomEvent::Join) {
            return self.reject_join(conn, out, ErrorCode::BadRoomState, "the room takes no players now");
        }
        let s = &mut self.slots[seat];
        s.player = Some(player);
        s.conn = Some(conn);
        s.ready = false;
        self.members.insert(conn, Member { out, seat: Some(seat as Seat) });
        self.send_msg(conn, &ServerMsg::Joined { code: self.code.clone(), seat: Some(seat as Seat) });
        self.after_seating();
        self.save_directory().await;
    }

    fn reject_join(&mut self, conn: ConnId, out: Outbox, code: ErrorCode, message: &str) {
        self.app.metrics.protocol_errors.fetch_add(1, Relaxed);
        let _ = out.send(text(&ServerMsg::error(code, message)));
        let _ = conn;
    }

    /// WAITING → READY_CHECK once every seat is taken.
    fn after_seating(&mut self) {
        if self.slots.iter().all(Slot::taken) && self.transition(RoomEvent::Full) {
            self.ready_deadline = Some(Instant::now() + self.app.cfg.ready_timeout());
        }
        self.send_room();
    }

    /// The whole record of the match in progress: the runtime keeps only what is not stored
    /// yet, and everything applied is stored before it is announced, so the database has it all.
    async fn record(&self) -> Option<MatchLog> {
        let g = self.game.as_ref()?;
        self.app.metrics.log_replays.fetch_add(1, Relaxed);
        let lines = match self.app.db.actions(&self.code, self.game_no).await {
            Ok(lines) => lines,
            Err(e) => {
                tracing::error!(error = %e, "reading the stored actions failed");
                return None;
            }
        };
        g.record(&lines).map_err(|e| tracing::error!(error = %e, "stored actions are not the match")).ok()
    }

    /// Sends what a returning seat missed, or its full state.
    async fn catch_up(&mut self, conn: ConnId, seat: Seat, last: Option<u64>) {
        let Some(seq) = self.game.as_ref().map(Game::action_seq) else { return };
        let msgs = match last {
            Some(n) if n < seq && seq - n <= 256 => {
                self.record().await.and_then(|log| Game::catch_up(&log, n, Viewer::Seat(seat)))
            }
            Some(n) if n == seq => Some(Vec::new()),
            _ => None,
        };
        let Some(g) = &self.game else { return };
        let msgs = match msgs {
            Some(m) if !m.is_empty() => m,
            _ => vec![g.state_msg(Viewer::Seat(seat))],
        };
        for m in &msgs {
            self.send_msg(conn, m);
        }
    }

    async fn spectate(&mut self, conn: ConnId, out: Outbox) {
        if self.members.values().filter(|m| m.seat.is_none()).count() >= MAX_SPECTATORS {
            return self.reject_join(conn, out, ErrorCode::RoomFull, "50 spectators already watch");
        }
        let first = !self.members.values().any(|m| m.seat.is_none());
        self.members.insert(conn, Member { out, seat: None });
        self.send_msg(conn, &ServerMsg::Joined { code: self.code.clone(), seat: None });
        // From the latest released round: the delayed table, never a hand.
        if let Some(log) = self.record().await {
            let released = self.delay.released;
            if first {
                // Nobody watched, so nothing was held: rebuild what is not released yet.
                self.delay.held = Game::catch_up(&log, released, Viewer::Spectator)
                    .unwrap_or_default()
                    .iter()
                    .enumerate()
                    .map(|(i, m)| (released + i as u64 + 1, text(m)))
                    .collect();
            }
            if let Some(msg) = Game::spectator_state_at(&log, released) {
                self.send_msg(conn, &msg);
            }
        }
        self.send_room();
    }

    async fn gone(&mut self, conn: ConnId, silent_since: Instant, left: bool) {
        if !self.members.contains_key(&conn) {
            return;
        }
        if left && !self.state.locked() {
            // Leaving a lobby frees the seat.
            if let Some(seat) = self.seat_of(conn) {
                self.free_lobby_seat(seat);
            }
            self.members.remove(&conn);
            self.send_room();
            self.save_directory().await;
            return;
        }
        self.drop_member(conn, silent_since);
        self.send_room();
    }

    /// A lobby seat becomes free (its player left, or stayed away past the lobby grace).
    fn free_lobby_seat(&mut self, seat: Seat) {
        self.slots[seat as usize] = Slot::default();
        let e = if self.slots.iter().any(|s| s.player.is_some()) { RoomEvent::Leave } else { RoomEvent::Emptied };
        self.transition(e);
        if self.state != RoomState::ReadyCheck {
            self.ready_deadline = None;
        }
    }

    /// Whether the room is a lobby (seats are taken and freed, no match runs).
    fn in_lobby(&self) -> bool {
        matches!(self.state, RoomState::Waiting | RoomState::ReadyCheck)
    }

    fn drop_member(&mut self, conn: ConnId, silent_since: Instant) {
        tracing::debug!(conn, "member dropped");
        if let Some(m) = self.members.remove(&conn)
            && let Some(seat) = m.seat
        {
            let s = &mut self.slots[seat as usize];
            if s.conn == Some(conn) {
                s.conn = None;
                s.lost_at = Some(silent_since);
            }
        }
    }

    async fn message(&mut self, conn: ConnId, msg: ClientMsg, received: Instant) {
        if !self.members.contains_key(&conn) {
            return;
        }
        match msg {
            ClientMsg::Intent { seq, nonce, action } => self.intent(conn, seq, nonce, action, received).await,
            ClientMsg::Resync => {
                let msg = match (&self.game, self.seat_of(conn)) {
                    (Some(g), Some(seat)) => Some(g.state_msg(Viewer::Seat(seat))),
                    (Some(_), None) => {
                        self.record().await.and_then(|log| Game::spectator_state_at(&log, self.delay.released))
                    }
                    (None, _) => None,
                };
                match msg {
                    Some(m) => self.send_msg(conn, &m),
                    None => self.send_room_to(conn),
                }
            }
            ClientMsg::SetSeat { seat, setting } => self.set_seat(conn, seat, setting).await,
            ClientMsg::Ready { ready } => {
                let Some(seat) = self.seat_of(conn) else {
                    return self.refuse(conn, ErrorCode::NotYourSeat, "spectators have no seat", None);
                };
                if !ready {
                    self.slots[seat as usize].ready = false;
                    return self.send_room();
                }
                if !self.transition(RoomEvent::Ready) {
                    return self.refuse(conn, ErrorCode::BadRoomState, "no ready check now", None);
                }
                self.slots[seat as usize].ready = true;
                self.send_room();
            }
            ClientMsg::Start => self.start(conn).await,
            ClientMsg::Rematch { accept } => self.rematch(conn, accept).await,
            ClientMsg::Disband => {
                if !self.is_host(conn) {
                    return self.refuse(conn, ErrorCode::NotHost, "only the host may disband", None);
                }
                if !self.transition(RoomEvent::Disband) {
                    return self.refuse(conn, ErrorCode::BadRoomState, "a match is running", None);
                }
                self.send_room();
                if let Err(e) = self.app.db.delete_room(&self.code).await {
                    tracing::error!(error = %e, "room delete failed");
                }
            }
            ClientMsg::Leave => self.gone(conn, received, true).await,
            ClientMsg::ChangeSeat { seat } => self.change_seat(conn, seat).await,
            ClientMsg::AutoPlay { on } => self.auto_play(conn, on).await,
            // Handled by the connection.
            ClientMsg::Hello { .. }
            | ClientMsg::Heartbeat
            | ClientMsg::CreateRoom { .. }
            | ClientMsg::JoinRoom { .. }
            | ClientMsg::Spectate { .. } => {}
        }
    }

    fn send_room_to(&mut self, conn: ConnId) {
        let msg = ServerMsg::Room { room: self.info() };
        self.send_msg(conn, &msg);
    }

    async fn set_seat(&mut self, conn: ConnId, seat: Seat, setting: SeatSetting) {
        if !self.is_host(conn) {
            return self.refuse(conn, ErrorCode::NotHost, "only the host sets seats", None);
        }
        if self.state.locked() {
            return self.refuse(conn, ErrorCode::RoomLocked, "seats are fixed while a match runs", None);
        }
        if seat > 3 {
            return self.refuse(conn, ErrorCode::BadArgument, "seat is 0-3", None);
        }
        if self.slots[seat as usize].player.is_some() {
            return self.refuse(conn, ErrorCode::NotYourSeat, "a player sits there", None);
        }
        match setting {
            SeatSetting::Ai { level } if (1..=3).contains(&level) => {
                if self.transition(RoomEvent::Join) {
                    self.slots[seat as usize].ai = Some(level);
                    self.after_seating();
                } else if self.state == RoomState::ReadyCheck {
                    self.slots[seat as usize].ai = Some(level);
                    self.send_room();
                } else {
                    self.refuse(conn, ErrorCode::BadRoomState, "not now", None);
                }
            }
            SeatSetting::Ai { .. } => self.refuse(conn, ErrorCode::BadArgument, "AI level is 1-3", None),
            SeatSetting::Open => {
                if self.slots[seat as usize].ai.take().is_some() {
                    self.transition(RoomEvent::Leave);
                    self.ready_deadline = None;
                }
                self.send_room();
            }
        }
    }

    async fn start(&mut self, conn: ConnId) {
        if !self.is_host(conn) {
            return self.refuse(conn, ErrorCode::NotHost, "only the host starts", None);
        }
        if self.state != RoomState::ReadyCheck {
            return self.refuse(conn, ErrorCode::BadRoomState, "every seat must be taken first", None);
        }
        if self.slots.iter().any(|s| s.player.is_some() && !s.ready) {
            return self.refuse(conn, ErrorCode::BadRoomState, "not every player is ready", None);
        }
        let seed = match self.stored.seed {
            Some(s) => s.wrapping_add(self.match_no as u64),
            None => u64::from_le_bytes(crate::auth::random_bytes::<8>()),
        };
        let seats: [(Option<PlayerRef>, Option<u8>); 4] =
            std::array::from_fn(|i| (self.slots[i].player.clone(), self.slots[i].ai));
        let cfg = RuntimeConfig { seed, rules: self.rules.clone(), seats: controllers(&seats), clocks: CLOCKS };
        let (game, notices) = match Game::start(cfg) {
            Ok(x) => x,
            Err(e) => return self.refuse(conn, ErrorCode::Internal, e.to_string(), None),
        };
        self.transition(RoomEvent::Start);
        self.ready_deadline = None;
        self.stored.match_seed = seed;
        self.stored.started_ms = crate::db::now_ms();
        self.stored.seats = seats;
        for s in &mut self.slots {
            s.last_ack = None;
            s.nonces.clear();
            s.rematch = None;
        }
        self.delay =
            Delay { rounds: self.stored.spectator_delay, clear_points: Vec::new(), held: VecDeque::new(), released: 0 };
        self.game = Some(game);
        self.game_no = self.match_no;
        self.save_directory().await;
        let _ = notices;
        self.send_room();
        let conns: Vec<(ConnId, Option<Seat>)> = self.members.iter().map(|(c, m)| (*c, m.seat)).collect();
        for (c, seat) in conns {
            let msg = match (&self.game, seat) {
                (Some(g), Some(s)) => g.state_msg(Viewer::Seat(s)),
                (Some(g), None) => match g.record(&[]).ok().and_then(|log| Game::spectator_state_at(&log, 0)) {
                    Some(m) => m,
                    None => continue,
                },
                _ => continue,
            };
            self.send_msg(c, &msg);
        }
    }

    async fn intent(&mut self, conn: ConnId, seq: u64, nonce: u64, action: ActionKind, received: Instant) {
        let Some(seat) = self.seat_of(conn) else {
            return self.refuse(conn, ErrorCode::NotYourSeat, "spectators cannot act", Some(seq));
        };
        let Some(next_seq) = self.game.as_ref().map(Game::action_seq) else {
            return self.refuse(conn, ErrorCode::BadRoomState, "no match is running", Some(seq));
        };
        if !self.state.in_game() {
            return self.refuse(conn, ErrorCode::BadRoomState, "the match is over", Some(seq));
        }
        let slot = &self.slots[seat as usize];
        if slot.hosted {
            return self.refuse(conn, ErrorCode::NotHuman, "the AI hosts this seat", Some(seq));
        }
        if slot.nonces.contains(&nonce) || slot.last_ack == Some(seq) {
            return self.refuse(conn, ErrorCode::DuplicateSeq, "this seq or nonce was already used", Some(seq));
        }
        // Tribute and return duties run side by side (two payers, two receivers): an intent made
        // for the state before the other seat's gift still stands if its duty is unchanged.
        let side_by_side = matches!(action, ActionKind::Tribute { .. } | ActionKind::Return { .. })
            && self.game.as_ref().is_some_and(|g| g.state().to_act().contains(&seat));
        if slot.last_ack.is_some_and(|a| seq < a) || (seq < next_seq && !side_by_side) {
            return self.refuse(
                conn,
                ErrorCode::StaleSeq,
                format!("seq {seq} is stale: next is {next_seq}"),
                Some(seq),
            );
        }
        if seq > next_seq {
            return self.refuse(
                conn,
                ErrorCode::StateConflict,
                format!("seq {seq} is ahead: next is {next_seq}"),
                Some(seq),
            );
        }
        if matches!(action, ActionKind::Timeout | ActionKind::TimeUp) {
            return self.refuse(conn, ErrorCode::BadArgument, "timeouts are the server's", Some(seq));
        }
        match self.apply(seat, action, received).await {
            Ok(()) => {
                let s = &mut self.slots[seat as usize];
                s.last_ack = Some(seq);
                s.nonces.push_back(nonce);
                if s.nonces.len() > RECENT_NONCES {
                    s.nonces.pop_front();
                }
            }
            Err((code, message)) => self.refuse(conn, code, message, Some(seq)),
        }
    }

    /// A human's action: the runtime checks it; then it is persisted and announced.
    async fn apply(&mut self, seat: Seat, kind: ActionKind, received: Instant) -> Result<(), (ErrorCode, String)> {
        let Some(g) = &mut self.game else { return Err((ErrorCode::NoMatch, "no match".into())) };
        let before = g.action_seq();
        let notices = g.act(seat, kind).map_err(|e| (e.code(), e.to_string()))?;
        self.persist_and_announce(before, notices, seat, received).await;
        Ok(())
    }

    /// Writes the actions the runtime applied since `before` to the journal, then sends every
    /// member what it may see. When the write fails nothing is announced and the room stops: its
    /// match is restored from the durable log by the next start of this instance.
    async fn persist_and_announce(&mut self, before: u64, notices: Vec<Notice>, seat: Seat, received: Instant) {
        let Some(g) = &mut self.game else { return };
        let new = g.take_unsaved();
        debug_assert_eq!(new.first().map_or(before, |r| r.0), before);
        let actor = new.last().map_or(seat, |r| r.1);
        let count = new.len() as u32;
        let rows: Vec<(u64, String)> = new.into_iter().map(|(seq, _, line)| (seq, line)).collect();
        if !rows.is_empty()
            && let Err(e) = self.app.journal.append(&self.code, self.game_no, rows).await
        {
            tracing::error!(error = %e, "action not stored: room stops");
            self.broadcast(&ServerMsg::error(ErrorCode::Internal, "storage failed; rejoin in a moment"));
            self.state = RoomState::Destroyed;
            return;
        }
        self.announce(&notices, count, actor, None).await;
        for _ in 0..count {
            self.app.metrics.action(received.elapsed());
        }
    }

    /// Sends notices to every member (or one connection), filtered by the runtime per
    /// recipient; spectators get theirs delayed.
    async fn announce(&mut self, notices: &[Notice], actions: u32, seat: Seat, only: Option<ConnId>) {
        let Some(g) = &self.game else { return };
        // One hash per step: it serializes the whole match, and every recipient gets the same.
        let hash = g.state().state_hash();
        let over = g.state().is_over();
        let mut out: Vec<(ConnId, ServerMsg)> = Vec::with_capacity(self.members.len());
        let mut spectators = false;
        for (c, mem) in &self.members {
            let Some(s) = mem.seat else {
                spectators = true;
                continue;
            };
            if only.is_some_and(|o| o != *c) {
                continue;
            }
            let prompt = !over && g.rt_ref().controller(s).is_some_and(|c| !c.is_ai());
            out.push((*c, g.applied_msg_hashed(notices, actions, seat, Viewer::Seat(s), prompt, &hash)));
        }
        let seq = g.action_seq();
        // Spectators' messages are made (and held for the delay) only while someone watches; a
        // spectator who arrives later gets them rebuilt from the log (`spectate`).
        let spect =
            spectators.then(|| text(&g.applied_msg_hashed(notices, actions, seat, Viewer::Spectator, false, &hash)));
        for (c, m) in out {
            self.send_msg(c, &m);
        }
        if only.is_some() {
            return;
        }
        match spect {
            Some(t) => self.delay.held.push_back((seq, t)),
            None => self.delay.held.clear(),
        }
        if game::ends_round(notices) {
            self.delay.clear_points.push(seq);
        }
        if over {
            self.delay.released = seq;
        }
        self.release_spectators();
        if over && self.state.in_game() {
            self.finish().await;
        }
    }

    /// Sends spectators what is at least `rounds` rounds old.
    fn release_spectators(&mut self) {
        let n = self.delay.rounds as usize;
        let pts = &self.delay.clear_points;
        let point = if n == 0 {
            self.game.as_ref().map_or(0, Game::action_seq)
        } else if pts.len() >= n {
            pts[pts.len() - n]
        } else {
            0
        };
        self.delay.released = self.delay.released.max(point);
        let spectators: Vec<ConnId> = self.members.iter().filter(|(_, m)| m.seat.is_none()).map(|(c, _)| *c).collect();
        while self.delay.held.front().is_some_and(|(seq, _)| *seq <= self.delay.released) {
            let Some((_, t)) = self.delay.held.pop_front() else { break };
            for c in &spectators {
                self.send_to(*c, t.clone());
            }
        }
    }

    /// FINISHED: store the match in the replay format with its metadata and update stats, then
    /// open the rematch vote.
    async fn finish(&mut self) {
        self.transition(RoomEvent::MatchEnded);
        let Some(g) = &self.game else { return };
        let m = g.state();
        let outcome = m.outcome();
        let winner_team = outcome.and_then(|o| o.winner()).map(|t| t.index() as u8);
        let meta = serde_json::json!({
            "room": self.code,
            "match_no": self.match_no,
            "seed": self.stored.match_seed,
            "rules": self.stored.preset,
            "players": self.stored.seats.iter().map(|(p, ai)| serde_json::json!({
                "player": p.as_ref().map(|p| &p.nickname), "player_id": p.as_ref().map(|p| &p.id), "ai": ai,
            })).collect::<Vec<_>>(),
            "duration_ms": crate::db::now_ms() - self.stored.started_ms,
            "deals": m.deal_no() + 1,
            "rounds": self.delay.clear_points.len(),
            "actions": g.action_seq(),
            "winner_team": winner_team,
            "outcome": outcome,
            "state_hash": m.state_hash(),
        });
        let results: Vec<(String, bool, bool)> = self
            .stored
            .seats
            .iter()
            .enumerate()
            .filter_map(|(i, (p, _))| {
                p.as_ref().map(|p| (p.id.clone(), winner_team == Some((i % 2) as u8), winner_team.is_none()))
            })
            .collect();
        // The record is read back from the stored actions (the runtime keeps only the unsaved).
        match self.record().await {
            Some(log) => {
                let log = log.to_jsonl();
                if let Err(e) =
                    self.app.db.finish_match(&self.code, self.game_no, &meta.to_string(), &log, &results).await
                {
                    tracing::error!(error = %e, "storing the finished match failed");
                }
            }
            None => tracing::error!("the finished match's record could not be read back; not stored"),
        }
        self.app.metrics.matches_finished.fetch_add(1, Relaxed);
        let stored = ServerMsg::MatchStored { code: self.code.clone(), match_no: self.match_no as u32 };
        self.match_no += 1;
        self.broadcast(&stored);
        self.transition(RoomEvent::OpenVote);
        self.vote_deadline = Some(Instant::now() + self.app.cfg.vote_timeout());
        self.save_directory().await;
        self.send_room();
    }

    async fn rematch(&mut self, conn: ConnId, accept: bool) {
        let Some(seat) = self.seat_of(conn) else {
            return self.refuse(conn, ErrorCode::NotYourSeat, "spectators do not vote", None);
        };
        if self.state != RoomState::VotePhase {
            return self.refuse(conn, ErrorCode::BadRoomState, "no vote is open", None);
        }
        self.slots[seat as usize].rematch = Some(accept);
        let humans = self.slots.iter().filter(|s| s.player.is_some());
        if humans.clone().all(|s| s.rematch.is_some()) {
            self.close_vote().await;
        } else {
            self.send_room();
        }
    }

    /// VOTE_PHASE → IDLE: the room unlocks; players who declined (or did not vote) leave their
    /// seats, the rest wait for the next ready check.
    async fn close_vote(&mut self) {
        self.vote_deadline = None;
        if !self.transition(RoomEvent::VoteClosed) {
            return;
        }
        self.game = None;
        for i in 0..4 {
            let s = &mut self.slots[i];
            s.ready = false;
            s.hosted = false;
            if s.player.is_some() && (s.rematch != Some(true) || s.conn.is_none()) {
                if let Some(c) = s.conn
                    && let Some(m) = self.members.get_mut(&c)
                {
                    m.seat = None;
                }
                self.slots[i] = Slot::default();
            }
        }
        for s in &mut self.slots {
            s.rematch = None;
        }
        if self.slots.iter().any(|s| s.player.is_some()) {
            self.transition(RoomEvent::Join);
            self.after_seating();
        } else {
            self.send_room();
        }
        self.save_directory().await;
    }

    async fn ai_done(&mut self, result: AiResult) {
        let Some(g) = &mut self.game else { return };
        if result.generation != self.generation || !self.state.in_game() {
            return;
        }
        let before = g.action_seq();
        let seat = result.seat;
        // Stale results (the state moved on, the seat went back to its human) give nothing.
        let notices = g.rt().ai_result(result);
        if !notices.is_empty() {
            self.persist_and_announce(before, notices, seat, Instant::now()).await;
        }
    }

    /// Advances the turn and match clocks.
    async fn tick(&mut self, elapsed: std::time::Duration) {
        let Some(g) = &mut self.game else { return };
        let before = g.action_seq();
        match g.rt().tick(elapsed) {
            Ok(notices) if !notices.is_empty() => {
                let seat = g.rt_ref().log().actions.last().map_or(0, |a| a.seat);
                self.persist_and_announce(before, notices, seat, Instant::now()).await;
            }
            Ok(_) => {}
            Err(e) => tracing::error!(error = %e, "clock action refused"),
        }
    }

    /// Makes the due AI decisions: L1/L2 take microseconds and are decided right here, one
    /// after another; an L3 decision goes to tokio's blocking pool (one at a time per room) and
    /// comes back as a command.
    async fn drive_ai(&mut self) {
        // Bounded so that a room of AI seats still lets its other commands in now and then.
        for _ in 0..64 {
            if !self.state.in_game() || self.closing {
                return;
            }
            let generation = self.generation;
            let Some(g) = &mut self.game else { return };
            let Some(request) = g.rt().ai_request(generation) else { return };
            if matches!(request.profile.level, AiLevel::L3) {
                let tx = self.tx.clone();
                tokio::task::spawn_blocking(move || {
                    let result = guandan_ai::service::decide(&request, AI_HARD_LIMIT);
                    let _ = tx.blocking_send(RoomCmd::AiDone(Box::new(result)));
                });
                return;
            }
            let result = guandan_ai::service::decide(&request, AI_HARD_LIMIT);
            self.ai_done(result).await;
        }
        // More AI work is due: continue after the commands that queued up meanwhile.
        let _ = self.tx.try_send(RoomCmd::DriveAi);
    }
}

/// Longest an AI decision may take before the easy level answers instead.
const AI_HARD_LIMIT: std::time::Duration = std::time::Duration::from_secs(5);

#[cfg(test)]
mod tests {
    /// A room's queue allocates its slots 32 at a time, each as large as the largest command:
    /// a large command would cost every room kilobytes.
    #[test]
    fn a_room_command_stays_small() {
        let size = std::mem::size_of::<super::RoomCmd>();
        assert!(size <= 64, "RoomCmd is {size} bytes: box the large variant");
    }
}
