//! L3 (hard): L2's judgement plus memory, inference and search.
//!
//! It remembers every card played (the view's public history), infers from passes which ranks a
//! player probably lacks, samples hidden hands consistent with what it knows (weighted by that
//! inference), and plays each of its best candidates out to the end of the deal in every sampled
//! world with L2 playing all seats. The candidate with the best mean outcome (blended with its L2
//! score) wins. Rollouts are split over the threads it is given; the result does not depend on the
//! number of threads.

use crate::agent::{Agent, Budget, Candidate, Decision, SearchConfig, Trace, Weights, duty};
/// Where L3 and `guandan bench` build their worlds (kept here for its callers).
pub use crate::belief::world;
use crate::belief::{Beliefs, infer, sample_world};
use crate::endgame;
use crate::l2::{l2_decision, ranked_candidates, reason_for};
use guandan_core::card::CardSet;
use guandan_core::game::{ActionKind, Event, Match, Phase, Seat, deal_gain, team_of};
use guandan_core::view::PlayerView;
use rand_chacha::ChaCha8Rng;
use rand_core::{Rng, SeedableRng};

pub struct L3 {
    pub weights: Weights,
    pub iterations: u32,
    pub threads: u32,
    pub trace: bool,
    pub search: SearchConfig,
    /// The ranker its switches use (`SearchConfig::rollout_ranker`, `prior_ranker`).
    pub ranker: Option<&'static crate::ranker::Ranker>,
}

impl L3 {
    pub fn new(profile: &crate::AiProfile) -> Self {
        L3 {
            weights: profile.weights,
            iterations: profile.iterations.max(1),
            threads: profile.threads.max(1),
            trace: profile.trace,
            search: profile.search,
            ranker: crate::ranker::agent::generation(profile.ranker_generation),
        }
    }
}

/// One candidate L3 played out: L2's candidate as ranked (its `score` is L2's, not the blend),
/// the mean outcome of its playouts (levels, viewer team's side) and the worlds it met.
#[derive(Clone, Debug, PartialEq)]
pub struct Searched {
    pub candidate: Candidate,
    pub mean: f32,
    pub worlds: u32,
}

/// A decision with the search behind it ([`L3::decide_with_report`]).
#[derive(Clone, Debug, PartialEq)]
pub struct SearchReport {
    pub decision: Decision,
    /// The candidates played out, in L2's order; empty when the decision was not searched.
    pub searched: Vec<Searched>,
    /// Worlds played in all.
    pub playouts: u32,
}

impl SearchReport {
    fn unsearched(decision: Decision) -> Self {
        SearchReport { decision, searched: Vec::new(), playouts: 0 }
    }
}

/// A finished deal from the viewer team's side: + levels won, − levels conceded, each with
/// `win_bonus` more.
fn outcome(order: &[Seat; 4], rules: &guandan_core::rules::RuleConfig, me: Seat, win_bonus: f32) -> f32 {
    let gain = deal_gain(order, rules) as f32 + win_bonus;
    if team_of(order[0]) == team_of(me) { gain } else { -gain }
}

/// How a playout chooses: L2's best, or (`temperature` > 0) one of L2's candidates drawn with
/// weight 1 − gap / temperature, where gap is how far its score lies below the best. Plain
/// arithmetic (no `exp`), so the draw is the same on every platform.
struct Rollout<'a> {
    weights: &'a Weights,
    temperature: f32,
    rng: ChaCha8Rng,
    /// Rank by the learned ranker (`SearchConfig::rollout_ranker`) instead of L2's score.
    ranker: Option<&'static crate::ranker::Ranker>,
    /// Plies the ranker still chooses (`SearchConfig::rollout_ranker_plies`; `u32::MAX`: all).
    ranker_plies: u32,
}

