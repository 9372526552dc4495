//! Ratings as stored: one transaction rates a match's rated humans, with a history row each.

use super::{Db, DbError, RatingRow, RatingUpdate, now_ms};

impl Db {
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
            before.push(RatingRow::read(&r)?);
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
}
