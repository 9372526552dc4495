//! `guandan swarm`: load for a running `guandan-server`. N rooms × 4 WebSocket clients play
//! whole matches (each client an AI seeing only its own seat's messages); with `--drop-rate P`
//! a client drops its connection after an action with chance P and rejoins with its last action
//! seq. When a match is over its stored log is fetched and replayed: every state hash any client
//! saw must be the replay's (else a desync), every client must have seen every action exactly
//! once (else lost / duplicated actions).
//!
//! The parts: `link` (a client's connection and session), `player` (one seat's client until the
//! match is stored), `tally` (what the clients saw, checked against the stored record),
//! `rooms` (the room swarm and its report) and `quick` (the quick-match swarm).

use guandan_ai::AiLevel;
use link::{server_addr, trust};

mod latency;
pub(crate) mod link;
pub(crate) mod player;
mod quick;
mod rooms;
mod server_proc;
pub(crate) mod tally;

#[derive(clap::Args, Debug, Clone)]
pub struct SwarmArgs {
    /// The server: https://HOST[:PORT] or wss://… (TLS, port 443 by default), or
    /// http://HOST:PORT / HOST:PORT in plain text (7878 by default).
    #[arg(long)]
    pub server: String,
    /// A PEM file of CA certificates trusted besides Mozilla's roots (a private CA: tests, a
    /// self-hosted server). There is no way to skip the certificate check.
    #[arg(long)]
    pub ca_file: Option<String>,
    /// Rooms played at the same time (4 connections each).
    #[arg(long, default_value_t = 10)]
    pub rooms: usize,
    /// The clients' AI: L1 or L2.
    #[arg(long, default_value = "L1")]
    pub ai: String,
    /// Chance per action that a client drops its connection and reconnects.
    #[arg(long, default_value_t = 0.0)]
    pub drop_rate: f64,
    /// Spectators per room.
    #[arg(long, default_value_t = 0)]
    pub spectators: usize,
    /// Seed of the clients' AI choices and of their drops (each match's deal is the server's).
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Deal room i from seed + i, the same matches every run (to compare two builds): only a
    /// server started with `--practice-seeds` accepts it.
    #[arg(long)]
    pub deal_seeds: bool,
    /// Play this many seconds once every room plays (the steady state), then end each table's
    /// match (a surrender its players agree on) and check what was played against the stored
    /// record, as after a whole match. Without it, every match is played to its end.
    #[arg(long)]
    pub duration_s: Option<u64>,
    /// Rooms set up a second during the ramp (their four players register, connect and sit).
    #[arg(long, default_value_t = 250.0)]
    pub ramp_rooms_per_s: f64,
    /// Give up on a room after this many seconds.
    #[arg(long, default_value_t = 1800)]
    pub timeout_s: u64,
    /// Each client waits this long (ms) after its prompt before sending its intent, like a
    /// player deciding (0: at once, a closed loop where the round trip is bounded by throughput).
    #[arg(long, default_value_t = 0)]
    pub think_ms: u64,
    /// An attack on each room while it plays (a benchmark of the room's throughput under it):
    /// `spectate` (guests sending spectate for the room) or `resync` (spectators asking for
    /// their state again).
    #[arg(long, value_parser = ["spectate", "resync"])]
    pub flood: Option<String>,
    /// Attacking connections per room (`--flood`).
    #[arg(long, default_value_t = 5)]
    pub flooders: usize,
    /// Messages per second each attacking connection sends (`--flood`; under the server's rate
    /// limit, 20 by default).
    #[arg(long, default_value_t = 18.0)]
    pub flood_rate: f64,
    /// The server's process id (same machine): its peak resident memory is reported.
    #[arg(long)]
    pub server_pid: Option<u32>,
    /// Print one JSON object as the last line.
    #[arg(long)]
    pub json: bool,
    /// Quick match instead of rooms: `--players` clients queue, are seated by the server's
    /// matchmaker, play and queue again (`--quick-rounds` times).
    #[arg(long)]
    pub quick_match: bool,
    /// Clients in the quick-match queue (`--quick-match`).
    #[arg(long, default_value_t = 40)]
    pub players: usize,
    /// The rule preset to queue for (`--quick-match`; default: the server's, competition).
    #[arg(long)]
    pub rules: Option<String>,
    /// Matches each quick-match client plays, queueing again after each (`--quick-match`).
    #[arg(long, default_value_t = 1)]
    pub quick_rounds: usize,
    /// Another instance of the same deployment (`--quick-match`; repeatable): the clients
    /// connect to `--server` and these in turn, and follow the server's redirect to a table
    /// formed on another instance.
    #[arg(long = "also-server")]
    pub also_servers: Vec<String>,
}

pub fn run(args: SwarmArgs) -> Result<(), String> {
    let trust = trust(args.ca_file.as_deref())?;
    let addr = server_addr("--server", &args.server, &trust)?;
    if !args.also_servers.is_empty() && !args.quick_match {
        return Err("--also-server: only with --quick-match (rooms live on the instance they were made on)".into());
    }
    let level = AiLevel::parse(&args.ai).ok_or_else(|| format!("--ai: unknown level {}", args.ai))?;
    if matches!(level, AiLevel::L3) {
        return Err("--ai: L1 or L2 (L3 is too slow for load)".into());
    }
    if !(0.0..=1.0).contains(&args.drop_rate) {
        return Err("--drop-rate: 0 to 1".into());
    }
    let rt = tokio::runtime::Builder::new_multi_thread().enable_all().build().map_err(|e| e.to_string())?;
    let mut addrs = vec![addr];
    for a in &args.also_servers {
        addrs.push(server_addr("--also-server", a, &trust)?);
    }
    for a in &addrs {
        rt.block_on(link::reachable(a))?;
    }
    if args.quick_match {
        return rt.block_on(quick::run(args, addrs, level));
    }
    rt.block_on(rooms::run(args, addrs.swap_remove(0), level))
}
