//! The getters of `GuandanEngine`: the latest state as its viewer may see it (a second
//! `#[godot_api]` block, so the node's file holds only what drives the runtime).

use godot::prelude::*;
use guandan_core::game::{Match, Phase, Seat};

use super::GuandanEngine;
use crate::args;
use crate::convert::{self, ids, opt_seat, seats};
use crate::resources::GuandanRules;

#[godot_api(secondary)]
impl GuandanEngine {
    /// Whether a match is loaded (running or over).
    #[func]
    pub fn has_match(&self) -> bool {
        self.runtime.is_some()
    }

    /// The match seed as passed to `start_match`; 0 without a match.
    #[func]
    pub fn get_seed(&self) -> i64 {
        self.m().map_or(0, |m| args::seed_to_int(m.seed()))
    }

    /// A new `GuandanRules` holding the match's rules (null without a match).
    #[func]
    pub fn get_rules(&self) -> Option<Gd<GuandanRules>> {
        self.m().map(|m| GuandanRules::from_config(m.rules()))
    }

    /// `PHASE_NONE`, `PHASE_TRIBUTE`, `PHASE_RETURN`, `PHASE_PLAY` or `PHASE_MATCH_OVER`.
    #[func]
    pub fn get_phase(&self) -> i64 {
        self.m().map_or(convert::PHASE_NONE, |m| convert::phase_int(m.phase()))
    }

    /// The current deal, counted from 0.
    #[func]
    pub fn get_deal_number(&self) -> i64 {
        self.m().map_or(0, |m| i64::from(m.deal_no()))
    }

    /// The rank being played this deal (2–14; A = 14); its hearts are wild.
    #[func]
    pub fn get_level(&self) -> i64 {
        self.m().map_or(0, |m| i64::from(m.level().0))
    }

    /// The two teams' levels (team 0 = seats 0 and 2, team 1 = seats 1 and 3).
    #[func]
    pub fn get_team_levels(&self) -> PackedInt32Array {
        self.m().map_or_else(PackedInt32Array::new, |m| {
            PackedInt32Array::from(&[i32::from(m.team_levels()[0].0), i32::from(m.team_levels()[1].0)])
        })
    }

    /// The team whose level is played (-1 in the first deal).
    #[func]
    pub fn get_declarer(&self) -> i64 {
        self.m().map_or(-1, |m| opt_seat(m.declarer().map(u8::from)))
    }

    /// The team of a seat (0 or 1); -1 for a bad seat.
    #[func]
    pub fn get_team_of(&self, seat: i64) -> i64 {
        if (0..4).contains(&seat) { seat % 2 } else { -1 }
    }

    /// The seat the engine acts for (the first human seat); -1 when every seat is an AI.
    #[func]
    pub fn get_local_seat(&self) -> i64 {
        opt_seat(self.local())
    }

    /// Whether `seat` is played by a human.
    #[func]
    pub fn is_human(&self, seat: i64) -> bool {
        self.runtime.as_ref().is_some_and(|rt| (0..4).contains(&seat) && !rt.is_ai(seat as Seat))
    }

    /// The seat to play in the play phase; -1 otherwise.
    #[func]
    pub fn get_turn(&self) -> i64 {
        match self.m() {
            Some(m) if m.phase() == Phase::Play => i64::from(m.turn()),
            _ => -1,
        }
    }

    /// Seats that must act now (the turn, or the seats owing tribute/return).
    #[func]
    pub fn get_to_act(&self) -> PackedInt32Array {
        self.m().map_or_else(PackedInt32Array::new, |m| seats(&m.to_act()))
    }

    /// Whether the viewer must act now.
    #[func]
    pub fn is_local_turn(&self) -> bool {
        self.m().is_some_and(|m| self.local().is_some_and(|l| m.to_act().contains(&l)))
    }

    /// Whether the seat to play may pass (someone else's play is on the table).
    #[func]
    pub fn can_pass(&self) -> bool {
        self.m().is_some_and(|m| m.can_pass())
    }

    /// The viewer's hand (card ids, increasing); empty for a spectator.
    #[func]
    pub fn get_hand(&self) -> PackedInt32Array {
        match (self.m(), self.local()) {
            (Some(m), Some(l)) => ids(m.hand(l)),
            _ => PackedInt32Array::new(),
        }
    }

    /// Any seat's hand, when the viewer may see it: their own, every hand when no human
    /// plays (spectator of an AI match) or once the match is over. Otherwise empty and a warning.
    #[func]
    pub fn get_seat_hand(&self, seat: i64) -> PackedInt32Array {
        let Some(m) = self.m() else { return PackedInt32Array::new() };
        if !(0..4).contains(&seat) {
            godot_warn!("GuandanEngine.get_seat_hand: seat {seat} is not 0..3");
            return PackedInt32Array::new();
        }
        if !self.may_see_hand(seat as Seat) {
            godot_warn!("GuandanEngine.get_seat_hand: seat {seat}'s hand is hidden from the viewer");
            return PackedInt32Array::new();
        }
        ids(m.hand(seat as Seat))
    }

    /// Cards held by each seat.
    #[func]
    pub fn get_card_counts(&self) -> PackedInt32Array {
        self.m().map_or_else(PackedInt32Array::new, |m| m.hands().iter().map(|h| h.len() as i32).collect())
    }

