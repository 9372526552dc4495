//! The stable error codes of the protocol. Same numbers and names as `guandan_core::error::ErrorCode`
//! (one vocabulary for rules, hosts, logs, I/O and the network); this copy goes once the sealed core
//! lands on main and is re-exported from there.

use serde::{Deserialize, Serialize};

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
#[repr(i32)]
pub enum ErrorCode {
    InvalidCards = 1,
    NotYourTurn = 2,
    CannotPass = 3,
    CardNotFound = 4,
    HandEmpty = 5,
    InvalidTribute = 6,
    GameOver = 7,
    StateConflict = 8,
    CannotBeat = 9,
    NoMatch = 10,
    NotHuman = 11,
    BadArgument = 12,
    LogEmpty = 20,
    LogMalformed = 21,
    LogVersion = 22,
    LogRejected = 23,
    LogHash = 24,
    LogCheckpoint = 25,
    Io = 30,
    NotFound = 31,
    NoRecord = 32,
    ProtocolTooOld = 40,
    MalformedMessage = 41,
    UnknownMessage = 42,
    FrameTooLarge = 43,
    Unauthenticated = 44,
    AuthFailed = 45,
    RoomNotFound = 46,
    RoomFull = 47,
    RoomLocked = 48,
    NotYourSeat = 49,
    StaleSeq = 50,
    DuplicateSeq = 51,
    RateLimited = 52,
    WrongInstance = 53,
    NotHost = 54,
    BadRoomState = 55,
    BadNickname = 56,
    ShuttingDown = 57,
    Internal = 58,
    SurrenderRefused = 59,
}

impl ErrorCode {
    pub const ALL: [ErrorCode; 41] = [
        ErrorCode::InvalidCards,
        ErrorCode::NotYourTurn,
        ErrorCode::CannotPass,
        ErrorCode::CardNotFound,
        ErrorCode::HandEmpty,
        ErrorCode::InvalidTribute,
        ErrorCode::GameOver,
        ErrorCode::StateConflict,
        ErrorCode::CannotBeat,
        ErrorCode::NoMatch,
        ErrorCode::NotHuman,
        ErrorCode::BadArgument,
        ErrorCode::LogEmpty,
        ErrorCode::LogMalformed,
        ErrorCode::LogVersion,
        ErrorCode::LogRejected,
        ErrorCode::LogHash,
        ErrorCode::LogCheckpoint,
        ErrorCode::Io,
        ErrorCode::NotFound,
        ErrorCode::NoRecord,
        ErrorCode::ProtocolTooOld,
        ErrorCode::MalformedMessage,
        ErrorCode::UnknownMessage,
        ErrorCode::FrameTooLarge,
        ErrorCode::Unauthenticated,
        ErrorCode::AuthFailed,
        ErrorCode::RoomNotFound,
        ErrorCode::RoomFull,
        ErrorCode::RoomLocked,
        ErrorCode::NotYourSeat,
        ErrorCode::StaleSeq,
        ErrorCode::DuplicateSeq,
        ErrorCode::RateLimited,
        ErrorCode::WrongInstance,
        ErrorCode::NotHost,
        ErrorCode::BadRoomState,
        ErrorCode::BadNickname,
        ErrorCode::ShuttingDown,
        ErrorCode::Internal,
        ErrorCode::SurrenderRefused,
    ];

    pub fn code(self) -> i32 {
        self as i32
    }

    pub fn from_code(code: i32) -> Option<ErrorCode> {
        ErrorCode::ALL.into_iter().find(|c| c.code() == code)
    }

