//! The online client's copy of what its player may see, in plain Rust (no Godot, covered by
//! `cargo test`): the server's filtered view, kept up to date from `applied` messages, and the
//! `GuandanEngine` signals (as [`Emit`]s) each message becomes.
//!
//! A full `state` (match start, resync, reconnect) replaces the copy and is announced whole, as
//! `GuandanEngine.resume_from` announces a position: `match_started`, `deal_started`, the deal's
//! plays so far, places, the viewer's hand, then the duty in progress. An `applied` message
//! whose `action_seq` does not follow the last one is a gap: the caller asks for a full state
//! instead of patching (the spec's "never a partial patch").

use guandan_core::card::CardSet;
use guandan_core::event::Outcome;
use guandan_core::game::{Phase, Seat, Turn};
use guandan_core::view::{PlayerView, SeenTribute, ShownHand};
use guandan_runtime::Out;

use crate::forward::Emit;

/// The client's copy of its player's view.
#[derive(Clone, Debug, Default)]
pub struct Mirror {
    /// `None` until the first full state of a match.
    pub view: Option<PlayerView>,
    /// The match seed when a `match_started` notice told it (0 otherwise: the server sends it
    /// only to players present at the start).
    pub seed: u64,
    /// Actions applied so far (the server's `action_seq`).
    pub action_seq: u64,
    /// The server's state hash after `action_seq`.
    pub state_hash: String,
    pub outcome: Option<Outcome>,
    /// This deal's tributes and returns seen so far: (from, to).
    exchanges: Vec<(Seat, Seat)>,
}

/// An `applied` message that does not follow the copy: `expected` was the next first action.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Gap {
    pub expected: u64,
    pub got_first: u64,
}

impl Mirror {
    /// The viewer's seat (`None` for a spectator or before a match).
    pub fn seat(&self) -> Option<Seat> {
        self.view.as_ref().and_then(|v| v.seat)
    }

    pub fn clear(&mut self) {
        *self = Mirror::default();
    }

    /// A full state replaces the copy; returns the signals that rebuild a table from nothing.
    /// `outcome`: how a finished match ended, when the message says (else what this mirror saw
    /// before); a finished match is announced with its end, so the table shows the result.
    pub fn full_state(
        &mut self,
        action_seq: u64,
        state_hash: &str,
        tv: &PlayerView,
        outcome: Option<Outcome>,
        time_left: Option<f64>,
    ) -> Vec<Emit> {
        let view = tv.clone();
        self.action_seq = action_seq;
        self.state_hash = state_hash.to_string();
        if view.phase != Phase::MatchOver {
            self.outcome = None;
        } else if outcome.is_some() {
            self.outcome = outcome;
        }
        let mut out = announce(&view, self.seed, time_left);
        if let (Phase::MatchOver, Some(outcome)) = (view.phase, self.outcome) {
            out.push(Emit::Runtime(Out::MatchEnded { outcome }));
        }
        // The exchanges of the deal so far, from the view's tributes (a hidden return still shows
        // whether it happened through the counts, which the full view has exactly).
        self.exchanges.clear();
        for t in &view.tributes {
            if let Some(to) = t.to {
                self.exchanges.push((t.from, to));
                if view.phase == Phase::Return && !view.to_act.contains(&to) {
                    self.exchanges.push((to, t.from));
                }
            }
        }
        self.view = Some(view);
        out
    }

    /// Applies an `applied` message; returns its signals, or the gap that asks for a resync.
    pub fn applied(
        &mut self,
        action_seq: u64,
        actions: u32,
        state_hash: &str,
        events: &[Out],
        prompt: Option<&PlayerView>,
    ) -> Result<Vec<Emit>, Gap> {
        let first = action_seq.saturating_sub(u64::from(actions)) + 1;
        let Some(view) = self.view.as_mut() else {
            return Err(Gap { expected: self.action_seq + 1, got_first: first });
        };
        if actions == 0 {
            if action_seq != self.action_seq {
                return Err(Gap { expected: self.action_seq + 1, got_first: first });
            }
        } else if first != self.action_seq + 1 {
            // Already seen (a catch-up overlapping what arrived before the drop): nothing new.
            if action_seq <= self.action_seq {
                return Ok(Vec::new());
            }
            return Err(Gap { expected: self.action_seq + 1, got_first: first });
        }
        let mut out = Vec::with_capacity(events.len());
        for o in events {
            match o {
                Out::MatchStarted { seed } => {
                    self.seed = *seed;
                    out.push(Emit::MatchStarted { seed: *seed, local: view.seat });
                    continue;
                }
                Out::MatchEnded { outcome } => self.outcome = Some(*outcome),
                // Another seat's hand (a spectator shown a team's hands): kept in the copy, not
                // announced, since the engine's `hand_changed` is the viewer's own hand.
                Out::HandChanged { seat, .. } if view.seat != Some(*seat) => {
                    apply(view, &mut self.exchanges, o);
                    continue;
                }
                _ => {}
            }
            apply(view, &mut self.exchanges, o);
            out.push(Emit::Runtime(o.clone()));
        }
        if let Some(p) = prompt {
            // The prompt is the seat's own light view (no history): it corrects everything else.
            let history = std::mem::take(&mut view.history);
            *view = p.clone();
            view.history = history;
        }
        view.seq = action_seq;
        self.action_seq = action_seq;
        self.state_hash = state_hash.to_string();
        Ok(out)
    }
}

