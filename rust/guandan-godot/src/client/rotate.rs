//! The table draws its player at the bottom as seat 0 (south), partner north. Online the player
//! may sit anywhere, so the client turns every seat of the match by the player's server seat `k`
//! before it reaches the copy and the signals: seat `s` becomes `(s - k) mod 4`, and team `t`
//! (the server seats of parity `t`) becomes `t ^ (k & 1)`. Partners stay partners, play order
//! stays play order. Intents carry no seats; room and lobby data keep the server's seats.

use guandan_core::event::Outcome;
use guandan_core::game::{Seat, Team};
use guandan_proto::{TableView, WireOut};

/// A turn of the table by `k` seats (0 = none).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Turn(pub Seat);

impl Default for Turn {
    fn default() -> Turn {
        Turn(Seat::ZERO)
    }
}

impl Turn {
    pub fn seat(self, s: Seat) -> Seat {
        s.after(4 - u8::from(self.0))
    }

    /// The server seat of a table seat.
    pub fn back(self, s: Seat) -> Seat {
        s.after(u8::from(self.0))
    }

    /// The turn that undoes this one.
    pub fn inverse(self) -> Turn {
        Turn(Seat::ZERO.after(4 - u8::from(self.0)))
    }

    fn odd(self) -> bool {
        self.0.team() == Team::ONE
    }

    pub fn team(self, t: Team) -> Team {
        if self.odd() { t.other() } else { t }
    }

    fn seats(self, v: &mut [Seat]) {
        for s in v {
            *s = self.seat(*s);
        }
    }

    /// Arrays indexed by seat: entry `s` moves to `seat(s)`.
    fn by_seat<T: Copy>(self, a: [T; 4]) -> [T; 4] {
        let mut out = a;
        for (s, v) in Seat::ALL.into_iter().zip(a) {
            out[self.seat(s).index()] = v;
        }
        out
    }

    /// Arrays indexed by team.
    fn by_team<T: Copy>(self, a: [T; 2]) -> [T; 2] {
        if self.odd() { [a[1], a[0]] } else { a }
    }

    pub fn outcome(self, o: Outcome) -> Outcome {
        match o {
            Outcome::Decisive { team, reason } => Outcome::Decisive { team: self.team(team), reason },
            d @ Outcome::Draw { .. } => d,
        }
    }

    pub fn view(self, v: &mut TableView) {
        if self.0 == Seat::ZERO {
            return;
        }
        v.seat = v.seat.map(|s| self.seat(s));
        v.team_levels = self.by_team(v.team_levels);
        v.declarer = v.declarer.map(|t| self.team(t));
        v.card_counts = self.by_seat(v.card_counts);
        v.turn = self.seat(v.turn);
        self.seats(&mut v.to_act);
        if let Some((s, _)) = &mut v.table {
            *s = self.seat(*s);
        }
        self.seats(&mut v.finished);
        if let Some(o) = &mut v.last_order {
            self.seats(o);
        }
        for t in &mut v.history {
            t.seat = self.seat(t.seat);
        }
        for t in &mut v.tributes {
            t.from = self.seat(t.from);
            t.to = t.to.map(|s| self.seat(s));
        }
        for h in &mut v.shown_hands {
            h.seat = self.seat(h.seat);
        }
        v.shown_hands.sort_by_key(|h| h.seat);
    }

    pub fn out(self, w: &mut WireOut) {
        if self.0 == Seat::ZERO {
            return;
        }
        match w {
            WireOut::MatchStarted { .. } => {}
            WireOut::DealStarted { declarer, .. } => *declarer = declarer.map(|t| self.team(t)),
            WireOut::TributePhase { payers, .. } => self.seats(payers),
            WireOut::ReturnPhase { receivers } => self.seats(receivers),
            WireOut::TributeGiven { from, to, .. } | WireOut::ReturnGiven { from, to, .. } => {
                *from = self.seat(*from);
                *to = self.seat(*to);
            }
            WireOut::DealEnded { order, winner, levels_before, levels_after } => {
                self.seats(order);
                *winner = self.team(*winner);
                *levels_before = self.by_team(*levels_before);
                *levels_after = self.by_team(*levels_after);
            }
            WireOut::MatchEnded { outcome } => *outcome = self.outcome(*outcome),
            WireOut::HandChanged { seat, .. }
            | WireOut::TurnStarted { seat, .. }
            | WireOut::CardsPlayed { seat, .. }
            | WireOut::Passed { seat }
            | WireOut::PartnerTakesLead { seat }
            | WireOut::CardsLeft { seat, .. }
            | WireOut::PlayerFinished { seat, .. }
            | WireOut::SurrenderProposed { seat }
            | WireOut::SurrenderVoted { seat, .. }
            | WireOut::ControllerChanged { seat, .. }
            | WireOut::AiDecided { seat, .. }
            | WireOut::TimedOut { seat } => *seat = self.seat(*seat),
            WireOut::TableCleared { leader } => *leader = self.seat(*leader),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use guandan_core::game::Match;
    use guandan_core::rules::RuleConfig;

    #[test]
    fn the_player_sits_south_partners_stay_partners_and_turning_back_restores() {
        for k in Seat::ALL {
            let t = Turn(k);
            assert_eq!(t.seat(k), Seat::ZERO, "the player is south");
            assert_eq!(t.seat(k.partner()), Seat::TWO, "the partner is north");
            assert_eq!(t.seat(k.next()), Seat::ONE, "the next to play is east");
            assert_eq!(t.team(Team::of(k)), Team::ZERO, "the player's team is team 0");
            for s in Seat::ALL {
                assert_eq!(t.back(t.seat(s)), s);
                assert_eq!(t.team(Team::of(s)), Team::of(t.seat(s)), "a seat's team turns with it");
            }
        }
        let (m, _) = Match::new(3, RuleConfig::competition()).unwrap();
        for k in Seat::ALL {
            let real = m.view(Some(k));
            let mut v = real.clone();
            Turn(k).view(&mut v);
            assert_eq!(v.seat, Some(Seat::ZERO));
            assert_eq!(v.hand, real.hand);
            assert_eq!(v.card_counts[0], real.card_counts[k.index()]);
            Turn(k).inverse().view(&mut v);
            assert_eq!(v, real, "turning by k then by -k gives the view back");
        }
        // Shown hands turn with their seats: each stays with its cards.
        for team in Team::BOTH {
            let real = m.team_view(team);
            for k in Seat::ALL {
                let mut v = real.clone();
                Turn(k).view(&mut v);
                assert_eq!(v.shown_hands.len(), 2);
                for h in &v.shown_hands {
                    let back = Turn(k).back(h.seat);
                    assert!(team.has(back));
                    assert_eq!(h.hand, m.hand(back), "seat {back}'s hand turned by {k}");
                }
                Turn(k).inverse().view(&mut v);
                assert_eq!(v, real);
            }
        }
    }
}
