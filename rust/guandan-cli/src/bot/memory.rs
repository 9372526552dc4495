//! What the bot remembers of the match from the messages, and the seat's `PlayerView` built from it.

use super::choice::*;
use super::log;
use super::wire::*;

use guandan_ai::agent::{Budget, MAX_AI_DECISION_MS};
use guandan_ai::{Agent, AiProfile, make_agent};
use guandan_core::card::{Card, CardSet, Rank};
use guandan_core::game::{Match, Phase, Seat, Team, Turn, team_of};
use guandan_core::rules::RuleConfig;
use guandan_core::view::{PlayerView, SeenTribute};
use rand_chacha::ChaCha8Rng;
use rand_core::SeedableRng;
use serde_json::Value;
use std::io::{BufRead, Write};
use std::time::{Duration, Instant};

/// A play seen in a notification this deal.
#[derive(Debug, Clone)]
pub(super) struct SeenTurn {
    pub(super) seat: Seat,
    pub(super) act: Act,
}

/// The bot's memory of the match and its agent.
pub struct Bot {
    pub(super) agent: Box<dyn Agent>,
    pub(super) profile: AiProfile,
    pub(super) rules: RuleConfig,
    pub(super) seed: u64,
    /// A view of the right shape; every decision overwrites what it knows.
    pub(super) template: PlayerView,
    pub(super) my_pos: Option<Seat>,
    pub(super) deals: u32,
    pub(super) turns: Vec<SeenTurn>,
    /// Cards each seat held when play began (27, moved by tributes and returns).
    pub(super) start_counts: [u8; 4],
    pub(super) tributes: Vec<SeenTribute>,
    pub(super) last_order: Option<[Seat; 4]>,
    pub(super) level: Option<Rank>,
    pub(super) decisions: u64,
}

impl Bot {
    pub fn new(profile: AiProfile, rules: RuleConfig, seed: u64) -> Result<Bot, String> {
        let (m, _) = Match::new(seed, rules.clone()).map_err(|e| e.to_string())?;
        Ok(Bot {
            agent: make_agent(&profile),
            profile,
            rules,
            seed,
            template: m.view(Some(Seat::ZERO)),
            my_pos: None,
            deals: 0,
            turns: Vec::new(),
            start_counts: [27; 4],
            tributes: Vec::new(),
            last_order: None,
            level: None,
            decisions: 0,
        })
    }

    /// Reads messages line by line and writes one answer line per `act`; ends at EOF.
    pub fn run_lines(&mut self, input: impl BufRead, out: &mut impl Write) -> std::io::Result<()> {
        for line in input.lines() {
            let line = match line {
                Ok(l) => l,
                Err(e) if e.kind() == std::io::ErrorKind::InvalidData => {
                    log(format!("skipped a line that is not UTF-8: {e}"));
                    continue;
                }
                Err(e) => return Err(e),
            };
            if let Some(answer) = self.handle_text(&line) {
                writeln!(out, "{answer}")?;
                out.flush()?;
            }
        }
        Ok(())
    }

    /// Handles one message; the answer to send, if any.
    pub fn handle_text(&mut self, text: &str) -> Option<String> {
        let text = text.trim();
        if text.is_empty() {
            return None;
        }
        let value: Value = match serde_json::from_str(text) {
            Ok(v) => v,
            Err(e) => {
                log(format!("ignored a message that is not JSON ({e}): {}", clip(text)));
                return None;
            }
        };
        if !value.is_object() {
            log(format!("ignored a message that is not a JSON object: {}", clip(text)));
            return None;
        }
        let Ok(msg) = serde_json::from_value::<Message>(value) else {
            log(format!("ignored a message that does not parse: {}", clip(text)));
            return None;
        };
        match msg.kind.0.as_deref() {
            Some("act") => Some(format!("{{\"actIndex\": {}}}", self.act(&msg))),
            Some("notify") => {
                self.notify(&msg, text);
                None
            }
            other => {
                log(format!("ignored a message of type {}: {}", other.unwrap_or("(none)"), clip(text)));
                None
            }
        }
    }

