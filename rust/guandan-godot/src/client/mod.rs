//! `GuandanClient`: the online match source. It speaks protocol v1 (`guandan-proto`) to a
//! `guandan-server` from a network thread ([`net`]), keeps its player's view up to date
//! ([`mirror`]) and emits exactly `GuandanEngine`'s match signals, so the table cannot tell the
//! two apart; connection and room signals come on top.
//!
//! Threads: the network thread sees plain Rust data only; its events are drained in `process()`
//! on the main thread, the copy is updated first and the signals are emitted after, from a queue
//! (a handler may call back into the node; its signals queue behind, keeping the order).

pub mod mirror;
pub mod net;
pub mod rotate;

use std::collections::VecDeque;

use godot::classes::{INode, Node};
use godot::prelude::*;
use guandan_core::combo::{choose_reading, classify, wild_set};
use guandan_core::error::ErrorCode;
use guandan_core::game::{ActionKind, Phase};
use guandan_core::view::PlayerView;
use guandan_proto::{ClientMsg, Order, Refusal, RoomInfo, SeatSetting, ServerMsg, parse_room_code};
use guandan_runtime::Out;

use crate::args;
use crate::codes::{self, Fail};
use crate::convert::{self, ids, opt_seat, play_dict, seats};
use crate::forward::Emit;
use mirror::Mirror;
use net::{Net, NetConfig, NetEvent};

/// Connection states (`get_connection_state`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Link {
    Offline,
    Connecting,
    Online,
    Reconnecting,
}

/// A signal of the client that is not a match signal.
#[derive(Clone, Debug)]
enum Conn {
    Connecting(u32),
    Connected(String),
    Reconnecting(u32),
    Resynced(u64),
    Disconnected(i64, String),
    ProtocolTooOld(bool, String),
    RoomJoined(String, i64),
    RoomChanged(Box<RoomInfo>),
    RoomClosed(String),
    HostingChanged(u8, bool),
    LatencyChanged(f64),
    MatchStored(u32),
}

enum Queued {
    Match(Emit),
    Conn(Conn),
}

/// Plays online: the same match signals as `GuandanEngine`, from a `guandan-server`.
///
/// `connect_to_server(address, nickname)` registers a guest and connects (on a network thread);
/// then `create_room`, `join_room` or `spectate`; in the lobby `set_seat`, `set_ready`,
/// `start_room`, `disband_room`. During a match the viewer's actions (`play`, `pass_turn`,
/// `give_tribute`, `return_card`, `propose_surrender`, `surrender_vote`) are checked against the
/// player's view, sent as intents and answered by the server (a refusal arrives as `error`).
/// A lost connection is restored by itself (`reconnecting`, then `resynced` and the whole
/// position announced again). Keep the node in the tree: it drains the network in `_process`.
///
/// Seats: the match signals and getters use the table's seats, turned so that the player sits
/// at seat 0 (south) whatever their seat in the room; room data (`get_room`, `room_changed`,
/// `hosting_changed`, `is_hosted`, `room_joined`) keeps the server's seats.
#[derive(GodotClass)]
#[class(base = Node)]
pub struct GuandanClient {
    base: Base<Node>,
    /// Kept for the table's sake (it pauses its match source while it animates); the server's
    /// clocks never wait, so online this only records the request.
    #[var]
    paused: bool,

    net: Option<Net>,
    link: Link,
    server: String,
    nickname: String,
    credentials: Option<(String, String)>,
    player_id: String,
    mirror: Mirror,
    room: Option<RoomInfo>,
    room_code: String,
    /// Our seat in the room (-1 = spectator or none).
    room_seat: i64,
    in_room: bool,
    /// The player's server seat turned to south (the table draws its player at seat 0).
    turn: rotate::Turn,
    /// After a reconnect: catch-up messages update the copy silently until the full state.
    awaiting_state: bool,
    /// The action seq of our intent in flight (one at a time).
    pending: Option<u64>,
    nonce: u64,
    latency_ms: f64,
    hosted: [bool; 4],
    /// The clock of the player's own duty as the server announced it: (the action seq it is
    /// for, when it was heard, its seconds then). Shown only; the server's clock decides.
    duty_clock: Option<(u64, std::time::Instant, f64)>,
    last_error: String,
    /// Server messages received, and how many of them held a hand (tests: 0 for a spectator).
    messages: u64,
    hand_messages: u64,
    queue: VecDeque<Queued>,
    flushing: bool,
}

#[godot_api]
impl INode for GuandanClient {
    fn init(base: Base<Node>) -> Self {
        GuandanClient {
            base,
            paused: false,
            net: None,
            link: Link::Offline,
            server: String::new(),
            nickname: String::new(),
            credentials: None,
            player_id: String::new(),
            mirror: Mirror::default(),
            room: None,
            room_code: String::new(),
            room_seat: -1,
            in_room: false,
            turn: rotate::Turn(0),
            awaiting_state: false,
            duty_clock: None,
            pending: None,
            nonce: 0,
            latency_ms: -1.0,
            hosted: [false; 4],
            last_error: String::new(),
            messages: 0,
            hand_messages: 0,
            queue: VecDeque::new(),
            flushing: false,
        }
    }

    fn process(&mut self, _delta: f64) {
        // A bounded batch per frame keeps a long catch-up from stalling a frame.
        for _ in 0..256 {
            let Some(ev) = self.net.as_ref().and_then(Net::poll) else { break };
            self.on_net(ev);
        }
        if self.net.as_ref().is_some_and(|n| !n.alive()) && self.link != Link::Offline {
            // The thread ended without a word (it always says why; this is a safety net).
            self.net = None;
            self.link = Link::Offline;
        }
        self.flush();
    }

    fn exit_tree(&mut self) {
        // Leaving the tree closes the connection and joins the network thread.
        self.net = None;
        self.link = Link::Offline;
    }
}

