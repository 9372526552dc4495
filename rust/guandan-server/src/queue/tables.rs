//! Forming tables from the players waiting for one rule preset: plain Rust, no I/O, no clock
//! (the caller says how long each has waited), so the same queue always gives the same tables.
//!
//! The longest waiter goes first. Players whose rating lies within the longest waiter's window
//! of it are candidates; the window widens with the wait, so nobody waits for a perfect match
//! for long. Four candidates make a table, split into the two most even teams; after
//! `ai_fill_ms` the longest waiter gets a table with whoever is near enough and the server's AI
//! in the empty seats, at a level matched to the players' ratings.
use guandan_core::seat::Seat;

/// One player waiting.
#[derive(Clone, Debug, PartialEq)]
pub struct Waiter {
    pub player_id: String,
    /// The player's skill estimate (Weng-Lin mu; 25 for a new player).
    pub rating: f64,
    pub waited_ms: u64,
    /// Where the player's connection comes from (an address, IPv6 per /64); `None`: unknown.
    pub source: Option<String>,
}

/// How tables are formed.
#[derive(Clone, Copy, Debug)]
pub struct Rules {
    /// The rating window of a player who just arrived (mu points, either side).
    pub window: f64,
    /// How much the window widens per second waited.
    pub widen_per_s: f64,
    /// After this wait the longest waiter's table is completed with AI seats.
    pub ai_fill_ms: u64,
    /// Never two players of one source at a table: one machine playing several seats could
    /// trade rating between its accounts (`--allow-same-address-tables` turns it off).
    pub distinct_sources: bool,
}

impl Default for Rules {
    fn default() -> Rules {
        Rules { window: 3.0, widen_per_s: 0.5, ai_fill_ms: 30_000, distinct_sources: true }
    }
}

/// Whether two waiters may sit at one table.
fn may_share(a: &Waiter, b: &Waiter, rules: &Rules) -> bool {
    !rules.distinct_sources || a.source.is_none() || a.source != b.source
}

/// A table: who sits where (seat i), `None` = an AI seat at `ai_level`.
#[derive(Clone, Debug, PartialEq)]
pub struct Formed {
    pub seats: [Option<String>; 4],
    pub ai_level: u8,
    /// Rating (mu) between the table's strongest and weakest player (0 with one player).
    pub spread: f64,
}

impl Formed {
    pub fn players(&self) -> impl Iterator<Item = (Seat, &str)> {
        Seat::ALL.into_iter().zip(&self.seats).filter_map(|(seat, p)| p.as_deref().map(|p| (seat, p)))
    }
}

fn window(w: &Waiter, r: &Rules) -> f64 {
    r.window + r.widen_per_s * w.waited_ms as f64 / 1000.0
}

/// The AI level for a table whose players average `mean` (new players are 25).
pub fn ai_level_for(mean: f64) -> u8 {
    match mean {
        m if m < 22.0 => 1,
        m if m < 30.0 => 2,
        _ => 3,
    }
}

/// Tables from `waiting` (any order); players left out keep waiting.
pub fn form(waiting: &[Waiter], rules: &Rules) -> Vec<Formed> {
    let mut left: Vec<&Waiter> = waiting.iter().collect();
    // Longest wait first; ties by id, so the result never depends on the input's order.
    left.sort_by(|a, b| b.waited_ms.cmp(&a.waited_ms).then_with(|| a.player_id.cmp(&b.player_id)));
    let mut out = Vec::new();
    let mut i = 0;
    while i < left.len() {
        let anchor = left[i];
        let reach = window(anchor, rules);
        let mut near: Vec<(usize, f64)> = left
            .iter()
            .enumerate()
            .filter(|&(j, w)| j != i && (w.rating - anchor.rating).abs() <= reach)
            .map(|(j, w)| (j, (w.rating - anchor.rating).abs()))
            .collect();
        near.sort_by(|a, b| a.1.total_cmp(&b.1).then(a.0.cmp(&b.0)));
        // Nearest first, skipping anyone who may not sit with those chosen already.
        let mut chosen: Vec<usize> = vec![i];
        for (j, _) in near {
            if chosen.len() == 4 {
                break;
            }
            if chosen.iter().all(|&c| may_share(left[c], left[j], rules)) {
                chosen.push(j);
            }
        }
        let full = chosen.len() == 4;
        if !full && anchor.waited_ms < rules.ai_fill_ms {
            i += 1;
            continue;
        }
        let players: Vec<&Waiter> = chosen.iter().map(|&j| left[j]).collect();
        out.push(seat(&players));
        chosen.sort_unstable();
        for j in chosen.into_iter().rev() {
            left.remove(j);
        }
        // `i` now points at the next longest waiter still left.
    }
    out
}

