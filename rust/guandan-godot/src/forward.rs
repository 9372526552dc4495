//! From the runtime's notices to what `GuandanEngine` emits for its viewer, in plain Rust (no
//! Godot, covered by `cargo test`).
//!
//! The engine shows one viewer at a time. With one human seat that is the human; with none it
//! is omniscient (an AI-only table); with several (hot-seat) it is the human seat that must act,
//! and when it changes the engine says so (`ViewerChanged`, then that seat's hand) right before
//! the notice that gives the new viewer its duty. A viewer only ever receives what its
//! [`Viewer`] may see, and hand updates only for its own seat.

use guandan_core::card::CardSet;
use guandan_core::game::Seat;
use guandan_runtime::{Notice, Out, Runtime, Viewer};

/// One signal of `GuandanEngine`, in order.
#[derive(Clone, Debug, PartialEq)]
pub enum Emit {
    /// A runtime notice the viewer may see (never `MatchStarted`).
    Runtime(Out),
    /// The match started (or was resumed); `local` is the viewer's seat, `None` when omniscient.
    MatchStarted { seed: u64, local: Option<Seat> },
    /// Hot-seat: the engine now acts for, and shows the hand of, this seat.
    ViewerChanged { seat: Seat },
    /// An AI seat was asked for a decision.
    AiThinking { seat: Seat },
    /// A call failed, or an AI problem was recovered from.
    Error { code: i64, message: String },
    /// A fatal error stopped the match; `report` is the crash report's path.
    Crashed { message: String, report: String },
    /// Not a signal: the signals from `Restoring(true)` to `Restoring(false)` announce a position
    /// played before the viewer saw it (online: a full state mid-match, after a reconnect or a
    /// rejoin); `GuandanEngine.is_restoring()` is true while they are emitted.
    Restoring(bool),
}

/// Chooses the viewer and filters notices for it.
#[derive(Clone, Debug)]
pub struct Forwarder {
    viewer: Viewer,
    /// The hand last sent to the viewer (no repeated `hand_changed`).
    sent_hand: Option<CardSet>,
    /// The viewer never changes (a replay's omniscient reader).
    fixed: bool,
    /// Seats the host's people own (bit per seat): the human seats when the match started or
    /// resumed. An owned seat handed to the AI (auto-play) stays a possible viewer, so its
    /// player keeps seeing their own hand and nothing more.
    owners: u8,
}

impl Forwarder {
    /// The viewer of a new or resumed match.
    pub fn new(rt: &Runtime) -> Forwarder {
        let owners = Seat::ALL.into_iter().filter(|&s| !rt.is_ai(s)).fold(0, |m, s| m | s.bit());
        Forwarder { viewer: choose(rt, Viewer::Omniscient, owners), sent_hand: None, fixed: false, owners }
    }

    /// A viewer that sees every card (replays), with no hand updates.
    pub fn omniscient() -> Forwarder {
        Forwarder { viewer: Viewer::Omniscient, sent_hand: None, fixed: true, owners: 0 }
    }

    pub fn viewer(&self) -> Viewer {
        self.viewer
    }

    /// The seat the engine acts for and shows; `None` when it is omniscient.
    pub fn local(&self) -> Option<Seat> {
        self.viewer.seat()
    }

    /// What the viewer receives of `notices`, the runtime's answer to the last call (`rt` is the
    /// state after it). Switches the hot-seat viewer when another human must act now.
    pub fn forward(&mut self, rt: &Runtime, notices: &[Notice]) -> Vec<Emit> {
        let next = if self.fixed { self.viewer } else { choose(rt, self.viewer, self.owners) };
        let mut out = Vec::with_capacity(notices.len() + 2);
        let split = match next {
            Viewer::Seat(s) if next != self.viewer => {
                notices.iter().rposition(|n| announces_duty(&n.out, s)).unwrap_or(notices.len())
            }
            _ => notices.len(),
        };
        for n in &notices[..split] {
            self.push(&mut out, n);
        }
        if next != self.viewer {
            self.viewer = next;
            self.sent_hand = None;
            if let Viewer::Seat(seat) = next {
                out.push(Emit::ViewerChanged { seat });
                let hand = rt.state().hand(seat);
                self.sent_hand = Some(hand);
                out.push(Emit::Runtime(Out::HandChanged { seat, hand }));
            }
        }
        for n in &notices[split..] {
            self.push(&mut out, n);
        }
        out
    }

    fn push(&mut self, out: &mut Vec<Emit>, n: &Notice) {
        if !n.visible_to(self.viewer) {
            return;
        }
        match &n.out {
            Out::MatchStarted { seed } => {
                self.sent_hand = None;
                out.push(Emit::MatchStarted { seed: *seed, local: self.local() })
            }
            Out::HandChanged { seat, hand } => {
                // Only the viewer's own hand; an omniscient viewer reads hands with getters.
                if self.viewer == Viewer::Seat(*seat) && self.sent_hand != Some(*hand) {
                    self.sent_hand = Some(*hand);
                    out.push(Emit::Runtime(n.out.clone()));
                }
            }
            other => out.push(Emit::Runtime(other.clone())),
        }
    }
}

