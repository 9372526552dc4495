//! `GuandanEngine`: runs a whole match for Godot. GDScript starts a match, calls the human's
//! actions, and listens to signals; AI seats are played by guandan-ai's worker service.
//!
//! Threads: workers only ever see plain Rust snapshots (`PlayerView`); results are drained in
//! `process()` on the main thread. Re-entrancy: every state change is applied first, then its
//! signals are queued and emitted one by one from `&mut self` through `signals()` (which goes
//! through `base_mut()`), so a handler may call back into the engine; a call made while signals
//! are being emitted queues its own signals behind the ones already waiting, keeping the order.

use std::collections::VecDeque;
use std::sync::atomic::{AtomicI64, Ordering};
use std::time::{Duration, Instant};

use godot::classes::{INode, Node, Os};
use godot::prelude::*;
use guandan_ai::AiProfile;
use guandan_ai::agent::{MAX_AI_DECISION_MS, Trace};
use guandan_ai::service::{AiResult, AiService};
use guandan_core::card::CardId;
use guandan_core::combo::classify;
use guandan_core::deal::deal_for_seed;
use guandan_core::game::{ActionKind, Phase, Seat};
use guandan_core::log::MatchLog;
use guandan_core::rules::RuleConfig;

use crate::args;
use crate::codes::{self, Fail};
use crate::convert::{self, ids, opt_seat, play_dict, seats};
use crate::resources::{AiProfileRes, GuandanRules};
use crate::session::{Out, Session, reason_name};

/// Worker services alive in this process (each owns its threads); see `live_ai_services()`.
static LIVE_SERVICES: AtomicI64 = AtomicI64::new(0);

/// An `AiService` that is counted while alive; dropping it cancels and joins its workers.
struct Service(AiService);

impl Service {
    fn new(hard_limit_ms: u64) -> Self {
        LIVE_SERVICES.fetch_add(1, Ordering::SeqCst);
        Service(AiService::with_hard_limit(1, Duration::from_millis(hard_limit_ms)))
    }
}

impl Drop for Service {
    fn drop(&mut self) {
        self.0.cancel_all();
        LIVE_SERVICES.fetch_sub(1, Ordering::SeqCst);
        // AiService's own Drop (right after this) closes the job channel and joins the workers.
    }
}

struct PendingAi {
    id: u64,
    seat: Seat,
    seq: u64,
    submitted: Instant,
}

struct ReadyAi {
    result: AiResult,
    at: Instant,
}

/// Runs a Guandan match: rules, AI seats, turn timer, and a signal for every change.
///
/// Start with `start_match(rules, seats, seed)`; the first human seat is the local player, whose
/// view the getters expose and for whom `play`, `pass_turn`, `give_tribute`, `return_card`,
/// `propose_surrender` and `surrender_vote` act. Every action returns an error code (`OK` = 0,
/// see the `ERR_*` constants), emits `error(code, message)` when it fails, and never crashes.
/// AI seats act from `_process`; keep the node in the tree. Free it with `queue_free()`.
#[derive(GodotClass)]
#[class(base = Node)]
pub struct GuandanEngine {
    base: Base<Node>,
    /// Enforce the rules' clocks: a human turn past `turn_time_limit_s` times out (pass, or the
    /// smallest single when leading; forced tribute/return), and a match past
    /// `max_match_minutes` ends by time. Turn it off for deterministic tests.
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

