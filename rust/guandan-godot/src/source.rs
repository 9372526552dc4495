//! The match source: what `GuandanEngine` reads and acts on, whichever side holds the match —
//! a local [`Runtime`](guandan_runtime::Runtime) with AI seats on this machine
//! ([`crate::engine::local::LocalMatch`]), or the copy of a match a `guandan-server` holds
//! ([`crate::client::remote::RemoteMatch`], fed by a `GuandanClient`). The node declares its
//! signals, getters, play check and advice once over this trait, so the table, `MoveAdvisor` and
//! the replay never know which source they have.
//!
//! Everything a getter shows comes from the viewer's [`PlayerView`] (plus the hands the viewer
//! may see and the outcome), so a getter cannot show online what a player may not see.

use guandan_ai::AiProfile;
use guandan_core::card::{CardId, CardSet};
use guandan_core::combo::wild_set;
use guandan_core::error::ErrorCode;
use guandan_core::event::Outcome;
use guandan_core::game::{ActionKind, Match, Reading, Seat};
use guandan_core::rule_error::{InvalidCardsReason, RuleError};
use guandan_core::view::PlayerView;

use crate::codes::Fail;
use crate::forward::Emit;

/// One match as its viewer sees it, and the viewer's actions on it. Actions return the
/// signals they cause at once (a remote source's answer comes later, through [`MatchSource::take_emits`]).
pub(crate) trait MatchSource {
    /// The viewer's view of the latest state (a spectator's view when the viewer has no seat);
    /// `None` before the first state of a remote match.
    fn view(&self) -> Option<PlayerView>;
    /// The seat the viewer acts for; `None` for a spectator or an AI-only table.
    fn local(&self) -> Option<Seat>;
    /// `seat`'s hand when the viewer may see it (their own; every hand on a local AI-only table
    /// or once a local match is over).
    fn seen_hand(&self, seat: Seat) -> Option<CardSet>;
    fn outcome(&self) -> Option<Outcome>;
    /// The match seed (0 when the source was not told it).
    fn seed(&self) -> u64;
    /// SHA-256 hex of the whole match after the last action the source knows.
    fn state_hash(&self) -> String;
    fn action_count(&self) -> u64;
    /// Seconds left on the viewer's current duty; `None` when no clock runs for it.
    fn time_left(&self) -> Option<f64>;
    /// Whether a person (not an AI seat) plays `seat`.
    fn is_human(&self, seat: Seat) -> bool;
    /// Whether the AI plays the viewer's seat now (auto-play, or online: hosted while away).
    fn is_auto_play(&self) -> bool;
    /// Applies (local) or sends (remote) the viewer's action.
    fn act(&mut self, kind: ActionKind) -> Result<Vec<Emit>, Fail>;
    /// Hands the viewer's seat to the AI (`profile`) or takes it back.
    fn set_auto_play(&mut self, on: bool, profile: AiProfile) -> Result<Vec<Emit>, Fail>;
    /// The table has drawn the viewer's prompt (the server starts its clock then); false when
    /// there was nothing to tell.
    fn prompt_seen(&mut self) -> bool {
        false
    }
    /// Signals that arrived since the last call (a remote source's server messages).
    fn take_emits(&mut self) -> Vec<Emit> {
        Vec::new()
    }
}

/// The action a selection of the viewer's hand makes, checked by the rules' own play check
/// ([`PlayerView::play_check`], the one `Match` applies), the same way for both sources (a remote
/// play that would be refused is never sent; the server checks it again). `reading` indexes
/// `classify`'s readings (-1 = the strongest that beats the table). A refusal carries the rules'
/// code and words.
pub(crate) fn play_kind(view: &PlayerView, card_ids: &[i32], reading: i64) -> Result<ActionKind, Fail> {
    let check = view.play_check().ok_or_else(|| Fail::new(ErrorCode::NotHuman, "no seat of a person to act for"))?;
    let reading = match reading {
        -1 => Reading::Best,
        r => Reading::Nth(usize::try_from(r).map_err(|_| {
            Fail::bad_argument(format!("reading {r} is not an index of the selection's readings (-1 = default)"))
        })?),
    };
    // A reading index past the list is a wrong argument of the call (actions name a reading,
    // not an index), as GDScript has always been told; every other refusal is the rules'.
    // The numbers become card ids here, the edge: one past the decks is `invalid_cards` in the
    // words the rules always used ("card id 200 out of range 0-107").
    let ids = CardId::try_from_all(card_ids).map_err(|e| Fail::from(RuleError::from(e)))?;
    let play = check.play(&ids, reading).map_err(|e| match e {
        RuleError::InvalidCards(InvalidCardsReason::NoSuchReading { .. }) => Fail::bad_argument(e.to_string()),
        e => Fail::from(e),
    })?;
    Ok(Match::play_kind(&play))
}

