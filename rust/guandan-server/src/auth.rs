//! Identities: a random player id and random session tokens (only a token's SHA-256 is stored,
//! and a presented token is looked up by it: crate::accounts). Room codes come from the same OS
//! randomness (31^6 ≈ 887 million codes).

use guandan_proto::{ROOM_CODE_ALPHABET, ROOM_CODE_LEN};
use sha2::{Digest, Sha256};

pub fn random_bytes<const N: usize>() -> [u8; N] {
    let mut b = [0u8; N];
    // The OS generator only fails on broken systems; a zero id would then collide and be refused.
    let _ = getrandom::fill(&mut b);
    b
}

/// A 64-bit number from the OS's cryptographic generator; `None` if the OS cannot give one
/// (never a fallback value: a predictable match seed would show every hand).
pub fn os_random_u64() -> Option<u64> {
    let mut b = [0u8; 8];
    getrandom::fill(&mut b).ok().map(|()| u64::from_le_bytes(b))
}

pub fn new_player_id() -> String {
    hex::encode(random_bytes::<12>())
}

pub fn new_token() -> String {
    hex::encode(random_bytes::<32>())
}

pub fn hash_token(token: &str) -> String {
    hex::encode(Sha256::digest(token.as_bytes()))
}

pub fn new_room_code() -> String {
    random_bytes::<ROOM_CODE_LEN>()
        .iter()
        .map(|&b| ROOM_CODE_ALPHABET[b as usize % ROOM_CODE_ALPHABET.len()] as char)
        .collect()
}

/// Nicknames: the protocol's rule ([`guandan_proto::check_nickname`]).
pub fn valid_nickname(n: &str) -> bool {
    guandan_proto::valid_nickname(n)
}

/// Per-connection token bucket: `rate` messages per second, `burst` above it.
pub struct RateLimit {
    tokens: f64,
    rate: f64,
    burst: f64,
    last: std::time::Instant,
}

impl RateLimit {
    pub fn new(rate: f64, burst: f64) -> Self {
        RateLimit { tokens: burst, rate, burst, last: std::time::Instant::now() }
    }

    /// Whether the bucket would be full at `now` (nothing spent that has not come back).
    pub fn is_full(&self, now: std::time::Instant) -> bool {
        self.tokens + now.saturating_duration_since(self.last).as_secs_f64() * self.rate >= self.burst
    }

    /// Takes one token; false when the connection is over its rate.
    pub fn allow(&mut self, now: std::time::Instant) -> bool {
        let dt = now.saturating_duration_since(self.last).as_secs_f64();
        self.last = now;
        self.tokens = (self.tokens + dt * self.rate).min(self.burst);
        if self.tokens >= 1.0 {
            self.tokens -= 1.0;
            true
        } else {
            false
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::{Duration, Instant};

    #[test]
    fn tokens_and_codes() {
        let t = new_token();
        assert_eq!(t.len(), 64);
        assert_eq!(hash_token(&t), hash_token(&t.clone()));
        assert_ne!(hash_token(&new_token()), hash_token(&t));
        assert_ne!(new_player_id(), new_player_id());
        for _ in 0..100 {
            assert!(guandan_proto::valid_room_code(&new_room_code()));
        }
        assert!(valid_nickname("小明"));
        assert!(!valid_nickname(""));
        assert!(!valid_nickname(" x"));
        assert!(!valid_nickname(&"x".repeat(25)));
    }

    #[test]
    fn rate_limit_allows_burst_then_rate() {
        let mut r = RateLimit::new(10.0, 5.0);
        let t0 = Instant::now();
        assert!((0..5).all(|_| r.allow(t0)));
        assert!(!r.allow(t0));
        assert!(r.allow(t0 + Duration::from_millis(150)));
        assert!(!r.allow(t0 + Duration::from_millis(150)));
    }
}