    session: Option<Session>,
    generation: u64,
    service: Option<Service>,
    pending: Option<PendingAi>,
    ready: Option<ReadyAi>,
    queue: VecDeque<Out>,
    flushing: bool,
    clock_seq: u64,
    turn_clock: f64,
    match_clock: f64,
    traces: [Option<Trace>; 4],
    last_error: String,
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
            session: None,
            generation: 0,
            service: None,
            pending: None,
            ready: None,
            queue: VecDeque::new(),
            flushing: false,
            clock_seq: 0,
            turn_clock: 0.0,
            match_clock: 0.0,
            traces: Default::default(),
            last_error: String::new(),
        }
    }

    fn process(&mut self, delta: f64) {
        if self.session.is_none() {
            return;
        }
        if !self.paused {
            self.tick_clocks(delta);
            self.run_ai();
        }
        self.flush();
    }

    fn exit_tree(&mut self) {
        // Leaving the tree cancels AI work: drop the service (joins its worker); it is created
        // again when the node is back in the tree and an AI must act.
        self.pending = None;
        self.ready = None;
        self.service = None;
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

    /// Success.
    #[constant]
    pub const OK: i64 = codes::OK;
    /// Card ids out of range, repeated, empty, or no combination.
    #[constant]
    pub const ERR_INVALID_CARDS: i64 = codes::ERR_INVALID_CARDS;
    /// It is another seat's turn.
    #[constant]
    pub const ERR_NOT_YOUR_TURN: i64 = codes::ERR_NOT_YOUR_TURN;
    /// The leader may not pass.
    #[constant]
    pub const ERR_CANNOT_PASS: i64 = codes::ERR_CANNOT_PASS;
    /// A card is not in the player's hand.
    #[constant]
    pub const ERR_CARD_NOT_FOUND: i64 = codes::ERR_CARD_NOT_FOUND;
    /// The player has no cards left.
    #[constant]
    pub const ERR_HAND_EMPTY: i64 = codes::ERR_HAND_EMPTY;
    /// Not a card the player may give or return now, or nothing is owed.
    #[constant]
    pub const ERR_INVALID_TRIBUTE: i64 = codes::ERR_INVALID_TRIBUTE;
    /// The match is over.
    #[constant]
    pub const ERR_GAME_OVER: i64 = codes::ERR_GAME_OVER;
    /// Wrong phase, duplicate vote, or a similar conflict.
    #[constant]
    pub const ERR_STATE_CONFLICT: i64 = codes::ERR_STATE_CONFLICT;
    /// The play does not beat the table.
    #[constant]
    pub const ERR_CANNOT_BEAT: i64 = codes::ERR_CANNOT_BEAT;
    /// No match is running.
    #[constant]
    pub const ERR_NO_MATCH: i64 = codes::ERR_NO_MATCH;
    /// There is no human seat to act for.
    #[constant]
    pub const ERR_NOT_HUMAN: i64 = codes::ERR_NOT_HUMAN;
    /// A malformed argument (seat list, reading index, resource, name...).
    #[constant]
    pub const ERR_BAD_ARGUMENT: i64 = codes::ERR_BAD_ARGUMENT;
    /// Empty record (ReplayRecorder).
    #[constant]
    pub const ERR_LOG_EMPTY: i64 = codes::ERR_LOG_EMPTY;
    /// Malformed record line (ReplayRecorder).
    #[constant]
    pub const ERR_LOG_MALFORMED: i64 = codes::ERR_LOG_MALFORMED;
    /// Unsupported record version (ReplayRecorder).
    #[constant]
    pub const ERR_LOG_VERSION: i64 = codes::ERR_LOG_VERSION;
    /// The record holds an illegal action (ReplayRecorder).
    #[constant]
    pub const ERR_LOG_REJECTED: i64 = codes::ERR_LOG_REJECTED;
    /// Replaying the record does not give the recorded state hash (ReplayRecorder).
    #[constant]
    pub const ERR_LOG_HASH: i64 = codes::ERR_LOG_HASH;
    /// Reading or writing a file failed (ReplayRecorder).
    #[constant]
    pub const ERR_IO: i64 = codes::ERR_IO;
    /// No record file of that name (ReplayRecorder).
    #[constant]
    pub const ERR_NOT_FOUND: i64 = codes::ERR_NOT_FOUND;
    /// The recorder holds no record (ReplayRecorder).
    #[constant]
    pub const ERR_NO_RECORD: i64 = codes::ERR_NO_RECORD;

    // ----- signals (emitted after the state is updated, in this order of events) -----

    /// A match started; `local_seat` is the human seat the engine acts for (-1: none).
    #[signal]
    fn match_started(seed: i64, local_seat: i64);
    /// A deal started at `level` (rank 2–14); `declarer` is the team whose level it is (-1 in the first deal).
    #[signal]
    fn deal_started(deal_no: i64, level: i64, declarer: i64);
    /// The local player's hand changed (new deal, tribute, return, own play): all its card ids.
    #[signal]
    fn hand_changed(hand: PackedInt32Array);
    /// Tribute is due from `payers`; when `resisted` they hold both big jokers and pay nothing.
    #[signal]
    fn tribute_phase(payers: PackedInt32Array, resisted: bool);
    /// A tribute went from `from` to `to`; `card` is -1 unless the local player gave or got it.
    #[signal]
    fn tribute_given(from: i64, to: i64, card: i64);
    /// The tribute receivers in `receivers` now return one card each.
    #[signal]
    fn return_phase(receivers: PackedInt32Array);
    /// A return went from `from` to `to`; `card` is -1 unless the local player gave or got it.
    #[signal]
    fn card_returned(from: i64, to: i64, card: i64);
    /// `seat` is to play; it may pass when `can_pass`; `time_limit` is its time in seconds
    /// (0 = unlimited: AI seats, timer off, or the rules have no limit).
    #[signal]
    fn turn_started(seat: i64, can_pass: bool, time_limit: f64);
    /// `seat` played `play` (see "Data shapes" in docs/godot-api.md).
    #[signal]
    fn cards_played(seat: i64, play: VarDictionary);
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
    /// The deal ended: `order` is the finishing order; `level_changes` is
    /// `{winner_team, before, after}` with the two teams' levels before and after.
    #[signal]
    fn deal_ended(order: PackedInt32Array, level_changes: VarDictionary);
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
    /// A call failed (the call also returned `code`), or an AI error was recovered from.
    #[signal]
    fn error(code: i64, message: GString);

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
        let parsed = parse_rules(rules).and_then(|r| parse_seats(&seats).map(|s| (r, s)));
        let (rules, seat_profiles) = match parsed {
            Ok(x) => x,
            Err(f) => return self.finish("start_match", Err(f)),
        };
        let limit = self.turn_limit_for(&rules);
        match Session::new(args::seed_from_int(seed), rules, seat_profiles, limit) {
            Ok((session, outs)) => {
                self.discard_match();
                self.session = Some(session);
                self.queue.extend(outs);
                self.after_change();
                self.finish("start_match", Ok(()))
            }
            Err(e) => self.finish("start_match", Err(Fail::from(e))),
        }
    }

    /// Ends the running match without a result (AI work cancelled, queued signals dropped).
    #[func]
    pub fn stop_match(&mut self) {
        self.discard_match();
    }

    // ----- the local player's actions -----

    /// Plays these cards (ids from the local hand). `reading` picks one of the readings that
    /// `MoveAdvisor.readings(card_ids)` lists (its `index`); -1 = the default reading (the
    /// strongest that beats the table). Returns `OK` or an `ERR_*` code.
    #[func]
    pub fn play(&mut self, card_ids: PackedInt32Array, #[opt(default = -1)] reading: i64) -> i64 {
        let r = self.local_seat_checked().and_then(|(s, seat)| {
            let set =
                args::card_set(card_ids.as_slice()).map_err(|e| Fail::new(codes::ERR_INVALID_CARDS, e.to_string()))?;
            let pattern = match reading {
                -1 => None,
                r => {
                    let readings = classify(set, s.m.level(), s.m.rules());
                    let Some(p) = usize::try_from(r).ok().and_then(|i| readings.get(i)) else {
                        return Err(Fail::bad_argument(format!(
                            "reading {r} is out of range: the selection has {} reading(s) (-1 = default)",
                            readings.len()
                        )));
                    };
                    Some(p.pattern)
                }
            };
            Ok((seat, ActionKind::Play { cards: set.ids(), reading: pattern }))
        });
        let r = r.and_then(|(seat, kind)| self.apply_action(seat, kind));
        self.finish("play", r)
    }

    /// Passes (only when following). Returns `OK` or an `ERR_*` code.
    #[func]
    pub fn pass_turn(&mut self) -> i64 {
        let r = self.local_seat().and_then(|seat| self.apply_action(seat, ActionKind::Pass));
        self.finish("pass_turn", r)
    }

    /// Gives this card as tribute (one of `get_tribute_options()`). Returns `OK` or an `ERR_*` code.
    #[func]
    pub fn give_tribute(&mut self, card_id: i64) -> i64 {
        let r = self.local_seat().and_then(|seat| {
            let card = checked_card(card_id)?;
            self.apply_action(seat, ActionKind::Tribute { card })
        });
        self.finish("give_tribute", r)
    }

    /// Returns this card to the tribute payer (one of `get_return_options()`). Returns `OK` or an `ERR_*` code.
    #[func]
    pub fn return_card(&mut self, card_id: i64) -> i64 {
        let r = self.local_seat().and_then(|seat| {
            let card = checked_card(card_id)?;
            self.apply_action(seat, ActionKind::Return { card })
        });
        self.finish("return_card", r)
    }

    /// Proposes that the local player's team surrenders. The partner and both opponents must
    /// accept; AI seats accept at once. Returns `OK` or an `ERR_*` code.
    #[func]
    pub fn propose_surrender(&mut self) -> i64 {
        let r = self.local_seat().and_then(|seat| self.apply_action(seat, ActionKind::ProposeSurrender));
        self.finish("propose_surrender", r)
    }

    /// Votes on the open surrender proposal. Returns `OK` or an `ERR_*` code.
    #[func]
    pub fn surrender_vote(&mut self, accept: bool) -> i64 {
        let r = self.local_seat().and_then(|seat| self.apply_action(seat, ActionKind::SurrenderVote { accept }));
        self.finish("surrender_vote", r)
    }

    // ----- state (always the latest; the local player's view) -----

    /// Whether a match is loaded (running or over).
    #[func]
    pub fn has_match(&self) -> bool {
        self.session.is_some()
    }

    /// The match seed as passed to `start_match`; 0 without a match.
    #[func]
    pub fn get_seed(&self) -> i64 {
        self.session.as_ref().map_or(0, |s| args::seed_to_int(s.m.seed()))
    }

    /// A new `GuandanRules` holding the match's rules (null without a match).
    #[func]
    pub fn get_rules(&self) -> Option<Gd<GuandanRules>> {
        self.session.as_ref().map(|s| GuandanRules::from_config(s.m.rules()))
    }

    /// `PHASE_NONE`, `PHASE_TRIBUTE`, `PHASE_RETURN`, `PHASE_PLAY` or `PHASE_MATCH_OVER`.
    #[func]
    pub fn get_phase(&self) -> i64 {
        self.session.as_ref().map_or(convert::PHASE_NONE, |s| convert::phase_int(s.m.phase()))
    }

    /// The current deal, counted from 0.
    #[func]
    pub fn get_deal_number(&self) -> i64 {
        self.session.as_ref().map_or(0, |s| i64::from(s.m.deal_no()))
    }

    /// The rank being played this deal (2–14; A = 14); its hearts are wild.
    #[func]
    pub fn get_level(&self) -> i64 {
        self.session.as_ref().map_or(0, |s| i64::from(s.m.level().0))
    }

    /// The two teams' levels (team 0 = seats 0 and 2, team 1 = seats 1 and 3).
    #[func]
    pub fn get_team_levels(&self) -> PackedInt32Array {
        self.session.as_ref().map_or_else(PackedInt32Array::new, |s| {
            PackedInt32Array::from(&[i32::from(s.m.team_levels()[0].0), i32::from(s.m.team_levels()[1].0)])
        })
    }

    /// The team whose level is played (-1 in the first deal).
    #[func]
    pub fn get_declarer(&self) -> i64 {
        self.session.as_ref().map_or(-1, |s| opt_seat(s.m.declarer().map(u8::from)))
    }

    /// The team of a seat (0 or 1); -1 for a bad seat.
    #[func]
    pub fn get_team_of(&self, seat: i64) -> i64 {
        if (0..4).contains(&seat) { seat % 2 } else { -1 }
    }

    /// The seat the engine acts for (the first human seat); -1 when every seat is an AI.
    #[func]
    pub fn get_local_seat(&self) -> i64 {
        self.session.as_ref().map_or(-1, |s| opt_seat(s.local))
    }

    /// Whether `seat` is played by a human.
    #[func]
    pub fn is_human(&self, seat: i64) -> bool {
        self.session.as_ref().is_some_and(|s| (0..4).contains(&seat) && !s.is_ai(seat as Seat))
    }

    /// The seat to play in the play phase; -1 otherwise.
    #[func]
    pub fn get_turn(&self) -> i64 {
        match &self.session {
            Some(s) if s.m.phase() == Phase::Play => i64::from(s.m.turn()),
            _ => -1,
        }
    }

    /// Seats that must act now (the turn, or the seats owing tribute/return).
    #[func]
    pub fn get_to_act(&self) -> PackedInt32Array {
        self.session.as_ref().map_or_else(PackedInt32Array::new, |s| seats(&s.m.to_act()))
    }

    /// Whether the local player must act now.
    #[func]
    pub fn is_local_turn(&self) -> bool {
        self.session.as_ref().is_some_and(|s| s.local.is_some_and(|l| s.m.to_act().contains(&l)))
    }

    /// Whether the seat to play may pass (someone else's play is on the table).
    #[func]
    pub fn can_pass(&self) -> bool {
        self.session.as_ref().is_some_and(|s| s.m.can_pass())
    }

    /// The local player's hand (card ids, increasing); empty for a spectator.
    #[func]
    pub fn get_hand(&self) -> PackedInt32Array {
        match &self.session {
            Some(Session { local: Some(l), m, .. }) => ids(m.hands()[*l as usize]),
            _ => PackedInt32Array::new(),
        }
    }

    /// Any seat's hand, when the local player may see it: their own, every hand when no human
    /// plays (spectator of an AI match) or once the match is over. Otherwise empty and a warning.
    #[func]
    pub fn get_seat_hand(&self, seat: i64) -> PackedInt32Array {
        let Some(s) = &self.session else { return PackedInt32Array::new() };
        if !(0..4).contains(&seat) {
            godot_warn!("GuandanEngine.get_seat_hand: seat {seat} is not 0..3");
            return PackedInt32Array::new();
        }
        if !s.may_see_hand(seat as Seat) {
            godot_warn!("GuandanEngine.get_seat_hand: seat {seat}'s hand is hidden from the local player");
            return PackedInt32Array::new();
        }
        ids(s.m.hands()[seat as usize])
    }

    /// Cards held by each seat.
    #[func]
    pub fn get_card_counts(&self) -> PackedInt32Array {
        self.session
            .as_ref()
            .map_or_else(PackedInt32Array::new, |s| s.m.hands().iter().map(|h| h.len() as i32).collect())
    }

    /// The play to beat: `{}` when the table is empty, else `{seat, play}`.
    #[func]
    pub fn get_table(&self) -> VarDictionary {
        self.session.as_ref().map_or_else(VarDictionary::new, |s| convert::table_dict(s.m.table()))
    }

    /// Seats that went out this deal, in order.
    #[func]
    pub fn get_finishing_order(&self) -> PackedInt32Array {
        self.session.as_ref().map_or_else(PackedInt32Array::new, |s| seats(s.m.finished()))
    }

    /// The finishing order of the previous deal (empty in the first).
    #[func]
    pub fn get_last_deal_order(&self) -> PackedInt32Array {
        self.session.as_ref().and_then(|s| s.m.last_order()).map_or_else(PackedInt32Array::new, |o| seats(&o))
    }

    /// This deal's plays and passes: `[{seat, pass, play}]`.
    #[func]
    pub fn get_history(&self) -> Array<VarDictionary> {
        self.session.as_ref().map_or_else(Array::new, |s| s.m.history().iter().map(convert::turn_dict).collect())
    }

    /// Cards played so far this deal.
    #[func]
    pub fn get_played_cards(&self) -> PackedInt32Array {
        self.session.as_ref().map_or_else(PackedInt32Array::new, |s| ids(s.m.played()))
    }

    /// The ids of this deal's wild cards (hearts of the level rank, as many as the rules allow).
    #[func]
    pub fn get_wild_cards(&self) -> PackedInt32Array {
        self.session.as_ref().map_or_else(PackedInt32Array::new, |s| ids(s.m.wilds()))
    }

    /// Cards the local player may give as tribute now (empty when nothing is owed).
    #[func]
    pub fn get_tribute_options(&self) -> PackedInt32Array {
        self.local_view().map_or_else(PackedInt32Array::new, |v| ids(v.tribute_options))
    }

    /// Cards the local player may return now (empty when nothing is owed).
    #[func]
    pub fn get_return_options(&self) -> PackedInt32Array {
        self.local_view().map_or_else(PackedInt32Array::new, |v| ids(v.return_options))
    }

    /// This deal's tributes as the local player may see them: `[{from, to, card, returned}]`
    /// (`to` -1 until routed, cards -1 when hidden or not yet given).
    #[func]
    pub fn get_tributes(&self) -> Array<VarDictionary> {
        let Some(s) = &self.session else { return Array::new() };
        let all = s.omniscient();
        s.m.view(s.local)
            .tributes
            .iter()
            .zip(s.m.tributes())
            .map(|(seen, real)| {
                let (card, returned) = if all { (real.card, real.returned) } else { (seen.card, seen.returned) };
                vdict! {
                    "from" => i64::from(seen.from),
                    "to" => opt_seat(seen.to),
                    "card" => convert::opt_card(card),
                    "returned" => convert::opt_card(returned),
                }
            })
            .collect()
    }

    /// The open surrender proposal: `{}` or `{team, proposer, accepted: PackedInt32Array}`.
    #[func]
    pub fn get_surrender(&self) -> VarDictionary {
        match self.session.as_ref().and_then(|s| s.m.surrender()) {
            None => VarDictionary::new(),
            Some(v) => {
                let accepted: Vec<Seat> = (0..4u8).filter(|b| v.accepted & (1 << b) != 0).collect();
                vdict! { "team" => i64::from(u8::from(v.team)), "proposer" => i64::from(v.proposer), "accepted" => &seats(&accepted) }
            }
        }
    }

    /// Whether the match is over.
    #[func]
    pub fn is_match_over(&self) -> bool {
        self.session.as_ref().is_some_and(|s| s.m.is_over())
    }

    /// The winning team once the match is over (0/1); -1 before, or for a draw.
    #[func]
    pub fn get_winner_team(&self) -> i64 {
        self.session.as_ref().and_then(|s| s.m.outcome()?.winner()).map_or(-1, |t| i64::from(u8::from(t)))
    }

    /// `ace_won`, `surrender` or `time_up` once the match is over; `""` before.
    #[func]
    pub fn get_end_reason(&self) -> GString {
        GString::from(self.session.as_ref().and_then(|s| s.m.outcome()).map_or("", |o| reason_name(o.reason())))
    }

    /// The whole state in one dictionary (see "Data shapes"), hands as the local player may see them.
    #[func]
    pub fn get_state(&self) -> VarDictionary {
        match &self.session {
            None => VarDictionary::new(),
            Some(s) => convert::state_dict(&s.m, |seat| s.may_see_hand(seat)),
        }
    }

    /// SHA-256 of the complete state (hex); equal hashes mean equal matches.
    #[func]
    pub fn get_state_hash(&self) -> GString {
        GString::from(self.session.as_ref().map(|s| s.m.state_hash()).unwrap_or_default().as_str())
    }

    /// Actions applied so far in this match.
    #[func]
    pub fn get_action_count(&self) -> i64 {
        self.session.as_ref().map_or(0, |s| s.log.actions.len() as i64)
    }

    /// The match's action log (JSON Lines, the format `ReplayRecorder` saves).
    #[func]
    pub fn get_log_text(&self) -> GString {
        GString::from(self.session.as_ref().map(|s| s.log.to_jsonl()).unwrap_or_default().as_str())
    }

    /// Seconds left for the local player's current duty; -1 when no clock runs for it.
    #[func]
    pub fn get_time_left(&self) -> f64 {
        let Some(s) = &self.session else { return -1.0 };
        let limit = f64::from(s.m.rules().turn_time_limit_s);
        let duty = s.local.is_some_and(|l| s.m.to_act().contains(&l));
        if !self.use_turn_timer || limit <= 0.0 || !duty {
            return -1.0;
        }
        let used = if self.clock_seq == s.m.seq() { self.turn_clock } else { 0.0 };
        (limit - used).max(0.0)
    }

    /// Whether an AI seat is thinking (or its answer waits for `ai_min_think_ms`).
    #[func]
    pub fn is_ai_thinking(&self) -> bool {
        self.pending.is_some() || self.ready.is_some()
    }

    /// The message of the last failed call.
    #[func]
    pub fn get_last_error(&self) -> GString {
        GString::from(self.last_error.as_str())
    }

    /// Restores a recorded match at the recorder's current position and plays on from there
    /// with these seats (as in `start_match`). Returns `OK`, `ERR_NO_RECORD` or `ERR_BAD_ARGUMENT`.
    #[func]
    pub fn resume_from(&mut self, recorder: Option<Gd<crate::replay::ReplayRecorder>>, seats: VarArray) -> i64 {
        let r = (|| {
            let recorder = recorder.ok_or_else(|| Fail::bad_argument("recorder is null"))?;
            let seat_profiles = parse_seats(&seats)?;
            let (log, state) = recorder.bind().snapshot()?;
            Ok((log, state, seat_profiles))
        })();
        let r = r.map(|(log, state, seat_profiles)| {
            self.discard_match();
            let session = Session::resume(log, state, seat_profiles);
            let m = &session.m;
            let mut outs = vec![
                Out::MatchStarted { seed: m.seed(), local: session.local },
                Out::DealStarted { deal_no: m.deal_no(), level: m.level(), declarer: m.declarer().map(u8::from) },
            ];
            if let Some(l) = session.local {
                outs.push(Out::HandChanged { hand: m.hands()[l as usize] });
            }
            if m.phase() == Phase::Play {
                let limit = if session.is_ai(m.turn()) { 0.0 } else { self.turn_limit_for(m.rules()) };
                outs.push(Out::TurnStarted { seat: m.turn(), can_pass: m.can_pass(), time_limit: limit });
            }
            self.session = Some(session);
            self.queue.extend(outs);
            self.after_change();
        });
        self.finish("resume_from", r)
    }

    // ----- misc -----

    /// Deals the two decks for a match seed: four `PackedInt32Array` hands (seat 0..3), 27 card
    /// ids each, increasing. Any int is a valid seed (negative ones are read as their `u64` bits);
    /// the same seed always gives the same deal, on every platform.
    #[func]
    pub fn deal(&self, seed: i64) -> Array<PackedInt32Array> {
        deal_for_seed(args::seed_from_int(seed)).iter().map(|hand| ids(*hand)).collect()
    }

    /// The version of the Rust crates, for about screens and bug reports.
    #[func]
    pub fn version(&self) -> GString {
        GString::from(env!("CARGO_PKG_VERSION"))
    }

    /// AI worker services alive in this process (one per engine with AI work); for leak tests.
    #[func]
    pub fn live_ai_services() -> i64 {
        LIVE_SERVICES.load(Ordering::SeqCst)
    }

    /// Threads of this process (Linux: /proc/self/task), -1 where unknown; for leak tests.
    #[func]
    pub fn os_thread_count() -> i64 {
        std::fs::read_dir("/proc/self/task").map_or(-1, |d| d.count() as i64)
    }

    #[func]
    fn set_ai_hard_limit_ms(&mut self, ms: i64) {
        self.ai_hard_limit_ms = ms.clamp(0, MAX_AI_DECISION_MS as i64);
        // The limit is fixed per service: start a new one.
        self.pending = None;
        self.ready = None;
        self.service = None;
    }
}

