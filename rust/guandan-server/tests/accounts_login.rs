//! Accounts that follow the player (issue 36), their names and passwords: a guest claims its
//! account and logs in on a second device; a wrong password and an unknown name look the same;
//! password guessing is limited per name and per address. Servers in this process, real sockets
//! on loopback, both databases (tests/accounts_common).
mod accounts_common;
mod common;

use accounts_common::*;
use common::databases;
use guandan_proto::http::{AccountInfo, CLAIM_PATH, LOGIN_PATH, PlayerProfile, SessionReply, player_path};
use guandan_proto::{ErrorCode, Secret};
use guandan_server::ratings::{Ending, RatedSeat, rate_match, verdicts};

/// A guest claims its account (the rules of names and passwords refused first, each with its
/// code), then logs in on a second device with the name in another case: the same player id, so
/// the same rating; the first device stays logged in. A name is one account's, without case.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn claim_then_login_on_a_second_device_keeps_the_player_and_its_rating() {
    for db in databases() {
        let (url, dropped) = fresh_database(&db).await;
        let s = server(&url, &[]).await;
        let addr = s.addr;
        let (id, token) = guest(addr, "Ann").await;
        // A rating of its own (a ranked win beside the hard AI).
        let seats = [RatedSeat::Human(id.clone()), RatedSeat::Ai(3), RatedSeat::Ai(3), RatedSeat::Ai(3)];
        let v = verdicts(Ending::Won(0), [true, false, false, false], [false; 4]);
        let rated = rate_match(s.app.db(), "huaian", &unique("R"), 0, &seats, v).await.unwrap();
        let rating = rated[0].rating;
        assert_ne!(rating, 1000, "{db}: the win moved it");

        let before: AccountInfo = info(addr, &token).await.ok();
        assert_eq!((before.player_id.as_str(), before.name.as_deref(), before.sessions), (id.as_str(), None, 1));
        let name = unique("Ann.");
        // Refused, each with its code, and nothing claimed.
        assert_eq!(claim(addr, &token, "x", "long enough pw").await.refused().1, ErrorCode::BadLoginName);
        assert_eq!(claim(addr, &token, "Ann Lee", "long enough pw").await.refused().1, ErrorCode::BadLoginName);
        assert_eq!(claim(addr, &token, &name, "short").await.refused().1, ErrorCode::BadPassword);
        assert_eq!(claim(addr, &token, &name, &"p".repeat(129)).await.refused().1, ErrorCode::BadPassword);
        assert_eq!(claim(addr, &token, &name, &name.to_uppercase()).await.refused().1, ErrorCode::BadPassword);
        let body = json(serde_json::json!({"name": name, "password": "long enough pw"}));
        let anonymous = call(HOME, addr, "POST", CLAIM_PATH, None, &body).await.refused();
        assert_eq!((anonymous.0, anonymous.1), (401, ErrorCode::Unauthenticated));
        let forged = Secret::from("ab".repeat(32));
        assert_eq!(claim(addr, &forged, &name, "long enough pw").await.refused().1, ErrorCode::AuthFailed);
        let not_json = call(HOME, addr, "POST", CLAIM_PATH, Some(&token), "{\"name\":").await.refused();
        assert_eq!((not_json.0, not_json.1), (400, ErrorCode::MalformedMessage));
        let huge = format!("{{\"name\":\"{name}\",\"password\":\"{}\"}}", "p".repeat(5000));
        assert_eq!(call(HOME, addr, "POST", CLAIM_PATH, Some(&token), &huge).await.refused().0, 413);
        let still: AccountInfo = info(addr, &token).await.ok();
        assert_eq!(still.name, None, "{db}: nothing claimed by a refused claim");

        let claimed: AccountInfo = claim(addr, &token, &name, "correct horse battery").await.ok();
        assert_eq!((claimed.player_id.as_str(), claimed.name.as_deref()), (id.as_str(), Some(name.as_str())));
        assert_eq!(
            claim(addr, &token, &unique("other"), "correct horse battery").await.refused().1,
            ErrorCode::AlreadyClaimed
        );
        let (_, other) = guest(addr, "Bob").await;
        let taken = claim(addr, &other, &name.to_lowercase(), "another password").await.refused();
        assert_eq!((taken.0, taken.1), (409, ErrorCode::NameTaken), "{db}: names are one account's, without case");

        let odd_device = json(serde_json::json!({"name": name, "password": "x", "device": "a\u{202E}b"}));
        let refused = call(HOME, addr, "POST", LOGIN_PATH, None, &odd_device).await.refused();
        assert_eq!((refused.0, refused.1), (400, ErrorCode::BadArgument), "{db}: a device label is a nickname");
        // The second device: another address, the name in upper case.
        let phone: SessionReply = login([127, 0, 0, 2], addr, &name.to_uppercase(), "correct horse battery").await.ok();
        assert_eq!((phone.player_id.as_str(), phone.nickname.as_str()), (id.as_str(), "Ann"));
        assert_ne!(phone.token, token, "a session of its own");
        assert_eq!(welcomed(addr, &id, &phone.token).await, Ok(None), "{db}: the phone plays as the same player");
        assert_eq!(welcomed(addr, &id, &token).await, Ok(None), "{db}: the first device too");
        let now: AccountInfo = info(addr, &phone.token).await.ok();
        assert_eq!((now.name.as_deref(), now.sessions), (Some(name.as_str()), 2));
        // What follows the player id: its public profile shows the rating it had.
        let profile: PlayerProfile = call(HOME, addr, "GET", &player_path(&id), None, "").await.ok();
        let huaian = profile.ratings.iter().find(|r| r.rules == "huaian").expect("rated");
        assert_eq!((huaian.rating, huaian.matches), (rating, 1), "{db}");
        s.shutdown().await;
        dropped.await;
    }
}

