//! `guandan review`: L3's review (复盘) of one seat of a recorded match — a local record
//! (`guandan replay record`, the game's saved replays) or a finished online match as the server
//! serves it (`GET /v1/matches/CODE/N`, `{meta, log}`); and `guandan review-bench`: what a review
//! costs and marks, on deals an AI played.

use crate::input::{Usage, arena_profile, seat_arg};
use clap::Args;
use guandan_ai::agent::{Agent, Budget};
use guandan_ai::review::{
    Mark, Review, ReviewConfig, cache_path, load_cached, parse_record, review, reviewer, save_cached,
};
use guandan_core::game::{Match, Seat};
use guandan_core::log::MatchLog;
use guandan_core::rules::RuleConfig;
use rand_chacha::ChaCha8Rng;
use rand_core::SeedableRng;
use std::path::Path;
use std::process::ExitCode;
use std::time::Instant;

#[derive(Args)]
pub struct ReviewArgs {
    /// The record: JSON Lines, or a stored online match (`{meta, log}`).
    file: String,
    /// The seat reviewed (0 south … 3 west).
    #[arg(long, default_value = "0", value_parser = seat_arg)]
    seat: Seat,
    /// The whole review as one JSON object.
    #[arg(long)]
    json: bool,
    /// Sampled worlds in each of the two sets a decision is valued in (the budget).
    #[arg(long, default_value_t = ReviewConfig::default().worlds)]
    worlds: u32,
    /// The review's seed (same record, seed and worlds: same review).
    #[arg(long, default_value_t = 0)]
    seed: u64,
    /// Worker threads (never change the review, only its speed).
    #[arg(long, default_value_t = 1)]
    threads: u32,
    /// Review again even when `<file>.review.json` holds this review (the fresh one replaces it).
    #[arg(long)]
    no_cache: bool,
}

/// Exit 0 reviewed; 1 the record was refused (damaged, tampered, unreadable as a record).
/// The review is kept beside the record (`<file>.review.json`) and reused while it is the
/// review asked for (same record, seat and budget); a cache that cannot be used is named on
/// stderr with its code and the deal is reviewed again.
pub fn run(args: ReviewArgs) -> Result<ExitCode, Usage> {
    let text = std::fs::read_to_string(&args.file).map_err(|e| Usage(format!("cannot read {}: {e}", args.file)))?;
    let cfg = ReviewConfig { worlds: args.worlds, seed: args.seed, ..ReviewConfig::default() };
    let cache = cache_path(Path::new(&args.file));
    let start = Instant::now();
    let mut cached = false;
    let result = parse_record(&text).and_then(|log| {
        if !args.no_cache {
            let hash = log.replay()?.state_hash();
            match load_cached(&cache, &hash, args.seat, &cfg) {
                Ok(Some(r)) => {
                    cached = true;
                    return Ok(r);
                }
                Ok(None) => {}
                Err(e) => eprintln!("{} ({}); reviewing again", e, e.code()),
            }
        }
        let r = review(&log, args.seat, &cfg, &reviewer(args.threads), |_, _| {})?;
        if let Err(e) = save_cached(&cache, &r) {
            eprintln!("{} ({}); the review is not kept", e, e.code());
        }
        Ok(r)
    });
    let r = match result {
        Ok(r) => r,
        Err(e) => {
            if args.json {
                println!("{}", serde_json::json!({ "ok": false, "message": e.to_string() }));
            } else {
                eprintln!("{}: refused: {e}", args.file);
            }
            return Ok(ExitCode::from(1));
        }
    };
    let secs = start.elapsed().as_secs_f64();
    if args.json {
        let mut v = serde_json::to_value(&r).map_err(|e| Usage(e.to_string()))?;
        v["ok"] = true.into();
        v["seconds"] = secs.into();
        v["cached"] = cached.into();
        println!("{v}");
    } else {
        print_review(&r, secs);
        if cached {
            println!("(kept review: {})", cache.display());
        }
    }
    Ok(ExitCode::SUCCESS)
}

fn print_review(r: &Review, secs: f64) {
    println!(
        "review of seat {} by L3 ({} worlds x 2 a decision, seed {}; marked by cost + kept: inaccuracy >= {}, mistake >= {})",
        r.seat, r.config.worlds, r.config.seed, r.config.inaccuracy, r.config.mistake
    );
    for d in &r.deals {
        println!(
            "deal {}: {} decisions ({} forced), {} inaccuracies, {} mistakes, cost {:.2}",
            d.deal_no + 1,
            d.moves.len(),
            d.forced,
            d.inaccuracies,
            d.mistakes,
            d.cost
        );
        for m in d.moves.iter().filter(|m| m.mark != Mark::Good) {
            let mark = if m.mark == Mark::Mistake { "mistake" } else { "inaccuracy" };
            println!(
                "  action {:>4}: {mark:<10} played {:<16} best {:<16} cost {:.2} levels + {:.2} kept ({})",
                m.action, m.played.text, m.best.text, m.cost, m.keep_cost, m.reason
            );
        }
    }
    println!(
        "match: {} decisions, {} inaccuracies, {} mistakes, cost {:.2}{}; {:.1} s ({:.1} s a deal)",
        r.moves,
        r.inaccuracies,
        r.mistakes,
        r.cost,
        r.biggest
            .map(|(d, i)| format!(
                ", biggest at action {} ({:.2})",
                r.deals[d].moves[i].action, r.deals[d].moves[i].cost
            ))
            .unwrap_or_default(),
        secs,
        secs / r.deals.len().max(1) as f64
    );
}

