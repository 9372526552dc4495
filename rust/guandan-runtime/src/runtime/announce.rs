//! What the rules' events tell whom: notices with their audiences (a card only to the two seats
//! it passes between, each hand to its seat), a seat's duty told again, the whole position.

use super::*;

impl Runtime {
    /// The notice that tells `seat` its duty now (its turn with the time left, its tribute or
    /// its return), if it has one, told to that seat alone: for a seat taken back from the AI,
    /// whose duty was announced while the AI held it.
    pub fn duty_notice(&self, seat: Seat) -> Option<Notice> {
        let m = &self.m;
        if !m.to_act().contains(&seat) {
            return None;
        }
        let out = match m.phase() {
            Phase::Play => {
                Out::TurnStarted { seat, can_pass: m.can_pass(), time_limit_s: self.time_left(seat).unwrap_or(0.0) }
            }
            Phase::Tribute => Out::TributePhase { payers: m.to_act().to_vec(), resisted: false },
            Phase::Return => Out::ReturnPhase { receivers: m.to_act().to_vec() },
            Phase::MatchOver => return None,
        };
        // Only for that seat: the other seats' duties were announced and still hold.
        Some(Notice { seq: m.seq(), audience: Audience::Only(Audience::seats(&[seat])), out })
    }

    /// Rule events as notices with their audiences, plus each seat's new hand right after the
    /// last event that changed it, and the return phase once tributes are routed.
    pub(super) fn translate(&mut self, events: &[Event]) -> Vec<Notice> {
        let seq = self.m.seq();
        let mut out: Vec<Notice> = Vec::with_capacity(events.len() + 4);
        let all = |o: Out| Notice::everyone(seq, o);
        // Position in `out` after which each seat's hand update goes.
        let mut hand_at: [Option<usize>; 4] = [None; 4];
        let mut routed = false;
        for e in events {
            match e {
                Event::DealStarted { deal_no, level, declarer } => {
                    out.push(all(Out::DealStarted { deal_no: *deal_no, level: *level, declarer: *declarer }));
                    hand_at = [Some(out.len()); 4];
                }
                Event::TributeRequired { payers } => {
                    out.push(all(Out::TributePhase { payers: payers.clone(), resisted: false }))
                }
                Event::Resisted { payers } => {
                    out.push(all(Out::TributePhase { payers: payers.clone(), resisted: true }))
                }
                Event::TributeGiven { from, to, card } | Event::ReturnGiven { from, to, card } => {
                    let tribute = matches!(e, Event::TributeGiven { .. });
                    routed |= tribute;
                    let (from, to) = (*from, *to);
                    let make = |c| {
                        if tribute {
                            Out::TributeGiven { from, to, card: c }
                        } else {
                            Out::ReturnGiven { from, to, card: c }
                        }
                    };
                    private_pair(&mut out, seq, from, to, make, *card);
                    hand_at[from.index()] = Some(out.len());
                    hand_at[to.index()] = Some(out.len());
                }
                Event::TurnStarted { seat, can_pass } => out.push(all(Out::TurnStarted {
                    seat: *seat,
                    can_pass: *can_pass,
                    time_limit_s: self.turn_limit(*seat),
                })),
                Event::Played { seat, play } => {
                    out.push(all(Out::CardsPlayed { seat: *seat, play: *play }));
                    hand_at[seat.index()] = Some(out.len());
                }
                Event::Passed { seat } => out.push(all(Out::Passed { seat: *seat })),
                Event::TableCleared { leader } => out.push(all(Out::TableCleared { leader: *leader })),
                Event::PartnerTakesLead { seat } => out.push(all(Out::PartnerTakesLead { seat: *seat })),
                Event::CardsLeft { seat, count } => out.push(all(Out::CardsLeft { seat: *seat, count: *count })),
                Event::PlayerFinished { seat, place } => {
                    out.push(all(Out::PlayerFinished { seat: *seat, place: *place }))
                }
                Event::DealEnded { order, winner, levels_before, levels_after } => out.push(all(Out::DealEnded {
                    order: *order,
                    winner: *winner,
                    levels_before: *levels_before,
                    levels_after: *levels_after,
                })),
                Event::SurrenderProposed { seat } => out.push(all(Out::SurrenderProposed { seat: *seat })),
                Event::SurrenderRejected { seat } => out.push(all(Out::SurrenderVoted { seat: *seat, accept: false })),
                Event::MatchEnded { outcome } => out.push(all(Out::MatchEnded { outcome: *outcome })),
            }
        }
        // Hand updates, back to front so earlier positions stay valid.
        let mut updates: Vec<(usize, Seat)> = Seat::ALL
            .into_iter()
            .filter(|&s| self.m.hand(s) != self.reported[s.index()])
            .map(|s| (hand_at[s.index()].unwrap_or(out.len()), s))
            .collect();
        updates.sort_unstable();
        for &(at, seat) in updates.iter().rev() {
            let hand = self.m.hand(seat);
            self.reported[seat.index()] = hand;
            out.insert(at, Notice { seq, audience: Audience::Only(seat.bit()), out: Out::HandChanged { seat, hand } });
        }
        if routed && self.m.phase() == Phase::Return {
            out.push(all(Out::ReturnPhase { receivers: self.m.to_act().to_vec() }));
        }
        out
    }

