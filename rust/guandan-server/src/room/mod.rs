//! One room: a tokio task that handles its commands one at a time. The room is made of parts,
//! each a struct that owns its state and is changed only in its own file (the others go through
//! its methods): the settings (stored.rs), the seats (seats.rs), the members (members.rs), the
//! lobby's clocks (lobby.rs), the match (play.rs) and its pace (pace.rs), the spectators' delay
//! (spectators.rs), the rematch vote (rematch.rs) and the seat holds (claims.rs); this file
//! owns the lifecycle state and the room's end. Lifecycle transitions go through
//! [`crate::lifecycle`]; every action is checked by the rules core, written to the journal, and
//! only then sent — filtered — to each member. AI seats and hosted seats are decided on tokio's
//! blocking pool; results come back as commands and are dropped when the state moved on.

use crate::App;
use crate::game::{self, Game};
use crate::lifecycle::{RoomEvent, RoomState, next};
use guandan_ai::service::AiResult;
use guandan_ai::{AiLevel, AiProfile};
use guandan_core::game::{ActionKind, Seat, Team};
use guandan_core::log::MatchLog;
use guandan_core::rules::RuleConfig;
use guandan_proto::{
    ClientMsg, DEFAULT_SPECTATOR_DELAY, ErrorCode, MAX_SPECTATORS, RoomClosed, RoomInfo, SeatInfo, SeatSetting,
    ServerMsg, encode_server,
};
use guandan_runtime::{Controller, Notice, RuntimeConfig, SurrenderPolicy, Viewer};
use serde::{Deserialize, Serialize};
use std::collections::{BTreeMap, VecDeque};
use std::sync::Arc;
use tokio::sync::mpsc;
use tokio::time::Instant;
use tracing::Instrument;

mod claims;
mod lobby;
mod members;
#[cfg(test)]
mod ownership;
mod pace;
mod play;
mod rematch;
mod restore;
mod seating;
mod seats;
mod spectators;
mod stored;

use claims::Claims;
use lobby::Lobby;
pub use lobby::{create, create_quick};
use members::Members;
use pace::Pace;
use play::Play;
use rematch::Rematch;
pub use restore::{restore, restore_rooms};
use seats::Seats;
use spectators::Delay;
use stored::{ONLINE_SURRENDER_OPPONENT_ACCEPTS, Stored};

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
    /// The connection closed (`left`: by a `leave`), or went silent at `silent_since`. `done`
    /// is dropped once the room has handled it (and, if that emptied it, closed).
    Gone {
        conn: ConnId,
        silent_since: Instant,
        left: bool,
        done: Option<tokio::sync::oneshot::Sender<()>>,
    },
    AiDone(Box<AiResult>),
    /// Go on with due AI decisions (after a long run of them).
    DriveAi,
    /// A quick-match table whose players were all claimed from the queue: its match starts.
    BeginQuick,
    /// A quick-match table whose players could not all be claimed: it closes unplayed.
    Abandon,
    Shutdown,
}

