//! A running match as the engine node sees it, in plain Rust (no Godot): the rules state, its
//! action log, who sits where, and the translation of rule events into what the node emits
//! ([`Out`]), with hidden information filtered for the local player. `GuandanEngine` owns one of
//! these and adds the Godot parts (signals, the AI worker service, timers); everything here is
//! covered by `cargo test`.

use guandan_ai::AiProfile;
use guandan_ai::service::AiRequest;
use guandan_core::card::{CardId, CardSet, Rank};
use guandan_core::combo::Play;
use guandan_core::game::{Action, ActionKind, EndReason, Event, Match, Phase, RuleError, Seat};
use guandan_core::log::MatchLog;
use guandan_core::rules::RuleConfig;

/// Something the engine tells GDScript, in order; one variant per signal.
#[derive(Clone, Debug, PartialEq)]
pub enum Out {
    MatchStarted {
        seed: u64,
        local: Option<Seat>,
    },
    DealStarted {
        deal_no: u32,
        level: Rank,
        declarer: Option<u8>,
    },
    /// The local player's hand after the change (not emitted for spectators).
    HandChanged {
        hand: CardSet,
    },
    TributePhase {
        payers: Vec<Seat>,
        resisted: bool,
    },
    /// `card` is `None` when the local player may not see it.
    TributeGiven {
        from: Seat,
        to: Seat,
        card: Option<CardId>,
    },
    ReturnPhase {
        receivers: Vec<Seat>,
    },
    ReturnGiven {
        from: Seat,
        to: Seat,
        card: Option<CardId>,
    },
    /// `time_limit` in seconds; 0 = no limit (AI seats, timers off, or unlimited rules).
    TurnStarted {
        seat: Seat,
        can_pass: bool,
        time_limit: f64,
    },
    CardsPlayed {
        seat: Seat,
        play: Play,
    },
    Passed {
        seat: Seat,
    },
    TableCleared {
        leader: Seat,
    },
    PartnerTakesLead {
        seat: Seat,
    },
    CardsLeft {
        seat: Seat,
        count: u8,
    },
    PlayerFinished {
        seat: Seat,
        place: u8,
    },
    DealEnded {
        order: [Seat; 4],
        winner_team: u8,
        levels_before: [Rank; 2],
        levels_after: [Rank; 2],
    },
    SurrenderProposed {
        seat: Seat,
    },
    SurrenderVoted {
        seat: Seat,
        accept: bool,
    },
    MatchEnded {
        winner_team: Option<u8>,
        reason: EndReason,
    },
    AiThinking {
        seat: Seat,
    },
    AiDecided {
        seat: Seat,
        elapsed_ms: f64,
        fell_back: bool,
    },
    TimedOut {
        seat: Seat,
    },
    Error {
        code: i64,
        message: String,
    },
}

/// The seed of one AI decision: a function of the match seed, the action number and the seat,
/// so AI-only matches are reproducible.
pub fn decision_seed(match_seed: u64, seq: u64, seat: Seat) -> u64 {
    match_seed ^ seq.wrapping_add(1).wrapping_mul(0x9E37_79B9_7F4A_7C15) ^ (u64::from(seat) << 56)
}

pub struct Session {
    pub m: Match,
    pub log: MatchLog,
    /// The AI profile of each seat; `None` = a human seat.
    pub seats: [Option<AiProfile>; 4],
    /// The first human seat: whose view the engine exposes and for whom `play()` etc. act.
    /// `None` when every seat is an AI; the engine is then an all-seeing spectator.
    pub local: Option<Seat>,
    reported_hand: CardSet,
}

impl Session {
    /// A new match; also returns what to announce (match start, deal start, hand, first turn).
    /// `turn_limit` is the human turn limit in seconds announced with each turn (0 = none).
    pub fn new(
        seed: u64,
        rules: RuleConfig,
        seats: [Option<AiProfile>; 4],
        turn_limit: f64,
    ) -> Result<(Session, Vec<Out>), RuleError> {
        let (m, events) = Match::new(seed, rules.clone())?;
        let local = seats.iter().position(Option::is_none).map(|s| s as Seat);
        let mut session = Session { m, log: MatchLog::new(seed, rules), seats, local, reported_hand: CardSet::EMPTY };
        let mut out = vec![Out::MatchStarted { seed, local }];
        out.extend(session.translate(&events, turn_limit));
        Ok((session, out))
    }

