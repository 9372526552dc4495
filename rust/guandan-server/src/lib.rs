//! The authoritative Guandan server: HTTP (guest accounts, health, metrics, finished match logs)
//! and one WebSocket per client speaking `guandan-proto`; one tokio task per room owning its
//! match; every action persisted (SQLite or PostgreSQL) before it is announced.

pub mod accounts;
pub mod acme;
#[cfg(feature = "agones")]
pub mod agones_sdk;
mod app;
pub mod auth;
pub mod config;
pub mod conn;
pub mod db;
pub mod forwarded;
pub mod game;
pub mod http;
pub mod instance_lock;
pub mod journal;
pub mod ladder;
pub mod lease;
pub mod lifecycle;
pub mod limiter;
pub mod listener;
pub mod metrics;
pub mod outbox;
pub mod queue;
pub mod ratings;
mod refusal;
pub mod room;
pub mod seats;
pub mod tls;
pub mod ws_guard;

pub use app::App;
use config::Config;
use db::Db;
use metrics::Metrics;
use std::sync::Arc;
use std::time::Duration;
use tokio::sync::watch;

/// A running server.
pub struct Server {
    pub addr: std::net::SocketAddr,
    pub app: Arc<App>,
    stop: watch::Sender<bool>,
    handle: tokio::task::JoinHandle<()>,
    lease: tokio::task::JoinHandle<()>,
    matchmaker: tokio::task::JoinHandle<()>,
    /// This process's hold on its instance name (`instance_lock`), released after the lease.
    instance_lock: instance_lock::InstanceLock,
}

impl Server {
    /// Takes the instance's lock (refused while another live process, or another server here,
    /// runs under this `--instance` on this database), opens the database (migrating it),
    /// starts this instance's lease, restores its rooms, binds and serves.
    pub async fn start(cfg: Config) -> Result<Server, Box<dyn std::error::Error + Send + Sync>> {
        // Bad certificate files stop the start before anything else happens.
        let acme = cfg.acme();
        let tls_on = cfg.tls_cert.is_some() || acme.is_some();
        let metrics = Arc::new(if tls_on { Metrics::with_tls() } else { Metrics::new() });
        let challenges = acme::Challenges::default();
        let tls = match &acme {
            Some(a) => {
                Some(Arc::new(tls::Tls::acme(a.chain_path(), a.key_path(), metrics.clone(), challenges.clone())?))
            }
            None => tls::Tls::from_config(&cfg, &metrics)?.map(Arc::new),
        };
        // Before anything touches the database: a second copy of a running instance would
        // restore its running rooms and delete its queued players.
        let instance_lock = instance_lock::InstanceLock::acquire(&cfg.database_url(), &cfg.instance).await?;
        let db = Db::connect(&cfg.database_url()).await?;
        let listener = listener::bind(cfg.listen)?;
        let addr = listener.local_addr()?;
        let scheme = if tls.is_some() { "https" } else { "http" };
        let public_url = cfg.public_url.clone().unwrap_or_else(|| format!("{scheme}://{addr}"));
        let (stop, shutdown) = watch::channel(false);
        if let Some(t) = &tls {
            // Ends at shutdown (or when the start fails further on and the sender is dropped).
            tls::reload::spawn(t.clone(), Duration::from_millis(cfg.tls_poll_ms), shutdown.clone())?;
        }
        if let (Some(settings), Some(t)) = (acme, &tls) {
            // Each certificate the ACME task stores is read into the listener at once.
            let t = t.clone();
            let install = move |_: &acme::Issued| {
                let _ = t.reload("a new ACME certificate");
            };
            tokio::spawn(acme::run(settings, challenges, install, shutdown.clone()));
        }
        let seats = seats::Seats::new(&db, &cfg.instance);
        let app = Arc::new(App::new(cfg, db, metrics, shutdown.clone(), public_url, seats, tls));
        lease::acquire(&app).await?;
        // Holds of an earlier run of this instance go before its rooms come back and claim theirs.
        app.seats().forget_earlier_run().await?;
        room::restore_rooms(&app).await?;
        let lease = lease::spawn_renewal(app.clone());
        let matchmaker = queue::spawn(app.clone());
        let router = http::router(app.clone());
        let handle = tokio::spawn(listener::serve(listener, router, app.clone()));
        Ok(Server { addr, app, stop, handle, lease, matchmaker, instance_lock })
    }

    /// Becomes true when another process took this instance's lock while this one was cut off
    /// from PostgreSQL: this process must stop writing at once (the binary exits).
    pub fn instance_lock_lost(&self) -> watch::Receiver<bool> {
        self.instance_lock.lost()
    }

    /// Graceful shutdown: clients are told (`bye`), rooms stop after their last write, then the
    /// lease ends (other instances may take the rooms over at once), the database is closed and
    /// the instance's lock released (its name may start again at once).
    pub async fn shutdown(self) {
        let _ = self.stop.send(true);
        let rooms: Vec<_> = self.app.rooms().lock().values().cloned().collect();
        for r in &rooms {
            let _ = r.send(room::RoomCmd::Shutdown).await;
        }
        // A room closes its receiver after its last write, a moment before its task leaves the
        // registry (`Room::ended`): `closed` answers at the first, so the registry is waited for
        // too (a shutdown under load found a room still listed and left its lease to run out).
        let wait = Duration::from_secs(5);
        let stopped = tokio::time::timeout(wait, async {
            for r in &rooms {
                r.closed().await;
            }
            while !self.app.rooms().lock().is_empty() {
                tokio::time::sleep(Duration::from_millis(5)).await;
            }
        })
        .await
        .is_ok();
        let _ = tokio::time::timeout(wait, self.handle).await;
        let _ = self.lease.await;
        let _ = self.matchmaker.await;
        if stopped && self.app.rooms().lock().is_empty() {
            if let Err(e) = self.app.db().end_lease(&self.app.cfg().instance).await {
                tracing::warn!(error = %e, "lease not ended; it runs out by itself");
            }
        } else {
            tracing::warn!("rooms still running at shutdown: the lease is left to run out");
        }
        self.app.db().close().await;
        self.instance_lock.release().await;
    }
}
