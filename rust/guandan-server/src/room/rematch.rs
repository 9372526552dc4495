//! The end of a match: the record stored with its metadata, then the rematch vote.

use super::*;
use crate::db::MatchResult;
use crate::ratings::{Ending, RatedSeat, Verdict};
use guandan_core::event::{EndReason, Outcome};

/// The rematch vote after a match, owned by the room and changed only here: when it closes by
/// itself, and each rated player's rating message of the match just ended (sent again to a
/// player who comes back before the room closes). The players' votes are kept with their seats
/// (`Seats::vote`).
#[derive(Default)]
pub(super) struct Rematch {
    vote_deadline: Option<Instant>,
    ratings: Vec<(String, ServerMsg)>,
}

impl Rematch {
    /// When the open vote closes by itself.
    pub(super) fn deadline(&self) -> Option<Instant> {
        self.vote_deadline
    }

    /// The rating message of the match just ended for this player, if it was rated.
    pub(super) fn rating_of(&self, player: &str) -> Option<&ServerMsg> {
        self.ratings.iter().find(|(p, _)| p == player).map(|(_, m)| m)
    }
}

impl Room {
    /// FINISHED: store the match in the replay format with its metadata and update stats, then
    /// open the rematch vote.
    pub(super) async fn finish(&mut self) {
        self.transition(RoomEvent::MatchEnded);
        let Some(g) = self.play.game() else { return };
        let m = g.state();
        let outcome = m.outcome();
        let winner_team = outcome.and_then(|o| o.winner()).map(|t| t.index() as u8);
        let meta = serde_json::json!({
            "room": self.code,
            "match_no": self.play.match_no(),
            "seed": self.stored.match_seed,
            "practice": self.stored.practice,
            "ranked": self.stored.ranked,
            "rules": self.stored.preset,
            "players": self.stored.seats.iter().map(|(p, ai)| serde_json::json!({
                "player": p.as_ref().map(|p| &p.nickname), "player_id": p.as_ref().map(|p| &p.id), "ai": ai,
            })).collect::<Vec<_>>(),
            "duration_ms": crate::db::now_ms() - self.stored.started_ms,
            "deals": m.deal_no() + 1,
            "rounds": self.delay.rounds_ended(),
            "actions": g.action_seq(),
            "winner_team": winner_team,
            "outcome": outcome,
            "state_hash": m.state_hash(),
        });
        // The record is read back from the stored actions (the runtime keeps only the unsaved).
        let mut stored_now = false;
        match self.record().await {
            Some(log) => {
                // Each human's figures in this match, kept for the profile (crate::db::board).
                let figures = guandan_core::stats::seat_stats(&log).unwrap_or_else(|e| {
                    tracing::warn!(error = %e, "the finished match's figures could not be read");
                    Default::default()
                });
                let results: Vec<MatchResult> = self
                    .stored
                    .seats
                    .iter()
                    .zip(Seat::ALL)
                    .enumerate()
                    .filter_map(|(i, ((p, _), seat))| {
                        p.as_ref().map(|p| MatchResult {
                            player: p.id.clone(),
                            seat,
                            won: winner_team == Some((i % 2) as u8),
                            draw: winner_team.is_none(),
                            figures: figures[i].clone(),
                        })
                    })
                    .collect();
                let log = log.to_jsonl();
                match self
                    .app
                    .db()
                    .finish_match(&self.code, self.play.game_no(), &meta.to_string(), &log, &results)
                    .await
                {
                    Ok(new) => stored_now = new,
                    Err(e) => tracing::error!(error = %e, "storing the finished match failed"),
                }
            }
            None => tracing::error!("the finished match's record could not be read back; not stored"),
        }
        // Rated once, when the match was stored just now (not again if it was stored before);
        // never a practice match (its creator knew the deal).
        if self.stored.ranked
            && !self.stored.practice
            && stored_now
            && let Some(outcome) = outcome
        {
            self.rate(outcome).await;
        }
        self.app.metrics().matches_finished.inc();
        let stored = ServerMsg::MatchStored { code: self.code.clone(), match_no: self.play.match_no() as u32 };
        self.play.stored();
        self.broadcast(&stored);
        self.transition(RoomEvent::OpenVote);
        self.rematch.vote_deadline = Some(Instant::now() + self.app.cfg().vote_timeout());
        self.save_directory().await;
        self.send_room();
    }

