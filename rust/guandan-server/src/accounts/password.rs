//! Passwords: argon2id with RustCrypto's default cost (19 MiB, 2 passes, 1 lane: OWASP's
//! minimum for argon2id), a 16-byte salt from the OS, stored as a PHC string
//! (`$argon2id$v=19$m=19456,t=2,p=1$…`). Hashing runs on the blocking pool, at most
//! [`HASHERS`] at once, so a burst of logins queues instead of taking every core and the
//! memory of the rooms. An unknown login name is checked against a dummy hash of the same cost:
//! the answer takes as long as for a wrong password.

use argon2::password_hash::{PasswordHasher, PasswordVerifier};
use argon2::{Algorithm, Argon2, Params, Version};
use guandan_proto::Secret;
use std::sync::atomic::{AtomicU64, Ordering::Relaxed};
use tokio::sync::{OnceCell, Semaphore};

/// Hashes computed at once (each holds 19 MiB while it runs).
pub const HASHERS: usize = 2;

pub struct Passwords {
    turns: Semaphore,
    dummy: OnceCell<String>,
    /// Passwords checked against a hash (a real or the dummy one): tests see that an unknown
    /// name costs a check like a wrong password.
    checks: AtomicU64,
}

impl Default for Passwords {
    fn default() -> Self {
        Passwords { turns: Semaphore::new(HASHERS), dummy: OnceCell::new(), checks: AtomicU64::new(0) }
    }
}

fn argon2() -> Argon2<'static> {
    Argon2::new(Algorithm::Argon2id, Version::V0x13, Params::DEFAULT)
}

fn hash_now(password: &[u8]) -> Result<String, String> {
    let salt: [u8; 16] = crate::auth::random_bytes();
    argon2().hash_password_with_salt(password, &salt).map(|h| h.to_string()).map_err(|e| e.to_string())
}

impl Passwords {
    pub fn checks(&self) -> u64 {
        self.checks.load(Relaxed)
    }

    /// The PHC string of a new password. The error names the hasher's failure, never the input.
    pub async fn hash(&self, password: Secret) -> Result<String, String> {
        let _turn = self.turns.acquire().await.map_err(|e| e.to_string())?;
        tokio::task::spawn_blocking(move || hash_now(password.expose().as_bytes())).await.map_err(|e| e.to_string())?
    }

    /// Whether `password` matches the stored PHC string; `None` (no such account) checks a
    /// dummy hash instead, with the same cost, and is false.
    pub async fn verify(&self, password: Secret, stored: Option<String>) -> bool {
        // Made at the first check of any kind, so no answer about an unknown name is the only
        // slow one.
        let dummy = match self.dummy.get_or_try_init(|| self.hash(Secret::new(crate::auth::new_token()))).await {
            Ok(d) => d.clone(),
            Err(_) => return false,
        };
        let known = stored.is_some();
        let phc = stored.unwrap_or(dummy);
        let Ok(_turn) = self.turns.acquire().await else { return false };
        self.checks.fetch_add(1, Relaxed);
        let ok = tokio::task::spawn_blocking(move || {
            argon2().verify_password(password.expose().as_bytes(), phc.as_str()).is_ok()
        })
        .await
        .unwrap_or(false);
        ok && known
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test]
    async fn hashes_are_salted_argon2id_and_verify() {
        let p = Passwords::default();
        let a = p.hash("correct horse".into()).await.unwrap();
        let b = p.hash("correct horse".into()).await.unwrap();
        assert!(a.starts_with("$argon2id$v=19$m=19456,t=2,p=1$"), "{a}");
        assert_ne!(a, b, "salted");
        assert!(!a.contains("correct"));
        assert!(p.verify("correct horse".into(), Some(a.clone())).await);
        assert!(!p.verify("correct horsf".into(), Some(a)).await);
        assert!(!p.verify("correct horse".into(), None).await, "no account: never a match");
        assert!(!p.verify("x".into(), Some("not a phc string".into())).await);
    }
}
