//! Storage: one code path for SQLite (embedded default) and PostgreSQL (production), through
//! sqlx's `Any` driver. SQL here is the common subset of both (`$n` placeholders, TEXT/BIGINT,
//! `ON CONFLICT … DO UPDATE`). Schema changes are versioned migrations applied at start.

mod board;

pub use board::seat_figures;
use sqlx::any::{AnyPoolOptions, install_default_drivers};
use sqlx::{AnyPool, Executor, Row};
use std::time::{SystemTime, UNIX_EPOCH};

/// Versioned schema. Append new versions; never edit an applied one.
const MIGRATIONS: &[(i64, &str)] = &[
    (
        1,
        "CREATE TABLE players (
        id TEXT PRIMARY KEY,
        token_hash TEXT NOT NULL,
        nickname TEXT NOT NULL,
        created_at BIGINT NOT NULL
    );
    CREATE TABLE player_stats (
        player_id TEXT PRIMARY KEY,
        matches BIGINT NOT NULL,
        wins BIGINT NOT NULL,
        draws BIGINT NOT NULL
    );
    CREATE TABLE rooms (
        code TEXT PRIMARY KEY,
        instance TEXT NOT NULL,
        url TEXT NOT NULL,
        state TEXT NOT NULL,
        config TEXT NOT NULL,
        match_no BIGINT NOT NULL,
        updated_at BIGINT NOT NULL
    );
    CREATE TABLE match_actions (
        room_code TEXT NOT NULL,
        match_no BIGINT NOT NULL,
        seq BIGINT NOT NULL,
        action TEXT NOT NULL,
        PRIMARY KEY (room_code, match_no, seq)
    );
    CREATE TABLE matches (
        room_code TEXT NOT NULL,
        match_no BIGINT NOT NULL,
        finished_at BIGINT NOT NULL,
        meta TEXT NOT NULL,
        log TEXT NOT NULL,
        PRIMARY KEY (room_code, match_no)
    )",
    ),
    (
        2,
        // Instance leases, in epoch ms of the database's clock: a room whose owner's lease ran
        // out may be taken over by another instance.
        "CREATE TABLE instances (
        name TEXT PRIMARY KEY,
        url TEXT NOT NULL,
        started_at BIGINT NOT NULL,
        renewed_at BIGINT NOT NULL,
        lease_until BIGINT NOT NULL
    )",
    ),
    (
        3,
        // The quick-match queue, shared by every instance: a row per waiting player (its
        // instance holds the connection); `room_code` and `seat` are set when a table is formed.
        "CREATE TABLE queue (
        player_id TEXT PRIMARY KEY,
        pool TEXT NOT NULL,
        rules TEXT NOT NULL,
        rating DOUBLE PRECISION NOT NULL,
        instance TEXT NOT NULL,
        joined_at BIGINT NOT NULL,
        room_code TEXT,
        seat BIGINT
    );
    CREATE INDEX queue_pool ON queue (pool, room_code)",
    ),
    (
        4,
        // Ratings per player and rule preset (crate::ratings). `shown` is the number players
        // see, kept beside (mu, sigma) so the ranking orders and pages in SQL; history `matches`
        // is the player's count after that match (a strict order where `at` ties).
        // `match_players`: who sat where in each stored match, for profiles without scanning
        // every match's metadata.
        "CREATE TABLE ratings (
        player_id TEXT NOT NULL,
        rules TEXT NOT NULL,
        mu DOUBLE PRECISION NOT NULL,
        sigma DOUBLE PRECISION NOT NULL,
        shown BIGINT NOT NULL,
        matches BIGINT NOT NULL,
        wins BIGINT NOT NULL,
        draws BIGINT NOT NULL,
        updated_at BIGINT NOT NULL,
        PRIMARY KEY (player_id, rules)
    );
    CREATE INDEX ratings_ranking ON ratings (rules, shown, matches);
    CREATE TABLE rating_history (
        player_id TEXT NOT NULL,
        rules TEXT NOT NULL,
        at BIGINT NOT NULL,
        mu DOUBLE PRECISION NOT NULL,
        sigma DOUBLE PRECISION NOT NULL,
        shown BIGINT NOT NULL,
        change BIGINT NOT NULL,
        matches BIGINT NOT NULL,
        room_code TEXT NOT NULL,
        match_no BIGINT NOT NULL
    );
    CREATE INDEX rating_history_player ON rating_history (player_id, rules, matches);
    CREATE TABLE match_players (
        player_id TEXT NOT NULL,
        seat BIGINT NOT NULL,
        room_code TEXT NOT NULL,
        match_no BIGINT NOT NULL,
        finished_at BIGINT NOT NULL,
        PRIMARY KEY (player_id, room_code, match_no)
    );
    CREATE INDEX match_players_latest ON match_players (player_id, finished_at)",
    ),
    (
        5,
        // The leaderboard pages in the ranking's own order from one index (the OFFSET walks
        // index entries only). `profile_stats`: a player's figures over every stored match,
        // updated when a match is stored, so a profile reads one row instead of replaying logs.
        // `queue.source`: the waiting connection's address (accounts of one address are never
        // seated at one ranked table); NULL for rows from before.
        "CREATE INDEX ratings_board ON ratings (rules, shown DESC, matches DESC, player_id);
    CREATE TABLE profile_stats (
        player_id TEXT PRIMARY KEY,
        stats TEXT NOT NULL,
        updated_at BIGINT NOT NULL
    );
    ALTER TABLE queue ADD COLUMN source TEXT",
    ),
];

