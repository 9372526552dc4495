//! Ratings of ranked matches (quick match): Weng-Lin (OpenSkill) for two teams of two, one
//! rating per player and rule preset.
//!
//! A rating moves once per finished ranked **match**, never per deal: the match is what a team
//! wins in Guandan, and the deals of one match are strongly correlated (levels, tribute, the
//! same four players), so counting them as separate results would overstate the evidence.
//!
//! AI seats are fixed players: a (mu, sigma) per level that no match changes and that is never
//! stored, so beating the hard AI is worth more than beating the easy one.

use crate::db::{Db, DbError, RatingRow, RatingUpdate};
use skillratings::Outcomes;
use skillratings::weng_lin::{WengLinConfig, WengLinRating, weng_lin_two_teams};

/// A player's rating before any ranked match: the system's default (mu 25, sigma 25/3).
pub fn fresh() -> RatingRow {
    let r = WengLinRating::new();
    RatingRow { mu: r.rating, sigma: r.uncertainty, matches: 0, wins: 0, draws: 0 }
}

/// The fixed rating of an AI seat of `level` (1 easy … 3 hard; anything else counts as 2). The
/// medium AI stands where a new player starts; the small sigma says the level is well known.
pub fn ai_rating(level: u8) -> WengLinRating {
    let mu = match level {
        1 => 20.0,
        3 => 30.0,
        _ => 25.0,
    };
    WengLinRating { rating: mu, uncertainty: AI_SIGMA }
}

const AI_SIGMA: f64 = 1.0;

/// The number shown to players: a conservative estimate (mu − 3·sigma, below the player's skill
/// with high confidence) scaled to a familiar range, so a new player shows 1000 and the number
/// rises as the system grows sure of a good player. Never negative.
pub fn shown(mu: f64, sigma: f64) -> i64 {
    let v = ((mu - 3.0 * sigma) * 40.0 + 1000.0).round();
    if v.is_nan() { 0 } else { (v as i64).max(0) }
}

/// A seat of a finished match: a human's player id, or an AI seat's level.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum RatedSeat {
    Human(String),
    Ai(u8),
}

/// The ratings of the four seats after a match: `winner_team` 0 (seats 0 and 2), 1 (seats 1
/// and 3), or `None` for a draw (e.g. the time ran out). Pure math; AI seats come back unchanged.
pub fn rate_seats(before: [WengLinRating; 4], ai: [bool; 4], winner_team: Option<u8>) -> [WengLinRating; 4] {
    let outcome = match winner_team {
        Some(0) => Outcomes::WIN,
        Some(_) => Outcomes::LOSS,
        None => Outcomes::DRAW,
    };
    let (zero, one) =
        weng_lin_two_teams(&[before[0], before[2]], &[before[1], before[3]], &outcome, &WengLinConfig::new());
    let after = [zero[0], one[0], zero[1], one[1]];
    std::array::from_fn(|i| if ai[i] { before[i] } else { after[i] })
}

/// A human's rating after a match, as sent to the player.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Rated {
    pub player_id: String,
    pub rating: i64,
    pub change: i64,
    pub matches: i64,
}

