//! `LeaderboardPage`, `LeaderboardEntry`, `PlayerProfile`, `Rating`, `RatingPoint`: the ranked
//! ladder's answers (`GuandanClient.fetch_leaderboard` / `fetch_profile`).

use godot::prelude::*;
use guandan_proto::http::{Leaderboard, PlayerProfile as ProfileAnswer, RatingPoint as Point, RulesRating};

/// One player's line on a leaderboard page.
#[derive(GodotClass)]
#[class(no_init, base = RefCounted)]
pub struct LeaderboardEntry {
    /// 1 = the best.
    #[var(no_set)]
    rank: i64,
    #[var(no_set)]
    player_id: GString,
    #[var(no_set)]
    nickname: GString,
    #[var(no_set)]
    rating: i64,
    /// Ranked matches played, and won.
    #[var(no_set)]
    matches: i64,
    #[var(no_set)]
    wins: i64,
}

/// One page of a rules preset's leaderboard.
#[derive(GodotClass)]
#[class(no_init, base = RefCounted)]
pub struct LeaderboardPage {
    #[var(no_set)]
    rules: GString,
    /// 1-based.
    #[var(no_set)]
    page: i64,
    #[var(no_set)]
    per_page: i64,
    /// Players on the whole board.
    #[var(no_set)]
    total: i64,
    /// Ranked matches a player needs to appear.
    #[var(no_set)]
    min_matches: i64,
    #[var(no_set)]
    entries: Array<Gd<LeaderboardEntry>>,
}

impl LeaderboardPage {
    pub fn make(b: &Leaderboard) -> Gd<LeaderboardPage> {
        let entries = b
            .entries
            .iter()
            .map(|e| {
                Gd::from_object(LeaderboardEntry {
                    rank: e.rank as i64,
                    player_id: e.player_id.as_str().into(),
                    nickname: e.nickname.as_str().into(),
                    rating: e.rating,
                    matches: i64::from(e.matches),
                    wins: i64::from(e.wins),
                })
            })
            .collect();
        Gd::from_object(LeaderboardPage {
            rules: b.rules.as_str().into(),
            page: i64::from(b.page),
            per_page: i64::from(b.per_page),
            total: b.total as i64,
            min_matches: i64::from(b.min_matches),
            entries,
        })
    }
}

#[godot_api]
impl LeaderboardPage {
    /// A page from the server's JSON of one (`GET /v1/leaderboard`) — tests and tools; null
    /// (with a warning) when it is not one.
    #[func]
    pub fn parse(json: GString) -> Option<Gd<LeaderboardPage>> {
        serde_json::from_str::<Leaderboard>(&json.to_string())
            .map(|b| LeaderboardPage::make(&b))
            .inspect_err(|e| godot_warn!("LeaderboardPage.parse: {e}"))
            .ok()
    }
}

/// A point of a rating's history.
#[derive(GodotClass)]
#[class(no_init, base = RefCounted)]
pub struct RatingPoint {
    /// When (Unix seconds).
    #[var(no_set)]
    at: i64,
    /// The rating after the match, and the change it made.
    #[var(no_set)]
    rating: i64,
    #[var(no_set)]
    change: i64,
    /// The match it rated: its room's code and number in the room ("" and 0 from an older
    /// server).
    #[var(no_set)]
    room: GString,
    #[var(no_set)]
    match_no: i64,
}

/// A player's rating under one rules preset.
#[derive(GodotClass)]
#[class(no_init, base = RefCounted)]
pub struct Rating {
    #[var(no_set)]
    rules: GString,
    #[var(no_set)]
    rating: i64,
    #[var(no_set)]
    matches: i64,
    #[var(no_set)]
    wins: i64,
    #[var(no_set)]
    draws: i64,
    /// Oldest first.
    #[var(no_set)]
    history: Array<Gd<RatingPoint>>,
}

fn rating(r: &RulesRating) -> Gd<Rating> {
    let point = |h: &Point| {
        Gd::from_object(RatingPoint {
            at: h.at,
            rating: h.rating,
            change: h.change,
            room: h.room.as_str().into(),
            match_no: i64::from(h.match_no),
        })
    };
    Gd::from_object(Rating {
        rules: r.rules.as_str().into(),
        rating: r.rating,
        matches: i64::from(r.matches),
        wins: i64::from(r.wins),
        draws: i64::from(r.draws),
        history: r.history.iter().map(point).collect(),
    })
}

/// A player's public profile: ratings and match figures.
#[derive(GodotClass)]
#[class(no_init, base = RefCounted)]
pub struct PlayerProfile {
    #[var(no_set)]
    player_id: GString,
    #[var(no_set)]
    nickname: GString,
    /// One per rules preset the player is rated under.
    #[var(no_set)]
    ratings: Array<Gd<Rating>>,
    /// Matches played and won (all kinds).
    #[var(no_set)]
    matches: i64,
    #[var(no_set)]
    wins: i64,
    /// 0–1.
    #[var(no_set)]
    win_rate: f64,
    /// Deals the player's team finished 1st and 2nd (双下), per deal.
    #[var(no_set)]
    double_down_rate: f64,
    #[var(no_set)]
    bombs_per_deal: f64,
}

impl PlayerProfile {
    pub fn make(p: &ProfileAnswer) -> Gd<PlayerProfile> {
        let s = &p.stats;
        Gd::from_object(PlayerProfile {
            player_id: p.player_id.as_str().into(),
            nickname: p.nickname.as_str().into(),
            ratings: p.ratings.iter().map(rating).collect(),
            matches: i64::from(s.matches),
            wins: i64::from(s.wins),
            win_rate: s.win_rate,
            double_down_rate: s.double_down_rate,
            bombs_per_deal: s.bombs_per_deal,
        })
    }
}

#[godot_api]
impl PlayerProfile {
    /// A profile from the server's JSON of one (`GET /v1/players/ID`) — tests and tools; null
    /// (with a warning) when it is not one.
    #[func]
    pub fn parse(json: GString) -> Option<Gd<PlayerProfile>> {
        serde_json::from_str::<ProfileAnswer>(&json.to_string())
            .map(|p| PlayerProfile::make(&p))
            .inspect_err(|e| godot_warn!("PlayerProfile.parse: {e}"))
            .ok()
    }
}
