//! Rust values → the dictionaries and packed arrays GDScript receives. One shape per kind of
//! value, documented in docs/godot-api.md ("Data shapes"); every class uses these functions.

use godot::prelude::*;
use guandan_ai::agent::{Candidate, Trace};
use guandan_core::card::{CardId, CardSet};
use guandan_core::combo::{Play, wild_set};
use guandan_core::event::Outcome;
use guandan_core::game::{Phase, Seat, Turn};
use guandan_core::view::PlayerView;

use crate::forward::Emit;
pub use crate::packing::{ids, name_key};
use guandan_runtime::Out;

pub const PHASE_NONE: i64 = 0;
pub const PHASE_TRIBUTE: i64 = 1;
pub const PHASE_RETURN: i64 = 2;
pub const PHASE_PLAY: i64 = 3;
pub const PHASE_MATCH_OVER: i64 = 4;

pub fn phase_int(p: Phase) -> i64 {
    match p {
        Phase::Tribute => PHASE_TRIBUTE,
        Phase::Return => PHASE_RETURN,
        Phase::Play => PHASE_PLAY,
        Phase::MatchOver => PHASE_MATCH_OVER,
    }
}

pub fn phase_name(p: Phase) -> &'static str {
    match p {
        Phase::Tribute => "tribute",
        Phase::Return => "return",
        Phase::Play => "play",
        Phase::MatchOver => "match_over",
    }
}

pub fn seats(seats: &[Seat]) -> PackedInt32Array {
    seats.iter().map(|&s| i32::from(s)).collect()
}

pub fn opt_seat(s: Option<u8>) -> i64 {
    s.map_or(-1, i64::from)
}

pub fn opt_card(c: Option<CardId>) -> i64 {
    c.map_or(-1, i64::from)
}

/// A play as its Godot object (`Play`).
pub fn play_obj(p: &Play) -> Gd<crate::values::Play> {
    crate::values::Play::make(p)
}

pub fn plays_array(plays: &[Play]) -> Array<Gd<crate::values::Play>> {
    plays.iter().map(play_obj).collect()
}

/// A history entry: `{seat, pass, play}` (`play` is a `Play`, null for a pass).
pub fn turn_dict(t: &Turn) -> VarDictionary {
    vdict! {
        "seat" => i64::from(t.seat),
        "pass" => t.play.is_none(),
        "play" => &crate::values::Play::variant(t.play.as_ref()),
    }
}

/// The table: `{}` when empty, else `{seat, play}`.
pub fn table_dict(table: Option<&(Seat, Play)>) -> VarDictionary {
    match table {
        None => VarDictionary::new(),
        Some((seat, play)) => vdict! { "seat" => i64::from(*seat), "play" => &play_obj(play) },
    }
}

/// A whole match state from a viewer's view (without the deal's history: see `get_history`).
/// `hand(seat)` gives the hands the viewer may see (others are empty arrays; the counts are
/// always there); `outcome` how a finished match ended.
pub fn state_dict(v: &PlayerView, hand: impl Fn(Seat) -> Option<CardSet>, outcome: Option<Outcome>) -> VarDictionary {
    let hands: Array<PackedInt32Array> = (0..4u8).map(|s| hand(s).map(ids).unwrap_or_default()).collect();
    vdict! {
        "seq" => v.seq as i64,
        "deal_no" => i64::from(v.deal_no),
        "phase" => phase_int(v.phase),
        "phase_name" => phase_name(v.phase),
        "level" => i64::from(v.level.0),
        "team_levels" => &team_levels(v),
        "declarer" => opt_seat(v.declarer.map(u8::from)),
        "turn" => if v.phase == Phase::Play { i64::from(v.turn) } else { -1 },
        "to_act" => &seats(&v.to_act),
        "can_pass" => v.can_pass(),
        "table" => &table_dict(v.table.as_ref()),
        "card_counts" => &v.card_counts.iter().map(|&c| i32::from(c)).collect::<PackedInt32Array>(),
        "hands" => &hands,
        "finished" => &seats(&v.finished),
        "last_order" => &v.last_order.map(|o| seats(&o)).unwrap_or_default(),
        "history_length" => v.history.len() as i64,
        "played" => &ids(v.played),
        "wilds" => &ids(wild_set(v.level, &v.rules)),
        "over" => v.phase == Phase::MatchOver,
        "winner_team" => outcome.and_then(|o| o.winner()).map_or(-1, |t| i64::from(u8::from(t))),
        "end_reason" => outcome.map_or("", |o| o.reason().name()),
    }
}

