//! The match runtime: the rules state and its log, who controls each seat, the AI driver
//! (requests, generations, stale results dropped, fallbacks) and the clocks.

use crate::notice::{Audience, Notice, Out, Viewer};
use guandan_ai::AiProfile;
use guandan_ai::agent::MAX_AI_DECISION_MS;
use guandan_ai::service::{AiRequest, AiResult};
use guandan_core::card::CardSet;
use guandan_core::error::ErrorCode;
use guandan_core::game::{Action, ActionKind, Event, Match, Phase, RuleError, Seat, Team};
use guandan_core::log::{LogError, MatchLog, MatchMeta, PlayerMeta};
use guandan_core::rules::RuleConfig;
use guandan_core::view::PlayerView;
use std::time::Duration;

/// Who plays a seat.
#[derive(Clone, Debug, PartialEq)]
pub enum Controller {
    Human,
    Ai(AiProfile),
    /// The AI plays a human's seat while they are away or on auto-play (托管). It plays like
    /// [`Controller::Ai`] but votes on a surrender as [`SurrenderPolicy::stand_in`] says (by
    /// default it refuses every proposal: no team gives up a match for a player who was not
    /// there to agree).
    StandIn(AiProfile),
}

/// How an AI-controlled seat answers a surrender proposal.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum AiVote {
    Accept,
    Refuse,
    /// Accepts its partner's proposal (the partner who stayed may give up), refuses the
    /// opponents'.
    PartnersOnly,
    /// Accepts the opponents' proposal (they give up and take the loss), never gives up for its
    /// own team.
    OpponentsOnly,
}

impl AiVote {
    fn accepts(self, seat: Seat, proposer: Seat) -> bool {
        match self {
            AiVote::Accept => true,
            AiVote::Refuse => false,
            AiVote::PartnersOnly => Team::of(seat) == Team::of(proposer),
            AiVote::OpponentsOnly => Team::of(seat) != Team::of(proposer),
        }
    }
}

/// What a host decides about surrender around the rules: how its AI seats vote and how often a
/// team may propose. Not a rule: a refused proposal is never recorded and AI votes are recorded
/// as actions, so records replay whatever the policy was. The default is what offline games have
/// always done.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SurrenderPolicy {
    /// The vote of an AI seat ([`Controller::Ai`]).
    pub ai: AiVote,
    /// The vote of a stand-in for a human ([`Controller::StandIn`]).
    pub stand_in: AiVote,
    /// Proposals each team may make in one deal; 0 = no limit. A proposal opens a vote that
    /// every human must answer, so without a limit one player could hold the table with them.
    pub proposals_per_deal: u8,
}

impl SurrenderPolicy {
    /// Offline: an AI partner follows its human's call and AI opponents accept; a stand-in
    /// refuses; no limit.
    pub const OFFLINE: SurrenderPolicy =
        SurrenderPolicy { ai: AiVote::Accept, stand_in: AiVote::Refuse, proposals_per_deal: 0 };
    /// An online room among friends: the offline votes, one proposal per team and deal.
    pub const ONLINE: SurrenderPolicy = SurrenderPolicy { proposals_per_deal: 1, ..SurrenderPolicy::OFFLINE };
    /// A ranked room: an AI partner (the queue's fill) never agrees, so no player gives a rated
    /// match away through it; AI opponents accept (the humans who give up take the loss, and the
    /// AI is not rated); a stand-in agrees to its partner's proposal (the one who stayed may give
    /// up; the one who left takes the loss) and refuses the opponents'.
    pub const RANKED: SurrenderPolicy =
        SurrenderPolicy { ai: AiVote::OpponentsOnly, stand_in: AiVote::PartnersOnly, proposals_per_deal: 1 };
}

impl Default for SurrenderPolicy {
    fn default() -> Self {
        SurrenderPolicy::OFFLINE
    }
}

impl Controller {
    pub fn is_ai(&self) -> bool {
        self.profile().is_some()
    }

