//! `guandan tune`: an AI's weights tuned by self-play in the duplicate arena.

use crate::input::{ArenaRun, Usage, arena_profile, rules_arg};
use guandan_ai::AiProfile;
use std::process::ExitCode;

#[derive(clap::Args)]
pub struct TuneArgs {
    /// The profile tuned (L2, L3, L2v1, L3v1 or a .json file); its weights start the search.
    #[arg(long, default_value = "L2v1")]
    start: String,
    #[arg(long, default_value = "L2v1")]
    opponent: String,
    #[arg(long, default_value_t = 300)]
    deals: u32,
    #[arg(long, default_value_t = 20)]
    generations: u32,
    #[arg(long, default_value_t = 8)]
    children: u32,
    #[arg(long, default_value_t = 0.3)]
    sigma: f32,
    #[command(flatten)]
    run: ArenaRun,
    /// Where the tuned profile goes (JSON); printed when absent.
    #[arg(long)]
    out: Option<String>,
}

pub fn run(args: TuneArgs) -> Result<ExitCode, Usage> {
    let TuneArgs { start, opponent, deals, generations, children, sigma, run: ArenaRun { seed, threads, rules }, out } =
        args;
    if deals == 0 || children == 0 || !(sigma.is_finite() && sigma > 0.0) {
        return Err(Usage("--deals and --children must be at least 1, --sigma above 0".into()));
    }
    let cfg = guandan_ai::tune::TuneConfig {
        start: arena_profile(&start)?,
        opponent: arena_profile(&opponent)?,
        rules: rules_arg(&rules)?,
        deals,
        generations,
        children,
        sigma,
        seed,
        threads,
    };
    let report = guandan_ai::tune::tune(&cfg, &|g| {
        eprintln!(
            "generation {:>3}: parent {:.1}%, best child {:.1}%{}",
            g.generation,
            g.parent * 100.0,
            g.best_child * 100.0,
            if g.accepted { " (accepted)" } else { "" }
        )
    });
    let profile = AiProfile { weights: report.weights, ..cfg.start.clone() };
    let text = serde_json::to_string_pretty(&profile).map_err(|e| Usage(e.to_string()))?;
    match out {
        Some(path) => std::fs::write(&path, text + "\n").map_err(|e| Usage(format!("cannot write {path}: {e}")))?,
        None => println!("{text}"),
    }
    Ok(ExitCode::SUCCESS)
}
