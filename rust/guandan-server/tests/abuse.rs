//! The rating abuser and the public-endpoint flooder (docs/server.md, threat model), on both
//! databases where storage is involved:
//! - four accounts of one address are never seated at one ranked table;
//! - an arranged surrender lifts nobody's rating (the team that gave up loses, the other gains
//!   nothing), and a player who left takes the loss;
//! - new accounts stay off the leaderboard until they have played `--leaderboard-min-matches`;
//! - public reads are limited per address (429), and a profile never replays stored logs on a
//!   request (the figures are kept when a match is stored).

mod common;

use common::{Client, ServerProc, database_url, databases, http_from, register, ws_from};
use guandan_core::game::ActionKind;
use guandan_core::seat::Seat;
use guandan_proto::http::{Leaderboard, PlayerProfile, leaderboard_path, player_path};
use guandan_proto::{ClientMsg, ServerMsg, WireOut};
use guandan_server::db::{Db, MatchResult};
use guandan_server::ratings::{Ending, RatedSeat, rate_match, verdicts};
use std::net::SocketAddr;

fn unique(tag: &str) -> String {
    use std::sync::atomic::{AtomicU64, Ordering};
    static N: AtomicU64 = AtomicU64::new(0);
    let nanos = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).unwrap().as_nanos();
    format!("{tag}{:x}{:x}{}", std::process::id(), nanos % 1_000_000_007, N.fetch_add(1, Ordering::Relaxed))
}

/// A client whose WebSocket comes from loopback address `source` (another "machine").
async fn client_from(source: [u8; 4], addr: SocketAddr, name: &str) -> Client {
    let (id, token) = register(addr, name);
    let ws = ws_from(source, addr).await.expect("ws from a loopback address");
    Client::over(ws, name, id, token).await
}

/// Waits for the table the queue seats `c` at; returns (room code, humans at it).
async fn seated(c: &mut Client) -> (String, usize) {
    let code = match c.until("seated", |m| matches!(m, ServerMsg::Joined { .. })).await {
        ServerMsg::Joined { code, .. } => code,
        _ => unreachable!(),
    };
    let room = c.until("the table", |m| matches!(m, ServerMsg::Room { room } if room.code == code)).await;
    let ServerMsg::Room { room } = room else { unreachable!() };
    (code, room.seats.iter().filter(|s| s.player.is_some()).count())
}

/// Four accounts from one address queue together: each gets a table of its own (AI in the other
/// seats); four from four addresses share one. Before, the four of one address sat together and
/// could trade rating between them.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn accounts_of_one_address_never_share_a_ranked_table() {
    let pool = unique("farm");
    let server = ServerProc::start(
        &database_url("sqlite"),
        &pool,
        "127.0.0.1:0",
        &["--queue-pool", &pool, "--queue-ai-fill-ms", "1500"],
    );
    let addr = server.addr;
    for (sources, together) in
        [([[127, 0, 0, 7]; 4], false), ([[127, 0, 0, 11], [127, 0, 0, 12], [127, 0, 0, 13], [127, 0, 0, 14]], true)]
    {
        let mut clients = Vec::new();
        for (k, source) in sources.iter().enumerate() {
            let mut c = client_from(*source, addr, &format!("farm{k}")).await;
            c.send(&ClientMsg::QueueJoin { rules: Some("competition".into()) }).await;
            clients.push(c);
        }
        let mut tables = Vec::new();
        for c in clients.iter_mut() {
            tables.push(seated(c).await);
        }
        let mut codes: Vec<&String> = tables.iter().map(|t| &t.0).collect();
        codes.sort();
        codes.dedup();
        if together {
            assert_eq!(codes.len(), 1, "four addresses make one table: {tables:?}");
            assert!(tables.iter().all(|t| t.1 == 4), "{tables:?}");
        } else {
            assert_eq!(codes.len(), 4, "one address, four tables: {tables:?}");
            assert!(tables.iter().all(|t| t.1 == 1), "each alone with the AI: {tables:?}");
        }
    }
}

/// Four humans at a ranked table (the hidden `--test-ranked-rooms` makes every room ranked),
/// match started; seats 0–3 in order.
async fn ranked_table(addr: SocketAddr, tag: &str) -> Vec<Client> {
    let mut host = Client::new(addr, &format!("{tag} north")).await;
    let code = common::create_dealt_room(&mut host, "competition").await;
    let mut clients = vec![host];
    for name in ["east", "south", "west"] {
        let mut c = Client::new(addr, &format!("{tag} {name}")).await;
        c.send(&ClientMsg::JoinRoom { code: code.clone(), last_action_seq: None }).await;
        c.until("joined", |m| matches!(m, ServerMsg::Joined { .. })).await;
        clients.push(c);
    }
    common::start_when_ready(&mut clients).await;
    for (i, c) in clients.iter().enumerate() {
        assert_eq!(c.seat, Seat::from_index(i), "{}", c.name);
    }
    clients
}