/// The two teams' levels `[team 0, team 1]`.
pub fn team_levels(v: &PlayerView) -> PackedInt32Array {
    PackedInt32Array::from(&[i32::from(v.team_levels[0].0), i32::from(v.team_levels[1].0)])
}

/// One AI candidate: `{pass, play, card, score, hand, partner, threat, search}`.
pub fn candidate_dict(c: &Candidate) -> VarDictionary {
    vdict! {
        "pass" => c.play.is_none() && c.card.is_none(),
        "play" => &crate::values::Play::variant(c.play.as_ref()),
        "card" => opt_card(c.card),
        "score" => f64::from(c.score),
        "hand" => f64::from(c.hand),
        "partner" => f64::from(c.partner),
        "threat" => f64::from(c.threat),
        "search" => c.search.map_or(f64::NAN, f64::from),
    }
}

/// An AI decision trace: `{agent, reason, reason_args, playouts, fell_back, candidates}`.
pub fn trace_dict(t: &Trace) -> VarDictionary {
    let args: PackedStringArray = t.reason_args.iter().map(|a| GString::from(a.as_str())).collect();
    let cands: Array<VarDictionary> = t.candidates.iter().map(candidate_dict).collect();
    vdict! {
        "agent" => t.agent.as_str(),
        "reason" => t.reason.as_str(),
        "reason_args" => &args,
        "playouts" => i64::from(t.playouts),
        "fell_back" => t.fell_back,
        "candidates" => &cands,
    }
}

