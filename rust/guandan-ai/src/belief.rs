//! What L3 believes about the hidden hands, and the worlds it samples from that belief.
//!
//! Every inference reads only the viewer's `PlayerView` (public plays and passes, the card counts,
//! the tribute and return cards the viewer gave or got). A belief is a weight per seat and rank
//! (1 = no evidence; a card of that rank goes to that seat with probability ∝ the weight), plus,
//! per seat, how sure L3 is that the seat holds no bomb. `guandan beliefs` measures how well each
//! inference is calibrated against the true hands (`calibrate.rs`).

use guandan_core::card::{Card, CardSet};
use guandan_core::combo::{PlayKind, rank_order, wild_set};
use guandan_core::deal::below;
use guandan_core::game::{Match, Phase, Seat, team_of};
use guandan_core::view::PlayerView;
use rand_chacha::ChaCha8Rng;
use rand_core::Rng;
use serde::{Deserialize, Serialize};

/// Which inferences are on (each one a switch, for ablation and calibration).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default)]
pub struct Inferences {
    /// Passing over an opponent's single, pair or triple: probably no such group above it.
    pub passes: bool,
    /// The pass inference with its calibrated strength (`guandan beliefs`); off, the weaker
    /// multipliers L3 used before issue 25.
    pub passes_calibrated: bool,
    /// A tribute the viewer received was the payer's highest card (wild hearts excepted).
    pub tribute: bool,
    /// Following a single (pair) with a natural card (pair) of a rank: players rarely break a
    /// pair (a triple), so probably no more of that rank.
    pub kept_groups: bool,
    /// Passing while an opponent close to going out keeps the trick: probably no bomb.
    pub no_bomb: bool,
    /// Hands late in a deal hold fewer ranks than a random deal would: players shed odd cards and
    /// keep pairs, triples and bombs. A card is drawn more readily into a hand already holding
    /// its rank.
    pub grouped: bool,
}

impl Inferences {
    /// The inferences L3 had before issue 25.
    pub const V2: Inferences = Inferences {
        passes: true,
        passes_calibrated: false,
        tribute: true,
        kept_groups: false,
        no_bomb: false,
        grouped: false,
    };
    pub const NONE: Inferences = Inferences {
        passes: false,
        passes_calibrated: false,
        tribute: false,
        kept_groups: false,
        no_bomb: false,
        grouped: false,
    };
    pub const ALL: Inferences = Inferences {
        passes: true,
        passes_calibrated: true,
        tribute: true,
        kept_groups: true,
        no_bomb: true,
        grouped: true,
    };
}

impl Default for Inferences {
    fn default() -> Self {
        Inferences::V2
    }
}

/// Per seat and rank, how likely the seat still holds that rank (1 = no evidence); per seat, the
/// probability that it holds no bomb (0 = no evidence).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Beliefs {
    pub rank: [[f32; 17]; 4],
    pub no_bomb: [f32; 4],
    /// Extra weight per card of the same rank already in the hand (0 = cards fall independently).
    pub grouped: f32,
}

impl Beliefs {
    pub const NONE: Beliefs = Beliefs { rank: [[1.0; 17]; 4], no_bomb: [0.0; 4], grouped: 0.0 };
}

/// Multipliers of the rank weights (what one observation is worth). Chosen by calibration
/// (`guandan beliefs`): the sampled worlds' frequencies should match the true hands'.
const PASS_SINGLE: f32 = 0.35;
const PASS_GROUP: f32 = 0.55;
/// The pass multipliers before calibration (L3v2).
const PASS_SINGLE_V2: f32 = 0.55;
const PASS_GROUP_V2: f32 = 0.75;
const TRIBUTE_ABOVE: f32 = 0.02;
const TRIBUTE_LEVEL: f32 = 0.3;
const KEPT_SINGLE: f32 = 0.15;
const KEPT_PAIR: f32 = 0.25;
/// An opponent holding this many cards or fewer after a play is close to going out.
const CLOSE_TO_OUT: u8 = 5;
const NO_BOMB_PASS: f32 = 0.7;
const GROUPED: f32 = 1.5;

