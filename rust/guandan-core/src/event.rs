//! What players do ([`Action`]) and what happens ([`Event`]), the phases and how a match ends.

use crate::card::CardId;
use crate::card::Rank;
use crate::combo::{Pattern, Play};
use crate::seat::{Seat, Team};
use serde::{Deserialize, Serialize};

/// What a player (or the host, for timeouts) does.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum ActionKind {
    /// Play these cards; `reading` picks among several readings (default: see `choose_reading`).
    Play {
        cards: Vec<CardId>,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        reading: Option<Pattern>,
    },
    Pass,
    Tribute {
        card: CardId,
    },
    Return {
        card: CardId,
    },
    /// The seat's turn time ran out (submitted by the host): pass, or the smallest single,
    /// or the forced tribute / lowest return.
    Timeout,
    ProposeSurrender,
    SurrenderVote {
        accept: bool,
    },
    /// The maximum match duration ran out (submitted by the host).
    TimeUp,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Action {
    pub seq: u64,
    pub seat: Seat,
    #[serde(flatten)]
    pub kind: ActionKind,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Phase {
    Tribute,
    Return,
    Play,
    MatchOver,
}

/// Why a match ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum EndReason {
    /// A team passed its A.
    AceWon,
    Surrender,
    /// The host's maximum duration ran out: higher level wins, equal levels draw.
    TimeUp,
}

impl EndReason {
    /// Stable text (`ace_won`, `surrender`, `time_up`).
    pub fn name(self) -> &'static str {
        match self {
            EndReason::AceWon => "ace_won",
            EndReason::Surrender => "surrender",
            EndReason::TimeUp => "time_up",
        }
    }
}

/// How a match ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "result", rename_all = "snake_case")]
pub enum Outcome {
    Decisive {
        team: Team,
        reason: EndReason,
    },
    /// Only a time-up with equal levels draws.
    Draw {
        reason: EndReason,
    },
}

impl Outcome {
    pub fn winner(self) -> Option<Team> {
        match self {
            Outcome::Decisive { team, .. } => Some(team),
            Outcome::Draw { .. } => None,
        }
    }

    pub fn reason(self) -> EndReason {
        match self {
            Outcome::Decisive { reason, .. } | Outcome::Draw { reason } => reason,
        }
    }
}

/// What happened. `TributeGiven` and `ReturnGiven` are private to the two seats involved.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "event", rename_all = "snake_case")]
pub enum Event {
    DealStarted { deal_no: u32, level: Rank, declarer: Option<Team> },
    TributeRequired { payers: Vec<Seat> },
    Resisted { payers: Vec<Seat> },
    TributeGiven { from: Seat, to: Seat, card: CardId },
    ReturnGiven { from: Seat, to: Seat, card: CardId },
    TurnStarted { seat: Seat, can_pass: bool },
    Played { seat: Seat, play: Play },
    Passed { seat: Seat },
    TableCleared { leader: Seat },
    PartnerTakesLead { seat: Seat },
    CardsLeft { seat: Seat, count: u8 },
    PlayerFinished { seat: Seat, place: u8 },
    DealEnded { order: [Seat; 4], winner: Team, levels_before: [Rank; 2], levels_after: [Rank; 2] },
    SurrenderProposed { seat: Seat },
    SurrenderRejected { seat: Seat },
    MatchEnded { outcome: Outcome },
}

impl Event {
    /// Whether `viewer` may see this event (`None` = spectator).
    pub fn visible_to(&self, viewer: Option<Seat>) -> bool {
        match self {
            Event::TributeGiven { from, to, .. } | Event::ReturnGiven { from, to, .. } => {
                viewer.is_some_and(|v| v == *from || v == *to)
            }
            _ => true,
        }
    }
}
