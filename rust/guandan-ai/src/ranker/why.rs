//! The true reason when the learned ranker overrules L2: L2's own reason would explain L2's
//! choice, not the one made. The chosen play's features are compared with L2's pick group by
//! group: a group's share is how much of the correction's preference for the chosen play is
//! lost when the chosen play takes L2's pick's values of that group (occlusion). The group with
//! the largest share is what weighed most, and the player reads it in the game's words.

use super::Ranker;
use super::features::{self, Features};

/// A group of a candidate's own features (those that differ between two plays of one decision;
/// the table, the seats and the unseen cards are the same for both and weigh through them).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Motive {
    /// The hand after the play: turns and bombs left, groups kept whole.
    Shape,
    /// Whether the others can beat the play without a bomb.
    Control,
    /// The play's kind, size and height (a pass, a bomb, going out included).
    Kind,
    /// Wild cards spent or kept.
    Wilds,
    /// What the play does for the partner or against the opponents.
    Partners,
}

impl Motive {
    pub const ALL: [Motive; 5] = [Motive::Shape, Motive::Control, Motive::Kind, Motive::Wilds, Motive::Partners];

    /// The reason key the game translates (`reason.learned_*`, with the play as its arguments).
    pub fn reason_key(self) -> &'static str {
        match self {
            Motive::Shape => "reason.learned_shape",
            Motive::Control => "reason.learned_control",
            Motive::Kind => "reason.learned_kind",
            Motive::Wilds => "reason.learned_wilds",
            Motive::Partners => "reason.learned_partners",
        }
    }

    fn names(self) -> &'static [&'static str] {
        match self {
            Motive::Shape => &[
                "l2_hand/10",
                "turns_after/10",
                "bombs_after/4",
                "turns_saved",
                "bombs_spent",
                "breaks_triple_or_bomb",
                "my_cards_after/27",
            ],
            Motive::Control => &["higher_unseen_groups/13", "beatable_without_bomb"],
            Motive::Kind => &[
                "is_pass",
                "is_bomb",
                "goes_out",
                "play_cards/10",
                "play_order/17",
                "kind_single",
                "kind_pair",
                "kind_trips",
                "kind_three_with_two",
                "kind_straight",
                "kind_three_pair",
                "kind_two_trips",
                "kind_straight_flush",
                "kind_bomb",
                "kind_four_kings",
            ],
            Motive::Wilds => &["wilds_used", "wilds_after"],
            Motive::Partners => &["l2_partner/10", "l2_threat/10"],
        }
    }
}

/// What weighed most for `chosen` over `l2_pick` in the ranker's correction, with its share in L2
/// points; `None` when no group speaks for the chosen play (the preference lies in how the groups
/// combine, or the correction does not prefer it).
pub fn motive(ranker: &Ranker, chosen: &Features, l2_pick: &Features) -> Option<(Motive, f32)> {
    let full = ranker.correction(chosen);
    let mut best: Option<(Motive, f32)> = None;
    for m in Motive::ALL {
        let mut x = *chosen;
        for name in m.names() {
            let i = features::index(name);
            x[i] = l2_pick[i];
        }
        let share = full - ranker.correction(&x);
        // Strictly greater: ties keep the earlier group, so the reason is the same on every run.
        if share > 0.0 && best.is_none_or(|(_, s)| share > s) {
            best = Some((m, share));
        }
    }
    best
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ranker::net::{FloatLayer, Net};

    /// A one-layer network reading two features only: the motive is the group that holds the
    /// feature whose difference the network weighs, whatever the other group does.
    fn linear(weights: &[(&str, f32)]) -> Ranker {
        let mut w = vec![0.0f32; features::COUNT];
        for (name, v) in weights {
            w[features::index(name)] = *v;
        }
        let layer = FloatLayer { inputs: features::COUNT, outputs: 1, weights: w, bias: vec![0.0] };
        Ranker::new(Net::from_float(&[layer], features::VERSION)).expect("a ranker's shape")
    }

    fn feats(values: &[(&str, f32)]) -> Features {
        let mut f = [0i16; features::COUNT];
        for (name, v) in values {
            f[features::index(name)] = features::quantize(*v);
        }
        f
    }

    #[test]
    fn the_group_whose_difference_weighs_most_is_the_motive() {
        let r = linear(&[("higher_unseen_groups/13", -2.0), ("wilds_used", -0.5)]);
        // Chosen: fewer higher groups unseen (+1.0 for it) and one wild more (−0.5 against it).
        let chosen = feats(&[("higher_unseen_groups/13", 0.2), ("wilds_used", 1.0)]);
        let l2 = feats(&[("higher_unseen_groups/13", 0.7)]);
        let (m, share) = motive(&r, &chosen, &l2).expect("control speaks for it");
        assert_eq!(m, Motive::Control);
        assert!((share - 1.0).abs() < 0.02, "share {share}");
        // Swap the weights' sizes: now the wild saved weighs most.
        let r = linear(&[("higher_unseen_groups/13", -0.2), ("wilds_used", -3.0)]);
        let chosen = feats(&[("higher_unseen_groups/13", 0.2)]);
        let l2 = feats(&[("higher_unseen_groups/13", 0.7), ("wilds_used", 1.0)]);
        assert_eq!(motive(&r, &chosen, &l2).map(|(m, _)| m), Some(Motive::Wilds));
    }

    #[test]
    fn no_motive_when_nothing_speaks_for_the_chosen_play() {
        let r = linear(&[("turns_after/10", -1.0)]);
        let same = feats(&[("turns_after/10", 0.3)]);
        assert_eq!(motive(&r, &same, &same), None);
        // The chosen play is worse on the only weighed feature: no group speaks for it.
        let worse = feats(&[("turns_after/10", 0.5)]);
        assert_eq!(motive(&r, &worse, &same), None);
    }

    #[test]
    fn every_group_names_real_candidate_features_once() {
        let mut seen = std::collections::BTreeSet::new();
        for m in Motive::ALL {
            for name in m.names() {
                features::index(name);
                assert!(seen.insert(*name), "{name} in two groups");
            }
        }
    }
}
