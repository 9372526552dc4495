//! Move advice for the human player in training mode: hints (here, their reasons in
//! `reasons.rs`), readings of a selection, completions and wild snap (`selection.rs`) and a heat
//! map (`heat.rs`) — all from the player's own view. Reasons are message keys with arguments; the
//! words live in Godot's translations.

mod heat;
mod selection;
#[cfg(test)]
mod tests;

pub use heat::{CardHeat, heat_map};
pub use selection::{Completion, SelectionInfo, WildSnap, selection};

pub use crate::reasons::reason_of_play;
use crate::reasons::{
    ReasonContext, cheaper_than_top, cheapest_plain_beater, hint_reason, is_plain, opp_min, unbroken_alternative,
};

use crate::agent::{AiProfile, legal_plays};
use crate::plan::broken_group;
use guandan_core::card::{Card, CardId, CardSet, Suit};
use guandan_core::combo::{Play, PlayKind, beats, classify, position_rank, rank_order, wild_set};
use guandan_core::game::partner_of;
use guandan_core::view::PlayerView;
use serde::Serialize;

/// One suggested play (`play == None` means pass).
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Hint {
    pub play: Option<Play>,
    pub score: f32,
    pub reason: String,
    pub reason_args: Vec<String>,
}

/// The recommended move first, then the ranked alternatives.
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
pub struct Advice {
    pub hints: Vec<Hint>,
}

/// Hints for the view's seat, best first (at most `limit`). Empty when it is not the seat's turn.
///
/// A hint never splits a bomb or a triple when a legal play of the same kind and size leaves
/// every group whole: that play takes the hint's place (the ranking's order is kept). A hint
/// spends a wild only when no natural play of the same kind and size (splitting nothing) exists.
///
/// When following, the cheapest plain beater ([`cheapest_plain_beater`]) is always a hint: the
/// first against an opponent's play (after going out, if the hand can), the second at most
/// against the partner's (passing is usually right then). The other hints keep the ranking's
/// order, so the AI's own choice follows it with the reason to play higher instead (with
/// `limit` 1 the first hint alone is kept).
/// Each hint's reason is worked out from the hand and the table, so it is true of the play.
pub fn advise(view: &PlayerView, profile: &AiProfile, limit: usize) -> Advice {
    let Some(seat) = view.seat else { return Advice::default() };
    if view.phase != guandan_core::game::Phase::Play || view.turn != seat {
        return Advice::default();
    }
    let wilds = wild_set(view.level, &view.rules);
    let legal = legal_plays(view);
    let cheapest = cheapest_plain_beater(view, &legal, wilds);
    let opp_min = opp_min(view);
    let ctx = ReasonContext { view, legal: &legal, wilds, cheapest, opp_min };
    let is_cheapest = |p: &Play| cheapest.is_some_and(|c| c.pattern == p.pattern && is_plain(p, view.hand, wilds));
    // The cheapest beater's place and score in the ranking.
    let mut cheapest_rank: Option<(usize, f32)> = None;
    let mut hints: Vec<Hint> = Vec::new();
    for c in crate::ranker::ordered_candidates(view, profile) {
        if hints.len() >= limit && (cheapest.is_none() || cheapest_rank.is_some()) {
            break;
        }
        let play = c.play.map(|p| match broken_group(&p, view.hand, wilds) {
            Some(_) => unbroken_alternative(&p, &legal, view, wilds).unwrap_or(p),
            None => p,
        });
        if play.as_ref().is_some_and(is_cheapest) {
            cheapest_rank.get_or_insert((hints.len(), c.score));
            continue;
        }
        // A wild is spent only where no natural play of the same kind and size will do; the
        // natural plays are ranked above it (ranked_candidates), so they are hinted instead.
        if hints.len() >= limit
            || play.is_some_and(|p| crate::l2::spends_wild_needlessly(&p, &legal, view.hand, wilds))
            || hints.iter().any(|h| h.play.map(|p| p.cards) == play.map(|p| p.cards))
        {
            continue;
        }
        let (reason, reason_args) = hint_reason(play.as_ref(), &ctx);
        hints.push(Hint { play, score: c.score, reason, reason_args });
    }
    if let (Some(c), Some((ranked_at, score))) = (cheapest, cheapest_rank) {
        let partner_on_table = view.table.is_some_and(|(s, _)| s == partner_of(seat));
        let at = if partner_on_table {
            ranked_at.min(1)
        } else {
            usize::from(hints.first().is_some_and(|h| h.play.is_some_and(|p| p.cards == view.hand)))
        };
        let (reason, reason_args) = hint_reason(Some(&c), &ctx);
        hints.insert(at.min(hints.len()), Hint { play: Some(c), score, reason, reason_args });
        hints.truncate(limit);
    }
    cheaper_first(&mut hints, &ctx);
    Advice { hints }
}

/// A first hint that spends a joker or a bomb where a cheaper play of the table's kind beats the
/// table too goes second, after that cheaper play (issue 53: the Big Joker was hint 1 against a
/// single Q with A♠ A♥ held); its reason says what it keeps whole (`reason.top_keeps_group`).
/// Going out, and stopping an opponent about to go out with a bomb, stay first.
fn cheaper_first(hints: &mut Vec<Hint>, ctx: &ReasonContext) {
    let Some(first) = hints.first() else { return };
    if first.reason != "reason.top_keeps_group" {
        return;
    }
    let Some(cheaper) = first.play.as_ref().and_then(|p| cheaper_than_top(p, ctx)) else { return };
    let limit = hints.len();
    let hint = match hints.iter().position(|h| h.play.is_some_and(|p| p.cards == cheaper.cards)) {
        Some(i) => hints.remove(i),
        None => {
            let (reason, reason_args) = hint_reason(Some(&cheaper), ctx);
            Hint { play: Some(cheaper), score: hints[0].score, reason, reason_args }
        }
    };
    hints.insert(0, hint);
    hints.truncate(limit);
}
