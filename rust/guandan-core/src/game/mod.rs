//! The match: a state machine over deals, tribute, return, play and level changes.
//!
//! `Match::apply` validates an [`Action`] completely and reports what happened as [`Event`]s;
//! every action carries the next `seq`. All randomness comes from the match seed. The state is
//! sealed: it changes only through actions, and is read through accessors.

mod check;
mod ending;
mod play;
mod tribute;

use crate::card::{Card, CardId, CardSet, Rank};
use crate::combo::{Pattern, Play, classify, rank_order, wild_set};
use crate::deal::{below, deal_hands, deal_rng, deal_unshuffled};
use crate::rules::{Dealing, RULES_REVISION, ResistRule, RuleConfig, Teams, check_revision};
use arrayvec::ArrayVec;
use serde::Serialize;
use sha2::{Digest, Sha256};

pub use crate::error::ErrorCode;
pub use crate::event::{Action, ActionKind, EndReason, Event, Outcome, Phase};
pub use crate::progress::{Surrender, Tribute, Turn};
pub use crate::rule_error::{Conflict, Exchange, InvalidCardsReason, RuleError, TributeFault};
pub use crate::seat::{Seat, Team, next_seat, partner_of, team_of};
pub use crate::setup::{DealSetup, Setup, SetupError};

pub use check::{PlayCheck, Reading};
pub use ending::{deal_gain, partner_place};

/// The complete state of a match. Private: it changes only through [`Match::apply`] (or is
/// built whole from a validated [`Setup`]); read it through the accessors.
///
/// The serialized form is the state hashed by [`Match::state_hash`] and must stay stable: it is
/// what recorded checkpoints were taken of. There is deliberately no `Deserialize`: a stored
/// position comes back through [`Setup`], which is validated.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Match {
    pub(crate) rules: RuleConfig,
    pub(crate) seed: u64,
    /// The `seq` the next action must carry.
    pub(crate) seq: u64,
    pub(crate) deal_no: u32,
    /// Player sitting at each seat (random teams permute them).
    pub(crate) seating: [u8; 4],
    pub(crate) team_levels: [Rank; 2],
    pub(crate) ace_failures: [u8; 2],
    /// The team whose level is played (None in the first deal).
    pub(crate) declarer: Option<Team>,
    pub(crate) level: Rank,
    pub(crate) phase: Phase,
    pub(crate) hands: [CardSet; 4],
    pub(crate) turn: Seat,
    pub(crate) table: Option<(Seat, Play)>,
    pub(crate) passes: u8,
    pub(crate) finished: ArrayVec<Seat, 4>,
    pub(crate) last_order: Option<[Seat; 4]>,
    pub(crate) tributes: ArrayVec<Tribute, 2>,
    /// Who leads once tribute and return are done.
    pub(crate) tribute_leader: Option<Seat>,
    pub(crate) surrender: Option<Surrender>,
    /// The outcome, stored as the two fields of the first save format (`winner`: `Some(None)`
    /// is a draw) so that state hashes stay comparable; read it as [`Match::outcome`].
    pub(crate) winner: Option<Option<Team>>,
    pub(crate) end_reason: Option<EndReason>,
    /// Public history of the current deal.
    pub(crate) history: Vec<Turn>,
    /// Cards played in the current deal.
    pub(crate) played: CardSet,
    /// The rules engine's revision this match is played under ([`crate::rules::RULES_REVISION`]
    /// for every new match; older only when replaying a record made before a fix). Not part of
    /// the hashed state: it is the record's, written in its header.
    #[serde(skip)]
    pub(crate) rules_revision: u32,
}

impl Match {
    /// A new match: deals the first hand. The first leader is drawn at random.
    pub fn new(seed: u64, rules: RuleConfig) -> Result<(Match, Vec<Event>), RuleError> {
        let mut m = Match::empty(seed, rules)?;
        let mut events = Vec::new();
        m.start_deal(&mut events);
        Ok((m, events))
    }

    /// [`Match::new`] under an older revision of the rules engine, to replay a record made
    /// before a fix exactly as it was played (see [`crate::rules::RULES_REVISION`]).
    pub fn new_revision(seed: u64, rules: RuleConfig, revision: u32) -> Result<(Match, Vec<Event>), RuleError> {
        check_revision(revision).map_err(|_| RuleError::StateConflict(Conflict::UnknownRevision(revision)))?;
        let mut m = Match::empty(seed, rules)?;
        m.rules_revision = revision;
        let mut events = Vec::new();
        m.start_deal(&mut events);
        Ok((m, events))
    }

