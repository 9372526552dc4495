//! `guandan beliefs`: how well L3's inferences about hidden hands are calibrated.

use crate::input::{Usage, rules_arg};
use std::process::ExitCode;

pub fn run(deals: u32, worlds: u32, seed: u64, rules: &str, json: bool) -> Result<ExitCode, Usage> {
    if deals == 0 || worlds == 0 {
        return Err(Usage("--deals and --worlds must be at least 1".into()));
    }
    let c = guandan_ai::calibrate::run(deals, worlds, seed, &rules_arg(rules)?);
    if json {
        println!("{}", serde_json::to_string_pretty(&c)?);
    } else {
        print_calibration(&c);
    }
    Ok(ExitCode::SUCCESS)
}

fn print_calibration(c: &guandan_ai::calibrate::Calibration) {
    println!(
        "{} deals, {} play decisions, {} worlds per decision and variant, seed {}",
        c.deals, c.decisions, c.worlds, c.seed
    );
    println!("inference     cells touched  Brier without  Brier with  predicted  observed");
    for e in &c.effects {
        println!(
            "{:<13} {:>13}  {:>13.4}  {:>10.4}  {:>9.3}  {:>8.3}",
            e.name, e.cells, e.brier_without, e.brier_with, e.predicted, e.observed
        );
        if e.bomb_cells > 0 {
            println!(
                "{:<13} {:>13}  {:>13.4}  {:>10.4}   (holds a bomb, seats marked bombless)",
                "", e.bomb_cells, e.bomb_brier_without, e.bomb_brier_with
            );
        }
        println!(
            "{:<13} {:>13}  {:>13.4}  {:>10.4}  {:>9.3}  {:>8.3}   (holds a bomb, every hidden hand; {:.3} predicted without)",
            "",
            e.any_bomb_cells,
            e.any_bomb_brier_without,
            e.any_bomb_brier_with,
            e.any_bomb_predicted,
            e.any_bomb_observed,
            e.any_bomb_predicted_without
        );
    }
    println!("reliability (all on): predicted bin, cells, mean predicted, observed");
    for b in &c.reliability {
        println!("  {:.1}-{:.1} {:>9} {:>8.3} {:>8.3}", b.from, b.from + 0.1, b.cells, b.predicted, b.observed);
    }
}
