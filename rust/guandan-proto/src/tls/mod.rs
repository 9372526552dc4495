//! The clients' TLS (the game, `guandan join`, `bot`, `swarm`; the server builds without the
//! `tls` feature): whom a client trusts, and what a player is told when a certificate is refused.
//!
//! The trust is Mozilla's root certificates compiled into the client (`webpki-root-certs`), not
//! the platform's store: the same trust on Linux, Windows, macOS, Android and iOS exports, with
//! no platform verifier to set up inside the GDExtension (JNI on Android), and a build that
//! cross-compiles (rustls on `ring`). The price: a root added or removed by the platform is not
//! seen until the game is updated. A private CA (tests, a self-hosted server) is added from a PEM
//! file the player or operator names; there is no "accept any certificate".
//!
//! [`stream`] is the blocking connection (the game's network thread, the competition bot); the
//! async one is the swarm's (tokio-rustls over [`Trust::client_config`]).

pub mod stream;
#[cfg(any(test, feature = "test-pki"))]
pub mod test_pki;

use std::path::Path;
use std::sync::Arc;
use std::time::Duration;

use rustls::pki_types::CertificateDer;
use rustls::pki_types::pem::PemObject;
use rustls::{CertificateError, ClientConfig, RootCertStore};

use crate::ErrorCode;

/// Why a connection or a request failed, as a player reads it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Failure {
    pub code: ErrorCode,
    pub message: String,
}

impl Failure {
    pub fn new(code: ErrorCode, message: impl Into<String>) -> Failure {
        Failure { code, message: message.into() }
    }
}

impl std::fmt::Display for Failure {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.message)
    }
}

/// Whom the client trusts: Mozilla's roots, plus the certificates of a private CA if one is
/// named. Cheap to clone (one shared rustls config for every connection).
#[derive(Clone)]
pub struct Trust {
    config: Arc<ClientConfig>,
    /// The same roots as certificates, for ureq (it builds its own rustls config from them).
    roots: Arc<Vec<CertificateDer<'static>>>,
    /// Where the private CA came from (empty: none).
    ca_file: String,
}

impl std::fmt::Debug for Trust {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Trust").field("roots", &self.roots.len()).field("ca_file", &self.ca_file).finish()
    }
}

impl Trust {
    /// Mozilla's roots only (what a server with a public certificate needs).
    pub fn mozilla() -> Trust {
        Trust::build(Vec::new(), String::new()).expect("Mozilla's roots are valid trust anchors")
    }

    /// Mozilla's roots and the CA certificates of a PEM file; an empty path is [`Trust::mozilla`].
    /// A file that cannot be read, holds no certificate or a certificate that cannot be a trust
    /// anchor is refused (`BadArgument`), with the file's name.
    pub fn with_ca_file(path: &str) -> Result<Trust, Failure> {
        if path.trim().is_empty() {
            return Ok(Trust::mozilla());
        }
        let pem = std::fs::read(Path::new(path))
            .map_err(|e| Failure::new(ErrorCode::BadArgument, format!("CA file {path}: cannot read it ({e})")))?;
        Trust::with_ca_pem(&pem, path)
    }

    /// Mozilla's roots and the CA certificates of PEM text read elsewhere (the game reads
    /// `res://` and `user://` files through Godot); `name` names it in errors.
    pub fn with_ca_pem(pem: &[u8], name: &str) -> Result<Trust, Failure> {
        let bad = |why: String| Failure::new(ErrorCode::BadArgument, format!("CA file {name}: {why}"));
        let extra = CertificateDer::pem_slice_iter(pem)
            .collect::<Result<Vec<_>, _>>()
            .map_err(|e| bad(format!("not a PEM file of certificates ({e})")))?;
        if extra.is_empty() {
            return Err(bad("no certificate in it (expected -----BEGIN CERTIFICATE-----)".into()));
        }
        Trust::build(extra, name.to_string()).map_err(bad)
    }

    fn build(extra: Vec<CertificateDer<'static>>, ca_file: String) -> Result<Trust, String> {
        let mut store = RootCertStore::empty();
        let (_, ignored) = store.add_parsable_certificates(webpki_root_certs::TLS_SERVER_ROOT_CERTS.iter().cloned());
        debug_assert_eq!(ignored, 0, "a Mozilla root rustls cannot read");
        for (i, der) in extra.iter().enumerate() {
            store.add(der.clone()).map_err(|e| format!("certificate {} cannot be trusted as a CA: {e}", i + 1))?;
        }
        let config = ClientConfig::builder_with_provider(crypto_provider())
            .with_safe_default_protocol_versions()
            .map_err(|e| e.to_string())?
            .with_root_certificates(store)
            .with_no_client_auth();
        let mut roots: Vec<CertificateDer<'static>> = webpki_root_certs::TLS_SERVER_ROOT_CERTS.to_vec();
        roots.extend(extra);
        Ok(Trust { config: Arc::new(config), roots: Arc::new(roots), ca_file })
    }