    /// The whole position as notices (for a resumed match or a client's full resync).
    pub fn announce_position(&mut self) -> Vec<Notice> {
        let m = &self.m;
        let seq = m.seq();
        let all = |o: Out| Notice::everyone(seq, o);
        let mut out = vec![
            all(Out::MatchStarted { seed: m.seed() }),
            all(Out::DealStarted { deal_no: m.deal_no(), level: m.level(), declarer: m.declarer() }),
        ];
        for seat in Seat::ALL {
            let hand = m.hand(seat);
            self.reported[seat.index()] = hand;
            out.push(Notice { seq, audience: Audience::Only(seat.bit()), out: Out::HandChanged { seat, hand } });
        }
        let payers: Vec<Seat> = m.tributes().iter().map(|t| t.payer).collect();
        match m.phase() {
            Phase::Tribute => out.push(all(Out::TributePhase { payers, resisted: false })),
            Phase::Return => {
                out.push(all(Out::TributePhase { payers, resisted: false }));
                for t in m.tributes() {
                    if let (Some(to), Some(card)) = (t.receiver, t.card) {
                        let make = |c| Out::TributeGiven { from: t.payer, to, card: c };
                        private_pair(&mut out, seq, t.payer, to, make, card);
                    }
                }
                for t in m.tributes() {
                    if let (Some(to), Some(card)) = (t.receiver, t.returned) {
                        let make = |c| Out::ReturnGiven { from: to, to: t.payer, card: c };
                        private_pair(&mut out, seq, to, t.payer, make, card);
                    }
                }
                out.push(all(Out::ReturnPhase { receivers: m.to_act().to_vec() }));
            }
            Phase::Play => {
                let time_limit_s = self.turn_limit(m.turn());
                out.push(all(Out::TurnStarted { seat: m.turn(), can_pass: m.can_pass(), time_limit_s }));
            }
            Phase::MatchOver => {
                if let Some(outcome) = m.outcome() {
                    out.push(all(Out::MatchEnded { outcome }));
                }
            }
        }
        if let Some(s) = m.surrender() {
            out.push(all(Out::SurrenderProposed { seat: s.proposer }));
        }
        out
    }
}

/// A notice with a card for the two seats involved, and its copy without the card for the rest.
fn private_pair(
    out: &mut Vec<Notice>,
    seq: u64,
    a: Seat,
    b: Seat,
    make: impl Fn(Option<guandan_core::card::CardId>) -> Out,
    card: guandan_core::card::CardId,
) {
    let pair = Audience::seats(&[a, b]);
    out.push(Notice { seq, audience: Audience::Only(pair), out: make(Some(card)) });
    out.push(Notice { seq, audience: Audience::Except(pair), out: make(None) });
}
