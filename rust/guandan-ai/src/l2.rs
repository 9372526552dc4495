//! L2 (medium): plans its hand and scores every candidate by the plan it leaves, the partner and
//! the opponents' threat.

use crate::agent::{Agent, Budget, Candidate, Decision, Trace, Weights, duty, legal_plays};
use crate::plan::{Evaluation, evaluate};
use guandan_core::card::{CardId, CardSet};
use guandan_core::combo::{Play, PlayKind, rank_order, wild_set};
use guandan_core::game::{ActionKind, Match, Phase, partner_of, team_of};
use guandan_core::seat::Seat;
use guandan_core::view::PlayerView;
use rand_chacha::ChaCha8Rng;

pub struct L2 {
    pub weights: Weights,
    pub trace: bool,
}

impl L2 {
    pub fn new(weights: Weights, trace: bool) -> Self {
        L2 { weights, trace }
    }
}

/// Context of one decision.
pub struct Situation<'a> {
    pub view: &'a PlayerView,
    pub seat: Seat,
    pub wilds: CardSet,
    pub weights: &'a Weights,
    /// Fewest cards held by an opponent still in.
    pub opp_min: u8,
    pub partner_cards: u8,
    /// The table's last play and whether the partner made it.
    pub table: Option<(Seat, Play)>,
    pub partner_on_table: bool,
    /// Next opponent in turn order still in.
    pub next_opp_cards: u8,
    pub current: Evaluation,
    /// Above 1 when the levels at stake call for fighting (behind, opponents at A, a double down
    /// within reach); below 1 when comfortably ahead.
    pub aggression: f32,
}

impl<'a> Situation<'a> {
    pub fn new(view: &'a PlayerView, weights: &'a Weights) -> Self {
        let seat = view.seat.unwrap_or(Seat::ZERO);
        let wilds = wild_set(view.level, &view.rules);
        let counts = view.card_counts;
        let opp_min = crate::reasons::opp_min(view);
        let next_opp = (1..4u8).map(|d| seat.after(d)).find(|&s| counts[s.index()] > 0 && team_of(s) != team_of(seat));
        let table = view.table;
        let mine = view.team_levels[team_of(seat).index()].0 as f32;
        let theirs = view.team_levels[team_of(seat).other().index()].0 as f32;
        let mut aggression = 1.0 + (theirs - mine) * 0.04;
        if theirs >= 14.0 {
            aggression += 0.3;
        }
        // Partner already first: second place makes a double down (+3), worth fighting for.
        if view.finished.first() == Some(&partner_of(seat)) {
            aggression += 0.4;
        }
        Situation {
            view,
            seat,
            wilds,
            weights,
            opp_min,
            partner_cards: counts[partner_of(seat).index()],
            partner_on_table: table.is_some_and(|(s, _)| s == partner_of(seat)),
            table,
            next_opp_cards: next_opp.map_or(27, |s| counts[s.index()]),
            current: evaluate(view.hand, wilds, view.level, weights),
            aggression: aggression.clamp(0.7, 1.6),
        }
    }

    /// Height of a play for the scoring (and the ranker's features): sequences by position.
    pub(crate) fn order(&self, p: &Play) -> f32 {
        let k = p.pattern.kind;
        if k.is_sequence() { p.pattern.rank as f32 + 2.0 } else { rank_order(p.pattern.rank, self.view.level) as f32 }
    }

