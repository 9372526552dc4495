//! Storage: one code path for SQLite (embedded default) and PostgreSQL (production), through
//! sqlx's `Any` driver. SQL here is the common subset of both (`$n` placeholders, TEXT/BIGINT,
//! `ON CONFLICT … DO UPDATE`). Schema changes are versioned migrations applied at start.

mod accounts;
mod board;
mod journal;
mod ratings;
mod rooms;
mod schema;
mod seats;

pub use accounts::{ClaimOutcome, SessionRow};
pub use board::seat_figures;
use guandan_core::seat::Seat;
use sqlx::any::{AnyPoolOptions, install_default_drivers};
use sqlx::{AnyPool, Executor, Row};
use std::time::{SystemTime, UNIX_EPOCH};

/// A player's rating under one rule preset, as stored.
#[derive(Clone, Debug, PartialEq)]
pub struct RatingRow {
    pub mu: f64,
    pub sigma: f64,
    pub matches: i64,
    pub wins: i64,
    pub draws: i64,
}

impl RatingRow {
    /// The row's columns `mu, sigma, matches, wins, draws` of a query's result.
    fn read(r: &sqlx::any::AnyRow) -> Result<RatingRow, sqlx::Error> {
        Ok(RatingRow {
            mu: r.try_get("mu")?,
            sigma: r.try_get("sigma")?,
            matches: r.try_get("matches")?,
            wins: r.try_get("wins")?,
            draws: r.try_get("draws")?,
        })
    }
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
    pub seat: Seat,
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
        Self::open(url, i64::MAX).await
    }

    /// Tests only: the database as a server of schema `version` left it (later migrations are
    /// applied by the next [`Db::connect`]).
    #[doc(hidden)]
    pub async fn connect_at_version(url: &str, version: i64) -> Result<Db, DbError> {
        Self::open(url, version).await
    }

    async fn open(url: &str, schema: i64) -> Result<Db, DbError> {
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
            // A file's connection does not go stale: no ping (a round trip to SQLite's thread)
            // before each use, which the journal's commits would pay every time.
            .test_before_acquire(!sqlite)
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
        db.migrate(schema).await?;
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

    /// Tests only: the writers' pool, to read and write rows directly.
    #[doc(hidden)]
    pub fn pool_for_tests(&self) -> AnyPool {
        self.pool.clone()
    }

    /// The schema's version (read on the public pool: `/healthz` asks it).
    pub async fn schema_version(&self) -> Result<i64, DbError> {
        let row = sqlx::query("SELECT MAX(version) AS v FROM schema_migrations").fetch_one(&self.read).await?;
        Ok(row.try_get::<i64, _>("v")?)
    }

    /// A player without a session (tests and tools; guests come with one: `add_guest`).
    pub async fn add_player(&self, id: &str, nickname: &str) -> Result<(), DbError> {
        sqlx::query("INSERT INTO players (id, nickname, created_at) VALUES ($1, $2, $3)")
            .bind(id)
            .bind(nickname)
            .bind(now_ms())
            .execute(&self.pool)
            .await?;
        Ok(())
    }

    /// A player's nickname as stored.
    pub async fn player(&self, id: &str) -> Result<Option<String>, DbError> {
        let row = sqlx::query("SELECT nickname FROM players WHERE id = $1").bind(id).fetch_optional(&self.pool).await?;
        Ok(row.map(|r| r.get::<String, _>("nickname")))
    }

    pub async fn close(&self) {
        self.read.close().await;
        self.pool.close().await;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test]
    async fn sqlite_migrates_once_and_stores() {
        let dir = std::env::temp_dir().join(format!("guandan-db-{}", std::process::id()));
        let url = format!("sqlite://{}/t.db", dir.display());
        let db = Db::connect(&url).await.unwrap();
        let again = Db::connect(&url).await.unwrap();
        let newest = schema::MIGRATIONS.iter().map(|m| m.0).max().unwrap();
        assert_eq!(again.schema_version().await.unwrap(), newest);
        db.add_player("p1", "ann").await.unwrap();
        assert_eq!(db.player("p1").await.unwrap().as_deref(), Some("ann"));
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
        let result = |seat: Seat, won: bool, bombs: u32| MatchResult {
            player: "p1".into(),
            seat,
            won,
            draw: false,
            figures: guandan_core::stats::PlayerStats { bomb_plays: bombs, ..Default::default() },
        };
        assert!(db.finish_match("ABCDEF", 0, "{}", "log", &[result(Seat::ZERO, true, 2)]).await.unwrap());
        assert!(db.finish_match("ABCDEF", 1, "{}", "log", &[result(Seat::TWO, false, 3)]).await.unwrap());
        assert!(
            !db.finish_match("ABCDEF", 1, "{}", "log", &[result(Seat::TWO, false, 3)]).await.unwrap(),
            "stored once"
        );
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
            sqlx::query("INSERT INTO players (id, nickname, created_at) VALUES ('x', 'n', 0)")
                .execute(&mut *held[0])
                .await
                .is_err(),
            "read connections are read-only"
        );
        drop(held);
        let _ = std::fs::remove_dir_all(dir);
    }
}
