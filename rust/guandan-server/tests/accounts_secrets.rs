//! Accounts that follow the player (issue 36): no password, token or transfer code in the
//! server's logs (every crate, TRACE, captured in this process), its stored rows, `/metrics` or
//! its refusals. Servers in this process, real sockets on loopback, both databases
//! (tests/accounts_common).
mod accounts_common;
mod common;

use accounts_common::*;
use common::{databases, ws_from};
use futures_util::SinkExt;
use guandan_proto::http::{AccountInfo, LOGOUT_EVERYWHERE_PATH, LOGOUT_PATH, METRICS_PATH, SessionReply};
use guandan_server::Server;
use tokio_tungstenite::tungstenite::Message;

/// The hostile check: after every account flow (guest, claim, logins right and wrong, codes made,
/// redeemed, guessed and expired, rotation, log out, log out everywhere, refused hellos), no
/// password, token or transfer code is in any log line of the server (every crate, TRACE), in
/// any stored row, in `/metrics`, or in any refusal it sent.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn no_password_token_or_code_in_logs_records_or_metrics() {
    for db in databases() {
        let (url, dropped) = fresh_database(&db).await;
        let s = server(&url, &[]).await;
        let addr = s.addr;
        let mut secrets: Vec<String> = Vec::new();
        let mut answers = String::new();
        let (id, t0) = guest(addr, "Lee").await;
        secrets.push(t0.expose().into());
        let name = unique("lee");
        let password = "Pa55-phrase-Kx9";
        let wrong = "Wr0ng-phrase-Qz7";
        secrets.extend([password.to_string(), wrong.to_string()]);
        let _: AccountInfo = claim(addr, &t0, &name, password).await.ok();
        answers += &login(HOME, addr, &name, wrong).await.body;
        answers += &login(HOME, addr, &unique("nobody"), wrong).await.body;
        let phone: SessionReply = login(HOME, addr, &name, password).await.ok();
        secrets.push(phone.token.expose().into());
        let code = new_code(addr, &phone.token).await;
        let moved: SessionReply = redeem(HOME, addr, code.code.expose()).await.ok();
        secrets.extend([moved.token.expose().to_string(), code.code.expose().to_string()]);
        secrets.push(code.code.expose().replace('-', ""));
        answers += &redeem(HOME, addr, code.code.expose()).await.body;
        let stale = new_code(addr, &phone.token).await;
        secrets.extend([stale.code.expose().to_string(), stale.code.expose().replace('-', "")]);
        s.app.accounts().clock.advance(8 * DAY);
        answers += &redeem(HOME, addr, stale.code.expose()).await.body;
        let rotated = welcomed(addr, &id, &moved.token).await.unwrap().expect("rotated");
        secrets.push(rotated.expose().into());
        assert!(welcomed(addr, &id, &rotated).await.is_ok());
        let (refused, _) = hello(addr, &id, &moved.token).await;
        answers += &format!("{refused:?}");
        let bad_json = format!(r#"{{"type":"hello","protocol_version":"{password}","player_id":"x","token":"y"}}"#);
        let mut ws = ws_from(HOME, addr).await.unwrap();
        ws.send(Message::Text(bad_json.into())).await.unwrap();
        answers += &format!("{:?}", next_msg(&mut ws).await);
        answers += &call(HOME, addr, "POST", LOGOUT_PATH, Some(&phone.token), "{}").await.body;
        answers += &call(HOME, addr, "POST", LOGOUT_EVERYWHERE_PATH, Some(&rotated), "{}").await.body;
        answers += &info(addr, &rotated).await.body;
        let metrics = call(HOME, addr, "GET", METRICS_PATH, None, "").await.body;
        assert!(metrics.contains("guandan_account_logins_total 1"), "{db}: the scrape counts the flows:\n{metrics}");
        assert!(metrics.contains("guandan_account_transfers_total 1"));
        assert!(metrics.contains("guandan_sessions_rotated_total 1"));
        let records = dump_accounts(&s).await;
        assert!(records.contains(&id), "{db}: the dump holds the account's rows");
        s.shutdown().await;
        dropped.await;
        let logs = log_text();
        assert!(logs.contains("account claimed"), "the capture holds the server's lines");
        for secret in &secrets {
            for (place, text) in [("logs", &logs), ("records", &records), ("/metrics", &metrics), ("answers", &answers)]
            {
                assert!(!text.contains(secret.as_str()), "{db}: a secret in the {place}");
            }
        }
    }
}

/// Every stored row of the accounts' tables and the players', as text.
async fn dump_accounts(s: &Server) -> String {
    use sqlx::{Column, Row};
    let pool = s.app.db().pool_for_tests();
    let mut out = String::new();
    for table in ["players", "sessions", "logins", "transfer_codes"] {
        for row in sqlx::query(&format!("SELECT * FROM {table}")).fetch_all(&pool).await.unwrap() {
            for (i, c) in row.columns().iter().enumerate() {
                let v = row
                    .try_get::<Option<String>, _>(i)
                    .map(|v| v.unwrap_or_default())
                    .or_else(|_| row.try_get::<i64, _>(i).map(|v| v.to_string()))
                    .unwrap_or_default();
                out += &format!("{table}.{}={v} ", c.name());
            }
            out.push('\n');
        }
    }
    out
}
