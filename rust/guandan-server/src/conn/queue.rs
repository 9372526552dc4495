//! A connection in the quick-match queue: joining it, leaving it, and what the matchmaker says
//! (the wait so far, or the table to join).

use super::Session;
use crate::queue::QueueEvent;
use crate::room::{PlayerRef, RoomCmd};
use guandan_proto::{ErrorCode, ServerMsg};
use tokio::sync::mpsc;

pub(super) struct Queued {
    rules: String,
    events: mpsc::Receiver<QueueEvent>,
}

/// The next event of the queue the connection waits in (never, when it waits in none).
pub(super) async fn next_queue_event(q: &mut Option<Queued>) -> QueueEvent {
    match q {
        Some(q) => match q.events.recv().await {
            Some(e) => e,
            None => std::future::pending().await,
        },
        None => std::future::pending().await,
    }
}

impl Session {
    /// Quick match: waits for a table of `rules` (default competition) in the shared queue.
    pub(super) async fn queue_join(&mut self, player: &PlayerRef, rules: Option<String>) {
        let rules = rules.unwrap_or_else(|| "competition".into());
        if guandan_core::rules::RuleConfig::preset(&rules).is_none() {
            let shown: String = rules.chars().take(32).collect();
            return self.refuse(ErrorCode::BadArgument, format!("unknown rule preset {shown:?}"));
        }
        if self.room.is_some() {
            return self.refuse(ErrorCode::BadRoomState, "leave your room before the quick-match queue");
        }
        if self.queue.is_some() {
            return self.refuse(ErrorCode::BadRoomState, "already in the quick-match queue");
        }
        // One seat per account: not while another connection's seat (or a match this one left)
        // holds the account.
        if let Some(code) = self.app.seats().room_of(&player.id).await {
            self.app.metrics().seats_refused.inc();
            return self.refuse(ErrorCode::AlreadySeated, crate::seats::already_seated(&code));
        }
        let rating =
            self.app.db().matchmaking_rating(&player.id, &rules).await.unwrap_or(crate::queue::NEW_PLAYER_RATING);
        let source = crate::listener::source_key(self.peer.ip()).to_string();
        let (pool, instance) = (&self.app.cfg().queue_pool, &self.app.cfg().instance);
        match self.app.db().queue_join(&player.id, pool, &rules, rating, instance, &source).await {
            Ok(true) => {
                let events = self.app.waiters().add(&player.id);
                self.app.metrics().queued.inc();
                self.queue = Some(Queued { rules, events });
                self.send_queue_status(true, 0, 1);
            }
            Ok(false) => self.refuse(ErrorCode::BadRoomState, "already in the quick-match queue (another connection)"),
            Err(e) => self.refuse(ErrorCode::Internal, e.to_string()),
        }
    }

    /// One seat per account: refuses (true) a seat in a room other than `target` while the
    /// account holds one in a room other than this connection's own, or waits in the quick-match
    /// queue from another connection. (The room claims the seat again when it seats the player.)
    pub(super) async fn seated_elsewhere(&self, player: &PlayerRef, target: Option<&str>) -> bool {
        let own = self.room.as_ref().map(|(c, _)| c.as_str());
        let why = match self.app.seats().room_of(&player.id).await {
            Some(code) if Some(code.as_str()) != own && Some(code.as_str()) != target => {
                crate::seats::already_seated(&code)
            }
            _ if self.queue.is_none()
                && (self.app.waiters().contains(&player.id) || self.app.seats().queued_elsewhere(&player.id).await) =>
            {
                "you wait in the quick-match queue on another connection: leave it (queue_leave there) first".into()
            }
            _ => return false,
        };
        self.app.metrics().seats_refused.inc();
        self.refuse(ErrorCode::AlreadySeated, why);
        true
    }

    /// Leaves the queue if waiting in it; true when it was.
    pub(super) async fn leave_queue(&mut self) -> bool {
        let Some(_) = self.queue.take() else { return false };
        self.app.metrics().queued.dec();
        if let Some(p) = &self.player {
            self.app.waiters().remove(&p.id);
            if let Err(e) = self.app.db().queue_leave(&p.id).await {
                tracing::warn!(error = %e, "queue row not removed");
            }
        }
        true
    }

    pub(super) fn send_queue_status(&self, queued: bool, waited_ms: u64, found: u8) {
        let rules = self.queue.as_ref().map(|q| q.rules.clone()).unwrap_or_default();
        self.send(&ServerMsg::QueueStatus { rules, queued, waited_ms, found });
    }

    /// What the matchmaker said: the wait so far, or the table to join.
    pub(super) async fn on_queue(&mut self, e: QueueEvent) {
        match e {
            QueueEvent::Status { waited_ms, found } => self.send_queue_status(true, waited_ms, found),
            QueueEvent::Seated { code } => {
                let rules = self.queue.take().map(|q| q.rules).unwrap_or_default();
                self.app.metrics().queued.dec();
                self.send(&ServerMsg::QueueStatus { rules, queued: false, waited_ms: 0, found: 4 });
                let Some(player) = self.player.clone() else { return };
                self.enter(code, |conn, out| RoomCmd::Join {
                    conn,
                    player: Box::new(player),
                    out,
                    last_action_seq: None,
                })
                .await;
            }
        }
    }
}