// ----- internals -----

fn checked_card(id: i64) -> Result<CardId, Fail> {
    args::card_id(id).ok_or_else(|| Fail::new(codes::ERR_INVALID_CARDS, format!("card id {id} is not in 0..107")))
}

fn parse_rules(rules: Option<Gd<GuandanRules>>) -> Result<RuleConfig, Fail> {
    match rules {
        None => Ok(RuleConfig::competition()),
        Some(r) => r.bind().config(),
    }
}

/// Four seats: `null`/`"human"` = human, 1–3 = AI level, `AiProfile` = AI.
pub(crate) fn parse_seats(seats: &VarArray) -> Result<[Option<AiProfile>; 4], Fail> {
    if seats.len() != 4 {
        return Err(Fail::bad_argument(format!("seats must have 4 entries, got {}", seats.len())));
    }
    let mut out: [Option<AiProfile>; 4] = Default::default();
    for (i, v) in seats.iter_shared().enumerate() {
        out[i] = parse_seat(&v).map_err(|e| Fail::bad_argument(format!("seat {i}: {e}")))?;
    }
    Ok(out)
}

fn parse_seat(v: &Variant) -> Result<Option<AiProfile>, String> {
    if v.is_nil() {
        return Ok(None);
    }
    if let Ok(text) = v.try_to::<GString>() {
        return if text == "human" { Ok(None) } else { Err(format!("unknown seat kind {text:?}")) };
    }
    if let Ok(level) = v.try_to::<i64>() {
        return match level {
            1 => Ok(Some(AiProfile::level(guandan_ai::AiLevel::L1))),
            2 => Ok(Some(AiProfile::level(guandan_ai::AiLevel::L2))),
            3 => Ok(Some(AiProfile::level(guandan_ai::AiLevel::L3))),
            other => Err(format!("AI level {other} is not 1, 2 or 3")),
        };
    }
    if let Ok(profile) = v.try_to::<Gd<AiProfileRes>>() {
        return profile.bind().profile().map(Some).map_err(|f| f.message);
    }
    Err(format!("expected null, \"human\", 1-3 or an AiProfile, got {}", v.get_type().ord()))
}

