//! The lobby: joining (a free seat, or back to one's own seat), leaving, the host's seat
//! settings, the ready check and the start of a match.

use super::*;

/// Creates a room owned by this instance, with a fresh random code claimed in the directory.
pub async fn create(
    app: &Arc<App>,
    host: &PlayerRef,
    rules: Option<String>,
    spectator_delay: Option<u32>,
    seed: Option<u64>,
    spectator_hands: Option<u8>,
) -> Result<(String, mpsc::Sender<RoomCmd>), (ErrorCode, String)> {
    let preset = rules.unwrap_or_else(|| "competition".into());
    // Whoever knows a match's seed knows all four hands: online deals come from the OS's
    // generator, and a client's seed only makes a practice room on a server started for that.
    if seed.is_some() && !app.cfg().practice_seeds {
        return Err((
            ErrorCode::BadArgument,
            "seed: the server deals every online match from its own random generator (practice seeds are off)".into(),
        ));
    }
    let stored = Stored {
        preset: preset.clone(),
        seed,
        practice: seed.is_some(),
        ranked: app.cfg().test_ranked_rooms,
        host: host.id.clone(),
        surrender_opponent_accepts: ONLINE_SURRENDER_OPPONENT_ACCEPTS,
        rules_revision: guandan_core::rules::RULES_REVISION,
        ..Stored::default()
    };
    let Some(rule_config) = stored.rules() else {
        return Err((
            ErrorCode::BadArgument,
            format!("unknown rule preset {:?}", preset.chars().take(32).collect::<String>()),
        ));
    };
    let delay = spectator_delay.unwrap_or(DEFAULT_SPECTATOR_DELAY);
    if delay > 50 {
        return Err((ErrorCode::BadArgument, "spectator_delay is at most 50 rounds".into()));
    }
    let spectator_hands = match spectator_hands.map(Team::new) {
        None => None,
        Some(Some(t)) if !stored.ranked => Some(t),
        Some(Some(_)) => {
            return Err((ErrorCode::BadArgument, "spectator_hands: ranked rooms never show a hand".into()));
        }
        Some(None) => return Err((ErrorCode::BadArgument, "spectator_hands is team 0 or 1".into())),
    };
    let stored = Stored { spectator_delay: delay, creator: Some(host.id.clone()), spectator_hands, ..stored };
    if !app.take_room(&host.id) {
        app.metrics().rooms_refused.inc();
        return Err((
            ErrorCode::RateLimited,
            format!("you have {} rooms open already: leave one first", app.cfg().rooms_per_account),
        ));
    }
    let made = claim_and_spawn(app, stored, rule_config).await;
    if made.is_err() {
        app.release_room(&host.id);
    }
    made
}

/// Creates a ranked quick-match table on this instance with its seats already taken (`None` =
/// an AI seat at `ai_level`); its match starts on `RoomCmd::BeginQuick`, once the queue has
/// claimed every player for it. Not counted against anyone's rooms (nobody chose to open it).
pub async fn create_quick(
    app: &Arc<App>,
    preset: &str,
    players: [Option<PlayerRef>; 4],
    ai_level: u8,
) -> Result<(String, mpsc::Sender<RoomCmd>), (ErrorCode, String)> {
    let host = players.iter().flatten().next().map(|p| p.id.clone()).unwrap_or_default();
    let seats = players.map(|p| {
        let ai = p.is_none().then_some(ai_level);
        (p, ai)
    });
    let stored = Stored {
        preset: preset.to_string(),
        spectator_delay: DEFAULT_SPECTATOR_DELAY,
        host,
        seats,
        ranked: true,
        surrender_opponent_accepts: ONLINE_SURRENDER_OPPONENT_ACCEPTS,
        rules_revision: guandan_core::rules::RULES_REVISION,
        ..Stored::default()
    };
    let Some(rule_config) = stored.rules() else {
        return Err((ErrorCode::BadArgument, format!("unknown rule preset {preset:?}")));
    };
    claim_and_spawn_in(app, stored, rule_config, RoomState::ReadyCheck).await
}

