//! Rooms and their lobby: creating, joining or watching a room, seats and readiness, the host's
//! start and disband, the vote for another match; the room as GDScript reads it.

use godot::prelude::*;
use guandan_core::error::ErrorCode;
use guandan_core::seat::Seat;
use guandan_proto::{ClientMsg, SeatSetting, parse_room_code};

use super::GuandanClient;
use crate::args;
use crate::codes::Fail;

#[godot_api(secondary)]
impl GuandanClient {
    /// Creates a room with the caller as host in seat 0: `{rules: "competition", spectator_delay:
    /// 3, seed: int, spectator_hands: 0 or 1 (the team whose hands spectators see; -1 none)}`
    /// (every key optional).
    #[func]
    pub fn create_room(&mut self, config: VarDictionary) -> i64 {
        let r = (|| {
            let rules = match config.get("rules") {
                Some(v) => {
                    let s = v.try_to::<GString>().map_err(|_| Fail::bad_argument("rules: a preset name"))?.to_string();
                    if guandan_core::rules::RuleConfig::preset(&s).is_none() {
                        return Err(Fail::bad_argument(format!("rules: unknown preset {s:?}")));
                    }
                    Some(s)
                }
                None => None,
            };
            let spectator_delay = match config.get("spectator_delay") {
                Some(v) => Some(
                    v.try_to::<i64>()
                        .ok()
                        .and_then(|d| u32::try_from(d).ok())
                        .filter(|d| *d <= 20)
                        .ok_or_else(|| Fail::bad_argument("spectator_delay: 0 to 20 rounds"))?,
                ),
                None => None,
            };
            let seed = match config.get("seed") {
                Some(v) => {
                    Some(args::seed_from_int(v.try_to::<i64>().map_err(|_| Fail::bad_argument("seed: an int"))?))
                }
                None => None,
            };
            let spectator_hands = match config.get("spectator_hands") {
                Some(v) => spectator_team(v.try_to::<i64>().unwrap_or(i64::MIN))?,
                None => None,
            };
            self.send(ClientMsg::CreateRoom { rules, spectator_delay, seed, spectator_hands })
        })();
        self.finish("create_room", r)
    }

    /// Takes a free seat of the room `code` (6 characters; case is ignored).
    #[func]
    pub fn join_room(&mut self, code: GString) -> i64 {
        let r = room_code(&code).and_then(|code| self.send(ClientMsg::JoinRoom { code, last_action_seq: None }));
        self.finish("join_room", r)
    }

    /// Watches the room `code` (every hand hidden, some rounds behind).
    #[func]
    pub fn spectate(&mut self, code: GString) -> i64 {
        let r = room_code(&code).and_then(|code| self.send(ClientMsg::Spectate { code }));
        self.finish("spectate", r)
    }

    /// Host, before the match: `ai_level` 1–3 fills `seat` with the server's AI, 0 opens it.
    #[func]
    pub fn set_seat(&mut self, seat: i64, ai_level: i64) -> i64 {
        let r = (|| {
            let seat = Seat::try_from(seat).map_err(|e| Fail::bad_argument(e.to_string()))?;
            let setting = match ai_level {
                0 => SeatSetting::Open,
                1..=3 => SeatSetting::Ai { level: ai_level as u8 },
                _ => return Err(Fail::bad_argument("ai_level: 0 (open) or 1 to 3")),
            };
            self.send(ClientMsg::SetSeat { seat, setting })
        })();
        self.finish("set_seat", r)
    }

    /// Host, in the lobby of a friend room: spectators see `team`'s hands (0: seats 0 and 2, 1:
    /// seats 1 and 3) from the next match on; -1 shows none. The server refuses it in ranked
    /// rooms and while a match runs (`error`); the room's `spectator_hands` says the setting.
    #[func]
    pub fn set_spectator_hands(&mut self, team: i64) -> i64 {
        let r = spectator_team(team).and_then(|team| self.send(ClientMsg::SetSpectatorHands { team }));
        self.finish("set_spectator_hands", r)
    }

    /// In the lobby: moves the player to the free `seat` (answered by `room_joined` with it).
    #[func]
    pub fn change_seat(&mut self, seat: i64) -> i64 {
        let r = Seat::try_from(seat)
            .map_err(|e| Fail::bad_argument(e.to_string()))
            .and_then(|seat| self.send(ClientMsg::ChangeSeat { seat }));
        self.finish("change_seat", r)
    }

    #[func]
    pub fn set_ready(&mut self, ready: bool) -> i64 {
        let r = self.send(ClientMsg::Ready { ready });
        self.finish("set_ready", r)
    }

    /// Host: starts the match once every seat is taken and every human is ready.
    #[func]
    pub fn start_room(&mut self) -> i64 {
        let r = self.send(ClientMsg::Start);
        self.finish("start_room", r)
    }

    /// Host, while no match runs: closes the room for everyone.
    #[func]
    pub fn disband_room(&mut self) -> i64 {
        let r = self.send(ClientMsg::Disband);
        self.finish("disband_room", r)
    }

    /// Leaves the room (in a lobby the seat is freed).
    #[func]
    pub fn leave_room(&mut self) -> i64 {
        let r = self.send(ClientMsg::Leave);
        if r.is_ok() {
            self.reset_room();
        }
        self.finish("leave_room", r)
    }

    /// After a match (vote phase): play again (`true`) or not.
    #[func]
    pub fn rematch(&mut self, accept: bool) -> i64 {
        let r = self.send(ClientMsg::Rematch { accept });
        self.finish("rematch", r)
    }

    /// Asks the server for the full position (announced whole, after `resynced`).
    #[func]
    pub fn resync(&mut self) -> i64 {
        let r = self.send(ClientMsg::Resync);
        self.finish("resync", r)
    }

    /// The room, or null outside a room.
    #[func]
    pub fn get_room(&self) -> Option<Gd<crate::values::OnlineRoom>> {
        self.room.as_ref().map(crate::values::OnlineRoom::make)
    }

    #[func]
    pub fn get_room_code(&self) -> GString {
        GString::from(self.room_code.as_str())
    }

    /// Whether this client hosts its room.
    #[func]
    pub fn is_room_host(&self) -> bool {
        self.room.as_ref().is_some_and(|r| i64::from(r.host_seat) == self.room_seat && self.room_seat >= 0)
    }

    /// Whether this client watches (no seat).
    #[func]
    pub fn is_spectator(&self) -> bool {
        self.in_room && self.room_seat < 0
    }

    /// Whether the server's AI plays `seat` for its absent player.
    #[func]
    pub fn is_hosted(&self, seat: i64) -> bool {
        (0..4).contains(&seat) && self.hosted[seat as usize]
    }
}

/// A team whose hands spectators see, as GDScript passes it: 0 or 1, -1 none.
fn spectator_team(team: i64) -> Result<Option<u8>, Fail> {
    match team {
        -1 => Ok(None),
        0 | 1 => Ok(Some(team as u8)),
        _ => Err(Fail::bad_argument("spectator_hands: team 0 or 1, or -1 for none")),
    }
}

fn room_code(code: &GString) -> Result<String, Fail> {
    parse_room_code(&code.to_string()).map_err(|why| Fail::new(ErrorCode::RoomNotFound, why))
}
