//! Properties of whole matches: legal moves are accepted, replay reproduces the state, views never
//! leak hidden cards, and malformed actions are rejected without changing anything.

use guandan_core::card::{CardId, CardSet};
use guandan_core::game::{Action, ActionKind, ErrorCode, Match, Seat};
use guandan_core::log::{LogError, MatchLog};
use guandan_core::rules::RuleConfig;
use guandan_core::sim::{check_conservation, random_action, random_match};
use proptest::prelude::*;
use rand_chacha::ChaCha8Rng;
use rand_core::SeedableRng;

fn preset(i: u8) -> RuleConfig {
    [RuleConfig::competition(), RuleConfig::huaian(), RuleConfig::house()][i as usize % 3].clone()
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 48, ..ProptestConfig::default() })]

    /// Every generated play is accepted; replaying the log (through its text) gives the same hash.
    #[test]
    fn replay_reproduces_the_state(seed in any::<u64>(), ri in 0u8..3) {
        let (m, log) = random_match(seed, preset(ri), 200_000).map_err(|v| TestCaseError::fail(v.to_string()))?;
        let text = log.to_jsonl();
        let back = MatchLog::parse(&text).unwrap();
        prop_assert_eq!(&back, &log);
        prop_assert_eq!(back.replay().unwrap().state_hash(), m.state_hash());
        // A prefix replays to the state at that point.
        let half = log.actions.len() / 2;
        let mid = log.replay_to(half).unwrap();
        prop_assert_eq!(mid.seq() as usize, half);
    }

    /// Views built from the same public history but different hidden hands are equal except for
    /// the viewer's own hand; no view holds another seat's cards.
    #[test]
    fn views_hold_no_hidden_cards(seed in any::<u64>(), steps in 0usize..400) {
        let (mut m, _) = Match::new(seed, RuleConfig::competition()).unwrap();
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        for _ in 0..steps {
            if m.is_over() { break; }
            let a = random_action(&m, &mut rng).unwrap();
            m.apply(&a).unwrap();
        }
        for seat in Seat::ALL {
            let v = m.view(Some(seat));
            prop_assert_eq!(v.hand, m.hands()[seat.index()]);
            let hidden = Seat::ALL.into_iter().filter(|&o| o != seat).fold(CardSet::EMPTY, |s, o| s.union(m.hands()[o.index()]));
            prop_assert!(v.hand.intersect(hidden).is_empty());
            for t in &v.tributes {
                if let Some(c) = t.card {
                    prop_assert!(t.from == seat || t.to == Some(seat) || m.played().contains(c));
                }
            }
            let json = serde_json::to_string(&v).unwrap();
            // Dealing two other seats' cards differently (same counts) must not change this
            // seat's view.
            let (a, b) = (seat.after(1).index(), seat.after(2).index());
            let mut setup = m.to_setup();
            let pool = setup.hands[a].union(setup.hands[b]).ids();
            let (to_b, to_a) = pool.split_at(setup.hands[b].len());
            setup.hands[a] = CardSet::from_ids(to_a);
            setup.hands[b] = CardSet::from_ids(to_b);
            let other = Match::from_setup(&setup).map_err(|e| TestCaseError::fail(e.to_string()))?;
            prop_assert_eq!(serde_json::to_string(&other.view(Some(seat))).unwrap(), json);
        }
        check_conservation(&m).map_err(TestCaseError::fail)?;
    }

    /// Garbage actions never panic and never change the state when rejected; a seat outside 0-3
    /// or a card id outside 0-107 cannot even be read into an action.
    #[test]
    fn malformed_actions_are_rejected_cleanly(seed in any::<u64>(), seat in 0u8..8, seq_off in 0u64..3,
        cards in prop::collection::vec(0u8..=255, 0..12), kind in 0u8..8) {
        let (m, _) = Match::new(seed, RuleConfig::competition()).unwrap();
        // The numbers go into the JSON as they came: the action is written with a stand-in id.
        let stand_in = CardId::ALL[0];
        let first = cards.first().copied().unwrap_or(0);
        let (kind, sent) = match kind {
            0 => (ActionKind::Play { cards: vec![stand_in], reading: None }, cards.clone()),
            2 => (ActionKind::Tribute { card: stand_in }, vec![first]),
            3 => (ActionKind::Return { card: stand_in }, vec![first]),
            k => (match k {
            1 => ActionKind::Pass,
            4 => ActionKind::Timeout,
            5 => ActionKind::SurrenderVote { accept: true },
            6 => ActionKind::ProposeSurrender,
            _ => ActionKind::Play { cards: vec![], reading: None },
            }, vec![]),
        };
        let mut json = serde_json::to_value(m.action(Seat::ZERO, kind)).unwrap();
        json["seq"] = (m.seq() + seq_off).into();
        json["seat"] = seat.into();
        if json.get("cards").is_some() {
            json["cards"] = sent.clone().into();
        } else if json.get("card").is_some() {
            json["card"] = first.into();
        }
        let bad_card = sent.iter().find(|&&c| c >= 108);
        let action = match serde_json::from_value::<Action>(json) {
            Ok(action) => action,
            Err(e) => {
                let e = e.to_string();
                prop_assert!(seat >= 4 || bad_card.is_some(), "seat {seat}, cards {sent:?} refused: {e}");
                prop_assert!(e.contains("out of range 0-3") || e.contains("out of range 0-107"), "{e}");
                return Ok(());
            }
        };
        prop_assert!(seat < 4 && bad_card.is_none(), "seat {seat}, cards {sent:?} read");
        let mut after = m.clone();
        match after.apply(&action) {
            Ok(_) => prop_assert!(after.seq() == m.seq() + 1),
            Err(e) => {
                prop_assert!(e.code().code() <= 9);
                prop_assert_eq!(&after, &m);
            }
        }
    }
}