async fn claim_and_spawn(
    app: &Arc<App>,
    stored: Stored,
    rule_config: RuleConfig,
) -> Result<(String, mpsc::Sender<RoomCmd>), (ErrorCode, String)> {
    claim_and_spawn_in(app, stored, rule_config, RoomState::Idle).await
}

async fn claim_and_spawn_in(
    app: &Arc<App>,
    stored: Stored,
    rule_config: RuleConfig,
    state: RoomState,
) -> Result<(String, mpsc::Sender<RoomCmd>), (ErrorCode, String)> {
    for _ in 0..8 {
        let code = crate::auth::new_room_code();
        let row = crate::db::RoomRow {
            code: code.clone(),
            instance: app.cfg().instance.clone(),
            url: app.public_url().lock().clone(),
            state: serde_json::to_value(state).ok().and_then(|v| v.as_str().map(str::to_string)).unwrap_or_default(),
            config: serde_json::to_string(&stored).unwrap_or_default(),
            match_no: 0,
        };
        match app.db().claim_room(&row).await {
            Ok(true) => {
                let tx = spawn(app.clone(), code.clone(), stored, rule_config, state, 0, None);
                return Ok((code, tx));
            }
            Ok(false) => continue,
            Err(e) => return Err((ErrorCode::Internal, e.to_string())),
        }
    }
    Err((ErrorCode::Internal, "no free room code".into()))
}

/// The lobby's clocks, owned by the room and changed only here: the ready check's deadline
/// and, while nobody is connected and no match runs, since when the room has been empty
/// (`--room-idle-ms`). The room's settings it changes (the host, what spectators see, a new
/// match's seed and seats) go through `Stored`'s methods.
pub(super) struct Lobby {
    ready_deadline: Option<Instant>,
    idle_since: Option<Instant>,
}

impl Lobby {
    pub(super) fn new() -> Lobby {
        Lobby { ready_deadline: None, idle_since: Some(Instant::now()) }
    }

    /// When the ready check falls back by itself.
    pub(super) fn ready_deadline(&self) -> Option<Instant> {
        self.ready_deadline
    }

    /// When the room, empty since a time, closes after `idle`.
    pub(super) fn idle_until(&self, idle: std::time::Duration) -> Option<Instant> {
        self.idle_since.map(|t| t + idle)
    }

    /// After each command: whether anyone is in the room (an empty one counts its idle time).
    pub(super) fn members_now(&mut self, anyone: bool) {
        if anyone {
            self.idle_since = None;
        } else {
            self.idle_since.get_or_insert_with(Instant::now);
        }
    }
}

impl Room {
    /// The lobby's deadlines at `now`: seats of players away past the lobby grace are freed, a
    /// room empty past `--room-idle-ms` closes, a ready check past its time falls back. True when
    /// the room closed.
    pub(super) async fn lobby_timers(&mut self, now: Instant) -> bool {
        if self.in_lobby() {
            let grace = self.app.cfg().lobby_grace();
            let gone = self.seats.away_past(grace, now);
            if !gone.is_empty() {
                for seat in gone {
                    tracing::info!(seat = %seat, "lobby seat freed: its player stayed away past the grace");
                    self.free_lobby_seat(seat);
                }
                if self.close_if_empty().await {
                    return true;
                }
                self.send_room();
                self.save_directory().await;
            }
        }
        if !self.state.locked()
            && self.members.is_empty()
            && self.lobby.idle_until(self.app.cfg().room_idle()).is_some_and(|t| t <= now)
            && self.close_abandoned(guandan_proto::RoomClosed::Idle).await
        {
            return true;
        }
        if self.lobby.ready_deadline.is_some_and(|d| d <= now) {
            self.lobby.ready_deadline = None;
            if self.transition(RoomEvent::ReadyTimeout) {
                self.seats.unready();
                self.send_room();
            }
        }
        false
    }

