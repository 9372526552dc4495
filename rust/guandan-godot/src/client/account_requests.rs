//! Accounts (issue 36): the player's account on a server, asked over HTTP(S) the way the
//! leaderboard is (one request on a short-lived thread, answered over a channel the node drains
//! in `process()`): who the account is, claiming it with a login name and password, logging in
//! on this device, moving it with a one-time transfer code, logging out (everywhere).
//!
//! A password or code typed by the player is a [`Secret`] from the call on: it is sent and
//! nothing else (no log, no `Debug`, no signal, no error message names it).

use std::time::Duration;

use guandan_core::error::ErrorCode;
use guandan_proto::http::{
    ACCOUNT_PATH, AUTHORIZATION, AccountInfo, CLAIM_PATH, Claim, LOGIN_PATH, LOGOUT_EVERYWHERE_PATH, LOGOUT_PATH,
    Login, LogoutReply, SessionReply, TRANSFER_CODE_PATH, TRANSFER_PATH, Transfer, TransferCodeReply, bearer,
    read_reply,
};
use guandan_proto::tls::{Trust, explain_http};
use guandan_proto::{Endpoint, Secret};

use super::requests::Requests;
use crate::codes::Fail;

/// Logging in hashes a password on the server: a little more patience than a leaderboard page.
const TIMEOUT: Duration = Duration::from_secs(10);

/// What is asked of the server.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum AccountAsk {
    Info,
    Claim { name: String, password: Secret },
    Login { name: String, password: Secret },
    TransferCode,
    Transfer { code: Secret },
    LogOut,
    LogOutEverywhere,
}

impl AccountAsk {
    /// Claiming the account: the login name and password checked by the server's own rules.
    pub fn claim(name: &str, password: Secret) -> Result<AccountAsk, Fail> {
        check_name_and_password(name, &password)?;
        Ok(AccountAsk::Claim { name: name.to_string(), password })
    }

    /// Logging in on this device.
    pub fn login(name: &str, password: Secret) -> Result<AccountAsk, Fail> {
        check_name_and_password(name, &password)?;
        Ok(AccountAsk::Login { name: name.to_string(), password })
    }

    /// Redeeming a transfer code as the player typed it (spaces, dashes, lower case).
    pub fn transfer(typed: &Secret) -> Result<AccountAsk, Fail> {
        let code = guandan_proto::parse_transfer_code(typed.expose()).map_err(Fail::bad_argument)?;
        Ok(AccountAsk::Transfer { code: Secret::new(code) })
    }

    /// The `account_done` / `account_failed` signals' first argument.
    pub fn what(&self) -> &'static str {
        match self {
            AccountAsk::Info => "account",
            AccountAsk::Claim { .. } => "claim",
            AccountAsk::Login { .. } => "login",
            AccountAsk::TransferCode => "transfer_code",
            AccountAsk::Transfer { .. } => "transfer",
            AccountAsk::LogOut => "log_out",
            AccountAsk::LogOutEverywhere => "log_out_everywhere",
        }
    }

    fn path(&self) -> &'static str {
        match self {
            AccountAsk::Info => ACCOUNT_PATH,
            AccountAsk::Claim { .. } => CLAIM_PATH,
            AccountAsk::Login { .. } => LOGIN_PATH,
            AccountAsk::TransferCode => TRANSFER_CODE_PATH,
            AccountAsk::Transfer { .. } => TRANSFER_PATH,
            AccountAsk::LogOut => LOGOUT_PATH,
            AccountAsk::LogOutEverywhere => LOGOUT_EVERYWHERE_PATH,
        }
    }

    /// The JSON body of a `POST` (`None`: a `GET`).
    fn body(&self) -> Result<Option<String>, Fail> {
        let json =
            |r: serde_json::Result<String>| r.map(Some).map_err(|e| Fail::new(ErrorCode::Internal, e.to_string()));
        match self {
            AccountAsk::Info => Ok(None),
            AccountAsk::Claim { name, password } => {
                json(serde_json::to_string(&Claim { name: name.clone(), password: password.clone() }))
            }
            AccountAsk::Login { name, password } => {
                json(serde_json::to_string(&Login { name: name.clone(), password: password.clone(), device: None }))
            }
            AccountAsk::Transfer { code } => {
                json(serde_json::to_string(&Transfer { code: code.clone(), device: None }))
            }
            AccountAsk::TransferCode | AccountAsk::LogOut | AccountAsk::LogOutEverywhere => Ok(Some("{}".into())),
        }
    }
}