/// Everything the switched-on inferences conclude from the view.
pub fn infer(view: &PlayerView, on: Inferences) -> Beliefs {
    let mut b = Beliefs::NONE;
    if on.passes || on.kept_groups || on.no_bomb {
        from_history(view, on, &mut b);
    }
    if on.tribute {
        from_tribute(view, &mut b);
    }
    if on.grouped {
        b.grouped = GROUPED;
    }
    b
}

/// Passes and plays of the deal so far. The history does not mark where a trick was cleared, but
/// a pass always answers the latest play, which is all these inferences need.
fn from_history(view: &PlayerView, on: Inferences, b: &mut Beliefs) {
    let wilds = wild_set(view.level, &view.rules);
    // Cards in hand per seat after each turn, replayed from the counts now.
    let mut left = view.card_counts;
    for t in &view.history {
        if let Some(p) = &t.play {
            left[t.seat.index()] += p.cards.len() as u8;
        }
    }
    let mut table: Option<(Seat, guandan_core::combo::Play)> = None;
    for t in &view.history {
        match t.play {
            Some(p) => {
                if on.kept_groups
                    && let Some((owner, led)) = table
                    && owner != t.seat
                {
                    kept_group(view, &p, &led, wilds, &mut b.rank[t.seat.index()]);
                }
                left[t.seat.index()] = left[t.seat.index()].saturating_sub(p.cards.len() as u8);
                table = Some((t.seat, p));
            }
            None => {
                let Some((owner, p)) = table else { continue };
                if team_of(owner) == team_of(t.seat) {
                    continue;
                }
                let k = p.pattern.kind;
                if on.no_bomb && !k.is_bomb() && left[owner.index()] <= CLOSE_TO_OUT && left[owner.index()] > 0 {
                    let nb = &mut b.no_bomb[t.seat.index()];
                    *nb = 1.0 - (1.0 - *nb) * (1.0 - NO_BOMB_PASS);
                }
                if !on.passes || !matches!(k, PlayKind::Single | PlayKind::Pair | PlayKind::Trips) {
                    continue;
                }
                let o = rank_order(p.pattern.rank, view.level);
                let factor = match (k == PlayKind::Single, on.passes_calibrated) {
                    (true, true) => PASS_SINGLE,
                    (false, true) => PASS_GROUP,
                    (true, false) => PASS_SINGLE_V2,
                    (false, false) => PASS_GROUP_V2,
                };
                for r in 2..=16u8 {
                    if rank_order(r, view.level) > o {
                        b.rank[t.seat.index()][r as usize] *= factor;
                    }
                }
            }
        }
    }
}

/// A single followed with a natural card (a pair with a natural pair): the rank was probably not
/// part of a bigger group (players keep pairs and triples whole).
fn kept_group(
    view: &PlayerView,
    p: &guandan_core::combo::Play,
    led: &guandan_core::combo::Play,
    wilds: CardSet,
    b: &mut [f32; 17],
) {
    let k = p.pattern.kind;
    if k != led.pattern.kind || !p.cards.intersect(wilds).is_empty() {
        return;
    }
    let factor = match k {
        PlayKind::Single => KEPT_SINGLE,
        PlayKind::Pair => KEPT_PAIR,
        _ => return,
    };
    let r = p.pattern.rank;
    // Level cards and jokers are played as singles for their height, not to break groups.
    if r == view.level.0 || r >= 15 {
        return;
    }
    b[r as usize] *= factor;
}

/// A tribute the viewer received: the payer had to give its highest card (wild hearts excepted),
/// so it holds no higher rank — apart from level cards, which may be wilds.
fn from_tribute(view: &PlayerView, b: &mut Beliefs) {
    let Some(me) = view.seat else { return };
    for t in &view.tributes {
        let (Some(card), true) = (t.card, t.to == Some(me)) else { continue };
        let o = rank_order(Card::from_id(card).rank().0, view.level);
        for r in 2..=16u8 {
            if rank_order(r, view.level) > o {
                b.rank[t.from.index()][r as usize] *= if r == view.level.0 { TRIBUTE_LEVEL } else { TRIBUTE_ABOVE };
            }
        }
    }
}