#[test]
fn bad_input_gets_its_error_code() {
    let (m, _) = Match::new(11, RuleConfig::competition()).unwrap();
    let turn = m.turn();
    let own = m.hands()[turn.index()].ids();
    let other = m.hands()[turn.next().index()].ids()[0];
    let play = |cards: Vec<CardId>| ActionKind::Play { cards, reading: None };
    let cases: Vec<(Action, ErrorCode)> = vec![
        (m.action(turn, play(vec![])), ErrorCode::InvalidCards),
        (m.action(turn, play(vec![own[0], own[0]])), ErrorCode::InvalidCards),
        (m.action(turn, play(vec![other])), ErrorCode::CardNotFound),
        (m.action(turn.next(), play(vec![other])), ErrorCode::NotYourTurn),
        (m.action(turn, ActionKind::Pass), ErrorCode::CannotPass),
        (m.action(turn, ActionKind::Tribute { card: own[0] }), ErrorCode::InvalidTribute),
        (m.action(turn, ActionKind::Return { card: own[0] }), ErrorCode::InvalidTribute),
        (Action { seq: 5, seat: turn, kind: play(vec![own[0]]) }, ErrorCode::StateConflict),
        (m.action(turn, ActionKind::SurrenderVote { accept: true }), ErrorCode::StateConflict),
    ];
    for (action, code) in cases {
        let mut s = m.clone();
        let err = s.apply(&action).unwrap_err();
        assert_eq!(err.code(), code, "{action:?}: {err}");
        assert_eq!(s, m);
    }
}

