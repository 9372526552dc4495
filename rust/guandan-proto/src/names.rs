//! Nicknames: the only text one player chooses that others are shown. The rule is checked by the
//! server (`POST /v1/players`) and by clients before they ask; it refuses what could deceive or
//! be interpreted rather than read:
//!
//! - control characters (Cc), format characters (Cf: zero-width spaces and joiners, the bidi
//!   embeddings, overrides and isolates, soft hyphen, BOM…), line and paragraph separators,
//!   surrogates, private-use and unassigned code points;
//! - other invisible characters (default-ignorable: Hangul fillers, variation selectors other
//!   than the emoji ones, the combining grapheme joiner, Mongolian variation selectors, the
//!   braille pattern blank U+2800, which draws nothing);
//! - any space but U+0020, spaces at either end, and runs of more than three combining marks
//!   (text stacked over its neighbours);
//! - markup and format delimiters: `[ ] < > { } \` (BBCode, rich text, `String.format`).
//!
//! Letters, digits, punctuation and symbols of every script stay allowed (小明, Zoë, جميلة).

use unicode_properties::{GeneralCategory, UnicodeGeneralCategory};

/// Most characters a nickname may have.
pub const MAX_NICKNAME_CHARS: usize = 24;

/// Characters that open or close markup in the game's text (BBCode, rich text, format strings).
const MARKUP: &[char] = &['[', ']', '<', '>', '{', '}', '\\'];

/// Combining marks allowed in a row (scripts stack at most two or three).
const MAX_MARKS_IN_A_ROW: usize = 3;

/// Invisible characters whose general category is not Cf (default-ignorable code points).
fn invisible(c: char) -> bool {
    matches!(
        c,
        '\u{034F}'
            | '\u{115F}'
            | '\u{1160}'
            | '\u{17B4}'
            | '\u{17B5}'
            | '\u{180B}'..='\u{180F}'
            | '\u{3164}'
            | '\u{FE00}'..='\u{FE0D}'
            | '\u{FFA0}'
            | '\u{E0100}'..='\u{E01EF}'
            // Braille pattern blank: a symbol that draws nothing (a name of it renders blank).
            | '\u{2800}'
    )
}

/// Why one character may not be in a nickname, or `None` when it may.
fn refused(c: char) -> Option<&'static str> {
    if MARKUP.contains(&c) {
        return Some("markup characters ([ ] < > { } \\)");
    }
    if invisible(c) {
        return Some("invisible characters");
    }
    match c.general_category() {
        GeneralCategory::Control => Some("control characters"),
        GeneralCategory::Format => Some("invisible format characters (zero-width, bidi)"),
        GeneralCategory::LineSeparator | GeneralCategory::ParagraphSeparator => Some("line breaks"),
        GeneralCategory::SpaceSeparator if c != ' ' => Some("spaces other than the plain space"),
        GeneralCategory::Surrogate | GeneralCategory::PrivateUse | GeneralCategory::Unassigned => {
            Some("unassigned or private-use characters")
        }
        _ => None,
    }
}

/// Checks a nickname; the error says what is wrong (for the player).
pub fn check_nickname(n: &str) -> Result<(), String> {
    let count = n.chars().count();
    if !(1..=MAX_NICKNAME_CHARS).contains(&count) {
        return Err(format!("a nickname has 1 to {MAX_NICKNAME_CHARS} characters"));
    }
    if n.starts_with(' ') || n.ends_with(' ') {
        return Err("a nickname has no space at either end".into());
    }
    let mut marks = 0;
    for (i, c) in n.chars().enumerate() {
        if let Some(why) = refused(c) {
            return Err(format!("a nickname may not contain {why} (U+{:04X})", c as u32));
        }
        if matches!(c.general_category(), GeneralCategory::NonspacingMark | GeneralCategory::EnclosingMark) {
            marks += 1;
            if i == 0 || marks > MAX_MARKS_IN_A_ROW {
                return Err("a nickname may not stack combining marks".into());
            }
        } else {
            marks = 0;
        }
    }
    Ok(())
}

pub fn valid_nickname(n: &str) -> bool {
    check_nickname(n).is_ok()
}

/// A stored nickname made safe to show (accounts made before the rule): refused characters are
/// dropped, the rest trimmed and cut to length; `player` when nothing is left.
pub fn displayable_nickname(n: &str) -> String {
    if valid_nickname(n) {
        return n.to_string();
    }
    let kept: String = n.chars().filter(|&c| refused(c).is_none()).take(MAX_NICKNAME_CHARS).collect();
    let kept = kept.trim().to_string();
    if valid_nickname(&kept) { kept } else { "player".into() }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_of_every_script_pass() {
        for n in
            ["小明", "Zoë", "Ana María", "player_7", "جميلة", "Ёжик", "นี้", "क्षत्रिय", "😀 fan", "❤️", "O'Brien", "a-b.c"]
        {
            assert_eq!(check_nickname(n), Ok(()), "{n:?}");
        }
    }

    #[test]
    fn what_deceives_or_is_interpreted_is_refused() {
        let long = "x".repeat(25);
        let bad = [
            "",
            " lead",
            "trail ",
            long.as_str(),
            "evil\u{202E}gnp.exe",
            "\u{2066}isolate\u{2069}",
            "rlm\u{200F}",
            "zero\u{200B}width",
            "\u{2800}",
            "\u{2800}\u{2800}\u{2800}",
            "a\u{2800}b",
            "join\u{200D}er",
            "bom\u{FEFF}",
            "soft\u{AD}hyphen",
            "line\u{2028}sep",
            "para\u{2029}sep",
            "tab\there",
            "new\nline",
            "nbsp\u{A0}x",
            "wide\u{3000}space",
            "filler\u{3164}",
            "cgj\u{34F}x",
            "vs\u{FE01}x",
            "private\u{E000}",
            "unassigned\u{0378}",
            "[color=red]admin[/color]",
            "<b>bold</b>",
            "{0}",
            "back\\slash",
            "\u{301}start",
            "zalgo\u{301}\u{302}\u{303}\u{304}",
        ];
        for n in bad {
            assert!(check_nickname(n).is_err(), "{n:?} accepted");
        }
    }

    #[test]
    fn stored_names_from_before_the_rule_are_shown_safely() {
        assert_eq!(displayable_nickname("ok"), "ok");
        assert_eq!(displayable_nickname("evil\u{202E}gnp"), "evilgnp");
        assert_eq!(displayable_nickname("[b]x[/b]"), "bx/b");
        assert_eq!(displayable_nickname("\u{200B}\u{200B}"), "player");
        assert_eq!(displayable_nickname("\u{2800}\u{2800}\u{2800}"), "player");
        assert!(valid_nickname(&displayable_nickname(" \u{202E} a \u{200B}")));
    }
}
