//! One room's match: the rules state and its action log, and what each recipient may receive.
//! A thin host over the sealed rules core — every rule decision is `Match::play`; this file only
//! keeps the log, filters events per recipient and rebuilds catch-up streams from the log.
//! (`guandan_runtime::Runtime` replaces the state/log pair here once it lands on main.)

use guandan_core::game::{Action, ActionKind, Event, Match, Phase, RuleError, Seat};
use guandan_core::log::{LogError, MatchLog};
use guandan_core::rules::RuleConfig;
use guandan_core::view::PlayerView;
use guandan_proto::{ServerMsg, TableView, WireEvent};

/// Who receives a message: a seat or a spectator.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Viewer {
    Seat(Seat),
    Spectator,
}

impl Viewer {
    fn seat(self) -> Option<Seat> {
        match self {
            Viewer::Seat(s) => Some(s),
            Viewer::Spectator => None,
        }
    }
}

pub struct Game {
    m: Match,
    log: MatchLog,
}

/// One applied action with everything it announced.
pub struct Applied {
    pub action: Action,
    pub events: Vec<Event>,
    pub next: Match,
}

impl Game {
    pub fn start(seed: u64, rules: RuleConfig) -> Result<(Game, Vec<Event>), RuleError> {
        let (m, events) = Match::new(seed, rules.clone())?;
        Ok((Game { m, log: MatchLog::new(seed, rules) }, events))
    }

    /// Rebuilds a match from its stored log (restart, restore).
    pub fn resume(log: MatchLog) -> Result<Game, LogError> {
        let m = log.replay()?;
        Ok(Game { m, log })
    }

    pub fn state(&self) -> &Match {
        &self.m
    }

    pub fn log(&self) -> &MatchLog {
        &self.log
    }

    /// Number of applied actions (= the `seq` the next action carries).
    pub fn action_seq(&self) -> u64 {
        self.m.seq
    }

    pub fn over(&self) -> bool {
        self.m.phase == Phase::MatchOver
    }

    /// Validates `kind` for `seat` on a copy: the room persists the action, then [`commit`]s.
    /// The state is unchanged on error.
    pub fn try_act(&self, seat: Seat, kind: ActionKind) -> Result<Applied, RuleError> {
        let action = self.m.action(seat, kind);
        let mut next = self.m.clone();
        let events = next.apply(&action)?;
        Ok(Applied { action, events, next })
    }

    pub fn commit(&mut self, applied: &Applied) {
        self.log.record(&applied.action, &applied.events, &applied.next);
        self.m = applied.next.clone();
    }

    /// The full state this viewer may see.
    pub fn state_msg(&self, v: Viewer) -> ServerMsg {
        state_msg(&self.m, v)
    }

    /// What `v` receives for one applied action. `prompt`: the recipient must act now.
    pub fn applied_msg(m: &Match, action: &Action, events: &[Event], v: Viewer, prompt: bool) -> ServerMsg {
        let seat = v.seat();
        ServerMsg::Applied {
            action_seq: m.seq,
            state_hash: m.state_hash(),
            seat: action.seat,
            events: events.iter().filter(|e| e.visible_to(seat)).map(WireEvent::from).collect(),
            prompt: match seat {
                Some(s) if prompt && m.to_act().contains(&s) => Some(TableView::from(&m.light_view(s))),
                _ => None,
            },
        }
    }

    /// The messages `v` missed after `since` actions (catch-up on reconnect); `None` when `since`
    /// is not a point of this match (the caller sends the full state instead).
    pub fn catch_up(&self, since: u64, v: Viewer) -> Option<Vec<ServerMsg>> {
        let total = self.log.actions.len() as u64;
        if since > total {
            return None;
        }
        let mut m = self.log.replay_to(since as usize).ok()?;
        let mut out = Vec::new();
        for (i, a) in self.log.actions[since as usize..].iter().enumerate() {
            let events = m.apply(a).ok()?;
            let last = since + i as u64 + 1 == total;
            out.push(Self::applied_msg(&m, a, &events, v, last));
        }
        Some(out)
    }

    /// The state after the first `n` actions as a spectator sees it (delayed spectating).
    pub fn spectator_state_at(&self, n: u64) -> Option<ServerMsg> {
        let m = self.log.replay_to(n as usize).ok()?;
        Some(state_msg(&m, Viewer::Spectator))
    }
}

pub fn state_msg(m: &Match, v: Viewer) -> ServerMsg {
    let view: PlayerView = m.view(v.seat());
    ServerMsg::State { action_seq: m.seq, state_hash: m.state_hash(), view: TableView::from(&view) }
}

/// Whether these events end a round for delayed spectating (table cleared or a new deal).
pub fn ends_round(events: &[Event]) -> bool {
    events.iter().any(|e| matches!(e, Event::TableCleared { .. } | Event::DealStarted { .. }))
}

/// Whether a recipient's hand changed through others (a new deal): it then gets its full state.
pub fn deal_started(events: &[Event]) -> bool {
    events.iter().any(|e| matches!(e, Event::DealStarted { .. }))
}
