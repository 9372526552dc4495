//! One room's match: a `guandan_runtime::Runtime` (rules, log, controllers, AI requests, clocks)
//! and the translation of its notices into what each recipient may receive. Filtering is the
//! runtime's own (`for_viewer`); this file only groups notices into wire messages and rebuilds
//! catch-up streams from the log.

use guandan_core::game::{ActionKind, Match, Seat};
use guandan_core::log::{LogError, MatchLog};
use guandan_proto::{ServerMsg, TableView, WireOut};
use guandan_runtime::{Controller, Notice, Out, Runtime, RuntimeConfig, RuntimeError, Viewer, for_viewer};

pub struct Game {
    rt: Runtime,
}

impl Game {
    pub fn start(cfg: RuntimeConfig) -> Result<(Game, Vec<Notice>), RuntimeError> {
        let (rt, notices) = Runtime::start(cfg)?;
        Ok((Game { rt }, notices))
    }

    /// Rebuilds a match from its stored log (restart, restore); the log is verified on the way.
    pub fn resume(log: MatchLog, seats: [Controller; 4], clocks: bool) -> Result<Game, LogError> {
        let (rt, _) = Runtime::resume(log, seats, clocks)?;
        Ok(Game { rt })
    }

    pub fn rt(&mut self) -> &mut Runtime {
        &mut self.rt
    }

    pub fn rt_ref(&self) -> &Runtime {
        &self.rt
    }

    pub fn state(&self) -> &Match {
        self.rt.state()
    }

    pub fn log(&self) -> &MatchLog {
        self.rt.log()
    }

    /// Number of applied actions (= the `seq` the next action carries).
    pub fn action_seq(&self) -> u64 {
        self.rt.state().seq()
    }

    pub fn act(&mut self, seat: Seat, kind: ActionKind) -> Result<Vec<Notice>, RuntimeError> {
        self.rt.act(seat, kind)
    }

    /// The full state this viewer may see.
    pub fn state_msg(&self, v: Viewer) -> ServerMsg {
        state_msg(&self.rt, v)
    }

    /// The message for `v` about `actions` applied actions (or 0: a notice alone) and their
    /// notices. `prompt`: the recipient is a human who must act now.
    pub fn applied_msg(&self, notices: &[Notice], actions: u32, seat: Seat, v: Viewer, prompt: bool) -> ServerMsg {
        applied_msg(&self.rt, notices, actions, seat, v, prompt, self.state().state_hash())
    }

    /// [`Game::applied_msg`] with the current state hash computed once by the caller: hashing
    /// serializes the whole match, and every recipient of one step gets the same hash.
    #[allow(clippy::too_many_arguments)]
    pub fn applied_msg_hashed(
        &self,
        notices: &[Notice],
        actions: u32,
        seat: Seat,
        v: Viewer,
        prompt: bool,
        state_hash: &str,
    ) -> ServerMsg {
        applied_msg(&self.rt, notices, actions, seat, v, prompt, state_hash.to_string())
    }

    /// The messages `v` missed after `since` actions (catch-up on reconnect), rebuilt from the
    /// log by the runtime itself; `None` when `since` is not a point of this match.
    pub fn catch_up(&self, since: u64, v: Viewer) -> Option<Vec<ServerMsg>> {
        let log = self.rt.log();
        let total = log.actions.len() as u64;
        if since > total {
            return None;
        }
        let mut past = log.clone();
        past.actions.truncate(since as usize);
        past.checkpoints.retain(|c| c.checkpoint <= since);
        let humans = || std::array::from_fn(|_| Controller::Human);
        let (mut rt, _) = Runtime::resume(past, humans(), false).ok()?;
        let mut out = Vec::new();
        for (i, a) in log.actions[since as usize..].iter().enumerate() {
            let notices = rt.act(a.seat, a.kind.clone()).ok()?;
            let last = since + i as u64 + 1 == total;
            out.push(applied_msg(&rt, &notices, 1, a.seat, v, last, rt.state().state_hash()));
        }
        Some(out)
    }

    /// The state after the first `n` actions as a spectator sees it (delayed spectating).
    pub fn spectator_state_at(&self, n: u64) -> Option<ServerMsg> {
        let m = self.rt.log().replay_to(n as usize).ok()?;
        let view = m.view(None);
        Some(ServerMsg::State { action_seq: m.seq(), state_hash: m.state_hash(), view: TableView::from(&view) })
    }
}

pub fn state_msg(rt: &Runtime, v: Viewer) -> ServerMsg {
    let m = rt.state();
    ServerMsg::State { action_seq: m.seq(), state_hash: m.state_hash(), view: TableView::from(&rt.view(v)) }
}

fn applied_msg(
    rt: &Runtime,
    notices: &[Notice],
    actions: u32,
    seat: Seat,
    v: Viewer,
    prompt: bool,
    state_hash: String,
) -> ServerMsg {
    let m = rt.state();
    let mine = match v {
        Viewer::Seat(s) => Some(s),
        Viewer::Spectator | Viewer::Omniscient => None,
    };
    ServerMsg::Applied {
        action_seq: m.seq(),
        actions,
        state_hash,
        seat,
        events: for_viewer(notices, v).iter().map(WireOut::from).collect(),
        prompt: match mine {
            Some(s) if prompt && m.to_act().contains(&s) => Some(TableView::from(&m.light_view(s))),
            _ => None,
        },
    }
}

/// Whether these notices end a round for delayed spectating (table cleared or a new deal).
pub fn ends_round(notices: &[Notice]) -> bool {
    notices.iter().any(|n| matches!(n.out, Out::TableCleared { .. } | Out::DealStarted { .. }))
}

#[cfg(test)]
mod tests {
    use super::*;
    use guandan_core::rules::RuleConfig;

    fn humans() -> [Controller; 4] {
        std::array::from_fn(|_| Controller::Human)
    }

    #[test]
    fn catch_up_rebuilds_every_missed_action_from_the_log() {
        let cfg = RuntimeConfig { seed: 5, rules: RuleConfig::competition(), seats: humans(), clocks: false };
        let (mut g, _) = Game::start(cfg).unwrap();
        let mut live = Vec::new();
        for _ in 0..40 {
            let m = g.state();
            let seat = m.to_act()[0];
            let kind = guandan_ai::l1::l1_decision(&m.view(Some(seat))).action;
            let notices = g.act(seat, kind).unwrap();
            live.push(g.applied_msg(&notices, 1, seat, Viewer::Seat(2), false));
        }
        let missed = g.catch_up(10, Viewer::Seat(2)).expect("catch-up");
        assert_eq!(missed.len(), 30);
        assert_eq!(&missed[..29], &live[10..39], "same messages as sent live");
        assert!(g.catch_up(41, Viewer::Seat(2)).is_none());
        assert_eq!(g.catch_up(40, Viewer::Seat(2)).map(|v| v.len()), Some(0));
    }
}
