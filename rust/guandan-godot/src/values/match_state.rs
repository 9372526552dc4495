//! `MatchState`: a whole match position as a viewer may see it (the engine's `get_state`, the
//! replay recorder's `get_state` with every hand shown).

use godot::prelude::*;
use guandan_core::card::CardSet;
use guandan_core::combo::wild_set;
use guandan_core::event::Outcome;
use guandan_core::game::{Phase, Seat};
use guandan_core::view::PlayerView;

use crate::packing::{ids, opt_seat, phase_int, phase_name, seats, team_levels};
use crate::values::Turn;

/// A match position (without the deal's history: `GuandanEngine.get_history`).
#[derive(GodotClass)]
#[class(no_init, base = RefCounted)]
pub struct MatchState {
    /// The number of actions behind the position (the server's sequence number online).
    #[var(no_set)]
    seq: i64,
    /// The deal, counted from 0.
    #[var(no_set)]
    deal_no: i64,
    /// `GuandanEngine.PHASE_*`.
    #[var(no_set)]
    phase: i64,
    /// `tribute`, `return`, `play` or `match_over`.
    #[var(no_set)]
    phase_name: GString,
    /// The rank played this deal (2–14).
    #[var(no_set)]
    level: i64,
    /// Both teams' levels `[team 0, team 1]`.
    #[var(no_set)]
    team_levels: PackedInt32Array,
    /// The team whose level is played; -1 in the first deal.
    #[var(no_set)]
    declarer: i64,
    /// The seat to play in the play phase; -1 otherwise.
    #[var(no_set)]
    turn: i64,
    /// The seats that must act now.
    #[var(no_set)]
    to_act: PackedInt32Array,
    /// The seat to play may pass.
    #[var(no_set)]
    can_pass: bool,
    /// The play to beat; null when the table is empty.
    #[var(no_set)]
    table: Option<Gd<Turn>>,
    /// Cards held by each seat.
    #[var(no_set)]
    card_counts: PackedInt32Array,
    /// Each seat's hand as the viewer may see it (empty when hidden; the counts are always there).
    #[var(no_set)]
    hands: Array<PackedInt32Array>,
    /// The seats out this deal, in order.
    #[var(no_set)]
    finished: PackedInt32Array,
    /// The previous deal's finishing order (empty in the first).
    #[var(no_set)]
    last_order: PackedInt32Array,
    /// Turns taken this deal.
    #[var(no_set)]
    history_length: i64,
    /// Cards played so far this deal.
    #[var(no_set)]
    played: PackedInt32Array,
    /// This deal's wild cards.
    #[var(no_set)]
    wilds: PackedInt32Array,
    /// The match is over.
    #[var(no_set)]
    over: bool,
    /// The winning team once over (0/1); -1 before, or for a draw.
    #[var(no_set)]
    winner_team: i64,
    /// `ace_won`, `surrender` or `time_up` once over; `""` before.
    #[var(no_set)]
    end_reason: GString,
}

impl MatchState {
    /// The position of view `v`; `hand(seat)` gives the hands the viewer may see, `outcome` how
    /// a finished match ended.
    pub fn make(v: &PlayerView, hand: impl Fn(Seat) -> Option<CardSet>, outcome: Option<Outcome>) -> Gd<MatchState> {
        Gd::from_object(MatchState {
            seq: v.seq as i64,
            deal_no: i64::from(v.deal_no),
            phase: phase_int(v.phase),
            phase_name: phase_name(v.phase).into(),
            level: i64::from(v.level.0),
            team_levels: team_levels(v),
            declarer: opt_seat(v.declarer.map(u8::from)),
            turn: if v.phase == Phase::Play { i64::from(v.turn) } else { -1 },
            to_act: seats(&v.to_act),
            can_pass: v.can_pass(),
            table: v.table.as_ref().map(|(seat, play)| Turn::make(*seat, Some(play))),
            card_counts: v.card_counts.iter().map(|&c| i32::from(c)).collect(),
            hands: Seat::ALL.into_iter().map(|s| hand(s).map(ids).unwrap_or_default()).collect(),
            finished: seats(&v.finished),
            last_order: v.last_order.map(|o| seats(&o)).unwrap_or_default(),
            history_length: v.history.len() as i64,
            played: ids(v.played),
            wilds: ids(wild_set(v.level, &v.rules)),
            over: v.phase == Phase::MatchOver,
            winner_team: outcome.and_then(|o| o.winner()).map_or(-1, |t| i64::from(u8::from(t))),
            end_reason: outcome.map_or("", |o| o.reason().name()).into(),
        })
    }
}
