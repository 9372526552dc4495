use super::*;
use crate::TableView;
use guandan_core::game::Match;
use guandan_core::rules::RuleConfig;
use proptest::prelude::*;

fn view() -> TableView {
    let (m, _) = Match::new(7, RuleConfig::competition()).unwrap();
    m.view(Some(Seat::ZERO))
}

fn state(seq: u64) -> ServerMsg {
    ServerMsg::State { action_seq: seq, state_hash: "h".into(), view: view(), outcome: None, time_left_s: None }
}

fn applied(seq: u64, actions: u32) -> ServerMsg {
    ServerMsg::Applied {
        action_seq: seq,
        actions,
        state_hash: "h".into(),
        seat: Seat::ONE,
        events: Vec::new(),
        prompt: None,
    }
}

fn welcome() -> ServerMsg {
    ServerMsg::Welcome {
        protocol_version: PROTOCOL_VERSION,
        player_id: "p".into(),
        instance: "main".into(),
        token: None,
    }
}

/// A session welcomed and seated in room `ROOMAA` at seat 2.
fn seated(cfg: SessionConfig) -> (Session, Instant) {
    let t = Instant::now();
    let mut s = Session::new("p", "t", cfg);
    let hello = s.opened(t);
    assert!(matches!(hello, ClientMsg::Hello { protocol_version: PROTOCOL_VERSION, .. }));
    let (e, send) = s.received(welcome(), t);
    assert_eq!(e, Event::Welcomed { player_id: "p".into(), reconnect: false });
    assert!(send.is_empty());
    s.received(ServerMsg::Joined { code: "ROOMAA".into(), seat: Some(Seat::TWO) }, t);
    (s, t)
}

fn order(s: &mut Session, m: ServerMsg, t: Instant) -> (Order, Vec<ClientMsg>) {
    let (e, send) = s.received(m, t);
    for m in &send {
        s.sending(m, t);
    }
    match e {
        Event::Message(_, o) => (o, send),
        other => panic!("{other:?}"),
    }
}

#[test]
fn refusals_of_hello_say_whose_version_is_old() {
    let t = Instant::now();
    let mut s = Session::new("p", "t", SessionConfig::default());
    s.opened(t);
    let too_old = ServerMsg::error(ErrorCode::ProtocolTooOld, "protocol 1 is too old: please update the game");
    let (e, _) = s.received(too_old, t);
    assert!(matches!(e, Event::Refused(Refusal::ClientTooOld { .. })), "{e:?}");
    s.opened(t);
    let (e, _) = s.received(
        ServerMsg::Welcome { protocol_version: 0, player_id: "p".into(), instance: "i".into(), token: None },
        t,
    );
    let Event::Refused(r) = e else { panic!("{e:?}") };
    assert_eq!(r, Refusal::ServerTooOld { server_version: 0 });
    assert_eq!(r.code(), ErrorCode::ProtocolTooOld);
    assert!(r.message().contains("update the server"));
    s.opened(t);
    let (e, _) = s.received(ServerMsg::error(ErrorCode::AuthFailed, "bad token"), t);
    assert_eq!(e, Event::Refused(Refusal::Other { code: ErrorCode::AuthFailed, message: "bad token".into() }));
}

#[test]
fn a_session_replaced_by_a_newer_connection_ends_and_is_not_resumed() {
    let (mut s, t) = seated(SessionConfig::default());
    // Any other error is a message of the session (a refused intent, a full room…).
    let (e, _) = s.received(ServerMsg::error(ErrorCode::RoomFull, "full"), t);
    assert!(matches!(e, Event::Message(..)), "{e:?}");
    let (e, send) = s.received(ServerMsg::error(ErrorCode::SessionReplaced, "taken by a newer connection"), t);
    assert_eq!(
        e,
        Event::Refused(Refusal::Other {
            code: ErrorCode::SessionReplaced,
            message: "taken by a newer connection".into()
        })
    );
    assert!(send.is_empty(), "nothing answers it: {send:?}");
    assert!(!s.is_up());
}

#[test]
fn a_silent_server_times_the_hello_out_and_a_never_reached_one_is_given_up() {
    let t = Instant::now();
    let mut s = Session::new("p", "t", SessionConfig::default());
    s.opened(t);
    assert_eq!(s.tick(t + Duration::from_secs(1)), Ok(None));
    assert!(s.tick(t + Duration::from_secs(6)).is_err());
    assert_eq!(s.dropped(t, 1), Reconnect::GiveUp, "never welcomed: nothing to come back to");
}

