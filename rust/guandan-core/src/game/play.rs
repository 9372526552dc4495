//! The play: a lead or a follow checked and made, passes, and the table cleared for the next lead.

use super::*;
use crate::movegen;

impl Match {
    /// Whether the seat to act may pass.
    pub fn can_pass(&self) -> bool {
        self.phase == Phase::Play && self.table.is_some()
    }

    /// Every distinct legal play for the seat to act (PASS not included).
    pub fn legal_plays(&self) -> movegen::MoveList {
        let hand = self.hands[self.turn.index()];
        movegen::generate(hand, self.table.as_ref().map(|t| &t.1), self.level, &self.rules)
    }

    pub(super) fn check_turn(&self, seat: Seat) -> Result<(), RuleError> {
        self.play_check(seat).turn()
    }

    pub(super) fn do_play(&mut self, seat: Seat, play: Play, events: &mut Vec<Event>) {
        let hand = &mut self.hands[seat.index()];
        *hand = hand.minus(play.cards);
        let left = hand.len() as u8;
        self.played = self.played.union(play.cards);
        self.table = Some((seat, play));
        self.passes = 0;
        self.history.push(Turn { seat, play: Some(play) });
        events.push(Event::Played { seat, play });
        if left > 0 && left <= self.rules.announce_threshold {
            events.push(Event::CardsLeft { seat, count: left });
        }
        if left == 0 {
            self.finished.push(seat);
            events.push(Event::PlayerFinished { seat, place: self.finished.len() as u8 });
            let double = self.finished.len() == 2 && team_of(self.finished[0]) == team_of(self.finished[1]);
            if double || self.finished.len() == 3 {
                self.end_deal(events);
                return;
            }
        }
        self.turn = self.next_active(seat);
        events.push(Event::TurnStarted { seat: self.turn, can_pass: true });
    }

    pub(super) fn do_pass(&mut self, seat: Seat, events: &mut Vec<Event>) {
        self.passes += 1;
        self.history.push(Turn { seat, play: None });
        events.push(Event::Passed { seat });
        let Some((last, _)) = self.table else { return };
        let active = self.active_count();
        if self.active(last) && self.passes + 1 == active {
            self.clear_table(last, events);
        } else if !self.active(last) && self.passes == active {
            // Partner takes the lead: the player who went out is not there to lead again.
            let partner = partner_of(last);
            events.push(Event::PartnerTakesLead { seat: partner });
            self.clear_table(partner, events);
        } else {
            self.turn = self.next_active(seat);
            events.push(Event::TurnStarted { seat: self.turn, can_pass: true });
        }
    }

    fn clear_table(&mut self, leader: Seat, events: &mut Vec<Event>) {
        self.table = None;
        self.passes = 0;
        events.push(Event::TableCleared { leader });
        self.turn = leader;
        events.push(Event::TurnStarted { seat: leader, can_pass: false });
    }

    /// The play an action with these cards would make, without applying it.
    pub fn preview_play(&self, seat: Seat, cards: &[CardId], reading: Option<&Pattern>) -> Result<Play, RuleError> {
        self.play_check(seat).play(cards, reading.into())
    }
}
