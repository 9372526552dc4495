//! Hostile clients, continued (issue 37, items 6 and 7): what a client can do with the WebSocket
//! framing below the messages (fragments, control frames), and with a second connection of its
//! own account. Raw frames are written on a loopback TCP socket after a real handshake. Every
//! loop is bounded and every wait has a deadline.

mod common;
use common::*;
use guandan_proto::http::WS_PATH;
use guandan_proto::{ClientMsg, ErrorCode, PROTOCOL_VERSION, ServerMsg};
use guandan_server::ws_guard::client_frame;
use std::net::SocketAddr;
use std::time::{Duration, Instant};
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpStream;

const TEXT: u8 = 1;
const CONTINUATION: u8 = 0;
const CLOSE: u8 = 8;
const PING: u8 = 9;
const PONG: u8 = 10;

/// A WebSocket spoken by hand over a TCP socket.
struct RawWs {
    tcp: TcpStream,
    /// Bytes read and not parsed yet.
    buf: Vec<u8>,
    masks: u32,
}

impl RawWs {
    /// Handshake, `hello` with the account's token, and the welcome.
    async fn open(addr: SocketAddr, player_id: &str, token: &str) -> RawWs {
        let mut tcp = TcpStream::connect(addr).await.expect("connect");
        let request = format!(
            "GET {WS_PATH} HTTP/1.1\r\nHost: {addr}\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n\
             Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n"
        );
        tcp.write_all(request.as_bytes()).await.expect("handshake");
        let mut buf = Vec::new();
        let head_end = loop {
            if let Some(i) = buf.windows(4).position(|w| w == b"\r\n\r\n") {
                break i + 4;
            }
            let mut part = [0u8; 1024];
            let n = tokio::time::timeout(WAIT, tcp.read(&mut part)).await.expect("101 in time").expect("read");
            assert!(n > 0, "closed during the handshake");
            buf.extend_from_slice(&part[..n]);
        };
        let head = String::from_utf8_lossy(&buf[..head_end]).to_string();
        assert!(head.starts_with("HTTP/1.1 101"), "{head}");
        assert!(head.contains("s3pPLMBiTxaQ9kYGzzhZRbK+xOo="), "the accept key (RFC 6455's example): {head}");
        buf.drain(..head_end);
        let mut ws = RawWs { tcp, buf, masks: 0 };
        let hello =
            ClientMsg::Hello { protocol_version: PROTOCOL_VERSION, player_id: player_id.into(), token: token.into() };
        ws.send_text(&serde_json::to_string(&hello).unwrap()).await;
        let welcome = ws.next_msg().await.expect("welcome");
        assert!(matches!(welcome, ServerMsg::Welcome { .. }), "{welcome:?}");
        ws
    }

    fn mask(&mut self) -> [u8; 4] {
        self.masks = self.masks.wrapping_mul(1_664_525).wrapping_add(1_013_904_223);
        self.masks.to_le_bytes()
    }

    fn frame(&mut self, fin: bool, opcode: u8, payload: &[u8]) -> Vec<u8> {
        let m = self.mask();
        client_frame(fin, opcode, payload, m)
    }

    async fn write(&mut self, bytes: &[u8]) -> std::io::Result<()> {
        self.tcp.write_all(bytes).await
    }

    async fn send_text(&mut self, t: &str) {
        let f = self.frame(true, TEXT, t.as_bytes());
        self.write(&f).await.expect("send");
    }

    /// `t` as one message in `parts` frames (a ping between the first two).
    async fn send_fragmented(&mut self, t: &str, parts: usize) -> std::io::Result<()> {
        let bytes = t.as_bytes();
        let step = bytes.len().div_ceil(parts);
        let mut out = Vec::new();
        for k in 0..parts {
            let piece = &bytes[(k * step).min(bytes.len())..((k + 1) * step).min(bytes.len())];
            let op = if k == 0 { TEXT } else { CONTINUATION };
            out.extend(self.frame(k + 1 == parts, op, piece));
            if k == 0 {
                out.extend(self.frame(true, PING, b"between"));
            }
        }
        self.write(&out).await
    }

