//! Instance leases and room takeover. Each instance holds a lease row in the database, renewed
//! every third of `--lease-ms` and timed by the database's clock. When an instance dies for good
//! (a replaced pod comes back under a new name) its lease runs out, and the next instance a player
//! of one of its rooms reaches claims the room atomically and rebuilds it from the stored log.
//! Time decides who owns a room, never a rule or an AI choice.

use crate::App;
use crate::db::{DbError, RoomRow};
use crate::room::{self, RoomCmd};
use std::collections::HashSet;
use std::sync::Arc;
use tokio::sync::mpsc;
use tokio::task::JoinHandle;

/// Where a player who asked for a room should go.
pub enum Entry {
    /// The room runs here now (taken over, or by another connection meanwhile).
    Here(mpsc::Sender<RoomCmd>),
    /// Its owner: a live instance, or the one that won the race to take it over.
    Owner(RoomRow),
    /// The room is gone, or could not be rebuilt here.
    Gone,
}

/// Starts this instance's lease (before it restores its rooms, so no one takes them meanwhile).
pub async fn acquire(app: &App) -> Result<(), DbError> {
    let url = app.public_url().lock().clone();
    app.db().lease(&app.cfg().instance, &url, app.cfg().lease_ms as i64, true).await
}

/// Renews the lease until shutdown. After each renewal, rooms that another instance took over
/// while this one could not renew (a long pause, a lost database) are stopped here.
pub fn spawn_renewal(app: Arc<App>) -> JoinHandle<()> {
    tokio::spawn(async move {
        let mut shutdown = app.shutdown().clone();
        loop {
            tokio::select! {
                _ = tokio::time::sleep(app.cfg().lease_renewal()) => {}
                _ = shutdown.wait_for(|s| *s) => break,
            }
            let url = app.public_url().lock().clone();
            match app.db().lease(&app.cfg().instance, &url, app.cfg().lease_ms as i64, false).await {
                Ok(()) => fence(&app).await,
                Err(e) => tracing::warn!(error = %e, "lease not renewed"),
            }
        }
    })
}

/// Stops local rooms that the directory gives to another instance.
async fn fence(app: &Arc<App>) {
    // Local rooms first: a room's row is written before its task starts, so a room listed here
    // and missing from the directory below has really moved.
    let local: Vec<(String, mpsc::Sender<RoomCmd>)> =
        app.rooms().lock().iter().map(|(c, tx)| (c.clone(), tx.clone())).collect();
    if local.is_empty() {
        return;
    }
    let owned: HashSet<String> = match app.db().room_codes_of(&app.cfg().instance).await {
        Ok(codes) => codes.into_iter().collect(),
        Err(e) => return tracing::warn!(error = %e, "room directory not read"),
    };
    for (code, tx) in local {
        if !owned.contains(&code) && !tx.is_closed() {
            tracing::warn!(code = %code, "room taken over by another instance: stopped here");
            let _ = tx.send(RoomCmd::Shutdown).await;
        }
    }
}

/// A player asked this instance for a room that `row` gives to another instance: take it over
/// when that instance's lease has run out, otherwise point to the owner.
pub async fn take_over(app: &Arc<App>, row: RoomRow) -> Result<Entry, DbError> {
    // A read first: redirects to live owners (the common case) take no lock and write nothing.
    match app.db().lease_left_ms(&row.instance).await? {
        Some(left) if left < 0 => {}
        _ => return Ok(Entry::Owner(row)),
    }
    // One takeover at a time on this instance: a second player of the same room waits here and
    // then finds the room running.
    let _one = app.takeover().lock().await;
    if let Some(tx) = app.rooms().lock().get(&row.code).cloned() {
        return Ok(Entry::Here(tx));
    }
    let url = app.public_url().lock().clone();
    let Some(claimed) = app.db().take_over_room(&row.code, &row.instance, &app.cfg().instance, &url).await? else {
        // Another instance won the race (or the owner renewed just now): send the player there.
        return Ok(match app.db().room(&row.code).await? {
            Some(now) if now.instance != app.cfg().instance => Entry::Owner(now),
            _ => Entry::Gone,
        });
    };
    app.metrics().rooms_taken_over.inc();
    tracing::info!(code = %row.code, from = %row.instance, to = %app.cfg().instance, "room taken over");
    Ok(match room::restore(app, &claimed).await? {
        Some(tx) => Entry::Here(tx),
        None => Entry::Gone,
    })
}

/// A room the directory gives to this instance that does not run here: its task stopped after a
/// refused write (e.g. a lapsed former owner wrote that action seq first). It is rebuilt from the
/// stored log, as the next start would, so that its players can rejoin at once.
pub async fn revive(app: &Arc<App>, row: RoomRow) -> Result<Entry, DbError> {
    let _one = app.takeover().lock().await;
    if let Some(tx) = app.rooms().lock().get(&row.code).cloned() {
        return Ok(Entry::Here(tx));
    }
    // Never while shutting down: the lease ends only once every room has stopped.
    if *app.shutdown().borrow() {
        return Ok(Entry::Gone);
    }
    tracing::info!(code = %row.code, "room rebuilt from its log");
    Ok(match room::restore(app, &row).await? {
        Some(tx) => Entry::Here(tx),
        None => Entry::Gone,
    })
}
