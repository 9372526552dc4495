//! Positions to start from. [`DealSetup`] is the start of a deal (hands dealt, tribute worked
//! out as in play); [`Setup`] is any position at all, validated whole by
//! [`Match::from_setup`](crate::game::Match::from_setup) (in `position.rs`) so that a match can
//! only ever hold a state the rules can reach.

use crate::card::{CardSet, Rank};
use crate::combo::Play;
use crate::error::ErrorCode;
use crate::event::{Outcome, Phase};
use crate::progress::{Surrender, Tribute, Turn};
use crate::rules::{RULES_REVISION, RuleConfig, check_revision};
use crate::seat::{Seat, Team};
use serde::{Deserialize, Serialize};

/// The start of a deal with given hands (see [`Match::from_deal`](crate::game::Match::from_deal)).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct DealSetup {
    pub rules: RuleConfig,
    pub seed: u64,
    pub deal_no: u32,
    pub team_levels: [Rank; 2],
    pub ace_failures: [u8; 2],
    pub declarer: Option<Team>,
    /// Finishing order of the previous deal (tribute is due when set).
    pub last_order: Option<[Seat; 4]>,
    pub hands: [CardSet; 4],
    /// Leader when no tribute is due.
    pub leader: Seat,
}

/// Any position of a match, field for field (see
/// [`Match::from_setup`](crate::game::Match::from_setup), [`Match::to_setup`](crate::game::Match::to_setup)).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Setup {
    pub rules: RuleConfig,
    pub seed: u64,
    /// Actions applied so far (the `seq` the next action carries).
    pub seq: u64,
    pub deal_no: u32,
    pub seating: [u8; 4],
    pub team_levels: [Rank; 2],
    pub ace_failures: [u8; 2],
    pub declarer: Option<Team>,
    pub level: Rank,
    pub phase: Phase,
    pub hands: [CardSet; 4],
    pub turn: Seat,
    pub table: Option<(Seat, Play)>,
    pub passes: u8,
    pub finished: Vec<Seat>,
    pub last_order: Option<[Seat; 4]>,
    pub tributes: Vec<Tribute>,
    pub tribute_leader: Option<Seat>,
    pub surrender: Option<Surrender>,
    pub outcome: Option<Outcome>,
    pub history: Vec<Turn>,
    pub played: CardSet,
    /// The rules engine's revision ([`crate::rules::RULES_REVISION`] when absent).
    #[serde(default = "current_revision", skip_serializing_if = "is_current_revision")]
    pub rules_revision: u32,
}

fn current_revision() -> u32 {
    RULES_REVISION
}

fn is_current_revision(r: &u32) -> bool {
    *r == RULES_REVISION
}

/// Why a [`Setup`] describes no reachable position.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum SetupError {
    #[error("invalid rules: {0}")]
    Rules(String),
    #[error("seating {0:?} is not a permutation of 0-3")]
    Seating([u8; 4]),
    #[error("level {0} is out of range 2-14")]
    Level(u8),
    #[error("cards: {0}")]
    Cards(String),
    #[error("finishing order: {0}")]
    Finished(String),
    #[error("phase {phase:?}: {problem}")]
    Phase { phase: Phase, problem: String },
    #[error("table: {0}")]
    Table(String),
    #[error("tribute: {0}")]
    Tribute(String),
    #[error("surrender: {0}")]
    Surrender(String),
}

impl SetupError {
    pub fn code(&self) -> ErrorCode {
        ErrorCode::BadSetup
    }
}

pub(crate) fn is_permutation(seats: &[Seat; 4]) -> bool {
    seats.iter().fold(0u8, |m, &s| m | s.bit()) == 0b1111
}

/// The same for the seating, which is a map of bare numbers.
fn is_seating(seating: &[u8; 4]) -> bool {
    let mask = seating.iter().fold(0u8, |m, &s| if s < 4 { m | 1 << s } else { m });
    seating.iter().all(|&s| s < 4) && mask == 0b1111
}

/// The cards in hands, played this deal and on their way as tribute, each exactly once (else an
/// error naming the problem). In a running match they are the two decks.
pub(crate) fn accounted_cards(hands: &[CardSet; 4], played: CardSet, tributes: &[Tribute]) -> Result<CardSet, String> {
    let in_transit = tributes.iter().filter(|t| t.receiver.is_none()).filter_map(|t| t.card);
    let places = hands.iter().copied().chain([played]).chain(in_transit.map(|c| CardSet::EMPTY.with(c)));
    let mut all = CardSet::EMPTY;
    for set in places {
        if !all.intersect(set).is_empty() {
            return Err(format!("card in two places: {}", all.intersect(set).notation()));
        }
        all = all.union(set);
    }
    Ok(all)
}

