//! Hostile clients (issue 22): what anyone who can reach the server may try, with raw sockets and
//! WebSockets on loopback, against the real binary with its production defaults (no practice
//! seeds, real limits; [`ServerProc::start_strict`]). Every loop is bounded and every wait has a
//! deadline; where storage is involved each test runs on SQLite and on PostgreSQL.

mod common;
use common::*;
use futures_util::{SinkExt, StreamExt};
use guandan_core::log::MatchLog;
use guandan_core::seat::Seat;
use guandan_proto::http::{NewPlayerReply, read_reply};
use guandan_proto::{ClientMsg, ErrorCode, RoomState, SeatSetting, ServerMsg};
use std::time::{Duration, Instant};
use tokio::io::AsyncWriteExt;
use tokio_tungstenite::tungstenite::Message;

/// The production limits; only the room's pace (and its break between deals) is off (whole matches of AI seats are played
/// here, at machine speed: the pace is no protection, tests/stall.rs covers it).
fn strict(db: &str, name: &str, extra: &[&str]) -> ServerProc {
    let mut flags = vec!["--ai-pace-ms", "0", "--deal-break-ms", "0"];
    flags.extend_from_slice(extra);
    ServerProc::start_strict(&database_url(db), &format!("{name}-{}", std::process::id()), "127.0.0.1:0", &flags)
}

/// The next `room` message that satisfies `pred`.
async fn room_until(
    c: &mut Client,
    what: &str,
    pred: impl Fn(&guandan_proto::RoomInfo) -> bool,
) -> guandan_proto::RoomInfo {
    match c.until(what, |m| matches!(m, ServerMsg::Room { room } if pred(room))).await {
        ServerMsg::Room { room } => room,
        _ => unreachable!(),
    }
}

async fn create(c: &mut Client, seed: Option<u64>) -> ServerMsg {
    c.send(&ClientMsg::CreateRoom { rules: None, spectator_delay: Some(1), seed, spectator_hands: None }).await;
    c.until("joined or refused", |m| matches!(m, ServerMsg::Joined { .. } | ServerMsg::Error { .. })).await
}

async fn create_code(c: &mut Client) -> String {
    match create(c, None).await {
        ServerMsg::Joined { code, .. } => code,
        other => panic!("{}: room not created: {other:?}", c.name),
    }
}

