//! Seats and teams. A seat is 0–3 and play goes 0→1→2→3; seats 0 and 2 are team 0, seats 1 and 3
//! team 1. `Team` is its own type so a team can never be passed where a seat is expected.

use serde::{Deserialize, Serialize};

/// A seat, 0–3. The field is private, so every `Seat` in hand is in range: the checks happen once,
/// where a number comes in (wire and files through serde's `try_from`, FFI and CLI through
/// [`Seat::new`] / `TryFrom`). Serialized as its number.
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(try_from = "u8", into = "u8")]
pub struct Seat(u8);

/// A number that names no seat (kept wide, as the front end or the file gave it).
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
#[error("seat {0} is out of range 0-3")]
pub struct SeatOutOfRange(pub i64);

impl Seat {
    pub const ZERO: Seat = Seat(0);
    pub const ONE: Seat = Seat(1);
    pub const TWO: Seat = Seat(2);
    pub const THREE: Seat = Seat(3);
    /// The four seats in play order.
    pub const ALL: [Seat; 4] = [Seat::ZERO, Seat::ONE, Seat::TWO, Seat::THREE];

    /// `Some` for 0–3.
    pub const fn new(n: u8) -> Option<Seat> {
        if n < 4 { Some(Seat(n)) } else { None }
    }

    /// The seat at `index` 0–3 (e.g. a position in a `[_; 4]`); `None` beyond.
    pub const fn from_index(index: usize) -> Option<Seat> {
        if index < 4 { Some(Seat(index as u8)) } else { None }
    }

    /// 0–3, to index a `[_; 4]` of per-seat data.
    pub const fn index(self) -> usize {
        self.0 as usize
    }

    /// This seat's bit in a 4-bit mask of seats.
    pub const fn bit(self) -> u8 {
        1 << self.0
    }

    /// The seat that plays after this one.
    pub const fn next(self) -> Seat {
        Seat((self.0 + 1) % 4)
    }

    /// The seat `steps` places later in play order.
    pub const fn after(self, steps: u8) -> Seat {
        Seat(((self.0 as u16 + steps as u16) % 4) as u8)
    }

    /// The seat across the table.
    pub const fn partner(self) -> Seat {
        Seat((self.0 + 2) % 4)
    }

    pub const fn team(self) -> Team {
        Team(self.0 % 2)
    }
}

impl TryFrom<u8> for Seat {
    type Error = SeatOutOfRange;
    fn try_from(n: u8) -> Result<Self, Self::Error> {
        Seat::new(n).ok_or(SeatOutOfRange(i64::from(n)))
    }
}

impl TryFrom<i64> for Seat {
    type Error = SeatOutOfRange;
    fn try_from(n: i64) -> Result<Self, Self::Error> {
        u8::try_from(n).ok().and_then(Seat::new).ok_or(SeatOutOfRange(n))
    }
}

impl From<Seat> for u8 {
    fn from(s: Seat) -> u8 {
        s.0
    }
}

impl From<Seat> for i64 {
    fn from(s: Seat) -> i64 {
        i64::from(s.0)
    }
}

impl From<Seat> for i32 {
    fn from(s: Seat) -> i32 {
        i32::from(s.0)
    }
}

impl From<Seat> for usize {
    fn from(s: Seat) -> usize {
        s.index()
    }
}

/// The bare number, as the rules' messages and logs have always written a seat.
impl std::fmt::Display for Seat {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        self.0.fmt(f)
    }
}

/// The bare number too, so debug dumps read as they did when a seat was a `u8`.
impl std::fmt::Debug for Seat {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        self.0.fmt(f)
    }
}

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
        seat.team()
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
        seat.0 % 2 == self.0
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
    seat.team()
}

pub const fn partner_of(seat: Seat) -> Seat {
    seat.partner()
}

pub const fn next_seat(seat: Seat) -> Seat {
    seat.next()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn teams_serialize_as_numbers_and_reject_others() {
        assert_eq!(serde_json::to_string(&Team::ONE).unwrap(), "1");
        assert_eq!(serde_json::from_str::<Team>("0").unwrap(), Team::ZERO);
        assert!(serde_json::from_str::<Team>("2").is_err());
        let [s0, s1, s2, s3] = Seat::ALL;
        assert_eq!(Team::of(s3), Team::ONE);
        assert_eq!(Team::of(s2).other(), Team::ONE);
        assert!(Team::ZERO.has(s2) && !Team::ZERO.has(s1));
        assert!(Team::ZERO.has(s0));
    }

    #[test]
    fn seats_are_their_number_on_the_wire_and_refuse_others() {
        let s2 = Seat::new(2).unwrap();
        assert_eq!(serde_json::to_string(&s2).unwrap(), "2");
        assert_eq!(serde_json::to_string(&[Some(s2), None]).unwrap(), "[2,null]");
        assert_eq!(serde_json::from_str::<Seat>("3").unwrap(), Seat::THREE);
        for bad in ["4", "7", "255", "-1", "256", "\"2\""] {
            assert!(serde_json::from_str::<Seat>(bad).is_err(), "{bad} accepted");
        }
        let err = serde_json::from_str::<Seat>("4").unwrap_err().to_string();
        assert!(err.contains("seat 4 is out of range 0-3"), "{err}");
        assert_eq!(Seat::try_from(7u8), Err(SeatOutOfRange(7)));
        assert_eq!(Seat::try_from(-1i64), Err(SeatOutOfRange(-1)));
        assert_eq!(Seat::try_from(1i64).map(u8::from), Ok(1));
        assert_eq!(Seat::new(4), None);
        assert_eq!(Seat::from_index(4), None);
    }

    #[test]
    fn seats_go_round_the_table() {
        let order: Vec<u8> = Seat::ALL.iter().map(|s| u8::from(s.next())).collect();
        assert_eq!(order, [1, 2, 3, 0]);
        let partners: Vec<u8> = Seat::ALL.iter().map(|s| u8::from(s.partner())).collect();
        assert_eq!(partners, [2, 3, 0, 1]);
        assert_eq!(Seat::THREE.after(6), Seat::ONE);
        assert_eq!(Seat::ALL.map(|s| s.team().index()), [0, 1, 0, 1]);
        assert_eq!(Seat::ALL.map(|s| s.bit()), [1, 2, 4, 8]);
        assert_eq!(format!("{} {:?}", Seat::TWO, Seat::TWO), "2 2");
    }
}
