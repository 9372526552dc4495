//! Guandan online protocol, version 1: the messages a client and the server exchange, one JSON
//! object per WebSocket text frame, tagged by `"type"`. No I/O here: the server, the Godot
//! extension and the CLI share these types.
//!
//! A session: `hello` (protocol version + guest credentials from `POST /v1/players`) → `welcome`;
//! then `create_room` / `join_room` / `spectate`; in a room `ready`, `start`, and during a match
//! `intent {seq, nonce, action}`. After every applied action each recipient gets `applied` with
//! the new `action_seq`, the `state_hash` and the events it may see. `heartbeat` every 5 s.

mod account;
pub mod backoff;
pub mod endpoint;
pub mod http;
mod names;
mod secret;
pub mod session;
#[cfg(feature = "tls")]
pub mod tls;
pub use account::{
    LOGIN_NAME_CHARS, MAX_PASSWORD_CHARS, MIN_PASSWORD_CHARS, TRANSFER_CODE_LEN, check_login_name, check_password,
    login_name_key, parse_transfer_code, show_transfer_code, valid_login_name,
};
pub use backoff::Backoff;
pub use endpoint::Endpoint;
pub use guandan_core::error::ErrorCode;
/// A runtime notice on the wire, as the core defines it; the server sends only what
/// `guandan_runtime::for_viewer` lets the recipient have.
pub use guandan_core::notice::Out as WireOut;
/// A recipient's view of the match on the wire: the core's filtered view, whose JSON carries card
/// sets as card-id lists (never built from a whole `Match`).
pub use guandan_core::view::PlayerView as TableView;
pub use http::parse_room_code;
pub use names::{MAX_NICKNAME_CHARS, check_nickname, displayable_nickname, valid_nickname};
pub use secret::Secret;
pub use session::{Event, Order, Reconnect, Refusal, Session, SessionConfig};

use guandan_core::card::CardSet;
use guandan_core::game::{ActionKind, Seat};
use serde::{Deserialize, Serialize};

/// This build's protocol version.
pub const PROTOCOL_VERSION: u32 = 1;
/// The oldest client protocol this server still speaks; older clients are told to update.
pub const MIN_COMPATIBLE_PROTOCOL: u32 = 1;
/// Largest text frame either side accepts (bytes). Larger frames are refused with `frame_too_large`.
pub const MAX_FRAME_BYTES: usize = 16 * 1024;
/// Room codes: this many characters from [`ROOM_CODE_ALPHABET`].
pub const ROOM_CODE_LEN: usize = 6;
/// No 0/O, 1/I/L: codes are read aloud and typed on phones.
pub const ROOM_CODE_ALPHABET: &[u8] = b"ABCDEFGHJKMNPQRSTUVWXYZ23456789";
/// Most spectators one room accepts.
pub const MAX_SPECTATORS: usize = 50;
/// Default spectator delay in rounds (a round ends when the table is cleared).
pub const DEFAULT_SPECTATOR_DELAY: u32 = 3;

/// What a room seat is set to before the match starts.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum SeatSetting {
    /// Open for a human.
    Open,
    /// Filled by the server's AI at this level (1–3).
    Ai { level: u8 },
}

