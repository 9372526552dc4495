//! Accounts as stored: sessions (a row per logged-in device, by the SHA-256 of its token),
//! claimed accounts' login names and password hashes, and transfer codes (by their SHA-256).
//! Nothing here sees a token, password or code itself. Times are epoch ms of the caller's clock
//! (`crate::accounts::Clock`).

use super::{Db, DbError};
use sqlx::Row;

/// One session as stored.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SessionRow {
    pub player_id: String,
    /// The player's nickname as stored (read in the same query: a `hello` costs one read).
    pub nickname: String,
    pub created_at: i64,
    pub last_used_at: i64,
    /// Never accepted from then on, used or not.
    pub expires_at: i64,
    pub device: Option<String>,
    /// The token this one replaced (rotation), still valid until this one is first used.
    pub rotated_from: Option<String>,
    /// The newest token handed out to replace this one, not used yet.
    pub successor: Option<String>,
}

/// What a claim did.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ClaimOutcome {
    Claimed,
    /// Another account has the name (compared without case).
    NameTaken,
    /// This account has a login name already.
    AlreadyClaimed,
}

impl Db {
    /// A new guest: the player and its first session, together.
    pub async fn add_guest(
        &self,
        id: &str,
        nickname: &str,
        token_hash: &str,
        now: i64,
        expires_at: i64,
    ) -> Result<(), DbError> {
        let mut tx = self.pool.begin().await?;
        sqlx::query("INSERT INTO players (id, nickname, created_at) VALUES ($1, $2, $3)")
            .bind(id)
            .bind(nickname)
            .bind(now)
            .execute(&mut *tx)
            .await?;
        insert_session(&mut tx, token_hash, id, now, expires_at, None, None).await?;
        tx.commit().await?;
        Ok(())
    }

    /// A new session of an existing player (login, transfer).
    pub async fn add_session(
        &self,
        token_hash: &str,
        player_id: &str,
        now: i64,
        expires_at: i64,
        device: Option<&str>,
    ) -> Result<(), DbError> {
        let mut tx = self.pool.begin().await?;
        insert_session(&mut tx, token_hash, player_id, now, expires_at, device, None).await?;
        tx.commit().await?;
        Ok(())
    }

    pub async fn session(&self, token_hash: &str) -> Result<Option<SessionRow>, DbError> {
        let row = sqlx::query(
            "SELECT s.player_id, p.nickname, s.created_at, s.last_used_at, s.expires_at, s.device, s.rotated_from,
                    s.successor
             FROM sessions s JOIN players p ON p.id = s.player_id WHERE s.token_hash = $1",
        )
        .bind(token_hash)
        .fetch_optional(&self.pool)
        .await?;
        Ok(match row {
            Some(r) => Some(SessionRow {
                player_id: r.try_get("player_id")?,
                nickname: r.try_get("nickname")?,
                created_at: r.try_get("created_at")?,
                last_used_at: r.try_get("last_used_at")?,
                expires_at: r.try_get("expires_at")?,
                device: r.try_get("device")?,
                rotated_from: r.try_get("rotated_from")?,
                successor: r.try_get("successor")?,
            }),
            None => None,
        })
    }

    /// A session was used at `now`: noted, and the token it replaced (if any) ends.
    pub async fn session_used(&self, token_hash: &str, rotated_from: Option<&str>, now: i64) -> Result<(), DbError> {
        let mut tx = self.pool.begin().await?;
        if let Some(old) = rotated_from {
            sqlx::query("DELETE FROM sessions WHERE token_hash = $1").bind(old).execute(&mut *tx).await?;
        }
        sqlx::query("UPDATE sessions SET last_used_at = $2, rotated_from = NULL WHERE token_hash = $1")
            .bind(token_hash)
            .bind(now)
            .execute(&mut *tx)
            .await?;
        tx.commit().await?;
        Ok(())
    }

