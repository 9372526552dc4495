//! Public reads: the leaderboard, a player's ratings and history, profile figures, finished
//! matches. They run on the read pool ([`Db::read`]), never on the connections rooms write with.
//! Profile figures are kept per player and updated when a match is stored ([`add_figures`]),
//! so a profile never replays logs on a request (only once, for a player whose matches were
//! stored before the figures were kept: [`Db::backfill_figures`]).

use super::{Db, DbError, RankedPlayer, RatingRow, now_ms};
use futures_util::TryStreamExt;
use guandan_core::seat::Seat;
use guandan_core::stats::PlayerStats;
use guandan_proto::http::RatingPoint;
use sqlx::{Any, Row, Transaction};

/// One ranking page: `$1` rules, `$2` least rated matches, `$3` rows, `$4` rows skipped. The
/// page is cut from the ranking index first (materialized: left to itself, SQLite 3.46 walks
/// every rated player in the outer query to keep its order) and only its rows are joined.
const RANKING_PAGE: &str = "WITH k AS MATERIALIZED (
      SELECT player_id, shown, matches, wins FROM ratings WHERE rules = $1 AND matches >= $2
      ORDER BY shown DESC, matches DESC, player_id ASC LIMIT $3 OFFSET $4)
     SELECT k.player_id, p.nickname, k.shown, k.matches, k.wins FROM k JOIN players p ON p.id = k.player_id
     ORDER BY k.shown DESC, k.matches DESC, k.player_id ASC";

impl Db {
    /// Every rating of a player: (rules, row, shown), by rules.
    pub async fn ratings_of(&self, player: &str) -> Result<Vec<(String, RatingRow, i64)>, DbError> {
        let rows = sqlx::query(
            "SELECT rules, mu, sigma, shown, matches, wins, draws FROM ratings WHERE player_id = $1 ORDER BY rules",
        )
        .bind(player)
        .fetch_all(&self.read)
        .await?;
        let mut v = Vec::with_capacity(rows.len());
        for r in rows {
            v.push((r.try_get("rules")?, RatingRow::read(&r)?, r.try_get("shown")?));
        }
        Ok(v)
    }

    /// A player's latest `limit` rated matches under `rules`, oldest first.
    pub async fn rating_history(&self, player: &str, rules: &str, limit: i64) -> Result<Vec<RatingPoint>, DbError> {
        let rows = sqlx::query(
            "SELECT at, shown, change, room_code, match_no FROM rating_history WHERE player_id = $1 AND rules = $2
             ORDER BY matches DESC LIMIT $3",
        )
        .bind(player)
        .bind(rules)
        .bind(limit)
        .fetch_all(&self.read)
        .await?;
        let mut v = Vec::with_capacity(rows.len());
        for r in rows.iter().rev() {
            let match_no: i64 = r.try_get("match_no")?;
            v.push(RatingPoint {
                at: r.try_get("at")?,
                rating: r.try_get("shown")?,
                change: r.try_get("change")?,
                room: r.try_get("room_code")?,
                match_no: u32::try_from(match_no).unwrap_or(u32::MAX),
            });
        }
        Ok(v)
    }

    /// Players on the leaderboard under `rules`: rated in at least `min_matches` matches. A
    /// count over the ranking index; the server keeps it cached (crate::board).
    pub async fn ranked_count(&self, rules: &str, min_matches: i64) -> Result<i64, DbError> {
        Ok(sqlx::query("SELECT COUNT(*) AS n FROM ratings WHERE rules = $1 AND matches >= $2")
            .bind(rules)
            .bind(min_matches)
            .fetch_one(&self.read)
            .await?
            .try_get::<i64, _>("n")?)
    }

    /// One page of the ranking under `rules` (best first; ties: more matches, then player id)
    /// among players rated in at least `min_matches` matches. The page's keys are found on the
    /// ranking index alone (its order is the ranking's); only the page's 50 rows are joined.
    pub async fn ranking(
        &self,
        rules: &str,
        min_matches: i64,
        offset: i64,
        limit: i64,
    ) -> Result<Vec<RankedPlayer>, DbError> {
        let rows = sqlx::query(RANKING_PAGE)
            .bind(rules)
            .bind(min_matches)
            .bind(limit)
            .bind(offset)
            .fetch_all(&self.read)
            .await?;
        let mut v = Vec::with_capacity(rows.len());
        for r in rows {
            v.push(RankedPlayer {
                player_id: r.try_get("player_id")?,
                nickname: r.try_get("nickname")?,
                shown: r.try_get("shown")?,
                matches: r.try_get("matches")?,
                wins: r.try_get("wins")?,
            });
        }
        Ok(v)
    }

