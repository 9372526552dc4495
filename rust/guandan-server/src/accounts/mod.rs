//! Accounts that follow the player (issue 36). A guest is a player id with one session; the
//! player may claim the account with a login name and password (then log in on any device), or
//! move it with a one-time transfer code. Every device holds a session token of its own (only
//! its SHA-256 is stored); tokens expire when unused and at a limit, and are rotated at `hello`
//! as they age. Rating, history and statistics hang off the player id, so they follow.
//!
//! Nothing here logs, stores or answers with a password, token or code: they travel as
//! [`guandan_proto::Secret`] (whose `Debug` is `[redacted]`) and are hashed where they arrive.

mod clock;
mod hash_lines;
pub mod hash_queue;
pub mod limits;
mod live;
mod metrics;
mod password;
mod record;
pub mod routes;

pub use clock::Clock;
pub use live::Live;
pub use metrics::AccountMetrics;
pub use password::{HashError, Passwords};
pub use record::LoginRecord;

use crate::App;
use crate::auth::{hash_token, new_token};
use crate::config::Config;
use crate::db::DbError;
use guandan_proto::Secret;
use limits::Buckets;
use std::net::IpAddr;
use std::sync::Arc;
use std::sync::atomic::{AtomicI64, Ordering::Relaxed};

const DAY_MS: i64 = 86_400_000;
/// A session's last use is written at most this often (a `hello` is not a write each time).
const TOUCH_EVERY_MS: i64 = 3_600_000;
/// A token whose successor was handed out less than this ago is not rotated again: two
/// connections greeting with one token at once both keep working, and a thief replaying an old
/// token cannot take the successor from the device that got it.
const ROTATION_RETRY_MS: i64 = DAY_MS;
/// Expired sessions and codes are deleted at most this often (when an account is used).
const SWEEP_EVERY_MS: i64 = 3_600_000;

/// How long sessions and codes live (from the command line).
#[derive(Clone, Copy, Debug)]
pub struct Policy {
    pub idle_ms: i64,
    pub max_ms: i64,
    pub rotate_ms: i64,
    pub transfer_ttl_ms: i64,
}

impl Policy {
    fn of(cfg: &Config) -> Policy {
        Policy {
            idle_ms: i64::from(cfg.session_idle_days) * DAY_MS,
            max_ms: i64::from(cfg.session_max_days) * DAY_MS,
            rotate_ms: i64::from(cfg.session_rotate_days) * DAY_MS,
            transfer_ttl_ms: i64::try_from(cfg.transfer_code_ttl_s).unwrap_or(i64::MAX / 1000) * 1000,
        }
    }
}

/// The accounts' shared state.
pub struct Accounts {
    pub clock: Clock,
    pub policy: Policy,
    /// This instance's authenticated connections (closed by a log out).
    pub live: Live,
    passwords: password::Passwords,
    /// Which lane of the hash queue a login waits in.
    record: LoginRecord,
    /// Failed logins per login name (its lower case), whether the name exists or not.
    failures_per_name: Buckets<String>,
    /// Login and claim attempts per source address (each costs a password hash).
    logins_per_source: Buckets<IpAddr>,
    /// Transfer code redemptions per source address.
    transfers_per_source: Buckets<IpAddr>,
    last_sweep: AtomicI64,
}

impl Accounts {
    pub fn new(cfg: &Config) -> Accounts {
        let clock = Clock::default();
        // The first sweep an hour after the start: none in the rush of reconnections then.
        let last_sweep = AtomicI64::new(clock.now_ms());
        Accounts {
            clock,
            policy: Policy::of(cfg),
            live: Live::default(),
            passwords: password::Passwords::new(cfg.password_hashers(), cfg.password_queue as usize),
            record: LoginRecord::default(),
            failures_per_name: Buckets::per_hour(cfg.login_failures_per_name_per_hour),
            logins_per_source: Buckets::per_hour(cfg.logins_per_ip_per_hour),
            transfers_per_source: Buckets::per_hour(cfg.transfers_per_ip_per_hour),
            last_sweep,
        }
    }
}

impl Accounts {
    /// Passwords checked so far (against an account's hash or the dummy).
    pub fn password_checks(&self) -> u64 {
        self.passwords.checks()
    }

    /// Logins and claims waiting for a password hash in each lane, and the most hashes that got
    /// their turn while a known (clean) login waited (the queue's promise for the known lane: 0).
    pub fn hash_queue(&self) -> hash_queue::QueueNow {
        self.passwords.queue()
    }
}

/// A token that was accepted.
pub struct Authed {
    pub player_id: String,
    pub nickname: String,
    /// The hash of the session's token (after a rotation, of the new one).
    pub session: String,
    /// The token the session was rotated to (only when asked to rotate).
    pub new_token: Option<Secret>,
}

#[derive(Debug)]
pub enum AuthError {
    /// No such session (or not this player's).
    Unknown,
    /// The session expired (unused too long, or past its limit); it is deleted.
    Expired,
    Db(DbError),
}

impl From<DbError> for AuthError {
    fn from(e: DbError) -> Self {
        AuthError::Db(e)
    }
}

/// Whether a string can be a session token at all (64 hex digits): anything else is refused
/// without a database read.
fn well_formed(token: &str) -> bool {
    token.len() == 64 && token.bytes().all(|b| b.is_ascii_hexdigit())
}