    /// A match restored from a record (its first `actions.len()` actions), going on from there.
    pub fn resume(log: MatchLog, state: Match, seats: [Option<AiProfile>; 4]) -> Session {
        let local = seats.iter().position(Option::is_none).map(|s| s as Seat);
        let reported_hand = local.map_or(CardSet::EMPTY, |s| state.hands()[s as usize]);
        Session { m: state, log, seats, local, reported_hand }
    }

    pub fn is_ai(&self, seat: Seat) -> bool {
        self.seats.get(seat as usize).is_some_and(Option::is_some)
    }

    /// True when nothing is hidden from the host: no human sits at the table.
    pub fn omniscient(&self) -> bool {
        self.local.is_none()
    }

    /// Applies an action for `seat`, records it and returns what to announce. On error the
    /// state and the log are unchanged.
    pub fn apply(&mut self, seat: Seat, kind: ActionKind, turn_limit: f64) -> Result<Vec<Out>, RuleError> {
        let action: Action = self.m.action(seat, kind);
        let events = self.m.apply(&action)?;
        self.log.record(&action, &events, &self.m);
        Ok(self.translate(&events, turn_limit))
    }

    /// The first seat that must act now and is played by the AI.
    pub fn next_ai_seat(&self) -> Option<Seat> {
        self.m.to_act().into_iter().find(|&s| self.is_ai(s))
    }

    /// Human seats that must act now (tribute/return may ask two at once).
    pub fn human_duties(&self) -> Vec<Seat> {
        self.m.to_act().into_iter().filter(|&s| !self.is_ai(s)).collect()
    }

    /// The decision request for an AI seat, or `None` if the seat is human.
    pub fn ai_request(&self, seat: Seat, generation: u64) -> Option<AiRequest> {
        let profile = self.seats.get(seat as usize)?.clone()?;
        Some(AiRequest {
            generation,
            view: self.m.view(Some(seat)),
            profile,
            seed: decision_seed(self.m.seed(), self.m.seq(), seat),
        })
    }

    /// AI seats that still have to vote on an open surrender proposal. AI players always accept:
    /// opponents win by it, and an AI partner follows its human partner's call.
    pub fn pending_ai_votes(&self) -> Vec<Seat> {
        let Some(s) = self.m.surrender() else { return Vec::new() };
        (0..4u8).filter(|&seat| self.is_ai(seat) && s.accepted & (1 << seat) == 0).collect()
    }

    /// Whether the local player may see every seat's hand (spectator of an AI-only match, or
    /// the match is over), or this seat is the local one.
    pub fn may_see_hand(&self, seat: Seat) -> bool {
        self.omniscient() || self.local == Some(seat) || self.m.is_over()
    }

