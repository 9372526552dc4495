//! `GuandanClient`: the online session. It speaks protocol v1 (`guandan-proto`) to a
//! `guandan-server` from a network thread ([`net`]): the guest account, the connection and its
//! reconnection, rooms and their lobby. The match of the room is copied into a
//! [`remote::RemoteMatch`] that a `GuandanEngine` follows (`GuandanEngine.follow(client)`): the
//! engine, not this node, emits the match signals and takes the player's actions, the same way
//! for a local and a remote match.
//!
//! Threads: the network thread sees plain Rust data only; its events are drained in `process()`
//! on the main thread, the copy is updated first and the signals are emitted after, from a queue
//! (a handler may call back into the node; its signals queue behind, keeping the order).
//!
//! What the session receives — the network thread's events and the server's messages — is
//! applied in `receive.rs`; this file holds the node, its signals and calls, and the plumbing.

mod account;
pub(crate) mod account_requests;
pub mod following;
mod ladder;
mod lobby;
pub mod mirror;
pub mod net;
mod quick_match;
pub mod ranking;
mod receive;
pub mod remote;
mod requests;
pub mod rotate;
mod signals;

use guandan_core::seat::Seat;
use std::cell::RefCell;
use std::collections::{BTreeSet, VecDeque};
use std::rc::Rc;

use godot::classes::{INode, Node};
use godot::prelude::*;
use guandan_core::error::ErrorCode;
use guandan_proto::tls::Trust;
use guandan_proto::{ClientMsg, Endpoint, RoomInfo};

use crate::codes::{self, Fail};
pub(crate) use account_requests::AccountAnswer;
use account_requests::Accounts;
use net::{Net, NetConfig};
use ranking::{Answer, Fetcher};
use remote::RemoteMatch;

/// Connection states (`get_connection_state`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Link {
    Offline,
    Connecting,
    Online,
    Reconnecting,
}

