//! One client's protocol session, without I/O: the handshake, the room and the last action seq
//! to come back to, the continuity of `applied` messages (a gap asks for the whole state), the
//! heartbeat, and when to reconnect. The caller owns the socket and the clock: it says when a
//! connection opened or dropped, hands over every message it received and every one it is about
//! to send, and sends what the session returns. The game's client, `guandan swarm`, `guandan
//! join` and the server's tests all drive one.

use std::time::{Duration, Instant};

use guandan_core::error::ErrorCode;
use guandan_core::game::{ActionKind, Seat};

use crate::{Backoff, ClientMsg, MIN_COMPATIBLE_PROTOCOL, PROTOCOL_VERSION, RoomState, Secret, ServerMsg};

/// How long a full state asked for may take before it is asked for again.
pub const RESYNC_AGAIN: Duration = Duration::from_secs(5);

/// How a client keeps its session.
#[derive(Clone, Debug)]
pub struct SessionConfig {
    /// A heartbeat when nothing was sent for this long (the protocol asks for one at least every
    /// 5 s; the server hands a silent seat to its AI after 15 s).
    pub heartbeat: Duration,
    /// How long the server has to answer `hello`.
    pub hello_timeout: Duration,
    /// After a reconnect, ask for the whole state besides the missed actions (a client that
    /// redraws its table from it); otherwise the missed actions are enough.
    pub resync_on_rejoin: bool,
}

impl Default for SessionConfig {
    fn default() -> SessionConfig {
        SessionConfig {
            heartbeat: Duration::from_millis(2500),
            hello_timeout: Duration::from_secs(5),
            resync_on_rejoin: true,
        }
    }
}

/// Why a session ends for good (retrying would meet the same answer).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Refusal {
    /// The server refused this client's protocol: the game must be updated.
    ClientTooOld { message: String },
    /// The server speaks an older protocol than this client needs: the server must be updated.
    ServerTooOld { server_version: u32 },
    /// Any other refusal of `hello` (`auth_failed`…), with the server's code when this build
    /// knows it.
    Other { code: ErrorCode, message: String },
}

impl Refusal {
    pub fn code(&self) -> ErrorCode {
        match self {
            Refusal::ClientTooOld { .. } | Refusal::ServerTooOld { .. } => ErrorCode::ProtocolTooOld,
            Refusal::Other { code, .. } => *code,
        }
    }

    /// For the player.
    pub fn message(&self) -> String {
        match self {
            Refusal::ClientTooOld { message } => message.clone(),
            Refusal::ServerTooOld { server_version } => format!(
                "the server speaks protocol {server_version}, this game needs {MIN_COMPATIBLE_PROTOCOL}: update the server"
            ),
            Refusal::Other { message, .. } => message.clone(),
        }
    }
}

/// Where an `applied` message stands against what the client has seen.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Order {
    /// It follows what was seen (or is no `applied` at all): apply it.
    Next,
    /// Everything it covers was seen already (a catch-up overlapping what came before a drop).
    Seen,
    /// It does not follow: `expected` was the next action. The session has asked for the whole
    /// state (once until it comes); what arrives meanwhile is `Gap` too, until the state.
    Gap { expected: u64, got_first: u64 },
}

/// What a received message means to the caller.
#[derive(Clone, Debug, PartialEq)]
pub enum Event {
    /// The server said welcome; `reconnect` when this connection came back after a drop (the
    /// session has queued the rejoin).
    Welcomed { player_id: String, reconnect: bool },
    /// The server will not take this client (or, `session_replaced`, no longer: a newer
    /// connection of the account took its seat): close and do not retry.
    Refused(Refusal),
    /// A pong: the round trip of the heartbeat it answers (a pong to nothing is a `Message`).
    Latency(Duration),
    /// Any other message, with its place in the action sequence.
    Message(Box<ServerMsg>, Order),
    /// The room this session went back to after a drop is gone (the server refused the rejoin
    /// as `room_not_found`: it closed while we were away). The session holds no room any more.
    RoomGone { code: String, message: String },
}

