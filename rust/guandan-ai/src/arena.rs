//! The arena: duplicate deals between two agent profiles. Every deal is played twice with the
//! teams' seats swapped, so card luck cancels.

use crate::agent::{Budget, MAX_AI_DECISION_MS};
use crate::percentile::nearest_rank;
use crate::{AiProfile, make_agent};
use guandan_core::deal::{below, deal_hands, deal_rng};
use guandan_core::game::{DealSetup, Event, Match, Seat, Team, deal_gain, team_of};
use guandan_core::rules::RuleConfig;
use rand_chacha::ChaCha8Rng;
use rand_core::SeedableRng;
use serde::{Deserialize, Serialize};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::{Duration, Instant};

#[derive(Clone, Debug)]
pub struct ArenaConfig {
    pub a: AiProfile,
    pub b: AiProfile,
    /// Distinct deals; each is played twice.
    pub deals: u32,
    pub seed: u64,
    pub rules: RuleConfig,
    pub threads: usize,
    /// Whole matches (each played twice, seats swapped) after the deals; 0 = none.
    pub matches: u32,
    /// A diagnostic: A's L3 searches the true hands instead of sampled worlds
    /// (`L3::decide_knowing`), to bound what better beliefs could add. Never a player.
    pub a_oracle: bool,
    /// Measurement on a loaded machine: no decision is cut by the 3 s limit or replaced by L1,
    /// so each is the whole work its profile asks for, whatever the machine's load (fallbacks
    /// are then 0 by construction; the decision times still say how long they took).
    pub untimed: bool,
}

/// One game of one deal.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Game {
    pub a_won: bool,
    /// Levels the winning team gained.
    pub gain: u8,
    pub a_times_us: Vec<u32>,
    pub b_times_us: Vec<u32>,
    pub a_fallbacks: u32,
}

#[derive(Clone, Debug, Serialize)]
pub struct ArenaReport {
    pub a: String,
    pub b: String,
    pub deals: u32,
    pub games: u32,
    pub a_deal_win_rate: f64,
    pub a_deal_win_rate_ci95: [f64; 2],
    /// Mean levels team A gained per game (0 when it lost).
    pub a_level_gain_per_deal: f64,
    pub b_level_gain_per_deal: f64,
    pub a_decision_ms_p50: f64,
    pub a_decision_ms_p99: f64,
    pub b_decision_ms_p50: f64,
    pub b_decision_ms_p99: f64,
    pub a_decisions: usize,
    pub b_decisions: usize,
    pub a_fallbacks: u32,
    /// Duplicate pairs (a deal played twice, seats swapped): won twice by A, twice by B, split.
    /// Split pairs are decided by the cards; the others by the players.
    pub pairs_a_both: u32,
    pub pairs_b_both: u32,
    pub pairs_split: u32,
    /// A's levels minus B's over a deal's two games (+gain when A's team won a game, −gain when
    /// it lost), the mean over deals and its 95% interval: the paired measure, far less noisy
    /// than the win rate.
    pub a_level_margin_per_deal: f64,
    pub a_level_margin_ci95: [f64; 2],
    /// Whole matches played (twice each), when asked for.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub matches: Option<u32>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub a_match_win_rate: Option<f64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub a_match_win_rate_ci95: Option<[f64; 2]>,
    pub seed: u64,
    pub rules: String,
}

/// The starting situation of deal `i` of an arena (level 2, no tribute, drawn leader).
pub fn deal_setup(seed: u64, i: u32, rules: &RuleConfig) -> DealSetup {
    let mut rng = deal_rng(seed, i);
    let hands = deal_hands(&mut rng);
    let leader = Seat::ALL[below(&mut rng, 4) as usize];
    DealSetup {
        rules: rules.clone(),
        seed: seed ^ i as u64,
        deal_no: 0,
        team_levels: [guandan_core::card::Rank::TWO; 2],
        ace_failures: [0, 0],
        declarer: None,
        last_order: None,
        hands,
        leader,
    }
}

