//! Fuzz entry points shared by the libFuzzer targets (`rust/guandan-core/fuzz/`) and the seeded
//! `guandan fuzz` driver. Each takes arbitrary bytes; a panic is a finding (either the code under
//! test panicked, or an invariant below failed).

use crate::card::{Card, CardId, CardSet, DECK_SIZE, Rank};
use crate::combo::classify;
use crate::game::{Action, ActionKind, Match, Seat};
use crate::log::MatchLog;
use crate::movegen;
use crate::rules::RuleConfig;
use crate::sim::check_conservation;

/// Parsers never panic; what parses prints back to itself.
pub fn parsers(data: &[u8]) {
    let text = String::from_utf8_lossy(data);
    if let Ok(c) = Card::parse(&text) {
        assert_eq!(Card::parse(&c.notation()), Ok(c));
    }
    if let Ok(set) = CardSet::parse(&text) {
        assert_eq!(CardSet::parse(&set.notation()).map(|s| s.len()), Ok(set.len()));
    }
    let _ = Rank::parse_level(&text);
    let _ = RuleConfig::from_json(&text);
    if let Ok((log, _)) = MatchLog::parse_lenient(&text) {
        let _ = log.recover();
        let _ = log.replay();
    }
}

/// An explicit reading for a play of `cards`: one of its own readings (by `pick`), or, one time
/// in four, the first reading of the acting hand's first generated play (usually wrong for these
/// cards, which the engine must refuse cleanly).
fn pick_reading(m: &Match, cards: &[CardId], pick: u8) -> Option<crate::combo::Pattern> {
    let set = CardSet::from_ids(cards);
    let readings = classify(set, m.level, &m.rules);
    match pick % 4 {
        0 => None,
        1 => m.legal_plays().first().map(|p| p.pattern),
        _ => readings.get(pick as usize % readings.len().max(1)).map(|p| p.pattern),
    }
}

/// Any byte as a card id (an id past the decks cannot be held: the wire and the files refuse it
/// where they read it, see `card::tests`).
fn any_id(b: u8) -> CardId {
    CardId::ALL[usize::from(b) % DECK_SIZE]
}

/// Reads bytes as a stream of small numbers.
struct Bytes<'a> {
    data: &'a [u8],
    i: usize,
}

impl Bytes<'_> {
    fn next(&mut self) -> Option<u8> {
        let b = *self.data.get(self.i)?;
        self.i += 1;
        Some(b)
    }
}

