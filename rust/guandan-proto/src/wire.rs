//! What a recipient sees of the match, in wire form: card sets as lists of card ids (0–107), so
//! that every JSON reader (GDScript, JavaScript) gets them exactly — the core's 108-bit sets do
//! not fit a double. Converted from the core's filtered view and events; never built from a
//! whole `Match`.

use guandan_core::card::{CardId, CardSet, Rank};
use guandan_core::combo::{Pattern, Play};
use guandan_core::game::{Outcome, Phase, Seat, Team, Turn};
use guandan_core::rules::RuleConfig;
use guandan_core::view::{PlayerView, SeenTribute};
use guandan_runtime::Out;
use serde::{Deserialize, Serialize};

/// A play on the wire.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct WirePlay {
    pub cards: Vec<CardId>,
    pub pattern: Pattern,
    pub pure: bool,
}

impl From<&Play> for WirePlay {
    fn from(p: &Play) -> Self {
        WirePlay { cards: p.cards.ids(), pattern: p.pattern, pure: p.pure }
    }
}

impl WirePlay {
    pub fn to_play(&self) -> Play {
        Play { pattern: self.pattern, cards: CardSet::from_ids(&self.cards), pure: self.pure }
    }
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct WireTurn {
    pub seat: Seat,
    pub play: Option<WirePlay>,
}

/// [`PlayerView`] on the wire (`seat` None = spectator: `hand` is empty).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct TableView {
    pub seat: Option<Seat>,
    pub rules: RuleConfig,
    pub seq: u64,
    pub deal_no: u32,
    pub phase: Phase,
    pub level: Rank,
    pub team_levels: [Rank; 2],
    pub declarer: Option<Team>,
    pub hand: Vec<CardId>,
    pub card_counts: [u8; 4],
    pub turn: Seat,
    pub to_act: Vec<Seat>,
    pub table: Option<(Seat, WirePlay)>,
    pub passes: u8,
    pub finished: Vec<Seat>,
    pub last_order: Option<[Seat; 4]>,
    pub history: Vec<WireTurn>,
    pub played: Vec<CardId>,
    pub tributes: Vec<SeenTribute>,
    pub tribute_options: Vec<CardId>,
    pub return_options: Vec<CardId>,
}

impl From<&PlayerView> for TableView {
    fn from(v: &PlayerView) -> Self {
        TableView {
            seat: v.seat,
            rules: v.rules.clone(),
            seq: v.seq,
            deal_no: v.deal_no,
            phase: v.phase,
            level: v.level,
            team_levels: v.team_levels,
            declarer: v.declarer,
            hand: v.hand.ids(),
            card_counts: v.card_counts,
            turn: v.turn,
            to_act: v.to_act.clone(),
            table: v.table.as_ref().map(|(s, p)| (*s, WirePlay::from(p))),
            passes: v.passes,
            finished: v.finished.clone(),
            last_order: v.last_order,
            history: v
                .history
                .iter()
                .map(|t| WireTurn { seat: t.seat, play: t.play.as_ref().map(WirePlay::from) })
                .collect(),
            played: v.played.ids(),
            tributes: v.tributes.clone(),
            tribute_options: v.tribute_options.ids(),
            return_options: v.return_options.ids(),
        }
    }
}

impl TableView {
    /// Back to the core's view (clients feed it to an agent or the move advisor).
    pub fn to_player_view(&self) -> PlayerView {
        PlayerView {
            seat: self.seat,
            rules: self.rules.clone(),
            seq: self.seq,
            deal_no: self.deal_no,
            phase: self.phase,
            level: self.level,
            team_levels: self.team_levels,
            declarer: self.declarer,
            hand: CardSet::from_ids(&self.hand),
            card_counts: self.card_counts,
            turn: self.turn,
            to_act: self.to_act.clone(),
            table: self.table.as_ref().map(|(s, p)| (*s, p.to_play())),
            passes: self.passes,
            finished: self.finished.clone(),
            last_order: self.last_order,
            history: self
                .history
                .iter()
                .map(|t| Turn { seat: t.seat, play: t.play.as_ref().map(WirePlay::to_play) })
                .collect(),
            played: CardSet::from_ids(&self.played),
            tributes: self.tributes.clone(),
            tribute_options: CardSet::from_ids(&self.tribute_options),
            return_options: CardSet::from_ids(&self.return_options),
        }
    }

    /// Every card id this view shows.
    pub fn cards(&self) -> CardSet {
        let mut s = CardSet::from_ids(&self.hand)
            .union(CardSet::from_ids(&self.played))
            .union(CardSet::from_ids(&self.tribute_options))
            .union(CardSet::from_ids(&self.return_options));
        for p in self.table.iter().map(|t| &t.1).chain(self.history.iter().filter_map(|t| t.play.as_ref())) {
            s = s.union(CardSet::from_ids(&p.cards));
        }
        for t in &self.tributes {
            for c in [t.card, t.returned].into_iter().flatten() {
                s = s.with(c);
            }
        }
        s
    }
}

