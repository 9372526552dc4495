//! A blocking connection to a server, plain or TLS: what the game's network thread and the
//! competition bot run their WebSocket (sync tungstenite) over. For TLS the handshake is driven
//! to its end here, before the caller writes a byte: a refused certificate means nothing of
//! the application (no hello, no token) was sent.

use std::io::{self, Read, Write};
use std::net::{Shutdown, SocketAddr, TcpStream, ToSocketAddrs};
use std::time::Duration;

use rustls::pki_types::ServerName;
use rustls::{ClientConnection, StreamOwned};

use super::{Failure, Trust, explain, tls_error};
use crate::{Endpoint, ErrorCode};

/// A connection to a server; reads and writes plain bytes either way.
#[derive(Debug)]
pub enum Stream {
    Plain(TcpStream),
    Tls(Box<StreamOwned<ClientConnection, TcpStream>>),
}

impl Stream {
    /// The socket under the TLS.
    pub fn tcp(&self) -> &TcpStream {
        match self {
            Stream::Plain(s) => s,
            Stream::Tls(s) => &s.sock,
        }
    }

    /// How long a read may block: `WouldBlock`/`TimedOut` comes back after it, through TLS too
    /// (rustls keeps a partly read record for the next read).
    pub fn set_read_timeout(&self, d: Option<Duration>) -> io::Result<()> {
        self.tcp().set_read_timeout(d)
    }

    /// Cuts the connection without a word (no TLS close, no WebSocket close).
    pub fn shutdown(&self) -> io::Result<()> {
        self.tcp().shutdown(Shutdown::Both)
    }

    pub fn is_tls(&self) -> bool {
        matches!(self, Stream::Tls(_))
    }
}

impl Read for Stream {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        match self {
            Stream::Plain(s) => s.read(buf),
            Stream::Tls(s) => s.read(buf),
        }
    }
}

impl Write for Stream {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        match self {
            Stream::Plain(s) => s.write(buf),
            Stream::Tls(s) => s.write(buf),
        }
    }

    fn flush(&mut self) -> io::Result<()> {
        match self {
            Stream::Plain(s) => s.flush(),
            Stream::Tls(s) => s.flush(),
        }
    }
}

/// Connects to the server (each resolved address in turn, `timeout` each) and, for TLS,
/// completes the handshake with the certificate checked against `trust` and `ep.host`. The
/// stream's read timeout is left at `timeout`. An `Io` failure's message is the reason alone
/// (the caller says which server); a refused certificate's names the host.
pub fn connect(ep: &Endpoint, trust: &Trust, timeout: Duration) -> Result<Stream, Failure> {
    let hp = ep.authority();
    let unreachable = |why: String| Failure::new(ErrorCode::Io, why);
    let addrs: Vec<SocketAddr> =
        hp.to_socket_addrs().map_err(|e| unreachable(format!("cannot resolve {} ({e})", ep.host)))?.collect();
    let mut last = String::from("it has no address");
    let mut tcp = None;
    for a in addrs {
        match TcpStream::connect_timeout(&a, timeout) {
            Ok(s) => {
                tcp = Some(s);
                break;
            }
            Err(e) => last = e.to_string(),
        }
    }
    let mut tcp = tcp.ok_or_else(|| unreachable(last))?;
    let _ = tcp.set_nodelay(true);
    tcp.set_read_timeout(Some(timeout)).map_err(|e| unreachable(e.to_string()))?;
    tcp.set_write_timeout(Some(timeout)).map_err(|e| unreachable(e.to_string()))?;
    if !ep.tls {
        return Ok(Stream::Plain(tcp));
    }
    let name = ServerName::try_from(ep.host.clone())
        .map_err(|e| Failure::new(ErrorCode::BadArgument, format!("{} cannot be checked by TLS: {e}", ep.host)))?;
    let mut conn = ClientConnection::new(trust.client_config(), name)
        .map_err(|e| Failure::new(ErrorCode::Internal, format!("TLS: {e}")))?;
    while conn.is_handshaking() {
        if let Err(e) = conn.complete_io(&mut tcp) {
            return Err(match tls_error(&e) {
                Some(t) => explain(t, &ep.host),
                None if matches!(e.kind(), io::ErrorKind::WouldBlock | io::ErrorKind::TimedOut) => {
                    unreachable(format!("no TLS handshake within {} s", timeout.as_secs()))
                }
                None => unreachable(format!("the TLS handshake failed ({e})")),
            });
        }
    }
    Ok(Stream::Tls(Box::new(StreamOwned::new(conn, tcp))))
}
