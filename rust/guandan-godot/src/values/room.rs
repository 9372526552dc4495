//! `OnlineRoom` and `RoomSeat`: an online room's lobby state, as the server announces it.

use godot::prelude::*;
use guandan_proto::{RoomInfo, SeatInfo};

/// One seat of a room.
#[derive(GodotClass)]
#[class(no_init, base = RefCounted)]
pub struct RoomSeat {
    /// 0–3.
    #[var(no_set)]
    seat: i64,
    /// The nickname of the person in it, `""` when none.
    #[var(no_set)]
    player: GString,
    /// The AI level of an AI seat (1–3), 0 when none.
    #[var(no_set)]
    ai: i64,
    #[var(no_set)]
    ready: bool,
    #[var(no_set)]
    connected: bool,
    /// The server's AI plays for its absent player.
    #[var(no_set)]
    hosted: bool,
}

/// A room before, during and after its match.
#[derive(GodotClass)]
#[class(no_init, base = RefCounted)]
pub struct OnlineRoom {
    /// The code players join with.
    #[var(no_set)]
    code: GString,
    /// `waiting`, `playing`, `hosting`, `reconnecting`, `finished`, `vote_phase`, `destroyed`.
    #[var(no_set)]
    state: GString,
    #[var(no_set)]
    host_seat: i64,
    /// The rules preset (`competition`, …).
    #[var(no_set)]
    rules: GString,
    /// Seconds spectators see the match late.
    #[var(no_set)]
    spectator_delay: i64,
    #[var(no_set)]
    spectators: i64,
    #[var(no_set)]
    locked: bool,
    /// Matches finished in the room.
    #[var(no_set)]
    matches: i64,
    /// A practice room (its deals from a chosen seed).
    #[var(no_set)]
    practice: bool,
    /// The server's break after each deal, in ms (0: none).
    #[var(no_set)]
    deal_break_ms: i64,
    /// The team whose hands spectators see (0 or 1), -1 none.
    #[var(no_set)]
    spectator_hands: i64,
    /// The four seats, by seat number.
    #[var(no_set)]
    seats: Array<Gd<RoomSeat>>,
}

impl OnlineRoom {
    pub fn make(r: &RoomInfo) -> Gd<OnlineRoom> {
        let seats = r.seats.iter().map(seat).collect();
        let state = serde_json::to_value(r.state).ok().and_then(|v| v.as_str().map(str::to_string)).unwrap_or_default();
        Gd::from_object(OnlineRoom {
            code: r.code.as_str().into(),
            state: state.as_str().into(),
            host_seat: i64::from(r.host_seat),
            rules: r.rules.as_str().into(),
            spectator_delay: i64::from(r.spectator_delay),
            spectators: i64::from(r.spectators),
            locked: r.locked,
            matches: i64::from(r.matches),
            practice: r.practice,
            deal_break_ms: i64::from(r.deal_break_ms),
            spectator_hands: r.spectator_hands.map_or(-1, i64::from),
            seats,
        })
    }
}

fn seat(s: &SeatInfo) -> Gd<RoomSeat> {
    Gd::from_object(RoomSeat {
        seat: i64::from(s.seat),
        player: s.player.as_deref().unwrap_or("").into(),
        ai: i64::from(s.ai.unwrap_or(0)),
        ready: s.ready,
        connected: s.connected,
        hosted: s.hosted,
    })
}

#[godot_api]
impl OnlineRoom {
    /// A room from the protocol's JSON of one (`RoomInfo`, docs/protocol.md) — for tests and
    /// tools that draw a room the server did not send; null (with a warning) when it is not one.
    #[func]
    pub fn parse(json: GString) -> Option<Gd<OnlineRoom>> {
        match serde_json::from_str::<RoomInfo>(&json.to_string()) {
            Ok(r) => Some(OnlineRoom::make(&r)),
            Err(e) => {
                godot_warn!("OnlineRoom.parse: {e}");
                None
            }
        }
    }

    /// The seat `seat` (0–3), or null.
    #[func]
    pub fn seat(&self, seat: i64) -> Option<Gd<RoomSeat>> {
        self.seats.iter_shared().find(|s| s.bind().seat == seat)
    }
}