    /// A player's nickname, on the read pool (public pages).
    pub async fn player_public(&self, id: &str) -> Result<Option<String>, DbError> {
        let row = sqlx::query("SELECT nickname FROM players WHERE id = $1").bind(id).fetch_optional(&self.read).await?;
        Ok(row.map(|r| r.get::<String, _>("nickname")))
    }

    /// A player's kept profile figures; `None` when none are kept (no stored match, or only
    /// matches stored before the figures were kept).
    pub async fn profile_figures(&self, player: &str) -> Result<Option<PlayerStats>, DbError> {
        let row = sqlx::query("SELECT stats FROM profile_stats WHERE player_id = $1")
            .bind(player)
            .fetch_optional(&self.read)
            .await?;
        Ok(row.map(|r| parse_figures(&r.get::<String, _>("stats"))))
    }

    /// Whether any match of the player is stored.
    pub async fn has_stored_matches(&self, player: &str) -> Result<bool, DbError> {
        let row = sqlx::query("SELECT 1 AS one FROM match_players WHERE player_id = $1 LIMIT 1")
            .bind(player)
            .fetch_optional(&self.read)
            .await?;
        Ok(row.is_some())
    }

    /// Figures for a player whose matches were stored before figures were kept: the latest
    /// `limit` stored matches replayed one at a time (one log in memory at once), then kept.
    /// The caller runs one of these at a time.
    pub async fn backfill_figures(&self, player: &str, limit: i64) -> Result<PlayerStats, DbError> {
        let mut rows = sqlx::query(
            "SELECT mp.seat, m.log FROM match_players mp
             JOIN matches m ON m.room_code = mp.room_code AND m.match_no = mp.match_no
             WHERE mp.player_id = $1 ORDER BY mp.finished_at DESC, mp.match_no DESC LIMIT $2",
        )
        .bind(player)
        .bind(limit)
        .fetch(&self.read);
        let mut total = PlayerStats::default();
        while let Some(r) = rows.try_next().await? {
            let seat: i64 = r.try_get("seat")?;
            let log: String = r.try_get("log")?;
            // A row naming no seat counts nothing (the database is read as any other input).
            let seat = match Seat::try_from(seat) {
                Ok(seat) => seat,
                Err(e) => {
                    tracing::warn!(error = %e, "a stored match result names no seat; left out of a profile");
                    continue;
                }
            };
            // Replaying a record is CPU work (≈ 2 ms): off the async workers.
            let figures = tokio::task::spawn_blocking(move || seat_figures(&log, seat)).await.unwrap_or_default();
            total.merge(&figures);
        }
        drop(rows);
        let json = serde_json::to_string(&total).unwrap_or_default();
        sqlx::query(
            "INSERT INTO profile_stats (player_id, stats, updated_at) VALUES ($1, $2, $3)
             ON CONFLICT (player_id) DO NOTHING",
        )
        .bind(player)
        .bind(&json)
        .bind(now_ms())
        .execute(&self.pool)
        .await?;
        // A match stored meanwhile may have kept figures first: those are read back.
        Ok(self.profile_figures(player).await?.unwrap_or(total))
    }

    /// (meta, log) of a finished match.
    pub async fn finished_match(&self, room: &str, match_no: i64) -> Result<Option<(String, String)>, DbError> {
        let row = sqlx::query("SELECT meta, log FROM matches WHERE room_code = $1 AND match_no = $2")
            .bind(room)
            .bind(match_no)
            .fetch_optional(&self.read)
            .await?;
        Ok(row.map(|r| (r.get::<String, _>("meta"), r.get::<String, _>("log"))))
    }

    /// (matches, wins, draws) of a player.
    pub async fn stats(&self, player: &str) -> Result<(i64, i64, i64), DbError> {
        let row = sqlx::query("SELECT matches, wins, draws FROM player_stats WHERE player_id = $1")
            .bind(player)
            .fetch_optional(&self.read)
            .await?;
        Ok(row.map_or((0, 0, 0), |r| (r.get("matches"), r.get("wins"), r.get("draws"))))
    }
}

