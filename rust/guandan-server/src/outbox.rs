//! What a room holds to reach one client: a bounded queue of encoded messages, shared with the
//! connection's writer, plus two things they tell each other about it.
//!
//! - Overflow: a client that does not read is never waited for. When its queue is full the
//!   room marks the outbox; the connection then sends `slow_consumer` instead of the backlog and
//!   closes (the client reconnects and catches up from its last action).
//! - Prompt credits: each time the room asks this client to act, it grants one credit; the
//!   connection lets an intent spend a credit instead of a rate-limit token. A bot answering
//!   every prompt at once is never refused for flooding, since the room paces its prompts;
//!   anything beyond them (repeats, spam) still counts against the rate.
//! - End: the room closes the connection after a last message it queued (a newer connection
//!   of the same account took the seat: `session_replaced`).
//!
//! The queue is a `VecDeque` behind a lock in the one allocation the outbox and its inbox share:
//! it holds nothing while the client keeps up (one message at a time is the rule), where a
//! channel would keep a block of slots for every connection. The writer takes everything
//! queued at once and sends it with one flush.

use parking_lot::Mutex;
use std::collections::VecDeque;
use std::sync::Arc;
use std::sync::atomic::AtomicBool;
use std::sync::atomic::AtomicU32;
use std::sync::atomic::Ordering::Relaxed;
use tokio::sync::Notify;

/// Unanswered prompts a client may hold (two payers tribute side by side, a refusal re-prompts).
const MAX_CREDITS: u32 = 4;

/// The room's side. Clones share the queue; when the last is dropped the writer ends.
#[derive(Clone)]
pub struct Outbox {
    shared: Arc<Shared>,
    _sender: Arc<Sender>,
}

struct Shared {
    queue: Mutex<VecDeque<Arc<str>>>,
    capacity: usize,
    /// Something was queued, or the senders are all gone.
    queued: Notify,
    /// Every outbox clone is gone.
    senders_gone: AtomicBool,
    /// The writer is gone.
    receiver_gone: AtomicBool,
    credits: AtomicU32,
    overflowed: AtomicBool,
    overflow: Notify,
    ended: AtomicBool,
    end: Notify,
}

/// Dropped with the last outbox clone: tells the writer no more will come.
struct Sender(Arc<Shared>);

impl Drop for Sender {
    fn drop(&mut self) {
        self.0.senders_gone.store(true, Relaxed);
        self.0.queued.notify_one();
    }
}

/// The connection's end: messages to write, and whether the room gave up on the client.
pub struct Inbox {
    shared: Arc<Shared>,
}

impl Drop for Inbox {
    fn drop(&mut self) {
        self.shared.receiver_gone.store(true, Relaxed);
        self.shared.queue.lock().clear();
    }
}

impl Outbox {
    pub fn new(capacity: usize) -> (Outbox, Inbox) {
        let shared = Arc::new(Shared {
            queue: Mutex::new(VecDeque::new()),
            capacity: capacity.max(1),
            queued: Notify::new(),
            senders_gone: AtomicBool::new(false),
            receiver_gone: AtomicBool::new(false),
            credits: AtomicU32::new(0),
            overflowed: AtomicBool::new(false),
            overflow: Notify::new(),
            ended: AtomicBool::new(false),
            end: Notify::new(),
        });
        let sender = Arc::new(Sender(shared.clone()));
        (Outbox { shared: shared.clone(), _sender: sender }, Inbox { shared })
    }

    /// Queues a message; false when the client is gone or too slow (then marked overflowed).
    pub fn send(&self, msg: Arc<str>) -> bool {
        if self.is_closed() {
            return false;
        }
        {
            let mut q = self.shared.queue.lock();
            if q.len() >= self.shared.capacity {
                drop(q);
                self.shared.overflowed.store(true, Relaxed);
                self.shared.overflow.notify_one();
                return false;
            }
            q.push_back(msg);
        }
        self.shared.queued.notify_one();
        true
    }

    pub fn is_closed(&self) -> bool {
        self.shared.receiver_gone.load(Relaxed)
    }

    /// The room asked this client to act.
    pub fn grant_prompt(&self) {
        let _ = self.shared.credits.fetch_update(Relaxed, Relaxed, |c| (c < MAX_CREDITS).then_some(c + 1));
    }

    /// Spends a prompt credit for an intent; false when none is left.
    pub fn spend_prompt(&self) -> bool {
        self.shared.credits.fetch_update(Relaxed, Relaxed, |c| c.checked_sub(1)).is_ok()
    }