/// Seat `proposer` proposes to give the match up, its partner agrees, `opponent` accepts: the
/// match ends by surrender and is stored (`present`: the seats still connected see it stored).
async fn arranged_surrender(c: &mut [Client], proposer: usize, opponent: usize, present: &[usize]) {
    let partner = (proposer + 2) % 4;
    let proposed = WireOut::SurrenderProposed { seat: Seat::ALL[proposer] };
    let mut seq = None;
    for _ in 0..10 {
        let at = c[proposer].last_seq;
        c[proposer].intent(at, ActionKind::ProposeSurrender).await;
        let m = c[proposer]
            .until("the proposal or a refusal", |m| {
                matches!(m, ServerMsg::Error { .. })
                    || matches!(m, ServerMsg::Applied { events, .. } if events.contains(&proposed))
            })
            .await;
        if matches!(m, ServerMsg::Applied { .. }) {
            seq = Some(c[proposer].last_seq);
            break;
        }
    }
    let seq = seq.expect("the proposal was never taken");
    for voter in [partner, opponent] {
        c[voter].sync_to(seq).await;
        let at = c[voter].last_seq;
        c[voter].intent(at, ActionKind::SurrenderVote { accept: true }).await;
        c[voter].until("the vote", |m| matches!(m, ServerMsg::Applied { action_seq, .. } if *action_seq > at)).await;
    }
    for &i in present {
        c[i].until("match stored", |m| matches!(m, ServerMsg::MatchStored { .. })).await;
    }
}

fn told_rating(c: &Client) -> Option<i64> {
    c.log.iter().find_map(|m| match m {
        ServerMsg::Rating { change, .. } => Some(*change),
        _ => None,
    })
}

/// The farming cycle of the attack (the team not being boosted gives up, its partner agrees, an
/// opponent accepts: a "win" in seconds) lifts nobody; the team that gave up takes a loss. And a
/// player who leaves a ranked match takes the loss even when its team wins.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_arranged_surrender_lifts_no_one_and_a_leaver_takes_the_loss() {
    for db_name in databases() {
        let url = database_url(&db_name);
        let server = ServerProc::start(&url, &unique("farm"), "127.0.0.1:0", &["--test-ranked-rooms"]);
        let db = Db::connect(&url).await.unwrap();

        // Seats 1 and 3 give up at once; seat 0 accepts.
        let mut c = ranked_table(server.addr, "boost").await;
        arranged_surrender(&mut c, 1, 0, &[0, 1, 2, 3]).await;
        for i in [0, 2] {
            assert_eq!(told_rating(&c[i]), None, "{db_name}: seat {i} accepted a surrender: no rating");
            assert!(db.rating(&c[i].player_id, "competition").await.unwrap().is_none(), "{db_name}: seat {i}");
        }
        for i in [1, 3] {
            let change = told_rating(&c[i]).unwrap_or_else(|| panic!("{db_name}: seat {i} was not rated"));
            assert!(change < 0, "{db_name}: seat {i} gave up and lost {change}");
            let row = db.rating(&c[i].player_id, "competition").await.unwrap().unwrap();
            assert_eq!((row.matches, row.wins), (1, 0), "{db_name}");
        }

        // Seat 2 leaves; then seats 1 and 3 give up and seat 0 accepts: seat 2's team wins, but
        // seat 2 left and takes the loss; seat 0 gains nothing (a surrender), seats 1 and 3 lose.
        let mut c = ranked_table(server.addr, "leave").await;
        c[2].send(&ClientMsg::Leave).await;
        c[0].until("seat 2 gone", |m| matches!(m, ServerMsg::Room { room } if !room.seats[2].connected)).await;
        arranged_surrender(&mut c, 1, 0, &[0, 1, 3]).await;
        let row = db.rating(&c[2].player_id, "competition").await.unwrap().expect("the leaver is rated");
        assert_eq!((row.matches, row.wins), (1, 0), "{db_name}: the leaver lost although its team won");
        assert!(row.mu < 25.0, "{db_name}: {row:?}");
        assert!(db.rating(&c[0].player_id, "competition").await.unwrap().is_none(), "{db_name}: won by surrender");
        for p in [&c[1], &c[3]] {
            let row = db.rating(&p.player_id, "competition").await.unwrap().unwrap();
            assert_eq!((row.matches, row.wins), (1, 0), "{db_name}");
        }
        db.close().await;
    }
}

/// Players rated in fewer than `--leaderboard-min-matches` (default 5) matches are not listed.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn new_accounts_are_not_on_the_leaderboard_until_they_have_played() {
    for db_name in databases() {
        let url = database_url(&db_name);
        let db = Db::connect(&url).await.unwrap();
        let rules = "house";
        let (four, five) = (unique("four"), unique("five"));
        for id in [&four, &five] {
            db.add_player(id, "newcomer").await.unwrap();
        }
        for (id, n) in [(&four, 4), (&five, 5)] {
            for k in 0..n {
                let seats = [RatedSeat::Human(id.clone()), RatedSeat::Ai(1), RatedSeat::Ai(1), RatedSeat::Ai(1)];
                let v = verdicts(Ending::Won(0), [true, false, false, false], [false; 4]);
                rate_match(&db, rules, &unique("R"), k, &seats, v).await.unwrap();
            }
        }
        db.close().await;
        let flags = ["--public-rate", "1000", "--public-burst", "1000"];
        let server = ServerProc::start(&url, &unique("board"), "127.0.0.1:0", &flags);
        let mut listed = Vec::new();
        for page in 0..1000 {
            let (status, text) = http_from([127, 0, 0, 1], server.addr, "GET", &leaderboard_path(rules, page), "")
                .await
                .expect("an answer");
            assert_eq!(status, 200, "{text}");
            let board: Leaderboard = serde_json::from_str(&text).unwrap();
            assert!(board.entries.iter().all(|e| e.matches >= 5), "{db_name}: {board:?}");
            listed.extend(board.entries.iter().map(|e| e.player_id.clone()));
            if board.entries.len() < 50 {
                break;
            }
        }
        assert!(listed.contains(&five), "{db_name}: five matches are enough");
        assert!(!listed.contains(&four), "{db_name}: four are not");
    }
}

