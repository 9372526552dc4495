//! `guandan swarm`: load for a running `guandan-server`. N rooms × 4 WebSocket clients play
//! whole matches (each client an AI seeing only its own seat's messages); with `--drop-rate P`
//! a client drops its connection after an action with chance P and rejoins with its last action
//! seq. When a match is over its stored log is fetched and replayed: every state hash any client
//! saw must be the replay's (else a desync), every client must have seen every action exactly
//! once (else lost / duplicated actions).

use futures_util::{SinkExt, StreamExt};
use guandan_ai::{AiLevel, AiProfile, Budget, make_agent};
use guandan_core::log::MatchLog;
use guandan_proto::http::{FinishedMatch, NewPlayer, NewPlayerReply, PLAYERS_PATH, WS_PATH, match_path, read_reply};
use guandan_proto::{ClientMsg, Event, Order, Reconnect, ServerMsg, Session, SessionConfig};
use indicatif::{ProgressBar, ProgressStyle};
use rand_chacha::ChaCha8Rng;
use rand_core::{Rng, SeedableRng};
use std::net::SocketAddr;
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering::Relaxed};
use std::time::{Duration, Instant};
use tokio_tungstenite::tungstenite::Message;
use tokio_tungstenite::tungstenite::protocol::WebSocketConfig;

/// A heartbeat when nothing was sent for this long, and the quiet-table tick.
const HEARTBEAT: Duration = Duration::from_secs(4);

#[derive(clap::Args, Debug, Clone)]
pub struct SwarmArgs {
    /// The server, e.g. http://127.0.0.1:7878.
    #[arg(long)]
    pub server: String,
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

#[derive(Default)]
pub(crate) struct Totals {
    pub(crate) finished: AtomicU64,
    pub(crate) actions: AtomicU64,
    pub(crate) desyncs: AtomicU64,
    pub(crate) lost: AtomicU64,
    pub(crate) duplicated: AtomicU64,
    pub(crate) errors: AtomicU64,
    reconnects: AtomicU64,
    spectator_msgs: AtomicU64,
    pub(crate) failures: AtomicU64,
    /// Rooms whose match was started.
    started: AtomicU64,
    /// Attack messages sent (`--flood`).
    flood_msgs: AtomicU64,
    /// Round trips (µs) of every intent confirmed, finished room or not (a run cut short by
    /// `--timeout-s` still measures them).
    rtts_us: std::sync::Mutex<Vec<u64>>,
}

/// What one client saw. Compact (thousands of clients share the machine with the server):
/// indexed by action seq, hashes kept as their first 64 bits.
#[derive(Default)]
pub(crate) struct Seen {
    /// By action_seq: the state hash's first 64 bits, for every applied or state message.
    hashes: Vec<Option<u64>>,
    /// The newest action seq seen and its whole state hash (`guandan join` prints it).
    pub(crate) last: Option<(u64, String)>,
    /// By action seq: how often the action was announced to this client.
    counts: Vec<u8>,
    /// Action seqs up to which a full state answered a rejoin: the server's way to catch a
    /// client up, so the actions it covers were not lost (a state answering a gap on a live
    /// connection covers nothing: that gap is the server's loss).
    covered: Vec<u64>,
    /// Rejoined, and neither an action nor a state has come since.
    catching_up: bool,
    errors: u64,
    reconnects: u64,
}

/// The first 64 bits of a hex state hash (`None` if it is not hex).
fn hash_key(h: &str) -> Option<u64> {
    h.get(..16).and_then(|p| u64::from_str_radix(p, 16).ok())
}

impl Seen {
    /// A client coming to the table: the first full state it gets covers what came before it
    /// (a quick-match table's AI seats may act before its players arrive).
    fn arriving() -> Seen {
        Seen { catching_up: true, ..Seen::default() }
    }

    fn hash(&mut self, seq: u64, h: &str) {
        let i = seq as usize;
        if self.hashes.len() <= i {
            self.hashes.resize(i + 1, None);
        }
        // An unparsable hash is kept as a value no replay gives (a desync).
        self.hashes[i] = Some(hash_key(h).unwrap_or(u64::MAX));
        if self.last.as_ref().is_none_or(|(s, _)| *s <= seq) {
            self.last = Some((seq, h.to_owned()));
        }
    }