    /// The next server frame (opcode, payload); `None` at the end of the stream, a reset or
    /// after `wait`.
    async fn next_frame(&mut self, wait: Duration) -> Option<(u8, Vec<u8>)> {
        let until = tokio::time::Instant::now() + wait;
        loop {
            if self.buf.len() >= 2 {
                let (b0, b1) = (self.buf[0], self.buf[1]);
                let (len, at) = match b1 & 0x7f {
                    126 if self.buf.len() >= 4 => (u16::from_be_bytes([self.buf[2], self.buf[3]]) as usize, 4),
                    127 if self.buf.len() >= 10 => {
                        (u64::from_be_bytes(self.buf[2..10].try_into().unwrap()) as usize, 10)
                    }
                    126 | 127 => (usize::MAX, 0),
                    n => (n as usize, 2),
                };
                if at > 0 && self.buf.len() >= at + len {
                    let payload = self.buf[at..at + len].to_vec();
                    self.buf.drain(..at + len);
                    return Some((b0 & 0x0f, payload));
                }
            }
            let mut part = [0u8; 4096];
            match tokio::time::timeout_at(until, self.tcp.read(&mut part)).await {
                Ok(Ok(n)) if n > 0 => self.buf.extend_from_slice(&part[..n]),
                _ => return None,
            }
        }
    }

    /// The next protocol message (control frames skipped); `None` once the connection ends.
    async fn next_msg(&mut self) -> Option<ServerMsg> {
        for _ in 0..10_000 {
            match self.next_frame(WAIT).await? {
                (TEXT, p) => return Some(serde_json::from_slice(&p).expect("server json")),
                (CLOSE, _) => return None,
                _ => continue,
            }
        }
        None
    }

    /// Everything up to the end of the connection: its messages, and whether a Close frame came.
    async fn rest(&mut self) -> (Vec<ServerMsg>, bool) {
        let mut msgs = Vec::new();
        for _ in 0..10_000 {
            match self.next_frame(WAIT).await {
                Some((TEXT, p)) => msgs.push(serde_json::from_slice(&p).expect("server json")),
                Some((CLOSE, _)) => return (msgs, true),
                Some(_) => {}
                None => return (msgs, false),
            }
        }
        (msgs, false)
    }
}

fn error_code(m: &ServerMsg) -> Option<i32> {
    match m {
        ServerMsg::Error { code, .. } => Some(*code),
        _ => None,
    }
}

/// CPU seconds the process has used (user + system, from /proc).
fn cpu_seconds(pid: u32) -> f64 {
    let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).unwrap_or_default();
    let after = stat.rsplit_once(')').map_or("", |(_, r)| r);
    let f: Vec<&str> = after.split_whitespace().collect();
    let ticks: f64 =
        f.get(11).and_then(|u| u.parse().ok()).unwrap_or(0.0) + f.get(12).and_then(|s| s.parse().ok()).unwrap_or(0.0);
    ticks / 100.0
}

/// What one flooding connection saw.
struct Round {
    frames: usize,
    refused: bool,
    closed: bool,
}

/// One connection: a text frame without FIN, then empty continuations in batches of 64 — each
/// batch waits up to 2 ms for the server to say anything — until the server answers or 2,000
/// batches (128,000 frames) are out; then everything the server sends until it closes.
async fn flood_once(addr: SocketAddr, id: &str, token: &str) -> Round {
    let mut ws = RawWs::open(addr, id, token).await;
    let opening = ws.frame(false, TEXT, b"{");
    ws.write(&opening).await.expect("first fragment");
    let mut batch = Vec::new();
    for _ in 0..64 {
        batch.extend(ws.frame(false, CONTINUATION, b""));
    }
    let mut frames = 1;
    for _ in 0..2_000 {
        if ws.write(&batch).await.is_err() {
            break;
        }
        frames += 64;
        if tokio::time::timeout(Duration::from_millis(2), ws.tcp.readable()).await.is_ok() {
            break;
        }
    }
    let (msgs, closed) = ws.rest().await;
    let refused = msgs.iter().any(|m| error_code(m) == Some(ErrorCode::FrameTooLarge.code()));
    Round { frames, refused, closed }
}

