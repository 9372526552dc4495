//! The public ladder: `GET /v1/leaderboard` and `GET /v1/players/ID`. Anyone may ask, so each
//! answer costs the server little and never more than a bound:
//! - pages and profiles are answered from a short-lived cache (`PAGE_TTL`), the number of ranked
//!   players from a count kept for `TOTAL_TTL`: a flood of the same request reaches the
//!   database once per period;
//! - what does reach the database runs on the read pool, one leaderboard page and one profile
//!   at a time, with at most `MAX_WAITING` requests waiting their turn (others: 503 at once), so
//!   a flood holds neither a room's connection nor unbounded memory;
//! - a profile's figures are kept per player when a match is stored; a request never loads logs
//!   except the one-time backfill of a player from before, which waits its turn *before* it
//!   reads anything and then reads one log at a time;
//! - the per-address rate limit on public reads (crate::http) comes before all of this.

use crate::App;
use crate::refusal::error;
use axum::Json;
use axum::extract::rejection::QueryRejection;
use axum::extract::{Path, Query, State};
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use guandan_proto::ErrorCode;
use guandan_proto::http::{Leaderboard, LeaderboardEntry, PlayerProfile, ProfileStats, RulesRating};
use parking_lot::Mutex;
use std::collections::HashMap;
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering::Relaxed};
use std::time::{Duration, Instant};
use tokio::sync::Semaphore;

/// Players on one leaderboard page.
pub const PER_PAGE: u32 = 50;
/// The deepest leaderboard page served (a bound on the database's work for an OFFSET).
pub const MAX_PAGE: u32 = 10_000;
/// Rated matches shown per rule preset in a profile.
const HISTORY: i64 = 50;
/// A backfilled profile's figures cover at most this many of the player's latest matches.
const BACKFILL_MATCHES: i64 = 200;
/// How long an answer is served from the cache.
const PAGE_TTL: Duration = Duration::from_secs(5);
/// How long the number of ranked players is served from the cache.
const TOTAL_TTL: Duration = Duration::from_secs(30);
/// Requests waiting for the database's turn, per kind; more are refused at once.
const MAX_WAITING: usize = 16;
/// Cached answers kept (each a few KB); the oldest go first beyond it.
const MAX_CACHED: usize = 512;

/// Answers cached by key, each with the time it was made.
struct Cache<T> {
    map: Mutex<HashMap<String, (Instant, T)>>,
    ttl: Duration,
}

impl<T: Clone> Cache<T> {
    fn new(ttl: Duration) -> Self {
        Cache { map: Mutex::new(HashMap::new()), ttl }
    }

    fn get(&self, key: &str, now: Instant) -> Option<T> {
        self.map.lock().get(key).filter(|(at, _)| now.duration_since(*at) < self.ttl).map(|(_, v)| v.clone())
    }

    fn put(&self, key: String, value: T, now: Instant) {
        let mut map = self.map.lock();
        if map.len() >= MAX_CACHED {
            map.retain(|_, (at, _)| now.duration_since(*at) < self.ttl);
            if map.len() >= MAX_CACHED
                && let Some(oldest) = map.iter().min_by_key(|(_, (at, _))| *at).map(|(k, _)| k.clone())
            {
                map.remove(&oldest);
            }
        }
        map.insert(key, (now, value));
    }
}

/// One kind of database work, one request at a time, with a bounded line.
struct Turn {
    one: Semaphore,
    waiting: AtomicUsize,
}

impl Turn {
    fn new() -> Self {
        Turn { one: Semaphore::new(1), waiting: AtomicUsize::new(0) }
    }

    /// Waits for the turn; `None` (at once) when `MAX_WAITING` requests wait already.
    async fn take(&self) -> Option<tokio::sync::SemaphorePermit<'_>> {
        // Counted out again however the wait ends: a request whose client hung up mid-wait is
        // dropped here, and a count it left behind would shut the line for good.
        struct InLine<'a>(&'a AtomicUsize);
        impl Drop for InLine<'_> {
            fn drop(&mut self) {
                self.0.fetch_sub(1, Relaxed);
            }
        }
        let in_line = InLine(&self.waiting);
        if self.waiting.fetch_add(1, Relaxed) >= MAX_WAITING {
            return None;
        }
        let permit = self.one.acquire().await.ok();
        drop(in_line);
        permit
    }
}

/// The ladder's caches and turns (one per server).
pub struct Ladder {
    pages: Cache<axum::body::Bytes>,
    profiles: Cache<axum::body::Bytes>,
    totals: Cache<i64>,
    board_turn: Turn,
    profile_turn: Turn,
}

