//! The match: a human's intent checked and applied, every action persisted before it is
//! announced (filtered per recipient), a seat handed to the AI or back, and the catch-up of a
//! returning seat. The AI seats' decisions and the clocks are pace.rs's; they change the match
//! through `Play`'s methods.

use super::*;

/// The match, owned by the room and changed only here: the match in progress (or the finished
/// one until the rematch vote closes), its numbers in the store, and where its open surrender
/// vote began. The room's other files read it through `Play`'s methods and change it through
/// them (pace.rs asks for AI decisions and runs the clocks through them).
pub(super) struct Play {
    game: Option<Game>,
    /// The number the next stored match gets; it moves on when a match is stored, while `game`
    /// (the finished match) stays until the rematch vote closes.
    match_no: i64,
    /// The number of the match in `game`: its actions are stored under it.
    game_no: i64,
    /// The action seq at which the latest surrender vote opened: a vote made on a state from
    /// then on still stands when other actions came first (it answers the same open vote).
    vote_since: Option<u64>,
}

/// What the match's clocks applied: the action count before, the notices, and the seat of the
/// last action.
pub(super) struct Step {
    pub(super) before: u64,
    pub(super) notices: Vec<Notice>,
    pub(super) seat: Seat,
}

impl Play {
    /// A room's match as spawned: none, or one restored from the store (its whole record, read
    /// for the spectators' round points, is forgotten now).
    pub(super) fn new(match_no: i64, mut game: Option<Game>, policy: SurrenderPolicy) -> Play {
        if let Some(g) = &mut game {
            g.rt().set_surrender_policy(policy);
            g.forget_record();
        }
        Play { game, match_no, game_no: match_no, vote_since: None }
    }

    // ----- reading -----

    pub(super) fn game(&self) -> Option<&Game> {
        self.game.as_ref()
    }

    /// The action count of the match in the room (none when no match is there).
    pub(super) fn seq(&self) -> Option<u64> {
        self.game.as_ref().map(Game::action_seq)
    }

    pub(super) fn match_no(&self) -> i64 {
        self.match_no
    }

    pub(super) fn game_no(&self) -> i64 {
        self.game_no
    }

    /// Whether an AI decision is due in the match.
    pub(super) fn ai_due(&self) -> bool {
        self.game.as_ref().is_some_and(|g| g.rt_ref().ai_due())
    }

    /// Whether the seat let this many of its duties in a row time out.
    pub(super) fn timed_out_in_a_row(&self, seat: Seat, n: u32) -> bool {
        self.game.as_ref().is_some_and(|g| g.rt_ref().timeouts_in_a_row(seat) >= n)
    }

    // ----- changing -----

    /// A new match starts, stored under the next match number.
    pub(super) fn start(&mut self, game: Game) {
        self.game = Some(game);
        self.game_no = self.match_no;
    }

    /// The finished match was stored: the next one gets the next number.
    pub(super) fn stored(&mut self) {
        self.match_no += 1;
    }

    /// The rematch vote closed: the finished match leaves the room.
    pub(super) fn end(&mut self) {
        self.game = None;
    }

    /// The next AI decision due (its answer counts only under `generation`).
    pub(super) fn ai_request(&mut self, generation: u64) -> Option<guandan_ai::service::AiRequest> {
        self.game.as_mut().and_then(|g| g.rt().ai_request(generation))
    }

    /// An AI decision's answer: the action count before it and what it applied (nothing when
    /// the state moved on or the seat went back to its human).
    pub(super) fn ai_result(&mut self, result: AiResult) -> Option<(u64, Vec<Notice>)> {
        let g = self.game.as_mut()?;
        let before = g.action_seq();
        Some((before, g.rt().ai_result(result)))
    }

    /// The AI decisions in flight are not waited for any more.
    pub(super) fn cancel_ai(&mut self) {
        if let Some(g) = &mut self.game {
            g.rt().cancel_ai();
        }
    }

    /// Advances the match's clocks (none when no match is there).
    pub(super) fn tick(&mut self, elapsed: std::time::Duration) -> Option<Result<Step, guandan_runtime::RuntimeError>> {
        let g = self.game.as_mut()?;
        let before = g.action_seq();
        Some(g.rt().tick(elapsed).map(|notices| {
            let seat = g.rt_ref().log().actions.last().map_or(Seat::ZERO, |a| a.seat);
            Step { before, notices, seat }
        }))
    }
}

