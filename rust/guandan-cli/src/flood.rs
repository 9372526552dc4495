//! `guandan flood`: the public-endpoint flooder of the threat model, as a measuring tool. N
//! keep-alive HTTP/1.1 connections, spread over K loopback source addresses (127.0.S.x, so
//! per-address limits can be met or dodged on purpose), each sending `GET PATH` as fast as the
//! answers come, for S seconds. Prints one JSON line: requests by status, answer latency
//! p50/p99/max, and the server's peak memory (VmHWM) with `--server-pid`.

use clap::Args;
use serde_json::json;
use std::collections::BTreeMap;
use std::net::SocketAddr;
use std::sync::Arc;
use std::time::{Duration, Instant};
use tokio::io::{AsyncReadExt, AsyncWriteExt};

#[derive(Args, Debug, Clone)]
pub struct FloodArgs {
    /// The server, e.g. http://127.0.0.1:7878: plain HTTP only (an attack on a server on this
    /// machine or its LAN; TLS would measure the handshake, not the server's HTTP limits).
    #[arg(long)]
    pub server: String,
    /// What to request; `{n}` is replaced by a number that counts up per request (distinct
    /// pages or players), e.g. `/v1/leaderboard?page={n}`.
    #[arg(long)]
    pub path: String,
    /// `{n}` runs from this number …
    #[arg(long, default_value_t = 0)]
    pub from: u64,
    /// … and wraps after this many values.
    #[arg(long, default_value_t = 1)]
    pub span: u64,
    /// Keep-alive connections.
    #[arg(long, default_value_t = 60)]
    pub connections: usize,
    /// Loopback source addresses the connections are spread over (127.0.1.1 and on; 1: all
    /// from one address).
    #[arg(long, default_value_t = 1)]
    pub sources: usize,
    /// How long to flood (s).
    #[arg(long, default_value_t = 30.0)]
    pub seconds: f64,
    /// Stop after this many requests in all (e.g. each of `--span` distinct pages asked once).
    #[arg(long)]
    pub requests: Option<u64>,
    /// Stop early once this file exists (a script ends the flood when what it measured beside
    /// it is done).
    #[arg(long)]
    pub stop_file: Option<std::path::PathBuf>,
    /// The server's process id: its peak memory (VmHWM) is reported.
    #[arg(long)]
    pub server_pid: Option<u32>,
}

#[derive(Default)]
struct Tally {
    statuses: BTreeMap<u16, u64>,
    latencies_us: Vec<u64>,
    broken: u64,
}

/// The loopback address of source `k`: 127.0.1.1, 127.0.1.2 … (never 127.0.0.1, where the
/// players measured beside the flood come from).
fn source(k: usize) -> [u8; 4] {
    [127, 0, 1 + (k / 250) as u8, 1 + (k % 250) as u8]
}

pub fn run(args: FloodArgs) -> Result<(), String> {
    let addr: SocketAddr = args
        .server
        .trim_start_matches("http://")
        .trim_end_matches('/')
        .parse()
        .map_err(|e| format!("--server {}: {e} (http://IP:PORT)", args.server))?;
    if args.connections == 0 || args.sources == 0 || args.span == 0 {
        return Err("--connections, --sources and --span are at least 1".into());
    }
    let rt = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(1)
        .enable_all()
        .build()
        .map_err(|e| e.to_string())?;
    let started = Instant::now();
    let tally = rt.block_on(flood(addr, &args));
    let seconds = started.elapsed().as_secs_f64().min(args.seconds);
    let mut lat = tally.latencies_us;
    lat.sort_unstable();
    let pct = |p: f64| guandan_ai::percentile::nearest_rank(&lat, p).map_or(0.0, |us| us as f64 / 1000.0);
    let peak_kb = args.server_pid.and_then(peak_rss_kb);
    let total: u64 = tally.statuses.values().sum();
    println!(
        "{}",
        json!({
            "path": args.path,
            "connections": args.connections,
            "sources": args.sources,
            "seconds": seconds,
            "requests": total,
            "per_second": total as f64 / seconds.max(1e-9),
            "statuses": tally.statuses,
            "broken_connections": tally.broken,
            "latency_ms_p50": pct(0.50),
            "latency_ms_p99": pct(0.99),
            "latency_ms_max": pct(1.0),
            "server_peak_rss_kb": peak_kb,
        })
    );
    Ok(())
}

