//! `AccountAnswer`: what an account call (`GuandanClient.account`, `login`, …) answered.

use godot::prelude::*;

use crate::client::account_requests::AccountAnswer as Answer;

/// An account call's answer; which fields it fills depends on the call (the others are empty or
/// 0). Never a token: the new session is read with `GuandanClient.get_credentials`.
#[derive(GodotClass)]
#[class(no_init, base = RefCounted)]
pub struct AccountAnswer {
    /// `account`, `login`, `transfer`: the player.
    #[var(no_set)]
    player_id: GString,
    #[var(no_set)]
    nickname: GString,
    /// `account`: the claimed account name, `""` for a guest.
    #[var(no_set)]
    name: GString,
    /// `account`: sessions open.
    #[var(no_set)]
    sessions: i64,
    /// `transfer_code`: the one-time code, and how long it lasts.
    #[var(no_set)]
    code: GString,
    #[var(no_set)]
    expires_in_s: i64,
    /// `log_out`, `log_out_everywhere`: sessions ended and connections closed.
    #[var(no_set)]
    sessions_ended: i64,
    #[var(no_set)]
    connections_closed: i64,
}

impl AccountAnswer {
    fn empty() -> AccountAnswer {
        AccountAnswer {
            player_id: GString::new(),
            nickname: GString::new(),
            name: GString::new(),
            sessions: 0,
            code: GString::new(),
            expires_in_s: 0,
            sessions_ended: 0,
            connections_closed: 0,
        }
    }

    pub fn make(answer: &Answer) -> Gd<AccountAnswer> {
        let mut a = Self::empty();
        match answer {
            Answer::Info(i) => {
                a.player_id = i.player_id.as_str().into();
                a.nickname = i.nickname.as_str().into();
                a.name = i.name.as_deref().unwrap_or("").into();
                a.sessions = i.sessions as i64;
            }
            Answer::Session(s) => {
                a.player_id = s.player_id.as_str().into();
                a.nickname = s.nickname.as_str().into();
            }
            Answer::Code(c) => {
                a.code = c.code.expose().into();
                a.expires_in_s = c.expires_in_s as i64;
            }
            Answer::LoggedOut(l) => {
                a.sessions_ended = l.sessions_ended as i64;
                a.connections_closed = l.connections_closed as i64;
            }
        }
        Gd::from_object(a)
    }
}

#[godot_api]
impl AccountAnswer {
    /// The answer of an `account` call (tests and tools drawing the Account screen).
    #[func]
    pub fn of_account(player_id: GString, nickname: GString, name: GString, sessions: i64) -> Gd<AccountAnswer> {
        let mut a = Self::empty();
        (a.player_id, a.nickname, a.name, a.sessions) = (player_id, nickname, name, sessions);
        Gd::from_object(a)
    }

    /// The answer of a `transfer_code` call (tests and tools).
    #[func]
    pub fn of_transfer_code(code: GString, expires_in_s: i64) -> Gd<AccountAnswer> {
        let mut a = Self::empty();
        (a.code, a.expires_in_s) = (code, expires_in_s);
        Gd::from_object(a)
    }
}
