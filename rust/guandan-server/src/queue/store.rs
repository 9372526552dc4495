//! The queue's rows (migration 3): one per waiting player, on the database every instance
//! shares, so players who reached different instances meet at one table. A table is claimed in
//! one transaction that succeeds only if every player in it is still waiting: two instances
//! forming tables at once never seat a player twice.

use guandan_core::seat::Seat;
use sqlx::Row;

use crate::db::{Db, DbError, now_ms};

/// A waiting player's row.
#[derive(Clone, Debug, PartialEq)]
pub struct QueueRow {
    pub player_id: String,
    pub rules: String,
    pub rating: f64,
    pub instance: String,
    pub joined_at: i64,
    /// The waiting connection's source (address, IPv6 per /64); `None` for older rows.
    pub source: Option<String>,
}

impl Db {
    /// Queues a player who connects from `source`; false when they are queued already (on any
    /// instance).
    pub async fn queue_join(
        &self,
        player_id: &str,
        pool: &str,
        rules: &str,
        rating: f64,
        instance: &str,
        source: &str,
    ) -> Result<bool, DbError> {
        let done = sqlx::query(
            "INSERT INTO queue (player_id, pool, rules, rating, instance, joined_at, source)
             VALUES ($1, $2, $3, $4, $5, $6, $7) ON CONFLICT (player_id) DO NOTHING",
        )
        .bind(player_id)
        .bind(pool)
        .bind(rules)
        .bind(rating)
        .bind(instance)
        .bind(now_ms())
        .bind(source)
        .execute(&self.pool)
        .await?;
        Ok(done.rows_affected() == 1)
    }

    /// Takes a player out of the queue if no table was formed for them yet; false otherwise.
    pub async fn queue_leave(&self, player_id: &str) -> Result<bool, DbError> {
        let done = sqlx::query("DELETE FROM queue WHERE player_id = $1 AND room_code IS NULL")
            .bind(player_id)
            .execute(&self.pool)
            .await?;
        Ok(done.rows_affected() == 1)
    }

    /// Every player of `pool` still waiting, longest first; on PostgreSQL not those who hold a
    /// seat in a room meanwhile (a race with a sit-down on another instance): they wait on until
    /// it is free.
    pub async fn queue_waiting(&self, pool: &str) -> Result<Vec<QueueRow>, DbError> {
        let seated = if self.backend == "postgres" {
            format!(
                " AND NOT EXISTS (SELECT 1 FROM seat_holds h WHERE h.player_id = queue.player_id AND {})",
                self.live_hold()
            )
        } else {
            String::new()
        };
        let rows = sqlx::query(&format!(
            "SELECT player_id, rules, rating, instance, joined_at, source FROM queue WHERE pool = $1 AND room_code IS NULL{seated}
             ORDER BY joined_at, player_id",
        ))
        .bind(pool)
        .fetch_all(&self.pool)
        .await?;
        Ok(rows
            .iter()
            .map(|r| QueueRow {
                player_id: r.get("player_id"),
                rules: r.get("rules"),
                rating: r.get("rating"),
                instance: r.get("instance"),
                joined_at: r.get("joined_at"),
                source: r.try_get("source").ok().flatten(),
            })
            .collect())
    }

    /// Seats these waiting players (`(player, seat)`) at table `code` of `instance`, all or
    /// none: false when one of them is no longer waiting (left, or seated by another instance
    /// meanwhile) or, on PostgreSQL, holds a seat in another room (one seat per account across
    /// instances: the holds are taken in the same transaction).
    pub async fn queue_claim(&self, code: &str, instance: &str, seats: &[(&str, Seat)]) -> Result<bool, DbError> {
        let mut tx = self.pool.begin().await?;
        for &(player, seat) in seats {
            let done =
                sqlx::query("UPDATE queue SET room_code = $1, seat = $2 WHERE player_id = $3 AND room_code IS NULL")
                    .bind(code)
                    .bind(i64::from(u8::from(seat)))
                    .bind(player)
                    .execute(&mut *tx)
                    .await?;
            if done.rows_affected() != 1 {
                tx.rollback().await?;
                return Ok(false);
            }
        }
        if self.backend == "postgres" {
            let claim = format!(
                "INSERT INTO seat_holds AS h (player_id, room_code, instance, held_at) VALUES ($1, $2, $3, $4)
                 ON CONFLICT (player_id) DO UPDATE SET room_code = EXCLUDED.room_code,
                     instance = EXCLUDED.instance, held_at = EXCLUDED.held_at
                 WHERE h.room_code = EXCLUDED.room_code OR NOT {}",
                self.live_hold()
            );
            for &(player, _) in seats {
                let done =
                    sqlx::query(&claim).bind(player).bind(code).bind(instance).bind(now_ms()).execute(&mut *tx).await?;
                if done.rows_affected() != 1 {
                    tx.rollback().await?;
                    return Ok(false);
                }
            }
        }
        tx.commit().await?;
        Ok(true)
    }

    /// The players of `instance` a table was formed for: `(player, room code)`.
    pub async fn queue_seated(&self, instance: &str) -> Result<Vec<(String, String)>, DbError> {
        let rows = sqlx::query(
            "SELECT player_id, room_code FROM queue WHERE instance = $1 AND room_code IS NOT NULL ORDER BY player_id",
        )
        .bind(instance)
        .fetch_all(&self.pool)
        .await?;
        Ok(rows.iter().map(|r| (r.get("player_id"), r.get("room_code"))).collect())
    }

    /// The rating the queue pairs a player by for these rules: their Weng-Lin mu (a new
    /// player's before any ranked match).
    pub async fn matchmaking_rating(&self, player_id: &str, rules: &str) -> Result<f64, DbError> {
        Ok(self.rating(player_id, rules).await?.map_or(crate::queue::NEW_PLAYER_RATING, |r| r.mu))
    }

    /// Removes a player's row, waiting or seated.
    pub async fn queue_forget(&self, player_id: &str) -> Result<(), DbError> {
        sqlx::query("DELETE FROM queue WHERE player_id = $1").bind(player_id).execute(&self.pool).await?;
        Ok(())
    }

    /// Removes the rows of instances whose lease ran out: their connections are gone with them.
    pub async fn queue_forget_dead(&self) -> Result<u64, DbError> {
        let done = sqlx::query(&format!(
            "DELETE FROM queue WHERE instance NOT IN (SELECT name FROM instances WHERE lease_until >= {})",
            self.now_sql()
        ))
        .execute(&self.pool)
        .await?;
        Ok(done.rows_affected())
    }

    /// Removes the rows an instance held (it restarted: none of its old connections is left).
    pub async fn queue_forget_instance(&self, instance: &str) -> Result<(), DbError> {
        sqlx::query("DELETE FROM queue WHERE instance = $1").bind(instance).execute(&self.pool).await?;
        Ok(())
    }
}
