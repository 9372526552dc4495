//! The server's public reads: the leaderboard, players' profiles and a finished match's record
//! (`/v1/leaderboard`, `/v1/players/ID`, `/v1/matches/CODE/N`): one HTTP GET each, made on a
//! short-lived thread (ureq, the same as the guest registration)
//! and answered over a channel the node drains in `process()`. The threads see plain Rust data
//! only, and at most [`MAX_IN_FLIGHT`] run at once: a player tapping through pages cannot pile
//! up connections.

use std::path::PathBuf;
use std::time::Duration;

use guandan_core::error::ErrorCode;
use guandan_proto::Endpoint;
use guandan_proto::http::{
    FinishedMatch, LEADERBOARD_PATH, Leaderboard, PLAYERS_PATH, PlayerProfile, match_path, read_reply,
};
use guandan_proto::tls::{Trust, explain_http};
use serde::de::DeserializeOwned;

pub use super::requests::MAX_IN_FLIGHT;
use super::requests::Requests;
use crate::codes::Fail;

/// Requests answered at once; more are refused (`rate_limited`) until one is answered.
/// A page the server has not answered by then is given up (the screen says so).
const TIMEOUT: Duration = Duration::from_secs(8);
/// The server's largest page number (`guandan-server`'s `MAX_PAGE`); larger is refused here.
pub const MAX_PAGE: u32 = 10_000;

/// What is asked.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Ask {
    Leaderboard {
        rules: String,
        page: u32,
    },
    Profile {
        player_id: String,
    },
    /// A finished match of a room, kept as the record `name` in `dir` (the player's records).
    Record {
        code: String,
        match_no: u32,
        dir: PathBuf,
    },
}

impl Ask {
    /// A leaderboard page of a known rule preset.
    pub fn leaderboard(rules: &str, page: i64) -> Result<Ask, Fail> {
        if guandan_core::rules::RuleConfig::preset(rules).is_none() {
            let shown: String = rules.chars().take(40).collect();
            return Err(Fail::bad_argument(format!("no rule preset {shown:?}")));
        }
        match u32::try_from(page) {
            Ok(page) if page <= MAX_PAGE => Ok(Ask::Leaderboard { rules: rules.to_string(), page }),
            _ => Err(Fail::bad_argument(format!("page is a number from 0 to {MAX_PAGE}, not {page}"))),
        }
    }

    /// A player's profile. Player ids are the server's (letters, digits, `-`, `_`): anything
    /// else could not be one and would change the request's path.
    pub fn profile(player_id: &str) -> Result<Ask, Fail> {
        let ok = !player_id.is_empty()
            && player_id.len() <= 64
            && player_id.chars().all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '_');
        if !ok {
            let shown: String = player_id.chars().take(20).collect();
            return Err(Fail::bad_argument(format!("{shown:?} is not a player id")));
        }
        Ok(Ask::Profile { player_id: player_id.to_string() })
    }

    /// A finished match's record, to be kept in `dir` as `online_<code>_<n>`. Room codes are the
    /// server's (letters and digits): anything else could not be one and would change the path.
    pub fn record(code: &str, match_no: i64, dir: PathBuf) -> Result<Ask, Fail> {
        if code.is_empty() || code.len() > 16 || !code.chars().all(|c| c.is_ascii_alphanumeric()) {
            let shown: String = code.chars().take(20).collect();
            return Err(Fail::bad_argument(format!("{shown:?} is not a room code")));
        }
        match u32::try_from(match_no) {
            Ok(match_no) => Ok(Ask::Record { code: code.to_string(), match_no, dir }),
            Err(_) => Err(Fail::bad_argument(format!("a match number is 0 or more, not {match_no}"))),
        }
    }

    /// The name the record is kept under.
    pub fn record_name(code: &str, match_no: u32) -> String {
        format!("online_{code}_{match_no}")
    }

    fn path(&self) -> String {
        match self {
            Ask::Record { code, match_no, .. } => match_path(code, *match_no),
            // Preset names are plain identifiers (checked above): nothing to escape.
            Ask::Leaderboard { rules, page } => format!("{LEADERBOARD_PATH}?rules={rules}&page={page}"),
            Ask::Profile { player_id } => format!("{PLAYERS_PATH}/{player_id}"),
        }
    }

    /// `leaderboard` or `profile` (the `fetch_failed` signal's first argument).
    pub fn what(&self) -> &'static str {
        match self {
            Ask::Leaderboard { .. } => "leaderboard",
            Ask::Profile { .. } => "profile",
            Ask::Record { .. } => "record",
        }
    }
}

