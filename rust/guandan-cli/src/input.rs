//! Reading the command line's values: rules presets or files, cards, AI contestants; and the
//! usage error every command reports bad input with (message on stderr, exit code 2).

use guandan_ai::{AiLevel, AiProfile};
use guandan_core::card::CardSet;
use guandan_core::game::Seat;
use guandan_core::rules::{PRESETS, RuleConfig};

/// A usage error: message on stderr, exit code 2.
pub struct Usage(pub String);

impl<E: std::fmt::Display> From<E> for Usage {
    fn from(e: E) -> Self {
        Usage(e.to_string())
    }
}

/// An arena contestant: `L1`–`L3` (today's: L2 is `L2+`, L2 with the learned ranker of issue
/// 40), `L2v1`/`L3v1` (the agents before issue 11), `L2v2`/`L3v2` (before issue 25; `L2v2` is L2
/// without the ranker, `L3v3` another name of today's L3 search), `L2+` or a JSON `AiProfile` file
/// (absent fields take the defaults); `L2gN` is L2 with ranker generation N; `L4` the desktop
/// level (L3's search on 2 threads with a larger budget); `L3xN` L3 with N times its budget.
pub fn arena_profile(name: &str) -> Result<AiProfile, Usage> {
    let profile = named_profile(name)?;
    let committed = guandan_ai::ranker::agent::COMMITTED;
    if profile.ranker_generation > committed {
        return Err(Usage(format!(
            "{name}: ranker_generation {} is not committed (1 to {committed}, or 0 for today's)",
            profile.ranker_generation
        )));
    }
    Ok(profile)
}

fn named_profile(name: &str) -> Result<AiProfile, Usage> {
    if let Some(n) = name.strip_prefix("L2g").and_then(|n| n.parse::<u8>().ok()).filter(|&n| n > 0) {
        return Ok(AiProfile { ranker: true, ranker_generation: n, ..AiProfile::level(AiLevel::L2) });
    }
    if name == "L2+" {
        return Ok(AiProfile { ranker: true, ..AiProfile::level(AiLevel::L2) });
    }
    if name == "L4" {
        return Ok(AiProfile::desktop());
    }
    if let Some(scale) = name.strip_prefix("L3x") {
        return match scale.parse::<f32>() {
            Ok(x) if x.is_finite() && (0.01..=100.0).contains(&x) => Ok(AiProfile::l3_scaled(x)),
            _ => Err(Usage(format!("{name}: L3xN takes a budget scale N between 0.01 and 100 (L3x2.5)"))),
        };
    }
    if name == "L3v3" {
        return Ok(AiProfile::v2(AiLevel::L3));
    }
    if let Some(level) = AiLevel::parse(name) {
        return Ok(AiProfile::level(level));
    }
    if let Some(level) = name.strip_suffix("v1").and_then(AiLevel::parse) {
        return Ok(AiProfile::v1(level));
    }
    if let Some(level) = name.strip_suffix("v2").and_then(AiLevel::parse) {
        return Ok(AiProfile::v2(level));
    }
    if name.ends_with(".json") {
        let text = std::fs::read_to_string(name).map_err(|e| Usage(format!("cannot read {name}: {e}")))?;
        return serde_json::from_str(&text).map_err(|e| Usage(format!("{name} is not an AiProfile: {e}")));
    }
    Err(Usage(format!(
        "unknown AI {name:?}: use L1, L2, L3, L4 (desktop: 2 threads), L3x2 (L3 at twice its budget), L2v1, L3v1, L2v2, L3v2, L3v3, L2+, L2g1 (L2 with ranker generation 1) or a profile .json file"
    )))
}

pub fn rules_arg(name: &str) -> Result<RuleConfig, Usage> {
    if let Some(r) = RuleConfig::preset(name) {
        return Ok(r);
    }
    if name.ends_with(".json") {
        let text = std::fs::read_to_string(name).map_err(|e| Usage(format!("cannot read {name}: {e}")))?;
        return RuleConfig::from_json(&text).map_err(|e| Usage(format!("{name}: {e}")));
    }
    Err(Usage(format!("unknown rules {name:?}: use one of {} or a .json file", PRESETS.join(", "))))
}

/// A seat on the command line: 0–3, anything else refused with the range.
pub fn seat_arg(text: &str) -> Result<Seat, String> {
    let n: i64 = text.trim().parse().map_err(|_| format!("seat {text:?} is not a number 0-3"))?;
    Seat::try_from(n).map_err(|e| e.to_string())
}

pub fn cards_arg(text: &str) -> Result<CardSet, Usage> {
    let set = CardSet::parse(text)?;
    if set.is_empty() {
        return Err(Usage("no cards given".into()));
    }
    Ok(set)
}

/// The duplicate arena's run, the same for `arena` and `tune`: the deals' seed, the worker
/// threads and the rules.
#[derive(clap::Args)]
pub struct ArenaRun {
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    #[arg(long, default_value_t = 2)]
    pub threads: usize,
    #[arg(long, default_value = "competition")]
    pub rules: String,
}
