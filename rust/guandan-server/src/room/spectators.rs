//! Spectators: they see the match `rounds` table-clears late and never a hand, except one team's
//! hands when the host of a friend room allows it (the match's spectator viewer, fixed when the
//! match starts: every spectator message and kept state is made for it).
//!
//! Everything a spectator is sent comes from what the room keeps as the match goes on, never
//! from the stored log: the spectators' messages not yet released (made only while someone
//! watches), and their full state at the released point and at each later round point (made
//! when the match passed that point; at most `rounds` + 1 of them). A spectator who arrives or
//! asks for a resync costs one queued message, whatever the match's length.

use super::*;

/// What spectators are sent and when: owned by the room and changed only here. Spectators see
/// the match `rounds` rounds late.
pub(super) struct Delay {
    rounds: u32,
    /// Who a spectator of this match is (`Viewer::Spectator`, or a team's hands shown).
    viewer: Viewer,
    /// The last `rounds` round points (action counts at which a round ended), oldest first: the
    /// oldest is where spectators are released to.
    points: VecDeque<u64>,
    /// Rounds ended in this match (its stored metadata).
    rounds_ended: usize,
    /// Spectator messages not yet released: (action_seq, text).
    held: VecDeque<(u64, Arc<str>)>,
    /// `held` holds a message for every step after this action count (the spectators watched
    /// since); before it there is a gap, bridged by a full state at the next release.
    held_from: u64,
    /// Spectators have seen the match up to this action count.
    released: u64,
    /// The match is over: nothing is held back any more.
    ended: bool,
    /// The spectators' full state at `released` and at every later round point.
    snapshots: VecDeque<(u64, Arc<str>)>,
}

impl Delay {
    pub(super) fn new(rounds: u32, viewer: Viewer) -> Delay {
        Delay {
            rounds,
            viewer,
            points: VecDeque::new(),
            rounds_ended: 0,
            held: VecDeque::new(),
            held_from: 0,
            released: 0,
            ended: false,
            snapshots: VecDeque::new(),
        }
    }

    /// A new match: spectators start at its first state.
    pub(super) fn new_match(&mut self, rounds: u32, viewer: Viewer, first: Arc<str>) {
        *self = Delay::new(rounds, viewer);
        if rounds > 0 {
            self.snapshots.push_back((0, first));
        }
    }

    /// Who a spectator of this match is.
    pub(super) fn viewer(&self) -> Viewer {
        self.viewer
    }

    /// Rounds ended in this match.
    pub(super) fn rounds_ended(&self) -> usize {
        self.rounds_ended
    }

    /// The delayed view of a logged match (a restored room), rebuilt by one replay.
    pub(super) fn replayed(rounds: u32, viewer: Viewer, log: &MatchLog) -> Delay {
        let mut d = Delay::new(rounds, viewer);
        let Ok((mut m, _)) = log.start() else {
            return d;
        };
        if rounds > 0 {
            d.snapshots.push_back((0, text(&game::spectator_state(&m, viewer))));
        }
        for a in &log.actions {
            let Ok(events) = m.apply(a) else { break };
            if game::event_ends_round(&events) {
                d.round_ended(m.seq(), || text(&game::spectator_state(&m, viewer)));
                let point = d.point(m.seq());
                while d.snapshots.front().is_some_and(|(s, _)| *s < point) {
                    d.snapshots.pop_front();
                }
            }
        }
        d
    }

    /// A round ended after `seq` actions; `snapshot` makes the spectators' state there.
    pub(super) fn round_ended(&mut self, seq: u64, snapshot: impl FnOnce() -> Arc<str>) {
        self.rounds_ended += 1;
        if self.rounds == 0 {
            return;
        }
        self.points.push_back(seq);
        if self.points.len() > self.rounds as usize {
            self.points.pop_front();
        }
        self.snapshots.push_back((seq, snapshot()));
    }

