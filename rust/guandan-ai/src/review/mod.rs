//! Deal review (复盘): L3 looks back over one seat's decisions of a recorded match.
//!
//! For each play decision of the seat (tribute and return are L2's and are not reviewed; a
//! decision with one candidate, or going out, is forced): the play made, L3's best and what the
//! difference costs in L3's own measure — the search's value, the viewer team's expected level
//! margin of the deal ([`crate::l3::L3::values`]).
//!
//! Two sets of sampled worlds per decision, both seeded from the review's seed and the action's
//! index (never the clock): the first (`worlds`) values every candidate L3's search would play
//! out, and the play made, and picks the best the way L3 does — the mean outcome plus
//! `SearchConfig::prior` times L2's score of the play (which values what a play keeps). The
//! second, independent one (`worlds` again) values only the best and the play made, and the cost
//! is measured there, in levels only: the best's expected level margin minus the play made's, so
//! a cost lies within [`level_scale`]. L2's score is no level (with it in the cost, costs ran to
//! 36 "levels", issue 53): its part — what the best keeps that the play made spends — is shown
//! apart as `keep_cost`. A decision is marked by L3's whole measure, `cost + keep_cost`, as L3
//! chooses: at least `inaccuracy` an inaccuracy, at least `mistake` a mistake. Picking and
//! measuring on the same worlds would charge the play made with the best's luck (the maximum of
//! several noisy values is biased upward); on fresh worlds the cost is unbiased and may come out
//! negative — no loss.

use crate::agent::{AiLevel, AiProfile, Candidate};
use crate::l3::L3;
use guandan_core::card::CardId;
use guandan_core::combo::Play;
use guandan_core::game::{ActionKind, Match, Phase, Seat};
use guandan_core::log::{LogError, MatchLog};
use guandan_core::rules::RuleConfig;
use guandan_core::view::PlayerView;
use serde::{Deserialize, Serialize};
use std::sync::atomic::{AtomicBool, Ordering};

/// How a review is made (its budget and thresholds); part of the review it makes.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct ReviewConfig {
    /// Worlds in each of the two sets a decision is valued in.
    pub worlds: u32,
    /// The review's seed: the same record, seed and worlds give the same review.
    pub seed: u64,
    /// Cost in levels from which a decision is an inaccuracy.
    pub inaccuracy: f32,
    /// Cost in levels from which a decision is a mistake.
    pub mistake: f32,
}

impl Default for ReviewConfig {
    fn default() -> Self {
        ReviewConfig { worlds: 48, seed: 0, inaccuracy: 0.3, mistake: 1.0 }
    }
}

/// How a decision is marked.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Mark {
    Good,
    Inaccuracy,
    Mistake,
}

/// A play as the review shows it: its card ids (empty for a pass), its kind and rank.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ShownPlay {
    pub cards: Vec<CardId>,
    /// `pass`, or the kind's name (`Single`, `Bomb`, …).
    pub kind: String,
    pub rank: String,
    /// Competition notation of the cards, `pass` for a pass.
    pub text: String,
}

impl ShownPlay {
    fn of(play: Option<&Play>) -> ShownPlay {
        match play {
            Some(p) => ShownPlay {
                cards: p.cards.ids(),
                kind: p.pattern.kind.name().to_string(),
                rank: p.pattern.rank_text(),
                text: p.cards.notation(),
            },
            None => ShownPlay { cards: Vec::new(), kind: "pass".into(), rank: String::new(), text: "pass".into() },
        }
    }
}

/// One reviewed decision.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ReviewedMove {
    /// Index of the action in the record (the replay's position before it).
    pub action: usize,
    pub deal_no: u32,
    pub played: ShownPlay,
    pub best: ShownPlay,
    /// Values (levels, the seat's team's side) of the play made and of L3's best, in the second
    /// set of worlds; equal when the play made is the best.
    pub value_played: f32,
    pub value_best: f32,
    /// `value_best - value_played` (levels), at least 0 and at most [`level_scale`].
    pub cost: f32,
    /// The rest of L3's measure, from its prior on L2's scores (what the best keeps — bombs,
    /// jokers, the hand's shape — in the weight L3's search gives it; no level): L3's measure of
    /// the difference, at least 0, is `cost + keep_cost`, and the mark is of it.
    pub keep_cost: f32,
    pub mark: Mark,
    /// Why the best play, in the hint's words (a reason key of `guandan_ai::advisor` and its
    /// arguments).
    pub reason: String,
    pub reason_args: Vec<String>,
}

