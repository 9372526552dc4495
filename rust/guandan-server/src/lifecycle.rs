//! The room state machine of the design spec: IDLE → WAITING → READY_CHECK (timeout back to
//! WAITING) → PLAYING ⇄ HOSTING ⇄ RECONNECTING → FINISHED → VOTE_PHASE → IDLE, DESTROYED when the
//! host disbands or nobody is left in a room that runs no match. One table says which event moves
//! which state where; everything else is refused.

use RoomState::*;
pub use guandan_proto::RoomState;

/// What happens to a room.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum RoomEvent {
    /// A human took a seat (or an AI seat was set).
    Join,
    /// A seat was freed; `Emptied` when nobody is left.
    Leave,
    Emptied,
    /// All four seats are taken.
    Full,
    /// A human said ready.
    Ready,
    /// Not everyone was ready in time.
    ReadyTimeout,
    /// The host started the match (all ready).
    Start,
    /// A seated human's heartbeat stopped: the AI hosts the seat.
    HeartbeatLost,
    /// A hosted human came back.
    Reconnect,
    /// The returning human has everything; no seat is hosted any more.
    CaughtUp,
    /// The returning human has everything; another seat is still hosted.
    CaughtUpStillHosting,
    MatchEnded,
    /// The match is stored: the rematch vote opens.
    OpenVote,
    /// The vote passed or timed out: the room unlocks.
    VoteClosed,
    /// The host disbanded the room.
    Disband,
    /// Nobody is left in the room (no human seated, or nobody connected for the idle time):
    /// it closes.
    Abandoned,
}

impl RoomEvent {
    pub const ALL: [RoomEvent; 16] = [
        RoomEvent::Join,
        RoomEvent::Leave,
        RoomEvent::Emptied,
        RoomEvent::Full,
        RoomEvent::Ready,
        RoomEvent::ReadyTimeout,
        RoomEvent::Start,
        RoomEvent::HeartbeatLost,
        RoomEvent::Reconnect,
        RoomEvent::CaughtUp,
        RoomEvent::CaughtUpStillHosting,
        RoomEvent::MatchEnded,
        RoomEvent::OpenVote,
        RoomEvent::VoteClosed,
        RoomEvent::Disband,
        RoomEvent::Abandoned,
    ];
}

/// Every allowed transition. Anything not listed is refused (`bad_room_state`).
pub const TRANSITIONS: &[(RoomState, RoomEvent, RoomState)] = &[
    (Idle, RoomEvent::Join, Waiting),
    (Idle, RoomEvent::Disband, Destroyed),
    (Idle, RoomEvent::Abandoned, Destroyed),
    (Waiting, RoomEvent::Join, Waiting),
    (Waiting, RoomEvent::Leave, Waiting),
    (Waiting, RoomEvent::Emptied, Idle),
    (Waiting, RoomEvent::Full, ReadyCheck),
    (Waiting, RoomEvent::Disband, Destroyed),
    (Waiting, RoomEvent::Abandoned, Destroyed),
    (ReadyCheck, RoomEvent::Ready, ReadyCheck),
    (ReadyCheck, RoomEvent::Leave, Waiting),
    (ReadyCheck, RoomEvent::ReadyTimeout, Waiting),
    (ReadyCheck, RoomEvent::Start, Playing),
    (ReadyCheck, RoomEvent::Disband, Destroyed),
    (ReadyCheck, RoomEvent::Abandoned, Destroyed),
    (Playing, RoomEvent::HeartbeatLost, Hosting),
    (Playing, RoomEvent::MatchEnded, Finished),
    (Hosting, RoomEvent::HeartbeatLost, Hosting),
    (Hosting, RoomEvent::Reconnect, Reconnecting),
    (Hosting, RoomEvent::MatchEnded, Finished),
    (Reconnecting, RoomEvent::CaughtUp, Playing),
    (Reconnecting, RoomEvent::CaughtUpStillHosting, Hosting),
    (Reconnecting, RoomEvent::HeartbeatLost, Reconnecting),
    (Reconnecting, RoomEvent::MatchEnded, Finished),
    (Finished, RoomEvent::OpenVote, VotePhase),
    (VotePhase, RoomEvent::VoteClosed, Idle),
];

/// The state after `event`, or `None` when the event is not allowed in `state`.
pub fn next(state: RoomState, event: RoomEvent) -> Option<RoomState> {
    TRANSITIONS.iter().find(|(s, e, _)| *s == state && *e == event).map(|t| t.2)
}

#[cfg(test)]
mod tests {
    use super::*;

    use RoomEvent as E;

    /// Runs `events` from `start`, checking the state after each; returns the transitions used.
    fn story(start: RoomState, steps: &[(RoomEvent, RoomState)]) -> Vec<(RoomState, RoomEvent)> {
        let mut s = start;
        let mut used = Vec::new();
        for &(e, want) in steps {
            let got = next(s, e).unwrap_or_else(|| panic!("{s:?} refused {e:?}"));
            assert_eq!(got, want, "{s:?} + {e:?}");
            used.push((s, e));
            s = got;
        }
        used
    }