/// A wrong password and a name nobody has get the same answer (status, code, message), and each
/// costs one password check: an unknown name is checked against a dummy hash.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn wrong_password_and_unknown_name_get_one_answer_for_the_same_work() {
    for db in databases() {
        let (url, dropped) = fresh_database(&db).await;
        let s = server(&url, &[]).await;
        let addr = s.addr;
        let (_, token) = guest(addr, "Cy").await;
        let name = unique("cy");
        let _: AccountInfo = claim(addr, &token, &name, "the right one!").await.ok();
        let checks = s.app.accounts().password_checks();
        let wrong = login(HOME, addr, &name, "the wrong one!").await;
        let after_wrong = s.app.accounts().password_checks();
        let unknown = login(HOME, addr, &unique("nobody"), "the wrong one!").await;
        let after_unknown = s.app.accounts().password_checks();
        assert_eq!((wrong.status, wrong.body.as_str()), (unknown.status, unknown.body.as_str()), "{db}");
        assert_eq!(wrong.refused().1, ErrorCode::AuthFailed);
        assert_eq!((after_wrong - checks, after_unknown - after_wrong), (1, 1), "{db}: one check each");
        let ok: SessionReply = login(HOME, addr, &name, "the right one!").await.ok();
        assert_eq!(welcomed(addr, &ok.player_id, &ok.token).await, Ok(None));
        s.shutdown().await;
        dropped.await;
    }
}

/// Password guessing: a name gets `--login-failures-per-name-per-hour` failures, from any
/// number of addresses, whether it exists or not; then even the right password waits (429,
/// the wait said and in Retry-After) until the bucket refills. An address gets
/// `--logins-per-ip-per-hour` attempts of any kind; other addresses are not held up by it.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn login_attempts_are_limited_per_name_and_per_address() {
    for db in databases() {
        let flags = ["--login-failures-per-name-per-hour", "3", "--logins-per-ip-per-hour", "5"];
        let (url, dropped) = fresh_database(&db).await;
        let s = server(&url, &flags).await;
        let addr = s.addr;
        let (id, token) = guest(addr, "Di").await;
        let name = unique("di");
        let _: AccountInfo = claim(addr, &token, &name, "the right one!").await.ok();
        for k in 0..3 {
            let r = login([127, 0, 1, 10 + k], addr, &name, "a guess at it").await;
            assert_eq!(r.refused().1, ErrorCode::AuthFailed, "{db}");
        }
        // The fourth, from yet another address, with the right password: the name waits.
        let held = login([127, 0, 1, 20], addr, &name, "the right one!").await;
        let (status, code, message) = held.refused();
        assert_eq!((status, code), (429, ErrorCode::RateLimited), "{db}");
        assert!(message.contains("try again in 20 minutes"), "{message}");
        // 1,200 s, less the wall time since the first failure (the bucket refills meanwhile: on
        // a loaded machine three argon2 checks can take over a second).
        assert!(held.retry_after.is_some_and(|s| (1140..=1200).contains(&s)), "{:?}", held.retry_after);
        // A name nobody has is held the same way (the limit tells nothing about existence).
        let ghost = unique("ghost");
        for k in 0..3 {
            assert_eq!(login([127, 0, 1, 30 + k], addr, &ghost, "x-guess-x").await.refused().1, ErrorCode::AuthFailed);
        }
        assert_eq!(login([127, 0, 1, 40], addr, &ghost, "x-guess-x").await.refused().1, ErrorCode::RateLimited);
        // The bucket refills: one attempt every 20 minutes.
        s.app.accounts().clock.advance(20 * MINUTE);
        let back: SessionReply = login([127, 0, 1, 21], addr, &name, "the right one!").await.ok();
        assert_eq!(back.player_id, id);
        // A successful login gives its attempt back: the owner is not counted as a guesser.
        let again: SessionReply = login([127, 0, 1, 22], addr, &name, "the right one!").await.ok();
        assert_eq!(again.player_id, id);

        // Per address: five attempts of any kind, then 429; another address goes on.
        let crowd = [127, 0, 1, 50];
        for k in 0..5 {
            assert_eq!(
                login(crowd, addr, &unique(&format!("n{k}x")), "x-guess-x").await.refused().1,
                ErrorCode::AuthFailed
            );
        }
        let (status, code, message) = login(crowd, addr, &name, "the right one!").await.refused();
        assert_eq!((status, code), (429, ErrorCode::RateLimited), "{db}");
        assert!(message.contains("from this address") && message.contains("try again in 12 minutes"), "{message}");
        let elsewhere: SessionReply = login([127, 0, 1, 51], addr, &name, "the right one!").await.ok();
        assert_eq!(elsewhere.player_id, id);
        s.shutdown().await;
        dropped.await;
    }
}
