//! `guandan arena`: two AIs over the same duplicate deals (and whole matches), the report as text,
//! JSON or a chart.

use crate::arena_journal::Journal;
use crate::input::{ArenaRun, Usage, arena_profile, rules_arg};
use crate::plot;
use guandan_ai::arena::{self, ArenaConfig};
use guandan_ai::{AiLevel, AiProfile};
use std::process::ExitCode;
use std::time::Instant;

#[derive(clap::Args)]
pub struct ArenaArgs {
    #[arg(long)]
    a: String,
    #[arg(long)]
    b: String,
    #[arg(long, default_value_t = 200)]
    deals: u32,
    /// Also play this many whole matches (each twice, seats swapped).
    #[arg(long, default_value_t = 0)]
    matches: u32,
    #[command(flatten)]
    run: ArenaRun,
    /// L3 wall-clock budget per decision (makes results machine-dependent).
    #[arg(long, conflicts_with = "iterations")]
    budget_ms: Option<u32>,
    /// L3 playouts per decision.
    #[arg(long)]
    iterations: Option<u32>,
    #[arg(long)]
    json: bool,
    /// Draws win rate and level gain as a PNG chart.
    #[arg(long)]
    plot: Option<String>,
    /// A diagnostic, never a player: A (an L3) searches the true hands instead of sampled
    /// worlds — what L3 would reach with perfect beliefs.
    #[arg(long)]
    a_oracle: bool,
    /// Writes each game down in this file as it ends and, when the file exists, goes on from
    /// the games it holds (the same arena only): a long run can be stopped and resumed.
    #[arg(long)]
    journal: Option<String>,
    /// Measurement on a loaded machine: no decision is cut at the 3 s limit or replaced by L1
    /// (fallbacks are then 0 by construction); the strength of the work each profile asks for.
    #[arg(long, conflicts_with = "budget_ms")]
    untimed: bool,
}

pub fn run(args: ArenaArgs) -> Result<ExitCode, Usage> {
    let ArenaArgs {
        a,
        b,
        deals,
        matches,
        run: ArenaRun { seed, threads, rules },
        budget_ms,
        iterations,
        json,
        plot,
        a_oracle,
        journal,
        untimed,
    } = args;
    let profile = |name: &str| -> Result<AiProfile, Usage> {
        let mut p = arena_profile(name)?;
        if let Some(ms) = budget_ms {
            p.budget_ms = ms;
            p.iterations = u32::MAX;
        }
        if let Some(k) = iterations {
            p.iterations = k;
        }
        Ok(p)
    };
    if deals == 0 {
        return Err(Usage("--deals must be at least 1".into()));
    }
    if a_oracle && profile(&a)?.level != AiLevel::L3 {
        return Err(Usage("--a-oracle needs an L3 as --a (it searches the true hands)".into()));
    }
    let cfg = ArenaConfig {
        a_oracle,
        untimed,
        a: profile(&a)?,
        b: profile(&b)?,
        deals,
        seed,
        rules: rules_arg(&rules)?,
        threads,
        matches,
    };
    if journal.is_some() && matches > 0 {
        return Err(Usage("--journal keeps deals only; run --matches without it".into()));
    }
    let journal = journal.map(|path| Journal::open(&path, &cfg)).transpose()?;
    if let Some(j) = &journal {
        eprintln!("arena: the journal holds {} of the {} games; playing the rest", j.held(), deals * 2);
    }
    let bar = indicatif::ProgressBar::new((deals as u64 + matches as u64) * 2);
    if json || !std::io::IsTerminal::is_terminal(&std::io::stderr()) {
        bar.set_draw_target(indicatif::ProgressDrawTarget::hidden());
    }
    let start = Instant::now();
    let played = journal.as_ref().map_or(&[][..], |j| &j.played[..]);
    let write = |g: usize, game: &arena::Game| {
        if let Some(j) = &journal {
            j.write(g, game);
        }
    };
    let mut report = arena::run_resuming(&cfg, played, &write, &|n| bar.set_position(n as u64));
    bar.finish_and_clear();
    // Name the contestants as asked (`L3v2`, a profile file), not by their level alone.
    (report.a, report.b) = (a.clone(), b.clone());
    if a_oracle {
        report.a.push_str(" (oracle: true hands)");
    }
    if let Some(path) = plot {
        plot::arena_chart(&report, &path).map_err(|e| Usage(format!("cannot draw {path}: {e}")))?;
    }
    if json {
        println!("{}", serde_json::to_string(&report).map_err(|e| Usage(e.to_string()))?);
    } else {
        let [lo, hi] = report.a_deal_win_rate_ci95;
        println!(
            "{} vs {}: {} duplicate deals ({} games), {} rules, seed {}\n  {} deal win rate {:.1}% (95% CI {:.1}-{:.1}%)\n  levels gained per game: {} {:.3}, {} {:.3}\n  decision time: {} p50 {:.3} ms p99 {:.3} ms ({} decisions, {} fallbacks); {} p50 {:.3} ms p99 {:.3} ms\n  wall time {:.1} s",
            report.a,
            report.b,
            report.deals,
            report.games,
            report.rules,
            report.seed,
            report.a,
            report.a_deal_win_rate * 100.0,
            lo * 100.0,
            hi * 100.0,
            report.a,
            report.a_level_gain_per_deal,
            report.b,
            report.b_level_gain_per_deal,
            report.a,
            report.a_decision_ms_p50,
            report.a_decision_ms_p99,
            report.a_decisions,
            report.a_fallbacks,
            report.b,
            report.b_decision_ms_p50,
            report.b_decision_ms_p99,
            start.elapsed().as_secs_f64()
        );
        let [mlo, mhi] = report.a_level_margin_ci95;
        println!(
            "  duplicate pairs: {} won both {}, {} won both {}, split {}; {} level margin per deal {:+.3} (95% CI {:+.3} to {:+.3})",
            report.a,
            report.pairs_a_both,
            report.b,
            report.pairs_b_both,
            report.pairs_split,
            report.a,
            report.a_level_margin_per_deal,
            mlo,
            mhi
        );
        if let (Some(m), Some(rate), Some([lo, hi])) =
            (report.matches, report.a_match_win_rate, report.a_match_win_rate_ci95)
        {
            println!(
                "  whole matches: {m} x 2, {} won {:.1}% (95% CI {:.1}-{:.1}%)",
                report.a,
                rate * 100.0,
                lo * 100.0,
                hi * 100.0
            );
        }
    }
    Ok(ExitCode::SUCCESS)
}
