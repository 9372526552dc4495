//! `guandan` — the headless tool: rules queries, self-play, replay verification.
//! Every command rejects bad input with a message on stderr and exit code 2.

use clap::{Parser, Subcommand};
use guandan_ai::arena::{self, ArenaConfig};
use guandan_ai::{AiLevel, AiProfile};
use guandan_core::card::{CardSet, Rank};
use guandan_core::combo::{Play, beats, choose_reading, classify};
use guandan_core::log::MatchLog;
use guandan_core::movegen;
use guandan_core::rules::{PRESETS, RuleConfig};
use guandan_core::sim;
use serde_json::{Value, json};
use std::process::ExitCode;

mod bench;
mod bomb_rate;
mod bot;
mod flood;
mod join;
mod plot;
mod swarm;
use std::time::Instant;

#[derive(Parser)]
#[command(name = "guandan", version, about = "Guandan rules engine and tools")]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Every reading of a set of cards, as a JSON array of [type, rank, cards].
    Classify {
        #[arg(long)]
        level: String,
        #[arg(long, default_value = "competition")]
        rules: String,
        /// Cards in competition notation (`S2 HT SB HR`), as one or several arguments.
        #[arg(required = true)]
        cards: Vec<String>,
    },
    /// Every distinct legal play of a hand (PASS first when following), as JSON.
    Moves {
        #[arg(long)]
        level: String,
        #[arg(long)]
        hand: String,
        /// The play on the table.
        #[arg(long)]
        follow: Option<String>,
        #[arg(long, default_value = "competition")]
        rules: String,
    },
    /// Whether the first set beats the second: prints true/false, exit 0 / 1.
    Beats {
        #[arg(long)]
        level: String,
        #[arg(long, default_value = "competition")]
        rules: String,
        a: String,
        b: String,
    },
    /// Plays N full matches with random legal moves, checking invariants after every action.
    Selfplay {
        #[arg(long, default_value_t = 100)]
        games: u64,
        #[arg(long, default_value_t = 1)]
        seed: u64,
        #[arg(long, default_value = "competition")]
        rules: String,
    },
    /// Saved match logs.
    Replay {
        #[command(subcommand)]
        command: ReplayCommand,
    },
    /// Duplicate-deal arena between two AI levels (each deal played twice, seats swapped).
    Arena {
        #[arg(long)]
        a: String,
        #[arg(long)]
        b: String,
        #[arg(long, default_value_t = 200)]
        deals: u32,
        /// Also play this many whole matches (each twice, seats swapped).
        #[arg(long, default_value_t = 0)]
        matches: u32,
        #[arg(long, default_value_t = 1)]
        seed: u64,
        #[arg(long, default_value_t = 2)]
        threads: usize,
        #[arg(long, default_value = "competition")]
        rules: String,
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
    },
    /// Tunes an AI's weights by self-play: a (1+λ) evolution strategy in the duplicate arena
    /// against a fixed opponent; prints each generation and writes the tuned profile as JSON.
    Tune {
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
        #[arg(long, default_value_t = 1)]
        seed: u64,
        #[arg(long, default_value_t = 2)]
        threads: usize,
        #[arg(long, default_value = "competition")]
        rules: String,
        /// Where the tuned profile goes (JSON); printed when absent.
        #[arg(long)]
        out: Option<String>,
    },
    /// Plays on the Guandan AI competition platform: JSON messages in, `{"actIndex": i}` out
    /// (stdin/stdout, one per line, or --ws URL).
    Bot(bot::BotArgs),
    /// Load for a running guandan-server: N rooms x 4 WebSocket clients play whole matches;
    /// prints rooms finished, actions, round-trip p50/p99, desyncs, lost actions, errors.
    Swarm(swarm::SwarmArgs),
    /// The public-endpoint flooder as a measuring tool: keep-alive HTTP connections from chosen
    /// loopback addresses GET a path as fast as answers come; prints statuses, latency and the
    /// server's peak memory.
    Flood(flood::FloodArgs),
    /// One seat of a room on a guandan-server, played by the AI until the match is stored;
    /// prints the seat, the last state hash received and the stored record's replayed hash.
    Join(join::JoinArgs),
    /// Seeded fuzzing of the parsers and the engine API (the libFuzzer targets' entry points).
    Fuzz {
        /// `engine`, `parsers` or `all`.
        #[arg(long, default_value = "all")]
        target: String,
        #[arg(long, default_value_t = 10_000)]
        iterations: u64,
        #[arg(long, default_value_t = 1)]
        seed: u64,
    },
    /// Player statistics from match records (the figures the game's Stats screen shows).
    Stats {
        /// Match records (.jsonl); a damaged one is reported and skipped.
        #[arg(required = true)]
        logs: Vec<String>,
        #[arg(long)]
        json: bool,
        /// Draws each player's match win rate over the records, in order, to this PNG.
        #[arg(long)]
        plot: Option<String>,
    },
    /// How often bombs are dealt and played (compare dealing rules, e.g. --rules no_shuffle).
    BombRate {
        #[arg(long, default_value_t = 50)]
        matches: u64,
        #[arg(long, default_value_t = 1)]
        seed: u64,
        #[arg(long, default_value = "competition")]
        rules: String,
        /// The AI at every seat (L1, L2, L3).
        #[arg(long, default_value = "L2")]
        ai: String,
        #[arg(long)]
        json: bool,
    },
    /// Quick timings of rules and AI decisions on seeded random positions (p50 / p99).
    Bench {
        #[arg(long, default_value_t = 2000)]
        positions: usize,
        #[arg(long, default_value_t = 1)]
        seed: u64,
        /// Positions searched by L3 (slow).
        #[arg(long, default_value_t = 100)]
        l3_positions: usize,
    },
    /// How well L3's inferences about hidden hands are calibrated: L2 plays whole matches; at each
    /// play decision worlds are sampled with each inference on or off and compared with the true
    /// hands (Brier score on the cells each inference touched; reliability bins with all on).
    Beliefs {
        #[arg(long, default_value_t = 200)]
        deals: u32,
        /// Worlds sampled per decision and variant.
        #[arg(long, default_value_t = 32)]
        worlds: u32,
        #[arg(long, default_value_t = 1)]
        seed: u64,
        #[arg(long, default_value = "competition")]
        rules: String,
        #[arg(long)]
        json: bool,
    },
    /// Prints the four hands of a seeded first deal.
    Deal {
        #[arg(long, default_value_t = 1)]
        seed: u64,
    },
}

