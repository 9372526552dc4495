//! The versioned schema and its migrations. A statement may use `$1`: the time the migration
//! runs (epoch ms).

use super::{Db, DbError, now_ms};
use sqlx::Executor;

/// Versioned schema. Append new versions; never edit an applied one.
pub(super) const MIGRATIONS: &[(i64, &str)] = &[
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
        // index entries only); it replaces version 4's ranking index, which lacked the last
        // tie-break (so every page was a sort). `profile_stats`: a player's figures over every stored match,
        // updated when a match is stored, so a profile reads one row instead of replaying logs.
        // `queue.source`: the waiting connection's address (accounts of one address are never
        // seated at one ranked table); NULL for rows from before.
        "CREATE INDEX ratings_board ON ratings (rules, shown DESC, matches DESC, player_id);
    DROP INDEX ratings_ranking;
    CREATE TABLE profile_stats (
        player_id TEXT PRIMARY KEY,
        stats TEXT NOT NULL,
        updated_at BIGINT NOT NULL
    );
    ALTER TABLE queue ADD COLUMN source TEXT",
    ),
    (
        6,
        // Accounts (issue 36). `sessions`: one row per logged-in device, by its token's SHA-256
        // (several devices per player); `rotated_from` is the token this one replaced, still
        // valid until this one is first used; `successor` the newest token handed out to replace
        // this one, not yet used. Every guest's token becomes a session, used now and valid for
        // a year from now (the players' own column goes). `logins`: a claimed account's login
        // name (`name_key`: its lower case, unique) and argon2id PHC string. `transfer_codes`:
        // at most one live code per player, by its SHA-256.
        "CREATE TABLE sessions (
        token_hash TEXT PRIMARY KEY,
        player_id TEXT NOT NULL,
        created_at BIGINT NOT NULL,
        last_used_at BIGINT NOT NULL,
        expires_at BIGINT NOT NULL,
        device TEXT,
        rotated_from TEXT,
        successor TEXT
    );
    CREATE INDEX sessions_player ON sessions (player_id);
    CREATE INDEX sessions_expiry ON sessions (expires_at);
    CREATE INDEX sessions_idle ON sessions (last_used_at);
    INSERT INTO sessions (token_hash, player_id, created_at, last_used_at, expires_at)
        SELECT token_hash, id, created_at, $1, $1 + 31536000000 FROM players WHERE true
        ON CONFLICT (token_hash) DO NOTHING;
    ALTER TABLE players DROP COLUMN token_hash;
    CREATE TABLE logins (
        player_id TEXT PRIMARY KEY,
        name TEXT NOT NULL,
        name_key TEXT NOT NULL UNIQUE,
        password_hash TEXT NOT NULL,
        claimed_at BIGINT NOT NULL
    );
    CREATE TABLE transfer_codes (
        player_id TEXT PRIMARY KEY,
        code_hash TEXT NOT NULL UNIQUE,
        created_at BIGINT NOT NULL,
        expires_at BIGINT NOT NULL
    );
    CREATE INDEX transfer_codes_expiry ON transfer_codes (expires_at)",
    ),
    (
        7,
        // One seat per account across instances (PostgreSQL; SQLite has one instance and keeps
        // the registry in memory): the room whose seat each account holds, and the instance that
        // claimed it. A hold counts only while that instance owns the room and its lease lives
        // (crate::db::seats), so a crashed instance's holds free themselves with its lease.
        "CREATE TABLE seat_holds (
        player_id TEXT PRIMARY KEY,
        room_code TEXT NOT NULL,
        instance TEXT NOT NULL,
        held_at BIGINT NOT NULL
    );
    CREATE INDEX seat_holds_instance ON seat_holds (instance)",
    ),
];

impl Db {
    /// Applies missing migrations, each in its own transaction. On PostgreSQL an advisory lock
    /// serializes instances that start together on one database.
    pub(super) async fn migrate(&self, up_to: i64) -> Result<(), DbError> {
        for &(version, sql) in MIGRATIONS.iter().filter(|m| m.0 <= up_to) {
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
                if stmt.contains("$1") {
                    sqlx::query(stmt).bind(now_ms()).execute(&mut *tx).await?;
                } else {
                    tx.execute(stmt).await?;
                }
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
}