/// A server's answer.
#[derive(Clone, Debug, PartialEq)]
pub enum Answer {
    Leaderboard(Leaderboard),
    Profile(PlayerProfile),
    /// The record's name, kept among the player's records.
    Record(String),
}

/// The leaderboard pages and profiles in flight and their answers.
pub struct Fetcher(Requests<Ask, Answer>);

impl Default for Fetcher {
    fn default() -> Self {
        Fetcher(Requests::new("guandan-ranking"))
    }
}

impl Fetcher {
    /// Asks `server` (over TLS with `trust` for an `https://` one) on a thread of its own; the
    /// answer comes from [`Fetcher::poll`].
    pub fn start(&mut self, server: Endpoint, trust: Trust, ask: Ask) -> Result<(), Fail> {
        self.0.start(ask, move |ask| fetch(&server, &trust, ask))
    }

    /// An answer that has arrived.
    pub fn poll(&mut self) -> Option<(Ask, Result<Answer, Fail>)> {
        self.0.poll()
    }
}

fn fetch(server: &Endpoint, trust: &Trust, ask: &Ask) -> Result<Answer, Fail> {
    Ok(match ask {
        Ask::Leaderboard { .. } => Answer::Leaderboard(get(server, trust, &ask.path())?),
        Ask::Profile { .. } => Answer::Profile(get(server, trust, &ask.path())?),
        Ask::Record { code, match_no, dir } => {
            let stored: FinishedMatch = get(server, trust, &ask.path())?;
            Answer::Record(keep_record(dir, &Ask::record_name(code, *match_no), &stored.log)?)
        }
    })
}

/// Keeps a downloaded record as `name` in `dir` once it has replayed whole (a server's answer
/// is not trusted: a damaged or forged log is refused and nothing is written).
fn keep_record(dir: &std::path::Path, name: &str, log: &str) -> Result<String, Fail> {
    crate::replay::check_record(log)?;
    crate::store::write_record(dir, name, log)?;
    Ok(name.to_string())
}

