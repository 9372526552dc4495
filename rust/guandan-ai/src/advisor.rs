//! Move advice for the human player in training mode: hints, readings of a selection, completions,
//! wild snap and a heat map — all from the player's own view. Reasons are message keys with
//! arguments; the words live in Godot's translations.

use crate::agent::{AiProfile, legal_plays};
use crate::l2::ranked_candidates;
use crate::plan::broken_group;
use guandan_core::card::{Card, CardSet, Suit};
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
    let opp_min = crate::l2::Situation::new(view, &profile.weights).opp_min;
    let ctx = ReasonContext { view, legal: &legal, wilds, cheapest, opp_min };
    let is_cheapest = |p: &Play| cheapest.is_some_and(|c| c.pattern == p.pattern && is_plain(p, view.hand, wilds));
    // The cheapest beater's place and score in the ranking.
    let mut cheapest_rank: Option<(usize, f32)> = None;
    let mut hints: Vec<Hint> = Vec::new();
    for c in ranked_candidates(view, &profile.weights) {
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
    Advice { hints }
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

/// What a hint's reason is worked out from.
struct ReasonContext<'a> {
    view: &'a PlayerView,
    legal: &'a [Play],
    wilds: CardSet,
    /// The cheapest plain beater when following ([`cheapest_plain_beater`]).
    cheapest: Option<Play>,
    /// Fewest cards an opponent still in holds.
    opp_min: u8,
}

/// An opponent holding this many cards or fewer is about to go out.
const CLOSE_TO_OUT: u8 = 4;

/// The reason key and arguments for hinting `play` (None = pass), true of this hand and table.
fn hint_reason(play: Option<&Play>, ctx: &ReasonContext) -> (String, Vec<String>) {
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
    if let Some((rank, held)) = broken_group(p, view.hand, wilds) {
        // Only when no play of this kind and size keeps every group whole (see advise).
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
    let rank = |id: u8| Card::from_id(id).rank();
    guandan_core::movegen::leads(hand, view.level, &view.rules).into_iter().find(|s| {
        s.pattern.kind.is_sequence()
            && p.cards.iter().all(|id| s.cards.minus(wilds).iter().any(|x| rank(x) == rank(id)))
    })
}

/// A play the selection can grow into: the cards still to add.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Completion {
    pub play: Play,
    pub missing: CardSet,
}

/// A wild that would complete the selection, and what it would stand for.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct WildSnap {
    pub wild: u8,
    pub play: Play,
    /// Rank the wild stands for (2–14).
    pub as_rank: u8,
    /// Suit it takes in a straight flush.
    pub as_suit: Option<Suit>,
}

#[derive(Clone, Debug, Default, PartialEq, Serialize)]
pub struct SelectionInfo {
    /// Every reading of exactly the selected cards (empty when they are no combination).
    pub readings: Vec<Play>,
    /// The readings that may be played now (beat the table, or any when leading).
    pub playable: Vec<Play>,
    /// Legal plays that contain the selection, smallest addition first (at most 8).
    pub completions: Vec<Completion>,
    /// Wilds that complete the selection with one card.
    pub wild_snaps: Vec<WildSnap>,
}

fn playable_now(p: &Play, view: &PlayerView) -> bool {
    view.table.as_ref().is_none_or(|(_, t)| beats(p, t, view.level, &view.rules))
}