#[derive(Subcommand)]
enum ReplayCommand {
    /// Replays a saved log from scratch and checks its hashes (exit 0 valid, 1 damaged, 2 unreadable).
    Verify {
        file: String,
        /// One JSON object: {ok, code, name, message, actions, checkpoints, hash}.
        #[arg(long)]
        json: bool,
    },
    /// Plays a random match and saves its log (for tests and tools).
    Record {
        #[arg(long, default_value_t = 1)]
        seed: u64,
        #[arg(long, default_value = "competition")]
        rules: String,
        file: String,
    },
}

/// A usage error: message on stderr, exit code 2.
struct Usage(String);

impl<E: std::fmt::Display> From<E> for Usage {
    fn from(e: E) -> Self {
        Usage(e.to_string())
    }
}

/// An arena contestant: `L1`–`L3`, `L2v1`/`L3v1` (the agents before issue 11), `L2v2`/`L3v2`
/// (before issue 25) or a JSON
/// `AiProfile` file (absent fields take the defaults).
fn arena_profile(name: &str) -> Result<AiProfile, Usage> {
    if let Some(level) = AiLevel::parse(name) {
        return Ok(AiProfile::level(level));
    }
    if let Some(level) = name.strip_suffix("v1").and_then(AiLevel::parse) {
        return Ok(AiProfile::v1(level));
    }
    if let Some(level) = name.strip_suffix("v2").and_then(AiLevel::parse) {
        return Ok(AiProfile::v2(level));
    }
    if name.ends_with(".json") {
        let text = std::fs::read_to_string(name).map_err(|e| Usage(format!("cannot read {name}: {e}")))?;
        return serde_json::from_str(&text).map_err(|e| Usage(format!("{name} is not an AiProfile: {e}")));
    }
    Err(Usage(format!("unknown AI {name:?}: use L1, L2, L3, L2v1, L3v1, L2v2, L3v2 or a profile .json file")))
}

fn rules_arg(name: &str) -> Result<RuleConfig, Usage> {
    if let Some(r) = RuleConfig::preset(name) {
        return Ok(r);
    }
    if name.ends_with(".json") {
        let text = std::fs::read_to_string(name).map_err(|e| Usage(format!("cannot read {name}: {e}")))?;
        return RuleConfig::from_json(&text).map_err(|e| Usage(format!("{name}: {e}")));
    }
    Err(Usage(format!("unknown rules {name:?}: use one of {} or a .json file", PRESETS.join(", "))))
}

fn cards_arg(text: &str) -> Result<CardSet, Usage> {
    let set = CardSet::parse(text)?;
    if set.is_empty() {
        return Err(Usage("no cards given".into()));
    }
    Ok(set)
}

