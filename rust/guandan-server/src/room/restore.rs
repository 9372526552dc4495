//! Rooms rebuilt from the directory and the stored actions: after a restart, or when this
//! instance takes a room over from a dead one.

use super::*;

/// Rebuilds every room this instance owned from the directory and the stored actions (restart).
pub async fn restore_rooms(app: &Arc<App>) -> Result<(), crate::db::DbError> {
    for row in app.db.rooms_of(&app.cfg.instance).await? {
        restore(app, &row).await?;
    }
    Ok(())
}

/// Rebuilds one room of the directory on this instance from its row and its stored actions: after
/// a restart, or when this instance took the room over from a dead one. A match goes on at the
/// same state hash (verified replay); a lobby comes back empty. `None` when the row cannot be
/// rebuilt (logged).
pub async fn restore(
    app: &Arc<App>,
    row: &crate::db::RoomRow,
) -> Result<Option<mpsc::Sender<RoomCmd>>, crate::db::DbError> {
    let Ok(stored) = serde_json::from_str::<Stored>(&row.config) else {
        tracing::error!(code = %row.code, "unreadable room config; skipped");
        return Ok(None);
    };
    let Some(rules) = stored.rules() else { return Ok(None) };
    let in_game = matches!(row.state.as_str(), "playing" | "hosting" | "reconnecting");
    let game = if in_game {
        let mut log = MatchLog::new(stored.match_seed, rules.clone());
        for a in app.db.actions(&row.code, row.match_no).await? {
            match serde_json::from_str(&a) {
                Ok(action) => log.actions.push(action),
                Err(e) => tracing::error!(code = %row.code, error = %e, "unreadable stored action"),
            }
        }
        match Game::resume(log, controllers(&stored.seats), CLOCKS) {
            Ok(g) => Some(g),
            Err(e) => {
                tracing::error!(code = %row.code, error = %e, "stored match does not replay; room dropped");
                return Ok(None);
            }
        }
    } else {
        None
    };
    // A restored match continues; a lobby comes back empty (its members are gone).
    let (state, stored) = if game.is_some() {
        (RoomState::Playing, stored)
    } else {
        (RoomState::Idle, Stored { seats: Default::default(), ..stored })
    };
    tracing::info!(code = %row.code, in_game = game.is_some(), "room restored");
    if let Some(creator) = &stored.creator {
        app.count_room(creator);
    }
    Ok(Some(spawn(app.clone(), row.code.clone(), stored, rules, state, row.match_no, game)))
}
