//! Who may receive what the runtime tells front ends ([`Out`], defined in the core so that the
//! online protocol needs only the core). Hidden information is split at the source: a tribute card is one notice for the two seats involved and a second, without
//! the card, for everybody else; a hand is a notice for its own seat only.

use guandan_core::game::Seat;
pub use guandan_core::notice::Out;
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