    fn count(&mut self, seq: u64) {
        let i = seq as usize;
        if self.counts.len() <= i {
            self.counts.resize(i + 1, 0);
        }
        self.counts[i] = self.counts[i].saturating_add(1);
        self.catching_up = false;
    }

    /// A full state at `seq`: after a rejoin it covers every action up to it.
    fn state(&mut self, seq: u64) {
        if std::mem::take(&mut self.catching_up) {
            self.covered.push(seq);
        }
    }

    fn rejoined(&mut self) {
        self.reconnects += 1;
        self.catching_up = true;
    }

    /// Of actions 1..=n: how many this client never learnt of (neither announced nor covered
    /// by a state after a rejoin), and how many extra announcements it got.
    fn tally(&self, n: u64) -> (u64, u64) {
        let covered_to = |seq: u64| self.covered.iter().any(|&c| seq <= c);
        (1..=n).fold((0, 0), |(lost, dup), seq| match self.counts.get(seq as usize).copied().unwrap_or(0) {
            0 if !covered_to(seq) => (lost + 1, dup),
            0 | 1 => (lost, dup),
            k => (lost, dup + u64::from(k - 1)),
        })
    }
}

/// `http://HOST:PORT` (or `HOST:PORT`) as an address.
pub(crate) fn server_addr(flag: &str, server: &str) -> Result<SocketAddr, String> {
    server
        .trim_start_matches("http://")
        .trim_end_matches('/')
        .parse()
        .map_err(|e| format!("{flag}: expected http://HOST:PORT, not {server:?} ({e})"))
}

pub fn run(args: SwarmArgs) -> Result<(), String> {
    let addr = server_addr("--server", &args.server)?;
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
    if args.quick_match {
        let mut addrs = vec![addr];
        for a in &args.also_servers {
            addrs.push(server_addr("--also-server", a)?);
        }
        return rt.block_on(crate::quick_swarm::run(args, addrs, level));
    }
    rt.block_on(swarm(args, addr, level))
}

async fn swarm(args: SwarmArgs, addr: SocketAddr, level: AiLevel) -> Result<(), String> {
    let totals = Arc::new(Totals::default());
    let bar = ProgressBar::new(args.rooms as u64);
    bar.set_style(
        ProgressStyle::with_template("{elapsed_precise} [{bar:40}] {pos}/{len} rooms finished {msg}")
            .unwrap_or_else(|_| ProgressStyle::default_bar()),
    );
    let peak_rss = Arc::new(AtomicU64::new(0));
    let sampler = args.server_pid.map(|pid| {
        let peak = peak_rss.clone();
        tokio::spawn(async move {
            loop {
                if let Some(kb) = rss_kb(pid) {
                    peak.fetch_max(kb, Relaxed);
                }
                tokio::time::sleep(Duration::from_millis(500)).await;
            }
        })
    });
    let start = Instant::now();
    let mut tasks = Vec::new();
    for i in 0..args.rooms {
        let (totals, args, bar) = (totals.clone(), args.clone(), bar.clone());
        tasks.push(tokio::spawn(async move {
            let deadline = Duration::from_secs(args.timeout_s);
            let res = tokio::time::timeout(deadline, room(addr, i, &args, level, &totals)).await;
            match res {
                Ok(Ok(())) => {
                    totals.finished.fetch_add(1, Relaxed);
                    bar.inc(1);
                }
                Ok(Err(e)) => {
                    totals.failures.fetch_add(1, Relaxed);
                    bar.suspend(|| eprintln!("room {i}: {e}"));
                }
                Err(_) => {
                    totals.failures.fetch_add(1, Relaxed);
                    bar.suspend(|| eprintln!("room {i}: not finished after {}s", args.timeout_s));
                }
            }
        }));
        // Stagger the set-up a little so 4,000 registrations do not arrive in one burst.
        if i % 50 == 49 {
            tokio::time::sleep(Duration::from_millis(20)).await;
        }
    }
    for t in tasks {
        let _ = t.await;
    }
    let mut rtts: Vec<u64> = std::mem::take(&mut *totals.rtts_us.lock().unwrap_or_else(|e| e.into_inner()));
    bar.finish();
    if let Some(s) = sampler {
        s.abort();
    }
    let elapsed = start.elapsed().as_secs_f64();
    rtts.sort_unstable();
    let pct = |p: f64| {
        if rtts.is_empty() { 0.0 } else { rtts[((rtts.len() - 1) as f64 * p).round() as usize] as f64 / 1000.0 }
    };
    let actions = totals.actions.load(Relaxed);
    let report = serde_json::json!({
        "rooms": args.rooms,
        "rooms_finished": totals.finished.load(Relaxed),
        "actions": actions,
        "actions_per_s": actions as f64 / elapsed.max(1e-9),
        "rtt_ms_p50": pct(0.50),
        "rtt_ms_p99": pct(0.99),
        "rtt_samples": rtts.len(),
        "desyncs": totals.desyncs.load(Relaxed),
        "lost_actions": totals.lost.load(Relaxed),
        "duplicated_actions": totals.duplicated.load(Relaxed),
        "errors": totals.errors.load(Relaxed),
        "reconnects": totals.reconnects.load(Relaxed),
        "spectator_messages": totals.spectator_msgs.load(Relaxed),
        "flood": args.flood,
        "flood_messages": totals.flood_msgs.load(Relaxed),
        "room_failures": totals.failures.load(Relaxed),
        "drop_rate": args.drop_rate,
        "ai": args.ai,
        "elapsed_s": elapsed,
        "server_peak_rss_kb": args.server_pid.map(|_| peak_rss.load(Relaxed)),
        "server_peak_rss_kb_per_room": args.server_pid.map(|_| peak_rss.load(Relaxed) as f64 / args.rooms.max(1) as f64),
    });
    println!(
        "{} of {} rooms finished, {actions} actions in {elapsed:.1} s; round trip p50 {:.2} ms, p99 {:.2} ms; desyncs {}, lost {}, duplicated {}, protocol errors {}, reconnects {}",
        report["rooms_finished"],
        args.rooms,
        pct(0.5),
        pct(0.99),
        report["desyncs"],
        report["lost_actions"],
        report["duplicated_actions"],
        report["errors"],
        report["reconnects"]
    );
    if args.json {
        println!("{report}");
    }
    if totals.failures.load(Relaxed) > 0 {
        return Err(format!("{} rooms did not finish", totals.failures.load(Relaxed)));
    }
    Ok(())
}

fn rss_kb(pid: u32) -> Option<u64> {
    let s = std::fs::read_to_string(format!("/proc/{pid}/status")).ok()?;
    s.lines().find(|l| l.starts_with("VmRSS:"))?.split_whitespace().nth(1)?.parse().ok()
}

/// One plain HTTP request to the server (ureq, blocking, on tokio's blocking pool): the reply, or
/// the server's refusal as text.
async fn http<T: serde::de::DeserializeOwned + Send + 'static>(
    addr: SocketAddr,
    path: String,
    post: Option<String>,
) -> Result<T, String> {
    let call = move || {
        let agent: ureq::Agent = ureq::Agent::config_builder()
            .timeout_global(Some(Duration::from_secs(60)))
            // A refusal's body says why: read it rather than stop at the status.
            .http_status_as_error(false)
            .build()
            .into();
        let url = format!("http://{addr}{path}");
        let answer = match post {
            Some(body) => agent.post(&url).content_type("application/json").send(body.as_str()),
            None => agent.get(&url).call(),
        };
        let mut answer = answer.map_err(|e| format!("{path}: {e}"))?;
        let status = answer.status().as_u16();
        // Stored matches run to a few hundred KB; ureq's default cap (10 MB) is kept.
        let body = answer.body_mut().read_to_vec().map_err(|e| format!("{path}: {e}"))?;
        read_reply(status, &body).map_err(|e| format!("{path}: HTTP {status} {} {}", e.name, e.message))
    };
    tokio::task::spawn_blocking(call).await.map_err(|e| e.to_string())?
}

