//! The getters of `GuandanEngine`: the latest state as its viewer may see it, read from the
//! match source's view (local or online alike; a second `#[godot_api]` block, so the node's
//! file holds only what drives the match).

use godot::prelude::*;
use guandan_core::game::{Phase, Seat};
use guandan_core::view::PlayerView;

use super::GuandanEngine;
use crate::args;
use crate::convert::{self, ids, opt_seat, seats};
use crate::resources::GuandanRules;
use crate::source::{self, MatchSource};
use crate::values::{MatchState, SurrenderProposal, Tribute, Turn};

#[godot_api(secondary)]
impl GuandanEngine {
    /// Whether a match is loaded (running or over; online: its first full state arrived).
    #[func]
    pub fn has_match(&self) -> bool {
        self.v().is_some()
    }

    /// The match seed as passed to `start_match` (online: 0 unless the client saw the match
    /// start); 0 without a match.
    #[func]
    pub fn get_seed(&self) -> i64 {
        self.source().map_or(0, |s| args::seed_to_int(s.seed()))
    }

    /// A new `GuandanRules` holding the match's rules (null without a match).
    #[func]
    pub fn get_rules(&self) -> Option<Gd<GuandanRules>> {
        self.v().map(|v| GuandanRules::from_config(&v.rules))
    }

    /// `PHASE_NONE`, `PHASE_TRIBUTE`, `PHASE_RETURN`, `PHASE_PLAY` or `PHASE_MATCH_OVER`.
    #[func]
    pub fn get_phase(&self) -> i64 {
        self.v().map_or(convert::PHASE_NONE, |v| convert::phase_int(v.phase))
    }

    /// The current deal, counted from 0.
    #[func]
    pub fn get_deal_number(&self) -> i64 {
        self.v().map_or(0, |v| i64::from(v.deal_no))
    }

    /// The rank being played this deal (2–14; A = 14); its hearts are wild.
    #[func]
    pub fn get_level(&self) -> i64 {
        self.v().map_or(0, |v| i64::from(v.level.0))
    }

    /// The two teams' levels (team 0 = seats 0 and 2, team 1 = seats 1 and 3).
    #[func]
    pub fn get_team_levels(&self) -> PackedInt32Array {
        self.v().map_or_else(PackedInt32Array::new, |v| convert::team_levels(&v))
    }

    /// The team whose level is played (-1 in the first deal).
    #[func]
    pub fn get_declarer(&self) -> i64 {
        self.v().map_or(-1, |v| opt_seat(v.declarer.map(u8::from)))
    }

    /// The team of a seat (0 or 1); -1 for a bad seat.
    #[func]
    pub fn get_team_of(&self, seat: i64) -> i64 {
        Seat::try_from(seat).map_or(-1, |s| i64::from(u8::from(s.team())))
    }

    /// The seat the engine acts for (the first human seat; online the player, always 0: the
    /// table is turned so); -1 when every seat is an AI, or for a spectator.
    #[func]
    pub fn get_local_seat(&self) -> i64 {
        opt_seat(self.local())
    }

    /// Whether `seat` is played by a person (online: not an AI seat of the room).
    #[func]
    pub fn is_human(&self, seat: i64) -> bool {
        let Some(seat) = Seat::try_from(seat).ok() else { return false };
        self.source().is_some_and(|s| s.is_human(seat))
    }

    /// The seat to play in the play phase; -1 otherwise.
    #[func]
    pub fn get_turn(&self) -> i64 {
        match self.v() {
            Some(v) if v.phase == Phase::Play => i64::from(v.turn),
            _ => -1,
        }
    }

    /// Seats that must act now (the turn, or the seats owing tribute/return).
    #[func]
    pub fn get_to_act(&self) -> PackedInt32Array {
        self.v().map_or_else(PackedInt32Array::new, |v| seats(&v.to_act))
    }