/// Two agent profiles at a table: A at the even seats when `a_even`.
struct Table<'a> {
    agents: [Box<dyn crate::Agent>; 2],
    /// A's L3 when it searches the true hands (`ArenaConfig::a_oracle`).
    oracle: Option<crate::l3::L3>,
    profiles: [&'a AiProfile; 2],
    a_even: bool,
    untimed: bool,
    game: Game,
}

impl<'a> Table<'a> {
    fn new(a: &'a AiProfile, b: &'a AiProfile, a_even: bool, a_oracle: bool, untimed: bool) -> Self {
        let oracle = (a_oracle && a.level == crate::AiLevel::L3).then(|| crate::l3::L3::new(a));
        let agents = [make_agent(a), make_agent(b)];
        Table { agents, oracle, profiles: [a, b], a_even, untimed, game: Game::default() }
    }

    /// One decision of the seat to act, applied; `false` when nobody is to act.
    fn step(&mut self, m: &mut Match, seed: u64, events: &mut Vec<Event>) -> bool {
        let Some(&seat) = m.to_act().first() else { return false };
        let is_a = (seat.team() == Team::ZERO) == self.a_even;
        let who = if is_a { 0 } else { 1 };
        let view = m.view(Some(seat));
        let mut rng = ChaCha8Rng::seed_from_u64(seed ^ m.seq().wrapping_mul(0x9e37_79b9_7f4a_7c15));
        let budget = if self.untimed { Budget::untimed() } else { Budget::with_soft_ms(self.profiles[who].budget_ms) };
        let t = Instant::now();
        let mut decision = match (&mut self.oracle, is_a) {
            (Some(l3), true) => l3.decide_knowing(&view, *m.hands(), &mut rng, &budget),
            _ => self.agents[who].decide(&view, &mut rng, &budget),
        };
        let us = t.elapsed().as_micros().min(u32::MAX as u128) as u32;
        if !self.untimed && t.elapsed() > Duration::from_millis(MAX_AI_DECISION_MS) {
            decision = crate::l1::l1_decision(&view);
            if is_a {
                self.game.a_fallbacks += 1;
            }
        }
        if is_a {
            self.game.a_times_us.push(us)
        } else {
            self.game.b_times_us.push(us)
        }
        let action = m.action(seat, decision.action);
        events.clear();
        if m.apply_into(&action, events).is_err() {
            // An illegal agent action is an agent bug: play the L1 move so the arena finishes.
            let fallback = m.action(seat, crate::l1::l1_decision(&view).action);
            m.apply_into(&fallback, events).expect("L1 plays only legal moves");
        }
        true
    }
}

/// Plays one deal to its end; A sits at the even seats when `a_even`.
pub fn play_deal(setup: &DealSetup, a: &AiProfile, b: &AiProfile, a_even: bool, a_oracle: bool, untimed: bool) -> Game {
    let (mut m, _) = Match::from_deal(setup).expect("arena setups are valid");
    let mut table = Table::new(a, b, a_even, a_oracle, untimed);
    let mut events = Vec::new();
    while table.step(&mut m, setup.seed, &mut events) {
        if let Some(order) = events.iter().find_map(|e| match e {
            Event::DealEnded { order, .. } => Some(*order),
            _ => None,
        }) {
            table.game.a_won = (team_of(order[0]) == Team::ZERO) == a_even;
            table.game.gain = deal_gain(&order, &setup.rules);
            break;
        }
    }
    table.game
}

/// Plays a whole match (2 to the end); `Some(true)` when A's team won, `None` for a draw or a
/// match cut off after `max_actions`.
pub fn play_match(
    seed: u64,
    rules: &RuleConfig,
    a: &AiProfile,
    b: &AiProfile,
    a_even: bool,
    a_oracle: bool,
) -> (Option<bool>, Game) {
    let (mut m, _) = Match::new(seed, rules.clone()).expect("arena rules are valid");
    let mut table = Table::new(a, b, a_even, a_oracle, false);
    let mut events = Vec::new();
    while m.seq() < 50_000 && table.step(&mut m, seed, &mut events) {}
    let won = m.outcome().and_then(|o| o.winner()).map(|t| (t == Team::ZERO) == a_even);
    (won, table.game)
}

