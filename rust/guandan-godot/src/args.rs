//! Conversions of GDScript arguments into rule types. Pure Rust (no Godot calls), so the
//! validation that guards every `#[func]` is unit-tested without an engine.

use guandan_core::card::{CardId, CardIdOutOfRange};
use guandan_core::{Card, CardSet, ParseError};

/// GDScript ints are signed 64-bit; seeds are `u64`. Every int is accepted and its bits
/// reinterpreted, so `-1` is seed `u64::MAX` and a seed printed by the Rust CLI round-trips.
pub fn seed_from_int(seed: i64) -> u64 {
    seed as u64
}

/// The inverse of [`seed_from_int`], for handing a seed back to GDScript.
pub fn seed_to_int(seed: u64) -> i64 {
    seed as i64
}

/// A card id from GDScript, or the core's refusal ("card id 200 is out of range 0-107", the
/// wording the server and the record loader use too).
pub fn card_id(id: i64) -> Result<CardId, CardIdOutOfRange> {
    CardId::try_from(id)
}

/// A card's competition notation (`S2`, `HT`, `SB`, `HR`), if the id is valid.
pub fn card_notation(id: i64) -> Result<String, CardIdOutOfRange> {
    card_id(id).map(|id| Card::from_id(id).notation())
}

/// A set of distinct, in-range card ids from GDScript.
pub fn card_set(ids: &[i32]) -> Result<CardSet, ParseError> {
    let wide: Vec<i64> = ids.iter().map(|&i| i64::from(i)).collect();
    CardSet::try_from_ids(&wide)
}

/// Card ids as GDScript wants them in a `PackedInt32Array`, increasing.
pub fn ids_i32(set: CardSet) -> Vec<i32> {
    set.iter().map(i32::from).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn seeds_round_trip_through_gdscript_ints() {
        for s in [0u64, 1, 42, i64::MAX as u64, 1 << 63, u64::MAX] {
            assert_eq!(seed_from_int(seed_to_int(s)), s);
        }
        assert_eq!(seed_from_int(-1), u64::MAX);
    }

    #[test]
    fn card_ids_are_range_checked() {
        assert_eq!(card_id(0), Ok(CardId::ALL[0]));
        assert_eq!(card_id(107).map(u8::from), Ok(107));
        for bad in [-1, 108, 255, 256, i64::MIN, i64::MAX] {
            assert_eq!(card_id(bad), Err(CardIdOutOfRange(bad)), "{bad}");
        }
        assert_eq!(card_id(200).unwrap_err().to_string(), "card id 200 is out of range 0-107");
    }

    #[test]
    fn notation_of_both_copies_and_jokers() {
        assert_eq!(card_notation(0).as_deref(), Ok("S2"));
        assert_eq!(card_notation(54).as_deref(), Ok("S2"));
        assert_eq!(card_notation(52).as_deref(), Ok("SB"));
        assert_eq!(card_notation(107).as_deref(), Ok("HR"));
        assert_eq!(card_notation(108), Err(CardIdOutOfRange(108)));
    }

    #[test]
    fn card_sets_reject_bad_and_repeated_ids() {
        assert_eq!(card_set(&[0, 107]).map(|s| s.len()), Ok(2));
        assert!(card_set(&[0, 0]).is_err());
        assert!(card_set(&[-5]).is_err());
        assert!(card_set(&[108]).is_err());
        assert_eq!(ids_i32(card_set(&[9, 3]).unwrap()), vec![3, 9]);
    }
}
