//! Who is in the room — seated players and spectators, each by its connection — and what they
//! are sent: one message, a game message (with its prompt credit), a refusal, the same message to
//! everyone, the room's info. A member too slow to take its messages is dropped here. The room's
//! other files read the members through `Members` and change them only through its methods.

use super::*;

pub(super) struct Member {
    pub(super) out: Outbox,
    /// Its seat; none for a spectator.
    pub(super) seat: Option<Seat>,
}

#[derive(Default)]
pub(super) struct Members(BTreeMap<ConnId, Member>);

impl Members {
    // ----- reading -----

    pub(super) fn contains(&self, conn: ConnId) -> bool {
        self.0.contains_key(&conn)
    }

    pub(super) fn is_empty(&self) -> bool {
        self.0.is_empty()
    }

    pub(super) fn len(&self) -> usize {
        self.0.len()
    }

    pub(super) fn seat_of(&self, conn: ConnId) -> Option<Seat> {
        self.0.get(&conn).and_then(|m| m.seat)
    }

    /// Every member: its connection and its seat (none for a spectator).
    pub(super) fn iter(&self) -> impl Iterator<Item = (ConnId, Option<Seat>)> + '_ {
        self.0.iter().map(|(c, m)| (*c, m.seat))
    }

    pub(super) fn conns(&self) -> Vec<ConnId> {
        self.0.keys().copied().collect()
    }

    pub(super) fn is_spectator(&self, conn: ConnId) -> bool {
        self.0.get(&conn).is_some_and(|m| m.seat.is_none())
    }

    /// The spectators' connections.
    pub(super) fn spectators(&self) -> Vec<ConnId> {
        self.0.iter().filter(|(_, m)| m.seat.is_none()).map(|(c, _)| *c).collect()
    }

    pub(super) fn spectator_count(&self) -> usize {
        self.0.values().filter(|m| m.seat.is_none()).count()
    }

    // ----- changing -----

    /// A connection joins, at a seat or (`None`) as a spectator; one already in is replaced.
    pub(super) fn join(&mut self, conn: ConnId, out: Outbox, seat: Option<Seat>) {
        self.0.insert(conn, Member { out, seat });
    }

    pub(super) fn remove(&mut self, conn: ConnId) -> Option<Member> {
        self.0.remove(&conn)
    }

    /// The member sits at another seat now, or (`None`) watches.
    pub(super) fn set_seat(&mut self, conn: ConnId, seat: Option<Seat>) {
        if let Some(m) = self.0.get_mut(&conn) {
            m.seat = seat;
        }
    }
}

impl Room {
    pub(super) fn seat_of(&self, conn: ConnId) -> Option<Seat> {
        self.members.seat_of(conn)
    }

    pub(super) fn send_to(&mut self, conn: ConnId, msg: Arc<str>) {
        let full = match self.members.0.get(&conn) {
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
    pub(super) fn send_game(&mut self, conn: ConnId, msg: &ServerMsg, t: Arc<str>) {
        if game::is_prompt(msg)
            && let Some(m) = self.members.0.get(&conn)
        {
            m.out.grant_prompt();
        }
        self.send_to(conn, t);
    }

    pub(super) fn send_msg(&mut self, conn: ConnId, msg: &ServerMsg) {
        self.send_game(conn, msg, text(msg));
    }

    pub(super) fn refuse(&mut self, conn: ConnId, code: ErrorCode, message: impl Into<String>, seq: Option<u64>) {
        let message = message.into();
        tracing::debug!(conn, ?code, %message, ?seq, "refused");
        self.app.metrics().protocol_errors.inc();
        let msg = ServerMsg::Error { code: code.code(), name: code.name().into(), message, seq };
        self.send_msg(conn, &msg);
    }

    /// The same message to every member, seated or watching.
    pub(super) fn broadcast(&mut self, msg: &ServerMsg) {
        let t = text(msg);
        for c in self.members.conns() {
            self.send_to(c, t.clone());
        }
    }

    pub(super) fn send_room(&mut self) {
        let msg = ServerMsg::Room { room: self.info() };
        self.broadcast(&msg);
    }

    pub(super) fn send_room_to(&mut self, conn: ConnId) {
        let msg = ServerMsg::Room { room: self.info() };
        self.send_msg(conn, &msg);
    }

    /// A member's connection is gone (since `silent_since`); a seat it held waits for its player.
    pub(super) fn drop_member(&mut self, conn: ConnId, silent_since: Instant) {
        tracing::debug!(conn, "member dropped");
        if let Some(m) = self.members.remove(conn)
            && let Some(seat) = m.seat
        {
            self.seats.lost(seat, conn, silent_since);
        }
    }
}
