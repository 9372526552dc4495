//! The password-hash queue (issue 57): every argon2id hash (a login, a claim, the dummy of an
//! unknown name) takes one of a few turns, sized to the cores (`--password-hashers`), so a flood
//! of logins costs the server at most that many cores. Waiters stand in three lanes, the known
//! (a returning player), the clean and the rest ([`super::hash_lines`] says who is next); a
//! request the rest lane has no room for is refused at once as busy, and the caller gives back
//! what it took (its limits' tokens), so nothing is lost and the client is told when to try
//! again.
//!
//! A waiter whose request is dropped (the client went away) gives its turn to the next one.

pub use super::hash_lines::{Lane, Waiting};
use super::hash_lines::{Lines, Standing};
use parking_lot::Mutex;
use std::net::IpAddr;
use std::sync::Arc;
use std::sync::atomic::{AtomicI64, AtomicU64, Ordering::Relaxed};
use tokio::sync::oneshot;

/// The rest lane is full (or holds this address's waiter already): try again after `wait_ms`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Busy {
    pub wait_ms: i64,
}

struct Lanes {
    free: usize,
    lines: Lines<oneshot::Sender<Turn>>,
}

struct Inner {
    lanes: Mutex<Lanes>,
    hashers: usize,
    /// A hash's time (ms, a moving average): the busy answer's wait.
    hash_ms: AtomicI64,
    /// Turns given so far.
    given: AtomicU64,
    /// The most turns given to others while one waiter of the known (clean) lane waited: 0 while
    /// the lane works and only a turn under way when it came stands before it.
    passed_over: [AtomicU64; 2],
}

/// What the queue holds now, and the most turns given to others while a known or clean waiter
/// waited, so far.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct QueueNow {
    pub waiting: Waiting,
    pub known_passed_over: u64,
    pub clean_passed_over: u64,
}

/// The queue (cheap to clone: one shared state).
#[derive(Clone)]
pub struct HashQueue {
    inner: Arc<Inner>,
}

/// One turn to hash; the next waiter gets it when this is dropped.
pub struct Turn {
    inner: Option<Arc<Inner>>,
}

impl Drop for Turn {
    fn drop(&mut self) {
        if let Some(inner) = self.inner.take() {
            pass_on(&inner);
        }
    }
}

/// Gives a freed turn to the next live waiter, or frees it.
fn pass_on(inner: &Arc<Inner>) {
    let mut lanes = inner.lanes.lock();
    loop {
        let Some(Standing { item, lane, joined_at, .. }) = lanes.lines.next() else {
            lanes.free += 1;
            return;
        };
        let over = inner.given.load(Relaxed).saturating_sub(joined_at);
        match lane {
            Lane::Known => inner.passed_over[0].fetch_max(over, Relaxed),
            Lane::Clean => inner.passed_over[1].fetch_max(over, Relaxed),
            Lane::Rest => 0,
        };
        match item.send(Turn { inner: Some(inner.clone()) }) {
            Ok(()) => {
                inner.given.fetch_add(1, Relaxed);
                return;
            }
            // The waiter is gone: its turn must not pass on from inside this loop.
            Err(mut turn) => turn.inner = None,
        }
    }
}

impl HashQueue {
    /// `hashers` turns (at least one); the rest lane holds at most `rest_cap` waiters.
    pub fn new(hashers: usize, rest_cap: usize) -> HashQueue {
        let hashers = hashers.max(1);
        let lanes = Lanes { free: hashers, lines: Lines::new(rest_cap) };
        HashQueue {
            inner: Arc::new(Inner {
                lanes: Mutex::new(lanes),
                hashers,
                hash_ms: AtomicI64::new(50),
                given: AtomicU64::new(0),
                passed_over: [AtomicU64::new(0), AtomicU64::new(0)],
            }),
        }
    }

    /// The waiters now, and how far known and clean waiters were passed over so far.
    pub fn now(&self) -> QueueNow {
        let waiting = self.inner.lanes.lock().lines.waiting();
        QueueNow {
            waiting,
            known_passed_over: self.inner.passed_over[0].load(Relaxed),
            clean_passed_over: self.inner.passed_over[1].load(Relaxed),
        }
    }

    /// Notes how long one hash took (ms): the busy answer's wait follows it.
    pub fn took(&self, ms: i64) {
        let old = self.inner.hash_ms.load(Relaxed);
        self.inner.hash_ms.store((old * 7 + ms.max(1)) / 8, Relaxed);
    }

