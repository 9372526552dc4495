//! The `.tres`-friendly resources: `GuandanRules` (every `RuleConfig` option, with the presets;
//! here) and `AiProfile` (level, budget, weights, hint and debug switches; `ai_profile.rs`). Both
//! are tool classes, so the inspector edits them. Enum options are ints with named values in the
//! inspector; the conversions live in plain Rust ([`RulesData`], [`profile_from_parts`]) and are
//! unit-tested.

use godot::classes::{IResource, Resource};
use godot::prelude::*;
use guandan_core::classify;
use guandan_core::rules::{Dealing, PRESETS, RuleConfig};
use serde::Serialize;
use serde::de::DeserializeOwned;

use crate::codes::{self, Fail};

mod ai_profile;

pub use ai_profile::{AiProfileRes, level_defaults, profile_from_parts};

// Names of each enum option, in the order of the ints the inspector shows (serde names of
// guandan-core, so the mapping follows the rules' own JSON).
pub const STRAIGHT_FLUSH_ORDER: [&str; 3] = ["between_five_and_six", "above_all_bombs", "below_all_bombs"];
pub const BOMB_ORDER: [&str; 2] = ["size_first", "rank_first"];
pub const RETURN_FALLBACK: [&str; 2] = ["lowest_card", "no_return"];
pub const TEAMS: [&str; 2] = ["fixed", "random"];
pub const ACE_PASS: [&str; 2] = ["first_not_partner_last", "double_down"];
pub const DOUBLE_TRIBUTE_ROUTING: [&str; 2] = ["by_size", "by_place"];
pub const TRIBUTE_TIE: [&str; 2] = ["next_in_play_order", "next_clockwise"];
pub const RESIST: [&str; 2] = ["jointly", "single_holder"];
pub const TIMEOUT_ACTION: [&str; 1] = ["pass_or_smallest"];

fn enum_index<T: Serialize>(names: &[&str], value: &T) -> i64 {
    let text = serde_json::to_value(value).ok().and_then(|v| v.as_str().map(String::from)).unwrap_or_default();
    names.iter().position(|n| *n == text).map_or(0, |i| i as i64)
}

fn enum_value<T: DeserializeOwned>(names: &[&str], index: i64, field: &str) -> Result<T, String> {
    let name = usize::try_from(index)
        .ok()
        .and_then(|i| names.get(i))
        .ok_or_else(|| format!("{field} = {index} is not one of 0..{}", names.len() - 1))?;
    serde_json::from_value(serde_json::Value::String((*name).to_string())).map_err(|e| format!("{field}: {e}"))
}

fn small(value: i64, field: &str, max: i64) -> Result<u8, String> {
    if (0..=max).contains(&value) { Ok(value as u8) } else { Err(format!("{field} = {value} is not in 0..{max}")) }
}

fn seconds(value: i64, field: &str) -> Result<u32, String> {
    u32::try_from(value).map_err(|_| format!("{field} = {value} is negative or too large"))
}

/// `RuleConfig` flattened into the types of the resource's inspector fields.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RulesData {
    pub name: String,
    pub wild_bomb_purity: bool,
    pub straight_flush_order: i64,
    pub bomb_order: i64,
    pub wilds_as_tribute: bool,
    pub return_max_rank: i64,
    pub return_excludes_level_cards: bool,
    pub return_fallback: i64,
    pub sequences_ace_high: bool,
    pub sequences_ace_low: bool,
    pub wild_count: i64,
    pub teams: i64,
    pub levels_partner_second: i64,
    pub levels_partner_third: i64,
    pub levels_partner_last: i64,
    pub ace_pass: i64,
    pub ace_failures_before_reset: i64,
    pub double_tribute_routing: i64,
    pub tribute_tie: i64,
    pub resist: i64,
    pub announce_threshold: i64,
    pub turn_time_limit_s: i64,
    pub timeout_action: i64,
    pub max_match_minutes: i64,
    pub no_shuffle_packet: i64,
}

