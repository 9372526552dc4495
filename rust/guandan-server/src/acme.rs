//! Automatic certificates (ACME, RFC 8555: Let's Encrypt and others) for `--acme-domain`.
//!
//! The server proves it holds the name with the TLS-ALPN-01 challenge (RFC 8737) on its own TLS
//! port: while an order is open, a handshake that offers only the `acme-tls/1` protocol for the
//! name gets a challenge certificate from [`Challenges`] instead of the real one. So one port
//! (443) is all an operator opens; no plain-HTTP listener exists for the challenge.
//!
//! The account and the certificate live in `--acme-cache` (the key files owner-only): a
//! restart reuses them, and a certificate is renewed once `--acme-renew-after` of its lifetime
//! has passed (two thirds by default, as Let's Encrypt advises); a failed order is retried with
//! a growing pause. The installed certificate changes for new handshakes only: connections and
//! rooms that are open keep going.

use instant_acme::{
    Account, AccountCredentials, AuthorizationStatus, ChallengeType, Identifier, NewAccount, NewOrder, OrderStatus,
    RetryPolicy,
};
use parking_lot::Mutex;
use rustls::sign::CertifiedKey;
use rustls_pki_types::pem::PemObject;
use rustls_pki_types::{CertificateDer, PrivateKeyDer};
use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::Duration;

/// The ALPN protocol of TLS-ALPN-01 challenge handshakes.
pub const ACME_TLS_ALPN: &[u8] = b"acme-tls/1";

#[derive(Clone, Debug)]
pub struct AcmeSettings {
    /// The names on the certificate (the first names the cache files).
    pub domains: Vec<String>,
    /// The CA's directory URL.
    pub directory: String,
    pub cache: PathBuf,
    /// Contact URIs (`mailto:`) for the CA's expiry warnings.
    pub contact: Vec<String>,
    /// A CA certificate (PEM) to trust for the directory's own HTTPS (a test CA such as Pebble);
    /// `None`: Mozilla's roots.
    pub directory_ca: Option<PathBuf>,
    /// The share of a certificate's lifetime after which it is renewed.
    pub renew_after: f64,
}

#[derive(Debug, thiserror::Error)]
pub enum AcmeError {
    #[error("ACME: {0}")]
    Protocol(#[from] instant_acme::Error),
    #[error("ACME cache {path}: {error}")]
    Cache { path: String, error: String },
    #[error("ACME: {0}")]
    Other(String),
}

fn cache_error(path: &Path, error: impl std::fmt::Display) -> AcmeError {
    AcmeError::Cache { path: path.display().to_string(), error: error.to_string() }
}

/// The TLS-ALPN-01 challenge certificates of the open order, by server name.
#[derive(Clone, Default)]
pub struct Challenges(Arc<Mutex<HashMap<String, Arc<CertifiedKey>>>>);

impl std::fmt::Debug for Challenges {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_set().entries(self.0.lock().keys()).finish()
    }
}

impl Challenges {
    /// The challenge certificate for `name`, while its authorisation is pending.
    pub fn get(&self, name: &str) -> Option<Arc<CertifiedKey>> {
        self.0.lock().get(&name.to_ascii_lowercase()).cloned()
    }

    fn set(&self, name: &str, key: Arc<CertifiedKey>) {
        self.0.lock().insert(name.to_ascii_lowercase(), key);
    }

    fn clear(&self) {
        self.0.lock().clear();
    }
}

/// A certificate as issued: its chain and key (PEM) and when it is valid (Unix seconds).
#[derive(Clone)]
pub struct Issued {
    pub chain_pem: String,
    pub key_pem: String,
    pub not_before: i64,
    pub not_after: i64,
}

impl std::fmt::Debug for Issued {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        // Never the key.
        f.debug_struct("Issued").field("not_before", &self.not_before).field("not_after", &self.not_after).finish()
    }
}

