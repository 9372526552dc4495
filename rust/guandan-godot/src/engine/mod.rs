//! `GuandanEngine`: the one node the game talks to for a match, local or online. Its
//! [`MatchSource`] is a local match ([`local::LocalMatch`]: guandan-runtime's [`Runtime`], which
//! does the rules, the log, the AI driving decisions and the clocks) or the copy of a server's
//! match that a `GuandanClient` keeps ([`crate::client::remote`], `follow(client)`). The signals,
//! the getters ([`state`]), the play check and advice are declared once over the source. For a
//! local match the node adds what only a Godot host has: an AI worker service drained in
//! `process()` ([`ai`]), the frame clock fed to `Runtime::tick`, and crash recovery.
//!
//! Threads: workers only ever see plain Rust snapshots (`AiRequest`); results are drained in
//! `process()` on the main thread. Re-entrancy: every state change is applied first, then its
//! signals are queued and emitted one by one from `&mut self` through `signals()`, so a handler
//! may call back into the engine; a call made while signals are being emitted queues its own
//! signals behind the ones already waiting, keeping the order.
//!
//! This file holds the node, its constants, signals and match API (gdext wants those in the
//! primary `#[godot_api]` block) and the plumbing to the runtime. The other jobs have their own
//! files, most as secondary `#[godot_api]` blocks: [`state`] (getters), [`signals`] (emitting
//! them), [`parse`] (seats, rules, card ids from GDScript), [`recovery`] (the crash guard and
//! `resume_last_valid`; the report itself is [`crash`]), [`errors`] (the `ERR_*` constants and
//! `error_codes()`), [`auto_play`], [`ai`] (the AI worker
//! and its thread diagnostics), [`recording`] (`resume_from(recorder)`, `record(engine)`).

mod ai;
mod auto_play;
pub mod crash;
mod errors;
pub(crate) mod local;
mod parse;
mod recording;
mod recovery;
mod signals;
mod state;

use std::collections::VecDeque;
use std::time::Duration;

use godot::classes::{INode, Node, Os};
use godot::prelude::*;

use guandan_ai::agent::{MAX_AI_DECISION_MS, Trace};
use guandan_core::error::ErrorCode;
use guandan_core::game::{ActionKind, Seat};
use guandan_runtime::{Notice, Runtime, RuntimeConfig};

use crate::args;
use crate::client::GuandanClient;
use crate::client::following::Following;
use crate::codes::{self, Fail};
use crate::convert::{self, ids};
use crate::forward::Emit;
use crate::resources::GuandanRules;
use crate::source::{self, MatchSource};
use local::LocalMatch;
use parse::{checked_card, parse_rules, parse_seats};

/// Runs a Guandan match — local (rules, AI seats, turn timer) or online (`follow(client)`: the
/// server's match as a `GuandanClient` copies it) — with a signal for every change.
///
/// Start with `start_match(rules, seats, seed)`, or `follow(client)` online. The engine shows one *viewer*: the human seat
/// (with several human seats — hot-seat — the one that must act, announced by
/// `viewer_changed`), or every hand when no human plays. The getters expose the viewer's view,
/// and `play`, `pass_turn`, `give_tribute`, `return_card`, `propose_surrender` and
/// `surrender_vote` act for the viewer. Every action returns an error code (`OK` = 0, see the
/// `ERR_*` constants), emits `error(code, message)` when it fails, and never crashes. AI seats
/// act from `_process`; keep the node in the tree. Free it with `queue_free()`.
#[derive(GodotClass)]
#[class(base = Node)]
pub struct GuandanEngine {
    base: Base<Node>,
    /// Enforce the rules' clocks: a human turn past `turn_time_limit_s` times out (pass, or the
    /// smallest single when leading; forced tribute/return), and a match past
    /// `max_match_minutes` ends by time. Read when a match starts or resumes; turn it off for
    /// deterministic tests.
    #[var]
    use_turn_timer: bool,
    /// The least time between an AI being asked and its action being applied, in ms, so the
    /// table can be followed by eye (0 = as soon as it is ready).
    #[var]
    ai_min_think_ms: i64,
    /// How long one `_process` call may wait for AI answers, in ms; several AI actions can be
    /// applied in one frame within it. 0 = never wait (one poll per frame).
    #[var]
    ai_frame_budget_ms: f64,
    /// Hard limit of one AI decision in ms (at most 3000): past it the decision is answered by
    /// the easy level's choice. Setting it cancels the AI work in progress.
    #[var(set = set_ai_hard_limit_ms)]
    ai_hard_limit_ms: i64,
    /// While true, AI seats and clocks wait (e.g. while a dialog is open).
    #[var]
    paused: bool,
    /// The AI level (1–3) that plays the viewer's seat during auto-play (`set_auto_play`).
    #[var]
    auto_play_level: i64,