/// Client → server.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case", deny_unknown_fields)]
pub enum ClientMsg {
    /// First message of every connection: the player and one of its session tokens.
    Hello {
        protocol_version: u32,
        player_id: String,
        token: Secret,
    },
    Heartbeat,
    /// Creates a room with the caller in seat 0 as host.
    CreateRoom {
        /// Rule preset name (`competition`, `huaian`, `house`); default competition.
        #[serde(default)]
        rules: Option<String>,
        /// Spectator delay in rounds; default 3.
        #[serde(default)]
        spectator_delay: Option<u32>,
        /// A seed for the room's deals: refused (`bad_argument`) unless the server runs with
        /// `--practice-seeds`, where it makes a practice room (marked so in its info and
        /// records). Otherwise every match is dealt from the server's own random generator.
        #[serde(default)]
        seed: Option<u64>,
        /// Spectators see this team's hands (0: seats 0 and 2, 1: seats 1 and 3), still
        /// `spectator_delay` rounds late; absent = no hand. Refused (`bad_argument`) for another
        /// number and where rooms are ranked. Added to v1.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        spectator_hands: Option<u8>,
    },
    /// Takes a free seat, or returns to one's own seat (reconnect) with the last `action_seq`
    /// received: the server sends what was missed.
    JoinRoom {
        code: String,
        #[serde(default)]
        last_action_seq: Option<u64>,
    },
    Spectate {
        code: String,
    },
    /// Host only, before the match: open a seat or fill it with an AI.
    SetSeat {
        seat: Seat,
        setting: SeatSetting,
    },
    /// Host only, while no match runs (lobby): spectators see this team's hands from the next
    /// match on (`null` = no hand), as `create_room`'s `spectator_hands`. Refused with
    /// `bad_argument` (not 0 or 1), `not_host`, `bad_room_state` (a match runs or the vote after
    /// it is open, or a ranked room: quick-match rooms never show a hand). Added to v1.
    SetSpectatorHands {
        #[serde(default)]
        team: Option<u8>,
    },
    Ready {
        ready: bool,
    },
    /// Host only, when every seat is taken and every human is ready.
    Start,
    /// A game action for the connection's own seat. `seq` is the match's next action seq.
    Intent {
        seq: u64,
        nonce: u64,
        action: ActionKind,
    },
    /// Asks for the full filtered state.
    Resync,
    /// After a match (vote phase): play again or not.
    Rematch {
        accept: bool,
    },
    Leave,
    /// Host only, while no match runs.
    Disband,
    /// Lobby only (before a match): move from one's seat to a free seat. Added to v1 (older
    /// servers answer `unknown_message`).
    ChangeSeat {
        seat: Seat,
    },
    /// During a match: hand one's own seat to the server's AI (`on`, 托管) or take it back.
    /// Added to v1 like `change_seat`.
    AutoPlay {
        on: bool,
    },
    /// During a match: the player has seen its prompt for the state after `seq` actions (the
    /// client drew it; drawing a table can take seconds). The duty's clock starts again from
    /// then, giving back at most the server's `--seen-grace-ms` of the time that ran before, so
    /// the player has the whole turn limit after seeing. Optional (a client that never sends it
    /// has the limit from the prompt) and silent (no answer; a stale `seq` is ignored). Added to
    /// v1 like `change_seat`.
    Seen {
        seq: u64,
    },
    /// Quick match: wait for a table of this rule preset (default competition) with players
    /// of similar rating; answered by `queue_status`, then — once a table is formed — by the
    /// normal `joined` and `state` of a ranked room that starts at once. Refused while in a
    /// room (leave it first) or already queued. Added to v1 like `change_seat`.
    QueueJoin {
        #[serde(default)]
        rules: Option<String>,
    },
    /// Leaves the quick-match queue (answered by `queue_status` with `queued` false).
    QueueLeave,
}

/// The lifecycle state of a room (design spec, room state machine).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum RoomState {
    Idle,
    Waiting,
    ReadyCheck,
    Playing,
    Hosting,
    Reconnecting,
    Finished,
    VotePhase,
    Destroyed,
}

impl RoomState {
    pub const ALL: [RoomState; 9] = [
        RoomState::Idle,
        RoomState::Waiting,
        RoomState::ReadyCheck,
        RoomState::Playing,
        RoomState::Hosting,
        RoomState::Reconnecting,
        RoomState::Finished,
        RoomState::VotePhase,
        RoomState::Destroyed,
    ];

    /// Locked rooms take no new players (from the start of a match until its vote phase ends).
    pub fn locked(self) -> bool {
        matches!(
            self,
            RoomState::Playing
                | RoomState::Hosting
                | RoomState::Reconnecting
                | RoomState::Finished
                | RoomState::VotePhase
        )
    }

    /// A match is being played.
    pub fn in_game(self) -> bool {
        matches!(self, RoomState::Playing | RoomState::Hosting | RoomState::Reconnecting)
    }
}