/// Item 6: after `hello`, a text frame without FIN and an endless run of empty continuation
/// frames. Each such connection is refused (`frame_too_large`) and closed after the frame that
/// makes a message 17 frames long — whatever else it sent is never parsed — while four of them
/// flood, connection after connection, beside a room of four players that keeps playing: every
/// action goes through, no player is refused anything and no seat is handed to the AI.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn endless_empty_continuation_frames_are_cut_off_and_a_room_beside_them_plays_on() {
    let server =
        ServerProc::start(&database_url("sqlite"), &format!("cont-{}", std::process::id()), "127.0.0.1:0", &[]);
    let addr = server.addr;
    let (_code, mut clients) = four_player_room(addr, 7_373).await;
    let t0 = Instant::now();
    play(&mut clients, 30).await;
    let calm = 30.0 / t0.elapsed().as_secs_f64();

    let mut floods = Vec::new();
    for k in 0..4 {
        let (id, token) = register(addr, &format!("flood{k}"));
        floods.push(tokio::spawn(async move {
            // Connection after connection (10), until one is not refused.
            let mut rounds = Vec::new();
            for _ in 0..10 {
                let r = flood_once(addr, &id, &token).await;
                let refused = r.refused;
                rounds.push(r);
                if !refused {
                    break;
                }
                tokio::time::sleep(Duration::from_millis(20)).await;
            }
            rounds
        }));
    }
    let cpu0 = cpu_seconds(server.pid());
    let (t1, seq1) = (Instant::now(), clients[0].last_seq);
    // The room plays on meanwhile (bounded: 200 rounds of 10 actions, or the match's end).
    for _ in 0..200 {
        if floods.iter().all(|f| f.is_finished())
            || clients[0].log.iter().any(|m| matches!(m, ServerMsg::MatchStored { .. }))
        {
            break;
        }
        play(&mut clients, 10).await;
    }
    let (secs, acted) = (t1.elapsed().as_secs_f64(), clients[0].last_seq - seq1);
    let mut rounds = Vec::new();
    for f in floods {
        rounds.extend(f.await.expect("flooder"));
    }
    let cpu = cpu_seconds(server.pid()) - cpu0;
    let frames: usize = rounds.iter().map(|r| r.frames).sum();
    eprintln!(
        "room: {calm:.1} actions/s alone, {:.1} beside the flood ({acted} actions in {secs:.1} s); {} flooding connections \
         sent {frames} frames; server CPU {cpu:.2} s in that time",
        acted as f64 / secs,
        rounds.len()
    );
    assert!(acted > 0, "the room played nothing beside the flood");
    for (i, r) in rounds.iter().enumerate() {
        assert!(r.refused, "flooding connection {i}: no frame_too_large after {} frames", r.frames);
        assert!(r.closed, "flooding connection {i}: not closed with a Close frame");
    }
    let refused = metric(addr, "guandan_ws_fragments_refused_total").expect("metric");
    assert_eq!(refused as usize, rounds.len(), "every flooding connection refused once");
    for c in &clients {
        assert!(c.errors().is_empty(), "{}: {:?}", c.name, c.errors());
        let hosted = c.log.iter().any(|m| matches!(m, ServerMsg::Hosting { on: true, .. }));
        assert!(!hosted, "{}: a seat was handed to the AI during the flood", c.name);
    }
}