impl Rollout<'_> {
    fn choose(&mut self, view: &PlayerView) -> ActionKind {
        let ranker = self.ranker.filter(|_| self.ranker_plies > 0);
        self.ranker_plies = self.ranker_plies.saturating_sub(1);
        if self.temperature <= 0.0 && ranker.is_none() {
            return l2_decision(view, self.weights, false).action;
        }
        let cands = match ranker {
            Some(r) => r.rank(view, self.weights, crate::ranker::agent::WIDTH),
            None => ranked_candidates(view, self.weights),
        };
        let Some(best) = cands.first().map(|c| c.score) else {
            return l2_decision(view, self.weights, false).action;
        };
        if self.temperature <= 0.0 {
            return cands[0].play.map_or(ActionKind::Pass, |p| Match::play_kind(&p));
        }
        let weight = |c: &Candidate| (1.0 - (best - c.score) / self.temperature).max(0.0);
        let total: f32 = cands.iter().map(weight).sum();
        let mut x = (self.rng.next_u32() >> 8) as f32 / (1u32 << 24) as f32 * total;
        let mut pick = &cands[0];
        for c in &cands {
            let w = weight(c);
            if w > 0.0 && x < w {
                pick = c;
                break;
            }
            x -= w;
        }
        pick.play.map_or(ActionKind::Pass, |p| Match::play_kind(&p))
    }
}

/// Plays a world to the end of the deal with the rollout policy (L2 unless a switch says
/// otherwise) everywhere; the viewer team's outcome.
fn playout(mut m: Match, me: Seat, rollout: &mut Rollout, win_bonus: f32, budget: &Budget) -> f32 {
    let mut events = Vec::with_capacity(8);
    for _ in 0..400 {
        if budget.must_stop() {
            return 0.0;
        }
        let seat = m.turn();
        let view = m.light_view(seat);
        let kind = rollout.choose(&view);
        events.clear();
        let action = m.action(seat, kind);
        if m.apply_into(&action, &mut events).is_err() {
            return 0.0;
        }
        for e in &events {
            if let Event::DealEnded { order, .. } = e {
                return outcome(order, m.rules(), me, win_bonus);
            }
        }
    }
    0.0
}

/// Plays candidate `c` for `me` in world `base`, then the deal to its end (solved exactly when
/// few cards are left, see `SearchConfig::endgame_cards`); the viewer team's outcome, and whether
/// the solver decided it. `rollout_seed` seeds the playout's draws (the same for every candidate
/// of a world).
#[allow(clippy::too_many_arguments)]
fn evaluate_in(
    base: &Match,
    me: Seat,
    c: &Candidate,
    weights: &Weights,
    search: &SearchConfig,
    ranker: Option<&'static crate::ranker::Ranker>,
    rollout_seed: u64,
    budget: &Budget,
) -> Option<(f32, bool)> {
    let mut m = base.clone();
    let kind = match c.play {
        Some(p) => Match::play_kind(&p),
        None => ActionKind::Pass,
    };
    let a = m.action(me, kind);
    let mut ev = Vec::new();
    m.apply_into(&a, &mut ev).ok()?;
    let ended = ev.iter().find_map(|e| match e {
        Event::DealEnded { order, .. } => Some(*order),
        _ => None,
    });
    if let Some(order) = ended {
        return Some((outcome(&order, m.rules(), me, search.win_bonus), false));
    }
    if search.endgame_cards > 0
        && endgame::cards_left(&m) <= search.endgame_cards as usize
        && let Some(solved) = endgame::solve(&m, me, search.endgame_nodes)
    {
        let v = f32::from(solved.value);
        return Some((v + search.win_bonus * v.signum(), true));
    }
    let mut rollout = Rollout {
        weights,
        temperature: search.rollout_temperature,
        rng: ChaCha8Rng::seed_from_u64(rollout_seed),
        ranker: ranker.filter(|_| search.rollout_ranker),
        ranker_plies: if search.rollout_ranker_plies == 0 { u32::MAX } else { search.rollout_ranker_plies },
    };
    Some((playout(m, me, &mut rollout, search.win_bonus, budget), false))
}

/// What one round of worlds gave: outcome sums of the alive candidates, worlds played, and the
/// evaluations made and solved exactly.
struct RoundResult {
    sums: Vec<f32>,
    worlds: u32,
    evaluations: u32,
    solved: u32,
}

