//! What GDScript hands the engine, read and checked: the four seats (`null`/`"human"`, an AI
//! level, an `AiProfile`), the rules resource, card ids.

use godot::prelude::*;
use guandan_core::card::CardId;
use guandan_core::error::ErrorCode;
use guandan_core::rules::RuleConfig;
use guandan_runtime::Controller;

use crate::args;
use crate::codes::Fail;
use crate::resources::{AiProfileRes, GuandanRules};

pub(super) fn checked_card(id: i64) -> Result<CardId, Fail> {
    args::card_id(id).map_err(|e| Fail::new(ErrorCode::InvalidCards, e.to_string()))
}

pub(super) fn parse_rules(rules: Option<Gd<GuandanRules>>) -> Result<RuleConfig, Fail> {
    match rules {
        None => Ok(RuleConfig::competition()),
        Some(r) => r.bind().config(),
    }
}

/// Four seats: `null`/`"human"` = human, 1–4 = AI level (4: the desktop level), `AiProfile` = AI.
pub(crate) fn parse_seats(seats: &VarArray) -> Result<[Controller; 4], Fail> {
    if seats.len() != 4 {
        return Err(Fail::bad_argument(format!("seats must have 4 entries, got {}", seats.len())));
    }
    let mut out: [Controller; 4] = std::array::from_fn(|_| Controller::Human);
    for (i, v) in seats.iter_shared().enumerate() {
        out[i] = parse_seat(&v).map_err(|e| Fail::bad_argument(format!("seat {i}: {e}")))?;
    }
    Ok(out)
}

fn parse_seat(v: &Variant) -> Result<Controller, String> {
    if v.is_nil() {
        return Ok(Controller::Human);
    }
    if let Ok(text) = v.try_to::<GString>() {
        return if text == "human" { Ok(Controller::Human) } else { Err(format!("unknown seat kind {text:?}")) };
    }
    if let Ok(level) = v.try_to::<i64>() {
        let profile = crate::resources::level_defaults(level)
            .ok_or_else(|| format!("AI level {level} is not 1, 2, 3 or 4 (the desktop level)"))?;
        return Ok(Controller::Ai(profile));
    }
    if let Ok(profile) = v.try_to::<Gd<AiProfileRes>>() {
        return profile.bind().profile().map(Controller::Ai).map_err(|f| f.message);
    }
    Err(format!("expected null, \"human\", 1-4 or an AiProfile, got {}", v.get_type().ord()))
}