impl GuandanEngine {
    pub(crate) fn session(&self) -> Option<&Session> {
        self.session.as_ref()
    }

    pub(crate) fn trace(&self, seat: Seat) -> Option<&Trace> {
        self.traces.get(seat as usize)?.as_ref()
    }

    fn local_view(&self) -> Option<guandan_core::view::PlayerView> {
        let s = self.session.as_ref()?;
        Some(s.m.view(Some(s.local?)))
    }

    fn local_seat_checked(&self) -> Result<(&Session, Seat), Fail> {
        let s = self.session.as_ref().ok_or_else(|| Fail::new(codes::ERR_NO_MATCH, "no match is running"))?;
        let seat = s.local.ok_or_else(|| Fail::new(codes::ERR_NOT_HUMAN, "every seat is played by the AI"))?;
        Ok((s, seat))
    }

    fn local_seat(&self) -> Result<Seat, Fail> {
        self.local_seat_checked().map(|(_, seat)| seat)
    }

    fn turn_limit_for(&self, rules: &RuleConfig) -> f64 {
        if self.use_turn_timer { f64::from(rules.turn_time_limit_s) } else { 0.0 }
    }

    /// Drops the match and everything in flight for it.
    fn discard_match(&mut self) {
        self.generation += 1;
        if let Some(svc) = &self.service {
            svc.0.set_generation(self.generation);
            svc.0.cancel_all();
        }
        self.session = None;
        self.pending = None;
        self.ready = None;
        self.queue.clear();
        self.traces = Default::default();
        self.turn_clock = 0.0;
        self.match_clock = 0.0;
        self.clock_seq = 0;
    }

