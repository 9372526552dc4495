//! `RuleConfig`: every regional or house variant is data here, never an `if` buried elsewhere.

use serde::{Deserialize, Serialize};

/// Where straight flushes sit among bombs.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum StraightFlushOrder {
    /// Competition: 4 < 5 < straight flush < 6 < … < 10 < four jokers.
    BetweenFiveAndSix,
    /// Above every plain bomb, below four jokers.
    AboveAllBombs,
    /// Beats non-bombs only; every plain bomb beats it.
    BelowAllBombs,
}

/// How plain bombs compare with each other.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum BombOrder {
    /// Competition: more cards wins; equal size compares rank.
    SizeFirst,
    /// House rule: higher rank wins; equal rank compares size.
    RankFirst,
}

/// What the 1st-place team must achieve in a deal played at its own A to win the match.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum AcePass {
    /// Competition rules: 1st place with the partner not last.
    FirstNotPartnerLast,
    /// AI competition platform: 1st and 2nd.
    DoubleDown,
}

/// How the two tribute cards of a double tribute are routed.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum DoubleTributeRouting {
    /// The bigger card goes to the 1st finisher, the smaller to the 2nd.
    BySize,
    /// By place regardless of size: last place pays 1st, 3rd place pays 2nd.
    ByPlace,
}

/// Who gives to the 1st finisher when both tribute cards are equal (and who leads).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum TributeTie {
    /// The payer next after the 1st finisher in play order (0→1→2→3).
    NextInPlayOrder,
    /// The payer next after the 1st finisher clockwise (0→3→2→1).
    NextClockwise,
}

/// Who must hold the big jokers for losers to resist tribute after a double-down.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ResistRule {
    /// Competition: the two payers together hold both big jokers.
    Jointly,
    /// Original design: one payer holds both.
    SingleHolder,
}

/// What a receiver returns when no card meets the return limit.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ReturnFallback {
    /// Return the lowest card held (never a wild).
    LowestCard,
    /// No return is made.
    NoReturn,
}

/// Fixed seats (0/2 vs 1/3 are the first players to sit) or a seeded random seating.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Teams {
    Fixed,
    Random,
}

/// What happens when a turn's time limit runs out.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum TimeoutAction {
    /// Pass when following; play the smallest single when leading.
    PassOrSmallest,
}

/// How each deal after the first is dealt.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum Dealing {
    /// A seeded shuffle of both decks, one card at a time (competition).
    Shuffled,
    /// No shuffle (不洗牌): the deck is the previous deal's cards in the order they were played
    /// (then the cards left in hands, seat by seat), cut at a seeded point and dealt in packets
    /// of `packet` cards (1, 3, 9 or 27) from seat 0 round. Played groups stay together, so
    /// bombs are common. The first deal of a match is always shuffled.
    NoShuffle { packet: u8 },
}

impl Dealing {
    pub fn is_shuffled(&self) -> bool {
        *self == Dealing::Shuffled
    }
}

/// The complete, immutable rule set of a match. Hashed into the state hash.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct RuleConfig {
    pub name: String,
    /// A bomb containing wilds loses to a natural bomb of the same size and rank.
    pub wild_bomb_purity: bool,
    pub straight_flush_order: StraightFlushOrder,
    pub bomb_order: BombOrder,
    /// Wilds may be given as tribute (otherwise the payer gives the highest non-wild card).
    pub wilds_as_tribute: bool,
    /// Highest rank allowed for a return; 0 = any rank.
    pub return_max_rank: u8,
    /// Level cards may not be returned.
    pub return_excludes_level_cards: bool,
    pub return_fallback: ReturnFallback,
    /// Sequences may use the ace high (10JQKA, QQKKAA, KKKAAA).
    pub sequences_ace_high: bool,
    /// Sequences may use the ace low (A2345, AA2233, AAA222).
    pub sequences_ace_low: bool,
    /// How many of the two heart level cards are wild (0, 1 or 2).
    pub wild_count: u8,
    pub teams: Teams,
    /// Levels gained by the 1st finisher's team when the partner finishes 2nd, 3rd, 4th.
    pub levels_per_finish: [u8; 3],
    pub ace_pass: AcePass,
    /// Failed deals at A before the team drops back to 2; 0 = never drops.
    pub ace_failures_before_reset: u8,
    pub double_tribute_routing: DoubleTributeRouting,
    pub tribute_tie: TributeTie,
    pub resist: ResistRule,
    /// Players announce their card count at or below this many cards (0 = never).
    pub announce_threshold: u8,
    /// Seconds per turn, 0 = unlimited. Enforced by the host, which submits `Timeout`.
    pub turn_time_limit_s: u32,
    pub timeout_action: TimeoutAction,
    /// Maximum match duration in minutes, 0 = unlimited. Enforced by the host (`TimeUp`).
    pub max_match_minutes: u32,
    /// Left out of the encoding when shuffled, so rule sets (and state hashes) saved before
    /// this option existed read and hash the same.
    #[serde(skip_serializing_if = "Dealing::is_shuffled")]
    pub dealing: Dealing,
    /// Opponents who must accept a surrender (after the proposer's partner agreed): 2 = both
    /// (unanimous, the offline presets), 1 = at least one (the design spec's online rule; the
    /// server's rooms use it). Left out of the encoding at 2 and read as 2 when absent, so rule
    /// sets and state hashes recorded before this option existed are unchanged.
    #[serde(default = "unanimous_surrender", skip_serializing_if = "is_unanimous_surrender")]
    pub surrender_opponent_accepts: u8,
}

