//! The keyed limiter every per-key limit uses (public reads and guest accounts per address in
//! `listener.rs`; logins, claims and transfer codes per name or address in `accounts/limits.rs`):
//! one state per key behind one lock, and once more than [`MAX_KEYS`] keys are kept, the keys
//! whose state is as good as new are forgotten, so a flood of distinct keys costs bounded memory.
//! What a state is (a token bucket, a sliding window) is the caller's.

use parking_lot::Mutex;
use std::collections::HashMap;
use std::hash::Hash;

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