/// Cards the viewer knows another seat holds (tribute given by the viewer, return received...).
fn known_cards(view: &PlayerView) -> [CardSet; 4] {
    let mut known = [CardSet::EMPTY; 4];
    let Some(me) = view.seat else { return known };
    for t in &view.tributes {
        if t.from == me
            && let (Some(to), Some(c)) = (t.to, t.card)
            && !view.played.contains(c)
            && to != me
        {
            known[to.index()].insert(c);
        }
        if t.to == Some(me)
            && let Some(c) = t.returned
            && !view.played.contains(c)
        {
            known[t.from.index()].insert(c);
        }
    }
    known
}

/// Whether a hand holds a bomb of four or more of a rank (wilds filling in) or four jokers.
/// Straight flushes are left out: the inference is about the common bombs.
pub fn holds_bomb(hand: CardSet, wilds: CardSet) -> bool {
    let mut counts = [0u8; 17];
    for id in hand.minus(wilds).iter() {
        counts[Card::from_id(id).rank().0 as usize] += 1;
    }
    let w = hand.intersect(wilds).len() as u8;
    (counts[15] == 2 && counts[16] == 2) || (2..=14).any(|r| counts[r] >= 2 && counts[r] + w >= 4)
}

/// Draws at most this many worlds looking for one that agrees with the no-bomb beliefs.
const NO_BOMB_TRIES: usize = 24;

/// One world consistent with the view: the other seats' hands drawn from the unseen cards.
pub fn sample_world(view: &PlayerView, beliefs: &Beliefs, rng: &mut ChaCha8Rng) -> [CardSet; 4] {
    let me = view.seat.unwrap_or(Seat::ZERO).index();
    if beliefs.no_bomb.iter().all(|&p| p <= 0.0) {
        return draw(view, beliefs, rng);
    }
    let wilds = wild_set(view.level, &view.rules);
    let mut hands = draw(view, beliefs, rng);
    for _ in 1..NO_BOMB_TRIES {
        // A world is kept with probability ∏ (1 − p) over the seats it gives a bomb they
        // probably lack; the draws come from the same generator, so worlds stay reproducible.
        let keep: f32 = (0..4)
            .filter(|&s| s != me && beliefs.no_bomb[s] > 0.0 && holds_bomb(hands[s], wilds))
            .map(|s| 1.0 - beliefs.no_bomb[s])
            .product();
        if keep >= 1.0 || unit(rng) < keep {
            break;
        }
        hands = draw(view, beliefs, rng);
    }
    hands
}

fn unit(rng: &mut ChaCha8Rng) -> f32 {
    rng.next_u32() as f32 / u32::MAX as f32
}

/// The hands drawn card by card with probability ∝ (cards still to fill × the seat's weight).
fn draw(view: &PlayerView, beliefs: &Beliefs, rng: &mut ChaCha8Rng) -> [CardSet; 4] {
    let me = view.seat.unwrap_or(Seat::ZERO).index();
    let known = known_cards(view);
    let mut hands = [CardSet::EMPTY; 4];
    hands[me] = view.hand;
    let mut left = [0u8; 4];
    let mut unseen = CardSet::FULL.minus(view.hand).minus(view.played);
    for s in 0..4 {
        if s == me {
            continue;
        }
        let k = known[s].intersect(unseen);
        let k = if k.len() <= view.card_counts[s] as usize { k } else { CardSet::EMPTY };
        hands[s] = k;
        unseen = unseen.minus(k);
        left[s] = view.card_counts[s].saturating_sub(k.len() as u8);
    }
    let mut cards = unseen.ids();
    for i in (1..cards.len()).rev() {
        let j = below(rng, i as u32 + 1) as usize;
        cards.swap(i, j);
    }
    // Cards of each rank drawn into each hand so far (the grouping belief).
    let mut held = [[0u8; 17]; 4];
    for (s, h) in hands.iter().enumerate() {
        for id in h.iter() {
            held[s][Card::from_id(id).rank().0 as usize] += 1;
        }
    }
    for id in cards {
        let r = Card::from_id(id).rank().0 as usize;
        let weights: [f32; 4] = std::array::from_fn(|s| {
            if s == me || left[s] == 0 {
                0.0
            } else {
                left[s] as f32 * beliefs.rank[s][r] * (1.0 + beliefs.grouped * held[s][r] as f32)
            }
        });
        let total: f32 = weights.iter().sum();
        if total <= 0.0 {
            break;
        }
        let mut x = unit(rng) * total;
        let mut pick = (0..4).find(|&s| left[s] > 0 && s != me).unwrap_or(me);
        for (s, &w) in weights.iter().enumerate() {
            if w > 0.0 && x < w {
                pick = s;
                break;
            }
            x -= w;
        }
        hands[pick].insert(id);
        held[pick][r] += 1;
        left[pick] -= 1;
    }
    hands
}

