//! The match log's text (`MatchLog::to_jsonl`, `MatchLog::parse`) on random matches: what it
//! carries besides the actions (thinking times, players) survives and changes no hash.

use guandan_core::game::Match;
use guandan_core::log::{MatchLog, MatchMeta, PlayerMeta};
use guandan_core::rules::RuleConfig;
use guandan_core::sim::random_action;
use rand_chacha::ChaCha8Rng;
use rand_core::SeedableRng;

#[test]
fn thinking_times_and_players_survive_the_text_and_change_no_hash() {
    let (mut m, _) = Match::new(4, RuleConfig::competition()).unwrap();
    let mut log = MatchLog::new(4, RuleConfig::competition());
    let mut plain = log.clone();
    log.header.meta = Some(MatchMeta {
        players: std::array::from_fn(|s| PlayerMeta {
            name: if s == 0 { "You".into() } else { String::new() },
            ai: (s != 0).then(|| "L2".to_string()),
        }),
        mode: "training".into(),
    });
    let mut rng = ChaCha8Rng::seed_from_u64(4);
    for i in 0..200u64 {
        let a = random_action(&m, &mut rng).unwrap();
        let events = m.apply(&a).unwrap();
        let think = (i % 3 != 0).then(|| std::time::Duration::from_millis(i * 7));
        log.record_timed(&a, &events, &m, think);
        plain.record(&a, &events, &m);
    }
    let text = log.to_jsonl();
    assert!(text.contains(r#""ms":7}"#) && text.contains(r#""name":"You""#));
    let back = MatchLog::parse(&text).unwrap();
    assert_eq!(back, log);
    assert_eq!(back.replay().unwrap().state_hash(), plain.replay().unwrap().state_hash());
    // A record without them reads as before.
    assert_eq!(MatchLog::parse(&plain.to_jsonl()).unwrap().think_ms, vec![None; 200]);
}
