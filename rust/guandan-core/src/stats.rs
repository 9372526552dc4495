//! Player statistics computed from match records, so the game, the CLI and the server give the
//! same figures. A record is replayed with the one verifier ([`MatchLog::replay_with`]); a
//! damaged record is refused whole and adds nothing.

use crate::card::Card;
use crate::event::{Event, Outcome};
use crate::game::partner_place;
use crate::log::{LogError, MatchLog};
use crate::seat::{Seat, Team, team_of};
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

/// Matches and deals played and won.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Record {
    /// Finished matches (won, lost or drawn): what the match win rate is over.
    pub matches: u32,
    /// Finished matches won (drawn ones count as played only).
    pub matches_won: u32,
    /// Matches left before their end (a training closed midway): neither won nor lost, so they
    /// count in no match figure; their finished deals count as deals.
    #[serde(default)]
    pub unfinished: u32,
    pub deals: u32,
    pub deals_won: u32,
}

/// One player's figures over every record added.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct PlayerStats {
    pub record: Record,
    /// Deals the player's team won 1st and 2nd (双下).
    pub double_downs: u32,
    /// Deals the player's team finished 3rd and 4th.
    pub double_downed: u32,
    /// Decisions with a measured time, and their total.
    pub timed_decisions: u32,
    pub think_ms_total: u64,
    pub plays: u32,
    pub bomb_plays: u32,
    /// Wild cards (逢人配) played standing for another card.
    pub wilds_used: u32,
    /// Deals that began with a tribute paid (not resisted), and those the player's team won.
    pub tribute_deals: u32,
    pub tribute_deals_won: u32,
    /// Levels the player's team gained.
    pub levels_climbed: u32,
    /// The record against each kind of opposition: `vs L1`, `vs L2`, `vs L3`, `vs humans`, `vs mixed`.
    pub by_opponents: BTreeMap<String, Record>,
}

fn rate(n: u32, of: u32) -> f64 {
    if of == 0 { 0.0 } else { f64::from(n) / f64::from(of) }
}

impl PlayerStats {
    pub fn match_win_rate(&self) -> f64 {
        rate(self.record.matches_won, self.record.matches)
    }
    pub fn deal_win_rate(&self) -> f64 {
        rate(self.record.deals_won, self.record.deals)
    }
    pub fn double_down_rate(&self) -> f64 {
        rate(self.double_downs, self.record.deals)
    }
    pub fn double_downed_rate(&self) -> f64 {
        rate(self.double_downed, self.record.deals)
    }
    /// Bombs played per deal played.
    pub fn bombs_per_deal(&self) -> f64 {
        rate(self.bomb_plays, self.record.deals)
    }
    /// Bombs among the player's plays.
    pub fn bomb_rate(&self) -> f64 {
        rate(self.bomb_plays, self.plays)
    }
    pub fn tribute_deal_win_rate(&self) -> f64 {
        rate(self.tribute_deals_won, self.tribute_deals)
    }
    /// Mean thinking time in ms over the timed decisions; 0 when none was timed.
    pub fn mean_think_ms(&self) -> f64 {
        if self.timed_decisions == 0 { 0.0 } else { self.think_ms_total as f64 / f64::from(self.timed_decisions) }
    }
}

/// One record, for lists.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct MatchSummary {
    pub seed: u64,
    pub rules: String,
    pub mode: String,
    pub players: [String; 4],
    pub actions: usize,
    pub deals: u32,
    pub outcome: Option<Outcome>,
    pub team_levels: [u8; 2],
}

/// Statistics of every player over a set of records.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Stats {
    pub players: BTreeMap<String, PlayerStats>,
    pub matches: Vec<MatchSummary>,
}

/// The name statistics file a seat under: the host's name, else `AI Lx (seat n)` for an AI seat,
/// else `Seat n`.
pub fn player_key(log: &MatchLog, seat: Seat) -> String {
    let meta = log.header.meta.as_ref().map(|m| &m.players[seat.index()]);
    match meta {
        Some(p) if !p.name.is_empty() => p.name.clone(),
        Some(p) if p.ai.is_some() => format!("AI {} (seat {seat})", p.ai.as_deref().unwrap_or("")),
        _ => format!("Seat {seat}"),
    }
}

/// The kind of opposition `seat` faced: `vs L2` when both opponents are that AI level.
fn opposition(log: &MatchLog, seat: Seat) -> String {
    let Some(meta) = &log.header.meta else { return "vs unknown".into() };
    let a = &meta.players[seat.after(1).index()].ai;
    let b = &meta.players[seat.after(3).index()].ai;
    match (a, b) {
        (Some(x), Some(y)) if x == y => format!("vs {x}"),
        (None, None) => "vs humans".into(),
        _ => "vs mixed".into(),
    }
}