async fn flood(addr: SocketAddr, args: &FloodArgs) -> Tally {
    let until = Instant::now() + Duration::from_secs_f64(args.seconds);
    let stop = Arc::new(std::sync::atomic::AtomicBool::new(false));
    if let Some(file) = args.stop_file.clone() {
        let stop = stop.clone();
        tokio::spawn(async move {
            while !file.exists() {
                tokio::time::sleep(Duration::from_millis(100)).await;
            }
            stop.store(true, std::sync::atomic::Ordering::Relaxed);
        });
    }
    let counter = Arc::new(std::sync::atomic::AtomicU64::new(0));
    let mut tasks = Vec::new();
    for c in 0..args.connections {
        let (path, counter, src) = (args.path.clone(), counter.clone(), source(c % args.sources));
        let (from, span, stop, most) = (args.from, args.span, stop.clone(), args.requests.unwrap_or(u64::MAX));
        let sent_so_far = counter.clone();
        let going = move || {
            Instant::now() < until
                && !stop.load(std::sync::atomic::Ordering::Relaxed)
                && sent_so_far.load(std::sync::atomic::Ordering::Relaxed) < most
        };
        tasks.push(tokio::spawn(async move {
            let mut t = Tally::default();
            while going() {
                let Ok(mut conn) = connect(src, addr).await else {
                    t.broken += 1;
                    tokio::time::sleep(Duration::from_millis(50)).await;
                    continue;
                };
                // Requests on this connection until the server closes it or the time is up.
                while going() {
                    let k = counter.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                    if k >= most {
                        break;
                    }
                    let n = from + k % span;
                    let p = path.replace("{n}", &n.to_string());
                    let sent = Instant::now();
                    match request(&mut conn, addr, &p, until).await {
                        Some(status) => {
                            *t.statuses.entry(status).or_default() += 1;
                            t.latencies_us.push(sent.elapsed().as_micros() as u64);
                        }
                        None => {
                            t.broken += 1;
                            break;
                        }
                    }
                }
            }
            t
        }));
    }
    let mut all = Tally::default();
    for task in tasks {
        if let Ok(t) = task.await {
            for (s, n) in t.statuses {
                *all.statuses.entry(s).or_default() += n;
            }
            all.latencies_us.extend(t.latencies_us);
            all.broken += t.broken;
        }
    }
    all
}

async fn connect(src: [u8; 4], addr: SocketAddr) -> std::io::Result<tokio::net::TcpStream> {
    let sock = tokio::net::TcpSocket::new_v4()?;
    sock.bind(SocketAddr::from((src, 0)))?;
    let s = sock.connect(addr).await?;
    s.set_nodelay(true)?;
    Ok(s)
}

/// One GET on a keep-alive connection: the answer's status, once its whole body was read.
async fn request(conn: &mut tokio::net::TcpStream, addr: SocketAddr, path: &str, until: Instant) -> Option<u16> {
    let head = format!("GET {path} HTTP/1.1\r\nHost: {addr}\r\n\r\n");
    conn.write_all(head.as_bytes()).await.ok()?;
    let mut buf = Vec::with_capacity(4096);
    let mut chunk = [0u8; 8192];
    let deadline = until + Duration::from_secs(15);
    loop {
        if let Some(end) = buf.windows(4).position(|w| w == b"\r\n\r\n") {
            let head = String::from_utf8_lossy(&buf[..end]).to_ascii_lowercase();
            let status: u16 = head.split_whitespace().nth(1)?.parse().ok()?;
            let len: usize = head
                .lines()
                .find_map(|l| l.strip_prefix("content-length:"))
                .and_then(|v| v.trim().parse().ok())
                .unwrap_or(0);
            while buf.len() < end + 4 + len {
                let n = tokio::time::timeout_at(deadline.into(), conn.read(&mut chunk)).await.ok()?.ok()?;
                if n == 0 {
                    return None;
                }
                buf.extend_from_slice(&chunk[..n]);
            }
            return Some(status);
        }
        let n = tokio::time::timeout_at(deadline.into(), conn.read(&mut chunk)).await.ok()?.ok()?;
        if n == 0 {
            return None;
        }
        buf.extend_from_slice(&chunk[..n]);
    }
}

/// Peak resident memory of a process (VmHWM, kB), on Linux.
fn peak_rss_kb(pid: u32) -> Option<u64> {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).ok()?;
    status.lines().find_map(|l| l.strip_prefix("VmHWM:")).and_then(|v| v.split_whitespace().next()?.parse().ok())
}

#[cfg(test)]
mod tests {
    #[test]
    fn sources_are_distinct_loopback_addresses() {
        let all: std::collections::HashSet<[u8; 4]> = (0..600).map(super::source).collect();
        assert_eq!(all.len(), 600);
        assert!(all.iter().all(|a| a[0] == 127 && *a != [127, 0, 0, 1]));
    }
}
