//! `guandan` — the headless tool: rules queries, self-play, replay verification.
//! Every command rejects bad input with a message on stderr and exit code 2.

use clap::{Parser, Subcommand};
use input::Usage;
use std::process::ExitCode;

mod arena;
mod arena_journal;
mod beliefs;
mod bench;
mod bomb_rate;
mod bot;
mod distill;
mod flood;
mod fuzz;
mod input;
mod join;
mod plot;
mod replay;
mod review;
mod rules_query;
mod selfplay;
mod stats;
mod swarm;
mod train_ranker;
mod tune;

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
    /// L3's review (复盘) of one seat of a record (a local record or a stored online match):
    /// each decision's play, L3's best and the cost; marks and summaries (exit 1: refused).
    Review(review::ReviewArgs),
    /// What a review costs and marks: first deals an AI played at seat 0 (L2 elsewhere), each
    /// reviewed on one thread; time per deal and marks per deal.
    ReviewBench(review::ReviewBenchArgs),
    /// Duplicate-deal arena between two AI levels (each deal played twice, seats swapped).
    Arena(arena::ArenaArgs),
    /// Tunes an AI's weights by self-play: a (1+λ) evolution strategy in the duplicate arena
    /// against a fixed opponent; prints each generation and writes the tuned profile as JSON.
    Tune(tune::TuneArgs),
    /// Labels for the learned ranker: L3 plays arena deals at all four seats and each searched
    /// decision is written with its candidates' features, L2 scores, search means and worlds
    /// (JSON lines; deterministic for a seed whatever the threads; resumes an existing file).
    DistillLabels(distill::DistillArgs),
    /// Trains the learned ranker on labels from distill-labels (one thread, bit-reproducible):
    /// writes the integer weights file and a sidecar .json (SHA-256, command, curve).
    TrainRanker(train_ranker::TrainRankerArgs),
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
        /// Time only these L3 profiles on the L3 positions (the arena's names: L3, L4, L3x2,
        /// a profile .json); repeat it for a budget curve.
        #[arg(long = "l3")]
        l3: Vec<String>,
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

fn run(cli: Cli) -> Result<ExitCode, Usage> {
    match cli.command {
        Command::Classify { level, rules, cards } => rules_query::readings(&level, &rules, &cards),
        Command::Moves { level, hand, follow, rules } => rules_query::moves(&level, &hand, follow.as_deref(), &rules),
        Command::Beats { level, rules, a, b } => rules_query::compare(&level, &rules, &a, &b),
        Command::Selfplay { games, seed, rules } => selfplay::run(games, seed, &rules),
        Command::Replay { command: ReplayCommand::Verify { file, json } } => replay::verify(&file, json),
        Command::Replay { command: ReplayCommand::Record { seed, rules, file } } => replay::record(seed, &rules, &file),
        Command::Review(args) => review::run(args),
        Command::ReviewBench(args) => review::bench(args),
        Command::Tune(args) => tune::run(args),
        Command::Arena(args) => arena::run(args),
        Command::DistillLabels(args) => distill::run(args),
        Command::TrainRanker(args) => train_ranker::run(args),
        Command::Bot(args) => bot::run(args).map(|()| ExitCode::SUCCESS).map_err(Usage),
        Command::Swarm(args) => swarm::run(args).map(|()| ExitCode::SUCCESS).map_err(Usage),
        Command::Flood(args) => flood::run(args).map(|()| ExitCode::SUCCESS).map_err(Usage),
        Command::Join(args) => join::run(args).map(|()| ExitCode::SUCCESS).map_err(Usage),
        Command::Fuzz { target, iterations, seed } => fuzz::run(&target, iterations, seed),
        Command::Stats { logs, json, plot } => stats::run(&logs, json, plot.as_deref()),
        Command::BombRate { matches, seed, rules, ai, json } => bomb_rate::run(matches, seed, &rules, &ai, json),
        Command::Bench { positions, seed, l3_positions, l3 } => {
            let profiles = l3
                .iter()
                .map(|name| {
                    let p = input::arena_profile(name)?;
                    if p.level != guandan_ai::AiLevel::L3 {
                        return Err(input::Usage(format!("--l3 {name}: not an L3 profile")));
                    }
                    Ok((name.clone(), p))
                })
                .collect::<Result<Vec<_>, _>>()?;
            bench::run(positions, seed, l3_positions, &profiles);
            Ok(ExitCode::SUCCESS)
        }
        Command::Beliefs { deals, worlds, seed, rules, json } => beliefs::run(deals, worlds, seed, &rules, json),
        Command::Deal { seed } => rules_query::deal(seed),
    }
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