/// What to do after the connection dropped.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Reconnect {
    /// Open a new connection after this wait.
    After(Duration),
    /// Never welcomed (the server is not there or not a server), or the patience is spent.
    GiveUp,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Link {
    Down,
    /// `hello` sent at this time, no answer yet.
    Greeting(Instant),
    Up,
}

/// One player's session with a server, across its connections.
#[derive(Debug)]
pub struct Session {
    player_id: String,
    token: Secret,
    /// A token the server rotated to, not yet taken by the caller to store.
    new_token: Option<Secret>,
    cfg: SessionConfig,
    link: Link,
    welcomed_before: bool,
    /// The room to go back to after a drop: its code and our seat (`None` = spectator).
    room: Option<(String, Option<Seat>)>,
    /// The rejoin sent after a welcome, not answered yet (its refusal means the room is gone).
    rejoining: bool,
    /// The last action seq of the room's match this client has seen (`None`: no state yet).
    last_seq: Option<u64>,
    /// A gap asked for the whole state, not yet arrived; when it was last asked for.
    awaiting_state: bool,
    asked_state_at: Option<Instant>,
    nonce: u64,
    /// Our intent in flight: its seq.
    pending: Option<u64>,
    last_sent: Option<Instant>,
    /// When the heartbeat the next pong answers was sent.
    ping_at: Option<Instant>,
    backoff: Backoff,
}

impl Session {
    pub fn new(player_id: impl Into<String>, token: impl Into<String>, cfg: SessionConfig) -> Session {
        Session {
            player_id: player_id.into(),
            token: Secret::new(token),
            new_token: None,
            cfg,
            link: Link::Down,
            welcomed_before: false,
            room: None,
            rejoining: false,
            last_seq: None,
            awaiting_state: false,
            asked_state_at: None,
            nonce: 0,
            pending: None,
            last_sent: None,
            ping_at: None,
            backoff: Backoff::reconnect(),
        }
    }

    /// A connection is open: send this `hello` first.
    pub fn opened(&mut self, now: Instant) -> ClientMsg {
        self.link = Link::Greeting(now);
        self.last_sent = Some(now);
        self.ping_at = None;
        self.pending = None;
        self.rejoining = false;
        ClientMsg::Hello {
            protocol_version: PROTOCOL_VERSION,
            player_id: self.player_id.clone(),
            token: self.token.clone(),
        }
    }

    /// The token the server rotated this session to, once: the caller stores it in place of the
    /// one it gave [`Session::new`] (the session presents it from now on by itself).
    pub fn take_new_token(&mut self) -> Option<Secret> {
        self.new_token.take()
    }

    /// Welcomed at least once: a drop is come back from (before, the server was never reached).
    pub fn welcomed_before(&self) -> bool {
        self.welcomed_before
    }

    /// Welcomed on the current connection.
    pub fn is_up(&self) -> bool {
        self.link == Link::Up
    }

    pub fn player_id(&self) -> &str {
        &self.player_id
    }

    /// The room and seat a reconnect goes back to.
    pub fn room(&self) -> Option<(&str, Option<Seat>)> {
        self.room.as_ref().map(|(c, s)| (c.as_str(), *s))
    }

    /// The last action seq seen in the room's match.
    pub fn last_seq(&self) -> Option<u64> {
        self.last_seq
    }

    /// Whether a full state was asked for and has not come yet.
    pub fn awaiting_state(&self) -> bool {
        self.awaiting_state
    }

    /// How long the oldest heartbeat the server has not answered has waited (`None`: none is
    /// out, or no connection is up). A live server answers in milliseconds, so a wait of a second
    /// or two means a stalled server or a broken network: the game says so long before it gives
    /// the connection up.
    pub fn unanswered(&self, now: Instant) -> Option<Duration> {
        if self.link != Link::Up {
            return None;
        }
        self.ping_at.map(|at| now.saturating_duration_since(at))
    }

    /// The seq of our intent in flight.
    pub fn pending(&self) -> Option<u64> {
        self.pending
    }

    /// An intent for the state after `seq` actions, with a fresh nonce. Pass it to
    /// [`Session::sending`] like any message.
    pub fn intent(&mut self, seq: u64, action: ActionKind) -> ClientMsg {
        self.nonce += 1;
        ClientMsg::Intent { seq, nonce: self.nonce, action }
    }

