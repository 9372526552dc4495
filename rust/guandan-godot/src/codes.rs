//! Error codes shared by every class of the extension (0 = ok). Codes 1–9 are the rule errors of
//! `guandan_core::game::RuleError::code`, 20–24 the log errors of `guandan_core::log::LogError::code`;
//! the rest are the extension's own. GDScript sees them as constants of `GuandanEngine`.

use guandan_core::game::RuleError;
use guandan_core::log::LogError;

pub const OK: i64 = 0;
pub const ERR_INVALID_CARDS: i64 = 1;
pub const ERR_NOT_YOUR_TURN: i64 = 2;
pub const ERR_CANNOT_PASS: i64 = 3;
pub const ERR_CARD_NOT_FOUND: i64 = 4;
pub const ERR_HAND_EMPTY: i64 = 5;
pub const ERR_INVALID_TRIBUTE: i64 = 6;
pub const ERR_GAME_OVER: i64 = 7;
pub const ERR_STATE_CONFLICT: i64 = 8;
pub const ERR_CANNOT_BEAT: i64 = 9;
/// No match has been started (or it was discarded).
pub const ERR_NO_MATCH: i64 = 10;
/// The engine has no human seat to act for (all seats are AI, or the seat is AI-controlled).
pub const ERR_NOT_HUMAN: i64 = 11;
/// An argument is malformed or out of range (a seat, a reading index, a name, a resource).
pub const ERR_BAD_ARGUMENT: i64 = 12;
pub const ERR_LOG_EMPTY: i64 = 20;
pub const ERR_LOG_MALFORMED: i64 = 21;
pub const ERR_LOG_VERSION: i64 = 22;
pub const ERR_LOG_REJECTED: i64 = 23;
pub const ERR_LOG_HASH: i64 = 24;
/// Reading or writing a file failed.
pub const ERR_IO: i64 = 30;
/// No record file of that name.
pub const ERR_NOT_FOUND: i64 = 31;
/// The recorder holds no record yet.
pub const ERR_NO_RECORD: i64 = 32;

/// A failed call: its code and a readable message (the message may name cards of the caller's
/// own hand; it is returned to the caller and never logged above DEBUG).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Fail {
    pub code: i64,
    pub message: String,
}

impl Fail {
    pub fn new(code: i64, message: impl Into<String>) -> Self {
        Fail { code, message: message.into() }
    }

    pub fn bad_argument(message: impl Into<String>) -> Self {
        Fail::new(ERR_BAD_ARGUMENT, message)
    }
}

impl From<RuleError> for Fail {
    fn from(e: RuleError) -> Self {
        Fail::new(i64::from(e.code().code()), e.to_string())
    }
}

impl From<LogError> for Fail {
    fn from(e: LogError) -> Self {
        Fail::new(i64::from(e.code().code()), e.to_string())
    }
}

/// A short description of a code that never contains card or hand details: what the extension
/// logs at WARN level.
pub fn describe(code: i64) -> &'static str {
    match code {
        OK => "ok",
        ERR_INVALID_CARDS => "invalid cards",
        ERR_NOT_YOUR_TURN => "not your turn",
        ERR_CANNOT_PASS => "cannot pass when leading",
        ERR_CARD_NOT_FOUND => "card not in the hand",
        ERR_HAND_EMPTY => "hand empty",
        ERR_INVALID_TRIBUTE => "invalid tribute or return",
        ERR_GAME_OVER => "the match is over",
        ERR_STATE_CONFLICT => "state conflict (wrong phase or duplicate action)",
        ERR_CANNOT_BEAT => "does not beat the table",
        ERR_NO_MATCH => "no match",
        ERR_NOT_HUMAN => "no human seat to act for",
        ERR_BAD_ARGUMENT => "bad argument",
        ERR_LOG_EMPTY => "empty record",
        ERR_LOG_MALFORMED => "malformed record",
        ERR_LOG_VERSION => "unsupported record version",
        ERR_LOG_REJECTED => "record holds an illegal action",
        ERR_LOG_HASH => "record state hash mismatch",
        ERR_IO => "file error",
        ERR_NOT_FOUND => "no such record",
        ERR_NO_RECORD => "nothing recorded",
        _ => "error",
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rule_and_log_codes_map_through() {
        assert_eq!(Fail::from(RuleError::CannotPass).code, ERR_CANNOT_PASS);
        assert_eq!(Fail::from(RuleError::CannotBeat("x".into())).code, ERR_CANNOT_BEAT);
        assert_eq!(Fail::from(LogError::Empty).code, ERR_LOG_EMPTY);
        assert_eq!(Fail::from(LogError::Version(9)).code, ERR_LOG_VERSION);
    }

    #[test]
    fn every_code_has_a_card_free_description() {
        for code in (0..=12).chain(20..=24).chain(30..=32) {
            let d = describe(code);
            assert_ne!(d, "error", "code {code}");
        }
    }
}