    /// A match before its first deal: validated rules, seating drawn from the seed.
    pub(crate) fn empty(seed: u64, rules: RuleConfig) -> Result<Match, RuleError> {
        rules.validate().map_err(|m| RuleError::StateConflict(Conflict::Rules(m)))?;
        let mut seating = [0, 1, 2, 3];
        if rules.teams == Teams::Random {
            // Stream u64::MAX is reserved for match-level draws.
            let mut rng = deal_rng(seed, u32::MAX);
            for i in (1..4).rev() {
                seating.swap(i, below(&mut rng, i as u32 + 1) as usize);
            }
        }
        Ok(Match {
            rules,
            seed,
            seq: 0,
            deal_no: 0,
            seating,
            team_levels: [Rank::TWO; 2],
            ace_failures: [0; 2],
            declarer: None,
            level: Rank::TWO,
            phase: Phase::Play,
            hands: [CardSet::EMPTY; 4],
            turn: Seat::ZERO,
            table: None,
            passes: 0,
            finished: ArrayVec::new(),
            last_order: None,
            tributes: ArrayVec::new(),
            tribute_leader: None,
            surrender: None,
            winner: None,
            end_reason: None,
            history: Vec::new(),
            played: CardSet::EMPTY,
            rules_revision: RULES_REVISION,
        })
    }

    /// A match from the start of a deal with given hands (tests, arena, golden scenarios): the
    /// tribute due from `last_order` is worked out as in a real deal; cards in no hand count as
    /// already played.
    pub fn from_deal(setup: &DealSetup) -> Result<(Match, Vec<Event>), RuleError> {
        let mut m = Match::empty(setup.seed, setup.rules.clone())?;
        let mut all = CardSet::EMPTY;
        for h in setup.hands {
            if !all.intersect(h).is_empty() {
                return Err(RuleError::InvalidCards(InvalidCardsReason::InTwoHands));
            }
            all = all.union(h);
        }
        if setup.last_order.is_some_and(|o| !crate::setup::is_permutation(&o)) {
            return Err(RuleError::StateConflict(Conflict::SetupSeats));
        }
        m.team_levels = setup.team_levels;
        m.ace_failures = setup.ace_failures;
        m.declarer = setup.declarer;
        m.last_order = setup.last_order;
        m.deal_no = setup.deal_no;
        let mut events = Vec::new();
        m.setup_deal(setup.hands, setup.leader, &mut events);
        m.played = CardSet::FULL.minus(all);
        Ok((m, events))
    }

    // ----- accessors -----

    pub fn rules(&self) -> &RuleConfig {
        &self.rules
    }
    pub fn seed(&self) -> u64 {
        self.seed
    }
    /// The `seq` the next action must carry (= actions applied so far).
    pub fn seq(&self) -> u64 {
        self.seq
    }
    pub fn deal_no(&self) -> u32 {
        self.deal_no
    }
    /// Player sitting at each seat (random teams permute them).
    pub fn seating(&self) -> [u8; 4] {
        self.seating
    }
    pub fn team_levels(&self) -> [Rank; 2] {
        self.team_levels
    }
    pub fn team_level(&self, team: Team) -> Rank {
        self.team_levels[team.index()]
    }
    pub fn ace_failures(&self) -> [u8; 2] {
        self.ace_failures
    }
    /// The revision of the rules engine this match is played under.
    pub fn rules_revision(&self) -> u32 {
        self.rules_revision
    }
    /// The team whose level is played (None in the first deal).
    pub fn declarer(&self) -> Option<Team> {
        self.declarer
    }
    /// The rank played this deal.
    pub fn level(&self) -> Rank {
        self.level
    }
    pub fn phase(&self) -> Phase {
        self.phase
    }
    pub fn hands(&self) -> &[CardSet; 4] {
        &self.hands
    }
    pub fn hand(&self, seat: Seat) -> CardSet {
        self.hands.get(seat.index()).copied().unwrap_or(CardSet::EMPTY)
    }
    /// The seat to play (meaningful in the play phase).
    pub fn turn(&self) -> Seat {
        self.turn
    }
    /// The play to beat and who made it.
    pub fn table(&self) -> Option<&(Seat, Play)> {
        self.table.as_ref()
    }
    /// Passes since the play on the table.
    pub fn passes(&self) -> u8 {
        self.passes
    }
    /// Seats out of cards this deal, in order.
    pub fn finished(&self) -> &[Seat] {
        &self.finished
    }
    /// The previous deal's finishing order.
    pub fn last_order(&self) -> Option<[Seat; 4]> {
        self.last_order
    }
    pub fn tributes(&self) -> &[Tribute] {
        &self.tributes
    }
    /// Who leads once tribute and return are done.
    pub fn tribute_leader(&self) -> Option<Seat> {
        self.tribute_leader
    }
    pub fn surrender(&self) -> Option<Surrender> {
        self.surrender
    }
    /// Public history of the current deal.
    pub fn history(&self) -> &[Turn] {
        &self.history
    }
    /// Cards played in the current deal.
    pub fn played(&self) -> CardSet {
        self.played
    }
    /// How the match ended (`None` while it runs).
    pub fn outcome(&self) -> Option<Outcome> {
        let reason = self.end_reason?;
        Some(match self.winner.flatten() {
            Some(team) => Outcome::Decisive { team, reason },
            None => Outcome::Draw { reason },
        })
    }