/// Polls a metric until `pred` holds (bounded); returns its last value.
async fn metric_until(addr: std::net::SocketAddr, name: &str, pred: impl Fn(f64) -> bool) -> f64 {
    let until = Instant::now() + WAIT;
    loop {
        let v = metric(addr, name).unwrap_or_else(|| panic!("no metric {name}"));
        if pred(v) || Instant::now() > until {
            return v;
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
}

/// Host in seat 0, the server's L1 AI in the three other seats, the host's own seat handed to the
/// server's AI: one whole match, played by the server alone. Returns its stored meta and log.
async fn auto_match(
    host: &mut Client,
    addr: std::net::SocketAddr,
    code: &str,
    match_no: u32,
) -> (serde_json::Value, MatchLog) {
    host.send(&ClientMsg::Ready { ready: true }).await;
    room_until(host, "everyone ready", |r| r.seats.iter().all(|s| s.ready || s.ai.is_some())).await;
    host.send(&ClientMsg::Start).await;
    host.until("state", |m| matches!(m, ServerMsg::State { .. })).await;
    host.send(&ClientMsg::AutoPlay { on: true }).await;
    host.until("match stored", |m| matches!(m, ServerMsg::MatchStored { match_no: n, .. } if *n == match_no)).await;
    stored_log(addr, code, match_no)
}

/// Plays `n` of the client's own actions (L1), each time waiting until the server applied it:
/// with AI seats, two payers' tribute or return run side by side, and a message about the other
/// payer's gift still carries this seat's prompt. Stops early when the match is stored.
async fn play_seat(c: &mut Client, n: usize) {
    for _ in 0..n {
        while c.prompt.is_none() {
            match c.recv().await {
                ServerMsg::MatchStored { .. } => return,
                ServerMsg::Error { code, message, .. } => panic!("{}: error {code} {message}", c.name),
                _ => {}
            }
        }
        let seq = c.act().await.expect("a prompt");
        let me = c.seat;
        let m = c
            .until("its own action applied", |m| {
                matches!(m, ServerMsg::Applied { seat, action_seq, .. } if Some(*seat) == me && *action_seq > seq)
                    || matches!(m, ServerMsg::Error { .. })
            })
            .await;
        assert!(matches!(m, ServerMsg::Applied { .. }), "{}: {m:?}", c.name);
    }
}

async fn ai_fill(host: &mut Client) {
    for seat in [Seat::ONE, Seat::TWO, Seat::THREE] {
        host.send(&ClientMsg::SetSeat { seat, setting: SeatSetting::Ai { level: 1 } }).await;
    }
    room_until(host, "AI seats", |r| r.seats.iter().skip(1).all(|s| s.ai.is_some())).await;
}

/// Finding 1: nobody but the server chooses a deal, and no match's seed follows from a published
/// one. A seed in `create_room` is refused (nothing is created); the seeds of two matches in a
/// row of one room are unrelated (the rematch was dealt from the previous seed + 1). With
/// `--practice-seeds` a client's seed is honoured, and the room and its record say so.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn seeds_come_from_the_server_never_from_a_client() {
    for db in databases() {
        let server = strict(&db, "seed", &["--hosting-ai", "1"]);
        let addr = server.addr;
        let mut host = Client::new(addr, "host").await;
        let answer = create(&mut host, Some(424_242)).await;
        assert!(
            matches!(answer, ServerMsg::Error { code, .. } if code == ErrorCode::BadArgument.code()),
            "a client's seed must be refused: {answer:?}"
        );
        assert_eq!(metric(addr, "guandan_rooms"), Some(0.0), "a refused room is not created");
        let code = create_code(&mut host).await;
        ai_fill(&mut host).await;
        let (meta0, log0) = auto_match(&mut host, addr, &code, 0).await;
        host.send(&ClientMsg::Rematch { accept: true }).await;
        room_until(&mut host, "the next ready check", |r| r.state == RoomState::ReadyCheck).await;
        let (meta1, log1) = auto_match(&mut host, addr, &code, 1).await;
        let (s0, s1) = (meta0["seed"].as_u64().expect("seed"), meta1["seed"].as_u64().expect("seed"));
        assert_eq!((log0.header.seed, log1.header.seed), (s0, s1), "the record's header holds the seed");
        assert_ne!(s1, s0.wrapping_add(1), "[{db}] the rematch's seed follows from the published one");
        assert_ne!(s1, s0);
        assert_ne!(meta0["practice"], serde_json::json!(true), "{meta0}");
        drop(server);

        let server = strict(&db, "practice", &["--hosting-ai", "1", "--practice-seeds"]);
        let addr = server.addr;
        let mut host = Client::new(addr, "host").await;
        let code = match create(&mut host, Some(424_242)).await {
            ServerMsg::Joined { code, .. } => code,
            other => panic!("--practice-seeds: the seed is honoured: {other:?}"),
        };
        let room = room_until(&mut host, "the room", |_| true).await;
        assert!(room.practice, "a practice room says so: {room:?}");
        ai_fill(&mut host).await;
        let (meta, log) = auto_match(&mut host, addr, &code, 0).await;
        assert_eq!((meta["seed"].as_u64(), log.header.seed), (Some(424_242), 424_242));
        assert_eq!(meta["practice"], serde_json::json!(true), "the record says practice: {meta}");
        eprintln!("[{db}] seeds {s0:#x}, {s1:#x}; a practice room's record is marked");
    }
}

/// Finding 2: `spectate` and `resync` are answered from what the room keeps (its delayed
/// spectator view), never by reading and replaying the stored match; a seat's catch-up from the
/// log is bounded in time. The answers are the right delayed states: their hashes are the
/// replay's at a released round point, and they show no hand.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn spectate_and_resync_are_answered_from_the_rooms_own_state() {
    for db in databases() {
        let server = strict(&db, "flood", &["--rate", "20", "--burst", "40"]);
        let addr = server.addr;
        let mut host = Client::new(addr, "host").await;
        let code = create_code(&mut host).await;
        ai_fill(&mut host).await;
        let mut clients = vec![host];
        start_when_ready(&mut clients).await;
        play_seat(&mut clients[0], 40).await;
        // A running match's record is never served (it holds every hand).
        let (status, _) = http(addr, "GET", &format!("/v1/matches/{code}/0"), "");
        assert_eq!(status, 404, "a running match's log is served");
        let before = metric(addr, "guandan_log_replays_total").expect("replay counter");
        let mut watchers = Vec::new();
        for i in 0..5 {
            let mut w = Client::new(addr, &format!("watcher{i}")).await;
            w.send(&ClientMsg::Spectate { code: code.clone() }).await;
            w.until("joined", |m| matches!(m, ServerMsg::Joined { seat: None, .. })).await;
            watchers.push(w);
        }
        // Under the rate limit: 20 requests a spectator, between the host's plays.
        for round in 0..4 {
            for w in watchers.iter_mut() {
                for k in 0..5 {
                    let m = if (round + k) % 2 == 0 {
                        ClientMsg::Resync
                    } else {
                        ClientMsg::Spectate { code: code.clone() }
                    };
                    w.send(&m).await;
                }
            }
            play_seat(&mut clients[0], 5).await;
        }
        for w in watchers.iter_mut() {
            // One state for the first spectate, one for each of the 20 requests.
            for _ in 0..21 {
                w.until("a state", |m| matches!(m, ServerMsg::State { .. })).await;
            }
        }
        let after = metric(addr, "guandan_log_replays_total").expect("replay counter");
        assert_eq!(
            after,
            before,
            "[{db}] 105 spectate/resync requests replayed the stored match {} times",
            after - before
        );

        // A seated player asking again and again for what it missed: at most one catch-up from
        // the log every 2 s (a full state otherwise).
        let started = Instant::now();
        for _ in 0..20 {
            let last = clients[0].last_seq.saturating_sub(3);
            clients[0].send(&ClientMsg::JoinRoom { code: code.clone(), last_action_seq: Some(last) }).await;
            clients[0].until("back in the seat", |m| matches!(m, ServerMsg::Room { .. })).await;
        }
        let allowed = 1.0 + (started.elapsed().as_secs_f64() / 2.0).ceil();
        let replays = metric(addr, "guandan_log_replays_total").expect("replay counter") - after;
        assert!(replays <= allowed, "[{db}] 20 rejoins in {:?} replayed the log {replays} times", started.elapsed());

        clients[0].send(&ClientMsg::AutoPlay { on: true }).await;
        let match_no = clients[0].stored().await;
        let (_, log) = stored_log(addr, &code, match_no);
        let states = states(&log);
        let mut points: Vec<u64> = vec![0, log.actions.len() as u64];
        points.extend(round_ends(&clients[0].log));
        for w in watchers.iter_mut() {
            w.stored().await;
            // Every action once, in order, after the first state (a state stands for what is
            // before it), up to the end.
            scan(w, &log, &states, None, Some(0));
            let last = w.log.iter().rev().find_map(|m| match m {
                ServerMsg::Applied { action_seq, .. } | ServerMsg::State { action_seq, .. } => Some(*action_seq),
                _ => None,
            });
            assert_eq!(last, Some(log.actions.len() as u64), "{} saw the end", w.name);
            for m in &w.log {
                if let ServerMsg::State { action_seq, view, .. } = m {
                    assert!(view.hand.is_empty() && view.seat.is_none(), "a spectator's state has no hand");
                    assert!(points.contains(action_seq), "{}: state at {action_seq}, not a released point", w.name);
                }
            }
        }
        eprintln!("[{db}] 105 spectator requests, 20 rejoins: {replays} log replays");
    }
}