/// What a notice changes in the view (the parts the table and the advisor read).
fn apply(v: &mut PlayerView, exchanges: &mut Vec<(Seat, Seat)>, o: &Out) {
    match o {
        Out::DealStarted { deal_no, level, declarer } => {
            exchanges.clear();
            v.deal_no = *deal_no;
            v.level = *level;
            v.declarer = *declarer;
            v.card_counts = [27; 4];
            v.history.clear();
            v.played = CardSet::EMPTY;
            v.table = None;
            v.passes = 0;
            v.finished.clear();
            v.tributes.clear();
            v.to_act.clear();
            v.tribute_options = CardSet::EMPTY;
            v.return_options = CardSet::EMPTY;
        }
        Out::HandChanged { seat, hand } => {
            if v.seat == Some(*seat) {
                v.hand = *hand;
                v.card_counts[seat.index()] = hand.len() as u8;
            } else {
                match v.shown_hands.iter_mut().find(|h| h.seat == *seat) {
                    Some(h) => h.hand = *hand,
                    None => {
                        v.shown_hands.push(ShownHand { seat: *seat, hand: *hand });
                        v.shown_hands.sort_by_key(|h| h.seat);
                    }
                }
                v.card_counts[seat.index()] = hand.len() as u8;
            }
        }
        Out::TributePhase { payers, resisted } => {
            if !resisted {
                v.phase = Phase::Tribute;
                v.to_act = payers.clone();
            }
        }
        Out::TributeGiven { from, to, card } | Out::ReturnGiven { from, to, card } => {
            // Counts from the exchanges of this deal (a payer's card may leave the hand before
            // it is routed, with no notice to others; once routed every count is exact).
            exchanges.push((*from, *to));
            let mut counts = [27u8; 4];
            for (f, t) in exchanges.iter() {
                counts[f.index()] = counts[f.index()].saturating_sub(1);
                counts[t.index()] = counts[t.index()].saturating_add(1);
            }
            if let Some(me) = v.seat {
                counts[me.index()] = v.card_counts[me.index()];
            }
            v.card_counts = counts;
            if matches!(o, Out::ReturnGiven { .. }) {
                if let Some(t) = v.tributes.iter_mut().find(|t| t.from == *to) {
                    t.returned = *card;
                }
            } else {
                v.tributes.push(SeenTribute { from: *from, to: Some(*to), card: *card, returned: None });
            }
            v.to_act.retain(|s| s != from);
            if v.seat == Some(*from) {
                v.tribute_options = CardSet::EMPTY;
                v.return_options = CardSet::EMPTY;
            }
        }
        Out::ReturnPhase { receivers } => {
            v.phase = Phase::Return;
            v.to_act = receivers.clone();
        }
        Out::TurnStarted { seat, .. } => {
            v.phase = Phase::Play;
            v.turn = *seat;
            v.to_act = vec![*seat];
            v.tribute_options = CardSet::EMPTY;
            v.return_options = CardSet::EMPTY;
        }
        Out::CardsPlayed { seat, play } => {
            v.table = Some((*seat, *play));
            v.passes = 0;
            v.played = v.played.union(play.cards);
            v.history.push(Turn { seat: *seat, play: Some(*play) });
            let n = play.cards.len() as u8;
            v.card_counts[seat.index()] = v.card_counts[seat.index()].saturating_sub(n);
            if v.seat == Some(*seat) {
                v.hand = v.hand.minus(play.cards);
            }
            v.to_act.clear();
        }
        Out::Passed { seat } => {
            v.passes = v.passes.saturating_add(1);
            v.history.push(Turn { seat: *seat, play: None });
            v.to_act.clear();
        }
        Out::TableCleared { .. } | Out::PartnerTakesLead { .. } => {
            v.table = None;
            v.passes = 0;
        }
        Out::CardsLeft { seat, count } => v.card_counts[seat.index()] = *count,
        Out::PlayerFinished { seat, .. } => {
            if !v.finished.contains(seat) {
                v.finished.push(*seat);
            }
            v.card_counts[seat.index()] = 0;
        }
        Out::DealEnded { order, levels_after, .. } => {
            v.table = None;
            v.passes = 0;
            v.last_order = Some(*order);
            v.team_levels = *levels_after;
            v.to_act.clear();
        }
        Out::MatchEnded { .. } => {
            v.phase = Phase::MatchOver;
            v.to_act.clear();
        }
        Out::MatchStarted { .. }
        | Out::SurrenderProposed { .. }
        | Out::SurrenderVoted { .. }
        | Out::ControllerChanged { .. }
        | Out::AiDecided { .. }
        | Out::TimedOut { .. } => {}
    }
}

