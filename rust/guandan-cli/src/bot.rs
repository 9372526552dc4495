//! `guandan bot`: an AI player for the Guandan AI competition platform.
//!
//! The platform sends JSON messages (`{"type": "notify" | "act", "stage": ..., ...}`) and expects
//! `{"actIndex": i}` for every `act`, `i` indexing the message's `actionList`. This module reads
//! them one per line (stdin/stdout) or one per WebSocket text frame (`--ws URL`, see `bot_ws.rs`),
//! keeps what the notifications tell (plays, tributes, finishing order), builds the seat's
//! [`PlayerView`], asks the agent, and maps its decision back onto an index of `actionList`.
//!
//! Messages: `notify` `beginning` (`handCards`, `myPos`), `play` (`curPos`, `curAction`,
//! `greaterPos`, `greaterAction`), `tribute` / `back` (`result`: `[[from, to, card], ...]`),
//! `anti-tribute` (`antiNums`, `antiPos`), `episodeOver` (`order`), `gameOver`, `gameResult`; `act`
//! `play` / `tribute` / `back` with `handCards`, `publicInfo` (per seat `rest` and `playArea`),
//! `selfRank`, `oppoRank`, `curRank`, `curPos`, `curAction`, `greaterPos`, `greaterAction`,
//! `actionList` (`[type, rank, cards]`, PASS first when following; `["tribute", "tribute", [card]]`,
//! `["back", "back", [card]]`) and `indexRange` (the last valid index).
//!
//! Every field is parsed leniently: a field of an unexpected type counts as missing, ranks may be
//! characters (`"T"`, `"10"`) or integers (2–14, 15/16 for the jokers, 1 for the ace), four jokers
//! may be `FourKings` or `["Bomb", "JOKER", ...]`, and a turn is a lead exactly when
//! `actionList[0]` is not PASS, whatever `greaterPos` says. Unknown or malformed messages are
//! logged to stderr and ignored; the answer is always an index inside the list.

use guandan_ai::agent::{Budget, MAX_AI_DECISION_MS};
use guandan_ai::{Agent, AiLevel, AiProfile, make_agent};
use guandan_core::card::{Card, CardSet, Rank};
use guandan_core::combo::{Play, PlayKind, classify, rank_order};
use guandan_core::game::{ActionKind, Match, Phase, Seat, Team, Turn, team_of};
use guandan_core::rules::{PRESETS, RuleConfig};
use guandan_core::view::{PlayerView, SeenTribute};
use rand_chacha::ChaCha8Rng;
use rand_core::SeedableRng;
use serde::Deserialize;
use serde::de::DeserializeOwned;
use serde_json::Value;
use std::io::{BufRead, Write};
use std::time::{Duration, Instant};

#[path = "bot_ws.rs"]
mod ws;

/// L3 playouts allowed when a time budget is given (far more than fit in any sane budget).
const BUDGETED_ITERATIONS: u32 = 1_000_000;

/// `guandan bot` arguments.
#[derive(clap::Args, Debug, Clone)]
pub struct BotArgs {
    /// AI level: L1, L2 or L3.
    #[arg(long, default_value = "L3")]
    pub ai: String,
    /// Wall-clock budget per decision in ms (L3 searches until it runs out).
    #[arg(long)]
    pub budget_ms: Option<u32>,
    /// Threads an L3 search may use.
    #[arg(long, default_value_t = 1)]
    pub threads: u32,
    /// The platform's WebSocket, e.g. ws://127.0.0.1:23456/game/client0 (default: JSON lines on
    /// stdin, answers on stdout).
    #[arg(long)]
    pub ws: Option<String>,
    /// Rule preset or .json file (the platform plays the Huai'an rules).
    #[arg(long, default_value = "huaian")]
    pub rules: String,
    /// Seed of the agent's random choices.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
}