struct Room {
    // These four are set when the room is spawned and never changed.
    code: String,
    app: Arc<App>,
    tx: mpsc::Sender<RoomCmd>,
    rules: RuleConfig,
    /// The lifecycle state, changed only by `transition` and `stop` (here).
    state: RoomState,
    /// The room is shutting down with its instance (here).
    closing: bool,
    /// Why the room closed, once it has (sent with its last `room`; here).
    closed: Option<guandan_proto::RoomClosed>,
    /// The settings and lineup the directory keeps (stored.rs; the lobby changes them).
    stored: Stored,
    /// Who sits where (seats.rs).
    seats: Seats,
    /// Who is in the room and what they are sent (members.rs).
    members: Members,
    /// The ready check's deadline, how long the room has been empty (lobby.rs).
    lobby: Lobby,
    /// The match and its numbers in the store, its open surrender vote (play.rs).
    play: Play,
    /// The AI seats' timing, the break after a deal (pace.rs).
    pace: Pace,
    /// What spectators are sent and when (spectators.rs).
    delay: Delay,
    /// The rematch vote after a match (rematch.rs).
    rematch: Rematch,
    /// The room's holds on its players' seats, one seat per account (claims.rs).
    claims: Claims,
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

/// How the room's AI seats vote on a surrender and how often a team may propose: one proposal
/// per team and deal in every room (a proposal makes every human answer, and no room wants them
/// spammed); in a ranked room the queue's AI never agrees and a stand-in follows its partner.
fn surrender_policy(stored: &Stored) -> SurrenderPolicy {
    if stored.ranked { SurrenderPolicy::RANKED } else { SurrenderPolicy::ONLINE }
}

/// Turn clocks run on the server (a present human who does not act times out by the rules).
const CLOCKS: bool = true;
/// How often the room advances the runtime's clocks.
const TICK: std::time::Duration = std::time::Duration::from_millis(500);
/// The most one tick advances the clocks: a longer gap means the room was not running (the
/// server stalled or was paused, or no match ran), and that time is nobody's thinking time.
const MAX_TICK_STEP: std::time::Duration = std::time::Duration::from_millis(1000);

fn text(msg: &ServerMsg) -> Arc<str> {
    Arc::from(encode_server(msg))
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
    // Restored humans are away until they reconnect.
    let seats = Seats::from_stored(&stored.seats, game.is_some());
    // A restored match: the spectators' view is rebuilt from its record. The setting cannot
    // change while a match runs: it is the one the match started with.
    let delay = match &game {
        Some(g) => Delay::replayed(stored.spectator_delay, stored.spectator_viewer(), g.rt_ref().log()),
        None => Delay::new(stored.spectator_delay, stored.spectator_viewer()),
    };
    let restored = game.is_some();
    let play = Play::new(match_no, game, surrender_policy(&stored));
    let mut room = Room {
        code: code.clone(),
        app: app.clone(),
        tx: tx.clone(),
        rules,
        state,
        closing: false,
        closed: None,
        stored,
        seats,
        members: Members::default(),
        lobby: Lobby::new(),
        play,
        pace: Pace::new(),
        delay,
        rematch: Rematch::default(),
        claims: Claims::default(),
    };
    if restored {
        room.release_spectators();
    }
    app.rooms().lock().insert(code.clone(), tx.clone());
    app.metrics().rooms.inc();
    app.metrics().rooms_created.inc();
    let span = tracing::info_span!("room", code = %code);
    tokio::spawn(async move { room.run(rx).await }.instrument(span));
    tx
}

impl Room {
    async fn run(&mut self, mut rx: mpsc::Receiver<RoomCmd>) {
        self.sync_seats().await;
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
                    if self.state == RoomState::Destroyed {
                        break;
                    }
                    self.sync_seats().await;
                    Box::pin(self.drive_ai()).await;
                    continue;
                }
                _ = clock.tick(), if self.state.in_game() => {
                    let now = Instant::now();
                    Box::pin(self.tick((now - last_tick).min(MAX_TICK_STEP))).await;
                    last_tick = now;
                    if self.state == RoomState::Destroyed {
                        break;
                    }
                    // A seat another room held is tried again at each tick.
                    self.claims.retry_conflicts();
                    self.sync_seats().await;
                    Box::pin(self.drive_ai()).await;
                    continue;
                }
            };
            let Some(cmd) = cmd else { break };
            // Dropped after the command is handled (after the room closed, if it did).
            let mut ack = None;
            match cmd {
                RoomCmd::Join { conn, player, out, last_action_seq } => {
                    Box::pin(self.join(conn, *player, out, last_action_seq)).await
                }
                RoomCmd::Spectate { conn, out } => Box::pin(self.spectate(conn, out)).await,
                RoomCmd::Msg { conn, out, msg, received } => {
                    if self.members.contains(conn) {
                        Box::pin(self.message(conn, *msg, received)).await
                    } else {
                        self.reject_join(conn, out, ErrorCode::RoomNotFound, "you are not in this room");
                    }
                }
                RoomCmd::Gone { conn, silent_since, left, done } => {
                    Box::pin(self.gone(conn, silent_since, left)).await;
                    ack = done;
                }
                RoomCmd::AiDone(result) => Box::pin(self.ai_done(*result)).await,
                RoomCmd::DriveAi => {}
                RoomCmd::BeginQuick => Box::pin(self.begin_quick()).await,
                RoomCmd::Abandon => {
                    // Its quick-match players were seated elsewhere.
                    Box::pin(self.close_abandoned(RoomClosed::NotStarted)).await;
                }
                RoomCmd::Shutdown => {
                    self.closing = true;
                    break;
                }
            }
            if self.state == RoomState::Destroyed {
                self.refuse_queued(&mut rx);
                self.ended().await;
                drop(ack);
                return;
            }
            // Before the ack: a connection that left waits for it, then may sit elsewhere.
            self.sync_seats().await;
            drop(ack);
            self.lobby.members_now(!self.members.is_empty());
            Box::pin(self.drive_ai()).await;
        }
        self.refuse_queued(&mut rx);
        self.ended().await;
    }

    /// The room is ending: it takes no more commands (a connection's send is refused at once, so
    /// it tells its player the room is closed) and answers those already queued so. Before, a
    /// message sent while the room's last writes were awaited was queued and never answered (a
    /// takeover test waited 300 s for its refusal under load).
    fn refuse_queued(&mut self, rx: &mut mpsc::Receiver<RoomCmd>) {
        rx.close();
        while let Ok(cmd) = rx.try_recv() {
            match cmd {
                RoomCmd::Msg { conn, out, .. } | RoomCmd::Join { conn, out, .. } | RoomCmd::Spectate { conn, out } => {
                    self.reject_join(conn, out, ErrorCode::RoomNotFound, "the room is closed")
                }
                _ => {}
            }
        }
    }

    /// Closes a room nobody is in any more (no human seated, no match running): the remaining
    /// members (spectators) are told, the directory row goes. True when it closed.
    async fn close_if_empty(&mut self) -> bool {
        if self.state.locked() || self.seats.any_player() {
            return false;
        }
        // After a match (its rematch vote closed): the match is over, not an empty lobby.
        let why = if self.play.match_no() > 0 { RoomClosed::MatchOver } else { RoomClosed::Empty };
        self.close_abandoned(why).await
    }

    async fn close_abandoned(&mut self, why: RoomClosed) -> bool {
        if !self.transition(RoomEvent::Abandoned) {
            return false;
        }
        self.closed = Some(why);
        let why = why.name();
        tracing::info!(why, "room closed");
        self.app.metrics().rooms_closed_empty.inc();
        if let Err(e) = self.app.db().delete_room(&self.code).await {
            tracing::error!(error = %e, "room delete failed");
        }
        self.send_room();
        true
    }

    fn next_deadline(&self) -> Option<Instant> {
        let hb = self.app.cfg().heartbeat_timeout();
        let mut d: Vec<Instant> = Vec::new();
        if self.state.in_game() {
            for s in self.seats.iter() {
                if let (Some(at), false) = (s.lost_at, s.hosted) {
                    d.push(at + hb);
                }
            }
        }
        if self.in_lobby() {
            // A player who dropped out of a lobby keeps the seat for the lobby grace.
            let grace = self.app.cfg().lobby_grace();
            d.extend(
                self.seats
                    .iter()
                    .filter(|s| s.player.is_some() && s.conn.is_none())
                    .filter_map(|s| s.lost_at.map(|at| at + grace)),
            );
        }
        if self.state.in_game() {
            d.extend(self.pace.ai_due());
        }
        d.extend(self.lobby.ready_deadline());
        d.extend(self.rematch.deadline());
        if !self.state.locked() {
            d.extend(self.lobby.idle_until(self.app.cfg().room_idle()));
        }
        d.into_iter().min()
    }

    async fn on_timer(&mut self) {
        let now = Instant::now();
        // The AI's turn may have come: the run loop drives it after this.
        self.pace.woke(now);
        self.host_lost_seats(now).await;
        if self.lobby_timers(now).await {
            return;
        }
        if self.rematch.deadline().is_some_and(|d| d <= now) {
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

    /// The room stops at once (its action could not be stored): the next start of this instance
    /// restores its match from the durable log.
    fn stop(&mut self, why: RoomClosed) {
        self.state = RoomState::Destroyed;
        self.closed = Some(why);
    }

    fn info(&self) -> RoomInfo {
        let host_seat = self.seats.of_player(&self.stored.host).unwrap_or(Seat::ZERO);
        RoomInfo {
            code: self.code.clone(),
            state: self.state,
            host_seat,
            rules: self.stored.preset.clone(),
            spectator_delay: self.stored.spectator_delay,
            seats: self.seats.infos(),
            spectators: self.members.spectator_count() as u32,
            locked: self.state.locked(),
            matches: self.play.match_no() as u32,
            practice: self.stored.practice,
            deal_break_ms: u32::try_from(self.app.cfg().deal_break_ms).unwrap_or(u32::MAX),
            spectator_hands: self.stored.spectator_hands.map(u8::from),
            closed: self.closed.filter(|_| self.state == RoomState::Destroyed),
        }
    }

    async fn save_directory(&self) {
        let state =
            serde_json::to_value(self.state).ok().and_then(|v| v.as_str().map(String::from)).unwrap_or_default();
        let config = serde_json::to_string(&self.stored).unwrap_or_default();
        match self
            .app
            .db()
            .update_room(&self.code, &self.app.cfg().instance, &state, &config, self.play.match_no())
            .await
        {
            Ok(true) => {}
            Ok(false) => tracing::warn!("room directory not updated: another instance took the room over"),
            Err(e) => tracing::error!(error = %e, "room directory update failed"),
        }
    }

    async fn message(&mut self, conn: ConnId, msg: ClientMsg, received: Instant) {
        if !self.members.contains(conn) {
            return;
        }
        match msg {
            ClientMsg::Intent { seq, nonce, action } => self.intent(conn, seq, nonce, action, received).await,
            ClientMsg::Resync => match (self.play.game(), self.seat_of(conn)) {
                (Some(g), Some(seat)) => {
                    let m = g.state_msg(Viewer::Seat(seat));
                    let vote = g.open_vote_msg(seat);
                    self.send_msg(conn, &m);
                    if let Some(v) = vote {
                        self.send_msg(conn, &v);
                    }
                }
                (_, None) => self.spectator_resync(conn),
                (None, Some(_)) => self.send_room_to(conn),
            },
            ClientMsg::SetSeat { seat, setting } => self.set_seat(conn, seat, setting).await,
            ClientMsg::SetSpectatorHands { team } => self.set_spectator_hands(conn, team).await,
            ClientMsg::Ready { ready } => {
                let Some(seat) = self.seat_of(conn) else {
                    return self.refuse(conn, ErrorCode::NotYourSeat, "spectators have no seat", None);
                };
                if !ready {
                    self.seats.set_ready(seat, false);
                    return self.send_room();
                }
                // A ready check that timed out left the full room waiting: a player's ready
                // starts a new one (else a full room could never start again).
                if self.state == RoomState::Waiting && self.seats.all_taken() {
                    self.after_seating();
                }
                if !self.transition(RoomEvent::Ready) {
                    return self.refuse(conn, ErrorCode::BadRoomState, "no ready check now", None);
                }
                self.seats.set_ready(seat, true);
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
                self.closed = Some(RoomClosed::Disbanded);
                // The row first: whoever hears of the end finds the directory already without it.
                if let Err(e) = self.app.db().delete_room(&self.code).await {
                    tracing::error!(error = %e, "room delete failed");
                }
                self.send_room();
            }
            ClientMsg::Leave => self.gone(conn, received, true).await,
            ClientMsg::ChangeSeat { seat } => self.change_seat(conn, seat).await,
            ClientMsg::AutoPlay { on } => self.auto_play(conn, on).await,
            ClientMsg::Seen { seq } => self.prompt_seen(conn, seq),
            // Handled by the connection.
            ClientMsg::Hello { .. }
            | ClientMsg::Heartbeat
            | ClientMsg::CreateRoom { .. }
            | ClientMsg::JoinRoom { .. }
            | ClientMsg::Spectate { .. }
            | ClientMsg::QueueJoin { .. }
            | ClientMsg::QueueLeave => {}
        }
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
