//! The player's account (issue 36), asked over HTTP(S) of the server (no live connection
//! needed): who it is, claiming it, logging in on this device, transfer codes, logging out.
//! Answered by `account_done(what, result)` or `account_failed(what, code, message)`; a new
//! session (login, transfer) becomes the client's account for that server.

use godot::prelude::*;

use super::account_requests::{AccountAnswer, AccountAsk, AccountRequest};
use super::{Conn, GuandanClient, net};
use crate::codes::Fail;
use guandan_proto::{Endpoint, Secret};

#[godot_api(secondary)]
impl GuandanClient {
    /// Who the account kept for the current server is: `account_done("account", {player_id,
    /// nickname, name ("" for a guest), sessions})`. Returns `OK`, or at once
    /// `ERR_BAD_ARGUMENT` (no account yet: connect once first), `ERR_PLAINTEXT_NOT_ALLOWED`,
    /// `ERR_RATE_LIMITED` (two account requests are still unanswered).
    #[func]
    pub fn fetch_account(&mut self) -> i64 {
        let r = self.ask_for_player(AccountAsk::Info);
        self.finish_account("account", r)
    }

    /// Claims the guest account with a login name and password (`guandan_proto`'s rules):
    /// `account_done("claim", {player_id, nickname, name, sessions})`. At once:
    /// `ERR_BAD_LOGIN_NAME`, `ERR_BAD_PASSWORD` (nothing sent), or as `fetch_account`. The
    /// server may answer `ERR_NAME_TAKEN`, `ERR_ALREADY_CLAIMED`.
    #[func]
    pub fn claim_account(&mut self, login_name: GString, password: GString) -> i64 {
        let password = Secret::new(password.to_string());
        let r = AccountAsk::claim(&login_name.to_string(), password).and_then(|ask| self.ask_for_player(ask));
        self.finish_account("claim", r)
    }

    /// Logs in to a claimed account on `server` from this device: `account_done("login",
    /// {player_id, nickname})`, and the client holds the new session (`get_credentials`) for
    /// `server` as that nickname (a live connection is closed: connect again). At once:
    /// `ERR_BAD_ARGUMENT` (not an address), `ERR_BAD_LOGIN_NAME`, `ERR_BAD_PASSWORD`,
    /// `ERR_PLAINTEXT_NOT_ALLOWED`, `ERR_RATE_LIMITED`. A wrong name or password is
    /// `ERR_AUTH_FAILED` from the server.
    #[func]
    pub fn login_account(&mut self, server: GString, login_name: GString, password: GString) -> i64 {
        let password = Secret::new(password.to_string());
        let r = AccountAsk::login(&login_name.to_string(), password)
            .and_then(|ask| self.ask(server.to_string(), ask, None));
        self.finish_account("login", r)
    }

    /// Asks for a one-time code that moves the account to another device:
    /// `account_done("transfer_code", {code: "ABCDE-FGHJK", expires_in_s})` (a new code
    /// replaces the previous one). Returns like `fetch_account`.
    #[func]
    pub fn make_transfer_code(&mut self) -> i64 {
        let r = self.ask_for_player(AccountAsk::TransferCode);
        self.finish_account("transfer_code", r)
    }

    /// Moves the account shown with a transfer code on another device to this one, on `server`:
    /// `account_done("transfer", {player_id, nickname})`, the new session kept as with
    /// `login_account`. At once `ERR_BAD_ARGUMENT` (not an address, or not a code: 10 letters
    /// and digits), or as `login_account`.
    #[func]
    pub fn redeem_transfer_code(&mut self, server: GString, code: GString) -> i64 {
        let typed = Secret::new(code.to_string());
        let r = AccountAsk::transfer(&typed).and_then(|ask| self.ask(server.to_string(), ask, None));
        self.finish_account("transfer", r)
    }

    /// Ends this device's session: `account_done("log_out", {sessions_ended,
    /// connections_closed})`; the client forgets the account (a new guest is made at the next
    /// connection). Returns like `fetch_account`.
    #[func]
    pub fn log_out(&mut self) -> i64 {
        let r = self.ask_for_player(AccountAsk::LogOut);
        self.finish_account("log_out", r)
    }

    /// Ends every session of the account, on every device (their connections are closed):
    /// `account_done("log_out_everywhere", {sessions_ended, connections_closed})`. Returns
    /// like `fetch_account`.
    #[func]
    pub fn log_out_everywhere(&mut self) -> i64 {
        let r = self.ask_for_player(AccountAsk::LogOutEverywhere);
        self.finish_account("log_out_everywhere", r)
    }
}

impl GuandanClient {
    /// A request that acts for the player: to the current server, with its token.
    fn ask_for_player(&mut self, ask: AccountAsk) -> Result<(), Fail> {
        let Some((_, token)) = self.credentials.clone() else {
            return Err(Fail::bad_argument("no account yet: connect to a server first"));
        };
        self.ask(self.server.clone(), ask, Some(Secret::new(token)))
    }

    fn ask(&mut self, server: String, ask: AccountAsk, token: Option<Secret>) -> Result<(), Fail> {
        if server.is_empty() {
            return Err(Fail::bad_argument("no server yet: connect to one first"));
        }
        let endpoint = Endpoint::parse(&server).map_err(Fail::bad_argument)?;
        net::plaintext_check(&endpoint, &self.plaintext_allowed).map_err(|f| Fail::new(f.code, f.message))?;
        let trust = self.trust()?;
        self.accounts.start(endpoint, trust, AccountRequest { server, ask, token })
    }

    /// Ends an account call: a refusal is said through `account_failed`.
    fn finish_account(&mut self, what: &'static str, r: Result<(), Fail>) -> i64 {
        self.end_call(what, r, |code, message| Conn::AccountFailed(what, code, message))
    }

    /// The account answers that arrived: a new session becomes the client's account for its
    /// server; a logout forgets it. Queued as signals.
    pub(super) fn drain_accounts(&mut self) {
        while let Some((req, answer)) = self.accounts.poll() {
            let what = req.ask.what();
            match answer {
                Ok(answer) => {
                    self.apply_account(&req, &answer);
                    self.queue.push_back(Conn::AccountDone(what, Box::new(answer)));
                }
                Err(f) => {
                    // Said to the screen that asked, not logged (as a leaderboard page's failure).
                    self.last_error = f.message.clone();
                    self.queue.push_back(Conn::AccountFailed(what, f.num(), f.message));
                }
            }
        }
    }

    fn apply_account(&mut self, req: &AccountRequest, answer: &AccountAnswer) {
        match answer {
            AccountAnswer::Session(s) => {
                // Another account on this device: the connection (another player's) ends.
                self.go_offline();
                self.reset_room();
                self.player_id.clear();
                self.server = req.server.clone();
                self.nickname = s.nickname.clone();
                self.credentials = Some((s.player_id.clone(), s.token.expose().to_string()));
            }
            AccountAnswer::LoggedOut(_) if req.server == self.server => {
                // The session is over (the server closed its connections too).
                self.go_offline();
                self.reset_room();
                self.player_id.clear();
                self.credentials = None;
            }
            _ => {}
        }
    }
}