/// The rules the server applies, said here before anything is sent. The message never repeats
/// the password.
fn check_name_and_password(name: &str, password: &Secret) -> Result<(), Fail> {
    guandan_proto::check_login_name(name).map_err(|why| Fail::new(ErrorCode::BadLoginName, why))?;
    guandan_proto::check_password(password.expose()).map_err(|why| Fail::new(ErrorCode::BadPassword, why))
}

/// A server's answer.
#[derive(Clone, Debug, PartialEq)]
pub enum AccountAnswer {
    Info(AccountInfo),
    Session(SessionReply),
    Code(TransferCodeReply),
    LoggedOut(LogoutReply),
}

/// A request with where it goes (the server as the player gave it: a new session is kept for it).
#[derive(Clone, Debug)]
pub struct AccountRequest {
    pub server: String,
    pub ask: AccountAsk,
    pub token: Option<Secret>,
}

/// A request and its answer.
pub type Answered = (AccountRequest, Result<AccountAnswer, Fail>);

/// The account requests in flight and their answers.
pub struct Accounts(Requests<AccountRequest, AccountAnswer>);

impl Default for Accounts {
    fn default() -> Self {
        Accounts(Requests::new("guandan-account"))
    }
}

impl Accounts {
    /// Sends `req` to `endpoint` (over TLS with `trust` for an `https://` one) from a thread of
    /// its own; the answer comes from [`Accounts::poll`].
    pub fn start(&mut self, endpoint: Endpoint, trust: Trust, req: AccountRequest) -> Result<(), Fail> {
        self.0.start(req, move |req| call(&endpoint, &trust, req))
    }

    /// An answer that has arrived.
    pub fn poll(&mut self) -> Option<Answered> {
        self.0.poll()
    }
}

fn call(server: &Endpoint, trust: &Trust, req: &AccountRequest) -> Result<AccountAnswer, Fail> {
    let (status, bytes) = exchange(server, trust, req)?;
    let refused = |e: guandan_proto::http::HttpError| Fail::new(e.error_code().unwrap_or(ErrorCode::Io), e.message);
    Ok(match req.ask {
        AccountAsk::Info | AccountAsk::Claim { .. } => {
            AccountAnswer::Info(read_reply(status, &bytes).map_err(refused)?)
        }
        AccountAsk::Login { .. } | AccountAsk::Transfer { .. } => {
            AccountAnswer::Session(read_reply(status, &bytes).map_err(refused)?)
        }
        AccountAsk::TransferCode => AccountAnswer::Code(read_reply(status, &bytes).map_err(refused)?),
        AccountAsk::LogOut | AccountAsk::LogOutEverywhere => {
            AccountAnswer::LoggedOut(read_reply(status, &bytes).map_err(refused)?)
        }
    })
}

