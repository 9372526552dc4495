//! The accept loop: who may hold a connection, and for how long before saying who they are.
//!
//! - At most `--max-conns-per-ip` open connections from one source address (IPv6 counted per
//!   /64, the block one machine usually gets); more are closed at once.
//! - A connection is *unauthenticated* until its WebSocket says a good `hello`; plain HTTP
//!   requests stay so. Past `--max-unauthenticated` of them in total, the oldest is closed:
//!   sockets that stall cannot keep newcomers out.
//! - HTTP/1 with a header-read timeout (`--header-timeout-ms`: a request head that trickles in,
//!   or never comes, ends the connection) and a timeout on each plain request
//!   (`--request-timeout-ms`, answered 408). A WebSocket, once upgraded, has the hello deadline
//!   (`--auth-timeout-ms`) and then the heartbeat.
//! - With TLS (`--tls-cert`), the address limits and the unauthenticated pool count the
//!   connection before its handshake, and the handshake must end within the header-read timeout;
//!   the request head then has that timeout again. Plain text is not served on that listener.

use crate::App;
use crate::forwarded::{Forwarded, TrustedProxies};
use crate::limiter::{KeyState, Keyed, TokenBucket};
use axum::Router;
use axum::response::IntoResponse;
use hyper::body::Incoming;
use hyper_util::rt::{TokioIo, TokioTimer};
use parking_lot::Mutex;
use std::collections::{BTreeMap, HashMap, VecDeque};
use std::net::IpAddr;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering::Relaxed};
use std::time::{Duration, Instant};
use tokio::net::TcpListener;
use tokio::sync::Notify;
use tower::ServiceExt;

/// What the gate counts, shared by every connection.
#[derive(Default)]
pub struct Gate {
    per_ip: Mutex<HashMap<IpAddr, usize>>,
    /// Unauthenticated connections by id (= age: the smallest is the oldest).
    pending: Mutex<BTreeMap<u64, Arc<Notify>>>,
    next: AtomicU64,
    /// Guest accounts made per source address in the last minute.
    accounts: Keyed<IpAddr, Window>,
    /// Public HTTP reads per source address (`--public-rate`, `--public-burst`).
    public: Keyed<IpAddr, TokenBucket>,
    /// `--trusted-proxy`: whose `X-Forwarded-For` names the player.
    proxies: TrustedProxies,
}

/// The address limits count: an IPv4 address (IPv4-mapped IPv6 included), or an IPv6 /64.
pub fn source_key(ip: IpAddr) -> IpAddr {
    match ip {
        IpAddr::V4(_) => ip,
        IpAddr::V6(v6) => match v6.to_ipv4_mapped() {
            Some(v4) => IpAddr::V4(v4),
            None => {
                let s = v6.segments();
                IpAddr::V6(std::net::Ipv6Addr::new(s[0], s[1], s[2], s[3], 0, 0, 0, 0))
            }
        },
    }
}

impl Gate {
    pub fn new(proxies: TrustedProxies) -> Gate {
        Gate { proxies, ..Default::default() }
    }

    /// Counts a guest account made from `ip`; false (not counted) when it made `limit` in the
    /// last minute.
    pub fn allow_account(&self, ip: IpAddr, limit: usize, now: Instant) -> bool {
        self.accounts.with(source_key(ip), now, Window::default, |w| {
            w.0.retain(|t| now.duration_since(*t) < MINUTE);
            if w.0.len() >= limit {
                return false;
            }
            w.0.push_back(now);
            true
        })
    }

    /// Counts a public HTTP request from `ip` (leaderboard, profiles, finished matches, the
    /// room directory, metrics); false when its address is over `rate` a second (`burst` above).
    pub fn allow_public(&self, ip: IpAddr, rate: f64, burst: f64, now: Instant) -> bool {
        let now = tokio::time::Instant::from_std(now);
        self.public.with(source_key(ip), now, || TokenBucket::new(rate, burst), |b| b.allow(now))
    }
}

const MINUTE: Duration = Duration::from_secs(60);

