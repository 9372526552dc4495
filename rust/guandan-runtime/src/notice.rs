//! Who may receive what the runtime tells front ends ([`Out`], defined in the core so that the
//! online protocol needs only the core). Hidden information is split at the source: a tribute card is one notice for the two seats involved and a second, without
//! the card, for everybody else; a hand is a notice for its own seat only.

use guandan_core::game::{Match, Seat, Team};
pub use guandan_core::notice::Out;
use guandan_core::view::PlayerView;
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
    /// A spectator shown one team's hands (a friend room's setting): that team's hands and the
    /// tribute cards its seats gave or got, nothing of the other team's.
    Team(Team),
}

impl Viewer {
    /// What this viewer may know of `m` now (an omniscient viewer gets the spectator's view; it
    /// reads hands from the match itself).
    pub fn view(self, m: &Match) -> PlayerView {
        match self {
            Viewer::Seat(s) => m.view(Some(s)),
            Viewer::Team(t) => m.team_view(t),
            Viewer::Spectator | Viewer::Omniscient => m.view(None),
        }
    }

    /// The viewer's own seat, if it plays.
    pub fn seat(self) -> Option<Seat> {
        match self {
            Viewer::Seat(s) => Some(s),
            Viewer::Spectator | Viewer::Omniscient | Viewer::Team(_) => None,
        }
    }
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
        seats.iter().fold(0, |m, &s| m | s.bit())
    }

    pub fn includes(self, viewer: Viewer) -> bool {
        match (self, viewer) {
            (Audience::Everyone, _) => true,
            (Audience::Only(_), Viewer::Omniscient) => true,
            (Audience::Only(mask), Viewer::Seat(s)) => mask & (s.bit()) != 0,
            (Audience::Only(_), Viewer::Spectator) => false,
            (Audience::Except(_), Viewer::Omniscient) => false,
            (Audience::Except(mask), Viewer::Seat(s)) => mask & (s.bit()) == 0,
            (Audience::Except(_), Viewer::Spectator) => true,
            // A team's viewer is inside a notice for either of its seats: of each Only/Except
            // pair exactly one reaches it.
            (Audience::Only(mask), Viewer::Team(t)) => mask & team_mask(t) != 0,
            (Audience::Except(mask), Viewer::Team(t)) => mask & team_mask(t) == 0,
        }
    }
}

/// The seat mask of a team's two seats.
fn team_mask(t: Team) -> u8 {
    Seat::ALL.into_iter().filter(|&s| t.has(s)).fold(0, |m, s| m | s.bit())
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
        let only = Audience::Only(Audience::seats(&[Seat::ONE, Seat::THREE]));
        let except = Audience::Except(Audience::seats(&[Seat::ONE, Seat::THREE]));
        for s in Seat::ALL {
            let inside = s == Seat::ONE || s == Seat::THREE;
            assert_eq!(only.includes(Viewer::Seat(s)), inside);
            assert_eq!(except.includes(Viewer::Seat(s)), !inside);
        }
        assert!(!only.includes(Viewer::Spectator) && except.includes(Viewer::Spectator));
        assert!(only.includes(Viewer::Omniscient) && !except.includes(Viewer::Omniscient));
        assert!(Audience::Everyone.includes(Viewer::Spectator));
    }

    #[test]
    fn a_team_viewer_gets_exactly_one_of_each_pair() {
        for mask in 1..16u8 {
            for team in Team::BOTH {
                let v = Viewer::Team(team);
                let touches = Seat::ALL.into_iter().any(|s| mask & s.bit() != 0 && team.has(s));
                assert_eq!(Audience::Only(mask).includes(v), touches, "only {mask:04b} {team}");
                assert_eq!(Audience::Except(mask).includes(v), !touches, "except {mask:04b} {team}");
                assert!(Audience::Everyone.includes(v));
            }
        }
        // A hand notice (its own seat only) reaches that seat's team viewer and no other.
        for s in Seat::ALL {
            let hand = Audience::Only(s.bit());
            assert!(hand.includes(Viewer::Team(Team::of(s))));
            assert!(!hand.includes(Viewer::Team(Team::of(s).other())));
        }
    }
}