    pub(super) fn new_deal(&mut self) {
        self.turns.clear();
        self.tributes.clear();
        self.start_counts = [27; 4];
    }

    /// A card moved from one seat to another (tribute or return).
    pub(super) fn moved(&mut self, from: Seat, to: Seat) {
        self.start_counts[from.index()] = self.start_counts[from.index()].saturating_sub(1);
        self.start_counts[to.index()] = self.start_counts[to.index()].saturating_add(1);
    }

    pub(super) fn notify(&mut self, msg: &Message, text: &str) {
        let stage = msg.stage.0.as_deref().unwrap_or("");
        match stage {
            "beginning" => {
                if let Some(p) = seat(&msg.my_pos) {
                    self.my_pos = Some(p);
                }
                if self.deals > 0 || !self.turns.is_empty() {
                    self.new_deal();
                }
                self.deals += 1;
                log(format!(
                    "deal {} begins, seat {}, {} cards",
                    self.deals,
                    self.my_pos.map_or("unknown".to_string(), |s| s.to_string()),
                    msg.hand_cards.0.as_ref().map_or(0, |h| h.len())
                ));
            }
            "play" => {
                let (Some(s), Some(action)) = (seat(&msg.cur_pos), msg.cur_action.0.as_ref()) else {
                    log(format!("a play notification without curPos/curAction: {}", clip(text)));
                    return;
                };
                self.turns.push(SeenTurn { seat: s, act: Act::from_wire(action) });
            }
            "tribute" => {
                for (from, to, card) in msg.result.0.iter().flatten() {
                    let (Some(from), Some(to)) = (seat_of(*from), seat_of(*to)) else {
                        continue;
                    };
                    let card = parse_card(card).map(|c| c.ids()[0]);
                    self.tributes.push(SeenTribute { from, to: Some(to), card, returned: None });
                    self.moved(from, to);
                }
            }
            "back" => {
                for (from, to, card) in msg.result.0.iter().flatten() {
                    let (Some(from), Some(to)) = (seat_of(*from), seat_of(*to)) else {
                        continue;
                    };
                    let card = parse_card(card).map(|c| c.ids()[0]);
                    // The return goes from the receiver back to the payer.
                    if let Some(t) = self.tributes.iter_mut().find(|t| t.to == Some(from) && t.from == to) {
                        t.returned = card;
                    }
                    self.moved(from, to);
                }
            }
            "anti-tribute" => log(format!(
                "{} player(s) resisted the tribute: {:?}",
                int(&msg.anti_nums).unwrap_or(0),
                msg.anti_pos.0.clone().unwrap_or_default()
            )),
            "episodeOver" => {
                let order: Vec<Seat> = msg.order.0.iter().flatten().filter_map(|&s| seat_of(s)).collect();
                if let [a, b, c, d] = order[..] {
                    self.last_order = Some([a, b, c, d]);
                }
                log(format!("deal {} over, finishing order {order:?}", self.deals));
                self.new_deal();
            }
            "gameOver" | "gameResult" => {
                log(format!("{stage}: {}", clip(text)));
                self.new_deal();
            }
            _ => log(format!("ignored a notification of stage {stage:?}: {}", clip(text))),
        }
    }

    /// The index to answer an `act` with (always inside the list when the list is not empty).
    pub fn act(&mut self, msg: &Message) -> usize {
        let list: Vec<Act> = msg.action_list.0.iter().flatten().map(Act::from_value).collect();
        let max = match (list.len(), int(&msg.index_range)) {
            (0, r) => r.unwrap_or(0).max(0) as usize,
            (n, Some(r)) if r >= 0 => (n - 1).min(r as usize),
            (n, _) => n - 1,
        };
        if list.is_empty() {
            log("an act without a usable actionList (missing, empty or not a list): answering 0");
            return 0;
        }
        let index = if list.len() == 1 { 0 } else { self.choose(msg, &list) };
        index.min(max)
    }