impl RulesData {
    pub fn from_config(r: &RuleConfig) -> Self {
        RulesData {
            name: r.name.clone(),
            wild_bomb_purity: r.wild_bomb_purity,
            straight_flush_order: enum_index(&STRAIGHT_FLUSH_ORDER, &r.straight_flush_order),
            bomb_order: enum_index(&BOMB_ORDER, &r.bomb_order),
            wilds_as_tribute: r.wilds_as_tribute,
            return_max_rank: r.return_max_rank.into(),
            return_excludes_level_cards: r.return_excludes_level_cards,
            return_fallback: enum_index(&RETURN_FALLBACK, &r.return_fallback),
            sequences_ace_high: r.sequences_ace_high,
            sequences_ace_low: r.sequences_ace_low,
            wild_count: r.wild_count.into(),
            teams: enum_index(&TEAMS, &r.teams),
            levels_partner_second: r.levels_per_finish[0].into(),
            levels_partner_third: r.levels_per_finish[1].into(),
            levels_partner_last: r.levels_per_finish[2].into(),
            ace_pass: enum_index(&ACE_PASS, &r.ace_pass),
            ace_failures_before_reset: r.ace_failures_before_reset.into(),
            double_tribute_routing: enum_index(&DOUBLE_TRIBUTE_ROUTING, &r.double_tribute_routing),
            tribute_tie: enum_index(&TRIBUTE_TIE, &r.tribute_tie),
            resist: enum_index(&RESIST, &r.resist),
            announce_threshold: r.announce_threshold.into(),
            turn_time_limit_s: r.turn_time_limit_s.into(),
            timeout_action: enum_index(&TIMEOUT_ACTION, &r.timeout_action),
            max_match_minutes: r.max_match_minutes.into(),
            no_shuffle_packet: match r.dealing {
                Dealing::Shuffled => 0,
                Dealing::NoShuffle { packet } => packet.into(),
            },
        }
    }

    /// The rules these fields describe; a readable message naming the first bad field otherwise.
    pub fn to_config(&self) -> Result<RuleConfig, String> {
        let r = RuleConfig {
            name: self.name.clone(),
            wild_bomb_purity: self.wild_bomb_purity,
            straight_flush_order: enum_value(&STRAIGHT_FLUSH_ORDER, self.straight_flush_order, "straight_flush_order")?,
            bomb_order: enum_value(&BOMB_ORDER, self.bomb_order, "bomb_order")?,
            wilds_as_tribute: self.wilds_as_tribute,
            return_max_rank: small(self.return_max_rank, "return_max_rank", 14)?,
            return_excludes_level_cards: self.return_excludes_level_cards,
            return_fallback: enum_value(&RETURN_FALLBACK, self.return_fallback, "return_fallback")?,
            sequences_ace_high: self.sequences_ace_high,
            sequences_ace_low: self.sequences_ace_low,
            wild_count: small(self.wild_count, "wild_count", 2)?,
            teams: enum_value(&TEAMS, self.teams, "teams")?,
            levels_per_finish: [
                small(self.levels_partner_second, "levels_partner_second", 12)?,
                small(self.levels_partner_third, "levels_partner_third", 12)?,
                small(self.levels_partner_last, "levels_partner_last", 12)?,
            ],
            ace_pass: enum_value(&ACE_PASS, self.ace_pass, "ace_pass")?,
            ace_failures_before_reset: small(self.ace_failures_before_reset, "ace_failures_before_reset", 255)?,
            double_tribute_routing: enum_value(
                &DOUBLE_TRIBUTE_ROUTING,
                self.double_tribute_routing,
                "double_tribute_routing",
            )?,
            tribute_tie: enum_value(&TRIBUTE_TIE, self.tribute_tie, "tribute_tie")?,
            resist: enum_value(&RESIST, self.resist, "resist")?,
            announce_threshold: small(self.announce_threshold, "announce_threshold", 27)?,
            turn_time_limit_s: seconds(self.turn_time_limit_s, "turn_time_limit_s")?,
            timeout_action: enum_value(&TIMEOUT_ACTION, self.timeout_action, "timeout_action")?,
            max_match_minutes: seconds(self.max_match_minutes, "max_match_minutes")?,
            dealing: match self.no_shuffle_packet {
                0 => Dealing::Shuffled,
                p => Dealing::NoShuffle { packet: small(p, "no_shuffle_packet", 27)? },
            },
            // Offline matches vote unanimously; only online rooms use the spec's one-opponent rule.
            surrender_opponent_accepts: guandan_core::rules::UNANIMOUS_SURRENDER,
        };
        r.validate()?;
        Ok(r)
    }
}