/// Runs the bot until the input ends or the WebSocket closes.
pub fn run(args: BotArgs) -> Result<(), String> {
    let level = AiLevel::parse(&args.ai).ok_or_else(|| format!("unknown AI level {:?}: use L1, L2 or L3", args.ai))?;
    let rules = match RuleConfig::preset(&args.rules) {
        Some(r) => r,
        None if args.rules.ends_with(".json") => {
            let text = std::fs::read_to_string(&args.rules).map_err(|e| format!("cannot read {}: {e}", args.rules))?;
            RuleConfig::from_json(&text).map_err(|e| format!("{}: {e}", args.rules))?
        }
        None => {
            return Err(format!("unknown rules {:?}: use one of {} or a .json file", args.rules, PRESETS.join(", ")));
        }
    };
    let mut profile = AiProfile::level(level);
    profile.threads = args.threads.max(1);
    if let Some(ms) = args.budget_ms {
        profile.budget_ms = ms;
        // The clock decides; the cap only bounds what L3 allocates for its worlds up front.
        profile.iterations = profile.iterations.max(BUDGETED_ITERATIONS);
    }
    let mut bot = Bot::new(profile, rules, args.seed)?;
    match &args.ws {
        Some(url) => ws::run(&mut bot, url),
        None => {
            let stdin = std::io::stdin();
            let mut out = std::io::stdout().lock();
            bot.run_lines(stdin.lock(), &mut out).map_err(|e| format!("stdin/stdout: {e}"))
        }
    }
}

fn log(msg: impl AsRef<str>) {
    eprintln!("bot: {}", msg.as_ref());
}

// ---------------------------------------------------------------------------------------------
// Wire types

/// A field that is `None` when absent, null or of an unexpected type.
#[derive(Debug, Clone, PartialEq)]
pub struct Lenient<T>(pub Option<T>);

impl<T> Default for Lenient<T> {
    fn default() -> Self {
        Lenient(None)
    }
}

impl<'de, T: DeserializeOwned> Deserialize<'de> for Lenient<T> {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let v = Value::deserialize(d)?;
        Ok(Lenient(serde_json::from_value(v).ok()))
    }
}

/// A rank as the platform writes it.
#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(untagged)]
pub enum WireRank {
    Int(i64),
    Text(String),
}

impl WireRank {
    /// The rank 2–16 (14 = ace, 15/16 = small/big joker); 0 for four jokers.
    pub fn value(&self) -> Option<u8> {
        match self {
            WireRank::Int(1) => Some(14),
            WireRank::Int(i) if (2..=16).contains(i) => Some(*i as u8),
            WireRank::Int(_) => None,
            WireRank::Text(s) => {
                let s = s.trim().to_ascii_uppercase();
                match s.as_str() {
                    "JOKER" | "JOKERS" => Some(0),
                    "B" | "SB" => Some(15),
                    "R" | "HR" => Some(16),
                    "10" => Some(10),
                    _ if s.len() == 1 => Rank::from_char(s.chars().next()?).map(|r| r.0),
                    _ => s.parse::<i64>().ok().and_then(|i| WireRank::Int(i).value()),
                }
            }
        }
    }

    /// A level rank (2–A).
    pub fn level(&self) -> Option<Rank> {
        self.value().filter(|v| (2..=14).contains(v)).map(Rank)
    }
}

/// An integer that may arrive as a number or as digits in a string.
#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(untagged)]
pub enum WireInt {
    Int(i64),
    Text(String),
}

impl WireInt {
    pub fn get(&self) -> Option<i64> {
        match self {
            WireInt::Int(i) => Some(*i),
            WireInt::Text(t) => t.trim().parse().ok(),
        }
    }
}

fn int(v: &Lenient<WireInt>) -> Option<i64> {
    v.0.as_ref().and_then(WireInt::get)
}

/// The cards of an action: a list, or the text `PASS`.
#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(untagged)]
pub enum WireCards {
    List(Vec<String>),
    Text(String),
}

/// An action: `[type, rank, cards]`, or the object form `{"type", "rank", "actions"}`.
#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(untagged)]
pub enum WireAction {
    Triple(String, Option<WireRank>, Option<WireCards>),
    Object {
        #[serde(rename = "type")]
        kind: String,
        #[serde(default)]
        rank: Option<WireRank>,
        #[serde(default, alias = "cards")]
        actions: Option<WireCards>,
    },
}

