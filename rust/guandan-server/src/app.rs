//! [`App`], what every connection and room shares: the services behind methods (no public
//! field), so a handler names what it uses and a service's insides change in one place.

use crate::config::Config;
use crate::db::Db;
use crate::journal::Journal;
use crate::metrics::Metrics;
use crate::{accounts, forwarded, ladder, listener, queue, room, seats, tls};
use parking_lot::Mutex;
use std::collections::HashMap;
use std::sync::Arc;
use std::sync::atomic::AtomicU64;
use std::time::Duration;
use tokio::sync::{mpsc, watch};

/// What every connection and room shares.
pub struct App {
    /// The command line's settings.
    cfg: Config,
    /// The database (SQLite or PostgreSQL).
    db: Db,
    /// Room actions on their way to the database, in batches.
    journal: Journal,
    /// What `/metrics` shows.
    metrics: Arc<Metrics>,
    /// Rooms this instance owns, by code.
    rooms: Mutex<HashMap<String, mpsc::Sender<room::RoomCmd>>>,
    /// The next connection's number.
    next_conn: AtomicU64,
    /// Becomes true when the server shuts down.
    shutdown: watch::Receiver<bool>,
    /// URL clients use to reach this instance (redirects; set from Agones when it runs there).
    public_url: Mutex<String>,
    /// Held while this instance takes a room over (one at a time).
    takeover: tokio::sync::Mutex<()>,
    /// Connection and account limits per source address.
    gate: listener::Gate,
    /// This instance's connections waiting in the quick-match queue.
    waiters: queue::Waiters,
    /// The public leaderboard's and profiles' caches and turns.
    ladder: ladder::Ladder,
    /// The room each account holds a seat in (one seat per account).
    seats: seats::Seats,
    /// The listener's TLS (`--tls-cert`, `--tls-key`); `None`: plain HTTP and WebSocket.
    tls: Option<Arc<tls::Tls>>,
    /// Sessions, logins and transfer codes: their limits, clock and live connections.
    accounts: accounts::Accounts,
    /// Rooms on this instance by the account that created them (`--rooms-per-account`).
    room_counts: Mutex<HashMap<String, usize>>,
}

impl App {
    pub(crate) fn new(
        cfg: Config,
        db: Db,
        metrics: Arc<Metrics>,
        shutdown: watch::Receiver<bool>,
        public_url: String,
        seats: seats::Seats,
        tls: Option<Arc<tls::Tls>>,
    ) -> App {
        App {
            journal: Journal::start(db.clone(), Duration::from_millis(cfg.journal_batch_ms), metrics.clone()),
            db,
            metrics,
            rooms: Mutex::new(HashMap::new()),
            next_conn: AtomicU64::new(1),
            shutdown,
            public_url: Mutex::new(public_url),
            takeover: tokio::sync::Mutex::new(()),
            room_counts: Mutex::new(HashMap::new()),
            gate: listener::Gate::new(forwarded::TrustedProxies::new(cfg.trusted_proxy.clone())),
            waiters: queue::Waiters::default(),
            ladder: ladder::Ladder::default(),
            seats,
            tls,
            accounts: accounts::Accounts::new(&cfg),
            cfg,
        }
    }

    /// The command line's settings.
    pub fn cfg(&self) -> &Config {
        &self.cfg
    }

    /// The database (SQLite or PostgreSQL).
    pub fn db(&self) -> &Db {
        &self.db
    }

    /// Room actions on their way to the database, in batches.
    pub fn journal(&self) -> &Journal {
        &self.journal
    }

    /// What `/metrics` shows.
    pub fn metrics(&self) -> &Arc<Metrics> {
        &self.metrics
    }

    /// Rooms this instance owns, by code.
    pub fn rooms(&self) -> &Mutex<HashMap<String, mpsc::Sender<room::RoomCmd>>> {
        &self.rooms
    }

    /// The next connection's number.
    pub fn next_conn(&self) -> &AtomicU64 {
        &self.next_conn
    }

    /// Becomes true when the server shuts down.
    pub fn shutdown(&self) -> &watch::Receiver<bool> {
        &self.shutdown
    }

    /// URL clients use to reach this instance (redirects; set from Agones when it runs there).
    pub fn public_url(&self) -> &Mutex<String> {
        &self.public_url
    }

    /// Held while this instance takes a room over (one at a time).
    pub fn takeover(&self) -> &tokio::sync::Mutex<()> {
        &self.takeover
    }

    /// Connection and account limits per source address.
    pub fn gate(&self) -> &listener::Gate {
        &self.gate
    }

    /// This instance's connections waiting in the quick-match queue.
    pub fn waiters(&self) -> &queue::Waiters {
        &self.waiters
    }

    /// The public leaderboard's and profiles' caches and turns.
    pub fn ladder(&self) -> &ladder::Ladder {
        &self.ladder
    }

    /// The room each account holds a seat in (one seat per account).
    pub fn seats(&self) -> &seats::Seats {
        &self.seats
    }

    /// The listener's TLS (`--tls-cert`, `--tls-key`); `None`: plain HTTP and WebSocket.
    pub fn tls(&self) -> &Option<Arc<tls::Tls>> {
        &self.tls
    }

    /// Sessions, logins and transfer codes: their limits, clock and live connections.
    pub fn accounts(&self) -> &accounts::Accounts {
        &self.accounts
    }

    /// Counts a new room for `player`; false (nothing counted) at `--rooms-per-account`.
    pub fn take_room(&self, player: &str) -> bool {
        let mut counts = self.room_counts.lock();
        let n = counts.entry(player.to_string()).or_default();
        if *n >= self.cfg.rooms_per_account {
            return false;
        }
        *n += 1;
        true
    }

    /// Counts a room that exists already (restored, taken over), whatever the limit.
    pub fn count_room(&self, player: &str) {
        *self.room_counts.lock().entry(player.to_string()).or_default() += 1;
    }

    /// A room `player` created is gone.
    pub fn release_room(&self, player: &str) {
        let mut counts = self.room_counts.lock();
        if let Some(n) = counts.get_mut(player) {
            *n = n.saturating_sub(1);
            if *n == 0 {
                counts.remove(player);
            }
        }
    }
}