/// A sliding window of exactly N a minute (`--accounts-per-ip-per-minute` says so, where a
/// token bucket would refill continuously): the times of the last minute's accounts.
#[derive(Default)]
struct Window(VecDeque<Instant>);

impl KeyState for Window {
    type At = Instant;
    fn is_fresh(&self, now: Instant) -> bool {
        self.0.back().is_none_or(|t| now.duration_since(*t) >= MINUTE)
    }
}

/// One TCP connection's place at the gate, shared by its HTTP handling and, after an upgrade, its
/// WebSocket session; the counts are given back when the last clone goes. Behind a trusted
/// proxy (`--trusted-proxy`) each request gets its own `Peer` ([`Peer::forwarded`]): the same
/// connection, the address of the player the proxy speaks for.
#[derive(Clone)]
pub struct Peer {
    conn: Arc<ConnSlot>,
    /// The address the limits apply to.
    ip: IpAddr,
    /// Its share of `--max-conns-per-ip` (none for a trusted proxy's own connection), given
    /// back when the last clone goes.
    _count: Option<Arc<AddressCount>>,
}

/// A connection's place among the unauthenticated.
struct ConnSlot {
    app: Arc<App>,
    id: u64,
    evict: Arc<Notify>,
    authenticated: AtomicBool,
    /// The connection comes from a trusted proxy.
    proxy: bool,
}

/// One connection counted against an address.
struct AddressCount {
    app: Arc<App>,
    key: IpAddr,
}

impl AddressCount {
    /// Counts a connection for `ip`; `None` when its address holds `--max-conns-per-ip`.
    fn take(app: &Arc<App>, ip: IpAddr) -> Option<Arc<AddressCount>> {
        let key = source_key(ip);
        let mut per_ip = app.gate().per_ip.lock();
        let n = per_ip.entry(key).or_default();
        if *n >= app.cfg().max_conns_per_ip {
            return None;
        }
        *n += 1;
        Some(Arc::new(AddressCount { app: app.clone(), key }))
    }
}

impl Drop for AddressCount {
    fn drop(&mut self) {
        let mut per_ip = self.app.gate().per_ip.lock();
        if let Some(n) = per_ip.get_mut(&self.key) {
            *n = n.saturating_sub(1);
            if *n == 0 {
                per_ip.remove(&self.key);
            }
        }
    }
}

impl Peer {
    /// Lets a new connection from `ip` in, or `None` when its address holds too many. A trusted
    /// proxy's connections are not counted here: each request is, by the address it forwards.
    fn admit(app: &Arc<App>, ip: IpAddr) -> Option<Peer> {
        let gate = &app.gate();
        let proxy = gate.proxies.contains(ip);
        let count = if proxy { None } else { Some(AddressCount::take(app, ip)?) };
        let id = gate.next.fetch_add(1, Relaxed);
        let evict = Arc::new(Notify::new());
        let oldest = {
            let mut pending = gate.pending.lock();
            pending.insert(id, evict.clone());
            if pending.len() > app.cfg().max_unauthenticated { pending.pop_first() } else { None }
        };
        app.metrics().tcp_connections.inc();
        app.metrics().unauthenticated.inc();
        if let Some((_, victim)) = oldest {
            // Out of the pool now; its connection closes when it sees the notice.
            app.metrics().unauthenticated.dec();
            app.metrics().conns_evicted.inc();
            victim.notify_one();
        }
        let conn = Arc::new(ConnSlot { app: app.clone(), id, evict, authenticated: AtomicBool::new(false), proxy });
        Some(Peer { conn, ip, _count: count })
    }

    /// This request as the player behind the proxy: counted against the player's address for
    /// as long as it lasts (a WebSocket: the whole session). `Err` when that address holds too
    /// many connections. A request of a connection that is not a trusted proxy's is itself.
    fn forwarded(&self, headers: &hyper::HeaderMap) -> Result<Peer, ()> {
        if !self.conn.proxy {
            return Ok(self.clone());
        }
        let app = &self.conn.app;
        let ip = match app.gate().proxies.client(headers) {
            Forwarded::Client(ip) => ip,
            Forwarded::Missing => {
                // Misconfigured proxy: its requests share one address's limits, so it shows.
                app.metrics().forwarded_missing.inc();
                self.ip
            }
        };
        let Some(count) = AddressCount::take(app, ip) else {
            app.metrics().conns_refused_per_ip.inc();
            return Err(());
        };
        Ok(Peer { conn: self.conn.clone(), ip, _count: Some(count) })
    }

