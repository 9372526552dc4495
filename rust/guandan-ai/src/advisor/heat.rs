//! The training heat map: per card, how much it belongs to a bomb, a sequence, is a wild or is
//! hard to get rid of.

use super::*;

/// Per-card weights for the training heat map, each 0–1.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct CardHeat {
    pub id: CardId,
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