/// A signal of the client, queued.
#[derive(Clone, Debug)]
enum Conn {
    Error(i64, String),
    QueueStatus(String, bool, u64, u8),
    Rating(String, i64, i64, u32),
    MatchJoined,
    Connecting(u32),
    Connected(String),
    Reconnecting(u32),
    Resynced(u64),
    Disconnected(i64, String),
    ProtocolTooOld(bool, String),
    RoomJoined(String, i64),
    RoomChanged(Box<RoomInfo>),
    RoomClosed(String),
    HostingChanged(Seat, bool),
    LatencyChanged(f64),
    Unstable(bool),
    Leaderboard(Box<guandan_proto::http::Leaderboard>),
    Profile(Box<guandan_proto::http::PlayerProfile>),
    FetchFailed(&'static str, i64, String),
    /// A finished match's record was downloaded and kept under this name.
    RecordKept(String),
    AccountDone(&'static str, Box<AccountAnswer>),
    AccountFailed(&'static str, i64, String),
    MatchStored(u32),
}

/// The online session: account, connection, room and lobby; the room's match is shown by a
/// `GuandanEngine` that follows this client.
///
/// `connect_to_server(address, nickname)` registers a guest and connects (on a network thread);
/// then `create_room`, `join_room` or `spectate`; in the lobby `set_seat`, `set_ready`,
/// `start_room`, `disband_room`. When the room's match is copied (`match_joined`), a
/// `GuandanEngine` given this client (`follow(client)`) shows it: its signals, getters and the
/// player's actions (sent as intents, answered by the server). A lost connection is restored by
/// itself (`reconnecting`, then `resynced` and the whole position announced again by the
/// engine). Keep the node in the tree: it drains the network in `_process`.
///
/// Seats: room data (`get_room`, `room_changed`, `hosting_changed`, `is_hosted`, `room_joined`)
/// keeps the server's seats; the following engine turns the table so the player sits at seat 0.
#[derive(GodotClass)]
#[class(base = Node)]
pub struct GuandanClient {
    base: Base<Node>,
    net: Option<Net>,
    link: Link,
    server: String,
    nickname: String,
    credentials: Option<(String, String)>,
    player_id: String,
    /// The room's match as this player may see it (shared with a following engine).
    remote: Rc<RefCell<RemoteMatch>>,
    room: Option<RoomInfo>,
    room_code: String,
    /// Our seat in the room (-1 = spectator or none).
    room_seat: i64,
    in_room: bool,
    latency_ms: f64,
    /// The last `connection_unstable` said so.
    unstable: bool,
    hosted: [bool; 4],
    last_error: String,
    /// Server messages received, and how many of them held a hand (tests: 0 for a spectator).
    messages: u64,
    hand_messages: u64,
    queue: VecDeque<Conn>,
    flushing: bool,
    /// Leaderboard pages and profiles asked of the server.
    fetcher: Fetcher,
    /// Account requests asked of the server (`account.rs`).
    accounts: Accounts,
    /// The private CA file added to Mozilla's roots (`set_ca_file`; empty: none), and the trust
    /// made from it (made once: every connection and request shares it).
    ca_file: String,
    trust: Option<Trust>,
    /// Public hosts the player allowed plain text to (`allow_plaintext`).
    plaintext_allowed: BTreeSet<String>,
}

#[godot_api]
impl INode for GuandanClient {
    fn init(base: Base<Node>) -> Self {
        GuandanClient {
            base,
            net: None,
            link: Link::Offline,
            server: String::new(),
            nickname: String::new(),
            credentials: None,
            player_id: String::new(),
            remote: RemoteMatch::shared(),
            room: None,
            room_code: String::new(),
            room_seat: -1,
            in_room: false,
            latency_ms: -1.0,
            unstable: false,
            hosted: [false; 4],
            last_error: String::new(),
            messages: 0,
            hand_messages: 0,
            queue: VecDeque::new(),
            flushing: false,
            fetcher: Fetcher::default(),
            accounts: Accounts::default(),
            ca_file: String::new(),
            trust: None,
            plaintext_allowed: BTreeSet::new(),
        }
    }

    fn enter_tree(&mut self) {
        // The network is drained before anything else of the frame runs, and a following
        // engine (PROCESS_PRIORITY + 1) announces it right after: no script reads a copy that
        // is ahead of the signals it has been given.
        self.base_mut().set_process_priority(Self::PROCESS_PRIORITY);
    }

    fn process(&mut self, _delta: f64) {
        // A bounded batch per frame keeps a long catch-up from stalling a frame.
        for _ in 0..256 {
            let Some(ev) = self.net.as_ref().and_then(Net::poll) else { break };
            self.on_net(ev);
        }
        if self.remote.borrow_mut().check_unanswered(std::time::Instant::now()) {
            godot_warn!(
                "GuandanClient: no answer to the player's action in {} s: asking for the whole state",
                remote::UNANSWERED.as_secs()
            );
        }
        while let Some((ask, answer)) = self.fetcher.poll() {
            self.queue.push_back(match answer {
                Ok(Answer::Leaderboard(b)) => Conn::Leaderboard(Box::new(b)),
                Ok(Answer::Profile(p)) => Conn::Profile(Box::new(p)),
                Ok(Answer::Record(name)) => Conn::RecordKept(name),
                Err(f) => Conn::FetchFailed(ask.what(), f.num(), f.message),
            });
        }
        self.drain_accounts();
        if self.net.as_ref().is_some_and(|n| !n.alive()) && self.link != Link::Offline {
            // The thread ended without a word (it always says why; this is a safety net).
            self.go_offline();
        }
        self.flush();
    }

    fn exit_tree(&mut self) {
        // Leaving the tree closes the connection and joins the network thread.
        self.go_offline();
    }
}

#[godot_api]
impl GuandanClient {
    /// The client's process priority: it runs before the nodes of priority 0.
    #[constant]
    pub const PROCESS_PRIORITY: i32 = -2;
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
    /// A malformed argument (a server address, a CA file, a nickname's account).
    #[constant]
    pub const ERR_BAD_ARGUMENT: i64 = codes::num(ErrorCode::BadArgument);
    /// The server's TLS certificate was refused (not valid for its name, expired, not signed by
    /// an authority the game trusts): the message says which; nothing was sent to it.
    #[constant]
    pub const ERR_CERTIFICATE_REFUSED: i64 = codes::num(ErrorCode::CertificateRefused);
    /// A plain (`http://`, `ws://`) address of a public host the player has not allowed:
    /// nothing was sent. Ask the player, then `allow_plaintext(address)` and connect again.
    #[constant]
    pub const ERR_PLAINTEXT_NOT_ALLOWED: i64 = codes::num(ErrorCode::PlaintextNotAllowed);
    /// Too many requests at once (or too many login attempts: wait and try again).
    #[constant]
    pub const ERR_RATE_LIMITED: i64 = codes::num(ErrorCode::RateLimited);
    /// The login name is another account's.
    #[constant]
    pub const ERR_NAME_TAKEN: i64 = codes::num(ErrorCode::NameTaken);
    /// Not a login name (3–32 letters, digits and `. _ -`: `guandan_proto::check_login_name`).
    #[constant]
    pub const ERR_BAD_LOGIN_NAME: i64 = codes::num(ErrorCode::BadLoginName);
    /// A password has 8 to 128 characters.
    #[constant]
    pub const ERR_BAD_PASSWORD: i64 = codes::num(ErrorCode::BadPassword);
    /// The account has a login name already.
    #[constant]
    pub const ERR_ALREADY_CLAIMED: i64 = codes::num(ErrorCode::AlreadyClaimed);

    // ----- signals: the connection and the room (the match's are GuandanEngine's, which
    // follows this client: GuandanEngine.follow) -----

    /// A call failed here, or the server refused a message that was not a match action (a
    /// refused play reaches the following engine's `error`).
    #[signal]
    fn error(code: i64, message: GString);
    /// A full state of the room's match arrived (the match started, the player came back to
    /// it, or asked for it again): a `GuandanEngine` that follows this client shows it.
    #[signal]
    fn match_joined();

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
    fn room_changed(room: Gd<crate::values::OnlineRoom>);
    /// The room closed; `reason` says why: `disbanded` (its host), `match_over` (its match
    /// ended and its players went), `empty`, `idle`, `not_started`, `stopped` (the server's
    /// storage failed), `closed` (an older server that does not say).
    #[signal]
    fn room_closed(reason: GString);
    /// The server's AI plays `seat` for its absent player (`on`), or gave it back.
    #[signal]
    fn hosting_changed(seat: i64, on: bool);
    /// Round trip of the last heartbeat in ms.
    #[signal]
    fn latency_changed(ms: f64);
    /// The server left a heartbeat unanswered for 1.5 s (`true`: a stalled server or a broken
    /// network; after 20 s the connection is made again, `reconnecting`), or answers again.
    #[signal]
    fn connection_unstable(unstable: bool);
    /// The finished match was stored as match `match_no` of the room (the vote phase follows).
    #[signal]
    fn match_stored(match_no: i64);
    /// Quick match: waiting for a table of `rules` (`queued`), `waited_ms` so far, `found`
    /// players waiting for such a table (the player included, at most 4); `queued` false: the
    /// wait is over (left the queue, or a table was found: `room_joined` follows).
    #[signal]
    fn queue_status(rules: GString, queued: bool, waited_ms: i64, found: i64);
    /// After a ranked (quick-match) match: the player's rating under `rules` is now `rating`,
    /// changed by `change`, after `matches` ranked matches.
    /// A leaderboard page asked with `fetch_leaderboard`.
    #[signal]
    fn leaderboard_received(board: Gd<crate::values::LeaderboardPage>);

    /// A profile asked with `fetch_profile`.
    #[signal]
    fn profile_received(profile: Gd<crate::values::PlayerProfile>);

    /// A leaderboard page or profile could not be had: `what` is `leaderboard` or `profile`,
    /// `code` an `ERR_*` (`ERR_NOT_FOUND`: no such player; `ERR_IO`: the server was not reached).
    #[signal]
    fn fetch_failed(what: GString, code: i64, message: GString);
    /// `fetch_match_record`'s answer: the record is kept among the player's records as `name`
    /// (`ReplayRecorder.load(name)`, Replays).
    #[signal]
    fn record_kept(name: GString);

    #[signal]
    fn rating_changed(rules: GString, rating: i64, change: i64, matches: i64);

    /// An account call was answered (`what`: `account`, `claim`, `login`, `transfer_code`,
    /// `transfer`, `log_out`, `log_out_everywhere`; `result` filled as each call says). After
    /// `login` and `transfer` the client holds the new session: keep `get_credentials()`.
    #[signal]
    fn account_done(what: GString, result: Gd<crate::values::AccountAnswer>);
    /// An account call failed (`code` an `ERR_*`; `message` the reason, never a password).
    #[signal]
    fn account_failed(what: GString, code: i64, message: GString);

    // ----- connection -----

    /// Registers a guest named `nickname` (or reuses the account from an earlier connection to
    /// the same server) and connects to `server`: `https://host[:port]` or `wss://…` (TLS, the
    /// certificate checked against Mozilla's roots and the `set_ca_file` CA), or
    /// `host:port` / `http://host:port` / `ws://…` in plain text (7878 by default). Returns `OK`
    /// (then `connecting`, `connected` or `disconnected`; a refused certificate is
    /// `disconnected(ERR_CERTIFICATE_REFUSED, why)` and is never retried in plain text), or at
    /// once `ERR_BAD_NICKNAME`, `ERR_BAD_ARGUMENT` (not an address), or
    /// `ERR_PLAINTEXT_NOT_ALLOWED`: a plain address of a public host (not loopback, a private
    /// LAN address or `localhost`) that the player has not allowed (`allow_plaintext`).
    #[func]
    pub fn connect_to_server(&mut self, server: GString, nickname: GString) -> i64 {
        let (server, nickname) = (server.to_string(), nickname.to_string());
        let r = (|| {
            let ep = Endpoint::parse(&server).map_err(Fail::bad_argument)?;
            // The server's own rule (guandan-proto): refused here before anything is sent.
            guandan_proto::check_nickname(&nickname).map_err(|why| Fail::new(ErrorCode::BadNickname, why))?;
            net::plaintext_check(&ep, &self.plaintext_allowed).map_err(|f| Fail::new(f.code, f.message))?;
            Ok((ep, self.trust()?))
        })();
        let r = r.map(|(ep, trust)| {
            if self.server != server || self.nickname != nickname {
                self.credentials = None;
            }
            self.go_offline();
            self.reset_room();
            self.server = server.clone();
            self.nickname = nickname.clone();
            self.link = Link::Connecting;
            self.net = Some(Net::start(NetConfig {
                server: ep,
                trust,
                plaintext_allowed: self.plaintext_allowed.clone(),
                nickname,
                credentials: self.credentials.clone(),
            }));
        });
        self.finish("connect_to_server", r)
    }

    /// Trusts the CA certificates of a PEM file (`res://`, `user://` or a file system path) in
    /// addition to Mozilla's roots, for a self-hosted server or a test; `""` trusts Mozilla's
    /// roots only (the default). Used by the next connection and request. Returns `OK`, or
    /// `ERR_BAD_ARGUMENT` (unreadable, no certificate, not a usable CA; the trust is unchanged).
    #[func]
    pub fn set_ca_file(&mut self, path: GString) -> i64 {
        let path = path.to_string();
        let r = if path.is_empty() {
            Ok(Trust::mozilla())
        } else if path.starts_with("res://") || path.starts_with("user://") {
            let bytes = godot::classes::FileAccess::get_file_as_bytes(path.as_str());
            if bytes.is_empty() {
                Err(guandan_proto::tls::Failure::new(ErrorCode::BadArgument, format!("CA file {path}: cannot read it")))
            } else {
                Trust::with_ca_pem(bytes.as_slice(), &path)
            }
        } else {
            Trust::with_ca_file(&path)
        };
        let r = r.map(|trust| {
            self.trust = Some(trust);
            self.ca_file = path;
        });
        self.finish("set_ca_file", r.map_err(|f| Fail::new(f.code, f.message)))
    }

    /// The CA file set by `set_ca_file` (`""`: Mozilla's roots only).
    #[func]
    pub fn get_ca_file(&self) -> GString {
        GString::from(self.ca_file.as_str())
    }

    /// Whether `server` is a plain-text address of a public host not yet allowed: the UI asks
    /// the player ("`host` is not encrypted: anyone on the network can read the game and your
    /// account; connect anyway?") before `connect_to_server`, which refuses it until then.
    /// False for `https://`/`wss://`, loopback, private LAN addresses, `localhost`, and for
    /// what is not an address (`connect_to_server` says why).
    #[func]
    pub fn needs_plaintext_confirmation(&self, server: GString) -> bool {
        Endpoint::parse(&server.to_string()).is_ok_and(|ep| net::plaintext_check(&ep, &self.plaintext_allowed).is_err())
    }

    /// The player agreed to play in plain text with `server`'s host (for this client's life;
    /// the UI may remember the choice and call it again at start). Returns `OK` or
    /// `ERR_BAD_ARGUMENT` (not an address).
    #[func]
    pub fn allow_plaintext(&mut self, server: GString) -> i64 {
        let r = Endpoint::parse(&server.to_string()).map_err(Fail::bad_argument).map(|ep| {
            self.plaintext_allowed.insert(ep.host);
        });
        self.finish("allow_plaintext", r)
    }

    /// Closes the connection (leaving the room's lobby; a seat in a running match stays the
    /// player's and the server's AI plays it).
    #[func]
    pub fn disconnect_from_server(&mut self) {
        self.go_offline();
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
    /// Whether the server has left a heartbeat unanswered for 1.5 s (`connection_unstable`).
    #[func]
    pub fn is_connection_unstable(&self) -> bool {
        self.unstable
    }

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

    /// Whether the client holds a copy of the room's match (a following engine shows it).
    #[func]
    pub fn has_match(&self) -> bool {
        self.remote.borrow().view().is_some()
    }

    /// Leaves the match view (the room stays; see `leave_room`): the copy is dropped.
    #[func]
    pub fn stop_match(&mut self) {
        self.remote.borrow_mut().clear_match();
    }

    /// The message of the last failed call or refusal.
    #[func]
    pub fn get_last_error(&self) -> GString {
        GString::from(self.last_error.as_str())
    }
}

// ----- internals -----

impl GuandanClient {
    /// Whom TLS connections trust: the `set_ca_file` trust, else Mozilla's roots (made once).
    fn trust(&mut self) -> Result<Trust, Fail> {
        Ok(self.trust.get_or_insert_with(Trust::mozilla).clone())
    }

    /// The room's match, for a following engine.
    pub(crate) fn remote(&self) -> Rc<RefCell<RemoteMatch>> {
        Rc::clone(&self.remote)
    }

    fn go_offline(&mut self) {
        self.net = None;
        self.link = Link::Offline;
        self.unstable = false;
        self.remote.borrow_mut().set_outbox(None);
    }

    fn reset_room(&mut self) {
        self.remote.borrow_mut().clear();
        self.room = None;
        self.room_code.clear();
        self.room_seat = -1;
        self.in_room = false;
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

    /// Ends a call: a failure is kept for `get_last_error` and emitted as `error`.
    fn finish(&mut self, what: &str, r: Result<(), Fail>) -> i64 {
        self.end_call(what, r, Conn::Error)
    }

    /// A call's code; a failure is logged, kept for `get_last_error` and queued as `signal`.
    fn end_call(&mut self, what: &str, r: Result<(), Fail>, signal: impl FnOnce(i64, String) -> Conn) -> i64 {
        let code = match r {
            Ok(()) => codes::OK,
            Err(f) => {
                let code = f.num();
                godot_warn!("GuandanClient.{what}: rejected with code {code} ({})", f.code.describe());
                self.last_error = f.message.clone();
                self.queue.push_back(signal(code, f.message));
                code
            }
        };
        self.flush();
        code
    }
}