/// One seat's public state.
#[derive(Debug, Clone, Default, Deserialize)]
#[serde(default, rename_all = "camelCase")]
pub struct PublicSeat {
    pub rest: Lenient<WireInt>,
    pub play_area: Lenient<WireAction>,
}

/// Any platform message; every field optional.
#[derive(Debug, Clone, Default, Deserialize)]
#[serde(default, rename_all = "camelCase")]
pub struct Message {
    #[serde(rename = "type")]
    pub kind: Lenient<String>,
    pub stage: Lenient<String>,
    #[serde(alias = "handCard")]
    pub hand_cards: Lenient<Vec<String>>,
    pub my_pos: Lenient<WireInt>,
    pub public_info: Lenient<Vec<Lenient<PublicSeat>>>,
    pub self_rank: Lenient<WireRank>,
    pub oppo_rank: Lenient<WireRank>,
    pub cur_rank: Lenient<WireRank>,
    pub cur_pos: Lenient<WireInt>,
    pub cur_action: Lenient<WireAction>,
    pub greater_pos: Lenient<WireInt>,
    pub greater_action: Lenient<WireAction>,
    pub action_list: Lenient<Vec<Value>>,
    pub index_range: Lenient<WireInt>,
    /// Tribute or return: `[[from, to, card], ...]`.
    pub result: Lenient<Vec<(i64, i64, String)>>,
    pub anti_nums: Lenient<WireInt>,
    pub anti_pos: Lenient<Vec<i64>>,
    pub order: Lenient<Vec<i64>>,
}

fn seat(v: &Lenient<WireInt>) -> Option<Seat> {
    seat_of(int(v)?)
}

fn seat_of(v: i64) -> Option<Seat> {
    (0..4).contains(&v).then_some(v as Seat)
}

/// A card in competition notation, leniently (`s10`, `C10` and `CT` are all the ten of clubs).
pub fn parse_card(text: &str) -> Option<Card> {
    let t = text.trim().to_ascii_uppercase();
    let t = match t.strip_suffix("10") {
        Some(suit) if suit.len() == 1 => format!("{suit}T"),
        _ => t,
    };
    Card::parse(&t).ok()
}

/// What an action of `actionList` (or a notification) is.
#[derive(Debug, Clone, PartialEq)]
pub enum Act {
    Pass,
    /// `rank` is normalized like [`guandan_core::combo::Pattern::rank`]: 2–16 for groups, the
    /// lowest position (1 = ace low) for sequences, 0 for four jokers. `cards` is `None` when a
    /// card did not parse.
    Play {
        kind: PlayKind,
        rank: Option<u8>,
        cards: Option<Vec<Card>>,
    },
    Tribute(Option<Vec<Card>>),
    Back(Option<Vec<Card>>),
    Unknown,
}

impl Act {
    pub fn from_wire(w: &WireAction) -> Act {
        let (kind, rank, cards) = match w {
            WireAction::Triple(k, r, c) => (k, r.as_ref(), c.as_ref()),
            WireAction::Object { kind, rank, actions } => (kind, rank.as_ref(), actions.as_ref()),
        };
        let cards = match cards {
            Some(WireCards::List(list)) => list.iter().map(|c| parse_card(c)).collect::<Option<Vec<Card>>>(),
            Some(WireCards::Text(t)) => parse_card(t).map(|c| vec![c]),
            None => None,
        };
        let lower = kind.trim().to_ascii_lowercase();
        match lower.as_str() {
            "pass" | "" => return Act::Pass,
            "tribute" => return Act::Tribute(cards),
            "back" => return Act::Back(cards),
            _ => {}
        }
        let Some(mut kind) = PlayKind::ALL.into_iter().find(|k| k.name().eq_ignore_ascii_case(&lower)) else {
            return Act::Unknown;
        };
        let mut rank = rank.and_then(WireRank::value);
        let all_jokers = cards.as_ref().is_some_and(|c| c.len() == 4 && c.iter().all(|c| c.rank().is_joker()));
        if kind == PlayKind::Bomb && (rank == Some(0) || all_jokers) {
            kind = PlayKind::FourKings;
        }
        if kind == PlayKind::FourKings {
            rank = Some(0);
        } else if kind.is_sequence() && rank == Some(14) {
            // A sequence's rank is its lowest card: an ace there is the low ace.
            rank = Some(1);
        }
        Act::Play { kind, rank, cards }
    }