    pub(super) fn is_host(&self, conn: ConnId) -> bool {
        self.seat_of(conn).and_then(|s| self.seats[s].player.as_ref()).is_some_and(|p| p.id == self.stored.host)
    }

    pub(super) async fn join(&mut self, conn: ConnId, player: PlayerRef, out: Outbox, last_action_seq: Option<u64>) {
        tracing::debug!(conn, player = %player.id, ?last_action_seq, seq = self.play.seq(), "join");
        // Back to one's own seat (reconnect), even while the room is locked.
        if let Some(seat) = self.seats.of_player(&player.id) {
            let (old, was_hosted) = self.seats.back(seat, conn);
            if let Some(old) = old
                && let Some(m) = self.members.remove(old)
                && old != conn
            {
                // Another connection of the account held the seat (another device, a game
                // restarted after a crash): the newest wins, the old one is told and closed.
                self.app.metrics().sessions_replaced.inc();
                let bye = ServerMsg::error(
                    ErrorCode::SessionReplaced,
                    format!(
                        "your seat in room {} was taken by a newer connection of your account: this one is closed",
                        self.code
                    ),
                );
                let _ = m.out.send(text(&bye));
                m.out.end();
            }
            if was_hosted {
                self.transition(RoomEvent::Reconnect);
                // The seat is the human's again before the returning connection is a member:
                // what it is sent next (its full state) then runs the player's own clock (issue
                // 52: sent while the AI still hosted the seat, the state had no clock and the
                // table showed 0 s), and the hand-over's notice, at an action seq the returning
                // client has not reached yet, is not sent to it (it read it as a gap). It hears
                // of the hand-over from `hosting` below. An AI decision computed but not applied
                // yet is dropped (the runtime forgets it, and its generation is stale); applied
                // ones stand. The AI never acts for a human seat, so no AI move follows the
                // return (the spec's 2 s grace holds for as long as the human stays).
                self.drop_ai_in_flight();
                self.hand_seat(seat, Controller::Human, false).await;
                let still = self.seats.any_hosted();
                self.transition(if still { RoomEvent::CaughtUpStillHosting } else { RoomEvent::CaughtUp });
            }
            self.members.join(conn, out, Some(seat));
            self.send_msg(conn, &ServerMsg::Joined { code: self.code.clone(), seat: Some(seat) });
            self.catch_up(conn, seat, last_action_seq).await;
            if self.state == RoomState::VotePhase {
                // Back after the end: the match was stored (the old connection may have missed it).
                let stored =
                    ServerMsg::MatchStored { code: self.code.clone(), match_no: (self.play.match_no() - 1) as u32 };
                self.send_msg(conn, &stored);
                // And its rating, which the old connection may have missed too.
                if let Some(rating) = self.rematch.rating_of(&player.id).cloned() {
                    self.send_msg(conn, &rating);
                }
            }
            if was_hosted {
                self.broadcast(&ServerMsg::Hosting { seat, on: false });
            }
            self.send_room();
            return;
        }
        if self.state.locked() {
            return self.reject_join(conn, out, ErrorCode::RoomLocked, "the room is locked while a match runs");
        }
        let Some(seat) = self.seats.first_free() else {
            return self.reject_join(conn, out, ErrorCode::RoomFull, "every seat is taken");
        };
        // One seat per account: claimed before the seat is taken (two rooms asked at once
        // cannot both seat the account).
        if let Err(other) = self.app.seats().claim(&player.id, &self.code).await {
            self.app.metrics().seats_refused.inc();
            return self.reject_join(conn, out, ErrorCode::AlreadySeated, &crate::seats::already_seated(&other));
        }
        if !self.transition(RoomEvent::Join) {
            self.app.seats().release(&player.id, &self.code).await;
            return self.reject_join(conn, out, ErrorCode::BadRoomState, "the room takes no players now");
        }
        self.claims.claimed(&player.id);
        self.seats.sit(seat, player, conn);
        self.members.join(conn, out, Some(seat));
        self.send_msg(conn, &ServerMsg::Joined { code: self.code.clone(), seat: Some(seat) });
        self.after_seating();
        self.save_directory().await;
    }