    /// Rule events as the local player may see them, plus `HandChanged` after the event that
    /// changed the local hand and `ReturnPhase` when the tribute ends in a return.
    pub fn translate(&mut self, events: &[Event], turn_limit: f64) -> Vec<Out> {
        let viewer = self.local;
        let omniscient = self.omniscient();
        let shown = |e: &Event, card: CardId| (omniscient || e.visible_to(viewer)).then_some(card);
        let touches_local = |a: Seat, b: Seat| viewer.is_some_and(|v| v == a || v == b);
        let last_tribute = events.iter().rposition(|e| matches!(e, Event::TributeGiven { .. }));
        let mut out = Vec::with_capacity(events.len() + 2);
        let mut hand_slot = None;
        for (i, e) in events.iter().enumerate() {
            match e {
                Event::DealStarted { deal_no, level, declarer } => {
                    out.push(Out::DealStarted { deal_no: *deal_no, level: *level, declarer: declarer.map(u8::from) });
                    hand_slot = Some(out.len());
                }
                Event::TributeRequired { payers } => {
                    out.push(Out::TributePhase { payers: payers.clone(), resisted: false })
                }
                Event::Resisted { payers } => out.push(Out::TributePhase { payers: payers.clone(), resisted: true }),
                Event::TributeGiven { from, to, card } => {
                    out.push(Out::TributeGiven { from: *from, to: *to, card: shown(e, *card) });
                    if touches_local(*from, *to) {
                        hand_slot = Some(out.len());
                    }
                    if Some(i) == last_tribute && self.m.phase() == Phase::Return {
                        let receivers = self.m.to_act().to_vec();
                        if hand_slot == Some(out.len()) {
                            // Keep the hand update right after the tribute that caused it.
                            hand_slot = None;
                            self.push_hand(&mut out);
                        }
                        out.push(Out::ReturnPhase { receivers });
                    }
                }
                Event::ReturnGiven { from, to, card } => {
                    out.push(Out::ReturnGiven { from: *from, to: *to, card: shown(e, *card) });
                    if touches_local(*from, *to) {
                        hand_slot = Some(out.len());
                    }
                }
                Event::TurnStarted { seat, can_pass } => {
                    let time_limit = if self.is_ai(*seat) { 0.0 } else { turn_limit };
                    out.push(Out::TurnStarted { seat: *seat, can_pass: *can_pass, time_limit });
                }
                Event::Played { seat, play } => {
                    out.push(Out::CardsPlayed { seat: *seat, play: *play });
                    if viewer == Some(*seat) {
                        hand_slot = Some(out.len());
                    }
                }
                Event::Passed { seat } => out.push(Out::Passed { seat: *seat }),
                Event::TableCleared { leader } => out.push(Out::TableCleared { leader: *leader }),
                Event::PartnerTakesLead { seat } => out.push(Out::PartnerTakesLead { seat: *seat }),
                Event::CardsLeft { seat, count } => out.push(Out::CardsLeft { seat: *seat, count: *count }),
                Event::PlayerFinished { seat, place } => out.push(Out::PlayerFinished { seat: *seat, place: *place }),
                Event::DealEnded { order, winner, levels_before, levels_after } => out.push(Out::DealEnded {
                    order: *order,
                    winner_team: u8::from(*winner),
                    levels_before: *levels_before,
                    levels_after: *levels_after,
                }),
                Event::SurrenderProposed { seat } => out.push(Out::SurrenderProposed { seat: *seat }),
                Event::SurrenderRejected { seat } => out.push(Out::SurrenderVoted { seat: *seat, accept: false }),
                Event::MatchEnded { outcome } => {
                    out.push(Out::MatchEnded { winner_team: outcome.winner().map(u8::from), reason: outcome.reason() })
                }
            }
        }
        if let Some(local) = self.local
            && self.m.hands()[local as usize] != self.reported_hand
        {
            let mut tail = out.split_off(hand_slot.unwrap_or(out.len()).min(out.len()));
            self.push_hand(&mut out);
            out.append(&mut tail);
        }
        out
    }

    fn push_hand(&mut self, out: &mut Vec<Out>) {
        if let Some(local) = self.local {
            let hand = self.m.hands()[local as usize];
            if hand != self.reported_hand {
                self.reported_hand = hand;
                out.push(Out::HandChanged { hand });
            }
        }
    }
}

/// Stable text of a match end reason (the `reason` of `match_ended`).
pub fn reason_name(reason: EndReason) -> &'static str {
    reason.name()
}

#[cfg(test)]
mod tests {
    use super::*;
    use guandan_ai::AiLevel;
    use guandan_ai::service::AiService;
    use guandan_core::game::ErrorCode;

    fn ai(level: AiLevel) -> Option<AiProfile> {
        Some(AiProfile::level(level))
    }

    /// Plays a whole match through the worker service the way the engine node does.
    fn play_out(session: &mut Session, svc: &AiService) -> usize {
        let mut actions = 0;
        while !session.m.is_over() {
            for seat in session.pending_ai_votes() {
                session.apply(seat, ActionKind::SurrenderVote { accept: true }, 0.0).unwrap();
            }
            let seat = session.next_ai_seat().expect("only AI seats");
            let id = svc.submit(session.ai_request(seat, 0).unwrap());
            let r = svc.wait(id).expect("a result");
            session.apply(r.seat, r.decision.action, 0.0).expect("AI actions are legal");
            actions += 1;
            assert!(actions < 20_000, "match does not end");
        }
        actions
    }

