//! `CardHeat`, `CardCounter`, `AiTrace` and `AiCandidate`: the training heat map, the card
//! counter (记牌器) and the AI's reasons for the debug overlay, from `MoveAdvisor`.

use godot::prelude::*;
use guandan_ai::advisor;
use guandan_ai::agent::{Candidate, Trace};
use guandan_core::counter::Counter;

use crate::values::Play;

/// What one card of the hand is good for, each weight 0–1.
#[derive(GodotClass)]
#[class(no_init, base = RefCounted)]
pub struct CardHeat {
    /// The card id.
    #[var(no_set)]
    card: i64,
    /// Part of a bomb (or one card short of one).
    #[var(no_set)]
    bomb: f64,
    /// Part of a sequence the hand can play.
    #[var(no_set)]
    straight: f64,
    /// A wild.
    #[var(no_set)]
    wild: f64,
    /// Hard to get rid of.
    #[var(no_set)]
    danger: f64,
}

impl CardHeat {
    pub fn make(h: &advisor::CardHeat) -> Gd<CardHeat> {
        Gd::from_object(CardHeat {
            card: i64::from(h.id),
            bomb: f64::from(h.bomb),
            straight: f64::from(h.straight),
            wild: f64::from(h.wild),
            danger: f64::from(h.danger),
        })
    }
}

#[godot_api]
impl CardHeat {
    /// A card's weights from plain values (tests, tools): `card` 0–107, weights clamped to 0–1;
    /// null with a warning for a bad card id.
    #[func]
    pub fn of(card: i64, bomb: f64, straight: f64, wild: f64, danger: f64) -> Option<Gd<CardHeat>> {
        if let Err(e) = crate::args::card_id(card) {
            godot_warn!("CardHeat.of: {e}");
            return None;
        }
        let w = |x: f64| x.clamp(0.0, 1.0);
        Some(Gd::from_object(CardHeat { card, bomb: w(bomb), straight: w(straight), wild: w(wild), danger: w(danger) }))
    }
}

/// The card counter of the local player: what the three others still hold.
#[derive(GodotClass)]
#[class(no_init, base = RefCounted)]
pub struct CardCounter {
    /// 15 counts: ranks 2–14 (A), then the small joker and the big joker.
    #[var(no_set)]
    ranks: PackedInt32Array,
    /// How many of them are wilds.
    #[var(no_set)]
    wilds: i64,
    /// All the cards they hold.
    #[var(no_set)]
    total: i64,
}

impl CardCounter {
    pub fn make(c: &Counter) -> Gd<CardCounter> {
        Gd::from_object(CardCounter {
            ranks: c.by_rank.iter().map(|&n| i32::from(n)).collect(),
            wilds: i64::from(c.wilds),
            total: i64::from(c.total()),
        })
    }
}

/// One move an AI weighed.
#[derive(GodotClass)]
#[class(no_init, base = RefCounted)]
pub struct AiCandidate {
    /// A pass (no play and no card).
    #[var(no_set)]
    passed: bool,
    /// The play; null for a pass or a tribute/return choice.
    #[var(no_set)]
    play: Option<Gd<Play>>,
    /// The card of a tribute/return choice; -1 otherwise.
    #[var(no_set)]
    card: i64,
    #[var(no_set)]
    score: f64,
    /// The parts of the score: the own hand, the partner, the opponents' threat.
    #[var(no_set)]
    hand: f64,
    #[var(no_set)]
    partner: f64,
    #[var(no_set)]
    threat: f64,
    /// The mean outcome of the search's playouts; NaN unless searched.
    #[var(no_set)]
    search: f64,
}

impl AiCandidate {
    pub fn make(c: &Candidate) -> Gd<AiCandidate> {
        Gd::from_object(AiCandidate {
            passed: c.play.is_none() && c.card.is_none(),
            play: c.play.as_ref().map(Play::make),
            card: c.card.map_or(-1, i64::from),
            score: f64::from(c.score),
            hand: f64::from(c.hand),
            partner: f64::from(c.partner),
            threat: f64::from(c.threat),
            search: c.search.map_or(f64::NAN, f64::from),
        })
    }
}

/// Why an AI seat chose what it chose (its profile's `debug` on).
#[derive(GodotClass)]
#[class(no_init, base = RefCounted)]
pub struct AiTrace {
    /// The agent's name (`L2+`, `L3`, …).
    #[var(no_set)]
    agent: GString,
    /// Translation key of the reason, and its arguments.
    #[var(no_set)]
    reason: GString,
    #[var(no_set)]
    reason_args: PackedStringArray,
    /// Search playouts run.
    #[var(no_set)]
    playouts: i64,
    /// The agent passed its hard time limit (or failed) and the L1 choice was played instead.
    #[var(no_set)]
    fell_back: bool,
    /// The moves weighed, best first.
    #[var(no_set)]
    candidates: Array<Gd<AiCandidate>>,
}

impl AiTrace {
    pub fn make(t: &Trace) -> Gd<AiTrace> {
        Gd::from_object(AiTrace {
            agent: t.agent.as_str().into(),
            reason: t.reason.as_str().into(),
            reason_args: t.reason_args.iter().map(|a| GString::from(a.as_str())).collect(),
            playouts: i64::from(t.playouts),
            fell_back: t.fell_back,
            candidates: t.candidates.iter().map(AiCandidate::make).collect(),
        })
    }
}