/// The state of a sampled world: the view's public position with these hands. The deal's
/// history is left out (playouts do not need it) and the action count restarts at 0.
pub fn world(view: &PlayerView, hands: [CardSet; 4]) -> Option<Match> {
    let played = CardSet::FULL.minus(hands.iter().fold(CardSet::EMPTY, |all, h| all.union(*h)));
    let setup = guandan_core::game::Setup {
        rules: view.rules.clone(),
        seed: view.seq,
        seq: 0,
        deal_no: view.deal_no,
        seating: [0, 1, 2, 3],
        team_levels: view.team_levels,
        ace_failures: [0, 0],
        declarer: view.declarer,
        level: view.level,
        phase: Phase::Play,
        hands,
        turn: view.turn,
        table: view.table,
        passes: view.passes,
        finished: view.finished.clone(),
        last_order: None,
        tributes: Vec::new(),
        tribute_leader: None,
        surrender: None,
        outcome: None,
        history: Vec::new(),
        played,
        // Worlds play out the current deal only, which no revision changes.
        rules_revision: guandan_core::rules::RULES_REVISION,
    };
    Match::from_setup(&setup).ok()
}

#[cfg(test)]
mod tests {
    use super::*;
    use guandan_core::game::Match;
    use guandan_core::rules::RuleConfig;
    use guandan_core::sim::random_action;
    use rand_core::SeedableRng;

    #[test]
    fn sampled_worlds_respect_counts_and_the_viewers_knowledge() {
        let (mut m, _) = Match::new(12, RuleConfig::competition()).unwrap();
        let mut rng = ChaCha8Rng::seed_from_u64(1);
        for _ in 0..40 {
            let a = random_action(&m, &mut rng).unwrap();
            m.apply(&a).unwrap();
        }
        let seat = m.turn();
        let v = m.view(Some(seat));
        for on in [Inferences::V2, Inferences::ALL] {
            let mut b = infer(&v, on);
            // Sure of no bomb anywhere: the rejection must still deal every card.
            b.no_bomb = [1.0; 4];
            for i in 0..20 {
                let mut r = ChaCha8Rng::seed_from_u64(i);
                let hands = sample_world(&v, &b, &mut r);
                assert_eq!(hands[seat.index()], v.hand);
                let mut all = v.played;
                for (s, h) in hands.iter().enumerate() {
                    assert_eq!(h.len(), m.hands()[s].len(), "seat {s}");
                    assert!(all.intersect(*h).is_empty());
                    all = all.union(*h);
                }
                assert_eq!(all, CardSet::FULL);
            }
        }
    }