#[godot_api]
impl GuandanClient {
    /// Success.
    #[constant]
    pub const OK: i64 = codes::OK;
    /// The server cannot be reached, or the connection was lost for good.
    #[constant]
    pub const ERR_IO: i64 = codes::num(ErrorCode::Io);
    /// The server refused the nickname (1–24 characters, no spaces at either end, no invisible,
    /// bidi, control or markup characters: `guandan_proto::check_nickname`).
    #[constant]
    pub const ERR_BAD_NICKNAME: i64 = codes::num(ErrorCode::BadNickname);
    /// No room with that code (or not a room code).
    #[constant]
    pub const ERR_ROOM_NOT_FOUND: i64 = codes::num(ErrorCode::RoomNotFound);
    /// Every seat (or every spectator place) is taken.
    #[constant]
    pub const ERR_ROOM_FULL: i64 = codes::num(ErrorCode::RoomFull);
    /// The room's match has started.
    #[constant]
    pub const ERR_ROOM_LOCKED: i64 = codes::num(ErrorCode::RoomLocked);
    /// The client's or the server's protocol is too old.
    #[constant]
    pub const ERR_PROTOCOL_TOO_OLD: i64 = codes::num(ErrorCode::ProtocolTooOld);
    /// The guest account was refused.
    #[constant]
    pub const ERR_AUTH_FAILED: i64 = codes::num(ErrorCode::AuthFailed);
    /// Only the host may do that.
    #[constant]
    pub const ERR_NOT_HOST: i64 = codes::num(ErrorCode::NotHost);
    /// Not allowed in the room's state (e.g. starting before everyone is ready).
    #[constant]
    pub const ERR_BAD_ROOM_STATE: i64 = codes::num(ErrorCode::BadRoomState);

    // ----- the match signals: exactly GuandanEngine's (tests/godot/online compares them) -----

    /// As `GuandanEngine.match_started`; `seed` is 0 unless the client saw the match start, and
    /// `local_seat` is -1 for a spectator.
    #[signal]
    fn match_started(seed: i64, local_seat: i64);
    /// As `GuandanEngine.viewer_changed` (never emitted online: one seat per client).
    #[signal]
    fn viewer_changed(seat: i64);
    /// As `GuandanEngine.deal_started`.
    #[signal]
    fn deal_started(deal_no: i64, level: i64, declarer: i64);
    /// As `GuandanEngine.hand_changed`: the player's own hand; never for a spectator.
    #[signal]
    fn hand_changed(hand: PackedInt32Array);
    /// As `GuandanEngine.tribute_phase`.
    #[signal]
    fn tribute_phase(payers: PackedInt32Array, resisted: bool);
    /// As `GuandanEngine.tribute_given`.
    #[signal]
    fn tribute_given(from: i64, to: i64, card: i64);
    /// As `GuandanEngine.return_phase`.
    #[signal]
    fn return_phase(receivers: PackedInt32Array);
    /// As `GuandanEngine.card_returned`.
    #[signal]
    fn card_returned(from: i64, to: i64, card: i64);
    /// As `GuandanEngine.turn_started`.
    #[signal]
    fn turn_started(seat: i64, can_pass: bool, time_limit: f64);
    /// As `GuandanEngine.cards_played`.
    #[signal]
    fn cards_played(seat: i64, play: VarDictionary);
    /// As `GuandanEngine.passed`.
    #[signal]
    fn passed(seat: i64);
    /// As `GuandanEngine.table_cleared`.
    #[signal]
    fn table_cleared(leader: i64);
    /// As `GuandanEngine.partner_takes_lead`.
    #[signal]
    fn partner_takes_lead(seat: i64);
    /// As `GuandanEngine.cards_left`.
    #[signal]
    fn cards_left(seat: i64, count: i64);
    /// As `GuandanEngine.player_finished`.
    #[signal]
    fn player_finished(seat: i64, place: i64);
    /// As `GuandanEngine.deal_ended`.
    #[signal]
    fn deal_ended(order: PackedInt32Array, level_changes: VarDictionary);
    /// As `GuandanEngine.surrender_proposed`.
    #[signal]
    fn surrender_proposed(seat: i64);
    /// As `GuandanEngine.surrender_voted`.
    #[signal]
    fn surrender_voted(seat: i64, accept: bool);
    /// As `GuandanEngine.match_ended`.
    #[signal]
    fn match_ended(winner_team: i64, reason: GString);
    /// As `GuandanEngine.ai_thinking` (the server does not announce it).
    #[signal]
    fn ai_thinking(seat: i64);
    /// As `GuandanEngine.ai_decided`.
    #[signal]
    fn ai_decided(seat: i64, elapsed_ms: f64, fell_back: bool);
    /// As `GuandanEngine.turn_timed_out` (the server's clock acted for `seat`).
    #[signal]
    fn turn_timed_out(seat: i64);
    /// As `GuandanEngine.error`: a call failed here, or the server refused a message.
    #[signal]
    fn error(code: i64, message: GString);
    /// As `GuandanEngine.controller_changed`.
    #[signal]
    fn controller_changed(seat: i64, ai: bool);
    /// As `GuandanEngine.crashed` (never emitted online).
    #[signal]
    fn crashed(message: GString, report: GString);

    // ----- connection and room signals -----

    /// Connecting to the server (`attempt` 0 = first time, else a reconnect attempt).
    #[signal]
    fn connecting(attempt: i64);
    /// Welcomed by the server as `player_id`.
    #[signal]
    fn connected(player_id: GString);
    /// The connection dropped; the client tries again by itself (attempt `attempt`).
    #[signal]
    fn reconnecting(attempt: i64);
    /// Back in the match: the whole position (up to `action_seq`) is announced right after.
    #[signal]
    fn resynced(action_seq: i64);
    /// The connection is gone for good (`code`: `ERR_IO` unreachable/lost, or the server's
    /// refusal such as `auth_failed`, `bad_nickname`).
    #[signal]
    fn disconnected(code: i64, message: GString);
    /// The protocol versions do not match: `client_too_old` true = update the game, false = the server.
    #[signal]
    fn protocol_too_old(client_too_old: bool, message: GString);
    /// In a room with code `code`, at `seat` (-1 = spectator).
    #[signal]
    fn room_joined(code: GString, seat: i64);
    /// The room's lobby state (see `get_room`).
    #[signal]
    fn room_changed(room: VarDictionary);
    /// The room was disbanded (or the server shut down).
    #[signal]
    fn room_closed(message: GString);
    /// The server's AI plays `seat` for its absent player (`on`), or gave it back.
    #[signal]
    fn hosting_changed(seat: i64, on: bool);
    /// Round trip of the last heartbeat in ms.
    #[signal]
    fn latency_changed(ms: f64);
    /// The finished match was stored as match `match_no` of the room (the vote phase follows).
    #[signal]
    fn match_stored(match_no: i64);

