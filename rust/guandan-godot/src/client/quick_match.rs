//! Quick match: the queue for a table of similar rating.

use godot::prelude::*;
use guandan_proto::ClientMsg;

use super::GuandanClient;
use crate::codes::Fail;

#[godot_api(secondary)]
impl GuandanClient {
    /// Quick match: waits for a table of these rules (a preset name, default `competition`)
    /// with players of similar rating; answered by `queue_status`, then `room_joined` and the
    /// match of a ranked room that starts at once (a following engine shows it). Refused by the
    /// server while in a room.
    #[func]
    pub fn queue_join(&mut self, rules: GString) -> i64 {
        let rules = rules.to_string();
        let r = if rules.is_empty() || guandan_core::rules::RuleConfig::preset(&rules).is_some() {
            let rules = (!rules.is_empty()).then_some(rules);
            self.send(ClientMsg::QueueJoin { rules })
        } else {
            Err(Fail::bad_argument(format!("rules: unknown preset {rules:?}")))
        };
        self.finish("queue_join", r)
    }

    /// Leaves the quick-match queue (answered by `queue_status` with `queued` false).
    #[func]
    pub fn queue_leave(&mut self) -> i64 {
        let r = self.send(ClientMsg::QueueLeave);
        self.finish("queue_leave", r)
    }
}
