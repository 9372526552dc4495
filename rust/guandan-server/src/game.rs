//! One room's match: a `guandan_runtime::Runtime` (rules, log, controllers, AI requests, clocks)
//! and the translation of its notices into what each recipient may receive. Filtering is the
//! runtime's own (`for_viewer`); this file only groups notices into wire messages and rebuilds
//! catch-up streams from the log.

use guandan_core::game::{ActionKind, Match, Seat};
use guandan_core::log::{LogError, MatchLog};
use guandan_proto::ServerMsg;
use guandan_runtime::{Controller, Notice, Out, Runtime, RuntimeConfig, RuntimeError, Viewer, for_viewer};

pub struct Game {
    rt: Runtime,
}

impl Game {
    /// A new match. The database holds its record: the runtime keeps only the actions not
    /// stored yet ([`Game::take_unsaved`]); history is read back with [`Game::record`].
    pub fn start(cfg: RuntimeConfig) -> Result<(Game, Vec<Notice>), RuntimeError> {
        let (mut rt, notices) = Runtime::start(cfg)?;
        rt.keep_whole_record(false);
        Ok((Game { rt }, notices))
    }

    /// Rebuilds a match from its stored log (restart, restore); the log is verified on the way.
    /// The whole record stays in memory until [`Game::forget_record`] (a restored room reads
    /// its round points from it first).
    pub fn resume(log: MatchLog, seats: [Controller; 4], clocks: bool) -> Result<Game, LogError> {
        let (rt, _) = Runtime::resume(log, seats, clocks)?;
        Ok(Game { rt })
    }

    /// From now on the runtime keeps only actions not stored yet.
    pub fn forget_record(&mut self) {
        self.rt.keep_whole_record(false);
    }

    /// The actions applied since the last call, as `(seq, seat, line)` with the line in the
    /// replay format (thinking time included): what the room stores before it announces them.
    pub fn take_unsaved(&mut self) -> Vec<(u64, Seat, String)> {
        self.rt.take_unsaved().into_iter().map(|(a, ms)| (a.seq, a.seat, MatchLog::action_line(&a, ms))).collect()
    }