    // ----- connection -----

    /// Registers a guest named `nickname` (or reuses the account from an earlier connection to
    /// the same server) and connects to `server` (`host:port`, `http://host:port`). Returns `OK`
    /// (then `connecting`, `connected` or `disconnected`), or `ERR_BAD_NICKNAME` /
    /// `ERR_BAD_ARGUMENT` at once.
    #[func]
    pub fn connect_to_server(&mut self, server: GString, nickname: GString) -> i64 {
        let (server, nickname) = (server.to_string(), nickname.to_string());
        let r = (|| {
            net::host_port(&server).map_err(Fail::bad_argument)?;
            // The server's own rule (guandan-proto): refused here before anything is sent.
            guandan_proto::check_nickname(&nickname).map_err(|why| Fail::new(ErrorCode::BadNickname, why))
        })();
        if r.is_ok() {
            if self.server != server || self.nickname != nickname {
                self.credentials = None;
            }
            self.net = None;
            self.reset_room();
            self.server = server.clone();
            self.nickname = nickname.clone();
            self.link = Link::Connecting;
            self.net = Some(Net::start(NetConfig { server, nickname, credentials: self.credentials.clone() }));
        }
        self.finish("connect_to_server", r)
    }

    /// Closes the connection (leaving the room's lobby; a seat in a running match stays the
    /// player's and the server's AI plays it).
    #[func]
    pub fn disconnect_from_server(&mut self) {
        self.net = None;
        self.link = Link::Offline;
        self.reset_room();
    }

    /// `offline`, `connecting`, `online` or `reconnecting`.
    #[func]
    pub fn get_connection_state(&self) -> GString {
        GString::from(match self.link {
            Link::Offline => "offline",
            Link::Connecting => "connecting",
            Link::Online => "online",
            Link::Reconnecting => "reconnecting",
        })
    }

    #[func]
    pub fn is_online(&self) -> bool {
        self.link == Link::Online
    }

    /// The guest account of this connection: `{player_id, token}` (`{}` before registering).
    /// Keep it to come back as the same player.
    #[func]
    pub fn get_credentials(&self) -> VarDictionary {
        match &self.credentials {
            Some((id, token)) => vdict! { "player_id" => id.as_str(), "token" => token.as_str() },
            None => VarDictionary::new(),
        }
    }

    /// Uses this guest account (kept from an earlier run of the game) for the next
    /// `connect_to_server` to `server` as `nickname`: the player comes back as the same player,
    /// so a seat held in a running match is theirs again. Refused (`ERR_BAD_ARGUMENT`, nothing
    /// kept) unless both parts are 1–128 printable ASCII characters. An account the server does
    /// not know fails the connection with `ERR_AUTH_FAILED` and is forgotten.
    #[func]
    pub fn set_credentials(&mut self, server: GString, nickname: GString, player_id: GString, token: GString) -> i64 {
        let (player_id, token) = (player_id.to_string(), token.to_string());
        let plain = |s: &str| (1..=128).contains(&s.len()) && s.bytes().all(|b| b.is_ascii_graphic());
        let r = if plain(&player_id) && plain(&token) {
            // Kept for that server and nickname only (connect_to_server drops it for others).
            self.server = server.to_string();
            self.nickname = nickname.to_string();
            self.credentials = Some((player_id, token));
            Ok(())
        } else {
            Err(Fail::bad_argument("an account is a player id and a token of 1-128 printable ASCII characters"))
        };
        self.finish("set_credentials", r)
    }

    /// Round trip of the last heartbeat in ms (-1 before the first).
    #[func]
    pub fn get_latency_ms(&self) -> f64 {
        self.latency_ms
    }

    /// Tests: cuts the connection without a word, as a lost network would, and stays away for
    /// `offline_ms` before reconnecting by itself.
    #[func]
    pub fn drop_connection_for_test(&mut self, offline_ms: i64) -> i64 {
        let r = match &self.net {
            Some(n) => {
                n.drop_for_test(std::time::Duration::from_millis(offline_ms.clamp(0, 60_000) as u64));
                Ok(())
            }
            None => Err(Fail::new(ErrorCode::Io, "not connected")),
        };
        self.finish("drop_connection_for_test", r)
    }

    // ----- rooms -----