/// A finished match as the server stored it.
pub(crate) async fn finished_match(addr: SocketAddr, code: &str, match_no: u32) -> Result<MatchLog, String> {
    let m: FinishedMatch = http(addr, match_path(code, match_no), None).await?;
    MatchLog::parse(&m.log).map_err(|e| format!("stored log: {e}"))
}

pub(crate) type Ws = tokio_tungstenite::WebSocketStream<tokio_tungstenite::MaybeTlsStream<tokio::net::TcpStream>>;

/// A connection and the player's protocol session: every message in or out goes through the
/// session (the room and last action seq to come back to, gaps answered with a resync).
pub(crate) struct Link {
    ws: Ws,
    pub(crate) session: Session,
}

impl Link {
    /// A welcomed connection: sends the session's answers to the welcome (the rejoin). On
    /// failure the session is handed back for the next attempt.
    async fn over(ws: Ws, session: Session, answers: Vec<ClientMsg>) -> Result<Link, (String, Session)> {
        let mut link = Link { ws, session };
        for a in &answers {
            if let Err(e) = link.send(a).await {
                return Err((e, link.session));
            }
        }
        Ok(link)
    }

    pub(crate) async fn send(&mut self, m: &ClientMsg) -> Result<(), String> {
        self.session.sending(m, Instant::now());
        send(&mut self.ws, m).await
    }

