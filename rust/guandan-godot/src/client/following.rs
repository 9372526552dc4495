//! An engine's link to the online match its client copies (`GuandanEngine.follow`): the
//! engine reads the copy and acts through it as a `MatchSource`.

use std::cell::RefCell;
use std::rc::Rc;

use guandan_ai::AiProfile;
use guandan_core::card::CardSet;
use guandan_core::event::Outcome;
use guandan_core::game::{ActionKind, Seat};
use guandan_core::view::PlayerView;
use guandan_proto::ClientMsg;

use super::remote::RemoteMatch;
use crate::codes::Fail;
use crate::forward::Emit;
use crate::source::MatchSource;

/// An engine's link to the match its client copies: it reads and acts through it, and stops
/// being told when it lets go (drop).
pub struct Following(pub Rc<RefCell<RemoteMatch>>);

impl Following {
    pub fn new(remote: Rc<RefCell<RemoteMatch>>) -> Following {
        remote.borrow_mut().set_followed(true);
        Following(remote)
    }
}

impl Drop for Following {
    fn drop(&mut self) {
        if let Ok(mut r) = self.0.try_borrow_mut() {
            r.set_followed(false);
        }
    }
}

impl MatchSource for Following {
    fn view(&self) -> Option<PlayerView> {
        self.0.borrow().view().cloned()
    }

    fn local(&self) -> Option<Seat> {
        self.0.borrow().mirror.seat()
    }

    fn seen_hand(&self, seat: Seat) -> Option<CardSet> {
        let r = self.0.borrow();
        // Its own hand only: a hand the room shows its spectators is `get_shown_hand`'s (the
        // table's hand row follows `hand_changed`, which never carries another seat's hand).
        r.view().filter(|v| v.seat == Some(seat)).map(|v| v.hand)
    }

    fn outcome(&self) -> Option<Outcome> {
        self.0.borrow().mirror.outcome
    }

    fn seed(&self) -> u64 {
        self.0.borrow().mirror.seed
    }

    fn state_hash(&self) -> String {
        self.0.borrow().mirror.state_hash.clone()
    }

    fn action_count(&self) -> u64 {
        self.0.borrow().mirror.action_seq
    }

    fn time_left(&self) -> Option<f64> {
        let r = self.0.borrow();
        match r.duty_clock {
            Some((seq, heard, left)) if seq == r.mirror.action_seq && left > 0.0 => {
                Some((left - heard.elapsed().as_secs_f64()).max(0.0))
            }
            _ => None,
        }
    }

    fn is_human(&self, seat: Seat) -> bool {
        let r = self.0.borrow();
        r.room_ai.is_some_and(|ai| !ai[r.turn.back(seat).index()])
    }

    fn is_auto_play(&self) -> bool {
        let r = self.0.borrow();
        r.room_seat.is_some_and(|s| r.hosted[s.index() % 4])
    }

    fn act(&mut self, kind: ActionKind) -> Result<Vec<Emit>, Fail> {
        let mut r = self.0.borrow_mut();
        r.check(&kind)?;
        r.intent(kind)?;
        Ok(Vec::new())
    }

    fn set_auto_play(&mut self, on: bool, _profile: AiProfile) -> Result<Vec<Emit>, Fail> {
        let r = self.0.borrow();
        r.seated()?;
        r.send(ClientMsg::AutoPlay { on })?;
        Ok(Vec::new())
    }

    fn prompt_seen(&mut self) -> bool {
        let r = self.0.borrow();
        if r.seated().is_err() || r.awaiting_state || r.pending.is_some() {
            return false;
        }
        r.send(ClientMsg::Seen { seq: r.mirror.action_seq }).is_ok()
    }

    fn take_emits(&mut self) -> Vec<Emit> {
        std::mem::take(&mut self.0.borrow_mut().emits)
    }
}

// The copy's tests, through the engine's link (here, as the link uses the copy).
#[cfg(test)]
mod tests {
    use super::*;
    use crate::client::net::{Cmd, Outbox};
    use crate::client::remote::*;
    use crate::codes;
    use guandan_core::error::ErrorCode;
    use guandan_core::game::Match;
    use guandan_core::rules::RuleConfig;
    use guandan_proto::{Order, RoomInfo, WireOut};
    use guandan_proto::{RoomState, SeatInfo};
    use std::time::Instant;

    fn room(ai: [bool; 4]) -> RoomInfo {
        RoomInfo {
            code: "ABCDEF".into(),
            state: RoomState::Playing,
            host_seat: Seat::ZERO,
            rules: "competition".into(),
            spectator_delay: 1,
            seats: Seat::ALL
                .into_iter()
                .map(|seat| SeatInfo {
                    seat,
                    player: (!ai[seat.index()]).then(|| format!("p{seat}")),
                    ai: ai[seat.index()].then_some(2),
                    ready: true,
                    connected: true,
                    hosted: false,
                })
                .collect(),
            spectators: 0,
            locked: true,
            matches: 0,
            closed: None,
            practice: false,
            deal_break_ms: 0,
            spectator_hands: None,
        }
    }