/// One address reading the leaderboard as fast as it can is answered 429 past its burst;
/// another address meanwhile is served. Before, every request ran a count and an offset scan on
/// the connections the rooms write with.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn public_reads_are_limited_per_address() {
    let server = ServerProc::start(
        &database_url("sqlite"),
        &unique("flood"),
        "127.0.0.1:0",
        &["--public-rate", "2", "--public-burst", "10"],
    );
    let mut limited = 0;
    for page in 0..30 {
        let (status, text) =
            http_from([127, 0, 0, 21], server.addr, "GET", &leaderboard_path("competition", page), "").await.unwrap();
        if status == 429 {
            assert!(text.contains("rate_limited"), "{text}");
            limited += 1;
        } else {
            assert_eq!(status, 200, "{text}");
        }
    }
    assert!(limited >= 15, "30 requests at once, a burst of 10: {limited} refused");
    let (status, _) =
        http_from([127, 0, 0, 22], server.addr, "GET", &leaderboard_path("competition", 0), "").await.unwrap();
    assert_eq!(status, 200, "another address is served");
    let (status, _) = http_from([127, 0, 0, 21], server.addr, "GET", "/healthz", "").await.unwrap();
    assert_eq!(status, 200, "health is never limited");
}

/// A profile's figures are kept when a match is stored: a request reads one row, never the logs
/// (here made unreadable after storing). A player whose matches were stored before figures were
/// kept has them computed once from the logs, then kept.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_profile_never_replays_logs_on_a_request() {
    for db_name in databases() {
        let url = database_url(&db_name);
        let db = Db::connect(&url).await.unwrap();
        let rules = guandan_core::rules::RuleConfig::preset("competition").unwrap();
        let (_, log) = guandan_core::sim::random_match(31, rules, 200_000).unwrap();
        let figures = guandan_core::stats::seat_stats(&log).unwrap();
        let (kept, old) = (unique("kept"), unique("old"));
        for id in [&kept, &old] {
            db.add_player(id, "profiled").await.unwrap();
        }
        let room = unique("P");
        let result = |player: &String, seat: Seat| MatchResult {
            player: player.clone(),
            seat,
            won: seat.team() == guandan_core::seat::Team::ZERO,
            draw: false,
            figures: figures[seat.index()].clone(),
        };
        assert!(
            db.finish_match(&room, 0, "{}", &log.to_jsonl(), &[result(&kept, Seat::ONE), result(&old, Seat::TWO)])
                .await
                .unwrap()
        );
        db.close().await;
        // Unreadable logs; and `old` as if stored before figures were kept.
        sqlx::any::install_default_drivers();
        let raw = sqlx::AnyPool::connect(&url).await.unwrap();
        sqlx::query("DELETE FROM profile_stats WHERE player_id = $1").bind(&old).execute(&raw).await.unwrap();
        sqlx::query("UPDATE matches SET log = 'not a log' WHERE room_code = $1")
            .bind(&room)
            .execute(&raw)
            .await
            .unwrap();

        let server = ServerProc::start(&url, &unique("profile"), "127.0.0.1:0", &[]);
        let (status, text) = http_from([127, 0, 0, 1], server.addr, "GET", &player_path(&kept), "").await.unwrap();
        assert_eq!(status, 200, "{text}");
        let p: PlayerProfile = serde_json::from_str(&text).unwrap();
        assert_eq!(p.stats.matches, 1, "{db_name}");
        assert_eq!(p.stats.bombs_per_deal, figures[1].bombs_per_deal(), "{db_name}: kept, not replayed");
        assert!(p.stats.bombs_per_deal > 0.0);
        // The old player's logs cannot be read: its backfill counts nothing, but it is kept (one
        // replay, never again) — a readable log is tested by the ratings suite.
        let (status, text) = http_from([127, 0, 0, 1], server.addr, "GET", &player_path(&old), "").await.unwrap();
        assert_eq!(status, 200, "{text}");
        let row = sqlx::query("SELECT stats FROM profile_stats WHERE player_id = $1")
            .bind(&old)
            .fetch_optional(&raw)
            .await
            .unwrap();
        assert!(row.is_some(), "{db_name}: the backfill is kept");
        raw.close().await;
    }
}