    /// The play to beat: `{}` when the table is empty, else `{seat, play}`.
    #[func]
    pub fn get_table(&self) -> VarDictionary {
        self.m().map_or_else(VarDictionary::new, |m| convert::table_dict(m.table()))
    }

    /// Seats that went out this deal, in order.
    #[func]
    pub fn get_finishing_order(&self) -> PackedInt32Array {
        self.m().map_or_else(PackedInt32Array::new, |m| seats(m.finished()))
    }

    /// The finishing order of the previous deal (empty in the first).
    #[func]
    pub fn get_last_deal_order(&self) -> PackedInt32Array {
        self.m().and_then(|m| m.last_order()).map_or_else(PackedInt32Array::new, |o| seats(&o))
    }

    /// This deal's plays and passes: `[{seat, pass, play}]`.
    #[func]
    pub fn get_history(&self) -> Array<VarDictionary> {
        self.m().map_or_else(Array::new, |m| m.history().iter().map(convert::turn_dict).collect())
    }

    /// Cards played so far this deal.
    #[func]
    pub fn get_played_cards(&self) -> PackedInt32Array {
        self.m().map_or_else(PackedInt32Array::new, |m| ids(m.played()))
    }

    /// The ids of this deal's wild cards (hearts of the level rank, as many as the rules allow).
    #[func]
    pub fn get_wild_cards(&self) -> PackedInt32Array {
        self.m().map_or_else(PackedInt32Array::new, |m| ids(m.wilds()))
    }

    /// Cards the viewer may give as tribute now (empty when nothing is owed).
    #[func]
    pub fn get_tribute_options(&self) -> PackedInt32Array {
        self.local_view().map_or_else(PackedInt32Array::new, |v| ids(v.tribute_options))
    }

    /// Cards the viewer may return now (empty when nothing is owed).
    #[func]
    pub fn get_return_options(&self) -> PackedInt32Array {
        self.local_view().map_or_else(PackedInt32Array::new, |v| ids(v.return_options))
    }

    /// This deal's tributes as the viewer may see them: `[{from, to, card, returned}]`
    /// (`to` -1 until routed, cards -1 when hidden or not yet given).
    #[func]
    pub fn get_tributes(&self) -> Array<VarDictionary> {
        let Some(m) = self.m() else { return Array::new() };
        let all = self.local().is_none();
        m.view(self.local())
            .tributes
            .iter()
            .zip(m.tributes())
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
        match self.m().and_then(|m| m.surrender()) {
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
        self.m().is_some_and(|m| m.is_over())
    }

    /// The winning team once the match is over (0/1); -1 before, or for a draw.
    #[func]
    pub fn get_winner_team(&self) -> i64 {
        self.m().and_then(|m| m.outcome()?.winner()).map_or(-1, |t| i64::from(u8::from(t)))
    }

    /// `ace_won`, `surrender` or `time_up` once the match is over; `""` before.
    #[func]
    pub fn get_end_reason(&self) -> GString {
        GString::from(self.m().and_then(|m| m.outcome()).map_or("", |o| o.reason().name()))
    }

    /// The whole state in one dictionary (see "Data shapes"), hands as the viewer may see them.
    #[func]
    pub fn get_state(&self) -> VarDictionary {
        match self.m() {
            None => VarDictionary::new(),
            Some(m) => convert::state_dict(m, |seat| self.may_see_hand(seat)),
        }
    }

    /// SHA-256 of the complete state (hex); equal hashes mean equal matches.
    #[func]
    pub fn get_state_hash(&self) -> GString {
        GString::from(self.m().map(|m| m.state_hash()).unwrap_or_default().as_str())
    }

    /// Actions applied so far in this match.
    #[func]
    pub fn get_action_count(&self) -> i64 {
        self.runtime.as_ref().map_or(0, |rt| rt.log().actions.len() as i64)
    }

    /// The match's action log (JSON Lines, the format `ReplayRecorder` saves).
    #[func]
    pub fn get_log_text(&self) -> GString {
        GString::from(self.runtime.as_ref().map(|rt| rt.log().to_jsonl()).unwrap_or_default().as_str())
    }

    /// Seconds left for the viewer's current duty; -1 when no clock runs for it.
    #[func]
    pub fn get_time_left(&self) -> f64 {
        match (&self.runtime, self.local()) {
            (Some(rt), Some(l)) => rt.time_left(l).unwrap_or(-1.0),
            _ => -1.0,
        }
    }

    /// Whether an AI seat is thinking (or its answer waits for `ai_min_think_ms`).
    #[func]
    pub fn is_ai_thinking(&self) -> bool {
        self.ai_busy()
    }

    /// The message of the last failed call.
    #[func]
    pub fn get_last_error(&self) -> GString {
        GString::from(self.last_error.as_str())
    }
}

impl GuandanEngine {
    /// The viewer's view (`None` without a viewer seat).
    fn local_view(&self) -> Option<guandan_core::view::PlayerView> {
        Some(self.m()?.view(Some(self.local()?)))
    }

    fn m(&self) -> Option<&Match> {
        self.runtime.as_ref().map(|rt| rt.state())
    }

    /// Whether the viewer may see this seat's hand: their own; every hand on an AI-only table
    /// (omniscient) or once the match is over.
    fn may_see_hand(&self, seat: Seat) -> bool {
        let over = self.m().is_some_and(Match::is_over);
        self.runtime.is_some() && (over || self.local().is_none_or(|l| l == seat))
    }
}