/// The candidates searched: L2's best `width`; with `keep_pass_and_bomb`, also the pass and
/// L2's best bomb when L2 ranked them lower (the two answers whose value L2's scoring guesses
/// worst: holding back, and spending a bomb).
fn shortlist(cands: &mut Vec<Candidate>, width: usize, keep_pass_and_bomb: bool) {
    if !keep_pass_and_bomb || cands.len() <= width {
        cands.truncate(width);
        return;
    }
    let pass = cands.iter().position(|c| c.play.is_none());
    let bomb = cands.iter().position(|c| c.play.is_some_and(|p| p.pattern.kind.is_bomb()));
    let extra: Vec<Candidate> =
        [pass, bomb].into_iter().flatten().filter(|&i| i >= width).map(|i| cands[i].clone()).collect();
    cands.truncate(width);
    cands.extend(extra);
}

impl L3 {
    /// A diagnostic, never a player: the same search with every world the true `hands` (what
    /// L3 would choose with perfect beliefs). The arena's `--a-oracle` uses it to bound what any
    /// inference about hidden hands could add; nothing that plays a person calls it.
    pub fn decide_knowing(
        &mut self,
        view: &PlayerView,
        hands: [CardSet; 4],
        rng: &mut ChaCha8Rng,
        budget: &Budget,
    ) -> Decision {
        self.decide_in(view, Some(hands), rng, budget)
    }

    /// Play decisions are searched; tribute and return are L2's.
    fn decide_in(
        &self,
        view: &PlayerView,
        known: Option<[CardSet; 4]>,
        rng: &mut ChaCha8Rng,
        budget: &Budget,
    ) -> Decision {
        self.decide_reporting(view, known, rng, budget).decision
    }

    /// The decision exactly as [`Agent::decide`] makes it (same view, same generator state),
    /// with what the search found for each candidate it played out: the labels of the learned
    /// ranker (`guandan distill-labels`). `searched` is empty when nothing was searched
    /// (tribute, return, a forced move, going out).
    pub fn decide_with_report(&mut self, view: &PlayerView, rng: &mut ChaCha8Rng, budget: &Budget) -> SearchReport {
        self.decide_reporting(view, None, rng, budget)
    }

    fn decide_reporting(
        &self,
        view: &PlayerView,
        known: Option<[CardSet; 4]>,
        rng: &mut ChaCha8Rng,
        budget: &Budget,
    ) -> SearchReport {
        match duty(view) {
            Some(Phase::Play) => self.search(view, known, rng, budget),
            _ => SearchReport::unsearched(l2_decision(view, &self.weights, self.trace)),
        }
    }

    /// Sums of playout outcomes of `alive` candidates over worlds `first..first + count`, and the
    /// worlds played. Each thread takes every `threads`-th world; outcomes are whole numbers of
    /// levels, so the sums are exact and independent of how the worlds are split.
    #[allow(clippy::too_many_arguments)]
    fn play_worlds(
        &self,
        view: &PlayerView,
        cands: &[Candidate],
        alive: &[usize],
        beliefs: &Beliefs,
        world_seed: &(dyn Fn(usize) -> u64 + Sync),
        known: Option<[CardSet; 4]>,
        first: usize,
        count: usize,
        budget: &Budget,
    ) -> RoundResult {
        let me = view.seat.unwrap_or(Seat::ZERO);
        let threads = (self.threads as usize).min(count).max(1);
        let empty = || RoundResult { sums: vec![0.0f32; alive.len()], worlds: 0, evaluations: 0, solved: 0 };
        let per_thread: Vec<RoundResult> = std::thread::scope(|scope| {
            let handles: Vec<_> = (0..threads)
                .map(|t| {
                    scope.spawn(move || {
                        let mut r = empty();
                        for w in (first + t..first + count).step_by(threads) {
                            if budget.soft_expired() {
                                break;
                            }
                            let seed = world_seed(w);
                            let mut wr = ChaCha8Rng::seed_from_u64(seed);
                            let hands = known.unwrap_or_else(|| sample_world(view, beliefs, &mut wr));
                            let Some(base) = world(view, hands) else { continue };
                            for (i, &ci) in alive.iter().enumerate() {
                                let (v, solved) = evaluate_in(
                                    &base,
                                    me,
                                    &cands[ci],
                                    &self.weights,
                                    &self.search,
                                    self.ranker,
                                    !seed,
                                    budget,
                                )
                                .unwrap_or((0.0, false));
                                r.sums[i] += v;
                                r.evaluations += 1;
                                r.solved += u32::from(solved);
                            }
                            r.worlds += 1;
                        }
                        r
                    })
                })
                .collect();
            handles.into_iter().map(|h| h.join().unwrap_or_else(|_| empty())).collect()
        });
        let mut total = empty();
        for r in &per_thread {
            for (acc, x) in total.sums.iter_mut().zip(&r.sums) {
                *acc += x;
            }
            total.worlds += r.worlds;
            total.evaluations += r.evaluations;
            total.solved += r.solved;
        }
        total
    }

