//! One seat per account: the holds this room keeps in `App::seats` (on PostgreSQL, the
//! database) for the players seated here, brought in line with the seats after each command
//! and given back when the room's task ends.

use super::*;

/// The room's holds on its players' seats, owned by the room and changed only here.
#[derive(Default)]
pub(super) struct Claims {
    /// Players whose seat here this room has recorded in `App::seats`.
    claimed: Vec<String>,
    /// Seated players whose seat another room holds (a race): tried again at the next tick.
    conflicts: Vec<String>,
}

impl Claims {
    /// The lobby claimed this player's seat before seating it.
    pub(super) fn claimed(&mut self, player: &str) {
        if !self.claimed.iter().any(|p| p == player) {
            self.claimed.push(player.to_string());
        }
    }

    /// A seat another room held is tried again (at each tick).
    pub(super) fn retry_conflicts(&mut self) {
        self.conflicts.clear();
    }
}

impl Room {
    /// The room's task ends: it leaves this instance's table and its creator's count.
    pub(super) async fn ended(&mut self) {
        // Out of the registry and the table in one step: a join that comes meanwhile rebuilds
        // the room (which claims its seats again) instead of waiting on a task that no longer
        // reads its commands; the shared holds go after, only those made before now.
        let claimed = std::mem::take(&mut self.claims.claimed);
        let released = self.app.seats().release_here_all(&claimed, &self.code);
        self.app.rooms().lock().remove(&self.code);
        self.app.metrics().rooms.dec();
        if let Some(creator) = &self.stored.creator {
            self.app.release_room(creator);
        }
        self.app.seats().release_shared(&claimed, &self.code, released).await;
    }

    /// Brings `App::seats` in line with the room's seats: a player holds a seat here while
    /// seated — except, once the match is over, one who left or declined the rematch (the vote's
    /// end frees that seat; they may sit elsewhere meanwhile). A seat another room holds for the
    /// same account (only through a race: rooms claim before seating) is claimed when it is
    /// given back there.
    pub(super) async fn sync_seats(&mut self) {
        let over = matches!(self.state, RoomState::Finished | RoomState::VotePhase);
        let now: Vec<String> = self
            .seats
            .iter()
            .filter(|s| !(over && (s.conn.is_none() || s.rematch == Some(false))))
            .filter_map(|s| s.player.as_ref().map(|p| p.id.clone()))
            .collect();
        // Only changes reach the registry (on PostgreSQL, the database): most commands make none.
        let mut gone = Vec::new();
        self.claims.claimed.retain(|p| {
            let kept = now.contains(p);
            if !kept {
                gone.push(p.clone());
            }
            kept
        });
        for p in gone {
            self.app.seats().release(&p, &self.code).await;
        }
        self.claims.conflicts.retain(|p| now.contains(p));
        // A quick-match table before its claim: the queue takes its players' holds in the
        // claim's transaction (a table another instance won must not hold them meanwhile).
        if self.stored.ranked && self.state == RoomState::ReadyCheck && self.play.game().is_none() {
            return;
        }
        for p in now {
            if self.claims.claimed.contains(&p) || self.claims.conflicts.contains(&p) {
                continue;
            }
            match self.app.seats().claim(&p, &self.code).await {
                Ok(()) => self.claims.claimed.push(p),
                Err(other) => {
                    tracing::warn!(player = p, other, "a player is seated here and in another room");
                    self.app.metrics().seat_conflicts.inc();
                    self.claims.conflicts.push(p);
                }
            }
        }
    }
}