    pub fn is_over(&self) -> bool {
        self.phase == Phase::MatchOver
    }

    pub fn wilds(&self) -> CardSet {
        wild_set(self.level, &self.rules)
    }

    fn active(&self, seat: Seat) -> bool {
        !self.hands[seat.index()].is_empty()
    }

    fn active_count(&self) -> u8 {
        Seat::ALL.into_iter().filter(|&s| self.active(s)).count() as u8
    }

    fn next_active(&self, seat: Seat) -> Seat {
        let mut s = next_seat(seat);
        for _ in 0..4 {
            if self.active(s) {
                return s;
            }
            s = next_seat(s);
        }
        seat
    }

    fn start_deal(&mut self, events: &mut Vec<Event>) {
        let mut rng = deal_rng(self.seed, self.deal_no);
        let hands = match self.rules.dealing {
            Dealing::NoShuffle { packet } if self.deal_no > 0 => {
                deal_unshuffled(&self.cards_in_play_order(), packet as usize, &mut rng)
            }
            _ => deal_hands(&mut rng),
        };
        let first_leader = Seat::ALL[below(&mut rng, 4) as usize];
        self.setup_deal(hands, first_leader, events);
    }

    /// The deal's cards as they were played (each play's cards by id), then those left in hands.
    fn cards_in_play_order(&self) -> Vec<CardId> {
        let plays = self.history.iter().filter_map(|t| t.play).flat_map(|p| p.cards.iter());
        let left = self.hands.iter().flat_map(|h| h.iter());
        plays.chain(left).collect()
    }

    /// Starts a deal with these hands: tribute, resisting, or play (`first_leader` leads when no
    /// tribute is due, i.e. in the first deal).
    fn setup_deal(&mut self, hands: [CardSet; 4], first_leader: Seat, events: &mut Vec<Event>) {
        self.hands = hands;
        self.level = self.declarer.map_or(Rank::TWO, |t| self.team_levels[t.index()]);
        self.table = None;
        self.passes = 0;
        self.finished.clear();
        self.tributes.clear();
        self.tribute_leader = None;
        self.history.clear();
        self.played = CardSet::EMPTY;
        events.push(Event::DealStarted { deal_no: self.deal_no, level: self.level, declarer: self.declarer });
        let Some(order) = self.last_order else {
            self.begin_play(first_leader, events);
            return;
        };
        let double_down = team_of(order[0]) == team_of(order[1]);
        let payers: ArrayVec<Seat, 2> =
            if double_down { [order[2], order[3]].into_iter().collect() } else { [order[3]].into_iter().collect() };
        let big = |s: Seat| self.hands[s.index()].count(Card::BIG_JOKER);
        let resisted = match (payers.len(), self.rules.resist) {
            (1, _) => big(payers[0]) == 2,
            (_, ResistRule::Jointly) => payers.iter().map(|&s| big(s)).sum::<u8>() == 2,
            (_, ResistRule::SingleHolder) => payers.iter().any(|&s| big(s) == 2),
        };
        if resisted {
            events.push(Event::Resisted { payers: payers.to_vec() });
            self.begin_play(order[0], events);
            return;
        }
        for &payer in &payers {
            self.tributes.push(Tribute { payer, receiver: None, card: None, returned: None, return_owed: false });
        }
        self.phase = Phase::Tribute;
        events.push(Event::TributeRequired { payers: payers.to_vec() });
    }

    fn begin_play(&mut self, leader: Seat, events: &mut Vec<Event>) {
        self.phase = Phase::Play;
        self.turn = leader;
        events.push(Event::TurnStarted { seat: leader, can_pass: false });
    }

    /// Validates and applies an action; the state is unchanged on error.
    pub fn apply(&mut self, action: &Action) -> Result<Vec<Event>, RuleError> {
        let mut events = Vec::new();
        self.apply_into(action, &mut events)?;
        Ok(events)
    }

    /// Functional form: the next state, leaving `self` untouched.
    pub fn play(&self, action: &Action) -> Result<Match, RuleError> {
        let mut next = self.clone();
        next.apply(action)?;
        Ok(next)
    }