    /// Rotation: a new token `new` replaces session `old` (same player and device); `old` stays
    /// valid until `new` is first used. A pending successor of `old` is replaced. False when
    /// `old` is gone (ended meanwhile).
    pub async fn rotate_session(&self, old: &str, new: &str, now: i64, expires_at: i64) -> Result<bool, DbError> {
        let mut tx = self.pool.begin().await?;
        // A write first: PostgreSQL locks the row until the commit (SQLite the whole database).
        let touched = sqlx::query("UPDATE sessions SET last_used_at = $2 WHERE token_hash = $1")
            .bind(old)
            .bind(now)
            .execute(&mut *tx)
            .await?;
        if touched.rows_affected() == 0 {
            return Ok(false);
        }
        let row = sqlx::query("SELECT player_id, device, successor FROM sessions WHERE token_hash = $1")
            .bind(old)
            .fetch_one(&mut *tx)
            .await?;
        let player: String = row.try_get("player_id")?;
        let device: Option<String> = row.try_get("device")?;
        let successor: Option<String> = row.try_get("successor")?;
        if let Some(s) = successor {
            sqlx::query("DELETE FROM sessions WHERE token_hash = $1").bind(s).execute(&mut *tx).await?;
        }
        insert_session(&mut tx, new, &player, now, expires_at, device.as_deref(), Some(old)).await?;
        sqlx::query("UPDATE sessions SET successor = $2 WHERE token_hash = $1")
            .bind(old)
            .bind(new)
            .execute(&mut *tx)
            .await?;
        tx.commit().await?;
        Ok(true)
    }

    /// Ends a session (log out): its row, the token it replaced and its pending successor.
    /// Returns the hashes of the tokens ended.
    pub async fn end_session(&self, token_hash: &str) -> Result<Vec<String>, DbError> {
        let mut tx = self.pool.begin().await?;
        let Some(row) = sqlx::query("SELECT rotated_from, successor FROM sessions WHERE token_hash = $1")
            .bind(token_hash)
            .fetch_optional(&mut *tx)
            .await?
        else {
            return Ok(Vec::new());
        };
        let mut linked = vec![token_hash.to_string()];
        linked.extend(row.try_get::<Option<String>, _>("rotated_from")?);
        linked.extend(row.try_get::<Option<String>, _>("successor")?);
        let mut ended = Vec::new();
        for h in linked {
            let gone = sqlx::query("DELETE FROM sessions WHERE token_hash = $1").bind(&h).execute(&mut *tx).await?;
            if gone.rows_affected() > 0 {
                ended.push(h);
            }
        }
        tx.commit().await?;
        Ok(ended)
    }

    /// Ends every session of a player (log out everywhere) and its transfer code; how many
    /// sessions ended.
    pub async fn end_sessions_of(&self, player_id: &str) -> Result<u64, DbError> {
        let mut tx = self.pool.begin().await?;
        let ended = sqlx::query("DELETE FROM sessions WHERE player_id = $1").bind(player_id).execute(&mut *tx).await?;
        sqlx::query("DELETE FROM transfer_codes WHERE player_id = $1").bind(player_id).execute(&mut *tx).await?;
        tx.commit().await?;
        Ok(ended.rows_affected())
    }

    /// Sessions a player has.
    pub async fn sessions_of(&self, player_id: &str) -> Result<u64, DbError> {
        let n: i64 = sqlx::query("SELECT COUNT(*) AS n FROM sessions WHERE player_id = $1")
            .bind(player_id)
            .fetch_one(&self.pool)
            .await?
            .try_get("n")?;
        Ok(n.max(0) as u64)
    }

    /// Deletes sessions past their limit or unused since `idle_since`, and expired transfer
    /// codes; how many sessions went.
    pub async fn drop_expired(&self, now: i64, idle_since: i64) -> Result<u64, DbError> {
        let gone = sqlx::query("DELETE FROM sessions WHERE expires_at <= $1 OR last_used_at <= $2")
            .bind(now)
            .bind(idle_since)
            .execute(&self.pool)
            .await?;
        sqlx::query("DELETE FROM transfer_codes WHERE expires_at <= $1").bind(now).execute(&self.pool).await?;
        Ok(gone.rows_affected())
    }

    /// The claimed account of a login name (its lower case): (player id, password hash).
    pub async fn login_by_name(&self, name_key: &str) -> Result<Option<(String, String)>, DbError> {
        let row = sqlx::query("SELECT player_id, password_hash FROM logins WHERE name_key = $1")
            .bind(name_key)
            .fetch_optional(&self.pool)
            .await?;
        Ok(match row {
            Some(r) => Some((r.try_get("player_id")?, r.try_get("password_hash")?)),
            None => None,
        })
    }