    /// Applies an action for `seat` and queues its signals, then lets AI seats react.
    fn apply_action(&mut self, seat: Seat, kind: ActionKind) -> Result<(), Fail> {
        let Some(s) = self.session.as_ref() else {
            return Err(Fail::new(codes::ERR_NO_MATCH, "no match is running"));
        };
        let limit = self.turn_limit_for(s.m.rules());
        let vote = matches!(kind, ActionKind::SurrenderVote { accept: true });
        let s = self.session.as_mut().ok_or_else(|| Fail::new(codes::ERR_NO_MATCH, "no match is running"))?;
        let outs = s.apply(seat, kind, limit)?;
        if vote {
            self.queue.push_back(Out::SurrenderVoted { seat, accept: true });
        }
        self.queue.extend(outs);
        self.after_change();
        Ok(())
    }

    /// After any change: AI votes on a surrender, drop AI work for an older state, ask the next AI.
    fn after_change(&mut self) {
        while let Some(seat) = self.session.as_ref().and_then(|s| s.pending_ai_votes().first().copied()) {
            if self.apply_action(seat, ActionKind::SurrenderVote { accept: true }).is_err() {
                break;
            }
        }
        let seq = self.session.as_ref().map(|s| s.m.seq());
        if let Some(p) = &self.pending
            && Some(p.seq) != seq
        {
            if let Some(svc) = &self.service {
                svc.0.cancel(p.id);
            }
            self.pending = None;
        }
        if self.ready.as_ref().is_some_and(|r| Some(r.result.seq) != seq) {
            self.ready = None;
        }
        if !self.paused {
            self.schedule_ai();
        }
    }