    /// Whether the viewer must act now.
    #[func]
    pub fn is_local_turn(&self) -> bool {
        self.v().is_some_and(|v| v.seat.is_some_and(|s| v.to_act.contains(&s)))
    }

    /// Whether the seat to play may pass (someone else's play is on the table).
    #[func]
    pub fn can_pass(&self) -> bool {
        self.v().is_some_and(|v| v.can_pass())
    }

    /// The viewer's hand (card ids, increasing); empty for a spectator.
    #[func]
    pub fn get_hand(&self) -> PackedInt32Array {
        self.v().map_or_else(PackedInt32Array::new, |v| ids(v.hand))
    }

    /// Any seat's hand, when the viewer may see it: their own; offline every hand when no
    /// human plays (spectator of an AI match) or once the match is over. Otherwise empty and a
    /// warning.
    #[func]
    pub fn get_seat_hand(&self, seat: i64) -> PackedInt32Array {
        let Some(src) = self.source().filter(|s| s.view().is_some()) else { return PackedInt32Array::new() };
        let Some(seat) = Seat::try_from(seat).ok() else {
            godot_warn!("GuandanEngine.get_seat_hand: seat {seat} is not 0..3");
            return PackedInt32Array::new();
        };
        match src.seen_hand(seat) {
            Some(hand) => ids(hand),
            None => {
                godot_warn!("GuandanEngine.get_seat_hand: seat {seat}'s hand is hidden from the viewer");
                PackedInt32Array::new()
            }
        }
    }

    /// Another seat's hand the viewer is shown: online, a spectator of a room whose host lets
    /// spectators see one team's hands (seats as the table draws them). Empty when not shown.
    #[func]
    pub fn get_shown_hand(&self, seat: i64) -> PackedInt32Array {
        let shown = self.v().and_then(|v| v.shown_hands.iter().find(|h| i64::from(h.seat) == seat).map(|h| h.hand));
        shown.map_or_else(PackedInt32Array::new, ids)
    }

    /// Cards held by each seat.
    #[func]
    pub fn get_card_counts(&self) -> PackedInt32Array {
        self.v().map_or_else(PackedInt32Array::new, |v| v.card_counts.iter().map(|&c| i32::from(c)).collect())
    }

    /// The play to beat; null when the table is empty.
    #[func]
    pub fn get_table(&self) -> Option<Gd<Turn>> {
        self.v()?.table.as_ref().map(|(seat, play)| Turn::make(*seat, Some(play)))
    }

    /// Seats that went out this deal, in order.
    #[func]
    pub fn get_finishing_order(&self) -> PackedInt32Array {
        self.v().map_or_else(PackedInt32Array::new, |v| seats(&v.finished))
    }

    /// The finishing order of the previous deal (empty in the first).
    #[func]
    pub fn get_last_deal_order(&self) -> PackedInt32Array {
        self.v().and_then(|v| v.last_order).map_or_else(PackedInt32Array::new, |o| seats(&o))
    }

    /// This deal's plays and passes, in order.
    #[func]
    pub fn get_history(&self) -> Array<Gd<Turn>> {
        self.v().map_or_else(Array::new, |v| v.history.iter().map(|t| Turn::make(t.seat, t.play.as_ref())).collect())
    }

    /// Cards played so far this deal.
    #[func]
    pub fn get_played_cards(&self) -> PackedInt32Array {
        self.v().map_or_else(PackedInt32Array::new, |v| ids(v.played))
    }

    /// The ids of this deal's wild cards (hearts of the level rank, as many as the rules allow).
    #[func]
    pub fn get_wild_cards(&self) -> PackedInt32Array {
        self.v().map_or_else(PackedInt32Array::new, |v| ids(source::wilds(&v)))
    }

    /// Cards the viewer may give as tribute now (empty when nothing is owed).
    #[func]
    pub fn get_tribute_options(&self) -> PackedInt32Array {
        self.v().map_or_else(PackedInt32Array::new, |v| ids(v.tribute_options))
    }

