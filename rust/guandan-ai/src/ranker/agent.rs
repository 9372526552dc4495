//! `L2+`: L2 whose play decisions are ranked by L2's score plus the learned correction of the
//! committed ranker (`weights/ranker-g1.bin`). Tribute and return stay L2's. Not a default level
//! yet: the arena names it `L2+` (`AiProfile { level: L2, ranker: true }`).

use super::Ranker;
use crate::agent::{Agent, Budget, Decision, Trace, Weights, duty};
use crate::l2::{l2_decision, reason_for};
use guandan_core::game::{ActionKind, Match, Phase};
use guandan_core::view::PlayerView;
use rand_chacha::ChaCha8Rng;
use std::sync::OnceLock;

/// The first generation's weights, made by `guandan train-ranker` (its sidecar `ranker-g1.json`
/// says from which labels and with which command).
static G1: &[u8] = include_bytes!("../../weights/ranker-g1.bin");

/// The committed ranker; `None` only if the embedded file were damaged (a test reads it).
pub fn g1() -> Option<&'static Ranker> {
    static RANKER: OnceLock<Option<Ranker>> = OnceLock::new();
    RANKER.get_or_init(|| Ranker::from_bytes(G1).ok()).as_ref()
}

/// L2+ chooses among L2's best 8, the candidates L3 searches (`SearchConfig::width`): the
/// labels say nothing about the rest.
pub const WIDTH: usize = 8;

pub struct RankedL2 {
    pub weights: Weights,
    pub trace: bool,
    ranker: Option<&'static Ranker>,
}

impl RankedL2 {
    pub fn new(weights: Weights, trace: bool) -> Self {
        RankedL2 { weights, trace, ranker: g1() }
    }
}

impl Agent for RankedL2 {
    fn name(&self) -> String {
        "L2+".into()
    }

    fn decide(&mut self, view: &PlayerView, _rng: &mut ChaCha8Rng, _budget: &Budget) -> Decision {
        let Some(ranker) = self.ranker.filter(|_| duty(view) == Some(Phase::Play)) else {
            return l2_decision(view, &self.weights, self.trace);
        };
        let cands = ranker.rank(view, &self.weights, WIDTH);
        let best = cands.first().cloned();
        let action = best.as_ref().and_then(|c| c.play).map_or(ActionKind::Pass, |p| Match::play_kind(&p));
        let trace = self.trace.then(|| {
            let (reason, reason_args) = best.as_ref().map(|c| reason_for(c, view)).unwrap_or_default();
            Trace { agent: "L2+".into(), candidates: cands, reason, reason_args, ..Trace::default() }
        });
        Decision { action, trace }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use guandan_core::card::CardSet;
    use guandan_core::rules::RuleConfig;
    use guandan_core::sim::random_action;
    use rand_core::SeedableRng;

    #[test]
    fn the_committed_weights_read() {
        let r = g1().expect("weights/ranker-g1.bin is a valid ranker");
        assert_eq!(r.net().inputs(), super::super::features::COUNT);
    }

    /// L2+ sees only the view (hidden cards swapped, same decision), plays legal moves, and
    /// differs from L2 somewhere (else it would be L2 under another name).
    #[test]
    fn l2_plus_plays_from_the_view_and_is_not_l2() {
        let mut differs = 0;
        for seed in 0..4u64 {
            let (mut m, _) = Match::new(200 + seed, RuleConfig::competition()).unwrap();
            let mut rng = ChaCha8Rng::seed_from_u64(seed);
            while m.deal_no() == 0 {
                let seat = m.to_act()[0];
                let view = m.view(Some(seat));
                let mut agent = RankedL2::new(Weights::default(), false);
                let d = agent.decide(&view, &mut rng.clone(), &Budget::untimed());
                m.clone().apply(&m.action(seat, d.action.clone())).expect("a legal action");
                differs += usize::from(d.action != l2_decision(&view, &Weights::default(), false).action);
                if m.phase() == Phase::Play {
                    let mut setup = m.to_setup();
                    let (a, b) = (((seat + 1) % 4) as usize, ((seat + 3) % 4) as usize);
                    if let (Some(ca), Some(cb)) = (setup.hands[a].iter().next(), setup.hands[b].iter().last()) {
                        setup.hands[a] = setup.hands[a].minus(CardSet::EMPTY.with(ca)).with(cb);
                        setup.hands[b] = setup.hands[b].minus(CardSet::EMPTY.with(cb)).with(ca);
                        let other = Match::from_setup(&setup).unwrap();
                        let d2 = agent.decide(&other.view(Some(seat)), &mut rng.clone(), &Budget::untimed());
                        assert_eq!(d2.action, d.action);
                    }
                }
                let a = random_action(&m, &mut rng).unwrap();
                m.apply(&a).unwrap();
            }
        }
        assert!(differs > 0, "L2+ chose as L2 in every position");
    }
}
