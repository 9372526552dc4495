//! HTTP endpoints: guest accounts, health, metrics, finished match logs, the room directory,
//! the public leaderboard and player profiles, and the WebSocket upgrade.

use crate::App;
use crate::auth;
use crate::listener::Peer;
use crate::ws_guard;
use axum::Extension;
use axum::Json;
use axum::Router;
use axum::extract::rejection::QueryRejection;
use axum::extract::{Path, Query, Request, State};
use axum::http::{StatusCode, header};
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use guandan_proto::http::{
    FinishedMatch, HEALTH_PATH, Health, HttpError, LEADERBOARD_PATH, Leaderboard, LeaderboardEntry, METRICS_PATH,
    NewPlayer, NewPlayerReply, PLAYERS_PATH, PlayerProfile, ProfileStats, RatingPoint, RoomDirectoryEntry, RulesRating,
    WS_PATH,
};
use guandan_proto::{ErrorCode, MAX_FRAME_BYTES};
use hyper_util::rt::TokioIo;
use std::collections::HashMap;
use std::sync::Arc;
use tokio_tungstenite::WebSocketStream;
use tokio_tungstenite::tungstenite::handshake::derive_accept_key;
use tokio_tungstenite::tungstenite::protocol::{Role, WebSocketConfig};

pub fn router(app: Arc<App>) -> Router {
    Router::new()
        .route(HEALTH_PATH, get(healthz))
        .route(METRICS_PATH, get(metrics))
        .route(PLAYERS_PATH, post(new_player))
        .route("/v1/players/{id}", get(profile))
        .route(LEADERBOARD_PATH, get(leaderboard))
        .route("/v1/rooms/{code}", get(room))
        .route("/v1/matches/{code}/{match_no}", get(finished_match))
        .route(WS_PATH, get(ws))
        .with_state(app)
}

pub(crate) fn error(status: StatusCode, code: ErrorCode, message: &str) -> Response {
    (status, Json(HttpError::new(code, message))).into_response()
}

async fn healthz(State(app): State<Arc<App>>) -> Response {
    match app.db.schema_version().await {
        Ok(v) => Json(Health { ok: true, schema: v, db: app.db.backend.to_string() }).into_response(),
        Err(e) => error(StatusCode::SERVICE_UNAVAILABLE, ErrorCode::Io, &e.to_string()),
    }
}

async fn metrics(State(app): State<Arc<App>>) -> Response {
    ([("content-type", "text/plain; version=0.0.4")], app.metrics.render()).into_response()
}

async fn new_player(
    State(app): State<Arc<App>>,
    Extension(peer): Extension<Peer>,
    body: axum::body::Bytes,
) -> Response {
    let Ok(req) = serde_json::from_slice::<NewPlayer>(&body) else {
        return error(StatusCode::BAD_REQUEST, ErrorCode::MalformedMessage, "expected {\"nickname\": \"…\"}");
    };
    if let Err(why) = guandan_proto::check_nickname(&req.nickname) {
        return error(StatusCode::BAD_REQUEST, ErrorCode::BadNickname, &why);
    }
    if !app.gate.allow_account(peer.ip(), app.cfg.accounts_per_ip_per_minute, std::time::Instant::now()) {
        app.metrics.accounts_refused.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        return error(
            StatusCode::TOO_MANY_REQUESTS,
            ErrorCode::RateLimited,
            "too many new accounts from this address: try again in a minute",
        );
    }
    let (id, token) = (auth::new_player_id(), auth::new_token());
    match app.db.add_player(&id, &auth::hash_token(&token), &req.nickname).await {
        Ok(()) => Json(NewPlayerReply { player_id: id, token }).into_response(),
        Err(e) => error(StatusCode::INTERNAL_SERVER_ERROR, ErrorCode::Internal, &e.to_string()),
    }
}

/// Where a room lives (any instance answers from the shared directory).
async fn room(State(app): State<Arc<App>>, Path(code): Path<String>) -> Response {
    if !guandan_proto::valid_room_code(&code) {
        return error(StatusCode::BAD_REQUEST, ErrorCode::RoomNotFound, "not a room code");
    }
    match app.db.room(&code).await {
        Ok(Some(r)) => Json(RoomDirectoryEntry {
            code: r.code,
            instance: r.instance,
            url: r.url,
            state: r.state,
            match_no: r.match_no,
        })
        .into_response(),
        Ok(None) => error(StatusCode::NOT_FOUND, ErrorCode::RoomNotFound, "no such room"),
        Err(e) => error(StatusCode::INTERNAL_SERVER_ERROR, ErrorCode::Internal, &e.to_string()),
    }
}

