//! `guandan join`: one seat of a room on a `guandan-server`, played by the AI — to fill the
//! seats next to a person (tools/test-online puts three of them beside the Godot client). Joins
//! the room by its code, says ready, plays until the match is stored, then fetches the stored
//! record, replays it and prints one JSON line: the seat, the match number, the last state hash
//! it was sent, the replayed record's final hash and its hash after each action.

use guandan_ai::AiLevel;
use guandan_proto::{ClientMsg, ServerMsg};
use std::time::Duration;

use crate::swarm;
use crate::swarm::link::Server;

#[derive(clap::Args, Debug, Clone)]
pub struct JoinArgs {
    /// The server: https://HOST[:PORT] or wss://… (TLS, port 443 by default), or
    /// http://HOST:PORT / HOST:PORT in plain text (7878 by default).
    #[arg(long)]
    pub server: String,
    /// A PEM file of CA certificates trusted besides Mozilla's roots (a private CA: tests, a
    /// self-hosted server). There is no way to skip the certificate check.
    #[arg(long)]
    pub ca_file: Option<String>,
    /// The room code (6 characters).
    #[arg(long)]
    pub code: String,
    /// The AI that plays the seat: L1 or L2.
    #[arg(long, default_value = "L1")]
    pub ai: String,
    /// The guest nickname.
    #[arg(long, default_value = "bot")]
    pub name: String,
    /// Seed of the AI's random choices.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Give up after this many seconds.
    #[arg(long, default_value_t = 900)]
    pub timeout_s: u64,
    /// Wait this many milliseconds after each prompt before answering (a person's pace; 0 plays
    /// at once).
    #[arg(long, default_value_t = 0)]
    pub think_ms: u64,
}

pub fn run(args: JoinArgs) -> Result<(), String> {
    let trust = swarm::link::trust(args.ca_file.as_deref())?;
    let addr = swarm::link::server_addr("--server", &args.server, &trust)?;
    let level = AiLevel::parse(&args.ai).ok_or_else(|| format!("--ai: unknown level {}", args.ai))?;
    if matches!(level, AiLevel::L3) {
        return Err("--ai: L1 or L2".into());
    }
    let code = guandan_proto::parse_room_code(&args.code).map_err(|why| format!("--code: {why}"))?;
    // The server's own rule, checked before anything is sent.
    guandan_proto::check_nickname(&args.name).map_err(|why| format!("--name: {why}"))?;
    let args = JoinArgs { code, ..args };
    let rt = tokio::runtime::Builder::new_current_thread().enable_all().build().map_err(|e| e.to_string())?;
    let deadline = Duration::from_secs(args.timeout_s);
    rt.block_on(async {
        tokio::time::timeout(deadline, join(addr, &args, level))
            .await
            .map_err(|_| format!("not finished after {} s", args.timeout_s))?
    })
}

async fn join(addr: Server, args: &JoinArgs, level: AiLevel) -> Result<(), String> {
    let mut ws = swarm::link::login(addr.clone(), &args.name).await?;
    ws.send(&ClientMsg::JoinRoom { code: args.code.clone(), last_action_seq: None }).await?;
    let seat = match swarm::link::until(&mut ws, "joined", |m| matches!(m, ServerMsg::Joined { .. })).await? {
        ServerMsg::Joined { seat: Some(s), .. } => s,
        _ => return Err("joined without a seat".into()),
    };
    // Ready is taken once every seat is filled (the room's ready check).
    swarm::link::until(
        &mut ws,
        "a full room",
        |m| matches!(m, ServerMsg::Room { room } if room.seats.iter().all(|s| s.player.is_some() || s.ai.is_some())),
    )
    .await?;
    ws.send(&ClientMsg::Ready { ready: true }).await?;
    eprintln!("guandan join: seat {seat} of room {}", args.code);
    let how = swarm::player::Client {
        level,
        drop_rate: 0.0,
        think: Duration::from_millis(args.think_ms),
        seed: args.seed ^ u64::from(u8::from(seat)),
        totals: Default::default(),
    };
    let (seen, match_no, _) = swarm::player::play(addr.clone(), ws, seat, how).await?;
    let (last_seq, last_hash) = seen.last.unwrap_or_default();
    let log = swarm::link::finished_match(addr, &args.code, match_no).await?;
    let (mut m, _) = log.start().map_err(|e| e.to_string())?;
    // The state hash after each stored action (index: the action seq): what every full state the
    // server sent on the way must have carried (tools/test-online checks each resync against it).
    let mut hashes = vec![m.state_hash()];
    for a in &log.actions {
        m.apply(a).map_err(|e| format!("the stored log does not replay: {e}"))?;
        hashes.push(m.state_hash());
    }
    println!(
        "{}",
        serde_json::json!({
            "seat": seat,
            "match_no": match_no,
            "last_seq": last_seq,
            "last_hash": last_hash,
            "stored_actions": log.actions.len(),
            "stored_hash": m.state_hash(),
            "over": m.is_over(),
            "stored_hashes": hashes,
        })
    );
    Ok(())
}
