//! Passwords: argon2id with RustCrypto's default cost (19 MiB, 2 passes, 1 lane: OWASP's
//! minimum for argon2id), a 16-byte salt from the OS, stored as a PHC string
//! (`$argon2id$v=19$m=19456,t=2,p=1$…`). Hashing runs on the blocking pool, one hash a turn of
//! the [`HashQueue`] (`--password-hashers` at once, each holding 19 MiB while it runs), so a
//! burst of logins queues instead of taking every core and the memory of the rooms, and an
//! honest login is not queued behind a flood (the queue's known and clean lanes). An unknown
//! login name is checked against a dummy hash of the same cost: the answer takes as long as for
//! a wrong password.

use super::hash_queue::{Busy, HashQueue, Lane, QueueNow};
use argon2::password_hash::{PasswordHasher, PasswordVerifier};
use argon2::{Algorithm, Argon2, Params, Version};
use guandan_proto::Secret;
use std::net::IpAddr;
use std::sync::atomic::{AtomicU64, Ordering::Relaxed};
use std::time::Instant;
use tokio::sync::OnceCell;

pub struct Passwords {
    queue: HashQueue,
    dummy: OnceCell<String>,
    /// Passwords checked against a hash (a real or the dummy one), counted when the check gets
    /// its turn: tests see that an unknown name costs a check like a wrong password, and which
    /// checks went ahead of a login that waited.
    checks: AtomicU64,
}

/// A password could not be hashed: no turn now (try again later), or the hasher failed (its
/// error, never the input).
#[derive(Debug)]
pub enum HashError {
    Busy(Busy),
    Failed(String),
}

fn argon2() -> Argon2<'static> {
    Argon2::new(Algorithm::Argon2id, Version::V0x13, Params::DEFAULT)
}

fn hash_now(password: &[u8]) -> Result<String, String> {
    let salt: [u8; 16] = crate::auth::random_bytes();
    argon2().hash_password_with_salt(password, &salt).map(|h| h.to_string()).map_err(|e| e.to_string())
}

impl Passwords {
    /// `hashers` hashes at once; at most `rest_cap` waiters in the queue's rest lane.
    pub fn new(hashers: usize, rest_cap: usize) -> Passwords {
        Passwords { queue: HashQueue::new(hashers, rest_cap), dummy: OnceCell::new(), checks: AtomicU64::new(0) }
    }

    pub fn checks(&self) -> u64 {
        self.checks.load(Relaxed)
    }

    /// The queue's waiters, and the most turns given to others while a known or clean waiter
    /// waited.
    pub fn queue(&self) -> QueueNow {
        self.queue.now()
    }

    /// Runs `work` on the blocking pool in a turn of `lane`, noting its time; a password check
    /// (`check`) is counted as it gets its turn.
    async fn in_turn<T: Send + 'static>(
        &self,
        (lane, source): (Lane, IpAddr),
        check: bool,
        work: impl FnOnce() -> T + Send + 'static,
    ) -> Result<Result<T, String>, Busy> {
        let turn = self.queue.turn(lane, source).await?;
        if check {
            self.checks.fetch_add(1, Relaxed);
        }
        let started = Instant::now();
        let out = tokio::task::spawn_blocking(work).await.map_err(|e| e.to_string());
        self.queue.took(i64::try_from(started.elapsed().as_millis()).unwrap_or(i64::MAX));
        drop(turn);
        Ok(out)
    }

    /// The PHC string of a new password.
    pub async fn hash(&self, lane: Lane, source: IpAddr, password: Secret) -> Result<String, HashError> {
        match self.in_turn((lane, source), false, move || hash_now(password.expose().as_bytes())).await {
            Err(busy) => Err(HashError::Busy(busy)),
            Ok(Ok(Ok(phc))) => Ok(phc),
            Ok(Ok(Err(e)) | Err(e)) => Err(HashError::Failed(e)),
        }
    }

    /// Whether `password` matches the stored PHC string; `None` (no such account) checks a
    /// dummy hash instead, with the same cost, and is false. `Busy`: no turn now.
    pub async fn verify(
        &self,
        lane: Lane,
        source: IpAddr,
        password: Secret,
        stored: Option<String>,
    ) -> Result<bool, Busy> {
        // Made at the first check of any kind, so no answer about an unknown name is the only
        // slow one.
        let dummy = self.dummy.get_or_try_init(|| self.hash(lane, source, Secret::new(crate::auth::new_token()))).await;
        let dummy = match dummy {
            Ok(d) => d.clone(),
            Err(HashError::Busy(b)) => return Err(b),
            Err(HashError::Failed(_)) => return Ok(false),
        };
        let known = stored.is_some();
        let phc = stored.unwrap_or(dummy);
        let ok = self
            .in_turn((lane, source), true, move || {
                argon2().verify_password(password.expose().as_bytes(), phc.as_str()).is_ok()
            })
            .await?;
        Ok(ok.unwrap_or(false) && known)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test]
    async fn hashes_are_salted_argon2id_and_verify() {
        let p = Passwords::new(2, 64);
        let home = IpAddr::from([127, 0, 0, 1]);
        let a = p.hash(Lane::Known, home, "correct horse".into()).await.unwrap();
        let b = p.hash(Lane::Known, home, "correct horse".into()).await.unwrap();
        assert!(a.starts_with("$argon2id$v=19$m=19456,t=2,p=1$"), "{a}");
        assert_ne!(a, b, "salted");
        assert!(!a.contains("correct"));
        let verify = |pw: &str, stored: Option<String>| p.verify(Lane::Known, home, pw.into(), stored);
        assert_eq!(verify("correct horse", Some(a.clone())).await, Ok(true));
        assert_eq!(verify("correct horsf", Some(a)).await, Ok(false));
        assert_eq!(verify("correct horse", None).await, Ok(false), "no account: never a match");
        assert_eq!(verify("x", Some("not a phc string".into())).await, Ok(false));
    }
}
