//! Exact endgames: when few cards are left, a sampled world (every hand known) is solved to the
//! end of the deal instead of played out by L2 — a two-team minimax with alpha-beta pruning, move
//! ordering and a transposition table, as double-dummy solvers do in bridge.
//!
//! The value of a position is the deal's outcome for one team: + the levels it wins, − the
//! levels it concedes (`deal_gain`). Teams alternate irregularly (finished players are skipped,
//! a partner may take the lead), so each node asks whose side is to act rather than assuming
//! alternation. A node budget bounds the work: past it the solver gives up (`None`) and the
//! caller falls back to rollouts.

use guandan_core::card::CardSet;
use guandan_core::combo::Play;
use guandan_core::game::{ActionKind, Event, Match, Seat, deal_gain, team_of};
use std::collections::HashMap;
use std::hash::{Hash, Hasher};

/// A solved position: its exact value for the asking team and the best action of the seat to act.
#[derive(Clone, Debug, PartialEq)]
pub struct Solved {
    pub value: i8,
    pub action: ActionKind,
    /// Positions searched.
    pub nodes: u64,
}

/// What a stored value says: the exact value, or a bound from a cut.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Bound {
    Exact,
    /// The value is at least this (a cut above beta).
    Lower,
    /// The value is at most this (every move failed low).
    Upper,
}

struct Solver {
    /// The team whose outcome the values are.
    team: u8,
    nodes: u64,
    limit: u64,
    table: HashMap<u64, (i8, Bound)>,
    events: Vec<Event>,
}

/// Solves `m` (a world in the play phase) for the team of `me`; `None` when the deal is not in
/// play or more than `node_limit` positions would be needed.
pub fn solve(m: &Match, me: Seat, node_limit: u64) -> Option<Solved> {
    if m.phase() != guandan_core::game::Phase::Play {
        return None;
    }
    let mut s = Solver {
        team: team_of(me).index() as u8,
        nodes: 0,
        limit: node_limit,
        table: HashMap::new(),
        events: Vec::with_capacity(8),
    };
    let (value, action) = s.root(m)?;
    Some(Solved { value, action, nodes: s.nodes })
}

/// Beyond what any deal is worth either way (levels per finish are small numbers in every
/// preset), bounding the window.
const WORST: i8 = -64;
const BEST: i8 = 64;

impl Solver {
    fn root(&mut self, m: &Match) -> Option<(i8, ActionKind)> {
        let maximizing = self.ours(m.turn());
        let mut best: Option<(i8, ActionKind)> = None;
        let (mut alpha, mut beta) = (WORST, BEST);
        for kind in ordered_actions(m) {
            let v = self.after(m, &kind, alpha, beta)?;
            let better = match best {
                None => true,
                Some((b, _)) => {
                    if maximizing {
                        v > b
                    } else {
                        v < b
                    }
                }
            };
            if better {
                best = Some((v, kind));
            }
            if maximizing {
                alpha = alpha.max(v);
            } else {
                beta = beta.min(v);
            }
        }
        best
    }

    fn ours(&self, seat: Seat) -> bool {
        team_of(seat).index() as u8 == self.team
    }

    /// The value after the seat to act in `m` takes `kind`.
    fn after(&mut self, m: &Match, kind: &ActionKind, alpha: i8, beta: i8) -> Option<i8> {
        let mut next = m.clone();
        let action = next.action(next.turn(), kind.clone());
        self.events.clear();
        let mut events = std::mem::take(&mut self.events);
        let applied = next.apply_into(&action, &mut events);
        let ended = events.iter().find_map(|e| match e {
            Event::DealEnded { order, .. } => Some(*order),
            _ => None,
        });
        self.events = events;
        applied.ok()?;
        match ended {
            Some(order) => {
                let gain = deal_gain(&order, next.rules()) as i8;
                Some(if team_of(order[0]).index() as u8 == self.team { gain } else { -gain })
            }
            None => self.value(&next, alpha, beta),
        }
    }

    /// Alpha-beta value of a position in play (`None`: over the node budget).
    fn value(&mut self, m: &Match, mut alpha: i8, mut beta: i8) -> Option<i8> {
        self.nodes += 1;
        if self.nodes > self.limit {
            return None;
        }
        let key = position_key(m);
        if let Some(&(v, bound)) = self.table.get(&key) {
            match bound {
                Bound::Exact => return Some(v),
                Bound::Lower => alpha = alpha.max(v),
                Bound::Upper => beta = beta.min(v),
            }
            if alpha >= beta {
                return Some(v);
            }
        }
        let (alpha0, beta0) = (alpha, beta);
        let maximizing = self.ours(m.turn());
        let mut best = if maximizing { WORST - 1 } else { BEST + 1 };
        for kind in ordered_actions(m) {
            let v = self.after(m, &kind, alpha, beta)?;
            if maximizing {
                best = best.max(v);
                alpha = alpha.max(v);
            } else {
                best = best.min(v);
                beta = beta.min(v);
            }
            if alpha >= beta {
                break;
            }
        }
        let bound = if best <= alpha0 {
            Bound::Upper
        } else if best >= beta0 {
            Bound::Lower
        } else {
            Bound::Exact
        };
        self.table.insert(key, (best, bound));
        Some(best)
    }
}