    pub fn overflowed(&self) -> bool {
        self.shared.overflowed.load(Relaxed)
    }

    /// The connection is to close once what was queued before is sent.
    pub fn end(&self) {
        self.shared.ended.store(true, Relaxed);
        self.shared.end.notify_one();
    }

    /// The room ended the connection.
    pub fn is_ended(&self) -> bool {
        self.shared.ended.load(Relaxed)
    }

    /// Resolves once the room ended the connection.
    pub async fn ended(&self) {
        let wait = self.shared.end.notified();
        if !self.shared.ended.load(Relaxed) {
            wait.await;
        }
    }

    /// Resolves once the room found the queue full.
    pub async fn overflow(&self) {
        let wait = self.shared.overflow.notified();
        if !self.overflowed() {
            wait.await;
        }
    }
}

impl Inbox {
    pub fn overflowed(&self) -> bool {
        self.shared.overflowed.load(Relaxed)
    }

    /// Waits for messages and takes every one queued (oldest first) into `into`; false once
    /// every outbox is gone and nothing is left.
    pub async fn recv_all(&mut self, into: &mut Vec<Arc<str>>) -> bool {
        loop {
            let wait = self.shared.queued.notified();
            {
                let mut q = self.shared.queue.lock();
                if !q.is_empty() {
                    into.extend(q.drain(..));
                    // A burst's room is given back: an idle connection holds no queue.
                    if q.capacity() > 8 {
                        q.shrink_to(8);
                    }
                    return true;
                }
            }
            if self.shared.senders_gone.load(Relaxed) {
                return false;
            }
            wait.await;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn credits_are_granted_up_to_a_cap_and_spent_once() {
        let (out, _inbox) = Outbox::new(4);
        assert!(!out.spend_prompt(), "no credit before a prompt");
        out.grant_prompt();
        assert!(out.spend_prompt());
        assert!(!out.spend_prompt());
        for _ in 0..10 {
            out.grant_prompt();
        }
        assert_eq!((0..10).filter(|_| out.spend_prompt()).count(), MAX_CREDITS as usize);
    }

    #[tokio::test]
    async fn a_full_queue_marks_the_outbox_overflowed() {
        let (out, inbox) = Outbox::new(2);
        assert!(out.send("a".into()) && out.send("b".into()));
        assert!(!out.overflowed() && !inbox.overflowed());
        assert!(!out.send("c".into()), "the third message does not fit");
        assert!(out.overflowed() && inbox.overflowed());
        // Already overflowed: resolves at once.
        tokio::time::timeout(std::time::Duration::from_secs(1), out.overflow()).await.expect("overflow seen");
        drop(inbox);
        assert!(!out.send("d".into()));
        assert!(out.is_closed());
    }

    #[tokio::test]
    async fn an_ended_outbox_is_seen_by_its_connection() {
        let (out, _inbox) = Outbox::new(2);
        let conn = out.clone();
        let wait = tokio::spawn(async move { conn.ended().await });
        out.end();
        tokio::time::timeout(std::time::Duration::from_secs(5), wait).await.expect("end seen").unwrap();
        // Already ended: resolves at once.
        tokio::time::timeout(std::time::Duration::from_secs(1), out.ended()).await.expect("end seen again");
    }

    #[tokio::test]
    async fn the_writer_takes_everything_queued_and_ends_with_the_last_outbox() {
        let (out, mut inbox) = Outbox::new(8);
        let other = out.clone();
        assert!(out.send("a".into()) && other.send("b".into()));
        let mut got = Vec::new();
        assert!(inbox.recv_all(&mut got).await);
        assert_eq!(got.iter().map(|m| m.as_ref()).collect::<Vec<_>>(), ["a", "b"]);
        // A message sent while the writer waits wakes it.
        let late = out.clone();
        let send = tokio::spawn(async move {
            tokio::time::sleep(std::time::Duration::from_millis(20)).await;
            late.send("c".into())
        });
        got.clear();
        assert!(tokio::time::timeout(std::time::Duration::from_secs(5), inbox.recv_all(&mut got)).await.unwrap());
        assert!(send.await.unwrap());
        assert_eq!(got.len(), 1);
        // What was queued before the last outbox went is still delivered, then the end.
        assert!(other.send("d".into()));
        drop((out, other));
        got.clear();
        assert!(inbox.recv_all(&mut got).await);
        assert_eq!(got[0].as_ref(), "d");
        got.clear();
        assert!(!tokio::time::timeout(std::time::Duration::from_secs(5), inbox.recv_all(&mut got)).await.unwrap());
    }
}
