//! The match: a human's intent checked and applied, every action persisted before it is
//! announced (filtered per recipient), AI seats and hosted seats, the clocks, and the catch-up
//! of a returning seat.

use super::*;

/// The match's pace, owned by the room and changed here: which AI answers still count, when the
/// last action was applied, when a paced AI move is due, the break after a deal, and where the
/// open surrender vote began.
pub(super) struct Pace {
    /// Bumped when a seat changes hands: AI decisions asked for before are dropped.
    pub(super) generation: u64,
    /// When the last action was applied (or the match started): the room's AI seats wait
    /// `--ai-pace-ms` from it.
    pub(super) last_action_at: Instant,
    /// An AI decision waits for the room's pace until then.
    pub(super) ai_due: Option<Instant>,
    /// The break after a deal (`--deal-break-ms`) lasts until then: no AI move, no clock.
    pub(super) deal_break_until: Option<Instant>,
    /// The action seq at which the latest surrender vote opened: a vote made on a state from
    /// then on still stands when other actions came first (it answers the same open vote).
    pub(super) vote_since: Option<u64>,
}

impl Pace {
    pub(super) fn new() -> Pace {
        Pace { generation: 0, last_action_at: Instant::now(), ai_due: None, deal_break_until: None, vote_since: None }
    }
}

impl Room {
    /// Seats whose player has been gone for the heartbeat timeout are played by the AI.
    pub(super) async fn host_lost_seats(&mut self, now: Instant) {
        let hb = self.app.cfg().heartbeat_timeout();
        if self.state.in_game() {
            for seat in 0..4u8 {
                let s = &self.seats[seat];
                if s.lost_at.is_some_and(|at| at + hb <= now) && !s.hosted && s.player.is_some() {
                    self.seats.host(seat, false);
                    self.transition(RoomEvent::HeartbeatLost);
                    tracing::info!(seat, "seat hosted by the AI");
                    let profile = ai_profile(self.app.cfg().hosting_ai);
                    self.hand_seat(seat, Controller::StandIn(profile), false).await;
                    self.broadcast(&ServerMsg::Hosting { seat, on: true });
                    self.send_room();
                }
            }
        }
    }

    /// The whole record of the match in progress: the runtime keeps only what is not stored
    /// yet, and everything applied is stored before it is announced, so the database has it all.
    pub(super) async fn record(&self) -> Option<MatchLog> {
        let g = self.game.as_ref()?;
        self.app.metrics().log_replays.inc();
        let lines = match self.app.db().actions(&self.code, self.game_no).await {
            Ok(lines) => lines,
            Err(e) => {
                tracing::error!(error = %e, "reading the stored actions failed");
                return None;
            }
        };
        g.record(&lines).map_err(|e| tracing::error!(error = %e, "stored actions are not the match")).ok()
    }

    /// A seated player saw its prompt for the state after `seq` actions (`seen`): the duty's
    /// clock starts again from then, giving back at most `--seen-grace-ms`. Silent: a `seen`
    /// that crossed an action (or the match's end) on its way is simply late.
    pub(super) fn prompt_seen(&mut self, conn: ConnId, seq: u64) {
        let Some(seat) = self.seat_of(conn) else {
            return self.refuse(conn, ErrorCode::NotYourSeat, "spectators have no seat", None);
        };
        let grace = self.app.cfg().seen_grace();
        if !self.state.in_game() || grace.is_zero() {
            return;
        }
        if let Some(g) = &mut self.game {
            // A hosted seat has no human duty: nothing is given back.
            if let Some(given) = g.rt().prompt_seen(seat, seq, grace) {
                self.app.metrics().prompts_seen.inc();
                tracing::debug!(seat, seq, given, "prompt seen: the turn's clock restarts");
            }
        }
    }