/// Rates a finished ranked match under rule preset `rules` and stores the humans' new ratings
/// (one transaction). A match without a human changes nothing.
pub async fn rate_match(
    db: &Db,
    rules: &str,
    room: &str,
    match_no: i64,
    seats: &[RatedSeat; 4],
    winner_team: Option<u8>,
) -> Result<Vec<Rated>, DbError> {
    let humans: Vec<String> = seats
        .iter()
        .filter_map(|s| match s {
            RatedSeat::Human(id) => Some(id.clone()),
            RatedSeat::Ai(_) => None,
        })
        .collect();
    if humans.is_empty() {
        return Ok(Vec::new());
    }
    let start = fresh();
    let fresh_update = RatingUpdate { shown: shown(start.mu, start.sigma), row: start, change: 0 };
    let seats_owned = seats.clone();
    let updates = db
        .rate_match(rules, room, match_no, &humans, &fresh_update, move |rows| {
            let mut human_rows = rows.iter();
            let mut before_rows: [Option<RatingRow>; 4] = Default::default();
            let before: [WengLinRating; 4] = std::array::from_fn(|i| match &seats_owned[i] {
                RatedSeat::Ai(level) => ai_rating(*level),
                RatedSeat::Human(_) => {
                    let row = human_rows.next().cloned().unwrap_or_else(fresh);
                    let r = WengLinRating { rating: row.mu, uncertainty: row.sigma };
                    before_rows[i] = Some(row);
                    r
                }
            });
            let ai = std::array::from_fn(|i| matches!(seats_owned[i], RatedSeat::Ai(_)));
            let after = rate_seats(before, ai, winner_team);
            (0..4)
                .filter_map(|i| {
                    let old = before_rows[i].clone()?;
                    let won = winner_team == Some((i % 2) as u8);
                    let new = after[i];
                    let shown_now = shown(new.rating, new.uncertainty);
                    Some(RatingUpdate {
                        row: RatingRow {
                            mu: new.rating,
                            sigma: new.uncertainty,
                            matches: old.matches + 1,
                            wins: old.wins + i64::from(won),
                            draws: old.draws + i64::from(winner_team.is_none()),
                        },
                        shown: shown_now,
                        change: shown_now - shown(old.mu, old.sigma),
                    })
                })
                .collect()
        })
        .await?;
    Ok(humans
        .into_iter()
        .zip(updates)
        .map(|(player_id, u)| Rated { player_id, rating: u.shown, change: u.change, matches: u.row.matches })
        .collect())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn new_player() -> WengLinRating {
        WengLinRating::new()
    }

    /// Two new players (seats 0 and 2) against two AI seats of `level`, won or lost.
    fn vs_ai(level: u8, winner: Option<u8>) -> WengLinRating {
        let before = [new_player(), ai_rating(level), new_player(), ai_rating(level)];
        rate_seats(before, [false, true, false, true], winner)[0]
    }

    #[test]
    fn winners_go_up_and_losers_down() {
        let before = [new_player(); 4];
        let after = rate_seats(before, [false; 4], Some(1));
        for seat in [1, 3] {
            assert!(after[seat].rating > 25.0, "winner {seat}: {:?}", after[seat]);
        }
        for seat in [0, 2] {
            assert!(after[seat].rating < 25.0, "loser {seat}: {:?}", after[seat]);
        }
        // Every result teaches something: everyone's uncertainty shrinks.
        assert!(after.iter().all(|r| r.uncertainty < 25.0 / 3.0));
    }

    #[test]
    fn beating_the_hard_ai_is_worth_more_than_beating_the_easy_one() {
        let easy = vs_ai(1, Some(0));
        let hard = vs_ai(3, Some(0));
        assert!(hard.rating > easy.rating + 0.5, "hard {hard:?}, easy {easy:?}");
        // And losing to the easy AI costs more than losing to the hard one.
        assert!(vs_ai(1, Some(1)).rating < vs_ai(3, Some(1)).rating);
    }

    #[test]
    fn a_draw_between_equals_moves_little() {
        let before = [new_player(); 4];
        let drawn = rate_seats(before, [false; 4], None);
        let won = rate_seats(before, [false; 4], Some(0));
        for (d, w) in drawn.iter().zip(&won) {
            assert!((d.rating - 25.0).abs() < 0.01, "{d:?}");
            assert!((w.rating - 25.0).abs() > 1.0, "{w:?}");
        }
    }

    #[test]
    fn ai_seats_never_move() {
        for winner in [Some(0), Some(1), None] {
            let before = [new_player(), ai_rating(3), ai_rating(2), ai_rating(1)];
            let after = rate_seats(before, [false, true, true, true], winner);
            assert_eq!(&after[1..], &before[1..]);
            assert_ne!(after[0], before[0]);
        }
    }

    #[test]
    fn the_shown_number_is_conservative_and_never_negative() {
        let f = fresh();
        assert_eq!(shown(f.mu, f.sigma), 1000);
        assert_eq!(shown(25.0, 1.0), 1880);
        assert!(shown(30.0, 2.0) > shown(30.0, 4.0), "more certainty shows more");
        assert_eq!(shown(0.0, 20.0), 0);
        assert_eq!(shown(f64::NAN, 1.0), 0);
    }
}
