//! Accounts that follow the player (issue 36), their sessions: transfer codes, rotation and
//! expiry of session tokens (the accounts' clock moved, not waited for), log out (everywhere),
//! and old guest tokens after the migration. Servers in this process, real sockets on loopback,
//! both databases (tests/accounts_common).
mod accounts_common;
mod common;

use accounts_common::*;
use common::databases;
use guandan_proto::http::{AccountInfo, LOGOUT_EVERYWHERE_PATH, LOGOUT_PATH, SessionReply, TRANSFER_CODE_PATH};
use guandan_proto::{ErrorCode, Secret, ServerMsg};
use std::time::Duration;

/// Transfer codes: the newest replaces the one before; a code moves the account once (any
/// case, with or without its dash); it expires after `--transfer-code-ttl-s` (clock moved, not
/// waited for); wrong codes are limited per address, and at the limit even a right one waits.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn transfer_codes_work_once_expire_and_are_limited() {
    for db in databases() {
        let (url, dropped) = fresh_database(&db).await;
        let s = server(&url, &["--transfers-per-ip-per-hour", "4"]).await;
        let addr = s.addr;
        let (id, token) = guest(addr, "Eve").await;
        let first = new_code(addr, &token).await;
        assert_eq!(first.expires_in_s, 600);
        let shown = first.code.expose();
        assert!(shown.len() == 11 && shown.as_bytes()[5] == b'-', "{shown}");
        let second = new_code(addr, &token).await;
        assert_eq!(redeem([127, 0, 2, 1], addr, first.code.expose()).await.refused().1, ErrorCode::AuthFailed);
        // Typed on a phone: lower case, no dash.
        let typed = second.code.expose().replace('-', "").to_lowercase();
        let moved: SessionReply = redeem([127, 0, 2, 2], addr, &typed).await.ok();
        assert_eq!(moved.player_id, id, "{db}");
        assert_eq!(welcomed(addr, &id, &moved.token).await, Ok(None));
        let used = redeem([127, 0, 2, 3], addr, second.code.expose()).await.refused();
        assert_eq!((used.0, used.1), (401, ErrorCode::AuthFailed), "{db}: a code works once");
        assert!(used.2.contains("wrong, used or expired"), "{}", used.2);

        // Expiry: at 9 min 59 s a code works, at 10 min 1 s it does not.
        let fresh = new_code(addr, &token).await;
        s.app.accounts().clock.advance(Duration::from_secs(599));
        let _: SessionReply = redeem([127, 0, 2, 4], addr, fresh.code.expose()).await.ok();
        let late = new_code(addr, &token).await;
        s.app.accounts().clock.advance(Duration::from_secs(601));
        assert_eq!(redeem([127, 0, 2, 5], addr, late.code.expose()).await.refused().1, ErrorCode::AuthFailed, "{db}");

        // Guessing from one address: four tries, then 429 with the wait, even for a right code.
        let guesser = [127, 0, 2, 9];
        let right = new_code(addr, &token).await;
        for guess in ["AAAAA-AAAAA", "BBBBB-BBBBB", "CCCCCCCCCC", "ddddd ddddd"] {
            assert_eq!(redeem(guesser, addr, guess).await.refused().1, ErrorCode::AuthFailed);
        }
        let held = redeem(guesser, addr, right.code.expose()).await;
        let (status, code, message) = held.refused();
        assert_eq!((status, code), (429, ErrorCode::RateLimited), "{db}");
        assert!(message.contains("try again in 15 minutes"), "{message}");
        assert_eq!(held.retry_after, Some(900));
        // Not a code at all: its own answer (it still counts as a try).
        let shape = redeem([127, 0, 2, 10], addr, "0OIL1-0OIL1").await.refused();
        assert_eq!((shape.0, shape.1), (400, ErrorCode::BadArgument));
        // A try every 15 minutes again (the code guessed at has expired meanwhile: a new one).
        s.app.accounts().clock.advance(15 * MINUTE);
        let again = new_code(addr, &token).await;
        let later: SessionReply = redeem(guesser, addr, again.code.expose()).await.ok();
        assert_eq!(later.player_id, id);
        // Only a session may ask for a code.
        assert_eq!(call(HOME, addr, "POST", TRANSFER_CODE_PATH, None, "{}").await.refused().0, 401);
        s.shutdown().await;
        dropped.await;
    }
}

