//! Rooms rebuilt from the directory and the stored actions: after a restart, or when this
//! instance takes a room over from a dead one.

use super::*;

/// Rebuilds every room this instance owned from the directory and the stored actions (restart).
pub async fn restore_rooms(app: &Arc<App>) -> Result<(), crate::db::DbError> {
    for row in app.db().rooms_of(&app.cfg().instance).await? {
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
        let log = stored_match(&stored, rules.clone(), &app.db().actions(&row.code, row.match_no).await?, &row.code);
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

/// The record of a room's match in progress from its directory row and its stored action lines
/// (unreadable lines are logged and left out; the replay then names the first gap).
fn stored_match(stored: &Stored, rules: RuleConfig, lines: &[String], code: &str) -> MatchLog {
    let mut log = MatchLog::new(stored.match_seed, rules);
    // A match started before a rules fix goes on as it was played.
    log.header.rules_revision = stored.rules_revision;
    for a in lines {
        match serde_json::from_str(a) {
            Ok(action) => log.actions.push(action),
            Err(e) => tracing::error!(code = %code, error = %e, "unreadable stored action"),
        }
    }
    log
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The shared corpus's seed-3 record was played before rules revision 2 and passes through
    /// the changed A reset after 2,066 actions.
    fn old_record() -> MatchLog {
        let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("../../tests/replay-corpus/good_competition_match.jsonl");
        MatchLog::parse(&std::fs::read_to_string(path).unwrap()).unwrap()
    }

    /// A room row written before rooms named their rules revision, holding a match in progress
    /// past that point, is restored exactly as it was played; the same row claiming the current
    /// revision is not (the match goes differently from there).
    #[test]
    fn a_match_stored_before_a_rules_fix_is_restored_as_it_was_played() {
        let old = old_record();
        let n = 2_200;
        let lines: Vec<String> = old.actions[..n].iter().map(|a| MatchLog::action_line(a, None)).collect();
        let row = r#"{"preset":"competition","spectator_delay":0,"seed":null,"host":"p","seats":[[null,null],[null,null],[null,null],[null,null]],"match_seed":3,"started_ms":0}"#;
        let stored: Stored = serde_json::from_str(row).unwrap();
        assert_eq!(stored.rules_revision, 1);
        let rules = stored.rules().unwrap();
        let log = stored_match(&stored, rules.clone(), &lines, "T");
        let played = old.replay_to(n).unwrap();
        let restored = Game::resume(log, controllers(&stored.seats), false).expect("replays");
        assert_eq!(restored.state().state_hash(), played.state_hash());

        let now = Stored { rules_revision: guandan_core::rules::RULES_REVISION, ..stored };
        let log = stored_match(&now, rules, &lines, "T");
        // Either the old actions are not legal under the new revision, or they lead elsewhere.
        if let Ok(g) = Game::resume(log, controllers(&now.seats), false) {
            assert_ne!(g.state().state_hash(), played.state_hash());
        }
    }
}
