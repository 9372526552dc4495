use super::*;
use proptest::prelude::*;

#[test]
fn bad_frames_get_their_codes() {
    let code = |t: &str| decode_client(t).unwrap_err().code;
    assert_eq!(code("{"), ErrorCode::MalformedMessage);
    assert_eq!(code("[1,2]"), ErrorCode::MalformedMessage);
    assert_eq!(code(r#"{"type":"fly"}"#), ErrorCode::UnknownMessage);
    assert_eq!(code(r#"{"type":"intent","seq":"x"}"#), ErrorCode::MalformedMessage);
    assert_eq!(code(r#"{"type":"ready","ready":true,"extra":1}"#), ErrorCode::MalformedMessage);
    // A seat is 0-3 as it is read: anything else is refused with the range, never reaches a room.
    for bad in [r#"{"type":"change_seat","seat":4}"#, r#"{"type":"set_seat","seat":7,"setting":{"kind":"open"}}"#] {
        let e = decode_client(bad).unwrap_err();
        assert!(e.code == ErrorCode::MalformedMessage && e.message.contains("out of range 0-3"), "{e:?}");
    }
    assert_eq!(
        decode_client(r#"{"type":"change_seat","seat":3}"#).unwrap(),
        ClientMsg::ChangeSeat { seat: guandan_core::game::Seat::THREE }
    );
    // So is a card id 0-107: one past the decks never reaches a room (it was `invalid_cards`
    // from the room before card ids were a type), and the refusal names it and the range.
    for (bad, id) in [
        (r#"{"type":"intent","seq":3,"nonce":1,"action":{"type":"play","cards":[3,200]}}"#, 200),
        (r#"{"type":"intent","seq":3,"nonce":1,"action":{"type":"tribute","card":108}}"#, 108),
        (r#"{"type":"intent","seq":3,"nonce":1,"action":{"type":"return","card":255}}"#, 255),
    ] {
        let e = decode_client(bad).unwrap_err();
        let named = format!("card id {id} is out of range 0-107");
        assert!(e.code == ErrorCode::MalformedMessage && e.message.contains(&named), "{e:?}");
    }
    let good = r#"{"type":"intent","seq":3,"nonce":1,"action":{"type":"play","cards":[0,107]}}"#;
    let cards = [0, 107].map(|n| guandan_core::card::CardId::new(n).unwrap()).to_vec();
    let action = guandan_core::game::ActionKind::Play { cards, reading: None };
    assert_eq!(decode_client(good), Ok(ClientMsg::Intent { seq: 3, nonce: 1, action }));
    // A hello's refusal never quotes what it held (a token in the wrong field).
    let e = decode_client(r#"{"type":"hello","protocol_version":"tok-123","player_id":"p","token":"t"}"#).unwrap_err();
    assert!(e.code == ErrorCode::MalformedMessage && !e.message.contains("tok-123"), "{e:?}");
    let big = format!(r#"{{"type":"heartbeat","pad":"{}"}}"#, "x".repeat(MAX_FRAME_BYTES));
    assert_eq!(code(&big), ErrorCode::FrameTooLarge);
}

#[test]
fn error_codes_are_stable_and_named() {
    assert_eq!(ErrorCode::ProtocolTooOld.code(), 40);
    assert_eq!(ErrorCode::SurrenderRefused.code(), 59);
    assert_eq!(ErrorCode::SessionReplaced.code(), 61);
    assert_eq!(ErrorCode::AlreadySeated.code(), 62);
    assert_eq!(ErrorCode::AlreadyClaimed.code(), 66);
    for &c in ErrorCode::ALL {
        assert_eq!(ErrorCode::from_code(c.code()), Some(c));
        assert_eq!(serde_json::to_string(&c).unwrap(), format!("\"{}\"", c.name()));
    }
    let e = ServerMsg::error(ErrorCode::RoomFull, "x");
    assert!(encode_server(&e).contains(r#""code":47"#));
}

#[test]
fn room_codes() {
    assert!(valid_room_code("AB23XY"));
    assert!(!valid_room_code("AB23X"));
    assert!(!valid_room_code("AB23X0"));
    assert!(!valid_room_code("ab23xy"));
}

fn json_value() -> impl Strategy<Value = serde_json::Value> {
    let leaf = prop_oneof![
        Just(serde_json::Value::Null),
        any::<bool>().prop_map(serde_json::Value::from),
        any::<i64>().prop_map(serde_json::Value::from),
        "[a-z_]{0,12}".prop_map(serde_json::Value::from),
        prop::sample::select(CLIENT_TYPES).prop_map(serde_json::Value::from),
    ];
    leaf.prop_recursive(3, 24, 6, |inner| {
        prop_oneof![
            prop::collection::vec(inner.clone(), 0..4).prop_map(serde_json::Value::from),
            prop::collection::btree_map(
                prop_oneof![Just("type".to_string()), "[a-z_]{1,10}".prop_map(|s| s)],
                inner,
                0..5
            )
            .prop_map(|m| serde_json::Value::Object(m.into_iter().collect())),
        ]
    })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(2000))]
    /// Arbitrary text never panics the decoder, and every refusal carries a protocol code.
    #[test]
    fn decoder_never_panics_on_text(text in ".{0,300}") {
        if let Err(e) = decode_client(&text) {
            prop_assert!(matches!(e.code, ErrorCode::MalformedMessage | ErrorCode::UnknownMessage | ErrorCode::FrameTooLarge));
        }
    }

    /// Any number past the decks in a play, a tribute or a return is refused as it is read, with
    /// the id; one in the decks reads back as itself.
    #[test]
    fn card_ids_past_the_decks_are_refused_at_decode(id in any::<u8>(), others in prop::collection::vec(0u8..108, 0..4),
        at in any::<prop::sample::Index>(), kind in 0usize..3) {
        let mut cards = others.clone();
        cards.insert(at.index(cards.len() + 1), id);
        let action = match kind {
            0 => format!(r#"{{"type":"play","cards":{cards:?}}}"#),
            1 => format!(r#"{{"type":"tribute","card":{id}}}"#),
            _ => format!(r#"{{"type":"return","card":{id}}}"#),
        };
        let text = format!(r#"{{"type":"intent","seq":9,"nonce":2,"action":{action}}}"#);
        match decode_client(&text) {
            Ok(ClientMsg::Intent { action, .. }) => {
                prop_assert!(id < 108, "{id} read into {action:?}");
                let back = serde_json::to_value(&action).unwrap();
                let sent: serde_json::Value = serde_json::from_str(&action_json(&text)).unwrap();
                prop_assert_eq!(back, sent);
            }
            Ok(other) => prop_assert!(false, "{other:?}"),
            Err(e) => {
                prop_assert!(id >= 108, "{id} refused: {e:?}");
                prop_assert_eq!(e.code, ErrorCode::MalformedMessage);
                let named = format!("card id {id} is out of range 0-107");
                prop_assert!(e.message.contains(&named), "{:?}", e);
            }
        }
    }

    /// Structured but arbitrary JSON: decoded messages re-encode to something that decodes equal.
    #[test]
    fn decoder_is_consistent_on_json(v in json_value()) {
        let text = v.to_string();
        match decode_client(&text) {
            Ok(m) => {
                let again = serde_json::to_string(&m).unwrap();
                prop_assert_eq!(decode_client(&again), Ok(m));
            }
            Err(e) => prop_assert!(!e.message.is_empty()),
        }
    }
}

/// The `action` object of an intent's text.
fn action_json(text: &str) -> String {
    let v: serde_json::Value = serde_json::from_str(text).unwrap();
    v["action"].to_string()
}