/// One seat as everyone in the room sees it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct SeatInfo {
    pub seat: Seat,
    /// Nickname of the human in this seat.
    pub player: Option<String>,
    /// AI level when the seat is an AI seat.
    pub ai: Option<u8>,
    pub ready: bool,
    pub connected: bool,
    /// The server's AI plays for an absent human.
    pub hosted: bool,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct RoomInfo {
    pub code: String,
    pub state: RoomState,
    pub host_seat: Seat,
    pub rules: String,
    pub spectator_delay: u32,
    pub seats: Vec<SeatInfo>,
    pub spectators: u32,
    pub locked: bool,
    /// Matches finished in this room.
    pub matches: u32,
    /// A practice room: its deals come from a seed its creator chose (only on servers started
    /// with `--practice-seeds`), so its matches prove nothing. Added to v1 (absent = false).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub practice: bool,
    /// The break after each deal (ms): nothing of the next deal happens before it is over, so
    /// the client may show the deal's result that long. Added to v1 (absent = 0: none, or an
    /// older server).
    #[serde(default, skip_serializing_if = "is_zero")]
    pub deal_break_ms: u32,
    /// The team whose hands spectators see (0 or 1; the host's choice in a friend room). Added
    /// to v1 (absent = none).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub spectator_hands: Option<u8>,
    /// Why the room closed (with `state: destroyed`): the client says what happened, not "the
    /// host closed the room" for a quick match that ended. Added to v1 (absent: still open, or
    /// an older server).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub closed: Option<RoomClosed>,
}

/// Why a room closed.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum RoomClosed {
    /// Its host disbanded it (a friend room, between matches).
    Disbanded,
    /// Its match is over (and rated, in a quick match) and its players have gone.
    MatchOver,
    /// Everyone left before a match was played.
    Empty,
    /// Nobody came before the server's idle limit.
    Idle,
    /// Its match could not start (a quick match whose players were seated elsewhere).
    NotStarted,
    /// The server stopped it (its storage failed); the match may be resumed later.
    Stopped,
}

impl RoomClosed {
    /// The stable name (as sent), for the client's text key.
    pub fn name(self) -> &'static str {
        match self {
            RoomClosed::Disbanded => "disbanded",
            RoomClosed::MatchOver => "match_over",
            RoomClosed::Empty => "empty",
            RoomClosed::Idle => "idle",
            RoomClosed::NotStarted => "not_started",
            RoomClosed::Stopped => "stopped",
        }
    }
}

fn is_zero(n: &u32) -> bool {
    *n == 0
}

/// Server → client.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum ServerMsg {
    Welcome {
        protocol_version: u32,
        player_id: String,
        instance: String,
        /// A new session token that replaces the one the `hello` presented (the server rotates
        /// tokens as they age): store it and present it from now on. The old token keeps
        /// working until this one is first used, so a client that misses or ignores it is
        /// never locked out. Added to v1 (absent: no rotation, or an older server).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        token: Option<Secret>,
    },
    /// A refused message. `code` is the stable number, `name` its snake_case name.
    Error {
        code: i32,
        name: String,
        message: String,
        /// The intent `seq` this answers, if any.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        seq: Option<u64>,
    },
    /// The room lives on another instance: connect there.
    Redirect { code: String, instance: String, url: String },
    /// The caller is in a room (`seat` None = spectator).
    Joined { code: String, seat: Option<Seat> },
    /// The room's lobby state changed.
    Room { room: RoomInfo },
    /// The full state as this recipient may see it (after joining, on resync, at a reconnect).
    State {
        action_seq: u64,
        state_hash: String,
        view: TableView,
        /// How the match ended, in the full state of a finished match (a player back after the
        /// end is shown the result). Added to v1 (absent: not over, or an older server).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        outcome: Option<guandan_core::event::Outcome>,
        /// Seconds left on the recipient's own duty (its turn, tribute or return) when the state
        /// was made, when a clock runs for it: the client shows its clock from it. Added to v1
        /// (absent: no duty, no clock, or an older server).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        time_left_s: Option<f64>,
    },
    /// Applied actions (`actions` of them, usually 1, ending at `action_seq`; 0 for a notice
    /// that is no action, such as a seat handed to the AI): the runtime's notices this recipient
    /// may see; `prompt` is this recipient's own (light) view when it must act now. `seat` is
    /// the seat whose action opened the batch (the actions after it follow from it, such as the
    /// AI seats' votes on a proposal): a client's intent is answered by a batch of its seat.
    Applied {
        action_seq: u64,
        actions: u32,
        state_hash: String,
        seat: Seat,
        events: Vec<WireOut>,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        prompt: Option<TableView>,
    },
    /// The server's AI took over (`on`) or gave back a seat.
    Hosting { seat: Seat, on: bool },
    /// Answer to a heartbeat.
    Pong,
    /// The match is over and stored as match `match_no` of the room.
    MatchStored { code: String, match_no: u32 },
    /// The server is going away (shutdown); reconnect later with `join_room`.
    Bye { code: i32, message: String },
    /// Quick match: where the player's wait stands, about once a second while queued.
    /// `found`: players (the recipient included) waiting for a table of these rules on every
    /// instance, at most 4. `queued` false: no longer waiting (left; or a table was found and
    /// `joined` follows). Added to v1 like `change_seat`.
    QueueStatus { rules: String, queued: bool, waited_ms: u64, found: u8 },
    /// The recipient's rating under `rules` after a ranked match (sent to each seated human
    /// once the match is stored): the number shown to players, its change by this match, and
    /// the ranked matches played under these rules. Added to v1.
    Rating { rules: String, rating: i64, change: i64, matches: u32 },
}