/// The rules of a match, editable in the inspector and saved as `.tres`
/// (`res://resources/rules/{competition,huaian,house}.tres` are the presets).
///
/// Every option of the Rust `RuleConfig` is a property; enum options are ints whose names the
/// inspector shows. `GuandanEngine.start_match` validates the resource and reports a bad value
/// with error code 12 and a message naming the field.
#[derive(GodotClass)]
#[class(tool, base = Resource)]
pub struct GuandanRules {
    base: Base<Resource>,
    /// Preset or custom name, recorded in saved matches.
    #[export]
    name: GString,
    /// A bomb containing wilds loses to a natural bomb of the same size and rank (house rule).
    #[export]
    #[export_group(name = "Bombs")]
    wild_bomb_purity: bool,
    /// Where straight flushes sit among bombs.
    #[export(enum = (BetweenFiveAndSix = 0, AboveAllBombs = 1, BelowAllBombs = 2))]
    straight_flush_order: i64,
    /// Plain bombs compare by size then rank (competition) or rank then size (house).
    #[export(enum = (SizeFirst = 0, RankFirst = 1))]
    bomb_order: i64,
    /// Wilds may be given as tribute.
    #[export]
    #[export_group(name = "Tribute")]
    wilds_as_tribute: bool,
    /// Highest rank allowed for a return (2–14); 0 = any rank.
    #[export(range = (0.0, 14.0))]
    return_max_rank: i64,
    /// Level cards may not be returned.
    #[export]
    return_excludes_level_cards: bool,
    /// What a receiver returns when no card meets the return limit.
    #[export(enum = (LowestCard = 0, NoReturn = 1))]
    return_fallback: i64,
    /// How the two cards of a double tribute are routed.
    #[export(enum = (BySize = 0, ByPlace = 1))]
    double_tribute_routing: i64,
    /// Who gives to the 1st finisher when both tribute cards are equal.
    #[export(enum = (NextInPlayOrder = 0, NextClockwise = 1))]
    tribute_tie: i64,
    /// Who must hold both big jokers to resist a double tribute.
    #[export(enum = (Jointly = 0, SingleHolder = 1))]
    resist: i64,
    /// Sequences may use the ace high (10JQKA, QQKKAA, KKKAAA).
    #[export]
    #[export_group(name = "Cards")]
    sequences_ace_high: bool,
    /// Sequences may use the ace low (A2345, AA2233, AAA222).
    #[export]
    sequences_ace_low: bool,
    /// How many of the two heart level cards are wild.
    #[export(range = (0.0, 2.0))]
    wild_count: i64,
    /// Fixed seats or a seeded random seating.
    #[export(enum = (Fixed = 0, Random = 1))]
    #[export_group(name = "Match")]
    teams: i64,
    /// Levels gained when the 1st finisher's partner finishes 2nd.
    #[export(range = (0.0, 12.0))]
    levels_partner_second: i64,
    /// Levels gained when the partner finishes 3rd.
    #[export(range = (0.0, 12.0))]
    levels_partner_third: i64,
    /// Levels gained when the partner finishes last.
    #[export(range = (0.0, 12.0))]
    levels_partner_last: i64,
    /// What passing A takes: 1st with the partner not last, or 1st and 2nd.
    #[export(enum = (FirstNotPartnerLast = 0, DoubleDown = 1))]
    ace_pass: i64,
    /// Failed deals at A before the team drops back to 2; 0 = never.
    #[export(range = (0.0, 255.0))]
    ace_failures_before_reset: i64,
    /// Players announce their card count at or below this many cards; 0 = never.
    #[export(range = (0.0, 27.0))]
    announce_threshold: i64,
    /// Seconds per turn; 0 = unlimited. The engine enforces it when `use_turn_timer` is on.
    #[export(range = (0.0, 3600.0, suffix = "s"))]
    #[export_group(name = "Time")]
    turn_time_limit_s: i64,
    /// What happens when a turn times out.
    #[export(enum = (PassOrSmallest = 0))]
    timeout_action: i64,
    /// Maximum match duration in minutes; 0 = unlimited. The engine enforces it when
    /// `use_turn_timer` is on.
    #[export(range = (0.0, 1440.0, suffix = "min"))]
    max_match_minutes: i64,
    /// 0 = shuffled deals; 1, 3, 9 or 27 = no shuffle (不洗牌): each deal after the first is the
    /// previous deal's cards in the order played, cut, and dealt in packets of this many cards.
    #[export(enum = (Shuffled = 0, NoShufflePacketsOf1 = 1, NoShufflePacketsOf3 = 3, NoShufflePacketsOf9 = 9, NoShufflePacketsOf27 = 27))]
    #[export_group(name = "Dealing")]
    no_shuffle_packet: i64,
}

