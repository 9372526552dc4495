//! The remote match source: the copy of the match a `guandan-server` holds, as its player (or
//! spectator) may see it. The `GuandanClient` that owns the connection feeds it the match part
//! of each server message (full states, applied steps, refused intents, room seats); the
//! `GuandanEngine` that follows it (`GuandanEngine.follow(client)`) reads it and sends the
//! player's actions through it as intents. Plain Rust, main thread only (shared by the two
//! nodes through an `Rc<RefCell<_>>`).
//!
//! Seats: the copy and its signals use the table's seats, turned so that the player sits at
//! seat 0 (south) whatever their seat in the room ([`rotate`]); room data keeps the server's.

use std::cell::RefCell;
use std::rc::Rc;
use std::time::Instant;

use guandan_core::error::ErrorCode;
use guandan_core::event::Outcome;
use guandan_core::game::{ActionKind, Phase, Seat};
use guandan_core::view::PlayerView;
use guandan_proto::{ClientMsg, Order, RoomInfo, WireOut};

use super::mirror::{Gap, Mirror};
use super::net::Outbox;
use super::rotate;
use crate::codes::{self, Fail};
use crate::forward::Emit;

/// How long an intent may go unanswered before the whole state is asked for.
pub const UNANSWERED: std::time::Duration = std::time::Duration::from_secs(10);

/// The copy of the room's match and the player's intent in flight.
#[derive(Default)]
pub struct RemoteMatch {
    pub(super) mirror: Mirror,
    /// The player's server seat turned to south.
    pub(super) turn: rotate::Turn,
    /// The action seq of our intent in flight (one at a time), and when it was sent.
    pub(super) pending: Option<u64>,
    pending_since: Option<Instant>,
    nonce: u64,
    /// After a reconnect or a gap: applied steps update nothing until the full state.
    pub(super) awaiting_state: bool,
    /// The clock of the player's own duty as the server announced it: (the action seq it is
    /// for, when it was heard, its seconds then). Shown only; the server's clock decides.
    pub(super) duty_clock: Option<(u64, Instant, f64)>,
    /// Server seats: which are the room's AI seats (`None` outside a room), which the server's
    /// AI hosts for an absent player, and ours.
    pub(super) room_ai: Option<[bool; 4]>,
    pub(super) hosted: [bool; 4],
    pub(super) room_seat: Option<Seat>,
    /// Whether the table was last told (controller_changed) that the AI plays the player's seat.
    /// The server's `hosting` and every full state say it again when it differs: its notice
    /// inside an `applied` is lost when that step arrives in a gap (issue 52: after a long
    /// stall the table kept Auto-play on, so it never offered Play/Pass or ran the clock).
    auto_shown: bool,
    /// Where intents go while the connection is up.
    outbox: Option<Outbox>,
    /// An engine follows this match: only then are signals kept for it.
    followed: bool,
    pub(super) emits: Vec<Emit>,
}

/// An `applied` message: `actions` actions up to `action_seq`, opened by `seat`'s (server seats).
pub struct Step {
    pub action_seq: u64,
    pub actions: u32,
    pub state_hash: String,
    pub events: Vec<WireOut>,
    pub prompt: Option<PlayerView>,
    pub seat: Seat,
}

/// What the client tells its own listeners after a full state.
pub enum StateTaken {
    /// The whole position up to this action seq was announced again (`resynced`).
    Resynced(u64),
    /// The first state of a match that just started.
    Started,
}

impl RemoteMatch {
    pub fn shared() -> Rc<RefCell<RemoteMatch>> {
        Rc::new(RefCell::new(RemoteMatch::default()))
    }

    pub fn view(&self) -> Option<&PlayerView> {
        self.mirror.view.as_ref()
    }

    /// The connection is up (`Some`) or down.
    pub fn set_outbox(&mut self, outbox: Option<Outbox>) {
        self.outbox = outbox;
        self.pending = None;
    }

    /// Back on a new connection that rejoined the room and asked for the full state.
    pub fn reconnected(&mut self) {
        if self.room_ai.is_some() && self.mirror.view.is_some() {
            self.awaiting_state = true;
        }
    }

    /// Left the room (or the connection): nothing of the old match stays.
    pub fn clear(&mut self) {
        self.clear_match();
        self.room_ai = None;
        self.room_seat = None;
        self.hosted = [false; 4];
    }

    /// Drops the copy of the match (the room stays): the next full state draws it again.
    pub fn clear_match(&mut self) {
        self.mirror.clear();
        self.awaiting_state = false;
        self.pending = None;
        self.duty_clock = None;
        self.emits.clear();
    }

