//! L1 (easy): the smallest legal combination; never passes when it can play.

use crate::agent::{Agent, Budget, Decision, card_order, duty, legal_plays, pick_card};
use guandan_core::card::CardId;
use guandan_core::combo::{Play, rank_order};
use guandan_core::game::{ActionKind, Match, Phase};
use guandan_core::view::PlayerView;
use rand_chacha::ChaCha8Rng;

#[derive(Default)]
pub struct L1;

/// "Smallest": non-bombs before bombs, then lowest rank, then fewest cards.
pub fn smallness(p: &Play, view: &PlayerView) -> (bool, u8, u8) {
    let k = p.pattern.kind;
    let r = if k.is_sequence() { p.pattern.rank } else { rank_order(p.pattern.rank, view.level) };
    (k.is_bomb(), r, p.pattern.size)
}

/// The L1 decision; also the fallback of every level when time runs out.
pub fn l1_decision(view: &PlayerView) -> Decision {
    let action = match duty(view) {
        Some(Phase::Tribute) => {
            let card = pick_card(view.tribute_options, |_| 0).unwrap_or(CardId::ALL[0]);
            ActionKind::Tribute { card }
        }
        Some(Phase::Return) => {
            let card = pick_card(view.return_options, |id| card_order(id, view) as i64).unwrap_or(CardId::ALL[0]);
            ActionKind::Return { card }
        }
        _ => {
            let plays = legal_plays(view);
            match plays.iter().min_by_key(|p| smallness(p, view)) {
                Some(p) => Match::play_kind(p),
                None => ActionKind::Pass,
            }
        }
    };
    Decision { action, trace: None }
}

impl Agent for L1 {
    fn name(&self) -> String {
        "L1".into()
    }
    fn decide(&mut self, view: &PlayerView, _rng: &mut ChaCha8Rng, _budget: &Budget) -> Decision {
        l1_decision(view)
    }
}
