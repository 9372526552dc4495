//! What a room holds to reach one client: a bounded queue of encoded messages, shared with the
//! connection's task, plus two things they tell each other about it.
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

use std::sync::Arc;
use std::sync::atomic::AtomicBool;
use std::sync::atomic::AtomicU32;
use std::sync::atomic::Ordering::Relaxed;
use tokio::sync::{Notify, mpsc};

/// Unanswered prompts a client may hold (two payers tribute side by side, a refusal re-prompts).
const MAX_CREDITS: u32 = 4;

#[derive(Clone)]
pub struct Outbox {
    tx: mpsc::Sender<Arc<str>>,
    shared: Arc<Shared>,
}

#[derive(Default)]
struct Shared {
    credits: AtomicU32,
    overflowed: AtomicBool,
    overflow: Notify,
    ended: AtomicBool,
    end: Notify,
}

/// The connection's end: messages to write, and whether the room gave up on the client.
pub struct Inbox {
    pub rx: mpsc::Receiver<Arc<str>>,
    shared: Arc<Shared>,
}

impl Outbox {
    pub fn new(capacity: usize) -> (Outbox, Inbox) {
        let (tx, rx) = mpsc::channel(capacity);
        let shared = Arc::new(Shared::default());
        (Outbox { tx, shared: shared.clone() }, Inbox { rx, shared })
    }

    /// Queues a message; false when the client is gone or too slow (then marked overflowed).
    pub fn send(&self, msg: Arc<str>) -> bool {
        match self.tx.try_send(msg) {
            Ok(()) => true,
            Err(mpsc::error::TrySendError::Full(_)) => {
                self.shared.overflowed.store(true, Relaxed);
                self.shared.overflow.notify_one();
                false
            }
            Err(mpsc::error::TrySendError::Closed(_)) => false,
        }
    }

    pub fn is_closed(&self) -> bool {
        self.tx.is_closed()
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
}