/// What the selected cards are, and what they can become.
pub fn selection(view: &PlayerView, selected: CardSet) -> SelectionInfo {
    let sel = selected.intersect(view.hand);
    if sel.is_empty() {
        return SelectionInfo::default();
    }
    let readings = classify(sel, view.level, &view.rules);
    let playable = readings.iter().filter(|p| playable_now(p, view)).copied().collect();
    let wilds = wild_set(view.level, &view.rules).intersect(view.hand);

    let sel_ranks: Vec<u8> = sel.minus(wilds).iter().map(|id| Card::from_id(id).rank().0).collect();
    let mut completions: Vec<Completion> = Vec::new();
    for p in legal_plays(view) {
        if p.cards.len() <= sel.len() {
            continue;
        }
        if sel.is_subset(p.cards) {
            completions.push(Completion { play: p, missing: p.cards.minus(sel) });
            continue;
        }
        // Another choice of cards for this play may hold the selection: swap each selected card
        // in for a card of the same rank (a wild for any card) and check the reading.
        if !sel_ranks.iter().all(|&r| may_hold_rank(&p, r)) {
            continue;
        }
        if let Some(c) = swap_in(p.cards, sel, wilds)
            && classify(c, view.level, &view.rules).iter().any(|r| r.pattern == p.pattern)
        {
            completions.push(Completion { play: Play { cards: c, ..p }, missing: c.minus(sel) });
        }
    }
    completions.sort_by_key(|c| (c.missing.len(), c.play.pattern.kind.is_bomb(), c.play.pattern));
    completions.truncate(8);

    let mut wild_snaps = Vec::new();
    for wild in wilds.minus(sel).iter() {
        let with = sel.with(wild);
        for p in classify(with, view.level, &view.rules) {
            if playable_now(&p, view) && p.pattern.kind != PlayKind::Single {
                let (as_rank, as_suit) = stands_for(&p, sel, wilds);
                wild_snaps.push(WildSnap { wild, play: p, as_rank, as_suit });
            }
        }
        // Both wilds are the same card: one is enough to show.
        if !wild_snaps.is_empty() {
            break;
        }
    }
    SelectionInfo { readings, playable, completions, wild_snaps }
}

/// `cards` with every card of `sel` swapped in for an unselected card of the same rank (any card
/// for a wild; wilds in `cards` last).
fn swap_in(cards: CardSet, sel: CardSet, wilds: CardSet) -> Option<CardSet> {
    let mut out = cards;
    for x in sel.minus(cards).iter() {
        let free = out.minus(sel);
        let rank = Card::from_id(x).rank();
        let y = if wilds.contains(x) {
            free.iter().max_by_key(|&id| (wilds.contains(id), id))
        } else {
            free.iter()
                .find(|&id| !wilds.contains(id) && Card::from_id(id).rank() == rank)
                .or_else(|| free.intersect(wilds).iter().next())
        }?;
        out.remove(y);
        out.insert(x);
    }
    Some(out)
}

fn may_hold_rank(p: &Play, rank: u8) -> bool {
    let pat = &p.pattern;
    match pat.kind {
        PlayKind::ThreeWithTwo | PlayKind::FourKings => true,
        k if k.is_sequence() => {
            let len = match k {
                PlayKind::ThreePair => 3,
                PlayKind::TwoTrips => 2,
                _ => 5,
            };
            (pat.rank..pat.rank + len).any(|pos| position_rank(pos) == rank)
        }
        _ => pat.rank == rank,
    }
}

/// The card a wild stands for in `p` given the selected naturals.
fn stands_for(p: &Play, sel: CardSet, wilds: CardSet) -> (u8, Option<Suit>) {
    let pat = &p.pattern;
    let naturals = sel.minus(wilds);
    let count = |r: u8| naturals.iter().filter(|&id| Card::from_id(id).rank().0 == r).count();
    match pat.kind {
        k if k.is_sequence() => {
            let (len, copies) = match k {
                PlayKind::ThreePair => (3, 2),
                PlayKind::TwoTrips => (2, 3),
                _ => (5, 1),
            };
            let missing =
                (pat.rank..pat.rank + len).map(position_rank).find(|&r| count(r) < copies).unwrap_or(pat.rank);
            (missing, pat.suit)
        }
        PlayKind::ThreeWithTwo => {
            if count(pat.rank) < 3 {
                (pat.rank, None)
            } else {
                let other = naturals.iter().map(|id| Card::from_id(id).rank().0).find(|&r| r != pat.rank);
                (other.unwrap_or(pat.rank), None)
            }
        }
        _ => (pat.rank, None),
    }
}

