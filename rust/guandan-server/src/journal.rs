//! The write-ahead of every room: actions go to the database before anyone hears of them. One
//! writer task batches the actions of all rooms into one commit (group commit) and answers each
//! room when its actions are durable. A batch takes what queued while the last commit ran, then
//! yields once so the rooms woken by the same readiness events queue theirs (no timer: at low
//! load a commit starts at once, at high load it carries many), and with `--journal-batch-ms`
//! above 0 waits that long after its first action for more (or until it holds `MAX_BATCH` rows).

use crate::db::Db;
use crate::metrics::Metrics;
use std::sync::Arc;
use std::time::Duration;
use tokio::sync::{mpsc, oneshot};
use tokio::time::Instant;

type Job = (Vec<(String, i64, i64, String)>, oneshot::Sender<Result<(), String>>);

#[derive(Clone)]
pub struct Journal {
    tx: mpsc::Sender<Job>,
}

/// Rows in one commit at most.
const MAX_BATCH: usize = 512;

impl Journal {
    pub fn start(db: Db, window: Duration, metrics: Arc<Metrics>) -> Journal {
        let (tx, mut rx) = mpsc::channel::<Job>(8192);
        tokio::spawn(async move {
            let mut batch: Vec<Job> = Vec::with_capacity(MAX_BATCH);
            while let Some(first) = rx.recv().await {
                let mut rows = first.0.len();
                batch.push(first);
                let close = Instant::now() + window;
                let mut yielded = false;
                while rows < MAX_BATCH {
                    let next = match rx.try_recv() {
                        Ok(job) => Some(job),
                        // One pass of the scheduler first: the rooms woken by the same readiness
                        // events queue their actions before this commit, at no timer's cost.
                        Err(_) if !yielded => {
                            yielded = true;
                            tokio::task::yield_now().await;
                            continue;
                        }
                        Err(_) if window.is_zero() => None,
                        Err(_) => tokio::time::timeout_at(close, rx.recv()).await.ok().flatten(),
                    };
                    let Some(job) = next else { break };
                    rows += job.0.len();
                    batch.push(job);
                }
                let all: Vec<_> = batch.iter_mut().flat_map(|(r, _)| std::mem::take(r)).collect();
                let started = Instant::now();
                let res = db.append_actions(&all).await.map_err(|e| e.to_string());
                metrics.journal_commit(all.len(), started.elapsed());
                if let Err(e) = &res {
                    tracing::error!(error = %e, n = all.len(), "journal write failed");
                }
                for (_, reply) in batch.drain(..) {
                    let _ = reply.send(res.clone());
                }
            }
        });
        Journal { tx }
    }

    /// Returns once the actions `(seq, json)` are committed.
    pub async fn append(&self, room: &str, match_no: i64, actions: Vec<(u64, String)>) -> Result<(), String> {
        let (reply, wait) = oneshot::channel();
        let rows = actions.into_iter().map(|(seq, json)| (room.to_string(), match_no, seq as i64, json)).collect();
        self.tx.send((rows, reply)).await.map_err(|_| "journal stopped".to_string())?;
        wait.await.map_err(|_| "journal stopped".to_string())?
    }
}