    pub fn ip(&self) -> IpAddr {
        self.ip
    }

    /// The WebSocket said a good hello: it no longer counts as unauthenticated.
    pub fn authenticated(&self) {
        let c = &self.conn;
        if !c.authenticated.swap(true, Relaxed) && c.app.gate().pending.lock().remove(&c.id).is_some() {
            c.app.metrics().unauthenticated.dec();
        }
    }

    /// Resolves when the connection was closed to make room for newer unauthenticated ones.
    pub async fn evicted(&self) {
        self.conn.evict.notified().await;
    }
}

impl Drop for ConnSlot {
    fn drop(&mut self) {
        if self.app.gate().pending.lock().remove(&self.id).is_some() {
            self.app.metrics().unauthenticated.dec();
        }
        self.app.metrics().tcp_connections.dec();
    }
}

/// Connections the kernel holds for the accept loop. Tokio's default (1024) overflows when
/// thousands of players connect at once (a restart, the evening peak) while the one core is
/// busy: the kernel then drops their handshakes and they retry seconds later. Linux caps it at
/// `net.core.somaxconn`.
const ACCEPT_BACKLOG: u32 = 8192;

/// The listening socket (with the address reused, as the standard library's bind does).
pub fn bind(addr: std::net::SocketAddr) -> std::io::Result<TcpListener> {
    let socket = if addr.is_ipv4() { tokio::net::TcpSocket::new_v4()? } else { tokio::net::TcpSocket::new_v6()? };
    #[cfg(unix)]
    socket.set_reuseaddr(true)?;
    socket.bind(addr)?;
    socket.listen(ACCEPT_BACKLOG)
}

/// Accepts connections until shutdown; each is served on its own task.
pub async fn serve(listener: TcpListener, router: Router, app: Arc<App>) {
    let mut shutdown = app.shutdown().clone();
    loop {
        let (tcp, addr) = tokio::select! {
            r = listener.accept() => match r {
                Ok(x) => x,
                Err(e) => {
                    // Out of descriptors, or the peer gave up before the accept: go on shortly.
                    tracing::warn!(error = %e, "accept failed");
                    tokio::time::sleep(Duration::from_millis(20)).await;
                    continue;
                }
            },
            _ = async { drop(shutdown.wait_for(|s| *s).await) } => break,
        };
        let Some(peer) = Peer::admit(&app, addr.ip()) else {
            app.metrics().conns_refused_per_ip.inc();
            tracing::debug!(%addr, "too many connections from this address: closed");
            continue;
        };
        // Each message is one small write: without TCP_NODELAY, Nagle holds a write back until
        // the previous one is acknowledged (up to the client's delayed-ACK time).
        let _ = tcp.set_nodelay(true);
        tokio::spawn(connection(tcp, peer, router.clone(), app.clone()));
    }
}

/// One connection: the TLS handshake when the listener has TLS, then HTTP.
async fn connection(tcp: tokio::net::TcpStream, peer: Peer, router: Router, app: Arc<App>) {
    let Some(tls) = app.tls().clone() else {
        return http(tcp, peer, router, app).await;
    };
    let mut shutdown = app.shutdown().clone();
    let stream = tokio::select! {
        s = tls.handshake(tcp, app.cfg().header_timeout()) => s,
        _ = peer.evicted() => return tracing::debug!("connection closed in its TLS handshake for a newer one"),
        _ = async { drop(shutdown.wait_for(|s| *s).await) } => return,
    };
    if let Some(stream) = stream {
        http(stream, peer, router, app).await;
    }
}