    /// The local match, if one runs here.
    local: Option<LocalMatch>,
    /// The online match this engine shows (`follow`).
    remote: Option<Following>,
    /// Bumped for every new match: AI results of an older match are dropped.
    generation: u64,
    ai: ai::Driver,
    queue: VecDeque<Emit>,
    flushing: bool,
    /// Emitting the signals of a position already played (`Emit::Restoring`).
    restoring: bool,
    traces: [Option<Trace>; 4],
    last_error: String,
    /// After a fatal error: the valid part of the stopped match's record (`resume_last_valid`).
    last_valid: Option<guandan_core::log::MatchLog>,
    /// After a fatal error: the report's path.
    last_crash_report: String,
}

#[godot_api]
impl INode for GuandanEngine {
    fn init(base: Base<Node>) -> Self {
        GuandanEngine {
            base,
            use_turn_timer: true,
            ai_min_think_ms: 0,
            ai_frame_budget_ms: 4.0,
            ai_hard_limit_ms: MAX_AI_DECISION_MS as i64,
            paused: false,
            auto_play_level: 2,
            local: None,
            remote: None,
            generation: 0,
            ai: ai::Driver::default(),
            queue: VecDeque::new(),
            flushing: false,
            restoring: false,
            traces: Default::default(),
            last_error: String::new(),
            last_valid: None,
            last_crash_report: String::new(),
        }
    }

    fn process(&mut self, delta: f64) {
        if let Some(r) = &mut self.remote {
            self.queue.extend(r.take_emits());
        }
        if self.local.is_some() && !self.paused {
            let r = self.guard("process", |e| {
                e.tick_clocks(delta);
                e.run_ai();
                Ok(())
            });
            if let Err(f) = r {
                self.last_error = f.message;
            }
        }
        self.flush();
    }

    fn exit_tree(&mut self) {
        // Leaving the tree cancels AI work: drop the service (joins its worker); it is created
        // again when the node is back in the tree and an AI must act.
        self.ai.stop_service();
        if let Some(l) = &mut self.local {
            l.rt.cancel_ai();
        }
    }
}

#[godot_api]
impl GuandanEngine {
    /// Players at the table.
    #[constant]
    pub const SEATS: i32 = 4;
    /// Cards in each hand after a deal.
    #[constant]
    pub const HAND_SIZE: i32 = 27;
    /// Cards in the two decks; card ids are `0 ..= DECK_SIZE - 1`.
    #[constant]
    pub const DECK_SIZE: i32 = guandan_core::card::DECK_SIZE as i32;

    /// No match (phase).
    #[constant]
    pub const PHASE_NONE: i64 = convert::PHASE_NONE;
    /// Losers give tribute (phase).
    #[constant]
    pub const PHASE_TRIBUTE: i64 = convert::PHASE_TRIBUTE;
    /// Receivers return a card (phase).
    #[constant]
    pub const PHASE_RETURN: i64 = convert::PHASE_RETURN;
    /// Cards are played (phase).
    #[constant]
    pub const PHASE_PLAY: i64 = convert::PHASE_PLAY;
    /// The match is over (phase).
    #[constant]
    pub const PHASE_MATCH_OVER: i64 = convert::PHASE_MATCH_OVER;

    // ----- signals (emitted after the state is updated, in this order of events) -----

