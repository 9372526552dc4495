//! Unit tests of the bot: wire parsing, memory, decision mapping.

use super::choice::*;
use super::memory::*;
use super::wire::*;
use guandan_ai::{AiLevel, AiProfile};
use guandan_core::card::{Card, CardSet, Rank};
use guandan_core::combo::{PlayKind, classify};
use guandan_core::game::{ActionKind, Match, Phase, Seat};
use guandan_core::rules::RuleConfig;
use guandan_core::view::PlayerView;
use serde_json::Value;

use serde_json::json;

fn act(v: Value) -> Act {
    Act::from_value(&v)
}

fn cards(text: &str) -> Vec<Card> {
    text.split_whitespace().map(|c| parse_card(c).unwrap()).collect()
}

fn bot() -> Bot {
    Bot::new(AiProfile::level(AiLevel::L2), RuleConfig::huaian(), 1).unwrap()
}

#[test]
fn ranks_as_characters_or_integers() {
    let r = |v: Value| serde_json::from_value::<WireRank>(v).unwrap().value();
    assert_eq!(r(json!("T")), Some(10));
    assert_eq!(r(json!("10")), Some(10));
    assert_eq!(r(json!("a")), Some(14));
    assert_eq!(r(json!(14)), Some(14));
    assert_eq!(r(json!(1)), Some(14));
    assert_eq!(r(json!(2)), Some(2));
    assert_eq!(r(json!("B")), Some(15));
    assert_eq!(r(json!(16)), Some(16));
    assert_eq!(r(json!("JOKER")), Some(0));
    assert_eq!(r(json!(17)), None);
    assert_eq!(r(json!("X")), None);
    assert_eq!(serde_json::from_value::<WireRank>(json!(15)).unwrap().level(), None);
}

#[test]
fn actions_normalize_across_platform_spellings() {
    let kings = Act::Play { kind: PlayKind::FourKings, rank: Some(0), cards: Some(cards("SB SB HR HR")) };
    assert_eq!(act(json!(["Bomb", "JOKER", ["SB", "SB", "HR", "HR"]])), kings);
    assert_eq!(act(json!(["FourKings", "JOKER", ["SB", "SB", "HR", "HR"]])), kings);
    assert_eq!(act(json!(["Bomb", 0, ["SB", "SB", "HR", "HR"]])), kings);
    let low = |rank: Value| act(json!(["Straight", rank, ["SA", "S2", "H3", "S4", "S5"]]));
    assert!(matches!(low(json!("A")), Act::Play { rank: Some(1), .. }));
    assert!(matches!(low(json!(14)), Act::Play { rank: Some(1), .. }));
    assert!(matches!(low(json!(1)), Act::Play { rank: Some(1), .. }));
    assert!(matches!(
        act(json!(["Straight", "T", ["ST", "SJ", "HQ", "SK", "SA"]])),
        Act::Play { kind: PlayKind::Straight, rank: Some(10), .. }
    ));
    assert!(matches!(act(json!(["Single", "A", ["SA"]])), Act::Play { rank: Some(14), .. }));
    assert_eq!(act(json!(["PASS", "PASS", "PASS"])), Act::Pass);
    assert_eq!(act(json!(["PASS", "PASS", []])), Act::Pass);
    assert_eq!(act(json!(["tribute", "tribute", ["S3"]])), Act::Tribute(Some(cards("S3"))));
    assert_eq!(act(json!(["back", "back", ["C10"]])), Act::Back(Some(cards("CT"))));
    assert!(matches!(
        act(json!({"type": "Pair", "rank": "5", "actions": ["S5", "D5"]})),
        Act::Play { kind: PlayKind::Pair, rank: Some(5), .. }
    ));
    assert_eq!(act(json!(["Teleport", "5", ["S5"]])), Act::Unknown);
    assert_eq!(act(json!(42)), Act::Unknown);
    assert!(matches!(act(json!(["Single", "5", ["XX"]])), Act::Play { cards: None, .. }));
}

#[test]
fn cards_parse_leniently() {
    assert_eq!(parse_card("s10"), parse_card("ST"));
    assert_eq!(parse_card("C10").map(|c| c.notation()), Some("CT".into()));
    assert_eq!(parse_card("sb"), Some(Card::SMALL_JOKER));
    assert_eq!(parse_card("HR"), Some(Card::BIG_JOKER));
    assert_eq!(parse_card("Z9"), None);
    assert_eq!(parse_card("S"), None);
}

fn view_with(hand: &str, level: u8) -> PlayerView {
    let mut v = bot().template.clone();
    v.hand = CardSet::parse(hand).unwrap();
    v.level = Rank(level);
    v
}

fn play(hand: CardSet, text: &str, level: u8) -> ActionKind {
    let ids = ids_for(&cards(text), CardSet::FULL.minus(hand));
    let p = classify(ids, Rank(level), &RuleConfig::huaian())[0];
    Match::play_kind(&p)
}