impl Issued {
    /// Reads the validity of the chain's first certificate; checks that the key parses.
    pub fn parse(chain_pem: String, key_pem: String) -> Result<Issued, String> {
        let first = CertificateDer::pem_slice_iter(chain_pem.as_bytes())
            .next()
            .ok_or("no certificate in the chain")?
            .map_err(|e| format!("the chain: {e}"))?;
        let (not_before, not_after) =
            crate::tls::certs::validity(&first).map_err(|e| format!("the certificate: {e}"))?;
        PrivateKeyDer::from_pem_slice(key_pem.as_bytes()).map_err(|e| format!("the key: {e}"))?;
        Ok(Issued { chain_pem, key_pem, not_before, not_after })
    }

    /// When it is due for renewal (Unix seconds).
    pub fn renew_at(&self, renew_after: f64) -> i64 {
        let life = (self.not_after - self.not_before).max(0) as f64;
        self.not_before + (life * renew_after.clamp(0.0, 1.0)) as i64
    }

    /// The certificate as rustls serves it.
    pub fn certified_key(&self) -> Result<CertifiedKey, String> {
        let chain: Vec<CertificateDer<'static>> = CertificateDer::pem_slice_iter(self.chain_pem.as_bytes())
            .collect::<Result<_, _>>()
            .map_err(|e| format!("the chain: {e}"))?;
        let key = PrivateKeyDer::from_pem_slice(self.key_pem.as_bytes()).map_err(|e| format!("the key: {e}"))?;
        let signer = rustls::crypto::ring::sign::any_supported_type(&key).map_err(|e| format!("the key: {e}"))?;
        Ok(CertifiedKey::new(chain, signer))
    }
}

impl AcmeSettings {
    /// The cached certificate chain (what the listener serves).
    pub fn chain_path(&self) -> PathBuf {
        self.cache.join(format!("{}.chain.pem", self.domains[0]))
    }
    /// The cached certificate's key.
    pub fn key_path(&self) -> PathBuf {
        self.cache.join(format!("{}.key.pem", self.domains[0]))
    }
    fn account_path(&self) -> PathBuf {
        self.cache.join("account.json")
    }
}

/// The certificate kept in the cache, if it is there and readable.
pub fn load_cached(settings: &AcmeSettings) -> Option<Issued> {
    let chain = std::fs::read_to_string(settings.chain_path()).ok()?;
    let key = std::fs::read_to_string(settings.key_path()).ok()?;
    match Issued::parse(chain, key) {
        Ok(i) => Some(i),
        Err(e) => {
            tracing::warn!(error = %e, "the cached ACME certificate is unusable: a new one is ordered");
            None
        }
    }
}

/// Writes `contents` to `path` through a temporary file and a rename (a crash leaves the old
/// file or the new, never half of one); owner-only where permissions exist.
fn write_private(path: &Path, contents: &[u8]) -> Result<(), AcmeError> {
    let tmp = path.with_extension("tmp");
    let mut options = std::fs::OpenOptions::new();
    options.write(true).create(true).truncate(true);
    #[cfg(unix)]
    std::os::unix::fs::OpenOptionsExt::mode(&mut options, 0o600);
    let write = || -> std::io::Result<()> {
        use std::io::Write;
        let mut f = options.open(&tmp)?;
        f.write_all(contents)?;
        f.sync_all()?;
        std::fs::rename(&tmp, path)
    };
    write().map_err(|e| cache_error(path, e))
}

fn store(settings: &AcmeSettings, issued: &Issued) -> Result<(), AcmeError> {
    std::fs::create_dir_all(&settings.cache).map_err(|e| cache_error(&settings.cache, e))?;
    write_private(&settings.key_path(), issued.key_pem.as_bytes())?;
    write_private(&settings.chain_path(), issued.chain_pem.as_bytes())
}