    /// A tribute received caps the payer's ranks at the tribute card's (level cards only weakened).
    #[test]
    fn a_received_tribute_caps_the_payers_ranks() {
        let (m, _) = Match::new(12, RuleConfig::competition()).unwrap();
        let mut v = m.view(Some(Seat::ZERO));
        let nine = CardSet::parse("S9").unwrap().iter().next().unwrap();
        v.tributes = vec![guandan_core::view::SeenTribute {
            from: Seat::ONE,
            to: Some(Seat::ZERO),
            card: Some(nine),
            returned: None,
        }];
        let without = infer(&v, Inferences { tribute: false, ..Inferences::V2 }).rank;
        let b = infer(&v, Inferences::V2).rank;
        let level = v.level.0 as usize;
        assert!(b[1][13] < 0.05 && b[1][16] < 0.05, "K and the big joker are out");
        assert!(b[1][level] > 0.1 && b[1][level] < without[1][level], "level cards may still be wild hearts");
        assert_eq!(b[1][5], without[1][5]);
        assert_eq!((b[0], b[2], b[3]), (without[0], without[2], without[3]));
        // Somebody else's tribute (not seen by the viewer's seat) teaches nothing.
        v.tributes[0].to = Some(Seat::TWO);
        assert_eq!(infer(&v, Inferences::V2).rank, without);
    }

    fn play(seat: Seat, cards: &str, level: guandan_core::card::Rank) -> guandan_core::game::Turn {
        let set = CardSet::parse(cards).unwrap();
        let rules = RuleConfig::competition();
        let p = guandan_core::combo::classify(set, level, &rules).into_iter().next().expect("a play");
        guandan_core::game::Turn { seat, play: Some(p) }
    }

    /// Following a single with a natural 7 weakens that seat's 7s; a pass on an opponent about
    /// to go out makes the passer probably bombless; nothing is concluded about other seats.
    #[test]
    fn kept_groups_and_missing_bombs() {
        let (m, _) = Match::new(12, RuleConfig::competition()).unwrap();
        let mut v = m.view(Some(Seat::ZERO));
        let level = v.level;
        v.history = vec![play(Seat::ONE, "S5", level), play(Seat::TWO, "D7", level), play(Seat::THREE, "SK", level)];
        let b = infer(&v, Inferences { kept_groups: true, ..Inferences::NONE });
        assert!(b.rank[2][7] < 1.0 && b.rank[3][13] < 1.0, "both followed a single");
        assert_eq!(b.rank[2].iter().filter(|&&w| w < 1.0).count(), 1, "only the rank played");
        assert_eq!(b.rank[1], [1.0; 17], "a lead is no evidence");
        assert_eq!(b.no_bomb, [0.0; 4]);
        // Seat 1 leads a pair and keeps 3 cards; seat 2 passes: seat 2 probably holds no bomb.
        v.card_counts = [27, 3, 27, 27];
        v.history = vec![play(Seat::ONE, "S5 D5", level), guandan_core::game::Turn { seat: Seat::TWO, play: None }];
        let b = infer(&v, Inferences { no_bomb: true, ..Inferences::NONE });
        assert!(b.no_bomb[2] > 0.5);
        assert_eq!((b.no_bomb[0], b.no_bomb[1], b.no_bomb[3]), (0.0, 0.0, 0.0));
        // With 18 cards left the same pass says nothing, nor when the pair was seat 1's last cards.
        v.card_counts = [27, 18, 27, 27];
        assert_eq!(infer(&v, Inferences { no_bomb: true, ..Inferences::NONE }).no_bomb, [0.0; 4]);
        v.card_counts = [27, 0, 27, 27];
        assert_eq!(infer(&v, Inferences { no_bomb: true, ..Inferences::NONE }).no_bomb, [0.0; 4]);
    }

    #[test]
    fn bombs_are_recognised_with_wilds() {
        let rules = RuleConfig::competition();
        let level = guandan_core::card::Rank(2);
        let wilds = wild_set(level, &rules);
        let h = |s: &str| CardSet::parse(s).unwrap();
        assert!(holds_bomb(h("S9 D9 C9 H9 S3"), wilds));
        assert!(holds_bomb(h("S9 D9 C9 H2"), wilds), "a wild completes it");
        assert!(!holds_bomb(h("S9 D9 C9 S2"), wilds), "a plain level card does not");
        assert!(holds_bomb(h("SB SB HR HR"), wilds));
        assert!(!holds_bomb(h("SB SB HR S3"), wilds));
        assert!(!holds_bomb(h("S9 D9 C9 S8 D8 C8"), wilds));
    }
}
