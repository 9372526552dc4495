//! The server's plain HTTP endpoints: their paths and the JSON bodies both sides exchange. The
//! server answers with these types and every client reads them (no untyped `v["player_id"]`).

use guandan_core::error::ErrorCode;
use serde::de::DeserializeOwned;
use serde::{Deserialize, Serialize};

use crate::{Secret, valid_room_code};

/// `POST`: a new guest account ([`NewPlayer`] → [`NewPlayerReply`]).
pub const PLAYERS_PATH: &str = "/v1/players";
/// `GET`: the WebSocket (protocol v1).
pub const WS_PATH: &str = "/v1/ws";
/// `GET`: the server and its database are up ([`Health`]).
pub const HEALTH_PATH: &str = "/healthz";
/// `GET`: Prometheus text.
pub const METRICS_PATH: &str = "/metrics";

/// `GET`: where a room lives ([`RoomDirectoryEntry`]).
pub fn room_path(code: &str) -> String {
    format!("/v1/rooms/{code}")
}

/// `GET`: a finished match of a room ([`FinishedMatch`]).
pub fn match_path(code: &str, match_no: u32) -> String {
    format!("/v1/matches/{code}/{match_no}")
}

/// `GET`: one page of a rule preset's ranking ([`Leaderboard`]).
pub const LEADERBOARD_PATH: &str = "/v1/leaderboard";

/// `GET`: page `page` (from 0) of the ranking under rule preset `rules`.
pub fn leaderboard_path(rules: &str, page: u32) -> String {
    format!("{LEADERBOARD_PATH}?rules={rules}&page={page}")
}

/// `GET`: a player's public profile ([`PlayerProfile`]).
pub fn player_path(player_id: &str) -> String {
    format!("{PLAYERS_PATH}/{player_id}")
}

/// Accounts (issue 36). Every path is `POST` with a JSON body (`{}` where nothing is asked)
/// except [`ACCOUNT_PATH`]; those that act for a player carry one of its session tokens in
/// [`AUTHORIZATION`] (see [`bearer`]). Refusals are [`HttpError`]s.
///
/// `GET` (authorized): who the token is ([`AccountInfo`]).
pub const ACCOUNT_PATH: &str = "/v1/account";
/// Authorized: the guest sets a login name and password ([`Claim`] → [`AccountInfo`]).
pub const CLAIM_PATH: &str = "/v1/account/claim";
/// Name and password → a new session of the account on this device ([`Login`] →
/// [`SessionReply`]).
pub const LOGIN_PATH: &str = "/v1/account/login";
/// Authorized: a one-time code that moves the account to another device ([`TransferCodeReply`];
/// a new code replaces the player's previous one).
pub const TRANSFER_CODE_PATH: &str = "/v1/account/transfer-code";
/// A transfer code → a new session of its account on this device ([`Transfer`] →
/// [`SessionReply`]).
pub const TRANSFER_PATH: &str = "/v1/account/transfer";
/// Authorized: ends the token's session ([`LogoutReply`]).
pub const LOGOUT_PATH: &str = "/v1/account/logout";
/// Authorized: ends every session of the account, this one too, and closes its connections
/// ([`LogoutReply`]).
pub const LOGOUT_EVERYWHERE_PATH: &str = "/v1/account/logout-everywhere";
/// The header that carries a session token: `Authorization: Bearer TOKEN`.
pub const AUTHORIZATION: &str = "authorization";

/// The `Authorization` header's value for a session token.
pub fn bearer(token: &Secret) -> String {
    format!("Bearer {}", token.expose())
}

/// `POST /v1/account/claim`: the login name (`crate::check_login_name`) and password
/// (`crate::check_password`) the account is claimed with.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Claim {
    pub name: String,
    pub password: Secret,
}

/// `POST /v1/account/login`. `device`: an optional label for this session (a nickname's rule),
/// e.g. "phone".
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Login {
    pub name: String,
    pub password: Secret,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub device: Option<String>,
}

/// `POST /v1/account/transfer`: the code as the player typed it (`crate::parse_transfer_code`).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Transfer {
    pub code: Secret,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub device: Option<String>,
}

/// A new session on this device (login, transfer): keep `player_id` and `token` as a guest
/// account's (`hello` with them).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct SessionReply {
    pub player_id: String,
    pub nickname: String,
    pub token: Secret,
}

/// `POST /v1/account/transfer-code`: the code to show the player (`ABCDE-FGHJK`), valid once,
/// for `expires_in_s` seconds.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct TransferCodeReply {
    pub code: Secret,
    pub expires_in_s: u64,
}

/// `GET /v1/account`, and the answer to a claim.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct AccountInfo {
    pub player_id: String,
    pub nickname: String,
    /// The login name (`None`: a guest, not claimed).
    pub name: Option<String>,
    /// Sessions (devices) logged in to the account.
    pub sessions: u64,
}