/// The viewer for the runtime's state: omniscient without owned seats; the human that must act
/// (the current one first); else the current owned seat; else the first owned seat.
fn choose(rt: &Runtime, current: Viewer, owners: u8) -> Viewer {
    let humans: Vec<Seat> = Seat::ALL.into_iter().filter(|&s| owners & s.bit() != 0).collect();
    let Some(&first) = humans.first() else { return Viewer::Omniscient };
    let duties = rt.human_duties();
    match current {
        Viewer::Seat(s) if duties.contains(&s) => current,
        _ if !duties.is_empty() => Viewer::Seat(duties[0]),
        Viewer::Seat(s) if humans.contains(&s) => current,
        _ => Viewer::Seat(first),
    }
}

/// Whether `out` tells `seat` to act.
fn announces_duty(out: &Out, seat: Seat) -> bool {
    match out {
        Out::TurnStarted { seat: s, .. } => *s == seat,
        Out::TributePhase { payers, resisted } => !resisted && payers.contains(&seat),
        Out::ReturnPhase { receivers } => receivers.contains(&seat),
        _ => false,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use guandan_ai::{AiLevel, AiProfile};
    use guandan_core::game::{ActionKind, Match, Phase};
    use guandan_core::rules::RuleConfig;
    use guandan_runtime::{Controller, RuntimeConfig};

    fn start(seed: u64, seats: [Controller; 4]) -> (Runtime, Vec<Notice>) {
        Runtime::start(RuntimeConfig { seed, rules: RuleConfig::competition(), seats, clocks: false }).unwrap()
    }

    fn ai() -> Controller {
        Controller::Ai(AiProfile::level(AiLevel::L1))
    }

    fn hands_in(emits: &[Emit]) -> Vec<(Seat, CardSet)> {
        emits
            .iter()
            .filter_map(|e| match e {
                Emit::Runtime(Out::HandChanged { seat, hand }) => Some((*seat, *hand)),
                _ => None,
            })
            .collect()
    }

    /// Plays until the match ends: humans act with their first legal play (or the first tribute
    /// or return option); AI seats decide on this thread. Checks every emitted batch with `check`.
    fn play_out(
        rt: &mut Runtime,
        fw: &mut Forwarder,
        mut check: impl FnMut(&Runtime, &Forwarder, &[Emit]),
        max_actions: usize,
    ) {
        for _ in 0..max_actions {
            if rt.state().is_over() {
                return;
            }
            let notices = if let Some(n) = rt.decide_now() {
                n
            } else {
                let seat = fw.local().expect("a human must act when no AI does");
                let m = rt.state();
                assert!(m.to_act().contains(&seat), "the viewer {seat} is a seat that must act");
                let kind = match m.phase() {
                    Phase::Play => m.legal_plays().first().map_or(ActionKind::Pass, Match::play_kind),
                    Phase::Tribute => ActionKind::Tribute { card: m.tribute_options(seat).ids()[0] },
                    Phase::Return => ActionKind::Return { card: m.return_options(seat).ids()[0] },
                    Phase::MatchOver => unreachable!(),
                };
                rt.act(seat, kind).expect("a legal action")
            };
            let emits = fw.forward(rt, &notices);
            check(rt, fw, &emits);
        }
    }

    #[test]
    fn one_human_sees_only_their_hand() {
        let (mut rt, notices) = start(3, [Controller::Human, ai(), ai(), ai()]);
        let mut fw = Forwarder::new(&rt);
        assert_eq!(fw.viewer(), Viewer::Seat(Seat::ZERO));
        let first = fw.forward(&rt, &notices);
        assert_eq!(first[0], Emit::MatchStarted { seed: 3, local: Some(Seat::ZERO) });
        assert_eq!(hands_in(&first), vec![(Seat::ZERO, rt.state().hand(Seat::ZERO))]);
        let mut batches = 0;
        play_out(
            &mut rt,
            &mut fw,
            |rt, fw, emits| {
                batches += 1;
                assert_eq!(fw.viewer(), Viewer::Seat(Seat::ZERO), "one human: the viewer never changes");
                for (seat, hand) in hands_in(emits) {
                    assert_eq!(seat, Seat::ZERO);
                    assert_eq!(hand, rt.state().hand(Seat::ZERO));
                }
                assert!(!emits.iter().any(|e| matches!(e, Emit::ViewerChanged { .. })));
            },
            400,
        );
        assert!(batches > 50, "the match went on ({batches} batches)");
    }

    #[test]
    fn hot_seat_follows_the_human_that_must_act_and_shows_only_that_hand() {
        let (mut rt, notices) = start(8, [Controller::Human, ai(), Controller::Human, ai()]);
        let mut fw = Forwarder::new(&rt);
        fw.forward(&rt, &notices);
        let mut changes = 0;
        // The viewer at each point of the stream of signals.
        let mut viewer = fw.local();
        play_out(
            &mut rt,
            &mut fw,
            |rt, fw, emits| {
                for e in emits {
                    match e {
                        Emit::ViewerChanged { seat } => {
                            changes += 1;
                            assert_ne!(viewer, Some(*seat), "a change to the same viewer");
                            viewer = Some(*seat);
                        }
                        Emit::Runtime(Out::HandChanged { seat, .. }) => {
                            assert_eq!(Some(*seat), viewer, "a hand of another seat");
                        }
                        Emit::Runtime(Out::TributeGiven { from, to, card: Some(_) })
                        | Emit::Runtime(Out::ReturnGiven { from, to, card: Some(_) }) => {
                            let v = viewer.unwrap();
                            assert!(v == *from || v == *to, "a card of someone else's exchange");
                        }
                        Emit::Runtime(Out::TurnStarted { seat, .. })
                            if rt.controller(*seat) == Some(&Controller::Human) =>
                        {
                            assert_eq!(Some(*seat), viewer, "a human's turn is announced to that human");
                        }
                        _ => {}
                    }
                }
                assert_eq!(viewer, fw.local());
                let duties = rt.human_duties();
                if !duties.is_empty() {
                    assert!(duties.contains(&fw.local().unwrap()), "the viewer is a human that must act");
                }
            },
            3000,
        );
        assert!(changes > 5, "the viewer changed between the two humans ({changes} times)");
    }

    #[test]
    fn no_human_is_omniscient_without_hand_updates() {
        let (mut rt, notices) = start(5, [ai(), ai(), ai(), ai()]);
        let mut fw = Forwarder::new(&rt);
        assert_eq!(fw.viewer(), Viewer::Omniscient);
        let first = fw.forward(&rt, &notices);
        assert_eq!(first[0], Emit::MatchStarted { seed: 5, local: None });
        assert!(hands_in(&first).is_empty());
        play_out(
            &mut rt,
            &mut fw,
            |_, _, emits| {
                assert!(hands_in(emits).is_empty());
                for e in emits {
                    if let Emit::Runtime(Out::TributeGiven { card, .. }) = e {
                        assert!(card.is_some(), "an omniscient viewer sees every tribute card");
                    }
                }
            },
            3000,
        );
        assert!(rt.state().is_over());
    }

    #[test]
    fn auto_play_keeps_the_owner_as_viewer_and_shows_no_other_hand() {
        let (mut rt, notices) = start(11, [Controller::Human, ai(), ai(), ai()]);
        let mut fw = Forwarder::new(&rt);
        fw.forward(&rt, &notices);
        // Hand the seat to the AI: the change is announced, the viewer stays seat 0.
        let n = rt.set_controller(Seat::ZERO, ai());
        let emits = fw.forward(&rt, &n);
        assert!(emits.contains(&Emit::Runtime(Out::ControllerChanged { seat: Seat::ZERO, ai: true })));
        assert_eq!(fw.viewer(), Viewer::Seat(Seat::ZERO));
        let mut ai_actions = 0;
        for _ in 0..200 {
            let Some(n) = rt.decide_now() else { break };
            ai_actions += 1;
            for e in fw.forward(&rt, &n) {
                if let Emit::Runtime(Out::HandChanged { seat, .. }) = e {
                    assert_eq!(seat, Seat::ZERO, "only the owner's hand");
                }
                if let Emit::Runtime(Out::TributeGiven { from, to, card: Some(_) }) = e {
                    assert!(from == Seat::ZERO || to == Seat::ZERO, "a card of someone else's exchange");
                }
                assert!(!matches!(e, Emit::ViewerChanged { .. }));
            }
            assert_eq!(fw.viewer(), Viewer::Seat(Seat::ZERO));
            if rt.state().is_over() {
                break;
            }
        }
        assert!(ai_actions >= 200 || rt.state().is_over(), "every seat, seat 0 too, was played by the AI");
        assert!(rt.human_duties().is_empty());
        // Take it back: seat 0 is human again and the runtime waits for it when it must act.
        let n = rt.set_controller(Seat::ZERO, Controller::Human);
        let emits = fw.forward(&rt, &n);
        assert!(emits.contains(&Emit::Runtime(Out::ControllerChanged { seat: Seat::ZERO, ai: false })));
        assert_eq!(fw.local(), Some(Seat::ZERO));
        assert!(!rt.is_ai(Seat::ZERO));
    }
}
