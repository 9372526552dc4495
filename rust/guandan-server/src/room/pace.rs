//! The match's pace: the AI seats' decisions (made here, or on tokio's blocking pool and come
//! back as commands), the room's pace for them while people play, the break after a deal, and
//! the clocks. The match itself changes only through `Play`'s methods (play.rs).

use super::*;

/// The match's pace, owned by the room and changed only here: which AI answers still count,
/// when the last action was applied, when a paced AI move is due, and the break after a deal.
pub(super) struct Pace {
    /// Bumped when a seat changes hands: AI decisions asked for before are dropped.
    generation: u64,
    /// When the last action was applied (or the match started): the room's AI seats wait
    /// `--ai-pace-ms` from it.
    last_action_at: Instant,
    /// An AI decision waits for the room's pace until then.
    ai_due: Option<Instant>,
    /// The break after a deal (`--deal-break-ms`) lasts until then: no AI move, no clock.
    deal_break_until: Option<Instant>,
}

impl Pace {
    pub(super) fn new() -> Pace {
        Pace { generation: 0, last_action_at: Instant::now(), ai_due: None, deal_break_until: None }
    }

    /// When a paced AI move is due (the room wakes then).
    pub(super) fn ai_due(&self) -> Option<Instant> {
        self.ai_due
    }

    /// An action was applied at `now` (or a match started): the next AI move waits from then.
    pub(super) fn acted(&mut self, now: Instant) {
        self.last_action_at = now;
    }

    /// A deal ended with the last action: the break after it lasts `brk`.
    pub(super) fn deal_ended(&mut self, brk: std::time::Duration) {
        self.deal_break_until = Some(self.last_action_at + brk);
    }

    /// The room's timer fired at `now`: a paced AI move due by then is no longer waited for (the
    /// run loop drives the AI after it).
    pub(super) fn woke(&mut self, now: Instant) {
        if self.ai_due.is_some_and(|d| d <= now) {
            self.ai_due = None;
        }
    }

    /// Whether the break after a deal runs at `now` (it is forgotten once over).
    fn in_deal_break(&mut self, now: Instant) -> bool {
        match self.deal_break_until {
            Some(until) if until > now => true,
            Some(_) => {
                self.deal_break_until = None;
                false
            }
            None => false,
        }
    }
}

impl Room {
    pub(super) async fn ai_done(&mut self, result: AiResult) {
        if result.generation != self.pace.generation || !self.state.in_game() {
            return;
        }
        let seat = result.seat;
        // Stale results (the state moved on, the seat went back to its human) give nothing.
        let Some((before, notices)) = self.play.ai_result(result) else { return };
        if !notices.is_empty() {
            self.persist_and_announce(before, notices, seat, Instant::now()).await;
        }
    }

    /// Advances the turn and match clocks.
    pub(super) async fn tick(&mut self, elapsed: std::time::Duration) {
        if self.pace.in_deal_break(Instant::now()) {
            return; // Clocks stand still between deals.
        }
        match self.play.tick(elapsed) {
            None => {}
            Some(Ok(step)) if !step.notices.is_empty() => {
                self.persist_and_announce(step.before, step.notices, step.seat, Instant::now()).await;
                self.host_idle_seats().await;
            }
            Some(Ok(_)) => {}
            Some(Err(e)) => tracing::error!(error = %e, "clock action refused"),
        }
    }

    /// Drops the AI decisions in flight (a seat changed hands): their answers come back stale and
    /// are dropped, and the runtime stops waiting for them, so the next one is asked for anew —
    /// a dropped answer the room still waited for stopped every AI seat for good.
    pub(super) fn drop_ai_in_flight(&mut self) {
        self.pace.generation += 1;
        self.play.cancel_ai();
    }

    /// Whether a person holds a seat (connected or not): the room is paced for them.
    pub(super) fn people(&self) -> bool {
        self.seats.any_player()
    }

    /// Makes the due AI decisions: L1/L2 take microseconds and are decided right here, one
    /// after another; an L3 decision goes to tokio's blocking pool (one at a time per room) and
    /// comes back as a command.
    pub(super) async fn drive_ai(&mut self) {
        // Bounded so that a room of AI seats still lets its other commands in now and then.
        for _ in 0..64 {
            if !self.state.in_game() || self.closing {
                return;
            }
            let generation = self.pace.generation;
            // At the room's pace while people are in it (and not before a deal's break is over):
            // the next AI move waits its turn.
            let pace = self.app.cfg().ai_pace();
            let paced = (!pace.is_zero() && self.people()).then_some(self.pace.last_action_at + pace);
            if self.play.game().is_none() {
                return;
            }
            let now = Instant::now();
            if let Some(due) = paced.into_iter().chain(self.pace.deal_break_until).max().filter(|d| *d > now) {
                if self.play.ai_due() {
                    self.pace.ai_due = Some(due);
                }
                return;
            }
            let Some(request) = self.play.ai_request(generation) else { return };
            if matches!(request.profile.level, AiLevel::L3) {
                let tx = self.tx.clone();
                tokio::task::spawn_blocking(move || {
                    let result = guandan_ai::service::decide(&request, AI_HARD_LIMIT);
                    let _ = tx.blocking_send(RoomCmd::AiDone(Box::new(result)));
                });
                return;
            }
            let result = guandan_ai::service::decide(&request, AI_HARD_LIMIT);
            self.ai_done(result).await;
        }
        // More AI work is due: continue after the commands that queued up meanwhile.
        let _ = self.tx.try_send(RoomCmd::DriveAi);
    }
}
