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

    /// The spec's diagram, written out once more by hand: every (state, event) pair is either in
    /// this list with its target or must be refused.
    #[test]
    fn every_pair_is_allowed_or_refused_as_specified() {
        let expected: &[(RoomState, RoomEvent, RoomState)] = &[
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
        let mut allowed = 0;
        for s in RoomState::ALL {
            for e in RoomEvent::ALL {
                let want = expected.iter().find(|(a, b, _)| *a == s && *b == e).map(|t| t.2);
                assert_eq!(next(s, e), want, "{s:?} + {e:?}");
                allowed += want.is_some() as usize;
            }
        }
        assert_eq!(allowed, expected.len());
        assert_eq!(RoomState::ALL.len() * RoomEvent::ALL.len() - allowed, 144 - 26, "refused pairs");
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
