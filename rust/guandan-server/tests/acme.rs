//! Automatic certificates against Pebble, Let's Encrypt's ACME test server, on loopback:
//! `guandan_server::acme` orders a certificate, proves the name with TLS-ALPN-01 on a TLS port
//! that answers `acme-tls/1` handshakes from its `Challenges`, stores account and certificate in
//! its cache, and renews when a share of the lifetime has passed (Pebble issues 60-second
//! certificates here). The chain is checked against Pebble's root.
//!
//! Needs `GUANDAN_TEST_PEBBLE` = the directory of `pebble` and `pebble-challtestsrv`
//! (`tools/install-pebble` prints it; `tools/test` sets it). Without it the test says so and
//! does nothing, as the PostgreSQL half of the suite does without `GUANDAN_TEST_POSTGRES`.

use guandan_server::acme::{ACME_TLS_ALPN, AcmeSettings, Challenges, Issued, load_cached, obtain, run};
use rustls::pki_types::{CertificateDer, ServerName, UnixTime};
use rustls_pki_types::pem::PemObject;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::sync::Arc;
use std::time::Duration;
use tokio::io::{AsyncReadExt, AsyncWriteExt};

const DOMAIN: &str = "game.guandan.test";

struct Proc(Child);

impl Drop for Proc {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

/// rustls on ring, as the server and the clients run it (guandan_server::tls says why ring).
fn ring() -> Arc<rustls::crypto::CryptoProvider> {
    Arc::new(guandan_server::tls::ring_provider())
}

fn free_port() -> u16 {
    std::net::TcpListener::bind("127.0.0.1:0").unwrap().local_addr().unwrap().port()
}

/// Answers TLS-ALPN-01 validation handshakes on `listener` with the challenge certificates.
#[derive(Debug)]
struct ChallengeResolver(Challenges);

impl rustls::server::ResolvesServerCert for ChallengeResolver {
    fn resolve(&self, hello: rustls::server::ClientHello<'_>) -> Option<Arc<rustls::sign::CertifiedKey>> {
        let acme = hello.alpn().is_some_and(|mut p| p.any(|p| p == ACME_TLS_ALPN));
        if !acme {
            return None;
        }
        self.0.get(hello.server_name()?)
    }
}

fn challenge_port(challenges: Challenges) -> (u16, tokio::task::JoinHandle<()>) {
    let provider = ring();
    let mut config = rustls::ServerConfig::builder_with_provider(provider)
        .with_safe_default_protocol_versions()
        .unwrap()
        .with_no_client_auth()
        .with_cert_resolver(Arc::new(ChallengeResolver(challenges)));
    config.alpn_protocols = vec![ACME_TLS_ALPN.to_vec()];
    let acceptor = tokio_rustls::TlsAcceptor::from(Arc::new(config));
    let std_listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    std_listener.set_nonblocking(true).unwrap();
    let port = std_listener.local_addr().unwrap().port();
    let listener = tokio::net::TcpListener::from_std(std_listener).unwrap();
    let task = tokio::spawn(async move {
        while let Ok((tcp, _)) = listener.accept().await {
            let acceptor = acceptor.clone();
            tokio::spawn(async move {
                let _ = tokio::time::timeout(Duration::from_secs(10), acceptor.accept(tcp)).await;
            });
        }
    });
    (port, task)
}

/// Pebble's own HTTPS identity: a CA (written to `dir/pebble-ca.pem`) and a certificate for
/// 127.0.0.1 signed by it.
fn pebble_identity(dir: &Path) -> (PathBuf, PathBuf, PathBuf) {
    let ca_key = rcgen::KeyPair::generate().unwrap();
    let mut ca_params = rcgen::CertificateParams::new(Vec::<String>::new()).unwrap();
    ca_params.is_ca = rcgen::IsCa::Ca(rcgen::BasicConstraints::Unconstrained);
    ca_params.distinguished_name.push(rcgen::DnType::CommonName, "pebble directory test CA");
    let ca = ca_params.self_signed(&ca_key).unwrap();
    let issuer = rcgen::Issuer::new(ca_params, ca_key);
    let key = rcgen::KeyPair::generate().unwrap();
    let params = rcgen::CertificateParams::new(vec!["127.0.0.1".to_string(), "localhost".to_string()]).unwrap();
    let cert = params.signed_by(&key, &issuer).unwrap();
    let (ca_path, cert_path, key_path) = (dir.join("pebble-ca.pem"), dir.join("pebble.pem"), dir.join("pebble.key"));
    std::fs::write(&ca_path, ca.pem()).unwrap();
    std::fs::write(&cert_path, cert.pem()).unwrap();
    std::fs::write(&key_path, key.serialize_pem()).unwrap();
    (ca_path, cert_path, key_path)
}

/// GET over HTTPS trusting `ca`: the body.
async fn https_get(port: u16, path: &str, ca: &Path) -> String {
    let mut roots = rustls::RootCertStore::empty();
    roots.add(CertificateDer::from_pem_file(ca).unwrap()).unwrap();
    let provider = ring();
    let config = rustls::ClientConfig::builder_with_provider(provider)
        .with_safe_default_protocol_versions()
        .unwrap()
        .with_root_certificates(roots)
        .with_no_client_auth();
    let tcp = tokio::net::TcpStream::connect(("127.0.0.1", port)).await.unwrap();
    let name = ServerName::try_from("127.0.0.1").unwrap();
    let mut tls = tokio_rustls::TlsConnector::from(Arc::new(config)).connect(name, tcp).await.unwrap();
    tls.write_all(format!("GET {path} HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n").as_bytes())
        .await
        .unwrap();
    let mut answer = Vec::new();
    let _ = tls.read_to_end(&mut answer).await;
    let text = String::from_utf8_lossy(&answer).into_owned();
    text.split_once("\r\n\r\n").map(|(_, b)| b.to_string()).unwrap_or_default()
}

/// The issued chain verifies for the domain against `root_pem`.
fn verifies(issued: &Issued, root_pem: &str) -> Result<(), rustls::Error> {
    let mut roots = rustls::RootCertStore::empty();
    for c in CertificateDer::pem_slice_iter(root_pem.as_bytes()) {
        roots.add(c.unwrap()).unwrap();
    }
    let provider = ring();
    let verifier =
        rustls::client::WebPkiServerVerifier::builder_with_provider(Arc::new(roots), provider).build().unwrap();
    let chain: Vec<CertificateDer<'static>> =
        CertificateDer::pem_slice_iter(issued.chain_pem.as_bytes()).map(|c| c.unwrap()).collect();
    use rustls::client::danger::ServerCertVerifier;
    verifier
        .verify_server_cert(&chain[0], &chain[1..], &ServerName::try_from(DOMAIN).unwrap(), &[], UnixTime::now())
        .map(|_| ())
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_certificate_is_obtained_with_tls_alpn_kept_in_the_cache_and_renewed() {
    let Some(bin) = std::env::var_os("GUANDAN_TEST_PEBBLE").map(PathBuf::from) else {
        eprintln!("acme: GUANDAN_TEST_PEBBLE is not set (tools/install-pebble): not run");
        return;
    };
    let work = std::env::temp_dir().join(format!("guandan-acme-test-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&work);
    std::fs::create_dir_all(&work).unwrap();
    let challenges = Challenges::default();
    let (tls_port, acceptor) = challenge_port(challenges.clone());

    // The mock DNS: every name is 127.0.0.1 (no AAAA: the challenge port listens on IPv4).
    let dns = free_port();
    let _dns = Proc(
        Command::new(bin.join("pebble-challtestsrv"))
            .args(["-dns01", &format!("127.0.0.1:{dns}"), "-http01", "", "-https01", "", "-tlsalpn01", ""])
            .args(["-management", &format!("127.0.0.1:{}", free_port()), "-defaultIPv6", ""])
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .expect("start pebble-challtestsrv"),
    );
    let (ca, cert, key) = pebble_identity(&work);
    let (api, management) = (free_port(), free_port());
    let config = serde_json::json!({"pebble": {
        "listenAddress": format!("127.0.0.1:{api}"),
        "managementListenAddress": format!("127.0.0.1:{management}"),
        "certificate": cert, "privateKey": key,
        "httpPort": free_port(), "tlsPort": tls_port,
        "ocspResponderURL": "", "externalAccountBindingRequired": false,
        "certificateValidityPeriod": 60,
    }});
    std::fs::write(work.join("pebble.json"), config.to_string()).unwrap();
    let _pebble = Proc(
        Command::new(bin.join("pebble"))
            .args(["-config", work.join("pebble.json").to_str().unwrap(), "-dnsserver", &format!("127.0.0.1:{dns}")])
            .env("PEBBLE_VA_NOSLEEP", "1")
            .env("PEBBLE_WFE_NONCEREJECT", "0")
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .expect("start pebble"),
    );
    let mut up = false;
    for _ in 0..100 {
        if tokio::net::TcpStream::connect(("127.0.0.1", api)).await.is_ok() {
            up = true;
            break;
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    assert!(up, "pebble did not start");

    let settings = AcmeSettings {
        domains: vec![DOMAIN.into()],
        directory: format!("https://127.0.0.1:{api}/dir"),
        cache: work.join("cache"),
        contact: vec!["mailto:operator@guandan.test".into()],
        directory_ca: Some(ca.clone()),
        renew_after: 0.25,
    };
    let first = tokio::time::timeout(Duration::from_secs(120), obtain(&settings, &challenges))
        .await
        .expect("in time")
        .expect("a certificate");
    let lifetime = first.not_after - first.not_before;
    assert!((55..=61).contains(&lifetime), "Pebble was asked for 60 s: {lifetime}");
    let root = https_get(management, "/roots/0", &ca).await;
    assert!(root.contains("BEGIN CERTIFICATE"), "Pebble's root: {root:?}");
    verifies(&first, &root).expect("the chain verifies for the domain against Pebble's root");
    assert!(verifies(&first, &std::fs::read_to_string(&ca).unwrap()).is_err(), "and not against another CA");
    assert!(challenges.get(DOMAIN).is_none(), "the challenge certificate goes with the order");

    // The cache: the certificate and the account are kept.
    let cached = load_cached(&settings).expect("cached");
    assert_eq!(cached.chain_pem, first.chain_pem);
    let account = std::fs::read_to_string(settings.cache.join("account.json")).unwrap();

    // `run`: installs the cached certificate at once, renews it after a quarter of its life
    // (15 s) with the same account.
    let (tx, mut rx) = tokio::sync::mpsc::unbounded_channel::<Issued>();
    let (stop_tx, stop_rx) = tokio::sync::watch::channel(false);
    let keeper = tokio::spawn(run(
        settings.clone(),
        challenges.clone(),
        move |i: &Issued| {
            let _ = tx.send(i.clone());
        },
        stop_rx,
    ));
    let installed = tokio::time::timeout(Duration::from_secs(5), rx.recv()).await.expect("at once").unwrap();
    assert_eq!(installed.chain_pem, first.chain_pem, "the cached certificate first");
    let renewed = tokio::time::timeout(Duration::from_secs(90), rx.recv()).await.expect("renewed in time").unwrap();
    assert_ne!(renewed.chain_pem, first.chain_pem, "a new certificate");
    assert!(renewed.not_before >= first.not_before);
    verifies(&renewed, &root).expect("the renewed chain verifies");
    assert_eq!(load_cached(&settings).unwrap().chain_pem, renewed.chain_pem, "and replaces the cached one");
    assert_eq!(std::fs::read_to_string(settings.cache.join("account.json")).unwrap(), account, "one account");
    stop_tx.send(true).unwrap();
    tokio::time::timeout(Duration::from_secs(5), keeper).await.expect("stops on shutdown").unwrap();
    acceptor.abort();
    let _ = std::fs::remove_dir_all(&work);
}
