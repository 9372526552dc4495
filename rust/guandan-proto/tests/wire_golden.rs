//! The JSON on the wire, byte for byte: old clients and recorded sessions read exactly this.
//! Every message kind is built deterministically (views from a seeded random match, every
//! event kind) and compared with `golden/wire.jsonl`. Regenerate only for a deliberate protocol
//! change: `GOLDEN_UPDATE=1 cargo test -p guandan-proto --test wire_golden`.

use guandan_core::card::{CardId, Rank};
use guandan_core::combo::Play;
use guandan_core::event::{EndReason, Outcome};
use guandan_core::game::{ActionKind, Match, Phase};
use guandan_core::rules::RuleConfig;
use guandan_core::seat::{Seat, Team};
use guandan_core::sim::random_action;
use guandan_proto::{CLIENT_TYPES, ClientMsg, RoomInfo, RoomState, SeatInfo, SeatSetting, ServerMsg, WireOut};
use rand_chacha::ChaCha8Rng;
use rand_core::SeedableRng;
use std::collections::BTreeSet;

const GOLDEN: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/golden/wire.jsonl");

/// Views of a seeded random match: mid-play (with history and a table), in tribute, in return.
struct Sample {
    play: Match,
    tribute: Match,
    ret: Match,
    last_play: Play,
}

fn sample() -> Sample {
    let (mut m, _) = Match::new(20_251_204, RuleConfig::competition()).unwrap();
    let mut rng = ChaCha8Rng::seed_from_u64(5);
    let (mut play, mut tribute, mut ret, mut last_play) = (None, None, None, None);
    while play.is_none() || tribute.is_none() || ret.is_none() {
        let a = random_action(&m, &mut rng).expect("the match goes on");
        if let ActionKind::Play { cards, reading } = &a.kind {
            last_play = m.preview_play(a.seat, cards, reading.as_ref()).ok().or(last_play);
        }
        m.apply(&a).unwrap();
        match m.phase() {
            Phase::Play if play.is_none() && m.seq() >= 30 && m.view(None).table.is_some() => play = Some(m.clone()),
            Phase::Tribute if tribute.is_none() => tribute = Some(m.clone()),
            Phase::Return if ret.is_none() => ret = Some(m.clone()),
            _ => {}
        }
    }
    Sample { play: play.unwrap(), tribute: tribute.unwrap(), ret: ret.unwrap(), last_play: last_play.unwrap() }
}

fn state(m: &Match, seat: Option<Seat>, outcome: Option<Outcome>, time_left_s: Option<f64>) -> ServerMsg {
    ServerMsg::State { action_seq: m.seq(), state_hash: m.state_hash(), view: m.view(seat), outcome, time_left_s }
}

fn every_event(s: &Sample) -> Vec<WireOut> {
    let levels = [Rank(3), Rank(2)];
    vec![
        WireOut::MatchStarted { seed: u64::MAX },
        WireOut::DealStarted { deal_no: 2, level: Rank(3), declarer: Some(Team::ZERO) },
        WireOut::DealStarted { deal_no: 1, level: Rank(2), declarer: None },
        WireOut::HandChanged { seat: Seat::ONE, hand: s.play.view(Some(Seat::ONE)).hand },
        WireOut::TributePhase { payers: vec![Seat::ONE, Seat::THREE], resisted: false },
        WireOut::TributeGiven { from: Seat::ONE, to: Seat::ZERO, card: CardId::new(107) },
        WireOut::TributeGiven { from: Seat::ONE, to: Seat::ZERO, card: None },
        WireOut::ReturnPhase { receivers: vec![Seat::ZERO] },
        WireOut::ReturnGiven { from: Seat::ZERO, to: Seat::ONE, card: CardId::new(0) },
        WireOut::ReturnGiven { from: Seat::ZERO, to: Seat::ONE, card: None },
        WireOut::TurnStarted { seat: Seat::TWO, can_pass: true, time_limit_s: 25.5 },
        WireOut::TurnStarted { seat: Seat::THREE, can_pass: false, time_limit_s: 0.0 },
        WireOut::CardsPlayed { seat: Seat::THREE, play: s.last_play },
        WireOut::Passed { seat: Seat::ZERO },
        WireOut::TableCleared { leader: Seat::THREE },
        WireOut::PartnerTakesLead { seat: Seat::ONE },
        WireOut::CardsLeft { seat: Seat::TWO, count: 9 },
        WireOut::PlayerFinished { seat: Seat::TWO, place: 1 },
        WireOut::DealEnded {
            order: [Seat::TWO, Seat::ZERO, Seat::ONE, Seat::THREE],
            winner: Team::ZERO,
            levels_before: [Rank(2), Rank(2)],
            levels_after: levels,
        },
        WireOut::SurrenderProposed { seat: Seat::ONE },
        WireOut::SurrenderVoted { seat: Seat::THREE, accept: false },
        WireOut::MatchEnded { outcome: Outcome::Decisive { team: Team::ONE, reason: EndReason::Surrender } },
        WireOut::MatchEnded { outcome: Outcome::Draw { reason: EndReason::TimeUp } },
        WireOut::ControllerChanged { seat: Seat::TWO, ai: true },
        WireOut::AiDecided { seat: Seat::TWO, elapsed_ms: 12.25, fell_back: false },
        WireOut::TimedOut { seat: Seat::ZERO },
    ]
}

