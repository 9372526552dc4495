//! Ratings of ranked matches on both databases: the update stored per match (AI seats fixed,
//! never stored), and the public JSON (leaderboard, player profiles). Most matches are rated by
//! calling `ratings::rate_match` as a ranked room's end does; one ranked room plays a whole
//! match on a server started with the hidden `--test-ranked-rooms` (every room it creates is
//! ranked: the quick-match queue, which makes ranked rooms otherwise, has its own tests).

mod common;

use common::{Client, ServerProc, database_url, databases, http};
use guandan_core::rules::RuleConfig;
use guandan_core::seat::Seat;
use guandan_proto::http::{HttpError, Leaderboard, PlayerProfile, leaderboard_path, player_path, read_reply};
use guandan_proto::{ClientMsg, SeatSetting, ServerMsg};
use guandan_server::db::Db;
use guandan_server::db::MatchResult;
use guandan_server::ratings::{Ending, RatedSeat, Verdict, rate_match, shown, verdicts};
use std::collections::HashMap;

fn unique(tag: &str) -> String {
    use std::sync::atomic::{AtomicU64, Ordering};
    static N: AtomicU64 = AtomicU64::new(0);
    let nanos = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).unwrap().as_nanos();
    format!("{tag}{:x}{:x}{}", std::process::id(), nanos % 1_000_000_007, N.fetch_add(1, Ordering::Relaxed))
}

async fn new_players(db: &Db, n: usize, tag: &str) -> Vec<String> {
    let mut ids = Vec::new();
    for i in 0..n {
        let id = unique(tag);
        db.add_player(&id, &format!("{tag} {i}")).await.unwrap();
        ids.push(id);
    }
    ids
}

fn human(id: &str) -> RatedSeat {
    RatedSeat::Human(id.to_string())
}

/// Every human rated by the table's result (team 0 or 1 won, `None`: a draw), nobody left.
fn by_result(seats: &[RatedSeat; 4], winner: Option<u8>) -> [Verdict; 4] {
    let ending = winner.map_or(Ending::Draw, Ending::Won);
    verdicts(ending, std::array::from_fn(|i| matches!(seats[i], RatedSeat::Human(_))), [false; 4])
}

