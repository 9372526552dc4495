//! What the runtime tells front ends: the match's events as a viewer may learn them, with the
//! runtime's own (turn clocks, AI seats). Here rather than in the runtime so that the online
//! protocol, which sends them, needs the rules core only.

use crate::card::{CardId, CardSet, Rank};
use crate::combo::Play;
use crate::event::Outcome;
use crate::seat::{Seat, Team};
use serde::{Deserialize, Serialize};

/// One thing that happened, in order. Serialized as the online protocol's `applied` events
/// (card sets and plays as card-id lists, [`crate::card_ids`]): the server sends what the
/// runtime lets each recipient have, as is.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "event", rename_all = "snake_case")]
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
        #[serde(with = "crate::card_ids::set")]
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
        #[serde(with = "crate::card_ids::play")]
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

impl Out {
    /// Every card id this notice shows (the server's leak checks).
    pub fn cards(&self) -> CardSet {
        match self {
            Out::HandChanged { hand, .. } => *hand,
            Out::CardsPlayed { play, .. } => play.cards,
            Out::TributeGiven { card, .. } | Out::ReturnGiven { card, .. } => {
                card.map_or(CardSet::EMPTY, |c| CardSet::EMPTY.with(c))
            }
            Out::MatchStarted { .. }
            | Out::DealStarted { .. }
            | Out::TributePhase { .. }
            | Out::ReturnPhase { .. }
            | Out::TurnStarted { .. }
            | Out::Passed { .. }
            | Out::TableCleared { .. }
            | Out::PartnerTakesLead { .. }
            | Out::CardsLeft { .. }
            | Out::PlayerFinished { .. }
            | Out::DealEnded { .. }
            | Out::SurrenderProposed { .. }
            | Out::SurrenderVoted { .. }
            | Out::MatchEnded { .. }
            | Out::ControllerChanged { .. }
            | Out::AiDecided { .. }
            | Out::TimedOut { .. } => CardSet::EMPTY,
        }
    }
}