    /// An intent the server has not answered after [`UNANSWERED`] (it always answers: the
    /// answer was lost somewhere) would keep the player from acting for good: the whole state
    /// is asked for instead, which ends the wait. True when it was asked now.
    pub fn check_unanswered(&mut self, now: Instant) -> bool {
        let stuck = self.pending.is_some()
            && !self.awaiting_state
            && self.pending_since.is_some_and(|t| now.saturating_duration_since(t) >= UNANSWERED);
        if stuck && self.send(ClientMsg::Resync).is_ok() {
            self.awaiting_state = true;
            self.pending_since = Some(now);
            return true;
        }
        false
    }

    pub fn set_followed(&mut self, on: bool) {
        self.followed = on;
        // A new table starts with Auto-play off.
        self.auto_shown = false;
        self.emits.clear();
    }

    fn emit(&mut self, e: impl IntoIterator<Item = Emit>) {
        if self.followed {
            self.emits.extend(e);
        }
    }

    pub(super) fn send(&self, m: ClientMsg) -> Result<(), Fail> {
        match &self.outbox {
            Some(o) => {
                o.send(m);
                Ok(())
            }
            None => Err(Fail::new(ErrorCode::Io, "not connected to the server: wait for the connection")),
        }
    }

    /// The room's seats as the server announced them.
    pub fn room(&mut self, room: &RoomInfo, seat: Option<Seat>) {
        let mut ai = [false; 4];
        for s in &room.seats {
            if let Some(i) = ai.get_mut(s.seat.index()) {
                *i = s.ai.is_some();
            }
            if let Some(h) = self.hosted.get_mut(s.seat.index()) {
                *h = s.hosted;
            }
        }
        self.room_ai = Some(ai);
        self.room_seat = seat;
        if !room.state.in_game() {
            self.awaiting_state = false;
        }
    }

    pub fn hosting(&mut self, seat: Seat, on: bool) {
        if let Some(h) = self.hosted.get_mut(seat.index()) {
            *h = on;
        }
        if self.room_seat == Some(seat) && self.mirror.view.is_some() && !self.awaiting_state {
            self.show_auto(on);
        }
    }

    /// Tells the table whether the AI plays the player's seat, if it was told otherwise.
    fn show_auto(&mut self, ai: bool) {
        if self.auto_shown != ai {
            self.auto_shown = ai;
            self.emit([Emit::Runtime(guandan_core::notice::Out::ControllerChanged { seat: Seat::ZERO, ai })]);
        }
    }

    /// Whether the server's AI plays the player's own seat now (as the server last said).
    fn own_seat_hosted(&self) -> bool {
        self.room_seat.is_some_and(|s| self.hosted[s.index() % 4])
    }

    /// The server refused our intent: it is answered. A copy behind or ahead of the match
    /// takes the server's whole state instead.
    pub fn refused(&mut self, code: i64, message: String) {
        self.pending = None;
        if code == codes::num(ErrorCode::StaleSeq) || code == codes::num(ErrorCode::StateConflict) {
            let _ = self.send(ClientMsg::Resync);
        }
        self.emit([Emit::Error { code, message }]);
    }

    /// A full state replaces the copy and is announced whole.
    pub fn state(
        &mut self,
        action_seq: u64,
        state_hash: &str,
        mut view: PlayerView,
        outcome: Option<Outcome>,
        time_left_s: Option<f64>,
    ) -> StateTaken {
        self.turn = rotate::Turn(view.seat.unwrap_or(Seat::ZERO));
        self.turn.view(&mut view);
        let outcome = outcome.map(|o| self.turn.outcome(o));
        self.duty_clock = time_left_s.map(|t| (action_seq, Instant::now(), t));
        let view_seated = view.seat.is_some();
        let mut emits = self.mirror.full_state(action_seq, state_hash, &view, outcome, time_left_s);
        if action_seq > 0 {
            // A match under way (a reconnect, a rejoin, a resync): its position is shown as it
            // stands, not played out again (issue 38: the deal's flight went over the plays).
            emits.insert(0, Emit::Restoring(true));
            emits.push(Emit::Restoring(false));
        }
        self.pending = None;
        let taken = if self.awaiting_state || action_seq > 0 {
            self.awaiting_state = false;
            StateTaken::Resynced(action_seq)
        } else {
            StateTaken::Started
        };
        // The table's Auto-play follows the server's seat, first: the turn the state announces
        // is then offered to the player (or not) as the server has it.
        let hosted = self.own_seat_hosted();
        if view_seated && self.auto_shown != hosted {
            self.auto_shown = hosted;
            emits.insert(
                0,
                Emit::Runtime(guandan_core::notice::Out::ControllerChanged { seat: Seat::ZERO, ai: hosted }),
            );
        }
        self.emit(emits);
        taken
    }

    /// An applied step. `order` is where the session placed it: after a gap the session has
    /// already asked for the whole state. Returns the gap this copy found itself (the caller
    /// asks for the whole state).
    /// A gap was seen and the whole state is asked for: until it comes, nothing is applied.
    pub fn awaiting_state(&self) -> bool {
        self.awaiting_state
    }

