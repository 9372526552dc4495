//! Bad input from seated players of a live room (stale, repeated and foreign intents, illegal
//! cards, card ids past the decks, flooding, garbage frames): each gets its code, nothing changes,
//! and the match goes on to a stored log that replays. Against the real binary over loopback, on
//! SQLite and (when configured) PostgreSQL. (Split from `robust.rs`.)

mod common;
use common::*;
use futures_util::{SinkExt, StreamExt};
use guandan_core::card::CardId;
use guandan_core::game::ActionKind;
use guandan_proto::{ClientMsg, ErrorCode, ServerMsg};
use rand_chacha::ChaCha8Rng;
use rand_core::{Rng, SeedableRng};
use std::time::Duration;
use tokio_tungstenite::tungstenite::Message;

fn code_of(m: &ServerMsg) -> Option<i32> {
    match m {
        ServerMsg::Error { code, .. } => Some(*code),
        _ => None,
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn every_bad_input_gets_its_code_and_changes_nothing() {
    for db in databases() {
        let server = ServerProc::start(
            &database_url(&db),
            &format!("bad-{}", std::process::id()),
            "127.0.0.1:0",
            &["--auth-timeout-ms", "700", "--rate", "20", "--burst", "30"],
        );
        let addr = server.addr;

        // Before hello: anything else is refused; bad credentials; old protocol.
        let mut ws = connect_ws(addr).await;
        let raw = |t: &'static str| Message::Text(t.into());
        ws.send(raw(r#"{"type":"heartbeat"}"#)).await.unwrap();
        ws.send(raw(r#"{"type":"hello","protocol_version":1,"player_id":"nobody","token":"x"}"#)).await.unwrap();
        ws.send(raw(r#"{"type":"hello","protocol_version":0,"player_id":"nobody","token":"x"}"#)).await.unwrap();
        let mut codes = Vec::new();
        for _ in 0..3 {
            if let Some(Ok(Message::Text(t))) = tokio::time::timeout(WAIT, ws.next()).await.unwrap() {
                codes.push(code_of(&serde_json::from_str(t.as_str()).unwrap()));
            }
        }
        assert_eq!(codes, vec![Some(44), Some(45), Some(40)]);
        // An unauthenticated connection is closed after the auth timeout, with its code.
        let mut closed = false;
        for _ in 0..10 {
            match tokio::time::timeout(WAIT, ws.next()).await.unwrap() {
                Some(Ok(Message::Text(t))) => assert!(t.as_str().contains("\"code\":44"), "{t}"),
                Some(Ok(Message::Close(_))) | None | Some(Err(_)) => {
                    closed = true;
                    break;
                }
                _ => {}
            }
        }
        assert!(closed, "idle unauthenticated connection closed");

        let (code, mut c) = four_player_room(addr, 4242).await;
        play(&mut c, 12).await;
        let before: Vec<String> = {
            let mut v = Vec::new();
            for x in c.iter_mut() {
                v.push(x.resync_hash().await);
            }
            v
        };
        assert!(before.iter().all(|h| *h == before[0]));

        // Frames: malformed, unknown type, oversize (the connection stays usable).
        c[1].send_text("{not json".into()).await;
        c[1].expect_error(ErrorCode::MalformedMessage).await;
        c[1].send_text(r#"{"type":"teleport"}"#.into()).await;
        c[1].expect_error(ErrorCode::UnknownMessage).await;
        c[1].send_text(r#"{"type":"intent","seq":"soon"}"#.into()).await;
        c[1].expect_error(ErrorCode::MalformedMessage).await;
        c[1].send_text(format!(r#"{{"type":"heartbeat","pad":"{}"}}"#, "x".repeat(20_000))).await;
        c[1].expect_error(ErrorCode::FrameTooLarge).await;
        c[1].send(&ClientMsg::Heartbeat).await;
        c[1].until("pong", |m| matches!(m, ServerMsg::Pong)).await;
        // Rooms: no such room, a malformed code, a full room, a locked room, not the host.
        c[1].send(&ClientMsg::JoinRoom { code: "ZZZZZZ".into(), last_action_seq: None }).await;
        c[1].expect_error(ErrorCode::RoomNotFound).await;
        c[1].send(&ClientMsg::Spectate { code: "no!".into() }).await;
        c[1].expect_error(ErrorCode::RoomNotFound).await;
        let mut fifth = Client::new(addr, "fifth").await;
        fifth.send(&ClientMsg::JoinRoom { code: code.clone(), last_action_seq: None }).await;
        fifth.expect_error(ErrorCode::RoomLocked).await;
        fifth.intent(0, ActionKind::Pass).await;
        fifth.expect_error(ErrorCode::RoomNotFound).await;
        c[1].send(&ClientMsg::Start).await;
        c[1].expect_error(ErrorCode::NotHost).await;
        c[1].send(&ClientMsg::Disband).await;
        c[1].expect_error(ErrorCode::NotHost).await;
        c[0].send(&ClientMsg::Disband).await;
        c[0].expect_error(ErrorCode::BadRoomState).await;
        // Intents: stale, ahead, repeated, out of turn, illegal cards, server-only actions.
        let next = c[0].last_seq;
        let actor = c.iter().position(|x| x.prompt.is_some()).expect("someone must act");
        let idle = (actor + 1) % 4;
        c[idle].intent(next.saturating_sub(1), ActionKind::Pass).await;
        c[idle].expect_error(ErrorCode::StaleSeq).await;
        c[idle].intent(next + 5, ActionKind::Pass).await;
        c[idle].expect_error(ErrorCode::StateConflict).await;
        c[idle].intent(next, ActionKind::Play { cards: vec![CardId::ALL[0]], reading: None }).await;
        let m = c[idle].until("error", |m| matches!(m, ServerMsg::Error { .. })).await;
        assert_eq!(code_of(&m), Some(ErrorCode::NotYourTurn.code()), "{m:?}");
        // A card id past the decks is refused as it is read (it cannot make an action), with
        // the id and the range; the room never sees it.
        let bad_id = format!(r#"{{"type":"intent","seq":{next},"nonce":77,"action":{{"type":"play","cards":[200]}}}}"#);
        c[actor].send_text(bad_id).await;
        let m = c[actor].until("error", |m| matches!(m, ServerMsg::Error { .. })).await;
        assert_eq!(code_of(&m), Some(ErrorCode::MalformedMessage.code()), "card 200: {m:?}");
        assert!(format!("{m:?}").contains("card id 200 is out of range 0-107"), "{m:?}");
        let other = CardId::ALL.into_iter().find(|&id| !c[actor].prompt.as_ref().is_some_and(|v| v.hand.contains(id)));
        c[actor].intent(next, ActionKind::Play { cards: other.into_iter().collect(), reading: None }).await;
        let m = c[actor].until("error", |m| matches!(m, ServerMsg::Error { .. })).await;
        assert!(matches!(code_of(&m), Some(1 | 4)), "illegal cards: {m:?}");
        c[actor].intent(next, ActionKind::Timeout).await;
        c[actor].expect_error(ErrorCode::BadArgument).await;
        // Flooding: a burst over the limit is refused, not applied.
        for _ in 0..60 {
            c[2].send(&ClientMsg::Heartbeat).await;
        }
        c[2].until("rate limited", |m| code_of(m) == Some(ErrorCode::RateLimited.code())).await;
        tokio::time::sleep(Duration::from_millis(1600)).await;

        // Nothing changed.
        for (i, x) in c.iter_mut().enumerate() {
            assert_eq!(x.resync_hash().await, before[i], "{}: state changed by bad input", x.name);
        }
        // A legal action with a repeated nonce/seq after it was applied: duplicate.
        let view = c[actor].prompt.clone().expect("prompt kept");
        let _ = view;
        c[actor].prompt = None;
        c[actor].send(&ClientMsg::Resync).await;
        c[actor].until("state", |m| matches!(m, ServerMsg::State { .. })).await;
        let seq = c[actor].act().await.expect("act");
        for x in c.iter_mut() {
            x.sync_to(seq + 1).await;
        }
        let dup = ClientMsg::Intent { seq, nonce: 999_999, action: ActionKind::Pass };
        c[actor].send(&dup).await;
        c[actor].expect_error(ErrorCode::DuplicateSeq).await;
        // The match goes on normally.
        let errors_before: Vec<usize> = c.iter().map(|x| x.errors().len()).collect();
        for x in c.iter_mut() {
            x.log.retain(|m| !matches!(m, ServerMsg::Error { .. }));
        }
        let n = play(&mut c, 20).await;
        assert!(n > seq + 10, "play continued ({n})");
        assert!(errors_before.iter().sum::<usize>() > 10);
        eprintln!("[{db}] bad input: every refusal had its code; state unchanged");
    }
}

/// A random stream of intents (random seq, cards, kinds) and garbage frames from every seat of a
/// live room: each gets an answer, hashes stay equal everywhere, and the match still finishes
/// with a stored log that replays.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn random_intents_against_a_live_room() {
    for db in databases() {
        let server = ServerProc::start(
            &database_url(&db),
            &format!("fuzz-{}", std::process::id()),
            "127.0.0.1:0",
            &["--rate", "1000", "--burst", "1000"],
        );
        let (code, mut c) = four_player_room(server.addr, 99).await;
        let mut rng = ChaCha8Rng::seed_from_u64(7);
        let mut past_the_decks = 0;
        for i in 0..300u64 {
            let who = (rng.next_u32() % 4) as usize;
            let next = c[who].last_seq;
            let seq = (next + (rng.next_u32() % 5) as u64).saturating_sub(2);
            // Ids up to 111: one past the decks cannot make an action, so it goes as raw text
            // (and is refused as it is read, `malformed_message`).
            let numbers: Vec<u64> = (0..(rng.next_u32() % 4)).map(|_| u64::from(rng.next_u32() % 112)).collect();
            let cards: Option<Vec<CardId>> = numbers.iter().map(|&n| CardId::try_from(n as i64).ok()).collect();
            let any_card = |rng: &mut ChaCha8Rng| CardId::ALL[rng.next_u32() as usize % CardId::ALL.len()];
            let action = match rng.next_u32() % 6 {
                0 => ActionKind::Pass,
                1 => match cards {
                    Some(cards) => ActionKind::Play { cards, reading: None },
                    None => {
                        let text = format!(
                            r#"{{"type":"intent","seq":{seq},"nonce":{},"action":{{"type":"play","cards":{numbers:?}}}}}"#,
                            1_000_000 + i
                        );
                        c[who].send_text(text).await;
                        let m = c[who].until("an error", |m| matches!(m, ServerMsg::Error { .. })).await;
                        assert_eq!(code_of(&m), Some(ErrorCode::MalformedMessage.code()), "{numbers:?}: {m:?}");
                        past_the_decks += 1;
                        continue;
                    }
                },
                2 => ActionKind::Tribute { card: any_card(&mut rng) },
                3 => ActionKind::Return { card: any_card(&mut rng) },
                4 => ActionKind::SurrenderVote { accept: rng.next_u32() % 2 == 0 },
                _ => ActionKind::Play { cards: vec![], reading: None },
            };
            if i % 7 == 0 {
                let junk: String =
                    (0..(rng.next_u32() % 40)).map(|_| (b' ' + (rng.next_u32() % 90) as u8) as char).collect();
                c[who].send_text(junk).await;
            } else {
                c[who].intent(seq, action).await;
            }
            // Every intent is answered (an error, or the action announced).
            let m =
                c[who].until("an answer", |m| matches!(m, ServerMsg::Error { .. } | ServerMsg::Applied { .. })).await;
            if let ServerMsg::Applied { action_seq, .. } = m {
                for x in c.iter_mut() {
                    x.sync_to(action_seq).await;
                }
            }
            // Keep the table moving now and then.
            if i % 10 == 0
                && let Some(k) = c.iter().position(|x| x.prompt.is_some())
            {
                let s = c[k].act().await.expect("act");
                for x in c.iter_mut() {
                    x.sync_to(s + 1).await;
                }
            }
        }
        assert!(past_the_decks > 0, "the stream sent a card id past the decks");
        let mut hashes = Vec::new();
        for x in c.iter_mut() {
            hashes.push(x.resync_hash().await);
        }
        assert!(hashes.iter().all(|h| *h == hashes[0]), "every seat agrees after the fuzz");
        for x in c.iter_mut() {
            x.log.retain(|m| !matches!(m, ServerMsg::Error { .. }));
        }
        play(&mut c, 20_000).await;
        let no = wait_stored(&mut c).await;
        let (_, log) = stored_log(server.addr, &code, no);
        let states = states(&log);
        for x in &c {
            scan(x, &log, &states, x.seat, None);
        }
        eprintln!(
            "[{db}] random intents ({past_the_decks} with a card id past the decks): match finished after {} actions",
            log.actions.len()
        );
    }
}
