//! `PlayerStatistics` and its parts: the player statistics over the saved records
//! (`ReplayRecorder.stats()`), the figures `guandan stats` gives, as typed values.

use std::collections::BTreeMap;

use godot::prelude::*;
use guandan_core::stats::{MatchSummary, PlayerStats, Record};

use crate::stats_store::{Damaged, StatsFile};

fn strings<'a>(items: impl IntoIterator<Item = &'a String>) -> PackedStringArray {
    items.into_iter().map(|s| GString::from(s.as_str())).collect()
}

/// Matches and deals played and won (a player's, or against one kind of opposition).
#[derive(GodotClass)]
#[class(no_init, base = RefCounted)]
pub struct StatsRecord {
    /// Finished matches (won, lost or drawn).
    #[var(no_set)]
    matches: i64,
    /// Finished matches won.
    #[var(no_set)]
    matches_won: i64,
    /// Matches left before their end (neither won nor lost).
    #[var(no_set)]
    unfinished: i64,
    #[var(no_set)]
    deals: i64,
    #[var(no_set)]
    deals_won: i64,
}

impl StatsRecord {
    fn make(r: &Record) -> Gd<StatsRecord> {
        Gd::from_object(StatsRecord {
            matches: i64::from(r.matches),
            matches_won: i64::from(r.matches_won),
            unfinished: i64::from(r.unfinished),
            deals: i64::from(r.deals),
            deals_won: i64::from(r.deals_won),
        })
    }
}

#[godot_api]
impl StatsRecord {
    /// A record from plain counts (tests, tools); negative counts are taken as 0.
    #[func]
    pub fn of(matches: i64, matches_won: i64, unfinished: i64, deals: i64, deals_won: i64) -> Gd<StatsRecord> {
        let n = |x: i64| x.max(0);
        Gd::from_object(StatsRecord {
            matches: n(matches),
            matches_won: n(matches_won),
            unfinished: n(unfinished),
            deals: n(deals),
            deals_won: n(deals_won),
        })
    }
}

/// One player's figures over every saved record.
#[derive(GodotClass)]
#[class(no_init, base = RefCounted)]
pub struct PlayerFigures {
    #[var(no_set)]
    record: Gd<StatsRecord>,
    /// Deals the player's team finished 1st and 2nd (双下), and 3rd and 4th.
    #[var(no_set)]
    double_downs: i64,
    #[var(no_set)]
    double_downed: i64,
    /// Decisions with a measured time, and their total in ms.
    #[var(no_set)]
    timed_decisions: i64,
    #[var(no_set)]
    think_ms_total: i64,
    #[var(no_set)]
    plays: i64,
    #[var(no_set)]
    bomb_plays: i64,
    /// Wild cards played standing for another card.
    #[var(no_set)]
    wilds_used: i64,
    /// Deals that began with a tribute paid, and those the player's team won.
    #[var(no_set)]
    tribute_deals: i64,
    #[var(no_set)]
    tribute_deals_won: i64,
    /// Levels the player's team gained.
    #[var(no_set)]
    levels_climbed: i64,
    /// The kinds of opposition met (`vs L1`, `vs L2`, `vs L3`, `vs humans`, `vs mixed`).
    #[var(no_set)]
    oppositions: PackedStringArray,
    by_opponents: BTreeMap<String, Record>,
}

impl PlayerFigures {
    fn make(p: &PlayerStats) -> Gd<PlayerFigures> {
        Gd::from_object(PlayerFigures {
            record: StatsRecord::make(&p.record),
            double_downs: i64::from(p.double_downs),
            double_downed: i64::from(p.double_downed),
            timed_decisions: i64::from(p.timed_decisions),
            think_ms_total: i64::try_from(p.think_ms_total).unwrap_or(i64::MAX),
            plays: i64::from(p.plays),
            bomb_plays: i64::from(p.bomb_plays),
            wilds_used: i64::from(p.wilds_used),
            tribute_deals: i64::from(p.tribute_deals),
            tribute_deals_won: i64::from(p.tribute_deals_won),
            levels_climbed: i64::from(p.levels_climbed),
            oppositions: strings(p.by_opponents.keys()),
            by_opponents: p.by_opponents.clone(),
        })
    }
}

#[godot_api]
impl PlayerFigures {
    /// The record against one kind of opposition (`vs L2`, …); null when never met.
    #[func]
    pub fn against(&self, opposition: GString) -> Option<Gd<StatsRecord>> {
        self.by_opponents.get(&opposition.to_string()).map(StatsRecord::make)
    }
}

