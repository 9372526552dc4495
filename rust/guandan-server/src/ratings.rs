//! Ratings of ranked matches (quick match): Weng-Lin (OpenSkill) for two teams of two, one
//! rating per player and rule preset.
//!
//! A rating moves once per finished ranked **match**, never per deal: the match is what a team
//! wins in Guandan, and the deals of one match are strongly correlated (levels, tribute, the
//! same four players), so counting them as separate results would overstate the evidence.
//!
//! AI seats are fixed players: a (mu, sigma) per level that no match changes and that is never
//! stored, so beating the hard AI is worth more than beating the easy one.
//!
//! What each human's rating takes from a match ([`verdicts`]), so that rating cannot be farmed
//! or dumped by arrangement (docs/server.md, "Ratings"):
//! - a surrender is a loss for the team that gave up and **nothing** for the team that accepted
//!   it: arranged surrenders lift no one;
//! - a player who left the match (`leave`, or away and played for by the AI at its end) takes a
//!   loss whatever the result; a partner left alone who gives up is not rated;
//! - everyone else is rated by the result (a time-up with equal levels is a draw).
//!
//! The queue keeps the rest apart: one source address is never seated twice at a ranked table,
//! and an AI partner in a ranked match never agrees to give it up.

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

/// What a human's rating takes from a finished ranked match.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Verdict {
    Win,
    Loss,
    Draw,
    /// The rating does not move (and the match is not counted in it).
    Unrated,
}

/// How a ranked match ended, for [`verdicts`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Ending {
    /// Won by team 0 or 1 at the table (levels or time).
    Won(u8),
    /// Team `winner` won because the other team surrendered.
    Surrendered { winner: u8 },
    /// A time-up with equal levels.
    Draw,
}

/// Each seat's verdict: `humans` marks the rated seats (AI seats get `Unrated`), `left` the
/// humans who left the match.
pub fn verdicts(ending: Ending, humans: [bool; 4], left: [bool; 4]) -> [Verdict; 4] {
    std::array::from_fn(|i| {
        let team = (i % 2) as u8;
        let partner_left = left[(i + 2) % 4];
        if !humans[i] {
            Verdict::Unrated
        } else if left[i] {
            Verdict::Loss
        } else {
            match ending {
                Ending::Won(t) if t == team => Verdict::Win,
                Ending::Won(_) => Verdict::Loss,
                Ending::Draw => Verdict::Draw,
                Ending::Surrendered { winner } if winner == team => Verdict::Unrated,
                // Gave up alone, after the partner left: the leaver carries the loss.
                Ending::Surrendered { .. } if partner_left => Verdict::Unrated,
                Ending::Surrendered { .. } => Verdict::Loss,
            }
        }
    })
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
    let after = table_result(before, winner_team);
    std::array::from_fn(|i| if ai[i] { before[i] } else { after[i] })
}

/// Every seat's rating as if the table's result were `winner_team` (`None`: a draw).
fn table_result(before: [WengLinRating; 4], winner_team: Option<u8>) -> [WengLinRating; 4] {
    let outcome = match winner_team {
        Some(0) => Outcomes::WIN,
        Some(_) => Outcomes::LOSS,
        None => Outcomes::DRAW,
    };
    let (zero, one) =
        weng_lin_two_teams(&[before[0], before[2]], &[before[1], before[3]], &outcome, &WengLinConfig::new());
    [zero[0], one[0], zero[1], one[1]]
}

/// The ratings after a match by each seat's own verdict: a seat that won moves as if its team
/// won, one that lost as if its team lost (against the same opponents' ratings before the
/// match), an `Unrated` seat not at all.
pub fn rate_by_verdict(before: [WengLinRating; 4], verdicts: [Verdict; 4]) -> [WengLinRating; 4] {
    std::array::from_fn(|i| {
        let team = (i % 2) as u8;
        let result = match verdicts[i] {
            Verdict::Unrated => return before[i],
            Verdict::Win => Some(team),
            Verdict::Loss => Some(1 - team),
            Verdict::Draw => None,
        };
        table_result(before, result)[i]
    })
}

/// A human's rating after a match, as sent to the player.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Rated {
    pub player_id: String,
    pub rating: i64,
    pub change: i64,
    pub matches: i64,
}