/// Drives a match with actions decoded from bytes: every action either applies (and the state
/// stays consistent) or is rejected with a code and leaves the state untouched. Also checks that
/// generated moves are legal and that the move generator agrees with classification.
pub fn engine(data: &[u8]) {
    let mut b = Bytes { data, i: 0 };
    let seed = u64::from(b.next().unwrap_or(0)) | u64::from(b.next().unwrap_or(0)) << 8;
    let rules = match b.next().unwrap_or(0) % 3 {
        0 => RuleConfig::competition(),
        1 => RuleConfig::huaian(),
        _ => RuleConfig::house(),
    };
    let Ok((mut m, _)) = Match::new(seed, rules) else { return };
    while let Some(op) = b.next() {
        if m.is_over() {
            break;
        }
        let seat = Seat::ALL[usize::from(b.next().unwrap_or(0) % 4)];
        let kind = match op % 8 {
            // Mostly legal moves, picked by index, so matches get deep.
            0..=3 => {
                let to_act = m.to_act();
                let Some(&s) = to_act.first() else { break };
                let plays = m.legal_plays();
                let pick = b.next().unwrap_or(0) as usize;
                let kind = match m.phase {
                    crate::game::Phase::Tribute => {
                        ActionKind::Tribute { card: m.tribute_options(s).iter().next().unwrap_or(CardId::ALL[0]) }
                    }
                    crate::game::Phase::Return => {
                        ActionKind::Return { card: m.return_options(s).iter().next().unwrap_or(CardId::ALL[0]) }
                    }
                    _ if plays.is_empty() || (m.can_pass() && pick.is_multiple_of(5)) => ActionKind::Pass,
                    _ => Match::play_kind(&plays[pick % plays.len()]),
                };
                let action = m.action(s, kind);
                m.apply(&action).expect("a generated legal action was rejected");
                check_conservation(&m).expect("cards conserved");
                continue;
            }
            // A few cards of the acting seat's own hand: often a combination, sometimes with an
            // explicit reading (any of the selection's readings, or one of another selection).
            4 => {
                let hand = m.hands[m.turn.index()].ids();
                let n = b.next().unwrap_or(0) % 6 + 1;
                let cards: Vec<CardId> = (0..n)
                    .filter_map(|_| hand.get(b.next().unwrap_or(0) as usize % hand.len().max(1)).copied())
                    .collect();
                let reading = pick_reading(&m, &cards, b.next().unwrap_or(0));
                ActionKind::Play { cards, reading }
            }
            5 => {
                let n = b.next().unwrap_or(0) % 12;
                let cards: Vec<CardId> = (0..n).map(|_| any_id(b.next().unwrap_or(0))).collect();
                ActionKind::Play { cards, reading: None }
            }
            6 if u8::from(seat).is_multiple_of(2) => ActionKind::Pass,
            6 => ActionKind::Tribute { card: any_id(b.next().unwrap_or(0)) },
            _ => ActionKind::Return { card: any_id(b.next().unwrap_or(0)) },
        };
        let seat = if op % 8 == 4 { m.turn } else { seat };
        let seq_skew = u64::from(b.next().unwrap_or(0).is_multiple_of(3));
        let action = Action { seq: m.seq + seq_skew, seat, kind };
        let before = m.clone();
        match m.apply(&action) {
            Ok(events) => {
                check_conservation(&m).expect("cards conserved");
                // Legal is generated: a play the engine accepted is in the move list (same reading).
                for e in &events {
                    if let crate::game::Event::Played { play, .. } = e {
                        assert!(
                            before.legal_plays().iter().any(|p| p.pattern == play.pattern),
                            "accepted {} was not generated",
                            play.pattern
                        );
                    }
                }
            }
            Err(e) => {
                assert!(e.code().code() <= 9, "rule errors use codes 1-9, got {}", e.code());
                assert!(m == before, "a rejected action changed the state");
                // Generated is legal: when a play was refused, every generated play of the same
                // reading is accepted with that reading given explicitly.
                if let (ActionKind::Play { reading: Some(want), .. }, crate::game::Phase::Play) =
                    (&action.kind, m.phase)
                    && action.seat == m.turn
                    && action.seq == m.seq
                {
                    for p in m.legal_plays().iter().filter(|p| p.pattern == *want) {
                        m.play(&m.action(m.turn, Match::play_kind(p))).expect("a generated play was refused");
                    }
                }
            }
        }
    }
    // Generated moves are legal and legal moves are generated (for the seat to act, if playing).
    if m.phase == crate::game::Phase::Play {
        let hand = m.hands[m.turn.index()];
        for p in m.legal_plays() {
            assert!(p.cards.is_subset(hand));
            assert!(classify(p.cards, m.level, &m.rules).iter().any(|r| r.pattern == p.pattern));
            let mut next = m.clone();
            next.apply(&m.action(m.turn, Match::play_kind(&p))).expect("generated play accepted");
        }
        let _ = movegen::leads(hand, m.level, &m.rules);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand_chacha::ChaCha8Rng;
    use rand_core::{Rng, SeedableRng};

    #[test]
    fn random_bytes_find_nothing() {
        let mut rng = ChaCha8Rng::seed_from_u64(7);
        for _ in 0..300 {
            let n = (rng.next_u32() % 400) as usize;
            let data: Vec<u8> = (0..n).map(|_| rng.next_u32() as u8).collect();
            parsers(&data);
            engine(&data);
        }
        parsers(b"S2 HT SB HR");
        parsers(b"{\"version\":1,\"seed\":1,\"rules\":{}}\n{\"seq\":0,\"seat\":9,\"type\":\"pass\"}\n");
    }
}
