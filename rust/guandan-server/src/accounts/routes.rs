//! The accounts' HTTP endpoints (paths and bodies: `guandan_proto::http`): who a token is,
//! claim, login, transfer code, transfer, log out, log out everywhere. JSON bodies of at most
//! [`MAX_BODY`] bytes; refusals are [`AppError`]s (the usual `{"code","name","message"}`), none
//! of them repeating a password, token or code.

use super::hash_queue::Busy;
use super::limits::say_wait;
use super::{AuthError, Authed, HashError, authenticate, new_transfer_code, open_session};
use crate::App;
use crate::auth::hash_token;
use crate::db::ClaimOutcome;
use crate::listener::{Peer, source_key};
use crate::refusal::AppError;
use axum::body::Body;
use axum::extract::State;
use axum::http::{HeaderMap, StatusCode, header};
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use axum::{Extension, Json, Router};
use guandan_proto::http::{
    ACCOUNT_PATH, AccountInfo, CLAIM_PATH, Claim, LOGIN_PATH, LOGOUT_EVERYWHERE_PATH, LOGOUT_PATH, Login, LogoutReply,
    SessionReply, TRANSFER_CODE_PATH, TRANSFER_PATH, Transfer, TransferCodeReply,
};
use guandan_proto::{
    ErrorCode, MAX_PASSWORD_CHARS, Secret, check_login_name, check_nickname, check_password, login_name_key,
    parse_transfer_code, show_transfer_code,
};
use serde::de::DeserializeOwned;
use std::sync::Arc;

/// Largest request body of these endpoints (bytes): a name, a password of 128 characters of up
/// to 4 bytes each, a device label, with room to spare.
pub const MAX_BODY: usize = 4096;

/// One answer to a failed login, whether the name exists or the password is wrong.
const WRONG_LOGIN: &str = "wrong login name or password";

type Answer = Result<Response, AppError>;

pub fn router() -> Router<Arc<App>> {
    Router::new()
        .route(ACCOUNT_PATH, get(account))
        .route(CLAIM_PATH, post(claim))
        .route(LOGIN_PATH, post(login))
        .route(TRANSFER_CODE_PATH, post(transfer_code))
        .route(TRANSFER_PATH, post(transfer))
        .route(LOGOUT_PATH, post(logout))
        .route(LOGOUT_EVERYWHERE_PATH, post(logout_everywhere))
}

async fn read_json<T: DeserializeOwned>(body: Body, shape: &str) -> Result<T, AppError> {
    let bytes = axum::body::to_bytes(body, MAX_BODY).await.map_err(|_| {
        AppError::refused(
            StatusCode::PAYLOAD_TOO_LARGE,
            ErrorCode::FrameTooLarge,
            format!("a request body has at most {MAX_BODY} bytes"),
        )
    })?;
    // serde's message could quote the body (a password): never passed on.
    serde_json::from_slice(&bytes).map_err(|_| {
        AppError::refused(StatusCode::BAD_REQUEST, ErrorCode::MalformedMessage, format!("expected {shape}"))
    })
}

fn unauthorized(code: ErrorCode, message: &str) -> AppError {
    AppError::Unauthorized { code, message: message.into() }
}

/// 429 with the wait, in words and in `Retry-After`.
fn limited(app: &App, wait_ms: i64, what: &str) -> AppError {
    app.metrics().accounts.limited.inc();
    AppError::Limited { wait_ms, message: format!("{what}: try again in {}", say_wait(wait_ms)) }
}

/// The hash queue had no room for this login or claim (nothing of the client's was spent).
fn busy(app: &App, b: Busy) -> AppError {
    app.metrics().accounts.busy.inc();
    AppError::Limited {
        wait_ms: b.wait_ms,
        message: format!("the server is checking many passwords: try again in {}", say_wait(b.wait_ms)),
    }
}

/// The session the request's `Authorization: Bearer TOKEN` stands for.
async fn authorized(app: &Arc<App>, headers: &HeaderMap) -> Result<Authed, AppError> {
    let token = headers
        .get(header::AUTHORIZATION)
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.split_once(' '))
        .filter(|(scheme, _)| scheme.eq_ignore_ascii_case("bearer"))
        .map(|(_, t)| t.trim());
    let Some(token) = token else {
        return Err(unauthorized(ErrorCode::Unauthenticated, "send a session token: Authorization: Bearer TOKEN"));
    };
    match authenticate(app, None, token, false).await {
        Ok(a) => Ok(a),
        Err(AuthError::Unknown | AuthError::Expired) => Err(unauthorized(
            ErrorCode::AuthFailed,
            "unknown session (it may have expired or been logged out): log in again",
        )),
        Err(AuthError::Db(e)) => Err(e.into()),
    }
}