/// Per-card weights for the training heat map, each 0–1.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct CardHeat {
    pub id: u8,
    /// Part of a bomb (or one card short of one).
    pub bomb: f32,
    /// Part of a straight, three pairs, steel plate or straight flush the hand can play.
    pub straight: f32,
    /// A wild.
    pub wild: f32,
    /// Hard to get rid of: a low card that belongs to no group.
    pub danger: f32,
}

pub fn heat_map(view: &PlayerView) -> Vec<CardHeat> {
    let hand = view.hand;
    let wilds = wild_set(view.level, &view.rules).intersect(hand);
    let leads = guandan_core::movegen::leads(hand, view.level, &view.rules);
    let mut rank_count = [0u8; 17];
    for id in hand.minus(wilds).iter() {
        rank_count[Card::from_id(id).rank().0 as usize] += 1;
    }
    let sequences: Vec<&Play> = leads.iter().filter(|p| p.pattern.kind.is_sequence()).collect();
    hand.iter()
        .map(|id| {
            let card = Card::from_id(id);
            let r = card.rank().0;
            let n = rank_count[r as usize];
            let is_wild = wilds.contains(id);
            let bomb = if is_wild || r > 14 {
                0.0
            } else {
                match n {
                    0..=2 => 0.0,
                    3 => 0.5,
                    _ => 1.0,
                }
            };
            let in_seq = sequences.iter().filter(|p| p.cards.contains(id)).count();
            let straight = if is_wild { 0.0 } else { (in_seq as f32 / 2.0).min(1.0) };
            let order = rank_order(r, view.level);
            let danger =
                if is_wild || n > 1 || in_seq > 0 { 0.0 } else { ((12 - order.min(12)) as f32 / 10.0).clamp(0.0, 1.0) };
            CardHeat { id, bomb, straight, wild: if is_wild { 1.0 } else { 0.0 }, danger }
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use guandan_core::game::{DealSetup, Match};
    use guandan_core::rules::RuleConfig;

    fn view_with(hand: &str, table: Option<&str>) -> PlayerView {
        let h = CardSet::parse(hand).unwrap();
        let rules = RuleConfig::competition();
        let other = CardSet::parse("D9 D9 C9 C9").unwrap().minus(h);
        let spare: Vec<u8> = CardSet::FULL.minus(h).minus(other).iter().take(2).collect();
        let setup = DealSetup {
            rules,
            seed: 1,
            deal_no: 0,
            team_levels: [guandan_core::card::Rank(2); 2],
            ace_failures: [0, 0],
            declarer: None,
            last_order: None,
            hands: [h, other, CardSet::EMPTY.with(spare[0]), CardSet::EMPTY.with(spare[1])],
            leader: if table.is_some() { 1 } else { 0 },
        };
        let (mut m, _) = Match::from_deal(&setup).unwrap();
        if let Some(t) = table {
            let cards = CardSet::parse(t).unwrap().intersect(m.hands()[1]);
            let a = m.action(1, guandan_core::game::ActionKind::Play { cards: cards.ids(), reading: None });
            m.apply(&a).unwrap();
        }
        m.view(Some(0))
    }

    #[test]
    fn hints_are_legal_and_ranked() {
        let v = view_with("S3 S4 S5 S6 D7 SK SK HA", None);
        let a = advise(&v, &AiProfile::default(), 5);
        assert!(!a.hints.is_empty());
        assert!(a.hints.windows(2).all(|w| w[0].score >= w[1].score));
        for h in &a.hints {
            let p = h.play.unwrap();
            assert!(p.cards.is_subset(v.hand));
            assert!(h.reason.starts_with("reason."));
        }
    }

    /// Seat 0 to follow `table`, led by west (seat 3).
    fn view_following(hand: &str, table: &str) -> PlayerView {
        let h = CardSet::parse(hand).unwrap();
        let t = CardSet::parse(table).unwrap();
        let rest: Vec<u8> = CardSet::FULL.minus(h).minus(t).iter().take(3).collect();
        let setup = DealSetup {
            rules: RuleConfig::competition(),
            seed: 1,
            deal_no: 0,
            team_levels: [guandan_core::card::Rank(2); 2],
            ace_failures: [0, 0],
            declarer: None,
            last_order: None,
            hands: [h, CardSet::EMPTY.with(rest[0]), CardSet::EMPTY.with(rest[1]), t.with(rest[2])],
            leader: 3,
        };
        let (mut m, _) = Match::from_deal(&setup).unwrap();
        let a = m.action(3, guandan_core::game::ActionKind::Play { cards: t.ids(), reading: None });
        m.apply(&a).unwrap();
        m.view(Some(0))
    }

    /// Seat 0 to follow `table` (led by west), with every other player holding 20 cards.
    fn view_following_crowded(hand: &str, table: &str) -> PlayerView {
        let h = CardSet::parse(hand).unwrap();
        let t = CardSet::parse(table).unwrap();
        let rest: Vec<u8> = CardSet::FULL.minus(h).minus(t).iter().collect();
        let part = |from: usize, n: usize| CardSet::from_ids(&rest[from..from + n]);
        let setup = DealSetup {
            rules: RuleConfig::competition(),
            seed: 1,
            deal_no: 0,
            team_levels: [guandan_core::card::Rank(2); 2],
            ace_failures: [0, 0],
            declarer: None,
            last_order: None,
            hands: [h, part(0, 20), part(20, 20), t.union(part(40, 20))],
            leader: 3,
        };
        let (mut m, _) = Match::from_deal(&setup).unwrap();
        let a = m.action(3, guandan_core::game::ActionKind::Play { cards: t.ids(), reading: None });
        m.apply(&a).unwrap();
        m.view(Some(0))
    }

    /// Every hint that splits a triple or a bomb has no same-kind, same-size play that keeps
    /// every group whole; and the hint reasons fit leading and following.
    fn check_unbroken(v: &PlayerView) -> Advice {
        let a = advise(v, &AiProfile::default(), 8);
        let wilds = wild_set(v.level, &v.rules);
        let legal = legal_plays(v);
        for h in &a.hints {
            let Some(p) = h.play else { continue };
            if broken_group(&p, v.hand, wilds).is_some() {
                let whole = legal.iter().any(|q| {
                    q.pattern.kind == p.pattern.kind
                        && q.cards.len() == p.cards.len()
                        && broken_group(q, v.hand, wilds).is_none()
                });
                assert!(!whole, "hint {:?} splits a group although a whole {:?} exists", p.pattern, p.pattern.kind);
                assert_eq!(h.reason, "reason.splits_group");
            }
            if v.table.is_none() {
                assert!(!h.reason.starts_with("reason.beat") && h.reason != "reason.take_lead", "{h:?}");
            } else {
                assert!(!h.reason.starts_with("reason.lead"), "{h:?}");
            }
        }
        a
    }

    #[test]
    fn a_pair_hint_never_splits_a_triple_when_a_free_pair_exists() {
        // Triple K, free pairs 5 and 9: no pair hint may take two of the kings.
        let v = view_with("SK HK DK S5 H5 S9 C9 S3 D4 S7", None);
        let a = check_unbroken(&v);
        let kings = CardSet::parse("SK HK DK").unwrap();
        for h in &a.hints {
            if let Some(p) = h.play.filter(|p| p.pattern.kind == PlayKind::Pair) {
                assert!(p.cards.intersect(kings).is_empty(), "pair hint {:?} splits the kings", p.pattern);
            }
        }
        assert!(a.hints.iter().any(|h| h.play.is_some_and(|p| p.pattern.kind == PlayKind::Pair)));
    }

    #[test]
    fn a_hint_never_breaks_a_bomb_when_a_whole_play_does_the_same() {
        // Five kings (a bomb), singles and a pair elsewhere: singles and pairs come from elsewhere.
        let hand = "SK HK DK CK SK S3 D5 SJ HJ SQ";
        let kings = CardSet::parse("SK HK DK CK SK").unwrap();
        let v = view_with(hand, None);
        let a = check_unbroken(&v);
        for h in &a.hints {
            // A single or a pair can always come from elsewhere; a full house of kings cannot.
            if let Some(p) = h.play.filter(|p| matches!(p.pattern.kind, PlayKind::Single | PlayKind::Pair)) {
                assert!(p.cards.intersect(kings).is_empty(), "hint {:?} breaks the bomb of kings", p.pattern);
            }
        }
        // Following a single 9 (J and Q are free): never a king out of the bomb.
        let v = view_following(hand, "D9");
        let a = check_unbroken(&v);
        assert!(a.hints.iter().any(|h| h.play.is_some_and(|p| p.pattern.kind == PlayKind::Single)));
        for h in &a.hints {
            if let Some(p) = h.play.filter(|p| !p.pattern.kind.is_bomb()) {
                assert!(p.cards.intersect(kings).is_empty(), "follow hint {:?} breaks the bomb of kings", p.pattern);
                assert!(h.reason.starts_with("reason.beat_"), "{h:?}");
            }
        }
    }

    #[test]
    fn lead_reasons_are_specific() {
        let v = view_with("S3 S4 S5 S6 D7 SK HK S9", None);
        let a = check_unbroken(&v);
        for h in &a.hints {
            let p = h.play.unwrap();
            match h.reason.as_str() {
                "reason.lead_shed_many" => assert!(p.cards.len() >= 5),
                "reason.lead_weak_group" => {
                    // No legal play of the same kind and size is lower.
                    let lower = legal_plays(&v).iter().any(|q| {
                        q.pattern.kind == p.pattern.kind
                            && q.cards.len() == p.cards.len()
                            && order_of(q, &v) < order_of(&p, &v)
                    });
                    assert!(!lower, "{:?} is not the weakest of its kind", p.pattern);
                }
                "reason.lead_plain" | "reason.go_out" => {}
                other => panic!("unexpected lead reason {other} for {:?}", p.pattern),
            }
        }
    }

    /// Issue 24: against a full house 333+55 the top hints used ♥2 while natural KKK+99 and
    /// 555+99 came 4th and 5th. A hint spends a wild only when no natural play of the same kind
    /// and size (splitting no group) exists; the AI's own choice agrees.
    #[test]
    fn a_hint_spends_a_wild_only_when_no_natural_play_does_the_same() {
        let hand = "SK HK DK S9 C9 S5 H5 D5 H2 S7 D7 S8 CJ SQ";
        let wilds = CardSet::parse("H2").unwrap();
        for v in [view_following_crowded(hand, "S3 H3 D3 C5 C5"), view_with(hand, None)] {
            let a = advise(&v, &AiProfile::default(), 5);
            assert!(!a.hints.is_empty());
            let legal = legal_plays(&v);
            for h in &a.hints {
                let Some(p) = h.play else { continue };
                if p.cards.intersect(wilds).is_empty() || p.cards == v.hand {
                    continue;
                }
                let natural = legal.iter().any(|q| {
                    q.pattern.kind == p.pattern.kind
                        && q.cards.len() == p.cards.len()
                        && q.cards.intersect(wilds).is_empty()
                        && broken_group(q, v.hand, wilds).is_none()
                });
                assert!(!natural, "hint {:?} {:?} spends ♥2 although a natural one exists", p.pattern, p.cards);
            }
            if v.table.is_some() {
                let first = a.hints[0].play.expect("a full house beats the table");
                assert_eq!(first.pattern.kind, PlayKind::ThreeWithTwo);
                assert!(first.cards.intersect(wilds).is_empty(), "the top hint is natural: {:?}", first.cards);
            }
            // The AI (L2) plays the same way: no wild where a natural play of its kind will do.
            let d = crate::l2::l2_decision(&v, &crate::agent::Weights::default(), false);
            if let guandan_core::game::ActionKind::Play { cards, .. } = d.action {
                let set = CardSet::from_ids(&cards);
                let chosen = legal.iter().find(|q| q.cards == set).expect("a legal play");
                assert!(
                    !crate::l2::spends_wild_needlessly(chosen, &legal, v.hand, wilds),
                    "L2 spends ♥2 needlessly: {:?}",
                    chosen.cards
                );
            }
        }
    }

    /// Issue 38 (13b): at level 2, against west's single 10, hint 1 was the single 2 (a level
    /// card, above the ace) with the bare "Single 2 beats Single 10", though the lone J beats it.
    /// The J is hint 1; L2's 2 follows with the reason it is played instead (the J is kept for
    /// the straight 9–K), and no hint says a bare "beats" while the J is there.
    #[test]
    fn the_first_follow_hint_is_the_cheapest_whole_beater() {
        let v = view_following("S9 HT DJ SQ CK S2 D5 H5 C4 C4 S3", "DT");
        let a = advise(&v, &AiProfile::default(), 5);
        let first = a.hints[0].play.expect("a single beats the 10");
        assert_eq!((first.pattern.kind, first.pattern.rank), (PlayKind::Single, 11), "{:?}", a.hints[0]);
        assert_eq!(a.hints[0].reason, "reason.beat_cheapest");
        assert_eq!(a.hints[0].reason_args, ["Single", "J", "Single", "T"]);
        assert_eq!(a.hints[1].play.map(|p| p.cards), Some(CardSet::parse("S2").unwrap()), "{:?}", a.hints);
        assert_eq!(a.hints[1].reason, "reason.beat_keep_sequence");
        assert_eq!(a.hints[1].reason_args, ["Single", "2", "Single", "T", "J", "Straight"]);
        assert!(a.hints.iter().all(|h| h.reason != "reason.beat_table"), "{:?}", a.hints);
    }

    /// Views of seats following a play (the partner's or an opponent's), from L2 self-play
    /// deals (the arena's deals).
    fn following_views(seed: u64, deals: u32) -> Vec<PlayerView> {
        let weights = crate::agent::Weights::default();
        let rules = RuleConfig::competition();
        let mut out = Vec::new();
        for deal in 0..deals {
            let Ok((mut m, _)) = Match::from_deal(&crate::arena::deal_setup(seed, deal, &rules)) else { continue };
            while m.deal_no() == 0 && !m.is_over() {
                let Some(&seat) = m.to_act().first() else { break };
                let view = m.view(Some(seat));
                if view.phase == guandan_core::game::Phase::Play && view.table.is_some() {
                    out.push(view.clone());
                }
                let a = m.action(seat, crate::l2::l2_decision(&view, &weights, false).action);
                if m.apply(&a).is_err() {
                    break;
                }
            }
        }
        out
    }

    fn opponent_on_table(v: &PlayerView) -> bool {
        v.table.is_some_and(|(s, _)| Some(s) != v.seat.map(partner_of))
    }

    /// Scan: how often, following an opponent's play that a plain play beats, hint 1 is not the
    /// cheapest plain beater, with hint 1's reason; and the reasons given to the higher hints.
    /// `cargo test -p guandan-ai --release scan_first_follow_hints -- --ignored --nocapture`
    #[test]
    #[ignore]
    fn scan_first_follow_hints() {
        let views: Vec<PlayerView> = following_views(38, 300).into_iter().filter(opponent_on_table).collect();
        let (mut with_plain, mut other) = (0, 0);
        let mut firsts: std::collections::BTreeMap<String, u32> = Default::default();
        let mut higher: std::collections::BTreeMap<String, u32> = Default::default();
        for v in &views {
            let wilds = wild_set(v.level, &v.rules);
            let Some(c) = cheapest_plain_beater(v, &legal_plays(v), wilds) else { continue };
            with_plain += 1;
            let a = advise(v, &AiProfile::default(), 5);
            let first = &a.hints[0];
            let kind_of = |p: Option<Play>| match p {
                None => "pass",
                Some(p) if p.cards == v.hand => "out",
                Some(p) if p.pattern.kind.is_bomb() => "bomb",
                Some(p) if order_of(&p, v) > order_of(&c, v) => "higher",
                Some(_) => "lower",
            };
            if first.play.is_none_or(|p| p.pattern != c.pattern) {
                other += 1;
                *firsts.entry(format!("{} {}", kind_of(first.play), first.reason)).or_default() += 1;
            }
            for h in &a.hints[1..] {
                *higher.entry(format!("{} {}", kind_of(h.play), h.reason)).or_default() += 1;
            }
        }
        eprintln!("{} views following an opponent, {with_plain} that a plain play beats:", views.len());
        eprintln!("hint 1 is not the cheapest plain beater in {other}: {firsts:#?}");
        eprintln!("the other hints: {higher:#?}");
    }

    /// Over self-play positions: following, the cheapest plain beater is a hint (the first
    /// against an opponent, unless the hand goes out at once); no hint says a bare "beats" when
    /// a cheaper plain play beats the table; every reason is true of its play.
    #[test]
    fn follow_hints_keep_the_cheapest_beater_and_their_reasons_are_true() {
        let mut checked = 0;
        for v in following_views(5, 40) {
            let wilds = wild_set(v.level, &v.rules);
            let legal = legal_plays(&v);
            let (_, t) = v.table.unwrap();
            let a = check_unbroken(&v);
            let cheapest = cheapest_plain_beater(&v, &legal, wilds);
            let opp_min = (0..4u8)
                .filter(|&s| Some(s) != v.seat && Some(s) != v.seat.map(partner_of) && v.card_counts[s as usize] > 0)
                .map(|s| v.card_counts[s as usize])
                .min()
                .unwrap_or(27);
            if let Some(c) = cheapest {
                let at = a
                    .hints
                    .iter()
                    .position(|h| h.play.is_some_and(|p| p.pattern == c.pattern && is_plain(&p, v.hand, wilds)));
                let at = at.unwrap_or_else(|| panic!("cheapest {:?} not hinted: {:?}", c.pattern, a.hints));
                if opponent_on_table(&v) {
                    let out_first = a.hints[0].play.is_some_and(|p| p.cards == v.hand);
                    assert!(at == 0 || (at == 1 && out_first), "{:?}", a.hints);
                } else {
                    assert!(at <= 1, "{:?}", a.hints);
                }
                checked += 1;
            }
            let higher = |p: &Play| {
                cheapest.is_some_and(|c| {
                    (p.pattern.kind, p.cards.len()) != (c.pattern.kind, c.cards.len())
                        || order_of(p, &v) > order_of(&c, &v)
                })
            };
            let cheap_args = || cheapest.map(|c| vec![c.pattern.kind.name().to_string(), c.pattern.rank_text()]);
            let holds_sequence = |hand: CardSet, kind: &str, rank: &str| {
                guandan_core::movegen::leads(hand, v.level, &v.rules).iter().any(|s| {
                    s.pattern.kind.is_sequence()
                        && s.pattern.kind.name() == kind
                        && s.cards.minus(wilds).iter().any(|id| Card::from_id(id).rank().char().to_string() == rank)
                })
            };
            for h in &a.hints {
                let args = &h.reason_args;
                let Some(p) = h.play else {
                    match h.reason.as_str() {
                        "reason.pass_partner_winning" => assert!(!opponent_on_table(&v)),
                        "reason.pass_cannot_beat" => assert!(legal.is_empty()),
                        "reason.pass_save_cards" => assert!(cheapest.is_none(), "{h:?}"),
                        "reason.pass_keep_cheapest" => assert_eq!(Some(args[..2].to_vec()), cheap_args()),
                        "reason.pass_keep_sequence" => {
                            assert_eq!(Some(args[..2].to_vec()), cheap_args());
                            assert!(holds_sequence(v.hand, &args[4], &cheapest.unwrap().pattern.rank_text()), "{h:?}");
                        }
                        other => panic!("unexpected pass reason {other}"),
                    }
                    continue;
                };
                assert!(beats(&p, &t, v.level, &v.rules));
                if h.reason.starts_with("reason.beat") || h.reason.starts_with("reason.bomb") {
                    assert_eq!(args[..2], [p.pattern.kind.name().to_string(), p.pattern.rank_text()]);
                    assert_eq!(args[2..4], [t.pattern.kind.name().to_string(), t.pattern.rank_text()]);
                }
                let lower_same = |plain: bool| {
                    legal.iter().any(|q| {
                        q.pattern.kind == p.pattern.kind
                            && q.cards.len() == p.cards.len()
                            && order_of(q, &v) < order_of(&p, &v)
                            && (!plain || is_plain(q, v.hand, wilds))
                    })
                };
                match h.reason.as_str() {
                    "reason.go_out" => assert_eq!(p.cards, v.hand),
                    "reason.splits_group" => {}
                    "reason.beat_cheapest" => assert!(!lower_same(false), "{h:?}"),
                    "reason.beat_cheapest_whole" => assert!(is_plain(&p, v.hand, wilds) && !lower_same(true), "{h:?}"),
                    "reason.beat_table" => assert!(!higher(&p), "a cheaper plain play beats the table: {h:?}"),
                    "reason.bomb_over_partner" => assert!(p.pattern.kind.is_bomb() && !opponent_on_table(&v)),
                    "reason.bomb_to_stop" => {
                        assert!(p.pattern.kind.is_bomb());
                        assert!(cheapest.is_none() || opp_min <= CLOSE_TO_OUT, "{h:?}");
                    }
                    "reason.beat_keep_sequence" => {
                        assert!(higher(&p), "{h:?}");
                        assert_eq!(args[4], cheapest.unwrap().pattern.rank_text());
                        assert!(holds_sequence(v.hand.minus(p.cards), &args[5], &args[4]), "{h:?}");
                    }
                    "reason.beat_high_danger" => {
                        assert!(higher(&p) && opp_min <= CLOSE_TO_OUT, "{h:?}");
                        assert_eq!(args[4], opp_min.to_string());
                    }
                    "reason.beat_costlier" => {
                        assert!(higher(&p), "{h:?}");
                        assert_eq!(Some(args[4..6].to_vec()), cheap_args());
                    }
                    other => panic!("unexpected follow reason {other}: {h:?}"),
                }
            }
        }
        assert!(checked > 100, "too few positions with a plain beater: {checked}");
    }

    #[test]
    fn ambiguous_selection_lists_every_reading() {
        let v = view_with("S4 D4 S5 H2 H2 SK", None);
        let info = selection(&v, CardSet::parse("S4 D4 S5 H2 H2").unwrap());
        assert!(info.readings.len() >= 2, "{:?}", info.readings);
        assert_eq!(info.playable.len(), info.readings.len());
    }

    #[test]
    fn a_wild_snaps_onto_a_selection_one_card_short() {
        let v = view_with("S3 S4 S5 D6 H2 SK", None);
        let info = selection(&v, CardSet::parse("S3 S4 S5 D6").unwrap());
        assert!(info.readings.is_empty());
        let snap = info.wild_snaps.iter().find(|s| s.play.pattern.kind == PlayKind::Straight).unwrap();
        assert!(snap.as_rank == 7 || snap.as_rank == 2, "{snap:?}");
        assert!(!info.completions.is_empty());
    }

    #[test]
    fn completions_contain_the_selection() {
        let v = view_with("S9 D9 H9 SK DK S3", None);
        let sel = CardSet::parse("S9").unwrap();
        let info = selection(&v, sel);
        assert!(info.completions.iter().all(|c| sel.is_subset(c.play.cards) && c.missing == c.play.cards.minus(sel)));
        assert!(info.completions.iter().any(|c| c.play.pattern.kind == PlayKind::Pair));
    }

    #[test]
    fn heat_map_marks_bombs_and_wilds() {
        let v = view_with("S9 D9 H9 C9 H2 S3", None);
        let heat = heat_map(&v);
        assert_eq!(heat.len(), 6);
        let s9 = Card::parse("S9").unwrap().ids()[0];
        assert_eq!(heat.iter().find(|h| h.id == s9).unwrap().bomb, 1.0);
        assert_eq!(heat.iter().filter(|h| h.wild == 1.0).count(), 1);
    }
}
