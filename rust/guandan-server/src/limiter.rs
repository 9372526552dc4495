//! The server's limiters. [`Keyed`]: the map every per-key limit uses (public reads and guest
//! accounts per address in `listener.rs`; logins, claims and transfer codes per name or address
//! in `accounts/limits.rs`): one state per key behind one lock, and once more than [`MAX_KEYS`]
//! keys are kept, the keys whose state is as good as new are forgotten, so a flood of distinct
//! keys costs bounded memory. [`TokenBucket`]: the one token bucket on the monotonic clock, for
//! a connection's messages (`conn.rs`), its WebSocket frames (`ws_guard.rs`) and an address's
//! public reads (`listener.rs`, in a `Keyed`). The accounts' hourly buckets run on the accounts'
//! own clock (tests move it), so they keep their own state type, also in a `Keyed`.

use parking_lot::Mutex;
use std::collections::HashMap;
use std::hash::Hash;
use std::time::Duration;
use tokio::time::Instant;

/// Keys kept before those whose state is as good as new are forgotten.
pub const MAX_KEYS: usize = 10_000;

/// A limit's state for one key.
pub trait KeyState {
    /// The moment the state is read at (an `Instant`, the accounts' epoch ms).
    type At: Copy;
    /// Whether the state at `at` is as good as a fresh one (it may be forgotten).
    fn is_fresh(&self, at: Self::At) -> bool;
}

pub struct Keyed<K, S> {
    map: Mutex<HashMap<K, S>>,
}

impl<K, S> Default for Keyed<K, S> {
    fn default() -> Self {
        Keyed { map: Mutex::new(HashMap::new()) }
    }
}

impl<K: Hash + Eq, S: KeyState> Keyed<K, S> {
    /// Runs `f` on `key`'s state (made by `fresh` if it has none) at `at`.
    pub fn with<R>(&self, key: K, at: S::At, fresh: impl FnOnce() -> S, f: impl FnOnce(&mut S) -> R) -> R {
        let mut map = self.map.lock();
        if map.len() > MAX_KEYS {
            map.retain(|_, s| !s.is_fresh(at));
        }
        f(map.entry(key).or_insert_with(fresh))
    }

    /// Runs `f` on `key`'s state if it has one.
    pub fn with_existing<R>(&self, key: &K, f: impl FnOnce(&mut S) -> R) -> Option<R> {
        self.map.lock().get_mut(key).map(f)
    }

    pub fn len(&self) -> usize {
        self.map.lock().len()
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }
}

/// `rate` tokens a second, up to `burst`; starts full. On tokio's clock, which tests may pause.
#[derive(Clone, Debug)]
pub struct TokenBucket {
    tokens: f64,
    rate: f64,
    burst: f64,
    last: Instant,
}

impl TokenBucket {
    pub fn new(rate: f64, burst: f64) -> Self {
        TokenBucket { tokens: burst, rate: rate.max(f64::MIN_POSITIVE), burst, last: Instant::now() }
    }

    fn refill(&mut self, now: Instant) {
        let dt = now.saturating_duration_since(self.last).as_secs_f64();
        self.last = now;
        self.tokens = (self.tokens + dt * self.rate).min(self.burst);
    }

    /// Whether the bucket would be full at `now` (nothing spent that has not come back).
    pub fn is_full(&self, now: Instant) -> bool {
        self.tokens + now.saturating_duration_since(self.last).as_secs_f64() * self.rate >= self.burst
    }

    /// Takes one token; false (nothing taken) when there is none.
    pub fn allow(&mut self, now: Instant) -> bool {
        self.refill(now);
        if self.tokens >= 1.0 {
            self.tokens -= 1.0;
            true
        } else {
            false
        }
    }

    /// Spends `n` tokens whatever is left (what was read already): the bucket may go into debt.
    pub fn spend(&mut self, n: f64) {
        self.tokens -= n;
    }

    /// When the bucket is out of debt (`None`: now).
    pub fn wait_until(&mut self, now: Instant) -> Option<Instant> {
        self.refill(now);
        (self.tokens < 0.0).then(|| now + Duration::from_secs_f64(-self.tokens / self.rate))
    }
}

impl KeyState for TokenBucket {
    type At = Instant;
    /// Filled up again: as good as new.
    fn is_fresh(&self, now: Instant) -> bool {
        self.is_full(now)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Hits at an integer time; fresh once no hit is later than 10 before `at`.
    struct Hits(Vec<i64>);
    impl KeyState for Hits {
        type At = i64;
        fn is_fresh(&self, at: i64) -> bool {
            self.0.iter().all(|t| at - t >= 10)
        }
    }

    #[test]
    fn a_bucket_allows_its_burst_then_its_rate_and_pays_a_debt_back() {
        let mut r = TokenBucket::new(10.0, 5.0);
        let t0 = Instant::now();
        assert!((0..5).all(|_| r.allow(t0)));
        assert!(!r.allow(t0));
        assert!(r.allow(t0 + Duration::from_millis(150)));
        assert!(!r.allow(t0 + Duration::from_millis(150)));
        let t1 = t0 + Duration::from_secs(10);
        assert!(r.is_full(t1) && r.wait_until(t1).is_none());
        r.spend(7.0);
        let until = r.wait_until(t1).expect("in debt");
        assert_eq!(until, t1 + Duration::from_millis(200), "2 tokens of debt at 10 a second");
        assert!(r.wait_until(until).is_none());
    }

    #[test]
    fn a_flood_of_keys_is_bounded_and_live_keys_stay() {
        let k: Keyed<u32, Hits> = Keyed::default();
        k.with(0, 0, || Hits(Vec::new()), |h| h.0.push(1_000_000));
        for key in 1..=(MAX_KEYS as u32 + 1) {
            k.with(key, 0, || Hits(Vec::new()), |h| h.0.push(0));
        }
        assert_eq!(k.len(), MAX_KEYS + 2);
        // Past the bound, at a time when every old key is fresh again: they go, the live one stays.
        k.with(u32::MAX, 100, || Hits(Vec::new()), |h| h.0.push(100));
        assert_eq!(k.len(), 2);
        assert_eq!(k.with_existing(&0, |h| h.0.len()), Some(1), "a key still limited is kept");
    }
}
