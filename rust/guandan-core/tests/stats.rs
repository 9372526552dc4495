//! Statistics from recorded matches, checked against figures worked out by hand.

use guandan_core::game::Seat;
use guandan_core::log::{MatchLog, MatchMeta, PlayerMeta};
use guandan_core::stats::{Stats, seat_stats};

fn corpus(name: &str) -> MatchLog {
    let path = format!("{}/../../tests/replay-corpus/{name}", env!("CARGO_MANIFEST_DIR"));
    MatchLog::parse(&std::fs::read_to_string(path).unwrap()).unwrap()
}

/// `good_house_match.jsonl`, deal by deal (finishing order; team 0 = seats 0 and 2):
/// 1 [2,1,3,0] team 0 +1 · 2 [0,3,1,2] team 0 +1, after a tribute 0→2 · 3 [3,1,0,2] team 1
/// double-down +3, tribute resisted · 4 [2,0,3,1] team 0 double-down +3, resisted · 5 [0,2,3,1]
/// team 0 double-down +3, tributes 3→0 and 1→2 · 6 [0,3,2,1] team 0 +2, tributes · 7 [0,3,2,1]
/// team 0 +2, tribute · 8 [0,2,3,1] team 0 double-down at A: match won, tribute.
/// Wilds standing for other cards: seat 0 H2 H2 in a 3–7 heart straight flush (level 2), H4 as
/// a 9 (level 4), HT as D7 (level 10), HQ as D8 (level Q) = 5; seat 1 H3 in a K bomb, H5 H5 in an
/// 8 bomb, H7 as D9, HT as a 9 = 5. Bombs played: seat 0 11, seat 1 14, seat 2 13, seat 3 10.
#[test]
fn a_recorded_match_gives_the_hand_checked_figures() {
    let mut stats = Stats::default();
    stats.add(&corpus("good_house_match.jsonl")).unwrap();
    let seat0 = &stats.players["Seat 0"];
    assert_eq!((seat0.record.matches, seat0.record.matches_won), (1, 1));
    assert_eq!((seat0.record.deals, seat0.record.deals_won), (8, 7));
    assert_eq!((seat0.double_downs, seat0.double_downed), (3, 1));
    assert_eq!(seat0.levels_climbed, 12);
    assert_eq!((seat0.tribute_deals, seat0.tribute_deals_won), (5, 5));
    assert_eq!((seat0.bomb_plays, seat0.wilds_used), (11, 5));
    let seat1 = &stats.players["Seat 1"];
    assert_eq!((seat1.record.matches, seat1.record.matches_won), (1, 0));
    assert_eq!((seat1.record.deals, seat1.record.deals_won), (8, 1));
    assert_eq!((seat1.double_downs, seat1.double_downed), (1, 3));
    assert_eq!(seat1.levels_climbed, 3);
    assert_eq!((seat1.tribute_deals, seat1.tribute_deals_won), (5, 0));
    assert_eq!((seat1.bomb_plays, seat1.wilds_used), (14, 5));
    assert_eq!(stats.players["Seat 2"].bomb_plays, 13);
    assert_eq!(stats.players["Seat 3"].bomb_plays, 10);
    assert_eq!(stats.matches.len(), 1);
    assert_eq!(stats.matches[0].deals, 8);
    assert_eq!(stats.matches[0].team_levels, [14, 5]);
}

/// Per seat, whatever the seats are named (a server knows its players by id, not by name): the
/// same hand-checked figures, with the rates a profile shows.
#[test]
fn seat_figures_of_one_record() {
    let mut log = corpus("good_house_match.jsonl");
    log.header.meta = Some(MatchMeta {
        players: std::array::from_fn(|_| PlayerMeta { name: "same name".into(), ai: None }),
        mode: String::new(),
    });
    let seats = seat_stats(&log).unwrap();
    assert_eq!(seats.clone().map(|s| s.bomb_plays), [11, 14, 13, 10]);
    assert_eq!(seats.clone().map(|s| (s.record.matches, s.record.matches_won)), [(1, 1), (1, 0), (1, 1), (1, 0)]);
    assert_eq!(seats[0].double_down_rate(), 3.0 / 8.0);
    assert_eq!(seats[1].bombs_per_deal(), 14.0 / 8.0);
}

#[test]
fn players_are_named_from_the_record_and_split_by_opposition() {
    let mut log = corpus("good_house_match.jsonl");
    log.header.meta = Some(MatchMeta {
        players: std::array::from_fn(|s| PlayerMeta {
            name: if s == 0 { "You".into() } else { String::new() },
            ai: (s != 0).then(|| if s == 2 { "L1".to_string() } else { "L3".to_string() }),
        }),
        mode: "match".into(),
    });
    // A record's thinking times are the player's decision times.
    log.think_ms = log.actions.iter().map(|a| (a.seat == Seat::ZERO).then_some(500)).collect();
    let mut stats = Stats::default();
    stats.add(&log).unwrap();
    stats.add(&log).unwrap();
    let you = &stats.players["You"];
    assert_eq!((you.record.matches, you.record.matches_won), (2, 2));
    assert_eq!(you.by_opponents["vs L3"].matches, 2);
    assert_eq!(you.mean_think_ms(), 500.0);
    assert_eq!(stats.players["AI L1 (seat 2)"].by_opponents["vs L3"].deals, 16);
    assert_eq!(stats.players["AI L3 (seat 1)"].by_opponents["vs mixed"].matches_won, 0);
    assert_eq!(stats.matches[1].mode, "match");
}

/// An unfinished match (left midway) is neither won nor lost: no match figure counts it, its
/// finished deals count as deals.
#[test]
fn an_unfinished_match_is_not_a_lost_match() {
    let mut stats = Stats::default();
    stats.add(&corpus("good_unfinished_match.jsonl")).unwrap();
    assert!(stats.matches[0].outcome.is_none(), "the corpus record is unfinished");
    for seat in 0..4 {
        let st = &stats.players[&format!("Seat {seat}")];
        assert_eq!((st.record.matches, st.record.matches_won, st.record.unfinished), (0, 0, 1), "seat {seat}");
        assert_eq!(st.match_win_rate(), 0.0);
        assert_eq!(st.by_opponents.values().map(|r| r.matches).sum::<u32>(), 0);
    }
    // One finished match won beside it: a win rate of 100 %, not 50 %.
    stats.add(&corpus("good_house_match.jsonl")).unwrap();
    let seat0 = &stats.players["Seat 0"];
    assert_eq!((seat0.record.matches, seat0.record.matches_won, seat0.record.unfinished), (1, 1, 1));
    assert_eq!(seat0.match_win_rate(), 1.0);
}

#[test]
fn a_damaged_record_adds_nothing() {
    let mut stats = Stats::default();
    let mut log = corpus("good_unfinished_match.jsonl");
    log.actions.swap(10, 11);
    assert!(stats.add(&log).is_err());
    assert_eq!(stats, Stats::default());
}