fn server_messages(s: &Sample) -> Vec<ServerMsg> {
    let seat = |seat, player: Option<&str>, ai| SeatInfo {
        seat,
        player: player.map(String::from),
        ai,
        ready: seat.team() == Team::ZERO,
        connected: player.is_some(),
        hosted: seat == Seat::THREE,
    };
    let room = |practice, deal_break_ms, spectator_hands| RoomInfo {
        code: "AB23XY".into(),
        state: RoomState::Playing,
        host_seat: Seat::ZERO,
        rules: "competition".into(),
        spectator_delay: 3,
        seats: vec![
            seat(Seat::ZERO, Some("甲"), None),
            seat(Seat::ONE, None, Some(2)),
            seat(Seat::TWO, Some("b\"c"), None),
            seat(Seat::THREE, None, None),
        ],
        spectators: 4,
        locked: true,
        matches: 1,
        practice,
        deal_break_ms,
        spectator_hands,
        closed: None,
    };
    let mut msgs = vec![
        ServerMsg::Welcome { protocol_version: 1, player_id: "p-1".into(), instance: "main".into(), token: None },
        ServerMsg::Error { code: 47, name: "room_full".into(), message: "room is full".into(), seq: None },
        ServerMsg::Error { code: 51, name: "stale_seq".into(), message: "x".into(), seq: Some(12) },
        ServerMsg::Redirect { code: "AB23XY".into(), instance: "b".into(), url: "ws://b/v1/ws".into() },
        ServerMsg::Joined { code: "AB23XY".into(), seat: Some(Seat::TWO) },
        ServerMsg::Joined { code: "AB23XY".into(), seat: None },
        ServerMsg::Room { room: room(false, 0, None) },
        ServerMsg::Room { room: room(true, 4000, None) },
    ];
    for m in [&s.play, &s.tribute, &s.ret] {
        msgs.extend(Seat::ALL.map(|k| state(m, Some(k), None, Some(17.5))));
        msgs.push(state(m, None, None, None));
    }
    msgs.push(state(
        &s.ret,
        Some(Seat::ONE),
        Some(Outcome::Decisive { team: Team::ZERO, reason: EndReason::AceWon }),
        None,
    ));
    let prompt = |m: &Match| m.to_act().first().map(|&k| m.light_view(k));
    for (m, events) in [(&s.play, every_event(s)), (&s.tribute, Vec::new()), (&s.ret, every_event(s)[..3].to_vec())] {
        msgs.push(ServerMsg::Applied {
            action_seq: m.seq(),
            actions: 2,
            state_hash: m.state_hash(),
            seat: Seat::ONE,
            events,
            prompt: prompt(m),
        });
    }
    msgs.push(ServerMsg::Applied {
        action_seq: 9,
        actions: 0,
        state_hash: "h".into(),
        seat: Seat::ZERO,
        events: vec![WireOut::ControllerChanged { seat: Seat::ZERO, ai: false }],
        prompt: None,
    });
    msgs.extend([
        ServerMsg::Hosting { seat: Seat::THREE, on: true },
        ServerMsg::Pong,
        ServerMsg::MatchStored { code: "AB23XY".into(), match_no: 2 },
        ServerMsg::Bye { code: 1001, message: "shutdown".into() },
        ServerMsg::QueueStatus { rules: "competition".into(), queued: true, waited_ms: 4200, found: 3 },
        ServerMsg::Rating { rules: "competition".into(), rating: 1012, change: -7, matches: 3 },
        // Added later: a friend room whose spectators see team 1's hands, and their view.
        ServerMsg::Room { room: room(false, 0, Some(1)) },
        ServerMsg::State {
            action_seq: s.ret.seq(),
            state_hash: s.ret.state_hash(),
            view: s.ret.team_view(Team::ONE),
            outcome: None,
            time_left_s: None,
        },
        // Added later: a welcome that rotates the session's token.
        ServerMsg::Welcome {
            protocol_version: 1,
            player_id: "p-1".into(),
            instance: "main".into(),
            token: Some("0f1e".into()),
        },
    ]);
    msgs
}