impl Setup {
    /// Checks that the position is one the rules can hold.
    pub fn validate(&self) -> Result<(), SetupError> {
        self.rules.validate().map_err(SetupError::Rules)?;
        check_revision(self.rules_revision).map_err(SetupError::Rules)?;
        if !is_seating(&self.seating) {
            return Err(SetupError::Seating(self.seating));
        }
        for r in self.team_levels.iter().chain([&self.level]) {
            if !(2..=14).contains(&r.0) {
                return Err(SetupError::Level(r.0));
            }
        }
        let expected_level = self.declarer.map_or(Rank::TWO, |t| self.team_levels[t.index()]);
        if self.level != expected_level && self.phase != Phase::MatchOver {
            return Err(SetupError::Phase {
                phase: self.phase,
                problem: format!("level {} is not the declarer's level {}", self.level.0, expected_level.0),
            });
        }
        self.validate_cards()?;
        self.validate_finished()?;
        self.validate_tributes()?;
        self.validate_phase()?;
        if let Some(s) = self.surrender
            && (Team::of(s.proposer) != s.team
                || s.accepted & s.proposer.bit() == 0
                || s.accepted > 0b1111
                || s.refused > 0b1111
                || s.accepted & s.refused != 0
                || Seat::ALL.iter().any(|&seat| s.refused & seat.bit() != 0 && Team::of(seat) == s.team))
        {
            return Err(SetupError::Surrender("proposer, team and votes disagree".into()));
        }
        Ok(())
    }

    /// Every card is in exactly one place: a hand, the played cards, or a tribute not yet routed.
    fn validate_cards(&self) -> Result<(), SetupError> {
        let all = accounted_cards(&self.hands, self.played, &self.tributes).map_err(SetupError::Cards)?;
        if all != CardSet::FULL {
            return Err(SetupError::Cards(format!("{} of the 108 cards are accounted for", all.len())));
        }
        let mut seen = CardSet::EMPTY;
        for t in &self.history {
            if let Some(p) = t.play {
                if !seen.intersect(p.cards).is_empty() || !p.cards.is_subset(self.played) {
                    return Err(SetupError::Cards("the history plays a card twice or one not played".into()));
                }
                seen = seen.union(p.cards);
            }
        }
        Ok(())
    }

    fn validate_finished(&self) -> Result<(), SetupError> {
        let mut seen = 0u8;
        for &s in &self.finished {
            if seen & s.bit() != 0 {
                return Err(SetupError::Finished(format!("seat {s} twice")));
            }
            seen |= s.bit();
            if !self.hands[s.index()].is_empty() {
                return Err(SetupError::Finished(format!("seat {s} went out but holds cards")));
            }
        }
        if self.finished.len() > 3 {
            return Err(SetupError::Finished("four seats out".into()));
        }
        if let Some(o) = self.last_order
            && !is_permutation(&o)
        {
            return Err(SetupError::Finished(format!("last order {o:?} is not a permutation")));
        }
        Ok(())
    }

    fn validate_tributes(&self) -> Result<(), SetupError> {
        let bad = |m: &str| Err(SetupError::Tribute(m.into()));
        if self.tributes.len() > 2 {
            return bad("more than two tributes");
        }
        if !self.tributes.is_empty() && self.last_order.is_none() {
            return bad("tribute without a previous deal");
        }
        for t in &self.tributes {
            if let Some(r) = t.receiver
                && (r == t.payer || t.card.is_none())
            {
                return bad("a routed tribute must carry a card to another seat");
            }
            if t.returned.is_some() && !t.return_owed {
                return bad("a return that was not owed");
            }
        }
        if let [a, b] = self.tributes.as_slice()
            && a.payer == b.payer
        {
            return bad("one seat pays twice");
        }
        Ok(())
    }

    fn validate_phase(&self) -> Result<(), SetupError> {
        let problem = |m: String| Err(SetupError::Phase { phase: self.phase, problem: m });
        let active = |s: Seat| !self.hands[s.index()].is_empty();
        let owed_return = self.tributes.iter().any(|t| t.return_owed && t.returned.is_none());
        let unpaid = self.tributes.iter().any(|t| t.card.is_none());
        if (self.phase == Phase::MatchOver) != self.outcome.is_some() {
            return problem("an outcome exactly when the match is over".into());
        }
        match self.phase {
            Phase::Tribute if !unpaid => problem("no tribute is owed".into()),
            Phase::Return if unpaid || !owed_return || self.tributes.iter().any(|t| t.receiver.is_none()) => {
                problem("tributes must all be routed with a return owed".into())
            }
            Phase::Play => {
                if unpaid || owed_return {
                    return problem("tribute or return still owed".into());
                }
                if !active(self.turn) {
                    return problem(format!("seat {} is to play but holds no cards", self.turn));
                }
                let out = Seat::ALL.into_iter().filter(|&s| !active(s)).count();
                if out != self.finished.len() {
                    return problem("seats without cards must be in the finishing order".into());
                }
                let actives = 4 - out as u8;
                match &self.table {
                    None if self.passes != 0 => problem("passes without a play on the table".into()),
                    Some((_, play)) if !play.cards.is_subset(self.played) => {
                        Err(SetupError::Table("the table holds cards not played".into()))
                    }
                    Some(_) if self.passes >= actives => problem("everyone passed but the table is not cleared".into()),
                    _ => Ok(()),
                }
            }
            _ => Ok(()),
        }
    }
}