    /// The next message for the client (answering what the session answers), and its place in
    /// the action sequence.
    pub(crate) async fn recv(&mut self) -> Result<(ServerMsg, Order), String> {
        loop {
            let m = recv(&mut self.ws).await?;
            let (event, answers) = self.session.received(m, Instant::now());
            for a in &answers {
                self.send(a).await?;
            }
            match event {
                Event::Message(m, order) => return Ok((*m, order)),
                // A pong still counts as a sign of life (the quiet-table check).
                Event::Latency(_) => return Ok((ServerMsg::Pong, Order::Next)),
                Event::Welcomed { .. } => {}
                Event::Refused(r) => return Err(format!("refused: {}", r.message())),
            }
        }
    }

    pub(crate) async fn close(&mut self) {
        let _ = self.ws.close(None).await;
    }
}

async fn send(ws: &mut Ws, m: &ClientMsg) -> Result<(), String> {
    let t = serde_json::to_string(m).map_err(|e| e.to_string())?;
    ws.send(Message::Text(t.into())).await.map_err(|e| format!("send: {e}"))
}

async fn recv(ws: &mut Ws) -> Result<ServerMsg, String> {
    loop {
        let f = tokio::time::timeout(Duration::from_secs(60), ws.next())
            .await
            .map_err(|_| "no message for 60 s".to_string())?
            .ok_or("connection closed")?
            .map_err(|e| format!("ws: {e}"))?;
        if let Message::Text(t) = f {
            return serde_json::from_str(t.as_str()).map_err(|e| format!("bad server message: {e}"));
        }
    }
}

/// Registers a guest and connects as it.
pub(crate) async fn login(addr: SocketAddr, name: &str) -> Result<Link, String> {
    let (id, token) = register(addr, name).await?;
    let cfg = SessionConfig { heartbeat: HEARTBEAT, resync_on_rejoin: false, ..SessionConfig::default() };
    let mut session = Session::new(id, token, cfg);
    let (ws, answers) = connect(addr, &mut session).await?;
    Link::over(ws, session, answers).await.map_err(|(e, _)| e)
}

/// Connects and says hello: the socket and what the session answers the welcome with (the
/// rejoin, when it was welcomed before).
async fn connect(addr: SocketAddr, session: &mut Session) -> Result<(Ws, Vec<ClientMsg>), String> {
    // Small buffers (thousands of clients in one process) and no Nagle delay on small writes.
    let config = WebSocketConfig::default().read_buffer_size(4096).write_buffer_size(0);
    let (mut ws, _) = tokio_tungstenite::connect_async_with_config(format!("ws://{addr}{WS_PATH}"), Some(config), true)
        .await
        .map_err(|e| format!("ws connect: {e}"))?;
    let hello = session.opened(Instant::now());
    send(&mut ws, &hello).await?;
    match session.received(recv(&mut ws).await?, Instant::now()) {
        (Event::Welcomed { .. }, answers) => Ok((ws, answers)),
        (Event::Refused(r), _) => Err(format!("hello refused: {}", r.message())),
        (other, _) => Err(format!("hello answered with {other:?}")),
    }
}

/// The same account on another instance (the server redirected it there): a new connection
/// with the session's credentials; the old one is closed.
pub(crate) async fn move_to(addr: SocketAddr, link: Link) -> Result<Link, String> {
    let Link { mut ws, mut session } = link;
    let _ = ws.close(None).await;
    let (ws, answers) = connect(addr, &mut session).await?;
    Link::over(ws, session, answers).await.map_err(|(e, _)| e)
}

