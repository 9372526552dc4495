//! One error vocabulary for every front end: the rules, the replay loader, the GDExtension, the
//! CLI and the network protocol all report failures with an [`ErrorCode`]. Numbers are stable
//! (saved in files and sent over the wire): add new codes at the end of their range.

use serde::{Deserialize, Serialize};

macro_rules! error_codes {
    ($( $(#[doc = $doc:literal])* $name:ident = $code:literal, $snake:literal, $describe:literal; )*) => {
        /// Every error kind of the project with its stable number (0 is success, never an error).
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
        #[serde(rename_all = "snake_case")]
        #[repr(i32)]
        pub enum ErrorCode {
            $( $(#[doc = $doc])* $name = $code, )*
        }

        impl ErrorCode {
            /// Every code, in numeric order.
            pub const ALL: &'static [ErrorCode] = &[$(ErrorCode::$name),*];

            pub fn from_code(code: i32) -> Option<ErrorCode> {
                match code {
                    $( $code => Some(ErrorCode::$name), )*
                    _ => None,
                }
            }

            /// Stable snake_case name (as serialized).
            pub fn name(self) -> &'static str {
                match self {
                    $( ErrorCode::$name => $snake, )*
                }
            }

            /// A short description that never contains card or hand details (safe to log).
            pub fn describe(self) -> &'static str {
                match self {
                    $( ErrorCode::$name => $describe, )*
                }
            }
        }
    };
}

error_codes! {
    // Rule errors (RuleError).
    /// Card ids out of range, repeated, empty, or no combination.
    InvalidCards = 1, "invalid_cards", "invalid cards";
    /// It is another seat's turn.
    NotYourTurn = 2, "not_your_turn", "not your turn";
    /// The leader may not pass.
    CannotPass = 3, "cannot_pass", "cannot pass when leading";
    /// A card is not in the player's hand.
    CardNotFound = 4, "card_not_found", "card not in the hand";
    /// The player has no cards left.
    HandEmpty = 5, "hand_empty", "hand empty";
    /// Not a card the player may give or return now, or nothing is owed.
    InvalidTribute = 6, "invalid_tribute", "invalid tribute or return";
    /// The match is over.
    GameOver = 7, "game_over", "the match is over";
    /// Wrong phase, wrong seq, duplicate vote, or a similar conflict.
    StateConflict = 8, "state_conflict", "state conflict (wrong phase, seq or duplicate action)";
    /// The play does not beat the table.
    CannotBeat = 9, "cannot_beat", "does not beat the table";
    // Host errors (GDExtension, CLI).
    /// No match has been started (or it was discarded).
    NoMatch = 10, "no_match", "no match";
    /// No human seat to act for (all seats are AI, or the seat is AI-controlled).
    NotHuman = 11, "not_human", "no human seat to act for";
    /// An argument is malformed or out of range.
    BadArgument = 12, "bad_argument", "bad argument";
    /// A position (Setup) that no legal match can reach.
    BadSetup = 13, "bad_setup", "inconsistent position";
    // Log errors (LogError).
    /// Empty record.
    LogEmpty = 20, "log_empty", "empty record";
    /// A malformed record line.
    LogMalformed = 21, "log_malformed", "malformed record";
    /// A record version this build cannot read.
    LogVersion = 22, "log_version", "unsupported record version";
    /// The record holds an illegal action.
    LogRejected = 23, "log_rejected", "record holds an illegal action";
    /// Replaying the record does not give the recorded state hash.
    LogHash = 24, "log_hash", "record state hash mismatch";
    /// A checkpoint past the record's end, out of order or duplicated.
    LogCheckpoint = 25, "log_checkpoint", "misplaced record checkpoint";
    // Files.
    /// Reading or writing a file failed.
    Io = 30, "io", "file error";
    /// No record of that name.
    NotFound = 31, "not_found", "no such record";
    /// Nothing recorded yet.
    NoRecord = 32, "no_record", "nothing recorded";
    // Network protocol.
    /// The client's protocol version is older than the server supports: update the game.
    ProtocolTooOld = 40, "protocol_too_old", "client too old, please update";
    /// The message is not valid JSON of a known shape.
    MalformedMessage = 41, "malformed_message", "malformed message";
    /// The message type is unknown.
    UnknownMessage = 42, "unknown_message", "unknown message type";
    /// The frame exceeds the size limit.
    FrameTooLarge = 43, "frame_too_large", "message too large";
    /// The connection has not authenticated.
    Unauthenticated = 44, "unauthenticated", "not authenticated";
    /// Wrong player id or token.
    AuthFailed = 45, "auth_failed", "authentication failed";
    /// No room with that code.
    RoomNotFound = 46, "room_not_found", "no such room";
    /// Every seat is taken.
    RoomFull = 47, "room_full", "room full";
    /// The room is locked (a match is running).
    RoomLocked = 48, "room_locked", "room locked";
    /// The connection may not act for that seat.
    NotYourSeat = 49, "not_your_seat", "not your seat";
    /// The intent's seq is below the last acknowledged one or not the next.
    StaleSeq = 50, "stale_seq", "stale or out-of-order seq";
    /// The intent repeats a seq or nonce already used.
    DuplicateSeq = 51, "duplicate_seq", "repeated seq or nonce";
    /// Too many messages.
    RateLimited = 52, "rate_limited", "rate limited";
    /// The room lives on another server instance (the error names it).
    WrongInstance = 53, "wrong_instance", "room is on another instance";
    /// Only the host may do that.
    NotHost = 54, "not_host", "only the host may do that";
    /// The room's state does not allow that now.
    BadRoomState = 55, "bad_room_state", "not allowed in this room state";
    /// The nickname is empty, too long or not allowed.
    BadNickname = 56, "bad_nickname", "invalid nickname";
    /// The server is shutting down.
    ShuttingDown = 57, "shutting_down", "server shutting down";
    /// A server fault (the room is unharmed).
    Internal = 58, "internal", "internal error";
    /// A surrender vote was refused or is not possible now.
    SurrenderRefused = 59, "surrender_refused", "surrender refused";
    /// The client did not read its messages fast enough; the server closed the connection
    /// (reconnect and rejoin: the missed actions are sent again).
    SlowConsumer = 60, "slow_consumer", "too slow to receive, disconnected";
    /// A newer connection of the same account took this connection's seat; this one is closed
    /// (a client does not reconnect by itself after it: the player is playing elsewhere).
    SessionReplaced = 61, "session_replaced", "replaced by a newer connection of the account";
    /// The account is seated in another room on this server (one seat per account): leave that
    /// room first (the error names it).
    AlreadySeated = 62, "already_seated", "seated in another room";
    // Accounts (issue 36).
    /// The login name is taken by another account (names are compared without case).
    NameTaken = 63, "name_taken", "login name taken";
    /// The login name breaks the rule (`guandan_proto::check_login_name`).
    BadLoginName = 64, "bad_login_name", "invalid login name";
    /// The new password is too short or too long.
    BadPassword = 65, "bad_password", "password too short or too long";
    /// The account has a login name already (it was claimed before).
    AlreadyClaimed = 66, "already_claimed", "account already claimed";
    // Transport (the clients' TLS).
    /// The server's TLS certificate was refused (expired, for another name, not signed by a
    /// trusted authority): nothing was sent to it.
    CertificateRefused = 70, "certificate_refused", "the server's certificate was refused";
    /// Plain text (ws://, http://) to a public host that the player has not allowed: nothing was
    /// sent (the game asks the player first).
    PlaintextNotAllowed = 71, "plaintext_not_allowed", "unencrypted connection to a public server not allowed";
}

impl ErrorCode {
    /// The stable number.
    pub fn code(self) -> i32 {
        self as i32
    }
}

impl std::fmt::Display for ErrorCode {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{} ({})", self.name(), self.code())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn codes_round_trip_and_are_unique() {
        let mut seen = std::collections::BTreeSet::new();
        for &c in ErrorCode::ALL {
            assert!(seen.insert(c.code()), "duplicate code {}", c.code());
            assert_eq!(ErrorCode::from_code(c.code()), Some(c));
            assert_eq!(serde_json::to_string(&c).unwrap(), format!("\"{}\"", c.name()));
            assert!(!c.describe().is_empty());
        }
        assert_eq!(ErrorCode::from_code(0), None);
        assert_eq!(ErrorCode::CannotBeat.code(), 9);
        assert_eq!(ErrorCode::LogHash.code(), 24);
    }
}