#[test]
fn heartbeats_only_when_quiet_and_pongs_give_the_round_trip() {
    let (mut s, t) = seated(SessionConfig::default());
    s.sending(&ClientMsg::Ready { ready: true }, t);
    assert_eq!(s.tick(t + Duration::from_secs(2)), Ok(None));
    let at = t + Duration::from_secs(3);
    let beat = s.tick(at).unwrap().expect("a heartbeat after 2.5 s of silence");
    s.sending(&beat, at);
    assert_eq!(s.tick(at + Duration::from_secs(1)), Ok(None));
    let (e, _) = s.received(ServerMsg::Pong, at + Duration::from_millis(40));
    assert_eq!(e, Event::Latency(Duration::from_millis(40)));
}

/// A stalled server (SIGSTOP, a frozen machine) keeps the socket open and answers nothing: the
/// heartbeat's wait grows from the first unanswered one, and the late pong ends it.
#[test]
fn an_unanswered_heartbeat_tells_how_long_the_server_has_been_silent() {
    let (mut s, t) = seated(SessionConfig::default());
    assert_eq!(s.unanswered(t), None, "nothing asked yet");
    let at = t + Duration::from_secs(3);
    let beat = s.tick(at).unwrap().expect("a heartbeat");
    s.sending(&beat, at);
    assert_eq!(s.unanswered(at + Duration::from_secs(2)), Some(Duration::from_secs(2)));
    // More heartbeats go while it is silent; the wait counts from the first.
    let later = at + Duration::from_secs(3);
    let again = s.tick(later).unwrap().expect("another heartbeat");
    s.sending(&again, later);
    assert_eq!(s.unanswered(at + Duration::from_secs(10)), Some(Duration::from_secs(10)));
    let (e, _) = s.received(ServerMsg::Pong, at + Duration::from_secs(12));
    assert_eq!(e, Event::Latency(Duration::from_secs(12)));
    assert_eq!(s.unanswered(at + Duration::from_secs(12)), None, "answered");
    s.dropped(at + Duration::from_secs(13), 0);
    assert_eq!(s.unanswered(at + Duration::from_secs(14)), None, "no connection: nothing to wait for");
}

#[test]
fn a_reconnect_goes_back_to_the_room_with_the_last_seq() {
    let (mut s, t) = seated(SessionConfig::default());
    order(&mut s, state(0), t);
    order(&mut s, applied(1, 1), t);
    order(&mut s, applied(3, 2), t);
    let Reconnect::After(w) = s.dropped(t, 5) else { panic!("gives up at once") };
    assert!(w <= Duration::from_millis(250));
    s.opened(t + w);
    let (e, send) = s.received(welcome(), t + w);
    assert_eq!(e, Event::Welcomed { player_id: "p".into(), reconnect: true });
    assert_eq!(send, vec![ClientMsg::JoinRoom { code: "ROOMAA".into(), last_action_seq: Some(3) }, ClientMsg::Resync]);
    // A spectator comes back as a spectator; a client that needs no whole state asks none.
    let cfg = SessionConfig { resync_on_rejoin: false, ..SessionConfig::default() };
    let (mut s, t) = seated(cfg);
    s.received(ServerMsg::Joined { code: "ROOMBB".into(), seat: None }, t);
    s.dropped(t, 0);
    s.opened(t);
    let (_, send) = s.received(welcome(), t);
    assert_eq!(send, vec![ClientMsg::Spectate { code: "ROOMBB".into() }]);
    // A state asked for on a connection that dropped is asked for again.
    s.received(ServerMsg::Joined { code: "ROOMBB".into(), seat: Some(Seat::ONE) }, t);
    order(&mut s, state(2), t);
    let (o, send) = order(&mut s, applied(9, 1), t);
    assert_eq!((o, send), (Order::Gap { expected: 3, got_first: 9 }, vec![ClientMsg::Resync]));
    s.dropped(t, 0);
    s.opened(t);
    let (_, send) = s.received(welcome(), t);
    assert_eq!(send, vec![ClientMsg::JoinRoom { code: "ROOMBB".into(), last_action_seq: Some(2) }, ClientMsg::Resync]);
    // After leaving there is nothing to go back to.
    s.sending(&ClientMsg::Leave, t);
    s.dropped(t, 0);
    s.opened(t);
    assert_eq!(s.received(welcome(), t).1, Vec::new());
}

