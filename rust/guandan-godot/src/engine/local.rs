//! The local match source: a [`Runtime`] on this machine and the [`Forwarder`] that chooses its
//! viewer (the human seat, the hot-seat player who must act, or nobody: an AI-only table sees
//! every hand). The engine node adds what only it has around it: AI workers, the frame clock
//! and crash recovery.

use guandan_ai::AiProfile;
use guandan_core::card::CardSet;
use guandan_core::error::ErrorCode;
use guandan_core::event::Outcome;
use guandan_core::game::{ActionKind, Seat};
use guandan_core::view::PlayerView;
use guandan_runtime::{Controller, Notice, Runtime};

use crate::codes::Fail;
use crate::forward::{Emit, Forwarder};
use crate::source::MatchSource;

pub(crate) struct LocalMatch {
    pub rt: Runtime,
    pub fw: Forwarder,
}

impl LocalMatch {
    /// A started or resumed runtime and the signals its first notices give the viewer.
    pub fn new(rt: Runtime, notices: &[Notice]) -> (LocalMatch, Vec<Emit>) {
        let mut fw = Forwarder::new(&rt);
        let emits = fw.forward(&rt, notices);
        (LocalMatch { rt, fw }, emits)
    }

    /// What the viewer may receive of the runtime's notices.
    pub fn forward(&mut self, notices: &[Notice]) -> Vec<Emit> {
        self.fw.forward(&self.rt, notices)
    }

    /// Whether the viewer may see this seat's hand: their own; every hand on an AI-only table
    /// (omniscient) or once the match is over.
    fn may_see_hand(&self, seat: Seat) -> bool {
        self.rt.state().is_over() || self.fw.local().is_none_or(|l| l == seat)
    }
}

impl MatchSource for LocalMatch {
    fn view(&self) -> Option<PlayerView> {
        Some(self.rt.state().view(self.fw.local()))
    }

    fn local(&self) -> Option<Seat> {
        self.fw.local()
    }

    fn seen_hand(&self, seat: Seat) -> Option<CardSet> {
        self.may_see_hand(seat).then(|| self.rt.state().hand(seat))
    }

    fn outcome(&self) -> Option<Outcome> {
        self.rt.state().outcome()
    }

    fn seed(&self) -> u64 {
        self.rt.state().seed()
    }

    fn state_hash(&self) -> String {
        self.rt.state().state_hash()
    }

    fn action_count(&self) -> u64 {
        self.rt.log().actions.len() as u64
    }

    fn time_left(&self) -> Option<f64> {
        self.rt.time_left(self.fw.local()?)
    }

    fn is_human(&self, seat: Seat) -> bool {
        !self.rt.is_ai(seat)
    }

    fn is_auto_play(&self) -> bool {
        self.fw.local().is_some_and(|l| self.rt.is_ai(l))
    }

    fn act(&mut self, kind: ActionKind) -> Result<Vec<Emit>, Fail> {
        let seat = self.fw.local().ok_or_else(|| Fail::new(ErrorCode::NotHuman, "every seat is played by the AI"))?;
        let notices = self.rt.act(seat, kind)?;
        Ok(self.forward(&notices))
    }

    fn set_auto_play(&mut self, on: bool, profile: AiProfile) -> Result<Vec<Emit>, Fail> {
        let seat =
            self.fw.local().ok_or_else(|| Fail::new(ErrorCode::NotHuman, "no seat of a person at this table"))?;
        if self.rt.state().is_over() {
            return Err(Fail::new(ErrorCode::GameOver, "the match is over"));
        }
        if self.rt.is_ai(seat) == on {
            return Ok(Vec::new());
        }
        let controller = if on { Controller::StandIn(profile) } else { Controller::Human };
        let mut notices = self.rt.set_controller(seat, controller);
        if !on {
            notices.extend(self.rt.duty_notice(seat));
        }
        Ok(self.forward(&notices))
    }
}
