//! The room's four seats: who sits where (a player or an AI seat), each seat's connection and
//! how long its player has been away, the ready flag, hosting by the AI, the intent checks and
//! the rematch vote. The room's other files read a seat through `Seats` (`seats[seat]`, `iter`)
//! and change one only through the methods here.

use super::*;

/// Nonces a seat's recent intents carried, refused if seen again (older ones are refused by
/// their seq, which must not go back).
const RECENT_NONCES: usize = 16;
/// A seat's catch-up from the stored log at most this often (a full state otherwise).
const CATCH_UP_EVERY: std::time::Duration = std::time::Duration::from_secs(2);

#[derive(Default)]
pub(super) struct Slot {
    pub(super) player: Option<PlayerRef>,
    pub(super) ai: Option<u8>,
    pub(super) ready: bool,
    pub(super) conn: Option<ConnId>,
    /// The human is gone since then; hosting starts a heartbeat timeout later.
    pub(super) lost_at: Option<Instant>,
    pub(super) hosted: bool,
    /// Hosted because its present player let `--auto-play-after-timeouts` duties in a row time
    /// out: any intent of the player takes the seat back.
    pub(super) hosted_idle: bool,
    /// Hosted because its player turned Auto-play on: a reconnect keeps it so (issue 52: the
    /// player came back from a stall to find Auto-play off and its duty on the clock).
    pub(super) hosted_chosen: bool,
    /// Intent checks: the last applied intent seq and recent nonces of this seat's connection.
    last_ack: Option<u64>,
    nonces: VecDeque<u64>,
    pub(super) rematch: Option<bool>,
    /// When this seat's missed actions were last rebuilt from the stored log.
    last_catch_up: Option<Instant>,
    /// The player left the running match (`leave`) and has not come back: in a ranked match
    /// a leaver takes the loss (crate::ratings::verdicts).
    pub(super) left_match: bool,
}

impl Slot {
    pub(super) fn taken(&self) -> bool {
        self.player.is_some() || self.ai.is_some()
    }
}

/// The four seats, by seat number.
#[derive(Default)]
pub(super) struct Seats([Slot; 4]);

impl std::ops::Index<Seat> for Seats {
    type Output = Slot;
    fn index(&self, seat: Seat) -> &Slot {
        &self.0[seat.index()]
    }
}

impl Seats {
    /// The seats as the directory keeps them; restored humans (`away`: a match goes on) are away
    /// until they reconnect.
    pub(super) fn from_stored(stored: &[(Option<PlayerRef>, Option<u8>); 4], away: bool) -> Seats {
        let mut seats = Seats::default();
        for (slot, (player, ai)) in seats.0.iter_mut().zip(stored.iter().cloned()) {
            slot.player = player;
            slot.ai = ai;
            if slot.player.is_some() && away {
                slot.lost_at = Some(Instant::now());
            }
        }
        seats
    }

    // ----- reading -----

    pub(super) fn iter(&self) -> impl Iterator<Item = &Slot> {
        self.0.iter()
    }

    /// Who sits where now, as a match starts with it and the directory keeps it.
    pub(super) fn lineup(&self) -> [(Option<PlayerRef>, Option<u8>); 4] {
        std::array::from_fn(|i| (self.0[i].player.clone(), self.0[i].ai))
    }

    pub(super) fn all_taken(&self) -> bool {
        self.0.iter().all(Slot::taken)
    }

    /// Whether a person holds a seat (connected or not).
    pub(super) fn any_player(&self) -> bool {
        self.0.iter().any(|s| s.player.is_some())
    }

    pub(super) fn any_hosted(&self) -> bool {
        self.0.iter().any(|s| s.hosted)
    }

    /// The seat of this account's player.
    pub(super) fn of_player(&self, id: &str) -> Option<Seat> {
        self.0.iter().position(|s| s.player.as_ref().is_some_and(|p| p.id == id)).and_then(Seat::from_index)
    }

