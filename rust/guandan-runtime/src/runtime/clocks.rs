//! The clocks: each human duty's turn clock (restarted by a new duty, given back when its
//! prompt was seen late), the match clock, timeouts and the match's time running out.

use super::*;

impl Runtime {
    /// Seconds left for `seat`'s current duty; `None` when no clock runs for it.
    pub fn time_left(&self, seat: Seat) -> Option<f64> {
        let limit = self.turn_limit(seat);
        if limit <= 0.0 || !self.human_duties().contains(&seat) {
            return None;
        }
        Some((limit - self.current_turn_clock()).max(0.0))
    }

    /// How many of `seat`'s duties in a row its human let time out (0 once it does a duty
    /// itself, or the seat changes hands): a host hands a seat that does nothing to the AI.
    pub fn timeouts_in_a_row(&self, seat: Seat) -> u32 {
        self.timeouts.get(seat.index()).copied().unwrap_or(0)
    }

    /// Advances the clocks by `elapsed`: a human duty past the turn limit times out (pass, the
    /// smallest single when leading, the forced tribute or lowest return), and a match past its
    /// maximum duration ends by time. Nothing runs when clocks are off. An error means the rules
    /// refused the timeout action (nothing was applied for that seat).
    pub fn tick(&mut self, elapsed: Duration) -> Result<Vec<Notice>, RuntimeError> {
        let dt = elapsed.as_secs_f64();
        if self.m.is_over() {
            return Ok(Vec::new());
        }
        // Time runs whether or not clocks are enforced: it is the players' thinking time.
        self.ticked = true;
        self.clock_for_now();
        self.turn_clock += dt;
        self.match_clock += dt;
        if !self.clocks {
            return Ok(Vec::new());
        }
        let minutes = self.m.rules().max_match_minutes;
        if minutes > 0 && self.match_clock >= f64::from(minutes) * 60.0 {
            return Ok(self.apply(Seat::ZERO, ActionKind::TimeUp)?);
        }
        let duties = self.human_duties();
        let Some(&first) = duties.first() else { return Ok(Vec::new()) };
        let limit = self.turn_limit(first);
        if limit <= 0.0 || self.turn_clock < limit {
            return Ok(Vec::new());
        }
        let mut notices = Vec::new();
        for seat in duties {
            if self.m.to_act().contains(&seat) {
                notices.push(Notice::everyone(self.m.seq(), Out::TimedOut { seat }));
                let think = Duration::from_secs_f64(self.current_turn_clock());
                notices.extend(self.apply_timed(seat, ActionKind::Timeout, Some(think))?);
                self.timeouts[seat.index()] += 1;
            }
        }
        Ok(notices)
    }

    /// `seat`'s player has seen the prompt of the duty at `seq` (its client drew it; drawing a
    /// whole table can take seconds): the duty's clock starts again from then, so the player has
    /// the whole limit to act, but gives back at most `max_credit` of the time that ran before —
    /// over the whole duty, however many prompts it had (a surrender proposal or vote re-prompts
    /// the seat but is the same duty) — so a client claiming to see late cannot stretch a duty
    /// further. Returns the seconds given
    /// back by this call; `None` for a `seq` that is not the current one or a seat without a
    /// human duty now (a notice that crossed an action on its way is simply late).
    pub fn prompt_seen(&mut self, seat: Seat, seq: u64, max_credit: Duration) -> Option<f64> {
        if seq != self.m.seq() || !self.human_duties().contains(&seat) {
            return None;
        }
        self.clock_for_now();
        // Several seats may owe a duty at once (tributes): the clock starts at the latest sight.
        let want = (self.turn_clock + self.seen_credit).min(max_credit.as_secs_f64());
        // Never more than the clock holds: in floating point (0.1 + 0.2) − 0.2 > 0.1, and a clock
        // below zero made the next action's think time panic (`Duration::from_secs_f64`).
        let extra = (want - self.seen_credit).clamp(0.0, self.turn_clock.max(0.0));
        self.turn_clock -= extra;
        self.seen_credit += extra;
        Some(extra)
    }

    /// The clock runs for the current duty: a new duty starts at 0. Surrender proposals and
    /// votes change no duty and leave its clock (and what `seen` gave back of it) as it was.
    pub(super) fn clock_for_now(&mut self) {
        if self.clock_seq != self.duty_seq {
            self.clock_seq = self.duty_seq;
            self.turn_clock = 0.0;
            self.seen_credit = 0.0;
        }
    }

    /// Seconds since the current duty began (0 after an action the host has not ticked past).
    pub(super) fn current_turn_clock(&self) -> f64 {
        if self.clock_seq == self.duty_seq { self.turn_clock.max(0.0) } else { 0.0 }
    }

    pub(super) fn turn_limit(&self, seat: Seat) -> f64 {
        if !self.clocks || self.is_ai(seat) { 0.0 } else { f64::from(self.m.rules().turn_time_limit_s) }
    }
}