    /// A match started; `local_seat` is the seat the engine shows and acts for (-1: none, an
    /// AI-only table).
    #[signal]
    fn match_started(seed: i64, local_seat: i64);
    /// Hot-seat: the engine now acts for, and shows the hand of, the human `seat` that must act
    /// (followed by `hand_changed` with that seat's hand; read its duty with the getters).
    #[signal]
    fn viewer_changed(seat: i64);
    /// A deal started at `level` (rank 2–14); `declarer` is the team whose level it is (-1 in the first deal).
    #[signal]
    fn deal_started(deal_no: i64, level: i64, declarer: i64);
    /// The viewer's hand changed (new deal, tribute, return, own play): all its card ids.
    #[signal]
    fn hand_changed(hand: PackedInt32Array);
    /// Tribute is due from `payers`; when `resisted` they hold both big jokers and pay nothing.
    #[signal]
    fn tribute_phase(payers: PackedInt32Array, resisted: bool);
    /// A tribute went from `from` to `to`; `card` is -1 unless the viewer gave or got it.
    #[signal]
    fn tribute_given(from: i64, to: i64, card: i64);
    /// The tribute receivers in `receivers` now return one card each.
    #[signal]
    fn return_phase(receivers: PackedInt32Array);
    /// A return went from `from` to `to`; `card` is -1 unless the viewer gave or got it.
    #[signal]
    fn card_returned(from: i64, to: i64, card: i64);
    /// `seat` is to play; it may pass when `can_pass`; `time_limit` is its time in seconds
    /// (0 = unlimited: AI seats, timer off, or the rules have no limit).
    #[signal]
    fn turn_started(seat: i64, can_pass: bool, time_limit: f64);
    /// `seat` played `play`.
    #[signal]
    fn cards_played(seat: i64, play: Gd<crate::values::Play>);
    /// `seat` passed.
    #[signal]
    fn passed(seat: i64);
    /// Everyone passed: the table is empty and `leader` leads.
    #[signal]
    fn table_cleared(leader: i64);
    /// The player who played last has gone out and all passed: the partner `seat` leads.
    #[signal]
    fn partner_takes_lead(seat: i64);
    /// `seat` holds `count` cards, at or below the rules' announce threshold.
    #[signal]
    fn cards_left(seat: i64, count: i64);
    /// `seat` has no cards left and takes `place` (1–3).
    #[signal]
    fn player_finished(seat: i64, place: i64);
    /// The deal ended: `order` is the finishing order; `level_changes` the two teams' levels
    /// before and after.
    #[signal]
    fn deal_ended(order: PackedInt32Array, level_changes: Gd<crate::values::LevelChange>);
    /// `seat` proposed to surrender.
    #[signal]
    fn surrender_proposed(seat: i64);
    /// `seat` voted on the open surrender proposal.
    #[signal]
    fn surrender_voted(seat: i64, accept: bool);
    /// The match ended: `winner_team` 0 or 1 (-1 = draw); `reason` is `ace_won`, `surrender` or `time_up`.
    #[signal]
    fn match_ended(winner_team: i64, reason: GString);
    /// An AI seat started thinking.
    #[signal]
    fn ai_thinking(seat: i64);
    /// An AI seat decided after `elapsed_ms`; `fell_back` when the hard limit cut it short.
    #[signal]
    fn ai_decided(seat: i64, elapsed_ms: f64, fell_back: bool);
    /// A human turn ran out of time; the engine acted for `seat`.
    #[signal]
    fn turn_timed_out(seat: i64);
    /// A call failed (the call also returned `code`), or a clock problem was recovered from.
    #[signal]
    fn error(code: i64, message: GString);
    /// Who plays `seat` changed: `ai` true when the AI took it over (auto-play), false when its
    /// player took it back.
    #[signal]
    fn controller_changed(seat: i64, ai: bool);
    /// A fatal error inside the engine stopped the match (it never crashes the game): `report`
    /// is the crash report written to `user://crash/` (the error and the last 100 actions);
    /// `resume_last_valid(seats)` plays on from the last valid state.
    #[signal]
    fn crashed(message: GString, report: GString);