    /// A ranked match moves its humans' ratings, each by its verdict (crate::ratings): a
    /// surrender lifts no one, a leaver takes the loss. Each seated human is told the new
    /// number. A failure is logged and the room goes on.
    async fn rate(&mut self, outcome: Outcome) {
        let seats: [RatedSeat; 4] = std::array::from_fn(|i| match &self.stored.seats[i] {
            (Some(p), _) => RatedSeat::Human(p.id.clone()),
            (None, ai) => RatedSeat::Ai(ai.unwrap_or(2)),
        });
        let ending = match outcome {
            Outcome::Decisive { team, reason: EndReason::Surrender } => {
                Ending::Surrendered { winner: team.index() as u8 }
            }
            Outcome::Decisive { team, .. } => Ending::Won(team.index() as u8),
            Outcome::Draw { .. } => Ending::Draw,
        };
        let humans = std::array::from_fn(|i| self.stored.seats[i].0.is_some());
        // Left: said `leave`, or away with the AI playing for the seat when the match ended.
        let left = Seat::ALL.map(|i| {
            let s = &self.seats[i];
            s.player.is_some() && (s.left_match || (s.hosted && s.conn.is_none()))
        });
        let verdicts = crate::ratings::verdicts(ending, humans, left);
        tracing::info!(?ending, ?verdicts, "ranked match rated");
        if verdicts.iter().all(|v| *v == Verdict::Unrated) {
            return;
        }
        let rated = match crate::ratings::rate_match(
            self.app.db(),
            &self.stored.preset,
            &self.code,
            self.play.game_no(),
            &seats,
            verdicts,
        )
        .await
        {
            Ok(r) => r,
            Err(e) => return tracing::error!(error = %e, "rating the ranked match failed"),
        };
        // Kept for the vote's length: a player away when it is sent (a cut, a stall that ends in
        // a reconnect) hears it on coming back (issue 52: a ranked match ended without its result).
        self.rematch.ratings.clear();
        for r in rated {
            let msg = ServerMsg::Rating {
                rules: self.stored.preset.clone(),
                rating: r.rating,
                change: r.change,
                matches: u32::try_from(r.matches).unwrap_or(u32::MAX),
            };
            if let Some(conn) = self.seats.conn_of_player(&r.player_id) {
                self.send_msg(conn, &msg);
            }
            self.rematch.ratings.push((r.player_id, msg));
        }
    }

    pub(super) async fn rematch(&mut self, conn: ConnId, accept: bool) {
        let Some(seat) = self.seat_of(conn) else {
            return self.refuse(conn, ErrorCode::NotYourSeat, "spectators do not vote", None);
        };
        if self.state != RoomState::VotePhase {
            return self.refuse(conn, ErrorCode::BadRoomState, "no vote is open", None);
        }
        self.seats.vote(seat, accept);
        if self.seats.all_voted() {
            self.close_vote().await;
        } else {
            self.send_room();
        }
    }

    /// VOTE_PHASE → IDLE: the room unlocks; players who declined (or did not vote) leave their
    /// seats, the rest wait for the next ready check.
    pub(super) async fn close_vote(&mut self) {
        self.rematch.vote_deadline = None;
        if !self.transition(RoomEvent::VoteClosed) {
            return;
        }
        self.play.end();
        let host_seat = self.info().host_seat;
        for c in self.seats.close_vote() {
            self.members.set_seat(c, None);
        }
        self.pass_host(host_seat);
        if self.close_if_empty().await {
            return;
        }
        if self.seats.any_player() {
            self.transition(RoomEvent::Join);
            self.after_seating();
        } else {
            self.send_room();
        }
        self.save_directory().await;
    }
}