    /// Sends what a returning seat missed, or its full state.
    pub(super) async fn catch_up(&mut self, conn: ConnId, seat: Seat, last: Option<u64>) {
        let Some(seq) = self.game.as_ref().map(Game::action_seq) else { return };
        // Rebuilding the missed messages reads and replays the stored match: a seat may have
        // that once every CATCH_UP_EVERY (a reconnect); asked again sooner, it gets its full
        // state, which costs the same whatever the match's length.
        let may_replay = self.seats.may_replay(seat);
        let msgs = match last {
            Some(n) if n < seq && seq - n <= 256 && may_replay => {
                self.seats.replayed(seat);
                self.record().await.and_then(|log| Game::catch_up(&log, n, Viewer::Seat(seat)))
            }
            Some(n) if n == seq => Some(Vec::new()),
            _ => None,
        };
        let Some(g) = &self.game else { return };
        let msgs = match msgs {
            Some(m) if !m.is_empty() => m,
            // A full state; an open vote the seat has not answered comes after it.
            _ => std::iter::once(g.state_msg(Viewer::Seat(seat))).chain(g.open_vote_msg(seat)).collect(),
        };
        for m in &msgs {
            self.send_msg(conn, m);
        }
    }

    pub(super) async fn intent(&mut self, conn: ConnId, seq: u64, nonce: u64, action: ActionKind, received: Instant) {
        let Some(seat) = self.seat_of(conn) else {
            return self.refuse(conn, ErrorCode::NotYourSeat, "spectators cannot act", Some(seq));
        };
        if self.game.is_none() {
            return self.refuse(conn, ErrorCode::BadRoomState, "no match is running", Some(seq));
        }
        if !self.state.in_game() {
            return self.refuse(conn, ErrorCode::BadRoomState, "the match is over", Some(seq));
        }
        if self.seats[seat].hosted_idle && self.seats[seat].hosted {
            // Handed to the AI for letting its duties time out: the player acts again, so the
            // seat is its own again (its duty told anew), and the intent is checked as any other.
            tracing::info!(seat, "seat taken back from the AI by an intent");
            self.take_back(seat).await;
        }
        let Some(next_seq) = self.game.as_ref().map(Game::action_seq) else {
            return self.refuse(conn, ErrorCode::BadRoomState, "no match is running", Some(seq));
        };
        if self.seats[seat].hosted {
            return self.refuse(conn, ErrorCode::NotHuman, "the AI hosts this seat", Some(seq));
        }
        if self.seats.intent_used(seat, seq, nonce) {
            return self.refuse(conn, ErrorCode::DuplicateSeq, "this seq or nonce was already used", Some(seq));
        }
        // Tribute and return duties run side by side (two payers, two receivers): an intent made
        // for the state before the other seat's gift still stands if its duty is unchanged.
        let side_by_side = matches!(action, ActionKind::Tribute { .. } | ActionKind::Return { .. })
            && self.game.as_ref().is_some_and(|g| g.state().to_act().contains(&seat));
        // A surrender vote is made beside the play: one made on a state where this vote was
        // already open still answers it when a play came first (before, it was refused as stale
        // and the vote stayed open with no way for the player to answer it again).
        let same_vote = matches!(action, ActionKind::SurrenderVote { .. })
            && self.pace.vote_since.is_some_and(|since| since <= seq)
            && self.game.as_ref().and_then(|g| g.state().surrender()).is_some_and(|s| !s.voted(seat));
        if self.seats.before_last_intent(seat, seq) || (seq < next_seq && !side_by_side && !same_vote) {
            return self.refuse(
                conn,
                ErrorCode::StaleSeq,
                format!("seq {seq} is stale: next is {next_seq}"),
                Some(seq),
            );
        }
        if seq > next_seq {
            return self.refuse(
                conn,
                ErrorCode::StateConflict,
                format!("seq {seq} is ahead: next is {next_seq}"),
                Some(seq),
            );
        }
        if matches!(action, ActionKind::Timeout | ActionKind::TimeUp) {
            return self.refuse(conn, ErrorCode::BadArgument, "timeouts are the server's", Some(seq));
        }
        match self.apply(seat, action, received).await {
            Ok(()) => self.seats.intent_applied(seat, seq, nonce),
            Err((code, message)) => self.refuse(conn, code, message, Some(seq)),
        }
    }

