//! How far the current deal has come, the parts of it both a [`Match`](crate::game::Match) and a
//! [`Setup`](crate::setup::Setup) hold: its tributes, an open surrender vote, the public history.

use crate::card::CardId;
use crate::combo::Play;
use crate::seat::{Seat, Team, team_of};
use serde::{Deserialize, Serialize};

/// One tribute of the current deal.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Tribute {
    pub payer: Seat,
    /// Set once every payer has given (cards are routed together).
    pub receiver: Option<Seat>,
    pub card: Option<CardId>,
    /// `None` until returned; stays `None` when no return is owed.
    pub returned: Option<CardId>,
    pub return_owed: bool,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Surrender {
    pub team: Team,
    pub proposer: Seat,
    /// Seats that accepted so far (bit per seat).
    pub accepted: u8,
    /// Opponents that refused while the vote stayed open (bit per seat). Only possible when one
    /// opponent's acceptance suffices; left out of the encoding when empty, so states (and
    /// hashes) of matches recorded before this field existed are unchanged.
    #[serde(default, skip_serializing_if = "is_zero")]
    pub refused: u8,
}

fn is_zero(v: &u8) -> bool {
    *v == 0
}

impl Surrender {
    /// Whether `seat` has voted (or proposed).
    pub fn voted(&self, seat: Seat) -> bool {
        (self.accepted | self.refused) & seat.bit() != 0
    }

    /// Acceptances from the opposing team so far.
    pub(crate) fn opponent_accepts(&self) -> u32 {
        (self.accepted & !team_mask(self.team)).count_ones()
    }
}

/// The seats of a team as bits.
pub(crate) fn team_mask(team: Team) -> u8 {
    Seat::ALL.into_iter().filter(|&s| team_of(s) == team).fold(0, |m, s| m | s.bit())
}

/// One entry of the public history of the current deal.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Turn {
    pub seat: Seat,
    /// `None` is a pass.
    pub play: Option<Play>,
}
