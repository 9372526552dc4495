//! Levels around A over random play: matches started near or at A (either `ace_pass`, any failure
//! limit, failures already counted) are played out at random, and every deal's level change is
//! checked against the rule (docs/rules.md §6–7).

use guandan_core::card::Rank;
use guandan_core::deal::{deal_hands, deal_rng};
use guandan_core::event::Event;
use guandan_core::game::Match;
use guandan_core::rules::{AcePass, RuleConfig};
use guandan_core::seat::{Seat, Team};
use guandan_core::setup::DealSetup;
use guandan_core::sim::random_action;
use proptest::prelude::*;
use rand_chacha::ChaCha8Rng;
use rand_core::SeedableRng;

/// Plays a match from a deal at the given levels to its end (or `max_actions`), checking every
/// `DealEnded`. Returns how many teams left A by reset, for the coverage check.
fn play_checked(setup: DealSetup, seed: u64, max_actions: usize) -> Result<usize, TestCaseError> {
    let limit = setup.rules.ace_failures_before_reset;
    let (mut m, _) = Match::from_deal(&setup).map_err(|e| TestCaseError::fail(e.to_string()))?;
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut resets = 0;
    for _ in 0..max_actions {
        if m.is_over() {
            break;
        }
        let declarer = m.declarer();
        let failures = m.ace_failures();
        let a = random_action(&m, &mut rng).ok_or_else(|| TestCaseError::fail("no action"))?;
        let events = m.apply(&a).map_err(|e| TestCaseError::fail(e.to_string()))?;
        for e in &events {
            let Event::DealEnded { winner, levels_before, levels_after, .. } = e else { continue };
            for t in 0..2 {
                let (before, after) = (levels_before[t], levels_after[t]);
                let team = Team::new(t as u8).unwrap();
                let attempting = declarer == Some(team) && before == Rank::ACE;
                let reset = attempting && after == Rank::TWO;
                if reset {
                    resets += 1;
                    // Only on the limit, and the next deal is played at 2 (it is this team's
                    // level; when it won the deal, the deal is played at it).
                    prop_assert!(limit > 0 && failures[t] + 1 >= limit, "reset before the limit: {failures:?}");
                    prop_assert_eq!(m.team_level(team), Rank::TWO);
                    if !m.is_over() && *winner == team {
                        prop_assert_eq!(m.level(), Rank::TWO, "a team dropped to 2 plays 2");
                    }
                    prop_assert_eq!(m.ace_failures()[t], 0);
                } else {
                    prop_assert!(after >= before, "team {t} went down {before:?} -> {after:?} without a reset");
                }
                if before == Rank::ACE {
                    prop_assert!(after == Rank::ACE || reset, "a team at A gained or fell: -> {after:?}");
                }
            }
        }
    }
    Ok(resets)
}

fn rules(ace_pass: bool, limit: u8) -> RuleConfig {
    let mut r = RuleConfig::competition();
    r.ace_pass = if ace_pass { AcePass::FirstNotPartnerLast } else { AcePass::DoubleDown };
    r.ace_failures_before_reset = limit;
    r
}

fn setup(seed: u64, r: RuleConfig, levels: [u8; 2], failures: [u8; 2], declarer: u8) -> DealSetup {
    DealSetup {
        rules: r,
        seed,
        deal_no: 5,
        team_levels: [Rank(levels[0]), Rank(levels[1])],
        ace_failures: failures,
        declarer: Team::new(declarer),
        last_order: None,
        hands: deal_hands(&mut deal_rng(seed, 5)),
        leader: Seat::ALL[(seed % 4) as usize],
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 64, ..ProptestConfig::default() })]

    #[test]
    fn levels_around_a_follow_the_rule(seed in any::<u64>(), first_not_last in any::<bool>(), limit in 0u8..4,
        l0 in 11u8..=14, l1 in 2u8..=14, f0 in 0u8..3, f1 in 0u8..3, declarer in 0u8..2) {
        let r = rules(first_not_last, limit);
        // Failures are counted only at A, below the limit.
        let f = |l: u8, f: u8| if l == 14 && (limit == 0 || f < limit) { f } else { 0 };
        let s = setup(seed, r, [l0, l1], [f(l0, f0), f(l1, f1)], declarer);
        play_checked(s, seed, 20_000)?;
    }
}

/// Many matches from a team's last attempt at A, so that resets (by either path) really happen:
/// the property above is checked where it matters, not only vacuously.
#[test]
fn resets_happen_and_follow_the_rule() {
    let mut resets = 0;
    for seed in 0..200u64 {
        let r = rules(seed % 2 == 0, 1 + (seed % 3) as u8);
        let limit = r.ace_failures_before_reset;
        let s = setup(seed, r, [14, 2 + (seed % 12) as u8], [limit - 1, 0], 0);
        resets += play_checked(s, seed, 20_000).unwrap();
    }
    assert!(resets >= 50, "only {resets} resets in 200 matches");
}

fn corpus(name: &str) -> guandan_core::log::MatchLog {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../tests/replay-corpus").join(name);
    guandan_core::log::MatchLog::parse(&std::fs::read_to_string(path).unwrap()).unwrap()
}

/// The level the team that left A by reset plays next, for each such deal of a record.
fn levels_after_resets(log: &guandan_core::log::MatchLog) -> Vec<u8> {
    let mut out = Vec::new();
    log.replay_with(|_, _, events, _| {
        for e in events {
            if let Event::DealEnded { winner, levels_before, levels_after, .. } = e {
                let t = winner.index();
                if levels_before[t] == Rank::ACE && levels_after[t] != Rank::ACE {
                    out.push(levels_after[t].0);
                }
            }
        }
    })
    .unwrap();
    out
}

/// The same seed recorded before the fix (the shared corpus's record, no revision in its header)
/// and after it: the old record still replays as it was played (the team came back at 3), the
/// new one drops the team to 2.
#[test]
fn a_record_made_before_the_fix_replays_as_it_was_played() {
    let old = corpus("good_competition_match.jsonl");
    assert_eq!(old.header.rules_revision, 1);
    assert_eq!(levels_after_resets(&old)[0], 3);
    let new = corpus("good_competition_match_revision_2.jsonl");
    assert_eq!(new.header.rules_revision, guandan_core::rules::RULES_REVISION);
    assert_eq!(levels_after_resets(&new)[0], 2);
    // Both are the same match until that deal ended.
    let cut = old.checkpoints.iter().position(|c| c.checkpoint == 2066).unwrap();
    assert_eq!(old.actions[..2066], new.actions[..2066]);
    assert_eq!(old.checkpoints[..cut], new.checkpoints[..cut]);
}