    /// A human's action: the runtime checks it; then it is persisted and announced.
    pub(super) async fn apply(
        &mut self,
        seat: Seat,
        kind: ActionKind,
        received: Instant,
    ) -> Result<(), (ErrorCode, String)> {
        let Some(g) = &mut self.game else { return Err((ErrorCode::NoMatch, "no match".into())) };
        let before = g.action_seq();
        let notices = g.act(seat, kind).map_err(|e| (e.code(), e.to_string()))?;
        self.persist_and_announce(before, notices, seat, received).await;
        Ok(())
    }

    /// Writes the actions the runtime applied since `before` to the journal, then sends every
    /// member what it may see. When the write fails nothing is announced and the room stops: its
    /// match is restored from the durable log by the next start of this instance.
    pub(super) async fn persist_and_announce(
        &mut self,
        before: u64,
        notices: Vec<Notice>,
        seat: Seat,
        received: Instant,
    ) {
        let Some(g) = &mut self.game else { return };
        let new = g.take_unsaved();
        debug_assert_eq!(new.first().map_or(before, |r| r.0), before);
        // The seat whose action opened the batch (what follows from it, such as the AI seats'
        // votes on a proposal, is theirs too): a client counts its intent answered by this.
        let actor = new.first().map_or(seat, |r| r.1);
        let count = new.len() as u32;
        let rows: Vec<(u64, String)> = new.into_iter().map(|(seq, _, line)| (seq, line)).collect();
        if !rows.is_empty()
            && let Err(e) = self.app.journal().append(&self.code, self.game_no, rows).await
        {
            tracing::error!(error = %e, "action not stored: room stops");
            self.broadcast(&ServerMsg::error(ErrorCode::Internal, "storage failed; rejoin in a moment"));
            self.state = RoomState::Destroyed;
            self.closed = Some(guandan_proto::RoomClosed::Stopped);
            return;
        }
        if count > 0 {
            self.pace.last_action_at = Instant::now();
        }
        let brk = self.app.cfg().deal_break();
        if game::ends_deal(&notices) && !brk.is_zero() && self.people() {
            self.pace.deal_break_until = Some(self.pace.last_action_at + brk);
        }
        if let Some(n) = notices.iter().rev().find(|n| matches!(n.out, guandan_runtime::Out::SurrenderProposed { .. }))
        {
            self.pace.vote_since = Some(n.seq);
        }
        self.announce(&notices, count, actor, None).await;
        for _ in 0..count {
            self.app.metrics().action(received.elapsed());
        }
    }

    /// Sends notices to every member (or one connection), filtered by the runtime per
    /// recipient; spectators get theirs delayed.
    pub(super) async fn announce(&mut self, notices: &[Notice], actions: u32, seat: Seat, only: Option<ConnId>) {
        let Some(g) = &self.game else { return };
        // One hash per step: it serializes the whole match, and every recipient gets the same.
        let hash = g.state().state_hash();
        let over = g.state().is_over();
        let mut out: Vec<(ConnId, ServerMsg)> = Vec::with_capacity(self.members.len());
        let mut spectators = false;
        for (c, seat_of_c) in self.members.iter() {
            let Some(s) = seat_of_c else {
                spectators = true;
                continue;
            };
            if only.is_some_and(|o| o != c) {
                continue;
            }
            let prompt = !over && g.rt_ref().controller(s).is_some_and(|c| !c.is_ai());
            out.push((c, g.applied_msg_hashed(notices, actions, seat, Viewer::Seat(s), prompt, &hash)));
        }
        let seq = g.action_seq();
        // Spectators' messages are made (and held for the delay) only while someone watches; a
        // spectator who arrives later starts from the full state kept at the released point.
        let viewer = self.delay.viewer;
        let spect = spectators.then(|| text(&g.applied_msg_hashed(notices, actions, seat, viewer, false, &hash)));
        for (c, m) in out {
            self.send_msg(c, &m);
        }
        if only.is_some() {
            return;
        }
        match spect {
            Some(t) => self.delay.hold(seq, t),
            None => self.delay.unwatched(),
        }
        if game::ends_round(notices)
            && let Some(g) = &self.game
        {
            // Kept for spectators who arrive (or resync) once this point is released.
            self.delay.round_ended(seq, || text(&g.state_msg_hashed(viewer, &hash)));
        }
        if over {
            self.delay.over();
        }
        self.release_spectators();
        if over && self.state.in_game() {
            self.finish().await;
        }
    }