/// A room code no other test (or earlier run on the shared PostgreSQL) uses.
fn room() -> String {
    unique("R")
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn ranked_matches_move_human_ratings_and_never_store_ai_seats() {
    for db_name in databases() {
        let db = Db::connect(&database_url(&db_name)).await.unwrap();
        // A preset of its own: the shared PostgreSQL database holds other tests' ratings.
        let rules = "huaian";
        let before = db.ranked_count(rules, 0).await.unwrap();
        let p = new_players(&db, 2, "rate").await;
        // Two humans (seats 0 and 2) beat the hard AI.
        let seats = [human(&p[0]), RatedSeat::Ai(3), human(&p[1]), RatedSeat::Ai(3)];
        let code = room();
        let rated = rate_match(&db, rules, &code, 0, &seats, by_result(&seats, Some(0))).await.unwrap();
        assert_eq!(rated.iter().map(|r| r.player_id.as_str()).collect::<Vec<_>>(), vec![&p[0], &p[1]], "{db_name}");
        for r in &rated {
            assert!(r.change > 0, "{db_name}: a win raises the shown rating: {r:?}");
            assert_eq!(r.matches, 1);
            let row = db.rating(&r.player_id, rules).await.unwrap().expect("stored");
            assert!(row.mu > 25.0 && row.sigma < 25.0 / 3.0, "{db_name}: {row:?}");
            assert_eq!((row.matches, row.wins, row.draws), (1, 1, 0));
            assert_eq!(shown(row.mu, row.sigma), r.rating);
        }
        // Only the two humans are rated: the AI seats add no rows.
        assert_eq!(db.ranked_count(rules, 0).await.unwrap(), before + 2, "{db_name}");
        // Other presets are untouched.
        assert!(db.rating(&p[0], "competition").await.unwrap().is_none());

        // A loss to the easy AI, then a draw: counted, and the history keeps every step.
        let easy_seats = seats.clone().map(easy);
        let rated = rate_match(&db, rules, &code, 1, &easy_seats, by_result(&easy_seats, Some(1))).await.unwrap();
        assert!(rated.iter().all(|r| r.change < 0 && r.matches == 2), "{db_name}: {rated:?}");
        let drawn = rate_match(&db, rules, &code, 2, &easy_seats, by_result(&easy_seats, None)).await.unwrap();
        let row = db.rating(&p[0], rules).await.unwrap().unwrap();
        assert_eq!((row.matches, row.wins, row.draws), (3, 1, 1), "{db_name}");
        let history = db.rating_history(&p[0], rules, 50).await.unwrap();
        assert_eq!(history.len(), 3);
        assert_eq!(
            history[0].rating - history[0].change,
            1000,
            "{db_name}: the first change is from a new player's 1000"
        );
        for w in history.windows(2) {
            assert_eq!(
                w[1].rating - w[0].rating,
                w[1].change,
                "{db_name}: each change is the step between shown ratings"
            );
        }
        assert_eq!(history[2].rating, drawn[0].rating);
        // Each point names the match it rated (a player back after the room closed finds it).
        let named: Vec<(&str, u32)> = history.iter().map(|h| (h.room.as_str(), h.match_no)).collect();
        assert_eq!(named, vec![(code.as_str(), 0), (code.as_str(), 1), (code.as_str(), 2)], "{db_name}");
        db.close().await;
    }
}

fn easy(s: RatedSeat) -> RatedSeat {
    match s {
        RatedSeat::Ai(_) => RatedSeat::Ai(1),
        h => h,
    }
}

/// Two matches of one player rated at the same moment: both count (the rows are locked in the
/// transaction, no update is lost).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn concurrent_matches_of_one_player_both_count() {
    for db_name in databases() {
        let db = Db::connect(&database_url(&db_name)).await.unwrap();
        let p = new_players(&db, 7, "conc").await;
        let rules = "house";
        let mut tasks = Vec::new();
        for k in 0..3 {
            let db = db.clone();
            let seats = [human(&p[0]), human(&p[1 + 2 * k]), RatedSeat::Ai(2), human(&p[2 + 2 * k])];
            let v = by_result(&seats, Some(0));
            tasks.push(tokio::spawn(async move { rate_match(&db, rules, &room(), 0, &seats, v).await }));
        }
        for t in tasks {
            t.await.unwrap().unwrap_or_else(|e| panic!("{db_name}: {e}"));
        }
        let row = db.rating(&p[0], rules).await.unwrap().unwrap();
        assert_eq!((row.matches, row.wins), (3, 3), "{db_name}");
        assert_eq!(db.rating_history(&p[0], rules, 50).await.unwrap().len(), 3);
        db.close().await;
    }
}

fn get<T: serde::de::DeserializeOwned>(addr: std::net::SocketAddr, path: &str) -> T {
    let (status, text) = http(addr, "GET", path, "");
    read_reply(status, text.as_bytes()).unwrap_or_else(|e| panic!("GET {path}: {e:?}"))
}

