//! One seat per account across the instances of one PostgreSQL (migration 7): the room whose
//! seat each account holds. A hold counts while the instance that claimed it owns the room in
//! the directory and its lease lives; otherwise (the room closed, was taken over, its instance
//! died) the next claim takes it. A claim is one `INSERT … ON CONFLICT … DO UPDATE … WHERE` on
//! the player's row: two instances claiming one account at once are serialized by the row, and
//! the second sees the first's hold and is refused.

use super::{Db, DbError, now_ms};
use sqlx::Row;

impl Db {
    /// Whether a hold (alias `h`) counts: its instance owns its room and its lease lives.
    pub(crate) fn live_hold(&self) -> String {
        format!(
            "EXISTS (SELECT 1 FROM rooms r JOIN instances i ON i.name = r.instance
                     WHERE r.code = h.room_code AND r.instance = h.instance AND i.lease_until >= {})",
            self.now_sql()
        )
    }

    /// Holds `player`'s seat in room `code` for `instance`; `Some(other room)` when a live hold
    /// elsewhere refuses it (nothing changes then).
    pub async fn hold_seat(&self, player: &str, code: &str, instance: &str) -> Result<Option<String>, DbError> {
        let live = self.live_hold();
        let claim = format!(
            "INSERT INTO seat_holds AS h (player_id, room_code, instance, held_at) VALUES ($1, $2, $3, $4)
             ON CONFLICT (player_id) DO UPDATE SET room_code = EXCLUDED.room_code, instance = EXCLUDED.instance,
                 held_at = EXCLUDED.held_at
             WHERE h.room_code = EXCLUDED.room_code OR NOT {live}"
        );
        // A hold released between the refused claim and the read is claimed again.
        for _ in 0..3 {
            let done =
                sqlx::query(&claim).bind(player).bind(code).bind(instance).bind(now_ms()).execute(&self.pool).await?;
            if done.rows_affected() == 1 {
                return Ok(None);
            }
            if let Some(other) = self.held_seat(player).await? {
                return Ok(Some(other));
            }
        }
        Ok(self.held_seat(player).await?.or_else(|| Some(code.to_string())))
    }

    /// Lets `player`'s hold on room `code` go (nothing if they hold another room's).
    pub async fn release_seat(&self, player: &str, code: &str) -> Result<(), DbError> {
        sqlx::query("DELETE FROM seat_holds WHERE player_id = $1 AND room_code = $2")
            .bind(player)
            .bind(code)
            .execute(&self.pool)
            .await?;
        Ok(())
    }

    /// Lets `player`'s hold on room `code` go if it was made before `before` (epoch ms).
    pub async fn release_seat_before(&self, player: &str, code: &str, before: i64) -> Result<(), DbError> {
        sqlx::query("DELETE FROM seat_holds WHERE player_id = $1 AND room_code = $2 AND held_at < $3")
            .bind(player)
            .bind(code)
            .bind(before)
            .execute(&self.pool)
            .await?;
        Ok(())
    }

    /// The room whose seat `player` holds, on any instance (live holds only).
    pub async fn held_seat(&self, player: &str) -> Result<Option<String>, DbError> {
        let row = sqlx::query(&format!(
            "SELECT h.room_code FROM seat_holds h WHERE h.player_id = $1 AND {}",
            self.live_hold()
        ))
        .bind(player)
        .fetch_optional(&self.pool)
        .await?;
        Ok(row.map(|r| r.get::<String, _>("room_code")))
    }

    /// Drops the holds an earlier run of `instance` made (at start: its rooms claim theirs again
    /// as they are restored; a lobby comes back empty).
    pub async fn forget_seats(&self, instance: &str) -> Result<(), DbError> {
        sqlx::query("DELETE FROM seat_holds WHERE instance = $1").bind(instance).execute(&self.pool).await?;
        Ok(())
    }

    /// Whether `player` waits in the quick-match queue through another instance than `instance`.
    pub async fn queued_elsewhere(&self, player: &str, instance: &str) -> Result<bool, DbError> {
        let row =
            sqlx::query("SELECT 1 AS one FROM queue WHERE player_id = $1 AND instance <> $2 AND room_code IS NULL")
                .bind(player)
                .bind(instance)
                .fetch_optional(&self.pool)
                .await?;
        Ok(row.is_some())
    }
}