/// Item 6: a message may come in up to 16 frames (a ping between them is no fragment); one of 17
/// frames is refused with `frame_too_large` and the connection closed.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn fragmented_messages_pass_up_to_16_frames_and_no_further() {
    let server =
        ServerProc::start(&database_url("sqlite"), &format!("frag-{}", std::process::id()), "127.0.0.1:0", &[]);
    let addr = server.addr;
    let (id, token) = register(addr, "fragments");
    let mut ws = RawWs::open(addr, &id, &token).await;
    let heartbeat = serde_json::to_string(&ClientMsg::Heartbeat).unwrap();
    for parts in [3, 16] {
        ws.send_fragmented(&heartbeat, parts).await.expect("send");
        // The ping between the fragments is answered, and the message is.
        let mut pong_frame = false;
        let answer = loop {
            match ws.next_frame(WAIT).await {
                Some((PONG, p)) => {
                    assert_eq!(p, b"between");
                    pong_frame = true;
                }
                Some((TEXT, p)) => break serde_json::from_slice::<ServerMsg>(&p).expect("json"),
                other => panic!("{parts} fragments: {other:?}"),
            }
        };
        assert!(matches!(answer, ServerMsg::Pong), "{parts} fragments: {answer:?}");
        assert!(pong_frame, "{parts} fragments: the ping between them was not answered");
    }
    ws.send_fragmented(&heartbeat, 17).await.expect("send");
    let (msgs, closed) = ws.rest().await;
    let refusal = msgs.iter().find(|m| error_code(m).is_some());
    assert!(
        matches!(refusal, Some(ServerMsg::Error { code, message, .. })
            if *code == ErrorCode::FrameTooLarge.code() && message.contains("frames")),
        "17 fragments: {msgs:?}"
    );
    assert!(!msgs.iter().any(|m| matches!(m, ServerMsg::Pong)), "17 fragments were answered: {msgs:?}");
    assert!(closed, "the connection ends with a Close frame");
    assert_eq!(metric(addr, "guandan_ws_fragments_refused_total"), Some(1.0));
}

/// Item 7b: a second connection with the same token takes the seat (the newest wins: a player
/// who reopened the game elsewhere gets in); the first is told `session_replaced` and closed.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_second_connection_of_an_account_takes_its_seat_and_the_first_is_told_and_closed() {
    for db in databases() {
        let server =
            ServerProc::start(&database_url(&db), &format!("twice-{}", std::process::id()), "127.0.0.1:0", &[]);
        let addr = server.addr;
        let mut first = Client::new(addr, "first").await;
        let code = create_room(&mut first, 11, None).await;
        let seat = first.seat.expect("seated");
        let mut second = Client::login(addr, "second", first.player_id.clone(), first.token.clone()).await;
        second.send(&ClientMsg::JoinRoom { code: code.clone(), last_action_seq: None }).await;
        let joined = second.until("joined", |m| matches!(m, ServerMsg::Joined { .. })).await;
        assert!(matches!(joined, ServerMsg::Joined { seat: Some(s), .. } if s == seat), "[{db}] {joined:?}");
        // The first connection: told, then closed.
        let told = first.until("an error", |m| matches!(m, ServerMsg::Error { .. })).await;
        assert!(
            matches!(&told, ServerMsg::Error { code: c, message, .. }
                if *c == ErrorCode::SessionReplaced.code() && message.contains(&code)),
            "[{db}] {told:?}"
        );
        let mut ended = false;
        for _ in 0..100 {
            match tokio::time::timeout(WAIT, futures_util::StreamExt::next(&mut first.ws)).await {
                Ok(Some(Ok(tokio_tungstenite::tungstenite::Message::Close(_)))) | Ok(None) | Ok(Some(Err(_))) => {
                    ended = true;
                    break;
                }
                Ok(Some(Ok(_))) => {}
                Err(_) => break,
            }
        }
        assert!(ended, "[{db}] the replaced connection was not closed");
        // The second holds the seat: it may move it (a lobby seat); the room sees one player,
        // connected.
        let to = seat.next();
        second.send(&ClientMsg::ChangeSeat { seat: to }).await;
        let moved = second.until("moved", |m| matches!(m, ServerMsg::Joined { .. } | ServerMsg::Error { .. })).await;
        assert!(matches!(moved, ServerMsg::Joined { seat: Some(s), .. } if s == to), "[{db}] {moved:?}");
        let room = second
            .until(
                "the room after the move",
                |m| matches!(m, ServerMsg::Room { room } if room.seats[to.index()].player.is_some()),
            )
            .await;
        let ServerMsg::Room { room } = room else { unreachable!() };
        assert!(room.seats[to.index()].connected);
        assert_eq!(room.seats.iter().filter(|s| s.player.is_some()).count(), 1, "[{db}] {room:?}");
        assert!(second.errors().is_empty(), "[{db}] {:?}", second.errors());
        assert_eq!(metric(addr, "guandan_sessions_replaced_total"), Some(1.0));
    }
}