/// Comes back after a lost connection: logs in again and rejoins the room with the last action
/// seq seen (the server then sends what was missed). Tries at once, then with the session's
/// backoff (exponential with jitter, for at least a minute): the server may be restarting.
async fn rejoin(addr: SocketAddr, link: Link, jitter: &mut ChaCha8Rng) -> Result<Link, String> {
    let Link { ws, mut session } = link;
    drop(ws);
    loop {
        let e = match tokio::time::timeout(Duration::from_secs(10), connect(addr, &mut session)).await {
            Ok(Ok((ws, answers))) => match Link::over(ws, session, answers).await {
                Ok(link) => return Ok(link),
                Err((e, s)) => {
                    session = s;
                    e
                }
            },
            Ok(Err(e)) => e,
            Err(_) => "no answer within 10 s".to_string(),
        };
        match session.dropped(Instant::now(), jitter.next_u64()) {
            Reconnect::After(wait) => tokio::time::sleep(wait).await,
            Reconnect::GiveUp => {
                return Err(format!(
                    "could not reconnect in {:?} ({} attempts), last: {e}",
                    session.patience(),
                    session.attempts()
                ));
            }
        }
    }
}

pub(crate) async fn register(addr: SocketAddr, name: &str) -> Result<(String, String), String> {
    let body = serde_json::to_string(&NewPlayer { nickname: name.into() }).map_err(|e| e.to_string())?;
    let reply: NewPlayerReply =
        http(addr, PLAYERS_PATH.into(), Some(body)).await.map_err(|e| format!("register: {e}"))?;
    Ok((reply.player_id, reply.token))
}

/// Waits for a message matching `pred` (others are ignored).
pub(crate) async fn until(link: &mut Link, what: &str, pred: impl Fn(&ServerMsg) -> bool) -> Result<ServerMsg, String> {
    for _ in 0..10_000 {
        let (m, _) = link.recv().await?;
        if let ServerMsg::Error { code, message, .. } = &m {
            return Err(format!("waiting for {what}: error {code} {message}"));
        }
        if pred(&m) {
            return Ok(m);
        }
    }
    Err(format!("never got {what}"))
}