/// Action counts after which a round ended, as one client saw them.
fn round_ends(log: &[ServerMsg]) -> Vec<u64> {
    log.iter()
        .filter_map(|m| match m {
            ServerMsg::Applied { action_seq, events, .. }
                if events.iter().any(|e| {
                    matches!(
                        e,
                        guandan_proto::WireOut::TableCleared { .. } | guandan_proto::WireOut::DealStarted { .. }
                    )
                }) =>
            {
                Some(*action_seq)
            }
            _ => None,
        })
        .collect()
}

/// Finding 3: slowloris. 200 sockets from one address send half an HTTP upgrade and stall: those
/// over the per-address limit are closed at once, the rest when the header timeout passes, and
/// the server's descriptors come back down; meanwhile another address gets `/healthz`, a new
/// account and a game connection.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn slow_and_idle_connections_are_closed_and_others_served() {
    let server = strict(
        "sqlite",
        "slow",
        &["--header-timeout-ms", "1500", "--max-conns-per-ip", "50", "--max-unauthenticated", "120"],
    );
    let addr = server.addr;
    // Let the server settle (its database pool opens connections lazily).
    assert_eq!(http_from([127, 0, 0, 2], addr, "GET", "/healthz", "").await.map(|r| r.0), Some(200));
    let fds_before = server.open_fds();
    let mut attackers = Vec::new();
    for _ in 0..200 {
        let Ok(mut s) = tcp_from([127, 0, 0, 1], addr).await else { continue };
        let _ = s.write_all(b"GET /v1/ws HTTP/1.1\r\nHost: x\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n").await;
        attackers.push(s);
    }
    // Served meanwhile, from another address.
    let (status, _) = http_from([127, 0, 0, 2], addr, "GET", "/healthz", "").await.expect("healthz under attack");
    assert_eq!(status, 200);
    let (status, body) =
        http_from([127, 0, 0, 2], addr, "POST", "/v1/players", r#"{"nickname":"calm"}"#).await.expect("register");
    assert_eq!(status, 200, "{body}");
    let account: NewPlayerReply = read_reply(status, body.as_bytes()).expect("an account");
    let ws = ws_from([127, 0, 0, 2], addr).await.expect("a game connection under attack");
    let mut calm = Client::over(ws, "calm", account.player_id, account.token).await;
    calm.send(&ClientMsg::Heartbeat).await;
    assert!(matches!(calm.recv().await, ServerMsg::Pong));
    // Every stalled socket is closed by the server (read: end of stream or reset), in bounded time.
    let deadline = Instant::now() + WAIT;
    let mut open = 0;
    for s in attackers.iter_mut() {
        let mut buf = [0u8; 256];
        let left = deadline.saturating_duration_since(Instant::now()).max(Duration::from_millis(1));
        match tokio::time::timeout(left, tokio::io::AsyncReadExt::read(s, &mut buf)).await {
            Ok(Ok(0)) | Ok(Err(_)) => {}
            Ok(Ok(_)) => {
                // An answer (e.g. 408) then the close.
                let left = deadline.saturating_duration_since(Instant::now()).max(Duration::from_millis(1));
                let mut rest = Vec::new();
                if tokio::time::timeout(left, tokio::io::AsyncReadExt::read_to_end(s, &mut rest)).await.is_err() {
                    open += 1;
                }
            }
            Err(_) => open += 1,
        }
    }
    assert_eq!(open, 0, "{open} of {} stalled sockets still open after {WAIT:?}", attackers.len());
    drop(attackers);
    let until = Instant::now() + WAIT;
    while server.open_fds() > fds_before + 2 && Instant::now() < until {
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    assert!(server.open_fds() <= fds_before + 2, "descriptors: {} before, {} after", fds_before, server.open_fds());
    // The game connection was never disturbed.
    calm.send(&ClientMsg::Heartbeat).await;
    assert!(matches!(calm.recv().await, ServerMsg::Pong));
    assert!(metric(addr, "guandan_connections_refused_per_ip_total").unwrap_or(0.0) >= 150.0);
}

/// Finding 4: room and account limits, and no room outlives its people. Accounts per address
/// per minute; rooms per account; a room nobody is in any more closes and leaves the directory
/// (emptied lobby, abandoned lobby after the grace, a finished match everyone left, an idle
/// room restored after a restart); `/metrics` shows it.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn rooms_and_accounts_are_limited_and_empty_rooms_close() {
    for db in databases() {
        let url = database_url(&db);
        let instance = format!("rooms-{}", std::process::id());
        let flags = [
            "--accounts-per-ip-per-minute",
            "6",
            "--rooms-per-account",
            "3",
            "--lobby-grace-ms",
            "300",
            "--vote-timeout-ms",
            "300",
            "--room-idle-ms",
            "800",
            "--hosting-ai",
            "1",
            "--ai-pace-ms",
            "0",
            "--deal-break-ms",
            "0",
        ];
        let mut server = ServerProc::start_strict(&url, &instance, "127.0.0.1:0", &flags);
        let addr = server.addr;
        // Accounts: 6 a minute from one address; another address is not affected.
        let mut creds = Vec::new();
        for i in 0..6 {
            creds.push(register(addr, &format!("acct{i}")));
        }
        let (status, body) = http(addr, "POST", "/v1/players", r#"{"nickname":"seventh"}"#);
        assert_eq!(status, 429, "[{db}] the 7th account in a minute: {body}");
        assert!(body.contains(&format!("\"code\":{}", ErrorCode::RateLimited.code())), "{body}");
        let other = http_from([127, 0, 0, 2], addr, "POST", "/v1/players", r#"{"nickname":"other"}"#).await;
        assert_eq!(other.map(|r| r.0), Some(200), "another address may register");

        // Rooms per account: an account creates a room, a guest (an account of another address)
        // sits in it, and the creator moves on to create the next (one seat per account: it
        // cannot sit in two); with three rooms still open, a fourth is refused.
        let (id, token) = creds[0].clone();
        let mut hosts = Vec::new();
        let mut codes = Vec::new();
        let mut fourth = Client::login(addr, "host", id.clone(), token.clone()).await;
        for k in 0..3u8 {
            codes.push(create_code(&mut fourth).await);
            let (status, body) =
                http_from([127, 0, 0, 2 + k], addr, "POST", "/v1/players", &format!(r#"{{"nickname":"guest{k}"}}"#))
                    .await
                    .expect("a guest account");
            let guest: NewPlayerReply = read_reply(status, body.as_bytes()).expect("a guest account");
            let mut g = Client::login(addr, &format!("guest{k}"), guest.player_id, guest.token).await;
            g.send(&ClientMsg::JoinRoom { code: codes[k as usize].clone(), last_action_seq: None }).await;
            g.until("joined", |m| matches!(m, ServerMsg::Joined { .. })).await;
            hosts.push(g);
        }
        let answer = create(&mut fourth, None).await;
        assert!(
            matches!(answer, ServerMsg::Error { code, .. } if code == ErrorCode::RateLimited.code()),
            "[{db}] a 4th room for one account: {answer:?}"
        );
        assert_eq!(metric(addr, "guandan_rooms"), Some(3.0));
        // Another account creating room after room from one connection: each room it leaves is
        // empty and closes (so the limit, which counts rooms that exist, never stops it).
        let (id3, token3) = creds[3].clone();
        let mut serial = Client::login(addr, "serial", id3, token3).await;
        for _ in 0..20 {
            create_code(&mut serial).await;
        }
        assert_eq!(metric(addr, "guandan_rooms"), Some(4.0), "[{db}] rooms left behind");

        // Abandoned lobbies: connections dropped without a word; after the grace every seat is
        // free, the room closes and its directory row goes.
        drop(hosts);
        drop(fourth);
        drop(serial);
        let left = metric_until(addr, "guandan_rooms", |v| v == 0.0).await;
        assert_eq!(left, 0.0, "[{db}] abandoned rooms still open");
        for code in &codes {
            let (status, body) = http(addr, "GET", &format!("/v1/rooms/{code}"), "");
            assert_eq!(status, 404, "[{db}] directory row of {code} left: {body}");
        }

        // A finished match everyone left: the vote times out, the room empties and closes.
        let (id, token) = creds[1].clone();
        let mut host = Client::login(addr, "finisher", id, token).await;
        let code = create_code(&mut host).await;
        ai_fill(&mut host).await;
        auto_match(&mut host, addr, &code, 0).await;
        drop(host);
        assert_eq!(
            metric_until(addr, "guandan_rooms", |v| v == 0.0).await,
            0.0,
            "[{db}] a finished room outlived its players"
        );
        assert_eq!(http(addr, "GET", &format!("/v1/rooms/{code}"), "").0, 404);
        assert_eq!(http(addr, "GET", &format!("/v1/matches/{code}/0"), "").0, 200, "the record stays");
        let created = metric(addr, "guandan_rooms_created_total").expect("rooms created");
        assert_eq!(created, 24.0);
        assert_eq!(metric(addr, "guandan_rooms_closed_empty_total"), Some(created), "every room closed as empty");

        // A room restored empty after a restart expires after the idle time.
        let (id, token) = creds[2].clone();
        let mut host = Client::login(addr, "restarter", id, token).await;
        let code = create_code(&mut host).await;
        server.kill_and_restart();
        let addr = server.addr;
        assert_eq!(http(addr, "GET", &format!("/v1/rooms/{code}"), "").0, 200, "the room is in the directory");
        assert_eq!(metric_until(addr, "guandan_rooms", |v| v == 0.0).await, 0.0, "[{db}] a restored idle room stays");
        assert_eq!(http(addr, "GET", &format!("/v1/rooms/{code}"), "").0, 404);
        drop(host);
        eprintln!("[{db}] limits hold; every empty room closed");
    }
}

/// Finding 5: every frame counts against the rate limit — binary frames too; a flood ends with
/// the connection closed, not with thousands of answers.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn binary_frames_are_rate_limited() {
    frame_flood("binary").await;
}

/// Finding 5: pings count against the rate limit like any other frame.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn pings_are_rate_limited() {
    frame_flood("ping").await;
}

async fn frame_flood(kind: &str) {
    let server = strict("sqlite", kind, &["--rate", "20", "--burst", "40"]);
    let addr = server.addr;
    {
        let mut c = Client::new(addr, kind).await;
        let mut sent = 0;
        for i in 0..3000u32 {
            let frame = if kind == "binary" {
                Message::Binary(i.to_le_bytes().to_vec().into())
            } else {
                Message::Ping(i.to_le_bytes().to_vec().into())
            };
            if c.ws.send(frame).await.is_err() {
                break;
            }
            sent += 1;
        }
        // Read the answers until the server closes the connection (bounded).
        let (mut answers, mut limited, mut closed) = (0, 0, false);
        let until = Instant::now() + WAIT;
        while Instant::now() < until {
            match tokio::time::timeout(Duration::from_secs(2), c.ws.next()).await {
                Ok(Some(Ok(Message::Pong(_)))) => answers += 1,
                Ok(Some(Ok(Message::Text(t)))) => {
                    if t.as_str().contains(&format!("\"code\":{}", ErrorCode::RateLimited.code())) {
                        limited += 1;
                    } else {
                        answers += 1;
                    }
                }
                Ok(Some(Ok(Message::Close(_)))) | Ok(None) | Ok(Some(Err(_))) => {
                    closed = true;
                    break;
                }
                Ok(Some(Ok(_))) => {}
                Err(_) => {}
            }
        }
        assert!(closed, "{kind}: {sent} frames sent, {answers} answered, {limited} rate-limited, connection kept");
        assert!(answers <= 200, "{kind}: {answers} answers to a flood of {sent}");
        assert!(limited > 0, "{kind}: never rate-limited");
    }
}

/// Finding 6: a lobby whose host leaves gets a new host (the next player), who can fill seats,
/// start or disband; a host who drops out loses the role after the lobby grace; the room closes
/// when its last player leaves.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_host_role_passes_on_and_an_empty_lobby_closes() {
    for db in databases() {
        let server = strict(&db, "host", &["--lobby-grace-ms", "300"]);
        let addr = server.addr;
        let mut host = Client::new(addr, "host").await;
        let code = create_code(&mut host).await;
        let mut guests = Vec::new();
        for name in ["g1", "g2"] {
            let mut g = Client::new(addr, name).await;
            g.send(&ClientMsg::JoinRoom { code: code.clone(), last_action_seq: None }).await;
            g.until("joined", |m| matches!(m, ServerMsg::Joined { .. })).await;
            guests.push(g);
        }
        host.send(&ClientMsg::Leave).await;
        let g1_seat = guests[0].seat.expect("seat");
        let room = room_until(&mut guests[0], "a new host", |r| r.seats[0].player.is_none()).await;
        assert_eq!(room.host_seat, g1_seat, "[{db}] the next player hosts: {room:?}");
        guests[0].send(&ClientMsg::SetSeat { seat: Seat::ZERO, setting: SeatSetting::Ai { level: 1 } }).await;
        room_until(&mut guests[0], "an AI seat set by the new host", |r| r.seats[0].ai == Some(1)).await;
        assert!(guests[0].errors().is_empty(), "{:?}", guests[0].errors());

        // The new host drops out without a word: after the grace, g2 hosts.
        let mut g1 = guests.remove(0);
        g1.ws.close(None).await.ok();
        drop(g1);
        let g2_seat = guests[0].seat.expect("seat");
        let room = room_until(&mut guests[0], "g2 hosts", |r| {
            r.host_seat == g2_seat && r.seats[g1_seat.index()].player.is_none()
        })
        .await;
        assert_eq!(room.host_seat, g2_seat);
        guests[0].send(&ClientMsg::Disband).await;
        room_until(&mut guests[0], "disbanded", |r| r.state == RoomState::Destroyed).await;
        assert_eq!(http(addr, "GET", &format!("/v1/rooms/{code}"), "").0, 404);

        // The last player leaves: the room closes.
        let mut solo = Client::new(addr, "solo").await;
        let code = create_code(&mut solo).await;
        solo.send(&ClientMsg::Leave).await;
        assert_eq!(metric_until(addr, "guandan_rooms", |v| v == 0.0).await, 0.0, "[{db}] an empty lobby stays open");
        assert_eq!(http(addr, "GET", &format!("/v1/rooms/{code}"), "").0, 404);
    }
}

/// Finding 8: nicknames with control, format (zero-width, bidi) or separator characters, or
/// markup, are refused with `bad_nickname`; ordinary names in any script are fine.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn nicknames_that_could_deceive_or_be_interpreted_are_refused() {
    let server = strict("sqlite", "nick", &["--accounts-per-ip-per-minute", "100"]);
    let addr = server.addr;
    let bad = [
        "evil\u{202E}gnp.exe",
        "zero\u{200B}width",
        "join\u{200D}er",
        "\u{2066}isolate",
        "bom\u{FEFF}",
        "soft\u{AD}hyphen",
        "line\u{2028}sep",
        "tab\there",
        "[color=red]admin[/color]",
        "<b>bold</b>",
        "[img]x[/img]",
        "{0}",
    ];
    for name in bad {
        let body = serde_json::json!({ "nickname": name }).to_string();
        let (status, reply) = http(addr, "POST", "/v1/players", &body);
        assert_eq!(status, 400, "{name:?} accepted: {reply}");
        assert!(reply.contains(&format!("\"code\":{}", ErrorCode::BadNickname.code())), "{name:?}: {reply}");
    }
    for name in ["小明", "Zoë", "Ana María", "player_7", "جميلة", "Ёжик"] {
        let body = serde_json::json!({ "nickname": name }).to_string();
        let (status, reply) = http(addr, "POST", "/v1/players", &body);
        assert_eq!(status, 200, "{name:?} refused: {reply}");
    }
}
