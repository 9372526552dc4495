//! The match runtime: the rules state and its log, who controls each seat, the AI driver
//! (requests, generations, stale results dropped, fallbacks) and the clocks.
//!
//! This file holds the `Runtime` (starting, resuming, reading, acting, the record); its other
//! jobs have their own files: [`controller`] (who plays a seat, the surrender policy), [`ai`]
//! (the AI driver), [`clocks`] (turn and match clocks, timeouts) and [`announce`] (events as
//! notices for their audiences, the whole position).

mod ai;
mod announce;
mod clocks;
mod controller;

use ai::PendingAi;
pub use ai::decision_seed;
pub use controller::{AiVote, Controller, SurrenderPolicy};

use crate::notice::{Audience, Notice, Out, Viewer};
use guandan_ai::agent::MAX_AI_DECISION_MS;
use guandan_ai::service::{AiRequest, AiResult};
use guandan_core::card::CardSet;
use guandan_core::error::ErrorCode;
use guandan_core::game::{Action, ActionKind, Event, Match, Phase, RuleError, Seat, Team};
use guandan_core::log::{LogError, MatchLog, MatchMeta, PlayerMeta};
use guandan_core::rules::RuleConfig;
use guandan_core::view::PlayerView;
use std::time::Duration;

/// How to start a match.
#[derive(Clone, Debug)]
pub struct RuntimeConfig {
    pub seed: u64,
    pub rules: RuleConfig,
    pub seats: [Controller; 4],
    /// Enforce the rules' turn and match clocks in [`Runtime::tick`] (off for deterministic
    /// tests and replays).
    pub clocks: bool,
}

/// Why a host's call was refused. The match is unchanged.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum RuntimeError {
    #[error(transparent)]
    Rule(#[from] RuleError),
    #[error("seat {0} is played by the AI")]
    NotHuman(Seat),
    #[error("your team has made its {0} surrender proposal(s) of this deal")]
    ProposalLimit(u8),
}

impl RuntimeError {
    pub fn code(&self) -> ErrorCode {
        match self {
            RuntimeError::Rule(e) => e.code(),
            RuntimeError::NotHuman(_) => ErrorCode::NotHuman,
            RuntimeError::ProposalLimit(_) => ErrorCode::SurrenderRefused,
        }
    }
}

/// A running match and everything around it that every front end needs.
pub struct Runtime {
    m: Match,
    log: MatchLog,
    seats: [Controller; 4],
    clocks: bool,
    ai_hard_limit: Duration,
    /// The hand each seat was last told it holds.
    reported: [CardSet; 4],
    pending: Option<PendingAi>,
    /// Seconds the current duty has run, for the duty that began at `clock_seq`.
    turn_clock: f64,
    clock_seq: u64,
    /// The `seq` at which the current duty began: the last action that was not a surrender
    /// proposal or vote (those change no duty, so they do not restart its clock).
    duty_seq: u64,
    /// Seconds of the current duty given back because its player saw the prompt late
    /// ([`Runtime::prompt_seen`]); `turn_clock` + this is the time since the duty began.
    seen_credit: f64,
    /// Each seat's duties timed out in a row (a duty of its own done by its human breaks it).
    timeouts: [u32; 4],
    surrender: SurrenderPolicy,
    /// Surrender proposals each team made in deal `proposals_deal`.
    proposals: [u8; 2],
    proposals_deal: u32,
    match_clock: f64,
    /// The host feeds time ([`Runtime::tick`]): human actions are recorded with their thinking time.
    ticked: bool,
    /// Whether `log` keeps every action, or only those not yet handed out by
    /// [`Runtime::take_unsaved`] (a server's database holds the rest).
    whole_record: bool,
    /// Actions handed out by [`Runtime::take_unsaved`], and how many of them left `log`.
    taken: usize,
    dropped: usize,
}