    /// Score of playing `p` (or passing when `None`), with its parts.
    pub fn score(&self, p: Option<&Play>) -> Candidate {
        let w = self.weights;
        let (hand_part, mut partner, mut threat);
        match p {
            None => {
                hand_part = self.current.value;
                partner = if self.partner_on_table { w.pass_partner } else { 0.0 };
                // Letting an opponent keep the lead when they are about to go out is dangerous.
                threat = if !self.partner_on_table && self.table.is_some() {
                    -danger(self.opp_min) * w.pass_danger
                } else {
                    0.0
                };
            }
            Some(play) => {
                let rest = self.view.hand.minus(play.cards);
                let e = evaluate(rest, self.wilds, self.view.level, w);
                hand_part = e.value;
                partner = 0.0;
                threat = 0.0;
                let kind = play.pattern.kind;
                let going_out = rest.is_empty();
                let leading = self.table.is_none();
                if self.partner_on_table && !going_out {
                    // Do not overtake a partner who is winning the trick; least of all with a bomb.
                    partner -=
                        w.overtake + if kind.is_bomb() { w.overtake_bomb } else { 0.0 } + self.order(play) / 10.0;
                    if self.partner_cards <= 3 {
                        partner -= w.overtake_close;
                    }
                }
                if leading {
                    // Feed a partner with one or two cards: lead low singles or pairs.
                    if self.partner_cards == 1 && kind == PlayKind::Single {
                        partner += w.feed - self.order(play) / 12.0;
                    }
                    if self.partner_cards == 2 && kind == PlayKind::Pair {
                        partner += w.feed - self.order(play) / 12.0;
                    }
                    // Do not lead what an opponent with that many cards can go out on.
                    if self.next_opp_cards as usize == play.cards.len() || self.opp_min as usize == play.cards.len() {
                        threat -= w.lead_risk - self.order(play) / 20.0;
                    }
                    if self.opp_min <= 2 && kind == PlayKind::Single {
                        threat += self.order(play) / 12.0;
                    }
                } else if !self.partner_on_table {
                    // Taking the lead back from an opponent: worth more as they get close to out.
                    threat += w.take_lead + danger(self.opp_min) * w.take_lead_danger;
                    if kind.is_bomb() {
                        // Spend bombs when it matters.
                        threat += danger(self.opp_min) * w.bomb_danger - w.bomb_cost;
                    }
                }
                if going_out {
                    partner += 50.0;
                }
            }
        }
        let score = w.hand * hand_part + w.partner * partner + w.threat * self.aggression * threat;
        Candidate { play: p.copied(), card: None, score, hand: hand_part, partner, threat, search: None }
    }
}

/// 0 when opponents hold many cards, rising to 1 when one is about to go out.
pub fn danger(opp_min: u8) -> f32 {
    match opp_min {
        0 => 0.0,
        1 => 1.0,
        2 => 0.85,
        3 => 0.6,
        4 => 0.45,
        5 => 0.3,
        6..=8 => 0.15,
        _ => 0.0,
    }
}

/// Whether `p` spends a wild (逢人配, the most valuable card of a hand) although a natural play of
/// the same purpose — the same kind and size, splitting no triple or bomb — is among `plays`.
/// Going out with it is no waste.
pub fn spends_wild_needlessly(p: &Play, plays: &[Play], hand: CardSet, wilds: CardSet) -> bool {
    if p.cards.intersect(wilds).is_empty() || p.cards == hand {
        return false;
    }
    plays.iter().any(|q| same_purpose(q, p) && is_plain_natural(q, hand, wilds))
}

fn same_purpose(a: &Play, b: &Play) -> bool {
    a.pattern.kind == b.pattern.kind && a.cards.len() == b.cards.len()
}

/// No wild in it, and no triple or bomb of the hand split by it.
fn is_plain_natural(q: &Play, hand: CardSet, wilds: CardSet) -> bool {
    q.cards.intersect(wilds).is_empty() && crate::plan::broken_group(q, hand, wilds).is_none()
}

