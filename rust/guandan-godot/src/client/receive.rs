//! What the session receives: the network thread's events (connecting, registered, connected,
//! lost, refused, failed) and the server's messages, applied to the session (link, room, seats
//! hosted) and to the copy of the room's match, with the signals they give queued.

use godot::prelude::*;
use guandan_core::error::ErrorCode;
use guandan_core::seat::Seat;
use guandan_proto::{Order, Refusal, ServerMsg};

use super::net::{Net, NetEvent};
use super::remote::{StateTaken, Step};
use super::{Conn, GuandanClient, Link};
use crate::codes;
use crate::convert::opt_seat;

/// Whether a server message shows its recipient a hand.
fn holds_hand(m: &ServerMsg) -> bool {
    match m {
        ServerMsg::State { view, .. } => !view.hand.is_empty() || !view.shown_hands.is_empty(),
        ServerMsg::Applied { events, prompt, .. } => {
            prompt.as_ref().is_some_and(|p| !p.hand.is_empty())
                || events.iter().any(|e| matches!(e, guandan_proto::WireOut::HandChanged { .. }))
        }
        _ => false,
    }
}

impl GuandanClient {
    /// A connection that ends or begins is no longer the unstable one.
    fn steady(&mut self) {
        if std::mem::take(&mut self.unstable) {
            self.queue.push_back(Conn::Unstable(false));
        }
    }

    pub(super) fn on_net(&mut self, ev: NetEvent) {
        match ev {
            NetEvent::Connecting { attempt } => self.queue.push_back(Conn::Connecting(attempt)),
            NetEvent::Registered { player_id, token } => self.credentials = Some((player_id, token)),
            NetEvent::TokenRotated { token } => {
                if let Some((_, kept)) = &mut self.credentials {
                    *kept = token.into_inner();
                }
            }
            NetEvent::Connected { player_id, reconnect } => {
                self.steady();
                self.link = Link::Online;
                self.player_id = player_id.clone();
                let mut remote = self.remote.borrow_mut();
                remote.set_outbox(self.net.as_ref().map(Net::outbox));
                if reconnect && self.in_room {
                    // The thread has rejoined and asked for the full state: rebuild from it.
                    remote.reconnected();
                }
                drop(remote);
                self.queue.push_back(Conn::Connected(player_id));
            }
            // The table shows the room as closed (a finished match keeps its result on screen);
            // the rejoin's refusal is not a stray error the table would never answer.
            NetEvent::RoomGone { code, message } => {
                godot_print!("GuandanClient: room {code} closed while away: {message}");
                if self.in_room {
                    self.reset_room();
                    self.queue.push_back(Conn::RoomClosed("away".into()));
                }
            }
            NetEvent::Latency(ms) => {
                self.latency_ms = ms;
                self.queue.push_back(Conn::LatencyChanged(ms));
            }
            NetEvent::Unstable(unstable) => {
                self.unstable = unstable;
                self.queue.push_back(Conn::Unstable(unstable));
            }
            NetEvent::Lost { attempt } => {
                self.steady();
                self.link = Link::Reconnecting;
                self.remote.borrow_mut().set_outbox(None);
                self.queue.push_back(Conn::Reconnecting(attempt));
            }
            NetEvent::Refused(r) => {
                let client_too_old = match &r {
                    Refusal::ClientTooOld { .. } => Some(true),
                    Refusal::ServerTooOld { .. } => Some(false),
                    Refusal::Other { .. } => None,
                };
                if let Some(client) = client_too_old {
                    self.queue.push_back(Conn::ProtocolTooOld(client, r.message()));
                }
                self.on_net(NetEvent::Failed { code: r.code(), message: r.message() });
            }
            NetEvent::Failed { code, message } => {
                if code == ErrorCode::AuthFailed {
                    // The server does not know this account (its database was reset): a new one
                    // is made at the next connect.
                    self.credentials = None;
                }
                self.go_offline();
                self.last_error = message.clone();
                self.queue.push_back(Conn::Disconnected(codes::num(code), message));
            }
            NetEvent::Message(m, order) => self.on_message(*m, order),
        }
    }