#[test]
fn corrupt_logs_are_rejected_or_recovered() {
    let (_, log) = random_match(5, RuleConfig::competition(), 200_000).unwrap();
    let text = log.to_jsonl();
    // Truncated mid-line: strict parse fails, lenient parse recovers the valid prefix.
    let cut = &text[..text.len() * 2 / 3];
    assert!(MatchLog::parse(cut).is_err());
    let (prefix, err) = MatchLog::parse_lenient(cut).unwrap();
    assert!(err.is_some());
    let (state, n, problem) = prefix.recover();
    assert!(problem.is_none());
    assert_eq!(n, prefix.actions.len());
    assert_eq!(state.seq() as usize, n);
    // Garbage, empty, wrong version, tampered hash.
    assert_eq!(MatchLog::parse("").unwrap_err().code(), ErrorCode::LogEmpty);
    assert_eq!(MatchLog::parse("{not json").unwrap_err().code(), ErrorCode::LogMalformed);
    // An action by a seat that does not exist: the record is malformed, read no further.
    let mut lines: Vec<String> = text.lines().map(String::from).collect();
    assert!(lines[1].contains(r#""seat":"#), "{}", lines[1]);
    lines[1] = with_seat(&lines[1], 7);
    assert_eq!(MatchLog::parse(&lines.join("\n")).unwrap_err().code(), ErrorCode::LogMalformed);
    // So is a card id past the decks (before card ids were a type, it read and the replay
    // refused it): read no further, the actions before it kept.
    let mut lines: Vec<String> = text.lines().map(String::from).collect();
    let at = lines.iter().position(|l| l.contains(r#""cards":["#)).expect("a play in the record");
    lines[at] = lines[at].replacen(r#""cards":["#, r#""cards":[200,"#, 1);
    let e = MatchLog::parse(&lines.join("\n")).unwrap_err();
    assert!(matches!(e, LogError::Malformed { line, .. } if line == at + 1), "{e}");
    assert!(e.to_string().contains("card id 200 is out of range 0-107"), "{e}");
    let (prefix, err) = MatchLog::parse_lenient(&lines.join("\n")).unwrap();
    assert_eq!(err.map(|e| e.code()), Some(ErrorCode::LogMalformed));
    assert!(prefix.actions.len() < at && prefix.replay().is_ok(), "the actions before it kept");
    assert_eq!(
        MatchLog::parse(&text.replacen("\"version\":1", "\"version\":99", 1)).unwrap_err().code(),
        ErrorCode::LogVersion
    );
    let tampered = MatchLog::parse(&text).unwrap();
    let mut bad = tampered.clone();
    bad.checkpoints[0].hash = "00".repeat(32);
    assert_eq!(bad.replay().unwrap_err().code(), ErrorCode::LogHash);
    let mut reordered = tampered.clone();
    reordered.actions.swap(0, 1);
    assert_eq!(reordered.replay().unwrap_err().code(), ErrorCode::LogRejected);
}

#[test]
fn same_seed_same_match() {
    let (a, _) = random_match(77, RuleConfig::competition(), 200_000).unwrap();
    let (b, _) = random_match(77, RuleConfig::competition(), 200_000).unwrap();
    assert_eq!(a.state_hash(), b.state_hash());
    let (c, _) = random_match(78, RuleConfig::competition(), 200_000).unwrap();
    assert_ne!(a.state_hash(), c.state_hash());
}

#[test]
fn no_shuffle_matches_replay_to_the_same_hash_and_deal_from_the_played_order() {
    let (m, log) = random_match(21, RuleConfig::no_shuffle(), 200_000).unwrap();
    assert!(m.deal_no() > 0);
    let replayed = MatchLog::parse(&log.to_jsonl()).unwrap().replay().unwrap();
    assert_eq!(replayed.state_hash(), m.state_hash());
    // The second deal differs from the shuffled deal the same seed would give.
    let mut shuffled_rules = RuleConfig::no_shuffle();
    shuffled_rules.dealing = guandan_core::rules::Dealing::Shuffled;
    let first_deal_end = log.checkpoints[0].checkpoint as usize;
    let a = log.replay_to(first_deal_end).unwrap();
    let mut other = log.clone();
    other.header.rules = shuffled_rules;
    other.checkpoints.clear();
    let b = other.replay_to(first_deal_end).unwrap();
    assert_eq!(a.deal_no(), 1);
    assert_ne!(a.hands(), b.hands());
}

/// `line` with its first `"seat":N` set to `seat`.
fn with_seat(line: &str, seat: u8) -> String {
    let at = line.find(r#""seat":"#).unwrap() + r#""seat":"#.len();
    let end = at + line[at..].find(|c: char| !c.is_ascii_digit()).unwrap();
    format!("{}{seat}{}", &line[..at], &line[end..])
}
