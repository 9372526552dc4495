//! Seeded random self-play with invariant checks after every action (used by `guandan selfplay`,
//! tests and benches).

use crate::card::CardSet;
use crate::deal::below;
use crate::game::{Action, ActionKind, Match, Phase};
use crate::log::MatchLog;
use crate::rules::RuleConfig;
use rand_chacha::ChaCha8Rng;
use rand_core::SeedableRng;

/// Something went wrong in self-play: the rules engine broke an invariant.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("seed {seed}, action {seq}: {message}")]
pub struct Violation {
    pub seed: u64,
    pub seq: u64,
    pub message: String,
}

/// The next random legal action (plays and passes uniformly among the legal choices).
pub fn random_action(m: &Match, rng: &mut ChaCha8Rng) -> Option<Action> {
    let seat = *m.to_act().first()?;
    let pick = |set: CardSet, rng: &mut ChaCha8Rng| {
        let ids = set.ids();
        (!ids.is_empty()).then(|| ids[below(rng, ids.len() as u32) as usize])
    };
    let kind = match m.phase {
        Phase::Tribute => ActionKind::Tribute { card: pick(m.tribute_options(seat), rng)? },
        Phase::Return => ActionKind::Return { card: pick(m.return_options(seat), rng)? },
        Phase::Play => {
            let plays = m.legal_plays();
            let n = plays.len() as u32 + m.can_pass() as u32;
            let i = below(rng, n) as usize;
            match plays.get(i) {
                Some(p) => Match::play_kind(p),
                None => ActionKind::Pass,
            }
        }
        Phase::MatchOver => return None,
    };
    Some(m.action(seat, kind))
}

/// Cards in hands, on their way as tribute, and played this deal, are the two decks exactly once.
pub fn check_conservation(m: &Match) -> Result<(), String> {
    let all = crate::setup::accounted_cards(&m.hands, m.played, &m.tributes)?;
    if m.phase != Phase::MatchOver && all != CardSet::FULL {
        return Err(format!("cards lost: {:?}", CardSet::FULL.minus(all)));
    }
    Ok(())
}

/// Plays one whole match with random legal moves, checking invariants; returns the final state
/// and its log. `max_actions` guards against a rules bug that never ends a match.
pub fn random_match(seed: u64, rules: RuleConfig, max_actions: u64) -> Result<(Match, MatchLog), Violation> {
    let fail = |seq, message: String| Violation { seed, seq, message };
    let (mut m, _) = Match::new(seed, rules.clone()).map_err(|e| fail(0, e.to_string()))?;
    let mut log = MatchLog::new(seed, rules);
    let mut rng = ChaCha8Rng::seed_from_u64(seed ^ 0x9e37_79b9_7f4a_7c15);
    let mut events = Vec::new();
    while !m.is_over() {
        if m.seq >= max_actions {
            return Err(fail(m.seq, "match did not end".into()));
        }
        let action = random_action(&m, &mut rng).ok_or_else(|| fail(m.seq, "no legal action".into()))?;
        events.clear();
        m.apply_into(&action, &mut events).map_err(|e| fail(action.seq, format!("legal action rejected: {e}")))?;
        log.record(&action, &events, &m);
        check_conservation(&m).map_err(|e| fail(action.seq, e))?;
    }
    Ok((m, log))
}

/// Plays a match and checks that replaying its log (through text) reproduces the final hash.
pub fn checked_match(seed: u64, rules: RuleConfig) -> Result<Match, Violation> {
    let (m, log) = random_match(seed, rules, 200_000)?;
    let text = log.to_jsonl();
    let fail = |message: String| Violation { seed, seq: m.seq, message };
    let parsed = MatchLog::parse(&text).map_err(|e| fail(format!("log does not parse: {e}")))?;
    let replayed = parsed.replay().map_err(|e| fail(format!("replay failed: {e}")))?;
    if replayed.state_hash() != m.state_hash() {
        return Err(fail("replay hash differs".into()));
    }
    Ok(m)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn random_matches_end_and_replay() {
        for seed in 0..20 {
            for rules in [RuleConfig::competition(), RuleConfig::huaian(), RuleConfig::house()] {
                let m = checked_match(seed, rules).unwrap();
                assert!(m.is_over());
            }
        }
    }
}