/// A player's rating under one rule preset, as stored.
#[derive(Clone, Debug, PartialEq)]
pub struct RatingRow {
    pub mu: f64,
    pub sigma: f64,
    pub matches: i64,
    pub wins: i64,
    pub draws: i64,
}

/// A rating after a match: the new row, its shown number and the change of that number.
#[derive(Clone, Debug, PartialEq)]
pub struct RatingUpdate {
    pub row: RatingRow,
    pub shown: i64,
    pub change: i64,
}

/// One row of a ranking page.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RankedPlayer {
    pub player_id: String,
    pub nickname: String,
    pub shown: i64,
    pub matches: i64,
    pub wins: i64,
}

#[derive(Debug, thiserror::Error)]
pub enum DbError {
    #[error("database: {0}")]
    Sql(#[from] sqlx::Error),
    #[error("unsupported database url {0:?} (use sqlite://PATH or postgres://…)")]
    Url(String),
}

pub fn now_ms() -> i64 {
    SystemTime::now().duration_since(UNIX_EPOCH).map_or(0, |d| d.as_millis() as i64)
}

/// A room row of the directory: which instance owns the room, and what it needs to be rebuilt.
#[derive(Clone, Debug)]
pub struct RoomRow {
    pub code: String,
    pub instance: String,
    pub url: String,
    pub state: String,
    pub config: String,
    pub match_no: i64,
}

/// One human of a finished match, as stored: the player, the seat, won / drawn, and the
/// player's figures in that match (merged into the profile's totals).
#[derive(Clone, Debug)]
pub struct MatchResult {
    pub player: String,
    pub seat: u8,
    pub won: bool,
    pub draw: bool,
    pub figures: guandan_core::stats::PlayerStats,
}

#[derive(Clone)]
pub struct Db {
    /// Writes and the game's own reads: rooms, actions, matches, ratings, the queue.
    pub(crate) pool: AnyPool,
    /// Public reads (leaderboard, profiles, finished matches, health): a pool of their own, so
    /// a flood of them never holds the connection a room needs to store its actions (SQLite in
    /// WAL mode reads beside the writer; these connections are read-only).
    pub(crate) read: AnyPool,
    pub backend: &'static str,
}

impl Db {
    pub async fn connect(url: &str) -> Result<Db, DbError> {
        install_default_drivers();
        let (backend, url) = if let Some(path) = url.strip_prefix("sqlite://") {
            if let Some(dir) = std::path::Path::new(path.split('?').next().unwrap_or(path)).parent() {
                let _ = std::fs::create_dir_all(dir);
            }
            let sep = if path.contains('?') { '&' } else { '?' };
            let url = if path.contains("mode=") { url.to_string() } else { format!("{url}{sep}mode=rwc") };
            ("sqlite", url)
        } else if url.starts_with("postgres://") || url.starts_with("postgresql://") {
            ("postgres", url.to_string())
        } else {
            return Err(DbError::Url(url.into()));
        };
        let sqlite = backend == "sqlite";
        let pool = AnyPoolOptions::new()
            .max_connections(if sqlite { 4 } else { 16 })
            .after_connect(move |conn, _| {
                Box::pin(async move {
                    if sqlite {
                        // WAL: a commit is in the log file before we announce it, so a killed
                        // process (kill -9) loses nothing; NORMAL skips the fsync per commit
                        // (an OS crash could lose the last commits).
                        conn.execute("PRAGMA journal_mode=WAL").await?;
                        conn.execute("PRAGMA synchronous=NORMAL").await?;
                        conn.execute("PRAGMA busy_timeout=10000").await?;
                    }
                    Ok(())
                })
            })
            .connect(&url)
            .await?;
        let db = Db { read: pool.clone(), pool, backend };
        // Migrated before the read pool opens: its connections are read-only.
        db.migrate().await?;
        let read = AnyPoolOptions::new()
            .max_connections(if sqlite { 2 } else { 4 })
            .after_connect(move |conn, _| {
                Box::pin(async move {
                    if sqlite {
                        conn.execute("PRAGMA busy_timeout=10000").await?;
                        conn.execute("PRAGMA query_only=1").await?;
                    } else {
                        conn.execute("SET SESSION CHARACTERISTICS AS TRANSACTION READ ONLY").await?;
                    }
                    Ok(())
                })
            })
            .connect(&url)
            .await?;
        Ok(Db { read, ..db })
    }

