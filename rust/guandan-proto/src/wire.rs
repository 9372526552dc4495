//! What a recipient sees of the match, in wire form: card sets as lists of card ids (0–107), so
//! that every JSON reader (GDScript, JavaScript) gets them exactly — the core's 108-bit sets do
//! not fit a double. Converted from the core's filtered view and events; never built from a
//! whole `Match`.

use guandan_core::card::{CardId, CardSet, Rank};
use guandan_core::combo::{Pattern, Play};
use guandan_core::game::{Event, MatchEndReason, Phase, Seat, Turn};
use guandan_core::rules::RuleConfig;
use guandan_core::view::{PlayerView, SeenTribute};
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
    pub declarer: Option<u8>,
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

/// A rule event on the wire (same names and fields as the core's, plays as [`WirePlay`]).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "event", rename_all = "snake_case")]
pub enum WireEvent {
    DealStarted { deal_no: u32, level: Rank, declarer: Option<u8> },
    TributeRequired { payers: Vec<Seat> },
    Resisted { payers: Vec<Seat> },
    TributeGiven { from: Seat, to: Seat, card: CardId },
    ReturnGiven { from: Seat, to: Seat, card: CardId },
    TurnStarted { seat: Seat, can_pass: bool },
    Played { seat: Seat, play: WirePlay },
    Passed { seat: Seat },
    TableCleared { leader: Seat },
    PartnerTakesLead { seat: Seat },
    CardsLeft { seat: Seat, count: u8 },
    PlayerFinished { seat: Seat, place: u8 },
    DealEnded { order: [Seat; 4], winner_team: u8, levels_before: [Rank; 2], levels_after: [Rank; 2] },
    SurrenderProposed { seat: Seat },
    SurrenderRejected { seat: Seat },
    MatchEnded { winner_team: Option<u8>, reason: MatchEndReason },
}

impl From<&Event> for WireEvent {
    fn from(e: &Event) -> Self {
        match e.clone() {
            Event::DealStarted { deal_no, level, declarer } => WireEvent::DealStarted { deal_no, level, declarer },
            Event::TributeRequired { payers } => WireEvent::TributeRequired { payers },
            Event::Resisted { payers } => WireEvent::Resisted { payers },
            Event::TributeGiven { from, to, card } => WireEvent::TributeGiven { from, to, card },
            Event::ReturnGiven { from, to, card } => WireEvent::ReturnGiven { from, to, card },
            Event::TurnStarted { seat, can_pass } => WireEvent::TurnStarted { seat, can_pass },
            Event::Played { seat, play } => WireEvent::Played { seat, play: WirePlay::from(&play) },
            Event::Passed { seat } => WireEvent::Passed { seat },
            Event::TableCleared { leader } => WireEvent::TableCleared { leader },
            Event::PartnerTakesLead { seat } => WireEvent::PartnerTakesLead { seat },
            Event::CardsLeft { seat, count } => WireEvent::CardsLeft { seat, count },
            Event::PlayerFinished { seat, place } => WireEvent::PlayerFinished { seat, place },
            Event::DealEnded { order, winner_team, levels_before, levels_after } => {
                WireEvent::DealEnded { order, winner_team, levels_before, levels_after }
            }
            Event::SurrenderProposed { seat } => WireEvent::SurrenderProposed { seat },
            Event::SurrenderRejected { seat } => WireEvent::SurrenderRejected { seat },
            Event::MatchEnded { winner_team, reason } => WireEvent::MatchEnded { winner_team, reason },
        }
    }
}

impl WireEvent {
    /// Every card id this event shows.
    pub fn cards(&self) -> CardSet {
        match self {
            WireEvent::Played { play, .. } => CardSet::from_ids(&play.cards),
            WireEvent::TributeGiven { card, .. } | WireEvent::ReturnGiven { card, .. } => CardSet::from_ids(&[*card]),
            WireEvent::DealStarted { .. }
            | WireEvent::TributeRequired { .. }
            | WireEvent::Resisted { .. }
            | WireEvent::TurnStarted { .. }
            | WireEvent::Passed { .. }
            | WireEvent::TableCleared { .. }
            | WireEvent::PartnerTakesLead { .. }
            | WireEvent::CardsLeft { .. }
            | WireEvent::PlayerFinished { .. }
            | WireEvent::DealEnded { .. }
            | WireEvent::SurrenderProposed { .. }
            | WireEvent::SurrenderRejected { .. }
            | WireEvent::MatchEnded { .. } => CardSet::EMPTY,
        }
    }
}
