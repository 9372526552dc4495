//! What the selected cards are (every reading), what they can grow into and which wild completes
//! them.

use super::*;

/// A play the selection can grow into: the cards still to add.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Completion {
    pub play: Play,
    pub missing: CardSet,
}

/// A wild that would complete the selection, and what it would stand for.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct WildSnap {
    pub wild: CardId,
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
