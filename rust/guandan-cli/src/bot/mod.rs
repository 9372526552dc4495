//! `guandan bot`: an AI player for the Guandan AI competition platform.
//!
//! The platform sends JSON messages (`{"type": "notify" | "act", "stage": ..., ...}`) and expects
//! `{"actIndex": i}` for every `act`, `i` indexing the message's `actionList`. This module reads
//! them one per line (stdin/stdout) or one per WebSocket text frame (`--ws URL`, see `bot_ws.rs`),
//! keeps what the notifications tell (plays, tributes, finishing order), builds the seat's
//! [`PlayerView`], asks the agent, and maps its decision back onto an index of `actionList`.
//!
//! Messages: `notify` `beginning` (`handCards`, `myPos`), `play` (`curPos`, `curAction`,
//! `greaterPos`, `greaterAction`), `tribute` / `back` (`result`: `[[from, to, card], ...]`),
//! `anti-tribute` (`antiNums`, `antiPos`), `episodeOver` (`order`), `gameOver`, `gameResult`; `act`
//! `play` / `tribute` / `back` with `handCards`, `publicInfo` (per seat `rest` and `playArea`),
//! `selfRank`, `oppoRank`, `curRank`, `curPos`, `curAction`, `greaterPos`, `greaterAction`,
//! `actionList` (`[type, rank, cards]`, PASS first when following; `["tribute", "tribute", [card]]`,
//! `["back", "back", [card]]`) and `indexRange` (the last valid index).
//!
//! Every field is parsed leniently: a field of an unexpected type counts as missing, ranks may be
//! characters (`"T"`, `"10"`) or integers (2–14, 15/16 for the jokers, 1 for the ace), four jokers
//! may be `FourKings` or `["Bomb", "JOKER", ...]`, and a turn is a lead exactly when
//! `actionList[0]` is not PASS, whatever `greaterPos` says. Unknown or malformed messages are
//! logged to stderr and ignored; the answer is always an index inside the list.

use guandan_ai::{AiLevel, AiProfile};
use guandan_core::rules::{PRESETS, RuleConfig};

mod choice;
mod memory;
#[cfg(test)]
mod tests;
mod wire;
mod ws;

pub use memory::Bot;

/// L3 playouts allowed when a time budget is given (far more than fit in any sane budget).
const BUDGETED_ITERATIONS: u32 = 1_000_000;

/// `guandan bot` arguments.
#[derive(clap::Args, Debug, Clone)]
pub struct BotArgs {
    /// AI level: L1, L2 or L3.
    #[arg(long, default_value = "L3")]
    pub ai: String,
    /// Wall-clock budget per decision in ms (L3 searches until it runs out).
    #[arg(long)]
    pub budget_ms: Option<u32>,
    /// Threads an L3 search may use.
    #[arg(long, default_value_t = 1)]
    pub threads: u32,
    /// The platform's WebSocket, e.g. ws://127.0.0.1:23456/game/client0 or wss://HOST/PATH
    /// (TLS; default: JSON lines on stdin, answers on stdout).
    #[arg(long)]
    pub ws: Option<String>,
    /// A PEM file of CA certificates trusted besides Mozilla's roots for a wss:// platform (a
    /// private CA). There is no way to skip the certificate check.
    #[arg(long)]
    pub ca_file: Option<String>,
    /// Rule preset or .json file (the platform plays the Huai'an rules).
    #[arg(long, default_value = "huaian")]
    pub rules: String,
    /// Seed of the agent's random choices.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
}

/// Runs the bot until the input ends or the WebSocket closes.
pub fn run(args: BotArgs) -> Result<(), String> {
    let level = AiLevel::parse(&args.ai).ok_or_else(|| format!("unknown AI level {:?}: use L1, L2 or L3", args.ai))?;
    let rules = match RuleConfig::preset(&args.rules) {
        Some(r) => r,
        None if args.rules.ends_with(".json") => {
            let text = std::fs::read_to_string(&args.rules).map_err(|e| format!("cannot read {}: {e}", args.rules))?;
            RuleConfig::from_json(&text).map_err(|e| format!("{}: {e}", args.rules))?
        }
        None => {
            return Err(format!("unknown rules {:?}: use one of {} or a .json file", args.rules, PRESETS.join(", ")));
        }
    };
    let mut profile = AiProfile::level(level);
    profile.threads = args.threads.max(1);
    if let Some(ms) = args.budget_ms {
        profile.budget_ms = ms;
        // The clock decides; the cap only bounds what L3 allocates for its worlds up front.
        profile.iterations = profile.iterations.max(BUDGETED_ITERATIONS);
    }
    // A bad --ca-file is said before the agent is built.
    let trust = guandan_proto::tls::Trust::with_ca_file(args.ca_file.as_deref().unwrap_or_default())
        .map_err(|f| format!("--ca-file: {f}"))?;
    let mut bot = Bot::new(profile, rules, args.seed)?;
    match &args.ws {
        Some(url) => ws::run(&mut bot, url, &trust),
        None => {
            let stdin = std::io::stdin();
            let mut out = std::io::stdout().lock();
            bot.run_lines(stdin.lock(), &mut out).map_err(|e| format!("stdin/stdout: {e}"))
        }
    }
}

fn log(msg: impl AsRef<str>) {
    eprintln!("bot: {}", msg.as_ref());
}