    /// Creates a room with the caller as host in seat 0: `{rules: "competition", spectator_delay:
    /// 3, seed: int}` (every key optional).
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
            self.send(ClientMsg::CreateRoom { rules, spectator_delay, seed })
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
            let seat = u8::try_from(seat).ok().filter(|s| *s < 4).ok_or_else(|| Fail::bad_argument("seat: 0 to 3"))?;
            let setting = match ai_level {
                0 => SeatSetting::Open,
                1..=3 => SeatSetting::Ai { level: ai_level as u8 },
                _ => return Err(Fail::bad_argument("ai_level: 0 (open) or 1 to 3")),
            };
            self.send(ClientMsg::SetSeat { seat, setting })
        })();
        self.finish("set_seat", r)
    }

    /// In the lobby: moves the player to the free `seat` (answered by `room_joined` with it).
    #[func]
    pub fn change_seat(&mut self, seat: i64) -> i64 {
        let r = u8::try_from(seat)
            .ok()
            .filter(|s| *s < 4)
            .ok_or_else(|| Fail::bad_argument("seat: 0 to 3"))
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

    /// The room: `{code, state, host_seat, rules, spectator_delay, spectators, locked, matches,
    /// practice, deal_break_ms, seats: [{seat, player, ai, ready, connected, hosted}]}` (`player` "" and `ai` 0 when none);
    /// `{}` outside a room.
    #[func]
    pub fn get_room(&self) -> VarDictionary {
        self.room.as_ref().map_or_else(VarDictionary::new, room_dict)
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

    /// Server messages received so far on every connection of this client.
    #[func]
    pub fn get_messages_received(&self) -> i64 {
        self.messages as i64
    }

    /// How many of them held a hand (a full state or a prompt with cards in hand, or a hand
    /// notice): the player's own hand for a seat; always 0 for a spectator.
    #[func]
    pub fn get_hand_messages_received(&self) -> i64 {
        self.hand_messages as i64
    }

    #[func]
    pub fn get_player_id(&self) -> GString {
        GString::from(self.player_id.as_str())
    }

    // ----- the viewer's actions (as GuandanEngine's; sent as intents) -----

    /// Plays these cards (`reading` as in `GuandanEngine.play`). `OK` means sent: the server's
    /// answer arrives as signals (a refusal as `error`).
    #[func]
    pub fn play(&mut self, card_ids: PackedInt32Array, #[opt(default = -1)] reading: i64) -> i64 {
        let r = self.play_kind(&card_ids, reading).and_then(|k| self.intent(k));
        self.finish("play", r)
    }

    #[func]
    pub fn pass_turn(&mut self) -> i64 {
        let r = self
            .my_turn()
            .and_then(|v| match v.table {
                None => Err(Fail::new(ErrorCode::CannotPass, "the leader may not pass")),
                Some(_) => Ok(()),
            })
            .and_then(|_| self.intent(ActionKind::Pass));
        self.finish("pass_turn", r)
    }

    #[func]
    pub fn give_tribute(&mut self, card_id: i64) -> i64 {
        let r = self.exchange(card_id, Phase::Tribute).and_then(|card| self.intent(ActionKind::Tribute { card }));
        self.finish("give_tribute", r)
    }

    #[func]
    pub fn return_card(&mut self, card_id: i64) -> i64 {
        let r = self.exchange(card_id, Phase::Return).and_then(|card| self.intent(ActionKind::Return { card }));
        self.finish("return_card", r)
    }

    #[func]
    pub fn propose_surrender(&mut self) -> i64 {
        let r = self.seated().map(|_| ()).and_then(|_| self.intent(ActionKind::ProposeSurrender));
        self.finish("propose_surrender", r)
    }

    #[func]
    pub fn surrender_vote(&mut self, accept: bool) -> i64 {
        let r = self.seated().map(|_| ()).and_then(|_| self.intent(ActionKind::SurrenderVote { accept }));
        self.finish("surrender_vote", r)
    }

    /// Hands the player's own seat to the server's AI (`on`, 托管) or takes it back; the answer
    /// is `hosting_changed(seat, on)` once the server did it.
    #[func]
    pub fn set_auto_play(&mut self, on: bool) -> i64 {
        let r = self.seated().map(|_| ()).and_then(|_| self.send(ClientMsg::AutoPlay { on }));
        self.finish("set_auto_play", r)
    }

    /// The table has drawn the player's prompt (its turn, tribute or return): tells the server
    /// (`seen`), whose clock for the duty then starts from now (within the server's grace), so
    /// the seconds the table took to draw are not the player's. Best effort and silent: false
    /// when there was nothing to tell (no seat, no match, not connected, catching up).
    #[func]
    pub fn prompt_seen(&mut self) -> bool {
        if self.seated().is_err() || self.awaiting_state || self.pending.is_some() {
            return false;
        }
        let seq = self.mirror.action_seq;
        self.send(ClientMsg::Seen { seq }).is_ok()
    }

    /// Whether the server's AI plays the player's own seat now (handed over, or they were away).
    #[func]
    pub fn is_auto_play(&self) -> bool {
        self.room_seat >= 0 && self.is_hosted(self.room_seat)
    }

    /// Leaves the match view (the room stays; see `leave_room`).
    #[func]
    pub fn stop_match(&mut self) {
        self.mirror.clear();
        self.queue.clear();
    }

    // ----- the viewer's view (the getters GuandanEngine has) -----

    #[func]
    pub fn has_match(&self) -> bool {
        self.mirror.view.is_some()
    }

    #[func]
    pub fn get_seed(&self) -> i64 {
        args::seed_to_int(self.mirror.seed)
    }

    #[func]
    pub fn get_phase(&self) -> i64 {
        self.v().map_or(convert::PHASE_NONE, |v| convert::phase_int(v.phase))
    }

    #[func]
    pub fn get_deal_number(&self) -> i64 {
        self.v().map_or(0, |v| i64::from(v.deal_no))
    }

    #[func]
    pub fn get_level(&self) -> i64 {
        self.v().map_or(0, |v| i64::from(v.level.0))
    }

    #[func]
    pub fn get_team_levels(&self) -> PackedInt32Array {
        self.v().map_or_else(PackedInt32Array::new, |v| {
            PackedInt32Array::from(&[i32::from(v.team_levels[0].0), i32::from(v.team_levels[1].0)])
        })
    }

    #[func]
    pub fn get_local_seat(&self) -> i64 {
        opt_seat(self.mirror.seat())
    }

    /// Whether the table seat `seat` is played by a person (not an AI seat of the room).
    #[func]
    pub fn is_human(&self, seat: i64) -> bool {
        let Some(seat) = u8::try_from(seat).ok().filter(|s| *s < 4) else { return false };
        let server_seat = self.turn.back(seat);
        self.room.as_ref().and_then(|r| r.seats.iter().find(|s| s.seat == server_seat)).is_some_and(|s| s.ai.is_none())
    }

    #[func]
    pub fn get_turn(&self) -> i64 {
        match self.v() {
            Some(v) if v.phase == Phase::Play => i64::from(v.turn),
            _ => -1,
        }
    }

    #[func]
    pub fn get_to_act(&self) -> PackedInt32Array {
        self.v().map_or_else(PackedInt32Array::new, |v| seats(&v.to_act))
    }

    #[func]
    pub fn is_local_turn(&self) -> bool {
        self.v().is_some_and(|v| v.seat.is_some_and(|s| v.to_act.contains(&s)))
    }

    #[func]
    pub fn can_pass(&self) -> bool {
        self.v().is_some_and(PlayerView::can_pass)
    }

    #[func]
    pub fn get_hand(&self) -> PackedInt32Array {
        self.v().map_or_else(PackedInt32Array::new, |v| ids(v.hand))
    }

    /// The player's own hand for their seat; every other hand is hidden online (empty).
    #[func]
    pub fn get_seat_hand(&self, seat: i64) -> PackedInt32Array {
        match self.v() {
            Some(v) if v.seat.is_some_and(|s| i64::from(s) == seat) => ids(v.hand),
            _ => PackedInt32Array::new(),
        }
    }

    #[func]
    pub fn get_card_counts(&self) -> PackedInt32Array {
        self.v().map_or_else(PackedInt32Array::new, |v| v.card_counts.iter().map(|&c| i32::from(c)).collect())
    }

    #[func]
    pub fn get_table(&self) -> VarDictionary {
        self.v().map_or_else(VarDictionary::new, |v| convert::table_dict(v.table.as_ref()))
    }

    #[func]
    pub fn get_history(&self) -> Array<VarDictionary> {
        self.v().map_or_else(Array::new, |v| v.history.iter().map(convert::turn_dict).collect())
    }

    #[func]
    pub fn get_played_cards(&self) -> PackedInt32Array {
        self.v().map_or_else(PackedInt32Array::new, |v| ids(v.played))
    }

    #[func]
    pub fn get_wild_cards(&self) -> PackedInt32Array {
        self.v().map_or_else(PackedInt32Array::new, |v| ids(wild_set(v.level, &v.rules)))
    }

    #[func]
    pub fn get_tribute_options(&self) -> PackedInt32Array {
        self.v().map_or_else(PackedInt32Array::new, |v| ids(v.tribute_options))
    }

    #[func]
    pub fn get_return_options(&self) -> PackedInt32Array {
        self.v().map_or_else(PackedInt32Array::new, |v| ids(v.return_options))
    }

    #[func]
    pub fn is_match_over(&self) -> bool {
        self.v().is_some_and(|v| v.phase == Phase::MatchOver)
    }

    /// The whole state as `GuandanEngine.get_state` shapes it (only the player's own hand).
    #[func]
    pub fn get_state(&self) -> VarDictionary {
        let Some(v) = self.v() else { return VarDictionary::new() };
        let hands: Array<PackedInt32Array> =
            (0..4u8).map(|s| if v.seat == Some(s) { ids(v.hand) } else { PackedInt32Array::new() }).collect();
        let outcome = self.mirror.outcome;
        vdict! {
            "seq" => v.seq as i64,
            "deal_no" => i64::from(v.deal_no),
            "phase" => convert::phase_int(v.phase),
            "phase_name" => convert::phase_name(v.phase),
            "level" => i64::from(v.level.0),
            "team_levels" => &PackedInt32Array::from(&[i32::from(v.team_levels[0].0), i32::from(v.team_levels[1].0)]),
            "declarer" => opt_seat(v.declarer.map(u8::from)),
            "turn" => if v.phase == Phase::Play { i64::from(v.turn) } else { -1 },
            "to_act" => &seats(&v.to_act),
            "can_pass" => v.can_pass(),
            "table" => &convert::table_dict(v.table.as_ref()),
            "card_counts" => &v.card_counts.iter().map(|&c| i32::from(c)).collect::<PackedInt32Array>(),
            "hands" => &hands,
            "finished" => &seats(&v.finished),
            "last_order" => &v.last_order.map(|o| seats(&o)).unwrap_or_default(),
            "history_length" => v.history.len() as i64,
            "played" => &ids(v.played),
            "wilds" => &ids(wild_set(v.level, &v.rules)),
            "over" => v.phase == Phase::MatchOver,
            "winner_team" => outcome.and_then(|o| o.winner()).map_or(-1, |t| i64::from(u8::from(t))),
            "end_reason" => outcome.map_or("", |o| o.reason().name()),
        }
    }

    /// The server's state hash after the last action received (SHA-256 hex of the whole match).
    #[func]
    pub fn get_state_hash(&self) -> GString {
        GString::from(self.mirror.state_hash.as_str())
    }

    /// Actions applied so far (the server's action seq).
    #[func]
    pub fn get_action_count(&self) -> i64 {
        self.mirror.action_seq as i64
    }

    /// Seconds left on the player's own duty as the server announced it (its clock decides;
    /// the table shows this one); -1 when no clock runs for the player now.
    #[func]
    pub fn get_time_left(&self) -> f64 {
        match self.duty_clock {
            Some((seq, heard, left)) if seq == self.mirror.action_seq && left > 0.0 => {
                (left - heard.elapsed().as_secs_f64()).max(0.0)
            }
            _ => -1.0,
        }
    }

    #[func]
    pub fn get_last_error(&self) -> GString {
        GString::from(self.last_error.as_str())
    }

    /// `""`: the client never writes crash reports (the server holds the match).
    #[func]
    pub fn get_last_crash_report(&self) -> GString {
        GString::new()
    }
}

// ----- internals -----

fn room_code(code: &GString) -> Result<String, Fail> {
    parse_room_code(&code.to_string()).map_err(|why| Fail::new(ErrorCode::RoomNotFound, why))
}

/// Whether a server message shows its recipient a hand.
fn holds_hand(m: &ServerMsg) -> bool {
    match m {
        ServerMsg::State { view, .. } => !view.hand.is_empty(),
        ServerMsg::Applied { events, prompt, .. } => {
            prompt.as_ref().is_some_and(|p| !p.hand.is_empty())
                || events.iter().any(|e| matches!(e, guandan_proto::WireOut::HandChanged { .. }))
        }
        _ => false,
    }
}

fn room_dict(r: &RoomInfo) -> VarDictionary {
    let seats: Array<VarDictionary> = r
        .seats
        .iter()
        .map(|s| {
            vdict! {
                "seat" => i64::from(s.seat),
                "player" => s.player.as_deref().unwrap_or(""),
                "ai" => i64::from(s.ai.unwrap_or(0)),
                "ready" => s.ready,
                "connected" => s.connected,
                "hosted" => s.hosted,
            }
        })
        .collect();
    let state = serde_json::to_value(r.state).ok().and_then(|v| v.as_str().map(str::to_string)).unwrap_or_default();
    vdict! {
        "code" => r.code.as_str(),
        "state" => state.as_str(),
        "host_seat" => i64::from(r.host_seat),
        "rules" => r.rules.as_str(),
        "spectator_delay" => i64::from(r.spectator_delay),
        "spectators" => i64::from(r.spectators),
        "locked" => r.locked,
        "matches" => i64::from(r.matches),
        "practice" => r.practice,
        "deal_break_ms" => i64::from(r.deal_break_ms),
        "seats" => &seats,
    }
}

impl GuandanClient {
    /// The player's view (for the advisor: `MoveAdvisor.attach(client)`).
    pub(crate) fn view(&self) -> Option<&PlayerView> {
        self.v()
    }

    fn v(&self) -> Option<&PlayerView> {
        self.mirror.view.as_ref()
    }

    fn reset_room(&mut self) {
        self.mirror.clear();
        self.room = None;
        self.room_code.clear();
        self.room_seat = -1;
        self.in_room = false;
        self.awaiting_state = false;
        self.pending = None;
        self.hosted = [false; 4];
    }

    fn send(&mut self, m: ClientMsg) -> Result<(), Fail> {
        match (&self.net, self.link) {
            (Some(n), Link::Online) => {
                n.send(m);
                Ok(())
            }
            (Some(_), Link::Connecting | Link::Reconnecting) => {
                Err(Fail::new(ErrorCode::Io, "not connected yet: wait for the connection"))
            }
            _ => Err(Fail::new(ErrorCode::Io, "not connected to a server")),
        }
    }

    fn seated(&self) -> Result<&PlayerView, Fail> {
        let v = self.v().ok_or_else(|| Fail::new(ErrorCode::NoMatch, "no match is running"))?;
        if v.seat.is_none() {
            return Err(Fail::new(ErrorCode::NotYourSeat, "spectators cannot act"));
        }
        if v.phase == Phase::MatchOver {
            return Err(Fail::new(ErrorCode::GameOver, "the match is over"));
        }
        Ok(v)
    }

    fn my_turn(&self) -> Result<&PlayerView, Fail> {
        let v = self.seated()?;
        if v.phase != Phase::Play {
            return Err(Fail::new(ErrorCode::StateConflict, "cards are not being played now"));
        }
        if v.seat != Some(v.turn) {
            return Err(Fail::new(ErrorCode::NotYourTurn, "another seat is to play"));
        }
        Ok(v)
    }

    fn play_kind(&self, card_ids: &PackedInt32Array, reading: i64) -> Result<ActionKind, Fail> {
        let v = self.my_turn()?;
        let set = args::card_set(card_ids.as_slice()).map_err(|e| Fail::new(ErrorCode::InvalidCards, e.to_string()))?;
        if set.is_empty() {
            return Err(Fail::new(ErrorCode::InvalidCards, "no cards selected"));
        }
        if !set.is_subset(v.hand) {
            return Err(Fail::new(ErrorCode::CardNotFound, "a card is not in the hand"));
        }
        let readings = classify(set, v.level, &v.rules);
        if readings.is_empty() {
            return Err(Fail::new(ErrorCode::InvalidCards, "these cards make no combination"));
        }
        let table = v.table.as_ref().map(|t| &t.1);
        let chosen = match reading {
            -1 => choose_reading(&readings, table, v.level, &v.rules)
                .ok_or_else(|| Fail::new(ErrorCode::CannotBeat, "the play does not beat the table"))?,
            r => *usize::try_from(r).ok().and_then(|i| readings.get(i)).ok_or_else(|| {
                Fail::bad_argument(format!("reading {r} is out of range ({} reading(s), -1 = default)", readings.len()))
            })?,
        };
        if let Some(t) = table
            && !guandan_core::combo::beats(&chosen, t, v.level, &v.rules)
        {
            return Err(Fail::new(ErrorCode::CannotBeat, "the play does not beat the table"));
        }
        Ok(ActionKind::Play { cards: set.ids(), reading: Some(chosen.pattern) })
    }

    fn exchange(&self, card_id: i64, phase: Phase) -> Result<u8, Fail> {
        let v = self.seated()?;
        let card = args::card_id(card_id)
            .ok_or_else(|| Fail::new(ErrorCode::InvalidCards, format!("card id {card_id} is not in 0..107")))?;
        let options = if phase == Phase::Tribute { v.tribute_options } else { v.return_options };
        if v.phase != phase || !options.contains(card) {
            return Err(Fail::new(ErrorCode::InvalidTribute, "not a card to give now"));
        }
        Ok(card)
    }

    /// Sends an action for the player's seat; one intent in flight at a time.
    fn intent(&mut self, action: ActionKind) -> Result<(), Fail> {
        let seq = self.mirror.action_seq;
        if self.pending.is_some() {
            return Err(Fail::new(ErrorCode::StateConflict, "an action is already on its way"));
        }
        if self.awaiting_state {
            return Err(Fail::new(ErrorCode::Io, "reconnecting: wait for the table to come back"));
        }
        self.nonce += 1;
        self.send(ClientMsg::Intent { seq, nonce: self.nonce, action })?;
        self.pending = Some(seq);
        Ok(())
    }

    fn on_net(&mut self, ev: NetEvent) {
        match ev {
            NetEvent::Connecting { attempt } => self.queue.push_back(Queued::Conn(Conn::Connecting(attempt))),
            NetEvent::Registered { player_id, token } => self.credentials = Some((player_id, token)),
            NetEvent::Connected { player_id, reconnect } => {
                self.link = Link::Online;
                self.player_id = player_id.clone();
                if reconnect && self.in_room && self.mirror.view.is_some() {
                    // The thread has rejoined and asked for the full state: rebuild from it.
                    self.awaiting_state = true;
                }
                self.pending = None;
                self.queue.push_back(Queued::Conn(Conn::Connected(player_id)));
            }
            NetEvent::Latency(ms) => {
                self.latency_ms = ms;
                self.queue.push_back(Queued::Conn(Conn::LatencyChanged(ms)));
            }
            NetEvent::Lost { attempt } => {
                self.link = Link::Reconnecting;
                self.pending = None;
                self.queue.push_back(Queued::Conn(Conn::Reconnecting(attempt)));
            }
            NetEvent::Refused(r) => {
                let client_too_old = match &r {
                    Refusal::ClientTooOld { .. } => Some(true),
                    Refusal::ServerTooOld { .. } => Some(false),
                    Refusal::Other { .. } => None,
                };
                if let Some(client) = client_too_old {
                    self.queue.push_back(Queued::Conn(Conn::ProtocolTooOld(client, r.message())));
                }
                self.on_net(NetEvent::Failed { code: r.code(), message: r.message() });
            }
            NetEvent::Failed { code, message } => {
                if code == ErrorCode::AuthFailed {
                    // The server does not know this account (its database was reset): a new one
                    // is made at the next connect.
                    self.credentials = None;
                }
                self.net = None;
                self.link = Link::Offline;
                self.last_error = message.clone();
                self.queue.push_back(Queued::Conn(Conn::Disconnected(codes::num(code), message)));
            }
            NetEvent::Message(m, order) => self.on_message(*m, order),
        }
    }

    fn on_message(&mut self, m: ServerMsg, order: Order) {
        self.messages += 1;
        if holds_hand(&m) {
            self.hand_messages += 1;
        }
        match m {
            ServerMsg::Welcome { .. } | ServerMsg::Pong | ServerMsg::Redirect { .. } => {}
            ServerMsg::Error { code, message, .. } => {
                self.pending = None;
                self.last_error = message.clone();
                if code == codes::num(ErrorCode::StaleSeq) as i32 || code == codes::num(ErrorCode::StateConflict) as i32
                {
                    // Our copy is behind or ahead of the match: take the server's whole state.
                    if let Some(n) = &self.net {
                        n.send(ClientMsg::Resync);
                    }
                }
                self.queue.push_back(Queued::Match(Emit::Error { code: i64::from(code), message }));
            }
            ServerMsg::Joined { code, seat } => {
                self.room_code = code.clone();
                self.room_seat = opt_seat(seat);
                self.in_room = true;
                self.queue.push_back(Queued::Conn(Conn::RoomJoined(code, opt_seat(seat))));
            }
            ServerMsg::Room { room } => {
                for s in &room.seats {
                    if let Some(h) = self.hosted.get_mut(s.seat as usize) {
                        *h = s.hosted;
                    }
                }
                let destroyed = room.state == guandan_proto::RoomState::Destroyed;
                if !room.state.in_game() && self.awaiting_state {
                    self.awaiting_state = false;
                }
                self.room = Some(room.clone());
                self.queue.push_back(Queued::Conn(Conn::RoomChanged(Box::new(room))));
                if destroyed {
                    self.reset_room();
                    self.queue.push_back(Queued::Conn(Conn::RoomClosed("the host closed the room".into())));
                }
            }
            ServerMsg::State { action_seq, state_hash, mut view, outcome, time_left_s } => {
                self.turn = rotate::Turn(view.seat.unwrap_or(0));
                self.turn.view(&mut view);
                let outcome = outcome.map(|o| self.turn.outcome(o));
                self.duty_clock = time_left_s.map(|t| (action_seq, std::time::Instant::now(), t));
                let emits = self.mirror.full_state(action_seq, &state_hash, &view, outcome, time_left_s);
                self.pending = None;
                if self.awaiting_state || action_seq > 0 {
                    self.awaiting_state = false;
                    self.queue.push_back(Queued::Conn(Conn::Resynced(action_seq)));
                }
                self.queue.extend(emits.into_iter().map(Queued::Match));
            }
            ServerMsg::Applied { action_seq, actions, state_hash, mut events, mut prompt, seat } => {
                let seat = self.turn.seat(seat);
                for e in &mut events {
                    self.turn.out(e);
                }
                if let Some(p) = &mut prompt {
                    self.turn.view(p);
                }
                // A prompt starts the player's duty clock (the server's restarts at every action):
                // a turn's announced limit, else the rules' (a tribute or return).
                self.duty_clock = prompt.as_ref().map(|p| {
                    let own_turn = events.iter().find_map(|e| match e {
                        guandan_proto::WireOut::TurnStarted { seat: 0, time_limit_s, .. } => Some(*time_limit_s),
                        _ => None,
                    });
                    let limit = own_turn.unwrap_or(f64::from(p.rules.turn_time_limit_s));
                    (action_seq, std::time::Instant::now(), limit)
                });
                // Our intent is answered by our own action (two payers act side by side).
                if self.pending.is_some_and(|p| action_seq > p) && self.mirror.seat() == Some(seat) {
                    self.pending = None;
                }
                // The session placed it: a gap has already asked for the whole state.
                if let Order::Gap { expected, got_first } = order {
                    if !self.awaiting_state {
                        godot_warn!(
                            "GuandanClient: action {expected} expected, {got_first} received: asking for the whole state"
                        );
                    }
                    self.awaiting_state = true;
                    return;
                }
                match self.mirror.applied(action_seq, actions, &state_hash, &events, prompt.as_ref()) {
                    // Catching up after a reconnect: the full state that follows draws the table.
                    Ok(_) if self.awaiting_state => {}
                    Ok(emits) => self.queue.extend(emits.into_iter().map(Queued::Match)),
                    Err(_) if self.awaiting_state => {}
                    // The session saw it follow but the copy cannot take it (no table yet): the
                    // whole state rebuilds it.
                    Err(gap) => {
                        godot_warn!(
                            "GuandanClient: action {} expected, {} received: asking for the whole state",
                            gap.expected,
                            gap.got_first
                        );
                        self.awaiting_state = true;
                        if let Some(n) = &self.net {
                            n.send(ClientMsg::Resync);
                        }
                    }
                }
            }
            ServerMsg::Hosting { seat, on } => {
                if let Some(h) = self.hosted.get_mut(seat as usize) {
                    *h = on;
                }
                self.queue.push_back(Queued::Conn(Conn::HostingChanged(seat, on)));
            }
            ServerMsg::MatchStored { match_no, .. } => self.queue.push_back(Queued::Conn(Conn::MatchStored(match_no))),
            // The server is restarting (or moving): the connection ends next and the session
            // reconnects and rejoins (the room is restored from its database). Not a closed room —
            // that sent the table to the menu on every server update.
            ServerMsg::Bye { .. } => {}
        }
    }

    /// Ends a call: a failure is kept for `get_last_error` and emitted as `error`.
    fn finish(&mut self, what: &str, r: Result<(), Fail>) -> i64 {
        let code = match r {
            Ok(()) => codes::OK,
            Err(f) => {
                let code = f.num();
                godot_warn!("GuandanClient.{what}: rejected with code {code} ({})", f.code.describe());
                self.last_error = f.message.clone();
                self.queue.push_back(Queued::Match(Emit::Error { code, message: f.message }));
                code
            }
        };
        self.flush();
        code
    }

    fn flush(&mut self) {
        if self.flushing {
            return;
        }
        self.flushing = true;
        while let Some(q) = self.queue.pop_front() {
            match q {
                Queued::Match(e) => self.emit_match(e),
                Queued::Conn(c) => self.emit_conn(c),
            }
        }
        self.flushing = false;
    }

    fn emit_conn(&mut self, c: Conn) {
        let mut sig = self.signals();
        match c {
            Conn::Connecting(a) => sig.connecting().emit(i64::from(a)),
            Conn::Connected(id) => sig.connected().emit(&GString::from(id.as_str())),
            Conn::Reconnecting(a) => sig.reconnecting().emit(i64::from(a)),
            Conn::Resynced(seq) => sig.resynced().emit(seq as i64),
            Conn::Disconnected(code, m) => sig.disconnected().emit(code, &GString::from(m.as_str())),
            Conn::ProtocolTooOld(client, m) => sig.protocol_too_old().emit(client, &GString::from(m.as_str())),
            Conn::RoomJoined(code, seat) => sig.room_joined().emit(&GString::from(code.as_str()), seat),
            Conn::RoomChanged(room) => sig.room_changed().emit(&room_dict(&room)),
            Conn::RoomClosed(m) => sig.room_closed().emit(&GString::from(m.as_str())),
            Conn::HostingChanged(seat, on) => sig.hosting_changed().emit(i64::from(seat), on),
            Conn::LatencyChanged(ms) => sig.latency_changed().emit(ms),
            Conn::MatchStored(n) => sig.match_stored().emit(i64::from(n)),
        }
    }

    /// The same mapping as `GuandanEngine`'s signals.
    fn emit_match(&mut self, e: Emit) {
        let mut sig = self.signals();
        let out = match e {
            Emit::MatchStarted { seed, local } => {
                return sig.match_started().emit(args::seed_to_int(seed), opt_seat(local));
            }
            Emit::ViewerChanged { seat } => return sig.viewer_changed().emit(i64::from(seat)),
            Emit::AiThinking { seat } => return sig.ai_thinking().emit(i64::from(seat)),
            Emit::Error { code, message } => return sig.error().emit(code, &GString::from(message.as_str())),
            Emit::Crashed { message, report } => {
                return sig.crashed().emit(&GString::from(message.as_str()), &GString::from(report.as_str()));
            }
            Emit::Runtime(out) => out,
        };
        match out {
            Out::MatchStarted { .. } => {}
            Out::ControllerChanged { seat, ai } => sig.controller_changed().emit(i64::from(seat), ai),
            Out::DealStarted { deal_no, level, declarer } => {
                sig.deal_started().emit(i64::from(deal_no), i64::from(level.0), opt_seat(declarer.map(u8::from)))
            }
            Out::HandChanged { hand, .. } => sig.hand_changed().emit(&ids(hand)),
            Out::TributePhase { payers, resisted } => sig.tribute_phase().emit(&seats(&payers), resisted),
            Out::TributeGiven { from, to, card } => {
                sig.tribute_given().emit(i64::from(from), i64::from(to), convert::opt_card(card))
            }
            Out::ReturnPhase { receivers } => sig.return_phase().emit(&seats(&receivers)),
            Out::ReturnGiven { from, to, card } => {
                sig.card_returned().emit(i64::from(from), i64::from(to), convert::opt_card(card))
            }
            Out::TurnStarted { seat, can_pass, time_limit_s } => {
                sig.turn_started().emit(i64::from(seat), can_pass, time_limit_s)
            }
            Out::CardsPlayed { seat, play } => sig.cards_played().emit(i64::from(seat), &play_dict(&play)),
            Out::Passed { seat } => sig.passed().emit(i64::from(seat)),
            Out::TableCleared { leader } => sig.table_cleared().emit(i64::from(leader)),
            Out::PartnerTakesLead { seat } => sig.partner_takes_lead().emit(i64::from(seat)),
            Out::CardsLeft { seat, count } => sig.cards_left().emit(i64::from(seat), i64::from(count)),
            Out::PlayerFinished { seat, place } => sig.player_finished().emit(i64::from(seat), i64::from(place)),
            Out::DealEnded { order, winner, levels_before, levels_after } => {
                sig.deal_ended().emit(&seats(&order), &convert::level_changes(winner, &levels_before, &levels_after))
            }
            Out::SurrenderProposed { seat } => sig.surrender_proposed().emit(i64::from(seat)),
            Out::SurrenderVoted { seat, accept } => sig.surrender_voted().emit(i64::from(seat), accept),
            Out::MatchEnded { outcome } => sig
                .match_ended()
                .emit(outcome.winner().map_or(-1, |t| i64::from(u8::from(t))), &GString::from(outcome.reason().name())),
            Out::AiDecided { seat, elapsed_ms, fell_back } => {
                sig.ai_decided().emit(i64::from(seat), elapsed_ms, fell_back)
            }
            Out::TimedOut { seat } => sig.turn_timed_out().emit(i64::from(seat)),
        }
    }
}