    pub fn name(self) -> &'static str {
        match self {
            ErrorCode::InvalidCards => "invalid_cards",
            ErrorCode::NotYourTurn => "not_your_turn",
            ErrorCode::CannotPass => "cannot_pass",
            ErrorCode::CardNotFound => "card_not_found",
            ErrorCode::HandEmpty => "hand_empty",
            ErrorCode::InvalidTribute => "invalid_tribute",
            ErrorCode::GameOver => "game_over",
            ErrorCode::StateConflict => "state_conflict",
            ErrorCode::CannotBeat => "cannot_beat",
            ErrorCode::NoMatch => "no_match",
            ErrorCode::NotHuman => "not_human",
            ErrorCode::BadArgument => "bad_argument",
            ErrorCode::LogEmpty => "log_empty",
            ErrorCode::LogMalformed => "log_malformed",
            ErrorCode::LogVersion => "log_version",
            ErrorCode::LogRejected => "log_rejected",
            ErrorCode::LogHash => "log_hash",
            ErrorCode::LogCheckpoint => "log_checkpoint",
            ErrorCode::Io => "io",
            ErrorCode::NotFound => "not_found",
            ErrorCode::NoRecord => "no_record",
            ErrorCode::ProtocolTooOld => "protocol_too_old",
            ErrorCode::MalformedMessage => "malformed_message",
            ErrorCode::UnknownMessage => "unknown_message",
            ErrorCode::FrameTooLarge => "frame_too_large",
            ErrorCode::Unauthenticated => "unauthenticated",
            ErrorCode::AuthFailed => "auth_failed",
            ErrorCode::RoomNotFound => "room_not_found",
            ErrorCode::RoomFull => "room_full",
            ErrorCode::RoomLocked => "room_locked",
            ErrorCode::NotYourSeat => "not_your_seat",
            ErrorCode::StaleSeq => "stale_seq",
            ErrorCode::DuplicateSeq => "duplicate_seq",
            ErrorCode::RateLimited => "rate_limited",
            ErrorCode::WrongInstance => "wrong_instance",
            ErrorCode::NotHost => "not_host",
            ErrorCode::BadRoomState => "bad_room_state",
            ErrorCode::BadNickname => "bad_nickname",
            ErrorCode::ShuttingDown => "shutting_down",
            ErrorCode::Internal => "internal",
            ErrorCode::SurrenderRefused => "surrender_refused",
        }
    }

    /// A short description (never contains cards).
    pub fn describe(self) -> &'static str {
        match self {
            ErrorCode::InvalidCards => "these cards are not a valid play",
            ErrorCode::NotYourTurn => "it is not this seat's turn",
            ErrorCode::CannotPass => "the leader cannot pass",
            ErrorCode::CardNotFound => "a card is not in the hand",
            ErrorCode::HandEmpty => "this seat has no cards left",
            ErrorCode::InvalidTribute => "invalid tribute or return",
            ErrorCode::GameOver => "the match is over",
            ErrorCode::StateConflict => "the action does not fit the current state",
            ErrorCode::CannotBeat => "the play does not beat the table",
            ErrorCode::NoMatch => "no match is running",
            ErrorCode::NotHuman => "this seat is not a human seat",
            ErrorCode::BadArgument => "a bad argument",
            ErrorCode::LogEmpty => "the log is empty",
            ErrorCode::LogMalformed => "the log is malformed",
            ErrorCode::LogVersion => "unsupported log version",
            ErrorCode::LogRejected => "the log has an illegal action",
            ErrorCode::LogHash => "the log's state hash does not match",
            ErrorCode::LogCheckpoint => "a checkpoint is past the end, out of order or repeated",
            ErrorCode::Io => "input/output error",
            ErrorCode::NotFound => "not found",
            ErrorCode::NoRecord => "no record",
            ErrorCode::ProtocolTooOld => "client protocol too old: please update",
            ErrorCode::MalformedMessage => "malformed message",
            ErrorCode::UnknownMessage => "unknown message type",
            ErrorCode::FrameTooLarge => "frame too large",
            ErrorCode::Unauthenticated => "say hello first",
            ErrorCode::AuthFailed => "unknown player or wrong token",
            ErrorCode::RoomNotFound => "no such room",
            ErrorCode::RoomFull => "the room is full",
            ErrorCode::RoomLocked => "the room is locked while a match runs",
            ErrorCode::NotYourSeat => "not your seat",
            ErrorCode::StaleSeq => "stale action seq",
            ErrorCode::DuplicateSeq => "repeated seq or nonce",
            ErrorCode::RateLimited => "too many messages",
            ErrorCode::WrongInstance => "the room lives on another server",
            ErrorCode::NotHost => "only the host may do this",
            ErrorCode::BadRoomState => "not allowed in the room's current state",
            ErrorCode::BadNickname => "bad nickname",
            ErrorCode::ShuttingDown => "the server is shutting down",
            ErrorCode::Internal => "internal server error",
            ErrorCode::SurrenderRefused => "surrender refused",
        }
    }

    /// The code of a rule error.
    pub fn of_rule(e: &guandan_core::game::RuleError) -> ErrorCode {
        ErrorCode::from_code(e.code()).unwrap_or(ErrorCode::Internal)
    }
}