    // ----- match control -----

    /// Starts a new match, discarding any running one (its pending AI work and queued signals
    /// are dropped; nothing of it arrives later).
    ///
    /// `rules`: a `GuandanRules` resource, or null for the competition rules. `seats`: four
    /// entries, each `null` or `"human"` (a human seat), an int 1–3 (AI of that level with
    /// default settings) or an `AiProfile`. `seed`: any int. Returns `OK`, or
    /// `ERR_BAD_ARGUMENT` (the old match, if any, keeps running).
    #[func]
    pub fn start_match(&mut self, rules: Option<Gd<GuandanRules>>, seats: VarArray, seed: i64) -> i64 {
        let r = parse_rules(rules).and_then(|rules| {
            let cfg = RuntimeConfig {
                seed: args::seed_from_int(seed),
                rules,
                seats: parse_seats(&seats)?,
                clocks: self.use_turn_timer,
            };
            Runtime::start(cfg).map_err(Fail::from)
        });
        let r = r.map(|(rt, notices)| self.install(rt, &notices));
        self.finish("start_match", r)
    }

    /// Ends the running match without a result (AI work cancelled, queued signals dropped);
    /// online, stops following the client (the room and its match go on).
    #[func]
    pub fn stop_match(&mut self) {
        self.discard_match();
    }

    /// Shows the online match of `client`'s room from now on (dropping any local match): its
    /// signals, getters and the player's actions, which are sent to the server as intents (`OK`
    /// from an action means sent; a refusal arrives as `error`). The match is announced whole
    /// when the next full state arrives (`client.resync()` asks for one). Returns `OK` or
    /// `ERR_BAD_ARGUMENT` (null client).
    #[func]
    pub fn follow(&mut self, client: Option<Gd<GuandanClient>>) -> i64 {
        let r = match client {
            Some(c) => {
                self.discard_match();
                self.remote = Some(Following::new(c.bind().remote()));
                // Right after the client, before every other node: what it received this frame
                // is announced before any script reads the copy.
                self.base_mut().set_process_priority(GuandanClient::PROCESS_PRIORITY + 1);
                Ok(())
            }
            None => Err(Fail::bad_argument("client is null")),
        };
        self.finish("follow", r)
    }

    /// The table has drawn the viewer's prompt (its turn, tribute or return). Online the
    /// server's clock for that duty then starts from now (within its grace), so the seconds the
    /// table took to draw are not the player's; offline the engine's clock already waited while
    /// the table was paused. Best effort and silent: false when there was nothing to tell.
    #[func]
    pub fn prompt_seen(&mut self) -> bool {
        self.source_mut().is_some_and(|s| s.prompt_seen())
    }

    // ----- the viewer's actions -----

    /// Plays these cards (ids from the viewer's hand). `reading` picks one of the readings that
    /// `MoveAdvisor.readings(card_ids)` lists (its `index`); -1 = the default reading (the
    /// strongest that beats the table). Returns `OK` or an `ERR_*` code.
    #[func]
    pub fn play(&mut self, card_ids: PackedInt32Array, #[opt(default = -1)] reading: i64) -> i64 {
        let r = self
            .source()
            .and_then(|s| s.view())
            .ok_or_else(|| Fail::new(ErrorCode::NoMatch, "no match is running"))
            .and_then(|v| source::play_kind(&v, card_ids.as_slice(), reading))
            .and_then(|kind| self.act(kind));
        self.finish("play", r)
    }

    /// Passes (only when following). Returns `OK` or an `ERR_*` code.
    #[func]
    pub fn pass_turn(&mut self) -> i64 {
        let r = self.act(ActionKind::Pass);
        self.finish("pass_turn", r)
    }

    /// Gives this card as tribute (one of `get_tribute_options()`). Returns `OK` or an `ERR_*` code.
    #[func]
    pub fn give_tribute(&mut self, card_id: i64) -> i64 {
        let r = checked_card(card_id).and_then(|card| self.act(ActionKind::Tribute { card }));
        self.finish("give_tribute", r)
    }

