//! The client's signals going out: queued in order, emitted one by one (a handler may call back
//! into the node; what it causes queues behind).

use godot::prelude::*;

use super::{Conn, GuandanClient};

impl GuandanClient {
    pub(super) fn flush(&mut self) {
        if self.flushing {
            return;
        }
        self.flushing = true;
        while let Some(c) = self.queue.pop_front() {
            self.emit(c);
        }
        self.flushing = false;
    }

    fn emit(&mut self, c: Conn) {
        let mut sig = self.signals();
        match c {
            Conn::Error(code, m) => sig.error().emit(code, &GString::from(m.as_str())),
            Conn::Rating(rules, rating, change, matches) => {
                sig.rating_changed().emit(&GString::from(rules.as_str()), rating, change, i64::from(matches))
            }
            Conn::QueueStatus(rules, queued, waited, found) => {
                sig.queue_status().emit(&GString::from(rules.as_str()), queued, waited as i64, i64::from(found))
            }
            Conn::MatchJoined => sig.match_joined().emit(),
            Conn::Connecting(a) => sig.connecting().emit(i64::from(a)),
            Conn::Connected(id) => sig.connected().emit(&GString::from(id.as_str())),
            Conn::Reconnecting(a) => sig.reconnecting().emit(i64::from(a)),
            Conn::Resynced(seq) => sig.resynced().emit(seq as i64),
            Conn::Disconnected(code, m) => sig.disconnected().emit(code, &GString::from(m.as_str())),
            Conn::ProtocolTooOld(client, m) => sig.protocol_too_old().emit(client, &GString::from(m.as_str())),
            Conn::RoomJoined(code, seat) => sig.room_joined().emit(&GString::from(code.as_str()), seat),
            Conn::RoomChanged(room) => sig.room_changed().emit(&crate::values::OnlineRoom::make(&room)),
            Conn::RoomClosed(m) => sig.room_closed().emit(&GString::from(m.as_str())),
            Conn::HostingChanged(seat, on) => sig.hosting_changed().emit(i64::from(seat), on),
            Conn::LatencyChanged(ms) => sig.latency_changed().emit(ms),
            Conn::Unstable(unstable) => sig.connection_unstable().emit(unstable),
            Conn::MatchStored(n) => sig.match_stored().emit(i64::from(n)),
            Conn::Leaderboard(b) => sig.leaderboard_received().emit(&crate::values::LeaderboardPage::make(&b)),
            Conn::Profile(p) => sig.profile_received().emit(&crate::values::PlayerProfile::make(&p)),
            Conn::RecordKept(name) => sig.record_kept().emit(&GString::from(name.as_str())),
            Conn::FetchFailed(what, code, m) => {
                sig.fetch_failed().emit(&GString::from(what), code, &GString::from(m.as_str()))
            }
            Conn::AccountDone(what, a) => {
                sig.account_done().emit(&GString::from(what), &crate::values::AccountAnswer::make(&a))
            }
            Conn::AccountFailed(what, code, m) => {
                sig.account_failed().emit(&GString::from(what), code, &GString::from(m.as_str()))
            }
        }
    }
}
