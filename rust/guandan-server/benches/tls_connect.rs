//! A new connection to the real server binary on loopback, with TLS and without: N sequential
//! connections (TCP connect, the TLS handshake where there is one, then close), timed by the
//! client, and the server process's CPU time (user + system, /proc/PID/stat) divided by N.
//! Run: `cargo bench -p guandan-server --bench tls_connect` (GUANDAN_BENCH_CONNECTIONS=N, 2000
//! by default). Linux only (/proc).

#[path = "common/tls_pki.rs"]
mod tls_pki;

use rustls::pki_types::ServerName;
use std::io::{BufRead, BufReader};
use std::net::SocketAddr;
use std::path::Path;
use std::process::{Child, Command, Stdio};
use std::sync::Arc;
use std::time::{Duration, Instant};
use tls_pki::BenchPki;
use tokio::io::AsyncWriteExt;

struct Server {
    child: Child,
    addr: SocketAddr,
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

fn start(dir: &Path, name: &str, tls: &[&str]) -> Server {
    let db = format!("sqlite://{}/{name}.db", dir.display());
    let mut child = Command::new(env!("CARGO_BIN_EXE_guandan-server"))
        .args(["--listen", "127.0.0.1:0", "--database-url", &db, "--instance", name])
        .args(["--max-conns-per-ip", "100000", "--max-unauthenticated", "100000"])
        .args(tls)
        .env("RUST_LOG", "warn")
        .stdout(Stdio::piped())
        .spawn()
        .expect("start guandan-server");
    let mut line = String::new();
    BufReader::new(child.stdout.take().unwrap()).read_line(&mut line).unwrap();
    let addr = line.trim().strip_prefix("listening on ").expect("listening on").parse().unwrap();
    Server { child, addr }
}

/// CPU seconds (user + system) the process has used; clock ticks of 1/100 s.
fn cpu_seconds(pid: u32) -> f64 {
    let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).expect("/proc");
    let after = stat.rsplit_once(')').map_or("", |(_, r)| r);
    let f: Vec<&str> = after.split_whitespace().collect();
    (f[11].parse::<f64>().unwrap() + f[12].parse::<f64>().unwrap()) / 100.0
}

/// The client's time for each connection (connect and handshake), and the server's CPU
/// seconds over all of them.
async fn connections(server: &Server, n: usize, tls: Option<&Arc<rustls::ClientConfig>>) -> (Vec<Duration>, f64) {
    let one = || async {
        let t = Instant::now();
        let tcp = tokio::net::TcpStream::connect(server.addr).await.unwrap();
        tcp.set_nodelay(true).unwrap();
        match tls {
            Some(cfg) => {
                let name = ServerName::try_from("localhost").unwrap();
                let mut s = tokio_rustls::TlsConnector::from(cfg.clone()).connect(name, tcp).await.expect("handshake");
                let took = t.elapsed();
                let _ = s.shutdown().await;
                took
            }
            None => t.elapsed(),
        }
    };
    for _ in 0..100 {
        one().await;
    }
    tokio::time::sleep(Duration::from_millis(200)).await;
    let cpu0 = cpu_seconds(server.child.id());
    let mut times = Vec::with_capacity(n);
    for _ in 0..n {
        times.push(one().await);
    }
    // The server's side of the last closes.
    tokio::time::sleep(Duration::from_millis(200)).await;
    let cpu = cpu_seconds(server.child.id()) - cpu0;
    times.sort();
    (times, cpu)
}

fn report(what: &str, n: usize, (times, cpu): &(Vec<Duration>, f64)) {
    let ms = |d: Duration| d.as_secs_f64() * 1000.0;
    println!(
        "{what}: {n} connections; client connect{} median {:.3} ms, p99 {:.3} ms; server CPU {:.3} ms a connection ({:.2} s in all)",
        if what.starts_with("TLS") { "+handshake" } else { "" },
        ms(times[n / 2]),
        ms(times[n * 99 / 100]),
        cpu * 1000.0 / n as f64,
        cpu
    );
}

fn main() {
    // `cargo bench` passes `--bench`; a filter that is not ours means another bench was asked for.
    if std::env::args().skip(1).any(|a| !a.starts_with('-') && !"tls_connect".contains(a.as_str())) {
        return;
    }
    let n: usize = std::env::var("GUANDAN_BENCH_CONNECTIONS").ok().and_then(|v| v.parse().ok()).unwrap_or(2000);
    let dir = std::env::temp_dir().join(format!("guandan-tls-connect-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();

    let pki = BenchPki::new(&dir);
    let client = |x25519_first: bool| pki.client(x25519_first);
    let (cert_path, key_path) = (&pki.cert_path, &pki.key_path);

    let rt = tokio::runtime::Builder::new_current_thread().enable_all().build().unwrap();
    let (cert, key) = (cert_path.to_str().unwrap(), key_path.to_str().unwrap());
    let tls_server = start(&dir, "tls", &["--tls-cert", cert, "--tls-key", key]);
    let x25519 = rt.block_on(connections(&tls_server, n, Some(&client(true))));
    let p384 = rt.block_on(connections(&tls_server, n, Some(&client(false))));
    drop(tls_server);
    let plain_server = start(&dir, "plain", &[]);
    let plain = rt.block_on(connections(&plain_server, n, None));
    drop(plain_server);
    report("TLS 1.3, ECDSA P-256, X25519", n, &x25519);
    report("TLS 1.3, ECDSA P-256, client offers P-384 first (HelloRetryRequest, X25519)", n, &p384);
    report("plain TCP", n, &plain);
    let _ = std::fs::remove_dir_all(&dir);
}
