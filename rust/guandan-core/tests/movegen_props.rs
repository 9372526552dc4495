//! Move generation is complete and sound: on random small hands, the generator's distinct plays
//! equal the plays found by classifying every sub-multiset of the hand.

use guandan_core::card::{Card, CardId, CardSet, Rank, Suit};
use guandan_core::combo::{Pattern, beats, classify, wild_set};
use guandan_core::movegen::{card_choices, generate};
use guandan_core::rules::RuleConfig;
use proptest::prelude::*;
use std::collections::BTreeSet;

/// Every pattern some sub-multiset of `hand` can be read as (and that beats `table`, if any).
fn brute_force(
    hand: CardSet,
    table: Option<&guandan_core::Play>,
    level: Rank,
    rules: &RuleConfig,
) -> BTreeSet<Pattern> {
    let wilds = hand.intersect(wild_set(level, rules));
    let naturals = hand.minus(wilds);
    // Group natural ids by value so copies are interchangeable.
    let mut groups: Vec<Vec<CardId>> = Vec::new();
    for v in 0..54u8 {
        let ids: Vec<CardId> = naturals.ids_of(Card(v)).collect();
        if !ids.is_empty() {
            groups.push(ids);
        }
    }
    let wild_ids: Vec<CardId> = wilds.iter().collect();
    let mut out = BTreeSet::new();
    let mut counts = vec![0usize; groups.len()];
    loop {
        let mut base = CardSet::EMPTY;
        for (g, &k) in groups.iter().zip(&counts) {
            for &id in &g[..k] {
                base.insert(id);
            }
        }
        for w in 0..=wild_ids.len() {
            let mut s = base;
            for &id in &wild_ids[..w] {
                s.insert(id);
            }
            if s.is_empty() || s.len() > 10 {
                continue;
            }
            for p in classify(s, level, rules) {
                if table.is_none_or(|t| beats(&p, t, level, rules)) {
                    out.insert(p.pattern);
                }
            }
        }
        // Next combination (odometer).
        let mut i = 0;
        loop {
            if i == groups.len() {
                return out;
            }
            if counts[i] < groups[i].len() {
                counts[i] += 1;
                break;
            }
            counts[i] = 0;
            i += 1;
        }
    }
}

fn rules_variant(i: u8) -> RuleConfig {
    match i {
        0 => RuleConfig::competition(),
        1 => RuleConfig::house(),
        2 => RuleConfig { sequences_ace_low: false, sequences_ace_high: false, ..RuleConfig::competition() },
        _ => RuleConfig { wild_count: 1, ..RuleConfig::huaian() },
    }
}

/// Hands concentrated on a few neighbouring ranks so that every combination type appears.
fn hand_strategy() -> impl Strategy<Value = (CardSet, Rank, u8)> {
    (2u8..=14, 1u8..=10, 0u8..4, prop::collection::vec((0u8..6, 0u8..5, 0u8..2), 1..=12), 0u8..=2).prop_map(
        |(level, low, rules_i, picks, extra_wilds)| {
            let mut ids = Vec::new();
            for (dr, suit, copy) in picks {
                let card = if suit == 4 {
                    if dr % 2 == 0 { Card::SMALL_JOKER } else { Card::BIG_JOKER }
                } else {
                    let rank = (low + dr + 11) % 13 + 2;
                    Card::new(Suit::from_index(suit).unwrap(), Rank(rank))
                };
                ids.push(card.ids()[copy as usize]);
            }
            let wild = Card::new(Suit::Hearts, Rank(level)).ids();
            ids.extend(wild.iter().take(extra_wilds as usize));
            ids.sort();
            ids.dedup();
            ids.truncate(12);
            (CardSet::from_ids(&ids), Rank(level), rules_i)
        },
    )
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 400, ..ProptestConfig::default() })]

    #[test]
    fn leads_equal_brute_force((hand, level, ri) in hand_strategy()) {
        let rules = rules_variant(ri);
        let generated: BTreeSet<Pattern> = generate(hand, None, level, &rules).iter().map(|p| p.pattern).collect();
        let expected = brute_force(hand, None, level, &rules);
        prop_assert_eq!(&generated, &expected, "hand {:?} level {}", hand, level.0);
    }

    #[test]
    fn follows_equal_brute_force((hand, level, ri) in hand_strategy(), (table_hand, _, _) in hand_strategy()) {
        let rules = rules_variant(ri);
        let table_moves = generate(table_hand, None, level, &rules);
        prop_assume!(!table_moves.is_empty());
        let table = table_moves[table_moves.len() / 2];
        let generated: BTreeSet<Pattern> = generate(hand, Some(&table), level, &rules).iter().map(|p| p.pattern).collect();
        let expected = brute_force(hand, Some(&table), level, &rules);
        prop_assert_eq!(&generated, &expected, "hand {:?} table {} level {}", hand, table.pattern, level.0);
    }

    #[test]
    fn generated_cards_are_owned_and_read_as_their_play((hand, level, ri) in hand_strategy()) {
        let rules = rules_variant(ri);
        for p in generate(hand, None, level, &rules) {
            prop_assert!(p.cards.is_subset(hand));
            prop_assert_eq!(p.cards.len() as u8, p.pattern.size);
            prop_assert!(classify(p.cards, level, &rules).iter().any(|r| r.pattern == p.pattern));
            let choices = card_choices(hand, &p.pattern, level, &rules, 64);
            prop_assert!(!choices.is_empty());
            for c in choices {
                prop_assert!(c.is_subset(hand));
                prop_assert!(classify(c, level, &rules).iter().any(|r| r.pattern == p.pattern));
            }
        }
    }
}
