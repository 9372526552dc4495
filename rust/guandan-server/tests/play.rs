//! Whole matches over real WebSockets against the real server binary, on SQLite and (when
//! configured) PostgreSQL: every message every client receives is scanned for hidden cards,
//! every state hash is checked against a replay of the stored log.

mod common;
use common::*;
use guandan_core::seat::Seat;
use guandan_proto::{ClientMsg, SeatSetting, ServerMsg};

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn four_clients_play_a_whole_match_and_see_no_hidden_card() {
    for db in databases() {
        let url = database_url(&db);
        let server = ServerProc::start(&url, &format!("play-{}", std::process::id()), "127.0.0.1:0", &[]);
        let (code, mut clients) = four_player_room(server.addr, 20_261_201).await;
        let n = play(&mut clients, 20_000).await;
        let match_no = wait_stored(&mut clients).await;
        let (meta, log) = stored_log(server.addr, &code, match_no);
        assert_eq!(log.actions.len() as u64, n, "stored actions = actions announced");
        let states = states(&log);
        let last = states.last().unwrap();
        assert!(last.is_over(), "the match finished");
        assert_eq!(meta["state_hash"].as_str(), Some(last.state_hash().as_str()));
        assert_eq!(meta["actions"].as_u64(), Some(n));
        assert_eq!(meta["players"].as_array().map(Vec::len), Some(4));
        let mut scanned = 0;
        for c in &clients {
            scanned += scan(c, &log, &states, c.seat, Some(0));
            assert!(c.errors().is_empty(), "{:?}", c.errors());
        }
        assert!(scanned >= 4 * n as usize, "every action reached every client ({scanned} messages, {n} actions)");
        eprintln!("[{db}] whole match: {n} actions, {scanned} messages scanned");
        // A seat that lost its connection three actions before the end and returns during the
        // vote gets those three actions (from the stored match), not a full state.
        clients[1].reconnect(server.addr).await;
        clients[1].send(&ClientMsg::JoinRoom { code: code.clone(), last_action_seq: Some(n - 3) }).await;
        clients[1].until("joined", |m| matches!(m, ServerMsg::Joined { .. })).await;
        let mut caught_up = Vec::new();
        for _ in 0..3 {
            match clients[1].recv().await {
                ServerMsg::Applied { action_seq, .. } => caught_up.push(action_seq),
                other => panic!("catch-up after the end: expected applied, got {other:?}"),
            }
        }
        assert_eq!(caught_up, vec![n - 2, n - 1, n]);
        // The room unlocks after the vote: everyone declines, the room empties and closes.
        for c in clients.iter_mut() {
            c.send(&ClientMsg::Rematch { accept: false }).await;
        }
        clients[0]
            .until(
                "closed",
                |m| matches!(m, ServerMsg::Room { room } if room.state == guandan_proto::RoomState::Destroyed),
            )
            .await;
    }
}

/// One human, three AI seats (levels per seat), and a spectator with a 3-round delay who never
/// sees a hand and never sees a round earlier than three table-clears later.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn ai_seats_and_a_delayed_spectator() {
    for db in databases() {
        let url = database_url(&db);
        let server = ServerProc::start(&url, &format!("spec-{}", std::process::id()), "127.0.0.1:0", &[]);
        let mut host = Client::new(server.addr, "host").await;
        let code = create_room(&mut host, 77, Some(3)).await;
        for (seat, level) in [(Seat::ONE, 1), (Seat::TWO, 2), (Seat::THREE, 1)] {
            host.send(&ClientMsg::SetSeat { seat, setting: SeatSetting::Ai { level } }).await;
        }
        let mut spectator = Client::new(server.addr, "watcher").await;
        spectator.send(&ClientMsg::Spectate { code: code.clone() }).await;
        spectator.until("joined", |m| matches!(m, ServerMsg::Joined { seat: None, .. })).await;
        // A spectator cannot act.
        spectator.intent(0, guandan_core::game::ActionKind::Pass).await;
        let e = spectator.until("error", |m| matches!(m, ServerMsg::Error { .. })).await;
        assert!(matches!(e, ServerMsg::Error { code: 49, .. }), "{e:?}");
        let mut clients = vec![host];
        start_when_ready(&mut clients).await;
        let mut max_seen_by_spectator = 0u64;
        let mut checks = 0;
        let mut beat = std::time::Instant::now();
        for _ in 0..20_000 {
            if beat.elapsed() > std::time::Duration::from_secs(1) {
                clients[0].send(&ClientMsg::Heartbeat).await;
                spectator.send(&ClientMsg::Heartbeat).await;
                beat = std::time::Instant::now();
            }
            let m = clients[0].recv().await;
            if matches!(m, ServerMsg::MatchStored { .. }) {
                break;
            }
            // Check only while the server waits for the host to play: then everything up to
            // the host's last action has been sent, and nothing newer exists.
            let Some(view) = clients[0].prompt.clone() else { continue };
            if view.phase == guandan_core::game::Phase::Play {
                while let Some(m) = spectator.try_recv(std::time::Duration::from_millis(20)).await {
                    if let ServerMsg::Applied { action_seq, .. } = m {
                        max_seen_by_spectator = max_seen_by_spectator.max(action_seq);
                    }
                }
                let ends = round_ends(&clients[0].log);
                let allowed = if ends.len() >= 3 { ends[ends.len() - 3] } else { 0 };
                assert!(max_seen_by_spectator <= allowed, "spectator at {max_seen_by_spectator}, allowed {allowed}");
                checks += 1;
            }
            clients[0].act().await;
        }
        let match_no = match clients[0].log.iter().find(|m| matches!(m, ServerMsg::MatchStored { .. })) {
            Some(ServerMsg::MatchStored { match_no, .. }) => *match_no,
            _ => panic!("match did not finish"),
        };
        spectator.stored().await;
        let (_, log) = stored_log(server.addr, &code, match_no);
        let states = states(&log);
        scan(&clients[0], &log, &states, Some(Seat::ZERO), Some(0));
        let seen = scan(&spectator, &log, &states, None, None);
        let spectator_actions = spectator.log.iter().filter(|m| matches!(m, ServerMsg::Applied { .. })).count();
        assert_eq!(spectator_actions, log.actions.len(), "the spectator saw every action once, delayed");
        assert!(seen > 100 && checks > 100);
        for m in &spectator.log {
            if let ServerMsg::State { view, .. } = m {
                assert!(view.hand.is_empty() && view.seat.is_none(), "spectator state has no hand");
            }
        }
        eprintln!("[{db}] AI seats + spectator: {} actions, {seen} spectator messages scanned", log.actions.len());
    }
}

/// Action counts after which a round ended (table cleared or a new deal), as one client saw them.
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