/// One room: set up, play to the end, verify against the stored log. Returns RTT samples (µs).
async fn room(
    addr: SocketAddr,
    i: usize,
    args: &SwarmArgs,
    level: AiLevel,
    totals: &Arc<Totals>,
) -> Result<(), String> {
    let mut socks = Vec::new();
    for s in 0..4 {
        socks.push(login(addr, &format!("swarm{i}-{s}")).await?);
    }
    // Deals come from the server, unless the run asks for the same matches every time (a
    // practice server).
    let seed = args.deal_seeds.then(|| args.seed + i as u64);
    let create = ClientMsg::CreateRoom { rules: None, spectator_delay: None, seed, spectator_hands: None };
    socks[0].send(&create).await?;
    let code = match until(&mut socks[0], "joined", |m| matches!(m, ServerMsg::Joined { .. })).await? {
        ServerMsg::Joined { code, .. } => code,
        _ => unreachable!(),
    };
    for ws in socks.iter_mut().skip(1) {
        ws.send(&ClientMsg::JoinRoom { code: code.clone(), last_action_seq: None }).await?;
        until(ws, "joined", |m| matches!(m, ServerMsg::Joined { .. })).await?;
    }
    for ws in socks.iter_mut() {
        ws.send(&ClientMsg::Ready { ready: true }).await?;
    }
    for ws in socks.iter_mut() {
        until(ws, "ready check", |m| matches!(m, ServerMsg::Room { room } if room.seats.iter().all(|s| s.ready)))
            .await?;
    }
    let mut spectators = Vec::new();
    for k in 0..args.spectators {
        let mut ws = login(addr, &format!("watch{i}-{k}")).await?;
        ws.send(&ClientMsg::Spectate { code: code.clone() }).await?;
        until(&mut ws, "joined", |m| matches!(m, ServerMsg::Joined { .. })).await?;
        spectators.push(ws);
    }
    socks[0].send(&ClientMsg::Start).await?;
    // Tools wait for this line (tools/fault-test kills the server once every match runs).
    if totals.started.fetch_add(1, Relaxed) + 1 == args.rooms as u64 {
        eprintln!("swarm: all {} rooms playing", args.rooms);
    }
    let mut players = Vec::new();
    for (s, ws) in socks.into_iter().enumerate() {
        let seed = args.seed ^ ((i as u64) << 8) ^ s as u64;
        let how = Client {
            level,
            drop_rate: args.drop_rate,
            think: Duration::from_millis(args.think_ms),
            seed,
            totals: totals.clone(),
        };
        let seat = s as u8;
        players.push(tokio::spawn(async move { play(addr, ws, seat, how).await }));
    }
    // The attack, until the match is over.
    let (over_tx, over) = tokio::sync::watch::channel(false);
    let mut flooders = Vec::new();
    if let Some(kind) = args.flood.clone() {
        for k in 0..args.flooders {
            let mut link = login(addr, &format!("flood{i}-{k}")).await?;
            link.send(&ClientMsg::Spectate { code: code.clone() }).await?;
            let ws = link.ws;
            let (code, kind, totals, mut over) = (code.clone(), kind.clone(), totals.clone(), over.clone());
            let every = Duration::from_secs_f64(1.0 / args.flood_rate.max(0.1));
            flooders.push(tokio::spawn(async move {
                let m = if kind == "resync" { ClientMsg::Resync } else { ClientMsg::Spectate { code: code.clone() } };
                let Ok(text) = serde_json::to_string(&m) else { return };
                let (mut sink, mut stream) = ws.split();
                let mut tick = tokio::time::interval(every);
                loop {
                    tokio::select! {
                        _ = tick.tick() => {
                            if sink.send(Message::Text(text.clone().into())).await.is_err() {
                                return;
                            }
                            totals.flood_msgs.fetch_add(1, Relaxed);
                        }
                        // Read (and drop) what comes back: a client that does not read is cut off.
                        f = stream.next() => if !matches!(f, Some(Ok(_))) { return },
                        _ = async { drop(over.wait_for(|o| *o).await) } => return,
                    }
                }
            }));
        }
    }
    let mut watchers = Vec::new();
    for mut ws in spectators {
        watchers.push(tokio::spawn(async move {
            let mut n = 0u64;
            loop {
                // Spectators hear nothing for rounds at a time: heartbeat while waiting.
                match tokio::time::timeout(Duration::from_secs(4), ws.recv()).await {
                    Err(_) => ws.send(&ClientMsg::Heartbeat).await?,
                    Ok(Ok((ServerMsg::MatchStored { .. }, _))) => return Ok(n),
                    Ok(Ok((ServerMsg::State { view, .. }, _))) if !view.hand.is_empty() => {
                        return Err("spectator got a hand".to_string());
                    }
                    Ok(Ok(_)) => n += 1,
                    Ok(Err(e)) => return Err(e),
                }
            }
        }));
    }
    let mut seen = Vec::new();
    let mut match_no = 0;
    for p in players {
        let (s, no, _) = p.await.map_err(|e| e.to_string())??;
        match_no = no;
        seen.push(s);
    }
    let _ = over_tx.send(true);
    for f in flooders {
        let _ = f.await;
    }
    for w in watchers {
        totals.spectator_msgs.fetch_add(w.await.map_err(|e| e.to_string())??, Relaxed);
    }
    verify(addr, &code, match_no, seen, totals, true).await
}

/// Checks what clients of one table saw against the match's stored record (every hash, every
/// action announced once) and adds it to the totals; the match's actions are counted when
/// `count_actions` (once per table).
pub(crate) async fn verify(
    addr: SocketAddr,
    code: &str,
    match_no: u32,
    seen: Vec<Seen>,
    totals: &Totals,
    count_actions: bool,
) -> Result<(), String> {
    let log = finished_match(addr, code, match_no).await?;
    let (mut m, _) = log.start().map_err(|e| e.to_string())?;
    let mut hashes = vec![m.state_hash()];
    for a in &log.actions {
        m.apply(a).map_err(|e| format!("stored log does not replay: {e}"))?;
        hashes.push(m.state_hash());
    }
    let n = log.actions.len() as u64;
    if count_actions {
        totals.actions.fetch_add(n, Relaxed);
    }
    let hashes: Vec<Option<u64>> = hashes.iter().map(|h| hash_key(h)).collect();
    for s in seen {
        for (seq, h) in s.hashes.iter().enumerate() {
            if h.is_some() && hashes.get(seq) != Some(h) {
                totals.desyncs.fetch_add(1, Relaxed);
            }
        }
        let (lost, duplicated) = s.tally(n);
        totals.lost.fetch_add(lost, Relaxed);
        totals.duplicated.fetch_add(duplicated, Relaxed);
        totals.errors.fetch_add(s.errors, Relaxed);
        totals.reconnects.fetch_add(s.reconnects, Relaxed);
    }
    Ok(())
}