    /// The lives a room leads, as the room drives them (lobby.rs, play.rs, rematch.rs): each step's
    /// state is what the players are told. Together they take every transition the table has, so
    /// a transition no story needs is dead weight and fails this test.
    #[test]
    fn the_rooms_stories_take_every_transition() {
        let mut used = Vec::new();
        // Four players meet, one is slow to be ready, they start; a player drops out and comes
        // back while another is away; the match ends, the rematch vote closes.
        used.extend(story(
            Idle,
            &[
                (E::Join, Waiting),
                (E::Join, Waiting),
                (E::Full, ReadyCheck),
                (E::Ready, ReadyCheck),
                (E::ReadyTimeout, Waiting),
                (E::Full, ReadyCheck),
                (E::Start, Playing),
                (E::HeartbeatLost, Hosting),
                (E::HeartbeatLost, Hosting),
                (E::Reconnect, Reconnecting),
                (E::HeartbeatLost, Reconnecting),
                (E::CaughtUpStillHosting, Hosting),
                (E::Reconnect, Reconnecting),
                (E::CaughtUp, Playing),
                (E::MatchEnded, Finished),
                (E::OpenVote, VotePhase),
                (E::VoteClosed, Idle),
            ],
        ));
        // The match ends while a seat is hosted, and while a player catches up.
        used.extend(story(Playing, &[(E::HeartbeatLost, Hosting), (E::MatchEnded, Finished)]));
        used.extend(story(Hosting, &[(E::Reconnect, Reconnecting), (E::MatchEnded, Finished)]));
        // Lobbies that empty, lose a player in the ready check, are disbanded or abandoned.
        used.extend(story(Idle, &[(E::Join, Waiting), (E::Leave, Waiting), (E::Emptied, Idle)]));
        used.extend(story(ReadyCheck, &[(E::Leave, Waiting)]));
        for s in [Idle, Waiting, ReadyCheck] {
            used.extend(story(s, &[(E::Disband, Destroyed)]));
            used.extend(story(s, &[(E::Abandoned, Destroyed)]));
        }
        used.sort();
        used.dedup();
        let mut table: Vec<(RoomState, RoomEvent)> = TRANSITIONS.iter().map(|t| (t.0, t.1)).collect();
        table.sort();
        assert_eq!(used, table, "every transition is one a room makes");
    }

    /// What the room refuses, each with the reason a player would be given.
    #[test]
    fn what_a_room_refuses() {
        // Nobody joins, disbands or abandons a room while its match runs (or its result is out).
        for s in [Playing, Hosting, Reconnecting, Finished, VotePhase] {
            for e in [E::Join, E::Disband, E::Abandoned, E::Start, E::Ready] {
                assert_eq!(next(s, e), None, "{s:?} + {e:?}");
            }
        }
        // A match starts only from a full, ready room.
        assert_eq!(next(Waiting, E::Start), None);
        assert_eq!(next(Idle, E::Start), None);
        // Ready only while a ready check runs; no vote before the match is stored.
        assert_eq!(next(Waiting, E::Ready), None);
        assert_eq!(next(Finished, E::VoteClosed), None);
        assert_eq!(next(Playing, E::OpenVote), None);
        // Nobody reconnects to a seat nobody hosts.
        assert_eq!(next(Playing, E::Reconnect), None);
        assert_eq!(next(Playing, E::CaughtUp), None);
        // Every state can be reached from a new room.
        let mut seen = vec![Idle];
        let mut i = 0;
        while i < seen.len() {
            for e in RoomEvent::ALL {
                if let Some(t) = next(seen[i], e)
                    && !seen.contains(&t)
                {
                    seen.push(t);
                }
            }
            i += 1;
        }
        assert_eq!(seen.len(), RoomState::ALL.len(), "reached: {seen:?}");
    }

    #[test]
    fn destroyed_is_final_and_in_game_rooms_are_locked() {
        for e in RoomEvent::ALL {
            assert_eq!(next(Destroyed, e), None);
        }
        for s in RoomState::ALL {
            // Only a room with no match running can be disbanded or joined.
            if s.locked() {
                assert_eq!(next(s, RoomEvent::Join), None, "{s:?}");
                assert_eq!(next(s, RoomEvent::Disband), None, "{s:?}");
                assert_eq!(next(s, RoomEvent::Abandoned), None, "{s:?}");
            }
        }
        // Every state but DESTROYED can be left again.
        for s in RoomState::ALL.into_iter().filter(|&s| s != Destroyed) {
            assert!(RoomEvent::ALL.iter().any(|&e| next(s, e).is_some_and(|t| t != s)), "{s:?} is a dead end");
        }
    }
}
