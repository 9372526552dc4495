//! The certificate and key files (`--tls-cert`, `--tls-key`): read, checked against each other,
//! and turned into what rustls serves. Every refusal names the file and the reason, for the
//! operator reading the startup error or the reload warning.

use rustls::crypto::CryptoProvider;
use rustls::sign::CertifiedKey;
use rustls_pki_types::pem::{self, PemObject};
use rustls_pki_types::{CertificateDer, PrivateKeyDer};
use std::path::{Path, PathBuf};
use std::sync::Arc;
use x509_cert::der::Decode;

/// Why the files cannot be served.
#[derive(Debug, thiserror::Error)]
pub enum CertError {
    #[error("--tls-cert and --tls-key go together: --{0} is missing")]
    Half(&'static str),
    #[error("cannot read {}: {source}", path.display())]
    Read { path: PathBuf, source: std::io::Error },
    #[error("{}: not a PEM file ({reason})", path.display())]
    Pem { path: PathBuf, reason: String },
    #[error("{}: no certificate in the file (expected PEM blocks \"-----BEGIN CERTIFICATE-----\")", path.display())]
    NoCertificate { path: PathBuf },
    #[error("{}: the certificate cannot be read: {reason}", path.display())]
    BadCertificate { path: PathBuf, reason: String },
    #[error(
        "{}: no private key in the file (expected PEM \"BEGIN PRIVATE KEY\" (PKCS#8), \"BEGIN RSA PRIVATE KEY\" (PKCS#1) or \"BEGIN EC PRIVATE KEY\" (SEC1))",
        path.display()
    )]
    NoKey { path: PathBuf },
    #[error("{}: the private key cannot be used: {reason}", path.display())]
    BadKey { path: PathBuf, reason: String },
    #[error("{}: the key does not match the certificate in {}", key.display(), cert.display())]
    Mismatch { key: PathBuf, cert: PathBuf },
}

/// A certificate chain and its key, ready to serve.
#[derive(Debug)]
pub struct Loaded {
    pub key: Arc<CertifiedKey>,
    /// The server certificate's notAfter (Unix seconds).
    pub not_after: i64,
    /// Its subject and serial number (hex), for the log.
    pub subject: String,
    pub serial: String,
}

/// Reads `cert` (the chain, the server's own certificate first) and `key` (PKCS#8, PKCS#1 or
/// SEC1), and checks that the key is the certificate's.
pub fn load(cert: &Path, key: &Path, provider: &CryptoProvider) -> Result<Loaded, CertError> {
    let chain = read_chain(cert)?;
    let private = read_key(key)?;
    let (not_after, subject, serial) = describe(cert, &chain[0])?;
    let certified = CertifiedKey::from_der(chain, private, provider).map_err(|e| match e {
        rustls::Error::InconsistentKeys(rustls::InconsistentKeys::KeyMismatch) => {
            CertError::Mismatch { key: key.into(), cert: cert.into() }
        }
        rustls::Error::InvalidCertificate(_) | rustls::Error::NoCertificatesPresented => {
            CertError::BadCertificate { path: cert.into(), reason: e.to_string() }
        }
        e => CertError::BadKey { path: key.into(), reason: e.to_string() },
    })?;
    Ok(Loaded { key: Arc::new(certified), not_after, subject, serial })
}

fn read(path: &Path) -> Result<Vec<u8>, CertError> {
    std::fs::read(path).map_err(|source| CertError::Read { path: path.into(), source })
}

fn pem_error(path: &Path, e: pem::Error) -> CertError {
    CertError::Pem { path: path.into(), reason: e.to_string() }
}

fn read_chain(path: &Path) -> Result<Vec<CertificateDer<'static>>, CertError> {
    let bytes = read(path)?;
    let chain =
        CertificateDer::pem_slice_iter(&bytes).collect::<Result<Vec<_>, _>>().map_err(|e| pem_error(path, e))?;
    if chain.is_empty() {
        return Err(CertError::NoCertificate { path: path.into() });
    }
    Ok(chain)
}

fn read_key(path: &Path) -> Result<PrivateKeyDer<'static>, CertError> {
    let bytes = read(path)?;
    PrivateKeyDer::from_pem_slice(&bytes).map_err(|e| match e {
        pem::Error::NoItemsFound => CertError::NoKey { path: path.into() },
        e => pem_error(path, e),
    })
}

/// notBefore and notAfter of a certificate (Unix seconds).
pub fn validity(der: &CertificateDer<'_>) -> Result<(i64, i64), String> {
    let cert = x509_cert::Certificate::from_der(der.as_ref()).map_err(|e| e.to_string())?;
    let v = &cert.tbs_certificate.validity;
    let secs =
        |t: &x509_cert::time::Time| i64::try_from(t.to_unix_duration().as_secs()).map_err(|_| "a date out of range");
    Ok((secs(&v.not_before)?, secs(&v.not_after)?))
}

/// notAfter (Unix seconds), subject and serial of the server's certificate.
fn describe(path: &Path, der: &CertificateDer<'_>) -> Result<(i64, String, String), CertError> {
    let bad = |reason: String| CertError::BadCertificate { path: path.into(), reason };
    let cert = x509_cert::Certificate::from_der(der.as_ref()).map_err(|e| bad(e.to_string()))?;
    let tbs = &cert.tbs_certificate;
    let not_after = i64::try_from(tbs.validity.not_after.to_unix_duration().as_secs())
        .map_err(|_| bad("notAfter is out of range".into()))?;
    Ok((not_after, tbs.subject.to_string(), hex::encode(tbs.serial_number.as_bytes())))
}