/// A room that closed while the player was away refuses the rejoin: the session says the room
/// is gone (not a stray error the table would never answer) and does not go back to it again. A
/// `room_not_found` to a join the player asked for while seated is only a message.
#[test]
fn a_refused_rejoin_means_the_room_is_gone() {
    let (mut s, t) = seated(SessionConfig::default());
    order(&mut s, state(4), t);
    let refusal = || ServerMsg::error(ErrorCode::RoomNotFound, "the room is closed");
    // While seated, a refused join of another code leaves our room as it was.
    assert!(matches!(s.received(refusal(), t).0, Event::Message(..)));
    assert_eq!(s.room(), Some(("ROOMAA", Some(Seat::TWO))));
    s.dropped(t, 0);
    s.opened(t);
    let (_, send) = s.received(welcome(), t);
    assert_eq!(send[0], ClientMsg::JoinRoom { code: "ROOMAA".into(), last_action_seq: Some(4) });
    let (e, send) = s.received(refusal(), t);
    assert_eq!(e, Event::RoomGone { code: "ROOMAA".into(), message: "the room is closed".into() });
    assert!(send.is_empty());
    assert_eq!(s.room(), None);
    s.dropped(t, 0);
    s.opened(t);
    assert_eq!(s.received(welcome(), t).1, Vec::new(), "nothing to go back to");
    // A rejoin that is answered is not gone: a later refusal is a message again.
    let (mut s, t) = seated(SessionConfig::default());
    s.dropped(t, 0);
    s.opened(t);
    s.received(welcome(), t);
    s.received(ServerMsg::Joined { code: "ROOMAA".into(), seat: Some(Seat::TWO) }, t);
    assert!(matches!(s.received(refusal(), t).0, Event::Message(..)));
    assert_eq!(s.room(), Some(("ROOMAA", Some(Seat::TWO))));
}

#[test]
fn the_backoff_is_reset_by_a_welcome_and_runs_out() {
    let (mut s, t) = seated(SessionConfig::default());
    let mut now = t;
    let mut waits = 0;
    while let Reconnect::After(w) = s.dropped(now, waits) {
        now += w;
        waits += 1;
        assert!(waits < 1000);
    }
    assert!(now - t >= Duration::from_secs(60), "gave up after {:?}", now - t);
    let (mut s, t) = seated(SessionConfig::default());
    for k in 0..6 {
        s.dropped(t + Duration::from_secs(k), 0);
    }
    s.opened(t);
    s.received(welcome(), t);
    assert_eq!(s.attempts(), 0);
}

#[test]
fn a_refused_intent_is_no_longer_in_flight() {
    let (mut s, t) = seated(SessionConfig::default());
    order(&mut s, state(4), t);
    let m = s.intent(4, ActionKind::Pass);
    s.sending(&m, t);
    assert_eq!(s.pending(), Some(4));
    let ClientMsg::Intent { nonce: a, .. } = m else { unreachable!() };
    let ClientMsg::Intent { nonce: b, .. } = s.intent(4, ActionKind::Pass) else { unreachable!() };
    assert!(b > a, "nonces are never repeated");
    order(&mut s, ServerMsg::error(ErrorCode::NotYourTurn, "no"), t);
    assert_eq!(s.pending(), None);
}

#[test]
fn overlapping_catch_up_is_seen_and_a_notice_stays_at_its_action() {
    let (mut s, t) = seated(SessionConfig::default());
    order(&mut s, state(5), t);
    assert_eq!(order(&mut s, applied(5, 1), t).0, Order::Seen);
    assert_eq!(order(&mut s, applied(5, 0), t).0, Order::Next);
    assert_eq!(order(&mut s, applied(6, 1), t).0, Order::Next);
    assert_eq!(order(&mut s, applied(4, 0), t).0, Order::Seen);
}

/// What the server might send: a run of `applied` messages, some actions dropped on the way,
/// some repeated, with full states here and there.
#[derive(Clone, Debug)]
enum Frame {
    /// The next `n` actions in one message, or a notice (`n` = 0).
    Next(u32),
    /// Actions lost on the way: the next message starts `skip` actions later.
    Lost { skip: u64, n: u32 },
    /// A message already seen comes again.
    Again,
    /// The server's full state.
    State,
}

fn frames() -> impl Strategy<Value = Vec<Frame>> {
    let frame = prop_oneof![
        6 => (0u32..3).prop_map(Frame::Next),
        1 => (1u64..5, 1u32..3).prop_map(|(skip, n)| Frame::Lost { skip, n }),
        1 => Just(Frame::Again),
        1 => Just(Frame::State),
    ];
    proptest::collection::vec(frame, 1..60)
}