/// `POST /v1/account/logout` and `/logout-everywhere`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct LogoutReply {
    /// Sessions ended.
    pub sessions_ended: u64,
    /// Live connections of those sessions closed on the instance that answered (on other
    /// instances they end at their next `hello`).
    pub connections_closed: u64,
}

/// `POST /v1/players`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct NewPlayer {
    /// Checked by [`crate::check_nickname`].
    pub nickname: String,
}

/// The new guest account: keep both to come back as the same player (only the token's hash is
/// stored on the server).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct NewPlayerReply {
    pub player_id: String,
    pub token: String,
}

/// The body of every refused HTTP request.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct HttpError {
    pub code: i32,
    pub name: String,
    pub message: String,
}

impl HttpError {
    pub fn new(code: ErrorCode, message: impl Into<String>) -> HttpError {
        HttpError { code: code.code(), name: code.name().into(), message: message.into() }
    }

    /// The code as this build knows it (`None`: a newer server's code).
    pub fn error_code(&self) -> Option<ErrorCode> {
        ErrorCode::from_code(self.code)
    }
}

/// `GET /v1/rooms/CODE`: the shared directory's row for a room.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct RoomDirectoryEntry {
    pub code: String,
    /// The instance that owns the room, and where to reach it.
    pub instance: String,
    pub url: String,
    /// The room's lifecycle state as stored (snake_case, as [`crate::RoomState`]).
    pub state: String,
    /// Matches finished in the room.
    pub match_no: i64,
}

/// `GET /v1/matches/CODE/N`: a finished match.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct FinishedMatch {
    /// Duration, deals, rules, players, outcome, final hash.
    pub meta: serde_json::Value,
    /// The replay viewer's JSON Lines (`guandan_core::log::MatchLog::parse`).
    pub log: String,
}

/// `GET /v1/leaderboard?rules=R&page=N`: players rated under rule preset `rules`, best first
/// (by shown rating; ties: more matches, then player id), `per_page` a page.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Leaderboard {
    pub rules: String,
    pub page: u32,
    pub per_page: u32,
    /// Rated players under these rules (all pages).
    pub total: u64,
    pub entries: Vec<LeaderboardEntry>,
    /// Rated matches a player needs under these rules to be listed (the client says so while
    /// the board is empty). Added to v1 (absent: 0, an older server that does not say).
    #[serde(default)]
    pub min_matches: u32,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct LeaderboardEntry {
    /// 1 for the best.
    pub rank: u64,
    pub player_id: String,
    pub nickname: String,
    /// The rating shown to players.
    pub rating: i64,
    /// Ranked matches played and won under these rules.
    pub matches: u32,
    pub wins: u32,
}

/// `GET /v1/players/ID`: what anyone may see of a player.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct PlayerProfile {
    pub player_id: String,
    pub nickname: String,
    /// One per rule preset the player has played ranked.
    pub ratings: Vec<RulesRating>,
    pub stats: ProfileStats,
}

/// A player's rating under one rule preset.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct RulesRating {
    pub rules: String,
    /// The rating shown to players.
    pub rating: i64,
    pub matches: u32,
    pub wins: u32,
    pub draws: u32,
    /// The latest ranked matches (at most 50), oldest first.
    pub history: Vec<RatingPoint>,
}

/// The rating after one ranked match.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct RatingPoint {
    /// When (epoch ms).
    pub at: i64,
    pub rating: i64,
    /// By this match.
    pub change: i64,
    /// The match: its room's code and its number in that room (a player who comes back after
    /// the room closed finds the rating of the match they saw end). Empty/0 from an older server.
    #[serde(default)]
    pub room: String,
    #[serde(default)]
    pub match_no: u32,
}

/// Figures over the player's latest stored matches (ranked or not).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ProfileStats {
    /// Finished matches counted, and those won.
    pub matches: u32,
    pub wins: u32,
    /// Matches won per match finished (0 without any).
    pub win_rate: f64,
    /// Deals the player's team finished 1st and 2nd (双下), per deal.
    pub double_down_rate: f64,
    /// Bombs the player played, per deal.
    pub bombs_per_deal: f64,
}

/// `GET /healthz`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Health {
    pub ok: bool,
    /// The database's schema version.
    pub schema: i64,
    /// `sqlite` or `postgres`.
    pub db: String,
}

/// Reads an answer as its client got it (status and body): the reply, or the server's refusal
/// (a body that is not one, e.g. a proxy's page, becomes an `io` refusal naming the status).
pub fn read_reply<T: DeserializeOwned>(status: u16, body: &[u8]) -> Result<T, HttpError> {
    if status == 200 {
        return serde_json::from_slice(body)
            .map_err(|e| HttpError::new(ErrorCode::Io, format!("the server's answer was not understood: {e}")));
    }
    Err(serde_json::from_slice::<HttpError>(body)
        .unwrap_or_else(|_| HttpError::new(ErrorCode::Io, format!("the server answered HTTP {status}"))))
}