/// A finished match's log (the replay viewer's JSON Lines format). Only finished matches: a
/// running match's log holds every hand.
async fn finished_match(State(app): State<Arc<App>>, Path((code, match_no)): Path<(String, i64)>) -> Response {
    match app.db.finished_match(&code, match_no).await {
        Ok(Some((meta, log))) => {
            Json(FinishedMatch { meta: serde_json::from_str(&meta).unwrap_or_default(), log }).into_response()
        }
        Ok(None) => error(StatusCode::NOT_FOUND, ErrorCode::NoRecord, "no finished match with that number"),
        Err(e) => error(StatusCode::INTERNAL_SERVER_ERROR, ErrorCode::Internal, &e.to_string()),
    }
}

/// Players on one leaderboard page.
const PER_PAGE: u32 = 50;
/// The deepest leaderboard page served (a bound on the database's work for an OFFSET).
const MAX_PAGE: u32 = 10_000;
/// Rated matches shown per rule preset in a profile.
const HISTORY: i64 = 50;
/// A profile's statistics cover at most this many of the player's latest stored matches.
const STATS_MATCHES: i64 = 200;
/// Profiles whose statistics are being computed at once.
static STATS_TURN: tokio::sync::Semaphore = tokio::sync::Semaphore::const_new(1);

/// `GET /v1/leaderboard?rules=competition&page=0`: public; rules default to `competition`,
/// pages count from 0.
async fn leaderboard(
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
    let offset = i64::from(page) * i64::from(PER_PAGE);
    match app.db.ranking(rules, offset, i64::from(PER_PAGE)).await {
        Ok((total, rows)) => Json(Leaderboard {
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
        })
        .into_response(),
        Err(e) => error(StatusCode::INTERNAL_SERVER_ERROR, ErrorCode::Internal, &e.to_string()),
    }
}

fn count(n: i64) -> u32 {
    u32::try_from(n).unwrap_or(if n < 0 { 0 } else { u32::MAX })
}

