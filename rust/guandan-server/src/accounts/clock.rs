//! The accounts' clock: wall time in epoch ms (sessions and codes are stored with it, and the
//! database outlives the process), which tests move forward instead of waiting days.

use std::sync::atomic::{AtomicI64, Ordering::Relaxed};
use std::time::Duration;

#[derive(Default)]
pub struct Clock {
    /// Added to the system's time: 0 unless a test moved the clock.
    offset_ms: AtomicI64,
}

impl Clock {
    pub fn now_ms(&self) -> i64 {
        crate::db::now_ms() + self.offset_ms.load(Relaxed)
    }

    /// Tests: the clock jumps forward by `d` (expiry, rotation and rate windows follow).
    pub fn advance(&self, d: Duration) {
        self.offset_ms.fetch_add(i64::try_from(d.as_millis()).unwrap_or(i64::MAX), Relaxed);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn advancing_moves_the_time_by_that_much() {
        let c = Clock::default();
        let before = c.now_ms();
        c.advance(Duration::from_secs(86_400));
        let after = c.now_ms();
        assert!(after - before >= 86_400_000 && after - before < 86_400_000 + 60_000, "{}", after - before);
    }
}
