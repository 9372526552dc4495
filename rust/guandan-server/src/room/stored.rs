//! What survives a restart: the room's settings and who sits where, as its row of the directory
//! keeps them (serialized). The lobby changes them through the methods here (the host, what
//! spectators see, a new match's seed and seats); the rest of the room reads them.

use super::*;

/// What survives a restart: the room's settings and who sits where (rows of the directory).
#[derive(Clone, Debug, Default, Serialize, Deserialize)]
pub(super) struct Stored {
    pub(super) preset: String,
    pub(super) spectator_delay: u32,
    /// The creator's seed: only in practice rooms (a server run with `--practice-seeds`).
    pub(super) seed: Option<u64>,
    /// A practice room: its matches are dealt from `seed` (+ the match number), which its
    /// creator knows. Marked in the room's info and in every stored match's metadata.
    #[serde(default)]
    pub(super) practice: bool,
    pub(super) host: String,
    pub(super) seats: [(Option<PlayerRef>, Option<u8>); 4],
    pub(super) match_seed: u64,
    pub(super) started_ms: i64,
    /// The account that created the room (rooms per account are limited); older rows: none.
    #[serde(default)]
    pub(super) creator: Option<String>,
    /// Opponents who must accept a surrender: 1, the spec's online rule, for rooms made now;
    /// rooms stored before this field existed played by the unanimous rule (2).
    #[serde(default = "unanimous_surrender")]
    pub(super) surrender_opponent_accepts: u8,
    /// The rules revision the match in progress is played under (set when it starts); rows
    /// stored before this field existed hold matches of revision 1, restored as they were played.
    #[serde(default = "first_rules_revision")]
    pub(super) rules_revision: u32,
    /// A ranked room (quick match): its finished matches move the players' ratings.
    #[serde(default)]
    pub(super) ranked: bool,
    /// The team whose hands spectators see (the host's choice in a friend room; never in a
    /// ranked one); older rows: none.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub(super) spectator_hands: Option<Team>,
}

fn first_rules_revision() -> u32 {
    guandan_core::rules::FIRST_RULES_REVISION
}

fn unanimous_surrender() -> u8 {
    guandan_core::rules::UNANIMOUS_SURRENDER
}

/// Online surrender (design spec): the partner agrees, then at least one opponent accepts.
pub(super) const ONLINE_SURRENDER_OPPONENT_ACCEPTS: u8 = 1;

impl Stored {
    /// The room's rules: its preset with the room's surrender rule.
    pub(super) fn rules(&self) -> Option<RuleConfig> {
        let rules = RuleConfig::preset(&self.preset)?;
        Some(RuleConfig { surrender_opponent_accepts: self.surrender_opponent_accepts, ..rules })
    }

    /// The host's role passes to this player.
    pub(super) fn pass_host(&mut self, player: String) {
        self.host = player;
    }

    /// The host lets spectators see this team's hands (or none) from the next match on; true
    /// when that changed.
    pub(super) fn show_hands(&mut self, team: Option<Team>) -> bool {
        let changed = self.spectator_hands != team;
        self.spectator_hands = team;
        changed
    }

    /// A new match starts, dealt from `seed` for `seats` at `now_ms`.
    pub(super) fn match_started(&mut self, seed: u64, seats: [(Option<PlayerRef>, Option<u8>); 4], now_ms: i64) {
        self.match_seed = seed;
        // Runtime::start plays every new match under the current revision.
        self.rules_revision = guandan_core::rules::RULES_REVISION;
        self.started_ms = now_ms;
        self.seats = seats;
    }

    /// Who a spectator of the room's next match is: shown one team's hands, or none.
    pub(super) fn spectator_viewer(&self) -> Viewer {
        match self.spectator_hands {
            Some(t) if !self.ranked => Viewer::Team(t),
            _ => Viewer::Spectator,
        }
    }
}