proptest! {
    /// Whatever is lost or repeated, the client is told to apply exactly the actions that follow
    /// what it applied, each once; every gap asks for the whole state (once until it comes), and
    /// a full state puts it back in step.
    #[test]
    fn gaps_ask_for_the_state_and_never_skip_an_action(frames in frames()) {
        let (mut s, t) = seated(SessionConfig::default());
        order(&mut s, state(0), t);
        // The server's match, and what the client holds (applied in order).
        let (mut server, mut client) = (0u64, 0u64);
        let mut last_msg = applied(0, 0);
        let mut resync_open = false;
        for f in frames {
            let m = match f {
                Frame::Next(n) => { server += u64::from(n); applied(server, n) }
                Frame::Lost { skip, n } => { server += skip + u64::from(n); applied(server, n) }
                Frame::Again => last_msg.clone(),
                Frame::State => state(server),
            };
            last_msg = m.clone();
            let full = matches!(m, ServerMsg::State { .. });
            let (seq, n) = match &m {
                ServerMsg::Applied { action_seq, actions, .. } => (*action_seq, u64::from(*actions)),
                _ => (server, 0),
            };
            let (o, send) = order(&mut s, m, t);
            let asked = send.contains(&ClientMsg::Resync);
            if full {
                prop_assert_eq!(o, Order::Next);
                client = seq;
                resync_open = false;
                continue;
            }
            match o {
                Order::Next => {
                    prop_assert!(!resync_open, "applied while a state was awaited");
                    if n == 0 {
                        prop_assert_eq!(seq, client);
                    } else {
                        prop_assert_eq!(seq - n + 1, client + 1, "skipped or repeated actions");
                        client = seq;
                    }
                }
                Order::Seen => prop_assert!(seq <= client),
                Order::Gap { .. } => {
                    prop_assert!(seq > client || (n == 0 && seq != client) || resync_open);
                    prop_assert_eq!(asked, !resync_open, "one resync per gap");
                    resync_open = true;
                }
            }
            prop_assert!(!asked || matches!(o, Order::Gap { .. }), "a resync without a gap");
            prop_assert_eq!(s.last_seq(), Some(client));
            prop_assert_eq!(s.awaiting_state(), resync_open);
        }
    }
}

/// A welcome that rotates the token: the session presents the new one from then on and hands
/// it over once for the caller to store; a welcome without one changes nothing.
#[test]
fn a_rotated_token_is_kept_and_handed_over_once() {
    let t = Instant::now();
    let mut s = Session::new("p", "old", SessionConfig::default());
    s.opened(t);
    let rotating = ServerMsg::Welcome {
        protocol_version: PROTOCOL_VERSION,
        player_id: "p".into(),
        instance: "main".into(),
        token: Some("new".into()),
    };
    let (e, _) = s.received(rotating, t);
    assert!(matches!(e, Event::Welcomed { .. }), "{e:?}");
    assert_eq!(s.take_new_token().as_ref().map(Secret::expose), Some("new"));
    assert!(s.take_new_token().is_none(), "handed over once");
    let hello = s.opened(t);
    assert!(matches!(hello, ClientMsg::Hello { ref token, .. } if token.expose() == "new"), "{hello:?}");
    assert!(!format!("{hello:?} {s:?}").contains("\"new\""), "no token in Debug");
    s.received(welcome(), t);
    assert!(s.take_new_token().is_none());
    let hello = s.opened(t);
    assert!(matches!(hello, ClientMsg::Hello { ref token, .. } if token.expose() == "new"));
}

/// Issue 52: a state asked for that never came (its answer lost, the ask refused) left every
/// later `applied` a gap, so the game's table stood still until the next deal's state. It is asked
/// for again every RESYNC_AGAIN until it comes, and not after.
#[test]
fn a_state_that_never_comes_is_asked_for_again() {
    let (mut s, t) = seated(SessionConfig::default());
    order(&mut s, state(3), t);
    let (o, send) = order(&mut s, applied(6, 1), t);
    assert!(matches!(o, Order::Gap { expected: 4, got_first: 6 }), "{o:?}");
    assert_eq!(send, vec![ClientMsg::Resync]);
    // Within the wait: heartbeats only.
    let soon = t + RESYNC_AGAIN / 2;
    assert_ne!(s.tick(soon), Ok(Some(ClientMsg::Resync)));
    let later = t + RESYNC_AGAIN;
    assert_eq!(s.tick(later), Ok(Some(ClientMsg::Resync)), "asked again");
    s.sending(&ClientMsg::Resync, later);
    assert_ne!(s.tick(later + RESYNC_AGAIN / 2), Ok(Some(ClientMsg::Resync)), "not at every tick");
    let (o, _) = order(&mut s, state(7), later + RESYNC_AGAIN / 2);
    assert_eq!(o, Order::Next);
    assert!(!s.awaiting_state());
    assert_ne!(s.tick(later + RESYNC_AGAIN * 3), Ok(Some(ClientMsg::Resync)), "the state came: no more asks");
}
