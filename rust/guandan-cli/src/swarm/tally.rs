//! What the clients of a table saw (every state hash, every action announcement), the swarm's
//! totals, and the check of both against the match's stored record.

use super::link::Server;
use super::link::finished_match;
use std::sync::atomic::{AtomicU64, Ordering::Relaxed};

#[derive(Default)]
pub(crate) struct Totals {
    pub(crate) finished: AtomicU64,
    pub(crate) actions: AtomicU64,
    pub(crate) desyncs: AtomicU64,
    pub(crate) lost: AtomicU64,
    pub(crate) duplicated: AtomicU64,
    pub(crate) errors: AtomicU64,
    pub(crate) reconnects: AtomicU64,
    pub(crate) spectator_msgs: AtomicU64,
    pub(crate) failures: AtomicU64,
    /// Rooms whose match was started.
    pub(crate) started: AtomicU64,
    /// Attack messages sent (`--flood`).
    pub(crate) flood_msgs: AtomicU64,
    /// Round trips of every intent confirmed, finished room or not (a run cut short by
    /// `--timeout-s` still measures them), by phase.
    pub(crate) latency: super::latency::Latency,
    /// `--duration-s` is over: each table ends its match (seat 0 proposes to surrender, its
    /// partner and one opponent accept), and the stored record is checked as after any match.
    pub(crate) stop: std::sync::atomic::AtomicBool,
    /// Intents ending a match that were refused as stale (another seat acted first) and sent
    /// again: not protocol errors.
    pub(crate) ending_retries: AtomicU64,
    /// Protocol errors during the steady state (the rest come in the ramp or the drain).
    pub(crate) steady_errors: AtomicU64,
}

/// What one client saw. Compact (thousands of clients share the machine with the server):
/// indexed by action seq, hashes kept as their first 64 bits.
#[derive(Default)]
pub(crate) struct Seen {
    /// By action_seq: the state hash's first 64 bits, for every applied or state message.
    hashes: Vec<Option<u64>>,
    /// The newest action seq seen and its whole state hash (`guandan join` prints it).
    pub(crate) last: Option<(u64, String)>,
    /// By action seq: how often the action was announced to this client.
    counts: Vec<u8>,
    /// Action seqs up to which a full state answered a rejoin: the server's way to catch a
    /// client up, so the actions it covers were not lost (a state answering a gap on a live
    /// connection covers nothing: that gap is the server's loss).
    covered: Vec<u64>,
    /// Rejoined, and neither an action nor a state has come since.
    catching_up: bool,
    pub(crate) errors: u64,
    reconnects: u64,
}

/// The first 64 bits of a hex state hash (`None` if it is not hex).
fn hash_key(h: &str) -> Option<u64> {
    h.get(..16).and_then(|p| u64::from_str_radix(p, 16).ok())
}

impl Seen {
    /// A client coming to the table: the first full state it gets covers what came before it
    /// (a quick-match table's AI seats may act before its players arrive).
    pub(crate) fn arriving() -> Seen {
        Seen { catching_up: true, ..Seen::default() }
    }

    pub(crate) fn hash(&mut self, seq: u64, h: &str) {
        let i = seq as usize;
        if self.hashes.len() <= i {
            self.hashes.resize(i + 1, None);
        }
        // An unparsable hash is kept as a value no replay gives (a desync).
        self.hashes[i] = Some(hash_key(h).unwrap_or(u64::MAX));
        if self.last.as_ref().is_none_or(|(s, _)| *s <= seq) {
            self.last = Some((seq, h.to_owned()));
        }
    }

    pub(crate) fn count(&mut self, seq: u64) {
        let i = seq as usize;
        if self.counts.len() <= i {
            self.counts.resize(i + 1, 0);
        }
        self.counts[i] = self.counts[i].saturating_add(1);
        self.catching_up = false;
    }

    /// A full state at `seq`: after a rejoin it covers every action up to it.
    pub(crate) fn state(&mut self, seq: u64) {
        if std::mem::take(&mut self.catching_up) {
            self.covered.push(seq);
        }
    }

    pub(crate) fn rejoined(&mut self) {
        self.reconnects += 1;
        self.catching_up = true;
    }

    /// Of actions 1..=n: how many this client never learnt of (neither announced nor covered
    /// by a state after a rejoin), and how many extra announcements it got.
    fn tally(&self, n: u64) -> (u64, u64) {
        let covered_to = |seq: u64| self.covered.iter().any(|&c| seq <= c);
        (1..=n).fold((0, 0), |(lost, dup), seq| match self.counts.get(seq as usize).copied().unwrap_or(0) {
            0 if !covered_to(seq) => (lost + 1, dup),
            0 | 1 => (lost, dup),
            k => (lost, dup + u64::from(k - 1)),
        })
    }
}

/// Checks what clients of one table saw against the match's stored record (every hash, every
/// action announced once) and adds it to the totals; the match's actions are counted when
/// `count_actions` (once per table).
pub(crate) async fn verify(
    addr: Server,
    code: &str,
    match_no: u32,
    seen: Vec<Seen>,
    totals: &Totals,
    count_actions: bool,
) -> Result<(), String> {
    let log = finished_match(addr, code, match_no).await?;
    let (mut m, _) = log.start().map_err(|e| e.to_string())?;
    let mut hashes = vec![m.state_hash()];
    for a in &log.actions {
        m.apply(a).map_err(|e| format!("stored log does not replay: {e}"))?;
        hashes.push(m.state_hash());
    }
    let n = log.actions.len() as u64;
    if count_actions {
        totals.actions.fetch_add(n, Relaxed);
    }
    let hashes: Vec<Option<u64>> = hashes.iter().map(|h| hash_key(h)).collect();
    for s in seen {
        for (seq, h) in s.hashes.iter().enumerate() {
            if h.is_some() && hashes.get(seq) != Some(h) {
                totals.desyncs.fetch_add(1, Relaxed);
            }
        }
        let (lost, duplicated) = s.tally(n);
        totals.lost.fetch_add(lost, Relaxed);
        totals.duplicated.fetch_add(duplicated, Relaxed);
        totals.errors.fetch_add(s.errors, Relaxed);
        totals.reconnects.fetch_add(s.reconnects, Relaxed);
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::Seen;

    /// A full state answering a rejoin covers the actions missed while away; a state on a live
    /// connection (a gap the client asked about) covers nothing; repeats are counted.
    #[test]
    fn a_state_after_a_rejoin_covers_what_was_missed_and_nothing_else() {
        let mut s = Seen::default();
        for seq in 1..=3 {
            s.count(seq);
        }
        s.rejoined();
        s.state(6); // 4..=6 came in the state
        s.count(7);
        s.count(7); // a repeat
        s.state(9); // live connection: 8 and 9 were never announced
        assert_eq!(s.tally(9), (2, 1));
        // Before (no coverage): 4, 5, 6, 8 and 9 were all "lost".
        let mut t = Seen::default();
        t.rejoined();
        t.count(1);
        t.state(5); // an action came first: this state is no rejoin's answer
        assert_eq!(t.tally(5), (4, 0));
    }
}