/// The signals that draw a whole position from nothing (as `resume_from` announces one);
/// `time_left`: seconds left on the player's own duty, for its turn's clock.
pub fn announce(v: &PlayerView, seed: u64, time_left: Option<f64>) -> Vec<Emit> {
    let mut out = vec![
        Emit::MatchStarted { seed, local: v.seat },
        Emit::Runtime(Out::DealStarted { deal_no: v.deal_no, level: v.level, declarer: v.declarer }),
    ];
    // The trick on the table (its plays and passes: the centre), the exact counts, the places.
    for t in &v.history[current_trick_start(v)..] {
        out.push(Emit::Runtime(match t.play {
            Some(play) => Out::CardsPlayed { seat: t.seat, play },
            None => Out::Passed { seat: t.seat },
        }));
    }
    for seat in Seat::ALL.into_iter().filter(|s| !v.finished.contains(s)) {
        out.push(Emit::Runtime(Out::CardsLeft { seat, count: shown_count(v, seat) }));
    }
    for (i, s) in v.finished.iter().enumerate() {
        out.push(Emit::Runtime(Out::PlayerFinished { seat: *s, place: i as u8 + 1 }));
    }
    if let Some(seat) = v.seat {
        out.push(Emit::Runtime(Out::HandChanged { seat, hand: v.hand }));
    }
    match v.phase {
        Phase::Tribute => {
            let mut payers: Vec<Seat> = v.tributes.iter().map(|t| t.from).collect();
            for s in &v.to_act {
                if !payers.contains(s) {
                    payers.push(*s);
                }
            }
            out.push(Emit::Runtime(Out::TributePhase { payers, resisted: false }));
            for t in v.tributes.iter().filter(|t| t.to.is_some() && !v.to_act.contains(&t.from)) {
                out.push(Emit::Runtime(Out::TributeGiven {
                    from: t.from,
                    to: t.to.unwrap_or(Seat::ZERO),
                    card: t.card,
                }));
            }
        }
        Phase::Return => {
            let payers: Vec<Seat> = v.tributes.iter().map(|t| t.from).collect();
            out.push(Emit::Runtime(Out::TributePhase { payers, resisted: false }));
            for t in &v.tributes {
                if let Some(to) = t.to {
                    out.push(Emit::Runtime(Out::TributeGiven { from: t.from, to, card: t.card }));
                }
            }
            out.push(Emit::Runtime(Out::ReturnPhase { receivers: v.to_act.clone() }));
        }
        Phase::Play => {
            // The player's own turn shows the time the server said was left; others' none.
            let time_limit_s = if v.seat == Some(v.turn) { time_left.unwrap_or(0.0) } else { 0.0 };
            out.push(Emit::Runtime(Out::TurnStarted { seat: v.turn, can_pass: v.can_pass(), time_limit_s }));
        }
        Phase::MatchOver => {}
    }
    out
}

/// The count a restored position shows for `seat`: its exact count, but another seat's tribute
/// paid and not routed yet (two tributes: routed once both are paid) is still counted in the
/// payer's hand, as the table shows it live (nobody else is told of the payment). The routing's
/// `tribute_given` then moves it like every live exchange (issue 52: the chaos tour's seed 3 left
/// a payer one card short on the table for the whole deal after a full state mid-tribute).
fn shown_count(v: &PlayerView, seat: Seat) -> u8 {
    let in_transit = v.phase == Phase::Tribute
        && v.seat != Some(seat)
        && v.tributes.iter().any(|t| t.from == seat && t.to.is_none())
        && !v.to_act.contains(&seat);
    v.card_counts[seat.index()] + u8::from(in_transit)
}

/// Where the trick on the table begins in the deal's history: a trick ends when every other
/// player still holding cards has passed after the last play (the cards each seat held are
/// rebuilt backwards from the counts, so players who went out mid-deal are counted right).
pub fn current_trick_start(v: &PlayerView) -> usize {
    let mut counts = v.card_counts.map(i32::from);
    for t in &v.history {
        if let Some(p) = t.play {
            counts[t.seat.index()] += p.cards.len() as i32;
        }
    }
    let (mut start, mut last, mut passes) = (0, None, 0);
    for (i, t) in v.history.iter().enumerate() {
        match t.play {
            Some(p) => {
                counts[t.seat.index()] -= p.cards.len() as i32;
                last = Some(t.seat);
                passes = 0;
            }
            None => passes += 1,
        }
        if let (Some(l), None) = (last, t.play) {
            let others = Seat::ALL.into_iter().filter(|&s| s != l && counts[s.index()] > 0).count();
            if passes >= others {
                start = i + 1;
                last = None;
                passes = 0;
            }
        }
    }
    start
}

#[cfg(test)]
mod tests;