/// What every match recorded before `surrender_opponent_accepts` existed implied.
pub const UNANIMOUS_SURRENDER: u8 = 2;

fn unanimous_surrender() -> u8 {
    UNANIMOUS_SURRENDER
}

fn is_unanimous_surrender(v: &u8) -> bool {
    *v == UNANIMOUS_SURRENDER
}

impl Default for RuleConfig {
    fn default() -> Self {
        RuleConfig::competition()
    }
}

/// The revision of the rules engine's behaviour. A fix that changes what a recorded match would
/// replay to gets a new revision; records name the revision they were played under (absent = 1)
/// and replay under it, so no stored match changes or becomes unreadable.
/// - 1: the first engine. A team that reached its failure limit at A in a deal it won itself
///   (1st place, partner last) dropped to 2 and then gained the deal's levels (played 3).
/// - 2: the drop to 2 replaces the deal's gain (docs/rules.md §7).
pub const RULES_REVISION: u32 = 2;

/// The revision of records that name none: those made before revisions existed.
pub const FIRST_RULES_REVISION: u32 = 1;

/// A revision this build can play: 1 to [`RULES_REVISION`].
pub fn check_revision(revision: u32) -> Result<(), String> {
    if (FIRST_RULES_REVISION..=RULES_REVISION).contains(&revision) {
        Ok(())
    } else {
        Err(format!("rules revision {revision} is not known to this build (it knows 1 to {RULES_REVISION})"))
    }
}

/// Names accepted by [`RuleConfig::preset`].
pub const PRESETS: [&str; 4] = ["competition", "huaian", "house", "no_shuffle"];

impl RuleConfig {
    /// The official competition rules (default).
    pub fn competition() -> Self {
        RuleConfig {
            name: "competition".into(),
            wild_bomb_purity: false,
            straight_flush_order: StraightFlushOrder::BetweenFiveAndSix,
            bomb_order: BombOrder::SizeFirst,
            wilds_as_tribute: false,
            return_max_rank: 10,
            return_excludes_level_cards: true,
            return_fallback: ReturnFallback::LowestCard,
            sequences_ace_high: true,
            sequences_ace_low: true,
            wild_count: 2,
            teams: Teams::Fixed,
            levels_per_finish: [3, 2, 1],
            ace_pass: AcePass::FirstNotPartnerLast,
            ace_failures_before_reset: 3,
            double_tribute_routing: DoubleTributeRouting::BySize,
            tribute_tie: TributeTie::NextInPlayOrder,
            resist: ResistRule::Jointly,
            announce_threshold: 10,
            turn_time_limit_s: 30,
            timeout_action: TimeoutAction::PassOrSmallest,
            max_match_minutes: 0,
            dealing: Dealing::Shuffled,
            surrender_opponent_accepts: UNANIMOUS_SURRENDER,
        }
    }

    /// The Huai'an rules as used by the Guandan AI competition platform.
    pub fn huaian() -> Self {
        RuleConfig {
            name: "huaian".into(),
            ace_pass: AcePass::DoubleDown,
            ace_failures_before_reset: 0,
            return_fallback: ReturnFallback::NoReturn,
            ..RuleConfig::competition()
        }
    }

    /// House rules of the original design specification.
    pub fn house() -> Self {
        RuleConfig {
            name: "house".into(),
            wild_bomb_purity: true,
            bomb_order: BombOrder::RankFirst,
            straight_flush_order: StraightFlushOrder::AboveAllBombs,
            resist: ResistRule::SingleHolder,
            ace_failures_before_reset: 0,
            ..RuleConfig::competition()
        }
    }

