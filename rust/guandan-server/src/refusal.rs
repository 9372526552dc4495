//! The one shape of an HTTP refusal: a status and the protocol's `{"code","name","message"}`
//! (the accept loop's 408, the endpoints' 4xx/5xx), and [`AppError`], the error every HTTP
//! handler returns. Its own module so the accept loop and the endpoints both use it without
//! depending on each other.

use axum::Json;
use axum::http::{HeaderValue, StatusCode, header};
use axum::response::{IntoResponse, Response};
use guandan_proto::ErrorCode;
use guandan_proto::http::HttpError;

pub(crate) fn error(status: StatusCode, code: ErrorCode, message: &str) -> Response {
    (status, Json(HttpError::new(code, message))).into_response()
}

/// What went wrong in an HTTP handler. A refusal's message is for the client; an internal
/// failure's text (a database error names tables, constraints, addresses) is logged and never
/// sent: the client gets a fixed message.
#[derive(Debug)]
pub enum AppError {
    /// The client's request is refused: status, code and a message written for it.
    Refused { status: StatusCode, code: ErrorCode, message: String },
    /// 401 with `WWW-Authenticate: Bearer`: no session, or credentials refused.
    Unauthorized { code: ErrorCode, message: String },
    /// 429 `rate_limited` with the wait in `Retry-After` (s) and in the message's words.
    Limited { wait_ms: i64, message: String },
    /// The server failed (storage, I/O): 500 with a fixed message.
    Internal(String),
    /// The database does not answer (health): 503 with a fixed message.
    Unavailable(String),
}

/// The message an internal failure gets instead of its text.
pub(crate) const INTERNAL_MESSAGE: &str = "the server could not do that now: try again";

impl AppError {
    pub fn refused(status: StatusCode, code: ErrorCode, message: impl Into<String>) -> AppError {
        AppError::Refused { status, code, message: message.into() }
    }
}

impl From<crate::db::DbError> for AppError {
    fn from(e: crate::db::DbError) -> AppError {
        AppError::Internal(e.to_string())
    }
}

impl IntoResponse for AppError {
    fn into_response(self) -> Response {
        match self {
            AppError::Refused { status, code, message } => error(status, code, &message),
            AppError::Unauthorized { code, message } => {
                let mut r = error(StatusCode::UNAUTHORIZED, code, &message);
                r.headers_mut().insert(header::WWW_AUTHENTICATE, HeaderValue::from_static("Bearer"));
                r
            }
            AppError::Limited { wait_ms, message } => {
                let mut r = error(StatusCode::TOO_MANY_REQUESTS, ErrorCode::RateLimited, &message);
                if let Ok(v) = HeaderValue::from_str(&((wait_ms.max(0) + 999) / 1000).to_string()) {
                    r.headers_mut().insert(header::RETRY_AFTER, v);
                }
                r
            }
            AppError::Internal(why) => {
                tracing::error!(error = %why, "request failed");
                error(StatusCode::INTERNAL_SERVER_ERROR, ErrorCode::Internal, INTERNAL_MESSAGE)
            }
            AppError::Unavailable(why) => {
                tracing::warn!(error = %why, "health: the database does not answer");
                error(StatusCode::SERVICE_UNAVAILABLE, ErrorCode::Io, "the server's storage does not answer")
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    async fn body(r: Response) -> (StatusCode, String) {
        let status = r.status();
        let bytes = axum::body::to_bytes(r.into_body(), 1 << 16).await.expect("body");
        (status, String::from_utf8_lossy(&bytes).into_owned())
    }

    #[tokio::test]
    async fn internal_text_never_reaches_the_client() {
        let secret = "error returned from database: relation \"sessions\" at 10.0.0.7:5432";
        let (status, text) = body(AppError::Internal(secret.into()).into_response()).await;
        assert_eq!(status, StatusCode::INTERNAL_SERVER_ERROR);
        assert!(!text.contains("sessions") && !text.contains("10.0.0.7") && !text.contains("database"), "{text}");
        assert!(text.contains(INTERNAL_MESSAGE), "{text}");
        let (status, text) = body(AppError::Unavailable(secret.into()).into_response()).await;
        assert_eq!(status, StatusCode::SERVICE_UNAVAILABLE);
        assert!(!text.contains("sessions") && !text.contains("10.0.0.7"), "{text}");
        let (status, text) =
            body(AppError::refused(StatusCode::NOT_FOUND, ErrorCode::RoomNotFound, "no such room").into_response())
                .await;
        assert_eq!(status, StatusCode::NOT_FOUND);
        assert!(text.contains("no such room"), "a refusal's own message is sent: {text}");
    }
}
