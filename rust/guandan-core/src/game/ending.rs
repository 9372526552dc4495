//! The end of a deal (the finishing order, the levels gained, the A) and of the match (the A
//! passed, a surrender agreed, the time up).

use super::*;
use crate::progress::team_mask;
use crate::rules::AcePass;

/// Place (0 = 1st … 3 = last) of the 1st finisher's partner in a deal's finishing order.
pub fn partner_place(order: &[Seat; 4]) -> usize {
    order.iter().position(|&s| s == partner_of(order[0])).unwrap_or(3)
}

/// Levels the winning team of a deal gains with this finishing order.
pub fn deal_gain(order: &[Seat; 4], rules: &RuleConfig) -> u8 {
    rules.levels_per_finish[partner_place(order).clamp(1, 3) - 1]
}

impl Match {
    pub(super) fn end_deal(&mut self, events: &mut Vec<Event>) {
        // Finishing order; players still holding cards follow by fewer cards left, then play order.
        let mut order: ArrayVec<Seat, 4> = self.finished.clone();
        let mut rest: ArrayVec<Seat, 4> = Seat::ALL.into_iter().filter(|&s| self.active(s)).collect();
        let after = self.finished.last().map_or(0, |s| s.index());
        rest.sort_by_key(|&s| (self.hands[s.index()].len(), (s.index() + 4 - after) % 4));
        order.extend(rest);
        let order: [Seat; 4] = [order[0], order[1], order[2], order[3]];
        let winner = team_of(order[0]);
        let partner_place = partner_place(&order);
        let gain = deal_gain(&order, &self.rules);
        let before = self.team_levels;
        let mut match_won = false;
        // The team dropped from A to 2 by this deal's failure, if any.
        let mut reset = None;
        if let Some(d) = self.declarer
            && self.team_levels[d.index()] == Rank::ACE
        {
            let passed = winner == d
                && match self.rules.ace_pass {
                    AcePass::FirstNotPartnerLast => partner_place != 3,
                    AcePass::DoubleDown => partner_place == 1,
                };
            if passed {
                match_won = true;
            } else {
                self.ace_failures[d.index()] += 1;
                let limit = self.rules.ace_failures_before_reset;
                if limit > 0 && self.ace_failures[d.index()] >= limit {
                    self.team_levels[d.index()] = Rank::TWO;
                    self.ace_failures[d.index()] = 0;
                    reset = Some(d);
                }
            }
        }
        // The drop to 2 replaces the deal's gain: a team that failed at A by winning the deal
        // itself (partner last) plays 2 next. Revision 1 added the gain after the drop.
        let gain_replaced = reset == Some(winner) && self.rules_revision >= 2;
        if !match_won && !gain_replaced {
            let w = &mut self.team_levels[winner.index()];
            *w = Rank((w.0 + gain).min(14));
        }
        self.last_order = Some(order);
        self.declarer = Some(winner);
        self.table = None;
        events.push(Event::DealEnded { order, winner, levels_before: before, levels_after: self.team_levels });
        if match_won {
            self.end_match(Some(winner), EndReason::AceWon, events);
        } else {
            self.deal_no += 1;
            self.start_deal(events);
        }
    }

    pub(super) fn end_match(&mut self, winner: Option<Team>, reason: EndReason, events: &mut Vec<Event>) {
        self.phase = Phase::MatchOver;
        self.winner = Some(winner);
        self.end_reason = Some(reason);
        self.surrender = None;
        let outcome = match winner {
            Some(team) => Outcome::Decisive { team, reason },
            None => Outcome::Draw { reason },
        };
        events.push(Event::MatchEnded { outcome });
    }

    /// A seat proposes that its team surrenders: the vote opens.
    pub(super) fn propose_surrender(&mut self, seat: Seat, events: &mut Vec<Event>) -> Result<(), RuleError> {
        if self.surrender.is_some() {
            return Err(RuleError::StateConflict(Conflict::VoteOpen));
        }
        self.surrender = Some(Surrender { team: team_of(seat), proposer: seat, accepted: seat.bit(), refused: 0 });
        events.push(Event::SurrenderProposed { seat });
        Ok(())
    }

    /// A seat's answer to the open surrender vote.
    pub(super) fn surrender_vote(
        &mut self,
        seat: Seat,
        accept: bool,
        events: &mut Vec<Event>,
    ) -> Result<(), RuleError> {
        let Some(mut s) = self.surrender else {
            return Err(RuleError::StateConflict(Conflict::NoVote));
        };
        if s.voted(seat) {
            return Err(RuleError::StateConflict(Conflict::AlreadyVoted(seat)));
        }
        // The proposer's partner must agree; of the opponents, `surrender_opponent_accepts`
        // must accept (the spec: one is enough), so the vote closes on a refusal only
        // when too few opponents are left to reach it.
        let needed = u32::from(self.rules.surrender_opponent_accepts.clamp(1, 2));
        if !accept {
            let own_team = team_of(seat) == s.team;
            s.refused |= seat.bit();
            let open_opponents = (!(s.accepted | s.refused) & !team_mask(s.team) & 0b1111).count_ones();
            if own_team || s.opponent_accepts() + open_opponents < needed {
                self.surrender = None;
                events.push(Event::SurrenderRejected { seat });
            } else {
                self.surrender = Some(s);
            }
            return Ok(());
        }
        s.accepted |= seat.bit();
        self.surrender = Some(s);
        let team = team_mask(s.team);
        if s.accepted & team == team && s.opponent_accepts() >= needed {
            self.end_match(Some(s.team.other()), EndReason::Surrender, events);
        }
        Ok(())
    }

    /// The match time is up: the team with the higher level wins (a draw when level).
    pub(super) fn time_up(&mut self, events: &mut Vec<Event>) -> Result<(), RuleError> {
        let [a, b] = self.team_levels;
        let winner = match a.cmp(&b) {
            std::cmp::Ordering::Greater => Some(Team::ZERO),
            std::cmp::Ordering::Less => Some(Team::ONE),
            std::cmp::Ordering::Equal => None,
        };
        self.end_match(winner, EndReason::TimeUp, events);
        Ok(())
    }
}
