//! A client's messages, one handler a kind: `hello` before anything else (authentication), then
//! the queue, rooms, heartbeats, and everything else routed to the connection's room.

use super::{PONG, Session};
use crate::accounts::{self, AuthError};
use crate::room::{PlayerRef, RoomCmd};
use guandan_proto::{ClientMsg, ErrorCode, MIN_COMPATIBLE_PROTOCOL, PROTOCOL_VERSION, ServerMsg};
use tokio::time::Instant;

impl Session {
    pub(super) async fn handle(&mut self, msg: ClientMsg) {
        let Some(player) = self.player.clone() else {
            return self.hello(msg).await;
        };
        // A room that closed by itself (a finished quick match's) is no longer this connection's:
        // the player may queue or sit elsewhere without leaving it first.
        if self.room.as_ref().is_some_and(|(_, tx)| tx.is_closed()) {
            self.room = None;
        }
        match msg {
            ClientMsg::Hello { .. } => self.refuse(ErrorCode::BadRoomState, "already authenticated"),
            ClientMsg::Heartbeat => {
                let _ = self.out.send(PONG.clone());
            }
            ClientMsg::QueueJoin { rules } => self.queue_join(&player, rules).await,
            ClientMsg::QueueLeave => {
                if self.leave_queue().await {
                    self.send_queue_status(false, 0, 0);
                } else {
                    self.refuse(ErrorCode::BadRoomState, "not in the quick-match queue");
                }
            }
            ClientMsg::CreateRoom { rules, spectator_delay, seed, spectator_hands } => {
                self.create_room(player, rules, spectator_delay, seed, spectator_hands).await
            }
            ClientMsg::JoinRoom { code, last_action_seq } => {
                if self.seated_elsewhere(&player, Some(&code)).await {
                    return;
                }
                self.leave_queue().await;
                self.enter(code, |conn, out| RoomCmd::Join { conn, player: Box::new(player), out, last_action_seq })
                    .await
            }
            ClientMsg::Spectate { code } => {
                self.leave_queue().await;
                self.enter(code, |conn, out| RoomCmd::Spectate { conn, out }).await
            }
            // Waits until the room has let the seat go: what the client sends next (a seat
            // elsewhere, the queue) finds the account free (one seat per account).
            ClientMsg::Leave if self.room.is_some() => self.leave_room().await,
            // Nothing to leave (the room closed by itself): the client's goodbye to it is not an
            // error, so a refusal cannot land on what the client asks next.
            ClientMsg::Leave => {}
            other => match &self.room {
                Some((_, tx)) => {
                    let leaving = matches!(other, ClientMsg::Leave);
                    if tx
                        .send(RoomCmd::Msg {
                            conn: self.id,
                            out: self.out.clone(),
                            msg: Box::new(other),
                            received: Instant::now(),
                        })
                        .await
                        .is_err()
                    {
                        self.room = None;
                        self.refuse(ErrorCode::RoomNotFound, "the room is closed");
                    } else if leaving {
                        self.room = None;
                    }
                }
                None => self.refuse(ErrorCode::RoomNotFound, "join a room first"),
            },
        }
    }

    pub(super) async fn hello(&mut self, msg: ClientMsg) {
        let ClientMsg::Hello { protocol_version, player_id, token } = msg else {
            return self.refuse(ErrorCode::Unauthenticated, "say hello first");
        };
        if protocol_version < MIN_COMPATIBLE_PROTOCOL {
            return self.refuse(
                ErrorCode::ProtocolTooOld,
                format!(
                    "protocol {protocol_version} is too old: this server needs at least {MIN_COMPATIBLE_PROTOCOL}; please update the game"
                ),
            );
        }
        match accounts::authenticate(&self.app, Some(&player_id), token.expose(), true).await {
            Ok(me) => {
                self.peer.authenticated();
                self.kick = Some(self.app.accounts().live.add(&player_id, self.id, &me.session));
                // Accounts made before the nickname rule are shown without what it refuses.
                let nickname = guandan_proto::displayable_nickname(&me.nickname);
                self.player = Some(PlayerRef { id: player_id.clone(), nickname });
                self.send(&ServerMsg::Welcome {
                    protocol_version: PROTOCOL_VERSION.min(protocol_version),
                    player_id,
                    instance: self.app.cfg().instance.clone(),
                    token: me.new_token,
                });
            }
            // One answer: an expired session is soon deleted (then unknown like a wrong token).
            Err(AuthError::Unknown | AuthError::Expired) => self.refuse(
                ErrorCode::AuthFailed,
                "unknown player or wrong token (the session may have expired or been logged out: log in again)",
            ),
            Err(AuthError::Db(e)) => self.refuse(ErrorCode::Internal, e.to_string()),
        }
    }
}