/// Checks a session token (of `player_id`, when the caller names one, as `hello` does) and
/// notes its use. With `rotate` (a `hello`: its `welcome` can carry a new token), a token older
/// than `--session-rotate-days` is replaced by a new one.
pub async fn authenticate(
    app: &Arc<App>,
    player_id: Option<&str>,
    token: &str,
    rotate: bool,
) -> Result<Authed, AuthError> {
    if !well_formed(token) {
        return Err(AuthError::Unknown);
    }
    let (hash, now, policy) = (hash_token(token), app.accounts().clock.now_ms(), app.accounts().policy);
    sweep(app, now);
    let Some(row) = app.db().session(&hash).await? else { return Err(AuthError::Unknown) };
    if player_id.is_some_and(|p| p != row.player_id) {
        return Err(AuthError::Unknown);
    }
    if now >= row.expires_at || now - row.last_used_at >= policy.idle_ms {
        app.metrics().accounts.expired.inc();
        if let Err(e) = app.db().end_session(&hash).await {
            tracing::warn!(error = %e, "expired session not deleted");
        }
        return Err(AuthError::Expired);
    }
    if row.rotated_from.is_some() || now - row.last_used_at >= TOUCH_EVERY_MS {
        app.db().session_used(&hash, row.rotated_from.as_deref(), now).await?;
    }
    let mut authed =
        Authed { player_id: row.player_id, nickname: row.nickname, session: hash.clone(), new_token: None };
    if rotate && now - row.created_at >= policy.rotate_ms {
        let retry = match &row.successor {
            None => true,
            Some(s) => app.db().session(s).await?.is_none_or(|r| now - r.created_at >= ROTATION_RETRY_MS),
        };
        if retry {
            let token = new_token();
            let fresh = hash_token(&token);
            if app.db().rotate_session(&hash, &fresh, now, now.saturating_add(policy.max_ms)).await? {
                app.metrics().accounts.rotations.inc();
                authed.session = fresh;
                authed.new_token = Some(Secret::from(token));
            }
        }
    }
    Ok(authed)
}

/// A new session of `player_id` on a device: its token (stored hashed).
pub async fn open_session(app: &Arc<App>, player_id: &str, device: Option<&str>) -> Result<Secret, DbError> {
    let token = new_token();
    let now = app.accounts().clock.now_ms();
    let expires = now.saturating_add(app.accounts().policy.max_ms);
    app.db().add_session(&hash_token(&token), player_id, now, expires, device).await?;
    Ok(Secret::from(token))
}

/// A new guest: its player id and first session's token.
pub async fn new_guest(app: &Arc<App>, nickname: &str) -> Result<(String, Secret), DbError> {
    let (id, token) = (crate::auth::new_player_id(), new_token());
    let now = app.accounts().clock.now_ms();
    let expires = now.saturating_add(app.accounts().policy.max_ms);
    app.db().add_guest(&id, nickname, &hash_token(&token), now, expires).await?;
    Ok((id, Secret::from(token)))
}

/// A transfer code: [`guandan_proto::TRANSFER_CODE_LEN`] characters of the room codes'
/// alphabet from the OS's generator, each equally likely (bytes that would favour some letters
/// are drawn again).
pub fn new_transfer_code() -> String {
    let alphabet = guandan_proto::ROOM_CODE_ALPHABET;
    // The largest multiple of the alphabet's size that fits a byte: bytes from it up are skewed.
    let fair = (256 / alphabet.len() * alphabet.len()) as u8;
    let mut code = String::with_capacity(guandan_proto::TRANSFER_CODE_LEN);
    while code.len() < guandan_proto::TRANSFER_CODE_LEN {
        for b in crate::auth::random_bytes::<16>() {
            if b < fair && code.len() < guandan_proto::TRANSFER_CODE_LEN {
                code.push(alphabet[b as usize % alphabet.len()] as char);
            }
        }
    }
    code
}

/// Deletes expired sessions and codes in the background, at most every [`SWEEP_EVERY_MS`].
fn sweep(app: &Arc<App>, now: i64) {
    let last = app.accounts().last_sweep.load(Relaxed);
    if now - last < SWEEP_EVERY_MS || app.accounts().last_sweep.compare_exchange(last, now, Relaxed, Relaxed).is_err() {
        return;
    }
    let app = app.clone();
    tokio::spawn(async move {
        match app.db().drop_expired(now, now - app.accounts().policy.idle_ms).await {
            Ok(n) if n > 0 => tracing::info!(sessions = n, "expired sessions deleted"),
            Ok(_) => {}
            Err(e) => tracing::warn!(error = %e, "expired sessions not deleted"),
        }
    });
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn transfer_codes_are_well_formed_and_spread_over_the_alphabet() {
        let mut seen = std::collections::HashSet::new();
        let mut counts = [0u32; 31];
        for _ in 0..2000 {
            let c = new_transfer_code();
            assert_eq!(guandan_proto::parse_transfer_code(&c).as_deref(), Ok(c.as_str()));
            for b in c.bytes() {
                counts[guandan_proto::ROOM_CODE_ALPHABET.iter().position(|&a| a == b).unwrap()] += 1;
            }
            assert!(seen.insert(c), "a repeat in 2000 codes of 8 × 10^14");
        }
        // 20,000 characters: about 645 of each letter; every letter well within reach of it.
        assert!(counts.iter().all(|&n| (450..850).contains(&n)), "{counts:?}");
    }

    #[test]
    fn only_hex_tokens_are_looked_up() {
        assert!(well_formed(&new_token()));
        assert!(!well_formed("abc"));
        assert!(!well_formed(&"g".repeat(64)));
        assert!(!well_formed(&"a".repeat(65)));
    }
}