    fn from_value(v: &Value) -> Act {
        match serde_json::from_value::<WireAction>(v.clone()) {
            Ok(w) => Act::from_wire(&w),
            Err(_) => Act::Unknown,
        }
    }
}

/// Card values as a sorted multiset.
fn multiset(cards: &[Card]) -> Vec<Card> {
    let mut v = cards.to_vec();
    v.sort();
    v
}

/// Gives each card the first copy not in `taken` (and not yet given).
fn ids_for(cards: &[Card], taken: CardSet) -> CardSet {
    let mut out = CardSet::EMPTY;
    for c in cards {
        if let Some(id) = c.ids().into_iter().find(|&i| !taken.contains(i) && !out.contains(i)) {
            out.insert(id);
        }
    }
    out
}

/// The reading of `cards` the platform meant by `kind`/`rank`.
fn reading(kind: PlayKind, rank: Option<u8>, cards: CardSet, level: Rank, rules: &RuleConfig) -> Option<Play> {
    let readings = classify(cards, level, rules);
    readings
        .iter()
        .find(|p| p.pattern.kind == kind && rank.is_none_or(|r| p.pattern.rank == r))
        .or_else(|| readings.iter().find(|p| p.pattern.kind == kind))
        .or_else(|| readings.first())
        .copied()
}

// ---------------------------------------------------------------------------------------------
// The bot

/// A play seen in a notification this deal.
#[derive(Debug, Clone)]
struct SeenTurn {
    seat: Seat,
    act: Act,
}

/// The bot's memory of the match and its agent.
pub struct Bot {
    agent: Box<dyn Agent>,
    profile: AiProfile,
    rules: RuleConfig,
    seed: u64,
    /// A view of the right shape; every decision overwrites what it knows.
    template: PlayerView,
    my_pos: Option<Seat>,
    deals: u32,
    turns: Vec<SeenTurn>,
    /// Cards each seat held when play began (27, moved by tributes and returns).
    start_counts: [u8; 4],
    tributes: Vec<SeenTribute>,
    last_order: Option<[Seat; 4]>,
    level: Option<Rank>,
    decisions: u64,
}

