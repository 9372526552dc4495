//! `guandan stats`: player statistics from match records (the figures the game's Stats screen
//! shows), as text, JSON or a chart of match win rates.

use crate::input::Usage;
use crate::plot;
use guandan_core::log::MatchLog;
use std::process::ExitCode;

/// `guandan stats`: every readable record is added; damaged ones are named on stderr (exit 1).
pub fn run(files: &[String], json: bool, plot: Option<&str>) -> Result<ExitCode, Usage> {
    let mut stats = guandan_core::stats::Stats::default();
    let mut damaged = 0;
    let mut history: Vec<(String, Vec<f64>)> = Vec::new();
    for file in files {
        let text = std::fs::read_to_string(file).map_err(|e| Usage(format!("cannot read {file}: {e}")))?;
        match MatchLog::parse(&text).and_then(|log| stats.add(&log)) {
            Ok(()) => {
                for (name, p) in &stats.players {
                    match history.iter_mut().find(|(n, _)| n == name) {
                        Some((_, v)) => v.push(p.match_win_rate()),
                        None => history.push((name.clone(), vec![p.match_win_rate()])),
                    }
                }
            }
            Err(e) => {
                damaged += 1;
                eprintln!("{file}: skipped, {e} (code {})", e.code());
            }
        }
    }
    if json {
        println!("{}", serde_json::to_string(&stats).unwrap_or_default());
    } else {
        for (name, p) in &stats.players {
            println!(
                "{name}: {} matches ({:.0}% won, {} unfinished), {} deals ({:.0}% won), double-down {:.0}% / \
                 double-downed {:.0}%, bombs {:.1}% of plays, {} wilds used, tribute deals won {:.0}%, {} levels \
                 climbed, {:.0} ms a decision",
                p.record.matches,
                p.match_win_rate() * 100.0,
                p.record.unfinished,
                p.record.deals,
                p.deal_win_rate() * 100.0,
                p.double_down_rate() * 100.0,
                p.double_downed_rate() * 100.0,
                p.bomb_rate() * 100.0,
                p.wilds_used,
                p.tribute_deal_win_rate() * 100.0,
                p.levels_climbed,
                p.mean_think_ms()
            );
            for (vs, r) in &p.by_opponents {
                println!("    {vs}: {}/{} matches, {}/{} deals won", r.matches_won, r.matches, r.deals_won, r.deals);
            }
        }
    }
    if let Some(path) = plot {
        plot::win_rate_history(path, &history).map_err(Usage)?;
    }
    Ok(ExitCode::from(u8::from(damaged > 0)))
}
