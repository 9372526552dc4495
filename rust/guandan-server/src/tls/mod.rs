//! HTTPS and WSS on the listener (`--tls-cert FILE --tls-key FILE`): rustls on the ring
//! provider, named explicitly (no process-wide default is looked up). The certificate in use is
//! held by [`Current`] and replaced whole by [`Tls::reload`] (SIGHUP, or a change of the files:
//! [`reload`]); connections that finished their handshake keep their session.

pub mod certs;
pub mod reload;

use crate::metrics::Metrics;
use certs::CertError;
use parking_lot::RwLock;
use rustls::crypto::CryptoProvider;
use rustls::server::{ClientHello, ResolvesServerCert};
use rustls::sign::CertifiedKey;
use std::path::PathBuf;
use std::sync::Arc;
use std::time::{Duration, Instant};
use tokio::net::TcpStream;
use tokio_rustls::TlsAcceptor;
use tokio_rustls::server::TlsStream;

/// The key exchange groups the server accepts, in its order of preference.
const KX_GROUPS: [&dyn rustls::crypto::SupportedKxGroup; 2] =
    [rustls::crypto::ring::kx_group::X25519, rustls::crypto::ring::kx_group::SECP256R1];

/// rustls's `ring` provider as it comes (P-384 first since rustls 0.23.48): the one place the
/// project names it. Deprecated in rustls 0.23.48 for its lack of post-quantum key exchange
/// (ML-KEM is in the aws-lc-rs provider only); the workspace keeps ring (see its Cargo.toml),
/// so key exchange is classical (docs/server.md's threat model says so). Tests and benches use
/// it as a client of any order; the server serves [`provider`].
#[allow(deprecated)]
pub fn ring_provider() -> rustls::crypto::CryptoProvider {
    rustls::crypto::ring::default_provider()
}

/// The server's cryptography: [`ring_provider`] with key exchange X25519 or P-256 only. ring's
/// P-384 costs the server ~9x the CPU of X25519 per handshake (benches/tls_handshake.rs) and
/// protects no better: a client may not make us pay for it. One that offers P-384 first gets a
/// HelloRetryRequest (a round trip more) and goes on with X25519.
pub fn provider() -> Arc<rustls::crypto::CryptoProvider> {
    let mut provider = ring_provider();
    provider.kx_groups = KX_GROUPS.to_vec();
    Arc::new(provider)
}

/// The certificate new handshakes get: swapped as a whole, read once per handshake. With ACME
/// there may be none yet (the first order is under way: handshakes fail until it is served),
/// and a handshake offering only `acme-tls/1` gets the open order's challenge certificate.
#[derive(Debug)]
struct Current {
    key: RwLock<Option<Arc<CertifiedKey>>>,
    challenges: Option<crate::acme::Challenges>,
}

impl ResolvesServerCert for Current {
    fn resolve(&self, hello: ClientHello<'_>) -> Option<Arc<CertifiedKey>> {
        if let Some(challenges) = &self.challenges
            && hello.alpn().is_some_and(|mut p| p.any(|p| p == crate::acme::ACME_TLS_ALPN))
        {
            return challenges.get(hello.server_name()?);
        }
        self.key.read().clone()
    }
}

/// The listener's TLS: the acceptor, the certificate in use and where it comes from.
pub struct Tls {
    config: Arc<rustls::ServerConfig>,
    acceptor: TlsAcceptor,
    current: Arc<Current>,
    provider: Arc<CryptoProvider>,
    pub cert_path: PathBuf,
    pub key_path: PathBuf,
    metrics: Arc<Metrics>,
}

impl Tls {
    /// TLS from `--tls-cert` and `--tls-key` (`None` without either; an error with only one,
    /// or when the files cannot be served).
    pub fn from_config(cfg: &crate::config::Config, metrics: &Arc<Metrics>) -> Result<Option<Tls>, CertError> {
        match (&cfg.tls_cert, &cfg.tls_key) {
            (None, None) => Ok(None),
            (Some(_), None) => Err(CertError::Half("tls-key")),
            (None, Some(_)) => Err(CertError::Half("tls-cert")),
            (Some(cert), Some(key)) => Tls::new(cert.clone(), key.clone(), metrics.clone()).map(Some),
        }
    }

    pub fn new(cert_path: PathBuf, key_path: PathBuf, metrics: Arc<Metrics>) -> Result<Tls, CertError> {
        Tls::build(cert_path, key_path, metrics, None)
    }

    /// TLS whose certificate comes from ACME (`--acme-domain`): the files are the ACME cache's.
    /// Without them yet, nothing is served until the first order is done; the listener also
    /// answers TLS-ALPN-01 challenges from `challenges`.
    pub fn acme(
        cert_path: PathBuf,
        key_path: PathBuf,
        metrics: Arc<Metrics>,
        challenges: crate::acme::Challenges,
    ) -> Result<Tls, CertError> {
        Tls::build(cert_path, key_path, metrics, Some(challenges))
    }