/// A percentile of decision times (µs) in milliseconds; 0 without decisions.
fn percentile_ms(sorted_us: &[u32], p: f64) -> f64 {
    nearest_rank(sorted_us, p).map_or(0.0, |us| f64::from(us) / 1000.0)
}

/// Wilson score interval for a proportion.
pub fn wilson95(wins: f64, n: f64) -> [f64; 2] {
    if n == 0.0 {
        return [0.0, 1.0];
    }
    let z = 1.96;
    let p = wins / n;
    let denom = 1.0 + z * z / n;
    let centre = (p + z * z / (2.0 * n)) / denom;
    let half = z * ((p * (1.0 - p) + z * z / (4.0 * n)) / n).sqrt() / denom;
    [(centre - half).max(0.0), (centre + half).min(1.0)]
}

/// Runs `total` jobs over the configured threads; results in job order.
fn parallel<T: Send>(threads: usize, total: usize, job: &(dyn Fn(usize) -> T + Sync)) -> Vec<T> {
    let next = AtomicUsize::new(0);
    let mut out: Vec<(usize, T)> = std::thread::scope(|scope| {
        let handles: Vec<_> = (0..threads.max(1))
            .map(|_| {
                scope.spawn(|| {
                    let mut mine = Vec::new();
                    loop {
                        let g = next.fetch_add(1, Ordering::Relaxed);
                        if g >= total {
                            break;
                        }
                        mine.push((g, job(g)));
                    }
                    mine
                })
            })
            .collect();
        handles.into_iter().flat_map(|h| h.join().unwrap_or_default()).collect()
    });
    out.sort_by_key(|(g, _)| *g);
    out.into_iter().map(|(_, t)| t).collect()
}

/// The mean of `xs` and its normal 95% interval.
pub fn mean_ci95(xs: &[f64]) -> (f64, [f64; 2]) {
    let n = xs.len() as f64;
    if n < 2.0 {
        let m = xs.first().copied().unwrap_or(0.0);
        return (m, [m, m]);
    }
    let mean = xs.iter().sum::<f64>() / n;
    let var = xs.iter().map(|x| (x - mean).powi(2)).sum::<f64>() / (n - 1.0);
    let half = 1.96 * (var / n).sqrt();
    (mean, [mean - half, mean + half])
}

/// Runs the arena; `progress` is called with the number of finished games.
pub fn run(cfg: &ArenaConfig, progress: &(dyn Fn(usize) + Sync)) -> ArenaReport {
    run_resuming(cfg, &[], &|_, _| {}, progress)
}