    /// Returns this card to the tribute payer (one of `get_return_options()`). Returns `OK` or an `ERR_*` code.
    #[func]
    pub fn return_card(&mut self, card_id: i64) -> i64 {
        let r = checked_card(card_id).and_then(|card| self.act(ActionKind::Return { card }));
        self.finish("return_card", r)
    }

    /// Proposes that the viewer's team surrenders. The partner and both opponents must accept;
    /// AI seats accept at once. Returns `OK` or an `ERR_*` code.
    #[func]
    pub fn propose_surrender(&mut self) -> i64 {
        let r = self.act(ActionKind::ProposeSurrender);
        self.finish("propose_surrender", r)
    }

    /// Votes on the open surrender proposal. Returns `OK` or an `ERR_*` code.
    #[func]
    pub fn surrender_vote(&mut self, accept: bool) -> i64 {
        let r = self.act(ActionKind::SurrenderVote { accept });
        self.finish("surrender_vote", r)
    }

    /// Names the players and the mode in the match's record (for statistics and record
    /// lists; the rules never read it): `names` has four entries, `""` keeps a seat unnamed
    /// (an AI seat is then listed by its level). Returns `OK`, `ERR_NO_MATCH` or
    /// `ERR_BAD_ARGUMENT` (not four names, or a name longer than 64 characters).
    #[func]
    pub fn set_players(&mut self, names: PackedStringArray, mode: GString) -> i64 {
        let r = (|| {
            let rt = self
                .local
                .as_mut()
                .map(|l| &mut l.rt)
                .ok_or_else(|| Fail::new(ErrorCode::NoMatch, "no local match is running"))?;
            if names.len() != 4 {
                return Err(Fail::bad_argument(format!("names must have 4 entries, got {}", names.len())));
            }
            let names: Vec<String> = names.as_slice().iter().map(|n| n.to_string()).collect();
            if names.iter().any(|n| n.chars().count() > 64) {
                return Err(Fail::bad_argument("a name is longer than 64 characters"));
            }
            let mut meta = rt.log().header.meta.clone().unwrap_or_default();
            for (p, name) in meta.players.iter_mut().zip(names) {
                p.name = name;
            }
            meta.mode = mode.to_string();
            rt.set_meta(meta);
            Ok(())
        })();
        self.finish("set_players", r)
    }

    // ----- misc -----

    /// Deals the two decks for a match seed: four `PackedInt32Array` hands (seat 0..3), 27 card
    /// ids each, increasing. Any int is a valid seed (negative ones are read as their `u64` bits);
    /// the same seed always gives the same deal, on every platform.
    #[func]
    pub fn deal(&self, seed: i64) -> Array<PackedInt32Array> {
        guandan_core::deal::deal_for_seed(args::seed_from_int(seed)).iter().map(|hand| ids(*hand)).collect()
    }

    /// The version of the Rust crates, for about screens and bug reports.
    #[func]
    pub fn version(&self) -> GString {
        GString::from(env!("CARGO_PKG_VERSION"))
    }

    #[func]
    fn set_ai_hard_limit_ms(&mut self, ms: i64) {
        self.ai_hard_limit_ms = ms.clamp(0, MAX_AI_DECISION_MS as i64);
        // The limit is fixed per service: start a new one.
        self.ai.stop_service();
        if let Some(rt) = self.local.as_mut().map(|l| &mut l.rt) {
            rt.cancel_ai();
            rt.set_ai_hard_limit(Duration::from_millis(self.ai_hard_limit_ms as u64));
        }
    }
}

// ----- internals: forwarding the runtime -----

impl GuandanEngine {
    pub(crate) fn runtime(&self) -> Option<&Runtime> {
        self.local.as_ref().map(|l| &l.rt)
    }

    /// The match this engine shows, local or online.
    pub(crate) fn source(&self) -> Option<&dyn MatchSource> {
        match (&self.local, &self.remote) {
            (Some(l), _) => Some(l),
            (None, Some(r)) => Some(r),
            (None, None) => None,
        }
    }