    /// The rustls settings every TLS connection of the client uses.
    pub fn client_config(&self) -> Arc<ClientConfig> {
        Arc::clone(&self.config)
    }

    /// The private CA file this trust adds (empty: none).
    pub fn ca_file(&self) -> &str {
        &self.ca_file
    }

    /// A blocking HTTP client with this trust: `https://` checked as the WebSocket is, no
    /// redirect followed (none of the server's calls redirects; following one could leave TLS),
    /// and a refusal's status and body handed back rather than made an error.
    pub fn http_agent(&self, timeout: Duration) -> ureq::Agent {
        let roots: Vec<ureq::tls::Certificate<'static>> =
            self.roots.iter().map(|c| ureq::tls::Certificate::from_der(c.as_ref()).to_owned()).collect();
        let tls = ureq::tls::TlsConfig::builder()
            .provider(ureq::tls::TlsProvider::Rustls)
            .root_certs(ureq::tls::RootCerts::new_with_certs(&roots))
            .unversioned_rustls_crypto_provider(crypto_provider())
            .build();
        ureq::Agent::config_builder()
            .timeout_global(Some(timeout))
            .http_status_as_error(false)
            .max_redirects(0)
            .tls_config(tls)
            .build()
            .into()
    }
}

/// The clients' cryptography: rustls's `ring` provider. rustls 0.23.48 deprecates it for lacking
/// post-quantum key exchange (aws-lc-rs has it); the clients keep it because aws-lc-rs needs
/// cmake/NASM and does not cross-compile for the Android and iOS exports as simply. Revisit when
/// ring's provider gains a hybrid key exchange or the exports can build aws-lc-rs.
#[allow(deprecated)]
pub fn crypto_provider() -> Arc<rustls::crypto::CryptoProvider> {
    let mut provider = rustls::crypto::ring::default_provider();
    // X25519 first (then P-256): ring's provider lists P-384 first since rustls 0.23.48, which
    // the server does not take (9x its CPU), so offering it first costs every connection a
    // HelloRetryRequest round trip.
    provider.kx_groups = vec![rustls::crypto::ring::kx_group::X25519, rustls::crypto::ring::kx_group::SECP256R1];
    Arc::new(provider)
}

/// A TLS error in the player's words (`CertificateRefused` for a refused certificate, `Io` for
/// anything else); `host` is the name the certificate was checked against.
pub fn explain(e: &rustls::Error, host: &str) -> Failure {
    use CertificateError as C;
    let refused = |m: String| Failure::new(ErrorCode::CertificateRefused, m);
    match e {
        rustls::Error::InvalidCertificate(c) => refused(match c {
            C::NotValidForName | C::NotValidForNameContext { .. } => {
                format!("the server's certificate is not valid for {host}")
            }
            C::Expired | C::ExpiredContext { .. } => "the server's certificate has expired".into(),
            C::NotValidYet | C::NotValidYetContext { .. } => {
                "the server's certificate is not valid yet (is this device's clock right?)".into()
            }
            C::UnknownIssuer => "the server's certificate is not signed by an authority this game trusts".into(),
            C::Revoked => "the server's certificate has been revoked".into(),
            C::BadSignature => "the server's certificate has a bad signature".into(),
            C::InvalidPurpose | C::InvalidPurposeContext { .. } => {
                "the server's certificate is not a certificate for a server".into()
            }
            other => format!("the server's certificate was refused ({other:?})"),
        }),
        rustls::Error::InvalidMessage(_) | rustls::Error::InappropriateMessage { .. } => Failure::new(
            ErrorCode::Io,
            format!("the server at {host} does not speak TLS (is its address http:// or ws:// rather than https://?)"),
        ),
        other => Failure::new(ErrorCode::Io, format!("the secure connection to {host} failed: {other}")),
    }
}

/// The TLS error inside an I/O error, if it is one (rustls reports through `std::io`).
pub fn tls_error(e: &std::io::Error) -> Option<&rustls::Error> {
    e.get_ref().and_then(|inner| inner.downcast_ref::<rustls::Error>())
}

/// A failed HTTP call to `server` in the player's words: a refused certificate says so;
/// anything else is "cannot reach the server at host:port".
pub fn explain_http(e: &ureq::Error, server: &crate::Endpoint) -> Failure {
    let tls = match e {
        ureq::Error::Rustls(t) => Some(t),
        ureq::Error::Io(io) => tls_error(io),
        _ => None,
    };
    match tls {
        Some(t) => explain(t, &server.host),
        None => Failure::new(ErrorCode::Io, format!("cannot reach the server at {}: {e}", server.authority())),
    }
}

#[cfg(test)]
mod tests;