impl Room {
    /// The whole record of the match in progress: the runtime keeps only what is not stored
    /// yet, and everything applied is stored before it is announced, so the database has it all.
    pub(super) async fn record(&self) -> Option<MatchLog> {
        let g = self.play.game.as_ref()?;
        self.app.metrics().log_replays.inc();
        let lines = match self.app.db().actions(&self.code, self.play.game_no).await {
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
        if let Some(g) = &mut self.play.game {
            // A hosted seat has no human duty: nothing is given back.
            if let Some(given) = g.rt().prompt_seen(seat, seq, grace) {
                self.app.metrics().prompts_seen.inc();
                tracing::debug!(seat = %seat, seq, given, "prompt seen: the turn's clock restarts");
            }
        }
    }

    /// Sends what a returning seat missed, or its full state.
    pub(super) async fn catch_up(&mut self, conn: ConnId, seat: Seat, last: Option<u64>) {
        let Some(seq) = self.play.seq() else { return };
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
        let Some(g) = &self.play.game else { return };
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
        if self.play.game.is_none() {
            return self.refuse(conn, ErrorCode::BadRoomState, "no match is running", Some(seq));
        }
        if !self.state.in_game() {
            return self.refuse(conn, ErrorCode::BadRoomState, "the match is over", Some(seq));
        }
        if self.seats[seat].hosted_idle && self.seats[seat].hosted {
            // Handed to the AI for letting its duties time out: the player acts again, so the
            // seat is its own again (its duty told anew), and the intent is checked as any other.
            tracing::info!(seat = %seat, "seat taken back from the AI by an intent");
            self.take_back(seat).await;
        }
        let Some(next_seq) = self.play.seq() else {
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
            && self.play.game.as_ref().is_some_and(|g| g.state().to_act().contains(&seat));
        // A surrender vote is made beside the play: one made on a state where this vote was
        // already open still answers it when a play came first (before, it was refused as stale
        // and the vote stayed open with no way for the player to answer it again).
        let same_vote = matches!(action, ActionKind::SurrenderVote { .. })
            && self.play.vote_since.is_some_and(|since| since <= seq)
            && self.play.game.as_ref().and_then(|g| g.state().surrender()).is_some_and(|s| !s.voted(seat));
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
        let Some(g) = &mut self.play.game else { return Err((ErrorCode::NoMatch, "no match".into())) };
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
        let Some(g) = &mut self.play.game else { return };
        let new = g.take_unsaved();
        debug_assert_eq!(new.first().map_or(before, |r| r.0), before);
        // The seat whose action opened the batch (what follows from it, such as the AI seats'
        // votes on a proposal, is theirs too): a client counts its intent answered by this.
        let actor = new.first().map_or(seat, |r| r.1);
        let count = new.len() as u32;
        let rows: Vec<(u64, String)> = new.into_iter().map(|(seq, _, line)| (seq, line)).collect();
        if !rows.is_empty()
            && let Err(e) = self.app.journal().append(&self.code, self.play.game_no, rows).await
        {
            tracing::error!(error = %e, "action not stored: room stops");
            self.broadcast(&ServerMsg::error(ErrorCode::Internal, "storage failed; rejoin in a moment"));
            self.stop(guandan_proto::RoomClosed::Stopped);
            return;
        }
        if count > 0 {
            self.pace.acted(Instant::now());
        }
        let brk = self.app.cfg().deal_break();
        if game::ends_deal(&notices) && !brk.is_zero() && self.people() {
            self.pace.deal_ended(brk);
        }
        if let Some(n) = notices.iter().rev().find(|n| matches!(n.out, guandan_runtime::Out::SurrenderProposed { .. }))
        {
            self.play.vote_since = Some(n.seq);
        }
        self.announce(&notices, count, actor, None).await;
        for _ in 0..count {
            self.app.metrics().action(received.elapsed());
        }
    }

    /// Sends notices to every member (or one connection), filtered by the runtime per
    /// recipient; spectators get theirs delayed.
    pub(super) async fn announce(&mut self, notices: &[Notice], actions: u32, seat: Seat, only: Option<ConnId>) {
        let Some(g) = &self.play.game else { return };
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
        let viewer = self.delay.viewer();
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
            && let Some(g) = &self.play.game
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

    /// Gives a seat in the match to the AI (a stand-in) or back to its human. Handing it over
    /// may apply actions (the stand-in answers an open surrender vote): like every action they
    /// are stored before they are announced. `duty`: the duty the AI held is announced anew, as
    /// the local engine does (the player's table drew it while the seat was the AI's).
    pub(super) async fn hand_seat(&mut self, seat: Seat, controller: Controller, duty: bool) {
        let Some(g) = &mut self.play.game else { return };
        let before = g.action_seq();
        let mut notices = g.rt().set_controller(seat, controller);
        if duty {
            notices.extend(g.rt_ref().duty_notice(seat));
        }
        self.persist_and_announce(before, notices, seat, tokio::time::Instant::now()).await;
    }
}