    pub(super) fn choose(&mut self, msg: &Message, list: &[Act]) -> usize {
        let stage = msg.stage.0.as_deref().unwrap_or("");
        let tribute = stage == "tribute" || list.iter().all(|a| matches!(a, Act::Tribute(_)));
        let back = stage == "back" || list.iter().all(|a| matches!(a, Act::Back(_)));
        let phase = if tribute {
            Phase::Tribute
        } else if back {
            Phase::Return
        } else {
            if stage != "play" {
                log(format!("an act of stage {stage:?}: treating it as a play"));
            }
            Phase::Play
        };
        let Some(view) = self.view(msg, list, phase) else {
            return fallback(list, self.level.unwrap_or(Rank::TWO), &self.rules);
        };
        let mut rng = ChaCha8Rng::seed_from_u64(self.seed ^ self.decisions.wrapping_mul(0x9e37_79b9_7f4a_7c15));
        self.decisions += 1;
        let budget = Budget::with_soft_ms(self.profile.budget_ms);
        let start = Instant::now();
        let agent = &mut self.agent;
        let decided = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| agent.decide(&view, &mut rng, &budget)));
        let action = match decided {
            Ok(d) if start.elapsed() <= Duration::from_millis(MAX_AI_DECISION_MS) => d.action,
            Ok(_) => {
                log("the agent ran past the time limit: playing L1's move");
                guandan_ai::l1::l1_decision(&view).action
            }
            Err(_) => {
                log("the agent panicked: playing L1's move");
                guandan_ai::l1::l1_decision(&view).action
            }
        };
        let index = map_decision(&action, list, &view);
        log(format!(
            "{} seat {} {}: {} -> {index} {} ({:.1} ms)",
            self.agent.name(),
            view.seat.unwrap_or(Seat::ZERO),
            match (phase, view.table.is_some()) {
                (Phase::Tribute, _) => "tribute",
                (Phase::Return, _) => "return",
                (_, true) => "follows",
                _ => "leads",
            },
            describe(&action),
            msg.action_list.0.as_ref().and_then(|l| l.get(index)).map_or(String::new(), |v| v.to_string()),
            start.elapsed().as_secs_f64() * 1000.0
        ));
        index
    }

    /// The seat's view as the message and the notifications tell it.
    pub(super) fn view(&mut self, msg: &Message, list: &[Act], phase: Phase) -> Option<PlayerView> {
        let me = seat(&msg.my_pos).or(self.my_pos).unwrap_or_else(|| {
            log("no seat known yet (no beginning notification): assuming seat 0");
            Seat::ZERO
        });
        self.my_pos = Some(me);
        let level = msg.cur_rank.0.as_ref().and_then(WireRank::level).or(self.level).unwrap_or(Rank::TWO);
        self.level = Some(level);
        let rules = &self.rules;
        let mut hand = CardSet::EMPTY;
        for text in msg.hand_cards.0.iter().flatten() {
            match parse_card(text) {
                Some(c) => hand = hand.union(ids_for(&[c], hand)),
                None => log(format!("ignored an unknown card {text:?} in handCards")),
            }
        }
        if hand.is_empty() {
            log("an act without handCards: falling back");
            return None;
        }
        // Cards played this deal, as ids that are not in the hand.
        let mut played = CardSet::EMPTY;
        let mut history = Vec::new();
        let mut counts = self.start_counts;
        // Finishing order as the plays tell it.
        let mut finished: Vec<Seat> = Vec::new();
        for t in &self.turns {
            match &t.act {
                Act::Play { kind, rank, cards: Some(cards) } => {
                    let ids = ids_for(cards, hand.union(played));
                    played = played.union(ids);
                    let left = &mut counts[t.seat.index()];
                    *left = left.saturating_sub(cards.len() as u8);
                    if *left == 0 && !finished.contains(&t.seat) {
                        finished.push(t.seat);
                    }
                    if let Some(p) = reading(*kind, *rank, ids, level, rules) {
                        history.push(Turn { seat: t.seat, play: Some(p) });
                    }
                }
                Act::Pass => history.push(Turn { seat: t.seat, play: None }),
                _ => {}
            }
        }
        let public: Vec<PublicSeat> =
            msg.public_info.0.iter().flatten().map(|p| p.0.clone().unwrap_or_default()).collect();
        for (s, p) in public.iter().enumerate().take(4) {
            if let Some(rest) = int(&p.rest).filter(|r| (0..=30).contains(r)) {
                counts[s] = rest as u8;
            }
        }
        counts[me.index()] = hand.len().min(u8::MAX as usize) as u8;
        let following = matches!(list.first(), Some(Act::Pass));
        let table = if phase == Phase::Play && following {
            let owner = seat(&msg.greater_pos)
                .filter(|&s| s != me)
                .or_else(|| self.turns.iter().rev().find(|t| matches!(t.act, Act::Play { .. })).map(|t| t.seat))
                .filter(|&s| s != me)
                .unwrap_or(me.after(3));
            let from_msg = msg.greater_action.0.as_ref().map(Act::from_wire);
            let from_area = public.get(owner.index()).and_then(|p| p.play_area.0.as_ref()).map(Act::from_wire);
            let from_history =
                self.turns.iter().rev().find(|t| matches!(t.act, Act::Play { .. })).map(|t| t.act.clone());
            let play = [from_msg, from_area, from_history].into_iter().flatten().find_map(|a| match a {
                Act::Play { kind, rank, cards: Some(cards) } => {
                    reading(kind, rank, ids_for(&cards, hand), level, rules)
                }
                _ => None,
            });
            match play {
                Some(p) => Some((owner, p)),
                None => {
                    log("following, but the play to beat is unknown: passing");
                    return None;
                }
            }
        } else {
            None
        };
        // Passes since the play on the table.
        let passes = if table.is_some() {
            self.turns.iter().rev().take_while(|t| matches!(t.act, Act::Pass)).count().min(3) as u8
        } else {
            0
        };
        // Seats the platform says are out but whose last play we missed.
        for s in Seat::ALL {
            if counts[s.index()] == 0 && !finished.contains(&s) {
                finished.push(s);
            }
        }
        finished.retain(|&s| counts[s.index()] == 0);
        let team_levels = {
            let mine = msg.self_rank.0.as_ref().and_then(WireRank::level).unwrap_or(level);
            let theirs = msg.oppo_rank.0.as_ref().and_then(WireRank::level).unwrap_or(Rank::TWO);
            if team_of(me) == Team::ZERO { [mine, theirs] } else { [theirs, mine] }
        };
        // The team whose level is played, when the levels tell.
        let (mine, theirs) = (team_of(me), team_of(me).other());
        let declarer = match (team_levels[mine.index()] == level, team_levels[theirs.index()] == level) {
            (true, false) => Some(mine),
            (false, true) => Some(theirs),
            // Both teams on this level: it is the last deal's winners' (the first deal has none).
            _ => self.last_order.map(|order| team_of(order[0])),
        };
        let options = |pick: fn(&Act) -> Option<&Vec<Card>>| {
            let cards: Vec<Card> = list.iter().filter_map(pick).flatten().copied().collect();
            hand.iter().filter(|&id| cards.contains(&Card::from_id(id))).fold(CardSet::EMPTY, |s, id| s.with(id))
        };
        let mut v = self.template.clone();
        v.seat = Some(me);
        v.rules = rules.clone();
        v.seq = self.decisions;
        v.deal_no = self.deals.saturating_sub(1);
        v.phase = phase;
        v.level = level;
        v.team_levels = team_levels;
        v.declarer = declarer;
        v.hand = hand;
        v.card_counts = counts;
        v.turn = me;
        v.to_act = vec![me];
        v.table = table;
        v.passes = passes;
        v.finished = finished;
        v.last_order = self.last_order;
        v.history = history;
        v.played = played;
        v.tributes = self.tributes.clone();
        v.tribute_options = if phase == Phase::Tribute {
            options(|a| if let Act::Tribute(Some(c)) = a { Some(c) } else { None })
        } else {
            CardSet::EMPTY
        };
        v.return_options = if phase == Phase::Return {
            options(|a| if let Act::Back(Some(c)) = a { Some(c) } else { None })
        } else {
            CardSet::EMPTY
        };
        if phase != Phase::Play && v.tribute_options.union(v.return_options).is_empty() {
            log("no listed tribute/return card is in the hand: falling back");
            return None;
        }
        Some(v)
    }
}
