//! When a client tries again after its connection dropped: exponential backoff with jitter, for
//! at least a minute. Shared by every client (the game's `GuandanClient`, `guandan swarm`,
//! `guandan join`), so that a server that restarts is not met by all its players at the same
//! instant, and a restart that takes a while does not lose them. No I/O and no clock: the caller
//! says what time it is and gives the randomness.

use std::time::{Duration, Instant};

/// A reconnecting client's schedule.
#[derive(Clone, Debug)]
pub struct Backoff {
    /// The first wait's upper bound; each attempt doubles it up to `cap`.
    pub base: Duration,
    pub cap: Duration,
    /// How long after the first failure the client keeps trying.
    pub patience: Duration,
    attempt: u32,
    since: Option<Instant>,
}

/// At least this long: a server restart (on a fresh machine, after a crash) takes seconds to tens
/// of seconds.
pub const RECONNECT_PATIENCE: Duration = Duration::from_secs(90);

impl Backoff {
    /// The clients' schedule: waits of 0.25 s doubling to at most 5 s, each jittered to between
    /// half and all of its bound, for 90 s.
    pub fn reconnect() -> Backoff {
        Backoff::new(Duration::from_millis(250), Duration::from_secs(5), RECONNECT_PATIENCE)
    }

    pub fn new(base: Duration, cap: Duration, patience: Duration) -> Backoff {
        Backoff { base, cap, patience, attempt: 0, since: None }
    }

    /// The wait before the next attempt, or `None` once the patience is spent (give up). `now`
    /// is when the last attempt failed; `random` any random number (the jitter).
    pub fn next_wait(&mut self, now: Instant, random: u64) -> Option<Duration> {
        let since = *self.since.get_or_insert(now);
        let spent = now.saturating_duration_since(since);
        if spent >= self.patience {
            return None;
        }
        let bound = self.base.saturating_mul(1u32 << self.attempt.min(16)).min(self.cap);
        self.attempt = self.attempt.saturating_add(1);
        // "Equal jitter": half the bound for sure, the other half at random.
        let half = bound / 2;
        let extra_ns = u64::try_from((bound - half).as_nanos()).unwrap_or(u64::MAX);
        let wait = half + Duration::from_nanos(if extra_ns == 0 { 0 } else { random % (extra_ns + 1) });
        // The last wait ends when the patience does (then one more attempt, then `None`).
        Some(wait.min(self.patience - spent))
    }

    /// Attempts made since the last success.
    pub fn attempts(&self) -> u32 {
        self.attempt
    }

    /// Connected again: the next failure starts a new schedule.
    pub fn reset(&mut self) {
        self.attempt = 0;
        self.since = None;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Runs a schedule to its end with instant failures: (total time, waits).
    fn run(mut b: Backoff, randoms: impl Fn(u32) -> u64) -> (Duration, Vec<Duration>) {
        let t0 = Instant::now();
        let mut now = t0;
        let mut waits = Vec::new();
        while let Some(w) = b.next_wait(now, randoms(b.attempts())) {
            waits.push(w);
            now += w;
            assert!(waits.len() < 10_000, "never gives up");
        }
        (now - t0, waits)
    }

    #[test]
    fn keeps_trying_for_at_least_a_minute_and_then_gives_up() {
        for r in [0u64, u64::MAX, 0x9E37_79B9_7F4A_7C15] {
            let (total, waits) = run(Backoff::reconnect(), |k| r.rotate_left(k * 7));
            assert!(total >= Duration::from_secs(60), "gave up after {total:?}");
            assert!(total <= RECONNECT_PATIENCE + Duration::from_secs(1), "{total:?}");
            assert!(waits.iter().all(|w| *w <= Duration::from_secs(5)), "{waits:?}");
            assert!(waits[0] <= Duration::from_millis(250) && waits[0] >= Duration::from_millis(125));
            // Backs off: attempts are not hammered at the same pace.
            assert!(waits[6] >= Duration::from_millis(2500), "{waits:?}");
            assert!(waits.len() >= 18, "{} attempts", waits.len());
        }
    }

    #[test]
    fn clients_that_lost_the_same_server_spread_out() {
        let (_, a) = run(Backoff::reconnect(), |k| 0x1234_5678_9ABC_DEF0u64.wrapping_mul(u64::from(k) + 1));
        let (_, b) = run(Backoff::reconnect(), |k| 0x0FED_CBA9_8765_4321u64.wrapping_mul(u64::from(k) + 3));
        let same = a.iter().zip(&b).filter(|(x, y)| x == y).count();
        assert!(same < a.len().min(b.len()) / 4, "jitter: {same} equal waits");
    }

    #[test]
    fn a_success_starts_a_new_schedule() {
        let mut b = Backoff::reconnect();
        let t0 = Instant::now();
        for k in 0..5 {
            b.next_wait(t0 + Duration::from_secs(k), 7);
        }
        b.reset();
        let later = t0 + Duration::from_secs(200);
        let w = b.next_wait(later, 0).expect("a fresh schedule after a success");
        assert_eq!(w, Duration::from_millis(125));
    }
}