/// Adds one stored match's figures to a player's kept figures, inside the transaction that
/// stores the match. A player with earlier matches but no kept figures is left to
/// [`Db::backfill_figures`], which then counts this match too.
pub(super) async fn add_figures(
    tx: &mut Transaction<'static, Any>,
    player: &str,
    room: &str,
    match_no: i64,
    figures: &PlayerStats,
) -> Result<(), DbError> {
    // A write first: PostgreSQL locks the row until the commit (SQLite's first write locked the
    // whole database already), so two matches of one player never lose an update.
    let kept = sqlx::query("UPDATE profile_stats SET updated_at = updated_at WHERE player_id = $1")
        .bind(player)
        .execute(&mut **tx)
        .await?
        .rows_affected()
        == 1;
    if kept {
        let row = sqlx::query("SELECT stats FROM profile_stats WHERE player_id = $1")
            .bind(player)
            .fetch_one(&mut **tx)
            .await?;
        let mut total = parse_figures(&row.get::<String, _>("stats"));
        total.merge(figures);
        sqlx::query("UPDATE profile_stats SET stats = $1, updated_at = $2 WHERE player_id = $3")
            .bind(serde_json::to_string(&total).unwrap_or_default())
            .bind(now_ms())
            .bind(player)
            .execute(&mut **tx)
            .await?;
        return Ok(());
    }
    let earlier = sqlx::query(
        "SELECT 1 AS one FROM match_players WHERE player_id = $1 AND NOT (room_code = $2 AND match_no = $3) LIMIT 1",
    )
    .bind(player)
    .bind(room)
    .bind(match_no)
    .fetch_optional(&mut **tx)
    .await?;
    if earlier.is_none() {
        sqlx::query(
            "INSERT INTO profile_stats (player_id, stats, updated_at) VALUES ($1, $2, $3)
             ON CONFLICT (player_id) DO NOTHING",
        )
        .bind(player)
        .bind(serde_json::to_string(figures).unwrap_or_default())
        .bind(now_ms())
        .execute(&mut **tx)
        .await?;
    }
    Ok(())
}

/// Kept figures as stored; unreadable ones count as none (and are logged).
fn parse_figures(json: &str) -> PlayerStats {
    serde_json::from_str(json).unwrap_or_else(|e| {
        tracing::warn!(error = %e, "kept profile figures unreadable; shown as none");
        PlayerStats::default()
    })
}

/// One seat's figures in a stored record (JSON Lines); a record that does not replay gives none.
pub fn seat_figures(log: &str, seat: Seat) -> PlayerStats {
    let Ok(log) = guandan_core::log::MatchLog::parse(log) else { return PlayerStats::default() };
    match guandan_core::stats::seat_stats(&log) {
        Ok(seats) => seats.get(seat.index()).cloned().unwrap_or_default(),
        Err(e) => {
            tracing::warn!(error = %e, "a stored match does not replay; left out of a profile");
            PlayerStats::default()
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The leaderboard's page query walks the ranking index in its own order: no sort of every
    /// rated player per request (what made each page cost the same ≈ 0.3 s at 200,000 players).
    #[tokio::test]
    async fn a_page_walks_the_ranking_index_without_sorting_everyone() {
        let dir = std::env::temp_dir().join(format!("guandan-db-plan-{}", std::process::id()));
        let db = Db::connect(&format!("sqlite://{}/t.db", dir.display())).await.unwrap();
        let plan = sqlx::query(&format!("EXPLAIN QUERY PLAN {}", RANKING_PAGE))
            .bind("competition")
            .bind(5i64)
            .bind(50i64)
            .bind(1000i64)
            .fetch_all(&db.read)
            .await
            .unwrap();
        let steps: Vec<(i64, i64, String)> =
            plan.iter().map(|r| (r.get::<i64, _>(0), r.get::<i64, _>(1), r.get::<String, _>(3))).collect();
        let _ = std::fs::remove_dir_all(dir);
        let ratings: Vec<&String> = steps.iter().map(|s| &s.2).filter(|d| d.contains("ratings")).collect();
        assert_eq!(ratings.len(), 1, "one pass over ratings: {steps:#?}");
        assert!(ratings[0].contains("INDEX ratings_board (rules=?)"), "{steps:#?}");
        assert!(
            steps.iter().any(|s| s.2.contains("players") && s.2.starts_with("SEARCH") && s.2.contains("(id=?)")),
            "players are looked up by id, only for the page: {steps:#?}"
        );
        assert!(!steps.iter().any(|s| s.2.contains("AUTOMATIC")), "{steps:#?}");
    }
}
