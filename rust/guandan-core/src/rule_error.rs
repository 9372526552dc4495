//! Why the rules refused an action, as typed values: a front end can match on the reason, and
//! the text a player reads (`Display`) is the one the rules have always written. Each variant
//! maps to one [`ErrorCode`] (sent on the wire with the text; the values themselves never are).

use crate::card::{Card, CardId, CardIdOutOfRange, CardSet};
use crate::combo::Pattern;
use crate::error::ErrorCode;
use crate::event::Phase;
use crate::seat::Seat;

/// Why an action was refused. The state is unchanged whenever one is returned.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum RuleError {
    #[error("invalid cards: {0}")]
    InvalidCards(InvalidCardsReason),
    #[error("not your turn: seat {seat} acted, it is seat {turn}'s turn")]
    NotYourTurn { seat: Seat, turn: Seat },
    #[error("cannot pass when leading")]
    CannotPass,
    #[error("card {0} is not in the hand")]
    CardNotFound(CardId),
    #[error("seat {0} has no cards left")]
    HandEmpty(Seat),
    #[error("invalid tribute or return: {0}")]
    InvalidTribute(TributeFault),
    #[error("the match is over")]
    GameOver,
    #[error("state conflict: {0}")]
    StateConflict(Conflict),
    /// `play` is the reading tried (the first reading when none was named), `table` the play
    /// it had to beat.
    #[error("{play} does not beat the table")]
    CannotBeat { play: Pattern, table: Pattern },
}

impl RuleError {
    pub fn code(&self) -> ErrorCode {
        match self {
            RuleError::InvalidCards(_) => ErrorCode::InvalidCards,
            RuleError::NotYourTurn { .. } => ErrorCode::NotYourTurn,
            RuleError::CannotPass => ErrorCode::CannotPass,
            RuleError::CardNotFound(_) => ErrorCode::CardNotFound,
            RuleError::HandEmpty(_) => ErrorCode::HandEmpty,
            RuleError::InvalidTribute(_) => ErrorCode::InvalidTribute,
            RuleError::GameOver => ErrorCode::GameOver,
            RuleError::StateConflict(_) => ErrorCode::StateConflict,
            RuleError::CannotBeat { .. } => ErrorCode::CannotBeat,
        }
    }
}

/// What is wrong with the cards of a play (or of a dealt position).
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
pub enum InvalidCardsReason {
    #[error("no cards")]
    NoCards,
    /// An id outside the deck (wide, as the front end sent it): refused where a front end's
    /// number becomes a [`CardId`] (the rules never meet one), in the words it always had.
    #[error("card id {0} out of range 0-107")]
    OutOfRange(i64),
    #[error("card id {0} listed twice")]
    ListedTwice(CardId),
    #[error("{} is no combination", .0.notation())]
    NoCombination(CardSet),
    #[error("{} cannot be read as {reading}", .cards.notation())]
    NotReadableAs { cards: CardSet, reading: Pattern },
    /// A reading picked by its index in `classify`'s list, past the list's end.
    #[error("reading {index} is out of range: the selection has {count} reading(s)")]
    NoSuchReading { index: usize, count: usize },
    #[error("a card is in two hands")]
    InTwoHands,
}

impl From<CardIdOutOfRange> for RuleError {
    fn from(e: CardIdOutOfRange) -> Self {
        RuleError::InvalidCards(InvalidCardsReason::OutOfRange(e.0))
    }
}

/// Which of the two exchanges after a deal.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Exchange {
    Tribute,
    Return,
}

impl std::fmt::Display for Exchange {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            Exchange::Tribute => "tribute",
            Exchange::Return => "return",
        })
    }
}

/// Why a tribute or a return was refused.
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
pub enum TributeFault {
    #[error("no {exchange} is due during {phase:?}")]
    NotDue { exchange: Exchange, phase: Phase },
    #[error("seat {seat} owes no {exchange}")]
    NotOwed { seat: Seat, exchange: Exchange },
    #[error("seat {0} has nothing to give")]
    NothingToGive(Seat),
    #[error("{0} is not the highest card allowed")]
    NotHighest(Card),
    #[error("{0} may not be returned")]
    MayNotReturn(Card),
}

/// An action that does not fit the match's state (phase, seq, vote) or a match that cannot be
/// made (rules, revision, seats).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum Conflict {
    #[error("cannot play during {0:?}")]
    WrongPhase(Phase),
    #[error("expected seq {expected}, got {got}")]
    WrongSeq { expected: u64, got: u64 },
    /// A dealt position's previous finishing order is not the four seats once each (a seat
    /// outside 0-3 cannot be held at all: it is refused where the number is read).
    #[error("seat out of range")]
    SetupSeats,
    #[error("a surrender vote is already open")]
    VoteOpen,
    #[error("no surrender vote is open")]
    NoVote,
    #[error("seat {0} already voted")]
    AlreadyVoted(Seat),
    #[error(
        "rules revision {0} is not known to this build (it knows 1 to {max})",
        max = crate::rules::RULES_REVISION
    )]
    UnknownRevision(u32),
    /// The rule set's own check ([`crate::rules::RuleConfig::validate`]) refused it.
    #[error("{0}")]
    Rules(String),
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::card::Rank;

    /// The texts players and the older tests read stay as they were when these were Strings.
    #[test]
    fn messages_keep_their_words() {
        let cards = CardSet::parse("H3 S3").unwrap();
        let cases: Vec<(RuleError, String)> = vec![
            (RuleError::InvalidCards(InvalidCardsReason::NoCards), "invalid cards: no cards".to_string()),
            (
                RuleError::InvalidCards(InvalidCardsReason::OutOfRange(200)),
                "invalid cards: card id 200 out of range 0-107".to_string(),
            ),
            (
                RuleError::InvalidCards(InvalidCardsReason::ListedTwice(crate::card::CardId::ALL[4])),
                "invalid cards: card id 4 listed twice".to_string(),
            ),
            (
                RuleError::InvalidCards(InvalidCardsReason::NoCombination(cards)),
                format!("invalid cards: {} is no combination", cards.notation()),
            ),
            (
                RuleError::InvalidTribute(TributeFault::NotDue { exchange: Exchange::Return, phase: Phase::Play }),
                "invalid tribute or return: no return is due during Play".to_string(),
            ),
            (
                RuleError::InvalidTribute(TributeFault::NotOwed { seat: Seat::TWO, exchange: Exchange::Tribute }),
                "invalid tribute or return: seat 2 owes no tribute".to_string(),
            ),
            (
                RuleError::StateConflict(Conflict::WrongSeq { expected: 3, got: 5 }),
                "state conflict: expected seq 3, got 5".to_string(),
            ),
            (
                RuleError::StateConflict(Conflict::AlreadyVoted(Seat::ONE)),
                "state conflict: seat 1 already voted".to_string(),
            ),
            (
                RuleError::StateConflict(Conflict::UnknownRevision(99)),
                format!("state conflict: {}", crate::rules::check_revision(99).expect_err("revision 99 is unknown")),
            ),
        ];
        for (e, text) in cases {
            assert_eq!(e.to_string(), text);
        }
        let single =
            crate::combo::classify(CardSet::parse("H3").unwrap(), Rank::TWO, &crate::RuleConfig::competition())[0];
        let e = RuleError::CannotBeat { play: single.pattern, table: single.pattern };
        assert_eq!(e.to_string(), format!("{} does not beat the table", single.pattern));
        assert_eq!(e.code(), ErrorCode::CannotBeat);
    }
}