    /// The whole record from the stored action lines (`lines`, in order, from the database):
    /// this match's header and checkpoints around them. Refused unless the lines are every
    /// action applied so far.
    pub fn record(&self, lines: &[String]) -> Result<MatchLog, LogError> {
        let kept = self.rt.log();
        let mut text = serde_json::to_string(&kept.header).unwrap_or_default();
        for l in lines {
            text.push('\n');
            text.push_str(l);
        }
        let mut log = MatchLog::parse(&text)?;
        if log.actions.len() as u64 != self.action_seq() {
            return Err(LogError::Malformed {
                line: lines.len() + 1,
                message: format!("{} stored actions, {} applied", log.actions.len(), self.action_seq()),
            });
        }
        log.checkpoints = kept.checkpoints.clone();
        Ok(log)
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

    /// Number of applied actions (= the `seq` the next action carries).
    pub fn action_seq(&self) -> u64 {
        self.rt.state().seq()
    }

    pub fn act(&mut self, seat: Seat, kind: ActionKind) -> Result<Vec<Notice>, RuntimeError> {
        self.rt.act(seat, kind)
    }

    /// The open surrender vote as a notice (no action) for a seat that has not voted yet: a
    /// full state does not carry the vote, so a player back by a full state (a reconnect, a
    /// resync) would otherwise never be asked. The proposal and the votes cast so far.
    pub fn open_vote_msg(&self, seat: Seat) -> Option<ServerMsg> {
        let s = self.rt.state().surrender()?;
        if s.voted(seat) {
            return None;
        }
        let mut events = vec![Out::SurrenderProposed { seat: s.proposer }];
        for voter in Seat::ALL.into_iter().filter(|&v| v != s.proposer && s.voted(v)) {
            events.push(Out::SurrenderVoted { seat: voter, accept: s.accepted & voter.bit() != 0 });
        }
        Some(ServerMsg::Applied {
            action_seq: self.action_seq(),
            actions: 0,
            state_hash: self.state().state_hash(),
            seat: s.proposer,
            events,
            prompt: None,
        })
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
    /// record (see [`Game::record`]) by the runtime itself; `None` when `since` is not a point
    /// of this match.
    pub fn catch_up(log: &MatchLog, since: u64, v: Viewer) -> Option<Vec<ServerMsg>> {
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

    /// [`Game::state_msg`] with the current state hash computed once by the caller.
    pub fn state_msg_hashed(&self, v: Viewer, state_hash: &str) -> ServerMsg {
        let m = self.rt.state();
        ServerMsg::State {
            action_seq: m.seq(),
            state_hash: state_hash.into(),
            view: self.rt.view(v),
            outcome: m.outcome(),
            time_left_s: own_time_left(&self.rt, v),
        }
    }
}

/// A match's state as a spectator (`v`: no hand, or one team's) sees it: the runtime's view.
pub fn spectator_state(m: &Match, v: Viewer) -> ServerMsg {
    ServerMsg::State {
        action_seq: m.seq(),
        state_hash: m.state_hash(),
        view: v.view(m),
        outcome: m.outcome(),
        time_left_s: None,
    }
}

/// Whether a replayed action's events end a round (as [`ends_round`] says of notices).
pub fn event_ends_round(events: &[guandan_core::game::Event]) -> bool {
    events.iter().any(|e| {
        matches!(e, guandan_core::game::Event::TableCleared { .. } | guandan_core::game::Event::DealStarted { .. })
    })
}

pub fn state_msg(rt: &Runtime, v: Viewer) -> ServerMsg {
    let m = rt.state();
    ServerMsg::State {
        action_seq: m.seq(),
        state_hash: m.state_hash(),
        view: rt.view(v),
        outcome: m.outcome(),
        time_left_s: own_time_left(rt, v),
    }
}

/// Seconds left on a seat's own duty, when a clock runs for it (a spectator has none).
fn own_time_left(rt: &Runtime, v: Viewer) -> Option<f64> {
    v.seat().and_then(|s| rt.time_left(s))
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
    let mine = v.seat();
    ServerMsg::Applied {
        action_seq: m.seq(),
        actions,
        state_hash,
        seat,
        events: for_viewer(notices, v),
        prompt: match mine {
            Some(s) if prompt && m.to_act().contains(&s) => Some(m.light_view(s)),
            _ => None,
        },
    }
}

/// Whether a message asks its recipient to act now (an `applied` with a prompt, or a full
/// state whose seat is to act).
pub fn is_prompt(msg: &ServerMsg) -> bool {
    match msg {
        ServerMsg::Applied { prompt, .. } => prompt.is_some(),
        ServerMsg::State { view, .. } => view.seat.is_some_and(|s| view.to_act.contains(&s)),
        _ => false,
    }
}

/// Whether these notices end a deal (and not the match): the room's deal break follows.
pub fn ends_deal(notices: &[Notice]) -> bool {
    notices.iter().any(|n| matches!(n.out, Out::DealEnded { .. }))
        && !notices.iter().any(|n| matches!(n.out, Out::MatchEnded { .. }))
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
    fn catch_up_rebuilds_every_missed_action_from_the_stored_lines() {
        let cfg = RuntimeConfig { seed: 5, rules: RuleConfig::competition(), seats: humans(), clocks: false };
        let (mut g, _) = Game::start(cfg).unwrap();
        let mut live = Vec::new();
        let mut stored = Vec::new();
        for _ in 0..40 {
            let m = g.state();
            let seat = m.to_act()[0];
            let kind = guandan_ai::l1::l1_decision(&m.view(Some(seat))).action;
            let notices = g.act(seat, kind).unwrap();
            stored.extend(g.take_unsaved().into_iter().map(|(_, _, line)| line));
            live.push(g.applied_msg(&notices, 1, seat, Viewer::Seat(Seat::TWO), false));
        }
        assert!(g.rt_ref().log().actions.is_empty(), "stored actions are not kept in memory");
        assert_eq!(stored.len(), 40);
        let log = g.record(&stored).expect("the stored lines are the record");
        assert_eq!(log.replay().unwrap().state_hash(), g.state().state_hash());
        let missed = Game::catch_up(&log, 10, Viewer::Seat(Seat::TWO)).expect("catch-up");
        assert_eq!(missed.len(), 30);
        assert_eq!(&missed[..29], &live[10..39], "same messages as sent live");
        assert!(Game::catch_up(&log, 41, Viewer::Seat(Seat::TWO)).is_none());
        assert_eq!(Game::catch_up(&log, 40, Viewer::Seat(Seat::TWO)).map(|v| v.len()), Some(0));
        // A record missing a stored action is refused, never replayed short.
        assert!(g.record(&stored[..39]).is_err());
        // A stored line with a thinking time still reads as a plain action (restore reads them so).
        let timed = MatchLog::action_line(&log.actions[0], Some(1200));
        assert!(timed.contains("\"ms\":1200"));
        assert_eq!(serde_json::from_str::<guandan_core::game::Action>(&timed).unwrap(), log.actions[0]);
    }
}