    /// Applies missing migrations, each in its own transaction. On PostgreSQL an advisory lock
    /// serializes instances that start together on one database.
    async fn migrate(&self) -> Result<(), DbError> {
        for &(version, sql) in MIGRATIONS {
            let mut tx = self.pool.begin().await?;
            if self.backend == "postgres" {
                tx.execute("SELECT pg_advisory_xact_lock(7878)").await?;
            }
            tx.execute(
                "CREATE TABLE IF NOT EXISTS schema_migrations (version BIGINT PRIMARY KEY, applied_at BIGINT NOT NULL)",
            )
            .await?;
            let done = sqlx::query("SELECT version FROM schema_migrations WHERE version = $1")
                .bind(version)
                .fetch_optional(&mut *tx)
                .await?;
            if done.is_some() {
                tx.commit().await?;
                continue;
            }
            for stmt in sql.split(';').map(str::trim).filter(|s| !s.is_empty()) {
                tx.execute(stmt).await?;
            }
            sqlx::query("INSERT INTO schema_migrations (version, applied_at) VALUES ($1, $2)")
                .bind(version)
                .bind(now_ms())
                .execute(&mut *tx)
                .await?;
            tx.commit().await?;
            tracing::info!(version, "applied schema migration");
        }
        Ok(())
    }

    /// The schema's version (read on the public pool: `/healthz` asks it).
    pub async fn schema_version(&self) -> Result<i64, DbError> {
        let row = sqlx::query("SELECT MAX(version) AS v FROM schema_migrations").fetch_one(&self.read).await?;
        Ok(row.try_get::<i64, _>("v")?)
    }

    pub async fn add_player(&self, id: &str, token_hash: &str, nickname: &str) -> Result<(), DbError> {
        sqlx::query("INSERT INTO players (id, token_hash, nickname, created_at) VALUES ($1, $2, $3, $4)")
            .bind(id)
            .bind(token_hash)
            .bind(nickname)
            .bind(now_ms())
            .execute(&self.pool)
            .await?;
        Ok(())
    }

    /// (token hash, nickname) of a player.
    pub async fn player(&self, id: &str) -> Result<Option<(String, String)>, DbError> {
        let row = sqlx::query("SELECT token_hash, nickname FROM players WHERE id = $1")
            .bind(id)
            .fetch_optional(&self.pool)
            .await?;
        Ok(row.map(|r| (r.get::<String, _>("token_hash"), r.get::<String, _>("nickname"))))
    }

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

