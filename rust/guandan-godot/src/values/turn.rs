//! `Turn`, `Tribute` and `SurrenderProposal`: a seat's play or pass, a tribute of the deal and a
//! local match's open surrender vote, as the engine and the replay recorder hand them out.

use godot::prelude::*;
use guandan_core::card::CardId;
use guandan_core::combo;
use guandan_core::game::Seat;

use crate::values::Play;

/// One turn of the deal: a seat played (`play`) or passed (`passed`, `play` null). The table's
/// play to beat is one too.
#[derive(GodotClass)]
#[class(no_init, base = RefCounted)]
pub struct Turn {
    /// The seat (0–3).
    #[var(no_set)]
    seat: i64,
    /// The seat passed.
    #[var(no_set)]
    passed: bool,
    /// What it played; null for a pass.
    #[var(no_set)]
    play: Option<Gd<Play>>,
}

impl Turn {
    pub fn make(seat: Seat, play: Option<&combo::Play>) -> Gd<Turn> {
        Gd::from_object(Turn { seat: i64::from(seat), passed: play.is_none(), play: play.map(Play::make) })
    }
}

/// A tribute of this deal, as the viewer may see it.
#[derive(GodotClass)]
#[class(no_init, base = RefCounted)]
pub struct Tribute {
    /// The seat that pays.
    #[var(no_set)]
    from: i64,
    /// The seat that receives; -1 until routed.
    #[var(no_set)]
    to: i64,
    /// The card given; -1 when hidden from the viewer or not yet given.
    #[var(no_set)]
    card: i64,
    /// The card returned for it; -1 when hidden or not yet returned.
    #[var(no_set)]
    returned: i64,
}

impl Tribute {
    pub fn make(from: Seat, to: Option<Seat>, card: Option<CardId>, returned: Option<CardId>) -> Gd<Tribute> {
        let card_int = |c: Option<CardId>| c.map_or(-1, i64::from);
        Gd::from_object(Tribute {
            from: i64::from(from),
            to: to.map_or(-1, i64::from),
            card: card_int(card),
            returned: card_int(returned),
        })
    }
}

/// The open surrender proposal of a local match.
#[derive(GodotClass)]
#[class(no_init, base = RefCounted)]
pub struct SurrenderProposal {
    /// The team (0 or 1) that would surrender.
    #[var(no_set)]
    team: i64,
    /// The seat that proposed it.
    #[var(no_set)]
    proposer: i64,
    /// The seats that accepted so far.
    #[var(no_set)]
    accepted: PackedInt32Array,
}

impl SurrenderProposal {
    pub fn make(team: i64, proposer: Seat, accepted: &[Seat]) -> Gd<SurrenderProposal> {
        Gd::from_object(SurrenderProposal {
            team,
            proposer: i64::from(proposer),
            accepted: accepted.iter().map(|&s| i32::from(s)).collect(),
        })
    }
}