    /// Searches `view`'s decision in sampled worlds, or (`known`, a diagnostic only: see
    /// `decide_knowing`) in the true hands.
    fn search(
        &self,
        view: &PlayerView,
        known: Option<[CardSet; 4]>,
        rng: &mut ChaCha8Rng,
        budget: &Budget,
    ) -> SearchReport {
        let l2 = || SearchReport::unsearched(l2_decision(view, &self.weights, self.trace));
        let mut cands = ranked_candidates(view, &self.weights);
        if cands.len() <= 1 || view.hand.len() <= 1 {
            return l2();
        }
        // Going out ends the question.
        if cands[0].play.is_some_and(|p| p.cards == view.hand) {
            return l2();
        }
        if self.search.prior_ranker
            && let Some(ranker) = self.ranker
        {
            cands = crate::ranker::reorder(ranker, view, &self.weights, cands);
        }
        shortlist(&mut cands, self.search.width.max(1) as usize, self.search.keep_pass_and_bomb);
        let beliefs = infer(view, self.search.infer);
        // World seeds are derived, not stored: a time budget may ask for "unlimited" worlds.
        let base = rng.next_u64();
        let world_seed = move |w: usize| base ^ (w as u64).wrapping_mul(0x9e37_79b9_7f4a_7c15);
        let n = cands.len();
        // Rounds: one flat round, or successive halving (ceil(log2 n) rounds sharing the budget).
        let rounds = if self.search.halving { (usize::BITS - (n - 1).leading_zeros()).max(1) as usize } else { 1 };
        let per_round = (self.iterations as usize / rounds).max(1);
        let mut sums = vec![0.0f32; n];
        let mut seen = vec![0u32; n];
        let mut alive: Vec<usize> = (0..n).collect();
        let mut next_world = 0usize;
        let mut total = 0u32;
        let (mut evaluations, mut solved) = (0u32, 0u32);
        let score = |ci: usize, sums: &[f32], seen: &[u32]| {
            let mean = if seen[ci] > 0 { sums[ci] / seen[ci] as f32 } else { 0.0 };
            mean + self.search.prior * cands[ci].score
        };
        let cards: u32 = view.card_counts.iter().map(|&c| c as u32).sum::<u32>().max(1);
        let work_round = self.search.work as usize / rounds;
        for round in 0..rounds {
            let mut worlds = (per_round / alive.len()).max(1);
            // A time budget (machine-dependent by choice) replaces the work cap; each round may
            // use its share of it.
            if self.search.work > 0 && budget.soft.is_none() {
                worlds = worlds.min((work_round / (alive.len() * cards as usize)).max(2));
            }
            let share =
                Budget { soft: budget.soft.map(|t| t.mul_f64((round + 1) as f64 / rounds as f64)), ..budget.clone() };
            let r = self.play_worlds(view, &cands, &alive, &beliefs, &world_seed, known, next_world, worlds, &share);
            let done = r.worlds;
            next_world += worlds;
            total += done;
            evaluations += r.evaluations;
            solved += r.solved;
            for (i, &ci) in alive.iter().enumerate() {
                sums[ci] += r.sums[i];
                seen[ci] += done;
            }
            if done == 0 || round + 1 == rounds {
                break;
            }
            // Keep the better half (stable: ties keep the L2 order).
            alive.sort_by(|&a, &b| score(b, &sums, &seen).total_cmp(&score(a, &sums, &seen)).then(a.cmp(&b)));
            alive.truncate(alive.len().div_ceil(2));
            alive.sort_unstable();
        }
        if total == 0 {
            return l2();
        }
        let searched = (0..n)
            .filter(|&ci| seen[ci] > 0)
            .map(|ci| Searched { candidate: cands[ci].clone(), mean: sums[ci] / seen[ci] as f32, worlds: seen[ci] })
            .collect();
        let mut scored: Vec<(bool, Candidate)> = cands
            .iter()
            .enumerate()
            .map(|(ci, c)| {
                let searched = seen[ci] > 0;
                let mean = searched.then(|| sums[ci] / seen[ci] as f32);
                (alive.contains(&ci), Candidate { search: mean, score: score(ci, &sums, &seen), ..c.clone() })
            })
            .collect();
        // The survivors of the last round first, best score first.
        scored.sort_by(|a, b| b.0.cmp(&a.0).then(b.1.score.total_cmp(&a.1.score)));
        let scored: Vec<Candidate> = scored.into_iter().map(|(_, c)| c).collect();
        let best = scored[0].clone();
        let action = match best.play {
            Some(p) => Match::play_kind(&p),
            None => ActionKind::Pass,
        };
        let trace = self.trace.then(|| {
            let (reason, reason_args) = reason_for(&best, view);
            Trace {
                agent: "L3".into(),
                candidates: scored,
                reason,
                reason_args,
                playouts: total,
                evaluations,
                solved,
                fell_back: false,
            }
        });
        SearchReport { decision: Decision { action, trace }, searched, playouts: total }
    }
}