    /// The AI that decides for this seat, if one does.
    pub fn profile(&self) -> Option<&AiProfile> {
        match self {
            Controller::Ai(p) | Controller::StandIn(p) => Some(p),
            Controller::Human => None,
        }
    }
}

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
    #[error("seat {0} is not 0-3")]
    BadSeat(u8),
    #[error("your team has made its {0} surrender proposal(s) of this deal")]
    ProposalLimit(u8),
}

impl RuntimeError {
    pub fn code(&self) -> ErrorCode {
        match self {
            RuntimeError::Rule(e) => e.code(),
            RuntimeError::NotHuman(_) => ErrorCode::NotHuman,
            RuntimeError::BadSeat(_) => ErrorCode::BadArgument,
            RuntimeError::ProposalLimit(_) => ErrorCode::SurrenderRefused,
        }
    }
}

/// The seed of one AI decision: a function of the match seed, the action number and the seat,
/// so AI matches are reproducible whatever the host's threads do.
pub fn decision_seed(match_seed: u64, seq: u64, seat: Seat) -> u64 {
    match_seed ^ seq.wrapping_add(1).wrapping_mul(0x9E37_79B9_7F4A_7C15) ^ (u64::from(seat) << 56)
}

/// The AI decision the runtime waits for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct PendingAi {
    seat: Seat,
    seq: u64,
    generation: u64,
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
        self.seats.get(seat as usize)
    }

    pub fn is_ai(&self, seat: Seat) -> bool {
        self.controller(seat).is_some_and(Controller::is_ai)
    }

    /// Human seats that must act now (tribute and return may ask two at once).
    pub fn human_duties(&self) -> Vec<Seat> {
        self.m.to_act().into_iter().filter(|&s| !self.is_ai(s)).collect()
    }

    /// Seconds left for `seat`'s current duty; `None` when no clock runs for it.
    pub fn time_left(&self, seat: Seat) -> Option<f64> {
        let limit = self.turn_limit(seat);
        if limit <= 0.0 || !self.human_duties().contains(&seat) {
            return None;
        }
        Some((limit - self.current_turn_clock()).max(0.0))
    }

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

    /// The AI decision being waited for: its seat and the `seq` it is for.
    pub fn pending_ai(&self) -> Option<(Seat, u64)> {
        self.pending.map(|p| (p.seat, p.seq))
    }

    /// Names the players and the mode in the record (for statistics and record lists); the
    /// rules never read it. `start` fills in each seat's AI level.
    pub fn set_meta(&mut self, meta: MatchMeta) {
        self.log.header.meta = Some(meta);
    }

    pub fn set_ai_hard_limit(&mut self, limit: Duration) {
        self.ai_hard_limit = limit.min(Duration::from_millis(MAX_AI_DECISION_MS));
    }

    /// How AI seats vote on a surrender and how often a team may propose (offline's until set).
    pub fn set_surrender_policy(&mut self, policy: SurrenderPolicy) {
        self.surrender = policy;
    }

    pub fn surrender_policy(&self) -> SurrenderPolicy {
        self.surrender
    }

    /// How many of `seat`'s duties in a row its human let time out (0 once it does a duty
    /// itself, or the seat changes hands): a host hands a seat that does nothing to the AI.
    pub fn timeouts_in_a_row(&self, seat: Seat) -> u32 {
        self.timeouts.get(seat as usize).copied().unwrap_or(0)
    }

    // ----- acting -----

    /// A human seat's action. Refused (state and log unchanged) for an AI-controlled seat, an
    /// illegal action, or a surrender proposal past the policy's limit for the deal. AI seats
    /// then vote on an open surrender at once (as the [`SurrenderPolicy`] says).
    pub fn act(&mut self, seat: Seat, kind: ActionKind) -> Result<Vec<Notice>, RuntimeError> {
        if seat > 3 {
            return Err(RuntimeError::BadSeat(seat));
        }
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
            self.timeouts[seat as usize] = 0;
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
        let Some(slot) = self.seats.get_mut(seat as usize) else { return Vec::new() };
        let was_ai = slot.is_ai();
        *slot = controller;
        let ai = slot.is_ai();
        self.timeouts[seat as usize] = 0;
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
            return Ok(self.apply(0, ActionKind::TimeUp)?);
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
                self.timeouts[seat as usize] += 1;
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

    // ----- internals -----

    /// The clock runs for the current duty: a new duty starts at 0. Surrender proposals and
    /// votes change no duty and leave its clock (and what `seen` gave back of it) as it was.
    fn clock_for_now(&mut self) {
        if self.clock_seq != self.duty_seq {
            self.clock_seq = self.duty_seq;
            self.turn_clock = 0.0;
            self.seen_credit = 0.0;
        }
    }

    /// Seconds since the current duty began (0 after an action the host has not ticked past).
    fn current_turn_clock(&self) -> f64 {
        if self.clock_seq == self.duty_seq { self.turn_clock.max(0.0) } else { 0.0 }
    }

    fn turn_limit(&self, seat: Seat) -> f64 {
        if !self.clocks || self.is_ai(seat) { 0.0 } else { f64::from(self.m.rules().turn_time_limit_s) }
    }

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

    /// AI seats vote on an open surrender proposal as the [`SurrenderPolicy`] says (offline:
    /// an AI seat accepts — opponents win by it, and an AI partner follows its human partner's
    /// call — and a stand-in refuses: its human was not there to agree).
    fn ai_votes(&mut self) -> Vec<Notice> {
        let mut notices = Vec::new();
        while let Some(s) = self.m.surrender() {
            let Some(seat) = (0..4u8).find(|&seat| self.is_ai(seat) && !s.voted(seat)) else { break };
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

    /// Rule events as notices with their audiences, plus each seat's new hand right after the
    /// last event that changed it, and the return phase once tributes are routed.
    fn translate(&mut self, events: &[Event]) -> Vec<Notice> {
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
                Event::TributeGiven { from, to, card } => {
                    routed = true;
                    private_pair(
                        &mut out,
                        seq,
                        *from,
                        *to,
                        |c| Out::TributeGiven { from: *from, to: *to, card: c },
                        *card,
                    );
                    hand_at[*from as usize] = Some(out.len());
                    hand_at[*to as usize] = Some(out.len());
                }
                Event::ReturnGiven { from, to, card } => {
                    private_pair(
                        &mut out,
                        seq,
                        *from,
                        *to,
                        |c| Out::ReturnGiven { from: *from, to: *to, card: c },
                        *card,
                    );
                    hand_at[*from as usize] = Some(out.len());
                    hand_at[*to as usize] = Some(out.len());
                }
                Event::TurnStarted { seat, can_pass } => out.push(all(Out::TurnStarted {
                    seat: *seat,
                    can_pass: *can_pass,
                    time_limit_s: self.turn_limit(*seat),
                })),
                Event::Played { seat, play } => {
                    out.push(all(Out::CardsPlayed { seat: *seat, play: *play }));
                    hand_at[*seat as usize] = Some(out.len());
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
        let mut updates: Vec<(usize, Seat)> = (0..4u8)
            .filter(|&s| self.m.hand(s) != self.reported[s as usize])
            .map(|s| (hand_at[s as usize].unwrap_or(out.len()), s))
            .collect();
        updates.sort_unstable();
        for &(at, seat) in updates.iter().rev() {
            let hand = self.m.hand(seat);
            self.reported[seat as usize] = hand;
            out.insert(at, Notice { seq, audience: Audience::Only(1 << seat), out: Out::HandChanged { seat, hand } });
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
        for seat in 0..4u8 {
            let hand = m.hand(seat);
            self.reported[seat as usize] = hand;
            out.push(Notice { seq, audience: Audience::Only(1 << seat), out: Out::HandChanged { seat, hand } });
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

/// A surrender proposal or vote: made beside the duty, it changes no one's duty.
fn is_vote(kind: &ActionKind) -> bool {
    matches!(kind, ActionKind::ProposeSurrender | ActionKind::SurrenderVote { .. })
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
