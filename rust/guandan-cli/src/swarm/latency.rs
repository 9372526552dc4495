//! The swarm's round trips, in real histograms (HdrHistogram, 3 significant digits from 1 µs to
//! an hour), kept apart by phase: the ramp (rooms still being set up), the steady state (every
//! room playing, until `--duration-s` ends it) and the drain (the matches being ended). The
//! steady state's figures are the server's at its load; the ramp's include the set-up burst.

use hdrhistogram::Histogram;
use std::sync::Mutex;
use std::sync::atomic::{AtomicU8, AtomicU64, Ordering::Relaxed};

/// Where the run is.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(crate) enum Phase {
    Ramp = 0,
    Steady = 1,
    Drain = 2,
}

pub(crate) struct Latency {
    phase: AtomicU8,
    /// Actions announced to seat 0's clients during the steady state (each action once).
    steady_actions: AtomicU64,
    hists: Mutex<[Histogram<u64>; 3]>,
    all: Mutex<Histogram<u64>>,
}

/// One hour in µs: the largest round trip kept exactly (larger ones are clamped to it).
const MAX_US: u64 = 3_600_000_000;

fn histogram() -> Histogram<u64> {
    Histogram::new_with_bounds(1, MAX_US, 3).expect("static bounds are valid")
}

impl Default for Latency {
    fn default() -> Self {
        Latency {
            phase: AtomicU8::new(Phase::Ramp as u8),
            steady_actions: AtomicU64::new(0),
            hists: Mutex::new([histogram(), histogram(), histogram()]),
            all: Mutex::new(histogram()),
        }
    }
}

impl Latency {
    pub(crate) fn phase(&self) -> Phase {
        match self.phase.load(Relaxed) {
            0 => Phase::Ramp,
            1 => Phase::Steady,
            _ => Phase::Drain,
        }
    }

    /// Moves on to `p` unless the run is past it already (phases only go forward).
    pub(crate) fn enter_at_least(&self, p: Phase) {
        self.phase.fetch_max(p as u8, Relaxed);
    }

    /// An intent's round trip (µs), in the current phase's histogram and the whole run's.
    pub(crate) fn record(&self, us: u64) {
        let us = us.clamp(1, MAX_US);
        let phase = self.phase() as usize;
        self.hists.lock().unwrap_or_else(|e| e.into_inner())[phase].saturating_record(us);
        self.all.lock().unwrap_or_else(|e| e.into_inner()).saturating_record(us);
    }

    /// Seat 0's client heard of `n` actions.
    pub(crate) fn actions_heard(&self, n: u64) {
        if self.phase() == Phase::Steady {
            self.steady_actions.fetch_add(n, Relaxed);
        }
    }

    pub(crate) fn steady_actions(&self) -> u64 {
        self.steady_actions.load(Relaxed)
    }

    /// `{prefix}_ms_p50`, `_p99`, `_p999`, `_max` and `{prefix}_samples` of a phase (or of the
    /// whole run with `None`), in ms.
    pub(crate) fn report(
        &self,
        phase: Option<Phase>,
        prefix: &str,
        into: &mut serde_json::Map<String, serde_json::Value>,
    ) {
        let h = match phase {
            Some(p) => self.hists.lock().unwrap_or_else(|e| e.into_inner())[p as usize].clone(),
            None => self.all.lock().unwrap_or_else(|e| e.into_inner()).clone(),
        };
        let ms = |us: u64| us as f64 / 1000.0;
        let empty = h.is_empty();
        let at = |q: f64| if empty { 0.0 } else { ms(h.value_at_quantile(q)) };
        into.insert(format!("{prefix}_ms_p50"), at(0.50).into());
        into.insert(format!("{prefix}_ms_p99"), at(0.99).into());
        into.insert(format!("{prefix}_ms_p999"), at(0.999).into());
        into.insert(format!("{prefix}_ms_max"), (if empty { 0.0 } else { ms(h.max()) }).into());
        into.insert(format!("{prefix}_samples"), h.len().into());
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn phases_are_kept_apart_and_the_whole_run_has_them_all() {
        let l = Latency::default();
        for us in [1_000, 2_000, 900_000] {
            l.record(us);
        }
        l.actions_heard(5); // not steady yet: not counted
        l.enter_at_least(Phase::Steady);
        for us in 1..=1000 {
            l.record(us * 10);
        }
        l.actions_heard(7);
        l.enter_at_least(Phase::Drain);
        l.record(5_000_000);
        l.actions_heard(9);
        let mut m = serde_json::Map::new();
        l.report(Some(Phase::Steady), "steady_rtt", &mut m);
        l.report(Some(Phase::Ramp), "ramp_rtt", &mut m);
        l.report(None, "rtt", &mut m);
        assert_eq!(m["steady_rtt_samples"], 1000);
        // 1000 samples of 10..=10000 µs: p50 5 ms, p99 9.9 ms, max 10 ms (3 significant digits).
        let p50 = m["steady_rtt_ms_p50"].as_f64().unwrap();
        let p99 = m["steady_rtt_ms_p99"].as_f64().unwrap();
        assert!((4.99..=5.01).contains(&p50), "{p50}");
        assert!((9.89..=9.91).contains(&p99), "{p99}");
        assert!((9.99..=10.01).contains(&m["steady_rtt_ms_max"].as_f64().unwrap()));
        assert_eq!(m["ramp_rtt_samples"], 3);
        assert!(m["ramp_rtt_ms_max"].as_f64().unwrap() > 899.0);
        assert_eq!(m["rtt_samples"], 1004);
        assert!(m["rtt_ms_max"].as_f64().unwrap() > 4999.0);
        assert_eq!(l.steady_actions(), 7);
    }

    #[test]
    fn an_empty_phase_reports_zeros() {
        let l = Latency::default();
        let mut m = serde_json::Map::new();
        l.report(Some(Phase::Steady), "steady_rtt", &mut m);
        assert_eq!(m["steady_rtt_samples"], 0);
        assert_eq!(m["steady_rtt_ms_p99"], 0.0);
    }
}