impl Runtime {
    /// A new match; the notices announce it (match start, deal start, hands, first duty).
    pub fn start(cfg: RuntimeConfig) -> Result<(Runtime, Vec<Notice>), RuleError> {
        let (m, events) = Match::new(cfg.seed, cfg.rules.clone())?;
        let mut log = MatchLog::new(cfg.seed, cfg.rules);
        log.header.meta = Some(MatchMeta {
            players: std::array::from_fn(|s| PlayerMeta {
                name: String::new(),
                ai: match &cfg.seats[s] {
                    Controller::Ai(p) => Some(format!("{:?}", p.level)),
                    Controller::Human | Controller::StandIn(_) => None,
                },
            }),
            mode: String::new(),
        });
        let mut rt = Runtime::around(m, log, cfg.seats, cfg.clocks);
        let mut notices = vec![Notice::everyone(0, Out::MatchStarted { seed: cfg.seed })];
        notices.extend(rt.translate(&events));
        Ok((rt, notices))
    }

    /// A match restored from its record (verified from scratch), going on from its last action.
    /// The notices announce the position whole: the deal, every hand (to its seat), and the duty
    /// in progress — tribute, return (with the tributes already routed) or the turn.
    pub fn resume(log: MatchLog, seats: [Controller; 4], clocks: bool) -> Result<(Runtime, Vec<Notice>), LogError> {
        // The proposals made in each deal, counted again (the host's limit holds across a resume).
        let mut proposed: Vec<(u32, Seat)> = Vec::new();
        let m = log.replay_with(|_, a, _, m| {
            if matches!(a.kind, ActionKind::ProposeSurrender) {
                proposed.push((m.deal_no(), a.seat));
            }
        })?;
        let mut rt = Runtime::around(m, log, seats, clocks);
        rt.proposals_deal = rt.m.deal_no();
        for (_, seat) in proposed.iter().filter(|(deal, _)| *deal == rt.proposals_deal) {
            rt.proposals[Team::of(*seat).index()] += 1;
        }
        // A record it was resumed from is saved already.
        rt.taken = rt.log.actions.len();
        let notices = rt.announce_position();
        Ok((rt, notices))
    }

    /// A match restored from its record like [`Runtime::resume`], announced by its current deal
    /// as it was played: the match start, then every notice the deal's actions gave the first
    /// time, each with its audience — the deal's start and hands, the tribute and return, each
    /// play and pass, tables cleared, places — ending with the duty in progress (turn limits as
    /// the resumed match has them). A host that draws these at once shows the deal exactly as it
    /// was left (the Godot table on Continue), not only the position.
    pub fn resume_replaying_deal(
        log: MatchLog,
        seats: [Controller; 4],
        clocks: bool,
    ) -> Result<(Runtime, Vec<Notice>), LogError> {
        // The current deal began with the events of the last action that started a deal (none:
        // the match's first deal, announced by the match's start).
        let mut deal_from = None;
        log.replay_with(|i, _, events, _| {
            if events.iter().any(|e| matches!(e, Event::DealStarted { .. })) {
                deal_from = Some(i);
            }
        })?;
        // Replayed by human seats without clocks: the notices the actions gave, whoever acted.
        let humans = || std::array::from_fn(|_| Controller::Human);
        let (mut scratch, mut notices) = Runtime::resume(log.truncated(deal_from.unwrap_or(0)), humans(), false)?;
        let act = |rt: &mut Runtime, i: usize| {
            let a = &log.actions[i];
            rt.act(a.seat, a.kind.clone()).map_err(|e| match e {
                RuntimeError::Rule(error) => LogError::Rejected { index: i, error },
                other => LogError::Malformed { line: i + 2, message: other.to_string() },
            })
        };
        if let Some(i) = deal_from {
            let mut first = act(&mut scratch, i)?;
            let start = first.iter().position(|n| matches!(n.out, Out::DealStarted { .. })).unwrap_or(0);
            notices = vec![Notice::everyone(scratch.m.seq(), Out::MatchStarted { seed: scratch.m.seed() })];
            notices.extend(first.drain(start..));
        }
        for i in deal_from.map_or(0, |i| i + 1)..log.actions.len() {
            notices.extend(act(&mut scratch, i)?);
        }
        let (rt, _) = Runtime::resume(log, seats, clocks)?;
        for n in &mut notices {
            if let Out::TurnStarted { seat, time_limit_s, .. } = &mut n.out {
                *time_limit_s = rt.turn_limit(*seat);
            }
        }
        Ok((rt, notices))
    }

