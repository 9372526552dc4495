//! `RecordedAction` and `RecordedSignal`: one action of a match record, and what it made the
//! engine announce, as the replay recorder hands them out.

use godot::prelude::*;
use guandan_core::game::{Action, ActionKind};

/// One action of a record (the record file's line, read).
#[derive(GodotClass)]
#[class(no_init, base = RefCounted)]
pub struct RecordedAction {
    /// Its sequence number (0 for the first).
    #[var(no_set)]
    seq: i64,
    /// The seat that acted.
    #[var(no_set)]
    seat: i64,
    /// `play`, `pass`, `tribute`, `return`, `timeout`, `propose_surrender`, `surrender_vote` or
    /// `time_up`.
    #[var(no_set)]
    kind: GString,
    /// The card ids played (`play`), else empty.
    #[var(no_set)]
    cards: PackedInt32Array,
    /// The card given (`tribute`) or returned (`return`), else -1.
    #[var(no_set)]
    card: i64,
    /// The vote (`surrender_vote`), else false.
    #[var(no_set)]
    accept: bool,
}

impl RecordedAction {
    pub fn make(a: &Action) -> Gd<RecordedAction> {
        let mut out = RecordedAction {
            seq: a.seq as i64,
            seat: i64::from(a.seat),
            kind: GString::new(),
            cards: PackedInt32Array::new(),
            card: -1,
            accept: false,
        };
        let kind = match &a.kind {
            ActionKind::Play { cards, .. } => {
                out.cards = cards.iter().map(|&c| i32::from(c)).collect();
                "play"
            }
            ActionKind::Pass => "pass",
            ActionKind::Tribute { card } => {
                out.card = i64::from(*card);
                "tribute"
            }
            ActionKind::Return { card } => {
                out.card = i64::from(*card);
                "return"
            }
            ActionKind::Timeout => "timeout",
            ActionKind::ProposeSurrender => "propose_surrender",
            ActionKind::SurrenderVote { accept } => {
                out.accept = *accept;
                "surrender_vote"
            }
            ActionKind::TimeUp => "time_up",
        };
        out.kind = kind.into();
        Gd::from_object(out)
    }
}

/// A `GuandanEngine` signal as the record replays it: its name and its arguments in the
/// signal's order (`MatchEvents.from_args` makes the typed event, as for a live signal).
#[derive(GodotClass)]
#[class(no_init, base = RefCounted)]
pub struct RecordedSignal {
    /// The signal's name (`cards_played`, …).
    #[var(no_set)]
    signal: StringName,
    /// Its arguments, in the order the signal declares them.
    #[var(no_set)]
    args: VarArray,
}

impl RecordedSignal {
    pub fn make(signal: &str, args: VarArray) -> Gd<RecordedSignal> {
        Gd::from_object(RecordedSignal { signal: signal.into(), args })
    }
}