/// Every candidate of a play decision with its score, best first (stable order on ties). A play
/// that spends a wild never ranks above the best natural play of the same purpose (see
/// [`spends_wild_needlessly`]): the hints and the AI keep the wild for where nothing else will do.
pub fn ranked_candidates(view: &PlayerView, weights: &Weights) -> Vec<Candidate> {
    let sit = Situation::new(view, weights);
    let plays = legal_plays(view);
    let mut out: Vec<Candidate> = plays.iter().map(|p| sit.score(Some(p))).collect();
    let natural_best = |p: &Play| {
        out.iter()
            .filter_map(|c| c.play.as_ref().map(|q| (q, c.score)))
            .filter(|(q, _)| same_purpose(q, p) && is_plain_natural(q, view.hand, sit.wilds))
            .map(|(_, s)| s)
            .max_by(f32::total_cmp)
    };
    let caps: Vec<Option<f32>> = plays
        .iter()
        .map(|p| if spends_wild_needlessly(p, &plays, view.hand, sit.wilds) { natural_best(p) } else { None })
        .collect();
    for (c, cap) in out.iter_mut().zip(caps) {
        if let Some(cap) = cap.filter(|&cap| c.score >= cap) {
            // Just below the natural play it would otherwise beat.
            c.score = cap - 1e-3 - cap.abs() * 1e-6;
        }
    }
    if view.can_pass() {
        out.push(sit.score(None));
    }
    out.sort_by(|a, b| b.score.total_cmp(&a.score));
    out
}

/// The card (among allowed ones) whose loss hurts the plan least.
pub fn best_card_to_give(view: &PlayerView, options: CardSet, weights: &Weights) -> Option<(CardId, Vec<Candidate>)> {
    let wilds = wild_set(view.level, &view.rules);
    let mut cands: Vec<Candidate> = options
        .iter()
        .map(|id| {
            let e = evaluate(view.hand.minus(CardSet::EMPTY.with(id)), wilds, view.level, weights);
            Candidate {
                play: None,
                card: Some(id),
                score: e.value,
                hand: e.value,
                partner: 0.0,
                threat: 0.0,
                search: None,
            }
        })
        .collect();
    cands.sort_by(|a, b| b.score.total_cmp(&a.score));
    Some((cands.first()?.card?, cands))
}

/// Why a chosen candidate (a message key localized in Godot, with its arguments): a play L2
/// scored for the partner's sake says so; anything else is said in the hints' words
/// ([`crate::reasons::reason_of_play`], true of the hand and the table).
pub fn reason_for(c: &Candidate, view: &PlayerView) -> (String, Vec<String>) {
    match &c.play {
        Some(p) if c.partner > 0.5 && !p.pattern.kind.is_bomb() && p.cards != view.hand => {
            ("reason.feed_partner".into(), vec![p.pattern.kind.name().into()])
        }
        play => crate::reasons::reason_of_play(view, play.as_ref()),
    }
}

/// The L2 decision for a view.
pub fn l2_decision(view: &PlayerView, weights: &Weights, trace: bool) -> Decision {
    let name = "L2";
    match duty(view) {
        Some(Phase::Tribute) | Some(Phase::Return) => {
            let tribute = view.phase == Phase::Tribute;
            let options = if tribute { view.tribute_options } else { view.return_options };
            let (card, cands) = best_card_to_give(view, options, weights).unwrap_or((CardId::ALL[0], Vec::new()));
            let action = if tribute { ActionKind::Tribute { card } } else { ActionKind::Return { card } };
            let key = if tribute { "reason.tribute_forced" } else { "reason.return_least_useful" };
            let trace = trace.then(|| Trace {
                agent: name.into(),
                candidates: cands,
                reason: key.into(),
                reason_args: vec![guandan_core::card::Card::from_id(card).notation()],
                ..Trace::default()
            });
            Decision { action, trace }
        }
        _ => {
            let cands = ranked_candidates(view, weights);
            let best = cands.first().cloned();
            let action = match best.as_ref().and_then(|c| c.play) {
                Some(p) => Match::play_kind(&p),
                None => ActionKind::Pass,
            };
            let trace = trace.then(|| {
                let (reason, reason_args) = best.as_ref().map(|c| reason_for(c, view)).unwrap_or_default();
                Trace { agent: name.into(), candidates: cands, reason, reason_args, ..Trace::default() }
            });
            Decision { action, trace }
        }
    }
}

impl Agent for L2 {
    fn name(&self) -> String {
        "L2".into()
    }
    fn decide(&mut self, view: &PlayerView, _rng: &mut ChaCha8Rng, _budget: &Budget) -> Decision {
        l2_decision(view, &self.weights, self.trace)
    }
}
