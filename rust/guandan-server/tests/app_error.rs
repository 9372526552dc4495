//! No HTTP answer carries an internal error's text: with its database gone under it, a server's
//! endpoints answer 500/503 with a fixed message, and the database error (which names the
//! driver's state, tables or addresses) is only logged. Before `AppError`, the room directory,
//! finished matches, registration and health sent `e.to_string()` to the client.

mod common;
use clap::Parser;
use common::*;
use guandan_server::Server;
use guandan_server::config::Config;

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_refused_answer_never_carries_the_database_error() {
    for db in databases() {
        let url = database_url(&db);
        let instance = format!("apperr-{}", std::process::id());
        let args = ["guandan-server", "--listen", "127.0.0.1:0", "--database-url", &url, "--instance", &instance];
        let server = Server::start(Config::parse_from(args)).await.expect("server starts");
        let addr = server.addr;
        // Served while the database answers.
        let (status, _) = tokio::task::spawn_blocking(move || http(addr, "GET", "/healthz", "")).await.unwrap();
        assert_eq!(status, 200, "[{db}]");
        server.app.db().close().await;
        let asks = [
            ("GET", "/v1/rooms/K7QX2M", "", 500),
            ("GET", "/v1/matches/K7QX2M/0", "", 500),
            ("POST", "/v1/players", r#"{"nickname":"ann"}"#, 500),
            ("GET", "/v1/leaderboard", "", 500),
            ("GET", "/healthz", "", 503),
        ];
        for (method, path, body, want) in asks {
            let (status, text) =
                tokio::task::spawn_blocking(move || http(addr, method, path, body)).await.expect("request");
            assert_eq!(status, want, "[{db}] {method} {path}: {text}");
            let lower = text.to_lowercase();
            for leak in ["pool", "closed", "sqlx", "database", "error returned", "acquire"] {
                assert!(!lower.contains(leak), "[{db}] {method} {path} answered with internal text ({leak}): {text}");
            }
            assert!(text.contains("\"code\""), "[{db}] {method} {path}: the protocol's refusal: {text}");
        }
        server.shutdown().await;
    }
}