#[cfg(test)]
mod tests {
    use super::*;
    use rcgen::{CertificateParams, KeyPair, PKCS_ECDSA_P256_SHA256};

    struct Dir(PathBuf);
    impl Dir {
        fn new(name: &str) -> Dir {
            let d = std::env::temp_dir().join(format!("guandan-tls-certs-{}-{name}", std::process::id()));
            std::fs::create_dir_all(&d).unwrap();
            Dir(d)
        }
        fn file(&self, name: &str, text: &str) -> PathBuf {
            let p = self.0.join(name);
            std::fs::write(&p, text).unwrap();
            p
        }
    }
    impl Drop for Dir {
        fn drop(&mut self) {
            let _ = std::fs::remove_dir_all(&self.0);
        }
    }

    fn provider() -> CryptoProvider {
        super::super::ring_provider()
    }

    /// A self-signed certificate for localhost and its key (PEM), valid until 2031-06-01.
    fn self_signed(key: &KeyPair) -> String {
        let mut params = CertificateParams::new(vec!["localhost".to_string()]).unwrap();
        params.not_after = rcgen::date_time_ymd(2031, 6, 1);
        params.self_signed(key).unwrap().pem()
    }

    #[test]
    fn a_matching_pair_loads_with_its_expiry() {
        let d = Dir::new("ok");
        let key = KeyPair::generate_for(&PKCS_ECDSA_P256_SHA256).unwrap();
        let cert = d.file("cert.pem", &self_signed(&key));
        let key_file = d.file("key.pem", &key.serialize_pem());
        let loaded = load(&cert, &key_file, &provider()).expect("loads");
        assert_eq!(loaded.not_after, rcgen::date_time_ymd(2031, 6, 1).unix_timestamp());
        assert_eq!(loaded.key.cert.len(), 1);
    }

    #[test]
    fn a_sec1_key_loads_as_well_as_pkcs8() {
        let d = Dir::new("sec1");
        let key = KeyPair::generate_for(&PKCS_ECDSA_P256_SHA256).unwrap();
        let cert = d.file("cert.pem", &self_signed(&key));
        // A P-256 PKCS#8 document wraps the SEC1 ECPrivateKey (what `openssl ecparam -genkey`
        // writes) in an OCTET STRING after a fixed 29-byte header.
        let pkcs8 = key.serialize_der();
        assert_eq!((pkcs8[27], pkcs8[28] as usize), (0x04, pkcs8.len() - 29), "the layout assumed here");
        let sec1 = rustls_pki_types::PrivateSec1KeyDer::from(pkcs8[29..].to_vec());
        let pem_text = ::pem::encode(&::pem::Pem::new("EC PRIVATE KEY", sec1.secret_sec1_der()));
        let key_file = d.file("key.pem", &pem_text);
        let loaded = load(&cert, &key_file, &provider()).expect("a SEC1 key loads");
        assert!(loaded.key.keys_match().is_ok());
    }

    #[test]
    fn each_bad_file_says_which_and_why() {
        let d = Dir::new("bad");
        let key = KeyPair::generate().unwrap();
        let other = KeyPair::generate().unwrap();
        let cert = d.file("cert.pem", &self_signed(&key));
        let key_file = d.file("key.pem", &key.serialize_pem());
        let p = provider();
        let cases: Vec<(PathBuf, PathBuf, &str)> = vec![
            (d.0.join("absent.pem"), key_file.clone(), "cannot read"),
            (cert.clone(), d.0.join("absent-key.pem"), "cannot read"),
            (d.file("empty.pem", ""), key_file.clone(), "no certificate in the file"),
            // A key file given as the certificate: PEM, but no certificate in it.
            (key_file.clone(), key_file.clone(), "no certificate in the file"),
            (cert.clone(), cert.clone(), "no private key in the file"),
            (cert.clone(), d.file("garbage.pem", "not a key at all\n"), "no private key in the file"),
            (
                cert.clone(),
                d.file("cut.pem", "-----BEGIN PRIVATE KEY-----\nMIGHAgEAMBMGByqGSM49AgEG\n"),
                "not a PEM file",
            ),
            (
                cert.clone(),
                d.file("junk-key.pem", "-----BEGIN PRIVATE KEY-----\nAAAA\n-----END PRIVATE KEY-----\n"),
                "the private key cannot be used",
            ),
            (
                d.file("junk-cert.pem", "-----BEGIN CERTIFICATE-----\nAAAA\n-----END CERTIFICATE-----\n"),
                key_file.clone(),
                "the certificate cannot be read",
            ),
            (cert.clone(), d.file("other.pem", &other.serialize_pem()), "does not match the certificate"),
        ];
        for (c, k, why) in cases {
            let e = load(&c, &k, &p).expect_err(why).to_string();
            assert!(e.contains(why), "{c:?} {k:?}: {e}");
            let named = if why.starts_with("no certificate") || why.contains("certificate cannot") { &c } else { &k };
            let named = if why == "cannot read" && !c.exists() { &c } else { named };
            assert!(e.contains(&named.display().to_string()), "{e} should name {named:?}");
        }
    }
}