/// The ACME account: the cached one, or a new one (then cached).
async fn account(settings: &AcmeSettings) -> Result<Account, AcmeError> {
    let builder = || match &settings.directory_ca {
        Some(ca) => Account::builder_with_root(ca),
        None => Account::builder(),
    };
    let path = settings.account_path();
    if let Ok(text) = std::fs::read_to_string(&path) {
        let credentials: AccountCredentials = serde_json::from_str(&text).map_err(|e| cache_error(&path, e))?;
        return Ok(builder()?.from_credentials(credentials).await?);
    }
    let contact: Vec<&str> = settings.contact.iter().map(String::as_str).collect();
    let new = NewAccount { contact: &contact, terms_of_service_agreed: true, only_return_existing: false };
    let (account, credentials) = builder()?.create(&new, settings.directory.clone(), None).await?;
    std::fs::create_dir_all(&settings.cache).map_err(|e| cache_error(&settings.cache, e))?;
    let text = serde_json::to_string(&credentials).map_err(|e| AcmeError::Other(e.to_string()))?;
    write_private(&path, text.as_bytes())?;
    Ok(account)
}

/// The TLS-ALPN-01 certificate for `name`: self-signed, for that name only, carrying the
/// digest of the key authorisation in the critical acmeIdentifier extension.
fn challenge_key(name: &str, digest: &[u8]) -> Result<CertifiedKey, AcmeError> {
    let fail = |e: rcgen::Error| AcmeError::Other(format!("challenge certificate: {e}"));
    let mut params = rcgen::CertificateParams::new(vec![name.to_string()]).map_err(fail)?;
    params.custom_extensions = vec![rcgen::CustomExtension::new_acme_identifier(digest)];
    let key = rcgen::KeyPair::generate().map_err(fail)?;
    let cert = params.self_signed(&key).map_err(fail)?;
    let der = PrivateKeyDer::Pkcs8(key.serialize_der().into());
    let signer = rustls::crypto::ring::sign::any_supported_type(&der).map_err(|e| AcmeError::Other(e.to_string()))?;
    Ok(CertifiedKey::new(vec![cert.der().clone()], signer))
}

/// Orders a certificate for the settings' names, answering the challenges through
/// `challenges`; stores it in the cache.
pub async fn obtain(settings: &AcmeSettings, challenges: &Challenges) -> Result<Issued, AcmeError> {
    let account = account(settings).await?;
    let identifiers: Vec<Identifier> = settings.domains.iter().map(|d| Identifier::Dns(d.clone())).collect();
    let mut order = account.new_order(&NewOrder::new(&identifiers)).await?;
    let mut authorizations = order.authorizations();
    while let Some(authz) = authorizations.next().await {
        let mut authz = authz?;
        if authz.status != AuthorizationStatus::Pending {
            continue;
        }
        let mut challenge = authz
            .challenge(ChallengeType::TlsAlpn01)
            .ok_or_else(|| AcmeError::Other("the CA offers no tls-alpn-01 challenge".into()))?;
        let name = challenge.identifier().to_string();
        let key = challenge_key(&name, challenge.key_authorization().digest().as_ref())?;
        challenges.set(&name, Arc::new(key));
        challenge.set_ready().await?;
    }
    let retries = RetryPolicy::new().timeout(Duration::from_secs(120));
    let status = order.poll_ready(&retries).await;
    challenges.clear();
    if status? != OrderStatus::Ready {
        return Err(AcmeError::Other("the CA refused the order (a challenge failed)".into()));
    }
    let key_pem = order.finalize().await?;
    let chain_pem = order.poll_certificate(&retries).await?;
    let issued = Issued::parse(chain_pem, key_pem).map_err(AcmeError::Other)?;
    store(settings, &issued)?;
    Ok(issued)
}

fn unix_now() -> i64 {
    std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map_or(0, |d| d.as_secs() as i64)
}