/// Each seat's figures in one record (replayed and verified whole: a damaged record gives
/// none), for a host that knows who sat where better than the record's names do.
pub fn seat_stats(log: &MatchLog) -> Result<[PlayerStats; 4], LogError> {
    seat_figures(log).map(|(per_seat, _, _)| per_seat)
}

/// Each seat's figures, the final state and the number of deals of one record.
fn seat_figures(log: &MatchLog) -> Result<([PlayerStats; 4], crate::game::Match, u32), LogError> {
    let mut per_seat: [PlayerStats; 4] = Default::default();
    let mut deal_had_tribute = false;
    let mut deals = 0u32;
    let final_state = log.replay_with(|i, action, events, m| {
        let seat = action.seat;
        if let Some(ms) = log.think_ms.get(i).copied().flatten() {
            per_seat[seat.index()].timed_decisions += 1;
            per_seat[seat.index()].think_ms_total += u64::from(ms);
        }
        for e in events {
            match e {
                Event::TributeGiven { .. } => deal_had_tribute = true,
                Event::Played { seat, play } => {
                    let s = &mut per_seat[seat.index()];
                    s.plays += 1;
                    s.bomb_plays += u32::from(play.pattern.kind.is_bomb());
                    if !play.pure {
                        let level = m.level();
                        s.wilds_used += play.cards.iter().filter(|&id| Card::from_id(id).is_wild(level)).count() as u32;
                    }
                }
                Event::DealEnded { order, winner, levels_before, levels_after } => {
                    deals += 1;
                    let double = partner_place(order) == 1;
                    let gained = levels_after[winner.index()].0.saturating_sub(levels_before[winner.index()].0);
                    for (s, st) in Seat::ALL.into_iter().zip(per_seat.iter_mut()) {
                        let won = team_of(s) == *winner;
                        st.record.deals += 1;
                        st.record.deals_won += u32::from(won);
                        st.double_downs += u32::from(won && double);
                        st.double_downed += u32::from(!won && double);
                        st.levels_climbed += if won { u32::from(gained) } else { 0 };
                        if deal_had_tribute {
                            st.tribute_deals += 1;
                            st.tribute_deals_won += u32::from(won);
                        }
                    }
                    deal_had_tribute = false;
                }
                _ => {}
            }
        }
    })?;
    let outcome = final_state.outcome();
    let winner: Option<Team> = outcome.and_then(|o| o.winner());
    for (s, st) in Seat::ALL.into_iter().zip(per_seat.iter_mut()) {
        st.record.matches = u32::from(outcome.is_some());
        st.record.unfinished = u32::from(outcome.is_none());
        st.record.matches_won = u32::from(winner == Some(team_of(s)));
    }
    Ok((per_seat, final_state, deals))
}

impl Stats {
    /// Adds one record (replayed and verified whole first: a damaged record adds nothing).
    pub fn add(&mut self, log: &MatchLog) -> Result<(), LogError> {
        let (per_seat, final_state, deals) = seat_figures(log)?;
        let outcome = final_state.outcome();
        for (seat, mut st) in Seat::ALL.into_iter().zip(per_seat) {
            let vs = st.by_opponents.entry(opposition(log, seat)).or_default();
            *vs = st.record.clone();
            self.players.entry(player_key(log, seat)).or_default().merge(&st);
        }
        self.matches.push(MatchSummary {
            seed: log.header.seed,
            rules: log.header.rules.name.clone(),
            mode: log.header.meta.as_ref().map(|m| m.mode.clone()).unwrap_or_default(),
            players: Seat::ALL.map(|s| player_key(log, s)),
            actions: log.actions.len(),
            deals,
            outcome,
            team_levels: final_state.team_levels().map(|r| r.0),
        });
        Ok(())
    }
}

impl Record {
    fn merge(&mut self, o: &Record) {
        self.matches += o.matches;
        self.matches_won += o.matches_won;
        self.unfinished += o.unfinished;
        self.deals += o.deals;
        self.deals_won += o.deals_won;
    }
}

impl PlayerStats {
    /// Adds another's figures (the same player in another match, or two AI seats of one level).
    pub fn merge(&mut self, o: &PlayerStats) {
        self.record.merge(&o.record);
        self.double_downs += o.double_downs;
        self.double_downed += o.double_downed;
        self.timed_decisions += o.timed_decisions;
        self.think_ms_total += o.think_ms_total;
        self.plays += o.plays;
        self.bomb_plays += o.bomb_plays;
        self.wilds_used += o.wilds_used;
        self.tribute_deals += o.tribute_deals;
        self.tribute_deals_won += o.tribute_deals_won;
        self.levels_climbed += o.levels_climbed;
        for (k, r) in &o.by_opponents {
            self.by_opponents.entry(k.clone()).or_default().merge(r);
        }
    }
}