impl Default for Ladder {
    fn default() -> Self {
        Ladder {
            pages: Cache::new(PAGE_TTL),
            profiles: Cache::new(PAGE_TTL),
            totals: Cache::new(TOTAL_TTL),
            board_turn: Turn::new(),
            profile_turn: Turn::new(),
        }
    }
}

fn busy() -> Response {
    error(StatusCode::SERVICE_UNAVAILABLE, ErrorCode::RateLimited, "the server is busy: try again in a moment")
}

fn json_bytes(bytes: axum::body::Bytes) -> Response {
    ([(axum::http::header::CONTENT_TYPE, "application/json")], bytes).into_response()
}

fn db_error(e: crate::db::DbError) -> Response {
    crate::refusal::AppError::from(e).into_response()
}

fn count(n: i64) -> u32 {
    u32::try_from(n).unwrap_or(if n < 0 { 0 } else { u32::MAX })
}

/// `GET /v1/leaderboard?rules=competition&page=0`: public; rules default to `competition`,
/// pages count from 0. Players with fewer than `--leaderboard-min-matches` rated matches under
/// the rules are not listed.
pub async fn leaderboard(
    State(app): State<Arc<App>>,
    query: Result<Query<HashMap<String, String>>, QueryRejection>,
) -> Response {
    let Ok(Query(q)) = query else {
        return error(StatusCode::BAD_REQUEST, ErrorCode::MalformedMessage, "unreadable query");
    };
    let rules = q.get("rules").map_or("competition", String::as_str);
    if guandan_core::rules::RuleConfig::preset(rules).is_none() {
        let shown: String = rules.chars().take(40).collect();
        return error(StatusCode::BAD_REQUEST, ErrorCode::MalformedMessage, &format!("no rule preset {shown:?}"));
    }
    let page = match q.get("page").map(|p| p.parse::<u32>()) {
        None => 0,
        Some(Ok(p)) if p <= MAX_PAGE => p,
        Some(_) => {
            return error(
                StatusCode::BAD_REQUEST,
                ErrorCode::MalformedMessage,
                &format!("page is a number from 0 to {MAX_PAGE}"),
            );
        }
    };
    let ladder = &app.ladder();
    let key = format!("{rules}/{page}");
    if let Some(b) = ladder.pages.get(&key, Instant::now()) {
        return json_bytes(b);
    }
    let Some(_turn) = ladder.board_turn.take().await else { return busy() };
    // Made by the request before this one while this one waited.
    if let Some(b) = ladder.pages.get(&key, Instant::now()) {
        return json_bytes(b);
    }
    let min = i64::from(app.cfg().leaderboard_min_matches);
    let total = match ladder.totals.get(rules, Instant::now()) {
        Some(n) => n,
        None => match app.db().ranked_count(rules, min).await {
            Ok(n) => {
                ladder.totals.put(rules.to_string(), n, Instant::now());
                n
            }
            Err(e) => return db_error(e),
        },
    };
    let offset = i64::from(page) * i64::from(PER_PAGE);
    let rows = match app.db().ranking(rules, min, offset, i64::from(PER_PAGE)).await {
        Ok(rows) => rows,
        Err(e) => return db_error(e),
    };
    let board = Leaderboard {
        rules: rules.to_string(),
        page,
        per_page: PER_PAGE,
        total: u64::try_from(total).unwrap_or(0),
        entries: rows
            .into_iter()
            .enumerate()
            .map(|(i, r)| LeaderboardEntry {
                rank: (offset + i as i64 + 1) as u64,
                player_id: r.player_id,
                nickname: r.nickname,
                rating: r.shown,
                matches: count(r.matches),
                wins: count(r.wins),
            })
            .collect(),
        min_matches: app.cfg().leaderboard_min_matches,
    };
    let bytes = axum::body::Bytes::from(serde_json::to_vec(&board).unwrap_or_default());
    ladder.pages.put(key, bytes.clone(), Instant::now());
    json_bytes(bytes)
}

