//! Additive v1 seat moves: `change_seat` (a lobby member moves to a free seat) and `auto_play`
//! (a present player hands the seat to the server's AI — 托管 — and takes it back), and hosting
//! by the AI (a player away past the heartbeat timeout, or idle). It owns no state: it changes
//! the seats through `Seats`' methods and the match through play.rs (`hand_seat`).

use super::{Room, RoomEvent, RoomState};
use guandan_core::game::Seat;
use guandan_proto::{ErrorCode, ServerMsg};
use guandan_runtime::Controller;

use super::{ConnId, ai_profile};

impl Room {
    /// Moves the caller to `seat` while the room is a lobby. Taken or locked seats are refused
    /// with their code and nothing changes.
    pub(super) async fn change_seat(&mut self, conn: ConnId, seat: Seat) {
        let Some(from) = self.seat_of(conn) else {
            return self.refuse(conn, ErrorCode::NotYourSeat, "spectators have no seat to move", None);
        };
        if self.state.locked() {
            return self.refuse(conn, ErrorCode::RoomLocked, "seats are fixed while a match runs", None);
        }
        if !matches!(self.state, RoomState::Waiting | RoomState::ReadyCheck) {
            return self.refuse(conn, ErrorCode::BadRoomState, "seats move only in the lobby", None);
        }
        if seat == from {
            return self.send_room_to(conn);
        }
        if self.seats[seat].taken() {
            return self.refuse(conn, ErrorCode::NotYourSeat, format!("seat {seat} is taken"), None);
        }
        self.seats.move_to(from, seat);
        self.members.set_seat(conn, Some(seat));
        self.send_msg(conn, &ServerMsg::Joined { code: self.code.clone(), seat: Some(seat) });
        self.send_room();
        self.save_directory().await;
    }

    /// Hands the caller's seat to the server's AI (`on`) or gives it back, during a match.
    pub(super) async fn auto_play(&mut self, conn: ConnId, on: bool) {
        let Some(seat) = self.seat_of(conn) else {
            return self.refuse(conn, ErrorCode::NotYourSeat, "spectators have no seat", None);
        };
        if !self.state.in_game() {
            return self.refuse(conn, ErrorCode::BadRoomState, "no match is running", None);
        }
        if self.seats[seat].hosted == on {
            // Already so (asked for now, the AI keeps the seat until auto-play is turned off,
            // whatever the player sends): the room state tells the caller.
            self.seats.keep_hosting(seat);
            return self.send_room_to(conn);
        }
        if on {
            tracing::info!(seat = %seat, "seat handed to the AI by its player");
            self.host_present(seat, false).await;
            self.seats.chose_auto_play(seat);
        } else {
            self.take_back(seat).await;
        }
    }

    /// Seats whose player has been gone for the heartbeat timeout are played by the AI.
    pub(super) async fn host_lost_seats(&mut self, now: tokio::time::Instant) {
        let hb = self.app.cfg().heartbeat_timeout();
        if self.state.in_game() {
            for seat in Seat::ALL {
                let s = &self.seats[seat];
                if s.lost_at.is_some_and(|at| at + hb <= now) && !s.hosted && s.player.is_some() {
                    self.seats.host(seat, false);
                    self.transition(RoomEvent::HeartbeatLost);
                    tracing::info!(seat = %seat, "seat hosted by the AI");
                    let profile = ai_profile(self.app.cfg().hosting_ai);
                    self.hand_seat(seat, Controller::StandIn(profile), false).await;
                    self.broadcast(&ServerMsg::Hosting { seat, on: true });
                    self.send_room();
                }
            }
        }
    }

    /// Hands a present player's seat to the AI: by its choice (`auto_play`), or because it let
    /// `--auto-play-after-timeouts` duties in a row time out (`idle`: any intent of the player
    /// then takes the seat back). The room is told (`hosting`, and the seat's info).
    pub(super) async fn host_present(&mut self, seat: Seat, idle: bool) {
        self.seats.host(seat, idle);
        self.transition(RoomEvent::HeartbeatLost);
        let profile = ai_profile(self.app.cfg().hosting_ai);
        self.hand_seat(seat, Controller::StandIn(profile), false).await;
        self.broadcast(&ServerMsg::Hosting { seat, on: true });
        self.send_room();
    }

    /// A present player takes its seat back from the AI; its duty, if it has one, is told anew.
    pub(super) async fn take_back(&mut self, seat: Seat) {
        self.seats.unhost(seat);
        self.transition(RoomEvent::Reconnect);
        // An AI decision asked for but not applied yet is dropped (as at a reconnect).
        self.drop_ai_in_flight();
        self.hand_seat(seat, Controller::Human, true).await;
        let still = self.seats.any_hosted();
        self.transition(if still { RoomEvent::CaughtUpStillHosting } else { RoomEvent::CaughtUp });
        self.broadcast(&ServerMsg::Hosting { seat, on: false });
        self.send_room();
    }

    /// Hands to the AI every present player who let `--auto-play-after-timeouts` of its duties
    /// in a row time out: a player whose heartbeat lives but who never acts would otherwise hold
    /// every duty for the whole turn limit (hours a match).
    pub(super) async fn host_idle_seats(&mut self) {
        let n = self.app.cfg().auto_play_after_timeouts;
        if n == 0 || !self.state.in_game() {
            return;
        }
        for seat in Seat::ALL {
            let idle = self.play.timed_out_in_a_row(seat, n);
            let s = &self.seats[seat];
            if idle && !s.hosted && s.player.is_some() {
                tracing::info!(seat = %seat, timeouts = n, "seat handed to the AI: its duties timed out in a row");
                self.host_present(seat, true).await;
            }
        }
    }
}