    fn build(
        cert_path: PathBuf,
        key_path: PathBuf,
        metrics: Arc<Metrics>,
        challenges: Option<crate::acme::Challenges>,
    ) -> Result<Tls, CertError> {
        let provider = provider();
        let key = match certs::load(&cert_path, &key_path, &provider) {
            Ok(loaded) => {
                announce(&loaded, &cert_path, "serving");
                metrics.tls_not_after.set(loaded.not_after);
                Some(loaded.key)
            }
            // ACME orders its first certificate (or a new one for a broken cache) after start.
            Err(e) if challenges.is_some() => {
                tracing::info!(reason = %e, "no ACME certificate yet: TLS is served once it is issued");
                None
            }
            Err(e) => return Err(e),
        };
        let acme = challenges.is_some();
        let current = Arc::new(Current { key: RwLock::new(key), challenges });
        let mut config = rustls::ServerConfig::builder_with_provider(provider.clone())
            .with_safe_default_protocol_versions()
            .map_err(|e| CertError::BadKey { path: key_path.clone(), reason: e.to_string() })?
            .with_no_client_auth()
            .with_cert_resolver(current.clone());
        // HTTP/1.1 only (the WebSocket upgrade is HTTP/1.1's); a client offering only h2 is refused.
        config.alpn_protocols = vec![b"http/1.1".to_vec()];
        if acme {
            config.alpn_protocols.push(crate::acme::ACME_TLS_ALPN.to_vec());
        }
        let config = Arc::new(config);
        let acceptor = TlsAcceptor::from(config.clone());
        Ok(Tls { config, acceptor, current, provider, cert_path, key_path, metrics })
    }

    /// What the handshakes are configured with (benches drive it without a socket).
    pub fn server_config(&self) -> Arc<rustls::ServerConfig> {
        self.config.clone()
    }

    /// Reads the files again and serves them to new handshakes. Bad files keep the certificate
    /// in use; either way the reload is counted and logged.
    pub fn reload(&self, why: &str) -> Result<(), CertError> {
        match certs::load(&self.cert_path, &self.key_path, &self.provider) {
            Ok(loaded) => {
                announce(&loaded, &self.cert_path, why);
                self.metrics.tls_not_after.set(loaded.not_after);
                *self.current.key.write() = Some(loaded.key);
                self.metrics.tls_reload(true);
                Ok(())
            }
            Err(e) => {
                tracing::warn!(error = %e, "certificate reload ({why}) failed: the previous certificate is kept");
                self.metrics.tls_reload(false);
                Err(e)
            }
        }
    }

    /// The TLS handshake of a new connection, bounded by `limit` from the first byte to the
    /// last (a client that stalls or trickles its hello is closed); `None` when it failed.
    pub async fn handshake(&self, tcp: TcpStream, limit: Duration) -> Option<TlsStream<TcpStream>> {
        let started = Instant::now();
        match tokio::time::timeout(limit, self.acceptor.accept(tcp)).await {
            Ok(Ok(stream)) => {
                self.metrics.tls_handshake(started.elapsed());
                if stream.get_ref().1.alpn_protocol() == Some(crate::acme::ACME_TLS_ALPN) {
                    // A CA checked the challenge certificate: the handshake was all it wanted.
                    tracing::info!("an ACME challenge handshake was answered");
                    return None;
                }
                Some(stream)
            }
            Ok(Err(e)) => {
                self.metrics.tls_handshake_failed("error");
                tracing::debug!(error = %e, "TLS handshake failed");
                None
            }
            Err(_) => {
                self.metrics.tls_handshake_failed("timeout");
                tracing::debug!("TLS handshake not finished within --header-timeout-ms: closed");
                None
            }
        }
    }
}

fn announce(loaded: &certs::Loaded, path: &std::path::Path, why: &str) {
    tracing::info!(
        file = %path.display(),
        subject = %loaded.subject,
        serial = %loaded.serial,
        not_after = loaded.not_after,
        "TLS certificate ({why})"
    );
    let now = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map_or(0, |d| d.as_secs());
    if i64::try_from(now).is_ok_and(|now| loaded.not_after < now) {
        tracing::warn!(file = %path.display(), not_after = loaded.not_after, "the TLS certificate has expired");
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use clap::Parser;

    #[test]
    fn one_file_without_the_other_is_refused_by_name() {
        let metrics = Arc::new(Metrics::with_tls());
        let mut cfg = crate::config::Config::parse_from(["guandan-server"]);
        assert!(Tls::from_config(&cfg, &metrics).unwrap().is_none(), "neither: plain");
        cfg.tls_cert = Some("cert.pem".into());
        let e = Tls::from_config(&cfg, &metrics).err().expect("refused").to_string();
        assert!(e.contains("--tls-key is missing"), "{e}");
        (cfg.tls_cert, cfg.tls_key) = (None, Some("key.pem".into()));
        let e = Tls::from_config(&cfg, &metrics).err().expect("refused").to_string();
        assert!(e.contains("--tls-cert is missing"), "{e}");
        // The command line says so before the server starts.
        let e = crate::config::Config::try_parse_from(["guandan-server", "--tls-cert", "c.pem"]).unwrap_err();
        assert!(e.to_string().contains("--tls-key"), "{e}");
    }
}
