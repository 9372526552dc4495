//! Why a play is made, in words true of the hand and the table: a reason key (translated in
//! Godot) and its arguments. The advisor's hints, the AI's traces (L2, L2+, L3) and a review's
//! best play all say why through [`reason_of_play`] / [`hint_reason`], with the plain-play helpers
//! the hints are chosen with (the cheapest plain beater, a play that splits no group).

use crate::agent::legal_plays;
use crate::plan::broken_group;
use guandan_core::card::{Card, CardId, CardSet};
use guandan_core::combo::{Play, rank_order, wild_set};
use guandan_core::game::{partner_of, team_of};
use guandan_core::seat::Seat;
use guandan_core::view::PlayerView;

/// Why `play` (None = pass) is played, in the hints' words and true of this hand and table,
/// whoever chose it: the AI's traces and a review's best play say why as a hint would.
pub fn reason_of_play(view: &PlayerView, play: Option<&Play>) -> (String, Vec<String>) {
    let wilds = wild_set(view.level, &view.rules);
    let legal = legal_plays(view);
    let cheapest = cheapest_plain_beater(view, &legal, wilds);
    let opp_min = opp_min(view);
    hint_reason(play, &ReasonContext { view, legal: &legal, wilds, cheapest, opp_min })
}

/// Fewest cards an opponent still in holds (27 when none is: the deal is over for them).
pub(crate) fn opp_min(view: &PlayerView) -> u8 {
    let seat = view.seat.unwrap_or(Seat::ZERO);
    Seat::ALL
        .into_iter()
        .filter(|&s| team_of(s) != team_of(seat) && view.card_counts[s.index()] > 0)
        .map(|s| view.card_counts[s.index()])
        .min()
        .unwrap_or(27)
}

/// What a hint's reason is worked out from.
pub(crate) struct ReasonContext<'a> {
    pub(crate) view: &'a PlayerView,
    pub(crate) legal: &'a [Play],
    pub(crate) wilds: CardSet,
    /// The cheapest plain beater when following ([`cheapest_plain_beater`]).
    pub(crate) cheapest: Option<Play>,
    /// Fewest cards an opponent still in holds.
    pub(crate) opp_min: u8,
}

/// An opponent holding this many cards or fewer is about to go out.
pub(crate) const CLOSE_TO_OUT: u8 = 4;

/// The reason key and arguments for hinting `play` (None = pass), true of this hand and table.
pub(crate) fn hint_reason(play: Option<&Play>, ctx: &ReasonContext) -> (String, Vec<String>) {
    let ReasonContext { view, legal, wilds, cheapest, .. } = *ctx;
    let kind_rank = |p: &Play| vec![p.pattern.kind.name().to_string(), p.pattern.rank_text()];
    let partner_on_table = view.table.is_some_and(|(s, _)| Some(s) == view.seat.map(partner_of));
    let Some(p) = play else {
        let key = if partner_on_table {
            "reason.pass_partner_winning"
        } else if legal.is_empty() {
            "reason.pass_cannot_beat"
        } else if let (Some(c), Some((_, t))) = (cheapest, view.table) {
            // A plain play beats the table: passing keeps it.
            let mut args = kind_rank(&c);
            args.extend(kind_rank(&t));
            return match sequence_holding(&c, view.hand, view, wilds) {
                Some(seq) => {
                    args.push(seq.pattern.kind.name().to_string());
                    ("reason.pass_keep_sequence".into(), args)
                }
                None => ("reason.pass_keep_cheapest".into(), args),
            };
        } else {
            "reason.pass_save_cards"
        };
        return (key.into(), vec![]);
    };
    if p.cards == view.hand {
        return ("reason.go_out".into(), vec![]);
    }
    if let Some((rank, held)) = broken_group(p, view.hand, wilds)
        && unbroken_alternative(p, legal, view, wilds).is_none()
    {
        // The words say no play of this kind and size keeps every group whole: a hint is such a
        // play already (see advise); another player's choice may not be.
        let mut args = kind_rank(p);
        args.push(held.to_string());
        args.push(guandan_core::card::Rank(rank).char().to_string());
        return ("reason.splits_group".into(), args);
    }
    let same = |q: &&Play| q.pattern.kind == p.pattern.kind && q.cards.len() == p.cards.len();
    let lowest = legal.iter().filter(same).all(|q| order_of(q, view) >= order_of(p, view));
    match view.table.as_ref() {
        None if p.pattern.kind.is_bomb() => ("reason.lead_plain".into(), kind_rank(p)),
        None if p.cards.len() >= 5 => {
            let mut args = kind_rank(p);
            args.push(p.cards.len().to_string());
            ("reason.lead_shed_many".into(), args)
        }
        None if lowest => ("reason.lead_weak_group".into(), kind_rank(p)),
        None => ("reason.lead_plain".into(), kind_rank(p)),
        Some((_, t)) => {
            let mut args = kind_rank(p);
            args.extend(kind_rank(t));
            let over_non_bomb = p.pattern.kind.is_bomb() && !t.pattern.kind.is_bomb();
            let stops = over_non_bomb && (partner_on_table || ctx.opp_min <= CLOSE_TO_OUT);
            if !stops
                && cheapest.is_none_or(|c| is_top(&c))
                && let Some(q) = cheaper_than_top(p, ctx)
            {
                // A joker or a bomb where a cheaper play would do: what it keeps whole.
                let rank = Card::from_id(q.cards.iter().next().unwrap_or(CardId::ALL[0])).rank();
                let held = view.hand.minus(wilds).iter().filter(|&id| Card::from_id(id).rank() == rank).count();
                args.push(held.to_string());
                args.push(rank.char().to_string());
                args.extend(kind_rank(&q));
                return ("reason.top_keeps_group".into(), args);
            }
            let key = if over_non_bomb && partner_on_table {
                "reason.bomb_over_partner"
            } else if let Some(c) = cheapest {
                if c.pattern == p.pattern && is_plain(p, view.hand, wilds) {
                    if lowest { "reason.beat_cheapest" } else { "reason.beat_cheapest_whole" }
                } else if !same(&&c) || order_of(p, view) > order_of(&c, view) {
                    return higher_reason(p, &c, args, ctx);
                } else if lowest {
                    "reason.beat_cheapest"
                } else {
                    "reason.beat_table"
                }
            } else if over_non_bomb {
                "reason.bomb_to_stop"
            } else if lowest {
                "reason.beat_cheapest"
            } else {
                "reason.beat_table"
            };
            (key.into(), args)
        }
    }
}