    pub(super) fn reject_join(&mut self, conn: ConnId, out: Outbox, code: ErrorCode, message: &str) {
        self.app.metrics().protocol_errors.inc();
        let _ = out.send(text(&ServerMsg::error(code, message)));
        let _ = conn;
    }

    /// WAITING → READY_CHECK once every seat is taken.
    pub(super) fn after_seating(&mut self) {
        if self.seats.all_taken() && self.transition(RoomEvent::Full) {
            self.lobby.ready_deadline = Some(Instant::now() + self.app.cfg().ready_timeout());
        }
        self.send_room();
    }

    pub(super) async fn gone(&mut self, conn: ConnId, silent_since: Instant, left: bool) {
        if !self.members.contains(conn) {
            return;
        }
        if left && !self.state.locked() {
            // Leaving a lobby frees the seat.
            if let Some(seat) = self.seat_of(conn) {
                self.free_lobby_seat(seat);
            }
            self.members.remove(conn);
            if self.close_if_empty().await {
                return;
            }
            self.send_room();
            self.save_directory().await;
            return;
        }
        if left && let Some(seat) = self.seat_of(conn) {
            self.seats.left_match(seat);
        }
        self.drop_member(conn, silent_since);
        self.send_room();
    }

    /// A lobby seat becomes free (its player left, or stayed away past the lobby grace). The
    /// host's role passes to the next player.
    pub(super) fn free_lobby_seat(&mut self, seat: Seat) {
        self.seats.free(seat);
        self.pass_host(seat);
        let e = if self.seats.any_player() { RoomEvent::Leave } else { RoomEvent::Emptied };
        self.transition(e);
        if self.state != RoomState::ReadyCheck {
            self.lobby.ready_deadline = None;
        }
    }

    /// When the host's seat was freed (`from`): the next player after it in seat order hosts.
    pub(super) fn pass_host(&mut self, from: Seat) {
        if self.seats.of_player(&self.stored.host).is_some() {
            return;
        }
        if let Some((seat, p)) = self.seats.next_player(from) {
            tracing::info!(seat = %seat, "the host left: the next player hosts");
            self.stored.pass_host(p.id.clone());
        }
    }

    /// Whether the room is a lobby (seats are taken and freed, no match runs).
    pub(super) fn in_lobby(&self) -> bool {
        matches!(self.state, RoomState::Waiting | RoomState::ReadyCheck)
    }

    pub(super) async fn set_seat(&mut self, conn: ConnId, seat: Seat, setting: SeatSetting) {
        if !self.is_host(conn) {
            return self.refuse(conn, ErrorCode::NotHost, "only the host sets seats", None);
        }
        if self.state.locked() {
            return self.refuse(conn, ErrorCode::RoomLocked, "seats are fixed while a match runs", None);
        }
        if self.seats[seat].player.is_some() {
            return self.refuse(conn, ErrorCode::NotYourSeat, "a player sits there", None);
        }
        match setting {
            SeatSetting::Ai { level } if (1..=3).contains(&level) => {
                if self.transition(RoomEvent::Join) {
                    self.seats.set_ai(seat, level);
                    self.after_seating();
                } else if self.state == RoomState::ReadyCheck {
                    self.seats.set_ai(seat, level);
                    self.send_room();
                } else {
                    self.refuse(conn, ErrorCode::BadRoomState, "not now", None);
                }
            }
            SeatSetting::Ai { .. } => self.refuse(conn, ErrorCode::BadArgument, "AI level is 1-3", None),
            SeatSetting::Open => {
                if self.seats.clear_ai(seat) {
                    self.transition(RoomEvent::Leave);
                    self.lobby.ready_deadline = None;
                }
                self.send_room();
            }
        }
    }

