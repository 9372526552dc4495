//! What one seat (or a spectator) may know: never another seat's hidden cards.

use crate::card::{CardId, CardSet, Rank};
use crate::combo::Play;
use crate::game::{Match, Phase, PlayCheck, Seat, Team, Turn};
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

/// Another seat's hand shown to this viewer: a friend room's spectator allowed to see one team's
/// hands (its two seats).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ShownHand {
    pub seat: Seat,
    #[serde(with = "crate::card_ids::set")]
    pub hand: CardSet,
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
    /// Hands of seats other than the viewer's it may see, by seat: a spectator shown one team's
    /// hands (a friend room's setting); empty for players and other spectators. Added to the
    /// online protocol v1 (absent = none).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub shown_hands: Vec<ShownHand>,
}

impl PlayerView {
    /// The play check of the viewer's seat (`None` for a spectator): the one [`Match`] applies
    /// to the action, built from what this view knows.
    pub fn play_check(&self) -> Option<PlayCheck<'_>> {
        Some(PlayCheck {
            seat: self.seat?,
            phase: self.phase,
            turn: self.turn,
            hand: self.hand,
            table: self.table.as_ref().map(|t| &t.1),
            level: self.level,
            rules: &self.rules,
        })
    }

    pub fn can_pass(&self) -> bool {
        self.phase == Phase::Play && self.table.is_some()
    }

    /// Every card id this view shows (the server's leak checks).
    pub fn cards(&self) -> CardSet {
        let plays = self.table.iter().map(|t| &t.1).chain(self.history.iter().filter_map(|t| t.play.as_ref()));
        let exchanged = self.tributes.iter().flat_map(|t| [t.card, t.returned]).flatten();
        let shown = self.hand.union(self.played).union(self.tribute_options).union(self.return_options);
        let shown = self.shown_hands.iter().fold(shown, |s, h| s.union(h.hand));
        exchanged.fold(plays.fold(shown, |s, p| s.union(p.cards)), CardSet::with)
    }
}

impl Match {
    /// The view without the deal's history: what a fast simulated player needs.
    pub fn light_view(&self, seat: Seat) -> PlayerView {
        self.view_inner(Some(seat), None, false)
    }

    /// The view of `seat` (`None` = spectator).
    pub fn view(&self, seat: Option<Seat>) -> PlayerView {
        self.view_inner(seat, None, true)
    }

    /// A spectator's view with `team`'s two hands shown, and the tribute and return cards its
    /// seats gave or got (they went into or out of those hands).
    pub fn team_view(&self, team: Team) -> PlayerView {
        self.view_inner(None, Some(team), true)
    }

    fn view_inner(&self, seat: Option<Seat>, team: Option<Team>, with_history: bool) -> PlayerView {
        let looks = |s: Seat| seat == Some(s) || team.is_some_and(|t| t.has(s));
        let sees = |a: Seat, b: Option<Seat>| looks(a) || b.is_some_and(looks);
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
            hand: seat.map_or(CardSet::EMPTY, |s| self.hands[s.index()]),
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
            shown_hands: team.map_or_else(Vec::new, |t| {
                Seat::ALL
                    .into_iter()
                    .filter(|&s| t.has(s))
                    .map(|s| ShownHand { seat: s, hand: self.hands[s.index()] })
                    .collect()
            }),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_view_holds_only_its_own_hand() {
        let (m, _) = Match::new(3, RuleConfig::competition()).unwrap();
        for s in Seat::ALL {
            let v = m.view(Some(s));
            assert_eq!(v.hand, m.hands[s.index()]);
            for other in Seat::ALL.into_iter().filter(|&o| o != s) {
                assert!(v.hand.intersect(m.hands[other.index()]).is_empty());
            }
        }
        assert!(m.view(None).hand.is_empty());
        assert!(
            Seat::ALL.into_iter().all(|s| m.view(Some(s)).shown_hands.is_empty())
                && m.view(None).shown_hands.is_empty()
        );
        assert_eq!(m.view(None).card_counts, [27; 4]);
    }

    /// A team's spectator sees exactly that team's two hands and the tribute cards its seats
    /// gave or got; the serialized view of everyone else has no `shown_hands` at all.
    #[test]
    fn a_team_view_shows_that_team_s_hands_only() {
        use crate::sim::random_action;
        use rand_chacha::ChaCha8Rng;
        use rand_core::SeedableRng;
        let (mut m, _) = Match::new(11, RuleConfig::competition()).unwrap();
        let mut rng = ChaCha8Rng::seed_from_u64(2);
        let mut tributes_checked = 0;
        for _ in 0..3000 {
            for team in Team::BOTH {
                let v = m.team_view(team);
                assert_eq!(v.seat, None);
                assert!(v.hand.is_empty());
                let seats: Vec<Seat> = v.shown_hands.iter().map(|h| h.seat).collect();
                assert_eq!(seats, Seat::ALL.into_iter().filter(|&s| team.has(s)).collect::<Vec<_>>());
                for h in &v.shown_hands {
                    assert_eq!(h.hand, m.hands[h.seat.index()]);
                }
                // Cards the team gave the other team (or got and returned) it knows of.
                let given = m
                    .tributes
                    .iter()
                    .filter(|t| team.has(t.payer) || t.receiver.is_some_and(|r| team.has(r)))
                    .flat_map(|t| [t.card, t.returned])
                    .flatten()
                    .fold(CardSet::EMPTY, CardSet::with);
                for s in Seat::ALL.into_iter().filter(|&s| !team.has(s)) {
                    let other = m.hands[s.index()].minus(given);
                    assert!(v.cards().intersect(other).is_empty(), "team {team} saw seat {s}'s cards");
                }
                for (seen, t) in v.tributes.iter().zip(m.tributes.iter()) {
                    let ours = team.has(t.payer) || t.receiver.is_some_and(|r| team.has(r));
                    assert_eq!(
                        seen.card.is_some(),
                        t.card.is_some() && (ours || seen.card.is_some_and(|c| m.played.contains(c)))
                    );
                    if ours && t.card.is_some() {
                        tributes_checked += 1;
                    }
                }
            }
            let Some(a) = random_action(&m, &mut rng) else { break };
            m.apply(&a).unwrap();
        }
        assert!(tributes_checked > 0, "a tribute was seen by a team");
        let json = serde_json::to_value(m.view(Some(Seat::ZERO))).unwrap();
        assert!(json.get("shown_hands").is_none());
        let json = serde_json::to_value(m.team_view(Team::ONE)).unwrap();
        assert_eq!(json["shown_hands"].as_array().map(Vec::len), Some(2));
        let back: PlayerView = serde_json::from_value(json).unwrap();
        assert_eq!(back, m.team_view(Team::ONE));
    }
}
