//! The card counter (记牌器): for one player, how many cards of each rank and each joker the
//! three other players still hold.
//!
//! Two ways in, both from what that player may know only (never a hidden hand):
//! - [`Counter::of_view`]: from a [`PlayerView`] — the two decks minus the own hand minus the
//!   cards played in this deal. Right for the match's *current* position.
//! - [`SeenCards`]: fed the player's notices ([`Out`]) one by one, in the order a table shows
//!   them. A front end that shows events after the rules applied them (the table's queue) must use
//!   this one: the rules start the next deal in the same action as the last play of a deal, so
//!   the current position is already the next deal's while the table still shows that play and
//!   the deal's end (issue 53: the counter, sampled from the current position only when the table
//!   was idle, showed cards of the deal's last plays as still out).
//!
//! Cards the player gave as tribute or return are in another hand and are counted; a wild is
//! counted as the card it is (the heart of the level), whatever it stood for in a play.

use crate::card::{Card, CardSet, Rank};
use crate::notice::Out;
use crate::seat::Seat;
use crate::view::PlayerView;

/// Cards of each rank the other players still hold.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Counter {
    /// Index `rank - 2`: ranks 2–14 (A), then 15 small joker, 16 big joker.
    pub by_rank: [u8; 15],
    /// Of those, the wilds (hearts of the deal's level).
    pub wilds: u8,
}

impl Counter {
    /// Every card still out of the player's sight: 108 minus the hand minus this deal's plays.
    pub fn of_view(view: &PlayerView) -> Counter {
        Counter::of_unseen(CardSet::FULL.minus(view.hand).minus(view.played), view.level)
    }

    /// Counts a set of cards by rank (and wilds of `level`).
    pub fn of_unseen(unseen: CardSet, level: Rank) -> Counter {
        let mut c = Counter::default();
        for id in unseen.iter() {
            let card = Card::from_id(id);
            c.by_rank[usize::from(card.rank().0 - 2)] += 1;
            if card.is_wild(level) {
                c.wilds += 1;
            }
        }
        c
    }

    /// How many cards the count covers.
    pub fn total(&self) -> u32 {
        self.by_rank.iter().map(|&n| u32::from(n)).sum()
    }
}

/// What one seat has seen of the deal so far, kept from its notices in the order they are shown:
/// its own hand and the cards played since the deal began.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SeenCards {
    seat: Seat,
    level: Rank,
    hand: CardSet,
    played: CardSet,
}

impl SeenCards {
    /// Before anything is shown: nothing seen (the counter covers the two decks).
    pub fn new(seat: Seat) -> SeenCards {
        SeenCards { seat, level: Rank::TWO, hand: CardSet::EMPTY, played: CardSet::EMPTY }
    }

    /// A position shown whole (a resumed match, a reconnect): the view's hand and plays.
    pub fn of_view(view: &PlayerView) -> Option<SeenCards> {
        let seat = view.seat?;
        Some(SeenCards { seat, level: view.level, hand: view.hand, played: view.played })
    }

    /// The seat whose counter this is.
    pub fn seat(&self) -> Seat {
        self.seat
    }

    /// Takes one notice the seat received. Only three change what it has seen: a new deal
    /// (nothing played yet), its own hand (dealt, tribute, return, its own play), a play.
    pub fn apply(&mut self, out: &Out) {
        match out {
            Out::DealStarted { level, .. } => self.deal_started(*level),
            Out::HandChanged { seat, hand } if *seat == self.seat => self.hand = *hand,
            Out::CardsPlayed { play, .. } => self.cards_played(play.cards),
            _ => {}
        }
    }

    /// A new deal at `level`: its hand follows.
    pub fn deal_started(&mut self, level: Rank) {
        self.level = level;
        self.hand = CardSet::EMPTY;
        self.played = CardSet::EMPTY;
    }

    /// The seat's whole hand now.
    pub fn hand_changed(&mut self, hand: CardSet) {
        self.hand = hand;
    }

    /// Cards put on the table by anyone. The player's own play also leaves its hand (its hand
    /// notice follows; taking them out now keeps the count right in between).
    pub fn cards_played(&mut self, cards: CardSet) {
        self.played = self.played.union(cards);
        self.hand = self.hand.minus(cards);
    }

