//! `L2+`: L2 whose play decisions are ranked by L2's score plus the learned correction of the
//! committed ranker (`weights/ranker-g1.bin`). Tribute and return stay L2's. Not a default level
//! yet: the arena names it `L2+` (`AiProfile { level: L2, ranker: true }`).

use super::why::motive;
use super::{Ranker, Scored};
use crate::agent::{Agent, Budget, Candidate, Decision, Trace, Weights, duty};
use crate::l2::{l2_decision, reason_for};
use guandan_core::game::{ActionKind, Match, Phase};
use guandan_core::view::PlayerView;
use rand_chacha::ChaCha8Rng;
use std::sync::OnceLock;

/// The committed generations' weights, first to latest, each made by `guandan train-ranker` (its
/// sidecar `ranker-gN.json` says from which labels and with which command).
static GENERATIONS: [&[u8]; 3] = [
    include_bytes!("../../weights/ranker-g1.bin"),
    include_bytes!("../../weights/ranker-g2.bin"),
    include_bytes!("../../weights/ranker-g3.bin"),
];

/// How many generations are committed: a profile may name 1 to this.
pub const COMMITTED: u8 = GENERATIONS.len() as u8;

/// The generation today's levels use, what `AiProfile::ranker_generation` 0 means: the latest
/// that measured stronger than the one before (docs/ai.md, "Generations"). A later generation
/// may be committed to be measured (the arena's `L2gN`, a profile's `ranker_generation`) before
/// it is, or without ever being, the default.
pub const DEFAULT: u8 = 2;
const _: () = assert!(DEFAULT >= 1 && DEFAULT <= COMMITTED, "the default generation is a committed one");

/// Generation `n` of the committed rankers (1 = `ranker-g1`; 0 = [`DEFAULT`]). `None` for a
/// generation not committed, or if an embedded file were damaged (a test reads them all).
pub fn generation(n: u8) -> Option<&'static Ranker> {
    static RANKERS: OnceLock<Vec<Option<Ranker>>> = OnceLock::new();
    let all = RANKERS.get_or_init(|| GENERATIONS.iter().map(|b| Ranker::from_bytes(b).ok()).collect());
    let n = if n == 0 { DEFAULT } else { n };
    all.get(usize::from(n).checked_sub(1)?)?.as_ref()
}

/// The ranker today's levels use (generation [`DEFAULT`]).
pub fn current() -> Option<&'static Ranker> {
    generation(0)
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
    /// L2+ with the ranker of `generation` (0 = the latest).
    pub fn new(weights: Weights, trace: bool, generation: u8) -> Self {
        RankedL2 { weights, trace, ranker: self::generation(generation) }
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
        let scored = ranker.rank_scored(view, &self.weights, WIDTH);
        let action = scored.first().and_then(|s| s.candidate.play).map_or(ActionKind::Pass, |p| Match::play_kind(&p));
        let trace = self.trace.then(|| {
            let (reason, reason_args) = reason(ranker, &scored, view);
            let candidates = scored.into_iter().map(|s| s.candidate).collect();
            Trace { agent: "L2+".into(), candidates, reason, reason_args, ..Trace::default() }
        });
        Decision { action, trace }
    }
}

/// L2's reason when the ranker chose as L2 did; when it overruled L2, what weighed most for its
/// choice (`why::motive`), naming both plays — L2's reason would explain the play not made.
fn reason(ranker: &Ranker, scored: &[Scored], view: &PlayerView) -> (String, Vec<String>) {
    let Some(best) = scored.first() else { return Default::default() };
    let l2_pick = scored.iter().find(|s| s.l2_place == 0);
    match l2_pick
        .filter(|p| p.l2_place != best.l2_place)
        .and_then(|p| Some((p, motive(ranker, &best.features, &p.features)?)))
    {
        Some((pick, (m, _))) => {
            (m.reason_key().into(), [play_words(&best.candidate), play_words(&pick.candidate)].concat())
        }
        None => reason_for(&best.candidate, view),
    }
}

/// A candidate as two reason arguments: its kind and its rank ("Pass" and "" for a pass).
fn play_words(c: &Candidate) -> Vec<String> {
    match &c.play {
        Some(p) => vec![p.pattern.kind.name().into(), p.pattern.rank_text()],
        None => vec!["Pass".into(), String::new()],
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
        for n in 1..=COMMITTED {
            let r = generation(n).unwrap_or_else(|| panic!("weights/ranker-g{n}.bin is not a valid ranker"));
            assert_eq!(r.net().inputs(), super::super::features::COUNT);
        }
        assert!(std::ptr::eq(current().unwrap(), generation(DEFAULT).unwrap()));
        assert!(generation(COMMITTED + 1).is_none());
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
                let mut agent = RankedL2::new(Weights::default(), false, 0);
                let d = agent.decide(&view, &mut rng.clone(), &Budget::untimed());
                m.clone().apply(&m.action(seat, d.action.clone())).expect("a legal action");
                differs += usize::from(d.action != l2_decision(&view, &Weights::default(), false).action);
                if m.phase() == Phase::Play {
                    let mut setup = m.to_setup();
                    let (a, b) = (seat.after(1).index(), seat.after(3).index());
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

    /// When L2+ overrules L2 the reason names both plays and what weighed most (not L2's reason
    /// for a play not made); when it agrees, the reason is L2's.
    #[test]
    fn the_reason_is_the_rankers_own_when_it_overrules_l2() {
        let (mut overruled, mut agreed) = (0, 0);
        for seed in 0..6u64 {
            let (mut m, _) = Match::new(300 + seed, RuleConfig::competition()).unwrap();
            let mut rng = ChaCha8Rng::seed_from_u64(seed);
            while m.deal_no() == 0 && overruled < 3 {
                let seat = m.to_act()[0];
                let view = m.view(Some(seat));
                if m.phase() == Phase::Play {
                    let d =
                        RankedL2::new(Weights::default(), true, 0).decide(&view, &mut rng.clone(), &Budget::untimed());
                    let l2 = l2_decision(&view, &Weights::default(), true);
                    let (t, l2t) = (d.trace.expect("a trace"), l2.trace.expect("a trace"));
                    if d.action == l2.action {
                        agreed += 1;
                        assert_eq!((&t.reason, &t.reason_args), (&l2t.reason, &l2t.reason_args));
                    } else if t.reason.starts_with("reason.learned_") {
                        overruled += 1;
                        let l2_best = &l2t.candidates[0];
                        assert_eq!(t.reason_args.len(), 4, "{:?}", t.reason_args);
                        assert_eq!(t.reason_args[2..], play_words(l2_best)[..], "the second play named is L2's");
                        assert_eq!(t.reason_args[..2], play_words(&t.candidates[0])[..], "the first is the play made");
                    }
                }
                let a = random_action(&m, &mut rng).unwrap();
                m.apply(&a).unwrap();
            }
        }
        assert!(overruled > 0 && agreed > 0, "overruled {overruled}, agreed {agreed}");
    }
}
