//! What the server process costs, read from `/proc/PID` (same machine, `--server-pid`): its
//! resident memory (sampled for the peak) and the CPU time it has used.

use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering::Relaxed};
use std::time::Duration;

/// Resident memory in KB (`VmRSS`).
pub(crate) fn rss_kb(pid: u32) -> Option<u64> {
    let s = std::fs::read_to_string(format!("/proc/{pid}/status")).ok()?;
    s.lines().find(|l| l.starts_with("VmRSS:"))?.split_whitespace().nth(1)?.parse().ok()
}

/// User + system CPU time used so far, in µs.
pub(crate) fn cpu_us(pid: u32) -> Option<u64> {
    let s = std::fs::read_to_string(format!("/proc/{pid}/stat")).ok()?;
    ticks_of_stat(&s).map(|t| t * 1_000_000 / clock_ticks_per_s())
}

/// utime + stime (fields 14 and 15) of a `/proc/PID/stat` line. The command name (field 2) is
/// in parentheses and may hold spaces: fields are counted after its closing parenthesis.
fn ticks_of_stat(stat: &str) -> Option<u64> {
    let rest = &stat[stat.rfind(')')? + 1..];
    let mut f = rest.split_whitespace().skip(11);
    let utime: u64 = f.next()?.parse().ok()?;
    let stime: u64 = f.next()?.parse().ok()?;
    Some(utime + stime)
}

#[cfg(unix)]
fn clock_ticks_per_s() -> u64 {
    // SAFETY: sysconf has no preconditions; a failure (-1) falls back to Linux's usual 100.
    let t = unsafe { libc::sysconf(libc::_SC_CLK_TCK) };
    if t > 0 { t as u64 } else { 100 }
}

#[cfg(not(unix))]
fn clock_ticks_per_s() -> u64 {
    100
}

/// Samples the server's resident memory every half second; the peak is kept.
pub(crate) struct PeakRss {
    peak: Arc<AtomicU64>,
    task: tokio::task::JoinHandle<()>,
}

impl PeakRss {
    pub(crate) fn start(pid: u32) -> PeakRss {
        let peak = Arc::new(AtomicU64::new(0));
        let p = peak.clone();
        let task = tokio::spawn(async move {
            loop {
                if let Some(kb) = rss_kb(pid) {
                    p.fetch_max(kb, Relaxed);
                }
                tokio::time::sleep(Duration::from_millis(500)).await;
            }
        });
        PeakRss { peak, task }
    }

    pub(crate) fn stop(self) -> u64 {
        self.task.abort();
        self.peak.load(Relaxed)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cpu_ticks_are_read_after_the_command_name() {
        let line = "4242 (guandan server) S 1 4242 4242 0 -1 4194560 300 0 0 0 1234 567 0 0 20 0 9 0 100 0 0";
        assert_eq!(ticks_of_stat(line), Some(1234 + 567));
        assert_eq!(ticks_of_stat("garbage"), None);
    }

    #[cfg(target_os = "linux")]
    #[test]
    fn this_process_has_memory_and_cpu_time() {
        let pid = std::process::id();
        assert!(rss_kb(pid).is_some_and(|kb| kb > 0));
        // Burn a little CPU so the reading is above zero.
        let mut x = 0u64;
        for i in 0..50_000_000u64 {
            x = x.wrapping_mul(31).wrapping_add(i);
        }
        std::hint::black_box(x);
        assert!(cpu_us(pid).is_some_and(|us| us > 0));
        assert_eq!(cpu_us(u32::MAX), None);
    }
}