impl ReviewedMove {
    /// L3's whole measure of the difference, what the mark is of: `cost + keep_cost`.
    pub fn measure(&self) -> f32 {
        self.cost + self.keep_cost
    }
}

/// One deal of the review.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct DealReview {
    pub deal_no: u32,
    /// The seat's play decisions that were not forced, in order.
    pub moves: Vec<ReviewedMove>,
    /// Decisions of the seat that had one answer only (not valued).
    pub forced: u32,
    pub inaccuracies: u32,
    pub mistakes: u32,
    /// Cost of the marked decisions, in levels.
    pub cost: f32,
    /// Index in `moves` of the marked decision of the largest measure, if any was marked.
    pub biggest: Option<usize>,
}

/// A whole review: one seat over a record.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Review {
    pub seat: Seat,
    pub config: ReviewConfig,
    /// The record's final state hash: which record this review is of.
    pub record_hash: String,
    pub deals: Vec<DealReview>,
    pub moves: u32,
    pub inaccuracies: u32,
    pub mistakes: u32,
    pub cost: f32,
    /// (deal index, move index) of the costliest marked decision of the match.
    pub biggest: Option<(usize, usize)>,
}

/// Why a record cannot be reviewed.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum ReviewError {
    #[error("the record does not replay: {0}")]
    Log(#[from] LogError),
    #[error("worlds must be 1..=4096, not {0}")]
    Worlds(u32),
    #[error("the record holds no deal {0} (deals are numbered from 0)")]
    Deal(u32),
    #[error("the review was cancelled")]
    Cancelled,
}

/// A record as `guandan replay record` and the game save it (JSON Lines), or a finished online
/// match as the server serves it (`GET /v1/matches/CODE/N`: one JSON object `{meta, log}`, the
/// log being those JSON Lines).
pub fn parse_record(text: &str) -> Result<MatchLog, ReviewError> {
    if let Ok(serde_json::Value::Object(o)) = serde_json::from_str::<serde_json::Value>(text)
        && o.contains_key("meta")
    {
        let Some(log) = o.get("log").and_then(|l| l.as_str()) else {
            return Err(LogError::Malformed { line: 1, message: "a stored match without its log".into() }.into());
        };
        return Ok(MatchLog::parse(log)?);
    }
    Ok(MatchLog::parse(text)?)
}

/// The L3 a review uses: the standard profile, one thread (sums are exact, so the thread
/// count never changes a value; more threads only go faster).
pub fn reviewer(threads: u32) -> L3 {
    let mut profile = AiProfile::level(AiLevel::L3);
    profile.threads = threads.max(1);
    L3::new(&profile)
}

/// The play decisions of `seat` in `log`: (action index, the view before it, the play made).
fn decisions(log: &MatchLog, seat: Seat) -> Result<Vec<(usize, PlayerView, Option<Play>)>, LogError> {
    let mut before: Match = log.start().map_err(|error| LogError::Rejected { index: 0, error })?.0;
    let mut out = Vec::new();
    log.replay_with(|i, a, _, after| {
        if a.seat == seat && before.phase() == Phase::Play {
            let view = before.view(Some(seat));
            let played = match &a.kind {
                ActionKind::Play { cards, .. } => before
                    .legal_plays()
                    .iter()
                    .find(|p| p.cards.ids() == *cards && Match::play_kind(p) == a.kind)
                    .copied(),
                _ => None,
            };
            let is_play = matches!(a.kind, ActionKind::Play { .. });
            if !is_play || played.is_some() {
                out.push((i, view, played));
            }
        }
        before = after.clone();
    })?;
    Ok(out)
}

/// Reviews `seat`'s decisions in `log` with `l3`; `progress(done, total)` after each decision.
/// The record is verified first (every action replayed, every checkpoint checked): a damaged
/// or tampered record is refused.
pub fn review(
    log: &MatchLog,
    seat: Seat,
    cfg: &ReviewConfig,
    l3: &L3,
    progress: impl FnMut(usize, usize),
) -> Result<Review, ReviewError> {
    review_cancellable(log, seat, cfg, l3, &AtomicBool::new(false), progress)
}

