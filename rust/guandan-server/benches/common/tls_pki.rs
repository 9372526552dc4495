//! The TLS benches' certificates and clients: a CA made at run time, a certificate for
//! localhost signed by it (written as PEM files for the server), and rustls clients trusting the
//! CA with no session resumption (every connection a full handshake).

use rcgen::{BasicConstraints, CertificateParams, DnType, IsCa, Issuer, KeyPair};
use rustls::ClientConfig;
use rustls::pki_types::CertificateDer;
use std::path::{Path, PathBuf};
use std::sync::Arc;

pub struct BenchPki {
    ca: CertificateDer<'static>,
    /// The chain (leaf, then CA) and the leaf's key, as `--tls-cert` / `--tls-key` read them.
    pub cert_path: PathBuf,
    pub key_path: PathBuf,
}

impl BenchPki {
    /// A new CA and localhost certificate, their PEM files written into `dir`.
    pub fn new(dir: &Path) -> BenchPki {
        let mut ca_params = CertificateParams::new(Vec::<String>::new()).unwrap();
        ca_params.is_ca = IsCa::Ca(BasicConstraints::Unconstrained);
        ca_params.distinguished_name.push(DnType::CommonName, "bench CA");
        let ca_key = KeyPair::generate().unwrap();
        let ca = ca_params.self_signed(&ca_key).unwrap();
        let issuer = Issuer::new(ca_params, ca_key);
        let key = KeyPair::generate().unwrap();
        let leaf = CertificateParams::new(vec!["localhost".to_string()]).unwrap().signed_by(&key, &issuer).unwrap();
        std::fs::create_dir_all(dir).unwrap();
        let (cert_path, key_path) = (dir.join("fullchain.pem"), dir.join("privkey.pem"));
        std::fs::write(&cert_path, format!("{}{}", leaf.pem(), ca.pem())).unwrap();
        std::fs::write(&key_path, key.serialize_pem()).unwrap();
        BenchPki { ca: ca.der().clone(), cert_path, key_path }
    }

    /// A client trusting the CA: X25519 first (browsers, most clients), or in the ring
    /// provider's own order (P-384 first since rustls 0.23.48: the server asks it to retry).
    pub fn client(&self, x25519_first: bool) -> Arc<ClientConfig> {
        let mut provider = guandan_server::tls::ring_provider();
        if x25519_first {
            provider.kx_groups.sort_by_key(|g| g.name() != rustls::NamedGroup::X25519);
        }
        let mut roots = rustls::RootCertStore::empty();
        roots.add(self.ca.clone()).unwrap();
        let mut client = ClientConfig::builder_with_provider(Arc::new(provider))
            .with_safe_default_protocol_versions()
            .unwrap()
            .with_root_certificates(roots)
            .with_no_client_auth();
        client.alpn_protocols = vec![b"http/1.1".to_vec()];
        // A new client each time: no session to resume.
        client.resumption = rustls::client::Resumption::disabled();
        Arc::new(client)
    }
}