    /// The connection of this account's player, when it sits here and is connected.
    pub(super) fn conn_of_player(&self, id: &str) -> Option<ConnId> {
        self.of_player(id).and_then(|s| self[s].conn)
    }

    pub(super) fn first_free(&self) -> Option<Seat> {
        self.0.iter().position(|s| !s.taken()).and_then(Seat::from_index)
    }

    /// The next player after seat `from` in seat order (`from` itself last).
    pub(super) fn next_player(&self, from: Seat) -> Option<(Seat, &PlayerRef)> {
        (1..=4).map(|k| from.after(k)).find_map(|i| self[i].player.as_ref().map(|p| (i, p)))
    }

    /// Whether every player voted on a rematch.
    pub(super) fn all_voted(&self) -> bool {
        self.0.iter().filter(|s| s.player.is_some()).all(|s| s.rematch.is_some())
    }

    /// Whether a seat's intent with this seq or nonce was applied already.
    pub(super) fn intent_used(&self, seat: Seat, seq: u64, nonce: u64) -> bool {
        let s = &self[seat];
        s.nonces.contains(&nonce) || s.last_ack == Some(seq)
    }

    /// Whether this seq goes back behind the seat's last applied intent.
    pub(super) fn before_last_intent(&self, seat: Seat, seq: u64) -> bool {
        self[seat].last_ack.is_some_and(|a| seq < a)
    }

    /// Whether the seat's missed actions may be rebuilt from the stored log now (once every
    /// `CATCH_UP_EVERY`).
    pub(super) fn may_replay(&self, seat: Seat) -> bool {
        self[seat].last_catch_up.is_none_or(|t| t.elapsed() >= CATCH_UP_EVERY)
    }

    /// Seats whose player is away since a time `wait` has passed at `now`.
    pub(super) fn away_past(&self, wait: std::time::Duration, now: Instant) -> Vec<Seat> {
        Seat::ALL
            .into_iter()
            .filter(|&i| {
                let s = &self[i];
                s.player.is_some() && s.conn.is_none() && s.lost_at.is_some_and(|at| at + wait <= now)
            })
            .collect()
    }

    /// What the room's info says of each seat.
    pub(super) fn infos(&self) -> Vec<SeatInfo> {
        Seat::ALL
            .into_iter()
            .map(|i| {
                let s = &self[i];
                SeatInfo {
                    seat: i,
                    player: s.player.as_ref().map(|p| p.nickname.clone()),
                    ai: s.ai,
                    ready: s.ready,
                    connected: s.conn.is_some(),
                    hosted: s.hosted,
                }
            })
            .collect()
    }

    // ----- changing -----

    /// A new player takes a free seat in the lobby.
    pub(super) fn sit(&mut self, seat: Seat, player: PlayerRef, conn: ConnId) {
        let s = &mut self.0[seat.index()];
        s.player = Some(player);
        s.conn = Some(conn);
        s.ready = false;
    }

    /// A player comes back to its seat on `conn`: the seat is the human's again. Returns the
    /// connection that held the seat before, and whether the AI hosted the seat.
    pub(super) fn back(&mut self, seat: Seat, conn: ConnId) -> (Option<ConnId>, bool) {
        let s = &mut self.0[seat.index()];
        let old = s.conn.replace(conn);
        s.lost_at = None;
        s.left_match = false;
        // Auto-play the player chose stays on; hosting for an absent player ends.
        let was_hosted = !s.hosted_chosen && std::mem::take(&mut s.hosted);
        s.last_ack = None;
        s.nonces.clear();
        (old, was_hosted)
    }

    /// The seat's connection `conn` is gone since `silent_since` (a newer one may hold it).
    pub(super) fn lost(&mut self, seat: Seat, conn: ConnId, silent_since: Instant) {
        let s = &mut self.0[seat.index()];
        if s.conn == Some(conn) {
            s.conn = None;
            s.lost_at = Some(silent_since);
        }
    }