#[godot_api]
impl IResource for GuandanRules {
    fn init(base: Base<Resource>) -> Self {
        let mut rules = GuandanRules::blank(base);
        rules.assign(&RulesData::from_config(&RuleConfig::competition()));
        rules
    }
}

#[godot_api]
impl GuandanRules {
    /// A new resource holding the named preset (`competition`, `huaian`, `house`), or null and a
    /// warning for an unknown name.
    #[func]
    pub fn preset(name: GString) -> Option<Gd<GuandanRules>> {
        match RuleConfig::preset(&name.to_string()) {
            Some(config) => Some(GuandanRules::from_config(&config)),
            None => {
                godot_warn!("GuandanRules.preset: unknown preset {name:?} (known: {})", PRESETS.join(", "));
                None
            }
        }
    }

    /// The preset names.
    #[func]
    pub fn preset_names() -> PackedStringArray {
        PRESETS.iter().map(|p| GString::from(*p)).collect()
    }

    /// Overwrites every option with the named preset; 0, or 12 (bad argument) for an unknown name.
    #[func]
    pub fn apply_preset(&mut self, name: GString) -> i64 {
        match RuleConfig::preset(&name.to_string()) {
            Some(config) => {
                self.set_data(&RulesData::from_config(&config));
                codes::OK
            }
            None => {
                godot_warn!("GuandanRules.apply_preset: unknown preset {name:?}");
                codes::num(guandan_core::error::ErrorCode::BadArgument)
            }
        }
    }

    /// `""` when every option is valid, else a message naming the first bad one.
    #[func]
    pub fn validate(&self) -> GString {
        match self.data().to_config() {
            Ok(_) => GString::new(),
            Err(e) => GString::from(e.as_str()),
        }
    }

    /// The rules as the JSON the Rust side uses (`RuleConfig`); `""` and a warning when invalid.
    #[func]
    pub fn to_json(&self) -> GString {
        match self.config() {
            Ok(c) => GString::from(serde_json::to_string(&c).unwrap_or_default().as_str()),
            Err(e) => {
                godot_warn!("GuandanRules.to_json: {}", e.message);
                GString::new()
            }
        }
    }