/// How a seat's client plays.
pub(crate) struct Client {
    pub(crate) level: AiLevel,
    pub(crate) drop_rate: f64,
    pub(crate) think: Duration,
    pub(crate) seed: u64,
    pub(crate) totals: Arc<Totals>,
}

/// One seat's client until the match is stored: acts on prompts, heartbeats, drops and rejoins.
/// A connection the server closed (restart, shutdown, too slow to read) is come back to the
/// same way as a drop, with backoff ([`rejoin`]).
pub(crate) async fn play(addr: SocketAddr, mut link: Link, seat: u8, how: Client) -> Result<(Seen, u32, Link), String> {
    let Client { level, drop_rate, think, seed, totals } = how;
    let mut agent = make_agent(&AiProfile::level(level));
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut jitter = ChaCha8Rng::seed_from_u64(seed ^ 0x6a09_e667_f3bc_c908);
    let mut seen = Seen::arriving();
    let mut sent: Option<(u64, Instant)> = None;
    let mut quiet = 0;
    let mut lost = 0;
    // A prompt being thought about: (when to answer, the view).
    let mut thinking: Option<(Instant, guandan_proto::TableView)> = None;
    loop {
        match step(&mut link, &mut agent, &mut rng, &mut thinking, &mut sent).await {
            Step::Message(m) => {
                quiet = 0;
                let mut prompt = None;
                match *m {
                    ServerMsg::Applied { action_seq, actions, state_hash, prompt: p, seat: actor, .. } => {
                        // Counted as received (the server's losses and repeats are what is measured).
                        for seq in action_seq.saturating_sub(u64::from(actions)) + 1..=action_seq {
                            seen.count(seq);
                        }
                        seen.hash(action_seq, &state_hash);
                        // Our own intent is confirmed by our own action (two payers act side by side).
                        if let Some((seq, at)) = sent
                            && action_seq > seq
                            && actor == seat
                        {
                            let rtt = at.elapsed().as_micros() as u64;
                            totals.rtts_us.lock().unwrap_or_else(|e| e.into_inner()).push(rtt);
                            sent = None;
                        }
                        prompt = p;
                    }
                    ServerMsg::State { action_seq, state_hash, view, .. } => {
                        seen.hash(action_seq, &state_hash);
                        seen.state(action_seq);
                        if view.seat.is_some_and(|s| view.to_act.contains(&s)) {
                            prompt = Some(view);
                        }
                    }
                    ServerMsg::MatchStored { match_no, .. } => return Ok((seen, match_no, link)),
                    // Back after a restart that caught the room between the stored match and its
                    // announcement: the room came back as a lobby; the match is the last stored.
                    ServerMsg::Room { room } if !room.state.locked() && room.matches > 0 && lost > 0 => {
                        let _ = link.send(&ClientMsg::Leave).await;
                        return Ok((seen, room.matches - 1, link));
                    }
                    ServerMsg::Error { code: err, message, .. } => {
                        if seen.errors < 3 {
                            eprintln!("protocol error {err}: {message}");
                        }
                        seen.errors += 1;
                        // Refused: ask for the state and decide again.
                        sent = None;
                        prompt = None;
                        if let Err(e) = link.send(&ClientMsg::Resync).await {
                            link = reconnect(addr, link, &mut jitter, &mut lost, seat, &e).await?;
                            seen.rejoined();
                            thinking = None;
                        }
                    }
                    _ => {}
                }
                // A drop: gone without a word, then back with the last action seq.
                if drop_rate > 0.0 && prompt.is_none() && (rng.next_u64() as f64 / u64::MAX as f64) < drop_rate {
                    link.close().await;
                    link = rejoin(addr, link, &mut jitter).await?;
                    seen.rejoined();
                    sent = None;
                    thinking = None;
                    continue;
                }
                // One intent at a time: a prompt while ours is in flight is for the same duty.
                if let Some(view) = prompt.filter(|_| sent.is_none()) {
                    if think.is_zero() {
                        let d = agent.decide(&view, &mut rng, &Budget::unlimited());
                        let intent = link.session.intent(view.seq, d.action);
                        match link.send(&intent).await {
                            Ok(()) => sent = Some((view.seq, Instant::now())),
                            Err(e) => {
                                link = reconnect(addr, link, &mut jitter, &mut lost, seat, &e).await?;
                                seen.rejoined();
                                thinking = None;
                            }
                        }
                    } else {
                        // The newest prompt replaces one still being thought about (same duty,
                        // newer state).
                        let at = thinking.as_ref().map_or_else(|| Instant::now() + think, |(at, _)| *at);
                        thinking = Some((at, view));
                    }
                }
            }
            Step::Quiet => {
                quiet += 1;
                if quiet > 15 {
                    let at = link.session.last_seq().unwrap_or(0);
                    return Err(format!("seat {seat}: nothing for 60 s at action {at}"));
                }
            }
            Step::Busy => {}
            Step::Lost(e) => {
                link = reconnect(addr, link, &mut jitter, &mut lost, seat, &e).await?;
                seen.rejoined();
                sent = None;
                thinking = None;
            }
        }
    }
}

