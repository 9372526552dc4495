//! The leaderboard, player profiles and finished matches' records, fetched over HTTP(S) from the
//! server last connected to (no room or live connection needed); answered by
//! `leaderboard_received`, `profile_received`, `record_kept` or `fetch_failed`.

use godot::prelude::*;

use super::ranking::Ask;
use super::{Conn, GuandanClient, net};
use crate::codes::Fail;

#[godot_api(secondary)]
impl GuandanClient {
    /// Asks the server (the one last connected to) for a page of the rule preset's leaderboard
    /// (`page` from 0, 50 players a page): `leaderboard_received` or `fetch_failed` follows.
    /// Needs no room and no live connection, only the server's address. Returns `OK`, or at
    /// once `ERR_BAD_ARGUMENT` (unknown rules, bad page, no server yet) or `ERR_RATE_LIMITED`
    /// (two requests are still unanswered).
    #[func]
    pub fn fetch_leaderboard(&mut self, rules: GString, page: i64) -> i64 {
        let r = Ask::leaderboard(&rules.to_string(), page).and_then(|ask| self.fetch(ask));
        self.finish_fetch("fetch_leaderboard", r)
    }

    /// Asks for a player's public profile (`player_id` empty: the player's own):
    /// `profile_received` or `fetch_failed` follows. Returns like `fetch_leaderboard`.
    #[func]
    pub fn fetch_profile(&mut self, player_id: GString) -> i64 {
        let id = player_id.to_string();
        let id = if id.is_empty() { self.known_player_id() } else { id };
        let r = Ask::profile(&id).and_then(|ask| self.fetch(ask));
        self.finish_fetch("fetch_profile", r)
    }

    /// Downloads match `match_no` (from 0) of room `code` once it is finished and stored (the
    /// `match_stored` signal says its number) and keeps it among the player's records as
    /// `online_<code>_<n>`, after replaying it whole: `record_kept(name)` or
    /// `fetch_failed("record", …)` follows (a forged or damaged log is refused, nothing kept).
    /// Returns like `fetch_leaderboard`.
    #[func]
    pub fn fetch_match_record(&mut self, code: GString, match_no: i64) -> i64 {
        let dir = crate::user_dirs::user_dirs().records();
        let r = Ask::record(&code.to_string(), match_no, dir).and_then(|ask| self.fetch(ask));
        self.finish_fetch("fetch_match_record", r)
    }
}

impl GuandanClient {
    fn fetch(&mut self, ask: Ask) -> Result<(), Fail> {
        if self.server.is_empty() {
            return Err(Fail::bad_argument("no server yet: connect to one first"));
        }
        let server = guandan_proto::Endpoint::parse(&self.server).map_err(Fail::bad_argument)?;
        net::plaintext_check(&server, &self.plaintext_allowed).map_err(|f| Fail::new(f.code, f.message))?;
        let trust = self.trust()?;
        self.fetcher.start(server, trust, ask)
    }

    /// The player's id: from the live connection, else from the account kept for the server.
    fn known_player_id(&self) -> String {
        if !self.player_id.is_empty() {
            return self.player_id.clone();
        }
        self.credentials.as_ref().map(|(id, _)| id.clone()).unwrap_or_default()
    }

    /// Ends a fetch call: a refusal is said through `fetch_failed` (the session's `error` is
    /// for the room and the connection; a screen waiting for a page listens to this one).
    fn finish_fetch(&mut self, what: &str, r: Result<(), Fail>) -> i64 {
        let kind = match what {
            "fetch_leaderboard" => "leaderboard",
            "fetch_match_record" => "record",
            _ => "profile",
        };
        self.end_call(what, r, |code, message| Conn::FetchFailed(kind, code, message))
    }
}
