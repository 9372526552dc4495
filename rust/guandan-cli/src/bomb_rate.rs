//! `guandan bomb-rate`: how often bombs are dealt and played, for comparing dealing rules
//! (shuffled vs no-shuffle, 不洗牌). Whole matches with the same AI at every seat, through the
//! match runtime; seeded and reproducible.

use crate::input::{Usage, rules_arg};
use guandan_ai::{AiLevel, AiProfile};
use guandan_core::card::{Card, CardSet};
use guandan_core::rules::RuleConfig;
use guandan_runtime::{Controller, Out, Runtime, RuntimeConfig};
use serde::Serialize;
use std::process::ExitCode;

#[derive(Debug, Default, Serialize)]
pub struct BombRate {
    pub rules: String,
    pub matches: u64,
    pub deals: u64,
    /// Natural bombs (ranks held four times or more, and the four jokers) per hand dealt.
    pub bombs_dealt_per_hand: f64,
    /// Hands (4 a deal) dealt a natural bomb of six cards or more.
    pub hands_with_big_bomb: f64,
    /// Bombs played per deal.
    pub bombs_played_per_deal: f64,
}

/// Plays `matches` whole matches (seeds `seed..`) with `profile` at every seat.
pub fn measure(rules: &RuleConfig, profile: &AiProfile, matches: u64, seed: u64) -> Result<BombRate, String> {
    let (mut deals, mut dealt, mut big, mut bombs) = (0u64, 0u64, 0u64, 0u64);
    for g in 0..matches {
        let seats = std::array::from_fn(|_| Controller::Ai(profile.clone()));
        let cfg = RuntimeConfig { seed: seed.wrapping_add(g), rules: rules.clone(), seats, clocks: false };
        let (mut rt, mut notices) = Runtime::start(cfg).map_err(|e| e.to_string())?;
        for _ in 0..100_000 {
            for n in &notices {
                match &n.out {
                    // Hands are still as dealt: tribute needs actions of its own.
                    Out::DealStarted { .. } => {
                        deals += 1;
                        for hand in rt.state().hands() {
                            let sizes = natural_bombs(*hand);
                            dealt += sizes.len() as u64;
                            big += u64::from(sizes.iter().any(|&n| n >= 6));
                        }
                    }
                    Out::CardsPlayed { play, .. } if play.pattern.kind.is_bomb() => bombs += 1,
                    _ => {}
                }
            }
            match rt.decide_now() {
                Some(next) => notices = next,
                None => break,
            }
        }
        if !rt.state().is_over() {
            return Err(format!("match {} did not end", seed.wrapping_add(g)));
        }
    }
    let per = |x: u64, n: u64| if n == 0 { 0.0 } else { x as f64 / n as f64 };
    Ok(BombRate {
        rules: rules.name.clone(),
        matches,
        deals,
        bombs_dealt_per_hand: per(dealt, deals * 4),
        hands_with_big_bomb: per(big, deals * 4),
        bombs_played_per_deal: per(bombs, deals),
    })
}

/// Sizes of the natural bombs in a hand: each rank held four times or more (wilds not counted),
/// and 4 for the four jokers.
fn natural_bombs(hand: CardSet) -> Vec<usize> {
    let mut per_rank = [0usize; 17];
    for id in hand.iter() {
        per_rank[Card::from_id(id).rank().0 as usize] += 1;
    }
    let jokers = per_rank[15] + per_rank[16];
    let mut sizes: Vec<usize> = per_rank[..15].iter().copied().filter(|&n| n >= 4).collect();
    if jokers == 4 {
        sizes.push(4);
    }
    sizes
}

/// `guandan bomb-rate`: the measure, as text or JSON.
pub fn run(matches: u64, seed: u64, rules: &str, ai: &str, json: bool) -> Result<ExitCode, Usage> {
    let level = AiLevel::parse(ai).ok_or_else(|| Usage(format!("unknown AI level {ai:?}: use L1, L2 or L3")))?;
    let r = measure(&rules_arg(rules)?, &AiProfile::level(level), matches, seed).map_err(Usage)?;
    if json {
        println!("{}", serde_json::to_string(&r).unwrap_or_default());
    } else {
        println!(
            "{} rules, {} matches, {} deals: {:.2} natural bombs dealt a hand, {:.1}% of hands dealt a bomb of 6+ cards, {:.2} bombs played a deal",
            r.rules,
            r.matches,
            r.deals,
            r.bombs_dealt_per_hand,
            r.hands_with_big_bomb * 100.0,
            r.bombs_played_per_deal
        );
    }
    Ok(ExitCode::SUCCESS)
}

#[cfg(test)]
mod tests {
    use super::*;
    use guandan_ai::AiLevel;

    #[test]
    fn natural_bombs_are_counted_by_rank() {
        let hand = CardSet::parse("S5 H5 C5 D5 S5 S9 H9 C9 SB SB HR HR").unwrap();
        assert_eq!(natural_bombs(hand), vec![5, 4]);
        assert!(natural_bombs(CardSet::parse("S5 H5 C5 S9").unwrap()).is_empty());
    }

    #[test]
    fn no_shuffle_deals_more_bombs_than_shuffling() {
        let l2 = AiProfile::level(AiLevel::L2);
        let shuffled = measure(&RuleConfig::competition(), &l2, 3, 1).unwrap();
        let unshuffled = measure(&RuleConfig::no_shuffle(), &l2, 3, 1).unwrap();
        assert!(shuffled.deals > 3 && unshuffled.deals > 3);
        assert!(unshuffled.bombs_dealt_per_hand > shuffled.bombs_dealt_per_hand, "{unshuffled:?} vs {shuffled:?}");
    }
}
