//! What a new TLS connection costs the server: full handshakes (TLS 1.3, ECDSA P-256 certificate
//! signed by a CA, X25519 key exchange, no resumption) between the listener's own rustls
//! configuration (`guandan_server::tls::Tls`) and a rustls client, over memory. "server side"
//! counts only the server's calls.
//! Run: `cargo bench -p guandan-server --bench tls_handshake`.

use criterion::{Criterion, criterion_group, criterion_main};
use rcgen::{BasicConstraints, CertificateParams, DnType, IsCa, Issuer, KeyPair};
use rustls::pki_types::ServerName;
use rustls::{ClientConfig, ClientConnection, ServerConfig, ServerConnection};
use std::sync::Arc;
use std::time::{Duration, Instant};

/// The server's and a client's configurations, the client trusting the CA.
fn configs() -> (Arc<ServerConfig>, Arc<ClientConfig>) {
    let mut ca_params = CertificateParams::new(Vec::<String>::new()).unwrap();
    ca_params.is_ca = IsCa::Ca(BasicConstraints::Unconstrained);
    ca_params.distinguished_name.push(DnType::CommonName, "bench CA");
    let ca_key = KeyPair::generate().unwrap();
    let ca = ca_params.self_signed(&ca_key).unwrap();
    let issuer = Issuer::new(ca_params, ca_key);
    let key = KeyPair::generate().unwrap();
    let leaf = CertificateParams::new(vec!["localhost".to_string()]).unwrap().signed_by(&key, &issuer).unwrap();

    let dir = std::env::temp_dir().join(format!("guandan-tls-bench-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let (cert_path, key_path) = (dir.join("fullchain.pem"), dir.join("privkey.pem"));
    std::fs::write(&cert_path, format!("{}{}", leaf.pem(), ca.pem())).unwrap();
    std::fs::write(&key_path, key.serialize_pem()).unwrap();
    let metrics = Arc::new(guandan_server::metrics::Metrics::with_tls());
    let server = guandan_server::tls::Tls::new(cert_path, key_path, metrics).unwrap().server_config();
    let _ = std::fs::remove_dir_all(&dir);

    #[allow(deprecated)] // The server's provider (guandan_server::tls says why).
    let provider = Arc::new(rustls::crypto::ring::default_provider());

    let mut roots = rustls::RootCertStore::empty();
    roots.add(ca.der().clone()).unwrap();
    let mut client = ClientConfig::builder_with_provider(provider)
        .with_safe_default_protocol_versions()
        .unwrap()
        .with_root_certificates(roots)
        .with_no_client_auth();
    client.alpn_protocols = vec![b"http/1.1".to_vec()];
    // A new client each time: no session to resume.
    client.resumption = rustls::client::Resumption::disabled();
    (server, Arc::new(client))
}

/// One full handshake; returns the time spent in the server's calls.
fn handshake(server_cfg: &Arc<ServerConfig>, client_cfg: &Arc<ClientConfig>) -> Duration {
    let mut client = ClientConnection::new(client_cfg.clone(), ServerName::try_from("localhost").unwrap()).unwrap();
    let t = Instant::now();
    let mut server = ServerConnection::new(server_cfg.clone()).unwrap();
    let mut in_server = t.elapsed();
    let mut wire = Vec::new();
    for _ in 0..10 {
        if !client.is_handshaking() && !server.is_handshaking() {
            return in_server;
        }
        wire.clear();
        while client.wants_write() {
            client.write_tls(&mut wire).unwrap();
        }
        let t = Instant::now();
        let mut rd = &wire[..];
        while !rd.is_empty() {
            server.read_tls(&mut rd).unwrap();
            server.process_new_packets().unwrap();
        }
        wire.clear();
        while server.wants_write() {
            server.write_tls(&mut wire).unwrap();
        }
        in_server += t.elapsed();
        let mut rd = &wire[..];
        while !rd.is_empty() {
            client.read_tls(&mut rd).unwrap();
            client.process_new_packets().unwrap();
        }
    }
    panic!("the handshake did not finish in 10 flights");
}

fn bench(c: &mut Criterion) {
    let (server, client) = configs();
    c.bench_function("TLS 1.3 handshake, ECDSA P-256, both sides", |b| b.iter(|| handshake(&server, &client)));
    c.bench_function("TLS 1.3 handshake, ECDSA P-256, server side", |b| {
        b.iter_custom(|n| (0..n).map(|_| handshake(&server, &client)).sum())
    });
}

criterion_group!(benches, bench);
criterion_main!(benches);
