//! The error codes every call of the engine returns: the `ERR_*` constants (guandan-core's
//! `ErrorCode` numbers that Godot meets, and `OK`) and `error_codes()`, core's whole table.

use godot::prelude::*;
use guandan_core::error::ErrorCode;

use super::GuandanEngine;
use crate::codes::{self, num};

#[godot_api(secondary)]
impl GuandanEngine {
    // Error codes: guandan-core's ErrorCode numbers (`error_codes()` lists them all; a Godot
    // test checks that every code below 40 — the network protocol's range — is here).

    /// Success.
    #[constant]
    pub const OK: i64 = codes::OK;
    /// Card ids out of range, repeated, empty, or no combination.
    #[constant]
    pub const ERR_INVALID_CARDS: i64 = num(ErrorCode::InvalidCards);
    /// It is another seat's turn.
    #[constant]
    pub const ERR_NOT_YOUR_TURN: i64 = num(ErrorCode::NotYourTurn);
    /// The leader may not pass.
    #[constant]
    pub const ERR_CANNOT_PASS: i64 = num(ErrorCode::CannotPass);
    /// A card is not in the player's hand.
    #[constant]
    pub const ERR_CARD_NOT_FOUND: i64 = num(ErrorCode::CardNotFound);
    /// The player has no cards left.
    #[constant]
    pub const ERR_HAND_EMPTY: i64 = num(ErrorCode::HandEmpty);
    /// Not a card the player may give or return now, or nothing is owed.
    #[constant]
    pub const ERR_INVALID_TRIBUTE: i64 = num(ErrorCode::InvalidTribute);
    /// The match is over.
    #[constant]
    pub const ERR_GAME_OVER: i64 = num(ErrorCode::GameOver);
    /// Wrong phase, duplicate vote, or a similar conflict.
    #[constant]
    pub const ERR_STATE_CONFLICT: i64 = num(ErrorCode::StateConflict);
    /// The play does not beat the table.
    #[constant]
    pub const ERR_CANNOT_BEAT: i64 = num(ErrorCode::CannotBeat);
    /// An internal error: a fatal engine error was caught (see `crashed`).
    #[constant]
    pub const ERR_INTERNAL: i64 = num(ErrorCode::Internal);
    /// No match is running.
    #[constant]
    pub const ERR_NO_MATCH: i64 = num(ErrorCode::NoMatch);
    /// There is no human seat to act for.
    #[constant]
    pub const ERR_NOT_HUMAN: i64 = num(ErrorCode::NotHuman);
    /// A malformed argument (seat list, reading index, resource, name...).
    #[constant]
    pub const ERR_BAD_ARGUMENT: i64 = num(ErrorCode::BadArgument);
    /// A position no legal match can reach.
    #[constant]
    pub const ERR_BAD_SETUP: i64 = num(ErrorCode::BadSetup);
    /// Empty record (ReplayRecorder).
    #[constant]
    pub const ERR_LOG_EMPTY: i64 = num(ErrorCode::LogEmpty);
    /// Malformed record line (ReplayRecorder).
    #[constant]
    pub const ERR_LOG_MALFORMED: i64 = num(ErrorCode::LogMalformed);
    /// Unsupported record version (ReplayRecorder).
    #[constant]
    pub const ERR_LOG_VERSION: i64 = num(ErrorCode::LogVersion);
    /// The record holds an illegal action (ReplayRecorder).
    #[constant]
    pub const ERR_LOG_REJECTED: i64 = num(ErrorCode::LogRejected);
    /// Replaying the record does not give the recorded state hash (ReplayRecorder).
    #[constant]
    pub const ERR_LOG_HASH: i64 = num(ErrorCode::LogHash);
    /// A checkpoint past the record's end, out of order or repeated (ReplayRecorder).
    #[constant]
    pub const ERR_LOG_CHECKPOINT: i64 = num(ErrorCode::LogCheckpoint);
    /// Reading or writing a file failed (ReplayRecorder).
    #[constant]
    pub const ERR_IO: i64 = num(ErrorCode::Io);
    /// No record file of that name (ReplayRecorder).
    #[constant]
    pub const ERR_NOT_FOUND: i64 = num(ErrorCode::NotFound);
    /// The recorder holds no record (ReplayRecorder).
    #[constant]
    pub const ERR_NO_RECORD: i64 = num(ErrorCode::NoRecord);

    /// Every error code of the project (guandan-core's `ErrorCode`): `{NAME: code}` with names
    /// in upper case (`INVALID_CARDS`, `LOG_CHECKPOINT`, …). The `ERR_*` constants are the ones
    /// Godot meets; tests check them against this table.
    #[func]
    pub fn error_codes() -> VarDictionary {
        let mut d = VarDictionary::new();
        for &c in ErrorCode::ALL {
            d.set(c.name().to_uppercase(), num(c));
        }
        d
    }
}