    /// A turn in `lane` for a request from `source`, once one is free; `Busy` at once when it
    /// would wait in the rest lane and that is full or holds a waiter of `source` already.
    pub async fn turn(&self, lane: Lane, source: IpAddr) -> Result<Turn, Busy> {
        let rx = {
            let mut lanes = self.inner.lanes.lock();
            if lanes.free > 0 && lanes.lines.is_empty() {
                lanes.free -= 1;
                self.inner.given.fetch_add(1, Relaxed);
                return Ok(Turn { inner: Some(self.inner.clone()) });
            }
            let (tx, rx) = oneshot::channel();
            let joined_at = self.inner.given.load(Relaxed);
            if lanes.lines.join(lane, source, tx, joined_at, oneshot::Sender::is_closed).is_err() {
                let ahead = (lanes.lines.waiting().total() + 1) as i64;
                let wait_ms = self.inner.hash_ms.load(Relaxed) * ahead / self.inner.hashers as i64;
                return Err(Busy { wait_ms: wait_ms.max(1000) });
            }
            rx
        };
        // The sender stays in the queue until a turn is sent on it; were it ever dropped unsent,
        // the request is refused as busy rather than hashing without a turn.
        rx.await.map_err(|_| Busy { wait_ms: 1000 })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::net::Ipv4Addr;
    use std::time::Duration;

    fn ip(n: u8) -> IpAddr {
        IpAddr::V4(Ipv4Addr::new(127, 0, 1, n))
    }

    /// Spawns a waiter that reports its name when it gets its turn, then holds the turn until
    /// told to let go.
    fn waiter(
        q: &HashQueue,
        lane: Lane,
        source: IpAddr,
        name: &'static str,
        served: tokio::sync::mpsc::UnboundedSender<&'static str>,
    ) -> (tokio::task::JoinHandle<Result<(), Busy>>, oneshot::Sender<()>) {
        let q = q.clone();
        let (done, wait) = oneshot::channel::<()>();
        let h = tokio::spawn(async move {
            let turn = q.turn(lane, source).await?;
            served.send(name).unwrap();
            let _ = wait.await;
            drop(turn);
            Ok(())
        });
        (h, done)
    }

    /// Until `n` waiters stand in the queue (bounded: the spawned tasks only need to run).
    async fn until_waiting(q: &HashQueue, n: usize) {
        for _ in 0..10_000 {
            if q.now().waiting.total() >= n {
                return;
            }
            tokio::task::yield_now().await;
        }
        panic!("waiters never queued: {:?}", q.now());
    }

    #[tokio::test]
    async fn turns_go_to_the_known_lane_then_the_clean_then_the_rest() {
        let q = HashQueue::new(1, 8);
        let (tx, mut rx) = tokio::sync::mpsc::unbounded_channel();
        let (h0, go0) = waiter(&q, Lane::Rest, ip(9), "holder", tx.clone());
        assert_eq!(rx.recv().await, Some("holder"));
        let mut others = Vec::new();
        let flood = [(Lane::Clean, "first try a"), (Lane::Rest, "flood a"), (Lane::Clean, "first try b")];
        for (i, (lane, name)) in flood.into_iter().enumerate() {
            others.push((name, waiter(&q, lane, ip(i as u8 + 1), name, tx.clone())));
            until_waiting(&q, i + 1).await;
        }
        let owner = waiter(&q, Lane::Known, ip(100), "owner", tx.clone());
        until_waiting(&q, 4).await;
        assert_eq!(q.now().waiting, Waiting { known: 1, clean: 2, rest: 1 });
        go0.send(()).unwrap();
        h0.await.unwrap().unwrap();
        assert_eq!(rx.recv().await, Some("owner"), "the returning player goes before the flood");
        owner.1.send(()).unwrap();
        others.sort_by_key(|(name, _)| ["first try a", "first try b", "flood a"].iter().position(|n| n == name));
        for (name, (h, go)) in others {
            assert_eq!(rx.recv().await, Some(name));
            go.send(()).unwrap();
            h.await.unwrap().unwrap();
        }
        let now = q.now();
        assert_eq!(now.waiting.total(), 0);
        assert_eq!(now.known_passed_over, 0, "only the turn under way when it came was before the owner");
        assert_eq!(now.clean_passed_over, 2, "the second clean try waited for the owner's and the first's");
    }

    #[tokio::test]
    async fn the_rest_lane_is_bounded_in_all_and_to_one_waiter_an_address() {
        let q = HashQueue::new(1, 2);
        let (tx, mut rx) = tokio::sync::mpsc::unbounded_channel();
        let (_h0, go0) = waiter(&q, Lane::Known, ip(9), "holder", tx.clone());
        assert_eq!(rx.recv().await, Some("holder"));
        let a = waiter(&q, Lane::Rest, ip(1), "a", tx.clone());
        until_waiting(&q, 1).await;
        // A second waiter of the same address: busy, with a wait to tell the client.
        let busy = q.turn(Lane::Rest, ip(1)).await.err().expect("one waiter an address");
        assert!(busy.wait_ms >= 1000);
        let b = waiter(&q, Lane::Rest, ip(2), "b", tx.clone());
        until_waiting(&q, 2).await;
        assert!(q.turn(Lane::Rest, ip(3)).await.is_err(), "the lane holds two");
        // The known lane is not bounded by the rest's cap.
        let c = waiter(&q, Lane::Known, ip(3), "c", tx.clone());
        until_waiting(&q, 3).await;
        go0.send(()).unwrap();
        assert_eq!(rx.recv().await, Some("c"));
        c.1.send(()).unwrap();
        assert_eq!(rx.recv().await, Some("a"));
        a.1.send(()).unwrap();
        assert_eq!(rx.recv().await, Some("b"));
        b.1.send(()).unwrap();
    }

    #[tokio::test]
    async fn a_waiter_that_goes_away_passes_its_turn_on() {
        let q = HashQueue::new(1, 4);
        let (tx, mut rx) = tokio::sync::mpsc::unbounded_channel();
        let (_h0, go0) = waiter(&q, Lane::Known, ip(9), "holder", tx.clone());
        assert_eq!(rx.recv().await, Some("holder"));
        let (gone, _go_gone) = waiter(&q, Lane::Rest, ip(1), "gone", tx.clone());
        until_waiting(&q, 1).await;
        let (h, go) = waiter(&q, Lane::Rest, ip(2), "stays", tx.clone());
        until_waiting(&q, 2).await;
        gone.abort();
        assert!(gone.await.unwrap_err().is_cancelled());
        go0.send(()).unwrap();
        assert_eq!(rx.recv().await, Some("stays"));
        go.send(()).unwrap();
        h.await.unwrap().unwrap();
        // Every turn came back: one is free again at once.
        let t = tokio::time::timeout(Duration::from_secs(5), q.turn(Lane::Rest, ip(3))).await;
        assert!(matches!(t, Ok(Ok(_))), "the turn was not lost");
    }
}
