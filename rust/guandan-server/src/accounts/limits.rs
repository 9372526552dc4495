//! Attempt limits of the accounts (logins, claims, transfer codes): a token bucket per key (a
//! login name, a source address). A bucket holds up to `capacity` attempts and refills at
//! `capacity` an hour, so a key gets a burst of `capacity` and then one attempt every
//! hour / `capacity`; a refused attempt is told how long until the next one. Time is the
//! accounts' clock (epoch ms), so tests move it instead of waiting.

use crate::limiter::{KeyState, Keyed};
use std::hash::Hash;

const HOUR_MS: f64 = 3_600_000.0;

pub struct Buckets<K> {
    capacity: f64,
    /// Attempts regained per ms.
    refill: f64,
    buckets: Keyed<K, Bucket>,
}

#[derive(Clone, Copy)]
struct Bucket {
    tokens: f64,
    at: i64,
    capacity: f64,
    refill: f64,
}

impl Bucket {
    fn at(self, now: i64) -> Bucket {
        let dt = now.saturating_sub(self.at).max(0) as f64;
        Bucket { tokens: (self.tokens + dt * self.refill).min(self.capacity), at: now.max(self.at), ..self }
    }
}

impl KeyState for Bucket {
    type At = i64;
    /// Filled up again: as good as new.
    fn is_fresh(&self, now: i64) -> bool {
        self.at(now).tokens >= self.capacity
    }
}

impl<K: Hash + Eq + Clone> Buckets<K> {
    /// `per_hour` attempts a key, all of them at once if it likes (at least 1).
    pub fn per_hour(per_hour: u32) -> Self {
        let capacity = f64::from(per_hour.max(1));
        Buckets { capacity, refill: capacity / HOUR_MS, buckets: Keyed::default() }
    }

    /// Spends one attempt of `key` at `now`; `Err(ms)` (nothing spent) when it has none left:
    /// the next one comes in `ms`.
    pub fn take(&self, key: &K, now: i64) -> Result<(), i64> {
        let (capacity, refill) = (self.capacity, self.refill);
        let fresh = || Bucket { tokens: capacity, at: now, capacity, refill };
        self.buckets.with(key.clone(), now, fresh, |stored| {
            let b = stored.at(now);
            if b.tokens >= 1.0 {
                *stored = Bucket { tokens: b.tokens - 1.0, ..b };
                Ok(())
            } else {
                *stored = b;
                Err(((1.0 - b.tokens) / refill).ceil() as i64)
            }
        })
    }

    /// Gives back an attempt taken (it turned out not to count: a successful login).
    pub fn give_back(&self, key: &K, now: i64) {
        self.buckets.with_existing(key, |b| {
            let mut n = b.at(now);
            n.tokens = (n.tokens + 1.0).min(n.capacity);
            *b = n;
        });
    }
}

/// A wait for the player: "30 seconds", "4 minutes", "2 hours".
pub fn say_wait(ms: i64) -> String {
    let s = (ms.max(1) + 999) / 1000;
    let (n, unit) = if s < 90 {
        (s, "second")
    } else if s < 90 * 60 {
        ((s + 59) / 60, "minute")
    } else {
        ((s + 3599) / 3600, "hour")
    };
    format!("{n} {unit}{}", if n == 1 { "" } else { "s" })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_burst_then_one_every_hour_over_capacity() {
        let b = Buckets::per_hour(6);
        let t0 = 1_000_000;
        assert!((0..6).all(|_| b.take(&"ann", t0).is_ok()));
        // The next attempt in 10 minutes (an hour / 6).
        assert_eq!(b.take(&"ann", t0), Err(600_000));
        assert!(b.take(&"bob", t0).is_ok(), "keys are apart");
        assert_eq!(b.take(&"ann", t0 + 300_000), Err(300_000), "half way");
        assert!(b.take(&"ann", t0 + 600_000).is_ok());
        assert!(b.take(&"ann", t0 + 600_000).is_err());
        b.give_back(&"ann", t0 + 600_000);
        assert!(b.take(&"ann", t0 + 600_000).is_ok(), "given back");
        // A clock that goes back never adds attempts.
        assert!(b.take(&"ann", t0).is_err());
    }

    #[test]
    fn waits_read_as_people_say_them() {
        assert_eq!(say_wait(1), "1 second");
        assert_eq!(say_wait(30_000), "30 seconds");
        assert_eq!(say_wait(360_000), "6 minutes");
        assert_eq!(say_wait(2 * 3_600_000), "2 hours");
    }
}
