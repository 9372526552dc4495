//! The write-ahead of every room: actions go to the database before anyone hears of them. One
//! writer task batches the actions of all rooms that arrive together into one transaction (group
//! commit), and answers each room when its action is durable.

use crate::db::Db;
use tokio::sync::{mpsc, oneshot};

type Job = (Vec<(String, i64, i64, String)>, oneshot::Sender<Result<(), String>>);

#[derive(Clone)]
pub struct Journal {
    tx: mpsc::Sender<Job>,
}

const MAX_BATCH: usize = 512;

impl Journal {
    pub fn start(db: Db) -> Journal {
        let (tx, mut rx) = mpsc::channel::<Job>(8192);
        tokio::spawn(async move {
            let mut batch: Vec<Job> = Vec::with_capacity(MAX_BATCH);
            while let Some(first) = rx.recv().await {
                batch.push(first);
                while batch.len() < MAX_BATCH {
                    match rx.try_recv() {
                        Ok(job) => batch.push(job),
                        Err(_) => break,
                    }
                }
                let rows: Vec<_> = batch.iter().flat_map(|(r, _)| r.iter().cloned()).collect();
                let res = db.append_actions(&rows).await.map_err(|e| e.to_string());
                if let Err(e) = &res {
                    tracing::error!(error = %e, n = rows.len(), "journal write failed");
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