    /// Appends actions (`room, match_no, seq, json`) in one transaction: the group commit the
    /// journal uses.
    pub async fn append_actions(&self, rows: &[(String, i64, i64, String)]) -> Result<(), DbError> {
        let mut tx = self.pool.begin().await?;
        for chunk in insert_chunks(rows) {
            let mut sql = String::from("INSERT INTO match_actions (room_code, match_no, seq, action) VALUES ");
            for i in 0..chunk.len() {
                let p = 4 * i;
                sql.push_str(&format!(
                    "{}(${}, ${}, ${}, ${})",
                    if i > 0 { ", " } else { "" },
                    p + 1,
                    p + 2,
                    p + 3,
                    p + 4
                ));
            }
            let mut q = sqlx::query(&sql);
            for (room, match_no, seq, action) in chunk {
                q = q.bind(room).bind(*match_no).bind(*seq).bind(action);
            }
            q.execute(&mut *tx).await?;
        }
        tx.commit().await?;
        Ok(())
    }

    /// The stored actions of a match, in order.
    pub async fn actions(&self, room: &str, match_no: i64) -> Result<Vec<String>, DbError> {
        let rows = sqlx::query("SELECT action FROM match_actions WHERE room_code = $1 AND match_no = $2 ORDER BY seq")
            .bind(room)
            .bind(match_no)
            .fetch_all(&self.pool)
            .await?;
        Ok(rows.iter().map(|r| r.get::<String, _>("action")).collect())
    }

    /// Stores a finished match (log in the replay format + metadata) and updates each human's
    /// stats and profile figures. False when the match was stored already (nothing written).
    pub async fn finish_match(
        &self,
        room: &str,
        match_no: i64,
        meta: &str,
        log: &str,
        results: &[MatchResult],
    ) -> Result<bool, DbError> {
        let mut tx = self.pool.begin().await?;
        let finished_at = now_ms();
        let stored = sqlx::query(
            "INSERT INTO matches (room_code, match_no, finished_at, meta, log) VALUES ($1, $2, $3, $4, $5)
             ON CONFLICT (room_code, match_no) DO NOTHING",
        )
        .bind(room)
        .bind(match_no)
        .bind(finished_at)
        .bind(meta)
        .bind(log)
        .execute(&mut *tx)
        .await?;
        if stored.rows_affected() != 1 {
            tx.rollback().await?;
            return Ok(false);
        }
        for r in results {
            sqlx::query(
                "INSERT INTO match_players (player_id, seat, room_code, match_no, finished_at)
                 VALUES ($1, $2, $3, $4, $5) ON CONFLICT (player_id, room_code, match_no) DO NOTHING",
            )
            .bind(&r.player)
            .bind(i64::from(r.seat))
            .bind(room)
            .bind(match_no)
            .bind(finished_at)
            .execute(&mut *tx)
            .await?;
            sqlx::query(
                "INSERT INTO player_stats (player_id, matches, wins, draws) VALUES ($1, 1, $2, $3)
                 ON CONFLICT (player_id) DO UPDATE SET matches = player_stats.matches + 1,
                 wins = player_stats.wins + $2, draws = player_stats.draws + $3",
            )
            .bind(&r.player)
            .bind(r.won as i64)
            .bind(r.draw as i64)
            .execute(&mut *tx)
            .await?;
            board::add_figures(&mut tx, &r.player, room, match_no, &r.figures).await?;
        }
        tx.commit().await?;
        Ok(true)
    }