    /// Posts a request for the next AI seat to act, if none is in flight.
    fn schedule_ai(&mut self) {
        if self.pending.is_some() || self.ready.is_some() || !self.base().is_inside_tree() {
            return;
        }
        let Some(s) = &self.session else { return };
        let Some(seat) = s.next_ai_seat() else { return };
        let Some(req) = s.ai_request(seat, self.generation) else { return };
        let seq = s.m.seq();
        let limit = self.ai_hard_limit_ms.clamp(0, MAX_AI_DECISION_MS as i64) as u64;
        let generation = self.generation;
        let svc = self.service.get_or_insert_with(|| Service::new(limit));
        svc.0.set_generation(generation);
        let id = svc.0.submit(req);
        self.pending = Some(PendingAi { id, seat, seq, submitted: Instant::now() });
        self.queue.push_back(Out::AiThinking { seat });
    }

    /// Moves a finished decision for the current state into `ready`.
    fn collect_results(&mut self) {
        let Some(svc) = &self.service else { return };
        let seq = self.session.as_ref().map(|s| s.m.seq());
        let min_think = Duration::from_millis(self.ai_min_think_ms.clamp(0, 60_000) as u64);
        for result in svc.0.poll() {
            let Some(p) = &self.pending else { continue };
            if p.id != result.id {
                continue;
            }
            let at = p.submitted + min_think;
            debug_assert_eq!(p.seat, result.seat);
            if Some(result.seq) == seq && result.generation == self.generation {
                self.ready = Some(ReadyAi { result, at });
            }
            self.pending = None;
        }
    }

