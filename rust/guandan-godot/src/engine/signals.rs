//! The engine's signals going out: queued notices emitted one by one, in order, from `&mut self`
//! (a handler may call back into the engine; what it causes queues behind), each mapped to its
//! Godot signal.

use godot::prelude::*;
use guandan_runtime::Out;

use super::GuandanEngine;
use crate::args;
use crate::convert::{self, ids, opt_seat, play_obj, seats};
use crate::forward::Emit;

impl GuandanEngine {
    /// Emits queued signals in order. Not re-entered: a call made by a handler queues behind.
    pub(super) fn flush(&mut self) {
        if self.flushing {
            return;
        }
        self.flushing = true;
        while let Some(e) = self.queue.pop_front() {
            self.emit(e);
        }
        self.flushing = false;
    }

    fn emit(&mut self, e: Emit) {
        if let Emit::Restoring(on) = e {
            self.restoring = on;
            return;
        }
        let mut sig = self.signals();
        let out = match e {
            Emit::MatchStarted { seed, local } => {
                return sig.match_started().emit(args::seed_to_int(seed), opt_seat(local));
            }
            Emit::ViewerChanged { seat } => return sig.viewer_changed().emit(i64::from(seat)),
            Emit::AiThinking { seat } => return sig.ai_thinking().emit(i64::from(seat)),
            Emit::Error { code, message } => return sig.error().emit(code, &GString::from(message.as_str())),
            Emit::Crashed { message, report } => {
                return sig.crashed().emit(&GString::from(message.as_str()), &GString::from(report.as_str()));
            }
            Emit::Runtime(out) => out,
            Emit::Restoring(_) => return,
        };
        match out {
            // Turned into `Emit::MatchStarted` / dropped by the forwarder.
            Out::MatchStarted { .. } => {}
            Out::ControllerChanged { seat, ai } => sig.controller_changed().emit(i64::from(seat), ai),
            Out::DealStarted { deal_no, level, declarer } => {
                sig.deal_started().emit(i64::from(deal_no), i64::from(level.0), opt_seat(declarer.map(u8::from)))
            }
            Out::HandChanged { hand, .. } => sig.hand_changed().emit(&ids(hand)),
            Out::TributePhase { payers, resisted } => sig.tribute_phase().emit(&seats(&payers), resisted),
            Out::TributeGiven { from, to, card } => {
                sig.tribute_given().emit(i64::from(from), i64::from(to), convert::opt_card(card))
            }
            Out::ReturnPhase { receivers } => sig.return_phase().emit(&seats(&receivers)),
            Out::ReturnGiven { from, to, card } => {
                sig.card_returned().emit(i64::from(from), i64::from(to), convert::opt_card(card))
            }
            Out::TurnStarted { seat, can_pass, time_limit_s } => {
                sig.turn_started().emit(i64::from(seat), can_pass, time_limit_s)
            }
            Out::CardsPlayed { seat, play } => sig.cards_played().emit(i64::from(seat), &play_obj(&play)),
            Out::Passed { seat } => sig.passed().emit(i64::from(seat)),
            Out::TableCleared { leader } => sig.table_cleared().emit(i64::from(leader)),
            Out::PartnerTakesLead { seat } => sig.partner_takes_lead().emit(i64::from(seat)),
            Out::CardsLeft { seat, count } => sig.cards_left().emit(i64::from(seat), i64::from(count)),
            Out::PlayerFinished { seat, place } => sig.player_finished().emit(i64::from(seat), i64::from(place)),
            Out::DealEnded { order, winner, levels_before, levels_after } => {
                sig.deal_ended().emit(&seats(&order), &convert::level_changes(winner, &levels_before, &levels_after))
            }
            Out::SurrenderProposed { seat } => sig.surrender_proposed().emit(i64::from(seat)),
            Out::SurrenderVoted { seat, accept } => sig.surrender_voted().emit(i64::from(seat), accept),
            Out::MatchEnded { outcome } => sig
                .match_ended()
                .emit(outcome.winner().map_or(-1, |t| i64::from(u8::from(t))), &GString::from(outcome.reason().name())),
            Out::AiDecided { seat, elapsed_ms, fell_back } => {
                sig.ai_decided().emit(i64::from(seat), elapsed_ms, fell_back)
            }
            Out::TimedOut { seat } => sig.turn_timed_out().emit(i64::from(seat)),
        }
    }
}
