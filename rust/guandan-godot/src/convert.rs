//! Rust values → the dictionaries and packed arrays GDScript receives. One shape per kind of
//! value, documented in docs/godot-api.md ("Data shapes"); every class uses these functions.

use godot::prelude::*;
use guandan_core::card::CardId;
use guandan_core::combo::Play;

use crate::forward::Emit;
pub use crate::packing::{
    PHASE_MATCH_OVER, PHASE_NONE, PHASE_PLAY, PHASE_RETURN, PHASE_TRIBUTE, ids, name_key, opt_seat, phase_int,
    phase_name, seats, team_levels,
};
use crate::values::RecordedSignal;
use guandan_runtime::Out;

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

/// The signal an [`Emit`] becomes, and its arguments in the signal's order. The replay
/// recorder hands these out for each step; the engine emits the same names and arguments as
/// signals. `None` for what the engine does not emit.
pub fn recorded_signal(e: &Emit) -> Option<Gd<RecordedSignal>> {
    let name: &str;
    let mut args = VarArray::new();
    let mut set = |_k: &str, v: Variant| args.push(&v);
    let out = match e {
        Emit::MatchStarted { seed, local } => {
            name = "match_started";
            set("seed", crate::args::seed_to_int(*seed).to_variant());
            set("local_seat", opt_seat(*local).to_variant());
            return Some(RecordedSignal::make(name, args));
        }
        Emit::ViewerChanged { seat } => {
            name = "viewer_changed";
            set("seat", i64::from(*seat).to_variant());
            return Some(RecordedSignal::make(name, args));
        }
        Emit::AiThinking { seat } => {
            name = "ai_thinking";
            set("seat", i64::from(*seat).to_variant());
            return Some(RecordedSignal::make(name, args));
        }
        Emit::Error { code, message } => {
            name = "error";
            set("code", code.to_variant());
            set("message", message.as_str().to_variant());
            return Some(RecordedSignal::make(name, args));
        }
        Emit::Crashed { message, report } => {
            name = "crashed";
            set("message", message.as_str().to_variant());
            set("report", report.as_str().to_variant());
            return Some(RecordedSignal::make(name, args));
        }
        Emit::Runtime(out) => out,
        Emit::Restoring(_) => return None,
    };
    match out {
        Out::MatchStarted { .. } => return None,
        Out::ControllerChanged { seat, ai } => {
            name = "controller_changed";
            set("seat", i64::from(*seat).to_variant());
            set("ai", ai.to_variant());
        }
        Out::DealStarted { deal_no, level, declarer } => {
            name = "deal_started";
            set("deal_no", i64::from(*deal_no).to_variant());
            set("level", i64::from(level.0).to_variant());
            set("declarer", opt_seat(declarer.map(u8::from)).to_variant());
        }
        Out::HandChanged { hand, .. } => {
            name = "hand_changed";
            set("hand", ids(*hand).to_variant());
        }
        Out::TributePhase { payers, resisted } => {
            name = "tribute_phase";
            set("payers", seats(payers).to_variant());
            set("resisted", resisted.to_variant());
        }
        Out::TributeGiven { from, to, card } => {
            name = "tribute_given";
            set("from", i64::from(*from).to_variant());
            set("to", i64::from(*to).to_variant());
            set("card", opt_card(*card).to_variant());
        }
        Out::ReturnPhase { receivers } => {
            name = "return_phase";
            set("receivers", seats(receivers).to_variant());
        }
        Out::ReturnGiven { from, to, card } => {
            name = "card_returned";
            set("from", i64::from(*from).to_variant());
            set("to", i64::from(*to).to_variant());
            set("card", opt_card(*card).to_variant());
        }
        Out::TurnStarted { seat, can_pass, time_limit_s } => {
            name = "turn_started";
            set("seat", i64::from(*seat).to_variant());
            set("can_pass", can_pass.to_variant());
            set("time_limit", time_limit_s.to_variant());
        }
        Out::CardsPlayed { seat, play } => {
            name = "cards_played";
            set("seat", i64::from(*seat).to_variant());
            set("play", play_obj(play).to_variant());
        }
        Out::Passed { seat } => {
            name = "passed";
            set("seat", i64::from(*seat).to_variant());
        }
        Out::TableCleared { leader } => {
            name = "table_cleared";
            set("leader", i64::from(*leader).to_variant());
        }
        Out::PartnerTakesLead { seat } => {
            name = "partner_takes_lead";
            set("seat", i64::from(*seat).to_variant());
        }
        Out::CardsLeft { seat, count } => {
            name = "cards_left";
            set("seat", i64::from(*seat).to_variant());
            set("count", i64::from(*count).to_variant());
        }
        Out::PlayerFinished { seat, place } => {
            name = "player_finished";
            set("seat", i64::from(*seat).to_variant());
            set("place", i64::from(*place).to_variant());
        }
        Out::DealEnded { order, winner, levels_before, levels_after } => {
            name = "deal_ended";
            set("order", seats(order).to_variant());
            set("level_changes", level_changes(*winner, levels_before, levels_after).to_variant());
        }
        Out::SurrenderProposed { seat } => {
            name = "surrender_proposed";
            set("seat", i64::from(*seat).to_variant());
        }
        Out::SurrenderVoted { seat, accept } => {
            name = "surrender_voted";
            set("seat", i64::from(*seat).to_variant());
            set("accept", accept.to_variant());
        }
        Out::MatchEnded { outcome } => {
            name = "match_ended";
            set("winner_team", outcome.winner().map_or(-1, |t| i64::from(u8::from(t))).to_variant());
            set("reason", outcome.reason().name().to_variant());
        }
        Out::AiDecided { seat, elapsed_ms, fell_back } => {
            name = "ai_decided";
            set("seat", i64::from(*seat).to_variant());
            set("elapsed_ms", elapsed_ms.to_variant());
            set("fell_back", fell_back.to_variant());
        }
        Out::TimedOut { seat } => {
            name = "turn_timed_out";
            set("seat", i64::from(*seat).to_variant());
        }
    }
    Some(RecordedSignal::make(name, args))
}

/// The level change of a deal's end as its Godot object (`LevelChange`).
pub fn level_changes(
    winner_team: guandan_core::game::Team,
    before: &[guandan_core::card::Rank; 2],
    after: &[guandan_core::card::Rank; 2],
) -> Gd<crate::values::LevelChange> {
    crate::values::LevelChange::make(winner_team, before, after)
}