fn get<T: DeserializeOwned>(server: &Endpoint, trust: &Trust, path: &str) -> Result<T, Fail> {
    let unreachable = |e: ureq::Error| {
        let f = explain_http(&e, server);
        Fail::new(f.code, f.message)
    };
    // A refusal's body says why (no such player, no such rules): the agent hands it back.
    let agent = trust.http_agent(TIMEOUT);
    let mut answer = agent.get(server.http_url(path)).call().map_err(unreachable)?;
    let status = answer.status().as_u16();
    // Pages are small (50 rows, 50 history points a preset); a record is at most a saved
    // record's size. A larger body is not ours.
    let limit = if path.starts_with("/v1/matches/") { 2 * crate::store::MAX_RECORD_BYTES } else { 1 << 20 };
    let bytes = answer.body_mut().with_config().limit(limit).read_to_vec().map_err(unreachable)?;
    read_reply(status, &bytes).map_err(|e| Fail::new(e.error_code().unwrap_or(ErrorCode::Io), e.message))
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::io::{Read, Write};
    use std::net::TcpListener;

    #[test]
    fn what_may_be_asked() {
        assert_eq!(Ask::leaderboard("huaian", 3).unwrap().path(), format!("{LEADERBOARD_PATH}?rules=huaian&page=3"));
        assert_eq!(Ask::leaderboard("nope", 0).unwrap_err().code, ErrorCode::BadArgument);
        assert_eq!(Ask::leaderboard("competition", -1).unwrap_err().code, ErrorCode::BadArgument);
        assert_eq!(Ask::leaderboard("competition", i64::from(MAX_PAGE) + 1).unwrap_err().code, ErrorCode::BadArgument);
        assert_eq!(Ask::profile("p-12_ab").unwrap().path(), format!("{PLAYERS_PATH}/p-12_ab"));
        for bad in ["", "../metrics", "a b", "x?y=1", "é", &"a".repeat(65)] {
            assert_eq!(Ask::profile(bad).unwrap_err().code, ErrorCode::BadArgument, "{bad:?}");
        }
    }

    /// A one-shot HTTP server on loopback answering `status` with `body`; returns its address
    /// and the request line it saw.
    fn answer_once(status: &str, body: &'static str) -> (String, std::thread::JoinHandle<String>) {
        let listener = TcpListener::bind("127.0.0.1:0").unwrap();
        let hp = listener.local_addr().unwrap().to_string();
        let status = status.to_string();
        let h = std::thread::spawn(move || {
            let (mut s, _) = listener.accept().unwrap();
            s.set_read_timeout(Some(Duration::from_secs(5))).unwrap();
            let mut req = Vec::new();
            let mut buf = [0u8; 1024];
            while !req.windows(4).any(|w| w == b"\r\n\r\n") {
                let n = s.read(&mut buf).unwrap();
                assert!(n > 0, "the request ended early");
                req.extend_from_slice(&buf[..n]);
            }
            let reply = format!(
                "HTTP/1.1 {status}\r\ncontent-type: application/json\r\ncontent-length: {}\r\nconnection: close\r\n\r\n{body}",
                body.len()
            );
            s.write_all(reply.as_bytes()).unwrap();
            String::from_utf8_lossy(&req).lines().next().unwrap_or_default().to_string()
        });
        (hp, h)
    }

    fn at(hp: &str) -> Endpoint {
        Endpoint::parse(hp).unwrap()
    }

    fn wait(f: &mut Fetcher) -> (Ask, Result<Answer, Fail>) {
        for _ in 0..500 {
            if let Some(a) = f.poll() {
                return a;
            }
            std::thread::sleep(Duration::from_millis(10));
        }
        panic!("no answer in 5 s");
    }

    #[test]
    fn a_page_is_read_and_a_refusal_keeps_its_code() {
        let (hp, seen) = answer_once(
            "200 OK",
            r#"{"rules":"competition","page":0,"per_page":50,"total":1,"entries":[{"rank":1,"player_id":"p1","nickname":"Ann","rating":1040,"matches":3,"wins":2}]}"#,
        );
        let mut f = Fetcher::default();
        f.start(at(&hp), Trust::mozilla(), Ask::leaderboard("competition", 0).unwrap()).unwrap();
        let (ask, got) = wait(&mut f);
        assert_eq!(seen.join().unwrap(), "GET /v1/leaderboard?rules=competition&page=0 HTTP/1.1");
        assert_eq!(ask.what(), "leaderboard");
        let Ok(Answer::Leaderboard(b)) = got else { panic!("{got:?}") };
        assert_eq!((b.total, b.entries[0].nickname.as_str(), b.entries[0].rating), (1, "Ann", 1040));

        let (hp, _) = answer_once("404 Not Found", r#"{"code":31,"name":"not_found","message":"no such player"}"#);
        f.start(at(&hp), Trust::mozilla(), Ask::profile("p9").unwrap()).unwrap();
        let (_, got) = wait(&mut f);
        let fail = got.unwrap_err();
        assert_eq!(fail.message, "no such player");
        assert_eq!(fail.code, ErrorCode::NotFound);
    }

    #[test]
    fn requests_are_bounded_and_a_dead_server_is_said() {
        // Nothing listens on a port just released.
        let hp = TcpListener::bind("127.0.0.1:0").unwrap().local_addr().unwrap().to_string();
        let mut f = Fetcher::default();
        for _ in 0..MAX_IN_FLIGHT {
            f.start(at(&hp), Trust::mozilla(), Ask::profile("p").unwrap()).unwrap();
        }
        assert_eq!(
            f.start(at(&hp), Trust::mozilla(), Ask::profile("p").unwrap()).unwrap_err().code,
            ErrorCode::RateLimited
        );
        for _ in 0..MAX_IN_FLIGHT {
            let fail = wait(&mut f).1.unwrap_err();
            assert_eq!(fail.code, ErrorCode::Io);
            assert!(fail.message.contains(&format!("cannot reach the server at {hp}")), "{}", fail.message);
        }
        assert!(
            f.start(at(&hp), Trust::mozilla(), Ask::profile("p").unwrap()).is_ok(),
            "answered requests free their place"
        );
    }

    #[test]
    fn a_finished_match_is_kept_only_when_it_replays_whole() {
        let dir = std::env::temp_dir().join(format!("guandan-online-record-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        for bad in ["", "AB/../x", "a b", &"A".repeat(17)] {
            assert_eq!(Ask::record(bad, 1, dir.clone()).unwrap_err().code, ErrorCode::BadArgument, "{bad:?}");
        }
        assert_eq!(Ask::record("AB12", -1, dir.clone()).unwrap_err().code, ErrorCode::BadArgument);
        assert_eq!(Ask::record("AB12", 1 << 33, dir.clone()).unwrap_err().code, ErrorCode::BadArgument);
        let corpus = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../tests/replay-corpus");
        let log = std::fs::read_to_string(corpus.join("good_unfinished_match.jsonl")).unwrap();
        let body = |log: &str| -> &'static str {
            let stored = FinishedMatch { meta: serde_json::json!({"deals": 2}), log: log.to_string() };
            Box::leak(serde_json::to_string(&stored).unwrap().into_boxed_str())
        };
        let mut f = Fetcher::default();
        let (hp, seen) = answer_once("200 OK", body(&log));
        f.start(at(&hp), Trust::mozilla(), Ask::record("AB12", 3, dir.clone()).unwrap()).unwrap();
        let (ask, got) = wait(&mut f);
        assert_eq!(seen.join().unwrap(), "GET /v1/matches/AB12/3 HTTP/1.1");
        assert_eq!(ask.what(), "record");
        assert_eq!(got.unwrap(), Answer::Record("online_AB12_3".into()));
        assert_eq!(std::fs::read_to_string(dir.join("online_AB12_3.jsonl")).unwrap(), log);
        // A forged log (one card changed in a play) does not replay: refused, nothing kept.
        let forged = tamper(&log);
        let (hp, _) = answer_once("200 OK", body(&forged));
        f.start(at(&hp), Trust::mozilla(), Ask::record("AB12", 4, dir.clone()).unwrap()).unwrap();
        let fail = wait(&mut f).1.unwrap_err();
        assert!(matches!(fail.code, ErrorCode::LogMalformed | ErrorCode::LogRejected | ErrorCode::LogHash), "{fail:?}");
        assert!(!dir.join("online_AB12_4.jsonl").exists());
        std::fs::remove_dir_all(&dir).unwrap();
    }

    /// `log` with the first play's first card id changed to another card.
    fn tamper(log: &str) -> String {
        let mut lines: Vec<String> = log.lines().map(str::to_string).collect();
        let at = lines.iter().position(|l| l.contains("\"play\"") && l.contains("\"cards\":[")).expect("a play");
        let line = &lines[at];
        let start = line.find("\"cards\":[").unwrap() + "\"cards\":[".len();
        let end = start + line[start..].find([',', ']']).unwrap();
        let id: u32 = line[start..end].parse().unwrap();
        lines[at] = format!("{}{}{}", &line[..start], (id + 1) % 108, &line[end..]);
        lines.join("\n") + "\n"
    }
}