/// Item 7c: one seat per account. Seated in a friend room, another connection of the account
/// is refused (`already_seated`, naming the room) the quick-match queue, a seat in another room
/// and a room of its own; it may go back to its own seat, and once it has left the room it may
/// queue.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_account_holds_one_seat_on_an_instance() {
    for db in databases() {
        let server = ServerProc::start(&database_url(&db), &format!("one-{}", std::process::id()), "127.0.0.1:0", &[]);
        let addr = server.addr;
        let mut seated = Client::new(addr, "seated").await;
        let code = create_room(&mut seated, 12, None).await;
        let mut other_host = Client::new(addr, "other").await;
        let other = create_room(&mut other_host, 13, None).await;
        let mut again = Client::login(addr, "again", seated.player_id.clone(), seated.token.clone()).await;
        let refused_naming = |m: &ServerMsg| {
            matches!(m, ServerMsg::Error { code: c, message, .. }
                if *c == ErrorCode::AlreadySeated.code() && message.contains(&code))
        };
        let is_answer = |m: &ServerMsg| {
            matches!(m, ServerMsg::Error { .. } | ServerMsg::Joined { .. } | ServerMsg::QueueStatus { .. })
        };
        again.send(&ClientMsg::QueueJoin { rules: None }).await;
        let m = again.until("an answer to queue_join", is_answer).await;
        assert!(refused_naming(&m), "[{db}] queue_join while seated in {code}: {m:?}");
        again.send(&ClientMsg::JoinRoom { code: other.clone(), last_action_seq: None }).await;
        let m = again.until("an answer to join_room", is_answer).await;
        assert!(refused_naming(&m), "[{db}] join_room {other} while seated in {code}: {m:?}");
        again
            .send(&ClientMsg::CreateRoom { rules: None, spectator_delay: None, seed: Some(14), spectator_hands: None })
            .await;
        let m = again.until("an answer to create_room", is_answer).await;
        assert!(refused_naming(&m), "[{db}] create_room while seated in {code}: {m:?}");
        // Nothing changed in the other room.
        other_host.send(&ClientMsg::Resync).await;
        let room = other_host.until("its room", |m| matches!(m, ServerMsg::Room { .. })).await;
        let ServerMsg::Room { room } = room else { unreachable!() };
        assert_eq!(room.seats.iter().filter(|s| s.player.is_some()).count(), 1, "[{db}] {room:?}");
        // Back to its own seat from the new connection, then out of the room: free to queue.
        again.send(&ClientMsg::JoinRoom { code: code.clone(), last_action_seq: None }).await;
        let m = again.until("an answer to join_room", is_answer).await;
        assert!(matches!(m, ServerMsg::Joined { seat: Some(_), .. }), "[{db}] back to its own seat: {m:?}");
        again.send(&ClientMsg::Leave).await;
        again.send(&ClientMsg::QueueJoin { rules: None }).await;
        let m = again.until("an answer to queue_join", is_answer).await;
        assert!(matches!(m, ServerMsg::QueueStatus { queued: true, .. }), "[{db}] queue_join after leaving: {m:?}");
        assert!(metric(addr, "guandan_seats_refused_total").unwrap_or(0.0) >= 3.0);
    }
}
