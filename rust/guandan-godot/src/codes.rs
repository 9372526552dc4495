//! Error codes of every class of the extension: guandan-core's [`ErrorCode`], the one vocabulary
//! of the project (0 = ok). GDScript sees them as the `ERR_*` constants of `GuandanEngine`
//! (each defined from its `ErrorCode`, and checked against `ErrorCode::ALL` by
//! `GuandanEngine.error_codes()` in tests/godot/test_extension.gd).

use guandan_core::error::ErrorCode;
use guandan_core::log::LogError;
use guandan_core::rule_error::RuleError;
use guandan_runtime::RuntimeError;

pub const OK: i64 = 0;

/// A code as GDScript sees it.
pub const fn num(code: ErrorCode) -> i64 {
    code as i64
}

/// A failed call: its code and a readable message (the message may name cards of the caller's
/// own hand; it is returned to the caller and never logged above DEBUG).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Fail {
    pub code: ErrorCode,
    pub message: String,
}

impl Fail {
    pub fn new(code: ErrorCode, message: impl Into<String>) -> Self {
        Fail { code, message: message.into() }
    }

    pub fn bad_argument(message: impl Into<String>) -> Self {
        Fail::new(ErrorCode::BadArgument, message)
    }

    /// The code as GDScript sees it.
    pub fn num(&self) -> i64 {
        num(self.code)
    }
}

impl From<RuleError> for Fail {
    fn from(e: RuleError) -> Self {
        Fail::new(e.code(), e.to_string())
    }
}

impl From<LogError> for Fail {
    fn from(e: LogError) -> Self {
        Fail::new(e.code(), e.to_string())
    }
}

impl From<RuntimeError> for Fail {
    fn from(e: RuntimeError) -> Self {
        Fail::new(e.code(), e.to_string())
    }
}

/// A short description of a code that never contains card or hand details: what the extension
/// logs at WARN level.
pub fn describe(code: i64) -> &'static str {
    match code {
        OK => "ok",
        c => i32::try_from(c).ok().and_then(ErrorCode::from_code).map_or("error", ErrorCode::describe),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use guandan_core::seat::Seat;

    /// The `msgstr` of `msgid` in a gettext file, if it has one that is not empty.
    fn translated(po: &str, msgid: &str) -> Option<String> {
        let at = po.find(&format!("msgid \"{msgid}\"\nmsgstr \""))?;
        let rest = &po[at + msgid.len() + 17..];
        let text = &rest[..rest.find("\"\n")?];
        (!text.trim().is_empty()).then(|| text.to_string())
    }

    /// Issue 52: "Error 59" was shown to a player as a bare code. Every error code a player can
    /// meet has its words in both languages (the table's `ERR_<n>`), none of them a number.
    #[test]
    fn every_error_code_has_an_english_and_a_chinese_text() {
        let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../godot-project/i18n");
        for lang in ["en", "zh_CN"] {
            let po = std::fs::read_to_string(dir.join(format!("{lang}.po"))).expect("the translation");
            let mut missing = Vec::new();
            for code in ErrorCode::ALL {
                let key = format!("ERR_{}", num(*code));
                match translated(&po, &key) {
                    Some(text) if !text.contains(&num(*code).to_string()) => {}
                    other => missing.push(format!("{key} ({}): {other:?}", code.name())),
                }
            }
            assert!(missing.is_empty(), "{lang}: error codes without words: {missing:#?}");
            assert!(translated(&po, "ERR_GENERIC").is_some_and(|t| t.chars().count() > "Error {code}".len()));
        }
    }

    #[test]
    fn rule_log_and_runtime_errors_keep_their_core_codes() {
        assert_eq!(Fail::from(RuleError::CannotPass).num(), 3);
        let e = RuleError::InvalidCards(guandan_core::rule_error::InvalidCardsReason::NoCards);
        assert_eq!(Fail::from(e).code, ErrorCode::InvalidCards);
        assert_eq!(Fail::from(LogError::Empty).num(), 20);
        assert_eq!(Fail::from(LogError::Version(9)).code, ErrorCode::LogVersion);
        assert_eq!(Fail::from(RuntimeError::NotHuman(Seat::TWO)).code, ErrorCode::NotHuman);
    }

    #[test]
    fn every_code_is_described_by_core() {
        assert_eq!(describe(OK), "ok");
        for &c in ErrorCode::ALL {
            assert_eq!(describe(num(c)), c.describe());
        }
        assert_eq!(describe(999), "error");
        assert_eq!(describe(i64::MAX), "error");
    }
}
