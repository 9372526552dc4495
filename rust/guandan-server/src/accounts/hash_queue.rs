//! The password-hash queue (issue 57): every argon2id hash (a login, a claim, the dummy of an
//! unknown name) takes one of a few turns, sized to the cores (`--password-hashers`), so a flood
//! of logins costs the server at most that many cores. Waiters stand in two lanes:
//!
//! - **first**: a name and address with a clean record (neither has a login under way or
//!   failed since its last success), or a name logging in from the address it last logged in
//!   from; an honest player is one of these, so a flood cannot make them wait behind it;
//! - **rest**: everything else (an address or name that failed or is trying already), served
//!   only when the first lane is empty, at most one waiter an address and [`Self::rest_cap`]
//!   in all: a request past that is refused at once as busy, and the caller gives back what it
//!   took (its limits' tokens), so nothing is lost and the client is told when to try again.
//!
//! A waiter whose request is dropped (the client went away) gives its turn to the next one.

use parking_lot::Mutex;
use std::collections::{HashMap, VecDeque};
use std::net::IpAddr;
use std::sync::Arc;
use std::sync::atomic::{AtomicI64, AtomicU64, Ordering::Relaxed};
use tokio::sync::oneshot;

/// Which lane a hash waits in (see the module's text).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Lane {
    First,
    Rest,
}

/// The rest lane is full (or holds this address's waiter already): try again after `wait_ms`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Busy {
    pub wait_ms: i64,
}

struct Waiter {
    turn: oneshot::Sender<Turn>,
    source: IpAddr,
    /// Turns given before this one queued.
    queued_at: u64,
}

#[derive(Default)]
struct Lanes {
    free: usize,
    first: VecDeque<Waiter>,
    rest: VecDeque<Waiter>,
    /// Waiters in the rest lane by address.
    rest_of: HashMap<IpAddr, usize>,
}

impl Lanes {
    fn leave_rest(&mut self, source: IpAddr) {
        if let Some(n) = self.rest_of.get_mut(&source) {
            *n -= 1;
            if *n == 0 {
                self.rest_of.remove(&source);
            }
        }
    }

    /// Waiters whose request is gone leave the rest lane (their count with them).
    fn forget_gone(&mut self) {
        let mut gone = Vec::new();
        self.rest.retain(|w| {
            let open = !w.turn.is_closed();
            if !open {
                gone.push(w.source);
            }
            open
        });
        for s in gone {
            self.leave_rest(s);
        }
    }
}