/// `GET /v1/players/ID`: a player's public profile (never the token): ratings with their
/// latest history, and figures over the latest stored matches.
async fn profile(State(app): State<Arc<App>>, Path(id): Path<String>) -> Response {
    let db_error =
        |e: crate::db::DbError| error(StatusCode::INTERNAL_SERVER_ERROR, ErrorCode::Internal, &e.to_string());
    let nickname = match app.db.player(&id).await {
        Ok(Some((_, nickname))) => nickname,
        Ok(None) => return error(StatusCode::NOT_FOUND, ErrorCode::NotFound, "no such player"),
        Err(e) => return db_error(e),
    };
    let mut ratings = Vec::new();
    let rows = match app.db.ratings_of(&id).await {
        Ok(rows) => rows,
        Err(e) => return db_error(e),
    };
    for (rules, row, shown) in rows {
        let history = match app.db.rating_history(&id, &rules, HISTORY).await {
            Ok(h) => h.into_iter().map(|(at, rating, change)| RatingPoint { at, rating, change }).collect(),
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
    let matches = match app.db.recent_matches(&id, STATS_MATCHES).await {
        Ok(m) => m,
        Err(e) => return db_error(e),
    };
    // Replaying up to 200 records is CPU work (≈ 0.5 s): off the async workers, and one profile
    // at a time, so a flood of requests holds at most one core.
    let Ok(_turn) = STATS_TURN.acquire().await else {
        return error(StatusCode::SERVICE_UNAVAILABLE, ErrorCode::ShuttingDown, "shutting down");
    };
    let stats = match tokio::task::spawn_blocking(move || profile_stats(&matches)).await {
        Ok(s) => s,
        Err(e) => return error(StatusCode::INTERNAL_SERVER_ERROR, ErrorCode::Internal, &e.to_string()),
    };
    Json(PlayerProfile { player_id: id, nickname, ratings, stats }).into_response()
}

/// The player's figures over stored matches `(seat, log)`, through the rules core's statistics;
/// a record that does not replay adds nothing.
fn profile_stats(matches: &[(u8, String)]) -> ProfileStats {
    let mut total = guandan_core::stats::PlayerStats::default();
    for (seat, text) in matches {
        let Ok(log) = guandan_core::log::MatchLog::parse(text) else { continue };
        match guandan_core::stats::seat_stats(&log) {
            Ok(seats) => {
                if let Some(s) = seats.get(usize::from(*seat)) {
                    total.merge(s);
                }
            }
            Err(e) => tracing::warn!(error = %e, "a stored match does not replay; left out of a profile"),
        }
    }
    ProfileStats {
        matches: total.record.matches,
        wins: total.record.matches_won,
        win_rate: total.match_win_rate(),
        double_down_rate: total.double_down_rate(),
        bombs_per_deal: total.bombs_per_deal(),
    }
}

/// Initial read buffer of a WebSocket connection (bytes).
const WS_READ_BUFFER: usize = 1024;
/// Bytes a connection may have written but not yet sent (a stuck client fails its writes beyond).
const WS_MAX_WRITE_BUFFER: usize = 256 * 1024;

async fn ws(State(app): State<Arc<App>>, Extension(peer): Extension<Peer>, req: Request) -> Response {
    let (mut parts, _) = req.into_parts();
    let header = |name: header::HeaderName| parts.headers.get(name).and_then(|v| v.to_str().ok()).unwrap_or("");
    let upgrade = header(header::CONNECTION).split(',').any(|t| t.trim().eq_ignore_ascii_case("upgrade"))
        && header(header::UPGRADE).trim().eq_ignore_ascii_case("websocket");
    if !upgrade {
        return error(StatusCode::BAD_REQUEST, ErrorCode::BadArgument, "a WebSocket upgrade is expected here");
    }
    if header(header::SEC_WEBSOCKET_VERSION).trim() != "13" {
        return error(StatusCode::BAD_REQUEST, ErrorCode::ProtocolTooOld, "WebSocket version 13 is expected");
    }
    let Some(key) = parts.headers.get(header::SEC_WEBSOCKET_KEY).cloned() else {
        return error(StatusCode::BAD_REQUEST, ErrorCode::BadArgument, "no Sec-WebSocket-Key");
    };
    let Some(on_upgrade) = parts.extensions.remove::<hyper::upgrade::OnUpgrade>() else {
        return error(StatusCode::UPGRADE_REQUIRED, ErrorCode::BadArgument, "this connection cannot be upgraded");
    };
    // Frames up to 4× the protocol limit reach the decoder (which answers `frame_too_large` and
    // keeps the connection); anything larger is cut off by the WebSocket layer itself.
    // Buffers: the WebSocket layer's defaults (128 KiB read buffer, zero-filled up front, and a
    // 128 KiB write buffer per connection) would be most of the server's memory with thousands
    // of players. Clients send messages of a few hundred bytes: read in 1 KiB steps (it grows for a larger frame) and
    // write each message out as it is sent (the connection's writer flushes per batch).
    let config = WebSocketConfig::default()
        .max_message_size(Some(MAX_FRAME_BYTES * 4))
        .max_frame_size(Some(MAX_FRAME_BYTES * 4))
        .read_buffer_size(WS_READ_BUFFER)
        .write_buffer_size(0)
        .max_write_buffer_size(WS_MAX_WRITE_BUFFER);
    // The upgrade is done here rather than by axum's `WebSocketUpgrade`, to read the client's
    // frames through the guard (frames per second, frames per message: crate::ws_guard) before
    // the WebSocket layer assembles them out of the connection's sight.
    tokio::spawn(async move {
        let io = match on_upgrade.await {
            Ok(upgraded) => TokioIo::new(upgraded),
            Err(e) => return tracing::debug!(error = %e, "WebSocket upgrade failed"),
        };
        let limits = ws_guard::Limits::for_rate(app.cfg.rate, app.cfg.burst);
        let (guard, signal) = ws_guard::WsGuard::new(io, limits, Some(app.clone()));
        let socket = WebSocketStream::from_raw_socket(guard, Role::Server, Some(config)).await;
        crate::conn::run(socket, signal, app, peer).await;
    });
    Response::builder()
        .status(StatusCode::SWITCHING_PROTOCOLS)
        .header(header::CONNECTION, "upgrade")
        .header(header::UPGRADE, "websocket")
        .header(header::SEC_WEBSOCKET_ACCEPT, derive_accept_key(key.as_bytes()))
        .body(axum::body::Body::empty())
        .unwrap_or_else(|_| StatusCode::INTERNAL_SERVER_ERROR.into_response())
}
