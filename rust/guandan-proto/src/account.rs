//! The rules of an account's credentials, checked by the server and by clients before they ask:
//! the login name a guest claims its account with, the password, and the one-time transfer code
//! that moves an account to another device.
//!
//! A login name is private (it is never shown to other players: they see the nickname), so its
//! rule is stricter than the nickname's: ASCII letters, digits and `. _ -`, 3 to 32 of them,
//! beginning and ending with a letter or digit. Two names that differ only in case are the same
//! name (no look-alike accounts, and a player need not remember the case).

use crate::ROOM_CODE_ALPHABET;

/// Fewest and most characters of a login name.
pub const LOGIN_NAME_CHARS: std::ops::RangeInclusive<usize> = 3..=32;
/// Fewest characters of a password.
pub const MIN_PASSWORD_CHARS: usize = 8;
/// Most characters of a password (hashing a longer one would cost the server for nothing).
pub const MAX_PASSWORD_CHARS: usize = 128;
/// Characters of a transfer code (from [`ROOM_CODE_ALPHABET`]: 31^10 ≈ 8.2 × 10^14 codes).
pub const TRANSFER_CODE_LEN: usize = 10;

/// Checks a login name; the error says what is wrong (for the player).
pub fn check_login_name(name: &str) -> Result<(), String> {
    let n = name.chars().count();
    if !LOGIN_NAME_CHARS.contains(&n) {
        return Err(format!("a login name has {} to {} characters", LOGIN_NAME_CHARS.start(), LOGIN_NAME_CHARS.end()));
    }
    if let Some(c) = name.chars().find(|c| !(c.is_ascii_alphanumeric() || matches!(c, '.' | '_' | '-'))) {
        let shown = if c.is_ascii_graphic() { format!("'{c}'") } else { format!("U+{:04X}", c as u32) };
        return Err(format!("a login name has only letters a–z, digits and . _ - (not {shown})"));
    }
    let ends_ok = |c: Option<char>| c.is_some_and(|c| c.is_ascii_alphanumeric());
    if !ends_ok(name.chars().next()) || !ends_ok(name.chars().last()) {
        return Err("a login name begins and ends with a letter or a digit".into());
    }
    Ok(())
}

pub fn valid_login_name(name: &str) -> bool {
    check_login_name(name).is_ok()
}

/// What makes two login names the same name: its lower case.
pub fn login_name_key(name: &str) -> String {
    name.to_ascii_lowercase()
}

/// Checks a new password's length (any characters are allowed; it is compared as typed).
pub fn check_password(password: &str) -> Result<(), String> {
    let n = password.chars().count();
    if n < MIN_PASSWORD_CHARS {
        return Err(format!("a password has at least {MIN_PASSWORD_CHARS} characters"));
    }
    if n > MAX_PASSWORD_CHARS {
        return Err(format!("a password has at most {MAX_PASSWORD_CHARS} characters"));
    }
    Ok(())
}

/// A transfer code as shown to the player: `ABCDE-FGHJK`.
pub fn show_transfer_code(code: &str) -> String {
    let (a, b) = code.split_at(code.len().min(TRANSFER_CODE_LEN / 2));
    format!("{a}-{b}")
}

/// A transfer code as a player typed it (lower case, spaces or dashes anywhere): the code, or
/// why it is none. The error never repeats what was typed.
pub fn parse_transfer_code(typed: &str) -> Result<String, String> {
    let code: String =
        typed.chars().filter(|c| !c.is_whitespace() && *c != '-').map(|c| c.to_ascii_uppercase()).collect();
    if code.chars().count() == TRANSFER_CODE_LEN && code.bytes().all(|b| ROOM_CODE_ALPHABET.contains(&b)) {
        Ok(code)
    } else {
        Err(format!("a transfer code has {TRANSFER_CODE_LEN} letters and digits (no 0, 1, I, L or O)"))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    #[test]
    fn login_names() {
        for ok in ["ann", "Ann.Lee", "player_7", "x-y-z", "a1b", &"a".repeat(32)] {
            assert_eq!(check_login_name(ok), Ok(()), "{ok:?}");
        }
        for bad in ["", "ab", &"a".repeat(33), ".ann", "ann_", "an n", "小明明", "ann@x", "Zoë", "a\u{200B}b", "ann\n"]
        {
            assert!(check_login_name(bad).is_err(), "{bad:?} accepted");
        }
        assert_eq!(login_name_key("Ann.Lee"), login_name_key("aNN.lEE"));
        assert!(check_login_name("ann\u{202E}x").unwrap_err().contains("U+202E"));
    }

    #[test]
    fn passwords() {
        assert!(check_password("1234567").is_err());
        assert!(check_password("12345678").is_ok());
        assert!(check_password("密码密码密码密码").is_ok(), "characters, not bytes");
        assert!(check_password(&"x".repeat(MAX_PASSWORD_CHARS)).is_ok());
        assert!(check_password(&"x".repeat(MAX_PASSWORD_CHARS + 1)).is_err());
    }

    #[test]
    fn transfer_codes_as_typed() {
        assert_eq!(parse_transfer_code(" k7qx2-mab3d ").as_deref(), Ok("K7QX2MAB3D"));
        assert_eq!(parse_transfer_code("K7QX2 MAB3D").as_deref(), Ok("K7QX2MAB3D"));
        assert_eq!(show_transfer_code("K7QX2MAB3D"), "K7QX2-MAB3D");
        assert!(parse_transfer_code("K7QX2MAB3").is_err());
        assert!(parse_transfer_code("K7QX2MAB30").is_err(), "no 0");
        let e = parse_transfer_code("SECRETCODEX").unwrap_err();
        assert!(!e.contains("SECRET"), "the error does not repeat the input");
    }

    proptest! {
        /// Whatever is accepted is short ASCII of the allowed characters; the key is its lower
        /// case, accepted too; any change of case gives the same key.
        #[test]
        fn accepted_names_are_plain_and_keyed_without_case(s in "\\PC{0,40}") {
            if check_login_name(&s).is_ok() {
                prop_assert!(s.is_ascii() && LOGIN_NAME_CHARS.contains(&s.len()));
                let key = login_name_key(&s);
                prop_assert!(valid_login_name(&key));
                prop_assert_eq!(login_name_key(&s.to_ascii_uppercase()), key);
            }
        }

        #[test]
        fn names_of_the_allowed_shape_are_accepted(s in "[A-Za-z0-9][A-Za-z0-9._-]{1,30}[A-Za-z0-9]") {
            prop_assert_eq!(check_login_name(&s), Ok(()));
        }
    }
}