impl ServerMsg {
    /// Every card id this message shows its recipient (for leak checks).
    pub fn cards(&self) -> CardSet {
        match self {
            ServerMsg::Applied { events, prompt, .. } => {
                events.iter().fold(prompt.as_ref().map_or(CardSet::EMPTY, TableView::cards), |s, e| s.union(e.cards()))
            }
            ServerMsg::State { view, .. } => view.cards(),
            ServerMsg::Welcome { .. }
            | ServerMsg::Error { .. }
            | ServerMsg::Redirect { .. }
            | ServerMsg::Joined { .. }
            | ServerMsg::Room { .. }
            | ServerMsg::Hosting { .. }
            | ServerMsg::Pong
            | ServerMsg::MatchStored { .. }
            | ServerMsg::Bye { .. }
            | ServerMsg::QueueStatus { .. }
            | ServerMsg::Rating { .. } => CardSet::EMPTY,
        }
    }

    pub fn error(code: ErrorCode, message: impl Into<String>) -> ServerMsg {
        ServerMsg::Error { code: code.code(), name: code.name().into(), message: message.into(), seq: None }
    }
}

/// Why a frame was not a valid client message.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DecodeError {
    pub code: ErrorCode,
    pub message: String,
}

/// Decodes one client text frame: size limit, JSON, known `type`, fields.
pub fn decode_client(text: &str) -> Result<ClientMsg, DecodeError> {
    if text.len() > MAX_FRAME_BYTES {
        return Err(DecodeError {
            code: ErrorCode::FrameTooLarge,
            message: format!("frame of {} bytes exceeds {MAX_FRAME_BYTES}", text.len()),
        });
    }
    let value: serde_json::Value = serde_json::from_str(text)
        .map_err(|e| DecodeError { code: ErrorCode::MalformedMessage, message: format!("not JSON: {e}") })?;
    let Some(kind) = value.get("type").and_then(|t| t.as_str()).map(str::to_owned) else {
        return Err(DecodeError { code: ErrorCode::MalformedMessage, message: "missing \"type\"".into() });
    };
    if !CLIENT_TYPES.contains(&kind.as_str()) {
        let shown: String = kind.chars().take(40).collect();
        return Err(DecodeError {
            code: ErrorCode::UnknownMessage,
            message: format!("unknown message type {shown:?}"),
        });
    }
    serde_json::from_value(value).map_err(|e| {
        // serde's message may quote a value: never one of a hello's (its token could be in it).
        let message = if kind == "hello" {
            "bad hello: expected {\"protocol_version\": N, \"player_id\": \"…\", \"token\": \"…\"}".to_string()
        } else {
            format!("bad {kind}: {e}")
        };
        DecodeError { code: ErrorCode::MalformedMessage, message }
    })
}

/// Every `type` a client may send.
pub const CLIENT_TYPES: &[&str] = &[
    "hello",
    "heartbeat",
    "create_room",
    "join_room",
    "spectate",
    "set_seat",
    "set_spectator_hands",
    "ready",
    "start",
    "intent",
    "resync",
    "rematch",
    "leave",
    "disband",
    "change_seat",
    "auto_play",
    "seen",
    "queue_join",
    "queue_leave",
];

/// Encodes a server message (never fails for these types).
pub fn encode_server(msg: &ServerMsg) -> String {
    serde_json::to_string(msg)
        .unwrap_or_else(|_| r#"{"type":"error","code":58,"name":"internal","message":"encode"}"#.into())
}

/// Whether a room code is well formed (not whether it exists).
pub fn valid_room_code(code: &str) -> bool {
    code.len() == ROOM_CODE_LEN && code.bytes().all(|b| ROOM_CODE_ALPHABET.contains(&b))
}

#[cfg(test)]
mod tests;