/// Rates a finished ranked match under rule preset `rules` by each seat's verdict and stores
/// the rated humans' new ratings (one transaction). A match without a rated human changes
/// nothing.
pub async fn rate_match(
    db: &Db,
    rules: &str,
    room: &str,
    match_no: i64,
    seats: &[RatedSeat; 4],
    verdicts: [Verdict; 4],
) -> Result<Vec<Rated>, DbError> {
    let rated: Vec<(usize, String)> = seats
        .iter()
        .enumerate()
        .filter_map(|(i, s)| match s {
            RatedSeat::Human(id) if verdicts[i] != Verdict::Unrated => Some((i, id.clone())),
            _ => None,
        })
        .collect();
    if rated.is_empty() {
        return Ok(Vec::new());
    }
    let start = fresh();
    let fresh_update = RatingUpdate { shown: shown(start.mu, start.sigma), row: start, change: 0 };
    let humans: Vec<String> = rated.iter().map(|(_, id)| id.clone()).collect();
    let rated_seats: Vec<usize> = rated.iter().map(|(i, _)| *i).collect();
    // Humans who are not rated still stand as partners or opponents at their own strength (read
    // outside the transaction: only the rated rows are written).
    let mut standing: [Option<WengLinRating>; 4] = [None; 4];
    for (i, s) in seats.iter().enumerate() {
        if let RatedSeat::Human(id) = s
            && verdicts[i] == Verdict::Unrated
        {
            let row = db.rating(id, rules).await?.unwrap_or_else(fresh);
            standing[i] = Some(WengLinRating { rating: row.mu, uncertainty: row.sigma });
        }
    }
    let seats_owned = seats.clone();
    let updates = db
        .rate_match(rules, room, match_no, &humans, &fresh_update, move |rows| {
            // Rated humans' stored rows; the others (unrated humans at their rating, AI seats at
            // their level) only stand as opponents or partners.
            let mut before_rows: [Option<RatingRow>; 4] = Default::default();
            for (seat, row) in rated_seats.iter().zip(rows) {
                before_rows[*seat] = Some(row.clone());
            }
            let before: [WengLinRating; 4] = std::array::from_fn(|i| match (&seats_owned[i], &before_rows[i]) {
                (RatedSeat::Ai(level), _) => ai_rating(*level),
                (RatedSeat::Human(_), Some(row)) => WengLinRating { rating: row.mu, uncertainty: row.sigma },
                (RatedSeat::Human(_), None) => standing[i].unwrap_or_default(),
            });
            let after = rate_by_verdict(before, verdicts);
            rated_seats
                .iter()
                .map(|&i| {
                    let old = before_rows[i].clone().unwrap_or_else(fresh);
                    let new = after[i];
                    let shown_now = shown(new.rating, new.uncertainty);
                    RatingUpdate {
                        row: RatingRow {
                            mu: new.rating,
                            sigma: new.uncertainty,
                            matches: old.matches + 1,
                            wins: old.wins + i64::from(verdicts[i] == Verdict::Win),
                            draws: old.draws + i64::from(verdicts[i] == Verdict::Draw),
                        },
                        shown: shown_now,
                        change: shown_now - shown(old.mu, old.sigma),
                    }
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

    const ALL: [bool; 4] = [true; 4];
    const NOBODY_LEFT: [bool; 4] = [false; 4];
    use Verdict::{Draw, Loss, Unrated, Win};

    #[test]
    fn a_surrender_lifts_no_one() {
        // Team 1 gave up: it loses, team 0 gains nothing.
        let v = verdicts(Ending::Surrendered { winner: 0 }, ALL, NOBODY_LEFT);
        assert_eq!(v, [Unrated, Loss, Unrated, Loss]);
        let before = [new_player(); 4];
        let after = rate_by_verdict(before, v);
        assert_eq!((after[0], after[2]), (before[0], before[2]), "the accepting team does not move");
        assert!(after[1].rating < 25.0 && after[3].rating < 25.0);
        // Exactly as much as losing the match at the table.
        assert_eq!(after[1], rate_seats(before, [false; 4], Some(0))[1]);
    }

    #[test]
    fn a_leaver_takes_the_loss_and_its_partner_may_give_up_unrated() {
        let left = [false, false, true, false];
        // Seat 2 left and its team won anyway: seat 2 still loses, seat 0 wins.
        assert_eq!(verdicts(Ending::Won(0), ALL, left), [Win, Loss, Loss, Loss]);
        // A draw: the leaver loses.
        assert_eq!(verdicts(Ending::Draw, ALL, left), [Draw, Draw, Loss, Draw]);
        // Seat 0, left alone, gives up: the leaver carries the loss, seat 0 is not rated, and
        // the opponents who accepted gain nothing.
        assert_eq!(verdicts(Ending::Surrendered { winner: 1 }, ALL, left), [Unrated, Unrated, Loss, Unrated]);
        // The leaver's team wins by the opponents' surrender: the leaver still loses.
        assert_eq!(verdicts(Ending::Surrendered { winner: 0 }, ALL, left), [Unrated, Loss, Loss, Loss]);
        let after = rate_by_verdict([new_player(); 4], verdicts(Ending::Won(0), ALL, left));
        assert!(after[2].rating < 25.0 && after[0].rating > 25.0, "{after:?}");
    }

    #[test]
    fn ai_seats_are_never_rated_and_results_rate_by_team() {
        let humans = [true, false, true, false];
        assert_eq!(verdicts(Ending::Won(1), humans, NOBODY_LEFT), [Loss, Unrated, Loss, Unrated]);
        assert_eq!(verdicts(Ending::Draw, ALL, NOBODY_LEFT), [Draw; 4]);
        // Rated by verdict is the table's result when nobody left and nobody surrendered.
        let before = [new_player(), ai_rating(3), new_player(), ai_rating(3)];
        let by_verdict = rate_by_verdict(before, verdicts(Ending::Won(0), humans, NOBODY_LEFT));
        assert_eq!(by_verdict, rate_seats(before, [false, true, false, true], Some(0)));
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