    /// Cards the viewer may return now (empty when nothing is owed).
    #[func]
    pub fn get_return_options(&self) -> PackedInt32Array {
        self.v().map_or_else(PackedInt32Array::new, |v| ids(v.return_options))
    }

    /// This deal's tributes as the viewer may see them (a local AI-only table sees every card).
    #[func]
    pub fn get_tributes(&self) -> Array<Gd<Tribute>> {
        let Some(v) = self.v() else { return Array::new() };
        let real = self.runtime().filter(|_| self.local().is_none()).map(|rt| rt.state().tributes().to_vec());
        v.tributes
            .iter()
            .enumerate()
            .map(|(i, seen)| {
                let (card, returned) = match real.as_ref().and_then(|r| r.get(i)) {
                    Some(t) => (t.card, t.returned),
                    None => (seen.card, seen.returned),
                };
                Tribute::make(seen.from, seen.to, card, returned)
            })
            .collect()
    }

    /// The open surrender proposal of a local match; null when none (online the votes arrive
    /// as `surrender_proposed` / `surrender_voted`).
    #[func]
    pub fn get_surrender(&self) -> Option<Gd<SurrenderProposal>> {
        let v = self.runtime()?.state().surrender()?;
        let accepted: Vec<Seat> = Seat::ALL.into_iter().filter(|b| v.accepted & b.bit() != 0).collect();
        Some(SurrenderProposal::make(i64::from(u8::from(v.team)), v.proposer, &accepted))
    }

    /// Whether the match is over.
    #[func]
    pub fn is_match_over(&self) -> bool {
        self.v().is_some_and(|v| v.phase == Phase::MatchOver)
    }

    /// The winning team once the match is over (0/1); -1 before, or for a draw.
    #[func]
    pub fn get_winner_team(&self) -> i64 {
        self.source().and_then(|s| s.outcome()?.winner()).map_or(-1, |t| i64::from(u8::from(t)))
    }

    /// `ace_won`, `surrender` or `time_up` once the match is over; `""` before.
    #[func]
    pub fn get_end_reason(&self) -> GString {
        GString::from(self.source().and_then(|s| s.outcome()).map_or("", |o| o.reason().name()))
    }

    /// The whole position, hands as the viewer may see them; null without a match.
    #[func]
    pub fn get_state(&self) -> Option<Gd<MatchState>> {
        let (src, v) = (self.source()?, self.v()?);
        Some(MatchState::make(&v, |seat| src.seen_hand(seat), src.outcome()))
    }

    /// SHA-256 of the complete state (hex); equal hashes mean equal matches (online: the
    /// server's hash after the last action received).
    #[func]
    pub fn get_state_hash(&self) -> GString {
        GString::from(self.source().map(|s| s.state_hash()).unwrap_or_default().as_str())
    }

    /// Whether the signal being emitted is part of a position announced again rather than played
    /// now (online: the full state of a match already under way, after a reconnect or a rejoin;
    /// the table draws it at once, without the deal's flight or any animation).
    #[func]
    pub fn is_restoring(&self) -> bool {
        self.restoring
    }

    /// Actions applied so far in this match.
    #[func]
    pub fn get_action_count(&self) -> i64 {
        self.source().map_or(0, |s| s.action_count() as i64)
    }

    /// The local match's action log (JSON Lines, the format `ReplayRecorder` saves); `""`
    /// online (the server keeps the record).
    #[func]
    pub fn get_log_text(&self) -> GString {
        GString::from(self.runtime().map(|rt| rt.log().to_jsonl()).unwrap_or_default().as_str())
    }

    /// Seconds left for the viewer's current duty; -1 when no clock runs for it (online: as the
    /// server announced it; its clock decides).
    #[func]
    pub fn get_time_left(&self) -> f64 {
        self.source().and_then(|s| s.time_left()).unwrap_or(-1.0)
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
    /// The viewer's view (`None` without a match).
    pub(crate) fn v(&self) -> Option<PlayerView> {
        self.source().and_then(MatchSource::view)
    }
}
