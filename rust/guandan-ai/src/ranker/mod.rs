//! The learned move ranker (issue 40): L2's score of each candidate plus a correction learned
//! from L3's search (expert iteration). `features` turns a view's candidates into inputs, `net`
//! runs the integer network and reads its weights file, `labels` is the label file written by
//! `guandan distill-labels`, `train` fits the network to them.

pub mod agent;
pub mod features;
pub mod labels;
pub mod net;
pub mod train;
pub mod why;

use crate::agent::{Candidate, Weights};
use features::Features;
use guandan_core::view::PlayerView;
use net::{Net, NetError};

/// A network fit for ranking: feature inputs of this build, one output.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Ranker {
    net: Net,
}

impl Ranker {
    pub fn new(net: Net) -> Result<Ranker, NetError> {
        if net.feature_version != features::VERSION {
            return Err(NetError::FeatureVersion { file: net.feature_version, expected: features::VERSION });
        }
        if net.inputs() != features::COUNT || net.outputs() != 1 {
            return Err(NetError::Shape(format!(
                "a ranker takes {} features and gives 1 score; this network takes {} and gives {}",
                features::COUNT,
                net.inputs(),
                net.outputs()
            )));
        }
        Ok(Ranker { net })
    }

    pub fn from_bytes(bytes: &[u8]) -> Result<Ranker, NetError> {
        Ranker::new(Net::from_bytes(bytes)?)
    }

    pub fn net(&self) -> &Net {
        &self.net
    }

    /// The learned correction to L2's score (integer arithmetic: the same on every CPU).
    pub fn correction(&self, f: &Features) -> f32 {
        self.net.forward(f)
    }

    /// L2's best `width` candidates of a play decision (those L3 searches, so those the labels
    /// cover), each scored L2 + correction, best first (ties keep L2's order).
    pub fn rank(&self, view: &PlayerView, weights: &Weights, width: usize) -> Vec<Candidate> {
        self.rank_scored(view, weights, width).into_iter().map(|r| r.candidate).collect()
    }

    /// [`Ranker::rank`] with each candidate's features and its place in L2's order.
    pub fn rank_scored(&self, view: &PlayerView, weights: &Weights, width: usize) -> Vec<Scored> {
        self.rerank(view, weights, crate::l2::ranked_candidates(view, weights), width)
    }

    /// Ranks `cands`, a play decision's candidates in L2's order (`l2::ranked_candidates`), as
    /// [`Ranker::rank_scored`] does: the best `width` of them, each scored L2 + correction.
    pub fn rerank(&self, view: &PlayerView, weights: &Weights, mut cands: Vec<Candidate>, width: usize) -> Vec<Scored> {
        // L2's order is kept, so the best's score and each one's rank index are the same as
        // over the whole list (the labels' features): only the best `width` are computed.
        cands.truncate(width.max(1));
        let feats = features::for_candidates(view, weights, &cands);
        let mut scored: Vec<Scored> = cands
            .into_iter()
            .zip(feats)
            .enumerate()
            .map(|(l2_place, (mut candidate, features))| {
                candidate.score += self.correction(&features);
                Scored { candidate, features, l2_place }
            })
            .collect();
        // A stable sort: equal scores stay in L2's order.
        scored.sort_by(|a, b| b.candidate.score.total_cmp(&a.candidate.score));
        scored
    }
}

/// A play decision's candidates in the order the profile's L2 plays them: with the ranker on
/// (`AiProfile::ranker`), L2's best [`agent::WIDTH`] as the ranker orders them, then the rest in
/// L2's order; otherwise L2's order (the hints follow the agent the player plays with).
pub fn ordered_candidates(view: &PlayerView, profile: &crate::AiProfile) -> Vec<Candidate> {
    let all = crate::l2::ranked_candidates(view, &profile.weights);
    match agent::generation(profile.ranker_generation).filter(|_| profile.ranker) {
        Some(ranker) => reorder(ranker, view, &profile.weights, all),
        None => all,
    }
}

/// `all`, candidates in L2's order, with the best [`agent::WIDTH`] as `ranker` orders (and
/// scores) them, then the rest in L2's order and with L2's scores.
pub fn reorder(ranker: &Ranker, view: &PlayerView, weights: &Weights, mut all: Vec<Candidate>) -> Vec<Candidate> {
    let rest = all.split_off(agent::WIDTH.min(all.len()));
    let mut ordered: Vec<Candidate> =
        ranker.rerank(view, weights, all, agent::WIDTH).into_iter().map(|s| s.candidate).collect();
    ordered.extend(rest);
    ordered
}

/// A candidate as the ranker scored it.
#[derive(Clone, Debug)]
pub struct Scored {
    pub candidate: Candidate,
    pub features: Features,
    /// Its place in L2's order (0: L2's own choice).
    pub l2_place: usize,
}