    /// The host lets spectators see one team's hands (or none) from the next match on. Only
    /// between matches: the match in progress (and its vote) keeps the viewer it started with.
    pub(super) async fn set_spectator_hands(&mut self, conn: ConnId, team: Option<u8>) {
        if !self.is_host(conn) {
            return self.refuse(conn, ErrorCode::NotHost, "only the host chooses what spectators see", None);
        }
        if self.state.locked() || self.play.game().is_some() {
            return self.refuse(conn, ErrorCode::BadRoomState, "what spectators see is fixed while a match runs", None);
        }
        let Some(team) = team.map(|n| Team::new(n).ok_or(n)).transpose().ok() else {
            return self.refuse(conn, ErrorCode::BadArgument, "spectator_hands is team 0 or 1", None);
        };
        if self.stored.ranked {
            return self.refuse(conn, ErrorCode::BadRoomState, "ranked rooms never show a hand", None);
        }
        if self.stored.show_hands(team) {
            self.save_directory().await;
        }
        self.send_room();
    }

    pub(super) async fn start(&mut self, conn: ConnId) {
        if !self.is_host(conn) {
            return self.refuse(conn, ErrorCode::NotHost, "only the host starts", None);
        }
        if self.state != RoomState::ReadyCheck {
            return self.refuse(conn, ErrorCode::BadRoomState, "every seat must be taken first", None);
        }
        if self.seats.iter().any(|s| s.player.is_some() && !s.ready) {
            return self.refuse(conn, ErrorCode::BadRoomState, "not every player is ready", None);
        }
        if let Err((code, message)) = self.begin().await {
            self.refuse(conn, code, message, None);
        }
    }

    /// A quick-match table starts at once; a player who does not come within the heartbeat
    /// timeout is played by the AI until they do (as if they had dropped out).
    pub(super) async fn begin_quick(&mut self) {
        if self.state != RoomState::ReadyCheck || self.play.game().is_some() {
            return;
        }
        if let Err((_, message)) = self.begin().await {
            tracing::error!(message, "quick-match table did not start");
            self.close_abandoned(guandan_proto::RoomClosed::NotStarted).await;
            return;
        }
        self.seats.away_until_they_come(Instant::now());
    }

    /// READY_CHECK → PLAYING: deals a new match for the seats as they are.
    async fn begin(&mut self) -> Result<(), (ErrorCode, String)> {
        // Practice rooms deal from their creator's seed; every other match from the OS's
        // generator, independently of everything published (earlier seeds included).
        let seed = match (self.stored.practice, self.stored.seed) {
            (true, Some(s)) => s.wrapping_add(self.play.match_no() as u64),
            _ => match crate::auth::os_random_u64() {
                Some(s) => s,
                None => return Err((ErrorCode::Internal, "no random numbers from the system; try again".into())),
            },
        };
        let seats = self.seats.lineup();
        let cfg = RuntimeConfig { seed, rules: self.rules.clone(), seats: controllers(&seats), clocks: CLOCKS };
        let (mut game, notices) = match Game::start(cfg) {
            Ok(x) => x,
            Err(e) => return Err((ErrorCode::Internal, e.to_string())),
        };
        game.rt().set_surrender_policy(surrender_policy(&self.stored));
        self.transition(RoomEvent::Start);
        self.lobby.ready_deadline = None;
        self.stored.match_started(seed, seats, crate::db::now_ms());
        self.seats.new_match();
        // The room's setting now is what this match's spectators see until it ends.
        let viewer = self.stored.spectator_viewer();
        self.delay.new_match(self.stored.spectator_delay, viewer, text(&game.state_msg(viewer)));
        self.play.start(game);
        // The deal is shown before the first AI move (and a new match's clocks start now).
        self.pace.acted(Instant::now());
        self.save_directory().await;
        let _ = notices;
        self.send_room();
        let conns: Vec<(ConnId, Option<Seat>)> = self.members.iter().collect();
        for (c, seat) in conns {
            let msg = match (self.play.game(), seat) {
                (Some(g), Some(s)) => g.state_msg(Viewer::Seat(s)),
                (Some(g), None) => g.state_msg(viewer),
                _ => continue,
            };
            self.send_msg(c, &msg);
        }
        Ok(())
    }
}
