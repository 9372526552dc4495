//! Move advice for the human player in training mode: hints (here, their reasons in
//! `reasons.rs`), readings of a selection, completions and wild snap (`selection.rs`) and a heat
//! map (`heat.rs`) — all from the player's own view. Reasons are message keys with arguments; the
//! words live in Godot's translations.

mod heat;
mod reasons;
mod selection;
#[cfg(test)]
mod tests;

pub use heat::{CardHeat, heat_map};
pub use selection::{Completion, SelectionInfo, WildSnap, selection};

use reasons::{ReasonContext, hint_reason};

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

/// Why `play` (None = pass) is played, in the hints' words and true of this hand and table,
/// whoever chose it: the AI's traces and a review's best play say why as a hint would.
pub fn reason_of_play(view: &PlayerView, play: Option<&Play>) -> (String, Vec<String>) {
    let wilds = wild_set(view.level, &view.rules);
    let legal = legal_plays(view);
    let cheapest = cheapest_plain_beater(view, &legal, wilds);
    let opp_min = crate::l2::Situation::new(view, &crate::agent::Weights::default()).opp_min;
    hint_reason(play, &ReasonContext { view, legal: &legal, wilds, cheapest, opp_min })
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
    let opp_min = crate::l2::Situation::new(view, &profile.weights).opp_min;
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

/// A joker or a bomb: what a hand keeps for the end of a deal.
fn is_top(p: &Play) -> bool {
    p.pattern.kind.is_bomb() || p.cards.iter().any(|id| Card::from_id(id).rank().0 >= 15)
}

/// Following, against `top` (a joker or a bomb that beats the table): the lowest play of the
/// table's kind and size that is neither, spends no wild, splits no triple or bomb and is lower
/// than `top` — it beats the table too, at the price of taking a card out of a pair.
fn cheaper_than_top(top: &Play, ctx: &ReasonContext) -> Option<Play> {
    let (_, t) = ctx.view.table?;
    if !is_top(top) || top.cards == ctx.view.hand {
        return None;
    }
    ctx.legal
        .iter()
        .filter(|q| q.pattern.kind == t.pattern.kind && q.cards.len() == t.cards.len() && !is_top(q))
        .filter(|q| q.cards.intersect(ctx.wilds).is_empty())
        .filter(|q| broken_group(q, ctx.view.hand, ctx.wilds).is_none())
        .filter(|q| q.pattern.kind != top.pattern.kind || order_of(q, ctx.view) < order_of(top, ctx.view))
        .min_by_key(|q| order_of(q, ctx.view))
        .copied()
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

/// Among the legal plays, one of the same kind and size as `p` that splits no group: the lowest.
fn unbroken_alternative(p: &Play, legal: &[Play], view: &PlayerView, wilds: CardSet) -> Option<Play> {
    legal
        .iter()
        .filter(|q| q.pattern.kind == p.pattern.kind && q.cards.len() == p.cards.len())
        .filter(|q| broken_group(q, view.hand, wilds).is_none())
        .min_by_key(|q| order_of(q, view))
        .copied()
}

/// Whether `q` keeps the hand's groups whole and spends no wild: a play of one or two ranks
/// (single, pair, triple, full house, bomb) takes every natural card of each rank it uses, so a
/// single never comes out of a pair; a sequence splits no triple or bomb.
fn is_plain(q: &Play, hand: CardSet, wilds: CardSet) -> bool {
    if !q.cards.intersect(wilds).is_empty() {
        return false;
    }
    if q.pattern.kind.is_sequence() {
        return broken_group(q, hand, wilds).is_none();
    }
    let natural = hand.minus(wilds);
    let of_rank = |set: CardSet, r| set.iter().filter(|&id| Card::from_id(id).rank() == r).count();
    q.cards.iter().all(|id| of_rank(natural, Card::from_id(id).rank()) == of_rank(q.cards, Card::from_id(id).rank()))
}

/// When following: the cheapest legal play of the table's kind and size that is plain
/// ([`is_plain`]) — what a player answers with unless there is a reason to play higher.
fn cheapest_plain_beater(view: &PlayerView, legal: &[Play], wilds: CardSet) -> Option<Play> {
    let (_, t) = view.table?;
    legal
        .iter()
        .filter(|q| q.pattern.kind == t.pattern.kind && q.cards.len() == t.cards.len())
        .filter(|q| is_plain(q, view.hand, wilds))
        .min_by_key(|q| order_of(q, view))
        .copied()
}

/// Strength order of a play among plays of its kind (level rank above A for groups).
fn order_of(p: &Play, view: &PlayerView) -> u8 {
    if p.pattern.kind.is_sequence() { p.pattern.rank } else { rank_order(p.pattern.rank, view.level) }
}