fn wire(plays: impl IntoIterator<Item = Play>) -> Vec<Value> {
    plays.into_iter().map(|p| p.to_wire()).collect()
}

fn default_reading(cards: CardSet, level: Rank, rules: &RuleConfig) -> Result<Play, Usage> {
    let readings = classify(cards, level, rules);
    choose_reading(&readings, None, level, rules)
        .ok_or_else(|| Usage(format!("{} is no combination", cards.notation())))
}

fn run(cli: Cli) -> Result<ExitCode, Usage> {
    match cli.command {
        Command::Classify { level, rules, cards } => {
            let level = Rank::parse_level(&level)?;
            let rules = rules_arg(&rules)?;
            let set = cards_arg(&cards.join(" "))?;
            println!("{}", Value::Array(wire(classify(set, level, &rules))));
        }
        Command::Moves { level, hand, follow, rules } => {
            let level = Rank::parse_level(&level)?;
            let rules = rules_arg(&rules)?;
            let hand = cards_arg(&hand)?;
            let mut out = Vec::new();
            let moves = match follow {
                Some(t) => {
                    let table = default_reading(cards_arg(&t)?, level, &rules)?;
                    out.push(json!(["PASS", "PASS", "PASS"]));
                    movegen::follows(hand, &table, level, &rules)
                }
                None => movegen::leads(hand, level, &rules),
            };
            out.extend(wire(moves));
            println!("{}", Value::Array(out));
        }
        Command::Beats { level, rules, a, b } => {
            let level = Rank::parse_level(&level)?;
            let rules = rules_arg(&rules)?;
            let (a, b) = (cards_arg(&a)?, cards_arg(&b)?);
            let table = default_reading(b, level, &rules)?;
            let ra = classify(a, level, &rules);
            if ra.is_empty() {
                return Err(Usage(format!("{} is no combination", a.notation())));
            }
            let wins = ra.iter().any(|p| beats(p, &table, level, &rules));
            println!("{wins}");
            return Ok(if wins { ExitCode::SUCCESS } else { ExitCode::from(1) });
        }
        Command::Selfplay { games, seed, rules } => {
            let rules = rules_arg(&rules)?;
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
        }
        Command::Replay { command: ReplayCommand::Verify { file, json } } => {
            let text = std::fs::read_to_string(&file).map_err(|e| Usage(format!("cannot read {file}: {e}")))?;
            // Core's one verifier, as the game and the server use it.
            let verdict = MatchLog::parse(&text).and_then(|log| log.replay().map(|m| (log, m)));
            let report = match &verdict {
                Ok((log, m)) => serde_json::json!({"ok": true, "code": 0, "name": "ok", "message": "",
                    "actions": log.actions.len(), "checkpoints": log.checkpoints.len(), "hash": m.state_hash()}),
                Err(e) => serde_json::json!({"ok": false, "code": e.code().code(), "name": e.code().name(),
                    "message": e.to_string()}),
            };
            match (&verdict, json) {
                (_, true) => println!("{report}"),
                (Ok((log, m)), false) => println!(
                    "ok: {} actions, {} checkpoints verified, final hash {}",
                    log.actions.len(),
                    log.checkpoints.len(),
                    m.state_hash()
                ),
                (Err(e), false) => eprintln!("{file}: {e} (code {})", e.code()),
            }
            if verdict.is_err() {
                return Ok(ExitCode::from(1));
            }
        }
        Command::Replay { command: ReplayCommand::Record { seed, rules, file } } => {
            let rules = rules_arg(&rules)?;
            let (m, log) = sim::random_match(seed, rules, 200_000).map_err(|v| Usage(v.to_string()))?;
            std::fs::write(&file, log.to_jsonl()).map_err(|e| Usage(format!("cannot write {file}: {e}")))?;
            println!("recorded {} actions to {file}, final hash {}", log.actions.len(), m.state_hash());
        }
        Command::Tune { start, opponent, deals, generations, children, sigma, seed, threads, rules, out } => {
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
                Some(path) => {
                    std::fs::write(&path, text + "\n").map_err(|e| Usage(format!("cannot write {path}: {e}")))?
                }
                None => println!("{text}"),
            }
        }
        Command::Arena { a, b, deals, matches, seed, threads, rules, budget_ms, iterations, json, plot, a_oracle } => {
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
                a: profile(&a)?,
                b: profile(&b)?,
                deals,
                seed,
                rules: rules_arg(&rules)?,
                threads,
                matches,
            };
            let bar = indicatif::ProgressBar::new((deals as u64 + matches as u64) * 2);
            if json || !std::io::IsTerminal::is_terminal(&std::io::stderr()) {
                bar.set_draw_target(indicatif::ProgressDrawTarget::hidden());
            }
            let start = Instant::now();
            let mut report = arena::run(&cfg, &|n| bar.set_position(n as u64));
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
        }
        Command::Bot(args) => bot::run(args).map_err(Usage)?,
        Command::Swarm(args) => swarm::run(args).map_err(Usage)?,
        Command::Flood(args) => flood::run(args).map_err(Usage)?,
        Command::Join(args) => join::run(args).map_err(Usage)?,
        Command::Fuzz { target, iterations, seed } => return fuzz_cmd(&target, iterations, seed),
        Command::Stats { logs, json, plot } => return stats_cmd(&logs, json, plot.as_deref()),
        Command::BombRate { matches, seed, rules, ai, json } => {
            let level =
                AiLevel::parse(&ai).ok_or_else(|| Usage(format!("unknown AI level {ai:?}: use L1, L2 or L3")))?;
            let r = bomb_rate::measure(&rules_arg(&rules)?, &AiProfile::level(level), matches, seed).map_err(Usage)?;
            if json {
                println!("{}", serde_json::to_string(&r).unwrap_or_default());
            } else {
                println!(
                    "{} rules, {} matches, {} deals: {:.2} natural bombs dealt a hand, {:.1}% of hands dealt a bomb of 6+ cards, {:.2} bombs played a deal",
                    r.rules,
                    r.matches,
                    r.deals,
                    r.bombs_dealt_per_hand,
                    r.hands_with_big_bomb * 100.0,
                    r.bombs_played_per_deal
                );
            }
        }
        Command::Bench { positions, seed, l3_positions } => bench::run(positions, seed, l3_positions),
        Command::Beliefs { deals, worlds, seed, rules, json } => {
            if deals == 0 || worlds == 0 {
                return Err(Usage("--deals and --worlds must be at least 1".into()));
            }
            let c = guandan_ai::calibrate::run(deals, worlds, seed, &rules_arg(&rules)?);
            if json {
                println!("{}", serde_json::to_string_pretty(&c)?);
            } else {
                print_calibration(&c);
            }
        }
        Command::Deal { seed } => {
            for (seat, hand) in guandan_core::deal::deal_for_seed(seed).iter().enumerate() {
                println!("seat {seat}: {}", hand.notation());
            }
        }
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

