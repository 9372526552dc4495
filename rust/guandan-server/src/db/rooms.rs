//! The room directory (which instance owns a room, and what rebuilds it) and instance leases
//! with room takeover, timed by the database's clock.

use super::{Db, DbError, RoomRow, now_ms};
use sqlx::Row;

impl Db {
    /// Claims a room code for this instance; false when the code is taken.
    pub async fn claim_room(&self, row: &RoomRow) -> Result<bool, DbError> {
        let done = sqlx::query(
            "INSERT INTO rooms (code, instance, url, state, config, match_no, updated_at)
             VALUES ($1, $2, $3, $4, $5, $6, $7) ON CONFLICT (code) DO NOTHING",
        )
        .bind(&row.code)
        .bind(&row.instance)
        .bind(&row.url)
        .bind(&row.state)
        .bind(&row.config)
        .bind(row.match_no)
        .bind(now_ms())
        .execute(&self.pool)
        .await?;
        Ok(done.rows_affected() == 1)
    }

    /// Saves a room's state; false (nothing written) when `instance` no longer owns the room
    /// (another instance took it over).
    pub async fn update_room(
        &self,
        code: &str,
        instance: &str,
        state: &str,
        config: &str,
        match_no: i64,
    ) -> Result<bool, DbError> {
        let done = sqlx::query(
            "UPDATE rooms SET state = $1, config = $2, match_no = $3, updated_at = $4 WHERE code = $5 AND instance = $6",
        )
        .bind(state)
        .bind(config)
        .bind(match_no)
        .bind(now_ms())
        .bind(code)
        .bind(instance)
        .execute(&self.pool)
        .await?;
        Ok(done.rows_affected() == 1)
    }

    pub async fn delete_room(&self, code: &str) -> Result<(), DbError> {
        sqlx::query("DELETE FROM rooms WHERE code = $1").bind(code).execute(&self.pool).await?;
        Ok(())
    }

    pub async fn room(&self, code: &str) -> Result<Option<RoomRow>, DbError> {
        let row = sqlx::query("SELECT code, instance, url, state, config, match_no FROM rooms WHERE code = $1")
            .bind(code)
            .fetch_optional(&self.pool)
            .await?;
        Ok(row.map(|r| room_row(&r)))
    }

    /// Rooms this instance owned that were in a match (to restore after a restart).
    pub async fn rooms_of(&self, instance: &str) -> Result<Vec<RoomRow>, DbError> {
        let rows = sqlx::query("SELECT code, instance, url, state, config, match_no FROM rooms WHERE instance = $1")
            .bind(instance)
            .fetch_all(&self.pool)
            .await?;
        Ok(rows.iter().map(room_row).collect())
    }

    /// The database's clock in epoch ms, as SQL: every lease is written and compared on this
    /// one clock, whatever the instances' own clocks say.
    pub(crate) fn now_sql(&self) -> &'static str {
        if self.backend == "postgres" {
            "CAST(EXTRACT(EPOCH FROM clock_timestamp()) * 1000 AS BIGINT)"
        } else {
            "CAST((julianday('now') - 2440587.5) * 86400000.0 AS INTEGER)"
        }
    }

    /// Starts this instance's lease (`lease_ms` from now), or renews it (`fresh`: false). A
    /// renewal also recreates a missing row.
    pub async fn lease(&self, name: &str, url: &str, lease_ms: i64, fresh: bool) -> Result<(), DbError> {
        let now = self.now_sql();
        let started = if fresh { format!(", started_at = {now}") } else { String::new() };
        sqlx::query(&format!(
            "INSERT INTO instances (name, url, started_at, renewed_at, lease_until)
             VALUES ($1, $2, {now}, {now}, {now} + $3)
             ON CONFLICT (name) DO UPDATE SET url = $2, renewed_at = {now}, lease_until = {now} + $3{started}"
        ))
        .bind(name)
        .bind(url)
        .bind(lease_ms)
        .execute(&self.pool)
        .await?;
        Ok(())
    }

    /// Ends this instance's lease now (graceful shutdown, once its rooms stopped writing): its
    /// rooms may be taken over at once.
    pub async fn end_lease(&self, name: &str) -> Result<(), DbError> {
        sqlx::query(&format!("UPDATE instances SET lease_until = {} - 1 WHERE name = $1", self.now_sql()))
            .bind(name)
            .execute(&self.pool)
            .await?;
        Ok(())
    }

    /// Milliseconds left on an instance's lease (negative: expired); `None` for an instance
    /// without a lease row (one that predates leases: its rooms are never taken over).
    pub async fn lease_left_ms(&self, name: &str) -> Result<Option<i64>, DbError> {
        let row =
            sqlx::query(&format!("SELECT lease_until - {} AS left_ms FROM instances WHERE name = $1", self.now_sql()))
                .bind(name)
                .fetch_optional(&self.pool)
                .await?;
        Ok(row.map(|r| r.get::<i64, _>("left_ms")))
    }

    /// Moves a room from `from`, whose lease must have expired, to instance `to` at `url`, in one
    /// transaction; returns the room's row when this call won. The expired lease row is
    /// locked first (a no-op update), so the claim is serialized with the owner's own renewal (a
    /// restart under the same name) and with other instances claiming the same room: exactly one
    /// wins, and never against a live lease.
    pub async fn take_over_room(
        &self,
        code: &str,
        from: &str,
        to: &str,
        url: &str,
    ) -> Result<Option<RoomRow>, DbError> {
        let mut tx = self.pool.begin().await?;
        let expired = sqlx::query(&format!(
            "UPDATE instances SET renewed_at = renewed_at WHERE name = $1 AND lease_until < {}",
            self.now_sql()
        ))
        .bind(from)
        .execute(&mut *tx)
        .await?;
        if expired.rows_affected() != 1 {
            tx.rollback().await?;
            return Ok(None);
        }
        let moved =
            sqlx::query("UPDATE rooms SET instance = $1, url = $2, updated_at = $3 WHERE code = $4 AND instance = $5")
                .bind(to)
                .bind(url)
                .bind(now_ms())
                .bind(code)
                .bind(from)
                .execute(&mut *tx)
                .await?;
        if moved.rows_affected() != 1 {
            tx.rollback().await?;
            return Ok(None);
        }
        let row = sqlx::query("SELECT code, instance, url, state, config, match_no FROM rooms WHERE code = $1")
            .bind(code)
            .fetch_optional(&mut *tx)
            .await?;
        tx.commit().await?;
        Ok(row.map(|r| room_row(&r)))
    }

    /// Codes of the rooms the directory gives to an instance.
    pub async fn room_codes_of(&self, instance: &str) -> Result<Vec<String>, DbError> {
        let rows =
            sqlx::query("SELECT code FROM rooms WHERE instance = $1").bind(instance).fetch_all(&self.pool).await?;
        Ok(rows.iter().map(|r| r.get::<String, _>("code")).collect())
    }
}

fn room_row(r: &sqlx::any::AnyRow) -> RoomRow {
    RoomRow {
        code: r.get("code"),
        instance: r.get("instance"),
        url: r.get("url"),
        state: r.get("state"),
        config: r.get("config"),
        match_no: r.get("match_no"),
    }
}
