//! Tests of the clients' TLS (feature `test-pki`, dev only): a private CA made at run time
//! (committed certificates would expire), its leaves good and bad, and a one-connection TLS
//! server on loopback that records whether any application byte reached it.

use std::io::Read;
use std::net::{TcpListener, TcpStream};
use std::path::PathBuf;
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
use std::thread::JoinHandle;
use std::time::Duration;

use rcgen::{BasicConstraints, CertificateParams, DnType, IsCa, Issuer, KeyPair, date_time_ymd};
use rustls::pki_types::{CertificateDer, PrivateKeyDer, PrivatePkcs8KeyDer};
use rustls::{ServerConfig, ServerConnection, StreamOwned};

/// A server's certificate chain and key.
pub struct Leaf {
    pub chain: Vec<CertificateDer<'static>>,
    pub key: PrivateKeyDer<'static>,
}

impl Clone for Leaf {
    fn clone(&self) -> Leaf {
        Leaf { chain: self.chain.clone(), key: self.key.clone_key() }
    }
}

impl Leaf {
    /// A rustls server configuration presenting this leaf.
    pub fn server_config(&self) -> Arc<ServerConfig> {
        let config = ServerConfig::builder_with_provider(super::crypto_provider())
            .with_safe_default_protocol_versions()
            .expect("protocol versions")
            .with_no_client_auth()
            .with_single_cert(self.chain.clone(), self.key.clone_key())
            .expect("a usable certificate");
        Arc::new(config)
    }
}

/// A private CA.
pub struct Pki {
    issuer: Issuer<'static, KeyPair>,
    /// The CA certificate, PEM.
    pub ca_pem: String,
}

impl Default for Pki {
    fn default() -> Pki {
        Pki::new()
    }
}

impl Pki {
    pub fn new() -> Pki {
        let key = KeyPair::generate().expect("a key");
        let mut params = CertificateParams::new(Vec::<String>::new()).expect("CA params");
        params.is_ca = IsCa::Ca(BasicConstraints::Unconstrained);
        params.distinguished_name.push(DnType::CommonName, "Guandan test CA");
        let ca = params.self_signed(&key).expect("the CA certificate");
        Pki { ca_pem: ca.pem(), issuer: Issuer::new(params, key) }
    }

    /// A leaf for these names (DNS names or IP addresses), valid from 1975 to 4096.
    pub fn leaf(&self, names: &[&str]) -> Leaf {
        self.leaf_with(names, |_| {})
    }

    /// A leaf for these names that expired in 2001.
    pub fn expired_leaf(&self, names: &[&str]) -> Leaf {
        self.leaf_with(names, |p| {
            p.not_before = date_time_ymd(2000, 1, 1);
            p.not_after = date_time_ymd(2001, 1, 1);
        })
    }

    fn leaf_with(&self, names: &[&str], tweak: impl FnOnce(&mut CertificateParams)) -> Leaf {
        let key = KeyPair::generate().expect("a key");
        let mut params =
            CertificateParams::new(names.iter().map(|n| n.to_string()).collect::<Vec<_>>()).expect("leaf params");
        tweak(&mut params);
        let cert = params.signed_by(&key, &self.issuer).expect("a leaf");
        Leaf { chain: vec![cert.der().clone()], key: PrivatePkcs8KeyDer::from(key.serialize_der()).into() }
    }

    /// The CA certificate in a new file (removed when the returned guard drops).
    pub fn ca_file(&self) -> TempFile {
        TempFile::with(self.ca_pem.as_bytes())
    }
}

/// A self-signed leaf for these names (no CA vouches for it).
pub fn self_signed(names: &[&str]) -> Leaf {
    let key = KeyPair::generate().expect("a key");
    let params = CertificateParams::new(names.iter().map(|n| n.to_string()).collect::<Vec<_>>()).expect("params");
    let cert = params.self_signed(&key).expect("a self-signed certificate");
    Leaf { chain: vec![cert.der().clone()], key: PrivatePkcs8KeyDer::from(key.serialize_der()).into() }
}

/// A file in the temporary directory, removed on drop.
pub struct TempFile(pub PathBuf);

impl TempFile {
    pub fn with(bytes: &[u8]) -> TempFile {
        static N: AtomicU64 = AtomicU64::new(0);
        let n = N.fetch_add(1, Ordering::Relaxed);
        let path = std::env::temp_dir().join(format!("guandan-test-{}-{n}.pem", std::process::id()));
        std::fs::write(&path, bytes).expect("a temporary file");
        TempFile(path)
    }

    pub fn path(&self) -> &str {
        self.0.to_str().expect("a UTF-8 temporary path")
    }
}

impl Drop for TempFile {
    fn drop(&mut self) {
        let _ = std::fs::remove_file(&self.0);
    }
}

/// What the one-connection server saw.
#[derive(Debug)]
pub enum Served<T> {
    /// The handshake did not complete (the client refused the certificate): `app_bytes` is
    /// what could be read as application data afterwards (0: nothing was sent).
    Refused { error: String, app_bytes: usize },
    /// The handshake completed and the handler ran.
    Done(T),
}

pub type TlsServerStream = StreamOwned<ServerConnection, TcpStream>;

/// Accepts one connection on `listener`, completes a TLS handshake presenting `leaf` and hands
/// the stream to `handler`. Bounded: the socket times out after 10 s.
pub fn serve_once<T: Send + 'static>(
    listener: TcpListener,
    leaf: Leaf,
    handler: impl FnOnce(TlsServerStream) -> T + Send + 'static,
) -> JoinHandle<Served<T>> {
    std::thread::spawn(move || {
        let (mut tcp, _) = listener.accept().expect("the client connects");
        tcp.set_read_timeout(Some(Duration::from_secs(10))).expect("a timeout");
        let mut conn = ServerConnection::new(leaf.server_config()).expect("a server connection");
        while conn.is_handshaking() {
            if let Err(e) = conn.complete_io(&mut tcp) {
                // Whatever else arrives can only be read through the failed connection: count it.
                let mut app = Vec::new();
                let _ = conn.reader().read_to_end(&mut app);
                return Served::Refused { error: e.to_string(), app_bytes: app.len() };
            }
        }
        Served::Done(handler(StreamOwned::new(conn, tcp)))
    })
}