    /// Rates one match in one transaction: the `players`' current rows under `rules` (`fresh`
    /// for a player without one) go to `rate`, whose updates (in the same order) are written
    /// with a history row each. Rows are locked in player order first, so two matches rating
    /// the same player one after the other never lose an update.
    pub async fn rate_match(
        &self,
        rules: &str,
        room: &str,
        match_no: i64,
        players: &[String],
        fresh: &RatingUpdate,
        rate: impl FnOnce(&[RatingRow]) -> Vec<RatingUpdate> + Send,
    ) -> Result<Vec<RatingUpdate>, DbError> {
        let mut tx = self.pool.begin().await?;
        let now = now_ms();
        let mut order: Vec<&String> = players.iter().collect();
        order.sort();
        for p in order {
            sqlx::query(
                "INSERT INTO ratings (player_id, rules, mu, sigma, shown, matches, wins, draws, updated_at)
                 VALUES ($1, $2, $3, $4, $5, 0, 0, 0, $6) ON CONFLICT (player_id, rules) DO NOTHING",
            )
            .bind(p)
            .bind(rules)
            .bind(fresh.row.mu)
            .bind(fresh.row.sigma)
            .bind(fresh.shown)
            .bind(now)
            .execute(&mut *tx)
            .await?;
            // A write to the row: PostgreSQL locks it until the commit (SQLite's first write
            // locked the whole database already).
            sqlx::query("UPDATE ratings SET updated_at = updated_at WHERE player_id = $1 AND rules = $2")
                .bind(p)
                .bind(rules)
                .execute(&mut *tx)
                .await?;
        }
        let mut before = Vec::with_capacity(players.len());
        for p in players {
            let r =
                sqlx::query("SELECT mu, sigma, matches, wins, draws FROM ratings WHERE player_id = $1 AND rules = $2")
                    .bind(p)
                    .bind(rules)
                    .fetch_one(&mut *tx)
                    .await?;
            before.push(RatingRow {
                mu: r.try_get("mu")?,
                sigma: r.try_get("sigma")?,
                matches: r.try_get("matches")?,
                wins: r.try_get("wins")?,
                draws: r.try_get("draws")?,
            });
        }
        let after = rate(&before);
        for (p, u) in players.iter().zip(&after) {
            sqlx::query(
                "UPDATE ratings SET mu = $1, sigma = $2, shown = $3, matches = $4, wins = $5, draws = $6,
                 updated_at = $7 WHERE player_id = $8 AND rules = $9",
            )
            .bind(u.row.mu)
            .bind(u.row.sigma)
            .bind(u.shown)
            .bind(u.row.matches)
            .bind(u.row.wins)
            .bind(u.row.draws)
            .bind(now)
            .bind(p)
            .bind(rules)
            .execute(&mut *tx)
            .await?;
            sqlx::query(
                "INSERT INTO rating_history (player_id, rules, at, mu, sigma, shown, change, matches, room_code, match_no)
                 VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)",
            )
            .bind(p)
            .bind(rules)
            .bind(now)
            .bind(u.row.mu)
            .bind(u.row.sigma)
            .bind(u.shown)
            .bind(u.change)
            .bind(u.row.matches)
            .bind(room)
            .bind(match_no)
            .execute(&mut *tx)
            .await?;
        }
        tx.commit().await?;
        Ok(after)
    }

    /// A player's rating under `rules`, if rated.
    pub async fn rating(&self, player: &str, rules: &str) -> Result<Option<RatingRow>, DbError> {
        Ok(self.ratings_of(player).await?.into_iter().find(|(r, _, _)| r == rules).map(|(_, row, _)| row))
    }

    pub async fn close(&self) {
        self.read.close().await;
        self.pool.close().await;
    }
}