    /// The count of what the three others hold.
    pub fn counter(&self) -> Counter {
        Counter::of_unseen(self.unseen(), self.level)
    }

    /// The cards out of this seat's sight.
    pub fn unseen(&self) -> CardSet {
        CardSet::FULL.minus(self.hand).minus(self.played)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::card::CardId;
    use crate::log::MatchLog;

    /// Brute force from what the player saw: every id that is neither in the hand nor in one of
    /// the plays of this deal's history, counted one by one.
    fn brute_force(view: &PlayerView) -> Counter {
        let mut played = Vec::new();
        for turn in &view.history {
            if let Some(p) = &turn.play {
                played.extend(p.cards.iter());
            }
        }
        let mut c = Counter::default();
        for id in CardId::ALL {
            if view.hand.contains(id) || played.contains(&id) {
                continue;
            }
            let card = Card::from_id(id);
            c.by_rank[usize::from(card.rank().0 - 2)] += 1;
            c.wilds += u8::from(card.is_wild(view.level));
        }
        c
    }

    #[test]
    fn matches_brute_force_at_every_step_and_only_counts_other_hands() {
        for file in ["good_competition_match.jsonl", "good_house_match.jsonl", "good_unfinished_match.jsonl"] {
            let path = format!("{}/../../tests/replay-corpus/{file}", env!("CARGO_MANIFEST_DIR"));
            let text = std::fs::read_to_string(&path).unwrap();
            let log = MatchLog::parse(&text).unwrap();
            let mut steps = 0;
            log.replay_with(|_, _, _, m| {
                for seat in Seat::ALL {
                    let view = m.view(Some(seat));
                    let c = Counter::of_view(&view);
                    assert_eq!(c, brute_force(&view), "{file}: seat {seat} at seq {}", m.seq());
                    let all_hands = Seat::ALL.into_iter().fold(CardSet::EMPTY, |a, s| a.union(m.hand(s)));
                    let in_transit = m
                        .tributes()
                        .iter()
                        .filter_map(|t| t.card)
                        .filter(|&id| !all_hands.contains(id) && !m.played().contains(id))
                        .fold(CardSet::EMPTY, |a, id| a.with(id));
                    let others =
                        Seat::ALL.into_iter().filter(|&s| s != seat).fold(in_transit, |a, s| a.union(m.hand(s)));
                    assert_eq!(c, Counter::of_unseen(others, m.level()), "{file}: seat {seat}");
                    assert_eq!(c.total() as usize, others.len());
                    assert_eq!(SeenCards::of_view(&view).unwrap().counter(), c);
                }
                steps += 1;
            })
            .unwrap();
            assert!(steps > 10, "{file}: only {steps} steps");
        }
    }

    #[test]
    fn a_fresh_deal_counts_every_card_not_in_the_hand() {
        let hands = crate::deal::deal_for_seed(7);
        let (m, _) = crate::game::Match::new(7, crate::rules::RuleConfig::competition()).unwrap();
        let view = m.view(Some(Seat::ZERO));
        assert_eq!(view.hand, hands[0]);
        let c = Counter::of_view(&view);
        assert_eq!(c.total(), 81);
        for r in 2..=16u8 {
            let held = hands[0].iter().filter(|&id| Card::from_id(id).rank() == Rank(r)).count() as u8;
            let all = if r >= 15 { 2 } else { 8 };
            assert_eq!(c.by_rank[usize::from(r - 2)], all - held, "rank {r}");
        }
    }

    #[test]
    fn other_seats_hands_and_notices_change_nothing_but_plays() {
        let mut s = SeenCards::new(Seat::ONE);
        s.apply(&Out::DealStarted { deal_no: 0, level: Rank(5), declarer: None });
        assert_eq!(s.counter().total(), 108);
        let hand = CardSet::FULL.iter().take(27).fold(CardSet::EMPTY, CardSet::with);
        s.apply(&Out::HandChanged { seat: Seat::TWO, hand });
        assert_eq!(s.counter().total(), 108, "another seat's hand is not ours");
        s.apply(&Out::HandChanged { seat: Seat::ONE, hand });
        assert_eq!(s.counter().total(), 81);
        s.apply(&Out::DealStarted { deal_no: 1, level: Rank(6), declarer: None });
        assert_eq!(s.counter().total(), 108, "a new deal forgets the last");
    }
}
