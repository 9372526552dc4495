//! A match's durable record: actions appended in group commits, read back in order, and the
//! finished match stored with its players' stats and profile figures.

use super::{Db, DbError, MatchResult, board, now_ms};
use sqlx::Row;

impl Db {
    /// Appends actions (`room, match_no, seq, json`) in one transaction: the group commit the
    /// journal uses.
    pub async fn append_actions(&self, rows: &[(String, i64, i64, String)]) -> Result<(), DbError> {
        // One statement is atomic by itself: a batch that fits in one needs no BEGIN and COMMIT
        // (two round trips to the database less). Up to SINGLE_STATEMENT_ROWS rows every size
        // has its statement (as many cached statements); larger batches go in chunks.
        if !rows.is_empty() && rows.len() <= SINGLE_STATEMENT_ROWS {
            return insert(&self.pool, rows).await;
        }
        self.append_in_transaction(rows).await
    }

    async fn append_in_transaction(&self, rows: &[(String, i64, i64, String)]) -> Result<(), DbError> {
        let mut tx = self.pool.begin().await?;
        for chunk in insert_chunks(rows) {
            insert(&mut *tx, chunk).await?;
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
}

/// Rows one insert statement carries at most.
const ROWS_PER_STATEMENT: usize = 64;
/// A batch of at most this many rows is one statement of its own size, outside a transaction.
const SINGLE_STATEMENT_ROWS: usize = 32;

/// One multi-row insert of `rows` (`room, match_no, seq, json`) on a connection or the pool.
async fn insert<'e, E: sqlx::Executor<'e, Database = sqlx::Any>>(
    exec: E,
    rows: &[(String, i64, i64, String)],
) -> Result<(), DbError> {
    let mut sql = String::from("INSERT INTO match_actions (room_code, match_no, seq, action) VALUES ");
    for i in 0..rows.len() {
        let p = 4 * i;
        if i > 0 {
            sql.push_str(", ");
        }
        sql.push_str(&format!("(${}, ${}, ${}, ${})", p + 1, p + 2, p + 3, p + 4));
    }
    let mut q = sqlx::query(&sql);
    for (room, match_no, seq, action) in rows {
        q = q.bind(room).bind(*match_no).bind(*seq).bind(action);
    }
    q.execute(exec).await?;
    Ok(())
}

/// Multi-row statements: one round trip to the database per chunk, not per action. Chunks have
/// power-of-two sizes up to 64, so a connection caches at most seven insert statements (every
/// batch size its own statement would cost megabytes of prepared statements).
fn insert_chunks<T>(rows: &[T]) -> impl Iterator<Item = &[T]> {
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
}