/// Keeps a valid certificate installed until shutdown: the cached one while it is fresh, then
/// a new one from the CA; `install` gets each (the cached one first, if any). A failed order is
/// retried after 10 s, doubling to an hour.
pub async fn run(
    settings: AcmeSettings,
    challenges: Challenges,
    install: impl Fn(&Issued) + Send + Sync + 'static,
    mut shutdown: tokio::sync::watch::Receiver<bool>,
) {
    let mut current = load_cached(&settings);
    if let Some(c) = &current {
        install(c);
    }
    let mut pause = Duration::from_secs(10);
    loop {
        let due = current.as_ref().map_or(0, |c| c.renew_at(settings.renew_after));
        let wait = Duration::from_secs(due.saturating_sub(unix_now()).max(0) as u64);
        if !wait.is_zero() {
            // Re-checked hourly at most: a suspended machine's clock may jump.
            tokio::select! {
                _ = tokio::time::sleep(wait.min(Duration::from_secs(3600))) => continue,
                _ = shutdown.wait_for(|s| *s) => return,
            }
        }
        match obtain(&settings, &challenges).await {
            Ok(issued) => {
                tracing::info!(domains = ?settings.domains, not_after = issued.not_after, "ACME certificate obtained");
                install(&issued);
                current = Some(issued);
                pause = Duration::from_secs(10);
            }
            Err(e) => {
                tracing::warn!(error = %e, retry_in_s = pause.as_secs(), "ACME order failed");
                tokio::select! {
                    _ = tokio::time::sleep(pause) => {}
                    _ = shutdown.wait_for(|s| *s) => return,
                }
                pause = (pause * 2).min(Duration::from_secs(3600));
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn self_signed(name: &str) -> (String, String) {
        let key = rcgen::KeyPair::generate().unwrap();
        let cert = rcgen::CertificateParams::new(vec![name.to_string()]).unwrap().self_signed(&key).unwrap();
        (cert.pem(), key.serialize_pem())
    }

    fn settings(dir: &Path) -> AcmeSettings {
        AcmeSettings {
            domains: vec!["game.example".into()],
            directory: "https://127.0.0.1:1/dir".into(),
            cache: dir.to_path_buf(),
            contact: vec![],
            directory_ca: None,
            renew_after: 2.0 / 3.0,
        }
    }

    #[test]
    fn renewal_falls_at_the_chosen_share_of_the_lifetime() {
        let (chain_pem, key_pem) = self_signed("game.example");
        let mut i = Issued::parse(chain_pem, key_pem).unwrap();
        assert!(i.not_after > i.not_before);
        (i.not_before, i.not_after) = (1_000, 1_090);
        assert_eq!(i.renew_at(2.0 / 3.0), 1_060);
        assert_eq!(i.renew_at(0.0), 1_000);
        assert_eq!(i.renew_at(7.0), 1_090, "clamped to the lifetime");
        assert!(!format!("{i:?}").contains("PRIVATE"), "Debug never shows the key");
    }

    #[test]
    fn the_cache_keeps_a_certificate_owner_only_and_refuses_garbage() {
        let dir = std::env::temp_dir().join(format!("guandan-acme-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        let s = settings(&dir);
        assert!(load_cached(&s).is_none(), "nothing cached yet");
        let (chain_pem, key_pem) = self_signed("game.example");
        let issued = Issued::parse(chain_pem, key_pem).unwrap();
        store(&s, &issued).unwrap();
        let back = load_cached(&s).expect("cached");
        assert_eq!((back.not_before, back.not_after), (issued.not_before, issued.not_after));
        back.certified_key().expect("rustls takes it");
        #[cfg(unix)]
        {
            use std::os::unix::fs::PermissionsExt;
            let mode = std::fs::metadata(s.key_path()).unwrap().permissions().mode() & 0o777;
            assert_eq!(mode, 0o600, "the key is owner-only");
        }
        std::fs::write(s.chain_path(), "not a certificate").unwrap();
        assert!(load_cached(&s).is_none(), "a broken cache is ordered again, not served");
        assert!(Issued::parse(String::new(), String::new()).is_err());
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[test]
    fn a_challenge_certificate_is_for_its_name_only_and_goes_with_the_order() {
        let c = Challenges::default();
        c.set("Game.Example", Arc::new(challenge_key("game.example", &[7u8; 32]).unwrap()));
        assert!(c.get("game.example").is_some(), "names are case-insensitive");
        assert!(c.get("other.example").is_none());
        c.clear();
        assert!(c.get("game.example").is_none());
    }
}
