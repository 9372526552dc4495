//! The server's pacing of clients: an intent answering a prompt is never counted as flooding
//! (a bot may answer at once), everything else is; a client that stops reading is disconnected
//! with `slow_consumer` instead of being waited for.

mod common;

use common::*;
use futures_util::{SinkExt, StreamExt};
use guandan_core::game::{ActionKind, Seat};
use guandan_proto::{ClientMsg, ErrorCode, SeatSetting, ServerMsg};
use tokio_tungstenite::tungstenite::Message;

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_bot_answering_every_prompt_at_once_is_never_rate_limited() {
    for db in databases() {
        // A low rate: four bots answering at once send far more than 5 intents a second each.
        let server = ServerProc::start(
            &database_url(&db),
            &format!("pace-{}", std::process::id()),
            "127.0.0.1:0",
            &["--rate", "5", "--burst", "10"],
        );
        let (code, mut c) = four_player_room(server.addr, 77).await;
        let started = std::time::Instant::now();
        // `play` fails on any error a client receives.
        let seen = play(&mut c, 5_000).await;
        let no = wait_stored(&mut c).await;
        let intents_per_s = seen as f64 / 4.0 / started.elapsed().as_secs_f64().max(1e-3);
        assert!(intents_per_s > 5.0, "the test must outpace the rate to mean anything ({intents_per_s:.1}/s)");
        let (_, log) = stored_log(server.addr, &code, no);
        assert_eq!(log.actions.len() as u64, seen);
        // Messages that answer no prompt still count: a burst of unprompted intents is refused.
        let idle = c.iter().position(|x| x.prompt.is_none()).expect("nobody is prompted after the match");
        for _ in 0..40 {
            c[idle].intent(0, ActionKind::Pass).await;
        }
        c[idle]
            .until(
                "rate limited",
                |m| matches!(m, ServerMsg::Error { code, .. } if *code == ErrorCode::RateLimited.code()),
            )
            .await;
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_client_that_stops_reading_is_disconnected_with_slow_consumer() {
    for db in databases() {
        // No rate limit here: the client asks for far more than it reads.
        let server = ServerProc::start(
            &database_url(&db),
            &format!("slow-{}", std::process::id()),
            "127.0.0.1:0",
            &["--outbox", "64", "--rate", "1000000", "--burst", "1000000"],
        );
        let addr = server.addr;
        // The player reads through a tiny socket buffer, so what the server sends piles up in
        // its queue while it does not read.
        let (player_id, token) = register(addr, "slow");
        let sock = tokio::net::TcpSocket::new_v4().unwrap();
        sock.set_recv_buffer_size(2048).unwrap();
        let stream = sock.connect(addr).await.expect("connect");
        let (ws, _) = tokio_tungstenite::client_async(
            format!("ws://{addr}/v1/ws"),
            tokio_tungstenite::MaybeTlsStream::Plain(stream),
        )
        .await
        .expect("ws handshake");
        let mut slow = Client::over(ws, "slow", player_id, token).await;
        create_room(&mut slow, 99, None).await;
        for seat in [Seat::ONE, Seat::TWO, Seat::THREE] {
            slow.send(&ClientMsg::SetSeat { seat, setting: SeatSetting::Ai { level: 1 } }).await;
        }
        start_when_ready(std::slice::from_mut(&mut slow)).await;
        // 4,000 full states asked for (megabytes), none read.
        for _ in 0..4_000 {
            slow.send(&ClientMsg::Resync).await;
        }
        let _ = slow.ws.flush().await;
        // Reading again: part of the backlog, then `slow_consumer` as the last word, then close.
        let mut last = None;
        let mut frames = 0;
        for _ in 0..10_000 {
            match tokio::time::timeout(WAIT, slow.ws.next()).await.expect("the server sends or closes") {
                Some(Ok(Message::Text(t))) => {
                    frames += 1;
                    last = Some(serde_json::from_str::<ServerMsg>(t.as_str()).expect("server json"));
                }
                Some(Ok(Message::Close(_))) | None | Some(Err(_)) => break,
                Some(Ok(_)) => {}
            }
        }
        assert!(
            matches!(last, Some(ServerMsg::Error { code, .. }) if code == ErrorCode::SlowConsumer.code()),
            "after {frames} frames the last was {last:?}"
        );
        assert!(frames < 4_000, "the backlog was dropped ({frames} frames)");
        // The server is fine: the player comes back and gets its seat's state.
        slow.reconnect(addr).await;
        let code = slow.log.iter().find_map(|m| match m {
            ServerMsg::Joined { code, .. } => Some(code.clone()),
            _ => None,
        });
        slow.send(&ClientMsg::JoinRoom { code: code.expect("joined"), last_action_seq: None }).await;
        slow.until("state", |m| matches!(m, ServerMsg::State { .. })).await;
    }
}