/// A device label: the nickname's rule; the refusal's message otherwise.
fn device_label(d: Option<String>) -> Result<Option<String>, String> {
    match d {
        Some(d) => check_nickname(&d).map(|()| Some(d)).map_err(|why| format!("device label: {why}")),
        None => Ok(None),
    }
}

fn bad_argument(why: String) -> AppError {
    AppError::refused(StatusCode::BAD_REQUEST, ErrorCode::BadArgument, why)
}

fn already_claimed() -> AppError {
    AppError::refused(StatusCode::CONFLICT, ErrorCode::AlreadyClaimed, "this account has a login name already")
}

fn name_taken() -> AppError {
    AppError::refused(StatusCode::CONFLICT, ErrorCode::NameTaken, "that login name is taken: choose another")
}

async fn info(app: &Arc<App>, player_id: String, nickname: &str) -> Answer {
    let name = app.db().login_name(&player_id).await?;
    let sessions = app.db().sessions_of(&player_id).await?;
    let nickname = guandan_proto::displayable_nickname(nickname);
    Ok(Json(AccountInfo { player_id, nickname, name, sessions }).into_response())
}

async fn account(State(app): State<Arc<App>>, headers: HeaderMap) -> Answer {
    let me = authorized(&app, &headers).await?;
    info(&app, me.player_id, &me.nickname).await
}

