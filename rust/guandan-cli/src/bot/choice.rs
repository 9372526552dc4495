//! Mapping the agent's decision onto an index of the platform's `actionList` (always in range).

use super::log;
use super::wire::*;

use guandan_core::card::{Card, CardSet, Rank};
use guandan_core::combo::{classify, rank_order};
use guandan_core::game::ActionKind;
use guandan_core::rules::RuleConfig;
use guandan_core::view::PlayerView;

pub(super) fn clip(text: &str) -> String {
    if text.chars().count() <= 200 {
        text.to_string()
    } else {
        format!("{}…", text.chars().take(200).collect::<String>())
    }
}

pub(super) fn describe(action: &ActionKind) -> String {
    match action {
        ActionKind::Play { cards, reading } => format!(
            "{} [{}]",
            reading.map_or(String::from("?"), |p| p.to_string()),
            CardSet::from_ids(cards).notation()
        ),
        ActionKind::Tribute { card } => format!("tribute {}", Card::from_id(*card)),
        ActionKind::Return { card } => format!("return {}", Card::from_id(*card)),
        other => format!("{other:?}"),
    }
}

/// "Smallest" listed play: non-bombs first, then lowest rank, then fewest cards.
pub(super) fn smallness(a: &Act, level: Rank) -> (bool, bool, u8, usize) {
    match a {
        Act::Play { kind, rank, cards } => {
            let r = match rank {
                Some(r) if kind.is_sequence() => *r,
                Some(r) => rank_order(*r, level),
                None => u8::MAX,
            };
            (false, kind.is_bomb(), r, cards.as_ref().map_or(usize::MAX, |c| c.len()))
        }
        _ => (true, true, u8::MAX, usize::MAX),
    }
}

/// The answer when the agent cannot be asked or its choice is not listed: PASS when following,
/// else the smallest listed play (else the first entry).
pub fn fallback(list: &[Act], level: Rank, _rules: &RuleConfig) -> usize {
    if let Some(i) = list.iter().position(|a| *a == Act::Pass) {
        return i;
    }
    (0..list.len()).min_by_key(|&i| (smallness(&list[i], level), i)).unwrap_or(0)
}

/// The index of `actionList` that carries out the agent's decision.
pub fn map_decision(action: &ActionKind, list: &[Act], view: &PlayerView) -> usize {
    let fb = || fallback(list, view.level, &view.rules);
    match action {
        ActionKind::Pass => list.iter().position(|a| *a == Act::Pass).unwrap_or_else(fb),
        ActionKind::Play { cards, reading: chosen } => {
            let set = CardSet::from_ids(cards);
            let pattern = chosen
                .or_else(|| classify(set, view.level, &view.rules).first().map(|p| p.pattern))
                .map(|p| (p.kind, p.rank));
            let mine = multiset(&set.iter().map(Card::from_id).collect::<Vec<_>>());
            let Some((kind, rank)) = pattern else { return fb() };
            // Same type, and the same rank or exactly the same cards (in case the platform writes
            // a rank differently); then the same rank, the same cards, the same number of cards,
            // most cards in common, the first listed.
            list.iter()
                .enumerate()
                .filter_map(|(i, a)| match a {
                    Act::Play { kind: k, rank: r, cards } if *k == kind => {
                        let theirs = cards.as_deref().map(multiset).unwrap_or_default();
                        let same_rank = *r == Some(rank);
                        let exact = theirs == mine;
                        let key = (same_rank, exact, theirs.len() == mine.len(), common_count(&mine, &theirs));
                        (same_rank || exact).then_some((key, std::cmp::Reverse(i)))
                    }
                    _ => None,
                })
                .max()
                .map(|(_, std::cmp::Reverse(i))| i)
                .unwrap_or_else(|| {
                    log(format!("the agent's {kind:?} {rank} is not in the actionList: falling back"));
                    fb()
                })
        }
        ActionKind::Tribute { card } | ActionKind::Return { card } => {
            let want = Card::from_id(*card);
            let is_tribute = matches!(action, ActionKind::Tribute { .. });
            let cards_of = |a: &Act| match (a, is_tribute) {
                (Act::Tribute(c), true) | (Act::Back(c), false) => Some(c.clone().unwrap_or_default()),
                _ => None,
            };
            list.iter()
                .position(|a| cards_of(a).is_some_and(|c| c.contains(&want)))
                .or_else(|| list.iter().position(|a| cards_of(a).is_some()))
                .unwrap_or(0)
        }
        _ => fb(),
    }
}

/// Size of the multiset intersection of two sorted lists.
pub(super) fn common_count(a: &[Card], b: &[Card]) -> usize {
    let (mut i, mut j, mut n) = (0, 0, 0);
    while i < a.len() && j < b.len() {
        match a[i].cmp(&b[j]) {
            std::cmp::Ordering::Equal => {
                n += 1;
                i += 1;
                j += 1;
            }
            std::cmp::Ordering::Less => i += 1,
            std::cmp::Ordering::Greater => j += 1,
        }
    }
    n
}
