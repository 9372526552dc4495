//! The additive v1 seat messages against the real binary: `change_seat` in the lobby and
//! `auto_play` (a present player hands the seat to the AI and takes it back).

mod common;
use common::*;
use guandan_core::game::ActionKind;
use guandan_core::seat::Seat;
use guandan_proto::{ClientMsg, ErrorCode, ServerMsg};

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn change_seat_in_the_lobby_only_to_a_free_seat() {
    for db in databases() {
        let server = ServerProc::start(&database_url(&db), &format!("seat-{}", std::process::id()), "127.0.0.1:0", &[]);
        let addr = server.addr;
        let mut host = Client::new(addr, "north").await;
        let code = create_room(&mut host, 77, None).await;
        let mut east = Client::new(addr, "east").await;
        east.send(&ClientMsg::JoinRoom { code: code.clone(), last_action_seq: None }).await;
        east.until("joined", |m| matches!(m, ServerMsg::Joined { seat: Some(Seat::ONE), .. })).await;
        // Taken, out of range, spectator: refused, nothing moves.
        east.send(&ClientMsg::ChangeSeat { seat: Seat::ZERO }).await;
        east.expect_error(ErrorCode::NotYourSeat).await;
        // A seat outside 0-3 is no message at all: refused as it is read, with its reason.
        east.send_text(r#"{"type":"change_seat","seat":4}"#.into()).await;
        let m = east.until("an error", |m| matches!(m, ServerMsg::Error { .. })).await;
        assert!(
            matches!(&m, ServerMsg::Error { code, message, .. }
                if *code == ErrorCode::MalformedMessage.code() && message.contains("seat 4 is out of range 0-3")),
            "{m:?}"
        );
        let mut watcher = Client::new(addr, "watcher").await;
        watcher.send(&ClientMsg::Spectate { code: code.clone() }).await;
        watcher.until("joined", |m| matches!(m, ServerMsg::Joined { seat: None, .. })).await;
        watcher.send(&ClientMsg::ChangeSeat { seat: Seat::TWO }).await;
        watcher.expect_error(ErrorCode::NotYourSeat).await;
        // A free seat: east moves to seat 2; everyone sees seat 1 open and seat 2 taken.
        east.send(&ClientMsg::ChangeSeat { seat: Seat::TWO }).await;
        east.until("joined seat 2", |m| matches!(m, ServerMsg::Joined { seat: Some(Seat::TWO), .. })).await;
        let r = host
            .until("east in seat 2", |m| matches!(m, ServerMsg::Room { room } if room.seats[2].player.is_some()))
            .await;
        let ServerMsg::Room { room: r } = r else { unreachable!() };
        assert_eq!(r.seats[1].player, None);
        assert_eq!(r.seats[2].player.as_deref(), Some("east"));
        assert_eq!(east.seat, Some(Seat::TWO));
        // The host moves too and stays host.
        host.send(&ClientMsg::ChangeSeat { seat: Seat::THREE }).await;
        host.until("joined seat 3", |m| matches!(m, ServerMsg::Joined { seat: Some(Seat::THREE), .. })).await;
        let r = host
            .until("north in seat 3", |m| matches!(m, ServerMsg::Room { room } if room.seats[3].player.is_some()))
            .await;
        let ServerMsg::Room { room: r } = r else { unreachable!() };
        assert_eq!((r.host_seat, r.seats[3].player.as_deref()), (Seat::THREE, Some("north")));
        // Fill and start: seats are locked during the match.
        let mut a = Client::new(addr, "a").await;
        a.send(&ClientMsg::JoinRoom { code: code.clone(), last_action_seq: None }).await;
        a.until("joined", |m| matches!(m, ServerMsg::Joined { seat: Some(Seat::ZERO), .. })).await;
        let mut b = Client::new(addr, "b").await;
        b.send(&ClientMsg::JoinRoom { code: code.clone(), last_action_seq: None }).await;
        b.until("joined", |m| matches!(m, ServerMsg::Joined { seat: Some(Seat::ONE), .. })).await;
        let mut c = vec![host, a, b, east];
        start_when_ready(&mut c).await;
        c[1].send(&ClientMsg::ChangeSeat { seat: Seat::ZERO }).await;
        c[1].expect_error(ErrorCode::RoomLocked).await;
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn auto_play_hands_the_seat_to_the_ai_and_back() {
    for db in databases() {
        let server = ServerProc::start(
            &database_url(&db),
            &format!("auto-{}", std::process::id()),
            "127.0.0.1:0",
            // Long heartbeat timeout: only the handed-over seat is hosted, never a slow test client.
            &["--hosting-ai", "1", "--heartbeat-timeout-ms", "120000"],
        );
        let addr = server.addr;
        let mut host = Client::new(addr, "north").await;
        let _code = create_room(&mut host, 4242, None).await;
        // Not in a match: refused.
        host.send(&ClientMsg::AutoPlay { on: true }).await;
        host.expect_error(ErrorCode::BadRoomState).await;
        drop(host);
        let (code, mut c) = four_player_room(addr, 4243).await;
        play(&mut c, 10).await;
        c[1].send(&ClientMsg::AutoPlay { on: true }).await;
        for x in c.iter_mut() {
            x.until("hosting on", |m| matches!(m, ServerMsg::Hosting { seat: Seat::ONE, on: true })).await;
        }
        // The seat's stale prompt is gone: its human no longer acts.
        c[1].prompt = None;
        let at = c[0].last_seq;
        let mut ai_moves = 0;
        for _ in 0..200 {
            play(&mut c, 1).await;
            ai_moves = c[0]
                .log
                .iter()
                .filter(
                    |m| matches!(m, ServerMsg::Applied { seat: Seat::ONE, actions: 1.., action_seq, .. } if *action_seq > at),
                )
                .count();
            if ai_moves >= 2 {
                break;
            }
        }
        assert!(ai_moves >= 1, "the AI acted for the handed-over seat");
        // The human cannot act while the AI plays its seat.
        let seq = c[1].last_seq;
        c[1].intent(seq, ActionKind::Pass).await;
        c[1].expect_error(ErrorCode::NotHuman).await;
        let r = c[1].log.iter().rev().find_map(|m| match m {
            ServerMsg::Room { room } => Some(room.clone()),
            _ => None,
        });
        let r = r.expect("a room message");
        assert!(r.seats[1].hosted && r.seats[1].connected, "{r:?}");
        // Tap to take over: the seat is the human's again, and the match plays to its end.
        c[1].send(&ClientMsg::AutoPlay { on: false }).await;
        for x in c.iter_mut() {
            x.until("hosting off", |m| matches!(m, ServerMsg::Hosting { seat: Seat::ONE, on: false })).await;
        }
        c[1].log.retain(|m| !matches!(m, ServerMsg::Error { .. }));
        play(&mut c, 20_000).await;
        let no = wait_stored(&mut c).await;
        let (_, log) = stored_log(addr, &code, no);
        let states = states(&log);
        for x in &c {
            scan(x, &log, &states, x.seat, Some(0));
        }
    }
}
