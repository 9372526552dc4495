//! The leaderboard and profile answers as the dictionaries GDScript reads (the signals'
//! documented shapes).

use godot::prelude::*;
use guandan_proto::http::{Leaderboard, PlayerProfile, RulesRating};

pub fn leaderboard_dict(b: &Leaderboard) -> VarDictionary {
    let entries: Array<VarDictionary> = b
        .entries
        .iter()
        .map(|e| {
            vdict! {
                "rank" => e.rank as i64,
                "player_id" => e.player_id.as_str(),
                "nickname" => e.nickname.as_str(),
                "rating" => e.rating,
                "matches" => i64::from(e.matches),
                "wins" => i64::from(e.wins),
            }
        })
        .collect();
    vdict! {
        "rules" => b.rules.as_str(),
        "page" => i64::from(b.page),
        "per_page" => i64::from(b.per_page),
        "total" => b.total as i64,
        "min_matches" => i64::from(b.min_matches),
        "entries" => &entries,
    }
}

pub fn profile_dict(p: &PlayerProfile) -> VarDictionary {
    let ratings: Array<VarDictionary> = p.ratings.iter().map(rating_dict).collect();
    let s = &p.stats;
    let stats = vdict! {
        "matches" => i64::from(s.matches),
        "wins" => i64::from(s.wins),
        "win_rate" => s.win_rate,
        "double_down_rate" => s.double_down_rate,
        "bombs_per_deal" => s.bombs_per_deal,
    };
    vdict! {
        "player_id" => p.player_id.as_str(),
        "nickname" => p.nickname.as_str(),
        "ratings" => &ratings,
        "stats" => &stats,
    }
}

fn rating_dict(r: &RulesRating) -> VarDictionary {
    let history: Array<VarDictionary> =
        r.history.iter().map(|h| vdict! { "at" => h.at, "rating" => h.rating, "change" => h.change }).collect();
    vdict! {
        "rules" => r.rules.as_str(),
        "rating" => r.rating,
        "matches" => i64::from(r.matches),
        "wins" => i64::from(r.wins),
        "draws" => i64::from(r.draws),
        "history" => &history,
    }
}