/// Why `p` is hinted although the plain `cheapest` beats the table too (`args`: `p`'s kind and
/// rank, then the table's). In order: a bomb stops an opponent about to go out; `p` leaves a
/// sequence holding the cheaper cards; a higher play against an opponent about to go out; else
/// plainly that the cheaper play would do.
fn higher_reason(p: &Play, cheapest: &Play, mut args: Vec<String>, ctx: &ReasonContext) -> (String, Vec<String>) {
    let view = ctx.view;
    let close = ctx.opp_min <= CLOSE_TO_OUT;
    if close && p.pattern.kind.is_bomb() {
        return ("reason.bomb_to_stop".into(), args);
    }
    if let Some(seq) = sequence_holding(cheapest, view.hand.minus(p.cards), view, ctx.wilds) {
        args.push(cheapest.pattern.rank_text());
        args.push(seq.pattern.kind.name().to_string());
        return ("reason.beat_keep_sequence".into(), args);
    }
    if close && !p.pattern.kind.is_bomb() {
        args.push(ctx.opp_min.to_string());
        return ("reason.beat_high_danger".into(), args);
    }
    args.push(cheapest.pattern.kind.name().to_string());
    args.push(cheapest.pattern.rank_text());
    ("reason.beat_costlier".into(), args)
}

/// A sequence `hand` can lead that holds a natural card of every rank of `p` (a play of one or
/// two ranks; None for a sequence).
fn sequence_holding(p: &Play, hand: CardSet, view: &PlayerView, wilds: CardSet) -> Option<Play> {
    if p.pattern.kind.is_sequence() {
        return None;
    }
    let rank = |id: CardId| Card::from_id(id).rank();
    guandan_core::movegen::leads(hand, view.level, &view.rules).into_iter().find(|s| {
        s.pattern.kind.is_sequence()
            && p.cards.iter().all(|id| s.cards.minus(wilds).iter().any(|x| rank(x) == rank(id)))
    })
}

/// A joker or a bomb: what a hand keeps for the end of a deal.
pub(crate) fn is_top(p: &Play) -> bool {
    p.pattern.kind.is_bomb() || p.cards.iter().any(|id| Card::from_id(id).rank().0 >= 15)
}

/// Following, against `top` (a joker or a bomb that beats the table): the lowest play of the
/// table's kind and size that is neither, spends no wild, splits no triple or bomb and is lower
/// than `top` — it beats the table too, at the price of taking a card out of a pair.
pub(crate) fn cheaper_than_top(top: &Play, ctx: &ReasonContext) -> Option<Play> {
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

/// Among the legal plays, one of the same kind and size as `p` that splits no group: the lowest.
pub(crate) fn unbroken_alternative(p: &Play, legal: &[Play], view: &PlayerView, wilds: CardSet) -> Option<Play> {
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
pub(crate) fn is_plain(q: &Play, hand: CardSet, wilds: CardSet) -> bool {
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
pub(crate) fn cheapest_plain_beater(view: &PlayerView, legal: &[Play], wilds: CardSet) -> Option<Play> {
    let (_, t) = view.table?;
    legal
        .iter()
        .filter(|q| q.pattern.kind == t.pattern.kind && q.cards.len() == t.cards.len())
        .filter(|q| is_plain(q, view.hand, wilds))
        .min_by_key(|q| order_of(q, view))
        .copied()
}

/// Strength order of a play among plays of its kind (level rank above A for groups).
pub(crate) fn order_of(p: &Play, view: &PlayerView) -> u8 {
    if p.pattern.kind.is_sequence() { p.pattern.rank } else { rank_order(p.pattern.rank, view.level) }
}