/// `review`, checking `cancel` before each decision: once it is set the review stops there with
/// `ReviewError::Cancelled` (a game's reviewer drops a review the player closed without waiting
/// for the rest of its decisions).
pub fn review_cancellable(
    log: &MatchLog,
    seat: Seat,
    cfg: &ReviewConfig,
    l3: &L3,
    cancel: &AtomicBool,
    progress: impl FnMut(usize, usize),
) -> Result<Review, ReviewError> {
    review_deal_cancellable(log, seat, None, cfg, l3, cancel, progress)
}

/// `review_cancellable` of one deal only (`deal` = its number, 0 = the first; `None`: all):
/// the table's review after a deal values that deal's decisions, not the whole match so far.
/// Each decision is valued exactly as in the whole review (its seed comes from its action
/// index), so a deal's review equals that deal's part of the whole one. A deal the record does
/// not hold is refused.
pub fn review_deal_cancellable(
    log: &MatchLog,
    seat: Seat,
    deal: Option<u32>,
    cfg: &ReviewConfig,
    l3: &L3,
    cancel: &AtomicBool,
    mut progress: impl FnMut(usize, usize),
) -> Result<Review, ReviewError> {
    if cfg.worlds == 0 || cfg.worlds > 4096 {
        return Err(ReviewError::Worlds(cfg.worlds));
    }
    let last = log.replay()?;
    let record_hash = last.state_hash();
    let mut decisions = decisions(log, seat)?;
    if let Some(deal) = deal {
        if deal > last.deal_no() {
            return Err(ReviewError::Deal(deal));
        }
        decisions.retain(|(_, view, _)| view.deal_no == deal);
    }
    let total = decisions.len();
    let mut deals: Vec<DealReview> = Vec::new();
    for (done, (action, view, played)) in decisions.into_iter().enumerate() {
        if cancel.load(Ordering::Relaxed) {
            return Err(ReviewError::Cancelled);
        }
        if deals.last().is_none_or(|d| d.deal_no != view.deal_no) {
            deals.push(DealReview {
                deal_no: view.deal_no,
                moves: Vec::new(),
                forced: 0,
                inaccuracies: 0,
                mistakes: 0,
                cost: 0.0,
                biggest: None,
            });
        }
        let deal = deals.last_mut().expect("pushed above");
        match review_move(l3, &view, played, action, cfg) {
            Some(m) => deal.moves.push(m),
            None => deal.forced += 1,
        }
        progress(done + 1, total);
    }
    Ok(summarize(seat, *cfg, record_hash, deals))
}

/// The candidates of `view` with the play made among them: (candidates, index of the play made).
fn with_played(l3: &L3, view: &PlayerView, played: Option<Play>) -> (Vec<Candidate>, usize) {
    let mut cands = l3.candidates(view);
    let same = |c: &Candidate| c.play.map(|p| p.cards) == played.map(|p| p.cards);
    let at = match cands.iter().position(same) {
        Some(i) => i,
        None => {
            // Not on L3's shortlist: its L2 score from L2's whole ranking.
            let all = crate::l2::ranked_candidates(view, &l3.weights);
            let c = all.into_iter().find(same).unwrap_or(Candidate {
                play: played,
                card: None,
                score: 0.0,
                hand: 0.0,
                partner: 0.0,
                threat: 0.0,
                search: None,
            });
            cands.push(c);
            cands.len() - 1
        }
    };
    (cands, at)
}