/// The seat to act's actions, most promising first: going out, then the plays that shed the
/// most cards (lower ranks first among equals), then passing.
fn ordered_actions(m: &Match) -> Vec<ActionKind> {
    let hand = m.hand(m.turn());
    let mut plays: Vec<Play> = m.legal_plays().into_iter().collect();
    plays.sort_by_key(|p| (p.cards != hand, std::cmp::Reverse(p.cards.len()), p.pattern.rank));
    let mut out: Vec<ActionKind> = plays.iter().map(Match::play_kind).collect();
    if m.can_pass() {
        out.push(ActionKind::Pass);
    }
    out
}

/// What decides the rest of the deal: the hands, the table, who is to act, the passes and the
/// finishing order so far (the levels and the rules do not change within a deal).
fn position_key(m: &Match) -> u64 {
    let mut h = std::hash::DefaultHasher::new();
    for hand in m.hands() {
        hand.hash(&mut h);
    }
    m.table().hash(&mut h);
    m.turn().hash(&mut h);
    m.passes().hash(&mut h);
    m.finished().hash(&mut h);
    h.finish()
}

/// Cards still in play in a world (the endgame threshold is on this).
pub fn cards_left(m: &Match) -> usize {
    m.hands().iter().fold(CardSet::EMPTY, |all, h| all.union(*h)).len()
}

#[cfg(test)]
mod tests {
    use super::*;
    use guandan_core::rules::RuleConfig;
    use rand_chacha::ChaCha8Rng;
    use rand_core::{Rng, SeedableRng};

    /// A position in play with each seat holding `sizes[s]` cards of a real deal (the rest counted
    /// as played), seat 0 to lead.
    fn endgame(seed: u64, sizes: [usize; 4]) -> Match {
        let (full, _) = Match::new(seed, RuleConfig::competition()).unwrap();
        let mut hands = [CardSet::EMPTY; 4];
        for s in 0..4 {
            for id in full.hand(Seat::ALL[s]).iter().take(sizes[s]) {
                hands[s].insert(id);
            }
        }
        // L3's worlds are built the same way: the view's position with the given hands.
        let mut view = full.view(Some(Seat::ZERO));
        view.turn = Seat::ZERO;
        crate::belief::world(&view, hands).expect("a valid world")
    }

    /// Plain minimax, no pruning, no table: the reference the solver must agree with.
    fn minimax(m: &Match, team: u8) -> i8 {
        let mut best: Option<i8> = None;
        let maximizing = team_of(m.turn()).index() as u8 == team;
        for kind in ordered_actions(m) {
            let mut next = m.clone();
            let action = next.action(next.turn(), kind);
            let events = next.apply(&action).unwrap();
            let v = match events.iter().find_map(|e| match e {
                Event::DealEnded { order, .. } => Some(*order),
                _ => None,
            }) {
                Some(order) => {
                    let gain = deal_gain(&order, next.rules()) as i8;
                    if team_of(order[0]).index() as u8 == team { gain } else { -gain }
                }
                None => minimax(&next, team),
            };
            best = Some(match best {
                None => v,
                Some(b) if maximizing => b.max(v),
                Some(b) => b.min(v),
            });
        }
        best.expect("a seat in play always has an action")
    }

    #[test]
    fn the_solver_agrees_with_plain_minimax_on_small_endgames() {
        let mut rng = ChaCha8Rng::seed_from_u64(7);
        let mut decided = 0;
        for seed in 0..40u64 {
            let sizes = std::array::from_fn(|_| 1 + (rng.next_u64() % 3) as usize);
            let m = endgame(seed, sizes);
            let Some(solved) = solve(&m, Seat::ZERO, 200_000) else { continue };
            decided += 1;
            assert_eq!(solved.value, minimax(&m, 0), "seed {seed}, hands {sizes:?}");
            // The action it names reaches that value.
            let mut s = Solver { team: 0, nodes: 0, limit: u64::MAX, table: HashMap::new(), events: Vec::new() };
            assert_eq!(s.after(&m, &solved.action, WORST, BEST), Some(solved.value), "seed {seed}");
            // And the other team sees the same deal from the other side.
            let theirs = solve(&m, Seat::ONE, 200_000).expect("the same position fits the same budget");
            assert_eq!(theirs.value, -solved.value, "seed {seed}");
        }
        assert!(decided >= 30, "only {decided} of 40 small endgames solved within the budget");
    }

    #[test]
    fn a_seat_that_can_go_out_at_once_is_told_to() {
        // Seat 0 holds one card and leads: playing it finishes first, whatever follows.
        let m = endgame(3, [1, 5, 4, 5]);
        let solved = solve(&m, Seat::ZERO, 100_000).expect("solved");
        let hand = m.hand(Seat::ZERO);
        assert!(
            matches!(&solved.action, ActionKind::Play { cards, .. } if cards.len() == 1 && hand.contains(cards[0]))
        );
        assert!(solved.value > -3, "going out first never loses the most");
    }

    #[test]
    fn over_the_budget_it_gives_up() {
        let m = endgame(5, [8, 8, 8, 8]);
        assert_eq!(solve(&m, Seat::ZERO, 50), None);
    }

    #[test]
    fn the_same_position_gives_the_same_answer() {
        let m = endgame(11, [3, 3, 2, 3]);
        assert_eq!(solve(&m, Seat::ZERO, 500_000), solve(&m, Seat::ZERO, 500_000));
    }
}