#[test]
fn a_play_maps_to_the_listed_entry_with_the_same_cards() {
    let v = view_with("S5 D5 C5 H2 S9", 2);
    let list: Vec<Act> = [
        json!(["PASS", "PASS", "PASS"]),
        json!(["Pair", "5", ["S5", "H2"]]),
        json!(["Pair", "5", ["S5", "D5"]]),
        json!(["Pair", "9", ["S9", "H2"]]),
    ]
    .into_iter()
    .map(act)
    .collect();
    assert_eq!(map_decision(&play(v.hand, "D5 S5", 2), &list, &v), 2);
    assert_eq!(map_decision(&play(v.hand, "S5 H2", 2), &list, &v), 1);
    // A copy choice the platform did not list: same type, rank and size.
    assert_eq!(map_decision(&play(v.hand, "C5 D5", 2), &list, &v), 2);
    assert_eq!(map_decision(&ActionKind::Pass, &list, &v), 0);
    // Not listed at all: PASS when following.
    assert_eq!(map_decision(&play(v.hand, "S9", 2), &list, &v), 0);
    // A rank written another way (highest card of a straight) still matches by its cards.
    let v = view_with("S3 D4 C5 S6 H7 S9", 2);
    let list: Vec<Act> = [json!(["Straight", "7", ["S3", "D4", "C5", "S6", "H7"]]), json!(["Single", "9", ["S9"]])]
        .into_iter()
        .map(act)
        .collect();
    assert_eq!(map_decision(&play(v.hand, "S3 D4 C5 S6 H7", 2), &list, &v), 0);
}

#[test]
fn bombs_of_one_rank_map_by_size_and_a_lead_falls_back_to_the_smallest() {
    let v = view_with("S7 H7 C7 D7 D7 S3", 2);
    let list: Vec<Act> = [
        json!(["Bomb", "7", ["S7", "H7", "C7", "D7"]]),
        json!(["Bomb", "7", ["S7", "H7", "C7", "D7", "D7"]]),
        json!(["Single", "3", ["S3"]]),
        json!(["Single", "7", ["S7"]]),
    ]
    .into_iter()
    .map(act)
    .collect();
    assert_eq!(map_decision(&play(v.hand, "S7 H7 C7 D7 D7", 2), &list, &v), 1);
    assert_eq!(map_decision(&play(v.hand, "S7 H7 C7 D7", 2), &list, &v), 0);
    // A pass on a lead is impossible: the smallest non-bomb instead.
    assert_eq!(map_decision(&ActionKind::Pass, &list, &v), 2);
}

#[test]
fn answers_stay_inside_the_list_and_index_range() {
    let mut b = bot();
    let answer = |b: &mut Bot, v: Value| -> usize {
        let text = b.handle_text(&v.to_string()).expect("an act is answered");
        serde_json::from_str::<Value>(&text).unwrap()["actIndex"].as_u64().unwrap() as usize
    };
    let list = json!([["Single", "4", ["S4"]], ["Single", "7", ["D7"]], ["Single", "9", ["S9"]]]);
    let msg = json!({"type": "act", "stage": "play", "handCards": ["S4", "D7", "S9"], "curRank": "2",
        "actionList": list, "indexRange": 0});
    assert_eq!(answer(&mut b, msg), 0);
    let msg = json!({"type": "act", "stage": "play", "handCards": ["S4", "D7", "S9"], "curRank": "2",
        "actionList": list, "indexRange": "2"});
    assert!(answer(&mut b, msg) <= 2);
    let msg = json!({"type": "act", "stage": "play", "actionList": list, "indexRange": 99});
    assert!(answer(&mut b, msg) < 3);
    let msg = json!({"type": "act", "stage": "back", "handCards": ["S4", "D7", "S9"], "curRank": "2",
        "actionList": [["back", "back", ["S4"]], ["back", "back", ["D7"]]], "indexRange": 1});
    assert!(answer(&mut b, msg) < 2);
    // Notifications and junk get no answer.
    assert_eq!(b.handle_text(r#"{"type":"notify","stage":"play","curPos":1}"#), None);
    assert_eq!(b.handle_text("not json"), None);
    assert_eq!(b.handle_text("[1,2]"), None);
    assert_eq!(b.handle_text(""), None);
}

#[test]
fn notifications_build_the_history_and_the_table() {
    let mut b = bot();
    b.handle_text(r#"{"type":"notify","stage":"beginning","handCards":["S4","D7","S9"],"myPos":2}"#);
    b.handle_text(r#"{"type":"notify","stage":"play","curPos":0,"curAction":["Pair","8",["S8","H8"]],"greaterPos":0}"#);
    b.handle_text(r#"{"type":"notify","stage":"play","curPos":1,"curAction":["PASS","PASS","PASS"]}"#);
    // A follow with no greaterAction: the table comes from the notifications.
    let msg: Message = serde_json::from_value(json!({"type": "act", "stage": "play",
        "handCards": ["S4", "D7", "S9", "S9"], "curRank": "2",
        "actionList": [["PASS", "PASS", "PASS"], ["Pair", "9", ["S9", "S9"]]]}))
    .unwrap();
    let list: Vec<Act> = msg.action_list.0.iter().flatten().map(Act::from_value).collect();
    let v = b.view(&msg, &list, Phase::Play).unwrap();
    assert_eq!(v.seat, Some(Seat::TWO));
    let (owner, table) = v.table.unwrap();
    assert_eq!((owner, table.pattern.kind, table.pattern.rank), (Seat::ZERO, PlayKind::Pair, 8));
    assert_eq!(v.passes, 1);
    assert_eq!(v.history.len(), 2);
    assert_eq!(v.played.len(), 2);
    assert!(v.played.intersect(v.hand).is_empty());
    assert_eq!(v.card_counts, [25, 27, 4, 27]);
    b.handle_text(r#"{"type":"notify","stage":"episodeOver","order":[0,2,1,3]}"#);
    assert_eq!(b.last_order, Some([Seat::ZERO, Seat::TWO, Seat::ONE, Seat::THREE]));
    assert!(b.turns.is_empty());
}
