//! The card counter (记牌器): for one player, how many cards of each rank and each joker the
//! three other players still hold. Computed from that player's [`PlayerView`] only — the two
//! decks minus the own hand minus the cards played in this deal — so it can never tell more
//! than the player can work out: the hidden hands are not an input. Cards the player gave as
//! tribute or return are in another hand and are counted.

use guandan_core::card::{Card, CardSet, Rank};
use guandan_core::view::PlayerView;

/// Cards of each rank the other players still hold.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Counter {
    /// Index `rank - 2`: ranks 2–14 (A), then 15 small joker, 16 big joker.
    pub by_rank: [u8; 15],
    /// Of those, the wilds (hearts of the deal's level).
    pub wilds: u8,
}

impl Counter {
    /// Every card still out of the player's sight: 108 minus the hand minus this deal's plays.
    pub fn of_view(view: &PlayerView) -> Counter {
        Counter::of_unseen(CardSet::FULL.minus(view.hand).minus(view.played), view.level)
    }

    /// Counts a set of cards by rank (and wilds of `level`).
    pub fn of_unseen(unseen: CardSet, level: Rank) -> Counter {
        let mut c = Counter::default();
        for id in unseen.iter() {
            let card = Card::from_id(id);
            c.by_rank[usize::from(card.rank().0 - 2)] += 1;
            if card.is_wild(level) {
                c.wilds += 1;
            }
        }
        c
    }

    /// How many cards the count covers.
    pub fn total(&self) -> u32 {
        self.by_rank.iter().map(|&n| u32::from(n)).sum()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use guandan_core::card::DECK_SIZE;
    use guandan_core::log::MatchLog;

    /// Brute force from what the player saw: every id that is neither in the hand nor in one of
    /// the plays of this deal's history, counted one by one.
    fn brute_force(view: &PlayerView) -> Counter {
        let mut played = Vec::new();
        for turn in &view.history {
            if let Some(p) = &turn.play {
                played.extend(p.cards.iter());
            }
        }
        let mut c = Counter::default();
        for id in 0..DECK_SIZE as u8 {
            if view.hand.contains(id) || played.contains(&id) {
                continue;
            }
            let card = Card::from_id(id);
            c.by_rank[usize::from(card.rank().0 - 2)] += 1;
            c.wilds += u8::from(card.is_wild(view.level));
        }
        c
    }

    #[test]
    fn matches_brute_force_at_every_step_and_only_counts_other_hands() {
        for file in ["good_competition_match.jsonl", "good_house_match.jsonl", "good_unfinished_match.jsonl"] {
            let path = format!("{}/../../tests/replay-corpus/{file}", env!("CARGO_MANIFEST_DIR"));
            let text = std::fs::read_to_string(&path).unwrap();
            let log = MatchLog::parse(&text).unwrap();
            let mut steps = 0;
            log.replay_with(|_, _, _, m| {
                for seat in 0..4u8 {
                    let view = m.view(Some(seat));
                    let c = Counter::of_view(&view);
                    assert_eq!(c, brute_force(&view), "{file}: seat {seat} at seq {}", m.seq());
                    // What the counter says is exactly what the other three hold (plus a tribute
                    // card between two hands while tributes are routed): it tells the player
                    // nothing about who holds what.
                    let all_hands = (0..4u8).fold(CardSet::EMPTY, |a, s| a.union(m.hand(s)));
                    let in_transit = m
                        .tributes()
                        .iter()
                        .filter_map(|t| t.card)
                        .filter(|&id| !all_hands.contains(id) && !m.played().contains(id))
                        .fold(CardSet::EMPTY, |a, id| a.with(id));
                    let others = (0..4u8).filter(|&s| s != seat).fold(in_transit, |a, s| a.union(m.hand(s)));
                    assert_eq!(c, Counter::of_unseen(others, m.level()), "{file}: seat {seat}");
                    assert_eq!(c.total() as usize, others.len());
                }
                steps += 1;
            })
            .unwrap();
            assert!(steps > 10, "{file}: only {steps} steps");
        }
    }

    #[test]
    fn a_fresh_deal_counts_every_card_not_in_the_hand() {
        let hands = guandan_core::deal::deal_for_seed(7);
        let (m, _) = guandan_core::game::Match::new(7, guandan_core::rules::RuleConfig::competition()).unwrap();
        let view = m.view(Some(0));
        assert_eq!(view.hand, hands[0]);
        let c = Counter::of_view(&view);
        assert_eq!(c.total(), 81);
        // Each rank has 8 cards and each joker 2, minus the hand's.
        for r in 2..=16u8 {
            let held = hands[0].iter().filter(|&id| Card::from_id(id).rank() == Rank(r)).count() as u8;
            let all = if r >= 15 { 2 } else { 8 };
            assert_eq!(c.by_rank[usize::from(r - 2)], all - held, "rank {r}");
        }
    }
}