#[derive(Args)]
pub struct ReviewBenchArgs {
    /// The AI whose play is reviewed (seat 0; the other seats are L2).
    #[arg(long, default_value = "L3")]
    ai: String,
    /// First deals of this many seeded matches.
    #[arg(long, default_value_t = 20)]
    deals: u64,
    #[arg(long, default_value_t = 1)]
    seed: u64,
    #[arg(long, default_value_t = ReviewConfig::default().worlds)]
    worlds: u32,
}

/// Plays the first deal of `deals` matches (the AI at seat 0, L2 elsewhere), reviews seat 0 on
/// one thread and prints the review's time per deal and its marks per deal.
pub fn bench(args: ReviewBenchArgs) -> Result<ExitCode, Usage> {
    let profile = arena_profile(&args.ai)?;
    let cfg = ReviewConfig { worlds: args.worlds, ..ReviewConfig::default() };
    let l3 = reviewer(1);
    let mut times = Vec::new();
    let (mut moves, mut inaccuracies, mut mistakes) = (0u32, 0u32, 0u32);
    let mut worst: Vec<(f32, u64, usize, String, String)> = Vec::new();
    for seed in args.seed..args.seed + args.deals {
        let log = first_deal(seed, &profile);
        let start = Instant::now();
        let r = review(&log, Seat::ZERO, &cfg, &l3, |_, _| {}).map_err(|e| Usage(format!("seed {seed}: {e}")))?;
        times.push(start.elapsed().as_secs_f64());
        moves += r.moves;
        inaccuracies += r.inaccuracies;
        mistakes += r.mistakes;
        for m in r.deals.iter().flat_map(|d| &d.moves).filter(|m| m.mark != Mark::Good) {
            worst.push((m.measure(), seed, m.action, m.played.text.clone(), m.best.text.clone()));
        }
    }
    times.sort_by(f64::total_cmp);
    let n = times.len().max(1) as f64;
    let mean = times.iter().sum::<f64>() / n;
    let p = |q: f64| times.get(((times.len() as f64 - 1.0) * q).round() as usize).copied().unwrap_or(0.0);
    println!(
        "{} deals of {} reviewed (seat 0, {} worlds x 2, one thread): {} decisions, {:.2} a deal",
        times.len(),
        args.ai,
        cfg.worlds,
        moves,
        f64::from(moves) / n
    );
    println!(
        "marks: {inaccuracies} inaccuracies ({:.2} a deal), {mistakes} mistakes ({:.2} a deal)",
        f64::from(inaccuracies) / n,
        f64::from(mistakes) / n
    );
    println!("review time a deal: mean {mean:.2} s, p50 {:.2} s, max {:.2} s", p(0.5), p(1.0));
    worst.sort_by(|a, b| b.0.total_cmp(&a.0));
    for (cost, seed, action, played, best) in worst.iter().take(5) {
        println!("  seed {seed} action {action}: played {played}, best {best}, cost + kept {cost:.2}");
    }
    Ok(ExitCode::SUCCESS)
}

/// The first deal of match `seed`: `profile` at seat 0, L2 at the others.
fn first_deal(seed: u64, profile: &guandan_ai::AiProfile) -> MatchLog {
    let rules = RuleConfig::competition();
    let (mut m, _) = Match::new(seed, rules.clone()).expect("competition rules are valid");
    let mut log = MatchLog::new(seed, rules);
    let mut me = guandan_ai::make_agent(profile);
    let mut l2 = guandan_ai::make_agent(&guandan_ai::AiProfile::level(guandan_ai::AiLevel::L2));
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut events = Vec::new();
    while m.deal_no() == 0 && !m.is_over() {
        let seat: Seat = m.to_act()[0];
        let agent: &mut dyn Agent = if seat == Seat::ZERO { me.as_mut() } else { l2.as_mut() };
        let d = agent.decide(&m.view(Some(seat)), &mut rng, &Budget::untimed());
        let a = m.action(seat, d.action);
        events.clear();
        m.apply_into(&a, &mut events).expect("an AI plays legal moves");
        log.record(&a, &events, &m);
    }
    log
}