fn refused(addr: std::net::SocketAddr, path: &str) -> (u16, HttpError) {
    let (status, text) = http(addr, "GET", path, "");
    let e: HttpError = serde_json::from_str(&text).unwrap_or_else(|e| panic!("GET {path}: {e}: {text}"));
    (status, e)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn leaderboard_and_profiles_are_public_json() {
    for db_name in databases() {
        let url = database_url(&db_name);
        let db = Db::connect(&url).await.unwrap();
        let rules = "no_shuffle";
        // 60 players in 15 matches of four (more than a page), then one player rated 55 times.
        let p = new_players(&db, 60, "board").await;
        let mut expected: HashMap<String, (i64, i64, i64)> = HashMap::new();
        for (k, four) in p.chunks(4).enumerate() {
            let seats: [RatedSeat; 4] = std::array::from_fn(|i| human(&four[i]));
            let winner = [Some(0), Some(1), None][k % 3];
            for r in rate_match(&db, rules, &room(), 0, &seats, by_result(&seats, winner)).await.unwrap() {
                let won =
                    winner.is_some_and(|w| four.iter().position(|x| *x == r.player_id).unwrap() % 2 == w as usize);
                expected.insert(r.player_id, (r.rating, r.matches, i64::from(won)));
            }
        }
        let veteran = new_players(&db, 1, "veteran").await.remove(0);
        let code = room();
        let mut last = None;
        for n in 0..55 {
            let seats = [human(&veteran), RatedSeat::Ai(1), RatedSeat::Ai(2), RatedSeat::Ai(1)];
            let winner = if n % 3 == 0 { Some(0) } else { Some(1) };
            last = rate_match(&db, rules, &code, n, &seats, by_result(&seats, winner)).await.unwrap().pop();
        }
        let last = last.unwrap();
        // A real stored match of the veteran (seat 2): the profile's figures come from it.
        let (end, log) = guandan_core::sim::random_match(77, RuleConfig::preset(rules).unwrap(), 200_000).unwrap();
        let won = end.outcome().and_then(|o| o.winner()).map(|t| t.index()) == Some(0);
        let want = guandan_core::stats::seat_stats(&log).unwrap()[2].clone();
        let results =
            [MatchResult { player: veteran.clone(), seat: Seat::TWO, won, draw: false, figures: want.clone() }];
        assert!(db.finish_match(&code, 99, "{}", &log.to_jsonl(), &results).await.unwrap());
        db.close().await;

        // Everyone rated once is listed; this test reads many pages from one address.
        let flags = ["--leaderboard-min-matches", "1", "--public-rate", "1000", "--public-burst", "1000"];
        let server = ServerProc::start(&url, &unique("ratings"), "127.0.0.1:0", &flags);
        let addr = server.addr;

        // Every page, in order: ranks run on, each page sorted, every one of ours as rated.
        let mut seen: HashMap<String, (i64, i64, i64)> = HashMap::new();
        let mut prev: Option<(i64, u32, String)> = None;
        let mut page = 0;
        let total = loop {
            let board: Leaderboard = get(addr, &leaderboard_path(rules, page));
            assert_eq!((board.rules.as_str(), board.page, board.per_page), (rules, page, 50), "{db_name}");
            assert_eq!(board.min_matches, 1, "the board says how many matches list a player (issue 52)");
            let left = board.total.saturating_sub(u64::from(page) * 50);
            assert_eq!(board.entries.len() as u64, left.min(50), "{db_name}: page {page}");
            for (i, e) in board.entries.iter().enumerate() {
                assert_eq!(e.rank, u64::from(page) * 50 + i as u64 + 1);
                let key = (e.rating, e.matches, e.player_id.clone());
                if let Some((r, m, id)) = &prev {
                    let ordered = *r > key.0 || (*r == key.0 && (*m > key.1 || (*m == key.1 && *id < key.2)));
                    assert!(ordered, "{db_name}: {prev:?} before {key:?}");
                }
                prev = Some(key);
                seen.insert(e.player_id.clone(), (e.rating, i64::from(e.matches), i64::from(e.wins)));
            }
            if board.entries.len() < 50 {
                break board.total;
            }
            page += 1;
            assert!(page < 1000, "{db_name}: the board never ends");
        };
        assert!(total >= 61, "{db_name}: {total}");
        for (id, want) in &expected {
            assert_eq!(seen.get(id), Some(want), "{db_name}: {id}");
        }
        assert_eq!(seen.get(&veteran).map(|s| (s.0, s.1)), Some((last.rating, 55)));
        // The default page is 0; past the end, an empty page.
        let first: Leaderboard = get(addr, &format!("/v1/leaderboard?rules={rules}"));
        assert_eq!(first.page, 0);
        let beyond: Leaderboard = get(addr, &leaderboard_path(rules, page + 1));
        assert!(beyond.entries.is_empty() && beyond.total == total);

        // Bad input: a code and a message, never a page.
        for path in [
            "/v1/leaderboard?rules=chess&page=0".to_string(),
            format!("/v1/leaderboard?rules={rules}&page=-1"),
            format!("/v1/leaderboard?rules={rules}&page=x"),
            format!("/v1/leaderboard?rules={rules}&page=99999999999"),
        ] {
            let (status, e) = refused(addr, &path);
            assert_eq!((status, e.name.as_str()), (400, "malformed_message"), "{db_name}: {path}");
            assert!(!e.message.is_empty());
        }

        // The veteran's profile: the rating with its latest 50 steps, the stored match's figures.
        let profile: PlayerProfile = get(addr, &player_path(&veteran));
        assert_eq!((profile.player_id.as_str(), profile.nickname.as_str()), (veteran.as_str(), "veteran 0"));
        assert_eq!(profile.ratings.len(), 1, "{db_name}");
        let r = &profile.ratings[0];
        assert_eq!((r.rules.as_str(), r.rating, r.matches), (rules, last.rating, 55));
        assert_eq!(r.wins + r.draws, 19, "{db_name}: won every third match, none drawn");
        assert_eq!(r.history.len(), 50, "{db_name}: the history is capped");
        assert_eq!(r.history.last().map(|h| (h.rating, h.change)), Some((last.rating, last.change)));
        for w in r.history.windows(2) {
            assert_eq!(w[1].rating - w[0].rating, w[1].change, "{db_name}: oldest first");
            assert!(w[0].at <= w[1].at);
        }
        let s = &profile.stats;
        assert_eq!((s.matches, s.wins), (1, u32::from(won)), "{db_name}");
        assert_eq!(s.win_rate, f64::from(u32::from(won)));
        assert_eq!(s.double_down_rate, want.double_down_rate());
        assert_eq!(s.bombs_per_deal, want.bombs_per_deal());
        assert!(s.bombs_per_deal > 0.0, "a random match has bombs");
        // Public: no token in sight.
        let (_, raw) = http(addr, "GET", &player_path(&veteran), "");
        assert!(!raw.contains("token"), "{raw}");

        // A player without ranked or stored matches; an unknown id.
        let fresh: PlayerProfile = get(addr, &player_path(&p[0]));
        assert_eq!(fresh.ratings.len(), 1);
        assert_eq!(fresh.stats.matches, 0);
        assert_eq!(fresh.stats.win_rate, 0.0);
        let (status, e) = refused(addr, &player_path("nobody-here"));
        assert_eq!((status, e.name.as_str()), (404, "not_found"), "{db_name}");
        drop(server);
    }
}

/// A ranked room's whole match (one human, its seat played by the server's AI, three L1 seats):
/// the human is told the new rating, which the profile shows, and again on coming back before the
/// room closes; an unranked room rates nobody.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_ranked_room_rates_its_humans_when_the_match_is_stored() {
    for db_name in databases() {
        let url = database_url(&db_name);
        for ranked in [true, false] {
            let flags: &[&str] = if ranked { &["--test-ranked-rooms"] } else { &[] };
            let server = ServerProc::start(&url, &unique("ranked"), "127.0.0.1:0", flags);
            let mut host = Client::new(server.addr, "ranked host").await;
            let code = common::create_dealt_room(&mut host, "competition").await;
            for seat in [Seat::ONE, Seat::TWO, Seat::THREE] {
                host.send(&ClientMsg::SetSeat { seat, setting: SeatSetting::Ai { level: 1 } }).await;
            }
            host.until(
                "three AI seats",
                |m| matches!(m, ServerMsg::Room { room } if room.seats.iter().filter(|s| s.ai.is_some()).count() == 3),
            )
            .await;
            host.send(&ClientMsg::Ready { ready: true }).await;
            host.until("ready", |m| matches!(m, ServerMsg::Room { room } if room.seats[0].ready)).await;
            host.send(&ClientMsg::Start).await;
            host.until("state", |m| matches!(m, ServerMsg::State { .. })).await;
            host.send(&ClientMsg::AutoPlay { on: true }).await;
            host.until("match stored", |m| matches!(m, ServerMsg::MatchStored { .. })).await;
            let rating = host.log.iter().find_map(|m| match m {
                ServerMsg::Rating { rules, rating, change, matches } => {
                    Some((rules.clone(), *rating, *change, *matches))
                }
                _ => None,
            });
            let profile: PlayerProfile = get(server.addr, &player_path(&host.player_id));
            assert_eq!(profile.stats.matches, 1, "{db_name}: the stored match counts either way");
            if !ranked {
                assert_eq!(rating, None, "{db_name}");
                assert!(profile.ratings.is_empty(), "{db_name}: {profile:?}");
                continue;
            }
            let (rules, shown_now, change, matches) = rating.unwrap_or_else(|| panic!("{db_name}: no rating message"));
            assert_eq!((rules.as_str(), matches), ("competition", 1), "{db_name}");
            assert_eq!(shown_now - change, 1000, "{db_name}: from a new player's rating");
            let r = &profile.ratings[0];
            assert_eq!((r.rules.as_str(), r.rating, r.matches), ("competition", shown_now, 1), "{db_name}");
            assert_eq!(r.history.iter().map(|h| h.change).collect::<Vec<_>>(), vec![change]);
            assert_eq!(r.wins == 1, change > 0, "{db_name}: a win raises it, a loss lowers it");
            // Back during the rematch vote on a new connection (the old one may have been cut
            // as the rating went out: issue 52's ranked match that ended without its result):
            // the rating is sent again with the stored match.
            host.reconnect(server.addr).await;
            host.send(&ClientMsg::JoinRoom { code: code.clone(), last_action_seq: None }).await;
            let again = host.until("the rating again", |m| matches!(m, ServerMsg::Rating { .. })).await;
            assert!(
                matches!(again, ServerMsg::Rating { rating, change: c, .. } if rating == shown_now && c == change),
                "{db_name}: {again:?}"
            );
        }
    }
}
