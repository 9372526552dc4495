//! This instance's authenticated WebSocket connections by player and session, so that a log
//! out closes them at once. (Connections on other instances of the database end at their next
//! `hello`, which the ended session fails.)

use parking_lot::Mutex;
use std::collections::HashMap;
use std::sync::Arc;
use tokio::sync::Notify;

#[derive(Default)]
pub struct Live {
    by_player: Mutex<HashMap<String, Vec<Entry>>>,
}

struct Entry {
    conn: u64,
    /// The hash of the session token the connection stands for.
    session: String,
    kick: Arc<Notify>,
}

impl Live {
    /// Connection `conn` of `player` authenticated with session `session`: notified when that
    /// session (or every session of the player) ends.
    pub fn add(&self, player: &str, conn: u64, session: &str) -> Arc<Notify> {
        let kick = Arc::new(Notify::new());
        let entry = Entry { conn, session: session.to_string(), kick: kick.clone() };
        self.by_player.lock().entry(player.to_string()).or_default().push(entry);
        kick
    }

    /// The connection ended.
    pub fn remove(&self, player: &str, conn: u64) {
        let mut by_player = self.by_player.lock();
        if let Some(v) = by_player.get_mut(player) {
            v.retain(|e| e.conn != conn);
            if v.is_empty() {
                by_player.remove(player);
            }
        }
    }

    /// Closes the player's connections of these sessions (every one: `None`); how many.
    pub fn close(&self, player: &str, sessions: Option<&[String]>) -> usize {
        let by_player = self.by_player.lock();
        let Some(v) = by_player.get(player) else { return 0 };
        let mut n = 0;
        for e in v.iter().filter(|e| sessions.is_none_or(|s| s.contains(&e.session))) {
            // A permit is kept if the connection is not waiting right now: it sees it next.
            e.kick.notify_one();
            n += 1;
        }
        n
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test]
    async fn a_log_out_reaches_the_connections_of_its_sessions_only() {
        let live = Live::default();
        let phone = live.add("p", 1, "h-phone");
        let tablet = live.add("p", 2, "h-tablet");
        let other = live.add("q", 3, "h-q");
        assert_eq!(live.close("p", Some(&["h-phone".to_string()])), 1);
        tokio::time::timeout(std::time::Duration::from_secs(5), phone.notified()).await.expect("phone told");
        assert_eq!(live.close("p", None), 2, "every connection of the player");
        tokio::time::timeout(std::time::Duration::from_secs(5), tablet.notified()).await.expect("tablet told");
        live.remove("p", 1);
        live.remove("p", 2);
        assert_eq!(live.close("p", None), 0);
        assert_eq!(live.close("q", Some(&[])), 0);
        drop(other);
    }
}
