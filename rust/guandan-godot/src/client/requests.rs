//! HTTP(S) requests of the game's client that are not the match (leaderboard pages, profiles,
//! the player's account): each on a short-lived thread of its own, answered through a channel
//! the node drains in `process()`. At most [`MAX_IN_FLIGHT`] of one kind run at once: a player
//! tapping through pages or buttons cannot pile up threads.

use crate::codes::Fail;
use crossbeam_channel::{Receiver, Sender, unbounded};
use guandan_core::error::ErrorCode;

/// Requests of one kind in flight at once, at most.
pub const MAX_IN_FLIGHT: usize = 2;

/// The requests of one kind in flight (`Q`: what was asked) and their answers (`A`).
pub struct Requests<Q, A> {
    tx: Sender<(Q, Result<A, Fail>)>,
    rx: Receiver<(Q, Result<A, Fail>)>,
    in_flight: usize,
    /// The threads' name (seen in a debugger and in `top -H`).
    thread: &'static str,
}

impl<Q: Send + 'static, A: Send + 'static> Requests<Q, A> {
    pub fn new(thread: &'static str) -> Self {
        let (tx, rx) = unbounded();
        Requests { tx, rx, in_flight: 0, thread }
    }

    /// Runs `work(&asked)` on a thread of its own; the answer comes from [`Requests::poll`].
    pub fn start(&mut self, asked: Q, work: impl FnOnce(&Q) -> Result<A, Fail> + Send + 'static) -> Result<(), Fail> {
        if self.in_flight >= MAX_IN_FLIGHT {
            return Err(Fail::new(ErrorCode::RateLimited, "still waiting for the server's last answers"));
        }
        let tx = self.tx.clone();
        std::thread::Builder::new()
            .name(self.thread.into())
            .spawn(move || {
                let answer = work(&asked);
                // The node may be gone (the game closed): nobody to tell.
                let _ = tx.send((asked, answer));
            })
            .map_err(|e| Fail::new(ErrorCode::Internal, format!("cannot start a request: {e}")))?;
        self.in_flight += 1;
        Ok(())
    }

    /// An answer that has arrived.
    pub fn poll(&mut self) -> Option<(Q, Result<A, Fail>)> {
        let got = self.rx.try_recv().ok()?;
        self.in_flight -= 1;
        Some(got)
    }
}
