//! One seat per account: the room each account holds a seat in. Rooms keep it: a room claims
//! a player's seat before it seats them (refused when the account holds one elsewhere), and
//! gives it back when the seat is freed or the room ends. Connections read it to refuse the
//! quick-match queue, a new room or another room's seat with `already_seated`, naming the room
//! to go back to.
//!
//! This instance's holds are kept in memory (the fast answer, and all there is on SQLite, which
//! has one instance). On PostgreSQL every hold is also a row of `seat_holds` (`db::seats`), which
//! instances cannot both win: a claim is refused when another instance's live hold has the
//! account, and a crashed instance's holds lapse with its lease.

use crate::db::Db;
use parking_lot::Mutex;
use std::collections::HashMap;

#[derive(Default)]
pub struct Seats {
    /// Player id → the code of the room holding their seat (this instance's rooms).
    map: Mutex<HashMap<String, String>>,
    /// PostgreSQL and this instance's name: holds shared by every instance.
    shared: Option<(Db, String)>,
}

impl Seats {
    /// The registry of an instance named `instance` on `db`: shared through the database on
    /// PostgreSQL, in memory only on SQLite.
    pub fn new(db: &Db, instance: &str) -> Seats {
        let shared = (db.backend == "postgres").then(|| (db.clone(), instance.to_string()));
        Seats { map: Mutex::default(), shared }
    }

    /// Records `player`'s seat in room `code`; the other room's code when they hold one there
    /// (on this instance, or on PostgreSQL on any).
    pub async fn claim(&self, player: &str, code: &str) -> Result<(), String> {
        let fresh = self.claim_here(player, code)?;
        let Some((db, instance)) = &self.shared else { return Ok(()) };
        match db.hold_seat(player, code, instance).await {
            Ok(None) => Ok(()),
            Ok(Some(other)) => {
                if fresh {
                    self.release_here(player, code);
                }
                Err(other)
            }
            Err(e) => {
                // The room cannot store anything either meanwhile; this instance's rule holds.
                tracing::warn!(error = %e, player, "seat hold not written");
                Ok(())
            }
        }
    }

    /// The in-memory claim; true when it is new.
    fn claim_here(&self, player: &str, code: &str) -> Result<bool, String> {
        let mut map = self.map.lock();
        match map.get(player) {
            Some(other) if other != code => Err(other.clone()),
            Some(_) => Ok(false),
            None => {
                map.insert(player.to_string(), code.to_string());
                Ok(true)
            }
        }
    }

    fn release_here(&self, player: &str, code: &str) -> bool {
        let mut map = self.map.lock();
        if map.get(player).is_some_and(|c| c == code) {
            map.remove(player);
            return true;
        }
        false
    }

    /// `player`'s seat in room `code` is free (nothing changes if they are recorded elsewhere).
    pub async fn release(&self, player: &str, code: &str) {
        self.release_here(player, code);
        if let Some((db, _)) = &self.shared
            && let Err(e) = db.release_seat(player, code).await
        {
            // It lapses when the room closes or this instance's lease ends.
            tracing::warn!(error = %e, player, "seat hold not released");
        }
    }

    /// A room that ends: its players' seats here are free at once; returns the moment, for
    /// [`Seats::release_shared`].
    pub fn release_here_all(&self, players: &[String], code: &str) -> i64 {
        for p in players {
            self.release_here(p, code);
        }
        crate::db::now_ms()
    }

    /// The shared holds of a room that ended, those made before `before` (a rebuilt room of the
    /// same code may have claimed them again since).
    pub async fn release_shared(&self, players: &[String], code: &str, before: i64) {
        let Some((db, _)) = &self.shared else { return };
        for p in players {
            if let Err(e) = db.release_seat_before(p, code, before).await {
                tracing::warn!(error = %e, player = p, "seat hold not released");
            }
        }
    }

    /// The room where `player` holds a seat (on PostgreSQL: on any instance).
    pub async fn room_of(&self, player: &str) -> Option<String> {
        if let Some(code) = self.map.lock().get(player).cloned() {
            return Some(code);
        }
        let (db, _) = self.shared.as_ref()?;
        db.held_seat(player).await.unwrap_or_else(|e| {
            tracing::warn!(error = %e, player, "seat holds not read");
            None
        })
    }

    /// Whether `player` waits in the quick-match queue through another instance (PostgreSQL;
    /// on SQLite there is none).
    pub async fn queued_elsewhere(&self, player: &str) -> bool {
        let Some((db, instance)) = &self.shared else { return false };
        db.queued_elsewhere(player, instance).await.unwrap_or(false)
    }

    /// At start, before rooms are restored: the holds of this instance's earlier run go (its
    /// restored rooms claim theirs again).
    pub async fn forget_earlier_run(&self) -> Result<(), crate::db::DbError> {
        match &self.shared {
            Some((db, instance)) => db.forget_seats(instance).await,
            None => Ok(()),
        }
    }

    pub fn len(&self) -> usize {
        self.map.lock().len()
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }
}

/// The refusal's message: where the seat is, and how to be free of it.
pub fn already_seated(code: &str) -> String {
    format!("you have a seat in room {code}: go back to it (join_room {code}) and leave it first")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test]
    async fn one_room_per_player_until_it_lets_the_seat_go() {
        let s = Seats::default();
        assert_eq!(s.claim("p", "AAAAAA").await, Ok(()));
        assert_eq!(s.claim("p", "AAAAAA").await, Ok(()), "the same room again");
        assert_eq!(s.claim("p", "BBBBBB").await, Err("AAAAAA".into()));
        s.release("p", "BBBBBB").await;
        assert_eq!(s.room_of("p").await.as_deref(), Some("AAAAAA"), "another room cannot free it");
        s.release("p", "AAAAAA").await;
        assert_eq!(s.room_of("p").await, None);
        assert_eq!(s.claim("p", "BBBBBB").await, Ok(()));
        assert_eq!(s.len(), 1);
    }
}