fn fuzz_cmd(target: &str, iterations: u64, seed: u64) -> Result<ExitCode, Usage> {
    use rand_core::{Rng, SeedableRng};
    type Target = (&'static str, fn(&[u8]));
    let targets: Vec<Target> = match target {
        "engine" => vec![("engine", guandan_core::fuzz::engine)],
        "parsers" => vec![("parsers", guandan_core::fuzz::parsers)],
        "all" => vec![("engine", guandan_core::fuzz::engine), ("parsers", guandan_core::fuzz::parsers)],
        other => return Err(Usage(format!("unknown fuzz target {other:?}: engine, parsers or all"))),
    };
    // Findings are reported here, not as a crash trace.
    std::panic::set_hook(Box::new(|_| {}));
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(seed);
    let start = Instant::now();
    for i in 0..iterations {
        let n = (rng.next_u32() % 600) as usize;
        let data: Vec<u8> = (0..n).map(|_| rng.next_u32() as u8).collect();
        for (name, f) in &targets {
            if let Err(e) = std::panic::catch_unwind(|| f(&data)) {
                let msg =
                    e.downcast_ref::<String>().cloned().or_else(|| e.downcast_ref::<&str>().map(|s| s.to_string()));
                let path = format!("fuzz-{name}-{seed}-{i}.bin");
                let _ = std::fs::write(&path, &data);
                eprintln!("FINDING in {name} at iteration {i}: {}; input saved to {path}", msg.unwrap_or_default());
                return Ok(ExitCode::from(1));
            }
        }
    }
    println!("{iterations} inputs x {} target(s), no findings ({:.1} s)", targets.len(), start.elapsed().as_secs_f64());
    Ok(ExitCode::SUCCESS)
}

/// `guandan stats`: every readable record is added; damaged ones are named on stderr (exit 1).
fn stats_cmd(files: &[String], json: bool, plot: Option<&str>) -> Result<ExitCode, Usage> {
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

fn main() -> ExitCode {
    match run(Cli::parse()) {
        Ok(code) => code,
        Err(Usage(msg)) => {
            eprintln!("error: {msg}");
            ExitCode::from(2)
        }
    }
}