    pub(super) async fn ai_done(&mut self, result: AiResult) {
        let Some(g) = &mut self.game else { return };
        if result.generation != self.pace.generation || !self.state.in_game() {
            return;
        }
        let before = g.action_seq();
        let seat = result.seat;
        // Stale results (the state moved on, the seat went back to its human) give nothing.
        let notices = g.rt().ai_result(result);
        if !notices.is_empty() {
            self.persist_and_announce(before, notices, seat, Instant::now()).await;
        }
    }

    /// Advances the turn and match clocks.
    pub(super) async fn tick(&mut self, elapsed: std::time::Duration) {
        if self.in_deal_break(Instant::now()) {
            return; // Clocks stand still between deals.
        }
        let Some(g) = &mut self.game else { return };
        let before = g.action_seq();
        match g.rt().tick(elapsed) {
            Ok(notices) if !notices.is_empty() => {
                let seat = g.rt_ref().log().actions.last().map_or(0, |a| a.seat);
                self.persist_and_announce(before, notices, seat, Instant::now()).await;
                self.host_idle_seats().await;
            }
            Ok(_) => {}
            Err(e) => tracing::error!(error = %e, "clock action refused"),
        }
    }

    /// Whether the break after a deal runs at `now` (it is forgotten once over).
    fn in_deal_break(&mut self, now: Instant) -> bool {
        match self.pace.deal_break_until {
            Some(until) if until > now => true,
            Some(_) => {
                self.pace.deal_break_until = None;
                false
            }
            None => false,
        }
    }

    /// Drops the AI decisions in flight (a seat changed hands): their answers come back stale and
    /// are dropped, and the runtime stops waiting for them, so the next one is asked for anew —
    /// a dropped answer the room still waited for stopped every AI seat for good.
    pub(super) fn drop_ai_in_flight(&mut self) {
        self.pace.generation += 1;
        if let Some(g) = &mut self.game {
            g.rt().cancel_ai();
        }
    }

    /// Whether a person holds a seat (connected or not): the room is paced for them.
    fn people(&self) -> bool {
        self.seats.any_player()
    }

    /// Makes the due AI decisions: L1/L2 take microseconds and are decided right here, one
    /// after another; an L3 decision goes to tokio's blocking pool (one at a time per room) and
    /// comes back as a command.
    pub(super) async fn drive_ai(&mut self) {
        // Bounded so that a room of AI seats still lets its other commands in now and then.
        for _ in 0..64 {
            if !self.state.in_game() || self.closing {
                return;
            }
            let generation = self.pace.generation;
            // At the room's pace while people are in it (and not before a deal's break is over):
            // the next AI move waits its turn.
            let pace = self.app.cfg().ai_pace();
            let paced = (!pace.is_zero() && self.people()).then_some(self.pace.last_action_at + pace);
            let Some(g) = &mut self.game else { return };
            let now = Instant::now();
            if let Some(due) = paced.into_iter().chain(self.pace.deal_break_until).max().filter(|d| *d > now) {
                if g.rt_ref().ai_due() {
                    self.pace.ai_due = Some(due);
                }
                return;
            }
            let Some(request) = g.rt().ai_request(generation) else { return };
            if matches!(request.profile.level, AiLevel::L3) {
                let tx = self.tx.clone();
                tokio::task::spawn_blocking(move || {
                    let result = guandan_ai::service::decide(&request, AI_HARD_LIMIT);
                    let _ = tx.blocking_send(RoomCmd::AiDone(Box::new(result)));
                });
                return;
            }
            let result = guandan_ai::service::decide(&request, AI_HARD_LIMIT);
            self.ai_done(result).await;
        }
        // More AI work is due: continue after the commands that queued up meanwhile.
        let _ = self.tx.try_send(RoomCmd::DriveAi);
    }
}