    /// Whether `cards` beats `table_cards` at `level` (2–14) under these rules: the table is
    /// read by its default reading, `cards` by the first of its readings that beats it (as
    /// `GuandanEngine.play` does). False, with a warning, for invalid rules or card ids, a level
    /// outside 2–14, or sets that are no combination.
    #[func]
    pub fn beats(&self, cards: PackedInt32Array, table_cards: PackedInt32Array, level: i64) -> bool {
        let checked = (|| {
            let rules = self.config().map_err(|f| f.message)?;
            let level = u8::try_from(level)
                .ok()
                .filter(|l| (2..=14).contains(l))
                .ok_or_else(|| format!("level {level} is not in 2..14"))?;
            let level = guandan_core::Rank(level);
            let a = crate::args::card_set(cards.as_slice()).map_err(|e| e.to_string())?;
            let b = crate::args::card_set(table_cards.as_slice()).map_err(|e| e.to_string())?;
            let table = guandan_core::combo::choose_reading(&classify(b, level, &rules), None, level, &rules)
                .ok_or("table_cards are no combination")?;
            let readings = classify(a, level, &rules);
            if readings.is_empty() {
                return Err("cards are no combination".to_string());
            }
            Ok(guandan_core::combo::choose_reading(&readings, Some(&table), level, &rules).is_some())
        })();
        checked.unwrap_or_else(|e| {
            godot_warn!("GuandanRules.beats: {e}");
            false
        })
    }

    /// Reads options from `RuleConfig` JSON (missing fields take the competition value);
    /// 0, or 12 with a warning when the JSON is bad (the resource is then unchanged).
    #[func]
    pub fn load_json(&mut self, json: GString) -> i64 {
        match RuleConfig::from_json(&json.to_string()) {
            Ok(c) => {
                self.set_data(&RulesData::from_config(&c));
                codes::OK
            }
            Err(e) => {
                godot_warn!("GuandanRules.load_json: {e}");
                codes::num(guandan_core::error::ErrorCode::BadArgument)
            }
        }
    }
}

impl GuandanRules {
    fn blank(base: Base<Resource>) -> Self {
        GuandanRules {
            base,
            name: GString::new(),
            wild_bomb_purity: false,
            straight_flush_order: 0,
            bomb_order: 0,
            wilds_as_tribute: false,
            return_max_rank: 0,
            return_excludes_level_cards: false,
            return_fallback: 0,
            double_tribute_routing: 0,
            tribute_tie: 0,
            resist: 0,
            sequences_ace_high: false,
            sequences_ace_low: false,
            wild_count: 0,
            teams: 0,
            levels_partner_second: 0,
            levels_partner_third: 0,
            levels_partner_last: 0,
            ace_pass: 0,
            ace_failures_before_reset: 0,
            announce_threshold: 0,
            turn_time_limit_s: 0,
            timeout_action: 0,
            max_match_minutes: 0,
            no_shuffle_packet: 0,
        }
    }

    pub fn from_config(config: &RuleConfig) -> Gd<GuandanRules> {
        let mut gd = GuandanRules::new_gd();
        gd.bind_mut().set_data(&RulesData::from_config(config));
        gd
    }

    /// The validated rules, or code 12 with the message.
    pub fn config(&self) -> Result<RuleConfig, Fail> {
        self.data().to_config().map_err(|e| Fail::bad_argument(format!("GuandanRules: {e}")))
    }

    pub fn data(&self) -> RulesData {
        RulesData {
            name: self.name.to_string(),
            wild_bomb_purity: self.wild_bomb_purity,
            straight_flush_order: self.straight_flush_order,
            bomb_order: self.bomb_order,
            wilds_as_tribute: self.wilds_as_tribute,
            return_max_rank: self.return_max_rank,
            return_excludes_level_cards: self.return_excludes_level_cards,
            return_fallback: self.return_fallback,
            sequences_ace_high: self.sequences_ace_high,
            sequences_ace_low: self.sequences_ace_low,
            wild_count: self.wild_count,
            teams: self.teams,
            levels_partner_second: self.levels_partner_second,
            levels_partner_third: self.levels_partner_third,
            levels_partner_last: self.levels_partner_last,
            ace_pass: self.ace_pass,
            ace_failures_before_reset: self.ace_failures_before_reset,
            double_tribute_routing: self.double_tribute_routing,
            tribute_tie: self.tribute_tie,
            resist: self.resist,
            announce_threshold: self.announce_threshold,
            turn_time_limit_s: self.turn_time_limit_s,
            timeout_action: self.timeout_action,
            max_match_minutes: self.max_match_minutes,
            no_shuffle_packet: self.no_shuffle_packet,
        }
    }

