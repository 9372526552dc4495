//! What a new TLS connection costs the server: full handshakes (TLS 1.3, ECDSA P-256 certificate
//! signed by a CA, no resumption) between the listener's own rustls
//! configuration (`guandan_server::tls::Tls`) and a rustls client, over memory. "server side"
//! counts only the server's calls, in this thread's CPU time (the figure holds on a busy machine).
//! Two clients: one offering X25519 first (browsers, most clients), one in rustls' ring order
//! (P-384 first since 0.23.48, a rustls client left at its defaults), which the server, taking
//! X25519 and P-256 only, asks to retry (HelloRetryRequest) and which then uses X25519.
//! Run: `cargo bench -p guandan-server --bench tls_handshake`.

use criterion::{Criterion, criterion_group, criterion_main};
#[path = "common/tls_pki.rs"]
mod tls_pki;

use rustls::pki_types::ServerName;
use rustls::{ClientConfig, ClientConnection, ServerConfig, ServerConnection};
use std::sync::Arc;
use std::time::Duration;
use tls_pki::BenchPki;

/// The server's configuration, and a client's trusting the CA for each key exchange: X25519
/// first, and the ring provider's default order (P-384 first).
fn configs() -> (Arc<ServerConfig>, Arc<ClientConfig>, Arc<ClientConfig>) {
    let dir = std::env::temp_dir().join(format!("guandan-tls-bench-{}", std::process::id()));
    let pki = BenchPki::new(&dir);
    let metrics = Arc::new(guandan_server::metrics::Metrics::with_tls());
    let server =
        guandan_server::tls::Tls::new(pki.cert_path.clone(), pki.key_path.clone(), metrics).unwrap().server_config();
    let _ = std::fs::remove_dir_all(&dir);
    (server, pki.client(true), pki.client(false))
}

/// This thread's CPU time so far.
fn thread_cpu() -> Duration {
    let mut ts = libc::timespec { tv_sec: 0, tv_nsec: 0 };
    // SAFETY: clock_gettime writes the timespec it is given; the clock id is a constant.
    let rc = unsafe { libc::clock_gettime(libc::CLOCK_THREAD_CPUTIME_ID, &mut ts) };
    assert_eq!(rc, 0, "clock_gettime");
    Duration::new(ts.tv_sec as u64, ts.tv_nsec as u32)
}

/// One full handshake; returns the CPU time spent in the server's calls.
fn handshake(server_cfg: &Arc<ServerConfig>, client_cfg: &Arc<ClientConfig>) -> Duration {
    let mut client = ClientConnection::new(client_cfg.clone(), ServerName::try_from("localhost").unwrap()).unwrap();
    let t = thread_cpu();
    let mut server = ServerConnection::new(server_cfg.clone()).unwrap();
    let mut in_server = thread_cpu() - t;
    let mut wire = Vec::new();
    for _ in 0..10 {
        if !client.is_handshaking() && !server.is_handshaking() {
            return in_server;
        }
        wire.clear();
        while client.wants_write() {
            client.write_tls(&mut wire).unwrap();
        }
        let t = thread_cpu();
        let mut rd = &wire[..];
        while !rd.is_empty() {
            server.read_tls(&mut rd).unwrap();
            server.process_new_packets().unwrap();
        }
        wire.clear();
        while server.wants_write() {
            server.write_tls(&mut wire).unwrap();
        }
        in_server += thread_cpu() - t;
        let mut rd = &wire[..];
        while !rd.is_empty() {
            client.read_tls(&mut rd).unwrap();
            client.process_new_packets().unwrap();
        }
    }
    panic!("the handshake did not finish in 10 flights");
}

fn bench(c: &mut Criterion) {
    let (server, x25519, p384) = configs();
    for (kx, client) in [("X25519", &x25519), ("client offers P-384 first, HelloRetryRequest to X25519", &p384)] {
        c.bench_function(&format!("TLS 1.3 handshake, ECDSA P-256, {kx}, both sides"), |b| {
            b.iter(|| handshake(&server, client))
        });
        c.bench_function(&format!("TLS 1.3 handshake, ECDSA P-256, {kx}, server side (CPU)"), |b| {
            b.iter_custom(|n| (0..n).map(|_| handshake(&server, client)).sum())
        });
    }
}

criterion_group!(benches, bench);
criterion_main!(benches);
