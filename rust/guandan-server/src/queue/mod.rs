//! Quick match: players wait in a queue shared by every instance (the database, [`store`]);
//! each instance's matchmaker forms tables from it every `--queue-tick-ms` ([`tables`]), opens a
//! ranked room for each table it formed and starts its match; each instance then hands its own
//! waiting connections their table (`Seated`), and the connection joins it like a returning
//! player (or is redirected to the instance that holds it). The same code path runs on SQLite
//! (one instance) and PostgreSQL (several). Instances of one deployment share a pool
//! (`--queue-pool`): players are matched within their pool only (a region, a test).

pub mod store;
pub mod tables;

use guandan_core::seat::Seat;
use std::collections::{BTreeMap, HashMap};
use std::sync::Arc;
use std::time::Duration;

use parking_lot::Mutex;
use tokio::sync::mpsc;

use crate::App;
use crate::db::now_ms;
use crate::room::{self, PlayerRef, RoomCmd};
use tables::{Formed, Waiter};

/// The matchmaking rating of a player who has none for the rules yet (Weng-Lin's starting mu).
pub const NEW_PLAYER_RATING: f64 = 25.0;

/// What a waiting connection hears from its instance's matchmaker.
#[derive(Clone, Debug, PartialEq)]
pub enum QueueEvent {
    /// Still waiting: `found` players (itself included, at most 4) wait for these rules.
    Status { waited_ms: u64, found: u8 },
    /// A table was formed: join room `code`.
    Seated { code: String },
}

/// The connections of this instance that wait in the queue, by player.
#[derive(Default)]
pub struct Waiters {
    map: Mutex<HashMap<String, mpsc::Sender<QueueEvent>>>,
}

impl Waiters {
    /// Registers a waiting connection; its events arrive on the returned receiver.
    pub fn add(&self, player_id: &str) -> mpsc::Receiver<QueueEvent> {
        let (tx, rx) = mpsc::channel(4);
        self.map.lock().insert(player_id.to_string(), tx);
        rx
    }

    pub fn remove(&self, player_id: &str) {
        self.map.lock().remove(player_id);
    }

    pub fn len(&self) -> usize {
        self.map.lock().len()
    }

    /// Whether a connection of `player` waits here.
    pub fn contains(&self, player_id: &str) -> bool {
        self.map.lock().contains_key(player_id)
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Tells a waiting connection (a full channel drops a status: the next one comes soon).
    fn tell(&self, player_id: &str, e: QueueEvent) -> bool {
        let map = self.map.lock();
        match map.get(player_id) {
            Some(tx) => tx.try_send(e).is_ok(),
            None => false,
        }
    }
}

/// The matchmaker of this instance: runs until the server shuts down.
pub fn spawn(app: Arc<App>) -> tokio::task::JoinHandle<()> {
    tokio::spawn(async move {
        // Rows of an earlier run of this instance belong to connections that are gone.
        if let Err(e) = app.db().queue_forget_instance(&app.cfg().instance).await {
            tracing::warn!(error = %e, "old queue rows not removed");
        }
        let mut shutdown = app.shutdown().clone();
        let mut every = tokio::time::interval(Duration::from_millis(app.cfg().queue_tick_ms.max(10)));
        every.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
        loop {
            tokio::select! {
                _ = every.tick() => {}
                _ = shutdown.wait_for(|v| *v) => break,
            }
            if let Err(e) = tick(&app).await {
                tracing::warn!(error = %e, "matchmaking tick failed");
            }
        }
    })
}

/// One round: form the tables the queue allows, then hand this instance's players theirs.
async fn tick(app: &Arc<App>) -> Result<(), crate::db::DbError> {
    let dead = app.db().queue_forget_dead().await?;
    if dead > 0 {
        tracing::info!(dead, "queue rows of instances that are gone removed");
    }
    let waiting = app.db().queue_waiting(&app.cfg().queue_pool).await?;
    let now = now_ms();
    let mut by_rules: BTreeMap<&str, Vec<Waiter>> = BTreeMap::new();
    for r in &waiting {
        let waited_ms = u64::try_from(now - r.joined_at).unwrap_or(0);
        by_rules.entry(&r.rules).or_default().push(Waiter {
            player_id: r.player_id.clone(),
            rating: r.rating,
            waited_ms,
            source: r.source.clone(),
        });
    }
    let rules = app.cfg().queue_rules();
    let mut seated = std::collections::HashSet::new();
    for (preset, group) in &by_rules {
        for t in tables::form(group, &rules) {
            if open_table(app, preset, &t).await {
                seated.extend(t.players().map(|(_, p)| p.to_string()));
                app.metrics().table_formed(t.spread);
            }
        }
    }
    for r in waiting.iter().filter(|r| r.instance == app.cfg().instance && !seated.contains(&r.player_id)) {
        let found = by_rules.get(r.rules.as_str()).map_or(1, |g| g.len().min(4) as u8);
        let waited_ms = u64::try_from(now - r.joined_at).unwrap_or(0);
        app.waiters().tell(&r.player_id, QueueEvent::Status { waited_ms, found });
    }
    for (player, code) in app.db().queue_seated(&app.cfg().instance).await? {
        app.waiters().tell(&player, QueueEvent::Seated { code });
        app.waiters().remove(&player);
        app.db().queue_forget(&player).await?;
    }
    Ok(())
}

/// Opens a ranked room for a formed table and claims its players; false when one of them was
/// gone or seated elsewhere meanwhile (the room then closes unplayed; the others wait on).
async fn open_table(app: &Arc<App>, preset: &str, t: &Formed) -> bool {
    let mut players: [Option<PlayerRef>; 4] = Default::default();
    for (seat, id) in t.players() {
        match app.db().player(id).await {
            Ok(Some(nickname)) => {
                let nickname = guandan_proto::displayable_nickname(&nickname);
                players[seat.index()] = Some(PlayerRef { id: id.to_string(), nickname });
            }
            Ok(None) => return false,
            Err(e) => {
                tracing::warn!(error = %e, "queued player not read");
                return false;
            }
        }
    }
    let (code, tx) = match room::create_quick(app, preset, players, t.ai_level).await {
        Ok(x) => x,
        Err((_, message)) => {
            tracing::warn!(message, "quick-match room not opened");
            return false;
        }
    };
    let claims: Vec<(&str, Seat)> = t.players().map(|(seat, p)| (p, seat)).collect();
    let claimed = match app.db().queue_claim(&code, &app.cfg().instance, &claims).await {
        Ok(c) => c,
        Err(e) => {
            tracing::warn!(error = %e, "queue claim failed");
            false
        }
    };
    let _ = tx.send(if claimed { RoomCmd::BeginQuick } else { RoomCmd::Abandon }).await;
    tracing::info!(code, claimed, players = claims.len(), ai_level = t.ai_level, "quick-match table");
    claimed
}