/// A runtime notice on the wire: the runtime's [`Out`] with hands and plays as card-id lists.
/// The server sends only what `guandan_runtime::for_viewer` lets the recipient have.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "event", rename_all = "snake_case")]
pub enum WireOut {
    MatchStarted { seed: u64 },
    DealStarted { deal_no: u32, level: Rank, declarer: Option<Team> },
    HandChanged { seat: Seat, hand: Vec<CardId> },
    TributePhase { payers: Vec<Seat>, resisted: bool },
    TributeGiven { from: Seat, to: Seat, card: Option<CardId> },
    ReturnPhase { receivers: Vec<Seat> },
    ReturnGiven { from: Seat, to: Seat, card: Option<CardId> },
    TurnStarted { seat: Seat, can_pass: bool, time_limit_s: f64 },
    CardsPlayed { seat: Seat, play: WirePlay },
    Passed { seat: Seat },
    TableCleared { leader: Seat },
    PartnerTakesLead { seat: Seat },
    CardsLeft { seat: Seat, count: u8 },
    PlayerFinished { seat: Seat, place: u8 },
    DealEnded { order: [Seat; 4], winner: Team, levels_before: [Rank; 2], levels_after: [Rank; 2] },
    SurrenderProposed { seat: Seat },
    SurrenderVoted { seat: Seat, accept: bool },
    MatchEnded { outcome: Outcome },
    ControllerChanged { seat: Seat, ai: bool },
    AiDecided { seat: Seat, elapsed_ms: f64, fell_back: bool },
    TimedOut { seat: Seat },
}

impl From<&Out> for WireOut {
    fn from(o: &Out) -> Self {
        match o.clone() {
            Out::MatchStarted { seed } => WireOut::MatchStarted { seed },
            Out::DealStarted { deal_no, level, declarer } => WireOut::DealStarted { deal_no, level, declarer },
            Out::HandChanged { seat, hand } => WireOut::HandChanged { seat, hand: hand.ids() },
            Out::TributePhase { payers, resisted } => WireOut::TributePhase { payers, resisted },
            Out::TributeGiven { from, to, card } => WireOut::TributeGiven { from, to, card },
            Out::ReturnPhase { receivers } => WireOut::ReturnPhase { receivers },
            Out::ReturnGiven { from, to, card } => WireOut::ReturnGiven { from, to, card },
            Out::TurnStarted { seat, can_pass, time_limit_s } => WireOut::TurnStarted { seat, can_pass, time_limit_s },
            Out::CardsPlayed { seat, play } => WireOut::CardsPlayed { seat, play: WirePlay::from(&play) },
            Out::Passed { seat } => WireOut::Passed { seat },
            Out::TableCleared { leader } => WireOut::TableCleared { leader },
            Out::PartnerTakesLead { seat } => WireOut::PartnerTakesLead { seat },
            Out::CardsLeft { seat, count } => WireOut::CardsLeft { seat, count },
            Out::PlayerFinished { seat, place } => WireOut::PlayerFinished { seat, place },
            Out::DealEnded { order, winner, levels_before, levels_after } => {
                WireOut::DealEnded { order, winner, levels_before, levels_after }
            }
            Out::SurrenderProposed { seat } => WireOut::SurrenderProposed { seat },
            Out::SurrenderVoted { seat, accept } => WireOut::SurrenderVoted { seat, accept },
            Out::MatchEnded { outcome } => WireOut::MatchEnded { outcome },
            Out::ControllerChanged { seat, ai } => WireOut::ControllerChanged { seat, ai },
            Out::AiDecided { seat, elapsed_ms, fell_back } => WireOut::AiDecided { seat, elapsed_ms, fell_back },
            Out::TimedOut { seat } => WireOut::TimedOut { seat },
        }
    }
}

impl WireOut {
    /// Every card id this notice shows.
    pub fn cards(&self) -> CardSet {
        match self {
            WireOut::HandChanged { hand, .. } => CardSet::from_ids(hand),
            WireOut::CardsPlayed { play, .. } => CardSet::from_ids(&play.cards),
            WireOut::TributeGiven { card, .. } | WireOut::ReturnGiven { card, .. } => {
                card.map_or(CardSet::EMPTY, |c| CardSet::from_ids(&[c]))
            }
            WireOut::MatchStarted { .. }
            | WireOut::DealStarted { .. }
            | WireOut::TributePhase { .. }
            | WireOut::ReturnPhase { .. }
            | WireOut::TurnStarted { .. }
            | WireOut::Passed { .. }
            | WireOut::TableCleared { .. }
            | WireOut::PartnerTakesLead { .. }
            | WireOut::CardsLeft { .. }
            | WireOut::PlayerFinished { .. }
            | WireOut::DealEnded { .. }
            | WireOut::SurrenderProposed { .. }
            | WireOut::SurrenderVoted { .. }
            | WireOut::MatchEnded { .. }
            | WireOut::ControllerChanged { .. }
            | WireOut::AiDecided { .. }
            | WireOut::TimedOut { .. } => CardSet::EMPTY,
        }
    }
}