async fn claim(
    State(app): State<Arc<App>>,
    Extension(peer): Extension<Peer>,
    headers: HeaderMap,
    body: Body,
) -> Answer {
    let me = authorized(&app, &headers).await?;
    let req: Claim = read_json(body, r#"{"name": "…", "password": "…"}"#).await?;
    check_login_name(&req.name)
        .map_err(|why| AppError::refused(StatusCode::BAD_REQUEST, ErrorCode::BadLoginName, why))?;
    check_password(req.password.expose())
        .map_err(|why| AppError::refused(StatusCode::BAD_REQUEST, ErrorCode::BadPassword, why))?;
    let key = login_name_key(&req.name);
    if login_name_key(req.password.expose()) == key {
        let why = "the password may not be the login name";
        return Err(AppError::refused(StatusCode::BAD_REQUEST, ErrorCode::BadPassword, why));
    }
    let acc = &app.accounts();
    let (source, now) = (source_key(peer.ip()), acc.clock.now_ms());
    if let Err(wait) = acc.logins_per_source.take(&source, now) {
        return Err(limited(&app, wait, "too many logins and claims from this address"));
    }
    if app.db().login_name(&me.player_id).await?.is_some() {
        return Err(already_claimed());
    }
    if app.db().login_name_taken(&key).await? {
        return Err(name_taken());
    }
    let lane = acc.record.lane(source, &key, now);
    let phc = match acc.passwords.hash(lane, source, req.password).await {
        Ok(phc) => phc,
        Err(HashError::Busy(b)) => {
            acc.logins_per_source.give_back(&source, now);
            acc.record.withdrawn(source, &key, now, lane);
            return Err(busy(&app, b));
        }
        Err(HashError::Failed(e)) => return Err(AppError::Internal(format!("password not hashed: {e}"))),
    };
    match app.db().claim(&me.player_id, &req.name, &key, &phc, acc.clock.now_ms()).await? {
        ClaimOutcome::Claimed => {
            acc.record.succeeded(source, &key, now);
            app.metrics().accounts.claims.inc();
            tracing::info!(player = %me.player_id, "account claimed");
            info(&app, me.player_id, &me.nickname).await
        }
        ClaimOutcome::NameTaken => Err(name_taken()),
        ClaimOutcome::AlreadyClaimed => Err(already_claimed()),
    }
}

async fn login(State(app): State<Arc<App>>, Extension(peer): Extension<Peer>, body: Body) -> Answer {
    let req: Login = read_json(body, r#"{"name": "…", "password": "…", "device": "…" (optional)}"#).await?;
    let device = device_label(req.device).map_err(bad_argument)?;
    let acc = &app.accounts();
    let (source, now) = (source_key(peer.ip()), acc.clock.now_ms());
    if let Err(wait) = acc.logins_per_source.take(&source, now) {
        return Err(limited(&app, wait, "too many logins from this address"));
    }
    // No account can have such a name or password: the same answer, with nothing to hash.
    if check_login_name(&req.name).is_err() || req.password.expose().chars().count() > MAX_PASSWORD_CHARS {
        app.metrics().accounts.login_failures.inc();
        return Err(unauthorized(ErrorCode::AuthFailed, WRONG_LOGIN));
    }
    // Spent before the check (given back on success): concurrent guesses cannot all pass.
    let key = login_name_key(&req.name);
    if let Err(wait) = acc.failures_per_name.take(&key, now) {
        return Err(limited(&app, wait, "too many failed logins for this name"));
    }
    let found = match app.db().login_by_name(&key).await {
        Ok(f) => f,
        Err(e) => {
            acc.failures_per_name.give_back(&key, now);
            return Err(e.into());
        }
    };
    let (player, phc) = found.unzip();
    let lane = acc.record.lane(source, &key, now);
    let matched = match acc.passwords.verify(lane, source, req.password, phc).await {
        Ok(m) => m,
        Err(b) => {
            // Never checked: the tries it took are the client's again.
            acc.failures_per_name.give_back(&key, now);
            acc.logins_per_source.give_back(&source, now);
            acc.record.withdrawn(source, &key, now, lane);
            return Err(busy(&app, b));
        }
    };
    let Some(player) = player.filter(|_| matched) else {
        app.metrics().accounts.login_failures.inc();
        return Err(unauthorized(ErrorCode::AuthFailed, WRONG_LOGIN));
    };
    acc.failures_per_name.give_back(&key, now);
    acc.record.succeeded(source, &key, now);
    let reply = new_device(&app, player, device.as_deref()).await?;
    app.metrics().accounts.logins.inc();
    Ok(reply)
}

/// A new session of `player` on the asking device, as a [`SessionReply`].
async fn new_device(app: &Arc<App>, player_id: String, device: Option<&str>) -> Answer {
    let nickname = app.db().player(&player_id).await?.unwrap_or_default();
    let token = open_session(app, &player_id, device).await?;
    let nickname = guandan_proto::displayable_nickname(&nickname);
    Ok(Json(SessionReply { player_id, nickname, token }).into_response())
}

async fn transfer_code(State(app): State<Arc<App>>, headers: HeaderMap) -> Answer {
    let me = authorized(&app, &headers).await?;
    let code = new_transfer_code();
    let (now, ttl) = (app.accounts().clock.now_ms(), app.accounts().policy.transfer_ttl_ms);
    app.db().set_transfer_code(&me.player_id, &hash_token(&code), now, now.saturating_add(ttl)).await?;
    let expires_in_s = u64::try_from(ttl / 1000).unwrap_or(0);
    Ok(Json(TransferCodeReply { code: Secret::from(show_transfer_code(&code)), expires_in_s }).into_response())
}

async fn transfer(State(app): State<Arc<App>>, Extension(peer): Extension<Peer>, body: Body) -> Answer {
    let req: Transfer = read_json(body, r#"{"code": "…", "device": "…" (optional)}"#).await?;
    let device = device_label(req.device).map_err(bad_argument)?;
    let acc = &app.accounts();
    let now = acc.clock.now_ms();
    if let Err(wait) = acc.transfers_per_source.take(&source_key(peer.ip()), now) {
        return Err(limited(&app, wait, "too many transfer codes tried from this address"));
    }
    let code = parse_transfer_code(req.code.expose()).map_err(bad_argument)?;
    let Some(player) = app.db().redeem_transfer_code(&hash_token(&code), now).await? else {
        app.metrics().accounts.transfer_failures.inc();
        return Err(unauthorized(
            ErrorCode::AuthFailed,
            "that transfer code is wrong, used or expired: make a new one on the other device",
        ));
    };
    let reply = new_device(&app, player, device.as_deref()).await?;
    app.metrics().accounts.transfers.inc();
    Ok(reply)
}

async fn logout(State(app): State<Arc<App>>, headers: HeaderMap) -> Answer {
    let me = authorized(&app, &headers).await?;
    let ended = app.db().end_session(&me.session).await?;
    let closed = app.accounts().live.close(&me.player_id, Some(&ended));
    app.metrics().accounts.ended.inc_by(ended.len() as u64);
    Ok(Json(LogoutReply { sessions_ended: ended.len() as u64, connections_closed: closed as u64 }).into_response())
}

async fn logout_everywhere(State(app): State<Arc<App>>, headers: HeaderMap) -> Answer {
    let me = authorized(&app, &headers).await?;
    let ended = app.db().end_sessions_of(&me.player_id).await?;
    let closed = app.accounts().live.close(&me.player_id, None);
    app.metrics().accounts.ended.inc_by(ended);
    tracing::info!(player = %me.player_id, sessions = ended, connections = closed, "logged out everywhere");
    Ok(Json(LogoutReply { sessions_ended: ended, connections_closed: closed as u64 }).into_response())
}