/// `GET /v1/players/ID`: a player's public profile (never the token): ratings with their
/// latest history, and figures over the player's stored matches.
pub async fn profile(State(app): State<Arc<App>>, Path(id): Path<String>) -> Response {
    if id.is_empty() || id.len() > 64 {
        return error(StatusCode::NOT_FOUND, ErrorCode::NotFound, "no such player");
    }
    let ladder = &app.ladder();
    if let Some(b) = ladder.profiles.get(&id, Instant::now()) {
        return json_bytes(b);
    }
    let Some(turn) = ladder.profile_turn.take().await else { return busy() };
    if let Some(b) = ladder.profiles.get(&id, Instant::now()) {
        return json_bytes(b);
    }
    let nickname = match app.db().player_public(&id).await {
        Ok(Some(nickname)) => guandan_proto::displayable_nickname(&nickname),
        Ok(None) => return error(StatusCode::NOT_FOUND, ErrorCode::NotFound, "no such player"),
        Err(e) => return db_error(e),
    };
    let mut ratings = Vec::new();
    let rows = match app.db().ratings_of(&id).await {
        Ok(rows) => rows,
        Err(e) => return db_error(e),
    };
    for (rules, row, shown) in rows {
        let history = match app.db().rating_history(&id, &rules, HISTORY).await {
            Ok(h) => h,
            Err(e) => return db_error(e),
        };
        ratings.push(RulesRating {
            rules,
            rating: shown,
            matches: count(row.matches),
            wins: count(row.wins),
            draws: count(row.draws),
            history,
        });
    }
    let figures = match app.db().profile_figures(&id).await {
        Ok(Some(f)) => f,
        Ok(None) => match app.db().has_stored_matches(&id).await {
            Ok(false) => Default::default(),
            // Matches stored before figures were kept: replayed once, in this request's turn.
            Ok(true) => match app.db().backfill_figures(&id, BACKFILL_MATCHES).await {
                Ok(f) => f,
                Err(e) => return db_error(e),
            },
            Err(e) => return db_error(e),
        },
        Err(e) => return db_error(e),
    };
    drop(turn);
    let profile = PlayerProfile {
        player_id: id.clone(),
        nickname,
        ratings,
        stats: ProfileStats {
            matches: figures.record.matches,
            wins: figures.record.matches_won,
            win_rate: figures.match_win_rate(),
            double_down_rate: figures.double_down_rate(),
            bombs_per_deal: figures.bombs_per_deal(),
        },
    };
    let bytes = axum::body::Bytes::from(serde_json::to_vec(&profile).unwrap_or_default());
    ladder.profiles.put(id, bytes.clone(), Instant::now());
    Json(profile).into_response()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test]
    async fn a_turn_keeps_a_bounded_line_and_refuses_the_rest_at_once() {
        let turn = Arc::new(Turn::new());
        let held = turn.take().await.expect("the first takes the turn");
        let mut waiting = Vec::new();
        for _ in 0..MAX_WAITING {
            let t = turn.clone();
            waiting.push(tokio::spawn(async move { t.take().await.is_some() }));
        }
        // Every waiter has queued once the count says so (they wait on the held permit).
        while turn.waiting.load(Relaxed) < MAX_WAITING {
            tokio::task::yield_now().await;
        }
        assert!(turn.take().await.is_none(), "the line is full: refused without waiting");
        // A waiter that gives up (its client hung up) leaves the line.
        let t = turn.clone();
        let quitter = tokio::spawn(async move { t.take().await.is_some() });
        quitter.abort();
        let _ = quitter.await;
        assert_eq!(turn.waiting.load(Relaxed), MAX_WAITING, "nobody counted twice");
        drop(held);
        for w in waiting {
            assert!(w.await.unwrap(), "each waiter gets its turn in the end");
        }
        assert_eq!(turn.waiting.load(Relaxed), 0, "the line is empty again");
        // Requests dropped while waiting leave no count behind.
        let held = turn.take().await.unwrap();
        let mut gone = Vec::new();
        for _ in 0..MAX_WAITING * 2 {
            let t = turn.clone();
            gone.push(tokio::spawn(async move { t.take().await.is_some() }));
        }
        tokio::task::yield_now().await;
        for g in gone {
            g.abort();
            let _ = g.await;
        }
        drop(held);
        assert_eq!(turn.waiting.load(Relaxed), 0);
        assert!(turn.take().await.is_some(), "the line is open again");
    }

    #[test]
    fn the_cache_forgets_old_answers_and_stays_bounded() {
        let cache: Cache<u32> = Cache::new(Duration::from_secs(5));
        let t0 = Instant::now();
        cache.put("a".into(), 1, t0);
        assert_eq!(cache.get("a", t0 + Duration::from_secs(4)), Some(1));
        assert_eq!(cache.get("a", t0 + Duration::from_secs(5)), None, "stale");
        for k in 0..(MAX_CACHED as u32 * 2) {
            cache.put(format!("k{k}"), k, t0);
        }
        assert!(cache.map.lock().len() <= MAX_CACHED);
    }
}