/// Seats one table: teams (seats 0 and 2 against 1 and 3) as even as possible, the AI seats
/// counted at the level the table gets.
fn seat(players: &[&Waiter]) -> Formed {
    let mean = players.iter().map(|w| w.rating).sum::<f64>() / players.len() as f64;
    let ai_level = ai_level_for(mean);
    let mut sorted: Vec<&Waiter> = players.to_vec();
    sorted.sort_by(|a, b| b.rating.total_cmp(&a.rating).then_with(|| a.player_id.cmp(&b.player_id)));
    let id = |k: usize| sorted.get(k).map(|w| w.player_id.clone());
    let seats = match sorted.len() {
        // Strongest with weakest against the middle two.
        4 => [id(0), id(1), id(3), id(2)],
        // The strongest partners the AI against the other two.
        3 => [id(0), id(1), None, id(2)],
        // Two players partner each other against two AI seats.
        2 => [id(0), None, id(1), None],
        _ => [id(0), None, None, None],
    };
    let spread = sorted.first().zip(sorted.last()).map_or(0.0, |(hi, lo)| hi.rating - lo.rating);
    Formed { seats, ai_level, spread }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn w(id: &str, rating: f64, waited_ms: u64) -> Waiter {
        Waiter { player_id: id.into(), rating, waited_ms, source: None }
    }

    fn from(id: &str, source: &str, waited_ms: u64) -> Waiter {
        Waiter { source: Some(source.into()), ..w(id, 25.0, waited_ms) }
    }

    #[test]
    fn one_source_never_sits_twice_at_a_table() {
        let rules = Rules { ai_fill_ms: 1000, ..Rules::default() };
        // Four accounts of one machine: no table until the fill wait, then each alone with AI.
        let farm: Vec<Waiter> = (0..4).map(|k| from(&format!("f{k}"), "198.51.100.7", 10)).collect();
        assert!(form(&farm, &rules).is_empty());
        let later: Vec<Waiter> = (0..4).map(|k| from(&format!("f{k}"), "198.51.100.7", 1000)).collect();
        let tables = form(&later, &rules);
        assert_eq!(tables.len(), 4);
        assert!(tables.iter().all(|t| t.players().count() == 1), "{tables:?}");
        // Two of a machine among strangers: the table takes one of them and a stranger instead.
        let mixed = [
            from("a", "198.51.100.7", 10),
            from("b", "198.51.100.7", 5),
            from("c", "203.0.113.1", 5),
            from("d", "203.0.113.2", 5),
            from("e", "203.0.113.3", 5),
        ];
        let t = form(&mixed, &rules);
        assert_eq!(t.len(), 1);
        let mut members: Vec<&str> = t[0].players().map(|(_, p)| p).collect();
        members.sort_unstable();
        assert_eq!(members, ["a", "c", "d", "e"]);
        // Allowed on purpose (LAN parties, load tests): one table of the four.
        let open = Rules { distinct_sources: false, ..rules };
        assert_eq!(form(&farm, &open).len(), 1);
    }

    #[test]
    fn four_near_players_make_a_table_of_even_teams() {
        let t = form(&[w("a", 27.0, 10), w("b", 25.0, 0), w("c", 24.0, 0), w("d", 26.0, 0)], &Rules::default());
        assert_eq!(t.len(), 1);
        // 27+24 against 26+25: the most even split.
        assert_eq!(t[0].seats, [Some("a".into()), Some("d".into()), Some("c".into()), Some("b".into())]);
        assert_eq!(t[0].spread, 3.0, "27 down to 24");
    }

    #[test]
    fn players_too_far_apart_wait_until_the_window_has_widened() {
        let far = [w("a", 20.0, 0), w("b", 21.0, 0), w("c", 22.0, 0), w("d", 32.0, 0)];
        assert!(form(&far, &Rules::default()).is_empty(), "d is 12 points from a");
        // After 20 s a's window is 3 + 10 = 13 points: d is in reach.
        let later = [w("a", 20.0, 20_000), w("b", 21.0, 20_000), w("c", 22.0, 20_000), w("d", 32.0, 20_000)];
        assert_eq!(form(&later, &Rules::default()).len(), 1);
    }

    #[test]
    fn the_longest_waiter_gets_ai_seats_after_the_fill_wait() {
        let rules = Rules { ai_fill_ms: 1000, ..Rules::default() };
        let early = [w("a", 25.0, 999), w("b", 25.0, 10)];
        assert!(form(&early, &rules).is_empty());
        let late = [w("a", 25.0, 1000), w("b", 25.0, 10), w("c", 60.0, 10)];
        let t = form(&late, &rules);
        assert_eq!(t.len(), 1, "c is out of reach and keeps waiting");
        assert_eq!(t[0].seats, [Some("a".into()), None, Some("b".into()), None]);
        assert_eq!(t[0].ai_level, 2);
        let alone = form(&[w("z", 10.0, 5000)], &rules);
        assert_eq!(alone[0].seats, [Some("z".into()), None, None, None]);
        assert_eq!(alone[0].ai_level, 1, "a weak player meets the easy AI");
    }

    #[test]
    fn eight_players_make_two_tables_of_neighbours_whatever_the_order() {
        let mut q: Vec<Waiter> = (0..8).map(|i| w(&format!("p{i}"), 20.0 + i as f64 * 1.5, 100 * i as u64)).collect();
        let tables = form(&q, &Rules::default());
        q.reverse();
        assert_eq!(form(&q, &Rules::default()), tables, "the input's order does not matter");
        assert_eq!(tables.len(), 2);
        let members = |t: &Formed| {
            let mut v: Vec<String> = t.players().map(|(_, p)| p.to_string()).collect();
            v.sort();
            v
        };
        // p7 waited longest: it sits with its three nearest (p4–p6).
        assert_eq!(members(&tables[0]), ["p4", "p5", "p6", "p7"]);
        assert_eq!(members(&tables[1]), ["p0", "p1", "p2", "p3"]);
    }
}
