//! Golden regression cases from `tests/regression/` (hand-written expectations).
//!
//! `classify.txt`, `compare.txt` and `moves.txt` hold one case per line, fields separated by `|`;
//! a leading `@variant` picks a rule variant. `scenarios.json` holds match situations with the
//! actions taken and the expected outcome.

use guandan_core::card::{Card, CardId, CardSet, Rank};
use guandan_core::combo::{beats, choose_reading, classify};
use guandan_core::game::{Action, ActionKind, DealSetup, Event, Match, Seat, Team};
use guandan_core::movegen;
use guandan_core::rules::RuleConfig;
use serde_json::Value;
use std::collections::BTreeSet;
use std::path::PathBuf;

fn data(name: &str) -> String {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../tests/regression").join(name);
    std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

fn variant(name: &str) -> RuleConfig {
    let base = RuleConfig::competition();
    match name {
        "" => base,
        "house" => RuleConfig::house(),
        "huaian" => RuleConfig::huaian(),
        "noacehigh" => RuleConfig { sequences_ace_high: false, ..base },
        "noacelow" => RuleConfig { sequences_ace_low: false, ..base },
        "onewild" => RuleConfig { wild_count: 1, ..base },
        "sfbelow" => {
            RuleConfig { straight_flush_order: guandan_core::rules::StraightFlushOrder::BelowAllBombs, ..base }
        }
        other => panic!("unknown variant {other}"),
    }
}

/// Splits a data line into (rules, level, remaining fields).
fn fields(line: &str) -> (RuleConfig, Rank, Vec<String>) {
    let mut parts: Vec<String> = line.split('|').map(|s| s.trim().to_string()).collect();
    let head = parts.remove(0);
    let (var, level) = match head.split_once(' ') {
        Some((v, l)) if v.starts_with('@') => (&v[1..], l.trim()),
        _ => ("", head.as_str()),
    };
    (variant(var), Rank::parse_level(level).unwrap(), parts)
}

fn lines(text: &str) -> impl Iterator<Item = (usize, &str)> {
    text.lines().enumerate().map(|(i, l)| (i + 1, l.trim())).filter(|(_, l)| !l.is_empty() && !l.starts_with('#'))
}

fn list(s: &str) -> Vec<String> {
    if s == "NONE" || s.is_empty() {
        return Vec::new();
    }
    s.split(',').map(|x| x.trim().to_string()).collect()
}

#[test]
fn classify_cases() {
    let text = data("classify.txt");
    let mut n = 0;
    for (no, line) in lines(&text) {
        let (rules, level, f) = fields(line);
        let cards = CardSet::parse(&f[0]).unwrap();
        let got: Vec<String> = classify(cards, level, &rules).iter().map(|p| p.pattern.to_string()).collect();
        assert_eq!(got, list(&f[1]), "classify.txt:{no}: {line}");
        n += 1;
    }
    assert!(n >= 80, "only {n} classify cases");
}

#[test]
fn compare_cases() {
    let text = data("compare.txt");
    let mut n = 0;
    for (no, line) in lines(&text) {
        let (rules, level, f) = fields(line);
        let a = classify(CardSet::parse(&f[0]).unwrap(), level, &rules);
        let b = classify(CardSet::parse(&f[1]).unwrap(), level, &rules);
        assert!(!a.is_empty() && !b.is_empty(), "compare.txt:{no}: not combinations");
        let table = choose_reading(&b, None, level, &rules).unwrap();
        let got = a.iter().any(|p| beats(p, &table, level, &rules));
        assert_eq!(got.to_string(), f[2], "compare.txt:{no}: {line}");
        n += 1;
    }
    assert!(n >= 60, "only {n} compare cases");
}

#[test]
fn move_cases() {
    let text = data("moves.txt");
    let mut n = 0;
    for (no, line) in lines(&text) {
        let (rules, level, f) = fields(line);
        let hand = CardSet::parse(&f[0]).unwrap();
        let moves = if f[1] == "-" {
            movegen::leads(hand, level, &rules)
        } else {
            let t = classify(CardSet::parse(&f[1]).unwrap(), level, &rules)[0];
            movegen::follows(hand, &t, level, &rules)
        };
        let got: BTreeSet<String> = moves.iter().map(|p| p.pattern.to_string()).collect();
        let want: BTreeSet<String> = list(&f[2]).into_iter().collect();
        assert_eq!(got, want, "moves.txt:{no}: {line}");
        n += 1;
    }
    assert!(n >= 20, "only {n} move cases");
}

fn event_tag(e: &Event) -> String {
    match e {
        Event::Played { seat, play } => format!("Played {seat} {}", play.pattern),
        Event::Passed { seat } => format!("Passed {seat}"),
        Event::TableCleared { leader } => format!("TableCleared {leader}"),
        Event::PartnerTakesLead { seat } => format!("PartnerTakesLead {seat}"),
        Event::PlayerFinished { seat, place } => format!("PlayerFinished {seat} {place}"),
        Event::DealEnded { order, .. } => format!("DealEnded {order:?}"),
        Event::TributeGiven { from, to, card } => format!("TributeGiven {from} {to} {}", Card::from_id(*card)),
        Event::ReturnGiven { from, to, card } => format!("ReturnGiven {from} {to} {}", Card::from_id(*card)),
        Event::Resisted { .. } => "Resisted".into(),
        Event::MatchEnded { outcome } => {
            let winner = outcome.winner().map_or("draw".into(), |t| u8::from(t).to_string());
            format!("MatchEnded {winner} {:?}", outcome.reason())
        }
        Event::SurrenderRejected { seat } => format!("SurrenderRejected {seat}"),
        Event::TurnStarted { seat, .. } => format!("TurnStarted {seat}"),
        other => format!("{other:?}"),
    }
}

/// Ids in `hand` for the cards written in notation.
fn ids_in(hand: CardSet, text: &str) -> Vec<CardId> {
    let mut taken = CardSet::EMPTY;
    text.split_whitespace()
        .map(|t| {
            let c = Card::parse(t).unwrap();
            let id = hand.minus(taken).ids_of(c).next().unwrap_or(c.ids()[0]);
            taken.insert(id);
            id
        })
        .collect()
}

fn run_scenario(s: &Value) {
    let name = s["name"].as_str().unwrap();
    let mut rules_json =
        serde_json::to_value(RuleConfig::preset(s["rules"].as_str().unwrap_or("competition")).unwrap()).unwrap();
    if let Some(patch) = s.get("rules_patch").and_then(Value::as_object) {
        for (k, v) in patch {
            rules_json[k] = v.clone();
        }
    }
    let rules: RuleConfig = serde_json::from_value(rules_json).unwrap();
    // Both copies of a card may be dealt to different seats: give each the first free copy.
    let mut dealt = CardSet::EMPTY;
    let hands: Vec<CardSet> = s["hands"]
        .as_array()
        .unwrap()
        .iter()
        .map(|h| {
            let mut hand = CardSet::EMPTY;
            for t in h.as_str().unwrap().split_whitespace() {
                let c = Card::parse(t).unwrap();
                let id = c.ids().into_iter().find(|&i| !dealt.contains(i)).expect("a card dealt three times");
                dealt.insert(id);
                hand.insert(id);
            }
            hand
        })
        .collect();
    let levels = s.get("team_levels").map_or([2, 2], |v| serde_json::from_value::<[u8; 2]>(v.clone()).unwrap());
    let setup = DealSetup {
        rules,
        seed: 1,
        deal_no: s.get("deal_no").and_then(Value::as_u64).unwrap_or(0) as u32,
        team_levels: [Rank(levels[0]), Rank(levels[1])],
        ace_failures: s.get("ace_failures").map_or([0, 0], |v| serde_json::from_value(v.clone()).unwrap()),
        declarer: s.get("declarer").and_then(Value::as_u64).and_then(|d| Team::new(d as u8)),
        last_order: s.get("last_order").map(|v| serde_json::from_value(v.clone()).unwrap()),
        hands: [hands[0], hands[1], hands[2], hands[3]],
        leader: s.get("leader").map_or(Seat::ZERO, |v| serde_json::from_value(v.clone()).unwrap()),
    };
    let (mut m, mut events) = Match::from_deal(&setup).unwrap();
    for (i, step) in s["steps"].as_array().unwrap().iter().enumerate() {
        let seat: Seat = serde_json::from_value(step["seat"].clone()).unwrap();
        let hand = m.hands()[seat.index()];
        let kind = if let Some(c) = step.get("play") {
            ActionKind::Play { cards: ids_in(hand, c.as_str().unwrap()), reading: None }
        } else if step.get("pass").is_some() {
            ActionKind::Pass
        } else if let Some(c) = step.get("tribute") {
            ActionKind::Tribute { card: ids_in(hand, c.as_str().unwrap())[0] }
        } else if let Some(c) = step.get("return") {
            ActionKind::Return { card: ids_in(hand, c.as_str().unwrap())[0] }
        } else if step.get("timeout").is_some() {
            ActionKind::Timeout
        } else if step.get("surrender").is_some() {
            ActionKind::ProposeSurrender
        } else if let Some(v) = step.get("vote") {
            ActionKind::SurrenderVote { accept: v.as_bool().unwrap() }
        } else if step.get("time_up").is_some() {
            ActionKind::TimeUp
        } else {
            panic!("{name}: step {i}: unknown step {step}");
        };
        let action = Action { seq: m.seq(), seat, kind };
        let before = m.clone();
        match (m.apply(&action), step.get("error").and_then(Value::as_i64)) {
            (Ok(ev), None) => events.extend(ev),
            (Err(e), Some(code)) => {
                assert_eq!(e.code() as i64, code, "{name}: step {i}: {e}");
                assert_eq!(m, before, "{name}: step {i}: a rejected action changed the state");
            }
            (Ok(_), Some(code)) => panic!("{name}: step {i}: expected error {code}, action was accepted"),
            (Err(e), None) => panic!("{name}: step {i}: rejected: {e}"),
        }
    }
    let x = &s["expect"];
    let tags: Vec<String> = events.iter().map(event_tag).collect();
    if let Some(want) = x.get("events").and_then(Value::as_array) {
        for w in want {
            assert!(tags.contains(&w.as_str().unwrap().to_string()), "{name}: missing event {w}; got {tags:?}");
        }
    }
    if let Some(not) = x.get("no_events").and_then(Value::as_array) {
        for w in not {
            assert!(!tags.iter().any(|t| t.starts_with(w.as_str().unwrap())), "{name}: unexpected {w}; got {tags:?}");
        }
    }
    if let Some(p) = x.get("phase") {
        assert_eq!(serde_json::to_value(m.phase()).unwrap(), *p, "{name}: phase");
    }
    if let Some(t) = x.get("turn") {
        assert_eq!(u64::from(u8::from(m.turn())), t.as_u64().unwrap(), "{name}: turn");
    }
    if let Some(l) = x.get("team_levels") {
        assert_eq!(serde_json::to_value(m.team_levels()).unwrap(), *l, "{name}: team levels");
    }
    if let Some(f) = x.get("ace_failures") {
        assert_eq!(serde_json::to_value(m.ace_failures()).unwrap(), *f, "{name}: ace failures");
    }
    if let Some(o) = x.get("last_order") {
        assert_eq!(serde_json::to_value(m.last_order()).unwrap(), *o, "{name}: last order");
    }
    if let Some(l) = x.get("level") {
        assert_eq!(m.level().0 as u64, l.as_u64().unwrap(), "{name}: level played");
    }
    if let Some(d) = x.get("deal_no") {
        assert_eq!(m.deal_no() as u64, d.as_u64().unwrap(), "{name}: deal number");
    }
    if let Some(w) = x.get("winner") {
        let got = m.outcome().map(|o| o.winner().map_or("draw".to_string(), |t| u8::from(t).to_string()));
        assert_eq!(got.as_deref(), w.as_str(), "{name}: winner");
    }
    if let Some(h) = x.get("hands").and_then(Value::as_object) {
        for (seat, cards) in h {
            let seat: usize = seat.parse().unwrap();
            assert_eq!(
                m.hands()[seat].notation(),
                CardSet::parse(cards.as_str().unwrap()).unwrap().notation(),
                "{name}: hand {seat}"
            );
        }
    }
}

#[test]
fn scenario_cases() {
    let all: Value = serde_json::from_str(&data("scenarios.json")).unwrap();
    let list = all.as_array().unwrap();
    for s in list {
        run_scenario(s);
    }
    assert!(list.len() >= 30, "only {} scenarios", list.len());
}
