//! A match from any position and back: [`Match::from_setup`] validates a [`Setup`] whole and
//! builds the match; [`Match::to_setup`] takes the position out again.

use crate::game::{Match, Seat};
use crate::setup::{Setup, SetupError};
use arrayvec::ArrayVec;

impl Match {
    /// A match at any position, validated whole: a position the rules cannot hold is refused
    /// with the reason.
    pub fn from_setup(setup: &Setup) -> Result<Match, SetupError> {
        setup.validate()?;
        let (winner, end_reason) = match setup.outcome {
            None => (None, None),
            Some(o) => (Some(o.winner()), Some(o.reason())),
        };
        Ok(Match {
            rules: setup.rules.clone(),
            seed: setup.seed,
            seq: setup.seq,
            deal_no: setup.deal_no,
            seating: setup.seating,
            team_levels: setup.team_levels,
            ace_failures: setup.ace_failures,
            declarer: setup.declarer,
            level: setup.level,
            phase: setup.phase,
            hands: setup.hands,
            turn: setup.turn,
            table: setup.table,
            passes: setup.passes,
            finished: setup.finished.iter().copied().collect::<ArrayVec<Seat, 4>>(),
            last_order: setup.last_order,
            tributes: setup.tributes.iter().copied().collect(),
            tribute_leader: setup.tribute_leader,
            surrender: setup.surrender,
            winner,
            end_reason,
            history: setup.history.clone(),
            played: setup.played,
            rules_revision: setup.rules_revision,
        })
    }

    /// The position as a [`Setup`]: `Match::from_setup(&m.to_setup())` gives `m` back.
    pub fn to_setup(&self) -> Setup {
        Setup {
            rules: self.rules.clone(),
            seed: self.seed,
            seq: self.seq,
            deal_no: self.deal_no,
            seating: self.seating,
            team_levels: self.team_levels,
            ace_failures: self.ace_failures,
            declarer: self.declarer,
            level: self.level,
            phase: self.phase,
            hands: self.hands,
            turn: self.turn,
            table: self.table,
            passes: self.passes,
            finished: self.finished.to_vec(),
            last_order: self.last_order,
            tributes: self.tributes.to_vec(),
            tribute_leader: self.tribute_leader,
            surrender: self.surrender,
            outcome: self.outcome(),
            history: self.history.clone(),
            played: self.played,
            rules_revision: self.rules_revision,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::card::{CardSet, Rank};
    use crate::event::{EndReason, Outcome, Phase};
    use crate::rules::RuleConfig;
    use crate::sim::random_action;
    use rand_chacha::ChaCha8Rng;
    use rand_core::SeedableRng;

    #[test]
    fn every_reached_position_round_trips_through_its_setup() {
        let (mut m, _) = Match::new(7, RuleConfig::competition()).unwrap();
        let mut rng = ChaCha8Rng::seed_from_u64(7);
        for _ in 0..3000 {
            let back = Match::from_setup(&m.to_setup()).unwrap_or_else(|e| panic!("seq {}: {e}", m.seq()));
            assert_eq!(back, m);
            let Some(a) = random_action(&m, &mut rng) else { break };
            m.apply(&a).unwrap();
        }
    }

    #[test]
    fn inconsistent_positions_are_refused() {
        let (m, _) = Match::new(3, RuleConfig::competition()).unwrap();
        let base = m.to_setup();
        let mut s = base.clone();
        s.hands[0] = s.hands[0].minus(CardSet::EMPTY.with(s.hands[0].iter().next().unwrap()));
        assert!(matches!(Match::from_setup(&s), Err(SetupError::Cards(_))));
        // A seat out of range cannot be held in a `Setup`: the file is refused as it is read.
        let json = serde_json::to_string(&base).unwrap();
        let turn = format!(r#""turn":{}"#, base.turn);
        assert!(json.contains(&turn), "{json}");
        let err = serde_json::from_str::<crate::setup::Setup>(&json.replace(&turn, r#""turn":9"#)).unwrap_err();
        let err = err.to_string();
        assert!(err.contains("seat 9 is out of range 0-3"), "{err}");
        let mut s = base.clone();
        s.seating = [0, 0, 1, 2];
        assert!(matches!(Match::from_setup(&s), Err(SetupError::Seating(_))));
        let mut s = base.clone();
        s.passes = 2;
        assert!(matches!(Match::from_setup(&s), Err(SetupError::Phase { .. })));
        let mut s = base.clone();
        s.phase = Phase::Tribute;
        assert!(matches!(Match::from_setup(&s), Err(SetupError::Phase { .. })));
        let mut s = base.clone();
        s.outcome = Some(Outcome::Draw { reason: EndReason::TimeUp });
        assert!(matches!(Match::from_setup(&s), Err(SetupError::Phase { .. })));
        let mut s = base.clone();
        s.finished = vec![m.turn()];
        assert!(matches!(Match::from_setup(&s), Err(SetupError::Finished(_))));
        let mut s = base;
        s.level = Rank(9);
        assert!(matches!(Match::from_setup(&s), Err(SetupError::Phase { .. })));
    }
}