    /// A remote match of seat `seat` (server seats), at its first state, followed, its intents
    /// going to the returned channel.
    fn seated(seat: Seat) -> (Following, Match, crossbeam_channel::Receiver<Cmd>) {
        let (m, _) = Match::new(7, RuleConfig::competition()).expect("a match");
        let remote = RemoteMatch::shared();
        let following = Following::new(Rc::clone(&remote));
        let (outbox, sent) = Outbox::for_test();
        let mut r = remote.borrow_mut();
        r.room(&room([false, true, false, true]), Some(seat));
        r.set_outbox(Some(outbox));
        r.state(0, &m.state_hash(), m.view(Some(seat)), None, None);
        drop(r);
        (following, m, sent)
    }

    fn intents(sent: &crossbeam_channel::Receiver<Cmd>) -> Vec<ClientMsg> {
        sent.try_iter().filter_map(|c| if let Cmd::Send(m) = c { Some(m) } else { None }).collect()
    }

    #[test]
    fn one_intent_is_in_flight_until_the_server_answers_it() {
        let (mut f, m, sent) = seated(m_turn());
        assert!(
            matches!(f.take_emits()[0], Emit::MatchStarted { local: Some(Seat::ZERO), .. }),
            "the state is announced"
        );
        let card = f.view().expect("a view").hand.iter().next().expect("a card");
        let play = ActionKind::Play { cards: vec![card], reading: None };
        assert_eq!(f.act(ActionKind::Pass).map(|_| ()).map_err(|e| e.code), Err(ErrorCode::CannotPass));
        f.act(play.clone()).expect("sent");
        assert_eq!(f.act(play.clone()).map(|_| ()).map_err(|e| e.code), Err(ErrorCode::StateConflict));
        assert!(matches!(intents(&sent)[..], [ClientMsg::Intent { seq: 0, nonce: 1, .. }]));
        // Refused as stale: answered, the whole state asked for, and the engine told.
        f.0.borrow_mut().refused(codes::num(ErrorCode::StaleSeq), "stale".into());
        assert!(matches!(intents(&sent)[..], [ClientMsg::Resync]));
        assert_eq!(
            f.take_emits(),
            vec![Emit::Error { code: codes::num(ErrorCode::StaleSeq), message: "stale".into() }]
        );
        f.act(play).expect("a new intent may leave");
        assert!(matches!(intents(&sent)[..], [ClientMsg::Intent { seq: 0, nonce: 2, .. }]));
        assert_eq!(m.seq(), 0);
    }

    /// The full state of a match under way (a reconnect, a rejoin) is announced as a position
    /// already played (`Restoring` around it: the table draws it without the deal's flight); the
    /// first state of a match, before any action, is dealt in as it starts.
    #[test]
    fn a_full_state_mid_match_is_announced_as_restoring() {
        let (mut f, m, _sent) = seated(m_turn());
        let first = f.take_emits();
        assert!(!first.iter().any(|e| matches!(e, Emit::Restoring(_))), "the match's start is dealt in");
        f.0.borrow_mut().state(5, &m.state_hash(), m.view(Some(m_turn())), None, None);
        let again = f.take_emits();
        assert_eq!(again.first(), Some(&Emit::Restoring(true)));
        assert!(matches!(again[1], Emit::MatchStarted { .. }), "then the position: {again:?}");
        assert_eq!(again.last(), Some(&Emit::Restoring(false)));
    }

    /// An answer lost on its way must not lock the player out: after a while the whole state
    /// is asked for (once), and it ends the wait.
    #[test]
    fn an_unanswered_intent_asks_for_the_whole_state() {
        let (mut f, m, sent) = seated(m_turn());
        let card = f.view().expect("a view").hand.iter().next().expect("a card");
        f.act(ActionKind::Play { cards: vec![card], reading: None }).expect("sent");
        let _ = intents(&sent);
        let sent_at = Instant::now();
        assert!(!f.0.borrow_mut().check_unanswered(sent_at + UNANSWERED / 2), "not yet");
        assert!(f.0.borrow_mut().check_unanswered(sent_at + UNANSWERED + UNANSWERED / 10));
        assert!(matches!(intents(&sent)[..], [ClientMsg::Resync]));
        assert!(!f.0.borrow_mut().check_unanswered(sent_at + UNANSWERED * 3), "asked once, awaiting the state");
        assert!(intents(&sent).is_empty());
        f.0.borrow_mut().state(m.seq(), &m.state_hash(), m.view(Some(m_turn())), None, None);
        f.act(ActionKind::Play { cards: vec![card], reading: None }).expect("the state ended the wait");
    }

    fn m_turn() -> Seat {
        Match::new(7, RuleConfig::competition()).expect("a match").0.turn()
    }