/// One decision valued, or `None` when it was forced.
fn review_move(
    l3: &L3,
    view: &PlayerView,
    played: Option<Play>,
    action: usize,
    cfg: &ReviewConfig,
) -> Option<ReviewedMove> {
    let legal = crate::agent::legal_plays(view);
    let answers = legal.len() + usize::from(view.can_pass());
    if answers <= 1 || played.is_some_and(|p| p.cards == view.hand) || view.hand.len() <= 1 {
        return None;
    }
    let (cands, at) = with_played(l3, view, played);
    if cands.len() <= 1 {
        return None;
    }
    let seed = cfg.seed ^ (action as u64 + 1).wrapping_mul(0xd1b5_4a32_d192_ed03);
    let worlds = cfg.worlds as usize;
    // L3's own measure: the search's mean plus its prior on L2's score (what a play keeps).
    let prior = |i: usize| l3.search.prior * cands[i].score;
    let first = l3.values(view, &cands, seed, worlds);
    let blended: Vec<f32> = (0..cands.len()).map(|i| first[i] + prior(i)).collect();
    // The first best wins a tie (candidates in L3's order, the play made last unless L3 ranked it).
    let best = (0..cands.len()).fold(0, |b, i| if blended[i] > blended[b] { i } else { b });
    let (value_best, value_played) = if best == at {
        (first[at], first[at])
    } else {
        let fresh = l3.values(view, &[cands[best].clone(), cands[at].clone()], !seed, worlds);
        (fresh[0], fresh[1])
    };
    let cost = (value_best - value_played).max(0.0);
    // L3's whole measure, at least 0 (the old cost), of which `cost` is the level part.
    let measure = (value_best + prior(best) - value_played - prior(at)).max(0.0);
    let keep_cost = measure - cost;
    let mark = if measure >= cfg.mistake {
        Mark::Mistake
    } else if measure >= cfg.inaccuracy {
        Mark::Inaccuracy
    } else {
        Mark::Good
    };
    let (reason, reason_args) = reason_of(view, &cands[best]);
    Some(ReviewedMove {
        action,
        deal_no: view.deal_no,
        played: ShownPlay::of(played.as_ref()),
        best: ShownPlay::of(cands[best].play.as_ref()),
        value_played,
        value_best,
        cost,
        keep_cost,
        mark,
        reason,
        reason_args,
    })
}

/// The widest cost a decision can have, in levels: a deal's value lies between minus and plus
/// its largest gain (the most levels a finish gives, plus the search's bonus for the win), so
/// two values differ by at most twice that.
pub fn level_scale(rules: &RuleConfig, l3: &L3) -> f32 {
    let most = rules.levels_per_finish.iter().copied().max().unwrap_or(0);
    2.0 * (f32::from(most) + l3.search.win_bonus.abs())
}

/// The best play's reason in the hint's words: the advisor's reason when it hints that play,
/// else the same words worked out for that play.
fn reason_of(view: &PlayerView, best: &Candidate) -> (String, Vec<String>) {
    let advice = crate::advisor::advise(view, &AiProfile::default(), 64);
    match advice.hints.iter().find(|h| h.play.map(|p| p.cards) == best.play.map(|p| p.cards)) {
        Some(h) => (h.reason.clone(), h.reason_args.clone()),
        None => crate::advisor::reason_of_play(view, best.play.as_ref()),
    }
}

/// Counts, costs and the biggest mistakes per deal and for the match.
fn summarize(seat: Seat, config: ReviewConfig, record_hash: String, mut deals: Vec<DealReview>) -> Review {
    let mut biggest: Option<(usize, usize)> = None;
    let mut biggest_cost = 0.0f32;
    for (di, d) in deals.iter_mut().enumerate() {
        for (mi, m) in d.moves.iter().enumerate() {
            match m.mark {
                Mark::Good => continue,
                Mark::Inaccuracy => d.inaccuracies += 1,
                Mark::Mistake => d.mistakes += 1,
            }
            d.cost += m.cost;
            if d.biggest.is_none_or(|b| m.measure() > d.moves[b].measure()) {
                d.biggest = Some(mi);
            }
            if m.measure() > biggest_cost {
                biggest_cost = m.measure();
                biggest = Some((di, mi));
            }
        }
    }
    Review {
        seat,
        config,
        record_hash,
        moves: deals.iter().map(|d| d.moves.len() as u32).sum(),
        inaccuracies: deals.iter().map(|d| d.inaccuracies).sum(),
        mistakes: deals.iter().map(|d| d.mistakes).sum(),
        cost: deals.iter().map(|d| d.cost).sum(),
        biggest,
        deals,
    }
}

mod cache;
pub use cache::{CacheError, REVIEW_CACHE_VERSION, ReviewCache, cache_path, load_cached, save_cached};

#[cfg(test)]
mod tests;