struct Inner {
    lanes: Mutex<Lanes>,
    rest_cap: usize,
    hashers: usize,
    /// A hash's time (ms, a moving average): the busy answer's wait.
    hash_ms: AtomicI64,
    /// Turns given so far.
    given: AtomicU64,
    /// The most turns given to others while one first-lane waiter waited (0 while the lane
    /// works: only a turn under way when it came stands before it).
    first_passed_over: AtomicU64,
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

/// Gives a freed turn to the next live waiter (first lane before rest), or frees it.
fn pass_on(inner: &Arc<Inner>) {
    let mut lanes = inner.lanes.lock();
    loop {
        let next = match lanes.first.pop_front() {
            Some(w) => {
                let over = inner.given.load(Relaxed).saturating_sub(w.queued_at);
                inner.first_passed_over.fetch_max(over, Relaxed);
                w
            }
            None => match lanes.rest.pop_front() {
                Some(w) => {
                    lanes.leave_rest(w.source);
                    w
                }
                None => {
                    lanes.free += 1;
                    return;
                }
            },
        };
        match next.turn.send(Turn { inner: Some(inner.clone()) }) {
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
        let lanes = Lanes { free: hashers, ..Lanes::default() };
        HashQueue {
            inner: Arc::new(Inner {
                lanes: Mutex::new(lanes),
                rest_cap,
                hashers,
                hash_ms: AtomicI64::new(50),
                given: AtomicU64::new(0),
                first_passed_over: AtomicU64::new(0),
            }),
        }
    }

    pub fn rest_cap(&self) -> usize {
        self.inner.rest_cap
    }

    /// Waiters now in (first, rest).
    pub fn waiting(&self) -> (usize, usize) {
        let lanes = self.inner.lanes.lock();
        (lanes.first.len(), lanes.rest.len())
    }

    /// The most turns given to others while a first-lane waiter waited, so far.
    pub fn first_passed_over(&self) -> u64 {
        self.inner.first_passed_over.load(Relaxed)
    }

    /// Notes how long one hash took (ms): the busy answer's wait follows it.
    pub fn took(&self, ms: i64) {
        let old = self.inner.hash_ms.load(Relaxed);
        self.inner.hash_ms.store((old * 7 + ms.max(1)) / 8, Relaxed);
    }

    /// A turn in `lane` for a request from `source`, once one is free; `Busy` at once when the
    /// rest lane is full or holds a waiter of `source` already.
    pub async fn turn(&self, lane: Lane, source: IpAddr) -> Result<Turn, Busy> {
        let rx = {
            let mut lanes = self.inner.lanes.lock();
            if lanes.free > 0 && lanes.first.is_empty() && lanes.rest.is_empty() {
                lanes.free -= 1;
                self.inner.given.fetch_add(1, Relaxed);
                return Ok(Turn { inner: Some(self.inner.clone()) });
            }
            let (tx, rx) = oneshot::channel();
            let waiter = Waiter { turn: tx, source, queued_at: self.inner.given.load(Relaxed) };
            match lane {
                Lane::First => lanes.first.push_back(waiter),
                Lane::Rest => {
                    if lanes.rest.len() >= self.inner.rest_cap || lanes.rest_of.contains_key(&source) {
                        lanes.forget_gone();
                    }
                    if lanes.rest.len() >= self.inner.rest_cap || lanes.rest_of.contains_key(&source) {
                        let ahead = (lanes.first.len() + lanes.rest.len() + 1) as i64;
                        let wait_ms = self.inner.hash_ms.load(Relaxed) * ahead / self.inner.hashers as i64;
                        return Err(Busy { wait_ms: wait_ms.max(1000) });
                    }
                    *lanes.rest_of.entry(source).or_default() += 1;
                    lanes.rest.push_back(waiter);
                }
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
            let (a, b) = q.waiting();
            if a + b >= n {
                return;
            }
            tokio::task::yield_now().await;
        }
        panic!("waiters never queued: {:?}", q.waiting());
    }

    #[tokio::test]
    async fn the_first_lane_is_served_before_the_rest_and_each_lane_in_order() {
        let q = HashQueue::new(1, 8);
        let (tx, mut rx) = tokio::sync::mpsc::unbounded_channel();
        let (h0, go0) = waiter(&q, Lane::Rest, ip(9), "holder", tx.clone());
        assert_eq!(rx.recv().await, Some("holder"));
        let mut rest = Vec::new();
        for (i, name) in ["flood a", "flood b", "flood c"].into_iter().enumerate() {
            rest.push(waiter(&q, Lane::Rest, ip(i as u8 + 1), name, tx.clone()));
            until_waiting(&q, i + 1).await;
        }
        let honest = waiter(&q, Lane::First, ip(100), "honest", tx.clone());
        until_waiting(&q, 4).await;
        go0.send(()).unwrap();
        h0.await.unwrap().unwrap();
        assert_eq!(rx.recv().await, Some("honest"), "the clean record goes before three flooders");
        honest.1.send(()).unwrap();
        for (name, (h, go)) in ["flood a", "flood b", "flood c"].into_iter().zip(rest) {
            assert_eq!(rx.recv().await, Some(name));
            go.send(()).unwrap();
            h.await.unwrap().unwrap();
        }
        assert_eq!(q.waiting(), (0, 0));
    }

    #[tokio::test]
    async fn the_rest_lane_is_bounded_in_all_and_to_one_waiter_an_address() {
        let q = HashQueue::new(1, 2);
        let (tx, mut rx) = tokio::sync::mpsc::unbounded_channel();
        let (_h0, go0) = waiter(&q, Lane::First, ip(9), "holder", tx.clone());
        assert_eq!(rx.recv().await, Some("holder"));
        let a = waiter(&q, Lane::Rest, ip(1), "a", tx.clone());
        until_waiting(&q, 1).await;
        // A second waiter of the same address: busy, with a wait to tell the client.
        let busy = q.turn(Lane::Rest, ip(1)).await.err().expect("one waiter an address");
        assert!(busy.wait_ms >= 1000);
        let b = waiter(&q, Lane::Rest, ip(2), "b", tx.clone());
        until_waiting(&q, 2).await;
        assert!(q.turn(Lane::Rest, ip(3)).await.is_err(), "the lane holds two");
        // The first lane is not bounded by the rest's cap.
        let c = waiter(&q, Lane::First, ip(3), "c", tx.clone());
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
        let (_h0, go0) = waiter(&q, Lane::First, ip(9), "holder", tx.clone());
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