    pub fn applied(&mut self, step: Step, order: Order) -> Option<Gap> {
        let Step { action_seq, actions, state_hash, mut events, mut prompt, seat } = step;
        let state_hash = state_hash.as_str();
        let seat = self.turn.seat(seat);
        for e in &mut events {
            self.turn.out(e);
        }
        if let Some(p) = &mut prompt {
            self.turn.view(p);
        }
        // A prompt starts the player's duty clock: a turn's announced limit, else the rules' (a
        // tribute or return). A surrender proposal or vote changes no duty, and the server's
        // clock runs on through it: so does this one (before, the proposer's bar jumped back to
        // the whole limit).
        let vote_only = !events.is_empty()
            && events.iter().all(|e| matches!(e, WireOut::SurrenderProposed { .. } | WireOut::SurrenderVoted { .. }));
        self.duty_clock = match (prompt.as_ref(), self.duty_clock) {
            (Some(_), Some((_, heard, left))) if vote_only => Some((action_seq, heard, left)),
            (p, _) => p.map(|p| {
                let own_turn = events.iter().find_map(|e| match e {
                    WireOut::TurnStarted { seat: Seat::ZERO, time_limit_s, .. } => Some(*time_limit_s),
                    _ => None,
                });
                (action_seq, Instant::now(), own_turn.unwrap_or(f64::from(p.rules.turn_time_limit_s)))
            }),
        };
        // Our intent is answered by our own action (two payers act side by side).
        if self.pending.is_some_and(|p| action_seq > p) && self.mirror.seat() == Some(seat) {
            self.pending = None;
        }
        if let Order::Gap { .. } = order {
            self.awaiting_state = true;
            return None;
        }
        match self.mirror.applied(action_seq, actions, state_hash, &events, prompt.as_ref()) {
            // Catching up after a reconnect: the full state that follows draws the table.
            Ok(_) | Err(_) if self.awaiting_state => None,
            Ok(emits) => {
                for e in &emits {
                    if let Emit::Runtime(guandan_core::notice::Out::ControllerChanged { seat: Seat::ZERO, ai }) = e {
                        self.auto_shown = *ai;
                    }
                }
                self.emit(emits);
                None
            }
            // The session saw it follow but the copy cannot take it (no table yet): the whole
            // state rebuilds it.
            Err(gap) => {
                self.awaiting_state = true;
                let _ = self.send(ClientMsg::Resync);
                Some(gap)
            }
        }
    }

    pub(super) fn seated(&self) -> Result<&PlayerView, Fail> {
        let v = self.view().ok_or_else(|| Fail::new(ErrorCode::NoMatch, "no match is running"))?;
        if v.seat.is_none() {
            return Err(Fail::new(ErrorCode::NotYourSeat, "spectators cannot act"));
        }
        if v.phase == Phase::MatchOver {
            return Err(Fail::new(ErrorCode::GameOver, "the match is over"));
        }
        Ok(v)
    }

    /// Checks what only the view can tell before an intent leaves (the rules' own check of a
    /// play is `source::play_kind`; the server checks everything again).
    pub(super) fn check(&self, kind: &ActionKind) -> Result<(), Fail> {
        let v = self.seated()?;
        match kind {
            ActionKind::Pass if v.phase != Phase::Play || v.seat != Some(v.turn) => {
                Err(Fail::new(ErrorCode::NotYourTurn, "another seat is to play"))
            }
            ActionKind::Pass if v.table.is_none() => Err(Fail::new(ErrorCode::CannotPass, "the leader may not pass")),
            ActionKind::Tribute { card } if v.phase != Phase::Tribute || !v.tribute_options.contains(*card) => {
                Err(Fail::new(ErrorCode::InvalidTribute, "not a card to give now"))
            }
            ActionKind::Return { card } if v.phase != Phase::Return || !v.return_options.contains(*card) => {
                Err(Fail::new(ErrorCode::InvalidTribute, "not a card to give now"))
            }
            _ => Ok(()),
        }
    }

    /// Sends an action for the player's seat; one intent in flight at a time.
    pub(super) fn intent(&mut self, action: ActionKind) -> Result<(), Fail> {
        if self.pending.is_some() {
            return Err(Fail::new(ErrorCode::StateConflict, "an action is already on its way"));
        }
        if self.awaiting_state {
            return Err(Fail::new(ErrorCode::Io, "reconnecting: wait for the table to come back"));
        }
        let seq = self.mirror.action_seq;
        self.send(ClientMsg::Intent { seq, nonce: self.nonce + 1, action })?;
        self.nonce += 1;
        self.pending = Some(seq);
        self.pending_since = Some(Instant::now());
        Ok(())
    }
}