    #[test]
    fn nothing_leaves_without_a_connection_and_nothing_is_kept_without_a_follower() {
        let (mut f, _, _) = seated(m_turn());
        f.0.borrow_mut().set_outbox(None);
        let card = f.view().expect("a view").hand.iter().next().expect("a card");
        let refused = f.act(ActionKind::Play { cards: vec![card], reading: None });
        assert_eq!(refused.map(|_| ()).map_err(|e| e.code), Err(ErrorCode::Io));
        assert!(!f.prompt_seen());
        let remote = Rc::clone(&f.0);
        drop(f);
        remote.borrow_mut().refused(codes::num(ErrorCode::StaleSeq), "stale".into());
        assert!(remote.borrow().emits.is_empty(), "no engine follows: nothing piles up");
    }

    /// A surrender proposal is no new duty: the proposer's clock runs on (issue 38: it jumped
    /// back to the whole 30 s).
    #[test]
    fn a_surrender_proposal_leaves_the_turn_s_clock_running() {
        let seat = m_turn();
        let (f, m, _) = seated(seat);
        let ten_s_ago = Instant::now() - std::time::Duration::from_secs(10);
        f.0.borrow_mut().duty_clock = Some((m.seq(), ten_s_ago, 30.0));
        let left = f.time_left().expect("a clock");
        assert!((19.0..=20.5).contains(&left), "{left}");
        let proposed = m.play(&m.action(seat, ActionKind::ProposeSurrender)).expect("a proposal");
        let step = Step {
            action_seq: proposed.seq(),
            actions: 1,
            state_hash: proposed.state_hash(),
            events: vec![WireOut::SurrenderProposed { seat }],
            prompt: Some(proposed.view(Some(seat))),
            seat,
        };
        assert!(f.0.borrow_mut().applied(step, Order::Next).is_none(), "it follows");
        assert_eq!(f.action_count(), proposed.seq());
        let left = f.time_left().expect("still a clock");
        assert!((19.0..=20.5).contains(&left), "the clock ran on: {left} s left");
    }

    #[test]
    fn seats_are_the_table_s_turned_to_the_player() {
        // The player sits at server seat 2; the room's AI seats are 1 and 3.
        let (f, _, _) = seated(Seat::TWO);
        assert_eq!(f.local(), Some(Seat::ZERO));
        assert!(f.is_human(Seat::ZERO) && f.is_human(Seat::TWO), "the player and their partner");
        assert!(!f.is_human(Seat::ONE) && !f.is_human(Seat::THREE), "the AI seats, turned");
        assert!(
            f.seen_hand(Seat::ZERO).is_some() && f.seen_hand(Seat::ONE).is_none() && f.seen_hand(Seat::TWO).is_none()
        );
        assert!(!f.is_auto_play());
        f.0.borrow_mut().hosting(Seat::TWO, true);
        assert!(f.is_auto_play(), "the server's AI hosts the player's seat");
    }

    fn own_auto(f: &Following) -> Vec<bool> {
        f.0.borrow_mut()
            .emits
            .drain(..)
            .filter_map(|e| match e {
                Emit::Runtime(guandan_core::notice::Out::ControllerChanged { seat: Seat::ZERO, ai }) => Some(ai),
                _ => None,
            })
            .collect()
    }

    /// Issue 52: the server's notice that the player's seat was handed back (inside an `applied`)
    /// came while a full state was awaited and was dropped; the table kept Auto-play on and never
    /// offered Play/Pass or ran the clock. `hosting` and every full state now bring the table's
    /// Auto-play in line with the server's seat, once each change, before the turn is announced.
    #[test]
    fn the_table_s_auto_play_follows_the_server_s_seat_through_gaps() {
        let seat = m_turn();
        let (f, m, _) = seated(seat);
        assert!(own_auto(&f).is_empty(), "a human seat at the start: nothing to say");
        // Hosted (the AI took the seat), said by the server's `hosting`.
        f.0.borrow_mut().hosting(seat, true);
        assert_eq!(own_auto(&f), vec![true]);
        f.0.borrow_mut().hosting(seat, true);
        assert!(own_auto(&f).is_empty(), "said once");
        // The hand-back's notice was lost in a gap: the full state that follows says it, first.
        f.0.borrow_mut().reconnected();
        f.0.borrow_mut().hosted[seat.index()] = false;
        f.0.borrow_mut().state(m.seq() + 1, &m.state_hash(), m.view(Some(seat)), None, Some(20.0));
        let emits: Vec<Emit> = f.0.borrow_mut().emits.clone();
        let auto_at = emits.iter().position(|e| {
            matches!(e, Emit::Runtime(guandan_core::notice::Out::ControllerChanged { seat: Seat::ZERO, ai: false }))
        });
        let turn_at =
            emits.iter().position(|e| matches!(e, Emit::Runtime(guandan_core::notice::Out::TurnStarted { .. })));
        assert!(auto_at.is_some() && auto_at < turn_at, "Auto-play off before the turn: {emits:?}");
        assert_eq!(own_auto(&f), vec![false]);
        // The server's `hosting` off after that changes nothing more.
        f.0.borrow_mut().hosting(seat, false);
        assert!(own_auto(&f).is_empty());
    }
}
