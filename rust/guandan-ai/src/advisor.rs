//! Move advice for the human player in training mode: hints, readings of a selection, completions,
//! wild snap and a heat map — all from the player's own view. Reasons are message keys with
//! arguments; the words live in Godot's translations.

use crate::agent::{AiProfile, legal_plays};
use crate::l2::{ranked_candidates, reason_for};
use guandan_core::card::{Card, CardSet, Suit};
use guandan_core::combo::{Play, PlayKind, beats, classify, position_rank, rank_order, wild_set};
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
pub fn advise(view: &PlayerView, profile: &AiProfile, limit: usize) -> Advice {
    let Some(seat) = view.seat else { return Advice::default() };
    if view.phase != guandan_core::game::Phase::Play || view.turn != seat {
        return Advice::default();
    }
    let hints = ranked_candidates(view, &profile.weights)
        .into_iter()
        .take(limit)
        .map(|c| {
            let (reason, reason_args) = reason_for(&c, view);
            Hint { play: c.play, score: c.score, reason, reason_args }
        })
        .collect();
    Advice { hints }
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