fn client_messages(s: &Sample) -> Vec<ClientMsg> {
    vec![
        ClientMsg::Hello { protocol_version: 1, player_id: "p".into(), token: "t".into() },
        ClientMsg::Heartbeat,
        ClientMsg::CreateRoom {
            rules: Some("huaian".into()),
            spectator_delay: Some(2),
            seed: Some(7),
            spectator_hands: None,
        },
        ClientMsg::CreateRoom { rules: None, spectator_delay: None, seed: None, spectator_hands: None },
        ClientMsg::JoinRoom { code: "ABCDEF".into(), last_action_seq: Some(12) },
        ClientMsg::Spectate { code: "ABCDEF".into() },
        ClientMsg::SetSeat { seat: Seat::TWO, setting: SeatSetting::Ai { level: 1 } },
        ClientMsg::SetSeat { seat: Seat::ONE, setting: SeatSetting::Open },
        ClientMsg::Ready { ready: true },
        ClientMsg::Start,
        ClientMsg::Intent { seq: 3, nonce: 99, action: ActionKind::Pass },
        ClientMsg::Intent { seq: 4, nonce: 1, action: Match::play_kind(&s.last_play) },
        ClientMsg::Intent {
            seq: 5,
            nonce: 2,
            action: ActionKind::Play { cards: s.last_play.cards.ids(), reading: Some(s.last_play.pattern) },
        },
        ClientMsg::Intent { seq: 6, nonce: 3, action: ActionKind::Tribute { card: CardId::ALL[53] } },
        ClientMsg::Intent { seq: 7, nonce: 4, action: ActionKind::SurrenderVote { accept: true } },
        ClientMsg::Resync,
        ClientMsg::Rematch { accept: false },
        ClientMsg::Leave,
        ClientMsg::Disband,
        ClientMsg::ChangeSeat { seat: Seat::THREE },
        ClientMsg::AutoPlay { on: true },
        ClientMsg::Seen { seq: 40 },
        ClientMsg::QueueJoin { rules: Some("huaian".into()) },
        ClientMsg::QueueJoin { rules: None },
        ClientMsg::QueueLeave,
        // Added later.
        ClientMsg::CreateRoom { rules: None, spectator_delay: Some(1), seed: None, spectator_hands: Some(0) },
        ClientMsg::SetSpectatorHands { team: Some(1) },
        ClientMsg::SetSpectatorHands { team: None },
    ]
}

#[test]
fn the_wire_json_is_unchanged() {
    let s = sample();
    let server = server_messages(&s);
    let client = client_messages(&s);
    let mut text = String::new();
    for m in &server {
        let line = guandan_proto::encode_server(m);
        // Every message also reads back as itself: the wire form loses nothing.
        assert_eq!(&serde_json::from_str::<ServerMsg>(&line).unwrap(), m, "{line}");
        text.push_str(&line);
        text.push('\n');
    }
    let kinds: BTreeSet<String> =
        client.iter().map(|m| serde_json::to_value(m).unwrap()["type"].as_str().unwrap().to_owned()).collect();
    assert_eq!(kinds, CLIENT_TYPES.iter().map(|t| t.to_string()).collect(), "a sample of every client type");
    for m in &client {
        let line = serde_json::to_string(m).unwrap();
        assert_eq!(&guandan_proto::decode_client(&line).unwrap(), m, "{line}");
        text.push_str(&line);
        text.push('\n');
    }
    if std::env::var_os("GOLDEN_UPDATE").is_some() {
        std::fs::write(GOLDEN, &text).unwrap();
    }
    let golden = std::fs::read_to_string(GOLDEN).expect("golden file (GOLDEN_UPDATE=1 writes it)");
    for (i, (got, want)) in text.lines().zip(golden.lines()).enumerate() {
        assert_eq!(got, want, "line {} differs", i + 1);
    }
    assert_eq!(text.lines().count(), golden.lines().count(), "number of messages");
}