/// Rotation: a token older than `--session-rotate-days` is replaced at hello (the welcome
/// carries the new one); the old one works until the new one is used, then never again. A
/// second hello with the old token the same day gets no other token; a day later it does, and
/// the unused one before it ends.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn tokens_rotate_at_hello_and_the_old_one_ends_when_the_new_one_is_used() {
    for db in databases() {
        let (url, dropped) = fresh_database(&db).await;
        let s = server(&url, &[]).await;
        let (addr, clock) = (s.addr, &s.app.accounts().clock);
        let (id, t0) = guest(addr, "Fay").await;
        assert_eq!(welcomed(addr, &id, &t0).await, Ok(None), "{db}: a new token is not rotated");
        clock.advance(8 * DAY);
        let t1 = welcomed(addr, &id, &t0).await.unwrap().expect("rotated after 7 days");
        assert_ne!(t1, t0);
        assert_eq!(welcomed(addr, &id, &t0).await, Ok(None), "{db}: the old one still works, no second token");
        assert_eq!(welcomed(addr, &id, &t1).await, Ok(None), "{db}: the new one works");
        let replay = welcomed(addr, &id, &t0).await.unwrap_err();
        assert_eq!(replay.0, ErrorCode::AuthFailed, "{db}: the old token ended when the new one was used");

        // A successor never used: a day later the old token gets another, and the first ends.
        clock.advance(8 * DAY);
        let t2 = welcomed(addr, &id, &t1).await.unwrap().expect("rotated");
        clock.advance(2 * DAY);
        let t3 = welcomed(addr, &id, &t1).await.unwrap().expect("rotated again");
        assert_eq!(welcomed(addr, &id, &t2).await.unwrap_err().0, ErrorCode::AuthFailed, "{db}: replaced");
        assert_eq!(welcomed(addr, &id, &t3).await, Ok(None));
        assert_eq!(welcomed(addr, &id, &t1).await.unwrap_err().0, ErrorCode::AuthFailed);
        // The HTTP side never rotates, and takes the rotated token.
        let me: AccountInfo = info(addr, &t3).await.ok();
        assert_eq!((me.player_id.as_str(), me.sessions), (id.as_str(), 1), "{db}: one session, one device");
        // A token presented for another player is refused.
        let (other, _) = guest(addr, "Gus").await;
        assert_eq!(welcomed(addr, &other, &t3).await.unwrap_err().0, ErrorCode::AuthFailed);
        s.shutdown().await;
        dropped.await;
    }
}

/// Expiry: a session unused for `--session-idle-days` ends, and so does one used every day past
/// `--session-max-days` (when the client never took a rotated token); both for hello and HTTP.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn sessions_expire_when_unused_and_at_their_limit() {
    for db in databases() {
        let flags = ["--session-idle-days", "30", "--session-max-days", "60", "--session-rotate-days", "365"];
        let (url, dropped) = fresh_database(&db).await;
        let s = server(&url, &flags).await;
        let (addr, clock) = (s.addr, &s.app.accounts().clock);
        let (idle_id, idle) = guest(addr, "Hal").await;
        let (busy_id, busy) = guest(addr, "Ida").await;
        clock.advance(29 * DAY);
        assert_eq!(welcomed(addr, &busy_id, &busy).await, Ok(None));
        clock.advance(2 * DAY);
        let (code, message) = welcomed(addr, &idle_id, &idle).await.unwrap_err();
        assert_eq!(code, ErrorCode::AuthFailed, "{db}: 31 days unused");
        assert!(message.contains("log in again"), "{message}");
        assert_eq!(info(addr, &idle).await.refused().1, ErrorCode::AuthFailed, "{db}: and over HTTP");
        for _ in 0..28 {
            clock.advance(DAY);
            assert!(welcomed(addr, &busy_id, &busy).await.is_ok(), "{db}: used every day");
        }
        clock.advance(DAY);
        assert_eq!(welcomed(addr, &busy_id, &busy).await.unwrap_err().0, ErrorCode::AuthFailed, "{db}: 60 days");
        // Gone from the database too (deleted when presented, or by the hourly sweep).
        for p in [&idle_id, &busy_id] {
            assert_eq!(s.app.db().sessions_of(p).await.unwrap(), 0, "{db}");
        }
        s.shutdown().await;
        dropped.await;
    }
}