    /// A player's login name (as claimed), if the account was claimed.
    pub async fn login_name(&self, player_id: &str) -> Result<Option<String>, DbError> {
        let row = sqlx::query("SELECT name FROM logins WHERE player_id = $1")
            .bind(player_id)
            .fetch_optional(&self.pool)
            .await?;
        Ok(match row {
            Some(r) => Some(r.try_get("name")?),
            None => None,
        })
    }

    /// Whether a login name (its lower case) is taken.
    pub async fn login_name_taken(&self, name_key: &str) -> Result<bool, DbError> {
        Ok(sqlx::query("SELECT 1 AS x FROM logins WHERE name_key = $1")
            .bind(name_key)
            .fetch_optional(&self.pool)
            .await?
            .is_some())
    }

    /// Claims an account: its login name and password hash (PHC string).
    pub async fn claim(
        &self,
        player_id: &str,
        name: &str,
        name_key: &str,
        password_hash: &str,
        now: i64,
    ) -> Result<ClaimOutcome, DbError> {
        let mut tx = self.pool.begin().await?;
        // The write first: on SQLite a transaction that reads and then writes fails at once
        // ("database is locked", no busy wait) when another connection committed in between
        // (its read snapshot is stale); one that starts with its write waits for the lock.
        let added = sqlx::query(
            "INSERT INTO logins (player_id, name, name_key, password_hash, claimed_at) VALUES ($1, $2, $3, $4, $5)
             ON CONFLICT DO NOTHING",
        )
        .bind(player_id)
        .bind(name)
        .bind(name_key)
        .bind(password_hash)
        .bind(now)
        .execute(&mut *tx)
        .await?;
        if added.rows_affected() == 0 {
            // The conflict is the player's own row (claimed before) or another's name.
            let mine = sqlx::query("SELECT 1 AS x FROM logins WHERE player_id = $1")
                .bind(player_id)
                .fetch_optional(&mut *tx)
                .await?;
            return Ok(if mine.is_some() { ClaimOutcome::AlreadyClaimed } else { ClaimOutcome::NameTaken });
        }
        tx.commit().await?;
        Ok(ClaimOutcome::Claimed)
    }

    /// The player's transfer code from now on (any earlier one ends).
    pub async fn set_transfer_code(
        &self,
        player_id: &str,
        code_hash: &str,
        now: i64,
        expires_at: i64,
    ) -> Result<(), DbError> {
        sqlx::query(
            "INSERT INTO transfer_codes (player_id, code_hash, created_at, expires_at) VALUES ($1, $2, $3, $4)
             ON CONFLICT (player_id) DO UPDATE
             SET code_hash = excluded.code_hash, created_at = excluded.created_at, expires_at = excluded.expires_at",
        )
        .bind(player_id)
        .bind(code_hash)
        .bind(now)
        .bind(expires_at)
        .execute(&self.pool)
        .await?;
        Ok(())
    }

    /// Redeems a transfer code: the player it moves, when it exists and has not expired at
    /// `now`. Found, it is deleted (expired or not): a code works once.
    pub async fn redeem_transfer_code(&self, code_hash: &str, now: i64) -> Result<Option<String>, DbError> {
        let row = sqlx::query("DELETE FROM transfer_codes WHERE code_hash = $1 RETURNING player_id, expires_at")
            .bind(code_hash)
            .fetch_optional(&self.pool)
            .await?;
        let Some(r) = row else { return Ok(None) };
        let expires_at: i64 = r.try_get("expires_at")?;
        Ok((now < expires_at).then(|| r.try_get("player_id")).transpose()?)
    }
}

async fn insert_session(
    tx: &mut sqlx::Transaction<'_, sqlx::Any>,
    token_hash: &str,
    player_id: &str,
    now: i64,
    expires_at: i64,
    device: Option<&str>,
    rotated_from: Option<&str>,
) -> Result<(), DbError> {
    sqlx::query(
        "INSERT INTO sessions (token_hash, player_id, created_at, last_used_at, expires_at, device, rotated_from)
         VALUES ($1, $2, $3, $3, $4, $5, $6)",
    )
    .bind(token_hash)
    .bind(player_id)
    .bind(now)
    .bind(expires_at)
    .bind(device)
    .bind(rotated_from)
    .execute(&mut **tx)
    .await?;
    Ok(())
}