    /// A quick-match table starts: its players not connected yet are away from now.
    pub(super) fn away_until_they_come(&mut self, now: Instant) {
        for s in &mut self.0 {
            if s.player.is_some() && s.conn.is_none() {
                s.lost_at = Some(now);
            }
        }
    }

    /// The seat's player left the running match (`leave`).
    pub(super) fn left_match(&mut self, seat: Seat) {
        self.0[seat.index()].left_match = true;
    }

    /// The seat becomes free.
    pub(super) fn free(&mut self, seat: Seat) {
        self.0[seat.index()] = Slot::default();
    }

    /// Moves what sits at `from` to the free seat `to`.
    pub(super) fn move_to(&mut self, from: Seat, to: Seat) {
        let moved = std::mem::take(&mut self.0[from.index()]);
        self.0[to.index()] = moved;
    }

    pub(super) fn set_ai(&mut self, seat: Seat, level: u8) {
        self.0[seat.index()].ai = Some(level);
    }

    /// The seat's AI leaves; true when there was one.
    pub(super) fn clear_ai(&mut self, seat: Seat) -> bool {
        self.0[seat.index()].ai.take().is_some()
    }

    pub(super) fn set_ready(&mut self, seat: Seat, ready: bool) {
        self.0[seat.index()].ready = ready;
    }

    /// The ready check timed out: nobody is ready.
    pub(super) fn unready(&mut self) {
        for s in &mut self.0 {
            s.ready = false;
        }
    }

    /// A match starts: intents are counted anew and no rematch vote is left.
    pub(super) fn new_match(&mut self) {
        for s in &mut self.0 {
            s.last_ack = None;
            s.nonces.clear();
            s.rematch = None;
        }
    }

    /// The AI hosts the seat (`idle`: because its present player let its duties time out).
    pub(super) fn host(&mut self, seat: Seat, idle: bool) {
        let s = &mut self.0[seat.index()];
        s.hosted = true;
        s.hosted_idle = idle;
    }

    /// The seat's player turned Auto-play on (it stays on across reconnects until turned off).
    pub(super) fn chose_auto_play(&mut self, seat: Seat) {
        self.0[seat.index()].hosted_chosen = true;
    }

    /// The seat's player takes it back from the AI.
    pub(super) fn unhost(&mut self, seat: Seat) {
        let s = &mut self.0[seat.index()];
        s.hosted = false;
        s.hosted_idle = false;
        s.hosted_chosen = false;
    }

    /// The seat's player asked for what already is: an intent no longer takes the seat back.
    pub(super) fn keep_hosting(&mut self, seat: Seat) {
        self.0[seat.index()].hosted_idle = false;
        self.0[seat.index()].hosted_chosen = true;
    }

    /// The seat's missed actions were rebuilt from the stored log just now.
    pub(super) fn replayed(&mut self, seat: Seat) {
        self.0[seat.index()].last_catch_up = Some(Instant::now());
    }

    /// The seat's intent `seq` with `nonce` was applied.
    pub(super) fn intent_applied(&mut self, seat: Seat, seq: u64, nonce: u64) {
        let s = &mut self.0[seat.index()];
        s.last_ack = Some(seq);
        s.nonces.push_back(nonce);
        if s.nonces.len() > RECENT_NONCES {
            s.nonces.pop_front();
        }
    }

    pub(super) fn vote(&mut self, seat: Seat, accept: bool) {
        self.0[seat.index()].rematch = Some(accept);
    }

    /// The rematch vote closed: nobody is ready or hosted, and players who declined (or did not
    /// vote, or are away) leave their seats. Returns the connections of those who left.
    pub(super) fn close_vote(&mut self) -> Vec<ConnId> {
        let mut left = Vec::new();
        for s in &mut self.0 {
            s.ready = false;
            s.hosted = false;
            s.hosted_chosen = false;
            s.hosted_idle = false;
            if s.player.is_some() && (s.rematch != Some(true) || s.conn.is_none()) {
                left.extend(s.conn);
                *s = Slot::default();
            }
            s.rematch = None;
        }
        left
    }
}
