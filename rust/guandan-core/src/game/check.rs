//! The play check, once: whether a seat may play these cards now, and as which reading. It reads
//! only what the playing seat knows (its hand, the table, the level, the rules, whose turn it
//! is), so [`Match`] checks an action with it and a front end checks a selection against the
//! seat's [`PlayerView`](crate::view::PlayerView) with the very same code — the two cannot
//! disagree, and the error a player reads is the rules' own.

use super::*;
use crate::combo::{beats, choose_reading};
use crate::rule_error::{Conflict, InvalidCardsReason};

/// Which reading of the selected cards to play.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Reading<'p> {
    /// The first reading that beats the table (the first of all when leading).
    Best,
    /// This reading (an action's `reading`).
    As(&'p Pattern),
    /// The reading at this index of [`classify`]'s list (how a front end names one).
    Nth(usize),
}

impl<'p> From<Option<&'p Pattern>> for Reading<'p> {
    fn from(reading: Option<&'p Pattern>) -> Self {
        reading.map_or(Reading::Best, Reading::As)
    }
}

/// What a play is checked against: all of it known to the seat that plays.
#[derive(Clone, Copy, Debug)]
pub struct PlayCheck<'a> {
    pub seat: Seat,
    pub phase: Phase,
    /// The seat to play.
    pub turn: Seat,
    pub hand: CardSet,
    pub table: Option<&'a Play>,
    pub level: Rank,
    pub rules: &'a RuleConfig,
}

impl PlayCheck<'_> {
    /// Whether the seat may play (or pass) now.
    pub fn turn(&self) -> Result<(), RuleError> {
        match self.phase {
            Phase::MatchOver => Err(RuleError::GameOver),
            Phase::Play if self.hand.is_empty() => Err(RuleError::HandEmpty(self.seat)),
            Phase::Play if self.seat != self.turn => Err(RuleError::NotYourTurn { seat: self.seat, turn: self.turn }),
            Phase::Play => Ok(()),
            phase => Err(RuleError::StateConflict(Conflict::WrongPhase(phase))),
        }
    }

    /// The play these card ids make now as `reading`. The ids are in the decks by their type (a
    /// front end's numbers are checked where they come in: [`CardId::try_from_all`]).
    pub fn play(&self, ids: &[CardId], reading: Reading<'_>) -> Result<Play, RuleError> {
        self.turn()?;
        let bad = |reason| Err(RuleError::InvalidCards(reason));
        if ids.is_empty() {
            return bad(InvalidCardsReason::NoCards);
        }
        let mut set = CardSet::EMPTY;
        for &id in ids {
            if set.contains(id) {
                return bad(InvalidCardsReason::ListedTwice(id));
            }
            set.insert(id);
        }
        if let Some(missing) = set.minus(self.hand).iter().next() {
            return Err(RuleError::CardNotFound(missing));
        }
        let readings = classify(set, self.level, self.rules);
        let Some(first) = readings.first() else {
            return bad(InvalidCardsReason::NoCombination(set));
        };
        let chosen = match reading {
            Reading::Best => match choose_reading(&readings, self.table, self.level, self.rules) {
                Some(p) => return Ok(p),
                None => *first,
            },
            Reading::As(want) => match readings.iter().find(|p| p.pattern == *want) {
                Some(p) => *p,
                None => return bad(InvalidCardsReason::NotReadableAs { cards: set, reading: *want }),
            },
            Reading::Nth(index) => match readings.get(index) {
                Some(p) => *p,
                None => return bad(InvalidCardsReason::NoSuchReading { index, count: readings.len() }),
            },
        };
        match self.table {
            Some(t) if !beats(&chosen, t, self.level, self.rules) => {
                Err(RuleError::CannotBeat { play: chosen.pattern, table: t.pattern })
            }
            _ => Ok(chosen),
        }
    }
}

impl Match {
    /// The play check of `seat` in this state.
    pub fn play_check(&self, seat: Seat) -> PlayCheck<'_> {
        PlayCheck {
            seat,
            phase: self.phase,
            turn: self.turn,
            // A seat past the four holds nothing (the action's seat is checked before).
            hand: self.hands.get(seat.index()).copied().unwrap_or(CardSet::EMPTY),
            table: self.table.as_ref().map(|t| &t.1),
            level: self.level,
            rules: &self.rules,
        }
    }
}