    #[test]
    fn an_ai_match_runs_to_the_end_and_its_log_replays() {
        let svc = AiService::new(1);
        let seats = [ai(AiLevel::L2), ai(AiLevel::L1), ai(AiLevel::L2), ai(AiLevel::L1)];
        let (mut s, out) = Session::new(5, RuleConfig::competition(), seats, 0.0).unwrap();
        assert!(matches!(out[0], Out::MatchStarted { seed: 5, local: None }));
        assert!(out.iter().any(|o| matches!(o, Out::TurnStarted { time_limit: 0.0, .. })));
        play_out(&mut s, &svc);
        let replayed = MatchLog::parse(&s.log.to_jsonl()).unwrap().replay().unwrap();
        assert_eq!(replayed.state_hash(), s.m.state_hash());
    }

    #[test]
    fn ai_matches_are_reproducible() {
        let svc = AiService::new(1);
        let run = || {
            let seats = [ai(AiLevel::L2), ai(AiLevel::L2), ai(AiLevel::L2), ai(AiLevel::L2)];
            let (mut s, _) = Session::new(11, RuleConfig::house(), seats, 0.0).unwrap();
            play_out(&mut s, &svc);
            s.m.state_hash()
        };
        assert_eq!(run(), run());
    }

    #[test]
    fn a_human_sees_only_their_hand_and_tributes() {
        let seats = [None, ai(AiLevel::L1), ai(AiLevel::L1), ai(AiLevel::L1)];
        let (mut s, out) = Session::new(3, RuleConfig::competition(), seats, 30.0).unwrap();
        assert_eq!(s.local, Some(0));
        // Deal start, then the hand, then the first turn.
        let kinds: Vec<_> = out.iter().map(std::mem::discriminant).collect();
        let deal = out.iter().position(|o| matches!(o, Out::DealStarted { .. })).unwrap();
        assert!(matches!(out[deal + 1], Out::HandChanged { hand } if hand == s.m.hands()[0]));
        assert_eq!(kinds.len(), 4);
        match out[3] {
            Out::TurnStarted { seat, time_limit, .. } => {
                assert_eq!(time_limit, if seat == 0 { 30.0 } else { 0.0 })
            }
            ref o => panic!("{o:?}"),
        }
        // Someone else's tribute is hidden, ours is shown.
        let hidden = Event::TributeGiven { from: 1, to: 3, card: 7 };
        let ours = Event::TributeGiven { from: 1, to: 0, card: 7 };
        let t = s.translate(&[hidden, ours], 0.0);
        assert!(matches!(t[0], Out::TributeGiven { card: None, .. }));
        assert!(matches!(t[1], Out::TributeGiven { card: Some(7), .. }));
    }

    #[test]
    fn hand_changed_follows_the_local_play() {
        let seats = [None, None, None, None];
        let (mut s, _) = Session::new(8, RuleConfig::competition(), seats, 0.0).unwrap();
        let seat = s.m.turn();
        s.local = Some(seat);
        s.reported_hand = s.m.hands()[seat as usize];
        let play = s.m.legal_plays()[0];
        let out = s.apply(seat, Match::play_kind(&play), 0.0).unwrap();
        assert!(matches!(out[0], Out::CardsPlayed { .. }));
        assert!(matches!(out[1], Out::HandChanged { hand } if hand == s.m.hands()[seat as usize]));
        assert!(matches!(out.last(), Some(Out::TurnStarted { .. })));
    }

    #[test]
    fn failed_actions_leave_state_and_log_alone() {
        let seats = [None, None, None, None];
        let (mut s, _) = Session::new(8, RuleConfig::competition(), seats, 0.0).unwrap();
        let hash = s.m.state_hash();
        let wrong = (s.m.turn() + 1) % 4;
        assert_eq!(s.apply(wrong, ActionKind::Pass, 0.0).unwrap_err().code(), ErrorCode::NotYourTurn);
        assert_eq!(s.apply(s.m.turn(), ActionKind::Pass, 0.0).unwrap_err().code(), ErrorCode::CannotPass);
        assert_eq!(s.m.state_hash(), hash);
        assert!(s.log.actions.is_empty());
    }

    #[test]
    fn decision_seeds_differ_by_seq_and_seat() {
        assert_ne!(decision_seed(1, 0, 0), decision_seed(1, 1, 0));
        assert_ne!(decision_seed(1, 0, 0), decision_seed(1, 0, 1));
        assert_eq!(decision_seed(9, 4, 2), decision_seed(9, 4, 2));
    }
}