impl L3 {
    /// The candidates L3's search plays out for `view` (L2's order, the ranker's reordering,
    /// the shortlist), as `search` takes them; empty when nothing would be searched.
    pub fn candidates(&self, view: &PlayerView) -> Vec<Candidate> {
        let mut cands = ranked_candidates(view, &self.weights);
        if self.search.prior_ranker
            && let Some(ranker) = self.ranker
        {
            cands = crate::ranker::reorder(ranker, view, &self.weights, cands);
        }
        shortlist(&mut cands, self.search.width.max(1) as usize, self.search.keep_pass_and_bomb);
        cands
    }

    /// The search's value of each of `cands` for `view` — the mean outcome (levels, the viewer
    /// team's side, as the search scores a deal) over the same `worlds` sampled worlds, every
    /// world played for every candidate (common random numbers). Seeded by `seed` only, never
    /// timed: the deal review's measure (`crate::review`).
    pub fn values(&self, view: &PlayerView, cands: &[Candidate], seed: u64, worlds: usize) -> Vec<f32> {
        if cands.is_empty() || worlds == 0 {
            return vec![0.0; cands.len()];
        }
        let beliefs = infer(view, self.search.infer);
        let world_seed = move |w: usize| seed ^ (w as u64).wrapping_mul(0x9e37_79b9_7f4a_7c15);
        let alive: Vec<usize> = (0..cands.len()).collect();
        let r = self.play_worlds(view, cands, &alive, &beliefs, &world_seed, None, 0, worlds, &Budget::untimed());
        r.sums.iter().map(|s| s / r.worlds.max(1) as f32).collect()
    }
}

impl Agent for L3 {
    fn name(&self) -> String {
        "L3".into()
    }
    fn decide(&mut self, view: &PlayerView, rng: &mut ChaCha8Rng, budget: &Budget) -> Decision {
        self.decide_in(view, None, rng, budget)
    }
}

#[cfg(test)]
mod tests;