impl Bot {
    pub fn new(profile: AiProfile, rules: RuleConfig, seed: u64) -> Result<Bot, String> {
        let (m, _) = Match::new(seed, rules.clone()).map_err(|e| e.to_string())?;
        Ok(Bot {
            agent: make_agent(&profile),
            profile,
            rules,
            seed,
            template: m.view(Some(0)),
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

    fn new_deal(&mut self) {
        self.turns.clear();
        self.tributes.clear();
        self.start_counts = [27; 4];
    }

    /// A card moved from one seat to another (tribute or return).
    fn moved(&mut self, from: Seat, to: Seat) {
        self.start_counts[from as usize] = self.start_counts[from as usize].saturating_sub(1);
        self.start_counts[to as usize] = self.start_counts[to as usize].saturating_add(1);
    }

    fn notify(&mut self, msg: &Message, text: &str) {
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

    fn choose(&mut self, msg: &Message, list: &[Act]) -> usize {
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
            view.seat.unwrap_or(0),
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
    fn view(&mut self, msg: &Message, list: &[Act], phase: Phase) -> Option<PlayerView> {
        let me = seat(&msg.my_pos).or(self.my_pos).unwrap_or_else(|| {
            log("no seat known yet (no beginning notification): assuming seat 0");
            0
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
                    let left = &mut counts[t.seat as usize];
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
        counts[me as usize] = hand.len().min(u8::MAX as usize) as u8;
        let following = matches!(list.first(), Some(Act::Pass));
        let table = if phase == Phase::Play && following {
            let owner = seat(&msg.greater_pos)
                .filter(|&s| s != me)
                .or_else(|| self.turns.iter().rev().find(|t| matches!(t.act, Act::Play { .. })).map(|t| t.seat))
                .filter(|&s| s != me)
                .unwrap_or((me + 3) % 4);
            let from_msg = msg.greater_action.0.as_ref().map(Act::from_wire);
            let from_area = public.get(owner as usize).and_then(|p| p.play_area.0.as_ref()).map(Act::from_wire);
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
        for s in 0..4u8 {
            if counts[s as usize] == 0 && !finished.contains(&s) {
                finished.push(s);
            }
        }
        finished.retain(|&s| counts[s as usize] == 0);
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
            _ => None,
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

fn clip(text: &str) -> String {
    if text.chars().count() <= 200 {
        text.to_string()
    } else {
        format!("{}…", text.chars().take(200).collect::<String>())
    }
}

fn describe(action: &ActionKind) -> String {
    match action {
        ActionKind::Play { cards, reading } => format!(
            "{} [{}]",
            reading.map_or(String::from("?"), |p| p.to_string()),
            CardSet::from_ids(cards).notation()
        ),
        ActionKind::Tribute { card } => format!("tribute {}", Card::from_id(*card)),
        ActionKind::Return { card } => format!("return {}", Card::from_id(*card)),
        other => format!("{other:?}"),
    }
}

/// "Smallest" listed play: non-bombs first, then lowest rank, then fewest cards.
fn smallness(a: &Act, level: Rank) -> (bool, bool, u8, usize) {
    match a {
        Act::Play { kind, rank, cards } => {
            let r = match rank {
                Some(r) if kind.is_sequence() => *r,
                Some(r) => rank_order(*r, level),
                None => u8::MAX,
            };
            (false, kind.is_bomb(), r, cards.as_ref().map_or(usize::MAX, |c| c.len()))
        }
        _ => (true, true, u8::MAX, usize::MAX),
    }
}

/// The answer when the agent cannot be asked or its choice is not listed: PASS when following,
/// else the smallest listed play (else the first entry).
pub fn fallback(list: &[Act], level: Rank, _rules: &RuleConfig) -> usize {
    if let Some(i) = list.iter().position(|a| *a == Act::Pass) {
        return i;
    }
    (0..list.len()).min_by_key(|&i| (smallness(&list[i], level), i)).unwrap_or(0)
}

/// The index of `actionList` that carries out the agent's decision.
pub fn map_decision(action: &ActionKind, list: &[Act], view: &PlayerView) -> usize {
    let fb = || fallback(list, view.level, &view.rules);
    match action {
        ActionKind::Pass => list.iter().position(|a| *a == Act::Pass).unwrap_or_else(fb),
        ActionKind::Play { cards, reading: chosen } => {
            let set = CardSet::from_ids(cards);
            let pattern = chosen
                .or_else(|| classify(set, view.level, &view.rules).first().map(|p| p.pattern))
                .map(|p| (p.kind, p.rank));
            let mine = multiset(&set.iter().map(Card::from_id).collect::<Vec<_>>());
            let Some((kind, rank)) = pattern else { return fb() };
            // Same type, and the same rank or exactly the same cards (in case the platform writes
            // a rank differently); then the same rank, the same cards, the same number of cards,
            // most cards in common, the first listed.
            list.iter()
                .enumerate()
                .filter_map(|(i, a)| match a {
                    Act::Play { kind: k, rank: r, cards } if *k == kind => {
                        let theirs = cards.as_deref().map(multiset).unwrap_or_default();
                        let same_rank = *r == Some(rank);
                        let exact = theirs == mine;
                        let key = (same_rank, exact, theirs.len() == mine.len(), common_count(&mine, &theirs));
                        (same_rank || exact).then_some((key, std::cmp::Reverse(i)))
                    }
                    _ => None,
                })
                .max()
                .map(|(_, std::cmp::Reverse(i))| i)
                .unwrap_or_else(|| {
                    log(format!("the agent's {kind:?} {rank} is not in the actionList: falling back"));
                    fb()
                })
        }
        ActionKind::Tribute { card } | ActionKind::Return { card } => {
            let want = Card::from_id(*card);
            let is_tribute = matches!(action, ActionKind::Tribute { .. });
            let cards_of = |a: &Act| match (a, is_tribute) {
                (Act::Tribute(c), true) | (Act::Back(c), false) => Some(c.clone().unwrap_or_default()),
                _ => None,
            };
            list.iter()
                .position(|a| cards_of(a).is_some_and(|c| c.contains(&want)))
                .or_else(|| list.iter().position(|a| cards_of(a).is_some()))
                .unwrap_or(0)
        }
        _ => fb(),
    }
}

/// Size of the multiset intersection of two sorted lists.
fn common_count(a: &[Card], b: &[Card]) -> usize {
    let (mut i, mut j, mut n) = (0, 0, 0);
    while i < a.len() && j < b.len() {
        match a[i].cmp(&b[j]) {
            std::cmp::Ordering::Equal => {
                n += 1;
                i += 1;
                j += 1;
            }
            std::cmp::Ordering::Less => i += 1,
            std::cmp::Ordering::Greater => j += 1,
        }
    }
    n
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn act(v: Value) -> Act {
        Act::from_value(&v)
    }

    fn cards(text: &str) -> Vec<Card> {
        text.split_whitespace().map(|c| parse_card(c).unwrap()).collect()
    }

    fn bot() -> Bot {
        Bot::new(AiProfile::level(AiLevel::L2), RuleConfig::huaian(), 1).unwrap()
    }

    #[test]
    fn ranks_as_characters_or_integers() {
        let r = |v: Value| serde_json::from_value::<WireRank>(v).unwrap().value();
        assert_eq!(r(json!("T")), Some(10));
        assert_eq!(r(json!("10")), Some(10));
        assert_eq!(r(json!("a")), Some(14));
        assert_eq!(r(json!(14)), Some(14));
        assert_eq!(r(json!(1)), Some(14));
        assert_eq!(r(json!(2)), Some(2));
        assert_eq!(r(json!("B")), Some(15));
        assert_eq!(r(json!(16)), Some(16));
        assert_eq!(r(json!("JOKER")), Some(0));
        assert_eq!(r(json!(17)), None);
        assert_eq!(r(json!("X")), None);
        assert_eq!(serde_json::from_value::<WireRank>(json!(15)).unwrap().level(), None);
    }

    #[test]
    fn actions_normalize_across_platform_spellings() {
        let kings = Act::Play { kind: PlayKind::FourKings, rank: Some(0), cards: Some(cards("SB SB HR HR")) };
        assert_eq!(act(json!(["Bomb", "JOKER", ["SB", "SB", "HR", "HR"]])), kings);
        assert_eq!(act(json!(["FourKings", "JOKER", ["SB", "SB", "HR", "HR"]])), kings);
        assert_eq!(act(json!(["Bomb", 0, ["SB", "SB", "HR", "HR"]])), kings);
        let low = |rank: Value| act(json!(["Straight", rank, ["SA", "S2", "H3", "S4", "S5"]]));
        assert!(matches!(low(json!("A")), Act::Play { rank: Some(1), .. }));
        assert!(matches!(low(json!(14)), Act::Play { rank: Some(1), .. }));
        assert!(matches!(low(json!(1)), Act::Play { rank: Some(1), .. }));
        assert!(matches!(
            act(json!(["Straight", "T", ["ST", "SJ", "HQ", "SK", "SA"]])),
            Act::Play { kind: PlayKind::Straight, rank: Some(10), .. }
        ));
        assert!(matches!(act(json!(["Single", "A", ["SA"]])), Act::Play { rank: Some(14), .. }));
        assert_eq!(act(json!(["PASS", "PASS", "PASS"])), Act::Pass);
        assert_eq!(act(json!(["PASS", "PASS", []])), Act::Pass);
        assert_eq!(act(json!(["tribute", "tribute", ["S3"]])), Act::Tribute(Some(cards("S3"))));
        assert_eq!(act(json!(["back", "back", ["C10"]])), Act::Back(Some(cards("CT"))));
        assert!(matches!(
            act(json!({"type": "Pair", "rank": "5", "actions": ["S5", "D5"]})),
            Act::Play { kind: PlayKind::Pair, rank: Some(5), .. }
        ));
        assert_eq!(act(json!(["Teleport", "5", ["S5"]])), Act::Unknown);
        assert_eq!(act(json!(42)), Act::Unknown);
        assert!(matches!(act(json!(["Single", "5", ["XX"]])), Act::Play { cards: None, .. }));
    }

    #[test]
    fn cards_parse_leniently() {
        assert_eq!(parse_card("s10"), parse_card("ST"));
        assert_eq!(parse_card("C10").map(|c| c.notation()), Some("CT".into()));
        assert_eq!(parse_card("sb"), Some(Card::SMALL_JOKER));
        assert_eq!(parse_card("HR"), Some(Card::BIG_JOKER));
        assert_eq!(parse_card("Z9"), None);
        assert_eq!(parse_card("S"), None);
    }

    fn view_with(hand: &str, level: u8) -> PlayerView {
        let mut v = bot().template.clone();
        v.hand = CardSet::parse(hand).unwrap();
        v.level = Rank(level);
        v
    }

    fn play(hand: CardSet, text: &str, level: u8) -> ActionKind {
        let ids = ids_for(&cards(text), CardSet::FULL.minus(hand));
        let p = classify(ids, Rank(level), &RuleConfig::huaian())[0];
        Match::play_kind(&p)
    }

    #[test]
    fn a_play_maps_to_the_listed_entry_with_the_same_cards() {
        let v = view_with("S5 D5 C5 H2 S9", 2);
        let list: Vec<Act> = [
            json!(["PASS", "PASS", "PASS"]),
            json!(["Pair", "5", ["S5", "H2"]]),
            json!(["Pair", "5", ["S5", "D5"]]),
            json!(["Pair", "9", ["S9", "H2"]]),
        ]
        .into_iter()
        .map(act)
        .collect();
        assert_eq!(map_decision(&play(v.hand, "D5 S5", 2), &list, &v), 2);
        assert_eq!(map_decision(&play(v.hand, "S5 H2", 2), &list, &v), 1);
        // A copy choice the platform did not list: same type, rank and size.
        assert_eq!(map_decision(&play(v.hand, "C5 D5", 2), &list, &v), 2);
        assert_eq!(map_decision(&ActionKind::Pass, &list, &v), 0);
        // Not listed at all: PASS when following.
        assert_eq!(map_decision(&play(v.hand, "S9", 2), &list, &v), 0);
        // A rank written another way (highest card of a straight) still matches by its cards.
        let v = view_with("S3 D4 C5 S6 H7 S9", 2);
        let list: Vec<Act> = [json!(["Straight", "7", ["S3", "D4", "C5", "S6", "H7"]]), json!(["Single", "9", ["S9"]])]
            .into_iter()
            .map(act)
            .collect();
        assert_eq!(map_decision(&play(v.hand, "S3 D4 C5 S6 H7", 2), &list, &v), 0);
    }

    #[test]
    fn bombs_of_one_rank_map_by_size_and_a_lead_falls_back_to_the_smallest() {
        let v = view_with("S7 H7 C7 D7 D7 S3", 2);
        let list: Vec<Act> = [
            json!(["Bomb", "7", ["S7", "H7", "C7", "D7"]]),
            json!(["Bomb", "7", ["S7", "H7", "C7", "D7", "D7"]]),
            json!(["Single", "3", ["S3"]]),
            json!(["Single", "7", ["S7"]]),
        ]
        .into_iter()
        .map(act)
        .collect();
        assert_eq!(map_decision(&play(v.hand, "S7 H7 C7 D7 D7", 2), &list, &v), 1);
        assert_eq!(map_decision(&play(v.hand, "S7 H7 C7 D7", 2), &list, &v), 0);
        // A pass on a lead is impossible: the smallest non-bomb instead.
        assert_eq!(map_decision(&ActionKind::Pass, &list, &v), 2);
    }

    #[test]
    fn answers_stay_inside_the_list_and_index_range() {
        let mut b = bot();
        let answer = |b: &mut Bot, v: Value| -> usize {
            let text = b.handle_text(&v.to_string()).expect("an act is answered");
            serde_json::from_str::<Value>(&text).unwrap()["actIndex"].as_u64().unwrap() as usize
        };
        let list = json!([["Single", "4", ["S4"]], ["Single", "7", ["D7"]], ["Single", "9", ["S9"]]]);
        let msg = json!({"type": "act", "stage": "play", "handCards": ["S4", "D7", "S9"], "curRank": "2",
            "actionList": list, "indexRange": 0});
        assert_eq!(answer(&mut b, msg), 0);
        let msg = json!({"type": "act", "stage": "play", "handCards": ["S4", "D7", "S9"], "curRank": "2",
            "actionList": list, "indexRange": "2"});
        assert!(answer(&mut b, msg) <= 2);
        let msg = json!({"type": "act", "stage": "play", "actionList": list, "indexRange": 99});
        assert!(answer(&mut b, msg) < 3);
        let msg = json!({"type": "act", "stage": "back", "handCards": ["S4", "D7", "S9"], "curRank": "2",
            "actionList": [["back", "back", ["S4"]], ["back", "back", ["D7"]]], "indexRange": 1});
        assert!(answer(&mut b, msg) < 2);
        // Notifications and junk get no answer.
        assert_eq!(b.handle_text(r#"{"type":"notify","stage":"play","curPos":1}"#), None);
        assert_eq!(b.handle_text("not json"), None);
        assert_eq!(b.handle_text("[1,2]"), None);
        assert_eq!(b.handle_text(""), None);
    }

    #[test]
    fn notifications_build_the_history_and_the_table() {
        let mut b = bot();
        b.handle_text(r#"{"type":"notify","stage":"beginning","handCards":["S4","D7","S9"],"myPos":2}"#);
        b.handle_text(
            r#"{"type":"notify","stage":"play","curPos":0,"curAction":["Pair","8",["S8","H8"]],"greaterPos":0}"#,
        );
        b.handle_text(r#"{"type":"notify","stage":"play","curPos":1,"curAction":["PASS","PASS","PASS"]}"#);
        // A follow with no greaterAction: the table comes from the notifications.
        let msg: Message = serde_json::from_value(json!({"type": "act", "stage": "play",
            "handCards": ["S4", "D7", "S9", "S9"], "curRank": "2",
            "actionList": [["PASS", "PASS", "PASS"], ["Pair", "9", ["S9", "S9"]]]}))
        .unwrap();
        let list: Vec<Act> = msg.action_list.0.iter().flatten().map(Act::from_value).collect();
        let v = b.view(&msg, &list, Phase::Play).unwrap();
        assert_eq!(v.seat, Some(2));
        let (owner, table) = v.table.unwrap();
        assert_eq!((owner, table.pattern.kind, table.pattern.rank), (0, PlayKind::Pair, 8));
        assert_eq!(v.passes, 1);
        assert_eq!(v.history.len(), 2);
        assert_eq!(v.played.len(), 2);
        assert!(v.played.intersect(v.hand).is_empty());
        assert_eq!(v.card_counts, [25, 27, 4, 27]);
        b.handle_text(r#"{"type":"notify","stage":"episodeOver","order":[0,2,1,3]}"#);
        assert_eq!(b.last_order, Some([0, 2, 1, 3]));
        assert!(b.turns.is_empty());
    }
}
