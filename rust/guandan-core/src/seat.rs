//! Seats and teams. A seat is 0–3 and play goes 0→1→2→3; seats 0 and 2 are team 0, seats 1 and 3
//! team 1. `Team` is its own type so a team can never be passed where a seat is expected.

use serde::{Deserialize, Serialize};

/// A seat, 0–3.
pub type Seat = u8;

/// A partnership: team 0 (seats 0 and 2) or team 1 (seats 1 and 3). Serialized as its number.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(try_from = "u8", into = "u8")]
pub struct Team(u8);

impl Team {
    pub const ZERO: Team = Team(0);
    pub const ONE: Team = Team(1);
    pub const BOTH: [Team; 2] = [Team::ZERO, Team::ONE];

    /// The team of a seat.
    pub const fn of(seat: Seat) -> Team {
        Team(seat % 2)
    }

    /// 0 or 1, e.g. to index `team_levels`.
    pub const fn index(self) -> usize {
        self.0 as usize
    }

    pub const fn other(self) -> Team {
        Team(1 - self.0)
    }

    /// Whether `seat` plays for this team.
    pub const fn has(self, seat: Seat) -> bool {
        seat % 2 == self.0
    }

    /// `Some` for 0 or 1.
    pub const fn new(n: u8) -> Option<Team> {
        if n < 2 { Some(Team(n)) } else { None }
    }
}

impl TryFrom<u8> for Team {
    type Error = String;
    fn try_from(n: u8) -> Result<Self, Self::Error> {
        Team::new(n).ok_or_else(|| format!("team {n} is not 0 or 1"))
    }
}

impl From<Team> for u8 {
    fn from(t: Team) -> u8 {
        t.0
    }
}

impl std::fmt::Display for Team {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "team {}", self.0)
    }
}

pub const fn team_of(seat: Seat) -> Team {
    Team::of(seat)
}

pub const fn partner_of(seat: Seat) -> Seat {
    (seat + 2) % 4
}

pub const fn next_seat(seat: Seat) -> Seat {
    (seat + 1) % 4
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn teams_serialize_as_numbers_and_reject_others() {
        assert_eq!(serde_json::to_string(&Team::ONE).unwrap(), "1");
        assert_eq!(serde_json::from_str::<Team>("0").unwrap(), Team::ZERO);
        assert!(serde_json::from_str::<Team>("2").is_err());
        assert_eq!(Team::of(3), Team::ONE);
        assert_eq!(Team::of(2).other(), Team::ONE);
        assert!(Team::ZERO.has(2) && !Team::ZERO.has(1));
    }
}