    /// Where spectators may be now, with the match at `live` actions.
    fn point(&self, live: u64) -> u64 {
        let n = self.rounds as usize;
        if n == 0 || self.ended {
            live
        } else if self.points.len() >= n {
            self.points[0]
        } else {
            0
        }
    }

    /// A spectator message about the step that ended at `seq` (while someone watches).
    pub(super) fn hold(&mut self, seq: u64, t: Arc<str>) {
        self.held.push_back((seq, t));
    }

    /// Nobody watches: nothing is held.
    pub(super) fn unwatched(&mut self) {
        self.held.clear();
    }

    /// The first spectator arrived with the match at `live` actions: messages are held from now.
    fn watched_from(&mut self, live: u64) {
        self.held.clear();
        self.held_from = live;
    }

    /// The match is over: everything may be shown.
    pub(super) fn over(&mut self) {
        self.ended = true;
    }
}

impl Room {
    /// The spectators' full state at `seq` (a released point): the live table's when the match
    /// is there now, else the one kept from when it passed there.
    fn spectator_snapshot(&self, seq: u64) -> Option<Arc<str>> {
        if let Some(g) = self.play.game()
            && g.action_seq() == seq
        {
            return Some(text(&g.state_msg(self.delay.viewer)));
        }
        let found = self.delay.snapshots.iter().find(|(s, _)| *s == seq).map(|(_, t)| t.clone());
        if found.is_none() {
            tracing::error!(seq, "no spectator state kept at the released point");
        }
        found
    }

    pub(super) async fn spectate(&mut self, conn: ConnId, out: Outbox) {
        let again = self.members.is_spectator(conn);
        let watching = self.members.spectator_count() - usize::from(again);
        if watching >= MAX_SPECTATORS {
            return self.reject_join(conn, out, ErrorCode::RoomFull, "50 spectators already watch");
        }
        if watching == 0 {
            // Nobody watched, so nothing was held: from now on it is.
            let live = self.play.seq().unwrap_or(0);
            self.delay.watched_from(live);
        }
        self.members.join(conn, out, None);
        self.send_msg(conn, &ServerMsg::Joined { code: self.code.clone(), seat: None });
        // From the latest released round: the delayed table (no hand but the allowed team's).
        if self.play.game().is_some()
            && let Some(t) = self.spectator_snapshot(self.delay.released)
        {
            self.send_to(conn, t);
        }
        if again {
            // Nothing changed for the others (a spectator asking again): only it hears.
            self.send_room_to(conn);
        } else {
            self.send_room();
        }
    }

    /// A spectator's `resync`: the delayed table again.
    pub(super) fn spectator_resync(&mut self, conn: ConnId) {
        match self.play.game().and_then(|_| self.spectator_snapshot(self.delay.released)) {
            Some(t) => self.send_to(conn, t),
            None => self.send_room_to(conn),
        }
    }

    /// Sends spectators what is at least `rounds` rounds old.
    pub(super) fn release_spectators(&mut self) {
        let live = self.play.seq().unwrap_or(0);
        let point = self.delay.point(live).max(self.delay.released);
        let spectators = self.members.spectators();
        if point > self.delay.released && self.delay.held_from > self.delay.released {
            // Spectators arrived while nothing was held: the full state at the new point bridges
            // the gap; what is held after it follows at the next releases.
            if !spectators.is_empty()
                && let Some(t) = self.spectator_snapshot(point)
            {
                for c in &spectators {
                    self.send_to(*c, t.clone());
                }
            }
            while self.delay.held.front().is_some_and(|(seq, _)| *seq <= point) {
                self.delay.held.pop_front();
            }
        }
        while self.delay.held.front().is_some_and(|(seq, _)| *seq <= point) {
            let Some((_, t)) = self.delay.held.pop_front() else { break };
            for c in &spectators {
                self.send_to(*c, t.clone());
            }
        }
        self.delay.released = point;
        while self.delay.snapshots.front().is_some_and(|(s, _)| *s < point) {
            self.delay.snapshots.pop_front();
        }
    }
}