    fn source_mut(&mut self) -> Option<&mut dyn MatchSource> {
        match (&mut self.local, &mut self.remote) {
            (Some(l), _) => Some(l),
            (None, Some(r)) => Some(r),
            (None, None) => None,
        }
    }

    /// The seat the engine shows and acts for; `None` without a match, for a spectator or on
    /// an AI-only table.
    pub(crate) fn local(&self) -> Option<Seat> {
        self.source().and_then(|s| s.local())
    }

    pub(crate) fn trace(&self, seat: Seat) -> Option<&Trace> {
        self.traces.get(seat.index())?.as_ref()
    }

    /// Makes `rt` the running match (dropping the old one) and announces it.
    fn install(&mut self, mut rt: Runtime, notices: &[Notice]) {
        self.discard_match();
        rt.set_ai_hard_limit(Duration::from_millis(self.ai_hard_limit_ms.clamp(0, MAX_AI_DECISION_MS as i64) as u64));
        let (local, emits) = LocalMatch::new(rt, notices);
        self.queue.extend(emits);
        self.local = Some(local);
        self.after_change();
    }

    /// Drops the match and everything in flight for it.
    fn discard_match(&mut self) {
        self.generation += 1;
        self.ai.discard(self.generation);
        self.local = None;
        self.remote = None;
        self.queue.clear();
        self.traces = Default::default();
    }

    /// The viewer's action `kind`: applied by the local runtime (guarded: a panic stops the
    /// match with a crash report), or sent to the server.
    fn act(&mut self, kind: ActionKind) -> Result<(), Fail> {
        if self.local.is_some() { self.guard("act", |e| e.act_unguarded(kind)) } else { self.act_unguarded(kind) }
    }

    fn act_unguarded(&mut self, kind: ActionKind) -> Result<(), Fail> {
        let src = self.source_mut().ok_or_else(|| Fail::new(ErrorCode::NoMatch, "no match is running"))?;
        let emits = src.act(kind)?;
        self.queue.extend(emits);
        self.after_change();
        Ok(())
    }

    /// Queues what the viewer may receive of the runtime's notices.
    fn forward_notices(&mut self, notices: &[Notice]) {
        if let Some(l) = &mut self.local {
            self.queue.extend(l.forward(notices));
        }
    }

    /// After any change of a local match: drop AI work for an older state, ask the next AI.
    fn after_change(&mut self) {
        if self.local.is_none() {
            return;
        }
        let seq = self.runtime().map(|rt| rt.state().seq());
        self.ai.drop_stale(seq);
        if !self.paused {
            self.schedule_ai();
        }
    }

    fn tick_clocks(&mut self, delta: f64) {
        if !delta.is_finite() || delta < 0.0 {
            return;
        }
        let Some(rt) = self.local.as_mut().map(|l| &mut l.rt) else { return };
        match rt.tick(Duration::from_secs_f64(delta)) {
            Ok(notices) if notices.is_empty() => {}
            Ok(notices) => {
                self.forward_notices(&notices);
                self.after_change();
            }
            Err(e) => {
                godot_error!("GuandanEngine: the clock's timeout action was refused (code {})", e.code().code());
                let fail = Fail::from(e);
                self.queue.push_back(Emit::Error { code: fail.num(), message: fail.message });
            }
        }
    }

    /// Ends a call: flushes signals and returns the code; a failure is logged at WARN without
    /// card details (those only at DEBUG, i.e. with `--verbose`), kept for `get_last_error`
    /// and emitted as `error`.
    fn finish(&mut self, what: &str, r: Result<(), Fail>) -> i64 {
        let code = match r {
            Ok(()) => codes::OK,
            Err(f) => {
                let code = f.num();
                godot_warn!("GuandanEngine.{what}: rejected with code {code} ({})", f.code.describe());
                if Os::singleton().is_stdout_verbose() {
                    godot_print!("[DEBUG] GuandanEngine.{what}: {}", f.message);
                }
                self.last_error = f.message.clone();
                self.queue.push_back(Emit::Error { code, message: f.message });
                code
            }
        };
        if let Some(r) = &mut self.remote {
            self.queue.extend(r.take_emits());
        }
        self.flush();
        code
    }
}