/// HTTP/1 (with upgrades to WebSocket) until the connection ends, is evicted, or the server
/// shuts down.
async fn http<S>(io: S, peer: Peer, router: Router, app: Arc<App>)
where
    S: tokio::io::AsyncRead + tokio::io::AsyncWrite + Unpin + Send + 'static,
{
    let request_timeout = app.cfg().request_timeout();
    let for_requests = peer.clone();
    let service = hyper::service::service_fn(move |mut req: hyper::Request<Incoming>| {
        let peer = for_requests.forwarded(req.headers());
        let router = router.clone();
        async move {
            let Ok(peer) = peer else {
                return Ok(crate::refusal::error(
                    axum::http::StatusCode::TOO_MANY_REQUESTS,
                    guandan_proto::ErrorCode::RateLimited,
                    "too many connections from this address",
                )
                .into_response());
            };
            req.extensions_mut().insert(peer);
            let upgrade = req.headers().contains_key(hyper::header::UPGRADE);
            let call = router.oneshot(req);
            if upgrade {
                return call.await;
            }
            match tokio::time::timeout(request_timeout, call).await {
                Ok(r) => r,
                Err(_) => Ok(crate::refusal::error(
                    axum::http::StatusCode::REQUEST_TIMEOUT,
                    guandan_proto::ErrorCode::RateLimited,
                    "the request took too long to arrive",
                )
                .into_response()),
            }
        }
    });
    let conn = hyper::server::conn::http1::Builder::new()
        .timer(TokioTimer::new())
        .header_read_timeout(app.cfg().header_timeout())
        .serve_connection(TokioIo::new(io), service)
        .with_upgrades();
    tokio::pin!(conn);
    let mut shutdown = app.shutdown().clone();
    tokio::select! {
        r = conn.as_mut() => {
            if let Err(e) = r {
                if e.is_timeout() {
                    app.metrics().header_timeouts.inc();
                }
                tracing::debug!(error = %e, "connection ended");
            }
        }
        _ = peer.evicted() => tracing::debug!("unauthenticated connection closed for a newer one"),
        _ = async { drop(shutdown.wait_for(|s| *s).await) } => {
            conn.as_mut().graceful_shutdown();
            let _ = tokio::time::timeout(Duration::from_secs(2), conn).await;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ipv6_is_counted_per_64_and_mapped_ipv4_as_ipv4() {
        let a: IpAddr = "2001:db8:1:2:aaaa::1".parse().unwrap();
        let b: IpAddr = "2001:db8:1:2:bbbb::9".parse().unwrap();
        let c: IpAddr = "2001:db8:1:3::1".parse().unwrap();
        assert_eq!(source_key(a), source_key(b));
        assert_ne!(source_key(a), source_key(c));
        let mapped: IpAddr = "::ffff:10.0.0.7".parse().unwrap();
        assert_eq!(source_key(mapped), "10.0.0.7".parse::<IpAddr>().unwrap());
    }

    #[test]
    fn accounts_per_address_per_minute() {
        let gate = Gate::default();
        let t0 = Instant::now();
        let ip: IpAddr = "192.0.2.1".parse().unwrap();
        let other: IpAddr = "192.0.2.2".parse().unwrap();
        assert!((0..3).all(|_| gate.allow_account(ip, 3, t0)));
        assert!(!gate.allow_account(ip, 3, t0 + Duration::from_secs(59)));
        assert!(gate.allow_account(other, 3, t0));
        assert!(gate.allow_account(ip, 3, t0 + Duration::from_secs(61)), "a minute later");
    }

    #[test]
    fn public_reads_per_address() {
        let gate = Gate::default();
        let t0 = Instant::now();
        let ip: IpAddr = "192.0.2.1".parse().unwrap();
        let same_machine: IpAddr = "192.0.2.1".parse().unwrap();
        let other: IpAddr = "192.0.2.2".parse().unwrap();
        assert!((0..4).all(|_| gate.allow_public(ip, 2.0, 4.0, t0)));
        assert!(!gate.allow_public(same_machine, 2.0, 4.0, t0), "the burst is the address's, not a connection's");
        assert!(gate.allow_public(other, 2.0, 4.0, t0));
        assert!(gate.allow_public(ip, 2.0, 4.0, t0 + Duration::from_millis(500)), "refilled at the rate");
        assert!(!gate.allow_public(ip, 2.0, 4.0, t0 + Duration::from_millis(500)));
    }
}