/// The request on the wire: the answer's status and body.
fn exchange(server: &Endpoint, trust: &Trust, req: &AccountRequest) -> Result<(u16, Vec<u8>), Fail> {
    let unreachable = |e: ureq::Error| {
        let f = explain_http(&e, server);
        Fail::new(f.code, f.message)
    };
    // A refusal's body says why (wrong password, name taken): the agent hands it back.
    let agent = trust.http_agent(TIMEOUT);
    let url = server.http_url(req.ask.path());
    let auth = req.token.as_ref().map(bearer);
    let mut answer = match req.ask.body()? {
        None => {
            let mut r = agent.get(url);
            if let Some(a) = &auth {
                r = r.header(AUTHORIZATION, a.as_str());
            }
            r.call().map_err(unreachable)?
        }
        Some(body) => {
            let mut r = agent.post(url).content_type("application/json");
            if let Some(a) = &auth {
                r = r.header(AUTHORIZATION, a.as_str());
            }
            r.send(body.as_str()).map_err(unreachable)?
        }
    };
    let status = answer.status().as_u16();
    // Account answers are a few hundred bytes; a larger body is not ours.
    let bytes = answer.body_mut().with_config().limit(64 << 10).read_to_vec().map_err(unreachable)?;
    Ok((status, bytes))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::client::requests::MAX_IN_FLIGHT;
    use std::io::{Read, Write};
    use std::net::TcpListener;

    const PASSWORD: &str = "correct horse battery";

    #[test]
    fn bad_input_is_refused_with_its_code_and_never_repeats_the_password() {
        let pw = || Secret::from(PASSWORD);
        assert!(AccountAsk::claim("ann.lee", pw()).is_ok());
        assert_eq!(AccountAsk::claim("a", pw()).unwrap_err().code, ErrorCode::BadLoginName);
        assert_eq!(AccountAsk::login("ann lee", pw()).unwrap_err().code, ErrorCode::BadLoginName);
        let short = AccountAsk::claim("ann", Secret::from("s3cr3t")).unwrap_err();
        assert_eq!(short.code, ErrorCode::BadPassword);
        assert!(!short.message.contains("s3cr3t"), "{}", short.message);
        assert_eq!(AccountAsk::login("ann", Secret::from("")).unwrap_err().code, ErrorCode::BadPassword);
        let typed = Secret::from(" k7qx2-mab3d ");
        assert_eq!(AccountAsk::transfer(&typed).unwrap(), AccountAsk::Transfer { code: Secret::from("K7QX2MAB3D") });
        let bad = AccountAsk::transfer(&Secret::from("SECRETCODE0")).unwrap_err();
        assert_eq!(bad.code, ErrorCode::BadArgument);
        assert!(!bad.message.contains("SECRET"), "{}", bad.message);
        // Debug (a log line, a panic) shows no password.
        let ask = AccountAsk::login("ann", pw()).unwrap();
        assert!(!format!("{ask:?}").contains(PASSWORD), "{ask:?}");
        assert_eq!((ask.what(), AccountAsk::LogOutEverywhere.what()), ("login", "log_out_everywhere"));
    }

    /// A one-shot HTTP server on loopback answering `status` with `body`; returns its address
    /// and the whole request it saw.
    fn answer_once(status: &str, body: &'static str) -> (String, std::thread::JoinHandle<String>) {
        let listener = TcpListener::bind("127.0.0.1:0").unwrap();
        let hp = listener.local_addr().unwrap().to_string();
        let status = status.to_string();
        let h = std::thread::spawn(move || {
            let (mut s, _) = listener.accept().unwrap();
            s.set_read_timeout(Some(Duration::from_secs(5))).unwrap();
            let mut req = Vec::new();
            let mut buf = [0u8; 1024];
            // The head, then the body its content-length announces.
            let body_len = loop {
                let n = s.read(&mut buf).unwrap();
                assert!(n > 0, "the request ended early");
                req.extend_from_slice(&buf[..n]);
                if let Some(end) = req.windows(4).position(|w| w == b"\r\n\r\n") {
                    let head = String::from_utf8_lossy(&req[..end]).to_ascii_lowercase();
                    let len = head
                        .lines()
                        .find_map(|l| l.strip_prefix("content-length:").map(|v| v.trim().parse::<usize>().unwrap()))
                        .unwrap_or(0);
                    break end + 4 + len;
                }
            };
            while req.len() < body_len {
                let n = s.read(&mut buf).unwrap();
                assert!(n > 0, "the body ended early");
                req.extend_from_slice(&buf[..n]);
            }
            let reply = format!(
                "HTTP/1.1 {status}\r\ncontent-type: application/json\r\ncontent-length: {}\r\nconnection: close\r\n\r\n{body}",
                body.len()
            );
            s.write_all(reply.as_bytes()).unwrap();
            String::from_utf8_lossy(&req).to_string()
        });
        (hp, h)
    }

    fn wait(a: &mut Accounts) -> Answered {
        for _ in 0..500 {
            if let Some(got) = a.poll() {
                return got;
            }
            std::thread::sleep(Duration::from_millis(10));
        }
        panic!("no answer in 5 s");
    }

    fn request(hp: &str, ask: AccountAsk, token: Option<&str>) -> AccountRequest {
        AccountRequest { server: hp.to_string(), ask, token: token.map(Secret::from) }
    }

    #[test]
    fn a_login_posts_name_and_password_and_gets_a_session() {
        let (hp, seen) = answer_once("200 OK", r#"{"player_id":"p7","nickname":"Ann","token":"tok-new"}"#);
        let mut a = Accounts::default();
        let ask = AccountAsk::login("ann", Secret::from(PASSWORD)).unwrap();
        a.start(Endpoint::parse(&hp).unwrap(), Trust::mozilla(), request(&hp, ask, None)).unwrap();
        let (req, got) = wait(&mut a);
        let sent = seen.join().unwrap();
        assert!(sent.starts_with(&format!("POST {LOGIN_PATH} HTTP/1.1")), "{sent}");
        assert!(sent.contains(&format!(r#""password":"{PASSWORD}""#)), "the password is sent: {sent}");
        assert!(!sent.to_ascii_lowercase().contains("authorization"), "a login carries no token: {sent}");
        assert_eq!(req.ask.what(), "login");
        let Ok(AccountAnswer::Session(s)) = got else { panic!("{got:?}") };
        assert_eq!((s.player_id.as_str(), s.nickname.as_str(), s.token.expose()), ("p7", "Ann", "tok-new"));
    }

    #[test]
    fn an_authorized_call_carries_the_token_and_a_refusal_keeps_its_code() {
        let (hp, seen) = answer_once("200 OK", r#"{"code":"K7QX2-MAB3D","expires_in_s":600}"#);
        let mut a = Accounts::default();
        a.start(Endpoint::parse(&hp).unwrap(), Trust::mozilla(), request(&hp, AccountAsk::TransferCode, Some("tok1")))
            .unwrap();
        let (_, got) = wait(&mut a);
        let sent = seen.join().unwrap().to_ascii_lowercase();
        assert!(sent.starts_with(&format!("post {TRANSFER_CODE_PATH} http/1.1")), "{sent}");
        assert!(sent.contains("authorization: bearer tok1"), "{sent}");
        let Ok(AccountAnswer::Code(c)) = got else { panic!("{got:?}") };
        assert_eq!((c.code.expose(), c.expires_in_s), ("K7QX2-MAB3D", 600));

        let (hp, _) =
            answer_once("409 Conflict", r#"{"code":63,"name":"name_taken","message":"that login name is taken"}"#);
        let ask = AccountAsk::claim("ann", Secret::from(PASSWORD)).unwrap();
        a.start(Endpoint::parse(&hp).unwrap(), Trust::mozilla(), request(&hp, ask, Some("tok1"))).unwrap();
        let fail = wait(&mut a).1.unwrap_err();
        assert_eq!((fail.code, fail.message.as_str()), (ErrorCode::NameTaken, "that login name is taken"));
    }

    #[test]
    fn requests_are_bounded_and_a_dead_server_is_said() {
        // Nothing listens on a port just released.
        let hp = TcpListener::bind("127.0.0.1:0").unwrap().local_addr().unwrap().to_string();
        let mut a = Accounts::default();
        let go = |a: &mut Accounts| {
            a.start(Endpoint::parse(&hp).unwrap(), Trust::mozilla(), request(&hp, AccountAsk::Info, Some("t")))
        };
        for _ in 0..MAX_IN_FLIGHT {
            go(&mut a).unwrap();
        }
        assert_eq!(go(&mut a).unwrap_err().code, ErrorCode::RateLimited);
        for _ in 0..MAX_IN_FLIGHT {
            let fail = wait(&mut a).1.unwrap_err();
            assert_eq!(fail.code, ErrorCode::Io);
        }
        assert!(go(&mut a).is_ok(), "answered requests free their place");
    }
}
