//! `guandan selfplay`: whole matches of random legal moves with the invariants checked after
//! every action and each match's log replayed.

use crate::input::{Usage, rules_arg};
use guandan_core::sim;
use std::process::ExitCode;
use std::time::Instant;

pub fn run(games: u64, seed: u64, rules: &str) -> Result<ExitCode, Usage> {
    let rules = rules_arg(rules)?;
    let start = Instant::now();
    let (mut actions, mut deals, mut wins) = (0u64, 0u64, [0u64; 3]);
    for g in 0..games {
        match sim::checked_match(seed.wrapping_add(g), rules.clone()) {
            Ok(m) => {
                actions += m.seq();
                deals += m.deal_no() as u64 + 1;
                wins[m.outcome().and_then(|o| o.winner()).map_or(2, |t| t.index())] += 1;
            }
            Err(v) => {
                eprintln!("VIOLATION: {v}");
                return Ok(ExitCode::from(1));
            }
        }
    }
    let secs = start.elapsed().as_secs_f64();
    println!(
        "{games} matches ok ({} rules, seeds {seed}..{}): {deals} deals, {actions} actions, team 0 won {}, team 1 won {}, drawn {}; {:.2} s ({:.2} ms/match)",
        rules.name,
        seed.wrapping_add(games),
        wins[0],
        wins[1],
        wins[2],
        secs,
        secs * 1000.0 / games.max(1) as f64
    );
    Ok(ExitCode::SUCCESS)
}