    /// Like [`apply`](Self::apply) but appends events to a caller's buffer (no allocation per call).
    pub fn apply_into(&mut self, action: &Action, events: &mut Vec<Event>) -> Result<(), RuleError> {
        if action.seq != self.seq {
            return Err(RuleError::StateConflict(Conflict::WrongSeq { expected: self.seq, got: action.seq }));
        }
        if self.phase == Phase::MatchOver {
            return Err(RuleError::GameOver);
        }
        let start = events.len();
        let result = self.dispatch(action.seat, &action.kind, events);
        match result {
            Ok(()) => {
                self.seq += 1;
                Ok(())
            }
            Err(e) => {
                events.truncate(start);
                Err(e)
            }
        }
    }

    fn dispatch(&mut self, seat: Seat, kind: &ActionKind, events: &mut Vec<Event>) -> Result<(), RuleError> {
        match kind {
            ActionKind::Play { cards, reading } => {
                let play = self.play_check(seat).play(cards, reading.as_ref().into())?;
                self.do_play(seat, play, events);
                Ok(())
            }
            ActionKind::Pass => {
                self.check_turn(seat)?;
                if !self.can_pass() {
                    return Err(RuleError::CannotPass);
                }
                self.do_pass(seat, events);
                Ok(())
            }
            ActionKind::Tribute { card } => self.do_tribute(seat, *card, events),
            ActionKind::Return { card } => self.do_return(seat, *card, events),
            ActionKind::Timeout => self.do_timeout(seat, events),
            ActionKind::ProposeSurrender => self.propose_surrender(seat, events),
            ActionKind::SurrenderVote { accept } => self.surrender_vote(seat, *accept, events),
            ActionKind::TimeUp => self.time_up(events),
        }
    }

    fn do_timeout(&mut self, seat: Seat, events: &mut Vec<Event>) -> Result<(), RuleError> {
        match self.phase {
            Phase::Tribute => {
                let card = self
                    .tribute_options(seat)
                    .iter()
                    .next()
                    .ok_or(RuleError::InvalidTribute(TributeFault::NothingToGive(seat)))?;
                self.do_tribute(seat, card, events)
            }
            Phase::Return => {
                let opts = self.return_options(seat);
                let card = opts
                    .iter()
                    .min_by_key(|&id| (rank_order(Card::from_id(id).rank().0, self.level), id))
                    .ok_or(RuleError::InvalidTribute(TributeFault::NotOwed { seat, exchange: Exchange::Return }))?;
                self.do_return(seat, card, events)
            }
            Phase::Play => {
                self.check_turn(seat)?;
                if self.can_pass() {
                    self.do_pass(seat, events);
                } else {
                    let id = smallest_single(self.hands[seat.index()], self.level).ok_or(RuleError::HandEmpty(seat))?;
                    let play = classify(CardSet::EMPTY.with(id), self.level, &self.rules)[0];
                    self.do_play(seat, play, events);
                }
                Ok(())
            }
            Phase::MatchOver => Err(RuleError::GameOver),
        }
    }

    /// SHA-256 over the canonical encoding of the whole state (rules included), hex.
    pub fn state_hash(&self) -> String {
        let bytes = serde_json::to_vec(self).unwrap_or_default();
        hex::encode(Sha256::digest(&bytes))
    }

    /// Seats that must act now (tribute, return, or the seat whose turn it is).
    pub fn to_act(&self) -> ArrayVec<Seat, 4> {
        match self.phase {
            Phase::Tribute => self.tributes.iter().filter(|t| t.card.is_none()).map(|t| t.payer).collect(),
            Phase::Return => self
                .tributes
                .iter()
                .filter(|t| t.return_owed && t.returned.is_none())
                .filter_map(|t| t.receiver)
                .collect(),
            Phase::Play => [self.turn].into_iter().collect(),
            Phase::MatchOver => ArrayVec::new(),
        }
    }

    /// Convenience: builds the next action for `seat` with the right `seq`.
    pub fn action(&self, seat: Seat, kind: ActionKind) -> Action {
        Action { seq: self.seq, seat, kind }
    }

    /// Kind of a play action for these cards.
    pub fn play_kind(play: &Play) -> ActionKind {
        ActionKind::Play { cards: play.cards.ids(), reading: Some(play.pattern) }
    }
}

/// The smallest single in a hand (used by timeouts and the easiest AI).
pub fn smallest_single(hand: CardSet, level: Rank) -> Option<CardId> {
    hand.iter().min_by_key(|&id| (rank_order(Card::from_id(id).rank().0, level), id))
}