    fn around(m: Match, mut log: MatchLog, seats: [Controller; 4], clocks: bool) -> Runtime {
        // One thinking time per action (a record read back without them has none).
        log.think_ms.resize(log.actions.len(), None);
        let (duty_seq, proposals_deal) = (m.seq(), m.deal_no());
        Runtime {
            m,
            log,
            seats,
            clocks,
            ai_hard_limit: Duration::from_millis(MAX_AI_DECISION_MS),
            reported: [CardSet::EMPTY; 4],
            pending: None,
            turn_clock: 0.0,
            clock_seq: 0,
            duty_seq,
            seen_credit: 0.0,
            timeouts: [0; 4],
            surrender: SurrenderPolicy::OFFLINE,
            proposals: [0; 2],
            proposals_deal,
            match_clock: 0.0,
            ticked: false,
            whole_record: true,
            taken: 0,
            dropped: 0,
        }
    }

    // ----- reading -----

    pub fn state(&self) -> &Match {
        &self.m
    }

    /// The record of every applied action (an action is in it before its notices are returned).
    /// After [`Runtime::keep_whole_record`]`(false)` its `actions` (and `think_ms`) hold only the
    /// actions not yet taken by [`Runtime::take_unsaved`]; header and checkpoints stay whole.
    pub fn log(&self) -> &MatchLog {
        &self.log
    }

    /// A host that stores every action elsewhere (the server's database) lets the runtime keep
    /// only what it has not taken yet: a match's record would otherwise grow by ~100 bytes an
    /// action in every room. Turning it off forgets the actions already taken.
    pub fn keep_whole_record(&mut self, whole: bool) {
        self.whole_record = whole;
        self.forget_taken();
    }

    /// The actions applied since the last call (with their thinking time in ms, when measured),
    /// in order: what a host must store before it announces them.
    pub fn take_unsaved(&mut self) -> Vec<(Action, Option<u32>)> {
        let from = self.taken - self.dropped;
        // A record read back without thinking times has fewer `think_ms` than actions.
        let out: Vec<_> = (from..self.log.actions.len())
            .map(|i| (self.log.actions[i].clone(), self.log.think_ms.get(i).copied().flatten()))
            .collect();
        self.taken += out.len();
        self.forget_taken();
        out
    }

    fn forget_taken(&mut self) {
        if !self.whole_record {
            let n = (self.taken - self.dropped).min(self.log.actions.len());
            self.log.actions.drain(..n);
            self.log.think_ms.drain(..n.min(self.log.think_ms.len()));
            self.dropped += n;
        }
    }

    /// What `viewer` may know now (an omniscient viewer gets the spectator's view; it reads
    /// hands from [`Runtime::state`]).
    pub fn view(&self, viewer: Viewer) -> PlayerView {
        viewer.view(&self.m)
    }

    pub fn controller(&self, seat: Seat) -> Option<&Controller> {
        self.seats.get(seat.index())
    }

    pub fn is_ai(&self, seat: Seat) -> bool {
        self.controller(seat).is_some_and(Controller::is_ai)
    }

    /// Human seats that must act now (tribute and return may ask two at once).
    pub fn human_duties(&self) -> Vec<Seat> {
        self.m.to_act().into_iter().filter(|&s| !self.is_ai(s)).collect()
    }

    /// Names the players and the mode in the record (for statistics and record lists); the
    /// rules never read it. `start` fills in each seat's AI level.
    pub fn set_meta(&mut self, meta: MatchMeta) {
        self.log.header.meta = Some(meta);
    }

    /// How AI seats vote on a surrender and how often a team may propose (offline's until set).
    pub fn set_surrender_policy(&mut self, policy: SurrenderPolicy) {
        self.surrender = policy;
    }

    pub fn surrender_policy(&self) -> SurrenderPolicy {
        self.surrender
    }