    /// The caller is about to send `m` on the current connection: notes what it changes (the
    /// room left, a new room's seqs, the intent in flight, the heartbeat's time).
    pub fn sending(&mut self, m: &ClientMsg, now: Instant) {
        self.last_sent = Some(now);
        match m {
            ClientMsg::Leave | ClientMsg::Disband => {
                self.room = None;
                self.forget_match();
            }
            ClientMsg::CreateRoom { .. }
            | ClientMsg::JoinRoom { last_action_seq: None, .. }
            | ClientMsg::Spectate { .. } => self.forget_match(),
            ClientMsg::Intent { seq, nonce, .. } => {
                self.pending = Some(*seq);
                self.nonce = self.nonce.max(*nonce);
            }
            // The next pong answers the oldest heartbeat not yet answered.
            ClientMsg::Heartbeat if self.ping_at.is_none() => self.ping_at = Some(now),
            ClientMsg::Resync => {
                self.awaiting_state = true;
                self.asked_state_at = Some(now);
            }
            _ => {}
        }
    }

    fn forget_match(&mut self) {
        self.last_seq = None;
        self.awaiting_state = false;
        self.pending = None;
    }

    /// Time passes on an open connection: a heartbeat to send, if one is due. `Err` when the
    /// server has not answered `hello` in time (treat the connection as dropped).
    pub fn tick(&mut self, now: Instant) -> Result<Option<ClientMsg>, String> {
        match self.link {
            Link::Down => Ok(None),
            Link::Greeting(since) => {
                if now.saturating_duration_since(since) > self.cfg.hello_timeout {
                    Err("no answer to hello".into())
                } else {
                    Ok(None)
                }
            }
            Link::Up => {
                // A state asked for and not come (the answer lost, the ask refused): every
                // `applied` meanwhile is a gap, so the table would stand still until the next
                // full state. Asked again, at most every RESYNC_AGAIN.
                if self.awaiting_state
                    && self.asked_state_at.is_none_or(|t| now.saturating_duration_since(t) >= RESYNC_AGAIN)
                {
                    return Ok(Some(ClientMsg::Resync));
                }
                let quiet = self.last_sent.is_none_or(|t| now.saturating_duration_since(t) >= self.cfg.heartbeat);
                Ok(quiet.then_some(ClientMsg::Heartbeat))
            }
        }
    }