/// The wild cards of the view's deal.
pub(crate) fn wilds(v: &PlayerView) -> CardSet {
    wild_set(v.level, &v.rules)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::args;
    use guandan_core::event::Action;
    use guandan_core::game::Match;
    use guandan_core::game::Phase;
    use guandan_core::rules::RuleConfig;

    fn first_turn() -> (Match, PlayerView) {
        let (m, _) = Match::new(7, RuleConfig::competition()).expect("a match");
        let v = m.view(Some(m.turn()));
        (m, v)
    }

    #[test]
    fn a_default_reading_is_the_one_the_rules_apply() {
        let (m, v) = first_turn();
        let card = v.hand.iter().next().expect("a card");
        let kind = play_kind(&v, &[i32::from(card)], -1).expect("a single leads");
        let act = |kind| Action { seq: m.seq(), seat: m.turn(), kind };
        let after = m.play(&act(kind)).expect("legal");
        let plain = m.play(&act(ActionKind::Play { cards: vec![card], reading: None })).expect("legal");
        assert_eq!(after.state_hash(), plain.state_hash());
    }

    #[test]
    fn selections_the_rules_refuse_are_refused_with_their_code() {
        let (m, v) = first_turn();
        let mine: Vec<i32> = v.hand.iter().map(i32::from).collect();
        let other = CardId::ALL.into_iter().find(|&c| !v.hand.contains(c)).map(i32::from).expect("a card elsewhere");
        let code = |ids: &[i32], r: i64| play_kind(&v, ids, r).map(|_| ()).map_err(|f| f.code);
        assert_eq!(code(&[], -1), Err(ErrorCode::InvalidCards));
        assert_eq!(code(&[mine[0], mine[0]], -1), Err(ErrorCode::InvalidCards));
        assert_eq!(code(&[200], -1), Err(ErrorCode::InvalidCards));
        assert_eq!(code(&[other], -1), Err(ErrorCode::CardNotFound));
        assert_eq!(code(&[mine[0]], 5), Err(ErrorCode::BadArgument));
        assert_eq!(code(&[mine[0]], -2), Err(ErrorCode::BadArgument));
        assert_eq!(code(&[-5], -1), Err(ErrorCode::InvalidCards));
        let next = m.view(Some(m.turn().next()));
        let theirs: Vec<i32> = next.hand.iter().take(1).map(i32::from).collect();
        assert_eq!(play_kind(&next, &theirs, -1).map(|_| ()).map_err(|f| f.code), Err(ErrorCode::NotYourTurn));
        let spectator = m.view(None);
        assert_eq!(play_kind(&spectator, &[mine[0]], -1).map(|_| ()).map_err(|f| f.code), Err(ErrorCode::NotHuman));
    }

    /// A tiny seeded generator (this crate has no rand): the same walk every run.
    struct Walk(u64);
    impl Walk {
        fn next(&mut self, n: usize) -> usize {
            self.0 ^= self.0 << 13;
            self.0 ^= self.0 >> 7;
            self.0 ^= self.0 << 17;
            (self.0 % n.max(1) as u64) as usize
        }
    }

    /// Issue 55: the table's play check is the match's. Over seeded matches of every preset, each
    /// seat's selections (whole combinations, loose cards, a card elsewhere, a repeat, an id past
    /// the deck) and readings give the same action or the same refusal (code and words) as
    /// `Match::play` gives the action.
    #[test]
    fn the_table_accepts_exactly_what_the_match_accepts() {
        use guandan_core::combo::classify;
        use guandan_core::movegen;
        let (mut same_ok, mut same_err) = (0, 0);
        for (n, preset) in guandan_core::rules::PRESETS.iter().cycle().take(16).enumerate() {
            let rules = RuleConfig::preset(preset).expect("a preset");
            let (mut m, _) = Match::new(n as u64 * 7919 + 1, rules).expect("a match");
            let mut walk = Walk(n as u64 + 0x9e37_79b9);
            for step in 0..400 {
                if m.is_over() {
                    break;
                }
                if step % 9 == 0 {
                    for seat in Seat::ALL {
                        let v = m.view(Some(seat));
                        let leads = movegen::generate(v.hand, None, v.level, &v.rules);
                        let hand: Vec<i32> = v.hand.iter().map(i32::from).collect();
                        for _ in 0..4 {
                            let mut ids: Vec<i32> = match walk.next(3) {
                                0 | 1 => leads
                                    .get(walk.next(leads.len()))
                                    .map_or(vec![], |p| p.cards.iter().map(i32::from).collect()),
                                _ => (0..=walk.next(4))
                                    .filter_map(|_| hand.get(walk.next(hand.len())).copied())
                                    .collect(),
                            };
                            match walk.next(8) {
                                0 => ids.push((0..108).find(|c| !hand.contains(c)).unwrap_or(0)),
                                1 => ids.push(108 + walk.next(100) as i32),
                                2 => ids.extend(ids.first().copied()),
                                3 => ids.clear(),
                                _ => {}
                            }
                            let reading = walk.next(4) as i64 - 1;
                            let by_table = play_kind(&v, &ids, reading);
                            // An id past the decks cannot make an action at all (the wire refuses
                            // it); the table refuses it with the rules' code.
                            let Ok(cards) = CardId::try_from_all(&ids) else {
                                assert_eq!(by_table.map(|_| ()).map_err(|f| f.code), Err(ErrorCode::InvalidCards));
                                continue;
                            };
                            let set = args::card_set(&ids).unwrap_or_default();
                            let readings = classify(set, v.level, &v.rules);
                            let want = match usize::try_from(reading).map(|i| readings.get(i)) {
                                Err(_) => None,
                                Ok(Some(p)) => Some(p.pattern),
                                Ok(None) => {
                                    // An index past the readings: only the table can name one.
                                    assert!(by_table.is_err());
                                    continue;
                                }
                            };
                            let by_match = m
                                .play(&m.action(seat, ActionKind::Play { cards, reading: want }))
                                .map(|_| ())
                                .map_err(Fail::from);
                            match (&by_table, &by_match) {
                                (Ok(ActionKind::Play { cards, reading }), Ok(())) => {
                                    let again = ActionKind::Play { cards: cards.clone(), reading: *reading };
                                    assert!(m.play(&m.action(seat, again)).is_ok());
                                    same_ok += 1;
                                }
                                (Err(a), Err(b)) => {
                                    assert_eq!(a, b, "{ids:?} reading {reading}");
                                    same_err += 1;
                                }
                                _ => panic!("table {by_table:?}, match {by_match:?} for {ids:?} reading {reading}"),
                            }
                        }
                    }
                }
                let seat = m.to_act()[0];
                let kind = match m.phase() {
                    Phase::Tribute => ActionKind::Tribute { card: m.tribute_options(seat).ids()[0] },
                    Phase::Return => ActionKind::Return { card: m.return_options(seat).ids()[0] },
                    _ => {
                        let plays = m.legal_plays();
                        match walk.next(plays.len() + 1) {
                            i if i < plays.len() => Match::play_kind(&plays[i]),
                            _ if m.can_pass() => ActionKind::Pass,
                            _ => Match::play_kind(&plays[0]),
                        }
                    }
                };
                m.apply(&m.action(seat, kind)).expect("a legal action");
            }
        }
        assert!(same_ok > 100 && same_err > 100, "accepted {same_ok}, refused {same_err}");
    }
}
