//! The one shape of an HTTP refusal: a status and the protocol's `{"code","name","message"}`
//! (the accept loop's 408, the endpoints' 4xx/5xx). Its own module so the accept loop and the
//! endpoints both use it without depending on each other.

use axum::Json;
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use guandan_proto::ErrorCode;
use guandan_proto::http::HttpError;

pub(crate) fn error(status: StatusCode, code: ErrorCode, message: &str) -> Response {
    (status, Json(HttpError::new(code, message))).into_response()
}