    /// A message arrived: what it means, and what to send in answer (the rejoin after a welcome,
    /// a resync after a gap; pass each to [`Session::sending`] as it goes out).
    pub fn received(&mut self, m: ServerMsg, now: Instant) -> (Event, Vec<ClientMsg>) {
        let mut send = Vec::new();
        if let Link::Greeting(_) = self.link {
            match m {
                ServerMsg::Welcome { protocol_version, player_id, token, .. } => {
                    if protocol_version < MIN_COMPATIBLE_PROTOCOL {
                        self.link = Link::Down;
                        return (Event::Refused(Refusal::ServerTooOld { server_version: protocol_version }), send);
                    }
                    if let Some(t) = token {
                        self.token = t.clone();
                        self.new_token = Some(t);
                    }
                    let reconnect = self.welcomed_before;
                    self.link = Link::Up;
                    self.welcomed_before = true;
                    self.backoff.reset();
                    if reconnect && let Some((code, seat)) = self.room.clone() {
                        self.rejoining = true;
                        send.push(match seat {
                            Some(_) => ClientMsg::JoinRoom { code, last_action_seq: self.last_seq },
                            None => ClientMsg::Spectate { code },
                        });
                        // A state asked for on the lost connection will not come: ask again.
                        if self.cfg.resync_on_rejoin || self.awaiting_state {
                            send.push(ClientMsg::Resync);
                        }
                    } else {
                        self.awaiting_state = false;
                    }
                    return (Event::Welcomed { player_id, reconnect }, send);
                }
                ServerMsg::Error { code, message, .. } => {
                    self.link = Link::Down;
                    let refusal = match ErrorCode::from_code(code) {
                        Some(ErrorCode::ProtocolTooOld) => Refusal::ClientTooOld { message },
                        known => Refusal::Other { code: known.unwrap_or(ErrorCode::AuthFailed), message },
                    };
                    return (Event::Refused(refusal), send);
                }
                // Nothing else comes before the welcome; a newer server's notice is let through.
                _ => {}
            }
        }
        let order = match &m {
            ServerMsg::Pong => match self.ping_at.take() {
                Some(at) => return (Event::Latency(now.saturating_duration_since(at)), send),
                None => Order::Next,
            },
            ServerMsg::Joined { code, seat } => {
                self.room = Some((code.clone(), *seat));
                self.rejoining = false;
                Order::Next
            }
            ServerMsg::Error { code, message, seq: None, .. }
                if self.rejoining && *code == ErrorCode::RoomNotFound.code() =>
            {
                self.rejoining = false;
                let gone = self.room.take().map(|(code, _)| code).unwrap_or_default();
                self.forget_match();
                return (Event::RoomGone { code: gone, message: message.clone() }, send);
            }
            ServerMsg::Room { room } if room.state == RoomState::Destroyed => {
                self.room = None;
                self.forget_match();
                Order::Next
            }
            ServerMsg::Error { code, message, .. } if *code == ErrorCode::SessionReplaced.code() => {
                // The account took its seat from a newer connection (another device, a restarted
                // game): coming back would take it from there in turn. The session ends here.
                self.link = Link::Down;
                let refusal = Refusal::Other { code: ErrorCode::SessionReplaced, message: message.clone() };
                return (Event::Refused(refusal), send);
            }
            ServerMsg::Error { .. } => {
                // A refused intent is no longer in flight.
                self.pending = None;
                Order::Next
            }
            ServerMsg::State { action_seq, .. } => {
                self.last_seq = Some(*action_seq);
                self.awaiting_state = false;
                self.pending = None;
                Order::Next
            }
            ServerMsg::Applied { action_seq, actions, .. } => {
                let order = self.follow(*action_seq, *actions);
                if let Order::Gap { .. } = order
                    && !self.awaiting_state
                {
                    send.push(ClientMsg::Resync);
                }
                order
            }
            _ => Order::Next,
        };
        (Event::Message(Box::new(m), order), send)
    }

    /// Places an `applied` covering `actions` actions up to `action_seq`.
    fn follow(&mut self, action_seq: u64, actions: u32) -> Order {
        let first = action_seq.saturating_sub(u64::from(actions)) + 1;
        let gap = |expected: u64| Order::Gap { expected, got_first: first };
        if self.awaiting_state {
            return gap(self.last_seq.map_or(0, |s| s + 1));
        }
        let Some(last) = self.last_seq else {
            // No state yet: nothing to apply it to.
            return gap(0);
        };
        if actions == 0 {
            // A notice at the current action (a seat handed to the AI).
            return match action_seq.cmp(&last) {
                std::cmp::Ordering::Equal => Order::Next,
                std::cmp::Ordering::Less => Order::Seen,
                std::cmp::Ordering::Greater => gap(last + 1),
            };
        }
        if action_seq <= last {
            return Order::Seen;
        }
        if first != last + 1 {
            return gap(last + 1);
        }
        self.last_seq = Some(action_seq);
        Order::Next
    }

    /// The connection dropped (or could not be opened): when to try again. `random` is any
    /// random number (the jitter, so that the players of a restarting server do not all come
    /// back at once).
    pub fn dropped(&mut self, now: Instant, random: u64) -> Reconnect {
        self.link = Link::Down;
        self.pending = None;
        self.ping_at = None;
        if !self.welcomed_before {
            return Reconnect::GiveUp;
        }
        match self.backoff.next_wait(now, random) {
            Some(w) => Reconnect::After(w),
            None => Reconnect::GiveUp,
        }
    }

    /// Reconnection attempts since the last welcome.
    pub fn attempts(&self) -> u32 {
        self.backoff.attempts()
    }

    /// How long the session keeps trying after a drop.
    pub fn patience(&self) -> Duration {
        self.backoff.patience
    }
}

#[cfg(test)]
mod tests;