    /// Applies the ready AI decision once its time has come; true if an action was applied.
    fn apply_ready(&mut self) -> bool {
        if self.ready.as_ref().is_none_or(|r| Instant::now() < r.at) {
            return false;
        }
        let Some(ReadyAi { result, .. }) = self.ready.take() else { return false };
        let Some(s) = &self.session else { return false };
        let seat = result.seat;
        if result.seq != s.m.seq() || !s.is_ai(seat) || !s.m.to_act().contains(&seat) {
            return false;
        }
        let view = s.m.view(Some(seat));
        if let Some(trace) = result.decision.trace {
            self.traces[seat as usize] = Some(trace);
        }
        self.queue.push_back(Out::AiDecided {
            seat,
            elapsed_ms: result.elapsed.as_secs_f64() * 1000.0,
            fell_back: result.fell_back,
        });
        if let Err(f) = self.apply_action(seat, result.decision.action) {
            // A broken AI must not stall the table: fall back to the easy choice, then to the
            // timeout action, which is always legal for a seat that must act.
            godot_error!("GuandanEngine: AI seat {seat} chose an illegal action (code {}); using a fallback", f.code);
            self.queue.push_back(Out::Error { code: f.code, message: format!("AI seat {seat}: {}", f.message) });
            let easy = guandan_ai::l1::l1_decision(&view).action;
            if self.apply_action(seat, easy).is_err() && self.apply_action(seat, ActionKind::Timeout).is_err() {
                return false;
            }
        }
        true
    }

    /// AI turns for up to `ai_frame_budget_ms`, emitting signals after each action.
    fn run_ai(&mut self) {
        let budget = Duration::from_secs_f64(self.ai_frame_budget_ms.clamp(0.0, 1000.0) / 1000.0);
        let start = Instant::now();
        loop {
            if self.session.is_none() || self.paused {
                break;
            }
            self.schedule_ai();
            self.collect_results();
            if self.apply_ready() {
                self.flush();
                if start.elapsed() >= budget {
                    break;
                }
                continue;
            }
            // Nothing in flight (a human must act, or the match is over), or waiting for the
            // minimum think time, or out of budget: next frame.
            if self.pending.is_none() || self.ready.is_some() || start.elapsed() >= budget {
                break;
            }
            std::thread::sleep(Duration::from_micros(100));
        }
    }

