//! What the runtime tells front ends, and who may receive it. Hidden information is split at
//! the source: a tribute card is one notice for the two seats involved and a second, without
//! the card, for everybody else; a hand is a notice for its own seat only.

use guandan_core::card::{CardId, CardSet, Rank};
use guandan_core::combo::Play;
use guandan_core::game::{Outcome, Seat, Team};
use serde::{Deserialize, Serialize};

/// Who looks at the match.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "kind", content = "seat", rename_all = "snake_case")]
pub enum Viewer {
    /// A player: their own hand, tributes they gave or got.
    Seat(Seat),
    /// Watches without a hand of their own: no hand, no tribute card.
    Spectator,
    /// Sees everything: a table with no human (AI-only match) or a finished match's review.
    Omniscient,
}

/// The recipients of a notice (a seat mask: bit `s` = seat `s`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "to", content = "seats", rename_all = "snake_case")]
pub enum Audience {
    Everyone,
    /// Only these seats (and omniscient viewers).
    Only(u8),
    /// Everyone but these seats, and not omniscient viewers: the redacted copy of an `Only` notice.
    Except(u8),
}

impl Audience {
    pub fn seats(seats: &[Seat]) -> u8 {
        seats.iter().fold(0, |m, &s| m | 1 << s)
    }

    pub fn includes(self, viewer: Viewer) -> bool {
        match (self, viewer) {
            (Audience::Everyone, _) => true,
            (Audience::Only(_), Viewer::Omniscient) => true,
            (Audience::Only(mask), Viewer::Seat(s)) => mask & (1 << s) != 0,
            (Audience::Only(_), Viewer::Spectator) => false,
            (Audience::Except(_), Viewer::Omniscient) => false,
            (Audience::Except(mask), Viewer::Seat(s)) => mask & (1 << s) == 0,
            (Audience::Except(_), Viewer::Spectator) => true,
        }
    }
}

/// One thing that happened, in order. Serializable: the server sends these (filtered) as is.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum Out {
    /// A match started (or was resumed) with this seed.
    MatchStarted {
        seed: u64,
    },
    DealStarted {
        deal_no: u32,
        level: Rank,
        declarer: Option<Team>,
    },
    /// The seat's whole hand after a change (new deal, tribute, return, own play).
    HandChanged {
        seat: Seat,
        hand: CardSet,
    },
    /// Tribute is due from `payers`; `resisted` when they hold the big jokers and pay nothing.
    TributePhase {
        payers: Vec<Seat>,
        resisted: bool,
    },
    /// `card` is `None` for recipients who may not see it.
    TributeGiven {
        from: Seat,
        to: Seat,
        card: Option<CardId>,
    },
    ReturnPhase {
        receivers: Vec<Seat>,
    },
    ReturnGiven {
        from: Seat,
        to: Seat,
        card: Option<CardId>,
    },
    /// `time_limit_s` is 0 when no clock runs for the seat (AI, clocks off, unlimited rules).
    TurnStarted {
        seat: Seat,
        can_pass: bool,
        time_limit_s: f64,
    },
    CardsPlayed {
        seat: Seat,
        play: Play,
    },
    Passed {
        seat: Seat,
    },
    TableCleared {
        leader: Seat,
    },
    PartnerTakesLead {
        seat: Seat,
    },
    CardsLeft {
        seat: Seat,
        count: u8,
    },
    PlayerFinished {
        seat: Seat,
        place: u8,
    },
    DealEnded {
        order: [Seat; 4],
        winner: Team,
        levels_before: [Rank; 2],
        levels_after: [Rank; 2],
    },
    SurrenderProposed {
        seat: Seat,
    },
    SurrenderVoted {
        seat: Seat,
        accept: bool,
    },
    MatchEnded {
        outcome: Outcome,
    },
    /// The seat is now played by the AI (`ai`) or by its human again (auto-play, hosting).
    ControllerChanged {
        seat: Seat,
        ai: bool,
    },
    /// An AI seat's decision arrived after `elapsed_ms`; `fell_back` when the hard limit cut it.
    AiDecided {
        seat: Seat,
        elapsed_ms: f64,
        fell_back: bool,
    },
    /// A human seat ran out of time; the runtime acted for it.
    TimedOut {
        seat: Seat,
    },
}

/// An [`Out`] with its recipients and the number of actions applied when it happened.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Notice {
    pub seq: u64,
    pub audience: Audience,
    pub out: Out,
}

impl Notice {
    pub fn everyone(seq: u64, out: Out) -> Notice {
        Notice { seq, audience: Audience::Everyone, out }
    }

    pub fn visible_to(&self, viewer: Viewer) -> bool {
        self.audience.includes(viewer)
    }
}

/// What one recipient may receive of these notices, in order.
pub fn for_viewer(notices: &[Notice], viewer: Viewer) -> Vec<Out> {
    notices.iter().filter(|n| n.visible_to(viewer)).map(|n| n.out.clone()).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn audiences_split_private_information() {
        let only = Audience::Only(Audience::seats(&[1, 3]));
        let except = Audience::Except(Audience::seats(&[1, 3]));
        for s in 0..4u8 {
            let inside = s == 1 || s == 3;
            assert_eq!(only.includes(Viewer::Seat(s)), inside);
            assert_eq!(except.includes(Viewer::Seat(s)), !inside);
        }
        assert!(!only.includes(Viewer::Spectator) && except.includes(Viewer::Spectator));
        assert!(only.includes(Viewer::Omniscient) && !except.includes(Viewer::Omniscient));
        assert!(Audience::Everyone.includes(Viewer::Spectator));
    }
}
