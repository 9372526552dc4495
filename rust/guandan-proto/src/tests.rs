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
