//! The AI driver: the decision the runtime waits for (requests tagged with the host's
//! generation, stale results dropped), illegal decisions falling back, and AI seats' surrender votes.

use super::*;

/// The seed of one AI decision: a function of the match seed, the action number and the seat,
/// so AI matches are reproducible whatever the host's threads do.
pub fn decision_seed(match_seed: u64, seq: u64, seat: Seat) -> u64 {
    match_seed ^ seq.wrapping_add(1).wrapping_mul(0x9E37_79B9_7F4A_7C15) ^ (u64::from(u8::from(seat)) << 56)
}

/// The AI decision the runtime waits for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct PendingAi {
    pub(super) seat: Seat,
    pub(super) seq: u64,
    pub(super) generation: u64,
}

impl Runtime {
    /// The AI decision being waited for: its seat and the `seq` it is for.
    pub fn pending_ai(&self) -> Option<(Seat, u64)> {
        self.pending.map(|p| (p.seat, p.seq))
    }

    pub fn set_ai_hard_limit(&mut self, limit: Duration) {
        self.ai_hard_limit = limit.min(Duration::from_millis(MAX_AI_DECISION_MS));
    }

    /// Whether [`Runtime::ai_request`] would ask for a decision now (an AI seat is to act and
    /// none is awaited): a host pacing its AI seats waits for this.
    pub fn ai_due(&self) -> bool {
        self.pending.is_none() && self.m.to_act().into_iter().any(|s| self.is_ai(s))
    }

    /// The next AI decision to make, tagged with the host's `generation`; `None` when no AI
    /// seat must act or one decision is already awaited.
    pub fn ai_request(&mut self, generation: u64) -> Option<AiRequest> {
        if self.pending.is_some() {
            return None;
        }
        let seat = self.m.to_act().into_iter().find(|&s| self.is_ai(s))?;
        let profile = self.controller(seat)?.profile()?;
        let request = AiRequest {
            generation,
            view: self.m.view(Some(seat)),
            profile: profile.clone(),
            seed: decision_seed(self.m.seed(), self.m.seq(), seat),
        };
        self.pending = Some(PendingAi { seat, seq: self.m.seq(), generation });
        Some(request)
    }

    /// Forgets the awaited AI decision (the host cancelled it); its result will be dropped.
    pub fn cancel_ai(&mut self) {
        self.pending = None;
    }

    /// Applies an AI decision if it is the awaited one for the current state; a stale result
    /// (another state, seat or generation, or the seat went back to its human) gives nothing.
    /// An illegal decision falls back to the easy level's choice, then to the timeout action,
    /// so a broken AI never stalls the table.
    pub fn ai_result(&mut self, r: AiResult) -> Vec<Notice> {
        let awaited = PendingAi { seat: r.seat, seq: r.seq, generation: r.generation };
        if self.pending != Some(awaited) || r.seq != self.m.seq() {
            return Vec::new();
        }
        self.pending = None;
        if !self.is_ai(r.seat) || !self.m.to_act().contains(&r.seat) {
            return Vec::new();
        }
        let elapsed_ms = r.elapsed.as_secs_f64() * 1000.0;
        let mut notices =
            vec![Notice::everyone(self.m.seq(), Out::AiDecided { seat: r.seat, elapsed_ms, fell_back: r.fell_back })];
        let easy = guandan_ai::l1::l1_decision(&self.m.view(Some(r.seat))).action;
        for kind in [r.decision.action, easy, ActionKind::Timeout] {
            if let Ok(more) = self.apply_timed(r.seat, kind, Some(r.elapsed)) {
                notices.extend(more);
                return notices;
            }
        }
        notices
    }

    /// Makes the due AI decision on this thread and applies it (tests, the CLI, hosts with their
    /// own blocking pool); `None` when no AI seat must act or a decision is awaited elsewhere.
    pub fn decide_now(&mut self) -> Option<Vec<Notice>> {
        let request = self.ai_request(0)?;
        let result = guandan_ai::service::decide(&request, self.ai_hard_limit);
        Some(self.ai_result(result))
    }

    /// AI seats vote on an open surrender proposal as the [`SurrenderPolicy`] says (offline:
    /// an AI seat accepts — opponents win by it, and an AI partner follows its human partner's
    /// call — and a stand-in refuses: its human was not there to agree).
    pub(super) fn ai_votes(&mut self) -> Vec<Notice> {
        let mut notices = Vec::new();
        while let Some(s) = self.m.surrender() {
            let Some(seat) = Seat::ALL.into_iter().find(|&seat| self.is_ai(seat) && !s.voted(seat)) else { break };
            let rule = match self.controller(seat) {
                Some(Controller::StandIn(_)) => self.surrender.stand_in,
                _ => self.surrender.ai,
            };
            let accept = rule.accepts(seat, s.proposer);
            match self.apply(seat, ActionKind::SurrenderVote { accept }) {
                Ok(more) => notices.extend(more),
                Err(_) => break,
            }
        }
        notices
    }
}
