//! Tribute and return: who pays whom after a deal, which cards may go, and who leads then.

use super::*;
use crate::rules::{DoubleTributeRouting, ReturnFallback, TributeTie};

impl Match {
    /// The cards of `pool` of the highest (or lowest) single order.
    fn extreme_cards(&self, pool: CardSet, highest: bool) -> CardSet {
        let order = |id: CardId| rank_order(Card::from_id(id).rank().0, self.level);
        let target = if highest { pool.iter().map(order).max() } else { pool.iter().map(order).min() };
        pool.iter().filter(|&id| Some(order(id)) == target).fold(CardSet::EMPTY, CardSet::with)
    }

    /// Cards the seat may give as tribute: the highest by single order (wilds excluded unless allowed).
    pub fn tribute_options(&self, seat: Seat) -> CardSet {
        let hand = self.hands[seat.index()];
        let pool = if self.rules.wilds_as_tribute { hand } else { hand.minus(self.wilds()) };
        self.extreme_cards(pool, true)
    }

    /// Cards the seat may return (empty when the seat owes no return).
    pub fn return_options(&self, seat: Seat) -> CardSet {
        let hand = self.hands[seat.index()];
        let wilds = self.wilds();
        let max = if self.rules.return_max_rank == 0 { 16 } else { self.rules.return_max_rank };
        let ok = |id: &CardId| {
            let r = Card::from_id(*id).rank();
            r.0 <= max && !(self.rules.return_excludes_level_cards && r == self.level) && !wilds.contains(*id)
        };
        let eligible: Vec<CardId> = hand.iter().filter(ok).collect();
        if !eligible.is_empty() {
            return CardSet::from_ids(&eligible);
        }
        match self.rules.return_fallback {
            ReturnFallback::NoReturn => CardSet::EMPTY,
            ReturnFallback::LowestCard => self.extreme_cards(hand.minus(wilds), false),
        }
    }

    fn pending_tribute(&self, seat: Seat) -> Option<usize> {
        self.tributes.iter().position(|t| t.payer == seat && t.card.is_none())
    }

    pub(super) fn do_tribute(&mut self, seat: Seat, card: CardId, events: &mut Vec<Event>) -> Result<(), RuleError> {
        if self.phase != Phase::Tribute {
            return Err(RuleError::InvalidTribute(TributeFault::NotDue {
                exchange: Exchange::Tribute,
                phase: self.phase,
            }));
        }
        let Some(i) = self.pending_tribute(seat) else {
            return Err(RuleError::InvalidTribute(TributeFault::NotOwed { seat, exchange: Exchange::Tribute }));
        };
        if !self.hands[seat.index()].contains(card) {
            return Err(RuleError::CardNotFound(card));
        }
        if !self.tribute_options(seat).contains(card) {
            return Err(RuleError::InvalidTribute(TributeFault::NotHighest(Card::from_id(card))));
        }
        self.hands[seat.index()].remove(card);
        self.tributes[i].card = Some(card);
        if self.tributes.iter().all(|t| t.card.is_some()) {
            self.route_tributes(events);
        }
        Ok(())
    }

    fn route_tributes(&mut self, events: &mut Vec<Event>) {
        let Some(order) = self.last_order else { return };
        let value = |t: &Tribute| t.card.map_or(0, |c| rank_order(Card::from_id(c).rank().0, self.level));
        let leader = if self.tributes.len() == 1 {
            self.tributes[0].receiver = Some(order[0]);
            self.tributes[0].payer
        } else {
            let (a, b) = (value(&self.tributes[0]), value(&self.tributes[1]));
            // Index of the payer whose card goes to (or, by place, is compared for) the 1st finisher.
            let tie_first = {
                let step = |s: Seat| match self.rules.tribute_tie {
                    TributeTie::NextInPlayOrder => next_seat(s),
                    TributeTie::NextClockwise => s.after(3),
                };
                let mut s = step(order[0]);
                while !self.tributes.iter().any(|t| t.payer == s) {
                    s = step(s);
                }
                self.tributes.iter().position(|t| t.payer == s).unwrap_or(0)
            };
            let bigger = match a.cmp(&b) {
                std::cmp::Ordering::Greater => 0,
                std::cmp::Ordering::Less => 1,
                std::cmp::Ordering::Equal => tie_first,
            };
            let to_first = match self.rules.double_tribute_routing {
                DoubleTributeRouting::BySize => bigger,
                DoubleTributeRouting::ByPlace => self.tributes.iter().position(|t| t.payer == order[3]).unwrap_or(0),
            };
            self.tributes[to_first].receiver = Some(order[0]);
            self.tributes[1 - to_first].receiver = Some(order[1]);
            self.tributes[bigger].payer
        };
        for t in self.tributes.iter_mut() {
            if let (Some(to), Some(card)) = (t.receiver, t.card) {
                self.hands[to.index()].insert(card);
                events.push(Event::TributeGiven { from: t.payer, to, card });
            }
        }
        self.tribute_leader = Some(leader);
        for i in 0..self.tributes.len() {
            let to = self.tributes[i].receiver.unwrap_or(Seat::ZERO);
            self.tributes[i].return_owed = !self.return_options(to).is_empty();
        }
        if self.tributes.iter().any(|t| t.return_owed) {
            self.phase = Phase::Return;
        } else {
            self.begin_play(leader, events);
        }
    }

    pub(super) fn do_return(&mut self, seat: Seat, card: CardId, events: &mut Vec<Event>) -> Result<(), RuleError> {
        if self.phase != Phase::Return {
            return Err(RuleError::InvalidTribute(TributeFault::NotDue {
                exchange: Exchange::Return,
                phase: self.phase,
            }));
        }
        let Some(i) =
            self.tributes.iter().position(|t| t.receiver == Some(seat) && t.return_owed && t.returned.is_none())
        else {
            return Err(RuleError::InvalidTribute(TributeFault::NotOwed { seat, exchange: Exchange::Return }));
        };
        if !self.hands[seat.index()].contains(card) {
            return Err(RuleError::CardNotFound(card));
        }
        if !self.return_options(seat).contains(card) {
            return Err(RuleError::InvalidTribute(TributeFault::MayNotReturn(Card::from_id(card))));
        }
        let to = self.tributes[i].payer;
        self.hands[seat.index()].remove(card);
        self.hands[to.index()].insert(card);
        self.tributes[i].returned = Some(card);
        events.push(Event::ReturnGiven { from: seat, to, card });
        if self.tributes.iter().all(|t| !t.return_owed || t.returned.is_some()) {
            let leader = self.tribute_leader.unwrap_or(Seat::ZERO);
            self.begin_play(leader, events);
        }
        Ok(())
    }
}