/// Runs the arena with the games already played (`played[g]`, game `g` = deal `g / 2`, A at the
/// even seats when `g` is even: the same game a fresh run would play, card for card) taken as
/// they are; each game played now is handed to `finished` as it ends (a journal writes it down),
/// from the worker threads. The report is the one an uninterrupted run gives.
pub fn run_resuming(
    cfg: &ArenaConfig,
    played: &[Option<Game>],
    finished: &(dyn Fn(usize, &Game) + Sync),
    progress: &(dyn Fn(usize) + Sync),
) -> ArenaReport {
    let total = cfg.deals as usize * 2;
    let done = AtomicUsize::new(0);
    let games: Vec<Game> = parallel(cfg.threads, total, &|g| {
        let game = match played.get(g) {
            Some(Some(game)) => game.clone(),
            _ => {
                let setup = deal_setup(cfg.seed, (g / 2) as u32, &cfg.rules);
                let game = play_deal(&setup, &cfg.a, &cfg.b, g.is_multiple_of(2), cfg.a_oracle, cfg.untimed);
                finished(g, &game);
                game
            }
        };
        progress(done.fetch_add(1, Ordering::Relaxed) + 1);
        game
    });
    let match_results: Vec<(Option<bool>, Game)> = parallel(cfg.threads, cfg.matches as usize * 2, &|g| {
        let r = play_match(
            cfg.seed.wrapping_add((g / 2) as u64),
            &cfg.rules,
            &cfg.a,
            &cfg.b,
            g.is_multiple_of(2),
            cfg.a_oracle,
        );
        progress(done.fetch_add(1, Ordering::Relaxed) + 1);
        r
    });
    let match_wins = match_results.iter().filter(|(w, _)| *w == Some(true)).count() as f64;
    let match_n = match_results.len() as f64;
    let n = games.len() as f64;
    let wins = games.iter().filter(|g| g.a_won).count() as f64;
    let a_gain: f64 = games.iter().filter(|g| g.a_won).map(|g| g.gain as f64).sum();
    let b_gain: f64 = games.iter().filter(|g| !g.a_won).map(|g| g.gain as f64).sum();
    let mut at: Vec<u32> = games.iter().flat_map(|g| g.a_times_us.iter().copied()).collect();
    let mut bt: Vec<u32> = games.iter().flat_map(|g| g.b_times_us.iter().copied()).collect();
    at.sort_unstable();
    bt.sort_unstable();
    let signed = |g: &Game| if g.a_won { f64::from(g.gain) } else { -f64::from(g.gain) };
    let pairs: Vec<(bool, bool, f64)> = games
        .chunks(2)
        .filter(|c| c.len() == 2)
        .map(|c| (c[0].a_won, c[1].a_won, signed(&c[0]) + signed(&c[1])))
        .collect();
    let margins: Vec<f64> = pairs.iter().map(|p| p.2).collect();
    let (margin, margin_ci) = mean_ci95(&margins);
    let label = |p: &AiProfile| {
        if *p == AiProfile::level(p.level) {
            format!("{:?}", p.level)
        } else if *p == AiProfile::v1(p.level) {
            format!("{:?}v1", p.level)
        } else {
            format!("{:?}*", p.level)
        }
    };
    ArenaReport {
        a: label(&cfg.a),
        b: label(&cfg.b),
        deals: cfg.deals,
        games: games.len() as u32,
        a_deal_win_rate: if n > 0.0 { wins / n } else { 0.0 },
        a_deal_win_rate_ci95: wilson95(wins, n),
        a_level_gain_per_deal: if n > 0.0 { a_gain / n } else { 0.0 },
        b_level_gain_per_deal: if n > 0.0 { b_gain / n } else { 0.0 },
        a_decision_ms_p50: percentile_ms(&at, 0.5),
        a_decision_ms_p99: percentile_ms(&at, 0.99),
        b_decision_ms_p50: percentile_ms(&bt, 0.5),
        b_decision_ms_p99: percentile_ms(&bt, 0.99),
        a_decisions: at.len(),
        b_decisions: bt.len(),
        a_fallbacks: games.iter().map(|g| g.a_fallbacks).sum(),
        pairs_a_both: pairs.iter().filter(|p| p.0 && p.1).count() as u32,
        pairs_b_both: pairs.iter().filter(|p| !p.0 && !p.1).count() as u32,
        pairs_split: pairs.iter().filter(|p| p.0 != p.1).count() as u32,
        a_level_margin_per_deal: margin,
        a_level_margin_ci95: margin_ci,
        matches: (cfg.matches > 0).then_some(cfg.matches),
        a_match_win_rate: (cfg.matches > 0).then(|| match_wins / match_n),
        a_match_win_rate_ci95: (cfg.matches > 0).then(|| wilson95(match_wins, match_n)),
        seed: cfg.seed,
        rules: cfg.rules.name.clone(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::AiLevel;

    #[test]
    fn the_mean_interval_narrows_with_more_samples() {
        let few = mean_ci95(&[1.0, -1.0, 2.0, 0.0]);
        let many = mean_ci95(&[1.0, -1.0, 2.0, 0.0].repeat(25));
        assert_eq!((few.0, many.0), (0.5, 0.5));
        assert!(few.1[0] < 0.5 && few.1[1] > 0.5);
        assert!(many.1[1] - many.1[0] < (few.1[1] - few.1[0]) / 4.0);
        assert_eq!(mean_ci95(&[3.0]), (3.0, [3.0, 3.0]));
    }

    #[test]
    fn wilson_interval_brackets_the_rate() {
        let [lo, hi] = wilson95(70.0, 100.0);
        assert!(lo < 0.7 && hi > 0.7 && lo > 0.6 && hi < 0.8);
    }

    /// A guard against regressions (not the measurement): L2 must win most duplicate deals vs L1.
    #[test]
    fn l2_beats_l1_in_a_short_duplicate_arena() {
        let cfg = ArenaConfig {
            untimed: false,
            a: AiProfile::level(AiLevel::L2),
            b: AiProfile::level(AiLevel::L1),
            deals: 200,
            seed: 2024,
            rules: RuleConfig::competition(),
            threads: 2,
            matches: 0,
            a_oracle: false,
        };
        let r = run(&cfg, &|_| {});
        assert_eq!(r.games, 400);
        assert!(r.a_deal_win_rate > 0.5, "L2 won only {:.1}% of deals", r.a_deal_win_rate * 100.0);
    }

    #[test]
    fn arena_is_reproducible() {
        let cfg = ArenaConfig {
            untimed: false,
            a: AiProfile::level(AiLevel::L2),
            b: AiProfile::level(AiLevel::L1),
            deals: 10,
            seed: 5,
            rules: RuleConfig::competition(),
            threads: 2,
            matches: 0,
            a_oracle: false,
        };
        let (r1, r2) = (run(&cfg, &|_| {}), run(&cfg, &|_| {}));
        assert_eq!(r1.a_deal_win_rate, r2.a_deal_win_rate);
        assert_eq!(r1.a_level_gain_per_deal, r2.a_level_gain_per_deal);
    }

    /// Resuming from some of a run's games gives the run's report, and plays only the rest.
    #[test]
    fn a_resumed_run_plays_only_the_missing_games_and_reports_the_same() {
        let cfg = ArenaConfig {
            untimed: false,
            a: AiProfile::level(AiLevel::L2),
            b: AiProfile::level(AiLevel::L1),
            deals: 6,
            seed: 9,
            rules: RuleConfig::competition(),
            threads: 2,
            matches: 0,
            a_oracle: false,
        };
        let all = std::sync::Mutex::new(vec![None; 12]);
        let full = run_resuming(&cfg, &[], &|g, game| all.lock().unwrap()[g] = Some(game.clone()), &|_| {});
        let all = all.into_inner().unwrap();
        assert!(all.iter().all(Option::is_some), "every game was handed over");
        // Keep games 0..7 and 9; the rest are played again.
        let kept: Vec<Option<Game>> =
            all.iter().enumerate().map(|(g, x)| (g < 7 || g == 9).then(|| x.clone()).flatten()).collect();
        let again = std::sync::Mutex::new(Vec::new());
        let resumed = run_resuming(&cfg, &kept, &|g, game| again.lock().unwrap().push((g, game.clone())), &|_| {});
        let mut again = again.into_inner().unwrap();
        again.sort_by_key(|(g, _)| *g);
        assert_eq!(again.iter().map(|(g, _)| *g).collect::<Vec<_>>(), vec![7, 8, 10, 11]);
        for (g, game) in &again {
            let (x, y) = (all[*g].as_ref().unwrap(), game);
            assert_eq!((x.a_won, x.gain), (y.a_won, y.gain), "game {g} is the same game");
        }
        assert_eq!(full.a_deal_win_rate, resumed.a_deal_win_rate);
        assert_eq!(full.a_level_margin_per_deal, resumed.a_level_margin_per_deal);
        assert_eq!(
            (full.pairs_a_both, full.pairs_b_both, full.pairs_split),
            (resumed.pairs_a_both, resumed.pairs_b_both, resumed.pairs_split)
        );
        assert_eq!(full.a_decisions, resumed.a_decisions);
    }
}