/// The connection is gone (the server closed it, or died): rejoin, a bounded number of times.
async fn reconnect(
    addr: SocketAddr,
    link: Link,
    jitter: &mut ChaCha8Rng,
    lost: &mut u32,
    seat: u8,
    why: &str,
) -> Result<Link, String> {
    *lost += 1;
    if *lost > 20 {
        return Err(format!("seat {seat}: connection lost {lost} times, last: {why}"));
    }
    rejoin(addr, link, jitter).await.map_err(|e| format!("seat {seat}: {e}"))
}

/// What one turn of a seat's loop gave.
enum Step {
    Message(Box<ServerMsg>),
    /// Four seconds without a message (a heartbeat was sent).
    Quiet,
    /// Something was sent (a thought-out intent); nothing received.
    Busy,
    /// The connection failed.
    Lost(String),
}

/// Waits for the next message, answering a thought-about prompt when its time comes and
/// heartbeating when the table is quiet.
async fn step(
    link: &mut Link,
    agent: &mut Box<dyn guandan_ai::Agent>,
    rng: &mut ChaCha8Rng,
    thinking: &mut Option<(Instant, guandan_proto::TableView)>,
    sent: &mut Option<(u64, Instant)>,
) -> Step {
    let wait = thinking.as_ref().map_or(HEARTBEAT, |(at, _)| at.saturating_duration_since(Instant::now()));
    let m = match tokio::time::timeout(wait, link.recv()).await {
        Ok(Ok((m, _))) => m,
        Ok(Err(e)) => return Step::Lost(e),
        Err(_) => {
            if let Some((_, view)) = thinking.take() {
                let d = agent.decide(&view, rng, &Budget::unlimited());
                let intent = link.session.intent(view.seq, d.action);
                if let Err(e) = link.send(&intent).await {
                    return Step::Lost(e);
                }
                *sent = Some((view.seq, Instant::now()));
                return Step::Busy;
            }
            // Quiet table (others thinking, or a reconnect in progress): stay alive.
            if let Err(e) = link.send(&ClientMsg::Heartbeat).await {
                return Step::Lost(e);
            }
            return Step::Quiet;
        }
    };
    // A heartbeat when nothing was sent for a while (the session keeps the time).
    if let Ok(Some(beat)) = link.session.tick(Instant::now())
        && let Err(e) = link.send(&beat).await
    {
        return Step::Lost(e);
    }
    Step::Message(Box::new(m))
}

#[cfg(test)]
mod tests {
    use super::Seen;

    /// A full state answering a rejoin covers the actions missed while away; a state on a live
    /// connection (a gap the client asked about) covers nothing; repeats are counted.
    #[test]
    fn a_state_after_a_rejoin_covers_what_was_missed_and_nothing_else() {
        let mut s = Seen::default();
        for seq in 1..=3 {
            s.count(seq);
        }
        s.rejoined();
        s.state(6); // 4..=6 came in the state
        s.count(7);
        s.count(7); // a repeat
        s.state(9); // live connection: 8 and 9 were never announced
        assert_eq!(s.tally(9), (2, 1));
        // Before (no coverage): 4, 5, 6, 8 and 9 were all "lost".
        let mut t = Seen::default();
        t.rejoined();
        t.count(1);
        t.state(5); // an action came first: this state is no rejoin's answer
        assert_eq!(t.tally(5), (4, 0));
    }
}
