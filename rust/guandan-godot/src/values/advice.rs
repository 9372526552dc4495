//! `Hint`, `Reading`, `Selection`, `Completion` and `WildSnap`: the move help `MoveAdvisor` gives
//! the local player (training, hints, the readings of a selection).

use godot::prelude::*;
use guandan_ai::advisor;
use guandan_core::combo;

use crate::packing::ids;
use crate::values::Play;

fn strings(args: &[String]) -> PackedStringArray {
    args.iter().map(|a| GString::from(a.as_str())).collect()
}

/// A recommended move: a play, or a pass (`passed`, `play` null), with why.
#[derive(GodotClass)]
#[class(no_init, base = RefCounted)]
pub struct Hint {
    /// The hint is to pass.
    #[var(no_set)]
    passed: bool,
    /// The play; null for a pass.
    #[var(no_set)]
    play: Option<Gd<Play>>,
    /// Translation key of the reason (`reason.go_out`, …).
    #[var(no_set)]
    reason: GString,
    /// The reason's arguments.
    #[var(no_set)]
    reason_args: PackedStringArray,
    /// The advisor's score (higher is better).
    #[var(no_set)]
    score: f64,
}

impl Hint {
    pub fn make(h: &advisor::Hint) -> Gd<Hint> {
        Gd::from_object(Hint {
            passed: h.play.is_none(),
            play: h.play.as_ref().map(Play::make),
            reason: h.reason.as_str().into(),
            reason_args: strings(&h.reason_args),
            score: f64::from(h.score),
        })
    }
}

/// One reading of the selected cards.
#[derive(GodotClass)]
#[class(no_init, base = RefCounted)]
pub struct Reading {
    /// What `GuandanEngine.play(card_ids, index)` takes.
    #[var(no_set)]
    index: i64,
    #[var(no_set)]
    play: Gd<Play>,
    /// It may be played now (leads anything, or beats the table).
    #[var(no_set)]
    playable: bool,
    /// The reading `GuandanEngine.play(card_ids)` would pick.
    #[var(no_set)]
    default: bool,
}

impl Reading {
    pub fn make(index: usize, play: &combo::Play, playable: bool, default: bool) -> Gd<Reading> {
        Gd::from_object(Reading { index: index as i64, play: Play::make(play), playable, default })
    }

    pub fn is_playable(&self) -> bool {
        self.playable
    }
}

/// A legal play that contains the selection, and the cards still to add.
#[derive(GodotClass)]
#[class(no_init, base = RefCounted)]
pub struct Completion {
    #[var(no_set)]
    play: Gd<Play>,
    /// The card ids to add to the selection.
    #[var(no_set)]
    missing: PackedInt32Array,
}

impl Completion {
    pub fn make(c: &advisor::Completion) -> Gd<Completion> {
        Gd::from_object(Completion { play: Play::make(&c.play), missing: ids(c.missing) })
    }
}

/// A wild of the hand that turns the selection into a playable combination.
#[derive(GodotClass)]
#[class(no_init, base = RefCounted)]
pub struct WildSnap {
    /// The wild's card id.
    #[var(no_set)]
    wild: i64,
    /// The play it makes.
    #[var(no_set)]
    play: Gd<Play>,
    /// The rank (2–14) it stands for.
    #[var(no_set)]
    as_rank: i64,
    /// The suit letter it takes in a straight flush, else `""`.
    #[var(no_set)]
    as_suit: GString,
}

impl WildSnap {
    pub fn make(w: &advisor::WildSnap) -> Gd<WildSnap> {
        Gd::from_object(WildSnap {
            wild: i64::from(w.wild),
            play: Play::make(&w.play),
            as_rank: i64::from(w.as_rank),
            as_suit: w.as_suit.map(|s| s.letter().to_string()).unwrap_or_default().as_str().into(),
        })
    }
}

/// What a selection of the local hand is and can become.
#[derive(GodotClass)]
#[class(no_init, base = RefCounted)]
pub struct Selection {
    /// Every reading of exactly the selected cards.
    #[var(no_set)]
    readings: Array<Gd<Reading>>,
    /// The readings that may be played now.
    #[var(no_set)]
    playable: Array<Gd<Reading>>,
    /// Legal plays containing the selection, fewest cards to add first (at most 8).
    #[var(no_set)]
    completions: Array<Gd<Completion>>,
    /// The wilds that make it playable.
    #[var(no_set)]
    wild_snaps: Array<Gd<WildSnap>>,
}

impl Selection {
    pub fn make(readings: Array<Gd<Reading>>, info: &advisor::SelectionInfo) -> Gd<Selection> {
        let playable = readings.iter_shared().filter(|r| r.bind().is_playable()).collect();
        Gd::from_object(Selection {
            readings,
            playable,
            completions: info.completions.iter().map(Completion::make).collect(),
            wild_snaps: info.wild_snaps.iter().map(WildSnap::make).collect(),
        })
    }
}
