//! Why a hint is hinted: a reason key and its arguments, true of the hand and the table.

use super::*;

/// What a hint's reason is worked out from.
pub(super) struct ReasonContext<'a> {
    pub(super) view: &'a PlayerView,
    pub(super) legal: &'a [Play],
    pub(super) wilds: CardSet,
    /// The cheapest plain beater when following ([`cheapest_plain_beater`]).
    pub(super) cheapest: Option<Play>,
    /// Fewest cards an opponent still in holds.
    pub(super) opp_min: u8,
}

/// An opponent holding this many cards or fewer is about to go out.
pub(super) const CLOSE_TO_OUT: u8 = 4;

/// The reason key and arguments for hinting `play` (None = pass), true of this hand and table.
pub(super) fn hint_reason(play: Option<&Play>, ctx: &ReasonContext) -> (String, Vec<String>) {
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