    fn on_message(&mut self, m: ServerMsg, order: Order) {
        self.messages += 1;
        if holds_hand(&m) {
            self.hand_messages += 1;
        }
        match m {
            ServerMsg::Welcome { .. } | ServerMsg::Pong | ServerMsg::Redirect { .. } => {}
            // A refused intent is the match's (the following engine says it); any other refusal
            // is the session's.
            ServerMsg::Error { code, message, seq: Some(_), .. } => {
                self.last_error = message.clone();
                self.remote.borrow_mut().refused(i64::from(code), message);
            }
            ServerMsg::Error { code, message, seq: None, .. } => {
                self.last_error = message.clone();
                self.queue.push_back(Conn::Error(i64::from(code), message));
            }
            ServerMsg::Joined { code, seat } => {
                self.room_code = code.clone();
                self.room_seat = opt_seat(seat);
                self.in_room = true;
                self.queue.push_back(Conn::RoomJoined(code, opt_seat(seat)));
            }
            ServerMsg::Room { room } => {
                for s in &room.seats {
                    if let Some(h) = self.hosted.get_mut(s.seat.index()) {
                        *h = s.hosted;
                    }
                }
                let seat = Seat::try_from(self.room_seat).ok();
                self.remote.borrow_mut().room(&room, seat);
                let destroyed = room.state == guandan_proto::RoomState::Destroyed;
                // Why, named for what happened (an older server says nothing: "closed").
                let why = room.closed.map_or("closed", guandan_proto::RoomClosed::name);
                self.room = Some(room.clone());
                self.queue.push_back(Conn::RoomChanged(Box::new(room)));
                if destroyed {
                    self.reset_room();
                    self.queue.push_back(Conn::RoomClosed(why.into()));
                }
            }
            ServerMsg::State { action_seq, state_hash, view, outcome, time_left_s } => {
                let taken = self.remote.borrow_mut().state(action_seq, &state_hash, view, outcome, time_left_s);
                if let StateTaken::Resynced(seq) = taken {
                    self.queue.push_back(Conn::Resynced(seq));
                }
                self.queue.push_back(Conn::MatchJoined);
            }
            ServerMsg::Applied { action_seq, actions, state_hash, events, prompt, seat } => {
                // Said once: every message until the whole state comes is a gap too (a stall's
                // backlog printed a line each).
                if let Order::Gap { expected, got_first } = order
                    && !self.remote.borrow().awaiting_state()
                {
                    godot_warn!(
                        "GuandanClient: action {expected} expected, {got_first} received: asking for the whole state"
                    );
                }
                let step = Step { action_seq, actions, state_hash, events, prompt, seat };
                let gap = self.remote.borrow_mut().applied(step, order);
                if let Some(gap) = gap {
                    godot_warn!(
                        "GuandanClient: action {} expected, {} received: asking for the whole state",
                        gap.expected,
                        gap.got_first
                    );
                }
            }
            ServerMsg::Hosting { seat, on } => {
                if let Some(h) = self.hosted.get_mut(seat.index()) {
                    *h = on;
                }
                self.remote.borrow_mut().hosting(seat, on);
                self.queue.push_back(Conn::HostingChanged(seat, on));
            }
            ServerMsg::MatchStored { match_no, .. } => self.queue.push_back(Conn::MatchStored(match_no)),
            ServerMsg::QueueStatus { rules, queued, waited_ms, found } => {
                self.queue.push_back(Conn::QueueStatus(rules, queued, waited_ms, found));
            }
            // The server is restarting (or moving): the connection ends next and the session
            // reconnects and rejoins (the room is restored from its database). Not a closed room —
            // that sent the table to the menu on every server update.
            ServerMsg::Bye { .. } => {}
            // Ranked matches (quick match): the client does not show ratings yet.
            ServerMsg::Rating { rules, rating, change, matches } => {
                self.queue.push_back(Conn::Rating(rules, rating, change, matches));
            }
        }
    }
}