/// Log out ends the token's session and closes its connections; the others go on. Log out
/// everywhere ends every session and the transfer code, and closes every connection of the
/// account here; a login with the password still works after it.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn log_out_and_log_out_everywhere() {
    for db in databases() {
        let (url, dropped) = fresh_database(&db).await;
        let s = server(&url, &[]).await;
        let addr = s.addr;
        let (id, desk) = guest(addr, "Jo").await;
        let name = unique("jo");
        let _: AccountInfo = claim(addr, &desk, &name, "jo's password").await.ok();
        let phone: SessionReply = login(HOME, addr, &name, "jo's password").await.ok();
        let tablet: SessionReply = login(HOME, addr, &name, "jo's password").await.ok();
        let (w, mut phone_ws) = hello(addr, &id, &phone.token).await;
        assert!(matches!(w, ServerMsg::Welcome { .. }), "{w:?}");
        let (w, mut tablet_ws) = hello(addr, &id, &tablet.token).await;
        assert!(matches!(w, ServerMsg::Welcome { .. }), "{w:?}");

        let out: guandan_proto::http::LogoutReply =
            call(HOME, addr, "POST", LOGOUT_PATH, Some(&tablet.token), "{}").await.ok();
        assert_eq!((out.sessions_ended, out.connections_closed), (1, 1), "{db}");
        let told = next_msg(&mut tablet_ws).await.expect("told why");
        assert!(matches!(&told, ServerMsg::Error { code, .. } if *code == ErrorCode::AuthFailed.code()), "{told:?}");
        assert!(next_msg(&mut tablet_ws).await.is_none(), "{db}: and closed");
        assert_eq!(welcomed(addr, &id, &tablet.token).await.unwrap_err().0, ErrorCode::AuthFailed);
        assert_eq!(welcomed(addr, &id, &phone.token).await, Ok(None), "{db}: the phone goes on");

        let code = new_code(addr, &desk).await;
        let all: guandan_proto::http::LogoutReply =
            call(HOME, addr, "POST", LOGOUT_EVERYWHERE_PATH, Some(&desk), "{}").await.ok();
        assert_eq!((all.sessions_ended, all.connections_closed), (2, 1), "{db}: desk and phone; the phone's socket");
        let told = next_msg(&mut phone_ws).await.expect("told why");
        assert!(matches!(&told, ServerMsg::Error { code, .. } if *code == ErrorCode::AuthFailed.code()), "{told:?}");
        assert!(next_msg(&mut phone_ws).await.is_none());
        for t in [&desk, &phone.token] {
            assert_eq!(welcomed(addr, &id, t).await.unwrap_err().0, ErrorCode::AuthFailed, "{db}");
        }
        assert_eq!(redeem(HOME, addr, code.code.expose()).await.refused().1, ErrorCode::AuthFailed, "{db}: code ended");
        assert_eq!(call(HOME, addr, "POST", LOGOUT_PATH, Some(&desk), "{}").await.refused().0, 401);
        let back: SessionReply = login(HOME, addr, &name, "jo's password").await.ok();
        assert_eq!(welcomed(addr, &id, &back.token).await, Ok(None), "{db}: the password still logs in");
        s.shutdown().await;
        dropped.await;
    }
}

/// A database as the server before accounts left it (schema 5, a token hash per player): after
/// the migration each guest's token still says hello (and, 30 days old, is rotated at once),
/// and the players' own token column is gone.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn old_guest_tokens_still_work_after_the_migration() {
    use guandan_server::db::Db;
    for db in databases() {
        let (url, drop_pg) = fresh_database(&db).await;
        let old = Db::connect_at_version(&url, 5).await.unwrap();
        let token = Secret::from(guandan_server::auth::new_token());
        let id = unique("old");
        let month_ago = guandan_server::db::now_ms() - 30 * 86_400_000;
        sqlx::query("INSERT INTO players (id, token_hash, nickname, created_at) VALUES ($1, $2, 'Old Kim', $3)")
            .bind(&id)
            .bind(guandan_server::auth::hash_token(token.expose()))
            .bind(month_ago)
            .execute(&old.pool_for_tests())
            .await
            .unwrap();
        old.close().await;

        let s = server(&url, &[]).await;
        let addr = s.addr;
        let rotated =
            welcomed(addr, &id, &token).await.expect("the old token says hello").expect("rotated: 30 days old");
        assert_eq!(welcomed(addr, &id, &token).await, Ok(None), "{db}: works until the new one is used");
        let me: AccountInfo = info(addr, &rotated).await.ok();
        assert_eq!((me.player_id.as_str(), me.nickname.as_str(), me.sessions), (id.as_str(), "Old Kim", 1), "{db}");
        assert_eq!(welcomed(addr, &id, &token).await.unwrap_err().0, ErrorCode::AuthFailed);
        let column = sqlx::query("SELECT token_hash FROM players").fetch_all(&s.app.db().pool_for_tests()).await;
        assert!(column.is_err(), "{db}: no token hash left beside the player");
        s.shutdown().await;
        drop_pg.await;
    }
}