/// One saved record, for lists.
#[derive(GodotClass)]
#[class(no_init, base = RefCounted)]
pub struct RecordSummary {
    /// The record's name (`ReplayRecorder.load` takes it).
    #[var(no_set)]
    record: GString,
    /// The rules preset and the table's mode (`training`, `ranked`, …; `""` when not kept).
    #[var(no_set)]
    rules: GString,
    #[var(no_set)]
    mode: GString,
    /// Who sat where (statistics names: the player's, `AI L2 (seat 1)`, …).
    #[var(no_set)]
    players: PackedStringArray,
    #[var(no_set)]
    actions: i64,
    #[var(no_set)]
    deals: i64,
    /// The match reached its end (won or drawn).
    #[var(no_set)]
    finished: bool,
    /// The winning team (0/1); -1 for a draw or an unfinished match.
    #[var(no_set)]
    winner_team: i64,
    /// Both teams' levels at the end `[team 0, team 1]`.
    #[var(no_set)]
    team_levels: PackedInt32Array,
}

impl RecordSummary {
    fn make(record: &str, m: &MatchSummary) -> Gd<RecordSummary> {
        Gd::from_object(RecordSummary {
            record: record.into(),
            rules: m.rules.as_str().into(),
            mode: m.mode.as_str().into(),
            players: strings(&m.players),
            actions: m.actions as i64,
            deals: i64::from(m.deals),
            finished: m.outcome.is_some(),
            winner_team: m.outcome.and_then(|o| o.winner()).map_or(-1, |t| i64::from(u8::from(t))),
            team_levels: m.team_levels.iter().map(|&l| i32::from(l)).collect(),
        })
    }
}

#[godot_api]
impl RecordSummary {
    /// An unfinished match's summary from plain values (tests, tools): no players, no actions.
    #[func]
    pub fn of(record: GString, mode: GString, deals: i64, team_levels: PackedInt32Array) -> Gd<RecordSummary> {
        Gd::from_object(RecordSummary {
            record,
            rules: GString::new(),
            mode,
            players: PackedStringArray::new(),
            actions: 0,
            deals: deals.max(0),
            finished: false,
            winner_team: -1,
            team_levels,
        })
    }
}

/// A record that could not be counted.
#[derive(GodotClass)]
#[class(no_init, base = RefCounted)]
pub struct DamagedRecord {
    #[var(no_set)]
    name: GString,
    /// Its error code (`GuandanEngine.ERR_*`) and message.
    #[var(no_set)]
    code: i64,
    #[var(no_set)]
    error: GString,
}

/// The player statistics over every saved record.
#[derive(GodotClass)]
#[class(no_init, base = RefCounted)]
pub struct PlayerStatistics {
    /// `stored`, `rebuilt`, `missing` or `repaired` (how the statistics file was obtained).
    #[var(no_set)]
    origin: GString,
    /// Why the file could not be written, else `""`.
    #[var(no_set)]
    error: GString,
    /// The statistics file's absolute path.
    #[var(no_set)]
    path: GString,
    /// The records counted, oldest first.
    #[var(no_set)]
    matches: Array<Gd<RecordSummary>>,
    /// The records that could not be counted.
    #[var(no_set)]
    damaged: Array<Gd<DamagedRecord>>,
    /// Every player named in the records.
    #[var(no_set)]
    players: PackedStringArray,
    figures: BTreeMap<String, PlayerStats>,
}

impl PlayerStatistics {
    pub fn make(file: &StatsFile, origin: &str, error: &str, path: &str) -> Gd<PlayerStatistics> {
        let damaged = |d: &Damaged| {
            Gd::from_object(DamagedRecord {
                name: d.name.as_str().into(),
                code: d.code,
                error: d.error.as_str().into(),
            })
        };
        Gd::from_object(PlayerStatistics {
            origin: origin.into(),
            error: error.into(),
            path: path.into(),
            matches: file.records.iter().zip(&file.stats.matches).map(|(r, m)| RecordSummary::make(r, m)).collect(),
            damaged: file.damaged.iter().map(damaged).collect(),
            players: strings(file.stats.players.keys()),
            figures: file.stats.players.clone(),
        })
    }
}

#[godot_api]
impl PlayerStatistics {
    /// A player's figures; null when the records do not name them.
    #[func]
    pub fn player(&self, name: GString) -> Option<Gd<PlayerFigures>> {
        self.figures.get(&name.to_string()).map(PlayerFigures::make)
    }

    /// The record summary of record `name`; null when it is not counted.
    #[func]
    pub fn summary(&self, name: GString) -> Option<Gd<RecordSummary>> {
        self.matches.iter_shared().find(|m| m.bind().record == name)
    }
}
