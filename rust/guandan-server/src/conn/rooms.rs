//! A connection's room: creating one, joining or spectating one here (taken over or revived
//! from the database when needed), redirecting to the instance that owns it, and leaving it.

use super::Session;
use crate::lease::{self, Entry};
use crate::outbox::Outbox;
use crate::room::{self, ConnId, PlayerRef, RoomCmd};
use guandan_proto::{ErrorCode, ServerMsg};
use std::time::Duration;
use tokio::time::Instant;

impl Session {
    pub(super) async fn leave_room(&mut self) {
        if let Some((_, tx)) = self.room.take() {
            // Wait until the room has let the seat go (and closed, if that emptied it): the next
            // room this player creates must not find the last one still counted.
            let (done, handled) = tokio::sync::oneshot::channel();
            let gone = RoomCmd::Gone { conn: self.id, silent_since: Instant::now(), left: true, done: Some(done) };
            if tx.send(gone).await.is_ok() {
                let _ = tokio::time::timeout(Duration::from_secs(5), handled).await;
            }
        }
    }

    /// A room of the player's own (leaving the queue and the room it is in, if it may).
    pub(super) async fn create_room(
        &mut self,
        player: PlayerRef,
        rules: Option<String>,
        spectator_delay: Option<u32>,
        seed: Option<u64>,
        spectator_hands: Option<u8>,
    ) {
        if self.seated_elsewhere(&player, None).await {
            return;
        }
        // Choosing a room of one's own ends the wait for a quick match.
        self.leave_queue().await;
        self.leave_room().await;
        // Still seated: the room just left holds the seat while its match runs.
        if let Some(code) = self.app.seats().room_of(&player.id).await {
            self.app.metrics().seats_refused.inc();
            return self.refuse(ErrorCode::AlreadySeated, crate::seats::already_seated(&code));
        }
        match room::create(&self.app, &player, rules, spectator_delay, seed, spectator_hands).await {
            Ok((code, tx)) => {
                let cmd = RoomCmd::Join {
                    conn: self.id,
                    player: Box::new(player),
                    out: self.out.clone(),
                    last_action_seq: None,
                };
                if tx.send(cmd).await.is_ok() {
                    self.room = Some((code, tx));
                }
            }
            Err((code, message)) => self.refuse(code, message),
        }
    }

    /// Joins or spectates a room on this instance, or redirects to the instance that owns it. A
    /// room whose owner's lease ran out is taken over here first; one of this instance's rooms
    /// that stopped after a refused write is rebuilt from its log.
    pub(super) async fn enter(&mut self, code: String, cmd: impl FnOnce(ConnId, Outbox) -> RoomCmd) {
        if !guandan_proto::valid_room_code(&code) {
            return self.refuse(ErrorCode::RoomNotFound, "not a room code");
        }
        let local = self.app.rooms().lock().get(&code).cloned();
        let entry = match local {
            Some(tx) => Entry::Here(tx),
            None => match self.app.db().room(&code).await {
                Ok(Some(row)) => {
                    let entry = if row.instance != self.app.cfg().instance {
                        lease::take_over(&self.app, row).await
                    } else {
                        lease::revive(&self.app, row).await
                    };
                    match entry {
                        Ok(entry) => entry,
                        Err(e) => return self.refuse(ErrorCode::Internal, e.to_string()),
                    }
                }
                Ok(None) => Entry::Gone,
                Err(e) => return self.refuse(ErrorCode::Internal, e.to_string()),
            },
        };
        match entry {
            Entry::Here(tx) => {
                // Only a room that exists replaces the current one.
                if self.room.as_ref().is_some_and(|(c, _)| *c != code) {
                    self.leave_room().await;
                }
                if tx.send(cmd(self.id, self.out.clone())).await.is_ok() {
                    self.room = Some((code, tx));
                } else {
                    self.refuse(ErrorCode::RoomNotFound, "the room is closed");
                }
            }
            Entry::Owner(row) => {
                self.app.metrics().protocol_errors.inc();
                self.send(&ServerMsg::Redirect { code, instance: row.instance, url: row.url });
            }
            Entry::Gone => self.refuse(ErrorCode::RoomNotFound, "no such room"),
        }
    }
}