    fn tick_clocks(&mut self, delta: f64) {
        if !self.use_turn_timer || !delta.is_finite() || delta < 0.0 {
            return;
        }
        let Some(s) = &self.session else { return };
        if s.m.is_over() {
            return;
        }
        let minutes = s.m.rules().max_match_minutes;
        self.match_clock += delta;
        if minutes > 0 && self.match_clock >= f64::from(minutes) * 60.0 {
            let _ = self.apply_action(0, ActionKind::TimeUp);
            return;
        }
        if self.clock_seq != s.m.seq() {
            self.clock_seq = s.m.seq();
            self.turn_clock = 0.0;
        }
        let limit = f64::from(s.m.rules().turn_time_limit_s);
        let Some(&seat) = s.human_duties().first() else { return };
        self.turn_clock += delta;
        if limit > 0.0 && self.turn_clock >= limit {
            self.queue.push_back(Out::TimedOut { seat });
            if let Err(f) = self.apply_action(seat, ActionKind::Timeout) {
                godot_error!("GuandanEngine: timeout for seat {seat} failed (code {})", f.code);
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
                godot_warn!("GuandanEngine.{what}: rejected with code {} ({})", f.code, codes::describe(f.code));
                if Os::singleton().is_stdout_verbose() {
                    godot_print!("[DEBUG] GuandanEngine.{what}: {}", f.message);
                }
                self.last_error = f.message.clone();
                self.queue.push_back(Out::Error { code: f.code, message: f.message });
                f.code
            }
        };
        self.flush();
        code
    }

    /// Emits queued signals in order. Not re-entered: a call made by a handler queues behind.
    fn flush(&mut self) {
        if self.flushing {
            return;
        }
        self.flushing = true;
        while let Some(out) = self.queue.pop_front() {
            self.emit(out);
        }
        self.flushing = false;
    }

    fn emit(&mut self, out: Out) {
        let mut sig = self.signals();
        match out {
            Out::MatchStarted { seed, local } => sig.match_started().emit(args::seed_to_int(seed), opt_seat(local)),
            Out::DealStarted { deal_no, level, declarer } => {
                sig.deal_started().emit(i64::from(deal_no), i64::from(level.0), opt_seat(declarer))
            }
            Out::HandChanged { hand } => sig.hand_changed().emit(&ids(hand)),
            Out::TributePhase { payers, resisted } => sig.tribute_phase().emit(&seats(&payers), resisted),
            Out::TributeGiven { from, to, card } => {
                sig.tribute_given().emit(i64::from(from), i64::from(to), convert::opt_card(card))
            }
            Out::ReturnPhase { receivers } => sig.return_phase().emit(&seats(&receivers)),
            Out::ReturnGiven { from, to, card } => {
                sig.card_returned().emit(i64::from(from), i64::from(to), convert::opt_card(card))
            }
            Out::TurnStarted { seat, can_pass, time_limit } => {
                sig.turn_started().emit(i64::from(seat), can_pass, time_limit)
            }
            Out::CardsPlayed { seat, play } => sig.cards_played().emit(i64::from(seat), &play_dict(&play)),
            Out::Passed { seat } => sig.passed().emit(i64::from(seat)),
            Out::TableCleared { leader } => sig.table_cleared().emit(i64::from(leader)),
            Out::PartnerTakesLead { seat } => sig.partner_takes_lead().emit(i64::from(seat)),
            Out::CardsLeft { seat, count } => sig.cards_left().emit(i64::from(seat), i64::from(count)),
            Out::PlayerFinished { seat, place } => sig.player_finished().emit(i64::from(seat), i64::from(place)),
            Out::DealEnded { order, winner_team, levels_before, levels_after } => sig
                .deal_ended()
                .emit(&seats(&order), &convert::level_changes(winner_team, &levels_before, &levels_after)),
            Out::SurrenderProposed { seat } => sig.surrender_proposed().emit(i64::from(seat)),
            Out::SurrenderVoted { seat, accept } => sig.surrender_voted().emit(i64::from(seat), accept),
            Out::MatchEnded { winner_team, reason } => {
                sig.match_ended().emit(opt_seat(winner_team), &GString::from(reason_name(reason)))
            }
            Out::AiThinking { seat } => sig.ai_thinking().emit(i64::from(seat)),
            Out::AiDecided { seat, elapsed_ms, fell_back } => {
                sig.ai_decided().emit(i64::from(seat), elapsed_ms, fell_back)
            }
            Out::TimedOut { seat } => sig.turn_timed_out().emit(i64::from(seat)),
            Out::Error { code, message } => sig.error().emit(code, &GString::from(message.as_str())),
        }
    }
}

/// For `ReplayRecorder::snapshot`: a log cut at `n` actions with its checkpoints.
pub(crate) fn truncated_log(log: &MatchLog, n: usize) -> MatchLog {
    MatchLog {
        header: log.header.clone(),
        actions: log.actions[..n.min(log.actions.len())].to_vec(),
        checkpoints: log.checkpoints.iter().filter(|c| c.checkpoint as usize <= n).cloned().collect(),
    }
}