/// The signal an [`Emit`] becomes, and its arguments by name: `{signal, ...}`. The replay
/// recorder hands these out for each step; the engine emits the same names and arguments as
/// signals. `None` for what the engine does not emit.
pub fn signal_dict(e: &Emit) -> Option<VarDictionary> {
    let mut d = VarDictionary::new();
    let mut set = |k: &str, v: Variant| {
        d.set(k, &v);
    };
    let out = match e {
        Emit::MatchStarted { seed, local } => {
            set("signal", "match_started".to_variant());
            set("seed", crate::args::seed_to_int(*seed).to_variant());
            set("local_seat", opt_seat(*local).to_variant());
            return Some(d);
        }
        Emit::ViewerChanged { seat } => {
            set("signal", "viewer_changed".to_variant());
            set("seat", i64::from(*seat).to_variant());
            return Some(d);
        }
        Emit::AiThinking { seat } => {
            set("signal", "ai_thinking".to_variant());
            set("seat", i64::from(*seat).to_variant());
            return Some(d);
        }
        Emit::Error { code, message } => {
            set("signal", "error".to_variant());
            set("code", code.to_variant());
            set("message", message.as_str().to_variant());
            return Some(d);
        }
        Emit::Crashed { message, report } => {
            set("signal", "crashed".to_variant());
            set("message", message.as_str().to_variant());
            set("report", report.as_str().to_variant());
            return Some(d);
        }
        Emit::Runtime(out) => out,
        Emit::Restoring(_) => return None,
    };
    match out {
        Out::MatchStarted { .. } => return None,
        Out::ControllerChanged { seat, ai } => {
            set("signal", "controller_changed".to_variant());
            set("seat", i64::from(*seat).to_variant());
            set("ai", ai.to_variant());
        }
        Out::DealStarted { deal_no, level, declarer } => {
            set("signal", "deal_started".to_variant());
            set("deal_no", i64::from(*deal_no).to_variant());
            set("level", i64::from(level.0).to_variant());
            set("declarer", opt_seat(declarer.map(u8::from)).to_variant());
        }
        Out::HandChanged { hand, .. } => {
            set("signal", "hand_changed".to_variant());
            set("hand", ids(*hand).to_variant());
        }
        Out::TributePhase { payers, resisted } => {
            set("signal", "tribute_phase".to_variant());
            set("payers", seats(payers).to_variant());
            set("resisted", resisted.to_variant());
        }
        Out::TributeGiven { from, to, card } => {
            set("signal", "tribute_given".to_variant());
            set("from", i64::from(*from).to_variant());
            set("to", i64::from(*to).to_variant());
            set("card", opt_card(*card).to_variant());
        }
        Out::ReturnPhase { receivers } => {
            set("signal", "return_phase".to_variant());
            set("receivers", seats(receivers).to_variant());
        }
        Out::ReturnGiven { from, to, card } => {
            set("signal", "card_returned".to_variant());
            set("from", i64::from(*from).to_variant());
            set("to", i64::from(*to).to_variant());
            set("card", opt_card(*card).to_variant());
        }
        Out::TurnStarted { seat, can_pass, time_limit_s } => {
            set("signal", "turn_started".to_variant());
            set("seat", i64::from(*seat).to_variant());
            set("can_pass", can_pass.to_variant());
            set("time_limit", time_limit_s.to_variant());
        }
        Out::CardsPlayed { seat, play } => {
            set("signal", "cards_played".to_variant());
            set("seat", i64::from(*seat).to_variant());
            set("play", play_obj(play).to_variant());
        }
        Out::Passed { seat } => {
            set("signal", "passed".to_variant());
            set("seat", i64::from(*seat).to_variant());
        }
        Out::TableCleared { leader } => {
            set("signal", "table_cleared".to_variant());
            set("leader", i64::from(*leader).to_variant());
        }
        Out::PartnerTakesLead { seat } => {
            set("signal", "partner_takes_lead".to_variant());
            set("seat", i64::from(*seat).to_variant());
        }
        Out::CardsLeft { seat, count } => {
            set("signal", "cards_left".to_variant());
            set("seat", i64::from(*seat).to_variant());
            set("count", i64::from(*count).to_variant());
        }
        Out::PlayerFinished { seat, place } => {
            set("signal", "player_finished".to_variant());
            set("seat", i64::from(*seat).to_variant());
            set("place", i64::from(*place).to_variant());
        }
        Out::DealEnded { order, winner, levels_before, levels_after } => {
            set("signal", "deal_ended".to_variant());
            set("order", seats(order).to_variant());
            set("level_changes", level_changes(*winner, levels_before, levels_after).to_variant());
        }
        Out::SurrenderProposed { seat } => {
            set("signal", "surrender_proposed".to_variant());
            set("seat", i64::from(*seat).to_variant());
        }
        Out::SurrenderVoted { seat, accept } => {
            set("signal", "surrender_voted".to_variant());
            set("seat", i64::from(*seat).to_variant());
            set("accept", accept.to_variant());
        }
        Out::MatchEnded { outcome } => {
            set("signal", "match_ended".to_variant());
            set("winner_team", outcome.winner().map_or(-1, |t| i64::from(u8::from(t))).to_variant());
            set("reason", outcome.reason().name().to_variant());
        }
        Out::AiDecided { seat, elapsed_ms, fell_back } => {
            set("signal", "ai_decided".to_variant());
            set("seat", i64::from(*seat).to_variant());
            set("elapsed_ms", elapsed_ms.to_variant());
            set("fell_back", fell_back.to_variant());
        }
        Out::TimedOut { seat } => {
            set("signal", "turn_timed_out".to_variant());
            set("seat", i64::from(*seat).to_variant());
        }
    }
    Some(d)
}

/// The level change of a deal's end as its Godot object (`LevelChange`).
pub fn level_changes(
    winner_team: guandan_core::game::Team,
    before: &[guandan_core::card::Rank; 2],
    after: &[guandan_core::card::Rank; 2],
) -> Gd<crate::values::LevelChange> {
    crate::values::LevelChange::make(winner_team, before, after)
}