    // ----- acting -----

    /// A human seat's action. Refused (state and log unchanged) for an AI-controlled seat, an
    /// illegal action, or a surrender proposal past the policy's limit for the deal. AI seats
    /// then vote on an open surrender at once (as the [`SurrenderPolicy`] says).
    pub fn act(&mut self, seat: Seat, kind: ActionKind) -> Result<Vec<Notice>, RuntimeError> {
        if self.is_ai(seat) {
            return Err(RuntimeError::NotHuman(seat));
        }
        let proposal = matches!(kind, ActionKind::ProposeSurrender);
        let limit = self.surrender.proposals_per_deal;
        if proposal && limit > 0 && self.proposals_made(seat) >= limit {
            return Err(RuntimeError::ProposalLimit(limit));
        }
        let duty = !is_vote(&kind);
        let think = self.ticked.then(|| Duration::from_secs_f64(self.current_turn_clock()));
        let notices = self.apply_timed(seat, kind, think)?;
        if proposal {
            self.proposals[Team::of(seat).index()] += 1;
        }
        if duty {
            self.timeouts[seat.index()] = 0;
        }
        Ok(notices)
    }

    /// Proposals `seat`'s team made in the current deal.
    fn proposals_made(&mut self, seat: Seat) -> u8 {
        if self.proposals_deal != self.m.deal_no() {
            self.proposals_deal = self.m.deal_no();
            self.proposals = [0; 2];
        }
        self.proposals[Team::of(seat).index()]
    }

    /// Hands a seat to the AI or back to its human (auto-play, hosting). A decision in flight
    /// for that seat is dropped when it arrives.
    pub fn set_controller(&mut self, seat: Seat, controller: Controller) -> Vec<Notice> {
        let Some(slot) = self.seats.get_mut(seat.index()) else { return Vec::new() };
        let was_ai = slot.is_ai();
        *slot = controller;
        let ai = slot.is_ai();
        self.timeouts[seat.index()] = 0;
        if self.pending.is_some_and(|p| p.seat == seat) {
            self.pending = None;
        }
        let mut notices = Vec::new();
        if was_ai != ai {
            notices.push(Notice::everyone(self.m.seq(), Out::ControllerChanged { seat, ai }));
        }
        notices.extend(self.ai_votes());
        notices
    }

    // ----- internals -----

    fn apply(&mut self, seat: Seat, kind: ActionKind) -> Result<Vec<Notice>, RuleError> {
        self.apply_timed(seat, kind, None)
    }

    /// Applies and records an action (with the time the player took, when known), then lets AI
    /// seats vote on an open surrender.
    fn apply_timed(&mut self, seat: Seat, kind: ActionKind, think: Option<Duration>) -> Result<Vec<Notice>, RuleError> {
        let vote = match kind {
            ActionKind::SurrenderVote { accept } => Some(accept),
            _ => None,
        };
        let duty = !is_vote(&kind);
        let action = self.m.action(seat, kind);
        let events = self.m.apply(&action)?;
        self.log.record_timed(&action, &events, &self.m, think);
        if duty {
            self.duty_seq = self.m.seq();
        }
        if self.pending.is_some_and(|p| p.seq != self.m.seq()) {
            self.pending = None;
        }
        let mut notices = Vec::new();
        // The rules announce a refusal only when it closes the vote; one that leaves it open (an
        // opponent, when one opponent's acceptance suffices) is announced here like an acceptance.
        let closed = events.iter().any(|e| matches!(e, Event::SurrenderRejected { .. }));
        if let Some(accept) = vote.filter(|&a| a || !closed) {
            notices.push(Notice::everyone(self.m.seq(), Out::SurrenderVoted { seat, accept }));
        }
        notices.extend(self.translate(&events));
        notices.extend(self.ai_votes());
        Ok(notices)
    }
}

/// A surrender proposal or vote: made beside the duty, it changes no one's duty.
fn is_vote(kind: &ActionKind) -> bool {
    matches!(kind, ActionKind::ProposeSurrender | ActionKind::SurrenderVote { .. })
}
