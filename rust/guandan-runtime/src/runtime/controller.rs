//! Who plays each seat (a human, the AI, or the AI standing in for an away human) and how AI
//! seats answer a surrender proposal: the host's policy around the rules.

use guandan_ai::AiProfile;
use guandan_core::game::{Seat, Team};

/// Who plays a seat.
#[derive(Clone, Debug, PartialEq)]
pub enum Controller {
    Human,
    Ai(AiProfile),
    /// The AI plays a human's seat while they are away or on auto-play (托管). It plays like
    /// [`Controller::Ai`] but votes on a surrender as [`SurrenderPolicy::stand_in`] says (by
    /// default it refuses every proposal: no team gives up a match for a player who was not
    /// there to agree).
    StandIn(AiProfile),
}

/// How an AI-controlled seat answers a surrender proposal.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum AiVote {
    Accept,
    Refuse,
    /// Accepts its partner's proposal (the partner who stayed may give up), refuses the
    /// opponents'.
    PartnersOnly,
    /// Accepts the opponents' proposal (they give up and take the loss), never gives up for its
    /// own team.
    OpponentsOnly,
}

impl AiVote {
    pub(super) fn accepts(self, seat: Seat, proposer: Seat) -> bool {
        match self {
            AiVote::Accept => true,
            AiVote::Refuse => false,
            AiVote::PartnersOnly => Team::of(seat) == Team::of(proposer),
            AiVote::OpponentsOnly => Team::of(seat) != Team::of(proposer),
        }
    }
}

/// What a host decides about surrender around the rules: how its AI seats vote and how often a
/// team may propose. Not a rule: a refused proposal is never recorded and AI votes are recorded
/// as actions, so records replay whatever the policy was. The default is what offline games have
/// always done.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SurrenderPolicy {
    /// The vote of an AI seat ([`Controller::Ai`]).
    pub ai: AiVote,
    /// The vote of a stand-in for a human ([`Controller::StandIn`]).
    pub stand_in: AiVote,
    /// Proposals each team may make in one deal; 0 = no limit. A proposal opens a vote that
    /// every human must answer, so without a limit one player could hold the table with them.
    pub proposals_per_deal: u8,
}

impl SurrenderPolicy {
    /// Offline: an AI partner follows its human's call and AI opponents accept; a stand-in
    /// refuses; no limit.
    pub const OFFLINE: SurrenderPolicy =
        SurrenderPolicy { ai: AiVote::Accept, stand_in: AiVote::Refuse, proposals_per_deal: 0 };
    /// An online room among friends: the offline votes, one proposal per team and deal.
    pub const ONLINE: SurrenderPolicy = SurrenderPolicy { proposals_per_deal: 1, ..SurrenderPolicy::OFFLINE };
    /// A ranked room: an AI partner (the queue's fill) never agrees, so no player gives a rated
    /// match away through it; AI opponents accept (the humans who give up take the loss, and the
    /// AI is not rated); a stand-in agrees to its partner's proposal (the one who stayed may give
    /// up; the one who left takes the loss) and refuses the opponents'.
    pub const RANKED: SurrenderPolicy =
        SurrenderPolicy { ai: AiVote::OpponentsOnly, stand_in: AiVote::PartnersOnly, proposals_per_deal: 1 };
}

impl Default for SurrenderPolicy {
    fn default() -> Self {
        SurrenderPolicy::OFFLINE
    }
}

impl Controller {
    pub fn is_ai(&self) -> bool {
        self.profile().is_some()
    }

    /// The AI that decides for this seat, if one does.
    pub fn profile(&self) -> Option<&AiProfile> {
        match self {
            Controller::Ai(p) | Controller::StandIn(p) => Some(p),
            Controller::Human => None,
        }
    }
}