    /// Sets every option and tells the inspector.
    pub fn set_data(&mut self, d: &RulesData) {
        self.assign(d);
        self.base_mut().notify_property_list_changed();
    }

    fn assign(&mut self, d: &RulesData) {
        self.name = GString::from(d.name.as_str());
        self.wild_bomb_purity = d.wild_bomb_purity;
        self.straight_flush_order = d.straight_flush_order;
        self.bomb_order = d.bomb_order;
        self.wilds_as_tribute = d.wilds_as_tribute;
        self.return_max_rank = d.return_max_rank;
        self.return_excludes_level_cards = d.return_excludes_level_cards;
        self.return_fallback = d.return_fallback;
        self.sequences_ace_high = d.sequences_ace_high;
        self.sequences_ace_low = d.sequences_ace_low;
        self.wild_count = d.wild_count;
        self.teams = d.teams;
        self.levels_partner_second = d.levels_partner_second;
        self.levels_partner_third = d.levels_partner_third;
        self.levels_partner_last = d.levels_partner_last;
        self.ace_pass = d.ace_pass;
        self.ace_failures_before_reset = d.ace_failures_before_reset;
        self.double_tribute_routing = d.double_tribute_routing;
        self.tribute_tie = d.tribute_tie;
        self.resist = d.resist;
        self.announce_threshold = d.announce_threshold;
        self.turn_time_limit_s = d.turn_time_limit_s;
        self.timeout_action = d.timeout_action;
        self.max_match_minutes = d.max_match_minutes;
        self.no_shuffle_packet = d.no_shuffle_packet;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn presets_survive_the_inspector_fields() {
        for name in PRESETS {
            let config = RuleConfig::preset(name).unwrap();
            assert_eq!(RulesData::from_config(&config).to_config().unwrap(), config, "{name}");
        }
    }

    #[test]
    fn every_rule_option_has_a_field() {
        // A RuleConfig option the resource forgets would silently keep the competition value:
        // flip every option and check it comes back.
        let odd = RuleConfig::from_json(
            r#"{"name":"odd","wild_bomb_purity":true,"straight_flush_order":"below_all_bombs",
            "bomb_order":"rank_first","wilds_as_tribute":true,"return_max_rank":0,
            "return_excludes_level_cards":false,"return_fallback":"no_return","sequences_ace_high":false,
            "sequences_ace_low":false,"wild_count":1,"teams":"random","levels_per_finish":[4,3,2],
            "ace_pass":"double_down","ace_failures_before_reset":5,"double_tribute_routing":"by_place",
            "tribute_tie":"next_clockwise","resist":"single_holder","announce_threshold":3,
            "turn_time_limit_s":12,"timeout_action":"pass_or_smallest","max_match_minutes":40}"#,
        )
        .unwrap();
        let fields = serde_json::to_value(&odd).unwrap().as_object().unwrap().len();
        assert_eq!(fields, 22, "RuleConfig gained or lost an option: update RulesData and GuandanRules");
        assert_eq!(RulesData::from_config(&odd).to_config().unwrap(), odd);
    }

    #[test]
    fn bad_fields_are_named() {
        let mut d = RulesData::from_config(&RuleConfig::competition());
        d.bomb_order = 7;
        assert!(d.to_config().unwrap_err().contains("bomb_order"));
        let mut d = RulesData::from_config(&RuleConfig::competition());
        d.wild_count = 3;
        assert!(d.to_config().unwrap_err().contains("wild_count"));
        let mut d = RulesData::from_config(&RuleConfig::competition());
        d.return_max_rank = 1;
        assert!(d.to_config().is_err());
        let mut d = RulesData::from_config(&RuleConfig::competition());
        d.turn_time_limit_s = -1;
        assert!(d.to_config().unwrap_err().contains("turn_time_limit_s"));
    }
}
