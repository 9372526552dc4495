//! HTTP endpoints: guest accounts, health, metrics, finished match logs, the room directory,
//! the public leaderboard and player profiles (crate::ladder), the accounts' endpoints
//! (crate::accounts::routes), and the WebSocket upgrade. Public reads and the accounts'
//! endpoints are rate-limited per source address.

use crate::App;
use crate::listener::Peer;
use crate::refusal::{AppError, error};
use crate::ws_guard;
use axum::Extension;
use axum::Json;
use axum::Router;
use axum::extract::{Path, Request, State};
use axum::http::{StatusCode, header};
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use guandan_proto::http::{
    FinishedMatch, HEALTH_PATH, Health, LEADERBOARD_PATH, METRICS_PATH, NewPlayer, NewPlayerReply, PLAYERS_PATH,
    RoomDirectoryEntry, WS_PATH,
};
use guandan_proto::{ErrorCode, MAX_FRAME_BYTES};
use hyper_util::rt::TokioIo;
use std::sync::Arc;
use tokio_tungstenite::WebSocketStream;
use tokio_tungstenite::tungstenite::handshake::derive_accept_key;
use tokio_tungstenite::tungstenite::protocol::{Role, WebSocketConfig};

pub fn router(app: Arc<App>) -> Router {
    // Reads anyone may make, limited per source address before they cost anything.
    let public = Router::new()
        .route(METRICS_PATH, get(metrics))
        .route("/v1/players/{id}", get(crate::ladder::profile))
        .route(LEADERBOARD_PATH, get(crate::ladder::leaderboard))
        .route("/v1/rooms/{code}", get(room))
        .route("/v1/matches/{code}/{match_no}", get(finished_match))
        .merge(crate::accounts::routes::router())
        .route_layer(axum::middleware::from_fn_with_state(app.clone(), public_limit));
    Router::new()
        .route(HEALTH_PATH, get(healthz))
        .route(PLAYERS_PATH, post(new_player))
        .route(WS_PATH, get(ws))
        .merge(public)
        .with_state(app)
}

/// `--public-rate` / `--public-burst` per source address; 429 beyond.
async fn public_limit(
    State(app): State<Arc<App>>,
    Extension(peer): Extension<Peer>,
    req: axum::extract::Request,
    next: axum::middleware::Next,
) -> Response {
    let now = std::time::Instant::now();
    if !app.gate().allow_public(peer.ip(), app.cfg().public_rate, app.cfg().public_burst, now) {
        app.metrics().public_refused.inc();
        return error(
            StatusCode::TOO_MANY_REQUESTS,
            ErrorCode::RateLimited,
            "too many requests from this address: slow down",
        );
    }
    next.run(req).await
}

async fn healthz(State(app): State<Arc<App>>) -> Result<Response, AppError> {
    match app.db().schema_version().await {
        Ok(v) => Ok(Json(Health { ok: true, schema: v, db: app.db().backend.to_string() }).into_response()),
        Err(e) => Err(AppError::Unavailable(e.to_string())),
    }
}

async fn metrics(State(app): State<Arc<App>>) -> Response {
    ([("content-type", "text/plain; version=0.0.4")], app.metrics().render()).into_response()
}

async fn new_player(
    State(app): State<Arc<App>>,
    Extension(peer): Extension<Peer>,
    body: axum::body::Bytes,
) -> Result<Response, AppError> {
    let Ok(req) = serde_json::from_slice::<NewPlayer>(&body) else {
        return Err(AppError::refused(
            StatusCode::BAD_REQUEST,
            ErrorCode::MalformedMessage,
            "expected {\"nickname\": \"…\"}",
        ));
    };
    if let Err(why) = guandan_proto::check_nickname(&req.nickname) {
        return Err(AppError::refused(StatusCode::BAD_REQUEST, ErrorCode::BadNickname, why));
    }
    if !app.gate().allow_account(peer.ip(), app.cfg().accounts_per_ip_per_minute, std::time::Instant::now()) {
        app.metrics().accounts_refused.inc();
        return Err(AppError::refused(
            StatusCode::TOO_MANY_REQUESTS,
            ErrorCode::RateLimited,
            "too many new accounts from this address: try again in a minute",
        ));
    }
    let (player_id, token) = crate::accounts::new_guest(&app, &req.nickname).await?;
    Ok(Json(NewPlayerReply { player_id, token: token.into_inner() }).into_response())
}

/// Where a room lives (any instance answers from the shared directory).
async fn room(State(app): State<Arc<App>>, Path(code): Path<String>) -> Result<Response, AppError> {
    if !guandan_proto::valid_room_code(&code) {
        return Err(AppError::refused(StatusCode::BAD_REQUEST, ErrorCode::RoomNotFound, "not a room code"));
    }
    let Some(r) = app.db().room(&code).await? else {
        return Err(AppError::refused(StatusCode::NOT_FOUND, ErrorCode::RoomNotFound, "no such room"));
    };
    Ok(Json(RoomDirectoryEntry {
        code: r.code,
        instance: r.instance,
        url: r.url,
        state: r.state,
        match_no: r.match_no,
    })
    .into_response())
}

/// A finished match's log (the replay viewer's JSON Lines format). Only finished matches: a
/// running match's log holds every hand.
async fn finished_match(
    State(app): State<Arc<App>>,
    Path((code, match_no)): Path<(String, i64)>,
) -> Result<Response, AppError> {
    let Some((meta, log)) = app.db().finished_match(&code, match_no).await? else {
        return Err(AppError::refused(
            StatusCode::NOT_FOUND,
            ErrorCode::NoRecord,
            "no finished match with that number",
        ));
    };
    Ok(Json(FinishedMatch { meta: serde_json::from_str(&meta).unwrap_or_default(), log }).into_response())
}

/// Initial read buffer of a WebSocket connection (bytes).
const WS_READ_BUFFER: usize = 512;
/// Frames are gathered up to this many bytes before they are written (a flush writes them
/// whatever their size): what was queued together goes out in one write.
const WS_WRITE_BUFFER: usize = 8 * 1024;
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
    // of players. Clients send messages of a few hundred bytes: read in 512-byte steps (it grows for a larger
    // frame); the connection's writer flushes what was queued together.
    let config = WebSocketConfig::default()
        .max_message_size(Some(MAX_FRAME_BYTES * 4))
        .max_frame_size(Some(MAX_FRAME_BYTES * 4))
        .read_buffer_size(WS_READ_BUFFER)
        .write_buffer_size(WS_WRITE_BUFFER)
        .max_write_buffer_size(WS_MAX_WRITE_BUFFER);
    // The upgrade is done here rather than by axum's `WebSocketUpgrade`, to read the client's
    // frames through the guard (frames per second, frames per message: crate::ws_guard) before
    // the WebSocket layer assembles them out of the connection's sight.
    tokio::spawn(async move {
        let io = match on_upgrade.await {
            Ok(upgraded) => TokioIo::new(upgraded),
            Err(e) => return tracing::debug!(error = %e, "WebSocket upgrade failed"),
        };
        let limits = ws_guard::Limits::for_rate(app.cfg().rate, app.cfg().burst);
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
