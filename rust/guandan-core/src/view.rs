//! What one seat (or a spectator) may know: never another seat's hidden cards.

use crate::card::{CardId, CardSet, Rank};
use crate::combo::Play;
use crate::game::{Match, Phase, Seat, Team, Turn};
use crate::rules::RuleConfig;
use serde::{Deserialize, Serialize};

/// A tribute or return as the viewer may see it: the card only if the viewer gave or received it,
/// or it has been played since.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct SeenTribute {
    pub from: Seat,
    pub to: Option<Seat>,
    pub card: Option<CardId>,
    pub returned: Option<CardId>,
}

/// Serialized as the online protocol's view: card sets and plays carry card-id lists
/// ([`crate::card_ids`]).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct PlayerView {
    /// `None` for a spectator.
    pub seat: Option<Seat>,
    pub rules: RuleConfig,
    pub seq: u64,
    pub deal_no: u32,
    pub phase: Phase,
    pub level: Rank,
    pub team_levels: [Rank; 2],
    pub declarer: Option<Team>,
    #[serde(with = "crate::card_ids::set")]
    pub hand: CardSet,
    pub card_counts: [u8; 4],
    pub turn: Seat,
    pub to_act: Vec<Seat>,
    #[serde(with = "crate::card_ids::table")]
    pub table: Option<(Seat, Play)>,
    /// Passes since the last play on the table.
    pub passes: u8,
    pub finished: Vec<Seat>,
    pub last_order: Option<[Seat; 4]>,
    #[serde(with = "crate::card_ids::history")]
    pub history: Vec<Turn>,
    #[serde(with = "crate::card_ids::set")]
    pub played: CardSet,
    pub tributes: Vec<SeenTribute>,
    /// Cards this seat may give or return now (empty when nothing is owed).
    #[serde(with = "crate::card_ids::set")]
    pub tribute_options: CardSet,
    #[serde(with = "crate::card_ids::set")]
    pub return_options: CardSet,
}

impl PlayerView {
    pub fn can_pass(&self) -> bool {
        self.phase == Phase::Play && self.table.is_some()
    }

    /// Every card id this view shows (the server's leak checks).
    pub fn cards(&self) -> CardSet {
        let plays = self.table.iter().map(|t| &t.1).chain(self.history.iter().filter_map(|t| t.play.as_ref()));
        let exchanged = self.tributes.iter().flat_map(|t| [t.card, t.returned]).flatten();
        let shown = self.hand.union(self.played).union(self.tribute_options).union(self.return_options);
        exchanged.fold(plays.fold(shown, |s, p| s.union(p.cards)), CardSet::with)
    }
}

impl Match {
    /// The view without the deal's history: what a fast simulated player needs.
    pub fn light_view(&self, seat: Seat) -> PlayerView {
        self.view_inner(Some(seat), false)
    }

    /// The view of `seat` (`None` = spectator).
    pub fn view(&self, seat: Option<Seat>) -> PlayerView {
        self.view_inner(seat, true)
    }

    fn view_inner(&self, seat: Option<Seat>, with_history: bool) -> PlayerView {
        let sees = |a: Seat, b: Option<Seat>| seat.is_some_and(|v| v == a || Some(v) == b);
        let shown =
            |card: Option<CardId>, a: Seat, b: Option<Seat>| card.filter(|&c| sees(a, b) || self.played.contains(c));
        let to_act: Vec<Seat> = self.to_act().to_vec();
        let acting = seat.filter(|s| to_act.contains(s));
        PlayerView {
            seat,
            rules: self.rules.clone(),
            seq: self.seq,
            deal_no: self.deal_no,
            phase: self.phase,
            level: self.level,
            team_levels: self.team_levels,
            declarer: self.declarer,
            hand: seat.map_or(CardSet::EMPTY, |s| self.hands[s as usize]),
            card_counts: std::array::from_fn(|i| self.hands[i].len() as u8),
            turn: self.turn,
            to_act,
            table: self.table,
            passes: self.passes,
            finished: self.finished.to_vec(),
            last_order: self.last_order,
            history: if with_history { self.history.clone() } else { Vec::new() },
            played: self.played,
            tributes: self
                .tributes
                .iter()
                .map(|t| SeenTribute {
                    from: t.payer,
                    to: t.receiver,
                    card: shown(t.card, t.payer, t.receiver),
                    returned: shown(t.returned, t.payer, t.receiver),
                })
                .collect(),
            tribute_options: match (acting, self.phase) {
                (Some(s), Phase::Tribute) => self.tribute_options(s),
                _ => CardSet::EMPTY,
            },
            return_options: match (acting, self.phase) {
                (Some(s), Phase::Return) => self.return_options(s),
                _ => CardSet::EMPTY,
            },
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_view_holds_only_its_own_hand() {
        let (m, _) = Match::new(3, RuleConfig::competition()).unwrap();
        for s in 0..4u8 {
            let v = m.view(Some(s));
            assert_eq!(v.hand, m.hands[s as usize]);
            for other in (0..4u8).filter(|&o| o != s) {
                assert!(v.hand.intersect(m.hands[other as usize]).is_empty());
            }
        }
        assert!(m.view(None).hand.is_empty());
        assert_eq!(m.view(None).card_counts, [27; 4]);
    }
}