    /// Competition rules dealt without shuffling (不洗牌), in packets of three.
    pub fn no_shuffle() -> Self {
        RuleConfig { name: "no_shuffle".into(), dealing: Dealing::NoShuffle { packet: 3 }, ..RuleConfig::competition() }
    }

    pub fn preset(name: &str) -> Option<Self> {
        match name {
            "competition" => Some(Self::competition()),
            "huaian" => Some(Self::huaian()),
            "house" => Some(Self::house()),
            "no_shuffle" => Some(Self::no_shuffle()),
            _ => None,
        }
    }

    /// Checks values a loader could get wrong.
    pub fn validate(&self) -> Result<(), String> {
        if self.wild_count > 2 {
            return Err(format!("wild_count {} is not 0, 1 or 2", self.wild_count));
        }
        if self.return_max_rank != 0 && !(2..=14).contains(&self.return_max_rank) {
            return Err(format!("return_max_rank {} is not 0 or 2-14", self.return_max_rank));
        }
        if self.levels_per_finish.iter().any(|&l| l > 12) {
            return Err("levels_per_finish entries must be 0-12".into());
        }
        if let Dealing::NoShuffle { packet } = self.dealing
            && !matches!(packet, 1 | 3 | 9 | 27)
        {
            return Err(format!("dealing packet {packet} is not 1, 3, 9 or 27 (27 cards a hand)"));
        }
        if !matches!(self.surrender_opponent_accepts, 1 | 2) {
            return Err(format!("surrender_opponent_accepts {} is not 1 or 2", self.surrender_opponent_accepts));
        }
        Ok(())
    }

    /// Canonical bytes for the state hash (serde field order is the declaration order).
    pub fn canonical_bytes(&self) -> Vec<u8> {
        serde_json::to_vec(self).unwrap_or_default()
    }

    pub fn from_json(text: &str) -> Result<Self, String> {
        let r: RuleConfig = serde_json::from_str(text).map_err(|e| e.to_string())?;
        r.validate()?;
        Ok(r)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn presets_round_trip_and_differ() {
        for name in PRESETS {
            let r = RuleConfig::preset(name).unwrap();
            assert_eq!(r.name, name);
            r.validate().unwrap();
            let back = RuleConfig::from_json(&serde_json::to_string(&r).unwrap()).unwrap();
            assert_eq!(back, r);
        }
        assert_ne!(RuleConfig::competition().canonical_bytes(), RuleConfig::house().canonical_bytes());
    }

    #[test]
    fn loader_rejects_bad_values_and_unknown_fields() {
        assert!(RuleConfig::from_json(r#"{"wild_count": 3}"#).is_err());
        assert!(RuleConfig::from_json(r#"{"no_such_option": true}"#).is_err());
        assert!(RuleConfig::from_json(r#"{"return_max_rank": 1}"#).is_err());
        assert_eq!(RuleConfig::from_json("{}").unwrap(), RuleConfig::competition());
        assert!(RuleConfig::from_json(r#"{"dealing": {"kind": "no_shuffle", "packet": 4}}"#).is_err());
    }

    #[test]
    fn shuffled_dealing_is_left_out_of_the_encoding() {
        let text = serde_json::to_string(&RuleConfig::competition()).unwrap();
        assert!(!text.contains("dealing"), "old rule sets must keep their encoding (and hashes)");
        let ns = serde_json::to_string(&RuleConfig::no_shuffle()).unwrap();
        assert!(ns.contains(r#""dealing":{"kind":"no_shuffle","packet":3}"#), "{ns}");
    }

    #[test]
    fn unanimous_surrender_is_left_out_of_the_encoding() {
        let text = serde_json::to_string(&RuleConfig::competition()).unwrap();
        assert!(!text.contains("surrender"), "old rule sets must keep their encoding (and hashes)");
        let one = RuleConfig { surrender_opponent_accepts: 1, ..RuleConfig::competition() };
        let text = serde_json::to_string(&one).unwrap();
        assert!(text.ends_with(r#""surrender_opponent_accepts":1}"#), "{text}");
        assert_eq!(RuleConfig::from_json(&text).unwrap(), one);
        assert!(RuleConfig::from_json(r#"{"surrender_opponent_accepts": 3}"#).is_err());
        assert!(RuleConfig::from_json(r#"{"surrender_opponent_accepts": 0}"#).is_err());
    }
}