/// Multi-row statements: one round trip to the database per chunk, not per action. Chunks have
/// power-of-two sizes up to 64, so a connection caches at most seven insert statements (every
/// batch size its own statement would cost megabytes of prepared statements).
fn insert_chunks<T>(rows: &[T]) -> impl Iterator<Item = &[T]> {
    const ROWS_PER_STATEMENT: usize = 64;
    let mut rest = rows;
    std::iter::from_fn(move || {
        if rest.is_empty() {
            return None;
        }
        let n = if rest.len() >= ROWS_PER_STATEMENT { ROWS_PER_STATEMENT } else { 1 << rest.len().ilog2() };
        let (chunk, tail) = rest.split_at(n);
        rest = tail;
        Some(chunk)
    })
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn inserts_use_few_statement_shapes_and_keep_every_row_in_order() {
        for n in 0..300usize {
            let rows: Vec<usize> = (0..n).collect();
            let chunks: Vec<&[usize]> = insert_chunks(&rows).collect();
            assert_eq!(chunks.concat(), rows, "{n} rows");
            assert!(chunks.iter().all(|c| c.len().is_power_of_two() && c.len() <= 64), "{n}: {chunks:?}");
        }
    }

    #[tokio::test]
    async fn sqlite_migrates_once_and_stores() {
        let dir = std::env::temp_dir().join(format!("guandan-db-{}", std::process::id()));
        let url = format!("sqlite://{}/t.db", dir.display());
        let db = Db::connect(&url).await.unwrap();
        let again = Db::connect(&url).await.unwrap();
        let newest = MIGRATIONS.iter().map(|m| m.0).max().unwrap();
        assert_eq!(again.schema_version().await.unwrap(), newest);
        db.add_player("p1", "h", "ann").await.unwrap();
        assert_eq!(db.player("p1").await.unwrap(), Some(("h".into(), "ann".into())));
        assert!(db.player("p2").await.unwrap().is_none());
        let row = RoomRow {
            code: "ABCDEF".into(),
            instance: "a".into(),
            url: "http://x".into(),
            state: "waiting".into(),
            config: "{}".into(),
            match_no: 0,
        };
        assert!(db.claim_room(&row).await.unwrap());
        assert!(!db.claim_room(&row).await.unwrap(), "a code is claimed once");
        db.append_actions(&[("ABCDEF".into(), 0, 0, "a0".into()), ("ABCDEF".into(), 0, 1, "a1".into())]).await.unwrap();
        assert!(db.append_actions(&[("ABCDEF".into(), 0, 1, "dup".into())]).await.is_err());
        assert_eq!(db.actions("ABCDEF", 0).await.unwrap(), vec!["a0", "a1"]);
        let result = |seat: u8, won: bool, bombs: u32| MatchResult {
            player: "p1".into(),
            seat,
            won,
            draw: false,
            figures: guandan_core::stats::PlayerStats { bomb_plays: bombs, ..Default::default() },
        };
        assert!(db.finish_match("ABCDEF", 0, "{}", "log", &[result(0, true, 2)]).await.unwrap());
        assert!(db.finish_match("ABCDEF", 1, "{}", "log", &[result(2, false, 3)]).await.unwrap());
        assert!(!db.finish_match("ABCDEF", 1, "{}", "log", &[result(2, false, 3)]).await.unwrap(), "stored once");
        assert_eq!(db.stats("p1").await.unwrap(), (2, 1, 0));
        // The profile's figures add up as matches are stored (the repeat added nothing).
        assert_eq!(db.profile_figures("p1").await.unwrap().map(|f| f.bomb_plays), Some(5));
        assert!(db.has_stored_matches("p1").await.unwrap());
        assert!(db.profile_figures("p2").await.unwrap().is_none());
        assert!(Db::connect("mysql://x").await.is_err());
        let _ = std::fs::remove_dir_all(dir);
    }

    /// Public reads cannot take the connections a room writes with: with every read connection
    /// held (a flood of slow reads), actions are still stored at once.
    #[tokio::test]
    async fn a_flood_of_reads_never_holds_the_writers() {
        let dir = std::env::temp_dir().join(format!("guandan-db-read-{}", std::process::id()));
        let db = Db::connect(&format!("sqlite://{}/t.db", dir.display())).await.unwrap();
        let mut held = Vec::new();
        while let Some(c) = db.read.try_acquire() {
            held.push(c);
        }
        assert!(!held.is_empty());
        let rows = [("ROOMAB".to_string(), 0, 0, "a0".to_string())];
        let write = db.append_actions(&rows);
        tokio::time::timeout(std::time::Duration::from_secs(10), write).await.expect("not blocked").unwrap();
        assert!(
            sqlx::query("INSERT INTO players (id, token_hash, nickname, created_at) VALUES ('x', 'h', 'n', 0)")
                .execute(&mut *held[0])
                .await
                .is_err(),
            "read connections are read-only"
        );
        drop(held);
        let _ = std::fs::remove_dir_all(dir);
    }
}