/// A room code as a player typed it (spaces around, lower case): the code, or why it is none.
pub fn parse_room_code(typed: &str) -> Result<String, String> {
    let c = typed.trim().to_uppercase();
    if valid_room_code(&c) {
        Ok(c)
    } else {
        let shown: String = c.chars().take(12).collect();
        Err(format!("{shown:?} is not a room code (6 letters and digits)"))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn room_codes_as_typed() {
        assert_eq!(parse_room_code(" k7qx2m ").as_deref(), Ok("K7QX2M"));
        assert!(parse_room_code("K7QX2").is_err());
        // 0 and O, 1 and I are never in a code (read aloud, typed on phones).
        assert!(parse_room_code("K7QX20").is_err());
        assert!(parse_room_code("K7QXIM").is_err());
        assert!(parse_room_code("ÄÄÄÄÄÄ").is_err());
    }

    #[test]
    fn account_bodies_keep_their_wire_names_and_hide_their_secrets() {
        let login: Login = serde_json::from_str(r#"{"name":"ann","password":"pw-12345678"}"#).unwrap();
        assert_eq!(
            (login.name.as_str(), login.password.expose(), login.device.as_deref()),
            ("ann", "pw-12345678", None)
        );
        let reply = SessionReply { player_id: "p".into(), nickname: "Ann".into(), token: "tok-abc".into() };
        let v = serde_json::to_value(&reply).unwrap();
        assert_eq!(v, serde_json::json!({"player_id": "p", "nickname": "Ann", "token": "tok-abc"}));
        let shown =
            format!("{login:?} {reply:?} {:?}", TransferCodeReply { code: "K7QX2-MAB3D".into(), expires_in_s: 600 });
        for secret in ["pw-12345678", "tok-abc", "K7QX2"] {
            assert!(!shown.contains(secret), "{shown}");
        }
        assert_eq!(bearer(&Secret::from("t0")), "Bearer t0");
    }

    /// A point names its match; an older server's point (without) still reads, as "" and 0.
    #[test]
    fn rating_points_name_their_match_and_read_old_answers() {
        let p = RatingPoint { at: 5, rating: 1024, change: 24, room: "K7QX2M".into(), match_no: 3 };
        let v = serde_json::to_value(&p).unwrap();
        assert_eq!(v, serde_json::json!({"at": 5, "rating": 1024, "change": 24, "room": "K7QX2M", "match_no": 3}));
        let old: RatingPoint = serde_json::from_str(r#"{"at":5,"rating":1024,"change":24}"#).unwrap();
        assert_eq!((old.room.as_str(), old.match_no), ("", 0));
    }

    #[test]
    fn replies_keep_their_wire_names() {
        let r: NewPlayerReply = serde_json::from_str(r#"{"player_id":"p","token":"t"}"#).unwrap();
        assert_eq!(r, NewPlayerReply { player_id: "p".into(), token: "t".into() });
        let e = HttpError::new(ErrorCode::BadNickname, "no");
        let v = serde_json::to_value(&e).unwrap();
        assert_eq!(v, serde_json::json!({"code": 56, "name": "bad_nickname", "message": "no"}));
        assert_eq!(e.error_code(), Some(ErrorCode::BadNickname));
        // A newer server's code is kept as a number.
        let e: HttpError = serde_json::from_str(r#"{"code":999,"name":"x","message":"m"}"#).unwrap();
        assert_eq!(e.error_code(), None);
    }

    #[test]
    fn answers_are_read_as_replies_or_refusals() {
        let ok: Result<NewPlayerReply, _> = read_reply(200, br#"{"player_id":"p","token":"t"}"#);
        assert_eq!(ok.unwrap().player_id, "p");
        let refused: Result<NewPlayerReply, _> =
            read_reply(400, br#"{"code":56,"name":"bad_nickname","message":"a nickname has 1 to 24 characters"}"#);
        assert_eq!(refused.unwrap_err().error_code(), Some(ErrorCode::BadNickname));
        // A proxy's page, a truncated body, a 200 without the fields: io, never a panic.
        let page: Result<NewPlayerReply, _> = read_reply(502, b"<html>Bad Gateway</html>");
        let page = page.unwrap_err();
        assert_eq!((page.error_code(), page.message.contains("502")), (Some(ErrorCode::Io), true));
        let cut: Result<NewPlayerReply, _> = read_reply(200, br#"{"player_id":"p""#);
        assert_eq!(cut.unwrap_err().error_code(), Some(ErrorCode::Io));
        let empty: Result<NewPlayerReply, _> = read_reply(200, b"{}");
        assert_eq!(empty.unwrap_err().error_code(), Some(ErrorCode::Io));
    }
}
